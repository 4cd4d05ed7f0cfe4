// SPDX-License-Identifier: GPL-2.0
/*
 * TM §6.1.2.1 maximum policers on a single physical port (SPEC
 * TM-POL-CAP-1) and §6.1.2.3 maximum policers on all physical ports
 * (TM-POL-CAP-3): a table of customers, each a VLAN (or a QinQ pair)
 * mapped to its own policer at the egress, all sending at once; TM-POL-1's
 * compliant and excess steps per customer stream, with its Ti from its
 * own CIR/CBS (EIR/EBS).  One port pair is CAP-1; every pair of the job's
 * ports (1 -> 2, 3 -> 4, ...) with the same table is CAP-3.
 *
 * REQ-TM-8: the customers of a port burst in turn, customer i starting at
 * i x Ti_min / n (Ti_min the smallest Ti of the table), so that the
 * bursts do not overlap while each keeps the line's intensity.  Where a
 * burst is longer than that slot the bursts share the line; and since
 * each customer keeps its own Ti, bursts of different periods can meet
 * later in Td.  So the plan says whether it fits, and each row reports
 * the intensity its bursts achieved, measured from the tx log
 * (intensity_min_pct), rather than assuming 100 %.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bm_json.h"
#include "bm_units.h"
#include "rfc7640_int.h"

#define PROC	"rfc7640.policer-customers"

/* A customer entry while it is parsed. */
struct cust_entry {
	struct tm_customer c;
	int vlan, vlan2, tpid;
};

#define CK(name, type, lo, hi, fl) \
	{ #name, type, offsetof(struct cust_entry, name), lo, hi, fl, 0, \
	  NULL, NULL }

static const struct bm_jkey cust_keys[] = {
	CK(vlan, BM_J_INT, 1, 4094, 0),
	CK(vlan2, BM_J_INT, 1, 4094, 0),
	/* 802.1Q, 802.1ad, and the old QinQ 0x9100 */
	CK(tpid, BM_J_INT, 0x8100, 0x9100, 0),
	{ "cir_bps", BM_J_DOUBLE, offsetof(struct cust_entry, c.cir_bps), 0,
	  1e13, BM_JK_MIN_EXCL, 0, NULL, NULL },
	{ "eir_bps", BM_J_DOUBLE, offsetof(struct cust_entry, c.eir_bps), 0,
	  1e13, 0, 0, NULL, NULL },
	{ "cbs", BM_J_BYTES, offsetof(struct cust_entry, c.cbs), 1, 1e12, 0, 0,
	  NULL, NULL },
	{ "ebs", BM_J_BYTES, offsetof(struct cust_entry, c.ebs), 0, 1e12, 0, 0,
	  NULL, NULL },
	{ NULL, 0, 0, 0, 0, 0, 0, NULL, NULL },
};

/* Customer i from object o; what names it in messages. */
static int parse_customer(json_object *o, const char *what,
			  struct tm_customer *c, struct bm_error *err)
{
	struct cust_entry e = { .vlan = 0 };
	static const char *const need[] = { "vlan", "cir_bps", "cbs" };
	size_t k;

	if (json_object_get_type(o) != json_type_object)
		return bm_errorf(err, "%s: expected an object", what);
	if (bm_json_parse_keys(o, cust_keys, 0, &e, what, err))
		return -1;
	for (k = 0; k < 3; k++)
		if (!json_object_object_get_ex(o, need[k], NULL))
			return bm_errorf(err, "%s: %s: missing", what,
					 need[k]);
	if (e.tpid && e.tpid != 0x8100 && e.tpid != 0x88a8 && e.tpid != 0x9100)
		return bm_errorf(err, "%s: tpid: 0x%x is none of 0x8100, "
				 "0x88a8, 0x9100", what, (unsigned int)e.tpid);
	if (e.c.ebs && !(e.c.eir_bps > 0))
		return bm_errorf(err, "%s: ebs: an EBS needs eir_bps > 0",
				 what);
	if (e.c.eir_bps > 0 && !e.c.ebs)
		return bm_errorf(err, "%s: eir_bps: an EIR needs ebs > 0",
				 what);
	*c = e.c;
	c->vlan = (uint16_t)e.vlan;
	c->vlan2 = (uint16_t)e.vlan2;
	c->tpid = (uint16_t)e.tpid;
	return 0;
}

/* "customers": [{"vlan": 10, "cir_bps": 1e7, "cbs": "16KB"}, ...]. */
static int parse_customers(json_object *v, void *base, const char *key,
			   struct bm_error *err)
{
	struct tm_polc_params *p = base;
	char what[48];
	size_t i, j, n;

	if (json_object_get_type(v) != json_type_array)
		return bm_errorf(err, "%s: expected an array of customers",
				 key);
	n = json_object_array_length(v);
	if (!n || n > TM_MAX_CUSTOMERS)
		return bm_errorf(err, "%s: %zu customers, expected 1 to %d",
				 key, n, TM_MAX_CUSTOMERS);
	for (i = 0; i < n; i++) {
		snprintf(what, sizeof(what), "%s[%zu]", key, i);
		if (parse_customer(json_object_array_get_idx(v, i), what,
				   &p->cust[i], err))
			return -1;
		for (j = 0; j < i; j++)
			if (p->cust[j].vlan == p->cust[i].vlan &&
			    p->cust[j].vlan2 == p->cust[i].vlan2)
				return bm_errorf(err, "%s: vlan: VLAN %u%s is "
						 "customer %zu's too", what,
						 p->cust[i].vlan,
						 p->cust[i].vlan2 ? " (QinQ)" :
						 "", j);
	}
	p->n_cust = n;
	return 0;
}

#define PO(f)	offsetof(struct tm_polc_params, f)

const struct bm_param tm_polc_keys[] = {
	{ { "customers", BM_J_CUSTOM, 0, 0, 0, 0, 0, NULL, parse_customers },
	  "", "the customer table: [{vlan 1..4094, optional vlan2 (QinQ) "
	  "and tpid, cir_bps, cbs, eir_bps, ebs}], one policer each [PROPOSED "
	  "one customer, VLAN 10 at 100 Mbit/s, 64KB]", "object array" },
	{ { "excess", BM_J_BYTES, PO(excess), 1, 1e12, 0, 0, NULL, NULL }, "B",
	  "bytes the excess step adds to every burst (TM §6.1.2.1: 1000, "
	  "recorded)", NULL },
	{ { "ti_formula", BM_J_ENUM, PO(ti_formula), 0, 0, 0, 0,
	    tm_ti_formula_names, NULL }, "", "amb41 (AMB-41) or draft, as "
	  "rfc7640.policer, per customer", NULL },
	TM_COMMON_TD_KEYS(PO, "§6.1.2.1: 30"),
	{ { NULL, 0, 0, 0, 0, 0, 0, NULL, NULL }, NULL, NULL, NULL },
};

void tm_polc_defaults(struct tm_polc_params *p)
{
	memset(p, 0, sizeof(*p));
	/* [PROPOSED] rfc7640.policer's, on VLAN 10 */
	p->cust[0] = (struct tm_customer){ .vlan = 10, .cir_bps = 100e6,
					   .cbs = 64000 };
	p->n_cust = 1;
	p->excess = 1000;			/* TM §6.1.2.1 */
	p->ti_formula = TM_TI_AMB41;
	tm_common_defaults(&p->c, 30.0);	/* §6.1.2.1: Td 30 s */
}

/* Customer c as JSON: its tags and policer. */
static json_object *cust_json(const struct tm_customer *c)
{
	json_object *o = json_object_new_object();

	bm_json_add_u64(o, "vlan", c->vlan);
	if (c->vlan2)
		bm_json_add_u64(o, "vlan2", c->vlan2);
	if (c->tpid)
		bm_json_add_u64(o, "tpid", c->tpid);
	bm_json_add_double(o, "cir_bps", c->cir_bps);
	bm_json_add_u64(o, "cbs", c->cbs);
	bm_json_add_double(o, "eir_bps", c->eir_bps);
	bm_json_add_u64(o, "ebs", c->ebs);
	return o;
}

static json_object *customers_json(const struct bm_jwriter *w,
				   const struct bm_jkey *k, const void *base)
{
	const struct tm_polc_params *p = base;
	json_object *a = json_object_new_array();
	size_t i;

	(void)w;
	(void)k;
	for (i = 0; i < p->n_cust; i++)
		json_object_array_add(a, cust_json(&p->cust[i]));
	return a;
}

const struct bm_jwriter tm_polc_writers[] = {
	{ parse_customers, customers_json, 0 },
	{ NULL, NULL, 0 },
};

int tm_polc_check(const struct tm_polc_params *p, struct bm_error *err)
{
	if (!p->n_cust)
		return bm_errorf(err, PROC ": customers: no customer");
	return 0;
}

double tm_polc_max_trials(const struct tm_polc_params *p)
{
	return 2.0 * p->c.tr;
}

/* The streams of every pair, their plans, Ti and phases (REQ-TM-8);
 * into sched the plan of one port. */
static int polc_streams(struct tm_ctx *x, const struct tm_polc_params *p,
			struct tm_pol_pair *pp, unsigned int pairs,
			json_object *sched)
{
	double line = x->be->line_rate_bps, ti_min = INFINITY, slot, longest = 0;
	size_t n = p->n_cust, i;
	unsigned int k;
	int ret = 0;

	for (k = 0; k < pairs && !ret; k++) {
		for (i = 0; i < n && !ret; i++) {
			const struct tm_customer *c = &p->cust[i];
			struct tm_pol_pair *s = &pp[k * n + i];

			*s = (struct tm_pol_pair){
				.tx = 2 * k, .rx = 2 * k + 1,
				.cir_bps = c->cir_bps, .eir_bps = c->eir_bps,
				.cbs = c->cbs, .ebs = c->ebs,
				.enc = { c->vlan, c->tpid, c->vlan2 } };
			ret = tm_pol_pair_setup(x, s, p->excess, p->ti_formula);
			ti_min = fmin(ti_min, s->ti_s);
			longest = fmax(longest, tm_pol_burst_s(s, 1, line));
		}
	}
	if (ret)
		return ret;
	slot = ti_min / (double)n;
	for (k = 0; k < pairs; k++)
		for (i = 0; i < n; i++)
			pp[k * n + i].start_s = (double)i * slot;
	bm_json_add_double(sched, "ti_min_s", ti_min);
	bm_json_add_double(sched, "slot_s", slot);
	bm_json_add_double(sched, "longest_burst_s", longest);
	/* the excess burst, the longer, in one customer's slot */
	bm_json_add_bool(sched, "fits", longest <= slot);
	bm_json_add_double(sched, "planned_intensity_pct",
			   longest <= slot ? 100.0 : 100.0 * slot / longest);
	return 0;
}

/* TM §6.1.2.1's encapsulation map and per-customer DUT summary. */
static json_object *polc_dut(const struct tm_ctx *x,
			     const struct tm_pol_pair *pp, size_t n)
{
	json_object *a = json_object_new_array(), *o;
	size_t i;

	for (i = 0; i < n; i++) {
		const struct tm_pol_pair *s = &pp[i];
		char map[64];

		o = json_object_new_object();
		bm_json_add_str(o, "ingress", x->be->port_names[s->tx]);
		bm_json_add_str(o, "egress", x->be->port_names[s->rx]);
		bm_json_add_u64(o, "vlan", s->enc.vlan);
		if (s->enc.vlan2)
			snprintf(map, sizeof(map), "802.1ad S-VLAN %u (TPID "
				 "0x%04x), C-VLAN %u", s->enc.vlan,
				 s->enc.tpid ? s->enc.tpid : 0x8100,
				 s->enc.vlan2);
		else
			snprintf(map, sizeof(map), "VLAN %u (TPID 0x%04x)",
				 s->enc.vlan, s->enc.tpid ? s->enc.tpid :
				 0x8100);
		if (s->enc.vlan2)
			bm_json_add_u64(o, "vlan2", s->enc.vlan2);
		bm_json_add_str(o, "encapsulation", map);
		bm_json_add_double(o, "cir_bps", s->cir_bps);
		bm_json_add_double(o, "eir_bps", s->eir_bps);
		bm_json_add_u64(o, "cbs_bytes", s->cbs);
		bm_json_add_u64(o, "ebs_bytes", s->ebs);
		bm_json_add_double(o, "ti_s", s->ti_s);
		bm_json_add_double(o, "offset_s", s->start_s);
		bm_json_add_u64(o, "bursts_per_step", s->bursts);
		tm_plan_json(o, "compliant_burst", &s->st[0].b);
		tm_plan_json(o, "excess_burst", &s->st[1].b);
		json_object_array_add(a, o);
	}
	o = json_object_new_object();
	json_object_object_add(o, "customers", a);
	return o;
}

int tm_polc_run(struct bm_backend *be, const struct tm_polc_params *p,
		bm_progress_fn progress, void *ctx, json_object **result,
		struct bm_error *err)
{
	struct tm_pol_pair *pp = NULL;
	json_object *res, *cfg, *sched, *dev;
	unsigned int pairs = 0;
	struct tm_ctx x;
	size_t n;
	int ret;

	*result = NULL;
	ret = tm_polc_check(p, err);
	if (!ret)
		ret = tm_ctx_init(&x, PROC, be, &p->c, 2, BM_TRAFFIC_MAX_PORTS,
				  progress, ctx, err);
	if (ret)
		return ret;
	ret = tm_pol_port_pairs(&x, &pairs);
	n = (size_t)pairs * p->n_cust;
	if (!ret) {
		pp = calloc(n, sizeof(*pp));
		if (!pp)
			ret = bm_errorf(err, "out of memory");
	}
	sched = json_object_new_object();
	if (!ret)
		ret = polc_streams(&x, p, pp, pairs, sched);
	if (ret) {
		json_object_put(sched);
		free(pp);
		json_object_put(x.frame_logs);
		return ret;
	}
	res = json_object_new_object();
	cfg = tm_pol_config(&p->c, TM_POL_BLIND, p->ti_formula, p->excess);
	bm_json_add_u64(cfg, "port_pairs", pairs);
	bm_json_add_u64(cfg, "customers", p->n_cust);
	bm_json_add_double(cfg, "burst_rate_bps", be->line_rate_bps);
	json_object_object_add(cfg, "schedule", json_object_get(sched));
	json_object_object_add(res, "test_configuration", cfg);
	json_object_object_add(res, "dut_configuration", polc_dut(&x, pp, n));
	ret = tm_pol_streams(&x, pp, (unsigned int)n, res);
	dev = json_object_new_array();
	json_object_array_add(dev, json_object_new_string(
		"REQ-TM-8: customer i's bursts start at i x Ti_min / n; "
		"customers of different Ti can still meet later in Td: see "
		"each row's intensity_min_pct"));
	if (!json_object_get_boolean(json_object_object_get(sched, "fits")))
		json_object_array_add(dev, json_object_new_string(
			"the bursts of all customers do not fit in the "
			"smallest Ti at the line rate: they share the line "
			"(schedule.planned_intensity_pct, intensity_min_pct)"));
	json_object_put(sched);
	*result = tm_pol_finish(&x, res, dev, p->ti_formula, pp,
				(unsigned int)n, pairs > 1 ?
				"TM-POL-CAP-3" : "TM-POL-CAP-1",
				bm_json_params_to_json(tm_polc_keys, 0, p,
						       tm_polc_writers));
	free(pp);
	return ret;
}

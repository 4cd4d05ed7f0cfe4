// SPDX-License-Identifier: GPL-2.0
/*
 * TM §6.1.2.2 a single policer on every physical port, all ports active
 * (SPEC TM-POL-CAP-2): "the procedure is identical to 6.1.1, the
 * configured parameters must be reported per port and the test report
 * must include results per measured egress port".
 *
 * The job's ports in pairs, 1 -> 2, 3 -> 4, ...: the egress of each pair
 * has its own policer (pair_cir_bps, pair_cbs, pair_eir_bps, pair_ebs: one
 * value for every pair, or one per pair).  Each run is TM-POL-1's
 * compliant step and then its excess step, every pair bursting at once
 * with its own Ti, and per pair the rows TM-POL-1 gives its one pair.
 */
#include <stdlib.h>

#include "bm_json.h"
#include "bm_result.h"
#include "rfc7640_int.h"

#define ARRAY_KEY(name, bytes, lo) \
static int parse_##name(json_object *v, void *base, const char *key, \
			struct bm_error *err) \
{ \
	struct tm_polp_params *p = base; \
	return tm_values_parse(v, key, lo, false, bytes ? 1e12 : 1e13, \
			       bytes, TM_MAX_PAIRS, p->name, &p->n_##name, \
			       err); \
}
ARRAY_KEY(cir_bps, false, 1)
ARRAY_KEY(eir_bps, false, 0)
ARRAY_KEY(cbs, true, 1)
ARRAY_KEY(ebs, true, 0)

#define PO(f)	offsetof(struct tm_polp_params, f)

const struct bm_param tm_polp_keys[] = {
	{ { "pair_cir_bps", BM_J_CUSTOM, PO(cir_bps), 1, 1e13, 0, 0, NULL,
	    parse_cir_bps }, "bit/s", "each egress policer's CIR: one for "
	  "every pair or one per pair [PROPOSED 100 Mbit/s]", "number array" },
	{ { "pair_cbs", BM_J_CUSTOM, PO(cbs), 1, 1e12, 0, 0, NULL,
	    parse_cbs }, "B", "each policer's CBS [PROPOSED 64KB]",
	  "bytes array" },
	{ { "pair_eir_bps", BM_J_CUSTOM, PO(eir_bps), 0, 1e13, 0, 0, NULL,
	    parse_eir_bps }, "bit/s", "each policer's EIR (0: single rate)",
	  "number array" },
	{ { "pair_ebs", BM_J_CUSTOM, PO(ebs), 0, 1e12, 0, 0, NULL,
	    parse_ebs }, "B", "each policer's EBS (0: single rate)",
	  "bytes array" },
	{ { "excess", BM_J_BYTES, PO(excess), 1, 1e12, 0, 0, NULL, NULL }, "B",
	  "bytes the excess step adds to every burst (1000, recorded)", NULL },
	{ { "ti_formula", BM_J_ENUM, PO(ti_formula), 0, 0, 0, 0,
	    tm_ti_formula_names, NULL }, "", "amb41 (AMB-41) or draft, as "
	  "rfc7640.policer", NULL },
	TM_COMMON_TD_KEYS(PO, "§6.1.1: 60"),
	{ { NULL, 0, 0, 0, 0, 0, 0, NULL, NULL }, NULL, NULL, NULL },
};

const struct bm_jwriter tm_polp_writers[] = {
	{ parse_cir_bps, bm_json_doubles_at, PO(n_cir_bps) },
	{ parse_cbs, bm_json_doubles_at, PO(n_cbs) },
	{ parse_eir_bps, bm_json_doubles_at, PO(n_eir_bps) },
	{ parse_ebs, bm_json_doubles_at, PO(n_ebs) },
	{ NULL, NULL, 0 },
};

void tm_polp_defaults(struct tm_polp_params *p)
{
	*p = (struct tm_polp_params){
		.cir_bps = { 100e6 },		/* [PROPOSED] the draft's */
		.n_cir_bps = 1,
		.cbs = { 64000 },		/* [PROPOSED] */
		.n_cbs = 1,
		.n_eir_bps = 1,
		.n_ebs = 1,
		.excess = 1000,
	};
	tm_common_defaults(&p->c, 60.0);
}

/* Value i of an array of n: its own, or the one for every pair. */
static double at(const double *v, size_t n, size_t i)
{
	return n == 1 ? v[0] : v[i];
}

int tm_polp_check(const struct tm_polp_params *p, struct bm_error *err)
{
	size_t n = p->n_cir_bps, i;

	if (p->n_cbs > n)
		n = p->n_cbs;
	if (p->n_eir_bps > n)
		n = p->n_eir_bps;
	if (p->n_ebs > n)
		n = p->n_ebs;
	if ((p->n_cbs != 1 && p->n_cbs != n) ||
	    (p->n_cir_bps != 1 && p->n_cir_bps != n) ||
	    (p->n_eir_bps != 1 && p->n_eir_bps != n) ||
	    (p->n_ebs != 1 && p->n_ebs != n))
		return bm_errorf(err, "rfc7640.policer-ports: pair_cbs: the "
				 "pair_* arrays have 1 or %zu values each", n);
	for (i = 0; i < n; i++)
		if (at(p->ebs, p->n_ebs, i) > 0 &&
		    !(at(p->eir_bps, p->n_eir_bps, i) > 0))
			return bm_errorf(err, "rfc7640.policer-ports: "
					 "pair_ebs[%zu]: an EBS needs an EIR",
					 i);
	return 0;
}

double tm_polp_max_trials(const struct tm_polp_params *p)
{
	return 2.0 * p->c.tr;
}

/* The pairs of be's ports with p's values; 0 or -EINVAL. */
static int polp_pairs(struct tm_ctx *x, const struct tm_polp_params *p,
		      struct tm_pol_pair *pp, unsigned int n)
{
	size_t longest = p->n_cir_bps;
	unsigned int i;
	int ret = 0;

	if (p->n_cbs > longest)
		longest = p->n_cbs;
	if (p->n_eir_bps > longest)
		longest = p->n_eir_bps;
	if (p->n_ebs > longest)
		longest = p->n_ebs;
	if (longest > 1 && longest != n)
		return bm_errorf(x->err, "%s: pair_cbs: %zu values for %u port "
				 "pairs", x->name, longest, n);
	for (i = 0; i < n && !ret; i++) {
		pp[i] = (struct tm_pol_pair){
			.tx = 2 * i, .rx = 2 * i + 1,
			.cir_bps = at(p->cir_bps, p->n_cir_bps, i),
			.eir_bps = at(p->eir_bps, p->n_eir_bps, i),
			.cbs = (uint64_t)at(p->cbs, p->n_cbs, i),
			.ebs = (uint64_t)at(p->ebs, p->n_ebs, i),
		};
		ret = tm_pol_pair_setup(x, &pp[i], p->excess, p->ti_formula);
	}
	return ret;
}

static json_object *polp_config(const struct tm_ctx *x,
				const struct tm_polp_params *p, unsigned int n)
{
	json_object *cfg = tm_pol_config(&p->c, TM_POL_BLIND, p->ti_formula,
					 p->excess);

	bm_json_add_u64(cfg, "port_pairs", n);
	bm_json_add_double(cfg, "burst_rate_bps", x->be->line_rate_bps);
	return cfg;
}

/* TM §6.1.2.2 MUST: the configured parameters per port. */
static json_object *polp_dut(const struct tm_ctx *x,
			     const struct tm_pol_pair *pp, unsigned int n)
{
	json_object *dut = json_object_new_object(), *a = json_object_new_array();
	json_object *o;
	unsigned int i;

	for (i = 0; i < n; i++) {
		o = json_object_new_object();
		bm_json_add_str(o, "ingress", x->be->port_names[pp[i].tx]);
		bm_json_add_str(o, "egress", x->be->port_names[pp[i].rx]);
		bm_json_add_double(o, "cir_bps", pp[i].cir_bps);
		bm_json_add_double(o, "eir_bps", pp[i].eir_bps);
		bm_json_add_u64(o, "cbs_bytes", pp[i].cbs);
		bm_json_add_u64(o, "ebs_bytes", pp[i].ebs);
		bm_json_add_double(o, "ti_s", pp[i].ti_s);
		bm_json_add_u64(o, "bursts_per_step", pp[i].bursts);
		tm_plan_json(o, "compliant_burst", &pp[i].st[0].b);
		tm_plan_json(o, "excess_burst", &pp[i].st[1].b);
		json_object_array_add(a, o);
	}
	json_object_object_add(dut, "ports", a);
	return dut;
}

int tm_polp_run(struct bm_backend *be, const struct tm_polp_params *p,
		bm_progress_fn progress, void *ctx, json_object **result,
		struct bm_error *err)
{
	struct tm_pol_pair *pp = NULL;
	json_object *res;
	struct tm_ctx x;
	unsigned int n = 0;
	int ret;

	*result = NULL;
	ret = tm_polp_check(p, err);
	if (!ret)
		ret = tm_ctx_init(&x, "rfc7640.policer-ports", be, &p->c, 2,
				  BM_TRAFFIC_MAX_PORTS, progress, ctx, err);
	if (ret)
		return ret;
	ret = tm_pol_port_pairs(&x, &n);
	if (!ret) {
		pp = calloc(n, sizeof(*pp));
		if (!pp)
			ret = bm_errorf(err, "out of memory");
	}
	if (!ret)
		ret = polp_pairs(&x, p, pp, n);
	if (ret) {
		free(pp);
		json_object_put(x.frame_logs);
		return ret;
	}
	res = json_object_new_object();
	json_object_object_add(res, "test_configuration",
			       polp_config(&x, p, n));
	json_object_object_add(res, "dut_configuration", polp_dut(&x, pp, n));
	ret = tm_pol_streams(&x, pp, n, res);
	*result = tm_pol_finish(&x, res, json_object_new_array(),
				p->ti_formula, pp, n, "TM-POL-CAP-2",
				bm_json_params_to_json(tm_polp_keys, 0, p,
						       tm_polp_writers));
	free(pp);
	return ret;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * TM §6.3.2 shaper capacity (SPEC TM-SHP-CAP-1 .. -3), stateless part:
 * several ingress ports converge on each shaped egress port with the same
 * traffic to each egress, one CBR stream per class (queue), for Td.
 *
 *   CAP-1: every egress port shaped (port_sr_bps ...): per egress port
 *     its SR, and per ingress stream its throughput and shaper metrics;
 *   CAP-2: every queue of one egress port shaped as well (queue_sr_bps
 *     ...; an HTB-like tree, the highest-priority queue limited by its
 *     own shaper only, the lower ones by theirs and the higher traffic):
 *     per queue its SR, per ingress stream its metrics;
 *   CAP-3: CAP-2's tree on several egress ports at once.
 *
 * The metrics are TM-SHP-1's: LP, OOS, PD, PDV, SR (the egress bits in
 * the accounting mode over Td) and the trains the shaper emits, SBB and
 * SBI (AMB-39), from the per-frame log of the arrivals: per ingress
 * stream, per queue (its streams merged) and per egress port.  The
 * shapers' parameters (QL, SR, Bc, Be per port and per queue) are the
 * operator's and are reported (MUST rows 44-46).  No verdicts.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bm_json.h"
#include "bm_result.h"
#include "rfc7640_int.h"

#define NAME	"rfc7640.shaper-capacity"

static int parse_dscps(json_object *v, void *base, const char *key,
		       struct bm_error *err)
{
	struct tm_shcap_params *p = base;

	return tm_class_dscps_parse(v, key, p->dscps, &p->n_classes, err);
}

static int parse_rates(json_object *v, void *base, const char *key,
		       struct bm_error *err)
{
	struct tm_shcap_params *p = base;

	return tm_values_parse(v, key, 0, true, 1e13, false, TM_MAX_CLASSES,
			       p->rates_bps, &p->n_rates, err);
}

static int parse_ingress(json_object *v, void *base, const char *key,
			 struct bm_error *err)
{
	return tm_port_list_parse(v, key,
				  &((struct tm_shcap_params *)base)->ingress,
				  err);
}

static int parse_egress(json_object *v, void *base, const char *key,
			struct bm_error *err)
{
	return tm_port_list_parse(v, key,
				  &((struct tm_shcap_params *)base)->egress,
				  err);
}

/* A shaper parameter array: per port (max the ports) or per queue. */
#define SHAPER_KEY(name, lo, excl, hi, bytes, max) \
static int parse_##name(json_object *v, void *base, const char *key, \
			struct bm_error *err) \
{ \
	struct tm_shcap_params *p = base; \
	return tm_values_parse(v, key, lo, excl, hi, bytes, max, p->name, \
			       &p->n_##name, err); \
}
SHAPER_KEY(port_sr_bps, 0, true, 1e13, false, BM_BACKEND_MAX_PORTS)
SHAPER_KEY(port_ql, 64, false, 1e12, true, BM_BACKEND_MAX_PORTS)
SHAPER_KEY(port_bc, 0, false, 1e12, true, BM_BACKEND_MAX_PORTS)
SHAPER_KEY(port_be, 0, false, 1e12, true, BM_BACKEND_MAX_PORTS)
SHAPER_KEY(queue_sr_bps, 0, true, 1e13, false, TM_MAX_CLASSES)
SHAPER_KEY(queue_ql, 64, false, 1e12, true, TM_MAX_CLASSES)
SHAPER_KEY(queue_bc, 0, false, 1e12, true, TM_MAX_CLASSES)
SHAPER_KEY(queue_be, 0, false, 1e12, true, TM_MAX_CLASSES)

#define SCO(f)	offsetof(struct tm_shcap_params, f)

/* written back null while not given */
#define CUSTOM(name, lo, hi, flags, unit, help, type) \
	{ { #name, BM_J_CUSTOM, SCO(name), lo, hi, (flags) | BM_JK_ZERO_NULL, \
	    0, NULL, parse_##name }, unit, help, type }

const struct bm_param tm_shcap_keys[] = {
	{ { "class_dscps", BM_J_CUSTOM, SCO(dscps), 0, 63, 0, 0, NULL,
	    parse_dscps },
	  "", "the classes' DSCPs, one queue each, 1 to 8, in priority "
	  "order [PROPOSED 0: one queue]", "integer array" },
	{ { "class_rates_bps", BM_J_CUSTOM, SCO(rates_bps), 0, 1e13,
	    BM_JK_MIN_EXCL, 0, NULL, parse_rates }, "bit/s", "each class's "
	  "rate from every ingress port to every egress port, accounting "
	  "mode [PROPOSED 40e6: the SPEC's CAP-1 acceptance]", "number array" },
	{ { "ingress_ports", BM_J_CUSTOM, SCO(ingress), 1, BM_BACKEND_MAX_PORTS,
	    BM_JK_DERIVED, 0, NULL, parse_ingress }, "", "the ingress ports, "
	  "1 = the job's first (unset: every port not an egress)",
	  "integer array" },
	{ { "egress_ports", BM_J_CUSTOM, SCO(egress), 1, BM_BACKEND_MAX_PORTS,
	    BM_JK_DERIVED, 0, NULL, parse_egress }, "", "the shaped egress "
	  "ports; every ingress port sends each class to each (unset: the "
	  "last port)", "integer array" },
	CUSTOM(port_sr_bps, 0, 1e13, BM_JK_MIN_EXCL, "bit/s", "each egress "
	       "port's shaper rate SR, reported: one for all or one per "
	       "egress [PROPOSED 50 Mbit/s: the draft's example]",
	       "number array"),
	CUSTOM(port_ql, 64, 1e12, 0, "B", "each egress port's shaper queue "
	       "QL, reported [PROPOSED 512000: the draft's IQ]",
	       "bytes array"),
	CUSTOM(port_bc, 0, 1e12, 0, "B", "each egress port's Bc, reported "
	       "[PROPOSED 32KB]", "bytes array"),
	CUSTOM(port_be, 0, 1e12, 0, "B", "each egress port's Be, reported "
	       "[PROPOSED 32KB]", "bytes array"),
	CUSTOM(queue_sr_bps, 0, 1e13, BM_JK_MIN_EXCL | BM_JK_DERIVED, "bit/s",
	       "each queue's shaper rate, one per class, every egress alike "
	       "(CAP-2, -3; unset: the queues are not shaped, CAP-1)",
	       "number array"),
	CUSTOM(queue_ql, 64, 1e12, BM_JK_DERIVED, "B", "each queue's QL, "
	       "reported (unset: not given)", "bytes array"),
	CUSTOM(queue_bc, 0, 1e12, BM_JK_DERIVED, "B", "each queue's Bc, "
	       "reported (unset: not given)", "bytes array"),
	CUSTOM(queue_be, 0, 1e12, BM_JK_DERIVED, "B", "each queue's Be, "
	       "reported (unset: not given)", "bytes array"),
	TM_COMMON_TD_KEYS(SCO, "§6.3.1.1: 30"),
	{ { NULL, 0, 0, 0, 0, 0, 0, NULL, NULL }, NULL, NULL, NULL },
};

#define WRITER(name)	{ parse_##name, bm_json_doubles_at, SCO(n_##name) }
const struct bm_jwriter tm_shcap_writers[] = {
	{ parse_dscps, bm_json_uints_at, SCO(n_classes) },
	{ parse_rates, bm_json_doubles_at, SCO(n_rates) },
	{ parse_ingress, tm_port_list_at, 0 },
	{ parse_egress, tm_port_list_at, 0 },
	WRITER(port_sr_bps), WRITER(port_ql), WRITER(port_bc), WRITER(port_be),
	WRITER(queue_sr_bps), WRITER(queue_ql), WRITER(queue_bc),
	WRITER(queue_be),
	{ NULL, NULL, 0 },
};

void tm_shcap_defaults(struct tm_shcap_params *p)
{
	memset(p, 0, sizeof(*p));
	p->dscps[0] = 0;		/* [PROPOSED] one queue */
	p->n_classes = 1;
	p->rates_bps[0] = 40e6;		/* [PROPOSED] SPEC CAP-1 */
	p->n_rates = 1;
	/* [PROPOSED] the draft's §6.3.1 example */
	p->port_sr_bps[0] = 50e6;
	p->port_ql[0] = 512000;
	p->port_bc[0] = 32000;
	p->port_be[0] = 32000;
	p->n_port_sr_bps = p->n_port_ql = p->n_port_bc = p->n_port_be = 1;
	tm_common_defaults(&p->c, 30.0);	/* §6.3.1.1: Td 30 s */
}

int tm_shcap_check(const struct tm_shcap_params *p, struct bm_error *err)
{
	static const char *const qk[] = { "queue_ql", "queue_bc", "queue_be" };
	const size_t qn[] = { p->n_queue_ql, p->n_queue_bc, p->n_queue_be };
	size_t i;

	if (p->n_rates != p->n_classes)
		return bm_errorf(err, NAME ": class_rates_bps: %zu rates for "
				 "%zu classes (class_dscps)", p->n_rates,
				 p->n_classes);
	if (p->n_queue_sr_bps && p->n_queue_sr_bps != p->n_classes)
		return bm_errorf(err, NAME ": queue_sr_bps: %zu rates for %zu "
				 "classes (class_dscps)", p->n_queue_sr_bps,
				 p->n_classes);
	for (i = 0; i < 3; i++) {
		if (qn[i] && !p->n_queue_sr_bps)
			return bm_errorf(err, NAME ": %s: a queue's shaper "
					 "needs its rate (queue_sr_bps)",
					 qk[i]);
		if (qn[i] && qn[i] != p->n_classes)
			return bm_errorf(err, NAME ": %s: %zu values for %zu "
					 "classes (class_dscps)", qk[i], qn[i],
					 p->n_classes);
	}
	return 0;
}

double tm_shcap_max_trials(const struct tm_shcap_params *p)
{
	return p->c.tr;
}

/* Each per-port array holds one value or one per egress port. */
static int sc_port_values(struct tm_ctx *x, const struct tm_shcap_params *p,
			  const struct tm_portmap *pm)
{
	static const char *const k[] = { "port_sr_bps", "port_ql", "port_bc",
					 "port_be" };
	const size_t n[] = { p->n_port_sr_bps, p->n_port_ql, p->n_port_bc,
			     p->n_port_be };
	size_t i;

	for (i = 0; i < 4; i++)
		if (n[i] != 1 && n[i] != pm->n_eg)
			return bm_errorf(x->err, NAME ": %s: %zu values for %u "
					 "egress ports (one for all, or one "
					 "each)", k[i], n[i], pm->n_eg);
	return 0;
}

/* Value e of a per-port array of n (one for all or one each). */
static double per_port(const double *v, size_t n, unsigned int e)
{
	return n == 1 ? v[0] : v[e];
}

static const char *sc_ref(const struct tm_shcap_params *p,
			  const struct tm_portmap *pm)
{
	if (!p->n_queue_sr_bps)
		return "TM-SHP-CAP-1";
	return pm->n_eg == 1 ? "TM-SHP-CAP-2" : "TM-SHP-CAP-3";
}

/* The trains of the flows idx[0..n) of ms merged (AMB-39): their
 * arrivals in time order, one "burst" (CBR). */
static int sc_trains_of(struct tm_ctx *x, const struct tm_mesh *ms,
			const unsigned int *idx, unsigned int n,
			struct tm_trains *o)
{
	struct tm_arrival *a;
	size_t total = 0, k = 0, j;
	unsigned int i;
	double acc;
	int ret;

	for (i = 0; i < n; i++)
		total += ms->r->streams[ms->f[idx[i]].first].n_rx_log;
	a = calloc(total ? total : 1, sizeof(*a));
	if (!a)
		return bm_errorf(x->err, "out of memory");
	for (i = 0; i < n; i++) {
		const struct bm_stream_result *s =
			&ms->r->streams[ms->f[idx[i]].first];

		for (j = 0; j < s->n_rx_log; j++)
			a[k++] = (struct tm_arrival){ s->rx_log[j].rx_s,
						      s->rx_log[j].size, 0 };
	}
	/* as TM-SHP-1 (shaper.c): the backend's timestamp accuracy, else
	 * the tester's own PDV from the calibration */
	acc = x->be->ts_accuracy && isfinite(x->be->ts_accuracy_ns) ?
	      x->be->ts_accuracy_ns * 1e-9 : x->c->cal_pdv_ns * 1e-9;
	ret = tm_trains_of(a, total, x->c->accounting, x->be->line_rate_bps,
			   acc, o);
	free(a);
	if (ret)
		return bm_errorf(x->err, "out of memory");
	return 0;
}

static void trains_json(json_object *o, const struct tm_trains *tr,
			bool low)
{
	bm_json_add_double(o, "sbb_first_bytes", tr->first_bytes);
	bm_json_add_double(o, "sbb_median_bytes", tr->median_bytes);
	bm_json_add_double(o, "sbb_max_bytes", tr->max_bytes);
	bm_json_add_double(o, "sbi_median_s", tr->sbi_median_s);
	bm_json_add_double(o, "sbi_p1_s", tr->sbi_p1_s);
	bm_json_add_double(o, "sbi_p99_s", tr->sbi_p99_s);
	bm_json_add_u64(o, "trains", tr->trains);
	bm_json_add_u64(o, "frames_analysed", tr->frames);
	bm_json_add_bool(o, "low_confidence", low);
}

/* Statistics: per egress its SR; per egress and queue its SR, LP and
 * smallest ingress share. */
enum { SS_SR, SS_LP, SS_SHARE_MIN, SS_PER_QUEUE };

static size_t ss_queue(unsigned int nc, unsigned int e, unsigned int k,
		       unsigned int j)
{
	return ((size_t)e * (nc + 1) + 1 + k) * SS_PER_QUEUE + j;
}

static size_t ss_egress(unsigned int nc, unsigned int e)
{
	return (size_t)e * (nc + 1) * SS_PER_QUEUE;
}

/* Egress e's rows of run test into res, its statistics into v[][n]. */
static int sc_egress(struct tm_ctx *x, const struct tm_shcap_params *p,
		     const struct tm_portmap *pm, const struct tm_mesh *ms,
		     unsigned int e, unsigned int test, json_object *res,
		     double (*v)[TM_MAX_TR], unsigned int n)
{
	const char *eg = x->be->port_names[pm->eg[e]];
	unsigned int nc = (unsigned int)p->n_classes, i, k, m = 0;
	unsigned int idx[BM_BACKEND_MAX_PORTS * TM_MAX_CLASSES];
	double td = p->c.td_s, off = 0, lp = 0, share, lo;
	struct tm_egress eb = TM_EGRESS_INIT;
	struct tm_trains t;
	json_object *o;
	int ret;

	for (k = 0; k < nc; k++)
		for (i = 0; i < pm->n_in; i++)
			tm_egress_add(&eb, &ms->m[tm_mesh_at(pm, nc, i, e, k)]);
	for (k = 0; k < nc; k++) {
		double qtot = 0, qoff = 0, qlp = 0, qbytes = 0;
		unsigned int qi[BM_BACKEND_MAX_PORTS];

		for (i = 0; i < pm->n_in; i++) {
			const struct tm_flow_metrics *s =
				&ms->m[tm_mesh_at(pm, nc, i, e, k)];

			qi[i] = idx[m++] = tm_mesh_at(pm, nc, i, e, k);
			qtot += tm_egress_flow_tput(&eb, s, td);
			qbytes += s->rx_bytes;
			qoff += s->tx_bytes * 8.0 / td;
			qlp += (double)s->lost;
		}
		lo = INFINITY;
		for (i = 0; i < pm->n_in; i++) {
			const struct tm_flow_metrics *s = &ms->m[qi[i]];

			ret = sc_trains_of(x, ms, &qi[i], 1, &t);
			if (ret)
				return ret;
			/* of bytes, as queue-capacity's shares */
			share = qbytes > 0 ? 100.0 * s->rx_bytes / qbytes :
				NAN;
			lo = fmin(lo, share);
			o = tm_egress_row(test, eg);
			bm_json_add_str(o, "ingress",
					x->be->port_names[pm->in[i]]);
			bm_json_add_u64(o, "queue", k + 1);
			bm_json_add_u64(o, "dscp", p->dscps[k]);
			tm_stream_share_json(o, s, &eb, td, share);
			trains_json(o, &t, x->sw_ts);
			tm_add_row(res, "streams", o);
		}
		ret = sc_trains_of(x, ms, qi, pm->n_in, &t);
		if (ret)
			return ret;
		o = tm_egress_row(test, eg);
		bm_json_add_u64(o, "queue", k + 1);
		bm_json_add_u64(o, "dscp", p->dscps[k]);
		bm_json_add_str(o, "kind", "sp");
		bm_json_add_u64(o, "sp_priority", k + 1);
		bm_json_add_double(o, "offered_bps", qoff);
		bm_json_add_double(o, "throughput_bps", qtot);
		bm_json_add_double(o, "sr_bps", qtot);
		bm_json_add_double(o, "lp", qlp);
		bm_json_add_double(o, "shaper_sr_bps", p->n_queue_sr_bps ?
				   p->queue_sr_bps[k] : NAN);
		trains_json(o, &t, x->sw_ts);
		tm_add_row(res, "queues", o);
		v[ss_queue(nc, e, k, SS_SR)][n] = qtot;
		v[ss_queue(nc, e, k, SS_LP)][n] = qlp;
		v[ss_queue(nc, e, k, SS_SHARE_MIN)][n] = lo;
		off += qoff;
		lp += qlp;
	}
	ret = sc_trains_of(x, ms, idx, m, &t);
	if (ret)
		return ret;
	o = tm_egress_row(test, eg);
	bm_json_add_double(o, "offered_bps", off);
	/* TM-MET-SR of the egress port: all its bits over its window, at
	 * most over Td (tm_egress_tput); its queues are each timed to
	 * their own last arrival */
	bm_json_add_double(o, "throughput_bps", tm_egress_tput(&eb, td));
	bm_json_add_double(o, "sr_bps", tm_egress_tput(&eb, td));
	bm_json_add_double(o, "lp", lp);
	bm_json_add_double(o, "shaper_sr_bps",
			   per_port(p->port_sr_bps, p->n_port_sr_bps, e));
	trains_json(o, &t, x->sw_ts);
	tm_add_row(res, "egresses", o);
	v[ss_egress(nc, e)][n] = tm_egress_tput(&eb, td);
	return 0;
}

static json_object *sc_config(const struct tm_ctx *x,
			      const struct tm_shcap_params *p,
			      const struct tm_portmap *pm)
{
	json_object *cfg = json_object_new_object();

	bm_json_add_str(cfg, "spec_test", sc_ref(p, pm));
	bm_json_add_u64(cfg, "tr", p->c.tr);
	bm_json_add_double(cfg, "td_s", p->c.td_s);
	bm_json_add_u64(cfg, "frame_size", p->c.frame_size);
	bm_json_add_str(cfg, "accounting", tm_acct_names[p->c.accounting]);
	/* TM §6.3.2.1 - .3 MUST */
	tm_portmap_config(cfg, x, pm, p->dscps, p->n_classes, p->rates_bps,
			  p->n_rates);
	return cfg;
}

/* The shaper parameters of each egress port and each queue, as given
 * (MUST rows 44-46: QL, SR, Bc, Be). */
static json_object *sc_dut(const struct tm_ctx *x,
			   const struct tm_shcap_params *p,
			   const struct tm_portmap *pm)
{
	json_object *dut = json_object_new_object(), *a, *o;
	unsigned int e, k;

	a = json_object_new_array();
	for (e = 0; e < pm->n_eg; e++) {
		o = json_object_new_object();
		bm_json_add_str(o, "port", x->be->port_names[pm->eg[e]]);
		bm_json_add_double(o, "ql_bytes", per_port(p->port_ql,
							   p->n_port_ql, e));
		bm_json_add_double(o, "sr_bps", per_port(p->port_sr_bps,
							 p->n_port_sr_bps, e));
		bm_json_add_double(o, "bc_bytes", per_port(p->port_bc,
							   p->n_port_bc, e));
		bm_json_add_double(o, "be_bytes", per_port(p->port_be,
							   p->n_port_be, e));
		json_object_array_add(a, o);
	}
	json_object_object_add(dut, "egress_shapers", a);
	bm_json_add_bool(dut, "queues_shaped", p->n_queue_sr_bps > 0);
	a = json_object_new_array();
	for (k = 0; k < p->n_classes; k++) {
		o = json_object_new_object();
		bm_json_add_u64(o, "queue", k + 1);
		bm_json_add_u64(o, "dscp", p->dscps[k]);
		bm_json_add_u64(o, "sp_priority", k + 1);
#define Q(key, name) bm_json_add_double(o, key, p->n_##name ? p->name[k] : NAN)
		Q("ql_bytes", queue_ql);
		Q("sr_bps", queue_sr_bps);
		Q("bc_bytes", queue_bc);
		Q("be_bytes", queue_be);
#undef Q
		json_object_array_add(a, o);
	}
	/* every egress port alike */
	json_object_object_add(dut, "queues", a);
	bm_json_add_double(dut, "ingress_rate_bps", x->be->line_rate_bps);
	return dut;
}

static json_object *sc_stats(const struct tm_ctx *x,
			     const struct tm_shcap_params *p,
			     const struct tm_portmap *pm,
			     double (*v)[TM_MAX_TR], unsigned int n)
{
	static const char *const what[SS_PER_QUEUE] = {
		"sr_bps", "lp", "share_min_pct",
	};
	unsigned int nc = (unsigned int)p->n_classes, e, k, j;
	json_object *stats = json_object_new_object();
	char name[128];

	for (e = 0; e < pm->n_eg; e++) {
		const char *eg = x->be->port_names[pm->eg[e]];

		snprintf(name, sizeof(name), "%s_sr_bps", eg);
		tm_stat(stats, name, v[ss_egress(nc, e)], n);
		for (k = 0; k < nc; k++) {
			for (j = 0; j < SS_PER_QUEUE; j++) {
				snprintf(name, sizeof(name), "%s_dscp%u_%s",
					 eg, p->dscps[k], what[j]);
				tm_stat(stats, name, v[ss_queue(nc, e, k, j)],
					n);
			}
		}
	}
	return stats;
}

int tm_shcap_run(struct bm_backend *be, const struct tm_shcap_params *p,
		 bm_progress_fn progress, void *ctx, json_object **result,
		 struct bm_error *err)
{
	double (*v)[TM_MAX_TR] = NULL;
	json_object *res, *dev;
	unsigned int i, e, n = 0;
	struct tm_portmap pm;
	struct tm_mesh ms;
	struct tm_ctx x;
	size_t n_stats;
	int ret;

	*result = NULL;
	ret = tm_shcap_check(p, err);
	if (!ret)
		ret = tm_ctx_init(&x, NAME, be, &p->c, 3, BM_TRAFFIC_MAX_PORTS,
				  progress, ctx, err);
	if (ret)
		return ret;
	ret = tm_portmap_of(&x, &p->ingress, &p->egress, &pm);
	if (!ret)
		ret = sc_port_values(&x, p, &pm);
	n_stats = ss_egress((unsigned int)p->n_classes, pm.n_eg);
	if (!ret) {
		v = calloc(n_stats, sizeof(*v));
		if (!v)
			ret = bm_errorf(err, "out of memory");
	}
	if (ret) {
		json_object_put(x.frame_logs);
		return ret;
	}
	res = json_object_new_object();
	json_object_object_add(res, "test_configuration",
			       sc_config(&x, p, &pm));
	json_object_object_add(res, "dut_configuration", sc_dut(&x, p, &pm));
	json_object_object_add(res, "streams", json_object_new_array());
	json_object_object_add(res, "queues", json_object_new_array());
	json_object_object_add(res, "egresses", json_object_new_array());
	for (i = 0; i < p->c.tr && !ret; i++) {
		ret = tm_mesh_run(&x, &pm, p->dscps, p->rates_bps,
				  (unsigned int)p->n_classes, true, p->c.td_s,
				  "shapers", i + 1, &ms);
		for (e = 0; e < pm.n_eg && !ret; e++)
			ret = sc_egress(&x, p, &pm, &ms, e, i + 1, res, v, n);
		tm_mesh_free(&ms);
		if (!ret)
			n++;
	}
	json_object_object_add(res, "statistics",
			       sc_stats(&x, p, &pm, v, n));
	free(v);
	bm_json_add_bool(res, "low_confidence", x.sw_ts);
	json_object_object_add(res, "measurement", tm_measurement_json(&x));
	if (x.frame_logs)
		json_object_object_add(res, "frame_logs", x.frame_logs);
	dev = json_object_new_array();
	json_object_array_add(dev, json_object_new_string(
		"stateless part only: TM-SHP-2's stateful traffic is not run; "
		"each class is CBR at its rate, not TM-SHP-1's IQ bursts"));
	json_object_array_add(dev, json_object_new_string(
		"trains: inter-arrival <= 1.1 x the larger frame's wire time "
		"+ ts accuracy (AMB-39), per ingress stream, per queue and "
		"per egress port; SBI start to start"));
	json_object_array_add(dev, json_object_new_string(
		"the shapers' QL, SR, Bc and Be are the operator's, reported "
		"as given; SR measured is the egress bits over Td"));
	if (x.sw_ts)
		json_object_array_add(dev, json_object_new_string(
			"SBB and SBI from software timestamps: low confidence "
			"(TM-MET-SL)"));
	tm_deviations(&x, dev, true);
	/* each number is its own flow's (tm_egress_flow_tput) */
	json_object_array_add(dev, json_object_new_string(TM_TPUT_SAID));
	*result = bm_result_envelope(NAME, sc_ref(p, &pm),
				     bm_json_params_to_json(tm_shcap_keys, 0, p,
							    tm_shcap_writers),
				     &x.log, NULL, res, dev, be);
	tm_ctx_free(&x);
	return ret;
}

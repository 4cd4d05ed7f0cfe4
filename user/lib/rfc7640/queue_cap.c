// SPDX-License-Identifier: GPL-2.0
/*
 * TM §6.2.2 queue and scheduler capacity (SPEC TM-QS-CAP-1 .. -4),
 * stateless part: TM-QS-1 with traffic from several ingress ports to one
 * egress port (CAP-1: strict priority; CAP-2: SP and WFQ queues) or to
 * several (CAP-3: one queue a port; CAP-4: several), all in one procedure
 * because the four differ only in the traffic map and the scheduler the
 * operator describes.
 *
 * The map: ingress_ports and egress_ports (1-based positions in the
 * job's port list); every ingress port sends every class to every egress
 * port.  Unset, every port but the last sends to the last (CAP-1's).
 *
 * Per run:
 *   bursts (optional): every ingress port bursts QL / n_in bytes at the
 *     line rate to each egress at the same instants (one egress after
 *     the other), every Ti = QL x 8 / BB (x 1 + margin), for Td, so that
 *     each egress queue sees QL a period: per ingress and egress BSA, LP,
 *     OOS, PD, PDV;
 *   classes: every ingress port sends one CBR stream per class (DSCP,
 *     rate in the accounting mode) to every egress, up to 8 classes, one
 *     per queue ("each priority maps to its own queue"), for Td: per
 *     egress port, per queue and per ingress stream the achieved
 *     throughput and metrics at the egress (MUST rows 34-37), per class
 *     how an egress shared it among the ingress ports ("each ingress port
 *     should get a fair share"), and per WFQ queue its share of what the
 *     WFQ queues got beside the share its weight configures.
 * The configuration the draft makes a MUST is in test_configuration (the
 * ingress and egress ports active, their marking and rates) and
 * dut_configuration (the scheduler: SP queues in priority order, WFQ
 * queues with weights, as the operator describes them).  No verdicts.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bm_json.h"
#include "bm_result.h"
#include "bm_tcp.h"
#include "rfc7640_int.h"

/* enum tm_sched order */
static const char *const sched_names[] = { "fifo", "sp", "wfq", "other",
					   "sp_wfq", NULL };

#define NAME	"rfc7640.queue-capacity"

static int parse_dscps(json_object *v, void *base, const char *key,
		       struct bm_error *err)
{
	struct tm_qcap_params *p = base;

	return tm_class_dscps_parse(v, key, p->dscps, &p->n_classes, err);
}

static int parse_rates(json_object *v, void *base, const char *key,
		       struct bm_error *err)
{
	struct tm_qcap_params *p = base;

	return tm_values_parse(v, key, 0, true, 1e13, false, TM_MAX_CLASSES,
			       p->rates_bps, &p->n_rates, err);
}

static int parse_weights(json_object *v, void *base, const char *key,
			 struct bm_error *err)
{
	struct tm_qcap_params *p = base;

	return tm_values_parse(v, key, 0, false, 1e9, false, TM_MAX_CLASSES,
			       p->weights, &p->n_weights, err);
}

static int parse_ingress(json_object *v, void *base, const char *key,
			 struct bm_error *err)
{
	return tm_port_list_parse(v, key,
				  &((struct tm_qcap_params *)base)->ingress,
				  err);
}

static int parse_egress(json_object *v, void *base, const char *key,
			struct bm_error *err)
{
	return tm_port_list_parse(v, key,
				  &((struct tm_qcap_params *)base)->egress,
				  err);
}

#define CO(f)	offsetof(struct tm_qcap_params, f)

const struct bm_param tm_qcap_keys[] = {
	{ { "ql", BM_J_BYTES, CO(ql), 64, 1e12, 0, 0, NULL, NULL }, "B",
	  "the egress queue length QL [PROPOSED 32KB: the draft's example]",
	  NULL },
	{ { "bb_bps", BM_J_DOUBLE, CO(bb_bps), 0, 1e13, BM_JK_MIN_EXCL, 0,
	    NULL, NULL }, "bit/s", "the egress bottleneck BB [PROPOSED 100 "
	  "Mbit/s]", NULL },
	{ { "scheduler", BM_J_ENUM, CO(scheduler), 0, 0, 0, 0, sched_names,
	    NULL }, "", "the DUT's scheduling technique, reported (TM "
	  "§6.2.2.1.1: sp; §6.2.2.1.2: sp_wfq)", NULL },
	{ { "class_dscps", BM_J_CUSTOM, CO(dscps), 0, 63, 0, 0, NULL,
	    parse_dscps },
	  "", "the classes' DSCPs, one queue each, 1 to 8, SP queues in "
	  "priority order [PROPOSED 46, 0: EF and best effort]",
	  "integer array" },
	{ { "class_rates_bps", BM_J_CUSTOM, CO(rates_bps), 0, 1e13,
	    BM_JK_MIN_EXCL, 0, NULL, parse_rates }, "bit/s", "each class's "
	  "rate from every ingress port to every egress port, accounting "
	  "mode [PROPOSED 20e6, 50e6: the SPEC's acceptance]", "number array" },
	{ { "class_weights", BM_J_CUSTOM, CO(weights), 0, 1e9,
	    BM_JK_DERIVED | BM_JK_ZERO_NULL, 0, NULL, parse_weights }, "",
	  "each queue's WFQ weight as configured (e.g. ets quanta), 0 for an "
	  "SP queue; reported, and the WFQ shares are set against it (unset: "
	  "every queue SP)", "number array" },
	{ { "ingress_ports", BM_J_CUSTOM, CO(ingress), 1, BM_BACKEND_MAX_PORTS,
	    BM_JK_DERIVED, 0, NULL, parse_ingress }, "", "the ingress ports, "
	  "1 = the job's first (unset: every port not an egress)",
	  "integer array" },
	{ { "egress_ports", BM_J_CUSTOM, CO(egress), 1, BM_BACKEND_MAX_PORTS,
	    BM_JK_DERIVED, 0, NULL, parse_egress }, "", "the egress ports; "
	  "every ingress port sends each class to each (unset: the last "
	  "port)", "integer array" },
	{ { "bursts", BM_J_BOOL, CO(bursts), 0, 0, 0, 0, NULL, NULL }, "",
	  "also TM-QS-1's bursts: QL / n_in from every ingress port to each "
	  "egress together every QL x 8 / BB", NULL },
	TM_COMMON_TD_KEYS(CO, "§6.2.1.1: 30"),
	TM_QCAP_SF_KEYS(CO),
	{ { NULL, 0, 0, 0, 0, 0, 0, NULL, NULL }, NULL, NULL, NULL },
};

const struct bm_jwriter tm_qcap_writers[] = {
	{ parse_dscps, bm_json_uints_at, CO(n_classes) },
	{ parse_rates, bm_json_doubles_at, CO(n_rates) },
	{ parse_weights, bm_json_doubles_at, CO(n_weights) },
	{ parse_ingress, tm_port_list_at, 0 },
	{ parse_egress, tm_port_list_at, 0 },
	TM_QCAP_SF_WRITERS,
	{ NULL, NULL, 0 },
};

void tm_qcap_defaults(struct tm_qcap_params *p)
{
	*p = (struct tm_qcap_params){
		.ql = 32000,			/* [PROPOSED] */
		.bb_bps = 100e6,		/* [PROPOSED] */
		.scheduler = TM_SCHED_SP,	/* §6.2.2.1.1 */
		.dscps = { 46, 0 },		/* [PROPOSED] EF, BE */
		.n_classes = 2,
		.rates_bps = { 20e6, 50e6 },	/* [PROPOSED] SPEC acceptance */
		.n_rates = 2,
		.bursts = true,
	};
	tm_common_defaults(&p->c, 30.0);
	tm_qcap_sf_defaults(p);
}

/* Is class k a WFQ queue? */
static bool is_wfq(const struct tm_qcap_params *p, size_t k)
{
	/* tm_qcap_check: scheduler wfq comes with its weights */
	return p->n_weights && p->weights[k] > 0;
}

/* What queue k is: "sp", "wfq", or the scheduler's name. */
static const char *queue_kind(const struct tm_qcap_params *p, size_t k)
{
	if (p->n_weights)
		return p->weights[k] > 0 ? "wfq" : "sp";
	return sched_names[p->scheduler];
}

int tm_qcap_check(const struct tm_qcap_params *p, struct bm_error *err)
{
	size_t k, n_wfq = 0;

	if (p->n_rates != p->n_classes)
		return bm_errorf(err, NAME ": class_rates_bps: %zu rates for "
				 "%zu classes (class_dscps)", p->n_rates,
				 p->n_classes);
	if (p->n_weights && p->n_weights != p->n_classes)
		return bm_errorf(err, NAME ": class_weights: %zu weights for "
				 "%zu classes (class_dscps)", p->n_weights,
				 p->n_classes);
	for (k = 0; k < p->n_weights; k++)
		n_wfq += p->weights[k] > 0;
	switch (p->scheduler) {
	case TM_SCHED_SP:
		if (n_wfq)
			return bm_errorf(err, NAME ": class_weights: a WFQ "
					 "weight with scheduler sp (use "
					 "sp_wfq)");
		break;
	case TM_SCHED_WFQ:
		if (p->n_weights && n_wfq < p->n_classes)
			return bm_errorf(err, NAME ": class_weights: an SP "
					 "queue (weight 0) with scheduler wfq "
					 "(use sp_wfq)");
		break;
	case TM_SCHED_SP_WFQ:
		if (!n_wfq || n_wfq == p->n_classes)
			return bm_errorf(err, NAME ": class_weights: "
					 "scheduler sp_wfq needs SP queues "
					 "(weight 0) and WFQ queues (weight > "
					 "0)");
		break;
	default:
		break;
	}
	if (p->scheduler == TM_SCHED_WFQ && !p->n_weights)
		return bm_errorf(err, NAME ": class_weights: scheduler wfq "
				 "needs the queues' weights");
	return 0;
}

double tm_qcap_max_trials(const struct tm_qcap_params *p)
{
	return (1.0 + (p->bursts ? 1.0 : 0.0)) * p->c.tr;
}

/* The SPEC test a map and scheduler make: one egress, SP (CAP-1) or with
 * WFQ queues (CAP-2); several egresses, one queue (CAP-3) or more. */
static const char *qc_ref(const struct tm_qcap_params *p,
			  const struct tm_portmap *pm)
{
	size_t k;
	bool wfq = false;

	for (k = 0; k < p->n_classes; k++)
		wfq |= is_wfq(p, k);
	if (pm->n_eg == 1)
		return wfq ? "TM-QS-CAP-2" : "TM-QS-CAP-1";
	return p->n_classes > 1 ? "TM-QS-CAP-4" : "TM-QS-CAP-3";
}

/* The burst part of one run: m[i * n_eg + e] of ingress i to egress e. */
static int qc_bursts(struct tm_ctx *x, const struct tm_qcap_params *p,
		     const struct tm_portmap *pm, const struct tm_burst *b,
		     double ti, uint32_t bursts, unsigned int test,
		     struct tm_flow_metrics *m)
{
	double bt = tm_burst_time_s(b, x->be->line_rate_bps);
	unsigned int i, e, n = pm->n_in * pm->n_eg;
	struct bm_traffic_result *r = NULL;
	struct tm_flow *f;
	struct bm_traffic t;
	char reason[96];
	int ret;

	f = calloc(n, sizeof(*f));
	if (!f)
		return bm_errorf(x->err, "out of memory");
	ret = tm_traffic(x, &t);
	for (i = 0; i < pm->n_in && !ret; i++)
		for (e = 0; e < pm->n_eg && !ret; e++)
			ret = tm_add_bursts(x, &t, pm->in[i], pm->eg[e],
					    (uint8_t)p->c.dscp, b, bursts, ti,
					    e * bt, true, &f[i * pm->n_eg + e]);
	if (ret)
		goto out;
	snprintf(reason, sizeof(reason), "run %u: %u x %u x %llu B bursts "
		 "every %.6g s", test, pm->n_in, pm->n_eg,
		 (unsigned long long)b->nominal, ti);
	ret = tm_trial_flows(x, &t, p->c.td_s, "bursts", reason, test, f, m,
			     n, &r);
out:
	free(f);
	bm_traffic_result_free(r);
	bm_traffic_free(&t);
	return ret;
}

static json_object *qc_config(const struct tm_ctx *x,
			      const struct tm_qcap_params *p,
			      const struct tm_portmap *pm,
			      const struct tm_burst *b, double ti,
			      uint32_t bursts)
{
	json_object *cfg = json_object_new_object();

	bm_json_add_str(cfg, "spec_test", qc_ref(p, pm));
	bm_json_add_u64(cfg, "tr", p->c.tr);
	bm_json_add_double(cfg, "td_s", p->c.td_s);
	bm_json_add_u64(cfg, "frame_size", p->c.frame_size);
	bm_json_add_str(cfg, "accounting", tm_acct_names[p->c.accounting]);
	bm_json_add_str(cfg, "burst_mode", tm_burst_mode_names[p->c.burst_mode]);
	/* TM §6.2.2.1.1 and §6.2.2.2 MUST */
	tm_portmap_config(cfg, x, pm, p->dscps, p->n_classes, p->rates_bps,
			  p->n_rates);
	if (pm->n_eg == 1)
		bm_json_add_str(cfg, "egress_port",
				x->be->port_names[pm->eg[0]]);
	bm_json_add_bool(cfg, "bursts", p->bursts);
	if (p->bursts) {
		bm_json_add_double(cfg, "ti_s", ti);
		bm_json_add_double(cfg, "ti_margin_pct", p->c.ti_margin_pct);
		tm_plan_json(cfg, "burst_per_port", b);
		bm_json_add_u64(cfg, "bursts_per_run", bursts);
	}
	bm_json_add_double(cfg, "burst_rate_bps", x->be->line_rate_bps);
	if (p->sf_apps)
		tm_qcap_sf_config(cfg, x, p, pm);
	return cfg;
}

/* Sum of the WFQ queues' weights. */
static double wfq_weights(const struct tm_qcap_params *p)
{
	double w = 0;
	size_t k;

	for (k = 0; k < p->n_weights; k++)
		w += p->weights[k];
	return w;
}

static json_object *qc_dut(const struct tm_qcap_params *p)
{
	json_object *dut = json_object_new_object(), *a, *o;
	unsigned int prio = 0;
	double wsum = wfq_weights(p);
	size_t k;

	bm_json_add_str(dut, "scheduler", sched_names[p->scheduler]);
	bm_json_add_double(dut, "bb_bps", p->bb_bps);
	bm_json_add_u64(dut, "ql_bytes", p->ql);
	bm_json_add_u64(dut, "queues", p->n_classes);
	/* TM §6.2.2.1.2: the SP and WFQ queues as configured, every egress
	 * port alike */
	a = json_object_new_array();
	for (k = 0; k < p->n_classes; k++) {
		o = json_object_new_object();
		bm_json_add_u64(o, "queue", k + 1);
		bm_json_add_u64(o, "dscp", p->dscps[k]);
		bm_json_add_str(o, "kind", queue_kind(p, k));
		if (!strcmp(queue_kind(p, k), "sp"))
			bm_json_add_u64(o, "sp_priority", ++prio);
		if (is_wfq(p, k)) {
			bm_json_add_double(o, "weight", p->weights[k]);
			bm_json_add_double(o, "weight_share_pct",
					   100.0 * p->weights[k] / wsum);
		}
		json_object_array_add(a, o);
	}
	json_object_object_add(dut, "scheduler_queues", a);
	return dut;
}

/*
 * The statistics over the runs: per scope (0: every egress together,
 * then each egress when there are several) and class, the throughput,
 * LP, smallest share and WFQ share; per egress its throughput (several
 * egresses); the bursts' LP and smallest BSA.
 */
enum { QS_THR, QS_LP, QS_SHARE_MIN, QS_WFQ_SHARE, QS_PER_CLASS };

struct qc_stats {
	unsigned int scopes, nc, n_eg;
	size_t n;
	double (*v)[TM_MAX_TR];
};

static size_t qs_class(const struct qc_stats *s, unsigned int scope,
		       unsigned int k, unsigned int j)
{
	return ((size_t)scope * s->nc + k) * QS_PER_CLASS + j;
}

static size_t qs_egress(const struct qc_stats *s, unsigned int e)
{
	return (size_t)s->scopes * s->nc * QS_PER_CLASS + e;
}

static size_t qs_bursts(const struct qc_stats *s, unsigned int j)
{
	return qs_egress(s, s->scopes > 1 ? s->n_eg : 0) + j;
}

/* One egress's class totals of a run. */
struct qc_class {
	double tot, offered, lp, lo, hi, wfq_share;
	double bytes;		/* received: the shares are of bytes */
};

static json_object *row_of(unsigned int test, const char *egress)
{
	json_object *o = json_object_new_object();

	bm_json_add_u64(o, "test", test);
	bm_json_add_str(o, "egress", egress);
	return o;
}

static void add_row(json_object *res, const char *key, json_object *o)
{
	json_object_array_add(json_object_object_get(res, key), o);
}

/* The classes' rows of egress e of run test, from the mesh's metrics;
 * its totals into c[0..nc); the egress's throughput (tm_egress_tput). */
static double qc_egress_rows(const struct tm_ctx *x,
			   const struct tm_qcap_params *p,
			   const struct tm_portmap *pm,
			   const struct tm_mesh *ms, unsigned int e,
			   unsigned int test, json_object *res,
			   struct qc_class *c)
{
	const char *eg = x->be->port_names[pm->eg[e]];
	unsigned int i, k, nc = (unsigned int)p->n_classes, prio = 0;
	double td = p->c.td_s, wsum = wfq_weights(p), wfq = 0, sp = 0;
	double off = 0, lp = 0, share;
	struct tm_egress eb = TM_EGRESS_INIT;
	json_object *o;

	for (k = 0; k < nc; k++)
		for (i = 0; i < pm->n_in; i++)
			tm_egress_add(&eb, &ms->m[tm_mesh_at(pm, nc, i, e, k)]);
	for (k = 0; k < nc; k++) {
		struct qc_class *q = &c[k];

		*q = (struct qc_class){ .lo = INFINITY, .hi = -INFINITY,
					.wfq_share = NAN };
		for (i = 0; i < pm->n_in; i++) {
			const struct tm_flow_metrics *s =
				&ms->m[tm_mesh_at(pm, nc, i, e, k)];

			q->tot += tm_egress_flow_tput(&eb, s, td);
			q->bytes += s->rx_bytes;
			q->offered += s->tx_bytes * 8.0 / td;
			q->lp += (double)s->lost;
		}
		if (is_wfq(p, k))
			wfq += q->tot;
		else
			sp += q->tot;
		off += q->offered;
		lp += q->lp;
	}
	for (k = 0; k < nc; k++) {
		struct qc_class *q = &c[k];
		bool w = is_wfq(p, k);

		/* the share of what the WFQ queues got: the remainder the
		 * SP queues left, when the egress is busy (TM §6.2.2.1.2);
		 * of their rates, each timed to its own last arrival: of
		 * bytes, the queue that drained alone after Td read its
		 * drain as share (28.7 % for a weight's 27.3, lab 46) */
		if (w)
			q->wfq_share = wfq > 0 ? 100.0 * q->tot / wfq : NAN;
		for (i = 0; i < pm->n_in; i++) {
			const struct tm_flow_metrics *s =
				&ms->m[tm_mesh_at(pm, nc, i, e, k)];

			/* the ingress's part of its class at this egress, of
			 * bytes: rates timed over spans that differ split
			 * otherwise (66.2/33.8 for bytes of 73.5/26.5) */
			share = q->bytes > 0 ? 100.0 * s->rx_bytes / q->bytes :
				NAN;
			q->lo = fmin(q->lo, share);
			q->hi = fmax(q->hi, share);
			o = row_of(test, eg);
			bm_json_add_str(o, "ingress",
					x->be->port_names[pm->in[i]]);
			bm_json_add_u64(o, "queue", k + 1);
			bm_json_add_str(o, "queue_kind", queue_kind(p, k));
			bm_json_add_u64(o, "dscp", p->dscps[k]);
			bm_json_add_double(o, "offered_bps",
					   s->tx_bytes * 8.0 / td);
			bm_json_add_double(o, "throughput_bps",
					   tm_egress_flow_tput(&eb, s,
							      td));
			bm_json_add_double(o, "rx_bytes", s->rx_bytes);
			bm_json_add_double(o, "share_pct", share);
			tm_metrics_json(o, s);
			bm_json_add_double(o, "loss_pct", s->sent ? 100.0 *
					   (double)s->lost / (double)s->sent :
					   NAN);
			bm_json_add_double(o, "pd_p99_s", s->pd_p99_ns * 1e-9);
			add_row(res, "streams", o);
		}
		o = row_of(test, eg);
		bm_json_add_u64(o, "dscp", p->dscps[k]);
		bm_json_add_double(o, "throughput_bps", q->tot);
		bm_json_add_double(o, "lp", q->lp);
		bm_json_add_double(o, "share_min_pct", q->lo);
		bm_json_add_double(o, "share_max_pct", q->hi);
		bm_json_add_double(o, "fair_share_pct", 100.0 / pm->n_in);
		add_row(res, "fairness", o);
		o = row_of(test, eg);
		bm_json_add_u64(o, "queue", k + 1);
		bm_json_add_u64(o, "dscp", p->dscps[k]);
		bm_json_add_str(o, "kind", queue_kind(p, k));
		if (!strcmp(queue_kind(p, k), "sp"))
			bm_json_add_u64(o, "sp_priority", ++prio);
		bm_json_add_double(o, "offered_bps", q->offered);
		bm_json_add_double(o, "throughput_bps", q->tot);
		bm_json_add_double(o, "lp", q->lp);
		if (w) {
			bm_json_add_double(o, "wfq_share_pct", q->wfq_share);
			bm_json_add_double(o, "weight", p->weights[k]);
			bm_json_add_double(o, "weight_share_pct",
					   100.0 * p->weights[k] / wsum);
		}
		add_row(res, "queues", o);
	}
	o = row_of(test, eg);
	bm_json_add_double(o, "offered_bps", off);
	/* TM-MET-SR of the egress port: all its bits over its window; the
	 * queues beside it are each timed to their own last arrival */
	bm_json_add_double(o, "throughput_bps", tm_egress_tput(&eb, td));
	bm_json_add_double(o, "lp", lp);
	bm_json_add_double(o, "sp_throughput_bps", sp);
	bm_json_add_double(o, "wfq_throughput_bps", wfq);
	add_row(res, "egresses", o);
	return tm_egress_tput(&eb, td);
}

/* One run's rows into res, its numbers into st at run n. */
static int qc_run_once(struct tm_ctx *x, const struct tm_qcap_params *p,
		       const struct tm_portmap *pm, const struct tm_burst *b,
		       double ti, uint32_t bursts, unsigned int test,
		       json_object *res, struct qc_stats *st, unsigned int n)
{
	unsigned int i, e, k, nc = (unsigned int)p->n_classes;
	struct tm_flow_metrics *bm = NULL;
	struct qc_class *c = NULL;
	struct tm_mesh ms;
	double bsa = INFINITY, blp = 0, wtot, wall;
	double eg_tput[BM_BACKEND_MAX_PORTS];
	json_object *o;
	size_t j;
	int ret = 0;

	for (j = 0; j < st->n; j++)
		st->v[j][n] = NAN;
	memset(&ms, 0, sizeof(ms));
	c = calloc((size_t)pm->n_eg * nc, sizeof(*c));
	bm = calloc((size_t)pm->n_in * pm->n_eg, sizeof(*bm));
	if (!c || !bm) {
		ret = bm_errorf(x->err, "out of memory");
		goto out;
	}
	if (p->bursts) {
		ret = qc_bursts(x, p, pm, b, ti, bursts, test, bm);
		for (i = 0; i < pm->n_in && !ret; i++) {
			for (e = 0; e < pm->n_eg; e++) {
				const struct tm_flow_metrics *s =
					&bm[i * pm->n_eg + e];

				o = row_of(test,
					   x->be->port_names[pm->eg[e]]);
				bm_json_add_str(o, "ingress",
						x->be->port_names[pm->in[i]]);
				bm_json_add_double(o, "bsa_bytes",
						   s->bursts_analysed ?
						   s->egress_min_bytes : NAN);
				tm_metrics_json(o, s);
				bm_json_add_u64(o, "bursts_with_loss",
						s->bursts_with_loss);
				add_row(res, "bursts", o);
				bsa = fmin(bsa, s->bursts_analysed ?
					   s->egress_min_bytes : NAN);
				blp += (double)s->lost;
			}
		}
		st->v[qs_bursts(st, 0)][n] = blp;
		st->v[qs_bursts(st, 1)][n] = isfinite(bsa) ? bsa : NAN;
	}
	if (!ret)
		ret = tm_mesh_run(x, pm, p->dscps, p->rates_bps, nc, false,
				  p->c.td_s, "classes", test, &ms);
	if (ret)
		goto out;
	for (e = 0; e < pm->n_eg; e++)
		eg_tput[e] = qc_egress_rows(x, p, pm, &ms, e, test, res,
					    &c[e * nc]);
	/* every egress together; then each egress (several) */
	for (k = 0; k < nc; k++) {
		double thr = 0, lp = 0, lo = INFINITY, w = 0;

		wall = 0;
		for (e = 0; e < pm->n_eg; e++) {
			const struct qc_class *q = &c[e * nc + k];

			thr += q->tot;
			lp += q->lp;
			lo = fmin(lo, q->lo);
			for (i = 0, wtot = 0; i < nc; i++)
				wtot += is_wfq(p, i) ? c[e * nc + i].tot : 0;
			wall += wtot;
			w += q->tot;
			if (st->scopes > 1) {
				st->v[qs_class(st, e + 1, k, QS_THR)][n] =
					q->tot;
				st->v[qs_class(st, e + 1, k, QS_LP)][n] =
					q->lp;
				st->v[qs_class(st, e + 1, k,
					       QS_SHARE_MIN)][n] = q->lo;
				st->v[qs_class(st, e + 1, k,
					       QS_WFQ_SHARE)][n] = q->wfq_share;
			}
		}
		st->v[qs_class(st, 0, k, QS_THR)][n] = thr;
		st->v[qs_class(st, 0, k, QS_LP)][n] = lp;
		st->v[qs_class(st, 0, k, QS_SHARE_MIN)][n] = lo;
		if (is_wfq(p, k))
			st->v[qs_class(st, 0, k, QS_WFQ_SHARE)][n] =
				wall > 0 ? 100.0 * w / wall : NAN;
	}
	for (e = 0; st->scopes > 1 && e < pm->n_eg; e++)
		st->v[qs_egress(st, e)][n] = eg_tput[e];
out:
	tm_mesh_free(&ms);
	free(c);
	free(bm);
	return ret;
}

/* The statistics block of st's n runs. */
static json_object *qc_stats_json(const struct tm_ctx *x,
				  const struct tm_qcap_params *p,
				  const struct tm_portmap *pm,
				  const struct qc_stats *st, unsigned int n)
{
	static const char *const what[QS_PER_CLASS] = {
		"throughput_bps", "lp", "share_min_pct", "wfq_share_pct",
	};
	json_object *stats = json_object_new_object();
	unsigned int s, k, j;
	char name[128], scope[48];

	for (s = 0; s < st->scopes; s++) {
		/* the first scope keeps CAP-1's names */
		if (s)
			snprintf(scope, sizeof(scope), "%s_",
				 x->be->port_names[pm->eg[s - 1]]);
		else
			scope[0] = '\0';
		for (k = 0; k < st->nc; k++) {
			for (j = 0; j < QS_PER_CLASS; j++) {
				if (j == QS_WFQ_SHARE && !is_wfq(p, k))
					continue;
				snprintf(name, sizeof(name), "%sdscp%u_%s",
					 scope, p->dscps[k], what[j]);
				tm_stat(stats, name, st->v[qs_class(st, s, k,
								    j)], n);
			}
		}
	}
	for (s = 0; st->scopes > 1 && s < pm->n_eg; s++) {
		snprintf(name, sizeof(name), "%s_throughput_bps",
			 x->be->port_names[pm->eg[s]]);
		tm_stat(stats, name, st->v[qs_egress(st, s)], n);
	}
	if (p->bursts) {
		tm_stat(stats, "bursts_lp", st->v[qs_bursts(st, 0)], n);
		tm_stat(stats, "bursts_bsa_min_bytes",
			st->v[qs_bursts(st, 1)], n);
	}
	return stats;
}

/* The bursts' plan and checks: QL from the ingress ports together to
 * each egress, whole bytes each, one egress's after the other's. */
static int qc_plan(struct tm_ctx *x, const struct tm_qcap_params *p,
		   const struct tm_portmap *pm, double ti, struct tm_burst *b)
{
	double t;
	int ret;

	ret = tm_plan(x, p->ql / pm->n_in, "ql", b);
	if (ret)
		return ret;
	if (pm->n_eg == 1)
		ret = tm_ti_fits(x, b, ti, "Ti = QL x 8 / BB");
	t = pm->n_eg * tm_burst_time_s(b, x->be->line_rate_bps);
	if (!ret && ti < t)
		ret = bm_errorf(x->err, NAME ": Ti = QL x 8 / BB = %.6g s is "
				"shorter than an ingress port's %u bursts of "
				"%llu B at the line rate (%.6g s): the bursts "
				"would not fit", ti, pm->n_eg,
				(unsigned long long)b->nominal, t);
	if (!ret && p->c.td_s < ti)
		ret = bm_errorf(x->err, NAME ": td_s: %g s is shorter than "
				"one Ti (%.6g s)", p->c.td_s, ti);
	return ret;
}

/* Into stats: per egress and application the repeatability block of its
 * stateful throughput over the n runs in v[(e * BM_TTP_N + k) * tr +
 * run], as EGRESS_stateful_APP_throughput_bps. */
static void qc_sf_stats(json_object *stats, const struct tm_ctx *x,
			const struct tm_qcap_params *p,
			const struct tm_portmap *pm, const double *v,
			unsigned int n)
{
	unsigned int e, k;
	char key[96];

	for (e = 0; e < pm->n_eg; e++)
		for (k = 0; k < BM_TTP_N; k++) {
			if (!(p->sf_apps & (1u << k)))
				continue;
			snprintf(key, sizeof(key), "%s_stateful_%s_"
				 "throughput_bps",
				 x->be->port_names[pm->eg[e]],
				 bm_ttp_names[k]);
			tm_stat(stats, key, &v[(e * BM_TTP_N + k) * p->c.tr],
				n);
		}
}

int tm_qcap_run(struct bm_backend *be, const struct tm_qcap_params *p,
		bm_progress_fn progress, void *ctx, json_object **result,
		struct bm_error *err)
{
	json_object *res, *dev, *stats;
	double *sf_v = NULL, *sf_run = NULL;
	unsigned int i, j, n = 0;
	struct tm_burst b = { 0 };
	struct tm_portmap pm;
	struct qc_stats st;
	struct tm_ctx x;
	uint32_t bursts = 0;
	double ti;
	int ret;

	*result = NULL;
	ret = tm_qcap_check(p, err);
	if (!ret)
		ret = tm_ctx_init(&x, NAME, be, &p->c, 3, BM_TRAFFIC_MAX_PORTS,
				  progress, ctx, err);
	if (ret)
		return ret;
	ti = (double)p->ql * 8.0 / p->bb_bps *
	     (1.0 + p->c.ti_margin_pct / 100.0);
	ret = tm_portmap_of(&x, &p->ingress, &p->egress, &pm);
	if (!ret && p->bursts) {
		ret = qc_plan(&x, p, &pm, ti, &b);
		bursts = tm_bursts_in(p->c.td_s, ti);
	}
	st = (struct qc_stats){ .scopes = 1 + (pm.n_eg > 1 ? pm.n_eg : 0),
				.nc = (unsigned int)p->n_classes,
				.n_eg = pm.n_eg };
	st.n = qs_bursts(&st, 2);
	if (!ret) {
		st.v = calloc(st.n, sizeof(*st.v));
		if (!st.v)
			ret = bm_errorf(err, "out of memory");
	}
	if (ret) {
		json_object_put(x.frame_logs);
		return ret;
	}
	res = json_object_new_object();
	json_object_object_add(res, "test_configuration",
			       qc_config(&x, p, &pm, &b, ti, bursts));
	json_object_object_add(res, "dut_configuration", qc_dut(p));
	if (p->bursts)
		json_object_object_add(res, "bursts", json_object_new_array());
	json_object_object_add(res, "streams", json_object_new_array());
	json_object_object_add(res, "fairness", json_object_new_array());
	json_object_object_add(res, "queues", json_object_new_array());
	json_object_object_add(res, "egresses", json_object_new_array());
	if (p->sf_apps) {
		sf_v = calloc((size_t)pm.n_eg * BM_TTP_N * p->c.tr,
			      sizeof(*sf_v));
		sf_run = calloc((size_t)pm.n_eg * BM_TTP_N, sizeof(*sf_run));
		if (!sf_v || !sf_run)
			ret = bm_errorf(err, "out of memory");
	}
	for (i = 0; i < p->c.tr && !ret; i++) {
		struct bm_tcp_result *tr = NULL;

		/* TM-QS-2's connections run through the bursts and the
		 * classes of the run (TM §6.2.2) */
		if (p->sf_apps)
			ret = tm_qcap_sf_start(&x, p, &pm, &tr);
		if (!ret)
			ret = qc_run_once(&x, p, &pm, &b, ti, bursts, i + 1,
					  res, &st, n);
		if (tr)
			ret = tm_qcap_sf_stop(&x, p, &pm, i + 1, res, sf_run,
					      tr, ret);
		for (j = 0; !ret && sf_run && j < pm.n_eg * BM_TTP_N; j++)
			sf_v[j * p->c.tr + n] = sf_run[j];
		if (!ret)
			n++;
	}
	stats = qc_stats_json(&x, p, &pm, &st, n);
	if (p->sf_apps && sf_v)
		qc_sf_stats(stats, &x, p, &pm, sf_v, n);
	json_object_object_add(res, "statistics", stats);
	free(st.v);
	free(sf_v);
	free(sf_run);
	json_object_object_add(res, "measurement", tm_measurement_json(&x));
	if (x.frame_logs)
		json_object_object_add(res, "frame_logs", x.frame_logs);
	dev = json_object_new_array();
	if (!p->sf_apps)
		json_object_array_add(dev, json_object_new_string(
			"stateless part only: TM-QS-2's stateful traffic is "
			"not run (stateful_apps; AMB-43: the first "
			"\"stateful\" of the configuration MUST read as "
			"stateless)"));
	else
		json_object_array_add(dev, json_object_new_string(
			"stateful traffic: TM-QS-2's MUST applications (bulk, "
			"micro) only; the scripted patterns it SHOULD run are "
			"rfc7640.queue-stateful's"));
	if (p->bursts && p->ql % pm.n_in)
		json_object_array_add(dev, json_object_new_string(
			"QL does not divide by the ingress ports: the bursts "
			"together are a few bytes short of QL"));
	if (pm.n_eg > 1 && p->n_classes > 1)
		json_object_array_add(dev, json_object_new_string(
			"per egress port, queue and ingress stream as AMB-44 "
			"reads the draft's example (\"Egress Port 1, WFQ "
			"Queue\")"));
	tm_deviations(&x, dev, true);
	/* each number is its own flow's (tm_egress_flow_tput) */
	json_object_array_add(dev, json_object_new_string(TM_TPUT_SAID));
	*result = bm_result_envelope(NAME, qc_ref(p, &pm),
				     bm_json_params_to_json(tm_qcap_keys, 0, p,
							    tm_qcap_writers),
				     &x.log, NULL, res, dev, be);
	tm_ctx_free(&x);
	return ret;
}

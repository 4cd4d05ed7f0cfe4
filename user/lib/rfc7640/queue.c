// SPDX-License-Identifier: GPL-2.0
/*
 * TM §6.2.1.1 queue and scheduler with stateless traffic (SPEC TM-QS-1)
 * on 2 or 3 ports, the last one the DUT's egress of bottleneck BB.
 *
 * Per run:
 *   bursts: QL bytes at the line rate from port 0 every Ti = QL x 8 / BB
 *     (x 1 + ti_margin) for Td: LP, OOS, PD, PDV and BSA (the bytes of
 *     every burst that got through); "the primary result is ... that no
 *     packets are dropped";
 *   hunt (optional): TM-BURST-HUNT with target QL and verification, the
 *     queue's real depth (the largest loss-free burst, first_fail);
 *   classes: a high-priority class (DSCP 46) from port 0 and a low one
 *     (DSCP 0) from port 1 (port 0 with 2 ports), CBR at rates in the
 *     accounting mode whose sum exceeds BB, for Td: per class the
 *     throughput, loss, delay (min, mean, p99, max) and PDV.
 * The scheduling technique is the operator's and is reported, as the
 * draft's report names it.  No verdicts (REQ-TM-1).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bm_json.h"
#include "bm_result.h"
#include "rfc7640_int.h"

static const char *const sched_names[] = { "fifo", "sp", "wfq", "other",
					   NULL };

#define QO(f)	offsetof(struct tm_qs_params, f)

const struct bm_param tm_qs_keys[] = {
	{ { "ql", BM_J_BYTES, QO(ql), 64, 1e12, 0, 0, NULL, NULL }, "B",
	  "the DUT's queue length QL, the burst [PROPOSED 32KB: the draft's "
	  "example]", NULL },
	{ { "bb_bps", BM_J_DOUBLE, QO(bb_bps), 0, 1e13, BM_JK_MIN_EXCL, 0,
	    NULL, NULL }, "bit/s", "the egress bottleneck bandwidth BB "
	  "[PROPOSED 100 Mbit/s: the draft's example]", NULL },
	{ { "scheduler", BM_J_ENUM, QO(scheduler), 0, 0, 0, 0, sched_names,
	    NULL }, "", "the DUT's scheduling technique, reported (TM "
	  "§6.2.1: at least three should be tested)", NULL },
	{ { "hunt", BM_J_BOOL, QO(hunt), 0, 0, 0, 0, NULL, NULL }, "",
	  "also hunt the queue's depth: TM-BURST-HUNT with target QL and "
	  "verification", NULL },
	{ { "classes", BM_J_BOOL, QO(classes), 0, 0, 0, 0, NULL, NULL }, "",
	  "the scheduling characterisation: two classes whose sum exceeds "
	  "BB", NULL },
	{ { "high_bps", BM_J_DOUBLE, QO(high_bps), 0, 1e13,
	    BM_JK_DERIVED | BM_JK_ZERO_NULL, 0, NULL, NULL }, "bit/s", "the "
	  "high class's rate in the accounting mode (unset: 60 % of BB "
	  "[PROPOSED])", NULL },
	{ { "low_bps", BM_J_DOUBLE, QO(low_bps), 0, 1e13,
	    BM_JK_DERIVED | BM_JK_ZERO_NULL, 0, NULL, NULL }, "bit/s", "the "
	  "low class's rate (unset: 60 % of BB [PROPOSED])", NULL },
	{ { "high_dscp", BM_J_UINT, QO(high_dscp), 0, 63, 0, 0, NULL, NULL },
	  "", "DSCP of the high class (46: EF)", NULL },
	{ { "low_dscp", BM_J_UINT, QO(low_dscp), 0, 63, 0, 0, NULL, NULL },
	  "", "DSCP of the low class (0: best effort)", NULL },
	TM_COMMON_TD_KEYS(QO, "§6.2.1.1: 30"),
	{ { NULL, 0, 0, 0, 0, 0, 0, NULL, NULL }, NULL, NULL, NULL },
};

void tm_qs_defaults(struct tm_qs_params *p)
{
	*p = (struct tm_qs_params){
		.ql = 32000,		/* [PROPOSED] the draft's §6.2.1.2 */
		.bb_bps = 100e6,	/* [PROPOSED] example */
		.scheduler = TM_SCHED_FIFO,
		.classes = true,	/* [PROPOSED] §6.2.1.1 "must also" */
		.high_dscp = 46,	/* EF */
	};
	tm_common_defaults(&p->c, 30.0);	/* §6.2.1.1: Td 30 s */
}

int tm_qs_check(const struct tm_qs_params *p, struct bm_error *err)
{
	if (p->classes && p->high_dscp == p->low_dscp)
		return bm_errorf(err, "rfc7640.queue: low_dscp: the classes "
				 "need two DSCPs, both are %u", p->low_dscp);
	return 0;
}

/* The hunt of the queue: target QL, 1 KB steps, verified to QL + 16 KB,
 * draining at BB. */
static void qs_hunt_params(const struct tm_qs_params *p,
			   struct tm_hunt_params *h)
{
	tm_hunt_defaults(h);
	h->target = p->ql;
	h->min = p->ql < h->min ? p->ql : h->min;
	h->verify_policer = true;
	h->rate_bps = p->bb_bps;
	h->c = p->c;
}

double tm_qs_max_trials(const struct tm_qs_params *p)
{
	struct tm_hunt_params h;
	double n = 1.0 + (p->classes ? 1.0 : 0.0);

	if (p->hunt) {
		qs_hunt_params(p, &h);
		h.c.tr = 1;
		n += tm_hunt_max_trials(&h);
	}
	return n * p->c.tr;
}

static double high_bps(const struct tm_qs_params *p)
{
	return p->high_bps > 0 ? p->high_bps : 0.6 * p->bb_bps;
}

static double low_bps(const struct tm_qs_params *p)
{
	return p->low_bps > 0 ? p->low_bps : 0.6 * p->bb_bps;
}

/* The burst part of one run. */
static int qs_bursts(struct tm_ctx *x, const struct tm_qs_params *p,
		     const struct tm_burst *b, double ti, uint32_t bursts,
		     unsigned int test, struct tm_flow_metrics *m)
{
	struct bm_traffic_result *r = NULL;
	struct bm_traffic t;
	struct tm_flow f;
	char reason[96];
	int ret;

	ret = tm_traffic(x, &t);
	if (!ret)
		ret = tm_add_bursts(x, &t, 0, x->be->n_ports - 1,
				    (uint8_t)p->c.dscp, b, bursts, ti, 0.0,
				    true, &f);
	if (ret)
		goto out;
	snprintf(reason, sizeof(reason), "run %u: %u bursts of %llu B every "
		 "%.6g s", test, bursts, (unsigned long long)b->nominal, ti);
	ret = tm_trial_flows(x, &t, p->c.td_s, "bursts", reason, test, &f, m,
			     1, &r);
out:
	bm_traffic_result_free(r);
	bm_traffic_free(&t);
	return ret;
}

/* The classes of one run: m[0] high, m[1] low. */
static int qs_classes(struct tm_ctx *x, const struct tm_qs_params *p,
		      unsigned int test, struct tm_flow_metrics *m)
{
	double a = tm_acct_bytes(p->c.frame_size, p->c.accounting) * 8.0;
	unsigned int eg = x->be->n_ports - 1, low_in = eg > 1 ? 1 : 0;
	struct bm_traffic_result *r = NULL;
	struct bm_traffic t;
	struct tm_flow f[2];
	char reason[96];
	int ret;

	ret = tm_traffic(x, &t);
	if (!ret)
		ret = tm_add_cbr(x, &t, 0, eg, (uint8_t)p->high_dscp,
				 p->c.frame_size, high_bps(p) / a, &f[0]);
	if (!ret)
		ret = tm_add_cbr(x, &t, low_in, eg, (uint8_t)p->low_dscp,
				 p->c.frame_size, low_bps(p) / a, &f[1]);
	if (ret)
		goto out;
	snprintf(reason, sizeof(reason), "run %u: classes %.4g + %.4g bit/s "
		 "into BB %.4g bit/s", test, high_bps(p), low_bps(p),
		 p->bb_bps);
	ret = tm_trial_flows(x, &t, p->c.td_s, "classes", reason, test, f, m,
			     2, &r);
out:
	bm_traffic_result_free(r);
	bm_traffic_free(&t);
	return ret;
}

/* The row of class m (high or not), one of the two flows of egress eb. */
static json_object *class_row(const struct tm_qs_params *p,
			      const struct tm_egress *eb,
			      const struct tm_flow_metrics *m, unsigned int test,
			      bool high, const char *ingress)
{
	json_object *o = json_object_new_object();

	bm_json_add_u64(o, "test", test);
	bm_json_add_str(o, "class", high ? "high" : "low");
	bm_json_add_u64(o, "dscp", high ? p->high_dscp : p->low_dscp);
	bm_json_add_str(o, "ingress", ingress);
	bm_json_add_double(o, "offered_bps", m->tx_bytes * 8.0 / p->c.td_s);
	bm_json_add_double(o, "throughput_bps",
			   tm_egress_flow_tput(eb, m, p->c.td_s));
	tm_metrics_json(o, m);
	bm_json_add_double(o, "loss_pct", m->sent ? 100.0 * (double)m->lost /
			   (double)m->sent : NAN);
	bm_json_add_double(o, "pd_p99_s", m->pd_p99_ns * 1e-9);
	return o;
}

enum { B_BSA, B_LP, B_OOS, B_PD, B_PDMAX, B_PDV, H_LARGEST, C_HI_TPUT,
       C_HI_LP, C_HI_P99, C_LO_TPUT, C_LO_LOSS, N_STATS };

static const char *const stat_names[N_STATS] = {
	"bsa_bytes", "lp", "oos", "pd_mean_s", "pd_max_s", "pdv_s",
	"hunt_largest_pass_bytes", "high_throughput_bps", "high_lp",
	"high_pd_p99_s", "low_throughput_bps", "low_loss_pct",
};

static json_object *qs_config(const struct tm_ctx *x,
			      const struct tm_qs_params *p,
			      const struct tm_burst *b, double ti,
			      uint32_t bursts)
{
	json_object *cfg = json_object_new_object(), *a;
	unsigned int eg = x->be->n_ports - 1;

	bm_json_add_u64(cfg, "tr", p->c.tr);
	bm_json_add_double(cfg, "td_s", p->c.td_s);
	bm_json_add_double(cfg, "ti_s", ti);
	bm_json_add_double(cfg, "ti_margin_pct", p->c.ti_margin_pct);
	bm_json_add_u64(cfg, "frame_size", p->c.frame_size);
	bm_json_add_str(cfg, "accounting", tm_acct_names[p->c.accounting]);
	bm_json_add_str(cfg, "burst_mode", tm_burst_mode_names[p->c.burst_mode]);
	tm_plan_json(cfg, "burst", b);
	bm_json_add_u64(cfg, "bursts_per_run", bursts);
	bm_json_add_double(cfg, "burst_rate_bps", x->be->line_rate_bps);
	a = json_object_new_array();
	json_object_array_add(a, json_object_new_string(x->be->port_names[0]));
	if (eg > 1)
		json_object_array_add(a, json_object_new_string(
			x->be->port_names[1]));
	json_object_object_add(cfg, "ingress_ports", a);
	bm_json_add_str(cfg, "egress_port", x->be->port_names[eg]);
	bm_json_add_bool(cfg, "hunt", p->hunt);
	bm_json_add_bool(cfg, "classes", p->classes);
	if (p->classes) {
		bm_json_add_double(cfg, "high_bps", high_bps(p));
		bm_json_add_double(cfg, "low_bps", low_bps(p));
	}
	return cfg;
}

static json_object *qs_dut(const struct tm_qs_params *p)
{
	json_object *dut = json_object_new_object();

	/* the draft's "DUT Configuration Summary: Scheduling technique,
	 * BB and QL" */
	bm_json_add_str(dut, "scheduler", sched_names[p->scheduler]);
	bm_json_add_double(dut, "bb_bps", p->bb_bps);
	bm_json_add_u64(dut, "ql_bytes", p->ql);
	return dut;
}

/* One run: its rows into the arrays of res, its numbers into v[][n]. */
static int qs_run_once(struct tm_ctx *x, const struct tm_qs_params *p,
		       const struct tm_burst *b, double ti, uint32_t bursts,
		       unsigned int test, json_object *res,
		       double v[N_STATS][TM_MAX_TR], unsigned int n)
{
	struct tm_flow_metrics m, cm[2];
	struct tm_egress eb = TM_EGRESS_INIT;
	struct tm_hunt_params hp;
	struct tm_hunt_out ho;
	json_object *o;
	unsigned int k, eg = x->be->n_ports - 1;
	int ret;

	for (k = 0; k < N_STATS; k++)
		v[k][n] = NAN;
	ret = qs_bursts(x, p, b, ti, bursts, test, &m);
	if (ret)
		return ret;
	o = json_object_new_object();
	bm_json_add_u64(o, "test", test);
	bm_json_add_double(o, "bsa_bytes", m.bursts_analysed ?
			   m.egress_min_bytes : NAN);
	tm_metrics_json(o, &m);
	bm_json_add_u64(o, "bursts", m.bursts);
	bm_json_add_u64(o, "bursts_with_loss", m.bursts_with_loss);
	json_object_array_add(json_object_object_get(res, "bursts"), o);
	v[B_BSA][n] = m.bursts_analysed ? m.egress_min_bytes : NAN;
	v[B_LP][n] = (double)m.lost;
	v[B_OOS][n] = (double)m.reordered;
	v[B_PD][n] = m.pd_mean_ns * 1e-9;
	v[B_PDMAX][n] = m.pd_max_ns * 1e-9;
	v[B_PDV][n] = m.pdv_ns * 1e-9;
	if (p->hunt) {
		qs_hunt_params(p, &hp);
		ret = tm_hunt_once(x, &hp, 0, eg, test, NULL, &ho);
		if (ret)
			return ret;
		o = json_object_new_object();
		bm_json_add_u64(o, "test", test);
		bm_json_add_str(o, "outcome", ho.outcome);
		bm_json_add_u64(o, "bsa_bytes", ho.bsa.nominal);
		bm_json_add_u64(o, "largest_pass_bytes", ho.largest_pass);
		bm_json_add_double(o, "first_fail_bytes", ho.first_fail.nominal ?
				   (double)ho.first_fail.nominal : NAN);
		bm_json_add_u64(o, "bursts", ho.bursts);
		tm_hunt_result_json(o, &hp, &ho);
		json_object_array_add(json_object_object_get(res, "hunt"), o);
		v[H_LARGEST][n] = (double)ho.largest_pass;
	}
	if (!p->classes)
		return 0;
	ret = qs_classes(x, p, test, cm);
	if (ret)
		return ret;
	/* both classes leave by one egress: their throughputs over its
	 * window add up to what it carried */
	tm_egress_add(&eb, &cm[0]);
	tm_egress_add(&eb, &cm[1]);
	o = json_object_object_get(res, "classes");
	json_object_array_add(o, class_row(p, &eb, &cm[0], test, true,
					   x->be->port_names[0]));
	json_object_array_add(o, class_row(p, &eb, &cm[1], test, false,
					   x->be->port_names[eg > 1 ? 1 : 0]));
	v[C_HI_TPUT][n] = tm_egress_flow_tput(&eb, &cm[0], p->c.td_s);
	v[C_HI_LP][n] = (double)cm[0].lost;
	v[C_HI_P99][n] = cm[0].pd_p99_ns * 1e-9;
	v[C_LO_TPUT][n] = tm_egress_flow_tput(&eb, &cm[1], p->c.td_s);
	v[C_LO_LOSS][n] = cm[1].sent ? 100.0 * (double)cm[1].lost /
			  (double)cm[1].sent : NAN;
	return 0;
}

int tm_qs_run(struct bm_backend *be, const struct tm_qs_params *p,
	      bm_progress_fn progress, void *ctx, json_object **result,
	      struct bm_error *err)
{
	double v[N_STATS][TM_MAX_TR];
	json_object *res, *stats, *dev;
	struct tm_burst b;
	struct tm_ctx x;
	unsigned int i, k, n = 0;
	uint32_t bursts;
	double ti;
	int ret;

	*result = NULL;
	ret = tm_qs_check(p, err);
	if (!ret)
		ret = tm_ctx_init(&x, "rfc7640.queue", be, &p->c, 2, 3,
				  progress, ctx, err);
	if (ret)
		return ret;
	ti = (double)p->ql * 8.0 / p->bb_bps *
	     (1.0 + p->c.ti_margin_pct / 100.0);
	ret = tm_plan(&x, p->ql, "ql", &b);
	if (!ret)
		ret = tm_ti_fits(&x, &b, ti, "Ti = QL x 8 / BB");
	if (!ret && p->c.td_s < ti)
		ret = bm_errorf(err, "rfc7640.queue: td_s: %g s is shorter "
				"than one Ti (%.6g s)", p->c.td_s, ti);
	if (ret) {
		json_object_put(x.frame_logs);
		return ret;
	}
	bursts = tm_bursts_in(p->c.td_s, ti);
	res = json_object_new_object();
	json_object_object_add(res, "test_configuration",
			       qs_config(&x, p, &b, ti, bursts));
	json_object_object_add(res, "dut_configuration", qs_dut(p));
	json_object_object_add(res, "bursts", json_object_new_array());
	if (p->hunt)
		json_object_object_add(res, "hunt", json_object_new_array());
	if (p->classes)
		json_object_object_add(res, "classes", json_object_new_array());
	for (i = 0; i < p->c.tr && !ret; i++) {
		ret = qs_run_once(&x, p, &b, ti, bursts, i + 1, res, v, n);
		if (!ret)
			n++;
	}
	stats = json_object_new_object();
	for (k = 0; k < N_STATS; k++) {
		if ((k == H_LARGEST && !p->hunt) ||
		    (k >= C_HI_TPUT && !p->classes))
			continue;
		tm_stat(stats, stat_names[k], v[k], n);
	}
	json_object_object_add(res, "statistics", stats);
	json_object_object_add(res, "measurement", tm_measurement_json(&x));
	if (x.frame_logs)
		json_object_object_add(res, "frame_logs", x.frame_logs);
	dev = json_object_new_array();
	if (p->classes && high_bps(p) + low_bps(p) <= p->bb_bps)
		json_object_array_add(dev, json_object_new_string(
			"the classes together do not exceed BB: nothing for "
			"the scheduler to arbitrate (TM §6.2.1.1)"));
	tm_deviations(&x, dev, true);
	*result = bm_result_envelope("rfc7640.queue", "TM-QS-1",
				     bm_json_params_to_json(tm_qs_keys, 0, p,
							    NULL),
				     &x.log, NULL, res, dev, be);
	tm_ctx_free(&x);
	return ret;
}

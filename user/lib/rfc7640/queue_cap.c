// SPDX-License-Identifier: GPL-2.0
/*
 * TM §6.2.2.1.1 multiple queues on one port, strict priority (SPEC
 * TM-QS-CAP-1), stateless part: TM-QS-1 with traffic from several ingress
 * ports (all but the last) to one egress port (the last).
 *
 * Per run:
 *   bursts (optional): every ingress port bursts QL / n_in bytes at the
 *     line rate at the same instants, every Ti = QL x 8 / BB (x 1 +
 *     margin), for Td, so that the egress queue sees QL a period: per
 *     ingress BSA, LP, OOS, PD, PDV;
 *   classes: every ingress port sends one CBR stream per class (DSCP,
 *     rate in the accounting mode), up to 8 classes, one per queue
 *     ("each priority maps to its own queue"), for Td: per ingress stream
 *     the achieved throughput and metrics at the egress (the draft's MUST),
 *     and per class how the egress shared it among the ingress ports
 *     ("for a given priority, each ingress port should get a fair share").
 * The configuration the draft makes a MUST is in test_configuration: the
 * ingress ports active, their marking and rates.  No verdicts.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bm_json.h"
#include "bm_result.h"
#include "rfc7640_int.h"

static const char *const sched_names[] = { "fifo", "sp", "wfq", "other",
					   NULL };

static int parse_dscps(json_object *v, void *base, const char *key,
		       struct bm_error *err)
{
	struct tm_qcap_params *p = base;
	size_t n, i, j;
	int64_t d;

	if (json_object_get_type(v) != json_type_array)
		return bm_errorf(err, "%s: expected an array of DSCPs", key);
	n = json_object_array_length(v);
	if (!n || n > TM_MAX_CLASSES)
		return bm_errorf(err, "%s: expected 1 to %d DSCPs", key,
				 TM_MAX_CLASSES);
	for (i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(v, i);

		if (json_object_get_type(e) != json_type_int)
			return bm_errorf(err, "%s[%zu]: expected an integer",
					 key, i);
		d = json_object_get_int64(e);
		if (d < 0 || d > 63)
			return bm_errorf(err, "%s[%zu]: DSCP %lld outside "
					 "0..63", key, i, (long long)d);
		for (j = 0; j < i; j++)
			if (p->dscps[j] == d)
				return bm_errorf(err, "%s[%zu]: DSCP %lld "
						 "given twice", key, i,
						 (long long)d);
		p->dscps[i] = (unsigned int)d;
	}
	p->n_classes = n;
	return 0;
}

static int parse_rates(json_object *v, void *base, const char *key,
		       struct bm_error *err)
{
	struct tm_qcap_params *p = base;
	size_t n, i;
	double x;

	if (json_object_get_type(v) != json_type_array)
		return bm_errorf(err, "%s: expected an array of bit rates", key);
	n = json_object_array_length(v);
	if (!n || n > TM_MAX_CLASSES)
		return bm_errorf(err, "%s: expected 1 to %d rates", key,
				 TM_MAX_CLASSES);
	for (i = 0; i < n; i++) {
		if (!bm_json_number(json_object_array_get_idx(v, i), &x) ||
		    !(x > 0) || x > 1e13)
			return bm_errorf(err, "%s[%zu]: expected a bit rate in "
					 "(0, 1e13]", key, i);
		p->rates_bps[i] = x;
	}
	p->n_rates = n;
	return 0;
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
	  "§6.2.2.1.1: strict priority)", NULL },
	{ { "class_dscps", BM_J_CUSTOM, 0, 0, 63, 0, 0, NULL, parse_dscps },
	  "", "the classes' DSCPs, one queue each, 1 to 8 [PROPOSED 46, 0: "
	  "EF and best effort]", "integer array" },
	{ { "class_rates_bps", BM_J_CUSTOM, 0, 0, 1e13, BM_JK_MIN_EXCL, 0,
	    NULL, parse_rates }, "bit/s", "each class's rate from every "
	  "ingress port, accounting mode [PROPOSED 20e6, 50e6: the SPEC's "
	  "acceptance]", "number array" },
	{ { "bursts", BM_J_BOOL, CO(bursts), 0, 0, 0, 0, NULL, NULL }, "",
	  "also TM-QS-1's bursts: QL / n_in from every ingress port together "
	  "every QL x 8 / BB", NULL },
	TM_TD_KEYS(CO, "§6.2.1.1: 30"),
	TM_COMMON_KEYS(CO),
	{ { NULL, 0, 0, 0, 0, 0, 0, NULL, NULL }, NULL, NULL, NULL },
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
}

json_object *tm_qcap_params_json(const struct tm_qcap_params *p)
{
	json_object *o = json_object_new_object(), *a, *r;
	size_t i;

	bm_json_add_u64(o, "ql", p->ql);
	bm_json_add_double(o, "bb_bps", p->bb_bps);
	bm_json_add_str(o, "scheduler", sched_names[p->scheduler]);
	a = json_object_new_array();
	r = json_object_new_array();
	for (i = 0; i < p->n_classes; i++)
		json_object_array_add(a, json_object_new_int64(p->dscps[i]));
	for (i = 0; i < p->n_rates; i++)
		json_object_array_add(r, json_object_new_double(p->rates_bps[i]));
	json_object_object_add(o, "class_dscps", a);
	json_object_object_add(o, "class_rates_bps", r);
	bm_json_add_bool(o, "bursts", p->bursts);
	tm_common_json(o, &p->c, true);
	return o;
}

int tm_qcap_check(const struct tm_qcap_params *p, struct bm_error *err)
{
	if (p->n_rates != p->n_classes)
		return bm_errorf(err, "rfc7640.queue-capacity: class_rates_bps: "
				 "%zu rates for %zu classes (class_dscps)",
				 p->n_rates, p->n_classes);
	return 0;
}

double tm_qcap_max_trials(const struct tm_qcap_params *p)
{
	return (1.0 + (p->bursts ? 1.0 : 0.0)) * p->c.tr;
}

/* The burst part of one run: m[i] of ingress port i. */
static int qc_bursts(struct tm_ctx *x, const struct tm_qcap_params *p,
		     const struct tm_burst *b, double ti, uint32_t bursts,
		     unsigned int test, struct tm_flow_metrics *m)
{
	unsigned int n_in = x->be->n_ports - 1, i;
	struct tm_flow f[BM_TRAFFIC_MAX_PORTS];
	struct bm_traffic_result *r = NULL;
	struct bm_traffic t;
	char reason[96];
	int ret;

	ret = tm_traffic(x, &t);
	for (i = 0; i < n_in && !ret; i++)
		ret = tm_add_bursts(x, &t, i, n_in, (uint8_t)p->c.dscp, b,
				    bursts, ti, 0.0, true, &f[i]);
	if (ret)
		goto out;
	snprintf(reason, sizeof(reason), "run %u: %u x %llu B bursts every "
		 "%.6g s", test, n_in, (unsigned long long)b->nominal, ti);
	ret = tm_trial_flows(x, &t, p->c.td_s, "bursts", reason, test, f, m,
			     n_in, &r);
out:
	bm_traffic_result_free(r);
	bm_traffic_free(&t);
	return ret;
}

/* The classes of one run: m[i * n_classes + k] of ingress i, class k. */
static int qc_classes(struct tm_ctx *x, const struct tm_qcap_params *p,
		      unsigned int test, struct tm_flow_metrics *m)
{
	double a = tm_acct_bytes(p->c.frame_size, p->c.accounting) * 8.0;
	unsigned int n_in = x->be->n_ports - 1, i, k, nc = p->n_classes;
	struct bm_traffic_result *r = NULL;
	struct tm_flow *f = NULL;
	struct bm_traffic t;
	char reason[96];
	int ret;

	f = calloc((size_t)n_in * nc, sizeof(*f));
	if (!f) {
		bm_errorf(x->err, "out of memory");
		return -ENOMEM;
	}
	ret = tm_traffic(x, &t);
	for (i = 0; i < n_in && !ret; i++) {
		for (k = 0; k < nc && !ret; k++) {
			ret = tm_add_cbr(x, &t, i, n_in, (uint8_t)p->dscps[k],
					 p->c.frame_size, p->rates_bps[k] / a,
					 &f[i * nc + k]);
			/* a port's classes take turns (REQ-GEN-2 mode 6) */
			if (!ret)
				t.streams[t.n_streams - 1].phase =
					(double)k / nc;
		}
	}
	if (ret)
		goto out;
	snprintf(reason, sizeof(reason), "run %u: %u ingress ports x %u "
		 "classes", test, n_in, nc);
	ret = tm_trial_flows(x, &t, p->c.td_s, "classes", reason, test, f, m,
			     n_in * nc, &r);
out:
	free(f);
	bm_traffic_result_free(r);
	bm_traffic_free(&t);
	return ret;
}

static json_object *qc_config(const struct tm_ctx *x,
			      const struct tm_qcap_params *p,
			      const struct tm_burst *b, double ti,
			      uint32_t bursts)
{
	json_object *cfg = json_object_new_object(), *a, *o, *d, *r;
	unsigned int n_in = x->be->n_ports - 1, i;
	size_t k;

	bm_json_add_u64(cfg, "tr", p->c.tr);
	bm_json_add_double(cfg, "td_s", p->c.td_s);
	bm_json_add_u64(cfg, "frame_size", p->c.frame_size);
	bm_json_add_str(cfg, "accounting", tm_acct_names[p->c.accounting]);
	bm_json_add_str(cfg, "burst_mode", tm_burst_mode_names[p->c.burst_mode]);
	/* TM §6.2.2.1.1 MUST: the ingress ports active, their marking and
	 * their stateless rates */
	bm_json_add_u64(cfg, "ingress_ports_active", n_in);
	a = json_object_new_array();
	for (i = 0; i < n_in; i++) {
		o = json_object_new_object();
		bm_json_add_str(o, "port", x->be->port_names[i]);
		d = json_object_new_array();
		r = json_object_new_array();
		for (k = 0; k < p->n_classes; k++) {
			json_object_array_add(d, json_object_new_int64(
				p->dscps[k]));
			json_object_array_add(r, json_object_new_double(
				p->rates_bps[k]));
		}
		json_object_object_add(o, "dscps", d);
		json_object_object_add(o, "rates_bps", r);
		json_object_array_add(a, o);
	}
	json_object_object_add(cfg, "ingress", a);
	bm_json_add_str(cfg, "egress_port", x->be->port_names[n_in]);
	bm_json_add_bool(cfg, "bursts", p->bursts);
	if (p->bursts) {
		bm_json_add_double(cfg, "ti_s", ti);
		bm_json_add_double(cfg, "ti_margin_pct", p->c.ti_margin_pct);
		tm_plan_json(cfg, "burst_per_port", b);
		bm_json_add_u64(cfg, "bursts_per_run", bursts);
	}
	bm_json_add_double(cfg, "burst_rate_bps", x->be->line_rate_bps);
	return cfg;
}

static json_object *qc_dut(const struct tm_qcap_params *p)
{
	json_object *dut = json_object_new_object();

	bm_json_add_str(dut, "scheduler", sched_names[p->scheduler]);
	bm_json_add_double(dut, "bb_bps", p->bb_bps);
	bm_json_add_u64(dut, "ql_bytes", p->ql);
	bm_json_add_u64(dut, "queues", p->n_classes);
	return dut;
}

/* Statistics of a run: per class throughput, LP and smallest share;
 * the bursts' LP and smallest BSA. */
#define QC_STATS	(3 * TM_MAX_CLASSES + 2)

/* One run's rows into res, its numbers into v[][n]. */
static int qc_run_once(struct tm_ctx *x, const struct tm_qcap_params *p,
		       const struct tm_burst *b, double ti, uint32_t bursts,
		       unsigned int test, json_object *res,
		       double v[QC_STATS][TM_MAX_TR], unsigned int n)
{
	unsigned int n_in = x->be->n_ports - 1, i, k, nc = p->n_classes;
	struct tm_flow_metrics *m;
	json_object *o;
	double tot, lo, hi, lp, share, bsa = INFINITY, blp = 0;
	int ret = 0;

	for (k = 0; k < QC_STATS; k++)
		v[k][n] = NAN;
	m = calloc((size_t)n_in * (nc > 1 ? nc : 1), sizeof(*m));
	if (!m) {
		bm_errorf(x->err, "out of memory");
		return -ENOMEM;
	}
	if (p->bursts) {
		ret = qc_bursts(x, p, b, ti, bursts, test, m);
		for (i = 0; i < n_in && !ret; i++) {
			o = json_object_new_object();
			bm_json_add_u64(o, "test", test);
			bm_json_add_str(o, "ingress", x->be->port_names[i]);
			bm_json_add_double(o, "bsa_bytes", m[i].bursts_analysed ?
					   m[i].egress_min_bytes : NAN);
			tm_metrics_json(o, &m[i]);
			bm_json_add_u64(o, "bursts_with_loss",
					m[i].bursts_with_loss);
			json_object_array_add(json_object_object_get(res,
								     "bursts"),
					      o);
			bsa = fmin(bsa, m[i].bursts_analysed ?
				   m[i].egress_min_bytes : NAN);
			blp += (double)m[i].lost;
		}
		v[3 * TM_MAX_CLASSES][n] = blp;
		v[3 * TM_MAX_CLASSES + 1][n] = isfinite(bsa) ? bsa : NAN;
	}
	if (!ret)
		ret = qc_classes(x, p, test, m);
	for (k = 0; k < nc && !ret; k++) {
		tot = lp = 0;
		lo = INFINITY;
		hi = -INFINITY;
		for (i = 0; i < n_in; i++) {
			tot += m[i * nc + k].rx_bytes * 8.0 / p->c.td_s;
			lp += (double)m[i * nc + k].lost;
		}
		for (i = 0; i < n_in; i++) {
			const struct tm_flow_metrics *s = &m[i * nc + k];

			/* the ingress's part of its class at the egress */
			share = tot > 0 ? 100.0 * s->rx_bytes * 8.0 /
				p->c.td_s / tot : NAN;
			lo = fmin(lo, share);
			hi = fmax(hi, share);
			o = json_object_new_object();
			bm_json_add_u64(o, "test", test);
			bm_json_add_str(o, "ingress", x->be->port_names[i]);
			bm_json_add_u64(o, "dscp", p->dscps[k]);
			bm_json_add_double(o, "offered_bps",
					   s->tx_bytes * 8.0 / p->c.td_s);
			bm_json_add_double(o, "throughput_bps",
					   s->rx_bytes * 8.0 / p->c.td_s);
			bm_json_add_double(o, "share_pct", share);
			tm_metrics_json(o, s);
			bm_json_add_double(o, "loss_pct", s->sent ? 100.0 *
					   (double)s->lost / (double)s->sent :
					   NAN);
			bm_json_add_double(o, "pd_p99_s", s->pd_p99_ns * 1e-9);
			json_object_array_add(json_object_object_get(res,
								     "streams"),
					      o);
		}
		o = json_object_new_object();
		bm_json_add_u64(o, "test", test);
		bm_json_add_u64(o, "dscp", p->dscps[k]);
		bm_json_add_double(o, "throughput_bps", tot);
		bm_json_add_double(o, "lp", lp);
		bm_json_add_double(o, "share_min_pct", lo);
		bm_json_add_double(o, "share_max_pct", hi);
		bm_json_add_double(o, "fair_share_pct", 100.0 / n_in);
		json_object_array_add(json_object_object_get(res, "fairness"),
				      o);
		v[3 * k][n] = tot;
		v[3 * k + 1][n] = lp;
		v[3 * k + 2][n] = lo;
	}
	free(m);
	return ret;
}

int tm_qcap_run(struct bm_backend *be, const struct tm_qcap_params *p,
		bm_progress_fn progress, void *ctx, json_object **result,
		struct bm_error *err)
{
	static double v[QC_STATS][TM_MAX_TR];
	json_object *res, *stats, *dev;
	unsigned int i, k, n = 0, n_in;
	struct tm_burst b = { 0 };
	struct tm_ctx x;
	uint32_t bursts = 0;
	double ti;
	char name[48];
	int ret;

	*result = NULL;
	ret = tm_qcap_check(p, err);
	if (!ret)
		ret = tm_ctx_init(&x, "rfc7640.queue-capacity", be, &p->c, 3,
				  BM_TRAFFIC_MAX_PORTS, progress, ctx, err);
	if (ret)
		return ret;
	n_in = be->n_ports - 1;
	ti = (double)p->ql * 8.0 / p->bb_bps *
	     (1.0 + p->c.ti_margin_pct / 100.0);
	if (p->bursts) {
		/* QL from the ingress ports together, whole bytes each */
		ret = tm_plan(&x, p->ql / n_in, "ql", &b);
		if (!ret)
			ret = tm_ti_fits(&x, &b, ti, "Ti = QL x 8 / BB");
		if (!ret && p->c.td_s < ti)
			ret = bm_errorf(err, "rfc7640.queue-capacity: td_s: %g "
					"s is shorter than one Ti (%.6g s)",
					p->c.td_s, ti);
		bursts = tm_bursts_in(p->c.td_s, ti);
	}
	if (ret) {
		json_object_put(x.frame_logs);
		return ret;
	}
	res = json_object_new_object();
	json_object_object_add(res, "test_configuration",
			       qc_config(&x, p, &b, ti, bursts));
	json_object_object_add(res, "dut_configuration", qc_dut(p));
	if (p->bursts)
		json_object_object_add(res, "bursts", json_object_new_array());
	json_object_object_add(res, "streams", json_object_new_array());
	json_object_object_add(res, "fairness", json_object_new_array());
	for (i = 0; i < p->c.tr && !ret; i++) {
		ret = qc_run_once(&x, p, &b, ti, bursts, i + 1, res, v, n);
		if (!ret)
			n++;
	}
	stats = json_object_new_object();
	for (k = 0; k < p->n_classes; k++) {
		snprintf(name, sizeof(name), "dscp%u_throughput_bps",
			 p->dscps[k]);
		tm_stat(stats, name, v[3 * k], n);
		snprintf(name, sizeof(name), "dscp%u_lp", p->dscps[k]);
		tm_stat(stats, name, v[3 * k + 1], n);
		snprintf(name, sizeof(name), "dscp%u_share_min_pct",
			 p->dscps[k]);
		tm_stat(stats, name, v[3 * k + 2], n);
	}
	if (p->bursts) {
		tm_stat(stats, "bursts_lp", v[3 * TM_MAX_CLASSES], n);
		tm_stat(stats, "bursts_bsa_min_bytes",
			v[3 * TM_MAX_CLASSES + 1], n);
	}
	json_object_object_add(res, "statistics", stats);
	json_object_object_add(res, "measurement", tm_measurement_json(&x));
	if (x.frame_logs)
		json_object_object_add(res, "frame_logs", x.frame_logs);
	dev = json_object_new_array();
	json_object_array_add(dev, json_object_new_string(
		"stateless part only: TM-QS-2's stateful traffic is not run "
		"(AMB-43: the first \"stateful\" of the configuration MUST "
		"read as stateless)"));
	if (p->bursts && p->ql % n_in)
		json_object_array_add(dev, json_object_new_string(
			"QL does not divide by the ingress ports: the bursts "
			"together are a few bytes short of QL"));
	tm_deviations(&x, dev, true);
	*result = bm_result_envelope("rfc7640.queue-capacity", "TM-QS-CAP-1",
				     tm_qcap_params_json(p), &x.log, NULL, res,
				     dev, be);
	tm_ctx_free(&x);
	return ret;
}

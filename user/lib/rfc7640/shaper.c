// SPDX-License-Identifier: GPL-2.0
/*
 * TM §6.3.1.1 shaper with stateless traffic (SPEC TM-SHP-1).
 *
 * Bursts of IQ bytes (or `burst` <= IQ: "must not exceed the Ingress
 * Queue") at the line rate from port 0 every Ti = IQ x 8 / SR (the
 * draft's step 2 writes "QL in bits/BB": BB is SR there, AMB-45), times
 * 1 + ti_margin, for Td; or one burst.  At the egress (port 1): LP, OOS,
 * PDV, SR = egress bits (accounting mode) / Td, SR_busy [EXTENSION] and
 * the trains the shaper emits (AMB-39): SBB (the first train, the median,
 * p99 and max) and SBI (start to start: median, p1, p99), from the
 * per-frame log of the arrivals.  Software timestamps make SBB and SBI
 * low_confidence.  Bc and Be are the DUT's and are reported.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bm_json.h"
#include "bm_result.h"
#include "rfc7640_int.h"

#define SO(f)	offsetof(struct tm_shp_params, f)

const struct bm_param tm_shp_keys[] = {
	{ { "iq", BM_J_BYTES, SO(iq), 64, 1e12, 0, 0, NULL, NULL }, "B",
	  "the shaper's ingress queue IQ (QL) [PROPOSED 512000: the draft's "
	  "example]", NULL },
	{ { "sr_bps", BM_J_DOUBLE, SO(sr_bps), 0, 1e13, BM_JK_MIN_EXCL, 0,
	    NULL, NULL }, "bit/s", "the shaper rate SR [PROPOSED 50 Mbit/s: "
	  "the draft's example]", NULL },
	{ { "bc", BM_J_BYTES, SO(bc), 0, 1e12, 0, 0, NULL, NULL }, "B",
	  "the DUT's Bc, reported [PROPOSED 32KB: the draft's example]",
	  NULL },
	{ { "be", BM_J_BYTES, SO(be), 0, 1e12, 0, 0, NULL, NULL }, "B",
	  "the DUT's Be, reported [PROPOSED 32KB]", NULL },
	{ { "burst", BM_J_BYTES, SO(burst), 64, 1e12,
	    BM_JK_DERIVED | BM_JK_ZERO_NULL, 0, NULL, NULL }, "B", "bytes of "
	  "each burst, at most IQ (unset: IQ)", NULL },
	{ { "single", BM_J_BOOL, SO(single), 0, 0, 0, 0, NULL, NULL }, "",
	  "one burst, then stop (TM §6.3.1.1's single-burst test)", NULL },
	TM_COMMON_TD_KEYS(SO, "§6.3.1.1: 30"),
	{ { NULL, 0, 0, 0, 0, 0, 0, NULL, NULL }, NULL, NULL, NULL },
};

void tm_shp_defaults(struct tm_shp_params *p)
{
	*p = (struct tm_shp_params){
		/* [PROPOSED] the draft's §6.3.1 example */
		.iq = 512000,
		.sr_bps = 50e6,
		.bc = 32000,
		.be = 32000,
	};
	tm_common_defaults(&p->c, 30.0);	/* §6.3.1.1: Td 30 s */
}

int tm_shp_check(const struct tm_shp_params *p, struct bm_error *err)
{
	if (p->burst > p->iq)
		return bm_errorf(err, "rfc7640.shaper: burst: %llu B exceeds "
				 "the ingress queue iq = %llu B (TM §6.3.1.1: "
				 "must not)", (unsigned long long)p->burst,
				 (unsigned long long)p->iq);
	return 0;
}

double tm_shp_max_trials(const struct tm_shp_params *p)
{
	return p->c.tr;
}

/* What one run measured. */
struct shp_run {
	struct tm_flow_metrics m;
	struct tm_trains tr;
	double sr_bps;
};

/* The arrivals of flow f from the logs, each with its burst. */
static struct tm_arrival *arrivals(const struct bm_traffic_result *r,
				   const struct tm_flow *f, size_t *n)
{
	struct tm_arrival *a;
	unsigned int i;
	size_t k = 0, j;

	*n = 0;
	for (i = 0; i < f->n; i++)
		*n += r->streams[f->first + i].n_rx_log;
	a = calloc(*n ? *n : 1, sizeof(*a));
	if (!a)
		return NULL;
	for (i = 0; i < f->n; i++) {
		const struct bm_stream_result *s = &r->streams[f->first + i];

		for (j = 0; j < s->n_rx_log; j++)
			a[k++] = (struct tm_arrival){
				s->rx_log[j].rx_s, s->rx_log[j].size,
				s->rx_log[j].seq / f->per_burst[i] };
	}
	return a;
}

static int shp_once(struct tm_ctx *x, const struct tm_shp_params *p,
		    const struct tm_burst *b, double ti, uint32_t bursts,
		    unsigned int test, struct shp_run *o)
{
	struct bm_traffic_result *r = NULL;
	struct tm_arrival *a = NULL;
	struct bm_traffic t;
	struct tm_flow f;
	char reason[96];
	double acc;
	size_t n;
	int ret;

	ret = tm_traffic(x, &t);
	if (!ret)
		ret = tm_add_bursts(x, &t, 0, 1, (uint8_t)p->c.dscp, b, bursts,
				    ti, 0.0, true, &f);
	if (ret)
		goto out;
	snprintf(reason, sizeof(reason), "run %u: %u burst%s of %llu B every "
		 "%.6g s", test, bursts, bursts > 1 ? "s" : "",
		 (unsigned long long)b->nominal, ti);
	ret = tm_trial_flows(x, &t, p->c.td_s, "shaper", reason, test, &f,
			     &o->m, 1, &r);
	if (ret)
		goto out;
	/* TM-MET-SR: the egress bits over the test interval */
	o->sr_bps = o->m.rx_bytes * 8.0 / p->c.td_s;
	a = arrivals(r, &f, &n);
	/* AMB-39: the timestamps' accuracy, where the backend knows it,
	 * else the calibration's (cal_pdv_ns: p99 - min of the tester's own
	 * loopback FF, R8238-CAL), which is what software stamps are worth */
	acc = x->be->ts_accuracy && isfinite(x->be->ts_accuracy_ns) ?
	      x->be->ts_accuracy_ns * 1e-9 : p->c.cal_pdv_ns * 1e-9;
	if (!a || tm_trains_of(a, n, p->c.accounting, x->be->line_rate_bps,
			       acc, &o->tr)) {
		bm_errorf(x->err, "out of memory");
		ret = -ENOMEM;
	}
out:
	free(a);
	bm_traffic_result_free(r);
	bm_traffic_free(&t);
	return ret;
}

static json_object *run_row(const struct shp_run *o, unsigned int test,
			    bool low)
{
	json_object *r = json_object_new_object();

	bm_json_add_u64(r, "test", test);
	/* the draft's "LP, OOS, PDV, SR, SBB, SBI" */
	bm_json_add_u64(r, "lp", o->m.lost);
	bm_json_add_u64(r, "oos", o->m.reordered);
	bm_json_add_double(r, "pdv_s", o->m.pdv_ns * 1e-9);
	bm_json_add_double(r, "sr_bps", o->sr_bps);
	bm_json_add_double(r, "sr_busy_bps", o->tr.sr_busy_bps);
	bm_json_add_double(r, "sbb_first_bytes", o->tr.first_bytes);
	bm_json_add_double(r, "sbb_median_bytes", o->tr.median_bytes);
	bm_json_add_double(r, "sbb_p99_bytes", o->tr.p99_bytes);
	bm_json_add_double(r, "sbb_max_bytes", o->tr.max_bytes);
	bm_json_add_double(r, "sbi_median_s", o->tr.sbi_median_s);
	bm_json_add_double(r, "sbi_p1_s", o->tr.sbi_p1_s);
	bm_json_add_double(r, "sbi_p99_s", o->tr.sbi_p99_s);
	bm_json_add_u64(r, "trains", o->tr.trains);
	bm_json_add_u64(r, "frames_analysed", o->tr.frames);
	bm_json_add_double(r, "pd_min_s", o->m.pd_min_ns * 1e-9);
	bm_json_add_double(r, "pd_max_s", o->m.pd_max_ns * 1e-9);
	bm_json_add_bool(r, "low_confidence", low);
	return r;
}

enum { LP, OOS, PDV, SR, SR_BUSY, SBB_FIRST, SBB_MED, SBI_MED, N_STATS };

static const char *const stat_names[N_STATS] = {
	"lp", "oos", "pdv_s", "sr_bps", "sr_busy_bps", "sbb_first_bytes",
	"sbb_median_bytes", "sbi_median_s",
};

static json_object *shp_config(const struct tm_shp_params *p,
			       const struct tm_burst *b, double ti,
			       uint32_t bursts, double line)
{
	json_object *cfg = json_object_new_object();

	bm_json_add_u64(cfg, "tr", p->c.tr);
	bm_json_add_double(cfg, "td_s", p->c.td_s);
	bm_json_add_bool(cfg, "single_burst", p->single);
	bm_json_add_double(cfg, "ti_s", ti);
	bm_json_add_double(cfg, "ti_margin_pct", p->c.ti_margin_pct);
	bm_json_add_u64(cfg, "frame_size", p->c.frame_size);
	bm_json_add_str(cfg, "accounting", tm_acct_names[p->c.accounting]);
	bm_json_add_str(cfg, "burst_mode", tm_burst_mode_names[p->c.burst_mode]);
	tm_plan_json(cfg, "burst", b);
	bm_json_add_u64(cfg, "bursts_per_run", bursts);
	bm_json_add_double(cfg, "burst_rate_bps", line);
	return cfg;
}

static json_object *shp_dut(const struct tm_shp_params *p, double line)
{
	json_object *dut = json_object_new_object();

	/* the draft's "DUT Configuration Summary: Ingress Burst Rate, QL,
	 * SR" and Bc / Be */
	bm_json_add_double(dut, "ingress_burst_rate_bps", line);
	bm_json_add_u64(dut, "ql_bytes", p->iq);
	bm_json_add_double(dut, "sr_bps", p->sr_bps);
	bm_json_add_u64(dut, "bc_bytes", p->bc);
	bm_json_add_u64(dut, "be_bytes", p->be);
	return dut;
}

int tm_shp_run(struct bm_backend *be, const struct tm_shp_params *p,
	       bm_progress_fn progress, void *ctx, json_object **result,
	       struct bm_error *err)
{
	double v[N_STATS][TM_MAX_TR], ti;
	json_object *res, *runs, *stats, *dev;
	struct shp_run o;
	struct tm_burst b;
	struct tm_ctx x;
	unsigned int i, k, n = 0;
	uint32_t bursts;
	int ret;

	*result = NULL;
	ret = tm_shp_check(p, err);
	if (!ret)
		ret = tm_ctx_init(&x, "rfc7640.shaper", be, &p->c, 2, 2,
				  progress, ctx, err);
	if (ret)
		return ret;
	/* AMB-45: Ti = IQ x 8 / SR */
	ti = (double)p->iq * 8.0 / p->sr_bps *
	     (1.0 + p->c.ti_margin_pct / 100.0);
	ret = tm_plan(&x, p->burst ? p->burst : p->iq, "burst", &b);
	if (!ret)
		ret = tm_ti_fits(&x, &b, ti, "Ti = IQ x 8 / SR");
	if (!ret && !p->single && p->c.td_s < ti)
		ret = bm_errorf(err, "rfc7640.shaper: td_s: %g s is shorter "
				"than one Ti (%.6g s)", p->c.td_s, ti);
	if (ret) {
		json_object_put(x.frame_logs);
		return ret;
	}
	bursts = p->single ? 1 : tm_bursts_in(p->c.td_s, ti);
	res = json_object_new_object();
	json_object_object_add(res, "test_configuration",
			       shp_config(p, &b, ti, bursts,
					  be->line_rate_bps));
	json_object_object_add(res, "dut_configuration",
			       shp_dut(p, be->line_rate_bps));
	runs = json_object_new_array();
	json_object_object_add(res, "runs", runs);
	for (i = 0; i < p->c.tr && !ret; i++) {
		ret = shp_once(&x, p, &b, ti, bursts, i + 1, &o);
		if (ret)
			break;
		json_object_array_add(runs, run_row(&o, i + 1, x.sw_ts));
		v[LP][n] = (double)o.m.lost;
		v[OOS][n] = (double)o.m.reordered;
		v[PDV][n] = o.m.pdv_ns * 1e-9;
		v[SR][n] = o.sr_bps;
		v[SR_BUSY][n] = o.tr.sr_busy_bps;
		v[SBB_FIRST][n] = o.tr.first_bytes;
		v[SBB_MED][n] = o.tr.median_bytes;
		v[SBI_MED][n] = o.tr.sbi_median_s;
		n++;
	}
	stats = json_object_new_object();
	for (k = 0; k < N_STATS; k++)
		tm_stat(stats, stat_names[k], v[k], n);
	json_object_object_add(res, "statistics", stats);
	bm_json_add_bool(res, "low_confidence", x.sw_ts);
	json_object_object_add(res, "measurement", tm_measurement_json(&x));
	if (x.frame_logs)
		json_object_object_add(res, "frame_logs", x.frame_logs);
	dev = json_object_new_array();
	json_object_array_add(dev, json_object_new_string(
		"Ti = IQ x 8 / SR (AMB-45); trains: inter-arrival <= 1.1 x "
		"the larger frame's wire time + ts accuracy (AMB-39); SBI "
		"start to start"));
	json_object_array_add(dev, json_object_new_string(
		"SR_busy per burst: its bytes after the first frame over its "
		"first to last arrival [EXTENSION]"));
	if (x.sw_ts)
		json_object_array_add(dev, json_object_new_string(
			"SBB and SBI from software timestamps: low confidence "
			"(TM-MET-SL)"));
	tm_deviations(&x, dev, true);
	*result = bm_result_envelope("rfc7640.shaper", "TM-SHP-1",
				     bm_json_params_to_json(tm_shp_keys, 0, p,
							    NULL),
				     &x.log, NULL, res, dev, be);
	tm_ctx_free(&x);
	return ret;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * TM §5.1.1 burst hunt (SPEC TM-BURST-HUNT): the largest burst a policer
 * (CBS, CBS + EBS) or a queue (QL) passes without loss.
 *
 * 1. One burst of `target` bytes at the line rate.  Loss-free: BSA =
 *    target; with verify_policer, target + k x step for k = 1, 2, ...
 *    until the first loss (first_fail), or "policer not enforcing at the
 *    configured burst" when none is lost up to verify_max.
 * 2. Otherwise B = min, then B += step while B is loss-free and below the
 *    target; BSA = the last loss-free B; "< min" (BSA 0) when min loses.
 * 3. BSA in nominal and actual bytes (a whole-frame burst is larger than
 *    asked), and the PDV of the BSA burst's frames (TM-MET-BSA: mean
 *    delay - min delay, and the p99 of the same).
 *
 * Each burst is a trial of its own, after recover_wait_s for the bucket
 * to refill or the queue to drain (less the loss wait already spent after
 * the trial before).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bm_json.h"
#include "bm_result.h"
#include "rfc7640_int.h"

#define HO(f)	offsetof(struct tm_hunt_params, f)

const struct bm_param tm_hunt_keys[] = {
	{ { "target", BM_J_BYTES, HO(target), 1, 1e12, 0, 0, NULL, NULL },
	  "B", "the function's burst parameter (CBS, CBS + EBS, QL), the first "
	  "burst [PROPOSED 64KB: the draft's example]", NULL },
	{ { "min", BM_J_BYTES, HO(min), 1, 1e12, 0, 0, NULL, NULL }, "B",
	  "the first burst of the hunt when the target loses (the draft's "
	  "configured minimum) [PROPOSED 1KB]", NULL },
	{ { "step", BM_J_BYTES, HO(step), 1, 1e12, 0, 0, NULL, NULL }, "B",
	  "increment of the hunt and the verification (TM §5.1.1: 1 KB)",
	  NULL },
	{ { "verify_policer", BM_J_BOOL, HO(verify_policer), 0, 0, 0, 0, NULL,
	    NULL }, "", "after the target passes, add step until a loss to "
	  "show the policer enforces (TM §5.1.1)", NULL },
	{ { "verify_max", BM_J_BYTES, HO(verify_max), 1, 1e12,
	    BM_JK_DERIVED | BM_JK_ZERO_NULL, 0, NULL, NULL }, "B", "largest "
	  "burst of the verification (unset: target + 16KB [PROPOSED])",
	  NULL },
	{ { "rate_bps", BM_J_DOUBLE, HO(rate_bps), 0, 1e13, 0, 0, NULL, NULL },
	  "bit/s", "the function's refill (CIR) or drain (BB) rate, for the "
	  "recover wait; 0: not known", NULL },
	{ { "recover_wait_s", BM_J_DOUBLE, HO(recover_wait_s), 0, 3600,
	    BM_JK_DERIVED | BM_JK_NEG_NULL, 0, NULL, NULL }, "s", "wait before "
	  "each burst for the bucket to refill or the queue to drain (unset: "
	  "max(2 s, 2 x bytes x 8 / rate_bps) [PROPOSED])", NULL },
	TM_COMMON_KEYS(HO),
	{ { NULL, 0, 0, 0, 0, 0, 0, NULL, NULL }, NULL, NULL, NULL },
};

void tm_hunt_defaults(struct tm_hunt_params *p)
{
	*p = (struct tm_hunt_params){
		.target = 64000,		/* [PROPOSED] the draft's CBS */
		.min = 1000,			/* [PROPOSED] */
		.step = 1000,			/* TM §5.1.1 */
		.recover_wait_s = -1.0,		/* derived [PROPOSED] */
	};
	/* the hunt is a tester capability (§5.1.1), no §6 test: one hunt
	 * unless asked for more [PROPOSED]; no Td */
	tm_common_defaults(&p->c, 0.0);
	p->c.tr = 1;
}

static uint64_t verify_max(const struct tm_hunt_params *p)
{
	return p->verify_max ? p->verify_max : p->target + 16000;
}

int tm_hunt_check(const struct tm_hunt_params *p, struct bm_error *err)
{
	struct tm_burst b;
	char why[sizeof(err->msg)];

	if (p->min > p->target)
		return bm_errorf(err, "rfc7640.burst-hunt: min: %llu B is "
				 "above the target %llu B",
				 (unsigned long long)p->min,
				 (unsigned long long)p->target);
	if (p->verify_policer && verify_max(p) < p->target + p->step)
		return bm_errorf(err, "rfc7640.burst-hunt: verify_max: %llu B "
				 "leaves no verification step above the "
				 "target %llu B",
				 (unsigned long long)verify_max(p),
				 (unsigned long long)p->target);
	/* the smallest burst must be frames (the others are larger) */
	if (tm_burst_plan(p->min, p->c.frame_size, p->c.accounting,
			  p->c.burst_mode, &b, err)) {
		memcpy(why, err->msg, sizeof(why));
		return bm_errorf(err, "rfc7640.burst-hunt: min: %s", why);
	}
	return 0;
}

double tm_hunt_max_trials(const struct tm_hunt_params *p)
{
	double n = 1.0 + ceil((double)(p->target - p->min) / p->step);

	if (p->verify_policer)
		n += floor((double)(verify_max(p) - p->target) / p->step);
	/* each burst measured again when it was spread */
	return n * (1 + TM_HUNT_REMEASURE) * p->c.tr;
}

double tm_hunt_recover_s(const struct tm_hunt_params *p, double bytes)
{
	if (p->recover_wait_s >= 0)
		return p->recover_wait_s;
	/* [PROPOSED]: twice the time to refill (drain) the burst's bytes */
	if (p->rate_bps > 0)
		return fmax(2.0, 2.0 * bytes * 8.0 / p->rate_bps);
	return 2.0;
}

/*
 * Whether a burst whose frames left up to late_s behind back to back at
 * the line (NAN: not measured) was not offered as TM §5.1 asks, beyond
 * the hunt's resolution: the refill (drain) at rate_bps over late_s is
 * one step or more, or rate_bps is not known.
 */
static bool hunt_spread(const struct tm_hunt_params *p, double late_s)
{
	if (!(late_s > BM_BURST_GAP_TOL_S))
		return false;
	return !(p->rate_bps > 0) ||
	       p->rate_bps / 8.0 * late_s >= (double)p->step;
}

/* One burst of bytes: its plan and metrics in *b and *m, *pass; its
 * re-measurements and spread counted in o. */
static int hunt_burst(struct tm_ctx *x, const struct tm_hunt_params *p,
		      unsigned int tx, unsigned int rx, uint64_t bytes,
		      const char *phase, const char *key, unsigned int test,
		      json_object *steps, struct tm_hunt_out *o,
		      struct tm_burst *b, struct tm_flow_metrics *m, bool *pass)
{
	struct bm_traffic_result *r = NULL;
	struct bm_trial_result res;
	struct bm_traffic t;
	struct tm_flow f;
	double start, t_burst, late = NAN;
	char reason[128];
	json_object *row;
	unsigned int attempt;
	bool sp = false;
	int ret;

	ret = tm_plan(x, bytes, key, b);
	if (ret)
		return ret;
	/* the first burst finds the DUT idle; the loss wait after each
	 * trial counts towards the next one's recovery */
	start = x->log.n ? fmax(0.0, tm_hunt_recover_s(p, (double)b->actual) -
				x->c->drain_s) : 0.0;
	t_burst = tm_burst_time_s(b, x->be->line_rate_bps);
	memset(&t, 0, sizeof(t));
	for (attempt = 0; ; attempt++) {
		snprintf(reason, sizeof(reason), "run %u: %s burst of %llu B "
			 "(%llu frames)%s", test, phase,
			 (unsigned long long)bytes,
			 (unsigned long long)b->frames,
			 attempt ? " again: the last was spread" : "");
		bm_traffic_result_free(r);
		r = NULL;
		bm_traffic_free(&t);
		ret = tm_traffic(x, &t);
		if (!ret)
			ret = tm_add_bursts(x, &t, tx, rx,
					    (uint8_t)x->c->dscp, b, 1, 0.0,
					    start, false, &f);
		/* the burst, then a margin for a late generator */
		if (!ret)
			ret = tm_trial(x, &t, start + 1.1 * t_burst + 0.001,
				       phase, reason, &r, &res);
		if (!ret)
			ret = tm_metrics(x, &t, r, &f, m);
		if (ret)
			goto out;
		late = res.burst_gaps_measured ? res.tx_burst_late_max_s :
		       NAN;
		sp = hunt_spread(p, late);
		if (!sp || attempt == TM_HUNT_REMEASURE)
			break;
		o->remeasured++;
		/* a whole recovery again: the spread burst took tokens */
		start = fmax(0.0, tm_hunt_recover_s(p, (double)b->actual) -
				  x->c->drain_s);
	}
	if (isnan(late))
		o->unmeasured++;
	else if (late > BM_BURST_GAP_TOL_S)
		o->late_max_s = fmax(o->late_max_s, late);
	o->spread += sp;
	tm_keep_logs(x, test, phase, &t, r);
	if (m->sent < b->frames) {
		ret = bm_errorf(x->err, "%s: the generator sent %llu of the "
				"%llu frames of a burst: it tested nothing",
				x->name, (unsigned long long)m->sent,
				(unsigned long long)b->frames);
		goto out;
	}
	*pass = m->lost == 0;
	if (steps) {
		row = json_object_new_object();
		bm_json_add_u64(row, "test", test);
		bm_json_add_str(row, "phase", phase);
		tm_plan_json(row, "burst", b);
		bm_json_add_u64(row, "lp", m->lost);
		bm_json_add_bool(row, "loss_free", *pass);
		bm_json_add_double(row, "pdv_s", m->pdv_ns * 1e-9);
		bm_json_add_double(row, "tx_burst_late_max_s", late);
		bm_json_add_double(row, "refill_bytes", p->rate_bps > 0 ?
				   p->rate_bps / 8.0 * late : NAN);
		bm_json_add_u64(row, "attempts", attempt + 1);
		bm_json_add_bool(row, "as_asked", !sp && !isnan(late));
		json_object_array_add(steps, row);
	}
out:
	bm_traffic_result_free(r);
	bm_traffic_free(&t);
	return ret;
}

int tm_hunt_once(struct tm_ctx *x, const struct tm_hunt_params *p,
		 unsigned int tx, unsigned int rx, unsigned int test,
		 json_object *steps, struct tm_hunt_out *o)
{
	struct tm_flow_metrics m;
	struct tm_burst b;
	uint64_t bytes;
	bool pass;
	int ret;

	memset(o, 0, sizeof(*o));
	ret = hunt_burst(x, p, tx, rx, p->target, "target", "target", test,
			 steps, o, &b, &m, &pass);
	o->bursts++;
	if (ret)
		return ret;
	if (pass) {
		o->outcome = "target passed";
		o->bsa = b;
		o->bsa_m = m;
		o->largest_pass = p->target;
		if (!p->verify_policer)
			return 0;
		for (bytes = p->target + p->step; bytes <= verify_max(p);
		     bytes += p->step) {
			ret = hunt_burst(x, p, tx, rx, bytes, "verify",
					 "verify_max", test, steps, o, &b, &m,
					 &pass);
			o->bursts++;
			if (ret)
				return ret;
			if (!pass) {
				o->first_fail = b;
				o->verify = "enforced: first loss at first_fail";
				return 0;
			}
			o->largest_pass = bytes;
		}
		o->verify = "policer not enforcing at the configured burst";
		return 0;
	}
	o->first_fail = b;
	for (bytes = p->min; ; bytes += p->step) {
		ret = hunt_burst(x, p, tx, rx, bytes, "hunt", "min", test, steps,
				 o, &b, &m, &pass);
		o->bursts++;
		if (ret)
			return ret;
		if (!pass) {
			o->first_fail = b;
			break;
		}
		o->bsa = b;
		o->bsa_m = m;
		o->largest_pass = bytes;
		if (bytes + p->step >= p->target)
			break;
	}
	o->outcome = o->bsa.nominal ? "hunted" : "< min";
	return 0;
}

void tm_hunt_result_json(json_object *r, const struct tm_hunt_params *p,
			 const struct tm_hunt_out *o)
{
	char why[320];

	bm_json_add_u64(r, "bursts_remeasured", o->remeasured);
	bm_json_add_u64(r, "bursts_spread", o->spread);
	if (!o->spread && !o->unmeasured) {
		bm_json_add_str(r, "result", "ok");
		return;
	}
	if (!o->spread)
		snprintf(why, sizeof(why), "bursts not measured: the backend "
			 "measured no gaps of %u bursts, so whether they went "
			 "at the line rate (TM §5.1) is unknown", o->unmeasured);
	else if (p->rate_bps > 0)
		snprintf(why, sizeof(why), "bursts not as asked: %u bursts "
			 "left up to %.3f ms behind back to back at the line "
			 "rate (TM §5.1) after %d re-measurements each; at "
			 "rate_bps the DUT refilled (drained) up to %.0f B "
			 "meanwhile, a step or more: the BSA may be off by "
			 "that", o->spread, o->late_max_s * 1e3,
			 TM_HUNT_REMEASURE, p->rate_bps / 8.0 * o->late_max_s);
	else
		snprintf(why, sizeof(why), "bursts not as asked: %u bursts "
			 "left up to %.3f ms behind back to back at the line "
			 "rate (TM §5.1) after %d re-measurements each, and "
			 "without rate_bps what the DUT refilled (drained) "
			 "meanwhile is not known", o->spread,
			 o->late_max_s * 1e3, TM_HUNT_REMEASURE);
	bm_json_add_str(r, "result", why);
}

static json_object *run_row(const struct tm_hunt_params *p,
			    const struct tm_hunt_out *o, unsigned int test)
{
	json_object *r = json_object_new_object();
	bool any = o->bsa.nominal > 0;

	bm_json_add_u64(r, "test", test);
	bm_json_add_str(r, "outcome", o->outcome);
	/* TM-MET-BSA: nominal and actual bytes, and the BSA burst's PDV */
	bm_json_add_u64(r, "bsa_bytes", o->bsa.nominal);
	bm_json_add_u64(r, "bsa_actual_bytes", o->bsa.actual);
	bm_json_add_u64(r, "bsa_frames", o->bsa.frames);
	bm_json_add_double(r, "bsa_pdv_mean_s", any ?
			   o->bsa_m.pdv_mean_ns * 1e-9 : NAN);
	bm_json_add_double(r, "bsa_pdv_s", any ? o->bsa_m.pdv_ns * 1e-9 : NAN);
	bm_json_add_u64(r, "largest_pass_bytes", o->largest_pass);
	if (o->first_fail.nominal) {
		bm_json_add_u64(r, "first_fail_bytes", o->first_fail.nominal);
		bm_json_add_u64(r, "first_fail_actual_bytes",
				o->first_fail.actual);
	} else {
		json_object_object_add(r, "first_fail_bytes", NULL);
		json_object_object_add(r, "first_fail_actual_bytes", NULL);
	}
	bm_json_add_str(r, "verify", o->verify);
	bm_json_add_u64(r, "bursts", o->bursts);
	tm_hunt_result_json(r, p, o);
	return r;
}

int tm_hunt_run(struct bm_backend *be, const struct tm_hunt_params *p,
		bm_progress_fn progress, void *ctx, json_object **result,
		struct bm_error *err)
{
	double bsa[TM_MAX_TR], act[TM_MAX_TR], pdv[TM_MAX_TR], ff[TM_MAX_TR];
	json_object *res, *cfg, *runs, *steps, *stats, *dev;
	struct tm_hunt_out o;
	struct tm_burst tb;
	struct tm_ctx x;
	unsigned int i, n = 0;
	bool any_ff = false;
	int ret;

	*result = NULL;
	ret = tm_hunt_check(p, err);
	if (!ret)
		ret = tm_ctx_init(&x, "rfc7640.burst-hunt", be, &p->c, 2, 2,
				  progress, ctx, err);
	if (ret)
		return ret;
	ret = tm_plan(&x, p->target, "target", &tb);
	if (ret) {
		json_object_put(x.frame_logs);
		return ret;
	}
	res = json_object_new_object();
	cfg = json_object_new_object();
	bm_json_add_u64(cfg, "tr", p->c.tr);
	bm_json_add_u64(cfg, "frame_size", p->c.frame_size);
	bm_json_add_str(cfg, "accounting", tm_acct_names[p->c.accounting]);
	bm_json_add_str(cfg, "burst_mode", tm_burst_mode_names[p->c.burst_mode]);
	tm_plan_json(cfg, "target", &tb);
	bm_json_add_u64(cfg, "min_bytes", p->min);
	bm_json_add_u64(cfg, "step_bytes", p->step);
	bm_json_add_bool(cfg, "verify_policer", p->verify_policer);
	if (p->verify_policer)
		bm_json_add_u64(cfg, "verify_max_bytes", verify_max(p));
	bm_json_add_double(cfg, "recover_wait_s",
			   tm_hunt_recover_s(p, (double)tb.actual));
	bm_json_add_double(cfg, "burst_rate_bps", be->line_rate_bps);
	json_object_object_add(res, "test_configuration", cfg);
	runs = json_object_new_array();
	json_object_object_add(res, "runs", runs);
	steps = json_object_new_array();
	for (i = 0; i < p->c.tr && !ret; i++) {
		ret = tm_hunt_once(&x, p, 0, 1, i + 1, steps, &o);
		if (ret)
			break;
		json_object_array_add(runs, run_row(p, &o, i + 1));
		bsa[n] = (double)o.bsa.nominal;
		act[n] = (double)o.bsa.actual;
		pdv[n] = o.bsa.nominal ? o.bsa_m.pdv_mean_ns * 1e-9 : NAN;
		ff[n] = o.first_fail.nominal ? (double)o.first_fail.nominal :
			NAN;
		any_ff |= o.first_fail.nominal > 0;
		n++;
	}
	json_object_object_add(res, "bursts", steps);
	stats = json_object_new_object();
	tm_stat(stats, "bsa_bytes", bsa, n);
	tm_stat(stats, "bsa_actual_bytes", act, n);
	tm_stat(stats, "bsa_pdv_mean_s", pdv, n);
	if (any_ff)
		tm_stat(stats, "first_fail_bytes", ff, n);
	json_object_object_add(res, "statistics", stats);
	json_object_object_add(res, "measurement", tm_measurement_json(&x));
	if (x.frame_logs)
		json_object_object_add(res, "frame_logs", x.frame_logs);
	dev = json_object_new_array();
	tm_deviations(&x, dev, false);
	if (p->recover_wait_s < 0 && !(p->rate_bps > 0))
		json_object_array_add(dev, json_object_new_string(
			"recover wait 2 s: without rate_bps the refill time "
			"of the function is not known [PROPOSED]"));
	*result = bm_result_envelope("rfc7640.burst-hunt", "TM-BURST-HUNT",
				     bm_json_params_to_json(tm_hunt_keys, 0, p,
							    NULL),
				     &x.log, NULL, res, dev, be);
	tm_ctx_free(&x);
	return ret;
}

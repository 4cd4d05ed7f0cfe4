// SPDX-License-Identifier: GPL-2.0
/*
 * The RFC 2544 §26.1 throughput search, as SPEC R2544-THRPT steps 1-6 spell
 * out the RFC's garbled sentence (AMB-16): raise the rate on a loss-free
 * trial, lower it on loss, bisect until hi - lo <= resolution, then confirm
 * with a full-length trial (§24) and keep searching at full length if the
 * confirmation fails.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bm_search.h"

#define BS_MAX_TRIALS 200

/*
 * Attempts after a generator-limited trial that lost nothing.  A software
 * pacer whose last wakeup came late (TCG: milliseconds, i.e. a frame or
 * two at a few kfps) stretches one trial, not three in a row; a generator
 * that cannot sustain the rate is limited every time.
 */
#define BS_GENLIMIT_REPEATS 2

void bm_binsearch_params_default(struct bm_binsearch_params *p,
				 uint32_t frame_size, double line_rate_bps)
{
	memset(p, 0, sizeof(*p));
	p->frame_size = frame_size;
	p->topology = BM_TOPO_PAIR_UNI;
	p->r_max_fps = bm_fps_max(line_rate_bps, frame_size);
	p->r_min_fps = 0.001 * p->r_max_fps;	/* [PROPOSED] 0.1 % */
	p->start_rate_fps = p->r_max_fps;
	p->resolution_fps = 0.001 * p->r_max_fps; /* [PROPOSED] 0.1 % */
	p->search_trial_s = 60.0;		/* §24 */
	p->final_trial_s = 60.0;
	p->learning = true;
	p->drain_s = -1.0;
}

int bm_binsearch_params_check(const struct bm_binsearch_params *p,
			      struct bm_error *err)
{
	if (!p->frame_size)
		return bm_errorf(err, "binary search: frame size is 0");
	if (!(p->r_max_fps > 0.0) || !isfinite(p->r_max_fps))
		return bm_errorf(err, "binary search: r_max must be > 0");
	if (!(p->r_min_fps > 0.0) || p->r_min_fps > p->r_max_fps)
		return bm_errorf(err, "binary search: r_min must be in (0, r_max]");
	if (p->start_rate_fps < p->r_min_fps || p->start_rate_fps > p->r_max_fps)
		return bm_errorf(err, "binary search: start rate must be in [r_min, r_max]");
	if (!(p->resolution_fps > 0.0) || !isfinite(p->resolution_fps))
		return bm_errorf(err, "binary search: resolution must be > 0");
	if (!(p->search_trial_s > 0.0) || !(p->final_trial_s > 0.0))
		return bm_errorf(err, "binary search: trial durations must be > 0");
	return 0;
}

struct bs_state {
	struct bm_backend *be;
	const struct bm_binsearch_params *p;
	struct bm_trial_log *log;
	bm_progress_fn progress;
	void *ctx;
	struct bm_error *err;
	unsigned int trials;
	unsigned int max;		/* trial budget of the search */
	unsigned int repeats;		/* generator-limited lossless repeats */
};

/*
 * One trial at rate for dur; *pass per step 2: no loss beyond the
 * tolerance and not generator-limited (REQ-GEN-6: never a pass).
 *
 * A generator-limited trial that lost nothing is no evidence against the
 * DUT either: it forwarded every frame it was offered, only the offer was
 * stretched.  Taking it as a failure (hi := rate) lowered the throughput
 * of a DUT that carries the rate whenever the generator's last departure
 * came late once, e.g. 1330 fps judged a failure on a 1359 fps shaper
 * because one frame left 2 ms late, throughput -2.6 %.  So such a trial is
 * repeated, at most BS_GENLIMIT_REPEATS times, every attempt logged; it
 * counts as a failure only when every attempt was limited.
 */
static int bs_trial(struct bs_state *s, double rate, double dur,
		    const char *phase, const char *reason, bool *pass)
{
	struct bm_trial_spec spec;
	struct bm_trial_result res;
	unsigned int attempt;
	char why[96];
	bool lossless;
	int ret;

	bm_trial_spec_rate(&spec, s->p->frame_size, rate, dur);
	spec.topology = s->p->topology;
	spec.learning = s->p->learning;
	spec.drain_s = s->p->drain_s;
	for (attempt = 0;; attempt++) {
		ret = bm_search_trial(s->be, &spec, &res, s->log, phase, reason,
				      s->progress, s->ctx, s->err);
		s->trials++;
		if (ret)
			return ret;
		lossless = res.lost <= s->p->loss_tolerance_frames;
		*pass = lossless && !res.generator_limited;
		if (*pass || !lossless || attempt == BS_GENLIMIT_REPEATS ||
		    s->trials >= s->max)
			return 0;
		s->repeats++;
		snprintf(why, sizeof(why), "repeat: generator-limited without "
			 "loss (shortfall %llu)",
			 (unsigned long long)res.shortfall);
		reason = why;
	}
}

int bm_binsearch_run(struct bm_backend *be, const struct bm_binsearch_params *p,
		     struct bm_trial_log *log, struct bm_binsearch_result *res,
		     bm_progress_fn progress, void *ctx, struct bm_error *err)
{
	unsigned int max = p->max_trials ? p->max_trials : BS_MAX_TRIALS;
	struct bs_state s = { be, p, log, progress, ctx, err, 0, max, 0 };
	double lo = -1.0, hi = -1.0, rate = p->start_rate_fps, next;
	double dur = p->search_trial_s, best_final = -1.0;
	/* Search trials at full length need no step 5 confirmation. */
	bool full = p->search_trial_s >= p->final_trial_s;
	bool lo_assumed = false, pass;
	const char *phase = "search";
	char why[96];
	int ret;

	memset(res, 0, sizeof(*res));
	ret = bm_binsearch_params_check(p, err);
	if (ret)
		return ret;
	snprintf(why, sizeof(why), "start rate");
	for (;;) {
		/* Steps 2-4 at duration dur. */
		for (;;) {
			if (s.trials >= max) {
				snprintf(res->reason, sizeof(res->reason),
					 "stopped after %u trials", max);
				goto done;
			}
			ret = bs_trial(&s, rate, dur, phase, why, &pass);
			if (ret)
				goto out;
			if (pass) {
				lo = rate;
				lo_assumed = false;
				if (dur >= p->final_trial_s && rate > best_final)
					best_final = rate;
				if (hi < 0.0) {
					if (rate >= p->r_max_fps)
						break;	/* step 3: go to 5 */
					rate = fmin(p->r_max_fps, 2.0 * rate);
					snprintf(why, sizeof(why),
						 "pass, no upper bound: double");
					continue;
				}
			} else {
				hi = rate;
				next = ((lo < 0.0 ? 0.0 : lo) + hi) / 2.0;
				if (lo < 0.0 && next < p->r_min_fps) {
					/* Step 3 fallback: one trial at r_min. */
					ret = bs_trial(&s, p->r_min_fps, dur,
						       "r_min",
						       "halving went below r_min",
						       &pass);
					if (ret)
						goto out;
					if (!pass) {
						res->below_r_min = true;
						lo = -1.0;
						snprintf(res->reason,
							 sizeof(res->reason),
							 "throughput < r_min");
						goto done;
					}
					lo = p->r_min_fps;
					if (dur >= p->final_trial_s &&
					    lo > best_final)
						best_final = lo;
				}
			}
			if (lo >= 0.0 && hi >= 0.0 && hi - lo <= p->resolution_fps)
				break;		/* step 4 */
			rate = ((lo < 0.0 ? 0.0 : lo) + hi) / 2.0;
			snprintf(why, sizeof(why), "bisect [%.2f, %.2f]",
				 lo < 0.0 ? 0.0 : lo, hi);
		}
		if (full)
			break;
		/* Step 5: confirm lo with a full-length trial. */
		ret = bs_trial(&s, lo, p->final_trial_s, "final",
			       "confirm at full length", &pass);
		if (ret)
			goto out;
		if (pass)
			goto done;
		/* Failed: continue steps 2-4 with full-length trials only,
		 * from the highest rate that passed at full length, else
		 * from r_min (assumed until a trial shows it). */
		res->final_failed = true;
		full = true;
		hi = lo;
		lo = best_final >= 0.0 ? best_final : p->r_min_fps;
		lo_assumed = best_final < 0.0;
		dur = p->final_trial_s;
		phase = "final-search";
		if (hi - lo <= p->resolution_fps)
			break;
		rate = (lo + hi) / 2.0;
		snprintf(why, sizeof(why), "full length: bisect [%.2f, %.2f]",
			 lo, hi);
	}
	if (lo_assumed) {
		/* r_min never passed a trial: show it does, or report < r_min. */
		ret = bs_trial(&s, p->r_min_fps, dur, "r_min",
			       "verify r_min at full length", &pass);
		if (ret)
			goto out;
		if (!pass) {
			res->below_r_min = true;
			lo = -1.0;
			snprintf(res->reason, sizeof(res->reason),
				 "throughput < r_min");
			goto done;
		}
	}
done:
	if (!res->reason[0])
		snprintf(res->reason, sizeof(res->reason), "%s",
			 lo >= p->r_max_fps ? "loss-free at r_max" :
			 res->final_failed ? "converged at full length" :
			 "converged");
	ret = 0;
out:
	res->throughput_fps = lo < 0.0 ? 0.0 : lo;
	res->trials = s.trials;
	res->genlimit_repeats = s.repeats;
	return ret;
}

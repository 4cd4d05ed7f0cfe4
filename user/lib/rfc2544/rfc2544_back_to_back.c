// SPDX-License-Identifier: GPL-2.0
/*
 * RFC 2544 §26.4 back-to-back frames (R2544-B2B): binary search on the
 * burst length at minimum inter-frame gap, the whole search repeated
 * (AMB-19).  A repetition after the first starts at the previous answer
 * and gallops away from it (steps 1, 2, 4 ...) until the answer is
 * bracketed again, then bisects: a DUT that repeats itself costs two
 * bursts a repetition (prev passes, prev + 1 fails) where the bracket
 * [prev/2, 2 prev] cost ten (b2b_bench), and any DUT gets the
 * bisection's answer.
 *
 * A burst the generator did not send back to back at the minimum gap
 * (a frame more than BM_BURST_GAP_TOL_S behind the line's schedule, or
 * frames short) offered the DUT less than §26.4 asks.  Lost frames still
 * fail it (the DUT lost them to a gentler burst); a loss-free one says
 * nothing.  It is sent again, B2B_ATTEMPTS in all, and if it stays so the
 * search goes below it but the answer is only a lower bound: the result
 * is "not measured", never "ok".
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "rfc2544_int.h"

/* sendings of a burst the generator left gaps in, before it counts so */
#define B2B_ATTEMPTS 3

double r2544_b2b_trial_s(const struct r2544_b2b *b, uint64_t n)
{
	/* RFC 9004 §6.2: sending the burst at the line, receiving it at
	 * no less than the throughput (n / thr_fps bounds a reception the
	 * buffer's overflow may cut short), then depletion_s more */
	return (double)n / b->line_fps + (double)n / b->thr_fps +
	       b->depletion_s;
}

int r2544_b2b_burst(struct r2544_b2b *b, uint64_t n, const char *why,
		    bool *pass)
{
	struct bm_trial_spec spec;
	struct bm_trial_result res;
	uint64_t per_dir;
	char reason[128];
	unsigned int k;
	int ret;

	r2544_spec(b->r, &spec, b->f, 0.0, b->depletion_s > 0.0 ?
		   r2544_b2b_trial_s(b, n) : b->r->p->b2b_trial_s);
	spec.pair.pattern = BM_PAT_BURST;
	spec.pair.burst_frames = n;
	for (k = 1;; k++) {
		snprintf(reason, sizeof(reason), "repetition %u: %s%s",
			 b->rep, why, k > 1 ? " (sent again: the generator "
			 "left a gap wider than the minimum)" : "");
		ret = r2544_trial(b->r, &spec, &res, "b2b", reason);
		if (ret || !res.generator_limited || res.lost ||
		    k == B2B_ATTEMPTS)
			break;
	}
	*pass = !ret && res.lost == 0 && !res.generator_limited;
	b->inconclusive = !ret && res.lost == 0 && res.generator_limited;
	if (!ret && res.generator_limited)
		b->n_limited++;
	/* attempted counts both directions of a pair-bidir trial, the
	 * departures are the forward stream's: per direction */
	per_dir = res.attempted / (spec.pair.topology == BM_TOPO_PAIR_BIDIR ? 2 : 1);
	if (!ret && n > 1 && per_dir > 1 && res.actual_duration_s > 0.0) {
		double fps = (double)(per_dir - 1) / res.actual_duration_s;

		b->min_fps = b->n_fps ? fmin(b->min_fps, fps) : fps;
		b->sum_fps += fps;
		b->n_fps++;
	}
	return ret;
}

int r2544_b2b_bisect(struct r2544_b2b *b, uint64_t lo, uint64_t hi,
		     bool hi_lim, uint64_t *out)
{
	uint64_t n;
	bool pass;
	int ret;

	while (hi - lo > 1) {
		n = lo + (hi - lo) / 2;
		ret = r2544_b2b_burst(b, n, "bisect", &pass);
		if (ret)
			return ret;
		if (pass) {
			lo = n;
		} else {
			hi = n;
			hi_lim = b->inconclusive;
		}
	}
	if (hi_lim && (!b->bound || hi < b->bound))
		b->bound = hi;
	*out = lo;
	return 0;
}

/* [lo, hi) around the previous answer prev < max: lo passes, hi fails
 * (max failed in step 1, the generator's failing if max_lim), found in
 * steps of 1, 2, 4 ... from prev; *hi_lim: hi was the generator's. */
static int gallop(struct r2544_b2b *b, uint64_t prev, bool max_lim,
		  uint64_t *lo, uint64_t *hi, bool *hi_lim)
{
	uint64_t d = 1, n;
	bool pass = true;
	int ret;

	if (prev) {	/* a burst of 0 passes without a trial */
		ret = r2544_b2b_burst(b, prev, "from the last answer", &pass);
		if (ret)
			return ret;
	}
	if (pass) {
		*lo = prev;
		*hi_lim = max_lim;
		for (;;) {
			n = b->max - *lo > d ? *lo + d : b->max;
			if (n == b->max)
				break;
			ret = r2544_b2b_burst(b, n, "above the last answer", &pass);
			if (ret)
				return ret;
			if (!pass) {
				*hi_lim = b->inconclusive;
				break;
			}
			*lo = n;
			d *= 2;
		}
		*hi = n;
		return 0;
	}
	*hi = prev;
	*hi_lim = b->inconclusive;
	for (;;) {
		n = *hi > d ? *hi - d : 0;
		if (!n)
			break;
		ret = r2544_b2b_burst(b, n, "below the last answer", &pass);
		if (ret)
			return ret;
		if (pass)
			break;
		*hi = n;
		*hi_lim = b->inconclusive;
		d *= 2;
	}
	*lo = n;
	return 0;
}

void r2544_b2b_intensity(const struct r2544_b2b *b, json_object *e,
			 double line_fps)
{
	bm_json_add_double(e, "intensity_min_pct_line",
			   b->n_fps ? 100.0 * b->min_fps / line_fps : NAN);
	bm_json_add_double(e, "intensity_mean_pct_line", b->n_fps ?
			   100.0 * b->sum_fps / b->n_fps / line_fps : NAN);
	bm_json_add_u64(e, "bursts_generator_limited", b->n_limited);
}

static int b2b_size(struct r2544_run *r, uint32_t f, json_object *e)
{
	const struct rfc2544_params *p = r->p;
	double line_fps = bm_fps_max(r->be->line_rate_bps, f);
	struct r2544_b2b b = { .r = r, .f = f, .max = p->b2b_burst_max,
				.rep = 1 };
	uint64_t lo, hi, got, prev = 0;
	double mean, sd, mn, mx, *v;
	unsigned int k;
	json_object *a;
	bool pass, max_lim, hi_lim;
	int ret;

	if (!b.max)
		b.max = (uint64_t)llround(line_fps);	/* 1 s [PROPOSED] */
	bm_json_add_u64(e, "burst_max", b.max);
	/* Step 1: a DUT that passes burst_max is reported ">= burst_max". */
	ret = r2544_b2b_burst(&b, b.max, "burst_max", &pass);
	if (ret)
		return ret;
	max_lim = b.inconclusive;
	if (pass) {
		bm_json_add_str(e, "result", ">= burst_max");
		bm_json_add_double(e, "mean_frames", (double)b.max);
		bm_json_add_u64(e, "repetitions", 1);
		r2544_b2b_intensity(&b, e, line_fps);
		return 0;
	}
	v = calloc(p->b2b_repetitions, sizeof(*v));
	if (!v) {
		bm_errorf(r->err, "out of memory");
		return -ENOMEM;
	}
	for (k = 0; k < p->b2b_repetitions; k++) {
		b.rep = k + 1;
		lo = 0;
		hi = b.max;
		hi_lim = max_lim;
		if (k) {
			ret = gallop(&b, prev, max_lim, &lo, &hi, &hi_lim);
			if (ret)
				goto out;
		}
		ret = r2544_b2b_bisect(&b, lo, hi, hi_lim, &got);
		if (ret)
			goto out;
		v[k] = (double)got;
		prev = got;
	}
	r2544_stats(v, k, &mean, &sd, &mn, &mx);
	/* a 0 is no result: the DUT lost frames of every burst tried, or
	 * the generator could not send them back to back; an answer a
	 * burst of the generator's failing bounded is the generator's */
	if (mx > 0.0 && !b.bound)
		bm_json_add_str(e, "result", "ok");
	else if (b.bound)
		bm_json_add_str(e, "result", "not measured: the generator could "
				"not send the bursts at the minimum gap "
				"(generator-limited)");
	else
		bm_json_add_str(e, "result", "no loss-free burst: every burst "
				"of 1 frame or more lost frames");
	r2544_b2b_intensity(&b, e, line_fps);
	if (b.bound)
		bm_json_add_u64(e, "generator_limit_frames", b.bound);
	bm_json_add_u64(e, "repetitions", k);
	bm_json_add_double(e, "mean_frames", mean);
	bm_json_add_double(e, "stddev_frames", sd);
	bm_json_add_double(e, "min_frames", mn);
	bm_json_add_double(e, "max_frames", mx);
	bm_json_add_double(e, "mean_burst_s", mean / line_fps);
	a = json_object_new_array();
	for (k = 0; k < p->b2b_repetitions; k++)
		json_object_array_add(a, json_object_new_double(v[k]));
	json_object_object_add(e, "repetition_frames", a);
out:
	free(v);
	return ret;
}

int r2544_back_to_back(struct r2544_run *r)
{
	json_object *e;
	size_t i;
	int ret = 0;

	r2544_deviation(r, "AMB-19: the whole burst-length search is repeated; "
			"repetitions 2.. start at the previous answer");
	if (!r->p->b2b_burst_max)
		r2544_deviation(r, "burst_max = fps_max(F) x 1 s [PROPOSED]");
	if (r->p->b2b_repetitions < 50)
		r2544_deviation(r, "R2544-B2B: fewer than 50 repetitions");
	for (i = 0; i < r->p->n_sizes && !ret; i++) {
		e = json_object_new_object();
		json_object_array_add(r->results, e);
		bm_json_add_u64(e, "frame_size", r->p->frame_sizes[i]);
		/* §26: per data stream type; this test sends no other */
		bm_json_add_str(e, "stream_type", "constant");
		ret = b2b_size(r, r->p->frame_sizes[i], e);
	}
	return ret;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * rfc9004.back-to-back: RFC 9004's update of the RFC 2544 §26.4
 * back-to-back frames benchmark (SPEC R2544-B2B).
 *
 * §5, §6.1: the throughput of each frame size comes first, given
 * (throughput_fps, from earlier testing) or measured with RFC 2544's
 * search; only sizes whose throughput is below the maximum theoretical
 * frame rate are tested, the others are reported as skipped: a DUT that
 * forwards at the line never fills its buffer.
 * §6.2: each trial sends a burst at the minimum gap after idle time and
 * lasts the burst's sending, its reception at no less than the
 * throughput rate, and depletion_s (>= 2 s) more; the burst length is
 * searched by bisection up to the upper limit burst_max_s (a loss-free
 * burst at the limit is no result: raise the limit).
 * §6.3: the search is repeated N times (repetitions), every value kept.
 * §6.4: Implied DUT Buffer Time and Corrected DUT Buffer Time.
 * §7 (reporting): per frame size the average, min, max and standard
 * deviation of the back-to-back frames, both buffer times, the
 * throughput used, N and the search's limit and resolution.
 *
 * The bursts are rfc2544.back-to-back's (r2544_b2b_*): the minimum gap
 * checked frame by frame, a burst the generator left gaps in sent again
 * and never taken as the DUT's.
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "rfc2544_int.h"
#include "rfc9004.h"

#define R9004_FRAME_MIN	64	/* REQ-FRM-3 */
#define R9004_FRAME_MAX	9216
/* A search of at most 2^40 frames: 60 s of the smallest frames on a
 * 10 Tbit/s line; bisections of [0, burst_max) take as many trials. */
#define R9004_SEARCH_BITS	40.0

static int parse_sizes(json_object *v, void *base, const char *key,
		       struct bm_error *err)
{
	struct r9004_params *p = base;

	return bm_json_parse_sizes(v, key, R9004_FRAME_MIN, R9004_FRAME_MAX,
				   p->base.frame_sizes, RFC2544_MAX_SIZES,
				   &p->base.n_sizes, err);
}

/* §5: one throughput for every size, or an array of one per size
 * (checked against frame_sizes in r9004_b2b_check). */
static int parse_thr(json_object *v, void *base, const char *key,
		     struct bm_error *err)
{
	struct r9004_params *p = base;
	bool one = json_object_get_type(v) != json_type_array;
	size_t n = one ? 1 : json_object_array_length(v), i;
	double x;

	if (!n || n > RFC2544_MAX_SIZES)
		return bm_errorf(err, "%s: expected 1 to %d rates", key,
				 RFC2544_MAX_SIZES);
	for (i = 0; i < RFC2544_MAX_SIZES; i++) {
		json_object *e = one ? v : json_object_array_get_idx(v, i);

		p->base.throughput_fps[i] = 0.0;
		if (i >= n && !one)
			continue;
		if (!bm_json_number(e, &x) || !(x > 0.0) || !isfinite(x))
			return bm_errorf(err, "%s: expected a number > 0 or "
					 "an array of them", key);
		p->base.throughput_fps[i] = x;
	}
	p->n_thr = n;
	return 0;
}

#define OFF(f)	offsetof(struct r9004_params, f)
#define KD(k, f, lo, hi, fl, u, h) \
	{ { k, BM_J_DOUBLE, OFF(f), lo, hi, fl, 0, NULL, NULL }, u, h, NULL }

const struct bm_param r9004_b2b_keys[] = {
	{ { "frame_sizes", BM_J_CUSTOM, OFF(base.frame_sizes), R9004_FRAME_MIN,
	    R9004_FRAME_MAX,
	    0, 0, NULL, parse_sizes }, "B", "frame sizes with FCS, 1 to 16 "
	  "distinct (R2544-SIZES); those whose throughput is the line's are "
	  "skipped (RFC 9004 §6.1)", "integer array" },
	{ { "throughput_fps", BM_J_CUSTOM, 0, 0, INFINITY,
	    BM_JK_MIN_EXCL | BM_JK_DERIVED, 0, NULL, parse_thr }, "fps",
	  "throughput from earlier testing (RFC 9004 §5), one or one per "
	  "size; unset: measured first (RFC 2544 §26.1)",
	  "number or number array" },
	{ { "repetitions", BM_J_UINT, OFF(repetitions), 1, 100000, 0, 0,
	    NULL, NULL }, "", "N, burst-length searches per frame size, "
	  "each value kept (RFC 9004 §6.3; RFC 2544 §26.4: 50)", NULL },
	KD("burst_max_s", burst_max_s, 0, 60, BM_JK_MIN_EXCL, "s",
	   "upper search limit: the longest burst's sending time at the "
	   "line rate (RFC 9004 §6.2: configurable to 30 s) [PROPOSED 1]"),
	KD("depletion_s", depletion_s, 2, 3600, 0, "s",
	   "wait after the burst's reception for the buffers to empty "
	   "(RFC 9004 §6.2: at least 2)"),
	{ { "learning", BM_J_BOOL, OFF(base.learning), 0, 0, 0, 0, NULL,
	    NULL }, "", "learning frames before every trial (RFC 2544 §23b)",
	  NULL },
	KD("learning_pause_s", base.learning_pause_s, 0, 60, 0, "s",
	   "wait after the learning frames (RFC 2544 §23b: 2 s)"),
	KD("drain_s", base.drain_s, 0, 60, 0, "s",
	   "wait for late frames after each trial before counting (§23d)"),
	KD("restabilise_s", base.restabilise_s, 0, 600, 0, "s",
	   "wait between a trial and the next (RFC 2544 §23e: at least 5)"),
	KD("throughput_trial_duration_s", base.thr_final_trial_s, 0, 86400,
	   BM_JK_MIN_EXCL, "s", "full-length trials of the throughput "
	   "measured first"),
	KD("throughput_search_trial_duration_s", base.thr_search_trial_s, 0,
	   86400, BM_JK_MIN_EXCL, "s", "search trials of the throughput "
	   "measured first, <= throughput_trial_duration_s"),
	{ { NULL, 0, 0, 0, 0, 0, 0, NULL, NULL }, NULL, NULL, NULL },
};

void r9004_b2b_defaults(struct r9004_params *p)
{
	memset(p, 0, sizeof(*p));
	/* sizes, learning, the waits and the throughput search: RFC 2544's
	 * (§9, §23, §26.1), which RFC 9004 §5 builds on */
	rfc2544_params_default(&p->base, RFC2544_BACK_TO_BACK);
	p->burst_max_s = 1.0;		/* [PROPOSED]: rfc2544.back-to-back's */
	p->depletion_s = 2.0;		/* §6.2 "at least 2 seconds" */
	p->repetitions = 50;		/* RFC 2544 §26.4's 50 [PROPOSED] */
}

int r9004_b2b_check(const struct r9004_params *p, struct bm_error *err)
{
	if (p->n_thr > 1 && p->n_thr != p->base.n_sizes)
		return bm_errorf(err, "rfc9004.back-to-back: throughput_fps: "
				 "%zu rates for %zu frame sizes", p->n_thr,
				 p->base.n_sizes);
	if (p->base.thr_search_trial_s > p->base.thr_final_trial_s)
		return bm_errorf(err, "rfc9004.back-to-back: "
				 "throughput_search_trial_duration_s: above "
				 "throughput_trial_duration_s");
	return 0;
}

/* throughput_fps as given: one rate a size (parse_thr spreads one given
 * rate over every size), or null when it is measured first. */
static json_object *thr_json(const struct bm_jwriter *w,
			     const struct bm_jkey *k, const void *base)
{
	const struct r9004_params *p = base;
	json_object *a;
	size_t i;

	(void)w;
	(void)k;
	if (!p->n_thr)
		return NULL;
	a = json_object_new_array();
	for (i = 0; i < p->base.n_sizes; i++)
		json_object_array_add(a, json_object_new_double(
			p->base.throughput_fps[i]));
	return a;
}

const struct bm_jwriter r9004_b2b_writers[] = {
	{ parse_sizes, bm_json_u32s_at, OFF(base.n_sizes) },
	{ parse_thr, thr_json, 0 },
	{ NULL, NULL, 0 },
};

double r9004_b2b_max_trials(const struct r9004_params *p)
{
	/* the throughput searches unless given, then per size the upper
	 * limit and N bisections of [0, burst_max) */
	double thr = p->n_thr ? 0.0 :
		     rfc2544_max_trials(&p->base, RFC2544_THROUGHPUT);

	return thr + (double)p->base.n_sizes *
	       (1.0 + p->repetitions * R9004_SEARCH_BITS);
}

/* The benchmark's own report items: null beside a reason when a size has
 * no value. */
static const char *const r9004_values[] = {
	"mean_frames", "min_frames", "max_frames", "stddev_frames",
	"implied_buffer_time_s", "corrected_buffer_time_s", NULL,
};

static void r9004_no_value(json_object *e, const char *why)
{
	const char *const *k;

	for (k = r9004_values; *k; k++)
		if (!json_object_object_get_ex(e, *k, NULL))
			json_object_object_add(e, *k, NULL);
	bm_json_add_str(e, "result", why);
}

/*
 * RFC 9004 §6.4, the benchmarks of the average back-to-back frames B
 * (§6.3) over the maximum theoretical frame rate R of the size:
 *
 *   Implied DUT Buffer Time = B / R
 *
 *   Corrected DUT Buffer Time = Implied DUT Buffer Time
 *       - (Implied DUT Buffer Time x Measured Throughput / R)
 *
 * Measured Throughput the RFC 2544 throughput in frames per second: the
 * DUT forwards at that rate while the burst arrives, so the frames it
 * buffered are B (1 - T / R) and the correction takes out the rest.
 */
static void r9004_buffer_times(json_object *e, double mean, double line_fps,
			       double thr_fps)
{
	double implied = mean / line_fps;

	bm_json_add_double(e, "implied_buffer_time_s", implied);
	bm_json_add_double(e, "corrected_buffer_time_s",
			   implied - implied * thr_fps / line_fps);
}

/* §6.3, §7: N searches of [0, burst_max) below an upper limit that
 * failed (max_lim: the generator's failing), their statistics, the
 * buffer times and the result. */
static int r9004_search(struct r2544_b2b *b, bool max_lim, json_object *e)
{
	const struct r9004_params *q = b->r->ext;
	double mean, sd, mn, mx, *v;
	json_object *a;
	unsigned int k, i;
	uint64_t got;
	int ret = 0;

	v = calloc(q->repetitions, sizeof(*v));
	if (!v)
		return bm_errorf(b->r->err, "out of memory");
	for (k = 0; k < q->repetitions; k++) {
		b->rep = k + 1;
		ret = r2544_b2b_bisect(b, 0, b->max, max_lim, &got);
		if (ret)
			break;
		v[k] = (double)got;
	}
	r2544_stats(v, k, &mean, &sd, &mn, &mx);
	bm_json_add_u64(e, "repetitions", k);
	bm_json_add_double(e, "mean_frames", mean);
	bm_json_add_double(e, "stddev_frames", sd);
	bm_json_add_double(e, "min_frames", mn);
	bm_json_add_double(e, "max_frames", mx);
	r9004_buffer_times(e, mean, b->line_fps, b->thr_fps);
	/* §6.3: every search's value, for further processing */
	a = json_object_new_array();
	for (i = 0; i < k; i++)
		json_object_array_add(a, json_object_new_double(v[i]));
	json_object_object_add(e, "repetition_frames", a);
	r2544_b2b_intensity(b, e, b->line_fps);
	if (b->bound)
		bm_json_add_u64(e, "generator_limit_frames", b->bound);
	if (b->bound)
		bm_json_add_str(e, "result", "not measured: the generator could "
				"not send the bursts at the minimum gap "
				"(generator-limited)");
	else if (!(mx > 0.0))
		bm_json_add_str(e, "result", "no loss-free burst: every burst "
				"of 1 frame or more lost frames");
	else if (mx >= 0.9 * (double)b->max)
		bm_json_add_str(e, "result", "not measured: a burst within "
				"10 % of the upper search limit passed: raise "
				"burst_max_s (RFC 9004 §6.2)");
	else if (mean / b->line_fps > q->depletion_s)
		bm_json_add_str(e, "result", "not measured: the implied buffer "
				"time exceeds depletion_s: raise it "
				"(RFC 9004 §6.2)");
	else
		bm_json_add_str(e, "result", "ok");
	free(v);
	return ret;
}

/* One frame size: its throughput (§5), the §6.1 choice, the upper limit
 * and the searches. */
static int r9004_size(struct r2544_run *r, size_t i, json_object *e)
{
	const struct r9004_params *q = r->ext;
	uint32_t f = q->base.frame_sizes[i];
	double line_fps = r2544_fps_max(r->be->line_rate_bps, f), thr;
	struct r2544_b2b b = { .r = r, .f = f, .rep = 1, .line_fps = line_fps,
			       .depletion_s = q->depletion_s };
	bool ok, pass;
	int ret;

	bm_json_add_u64(e, "frame_size", f);
	bm_json_add_double(e, "theoretical_max_fps", line_fps);
	ret = r2544_get_throughput(r, i, f, e, &thr, &ok);
	if (ret || !ok) {
		r2544_result_no_throughput(e, r9004_values);
		return ret;
	}
	/* §6.1: at the theoretical rate no burst fills the buffer */
	if (thr >= line_fps * (1.0 - 1e-9)) {
		r9004_no_value(e, "skipped: the throughput is the maximum "
			       "theoretical frame rate, no burst can fill the "
			       "DUT's buffer (RFC 9004 §6.1)");
		return 0;
	}
	b.thr_fps = thr;
	b.max = (uint64_t)fmax(2.0, (double)llround(q->burst_max_s *
						    line_fps));
	bm_json_add_u64(e, "burst_max", b.max);
	bm_json_add_u64(e, "resolution_frames", 1);
	ret = r2544_b2b_burst(&b, b.max, "the upper search limit", &pass);
	if (ret)
		return ret;
	if (pass) {
		r2544_b2b_intensity(&b, e, line_fps);
		r9004_no_value(e, "not measured: no frame lost at the upper "
			       "search limit: raise burst_max_s "
			       "(RFC 9004 §6.2)");
		return 0;
	}
	return r9004_search(&b, b.inconclusive, e);
}

static int r9004_body(struct r2544_run *r)
{
	const struct r9004_params *q = r->ext;
	json_object *e;
	size_t i;
	int ret = 0;

	r2544_deviation(r, "RFC 9004 §6.2: each repetition is a whole "
			"bisection of the burst length below the upper "
			"limit, tried once per frame size, to 1 frame "
			"[INTERPRETATION]");
	r2544_deviation(r, "RFC 9004 §6.2: a trial lasts the burst at the "
			"line rate, n / throughput for its reception and "
			"depletion_s [INTERPRETATION]");
	if (q->repetitions < 50)
		r2544_deviation(r, "RFC 9004 §6.3: fewer repetitions than "
				"RFC 2544 §26.4's 50");
	for (i = 0; i < q->base.n_sizes && !ret; i++) {
		e = json_object_new_object();
		json_object_array_add(r->results, e);
		ret = r9004_size(r, i, e);
	}
	return ret;
}

int r9004_b2b_run(struct bm_backend *be, const struct r9004_params *p,
		  bm_progress_fn progress, void *ctx, json_object **result,
		  struct bm_error *err)
{
	return r2544_run_doc(RFC2544_BACK_TO_BACK, r9004_body,
			     "rfc9004.back-to-back", "RFC 9004 §5-§7 "
			     "(updates RFC 2544 §26.4); R2544-B2B",
			     bm_json_params_to_json(r9004_b2b_keys, 0, p,
						    r9004_b2b_writers),
			     be, &p->base, p,
			     progress, ctx, result, err);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * RFC 2544 §26.6 reset (R2544-RESET): a continuous stream at the
 * throughput rate of the minimum frame size; the DUT reset hook fires
 * reset_at_s into it.  A = rx time of the last frame before the outage,
 * B = rx time of the first after; reset value = B - A (the longest rx gap
 * above the gap threshold).  An outage still on when the stream ends has
 * no B: its gap runs from A to the end of the stream, and the repetition
 * reports that the trial window could not contain the reset,
 * never "no reset observed" and never a reset value.  The module keeps
 * the trial's longest gap only: one that began before the reset fired
 * (a host stall, a DUT hiccup) is not the reset's, and the reset's own
 * gap, shorter, is not known, so the repetition is not measured rather
 * than reporting the wrong gap as B - A.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "rfc2544_int.h"

static const char *const type_names[] = {
	[RFC2544_RESET_HARDWARE] = "hardware",
	[RFC2544_RESET_SOFTWARE] = "software",
	[RFC2544_RESET_POWER] = "power",
};

/* One rfc2544.reset: its frame size and rate, the gap threshold, and
 * what the repetitions came to. */
struct reset_run {
	uint32_t f;			/* the frame size */
	double thr, thresh;		/* its throughput (fps), the gap threshold (s) */
	double v[64];			/* the reset values measured, B - A */
	unsigned int n, uncontained, early;
};

/* §26.6: the minimum size for the media, i.e. the smallest given; *at:
 * its index among them. */
static uint32_t reset_frame_size(const struct rfc2544_params *p, size_t *at)
{
	uint32_t f = p->frame_sizes[0];
	size_t i;

	for (i = 1; i < p->n_sizes; i++)
		if (p->frame_sizes[i] < f)
			f = p->frame_sizes[i];
	for (i = 0; i < p->n_sizes && p->frame_sizes[i] != f; i++)
		;
	*at = i;
	return f;
}

/* A repetition's receive gaps judged into o: its reset value B - A into
 * s->v, or why it has none. */
static void reset_judge(const struct rfc2544_params *p,
			const struct bm_trial_result *res, struct reset_run *s,
			json_object *o)
{
	double tail;

	if (res->event_ret) {
		bm_json_add_str(o, "result", res->event_ret == -ETIMEDOUT ?
				"reset hook timed out and was killed" :
				"reset hook failed");
		return;
	}
	/* the stream's last frame would have arrived at first_rx +
	 * its span; anything missing after the last arrival was
	 * lost to an outage that outlasted the stream */
	tail = res->received ? res->first_rx_s + res->actual_duration_s -
			       res->last_rx_s : p->reset_trial_s;
	if (tail > s->thresh && tail >= res->max_gap_s) {
		bm_json_add_double(o, "outage_at_least_s", tail);
		bm_json_add_str(o, "result", "not contained: the DUT "
				"was still down when the stream ended");
		s->uncontained++;
		return;
	}
	if (!(res->max_gap_s > s->thresh)) {
		bm_json_add_str(o, "result", "no outage above the gap "
				"threshold");
		return;
	}
	/* A is the last frame before the gap: a reset's outage
	 * cannot begin more than one gap threshold before the hook
	 * was called (the frames in flight arrive after it) */
	if (res->max_gap_start_s < res->event_fired_s - s->thresh) {
		bm_json_add_str(o, "result", "not measured: the longest "
				"receive gap began before the reset "
				"fired, so it is not the reset's");
		s->early++;
		return;
	}
	s->v[s->n++] = res->max_gap_s;		/* B - A */
	bm_json_add_double(o, "reset_s", res->max_gap_s);
	bm_json_add_str(o, "result", "ok");
}

/* Repetition k: the stream at the throughput with the reset hook fired
 * into it, its entry into a. */
static int reset_repetition(struct r2544_run *r, struct reset_run *s,
			    unsigned int k, json_object *a)
{
	const struct rfc2544_params *p = r->p;
	json_object *o = json_object_new_object();
	struct bm_trial_spec spec;
	struct bm_trial_result res;
	char buf[160];
	int ret;

	r2544_spec(r, &spec, s->f, s->thr, p->reset_trial_s);
	spec.event_at_s = p->reset_at_s;
	spec.event_fn = p->reset_hook;
	/* a DUT reset takes the tester's links down on hardware */
	spec.link_down_ok = true;
	spec.event_ctx = p->reset_ctx;
	snprintf(buf, sizeof(buf), "repetition %u: %s reset at %g s",
		 k + 1, type_names[p->reset_type], p->reset_at_s);
	memset(&res, 0, sizeof(res));
	ret = r2544_trial(r, &spec, &res, "reset", buf);
	if (ret == -ECANCELED && res.event_ret == -ECANCELED) {
		/* the partial result says why this one has no value */
		bm_json_add_str(o, "result", "reset hook killed: the "
				"job was cancelled");
		json_object_array_add(a, o);
		return ret;
	}
	if (ret) {
		json_object_put(o);
		return ret;
	}
	json_object_array_add(a, o);
	bm_json_add_double(o, "reset_fired_s", res.event_fired_s);
	bm_json_add_double(o, "timestamp_a_s", res.max_gap_start_s);
	bm_json_add_double(o, "timestamp_b_s",
			   res.max_gap_start_s + res.max_gap_s);
	reset_judge(p, &res, s, o);
	return 0;
}

/* The reset value over the repetitions, the result and the statement,
 * and the deviations they call for. */
static void reset_summary(struct r2544_run *r, const struct reset_run *s,
			  json_object *e)
{
	const struct rfc2544_params *p = r->p;
	const char *type = type_names[p->reset_type];
	double mean, sd, mn, mx;
	char buf[160];

	r2544_stats(s->v, s->n, &mean, &sd, &mn, &mx);
	bm_json_add_u64(e, "valid_repetitions", s->n);
	bm_json_add_double(e, "reset_s", s->n ? mean : NAN);
	bm_json_add_double(e, "reset_min_s", mn);
	bm_json_add_double(e, "reset_max_s", mx);
	if (s->n)
		bm_json_add_str(e, "result", "ok");
	else if (s->uncontained)
		bm_json_add_str(e, "result", "reset longer than the trial "
				"window: give a longer trial_duration_s");
	else if (s->early)
		bm_json_add_str(e, "result", "not measured: in every "
				"repetition a longer receive gap began before "
				"the reset fired");
	else
		bm_json_add_str(e, "result", "no reset observed");
	if (s->n)
		snprintf(buf, sizeof(buf), "%s reset: %.3f s at %u-byte frames, "
			 "%.0f fps", type, mean, s->f, s->thr);
	else if (s->uncontained)
		snprintf(buf, sizeof(buf), "%s reset: not over when the %g s "
			 "stream ended, %g s after the reset", type,
			 p->reset_trial_s, p->reset_trial_s - p->reset_at_s);
	else if (s->early)
		snprintf(buf, sizeof(buf), "%s reset: not measured (an "
			 "earlier, longer receive gap)", type);
	else
		snprintf(buf, sizeof(buf), "%s reset: no outage observed",
			 type);
	if (s->n && s->uncontained)
		r2544_deviation(r, "reset: some repetitions outlasted the "
				"stream and are not in the reset value");
	bm_json_add_str(e, "statement", buf);
	if (s->early) {
		snprintf(buf, sizeof(buf), "reset: %u repetition(s) not "
			 "measured: a receive gap longer than the reset's began "
			 "before the reset fired", s->early);
		r2544_deviation(r, buf);
	}
	r2544_deviation(r, "gap threshold = max(10 ms, 100 frame intervals) "
			"[PROPOSED] unless gap_threshold_s is given");
}

int r2544_reset(struct r2544_run *r)
{
	const struct rfc2544_params *p = r->p;
	struct reset_run s = { 0 };
	json_object *e, *a;
	unsigned int k;
	size_t i;
	bool ok;
	int ret;

	if (!p->reset_hook)
		return bm_errorf(r->err, "rfc2544.reset: no DUT reset hook "
				 "(give reset=NAME, a reset of bmd's "
				 "configuration)");
	s.f = reset_frame_size(p, &i);
	e = json_object_new_object();
	json_object_array_add(r->results, e);
	bm_json_add_u64(e, "frame_size", s.f);
	/* §26: per data stream type; this test sends no other */
	bm_json_add_str(e, "stream_type", "constant");
	bm_json_add_str(e, "reset_type", type_names[p->reset_type]);
	ret = r2544_get_throughput(r, i, s.f, e, &s.thr, &ok);
	if (ret)
		return ret;
	if (!ok) {
		static const char *const values[] = { "reset_s", NULL };

		r2544_result_no_throughput(e, values);
		return 0;
	}
	s.thresh = p->gap_threshold_s > 0.0 ? p->gap_threshold_s :
		   fmax(0.010, 100.0 / s.thr);	/* [PROPOSED] */
	bm_json_add_double(e, "gap_threshold_s", s.thresh);
	a = json_object_new_array();
	json_object_object_add(e, "repetitions", a);
	for (k = 0; k < p->reset_repetitions && k < 64; k++) {
		ret = reset_repetition(r, &s, k, a);
		if (ret)
			return ret;
	}
	reset_summary(r, &s, e);
	return 0;
}

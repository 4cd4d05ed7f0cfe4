// SPDX-License-Identifier: GPL-2.0
/*
 * The simulated DUT against the closed forms of SPEC 5.3 (MODEL-TBF,
 * MODEL-RL), R2544-RECOV/RESET outages, REQ-GEN-6 generator limits and the
 * strict JSON constructor.
 */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check_util.h"
#include "bm_sim.h"
#include "sim_assert.h"

/* DUT-TBF(d2, 300 Mbit/s, b = 3200, Q = 1000, o = 24), R_line 1 Gbit/s:
 * the R2544-THRPT acceptance (a) device. */
static void tbf300(struct bm_sim_params *p)
{
	bm_sim_params_default(p);
	p->capacity_bps = 300e6;
	p->bucket_bytes = 3200;
	p->buffer_frames = 1000;
	p->base_latency_ns = 5000;
}

static struct bm_backend *mk(const struct bm_sim_params *p)
{
	struct bm_error err = { "" };
	struct bm_backend *be = bm_sim_new(p, &err);

	ck_assert_msg(be, "bm_sim_new: %s", err.msg);
	return be;
}

static struct bm_trial_result rate_trial(struct bm_backend *be, uint32_t f,
					 double fps, double d)
{
	struct bm_trial_spec s;
	struct bm_trial_result r;
	struct bm_error err;

	bm_trial_spec_rate(&s, f, fps, d);
	s.latency = true;
	ck_assert_int_eq(bm_run_trial(be, &s, &r, &err), 0);
	return r;
}

/* MODEL-TBF closed form: lost = max(0, N - Q - floor((b + rho*T)/A)). */
static uint64_t tbf_expected_loss(double fps, double d, double b, double q,
				  double rate_bps, double a)
{
	double n = llround(fps * d), t = (n - 1) / fps;
	double ok = q + floor((b + rate_bps / 8 * t) / a);

	return n > ok ? (uint64_t)(n - ok) : 0;
}

START_TEST(test_capacity_300m_512)
{
	struct bm_sim_params p;

	tbf300(&p);
	/* SPEC R2544-THRPT acceptance: C = 70,488.72 fps at 512 B. */
	ck_assert_double_eq_tol(bm_sim_capacity_fps(&p, 512), 70488.7218, 1e-3);
	ck_assert_double_eq_tol(bm_sim_capacity_fps(&p, 1518), 24382.3147, 1e-3);
	ck_assert_double_eq_tol(bm_sim_frame_bytes(&p, 512), 532.0, 1e-12);
}
END_TEST

START_TEST(test_cbr_matches_model_tbf)
{
	static const double delta[] = { -100, 0, 10, 16, 16.5, 17, 18, 50,
					 1000, 20000 };
	struct bm_sim_params p;
	struct bm_backend *be;
	double c;
	size_t i;

	tbf300(&p);
	be = mk(&p);
	c = bm_sim_capacity_fps(&p, 512);
	for (i = 0; i < sizeof(delta) / sizeof(delta[0]); i++) {
		double r = c + delta[i];
		struct bm_trial_result res = rate_trial(be, 512, r, 60);
		uint64_t want = tbf_expected_loss(r, 60, 3200, 1000, 300e6, 532);

		ck_assert_msg(res.lost == want, "rate %.2f: lost %llu, model %llu",
			      r, (unsigned long long)res.lost,
			      (unsigned long long)want);
		ck_assert_uint_eq(res.received + res.lost, res.attempted);
		ck_assert_uint_eq(res.attempted, (uint64_t)llround(r * 60));
	}
	/* The loss-free edge is C + (Q + b/A)/60 = C + 16.77 fps. */
	ck_assert_uint_eq(rate_trial(be, 512, c + 16.6, 60).lost, 0);
	ck_assert_uint_gt(rate_trial(be, 512, c + 16.9, 60).lost, 0);
	/* Virtual time: 12 trials of 60 s, no overhead configured. */
	ck_assert_double_eq_tol(be->elapsed_s, 12 * 60.0, 1e-9);
	ck_assert_uint_eq(be->trials, 12);
	bm_sim_free(be);
}
END_TEST

START_TEST(test_short_trial_absorbs_buffer)
{
	struct bm_sim_params p;
	struct bm_backend *be;
	double c;

	/* R2544-THRPT (d): Q = 20000 lets a 5 s trial pass up to C + 4000. */
	tbf300(&p);
	p.buffer_frames = 20000;
	be = mk(&p);
	c = bm_sim_capacity_fps(&p, 512);
	ck_assert_uint_eq(rate_trial(be, 512, c + 3990, 5).lost, 0);
	ck_assert_uint_gt(rate_trial(be, 512, c + 4010, 5).lost, 0);
	ck_assert_uint_gt(rate_trial(be, 512, c + 3990, 60).lost, 200000);
	bm_sim_free(be);
}
END_TEST

static uint64_t burst_lost(struct bm_backend *be, uint32_t f, uint64_t n)
{
	struct bm_trial_spec s;
	struct bm_trial_result r;
	struct bm_error err;

	bm_trial_spec_rate(&s, f, 0, 2.0);
	s.pair.pattern = BM_PAT_BURST;
	s.pair.burst_frames = n;
	ck_assert_int_eq(bm_run_trial(be, &s, &r, &err), 0);
	ck_assert_uint_eq(r.attempted, n);
	return r.lost;
}

START_TEST(test_burst_model_tbf)
{
	struct bm_sim_params p;
	struct bm_backend *be;

	/* R2544-B2B acceptance: DUT-TBF(10 Mbit/s, b 1600, Q 100, o 24),
	 * 512 B.  On a 1 GbE line the burst refills one token frame: 104. */
	bm_sim_params_default(&p);
	p.capacity_bps = 10e6;
	p.bucket_bytes = 1600;
	p.buffer_frames = 100;
	be = mk(&p);
	ck_assert_uint_eq(burst_lost(be, 512, 104), 0);
	ck_assert_uint_eq(burst_lost(be, 512, 105), 1);
	ck_assert_uint_eq(burst_lost(be, 512, 200), 96);
	bm_sim_free(be);
	/* veth-like line (refill ~ 0): 103 = Q + floor(b/A). */
	p.line_rate_bps = 1e12;
	be = mk(&p);
	ck_assert_uint_eq(burst_lost(be, 512, 103), 0);
	ck_assert_uint_eq(burst_lost(be, 512, 104), 1);
	/* the trial lasts its 2 s window */
	ck_assert_double_eq_tol(be->elapsed_s, 4.0, 1e-9);
	bm_sim_free(be);
}
END_TEST

/*
 * R2544-B2B: a burst trial counts until its duration (>= 2 s, §26.4) after
 * the burst start, not just drain_s after the burst.  The lab DUT of
 * tests/lab/24: 25 fps shaper, b = 2 frames + 8 B, Q = 25 at 64 B: the 27
 * frames it passes need 1.08 s to leave; with drain_s = 0.5 only 14 did.
 */
static uint64_t burst_lost_drain(struct bm_backend *be, uint64_t n,
				 double drain_s)
{
	struct bm_trial_spec s;
	struct bm_trial_result r;
	struct bm_error err;

	bm_trial_spec_rate(&s, 64, 0, 2.0);
	s.pair.pattern = BM_PAT_BURST;
	s.pair.burst_frames = n;
	s.drain_s = drain_s;
	ck_assert_int_eq(bm_run_trial(be, &s, &r, &err), 0);
	return r.lost;
}

START_TEST(test_burst_counts_whole_trial)
{
	struct bm_sim_params p;
	struct bm_backend *be;

	bm_sim_params_default(&p);
	p.line_rate_bps = 10e6;
	p.capacity_fps = 25;
	p.bucket_bytes = 176;
	p.buffer_frames = 25;
	be = mk(&p);
	ck_assert_uint_eq(burst_lost_drain(be, 27, 0.5), 0);
	ck_assert_uint_eq(burst_lost_drain(be, 28, 0.5), 1);
	/* a drain longer than the trial still counts in full */
	ck_assert_uint_eq(burst_lost_drain(be, 27, 3.0), 0);
	bm_sim_free(be);
}
END_TEST

START_TEST(test_latency_queueing)
{
	struct bm_sim_params p;
	struct bm_backend *be;
	struct bm_trial_result r;
	double c;

	tbf300(&p);
	be = mk(&p);
	c = bm_sim_capacity_fps(&p, 512);
	/* Below capacity: never queued, every frame sees the base latency. */
	r = rate_trial(be, 512, 0.9 * c, 10);
	ck_assert_uint_eq(r.latency.count, r.received);
	ck_assert_double_eq_tol(r.latency.min_ns, 5000, 1e-6);
	ck_assert_double_eq_tol(r.latency.max_ns, 5000, 1e-6);
	ck_assert_double_eq_tol(r.latency.p99_ns, 5000, 1e-6);
	ck_assert_str_eq(r.ts_source, "sim");
	/* Overloaded: the queue fills, max = base + Q/C, and most frames
	 * wait the full queue. */
	r = rate_trial(be, 512, 1.5 * c, 10);
	ck_assert_double_eq_tol(r.latency.min_ns, 5000, 1e-6);
	ck_assert_double_eq_tol(r.latency.max_ns, 5000 + 1000 / c * 1e9, 1);
	ck_assert_double_eq_tol(r.latency.p50_ns, 5000 + 1000 / c * 1e9, 1);
	ck_assert(r.latency.mean_ns > 5000 && r.latency.mean_ns < r.latency.max_ns);
	bm_sim_free(be);
}
END_TEST

static struct bm_trial_result step_trial(struct bm_backend *be, uint32_t f,
					 double r1, double d1, double r2,
					 double d2)
{
	struct bm_trial_spec s;
	struct bm_trial_result r;
	struct bm_error err;

	bm_trial_spec_rate(&s, f, r1, d1);
	s.pair.pattern = BM_PAT_STEP;
	s.pair.step_rate_fps = r2;
	s.pair.step_duration_s = d2;
	ck_assert_int_eq(bm_run_trial(be, &s, &r, &err), 0);
	return r;
}

START_TEST(test_step_recovery)
{
	struct bm_sim_params p;
	struct bm_backend *be;
	struct bm_trial_result r;

	/* R2544-RECOV (a): 77,537.6 fps for 60 s, then 38,768.8 fps. */
	tbf300(&p);
	be = mk(&p);
	r = step_trial(be, 512, 77537.6, 60, 38768.8, 10);
	ck_assert_uint_gt(r.lost, 400000);
	/* Tail drop stops at once when arrivals fall below service: the
	 * SPEC window 0 <= B - A <= 2/38,768.8 s (52 us). */
	ck_assert(r.last_loss_after_step_s <= 2.0 / 38768.8);
	ck_assert(r.last_loss_after_step_s >= -1.0);
	bm_sim_free(be);

	/* (b) plus DUT-OUTAGE(0.5 s) at A + 1.0 s: last loss at A + 1.5. */
	p.outage_s = 0.5;
	p.outage_at_s = 1.0;
	p.outage_ref = BM_SIM_OUTAGE_STEP;
	be = mk(&p);
	r = step_trial(be, 512, 77537.6, 60, 38768.8, 10);
	ck_assert_double_eq_tol(r.last_loss_after_step_s, 1.5, 1.0 / 38768.8);
	ck_assert(r.last_loss_after_step_s < 1.5);
	/* A plain CBR trial is not affected by a step-timed outage. */
	ck_assert_uint_eq(rate_trial(be, 512, 1000, 10).lost, 0);
	bm_sim_free(be);
}
END_TEST

START_TEST(test_reset_hook_gap)
{
	struct bm_sim_params p;
	struct bm_backend *be;
	struct bm_trial_spec s;
	struct bm_trial_result r;
	struct bm_error err;

	/* DUT-RESET(T = 3 s) on a lossless bridge (R2544-RESET). */
	bm_sim_params_default(&p);
	p.reset_outage_s = 3.0;
	be = mk(&p);
	bm_trial_spec_rate(&s, 64, 1488095.0, 30);
	s.event_at_s = 10.0;
	s.event_fn = bm_sim_reset_hook;
	s.event_ctx = be;
	ck_assert_int_eq(bm_run_trial(be, &s, &r, &err), 0);
	ck_assert_int_eq(r.event_ret, 0);
	ck_assert_double_eq_tol(r.max_gap_s, 3.0, 2.0 / 1488095.0);
	ck_assert_double_eq_tol(r.max_gap_start_s, 10.0, 1e-4);
	ck_assert_double_eq_tol((double)r.lost, 3.0 * 1488095.0, 2);
	/* The hook refuses to act outside a trial. */
	ck_assert_int_eq(bm_sim_reset_hook(be), -EINVAL);
	/* Without the event, the gap is the frame spacing. */
	s.event_fn = NULL;
	ck_assert_int_eq(bm_run_trial(be, &s, &r, &err), 0);
	ck_assert_double_eq_tol(r.max_gap_s, 1.0 / 1488095.0, 1e-12);
	ck_assert_uint_eq(r.lost, 0);
	bm_sim_free(be);
}
END_TEST

START_TEST(test_generator_limit)
{
	struct bm_sim_params p;
	struct bm_backend *be;
	struct bm_trial_result r;

	bm_sim_params_default(&p);
	p.generator_max_fps = 50000;
	be = mk(&p);
	r = rate_trial(be, 512, 60000, 10);
	ck_assert(r.generator_limited);
	ck_assert_uint_eq(r.intended, 600000);
	ck_assert_uint_eq(r.attempted, 500000);
	ck_assert_uint_eq(r.lost, 0);
	r = rate_trial(be, 512, 50000, 10);
	ck_assert(!r.generator_limited);
	ck_assert_uint_eq(r.attempted, 500000);
	bm_sim_free(be);
}
END_TEST

/*
 * RFC 2544 §26.4 minimum gap, closed form: a generator at half the line
 * (1 GbE, 512 B: line 234,962.4 fps) leaves frame j of a burst
 * j (1/cap - 1/line) = j x 4.2553 us behind back to back; the burst is
 * the generator's failing once its last frame is more than
 * BM_BURST_GAP_TOL_S (10 us) behind: 3 frames (8.51 us) not, 4 (12.77 us)
 * yes.  At the line, nothing is behind.
 */
static void burst_spec(struct bm_trial_spec *s, uint64_t n)
{
	bm_trial_spec_rate(s, 512, 0.0, 2.0);
	s->pair.pattern = BM_PAT_BURST;
	s->pair.burst_frames = n;
}

START_TEST(test_burst_gaps)
{
	double line = bm_fps_max(1e9, 512), step;
	struct bm_sim_params p;
	struct bm_trial_spec s;
	struct bm_trial_result r;
	struct bm_backend *be;
	struct bm_error err;
	uint64_t n;

	bm_sim_params_default(&p);
	p.line_rate_bps = 1e9;
	p.generator_max_fps = line / 2;
	step = 2.0 / line - 1.0 / line;
	be = mk(&p);
	for (n = 1; n <= 5; n++) {
		burst_spec(&s, n);
		ck_assert_int_eq(bm_run_trial(be, &s, &r, &err), 0);
		ck_assert(r.burst_gaps_measured);
		ck_assert_double_eq_tol(r.tx_burst_late_max_s,
					(double)(n - 1) * step, 1e-12);
		ck_assert(r.generator_limited == (n >= 4));
		ck_assert_uint_eq(r.attempted, n);
	}
	bm_sim_free(be);
	p.generator_max_fps = 0;
	be = mk(&p);
	burst_spec(&s, 1000);
	ck_assert_int_eq(bm_run_trial(be, &s, &r, &err), 0);
	ck_assert(r.burst_gaps_measured && r.tx_burst_late_max_s == 0.0);
	ck_assert(!r.generator_limited);
	/* a rate trial has no burst to measure */
	r = rate_trial(be, 512, 1000, 1);
	ck_assert(!r.burst_gaps_measured);
	bm_sim_free(be);
}
END_TEST

START_TEST(test_random_loss_seeded)
{
	struct bm_sim_params p;
	struct bm_backend *a, *b, *c;
	uint64_t la, lb, lc;

	bm_sim_params_default(&p);
	p.random_loss = 0.001;
	p.seed = 42;
	a = mk(&p);
	b = mk(&p);
	p.seed = 43;
	c = mk(&p);
	la = rate_trial(a, 64, 100000, 10).lost;
	lb = rate_trial(b, 64, 100000, 10).lost;
	lc = rate_trial(c, 64, 100000, 10).lost;
	/* same seed, same result; mean 1000 +- 5 sigma */
	ck_assert_uint_eq(la, lb);
	ck_assert_uint_ne(la, lc);
	ck_assert(la > 840 && la < 1160);
	/* tiny mean: exact binomial inversion, still > 0 at 14 expected */
	la = rate_trial(a, 64, 235, 60).lost;
	ck_assert(la > 0 && la < 40);
	bm_sim_free(a);
	bm_sim_free(b);
	bm_sim_free(c);
}
END_TEST

START_TEST(test_gradual_curve)
{
	struct bm_sim_params p;
	struct bm_backend *be;
	struct bm_trial_result r;

	bm_sim_params_default(&p);
	p.curve = BM_SIM_GRADUAL;
	p.knee_fps = 100000;
	p.gradual_slope = 0.1;
	be = mk(&p);
	ck_assert_uint_eq(rate_trial(be, 64, 100000, 10).lost, 0);
	/* just above the knee: at least one frame */
	ck_assert_uint_ge(rate_trial(be, 64, 100001, 10).lost, 1);
	/* ratio = 0.1 * (200000 - 100000) / 200000 = 5 % */
	r = rate_trial(be, 64, 200000, 10);
	ck_assert_uint_eq(r.lost, 100000);
	bm_sim_free(be);
}
END_TEST

START_TEST(test_bidir_mtu_drain_overhead)
{
	struct bm_sim_params p;
	struct bm_backend *be;
	struct bm_trial_spec s;
	struct bm_trial_result r;
	struct bm_error err;

	tbf300(&p);
	p.max_frame_size = 1518;
	p.trial_overhead_s = 7;
	be = mk(&p);
	bm_trial_spec_rate(&s, 512, 1000, 10);
	s.pair.topology = BM_TOPO_PAIR_BIDIR;
	ck_assert_int_eq(bm_run_trial(be, &s, &r, &err), 0);
	ck_assert_uint_eq(r.attempted, 20000);
	ck_assert_uint_eq(r.received, 20000);
	ck_assert_double_eq_tol(be->elapsed_s, 17, 1e-9);
	/* R2544-SIZES §9.4: too large for the egress MTU, not forwarded */
	r = rate_trial(be, 9216, 1000, 10);
	ck_assert_uint_eq(r.received, 0);
	ck_assert_uint_eq(r.lost, 10000);
	bm_sim_free(be);
	/* a 1e6-frame queue does not drain within 2 s at 70 kfps: late */
	tbf300(&p);
	p.buffer_frames = 1000000;
	be = mk(&p);
	r = rate_trial(be, 512, 170488.72, 10);
	ck_assert_uint_gt(r.late, 0);
	ck_assert_uint_eq(r.late + 0, r.lost);
	/* REQ-RX-3: the model sees every late frame, not a watch's worth */
	ck_assert(r.late_watch_s < 0);
	bm_sim_free(be);
}
END_TEST

START_TEST(test_tagged_frame)
{
	struct bm_sim_params p;
	struct bm_backend *be;
	struct bm_trial_spec s;
	struct bm_trial_result r;
	struct bm_error err;

	tbf300(&p);
	p.outage_s = 1.0;
	p.outage_at_s = 59.5;
	p.outage_trials = 1;
	be = mk(&p);
	bm_trial_spec_rate(&s, 512, 50000, 120);
	s.pair.tag = true;
	s.pair.tag_at_s = 60;
	/* the first trial loses its tag in the outage, the next does not */
	ck_assert_int_eq(bm_run_trial(be, &s, &r, &err), 0);
	ck_assert_double_eq_tol(r.tag_tx_s, 60.0, 1e-9);
	ck_assert(!r.tag_received);
	ck_assert_int_eq(bm_run_trial(be, &s, &r, &err), 0);
	ck_assert(r.tag_received);
	ck_assert_double_eq_tol(r.tag_latency_ns, 5000, 1e-6);
	bm_sim_free(be);
}
END_TEST

START_TEST(test_json_constructor)
{
	struct bm_error err = { "" };
	json_object *o = json_tokener_parse(
		"{\"capacity_bps\": 300e6, \"bucket_bytes\": 3200,"
		" \"buffer_frames\": 1000, \"curve\": \"gradual\","
		" \"outage_ref\": \"step\", \"seed\": 7}");
	struct bm_backend *be = bm_sim_new_json(o, &err);
	const struct bm_sim_params *p;

	ck_assert_msg(be, "%s", err.msg);
	ck_assert(bm_backend_is_sim(be));
	p = bm_sim_params_of(be);
	ck_assert_double_eq(p->capacity_bps, 300e6);
	ck_assert_uint_eq(p->buffer_frames, 1000);
	ck_assert_int_eq(p->curve, BM_SIM_GRADUAL);
	ck_assert_int_eq(p->outage_ref, BM_SIM_OUTAGE_STEP);
	ck_assert_double_eq(be->line_rate_bps, 1e9);
	bm_sim_free(be);
	json_object_put(o);

	be = bm_sim_new_json(NULL, &err);
	ck_assert_ptr_nonnull(be);
	bm_sim_free(be);

	sim_json_rejects("{\"capacity\": 1}", "capacity: unknown parameter");
	sim_json_rejects("{\"buffer_frames\": 1.5}", "buffer_frames: expected an integer");
	sim_json_rejects("{\"buffer_frames\": -1}", "buffer_frames: must be in");
	sim_json_rejects("{\"line_rate_bps\": 0}", "line_rate_bps: must be in");
	sim_json_rejects("{\"random_loss\": 1}", "random_loss");
	sim_json_rejects("{\"curve\": \"steep\"}", "curve: expected one of");
	sim_json_rejects("{\"capacity_bps\": \"fast\"}", "capacity_bps: expected a number");
	sim_json_rejects("[1, 2]", "must be a JSON object");
	sim_json_rejects("{\"latency_jitter_ns\": 20000}", "latency_jitter_ns");
	/* RFC 2544 §11.4 filters: pairs of dotted quads */
	sim_json_rejects("{\"filter_permit\": [[\"198.18.1.2\"]]}",
			 "filter_permit[0]: expected [source, destination]");
	sim_json_rejects("{\"filter_permit\": [[\"198.18.1.2\", \"198.19.1\"]]}",
			 "filter_permit[0]: expected an IPv4 address");
	sim_json_rejects("{\"filter_permit\": {}}",
			 "filter_permit: expected an array");
	o = json_tokener_parse("{\"filter_permit\": [[\"198.18.1.2\", "
			       "\"198.19.65.2\"], [\"10.0.0.1\", \"10.0.0.2\"]]}");
	be = bm_sim_new_json(o, &err);
	ck_assert_ptr_nonnull(be);
	p = bm_sim_params_of(be);
	ck_assert_uint_eq(p->n_permit, 2);
	ck_assert_uint_eq(p->permit[0][1][2], 65);
	ck_assert_uint_eq(p->permit[1][0][0], 10);
	bm_sim_free(be);
	json_object_put(o);
}
END_TEST

static Suite *sim_suite(void)
{
	Suite *s = suite_create("sim");
	TCase *tc = tcase_create("model");

	tcase_add_test(tc, test_capacity_300m_512);
	tcase_add_test(tc, test_cbr_matches_model_tbf);
	tcase_add_test(tc, test_short_trial_absorbs_buffer);
	tcase_add_test(tc, test_burst_model_tbf);
	tcase_add_test(tc, test_burst_counts_whole_trial);
	tcase_add_test(tc, test_latency_queueing);
	tcase_add_test(tc, test_step_recovery);
	tcase_add_test(tc, test_reset_hook_gap);
	tcase_add_test(tc, test_generator_limit);
	tcase_add_test(tc, test_burst_gaps);
	tcase_add_test(tc, test_random_loss_seeded);
	tcase_add_test(tc, test_gradual_curve);
	tcase_add_test(tc, test_bidir_mtu_drain_overhead);
	tcase_add_test(tc, test_tagged_frame);
	suite_add_tcase(s, tc);
	tc = tcase_create("json");
	tcase_add_test(tc, test_json_constructor);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tj_run_suite(sim_suite());
}

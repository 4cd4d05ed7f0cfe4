// SPDX-License-Identifier: GPL-2.0
/*
 * rfc9004.back-to-back (RFC 9004, updating RFC 2544 §26.4) on the
 * simulated DUT, against a closed-form truth.
 *
 * The sim's DUT-TBF (bm_sim.h, MODEL-TBF): a FIFO of Q frames ahead of a
 * token bucket of b bytes refilled at the DUT's rate; with overhead 24 a
 * frame costs A = F + 20 bytes, so the DUT forwards T = C / (8 A) fps
 * where the line carries R = L / (8 A).  A burst of n frames at the line
 * passes iff n <= Q + floor(K + T (n - 1) / R), K = b / A the bucket's
 * frames: the DUT buffers Q' = Q + K frames while it forwards at T, so
 * the longest loss-free burst is, within the floor's one frame,
 *
 *   B = Q' R / (R - T)
 *
 * and RFC 9004 §6.4's Implied DUT Buffer Time is B / R, its Corrected
 * one B / R (1 - T / R) = Q' / R: the buffer's frames at the line rate.
 */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check_util.h"
#include "bm_procedure.h"
#include "bm_sim.h"
#include "keep_result.h"
#include "rfc9004.h"

#define NAME "rfc9004.back-to-back"

static struct bm_backend *tbf(double c_bps, double b, uint64_t q)
{
	struct bm_sim_params sp;
	struct bm_error err = { "" };
	struct bm_backend *be;

	bm_sim_params_default(&sp);	/* 1 Gbit/s line, overhead 24 */
	sp.capacity_bps = c_bps;
	sp.bucket_bytes = b;
	sp.buffer_frames = q;
	be = bm_sim_new(&sp, &err);
	ck_assert_msg(be, "bm_sim_new: %s", err.msg);
	return be;
}

static json_object *run(struct bm_backend *be, const char *js)
{
	struct bm_error err = { "" };
	json_object *params = json_tokener_parse(js), *doc = NULL;
	int ret;

	ck_assert_msg(params, "not JSON: %s", js);
	ret = bm_procedure_run(NAME, params, be, NULL, NULL, &doc, &err);
	ck_assert_msg(ret == 0, "%s: %s", js, err.msg);
	json_object_put(params);
	bm_test_keep_result(doc, NAME);
	return doc;
}

static json_object *entry(json_object *doc, size_t i)
{
	json_object *a = tj_get(tj_get(doc, "results"), "per_size");

	ck_assert_uint_gt(json_object_array_length(a), i);
	return json_object_array_get_idx(a, i);
}

static const char *str(json_object *o, const char *key)
{
	return json_object_get_string(tj_get(o, key));
}

/* Line 1 Gbit/s, DUT 400 Mbit/s (T = 0.4 R), Q = 1000, b = 1600 B, at
 * 512 B: K = 1600 / 532, Q' = 1003.0075, B = Q' / 0.6 = 1671.68 (the
 * floor makes it 1671); Implied 1671.68 / R, Corrected Q' / R. */
static void check_truth(json_object *e, double thr_tol)
{
	double R = bm_fps_max(1e9, 512), T = 0.4 * R;
	double qe = 1000.0 + 1600.0 / 532.0, B = qe * R / (R - T);

	ck_assert_str_eq(str(e, "result"), "ok");
	ck_assert_double_eq_tol(tj_num(e, "theoretical_max_fps"), R, 1e-6);
	ck_assert_double_eq_tol(tj_num(e, "throughput_fps"), T, thr_tol * T);
	ck_assert_double_eq_tol(tj_num(e, "mean_frames"), B, 1.0);
	ck_assert_double_eq_tol(tj_num(e, "min_frames"), B, 1.0);
	ck_assert_double_eq_tol(tj_num(e, "max_frames"), B, 1.0);
	ck_assert_double_eq(tj_num(e, "stddev_frames"), 0.0);
	ck_assert_double_eq_tol(tj_num(e, "implied_buffer_time_s"), B / R,
				0.01 * B / R);
	ck_assert_double_eq_tol(tj_num(e, "corrected_buffer_time_s"), qe / R,
				0.01 * qe / R);
	ck_assert_uint_eq((uint64_t)tj_num(e, "burst_max"), llround(R));
	ck_assert_uint_eq((uint64_t)tj_num(e, "resolution_frames"), 1);
	ck_assert_uint_eq((uint64_t)tj_num(e, "repetitions"), 5);
	ck_assert_uint_eq(json_object_array_length(tj_get(e,
			  "repetition_frames")), 5);
}

/* The truth from a given throughput (§5), and a size whose throughput is
 * the line's skipped (§6.1). */
START_TEST(test_given_throughput)
{
	struct bm_backend *be = tbf(400e6, 1600, 1000);
	double R = bm_fps_max(1e9, 512), R2 = bm_fps_max(1e9, 1518);
	char js[256];
	json_object *doc, *e;

	snprintf(js, sizeof(js), "{\"frame_sizes\": [512, 1518], "
		 "\"throughput_fps\": [%.17g, %.17g], \"repetitions\": 5}",
		 0.4 * R, R2);
	doc = run(be, js);
	check_truth(entry(doc, 0), 1e-12);
	ck_assert_str_eq(str(entry(doc, 0), "throughput_source"), "given");
	e = entry(doc, 1);
	ck_assert_ptr_nonnull(strstr(str(e, "result"), "skipped"));
	ck_assert_ptr_nonnull(strstr(str(e, "result"), "RFC 9004 §6.1"));
	ck_assert_ptr_null(tj_get(e, "mean_frames"));
	ck_assert_ptr_null(tj_get(e, "corrected_buffer_time_s"));
	ck_assert_str_eq(str(tj_get(doc, "procedure"), "id"), NAME);
	ck_assert(tj_has_deviation(doc, "RFC 9004 §6.2"));
	ck_assert(tj_has_deviation(doc, "fewer repetitions"));
	json_object_put(doc);
	bm_sim_free(be);
}
END_TEST

/* The throughput measured first (RFC 2544 §26.1, resolution 0.1 %):
 * the same truth; a DUT at the line has every size skipped. */
START_TEST(test_measured_throughput)
{
	struct bm_backend *be = tbf(400e6, 1600, 1000);
	json_object *doc, *e;

	doc = run(be, "{\"frame_sizes\": [512], \"repetitions\": 5, "
		  "\"throughput_trial_duration_s\": 10, "
		  "\"throughput_search_trial_duration_s\": 10}");
	e = entry(doc, 0);
	check_truth(e, 0.002);
	ck_assert_str_eq(str(e, "throughput_source"), "binary");
	json_object_put(doc);
	bm_sim_free(be);

	be = tbf(0, 1600, 1000);	/* no shaper: the line's rate */
	doc = run(be, "{\"frame_sizes\": [64, 1518], \"repetitions\": 5, "
		  "\"throughput_trial_duration_s\": 10, "
		  "\"throughput_search_trial_duration_s\": 10}");
	ck_assert_ptr_nonnull(strstr(str(entry(doc, 0), "result"), "skipped"));
	ck_assert_ptr_nonnull(strstr(str(entry(doc, 1), "result"), "skipped"));
	json_object_put(doc);
	bm_sim_free(be);
}
END_TEST

/* §6.2: a burst at the upper limit that loses nothing is no result. */
START_TEST(test_upper_limit)
{
	struct bm_backend *be = tbf(400e6, 1600, 1000000);
	double R = bm_fps_max(1e9, 512);
	char js[160];
	json_object *doc, *e;

	snprintf(js, sizeof(js), "{\"frame_sizes\": [512], \"throughput_fps\": "
		 "%.17g, \"burst_max_s\": 0.001, \"repetitions\": 5}", 0.4 * R);
	doc = run(be, js);
	e = entry(doc, 0);
	ck_assert_ptr_nonnull(strstr(str(e, "result"), "raise burst_max_s"));
	ck_assert_ptr_null(tj_get(e, "mean_frames"));
	ck_assert_uint_eq(json_object_array_length(tj_get(doc, "trials")), 1);
	json_object_put(doc);
	bm_sim_free(be);
}
END_TEST

/* Bad parameters: refused, one line naming the key. */
START_TEST(test_refused)
{
	static const char *const bad[][2] = {
		{ "{\"depletion_s\": 1}", "depletion_s" },
		{ "{\"burst_max_s\": 0}", "burst_max_s" },
		{ "{\"burst_max_s\": 61}", "burst_max_s" },
		{ "{\"repetitions\": 0}", "repetitions" },
		{ "{\"throughput_fps\": -5}", "throughput_fps" },
		{ "{\"throughput_fps\": [1000, 2000]}",
		  "throughput_fps: 2 rates for 7 frame sizes" },
		{ "{\"frame_sizes\": [32]}", "frame_sizes" },
		{ "{\"throughput_search_trial_duration_s\": 120}",
		  "throughput_search_trial_duration_s" },
		{ "{\"burst_max\": 64}", "burst_max" },
	};
	struct bm_error err;
	json_object *o;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		o = json_tokener_parse(bad[i][0]);
		err.msg[0] = '\0';
		ck_assert_int_eq(bm_procedure_validate(NAME, o, 1e9, &err),
				 -EINVAL);
		ck_assert_msg(strstr(err.msg, bad[i][1]), "%s: %s", bad[i][0],
			      err.msg);
		ck_assert_msg(!strchr(err.msg, '\n'), "%s", err.msg);
		json_object_put(o);
	}
}
END_TEST

static Suite *rfc9004_suite(void)
{
	Suite *s = suite_create("rfc9004");
	TCase *tc = tcase_create("back-to-back");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_given_throughput);
	tcase_add_test(tc, test_measured_throughput);
	tcase_add_test(tc, test_upper_limit);
	tcase_add_test(tc, test_refused);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tj_run_suite(rfc9004_suite());
}

// SPDX-License-Identifier: GPL-2.0
/*
 * RFC 8238 §2 latency events (REQ-TS-2, SPEC R8238-LAT acceptance (c):
 * the F-16 example) and the repeatability block (REQ-STAT-5, SPEC 2.6 PV).
 */
#include <check.h>
#include <math.h>
#include <string.h>

#include "bm_events.h"
#include "bm_repeat.h"
#include "bm_trial.h"
#include "check_util.h"

/* FF = 500 ns at 10 Gbit/s, 1518 B: S = 1214.4 ns; FL = 1714.4, LL = 500,
 * LF = -714.4 (negative: a cut-through device's LIFO, [8238 §2.2]). */
START_TEST(f16_example)
{
	double s = bm_serialisation_ns(1518, 10e9);

	ck_assert_double_eq_tol(s, 1214.4, 1e-9);
	ck_assert_double_eq_tol(bm_lat_event_ns(BM_EV_FF, 500, s, s), 500, 1e-9);
	ck_assert_double_eq_tol(bm_lat_event_ns(BM_EV_FL, 500, s, s), 1714.4,
				1e-9);
	ck_assert_double_eq_tol(bm_lat_event_ns(BM_EV_LL, 500, s, s), 500, 1e-9);
	ck_assert_double_eq_tol(bm_lat_event_ns(BM_EV_LF, 500, s, s), -714.4,
				1e-9);
	/* unequal links: S_in at 10 G, S_out at 1 G */
	ck_assert_double_eq_tol(bm_lat_event_ns(BM_EV_LL, 500, s,
						bm_serialisation_ns(1518, 1e9)),
				500 + 12144 - 1214.4, 1e-6);
	ck_assert_str_eq(bm_lat_event_label(BM_EV_FL), "FL (FILO)");
	ck_assert_str_eq(bm_lat_event_names[BM_EV_LF], "LF");
	ck_assert_ptr_null(bm_lat_event_names[4]);
}
END_TEST

START_TEST(repeat_block)
{
	const double x[5] = { 100, 102, 98, 101, 99 };
	const double y[2] = { 1, 2 };
	struct bm_repeat r;
	json_object *o, *pv;

	bm_repeat_of(x, 5, &r);
	ck_assert_uint_eq(r.n, 5);
	ck_assert_double_eq(r.min, 98);
	ck_assert_double_eq(r.max, 102);
	ck_assert_double_eq_tol(r.mean, 100, 1e-12);
	/* sample stddev: sqrt((0 + 4 + 4 + 1 + 1) / 4) */
	ck_assert_double_eq_tol(r.stddev, sqrt(2.5), 1e-12);
	ck_assert_double_eq_tol(r.rsd_pct, sqrt(2.5), 1e-12);
	ck_assert(r.rsd_ok);
	o = bm_repeat_to_json(&r, x);
	pv = tj_get(o, "pv_pct");
	ck_assert_uint_eq(json_object_array_length(pv), 4);
	ck_assert_double_eq_tol(json_object_get_double(
		json_object_array_get_idx(pv, 0)), 2.0, 1e-12);
	ck_assert_double_eq_tol(json_object_get_double(
		json_object_array_get_idx(pv, 1)), -400.0 / 102, 1e-12);
	json_object_put(o);
	/* RSD 47 %: not ok (RFC 8239 §1.2: below 10 %) */
	bm_repeat_of(y, 2, &r);
	ck_assert_double_eq_tol(r.rsd_pct, 100 * sqrt(0.5) / 1.5, 1e-12);
	ck_assert(!r.rsd_ok);
	/* one value: no spread; none: an empty block */
	bm_repeat_of(y, 1, &r);
	ck_assert_double_eq(r.stddev, 0);
	ck_assert(r.rsd_ok);
	bm_repeat_of(y, 0, &r);
	ck_assert_uint_eq(r.n, 0);
	ck_assert_double_eq(bm_pv_pct(0, 5), 0);
}
END_TEST

/*
 * A repetition nothing could be estimated from is NaN (rfc8239's Buf_q
 * of a fill with no inflection): its value and the PVs next to it are
 * null, as every unknown number of a result is.  json-c would write
 * NaN, which is not JSON (RFC 8259 section 6), and a strict reader
 * refuses the whole result.  Found by tests/fuzz/fuzz_dryrun: every
 * default rfc8239 buffer dry run.
 */
START_TEST(repeat_block_nan_is_null)
{
	const double x[3] = { 100, NAN, 110 };
	struct bm_repeat r;
	json_object *o, *v, *pv;
	const char *s;

	bm_repeat_of(x, 3, &r);
	o = bm_repeat_to_json(&r, x);
	v = tj_get(o, "values");
	pv = tj_get(o, "pv_pct");
	ck_assert_uint_eq(json_object_array_length(v), 3);
	ck_assert_double_eq(json_object_get_double(
		json_object_array_get_idx(v, 0)), 100);
	ck_assert_ptr_null(json_object_array_get_idx(v, 1));
	ck_assert_uint_eq(json_object_array_length(pv), 2);
	ck_assert_ptr_null(json_object_array_get_idx(pv, 0));
	ck_assert_ptr_null(json_object_array_get_idx(pv, 1));
	s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	ck_assert_msg(!strstr(s, "NaN") && !strstr(s, "Infinity"), "%s", s);
	json_object_put(o);
	/* the spread is of the repetitions that measured something */
	ck_assert_uint_eq(r.n_valid, 2);
	ck_assert_double_eq(r.mean, 105);
	ck_assert_double_eq_tol(r.stddev, sqrt(50), 1e-12);
	ck_assert(r.rsd_ok);
}
END_TEST

/*
 * An estimator whose every repetition measured nothing (a dry run with
 * no oversubscription frames) said "RSD 0.0 % >= 10 %": its mean was NaN,
 * so rsd_ok was false.  Nothing to judge is no failed judgement: min,
 * mean, max and rsd_pct are null, rsd_ok true, n_valid 0.
 */
START_TEST(repeat_block_all_nan)
{
	const double x[3] = { NAN, NAN, NAN };
	struct bm_repeat r;
	json_object *o;

	bm_repeat_of(x, 3, &r);
	ck_assert_uint_eq(r.n, 3);
	ck_assert_uint_eq(r.n_valid, 0);
	ck_assert(r.rsd_ok);
	o = bm_repeat_to_json(&r, x);
	ck_assert_ptr_null(tj_get(o, "mean"));
	ck_assert_ptr_null(tj_get(o, "rsd_pct"));
	ck_assert(json_object_get_boolean(tj_get(o, "rsd_ok")));
	json_object_put(o);
}
END_TEST

/* The report's histogram: 4 buckets per octave from 64 ns. */
START_TEST(lat_hist_buckets)
{
	unsigned int i;

	ck_assert_uint_eq(bm_lat_hist_index(0), 0);
	ck_assert_uint_eq(bm_lat_hist_index(63.9), 0);
	ck_assert_uint_eq(bm_lat_hist_index(64), 1);
	ck_assert_uint_eq(bm_lat_hist_index(80), 2);	/* 64 x 1.25 */
	ck_assert_uint_eq(bm_lat_hist_index(127.9), 4);
	ck_assert_uint_eq(bm_lat_hist_index(128), 5);
	ck_assert_uint_eq(bm_lat_hist_index(1e12), BM_LAT_HIST_BUCKETS - 1);
	ck_assert_double_eq(bm_lat_hist_lower_ns(0), 0);
	ck_assert_double_eq(bm_lat_hist_lower_ns(2), 80);
	/* every bucket's lower edge is in that bucket */
	for (i = 1; i < BM_LAT_HIST_BUCKETS; i++)
		ck_assert_uint_eq(bm_lat_hist_index(bm_lat_hist_lower_ns(i)), i);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("events");
	TCase *tc = tcase_create("events");

	tcase_add_test(tc, f16_example);
	tcase_add_test(tc, repeat_block);
	tcase_add_test(tc, repeat_block_nan_is_null);
	tcase_add_test(tc, repeat_block_all_nan);
	tcase_add_test(tc, lat_hist_buckets);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tj_run_suite(suite());
}

// SPDX-License-Identifier: GPL-2.0
/*
 * A stream sent as lanes (backends/lanes.c, bm_genl_stats_lane_add in
 * backends/genl_stats_math.c) against closed forms: the lanes' departures are the
 * stream's schedule, frame for frame, and their statistics merge back
 * into the one stream's.  The module's side (lanes on kthreads, through
 * a DUT) is checked in the lab (tests/lab/dataplane/lanes.sh).
 */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bmgen.h>

#include "bm_genl.h"
#include "bm_lanes.h"
#include "check_util.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * Frame k of a stream of n frames at fps from start leaves at
 * start + k / fps.  Lane i of L sends frames i, i + L, ...: its j-th at
 * start_i + j / fps_i.  All lanes' departures, sorted, are the stream's,
 * to 1e-6 of a frame interval, and the counts add up to n.
 */
START_TEST(test_plan_is_the_schedule)
{
	static const uint64_t ns[] = { 1, 2, 7, 1000, 1001, 4099 };
	static const unsigned int ls[] = { 1, 2, 3, 4, 8 };
	const double fps = 14880952.0, start = 0.25;
	unsigned int a, b, i;

	for (a = 0; a < sizeof(ns) / sizeof(ns[0]); a++) {
		for (b = 0; b < sizeof(ls) / sizeof(ls[0]); b++) {
			uint64_t n = ns[a], got = 0, j, k;
			unsigned int lanes = ls[b];
			double *t;

			if (lanes > n)
				continue;
			t = calloc(n, sizeof(*t));
			ck_assert_ptr_nonnull(t);
			for (i = 0; i < lanes; i++) {
				struct bm_lane l;

				bm_lane_plan(n, fps, start, lanes, i, &l);
				ck_assert_double_eq_tol(l.fps, fps / lanes, 1e-6);
				for (j = 0; j < l.count; j++)
					t[got++] = l.start_s + j / l.fps;
			}
			ck_assert_uint_eq(got, n);
			qsort(t, n, sizeof(*t), cmp_double);
			for (k = 0; k < n; k++)
				ck_assert_double_eq_tol(t[k], start + k / fps,
							1e-6 / fps);
			free(t);
		}
	}
}
END_TEST

/* Unpaced: every lane starts with the stream, the counts still add up. */
START_TEST(test_plan_unpaced)
{
	struct bm_lane l;
	uint64_t sum = 0;
	unsigned int i;

	for (i = 0; i < 3; i++) {
		bm_lane_plan(10, 0, 1.5, 3, i, &l);
		ck_assert_double_eq(l.fps, 0);
		ck_assert_double_eq(l.start_s, 1.5);
		sum += l.count;
	}
	ck_assert_uint_eq(sum, 10);
	bm_lane_plan(10, 0, 0, 3, 0, &l);
	ck_assert_uint_eq(l.count, 4);	/* frames 0, 3, 6, 9 */
}
END_TEST

static void stats_init(struct bm_genl_stats *st)
{
	memset(st, 0, sizeof(*st));
	st->hist = calloc(BMGEN_HIST_BUCKETS, sizeof(*st->hist));
	ck_assert_ptr_nonnull(st->hist);
}

/*
 * Two lanes of one stream: counts add, first events are the earlier,
 * last the later, latency merges (min, max, count, sum, histogram), the
 * stalls keep the largest eight, done only when both are, and the path
 * is "mixed" when they differ.
 */
START_TEST(test_merge)
{
	struct bm_genl_stats a, b;
	uint32_t i;

	stats_init(&a);
	stats_init(&b);
	a.tx_frames = 500; b.tx_frames = 499;
	a.tx_bytes = 32000; b.tx_bytes = 31936;
	a.rx_frames = a.rx_unique = 498; b.rx_frames = 500; b.rx_unique = 499;
	b.rx_dup = 1;
	a.rx_reordered = 2; b.rx_reordered = 3;
	a.rx_gap_events = 1; a.rx_gap_frames = 2;
	a.tx_first_ns = 1000; b.tx_first_ns = 1100;
	a.tx_last_ns = 50000; b.tx_last_ns = 50100;
	a.rx_first_ns = 1500; b.rx_first_ns = 1400;
	a.rx_last_ns = 52000; b.rx_last_ns = 51000;
	a.lat_count = 498; a.lat_min_ns = 300; a.lat_max_ns = 900;
	a.lat_sum_ns = 498 * 500;
	b.lat_count = 499; b.lat_min_ns = 250; b.lat_max_ns = 800;
	b.lat_sum_ns = 499 * 400;
	a.hist[bmgen_hist_index(500)] = 498;
	b.hist[bmgen_hist_index(400)] = 499;
	a.rx_dscp[46] = 498; b.rx_dscp[46] = 499;
	a.tx_late_max_ns = 7; b.tx_late_max_ns = 9;
	a.tx_stalls_ns[0] = 90; a.tx_stalls_ns[1] = 40;
	b.tx_stalls_ns[0] = 60; b.tx_stalls_ns[1] = 50; b.tx_stalls_ns[2] = 10;
	a.tx_done = 1; b.tx_done = 1;
	a.tx_path = BMGEN_TXP_RECYCLE; b.tx_path = BMGEN_TXP_RECYCLE;
	a.ipdv_count = 497; a.ipdv_min_ns = -20; a.ipdv_max_ns = 30;
	b.ipdv_count = 498; b.ipdv_min_ns = -40; b.ipdv_max_ns = 10;

	bm_genl_stats_lane_add(&a, &b);
	ck_assert_uint_eq(a.tx_frames, 999);
	ck_assert_uint_eq(a.tx_bytes, 63936);
	ck_assert_uint_eq(a.rx_frames, 998);
	ck_assert_uint_eq(a.rx_unique, 997);
	ck_assert_uint_eq(a.rx_dup, 1);
	ck_assert_uint_eq(a.rx_reordered, 5);
	ck_assert_uint_eq(a.rx_gap_events, 1);
	ck_assert_uint_eq(a.tx_first_ns, 1000);
	ck_assert_uint_eq(a.tx_last_ns, 50100);
	ck_assert_uint_eq(a.rx_first_ns, 1400);
	ck_assert_uint_eq(a.rx_last_ns, 52000);
	ck_assert_uint_eq(a.lat_count, 997);
	ck_assert_uint_eq(a.lat_min_ns, 250);
	ck_assert_uint_eq(a.lat_max_ns, 900);
	ck_assert_uint_eq(a.lat_sum_ns, 498 * 500 + 499 * 400);
	ck_assert_uint_eq(a.hist[bmgen_hist_index(500)], 498);
	ck_assert_uint_eq(a.hist[bmgen_hist_index(400)], 499);
	ck_assert_uint_eq(a.rx_dscp[46], 997);
	ck_assert_uint_eq(a.tx_late_max_ns, 9);
	ck_assert_uint_eq(a.tx_stalls_ns[0], 90);
	ck_assert_uint_eq(a.tx_stalls_ns[1], 60);
	ck_assert_uint_eq(a.tx_stalls_ns[2], 50);
	ck_assert_uint_eq(a.tx_stalls_ns[3], 40);
	ck_assert_uint_eq(a.tx_stalls_ns[4], 10);
	ck_assert_uint_eq(a.tx_stalls_ns[5], 0);
	ck_assert_int_eq(a.tx_done, 1);
	ck_assert_uint_eq(a.tx_path, BMGEN_TXP_RECYCLE);
	ck_assert_uint_eq(a.ipdv_count, 995);
	ck_assert_int_eq(a.ipdv_min_ns, -40);
	ck_assert_int_eq(a.ipdv_max_ns, 30);
	ck_assert_str_eq(bm_genl_tx_path_name(a.tx_path), "recycle");
	ck_assert_str_eq(bm_genl_tx_path_name(BMGEN_TXP_XDP), "xdp");
	ck_assert_str_eq(bm_genl_tx_path_name(BMGEN_TXP_MAX + 1), "unknown");

	/* a lane on the other path, one not done */
	b.tx_path = BMGEN_TXP_ALLOC;
	b.tx_done = 0;
	bm_genl_stats_lane_add(&a, &b);
	ck_assert_uint_eq(a.tx_path, BM_GENL_TXP_MIXED);
	ck_assert_str_eq(bm_genl_tx_path_name(a.tx_path), "mixed");
	ck_assert_int_eq(a.tx_done, 0);
	for (i = 0; i < BMGEN_TX_STALLS - 1; i++)
		ck_assert_uint_ge(a.tx_stalls_ns[i], a.tx_stalls_ns[i + 1]);
	bm_genl_stats_free(&a);
	bm_genl_stats_free(&b);
}
END_TEST

/* A lane that sent nothing moves no first or last event, and gives a
 * stream that had sent nothing its own path. */
START_TEST(test_merge_empty_lane)
{
	struct bm_genl_stats a, b;

	stats_init(&a);
	stats_init(&b);
	a.tx_frames = 3; a.tx_first_ns = 500; a.tx_last_ns = 900;
	a.tx_path = BMGEN_TXP_ALLOC;
	b.tx_first_ns = 1; b.tx_last_ns = 5000;	/* stale: no frames */
	b.tx_path = BMGEN_TXP_RECYCLE;
	bm_genl_stats_lane_add(&a, &b);
	ck_assert_uint_eq(a.tx_first_ns, 500);
	ck_assert_uint_eq(a.tx_last_ns, 900);
	ck_assert_uint_eq(a.tx_path, BMGEN_TXP_ALLOC);
	bm_genl_stats_free(&a);
	bm_genl_stats_free(&b);

	stats_init(&a);
	stats_init(&b);
	b.tx_frames = 2; b.tx_first_ns = 10; b.tx_last_ns = 20;
	b.tx_path = BMGEN_TXP_RECYCLE;
	bm_genl_stats_lane_add(&a, &b);
	ck_assert_uint_eq(a.tx_first_ns, 10);
	ck_assert_uint_eq(a.tx_path, BMGEN_TXP_RECYCLE);
	bm_genl_stats_free(&a);
	bm_genl_stats_free(&b);
}
END_TEST

/*
 * Across hosts, a receiver whose clock is behind: lane a's 100 frames
 * measured -500 ns each, lane b's 100 frames +100 ns, b carrying the
 * tagged frame at -400 ns (a tag of 0 or less arrived all the same).
 * Closed form: mean -200, sample stddev sqrt(200 * 300^2 / 199), the
 * lower half's quantiles half the min, the upper ones in +100's bucket.
 */
START_TEST(test_merge_below_zero)
{
	struct bm_genl_stats a, b;
	struct bm_latency l;

	stats_init(&a);
	stats_init(&b);
	a.lat_count = 100; a.lat_below_zero = 100;
	a.lat_min_ns = -500; a.lat_max_ns = -500; a.lat_sum_ns = -50000;
	a.lat_sumsq_lo = 100 * 500 * 500;
	a.hist[0] = 100;		/* the module's bucket for below zero */
	b.lat_count = 100;
	b.lat_min_ns = 100; b.lat_max_ns = 100; b.lat_sum_ns = 10000;
	b.lat_sumsq_lo = 100 * 100 * 100;
	b.hist[bmgen_hist_index(100)] = 100;
	b.tag_seen = true; b.tag_lat_ns = -400;

	bm_genl_stats_lane_add(&a, &b);
	ck_assert(a.tag_seen);
	ck_assert_int_eq(a.tag_lat_ns, -400);
	ck_assert_int_eq(a.lat_min_ns, -500);
	ck_assert_int_eq(a.lat_max_ns, 100);
	ck_assert_uint_eq(a.lat_below_zero, 100);
	bm_genl_stats_latency(&a, &l);
	ck_assert_uint_eq(l.count, 200);
	ck_assert_uint_eq(l.below_zero, 100);
	ck_assert_double_eq(l.min_ns, -500);
	ck_assert_double_eq(l.max_ns, 100);
	ck_assert_double_eq(l.mean_ns, -200);
	ck_assert_double_eq_tol(l.stddev_ns, sqrt(200.0 * 90000 / 199), 1e-6);
	ck_assert_double_eq(l.p50_ns, -250);
	ck_assert_double_ge(l.p90_ns, 100 - 1);
	ck_assert_double_le(l.p90_ns, 100 + 1);

	/* all of them below zero: the max too */
	bm_genl_stats_free(&a);
	bm_genl_stats_free(&b);
	stats_init(&b);
	b.lat_count = 1; b.lat_below_zero = 1;
	b.lat_min_ns = b.lat_max_ns = b.lat_sum_ns = -7;
	b.lat_sumsq_lo = 49;
	stats_init(&a);
	bm_genl_stats_lane_add(&a, &b);
	ck_assert_int_eq(a.lat_max_ns, -7);
	ck_assert(!a.tag_seen);
	bm_genl_stats_free(&a);
	bm_genl_stats_free(&b);
}
END_TEST

static Suite *lanes_suite(void)
{
	Suite *s = suite_create("lanes");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_plan_is_the_schedule);
	tcase_add_test(tc, test_plan_unpaced);
	tcase_add_test(tc, test_merge);
	tcase_add_test(tc, test_merge_empty_lane);
	tcase_add_test(tc, test_merge_below_zero);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tj_run_suite(lanes_suite());
}

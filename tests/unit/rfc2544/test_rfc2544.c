// SPDX-License-Identifier: GPL-2.0
/*
 * The six RFC 2544 §26 benchmarks against simulated DUTs whose truth is
 * known, with the SPEC 7.3 acceptance numbers: R2544-THRPT (a), -BIDIR,
 * -MAXRATE, -APPB (Ethernet), -LAT (a)(b)(c), -FLR table and stop rule,
 * -B2B 103/104 +- 1, -RECOV (a)(b), -RESET 3.0 s and 33 s.
 */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_util.h"
#include "bm_sim.h"
#include "keep_result.h"
#include "rfc2544.h"
#include "rfc2544_check.h"

static struct bm_backend *mk(const struct bm_sim_params *p)
{
	struct bm_error err = { "" };
	struct bm_backend *be = bm_sim_new(p, &err);

	ck_assert_msg(be, "bm_sim_new: %s", err.msg);
	return be;
}

static int cancel_after_two(void *ctx, const struct bm_trial_record *rec,
			    const char *status);

static json_object *get(json_object *o, const char *key)
{
	json_object *v = NULL;

	ck_assert_msg(json_object_object_get_ex(o, key, &v), "no key %s", key);
	return v;
}

static double num(json_object *o, const char *key)
{
	return json_object_get_double(get(o, key));
}

static const char *str(json_object *o, const char *key)
{
	return json_object_get_string(get(o, key));
}

static void sizes(struct rfc2544_params *p, uint32_t a, uint32_t b)
{
	p->frame_sizes[0] = a;
	p->frame_sizes[1] = b;
	p->n_sizes = b ? 2 : 1;
}

/* DUT-TBF(d2, R, b, Q, o = 24) on a notional 1 Gbit/s line. */
static void tbf(struct bm_sim_params *p, double r, double b, uint64_t q)
{
	bm_sim_params_default(p);
	p->capacity_bps = r;
	p->bucket_bytes = b;
	p->buffer_frames = q;
}

/* R2544-THRPT acceptance (a) through the whole benchmark, plus the §26.1
 * MUST statement and the rate units. */
START_TEST(test_throughput)
{
	struct bm_sim_params sp;
	struct rfc2544_params p;
	struct bm_backend *be;
	json_object *doc, *doc2, *e;
	size_t ntr;

	tbf(&sp, 300e6, 3200, 1000);
	be = mk(&sp);
	rfc2544_params_default(&p, RFC2544_THROUGHPUT);
	sizes(&p, 512, 1518);
	doc = r2544_check_run(RFC2544_THROUGHPUT, be, &p);
	ck_assert_str_eq(str(get(doc, "procedure"), "id"), "rfc2544.throughput");
	e = r2544_check_entry(doc, 0);
	/* [C (1 - 0.1 %), C + (Q + b/A)/60 s]: the resolution is relative
	 * to the result, 70.49 fps here, not 0.1 % of r_max */
	ck_assert(num(e, "throughput_fps") >= 70488.72 - 70.49 &&
		  num(e, "throughput_fps") <= 70488.72 + 16.77);
	ck_assert_double_eq(num(e, "resolution_pct_of_result"), 0.1);
	ck_assert_double_eq_tol(num(e, "theoretical_max_fps"), 234962.406, 1e-3);
	ck_assert_double_eq_tol(num(e, "throughput_pct_line"), 30.0, 0.11);
	/* a status like the other five; the limit's link and the
	 * throughput as a share of it (no slowest link: the tester's) */
	ck_assert_str_eq(str(e, "result"), "ok");
	ck_assert_double_eq(num(e, "theoretical_link_bps"), 1e9);
	ck_assert_double_eq_tol(num(e, "throughput_pct_theoretical"),
				100 * num(e, "throughput_fps") / 234962.406, 1e-6);
	ck_assert_double_eq_tol(num(e, "throughput_l1_bps"),
				num(e, "throughput_fps") * 532 * 8, 1e-3);
	ck_assert_double_eq_tol(num(e, "throughput_l2_bps"),
				num(e, "throughput_fps") * 512 * 8, 1e-3);
	ck_assert_ptr_nonnull(strstr(str(e, "statement"),
				     "fps at 512-byte frames (theoretical "
				     "maximum 234962.41 fps)"));
	ntr = (size_t)num(e, "search_trials");
	e = r2544_check_entry(doc, 1);
	ck_assert(num(e, "throughput_fps") >= 24382.31 - 81.27 &&
		  num(e, "throughput_fps") <= 24382.31 + 16.70);
	/* REQ-SRCH-1: every trial is in the document */
	ntr += (size_t)num(e, "search_trials");
	ck_assert_uint_eq(json_object_array_length(get(doc, "trials")), ntr);
	ck_assert(tj_has_deviation(doc, "AMB-16"));
	ck_assert(tj_has_deviation(doc, "backend sim"));
	ck_assert_double_eq(num(e, "disturbed_failures"), 0);
	ck_assert(!json_object_object_get_ex(e, "disturbed_failure_min_fps",
					     NULL));
	ck_assert(!tj_has_deviation(doc, "may be higher"));
	ck_assert(json_object_is_type(get(doc, "params"), json_type_object));
	json_object_put(doc);

	/* a DUT at 1 % of the line (10 Mbit/s tbf, 512 B: C =
	 * 2349.62 fps) within 0.1 % of C; 0.1 % of r_max was 235 fps, 10 % */
	bm_sim_free(be);
	tbf(&sp, 10e6, 3200, 1000);
	be = mk(&sp);
	sizes(&p, 512, 0);
	doc2 = r2544_check_run(RFC2544_THROUGHPUT, be, &p);
	e = r2544_check_entry(doc2, 0);
	ck_assert_msg(num(e, "throughput_fps") >= 2349.62 * 0.999 &&
		      num(e, "throughput_fps") <= 2349.62 + (1000 + 3200 / 532.0) / 60,
		      "throughput %.2f fps", num(e, "throughput_fps"));
	json_object_put(doc2);
	bm_sim_free(be);
	tbf(&sp, 300e6, 3200, 1000);
	be = mk(&sp);
	sizes(&p, 512, 1518);

	/* R2544-BIDIR: the same DUT on both directions, aggregate 140,977. */
	p.topology = BM_TOPO_PAIR_BIDIR;
	sizes(&p, 512, 0);
	doc = r2544_check_run(RFC2544_THROUGHPUT, be, &p);
	e = r2544_check_entry(doc, 0);
	ck_assert(num(e, "throughput_fps") >= 70488.72 - 234.96 &&
		  num(e, "throughput_fps") <= 70488.72 + 16.77);
	ck_assert_double_eq_tol(num(e, "throughput_aggregate_fps"),
				2 * num(e, "throughput_fps"), 1e-6);
	json_object_put(doc);

	/* search = mlr through the same procedure */
	p.topology = BM_TOPO_PAIR_UNI;
	p.search = BM_SEARCH_MLR;
	doc = r2544_check_run(RFC2544_THROUGHPUT, be, &p);
	e = r2544_check_entry(doc, 0);
	ck_assert_str_eq(str(e, "throughput_source"), "mlr");
	ck_assert(num(e, "throughput_fps") >= 70488.72 * 0.995 - 1 &&
		  num(e, "throughput_fps") <= 70488.72 + 33.6);
	ck_assert(tj_has_deviation(doc, "MLRsearch"));
	/* the default timeout scales with the final trials and
	 * their drain and restabilise waits */
	ck_assert_double_eq(num(e, "mlr_timeout_s"), 30 * (60.0 + 2.0 + 5.0));
	json_object_put(doc);

	/* search = rfc9971 (RFC 9971 §4.10.2's goal) through the same
	 * procedure: R2544-THRPT acceptance (a)'s window, its Goal Result
	 * under "rfc9971", the throughput its Relevant Lower Bound */
	p.search = BM_SEARCH_RFC9971;
	doc = r2544_check_run(RFC2544_THROUGHPUT, be, &p);
	e = r2544_check_entry(doc, 0);
	ck_assert_str_eq(str(e, "throughput_source"), "rfc9971");
	ck_assert_msg(num(e, "throughput_fps") >= 70488.72 - 234.96 &&
		      num(e, "throughput_fps") <= 70488.72 + 16.77,
		      "rfc9971 throughput %.2f", num(e, "throughput_fps"));
	ck_assert(json_object_get_boolean(get(get(e, "rfc9971"), "regular")));
	ck_assert_double_eq(num(get(e, "rfc9971"), "relevant_lower_bound_fps"),
			    num(e, "throughput_fps"));
	ck_assert(tj_has_deviation(doc, "§4.10.2"));
	json_object_put(doc);
	p.search = BM_SEARCH_MLR;

	/* a search that runs out of time keeps its trials and
	 * partial bounds, and the next size is still measured */
	sizes(&p, 512, 1518);
	p.mlr_timeout_s = 30.0;
	doc = r2544_check_run(RFC2544_THROUGHPUT, be, &p);
	e = r2544_check_entry(doc, 0);
	ck_assert_str_eq(str(e, "search_result"),
			 "mlr: timed out after 30 s, partial bounds only");
	ck_assert_ptr_null(get(e, "throughput_fps"));
	ck_assert_ptr_null(get(e, "throughput_pct_theoretical"));
	ck_assert_str_eq(str(e, "result"), "not measured: mlr: timed out "
			 "after 30 s, partial bounds only");
	ck_assert(json_object_is_type(get(e, "mlr"), json_type_object));
	ck_assert(json_object_get_boolean(get(get(e, "mlr"), "timed_out")));
	ck_assert_ptr_nonnull(strstr(str(e, "statement"),
				     "not measured at 512-byte frames: mlr: "
				     "timed out"));
	ck_assert_uint_gt(json_object_array_length(get(doc, "trials")), 2);
	ck_assert_str_eq(str(r2544_check_entry(doc, 1), "search_result"),
			 "mlr: timed out after 30 s, partial bounds only");
	ck_assert(tj_has_deviation(doc, "timed out"));
	json_object_put(doc);
	bm_sim_free(be);
}
END_TEST

/*
 * The default time limit of search mlr lets a search that falls to
 * r_min and comes back finish.  A DUT that loses one frame in a million
 * at any rate has no NDR far above r_min at 60 s, so MLRsearch extends
 * down at the final duration and bisects back: 34 trials, 17 of them 60 s
 * long, 1301 s with a 5 s drain each (the simulator's trial_overhead_s
 * stands for the drain, which the backend's clock counts).  The former
 * 20 x 60 s = 1200 s cut it short after 1236 s; 30 x (60 + 5) s = 1950 s.
 */
START_TEST(test_mlr_timeout_default)
{
	struct bm_sim_params sp;
	struct rfc2544_params p;
	struct bm_backend *be;
	json_object *doc, *e, *m;

	tbf(&sp, 900e6, 3200, 1000);
	sp.random_loss = 1e-6;
	sp.seed = 2;
	sp.trial_overhead_s = 5.0;
	be = mk(&sp);
	rfc2544_params_default(&p, RFC2544_THROUGHPUT);
	sizes(&p, 128, 0);
	p.search = BM_SEARCH_MLR;
	p.drain_s = 5.0;
	doc = r2544_check_run(RFC2544_THROUGHPUT, be, &p);
	e = r2544_check_entry(doc, 0);
	m = get(e, "mlr");
	ck_assert_msg(!json_object_get_boolean(get(m, "timed_out")),
		      "timed out after %.0f s of %.0f s",
		      num(m, "search_time_s"), num(e, "mlr_timeout_s"));
	ck_assert_msg(num(m, "search_time_s") > 20 * 60.0,
		      "search %.0f s", num(m, "search_time_s"));
	ck_assert_str_eq(str(e, "search_result"), "mlr: NDR lower bound");
	ck_assert_ptr_nonnull(get(e, "throughput_fps"));
	ck_assert_double_eq(num(e, "mlr_timeout_s"), 30 * (60.0 + 5.0 + 5.0));
	json_object_put(doc);
	bm_sim_free(be);
}
END_TEST

/* R2544-MAXRATE: LAN 64 B at 10 GbE; WAN 110 % of a 100 Mbit/s link with
 * a 1 GbE tester; R2544-APPB Ethernet column = floor(F-5). */
START_TEST(test_maxrate_appb)
{
	static const uint32_t f[] = { 64, 128, 256, 512, 768, 1024, 1280, 1518 };
	static const double appb[] = { 14880, 8445, 4528, 2349, 1586, 1197, 961,
				       812 };
	struct bm_sim_params sp;
	struct rfc2544_params p;
	struct bm_backend *be;
	json_object *doc;
	size_t i;

	ck_assert_double_eq_tol(bm_fps_max(10e9, 64), 14880952.38, 0.01);
	for (i = 0; i < 8; i++)
		ck_assert_double_eq(floor(bm_fps_max(10e6, f[i])), appb[i]);

	bm_sim_params_default(&sp);
	be = mk(&sp);
	rfc2544_params_default(&p, RFC2544_THROUGHPUT);
	sizes(&p, 64, 0);
	p.slowest_link_bps = 100e6;
	p.max_rate_pct = 110;
	doc = r2544_check_run(RFC2544_THROUGHPUT, be, &p);
	ck_assert_double_eq_tol(num(r2544_check_entry(doc, 0), "r_max_fps"), 163690.48, 0.01);
	/* a lossless DUT passes r_max at once */
	ck_assert_double_eq_tol(num(r2544_check_entry(doc, 0), "throughput_fps"), 163690.48,
				0.01);
	ck_assert_str_eq(str(r2544_check_entry(doc, 0), "search_result"),
			 "loss-free at r_max");
	/* the statement's theoretical limit is the slowest
	 * link's (100 Mbit/s: 148809.52 fps), not the tester's 1 Gbit/s */
	ck_assert_double_eq_tol(num(r2544_check_entry(doc, 0), "theoretical_max_fps"),
				148809.52, 0.01);
	ck_assert_ptr_nonnull(strstr(str(r2544_check_entry(doc, 0), "statement"),
				     "theoretical maximum 148809.52 fps of the "
				     "slowest link"));
	/* which link, and the throughput against it: 110 %, what header
	 * compression on a WAN link may carry (R2544-MAXRATE) */
	ck_assert_double_eq(num(r2544_check_entry(doc, 0), "theoretical_link_bps"), 100e6);
	ck_assert_double_eq_tol(num(r2544_check_entry(doc, 0), "throughput_pct_theoretical"),
				110.0, 1e-6);
	json_object_put(doc);
	bm_sim_free(be);
}
END_TEST

/*
 * No throughput is never "ok".  R2544-THRPT (c): a DUT losing
 * 0.1 % at every rate (netem) has none above r_min; a search cancelled
 * mid-way has none either, and says so rather than "not measured: ".
 */
START_TEST(test_throughput_not_measured)
{
	struct bm_error err = { "" };
	struct bm_sim_params sp;
	struct rfc2544_params p;
	struct bm_backend *be;
	json_object *doc = NULL, *e;
	int n = 0;

	bm_sim_params_default(&sp);
	sp.random_loss = 0.001;
	be = mk(&sp);
	rfc2544_params_default(&p, RFC2544_THROUGHPUT);
	sizes(&p, 512, 0);
	doc = r2544_check_run(RFC2544_THROUGHPUT, be, &p);
	e = r2544_check_entry(doc, 0);
	ck_assert_str_eq(str(e, "result"), "not measured: throughput < r_min");
	ck_assert_ptr_null(get(e, "throughput_fps"));
	ck_assert_ptr_null(get(e, "throughput_pct_theoretical"));
	ck_assert(json_object_get_boolean(get(e, "below_r_min")));
	json_object_put(doc);

	/* MLRsearch finds no NDR lower bound either */
	p.search = BM_SEARCH_MLR;
	doc = r2544_check_run(RFC2544_THROUGHPUT, be, &p);
	ck_assert_str_eq(str(r2544_check_entry(doc, 0), "result"),
			 "not measured: throughput < r_min");
	ck_assert_ptr_null(get(r2544_check_entry(doc, 0), "throughput_fps"));
	json_object_put(doc);
	bm_sim_free(be);

	tbf(&sp, 300e6, 3200, 1000);
	be = mk(&sp);
	p.search = BM_SEARCH_BINARY;
	ck_assert_int_eq(rfc2544_run(RFC2544_THROUGHPUT, be, &p,
				     cancel_after_two, &n, &doc, &err),
			 -ECANCELED);
	bm_test_keep_result(doc, "rfc2544.throughput-cancelled");
	e = r2544_check_entry(doc, 0);
	ck_assert_str_eq(str(e, "result"),
			 "not measured: search stopped: cancelled");
	ck_assert_ptr_null(get(e, "throughput_fps"));
	ck_assert_ptr_nonnull(strstr(str(e, "statement"), "cancelled"));
	json_object_put(doc);
	bm_sim_free(be);
}
END_TEST

/* R2544-LAT's DUT (netem delay 500 us on a 100 Mbit/s line) in sp, and
 * the latency test's defaults at 1518 B in p. */
static void lat_setup(struct bm_sim_params *sp, struct rfc2544_params *p)
{
	bm_sim_params_default(sp);
	sp->line_rate_bps = 100e6;
	sp->base_latency_ns = 500000;
	rfc2544_params_default(p, RFC2544_LATENCY);
	sizes(p, 1518, 0);
}

/* R2544-LAT (a), (b): netem delay 500 us on a 100 Mbit/s line, 1518 B. */
START_TEST(test_latency)
{
	struct bm_sim_params sp;
	struct rfc2544_params p;
	struct bm_backend *be;
	json_object *doc, *e;

	lat_setup(&sp, &p);
	be = mk(&sp);
	doc = r2544_check_run(RFC2544_LATENCY, be, &p);
	e = r2544_check_entry(doc, 0);
	ck_assert_str_eq(str(e, "result"), "ok");
	ck_assert_uint_eq((uint64_t)num(e, "valid_repetitions"), 20);
	ck_assert_uint_eq((uint64_t)num(e, "invalid_repetitions"), 0);
	ck_assert_double_eq_tol(num(e, "latency_ns"), 500000, 1e-6);
	ck_assert_double_eq_tol(num(e, "rate_fps"), bm_fps_max(100e6, 1518),
				1e-6);
	ck_assert_ptr_nonnull(strstr(str(e, "definition"), "bf"));
	/* REQ-TS-4: the timestamps' accuracy is stated, the
	 * simulator's own: exact */
	ck_assert_str_eq(str(e, "timestamp_source"), "sim");
	ck_assert_double_eq(num(e, "timestamp_accuracy_ns"), 0);
	ck_assert_double_eq(num(e, "timestamp_resolution_ns"), 0);
	ck_assert_ptr_nonnull(strstr(str(e, "timestamp_accuracy"), "exact"));
	ck_assert(!tj_has_deviation(doc, "REQ-TS-4"));
	/* 1 throughput trial at r_max + 20 latency trials of 120 s, each
	 * after §23e's 5 s to restabilise (on the sim's clock) */
	ck_assert_uint_eq(json_object_array_length(get(doc, "trials")), 21);
	ck_assert_double_eq_tol(be->elapsed_s, 60 + 20 * 120 + 20 * 5, 1e-6);
	ck_assert(!tj_has_deviation(doc, "§23e"));
	json_object_put(doc);
	/* no wait: the run is 100 s shorter and says so */
	be->elapsed_s = 0;
	p.restabilise_s = 0;
	doc = r2544_check_run(RFC2544_LATENCY, be, &p);
	ck_assert_double_eq_tol(be->elapsed_s, 60 + 20 * 120, 1e-6);
	ck_assert(tj_has_deviation(doc, "§23e: 0 s between trials"));
	json_object_put(doc);
	p.restabilise_s = 5;

	/* a calibrated accuracy given by the user is stated as given; a
	 * backend that states nothing gives null, never 0 (which would
	 * read as exact), and a deviation */
	p.throughput_fps[0] = bm_fps_max(100e6, 1518);
	p.lat_repetitions = 20;
	p.lat_ts_accuracy_ns = 250;
	doc = r2544_check_run(RFC2544_LATENCY, be, &p);
	e = r2544_check_entry(doc, 0);
	ck_assert_double_eq(num(e, "timestamp_accuracy_ns"), 250);
	ck_assert_ptr_nonnull(strstr(str(e, "timestamp_accuracy"), "given"));
	json_object_put(doc);
	p.lat_ts_accuracy_ns = 0;
	be->ts_accuracy = NULL;
	doc = r2544_check_run(RFC2544_LATENCY, be, &p);
	e = r2544_check_entry(doc, 0);
	ck_assert_ptr_null(get(e, "timestamp_accuracy_ns"));
	ck_assert_ptr_null(get(e, "timestamp_resolution_ns"));
	ck_assert_str_eq(str(e, "timestamp_accuracy"),
			 "timestamp accuracy not stated by the backend");
	ck_assert(tj_has_deviation(doc, "REQ-TS-4"));
	json_object_put(doc);
	p.throughput_fps[0] = 0;

	/* (b) sf = bf - S_in exactly: 121.44 us at 1518 B / 100 Mbit/s */
	p.lat_definition = RFC2544_LAT_SF;
	doc = r2544_check_run(RFC2544_LATENCY, be, &p);
	e = r2544_check_entry(doc, 0);
	ck_assert_double_eq_tol(num(e, "serialisation_in_ns"), 121440, 1e-6);
	ck_assert_double_eq_tol(num(e, "latency_ns"), 500000 - 121440, 1e-6);
	ck_assert_double_eq_tol(num(get(e, "distribution"), "p99_ns"),
				500000 - 121440, 1e-6);
	json_object_put(doc);
	bm_sim_free(be);

	/* a latency of 0 ns or less is no latency, never "ok":
	 * a DUT of no delay (bf 0), and the same under sf (bf - S_in < 0,
	 * the sf definition does not fit a DUT that forwards at once) */
	sp.base_latency_ns = 0;
	be = mk(&sp);
	p.throughput_fps[0] = 5000;
	p.lat_definition = RFC2544_LAT_BF;
	doc = r2544_check_run(RFC2544_LATENCY, be, &p);
	e = r2544_check_entry(doc, 0);
	ck_assert_double_eq(num(e, "latency_ns"), 0);
	ck_assert_str_eq(str(e, "result"), "no latency: 0 ns or less from "
			 "first bit out to first bit in");
	json_object_put(doc);
	p.lat_definition = RFC2544_LAT_SF;
	doc = r2544_check_run(RFC2544_LATENCY, be, &p);
	e = r2544_check_entry(doc, 0);
	ck_assert_double_eq_tol(num(e, "latency_ns"), -121440, 1e-6);
	ck_assert_ptr_nonnull(strstr(str(e, "result"),
				     "no store-and-forward latency"));
	json_object_put(doc);
	bm_sim_free(be);
	sp.base_latency_ns = 500000;
	p.throughput_fps[0] = 0;

	/* per-trial jitter: the mean of 20 stays within it, stddev > 0 */
	sp.latency_jitter_ns = 2000;
	be = mk(&sp);
	p.lat_definition = RFC2544_LAT_BF;
	p.throughput_fps[0] = 5000;
	doc = r2544_check_run(RFC2544_LATENCY, be, &p);
	e = r2544_check_entry(doc, 0);
	ck_assert_double_eq_tol(num(e, "latency_ns"), 500000, 2000);
	ck_assert(num(e, "latency_stddev_ns") > 100);
	ck_assert(num(e, "latency_max_ns") - num(e, "latency_min_ns") <= 4000);
	ck_assert(tj_has_deviation(doc, "supplied by the caller"));
	json_object_put(doc);
	bm_sim_free(be);
}
END_TEST

/* R2544-LAT (c): the tagged frame is lost in an outage around t = 60 s;
 * that repetition is invalid and re-run. */
START_TEST(test_latency_invalid_tag)
{
	struct bm_sim_params sp;
	struct rfc2544_params p;
	struct bm_backend *be;
	json_object *doc, *e;

	lat_setup(&sp, &p);
	sp.outage_s = 1.0;
	sp.outage_at_s = 59.5;
	sp.outage_trials = 1;
	be = mk(&sp);
	p.throughput_fps[0] = 8000;
	doc = r2544_check_run(RFC2544_LATENCY, be, &p);
	e = r2544_check_entry(doc, 0);
	ck_assert_uint_eq((uint64_t)num(e, "valid_repetitions"), 20);
	ck_assert_uint_eq((uint64_t)num(e, "invalid_repetitions"), 1);
	ck_assert_uint_eq(json_object_array_length(get(doc, "trials")), 21);
	ck_assert_double_eq_tol(num(e, "latency_ns"), 500000, 1e-6);
	json_object_put(doc);
	bm_sim_free(be);

	/* every tag lost: give up after max_invalid re-runs */
	sp.outage_trials = 0;
	be = mk(&sp);
	p.lat_max_invalid = 3;
	doc = r2544_check_run(RFC2544_LATENCY, be, &p);
	e = r2544_check_entry(doc, 0);
	ck_assert_str_eq(str(e, "result"), "too many invalid repetitions");
	ck_assert_uint_eq((uint64_t)num(e, "invalid_repetitions"), 4);
	json_object_put(doc);
	bm_sim_free(be);
}
END_TEST


/*
 * R2544-LAT §26.2 new-net: "each of the test frames addressed to a new
 * destination network".  Attempt k's tagged frame goes to
 * 198.19.(65 + k).2 (the trial records say so), the other frames to the
 * stream's destination.  On the plain sim the latency is unchanged; on a
 * router that knows no network but its own (rip_routes, no update) every
 * tagged frame to a new network is lost, so every repetition is invalid,
 * while the same DUT delivers every tag of a "same" run.
 */
START_TEST(test_latency_new_net)
{
	static const struct r2544_refusal bad[] = {
		{ RFC2544_LATENCY, "{\"destination\": \"far\"}", "destination" },
		{ RFC2544_THROUGHPUT, "{\"destination\": \"new-net\"}",
		  "destination" },
	};
	struct bm_sim_params sp;
	struct rfc2544_params p;
	struct bm_backend *be;
	json_object *doc, *e, *trials, *t;
	char want[16];
	size_t k;

	lat_setup(&sp, &p);
	be = mk(&sp);
	p.throughput_fps[0] = 8000;
	p.lat_destination = RFC2544_LAT_NEW_NET;
	doc = r2544_check_run(RFC2544_LATENCY, be, &p);
	e = r2544_check_entry(doc, 0);
	ck_assert_str_eq(str(e, "result"), "ok");
	ck_assert_str_eq(str(e, "destination"), "new-net");
	ck_assert_uint_eq((uint64_t)num(e, "valid_repetitions"), 20);
	ck_assert_double_eq_tol(num(e, "latency_ns"), 500000, 1e-6);
	trials = get(doc, "trials");
	ck_assert_uint_eq(json_object_array_length(trials), 20);
	for (k = 0; k < 20; k++) {
		t = json_object_array_get_idx(trials, k);
		snprintf(want, sizeof(want), "198.19.%zu.2", 65 + k);
		ck_assert_str_eq(str(t, "tag_destination"), want);
	}
	ck_assert(tj_has_deviation(doc, "§26.2 new-net"));
	json_object_put(doc);
	bm_sim_free(be);

	sp.rip_routes = true;
	be = mk(&sp);
	p.lat_max_invalid = 3;
	doc = r2544_check_run(RFC2544_LATENCY, be, &p);
	e = r2544_check_entry(doc, 0);
	ck_assert_str_eq(str(e, "result"), "too many invalid repetitions");
	ck_assert_uint_eq((uint64_t)num(e, "invalid_repetitions"), 4);
	t = json_object_array_get_idx(get(doc, "trials"), 3);
	ck_assert_str_eq(str(t, "tag_destination"), "198.19.68.2");
	json_object_put(doc);
	p.lat_destination = RFC2544_LAT_SAME;
	doc = r2544_check_run(RFC2544_LATENCY, be, &p);
	e = r2544_check_entry(doc, 0);
	ck_assert_str_eq(str(e, "result"), "ok");
	ck_assert_str_eq(str(e, "destination"), "same");
	ck_assert_uint_eq((uint64_t)num(e, "invalid_repetitions"), 0);
	ck_assert(!json_object_object_get_ex(json_object_array_get_idx(
			get(doc, "trials"), 0), "tag_destination", NULL));
	json_object_put(doc);
	bm_sim_free(be);

	/* the key is the latency test's, its values two */
	r2544_check_refused(bad, sizeof(bad) / sizeof(bad[0]));
}
END_TEST

/* R2544-FLR acceptance: DUT-TBF(500 Mbit/s, 3200, 1000), 512 and 1518 B;
 * loss % = max(0, 1 - 50/p) x 100 +- 0.3 pp; stops after p = 40. */
START_TEST(test_frame_loss)
{
	static const double want[] = { 50.00, 44.44, 37.50, 28.57, 16.67, 0, 0 };
	struct bm_sim_params sp;
	struct rfc2544_params p;
	struct bm_backend *be;
	json_object *doc, *tab, *row;
	size_t s, i;

	tbf(&sp, 500e6, 3200, 1000);
	be = mk(&sp);
	rfc2544_params_default(&p, RFC2544_FRAME_LOSS);
	sizes(&p, 512, 1518);
	doc = r2544_check_run(RFC2544_FRAME_LOSS, be, &p);
	for (s = 0; s < 2; s++) {
		tab = get(r2544_check_entry(doc, s), "table");
		ck_assert_uint_eq(json_object_array_length(tab), 7);
		for (i = 0; i < 7; i++) {
			row = json_object_array_get_idx(tab, i);
			ck_assert_double_eq_tol(num(row, "rate_pct"), 100 - 10.0 * i,
						1e-9);
			ck_assert_msg(fabs(num(row, "loss_pct") - want[i]) <= 0.3,
				      "size %zu row %zu: %.3f %%", s, i,
				      num(row, "loss_pct"));
		}
		/* p = 50: within the bucket + queue slack, at most 0.01 % */
		ck_assert(num(json_object_array_get_idx(tab, 5), "loss_pct") <=
			  0.01);
		ck_assert_str_eq(str(r2544_check_entry(doc, s), "stop"),
				 "two successive zero-loss trials");
		ck_assert_str_eq(str(r2544_check_entry(doc, s), "result"), "ok");
	}
	ck_assert(tj_has_deviation(doc, "AMB-17"));
	json_object_put(doc);

	/* finer steps: 2.5 %, still from 100 % of the maximum rate */
	p.flr_step_pct = 2.5;
	sizes(&p, 512, 0);
	doc = r2544_check_run(RFC2544_FRAME_LOSS, be, &p);
	tab = get(r2544_check_entry(doc, 0), "table");
	/* 100 .. 50 in 2.5 steps = 21 trials, then 47.5 zero: stop */
	ck_assert_uint_eq(json_object_array_length(tab), 22);
	json_object_put(doc);
	bm_sim_free(be);

	/* a generator that sends nothing (0.001 fps: 0 frames in
	 * 60 s) measured no loss: every row's loss_pct is null, not 0 %,
	 * and the entry says so rather than "ok" */
	bm_sim_params_default(&sp);
	sp.generator_max_fps = 0.001;
	be = mk(&sp);
	p.flr_step_pct = 10;
	doc = r2544_check_run(RFC2544_FRAME_LOSS, be, &p);
	tab = get(r2544_check_entry(doc, 0), "table");
	ck_assert_uint_eq(json_object_array_length(tab), 10);
	for (i = 0; i < 10; i++) {
		row = json_object_array_get_idx(tab, i);
		ck_assert_uint_eq((uint64_t)num(row, "tx"), 0);
		ck_assert_ptr_null(get(row, "loss_pct"));
	}
	ck_assert_str_eq(str(r2544_check_entry(doc, 0), "result"), "incomplete: 10 of 10 "
			 "trials sent no frames (loss_pct null)");
	json_object_put(doc);
	bm_sim_free(be);
}
END_TEST

/* Cancels the run after its second trial (bmctl cancel, bmd SIGTERM). */
static int cancel_after_two(void *ctx, const struct bm_trial_record *rec,
			    const char *status)
{
	int *n = ctx;

	(void)status;
	return rec && ++*n >= 2;
}

/* A frame-loss run that stops early keeps its table but must not say it
 * reached 0 % (it did before: the stop field kept its initial value). */
START_TEST(test_frame_loss_cancelled)
{
	struct bm_error err = { "" };
	struct bm_sim_params sp;
	struct rfc2544_params p;
	struct bm_backend *be;
	json_object *doc = NULL;
	int n = 0;

	tbf(&sp, 500e6, 3200, 1000);
	be = mk(&sp);
	rfc2544_params_default(&p, RFC2544_FRAME_LOSS);
	sizes(&p, 512, 0);
	ck_assert_int_eq(rfc2544_run(RFC2544_FRAME_LOSS, be, &p,
				     cancel_after_two, &n, &doc, &err),
			 -ECANCELED);
	ck_assert_ptr_nonnull(doc);
	bm_test_keep_result(doc, "rfc2544.frame-loss-cancelled");
	ck_assert_uint_eq(json_object_array_length(get(r2544_check_entry(doc, 0), "table")),
			  2);
	ck_assert_str_eq(str(r2544_check_entry(doc, 0), "stop"), "cancelled");
	ck_assert_str_eq(str(r2544_check_entry(doc, 0), "result"), "incomplete: cancelled");
	json_object_put(doc);
	bm_sim_free(be);
}
END_TEST

/* Trials of doc whose reason starts with pre and holds word (NULL:
 * any). */
static size_t reasons(json_object *doc, const char *pre, const char *word)
{
	json_object *tr = get(doc, "trials");
	size_t i, n = 0;
	const char *r;

	for (i = 0; i < json_object_array_length(tr); i++) {
		r = str(json_object_array_get_idx(tr, i), "reason");
		if (!strncmp(r, pre, strlen(pre)) && (!word || strstr(r, word)))
			n++;
	}
	return n;
}

/* The back-to-back tests' DUT and parameters: DUT-TBF(10 Mbit/s,
 * b 1600, Q 100), 512 B, the defaults. */
static void b2b_case(struct bm_sim_params *sp, struct rfc2544_params *p)
{
	tbf(sp, 10e6, 1600, 100);
	rfc2544_params_default(p, RFC2544_BACK_TO_BACK);
	sizes(p, 512, 0);
}

/* R2544-B2B acceptance: DUT-TBF(10 Mbit/s, b 1600, Q 100), 512 B:
 * 104 on a 1 GbE line (103 when the burst refills nothing, veth:
 * test_back_to_back_bounds). */
START_TEST(test_back_to_back)
{
	struct bm_sim_params sp;
	struct rfc2544_params p;
	struct bm_backend *be;
	json_object *doc, *e;

	b2b_case(&sp, &p);
	be = mk(&sp);
	doc = r2544_check_run(RFC2544_BACK_TO_BACK, be, &p);
	e = r2544_check_entry(doc, 0);
	ck_assert_str_eq(str(e, "result"), "ok");
	ck_assert_uint_eq((uint64_t)num(e, "repetitions"), 50);
	/* the achieved intensity is stated; the sim's generator
	 * sends bursts at the line rate */
	ck_assert_double_eq_tol(num(e, "intensity_min_pct_line"), 100.0, 1e-6);
	ck_assert_double_eq_tol(num(e, "intensity_mean_pct_line"), 100.0, 1e-6);
	ck_assert_double_eq(num(e, "mean_frames"), 104);
	ck_assert_double_eq(num(e, "stddev_frames"), 0);
	ck_assert_double_eq(num(e, "min_frames"), 104);
	ck_assert_double_eq(num(e, "max_frames"), 104);
	ck_assert_uint_eq((uint64_t)num(e, "burst_max"), 234962);
	ck_assert(tj_has_deviation(doc, "AMB-19"));
	/* AMB-19: a DUT that repeats itself costs repetitions 2.. two
	 * bursts each, 104 passing and 105 failing: 1 + 18 + 49 x 2 (the
	 * burst_max trial counts as repetition 1's) */
	ck_assert_uint_eq(reasons(doc, "repetition 1:", NULL), 1 + 18);
	ck_assert_uint_eq(reasons(doc, "repetition 2:", NULL), 2);
	ck_assert_uint_eq(reasons(doc, "repetition 50:", NULL), 2);
	ck_assert_uint_eq(json_object_array_length(get(doc, "trials")),
			  1 + 18 + 49 * 2);
	json_object_put(doc);
	bm_sim_free(be);

	/* AMB-19 on a DUT that does not repeat itself: tbf at half the line
	 * with the rate drawn per trial in [0.4, 0.6] of it, so a burst of n
	 * passes about when n (1 - c) <= Q + b/A = 103: 171 .. 257 frames.
	 * Repetitions start at the last answer and gallop up or down until
	 * they bracket the new one: each repetition within the range, both
	 * directions taken, 10 repetitions well under 10 bisections. */
	tbf(&sp, 500e6, 1600, 100);
	sp.capacity_noise = 0.2;
	be = mk(&sp);
	p.b2b_repetitions = 10;
	doc = r2544_check_run(RFC2544_BACK_TO_BACK, be, &p);
	e = r2544_check_entry(doc, 0);
	ck_assert_str_eq(str(e, "result"), "ok");
	ck_assert(num(e, "min_frames") >= 165 && num(e, "max_frames") <= 262);
	ck_assert(num(e, "max_frames") > num(e, "min_frames"));
	ck_assert_uint_gt(reasons(doc, "repetition ", "above the last"), 0);
	ck_assert_uint_gt(reasons(doc, "repetition ", "below the last"), 0);
	ck_assert_uint_lt(json_object_array_length(get(doc, "trials")),
			  1 + 10 * 18);
	json_object_put(doc);
	bm_sim_free(be);
}
END_TEST

/* R2544-B2B: the intensity stated is the one the generator achieved,
 * per direction; a generator too slow for the burst bounds the answer. */
START_TEST(test_back_to_back_intensity)
{
	struct bm_sim_params sp;
	struct rfc2544_params p;
	struct bm_backend *be;
	json_object *doc, *e;

	b2b_case(&sp, &p);
	/* the intensity is per direction; pair-bidir trials count
	 * both directions' frames over the forward stream's departures (it
	 * read 200 %) */
	be = mk(&sp);
	p.topology = BM_TOPO_PAIR_BIDIR;
	p.b2b_repetitions = 2;
	doc = r2544_check_run(RFC2544_BACK_TO_BACK, be, &p);
	e = r2544_check_entry(doc, 0);
	ck_assert_double_eq(num(e, "mean_frames"), 104);
	ck_assert_double_eq_tol(num(e, "intensity_min_pct_line"), 100.0, 1e-6);
	ck_assert_double_eq_tol(num(e, "intensity_mean_pct_line"), 100.0, 1e-6);
	json_object_put(doc);
	bm_sim_free(be);
	p.topology = BM_TOPO_PAIR_UNI;

	/* the intensity is what the generator achieved, not the
	 * configured line rate: one limited to half the line sends every
	 * burst at 50 %; no burst passes, and that is the generator's
	 * failing, not "every burst lost frames" */
	sp.generator_max_fps = 0.5 * bm_fps_max(1e9, 512);
	be = mk(&sp);
	doc = r2544_check_run(RFC2544_BACK_TO_BACK, be, &p);
	e = r2544_check_entry(doc, 0);
	ck_assert_double_eq_tol(num(e, "intensity_min_pct_line"), 50.0, 1e-6);
	ck_assert_double_eq_tol(num(e, "intensity_mean_pct_line"), 50.0, 1e-6);
	ck_assert_uint_gt((uint64_t)num(e, "bursts_generator_limited"), 0);
	ck_assert_str_eq(str(e, "result"), "not measured: the generator could "
			 "not send the bursts at the minimum gap "
			 "(generator-limited)");
	/* RFC 2544 §26.4, the 10 us of BM_BURST_GAP_TOL_S: each frame
	 * leaves 1/F_half - 1/F_line = 4.2553 us later than back to back,
	 * so bursts of 2 and 3 frames are the line's, 4 (12.77 us) is not,
	 * and the answer 3 is the generator's bound, sent 3 times each */
	ck_assert_uint_eq((uint64_t)num(e, "generator_limit_frames"), 4);
	ck_assert_double_eq(num(e, "max_frames"), 3);
	ck_assert_uint_gt(reasons(doc, "repetition 1:", "sent again"), 0);
	json_object_put(doc);
	bm_sim_free(be);

	/* A generator 0.1 % slower than the line leaves a frame more than
	 * 10 us behind from burst 2,349 on, but the DUT loses frames of
	 * such bursts anyway (104 pass): a gentler burst it failed fails
	 * it, so the answer is still the DUT's, "ok", with no bound. */
	sp.generator_max_fps = 0.999 * bm_fps_max(1e9, 512);
	be = mk(&sp);
	doc = r2544_check_run(RFC2544_BACK_TO_BACK, be, &p);
	e = r2544_check_entry(doc, 0);
	ck_assert_str_eq(str(e, "result"), "ok");
	ck_assert_double_eq(num(e, "mean_frames"), 104);
	ck_assert(!json_object_object_get_ex(e, "generator_limit_frames", NULL));
	ck_assert_uint_gt((uint64_t)num(e, "bursts_generator_limited"), 0);
	json_object_put(doc);
	bm_sim_free(be);
}
END_TEST

/* R2544-B2B at its bounds: 103 when the burst refills nothing (a line
 * of 1 Tbit/s, as veth), no result where every burst loses, and
 * ">= burst_max" on a DUT that loses none. */
START_TEST(test_back_to_back_bounds)
{
	struct bm_sim_params sp;
	struct rfc2544_params p;
	struct bm_backend *be;
	json_object *doc, *e;

	b2b_case(&sp, &p);
	sp.line_rate_bps = 1e12;
	be = mk(&sp);
	p.b2b_burst_max = 100000;
	p.b2b_repetitions = 5;
	doc = r2544_check_run(RFC2544_BACK_TO_BACK, be, &p);
	ck_assert_double_eq(num(r2544_check_entry(doc, 0), "mean_frames"), 103);
	json_object_put(doc);
	bm_sim_free(be);

	/* a DUT that loses frames of every burst, even of one
	 * frame (its MTU drops 512-byte frames), gives no result, never
	 * "ok" with 0 frames */
	bm_sim_params_default(&sp);
	sp.max_frame_size = 256;
	be = mk(&sp);
	p.b2b_repetitions = 2;
	doc = r2544_check_run(RFC2544_BACK_TO_BACK, be, &p);
	e = r2544_check_entry(doc, 0);
	ck_assert_double_eq(num(e, "max_frames"), 0);
	ck_assert_str_eq(str(e, "result"), "no loss-free burst: every burst "
			 "of 1 frame or more lost frames");
	ck_assert_uint_eq((uint64_t)num(e, "bursts_generator_limited"), 0);
	json_object_put(doc);
	bm_sim_free(be);

	/* DUT-BR alone: ">= burst_max" after one trial */
	bm_sim_params_default(&sp);
	be = mk(&sp);
	p.b2b_burst_max = 0;
	doc = r2544_check_run(RFC2544_BACK_TO_BACK, be, &p);
	ck_assert_str_eq(str(r2544_check_entry(doc, 0), "result"), ">= burst_max");
	ck_assert_uint_eq(json_object_array_length(get(doc, "trials")), 1);
	json_object_put(doc);
	bm_sim_free(be);
}
END_TEST

/* R2544-RECOV (a) 0 <= B - A <= 52 us; (b) DUT-OUTAGE(0.5 s) at A + 1.0 s
 * gives 1.5 s +- 20 ms; a lossless DUT cannot be overloaded. */
START_TEST(test_recovery)
{
	struct bm_sim_params sp;
	struct rfc2544_params p;
	struct bm_backend *be;
	json_object *doc, *e;

	tbf(&sp, 300e6, 3200, 1000);
	be = mk(&sp);
	rfc2544_params_default(&p, RFC2544_RECOVERY);
	sizes(&p, 512, 0);
	p.rec_repetitions = 3;
	doc = r2544_check_run(RFC2544_RECOVERY, be, &p);
	e = r2544_check_entry(doc, 0);
	ck_assert_str_eq(str(e, "result"), "ok");
	ck_assert_double_eq_tol(num(e, "overload_fps"),
				1.1 * num(e, "throughput_fps"), 1e-6);
	ck_assert_double_eq_tol(num(e, "reduced_fps"),
				0.5 * num(e, "overload_fps"), 1e-6);
	ck_assert(num(e, "recovery_s") >= 0 &&
		  num(e, "recovery_s") <= 2 / 38768.8);
	/* a 0 says it is "recovered immediately", a measured 0
	 * (SPEC R2544-RECOV step 5), not a missing value */
	ck_assert_double_eq(num(e, "recovery_s"), 0);
	ck_assert_uint_eq((uint64_t)num(e, "repetitions_recovered_immediately"),
			  3);
	ck_assert_ptr_nonnull(strstr(str(e, "statement"), "recovered "
				     "immediately (0 s) at 512-byte frames"));
	ck_assert(tj_has_deviation(doc, "AMB-21"));
	json_object_put(doc);
	bm_sim_free(be);

	sp.outage_s = 0.5;
	sp.outage_at_s = 1.0;
	sp.outage_ref = BM_SIM_OUTAGE_STEP;
	be = mk(&sp);
	p.throughput_fps[0] = 70488.7;	/* as measured in (a) */
	doc = r2544_check_run(RFC2544_RECOVERY, be, &p);
	e = r2544_check_entry(doc, 0);
	ck_assert_double_eq_tol(num(e, "overload_fps"), 77537.57, 0.01);
	ck_assert_double_eq_tol(num(e, "reduced_fps"), 38768.785, 0.01);
	ck_assert_double_eq_tol(num(e, "recovery_s"), 1.5, 0.020);
	ck_assert_double_eq_tol(num(e, "recovery_max_s"), 1.5, 0.020);
	ck_assert_uint_eq((uint64_t)num(e, "repetitions_recovered_immediately"),
			  0);
	ck_assert_ptr_nonnull(strstr(str(e, "statement"), " s at 512-byte "
				     "frames, throughput 70488.70 fps (mean of "
				     "3; 0 recovered immediately)"));
	json_object_put(doc);
	bm_sim_free(be);

	/* a DUT still losing at the end of the 10 s window
	 * (DUT-OUTAGE(20 s) 5 s after A) has not recovered within it: no
	 * "ok" and no recovery time of about the window */
	sp.outage_s = 20.0;
	sp.outage_at_s = 5.0;
	be = mk(&sp);
	doc = r2544_check_run(RFC2544_RECOVERY, be, &p);
	e = r2544_check_entry(doc, 0);
	ck_assert_str_eq(str(e, "result"), "not recovered within 10 s");
	ck_assert_uint_eq((uint64_t)num(e, "repetitions_not_recovered"), 3);
	ck_assert_ptr_null(get(e, "recovery_s"));	/* null */
	json_object_put(doc);
	bm_sim_free(be);

	/* a given throughput of half the capacity makes a 110 %
	 * "overload" that loses nothing: no recovery was measured */
	sp.outage_s = 0.0;
	be = mk(&sp);
	p.throughput_fps[0] = 0.5 * 70488.7;
	doc = r2544_check_run(RFC2544_RECOVERY, be, &p);
	e = r2544_check_entry(doc, 0);
	ck_assert_str_eq(str(e, "result"),
			 "not measured: the overload caused no loss");
	ck_assert_uint_eq((uint64_t)num(e, "repetitions_without_loss"), 3);
	ck_assert_uint_eq((uint64_t)num(e, "valid_repetitions"), 0);
	ck_assert_ptr_null(get(e, "recovery_s"));	/* null */
	json_object_put(doc);
	bm_sim_free(be);

	/* throughput at line rate: 110 % is capped and nothing is lost */
	bm_sim_params_default(&sp);
	be = mk(&sp);
	p.throughput_fps[0] = 0;
	doc = r2544_check_run(RFC2544_RECOVERY, be, &p);
	ck_assert_str_eq(str(r2544_check_entry(doc, 0), "result"),
			 "not applicable: overload not achievable");
	json_object_put(doc);
	bm_sim_free(be);

	/* a throughput the search could not measure says why,
	 * "throughput < r_min" only when it is: a search mlr that ran out
	 * of time, and R2544-THRPT (c) (0.1 % random loss) */
	tbf(&sp, 300e6, 3200, 1000);
	be = mk(&sp);
	p.rec_repetitions = 1;
	p.search = BM_SEARCH_MLR;
	p.mlr_timeout_s = 30.0;
	doc = r2544_check_run(RFC2544_RECOVERY, be, &p);
	ck_assert_str_eq(str(r2544_check_entry(doc, 0), "result"), "not measured: mlr: "
			 "timed out after 30 s, partial bounds only");
	json_object_put(doc);
	bm_sim_free(be);
	bm_sim_params_default(&sp);
	sp.random_loss = 0.001;
	be = mk(&sp);
	p.search = BM_SEARCH_BINARY;
	doc = r2544_check_run(RFC2544_RECOVERY, be, &p);
	ck_assert_str_eq(str(r2544_check_entry(doc, 0), "result"),
			 "not measured: throughput < r_min");
	json_object_put(doc);
	bm_sim_free(be);
}
END_TEST

/* R2544-RESET: DUT-RESET(T = 3 s) on a bridge gives 3.0 s +- 0.1 s; with
 * STP listening + learning 33 s +- 1 s. */
/*
 * A default that the user's duration contradicts follows it (bmctl
 * --duration 2 sets trial_duration_s only); an explicit contradiction is
 * refused, naming what is wrong.
 */
START_TEST(test_derived_defaults)
{
	static const struct r2544_refusal bad[] = {
		{ RFC2544_THROUGHPUT, "{\"trial_duration_s\": 2, "
		  "\"search_trial_duration_s\": 5}",
		  "search trial duration longer" },
		{ RFC2544_LATENCY, "{\"trial_duration_s\": 2, \"tag_at_s\": 3}",
		  "tag_at_s" },
	};
	struct rfc2544_params p;

	r2544_check_accepted(RFC2544_THROUGHPUT, "{\"trial_duration_s\": 2}",
			     &p);
	ck_assert(p.thr_search_trial_s == 2.0 && p.thr_final_trial_s == 2.0);
	r2544_check_accepted(RFC2544_LATENCY, "{\"trial_duration_s\": 2}", &p);
	ck_assert(p.lat_tag_at_s == 1.0);	/* §26.2: the middle */
	r2544_check_accepted(RFC2544_RESET, "{\"trial_duration_s\": 3}", &p);
	ck_assert(p.reset_at_s == 0.5);
	r2544_check_refused(bad, sizeof(bad) / sizeof(bad[0]));
}
END_TEST

/*
 * A tester host too busy above 60 % of C (sim host_stall_above_fps:
 * every attempt there loses 3 frames in a 10 ms catch-up burst).  The
 * throughput comes out at the stall's rate, within the resolution, and
 * the entry and a deviation line say that it may be higher.
 */
START_TEST(test_busy_host)
{
	struct bm_sim_params sp;
	struct rfc2544_params p;
	struct bm_backend *be;
	json_object *doc, *e;
	double r0 = 0.6 * 70488.72;

	tbf(&sp, 300e6, 3200, 1000);
	sp.host_stall_above_fps = r0;
	be = mk(&sp);
	rfc2544_params_default(&p, RFC2544_THROUGHPUT);
	sizes(&p, 512, 0);
	doc = r2544_check_run(RFC2544_THROUGHPUT, be, &p);
	e = r2544_check_entry(doc, 0);
	ck_assert(num(e, "throughput_fps") <= r0 &&
		  num(e, "throughput_fps") >= r0 * 0.999);
	ck_assert_str_eq(str(e, "result"), "ok");
	ck_assert(num(e, "disturbed_failures") >= 1);
	ck_assert(num(e, "disturbed_failure_min_fps") > r0 &&
		  num(e, "disturbed_failure_min_fps") <=
		  num(e, "throughput_fps") * 1.001);
	ck_assert(num(e, "repeated_trials") >=
		  2 * num(e, "disturbed_failures"));
	ck_assert(tj_has_deviation(doc, "REQ-GEN-6: at 512 B a trial at "));
	ck_assert(tj_has_deviation(doc, "the throughput may be higher than "
				   "measured (a busy tester host)"));
	json_object_put(doc);
	bm_sim_free(be);
}
END_TEST

/*
 * A tester port that loses its link mid-trial.  Its frames are
 * lost to the link, not the DUT: a throughput search that took them for
 * the DUT's would come out low.  The job fails with the port's name, and
 * the trials before stay in the partial result.  The reset test expects
 * its links to go down (a DUT reset on hardware): it keeps the count.
 */
START_TEST(test_link_flap)
{
	struct bm_sim_params sp;
	struct rfc2544_params p;
	struct bm_backend *be;
	struct bm_error err = { "" };
	json_object *doc, *trials, *last;
	size_t n;

	bm_sim_params_default(&sp);
	sp.capacity_fps = 700000;	/* a search of many trials */
	sp.link_down_trial = 3;
	be = mk(&sp);
	rfc2544_params_default(&p, RFC2544_THROUGHPUT);
	p.n_sizes = 1;
	ck_assert_int_eq(rfc2544_run(RFC2544_THROUGHPUT, be, &p, NULL, NULL,
				     &doc, &err), -ENETDOWN);
	ck_assert_str_eq(err.msg, "port rx lost its link during the trial "
			 "(1 time): its losses measure the link, not the DUT");
	ck_assert_ptr_nonnull(doc);
	ck_assert(json_object_object_get_ex(doc, "trials", &trials));
	ck_assert_uint_eq(json_object_array_length(trials), 2);
	json_object_put(doc);
	bm_sim_free(be);

	/* the reset test: every trial but the reset's must keep its link */
	bm_sim_params_default(&sp);
	sp.reset_outage_s = 3.0;
	be = mk(&sp);
	rfc2544_params_default(&p, RFC2544_RESET);
	p.reset_hook = bm_sim_reset_hook;
	p.reset_ctx = be;
	doc = r2544_check_run(RFC2544_RESET, be, &p);
	ck_assert(json_object_object_get_ex(doc, "trials", &trials));
	n = json_object_array_length(trials);
	ck_assert_uint_ge(n, 2);
	json_object_put(doc);
	bm_sim_free(be);

	sp.link_down_trial = (unsigned int)n;	/* the reset repetition */
	be = mk(&sp);
	p.reset_ctx = be;
	doc = r2544_check_run(RFC2544_RESET, be, &p);
	ck_assert_str_eq(str(r2544_check_entry(doc, 0), "result"), "ok");
	ck_assert(json_object_object_get_ex(doc, "trials", &trials));
	last = json_object_array_get_idx(trials, n - 1);
	ck_assert_int_eq((int)num(last, "link_downs"), 1);
	ck_assert_str_eq(str(last, "link_down_port"), "rx");
	json_object_put(doc);
	bm_sim_free(be);

	sp.link_down_trial = 1;			/* a search trial */
	be = mk(&sp);
	p.reset_ctx = be;
	ck_assert_int_eq(rfc2544_run(RFC2544_RESET, be, &p, NULL, NULL, &doc,
				     &err), -ENETDOWN);
	json_object_put(doc);
	bm_sim_free(be);
}
END_TEST

START_TEST(test_reset)
{
	struct bm_sim_params sp;
	struct rfc2544_params p;
	struct bm_backend *be;
	struct bm_error err;
	json_object *doc, *e;

	bm_sim_params_default(&sp);
	sp.reset_outage_s = 3.0;
	be = mk(&sp);
	rfc2544_params_default(&p, RFC2544_RESET);
	ck_assert_uint_eq(p.n_sizes, 1);
	ck_assert_uint_eq(p.frame_sizes[0], 64);
	/* no hook: refused */
	ck_assert_int_eq(rfc2544_run(RFC2544_RESET, be, &p, NULL, NULL, &doc,
				     &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "no DUT reset hook"));
	json_object_put(doc);

	p.reset_hook = bm_sim_reset_hook;
	p.reset_ctx = be;
	doc = r2544_check_run(RFC2544_RESET, be, &p);
	e = r2544_check_entry(doc, 0);
	ck_assert_str_eq(str(e, "result"), "ok");
	ck_assert_double_eq_tol(num(e, "throughput_fps"), 1488095.24, 0.01);
	ck_assert_double_eq_tol(num(e, "reset_s"), 3.0, 0.1);
	ck_assert_double_eq_tol(num(e, "gap_threshold_s"), 0.010, 1e-12);
	ck_assert_ptr_nonnull(strstr(str(e, "statement"),
				     "software reset: 3.000 s at 64-byte"));
	json_object_put(doc);
	bm_sim_free(be);

	/* The module keeps the longest gap only: an outage of 2 s at 1 s,
	 * before the reset fires at reset_at_s, in the first repetition
	 * (outage_trials 1), the reset's own 0.5 s after it.  Repetition 1
	 * is not measured (it was "ok" at 2.0 s), repetitions 2 and 3 give
	 * 0.5 s, and the result says so. */
	bm_sim_params_default(&sp);
	sp.reset_outage_s = 0.5;
	sp.outage_s = 2.0;
	sp.outage_at_s = 1.0;
	sp.outage_trials = 1;
	be = mk(&sp);
	p.reset_ctx = be;
	p.reset_repetitions = 3;
	p.throughput_fps[0] = 1488095.24;
	doc = r2544_check_run(RFC2544_RESET, be, &p);
	e = r2544_check_entry(doc, 0);
	ck_assert_str_eq(str(e, "result"), "ok");
	ck_assert_uint_eq((uint64_t)num(e, "valid_repetitions"), 2);
	ck_assert_double_eq_tol(num(e, "reset_s"), 0.5, 0.01);
	ck_assert_double_eq_tol(num(e, "reset_max_s"), 0.5, 0.01);
	ck_assert_str_eq(str(json_object_array_get_idx(get(e, "repetitions"), 0),
			     "result"), "not measured: the longest receive gap "
			 "began before the reset fired, so it is not the "
			 "reset's");
	ck_assert_double_eq(num(json_object_array_get_idx(get(e,
		"repetitions"), 0), "reset_fired_s"), p.reset_at_s);
	ck_assert(tj_has_deviation(doc, "1 repetition(s) not measured"));
	/* the statement is the reset's, not the deviation's text */
	ck_assert_ptr_nonnull(strstr(str(e, "statement"),
				     "software reset: 0.500 s at 64-byte"));
	json_object_put(doc);
	bm_sim_free(be);
	p.throughput_fps[0] = 0;
	p.reset_repetitions = 1;
	bm_sim_params_default(&sp);

	sp.reset_outage_s = 33.0;
	be = mk(&sp);
	p.reset_ctx = be;
	p.reset_type = RFC2544_RESET_POWER;
	doc = r2544_check_run(RFC2544_RESET, be, &p);
	e = r2544_check_entry(doc, 0);
	ck_assert_double_eq_tol(num(e, "reset_s"), 33.0, 1.0);
	ck_assert_str_eq(str(e, "reset_type"), "power");
	json_object_put(doc);
	bm_sim_free(be);

	/* an outage longer than the rest of the 60 s stream (reset
	 * at 10 s, down 55 s) has no frame after it: not "no reset observed"
	 * (the gap to the end of the stream counts) and no reset value */
	sp.reset_outage_s = 55.0;
	be = mk(&sp);
	p.reset_ctx = be;
	doc = r2544_check_run(RFC2544_RESET, be, &p);
	e = r2544_check_entry(doc, 0);
	ck_assert_str_eq(str(e, "result"),
			 "reset longer than the trial window: give a longer "
			 "trial_duration_s");
	ck_assert_uint_eq((uint64_t)num(e, "valid_repetitions"), 0);
	ck_assert_ptr_null(get(e, "reset_s"));	/* null */
	ck_assert_ptr_null(get(e, "reset_min_s"));	/* not 0 */
	ck_assert_ptr_null(get(e, "reset_max_s"));
	ck_assert_double_eq_tol(num(json_object_array_get_idx(
		json_object_object_get(e, "repetitions"), 0),
		"outage_at_least_s"), 50.0, 0.01);
	ck_assert_ptr_nonnull(strstr(str(e, "statement"), "not over when"));
	json_object_put(doc);
	bm_sim_free(be);

	/* a hook that resets nothing: no outage above the threshold */
	bm_sim_params_default(&sp);
	be = mk(&sp);
	p.reset_ctx = be;
	doc = r2544_check_run(RFC2544_RESET, be, &p);
	ck_assert_str_eq(str(r2544_check_entry(doc, 0), "result"), "no reset observed");
	json_object_put(doc);
	bm_sim_free(be);
}
END_TEST

static Suite *rfc2544_suite(void)
{
	Suite *s = suite_create("rfc2544");
	TCase *tc = tcase_create("benchmarks");

	tcase_add_test(tc, test_throughput);
	tcase_add_test(tc, test_mlr_timeout_default);
	tcase_add_test(tc, test_maxrate_appb);
	tcase_add_test(tc, test_throughput_not_measured);
	tcase_add_test(tc, test_latency);
	tcase_add_test(tc, test_latency_invalid_tag);
	tcase_add_test(tc, test_latency_new_net);
	tcase_add_test(tc, test_frame_loss);
	tcase_add_test(tc, test_frame_loss_cancelled);
	tcase_add_test(tc, test_back_to_back);
	tcase_add_test(tc, test_back_to_back_intensity);
	tcase_add_test(tc, test_back_to_back_bounds);
	tcase_add_test(tc, test_recovery);
	tcase_add_test(tc, test_reset);
	tcase_add_test(tc, test_link_flap);
	tcase_add_test(tc, test_busy_host);
	tcase_add_test(tc, test_derived_defaults);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tj_run_suite(rfc2544_suite());
}

// SPDX-License-Identifier: GPL-2.0
/*
 * R8239-MB against the N-port simulated DUT, whose egress is a line of
 * egress_bps behind a tail-drop queue of Q waiting frames (the frame on
 * the line not counted).
 *
 * Closed form.  Tester lines of R, egress lines of R/10 (t_e = 10 t_in
 * exactly in the sim's ticks).  In iteration j each of the N-j ingress
 * ports sends its frames m = 0 .. n-1 at m t_in, frame m to egress
 * m mod j (AMB-31), so egress k takes N-j frames at each instant
 * m = k, k + j, ... < n.  Its line starts a frame at k t_in, then every
 * t_e while it has frames: by instant m it has started
 * floor((m - k) t_in / t_e) + 1, and a burst is loss-free iff at every
 * instant the frames admitted so far less those started stay <= Q.
 * truth_ok() evaluates exactly that; the largest n it accepts is the
 * truth (the SPEC's Q + floor(b/A) of a token bucket is this with the
 * bucket's b/A frames in place of the one frame on the line).
 * With Q = 100: 2 ingress -> 1 egress: 53 per port (106 in all; the queue
 * drains 5 frames during the burst); 3 -> 1: 34 per port; 2 -> 2 (j = 2
 * of 4 ports): 112 per port.
 */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bm_sim.h"
#include "check_util.h"
#include "keep_result.h"
#include "rfc8239_int.h"

#define Q	100

static struct bm_backend *mk(unsigned int n_ports, double egress_ratio)
{
	struct bm_sim_params p;
	unsigned int i;

	bm_sim_params_default(&p);
	p.line_rate_bps = 1e9;
	p.buffer_frames = Q;
	for (i = 0; i < n_ports; i++)
		p.ports[i].egress_bps = egress_ratio * p.line_rate_bps;
	return sim_ports_new(&p, n_ports, "sim");
}

/* The closed form of the header, for t_e = 10 t_in. */
static bool truth_ok(unsigned int n_in, unsigned int j, unsigned long n)
{
	unsigned long m, k, admitted;

	for (k = 0; k < j; k++) {
		admitted = 0;
		for (m = k; m < n; m += j) {
			admitted += n_in;
			if (admitted - ((m - k) / 10 + 1) > Q)
				return false;
		}
	}
	return true;
}

static unsigned long truth(unsigned int n_in, unsigned int j)
{
	unsigned long n = 0;

	while (truth_ok(n_in, j, n + 1))
		n++;
	return n;
}


static json_object *run(struct bm_backend *be, struct r8239_mb_params *p)
{
	struct bm_error err = { "" };
	json_object *doc = NULL;
	int ret;

	ret = r8239_microburst_run(be, p, NULL, NULL, &doc, &err);
	ck_assert_msg(ret == 0, "microburst: %s", err.msg);
	ck_assert_ptr_nonnull(doc);
	/* the bound bmd checks up front holds for every run */
	ck_assert_msg(json_object_array_length(tj_get(doc, "trials")) <= r8239_mb_max_trials(p, be->n_ports),
		      "%zu trials, bound %.0f",
		      json_object_array_length(tj_get(doc, "trials")), r8239_mb_max_trials(p, be->n_ports));
	bm_test_keep_result(doc, "rfc8239.microburst");
	return doc;
}

static json_object *iteration(json_object *doc, size_t i)
{
	json_object *a = tj_get(tj_get(doc, "results"), "iterations");

	ck_assert_uint_gt(json_object_array_length(a), i);
	return json_object_array_get_idx(a, i);
}

static void params(struct r8239_mb_params *p)
{
	r8239_mb_defaults(p);
	p->frame_size = 512;
	p->c.repeat = 3;
	p->c.drain_s = 0.01;
}

/* Every repetition of iteration it finds the closed form's burst. */
static void check_iteration(json_object *it, unsigned int n_in,
			    unsigned int j, unsigned int repeat)
{
	unsigned long want = truth(n_in, j);
	json_object *reps = tj_get(it, "repetitions"), *r, *agg;
	size_t i;

	ck_assert_int_eq(json_object_get_int(tj_get(it, "n_ingress")), n_in);
	ck_assert_int_eq(json_object_get_int(tj_get(it, "n_egress")), j);
	ck_assert_uint_eq(json_object_array_length(reps), repeat);
	for (i = 0; i < repeat; i++) {
		r = json_object_array_get_idx(reps, i);
		ck_assert_msg(json_object_get_int64(tj_get(r, "burst_per_port")) ==
			      (int64_t)want, "%u -> %u: burst %lld, truth %lu",
			      n_in, j, (long long)json_object_get_int64(
				      tj_get(r, "burst_per_port")), want);
		ck_assert_int_eq(json_object_get_int64(tj_get(r, "burst_aggregate")),
				 (int64_t)(want * n_in));
		/* every ingress port got its whole loss-free burst through */
		ck_assert_int_eq(json_object_get_int64(json_object_array_get_idx(
			tj_get(r, "received_per_port"), 0)), (int64_t)want);
		ck_assert(!json_object_get_boolean(tj_get(r, "lower_bound")));
		/* the spans: n frames at 1 Gbit/s of 532 bytes (L1) each,
		 * and the smallest lossy burst is one frame more */
		ck_assert_double_eq_tol(json_object_get_double(
			tj_get(r, "burst_span_s")), want * 4.256e-6, 1e-12);
		ck_assert_int_eq(json_object_get_int64(
			tj_get(r, "lossy_burst_per_port")), (int64_t)want + 1);
		ck_assert_int_gt(json_object_get_int64(tj_get(r, "lossy_lost")), 0);
		ck_assert_double_eq_tol(json_object_get_double(
			tj_get(r, "lossy_span_s")), (want + 1) * 4.256e-6, 1e-12);
		/* the sim's ports start together at line rate */
		ck_assert_double_eq_tol(json_object_get_double(tj_get(r, "sync_pct")),
					100.0, 1e-6);
		ck_assert_double_eq_tol(json_object_get_double(
			tj_get(r, "intensity_pct")), 100.0, 1e-6);
	}
	/* a deterministic DUT repeats itself exactly: RSD 0 */
	agg = tj_get(it, "aggregate");
	ck_assert_int_eq(json_object_get_int(tj_get(agg, "n")), repeat);
	ck_assert_double_eq_tol(json_object_get_double(tj_get(agg, "rsd_pct")),
				0.0, 1e-9);
	ck_assert(json_object_get_boolean(tj_get(agg, "rsd_ok")));
	ck_assert_double_eq_tol(json_object_get_double(tj_get(agg, "mean")),
				(double)(want * n_in), 1e-9);
}

START_TEST(truth_values)
{
	/* the numbers of the header, so that truth() itself is checked */
	ck_assert_uint_eq(truth(2, 1), 53);
	ck_assert_uint_eq(truth(3, 1), 34);
	ck_assert_uint_eq(truth(2, 2), 112);
}
END_TEST

/* SPEC R8239-MB acceptance, 2 ingress ports -> 1 egress */
START_TEST(two_to_one)
{
	struct bm_backend *be = mk(3, 0.1);
	struct r8239_mb_params p;
	json_object *doc;

	params(&p);
	doc = run(be, &p);
	ck_assert_uint_eq(json_object_array_length(
		tj_get(tj_get(doc, "results"), "iterations")), 1);
	check_iteration(iteration(doc, 0), 2, 1, 3);
	ck_assert(!json_object_get_boolean(tj_get(tj_get(doc, "results"),
					       "not_an_incast")));
	/* a generator that keeps up: no burst late */
	ck_assert_int_eq(json_object_get_int(tj_get(tj_get(doc, "results"),
						    "bursts_late")), 0);
	ck_assert_str_eq(json_object_get_string(tj_get(
		json_object_array_get_idx(tj_get(iteration(doc, 0),
						 "repetitions"), 0),
		"result")), "ok");
	json_object_put(doc);
	bm_sim_free(be);
}
END_TEST

/*
 * A generator at half the line rate (REQ-GEN-6): every burst of 4 frames
 * or more leaves more than 10 us of frames behind its schedule (each
 * frame a t_in = 4.256 us later than the last would be), so the DUT sees
 * bursts of about 50 % intensity (F-10: n t_in / ((2n - 1) t_in), just
 * above 50 %).  They tested the DUT, so the search goes on; the trials
 * say generator_limited and the result counts them and says so.
 */
START_TEST(late_bursts_said)
{
	struct bm_sim_params sp;
	struct r8239_mb_params p;
	struct bm_backend *be;
	json_object *doc, *dev;
	const char *last;
	double low;
	size_t n;

	bm_sim_params_default(&sp);
	sp.line_rate_bps = 1e9;
	sp.buffer_frames = Q;
	sp.generator_max_fps = 1e9 / (532 * 8.0) / 2;
	for (n = 0; n < 3; n++)
		sp.ports[n].egress_bps = 0.1 * sp.line_rate_bps;
	be = sim_ports_new(&sp, 3, "sim");
	params(&p);
	p.c.repeat = 1;
	doc = run(be, &p);
	ck_assert_int_gt(json_object_get_int(tj_get(tj_get(doc, "results"),
						    "bursts_late")), 0);
	low = json_object_get_double(tj_get(json_object_array_get_idx(
		tj_get(iteration(doc, 0), "repetitions"), 0), "intensity_pct"));
	ck_assert_msg(low >= 50.0 && low < 60.0, "intensity %.2f %%", low);
	/* RFC 8239 §4.2 MUST: never "ok" for a burst of half intensity */
	ck_assert_ptr_nonnull(strstr(json_object_get_string(tj_get(
		json_object_array_get_idx(tj_get(iteration(doc, 0),
						 "repetitions"), 0),
		"result")), "not at 100 % intensity: the loss-free burst"));
	dev = tj_get(doc, "deviations");
	n = json_object_array_length(dev);
	last = json_object_get_string(json_object_array_get_idx(dev, n - 1));
	ck_assert_msg(strstr(last, "bursts left later than their schedule "
			     "(generator_limited; lowest achieved intensity 5"),
		      "%s", last);
	json_object_put(doc);
	bm_sim_free(be);
}
END_TEST

/* 4 ports: j = 1 (3 -> 1) and j = 2 (2 -> 2, round robin, AMB-31) */
START_TEST(four_ports_all_iterations)
{
	struct bm_backend *be = mk(4, 0.1);
	struct r8239_mb_params p;
	json_object *doc, *it;

	params(&p);
	p.c.repeat = 2;
	doc = run(be, &p);
	check_iteration(iteration(doc, 0), 3, 1, 2);
	it = iteration(doc, 1);
	check_iteration(it, 2, 2, 2);
	/* each egress is offered (N-j)/j = 1 line */
	ck_assert_double_eq_tol(json_object_get_double(
		tj_get(it, "egress_offered_pct")), 100.0, 1e-9);
	json_object_put(doc);
	bm_sim_free(be);
}
END_TEST

/* Linear growth (the RFC's literal reading) finds the same burst. */
START_TEST(linear_growth)
{
	struct bm_backend *be = mk(3, 0.1);
	struct r8239_mb_params p;
	json_object *doc;

	params(&p);
	p.c.repeat = 1;
	p.growth = R8239_GROWTH_LINEAR;
	doc = run(be, &p);
	check_iteration(iteration(doc, 0), 2, 1, 1);
	/* one trial per frame up to the first loss */
	ck_assert_uint_eq(json_object_array_length(tj_get(doc, "trials")),
			  truth(2, 1) + 1);
	json_object_put(doc);
	bm_sim_free(be);
}
END_TEST

/* Egress lines as fast as the ingress: j = 2 of 4 cannot congest; the
 * result is a lower bound at burst_max, and says why. */
START_TEST(no_congestion_lower_bound)
{
	struct bm_backend *be = mk(4, 1.0);
	struct r8239_mb_params p;
	json_object *doc, *it, *r;

	params(&p);
	p.c.repeat = 1;
	p.iteration = 2;
	p.burst_max = 300;
	doc = run(be, &p);
	it = iteration(doc, 0);
	r = json_object_array_get_idx(tj_get(it, "repetitions"), 0);
	ck_assert(json_object_get_boolean(tj_get(r, "lower_bound")));
	ck_assert_int_eq(json_object_get_int64(tj_get(r, "burst_per_port")), 300);
	ck_assert(json_object_get_boolean(tj_get(it, "lower_bound")));
	ck_assert_str_eq(json_object_get_string(tj_get(it, "note")),
			 "no congestion possible: N-j <= j");
	json_object_put(doc);
	bm_sim_free(be);
}
END_TEST

/* One frame too many for the DUT: a queue of 0 behind a slow line loses
 * the second port's first frame; the burst is 0, not a silent 1. */
START_TEST(zero_burst)
{
	struct bm_backend *be;
	struct bm_sim_params sp;
	struct r8239_mb_params p;
	json_object *doc, *r;
	unsigned int i;

	bm_sim_params_default(&sp);
	sp.line_rate_bps = 1e9;
	sp.buffer_frames = 0;
	for (i = 0; i < 3; i++)
		sp.ports[i].egress_bps = 1e8;
	be = sim_ports_new(&sp, 3, "p");
	params(&p);
	p.c.repeat = 1;
	doc = run(be, &p);
	r = json_object_array_get_idx(tj_get(iteration(doc, 0), "repetitions"), 0);
	ck_assert_int_eq(json_object_get_int64(tj_get(r, "burst_per_port")), 0);
	json_object_put(doc);
	bm_sim_free(be);
}
END_TEST

/* R8238-INCAST acceptance: the ports start together (sync 100 % in the
 * sim); 100 us of deliberate offset on one port (23 frame times at
 * 1 Gbit/s, 512 B) gives 0 % and the flag "not an incast". */
START_TEST(incast_offset)
{
	struct bm_backend *be = mk(3, 0.1);
	struct r8239_mb_params p;
	json_object *doc, *r;

	params(&p);
	p.c.repeat = 1;
	p.offset_s = 100e-6;
	doc = run(be, &p);
	r = json_object_array_get_idx(tj_get(iteration(doc, 0), "repetitions"),
				      0);
	ck_assert_double_eq_tol(tj_num(r, "start_skew_s"), 100e-6, 1e-9);
	ck_assert_double_eq(tj_num(r, "sync_pct"), 0.0);
	ck_assert(json_object_get_boolean(tj_get(tj_get(doc, "results"),
						 "not_an_incast")));
	json_object_put(doc);
	bm_sim_free(be);
}
END_TEST

/* RFC 8239 §1.2: a block with RSD >= 10 % becomes a deviation line that
 * says where it is. */
START_TEST(rsd_flag)
{
	json_object *res = json_tokener_parse(
		"{\"iterations\": [{\"aggregate\": {\"rsd_pct\": 3.0, "
		"\"rsd_ok\": true}}, {\"aggregate\": {\"rsd_pct\": 12.5, "
		"\"rsd_ok\": false}}]}");
	json_object *dev = json_object_new_array();

	r8239_flag_rsd(res, dev);
	ck_assert_uint_eq(json_object_array_length(dev), 1);
	ck_assert_msg(strstr(json_object_get_string(json_object_array_get_idx(
		dev, 0)), "iterations[2].aggregate: RSD 12.5 %"), "%s",
		json_object_get_string(json_object_array_get_idx(dev, 0)));
	json_object_put(res);
	json_object_put(dev);
}
END_TEST

/* RFC 8239 §3.3: ports varied randomly but documented.  A seed gives
 * the same order every time, reported with it; the roles follow the
 * order (the egress is the last port of the order, and the truth, with
 * every egress alike, is unchanged); the job's names come back as they
 * were.  DSCP is reported with the result. */
START_TEST(random_order)
{
	struct bm_backend *be = mk(4, 0.1);
	struct r8239_mb_params p;
	json_object *doc, *o1, *it;
	char first[64];
	int i, moved = 0;

	params(&p);
	p.c.repeat = 1;
	p.iteration = 1;
	p.c.port_order = R8239_ORDER_RANDOM;
	p.c.seed = 42;
	p.c.dscp = 46;
	doc = run(be, &p);
	o1 = tj_get(tj_get(doc, "results"), "port_order");
	ck_assert_uint_eq(json_object_array_length(o1), 4);
	snprintf(first, sizeof(first), "%s", json_object_to_json_string(o1));
	for (i = 0; i < 4; i++)
		moved += strcmp(json_object_get_string(json_object_array_get_idx(
			o1, i)), be->port_names[i]) != 0;
	ck_assert_int_gt(moved, 0);
	ck_assert_int_eq(json_object_get_int64(tj_get(tj_get(doc, "results"),
						      "seed")), 42);
	ck_assert_int_eq(json_object_get_int(tj_get(tj_get(doc, "results"),
						    "dscp")), 46);
	it = iteration(doc, 0);
	ck_assert_str_eq(json_object_get_string(json_object_array_get_idx(
		tj_get(it, "egress"), 0)), json_object_get_string(
		json_object_array_get_idx(o1, 3)));
	check_iteration(it, 3, 1, 1);
	/* the job's own order is back */
	ck_assert_str_eq(be->port_names[0], "sim1");
	ck_assert_str_eq(be->port_names[3], "sim4");
	json_object_put(doc);
	doc = run(be, &p);
	ck_assert_str_eq(json_object_to_json_string(tj_get(tj_get(doc,
		"results"), "port_order")), first);
	json_object_put(doc);
	bm_sim_free(be);
}
END_TEST

START_TEST(bad_input)
{
	struct bm_backend *be = mk(3, 0.1);
	struct bm_error err = { "" };
	struct r8239_mb_params p;
	json_object *doc = NULL;

	params(&p);
	p.iteration = 2;	/* N - 2 = 1 */
	ck_assert_int_eq(r8239_microburst_run(be, &p, NULL, NULL, &doc, &err),
			 -EINVAL);
	ck_assert_ptr_null(doc);
	ck_assert_msg(strstr(err.msg, "iteration"), "%s", err.msg);
	be->n_ports = 2;
	p.iteration = 0;
	ck_assert_int_eq(r8239_microburst_run(be, &p, NULL, NULL, &doc, &err),
			 -EINVAL);
	ck_assert_msg(strstr(err.msg, "needs 3 ports"), "%s", err.msg);
	be->n_ports = 3;
	p.growth = R8239_GROWTH_LINEAR;
	p.burst_max = 1000000;
	ck_assert_int_eq(r8239_microburst_run(be, &p, NULL, NULL, &doc, &err),
			 -EINVAL);
	ck_assert_msg(strstr(err.msg, "burst_max"), "%s", err.msg);
	bm_sim_free(be);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("rfc8239.microburst");
	TCase *tc = tcase_create("mb");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, truth_values);
	tcase_add_test(tc, two_to_one);
	tcase_add_test(tc, late_bursts_said);
	tcase_add_test(tc, four_ports_all_iterations);
	tcase_add_test(tc, linear_growth);
	tcase_add_test(tc, no_congestion_lower_bound);
	tcase_add_test(tc, zero_burst);
	tcase_add_test(tc, incast_offset);
	tcase_add_test(tc, rsd_flag);
	tcase_add_test(tc, random_order);
	tcase_add_test(tc, bad_input);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tj_run_suite(suite());
}

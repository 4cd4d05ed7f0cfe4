// SPDX-License-Identifier: GPL-2.0
/*
 * R8239-INC and R8238-GOODPUT against the simulated DUT and its fluid TCP
 * engine (backends/sim_tcp.c).
 *
 * Closed form.  The egress (the job's last port) is DUT-TBF at R = 100
 * Mbit/s with overhead 24: a full TCP segment (1448 B of payload in a
 * 1518 B frame) costs A = 1518 - 4 + 24 = 1538 B of tokens, so bulk TCP
 * alone gets R x 1448/1538 = 94.148 Mbit/s (SPEC R8239-INC acceptance
 * (a), F-9's Linux ceiling), shared equally by the connections.  With UDP
 * bursts the flows get what the bursts' frames left in the window W:
 * (R W - U) x 1448/1538 / W, U the frames' accounted bits (F - 4 + 24 =
 * F + 20 bytes each).  A backend without a TCP engine is refused (INC (d)).
 */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <string.h>

#include "bm_sim.h"
#include "bm_tcp.h"
#include "bm_events.h"
#include "check_util.h"
#include "keep_result.h"
#include "rfc8239.h"

#define R	100e6
#define CEIL	(R * 1448.0 / 1538.0)

static struct bm_backend *mk(unsigned int n_ports)
{
	struct bm_sim_params p;

	bm_sim_params_default(&p);
	p.line_rate_bps = R;
	p.buffer_frames = 100;
	p.ports[n_ports - 1].shaper.rate_bps = R;
	p.ports[n_ports - 1].shaper.bucket_bytes = 3200;
	p.ports[n_ports - 1].shaper.overhead = 24;
	return sim_ports_new(&p, n_ports, "sim");
}

static void params(struct r8239_inc_params *p)
{
	r8239_inc_defaults(p);
	p->c.repeat = 2;
	p->c.drain_s = 0.5;
	p->warmup_s = 1;
	p->duration_s = 10;
}

static json_object *run(struct bm_backend *be, struct r8239_inc_params *p,
			const char *name)
{
	struct bm_error err = { "" };
	json_object *doc = NULL;
	int ret = r8239_inc_run(be, p, NULL, NULL, &doc, &err);

	ck_assert_msg(ret == 0, "%s: %s", name, err.msg);
	ck_assert_ptr_nonnull(doc);
	ck_assert_msg(json_object_array_length(tj_get(doc, "trials")) <=
		      r8239_inc_max_trials(p), "trial bound");
	bm_test_keep_result(doc, name);
	return doc;
}

static json_object *iter(json_object *doc, size_t i)
{
	json_object *a = tj_get(tj_get(doc, "results"), "iterations");

	ck_assert_uint_gt(json_object_array_length(a), i);
	return json_object_array_get_idx(a, i);
}

static json_object *rep(json_object *it, size_t i)
{
	return json_object_array_get_idx(tj_get(it, "repetitions"), i);
}

/* [8238 §7] one bulk flow alone: the F-9 Linux ceiling (to 1 bit/s:
 * the sim counts whole bytes) */
START_TEST(goodput_one_flow)
{
	struct bm_backend *be = mk(2);
	struct r8239_inc_params p;
	json_object *doc, *r;

	params(&p);
	p.goodput = true;
	doc = run(be, &p, "rfc8238.goodput");
	r = rep(iter(doc, 0), 0);
	ck_assert_double_eq_tol(tj_num(r, "goodput_bps"), CEIL, 1.0);
	ck_assert_double_eq_tol(tj_num(r, "ceiling_bps"), 94148244.47, 0.01);
	/* the [8238] form at MTU 1500: 1460/1526 of the line */
	ck_assert_double_eq_tol(tj_num(r, "ceiling_8238_bps"),
				R * 1460 / 1526, 1e-3);
	ck_assert_double_eq_tol(tj_num(tj_get(r, "tcp"), "window_s"), 10, 1e-9);
	ck_assert_str_eq(json_object_get_string(tj_get(tj_get(tj_get(r, "tcp"),
		"stack"), "routing_domains")), "sim");
	ck_assert_int_eq(json_object_array_length(tj_get(doc, "trials")), 0);
	json_object_put(doc);
	bm_sim_free(be);
}
END_TEST

/* A DUT that forwards 5000 frames a second, below the shaper's 8127.4
 * full segments: TCP gets 5000 segments of 1448 B, 57.92 Mbit/s (the
 * simulator's capacity holds in its TCP model as in its frame model) */
START_TEST(goodput_capacity)
{
	struct bm_sim_params sp;
	struct bm_backend *be;
	struct r8239_inc_params p;
	json_object *doc;

	bm_sim_params_default(&sp);
	sp.line_rate_bps = R;
	sp.buffer_frames = 100;
	sp.capacity_fps = 5000;
	be = sim_ports_new(&sp, 2, "sim");
	params(&p);
	p.goodput = true;
	doc = run(be, &p, "rfc8238.goodput");
	ck_assert_double_eq_tol(tj_num(rep(iter(doc, 0), 0), "goodput_bps"),
				5000 * 1448 * 8.0, 1.0);
	json_object_put(doc);
	bm_sim_free(be);
}
END_TEST

/* three ports, two connections each: the egress's share, equally */
START_TEST(goodput_shared)
{
	struct bm_backend *be = mk(3);
	struct r8239_inc_params p;
	json_object *doc, *c;
	size_t i;

	params(&p);
	p.goodput = true;
	p.connections = 2;
	doc = run(be, &p, "rfc8238.goodput");
	c = tj_get(tj_get(rep(iter(doc, 0), 0), "tcp"), "connections");
	ck_assert_uint_eq(json_object_array_length(c), 4);
	for (i = 0; i < 4; i++)
		ck_assert_double_eq_tol(tj_num(json_object_array_get_idx(c, i),
					       "goodput_bps"), CEIL / 4, 1.0);
	ck_assert_double_eq_tol(tj_num(rep(iter(doc, 0), 1), "goodput_bps"),
				CEIL, 4.0);
	json_object_put(doc);
	bm_sim_free(be);
}
END_TEST

/* INC-1, k = 1: the UDP bursts' accounted bits come off the TCP flow */
START_TEST(inc1_udp_share)
{
	struct bm_backend *be = mk(3);
	struct r8239_inc_params p;
	json_object *doc, *it, *r, *u, *tcp;
	double w, bits, want;

	params(&p);
	doc = run(be, &p, "rfc8239.incast");
	it = iter(doc, 0);
	ck_assert_int_eq(json_object_get_int(tj_get(it, "n_ingress")), 2);
	ck_assert_int_eq(json_object_array_length(tj_get(it, "stateful")), 1);
	ck_assert_int_eq(json_object_array_length(tj_get(it, "stateless")), 1);
	r = rep(it, 0);
	u = tj_get(r, "udp");
	tcp = tj_get(r, "tcp");
	/* 100 bursts of 100 x 64 B in 10 s, none lost */
	ck_assert_int_eq(json_object_get_int64(tj_get(u, "sent")), 10000);
	ck_assert_int_eq(json_object_get_int64(tj_get(u, "lost")), 0);
	bits = tj_num(u, "accounted_bits");
	ck_assert_double_eq_tol(bits, 10000 * 84 * 8.0, 1e-6);
	w = tj_num(tcp, "window_s");
	want = (R * w - bits) * 1448 / 1538 / w;
	ck_assert_double_eq_tol(tj_num(r, "goodput_bps"), want, 1.0);
	ck_assert_double_eq_tol(tj_num(r, "ceiling_left_by_udp_bps"), want,
				1e-3);
	/* SPEC acceptance (b): below 94.15 - 0.67 Mbit/s over the
	 * trial's span (the window also holds its drain, without UDP) */
	ck_assert(tj_num(r, "goodput_bps") < CEIL);
	/* one UDP port: no synchronisation to speak of (null), and the
	 * result says why, in the entry and as a deviation (RFC 8238
	 * §6.2.3 makes a non-null one a MUST) */
	ck_assert_ptr_null(tj_get(u, "sync_pct"));
	ck_assert_ptr_nonnull(strstr(json_object_get_string(
		tj_get(u, "sync_pct_why")), "one stateless port"));
	ck_assert(tj_has_deviation(doc, "synchronisation not measured"));
	/* a generator that keeps up: every burst back to back, "ok" */
	ck_assert_str_eq(json_object_get_string(tj_get(r, "result")), "ok");
	ck_assert_double_eq(tj_num(u, "tx_burst_late_max_s"), 0);
	ck_assert(!tj_has_deviation(doc, "not offered as asked"));
	json_object_put(doc);
	bm_sim_free(be);
}
END_TEST

/*
 * RFC 8239 §6.2: the UDP bursts at 100 % intensity, a MUST.  A generator
 * of 50 kfps behind the 100 Mbit/s line (148,810 fps at 64 B) sends each
 * burst's frames 20 us apart, not 6.72: the 100th of a burst leaves 99 x
 * 13.28 us = 1.315 ms behind its place.  The DUT saw a milder incast:
 * every repetition says so instead of "ok", and the result's deviations
 * count them (2 of 2).
 */
START_TEST(inc1_slow_bursts)
{
	struct bm_sim_params sp;
	struct bm_backend *be;
	struct r8239_inc_params p;
	json_object *doc, *it, *r;
	size_t i;

	bm_sim_params_default(&sp);
	sp.line_rate_bps = R;
	sp.buffer_frames = 100;
	sp.generator_max_fps = 50000;
	sp.ports[2].shaper.rate_bps = R;
	sp.ports[2].shaper.bucket_bytes = 3200;
	sp.ports[2].shaper.overhead = 24;
	be = sim_ports_new(&sp, 3, "sim");
	params(&p);
	doc = run(be, &p, "rfc8239.incast-slow");
	it = iter(doc, 0);
	for (i = 0; i < 2; i++) {
		r = rep(it, i);
		ck_assert_double_eq_tol(tj_num(tj_get(r, "udp"),
					       "tx_burst_late_max_s"),
					99 * (1 / 50000.0 - 84 * 8 / R), 2e-6);
		ck_assert_ptr_nonnull(strstr(json_object_get_string(
			tj_get(r, "result")), "bursts not as asked"));
	}
	ck_assert(tj_has_deviation(doc, "2 of 2 repetitions' UDP bursts not "
				   "offered as asked"));
	json_object_put(doc);
	bm_sim_free(be);
}
END_TEST

/*
 * R8238-LAT, R8238-CAL: the stateless latency is FILO by default and C
 * is subtracted.  The same run as FF with no C, then as FL with C =
 * 1,000 ns: FL = FF + the frame's serialisation at R on the output
 * (64 B, no preamble: 5,120 ns) for equal rates, less C, so every latency
 * of the second is the first's + 4,120 ns (the sim is deterministic).
 * The labels say so, the deviations name what is missing, and the iteration
 * has the latency's repeatability (RFC 8239 §6.3 items 3, 4).
 */
START_TEST(inc_latency_events)
{
	struct bm_backend *be = mk(3);
	struct r8239_inc_params p;
	json_object *a, *b, *ua, *ub;
	static const char *const keys[] = { "latency_min_ns",
					    "latency_mean_ns",
					    "latency_max_ns" };
	size_t i;

	params(&p);
	p.c.repeat = 1;
	p.duration_s = 2;
	p.latency_events = BM_EV_FF;
	a = run(be, &p, "rfc8239.incast-ff");
	ck_assert_str_eq(json_object_get_string(tj_get(tj_get(a, "results"),
		"latency_events")), bm_lat_event_label(BM_EV_FF));
	ck_assert(!json_object_get_boolean(tj_get(tj_get(a, "results"),
						  "cal_constant_subtracted")));
	ck_assert(tj_has_deviation(a, "no calibration constant"));
	ck_assert(tj_has_deviation(a, "not as FL (FILO)"));
	bm_sim_free(be);

	be = mk(3);
	p.latency_events = BM_EV_FL;
	p.cal_constant_ns = 1000;
	b = run(be, &p, "rfc8239.incast-fl");
	ck_assert(json_object_get_boolean(tj_get(tj_get(b, "results"),
						 "cal_constant_subtracted")));
	ck_assert(!tj_has_deviation(b, "no calibration constant"));
	ck_assert(!tj_has_deviation(b, "FILO"));
	ua = tj_get(rep(iter(a, 0), 0), "udp");
	ub = tj_get(rep(iter(b, 0), 0), "udp");
	for (i = 0; i < 3; i++)
		ck_assert_double_eq_tol(tj_num(ub, keys[i]),
					tj_num(ua, keys[i]) + 5120 - 1000,
					1e-6);
	ck_assert_double_eq_tol(tj_num(tj_get(iter(b, 0), "latency_mean_ns"),
				       "mean"), tj_num(ub, "latency_mean_ns"),
				1e-6);
	json_object_put(a);
	json_object_put(b);
	bm_sim_free(be);
}
END_TEST

/* INC-2, k = 2 on 4 ports (acceptance (c)): 1 stateful, 2 stateless,
 * started together: sync% 100 in the sim; offset_s 100 us: 0 */
START_TEST(inc2_sync)
{
	struct bm_backend *be = mk(4);
	struct r8239_inc_params p;
	json_object *doc, *it;

	params(&p);
	p.variation = R8239_INC_STATELESS;
	p.iteration = 2;
	p.c.repeat = 1;
	doc = run(be, &p, "rfc8239.incast");
	it = iter(doc, 0);
	ck_assert_int_eq(json_object_array_length(tj_get(it, "stateful")), 1);
	ck_assert_int_eq(json_object_array_length(tj_get(it, "stateless")), 2);
	ck_assert_double_eq_tol(tj_num(tj_get(rep(it, 0), "udp"), "sync_pct"),
				100, 1e-9);
	ck_assert_double_eq_tol(tj_num(tj_get(rep(it, 0), "udp"),
				       "burst_overlap_pct"), 100, 1e-9);
	ck_assert(!json_object_get_boolean(tj_get(tj_get(doc, "results"),
						  "not_an_incast")));
	json_object_put(doc);
	p.offset_s = 100e-6;
	doc = run(be, &p, "rfc8239.incast");
	ck_assert_double_eq_tol(tj_num(tj_get(rep(iter(doc, 0), 0), "udp"),
				       "sync_pct"), 0, 1e-9);
	/* the bursts (100 x 6.72 us) still overlap for 672 - 100 us */
	ck_assert_double_eq_tol(tj_num(tj_get(rep(iter(doc, 0), 0), "udp"),
				       "burst_overlap_pct"),
				100.0 * 572 / 672, 1e-6);
	ck_assert(json_object_get_boolean(tj_get(tj_get(doc, "results"),
						 "not_an_incast")));
	ck_assert(tj_has_deviation(doc, "not an incast"));
	ck_assert(tj_has_deviation(doc, "offset_s"));
	json_object_put(doc);
	bm_sim_free(be);
}
END_TEST

/* all iterations of INC-1 on 4 ports: k = 1, 2 */
START_TEST(inc1_all)
{
	struct bm_backend *be = mk(4);
	struct r8239_inc_params p;
	json_object *doc;

	params(&p);
	p.c.repeat = 1;
	doc = run(be, &p, "rfc8239.incast");
	ck_assert_uint_eq(json_object_array_length(tj_get(tj_get(doc,
		"results"), "iterations")), 2);
	ck_assert_int_eq(json_object_array_length(tj_get(iter(doc, 1),
		"stateful")), 2);
	json_object_put(doc);
	bm_sim_free(be);
}
END_TEST

/* (d): no TCP engine, no run; bad parameters named */
START_TEST(refusals)
{
	struct bm_backend *be = mk(3);
	const struct bm_tcp_ops *ops = be->tcp;
	struct bm_error err = { "" };
	struct r8239_inc_params p;
	json_object *doc = NULL;

	params(&p);
	be->tcp = NULL;
	ck_assert_int_eq(r8239_inc_run(be, &p, NULL, NULL, &doc, &err),
			 -EOPNOTSUPP);
	ck_assert_ptr_null(doc);
	ck_assert_msg(strstr(err.msg, "needs the TCP engine"), "%s", err.msg);
	ck_assert_ptr_null(strchr(err.msg, '\n'));
	be->tcp = ops;
	p.iteration = 2;
	ck_assert_int_eq(r8239_inc_run(be, &p, NULL, NULL, &doc, &err),
			 -EINVAL);
	ck_assert_msg(strstr(err.msg, "iteration"), "%s", err.msg);
	params(&p);
	p.burst_period_s = 20;
	ck_assert_int_eq(r8239_inc_check(&p, &err), -EINVAL);
	ck_assert_msg(strstr(err.msg, "burst_period_s"), "%s", err.msg);
	bm_sim_free(be);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("rfc8239.incast");
	TCase *tc = tcase_create("inc");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, goodput_one_flow);
	tcase_add_test(tc, goodput_capacity);
	tcase_add_test(tc, goodput_shared);
	tcase_add_test(tc, inc1_udp_share);
	tcase_add_test(tc, inc1_slow_bursts);
	tcase_add_test(tc, inc2_sync);
	tcase_add_test(tc, inc_latency_events);
	tcase_add_test(tc, inc1_all);
	tcase_add_test(tc, refusals);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tj_run_suite(suite());
}

// SPDX-License-Identifier: GPL-2.0
/*
 * TM-QS-2 and TM-SHP-2 against the simulated DUT and its fluid TCP engine
 * (backends/sim_tcp.c).
 *
 * Closed form.  The egress (port 2) is DUT-TBFB with SR = 50 Mbit/s and
 * overhead 4: a full segment (1448 B of payload, 1518 B frame) costs
 * A = 1518 B, so TCP alone gets S = 50 x 1448/1518 = 47.694 Mbit/s of
 * payload, shared max-min fairly: a paced bulk application asks its
 * pacing rate x 1448/1500 (the kernel paces IP packets), micro its bursts'
 * average; the others share the rest.  The sim's RTT is twice its 10 us
 * base latency, without a queue: efficiency 100 %, buffer delay 0.
 *  - bulk alone: bytes rate x Td / 8 = 187.5 MB at S take 31.45 s, past
 *    Td = 30 s, so the run goes on (at most 2 Td) until they are through:
 *    TTPET 31.45 s, throughput S;
 *  - micro alone: 16,000 B every 0.1 s: 300 bursts in Td, each through in
 *    16,000 x 8 / S + RTT; TTPET 29.9 s + that; throughput 1.28 Mbit/s;
 *  - a web-s script: the ideal time of TM-TTP's model at S and RTT.
 */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <string.h>

#include "bm_json.h"
#include "bm_sim.h"
#include "bm_tcp.h"
#include "check_util.h"
#include "keep_result.h"
#include "rfc7640.h"
#include "rfc7640_int.h"

#define SR	50e6
#define S	(SR * 1448.0 / 1518.0)
#define RTT	20e-6

static struct bm_backend *mk(void)
{
	struct bm_sim_params p;

	bm_sim_params_default(&p);
	p.line_rate_bps = 1e9;
	p.ports[1].shaper.rate_bps = SR;
	p.ports[1].shaper.bucket_bytes = 32000;
	p.ports[1].shaper.overhead = 4;
	return sim_ports_new(&p, 2, "sim");
}

static json_object *run(struct bm_backend *be, const struct tm_sf_params *p)
{
	struct bm_error err = { "" };
	json_object *doc = NULL;
	int ret = tm_sf_run(be, p, NULL, NULL, &doc, &err);

	ck_assert_msg(ret == 0, "stateful: %s", err.msg);
	ck_assert_ptr_nonnull(doc);
	bm_test_keep_result(doc, p->shaper ? "rfc7640.shaper-stateful" :
					     "rfc7640.queue-stateful");
	return doc;
}

/* results.tests[t].statistics[app][metric].mean */
static double mean(json_object *doc, size_t t, const char *app,
		   const char *metric)
{
	json_object *ts = tj_get(tj_get(doc, "results"), "tests");

	ck_assert_uint_gt(json_object_array_length(ts), t);
	return tj_num(tj_get(tj_get(tj_get(json_object_array_get_idx(ts, t),
		"statistics"), app), metric), "mean");
}

static void params(struct tm_sf_params *p, bool shaper)
{
	if (shaper)
		tm_sf_shaper_defaults(p);
	else
		tm_sf_defaults(p);
	p->rate_bps = SR;
	p->nde_rtt_ms = 0.02;
	p->tr = 2;
}

/* the two MUST patterns, a test each (the default) */
/* TM §4.2 MUST: an application's TTPET, TCP efficiency and buffer
 * delay, or why a run has none (bmctl report --check accepts a null
 * only beside its KEY_why). */
START_TEST(app_metrics_say_why)
{
	struct tm_app_run a;
	json_object *o;

	memset(&a, 0, sizeof(a));
	a.ttpet_s = a.eff_pct = a.bufd_pct = a.rtt_ms = a.base_ms = NAN;
	o = json_object_new_object();
	tm_app_ttpet_json(o, &a);
	tm_app_json(o, &a);
	ck_assert_ptr_null(tj_get(o, "ttpet_s"));
	ck_assert_ptr_nonnull(strstr(json_object_get_string(
		tj_get(o, "ttpet_s_why")), "no execution of the application"));
	ck_assert_str_eq(json_object_get_string(tj_get(o,
			 "tcp_efficiency_pct_why")),
			 "the application sent no bytes in the run");
	ck_assert_ptr_nonnull(strstr(json_object_get_string(
		tj_get(o, "buffer_delay_pct_why")), "no RTT sample"));
	json_object_put(o);
	/* RTTs but no baseline: says that; values: no why at all */
	a.rtt_ms = 2.0;
	o = json_object_new_object();
	tm_app_json(o, &a);
	ck_assert_ptr_nonnull(strstr(json_object_get_string(
		tj_get(o, "buffer_delay_pct_why")), "no baseline RTT"));
	json_object_put(o);
	a.ttpet_s = 1.5;
	a.eff_pct = 99.0;
	a.base_ms = 1.0;
	a.bufd_pct = 100.0;
	o = json_object_new_object();
	tm_app_ttpet_json(o, &a);
	tm_app_json(o, &a);
	ck_assert(!json_object_object_get_ex(o, "ttpet_s_why", NULL));
	ck_assert(!json_object_object_get_ex(o, "tcp_efficiency_pct_why",
					     NULL));
	ck_assert(!json_object_object_get_ex(o, "buffer_delay_pct_why", NULL));
	json_object_put(o);
}
END_TEST

START_TEST(bulk_and_micro)
{
	struct bm_backend *be = mk();
	struct tm_sf_params p;
	json_object *doc;
	double one = 16000 * 8 / S + RTT;

	params(&p, true);
	doc = run(be, &p);
	ck_assert_uint_eq(json_object_array_length(tj_get(tj_get(doc,
		"results"), "tests")), 2);
	/* bulk: 187.5 MB through at S */
	ck_assert_double_eq_tol(mean(doc, 0, "bulk", "throughput_bps"), S,
				1.0);
	ck_assert_double_eq_tol(mean(doc, 0, "bulk", "ttpet_s"),
				187.5e6 * 8 / S, 1e-6);
	ck_assert_double_eq_tol(mean(doc, 0, "bulk", "bytes_in"), 187.5e6, 1);
	ck_assert_double_eq_tol(mean(doc, 0, "bulk", "tcp_efficiency_pct"),
				100, 1e-9);
	ck_assert_double_eq_tol(mean(doc, 0, "bulk", "buffer_delay_pct"), 0,
				1e-9);
	/* micro: 300 bursts */
	ck_assert_double_eq_tol(mean(doc, 1, "micro", "throughput_bps"),
				300 * 16000 * 8 / 30.0, 1.0);
	ck_assert_double_eq_tol(mean(doc, 1, "micro", "ttpet_s"),
				29.9 + one, 1e-9);
	/* the configured mixture: micro's share of SR */
	ck_assert_double_eq_tol(tj_num(json_object_array_get_idx(tj_get(
		json_object_array_get_idx(tj_get(tj_get(doc, "results"),
		"tests"), 1), "mixture"), 0), "configured_pct"),
		100 * 1.28e6 / SR, 1e-9);
	ck_assert(!tj_has_deviation(doc, "MUST both"));
	ck_assert(tj_has_deviation(doc, "Td below 60 s"));
	json_object_put(doc);
	bm_sim_free(be);
}
END_TEST

/* the mixture at once: paced bulk 40 % and micro get what they ask */
START_TEST(mixture)
{
	struct bm_backend *be = mk();
	struct tm_sf_params p;
	json_object *doc;

	params(&p, false);
	p.concurrent = true;
	p.bulk_pct = 40;
	p.bulk_bytes = 10000000;
	p.td_s = 10;
	doc = run(be, &p);
	ck_assert_uint_eq(json_object_array_length(tj_get(tj_get(doc,
		"results"), "tests")), 1);
	/* 20 Mbit/s of IP packets: 1448/1500 of it payload */
	ck_assert_double_eq_tol(mean(doc, 0, "bulk", "throughput_bps"),
				20e6 * 1448 / 1500, 1.0);
	ck_assert_double_eq_tol(mean(doc, 0, "bulk", "ttpet_s"),
				10e6 * 8 / (20e6 * 1448 / 1500), 1e-9);
	/* micro over the run's 2 Td (bulk's extension) */
	ck_assert_double_eq_tol(mean(doc, 0, "micro", "throughput_bps"),
				1.28e6, 1.0);
	json_object_put(doc);
	bm_sim_free(be);
}
END_TEST

/* a scripted pattern: TM-TTP's ideal time at S */
START_TEST(web_script)
{
	struct bm_backend *be = mk();
	struct bm_ttp_params tp = { .kind = BM_TTP_WEB_S };
	struct bm_ttp_script sc = { NULL, 0 };
	struct bm_error err = { "" };
	struct tm_sf_params p;
	json_object *doc;
	double ideal;

	ck_assert_int_eq(bm_ttp_script_build(&tp, &sc, &err), 0);
	ideal = bm_ttp_script_ideal_s(&sc, S, RTT);
	bm_ttp_script_free(&sc);
	params(&p, false);
	p.apps = 1u << BM_TTP_WEB_S;
	p.td_s = 60;
	p.tr = 1;
	doc = run(be, &p);
	ck_assert_double_eq_tol(mean(doc, 0, "web-s", "ttpet_s"), ideal, 1e-9);
	/* 7 executions of ~8.0 s in 60 s, 46,800 B each */
	ck_assert_double_eq_tol(mean(doc, 0, "web-s", "bytes_in"),
				floor(60 / ideal) * 1800, 1e-6);
	ck_assert(tj_has_deviation(doc, "MUST both"));
	json_object_put(doc);
	bm_sim_free(be);
}
END_TEST

/* TM-QS-2's rules as deviations; no engine, no run */
START_TEST(rules_and_refusal)
{
	struct bm_backend *be = mk();
	const struct bm_tcp_ops *ops = be->tcp;
	struct bm_error err = { "" };
	struct tm_sf_params p;
	json_object *doc = NULL;

	params(&p, false);
	p.tr = 1;
	p.td_s = 1;
	p.ql = 32000;		/* BDP at 50 Mbit/s x 20 us = 125 B */
	doc = run(be, &p);
	ck_assert(tj_has_deviation(doc, "not above QL"));
	json_object_put(doc);
	p.nde_rtt_ms = 0;
	doc = run(be, &p);
	ck_assert(tj_has_deviation(doc, "nde_rtt_ms not given"));
	json_object_put(doc);
	p.nde_rtt_ms = 5;	/* the sim's path is 20 us */
	doc = run(be, &p);
	ck_assert(tj_has_deviation(doc, "is the NDE set"));
	json_object_put(doc);
	be->tcp = NULL;
	doc = NULL;
	ck_assert_int_eq(tm_sf_run(be, &p, NULL, NULL, &doc, &err),
			 -EOPNOTSUPP);
	ck_assert_ptr_null(doc);
	ck_assert_msg(strstr(err.msg, "needs the TCP engine"), "%s", err.msg);
	be->tcp = ops;
	p.connections = 16;
	p.apps = 0x3ff;
	ck_assert_int_eq(tm_sf_check(&p, &err), -EINVAL);
	ck_assert_msg(strstr(err.msg, "connections"), "%s", err.msg);
	bm_sim_free(be);
}
END_TEST

/* a class per connection: conn_dscps lands on the connections (which
 * retransmit nothing, lab rfc7640/stateful); bad values refused with the
 * key */
START_TEST(conn_dscps)
{
	struct bm_backend *be = mk();
	struct bm_error err = { "" };
	struct tm_sf_params p;
	json_object *doc, *c, *j;
	int i;

	params(&p, false);
	p.tr = 1;
	p.td_s = 2;
	p.apps = 1u << BM_TTP_BULK;
	p.connections = 2;
	j = json_tokener_parse("{\"conn_dscps\": [46, 0]}");
	ck_assert_int_eq(bm_json_parse_params(j, tm_sf_keys, 1, &p, "t",
					      &err), 0);
	json_object_put(j);
	doc = run(be, &p);
	c = tj_get(tj_get(json_object_array_get_idx(tj_get(
		json_object_array_get_idx(tj_get(tj_get(doc, "results"),
		"tests"), 0), "runs"), 0), "tcp"), "connections");
	ck_assert_int_eq(json_object_get_int(tj_get(
		json_object_array_get_idx(c, 0), "dscp")), 46);
	ck_assert_int_eq(json_object_get_int(tj_get(
		json_object_array_get_idx(c, 1), "dscp")), 0);
	/* the fluid model loses nothing and its timers never beat an ACK:
	 * no retransmission, none reported twice (D-SACK) */
	for (i = 0; i < 2; i++) {
		ck_assert_double_eq(tj_num(json_object_array_get_idx(c, i),
					   "total_retrans"), 0);
		ck_assert_double_eq(tj_num(json_object_array_get_idx(c, i),
					   "dsack_dups"), 0);
	}
	json_object_put(doc);
	j = json_tokener_parse("{\"conn_dscps\": [64]}");
	ck_assert_int_eq(bm_json_parse_params(j, tm_sf_keys, 1, &p, "t",
					      &err), -EINVAL);
	ck_assert_msg(strstr(err.msg, "conn_dscps[0]"), "%s", err.msg);
	json_object_put(j);
	bm_sim_free(be);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("rfc7640.stateful");
	TCase *tc = tcase_create("sf");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, bulk_and_micro);
	tcase_add_test(tc, app_metrics_say_why);
	tcase_add_test(tc, mixture);
	tcase_add_test(tc, web_script);
	tcase_add_test(tc, rules_and_refusal);
	tcase_add_test(tc, conn_dscps);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tj_run_suite(suite());
}

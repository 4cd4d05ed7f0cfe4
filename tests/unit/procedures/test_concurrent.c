// SPDX-License-Identifier: GPL-2.0
/*
 * rfc7640.concurrent (TM-CONC, REQ-TM-9) against the simulated DUT: the
 * SPEC's acceptance profile, a policer (DUT-POL, 100 Mbit/s, 64,000 B) on
 * ports 1 -> 2 and a shaper (DUT-TBFB, 50 Mbit/s, bucket 32,000 B) on
 * 3 -> 4 of one simulated DUT, run at once: their trials merged, two by
 * two, then the policer's last two alone.  Truth: each instance's results
 * equal its standalone run's on a DUT of that port alone (the egresses
 * share nothing), and so the closed forms of the standalone tests:
 * compliant BSA 64,000 B with LP 0, excess BSA 63,756 B; SR 50 Mbit/s
 * +- 1 %.  Then what must fail, and how.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bm_procedure.h"
#include "bm_sim.h"
#include "check_util.h"
#include "keep_result.h"

#define POL_PORT(p) "{\"port\": " #p ", \"policer\": {\"cir_bps\": " \
		"100e6, \"cbs_bytes\": 64000, \"overhead\": 4}}"
#define SHP_PORT(p) "{\"port\": " #p ", \"shaper\": {\"rate_bps\": " \
		"5e7, \"bucket_bytes\": 32000, \"overhead\": 4}, " \
		"\"queue_bytes\": 600000, \"queue_frames\": 1000000}"
#define POL_SIM	"{\"ports\": [" POL_PORT(1) "]}"
#define SHP_SIM	"{\"ports\": [" SHP_PORT(1) "]}"
/* the job's DUT: the policer on port 2, the shaper on port 4 */
#define JOB_SIM	"{\"ports\": [" POL_PORT(1) ", " SHP_PORT(3) "]}"
#define POL_PAR	"{\"cir_bps\": 100e6, \"cbs\": \"64KB\", \"tr\": 2, " \
		"\"td_s\": 1, \"drain_s\": 0.01, \"learning\": false}"
#define SHP_PAR	"{\"tr\": 2, \"drain_s\": 0.2, \"learning\": false}"

#define POL_INST(ports) "{\"procedure\": \"rfc7640.policer\", \"ports\": " \
			ports ", \"params\": " POL_PAR "}"
#define SHP_INST(ports) "{\"procedure\": \"rfc7640.shaper\", \"ports\": " \
			ports ", \"params\": " SHP_PAR "}"

/* A simulated job of n ports p1..pn at 1e11 bit/s. */
static struct bm_backend *job(unsigned int n, const char *sim_js)
{
	struct bm_error err = { "" };
	struct bm_sim_params p;
	struct bm_backend *be;
	json_object *o = json_tokener_parse(sim_js ? sim_js : "{}");

	bm_sim_params_default(&p);
	p.line_rate_bps = 1e11;
	ck_assert_msg(bm_sim_params_from_json(o, &p, &err) == 0, "%s",
		      err.msg);
	json_object_put(o);
	be = sim_ports_new(&p, n, "p");
	return be;
}

static json_object *run_js(const char *proc, const char *js,
			   struct bm_backend *be, int want,
			   struct bm_error *err)
{
	json_object *p = json_tokener_parse(js), *doc = NULL;
	int ret;

	ck_assert_msg(p, "bad JSON %s", js);
	ret = bm_procedure_run(proc, p, be, NULL, NULL, &doc, err);
	ck_assert_msg(ret == want, "%s: %d (%s), want %d", proc, ret, err->msg,
		      want);
	json_object_put(p);
	if (doc)
		bm_test_keep_result(doc, "concurrent");
	return doc;
}

static json_object *instance(json_object *doc, size_t i)
{
	return json_object_array_get_idx(tj_get(tj_get(doc, "results"),
						"instances"), i);
}

/* The standalone result of proc with params on a fresh sim. */
static json_object *standalone(const char *proc, const char *params,
			       const char *sim_js)
{
	struct bm_backend *be = job(2, sim_js);
	struct bm_error err = { "" };
	json_object *doc = run_js(proc, params, be, 0, &err);

	bm_sim_free(be);
	return doc;
}

START_TEST(acceptance_profile)
{
	struct bm_backend *be = job(4, JOB_SIM);
	struct bm_error err = { "" };
	json_object *doc, *pol, *shp, *r, *c, *alone;
	int i;

	doc = run_js("rfc7640.concurrent", "{\"profile\": \"policers on "
		     "ingress + shapers on egress\", \"instances\": ["
		     POL_INST("[1, 2]") ", " SHP_INST("[3, 4]") "]}", be, 0,
		     &err);
	ck_assert_str_eq(json_object_get_string(tj_get(tj_get(doc,
		"results"), "profile")), "policers on ingress + shapers on "
		"egress");
	pol = instance(doc, 0);
	shp = instance(doc, 1);
	ck_assert_str_eq(json_object_get_string(tj_get(pol, "state")), "done");
	ck_assert_str_eq(json_object_get_string(tj_get(shp, "state")), "done");
	ck_assert_str_eq(json_object_get_string(json_object_array_get_idx(
		tj_get(shp, "ports"), 1)), "p4");
	ck_assert_double_eq(tj_num(pol, "trials"), 4);
	ck_assert_double_eq(tj_num(shp, "trials"), 2);
	/* two trials together, then the policer's second run alone */
	ck_assert_double_eq(tj_num(pol, "trials_together"), 2);
	ck_assert_double_eq(tj_num(shp, "trials_together"), 2);
	ck_assert_double_eq(tj_num(tj_get(tj_get(doc, "results"),
					  "concurrency"), "trials"), 4);
	/* MODEL-TB on a 100 Gbit/s line: no refill during a burst */
	r = tj_get(tj_get(pol, "result"), "results");
	for (i = 0; i < 2; i++) {
		c = json_object_array_get_idx(tj_get(r, "compliant"), i);
		ck_assert_double_eq(tj_num(c, "lp"), 0);
		ck_assert_double_eq(tj_num(c, "bsa_bytes"), 64000);
		c = json_object_array_get_idx(tj_get(r, "excess"), i);
		ck_assert_double_eq(tj_num(c, "bsa_bytes"), 63756);
	}
	r = tj_get(tj_get(shp, "result"), "results");
	for (i = 0; i < 2; i++) {
		c = json_object_array_get_idx(tj_get(r, "runs"), i);
		ck_assert_double_eq(tj_num(c, "lp"), 0);
		ck_assert_double_eq_tol(tj_num(c, "sr_bps"), 50e6, 0.5e6);
	}
	/* each exactly as it is alone */
	alone = standalone("rfc7640.policer", POL_PAR, POL_SIM);
	ck_assert(json_object_equal(tj_get(alone, "results"),
				    tj_get(tj_get(pol, "result"), "results")));
	json_object_put(alone);
	alone = standalone("rfc7640.shaper", SHP_PAR, SHP_SIM);
	ck_assert(json_object_equal(tj_get(alone, "results"),
				    tj_get(tj_get(shp, "result"), "results")));
	json_object_put(alone);
	/* one time base, the simulated DUT's clock: both sent together in
	 * the first two trials, the policer's bursts over 195 x 5.12 ms
	 * each, then it sent alone twice as long */
	c = tj_get(tj_get(doc, "results"), "concurrency");
	ck_assert_double_eq_tol(tj_num(pol, "tx_time_s"), 4 * 194 * 5.12e-3,
				4 * 1.3e-3);
	ck_assert_double_eq_tol(tj_num(c, "all_active_s"),
				tj_num(pol, "tx_time_s") / 2, 1e-9);
	ck_assert(tj_num(shp, "tx_time_s") > 59);
	ck_assert_double_eq_tol(tj_num(c, "overlap_pct"), 50, 1e-9);
	ck_assert(tj_has_deviation(doc, "AMB-41"));
	ck_assert(tj_has_deviation(doc, "AMB-39"));
	json_object_put(doc);
	bm_sim_free(be);
}
END_TEST

/*
 * TM-CONC with stateful traffic: the policer of the acceptance profile on
 * ports 1 -> 2 beside rfc7640.queue-stateful's bulk TCP on 3 -> 4, whose
 * egress is DUT-TBFB at 50 Mbit/s.  The TCP instance's trials are none:
 * its connections run in the background while the policer's trials run
 * (on the one simulated clock, which those trials carry).  Truth: each
 * result equals its standalone run's (SPEC TM-CONC acceptance), the
 * TCP's throughput the fluid model's S = 50 x 1448/1518 Mbit/s; the
 * policer's trials are shared with the TCP instance, and its window
 * overlaps them.
 */
#define SF_PAR	"{\"bb_bps\": 5e7, \"nde_rtt_ms\": 0.02, \"apps\": " \
		"[\"bulk\"], \"tr\": 2, \"td_s\": 1}"
#define SF_INST(ports) "{\"procedure\": \"rfc7640.queue-stateful\", " \
		"\"ports\": " ports ", \"params\": " SF_PAR "}"

static double app_mean(json_object *doc, const char *metric)
{
	return tj_num(tj_get(tj_get(tj_get(json_object_array_get_idx(tj_get(
		tj_get(doc, "results"), "tests"), 0), "statistics"), "bulk"),
		metric), "mean");
}

START_TEST(stateful_beside_stateless)
{
	struct bm_backend *be = job(4, JOB_SIM);
	struct bm_error err = { "" };
	json_object *doc, *pol, *sf, *alone, *c;
	double s = 50e6 * 1448 / 1518;

	doc = run_js("rfc7640.concurrent", "{\"profile\": \"policers on "
		     "ingress + queuing with TCP on egress\", \"instances\": ["
		     POL_INST("[1, 2]") ", " SF_INST("[3, 4]") "]}", be, 0,
		     &err);
	pol = instance(doc, 0);
	sf = instance(doc, 1);
	ck_assert_str_eq(json_object_get_string(tj_get(sf, "state")), "done");
	ck_assert_double_eq(tj_num(sf, "trials"), 0);
	ck_assert_double_eq(tj_num(pol, "trials"), 4);
	/* every policer trial ran while the TCP instance was live or done;
	 * at least the first ones beside its connections */
	ck_assert_double_ge(tj_num(pol, "trials_together"), 1);
	ck_assert_uint_eq(json_object_array_length(tj_get(sf,
		"tx_windows_s")), 2);
	c = tj_get(tj_get(doc, "results"), "concurrency");
	ck_assert_double_gt(tj_num(c, "all_active_s"), 0);
	ck_assert_double_eq_tol(app_mean(tj_get(sf, "result"),
					 "throughput_bps"), s, s * 1e-9);
	alone = standalone("rfc7640.queue-stateful", SF_PAR, SHP_SIM);
	ck_assert_double_eq_tol(app_mean(tj_get(sf, "result"),
					 "throughput_bps"),
				app_mean(alone, "throughput_bps"), s * 1e-9);
	ck_assert_double_eq_tol(app_mean(tj_get(sf, "result"), "ttpet_s"),
				app_mean(alone, "ttpet_s"), 1e-9);
	json_object_put(alone);
	alone = standalone("rfc7640.policer", POL_PAR, POL_SIM);
	ck_assert(json_object_equal(tj_get(alone, "results"),
				    tj_get(tj_get(pol, "result"), "results")));
	json_object_put(alone);
	json_object_put(doc);
	bm_sim_free(be);

	/* REQ-TM-2: bmd's gate sees the TCP instance's path as the job's
	 * ports 3 -> 4 (0-based 2, 3), and none of the policer's */
	{
		const struct bm_procedure_info *pi =
			bm_procedure_find("rfc7640.concurrent", NULL);
		json_object *pj = json_tokener_parse("{\"instances\": ["
			POL_INST("[1, 2]") ", " SF_INST("[4, 3]") "]}");
		unsigned int pairs[4][2];

		ck_assert_uint_eq(pi->nde_pairs(pi, pj, 4, pairs, 4), 1);
		ck_assert_uint_eq(pairs[0][0], 3);
		ck_assert_uint_eq(pairs[0][1], 2);
		json_object_put(pj);
	}
	/* ports given the other way round, onto the job's first two: the
	 * instance's TCP record names its own client and server (job ports
	 * 2 and 1, its 0 and 1), mapped back once */
	be = job(4, NULL);
	doc = run_js("rfc7640.concurrent", "{\"instances\": [" SF_INST(
		     "[2, 1]") ", " POL_INST("[3, 4]") "]}", be, 0, &err);
	c = json_object_array_get_idx(tj_get(tj_get(json_object_array_get_idx(
		tj_get(json_object_array_get_idx(tj_get(tj_get(tj_get(
		instance(doc, 0), "result"), "results"), "tests"), 0), "runs"),
		0), "tcp"), "connections"), 0);
	ck_assert_str_eq(json_object_get_string(tj_get(c, "client")), "p2");
	ck_assert_str_eq(json_object_get_string(tj_get(c, "server")), "p1");
	json_object_put(doc);
	bm_sim_free(be);

	/* one TCP session at a time: a second stateful instance is refused,
	 * naming it */
	be = job(6, NULL);
	doc = run_js("rfc7640.concurrent", "{\"instances\": [" SF_INST(
		     "[1, 2]") ", " POL_INST("[3, 4]") ", " SF_INST("[5, 6]")
		     "]}", be, -EINVAL, &err);
	ck_assert_msg(strstr(err.msg, "instances[3]: a second instance with "
			     "TCP"), "%s", err.msg);
	json_object_put(doc);
	bm_sim_free(be);
}
END_TEST

/* Rejected before anything runs: each reason names the instance. */
START_TEST(bad_instances)
{
	static const struct { const char *js, *msg; } bad[] = {
		{ "{\"instances\": [" POL_INST("[1, 2]") "]}",
		  "2 to 8 procedures, 1 given" },
		{ "{\"instances\": [" POL_INST("[1, 2]") ", "
		  SHP_INST("[2, 3]") "]}", "instances[2].ports: port 2 is "
		  "instances[1]'s too" },
		{ "{\"instances\": [" POL_INST("[1, 2]") ", {\"procedure\": "
		  "\"rfc2544.throughput\", \"ports\": [3, 4]}]}",
		  "instances[2].procedure: 'rfc2544.throughput' is not" },
		{ "{\"instances\": [" POL_INST("[1, 2]") ", {\"procedure\": "
		  "\"rfc7640.concurrent\", \"ports\": [3, 4]}]}",
		  "'rfc7640.concurrent' is not" },
		{ "{\"instances\": [" POL_INST("[1, 2]") ", {\"procedure\": "
		  "\"rfc7640.shaper\", \"ports\": [3]}]}",
		  "rfc7640.shaper needs 2 ports (REQ-CAP-1), 1 given" },
		{ "{\"instances\": [" POL_INST("[1, 1]") ", "
		  SHP_INST("[3, 4]") "]}", "instances[1].ports: 1 twice" },
		{ "{\"instances\": [" POL_INST("[1, 0]") ", "
		  SHP_INST("[3, 4]") "]}", "instances[1].ports: 0: 1 to" },
		{ "{\"instances\": [" POL_INST("[1, 2]") ", {\"procedure\": "
		  "\"rfc7640.shaper\", \"ports\": [3, 4], \"params\": "
		  "{\"tr\": 0}}]}", "instances[2].params: " },
		{ "{\"instances\": [" POL_INST("[1, 2]") ", {\"procedure\": "
		  "\"rfc7640.shaper\", \"ports\": [3, 4], \"sim\": {}}]}",
		  "instances[2]: unknown key 'sim'" },
		{ "{\"instances\": {}}", "instances: a list" },
		{ "{\"profile\": 3}", "profile: a string" },
	};
	struct bm_error err;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		json_object *p = json_tokener_parse(bad[i].js);

		ck_assert_msg(p, "bad JSON %s", bad[i].js);
		err.msg[0] = '\0';
		ck_assert_int_eq(bm_procedure_validate("rfc7640.concurrent", p,
						       1e11, &err), -EINVAL);
		ck_assert_msg(strstr(err.msg, bad[i].msg), "%zu: '%s', want "
			      "'%s'", i, err.msg, bad[i].msg);
		json_object_put(p);
	}
}
END_TEST

/* Failures at run time: a port the job has not (nothing runs, no
 * result); an instance that fails while the other runs: the job fails
 * naming it, and both instances' results are in the document. */
START_TEST(run_failures)
{
	struct bm_backend *be = job(3, NULL);
	struct bm_error err = { "" };
	json_object *doc;

	doc = run_js("rfc7640.concurrent", "{\"instances\": ["
		     POL_INST("[1, 2]") ", " SHP_INST("[3, 4]") "]}", be,
		     -EINVAL, &err);
	ck_assert_ptr_null(doc);
	ck_assert_msg(strstr(err.msg, "instances[2].ports: port 4: the job "
			     "has 3"), "%s", err.msg);
	bm_sim_free(be);

	be = job(5, "{\"ports\": [" SHP_PORT(1) "]}");
	err.msg[0] = '\0';
	/* egress port 3 of a 2-port instance: known only at run time */
	doc = run_js("rfc7640.concurrent", "{\"instances\": ["
		     SHP_INST("[1, 2]") ", {\"procedure\": "
		     "\"rfc7640.queue-capacity\", \"ports\": [3, 4, 5], "
		     "\"params\": {\"egress_ports\": [4]}}]}", be, -EINVAL,
		     &err);
	ck_assert_msg(strstr(err.msg, "instances[2] (rfc7640.queue-capacity)"),
		      "%s", err.msg);
	ck_assert_ptr_nonnull(doc);
	ck_assert_str_eq(json_object_get_string(tj_get(instance(doc, 1),
						       "state")), "failed");
	ck_assert_ptr_nonnull(tj_get(instance(doc, 0), "result"));
	json_object_put(doc);
	bm_sim_free(be);
}
END_TEST

static int stop_after_first(void *ctx, const struct bm_trial_record *rec,
			    const char *status_line)
{
	int *n = ctx;

	(void)status_line;
	if (rec)
		(*n)++;
	return *n >= 1;
}

/* A cancel reaches every instance at its next trial; the partial results
 * are kept. */
START_TEST(cancel)
{
	struct bm_backend *be = job(4, JOB_SIM);
	struct bm_error err = { "" };
	json_object *p, *doc = NULL;
	int n = 0;

	p = json_tokener_parse("{\"instances\": [" POL_INST("[1, 2]") ", "
			       SHP_INST("[3, 4]") "]}");
	ck_assert_int_eq(bm_procedure_run("rfc7640.concurrent", p, be,
					  stop_after_first, &n, &doc, &err),
			 -ECANCELED);
	ck_assert_ptr_nonnull(doc);
	ck_assert_str_eq(json_object_get_string(tj_get(instance(doc, 0),
						       "state")), "stopped");
	ck_assert_str_eq(json_object_get_string(tj_get(instance(doc, 1),
						       "state")), "stopped");
	ck_assert(tj_num(instance(doc, 0), "trials") +
		  tj_num(instance(doc, 1), "trials") <= 2);
	bm_test_keep_result(doc, "concurrent");
	json_object_put(doc);
	json_object_put(p);
	bm_sim_free(be);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("concurrent");
	TCase *tc = tcase_create("tm-conc");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, acceptance_profile);
	tcase_add_test(tc, stateful_beside_stateless);
	tcase_add_test(tc, bad_instances);
	tcase_add_test(tc, run_failures);
	tcase_add_test(tc, cancel);
	suite_add_tcase(s, tc);
	return tj_run_suite(s);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * rfc7640.nde-verify (TM-SETUP, REQ-TM-2, REQ-TM-6) and its gate against
 * the simulated device standing for the NDE alone.
 *
 * Closed form.  The sim's one-way delay of a frame is base_latency_ns (the
 * NDE's delay D, both ways) plus its last bit out of the egress: with no
 * queue (CBR at most the egress rate) (F + 20) x 8 / R after the first
 * bit, so the mean is D + (F + 20) x 8 / R exactly and the accuracy 0.
 * Its fluid TCP engine's RTT is 2 D, and a bulk connection alone on an
 * egress of rate E gets E x 1448 / 1538 (F-9's Linux ceiling at E).
 *  - D = 10 ms each way, R = 1 Gbit/s: every size passes, the TCP
 *    baseline RTT is 20 ms, goodput 100 % of the ceiling;
 *  - the forward egress at R / 2 behind a 100-frame queue, at 100 %
 *    load: sent - received = sent - (sent / 2 + 100) (+-1 rounding),
 *    the verification fails on loss, TCP gets 50 %: tcp_host_limited;
 *  - D = 12 ms configured as 10: off by 2 ms + the service, beyond
 *    max(1 %, 50 us): fails on delay, both directions and the RTT.
 */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <string.h>

#include "bm_json.h"
#include "bm_sim.h"
#include "check_util.h"
#include "keep_result.h"
#include "rfc7640.h"

#define R	1e9
#define D_NS	10e6

static struct bm_backend *mk(double base_ns, double fwd_egress_bps)
{
	struct bm_sim_params p;

	bm_sim_params_default(&p);
	p.line_rate_bps = R;
	p.base_latency_ns = base_ns;
	if (fwd_egress_bps > 0) {
		p.ports[1].egress_bps = fwd_egress_bps;
		p.ports[1].queue_frames = 100;
	}
	return sim_ports_new(&p, 2, "nde");
}

static void params(struct tm_nde_params *p)
{
	static const uint32_t sizes[] = { 128, 1500 };

	tm_nde_defaults(p);
	memcpy(p->frame_sizes, sizes, sizeof(sizes));
	p->n_sizes = 2;
	p->delay_ms = 10;
	p->reverse_delay_ms = 10;
	p->duration_s = 0.1;	/* the closed forms hold at any length */
	p->tcp_duration_s = 5;
}

static json_object *run(struct bm_backend *be, const struct tm_nde_params *p,
			int want, struct bm_error *err)
{
	json_object *doc = NULL;
	int ret = tm_nde_run(be, p, NULL, NULL, &doc, err);

	ck_assert_msg(ret == want, "nde-verify: %d, %s", ret, err->msg);
	ck_assert_ptr_nonnull(doc);
	bm_test_keep_result(doc, "rfc7640.nde-verify");
	return doc;
}

/* results.per_size[i].directions[k] */
static json_object *dir_of(json_object *doc, size_t i, size_t k)
{
	json_object *s = tj_get(tj_get(doc, "results"), "per_size");

	ck_assert_uint_gt(json_object_array_length(s), i);
	s = tj_get(json_object_array_get_idx(s, i), "directions");
	ck_assert_uint_gt(json_object_array_length(s), k);
	return json_object_array_get_idx(s, k);
}

static bool nde_ok(json_object *doc)
{
	return json_object_get_boolean(tj_get(tj_get(doc, "results"),
					      "nde_ok"));
}

START_TEST(verified)
{
	struct bm_backend *be = mk(D_NS, 0);
	struct bm_error err = { "" };
	struct tm_nde_params p;
	json_object *doc, *d, *tcp;
	size_t i, k;

	params(&p);
	doc = run(be, &p, 0, &err);
	ck_assert(nde_ok(doc));
	ck_assert_uint_eq(json_object_array_length(tj_get(tj_get(doc,
		"results"), "failures")), 0);
	for (i = 0; i < 2; i++)
		for (k = 0; k < 2; k++) {
			double f = p.frame_sizes[i];

			d = dir_of(doc, i, k);
			ck_assert_double_eq(tj_num(d, "lost"), 0);
			ck_assert_double_gt(tj_num(d, "sent"), 0);
			ck_assert_double_eq_tol(tj_num(d, "mean_delay_ms"),
				10 + (f + 20) * 8 / R * 1e3, 1e-6);
			ck_assert_double_eq_tol(tj_num(d, "accuracy_ms"), 0,
						1e-6);
			ck_assert(json_object_get_boolean(tj_get(d, "ok")));
		}
	ck_assert_str_eq(json_object_get_string(tj_get(dir_of(doc, 0, 1),
		"direction")), "nde2->nde1");
	tcp = tj_get(tj_get(doc, "results"), "tcp");
	ck_assert_double_eq_tol(tj_num(tcp, "baseline_rtt_ms"), 20, 1e-6);
	ck_assert_double_eq_tol(tj_num(tcp, "goodput_pct_of_ceiling"), 100,
				1e-6);
	ck_assert(!json_object_get_boolean(tj_get(tcp, "tcp_host_limited")));
	ck_assert_double_eq_tol(tj_num(tj_get(tj_get(doc, "results"),
		"configured"), "rtt_ms"), 20, 1e-12);
	json_object_put(doc);
	bm_sim_free(be);
}
END_TEST

START_TEST(loss_fails)
{
	struct bm_backend *be = mk(D_NS, R / 2);
	struct bm_error err = { "" };
	struct tm_nde_params p;
	json_object *doc, *d, *f;
	double sent;

	params(&p);
	p.reverse_delay_ms = NAN;	/* forward only */
	p.delay_ms = 10;
	p.tolerance_ms = 1e6;		/* loss alone decides */
	doc = run(be, &p, -EDOM, &err);
	ck_assert(!nde_ok(doc));
	ck_assert_msg(strstr(err.msg, "128 B nde1->nde2") &&
		      strstr(err.msg, "frames lost"), "%s", err.msg);
	d = dir_of(doc, 0, 0);
	sent = tj_num(d, "sent");
	ck_assert_double_eq_tol(tj_num(d, "lost"), sent - (sent / 2 + 100),
				1.0);
	ck_assert(!json_object_get_boolean(tj_get(d, "ok")));
	/* one direction only, and both sizes fail */
	ck_assert_uint_eq(json_object_array_length(tj_get(
		json_object_array_get_idx(tj_get(tj_get(doc, "results"),
		"per_size"), 0), "directions")), 1);
	f = tj_get(tj_get(doc, "results"), "failures");
	ck_assert_uint_eq(json_object_array_length(f), 2);
	/* REQ-TM-6: TCP gets the halved egress */
	d = tj_get(tj_get(doc, "results"), "tcp");
	ck_assert_double_eq_tol(tj_num(d, "goodput_pct_of_ceiling"), 50, 1e-6);
	ck_assert(json_object_get_boolean(tj_get(d, "tcp_host_limited")));
	json_object_put(doc);
	bm_sim_free(be);
}
END_TEST

START_TEST(delay_off_fails)
{
	struct bm_backend *be = mk(12e6, 0);
	struct bm_error err = { "" };
	struct tm_nde_params p;
	json_object *doc, *f;

	params(&p);
	doc = run(be, &p, -EDOM, &err);
	ck_assert(!nde_ok(doc));
	ck_assert_msg(strstr(err.msg, "mean delay 12.0012 ms, configured "
			     "10.0000 ms (+- 0.1000)"), "%s", err.msg);
	/* 2 sizes x 2 directions, and TCP's RTT 24 ms against 20 +- 0.2 */
	f = tj_get(tj_get(doc, "results"), "failures");
	ck_assert_uint_eq(json_object_array_length(f), 5);
	ck_assert_msg(strstr(json_object_get_string(json_object_array_get_idx(
		f, 4)), "TCP: baseline RTT 24.0000 ms, configured 20.0000 ms"),
		"%s", json_object_get_string(json_object_array_get_idx(f, 4)));
	json_object_put(doc);
	bm_sim_free(be);
}
END_TEST

/* tcp=false: frames only, said; delay_ms is required */
START_TEST(params_and_tcp_off)
{
	struct bm_backend *be = mk(D_NS, 0);
	struct bm_error err = { "" };
	struct tm_nde_params p;
	json_object *doc, *j;

	params(&p);
	p.tcp = false;
	doc = run(be, &p, 0, &err);
	ck_assert(json_object_is_type(tj_get(tj_get(doc, "results"), "tcp"),
				      json_type_null));
	ck_assert(tj_has_deviation(doc, "tcp=false"));
	json_object_put(doc);
	tm_nde_defaults(&p);
	ck_assert_int_eq(tm_nde_check(&p, &err), -EINVAL);
	ck_assert_msg(strstr(err.msg, "delay_ms"), "%s", err.msg);
	j = json_tokener_parse("{\"delay_ms\": -1}");
	ck_assert_int_eq(bm_json_parse_params(j, tm_nde_keys, 0, &p, "t",
					      &err), -EINVAL);
	json_object_put(j);
	/* TM §1.2's sizes but 9600 */
	ck_assert_uint_eq(p.n_sizes, 6);
	ck_assert_uint_eq(p.frame_sizes[5], 1500);
	bm_sim_free(be);
}
END_TEST

/* REQ-TM-2's gate over those results */
START_TEST(gate)
{
	struct bm_backend *be = mk(D_NS, 0), *bad = mk(D_NS, R / 2);
	struct bm_error err = { "" };
	struct tm_nde_params p;
	json_object *good, *failed, *nde, *dev = json_object_new_array();

	params(&p);
	good = run(be, &p, 0, &err);
	p.tolerance_ms = 1e6;
	failed = run(bad, &p, -EDOM, &err);

	/* passed, same RTT: runs, says which job verified what */
	ck_assert_int_eq(tm_nde_gate(good, 7, 20, false, &nde, dev, &err), 0);
	ck_assert_double_eq(tj_num(nde, "verified_by_job"), 7);
	ck_assert_double_eq(tj_num(nde, "rtt_ms"), 20);
	ck_assert(!json_object_get_boolean(tj_get(nde, "forced")));
	ck_assert_uint_eq(json_object_array_length(dev), 0);
	json_object_put(nde);
	/* no RTT stated: the verification stands */
	ck_assert_int_eq(tm_nde_gate(good, 7, NAN, false, &nde, dev, &err), 0);
	json_object_put(nde);
	/* another RTT */
	ck_assert_int_eq(tm_nde_gate(good, 7, 30, false, &nde, dev, &err),
			 -EPERM);
	ck_assert_ptr_null(nde);
	ck_assert_msg(strstr(err.msg, "nde_rtt_ms 30 differs") &&
		      strstr(err.msg, "(job 7) verified, 20 ms") &&
		      strstr(err.msg, "--force"), "%s", err.msg);
	/* failed, or none */
	ck_assert_int_eq(tm_nde_gate(failed, 8, 20, false, &nde, dev, &err),
			 -EPERM);
	ck_assert_msg(strstr(err.msg, "(job 8) failed"), "%s", err.msg);
	ck_assert_int_eq(tm_nde_gate(NULL, 0, 20, false, &nde, dev, &err),
			 -EPERM);
	ck_assert_msg(strstr(err.msg, "no rfc7640.nde-verify"), "%s", err.msg);
	/* forced: runs, and says so */
	ck_assert_int_eq(tm_nde_gate(failed, 8, 20, true, &nde, dev, &err), 0);
	ck_assert(json_object_get_boolean(tj_get(nde, "forced")));
	ck_assert(json_object_get_boolean(tj_get(nde, "tcp_host_limited")));
	ck_assert_uint_eq(json_object_array_length(dev), 2);
	json_object_put(nde);
	json_object_put(dev);
	json_object_put(good);
	json_object_put(failed);
	bm_sim_free(be);
	bm_sim_free(bad);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("rfc7640.nde");
	TCase *tc = tcase_create("nde");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, verified);
	tcase_add_test(tc, loss_fails);
	tcase_add_test(tc, delay_off_fails);
	tcase_add_test(tc, params_and_tcp_off);
	tcase_add_test(tc, gate);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tj_run_suite(suite());
}

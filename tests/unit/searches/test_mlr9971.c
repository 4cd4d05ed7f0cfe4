// SPDX-License-Identifier: GPL-2.0
/*
 * The RFC 9971 search (bm_mlr9971.h) on the comparison devices of
 * mlr_devices.h with the goal sets of the CSIT reference vectors
 * (vectors/csit-rfc9971.json): every Goal Result regular and its
 * relevant bounds bracketing the device's truth (to its whole frames),
 * on the eight fixed
 * devices and the 400 random ones; the Controller Input refused with the
 * RFC's terms; a measurer's error keeps the trials so far.
 */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_util.h"
#include "bm_mlr9971.h"
#include "bm_procedure.h"
#include "keep_result.h"
#include "bm_sim.h"
#include "csit_vectors.h"
#include "mlr_devices.h"

#define MAX_GOALS 4

/* The goals and loads of goal set gs of the vectors as the input. */
static size_t goals_of(json_object *gs, struct bm_mlr_goal *g,
		       struct bm_mlr9971_input *in)
{
	size_t n = csit_vec_input(gs, g, MAX_GOALS, in);

	ck_assert_uint_gt(n, 0);
	return n;
}

/* Every device of the vectors in every goal set: regular results whose
 * bounds bracket the truth (the upper to the frame roundings the truth
 * leaves out; see the vectors' section in procedures-mlrsearch.md).
 * Prints bmgen's and CSIT's totals on the eight fixed devices. */
START_TEST(test_vectors_bracket)
{
	json_object *doc = json_object_from_file(CSIT_VECTORS);
	json_object *devs, *res, *sets;
	struct bm_pair_trial pt = { .frame_size = 64, .drain_s = -1,
				    .learning_pause_s = -1 };
	size_t i, k, n, d, misses = 0;

	ck_assert_msg(doc, "cannot read %s", CSIT_VECTORS);
	devs = tj_get(doc, "devices");
	res = tj_get(doc, "results");
	sets = tj_get(doc, "goal_sets");
	json_object_object_foreach(sets, name, gs) {
		struct bm_mlr_goal g[MAX_GOALS];
		struct bm_mlr9971_input in;
		double t8 = 0, c8 = 0;
		unsigned int n8 = 0, cn8 = 0;

		n = goals_of(gs, g, &in);
		for (d = 0; d < json_object_array_length(devs); d++) {
			json_object *dv = json_object_array_get_idx(devs, d);
			enum mlr_cmp_dev kind = csit_vec_kind(
				json_object_get_string(tj_get(dv, "kind")));
			double cap = tj_num(dv, "capacity_fps");
			struct bm_backend *be = mlr_dev_cmp(kind, cap);
			struct bm_mlr9971_result r;
			struct bm_error err = { "" };
			struct bm_measurer m;

			ck_assert_int_lt(kind, MLR_CMP_N);
			bm_measurer_pair(&m, be, &pt);
			ck_assert_msg(bm_mlr9971_search(&m, &in, &r, NULL, NULL,
							&err) == 0,
				      "%s device %zu: %s", name, d, err.msg);
			for (k = 0; k < n; k++) {
				const struct bm_mlr_goal_result *gr =
					&r.goals[k];
				double truth = mlr_dev_cmp_truth(kind, cap,
						g[k].final_trial_s,
						g[k].loss_ratio);

				ck_assert_msg(gr->regular, "%s device %zu goal "
					      "%zu: irregular", name, d, k);
				if (!csit_vec_brackets(gr->lower_fps,
						       gr->upper_fps, truth,
						       &g[k]) &&
				    misses++ < 10)
					printf("miss: %s device %zu (%s %.1f) "
					       "goal %zu: [%.2f, %.2f] truth "
					       "%.2f\n", name, d,
					       mlr_dev_cmp_name(kind), cap, k,
					       gr->lower_fps, gr->upper_fps,
					       truth);
			}
			if (d < 8) {
				t8 += r.trial_time_s;
				n8 += (unsigned int)r.log.n;
			}
			bm_mlr9971_result_free(&r);
			mlr_dev_destroy(be);
		}
		for (i = 0; i < json_object_array_length(res); i++) {
			json_object *o = json_object_array_get_idx(res, i);

			if (json_object_get_int(tj_get(o, "device")) < 8 &&
			    !strcmp(json_object_get_string(tj_get(o,
						"goal_set")), name)) {
				c8 += tj_num(o, "trial_time_s");
				cn8 += (unsigned int)tj_num(o, "trials");
			}
		}
		printf("rfc9971 %s: eight devices: bmgen %u trials %.1f s, "
		       "CSIT %u trials %.1f s\n", name, n8, t8, cn8, c8);
	}
	ck_assert_msg(!misses, "%zu bounds miss their truth", misses);
	json_object_put(doc);
}
END_TEST

/* CSIT's production goals (NDR and PDR, 1 s trials, 21 s, exceed
 * ratio 0.5, width 0.5 %) on [18002, 29.76e6] fps. */
static void production(struct bm_mlr_goal *g, struct bm_mlr9971_input *in)
{
	g[0] = (struct bm_mlr_goal){ 1, 21, 0, 0.5, 0.005, 1 };
	g[1] = (struct bm_mlr_goal){ 1, 21, 0.005, 0.5, 0.005, 1 };
	bm_mlr9971_input_default(in);
	in->goals = g;
	in->n_goals = 2;
	in->min_load_fps = 18002;
	in->max_load_fps = 29.76e6;
}

/* One search on a cliff of capacity cap; its return value. */
static int on_cliff(double cap, const struct bm_mlr9971_input *in,
		    int fail_at, struct bm_mlr9971_result *r,
		    struct bm_error *err)
{
	struct bm_pair_trial pt = { .frame_size = 64, .drain_s = -1,
				    .learning_pause_s = -1 };
	struct bm_backend *be = mlr_dev_cmp(MLR_CMP_CLIFF, cap);
	struct bm_measurer m;
	int ret;

	mlr_dev_fail_at(be, fail_at);
	bm_measurer_pair(&m, be, &pt);
	ret = bm_mlr9971_search(&m, in, r, NULL, NULL, err);
	mlr_dev_destroy(be);
	return ret;
}

/* §4.8.4.2: a DUT faster than Max Load has no Upper Bound (Max Load a
 * Lower Bound, reported as the effective lower bound, irregular); one
 * slower than Min Load no Lower Bound.  Neither is an error. */
START_TEST(test_irregular_results)
{
	struct bm_mlr_goal g[2];
	struct bm_mlr9971_input in;
	struct bm_mlr9971_result r;
	struct bm_error err = { "" };
	size_t k;

	production(g, &in);
	ck_assert_int_eq(on_cliff(40e6, &in, -1, &r, &err), 0);
	for (k = 0; k < 2; k++) {
		ck_assert(!r.goals[k].regular && !r.goals[k].has_upper);
		ck_assert(r.goals[k].has_lower && r.goals[k].lower_is_max_load);
		ck_assert_double_eq(r.goals[k].lower_fps, 29.76e6);
		ck_assert_double_eq(r.goals[k].conditional_throughput_fps,
				    29.76e6);
	}
	bm_mlr9971_result_free(&r);
	ck_assert_int_eq(on_cliff(1e4, &in, -1, &r, &err), 0);
	for (k = 0; k < 2; k++) {
		ck_assert(!r.goals[k].regular && !r.goals[k].has_lower);
		ck_assert(r.goals[k].has_upper);
		ck_assert_double_eq(r.goals[k].upper_fps, 18002);
	}
	bm_mlr9971_result_free(&r);
}
END_TEST

/* The Controller Input refused in the RFC's words, before any trial. */
START_TEST(test_input_refused)
{
	struct bm_mlr_goal g[2];
	struct bm_mlr9971_input in;
	struct bm_mlr9971_result r;
	struct bm_error err = { "" };

	production(g, &in);
	g[1].duration_sum_s = 0.5;
	ck_assert_int_eq(on_cliff(1e6, &in, -1, &r, &err), -EINVAL);
	ck_assert_str_eq(err.msg, "mlrsearch: goal 2: Goal Duration Sum must "
			 "be >= Goal Final Trial Duration");
	ck_assert_uint_eq(r.log.n, 0);
	production(g, &in);
	g[0].width = 0;
	ck_assert_int_eq(on_cliff(1e6, &in, -1, &r, &err), -EINVAL);
	ck_assert_msg(strstr(err.msg, "goal 1: a Goal Width is needed"), "%s",
		      err.msg);
	production(g, &in);
	in.min_load_fps = in.max_load_fps;
	ck_assert_int_eq(on_cliff(1e6, &in, -1, &r, &err), -EINVAL);
	ck_assert_msg(strstr(err.msg, "Min Load"), "%s", err.msg);
	production(g, &in);
	in.n_goals = 0;
	ck_assert_int_eq(on_cliff(1e6, &in, -1, &r, &err), -EINVAL);
	ck_assert_str_eq(err.msg, "mlrsearch: no Search Goal");
}
END_TEST

/* A measurer's error and the time limit end the search; the trials so
 * far are logged and the Goal Results made of them. */
START_TEST(test_error_and_timeout)
{
	struct bm_mlr_goal g[2];
	struct bm_mlr9971_input in;
	struct bm_mlr9971_result r;
	struct bm_error err = { "" };

	production(g, &in);
	ck_assert_int_eq(on_cliff(1e6, &in, 4, &r, &err), -EIO);
	ck_assert_uint_eq(r.log.n, 4);
	ck_assert_uint_eq(r.n_goals, 2);
	bm_mlr9971_result_free(&r);
	in.max_search_s = 10;
	ck_assert_int_eq(on_cliff(1e6, &in, -1, &r, &err), -ETIMEDOUT);
	ck_assert(r.timed_out);
	/* the limit is on the measurer's clock, its overheads counted */
	ck_assert(r.search_time_s >= 10 && r.search_time_s < 11.5);
	ck_assert(r.trial_time_s <= r.search_time_s);
	ck_assert_uint_eq(r.n_goals, 2);
	ck_assert(!r.goals[0].regular);
	bm_mlr9971_result_free(&r);
}
END_TEST

/*
 * rfc9971.mlrsearch, the procedure, at its defaults (CSIT's production
 * goals) on the simulated DUT-TBF: 1 Gbit/s line, 400 Mbit/s, bucket
 * 1600 B, queue Q = 1000 frames, 512 B.  C = 400e6 / 8 / 532 fps; a 1 s
 * trial at L loses nothing while L <= C + Q' with Q' = Q + b / A frames
 * absorbed (A = 532 B), and loses (L - C - Q') / L beyond: the NDR truth
 * is C + Q', the PDR's (C + Q') / 0.995.  Both bracketed within 0.1 %
 * (the model's fluid rounding), regular, the Conditional Throughput of
 * the NDR its lower bound (no loss there), and the result a complete
 * report (the schema's items: make unit validates it).
 */
START_TEST(test_procedure_on_tbf)
{
	const double c = 400e6 / 8 / 532, q = 1000 + 1600.0 / 532;
	const double truth[2] = { c + q, (c + q) / 0.995 };
	struct bm_sim_params sp;
	struct bm_error err = { "" };
	struct bm_backend *be;
	json_object *params, *doc = NULL, *res, *gr;
	size_t k;

	bm_sim_params_default(&sp);
	sp.capacity_bps = 400e6;
	sp.bucket_bytes = 1600;
	sp.buffer_frames = 1000;
	be = bm_sim_new(&sp, &err);
	ck_assert_msg(be, "%s", err.msg);
	params = json_tokener_parse("{\"frame_size\": 512}");
	ck_assert_int_eq(bm_procedure_run("rfc9971.mlrsearch", params, be, NULL,
					  NULL, &doc, &err), 0);
	bm_test_keep_result(doc, "rfc9971.mlrsearch");
	res = tj_get(doc, "results");
	gr = tj_get(res, "goal_results");
	ck_assert_uint_eq(json_object_array_length(gr), 2);
	for (k = 0; k < 2; k++) {
		json_object *g = json_object_array_get_idx(gr, k);
		double lo = tj_num(g, "relevant_lower_bound_fps");
		double up = tj_num(g, "relevant_upper_bound_fps");

		ck_assert(json_object_get_boolean(tj_get(g, "regular")));
		ck_assert_msg(lo <= truth[k] * 1.001 && up >= truth[k] * 0.999,
			      "goal %zu: [%.1f, %.1f], truth %.1f", k + 1, lo, up,
			      truth[k]);
		ck_assert((up - lo) <= 0.005 * up * (1 + 1e-9));
	}
	ck_assert_double_eq(tj_num(json_object_array_get_idx(gr, 0),
				   "conditional_throughput_fps"),
			    tj_num(json_object_array_get_idx(gr, 0),
				   "relevant_lower_bound_fps"));
	ck_assert_str_eq(json_object_get_string(tj_get(tj_get(doc,
							    "procedure"),
						       "ref")), "RFC 9971");
	json_object_put(params);
	json_object_put(doc);
	bm_sim_free(be);
}
END_TEST

/* Parameters refused in one line naming the key and the RFC's term. */
START_TEST(test_procedure_refusals)
{
	static const struct { const char *js, *msg; } bad[] = {
		{ "{\"goals\": []}", "goals: expected 1 to 8 goals" },
		{ "{\"goals\": [{\"loss_ratio\": 1}]}",
		  "goals[0]: loss_ratio: must be in [0, 1)" },
		{ "{\"goals\": [{\"final_trial_duration\": 2, "
		  "\"duration_sum\": 1}]}", "goals[0]: Goal Duration Sum must "
		  "be >= Goal Final Trial Duration" },
		{ "{\"goals\": [{\"size\": 1}]}", "goals[0]: size" },
		{ "{\"goals\": [7]}", "goals[0]: expected an object" },
		{ "{\"max_load_fps\": 1e9}", "max_load_fps: above the line" },
		{ "{\"min_load_fps\": 200000, \"max_load_fps\": 100000}",
		  "Min Load" },
	};
	const struct bm_procedure_info *pi = bm_procedure_find(
		"rfc9971.mlrsearch", NULL);
	struct bm_error err;
	size_t i;

	ck_assert_ptr_nonnull(pi);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		json_object *p = json_tokener_parse(bad[i].js);

		ck_assert_ptr_nonnull(p);
		err.msg[0] = 0;
		ck_assert_int_eq(pi->validate(pi, p, 1e9, &err), -EINVAL);
		ck_assert_msg(strstr(err.msg, bad[i].msg), "%s: %s", bad[i].js,
			      err.msg);
		ck_assert_ptr_null(strchr(err.msg, '\n'));
		json_object_put(p);
	}
}
END_TEST

/* A cliff whose generator stalls on the first attempt of every
 * measurement: it sends a tenth of the frames, then recovers. */
struct stalling {
	struct bm_measurer inner;
	bool stall_next;
};

static int stalling_measure(const struct bm_measurer *m, double duration_s,
			    double load_fps, struct bm_trial_spec *spec,
			    struct bm_trial_result *res, struct bm_error *err)
{
	struct stalling *st = m->priv;
	int ret = bm_measure(&st->inner, duration_s, load_fps, spec, res,
			     err);

	if (!ret && st->stall_next) {
		res->attempted /= 10;
		res->received = res->attempted;
		res->lost = 0;
		res->generator_limited = true;
	}
	st->stall_next = !st->stall_next;
	return ret;
}

/*
 * The generator's own shortfall is no DUT loss: a stall on the first
 * attempt of every measurement is repeated and the Goal Results equal a
 * clean run's, every measurement twice (repeated_trials); a generator
 * that can never offer more than 7 Mfps (mlr_devices' genlimit) has its
 * loads above repeated twice, then counted short (its frames unsent as
 * lost, RFC 9971 §4.9.1), and the bounds end at its 7 Mfps, flagged.
 */
START_TEST(test_generator_shortfall)
{
	struct bm_pair_trial pt = { .frame_size = 64, .drain_s = -1,
				    .learning_pause_s = -1 };
	struct bm_mlr_goal g[2];
	struct bm_mlr9971_input in;
	struct bm_mlr9971_result clean, r;
	struct bm_error err = { "" };
	struct bm_backend *be;
	struct stalling st;
	struct bm_measurer m;
	size_t k;

	production(g, &in);
	ck_assert_int_eq(on_cliff(1e6, &in, -1, &clean, &err), 0);
	be = mlr_dev_cmp(MLR_CMP_CLIFF, 1e6);
	memset(&st, 0, sizeof(st));
	bm_measurer_pair(&st.inner, be, &pt);
	st.stall_next = true;
	m = st.inner;
	m.measure = stalling_measure;
	m.priv = &st;
	ck_assert_int_eq(bm_mlr9971_search(&m, &in, &r, NULL, NULL, &err), 0);
	ck_assert_uint_eq(r.repeated_trials, clean.log.n);
	ck_assert_uint_eq(r.log.n, 2 * clean.log.n);
	ck_assert_uint_eq(r.generator_limited_trials, 0);
	for (k = 0; k < 2; k++) {
		ck_assert(r.goals[k].regular);
		ck_assert_double_eq(r.goals[k].lower_fps, clean.goals[k].lower_fps);
		ck_assert_double_eq(r.goals[k].upper_fps, clean.goals[k].upper_fps);
	}
	bm_mlr9971_result_free(&r);
	bm_mlr9971_result_free(&clean);
	mlr_dev_destroy(be);

	be = mlr_dev_genlimit(7e6);
	bm_measurer_pair(&m, be, &pt);
	ck_assert_int_eq(bm_mlr9971_search(&m, &in, &r, NULL, NULL, &err), 0);
	ck_assert_uint_gt(r.generator_limited_trials, 0);
	ck_assert_uint_eq(r.repeated_trials, 2 * r.generator_limited_trials);
	for (k = 0; k < 2; k++) {
		ck_assert(r.goals[k].regular);
		ck_assert_msg(r.goals[k].lower_fps <= 7e6 &&
			      r.goals[k].upper_fps > 7e6 * 0.99,
			      "goal %zu: [%.0f, %.0f]", k + 1,
			      r.goals[k].lower_fps, r.goals[k].upper_fps);
	}
	bm_mlr9971_result_free(&r);
	mlr_dev_destroy(be);
}
END_TEST

static Suite *mlr9971_suite(void)
{
	Suite *s = suite_create("mlr9971");
	TCase *tc = tcase_create("search");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_vectors_bracket);
	tcase_add_test(tc, test_irregular_results);
	tcase_add_test(tc, test_input_refused);
	tcase_add_test(tc, test_error_and_timeout);
	tcase_add_test(tc, test_generator_shortfall);
	tcase_add_test(tc, test_procedure_on_tbf);
	tcase_add_test(tc, test_procedure_refusals);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tj_run_suite(mlr9971_suite());
}

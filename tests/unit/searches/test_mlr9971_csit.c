// SPDX-License-Identifier: GPL-2.0
/*
 * The CSIT-identical load selection of the RFC 9971 search
 * (BM_MLR9971_SEL_CSIT) against FD.io CSIT's own numbers: on every
 * result of vectors/csit-rfc9971.json (408 devices x 3 goal sets) the
 * same trial count and trial time, and per goal the same relevant
 * bounds, Conditional Throughput (relative 1e-9) and regularity; on the
 * eight fixed devices, whose vectors keep CSIT's every trial, the same
 * (duration, load) sequence; and the same on 400 searches of random
 * configurations (vectors/csit-rfc9971-configs.json: widths of many load
 * steps, other ratios and durations, 0-3 preceding targets, expansion
 * coefficients 2-4, irregular results), every trial compared.  The
 * numbers compared are CSIT's, read from the vectors: nothing here is
 * computed by the code under test.
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
#include "csit_vectors.h"
#include "mlr_devices.h"

#define MAX_GOALS	4
#define REL		1e-9

static bool near(double a, double b)
{
	return fabs(a - b) <= REL * fmax(fabs(a), fabs(b));
}

/* The input of goal set gs with the CSIT selection and its knobs. */
static size_t input_of(json_object *gs, struct bm_mlr_goal *g,
		       struct bm_mlr9971_input *in)
{
	size_t n = csit_vec_input(gs, g, MAX_GOALS, in);

	ck_assert_uint_gt(n, 0);
	in->selection = BM_MLR9971_SEL_CSIT;
	ck_assert(csit_vec_knobs(gs, &in->preceding_targets,
				 &in->expansion_coefficient, &in->fail_fast));
	return n;
}

/* Does CSIT's bound v (null: none) equal ours (has, x)? */
static bool same_bound(json_object *o, const char *key, bool has, double x)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !v)
		return !has;
	return has && near(json_object_get_double(v), x);
}

/* CSIT's trial_log of result o against ours: (duration, load) each.
 * The index of the first that differs, or -1. */
static long first_divergence(json_object *o, const struct bm_trial_log *log)
{
	json_object *tl = tj_get(o, "trial_log");
	size_t i, n = json_object_array_length(tl);

	for (i = 0; i < n && i < log->n; i++) {
		json_object *e = json_object_array_get_idx(tl, i);

		if (!near(json_object_get_double(
				  json_object_array_get_idx(e, 0)),
			  log->v[i].spec.duration_s) ||
		    !near(json_object_get_double(
				  json_object_array_get_idx(e, 1)),
			  log->v[i].spec.pair.rate_fps))
			return (long)i;
	}
	return n == log->n ? -1 : (long)i;
}

/* Our search on the device dv (kind, capacity_fps) with goal set gs
 * (goals, config), against CSIT's result o: how many of its
 * numbers differ from CSIT's (each printed); the trials compared one by
 * one added to *seq. */
static unsigned int compare_one(json_object *o, json_object *dv,
				json_object *gs, const char *set, size_t d,
				size_t *seq)
{
	struct bm_pair_trial pt = { .frame_size = 64, .drain_s = -1,
				    .learning_pause_s = -1 };
	enum mlr_cmp_dev kind = csit_vec_kind(json_object_get_string(
		tj_get(dv, "kind")));
	struct bm_backend *be = mlr_dev_cmp(kind, tj_num(dv, "capacity_fps"));
	json_object *gr = tj_get(o, "goals");
	struct bm_mlr_goal g[MAX_GOALS];
	struct bm_mlr9971_input in;
	struct bm_mlr9971_result r;
	struct bm_error err = { "" };
	struct bm_measurer m;
	unsigned int bad = 0;
	size_t k, n = input_of(gs, g, &in);
	long at;

	ck_assert_int_lt(kind, MLR_CMP_N);
	bm_measurer_pair(&m, be, &pt);
	ck_assert_msg(bm_mlr9971_search(&m, &in, &r, NULL, NULL, &err) == 0,
		      "%s device %zu: %s", set, d, err.msg);
	if (r.log.n != (size_t)tj_num(o, "trials") ||
	    !near(r.trial_time_s, tj_num(o, "trial_time_s"))) {
		printf("%s device %zu: %zu trials %.9g s, CSIT %.0f %.9g s\n",
		       set, d, r.log.n, r.trial_time_s, tj_num(o, "trials"),
		       tj_num(o, "trial_time_s"));
		bad++;
	}
	ck_assert_uint_eq(json_object_array_length(gr), n);
	for (k = 0; k < n; k++) {
		json_object *c = json_object_array_get_idx(gr, k);
		const struct bm_mlr_goal_result *x = &r.goals[k];

		if (same_bound(c, "relevant_lower_bound_fps", x->has_lower,
			       x->lower_fps) &&
		    same_bound(c, "relevant_upper_bound_fps", x->has_upper,
			       x->upper_fps) &&
		    same_bound(c, "conditional_throughput_fps", x->has_lower,
			       x->conditional_throughput_fps) &&
		    json_object_get_boolean(tj_get(c, "regular")) ==
		    x->regular)
			continue;
		printf("%s device %zu goal %zu: [%.6f, %.6f] ct %.6f, CSIT "
		       "[%.6f, %.6f] ct %.6f\n", set, d, k, x->lower_fps,
		       x->upper_fps, x->conditional_throughput_fps,
		       tj_num(c, "relevant_lower_bound_fps"),
		       tj_num(c, "relevant_upper_bound_fps"),
		       tj_num(c, "conditional_throughput_fps"));
		bad++;
	}
	if (json_object_object_get_ex(o, "trial_log", NULL)) {
		at = first_divergence(o, &r.log);
		if (at >= 0) {
			printf("%s device %zu: trial %ld differs from "
			       "CSIT's\n", set, d, at);
			bad++;
		} else {
			*seq += r.log.n;
		}
	}
	bm_mlr9971_result_free(&r);
	mlr_dev_destroy(be);
	return bad;
}

/* Every result of the vectors: identical to CSIT's, the count printed. */
START_TEST(test_csit_identical)
{
	json_object *doc = json_object_from_file(CSIT_VECTORS);
	json_object *devs, *res, *sets;
	size_t i, n, same = 0, logs = 0, seq = 0;
	unsigned long trials = 0;

	ck_assert_msg(doc, "cannot read %s", CSIT_VECTORS);
	devs = tj_get(doc, "devices");
	res = tj_get(doc, "results");
	sets = tj_get(doc, "goal_sets");
	n = json_object_array_length(res);
	ck_assert_uint_eq(n, 1224);
	for (i = 0; i < n; i++) {
		json_object *o = json_object_array_get_idx(res, i);
		const char *set = json_object_get_string(tj_get(o,
								"goal_set"));
		size_t d = (size_t)json_object_get_int(tj_get(o, "device"));

		ck_assert(!json_object_get_string(tj_get(o, "error")));
		if (!compare_one(o, json_object_array_get_idx(devs, d),
				 tj_get(sets, set), set, d, &seq))
			same++;
		trials += (unsigned long)tj_num(o, "trials");
		logs += json_object_object_get_ex(o, "trial_log", NULL);
	}
	printf("rfc9971 csit selection: %zu of %zu results identical to "
	       "CSIT's (%lu trials; %zu trial sequences, %zu trials, the "
	       "same one by one)\n", same, n, trials, logs, seq);
	ck_assert_uint_eq(logs, 24);
	ck_assert_uint_eq(same, n);
	json_object_put(doc);
}
END_TEST

/* CSIT's production NDR goal alone on [18002, 29.76e6] fps with the
 * CSIT selection. */
static void ndr(struct bm_mlr_goal *g, struct bm_mlr9971_input *in)
{
	*g = (struct bm_mlr_goal){ 1, 21, 0, 0.5, 0.005, 1 };
	bm_mlr9971_input_default(in);
	in->goals = g;
	in->n_goals = 1;
	in->min_load_fps = 18002;
	in->max_load_fps = 29.76e6;
	in->selection = BM_MLR9971_SEL_CSIT;
}

/* Every search of the random configurations: identical to CSIT's, trial
 * by trial. */
START_TEST(test_csit_configs)
{
	json_object *doc = json_object_from_file(CSIT_CONFIGS);
	json_object *res;
	size_t i, n, same = 0, seq = 0;

	ck_assert_msg(doc, "cannot read %s", CSIT_CONFIGS);
	res = tj_get(doc, "results");
	n = json_object_array_length(res);
	ck_assert_uint_eq(n, 400);
	for (i = 0; i < n; i++) {
		json_object *o = json_object_array_get_idx(res, i);
		json_object *gs = json_object_new_object();

		ck_assert(!json_object_get_string(tj_get(o, "error")));
		json_object_object_add(gs, "goals", json_object_get(
			tj_get(o, "search_goals")));
		json_object_object_add(gs, "config", json_object_get(
			tj_get(o, "config")));
		if (!compare_one(o, o, gs, "configs", i, &seq))
			same++;
		json_object_put(gs);
	}
	printf("rfc9971 csit selection: %zu of %zu random configurations "
	       "identical to CSIT's (%zu trials, the same one by one)\n",
	       same, n, seq);
	ck_assert_uint_eq(same, n);
	json_object_put(doc);
}
END_TEST

/* The CSIT selection's own input: its coefficient, a preceding target
 * where one initial trial cannot decide a load, no goal twice. */
START_TEST(test_csit_input_refused)
{
	struct bm_mlr_goal g, two[2];
	struct bm_mlr9971_input in;
	struct bm_error err = { "" };

	ndr(&g, &in);
	two[0] = two[1] = g;
	ck_assert_int_eq(bm_mlr9971_input_check(&in, &err), 0);
	in.expansion_coefficient = 1;
	ck_assert_int_eq(bm_mlr9971_input_check(&in, &err), -EINVAL);
	ck_assert_msg(strstr(err.msg, "expansion_coefficient"), "%s",
		      err.msg);
	in.expansion_coefficient = 2;
	in.preceding_targets = 0;
	ck_assert_int_eq(bm_mlr9971_input_check(&in, &err), -EINVAL);
	ck_assert_msg(strstr(err.msg, "preceding_targets"), "%s", err.msg);
	/* CSIT refuses a goal given twice (its goals are a set) */
	in.preceding_targets = 2;
	in.goals = two;
	in.n_goals = 2;
	ck_assert_int_eq(bm_mlr9971_input_check(&in, &err), -EINVAL);
	ck_assert_msg(strstr(err.msg, "goal 2: the same as goal 1"), "%s",
		      err.msg);
}
END_TEST

/* fail_fast: a DUT slower than Min Load ends the search with -ERANGE
 * (CSIT raises), its trials and Goal Results kept; without it the
 * result is irregular, no error. */
START_TEST(test_csit_fail_fast)
{
	struct bm_pair_trial pt = { .frame_size = 64, .drain_s = -1,
				    .learning_pause_s = -1 };
	struct bm_backend *be = mlr_dev_cmp(MLR_CMP_CLIFF, 1e4);
	struct bm_mlr_goal g;
	struct bm_mlr9971_input in;
	struct bm_mlr9971_result r;
	struct bm_error err = { "" };
	struct bm_measurer m;

	ndr(&g, &in);
	bm_measurer_pair(&m, be, &pt);
	ck_assert_int_eq(bm_mlr9971_search(&m, &in, &r, NULL, NULL, &err), 0);
	ck_assert(!r.goals[0].regular && !r.goals[0].has_lower);
	ck_assert(r.goals[0].has_upper);
	ck_assert_double_eq(r.goals[0].upper_fps, 18002);
	bm_mlr9971_result_free(&r);
	in.fail_fast = true;
	ck_assert_int_eq(bm_mlr9971_search(&m, &in, &r, NULL, NULL, &err),
			 -ERANGE);
	ck_assert_msg(strstr(err.msg, "Min Load is an Upper Bound"), "%s",
		      err.msg);
	ck_assert_uint_gt(r.log.n, 0);
	ck_assert_uint_eq(r.n_goals, 1);
	bm_mlr9971_result_free(&r);
	mlr_dev_destroy(be);
}
END_TEST

static Suite *mlr9971_csit_suite(void)
{
	Suite *s = suite_create("mlr9971_csit");
	TCase *tc = tcase_create("csit");

	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_csit_identical);
	tcase_add_test(tc, test_csit_configs);
	tcase_add_test(tc, test_csit_input_refused);
	tcase_add_test(tc, test_csit_fail_fast);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tj_run_suite(mlr9971_csit_suite());
}

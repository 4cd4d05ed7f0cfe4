// SPDX-License-Identifier: GPL-2.0
/*
 * bmctl run --goal (user/bmctl/goal.c): one RFC 9971 Search Goal per
 * option, keys as the RFC names them, units s and %; bad goals refused
 * in one line; and the ready profiles a bare --param @NAME finds, each
 * a set of goals bmd takes for rfc9971.mlrsearch.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "bmctl.h"
#include "bm_procedure.h"
#include "check_util.h"

START_TEST(goals_parsed)
{
	static const struct {
		const char *in, *key;
		double x;
	} ok[] = {
		{ "loss_ratio=0.5%,exceed_ratio=0.5,final_trial_duration=1s,"
		  "duration_sum=21", "loss_ratio", 0.005 },
		{ "loss_ratio=0.5%,exceed_ratio=0.5,final_trial_duration=1s,"
		  "duration_sum=21", "final_trial_duration", 1 },
		{ "loss_ratio=0.5%,exceed_ratio=0.5,final_trial_duration=1s,"
		  "duration_sum=21", "duration_sum", 21 },
		{ "width=0.1%", "width", 0.001 },
		{ "initial_trial_duration=0.5", "initial_trial_duration", 0.5 },
	};
	static const struct { const char *in, *why; } bad[] = {
		{ "size=64", "'size=64': expected KEY=VALUE" },
		{ "loss_ratio", "'loss_ratio': expected KEY=VALUE" },
		{ "loss_ratio=abc", "loss_ratio: 'abc' is no number" },
		{ "loss_ratio=1s", "loss_ratio: '1s' is no number" },
		{ "final_trial_duration=1%", "final_trial_duration: '1%' is no "
		  "number of seconds" },
		{ "width=1,width=2", "width given twice" },
		{ "", "an empty goal" },
		{ "loss_ratio=nan", "loss_ratio: 'nan' is no number" },
	};
	char why[256];
	json_object *g;
	size_t i;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		g = goal_parse(ok[i].in, why, sizeof(why));
		ck_assert_msg(g, "%s: %s", ok[i].in, why);
		/* the double the RFC's value is, not a hundredth of it */
		ck_assert_double_eq(tj_num(g, ok[i].key), ok[i].x);
		json_object_put(g);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why[0] = 0;
		ck_assert_ptr_null(goal_parse(bad[i].in, why, sizeof(why)));
		ck_assert_msg(strstr(why, bad[i].why), "%s: %s", bad[i].in, why);
	}
}
END_TEST

/* Every ready profile is found by its bare name and is what bmd's
 * rfc9971.mlrsearch takes (RFC 9971 §4.10.2 for rfc9971-rfc2544). */
START_TEST(ready_profiles)
{
	static const char *const names[] = { "rfc9971-csit-production",
		"rfc9971-rfc2544", "rfc9971-tst009" };
	const struct bm_procedure_info *pi = bm_procedure_find(
		"rfc9971.mlrsearch", NULL);
	char buf[256], why[256];
	struct bm_error err;
	json_object *o;
	size_t i;

	ck_assert_ptr_nonnull(pi);
	setenv("BMCTL_PROFILE_DIR", "profiles", 1);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const char *p = profile_path(names[i], buf, sizeof(buf));

		ck_assert_msg(strstr(p, "profiles/"), "%s: %s", names[i], p);
		o = profile_read(p, why, sizeof(why));
		ck_assert_msg(o, "%s", why);
		err.msg[0] = 0;
		ck_assert_msg(!pi->validate(pi, o, 10e9, &err), "%s: %s",
			      names[i], err.msg);
		json_object_put(o);
	}
	/* a path, or a name that is no profile, is left as given */
	ck_assert_str_eq(profile_path("./x.json", buf, sizeof(buf)),
			 "./x.json");
	ck_assert_str_eq(profile_path("no-such", buf, sizeof(buf)), "no-such");
	unsetenv("BMCTL_PROFILE_DIR");
}
END_TEST

static Suite *goal_suite(void)
{
	Suite *s = suite_create("bmctl-goal");
	TCase *tc = tcase_create("goal");

	tcase_add_test(tc, goals_parsed);
	tcase_add_test(tc, ready_profiles);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tj_run_suite(goal_suite());
}

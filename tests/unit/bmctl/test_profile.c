// SPDX-License-Identifier: GPL-2.0
/*
 * bmctl run --param @FILE (user/bmctl/profile.c): what a profile that is
 * not an object of parameters gets, in JSON and in YAML.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bmctl.h"
#include "check_util.h"

static char dir[64];

static void setup(void)
{
	strcpy(dir, "/tmp/bmctl-profile.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}

/* Read text as dir/NAME; the profile (NULL: refused, reason in why). */
static json_object *read_text(const char *name, const char *text,
			      char *why, size_t size)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
	return profile_read(path, why, size);
}

/* text as dir/name is refused with a reason naming the file and what
 * it should be. */
static void refused(const char *name, const char *text)
{
	char why[256] = "stale", want[160];

	ck_assert_ptr_null(read_text(name, text, why, sizeof(why)));
	snprintf(want, sizeof(want), "%s/%s: expected an object of parameters",
		 dir, name);
	ck_assert_msg(!strncmp(why, want, strlen(want)), "'%s' for %s: %s",
		      text, name, why);
}

START_TEST(object_read)
{
	char why[256] = "";
	json_object *o;

	o = read_text("p.json", "{\"frame_sizes\": [64, 1518]}\n", why,
		      sizeof(why));
	ck_assert_ptr_nonnull(o);
	ck_assert_int_eq(json_object_array_length(tj_get(o, "frame_sizes")),
			 2);
	json_object_put(o);
}
END_TEST

/* RFC 8259 JSON, no more: json-c alone took a trailing comma, single
 * quotes and text after the value; the reason says where and what, in a
 * user's words. */
START_TEST(strict_json)
{
	static const struct {
		const char *text, *why;
	} bad[] = {
		{ "{\"a\": 1,}", "p.json: line 1, column 9: not JSON: a comma "
		  "before a closing bracket or brace" },
		{ "{\"a\": [1, 2,]}", "p.json: line 1, column 13: not JSON: a "
		  "comma before a closing bracket or brace" },
		{ "{\"a\": 1}\njunk", "p.json: line 2, column 1: text after "
		  "the JSON value" },
		{ "{'a': 1}", "p.json: line 1, column 2: not JSON: strings "
		  "take double quotes" },
		{ "{\"a\": 1", "p.json: line 1, column 8: not JSON: it ends "
		  "early" },
		{ "{a: 1}", "p.json: line 1, column 2: not JSON: a key must be "
		  "a string in double quotes" },
	};
	char why[256];
	json_object *o;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why[0] = '\0';
		o = json_parse_strict("p.json", bad[i].text,
				      strlen(bad[i].text), why, sizeof(why));
		ck_assert_msg(!o, "%s accepted", bad[i].text);
		ck_assert_msg(!strncmp(why, bad[i].why, strlen(bad[i].why)),
			      "%s: '%s', want '%s'", bad[i].text, why,
			      bad[i].why);
	}
	o = json_parse_strict("p.json", " {\"a\": \"it's\"} \n", 17, why,
			      sizeof(why));
	ck_assert_ptr_nonnull(o);
	json_object_put(o);
}
END_TEST

/*
 * A profile that is null (JSON "null", YAML "~" or an empty document)
 * was refused with no reason at all: "bmctl: --param @FILE" and nothing
 * after it.  Found by tests/fuzz/fuzz_profile.
 */
START_TEST(null_profile_says_why)
{
	refused("p.json", "null\n");
	refused("p.json", "[1, 2]\n");
#ifdef BM_HAVE_YAML
	refused("p.yaml", "~\n");
	refused("p.yaml", "--- \n...\n");
	refused("p.yml", "- 1\n");
#endif
}
END_TEST

#ifdef BM_HAVE_YAML
/*
 * Aliases of aliases: 15 levels of ten, under 1 kB, made bmctl build 1e15
 * JSON values (it hung, its memory growing, until killed).  Refused in a
 * line, wherever the limit is met.  Found with tests/fuzz/fuzz_profile.
 */
START_TEST(yaml_alias_bomb_refused)
{
	char text[2048], why[256] = "", *p = text;
	json_object *o;
	int i, k;

	p += sprintf(p, "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
	for (i = 1; i < 15; i++) {
		p += sprintf(p, "a%d: &a%d [", i, i);
		for (k = 0; k < 10; k++)
			p += sprintf(p, "%s*a%d", k ? ", " : "", i - 1);
		p += sprintf(p, "]\n");
	}
	ck_assert_ptr_null(read_text("bomb.yaml", text, why, sizeof(why)));
	ck_assert_msg(strstr(why, "more than 100000 values"), "%s", why);
	/* a profile's use of an alias stays fine */
	o = read_text("ok.yaml", "base: &b [64, 128]\nframe_sizes: *b\n",
		      why, sizeof(why));
	ck_assert_int_eq(json_object_array_length(tj_get(o, "frame_sizes")),
			 2);
	json_object_put(o);
}
END_TEST
#endif

/* --param values: JSON only when the whole value is JSON; "64KB" once
 * went to bmd as the number 64 (json_tokener_parse stops at "KB"). */
START_TEST(param_values_whole)
{
	static const struct {
		const char *in;
		enum json_type type;
		const char *out;	/* as JSON */
	} v[] = {
		{ "64KB", json_type_string, "\"64KB\"" },
		{ "64 KB", json_type_string, "\"64 KB\"" },
		{ "10G", json_type_string, "\"10G\"" },
		{ "64000", json_type_int, "64000" },
		{ "5e5", json_type_double, "5e5" },
		{ "[64,128]", json_type_array, "[ 64, 128 ]" },
		{ "true", json_type_boolean, "true" },
		{ "mlr", json_type_string, "\"mlr\"" },
		{ "\"64KB\"", json_type_string, "\"64KB\"" },
		{ "[64,128", json_type_string, "\"[64,128\"" },
	};
	unsigned int i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		json_object *o = profile_param_value(v[i].in);

		ck_assert_msg(o && json_object_get_type(o) == v[i].type,
			      "%s: type %d", v[i].in,
			      o ? (int)json_object_get_type(o) : -1);
		ck_assert_str_eq(json_object_to_json_string_ext(o,
				 JSON_C_TO_STRING_SPACED), v[i].out);
		json_object_put(o);
	}
	ck_assert_ptr_null(profile_param_value("null"));
}
END_TEST

static Suite *profile_suite(void)
{
	Suite *s = suite_create("bmctl-profile");
	TCase *tc = tcase_create("profile");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, object_read);
	tcase_add_test(tc, strict_json);
	tcase_add_test(tc, null_profile_says_why);
	tcase_add_test(tc, param_values_whole);
#ifdef BM_HAVE_YAML
	tcase_add_test(tc, yaml_alias_bomb_refused);
#endif
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tj_run_suite(profile_suite());
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Every procedure's parameters written back from its keys table
 * (bm_json_params_to_json): params JSON, parsed by the table, written
 * again, is the same text, in the same order, for each procedure's
 * defaults and for a params object of every procedure with every key
 * changed (params_golden.json: what the hand-written writers this one
 * replaced gave for those values, byte for byte).  And every custom key
 * has its writer.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bm_procedure.h"
#include "check_util.h"

/* Their own writers: rfc2544's (rfc2544_params_to_json) writes keys that
 * are no rows, concurrent's defaults are a JSON text. */
static bool own_writer(const struct bm_procedure_info *pi)
{
	return !strncmp(pi->name, "rfc2544.", 8) ||
	       !strcmp(pi->name, "rfc7640.concurrent");
}

/* Larger than any procedure's parameter struct. */
static union {
	max_align_t align;
	char b[1 << 20];
} base;

/* A null is a row's unset value: what the writer writes null for. */
static void unset(const struct bm_jkey *k)
{
	double x = k->flags & BM_JK_NEG_NULL ? -1.0 :
		   k->flags & BM_JK_ZERO_NULL ? 0.0 : NAN;

	/* a zeroed struct is every other row's: 0, an empty list */
	if (k->type == BM_J_DOUBLE)
		memcpy(base.b + k->off, &x, sizeof(x));
}

/* What a writer writes and no user may give, a zeroed row's value: "cc":
 * "" (the system's congestion control), mlrsearch's rates 0 (from the
 * line when it runs). */
static bool unsettable(const char *key, json_object *v)
{
	if (!strcmp(key, "cc"))
		return !strcmp(json_object_get_string(v), "");
	return (!strcmp(key, "min_rate_fps") ||
		!strcmp(key, "max_rate_fps")) &&
	       json_object_get_double(v) == 0.0;
}

/* params parsed key by key into a zeroed struct by pi's table, and
 * written back, as plain text (the caller frees it). */
static char *round_trip(const struct bm_procedure_info *pi,
			json_object *params)
{
	struct bm_error err = { "" };
	const struct bm_param *k;
	json_object *one, *w;
	char *s;

	memset(base.b, 0, sizeof(base.b));
	json_object_object_foreach(params, key, v) {
		k = bm_json_find_param(pi->keys, pi->mask, key);
		ck_assert_msg(k, "%s: %s: no such row", pi->name, key);
		if (!v) {
			unset(&k->jk);
			continue;
		}
		one = json_object_new_object();
		json_object_object_add(one, key, json_object_get(v));
		if (bm_json_parse_params(one, pi->keys, pi->mask, base.b,
					 pi->name, &err))
			ck_assert_msg(unsettable(key, v), "%s", err.msg);
		json_object_put(one);
	}
	w = bm_json_params_to_json(pi->keys, pi->mask, base.b, pi->writers);
	s = strdup(json_object_to_json_string_ext(w, JSON_C_TO_STRING_PLAIN));
	json_object_put(w);
	return s;
}

static void same_again(const struct bm_procedure_info *pi,
		       json_object *params)
{
	char *again = round_trip(pi, params);

	ck_assert_msg(!strcmp(again, json_object_to_json_string_ext(params,
				JSON_C_TO_STRING_PLAIN)),
		      "%s: %s\nwritten back as\n%s", pi->name,
		      json_object_to_json_string_ext(params,
						     JSON_C_TO_STRING_PLAIN),
		      again);
	free(again);
}

START_TEST(defaults_round_trip)
{
	const struct bm_procedure_info *pi;
	const struct bm_jwriter *w;
	const struct bm_param *k;
	json_object *d;
	unsigned int i, n = 0;

	for (i = 0; (pi = bm_procedure_at(i)); i++) {
		if (own_writer(pi))
			continue;
		for (k = pi->keys; k->jk.key; k++) {
			if (k->jk.type != BM_J_CUSTOM ||
			    (k->jk.mask && !(k->jk.mask & pi->mask)))
				continue;
			for (w = pi->writers; w && w->parse; w++)
				if (w->parse == k->jk.parse)
					break;
			ck_assert_msg(w && w->parse, "%s: %s: no writer",
				      pi->name, k->jk.key);
		}
		d = pi->defaults(pi);
		same_again(pi, d);
		json_object_put(d);
		n++;
	}
	ck_assert_uint_ge(n, 25);
}
END_TEST

START_TEST(changed_round_trip)
{
	json_object *g = json_object_from_file(
		"tests/unit/procedures/params_golden.json");
	const struct bm_procedure_info *pi;
	unsigned int n = 0;

	ck_assert_msg(g, "cannot read params_golden.json");
	json_object_object_foreach(g, name, params) {
		pi = bm_procedure_find(name, NULL);
		ck_assert_msg(pi, "%s: no such procedure", name);
		same_again(pi, params);
		n++;
	}
	ck_assert_uint_eq(n, 25);
	json_object_put(g);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("params_roundtrip");
	TCase *tc = tcase_create("params_roundtrip");

	tcase_add_test(tc, defaults_round_trip);
	tcase_add_test(tc, changed_round_trip);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tj_run_suite(suite());
}

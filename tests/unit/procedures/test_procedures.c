// SPDX-License-Identifier: GPL-2.0
/*
 * The procedure registry (bm_procedure.h): names, every row complete
 * (SPEC ids, ports, a unit, range, default and help for every parameter),
 * the parameter schema bmd serves, strict JSON parameter validation with
 * one-line reasons naming the key, runs on the simulated DUT including
 * mlrsearch, progress and cancel, reset_command.
 */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check_util.h"
#include "bm_procedure.h"
#include "bm_sim.h"
#include "bm_result.h"
#include "keep_result.h"
#include "rfc2544.h"

/* The registry walked, not listed again here: a new procedure is its
 * family's row, and every test below picks it up. */
static size_t n_procedures(void)
{
	size_t n = 0;

	while (bm_procedure_at(n))
		n++;
	return n;
}
#define N_PROCEDURES	n_procedures()
#define PROC_NAME(i)	(bm_procedure_at(i)->name)

/* The keys a procedure has no default for, at a value that runs (a new
 * object, NULL when it has none): the NDE's configured delay is what
 * rfc7640.nde-verify verifies, so only the user can give it (REQ-TM-2);
 * and its trials short, the sim's frames at 1 Gbit/s being many. */
static json_object *required(const char *name)
{
	return strcmp(name, "rfc7640.nde-verify") ? NULL :
	       json_tokener_parse("{\"delay_ms\": 0, \"duration_s\": 0.1}");
}

/* The worst case of proc with params js (NULL: defaults) at 1 Gbit/s. */
static double bound(const char *proc, const char *js, unsigned int n_ports)
{
	json_object *p = js ? json_tokener_parse(js) : NULL;
	struct bm_error err = { "" };
	double n = -1.0;

	ck_assert_msg(bm_procedure_max_trials(proc, p, 1e9, n_ports, &n,
					      &err) == 0, "%s: %s", proc,
		      err.msg);
	json_object_put(p);
	return n;
}

/* A job's worst-case trial count is known before it runs, from
 * the parameters alone; bmd refuses it above its limit (test_bmd). */
START_TEST(test_trial_bound)
{
	const struct bm_procedure_info *pi;
	size_t k;
	struct bm_error err = { "" };
	json_object *p;
	double n;

	/* 7 sizes x (100 / 0.001 steps + 1) */
	ck_assert_double_eq(bound("rfc2544.frame-loss", "{\"step_pct\": 0.001}",
				  2), 700007.0);
	/* 7 sizes x (a binary search of 200 + 6, 100000 repetitions, 20
	 * re-runs and the one that ends them) */
	ck_assert_double_eq(bound("rfc2544.latency",
				  "{\"repetitions\": 100000}", 2),
			    7.0 * (206 + 100000 + 20 + 1));
	/* a given throughput is not searched for */
	ck_assert_double_eq(bound("rfc2544.latency", "{\"frame_sizes\": [64],"
				  " \"throughput_fps\": 1000}", 2), 41.0);
	/* MLRsearch: 600 s of 1 s trials at the most */
	ck_assert_double_eq(bound("mlrsearch", NULL, 2), 601.0);
	/* RFC 8239: the ports count (N - 2 iterations of microburst) */
	ck_assert_double_eq(bound("rfc8239.microburst", NULL, 10),
			    8.0 * bound("rfc8239.microburst", NULL, 3));
	/* too few ports count as the procedure's own minimum */
	ck_assert_double_eq(bound("rfc8239.holb", NULL, 0),
			    bound("rfc8239.holb", NULL, 8));
	/* every procedure's defaults are bounded, bad parameters refused
	 * as validate refuses them */
	for (k = 0; (pi = bm_procedure_at(k)); k++) {
		ck_assert_msg(pi->max_trials, "%s: max_trials", pi->name);
		n = bound(pi->name, NULL, 0);
		ck_assert_msg(isfinite(n) && n >= 1.0, "%s: %g", pi->name, n);
	}
	p = json_tokener_parse("{\"step_pct\": \"x\"}");
	ck_assert_int_eq(bm_procedure_max_trials("rfc2544.frame-loss", p, 1e9,
						 2, &n, &err), -EINVAL);
	ck_assert_msg(strstr(err.msg, "step_pct"), "%s", err.msg);
	json_object_put(p);
	/* validation no longer refuses by count: bmd's limit does */
	p = json_tokener_parse("{\"step_pct\": 0.001}");
	ck_assert_int_eq(bm_procedure_validate("rfc2544.frame-loss", p, 1e9,
					       &err), 0);
	json_object_put(p);
}
END_TEST

START_TEST(test_registry)
{
	const struct bm_procedure_info *p;
	struct bm_error err = { "" };
	size_t i;

	for (i = 0; i < N_PROCEDURES; i++) {
		p = bm_procedure_at(i);
		ck_assert_ptr_nonnull(p);
		/* "family.test" (mlrsearch: the family alone), once */
		ck_assert_msg(strspn(p->name, "abcdefghijklmnopqrstuvwxyz"
				     "0123456789.-") == strlen(p->name),
			      "%s: not a procedure name", p->name);
		ck_assert_ptr_eq(bm_procedure_find(p->name, NULL), p);
		ck_assert_ptr_nonnull(p->summary);
		ck_assert_ptr_nonnull(p->refs);
		/* all defaults are valid, with the required keys */
		json_object *req = required(PROC_NAME(i));

		ck_assert_msg(bm_procedure_validate(PROC_NAME(i), req, 1e9, &err) == 0,
			      "%s: %s", PROC_NAME(i), err.msg);
		if (req)
			ck_assert_msg(bm_procedure_validate(PROC_NAME(i), NULL, 1e9,
				&err) == -EINVAL && strstr(err.msg, "required"),
				"%s: '%s'", PROC_NAME(i), err.msg);
		json_object_put(req);
	}
	/* the 33 of today: one family dropped from the list would show */
	ck_assert_uint_ge(N_PROCEDURES, 33);
	ck_assert_str_eq(bm_procedure_find("rfc2544.back-to-back", NULL)->refs,
			 "R2544-B2B");
	ck_assert_int_eq(bm_procedure_validate("rfc2544.jitter", NULL, 1e9, &err),
			 -EINVAL);
	ck_assert_str_eq(err.msg, "unknown procedure \"rfc2544.jitter\"");
	ck_assert_int_eq(bm_procedure_validate("rfc2544.latency", NULL, 0, &err),
			 -EINVAL);
}
END_TEST

static json_object *get(json_object *o, const char *key)
{
	json_object *v = NULL;

	json_object_object_get_ex(o, key, &v);
	return v;
}

/* x within [min, max] of schema entry e, its exclusive ends excluded. */
static bool in_range(json_object *e, double x)
{
	json_object *lo = get(e, "min"), *hi = get(e, "max");

	if (lo && (json_object_get_boolean(get(e, "min_exclusive")) ?
		   !(x > json_object_get_double(lo)) :
		   !(x >= json_object_get_double(lo))))
		return false;
	if (hi && (json_object_get_boolean(get(e, "max_exclusive")) ?
		   !(x < json_object_get_double(hi)) :
		   !(x <= json_object_get_double(hi))))
		return false;
	return true;
}

/*
 * Every row is complete: a one-line summary, SPEC ids, the ports it needs
 * (REQ-CAP-1: each of today's needs two), hooks, and every parameter with
 * a type, a unit, a line of help and a default inside its own range; the
 * keys --duration and --frame-sizes set are parameters of the procedure.
 */
START_TEST(test_registry_rows_complete)
{
	const struct bm_procedure_info *pi;
	size_t ix;
	const struct bm_param *k;
	json_object *d, *a, *e, *v;
	size_t i, j, n, rows = 0;

	for (ix = 0; (pi = bm_procedure_at(ix)); ix++, rows++) {
		ck_assert_msg(pi->summary && *pi->summary, "%s: summary",
			      pi->name);
		ck_assert_ptr_null(strchr(pi->summary, '\n'));
		ck_assert_msg(pi->refs && *pi->refs, "%s: SPEC ids", pi->name);
		ck_assert_msg(pi->ports_needed >= 2, "%s: ports", pi->name);
		ck_assert(pi->keys && pi->validate && pi->defaults && pi->run);
		ck_assert_ptr_eq(bm_procedure_find(pi->name, NULL), pi);
		if (pi->keys == rfc2544_keys)
			ck_assert_str_eq(pi->name, rfc2544_name(pi->test));
		for (k = pi->keys; k->jk.key; k++) {
			if (k->jk.mask && !(k->jk.mask & pi->mask))
				continue;
			ck_assert_msg(k->help && *k->help &&
				      !strchr(k->help, '\n'),
				      "%s: %s: help", pi->name, k->jk.key);
			ck_assert_msg(k->unit, "%s: %s: unit", pi->name,
				      k->jk.key);
			ck_assert_msg(k->jk.type != BM_J_CUSTOM || k->type,
				      "%s: %s: type", pi->name, k->jk.key);
			/* one entry per key and procedure */
			ck_assert_ptr_eq(bm_json_find_param(pi->keys, pi->mask,
							    k->jk.key), k);
		}
		if (pi->duration_key)
			ck_assert_msg(bm_json_find_param(pi->keys, pi->mask,
							 pi->duration_key),
				      "%s: --duration key", pi->name);
		if (pi->sizes_key)
			ck_assert_msg(bm_json_find_param(pi->keys, pi->mask,
							 pi->sizes_key),
				      "%s: --frame-sizes key", pi->name);

		d = bm_procedure_describe(pi);
		ck_assert_str_eq(json_object_get_string(get(d, "name")),
				 pi->name);
		ck_assert_int_eq(json_object_get_int(get(d, "ports_needed")),
				 pi->ports_needed);
		a = get(d, "params");
		n = json_object_array_length(a);
		ck_assert_int_gt(n, 0);
		for (i = 0; i < n; i++) {
			const char *key, *type;

			e = json_object_array_get_idx(a, i);
			key = json_object_get_string(get(e, "key"));
			type = json_object_get_string(get(e, "type"));
			v = get(e, "default");
			ck_assert_msg(type && *type, "%s: %s: type", pi->name,
				      key);
			ck_assert_msg(json_object_get_string(get(e, "help"))[0],
				      "%s: %s: help", pi->name, key);
			ck_assert_msg(get(e, "unit"), "%s: %s: unit", pi->name,
				      key);
			if (!strcmp(type, "number") || !strcmp(type, "integer")) {
				ck_assert_msg(get(e, "min") || get(e, "max"),
					      "%s: %s: range", pi->name, key);
				/* null: derived at run time, said in help */
				ck_assert_msg(!v || in_range(e, json_object_get_double(v)),
					      "%s: %s: default %s out of range",
					      pi->name, key,
					      json_object_to_json_string(v));
			} else if (!strcmp(type, "enum")) {
				json_object *en = get(e, "enum");
				bool found = false;

				for (j = 0; j < json_object_array_length(en); j++)
					found |= !strcmp(json_object_get_string(
						json_object_array_get_idx(en, j)),
						json_object_get_string(v));
				ck_assert_msg(found, "%s: %s: default not a name",
					      pi->name, key);
			} else if (!strcmp(type, "boolean")) {
				ck_assert(json_object_is_type(v, json_type_boolean));
			} else if (v && json_object_is_type(v, json_type_array)) {
				/* arrays: each element in the element range */
				for (j = 0; j < json_object_array_length(v); j++)
					ck_assert_msg(in_range(e, json_object_get_double(
						json_object_array_get_idx(v, j))),
						"%s: %s[%zu] out of range",
						pi->name, key, j);
			}
		}
		json_object_put(d);
	}
	ck_assert_int_eq(rows, N_PROCEDURES);
}
END_TEST

/* What bmctl run rfc2544 throughput --help prints comes from this. */
START_TEST(test_schema_throughput)
{
	const struct bm_procedure_info *pi;
	json_object *d, *a, *e = NULL, *f = NULL, *s = NULL;
	const char *txt;
	size_t i;

	pi = bm_procedure_find("rfc2544.throughput", NULL);
	ck_assert_ptr_nonnull(pi);
	d = bm_procedure_describe(pi);
	ck_assert_str_eq(json_object_get_string(get(d, "ref")),
			 "R2544-THRPT, R2544-DUR");
	ck_assert_str_eq(json_object_get_string(get(d, "duration_key")),
			 "trial_duration_s");
	ck_assert_str_eq(json_object_get_string(get(d, "sizes_key")),
			 "frame_sizes");
	a = get(d, "params");
	for (i = 0; i < json_object_array_length(a); i++) {
		json_object *x = json_object_array_get_idx(a, i);
		const char *k = json_object_get_string(get(x, "key"));

		if (!strcmp(k, "trial_duration_s"))
			e = x;
		else if (!strcmp(k, "frame_sizes"))
			f = x;
		else if (!strcmp(k, "search"))
			s = x;
		/* another test's key is not this procedure's */
		ck_assert_str_ne(k, "step_pct");
		ck_assert_str_ne(k, "throughput_fps");
	}
	ck_assert_ptr_nonnull(e);
	ck_assert_str_eq(json_object_get_string(get(e, "type")), "number");
	ck_assert_str_eq(json_object_get_string(get(e, "unit")), "s");
	ck_assert(json_object_get_double(get(e, "default")) == 60.0);
	ck_assert(json_object_get_double(get(e, "min")) == 0.0);
	ck_assert(json_object_get_boolean(get(e, "min_exclusive")));
	ck_assert(json_object_get_double(get(e, "max")) == 86400.0);
	ck_assert(!json_object_get_boolean(get(e, "max_exclusive")));
	ck_assert_ptr_nonnull(strstr(json_object_get_string(get(e, "help")),
				     "R2544-DUR"));
	ck_assert_ptr_nonnull(f);
	ck_assert_str_eq(json_object_get_string(get(f, "unit")), "B");
	ck_assert_str_eq(json_object_get_string(get(f, "type")),
			 "integer array");
	ck_assert_int_eq(json_object_array_length(get(f, "default")), 7);
	ck_assert(json_object_get_double(get(f, "min")) == 64.0);
	ck_assert_ptr_nonnull(s);
	txt = json_object_to_json_string_ext(get(s, "enum"),
					     JSON_C_TO_STRING_PLAIN);
	ck_assert_str_eq(txt, "[\"binary\",\"mlr\",\"rfc9971\"]");
	ck_assert_str_eq(json_object_get_string(get(s, "default")), "binary");
	json_object_put(d);

	/* The same key is another test's own entry elsewhere. */
	pi = bm_procedure_find("rfc2544.back-to-back", NULL);
	d = bm_procedure_describe(pi);
	a = get(d, "params");
	for (i = 0; i < json_object_array_length(a); i++) {
		json_object *x = json_object_array_get_idx(a, i);

		if (!strcmp(json_object_get_string(get(x, "key")),
			    "trial_duration_s")) {
			ck_assert(json_object_get_double(get(x, "default")) == 2.0);
			ck_assert(json_object_get_double(get(x, "min")) == 2.0);
		}
	}
	json_object_put(d);
}
END_TEST

/* Unknown names are refused with one clear line, everywhere. */
START_TEST(test_unknown_procedure)
{
	struct bm_error err = { "" };
	json_object *res = (json_object *)1;
	struct bm_backend *be;
	struct bm_sim_params sp;

	ck_assert_ptr_null(bm_procedure_find("rfc2544.jitter", &err));
	ck_assert_str_eq(err.msg, "unknown procedure \"rfc2544.jitter\"");
	ck_assert_ptr_null(bm_procedure_find(NULL, NULL));
	ck_assert_ptr_null(bm_procedure_find("rfc2544", NULL));
	ck_assert_ptr_null(bm_procedure_find("mlrsearch.x", NULL));
	bm_sim_params_default(&sp);
	be = bm_sim_new(&sp, &err);
	ck_assert_ptr_nonnull(be);
	err.msg[0] = '\0';
	ck_assert_int_eq(bm_procedure_run("throughput", NULL, be, NULL, NULL,
					  &res, &err), -EINVAL);
	ck_assert_ptr_null(res);
	ck_assert_str_eq(err.msg, "unknown procedure \"throughput\"");
	be->ops->destroy(be);
}
END_TEST

/* REQ-CAP-1: fewer ports than a procedure needs is one clear refusal. */
START_TEST(test_ports_needed)
{
	const struct bm_procedure_info *pi = bm_procedure_find("mlrsearch",
								 NULL);
	struct bm_error err = { "" };

	ck_assert_int_eq(bm_procedure_check_ports(pi, 2, &err), 0);
	ck_assert_int_eq(bm_procedure_check_ports(pi, 1, &err), -EINVAL);
	ck_assert_str_eq(err.msg, "mlrsearch needs 2 ports (REQ-CAP-1), 1 given");
}
END_TEST

/*
 * Every procedure names the key it refuses: an unknown key, and each of
 * its own keys given a value of the wrong type or beyond its range.
 */
START_TEST(test_bad_keys_named)
{
	const struct bm_procedure_info *pi;
	size_t ix;
	const struct bm_param *k;
	struct bm_error err;
	json_object *o;
	char want[160];

	for (ix = 0; (pi = bm_procedure_at(ix)); ix++) {
		o = json_tokener_parse("{\"bogus_key\": 1}");
		ck_assert_int_eq(bm_procedure_validate(pi->name, o, 1e9, &err),
				 -EINVAL);
		snprintf(want, sizeof(want), "%s: bogus_key: unknown parameter",
			 pi->name);
		ck_assert_str_eq(err.msg, want);
		json_object_put(o);
		for (k = pi->keys; k->jk.key; k++) {
			if (k->jk.mask && !(k->jk.mask & pi->mask))
				continue;
			o = json_object_new_object();
			if (k->jk.type == BM_J_CUSTOM ||
			    k->jk.type == BM_J_BOOL || k->jk.type == BM_J_ENUM)
				/* an object is no custom key's value either */
				json_object_object_add(o, k->jk.key,
						       json_object_new_object());
			else
				json_object_object_add(o, k->jk.key,
					json_object_new_double(k->jk.max * 2 + 1));
			err.msg[0] = '\0';
			ck_assert_msg(bm_procedure_validate(pi->name, o, 1e9,
							    &err) == -EINVAL,
				      "%s: %s accepted", pi->name, k->jk.key);
			snprintf(want, sizeof(want), "%s: %s", pi->name,
				 k->jk.key);
			ck_assert_msg(!strncmp(err.msg, want, strlen(want)),
				      "%s: %s: '%s'", pi->name, k->jk.key,
				      err.msg);
			ck_assert_ptr_null(strchr(err.msg, '\n'));
			json_object_put(o);
		}
	}
}
END_TEST

/* params must be rejected with exactly this reason (one line). */
static void rejects(const char *proc, const char *js, const char *reason)
{
	struct bm_error err = { "" };
	json_object *o = json_tokener_parse(js);
	int ret;

	ck_assert_msg(o, "bad test JSON %s", js);
	ret = bm_procedure_validate(proc, o, 1e9, &err);
	ck_assert_msg(ret == -EINVAL, "%s accepted %s", proc, js);
	ck_assert_msg(!strcmp(err.msg, reason), "%s %s:\n got  '%s'\n want '%s'",
		      proc, js, err.msg, reason);
	ck_assert_ptr_null(strchr(err.msg, '\n'));
	json_object_put(o);
}

static void accepts(const char *proc, const char *js)
{
	struct bm_error err = { "" };
	json_object *o = json_tokener_parse(js);

	ck_assert_msg(o, "bad test JSON %s", js);
	ck_assert_msg(bm_procedure_validate(proc, o, 1e9, &err) == 0,
		      "%s rejected %s: %s", proc, js, err.msg);
	json_object_put(o);
}

START_TEST(test_validation)
{
	const char *thr = "rfc2544.throughput";

	/* a key's newline is no second line of the reason (tests/fuzz) */
	rejects(thr, "{\"a\\nb\": 1}",
		"rfc2544.throughput: a?b: unknown parameter");

	accepts(thr, "{\"frame_sizes\": [64, 1518], \"search\": \"mlr\","
		" \"trial_duration_s\": 60, \"search_trial_duration_s\": 5,"
		" \"topology\": \"pair-bidir\", \"learning\": false,"
		" \"resolution_fps\": 10, \"loss_tolerance_frames\": 0}");
	accepts("rfc2544.latency", "{\"throughput_fps\": [1000, 2000],"
		" \"frame_sizes\": [64, 128], \"definition\": \"sf\","
		" \"repetitions\": 25, \"trial_duration_s\": 120}");
	accepts("rfc2544.frame-loss", "{\"step_pct\": 2.5}");
	accepts("rfc2544.back-to-back", "{\"trial_duration_s\": 2, "
		"\"repetitions\": 50, \"burst_max\": 1000}");
	accepts("rfc2544.recovery", "{\"overload_duration_s\": 60, "
		"\"observe_s\": 10, \"throughput_fps\": 5000}");
	accepts("rfc2544.reset", "{\"reset_type\": \"power\", "
		"\"reset\": \"pdu-cycle\", \"reset_at_s\": 5}");
	accepts("mlrsearch", "{\"frame_size\": 512, \"target_loss_ratios\": "
		"[0, 0.001, 0.005], \"final_trial_duration_s\": 30}");
	accepts("mlrsearch", "{\"learning\": true, \"drain_s\": 0.5}");

	/* unknown keys, including another procedure's key */
	rejects(thr, "{\"framesizes\": [64]}",
		"rfc2544.throughput: framesizes: unknown parameter");
	rejects(thr, "{\"step_pct\": 5}",
		"rfc2544.throughput: step_pct: unknown parameter");
	rejects("rfc2544.frame-loss", "{\"search\": \"binary\"}",
		"rfc2544.frame-loss: search: unknown parameter");
	rejects("rfc2544.throughput", "{\"throughput_fps\": 100}",
		"rfc2544.throughput: throughput_fps: unknown parameter");
	/* wrong types */
	rejects(thr, "{\"frame_sizes\": \"64\"}",
		"rfc2544.throughput: frame_sizes: expected an array of frame sizes");
	rejects(thr, "{\"frame_sizes\": [64.5]}",
		"rfc2544.throughput: frame_sizes[0]: expected an integer");
	rejects(thr, "{\"trial_duration_s\": \"60\"}",
		"rfc2544.throughput: trial_duration_s: expected a number (s) "
		"or a string with a unit");
	/* one unit grammar (bm_units.h): a time, a rate with their units;
	 * no hexadecimal */
	rejects(thr, "{\"trial_duration_s\": \"0x10s\"}",
		"rfc2544.throughput: trial_duration_s: expected a time (e.g. "
		"1.5ms, 250us, 60s) in decimal, got \"0x10s\"");
	rejects(thr, "{\"trial_duration_s\": \"60 sec\"}",
		"rfc2544.throughput: trial_duration_s: unknown unit \"sec\" "
		"for a time (e.g. 1.5ms, 250us, 60s)");
	rejects(thr, "{\"trial_duration_s\": \"25h\"}",
		"rfc2544.throughput: trial_duration_s: must be in (0, 86400], "
		"got 90000");
	rejects(thr, "{\"learning\": 1}",
		"rfc2544.throughput: learning: expected true or false");
	rejects(thr, "{\"search\": \"linear\"}",
		"rfc2544.throughput: search: expected one of \"binary\" or \"mlr\" ...");
	rejects(thr, "{\"loss_tolerance_frames\": 0.5}",
		"rfc2544.throughput: loss_tolerance_frames: expected an integer");
	rejects(thr, "[64]", "rfc2544.throughput: parameters must be a JSON object");
	/* out of range */
	rejects(thr, "{\"frame_sizes\": [63]}",
		"rfc2544.throughput: frame_sizes[0]: must be in [64, 9216], got 63");
	rejects(thr, "{\"frame_sizes\": [64, 128, 64]}",
		"rfc2544.throughput: frame_sizes[2]: duplicate size 64");
	rejects(thr, "{\"frame_sizes\": []}",
		"rfc2544.throughput: frame_sizes: expected 1 to 16 frame sizes");
	rejects(thr, "{\"max_rate_pct\": 0}",
		"rfc2544.throughput: max_rate_pct: must be in (0, 1000], got 0");
	rejects(thr, "{\"learning_pause_s\": -1}",
		"rfc2544.throughput: learning_pause_s: must be in [0, 60], got -1");
	rejects(thr, "{\"resolution_fps\": 0.5}",
		"rfc2544.throughput: resolution_fps: must be in [1, 1e+10], got 0.5");
	rejects(thr, "{\"trial_duration_s\": 10, \"search_trial_duration_s\": 20}",
		"rfc2544.throughput: search trial duration longer than the "
		"full-length trial duration");
	rejects(thr, "{\"start_rate_pct\": 0.05}",
		"rfc2544.throughput: start_rate_pct: below r_min_pct");
	/* the RFC's MUSTs as ranges */
	rejects("rfc2544.frame-loss", "{\"step_pct\": 11}",
		"rfc2544.frame-loss: step_pct: must be in (0, 10], got 11");
	rejects("rfc2544.latency", "{\"repetitions\": 19}",
		"rfc2544.latency: repetitions: must be in [20, 100000], got 19");
	rejects("rfc2544.back-to-back", "{\"trial_duration_s\": 1.5}",
		"rfc2544.back-to-back: trial_duration_s: must be in [2, 3600], got 1.5");
	rejects("rfc2544.latency", "{\"tag_at_s\": 120}",
		"rfc2544.latency: tag_at_s: must be before the end of the 120 s stream");
	rejects("rfc2544.latency", "{\"frame_sizes\": [64, 128], "
		"\"throughput_fps\": [1000]}",
		"rfc2544.latency: throughput_fps: 1 rates for 2 frame sizes");
	rejects("rfc2544.recovery", "{\"throughput_fps\": 1e9}",
		"rfc2544.recovery: throughput_fps: 1000000000.00 fps is above "
		"the line rate at 64 B");
	rejects("rfc2544.recovery", "{\"throughput_fps\": -5}",
		"rfc2544.recovery: throughput_fps: must be > 0");
	rejects("rfc2544.reset", "{\"reset_type\": \"soft\"}",
		"rfc2544.reset: reset_type: expected one of \"hardware\" or "
		"\"software\" ...");
	rejects("rfc2544.reset", "{\"reset\": 5}",
		"rfc2544.reset: reset: expected a string");
	rejects("rfc2544.reset", "{\"reset\": \"a-reset-name-longer-than-32-chars\"}",
		"rfc2544.reset: reset: longer than 32 characters");
	/* a command is no parameter (bmd names the file) */
	rejects("rfc2544.reset", "{\"reset_command\": \"true\"}",
		"rfc2544.reset: reset_command: unknown parameter");
	/* mlrsearch */
	rejects("mlrsearch", "{\"target_loss_ratios\": [0.005, 0]}",
		"mlrsearch: target_loss_ratios[1]: must be larger than the "
		"previous ratio");
	rejects("mlrsearch", "{\"target_loss_ratios\": [1.0]}",
		"mlrsearch: target_loss_ratios[0]: expected a number in [0, 1)");
	rejects("mlrsearch", "{\"max_rate_fps\": 2e6}",
		"mlrsearch: max_rate_fps: above the line rate (1488095.24 fps "
		"at 64 B)");
	rejects("mlrsearch", "{\"ndr\": true}", "mlrsearch: ndr: unknown parameter");
	rejects("mlrsearch", "{\"number_of_intermediate_phases\": -1}",
		"mlrsearch: number_of_intermediate_phases: must be in [0, 20], got -1");
	rejects("mlrsearch", "{\"drain_s\": -1}",
		"mlrsearch: drain_s: must be in [0, 60], got -1");
	/* a line rate whose trials carry no frame (1 bit/s
	 * meant as 1G) is refused, not run to an "ok" of 0.0015 fps */
	{
		struct bm_error err = { "" };
		json_object *o = json_tokener_parse("{\"frame_sizes\": [64]}");

		ck_assert_int_eq(bm_procedure_validate(thr, o, 1, &err),
				 -EINVAL);
		ck_assert_str_eq(err.msg, "rfc2544.throughput: a 60 s trial "
				 "of 64 B frames carries 0.0893 frames at the "
				 "line rate of 1 bit/s: is the line rate right?");
		/* the shortest trial counts: latency's own, or the search's
		 * (MLRsearch's initial 1 s) */
		json_object_put(o);
		o = json_tokener_parse("{\"frame_sizes\": [1518], \"search\": "
				       "\"mlr\"}");
		ck_assert_int_eq(bm_procedure_validate("rfc2544.latency", o,
						       10000, &err), -EINVAL);
		ck_assert_str_eq(err.msg, "rfc2544.latency: a 1 s trial of "
				 "1518 B frames carries 0.813 frames at the "
				 "line rate of 10000 bit/s: is the line rate "
				 "right?");
		ck_assert_int_eq(bm_procedure_validate("rfc2544.latency", o,
						       20000, &err), 0);
		json_object_put(o);
	}
}
END_TEST

/* Run proc with params js on the sim sim_js whose reset command (what
 * bmd gives the backend of a job that names a reset) is cmd. */
static json_object *run_reset(const char *proc, const char *sim_js,
			      const char *js, const char *cmd)
{
	struct bm_error err = { "" };
	json_object *sim = json_tokener_parse(sim_js);
	json_object *par = js ? json_tokener_parse(js) : NULL;
	struct bm_backend *be = bm_sim_new_json(sim, &err);
	json_object *doc = NULL;
	double n;
	int ret;

	ck_assert_msg(be, "%s", err.msg);
	be->reset_command = cmd;
	ret = bm_procedure_run(proc, par, be, NULL, NULL, &doc, &err);
	ck_assert_msg(ret == 0, "%s: %s", proc, err.msg);
	ck_assert_ptr_nonnull(doc);
	/* the worst case bmd checks up front holds */
	ck_assert_int_eq(bm_procedure_max_trials(proc, par, be->line_rate_bps,
						 be->n_ports, &n, &err), 0);
	ck_assert_msg(json_object_array_length(tj_get(doc, "trials")) <= n,
		      "%s: %zu trials, bound %.0f", proc,
		      json_object_array_length(tj_get(doc, "trials")), n);
	bm_test_keep_result(doc, proc);
	bm_sim_free(be);
	json_object_put(sim);
	json_object_put(par);
	return doc;
}

static json_object *run_ok(const char *proc, const char *sim_js,
			   const char *js)
{
	return run_reset(proc, sim_js, js, NULL);
}

static json_object *at(json_object *o, const char *key)
{
	json_object *v = NULL;

	ck_assert_msg(json_object_object_get_ex(o, key, &v), "no %s", key);
	return v;
}

static json_object *first(json_object *doc)
{
	return json_object_array_get_idx(at(at(doc, "results"), "per_size"), 0);
}

START_TEST(test_run_documents)
{
	const char *tbf = "{\"capacity_bps\": 300e6, \"bucket_bytes\": 3200,"
			  " \"buffer_frames\": 1000}";
	json_object *doc, *r, *a;
	static const char *const top[] = { "procedure", "params", "trials",
					   "results", "deviations" };
	size_t i;

	doc = run_ok("rfc2544.throughput", tbf, "{\"frame_sizes\": [512]}");
	for (i = 0; i < 5; i++)
		at(doc, top[i]);		/* REQ-REP-1 minus meta */
	ck_assert_str_eq(json_object_get_string(at(at(doc, "procedure"), "ref")),
			 "RFC 2544 §26.1; R2544-THRPT");
	r = first(doc);
	ck_assert(fabs(json_object_get_double(at(r, "throughput_fps")) -
		       70488.72) <= 234.96);
	json_object_put(doc);

	/* the sim resets itself when no reset is named */
	doc = run_ok("rfc2544.reset", "{\"reset_outage_s\": 2.5}",
		     "{\"trial_duration_s\": 20}");
	ck_assert(fabs(json_object_get_double(at(first(doc), "reset_s")) - 2.5) <
		  0.1);
	json_object_put(doc);

	/* a named reset runs the backend's command, never the sim's own
	 * reset: one that resets nothing shows no outage */
	doc = run_reset("rfc2544.reset", "{\"reset_outage_s\": 2.5}",
			"{\"trial_duration_s\": 20, \"reset\": \"nop\"}",
			"true");
	ck_assert_str_eq(json_object_get_string(at(first(doc), "result")),
			 "no reset observed");
	ck_assert_str_eq(json_object_get_string(at(at(doc, "params"), "reset")),
			 "nop");
	json_object_put(doc);
	doc = run_reset("rfc2544.reset", "{}", "{\"trial_duration_s\": 20, "
			"\"reset\": \"fails\"}", "exit 3");
	a = json_object_array_get_idx(at(first(doc), "repetitions"), 0);
	ck_assert_str_eq(json_object_get_string(at(a, "result")),
			 "reset hook failed");
	json_object_put(doc);
	/* a command that hangs is killed, with its children, after
	 * reset_timeout_s, and the repetition says so */
	doc = run_reset("rfc2544.reset", "{}", "{\"trial_duration_s\": 20, "
			"\"reset_timeout_s\": 0.3, \"reset\": \"hangs\"}",
			"sleep 30; sleep 30");
	a = json_object_array_get_idx(at(first(doc), "repetitions"), 0);
	ck_assert_str_eq(json_object_get_string(at(a, "result")),
			 "reset hook timed out and was killed");
	json_object_put(doc);
	/* a name without a command (no bmd gave one) never falls back to
	 * the backend's own reset */
	{
		struct bm_error err = { "" };
		json_object *sim = json_tokener_parse("{}");
		json_object *par = json_tokener_parse("{\"reset\": \"x\"}");
		struct bm_backend *be = bm_sim_new_json(sim, &err);

		doc = NULL;
		ck_assert_int_eq(bm_procedure_run("rfc2544.reset", par, be,
						  NULL, NULL, &doc, &err),
				 -EINVAL);
		ck_assert_str_eq(err.msg, "rfc2544.reset: reset: no command for reset 'x'");
		json_object_put(doc);
		bm_sim_free(be);
		json_object_put(sim);
		json_object_put(par);
	}
	/* the command runs with SIGPIPE at its default even though bmd
	 * ignores it: SigIgn of the command's grep has bit 12 (0x1000, SIGPIPE) clear */
	signal(SIGPIPE, SIG_IGN);
	doc = run_reset("rfc2544.reset", "{}", "{\"trial_duration_s\": 20, "
			"\"reset\": \"sigpipe\"}",
			"grep -q 'SigIgn:.*[02468ace]...$' /proc/self/status");
	signal(SIGPIPE, SIG_DFL);
	a = json_object_array_get_idx(at(first(doc), "repetitions"), 0);
	ck_assert_str_eq(json_object_get_string(at(a, "result")),
			 "no outage above the gap threshold");
	json_object_put(doc);

	/* mlrsearch: NDR and PDR bounds on the 300 Mbit/s shaper */
	doc = run_ok("mlrsearch", tbf, "{\"frame_size\": 512}");
	a = at(at(doc, "results"), "rates");
	ck_assert_uint_eq(json_object_array_length(a), 2);
	r = json_object_array_get_idx(a, 0);
	ck_assert_double_eq(json_object_get_double(at(r, "target_loss_ratio")), 0);
	ck_assert(json_object_get_double(at(r, "lower_fps")) >= 70488.72 * 0.995 - 1);
	ck_assert(json_object_get_double(at(r, "lower_fps")) <= 70488.72 + 33.6);
	r = json_object_array_get_idx(a, 1);
	/* PDR 0.5 %: loss (r - C) / r <= 0.005 up to C / 0.995 */
	ck_assert(json_object_get_double(at(r, "lower_fps")) <= 70488.72 / 0.995 + 34);
	ck_assert(json_object_get_double(at(r, "lower_fps")) >= 70488.72);
	ck_assert_uint_gt(json_object_array_length(at(doc, "trials")), 3);
	json_object_put(doc);
}
END_TEST

/*
 * mlrsearch's mode is a key, "fast" by default and in the
 * result's params and results; "draft-01" runs the draft's own trials.
 */
/*
 * bmgen.capacity (REQ-GEN-6) against the sim's closed form: its generator
 * sends at most generator_max_fps, so send_fps is that; the loop carries
 * clean every rate below the DUT's capacity, so loop_fps is the first of
 * 0.95 x send_fps x 0.85^k under it.
 */
START_TEST(test_capacity_closed_form)
{
	json_object *doc, *c, *e;
	size_t i;

	doc = run_ok("bmgen.capacity", "{\"line_rate_bps\": 1e10, "
		     "\"generator_max_fps\": 2e6, \"capacity_fps\": 5e6}",
		     "{\"frame_sizes\": [64, 1518], \"duration_s\": 0.5}");
	c = at(at(doc, "results"), "capacity");
	ck_assert_uint_eq(json_object_array_length(c), 8);	/* 2 x 4 paths */
	for (i = 0; i < 8; i++) {
		double ask, send;

		e = json_object_array_get_idx(c, i);
		ask = 1e10 / (((i < 4 ? 64 : 1518) + 20) * 8.0);
		ck_assert_double_eq_tol(json_object_get_double(
			at(e, "offered_fps")), ask, ask * 1e-9);
		send = json_object_get_double(at(e, "send_fps"));
		if (i < 4) {
			/* 64 B: 14.88 Mfps asked, the generator's 2 Mfps */
			ck_assert_double_eq_tol(send, 2e6, 2e6 * 1e-3);
			ck_assert(!json_object_get_boolean(at(e, "line_limited")));
			ck_assert_double_eq_tol(json_object_get_double(
				at(e, "loop_fps")), 1.9e6, 1.0);
		} else {
			/* 1518 B: 0.81 Mfps, below it: the line is the limit */
			ck_assert_double_eq_tol(send, ask, ask * 1e-3);
			ck_assert(json_object_get_boolean(at(e, "line_limited")));
		}
		ck_assert(json_object_get_boolean(at(e, "available")));
	}
	json_object_put(doc);

	/* a DUT of 1 Mfps in the loop: 1.9, 1.615, 1.373, 1.167 Mfps lose,
	 * 0.992 Mfps is the first clean one */
	doc = run_ok("bmgen.capacity", "{\"line_rate_bps\": 1e10, "
		     "\"generator_max_fps\": 2e6, \"capacity_fps\": 1e6}",
		     "{\"tx_paths\": [\"auto\"], \"steps\": 6}");
	e = json_object_array_get_idx(at(at(doc, "results"), "capacity"), 0);
	ck_assert_double_eq_tol(json_object_get_double(at(e, "loop_fps")),
				1.9e6 * pow(0.85, 4), 1.0);
	ck_assert_int_eq(json_object_get_int(at(e, "loop_trials")), 5);
	json_object_put(doc);

	/* steps 4 find none: null, and the result says why it may be */
	doc = run_ok("bmgen.capacity", "{\"line_rate_bps\": 1e10, "
		     "\"generator_max_fps\": 2e6, \"capacity_fps\": 1e6}",
		     "{\"tx_paths\": [\"alloc\"]}");
	e = json_object_array_get_idx(at(at(doc, "results"), "capacity"), 0);
	ck_assert(json_object_is_type(at(e, "loop_fps"), json_type_null));
	ck_assert_str_eq(json_object_get_string(json_object_array_get_idx(
		at(doc, "deviations"), json_object_array_length(
			at(doc, "deviations")) - 1)),
		"no loop rate carried every frame: are the two ports cabled "
		"to each other (or a veth pair)? send_fps stands");
	json_object_put(doc);
}
END_TEST

START_TEST(test_mlrsearch_mode)
{
	const char *tbf = "{\"capacity_bps\": 300e6, \"bucket_bytes\": 3200,"
			  " \"buffer_frames\": 1000}";
	const struct bm_procedure_info *pi = bm_procedure_find("mlrsearch",
								NULL);
	json_object *d, *doc;

	d = pi->defaults(pi);
	ck_assert_str_eq(json_object_get_string(at(d, "mode")), "fast");
	json_object_put(d);
	accepts("mlrsearch", "{\"mode\": \"draft-01\"}");
	rejects("mlrsearch", "{\"mode\": \"csit\"}",
		"mlrsearch: mode: expected one of \"draft-01\" or \"fast\" ...");

	doc = run_ok("mlrsearch", tbf, "{\"frame_size\": 512}");
	ck_assert_str_eq(json_object_get_string(at(at(doc, "params"), "mode")),
			 "fast");
	ck_assert_str_eq(json_object_get_string(at(at(doc, "results"), "mode")),
			 "fast");
	json_object_put(doc);
	doc = run_ok("mlrsearch", tbf, "{\"frame_size\": 512, "
		     "\"mode\": \"draft-01\"}");
	ck_assert_str_eq(json_object_get_string(at(at(doc, "params"), "mode")),
			 "draft-01");
	ck_assert_str_eq(json_object_get_string(at(at(doc, "results"), "mode")),
			 "draft-01");
	json_object_put(doc);
}
END_TEST

static int count_cancel(void *ctx, const struct bm_trial_record *rec,
			const char *status)
{
	int *n = ctx;

	ck_assert_ptr_nonnull(rec);
	ck_assert(strstr(status, "fps") || strstr(status, "burst"));
	return ++*n == 4;
}

START_TEST(test_progress_cancel)
{
	struct bm_error err = { "" };
	struct bm_sim_params sp;
	struct bm_backend *be;
	json_object *doc = NULL, *par;
	int n = 0;

	bm_sim_params_default(&sp);
	sp.capacity_fps = 10000;
	be = bm_sim_new(&sp, &err);
	ck_assert_int_eq(bm_procedure_run("rfc2544.frame-loss", NULL, be,
					  count_cancel, &n, &doc, &err),
			 -ECANCELED);
	ck_assert_int_eq(n, 4);
	ck_assert_ptr_nonnull(doc);	/* partial document */
	bm_test_keep_result(doc, "rfc2544.frame-loss-cancelled");
	ck_assert_uint_eq(json_object_array_length(at(doc, "trials")), 4);
	json_object_put(doc);
	/* invalid params never reach the backend */
	par = json_tokener_parse("{\"bogus\": 1}");
	ck_assert_int_eq(bm_procedure_run("rfc2544.throughput", par, be, NULL,
					  NULL, &doc, &err), -EINVAL);
	ck_assert_ptr_null(doc);
	json_object_put(par);
	ck_assert_uint_eq(be->trials, 4);
	bm_sim_free(be);
}
END_TEST

/* --- faults mid-trial, every procedure --------------------------------- */

/* A sim whose trial number fail_at fails as the module fails a trial whose
 * port went away (device deleted, module unloaded): -ENODEV. */
struct faulty {
	struct bm_backend be;
	struct bm_backend *inner;
	unsigned int fail_at, runs;
};

static int faulty_run(struct bm_backend *be, const struct bm_trial_spec *spec,
		      struct bm_trial_result *res, struct bm_error *err)
{
	struct faulty *f = be->priv;
	int ret;

	if (++f->runs == f->fail_at)
		return bm_errorf(err, "trial failed in the module: %s",
				 strerror(ENODEV)), -ENODEV;
	ck_assert_uint_lt(f->runs, f->fail_at);	/* none after the fault */
	ret = bm_run_trial(f->inner, spec, res, err);
	be->elapsed_s = f->inner->elapsed_s;
	return ret;
}

static void faulty_destroy(struct bm_backend *be)
{
	struct faulty *f = be->priv;

	bm_sim_free(f->inner);
}

static int faulty_dut_reset(struct bm_backend *be)
{
	struct faulty *f = be->priv;

	return f->inner->ops->dut_reset(f->inner);
}

static const struct bm_backend_ops faulty_ops = {
	.run_trial = faulty_run,
	.destroy = faulty_destroy,
	.dut_reset = faulty_dut_reset,
};

/* Ports p1 .. pn of line bit/s each, the sim's own device behind them. */
static struct bm_backend *fault_sim(unsigned int n, double line,
				    unsigned int link_down)
{
	static const char *const port[] = { "p1", "p2", "p3", "p4", "p5",
					    "p6", "p7", "p8" };
	struct bm_error err = { "" };
	struct bm_sim_params sp;
	struct bm_backend *be;

	bm_sim_params_default(&sp);
	sp.line_rate_bps = line;
	sp.capacity_fps = bm_fps_max(sp.line_rate_bps, 64) * 0.5;
	sp.link_down_trial = link_down;
	be = bm_sim_new(&sp, &err);
	ck_assert_msg(be, "%s", err.msg);
	ck_assert_int_eq(bm_backend_set_ports(be, n, port, &err), 0);
	return be;
}

/*
 * Every procedure, its first trial and its second lose their port
 * (-ENODEV) or a port's link (-ENETDOWN): the run ends at once with that
 * error and its reason, runs no trial after it, and what it returns of a
 * document is a valid partial one (kept for the schema check).  The lab
 * (bmd/faults) does the real faults per family.
 */
START_TEST(test_faults_every_procedure)
{
	const struct bm_procedure_info *pi = bm_procedure_at(_i);
	struct bm_error err;
	struct faulty f;
	json_object *doc, *req;
	unsigned int at, n;
	char name[96];
	double line;
	int ret;

	ck_assert_ptr_nonnull(pi);
	n = pi->ports_needed < 2 ? 2 : pi->ports_needed;
	/* RFC 7640's default bursts fit 1 Gbit/s; the frame-level sim
	 * of RFC 8239's line-rate tests is quick at 10 Mbit/s */
	line = strncmp(pi->name, "rfc7640", 7) ? 10e6 : 1e9;
	for (at = 1; at <= 2; at++) {
		/* the port is gone */
		f = (struct faulty){ .inner = fault_sim(n, line, 0), .fail_at = at };
		f.be = (struct bm_backend){ .ops = &faulty_ops, .name = "faulty",
			.line_rate_bps = f.inner->line_rate_bps,
			.virtual_clock = true, .priv = &f,
			.tcp = f.inner->tcp, .tcp_priv = f.inner->tcp_priv };
		memcpy(f.be.port_names, f.inner->port_names,
		       sizeof(f.be.port_names));
		f.be.n_ports = n;
		err.msg[0] = '\0';
		doc = NULL;
		req = required(pi->name);
		ret = bm_procedure_run(pi->name, req, &f.be, NULL, NULL, &doc,
				       &err);
		json_object_put(req);
		if (ret == 0 && f.runs < at) {
			/* done before its trial number at */
			json_object_put(doc);
			faulty_destroy(&f.be);
			continue;
		}
		ck_assert_msg(ret == -ENODEV, "%s, trial %u gone: %d %s",
			      pi->name, at, ret, err.msg);
		ck_assert_msg(strstr(err.msg, "No such device"), "%s: '%s'",
			      pi->name, err.msg);
		ck_assert_uint_eq(f.runs, at);
		if (doc) {
			snprintf(name, sizeof(name), "%s-port-gone-%u",
				 pi->name, at);
			/* as bmd stores it: partial, and saying so */
			bm_result_mark_partial(doc, ret, err.msg);
			bm_test_keep_result(doc, name);
		}
		json_object_put(doc);
		faulty_destroy(&f.be);

		/* a port's link went down in the trial */
		f.inner = fault_sim(n, line, at);
		err.msg[0] = '\0';
		doc = NULL;
		req = required(pi->name);
		ret = bm_procedure_run(pi->name, req, f.inner, NULL, NULL,
				       &doc, &err);
		json_object_put(req);
		/* (rfc2544.reset's own reset trial expects its links to
		 * go: test_rfc2544's test_link_flap) */
		ck_assert_msg(ret == -ENETDOWN, "%s, link %u: %d %s",
			      pi->name, at, ret, err.msg);
		ck_assert_msg(strstr(err.msg, "lost its link"), "%s: '%s'",
			      pi->name, err.msg);
		ck_assert_uint_eq(f.inner->trials, at);
		if (doc) {
			snprintf(name, sizeof(name), "%s-link-down-%u",
				 pi->name, at);
			/* as bmd stores it: partial, and saying so */
			bm_result_mark_partial(doc, ret, err.msg);
			bm_test_keep_result(doc, name);
		}
		json_object_put(doc);
		bm_sim_free(f.inner);
	}
}
END_TEST

/* --- reset commands end with their job and with bmd -------------- */

/* Is process pid gone (or a zombie nobody reaps yet)? */
static bool proc_gone(pid_t pid)
{
	char path[64], buf[256], *p;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return true;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')');
	return !p || p[1] == '\0' || p[2] == 'Z' || p[2] == 'X';
}

/* The pid the command wrote into path, waiting up to 10 s for it. */
static pid_t pid_from(const char *path)
{
	for (int i = 0; i < 1000; i++) {
		FILE *f = fopen(path, "r");
		int pid = 0;

		if (f) {
			if (fscanf(f, "%d", &pid) != 1)
				pid = 0;
			fclose(f);
		}
		if (pid > 0)
			return pid;
		usleep(10000);
	}
	return 0;
}

static bool gone_within_5s(pid_t pid)
{
	for (int i = 0; i < 500 && !proc_gone(pid); i++)
		usleep(10000);
	return proc_gone(pid);
}

/* Cancel (bmd's SIGTERM or `bmctl cancel`) once the reset is running,
 * and from then on, as bmd's job does. */
static int cancel_in_reset(void *ctx, const struct bm_trial_record *rec,
			   const char *status)
{
	int *seen = ctx;

	if (!rec && status && strstr(status, "reset 'slow': running"))
		++*seen;
	return *seen >= 2;
}

START_TEST(test_reset_cancelled)
{
	char dir[] = "/tmp/bmgen-reset-XXXXXX", path[64], cmd[256];
	struct bm_error err = { "" };
	json_object *sim = json_tokener_parse("{}");
	json_object *par = json_tokener_parse(
		"{\"trial_duration_s\": 20, \"reset\": \"slow\", "
		"\"reset_timeout_s\": 3600}");
	struct bm_backend *be = bm_sim_new_json(sim, &err);
	json_object *doc = NULL, *a;
	pid_t sleeper;
	int seen = 0;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(cmd, sizeof(cmd), "sleep 20 & echo $! > %s/pid; wait; "
		 "touch %s/done", dir, dir);
	be->reset_command = cmd;
	/* the job is cancelled while its reset command runs: the command
	 * is killed at once, not waited for (it may be allowed an hour) */
	ck_assert_int_eq(bm_procedure_run("rfc2544.reset", par, be,
					  cancel_in_reset, &seen, &doc, &err),
			 -ECANCELED);
	ck_assert_int_ge(seen, 2);
	snprintf(path, sizeof(path), "%s/pid", dir);
	sleeper = pid_from(path);
	ck_assert_int_gt(sleeper, 0);
	ck_assert_msg(gone_within_5s(sleeper), "the reset command's sleep %d "
		      "outlived the cancelled job", (int)sleeper);
	snprintf(path, sizeof(path), "%s/done", dir);
	ck_assert_msg(access(path, F_OK) != 0, "the command ran to its end");
	ck_assert_ptr_nonnull(doc);	/* the partial result */
	a = json_object_array_get_idx(at(first(doc), "repetitions"), 0);
	ck_assert_str_eq(json_object_get_string(at(a, "result")),
			 "reset hook killed: the job was cancelled");
	json_object_put(doc);
	kill(sleeper, SIGKILL);
	bm_sim_free(be);
	json_object_put(sim);
	json_object_put(par);
}
END_TEST

START_TEST(test_reset_dies_with_bmd)
{
	char dir[] = "/tmp/bmgen-reset-XXXXXX", path[64], cmd[256];
	pid_t runner, sleeper;
	int status;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(cmd, sizeof(cmd), "sleep 20 & echo $! > %s/pid; wait", dir);
	runner = fork();
	ck_assert_int_ge(runner, 0);
	if (!runner) {
		/* "bmd": a job whose reset command is running */
		struct bm_error err = { "" };
		json_object *sim = json_tokener_parse("{}");
		json_object *par = json_tokener_parse(
			"{\"trial_duration_s\": 20, \"reset\": \"slow\", "
			"\"reset_timeout_s\": 3600}");
		struct bm_backend *be = bm_sim_new_json(sim, &err);
		json_object *doc = NULL;

		be->reset_command = cmd;
		bm_procedure_run("rfc2544.reset", par, be, NULL, NULL, &doc,
				 &err);
		_exit(0);
	}
	snprintf(path, sizeof(path), "%s/pid", dir);
	sleeper = pid_from(path);
	ck_assert_int_gt(sleeper, 0);
	/* bmd killed with SIGKILL: nothing of its command may stay behind,
	 * reparented to init */
	kill(runner, SIGKILL);
	waitpid(runner, &status, 0);
	ck_assert_msg(gone_within_5s(sleeper), "the reset command's sleep %d "
		      "outlived the killed bmd", (int)sleeper);
	kill(sleeper, SIGKILL);
}
END_TEST

static Suite *proc_suite(void)
{
	Suite *s = suite_create("procedures");
	TCase *tc = tcase_create("registry");

	tcase_add_test(tc, test_trial_bound);
	tcase_add_test(tc, test_registry);
	tcase_add_test(tc, test_registry_rows_complete);
	tcase_add_test(tc, test_schema_throughput);
	tcase_add_test(tc, test_unknown_procedure);
	tcase_add_test(tc, test_ports_needed);
	tcase_add_test(tc, test_bad_keys_named);
	tcase_add_test(tc, test_validation);
	tcase_add_test(tc, test_run_documents);
	tcase_add_test(tc, test_mlrsearch_mode);
	tcase_add_test(tc, test_capacity_closed_form);
	tcase_add_test(tc, test_progress_cancel);
	tcase_add_loop_test(tc, test_faults_every_procedure, 0,
			    (int)N_PROCEDURES);
	tcase_add_test(tc, test_reset_cancelled);
	tcase_add_test(tc, test_reset_dies_with_bmd);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tj_run_suite(proc_suite());
}

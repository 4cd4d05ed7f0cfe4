// SPDX-License-Identifier: GPL-2.0
/*
 * bmctl procedures [PROC] and bmctl run PROC --help: what bmd says a
 * procedure is.  bmctl knows no procedure itself: names, ports, parameters
 * and what --duration and --frame-sizes set all come from bmd's registry,
 * so a client never disagrees with the daemon that runs the job.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bmctl.h"
#include "print.h"

static json_object *get(json_object *o, const char *key)
{
	json_object *v = NULL;

	json_object_object_get_ex(o, key, &v);
	return v;
}

int procedure_words(int argc, char **argv, char *name, size_t size)
{
	int i;

	name[0] = '\0';
	for (i = 0; i < argc && argv[i][0] != '-'; i++) {
		size_t n = strlen(name);

		if (n + strlen(argv[i]) + 2 > size) {
			usage_error("procedure name too long");
			return -1;
		}
		snprintf(name + n, size - n, "%s%s", n ? "." : "", argv[i]);
	}
	return i;
}

int procedure_fetch(struct bm_client *c, const char *name, json_object **proc)
{
	json_object *req = request_new("procedure"), *r;
	int ret;

	*proc = NULL;
	json_object_object_add(req, "procedure", json_object_new_string(name));
	ret = call_bmd(c, req, &r);
	if (ret)
		return ret;
	*proc = json_object_get(get(r, "procedure"));
	json_object_put(r);
	if (!json_object_is_type(*proc, json_type_object)) {
		json_object_put(*proc);
		*proc = NULL;
		return failure("bmd answered no procedure %s (an older bmd?)",
			       name);
	}
	return 0;
}

json_object *procedure_param(json_object *proc, const char *key)
{
	json_object *a = get(proc, "params");
	size_t i, n = a ? json_object_array_length(a) : 0;

	for (i = 0; key && i < n; i++) {
		json_object *p = json_object_array_get_idx(a, i);
		const char *k = json_object_get_string(get(p, "key"));

		if (k && !strcmp(k, key))
			return p;
	}
	return NULL;
}

/* A bound of a schema entry, or NULL when it has none. */
static bool bound(json_object *p, const char *key, double *x)
{
	json_object *v = get(p, key);

	if (!v || json_object_is_type(v, json_type_null))
		return false;
	*x = json_object_get_double(v);
	return isfinite(*x);
}

/* "[64, 9216]", "(0, 86400]", "> 0", "pair-uni|pair-bidir", "true|false". */
static void fmt_range(json_object *p, char *buf, size_t size)
{
	json_object *e = get(p, "enum");
	bool lo_x = json_object_get_boolean(get(p, "min_exclusive"));
	bool hi_x = json_object_get_boolean(get(p, "max_exclusive"));
	bool has_lo, has_hi;
	double lo = 0, hi = 0;
	size_t i, n;
	int len = 0;

	snprintf(buf, size, "-");
	if (e) {
		n = json_object_array_length(e);
		for (i = 0; i < n && len < (int)size; i++) {
			json_object *v = json_object_array_get_idx(e, i);

			len += snprintf(buf + len, size - len, "%s%s",
					i ? "|" : "", json_object_get_string(v));
		}
		return;
	}
	if (!strcmp(json_object_get_string(get(p, "type")), "boolean")) {
		snprintf(buf, size, "true|false");
		return;
	}
	has_lo = bound(p, "min", &lo);
	has_hi = bound(p, "max", &hi);
	if (has_lo && has_hi)
		snprintf(buf, size, "%c%g, %g%c", lo_x ? '(' : '[', lo, hi,
			 hi_x ? ')' : ']');
	else if (has_lo)
		snprintf(buf, size, "%s %g", lo_x ? ">" : ">=", lo);
	else if (has_hi)
		snprintf(buf, size, "%s %g", hi_x ? "<" : "<=", hi);
}

/* A default as a user types it: "[0,0.005]", not json-c's 17 digits. */
static void fmt_default(json_object *d, char *buf, size_t size)
{
	size_t i, n;
	int len;

	if (!d) {
		snprintf(buf, size, "unset");
		return;
	}
	if (json_object_is_type(d, json_type_string) &&
	    !*json_object_get_string(d)) {
		snprintf(buf, size, "\"\"");
		return;
	}
	if (!json_object_is_type(d, json_type_array)) {
		snprintf(buf, size, "%s", pr_fmt_json(d));
		return;
	}
	n = json_object_array_length(d);
	len = snprintf(buf, size, "[");
	for (i = 0; i < n && len < (int)size; i++)
		len += snprintf(buf + len, size - len, "%s%s", i ? "," : "",
				pr_fmt_json(json_object_array_get_idx(d, i)));
	if (len < (int)size)
		snprintf(buf + len, size - len, "]");
}

void procedure_print(json_object *proc)
{
	const char *dk = json_object_get_string(get(proc, "duration_key"));
	const char *sk = json_object_get_string(get(proc, "sizes_key"));
	json_object *a = get(proc, "params");
	size_t i, n = a ? json_object_array_length(a) : 0;
	char range[256], text[256], line[1024];

	/* --json: bmd's description as it is, bounds and flags included. */
	if (opts.json) {
		printf("%s\n", json_object_to_json_string_ext(proc,
			JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
			JSON_C_TO_STRING_NOSLASHESCAPE));
		return;
	}
	pr_init(false);
	snprintf(line, sizeof(line), "%s: %s",
		 json_object_get_string(get(proc, "name")),
		 json_object_get_string(get(proc, "summary")));
	pr_wrapped(0, 2, line);
	snprintf(line, sizeof(line), "%-18s %s", "SPEC",
		 pr_fmt_json(get(proc, "ref")));
	pr_wrapped(0, 19, line);
	pr_kv_json("ports_needed", "ports needed", get(proc, "ports_needed"));
	pr_kv_str("duration_key", "--duration sets", dk ? dk : "(nothing)");
	pr_kv_str("sizes_key", "--frame-sizes sets", sk ? sk : "(nothing)");
	pr_wrapped(0, 2, "parameters (--param KEY=VALUE or --param @FILE; "
		   "rates, times and sizes take units: 100M, 1.5ms, 64KB; "
		   "\"unset\": derived, see its help):");
	/* one parameter a paragraph, not a table: help is prose, and a
	 * table of six columns fits no 80-column terminal */
	for (i = 0; i < n; i++) {
		json_object *p = json_object_array_get_idx(a, i);
		const char *u = json_object_get_string(get(p, "unit"));
		const char *help = json_object_get_string(get(p, "help"));

		fmt_range(p, range, sizeof(range));
		fmt_default(get(p, "default"), text, sizeof(text));
		snprintf(line, sizeof(line), "%s  %s%s%s%s%s, default %s",
			 json_object_get_string(get(p, "key")),
			 json_object_get_string(get(p, "type")),
			 u && *u ? " in " : "", u && *u ? u : "",
			 strcmp(range, "-") ? ", " : "",
			 strcmp(range, "-") ? range : "", text);
		pr_wrapped(2, 6, line);
		if (help && *help)
			pr_wrapped(6, 6, help);
	}
	pr_finish();
}

int cmd_procedures(int argc, char **argv)
{
	static const struct pr_col cols[] = {
		{ "name", "PROCEDURE", true },
		{ "ports_needed", "PORTS", false },
		{ "ref", "SPEC", true },
		{ "summary", "SUMMARY", true },
	};
	struct bm_client c;
	struct pr_table *t;
	json_object *r, *a;
	char name[128];
	size_t i, n;
	int ret;

	/* bmctl procedures rfc2544 throughput: one, in full */
	ret = procedure_words(argc, argv, name, sizeof(name));
	if (ret < 0)
		return EXIT_USAGE;
	if (ret < argc)
		return usage_error("usage: bmctl procedures [PROCEDURE [TEST]]");
	ret = connect_bmd(&c);
	if (ret)
		return ret;
	if (name[0]) {
		ret = procedure_fetch(&c, name, &r);
		bm_client_close(&c);
		if (ret)
			return ret;
		procedure_print(r);
		json_object_put(r);
		return EXIT_OK;
	}
	ret = call_bmd(&c, request_new("procedures"), &r);
	bm_client_close(&c);
	if (ret)
		return ret;
	a = get(r, "procedures");
	n = a ? json_object_array_length(a) : 0;
	pr_init(opts.json);
	t = pr_table_new("procedures", cols, 4);
	for (i = 0; i < n; i++) {
		json_object *p = json_object_array_get_idx(a, i);

		pr_table_row(t);
		pr_cell_json(t, get(p, "name"));
		pr_cell_json(t, get(p, "ports_needed"));
		pr_cell_json(t, get(p, "ref"));
		pr_cell_json(t, get(p, "summary"));
	}
	pr_table_end(t);
	pr_text("bmctl procedures NAME (or bmctl run NAME --help): its "
		"parameters\n");
	pr_finish();
	json_object_put(r);
	return EXIT_OK;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * What a report opens with, in text and HTML alike (SPEC REQ-REP-1): the
 * procedure, a DRY RUN banner for the simulator's numbers, the DUT, the
 * ports and line rate, the date, bmgen's version, and one headline line
 * per frame size, iteration or run.  The headline's fields are the ones
 * each procedure's entry of the result schema declares ("x-headline"), so
 * bmctl names no procedure here either; units are chosen per value, never
 * in scientific notation.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bmctl.h"
#include "compliance.h"
#include "front.h"

static json_object *jget(json_object *o, const char *k)
{
	json_object *v = NULL;

	return o && json_object_is_type(o, json_type_object) &&
	       json_object_object_get_ex(o, k, &v) ? v : NULL;
}

/* The value at path in o: members by '.', array entries by [N]. */
static json_object *at_path(json_object *o, const char *path)
{
	char name[64];
	size_t n;

	while (o && *path) {
		n = strcspn(path, ".[");
		if (n) {
			if (n >= sizeof(name))
				return NULL;
			memcpy(name, path, n);
			name[n] = '\0';
			o = jget(o, name);
			path += n;
		}
		if (*path == '[') {
			char *end;
			long i = strtol(path + 1, &end, 10);

			if (*end != ']' || i < 0 ||
			    !json_object_is_type(o, json_type_array) ||
			    (size_t)i >= json_object_array_length(o))
				return NULL;
			o = json_object_array_get_idx(o, i);
			path = end + 1;
		}
		if (*path == '.')
			path++;
	}
	return o;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

/* A key's unit from its suffix (the result schema's naming). */
static const char *unit_of(const char *key)
{
	static const char *const map[][2] = {
		{ "_pct_line", "% of line" }, { "_pct", "%" },
		{ "_fps", "fps" }, { "_bps", "bit/s" }, { "_ns", "ns" },
		{ "_ms", "ms" }, { "_s", "s" }, { "_bytes", "bytes" },
	};
	size_t i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (ends_with(key, map[i][0]))
			return map[i][1];
	return "";
}

/* x with up to digits decimals, no trailing zeros, never 1e-05. */
static void plain(char *buf, size_t size, double x, int digits)
{
	char *p;

	snprintf(buf, size, "%.*f", digits, x);
	if (strchr(buf, '.')) {
		p = buf + strlen(buf) - 1;
		while (*p == '0')
			*p-- = '\0';
		if (*p == '.')
			*p = '\0';
	}
}

/* The index of the largest of scales[] (descending) that x reaches. */
static size_t scale_of(double x, const double *scales, size_t n)
{
	size_t i;

	for (i = 0; i + 1 < n && fabs(x) < scales[i]; i++)
		;
	return i;
}

const char *front_unit(const char *key, const char *unit)
{
	return unit && *unit ? unit : unit_of(key);
}

/* A time's unit, as front_unit names them. */
static bool is_time(const char *unit)
{
	return !strcmp(unit, "s") || !strcmp(unit, "ms") || !strcmp(unit, "ns");
}

const char *front_scale(double ref, const char *key, const char *unit,
			double *mul, double *div, int *prec)
{
	static const double rate_s[] = { 1e9, 1e6, 1e3, 1 };
	static const char *const bps_n[] = { "Gbit/s", "Mbit/s", "kbit/s",
					     "bit/s" };
	static const char *const fps_n[] = { "Gfps", "Mfps", "kfps", "fps" };
	static const double time_s[] = { 1, 1e-3, 1e-6, 1e-9 };
	static const char *const time_n[] = { "s", "ms", "\u00b5s", "ns" };
	static const double byte_s[] = { 1e6, 1 };
	static const char *const byte_n[] = { "MB", "B" };
	size_t i;

	*mul = 1;
	*div = 1;
	unit = front_unit(key, unit);
	if (!strcmp(unit, "bit/s") || !strcmp(unit, "fps")) {
		i = scale_of(ref, rate_s, 4);
		*div = rate_s[i];
		*prec = 3;
		return unit[0] == 'b' ? bps_n[i] : fps_n[i];
	}
	if (!strcmp(unit, "%") || !strcmp(unit, "% of line")) {
		*prec = 2;
		return unit;
	}
	if (is_time(unit)) {
		*mul = !strcmp(unit, "ms") ? 1e-3 : !strcmp(unit, "ns") ? 1e-9 : 1;
		/* no time at all is "0 s" */
		i = ref * *mul == 0 ? 0 : scale_of(ref * *mul, time_s, 4);
		*div = time_s[i];
		*prec = 3;
		return time_n[i];
	}
	if (!strcmp(unit, "bytes")) {
		/* a buffer is read to the byte below a megabyte */
		i = scale_of(ref, byte_s, 2);
		*div = byte_s[i];
		*prec = ref >= 1e6 ? 3 : 0;
		return byte_n[i];
	}
	*prec = fabs(ref) >= 100 ? 1 : fabs(ref) >= 1 ? 3 : 6;
	return unit;
}

const char *front_number(double x, double ref, const char *key,
			 const char *unit, char *buf, size_t size)
{
	double mul, div;
	int prec;
	const char *u = front_scale(ref, key, unit, &mul, &div, &prec);

	plain(buf, size, x * mul / div, prec);
	/* no time at all is "0", whatever the unit shown */
	if (is_time(front_unit(key, unit)) && x * mul == 0)
		snprintf(buf, size, "0");
	return u;
}

/* A repeated measurement ({n, mean, stddev}) is its mean. */
static json_object *mean_of(json_object *v)
{
	if (json_object_is_type(v, json_type_object) && jget(v, "mean"))
		return jget(v, "mean");
	return v;
}

void front_value(json_object *v, const char *key, const char *unit,
		 char *buf, size_t size)
{
	const char *name;
	char num[64];
	double x;

	v = mean_of(v);
	if (!v || json_object_is_type(v, json_type_null)) {
		snprintf(buf, size, "-");
		return;
	}
	if (json_object_is_type(v, json_type_boolean)) {
		snprintf(buf, size, "%s", json_object_get_boolean(v) ? "yes" :
									"no");
		return;
	}
	if (!json_object_is_type(v, json_type_int) &&
	    !json_object_is_type(v, json_type_double)) {
		snprintf(buf, size, "%s", json_object_get_string(v));
		return;
	}
	x = json_object_get_double(v);
	if (!isfinite(x)) {
		snprintf(buf, size, "-");
		return;
	}
	name = front_number(x, x, key, unit, num, sizeof(num));
	snprintf(buf, size, "%s%s%s", num, *name ? " " : "", name);
}

/* Fill p with what spec {key, title, unit, flag} names in o, under the
 * key and title given (star: a "*" member's, never a flag); false when
 * there is no key. */
static bool part_at(struct front_part *p, json_object *o, const char *key,
		    const char *title, json_object *spec, bool star)
{
	json_object *v;

	if (!key)
		return false;
	memset(p, 0, sizeof(*p));
	snprintf(p->key, sizeof(p->key), "%s", key);
	snprintf(p->title, sizeof(p->title), "%s", title ? title : "");
	p->unit = front_unit(key, json_object_get_string(jget(spec, "unit")));
	p->flag = star ? NULL : json_object_get_string(jget(spec, "flag"));
	v = at_path(o, p->key);
	/* a flag is read as it is, a value's repetitions by their mean */
	p->value = p->flag ? v : mean_of(v);
	if (!p->flag && (json_object_is_type(p->value, json_type_int) ||
			 json_object_is_type(p->value, json_type_double))) {
		p->number = json_object_get_double(p->value);
		p->numeric = isfinite(p->number);
	}
	return true;
}

/* Add what spec names in o to parts[*n] onward, at most max in all: one
 * part, or with each (a field) one a member of a "*" key stands for. */
static void add_parts(struct front_part *parts, size_t *n, size_t max,
		      json_object *o, json_object *spec, bool each)
{
	const char *key = json_object_get_string(jget(spec, "key"));
	const char *title = json_object_get_string(jget(spec, "title"));
	const char *star = key && each ? strstr(key, ".*.") : NULL;
	char head[128], path[256], t[128];
	json_object *parent;

	if (!star) {
		*n += *n < max && part_at(&parts[*n], o, key, title, spec,
					  false);
		return;
	}
	/*
	 * A field whose key has a "*" ("statistics.*.throughput_bps"): one
	 * part for each member the star stands for, titled by the member's
	 * name (a stateful test's applications).
	 */
	if ((size_t)(star - key) >= sizeof(head))
		return;
	memcpy(head, key, star - key);
	head[star - key] = '\0';
	parent = at_path(o, head);
	if (!json_object_is_type(parent, json_type_object))
		return;
	json_object_object_foreach(parent, name, v) {
		(void)v;
		snprintf(path, sizeof(path), "%s.%s.%s", head, name, star + 3);
		snprintf(t, sizeof(t), "%s%s%s", name, title ? " " : "",
			 title ? title : "");
		*n += *n < max && part_at(&parts[*n], o, path, t, spec, true);
	}
}

bool front_part_text(char *line, size_t size, const struct front_part *p,
		     const char *sep)
{
	size_t n = strlen(line);
	char val[128];

	if (!p->value)
		return false;
	/* a flag says its words when true, nothing when false */
	if (p->flag) {
		if (json_object_get_boolean(p->value))
			snprintf(line + n, size - n, "%s%s", n ? " " : "",
				 p->flag);
		return false;
	}
	front_value(p->value, p->key, p->unit, val, sizeof(val));
	snprintf(line + n, size - n, "%s%s%s%s", n ? sep : "", p->title,
		 *p->title ? " " : "", val);
	return strcmp(val, "-") != 0;
}

void front_part_name(const struct front_part *p, char *buf, size_t size)
{
	static const char *const map[][2] = {
		{ "_pct_line", "% of line" }, { "_pct", "%" },
		{ "_fps", "fps" }, { "_bps", "bit/s" }, { "_ns", "ns" },
		{ "_ms", "ms" }, { "_s", "s" }, { "_bytes", "bytes" },
	};
	size_t n = strlen(p->key), u = strlen(p->unit), i;

	/* the unit is said beside the name: not twice */
	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (ends_with(p->key, map[i][0]) &&
		    !strcmp(p->unit, map[i][1]))
			break;
	if (i < sizeof(map) / sizeof(map[0]))
		n -= strlen(map[i][0]);
	else if (u && n > u + 1 && p->key[n - u - 1] == '_' &&
		 !strcmp(p->key + n - u, p->unit))
		n -= u + 1;		/* "mean_frames" in frames */
	snprintf(buf, size, "%.*s", (int)n, p->key);
	for (i = 0; buf[i]; i++)
		if (buf[i] == '_')
			buf[i] = ' ';
}

/* Row r of n of group gi (g; o the row, or the results themselves) into
 * *row. */
static void headline_row(json_object *g, size_t gi, json_object *o,
			 size_t r, size_t n, struct front_row *row)
{
	json_object *label = jget(g, "label"), *fields = jget(g, "fields");
	json_object *why = jget(g, "why"), *w;
	size_t i;

	row->group = gi;
	row->row = r;
	row->n_rows = n;
	row->obj = o;
	row->n_labels = 0;
	row->n_fields = 0;
	row->why = NULL;
	row->label[0] = '\0';
	for (i = 0; label && i < json_object_array_length(label); i++)
		add_parts(row->labels, &row->n_labels, FRONT_MAX_LABELS, o,
			  json_object_array_get_idx(label, i), false);
	for (i = 0; i < row->n_labels; i++)
		front_part_text(row->label, sizeof(row->label),
				&row->labels[i], ", ");
	for (i = 0; fields && i < json_object_array_length(fields); i++)
		add_parts(row->fields, &row->n_fields, FRONT_MAX_FIELDS, o,
			  json_object_array_get_idx(fields, i), true);
	/* the first of the group's "why" keys that says other than ok */
	for (i = 0; !row->why && why && i < json_object_array_length(why);
	     i++) {
		w = at_path(o, json_object_get_string(
			json_object_array_get_idx(why, i)));
		if (json_object_is_type(w, json_type_string) &&
		    strcmp(json_object_get_string(w), "ok"))
			row->why = json_object_get_string(w);
	}
}

size_t front_headline(json_object *doc, front_row_fn fn, void *ctx)
{
	json_object *proc = jget(doc, "procedure"), *res = jget(doc, "results");
	const char *id = json_object_get_string(jget(proc, "id"));
	struct front_row *row;
	json_object *heads;
	size_t g, r, n, seen = 0;

	if (!id)
		id = json_object_get_string(proc);
	heads = jget(compliance_items(compliance_schema(), id), "x-headline");
	if (!json_object_is_type(heads, json_type_array))
		return 0;
	row = malloc(sizeof(*row));	/* 30 KB: off the stack */
	if (!row)
		return 0;
	for (g = 0; g < json_object_array_length(heads); g++) {
		json_object *grp = json_object_array_get_idx(heads, g);
		const char *rows = json_object_get_string(jget(grp, "rows"));
		json_object *a = rows ? at_path(res, rows) : res;

		if (rows && !json_object_is_type(a, json_type_array))
			continue;
		n = rows ? json_object_array_length(a) : 1;
		for (r = 0; r < n; r++) {
			headline_row(grp, g, rows ?
				     json_object_array_get_idx(a, r) : a, r, n,
				     row);
			seen++;
			if (!fn(row, ctx))
				break;
		}
	}
	free(row);
	return seen;
}

/* One headline line of row; true when a field had a value, or the row
 * says why it has none. */
static bool headline_line(const struct front_row *row, char *line,
			  size_t size)
{
	char val[768] = "";
	bool any = false;
	size_t i, n;

	for (i = 0; i < row->n_fields; i++)
		any |= front_part_text(val, sizeof(val), &row->fields[i], ", ");
	if (!any && row->why) {
		n = strlen(val);
		snprintf(val + n, sizeof(val) - n, "%s%s", n ? "; " : "",
			 row->why);
		any = true;
	}
	snprintf(line, size, "%s%s%s", row->label, *row->label ? ": " : "",
		 val);
	return any;
}

static void add_item(struct front *f, const char *key, const char *value)
{
	if (f->n_items == FRONT_MAX_ITEMS)
		return;
	snprintf(f->items[f->n_items].key, sizeof(f->items[0].key), "%s", key);
	snprintf(f->items[f->n_items].value, sizeof(f->items[0].value), "%s",
		 value);
	f->n_items++;
}

static void add_headline(struct front *f, const char *line)
{
	if (f->n_headline < FRONT_MAX_LINES)
		snprintf(f->headline[f->n_headline++], FRONT_LINE, "%s", line);
}

static void front_dut(struct front *f, json_object *meta)
{
	json_object *dut = jget(meta, "dut");
	const char *name = json_object_get_string(jget(dut, "name"));
	const char *ver = json_object_get_string(jget(dut, "software_version"));
	const char *conf = json_object_get_string(jget(dut, "configuration"));
	char buf[FRONT_VALUE];
	size_t lines = 0;
	const char *p;
	int n;

	for (p = conf; p && *p; p++)
		lines += *p == '\n' || !p[1];
	if (!name && !ver && !conf) {
		add_item(f, "DUT", "not named (bmctl run --dut-name, "
			 "--dut-version, --dut-config)");
		return;
	}
	n = snprintf(buf, sizeof(buf), "%s%s%s", name ? name : "(no name)",
		     ver ? ", version " : "", ver ? ver : "");
	if (conf && n > 0 && (size_t)n < sizeof(buf))
		snprintf(buf + n, sizeof(buf) - n, ", configuration of %zu "
			 "line%s in the result", lines, lines == 1 ? "" : "s");
	add_item(f, "DUT", buf);
}

static void front_ports(struct front *f, json_object *meta)
{
	json_object *ports = jget(meta, "ports");
	size_t i, n = ports ? json_object_array_length(ports) : 0;
	char buf[FRONT_VALUE] = "", speed[64];
	size_t off = 0;

	for (i = 0; i < n; i++) {
		json_object *p = json_object_array_get_idx(ports, i);
		json_object *sp = jget(p, "speed_mbps");
		int len;

		if (sp && json_object_get_double(sp) > 0) {
			json_object *bps = json_object_new_double(
				json_object_get_double(sp) * 1e6);

			front_value(bps, "speed_bps", NULL, speed,
				    sizeof(speed));
			json_object_put(bps);
		} else {
			snprintf(speed, sizeof(speed), "speed unknown");
		}
		len = snprintf(buf + off, sizeof(buf) - off, "%s%s (%s, %s, %s)",
			       i ? ", " : "",
			       json_object_get_string(jget(p, "name")),
			       json_object_get_string(jget(p, "role")),
			       json_object_get_string(jget(p, "driver")),
			       speed);
		if (len < 0 || off + len + 24 >= sizeof(buf)) {
			snprintf(buf + off, sizeof(buf) - off, ", +%zu more",
				 n - i);
			break;
		}
		off += len;
	}
	if (n)
		add_item(f, "ports", buf);
}

/* d seconds as a person says it: "2 h 14 min", "3 min 20 s", "45 s". */
static void span(char *buf, size_t size, double d)
{
	d = round(d);
	if (d >= 3600)
		snprintf(buf, size, "%.0f h %.0f min", floor(d / 3600),
			 fmod(floor(d / 60), 60));
	else if (d >= 60)
		snprintf(buf, size, "%.0f min %.0f s", floor(d / 60),
			 fmod(d, 60));
	else
		snprintf(buf, size, "%.0f s", d);
}

/* A dry run's estimate of the real run (bmd: meta.real_run). */
static void front_estimate(struct front *f, json_object *meta)
{
	json_object *e = jget(meta, "real_run");
	char buf[FRONT_VALUE], d[64];

	if (!f->dry_run || !e)
		return;
	span(d, sizeof(d), json_object_get_double(jget(e, "duration_s")));
	/* a TCP procedure's runs are no trials */
	if (json_object_get_int64(jget(e, "trials")) > 0)
		snprintf(buf, sizeof(buf), "%lld trial%s, about %s on a DUT "
			 "that behaves as the simulated one",
			 (long long)json_object_get_int64(jget(e, "trials")),
			 json_object_get_int64(jget(e, "trials")) == 1 ? "" :
			 "s", d);
	else
		snprintf(buf, sizeof(buf), "about %s on a DUT that behaves as "
			 "the simulated one", d);
	add_item(f, "real run", buf);
}

/* "2026-12-03 16:28:06 UTC, 2 h 14 min" from the ISO start and end. */
static void front_date(struct front *f, json_object *meta)
{
	const char *start = json_object_get_string(jget(meta, "start"));
	const char *end = json_object_get_string(jget(meta, "end"));
	struct tm a = { 0 }, b = { 0 };
	char buf[FRONT_VALUE], took[64] = "";
	double d;

	if (!start)
		return;
	if (strptime(start, "%Y-%m-%dT%H:%M:%S", &a) && end &&
	    strptime(end, "%Y-%m-%dT%H:%M:%S", &b)) {
		d = difftime(timegm(&b), timegm(&a));
		memcpy(took, ", took ", 8);
		span(took + 7, sizeof(took) - 7, d);
	}
	snprintf(buf, sizeof(buf), "%.10s %.8s UTC%s", start,
		 strlen(start) > 11 ? start + 11 : "", took);
	add_item(f, "date", buf);
}

/* front_headline's callback of front_build: row's line into the block;
 * past its room, how many more rows the group has, and no more of it. */
static bool headline_add(const struct front_row *row, void *ctx)
{
	struct front *f = ctx;
	char line[FRONT_LINE];

	if (f->n_headline + 1 == FRONT_MAX_LINES &&
	    row->row + 1 < row->n_rows) {
		snprintf(line, sizeof(line), "%zu more (the results below)",
			 row->n_rows - row->row);
		add_headline(f, line);
		return false;
	}
	if (headline_line(row, line, sizeof(line)))
		f->headline_values++;
	add_headline(f, line);
	return true;
}

json_object *front_params_given(json_object *params, json_object *given)
{
	json_object *mine, *v;
	size_t i, n;

	if (!json_object_is_type(given, json_type_array))
		return NULL;
	mine = json_object_new_object();
	n = json_object_array_length(given);
	for (i = 0; i < n; i++) {
		const char *k = json_object_get_string(
			json_object_array_get_idx(given, i));

		v = jget(params, k);
		if (k && v)
			json_object_object_add(mine, k, json_object_get(v));
	}
	return mine;
}

void front_build(json_object *doc, struct front *f)
{
	json_object *meta = jget(doc, "meta"), *proc = jget(doc, "procedure");
	const char *id = json_object_get_string(jget(proc, "id"));
	char buf[FRONT_VALUE];

	memset(f, 0, sizeof(*f));
	if (!id)
		id = json_object_get_string(proc);
	snprintf(f->title, sizeof(f->title), "%s%s%s%s", id ? id : "?",
		 jget(proc, "ref") ? " (" : "",
		 jget(proc, "ref") ?
		 json_object_get_string(jget(proc, "ref")) : "",
		 jget(proc, "ref") ? ")" : "");
	f->dry_run = json_object_get_boolean(jget(meta, "dry_run"));
	front_dut(f, meta);
	front_ports(f, meta);
	if (jget(meta, "line_rate_bps")) {
		front_value(jget(meta, "line_rate_bps"), "line_rate_bps", NULL,
			    buf, sizeof(buf));
		add_item(f, "line rate", buf);
	}
	front_date(f, meta);
	front_estimate(f, meta);
	/* a document without meta (a unit test's) has no such line */
	if (jget(meta, "bmgen_version")) {
		snprintf(buf, sizeof(buf), "%s on %s, backend %s, timestamps %s",
			 json_object_get_string(jget(meta, "bmgen_version")),
			 json_object_get_string(jget(meta, "hostname")),
			 json_object_get_string(jget(meta, "backend")),
			 json_object_get_string(jget(meta, "timestamp_source")));
		add_item(f, "bmgen", buf);
	}
	if (jget(meta, "job"))
		add_item(f, "job", json_object_get_string(jget(meta, "job")));
	front_headline(doc, headline_add, f);
}

void front_text(const struct front *f)
{
	size_t i;

	printf("%s\n", f->title);
	if (f->dry_run)
		printf("*** DRY RUN: the simulated DUT's numbers, not a "
		       "measurement ***\n");
	for (i = 0; i < f->n_items; i++)
		printf("  %-10s %s\n", f->items[i].key, f->items[i].value);
	if (f->n_headline)
		printf("\nheadline\n");
	for (i = 0; i < f->n_headline; i++)
		printf("  %s\n", f->headline[i]);
}

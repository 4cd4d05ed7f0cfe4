// SPDX-License-Identifier: GPL-2.0
/*
 * bmctl report FILE --html OUT (REQ-REP-3): one self-contained HTML
 * file (no script, no fetch: it opens offline and prints) with the charts
 * the standards ask for or a reader expects, drawn as inline SVG; which
 * charts a procedure's results get is said by its entry of the result
 * schema ("x-charts"), so bmctl names no procedure:
 *   - RFC 2544 §26.1 throughput against frame size: the measured frame
 *     rate and the media's theoretical one, two lines (§26.1's graph);
 *   - RFC 2544 §26.3 frame loss rate against input rate, a curve per size
 *     on the axes §26.3 fixes (0-100 % of the theoretical rate, 0-100 %
 *     loss);
 *   - latency per size (mean with min..max), RFC 8239 line rate's worst
 *     port and drops per size;
 *   - every procedure's trial sequence: offered load per trial, lossy
 *     trials marked (binary search, MLRsearch, RFC 8239 searches);
 *   - RFC 8239 buffer, microburst and HOLB per iteration and repetition;
 *   - the families' own rows, timelines and search bounds
 *     (family_charts.c).
 * Then the parameters, the deviations and the document's meta as tables.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bmctl.h"
#include "compliance.h"
#include "family_charts.h"
#include "front.h"
#include "chart.h"
#include "page.h"
#include "print.h"
#include "rtable.h"

static json_object *jget(json_object *o, const char *k)
{
	json_object *v = NULL;

	return o && json_object_object_get_ex(o, k, &v) ? v : NULL;
}

static bool num(json_object *o, const char *k, double *x)
{
	json_object *v = jget(o, k);

	if (!v || !(json_object_is_type(v, json_type_double) ||
		    json_object_is_type(v, json_type_int)))
		return false;
	*x = json_object_get_double(v);
	return isfinite(*x);
}


/* per_size[].key against frame size, one series, when present. */
static void per_size_chart(FILE *f, json_object *res, const char *key,
			   const char *title, const char *yl,
			   struct series *s)
{
	json_object *a = jget(res, "per_size"), *e;
	double x, y;
	size_t i;

	double m = 0, div = 1;
	const char *unit;
	int prec;

	memset(s, 0, sizeof(*s));
	for (i = 0; a && i < json_object_array_length(a); i++) {
		e = json_object_array_get_idx(a, i);
		if (num(e, "frame_size", &x) && num(e, key, &y)) {
			chart_add(s, x, y, false);
			m = fmax(m, fabs(y));
		}
	}
	/* the axis in the unit of the report's tables (µs, ms, Mbit/s) */
	unit = yl ? NULL : rt_unit(key, m, &div, &prec, &i);
	for (i = 0; i < s->n; i++)
		s->y[i] /= div;
	chart_draw(f, title, "frame size (bytes)", yl ? yl : unit ? unit : key, s,
	      1, true, true, NULL);
}

/*
 * RFC 2544 §26.3: loss against input rate, a curve per frame size.  The
 * section fixes the graph: X the input rate as a percent of the
 * theoretical rate for the media at that frame size, Y the percent loss,
 * both from 0 at the origin to 100 (MUSTs): never scaled to the points.
 */
static void flr_chart(FILE *f, json_object *res, struct series *s)
{
	static const struct axes pct = { 0, 100, 0, 100 };
	json_object *a = jget(res, "per_size"), *e, *t, *row;
	double x, y, fs;
	size_t i, k;
	int n = 0;

	for (i = 0; a && i < json_object_array_length(a) && n < CHART_MAX_SER; i++) {
		e = json_object_array_get_idx(a, i);
		t = jget(e, "table");
		if (!t || !num(e, "frame_size", &fs))
			continue;
		memset(&s[n], 0, sizeof(s[n]));
		snprintf(s[n].name, sizeof(s[n].name), "%g B", fs);
		for (k = 0; k < json_object_array_length(t); k++) {
			row = json_object_array_get_idx(t, k);
			/* rate_pct is of the sweep's top rate, which
			 * max_rate_pct may set below the line */
			if (num(row, "rate_pct_line", &x) &&
			    num(row, "loss_pct", &y))
				chart_add(&s[n], x, y, false);
		}
		n++;
	}
	chart_draw(f, "Frame loss rate (RFC 2544 §26.3)",
	      "input rate (% of the theoretical rate)", "frame loss (%)", s, n,
	      true, true, &pct);
}

/*
 * RFC 2544 §26.1: frame rate against frame size, with at least two
 * lines: the theoretical frame rate of the media at each size, and the
 * results (SHOULDs); rows with no throughput are left out of the second.
 */
static void throughput_chart(FILE *f, json_object *res, struct series *s)
{
	json_object *a = jget(res, "per_size"), *e;
	double x, y, m = 0, div = 1;
	const char *unit;
	size_t i;
	int prec;

	memset(s, 0, 2 * sizeof(*s));
	snprintf(s[0].name, sizeof(s[0].name), "measured");
	snprintf(s[1].name, sizeof(s[1].name), "theoretical (media)");
	for (i = 0; a && i < json_object_array_length(a); i++) {
		e = json_object_array_get_idx(a, i);
		if (!num(e, "frame_size", &x))
			continue;
		if (num(e, "throughput_fps", &y))
			chart_add(&s[0], x, y, false);
		if (num(e, "theoretical_max_fps", &y)) {
			chart_add(&s[1], x, y, false);
			m = fmax(m, y);
		}
	}
	if (!s[0].n && !s[1].n)
		return;
	/* the axis in the unit of the report's tables (kfps, Mfps) */
	unit = rt_unit("throughput_fps", m, &div, &prec, &i);
	for (i = 0; i < s[0].n; i++)
		s[0].y[i] /= div;
	for (i = 0; i < s[1].n; i++)
		s[1].y[i] /= div;
	chart_draw(f, "Throughput (RFC 2544 §26.1)", "frame size (bytes)",
	      unit ? unit : "frames/s", s, 2, true, true, NULL);
}

/* Every trial's offered load in order; lossy trials hollow. */
static void trials_chart(FILE *f, json_object *doc, struct series *s)
{
	json_object *a = jget(doc, "trials"), *t;
	double x, y, lost;
	size_t i;

	const char *key = "load_pct", *yl = "offered load (% of line)";
	double probe;

	memset(s, 0, sizeof(*s));
	/* the load in % where the trials say it, else the rate, else (N-port
	 * trials, whose load is per stream) the frames asked for */
	t = a && json_object_array_length(a) ? json_object_array_get_idx(a, 0) :
	    NULL;
	if (!num(t, key, &probe) || probe == 0) {
		key = "rate_fps";
		yl = "offered rate (frames/s)";
		if (!num(t, key, &probe) || probe == 0) {
			key = "intended";
			yl = "frames offered";
		}
	}
	for (i = 0; a && i < json_object_array_length(a); i++) {
		t = json_object_array_get_idx(a, i);
		if (num(t, "index", &x) && num(t, key, &y))
			chart_add(s, x + 1, y, num(t, "lost", &lost) && lost > 0);
	}
	snprintf(s->name, sizeof(s->name), "hollow: frames lost");
	chart_draw(f, "Trials in order (every trial, REQ-SRCH-1)", "trial", yl, s,
	      1, true, false, NULL);
}

/* RFC 8239: a value per repetition of every iteration (x: iteration). */
static void iterations_chart(FILE *f, json_object *res, const char *key,
			     const char *xkey, const char *title,
			     const char *yl, struct series *s)
{
	json_object *it = jget(res, "iterations"), *e, *reps, *r;
	double x, y;
	size_t i, k;

	memset(s, 0, sizeof(*s));
	for (i = 0; it && i < json_object_array_length(it); i++) {
		e = json_object_array_get_idx(it, i);
		/* by what the iteration varies (its frame size, its ingress
		 * ports) where the schema says, else by its number */
		if (!xkey || !num(e, xkey, &x))
			x = (double)i + 1;
		reps = jget(e, "repetitions");
		for (k = 0; reps && k < json_object_array_length(reps); k++) {
			r = json_object_array_get_idx(reps, k);
			if (num(r, key, &y))
				chart_add(s, x, y, false);
		}
	}
	snprintf(s->name, sizeof(s->name), "one point per repetition");
	chart_draw(f, title, xkey ? xkey : "iteration", yl, s, 1, false, true,
	      NULL);
}

/* An object's scalars as a two-column table; with units, the labels
 * and values of a result (rtable.h), else as stored (parameters). */
static void kv_table(FILE *f, const char *title, json_object *o, bool units)
{
	char buf[256];
	bool any = false;

	if (!o || !json_object_is_type(o, json_type_object))
		return;
	json_object_object_foreach(o, k, v) {
		struct rt_col c;

		if (v && (json_object_is_type(v, json_type_object) ||
			  json_object_is_type(v, json_type_array)))
			continue;
		if (!any) {
			fputs(title ? "<h2>" : "", f);
			html_esc(f, title);
			fputs(title ? "</h2>" : "", f);
			fputs("<table>\n", f);
			any = true;
		}
		rt_scalar(&c, k, v);
		fputs("<tr><th>", f);
		html_esc(f, units ? c.head : k);
		fputs("</th><td>", f);
		html_esc(f, units && v ? rt_cell(&c, v, buf, sizeof(buf))
				       : pr_fmt_json(v));
		fputs("</td></tr>\n", f);
	}
	if (any)
		fputs("</table>\n", f);
}

/* The parameters the submitter gave (bmd's meta.params_given), then
 * those at the procedure's defaults apart, so that a default's 0 ("the
 * tester's line rate", "derived") is not read as a value asked for;
 * one table for a result that does not say. */
static void params_tables(FILE *f, json_object *params, json_object *given)
{
	json_object *mine = NULL, *rest;

	if (json_object_is_type(params, json_type_object))
		mine = front_params_given(params, given);
	if (!mine) {
		kv_table(f, "Parameters", params, false);
		return;
	}
	rest = json_object_new_object();
	json_object_object_foreach(params, k, v)
		if (!jget(mine, k))
			json_object_object_add(rest, k, json_object_get(v));
	if (json_object_object_length(mine))
		kv_table(f, "Parameters given", mine, false);
	else
		fputs("<h2>Parameters given</h2><p>none</p>\n", f);
	kv_table(f, "Parameters at the procedure's defaults (what a default "
		 "of 0 or null means: bmctl run PROCEDURE --help)", rest,
		 false);
	json_object_put(mine);
	json_object_put(rest);
}

static void html_value(FILE *f, const char *name, json_object *v, int depth);

/* Rows of objects as a table, the shared members once under it, then
 * what each row nests. */
static void html_rows(FILE *f, const char *name, json_object *const *rows,
		      const char *const *keys, size_t n, int depth)
{
	static struct rt_table rt;	/* used before the recursion only */
	char buf[256], title[160];
	size_t i;
	int c;

	rt_build(&rt, rows, n, keys ? "key" : NULL, true);
	fprintf(f, "<h%d>", depth);
	html_esc(f, name);
	fprintf(f, "</h%d><table>\n<tr>", depth);
	for (c = 0; c < rt.nc; c++) {
		fputs("<th>", f);
		html_esc(f, rt.cols[c].head);
		fputs("</th>", f);
	}
	fputs("</tr>\n", f);
	for (i = 0; i < n; i++) {
		fputs("<tr>", f);
		for (c = 0; c < rt.nc; c++) {
			json_object *v = rt_get(rows[i], rt.cols[c].key);

			fputs(rt.cols[c].left ? "<td>" :
			      "<td style=\"text-align:right\">", f);
			html_esc(f, keys && !c ? keys[i] : v ?
			    rt_cell(&rt.cols[c], v, buf, sizeof(buf)) : "-");
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
	if (rt.ns) {
		fputs("<table>\n", f);
		for (c = 0; c < rt.ns; c++) {
			fputs("<tr><th>", f);
			html_esc(f, rt.same[c].head);
			fputs("</th><td>", f);
			html_esc(f, rt_cell(&rt.same[c], rt_get(rows[0],
				rt.same[c].key), buf, sizeof(buf)));
			fputs("</td></tr>\n", f);
		}
		fputs("</table>\n", f);
	}
	for (i = 0; i < n; i++) {
		json_object_object_foreach(rows[i], k, v) {
			if (json_object_is_type(v, json_type_string) &&
			    rt_long_line(&rt, i, k)) {
				fputs("<p>", f);
				html_esc(f, json_object_get_string(v));
				fputs("</p>\n", f);
			}
		}
	}
	for (i = 0; i < n; i++) {
		json_object_object_foreach(rows[i], k2, v2) {
			if (!rt_is_nested(v2))
				continue;
			rt_title(title, sizeof(title), name, keys, rows[i], i,
				 k2);
			html_value(f, title, v2, depth < 4 ? depth + 1 : 4);
		}
	}
}

/* A result value under its name: scalars of an object as a table, an
 * array or map of objects as rows, the rest in sections below. */
static void html_value(FILE *f, const char *name, json_object *v, int depth)
{
	json_object *rows[256];
	const char *keys[256];
	size_t n = 0, i;

	if (json_object_is_type(v, json_type_array)) {
		json_object **all;

		n = json_object_array_length(v);
		all = n ? calloc(n, sizeof(*all)) : NULL;
		for (i = 0; all && i < n; i++) {
			all[i] = json_object_array_get_idx(v, i);
			if (!json_object_is_type(all[i], json_type_object))
				break;
		}
		if (all && i == n)
			html_rows(f, name, all, NULL, n, depth);
		free(all);
		if (n && i == n)
			return;
		/* a list of scalars: one line */
		fprintf(f, "<p><b>");
		html_esc(f, name);
		fputs("</b>: ", f);
		for (i = 0; i < n; i++) {
			fputs(i ? ", " : "", f);
			html_esc(f, pr_fmt_json(json_object_array_get_idx(v, i)));
		}
		fputs("</p>\n", f);
		return;
	}
	if (!json_object_is_type(v, json_type_object))
		return;
	/* a map of objects (per port, per egress): a table keyed by name */
	json_object_object_foreach(v, mk, mv) {
		if (!json_object_is_type(mv, json_type_object) || n == 256) {
			n = 0;
			break;
		}
		rows[n] = mv;
		keys[n++] = mk;
	}
	if (n >= 2) {
		html_rows(f, name, rows, keys, n, depth);
		return;
	}
	fprintf(f, "<h%d>", depth);
	html_esc(f, name);
	fprintf(f, "</h%d>\n", depth);
	kv_table(f, NULL, v, true);
	json_object_object_foreach(v, k, m) {
		if (m && (json_object_is_type(m, json_type_object) ||
			  json_object_is_type(m, json_type_array)))
			html_value(f, k, m, depth < 4 ? depth + 1 : 4);
	}
}

/*
 * The charts of id's results, in the order its entry of the result schema
 * lists them ("x-charts"): bmctl names no procedure, so a new one gets its
 * charts from its schema entry alone.
 */
static void procedure_charts(FILE *f, const char *id, json_object *doc,
			     struct series *s)
{
	json_object *res = jget(doc, "results");
	json_object *charts = jget(compliance_items(compliance_schema(), id),
				   "x-charts");
	size_t i, n;

	if (!charts || !json_object_is_type(charts, json_type_array))
		return;
	n = json_object_array_length(charts);
	for (i = 0; i < n; i++) {
		json_object *c = json_object_array_get_idx(charts, i);
		const char *kind = json_object_get_string(jget(c, "kind"));
		const char *key = json_object_get_string(jget(c, "key"));
		const char *title = json_object_get_string(jget(c, "title"));
		const char *unit = json_object_get_string(jget(c, "unit"));

		if (!kind || family_chart(f, doc, c, s))
			continue;
		if (!strcmp(kind, "throughput"))
			throughput_chart(f, res, s);
		else if (!strcmp(kind, "frame-loss"))
			flr_chart(f, res, s);
		else if (key && title && !strcmp(kind, "per-size"))
			per_size_chart(f, res, key, title, unit, s);
		else if (key && title && !strcmp(kind, "iterations"))
			iterations_chart(f, res, key,
					 json_object_get_string(jget(c, "x")),
					 title, unit, s);
	}
}

/* The front block (front.c): title, DRY RUN banner, DUT, ports, line
 * rate, date, version, and the headline, before any chart. */
static void front_html(FILE *f, json_object *doc)
{
	static struct front fr;	/* 25 KB: off the stack */
	size_t i;

	front_build(doc, &fr);
	fputs("<h1>", f);
	html_esc(f, fr.title);
	fputs("</h1>\n", f);
	if (fr.dry_run)
		fputs("<p class=\"dry\">DRY RUN: the simulated DUT's numbers, "
		      "not a measurement</p>\n", f);
	fputs("<table class=\"front\">\n", f);
	for (i = 0; i < fr.n_items; i++) {
		fputs("<tr><th>", f);
		html_esc(f, fr.items[i].key);
		fputs("</th><td>", f);
		html_esc(f, fr.items[i].value);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
	if (!fr.n_headline)
		return;
	fputs("<h2>Headline</h2><ul class=\"headline\">\n", f);
	for (i = 0; i < fr.n_headline; i++) {
		fputs("<li>", f);
		html_esc(f, fr.headline[i]);
		fputs("</li>\n", f);
	}
	fputs("</ul>\n", f);
}


int report_html(json_object *doc, FILE *f)
{
	static struct series s[CHART_MAX_SER];
	json_object *res = jget(doc, "results"), *dev = jget(doc, "deviations");
	const char *id = json_object_get_string(jget(jget(doc, "procedure"),
						     "id"));
	size_t i;

	html_head(f, id ? id : "?", "");
	front_html(f, doc);
	procedure_charts(f, id, doc, s);
	trials_chart(f, doc, s);
	html_value(f, "Results", res, 2);
	if (jget(doc, "repeatability"))
		html_value(f, "Repeatability", jget(doc, "repeatability"), 2);
	params_tables(f, jget(doc, "params"),
		      jget(jget(doc, "meta"), "params_given"));
	kv_table(f, "Meta", jget(doc, "meta"), false);
	if (dev && json_object_array_length(dev)) {
		fputs("<h2>Deviations</h2><ul>\n", f);
		for (i = 0; i < json_object_array_length(dev); i++) {
			fputs("<li>", f);
			html_esc(f, json_object_get_string(
				json_object_array_get_idx(dev, i)));
			fputs("</li>\n", f);
		}
		fputs("</ul>\n", f);
	}
	fputs("</body></html>\n", f);
	return ferror(f) ? EXIT_FAIL : EXIT_OK;
}

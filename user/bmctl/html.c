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
 *   - RFC 8239 buffer, microburst and HOLB per iteration and repetition.
 * Then the parameters, the deviations and the document's meta as tables.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bmctl.h"
#include "compliance.h"
#include "front.h"
#include "print.h"
#include "rtable.h"

#define W	640
#define H	320
#define ML	64	/* margins of the plot area */
#define MR	16
#define MT	28
#define MB	44
#define MAX_PTS	4096
#define MAX_SER	16

static const char *const colour[] = { "#1f77b4", "#d62728", "#2ca02c",
				      "#9467bd", "#ff7f0e", "#8c564b",
				      "#e377c2", "#17becf" };

struct series {
	char name[64];
	size_t n;
	double x[MAX_PTS], y[MAX_PTS];
	bool mark[MAX_PTS];		/* drawn hollow (a lossy trial) */
};

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

void html_esc(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*s, f);
		}
	}
}

/* A "nice" step for about n ticks over span. */
static double tick_step(double span, int n)
{
	double raw = span / n, p = pow(10, floor(log10(raw))), m = raw / p;

	return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

/* Axes a standard fixes: x from x0 to x1, y from y0 to y1, exactly. */
struct axes {
	double x0, x1, y0, y1;
};

/* One chart of the series s[0..ns-1]; lines join points when lines; the
 * axes fit the points unless fixed (not NULL) gives them. */
static void chart(FILE *f, const char *title, const char *xl, const char *yl,
		  struct series *s, int ns, bool lines, bool zero_y,
		  const struct axes *fixed)
{
	double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
	double st, v, px, py;
	int i, pw = W - ML - MR, ph = H - MT - MB, legend = 0, li = 0;
	size_t k, total = 0;
	bool whole_x = true;	/* iterations, trials: no tick at 1.5 */

	for (i = 0; i < ns; i++)
		for (k = 0; k < s[i].n; k++) {
			whole_x = whole_x && s[i].x[k] == floor(s[i].x[k]);
			x0 = fmin(x0, s[i].x[k]);
			x1 = fmax(x1, s[i].x[k]);
			y0 = fmin(y0, s[i].y[k]);
			y1 = fmax(y1, s[i].y[k]);
			total++;
		}
	if (!total)
		return;
	/* the legend goes under the plot, a line a series: never on the
	 * curves (RFC 2544 §26.3's graph has two at 100 % loss) */
	for (i = 0; i < ns; i++)
		legend += ns > 1 || s[i].name[0];
	if (fixed) {
		x0 = fixed->x0;
		x1 = fixed->x1;
		y0 = fixed->y0;
		y1 = fixed->y1;
	} else {
		if (zero_y && y0 > 0)
			y0 = 0;
		if (x1 - x0 < 1e-12) {
			x0 -= 1;
			x1 += 1;
		}
		/* room for the points at the edges */
		st = (x1 - x0) * 0.03;
		x0 -= st;
		x1 += st;
		if (y1 - y0 < 1e-12) {
			if (!(zero_y && y0 == 0))
				y0 -= fabs(y0) * 0.1 + 1;
			y1 += fabs(y1) * 0.1 + 1;
		}
	}
	fprintf(f, "<figure><svg xmlns=\"http://www.w3.org/2000/svg\" "
		"width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" "
		"font-family=\"sans-serif\"><rect width=\"%d\" height=\"%d\" "
		"fill=\"white\"/>\n", W, H + 16 * legend, W, H + 16 * legend, W,
		H + 16 * legend);
	fprintf(f, "<text x=\"%d\" y=\"18\" font-weight=\"bold\" "
		"font-size=\"13\">", ML);
	html_esc(f, title);
	fputs("</text>\n", f);
#define PX(x) (ML + ((x) - x0) / (x1 - x0) * pw)
#define PY(y) (MT + ph - ((y) - y0) / (y1 - y0) * ph)
	st = tick_step(y1 - y0, 5);
	for (v = ceil(y0 / st) * st; v <= y1 + st * 1e-9; v += st)
		fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"#e4e4e4\"/><text x=\"%d\" y=\"%.1f\" "
			"text-anchor=\"end\" font-size=\"11\">%g</text>\n",
			ML, ML + pw, PY(v), PY(v), ML - 4, PY(v) + 4,
			fabs(v) < st * 1e-9 ? 0.0 : v);
	st = tick_step(x1 - x0, 8);
	if (whole_x && st < 1)
		st = 1;
	for (v = ceil(x0 / st) * st; v <= x1 + st * 1e-9; v += st)
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" "
			"font-size=\"11\">%g</text>\n", PX(v), MT + ph + 16,
			fabs(v) < st * 1e-9 ? 0.0 : v);
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
		"fill=\"none\" stroke=\"#888\"/>\n", ML, MT, pw, ph);
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" "
		"font-size=\"12\">", ML + pw / 2, H - 6);
	html_esc(f, xl);
	fprintf(f, "</text><text transform=\"translate(14,%d) rotate(-90)\" "
		"text-anchor=\"middle\" font-size=\"12\">", MT + ph / 2);
	html_esc(f, yl);
	fputs("</text>\n", f);
	for (i = 0; i < ns; i++) {
		const char *c = colour[i % 8];

		if (lines && s[i].n > 1) {
			fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" "
				"stroke-width=\"1.5\" points=\"", c);
			for (k = 0; k < s[i].n; k++)
				fprintf(f, "%.1f,%.1f ", PX(s[i].x[k]),
					PY(s[i].y[k]));
			fputs("\"/>\n", f);
		}
		for (k = 0; k < s[i].n; k++) {
			px = PX(s[i].x[k]);
			py = PY(s[i].y[k]);
			fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" "
				"stroke=\"%s\" fill=\"%s\"/>\n", px, py, c,
				s[i].mark[k] ? "white" : c);
		}
		if (ns > 1 || s[i].name[0]) {
			fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"8\" "
				"height=\"8\" fill=\"%s\"/><text x=\"%d\" "
				"y=\"%d\" font-size=\"12\">", ML,
				H + 16 * li + 4, c, ML + 14, H + 16 * li + 12);
			html_esc(f, s[i].name);
			fputs("</text>\n", f);
			li++;
		}
	}
#undef PX
#undef PY
	fputs("</svg></figure>\n", f);
}

static void add(struct series *s, double x, double y, bool mark)
{
	if (s->n < MAX_PTS) {
		s->x[s->n] = x;
		s->y[s->n] = y;
		s->mark[s->n++] = mark;
	}
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
			add(s, x, y, false);
			m = fmax(m, fabs(y));
		}
	}
	/* the axis in the unit of the report's tables (µs, ms, Mbit/s) */
	unit = yl ? NULL : rt_unit(key, m, &div, &prec, &i);
	for (i = 0; i < s->n; i++)
		s->y[i] /= div;
	chart(f, title, "frame size (bytes)", yl ? yl : unit ? unit : key, s,
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

	for (i = 0; a && i < json_object_array_length(a) && n < MAX_SER; i++) {
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
				add(&s[n], x, y, false);
		}
		n++;
	}
	chart(f, "Frame loss rate (RFC 2544 §26.3)",
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
			add(&s[0], x, y, false);
		if (num(e, "theoretical_max_fps", &y)) {
			add(&s[1], x, y, false);
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
	chart(f, "Throughput (RFC 2544 §26.1)", "frame size (bytes)",
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
			add(s, x + 1, y, num(t, "lost", &lost) && lost > 0);
	}
	snprintf(s->name, sizeof(s->name), "hollow: frames lost");
	chart(f, "Trials in order (every trial, REQ-SRCH-1)", "trial", yl, s,
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
				add(s, x, y, false);
		}
	}
	snprintf(s->name, sizeof(s->name), "one point per repetition");
	chart(f, title, xkey ? xkey : "iteration", yl, s, 1, false, true,
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
static void procedure_charts(FILE *f, const char *id, json_object *res,
			     struct series *s)
{
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

		if (!kind)
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

void html_head(FILE *f, const char *title, const char *css)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
	      "<title>", f);
	html_esc(f, title);
	/* prose stays narrow; a wide result table may run past it */
	fputs("</title><style>body{font:14px sans-serif;margin:2em}p,ul{"
	      "max-width:60em}table{border-collapse:collapse;margin:.5em 0;"
	      "display:block;max-width:100%;overflow-x:auto}td,th{border:"
	      "1px solid #ccc;padding:2px 8px;text-align:left}th{background:"
	      "#f4f4f4}figure{margin:1em 0}.dry{background:#fff3cd;border:1px "
	      "solid #e0b000;padding:.4em .8em;font-weight:bold;max-width:"
	      "60em}.headline li{font-size:15px}", f);
	fputs(css, f);
	fputs("</style></head><body>\n", f);
}

int report_html(json_object *doc, FILE *f)
{
	static struct series s[MAX_SER];
	json_object *res = jget(doc, "results"), *dev = jget(doc, "deviations");
	const char *id = json_object_get_string(jget(jget(doc, "procedure"),
						     "id"));
	size_t i;

	html_head(f, id ? id : "?", "");
	front_html(f, doc);
	procedure_charts(f, id, res, s);
	trials_chart(f, doc, s);
	html_value(f, "Results", res, 2);
	if (jget(doc, "repeatability"))
		html_value(f, "Repeatability", jget(doc, "repeatability"), 2);
	kv_table(f, "Parameters", jget(doc, "params"), false);
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

// SPDX-License-Identifier: GPL-2.0
/*
 * bmctl compare's three outputs of one model (compare.h): a text table
 * that fits 80 columns for two or three results (the values of a row in
 * one unit, chosen for their mean, as the report's headline chooses it),
 * a JSON array of rows with every value as stored, and one self-contained
 * HTML page (no script, nothing fetched) with the same table.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bmctl.h"
#include "compare.h"
#include "chart.h"
#include "front.h"
#include "page.h"
#include "print.h"

/* Columns: field, a value a result, mean, stdev, a difference a result
 * but the baseline, verdict. */
#define CMP_MAX_COLS	(1 + CMP_MAX_IN + 2 + CMP_MAX_IN + 1)

/* The cells of one row in its unit (the unit's name in field). */
struct cells {
	char field[320];
	char x[CMP_MAX_IN][32];
	char mean[32], stdev[32];
	char diff[CMP_MAX_IN][32];
};

static json_object *member(json_object *o, const char *k)
{
	json_object *v = NULL;

	return o && json_object_object_get_ex(o, k, &v) ? v : NULL;
}

/* Which result a letter stands for: "job 7, 2026-12-03 16:28 UTC, DUT
 * edge1 17.3, dry run; random_macs 1000" (what the results differ in). */
static void describe(const struct cmp *c, json_object *const *docs,
		     size_t i, char *buf, size_t size)
{
	json_object *doc = docs[i];
	json_object *meta = member(doc, "meta"), *dut = member(meta, "dut");
	const char *start = json_object_get_string(member(meta, "start"));
	const char *name = json_object_get_string(member(dut, "name"));
	const char *ver = json_object_get_string(member(dut,
							"software_version"));
	size_t n = 0;

	buf[0] = '\0';
	if (member(meta, "job"))
		n += snprintf(buf + n, size - n, "job %s",
			      json_object_get_string(member(meta, "job")));
	if (start && n < size)
		n += snprintf(buf + n, size - n, "%s%.10s %.5s UTC",
			      n ? ", " : "", start,
			      strlen(start) > 11 ? start + 11 : "");
	if (name && n < size)
		n += snprintf(buf + n, size - n, "%sDUT %s%s%s", n ? ", " : "",
			      name, ver ? " " : "", ver ? ver : "");
	if (json_object_get_boolean(member(meta, "dry_run")) && n < size)
		n += snprintf(buf + n, size - n, "%sdry run", n ? ", " : "");
	if (c->n_varied && n < size)
		snprintf(buf + n, size - n, "%s%s", n ? "; " : "",
			 c->varied_as[i]);
}

/* r's cells: each value, the mean and the standard deviation in the unit
 * the mean is shown in; the differences in % with a sign. */
static void row_cells(const struct cmp *c, const struct cmp_row *r,
		      struct cells *k)
{
	const char *unit = "";
	size_t i;

	for (i = 0; i < c->n_in; i++) {
		snprintf(k->x[i], sizeof(k->x[i]), "-");
		if (r->has[i])
			unit = front_number(r->x[i], r->mean, r->key, r->unit,
					    k->x[i], sizeof(k->x[i]));
		if (!i)
			continue;
		if (r->has_diff[i])
			snprintf(k->diff[i], sizeof(k->diff[i]), "%+.2f",
				 r->diff[i]);
		else if (r->has[0] && r->has[i])	/* from 0 */
			snprintf(k->diff[i], sizeof(k->diff[i]), "%s",
				 r->x[i] > 0 ? "+inf" : "-inf");
		else
			snprintf(k->diff[i], sizeof(k->diff[i]), "-");
	}
	front_number(r->mean, r->mean, r->key, r->unit, k->mean,
		     sizeof(k->mean));
	snprintf(k->stdev, sizeof(k->stdev), "-");
	if (isfinite(r->stdev))
		front_number(r->stdev, r->mean, r->key, r->unit, k->stdev,
			     sizeof(k->stdev));
	snprintf(k->field, sizeof(k->field), "%s%s%s%s", r->name,
		 *unit ? " (" : "", unit, *unit ? ")" : "");
}

/* "2 of 3 values the same within 1 %, 1 higher" */
static void summary(const struct cmp *c, char *buf, size_t size)
{
	size_t count[CMP_MISSING + 1] = { 0 }, i;
	int n;

	for (i = 0; i < c->n_rows; i++)
		count[c->rows[i].verdict]++;
	n = snprintf(buf, size, "%zu of %zu values the same within %g %%",
		     count[CMP_SAME], c->n_rows, c->threshold);
	for (i = CMP_HIGHER; i <= CMP_MISSING && n > 0 && (size_t)n < size;
	     i++)
		if (count[i])
			n += snprintf(buf + n, size - n, ", %zu %s", count[i],
				      cmp_verdict_name(i));
}

/* A text row of its own: a label over the fields of its row. */
static void heading(struct pr_table *t, const char *label, int ncols)
{
	int i;

	pr_table_row(t);
	pr_cell_str(t, label);
	for (i = 1; i < ncols; i++)
		pr_cell_str(t, "");
}

void cmp_text(const struct cmp *c, json_object *const *docs,
	      const char *const *names)
{
	static char heads[CMP_MAX_COLS][8];
	static struct cells k;
	struct pr_col cols[CMP_MAX_COLS];
	char line[512], field[340];
	struct pr_table *t;
	size_t i, j;
	int nc = 0;

	pr_init(false);
	printf("%s, %zu results, each against A; threshold %g %% "
	       "(--threshold)\n", c->procedure, c->n_in, c->threshold);
	for (i = 0; i < c->n_in; i++) {
		describe(c, docs, i, line, sizeof(line));
		printf("  %c  %s%s%s\n", (int)('A' + i), names[i],
		       *line ? ": " : "", line);
	}
	printf("\n");
	/* a row's label is a line over its fields, not a column: two
	 * results fit 80 columns; more make the table wider, not the
	 * names torn */
	cols[nc++] = (struct pr_col){ "field", c->all ? "results" :
				      "headline", true };
	for (i = 0; i < c->n_in; i++) {
		snprintf(heads[i], sizeof(heads[i]), "%c", (int)('A' + i));
		cols[nc++] = (struct pr_col){ heads[i], heads[i], false };
	}
	cols[nc++] = (struct pr_col){ "mean", "mean", false };
	cols[nc++] = (struct pr_col){ "stdev", "stdev", false };
	for (i = 1; i < c->n_in; i++) {
		snprintf(heads[CMP_MAX_IN + i], sizeof(heads[0]), "%c %%",
			 (int)('A' + i));
		cols[nc++] = (struct pr_col){ heads[CMP_MAX_IN + i],
					      heads[CMP_MAX_IN + i], false };
	}
	cols[nc++] = (struct pr_col){ "verdict", "verdict", true };
	t = pr_table_new("compare", cols, nc);
	pr_table_whole(t, 0);
	for (j = 0; j < c->n_rows; j++) {
		const struct cmp_row *r = &c->rows[j];

		if (*r->label && (!j || r->group != r[-1].group ||
				  strcmp(r->label, r[-1].label)))
			heading(t, r->label, nc);
		row_cells(c, r, &k);
		snprintf(field, sizeof(field), "%s%s", *r->label ? "  " : "",
			 k.field);
		pr_table_row(t);
		pr_cell_str(t, field);
		for (i = 0; i < c->n_in; i++)
			pr_cell_str(t, k.x[i]);
		pr_cell_str(t, k.mean);
		pr_cell_str(t, k.stdev);
		for (i = 1; i < c->n_in; i++)
			pr_cell_str(t, k.diff[i]);
		pr_cell_str(t, cmp_verdict_name(r->verdict));
	}
	pr_table_end(t);
	summary(c, line, sizeof(line));
	printf("\n%s\n", line);
}

/* x, or null when it is not a number. */
static json_object *number(bool has, double x)
{
	return has && isfinite(x) ? json_object_new_double(x) : NULL;
}

void cmp_json(const struct cmp *c)
{
	json_object *a = json_object_new_array(), *o, *v, *d;
	size_t i, j;

	for (j = 0; j < c->n_rows; j++) {
		const struct cmp_row *r = &c->rows[j];

		o = json_object_new_object();
		v = json_object_new_array();
		d = json_object_new_array();
		for (i = 0; i < c->n_in; i++) {
			json_object_array_add(v, number(r->has[i], r->x[i]));
			json_object_array_add(d, number(r->has_diff[i],
							r->diff[i]));
		}
		json_object_object_add(o, "group",
				       json_object_new_int64((int64_t)r->group));
		json_object_object_add(o, "label",
				       json_object_new_string(r->label));
		json_object_object_add(o, "key", json_object_new_string(r->key));
		json_object_object_add(o, "unit",
				       json_object_new_string(r->unit));
		json_object_object_add(o, "values", v);
		json_object_object_add(o, "mean", number(true, r->mean));
		json_object_object_add(o, "stdev", number(true, r->stdev));
		json_object_object_add(o, "diff_pct", d);
		json_object_object_add(o, "threshold_pct",
				       json_object_new_double(c->threshold));
		json_object_object_add(o, "verdict", json_object_new_string(
			cmp_verdict_name(r->verdict)));
		json_object_array_add(a, o);
	}
	printf("%s\n", json_object_to_json_string_ext(a,
		JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
		JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(a);
}

/* One cell of the page's table: right-aligned unless text. */
static void td(FILE *f, const char *s, const char *cls)
{
	fprintf(f, "<td%s%s%s>", cls ? " class=\"" : "", cls ? cls : "",
		cls ? "\"" : "");
	html_esc(f, s);
	fputs("</td>", f);
}

/* How the charts' x axis places the results. */
enum cmp_axis {
	AX_LETTER,	/* 1 = A, 2 = B, ... */
	AX_LINEAR,	/* the swept parameter's value */
	AX_LOG,		/* its log10: it spans two decades or more */
};

static double chart_x(const struct cmp *c, size_t i, enum cmp_axis ax)
{
	return ax == AX_LETTER ? (double)i + 1 :
	       ax == AX_LOG ? log10(c->sweep_x[i]) : c->sweep_x[i];
}

/* The axis for c's results and its label into xl. */
static enum cmp_axis chart_axis(const struct cmp *c, char *xl, size_t size)
{
	double lo = INFINITY, hi = -INFINITY, pos = INFINITY;
	size_t i, n;

	for (i = 0; i < c->n_in; i++) {
		lo = fmin(lo, c->sweep_x[i]);
		hi = fmax(hi, c->sweep_x[i]);
		if (c->sweep_x[i] > 0)
			pos = fmin(pos, c->sweep_x[i]);
	}
	if (c->sweep && lo > 0 && hi / lo >= 100) {
		snprintf(xl, size, "log10 of %s (2 = 100, 3 = 1000)",
			 c->varied[0]);
		return AX_LOG;
	}
	if (c->sweep && !(lo <= 0 && hi / pos >= 100)) {
		snprintf(xl, size, "%s", c->varied[0]);
		return AX_LINEAR;
	}
	/* 0 beside thousands (random_macs unset, 1000, 10000): neither
	 * axis shows them apart, the letters do */
	n = (size_t)snprintf(xl, size, "result");
	for (i = 0; i < c->n_in && n < size; i++)
		n += (size_t)snprintf(xl + n, size - n, "%s%zu = %c",
				      i ? ", " : " (", i + 1, (int)('A' + i));
	if (n < size)
		snprintf(xl + n, size - n, ")");
	return AX_LETTER;
}

/*
 * A chart a compared field (throughput, latency): its value in each
 * result against what the results differ in, a line a headline row (a
 * frame size); the swept parameter on a log axis when it spans two
 * decades or more (1, 1000 and 10000 flows).  At most 12 charts.
 */
static void cmp_charts(const struct cmp *c, FILE *f)
{
	static struct series s[CHART_MAX_SER];
	char title[400], xl[160], yl[64];
	enum cmp_axis ax = chart_axis(c, xl, sizeof(xl));
	size_t i, j, k, drawn = 0;
	const char *unit;
	double m, mul, div;
	int ns, prec;

	for (j = 0; j < c->n_rows && drawn < 12 && !c->all; j++) {
		const struct cmp_row *r = &c->rows[j];

		for (k = 0; k < j; k++)	/* each field once */
			if (c->rows[k].group == r->group &&
			    !strcmp(c->rows[k].key, r->key))
				break;
		if (k < j)
			continue;
		m = 0;
		for (k = j; k < c->n_rows; k++)
			if (c->rows[k].group == r->group &&
			    !strcmp(c->rows[k].key, r->key))
				for (i = 0; i < c->n_in; i++)
					if (c->rows[k].has[i])
						m = fmax(m, fabs(c->rows[k].x[i]));
		/* the axis in the unit the table shows the largest value in */
		unit = front_scale(m, r->key, r->unit, &mul, &div, &prec);
		ns = 0;
		for (k = j; k < c->n_rows && ns < CHART_MAX_SER; k++) {
			const struct cmp_row *q = &c->rows[k];

			if (q->group != r->group || strcmp(q->key, r->key))
				continue;
			memset(&s[ns], 0, sizeof(s[ns]));
			snprintf(s[ns].name, sizeof(s[ns].name), "%.60s",
				 q->label);
			for (i = 0; i < c->n_in; i++)
				if (q->has[i])
					chart_add(&s[ns], chart_x(c, i, ax),
						  q->x[i] * mul / div, false);
			ns++;
		}
		snprintf(title, sizeof(title), "%s%s%s%s against %s", r->name,
			 *unit ? " (" : "", unit, *unit ? ")" : "",
			 ax == AX_LETTER ? "the results" : c->varied[0]);
		snprintf(yl, sizeof(yl), "%.60s", *unit ? unit : r->name);
		chart_draw(f, title, xl, yl, s, ns, true, true, NULL);
		drawn++;
	}
}

int cmp_html(const struct cmp *c, json_object *const *docs,
	     const char *const *names, FILE *f)
{
	static struct cells k;
	char line[512], title[300];
	size_t i, j;

	snprintf(title, sizeof(title), "compare %s", c->procedure);
	html_head(f, title, "td.n{text-align:right}td.differs{background:"
		  "#fde2e2;font-weight:bold}");
	fputs("<h1>", f);
	html_esc(f, title);
	fputs("</h1>\n<table class=\"front\">\n", f);
	for (i = 0; i < c->n_in; i++) {
		describe(c, docs, i, line, sizeof(line));
		fprintf(f, "<tr><th>%c</th><td>", (int)('A' + i));
		html_esc(f, names[i]);
		fputs("</td><td>", f);
		html_esc(f, line);
		fputs("</td></tr>\n", f);
	}
	fprintf(f, "</table>\n<p>Each result against A: the difference in %% "
		"of A, the same within %g %%; the standard deviation is the "
		"sample's.</p>\n<table>\n<tr><th>%s</th><th>%s</th>",
		c->threshold, c->all ? "in" : "row", c->all ? "value" : "field");
	for (i = 0; i < c->n_in; i++)
		fprintf(f, "<th>%c</th>", (int)('A' + i));
	fputs("<th>mean</th><th>stdev</th>", f);
	for (i = 1; i < c->n_in; i++)
		fprintf(f, "<th>%c %%</th>", (int)('A' + i));
	fputs("<th>verdict</th></tr>\n", f);
	for (j = 0; j < c->n_rows; j++) {
		const struct cmp_row *r = &c->rows[j];

		row_cells(c, r, &k);
		fputs("<tr>", f);
		td(f, r->label, NULL);
		td(f, k.field, NULL);
		for (i = 0; i < c->n_in; i++)
			td(f, k.x[i], "n");
		td(f, k.mean, "n");
		td(f, k.stdev, "n");
		for (i = 1; i < c->n_in; i++)
			td(f, k.diff[i], "n");
		td(f, cmp_verdict_name(r->verdict),
		   r->verdict == CMP_SAME ? NULL : "differs");
		fputs("</tr>\n", f);
	}
	summary(c, line, sizeof(line));
	fputs("</table>\n<p>", f);
	html_esc(f, line);
	fputs("</p>\n", f);
	cmp_charts(c, f);
	fputs("</body></html>\n", f);
	return ferror(f) ? EXIT_FAIL : EXIT_OK;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The SVG charts of bmctl's HTML pages (report, compare): axes with
 * "nice" ticks, a line and points a series, the legend under the plot.
 */
#include <math.h>
#include <stdio.h>

#include "chart.h"
#include "page.h"

#define W	640
#define H	320
#define ML	64	/* margins of the plot area */
#define MR	16
#define MT	28
#define MB	44

static const char *const colour[] = { "#1f77b4", "#d62728", "#2ca02c",
				      "#9467bd", "#ff7f0e", "#8c564b",
				      "#e377c2", "#17becf" };

/* A figure's SVG opened, h pixels high, on white, with its title. */
static void svg_open(FILE *f, int h, const char *title)
{
	fprintf(f, "<figure><svg xmlns=\"http://www.w3.org/2000/svg\" "
		"width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" "
		"font-family=\"sans-serif\"><rect width=\"%d\" height=\"%d\" "
		"fill=\"white\"/>\n", W, h, W, h, W, h);
	fprintf(f, "<text x=\"%d\" y=\"18\" font-weight=\"bold\" "
		"font-size=\"13\">", ML);
	html_esc(f, title);
	fputs("</text>\n", f);
}

/* A "nice" step for about n ticks over span. */
static double tick_step(double span, int n)
{
	double raw = span / n, p = pow(10, floor(log10(raw))), m = raw / p;

	return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

void chart_draw(FILE *f, const char *title, const char *xl,
		const char *yl, struct series *s, int ns, bool lines,
		bool zero_y, const struct axes *fixed)
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
	svg_open(f, H + 16 * legend, title);
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

void chart_add(struct series *s, double x, double y, bool mark)
{
	if (s->n < CHART_MAX_PTS) {
		s->x[s->n] = x;
		s->y[s->n] = y;
		s->mark[s->n++] = mark;
	}
}

void chart_lanes(FILE *f, const char *title, const char *xl,
		 const struct lane *l, size_t n)
{
	/* a left column for the lanes' names, as wide as RFC 7640's
	 * "2 rfc7640.shaper-capacity" needs at 11 px */
	const int ml = 200, lh = 26;
	double x0 = INFINITY, x1 = -INFINITY, st, v;
	int pw = W - ml - MR, ph = lh * (int)n, h = MT + ph + MB;
	size_t i, k, total = 0;

	for (i = 0; i < n; i++)
		for (k = 0; k < l[i].n; k++) {
			x0 = fmin(x0, l[i].from[k]);
			x1 = fmax(x1, l[i].to[k]);
			total++;
		}
	if (!total)
		return;
	if (x1 - x0 < 1e-12)
		x1 = x0 + 1;
	svg_open(f, h, title);
#define PX(x) (ml + ((x) - x0) / (x1 - x0) * pw)
	st = tick_step(x1 - x0, 6);
	for (v = ceil(x0 / st) * st; v <= x1 + st * 1e-9; v += st)
		fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" "
			"y2=\"%d\" stroke=\"#e4e4e4\"/><text x=\"%.1f\" "
			"y=\"%d\" text-anchor=\"middle\" font-size=\"11\">%g"
			"</text>\n", PX(v), PX(v), MT, MT + ph, PX(v),
			MT + ph + 16, fabs(v) < st * 1e-9 ? 0.0 : v);
	for (i = 0; i < n; i++) {
		int y = MT + lh * (int)i;

		for (k = 0; k < l[i].n; k++)
			fprintf(f, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" "
				"height=\"%d\" fill=\"%s\"/>\n",
				PX(l[i].from[k]), y + 5,
				fmax(PX(l[i].to[k]) - PX(l[i].from[k]), 1.0),
				lh - 10, colour[i % 8]);
		fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"11\" "
			"text-anchor=\"end\">", ml - 6, y + lh / 2 + 4);
		html_esc(f, l[i].name);
		fputs("</text>\n", f);
	}
#undef PX
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
		"fill=\"none\" stroke=\"#888\"/>\n", ml, MT, pw, ph);
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" "
		"font-size=\"12\">", ml + pw / 2, h - 6);
	html_esc(f, xl);
	fputs("</text></svg></figure>\n", f);
}

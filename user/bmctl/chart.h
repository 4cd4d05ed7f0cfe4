/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The SVG charts of bmctl's HTML pages (chart.c): report.c's and
 * compare's pages draw through it.
 */
#ifndef BMCTL_CHART_H
#define BMCTL_CHART_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define CHART_MAX_PTS	4096
#define CHART_MAX_SER	16

/* One line of a chart: its points in order, its name in the legend. */
struct series {
	char name[64];
	size_t n;
	double x[CHART_MAX_PTS], y[CHART_MAX_PTS];
	bool mark[CHART_MAX_PTS];	/* drawn hollow (a lossy trial) */
};

/* Axes a standard fixes: x from x0 to x1, y from y0 to y1, exactly. */
struct axes {
	double x0, x1, y0, y1;
};

#define CHART_MAX_WIN	256

/* One lane of a timeline: what it is and when it was busy. */
struct lane {
	char name[64];
	size_t n;
	double from[CHART_MAX_WIN], to[CHART_MAX_WIN];	/* s */
};

/* Append (x, y) to s, hollow when mark; points past CHART_MAX_PTS are
 * dropped. */
void chart_add(struct series *s, double x, double y, bool mark);

/* One chart of the series s[0..ns-1] as an SVG figure to f; lines join
 * points when lines; the axes fit the points (y from 0 when zero_y)
 * unless fixed (not NULL) gives them; nothing without a point. */
void chart_draw(FILE *f, const char *title, const char *xl,
		const char *yl, struct series *s, int ns, bool lines,
		bool zero_y, const struct axes *fixed);

/* A timeline as an SVG figure to f: a lane a row, each window a bar on
 * one time axis (xl); nothing without a window. */
void chart_lanes(FILE *f, const char *title, const char *xl,
		 const struct lane *l, size_t n);

#endif /* BMCTL_CHART_H */

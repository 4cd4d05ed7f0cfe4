/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The charts of a procedure family's own results that the result
 * schema's "x-charts" declare (family_charts.c).
 */
#ifndef BMCTL_FAMILY_CHARTS_H
#define BMCTL_FAMILY_CHARTS_H

#include <stdbool.h>
#include <stdio.h>

#include <json-c/json.h>

#include "chart.h"

/* Draw the chart spec (an "x-charts" member of kind rows, lanes or
 * search-bounds) of result doc to f, s[0..CHART_MAX_SER) its scratch;
 * false when the kind is not one of these. */
bool family_chart(FILE *f, json_object *doc, json_object *spec,
		  struct series *s);

#endif /* BMCTL_FAMILY_CHARTS_H */

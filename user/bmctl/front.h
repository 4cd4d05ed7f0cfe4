/* SPDX-License-Identifier: GPL-2.0 */
/* bmctl: the front block every report opens with (front.c). */
#ifndef BMCTL_FRONT_H
#define BMCTL_FRONT_H

#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

#define FRONT_MAX_ITEMS	8
#define FRONT_MAX_LINES	48
#define FRONT_VALUE	512
#define FRONT_LINE	512
#define FRONT_MAX_LABELS 8
/* more than a headline line's 768 bytes can hold: every part is there */
#define FRONT_MAX_FIELDS 64

struct front {
	char title[256];		/* "ID (REF)" */
	bool dry_run;			/* the simulator's numbers */
	struct {
		char key[16];
		char value[FRONT_VALUE];
	} items[FRONT_MAX_ITEMS];	/* DUT, ports, line rate, date, ... */
	size_t n_items;
	char headline[FRONT_MAX_LINES][FRONT_LINE];
	size_t n_headline;
	size_t headline_values;		/* lines with a value in a field */
};

/* One value of a headline row: a part of its label, or a field. */
struct front_part {
	char key[256];		/* its path in the row: "throughput_fps",
				 * "statistics.app1.throughput_bps" */
	char title[128];	/* "throughput", "app1 throughput"; "" */
	const char *unit;	/* given, else the key's suffix's: "fps"; "" */
	const char *flag;	/* the words a true flag says; NULL: a value */
	json_object *value;	/* as read (a repetition's mean); NULL: none
				 * or null */
	bool numeric;		/* value is a finite number, number */
	double number;
};

/* One row of a procedure's headline, as the result schema's
 * "x-headline" declares it. */
struct front_row {
	size_t group;		/* its group in x-headline */
	size_t row, n_rows;	/* row of the group's n_rows */
	json_object *obj;	/* the row (or the results themselves) */
	char label[256];	/* the label as read: "64 B"; "" none */
	struct front_part labels[FRONT_MAX_LABELS];
	size_t n_labels;
	struct front_part fields[FRONT_MAX_FIELDS];
	size_t n_fields;
	const char *why;	/* the first "why" key other than ok, or NULL */
};

/* Called for each headline row; false skips the rest of its group. */
typedef bool (*front_row_fn)(const struct front_row *row, void *ctx);

/* Call fn(row, ctx) for each row of doc's headline, group by group in
 * the order of its procedure's "x-headline" (a "*" field one part per
 * member); the number of rows passed (0: no headline declared). */
size_t front_headline(json_object *doc, front_row_fn fn, void *ctx);

/* Append "title value" of p to line (after sep when line is not empty),
 * a true flag its words; true when p has a value to show. */
bool front_part_text(char *line, size_t size, const struct front_part *p,
		     const char *sep);

/* p's name for a column: its key without the suffix that says its unit,
 * '_' as ' ' ("throughput_l1_bps" in bit/s: "throughput l1"). */
void front_part_name(const struct front_part *p, char *buf, size_t size);

/* unit when given (not NULL or ""), else the unit of key's suffix: "fps"
 * for "*_fps", "% of line" for "*_pct_line"; "" for none. */
const char *front_unit(const char *key, const char *unit);

/* The unit front_value shows ref (of key, in unit or key's suffix's) in:
 * its name ("Mfps", "µs"; ""), a value x of key reads x * *mul / *div
 * there, with *prec decimals at most (a chart's axis: the same unit). */
const char *front_scale(double ref, const char *key, const char *unit,
			double *mul, double *div, int *prec);

/* x (of key, in unit or key's suffix's) in the unit front_value shows
 * ref in, as digits into buf; that unit's name ("Mfps", "µs"; ""). */
const char *front_number(double x, double ref, const char *key,
			 const char *unit, char *buf, size_t size);

/* The parameters of params whose names given (bmd's meta.params_given)
 * lists, as a new object; NULL when given is not a list (a result that
 * does not say). */
json_object *front_params_given(json_object *params, json_object *given);

/* Build doc's front block: the header items and the headline lines its
 * procedure's "x-headline" (the result schema) declares. */
void front_build(json_object *doc, struct front *f);

/* Print f as text on stdout. */
void front_text(const struct front *f);

/* v (a number, or an object with a mean, a string, a boolean) of key as
 * a person reads it, in unit or else the unit of key's suffix: "1.488
 * Mfps", "761.905 Mbit/s", "12.5 µs", "51712 B", "100 % of line"; never
 * in scientific notation; "-" for null. */
void front_value(json_object *v, const char *key, const char *unit,
		 char *buf, size_t size);

#endif /* BMCTL_FRONT_H */

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

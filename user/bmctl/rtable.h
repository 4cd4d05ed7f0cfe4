/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The table model both reports share (REQ-REP-3): which members of
 * a result's rows become columns, in which human unit each is shown
 * (latency in ns/µs/ms, rates in bit/s..Gbit/s by the column's largest
 * value), and which members hold the same value in every row, so that the
 * text and the HTML report print the same table the same way.
 */
#ifndef BMCTL_RTABLE_H
#define BMCTL_RTABLE_H

#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

#define RT_MAX_COLS 64

struct rt_col {
	const char *key;	/* JSON member name */
	char head[64];		/* header: name without unit suffix + unit */
	double div;		/* shown value = JSON value / div */
	int prec;		/* decimals when div != 1; -1: compact form */
	bool left;		/* text column */
};

struct rt_table {
	json_object *const *rows;
	size_t n;
	struct rt_col cols[RT_MAX_COLS];
	int nc;
	/* Members equal in every row (n >= 2), shown once under the table. */
	struct rt_col same[RT_MAX_COLS];
	int ns;
	/* Members that are a long text in some row (rt_long_text), found
	 * once each, and whether every row holds the same one. */
	const char *longk[RT_MAX_COLS];
	bool long_same[RT_MAX_COLS];
	size_t nlong;
	bool long_full;		/* more than fit: ask rt_long_text */
};

/* Lay out rows[0..n-1] (JSON objects): columns in first-seen order,
 * first (if not NULL) as a leading text column of the caller's own;
 * long texts and nested values are left out; with fold, members equal
 * in every row move to same[]. */
void rt_build(struct rt_table *t, json_object *const *rows, size_t n,
	      const char *first, bool fold);

/* The unit of values of member key up to magnitude m (NULL: none):
 * shown value = value / *div with *prec decimals (-1: compact); the
 * name without its unit suffix is key[0..*stem). */
const char *rt_unit(const char *key, double m, double *div, int *prec,
		    size_t *stem);

/* The column of one scalar v named key (its label and unit). */
void rt_scalar(struct rt_col *c, const char *key, json_object *v);

/* The cell text of v in column c, in the column's unit; into buf. */
const char *rt_cell(const struct rt_col *c, json_object *v, char *buf,
		    size_t len);

/* A member of a row, or NULL. */
json_object *rt_get(json_object *o, const char *key);

/* Is member key present and the same value in every row (n >= 2)? */
bool rt_same(json_object *const *rows, size_t n, const char *key);

/* Strings over this many bytes are sentences: lines, not cells. */
#define RT_LONG_TEXT 40

/* Is key a sentence-length string in any of rows[0..n-1]? */
bool rt_long_text(json_object *const *rows, size_t n, const char *key);

/* Should row i's string member key print as a line of its own under t
 * (a long text, once when every row has the same)? */
bool rt_long_line(const struct rt_table *t, size_t i, const char *key);

/* The heading of what row i (keyed keys[i]; else named by its frame size
 * or iteration, as a reader knows it; else numbered) of table name nests
 * under member k: "per_size, 256 B: table", not "per_size[3]: table". */
void rt_title(char *buf, size_t len, const char *name,
	      const char *const *keys, json_object *row, size_t i,
	      const char *k);

/* An object, or an array of objects: a table of its own, not a cell. */
bool rt_is_nested(json_object *v);

#endif /* BMCTL_RTABLE_H */

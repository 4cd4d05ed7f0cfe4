/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One output path for text and JSON, so the two never drift: every
 * command prints through these calls, and --json only changes where the
 * values go (a json-c tree printed at pr_finish) not which values go.
 */
#ifndef BMCTL_PRINT_H
#define BMCTL_PRINT_H

#include <stdbool.h>
#include <stdint.h>

#include <json-c/json.h>

/* Start output; json selects JSON mode. */
void pr_init(bool json);

/* JSON mode: print the document built so far (pretty) and reset. */
void pr_finish(void);

bool pr_json(void);

/* Nested JSON containers.  In text mode a non-NULL title opens an
 * indented section ("" indents without a heading line); NULL groups the
 * JSON members only. */
void pr_obj_open(const char *key, const char *title);
void pr_obj_close(void);

/* Key/value lines: text prints "  label   value" (label NULL = key). */
void pr_kv_str(const char *key, const char *label, const char *v);
void pr_kv_u64(const char *key, const char *label, uint64_t v);
void pr_kv_f64(const char *key, const char *label, const char *fmt, double v);
/* Add an existing JSON value (reference taken); text shows it plainly. */
void pr_kv_json(const char *key, const char *label, json_object *v);

/* Text only: a free line (headings, notes).  Ignored in JSON mode. */
void pr_text(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* --- tables: JSON array of objects, or aligned text columns ---------- */

struct pr_col {
	const char *key;	/* JSON member name */
	const char *head;	/* text column header */
	bool left;		/* left-align (text) */
};

/* text (not in JSON mode) in lines of at most 79 columns (fewer on a
 * narrower terminal), broken at spaces: the first indented by first
 * spaces, the others by rest. */
void pr_wrapped(int first, int rest, const char *text);

struct pr_table;

/* A table stored under key (JSON) with ncols columns. */
struct pr_table *pr_table_new(const char *key, const struct pr_col *cols,
			      int ncols);
/* Text: never wrap column col of t (a name read at a glance): a table
 * that cannot fit without tearing it is printed wider instead. */
void pr_table_whole(struct pr_table *t, int col);
void pr_table_row(struct pr_table *t);
void pr_cell_str(struct pr_table *t, const char *v);	/* NULL = null / - */
void pr_cell_u64(struct pr_table *t, uint64_t v);
void pr_cell_f64(struct pr_table *t, const char *fmt, double v);
/* A JSON value cell (reference taken); text renders it compactly. */
void pr_cell_json(struct pr_table *t, json_object *v);
/* Print (text) or attach (JSON) the table and free it. */
void pr_table_end(struct pr_table *t);

/* Compact text for a JSON scalar (numbers without noise); static buffer. */
const char *pr_fmt_json(json_object *v);

#endif /* BMCTL_PRINT_H */

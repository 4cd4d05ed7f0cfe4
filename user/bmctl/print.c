// SPDX-License-Identifier: GPL-2.0
/* The text-or-JSON print helper of bmctl (print.h). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <stdlib.h>
#include <string.h>

#include "print.h"

#define MAX_DEPTH 16
#define LABEL_WIDTH 18

static bool json_mode;
static json_object *stack[MAX_DEPTH];
static int depth;		/* JSON: stack[depth] is the open object */
static int indent;		/* text: nesting of sections */
static bool indented[MAX_DEPTH];	/* text: did level n indent? */
static int level;

void pr_init(bool json)
{
	json_mode = json;
	depth = 0;
	indent = 0;
	level = 0;
	if (json) {
		json_object_put(stack[0]);
		stack[0] = json_object_new_object();
	}
}

bool pr_json(void)
{
	return json_mode;
}

void pr_finish(void)
{
	if (!json_mode || !stack[0])
		return;
	puts(json_object_to_json_string_ext(stack[0], JSON_C_TO_STRING_PRETTY |
					    JSON_C_TO_STRING_SPACED |
					    JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(stack[0]);
	stack[0] = NULL;
	depth = 0;
}

static void add(const char *key, json_object *v)
{
	if (!stack[depth]) {
		json_object_put(v);
		return;
	}
	json_object_object_add(stack[depth], key, v);
}

void pr_obj_open(const char *key, const char *title)
{
	if (json_mode) {
		json_object *o = stack[depth];

		/* No key: a text-only section, JSON stays at this level. */
		if (key) {
			o = json_object_new_object();
			add(key, o);
		}
		if (depth + 1 < MAX_DEPTH)
			stack[++depth] = o;
		return;
	}
	if (title && title[0])
		printf("%*s%s\n", indent * 2, "", title);
	if (level < MAX_DEPTH)
		indented[level++] = title;
	if (title)
		indent++;
}

void pr_obj_close(void)
{
	if (json_mode) {
		if (depth > 0)
			depth--;
		return;
	}
	if (level > 0 && indented[--level] && indent > 0)
		indent--;
}

static void text_kv(const char *key, const char *label, const char *v)
{
	printf("%*s%-*s %s\n", indent * 2, "", LABEL_WIDTH,
	       label ? label : key, v ? v : "-");
}

void pr_kv_str(const char *key, const char *label, const char *v)
{
	if (json_mode)
		add(key, v ? json_object_new_string(v) : NULL);
	else
		text_kv(key, label, v);
}

void pr_kv_u64(const char *key, const char *label, uint64_t v)
{
	char buf[32];

	if (json_mode) {
		add(key, json_object_new_uint64(v));
		return;
	}
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)v);
	text_kv(key, label, buf);
}

void pr_kv_f64(const char *key, const char *label, const char *fmt, double v)
{
	char buf[64];

	if (json_mode) {
		add(key, isfinite(v) ? json_object_new_double(v) : NULL);
		return;
	}
	snprintf(buf, sizeof(buf), fmt, v);
	text_kv(key, label, buf);
}

void pr_kv_json(const char *key, const char *label, json_object *v)
{
	if (json_mode)
		add(key, json_object_get(v));
	else
		text_kv(key, label, v ? pr_fmt_json(v) : NULL);
}

void pr_text(const char *fmt, ...)
{
	va_list ap;

	if (json_mode)
		return;
	printf("%*s", indent * 2, "");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

const char *pr_fmt_json(json_object *v)
{
	static char buf[128];
	double x;

	if (!v)
		return "-";
	switch (json_object_get_type(v)) {
	case json_type_double:
		x = json_object_get_double(v);
		if (!isfinite(x))
			return "-";
		if (x == floor(x) && fabs(x) < 1e15)
			snprintf(buf, sizeof(buf), "%.0f", x);
		else if (fabs(x) >= 1000)
			snprintf(buf, sizeof(buf), "%.1f", x);
		else
			snprintf(buf, sizeof(buf), "%.6g", x);
		return buf;
	case json_type_string:
		return json_object_get_string(v);
	case json_type_null:
		return "-";
	default:
		return json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN);
	}
}

/* --- tables ------------------------------------------------------------- */

struct pr_table {
	const char *key;
	const struct pr_col *cols;
	int ncols;
	int col;		/* next cell of the current row */
	char **cells;		/* text: rows * ncols strings */
	size_t rows, cap;
	json_object *arr;	/* JSON: array of row objects */
	json_object *row;
	uint64_t whole;		/* text: the columns never wrapped */
};

struct pr_table *pr_table_new(const char *key, const struct pr_col *cols,
			      int ncols)
{
	struct pr_table *t = calloc(1, sizeof(*t));

	if (!t)
		abort();
	t->key = key;
	t->cols = cols;
	t->ncols = ncols;
	if (json_mode)
		t->arr = json_object_new_array();
	return t;
}

void pr_table_whole(struct pr_table *t, int col)
{
	if (col >= 0 && col < 64)
		t->whole |= 1ull << col;
}

void pr_table_row(struct pr_table *t)
{
	size_t i;

	t->col = 0;
	if (json_mode) {
		t->row = json_object_new_object();
		json_object_array_add(t->arr, t->row);
		return;
	}
	if (t->rows == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 16;
		t->cells = realloc(t->cells, t->cap * t->ncols * sizeof(char *));
		if (!t->cells)
			abort();
	}
	for (i = 0; i < (size_t)t->ncols; i++)
		t->cells[t->rows * t->ncols + i] = NULL;
	t->rows++;
}

static void cell(struct pr_table *t, json_object *jv, const char *text)
{
	if (t->col >= t->ncols) {
		json_object_put(jv);
		return;
	}
	if (json_mode)
		json_object_object_add(t->row, t->cols[t->col].key, jv);
	else
		t->cells[(t->rows - 1) * t->ncols + t->col] =
			strdup(text ? text : "-");
	t->col++;
}

void pr_cell_str(struct pr_table *t, const char *v)
{
	cell(t, json_mode && v ? json_object_new_string(v) : NULL, v);
}

void pr_cell_u64(struct pr_table *t, uint64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)v);
	cell(t, json_mode ? json_object_new_uint64(v) : NULL, buf);
}

void pr_cell_f64(struct pr_table *t, const char *fmt, double v)
{
	char buf[64];

	snprintf(buf, sizeof(buf), fmt, v);
	cell(t, json_mode && isfinite(v) ? json_object_new_double(v) : NULL,
	     isfinite(v) ? buf : "-");
}

void pr_cell_json(struct pr_table *t, json_object *v)
{
	cell(t, json_mode ? json_object_get(v) : NULL, pr_fmt_json(v));
}

/* Columns a UTF-8 string takes on a terminal ("µs" is two bytes, one
 * column): every byte but the continuation bytes. */
static int text_width(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* The columns a table may take: the terminal's, else $COLUMNS, else 80
 * (a pipe or a file too: what a reader's terminal or mail shows). */
static int table_width(void)
{
	const char *e = getenv("COLUMNS");
	struct winsize ws;
	long n;

	if (isatty(STDOUT_FILENO) && !ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) &&
	    ws.ws_col >= 40)
		return ws.ws_col;
	n = e ? strtol(e, NULL, 10) : 0;
	return n >= 40 && n <= 1000 ? (int)n : 80;
}

/* The bytes of s's first line in width columns, at a space when one
 * falls inside (the space dropped); *next is where the rest starts. */
static size_t line_cut(const char *s, int width, const char **next)
{
	size_t i, sp = 0;
	int cols = 0;

	for (i = 0; s[i]; i++) {
		if (((unsigned char)s[i] & 0xc0) == 0x80)
			continue;
		if (cols == width)
			break;
		if (s[i] == ' ')
			sp = i;
		cols++;
	}
	if (!s[i]) {
		*next = s + i;
		return i;
	}
	if (sp) {
		*next = s + sp + 1;
		return sp;
	}
	for (*next = s + i; **next == ' '; (*next)++)
		;
	return i;
}

/* Narrow the widest left-aligned columns (text, which wraps, unless it
 * is whole) until the table fits avail columns or none is wider than its
 * floor. */
static void fit_columns(const struct pr_table *t, int *w, int avail)
{
	int c, total, widest, floor[64];
	size_t r;

	/* a column keeps its longest word (a name, a number) whole, up to
	 * 30 columns */
	for (c = 0; c < t->ncols && c < 64; c++) {
		floor[c] = text_width(t->cols[c].head);
		for (r = 0; r < t->rows; r++) {
			const char *s = t->cells[r * t->ncols + c];
			int n = 0;

			for (; s && *s; s++) {
				n = *s == ' ' ? 0 : n +
				    (((unsigned char)*s & 0xc0) != 0x80);
				if (n > floor[c])
					floor[c] = n;
			}
		}
		if (floor[c] > 30)
			floor[c] = 30;
		if (t->whole >> c & 1)
			floor[c] = w[c];
		if (floor[c] < 8)
			floor[c] = 8;
	}
	if (t->ncols > 64)
		return;
	/* a table that cannot fit anyway is better whole than torn */
	total = 0;
	for (c = 0; c < t->ncols; c++)
		total += (t->cols[c].left && floor[c] < w[c] ? floor[c] : w[c]) +
			 (c ? 2 : 0);
	if (total > avail)
		return;

	for (;;) {
		total = 0;
		for (c = 0; c < t->ncols; c++)
			total += w[c] + (c ? 2 : 0);
		if (total <= avail)
			return;
		widest = -1;
		for (c = 0; c < t->ncols; c++) {
			if (t->cols[c].left && w[c] > floor[c] &&
			    (widest < 0 || w[c] >= w[widest]))
				widest = c;
		}
		if (widest < 0)
			return;
		/* one column at a time, so the wide ones end up equal */
		w[widest]--;
	}
}

void pr_wrapped(int first, int rest, const char *text)
{
	int width = table_width();
	const char *next;
	size_t n;

	if (json_mode)
		return;
	/* help reads best in lines of at most 79, whatever the terminal */
	width = (width > 80 ? 80 : width) - 1;
	do {
		n = line_cut(text, width - first > 20 ? width - first : 20,
			     &next);
		printf("%*s%.*s\n", first, "", (int)n, text);
		text = next;
		first = rest;
	} while (*text);
}

void pr_table_end(struct pr_table *t)
{
	const char **rest;
	int c, *w;
	size_t r;

	if (json_mode) {
		add(t->key, t->arr);
		free(t);
		return;
	}
	w = calloc(t->ncols, sizeof(*w));
	rest = calloc(t->ncols, sizeof(*rest));
	if (!w || !rest)
		abort();
	for (c = 0; c < t->ncols; c++)
		w[c] = text_width(t->cols[c].head);
	for (r = 0; r < t->rows; r++)
		for (c = 0; c < t->ncols; c++) {
			const char *s = t->cells[r * t->ncols + c];
			int n = s ? text_width(s) : 1;

			if (n > w[c])
				w[c] = n;
		}
	/* tables fit the terminal: long text wraps inside its column; a
	 * last column left narrower than 16 runs on instead, as ps(1)'s */
	c = w[t->ncols - 1];
	fit_columns(t, w, table_width() - indent * 2);
	if (w[t->ncols - 1] < 16 && w[t->ncols - 1] < c)
		w[t->ncols - 1] = c;
	for (r = 0; r <= t->rows; r++) {
		bool more = true, first = true;

		for (c = 0; c < t->ncols; c++) {
			rest[c] = r ? t->cells[(r - 1) * t->ncols + c]
				    : t->cols[c].head;
			if (!rest[c])
				rest[c] = "-";
		}
		while (more) {
			more = false;
			printf("%*s", indent * 2, "");
			for (c = 0; c < t->ncols; c++) {
				bool last = c == t->ncols - 1;
				const char *s = rest[c];
				size_t n = t->cols[c].left ?
					   line_cut(s, w[c], &rest[c]) :
					   strlen(s);
				char part[512];
				int pad;

				if (!t->cols[c].left)
					rest[c] = s + n;
				if (!first && !t->cols[c].left)
					n = 0, rest[c] = s;
				snprintf(part, sizeof(part), "%.*s", (int)n, s);
				/* pad by columns, not bytes */
				pad = w[c] - text_width(part);
				if (pad < 0)
					pad = 0;
				if (t->cols[c].left)
					printf("%s%*s", part, last ? 0 : pad, "");
				else
					printf("%*s%s", pad, "", part);
				printf(last ? "\n" : "  ");
				more |= t->cols[c].left && *rest[c];
			}
			first = false;
		}
	}
	for (r = 0; r < t->rows * t->ncols; r++)
		free(t->cells[r]);
	free(t->cells);
	free(rest);
	free(w);
	free(t);
}

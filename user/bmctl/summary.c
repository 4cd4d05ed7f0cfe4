// SPDX-License-Identifier: GPL-2.0
/*
 * bmctl report FILE --csv, bmctl result JOB --csv: the headline of a
 * result (front.c, the result schema's "x-headline"), one line a frame
 * size, iteration or run, to paste into a spreadsheet.  The numbers stay
 * as the result stores them, in the unit the column names, so a sheet can
 * compute with them; the trial log is --trials --csv (bm_result_csv).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bm_store.h"
#include "bmctl.h"
#include "front.h"
#include "summary.h"

/* The last column's name */
#define WHY "why no value"

/* What the walk gathers: the columns in first-seen order (id -> name)
 * and the rows (id -> value), both JSON objects. */
struct sheet {
	json_object *cols;
	json_object *rows;
	json_object *names;	/* the column names taken */
	const char *procedure;
};

/* A value: numbers as stored, never rounded to a display unit. */
static void csv_value(FILE *f, json_object *v)
{
	double x;

	switch (json_object_get_type(v)) {
	case json_type_int:
		fprintf(f, "%lld", (long long)json_object_get_int64(v));
		break;
	case json_type_double:
		x = json_object_get_double(v);
		if (isfinite(x))
			fprintf(f, "%.15g", x);
		break;
	case json_type_boolean:
		fputs(json_object_get_boolean(v) ? "true" : "false", f);
		break;
	case json_type_string:
		bm_csv_field(f, json_object_get_string(v), true);
		break;
	case json_type_null:
		break;
	default:	/* a repetition without a mean: its JSON, as text */
		bm_csv_field(f, json_object_to_json_string_ext(v,
			 JSON_C_TO_STRING_PLAIN), true);
	}
}

/* Column id (kind, then key) named name, added in first-seen order (a
 * name taken numbered, as a spreadsheet does: "procedure (2)"); row takes
 * value there. */
static void put(struct sheet *s, json_object *row, char kind,
		const char *key, const char *name, json_object *value)
{
	char id[300], unique[320];
	int n = 1;

	snprintf(id, sizeof(id), "%c%s", kind, key);
	if (!json_object_object_get_ex(s->cols, id, NULL)) {
		snprintf(unique, sizeof(unique), "%s", name);
		while (json_object_object_get_ex(s->names, unique, NULL))
			snprintf(unique, sizeof(unique), "%s (%d)", name, ++n);
		json_object_object_add(s->names, unique, NULL);
		json_object_object_add(s->cols, id,
				       json_object_new_string(unique));
	}
	json_object_object_add(row, id, json_object_get(value));
}

static bool add_row(const struct front_row *r, void *ctx)
{
	struct sheet *s = ctx;
	json_object *row = json_object_new_object();
	const struct front_part *p;
	char name[300], stem[256], line[FRONT_LINE] = "";
	bool any = false;
	size_t i;

	for (i = 0; i < r->n_labels; i++)
		put(s, row, 'l', r->labels[i].key, r->labels[i].key,
		    r->labels[i].value);
	for (i = 0; i < r->n_fields; i++) {
		p = &r->fields[i];
		front_part_name(p, stem, sizeof(stem));
		/* a flag is a yes or no: no unit */
		snprintf(name, sizeof(name), "%s%s%s%s", stem,
			 *p->unit && !p->flag ? " (" : "",
			 p->flag ? "" : p->unit,
			 *p->unit && !p->flag ? ")" : "");
		put(s, row, 'f', p->key, name, p->value);
		any |= front_part_text(line, sizeof(line), p, ", ");
	}
	json_object_array_add(s->rows, row);
	/* as the headline says it: only where there is no value */
	if (r->why && !any)
		json_object_object_add(row, "w", json_object_new_string(r->why));
	return true;
}

int summary_csv(json_object *doc, FILE *f)
{
	json_object *proc = NULL, *id = NULL, *v;
	struct sheet s;
	size_t i, n;
	int ret = EXIT_OK;

	json_object_object_get_ex(doc, "procedure", &proc);
	json_object_object_get_ex(proc, "id", &id);
	s.procedure = json_object_get_string(id ? id : proc);
	s.cols = json_object_new_object();
	s.rows = json_object_new_array();
	s.names = json_object_new_object();
	json_object_object_add(s.names, "procedure", NULL);
	json_object_object_add(s.names, WHY, NULL);
	if (!front_headline(doc, add_row, &s)) {
		fprintf(stderr, "bmctl: %s: no headline is known for this "
			"procedure (--trials --csv: the trial log)\n",
			s.procedure ? s.procedure : "?");
		ret = EXIT_FAIL;
		goto out;
	}
	fputs("procedure", f);
	json_object_object_foreach(s.cols, cid, cname) {
		(void)cid;
		fputc(',', f);
		bm_csv_field(f, json_object_get_string(cname), false);
	}
	fputs("," WHY "\n", f);
	n = json_object_array_length(s.rows);
	for (i = 0; i < n; i++) {
		json_object *row = json_object_array_get_idx(s.rows, i);

		bm_csv_field(f, s.procedure ? s.procedure : "", true);
		json_object_object_foreach(s.cols, cid2, unused) {
			(void)unused;
			fputc(',', f);
			v = NULL;
			if (json_object_object_get_ex(row, cid2, &v))
				csv_value(f, v);
		}
		fputc(',', f);
		if (json_object_object_get_ex(row, "w", &v))
			csv_value(f, v);
		fputc('\n', f);
	}
	if (fflush(f) || ferror(f)) {
		fprintf(stderr, "bmctl: --csv: %s\n", strerror(errno));
		ret = EXIT_FAIL;
	}
out:
	json_object_put(s.cols);
	json_object_put(s.rows);
	json_object_put(s.names);
	return ret;
}

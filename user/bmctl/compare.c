// SPDX-License-Identifier: GPL-2.0
/*
 * bmctl compare A B [C ...]: what a comparison table of CSIT's gives
 * (the mean, the standard deviation, the difference in %) for the
 * headline each procedure declares in the result schema ("x-headline",
 * read by front.c), so the numbers compared are the ones a report opens
 * with, row by row (a frame size, an iteration, a run).  Which way is
 * better is not known in general (throughput up, latency down): the
 * verdict says only the direction beyond the threshold.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "front.h"

/* Differences this close to the threshold are on it: 101 against 100
 * is 1 %, whatever the binary fractions make of it. */
#define CMP_EPS 1e-9

struct walk {
	struct cmp *c;
	size_t in;		/* the result being read */
	bool failed;		/* out of memory */
};

static json_object *member(json_object *o, const char *k)
{
	json_object *v = NULL;

	return o && json_object_object_get_ex(o, k, &v) ? v : NULL;
}

/* The procedure a result is of ("?" when it does not say). */
static const char *procedure_of(json_object *doc)
{
	json_object *p = member(doc, "procedure"), *id = member(p, "id");

	return json_object_get_string(id ? id : p) ?: "?";
}

/* The row of (group, label, key), a new one at the end the first time;
 * NULL when memory runs out. */
static struct cmp_row *row_of(struct cmp *c, size_t group, const char *label,
			      const char *key)
{
	struct cmp_row *r;
	json_object *at;
	char id[600];

	snprintf(id, sizeof(id), "%zu\x1f%s\x1f%s", group, label, key);
	if (json_object_object_get_ex(c->index, id, &at))
		return &c->rows[json_object_get_int64(at)];
	if (c->n_rows == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 32;

		r = realloc(c->rows, cap * sizeof(*r));
		if (!r)
			return NULL;
		c->rows = r;
		c->cap = cap;
	}
	r = &c->rows[c->n_rows];
	memset(r, 0, sizeof(*r));
	r->group = group;
	snprintf(r->label, sizeof(r->label), "%s", label);
	snprintf(r->key, sizeof(r->key), "%s", key);
	r->unit = "";
	json_object_object_add(c->index, id,
			       json_object_new_int64((int64_t)c->n_rows++));
	return r;
}

/* front_headline's callback: every field but a flag is a row, so the
 * rows keep the baseline's order even where it has no number. */
static bool headline_fields(const struct front_row *fr, void *ctx)
{
	struct walk *w = ctx;
	const struct front_part *p;
	struct cmp_row *r;
	size_t i;

	for (i = 0; i < fr->n_fields; i++) {
		p = &fr->fields[i];
		if (p->flag)
			continue;
		r = row_of(w->c, fr->group, fr->label, p->key);
		if (!r) {
			w->failed = true;
			return false;
		}
		if (!r->name[0]) {
			front_part_name(p, r->name, sizeof(r->name));
			r->unit = p->unit;
		}
		if (p->numeric) {
			r->x[w->in] = p->number;
			r->has[w->in] = true;
		}
	}
	return true;
}

/* The number at path: its row is the path up to its last member (the
 * unit that member's suffix says, else its parent's: "latency_ns.mean"). */
static void path_number(struct walk *w, const char *path, double x)
{
	const char *dot = strrchr(path, '.'), *key = dot ? dot + 1 : path;
	char label[256], parent[256];
	struct cmp_row *r;
	const char *pd;

	snprintf(label, sizeof(label), "%.*s", dot ? (int)(dot - path) : 0,
		 path);
	r = row_of(w->c, 0, label, key);
	if (!r) {
		w->failed = true;
		return;
	}
	if (!r->name[0]) {
		snprintf(r->name, sizeof(r->name), "%s", key);
		r->unit = front_unit(key, NULL);
		pd = strrchr(label, '.');
		snprintf(parent, sizeof(parent), "%s", pd ? pd + 1 : label);
		parent[strcspn(parent, "[")] = '\0';
		if (!*r->unit)
			r->unit = front_unit(parent, NULL);
	}
	r->x[w->in] = x;
	r->has[w->in] = true;
}

/* Every finite number under o by its path: members by '.', array
 * entries by [N] from 0, as the schema's keys are written. */
static void walk_numbers(struct walk *w, json_object *o, const char *path)
{
	char sub[256];
	size_t i;
	double x;

	if (json_object_is_type(o, json_type_array)) {
		for (i = 0; i < json_object_array_length(o); i++) {
			snprintf(sub, sizeof(sub), "%s[%zu]", path, i);
			walk_numbers(w, json_object_array_get_idx(o, i), sub);
		}
	} else if (json_object_is_type(o, json_type_object)) {
		json_object_object_foreach(o, k, v) {
			snprintf(sub, sizeof(sub), "%s%s%s", path,
				 *path ? "." : "", k);
			walk_numbers(w, v, sub);
		}
	} else if (json_object_is_type(o, json_type_int) ||
		   json_object_is_type(o, json_type_double)) {
		x = json_object_get_double(o);
		if (isfinite(x))
			path_number(w, path, x);
	}
}

/* r's mean, sample standard deviation, differences from the baseline
 * (result 0) and verdict over n results. */
static void row_stats(struct cmp_row *r, size_t n, double threshold)
{
	bool up = false, down = false, missing = false;
	double sum = 0, sq = 0, a = r->x[0];
	size_t i;

	r->n = 0;
	for (i = 0; i < n; i++) {
		if (!r->has[i]) {
			missing = true;
			continue;
		}
		sum += r->x[i];
		r->n++;
	}
	r->mean = r->n ? sum / r->n : NAN;
	for (i = 0; i < n; i++)
		if (r->has[i])
			sq += (r->x[i] - r->mean) * (r->x[i] - r->mean);
	/* the sample's: n - 1, as CSIT's comparison tables */
	r->stdev = r->n >= 2 ? sqrt(sq / (r->n - 1)) : NAN;
	for (i = 0; i < n; i++) {
		r->has_diff[i] = r->has[0] && r->has[i] &&
				 (a != 0 || r->x[i] == 0);
		if (!r->has_diff[i])
			r->diff[i] = NAN;
		else
			r->diff[i] = a ? (r->x[i] - a) / fabs(a) * 100 : 0;
		if (!i || !r->has[0] || !r->has[i])
			continue;
		/* from 0 to anything is beyond any threshold */
		if (r->has_diff[i] &&
		    fabs(r->diff[i]) <= threshold + CMP_EPS)
			continue;
		up |= r->x[i] > a;
		down |= r->x[i] < a;
	}
	r->verdict = missing ? CMP_MISSING : up && down ? CMP_MIXED :
		     up ? CMP_HIGHER : down ? CMP_LOWER : CMP_SAME;
}

/* p's value in a result's "params" as text ("unset" without one). */
static const char *param_text(json_object *doc, const char *p)
{
	json_object *v = member(member(doc, "params"), p);

	return v ? json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN |
						  JSON_C_TO_STRING_NOSLASHESCAPE)
		 : "unset";
}

/*
 * The parameters the results were run with that differ among them: what
 * a sweep varied (RFC 2544 §12's random_macs of 1, 1000 and 10000 flows
 * through a vswitch), so that each result is named by it, not only by
 * its file.  The first CMP_MAX_VARIED in A's order, then any only the
 * others have.
 */
static void find_varied(struct cmp *c, json_object *const *docs, size_t n)
{
	size_t i, d, k, len;
	bool num;

	for (d = 0; d < n && c->n_varied < CMP_MAX_VARIED; d++) {
		json_object *params = member(docs[d], "params");

		if (!json_object_is_type(params, json_type_object))
			continue;
		json_object_object_foreach(params, key, v) {
			(void)v;
			for (i = 0; i < n; i++)
				if (strcmp(param_text(docs[i], key),
					   param_text(docs[0], key)))
					break;
			for (k = 0; k < c->n_varied; k++)
				if (!strcmp(c->varied[k], key))
					break;
			if (i == n || k < c->n_varied ||
			    c->n_varied == CMP_MAX_VARIED)
				continue;
			snprintf(c->varied[c->n_varied++], sizeof(c->varied[0]),
				 "%s", key);
		}
	}
	num = c->n_varied == 1;
	for (i = 0; i < n; i++) {
		len = 0;
		for (k = 0; k < c->n_varied && len < sizeof(c->varied_as[0]);
		     k++)
			len += snprintf(c->varied_as[i] + len,
					sizeof(c->varied_as[0]) - len,
					"%s%s %.60s", k ? ", " : "",
					c->varied[k],
					param_text(docs[i], c->varied[k]));
		if (num) {
			json_object *v = member(member(docs[i], "params"),
						c->varied[0]);

			num = json_object_is_type(v, json_type_int) ||
			      json_object_is_type(v, json_type_double);
			c->sweep_x[i] = num ? json_object_get_double(v) : 0;
		}
	}
	c->sweep = num;
}

int cmp_build(struct cmp *c, json_object *const *docs, size_t n,
	      double threshold, bool all, char *why, size_t size)
{
	struct walk w = { c, 0, false };
	size_t i, keep;

	memset(c, 0, sizeof(*c));
	c->n_in = n;
	c->threshold = threshold;
	c->all = all;
	c->procedure = procedure_of(docs[0]);
	for (i = 1; i < n; i++) {
		if (strcmp(procedure_of(docs[i]), c->procedure)) {
			snprintf(why, size, "%c is %s, A is %s: compare "
				 "results of one procedure", (int)('A' + i),
				 procedure_of(docs[i]), c->procedure);
			return -1;
		}
	}
	find_varied(c, docs, n);
	c->index = json_object_new_object();
	for (w.in = 0; w.in < n && !w.failed; w.in++) {
		if (all)
			walk_numbers(&w, member(docs[w.in], "results"), "");
		else
			front_headline(docs[w.in], headline_fields, &w);
	}
	json_object_put(c->index);
	c->index = NULL;
	if (w.failed) {
		snprintf(why, size, "out of memory");
		return -1;
	}
	/* a field no result has a number in: nothing to compare */
	for (i = keep = 0; i < c->n_rows; i++) {
		row_stats(&c->rows[i], n, threshold);
		if (!c->rows[i].n)
			continue;
		c->differ += c->rows[i].verdict != CMP_SAME;
		if (keep != i)
			c->rows[keep] = c->rows[i];
		keep++;
	}
	c->n_rows = keep;
	if (!keep) {
		snprintf(why, size, "%s: no number %s to compare%s",
			 c->procedure, all ? "in the results" :
			 "in the headline", all ? "" :
			 " (--all: every number of the results)");
		return -1;
	}
	return 0;
}

void cmp_free(struct cmp *c)
{
	json_object_put(c->index);
	free(c->rows);
	memset(c, 0, sizeof(*c));
}

const char *cmp_verdict_name(enum cmp_verdict v)
{
	static const char *const names[] = { "same", "higher", "lower",
					     "mixed", "missing" };

	return v <= CMP_MISSING ? names[v] : "?";
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The charts of a procedure family's own results, as the result schema's
 * "x-charts" declare them (html.c draws the RFC 2544 ones):
 *   - "rows": a value of every row of one or more result arrays (a path
 *     with "*" for each array crossed: "runs.*", "per_size.*.repetitions.*")
 *     against a key of the row or of a row it sits in (a run's "test", a
 *     repetition's frame size), a line per key, per array or per value of
 *     a "series" key (a queue, a class): RFC 7640's per-run BSA, shaper
 *     rate and queue shares, RFC 8239's latency and PDV per repetition;
 *   - "lanes": when each of a list's members sent (RFC 7640 concurrent's
 *     instances and their transmit windows), a lane each;
 *   - "search-bounds": a search's bounds as its trials found them, against
 *     the trial time spent (MLRsearch, RFC 9971), beside the trials'
 *     loads, which at a search's end lie within 0.5 % of one another.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "chart.h"
#include "family_charts.h"
#include "front.h"
#include "page.h"
#include "rtable.h"

#define MAX_DEPTH	8
#define MAX_LANES	16

static json_object *jget(json_object *o, const char *k)
{
	json_object *v = NULL;

	return o && json_object_object_get_ex(o, k, &v) ? v : NULL;
}

/* k's number (or its mean) in the innermost of rows[0..depth] that has
 * one. */
static bool num_in(json_object *const *rows, int depth, const char *k,
		   double *x)
{
	json_object *v;

	for (; depth >= 0; depth--) {
		v = jget(rows[depth], k);
		/* repetitions summed up ({n, mean, ...}): their mean */
		if (json_object_is_type(v, json_type_object))
			v = jget(v, "mean");
		if (v && (json_object_is_type(v, json_type_double) ||
			  json_object_is_type(v, json_type_int))) {
			*x = json_object_get_double(v);
			return isfinite(*x);
		}
	}
	return false;
}

/* k's value as text ("EF", "1") in the innermost row that has it. */
static const char *text_in(json_object *const *rows, int depth,
			   const char *k)
{
	for (; depth >= 0; depth--)
		if (jget(rows[depth], k))
			return json_object_get_string(jget(rows[depth], k));
	return NULL;
}

struct rows_walk {
	json_object *keys;
	const char *x, *split, *name;	/* name: the array's, with several */
	struct series *s;
	int ns;
	double m;			/* the largest |y| */
};

/* The series of (key, split value) in w, a new one the first time. */
static struct series *series_of(struct rows_walk *w, const char *key,
				const char *split)
{
	char name[64], words[48] = "";
	double div;
	size_t stem = 0;
	int i, prec;

	/* a key as words without its unit: "latency p99" */
	if (key && !split) {
		rt_unit(key, 1, &div, &prec, &stem);
		snprintf(words, sizeof(words), "%.*s", (int)(stem ? stem :
			 strlen(key)), key);
		for (i = 0; words[i]; i++)
			words[i] = words[i] == '_' ? ' ' : words[i];
	}
	snprintf(name, sizeof(name), "%s%s%s%s%s", w->name ? w->name : "",
		 w->name && (split || key) ? " " : "", split ? w->split : "",
		 split ? " " : "", split ? split : words);
	for (i = 0; i < w->ns; i++)
		if (!strcmp(w->s[i].name, name))
			return &w->s[i];
	if (w->ns == CHART_MAX_SER)
		return NULL;
	memset(&w->s[w->ns], 0, sizeof(w->s[0]));
	snprintf(w->s[w->ns].name, sizeof(w->s[0].name), "%s", name);
	return &w->s[w->ns++];
}

/* Every row the path's remaining segments reach from rows[depth] (the
 * objects and arrays on the way down in rows[0..depth]). */
static void rows_visit(struct rows_walk *w, json_object **rows, int depth,
		       const char *path)
{
	json_object *next;
	const char *dot;
	char seg[64];
	double x, y;
	size_t i, n, j;

	if (!*path) {
		if (w->x && !num_in(rows, depth, w->x, &x))
			return;
		n = json_object_array_length(w->keys);
		for (j = 0; j < n; j++) {
			const char *key = json_object_get_string(
				json_object_array_get_idx(w->keys, j));
			struct series *s;

			if (!key || !num_in(rows, depth, key, &y))
				continue;
			s = series_of(w, n > 1 ? key : NULL,
				      w->split ? text_in(rows, depth, w->split)
					       : NULL);
			if (!s)
				continue;
			/* no x key: the row's place in its series */
			chart_add(s, w->x ? x : (double)s->n + 1, y, false);
			w->m = fmax(w->m, fabs(y));
		}
		return;
	}
	dot = strchr(path, '.');
	n = dot ? (size_t)(dot - path) : strlen(path);
	snprintf(seg, sizeof(seg), "%.*s", (int)n, path);
	path += n + (dot != NULL);
	if (depth + 1 >= MAX_DEPTH)
		return;
	if (strcmp(seg, "*")) {
		next = jget(rows[depth], seg);
		if (next) {
			rows[depth + 1] = next;
			rows_visit(w, rows, depth + 1, path);
		}
		return;
	}
	if (!json_object_is_type(rows[depth], json_type_array))
		return;
	for (i = 0; i < json_object_array_length(rows[depth]); i++) {
		rows[depth + 1] = json_object_array_get_idx(rows[depth], i);
		rows_visit(w, rows, depth + 1, path);
	}
}

/* The points of s[0..ns) (of key, in unit or key's suffix's, up to m)
 * in the unit the report's headline shows m in; that unit's name. */
static const char *scale(struct series *s, int ns, const char *key,
			 const char *unit, double m, char *buf, size_t size)
{
	double mul, div;
	const char *u;
	size_t k;
	int i, prec;

	u = front_scale(m, key, unit, &mul, &div, &prec);
	for (i = 0; i < ns; i++)
		for (k = 0; k < s[i].n; k++)
			s[i].y[k] = s[i].y[k] * mul / div;
	snprintf(buf, size, "%s", *u ? u : key);
	return buf;
}

static void rows_chart(FILE *f, json_object *res, json_object *spec,
		       struct series *s)
{
	json_object *paths = jget(spec, "rows"), *rows[MAX_DEPTH];
	struct rows_walk w = { jget(spec, "keys"),
			       json_object_get_string(jget(spec, "x")),
			       json_object_get_string(jget(spec, "series")),
			       NULL, s, 0, 0 };
	const char *title = json_object_get_string(jget(spec, "title"));
	const char *xl = json_object_get_string(jget(spec, "x_title"));
	char yl[64];
	size_t i, np;

	if (!title || !json_object_is_type(w.keys, json_type_array) ||
	    !json_object_array_length(w.keys))
		return;
	np = json_object_is_type(paths, json_type_array) ?
	     json_object_array_length(paths) : 0;
	for (i = 0; i < np; i++) {
		const char *p = json_object_get_string(
			json_object_array_get_idx(paths, i));
		char name[32];

		if (!p)
			continue;
		/* several arrays: each names its lines ("compliant") */
		snprintf(name, sizeof(name), "%.*s", (int)strcspn(p, "."), p);
		w.name = np > 1 ? name : NULL;
		rows[0] = res;
		rows_visit(&w, rows, 0, p);
	}
	if (!w.ns)
		return;
	chart_draw(f, title, xl ? xl : w.x ? w.x : "row", scale(s, w.ns,
		   json_object_get_string(json_object_array_get_idx(w.keys,
								    0)),
		   json_object_get_string(jget(spec, "unit")), w.m, yl,
		   sizeof(yl)), s, w.ns, !jget(spec, "points"), true, NULL);
}

/* RFC 7640 concurrent: a lane a member of rows, its windows [from, to]
 * in seconds as bars, named by the members the spec's label lists. */
static void lanes_chart(FILE *f, json_object *res, json_object *spec)
{
	static struct lane lanes[MAX_LANES];
	json_object *a = jget(res, json_object_get_string(jget(spec, "rows"))),
		    *label = jget(spec, "label"), *e, *win, *pair;
	const char *wk = json_object_get_string(jget(spec, "windows"));
	const char *title = json_object_get_string(jget(spec, "title"));
	size_t i, k, n = 0, len;

	if (!title || !wk || !json_object_is_type(a, json_type_array))
		return;
	for (i = 0; i < json_object_array_length(a) && n < MAX_LANES; i++) {
		struct lane *l = &lanes[n];

		e = json_object_array_get_idx(a, i);
		win = jget(e, wk);
		if (!json_object_is_type(win, json_type_array))
			continue;
		memset(l, 0, sizeof(*l));
		len = 0;
		for (k = 0; k < json_object_array_length(label) &&
		     len < sizeof(l->name); k++) {
			const char *lk = json_object_get_string(
				json_object_array_get_idx(label, k));

			len += (size_t)snprintf(l->name + len,
						sizeof(l->name) - len,
						"%s%s", len ? " " : "",
						lk && jget(e, lk) ?
						json_object_get_string(
							jget(e, lk)) : "?");
		}
		for (k = 0; k < json_object_array_length(win) &&
		     l->n < CHART_MAX_WIN; k++) {
			double from, to;

			pair = json_object_array_get_idx(win, k);
			if (json_object_array_length(pair) != 2)
				continue;
			from = json_object_get_double(
				json_object_array_get_idx(pair, 0));
			to = json_object_get_double(
				json_object_array_get_idx(pair, 1));
			if (!isfinite(from) || !isfinite(to) || to < from)
				continue;
			l->from[l->n] = from;
			l->to[l->n++] = to;
		}
		n++;
	}
	chart_lanes(f, title, "time from the first transmission (s)", lanes,
		    n);
}

/*
 * A search's bounds as its trials found them, for each loss ratio the
 * spec lists: the highest load whose trial lost no more than it (lower)
 * and the lowest that lost more (upper), against the trial time spent
 * so far: how a search closes in, where its trials' loads alone look
 * flat.  A shorter trial's bound counts as the trial found it, as
 * MLRsearch's early phases use them.
 */
static void bounds_chart(FILE *f, json_object *doc, json_object *spec,
			 struct series *s)
{
	json_object *trials = jget(doc, "trials"), *lrs = jget(spec,
							      "loss_ratios");
	const char *title = json_object_get_string(jget(spec, "title"));
	double t, d, rate, lr, lost, sent, lo, hi, target, m = 0;
	char yl[64];
	size_t i, j, nl;
	int ns = 0;

	if (!title || !json_object_is_type(trials, json_type_array) ||
	    !json_object_is_type(lrs, json_type_array))
		return;
	nl = json_object_array_length(lrs);
	for (j = 0; j < nl && ns + 2 <= CHART_MAX_SER; j++) {
		target = json_object_get_double(
			json_object_array_get_idx(lrs, j));
		memset(&s[ns], 0, 2 * sizeof(s[0]));
		snprintf(s[ns].name, sizeof(s[0].name),
			 "lower bound, loss ratio %g", target);
		snprintf(s[ns + 1].name, sizeof(s[0].name),
			 "upper bound, loss ratio %g", target);
		t = 0;
		lo = -1;
		hi = INFINITY;
		for (i = 0; i < json_object_array_length(trials); i++) {
			json_object *tr = json_object_array_get_idx(trials, i);
			json_object *row[1] = { tr };

			if (!num_in(row, 0, "rate_fps", &rate) || rate <= 0)
				continue;
			if (!num_in(row, 0, "duration_s", &d))
				d = 0;
			t += d;
			if (!num_in(row, 0, "loss_ratio", &lr)) {
				if (!num_in(row, 0, "lost", &lost) ||
				    !num_in(row, 0, "intended", &sent) ||
				    sent <= 0)
					continue;
				lr = lost / sent;
			}
			if (lr <= target)
				lo = fmax(lo, rate);
			else
				hi = fmin(hi, rate);
			if (lo >= 0)
				chart_add(&s[ns], t, lo, false);
			if (isfinite(hi))
				chart_add(&s[ns + 1], t, hi, false);
			m = fmax(m, rate);
		}
		ns += 2;
	}
	if (!ns)
		return;
	chart_draw(f, title, "trial time spent (s)",
		   scale(s, ns, "rate_fps", NULL, m, yl, sizeof(yl)), s, ns,
		   true, false, NULL);
}

bool family_chart(FILE *f, json_object *doc, json_object *spec,
		  struct series *s)
{
	const char *kind = json_object_get_string(jget(spec, "kind"));
	json_object *res = jget(doc, "results");

	if (!kind)
		return false;
	if (!strcmp(kind, "rows"))
		rows_chart(f, res, spec, s);
	else if (!strcmp(kind, "lanes"))
		lanes_chart(f, res, spec);
	else if (!strcmp(kind, "search-bounds"))
		bounds_chart(f, doc, spec, s);
	else
		return false;
	return true;
}

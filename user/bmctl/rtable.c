// SPDX-License-Identifier: GPL-2.0
/*
 * The shared table model of the text and HTML reports (rtable.h).  Units
 * follow the member name's suffix, the way results name their numbers
 * (Documentation/results.md): _ns, _bps, _fps, _pct, _s, _bytes.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "print.h"
#include "rtable.h"

json_object *rt_get(json_object *o, const char *key)
{
	json_object *v = NULL;

	if (o && json_object_is_type(o, json_type_object))
		json_object_object_get_ex(o, key, &v);
	return v;
}

static bool is_num(json_object *v)
{
	return json_object_is_type(v, json_type_int) ||
	       json_object_is_type(v, json_type_double);
}

bool rt_is_nested(json_object *v)
{
	if (json_object_is_type(v, json_type_object))
		return true;
	return json_object_is_type(v, json_type_array) &&
	       json_object_array_length(v) &&
	       json_object_is_type(json_object_array_get_idx(v, 0),
				   json_type_object);
}

void rt_title(char *buf, size_t len, const char *name,
	      const char *const *keys, json_object *row, size_t i,
	      const char *k)
{
	json_object *fs = rt_get(row, "frame_size");
	json_object *it = rt_get(row, "iteration");

	if (keys)
		snprintf(buf, len, "%s %s: %s", name, keys[i], k);
	else if (is_num(fs) && is_num(it))
		snprintf(buf, len, "%s, iteration %lld, %lld B: %s", name,
			 (long long)json_object_get_int64(it),
			 (long long)json_object_get_int64(fs), k);
	else if (is_num(fs))
		snprintf(buf, len, "%s, %lld B: %s", name,
			 (long long)json_object_get_int64(fs), k);
	else if (is_num(it))
		snprintf(buf, len, "%s, iteration %lld: %s", name,
			 (long long)json_object_get_int64(it), k);
	else
		snprintf(buf, len, "%s[%zu]: %s", name, i + 1, k);
}

bool rt_long_text(json_object *const *rows, size_t n, const char *key)
{
	size_t i;

	for (i = 0; i < n; i++) {
		json_object *v = rt_get(rows[i], key);

		if (json_object_is_type(v, json_type_string) &&
		    strlen(json_object_get_string(v)) > RT_LONG_TEXT)
			return true;
	}
	return false;
}

/* A family of units: the suffix that selects it, then up to four
 * (name, divisor) steps, smallest first; the largest step not above the
 * column's largest magnitude is used. */
struct unit_family {
	const char *suffix;
	int prec;			/* decimals above the first step */
	const char *name[4];
	double div[4];
};

static const struct unit_family families[] = {
	{ "_ns", 3, { "ns", "µs", "ms", "s" }, { 1, 1e3, 1e6, 1e9 } },
	{ "_bps", 3, { "bit/s", "kbit/s", "Mbit/s", "Gbit/s" },
	  { 1, 1e3, 1e6, 1e9 } },
	{ "_fps", -1, { "fps" }, { 1 } },
	{ "_pct", -1, { "%" }, { 1 } },
	{ "_s", -1, { "s" }, { 1 } },
	{ "_bytes", -1, { "B" }, { 1 } },
};

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a > b && !strcmp(s + a - b, suffix);
}

static void range_add(json_object *v, double *max, double *min)
{
	double x;

	if (!is_num(v))
		return;
	x = fabs(json_object_get_double(v));
	if (!isfinite(x))
		return;
	if (x > *max)
		*max = x;
	if (x > 0 && x < *min)
		*min = x;
}

/* The largest magnitude of member key over the rows (0: none), and the
 * smallest nonzero one (*min, INFINITY: none). */
static double col_max(json_object *const *rows, size_t n, const char *key,
		      double *min)
{
	double m = 0;
	size_t i, j;

	*min = INFINITY;
	for (i = 0; i < n; i++) {
		json_object *v = rt_get(rows[i], key);

		range_add(v, &m, min);
		if (!json_object_is_type(v, json_type_array))
			continue;
		for (j = 0; j < json_object_array_length(v); j++)
			range_add(json_object_array_get_idx(v, j), &m, min);
	}
	return m;
}

const char *rt_unit(const char *key, double m, double *div, int *prec,
		    size_t *stem)
{
	size_t f, k;

	for (f = 0; f < sizeof(families) / sizeof(families[0]); f++)
		if (ends_with(key, families[f].suffix))
			break;
	if (f == sizeof(families) / sizeof(families[0]))
		return NULL;
	for (k = 0; k + 1 < 4 && families[f].name[k + 1] &&
		    m >= families[f].div[k + 1]; k++)
		;
	*div = families[f].div[k];
	*prec = k ? families[f].prec : -1;
	*stem = strlen(key) - strlen(families[f].suffix);
	return families[f].name[k];
}

/* Column c's unit for values of magnitude min (nonzero) to m: the
 * unit m calls for, with decimals enough for three digits of min (a
 * histogram's 4 µs edges in a column of milliseconds). */
static void set_unit(struct rt_col *c, double m, double min)
{
	const char *unit;
	size_t stem;

	snprintf(c->head, sizeof(c->head), "%s", c->key);
	c->div = 1;
	c->prec = -1;
	if (c->left)
		return;
	unit = rt_unit(c->key, m, &c->div, &c->prec, &stem);
	if (!unit)
		return;
	snprintf(c->head, sizeof(c->head), "%.*s (%s)", (int)stem, c->key,
		 unit);
	if (c->prec >= 0 && isfinite(min) && min / c->div < 1) {
		int want = (int)ceil(-log10(min / c->div)) + 2;

		c->prec = want > 6 ? 6 : want > c->prec ? want : c->prec;
	}
}

void rt_scalar(struct rt_col *c, const char *key, json_object *v)
{
	json_object *row = json_object_new_object();
	double m, min;

	json_object_object_add(row, key, json_object_get(v));
	memset(c, 0, sizeof(*c));
	c->key = key;
	c->left = json_object_is_type(v, json_type_string);
	m = col_max(&row, 1, key, &min);
	set_unit(c, m, min);
	json_object_put(row);
}

bool rt_long_line(const struct rt_table *t, size_t i, const char *key)
{
	size_t j;

	for (j = 0; j < t->nlong; j++)
		if (!strcmp(t->longk[j], key))
			return !i || !t->long_same[j];
	return t->long_full && rt_long_text(t->rows, t->n, key) &&
	       (!i || !rt_same(t->rows, t->n, key));
}

bool rt_same(json_object *const *rows, size_t n, const char *key)
{
	const char *first;
	char *a;
	size_t i;
	bool same = true;

	if (n < 2 || !rt_get(rows[0], key))
		return false;
	first = json_object_to_json_string_ext(rt_get(rows[0], key),
					       JSON_C_TO_STRING_PLAIN);
	a = strdup(first);
	if (!a)
		return false;
	for (i = 1; i < n && same; i++) {
		json_object *v = rt_get(rows[i], key);

		same = v && !strcmp(a, json_object_to_json_string_ext(
					       v, JSON_C_TO_STRING_PLAIN));
	}
	free(a);
	return same;
}

/* The unit suffix of column c ("_bps" of "throughput_l1_bps"), or "". */
static const char *suffix_of(const struct rt_col *c)
{
	double div;
	size_t stem;
	int prec;

	if (c->left || !rt_unit(c->key, 1, &div, &prec, &stem))
		return "";
	return c->key + stem;
}

/* Columns of one dimension (every _bps, every _ns ...) take one unit,
 * the one their largest value needs: a row read across says 1.000
 * Gbit/s and 0.762 Gbit/s, not 1.000 Gbit/s beside 761.905 Mbit/s. */
static void same_units(struct rt_table *t, const double *mx,
		       const double *mn)
{
	double m, lo;
	int a, b;

	for (a = 0; a < t->nc; a++) {
		const char *sa = suffix_of(&t->cols[a]);

		if (!*sa)
			continue;
		m = mx[a];
		lo = mn[a];
		for (b = 0; b < t->nc; b++) {
			if (b == a || strcmp(sa, suffix_of(&t->cols[b])))
				continue;
			m = fmax(m, mx[b]);
			lo = fmin(lo, mn[b]);
		}
		set_unit(&t->cols[a], m, lo);
	}
}

/* May column c go under the table, once: not a number, and the same in
 * every row. */
static bool foldable(json_object *const *rows, size_t n,
		     const struct rt_col *c)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (is_num(rt_get(rows[i], c->key)))
			return false;
	return rt_same(rows, n, c->key);
}

void rt_build(struct rt_table *t, json_object *const *rows, size_t n,
	      const char *first, bool fold)
{
	double t_max[RT_MAX_COLS] = { 0 }, t_min[RT_MAX_COLS];
	size_t i;
	int c, nc = 0;

	memset(t, 0, sizeof(*t));
	for (c = 0; c < RT_MAX_COLS; c++)
		t_min[c] = INFINITY;
	t->rows = rows;
	t->n = n;
	if (first) {
		t->cols[nc].key = first;
		t->cols[nc].left = true;
		set_unit(&t->cols[nc], 0, INFINITY);
		nc++;
	}
	for (i = 0; i < n; i++) {
		json_object_object_foreach(rows[i], k, v) {
			size_t j;

			if (rt_is_nested(v))
				continue;
			for (c = 0; c < nc && strcmp(t->cols[c].key, k); c++)
				;
			if (c < nc)
				continue;
			/* each key's rows are scanned once, not once a row:
			 * a 1136-trial result took 2 s
			 */
			for (j = 0; j < t->nlong && strcmp(t->longk[j], k); j++)
				;
			if (j < t->nlong)
				continue;
			if (rt_long_text(rows, n, k)) {
				if (t->nlong < RT_MAX_COLS) {
					t->long_same[t->nlong] =
						rt_same(rows, n, k);
					t->longk[t->nlong++] = k;
				} else {
					t->long_full = true;
				}
				continue;
			}
			if (nc == RT_MAX_COLS)
				continue;
			t->cols[nc].key = k;
			t->cols[nc].left = json_object_is_type(
				v, json_type_string);
			double m, min;

			m = col_max(rows, n, t->cols[nc].key, &min);
			set_unit(&t->cols[nc], m, min);
			t_max[nc] = m;
			t_min[nc] = min;
			nc++;
		}
	}
	t->nc = nc;
	same_units(t, t_max, t_min);
	if (!fold)
		return;
	/* Fold the constant words out (a stream type, a verdict), unless
	 * nothing would be left; a number stays in its column even when
	 * every row has it: a measurement equal at every size (a
	 * back-to-back burst the buffer never limits) is the result */
	for (c = first ? 1 : 0; c < nc; c++)
		if (!foldable(rows, n, &t->cols[c]))
			break;
	if (c == nc)
		return;
	t->nc = 0;
	for (c = 0; c < nc; c++) {
		if ((!first || c) && foldable(rows, n, &t->cols[c]))
			t->same[t->ns++] = t->cols[c];
		else
			t->cols[t->nc++] = t->cols[c];
	}
}

/* Arrays longer than this are counted, not listed (repetition_latency_ns
 * of 20 repetitions; the JSON result holds them all). */
#define RT_MAX_LIST 4

static int one(const struct rt_col *c, json_object *v, char *buf, size_t len)
{
	if (c->prec < 0 || !is_num(v))
		return snprintf(buf, len, "%s", pr_fmt_json(v));
	return snprintf(buf, len, "%.*f", c->prec,
			json_object_get_double(v) / c->div);
}

const char *rt_cell(const struct rt_col *c, json_object *v, char *buf,
		    size_t len)
{
	size_t i, n, off = 0;

	if (!json_object_is_type(v, json_type_array)) {
		one(c, v, buf, len);
		return buf;
	}
	n = json_object_array_length(v);
	if (n > RT_MAX_LIST) {
		snprintf(buf, len, "(%zu values)", n);
		return buf;
	}
	buf[0] = '\0';
	for (i = 0; i < n && off + 1 < len; i++) {
		int w;

		if (i)
			off += snprintf(buf + off, len - off, ", ");
		if (off + 1 >= len)
			break;
		w = one(c, json_object_array_get_idx(v, i), buf + off,
			len - off);
		off += w > 0 ? (size_t)w : 0;
	}
	if (!n)
		snprintf(buf, len, "-");
	return buf;
}

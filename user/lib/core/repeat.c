// SPDX-License-Identifier: GPL-2.0
/*
 * The repeatability block of bm_repeat.h.  Two passes (mean first), not a
 * running sum of squares: repetitions of a buffer measurement differ in
 * the last frames of millions of bytes, which a sum of squares would lose.
 */
#include <math.h>

#include "bm_json.h"
#include "bm_repeat.h"

void bm_repeat_of(const double *x, size_t n, struct bm_repeat *r)
{
	double s = 0.0, ss = 0.0;
	size_t i, m = 0;

	/* over the repetitions that measured something: a NaN (nothing to
	 * estimate from) made the mean NaN, rsd_ok false and the result
	 * say "RSD 0.0 % >= 10 %" of values that were all null */
	*r = (struct bm_repeat){ .n = n, .rsd_ok = true, .min = NAN,
				 .mean = NAN, .max = NAN };
	for (i = 0; i < n; i++) {
		if (!isfinite(x[i]))
			continue;
		s += x[i];
		r->min = m ? fmin(r->min, x[i]) : x[i];
		r->max = m ? fmax(r->max, x[i]) : x[i];
		m++;
	}
	r->n_valid = m;
	if (!m) {
		r->rsd_pct = NAN;
		if (!n)
			r->min = r->mean = r->max = r->rsd_pct = 0.0;
		return;
	}
	r->mean = s / (double)m;
	if (m < 2)
		return;
	for (i = 0; i < n; i++)
		if (isfinite(x[i]))
			ss += (x[i] - r->mean) * (x[i] - r->mean);
	r->stddev = sqrt(ss / (double)(m - 1));
	if (r->mean != 0.0)
		r->rsd_pct = 100.0 * r->stddev / fabs(r->mean);
	r->rsd_ok = r->rsd_pct < BM_RSD_LIMIT_PCT;
}

double bm_pv_pct(double x1, double x2)
{
	return x1 != 0.0 ? (x2 - x1) / x1 * 100.0 : 0.0;
}

/* x as JSON: null when it is not finite (NaN: nothing to estimate from),
 * as bm_json_add_double() writes it; json-c would write NaN, not JSON. */
static json_object *number(double x)
{
	return isfinite(x) ? json_object_new_double(x) : NULL;
}

json_object *bm_repeat_to_json(const struct bm_repeat *r, const double *x)
{
	json_object *o = json_object_new_object(), *v, *pv;
	size_t i;

	if (!o)
		return NULL;
	bm_json_add_u64(o, "n", r->n);
	bm_json_add_u64(o, "n_valid", r->n_valid);
	bm_json_add_double(o, "min", r->min);
	bm_json_add_double(o, "mean", r->mean);
	bm_json_add_double(o, "max", r->max);
	bm_json_add_double(o, "stddev", r->stddev);
	bm_json_add_double(o, "rsd_pct", r->rsd_pct);
	bm_json_add_bool(o, "rsd_ok", r->rsd_ok);
	v = json_object_new_array();
	pv = json_object_new_array();
	for (i = 0; i < r->n; i++) {
		json_object_array_add(v, number(x[i]));
		if (i)
			json_object_array_add(pv, number(bm_pv_pct(x[i - 1],
								  x[i])));
	}
	json_object_object_add(o, "values", v);
	json_object_object_add(o, "pv_pct", pv);
	return o;
}

int bm_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The repeatability block (SPEC REQ-STAT-5, RFC 8239 §1.2 and §3.3): what
 * every repeated test reports about the spread of its repetitions, so that
 * a reader can tell a stable result from a lucky one.
 */
#ifndef BM_REPEAT_H
#define BM_REPEAT_H

#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

/* RFC 8239 §1.2: the relative standard deviation SHOULD be below 10 %. */
#define BM_RSD_LIMIT_PCT	10.0

struct bm_repeat {
	size_t n;
	size_t n_valid;		/* values that are finite: the rest (NaN,
				 * nothing estimated) are left out */
	double min, mean, max;	/* NaN when no value is finite */
	double stddev;		/* sample (n_valid - 1); 0 when n_valid < 2 */
	double rsd_pct;		/* 100 * stddev / mean; 0 when mean is 0,
				 * NaN when no value is finite */
	bool rsd_ok;		/* rsd_pct < BM_RSD_LIMIT_PCT, or fewer than
				 * two finite values (nothing to judge) */
};

/* The block of the n values x[0..n-1] over the finite ones (n may be 0:
 * all zero, rsd_ok). */
void bm_repeat_of(const double *x, size_t n, struct bm_repeat *r);

/*
 * Percentage of variation (SPEC 2.6, RFC 8239 §3.3): (x2 - x1) / x1 * 100
 * of the current value x2 against the previous x1; 0 when x1 is 0.
 */
double bm_pv_pct(double x1, double x2);

/*
 * New JSON object for r and its values x: n, n_valid, min, mean, max,
 * stddev, rsd_pct, rsd_ok, values, and pv_pct (each repetition's PV against the
 * one before it: n - 1 numbers); a value or PV that is not finite (a
 * repetition nothing was estimated from) is null.  NULL when out of
 * memory.
 */
json_object *bm_repeat_to_json(const struct bm_repeat *r, const double *x);

/* qsort()'s comparator for ascending doubles; of an element that starts
 * with a double (a pair, a struct), by that double. */
int bm_cmp_double(const void *a, const void *b);

#endif /* BM_REPEAT_H */

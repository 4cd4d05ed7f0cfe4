// SPDX-License-Identifier: GPL-2.0
/*
 * The discrete loads of the CSIT-identical selection
 * (mlr9971_csit_load.h): the scale, rounding, the interval split and the
 * limit handling, as FD.io CSIT's MLRsearch (commit 78e52b9c8a) does
 * them.  RFC 9971 leaves all of this to the implementation (§4.9.2);
 * every expression keeps CSIT's order of operations so that each load is
 * the same double.
 */
#include <errno.h>
#include <math.h>

#include "mlr9971_csit_load.h"

/* Each Goal Width must come out as between 0.99 and 0.999999 of a whole
 * number of steps. */
#define Q_LOWER		0.99
#define Q_UPPER		0.999999
/* Scales up to 2^31 steps: products of two widths stay in int64_t */
#define MAX_INT_LIMIT	((int64_t)1 << 31)

/* Sort and drop repeats of w[0..n) into u; their number. */
static size_t unique_sorted(const double *w, size_t n, double *u)
{
	size_t i, j, k = 0;
	double x;

	for (i = 0; i < n; i++) {
		for (j = 0; j < k && u[j] != w[i]; j++)
			;
		if (j == k)
			u[k++] = w[i];
	}
	for (i = 1; i < k; i++)
		for (j = i; j > 0 && u[j - 1] > u[j]; j--) {
			x = u[j];
			u[j] = u[j - 1];
			u[j - 1] = x;
		}
	return k;
}

int csit_scale_init(struct csit_scale *s, double min, double max,
		    const double *w, size_t n)
{
	double u[16], span = log(max) - log(min), unit, units, q, next;
	double try_max;
	int64_t cand = 1, iu;
	size_t k, m;
	bool ok;

	if (!(min > 0) || !(max > min) || n > sizeof(u) / sizeof(u[0]))
		return -EINVAL;
	m = unique_sorted(w, n, u);
	s->min = min;
	s->max = max;
	while (cand < MAX_INT_LIMIT) {
		unit = span / (double)cand;
		try_max = (double)(cand + 1);
		ok = true;
		for (k = 0; k < m; k++) {
			units = -log1p(-u[k]) / unit;
			iu = (int64_t)floor(units);
			q = (double)iu / units;
			if (Q_LOWER <= q && q <= Q_UPPER)
				continue;
			ok = false;
			next = ((double)(iu + 1) / Q_UPPER) / units *
			       (double)cand;
			if (next > try_max)
				try_max = next;
		}
		if (ok) {
			s->max_int = cand;
			return 0;
		}
		cand = (int64_t)ceil(try_max);
	}
	return -EINVAL;
}

/* One halving step of the integer range [lo, hi] of values [lv, hv]:
 * the value of its midpoint, interpolated in log. */
static double mid_value(int64_t lo, int64_t hi, double lv, double hv)
{
	int64_t mid = (lo + hi) / 2;
	double c = log(hv) - log(lv);

	c *= (double)(mid - lo) / (double)(hi - lo);
	return lv * exp(c);
}

/* Walk the halvings of [0, max_int] towards integer i or, when i < 0,
 * towards value f: the midpoint equal to it, else the lower end of the
 * last half, with its value in *v. */
static int64_t walk(const struct csit_scale *s, int64_t i, double f,
		    double *v)
{
	int64_t lo = 0, hi = s->max_int, mid;
	double lv = s->min, hv = s->max, mv;

	while (hi - lo >= 2) {
		mid = (lo + hi) / 2;
		mv = mid_value(lo, hi, lv, hv);
		if (i >= 0 ? mid == i : mv == f) {
			*v = mv;
			return mid;
		}
		if (i >= 0 ? mid < i : mv < f) {
			lo = mid;
			lv = mv;
		} else {
			hi = mid;
			hv = mv;
		}
	}
	*v = lv;
	return lo;
}

struct csit_load csit_at(const struct csit_scale *s, int64_t i)
{
	double v;

	if (i <= 0)
		return (struct csit_load){ i, s->min };
	if (i >= s->max_int)
		return (struct csit_load){ i, s->max };
	walk(s, i, 0, &v);	/* i in (0, max_int) is a midpoint on its way */
	return (struct csit_load){ i, v };
}

/* The largest integer whose value is at most f (exact when one is). */
static int64_t int_of(const struct csit_scale *s, double f)
{
	double v;

	if (f <= s->min)
		return 0;
	if (f >= s->max)
		return s->max_int;
	return walk(s, -1, f, &v);
}

struct csit_load csit_from_float(const struct csit_scale *s, double f)
{
	return (struct csit_load){ int_of(s, f), f };
}

int64_t csit_width(const struct csit_scale *s, double w)
{
	double up = s->min / (1.0 - w);
	int64_t i = int_of(s, up);

	if (csit_at(s, i).f > up)
		i--;
	return i;
}

/* A width as CSIT compares it: its relative value is flat outside
 * [0, max_int] and strictly increasing inside. */
static int64_t clamp_w(const struct csit_scale *s, int64_t w)
{
	return w < 0 ? 0 : w > s->max_int ? s->max_int : w;
}

int csit_wcmp(const struct csit_scale *s, int64_t a, int64_t b)
{
	a = clamp_w(s, a);
	b = clamp_w(s, b);
	return (a > b) - (a < b);
}

int csit_middle(const struct csit_scale *s, struct csit_load lo,
		struct csit_load hi, int64_t goal, struct csit_load *out)
{
	struct csit_load t;
	int64_t w, hw, lw, hw2, lw2;

	if (hi.f < lo.f) {
		t = lo;
		lo = hi;
		hi = t;
	}
	w = hi.i - lo.i;
	for (;;) {
		if (w <= goal)
			return -EPROTO;
		if (w >= 2 * goal || goal % 2)
			break;
		goal /= 2;	/* an even goal: split by its half */
	}
	if (w == 2 * goal) {
		*out = csit_at(s, lo.i + goal);
		return 0;
	}
	if (w < 2 * goal) {
		*out = csit_at(s, lo.i + w / 2);
		return 0;
	}
	/* the upper part a power of two of goals, the lower no narrower */
	hw = goal;
	lw = w - hw;
	for (;;) {
		hw2 = hw * 2;
		lw2 = w - hw2;
		if (csit_wcmp(s, lw2, hw2) <= 0)
			break;
		hw = hw2;
		lw = lw2;
	}
	if (hw * lw > hw2 * lw2)
		lw2 = hw;
	*out = csit_at(s, lo.i + lw2);
	return 0;
}

/* load rounded into [lo, hi] (lo, hi included unless *_ex), width from
 * an excluded end; CSIT_NONE when both ends are excluded and the
 * interval is no wider than width. */
static int within(const struct csit_scale *s, struct csit_load load,
		  int64_t width, struct csit_load lo, struct csit_load hi,
		  bool lo_ex, bool hi_ex, struct csit_load *out)
{
	struct csit_load soft_lo, soft_hi;
	int ret;

	if (!(lo.f <= load.f && load.f <= hi.f))
		return -EPROTO;
	if (csit_wcmp(s, width, hi.i - lo.i) >= 0) {
		*out = !lo_ex ? lo : !hi_ex ? hi : CSIT_NONE;
		return 0;
	}
	soft_lo = csit_at(s, lo.i + width);
	soft_hi = csit_at(s, hi.i - width);
	if (soft_lo.f > soft_hi.f) {
		ret = csit_middle(s, lo, hi, width, &soft_lo);
		if (ret)
			return ret;
		soft_hi = soft_lo;
	}
	if (load.f < soft_lo.f)
		*out = lo_ex ? soft_lo : lo;
	else if (load.f > soft_hi.f)
		*out = hi_ex ? soft_hi : hi;
	else
		*out = load;
	return 0;
}

int csit_handle(const struct csit_scale *s, struct csit_load load,
		int64_t width, struct csit_load clo, struct csit_load chi,
		struct csit_load *out)
{
	struct csit_load lo = { 0, s->min }, hi = { s->max_int, s->max };

	load = csit_at(s, load.i);
	*out = CSIT_NONE;
	if (!csit_has(clo) && !csit_has(chi))
		return within(s, load, width, lo, hi, false, false, out);
	if (!csit_has(clo)) {
		if (chi.f <= lo.f || load.f >= chi.f)
			return 0;
		return within(s, load, width, lo, chi, false, true, out);
	}
	if (!csit_has(chi)) {
		/* a load not above the lower bound is CSIT's internal error */
		if (clo.f >= hi.f || load.f <= clo.f)
			return -EPROTO;
		return within(s, load, width, clo, hi, true, false, out);
	}
	if (!(clo.f < load.f && load.f < chi.f))
		return 0;
	return within(s, load, width, clo, chi, true, true, out);
}

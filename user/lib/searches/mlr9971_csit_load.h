/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The discrete loads of the CSIT-identical load selection (not libbm's
 * API): as FD.io CSIT's MLRsearch (commit 78e52b9c8a) does, every load
 * it measures is one of max_int + 1 points spaced evenly in log between
 * Min Load (integer 0) and Max Load (integer max_int), max_int chosen so
 * that each Goal Width is close to a whole number of steps; widths are
 * differences of those integers.  The floating value of each point is
 * made by halving the integer range, each midpoint interpolated in log
 * between the two points of its half, so that it is the very double
 * CSIT's own bisection makes (load and width rounding in CSIT's
 * expression order: the same doubles, the same trials).  Implemented in
 * mlr9971_csit_load.c.
 */
#ifndef MLR9971_CSIT_LOAD_H
#define MLR9971_CSIT_LOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The load scale of one search. */
struct csit_scale {
	double min, max;	/* Min Load and Max Load, fps */
	int64_t max_int;	/* the integer of Max Load */
};

/* A load: integer i and value f.  A rounded load has f = the value of i;
 * one made from a float (a forwarding rate) has its own f and the
 * largest i whose value is at most f.  f = 0: no load (CSIT's None). */
struct csit_load {
	int64_t i;
	double f;
};

#define CSIT_NONE	((struct csit_load){ 0, 0.0 })

static inline bool csit_has(struct csit_load l)
{
	return l.f > 0;
}

/* The scale of [min, max] fitting every relative width w[0..n) (each in
 * (0, 1)); 0, or -EINVAL when no integer range up to 2^31 fits them. */
int csit_scale_init(struct csit_scale *s, double min, double max,
		    const double *w, size_t n);

/* The rounded load of integer i (values saturate at Min and Max Load). */
struct csit_load csit_at(const struct csit_scale *s, int64_t i);

/* The load of value f, unrounded. */
struct csit_load csit_from_float(const struct csit_scale *s, double f);

/* Relative width w as integer steps, rounded down. */
int64_t csit_width(const struct csit_scale *s, double w);

/* Compare widths a and b as CSIT does, by their relative value: below 0
 * and above max_int they saturate.  <0, 0, >0. */
int csit_wcmp(const struct csit_scale *s, int64_t a, int64_t b);

/* The load that splits [lo, hi] (rounded loads, any order) for a goal of
 * width goal steps: the lower part a power of two of goal widths, its
 * upper one no wider, as CSIT's uneven bisection.  0, or -EPROTO when
 * the interval is no wider than goal. */
int csit_middle(const struct csit_scale *s, struct csit_load lo,
		struct csit_load hi, int64_t goal, struct csit_load *out);

/* CSIT's limit handling: load rounded down and moved inside
 * [Min Load, Max Load] and the open interval (clo, chi) of the bounds
 * that exist, at least width away from an excluded end (or their middle
 * when the interval is narrower than two widths).  *out = CSIT_NONE when
 * no load is worth it; -EPROTO for the cases CSIT raises on. */
int csit_handle(const struct csit_scale *s, struct csit_load load,
		int64_t width, struct csit_load clo, struct csit_load chi,
		struct csit_load *out);

#endif /* MLR9971_CSIT_LOAD_H */

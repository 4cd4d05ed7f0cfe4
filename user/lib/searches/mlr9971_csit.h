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
 * expression order: the same doubles, the same trials).  Below them the
 * selection's state, which its selectors (mlr9971_csit.c) and
 * strategies (mlr9971_csit_strategy.c) share.
 */
#ifndef MLR9971_CSIT_H
#define MLR9971_CSIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mlr9971_int.h"

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

/* The strategies, in the order a selector asks them. */
enum csit_strategy {
	CSIT_HALVE, CSIT_REFINE_LO, CSIT_REFINE_HI, CSIT_EXTEND_LO,
	CSIT_EXTEND_HI, CSIT_BISECT, CSIT_N
};

/* A target: a goal, or one of the coarser ones before it. */
struct csit_target {
	struct bm_mlr_goal g;	/* its trial duration as final_trial_s */
	int64_t width;		/* in load steps */
	bool fail_fast;
};

struct csit_bounds {
	struct csit_load clo, chi;	/* CSIT_NONE: there is none */
};

/* One goal's selector. */
struct csit_selector {
	unsigned int goal;
	unsigned int level;		/* its target: 0 the goal's own */
	struct csit_load ilo, ihi;	/* its target's first interval */
	int64_t next_width;		/* the targeted expander's */
	enum csit_strategy won_by;	/* the last to nominate */
	bool grow_lo, grow_hi;		/* bisect's extension in effect */
	struct csit_bounds b;		/* its target's, when it nominated */
};

struct csit_search {
	struct r9971_ctl *c;
	struct csit_scale s;
	struct csit_target *t;	/* goal g's level k at g * levels + k */
	unsigned int levels;
	unsigned int coef;	/* the expansion coefficient */
	int64_t global_width;	/* the last winner's width */
	struct csit_selector *sel;
	size_t *order;		/* c->v by load, ascending */
	int64_t *ints;		/* the integer of each c->v load */
	size_t n_known;
};

static inline const struct csit_target *
csit_target_of(const struct csit_search *cs, const struct csit_selector *sel)
{
	return &cs->t[sel->goal * cs->levels + sel->level];
}

/* Strategy k's nomination for sel's target with its bounds sel->b: the
 * load and width in *load, *width, *load CSIT_NONE when it has none.
 * 0, or -EPROTO where CSIT raises an internal error. */
int csit_nominate_by(struct csit_search *cs, struct csit_selector *sel,
		     enum csit_strategy k, struct csit_load *load,
		     int64_t *width);

/* Sel's targeted expander for a new target and its first interval. */
void csit_expander_init(struct csit_search *cs, struct csit_selector *sel);

/* Sel's extension came out the same way: its next step widens, and so
 * does the global width. */
void csit_expander_grow(struct csit_search *cs, struct csit_selector *sel);

#endif /* MLR9971_CSIT_H */

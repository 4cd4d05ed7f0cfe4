/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The CSIT-identical load selection's state (not libbm's API), which its
 * selectors (mlr9971_csit.c) and strategies (mlr9971_csit_strategy.c)
 * share, over the discrete loads of mlr9971_csit_load.h.
 */
#ifndef MLR9971_CSIT_STRATEGY_H
#define MLR9971_CSIT_STRATEGY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mlr9971_csit_load.h"
#include "mlr9971_int.h"

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

#endif /* MLR9971_CSIT_STRATEGY_H */

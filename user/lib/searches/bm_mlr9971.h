/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MLRsearch as RFC 9971 specifies it: a Controller that, given Search
 * Goals and the Max and Min Load (the Controller Input, §4.6.8), calls
 * the Measurer (bm_measure.h) until every goal has its Goal Result, and
 * returns the Search Result (§4.8.5, §4.8.6).  The goal logic is
 * bm_mlr_goal.h's; the load selection, which the RFC leaves to the
 * implementation, is bmgen's (mlr9971.c) or FD.io CSIT's
 * (mlr9971_csit.c), see Documentation/procedures-mlrsearch.md.
 */
#ifndef BM_MLR9971_H
#define BM_MLR9971_H

#include <stdbool.h>
#include <stddef.h>

#include "bm_measure.h"
#include "bm_mlr_goal.h"
#include "bm_trial.h"

/* The load selection, which RFC 9971 leaves to the implementation
 * (§4.9.2): bmgen's own (mlr9971.c), or one that chooses the same
 * (duration, load) sequence as FD.io CSIT's MLRsearch (commit
 * 78e52b9c8a) given the same Trial Results (mlr9971_csit.c). */
enum bm_mlr9971_selection {
	BM_MLR9971_SEL_BMGEN = 0,
	BM_MLR9971_SEL_CSIT,
};

/* The Controller Input (§4.6.8). */
struct bm_mlr9971_input {
	const struct bm_mlr_goal *goals;	/* each with a Goal Width > 0 */
	size_t n_goals;
	double max_load_fps;		/* §4.6.8.1 Max Load */
	double min_load_fps;		/* §4.6.8.2 Min Load, (0, max) */
	/* The search stops, its results irregular, once its trials took
	 * this long (the measurer's clock); 0 = no limit. */
	double max_search_s;
	/* Coarser targets before each goal (0..4): each twice as wide,
	 * its trials shorter, down to the Goal Initial Trial Duration. */
	unsigned int preceding_targets;
	/* Frames an attempt may lack before they count as lost (MLR-MEAS,
	 * §4.9.1's "severe deviation ... into the increased Trial Loss
	 * Ratio"), as time worth of traffic. */
	double attempt_tolerance_s;
	enum bm_mlr9971_selection selection;
	/* CSIT selection only: the factor its external search widens its
	 * step by (CSIT's expansion_coefficient, >= 2), and whether Min
	 * Load an Upper Bound of a goal ends the search as an error
	 * (-ERANGE, CSIT's fail_fast) rather than an irregular result. */
	unsigned int expansion_coefficient;
	bool fail_fast;
};

/* The Controller Output (§4.8.6). */
struct bm_mlr9971_result {
	struct bm_mlr_goal_result *goals;	/* the Search Result, in the
						 * order of the goals */
	size_t n_goals;
	struct bm_trial_log log;	/* every trial, in order */
	double *loss_ratios;		/* the Trial Loss Ratio of each */
	double trial_time_s;		/* their Trial Durations summed */
	double search_time_s;		/* the measurer's clock */
	bool timed_out;			/* max_search_s ended it */
	/* Trials the generator could not offer in full, repeated (only
	 * the last attempt at a load counts), and the measurements still
	 * short after the repeats: their unsent frames counted as lost. */
	unsigned int repeated_trials;
	unsigned int generator_limited_trials;
};

/* Fill *in with CSIT's production values but the goals and loads:
 * 2 preceding targets, 10 us attempt tolerance, no time limit; bmgen's
 * selection (expansion coefficient 2, no fail_fast for CSIT's). */
void bm_mlr9971_input_default(struct bm_mlr9971_input *in);

/* Check in; 0, or -EINVAL with err naming the goal and RFC term (no
 * prefix: the caller says whose input it was). */
int bm_mlr9971_input_check(const struct bm_mlr9971_input *in,
			   struct bm_error *err);

/*
 * Run the search with m's trials.  0; -ECANCELED (progress asked to
 * stop), -ETIMEDOUT (max_search_s), -EINVAL (input), -ERANGE (fail_fast),
 * -EPROTO (the CSIT selection's own consistency checks), -ENOMEM or the
 * measurer's error: in every case but -EINVAL *res has the Goal Results
 * of the trials so far; free it with bm_mlr9971_result_free().
 */
int bm_mlr9971_search(const struct bm_measurer *m,
		      const struct bm_mlr9971_input *in,
		      struct bm_mlr9971_result *res, bm_progress_fn progress,
		      void *ctx, struct bm_error *err);

/* The most trials bm_mlr9971_search() runs with in (checked): per goal
 * and target its exploration, four loads decided in the goal's duration
 * sum, each with its repeats; at most max_search_s of the shortest
 * trials. */
double bm_mlr9971_max_trials(const struct bm_mlr9971_input *in);

/* Release what bm_mlr9971_search() allocated and zero *res. */
void bm_mlr9971_result_free(struct bm_mlr9971_result *res);

#endif /* BM_MLR9971_H */

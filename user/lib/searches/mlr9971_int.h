/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the RFC 9971 Controller's files share (not libbm's API): the
 * running search, its Trial Results by Load, and the measurement that
 * both load selections call (mlr9971_measure.c): the measurer, the time
 * limit, the generator-shortfall repeats and the log.  The selections
 * are bmgen's own (mlr9971.c) and FD.io CSIT's (mlr9971_csit.c).
 */
#ifndef MLR9971_INT_H
#define MLR9971_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "bm_mlr9971.h"

/* Attempts after one the generator could not offer in full */
#define R9971_REPEATS	2

/* The Trial Results at one Load, in the order they were measured. */
struct r9971_load {
	double load;
	struct bm_mlr_trial *t;
	size_t n, cap;
	double first_fr;	/* forwarding rate of its first trial: its
				 * frames received per second, per
				 * direction, at most the load */
	double first_frame;	/* the loss ratio one frame made in it */
};

/* The running search. */
struct r9971_ctl {
	const struct bm_measurer *m;
	const struct bm_mlr9971_input *in;
	struct bm_mlr9971_result *res;
	bm_progress_fn progress;
	void *ctx;
	struct bm_error *err;
	struct r9971_load *v;	/* every Load measured, in first-trial order */
	size_t n, cap;
	double start_s;
	char phase[32];		/* the trial log's phase of the next trials */
	int dir;		/* bmgen's expansion going on: -1 down,
				 * +1 up, 0 none */
	double near;		/* bmgen's: the load the loss line
				 * predicted, until a step is taken from it */
};

/* The Load exactly load_fps of c, NULL when it was never measured. */
struct r9971_load *r9971_find_load(struct r9971_ctl *c, double load_fps);

/* One measurement at load_fps for dur_s, logged with why: the shortfall
 * repeats of the generator, the last attempt counted at the Load; its
 * Trial Loss Ratio in *loss_ratio (may be NULL).  0 or -errno with c->err
 * set (-ETIMEDOUT: max_search_s; -ECANCELED: progress said stop). */
int r9971_measure(struct r9971_ctl *c, double load_fps, double dur_s,
		  const char *why, double *loss_ratio);

/* Goal g's Goal Result over every Load measured so far; 0 or -ENOMEM. */
int r9971_goal_result(const struct r9971_ctl *c, const struct bm_mlr_goal *g,
		      struct bm_mlr_goal_result *r);

/* The CSIT-identical selection (mlr9971_csit.c) over c's input, until
 * every goal is reached; 0 or -errno with c->err set. */
int r9971_csit_select(struct r9971_ctl *c);

#endif /* MLR9971_INT_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MLRsearch internals shared by the mlrsearch*.c files and the unit test:
 * width arithmetic (MLR-WIDTH, F-15), the measurement database with
 * effective loss ratios and bounds (MLR-DB), and the trial loss accounting
 * (MLR-MEAS).  Not part of the libbm API.
 */
#ifndef BM_MLRSEARCH_INT_H
#define BM_MLRSEARCH_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "bm_mlrsearch.h"

/* "No load": every real load is > 0 (min_rate_fps > 0 is validated). */
#define MLR_NONE (-1.0)

/*
 * The reference implementation's rounding constant (MLR-WIDTH, F-15):
 * shrinking multiplied widths by 1e-6 keeps a width that is "exactly"
 * two goals from rounding up to three.
 */
#define MLR_RC 0.999999

/* Loads closer than this (relative) are the same load: x*(1-w)/(1-w) may
 * differ from x in the last bits and must not count as a new load. */
#define MLR_SAME_LOAD_REL 1e-9

/* Relative width (hi - lo) / hi of two loads in any order (F-15). */
double mlr_rel_width(double a_fps, double b_fps);

/* Multiply relative width w by c in log space (F-15 mul). */
double mlr_mul_w(double w, double c);

/* x lowered / raised by relative width w. */
double mlr_step_down(double x_fps, double w);
double mlr_step_up(double x_fps, double w);

/* Relative width of the lower sub-interval when splitting width w with
 * width goal goal ([MLR §4.3] 2.5.3). */
double mlr_half_w(double w, double goal);

/* Load to bisect (lo, hi) at, or MLR_NONE if w <= goal already. */
double mlr_bisect_load(double lo_fps, double hi_fps, double goal);

/* Goal of the phase preceded by p of nip intermediate phases (MLR-PHASE). */
double mlr_phase_goal(double final_relative_width, unsigned int nip,
		      unsigned int p);

/* Trial duration of that phase (MLR-PHASE): geometric interpolation. */
double mlr_phase_duration_s(double initial_s, double final_s,
			    unsigned int nip, unsigned int p);

/* True when the two loads are the same for the no-repeat rule. */
bool mlr_same_load(double a_fps, double b_fps);

/* One measured (load, loss) at a duration (MLR-DB). */
struct mlr_point {
	double load_fps;
	double loss_ratio;		/* MLR-MEAS loss ratio */
	double eff_loss_ratio;		/* max loss ratio at loads <= this */
	unsigned int trial;		/* index into the trial log */
};

/* All points of one trial duration, sorted by load. */
struct mlr_dur {
	double duration_s;
	struct mlr_point *v;
	size_t n, cap;
};

/* The database: one mlr_dur per distinct duration, in order of use. */
struct mlr_db {
	struct mlr_dur *d;
	size_t n, cap;
	int cur, prev;			/* indexes into d, -1 = none */
};

/* Tightest and second tightest bounds of one ratio at one duration. */
struct mlr_bounds {
	const struct mlr_point *lo1, *lo2, *hi1, *hi2;
};

/* Empty database with no current duration. */
void mlr_db_init(struct mlr_db *db);

/* Release the database's memory. */
void mlr_db_free(struct mlr_db *db);

/* Make duration_s current; a longer one pushes the old current to prev.
 * 0 or -ENOMEM. */
int mlr_db_set_duration(struct mlr_db *db, double duration_s);

/* Add a point at the current duration; 0, -ENOMEM, or -EEXIST if that
 * load was measured at this duration already (MLR-DB). */
int mlr_db_add(struct mlr_db *db, double load_fps, double loss_ratio,
	       unsigned int trial);

/* Drop the point at load_fps from the current duration (MLR-INIT 3). */
void mlr_db_forget(struct mlr_db *db, double load_fps);

/* True if load_fps was measured at the current duration. */
bool mlr_db_has(const struct mlr_db *db, double load_fps);

/* Bounds of ratio (plus tolerance) at duration index di (-1 = none). */
struct mlr_bounds mlr_db_bounds(const struct mlr_db *db, int di,
				double ratio);

/* MLR-MEAS loss ratio of one trial from its counts; *short_frames gets
 * the attempted shortfall (or excess) beyond the tolerance. */
double mlr_trial_loss_ratio(const struct bm_trial_spec *spec,
			    const struct bm_trial_result *res,
			    double attempt_tolerance_s,
			    uint64_t *beyond_tolerance);

/* Fill res->bounds from the current duration of db (MLR-OUT). */
int mlr_fill_bounds(const struct mlr_db *db, const struct bm_mlr_params *p,
		    struct bm_mlr_result *res);

#endif /* BM_MLRSEARCH_INT_H */

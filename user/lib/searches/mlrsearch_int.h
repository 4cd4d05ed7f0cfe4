/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MLRsearch internals shared by the mlrsearch*.c files and the unit test:
 * width arithmetic (MLR-WIDTH, F-15), the measurement database with
 * effective loss ratios and bounds (MLR-DB), the trial loss accounting
 * (MLR-MEAS), and the running search that both modes drive.  Not part of
 * the libbm API.
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
	double frame_ratio;		/* one frame's share of the trial's
					 * frames, 0 = not known */
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

/* mlr_db_add() with the trial's one-frame loss ratio (1 / frames). */
int mlr_db_add_trial(struct mlr_db *db, double load_fps, double loss_ratio,
		     double frame_ratio, unsigned int trial);

/* Drop the point at load_fps from the current duration (MLR-INIT 3). */
void mlr_db_forget(struct mlr_db *db, double load_fps);

/* True if load_fps was measured at the current duration. */
bool mlr_db_has(const struct mlr_db *db, double load_fps);

/* Bounds of ratio (plus tolerance) at duration index di (-1 = none). */
struct mlr_bounds mlr_db_bounds(const struct mlr_db *db, int di,
				double ratio);

/* MLR-MEAS loss ratio of one trial of duration_s that intended
 * intended_fps (over all its directions) from its counts;
 * *beyond_tolerance gets the attempted shortfall (or excess) beyond the
 * tolerance. */
double mlr_trial_loss_ratio(double intended_fps, double duration_s,
			    const struct bm_trial_result *res,
			    double attempt_tolerance_s,
			    uint64_t *beyond_tolerance);

/* Make *v hold n loss ratios, lr the newest (the log's n-th trial);
 * 0 or -ENOMEM (*v unchanged). */
int mlr_push_ratio(double **v, size_t n, double lr);

/* A search that needs this many trials is looping, not converging. */
#define MLR_MAX_TRIALS 100000

/* One running search, shared by the draft-01 and the fast mode. */
struct mlr_search {
	const struct bm_measurer *m;	/* its trials; m->be its clock */
	const struct bm_mlr_params *p;
	struct bm_mlr_result *res;
	struct mlr_db db;
	bm_progress_fn progress;
	void *ctx;
	struct bm_error *err;
	double start_elapsed_s;		/* m->be->elapsed_s at the start */
	unsigned int phase;		/* 0 initial, 1 .. nip + 1 others */
	double duration_s;		/* trial duration of this phase */
	double goal;			/* relative width goal of this phase */
	double initial_goal;		/* the first intermediate phase's */
	char phase_name[32];
	/* MTR's initial result, set aside for the external search; when
	 * a larger ratio is refined past a fail-fast point (!fail_fast) it
	 * may ask for MTR at the initial duration again, and gets this
	 * result back rather than a repeated trial ([MLR §3]) */
	bool mtr_aside;
	double mtr_loss_ratio, mtr_frame_ratio;
	double last_frame_ratio;	/* of the latest trial */
};

/* mlrsearch_measure.c: name and status-line numbering of the phase
 * preceded by p of nip. */
void mlr_set_phase(struct mlr_search *s, unsigned int phase);

/*
 * Run one trial at load_fps for the phase's duration, log it with why,
 * add it to the database and report progress.  *loss_ratio and
 * *receive_fps get the MLR-MEAS results.  0 or -errno (err set).
 */
int mlr_measure(struct mlr_search *s, double load_fps, const char *why,
		double *loss_ratio, double *receive_fps);

/*
 * Initial phase (MLR-INIT, [MLR §4.2]): MRR at MTR, then at MRR, then at
 * MRR2, leaving bounds about one first-phase goal apart.  0 or -errno.
 */
int mlr_initial_phase(struct mlr_search *s);

/* MLR-DB improves(): x lies strictly inside (lo, hi); NULL = unbounded. */
bool mlr_improves(const struct mlr_point *x, const struct mlr_point *lo,
		  const struct mlr_point *hi);

/* Loss ratio measured at load_fps in duration d (NULL = none), or -1
 * if not measured. */
double mlr_dur_loss_at(const struct mlr_dur *d, double load_fps);

/* The loss ratio one frame makes in that trial (1 / its MLR-MEAS tx),
 * 1 when it sent nothing. */
double mlr_trial_frame_ratio(double intended_fps, double duration_s,
			     const struct bm_trial_result *res,
			     double attempt_tolerance_s);

/* Fill res->bounds from the current duration of db (MLR-OUT). */
int mlr_fill_bounds(const struct mlr_db *db, const struct bm_mlr_params *p,
		    struct bm_mlr_result *res);

/* The fast mode's initial and later phases on s; 0 or -errno. */
int mlr_fast_run(struct mlr_search *s);

/* Fill res->bounds as the fast mode sees them (MLR-OUT, upper bounds
 * from any duration up to the current one); 0 or -ENOMEM. */
int mlr_fast_fill_bounds(const struct mlr_search *s,
			 struct bm_mlr_result *res);

#endif /* BM_MLRSEARCH_INT_H */

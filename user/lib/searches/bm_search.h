/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Rate searches over the trial backend (SPEC PLAT-SEARCH REQ-SRCH-1):
 * the RFC 2544 binary search of R2544-THRPT, and a pluggable front end
 * that runs either it or MLRsearch (bm_mlrsearch.h) for throughput-style
 * procedures.  Every trial is logged with a phase and a reason.
 */
#ifndef BM_SEARCH_H
#define BM_SEARCH_H

#include <stdbool.h>
#include <stdint.h>

#include <json-c/json.h>

#include "bm_measure.h"
#include "bm_mlr9971.h"
#include "bm_mlrsearch.h"
#include "bm_trial.h"

/* Inputs of the R2544-THRPT binary search; rates are per direction. */
struct bm_binsearch_params {
	uint32_t frame_size;
	enum bm_topology topology;	/* bm_binsearch_run's pair trial */
	double r_max_fps;		/* R2544-MAXRATE */
	double r_min_fps;		/* "throughput < r_min" below this */
	double start_rate_fps;		/* first trial, in [r_min, r_max] */
	double resolution_fps;		/* stop when hi - lo <= this, */
	double resolution_rel;		/* or, when > 0, hi - lo <= this * hi */
	double search_trial_s;		/* step 2 trial duration */
	double final_trial_s;		/* step 5 full-length duration */
	uint64_t loss_tolerance_frames;	/* 0 = RFC 2544 */
	/* bm_binsearch_run's pair trial: learning frames before each,
	 * then this pause (< 0 = the backend's, 2 s), and the loss wait
	 * after it (< 0 = the backend's, 2 s) */
	bool learning;
	double learning_pause_s;
	double drain_s;
	unsigned int max_trials;	/* safety stop (0 = 200) */
};

struct bm_binsearch_result {
	double throughput_fps;		/* highest zero-loss rate; 0 if none */
	bool below_r_min;		/* "throughput < r_min" */
	bool final_failed;		/* step 5 confirmation failed and the
					 * search continued at full length */
	unsigned int trials;		/* trials this search ran */
	char reason[96];		/* how the search ended */
	/* Failed trials the generator itself disturbed (limited without
	 * loss, or a loss within its own catch-up burst) that were repeated
	 * rather than taken as failures ([INTERPRETATION] of REQ-GEN-6). */
	unsigned int repeats;
	/* Trials taken as failures though every attempt was so disturbed
	 * (the repeats ran out), and the lowest rate of them (0 if none):
	 * a throughput below it may be the host's, not the DUT's. */
	unsigned int disturbed_failures;
	double disturbed_min_fps;
};

/*
 * Fill p with the R2544-THRPT defaults for frame size F on a line of
 * line_rate_bps: r_max = fps_max(F), r_min = 0.1 % and resolution 0.1 %
 * of r_max, start = r_max, 60 s trials, zero tolerance, learning on.
 */
void bm_binsearch_params_default(struct bm_binsearch_params *p,
				 uint32_t frame_size, double line_rate_bps);

/* The most trials bm_binsearch_run() runs with p: its safety stop, and
 * the few trials (r_min, confirmation, repeats) it may take past it. */
unsigned int bm_binsearch_max_trials(const struct bm_binsearch_params *p);

/* Check p; 0 or -EINVAL with a one-line reason. */
int bm_binsearch_params_check(const struct bm_binsearch_params *p,
			      struct bm_error *err);

/*
 * Run the binary search of R2544-THRPT steps 1-6 with m's trials,
 * appending every trial to log (phases "search", "r_min", "final",
 * "final-search").  0, -ECANCELED (progress asked to stop; *res holds
 * the state so far), -ENOMEM, -EINVAL or the measurer's error.
 */
int bm_binsearch(const struct bm_measurer *m,
		 const struct bm_binsearch_params *p, struct bm_trial_log *log,
		 struct bm_binsearch_result *res, bm_progress_fn progress,
		 void *ctx, struct bm_error *err);

/* The pair trial of p (frame_size, topology, learning, drain_s). */
void bm_binsearch_pair(const struct bm_binsearch_params *p,
		       struct bm_pair_trial *t);

/* bm_binsearch() with the constant pair trials of p on be. */
int bm_binsearch_run(struct bm_backend *be, const struct bm_binsearch_params *p,
		     struct bm_trial_log *log, struct bm_binsearch_result *res,
		     bm_progress_fn progress, void *ctx, struct bm_error *err);

/* Which search a throughput-style procedure uses. */
enum bm_search_kind {
	BM_SEARCH_BINARY = 0,	/* R2544-THRPT binary search */
	BM_SEARCH_MLR,		/* MLRsearch, lower bound of target 0 (NDR) */
	/* RFC 9971 with RFC 9971 §4.10.2's goal (full-length trials of
	 * final_trial_s, as many in sum, loss and exceed ratio 0): its
	 * Relevant Lower Bound is the RFC 2544 throughput */
	BM_SEARCH_RFC9971,
};

struct bm_rate_search {
	enum bm_search_kind kind;
	/* Rates, durations, frame size and topology; for MLR also min/max
	 * rate (r_min/r_max) and final trial duration (final_trial_s). */
	struct bm_binsearch_params bin;
	/* MLR only: the remaining MLRsearch knobs (targets, rates, final
	 * duration, frame size and topology are set from bin). */
	struct bm_mlr_params mlr;
};

struct bm_rate_search_result {
	double throughput_fps;		/* 0 when below_r_min */
	bool below_r_min;
	unsigned int trials;
	char reason[96];
	json_object *mlr;		/* MLR: bm_mlr_result_to_json(), owned;
					 * RFC 9971: its Goal Result */
	unsigned int repeats;		/* binary: see bm_binsearch_result */
	unsigned int disturbed_failures; /* binary: as bm_binsearch_result */
	double disturbed_min_fps;
};

/* Fill s with the binary-search defaults (kind binary) and the MLRsearch
 * defaults of bm_mlr_params_default(). */
void bm_rate_search_default(struct bm_rate_search *s, uint32_t frame_size,
			    double line_rate_bps);

/* Run the search chosen by s->kind with m's trials; trials go to log.
 * As bm_binsearch; *res is always safe to pass to
 * bm_rate_search_result_free(). */
int bm_rate_search(const struct bm_measurer *m, const struct bm_rate_search *s,
		   struct bm_trial_log *log, struct bm_rate_search_result *res,
		   bm_progress_fn progress, void *ctx, struct bm_error *err);

/* The RFC 9971 search's input for s (kind rfc9971): RFC 9971 §4.10.2's
 * goal at s->bin's final duration, its width the resolution (relative,
 * or the absolute one as a share of r_max), loads r_min to r_max;
 * goal points to caller storage the input refers to. */
void bm_rate_search_9971_input(const struct bm_rate_search *s,
			       struct bm_mlr_goal *goal,
			       struct bm_mlr9971_input *in);

/* bm_rate_search() with the constant pair trials of s->bin on be. */
int bm_rate_search_run(struct bm_backend *be, const struct bm_rate_search *s,
		       struct bm_trial_log *log,
		       struct bm_rate_search_result *res,
		       bm_progress_fn progress, void *ctx,
		       struct bm_error *err);

/* Release what a rate search result owns. */
void bm_rate_search_result_free(struct bm_rate_search_result *res);

/* Name of a search kind: "binary", "mlr" or "rfc9971". */
const char *bm_search_kind_name(enum bm_search_kind kind);

/*
 * Run one trial, log it under phase/reason and report progress.  0,
 * -ENOMEM, -ECANCELED (progress returned non-zero) or the backend error.
 */
int bm_search_trial(struct bm_backend *be, const struct bm_trial_spec *spec,
		    struct bm_trial_result *res, struct bm_trial_log *log,
		    const char *phase, const char *reason,
		    bm_progress_fn progress, void *ctx, struct bm_error *err);

/*
 * A trial that failed on one host of a pool (res->sync.failed) keeps what
 * the other hosts measured: log it under phase "failed" with reason.
 * true when it was logged (a trial that failed otherwise, or no memory:
 * false).  Every search's trial path calls it on a failed trial.
 */
bool bm_search_keep_failed(const struct bm_trial_spec *spec,
			   const struct bm_trial_result *res,
			   struct bm_trial_log *log, const char *reason);

/* m's trial of duration_s at load_fps, logged and reported as
 * bm_search_trial's; *spec, *res: the trial. */
int bm_search_measure(const struct bm_measurer *m, double duration_s,
		      double load_fps, struct bm_trial_spec *spec,
		      struct bm_trial_result *res, struct bm_trial_log *log,
		      const char *phase, const char *reason,
		      bm_progress_fn progress, void *ctx,
		      struct bm_error *err);

#endif /* BM_SEARCH_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MLRsearch: Multiple Loss Ratio search for packet throughput
 * (draft-ietf-bmwg-mlrsearch-01, SPEC §10 MLR-*).
 *
 * One search finds, for every target loss ratio (e.g. 0 for NDR and 0.005
 * for PDR), a pair of loads (lower, upper) whose relative width
 * (upper - lower) / upper is at most final_relative_width, measured with
 * trials of final_trial_duration_s.  Cheap short trials (initial and
 * intermediate phases) locate the interesting loads first, so only a few
 * trials run at the final duration.  Runs trials only through struct
 * bm_backend (REQ-SRCH-1), so the same code drives the kernel module and
 * simulated devices.  Documentation/procedures-mlrsearch.md has the details.
 *
 * All rates are per direction in frames per second, as in struct
 * bm_trial_spec; loss ratios aggregate both directions.
 */
#ifndef BM_MLRSEARCH_H
#define BM_MLRSEARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "bm_measure.h"
#include "bm_proc_info.h"
#include "bm_trial.h"

/*
 * How the search chooses its trials (Documentation/procedures-mlrsearch.md,
 * "Modes").  DRAFT01 is draft-01's sample implementation, trial for trial
 * as FD.io CSIT's draft-01 code; FAST keeps its phases and bounds but
 * takes a trial that failed a target at a shorter duration as an upper
 * bound at every longer one, so fewer long trials are needed.
 */
enum bm_mlr_mode {
	BM_MLR_MODE_DRAFT01,
	BM_MLR_MODE_FAST,
};

/* Search inputs (MLR-IN); fill with bm_mlr_params_default() first. */
struct bm_mlr_params {
	double min_rate_fps;		/* lowest load ever offered, > 0 */
	double max_rate_fps;		/* MTR, first trial's load, > min */
	double final_trial_duration_s;	/* final phase trials, > 0 */
	double initial_trial_duration_s; /* initial + 1st intermediate */
	double final_relative_width;	/* (hi - lo) / hi goal, (0, 1) */
	double expansion_coefficient;	/* external search step, > 1 */
	double timeout_s;		/* limit on the search time, > 0 */
	unsigned int number_of_intermediate_phases;
	const double *target_loss_ratios; /* strictly increasing, [0, 1) */
	size_t n_targets;
	uint32_t frame_size;		/* F in bytes, with FCS */
	/*
	 * Slack when comparing a loss ratio with a target: a load is a lower
	 * bound for target r when its effective loss ratio is at most
	 * r + packet_loss_ratio_tolerance.  The draft has no such slack, so
	 * the default is 0 and anything else is a deviation.  [0, 1).
	 */
	double packet_loss_ratio_tolerance;
	/* --- additions after the agreed fields --- */
	/*
	 * Tolerated difference between attempted and intended frame counts,
	 * as time worth of traffic ([MLR §5.1] items 5-6: 10 us); frames
	 * beyond it count as lost (MLR-MEAS, REQ-GEN-6).  >= 0.
	 */
	double attempt_tolerance_s;
	enum bm_topology topology;	/* pair-uni (default) or pair-bidir */
	/*
	 * The draft's "fail fast" ([MLR §4.3] 2.3.2): when the smallest
	 * ratio's upper bound is at min_rate, end the phase, so the larger
	 * ratios (PDR) are never refined.  Default false: skip
	 * the smallest ratio and refine the others; true is draft-01
	 * exactly.
	 */
	bool fail_fast;
	/*
	 * Trial phases the draft leaves to the tester (RFC 2544 §23b, §23d):
	 * learning frames before every trial (default false), and the loss
	 * wait after it in s (default < 0: the backend's own, 2 s on the
	 * module).  A procedure that uses MLRsearch as its rate search
	 * passes its own values, so that its trials are its trials.
	 */
	bool learning;
	double learning_pause_s;	/* < 0 = the backend's (2 s) */
	double drain_s;
	enum bm_mlr_mode mode;		/* see enum bm_mlr_mode */
};

/* Bounds found for one target loss ratio (MLR-OUT). */
struct bm_mlr_bound {
	double target_ratio, lower_fps, upper_fps;
	/* --- additions --- */
	/*
	 * False when no measured load qualified and the draft's fallback
	 * (min_rate for lower, max_rate for upper) is reported instead
	 * ([MLR §4.3] 1.6.1, §3 "the returned bounds may be invalid").
	 */
	bool lower_valid, upper_valid;
	/* Measured loss ratios at those loads; < 0 when not measured. */
	double lower_loss_ratio, upper_loss_ratio;
	double duration_s;		/* trial duration the bounds come from */
	/* The upper bound's trial duration: duration_s, or in the fast mode
	 * possibly a shorter one whose trial failed the target already. */
	double upper_duration_s;
};

/* What a search returns; release with bm_mlr_result_free(). */
struct bm_mlr_result {
	struct bm_mlr_bound *bounds;	/* one per target, same order */
	size_t n;
	struct bm_trial_log log;	/* every trial, in order */
	/* --- additions --- */
	double *loss_ratios;		/* MLR-MEAS loss ratio per log entry */
	bool timed_out;			/* stopped by timeout_s (-ETIMEDOUT) */
	bool stream_errors;		/* a trial saw reorder/dup (REQ-MLR-1) */
	unsigned int generator_limited_trials; /* REQ-GEN-6 shortfalls */
	uint32_t frame_size;
	unsigned int directions;	/* 2 for pair-bidir: rates are per
					 * direction, aggregates reported too */
	double mtr_fps;			/* max_rate_fps, the MTR of the MRR */
	double mrr_fps;			/* receive rate of trial 1 at MTR */
	double trial_time_s;		/* sum of trial durations */
	double search_time_s;		/* backend time incl. overheads */
	double final_trial_duration_s;
	double final_relative_width;
	enum bm_mlr_mode mode;		/* the mode that ran */
};

/* Fill *p with the draft's CSIT values ([MLR §5.1.1]); rates for 64 B
 * frames at 10 GbE, unidirectional. */
void bm_mlr_params_default(struct bm_mlr_params *p);

/* Check every input (MLR-IN); 0, or -EINVAL with a one-line reason. */
int bm_mlr_params_validate(const struct bm_mlr_params *p,
			   struct bm_error *err);

/*
 * The most trials one search with p may run: every trial spends at least
 * the shortest trial duration of the backend's clock and none starts past
 * timeout_s, and the search stops at its own safety limit besides.
 */
double bm_mlr_max_trials(const struct bm_mlr_params *p);

/*
 * Run one MLRsearch with m's trials.  0 on success.  -ECANCELED when progress asked
 * to stop, -ETIMEDOUT past timeout_s, -EINVAL for bad params, or the
 * backend's -errno; in all of these cases *res holds the partial result
 * (bounds from the latest duration) and must be freed.
 */
int bm_mlrsearch(const struct bm_measurer *m, const struct bm_mlr_params *p,
		 struct bm_mlr_result *res, bm_progress_fn progress, void *ctx,
		 struct bm_error *err);

/* Make *m measure p's constant pair trials (frame_size, topology,
 * learning, drain_s) on be. */
void bm_mlr_pair(const struct bm_mlr_params *p, struct bm_measurer *m,
		 struct bm_backend *be);

/* bm_mlrsearch() with bm_mlr_pair's measurer on be. */
int bm_mlrsearch_run(struct bm_backend *be, const struct bm_mlr_params *p,
		     struct bm_mlr_result *res, bm_progress_fn progress,
		     void *ctx, struct bm_error *err);

/* "draft-01" or "fast": the name of mode in parameters and results;
 * NULL for no mode. */
const char *bm_mlr_mode_name(enum bm_mlr_mode mode);

/* Release what bm_mlrsearch() allocated and zero *res. */
void bm_mlr_result_free(struct bm_mlr_result *res);

/* New JSON object: bounds + full trial log (phase, duration, load, loss
 * ratio, why); NULL on allocation failure. */
json_object *bm_mlr_result_to_json(const struct bm_mlr_result *res);

/* MLRsearch as the registry offers it (mlrsearch_proc.c), ending with a
 * NULL name. */
extern const struct bm_procedure_info mlrsearch_procedures[];

#endif /* BM_MLRSEARCH_H */

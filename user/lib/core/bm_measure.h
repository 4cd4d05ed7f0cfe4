/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a search measures: one trial of a duration at a load, and nothing
 * else of the trial.  RFC 9971 §4.9.1 "Measurer": called with a Trial
 * Input (§4.5.3: Trial Duration and Trial Load, the per-interface
 * Intended Load), it performs one Trial and returns its Trial Output;
 * FD.io CSIT's MLRsearch has the same seam as measure(duration, load).  The
 * procedure that owns the search makes the measurer and so decides what
 * a trial at a load is: a constant pair stream (bm_measurer_pair), a
 * modified stream of RFC 2544, N-port traffic.  The searches stay the
 * same for every one of them.
 */
#ifndef BM_MEASURE_H
#define BM_MEASURE_H

#include <stdbool.h>
#include <stdint.h>

#include "bm_trial.h"

struct bm_measurer;

/*
 * One trial of duration_s at load_fps from m: *spec the trial as a
 * search's log keeps it, *res its counts; 0, or -errno with err set.
 */
typedef int (*bm_measure_fn)(const struct bm_measurer *m, double duration_s,
			     double load_fps, struct bm_trial_spec *spec,
			     struct bm_trial_result *res,
			     struct bm_error *err);

/* The trial of a pair measurer: a constant stream of frame_size frames
 * at the load in each direction of topology (pair-uni or pair-bidir),
 * with the procedure's learning and loss wait (RFC 2544 §23b, §23d). */
struct bm_pair_trial {
	uint32_t frame_size;
	enum bm_topology topology;
	bool learning;
	double learning_pause_s;	/* < 0 = the backend's (2 s) */
	double drain_s;			/* < 0 = the backend's (2 s) */
};

struct bm_measurer {
	bm_measure_fn measure;
	/* Runs the trials: a search reads its clock (elapsed_s) for its
	 * time limit. */
	struct bm_backend *be;
	/* Interfaces a trial offers load_fps each (RFC 9971 §4.5.2: the
	 * Trial Load is per interface): it intends directions x load x
	 * duration frames. */
	unsigned int directions;
	struct bm_pair_trial pair;	/* bm_measurer_pair's trial */
	void *priv;			/* the maker's, for its measure */
};

/* Make *m measure constant pair trials t on be (the searches' default). */
void bm_measurer_pair(struct bm_measurer *m, struct bm_backend *be,
		      const struct bm_pair_trial *t);

/* Run m's trial of duration_s at load_fps: m->measure with *spec and
 * *res zeroed first; as bm_measure_fn. */
int bm_measure(const struct bm_measurer *m, double duration_s,
	       double load_fps, struct bm_trial_spec *spec,
	       struct bm_trial_result *res, struct bm_error *err);

#endif /* BM_MEASURE_H */

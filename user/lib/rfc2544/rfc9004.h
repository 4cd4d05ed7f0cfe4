/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RFC 9004 (May 2021), "Updates for the Back-to-Back Frame Benchmark in
 * RFC 2544", which updates RFC 2544 §26.4 (SPEC R2544-B2B): the procedure
 * rfc9004.back-to-back, a plug-in of the RFC 2544 family over its
 * burst-length search (rfc2544_back_to_back.c).
 */
#ifndef RFC9004_H
#define RFC9004_H

#include "rfc2544.h"

struct r9004_params {
	/* What the trials and the throughput measured first take of RFC
	 * 2544's: frame_sizes, throughput_fps, learning and the waits, the
	 * throughput search; b2b_* unused. */
	struct rfc2544_params base;
	/* §6.2: the upper search limit, the time to send the longest
	 * burst at the line rate (MUST be configurable up to 30 s). */
	double burst_max_s;
	/* §6.2 component 3: the wait after the burst is received (MUST
	 * be >= 2 s, longer when buffer times exceed it). */
	double depletion_s;
	/* §6.3: N, the burst-length searches per frame size. */
	unsigned int repetitions;
	/* throughput_fps given: 0 none, 1 one for every size, else one per
	 * size (§5: from earlier throughput testing). */
	size_t n_thr;
};

/* rfc9004.back-to-back's parameters, NULL-key-terminated. */
extern const struct bm_param r9004_b2b_keys[];

/* Fill *p with the defaults (each one's reason beside it). */
void r9004_b2b_defaults(struct r9004_params *p);

/* The rules between keys once parsed: 0 or -EINVAL naming the key. */
int r9004_b2b_check(const struct r9004_params *p, struct bm_error *err);

/* How r9004_b2b_keys' custom rows are written back (the result's
 * "params", bm_json_params_to_json). */
extern const struct bm_jwriter r9004_b2b_writers[];

/* The most trials a run with p may take. */
double r9004_b2b_max_trials(const struct r9004_params *p);

/* Run rfc9004.back-to-back on be: 0 or -errno with err set; *result the
 * result document (REQ-REP-1 minus meta) as rfc2544_run() makes it. */
int r9004_b2b_run(struct bm_backend *be, const struct r9004_params *p,
		  bm_progress_fn progress, void *ctx, json_object **result,
		  struct bm_error *err);

#endif /* RFC9004_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Several N-port trials as one (TM-CONC, REQ-TM-9).  The module runs one
 * trial at a time (Documentation/abi.md), so procedures that must load a
 * DUT at the same moment cannot each start their own: their trials are
 * merged into one trial whose streams are all of theirs, and its results
 * are handed back to each as if it had run alone.  Every stream keeps its
 * pattern, rate, frame, start and log; what changes is that a stream runs
 * in a trial that may last longer than its own, so a constant stream of a
 * shorter trial becomes a counted stream of the frames it would have
 * sent, and ends when it would have ended.
 */
#ifndef BM_TRAFFIC_MERGE_H
#define BM_TRAFFIC_MERGE_H

#include "bm_traffic.h"

/* One trial of the merge: what its caller asked, where its result goes. */
struct bm_merge_part {
	const struct bm_trial_spec *spec;	/* with traffic */
	struct bm_trial_result *res;		/* zeroed by its caller */
	unsigned int first_stream;		/* in the merged traffic */
};

/*
 * The n parts as one trial: *t (initialised here; bm_traffic_free() it
 * either way) has every part's ports once by name and every part's
 * streams in order, each with its part's frame size; *spec lasts the
 * longest part's duration, with learning if any part learns (the longest
 * pause), the longest drain, latency if any part measures it, traffic =
 * t and no traffic_res.  0, or -EINVAL with err set: a part without
 * traffic, with a tagged frame or an event, IMIX tables that differ, too
 * many ports or streams.
 */
int bm_traffic_merge(struct bm_merge_part *parts, unsigned int n,
		     struct bm_traffic *t, struct bm_trial_spec *spec,
		     struct bm_error *err);

/*
 * After the merged trial of t filled r and res: each part's traffic_res
 * (when it has one) with its streams' results, whose frame logs move out
 * of r, and its res summed from them as a backend sums a trial's
 * (bm_traffic_result_sum()), with res's timestamp source and generator
 * lateness count.  0, or -ENOMEM.
 */
int bm_traffic_split(struct bm_merge_part *parts, unsigned int n,
		     struct bm_traffic_result *r,
		     const struct bm_trial_result *res);

#endif /* BM_TRAFFIC_MERGE_H */

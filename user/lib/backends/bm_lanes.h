/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One logical stream sent as L lanes: L module streams on L transmit
 * kthreads (and so L transmit queues), each with its own sequence space
 * and UDP source port (a flow hash of its own, so a DUT's and the
 * receiver's RSS spread them).  Lane i carries the stream's frames
 * i, i + L, i + 2L, ... at their own departure times: lane i starts i
 * intervals after the stream and runs at 1/L of its rate, so the lanes'
 * departures interleave and add up to the stream's schedule exactly.
 */
#ifndef BM_LANES_H
#define BM_LANES_H

#include <stdint.h>

struct bm_lane {
	uint64_t count;		/* frames of the lane */
	double fps;		/* its rate; 0 for an unpaced stream */
	double start_s;		/* its first departure */
};

/* Lane i of lanes of a stream of n frames at fps (0: unpaced) from
 * start_s into *l; i < lanes, 1 <= lanes <= n. */
void bm_lane_plan(uint64_t n, double fps, double start_s, unsigned int lanes,
		  unsigned int i, struct bm_lane *l);

#endif /* BM_LANES_H */

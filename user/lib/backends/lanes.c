// SPDX-License-Identifier: GPL-2.0
/* Splitting a stream into lanes (bm_lanes.h). */
#include "bm_lanes.h"

void bm_lane_plan(uint64_t n, double fps, double start_s, unsigned int lanes,
		  unsigned int i, struct bm_lane *l)
{
	/* the stream's frames k with k mod lanes = i */
	l->count = n > i ? (n - i + lanes - 1) / lanes : 0;
	l->fps = fps / lanes;
	l->start_s = fps > 0 ? start_s + i / fps : start_s;
}

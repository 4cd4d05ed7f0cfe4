/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internals of N-port traffic (bm_traffic.h) shared by its files: what
 * the check (traffic_check.c), the topology builders (traffic_topo.c)
 * and the results (traffic_result.c) take from the traffic's making
 * (traffic.c); not a public interface.
 */
#ifndef TRAFFIC_INT_H
#define TRAFFIC_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "bm_traffic.h"
/* Preamble + SFD and inter-frame gap, as in trial.c (SPEC F-1). */
#define BM_L1_OVERHEAD	20

/* A sum of N loads of 100/N % is 100 % only up to rounding. */
#define BM_LOAD_SLACK	1e-9

/* traffic.c: is bps a line rate (finite, > 0)? */
bool traffic_rate_ok(double bps);
/* Room for n streams in all, so that a builder cannot fail half way;
 * 0, -E2BIG or -ENOMEM with err set. */
int traffic_reserve(struct bm_traffic *t, unsigned int n,
		    struct bm_error *err);
/* Mean frame size of s (the imix mean), or 0 when it has none. */
double traffic_stream_size(const struct bm_traffic *t,
			   const struct bm_stream_spec *s,
			   uint32_t frame_size);
/* Frames per second of a line of line_rate_bps full of size B frames. */
double traffic_fps_max(double line_rate_bps, double size);

#endif /* TRAFFIC_INT_H */

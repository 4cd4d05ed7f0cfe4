/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What one transmit kthread of the generator sends on a port, from the
 * newest bmgen.capacity of it (SPEC REQ-GEN-6): the figures bmd keeps,
 * warns with before a job, and gives a backend that chooses its lanes
 * from them (bmd.conf tx-kthreads = auto).
 */
#ifndef BM_CAPACITY_H
#define BM_CAPACITY_H

#include <stddef.h>
#include <stdint.h>

#include "bm_trial.h"

/* The most figures bmd keeps and hands a job: ports x sizes x paths. */
#define BM_CAPACITY_MAX	256

struct bm_tx_capacity {
	char port[BM_BACKEND_PORT_NAME];
	char path[8];		/* asked: "auto", "alloc", "recycle", "xdp" */
	uint32_t frame_size;
	double send_fps;	/* one kthread flat out */
};

/*
 * send_fps of port on path at frame size f from v[0..n): the entry of the
 * calibrated size nearest f (the larger of two as near); 0 when port and
 * path have none.
 */
double bm_tx_capacity_fps(const struct bm_tx_capacity *v, size_t n,
			  const char *port, const char *path, uint32_t f);

#endif /* BM_CAPACITY_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside the pool's merge (hosts.c): its hardware stamps (hosts_hw.c).
 */
#ifndef BM_HOSTS_INT_H
#define BM_HOSTS_INT_H

#include "bm_hosts.h"

/* Start m's hardware stamps (m->hw; NULL when out of memory: then no
 * pair across hosts is made, and the block says how many were). */
void bm_pool_hw_init(struct bm_pool_merge *m);

/* Move the stamp log of stream k's half h (x, a part's) into the merge,
 * with the accuracy its host's part pres states. */
void bm_pool_hw_take(struct bm_pool_merge *m, unsigned int k, enum bm_half h,
		     struct bm_stream_result *x,
		     const struct bm_trial_result *pres);

/* Add a part's hardware block pres->hw, whose host ran sides of the
 * trial's streams. */
void bm_pool_hw_add(struct bm_pool_merge *m, unsigned int sides,
		    const struct bm_trial_result *pres);

/* Pair the halves' stamps, set m->res->hw, free m->hw. */
void bm_pool_hw_end(struct bm_pool_merge *m);

#endif

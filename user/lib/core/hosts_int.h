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

/* Take host's hardware block and the stamp logs of its halves (moved
 * out of pr's streams). */
void bm_pool_hw_add(struct bm_pool_merge *m, const char *host,
		    struct bm_traffic_result *pr,
		    const struct bm_trial_result *pres);

/* Pair the halves' stamps, set m->res->hw, free m->hw. */
void bm_pool_hw_end(struct bm_pool_merge *m);

#endif

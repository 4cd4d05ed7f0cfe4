/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace side of the bmgen generic netlink ABI (include/uapi/linux/bmgen.h),
 * over libmnl.  Only bmd, bmctl and the lab tools include this; procedures
 * see the module only as a struct bm_backend.
 */
#ifndef BM_GENL_H
#define BM_GENL_H

#include <stdint.h>

#include "bm_trial.h"

struct bm_module_status {
	char version[32];	/* module version string */
	uint32_t proto;		/* BMGEN_GENL_VERSION of the module */
	uint32_t cpus;		/* online CPUs */
	uint32_t kthreads;	/* running transmit kthreads */
	uint32_t ports;		/* attached ports */
	uint32_t streams;	/* configured streams */
	uint32_t trial_state;	/* enum bmgen_trial_state */
};

/* Query the module.  0, -ENOENT when bmgen.ko is not loaded (err says so),
 * or another -errno with err->msg set. */
int bm_genl_status(struct bm_module_status *st, struct bm_error *err);

struct bm_genl_port_opts {
	const char *tx_port;	/* net device name the frames leave on */
	const char *rx_port;	/* net device name they come back on */
	double line_rate_bps;	/* notional R_line (veth has none), bit/s */
	uint8_t dst_mac[6];	/* 0 = rx_port's own MAC (bridged DUT) */
	int have_dst_mac;
};

/* A trial backend that drives bmgen.ko through the given ports; NULL and
 * err->msg on failure.  Destroy with be->ops->destroy(be). */
struct bm_backend *bm_backend_genl_new(const struct bm_genl_port_opts *o,
				       struct bm_error *err);

#endif /* BM_GENL_H */

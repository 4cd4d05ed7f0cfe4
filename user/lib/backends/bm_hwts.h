/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Hardware timestamping at a port's driver and its PTP hardware clock
 * (SPEC PLAT-TS).  On Linux 6.1 only userspace can switch a driver's
 * stamping on (SIOCSHWTSTAMP); the module then uses the stamps
 * (BMGEN_CMD_PORT_SET) and converts them to CLOCK_MONOTONIC with the
 * offset measured here, so that the stamps of two ports compare.
 */
#ifndef BM_HWTS_H
#define BM_HWTS_H

#include <linux/net_tstamp.h>
#include <net/if.h>
#include <stdint.h>

#include "bm_trial.h"

struct bm_hwts_cfg {
	char ifname[IFNAMSIZ];
	int saved;			/* old holds what was set before */
	struct hwtstamp_config old;
	int tx_on;			/* the driver stamps tx frames */
	int rx_filter;			/* HWTSTAMP_FILTER_* it took */
};

/* Switch ifname's hardware stamping on: tx, and the widest rx filter the
 * driver takes (all frames, else PTPv2 event frames, else none); 0, or
 * -errno with err set (-EOPNOTSUPP: the driver cannot stamp). */
int bm_hwts_enable(const char *ifname, struct bm_hwts_cfg *c,
		   struct bm_error *err);

/* What ifname's driver stamps now (SIOCGHWTSTAMP); 0 or -errno. */
int bm_hwts_get(const char *ifname, int *tx_on, int *rx_filter);

/* Put back what was set before bm_hwts_enable (if it could be read);
 * 0 or -errno. */
int bm_hwts_restore(const struct bm_hwts_cfg *c);

/* The BMGEN_HWTS_* bits the module may use after c. */
uint32_t bm_hwts_bits(const struct bm_hwts_cfg *c);

/* Name of an rx filter ("all", "ptpv2-event", "none", ...). */
const char *bm_hwts_filter_name(int filter);

/* Of n reads {sys before, phc, sys after} (ns), the narrowest window's
 * phc - (before + after) / 2 in *off_ns and half its width in *half_ns;
 * -1 if no read has a window >= 0. */
int bm_phc_pick(const int64_t (*rd)[3], unsigned int n, int64_t *off_ns,
		int64_t *half_ns);

/* PHC /dev/ptp<phc> minus CLOCK_MONOTONIC in *off_ns, and the uncertainty
 * of that (half the narrowest PHC read window plus half the REALTIME to
 * MONOTONIC step) in *unc_ns; 0, or -errno with err set. */
int bm_phc_offset(int phc, int64_t *off_ns, int64_t *unc_ns,
		  struct bm_error *err);

#endif /* BM_HWTS_H */

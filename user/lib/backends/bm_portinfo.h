/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What /sys/class/net says about a network port: driver, speed, state;
 * and, for the live system, what ethtool says: firmware, the PTP hardware
 * clock and hardware timestamping (RFC 2544 §7 asks the report to name
 * the tester; REQ-TS).
 * Used by bmd for the result meta (SPEC REQ-REP-1) and the default line
 * rate, and by `bmctl port list`.
 */
#ifndef BM_PORTINFO_H
#define BM_PORTINFO_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct bm_port_info {
	char name[IFNAMSIZ];
	char driver[64];	/* "virtual" when there is no device */
	char bus_info[64];	/* PCI address etc., "" when virtual */
	char operstate[16];
	char address[32];	/* MAC */
	long speed_mbps;	/* -1 when the link speed is unknown */
	long mtu;
	char firmware[32];	/* ethtool's fw_version, "" when none */
	int phc_index;		/* PTP hardware clock /dev/ptpN, -1 none */
	bool hw_timestamps;	/* hardware tx and rx timestamps */
	/* 1 << BMGEN_TXP_* for each transmit path bmgen.ko can use on the
	 * port (its driver's word, hardware stamps aside); 0 when the
	 * module did not say (not loaded, or not the live system) */
	unsigned int tx_paths;
};

/* Fill *pi for ifname from root (NULL = /sys/class/net); 0 or -errno. */
int bm_port_info(const char *root, const char *ifname,
		 struct bm_port_info *pi);

/* A port's address as sysfs and bmd write it, "aa:bb:cc:dd:ee:ff", into
 * mac; false when s is none. */
bool bm_mac_parse(const char *s, uint8_t mac[6]);

/* Every port under root (NULL = /sys/class/net), sorted by name; 0 and a
 * malloc'd array in *v, or -errno. */
int bm_port_list(const char *root, struct bm_port_info **v, size_t *n);

#endif /* BM_PORTINFO_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RIP v1 routing updates as RFC 2544 sends them (§11.3, §13, C.2.3,
 * C.2.4.2, C.2.6.2; SPEC R2544-ROUTE, R2544-MOD, R2544-APPC, AMB-26):
 * responses (command 2, version 1, RFC 1058 §3.1) from a network's
 * phantom router (.10) to its directed broadcast, UDP 520 -> 520, IP TTL
 * 10 and DF, one 20-byte entry per class C network with host part 0, at
 * most 25 entries a message.  Lengths and checksums are computed, not
 * C.2.6.2's printed ones (AMB-26).
 */
#ifndef BM_RIP_H
#define BM_RIP_H

#include <stddef.h>
#include <stdint.h>

#define BM_RIP_PORT		520
#define BM_RIP_MAX_ENTRIES	25	/* RFC 1058 §3.1 */
#define BM_RIP_METRIC		7	/* C.2.6.2 */
#define BM_RIP_INFINITY		16	/* RFC 1058: unreachable */
#define BM_RIP_INTERVAL_S	30.0	/* C.2.3: IP-RIP */
#define BM_RIP_TTL		10	/* C.2.6.2 */
#define BM_RIP_SETTLE_S		2.0	/* §23a: after the update */
/* Ethernet 14 + IP 20 + UDP 8 + RIP 4 + 25 x 20 */
#define BM_RIP_MAX_FRAME	546

struct bm_rip_route {
	uint8_t net[4];			/* the class C network, host part 0 */
	uint8_t metric;			/* 1..16 */
};

/* The RIP v1 response carrying routes r[0..n-1] (n <= 25) into buf: the
 * UDP payload's length, or 0 when it does not fit or n is out of range. */
size_t bm_rip_response(uint8_t *buf, size_t len, const struct bm_rip_route *r,
		       unsigned int n);

/* C.2.6.2's whole frame around a response of r[0..n-1]: broadcast DA,
 * src_mac, IPv4 src_ip -> the directed broadcast of src_ip's /24, TTL 10,
 * DF, UDP 520 -> 520; the frame's length (without FCS) or 0. */
size_t bm_rip_frame(uint8_t *buf, size_t len, const uint8_t src_mac[6],
		    const uint8_t src_ip[4], const struct bm_rip_route *r,
		    unsigned int n);

/* The routes of a RIP v1 response frame (as bm_rip_frame() makes it, the
 * checks a RIP v1 listener makes: broadcast, UDP 520 both ways, command
 * 2, version 1, zero reserved fields, address family 2); how many, at
 * most max, or -1 when the frame is none.  src_ip gets its sender. */
int bm_rip_parse(const uint8_t *frame, size_t len, uint8_t src_ip[4],
		 struct bm_rip_route *r, unsigned int max);

#endif /* BM_RIP_H */

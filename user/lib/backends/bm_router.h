/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Router DUTs (RFC 2544 Appendix C): a tester port carries an IPv4
 * address (198.18.n.2 and 198.19.n.2 by default, bm_traffic.h), and test
 * frames go to the DUT's MAC, which the kernel's neighbour table learns by
 * ARP on that port: bmgen.ko passes every non-test frame up the stack, so
 * the kernel answers the DUT's ARP for the tester's address and resolves
 * the DUT's.  The rtnetlink work (addresses, neighbours) is done with
 * libnl-3's route library.
 */
#ifndef BM_ROUTER_H
#define BM_ROUTER_H

#include <stdint.h>

#include "bm_trial.h"

struct bm_router_port {
	char ifname[16];
	uint8_t ip4[4];			/* the tester port's address */
	uint8_t prefix;			/* its subnet, e.g. 24 */
	uint8_t gw4[4];			/* the DUT's address on that subnet */
	uint8_t gw_mac[6];		/* filled by bm_router_resolve() */
};

/* Defaults for tester port i (0-based): bm_port_default_ip4(i)/24, the
 * DUT at .1 of that /24. */
void bm_router_port_default(struct bm_router_port *p, const char *ifname,
			    unsigned int i);

/* The host part of a network's phantom router (RFC 2544 C.2.2). */
#define BM_ROUTER_PHANTOM	10

/* Give the port its address and, on a /24 or wider, the phantom router
 * .10 of its network (ones already there are fine); 0 or -errno. */
int bm_router_port_setup(const struct bm_router_port *p, struct bm_error *err);

/*
 * Resolve (or refresh) the DUT's MAC on the port: one UDP datagram to the
 * DUT's discard port makes the kernel ARP for it, then the neighbour table
 * is read until the entry is valid or timeout_s passes.  0 with gw_mac
 * set, -EHOSTUNREACH (no answer: "the DUT did not answer ARP for ...") or
 * -errno.
 */
int bm_router_resolve(struct bm_router_port *p, double timeout_s,
		      struct bm_error *err);

#endif /* BM_ROUTER_H */

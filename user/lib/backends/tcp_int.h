/* SPDX-License-Identifier: GPL-2.0 */
/* The TCP engine's parts (bm_tcp_engine.h): routing domains. */
#ifndef BM_TCP_INT_H
#define BM_TCP_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "bm_trial.h"

/* One port's routing domain and what was changed to make it. */
struct tcp_domain {
	char port[16];
	int ifindex;
	char vrf[16];
	int vrf_ifindex;
	uint32_t table;
	uint8_t ip4[4];
	uint8_t gw4[4];			/* router DUTs: the DUT on the port */
	bool router;
	int old_master;			/* the port's master before, 0: none */
	bool made_vrf, added_addr, enslaved;
};

/* Put port (job index i) into a VRF of its own with the engine's address
 * (bm_tcp_port_ip4); with router, the port's RFC 2544 App C address
 * (198.18.n.2 / 198.19.n.2, bm_router_port_default) and a default route
 * via the DUT's .1 in the VRF's table, so that TCP is routed by the DUT.
 * 0, or -errno with err set and nothing left changed. */
int tcp_domain_setup(struct tcp_domain *d, const char *port, unsigned int i,
		     bool router, struct bm_error *err);

/* Undo what tcp_domain_setup changed; errors are not reported (the port
 * may be gone). */
void tcp_domain_teardown(struct tcp_domain *d);

#endif /* BM_TCP_INT_H */

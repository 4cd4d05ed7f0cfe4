/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel TCP engine (SPEC PLAT-TCP): TCP connections between a job's
 * tester ports through the Linux stack, beside the module's frame
 * streams.  On one host two local addresses talk over the loopback, never
 * through the DUT; so every port the engine uses goes into a routing domain
 * of its own, a VRF (l3mdev) made for it, where the other ports' addresses
 * are not local and the route to them is the port's own cable.  The module
 * keeps its rx_handler on the port (a VRF slave has none of its own) and
 * passes the TCP segments up the stack.  bmd puts every port back as it
 * was when the session ends.
 */
#ifndef BM_TCP_ENGINE_H
#define BM_TCP_ENGINE_H

#include <stdbool.h>
#include <stdint.h>

#include "bm_tcp.h"
#include "bm_trial.h"

/* The VRF of a port whose ifindex is i: its name "bmv<i>" and table
 * BM_TCP_VRF_TABLE + i [PROPOSED]. */
#define BM_TCP_VRF_TABLE	1000000u

/* The address the engine gives job port i (0-based) when the port has
 * none on the engine's subnet: 198.18.0.(i + 1)/24 [PROPOSED] (RFC 2544
 * App C's range; the module's frames use 198.18.n.2 with n >= 1). */
void bm_tcp_port_ip4(unsigned int i, uint8_t ip4[4]);

/* Whether this host can give ports routing domains (the vrf module);
 * false with why set to one line. */
bool bm_tcp_engine_available(char *why, size_t len);

/* Give be the kernel TCP engine (be->tcp, be->tcp_priv); with router, a
 * router DUT's: each port its App C address and a default route via the
 * DUT (tcp_domain_setup).  0 or -errno with err set.
 * bm_tcp_engine_detach frees it (a running session is stopped). */
int bm_tcp_engine_attach(struct bm_backend *be, bool router,
			 struct bm_error *err);
void bm_tcp_engine_detach(struct bm_backend *be);

#endif /* BM_TCP_ENGINE_H */

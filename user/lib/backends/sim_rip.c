// SPDX-License-Identifier: GPL-2.0
/*
 * The simulated router's RIP v1 table (bm_sim.h rip_routes; RFC 2544
 * §13, R2544-ROUTE).  It hears each update as the frame the module would
 * send (bm_rip_frame, parsed back with bm_rip_parse), so that a unit test
 * of a procedure also checks what goes on the wire.
 */
#include <string.h>

#include "bm_rip.h"
#include "bm_traffic.h"
#include "sim_int.h"

#define RIP_TIMEOUT_S	180.0	/* RFC 1058 §3.3 */

static struct sim_route *find(struct sim_priv *sp, const uint8_t net[4])
{
	unsigned int k;

	for (k = 0; k < sp->n_routes; k++)
		if (!memcmp(sp->routes[k].net, net, 4))
			return &sp->routes[k];
	return NULL;
}

void sim_rip_hear(struct sim_priv *sp, const struct bm_traffic *t,
		  const struct bm_rip_msg *m, double now_s)
{
	static const uint8_t mac[6] = { 0x02, 0, 0, 0, 0, 0x0a };
	struct bm_rip_route r[BM_RIP_MAX_ENTRIES];
	uint8_t frame[BM_RIP_MAX_FRAME], src[4];
	struct sim_route *e;
	size_t len;
	int n, k;

	memcpy(src, t->ports[m->port].ip4, 4);
	src[3] = 10;
	len = bm_rip_frame(frame, sizeof(frame), mac, src, m->routes, m->n);
	n = len ? bm_rip_parse(frame, len, src, r, BM_RIP_MAX_ENTRIES) : -1;
	for (k = 0; k < n; k++) {
		e = find(sp, r[k].net);
		if (r[k].metric + 1 >= BM_RIP_INFINITY) {
			if (e)
				*e = sp->routes[--sp->n_routes];
			continue;
		}
		if (!e && sp->n_routes < SIM_MAX_ROUTES)
			e = &sp->routes[sp->n_routes++];
		if (!e)
			continue;
		memcpy(e->net, r[k].net, 4);
		e->metric = (uint8_t)(r[k].metric + 1);
		e->port = m->port;
		e->expires_s = now_s + RIP_TIMEOUT_S;
	}
}

/* Is there a live route to net (host part 0) via port? */
static bool has_route(const struct sim_priv *sp, const uint8_t net[4],
		      unsigned int port, double now_s)
{
	unsigned int i;

	for (i = 0; i < sp->n_routes; i++)
		if (!memcmp(sp->routes[i].net, net, 4) &&
		    sp->routes[i].port == port &&
		    sp->routes[i].expires_s > now_s)
			return true;
	return false;
}

bool sim_rip_routed_net(const struct sim_priv *sp, const uint8_t dst[4],
			unsigned int port, double now_s)
{
	uint8_t net[4];

	if (!sp->p.rip_routes || !memcmp(dst, "\0\0\0\0", 4))
		return true;
	memcpy(net, dst, 3);
	net[3] = 0;
	return has_route(sp, net, port, now_s);
}

bool sim_rip_routed(const struct sim_priv *sp, const struct bm_traffic *t,
		    const struct bm_stream_spec *ss, double now_s)
{
	static const uint8_t zero[4];
	const uint8_t *own = t->ports[ss->rx_port].ip4;
	uint32_t n = ss->frame.dst_networks > 1 ? ss->frame.dst_networks : 1;
	uint8_t dst[4];
	uint32_t base, k;

	if (!sp->p.rip_routes || ss->frame.ip_version == 6)
		return true;
	memcpy(dst, memcmp(ss->frame.dst_ip, zero, 4) ? ss->frame.dst_ip :
	       own, 4);
	base = (uint32_t)dst[0] << 24 | (uint32_t)dst[1] << 16 |
	       (uint32_t)dst[2] << 8;
	for (k = 0; k < n; k++) {
		uint32_t a = base + k * 256;

		dst[0] = (uint8_t)(a >> 24);
		dst[1] = (uint8_t)(a >> 16);
		dst[2] = (uint8_t)(a >> 8);
		dst[3] = 0;
		if (memcmp(dst, own, 3) &&
		    !has_route(sp, dst, ss->rx_port, now_s))
			return false;
	}
	return true;
}

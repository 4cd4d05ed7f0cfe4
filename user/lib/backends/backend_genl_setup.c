// SPDX-License-Identifier: GPL-2.0
/*
 * What an N-port trial on bmgen.ko (backend_genl_traffic.c) sets up
 * around its streams: every port attached and resolved by name, learning
 * frames from every receiving port (RFC 2544 §23b) and for §12's random
 * MACs, a router DUT's addresses and next hops, the management queries'
 * port.  Apart from the streams and the trial because it is the DUT's
 * and the ports' preparation, done before any stream exists.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/bmgen.h>

#include "backend_genl_int.h"
#include "bm_hosts.h"
#include "bm_traffic.h"

#define BM_LEARN_FRAMES 4
#define BM_LEARN_FPS 1000.0
#define BM_LEARN_MAC_FPS 10000.0	/* 2 x 4096 MACs in 0.8 s */

/* A trial of one host: a port names this host, or none. */
static int bm_port_is_local(const struct bm_port_spec *p)
{
	char host[256];

	if (!p->host[0] || !strcmp(p->host, "localhost"))
		return 1;
	if (gethostname(host, sizeof(host)))
		return 0;
	host[sizeof(host) - 1] = 0;
	return !strcmp(host, p->host);
}

int bm_genl_resolve_ports(struct bm_genl_backend *b,
			  const struct bm_traffic *t, const char *host,
			  unsigned int *ifindex, struct bm_error *err)
{
	unsigned int i;
	int ret;

	for (i = 0; i < t->n_ports; i++) {
		ifindex[i] = 0;
		if (host && !bm_port_on_host(&t->ports[i], host))
			continue;	/* another host's part */
		if (!host && !bm_port_is_local(&t->ports[i]))
			return bm_errorf(err, "port %s is on host %s: a trial "
					 "over several hosts' ports runs as "
					 "a pool's parts",
					 t->ports[i].name, t->ports[i].host),
			       -EOPNOTSUPP;
		ret = bm_genl_attach(b->g, t->ports[i].name, &ifindex[i], err);
		if (ret)
			return ret;
	}
	return 0;
}

/* Learning stream id: count frames of f bytes at fps from ss's rx port
 * back to its tx port. */
static void learn_stream(struct bm_genl_stream *s, uint32_t id,
			 const unsigned int *ifindex,
			 const struct bm_stream_spec *ss, uint32_t f,
			 uint64_t count, double fps)
{
	bm_genl_stream_init(s);
	s->id = id;
	s->tx_ifindex = ifindex[ss->rx_port];
	s->rx_ifindex = ifindex[ss->tx_port];
	if (!s->rx_ifindex) {
		/* the tx port is another host's: the DUT learns the source
		 * from any frame, and a broadcast one reaches it */
		s->have_dst_mac = 1;
		memset(s->dst_mac, 0xff, sizeof(s->dst_mac));
	}
	s->frame_size = f;
	s->pattern = BMGEN_PAT_COUNT;
	s->count = count;
	s->rate_ufps = (uint64_t)(fps * 1e6);
	s->learn = 1;
}

bool bm_traffic_has_macs(const struct bm_traffic *t)
{
	unsigned int k;

	for (k = 0; k < t->n_streams; k++)
		if (t->streams[k].frame.dst_macs > 1)
			return true;
	return false;
}

/*
 * RFC 2544 §23b for N ports: every port that receives test frames first
 * sends a few frames of its own, so that a bridge DUT learns where each
 * destination MAC lives and does not flood.  Not counted by the receiver.
 */
int bm_traffic_learn(struct bm_genl_backend *b, const struct bm_traffic *t,
		     const unsigned int *ifindex, uint32_t f, double pause,
		     bool ports, struct bm_error *err)
{
	struct bm_genl_stream s;
	unsigned int k, id = 1;
	int ret, terr = 0;
	char *rx;

	rx = calloc(t->n_ports, 1);
	if (!rx)
		return bm_errorf(err, "out of memory"), -ENOMEM;
	ret = bm_genl_stream_del(b->g, 0, err);
	for (k = 0; !ret && k < t->n_streams; k++) {
		const struct bm_stream_spec *ss = &t->streams[k];

		if (!ports || rx[ss->rx_port] || !ifindex[ss->rx_port])
			continue;
		rx[ss->rx_port] = 1;
		learn_stream(&s, id++, ifindex, ss, f, BM_LEARN_FRAMES,
			     BM_LEARN_FPS);
		ret = bm_genl_stream_add(b->g, &s, err);
	}
	/* §12 for bridges: every MAC of a random set learnt behind its
	 * receiving port, each twice (a bridge may miss one) */
	for (k = 0; !ret && k < t->n_streams; k++) {
		const struct bm_stream_spec *ss = &t->streams[k];

		if (ss->frame.dst_macs < 2 || !ifindex[ss->rx_port])
			continue;
		learn_stream(&s, id++, ifindex, ss, f,
			     2ULL * ss->frame.dst_macs, BM_LEARN_MAC_FPS);
		s.flows = ss->frame.dst_macs;
		s.mac_flows = BMGEN_FLOW_MAC_SRC;
		s.mac_seed = ss->frame.mac_seed;
		ret = bm_genl_stream_add(b->g, &s, err);
	}
	free(rx);
	/* a pool's part that receives nothing here learns nothing */
	if (id == 1)
		return ret;
	if (!ret)
		ret = bm_genl_trial_start(b->g, 0, BM_GENL_TRIAL_OWNED, err);
	if (!ret)
		ret = bm_genl_trial_wait(b->g, 10, &terr, err);
	if (ret < 0)
		return ret;
	bm_sleep_s(pause >= 0 ? pause : BM_LEARNING_PAUSE_S);
	return 0;
}

/* Traffic port i as a router port: its address, the DUT at .1. */
static void bm_traffic_router_port(const struct bm_traffic *t, unsigned int i,
				   struct bm_router_port *rp)
{
	bm_router_port_default(rp, t->ports[i].name, i);
	memcpy(rp->ip4, t->ports[i].ip4, 4);
	memcpy(rp->gw4, rp->ip4, 3);
	rp->gw4[3] = 1;
}

/*
 * Router DUT: every port gets its address (the DUT must reach each by ARP)
 * and every sending port the DUT's MAC on its subnet, resolved afresh.  A
 * pool's part does this host's ports: the other hosts' parts theirs, each
 * sending host resolving its own gateway (RFC 2544 App C holds per port).
 */
int bm_traffic_routes(const struct bm_traffic *t, const char *host,
		      uint8_t (*gw_mac)[6], struct bm_error *err)
{
	struct bm_router_port rp;
	unsigned int i, k;
	int ret;

	for (i = 0; i < t->n_ports; i++) {
		if (host && !bm_port_on_host(&t->ports[i], host))
			continue;
		bm_traffic_router_port(t, i, &rp);
		ret = bm_router_port_setup(&rp, err);
		if (ret)
			return ret;
		for (k = 0; k < t->n_streams; k++)
			if (t->streams[k].tx_port == i)
				break;
		if (k == t->n_streams)
			continue;
		ret = bm_router_resolve(&rp, BM_ARP_TIMEOUT_S, err);
		if (ret)
			return ret;
		memcpy(gw_mac[i], rp.gw_mac, 6);
	}
	return 0;
}

/*
 * §11.2's queries leave from the sending port's address, which a bridge
 * test does not otherwise give it (router mode has, in
 * bm_traffic_routes()): give it that address.
 */
int bm_traffic_mgmt_port(const struct bm_traffic *t, bool router,
			 struct bm_error *err)
{
	struct bm_router_port rp;

	if (t->mgmt.port >= t->n_ports)
		return bm_errorf(err, "management queries from port %u of %u",
				 t->mgmt.port, t->n_ports);
	if (router)
		return 0;
	bm_traffic_router_port(t, t->mgmt.port, &rp);
	return bm_router_port_setup(&rp, err);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * RFC 2544 routing updates (rfc2544_int.h): §13's route set-up
 * (R2544-ROUTE, REQ-2544-4) and §11.3's routing update frames "A" and
 * "B" (R2544-MOD), both RIP v1 per C.2.3, C.2.4.2 and C.2.6.2 (bm_rip.h).
 *
 * §13: "at the start of each trial a routing update MUST be sent to the
 * DUT [...] all of the network addresses that will be required for the
 * trial [...] SHOULD resolve to the same next-hop [...] the receiving
 * side of the test equipment".  C.2.4.2 sends it "on each destination
 * port", with "the network addresses that are reachable through a
 * phantom router on the network attached to the port", and only when the
 * test "does not involve adjacent net routing".  So: per rx port, every
 * destination network of the trial's streams to it that is not the
 * port's own /24, from that network's phantom router .10, metric 7;
 * none when every destination is adjacent.  §23a's "send the routing
 * update to the input port" is read as the DUT's port the update enters,
 * which is the one facing the tester's receiving side.
 *
 * §11.3: "routing frames are designed to change the routing to a number
 * of networks that are not involved in the forwarding of the test data.
 * The first frame sets the routing table state to A, the second one
 * changes the state to B.  The frames MUST be alternated".  A and B are
 * twelve networks each of the tx port's side beyond the DUT (its
 * phantom networks 65..76 and 77..88 of App C's 65..254), from that
 * side's phantom router, sent in the test stream's port: A advertises
 * A's networks (metric 7) and withdraws B's (16, RFC 1058's infinity), B
 * the reverse; one as the first frame of each trial, then one every
 * routing_interval_s, the states alternating over the whole run.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bm_result.h"
#include "bm_traffic.h"
#include "rfc2544_int.h"

#define AB_NETS		12
#define AB_FIRST	65	/* App C C.2.2.2: phantom networks 65..254 */

const char *const rfc2544_route_setup_names[] = { "static", "rip", NULL };

/* The /24 stream ss of t sends frame k of its destination set to. */
static void dst_net(const struct bm_traffic *t, const struct bm_stream_spec *ss,
		    uint32_t k, uint8_t net[4])
{
	static const uint8_t zero[4];
	const uint8_t *d = memcmp(ss->frame.dst_ip, zero, 4) ?
			   ss->frame.dst_ip : t->ports[ss->rx_port].ip4;
	uint32_t a = ((uint32_t)d[0] << 24 | (uint32_t)d[1] << 16 |
		      (uint32_t)d[2] << 8) + k * 256;

	net[0] = (uint8_t)(a >> 24);
	net[1] = (uint8_t)(a >> 16);
	net[2] = (uint8_t)(a >> 8);
	net[3] = 0;
}

/* Add net to the port's last message, or a new one; 0 or -E2BIG. */
static int add_route(struct bm_traffic *t, unsigned int port,
		     const uint8_t net[4], double lead_s)
{
	struct bm_rip_msg *m = NULL;
	unsigned int k, i;

	for (k = 0; k < t->n_rip; k++) {
		if (t->rip[k].port != port)
			continue;
		for (i = 0; i < t->rip[k].n; i++)
			if (!memcmp(t->rip[k].routes[i].net, net, 4))
				return 0;
		if (t->rip[k].n < BM_RIP_MAX_ENTRIES)
			m = &t->rip[k];
	}
	if (!m) {
		if (t->n_rip == BM_TRAFFIC_MAX_RIP)
			return -E2BIG;
		m = &t->rip[t->n_rip++];
		memset(m, 0, sizeof(*m));
		m->port = port;
		/* before the trial, even with no lead (then just before) */
		m->at_s = -fmax(lead_s, 1e-6);
		m->every_s = BM_RIP_INTERVAL_S;
	}
	memcpy(m->routes[m->n].net, net, 4);
	m->routes[m->n++].metric = BM_RIP_METRIC;
	return 0;
}

static int setup_msgs(const struct rfc2544_params *p, struct bm_traffic *t,
		      struct bm_error *err)
{
	const struct bm_stream_spec *ss;
	unsigned int k;
	uint32_t n, j;
	uint8_t net[4];

	for (k = 0; k < t->n_streams; k++) {
		ss = &t->streams[k];
		if (ss->frame.ip_version == 6 || ss->frame.dst_ip[0] == 255)
			continue;	/* §11.1's broadcasts: no route */
		n = ss->frame.dst_networks > 1 ? ss->frame.dst_networks : 1;
		for (j = 0; j < n; j++) {
			dst_net(t, ss, j, net);
			if (!memcmp(net, t->ports[ss->rx_port].ip4, 3))
				continue;	/* adjacent: no route */
			if (add_route(t, ss->rx_port, net, p->route_lead_s))
				return bm_errorf(err, "route_setup rip: the "
						 "trial's networks need more "
						 "than %d RIP messages",
						 BM_TRAFFIC_MAX_RIP - 2),
				       -E2BIG;
		}
	}
	return 0;
}

/* §11.3's update of state s (0 "A", 1 "B") from port, at at_s every
 * every_s: its own networks up, the other state's down. */
static void ab_msg(struct bm_rip_msg *m, const struct bm_traffic *t,
		   unsigned int port, unsigned int s, double at_s,
		   double every_s)
{
	const uint8_t *ip = t->ports[port].ip4;
	unsigned int k;

	memset(m, 0, sizeof(*m));
	m->port = port;
	m->at_s = at_s;
	m->every_s = every_s;
	for (k = 0; k < 2 * AB_NETS; k++) {
		struct bm_rip_route *r = &m->routes[m->n++];

		r->net[0] = ip[0];
		r->net[1] = ip[1];
		r->net[2] = (uint8_t)(AB_FIRST + k);
		r->metric = k / AB_NETS == s ? BM_RIP_METRIC : BM_RIP_INFINITY;
	}
}

int r2544_route_msgs(const struct rfc2544_params *p, struct bm_traffic *t,
		     unsigned int ab_next, struct bm_error *err)
{
	double iv = p->routing_interval_s;
	int ret = 0;

	t->n_rip = 0;
	if (p->route_setup == RFC2544_ROUTES_RIP)
		ret = setup_msgs(p, t, err);
	if (ret || !p->routing_updates)
		return ret;
	if (t->n_rip + 2 > BM_TRAFFIC_MAX_RIP)
		return bm_errorf(err, "routing_updates: no room beside the "
				 "route set-up's %u messages", t->n_rip),
		       -E2BIG;
	/* the state due first as the trial's first frame, the other one
	 * interval later, each every two intervals */
	ab_msg(&t->rip[t->n_rip++], t, t->streams[0].tx_port, ab_next & 1,
	       0.0, 2 * iv);
	ab_msg(&t->rip[t->n_rip++], t, t->streams[0].tx_port,
	       (ab_next + 1) & 1, iv, 2 * iv);
	return 0;
}

void r2544_route_result(const struct rfc2544_params *p,
			const struct bm_traffic *t, unsigned int *ab_next,
			struct bm_trial_result *res)
{
	unsigned int k, n = t->n_rip, first, sent;
	size_t i;

	res->route_setup_sent = 0;
	res->routing_ab[0] = '\0';
	if (p->routing_updates && n >= 2)
		n -= 2;
	for (k = 0; k < n; k++)
		res->route_setup_sent += res->rip_sent[k];
	if (!p->routing_updates || t->n_rip < 2)
		return;
	first = *ab_next & 1;
	sent = res->rip_sent[n] + res->rip_sent[n + 1];
	for (i = 0; i < sent && i + 1 < sizeof(res->routing_ab); i++)
		res->routing_ab[i] = (char)('A' + ((first + i) & 1));
	res->routing_ab[i] = '\0';
	*ab_next += sent;
}

void r2544_route_report(struct r2544_run *r, json_object *e, size_t first)
{
	const struct rfc2544_params *p = r->p;
	json_object *o;
	uint64_t setup = 0, ab = 0;
	const char *last = NULL;
	size_t k;

	if (p->route_setup == RFC2544_ROUTES_STATIC && !p->routing_updates)
		return;
	for (k = first; k < r->log.n; k++) {
		const struct bm_trial_result *res = &r->log.v[k].res;
		size_t len = strlen(res->routing_ab);

		setup += res->route_setup_sent;
		ab += len;
		if (len)
			last = res->routing_ab[len - 1] == 'A' ? "A" : "B";
	}
	o = json_object_new_object();
	json_object_object_add(e, "routing", o);
	bm_json_add_str(o, "route_setup",
			rfc2544_route_setup_names[p->route_setup]);
	if (p->route_setup == RFC2544_ROUTES_RIP) {
		bm_json_add_double(o, "route_lead_s", p->route_lead_s);
		bm_json_add_u64(o, "route_setup_sent", setup);
	}
	if (p->routing_updates) {
		bm_json_add_double(o, "routing_interval_s",
				   p->routing_interval_s);
		bm_json_add_u64(o, "routing_updates_sent", ab);
		bm_json_add_str(o, "last_state", last);
	}
}

void r2544_route_deviations(struct r2544_run *r)
{
	const struct rfc2544_params *p = r->p;

	if (p->route_setup == RFC2544_ROUTES_STATIC &&
	    (p->random_networks || p->filters))
		r2544_deviation(r, "R2544-ROUTE (§13): route_setup static: no "
				"routing update was sent; the DUT's routes to "
				"the trial's networks beyond its own were "
				"statically configured");
	if (p->route_setup == RFC2544_ROUTES_RIP)
		r2544_deviation(r, "R2544-ROUTE (§13, C.2.4.2, AMB-08): before "
				"each trial a RIP v1 response (C.2.6.2, lengths "
				"and checksums computed, AMB-26) on each rx "
				"port from its network's phantom router .10, "
				"with every destination network of the trial "
				"beyond that port's own /24 at metric 7, "
				"route_lead_s before the stream, repeated every "
				"30 s while it runs (C.2.3); §23a's \"to the "
				"input port\" read as the DUT port the update "
				"enters, C.2.4.2's destination port; none when "
				"every destination is adjacent (C.2.4.2)");
	if (p->routing_updates)
		r2544_deviation(r, "R2544-MOD routing update (§11.3): RIP v1 "
				"updates from the tx port's phantom router .10: "
				"A advertises its side's phantom networks "
				"65..76 (metric 7) and withdraws 77..88 "
				"(metric 16), B the reverse, A or B as the "
				"trial's first frame and then every "
				"routing_interval_s, alternating over the whole "
				"run; sent beside the test frames, not in their "
				"place; the tester does not verify that the DUT "
				"processed them (§11.3 SHOULD): its routing "
				"table shows it");
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The check of N-port traffic (bm_traffic_check): its ports, its routing
 * updates, and every stream's ports, frame, addresses (REQ-ADDR-1),
 * pattern and load, each refusal naming the stream.  Apart from the
 * traffic's making (traffic.c) because every backend runs it on
 * whatever a procedure built, and it only reads.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bmgen.h>

#include "bm_traffic.h"
#include "traffic_int.h"

#define BM_SIZE_MIN	64
#define BM_SIZE_MAX	9216

/* The routing updates (R2544-ROUTE, -MOD): from ports with an IPv4 /24
 * of their own, at most BM_RIP_MAX_ENTRIES routes each, valid metrics,
 * times that are numbers. */
static int check_rip(const struct bm_traffic *t, struct bm_error *err)
{
	uint8_t buf[BM_RIP_MAX_FRAME];
	const struct bm_rip_msg *m;
	unsigned int k;

	if (t->n_rip > BM_TRAFFIC_MAX_RIP)
		return bm_errorf(err, "%u routing update messages: at most %d",
				 t->n_rip, BM_TRAFFIC_MAX_RIP);
	for (k = 0; k < t->n_rip; k++) {
		m = &t->rip[k];
		if (m->port >= t->n_ports)
			return bm_errorf(err, "routing update %u: port %u of "
					 "%u", k, m->port, t->n_ports);
		if (!isfinite(m->at_s) || !isfinite(m->every_s) ||
		    m->every_s < 0)
			return bm_errorf(err, "routing update %u: at %g s "
					 "every %g s", k, m->at_s, m->every_s);
		if (!bm_rip_response(buf, sizeof(buf), m->routes, m->n))
			return bm_errorf(err, "routing update %u: %u routes "
					 "(1..%d, metrics 1..%d)", k, m->n,
					 BM_RIP_MAX_ENTRIES, BM_RIP_INFINITY);
		if (!t->ports[m->port].ip4[0])
			return bm_errorf(err, "routing update %u: port %s has "
					 "no IPv4 address", k,
					 t->ports[m->port].name);
	}
	return 0;
}

/* "stream 17 (t3 -> t3)", with the index of a port that does not exist. */
static void stream_label(const struct bm_traffic *t, unsigned int i,
			 char *buf, size_t len)
{
	const struct bm_stream_spec *s = &t->streams[i];
	char tx[40], rx[40];

	if (s->tx_port < t->n_ports)
		snprintf(tx, sizeof(tx), "%s", t->ports[s->tx_port].name);
	else
		snprintf(tx, sizeof(tx), "port %u", s->tx_port);
	if (s->rx_port < t->n_ports)
		snprintf(rx, sizeof(rx), "%s", t->ports[s->rx_port].name);
	else
		snprintf(rx, sizeof(rx), "port %u", s->rx_port);
	snprintf(buf, len, "stream %u (%s -> %s)", i, tx, rx);
}

static bool size_ok(double size)
{
	return size >= BM_SIZE_MIN && size <= BM_SIZE_MAX;
}

static int check_ports(const struct bm_traffic *t, struct bm_error *err)
{
	unsigned int i, j;

	for (i = 0; i < t->n_ports; i++) {
		const struct bm_port_spec *p = &t->ports[i];

		if (!memchr(p->name, 0, sizeof(p->name)) || !p->name[0])
			return bm_errorf(err, "port %u: name missing or longer "
					 "than %zu characters", i,
					 sizeof(p->name) - 1);
		if (!memchr(p->host, 0, sizeof(p->host)))
			return bm_errorf(err, "port %s: host name longer than "
					 "%zu characters", p->name,
					 sizeof(p->host) - 1);
		if (!traffic_rate_ok(p->line_rate_bps))
			return bm_errorf(err, "port %s: line rate %g bit/s is "
					 "not a positive number", p->name,
					 p->line_rate_bps);
		for (j = 0; j < i; j++)
			if (!strcmp(t->ports[j].host, p->host) &&
			    !strcmp(t->ports[j].name, p->name))
				return bm_errorf(err, "port %u: %s is port %u "
						 "too", i, p->name, j);
	}
	return 0;
}

bool bm_addr4_benchmark(const uint8_t a[4])
{
	return a[0] == 198 && (a[1] & 0xfe) == 18;
}

bool bm_addr6_benchmark(const uint8_t a[16])
{
	static const uint8_t pfx[6] = { 0x20, 0x01, 0, 0x02, 0, 0 };

	return !memcmp(a, pfx, 6);
}

/* A benchmarking address, or the limited broadcast (§11.1), which no
 * router forwards; 0.0.0.0: the default. */
static bool bench_ip4(const uint8_t *a)
{
	static const uint8_t bcast[4] = { 255, 255, 255, 255 };

	return !memcmp(a, "\0\0\0\0", 4) || !memcmp(a, bcast, 4) ||
	       bm_addr4_benchmark(a);
}

/* A benchmarking address, or unset: the default. */
static bool bench_ip6(const uint8_t *a)
{
	static const uint8_t zero[16];

	return !memcmp(a, zero, 16) || bm_addr6_benchmark(a);
}

/*
 * REQ-ADDR-1 (RFC 8239 §7: the tester MUST NOT be connected to devices
 * that may forward test traffic into a production network): every
 * address stream s's frames carry, its own or its ports' defaults, is a
 * benchmarking one.  bmgen only makes such addresses; this keeps it so
 * for every path that builds a trial (a profile, a future procedure).
 */
static int check_addresses(const struct bm_traffic *t,
			   const struct bm_stream_spec *s, const char *who,
			   struct bm_error *err)
{
	const struct bm_frame_template *f = &s->frame;
	const uint8_t *src4 = f->src_ip, *dst4 = f->dst_ip;
	uint8_t last[4];
	uint32_t n;

	if (f->ip_version == 6) {
		if (!bench_ip6(f->src_ip) || !bench_ip6(f->dst_ip) ||
		    (t->ports[s->tx_port].have_ip6 &&
		     !bench_ip6(t->ports[s->tx_port].ip6)) ||
		    (t->ports[s->rx_port].have_ip6 &&
		     !bench_ip6(t->ports[s->rx_port].ip6)))
			return bm_errorf(err, "%s: an IPv6 address outside the "
					 "benchmarking prefix 2001:2::/48 "
					 "(RFC 5180; REQ-ADDR-1: test traffic "
					 "never leaves the test network)", who);
		return 0;
	}
	if (!memcmp(src4, "\0\0\0\0", 4))
		src4 = t->ports[s->tx_port].ip4;
	if (!memcmp(dst4, "\0\0\0\0", 4))
		dst4 = t->ports[s->rx_port].ip4;
	/* §12's networks k * 256 above the destination, the last too */
	n = ((uint32_t)dst4[0] << 24 | (uint32_t)dst4[1] << 16 |
	     (uint32_t)dst4[2] << 8 | dst4[3]) +
	    (f->dst_networks > 1 ? (f->dst_networks - 1) * 256u : 0);
	last[0] = n >> 24;
	last[1] = n >> 16;
	last[2] = n >> 8;
	last[3] = n;
	if (!bench_ip4(src4) || !bench_ip4(dst4) ||
	    (f->dst_networks > 1 && !bench_ip4(last)) ||
	    !bench_ip4(s->tag_dst_ip4))
		return bm_errorf(err, "%s: an IPv4 address outside "
				 "198.18.0.0/15 (RFC 2544 App. C; REQ-ADDR-1: "
				 "test traffic never leaves the test network)",
				 who);
	return 0;
}

static int check_frame(const struct bm_stream_spec *s, const char *who,
		       struct bm_error *err)
{
	const struct bm_frame_template *f = &s->frame;

	if (f->vlan_id < -1 || f->vlan_id > 4094)
		return bm_errorf(err, "%s: VLAN %d outside 0..4094 (-1: "
				 "untagged)", who, f->vlan_id);
	if (f->pcp > 7)
		return bm_errorf(err, "%s: PCP %u outside 0..7", who, f->pcp);
	/* A PCP lives in the VLAN tag: without one it would be dropped
	 * silently. */
	if (f->pcp && f->vlan_id < 0)
		return bm_errorf(err, "%s: PCP %u without a VLAN tag", who,
				 f->pcp);
	if (f->dscp > 63)
		return bm_errorf(err, "%s: DSCP %u outside 0..63", who,
				 f->dscp);
	if (f->tpid && f->tpid != 0x8100 && f->tpid != 0x88a8)
		return bm_errorf(err, "%s: TPID 0x%04x (0x8100 or 0x88a8)",
				 who, f->tpid);
	if ((f->tpid || f->have_vlan2) && f->vlan_id < 0)
		return bm_errorf(err, "%s: a TPID or an inner VLAN without a "
				 "VLAN tag", who);
	if (f->have_vlan2 && (f->vlan2_id > 4094 || f->pcp2 > 7))
		return bm_errorf(err, "%s: inner VLAN %u / PCP %u outside "
				 "0..4094 / 0..7", who, f->vlan2_id, f->pcp2);
	if (f->n_mpls > 2)
		return bm_errorf(err, "%s: %u MPLS labels (at most 2)", who,
				 f->n_mpls);
	for (unsigned int i = 0; i < f->n_mpls; i++)
		if ((f->mpls[i] >> 12) < 16)
			return bm_errorf(err, "%s: MPLS label %u is reserved "
					 "(0..15)", who, f->mpls[i] >> 12);
	if (f->ip_version != 0 && f->ip_version != 4 && f->ip_version != 6)
		return bm_errorf(err, "%s: IP version %u (4 or 6)", who,
				 f->ip_version);
	return 0;
}

static int check_pattern(const struct bm_stream_spec *s, double size,
			 double line_rate_bps, const char *who,
			 struct bm_error *err)
{
	double burst_s;

	switch (s->pattern) {
	case BM_STREAM_CBR:
		return 0;
	case BM_STREAM_COUNT:
		if (s->count < 1)
			return bm_errorf(err, "%s: COUNT of 0 frames", who);
		return 0;
	case BM_STREAM_BURSTS:
		if (s->burst_len < 1)
			return bm_errorf(err, "%s: bursts of 0 frames", who);
		if (s->burst_count < 1)
			return bm_errorf(err, "%s: 0 bursts", who);
		if (s->burst_count == 1)
			return 0;
		if (!isfinite(s->burst_period_s) || s->burst_period_s <= 0)
			return bm_errorf(err, "%s: burst period %g s is not a "
					 "positive number", who,
					 s->burst_period_s);
		/* Bursts go at line rate: a shorter period would overlap
		 * them (slack for a period computed the same way). */
		burst_s = s->burst_len / traffic_fps_max(line_rate_bps, size);
		if (s->burst_period_s < burst_s * (1 - BM_LOAD_SLACK))
			return bm_errorf(err, "%s: burst period %g s shorter "
					 "than its burst (%g s at line rate)",
					 who, s->burst_period_s, burst_s);
		return 0;
	}
	return bm_errorf(err, "%s: unknown pattern %d", who, (int)s->pattern);
}

/* The stream's load in % of its tx port's line rate, checked. */
static int check_load(const struct bm_stream_spec *s, double size,
		      double line_rate_bps, bool overload_ok, const char *who,
		      double *pct, struct bm_error *err)
{
	double max = traffic_fps_max(line_rate_bps, size);

	if (!isfinite(s->load) || s->load <= 0)
		return bm_errorf(err, "%s: load %g is not a positive number",
				 who, s->load);
	switch (s->load_unit) {
	case BM_LOAD_PCT:
		if (s->load > 100)
			return bm_errorf(err, "%s: load %.2f %% above 100 %%",
					 who, s->load);
		*pct = s->load;
		return 0;
	case BM_LOAD_FPS:
		if (s->load > max && !overload_ok)
			return bm_errorf(err, "%s: %.2f fps above the line "
					 "rate's %.2f fps for %.0f B frames",
					 who, s->load, max, size);
		*pct = s->load / max * 100.0;
		return 0;
	}
	return bm_errorf(err, "%s: unknown load unit %d", who,
			 (int)s->load_unit);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* §12 for bridges: a set the module can send, of distinct addresses. */
static int mac_set_check(const struct bm_stream_spec *s, const char *who,
			 struct bm_error *err)
{
	uint32_t n = s->frame.dst_macs, k;
	uint64_t *v;
	uint8_t m[6];
	int ret = 0;

	if (n > 65536 || s->frame.dst_networks > 1 || s->frame.have_dst_mac)
		return bm_errorf(err, "%s: %u random MAC destinations: at "
				 "most 65536, without random networks or a "
				 "fixed destination MAC", who, n);
	v = malloc(n * sizeof(*v));
	if (!v)
		return bm_errorf(err, "out of memory");
	for (k = 0; k < n; k++) {
		bmgen_flow_mac(s->frame.mac_seed, k, m);
		v[k] = (uint64_t)m[0] << 40 | (uint64_t)m[1] << 32 |
		       (uint64_t)m[2] << 24 | (uint64_t)m[3] << 16 |
		       (uint64_t)m[4] << 8 | m[5];
	}
	qsort(v, n, sizeof(*v), cmp_u64);
	for (k = 1; k < n && !ret; k++)
		if (v[k] == v[k - 1])
			ret = bm_errorf(err, "%s: seed %llu gives %u MACs with "
					"two alike: choose another seed", who,
					(unsigned long long)s->frame.mac_seed,
					n);
	free(v);
	return ret;
}

static int check_stream(const struct bm_traffic *t, unsigned int i,
			uint32_t frame_size, double *port_pct,
			struct bm_error *err)
{
	const struct bm_stream_spec *s = &t->streams[i];
	char who[128];
	double size, rate, pct = 0;
	int ret;

	stream_label(t, i, who, sizeof(who));
	if (s->tx_port >= t->n_ports)
		return bm_errorf(err, "%s: tx port %u does not exist (%u "
				 "ports)", who, s->tx_port, t->n_ports);
	if (s->rx_port >= t->n_ports)
		return bm_errorf(err, "%s: rx port %u does not exist (%u "
				 "ports)", who, s->rx_port, t->n_ports);
	if (s->tx_port == s->rx_port)
		return bm_errorf(err, "%s: tx and rx port are the same", who);
	if (s->imix && !t->n_imix)
		return bm_errorf(err, "%s: imix without an imix table", who);
	/* §12: networks k * 256 above an IPv4 destination, not past
	 * 255.255.255.255; the module takes 65536 flows */
	if (s->frame.dst_networks > 1 &&
	    (s->frame.ip_version == 6 || s->frame.dst_networks > 65536 ||
	     ((uint64_t)s->frame.dst_ip[0] << 24 | s->frame.dst_ip[1] << 16 |
	      s->frame.dst_ip[2] << 8 | s->frame.dst_ip[3]) +
	     (uint64_t)(s->frame.dst_networks - 1) * 256 > UINT32_MAX))
		return bm_errorf(err, "%s: %u destination networks: IPv4, at "
				 "most 65536, below 255.255.255.255", who,
				 s->frame.dst_networks);
	if (memcmp(s->tag_dst_ip4, "\0\0\0\0", 4) &&
	    (s->tag_seq < 0 || s->frame.ip_version == 6))
		return bm_errorf(err, "%s: a tagged frame's destination needs "
				 "a tagged IPv4 stream", who);
	if (s->frame.dst_macs > 1 && mac_set_check(s, who, err))
		return -EINVAL;
	size = traffic_stream_size(t, s, frame_size);
	if (!s->imix && !size)
		return bm_errorf(err, "%s: no frame size (neither the stream "
				 "nor the trial names one)", who);
	if (!s->imix && !size_ok(size))
		return bm_errorf(err, "%s: frame size %.0f outside %d..%d",
				 who, size, BM_SIZE_MIN, BM_SIZE_MAX);
	if (!(s->phase >= 0 && s->phase < 1))
		return bm_errorf(err, "%s: phase %g outside [0, 1)", who,
				 s->phase);
	if (!isfinite(s->start_s) || s->start_s < 0)
		return bm_errorf(err, "%s: start %g s is not a number >= 0",
				 who, s->start_s);
	ret = check_frame(s, who, err);
	if (!ret)
		ret = check_addresses(t, s, who, err);
	if (ret)
		return ret;
	if (s->burst_last_size && (s->pattern != BM_STREAM_BURSTS ||
				   s->imix))
		return bm_errorf(err, "%s: a burst's last frame size needs "
				 "bursts of one frame size", who);
	if (s->burst_last_size && !size_ok(s->burst_last_size))
		return bm_errorf(err, "%s: last frame size %u outside %d..%d",
				 who, s->burst_last_size, BM_SIZE_MIN,
				 BM_SIZE_MAX);
	if (s->log_frames > BM_TRAFFIC_MAX_LOG)
		return bm_errorf(err, "%s: a log of %u frames (at most %u)",
				 who, s->log_frames, BM_TRAFFIC_MAX_LOG);
	rate = t->ports[s->tx_port].line_rate_bps;
	ret = check_pattern(s, size, rate, who, err);
	if (ret)
		return ret;
	/* Bursts go at line rate whatever load says; only the other
	 * patterns offer a load. */
	if (s->pattern == BM_STREAM_BURSTS)
		return 0;
	ret = check_load(s, size, rate, t->overload_ok, who, &pct, err);
	if (ret)
		return ret;
	port_pct[s->tx_port] += pct;
	return 0;
}

int bm_traffic_check(const struct bm_traffic *t, uint32_t frame_size,
		     struct bm_error *err)
{
	double port_pct[BM_TRAFFIC_MAX_PORTS] = { 0 };
	unsigned int i;
	int ret;

	if (t->n_ports > BM_TRAFFIC_MAX_PORTS)
		return bm_errorf(err, "%u ports: at most %d", t->n_ports,
				 BM_TRAFFIC_MAX_PORTS);
	if (t->n_streams > BM_TRAFFIC_MAX_STREAMS)
		return bm_errorf(err, "%u streams: at most %d", t->n_streams,
				 BM_TRAFFIC_MAX_STREAMS);
	if (t->n_imix > BM_TRAFFIC_MAX_IMIX)
		return bm_errorf(err, "%u imix sizes: at most %d", t->n_imix,
				 BM_TRAFFIC_MAX_IMIX);
	if (!t->n_streams || !t->streams)
		return bm_errorf(err, "no streams");
	if (frame_size && !size_ok(frame_size))
		return bm_errorf(err, "trial frame size %u outside %d..%d",
				 frame_size, BM_SIZE_MIN, BM_SIZE_MAX);
	ret = check_ports(t, err);
	if (!ret)
		ret = check_rip(t, err);
	if (ret)
		return ret;
	for (i = 0; i < t->n_imix; i++)
		if (!size_ok(t->imix[i]))
			return bm_errorf(err, "imix size %u (entry %u) outside "
					 "%d..%d", t->imix[i], i, BM_SIZE_MIN,
					 BM_SIZE_MAX);
	for (i = 0; i < t->n_streams; i++) {
		ret = check_stream(t, i, frame_size, port_pct, err);
		if (ret)
			return ret;
	}
	for (i = 0; i < t->n_ports && !t->overload_ok; i++)
		if (port_pct[i] > 100.0 + BM_LOAD_SLACK)
			return bm_errorf(err, "port %s: streams offer %.2f %% "
					 "of its line rate", t->ports[i].name,
					 port_pct[i]);
	return 0;
}

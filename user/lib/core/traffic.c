// SPDX-License-Identifier: GPL-2.0
/*
 * N-port traffic: ports, streams, their check, the topology builders of
 * REQ-TOPO-1 and the per-port and total sums of the per-stream results.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bmgen.h>

#include "bm_traffic.h"

#define BM_SIZE_MIN	64
#define BM_SIZE_MAX	9216
/* Preamble + SFD and inter-frame gap, as in trial.c (SPEC F-1). */
#define BM_L1_OVERHEAD	20
/* A sum of N loads of 100/N % is 100 % only up to rounding. */
#define BM_LOAD_SLACK	1e-9

void bm_traffic_init(struct bm_traffic *t)
{
	memset(t, 0, sizeof(*t));
}

void bm_traffic_free(struct bm_traffic *t)
{
	free(t->streams);
	memset(t, 0, sizeof(*t));
}

unsigned int bm_mgmt_queries(const struct bm_mgmt_spec *m, double duration_s)
{
	double n;

	if (!(m->interval_s > 0.0) || !(duration_s > 0.0))
		return 0;
	/* a query at the very end is after the trial: 1e-9 of slack */
	n = ceil(duration_s / m->interval_s - 1e-9);
	return n > 1e6 ? 1000000 : (unsigned int)n;
}

unsigned int bm_rip_sends(const struct bm_rip_msg *m, double lead_s,
			  double duration_s)
{
	double first = m->at_s, n;

	if (!(m->every_s > 0.0))
		return m->at_s >= 0 && m->at_s < duration_s - 1e-9;
	/* a pre-trial message's first repeat in the trial */
	if (m->at_s < 0)
		first = fmax(1.0, ceil(lead_s / m->every_s - 1e-9)) *
			m->every_s - lead_s;
	if (!(duration_s > 0.0) || !(first < duration_s - 1e-9))
		return 0;
	/* as bm_mgmt_queries: none at the very end */
	n = ceil((duration_s - first) / m->every_s - 1e-9);
	return n > 1e6 ? 1000000 : (unsigned int)n;
}

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

void bm_mgmt_note_unanswered(struct bm_trial_result *res)
{
	if (!res->mgmt_error[0] && res->mgmt_answered < res->mgmt_sent)
		snprintf(res->mgmt_error, sizeof(res->mgmt_error), "%u of %u "
			 "queries unanswered",
			 res->mgmt_sent - res->mgmt_answered, res->mgmt_sent);
}

void bm_port_default_ip4(unsigned int i, uint8_t ip4[4])
{
	/* Only 254 pairs fit in the third octet; beyond them (i >= 508,
	 * never within BM_TRAFFIC_MAX_PORTS) the pairs wrap modulo 254. */
	unsigned int n = (i / 2) % 254;

	ip4[0] = 198;
	ip4[1] = i % 2 ? 19 : 18;
	ip4[2] = (uint8_t)(n + 1);
	ip4[3] = 2;
}

static bool rate_ok(double bps)
{
	return isfinite(bps) && bps > 0;
}

int bm_traffic_add_port(struct bm_traffic *t, const char *name,
			double line_rate_bps, struct bm_error *err)
{
	struct bm_port_spec *p;
	size_t len = name ? strlen(name) : 0;
	unsigned int i;

	if (t->n_ports >= BM_TRAFFIC_MAX_PORTS)
		return bm_errorf(err, "at most %d ports", BM_TRAFFIC_MAX_PORTS);
	if (len < 1 || len >= sizeof(p->name))
		return bm_errorf(err, "port name \"%s\": 1 to %zu characters",
				 name ? name : "", sizeof(p->name) - 1);
	if (!rate_ok(line_rate_bps))
		return bm_errorf(err, "port %s: line rate %g bit/s is not a "
				 "positive number", name, line_rate_bps);
	for (i = 0; i < t->n_ports; i++)
		if (!t->ports[i].host[0] && !strcmp(t->ports[i].name, name))
			return bm_errorf(err, "port %s: already port %u",
					 name, i);
	p = &t->ports[t->n_ports];
	memset(p, 0, sizeof(*p));
	memcpy(p->name, name, len + 1);
	p->line_rate_bps = line_rate_bps;
	bm_port_default_ip4(t->n_ports, p->ip4);
	return (int)t->n_ports++;
}

void bm_stream_init(struct bm_stream_spec *s, unsigned int tx, unsigned int rx,
		    double load_pct)
{
	memset(s, 0, sizeof(*s));
	s->tx_port = (uint16_t)tx;
	s->rx_port = (uint16_t)rx;
	s->frame.vlan_id = -1;
	s->frame.ip_version = 4;
	s->pattern = BM_STREAM_CBR;
	s->load_unit = BM_LOAD_PCT;
	s->load = load_pct;
	s->tag_seq = -1;
}

/* Room for n streams in all, so that a builder cannot fail half way. */
static int reserve(struct bm_traffic *t, unsigned int n, struct bm_error *err)
{
	struct bm_stream_spec *v;
	unsigned int cap = t->cap_streams ? t->cap_streams : 16;

	if (n > BM_TRAFFIC_MAX_STREAMS) {
		bm_errorf(err, "%u streams: at most %d", n,
			  BM_TRAFFIC_MAX_STREAMS);
		return -E2BIG;
	}
	if (n <= t->cap_streams)
		return 0;
	while (cap < n)
		cap *= 2;
	if (cap > BM_TRAFFIC_MAX_STREAMS)
		cap = BM_TRAFFIC_MAX_STREAMS;
	v = realloc(t->streams, cap * sizeof(*v));
	if (!v) {
		bm_errorf(err, "no memory for %u streams", cap);
		return -ENOMEM;
	}
	t->streams = v;
	t->cap_streams = cap;
	return 0;
}

int bm_traffic_add_stream(struct bm_traffic *t, const struct bm_stream_spec *s,
			  struct bm_error *err)
{
	int ret = reserve(t, t->n_streams + 1, err);

	if (ret)
		return ret;
	t->streams[t->n_streams] = *s;
	return (int)t->n_streams++;
}

/* After reserve(): cannot fail. */
static void push(struct bm_traffic *t, unsigned int tx, unsigned int rx,
		 double load_pct)
{
	bm_stream_init(&t->streams[t->n_streams++], tx, rx, load_pct);
}

/* push, as the k-th of a port's n round-robin streams (phase k/n) */
static void push_rr(struct bm_traffic *t, unsigned int tx, unsigned int rx,
		    double load_pct, unsigned int k, unsigned int n)
{
	push(t, tx, rx, load_pct);
	t->streams[t->n_streams - 1].phase = (double)k / n;
}

static double imix_mean(const struct bm_traffic *t)
{
	double sum = 0;
	unsigned int i;

	if (!t->n_imix || t->n_imix > BM_TRAFFIC_MAX_IMIX)
		return 0;
	for (i = 0; i < t->n_imix; i++)
		sum += t->imix[i];
	return sum / t->n_imix;
}

/* Mean frame size of s (the imix mean), or 0 when it has none. */
static double stream_size(const struct bm_traffic *t,
			  const struct bm_stream_spec *s, uint32_t frame_size)
{
	if (s->imix)
		return imix_mean(t);
	return s->frame_size ? s->frame_size : frame_size;
}

static double fps_max(double line_rate_bps, double size)
{
	return line_rate_bps / ((size + BM_L1_OVERHEAD) * 8.0);
}

double bm_stream_start_s(const struct bm_traffic *t,
			 const struct bm_stream_spec *s, uint32_t frame_size)
{
	double fps;

	if (s->pattern == BM_STREAM_BURSTS || !(s->phase > 0))
		return s->start_s;
	fps = bm_stream_fps(t, s, frame_size);
	return fps > 0 ? s->start_s + s->phase / fps : s->start_s;
}

double bm_stream_fps(const struct bm_traffic *t, const struct bm_stream_spec *s,
		     uint32_t frame_size)
{
	double size;

	if (s->load_unit == BM_LOAD_FPS)
		return s->load;
	size = stream_size(t, s, frame_size);
	if (s->tx_port >= t->n_ports || size <= 0)
		return 0;
	return s->load / 100.0 * fps_max(t->ports[s->tx_port].line_rate_bps,
					 size);
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
		if (!rate_ok(p->line_rate_bps))
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
		burst_s = s->burst_len / fps_max(line_rate_bps, size);
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
		      double line_rate_bps, const char *who, double *pct,
		      struct bm_error *err)
{
	double max = fps_max(line_rate_bps, size);

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
		if (s->load > max)
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
	size = stream_size(t, s, frame_size);
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
	ret = check_load(s, size, rate, who, &pct, err);
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
	for (i = 0; i < t->n_ports; i++)
		if (port_pct[i] > 100.0 + BM_LOAD_SLACK)
			return bm_errorf(err, "port %s: streams offer %.2f %% "
					 "of its line rate", t->ports[i].name,
					 port_pct[i]);
	return 0;
}

/* --- builders ------------------------------------------------------------ */

static bool pct_ok(double pct)
{
	return isfinite(pct) && pct > 0 && pct <= 100;
}

static int bad_load(const char *what, double pct, struct bm_error *err)
{
	return bm_errorf(err, "%s: load %g %% outside (0, 100]", what, pct);
}

/* Room for n more streams, or -E2BIG / -ENOMEM naming the topology. */
static int reserve_more(struct bm_traffic *t, unsigned long long n,
			const char *what, struct bm_error *err)
{
	if (t->n_streams + n > BM_TRAFFIC_MAX_STREAMS) {
		bm_errorf(err, "%s: %u + %llu streams, at most %d", what,
			  t->n_streams, n, BM_TRAFFIC_MAX_STREAMS);
		return -E2BIG;
	}
	return reserve(t, t->n_streams + (unsigned int)n, err);
}

static int check_port(const struct bm_traffic *t, const char *what,
		      unsigned int i, struct bm_error *err)
{
	if (i >= t->n_ports)
		return bm_errorf(err, "%s: port %u does not exist (%u ports)",
				 what, i, t->n_ports);
	return 0;
}

int bm_topo_pair(struct bm_traffic *t, unsigned int a, unsigned int b,
		 bool bidir, double load_pct, struct bm_error *err)
{
	int ret;

	if (!pct_ok(load_pct))
		return bad_load("pair", load_pct, err);
	ret = check_port(t, "pair", a, err);
	if (!ret)
		ret = check_port(t, "pair", b, err);
	if (ret)
		return ret;
	if (a == b)
		return bm_errorf(err, "pair: port %u to itself", a);
	ret = reserve_more(t, bidir ? 2 : 1, "pair", err);
	if (ret)
		return ret;
	push(t, a, b, load_pct);
	if (bidir)
		push(t, b, a, load_pct);
	return bidir ? 2 : 1;
}

int bm_topo_mesh(struct bm_traffic *t, double load_pct, struct bm_error *err)
{
	unsigned int n = t->n_ports, i, k;
	int ret;

	if (!pct_ok(load_pct))
		return bad_load("mesh", load_pct, err);
	if (n < 2)
		return bm_errorf(err, "mesh: %u ports, at least 2", n);
	ret = reserve_more(t, (unsigned long long)n * (n - 1), "mesh", err);
	if (ret)
		return ret;
	for (i = 0; i < n; i++)
		for (k = 1; k < n; k++)
			push_rr(t, i, (i + k) % n, load_pct / (n - 1), k - 1,
				n - 1);
	return (int)(n * (n - 1));
}

int bm_topo_multiport(struct bm_traffic *t, double load_pct,
		      struct bm_error *err)
{
	unsigned int n = t->n_ports, h = n / 2, i, o;
	int ret;

	if (!pct_ok(load_pct))
		return bad_load("multiport", load_pct, err);
	if (n < 2 || n % 2)
		return bm_errorf(err, "multiport: %u ports, an even number "
				 ">= 2", n);
	ret = reserve_more(t, (unsigned long long)h * h, "multiport", err);
	if (ret)
		return ret;
	for (i = 0; i < h; i++)
		for (o = h; o < n; o++)
			push_rr(t, i, o, load_pct / h, o - h, h);
	return (int)(h * h);
}

/* Every index of v below n_ports, all distinct and none equal to other. */
static int check_set(const struct bm_traffic *t, const char *what,
		     const unsigned int *v, unsigned int nv,
		     unsigned int other, struct bm_error *err)
{
	unsigned int i, j;
	int ret;

	if (!v || !nv)
		return bm_errorf(err, "%s: no ports", what);
	ret = check_port(t, what, other, err);
	if (ret)
		return ret;
	for (i = 0; i < nv; i++) {
		ret = check_port(t, what, v[i], err);
		if (ret)
			return ret;
		if (v[i] == other)
			return bm_errorf(err, "%s: port %u both sends and "
					 "receives", what, v[i]);
		for (j = 0; j < i; j++)
			if (v[j] == v[i])
				return bm_errorf(err, "%s: port %u twice",
						 what, v[i]);
	}
	return 0;
}

int bm_topo_many_to_one(struct bm_traffic *t, const unsigned int *in,
			unsigned int n_in, unsigned int out, double load_pct,
			struct bm_error *err)
{
	unsigned int i;
	int ret;

	if (!pct_ok(load_pct))
		return bad_load("many-to-one", load_pct, err);
	ret = check_set(t, "many-to-one", in, n_in, out, err);
	if (!ret)
		ret = reserve_more(t, n_in, "many-to-one", err);
	if (ret)
		return ret;
	for (i = 0; i < n_in; i++)
		push(t, in[i], out, load_pct);
	return (int)n_in;
}

int bm_topo_one_to_many(struct bm_traffic *t, unsigned int in,
			const unsigned int *out, unsigned int n_out,
			double load_pct, struct bm_error *err)
{
	unsigned int i;
	int ret;

	if (!pct_ok(load_pct))
		return bad_load("one-to-many", load_pct, err);
	ret = check_set(t, "one-to-many", out, n_out, in, err);
	if (!ret)
		ret = reserve_more(t, n_out, "one-to-many", err);
	if (ret)
		return ret;
	for (i = 0; i < n_out; i++)
		push_rr(t, in, out[i], load_pct / n_out, i, n_out);
	return (int)n_out;
}

int bm_topo_n_minus_j(struct bm_traffic *t, unsigned int j, double load_pct,
		      struct bm_error *err)
{
	unsigned int n = t->n_ports, i, e;
	int ret;

	if (!pct_ok(load_pct))
		return bad_load("n-j", load_pct, err);
	if (n < 3 || j < 1 || j > n - 2)
		return bm_errorf(err, "n-j: j = %u outside 1..N-2 for N = %u "
				 "ports", j, n);
	ret = reserve_more(t, (unsigned long long)(n - j) * j, "n-j", err);
	if (ret)
		return ret;
	for (i = 0; i < n - j; i++)
		for (e = n - j; e < n; e++)
			push_rr(t, i, e, load_pct / j, e - (n - j), j);
	return (int)((n - j) * j);
}

int bm_topo_holb(struct bm_traffic *t, unsigned int n_groups, unsigned int s,
		 double a_pct, double b_pct, struct bm_error *err)
{
	unsigned int n = t->n_ports, g, a;
	int ret;

	if (!pct_ok(a_pct) || 2 * a_pct > 100.0 + BM_LOAD_SLACK)
		return bm_errorf(err, "holb: A's load %g %% outside (0, 50] "
				 "(A sends two streams)", a_pct);
	if (!pct_ok(b_pct))
		return bad_load("holb B", b_pct, err);
	if (n < 4)
		return bm_errorf(err, "holb: %u ports, at least 4", n);
	if (!n_groups)
		n_groups = n / 4;
	if (n_groups > n / 4)
		return bm_errorf(err, "holb: %u groups of 4 need %u ports, "
				 "there are %u", n_groups, 4 * n_groups, n);
	if (s >= n)
		return bm_errorf(err, "holb: shift %u outside 0..%u", s, n - 1);
	ret = reserve_more(t, 3ULL * n_groups, "holb", err);
	if (ret)
		return ret;
	for (g = 0; g < n_groups; g++) {
		a = 4 * g + s;
		push(t, a % n, (a + 2) % n, a_pct);
		push(t, a % n, (a + 3) % n, a_pct);
		push(t, (a + 1) % n, (a + 3) % n, b_pct);
	}
	return (int)(3 * n_groups);
}

int bm_topo_snake(struct bm_traffic *t, unsigned int n_dut_ports, bool bidir,
		  double load_pct, struct bm_error *err)
{
	int ret;

	if (!pct_ok(load_pct))
		return bad_load("snake", load_pct, err);
	if (n_dut_ports < 4 || n_dut_ports % 2)
		return bm_errorf(err, "snake: %u DUT ports, an even number "
				 ">= 4", n_dut_ports);
	if (t->n_ports != 2)
		return bm_errorf(err, "snake: %u tester ports, exactly 2",
				 t->n_ports);
	ret = reserve_more(t, bidir ? 2 : 1, "snake", err);
	if (ret)
		return ret;
	push(t, 0, 1, load_pct);
	if (bidir)
		push(t, 1, 0, load_pct);
	return bidir ? 2 : 1;
}

/* snprintf that appends, counting what it needed past the end. */
struct plan_buf {
	char *buf;
	size_t len, need;
};

static void __attribute__((format(printf, 2, 3)))
plan_printf(struct plan_buf *b, const char *fmt, ...)
{
	size_t at = b->need < b->len ? b->need : b->len;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(b->buf ? b->buf + at : NULL, b->buf ? b->len - at : 0,
		      fmt, ap);
	va_end(ap);
	if (n > 0)
		b->need += (size_t)n;
}

int bm_snake_plan(unsigned int n_dut_ports, unsigned int vlan_base,
		  char *buf, size_t len)
{
	struct plan_buf b = { buf, buf ? len : 0, 0 };
	unsigned int k, p;

	if (n_dut_ports < 4 || n_dut_ports % 2)
		return -EINVAL;
	/* VLAN 0 only carries a priority and 4095 is reserved; the bound
	 * also keeps the text short enough for an int. */
	if (vlan_base < 1 || vlan_base > 4094 ||
	    n_dut_ports / 2 - 1 > 4094 - vlan_base)
		return -EINVAL;
	if (b.len)
		b.buf[0] = '\0';
	plan_printf(&b, "DUT ports 1 and %u to the tester; cable DUT ports",
		    n_dut_ports);
	for (p = 2; p < n_dut_ports; p += 2)
		plan_printf(&b, "%s %u<->%u", p > 2 ? "," : "", p, p + 1);
	plan_printf(&b, "\n");
	for (k = 0; k < n_dut_ports / 2; k++)
		plan_printf(&b, "VLAN %u: DUT ports %u, %u\n", vlan_base + k,
			    2 * k + 1, 2 * k + 2);
	return (int)b.need;
}

/* --- results ------------------------------------------------------------- */

struct bm_traffic_result *bm_traffic_result_new(const struct bm_traffic *t)
{
	struct bm_traffic_result *r = calloc(1, sizeof(*r));
	unsigned int i;

	if (!r)
		return NULL;
	/* calloc(0) may return NULL; one spare entry keeps NULL = ENOMEM. */
	r->ports = calloc(t->n_ports ? t->n_ports : 1, sizeof(*r->ports));
	r->streams = calloc(t->n_streams ? t->n_streams : 1,
			    sizeof(*r->streams));
	if (!r->ports || !r->streams) {
		bm_traffic_result_free(r);
		return NULL;
	}
	r->n_ports = t->n_ports;
	r->n_streams = t->n_streams;
	for (i = 0; i < r->n_streams; i++) {
		struct bm_stream_result *s = &r->streams[i];

		s->first_tx_s = s->last_tx_s = -1;
		s->first_rx_s = s->last_rx_s = -1;
		bm_ipdv_set(s, 0, 0, 0, 0);
	}
	return r;
}

void bm_ipdv_set(struct bm_stream_result *s, uint64_t count, double min_ns,
		 double max_ns, double sum_ns)
{
	s->ipdv_count = count;
	s->ipdv_min_ns = count ? min_ns : NAN;
	s->ipdv_max_ns = count ? max_ns : NAN;
	s->ipdv_mean_ns = count ? sum_ns / (double)count : NAN;
}

void bm_ipdv_fold(const struct bm_traffic_result *r, uint64_t *count,
		  double *min_ns, double *mean_ns, double *max_ns)
{
	double sum = 0;
	unsigned int i;

	*count = 0;
	*min_ns = *mean_ns = *max_ns = NAN;
	for (i = 0; i < r->n_streams; i++) {
		const struct bm_stream_result *s = &r->streams[i];

		if (!s->ipdv_count)
			continue;
		*min_ns = *count ? fmin(*min_ns, s->ipdv_min_ns) :
			  s->ipdv_min_ns;
		*max_ns = *count ? fmax(*max_ns, s->ipdv_max_ns) :
			  s->ipdv_max_ns;
		sum += s->ipdv_mean_ns * (double)s->ipdv_count;
		*count += s->ipdv_count;
	}
	if (*count)
		*mean_ns = sum / (double)*count;
}

void bm_traffic_result_free(struct bm_traffic_result *r)
{
	unsigned int i;

	if (!r)
		return;
	for (i = 0; r->streams && i < r->n_streams; i++) {
		free(r->streams[i].tx_log_s);
		free(r->streams[i].rx_log);
	}
	free(r->ports);
	free(r->streams);
	free(r);
}

/* Bytes of n frames of s: exact for one size, the imix mean otherwise
 * (which frames of the cycle were lost is not known). */
static uint64_t frame_bytes(const struct bm_traffic *t,
			    const struct bm_stream_spec *s, uint32_t frame_size,
			    uint64_t n)
{
	uint64_t sum = 0;
	unsigned int i;

	if (!s->imix)
		return n * (s->frame_size ? s->frame_size : frame_size);
	if (!t->n_imix || t->n_imix > BM_TRAFFIC_MAX_IMIX)
		return 0;
	for (i = 0; i < t->n_imix; i++)
		sum += t->imix[i];
	return n / t->n_imix * sum +
	       (uint64_t)llround((double)(n % t->n_imix) * sum / t->n_imix);
}

/* The bytes of n frames the backend counted (exact: a burst's last size,
 * which imix frames), else as frame_bytes() estimates them. */
static uint64_t stream_bytes(const struct bm_traffic *t,
			     const struct bm_stream_spec *s,
			     uint32_t frame_size, uint64_t n, uint64_t counted)
{
	return counted || !n ? counted : frame_bytes(t, s, frame_size, n);
}

static double l1_pct(uint64_t bytes, uint64_t frames, double span_s,
		     double line_rate_bps)
{
	if (!(span_s > 0) || !isfinite(span_s) || !rate_ok(line_rate_bps))
		return 0;
	return ((double)bytes + (double)frames * BM_L1_OVERHEAD) * 8.0 /
	       span_s / line_rate_bps * 100.0;
}

/* Pool the latency of every stream with samples into *l. */
static void sum_latency(const struct bm_traffic_result *r, unsigned int n,
			struct bm_latency *l)
{
	const struct bm_latency *one = NULL;
	double total = 0, mean = 0, ss = 0;
	unsigned int i, with = 0;

	memset(l, 0, sizeof(*l));
	for (i = 0; i < n; i++) {
		const struct bm_latency *x = &r->streams[i].latency;

		if (!x->count)
			continue;
		if (!with || x->min_ns < l->min_ns)
			l->min_ns = x->min_ns;
		if (!with || x->max_ns > l->max_ns)
			l->max_ns = x->max_ns;
		with++;
		l->count += x->count;
		total += (double)x->count * x->mean_ns;
		one = x;
	}
	if (!l->count)
		return;
	mean = total / (double)l->count;
	/* REQ-STAT-2's sample stddev: the sum of squares about the pooled
	 * mean is each stream's own ((n-1) s^2) plus n (m - mean)^2. */
	for (i = 0; i < n; i++) {
		const struct bm_latency *x = &r->streams[i].latency;
		double d = x->mean_ns - mean;

		if (!x->count)
			continue;
		ss += (double)(x->count - 1) * x->stddev_ns * x->stddev_ns +
		      (double)x->count * d * d;
	}
	l->mean_ns = mean;
	l->stddev_ns = l->count > 1 ? sqrt(ss / (double)(l->count - 1)) : 0;
	/* Percentiles do not pool; a merged histogram is the backend's. */
	if (with == 1) {
		l->p50_ns = one->p50_ns;
		l->p90_ns = one->p90_ns;
		l->p99_ns = one->p99_ns;
		l->p999_ns = one->p999_ns;
	}
}

void bm_traffic_result_sum(const struct bm_traffic *t, uint32_t frame_size,
			   struct bm_traffic_result *r, double span_s,
			   struct bm_trial_result *sum)
{
	unsigned int np = r->n_ports < t->n_ports ? r->n_ports : t->n_ports;
	unsigned int ns = r->n_streams < t->n_streams ? r->n_streams :
			  t->n_streams;
	double first_tx = -1, last_tx = -1;
	unsigned int i;

	memset(r->ports, 0, r->n_ports * sizeof(*r->ports));
	sum->intended = sum->attempted = sum->received = 0;
	sum->lost = sum->duplicate = sum->reordered = 0;
	sum->first_rx_s = sum->last_rx_s = -1;
	for (i = 0; i < ns; i++) {
		const struct bm_stream_spec *s = &t->streams[i];
		const struct bm_stream_result *x = &r->streams[i];

		if (s->tx_port < np) {
			struct bm_port_result *p = &r->ports[s->tx_port];

			p->tx_frames += x->sent;
			p->tx_bytes += stream_bytes(t, s, frame_size, x->sent,
						    x->tx_bytes);
		}
		if (s->rx_port < np) {
			struct bm_port_result *p = &r->ports[s->rx_port];

			p->rx_frames += x->received;
			p->rx_bytes += stream_bytes(t, s, frame_size,
						    x->received, x->rx_bytes);
			p->lost += x->lost;
		}
		sum->intended += x->intended;
		sum->attempted += x->sent;
		sum->received += x->received;
		sum->lost += x->lost;
		sum->duplicate += x->duplicated;
		sum->reordered += x->reordered;
		if (x->first_rx_s >= 0 &&
		    (sum->first_rx_s < 0 || x->first_rx_s < sum->first_rx_s))
			sum->first_rx_s = x->first_rx_s;
		if (x->last_rx_s >= 0 && x->last_rx_s > sum->last_rx_s)
			sum->last_rx_s = x->last_rx_s;
		if (x->first_tx_s >= 0 &&
		    (first_tx < 0 || x->first_tx_s < first_tx))
			first_tx = x->first_tx_s;
		if (x->last_tx_s >= 0 && x->last_tx_s > last_tx)
			last_tx = x->last_tx_s;
	}
	for (i = 0; i < np; i++) {
		struct bm_port_result *p = &r->ports[i];
		double rate = t->ports[i].line_rate_bps;

		p->tx_load_pct = l1_pct(p->tx_bytes, p->tx_frames, span_s,
					rate);
		p->rx_load_pct = l1_pct(p->rx_bytes, p->rx_frames, span_s,
					rate);
	}
	sum->actual_duration_s = first_tx >= 0 && last_tx >= first_tx ?
				 last_tx - first_tx : 0;
	sum_latency(r, ns, &sum->latency);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * N-port trials on bmgen.ko: one module stream per traffic stream, ids
 * allocated 1..n for this trial, every port attached and resolved by
 * name, learning frames from every receiving port, then per-stream
 * statistics into a struct bm_traffic_result.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/bmgen.h>

#include "backend_genl_int.h"
#include "bm_mgmt.h"
#include "bm_rip_send.h"
#include "bm_lanes.h"
#include "bm_traffic.h"

#define BM_LEARN_FRAMES 4
#define BM_LEARN_FPS 1000.0
#define BM_LEARN_MAC_FPS 10000.0	/* 2 x 4096 MACs in 0.8 s */
#define BM_LEARNING_PAUSE_S 2.0	/* RFC 2544 §23b */

/* Only the local host's ports work today; a port names its host so that
 * several bmd hosts can later be one port pool. */
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

static int bm_resolve_ports(struct bm_genl_backend *b, const struct bm_traffic *t,
			    unsigned int *ifindex, struct bm_error *err)
{
	unsigned int i;
	int ret;

	for (i = 0; i < t->n_ports; i++) {
		if (!bm_port_is_local(&t->ports[i]))
			return bm_errorf(err, "port %s is on host %s: only this "
					 "host's ports can run trials yet",
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

		if (!ports || rx[ss->rx_port])
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

		if (ss->frame.dst_macs < 2)
			continue;
		learn_stream(&s, id++, ifindex, ss, f,
			     2ULL * ss->frame.dst_macs, BM_LEARN_MAC_FPS);
		s.flows = ss->frame.dst_macs;
		s.mac_flows = BMGEN_FLOW_MAC_SRC;
		s.mac_seed = ss->frame.mac_seed;
		ret = bm_genl_stream_add(b->g, &s, err);
	}
	free(rx);
	if (!ret)
		ret = bm_genl_trial_start(b->g, 0, BM_GENL_TRIAL_OWNED, err);
	if (!ret)
		ret = bm_genl_trial_wait(b->g, 10, &terr, err);
	if (ret < 0)
		return ret;
	bm_sleep_s(pause >= 0 ? pause : BM_LEARNING_PAUSE_S);
	return 0;
}

/* The frames a stream is meant to send in this trial (REQ-GEN-2). */
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
 * and every sending port the DUT's MAC on its subnet, resolved afresh.
 */
static int bm_traffic_routes(const struct bm_traffic *t, uint8_t (*gw_mac)[6],
			     struct bm_error *err)
{
	struct bm_router_port rp;
	unsigned int i, k;
	int ret;

	for (i = 0; i < t->n_ports; i++) {
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

static uint64_t bm_intended(const struct bm_traffic *t,
			    const struct bm_stream_spec *ss, uint32_t f,
			    double duration_s)
{
	double fps = bm_stream_fps(t, ss, f);

	switch (ss->pattern) {
	case BM_STREAM_COUNT:
		return ss->count;
	case BM_STREAM_BURSTS:
		return (uint64_t)ss->burst_len * ss->burst_count;
	default:
		if (duration_s <= ss->start_s)
			return 0;
		return (uint64_t)llround(fps * (duration_s - ss->start_s));
	}
}

/*
 * How many lanes logical stream ss of a trial of n streams gets: up to
 * b->lanes for a rate stream (CBR or a count).  One where a frame's place in the
 * stream's one sequence space matters: the latency tag and the frame log
 * name frames by seq, the step (R2544-RECOV) reads the last lost seq, the
 * reset (R2544-RESET) the stream's longest silence, which lanes would
 * hide; bursts are back to back by definition; hardware stamps pair by
 * seq.
 */
static unsigned int bm_stream_lanes(const struct bm_genl_backend *b,
				    const struct bm_trial_spec *spec,
				    const struct bm_traffic *t,
				    const struct bm_stream_spec *ss,
				    uint64_t intended, unsigned int n)
{
	unsigned int l = b->lanes;

	if (b->lanes_auto && !spec->tx_kthreads) {
		uint32_t f = ss->frame_size ? ss->frame_size : spec->frame_size;
		const char *path = spec->tx_path ? spec->tx_path :
				   bm_genl_tx_path_name(b->tx_path);
		double cap = bm_tx_capacity_fps(b->cap, b->n_cap,
						t->ports[ss->tx_port].name,
						path, f);
		double need = cap > 0 ?
			      ceil(bm_stream_fps(t, ss, f) / (0.9 * cap)) : 1;

		/* REQ-GEN-6: a tenth of each kthread's calibrated rate is
		 * kept for the pacer's catching up */
		if (need < l)
			l = need >= 1 ? (unsigned int)need : 1;
	}
	if (spec->tx_kthreads)
		l = b->ncpus && spec->tx_kthreads > b->ncpus ?
		    b->ncpus : spec->tx_kthreads;
	if (l <= 1 || ss->pattern == BM_STREAM_BURSTS || ss->tag_seq >= 0 ||
	    ss->log_frames || spec->event_fn || spec->pattern == BM_PAT_STEP ||
	    b->hw_on)
		return 1;
	if (l > intended)
		l = (unsigned int)intended;
	while (l > 1 && (uint64_t)n * l >= BMGEN_MAX_STREAMS)
		l--;
	return l ? l : 1;
}

/* The module's id of lane i of logical stream k of n: lane 0 is k + 1,
 * so a trial without lanes keeps ids 1..n. */
static uint32_t bm_lane_id(unsigned int k, unsigned int i, unsigned int n)
{
	return i * n + k + 1;
}

int bm_genl_logical_stats(struct bm_genl_backend *b, unsigned int k,
			  struct bm_genl_stats *st, struct bm_error *err)
{
	unsigned int i, lanes = k < b->n_logical ? b->lane_n[k] : 1;
	struct bm_genl_stats lane;
	int ret;

	ret = bm_genl_stats_get(b->g, k + 1, st, err);
	for (i = 1; !ret && i < lanes; i++) {
		ret = bm_genl_stats_get(b->g, bm_lane_id(k, i, b->n_logical),
					&lane, err);
		if (ret)
			break;
		bm_genl_stats_lane_add(st, &lane);
		bm_genl_stats_free(&lane);
	}
	if (ret)
		bm_genl_stats_free(st);
	return ret;
}

int bm_genl_close_counting(struct bm_genl_backend *b, struct bm_error *err)
{
	int ret = bm_genl_rx_close(b->g, err);

	if (ret == -EOPNOTSUPP) {
		if (err)
			err->msg[0] = '\0';
		return 0;
	}
	return ret ? ret : 1;
}

int bm_genl_watch_late(struct bm_genl_backend *b, int closed,
		       struct bm_trial_result *res, struct bm_error *err)
{
	struct bm_genl_stats st;
	uint64_t late = 0;
	unsigned int k;
	double t0;
	int ret = 0;

	if (closed <= 0 || !res->lost)
		return 0;
	t0 = bm_mono_s();
	bm_sleep_s(BM_LATE_WATCH_S);
	for (k = 0; !ret && k < b->n_logical; k++) {
		ret = bm_genl_logical_stats(b, k, &st, err);
		if (!ret) {
			late += st.rx_late;
			bm_genl_stats_free(&st);
		}
	}
	if (ret)
		return ret;
	/* late frames are among the lost ones, never more */
	res->late = late < res->lost ? late : res->lost;
	res->late_watch_s = bm_mono_s() - t0;
	b->be.elapsed_s += res->late_watch_s;
	return 0;
}

static int bm_traffic_stream_add(struct bm_genl_backend *b,
				 const struct bm_trial_spec *spec,
				 const struct bm_traffic *t,
				 const struct bm_stream_spec *ss, uint32_t id,
				 const unsigned int *ifindex, uint32_t f,
				 uint64_t intended, uint8_t (*gw_mac)[6],
				 unsigned int lanes, unsigned int lane,
				 struct bm_error *err)
{
	const struct bm_port_spec *tx = &t->ports[ss->tx_port];
	const struct bm_port_spec *rx = &t->ports[ss->rx_port];
	const struct bm_frame_template *fr = &ss->frame;
	struct bm_genl_stream s;
	double fps = bm_stream_fps(t, ss, f), due;
	uint32_t size;
	unsigned int i;

	bm_genl_stream_init(&s);
	s.id = id;
	s.tx_path = spec->tx_path ?
		    (uint32_t)bm_genl_tx_path_of_name(spec->tx_path) :
		    b->tx_path;
	s.tx_ifindex = ifindex[ss->tx_port];
	s.rx_ifindex = ifindex[ss->rx_port];
	size = ss->frame_size ? ss->frame_size : f;
	s.frame_size = size;
	if (ss->imix) {
		for (i = 0; i < t->n_imix && i < 64; i++)
			s.imix[i] = t->imix[i];
		s.n_imix = i;
		/* the module takes the sizes from the list and refuses a
		 * frame size beside it; size stays the mean, for pacing */
		s.frame_size = 0;
	}
	s.start_ns = (uint64_t)llround(bm_stream_start_s(t, ss, f) * 1e9);
	/* one kthread per tx port: a port's frames leave in order, its
	 * streams' turns kept (the module falls back to round robin); a
	 * lane to the next kthread */
	s.cpu = b->ncpus ? (int)((ss->tx_port + lane) % b->ncpus) : -1;
	if (lanes > 1) {
		struct bm_lane l;

		bm_lane_plan(intended, fps, s.start_ns / 1e9, lanes, lane, &l);
		intended = l.count;
		fps = l.fps;
		s.start_ns = (uint64_t)llround(l.start_s * 1e9);
	}
	if (ss->tag_seq >= 0) {
		s.tag = 1;
		s.tag_seq = (uint64_t)ss->tag_seq;
		memcpy(s.tag_dst_ip4, ss->tag_dst_ip4, 4);
	}
	if (ss->pattern == BM_STREAM_BURSTS) {
		/* start to start, as the spec (RFC 7640 Ti): a late burst
		 * does not push the ones after it */
		s.pattern = BMGEN_PAT_BURST;
		s.burst_len = ss->burst_len;
		s.burst_count = ss->burst_count;
		s.burst_last_size = ss->burst_last_size;
		/* RFC 2544 §26.4: a burst's frames are due back to back at
		 * the line; the module measures how far behind they left */
		due = 1e6 * bm_fps_max(tx->line_rate_bps, size);
		if (due > 0 && due <= 1e15)	/* the module's 10^9 fps */
			s.burst_due_ufps = (uint64_t)llround(due);
		if (ss->burst_count > 1)
			s.burst_period_ns = (uint64_t)llround(
				fmax(1e-6, ss->burst_period_s) * 1e9);
	} else {
		s.pattern = BMGEN_PAT_COUNT;
		s.count = intended;
		s.rate_ufps = (uint64_t)llround(fps * 1e6);
	}
	s.have_dst_mac = fr->have_dst_mac;
	memcpy(s.dst_mac, fr->dst_mac, 6);
	if (gw_mac && !fr->have_dst_mac) {
		s.have_dst_mac = 1;
		memcpy(s.dst_mac, gw_mac[ss->tx_port], 6);
	}
	s.vlan_id = fr->vlan_id;
	s.vlan_pcp = fr->pcp;
	s.vlan_tpid = fr->tpid;
	if (fr->have_vlan2) {
		s.vlan2_id = fr->vlan2_id;
		s.vlan2_pcp = fr->pcp2;
	}
	s.n_mpls = fr->n_mpls;
	memcpy(s.mpls, fr->mpls, sizeof(s.mpls));
	s.ip_version = fr->ip_version ? fr->ip_version : 4;
	s.dscp = fr->dscp;
	s.udp_src = fr->udp_src;
	s.udp_dst = fr->udp_dst;
	if (lanes > 1)	/* a flow hash a lane, for the receivers' RSS */
		s.udp_src = (uint16_t)((fr->udp_src ? fr->udp_src :
					BMGEN_UDP_SRC_DEFAULT) + lane);
	s.log_frames = ss->log_frames;
	if (fr->dst_networks > 1) {
		s.flows = fr->dst_networks;
		s.ip_dst_flows = true;
		s.dst_step = 256;
		s.flow_random = true;
		s.flow_seed = fr->dst_seed;
	}
	if (fr->dst_macs > 1) {
		if (gw_mac)
			return bm_errorf(err, "random MAC destinations are for "
					 "a bridge DUT (a router takes frames "
					 "to its own MAC only)"), -EINVAL;
		s.flows = fr->dst_macs;
		s.mac_flows = BMGEN_FLOW_MAC_DST;
		s.mac_seed = fr->mac_seed;
		s.flow_random = true;
		s.flow_seed = fr->dst_seed;
	}
	if (gw_mac && s.ip_version == 6)
		return bm_errorf(err, "IPv6 frames through a router DUT: the "
				 "tester ports get IPv4 addresses only (IPv6 "
				 "crosses bridge DUTs)"), -EOPNOTSUPP;
	if (s.ip_version == 4) {
		static const uint8_t zero[4];

		memcpy(s.src_ip4, memcmp(fr->src_ip, zero, 4) ? fr->src_ip :
		       tx->ip4, 4);
		memcpy(s.dst_ip4, memcmp(fr->dst_ip, zero, 4) ? fr->dst_ip :
		       rx->ip4, 4);
		s.have_ip4 = 1;
	} else {
		static const uint8_t zero[16];

		if (memcmp(fr->src_ip, zero, 16) || tx->have_ip6) {
			memcpy(s.src_ip6, memcmp(fr->src_ip, zero, 16) ?
			       fr->src_ip : tx->ip6, 16);
			s.have_src_ip6 = 1;
		}
		if (memcmp(fr->dst_ip, zero, 16) || rx->have_ip6) {
			memcpy(s.dst_ip6, memcmp(fr->dst_ip, zero, 16) ?
			       fr->dst_ip : rx->ip6, 16);
			s.have_dst_ip6 = 1;
		}
	}
	s.ptp_shape = s.frame_size &&
		      bm_genl_hw_ptp_shape(b, spec, tx->name, rx->name, size);
	return bm_genl_stream_add(b->g, &s, err);
}

static void bm_stream_from_stats(const struct bm_genl_stats *st,
				 uint64_t intended, struct bm_stream_result *r)
{
	unsigned int i;

	r->intended = intended;
	r->sent = st->tx_frames;
	r->received = st->rx_unique;
	r->lost = r->sent > r->received ? r->sent - r->received : 0;
	r->reordered = st->rx_reordered;
	r->duplicated = st->rx_dup;
	r->first_tx_s = st->tx_frames ? st->tx_first_ns / 1e9 : -1;
	r->last_tx_s = st->tx_frames ? st->tx_last_ns / 1e9 : -1;
	r->first_rx_s = st->rx_frames ? st->rx_first_ns / 1e9 : -1;
	r->last_rx_s = st->rx_frames ? st->rx_last_ns / 1e9 : -1;
	bm_genl_stats_latency(st, &r->latency);
	bm_ipdv_set(r, st->ipdv_count, (double)st->ipdv_min_ns,
		    (double)st->ipdv_max_ns, (double)st->ipdv_sum_ns);
	r->pdv_ns = st->lat_count ? (double)(st->lat_max_ns - st->lat_min_ns) : 0;
	r->tx_bytes = st->tx_bytes;
	r->rx_bytes = st->rx_bytes;
	memcpy(r->rx_dscp, st->rx_dscp, sizeof(r->rx_dscp));
	memcpy(r->rx_pcp, st->rx_pcp, sizeof(r->rx_pcp));
	r->rx_untagged = st->rx_untagged;
	r->tx_late_max_s = st->tx_late_max_ns / 1e9;
	r->tx_burst_late_max_s = st->tx_burst_late_max_ns / 1e9;
	for (i = 0; i < BMGEN_TX_STALLS; i++)
		r->tx_stalls_s[i] = st->tx_stalls_ns[i] / 1e9;
}

/* Read stream id's frame log (spec log_frames) into r. */
static int bm_stream_log(struct bm_genl_backend *b, uint32_t id,
			 uint32_t cap, struct bm_stream_result *r,
			 struct bm_error *err)
{
	struct bmgen_log_rx *rx;
	uint64_t *tx;
	size_t ntx = 0, nrx = 0, i;
	int ret;

	tx = calloc(cap, sizeof(*tx));
	rx = calloc(cap, sizeof(*rx));
	r->tx_log_s = calloc(cap, sizeof(*r->tx_log_s));
	r->rx_log = calloc(cap, sizeof(*r->rx_log));
	if (!tx || !rx || !r->tx_log_s || !r->rx_log) {
		bm_errorf(err, "out of memory for a log of %u frames", cap);
		ret = -ENOMEM;
		goto out;
	}
	ret = bm_genl_log_get(b->g, id, cap, tx, &ntx, rx, &nrx, err);
	if (ret)
		goto out;
	for (i = 0; i < ntx; i++)
		r->tx_log_s[i] = tx[i] / 1e9;
	for (i = 0; i < nrx; i++) {
		struct bm_frame_rec *f = &r->rx_log[i];

		f->seq = rx[i].seq;
		f->tx_s = rx[i].flags & BMGEN_LOG_F_TS ? rx[i].tx_ns / 1e9 : -1;
		f->rx_s = rx[i].rx_ns / 1e9;
		f->size = rx[i].len;
		f->dscp = rx[i].dscp;
		f->pcp = rx[i].pcp;
		f->tagged = rx[i].flags & BMGEN_LOG_F_TAGGED;
	}
	r->n_tx_log = ntx;
	r->n_rx_log = nrx;
out:
	free(tx);
	free(rx);
	return ret;
}

static int bm_traffic_collect(struct bm_genl_backend *b,
			      const struct bm_trial_spec *spec,
			      const uint64_t *intended,
			      struct bm_traffic_result *tr,
			      struct bm_trial_result *res, struct bm_error *err)
{
	const struct bm_traffic *t = spec->traffic;
	struct bm_genl_stats st, sum = { 0 };
	double first = -1, last = -1;
	unsigned int j, k;
	int ret = 0;

	sum.hist = calloc(BMGEN_HIST_BUCKETS, sizeof(*sum.hist));
	if (!sum.hist)
		return bm_errorf(err, "out of memory"), -ENOMEM;
	for (k = 0; k < t->n_streams; k++) {
		ret = bm_genl_logical_stats(b, k, &st, err);
		if (ret)
			break;
		if (k < b->n_logical && b->lane_n[k] > res->tx_lanes)
			res->tx_lanes = b->lane_n[k];
		bm_stream_from_stats(&st, intended[k], &tr->streams[k]);
		if (t->streams[k].log_frames) {
			ret = bm_stream_log(b, k + 1, t->streams[k].log_frames,
					    &tr->streams[k], err);
			if (ret) {
				bm_genl_stats_free(&st);
				break;
			}
		}
		bm_genl_stats_merge(&sum, &st);
		if (st.tx_frames)
			bm_trial_tx_path_add(res, bm_genl_tx_path_name(st.tx_path));
		res->tx_late_frames += st.tx_late_frames;
		res->tx_late_max_s = fmax(res->tx_late_max_s,
					  tr->streams[k].tx_late_max_s);
		if (t->streams[k].pattern == BM_STREAM_BURSTS)
			bm_trial_burst_late_add(res,
				tr->streams[k].tx_burst_late_max_s);
		for (j = 0; j < BMGEN_TX_STALLS; j++)
			bm_trial_stall_add(res->tx_stalls_s,
					   tr->streams[k].tx_stalls_s[j]);
		if (st.rx_max_iat_ns / 1e9 > res->max_gap_s) {
			res->max_gap_s = st.rx_max_iat_ns / 1e9;
			res->max_gap_start_s = st.rx_max_iat_start_ns / 1e9;
		}
		if (st.tx_frames) {
			if (first < 0 || st.tx_first_ns / 1e9 < first)
				first = st.tx_first_ns / 1e9;
			last = fmax(last, st.tx_last_ns / 1e9);
		}
		bm_genl_stats_free(&st);
	}
	if (!ret) {
		bm_traffic_result_sum(t, spec->frame_size, tr,
				      first >= 0 ? last - first : 0, res);
		/* percentiles of all streams together, from the merged
		 * histogram (the sum alone cannot give them) */
		bm_genl_stats_latency(&sum, &res->latency);
		bm_genl_hw_result(b, &sum, res);
		/* the report's coarser histogram: the module's buckets share
		 * its octave edges, so each falls into one of ours whole */
		for (k = 0; sum.hist && k < BMGEN_HIST_BUCKETS; k++)
			if (sum.hist[k])
				res->lat_hist[bm_lat_hist_index(
					(double)bmgen_hist_lower_ns(k))] +=
					sum.hist[k];
	}
	bm_genl_stats_free(&sum);
	return ret;
}

/*
 * REQ-GEN-6, MLR §5.1 duration stretching, counted as the pair trial
 * counts it: the frames of a paced stream still unsent when its last
 * one was due are shortfall, and more than 10 us of them (at least a
 * frame) make the trial generator-limited.  Without it a stream the
 * module sent in full, but seconds late, passed as offered at its rate.
 * Bursts are back to back by definition: no schedule to stretch.
 */
static void bm_traffic_stretch(const struct bm_traffic *t, uint32_t f,
			       const struct bm_traffic_result *tr,
			       struct bm_trial_result *res)
{
	unsigned int k;

	for (k = 0; k < t->n_streams; k++) {
		const struct bm_stream_result *sr = &tr->streams[k];
		double fps = bm_stream_fps(t, &t->streams[k], f), late;
		uint64_t sf;

		if (t->streams[k].pattern == BM_STREAM_BURSTS ||
		    !(fps > 0) || sr->sent < 2)
			continue;
		late = sr->last_tx_s - sr->first_tx_s -
		       (double)(sr->sent - 1) / fps;
		if (!(late > 0))
			continue;
		sf = (uint64_t)(late * fps);
		res->shortfall += sf;
		if (sf > (uint64_t)(10e-6 * fps))
			res->generator_limited = true;
	}
}

int bm_traffic_add_all(struct bm_genl_backend *b, const struct bm_traffic *t,
		       const struct bm_trial_spec *spec,
		       const unsigned int *ifindex, uint8_t (*gw_mac)[6],
		       uint64_t *intended, double *want, struct bm_error *err)
{
	unsigned int k;
	int ret;

	unsigned int *lane_n;

	lane_n = realloc(b->lane_n, (t->n_streams ? t->n_streams : 1) *
			 sizeof(*lane_n));
	if (!lane_n)
		return bm_errorf(err, "out of memory"), -ENOMEM;
	b->lane_n = lane_n;
	b->n_logical = 0;
	ret = bm_genl_stream_del(b->g, 0, err);
	for (k = 0; !ret && k < t->n_streams; k++) {
		const struct bm_stream_spec *ss = &t->streams[k];
		unsigned int i;
		double end;

		intended[k] = bm_intended(t, ss, spec->frame_size,
					  spec->duration_s);
		if (!intended[k])
			return bm_errorf(err, "stream %u (%s -> %s) sends no "
					 "frame in %.3f s", k,
					 t->ports[ss->tx_port].name,
					 t->ports[ss->rx_port].name,
					 spec->duration_s);
		lane_n[k] = bm_stream_lanes(b, spec, t, ss, intended[k],
					    t->n_streams);
		for (i = 0; !ret && i < lane_n[k]; i++)
			ret = bm_traffic_stream_add(b, spec, t, ss,
						    bm_lane_id(k, i, t->n_streams),
						    ifindex, spec->frame_size,
						    intended[k], gw_mac,
						    lane_n[k], i, err);
		end = ss->start_s + (ss->pattern == BM_STREAM_BURSTS ?
				     ss->burst_period_s * ss->burst_count :
				     intended[k] / bm_stream_fps(t, ss, spec->frame_size));
		*want = fmax(*want, end);
	}
	b->n_logical = t->n_streams;
	/* RFC 2544 §8: the formats used go in the report: the first
	 * stream's frame, and the first stream back the other way */
	b->be.frame_hex[0][0] = b->be.frame_hex[1][0] = 0;
	if (!ret && t->n_streams) {
		const struct bm_stream_spec *s0 = &t->streams[0];

		bm_genl_note_frame(b, bm_lane_id(0, 0, t->n_streams), 0);
		for (k = 1; k < t->n_streams; k++)
			if (t->streams[k].tx_port == s0->rx_port &&
			    t->streams[k].rx_port == s0->tx_port) {
				bm_genl_note_frame(b, bm_lane_id(k, 0,
						   t->n_streams), 1);
				break;
			}
	}
	return ret;
}

/*
 * §11.2's queries leave from the sending port's address, which a bridge
 * test does not otherwise give it (router mode has, in
 * bm_traffic_routes()): give it that address.
 */
static int bm_traffic_mgmt_port(const struct bm_traffic *t, bool router,
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

int bm_genl_run_traffic_locked(struct bm_genl_backend *b,
			       const struct bm_trial_spec *spec,
			       struct bm_trial_result *res,
			       struct bm_error *err)
{
	const struct bm_traffic *t = spec->traffic;
	struct bm_traffic_result *tr = spec->traffic_res, *own = NULL;
	unsigned int *ifindex = NULL, k;
	uint8_t (*gw_mac)[6] = NULL;
	uint64_t *intended = NULL;
	struct bm_mgmt_run *mgmt = NULL;
	struct bm_rip_run *rip = NULL;
	double t0, want = spec->duration_s, drain, lead = 0, t_pre = 0;
	int ret, terr = 0, closed;

	ret = bm_traffic_check(t, spec->frame_size, err);
	if (ret)
		return ret;
	if (t->n_streams > BMGEN_MAX_STREAMS - 1)
		return bm_errorf(err, "%u streams: the module takes %u",
				 t->n_streams, BMGEN_MAX_STREAMS - 1), -E2BIG;
	if (tr && (tr->n_streams != t->n_streams || tr->n_ports != t->n_ports))
		return bm_errorf(err, "traffic result does not fit the traffic");
	if (!tr)
		tr = own = bm_traffic_result_new(t);
	ifindex = calloc(t->n_ports, sizeof(*ifindex));
	intended = calloc(t->n_streams, sizeof(*intended));
	if (b->router)
		gw_mac = calloc(t->n_ports, sizeof(*gw_mac));
	if (!tr || !ifindex || !intended || (b->router && !gw_mac)) {
		bm_errorf(err, "out of memory");
		ret = -ENOMEM;
		goto out;
	}
	ret = bm_resolve_ports(b, t, ifindex, err);
	if (!ret)
		ret = bm_genl_wait_foreign(b, err);
	/* §23a: the routing update first, then 2 s for the DUT to settle
	 * before its ARP (or a bridge's learning) starts */
	if (!ret && t->n_rip) {
		t_pre = bm_mono_s();
		ret = bm_rip_pre(&rip, t, &lead, err);
		if (!ret)
			bm_sleep_s(fmin(lead, BM_RIP_SETTLE_S));
	}
	if (!ret && b->router)
		ret = bm_traffic_routes(t, gw_mac, err);
	else if (!ret && (spec->learning || bm_traffic_has_macs(t)))
		ret = bm_traffic_learn(b, t, ifindex, spec->frame_size ?
				       spec->frame_size : 64,
				       spec->learning_pause_s, spec->learning,
				       err);
	if (!ret && t->have_mgmt)
		ret = bm_traffic_mgmt_port(t, b->router, err);
	if (!ret)
		ret = bm_traffic_add_all(b, t, spec, ifindex, gw_mac, intended,
					 &want, err);
	if (!ret)
		ret = bm_genl_hw_arm(b, err);
	/* the stream starts lead after the update (T0 - 7 s, REQ-TRIAL-2) */
	if (!ret && rip)
		bm_sleep_s(t_pre + lead - bm_mono_s());
	if (!ret)
		ret = bm_genl_trial_start(b->g, 0, BM_GENL_TRIAL_OWNED, err);
	if (ret)
		goto out;
	t0 = bm_mono_s();
	ret = bm_rip_start(rip, t0, spec->duration_s, err);
	if (ret) {
		bm_genl_trial_stop(b->g, NULL);
		goto out;
	}
	if (t->have_mgmt) {
		ret = bm_mgmt_start(&mgmt, &t->mgmt,
				    t->ports[t->mgmt.port].name,
				    t->ports[t->mgmt.port].ip4, t0,
				    spec->duration_s, err);
		if (ret) {
			bm_genl_trial_stop(b->g, NULL);
			goto out;
		}
	}
	if (spec->event_fn) {
		bm_sleep_s(spec->event_at_s - (bm_mono_s() - t0));
		res->event_fired_s = bm_mono_s() - t0;
		res->event_ret = spec->event_fn(spec->event_ctx);
	}
	ret = bm_genl_trial_wait(b->g, want * 2 + 30, &terr, err);
	if (ret < 0) {
		bm_genl_trial_stop(b->g, NULL);
		goto out;
	}
	if (ret == BMGEN_TRIAL_FAILED) {
		ret = bm_genl_trial_failed(terr, err);
		goto out;
	}
	if (ret != BMGEN_TRIAL_DONE) {
		bm_errorf(err, "trial was stopped");
		ret = -ECANCELED;
		goto out;
	}
	drain = spec->drain_s >= 0 ? spec->drain_s : BM_DEFAULT_DRAIN_S;
	bm_sleep_s(drain);
	closed = bm_genl_close_counting(b, err);
	if (closed < 0) {
		ret = closed;
		goto out;
	}
	/* the last query's answer may come up to a second after it */
	bm_mgmt_finish(mgmt, false, res);
	mgmt = NULL;
	bm_rip_finish(rip, false, res);
	rip = NULL;
	ret = bm_traffic_collect(b, spec, intended, tr, res, err);
	if (ret)
		goto out;
	ret = bm_genl_watch_late(b, closed, res, err);
	if (ret)
		goto out;
	/* REQ-GEN-6: what the generator did not send is its shortfall */
	for (k = 0; k < t->n_streams; k++)
		if (tr->streams[k].sent < intended[k]) {
			res->shortfall += intended[k] - tr->streams[k].sent;
			res->generator_limited = true;
		}
	bm_traffic_stretch(t, spec->frame_size, tr, res);
	snprintf(res->ts_source, sizeof(res->ts_source), "sw");
	b->be.elapsed_s += bm_mono_s() - t0;
	ret = 0;
out:
	bm_mgmt_finish(mgmt, true, res);
	bm_rip_finish(rip, true, res);
	bm_traffic_result_free(own);
	free(ifindex);
	free(intended);
	free(gw_mac);
	return ret;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * An N-port trial's streams into bmgen.ko (backend_genl_traffic.c): one
 * module stream per traffic stream, ids 1..n for this trial, a fast
 * stream split into lanes over several transmit kthreads (bm_lanes.h),
 * each with its frame, pattern, addresses and flows.  Apart from the
 * trial because it is the translation of a struct bm_traffic into the
 * module's streams, and nothing else.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bmgen.h>

#include "backend_genl_int.h"
#include "bm_hosts.h"
#include "bm_lanes.h"
#include "bm_traffic.h"

/* The frames a stream is meant to send in this trial (REQ-GEN-2). */
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
	/* a stream's halves on two hosts share one id: no lanes */
	if (l <= 1 || ss->pattern == BM_STREAM_BURSTS || ss->tag_seq >= 0 ||
	    ss->log_frames || spec->event_fn || ss->start_s > 0 ||
	    b->hw_on || (spec->host &&
			 bm_stream_half(t, ss, spec->host) != BM_HALF_BOTH))
		return 1;
	if (l > intended)
		l = (unsigned int)intended;
	while (l > 1 && (uint64_t)n * l >= BMGEN_MAX_STREAMS)
		l--;
	return l ? l : 1;
}

/* The module's id of lane i of logical stream k of n: lane 0 is k + 1,
 * so a trial without lanes keeps ids 1..n. */
uint32_t bm_genl_lane_id(unsigned int k, unsigned int i, unsigned int n)
{
	return i * n + k + 1;
}

uint32_t bm_genl_hw_log(const struct bm_genl_backend *b,
			const struct bm_trial_spec *spec, unsigned int k,
			uint64_t intended, uint32_t *every)
{
	const struct bm_traffic *t = spec->traffic;

	*every = 1;
	if (!b->hw_on || !spec->host || !t || k >= t->n_streams ||
	    bm_stream_half(t, &t->streams[k], spec->host) == BM_HALF_BOTH)
		return 0;
	return bm_hw_log_plan(t, k, intended, every);
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
	/* 0 for another host's port: the half on this one alone */
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
	if (s.tx_ifindex && !s.rx_ifindex && !s.have_dst_mac) {
		/* the sending half to another host's port, across a bridge */
		if (!rx->have_mac)
			return bm_errorf(err, "port %s of host %s: its MAC "
					 "address is not known, and stream %u "
					 "sends to it", rx->name, rx->host,
					 id), -EINVAL;
		s.have_dst_mac = 1;
		memcpy(s.dst_mac, rx->mac, 6);
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
	/* rx on another host (ifindex 0): its filter is not known here */
	s.ptp_shape = s.frame_size && s.tx_ifindex &&
		      bm_genl_hw_ptp_shape(b, spec, tx->name, s.rx_ifindex ?
					   rx->name : NULL, size);
	/* a half of a stream across hosts: its stamps for the other host */
	s.hw_log = bm_genl_hw_log(b, spec, (unsigned int)(ss - t->streams),
				  intended, &s.hw_log_every);
	return bm_genl_stream_add(b->g, &s, err);
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

		/* another host's stream: its ids stay free here */
		if (spec->host && !bm_stream_half(t, ss, spec->host)) {
			intended[k] = 0;
			lane_n[k] = 0;
			continue;
		}
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
				bm_genl_lane_id(k, i, t->n_streams), ifindex,
				spec->frame_size, intended[k], gw_mac,
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

		bm_genl_note_frame(b, bm_genl_lane_id(0, 0, t->n_streams), 0);
		for (k = 1; k < t->n_streams; k++)
			if (t->streams[k].tx_port == s0->rx_port &&
			    t->streams[k].rx_port == s0->tx_port) {
				bm_genl_note_frame(b,
					bm_genl_lane_id(k, 0, t->n_streams),
					1);
				break;
			}
	}
	return ret;
}

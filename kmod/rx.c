// SPDX-License-Identifier: GPL-2.0
/*
 * Receive analysis (SPEC PLAT-RX, PLAT-STAT): the rx_handler consumes
 * bmgen test frames and passes everything else up the stack.  Sequence
 * analysis follows REQ-RX-3 (RFC 4737 semantics): a 2^16 duplicate window,
 * in-order, reordered (seq < next expected), gaps; lost = sent - unique is
 * computed by userspace after the drain, which ends with RX_CLOSE: a frame
 * later than that is only counted late.
 */
#include <linux/etherdevice.h>
#include <linux/if_vlan.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/module.h>
#include <linux/mpls.h>
#include <linux/udp.h>
#include <linux/version.h>
#include <net/dsfield.h>
#include <net/ip.h>

#include "bmgen.h"

/*
 * For measuring the analysis itself (make bench): off, the handler only
 * counts each stream's frames and bytes and its first and last arrival,
 * and consumes the frames.  Sequence, loss, latency and histogram results
 * then stay zero, so procedures need it on.
 */
static bool rx_analysis = true;
module_param(rx_analysis, bool, 0644);
MODULE_PARM_DESC(rx_analysis, "analyse received test frames (0: count only, for benchmarks)");

static u64 bm_get48(const u8 *p)
{
	return ((u64)p[0] << 40) | ((u64)p[1] << 32) | ((u64)p[2] << 24) |
	       ((u64)p[3] << 16) | ((u64)p[4] << 8) | p[5];
}

/*
 * Find the TPLD of skb (data at the network header) and the frame's DSCP.
 * Returns its offset from skb->data, or -1 if skb is not a bmgen test
 * frame.
 */
/*
 * Skip what REQ-TM-5 may put before the IP header once the stack took the
 * outer tag: an inner VLAN tag and up to BMGEN_MAX_MPLS labels.  Returns
 * the IP header's offset and its EtherType in *proto, or -1.
 */
static int bm_rx_l3_offset(struct sk_buff *skb, __be16 *proto)
{
	struct vlan_hdr _vh, *vh;
	__be32 _e, *e;
	int off = 0, i;
	u8 _v, *v;

	*proto = skb->protocol;
	if (eth_type_vlan(*proto)) {
		vh = skb_header_pointer(skb, 0, sizeof(_vh), &_vh);
		if (!vh)
			return -1;
		*proto = vh->h_vlan_encapsulated_proto;
		off = VLAN_HLEN;
	}
	if (*proto != htons(ETH_P_MPLS_UC))
		return off;
	for (i = 0; i < BMGEN_MAX_MPLS; i++) {
		e = skb_header_pointer(skb, off, sizeof(_e), &_e);
		if (!e)
			return -1;
		off += 4;
		if (ntohl(*e) & MPLS_LS_S_MASK)
			break;
	}
	if (i == BMGEN_MAX_MPLS)
		return -1;	/* deeper than the stacks bmgen sends */
	v = skb_header_pointer(skb, off, sizeof(_v), &_v);
	if (!v)
		return -1;
	*proto = (*v >> 4) == 6 ? htons(ETH_P_IPV6) : htons(ETH_P_IP);
	return off;
}

static int bm_rx_tpld_offset(struct sk_buff *skb, u8 *dscp)
{
	struct udphdr _uh, *uh;
	__be16 proto;
	int off, l3;

	l3 = bm_rx_l3_offset(skb, &proto);
	if (l3 < 0)
		return -1;
	if (proto == htons(ETH_P_1588)) {
		/* BMGEN_A_STREAM_PTP_SHAPE: a 44-byte Sync message first */
		*dscp = 0;
		return l3 + BM_PTP_SYNC_LEN;
	}
	if (proto == htons(ETH_P_IP)) {
		struct iphdr _ih, *ih = skb_header_pointer(skb, l3, sizeof(_ih), &_ih);

		if (!ih || ih->ihl < 5 || ih->protocol != IPPROTO_UDP ||
		    (ih->frag_off & htons(IP_MF | IP_OFFSET)))
			return -1;
		off = l3 + ih->ihl * 4;
		*dscp = ih->tos >> 2;
	} else if (proto == htons(ETH_P_IPV6)) {
		struct ipv6hdr _ih, *ih = skb_header_pointer(skb, l3, sizeof(_ih), &_ih);

		if (!ih || ih->nexthdr != IPPROTO_UDP)
			return -1;
		off = l3 + sizeof(*ih);
		*dscp = ipv6_get_dsfield(ih) >> 2;
	} else {
		return -1;
	}
	uh = skb_header_pointer(skb, off, sizeof(_uh), &_uh);
	if (!uh)
		return -1;
	return off + sizeof(*uh);
}

/* Sequence analysis of one frame (REQ-RX-3); true if it is a duplicate. */
static bool bm_rx_sequence(struct bm_rx_state *rx, u64 seq)
{
	u64 bit;

	/* slide the window so that seq fits; older seqs count as seen */
	if (seq >= rx->seen_base + BM_DUP_WINDOW) {
		u64 new_base = seq - BM_DUP_WINDOW + 1, b;

		if (new_base - rx->seen_base >= BM_DUP_WINDOW) {
			bitmap_zero(rx->seen, BM_DUP_WINDOW);
		} else {
			for (b = rx->seen_base; b < new_base; b++)
				clear_bit(b & (BM_DUP_WINDOW - 1), rx->seen);
		}
		rx->seen_base = new_base;
	}
	if (seq < rx->seen_base) {
		/* too old to tell: RFC 4737 calls it reordered */
		rx->unique++;
		rx->reordered++;
		return false;
	}
	bit = seq & (BM_DUP_WINDOW - 1);
	if (test_and_set_bit(bit, rx->seen)) {
		rx->dup++;
		return true;
	}
	rx->unique++;
	if (seq == rx->next_exp) {
		rx->in_order++;
		rx->next_exp = seq + 1;
	} else if (seq > rx->next_exp) {
		rx->gap_events++;
		rx->gap_frames += seq - rx->next_exp;
		rx->last_lost_seq = seq;	/* seq - 1 was lost: store +1 */
		rx->next_exp = seq + 1;
	} else {
		rx->reordered++;
	}
	if (seq > rx->max_seq || rx->unique == 1)
		rx->max_seq = seq;
	return false;
}

/*
 * Latency, IPDV (RFC 3393 over consecutive seqs) and the histogram.  lat is
 * signed: across hosts (a TAI start, Documentation/multi-host.md) a
 * receiver whose clock is behind the sender's by more than the path
 * measures below zero.  The summary keeps the value; the histogram, which
 * has no bucket below zero, counts it in bucket 0 and in lat_below_zero.
 */
static void bm_rx_latency(struct bm_rx_state *rx, u64 seq, s64 lat, bool tag)
{
	u64 mag = lat < 0 ? -(u64)lat : lat;

	rx->lat_count++;
	rx->lat_sum += lat;
	rx->lat_sumsq += (unsigned __int128)mag * mag;
	if (lat < rx->lat_min)
		rx->lat_min = lat;
	if (lat > rx->lat_max)
		rx->lat_max = lat;
	if (lat < 0)
		rx->lat_below_zero++;
	rx->hist[bmgen_hist_index(lat < 0 ? 0 : lat)]++;
	if (tag) {
		rx->tag_lat_ns = lat;
		rx->tag_seen = true;
	}
	if (rx->have_prev_lat && seq == rx->prev_seq + 1) {
		s64 d = lat - rx->prev_lat;

		rx->ipdv_count++;
		rx->ipdv_sum += d;
		if (d < rx->ipdv_min)
			rx->ipdv_min = d;
		if (d > rx->ipdv_max)
			rx->ipdv_max = d;
	}
	rx->have_prev_lat = true;
	rx->prev_seq = seq;
	rx->prev_lat = lat;
}

/*
 * When the frame reached this host, on the tx stamps' monotonic clock: the
 * software stamp the stack took as it queued the skb for receive
 * processing (netif_rx, a driver's NAPI poll; net_enable_timestamp() at
 * load), else now.  The rx_handler runs when softirq processing reaches
 * the skb, which on a busy host is up to tens of ms later (ksoftirqd):
 * that lag read as queueing in the DUT (lab rfc8239/buffer: +28 frames of
 * buffer).  A stamp the skb kept from before (a delivery time, one from
 * the future or a second old) is not its arrival.
 */
static u64 bm_rx_stamp(const struct sk_buff *skb, u64 now)
{
	u64 t;

	if (!skb->tstamp)
		return now;
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 11, 0)
	if (skb->tstamp_type != SKB_CLOCK_REALTIME)
		return now;
#else
	if (skb->mono_delivery_time)
		return now;
#endif
	t = ktime_to_ns(skb->tstamp) - ktime_to_ns(ktime_mono_to_real(0));
	if (t > now || now - t > NSEC_PER_SEC)
		return now;
	return t;
}

rx_handler_result_t bm_rx_handler(struct sk_buff **pskb)
{
	struct sk_buff *skb = *pskb;
	struct bm_port *port = rcu_dereference(skb->dev->rx_handler_data);
	struct bmgen_tpld _tp, *tp;
	struct bm_rx_state *rx;
	struct bm_stream *s;
	u64 now, seq, rel, at, tx_ts;
	bool tagged;
	u32 id, f;
	u8 dscp = 0;
	int off;

	now = ktime_get_ns();
	off = bm_rx_tpld_offset(skb, &dscp);
	if (off < 0)
		goto other;
	tp = skb_header_pointer(skb, off, sizeof(_tp), &_tp);
	if (!tp || tp->magic != htons(BMGEN_TPLD_MAGIC))
		goto other;
	id = (tp->stream_id[0] << 16) | (tp->stream_id[1] << 8) |
	     tp->stream_id[2];
	s = id < BMGEN_MAX_STREAMS ? rcu_dereference(bm_streams[id]) : NULL;
	/* another namespace's stream is unknown here, as its dumps are */
	if (!s || !net_eq(s->net, port->net)) {
		atomic64_inc(&port->rx_unknown);
		goto consume;
	}
	/* a DUT that floods a stream to every port must not make the
	 * wrong port's copies count as the stream's received frames
	 */
	if (READ_ONCE(s->rx_port) && READ_ONCE(s->rx_port) != port) {
		atomic64_inc(&port->rx_misdirected);
		goto consume;
	}
	seq = bm_get48(tp->seq);
	tx_ts = bm_get48(tp->tx_ts);
	/* F as sent: the L2 header was pulled, a VLAN tag may be in the skb */
	tagged = skb_vlan_tag_present(skb);
	f = skb->len + ETH_HLEN + ETH_FCS_LEN + (tagged ? VLAN_HLEN : 0);
	rel = bm_rx_stamp(skb, now) - READ_ONCE(bm_trial.epoch_ns);
	/* Across hosts a frame can come before this host's epoch (its clock
	 * behind the sender's): the latency and the log keep rel as s64, the
	 * arrival times count it at the epoch.
	 */
	at = (s64)rel < 0 ? 0 : rel;
	rx = &s->rx;
	spin_lock(&rx->lock);
	if (tp->flags & BMGEN_TPLD_F_LEARN) {
		rx->learn++;
		goto unlock;
	}
	if (rx->closed) {
		rx->late++;
		goto unlock;
	}
	if (rx->cpu < 0)
		rx->cpu = smp_processor_id();
	else if (rx->cpu != smp_processor_id())
		rx->cpu_split++;
	rx->frames++;
	rx->bytes += f;
	/* re-marked (yellow) frames told from green ones (REQ-RX-5) */
	rx->dscp[dscp]++;
	if (tagged)
		rx->pcp[skb_vlan_tag_get_prio(skb)]++;
	else
		rx->untagged++;
	if (rx->log_n < s->log_frames) {
		struct bmgen_log_rx *r = &s->rx_log[rx->log_n++];

		r->seq = seq;
		r->tx_ns = tx_ts;
		r->rx_ns = rel;
		r->len = f;
		r->dscp = dscp;
		r->pcp = tagged ? skb_vlan_tag_get_prio(skb) : 0;
		r->flags = (tagged ? BMGEN_LOG_F_TAGGED : 0) |
			   (tp->flags & BMGEN_TPLD_F_TS ? BMGEN_LOG_F_TS : 0);
		r->reserved = 0;
	}
	if (!READ_ONCE(rx_analysis)) {
		if (rx->frames == 1)
			rx->first_ns = at;
		if (rx->frames == 1 || at > rx->last_ns)
			rx->last_ns = at;
		goto unlock;
	}
	if (f != bm_stream_frame_size(s, seq))
		rx->bad_len++;
	/* stamps taken where the stack queued the skbs may be processed out
	 * of their order (two CPUs): the latest one is the last
	 */
	if (rx->frames == 1) {
		rx->first_ns = at;
	} else if (at > rx->last_ns && at - rx->last_ns > rx->max_iat_ns) {
		rx->max_iat_ns = at - rx->last_ns;
		rx->max_iat_start_ns = rx->last_ns;
	}
	if (rx->frames == 1 || at > rx->last_ns)
		rx->last_ns = at;
	if (!bm_rx_sequence(rx, seq) && (tp->flags & BMGEN_TPLD_F_TS)) {
		bm_rx_latency(rx, seq, (s64)(rel - tx_ts),
			      tp->flags & BMGEN_TPLD_F_LATENCY);
		if (port->hwts & BMGEN_HWTS_RX)
			bm_hwts_rx(s, port, skb, seq, (s64)(rel - tx_ts));
	}
unlock:
	spin_unlock(&rx->lock);
consume:
	consume_skb(skb);
	return RX_HANDLER_CONSUMED;
other:
	atomic64_inc(&port->rx_other);
	return RX_HANDLER_PASS;
}

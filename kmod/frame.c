// SPDX-License-Identifier: GPL-2.0
/*
 * Frames (SPEC PLAT-FRAME): each stream's template, built once at
 * STREAM_ADD, and every frame built from it at transmit time with its own
 * length, sequence number, flow and timestamp (REQ-FRM-1..4).  tx.c paces
 * and sends them; rx.c reads them back.
 */
#include <linux/etherdevice.h>
#include <linux/if_vlan.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/math64.h>
#include <linux/mpls.h>
#include <linux/slab.h>
#include <linux/udp.h>
#include <linux/vmalloc.h>
#include <net/ip6_checksum.h>
#include <net/ip.h>

#include "bmgen.h"

/* Frame size F of the frame with sequence number seq. */
u32 bm_stream_frame_size(const struct bm_stream *s, u64 seq)
{
	if (s->burst_last_size) {
		u64 k = seq;

		return do_div(k, s->burst_len) == s->burst_len - 1 ?
		       s->burst_last_size : s->frame_size;
	}
	if (!s->n_imix)
		return s->frame_size;
	return s->imix[do_div(seq, s->n_imix)];
}

/* Smallest F that carries the TPLD with this stream's headers (REQ-FRM-3). */
static u32 bm_stream_min_frame(const struct bm_stream *s)
{
	u32 l3 = s->ip_version == 6 ? sizeof(struct ipv6hdr) :
				      sizeof(struct iphdr);

	if (s->ptp_shape)
		l3 = BM_PTP_SYNC_LEN;
	else
		l3 += sizeof(struct udphdr);
	return ETH_HLEN + (s->vlan ? VLAN_HLEN : 0) + (s->vlan2 ? VLAN_HLEN : 0) +
	       s->n_mpls * 4 + l3 + BMGEN_TPLD_LEN + ETH_FCS_LEN;
}

/*
 * Write the L2 header of s into t: Ethernet, the outer tag (802.1Q or
 * 802.1ad), an inner 802.1Q tag, MPLS labels (REQ-TM-5); each header's
 * EtherType names the next.  Returns the offset of the IP header.
 */
static u32 bm_frame_encap(const struct bm_stream *s, u8 *t)
{
	__be16 ip = htons(s->ptp_shape ? ETH_P_1588 :
			  s->ip_version == 6 ? ETH_P_IPV6 : ETH_P_IP);
	__be16 *proto = &((struct ethhdr *)t)->h_proto;
	u32 off = ETH_HLEN, i;

	if (s->vlan) {
		struct vlan_hdr *vh = (struct vlan_hdr *)(t + off);

		*proto = htons(s->vlan_tpid);
		vh->h_vlan_TCI = htons((s->vlan_pcp << VLAN_PRIO_SHIFT) |
				       s->vlan_id);
		proto = &vh->h_vlan_encapsulated_proto;
		off += VLAN_HLEN;
	}
	if (s->vlan2) {
		struct vlan_hdr *vh = (struct vlan_hdr *)(t + off);

		*proto = htons(ETH_P_8021Q);
		vh->h_vlan_TCI = htons((s->vlan2_pcp << VLAN_PRIO_SHIFT) |
				       s->vlan2_id);
		proto = &vh->h_vlan_encapsulated_proto;
		off += VLAN_HLEN;
	}
	if (s->n_mpls) {
		*proto = htons(ETH_P_MPLS_UC);
		for (i = 0; i < s->n_mpls; i++) {
			u32 e = s->mpls[i] & ~MPLS_LS_S_MASK;

			if (i == s->n_mpls - 1)
				e |= 1U << MPLS_LS_S_SHIFT;
			*(__be32 *)(t + off) = htonl(e);
			off += 4;
		}
		return off;
	}
	*proto = ip;
	return off;
}

/*
 * Build the template of the largest frame: Ethernet (+802.1Q), IPv4 or IPv6,
 * UDP, an empty TPLD and the fill pattern of REQ-FRM-1 (UDP payload byte k is
 * k mod 256).  Lengths and checksums are set per frame at transmit time.
 */
int bm_stream_build_template(struct bm_stream *s, struct netlink_ext_ack *extack)
{
	u32 min = bm_stream_min_frame(s), i, len, l3off, payload;
	struct ethhdr *eth;
	u8 *t;

	s->max_frame = max(s->frame_size, s->burst_last_size);
	if (s->burst_last_size && s->burst_last_size < min) {
		NL_SET_ERR_MSG(extack,
			       "a burst's last frame is too small for the headers and the test header");
		return -EINVAL;
	}
	for (i = 0; i < s->n_imix; i++) {
		if (s->imix[i] < min) {
			NL_SET_ERR_MSG(extack,
				       "an IMIX size is too small for the headers and the test header");
			return -EINVAL;
		}
		s->max_frame = max(s->max_frame, s->imix[i]);
	}
	if (!s->n_imix && s->frame_size < min) {
		if (s->ptp_shape)
			NL_SET_ERR_MSG(extack,
				       "frame size too small for a PTP Sync message and the test header (80 untagged)");
		else
			NL_SET_ERR_MSG(extack,
				       "frame size too small for the headers and the test header (64 untagged IPv4, 68 tagged, 84 IPv6)");
		return -EINVAL;
	}
	if (s->ptp_shape && s->n_mpls) {
		NL_SET_ERR_MSG(extack, "PTP-shaped frames cannot carry MPLS labels");
		return -EINVAL;
	}
	len = s->max_frame - ETH_FCS_LEN;
	t = kvzalloc(len, GFP_KERNEL);
	if (!t)
		return -ENOMEM;

	eth = (struct ethhdr *)t;
	ether_addr_copy(eth->h_dest, s->dst_mac);
	ether_addr_copy(eth->h_source, s->src_mac);
	l3off = bm_frame_encap(s, t);
	if (s->ptp_shape) {
		/* Sync, transportSpecific 0, versionPTP 2, messageLength
		 * 44, domain 0: what a PTPv2 event filter stamps
		 */
		t[l3off] = 0x00;
		t[l3off + 1] = 0x02;
		*(__be16 *)(t + l3off + 2) = htons(BM_PTP_SYNC_LEN);
		s->hdr_len = l3off + BM_PTP_SYNC_LEN;
		goto fill;
	}
	if (s->ip_version == 6) {
		struct ipv6hdr *ip6 = (struct ipv6hdr *)(t + l3off);

		ip6->version = 6;
		ip6->priority = s->dscp >> 2;
		ip6->flow_lbl[0] = (s->dscp & 3) << 6;
		ip6->nexthdr = IPPROTO_UDP;
		ip6->hop_limit = s->ttl;
		ip6->saddr = s->src_ip6;
		ip6->daddr = s->dst_ip6;
		s->hdr_len = l3off + sizeof(*ip6);
	} else {
		struct iphdr *ip = (struct iphdr *)(t + l3off);

		ip->version = 4;
		ip->ihl = 5;
		ip->tos = s->dscp << 2;
		ip->ttl = s->ttl;
		ip->protocol = IPPROTO_UDP;
		ip->saddr = s->src_ip4;
		ip->daddr = s->dst_ip4;
		s->hdr_len = l3off + sizeof(*ip);
	}
	((struct udphdr *)(t + s->hdr_len))->source = htons(s->udp_src);
	((struct udphdr *)(t + s->hdr_len))->dest = htons(s->udp_dst);
	s->hdr_len += sizeof(struct udphdr);
fill:
	payload = len - s->hdr_len;
	for (i = BMGEN_TPLD_LEN; i < payload; i++)
		t[s->hdr_len + i] = i & 0xff;
	s->l3off = l3off;
	s->tmpl = t;
	/* a tagged frame gets another destination and a flag, IMIX and
	 * byte-exact bursts other lengths, flows other headers
	 */
	s->fill_once = !s->n_imix && !s->burst_last_size && s->flows <= 1 &&
		       !s->tag;
	s->stamp_more = s->tag || s->ptp_shape || s->ip_version == 6;
	return 0;
}

/*
 * A new skb holding the first len bytes of s's template: one frame's (the
 * allocating path) or the largest (a ring's skb, refilled frame after
 * frame, never longer than it was built).
 */
static struct sk_buff *bm_frame_alloc(const struct bm_stream *s,
				      struct net_device *dev, u32 len,
				      gfp_t gfp)
{
	struct sk_buff *skb;
	u8 *d;

	skb = alloc_skb(len + LL_RESERVED_SPACE(dev), gfp);
	if (!skb)
		return NULL;
	skb_reserve(skb, LL_RESERVED_SPACE(dev));
	d = skb_put(skb, len);
	memcpy(d, s->tmpl, len);
	skb->dev = dev;
	skb->protocol = ((struct ethhdr *)d)->h_proto;
	skb_reset_mac_header(skb);
	skb_set_network_header(skb, s->l3off);
	if (!s->ptp_shape)
		skb_set_transport_header(skb, s->hdr_len - sizeof(struct udphdr));
	skb->ip_summed = CHECKSUM_NONE;
	skb->priority = s->vlan_pcp;
	return skb;
}

/*
 * Make the frame at d frame seq of s but for its seq and tx_ts: the TPLD's
 * header and every field a frame may change (flow, lengths, the tagged
 * frame's destination, the IPv4 checksum); returns its size F.  Each is
 * written for every frame, so a recycled buffer keeps nothing of the
 * frame it carried before.
 */
u32 bm_frame_fill_buf(const struct bm_stream *s, u8 *d, u64 seq)
{
	u32 f = bm_stream_frame_size(s, seq), len = f - ETH_FCS_LEN;
	u32 l3off = s->l3off;
	u32 udpoff = s->hdr_len - sizeof(struct udphdr);
	struct bmgen_tpld *tp;
	struct udphdr *uh;
	u32 flow = 0;

	tp = (struct bmgen_tpld *)(d + s->hdr_len);
	tp->magic = htons(BMGEN_TPLD_MAGIC);
	tp->flags = BMGEN_TPLD_F_TS | (s->learn ? BMGEN_TPLD_F_LEARN : 0);
	tp->stream_id[0] = s->id >> 16;
	tp->stream_id[1] = s->id >> 8;
	tp->stream_id[2] = s->id;
	if (s->flows > 1 && s->flow_random) {
		flow = bmgen_flow_pick(s->flow_seed, seq, s->flows);
	} else if (s->flows > 1) {
		u64 q = seq;

		flow = do_div(q, s->flows);
	}
	if (s->flow_mode == BMGEN_FLOW_MAC_DST)
		bmgen_flow_mac(s->mac_seed, flow, d);
	else if (s->flow_mode == BMGEN_FLOW_MAC_SRC)
		bmgen_flow_mac(s->mac_seed, flow, d + ETH_ALEN);
	if (s->ptp_shape)
		return f;
	uh = (struct udphdr *)(d + udpoff);
	uh->len = htons(len - udpoff);
	uh->source = htons(s->flow_mode == BMGEN_FLOW_UDP_SRC ?
			   (u16)(s->udp_src + flow) : s->udp_src);

	if (s->ip_version == 6) {
		struct ipv6hdr *ip6 = (struct ipv6hdr *)(d + l3off);
		u16 low = ntohs(s->dst_ip6.s6_addr16[7]);

		ip6->payload_len = htons(len - udpoff);
		if (s->flow_mode == BMGEN_FLOW_IP_DST)
			low += flow;
		ip6->daddr.s6_addr16[7] = htons(low);
	} else {
		struct iphdr *ip = (struct iphdr *)(d + l3off);

		ip->tot_len = htons(len - l3off);
		ip->daddr = s->flow_mode == BMGEN_FLOW_IP_DST ?
			    htonl(ntohl(s->dst_ip4) + flow * s->flow_step) :
			    s->dst_ip4;
		/* RFC 2544 §26.2: the tagged frame to a new network */
		if (s->tag_dst_ip4 && s->tag && seq == s->tag_seq)
			ip->daddr = s->tag_dst_ip4;
		ip->check = 0;
		ip->check = ip_fast_csum((u8 *)ip, ip->ihl);
	}
	return f;
}

/* bm_frame_fill_buf() in skb, whose length it sets to the frame's. */
void bm_frame_fill(const struct bm_stream *s, struct sk_buff *skb, u64 seq,
		   u32 *size)
{
	*size = bm_frame_fill_buf(s, skb->data, seq);
	skb->len = *size - ETH_FCS_LEN;
	skb_set_tail_pointer(skb, skb->len);
}

/* A new skb for frame seq of s, headers and TPLD filled in except tx_ts. */
struct sk_buff *bm_frame_build(const struct bm_stream *s, struct net_device *dev,
			       u64 seq, u32 *size)
{
	u32 len = bm_stream_frame_size(s, seq) - ETH_FCS_LEN;
	struct sk_buff *skb;

	skb = bm_frame_alloc(s, dev, len, GFP_KERNEL);
	if (skb)
		bm_frame_fill(s, skb, seq, size);
	return skb;
}

/* An skb with s's whole template, for a ring that bm_frame_fill() reuses. */
struct sk_buff *bm_frame_new(const struct bm_stream *s, struct net_device *dev,
			     gfp_t gfp)
{
	u32 len = s->max_frame - ETH_FCS_LEN;

	return bm_frame_alloc(s, dev, len, gfp);
}

/* The rest of bm_frame_stamp(): the tag, PTP's sequenceId, IPv6's checksum. */
void bm_frame_stamp_more(const struct bm_stream *s, u8 *d, u64 seq)
{
	struct bmgen_tpld *tp = (struct bmgen_tpld *)(d + s->hdr_len);

	if (s->tag && seq == s->tag_seq)
		tp->flags |= BMGEN_TPLD_F_LATENCY;
	if (s->ptp_shape) {
		/* sequenceId: a capture shows which frame was stamped */
		*(__be16 *)(d + s->l3off + 30) = htons((u16)seq);
		return;
	}
	if (s->ip_version == 6) {
		struct udphdr *uh = (struct udphdr *)(d + s->hdr_len -
						      sizeof(*uh));
		struct ipv6hdr *ip6 = (struct ipv6hdr *)(d + s->l3off);
		u32 ulen = ntohs(uh->len);

		uh->check = 0;
		uh->check = csum_ipv6_magic(&ip6->saddr, &ip6->daddr, ulen,
					    IPPROTO_UDP,
					    csum_partial(uh, ulen, 0));
		if (!uh->check)
			uh->check = CSUM_MANGLED_0;
	}
}

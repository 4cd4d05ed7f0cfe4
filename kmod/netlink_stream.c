// SPDX-License-Identifier: GPL-2.0
/*
 * The stream requests: STREAM_ADD (every attribute checked against the
 * others before the stream exists), STREAM_DEL and STREAM_GET (dump).
 */
#include <linux/etherdevice.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <net/genetlink.h>
#include <net/netlink.h>
#include <net/sock.h>

#include "bmgen.h"
#include "netlink_int.h"

const struct nla_policy bm_stream_policy[BMGEN_A_MAX + 1] = {
	BM_POLICY_VERSION,
	[BMGEN_A_STREAM_ID] = NLA_POLICY_RANGE(NLA_U32, 1, BMGEN_MAX_STREAMS - 1),
	[BMGEN_A_STREAM_TX_IFINDEX] = NLA_POLICY_MIN(NLA_U32, 1),
	[BMGEN_A_STREAM_RX_IFINDEX] = NLA_POLICY_MIN(NLA_U32, 1),
	[BMGEN_A_STREAM_FRAME_SIZE] = NLA_POLICY_RANGE(NLA_U32, BMGEN_MIN_FRAME,
						       BMGEN_MAX_FRAME),
	[BMGEN_A_STREAM_IMIX] = { .type = NLA_BINARY,
				  .len = BMGEN_MAX_IMIX * sizeof(u32) },
	[BMGEN_A_STREAM_DST_MAC] = NLA_POLICY_EXACT_LEN(ETH_ALEN),
	[BMGEN_A_STREAM_SRC_MAC] = NLA_POLICY_EXACT_LEN(ETH_ALEN),
	[BMGEN_A_STREAM_VLAN_ID] = NLA_POLICY_MAX(NLA_U16, 4094),
	[BMGEN_A_STREAM_VLAN_PCP] = NLA_POLICY_MAX(NLA_U8, 7),
	[BMGEN_A_STREAM_IP_VERSION] = NLA_POLICY_RANGE(NLA_U8, 4, 6),
	[BMGEN_A_STREAM_SRC_IP4] = NLA_POLICY_EXACT_LEN(4),
	[BMGEN_A_STREAM_DST_IP4] = NLA_POLICY_EXACT_LEN(4),
	[BMGEN_A_STREAM_TAG_DST_IP4] = NLA_POLICY_EXACT_LEN(4),
	[BMGEN_A_STREAM_SRC_IP6] = NLA_POLICY_EXACT_LEN(16),
	[BMGEN_A_STREAM_DST_IP6] = NLA_POLICY_EXACT_LEN(16),
	[BMGEN_A_STREAM_DSCP] = NLA_POLICY_MAX(NLA_U8, 63),
	[BMGEN_A_STREAM_TTL] = NLA_POLICY_MIN(NLA_U8, 1),
	[BMGEN_A_STREAM_UDP_SRC] = { .type = NLA_U16 },
	[BMGEN_A_STREAM_UDP_DST] = { .type = NLA_U16 },
	[BMGEN_A_STREAM_FLOWS] = NLA_POLICY_MIN(NLA_U32, 1),
	[BMGEN_A_STREAM_FLOW_MODE] = NLA_POLICY_MAX(NLA_U32, BMGEN_FLOW_MAC_SRC),
	[BMGEN_A_STREAM_MAC_SEED] = { .type = NLA_U64 },
	[BMGEN_A_STREAM_FLOW_STEP] = NLA_POLICY_MIN(NLA_U32, 1),
	[BMGEN_A_STREAM_FLOW_SEED] = { .type = NLA_U64 },
	[BMGEN_A_STREAM_PATTERN] = NLA_POLICY_MAX(NLA_U32, BMGEN_PAT_BURST),
	[BMGEN_A_STREAM_RATE_UFPS] = { .type = NLA_U64 },
	[BMGEN_A_STREAM_COUNT] = { .type = NLA_U64 },
	[BMGEN_A_STREAM_BURST_LEN] = NLA_POLICY_MIN(NLA_U32, 1),
	[BMGEN_A_STREAM_BURST_GAP_NS] = { .type = NLA_U64 },
	[BMGEN_A_STREAM_BURST_COUNT] = { .type = NLA_U32 },
	[BMGEN_A_STREAM_START_NS] = { .type = NLA_U64 },
	[BMGEN_A_STREAM_LEARN] = { .type = NLA_FLAG },
	[BMGEN_A_STREAM_CPU] = { .type = NLA_U32 },
	[BMGEN_A_STREAM_TX_MODE] = NLA_POLICY_MAX(NLA_U32, BMGEN_TX_QDISC),
	[BMGEN_A_STREAM_TX_PATH] = NLA_POLICY_MAX(NLA_U32, BMGEN_TXP_MAX),
	[BMGEN_A_STREAM_LATENCY_TAG_SEQ] = { .type = NLA_U64 },
	[BMGEN_A_STREAM_BURST_PERIOD_NS] = NLA_POLICY_MIN(NLA_U64, 1000),
	[BMGEN_A_STREAM_BURST_DUE_UFPS] = { .type = NLA_U64 },
	[BMGEN_A_STREAM_BURST_LAST_SIZE] = NLA_POLICY_RANGE(NLA_U32,
							    BMGEN_MIN_FRAME,
							    BMGEN_MAX_FRAME),
	[BMGEN_A_STREAM_LOG_FRAMES] = NLA_POLICY_MIN(NLA_U32, 1),
	[BMGEN_A_STREAM_VLAN_TPID] = { .type = NLA_U16 },
	[BMGEN_A_STREAM_VLAN2_ID] = NLA_POLICY_MAX(NLA_U16, 4094),
	[BMGEN_A_STREAM_VLAN2_PCP] = NLA_POLICY_MAX(NLA_U8, 7),
	[BMGEN_A_STREAM_MPLS] = { .type = NLA_BINARY,
				  .len = BMGEN_MAX_MPLS * sizeof(u32) },
	[BMGEN_A_STREAM_PTP_SHAPE] = { .type = NLA_FLAG },
	[BMGEN_A_STREAM_HW_LOG] = NLA_POLICY_MIN(NLA_U32, 1),
	[BMGEN_A_STREAM_HW_LOG_EVERY] = NLA_POLICY_MIN(NLA_U32, 1),
};

const struct nla_policy bm_stream_del_policy[BMGEN_A_MAX + 1] = {
	BM_POLICY_VERSION,
	[BMGEN_A_STREAM_ID] = NLA_POLICY_RANGE(NLA_U32, 1, BMGEN_MAX_STREAMS - 1),
};

static u64 bm_get_u64(struct nlattr **a, int type, u64 def)
{
	return a[type] ? nla_get_u64(a[type]) : def;
}

/*
 * What only a sender uses: an rx-only stream (another host sends it)
 * refuses them rather than keep a rate or a count that means nothing here.
 */
static const int bm_stream_tx_attrs[] = {
	BMGEN_A_STREAM_PATTERN, BMGEN_A_STREAM_RATE_UFPS,
	BMGEN_A_STREAM_COUNT, BMGEN_A_STREAM_BURST_LEN,
	BMGEN_A_STREAM_BURST_GAP_NS, BMGEN_A_STREAM_BURST_COUNT,
	BMGEN_A_STREAM_BURST_PERIOD_NS, BMGEN_A_STREAM_BURST_DUE_UFPS,
	BMGEN_A_STREAM_BURST_LAST_SIZE, BMGEN_A_STREAM_START_NS,
	BMGEN_A_STREAM_LEARN, BMGEN_A_STREAM_CPU, BMGEN_A_STREAM_TX_MODE,
	BMGEN_A_STREAM_TX_PATH, BMGEN_A_STREAM_LATENCY_TAG_SEQ,
	BMGEN_A_STREAM_TAG_DST_IP4, BMGEN_A_STREAM_SRC_MAC,
	BMGEN_A_STREAM_DST_MAC,
};

/* STREAM_ADD: its id and its ports, resolved in net; no tx port makes
 * it rx-only.
 */
static int bm_nl_stream_ports(struct bm_stream *s, struct net *net,
			      struct nlattr **a, struct netlink_ext_ack *extack)
{
	unsigned int i;

	if (!a[BMGEN_A_STREAM_ID] ||
	    (!a[BMGEN_A_STREAM_TX_IFINDEX] && !a[BMGEN_A_STREAM_RX_IFINDEX])) {
		NL_SET_ERR_MSG_MOD(extack, "a stream needs an id and a tx port (or, received only, an rx port)");
		return -EINVAL;
	}
	s->id = nla_get_u32(a[BMGEN_A_STREAM_ID]);
	s->net = net;
	s->rx_only = !a[BMGEN_A_STREAM_TX_IFINDEX];
	for (i = 0; s->rx_only && i < ARRAY_SIZE(bm_stream_tx_attrs); i++) {
		if (a[bm_stream_tx_attrs[i]]) {
			NL_SET_ERR_MSG_ATTR(extack, a[bm_stream_tx_attrs[i]],
					    "an rx-only stream (no tx port) does not send: a sending attribute");
			return -EINVAL;
		}
	}
	if (!s->rx_only) {
		s->tx_port = bm_port_find(net,
				nla_get_u32(a[BMGEN_A_STREAM_TX_IFINDEX]));
		if (!s->tx_port) {
			NL_SET_ERR_MSG_ATTR(extack, a[BMGEN_A_STREAM_TX_IFINDEX],
					    "tx device is not an attached port");
			return -ENOENT;
		}
	}
	if (a[BMGEN_A_STREAM_RX_IFINDEX]) {
		s->rx_port = bm_port_find(net,
				nla_get_u32(a[BMGEN_A_STREAM_RX_IFINDEX]));
		if (!s->rx_port) {
			NL_SET_ERR_MSG_ATTR(extack, a[BMGEN_A_STREAM_RX_IFINDEX],
					    "rx device is not an attached port");
			return -ENOENT;
		}
	}
	return 0;
}

/* STREAM_ADD: one frame size, or an IMIX list. */
static int bm_nl_stream_sizes(struct bm_stream *s, struct nlattr **a,
			      struct netlink_ext_ack *extack)
{
	s->frame_size = a[BMGEN_A_STREAM_FRAME_SIZE] ?
		nla_get_u32(a[BMGEN_A_STREAM_FRAME_SIZE]) : BMGEN_MIN_FRAME;
	if (a[BMGEN_A_STREAM_IMIX]) {
		int len = nla_len(a[BMGEN_A_STREAM_IMIX]);
		u32 i;

		if (a[BMGEN_A_STREAM_FRAME_SIZE]) {
			NL_SET_ERR_MSG_ATTR(extack, a[BMGEN_A_STREAM_IMIX],
					    "give a frame size or an IMIX list, not both");
			return -EINVAL;
		}
		if (!len || len % sizeof(u32)) {
			NL_SET_ERR_MSG_ATTR(extack, a[BMGEN_A_STREAM_IMIX],
					    "IMIX must be a non-empty array of u32");
			return -EINVAL;
		}
		s->n_imix = len / sizeof(u32);
		memcpy(s->imix, nla_data(a[BMGEN_A_STREAM_IMIX]), len);
		for (i = 0; i < s->n_imix; i++) {
			if (s->imix[i] < BMGEN_MIN_FRAME ||
			    s->imix[i] > BMGEN_MAX_FRAME) {
				NL_SET_ERR_MSG_ATTR(extack, a[BMGEN_A_STREAM_IMIX],
						    "IMIX size outside 64..9216");
				return -ERANGE;
			}
		}
	}
	return 0;
}

/* STREAM_ADD: the MAC addresses, by default the ports' own. */
static int bm_nl_stream_macs(struct bm_stream *s, struct nlattr **a,
			     struct netlink_ext_ack *extack)
{
	if (s->rx_only)
		return 0;	/* the sender's, on another host */
	if (a[BMGEN_A_STREAM_DST_MAC])
		memcpy(s->dst_mac, nla_data(a[BMGEN_A_STREAM_DST_MAC]), ETH_ALEN);
	else if (s->rx_port)
		ether_addr_copy(s->dst_mac, s->rx_port->dev->dev_addr);
	else {
		NL_SET_ERR_MSG_MOD(extack, "a stream needs a destination MAC or an rx port");
		return -EINVAL;
	}
	if (a[BMGEN_A_STREAM_SRC_MAC])
		memcpy(s->src_mac, nla_data(a[BMGEN_A_STREAM_SRC_MAC]), ETH_ALEN);
	else
		ether_addr_copy(s->src_mac, s->tx_port->dev->dev_addr);
	/* a zero source is dropped by bridges and switches like a multicast one */
	if (!is_valid_ether_addr(s->src_mac)) {
		NL_SET_ERR_MSG_ATTR(extack, a[BMGEN_A_STREAM_SRC_MAC],
				    "source MAC must be unicast and not zero");
		return -EINVAL;
	}
	return 0;
}

/* STREAM_ADD: the VLAN tags, one or two, and the MPLS label stack. */
static int bm_nl_stream_tags(struct bm_stream *s, struct nlattr **a,
			     struct netlink_ext_ack *extack)
{
	s->vlan = !!a[BMGEN_A_STREAM_VLAN_ID];
	if (s->vlan)
		s->vlan_id = nla_get_u16(a[BMGEN_A_STREAM_VLAN_ID]);
	if (a[BMGEN_A_STREAM_VLAN_PCP]) {
		if (!s->vlan) {
			NL_SET_ERR_MSG_MOD(extack, "PCP needs a VLAN id");
			return -EINVAL;
		}
		s->vlan_pcp = nla_get_u8(a[BMGEN_A_STREAM_VLAN_PCP]);
	}
	s->vlan_tpid = ETH_P_8021Q;
	if (a[BMGEN_A_STREAM_VLAN_TPID]) {
		s->vlan_tpid = nla_get_u16(a[BMGEN_A_STREAM_VLAN_TPID]);
		if (!s->vlan) {
			NL_SET_ERR_MSG_ATTR(extack, a[BMGEN_A_STREAM_VLAN_TPID],
					    "a TPID needs a VLAN id");
			return -EINVAL;
		}
		if (s->vlan_tpid != ETH_P_8021Q && s->vlan_tpid != ETH_P_8021AD) {
			NL_SET_ERR_MSG_ATTR(extack, a[BMGEN_A_STREAM_VLAN_TPID],
					    "TPID must be 0x8100 (802.1Q) or 0x88a8 (802.1ad)");
			return -EINVAL;
		}
	}
	s->vlan2 = !!a[BMGEN_A_STREAM_VLAN2_ID];
	if (s->vlan2) {
		if (!s->vlan) {
			NL_SET_ERR_MSG_ATTR(extack, a[BMGEN_A_STREAM_VLAN2_ID],
					    "an inner VLAN needs an outer one (VLAN_ID)");
			return -EINVAL;
		}
		s->vlan2_id = nla_get_u16(a[BMGEN_A_STREAM_VLAN2_ID]);
	}
	if (a[BMGEN_A_STREAM_VLAN2_PCP]) {
		if (!s->vlan2) {
			NL_SET_ERR_MSG_ATTR(extack, a[BMGEN_A_STREAM_VLAN2_PCP],
					    "an inner PCP needs an inner VLAN id");
			return -EINVAL;
		}
		s->vlan2_pcp = nla_get_u8(a[BMGEN_A_STREAM_VLAN2_PCP]);
	}
	if (a[BMGEN_A_STREAM_MPLS]) {
		u32 i, n = nla_len(a[BMGEN_A_STREAM_MPLS]);

		if (!n || n % sizeof(u32)) {
			NL_SET_ERR_MSG_ATTR(extack, a[BMGEN_A_STREAM_MPLS],
					    "MPLS must be 1 or 2 u32 label stack entries");
			return -EINVAL;
		}
		s->n_mpls = n / sizeof(u32);
		memcpy(s->mpls, nla_data(a[BMGEN_A_STREAM_MPLS]), n);
		for (i = 0; i < s->n_mpls; i++) {
			if ((s->mpls[i] >> 12) < 16) {
				NL_SET_ERR_MSG_ATTR(extack, a[BMGEN_A_STREAM_MPLS],
						    "MPLS labels 0..15 are reserved");
				return -EINVAL;
			}
		}
	}
	return 0;
}

/* STREAM_ADD: the IP version, addresses, DSCP, TTL and UDP ports. */
static int bm_nl_stream_ip(struct bm_stream *s, struct nlattr **a,
			   struct netlink_ext_ack *extack)
{
	s->ip_version = a[BMGEN_A_STREAM_IP_VERSION] ?
		nla_get_u8(a[BMGEN_A_STREAM_IP_VERSION]) : 4;
	if (s->ip_version != 4 && s->ip_version != 6) {
		NL_SET_ERR_MSG_ATTR(extack, a[BMGEN_A_STREAM_IP_VERSION],
				    "IP version must be 4 or 6");
		return -EINVAL;
	}
	if (s->ip_version == 4 &&
	    (a[BMGEN_A_STREAM_SRC_IP6] || a[BMGEN_A_STREAM_DST_IP6])) {
		NL_SET_ERR_MSG_MOD(extack, "IPv6 addresses on an IPv4 stream");
		return -EINVAL;
	}
	if (s->ip_version == 6 &&
	    (a[BMGEN_A_STREAM_SRC_IP4] || a[BMGEN_A_STREAM_DST_IP4])) {
		NL_SET_ERR_MSG_MOD(extack, "IPv4 addresses on an IPv6 stream");
		return -EINVAL;
	}
	/* RFC 2544 C.2.2: tester end nodes 198.18.1.2 -> 198.19.1.2 */
	s->src_ip4 = a[BMGEN_A_STREAM_SRC_IP4] ?
		nla_get_in_addr(a[BMGEN_A_STREAM_SRC_IP4]) : htonl(0xc6120102);
	s->dst_ip4 = a[BMGEN_A_STREAM_DST_IP4] ?
		nla_get_in_addr(a[BMGEN_A_STREAM_DST_IP4]) : htonl(0xc6130102);
	/* RFC 5180: 2001:2::/48 */
	s->src_ip6.s6_addr16[0] = htons(0x2001);
	s->src_ip6.s6_addr16[1] = htons(0x0002);
	s->dst_ip6 = s->src_ip6;
	s->src_ip6.s6_addr16[3] = htons(1);
	s->dst_ip6.s6_addr16[3] = htons(2);
	s->src_ip6.s6_addr16[7] = htons(2);
	s->dst_ip6.s6_addr16[7] = htons(2);
	if (a[BMGEN_A_STREAM_SRC_IP6])
		s->src_ip6 = nla_get_in6_addr(a[BMGEN_A_STREAM_SRC_IP6]);
	if (a[BMGEN_A_STREAM_DST_IP6])
		s->dst_ip6 = nla_get_in6_addr(a[BMGEN_A_STREAM_DST_IP6]);
	s->dscp = a[BMGEN_A_STREAM_DSCP] ? nla_get_u8(a[BMGEN_A_STREAM_DSCP]) : 0;
	s->ttl = a[BMGEN_A_STREAM_TTL] ? nla_get_u8(a[BMGEN_A_STREAM_TTL]) : 10;
	s->udp_src = a[BMGEN_A_STREAM_UDP_SRC] ?
		nla_get_u16(a[BMGEN_A_STREAM_UDP_SRC]) : BMGEN_UDP_SRC_DEFAULT;
	s->udp_dst = a[BMGEN_A_STREAM_UDP_DST] ?
		nla_get_u16(a[BMGEN_A_STREAM_UDP_DST]) : 7;
	return 0;
}

/* STREAM_ADD: the flows: how many, which field varies, and how. */
static int bm_nl_stream_flows(struct bm_stream *s, struct nlattr **a,
			      struct netlink_ext_ack *extack)
{
	s->flows = a[BMGEN_A_STREAM_FLOWS] ?
		nla_get_u32(a[BMGEN_A_STREAM_FLOWS]) : 1;
	if (s->flows > BMGEN_MAX_FLOWS) {
		NL_SET_ERR_MSG_ATTR(extack, a[BMGEN_A_STREAM_FLOWS],
				    "more than 65536 flows");
		return -ERANGE;
	}
	s->flow_mode = a[BMGEN_A_STREAM_FLOW_MODE] ?
		nla_get_u32(a[BMGEN_A_STREAM_FLOW_MODE]) : BMGEN_FLOW_UDP_SRC;
	s->flow_step = a[BMGEN_A_STREAM_FLOW_STEP] ?
		nla_get_u32(a[BMGEN_A_STREAM_FLOW_STEP]) : 1;
	if (s->flow_step != 1 &&
	    (s->ip_version != 4 || s->flow_mode != BMGEN_FLOW_IP_DST)) {
		NL_SET_ERR_MSG_ATTR(extack, a[BMGEN_A_STREAM_FLOW_STEP],
				    "a flow step needs IPv4 destination flows");
		return -EINVAL;
	}
	/* the last flow's destination must not wrap around */
	if ((u64)(s->flows - 1) * s->flow_step + ntohl(s->dst_ip4) > U32_MAX &&
	    s->flow_mode == BMGEN_FLOW_IP_DST && s->ip_version == 4) {
		NL_SET_ERR_MSG_ATTR(extack, a[BMGEN_A_STREAM_FLOWS],
				    "destinations beyond 255.255.255.255");
		return -ERANGE;
	}
	s->flow_random = !!a[BMGEN_A_STREAM_FLOW_SEED];
	s->flow_seed = bm_get_u64(a, BMGEN_A_STREAM_FLOW_SEED, 0);
	s->mac_seed = bm_get_u64(a, BMGEN_A_STREAM_MAC_SEED, 0);
	if (a[BMGEN_A_STREAM_MAC_SEED] &&
	    s->flow_mode != BMGEN_FLOW_MAC_DST &&
	    s->flow_mode != BMGEN_FLOW_MAC_SRC) {
		NL_SET_ERR_MSG_ATTR(extack, a[BMGEN_A_STREAM_MAC_SEED],
				    "a MAC seed needs a MAC flow mode");
		return -EINVAL;
	}
	return 0;
}

/* STREAM_ADD: the pattern, its rate and its frame count. */
static int bm_nl_stream_pattern(struct bm_stream *s, struct nlattr **a,
				struct netlink_ext_ack *extack)
{
	s->pattern = a[BMGEN_A_STREAM_PATTERN] ?
		nla_get_u32(a[BMGEN_A_STREAM_PATTERN]) : BMGEN_PAT_CONTINUOUS;
	s->rate_ufps = bm_get_u64(a, BMGEN_A_STREAM_RATE_UFPS, 0);
	if (s->rate_ufps > BM_MAX_RATE_UFPS) {
		NL_SET_ERR_MSG_ATTR(extack, a[BMGEN_A_STREAM_RATE_UFPS],
				    "rate above 100 Mfps");
		return -ERANGE;
	}
	s->count = bm_get_u64(a, BMGEN_A_STREAM_COUNT, 0);
	if (s->pattern == BMGEN_PAT_COUNT && !s->count) {
		NL_SET_ERR_MSG_MOD(extack, "count pattern needs a frame count > 0");
		return -EINVAL;
	}
	if (s->pattern != BMGEN_PAT_COUNT && a[BMGEN_A_STREAM_COUNT]) {
		NL_SET_ERR_MSG_ATTR(extack, a[BMGEN_A_STREAM_COUNT],
				    "a frame count needs the count pattern");
		return -EINVAL;
	}
	if (s->count >= (1ULL << 48)) {
		NL_SET_ERR_MSG_ATTR(extack, a[BMGEN_A_STREAM_COUNT],
				    "count exceeds the 48-bit sequence space");
		return -ERANGE;
	}
	return 0;
}

/* STREAM_ADD: the burst pattern's attributes, refused without it. */
static int bm_nl_stream_burst(struct bm_stream *s, struct nlattr **a,
			      struct netlink_ext_ack *extack)
{
	if (s->pattern == BMGEN_PAT_BURST) {
		if (!a[BMGEN_A_STREAM_BURST_LEN]) {
			NL_SET_ERR_MSG_MOD(extack, "burst pattern needs a burst length");
			return -EINVAL;
		}
		s->burst_len = nla_get_u32(a[BMGEN_A_STREAM_BURST_LEN]);
		if (s->burst_len > BMGEN_MAX_BURST) {
			NL_SET_ERR_MSG_ATTR(extack, a[BMGEN_A_STREAM_BURST_LEN],
					    "burst longer than 2^24 frames");
			return -ERANGE;
		}
		s->burst_gap_ns = bm_get_u64(a, BMGEN_A_STREAM_BURST_GAP_NS, 0);
		s->burst_count = a[BMGEN_A_STREAM_BURST_COUNT] ?
			nla_get_u32(a[BMGEN_A_STREAM_BURST_COUNT]) : 1;
		if (s->burst_gap_ns > BM_MAX_DELAY_NS) {
			NL_SET_ERR_MSG_ATTR(extack, a[BMGEN_A_STREAM_BURST_GAP_NS],
					    "burst gap longer than an hour");
			return -ERANGE;
		}
		if (a[BMGEN_A_STREAM_BURST_PERIOD_NS] &&
		    a[BMGEN_A_STREAM_BURST_GAP_NS]) {
			NL_SET_ERR_MSG_ATTR(extack, a[BMGEN_A_STREAM_BURST_PERIOD_NS],
					    "a burst period (start to start) or a gap (end to start), not both");
			return -EINVAL;
		}
		s->burst_period_ns = bm_get_u64(a, BMGEN_A_STREAM_BURST_PERIOD_NS, 0);
		s->burst_due_ufps = bm_get_u64(a, BMGEN_A_STREAM_BURST_DUE_UFPS, 0);
		if (s->burst_due_ufps > BM_MAX_DUE_UFPS) {
			NL_SET_ERR_MSG_ATTR(extack, a[BMGEN_A_STREAM_BURST_DUE_UFPS],
					    "burst due rate above 10^9 fps");
			return -ERANGE;
		}
		if (s->burst_period_ns > BM_MAX_DELAY_NS) {
			NL_SET_ERR_MSG_ATTR(extack, a[BMGEN_A_STREAM_BURST_PERIOD_NS],
					    "burst period longer than an hour");
			return -ERANGE;
		}
		if (a[BMGEN_A_STREAM_BURST_LAST_SIZE]) {
			if (s->n_imix) {
				NL_SET_ERR_MSG_ATTR(extack, a[BMGEN_A_STREAM_BURST_LAST_SIZE],
						    "a burst's last frame size needs one frame size, not an IMIX");
				return -EINVAL;
			}
			s->burst_last_size =
				nla_get_u32(a[BMGEN_A_STREAM_BURST_LAST_SIZE]);
		}
	} else if (a[BMGEN_A_STREAM_BURST_LEN] || a[BMGEN_A_STREAM_BURST_GAP_NS] ||
		   a[BMGEN_A_STREAM_BURST_COUNT] ||
		   a[BMGEN_A_STREAM_BURST_PERIOD_NS] ||
		   a[BMGEN_A_STREAM_BURST_LAST_SIZE] ||
		   a[BMGEN_A_STREAM_BURST_DUE_UFPS]) {
		NL_SET_ERR_MSG_MOD(extack, "burst attributes need the burst pattern");
		return -EINVAL;
	}
	return 0;
}

/* STREAM_ADD: when and how the stream sends, and its frame and stamp logs. */
static int bm_nl_stream_tx(struct bm_stream *s, struct nlattr **a,
			   struct netlink_ext_ack *extack)
{
	s->start_ns = bm_get_u64(a, BMGEN_A_STREAM_START_NS, 0);
	if (s->start_ns > BM_MAX_DELAY_NS) {
		NL_SET_ERR_MSG_ATTR(extack, a[BMGEN_A_STREAM_START_NS],
				    "stream start more than an hour after the epoch");
		return -ERANGE;
	}
	s->learn = nla_get_flag(a[BMGEN_A_STREAM_LEARN]);
	s->ptp_shape = nla_get_flag(a[BMGEN_A_STREAM_PTP_SHAPE]);
	s->cpu = -1;
	if (a[BMGEN_A_STREAM_CPU]) {
		u32 cpu = nla_get_u32(a[BMGEN_A_STREAM_CPU]);

		if (cpu >= nr_cpu_ids || !cpu_online(cpu)) {
			NL_SET_ERR_MSG_ATTR(extack, a[BMGEN_A_STREAM_CPU],
					    "CPU is not online");
			return -EINVAL;
		}
		s->cpu = cpu;
	}
	s->tx_mode = a[BMGEN_A_STREAM_TX_MODE] ?
		nla_get_u32(a[BMGEN_A_STREAM_TX_MODE]) : BMGEN_TX_DIRECT;
	s->tx_path_req = a[BMGEN_A_STREAM_TX_PATH] ?
		nla_get_u32(a[BMGEN_A_STREAM_TX_PATH]) : BMGEN_TXP_AUTO;
	if (a[BMGEN_A_STREAM_LOG_FRAMES]) {
		s->log_frames = nla_get_u32(a[BMGEN_A_STREAM_LOG_FRAMES]);
		if (s->log_frames > BMGEN_MAX_LOG_FRAMES) {
			NL_SET_ERR_MSG_ATTR(extack, a[BMGEN_A_STREAM_LOG_FRAMES],
					    "a log of more than 2^20 frames");
			return -ERANGE;
		}
	}
	if (a[BMGEN_A_STREAM_HW_LOG_EVERY] && !a[BMGEN_A_STREAM_HW_LOG]) {
		NL_SET_ERR_MSG_ATTR(extack, a[BMGEN_A_STREAM_HW_LOG_EVERY],
				    "HW_LOG_EVERY needs HW_LOG");
		return -EINVAL;
	}
	s->hw_log_max = a[BMGEN_A_STREAM_HW_LOG] ?
			nla_get_u32(a[BMGEN_A_STREAM_HW_LOG]) : 0;
	if (s->hw_log_max > BMGEN_MAX_HW_LOG) {
		NL_SET_ERR_MSG_ATTR(extack, a[BMGEN_A_STREAM_HW_LOG],
				    "a hardware stamp log of more than 2^16 records");
		return -ERANGE;
	}
	s->hw_log_every = a[BMGEN_A_STREAM_HW_LOG_EVERY] ?
			  nla_get_u32(a[BMGEN_A_STREAM_HW_LOG_EVERY]) : 1;
	return 0;
}

/* STREAM_ADD: the latency-tagged frame (RFC 2544 §26.2). */
static int bm_nl_stream_tag(struct bm_stream *s, struct nlattr **a,
			    struct netlink_ext_ack *extack)
{
	s->tag = !!a[BMGEN_A_STREAM_LATENCY_TAG_SEQ];
	s->tag_seq = bm_get_u64(a, BMGEN_A_STREAM_LATENCY_TAG_SEQ, 0);
	/* a tag that is never sent would report no latency, silently */
	if (s->tag && (s->tag_seq >= (1ULL << 48) ||
		       (s->pattern == BMGEN_PAT_COUNT && s->tag_seq >= s->count))) {
		NL_SET_ERR_MSG_ATTR(extack, a[BMGEN_A_STREAM_LATENCY_TAG_SEQ],
				    "tagged frame is beyond the frames sent");
		return -ERANGE;
	}
	if (a[BMGEN_A_STREAM_TAG_DST_IP4]) {
		s->tag_dst_ip4 = nla_get_in_addr(a[BMGEN_A_STREAM_TAG_DST_IP4]);
		if (!s->tag || s->ip_version != 4 || s->ptp_shape ||
		    !s->tag_dst_ip4) {
			NL_SET_ERR_MSG_ATTR(extack, a[BMGEN_A_STREAM_TAG_DST_IP4],
					    "a tagged frame's destination needs a tagged IPv4 stream and an address");
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * Parse STREAM_ADD into s, in the order its checks have always had (the
 * first refusal is the one reported); ports are resolved in net.  Needs
 * bm_cfg_lock.
 */
static int bm_nl_stream_parse(struct bm_stream *s, struct net *net,
			      struct nlattr **a, struct netlink_ext_ack *extack)
{
	int ret;

	ret = bm_nl_stream_ports(s, net, a, extack);
	if (ret)
		return ret;
	ret = bm_nl_stream_sizes(s, a, extack);
	if (ret)
		return ret;
	ret = bm_nl_stream_macs(s, a, extack);
	if (ret)
		return ret;
	ret = bm_nl_stream_tags(s, a, extack);
	if (ret)
		return ret;
	ret = bm_nl_stream_ip(s, a, extack);
	if (ret)
		return ret;
	ret = bm_nl_stream_flows(s, a, extack);
	if (ret)
		return ret;
	ret = bm_nl_stream_pattern(s, a, extack);
	if (ret)
		return ret;
	ret = bm_nl_stream_burst(s, a, extack);
	if (ret)
		return ret;
	ret = bm_nl_stream_tx(s, a, extack);
	if (ret)
		return ret;
	return bm_nl_stream_tag(s, a, extack);
}

int bm_nl_stream_add(struct sk_buff *skb, struct genl_info *info)
{
	struct bm_stream *s;
	int ret;

	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	mutex_lock(&bm_cfg_lock);
	ret = bm_nl_stream_parse(s, genl_info_net(info), info->attrs,
				 info->extack);
	if (!ret)
		ret = bm_stream_add(s, info->extack);
	mutex_unlock(&bm_cfg_lock);
	if (ret)
		bm_stream_free(s);
	return ret;
}

int bm_nl_stream_del(struct sk_buff *skb, struct genl_info *info)
{
	u32 id = 0;
	int ret;

	if (info->attrs[BMGEN_A_STREAM_ID])
		id = nla_get_u32(info->attrs[BMGEN_A_STREAM_ID]);
	mutex_lock(&bm_cfg_lock);
	ret = bm_stream_del(genl_info_net(info), id, info->extack);
	mutex_unlock(&bm_cfg_lock);
	return ret;
}

/* The head of s's frame 0 exactly as it would leave (tx_ts 0). */
static int bm_stream_put_frame_head(struct sk_buff *skb,
				    const struct bm_stream *s)
{
	struct sk_buff *f;
	u32 size;
	int ret;

	if (!s->tx_port)
		return 0;
	f = bm_frame_build(s, s->tx_port->dev, 0, &size);
	if (!f)
		return -ENOMEM;
	bm_frame_stamp(s, f, 0, 0);
	ret = nla_put(skb, BMGEN_A_STREAM_FRAME_HEAD,
		      min_t(u32, f->len, BMGEN_FRAME_HEAD_MAX), f->data);
	kfree_skb(f);
	return ret;
}

static int bm_stream_fill(struct sk_buff *skb, const struct bm_stream *s)
{
	if (nla_put_u32(skb, BMGEN_A_STREAM_ID, s->id) ||
	    (s->tx_port && nla_put_u32(skb, BMGEN_A_STREAM_TX_IFINDEX,
				       s->tx_port->ifindex)) ||
	    (s->rx_port && nla_put_u32(skb, BMGEN_A_STREAM_RX_IFINDEX,
				       s->rx_port->ifindex)) ||
	    (s->rx_only && nla_put_flag(skb, BMGEN_A_STREAM_RX_ONLY)) ||
	    nla_put_u32(skb, BMGEN_A_STREAM_FRAME_SIZE, s->frame_size) ||
	    nla_put(skb, BMGEN_A_STREAM_DST_MAC, ETH_ALEN, s->dst_mac) ||
	    nla_put(skb, BMGEN_A_STREAM_SRC_MAC, ETH_ALEN, s->src_mac) ||
	    nla_put_u8(skb, BMGEN_A_STREAM_IP_VERSION, s->ip_version) ||
	    nla_put_u32(skb, BMGEN_A_STREAM_PATTERN, s->pattern) ||
	    nla_put_u64_64bit(skb, BMGEN_A_STREAM_RATE_UFPS, s->rate_ufps,
			      BMGEN_A_PAD) ||
	    nla_put_u64_64bit(skb, BMGEN_A_STREAM_COUNT, s->count, BMGEN_A_PAD) ||
	    nla_put_u32(skb, BMGEN_A_STREAM_FLOWS, s->flows) ||
	    nla_put_u32(skb, BMGEN_A_STREAM_FLOW_STEP, s->flow_step) ||
	    (s->flow_random &&
	     nla_put_u64_64bit(skb, BMGEN_A_STREAM_FLOW_SEED, s->flow_seed,
			       BMGEN_A_PAD)) ||
	    nla_put_u32(skb, BMGEN_A_STREAM_FLOW_MODE, s->flow_mode) ||
	    ((s->flow_mode == BMGEN_FLOW_MAC_DST ||
	      s->flow_mode == BMGEN_FLOW_MAC_SRC) &&
	     nla_put_u64_64bit(skb, BMGEN_A_STREAM_MAC_SEED, s->mac_seed,
			       BMGEN_A_PAD)) ||
	    nla_put_u32(skb, BMGEN_A_STREAM_TX_MODE, s->tx_mode) ||
	    nla_put_u32(skb, BMGEN_A_STREAM_TX_PATH, s->tx_path_req) ||
	    (s->ptp_shape && nla_put_flag(skb, BMGEN_A_STREAM_PTP_SHAPE)) ||
	    (s->hw_log && (nla_put_u32(skb, BMGEN_A_STREAM_HW_LOG,
				       s->hw_log_max) ||
			   nla_put_u32(skb, BMGEN_A_STREAM_HW_LOG_EVERY,
				       s->hw_log_every))) ||
	    (s->tag_dst_ip4 &&
	     nla_put_in_addr(skb, BMGEN_A_STREAM_TAG_DST_IP4, s->tag_dst_ip4)) ||
	    bm_stream_put_frame_head(skb, s))
		return -EMSGSIZE;
	return 0;
}

/* The streams of the caller's namespace, by increasing id. */
int bm_nl_stream_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct net *net = sock_net(skb->sk);
	long i;
	void *hdr;
	int ret;

	mutex_lock(&bm_cfg_lock);
	ret = bm_dump_begin(cb);
	if (ret) {
		mutex_unlock(&bm_cfg_lock);
		return ret;
	}
	for (i = max_t(long, cb->args[0], 1); i < BMGEN_MAX_STREAMS; i++) {
		struct bm_stream *s = rcu_dereference_protected(bm_streams[i],
					lockdep_is_held(&bm_cfg_lock));

		if (!s || !net_eq(s->net, net))
			continue;
		hdr = bm_dump_put(skb, cb, BMGEN_CMD_STREAM_GET);
		if (!hdr)
			break;
		if (bm_stream_fill(skb, s)) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
	}
	mutex_unlock(&bm_cfg_lock);
	cb->args[0] = i;
	return skb->len;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The module's stream and trial commands: a stream's attributes into a
 * STREAM_ADD request, its removal, and a trial's start, stop and end of
 * counting.  Apart from the channel (genl.c) because each is one request
 * built on its machinery.
 */
#include <string.h>

#include <linux/bmgen.h>

#include "genl_int.h"

void bm_genl_stream_init(struct bm_genl_stream *s)
{
	memset(s, 0, sizeof(*s));
	s->vlan_id = -1;
	s->vlan2_id = -1;
	s->cpu = -1;
	s->pattern = BMGEN_PAT_CONTINUOUS;
}

/* What only the sending half of s says: when, how fast, how many, how. */
static void put_sending(struct nlmsghdr *nlh, const struct bm_genl_stream *s)
{
	mnl_attr_put_u32(nlh, BMGEN_A_STREAM_PATTERN, s->pattern);
	if (s->rate_ufps)
		mnl_attr_put_u64(nlh, BMGEN_A_STREAM_RATE_UFPS, s->rate_ufps);
	if (s->pattern == BMGEN_PAT_COUNT)
		mnl_attr_put_u64(nlh, BMGEN_A_STREAM_COUNT, s->count);
	if (s->pattern == BMGEN_PAT_BURST) {
		mnl_attr_put_u32(nlh, BMGEN_A_STREAM_BURST_LEN, s->burst_len);
		if (s->burst_period_ns)
			mnl_attr_put_u64(nlh, BMGEN_A_STREAM_BURST_PERIOD_NS,
					 s->burst_period_ns);
		else
			mnl_attr_put_u64(nlh, BMGEN_A_STREAM_BURST_GAP_NS,
					 s->burst_gap_ns);
		mnl_attr_put_u32(nlh, BMGEN_A_STREAM_BURST_COUNT, s->burst_count);
		if (s->burst_due_ufps)
			mnl_attr_put_u64(nlh, BMGEN_A_STREAM_BURST_DUE_UFPS,
					 s->burst_due_ufps);
		if (s->burst_last_size)
			mnl_attr_put_u32(nlh, BMGEN_A_STREAM_BURST_LAST_SIZE,
					 s->burst_last_size);
	}
	if (s->start_ns)
		mnl_attr_put_u64(nlh, BMGEN_A_STREAM_START_NS, s->start_ns);
	if (s->tx_mode)
		mnl_attr_put_u32(nlh, BMGEN_A_STREAM_TX_MODE, s->tx_mode);
	if (s->tx_path)
		mnl_attr_put_u32(nlh, BMGEN_A_STREAM_TX_PATH, s->tx_path);
	if (s->cpu >= 0)
		mnl_attr_put_u32(nlh, BMGEN_A_STREAM_CPU, s->cpu);
	if (s->learn)
		mnl_attr_put(nlh, BMGEN_A_STREAM_LEARN, 0, NULL);
	if (s->tag)
		mnl_attr_put_u64(nlh, BMGEN_A_STREAM_LATENCY_TAG_SEQ, s->tag_seq);
	if (s->tag && memcmp(s->tag_dst_ip4, "\0\0\0\0", 4))
		mnl_attr_put(nlh, BMGEN_A_STREAM_TAG_DST_IP4, 4, s->tag_dst_ip4);
	if (s->have_dst_mac)
		mnl_attr_put(nlh, BMGEN_A_STREAM_DST_MAC, 6, s->dst_mac);
}

/* tx_ifindex 0 adds the receiving half alone: another host sends it. */
int bm_genl_stream_add(struct bm_genl *g, const struct bm_genl_stream *s,
		       struct bm_error *err)
{
	struct bm_genl_req req = { NULL, NULL, err };
	struct nlmsghdr *nlh = bm_genl_msg(g, g->family, 0, BMGEN_CMD_STREAM_ADD);

	mnl_attr_put_u32(nlh, BMGEN_A_STREAM_ID, s->id);
	if (s->tx_ifindex)
		mnl_attr_put_u32(nlh, BMGEN_A_STREAM_TX_IFINDEX, s->tx_ifindex);
	if (s->rx_ifindex)
		mnl_attr_put_u32(nlh, BMGEN_A_STREAM_RX_IFINDEX, s->rx_ifindex);
	if (s->frame_size)
		mnl_attr_put_u32(nlh, BMGEN_A_STREAM_FRAME_SIZE, s->frame_size);
	if (s->n_imix)
		mnl_attr_put(nlh, BMGEN_A_STREAM_IMIX,
			     s->n_imix * sizeof(uint32_t), s->imix);
	if (s->tx_ifindex)
		put_sending(nlh, s);
	if (s->log_frames)
		mnl_attr_put_u32(nlh, BMGEN_A_STREAM_LOG_FRAMES, s->log_frames);
	if (s->hw_log) {
		mnl_attr_put_u32(nlh, BMGEN_A_STREAM_HW_LOG, s->hw_log);
		if (s->hw_log_every > 1)
			mnl_attr_put_u32(nlh, BMGEN_A_STREAM_HW_LOG_EVERY,
					 s->hw_log_every);
	}
	if (s->flows > 1)
		mnl_attr_put_u32(nlh, BMGEN_A_STREAM_FLOWS, s->flows);
	if (s->ip_dst_flows)
		mnl_attr_put_u32(nlh, BMGEN_A_STREAM_FLOW_MODE,
				 BMGEN_FLOW_IP_DST);
	if (s->mac_flows) {
		mnl_attr_put_u32(nlh, BMGEN_A_STREAM_FLOW_MODE, s->mac_flows);
		mnl_attr_put_u64(nlh, BMGEN_A_STREAM_MAC_SEED, s->mac_seed);
	}
	if (s->dst_step > 1)
		mnl_attr_put_u32(nlh, BMGEN_A_STREAM_FLOW_STEP, s->dst_step);
	if (s->flow_random)
		mnl_attr_put_u64(nlh, BMGEN_A_STREAM_FLOW_SEED, s->flow_seed);
	if (s->dscp)
		mnl_attr_put_u8(nlh, BMGEN_A_STREAM_DSCP, s->dscp);
	if (s->ip_version)
		mnl_attr_put_u8(nlh, BMGEN_A_STREAM_IP_VERSION, s->ip_version);
	if (s->vlan_id >= 0) {
		mnl_attr_put_u16(nlh, BMGEN_A_STREAM_VLAN_ID, s->vlan_id);
		mnl_attr_put_u8(nlh, BMGEN_A_STREAM_VLAN_PCP, s->vlan_pcp);
		if (s->vlan_tpid)
			mnl_attr_put_u16(nlh, BMGEN_A_STREAM_VLAN_TPID,
					 s->vlan_tpid);
		if (s->vlan2_id >= 0) {
			mnl_attr_put_u16(nlh, BMGEN_A_STREAM_VLAN2_ID,
					 s->vlan2_id);
			mnl_attr_put_u8(nlh, BMGEN_A_STREAM_VLAN2_PCP,
					s->vlan2_pcp);
		}
	}
	if (s->n_mpls)
		mnl_attr_put(nlh, BMGEN_A_STREAM_MPLS,
			     s->n_mpls * sizeof(uint32_t), s->mpls);
	if (s->ptp_shape)
		mnl_attr_put(nlh, BMGEN_A_STREAM_PTP_SHAPE, 0, NULL);
	if (s->have_ip4) {
		mnl_attr_put(nlh, BMGEN_A_STREAM_SRC_IP4, 4, s->src_ip4);
		mnl_attr_put(nlh, BMGEN_A_STREAM_DST_IP4, 4, s->dst_ip4);
	}
	if (s->have_src_ip6)
		mnl_attr_put(nlh, BMGEN_A_STREAM_SRC_IP6, 16, s->src_ip6);
	if (s->have_dst_ip6)
		mnl_attr_put(nlh, BMGEN_A_STREAM_DST_IP6, 16, s->dst_ip6);
	if (s->udp_src)
		mnl_attr_put_u16(nlh, BMGEN_A_STREAM_UDP_SRC, s->udp_src);
	if (s->udp_dst)
		mnl_attr_put_u16(nlh, BMGEN_A_STREAM_UDP_DST, s->udp_dst);
	return bm_genl_talk(g, nlh, &req);
}

int bm_genl_stream_del(struct bm_genl *g, uint32_t id, struct bm_error *err)
{
	struct bm_genl_req req = { NULL, NULL, err };
	struct nlmsghdr *nlh = bm_genl_msg(g, g->family, 0, BMGEN_CMD_STREAM_DEL);

	if (id)
		mnl_attr_put_u32(nlh, BMGEN_A_STREAM_ID, id);
	return bm_genl_talk(g, nlh, &req);
}

int bm_genl_trial_start(struct bm_genl *g, uint64_t delay_ns,
			unsigned int flags, struct bm_error *err)
{
	return bm_genl_trial_start_at(g, delay_ns, 0, flags, err);
}

int bm_genl_trial_start_at(struct bm_genl *g, uint64_t delay_ns,
			   uint64_t at_tai_ns, unsigned int flags,
			   struct bm_error *err)
{
	struct bm_genl_req req = { NULL, NULL, err };
	struct nlmsghdr *nlh = bm_genl_msg(g, g->family, 0, BMGEN_CMD_TRIAL_START);

	if (delay_ns)
		mnl_attr_put_u64(nlh, BMGEN_A_TRIAL_START_DELAY_NS, delay_ns);
	if (at_tai_ns)
		mnl_attr_put_u64(nlh, BMGEN_A_TRIAL_START_TAI_NS, at_tai_ns);
	if (flags & BM_GENL_TRIAL_OWNED)
		mnl_attr_put(nlh, BMGEN_A_TRIAL_OWNED, 0, NULL);
	return bm_genl_talk(g, nlh, &req);
}

int bm_genl_trial_stop(struct bm_genl *g, struct bm_error *err)
{
	struct bm_genl_req req = { NULL, NULL, err };

	return bm_genl_talk(g, bm_genl_msg(g, g->family, 0, BMGEN_CMD_TRIAL_STOP),
			    &req);
}

int bm_genl_rx_close(struct bm_genl *g, struct bm_error *err)
{
	struct bm_genl_req req = { NULL, NULL, err };

	return bm_genl_talk(g, bm_genl_msg(g, g->family, 0, BMGEN_CMD_RX_CLOSE),
			    &req);
}

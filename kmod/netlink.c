// SPDX-License-Identifier: GPL-2.0
/*
 * The generic netlink family "bmgen" (include/uapi/linux/bmgen.h).  Every
 * operation has its own strict policy, so an attribute that does not belong
 * to a command is rejected by the core with an extack message; every
 * change needs CAP_NET_ADMIN (GENL_ADMIN_PERM).  bm_req_check() adds what
 * the core leaves to the family (Documentation/abi.md, "Requests"), and
 * every request sees only its own network namespace's objects.
 */
#include <linux/etherdevice.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <linux/version.h>
#include <net/genetlink.h>
#include <net/netlink.h>
#include <net/sock.h>

#include "bmgen.h"

/* Linux 6.2 split the ops a pre_doit sees and moved a dump's parsed
 * attributes into its genl_info (the module builds on 6.12 too).
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
#define bm_genl_pre_ops	genl_split_ops
#define bm_dump_attrs(cb)	(genl_dumpit_info(cb)->info.attrs)
#else
#define bm_genl_pre_ops	genl_ops
#define bm_dump_attrs(cb)	(genl_dumpit_info(cb)->attrs)
#endif

static struct genl_family bm_family;

enum { BM_MCGRP_EVENTS };

static const struct genl_multicast_group bm_mcgrps[] = {
	[BM_MCGRP_EVENTS] = { .name = BMGEN_MCGRP_EVENTS },
};

#define BM_POLICY_VERSION \
	[BMGEN_A_VERSION] = NLA_POLICY_RANGE(NLA_U32, BMGEN_GENL_VERSION, \
					     BMGEN_GENL_VERSION)

static const struct nla_policy bm_status_policy[BMGEN_A_MAX + 1] = {
	BM_POLICY_VERSION,
};

static const struct nla_policy bm_port_policy[BMGEN_A_MAX + 1] = {
	BM_POLICY_VERSION,
	[BMGEN_A_PORT_IFINDEX] = NLA_POLICY_MIN(NLA_U32, 1),
	[BMGEN_A_PORT_IFNAME] = { .type = NLA_NUL_STRING, .len = IFNAMSIZ - 1 },
};

static const struct nla_policy bm_port_set_policy[BMGEN_A_MAX + 1] = {
	BM_POLICY_VERSION,
	[BMGEN_A_PORT_IFINDEX] = NLA_POLICY_MIN(NLA_U32, 1),
	[BMGEN_A_PORT_IFNAME] = { .type = NLA_NUL_STRING, .len = IFNAMSIZ - 1 },
	[BMGEN_A_PORT_HWTS] = NLA_POLICY_MASK(NLA_U32, BMGEN_HWTS_ALL),
	[BMGEN_A_PORT_PHC_OFFSET_NS] = { .type = NLA_S64 },
};

static const struct nla_policy bm_stream_policy[BMGEN_A_MAX + 1] = {
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
};

static const struct nla_policy bm_stream_del_policy[BMGEN_A_MAX + 1] = {
	BM_POLICY_VERSION,
	[BMGEN_A_STREAM_ID] = NLA_POLICY_RANGE(NLA_U32, 1, BMGEN_MAX_STREAMS - 1),
};

static const struct nla_policy bm_log_policy[BMGEN_A_MAX + 1] = {
	BM_POLICY_VERSION,
	[BMGEN_A_STREAM_ID] = NLA_POLICY_RANGE(NLA_U32, 1, BMGEN_MAX_STREAMS - 1),
};

static const struct nla_policy bm_trial_policy[BMGEN_A_MAX + 1] = {
	BM_POLICY_VERSION,
	[BMGEN_A_TRIAL_START_DELAY_NS] = { .type = NLA_U64 },
	[BMGEN_A_TRIAL_OWNED] = { .type = NLA_FLAG },
};

/* Longest a trial may wait for its epoch, and the longest burst gap or
 * stream start offset: an hour (a typo must not arm a trial for a year).
 */
#define BM_MAX_DELAY_NS (3600ULL * NSEC_PER_SEC)
/* 100 Mfps: above any port this module can drive */
#define BM_MAX_RATE_UFPS (100000000ULL * 1000000ULL)
/* a line's back to back (measured, not paced): 64 B at 400 Gbit/s is 595 Mfps */
#define BM_MAX_DUE_UFPS (1000000000ULL * 1000000ULL)

/*
 * What every request, do or dump, must be beyond its policy: a genetlink
 * header of the version this module speaks, BMGEN_A_VERSION (the policy
 * checks its value, this its presence), and no attribute twice, because
 * nla_parse() would silently keep the last of two frame sizes or ids.
 * The core already refused a nonzero genlmsghdr.reserved, unknown
 * nlmsg_flags (resv_start_op 0), unknown or foreign attributes, and
 * trailing bytes (strict validation), so the attributes are well formed.
 */
static int bm_req_check(const struct nlmsghdr *nlh, struct nlattr **attrs,
			struct netlink_ext_ack *extack)
{
	const struct genlmsghdr *gh = nlmsg_data(nlh);
	DECLARE_BITMAP(seen, BMGEN_A_MAX + 1);
	const struct nlattr *a;
	int rem;

	if (gh->version != BMGEN_GENL_VERSION) {
		NL_SET_ERR_MSG_MOD(extack,
				   "genlmsghdr.version is not " __stringify(BMGEN_GENL_VERSION) ", the version this module speaks");
		return -EINVAL;
	}
	if (!attrs || !attrs[BMGEN_A_VERSION]) {
		NL_SET_ERR_MSG_MOD(extack,
				   "missing protocol version attribute");
		return -EINVAL;
	}
	bitmap_zero(seen, BMGEN_A_MAX + 1);
	nlmsg_for_each_attr(a, nlh, GENL_HDRLEN, rem) {
		if (nla_type(a) > BMGEN_A_MAX)
			continue;	/* the strict parse refused it already */
		if (__test_and_set_bit(nla_type(a), seen)) {
			NL_SET_ERR_MSG_ATTR(extack, a,
					    "attribute given twice");
			return -EINVAL;
		}
	}
	return 0;
}

static int bm_pre_doit(const struct bm_genl_pre_ops *ops, struct sk_buff *skb,
		       struct genl_info *info)
{
	return bm_req_check(info->nlhdr, info->attrs, info->extack);
}

/* cb->args of every dump: [BM_DUMP_CHECKED] once bm_req_check() passed */
#define BM_DUMP_CHECKED 5

/*
 * The checks of bm_pre_doit() for a dump, in its first dumpit call: there
 * the error and its extack message reach the caller (in NLMSG_DONE), while
 * a dump's start callback has no extack in this kernel.  Also makes the
 * dump mark, with NLM_F_DUMP_INTR, a message that follows a change of
 * ports, streams or the trial since its first part.  Needs bm_cfg_lock.
 */
static int bm_dump_begin(struct netlink_callback *cb)
{
	int ret;

	if (!cb->args[BM_DUMP_CHECKED]) {
		ret = bm_req_check(cb->nlh, bm_dump_attrs(cb),
				   cb->extack);
		if (ret)
			return ret;
		cb->args[BM_DUMP_CHECKED] = 1;
	}
	cb->seq = bm_cfg_gen;
	return 0;
}

/* The header of one dump message, marked if the dump spans a change. */
static void *bm_dump_put(struct sk_buff *skb, struct netlink_callback *cb,
			 u8 cmd)
{
	void *hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				cb->nlh->nlmsg_seq, &bm_family, NLM_F_MULTI,
				cmd);

	if (hdr)
		genl_dump_check_consistent(cb, hdr);
	return hdr;
}

static void *bm_reply_put(struct sk_buff *skb, struct genl_info *info, u8 cmd)
{
	return genlmsg_put_reply(skb, info, &bm_family, 0, cmd);
}

/* STATUS_GET as seen from net: its ports and streams, the one trial. */
static int bm_status_fill(struct sk_buff *skb, const struct net *net)
{
	u32 state = READ_ONCE(bm_trial.state);

	if (state == BMGEN_TRIAL_ARMED && ktime_get_ns() >= bm_trial.epoch_ns)
		state = BMGEN_TRIAL_RUNNING;
	if (nla_put_u32(skb, BMGEN_A_VERSION, BMGEN_GENL_VERSION) ||
	    nla_put_string(skb, BMGEN_A_MOD_VERSION, BMGEN_VERSION) ||
	    nla_put_u32(skb, BMGEN_A_CPUS, num_online_cpus()) ||
	    nla_put_u32(skb, BMGEN_A_KTHREADS, bm_tx_kthreads()) ||
	    nla_put_u32(skb, BMGEN_A_NPORTS, bm_port_count(net)) ||
	    nla_put_u32(skb, BMGEN_A_NSTREAMS, bm_stream_count(net)) ||
	    nla_put_u32(skb, BMGEN_A_TRIAL_STATE, state) ||
	    nla_put_s32(skb, BMGEN_A_TRIAL_ERROR, bm_trial.error) ||
	    nla_put_u32(skb, BMGEN_A_TRIAL_ID, bm_trial.id) ||
	    nla_put_u64_64bit(skb, BMGEN_A_TRIAL_EPOCH_NS, bm_trial.epoch_ns,
			      BMGEN_A_PAD))
		return -EMSGSIZE;
	/* another namespace's trial: not its ports' ifindex */
	if (bm_trial.net && net_eq(bm_trial.net, net) &&
	    (nla_put_u32(skb, BMGEN_A_TRIAL_LINK_DOWNS, bm_trial.link_downs) ||
	     nla_put_u32(skb, BMGEN_A_TRIAL_LINK_DOWN_IFINDEX,
			 bm_trial.link_down_ifindex)))
		return -EMSGSIZE;
	return 0;
}

static int bm_nl_status_get(struct sk_buff *skb, struct genl_info *info)
{
	struct sk_buff *msg;
	void *hdr;
	int ret;

	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = bm_reply_put(msg, info, BMGEN_CMD_STATUS_GET);
	if (!hdr)
		goto nospace;
	mutex_lock(&bm_cfg_lock);
	ret = bm_status_fill(msg, genl_info_net(info));
	mutex_unlock(&bm_cfg_lock);
	if (ret)
		goto nospace;
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
nospace:
	nlmsg_free(msg);
	return -EMSGSIZE;
}

/* The device named by IFINDEX or IFNAME in the caller's netns (held). */
static struct net_device *bm_nl_dev(struct genl_info *info)
{
	struct net *net = genl_info_net(info);
	struct net_device *dev = NULL;

	if (info->attrs[BMGEN_A_PORT_IFINDEX] &&
	    info->attrs[BMGEN_A_PORT_IFNAME]) {
		/* two names that may disagree: refuse rather than guess */
		NL_SET_ERR_MSG_ATTR(info->extack,
				    info->attrs[BMGEN_A_PORT_IFNAME],
				    "give a port ifindex or an ifname, not both");
		return ERR_PTR(-EINVAL);
	}
	if (info->attrs[BMGEN_A_PORT_IFINDEX])
		dev = dev_get_by_index(net,
			nla_get_u32(info->attrs[BMGEN_A_PORT_IFINDEX]));
	else if (info->attrs[BMGEN_A_PORT_IFNAME])
		dev = dev_get_by_name(net,
			nla_data(info->attrs[BMGEN_A_PORT_IFNAME]));
	else {
		NL_SET_ERR_MSG_MOD(info->extack, "give a port ifindex or ifname");
		return ERR_PTR(-EINVAL);
	}
	if (!dev) {
		NL_SET_ERR_MSG_MOD(info->extack, "no such device in this netns");
		return ERR_PTR(-ENODEV);
	}
	return dev;
}

/* Attach or detach the device of a PORT_* request, under RTNL and bm_cfg_lock. */
static int bm_nl_port_change(struct genl_info *info, bool attach)
{
	struct net *net = genl_info_net(info);
	struct net_device *dev;
	struct bm_port *p;
	int ret;

	dev = bm_nl_dev(info);
	if (IS_ERR(dev))
		return PTR_ERR(dev);
	rtnl_lock();
	mutex_lock(&bm_cfg_lock);
	if (attach && dev->reg_state != NETREG_REGISTERED) {
		NL_SET_ERR_MSG_MOD(info->extack, "device is going away");
		ret = -ENODEV;
	} else if (attach) {
		ret = bm_port_attach(net, dev, info->extack);
	} else {
		p = bm_port_find(net, dev->ifindex);
		if (p) {
			ret = bm_port_detach(p, info->extack);
		} else {
			NL_SET_ERR_MSG_MOD(info->extack,
					   "device is not an attached port");
			ret = -ENOENT;
		}
	}
	mutex_unlock(&bm_cfg_lock);
	rtnl_unlock();
	dev_put(dev);
	return ret;
}

static int bm_nl_port_attach(struct sk_buff *skb, struct genl_info *info)
{
	return bm_nl_port_change(info, true);
}

static int bm_nl_port_detach(struct sk_buff *skb, struct genl_info *info)
{
	return bm_nl_port_change(info, false);
}

/* PORT_SET: the hardware stamping userspace switched on (SPEC PLAT-TS). */
static int bm_nl_port_set(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *off_a = info->attrs[BMGEN_A_PORT_PHC_OFFSET_NS];
	struct net *net = genl_info_net(info);
	struct net_device *dev;
	struct bm_port *p;
	s64 off;
	int ret;

	dev = bm_nl_dev(info);
	if (IS_ERR(dev))
		return PTR_ERR(dev);
	mutex_lock(&bm_cfg_lock);
	p = bm_port_find(net, dev->ifindex);
	if (!p) {
		NL_SET_ERR_MSG_MOD(info->extack, "device is not an attached port");
		ret = -ENOENT;
	} else if (bm_trial_busy()) {
		NL_SET_ERR_MSG_MOD(info->extack, "a trial is running");
		ret = -EBUSY;
	} else {
		if (off_a)
			off = nla_get_s64(off_a);
		ret = bm_hwts_port_set(p, info->attrs[BMGEN_A_PORT_HWTS] ?
				       nla_get_u32(info->attrs[BMGEN_A_PORT_HWTS]) :
				       p->hwts, off_a ? &off : NULL,
				       info->extack);
	}
	mutex_unlock(&bm_cfg_lock);
	dev_put(dev);
	return ret;
}

static int bm_nl_dev_get(struct sk_buff *skb, struct genl_info *info)
{
	struct net_device *dev;
	struct sk_buff *msg;
	void *hdr;

	dev = bm_nl_dev(info);
	if (IS_ERR(dev))
		return PTR_ERR(dev);
	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg) {
		dev_put(dev);
		return -ENOMEM;
	}
	hdr = bm_reply_put(msg, info, BMGEN_CMD_DEV_GET);
	if (!hdr ||
	    nla_put_u32(msg, BMGEN_A_PORT_IFINDEX, dev->ifindex) ||
	    nla_put_string(msg, BMGEN_A_PORT_IFNAME, dev->name) ||
	    nla_put_u32(msg, BMGEN_A_PORT_TX_PATHS, bm_tx_paths_dev(dev))) {
		dev_put(dev);
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	dev_put(dev);
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

static int bm_nl_port_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct net *net = sock_net(skb->sk);
	long idx = 0, start = cb->args[0];
	struct bm_port *p;
	void *hdr;
	int ret;

	mutex_lock(&bm_cfg_lock);
	ret = bm_dump_begin(cb);
	if (ret) {
		mutex_unlock(&bm_cfg_lock);
		return ret;
	}
	list_for_each_entry(p, &bm_ports, node) {
		if (!net_eq(p->net, net))
			continue;
		if (idx++ < start)
			continue;
		hdr = bm_dump_put(skb, cb, BMGEN_CMD_PORT_GET);
		if (!hdr)
			break;
		if (nla_put_u32(skb, BMGEN_A_PORT_IFINDEX, p->ifindex) ||
		    nla_put_string(skb, BMGEN_A_PORT_IFNAME, p->dev->name) ||
		    nla_put_u32(skb, BMGEN_A_PORT_TS_CAPS, p->ts_caps) ||
		    nla_put_u64_64bit(skb, BMGEN_A_PORT_RX_OTHER,
				      atomic64_read(&p->rx_other), BMGEN_A_PAD) ||
		    nla_put_u64_64bit(skb, BMGEN_A_PORT_RX_UNKNOWN,
				      atomic64_read(&p->rx_unknown), BMGEN_A_PAD) ||
		    nla_put_u64_64bit(skb, BMGEN_A_PORT_RX_MISDIRECTED,
				      atomic64_read(&p->rx_misdirected),
				      BMGEN_A_PAD) ||
		    nla_put_u32(skb, BMGEN_A_PORT_HWTS, p->hwts) ||
		    nla_put_s32(skb, BMGEN_A_PORT_PHC_INDEX, p->phc_index) ||
		    nla_put_u32(skb, BMGEN_A_PORT_TX_PATHS, bm_tx_paths(p)) ||
		    nla_put_s64(skb, BMGEN_A_PORT_PHC_OFFSET_NS,
				p->phc_offset_ns, BMGEN_A_PAD)) {
			genlmsg_cancel(skb, hdr);
			idx--;
			break;
		}
		genlmsg_end(skb, hdr);
	}
	mutex_unlock(&bm_cfg_lock);
	cb->args[0] = idx;
	return skb->len;
}

static u64 bm_get_u64(struct nlattr **a, int type, u64 def)
{
	return a[type] ? nla_get_u64(a[type]) : def;
}

/* Parse STREAM_ADD into s; ports are resolved in net.  Needs bm_cfg_lock. */
static int bm_nl_stream_parse(struct bm_stream *s, struct net *net,
			      struct nlattr **a, struct netlink_ext_ack *extack)
{
	if (!a[BMGEN_A_STREAM_ID] || !a[BMGEN_A_STREAM_TX_IFINDEX]) {
		NL_SET_ERR_MSG_MOD(extack, "a stream needs an id and a tx port");
		return -EINVAL;
	}
	s->id = nla_get_u32(a[BMGEN_A_STREAM_ID]);
	s->net = net;
	s->tx_port = bm_port_find(net, nla_get_u32(a[BMGEN_A_STREAM_TX_IFINDEX]));
	if (!s->tx_port) {
		NL_SET_ERR_MSG_ATTR(extack, a[BMGEN_A_STREAM_TX_IFINDEX],
				    "tx device is not an attached port");
		return -ENOENT;
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

static int bm_nl_stream_add(struct sk_buff *skb, struct genl_info *info)
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

static int bm_nl_stream_del(struct sk_buff *skb, struct genl_info *info)
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
	    (s->tag_dst_ip4 &&
	     nla_put_in_addr(skb, BMGEN_A_STREAM_TAG_DST_IP4, s->tag_dst_ip4)) ||
	    bm_stream_put_frame_head(skb, s))
		return -EMSGSIZE;
	return 0;
}

/* The streams of the caller's namespace, by increasing id. */
static int bm_nl_stream_dump(struct sk_buff *skb, struct netlink_callback *cb)
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

static int bm_nl_trial_start(struct sk_buff *skb, struct genl_info *info)
{
	u64 delay = 0;
	int ret;

	if (info->attrs[BMGEN_A_TRIAL_START_DELAY_NS]) {
		delay = nla_get_u64(info->attrs[BMGEN_A_TRIAL_START_DELAY_NS]);
		if (delay > BM_MAX_DELAY_NS) {
			NL_SET_ERR_MSG_ATTR(info->extack,
					    info->attrs[BMGEN_A_TRIAL_START_DELAY_NS],
					    "start delay longer than an hour");
			return -ERANGE;
		}
	}
	mutex_lock(&bm_cfg_lock);
	ret = bm_trial_start(genl_info_net(info), info->snd_portid, delay,
			     info->extack);
	if (!ret)
		bm_trial.owned = nla_get_flag(info->attrs[BMGEN_A_TRIAL_OWNED]);
	mutex_unlock(&bm_cfg_lock);
	return ret;
}

/*
 * Stop the trial, if one runs and it is the caller's namespace's, or the
 * caller is the host's: a container with CAP_NET_ADMIN could otherwise
 * hold the module's one trial for as long as it liked.
 */
static int bm_nl_trial_stop(struct sk_buff *skb, struct genl_info *info)
{
	struct net *net = genl_info_net(info);
	int ret = 0;

	mutex_lock(&bm_cfg_lock);
	if (bm_trial_busy() && !net_eq(bm_trial.net, net) &&
	    !net_eq(net, &init_net)) {
		NL_SET_ERR_MSG_MOD(info->extack,
				   "the running trial belongs to another network namespace");
		ret = -EPERM;
	} else if (bm_trial_busy()) {
		if (!net_eq(bm_trial.net, net))
			pr_info("bmgen: trial %u of another network namespace stopped by the host\n",
				bm_trial.id);
		bm_trial_stop(0);
	}
	mutex_unlock(&bm_cfg_lock);
	return ret;
}

/* The caller's namespace's loss wait is over (REQ-RX-3). */
static int bm_nl_rx_close(struct sk_buff *skb, struct genl_info *info)
{
	int ret;

	mutex_lock(&bm_cfg_lock);
	ret = bm_trial_rx_close(genl_info_net(info), info->extack);
	mutex_unlock(&bm_cfg_lock);
	return ret;
}

#define BM_PUT64(skb, type, v) \
	nla_put_u64_64bit(skb, type, v, BMGEN_STATS_PAD)

/* Frames by DSCP (64) and by PCP (8), copied together under the rx lock. */
struct bm_rx_classes {
	u64 dscp[64];
	u64 pcp[8];
};

/* Stats of s into a BMGEN_A_STATS nest; rx copied under the rx lock. */
static int bm_stats_fill(struct sk_buff *skb, struct bm_stream *s)
{
	typeof(s->rx.stats) rx;
	struct bm_rx_classes *cls;
	struct nlattr *nest;
	u64 log_tx;
	int ret = -EMSGSIZE;

	cls = kmalloc(sizeof(*cls), GFP_KERNEL);
	if (!cls)
		return -ENOMEM;
	spin_lock_bh(&s->rx.lock);
	rx = s->rx.stats;
	memcpy(cls->dscp, s->rx.dscp, sizeof(cls->dscp));
	memcpy(cls->pcp, s->rx.pcp, sizeof(cls->pcp));
	spin_unlock_bh(&s->rx.lock);
	log_tx = min_t(u64, READ_ONCE(s->tx_frames), s->log_frames);
	nest = nla_nest_start(skb, BMGEN_A_STATS);
	if (!nest)
		goto out;
	if (nla_put_u32(skb, BMGEN_STATS_STREAM_ID, s->id) ||
	    nla_put_u32(skb, BMGEN_STATS_TS_SOURCE, BMGEN_TS_SW) ||
	    nla_put_u32(skb, BMGEN_STATS_TS_CLOCK, CLOCK_MONOTONIC) ||
	    BM_PUT64(skb, BMGEN_STATS_TX_FRAMES, READ_ONCE(s->tx_frames)) ||
	    BM_PUT64(skb, BMGEN_STATS_TX_BYTES, READ_ONCE(s->tx_bytes)) ||
	    BM_PUT64(skb, BMGEN_STATS_TX_RETRIES, READ_ONCE(s->tx_retries)) ||
	    BM_PUT64(skb, BMGEN_STATS_TX_ERRORS, READ_ONCE(s->tx_errors)) ||
	    BM_PUT64(skb, BMGEN_STATS_TX_FIRST_NS, READ_ONCE(s->tx_first_ns)) ||
	    BM_PUT64(skb, BMGEN_STATS_TX_LAST_NS, READ_ONCE(s->tx_last_ns)) ||
	    nla_put_u8(skb, BMGEN_STATS_TX_DONE, READ_ONCE(s->tx_done)) ||
	    BM_PUT64(skb, BMGEN_STATS_TX_LATE_FRAMES,
		     READ_ONCE(s->tx_late_frames)) ||
	    BM_PUT64(skb, BMGEN_STATS_TX_LATE_MAX_NS,
		     READ_ONCE(s->tx_late_max_ns)) ||
	    nla_put(skb, BMGEN_STATS_TX_STALLS_NS, sizeof(s->tx_stalls_ns),
		    s->tx_stalls_ns) ||
	    nla_put_u32(skb, BMGEN_STATS_TX_MAX_BATCH,
			READ_ONCE(s->tx_max_batch)) ||
	    nla_put_u32(skb, BMGEN_STATS_TX_PATH, READ_ONCE(s->tx_path)) ||
	    BM_PUT64(skb, BMGEN_STATS_TX_RING_MISSES,
		     READ_ONCE(s->tx_ring_misses)) ||
	    BM_PUT64(skb, BMGEN_STATS_TX_BURST_LATE_MAX_NS,
		     READ_ONCE(s->tx_burst_late_max_ns)) ||
	    BM_PUT64(skb, BMGEN_STATS_RX_FRAMES, rx.frames) ||
	    BM_PUT64(skb, BMGEN_STATS_RX_BYTES, rx.bytes) ||
	    BM_PUT64(skb, BMGEN_STATS_RX_UNIQUE, rx.unique) ||
	    BM_PUT64(skb, BMGEN_STATS_RX_LATE, rx.late) ||
	    BM_PUT64(skb, BMGEN_STATS_RX_IN_ORDER, rx.in_order) ||
	    BM_PUT64(skb, BMGEN_STATS_RX_REORDERED, rx.reordered) ||
	    BM_PUT64(skb, BMGEN_STATS_RX_DUP, rx.dup) ||
	    BM_PUT64(skb, BMGEN_STATS_RX_GAP_EVENTS, rx.gap_events) ||
	    BM_PUT64(skb, BMGEN_STATS_RX_GAP_FRAMES, rx.gap_frames) ||
	    BM_PUT64(skb, BMGEN_STATS_RX_BAD_LEN, rx.bad_len) ||
	    BM_PUT64(skb, BMGEN_STATS_RX_LEARN, rx.learn) ||
	    BM_PUT64(skb, BMGEN_STATS_RX_FIRST_NS, rx.first_ns) ||
	    BM_PUT64(skb, BMGEN_STATS_RX_LAST_NS, rx.last_ns) ||
	    BM_PUT64(skb, BMGEN_STATS_RX_MAX_SEQ, rx.max_seq) ||
	    BM_PUT64(skb, BMGEN_STATS_RX_LAST_LOST_SEQ, rx.last_lost_seq) ||
	    BM_PUT64(skb, BMGEN_STATS_RX_MAX_IAT_NS, rx.max_iat_ns) ||
	    BM_PUT64(skb, BMGEN_STATS_RX_MAX_IAT_START_NS, rx.max_iat_start_ns) ||
	    BM_PUT64(skb, BMGEN_STATS_LAT_COUNT, rx.lat_count) ||
	    BM_PUT64(skb, BMGEN_STATS_LAT_MIN_NS, rx.lat_count ? rx.lat_min : 0) ||
	    BM_PUT64(skb, BMGEN_STATS_LAT_MAX_NS, rx.lat_max) ||
	    BM_PUT64(skb, BMGEN_STATS_LAT_SUM_NS, rx.lat_sum) ||
	    BM_PUT64(skb, BMGEN_STATS_LAT_SUMSQ_HI, (u64)(rx.lat_sumsq >> 64)) ||
	    BM_PUT64(skb, BMGEN_STATS_LAT_SUMSQ_LO, (u64)rx.lat_sumsq) ||
	    BM_PUT64(skb, BMGEN_STATS_IPDV_COUNT, rx.ipdv_count) ||
	    BM_PUT64(skb, BMGEN_STATS_IPDV_MIN_NS, rx.ipdv_count ? rx.ipdv_min : 0) ||
	    BM_PUT64(skb, BMGEN_STATS_IPDV_MAX_NS, rx.ipdv_count ? rx.ipdv_max : 0) ||
	    BM_PUT64(skb, BMGEN_STATS_IPDV_SUM_NS, rx.ipdv_sum) ||
	    BM_PUT64(skb, BMGEN_STATS_TAG_LAT_NS, rx.tag_lat_ns) ||
	    BM_PUT64(skb, BMGEN_STATS_RX_CPU_SPLIT, rx.cpu_split) ||
	    nla_put(skb, BMGEN_STATS_RX_DSCP, sizeof(cls->dscp), cls->dscp) ||
	    nla_put(skb, BMGEN_STATS_RX_PCP, sizeof(cls->pcp), cls->pcp) ||
	    BM_PUT64(skb, BMGEN_STATS_RX_UNTAGGED, rx.untagged) ||
	    BM_PUT64(skb, BMGEN_STATS_LOG_TX, log_tx) ||
	    BM_PUT64(skb, BMGEN_STATS_LOG_RX, rx.log_n) ||
	    BM_PUT64(skb, BMGEN_STATS_HW_TX_REQUESTS,
		     READ_ONCE(s->hw_tx_requests)) ||
	    BM_PUT64(skb, BMGEN_STATS_HW_TX_STAMPS, rx.hw_tx_stamps) ||
	    BM_PUT64(skb, BMGEN_STATS_HW_RX_STAMPS, rx.hw_rx_stamps) ||
	    BM_PUT64(skb, BMGEN_STATS_HW_LAT_COUNT, rx.hw_lat_count) ||
	    BM_PUT64(skb, BMGEN_STATS_HW_LAT_MIN_NS, rx.hw_lat_min) ||
	    BM_PUT64(skb, BMGEN_STATS_HW_LAT_MAX_NS, rx.hw_lat_max) ||
	    BM_PUT64(skb, BMGEN_STATS_HW_LAT_SUM_NS, rx.hw_lat_sum) ||
	    BM_PUT64(skb, BMGEN_STATS_HW_LAT_SW_SUM_NS, rx.hw_lat_sw_sum)) {
		nla_nest_cancel(skb, nest);
		goto out;
	}
	nla_nest_end(skb, nest);
	ret = 0;
out:
	kfree(cls);
	return ret;
}

#define BM_HIST_CHUNK 256

/*
 * Stats dump: per stream one STATS message, then its non-empty histogram
 * buckets in chunks.  args[0] = stream id, args[1] = 0 before the STATS
 * message, else 1 + the next bucket to send.
 */
static int bm_nl_stats_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct nlattr **attrs = bm_dump_attrs(cb);
	struct net *net = sock_net(skb->sk);
	struct bmgen_hist_bucket *buf;
	u32 only = 0;
	long i;
	void *hdr;
	int ret;

	if (attrs[BMGEN_A_STREAM_ID])
		only = nla_get_u32(attrs[BMGEN_A_STREAM_ID]);
	buf = kmalloc_array(BM_HIST_CHUNK, sizeof(*buf), GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	mutex_lock(&bm_cfg_lock);
	ret = bm_dump_begin(cb);
	if (ret) {
		mutex_unlock(&bm_cfg_lock);
		kfree(buf);
		return ret;
	}
	for (i = max_t(long, cb->args[0], 1); i < BMGEN_MAX_STREAMS; i++) {
		struct bm_stream *s = rcu_dereference_protected(bm_streams[i],
					lockdep_is_held(&bm_cfg_lock));
		u32 b, n;

		if (!s || !net_eq(s->net, net) || (only && s->id != only))
			continue;
		if (!cb->args[1]) {
			/* tx stamps that came after the kthread's last look */
			if (s->tx_port && s->tx_port->ts_sock)
				bm_hwts_drain(s->tx_port);
			hdr = bm_dump_put(skb, cb, BMGEN_CMD_STATS_GET);
			if (!hdr)
				goto out;
			if (bm_stats_fill(skb, s)) {
				genlmsg_cancel(skb, hdr);
				goto out;
			}
			genlmsg_end(skb, hdr);
			cb->args[1] = 1;
		}
		for (b = cb->args[1] - 1; b < BMGEN_HIST_BUCKETS; ) {
			spin_lock_bh(&s->rx.lock);
			for (n = 0; b < BMGEN_HIST_BUCKETS && n < BM_HIST_CHUNK; b++) {
				if (!s->rx.hist[b])
					continue;
				buf[n].index = b;
				buf[n].reserved = 0;
				buf[n].count = s->rx.hist[b];
				n++;
			}
			spin_unlock_bh(&s->rx.lock);
			if (!n)
				break;
			hdr = bm_dump_put(skb, cb, BMGEN_CMD_STATS_GET);
			if (!hdr)
				goto out;
			if (nla_put_u32(skb, BMGEN_A_STREAM_ID, s->id) ||
			    nla_put(skb, BMGEN_A_HIST, n * sizeof(*buf), buf)) {
				genlmsg_cancel(skb, hdr);
				goto out;
			}
			genlmsg_end(skb, hdr);
			/* resume after the last bucket that went out */
			cb->args[1] = 1 + b;
		}
		cb->args[1] = 0;
	}
out:
	mutex_unlock(&bm_cfg_lock);
	cb->args[0] = i;
	kfree(buf);
	return skb->len;
}

/* Records per LOG_GET message: 32 B each, well inside a dump skb. */
#define BM_LOG_CHUNK 64

/*
 * The stream a log dump reads, or an error with its extack: no id, no
 * such stream in the caller's namespace, no log, or a trial running (the
 * kthread and the rx handler are writing the log).  Needs bm_cfg_lock.
 */
static struct bm_stream *bm_log_stream(struct netlink_callback *cb,
				       const struct net *net)
{
	struct nlattr **attrs = bm_dump_attrs(cb);
	struct bm_stream *s;

	if (!attrs[BMGEN_A_STREAM_ID]) {
		NL_SET_ERR_MSG_MOD(cb->extack, "a log dump needs a stream id");
		return ERR_PTR(-EINVAL);
	}
	if (bm_trial_busy()) {
		NL_SET_ERR_MSG_MOD(cb->extack, "the log cannot be read while a trial runs");
		return ERR_PTR(-EBUSY);
	}
	s = rcu_dereference_protected(
		bm_streams[nla_get_u32(attrs[BMGEN_A_STREAM_ID])],
		lockdep_is_held(&bm_cfg_lock));
	if (!s || !net_eq(s->net, net)) {
		NL_SET_ERR_MSG_MOD(cb->extack, "no such stream");
		return ERR_PTR(-ENOENT);
	}
	if (!s->log_frames) {
		NL_SET_ERR_MSG_MOD(cb->extack, "the stream keeps no log (STREAM_LOG_FRAMES)");
		return ERR_PTR(-ENODATA);
	}
	return s;
}

/*
 * The frame log of one stream of the caller's namespace: its tx records
 * (seq order), then its rx records (arrival order), in chunks.  args[0] =
 * direction, args[1] = next record.  The log is read as the last trial
 * left it.  Errors, with their extack, come in the NLMSG_DONE of the
 * first part; a change between two parts ends the dump with that error
 * (and NLM_F_DUMP_INTR).
 */
static int bm_nl_log_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct bm_stream *s;
	u64 n[2], i;
	void *hdr;
	int ret;

	mutex_lock(&bm_cfg_lock);
	ret = bm_dump_begin(cb);
	if (ret)
		goto unlock;
	s = bm_log_stream(cb, sock_net(skb->sk));
	if (IS_ERR(s)) {
		ret = PTR_ERR(s);
		goto unlock;
	}
	n[BMGEN_LOG_TX] = min_t(u64, s->tx_frames, s->log_frames);
	n[BMGEN_LOG_RX] = min_t(u64, s->rx.log_n, s->log_frames);
	for (; cb->args[0] <= BMGEN_LOG_RX; cb->args[0]++, cb->args[1] = 0) {
		u32 dir = cb->args[0], size;
		const void *base;

		size = dir == BMGEN_LOG_TX ? sizeof(*s->tx_log) :
					     sizeof(*s->rx_log);
		base = dir == BMGEN_LOG_TX ? (const void *)s->tx_log :
					     (const void *)s->rx_log;
		for (i = cb->args[1]; i < n[dir]; i += BM_LOG_CHUNK) {
			u64 k = min_t(u64, BM_LOG_CHUNK, n[dir] - i);

			hdr = bm_dump_put(skb, cb, BMGEN_CMD_LOG_GET);
			if (!hdr)
				goto full;
			if (nla_put_u32(skb, BMGEN_A_STREAM_ID, s->id) ||
			    nla_put_u32(skb, BMGEN_A_LOG_DIR, dir) ||
			    nla_put_u64_64bit(skb, BMGEN_A_LOG_OFFSET, i,
					      BMGEN_A_PAD) ||
			    nla_put(skb, BMGEN_A_LOG_RECORDS, k * size,
				    base + i * size)) {
				genlmsg_cancel(skb, hdr);
				goto full;
			}
			genlmsg_end(skb, hdr);
			cb->args[1] = i + k;
		}
	}
full:
	ret = skb->len;
unlock:
	mutex_unlock(&bm_cfg_lock);
	return ret;
}

static const struct genl_ops bm_ops[] = {
	{
		.cmd = BMGEN_CMD_STATUS_GET,
		.doit = bm_nl_status_get,
		.policy = bm_status_policy,
		.maxattr = BMGEN_A_MAX,
	}, {
		.cmd = BMGEN_CMD_PORT_ATTACH,
		.doit = bm_nl_port_attach,
		.policy = bm_port_policy,
		.maxattr = BMGEN_A_MAX,
		.flags = GENL_ADMIN_PERM,
	}, {
		.cmd = BMGEN_CMD_PORT_DETACH,
		.doit = bm_nl_port_detach,
		.policy = bm_port_policy,
		.maxattr = BMGEN_A_MAX,
		.flags = GENL_ADMIN_PERM,
	}, {
		.cmd = BMGEN_CMD_PORT_SET,
		.doit = bm_nl_port_set,
		.policy = bm_port_set_policy,
		.maxattr = BMGEN_A_MAX,
		.flags = GENL_ADMIN_PERM,
	}, {
		.cmd = BMGEN_CMD_PORT_GET,
		.dumpit = bm_nl_port_dump,
		.policy = bm_status_policy,
		.maxattr = BMGEN_A_MAX,
	}, {
		.cmd = BMGEN_CMD_DEV_GET,
		.doit = bm_nl_dev_get,
		.policy = bm_port_policy,
		.maxattr = BMGEN_A_MAX,
	}, {
		.cmd = BMGEN_CMD_STREAM_ADD,
		.doit = bm_nl_stream_add,
		.policy = bm_stream_policy,
		.maxattr = BMGEN_A_MAX,
		.flags = GENL_ADMIN_PERM,
	}, {
		.cmd = BMGEN_CMD_STREAM_DEL,
		.doit = bm_nl_stream_del,
		.policy = bm_stream_del_policy,
		.maxattr = BMGEN_A_MAX,
		.flags = GENL_ADMIN_PERM,
	}, {
		.cmd = BMGEN_CMD_STREAM_GET,
		.dumpit = bm_nl_stream_dump,
		.policy = bm_status_policy,
		.maxattr = BMGEN_A_MAX,
	}, {
		.cmd = BMGEN_CMD_TRIAL_START,
		.doit = bm_nl_trial_start,
		.policy = bm_trial_policy,
		.maxattr = BMGEN_A_MAX,
		.flags = GENL_ADMIN_PERM,
	}, {
		.cmd = BMGEN_CMD_TRIAL_STOP,
		.doit = bm_nl_trial_stop,
		.policy = bm_status_policy,
		.maxattr = BMGEN_A_MAX,
		.flags = GENL_ADMIN_PERM,
	}, {
		.cmd = BMGEN_CMD_STATS_GET,
		.dumpit = bm_nl_stats_dump,
		.policy = bm_stream_del_policy,
		.maxattr = BMGEN_A_MAX,
		/* these take each stream's receive lock, which the receive
		 * path takes for every frame: not for anyone during a trial
		 */
		.flags = GENL_ADMIN_PERM,
	}, {
		.cmd = BMGEN_CMD_RX_CLOSE,
		.doit = bm_nl_rx_close,
		.policy = bm_status_policy,
		.maxattr = BMGEN_A_MAX,
		.flags = GENL_ADMIN_PERM,
	}, {
		.cmd = BMGEN_CMD_LOG_GET,
		.dumpit = bm_nl_log_dump,
		.policy = bm_log_policy,
		.maxattr = BMGEN_A_MAX,
		.flags = GENL_ADMIN_PERM,
	},
};

static struct genl_family bm_family __ro_after_init = {
	.name = BMGEN_GENL_NAME,
	.version = BMGEN_GENL_VERSION,
	.netnsok = true,
	.module = THIS_MODULE,
	.pre_doit = bm_pre_doit,
	.ops = bm_ops,
	.n_ops = ARRAY_SIZE(bm_ops),
	/* 0: the core refuses a nonzero genlmsghdr.reserved and nlmsg_flags
	 * other than REQUEST, ACK, ECHO and DUMP for every command
	 */
	.resv_start_op = 0,
	.mcgrps = bm_mcgrps,
	.n_mcgrps = ARRAY_SIZE(bm_mcgrps),
};

/* Announce the end of the current trial on the events group. */
/* The family is registered; cleared under bm_cfg_lock before it is not. */
static bool bm_genl_live;

void bm_genl_trial_event(void)
{
	struct sk_buff *msg;
	struct net *net;
	void *hdr;

	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return;
	hdr = genlmsg_put(msg, 0, 0, &bm_family, 0, BMGEN_CMD_TRIAL_EVENT);
	if (!hdr)
		goto free;
	mutex_lock(&bm_cfg_lock);
	/* NULL: the trial's namespace went away (bm_net_pre_exit()); while
	 * we hold the lock, it cannot go, nor its genetlink socket
	 */
	net = bm_trial.net;
	/* module exit: the family is going, nobody to tell */
	if (!bm_genl_live || !net || bm_status_fill(msg, net)) {
		mutex_unlock(&bm_cfg_lock);
		goto free;
	}
	genlmsg_end(msg, hdr);
	genlmsg_multicast_netns(&bm_family, net, msg, 0, BM_MCGRP_EVENTS,
				GFP_KERNEL);
	mutex_unlock(&bm_cfg_lock);
	return;
free:
	nlmsg_free(msg);
}

/*
 * An owned trial ends with its owner: a daemon killed mid-trial must not
 * leave the ports sending (a continuous stream would never stop) nor the
 * module busy for the next job.  Netlink calls this from the socket's
 * release, in process context.
 */
static int bm_nl_release(struct notifier_block *nb, unsigned long event,
			 void *ptr)
{
	struct netlink_notify *n = ptr;

	if (event != NETLINK_URELEASE || n->protocol != NETLINK_GENERIC ||
	    !n->portid)
		return NOTIFY_DONE;
	mutex_lock(&bm_cfg_lock);
	if (bm_trial.owned && bm_trial.portid == n->portid &&
	    bm_trial.net && net_eq(bm_trial.net, n->net) &&
	    (bm_trial.state == BMGEN_TRIAL_ARMED ||
	     bm_trial.state == BMGEN_TRIAL_RUNNING)) {
		pr_info("bmgen: trial %u stopped: its owner's socket closed\n",
			bm_trial.id);
		bm_trial_stop(-ECONNRESET);
	}
	mutex_unlock(&bm_cfg_lock);
	return NOTIFY_DONE;
}

static struct notifier_block bm_nl_nb = {
	.notifier_call = bm_nl_release,
};

int bm_genl_init(void)
{
	int ret;

	ret = netlink_register_notifier(&bm_nl_nb);
	if (ret)
		return ret;
	ret = genl_register_family(&bm_family);
	if (ret) {
		netlink_unregister_notifier(&bm_nl_nb);
		return ret;
	}
	mutex_lock(&bm_cfg_lock);
	bm_genl_live = true;
	mutex_unlock(&bm_cfg_lock);
	return 0;
}

void bm_genl_exit(void)
{
	/* the trial's last event (bm_exit stops it) is not multicast on a
	 * family that is gone; one being sent holds the lock until it is
	 */
	mutex_lock(&bm_cfg_lock);
	bm_genl_live = false;
	mutex_unlock(&bm_cfg_lock);
	genl_unregister_family(&bm_family);
	netlink_unregister_notifier(&bm_nl_nb);
}

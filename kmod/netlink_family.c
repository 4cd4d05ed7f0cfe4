// SPDX-License-Identifier: GPL-2.0
/*
 * The generic netlink family "bmgen" (include/uapi/linux/bmgen.h) and
 * what every one of its requests gets: the checks beyond the policies
 * (Documentation/abi.md, "Requests"), the headers of replies and dump
 * parts, the status every reply and event carries.  Its operations are
 * listed in netlink.c, which registers it; the handlers live with their
 * object (netlink_port.c, _stream.c, _trial.c, _stats.c), and this file
 * calls none of them.
 */
#include <linux/etherdevice.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <net/genetlink.h>
#include <net/netlink.h>
#include <net/sock.h>

#include "bmgen.h"
#include "netlink_int.h"

static struct genl_family bm_family;

enum { BM_MCGRP_EVENTS };

static const struct genl_multicast_group bm_mcgrps[] = {
	[BM_MCGRP_EVENTS] = { .name = BMGEN_MCGRP_EVENTS },
};

const struct nla_policy bm_status_policy[BMGEN_A_MAX + 1] = {
	BM_POLICY_VERSION,
};

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
int bm_dump_begin(struct netlink_callback *cb)
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
void *bm_dump_put(struct sk_buff *skb, struct netlink_callback *cb,
			 u8 cmd)
{
	void *hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				cb->nlh->nlmsg_seq, &bm_family, NLM_F_MULTI,
				cmd);

	if (hdr)
		genl_dump_check_consistent(cb, hdr);
	return hdr;
}

void *bm_reply_put(struct sk_buff *skb, struct genl_info *info, u8 cmd)
{
	return genlmsg_put_reply(skb, info, &bm_family, 0, cmd);
}

/* STATUS_GET as seen from net: its ports and streams, the one trial. */
int bm_status_fill(struct sk_buff *skb, const struct net *net)
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
			      BMGEN_A_PAD) ||
	    nla_put_u64_64bit(skb, BMGEN_A_TRIAL_EPOCH_TAI_NS,
			      bm_trial.epoch_tai_ns, BMGEN_A_PAD))
		return -EMSGSIZE;
	/* another namespace's trial: not its ports' ifindex */
	if (bm_trial.net && net_eq(bm_trial.net, net) &&
	    (nla_put_u32(skb, BMGEN_A_TRIAL_LINK_DOWNS, bm_trial.link_downs) ||
	     nla_put_u32(skb, BMGEN_A_TRIAL_LINK_DOWN_IFINDEX,
			 bm_trial.link_down_ifindex)))
		return -EMSGSIZE;
	return 0;
}

/* ops and n_ops are netlink.c's, given at registration: the handlers use
 * this family's helpers, so the family cannot name them.
 */
static struct genl_family bm_family __ro_after_init = {
	.name = BMGEN_GENL_NAME,
	.version = BMGEN_GENL_VERSION,
	.netnsok = true,
	.module = THIS_MODULE,
	.pre_doit = bm_pre_doit,
	/* 0: the core refuses a nonzero genlmsghdr.reserved and nlmsg_flags
	 * other than REQUEST, ACK, ECHO and DUMP for every command
	 */
	.resv_start_op = 0,
	.mcgrps = bm_mcgrps,
	.n_mcgrps = ARRAY_SIZE(bm_mcgrps),
};

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

int bm_genl_family_register(const struct genl_ops *ops, unsigned int n_ops)
{
	int ret;

	bm_family.ops = ops;
	bm_family.n_ops = n_ops;
	ret = genl_register_family(&bm_family);
	if (ret)
		return ret;
	mutex_lock(&bm_cfg_lock);
	bm_genl_live = true;
	mutex_unlock(&bm_cfg_lock);
	return 0;
}

void bm_genl_family_unregister(void)
{
	/* the trial's last event (bm_exit stops it) is not multicast on a
	 * family that is gone; one being sent holds the lock until it is
	 */
	mutex_lock(&bm_cfg_lock);
	bm_genl_live = false;
	mutex_unlock(&bm_cfg_lock);
	genl_unregister_family(&bm_family);
}

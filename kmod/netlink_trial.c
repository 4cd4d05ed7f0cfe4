// SPDX-License-Identifier: GPL-2.0
/*
 * The trial requests: STATUS_GET, TRIAL_START, TRIAL_STOP and RX_CLOSE,
 * and the end of an owned trial with its owner's socket.
 */
#include <linux/etherdevice.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <net/genetlink.h>
#include <net/netlink.h>
#include <net/sock.h>

#include "bmgen.h"
#include "netlink_int.h"

const struct nla_policy bm_trial_policy[BMGEN_A_MAX + 1] = {
	BM_POLICY_VERSION,
	[BMGEN_A_TRIAL_START_DELAY_NS] = { .type = NLA_U64 },
	[BMGEN_A_TRIAL_OWNED] = { .type = NLA_FLAG },
	[BMGEN_A_TRIAL_START_TAI_NS] = NLA_POLICY_MIN(NLA_U64, 1),
};

int bm_nl_status_get(struct sk_buff *skb, struct genl_info *info)
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

int bm_nl_trial_start(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *at = info->attrs[BMGEN_A_TRIAL_START_TAI_NS];
	u64 delay = 0, tai = 0;
	int ret;

	if (at) {
		if (info->attrs[BMGEN_A_TRIAL_START_DELAY_NS]) {
			NL_SET_ERR_MSG_ATTR(info->extack, at,
					    "a start time or a start delay, not both");
			return -EINVAL;
		}
		tai = nla_get_u64(at);
		if (tai > ktime_get_clocktai_ns() + BM_MAX_DELAY_NS) {
			NL_SET_ERR_MSG_ATTR(info->extack, at,
					    "start time more than an hour ahead");
			return -ERANGE;
		}
	}
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
	ret = bm_trial_start(genl_info_net(info), info->snd_portid, delay, tai,
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
int bm_nl_trial_stop(struct sk_buff *skb, struct genl_info *info)
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
int bm_nl_rx_close(struct sk_buff *skb, struct genl_info *info)
{
	int ret;

	mutex_lock(&bm_cfg_lock);
	ret = bm_trial_rx_close(genl_info_net(info), info->extack);
	mutex_unlock(&bm_cfg_lock);
	return ret;
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

int bm_nl_trial_owner_init(void)
{
	return netlink_register_notifier(&bm_nl_nb);
}

void bm_nl_trial_owner_exit(void)
{
	netlink_unregister_notifier(&bm_nl_nb);
}

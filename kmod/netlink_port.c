// SPDX-License-Identifier: GPL-2.0
/*
 * The port requests: PORT_ATTACH, PORT_DETACH, PORT_SET, PORT_GET (dump)
 * and DEV_GET, each on the caller's network namespace's devices.
 */
#include <linux/etherdevice.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <net/genetlink.h>
#include <net/netlink.h>
#include <net/sock.h>

#include "bmgen.h"
#include "netlink_int.h"

const struct nla_policy bm_port_policy[BMGEN_A_MAX + 1] = {
	BM_POLICY_VERSION,
	[BMGEN_A_PORT_IFINDEX] = NLA_POLICY_MIN(NLA_U32, 1),
	[BMGEN_A_PORT_IFNAME] = { .type = NLA_NUL_STRING, .len = IFNAMSIZ - 1 },
};

const struct nla_policy bm_port_set_policy[BMGEN_A_MAX + 1] = {
	BM_POLICY_VERSION,
	[BMGEN_A_PORT_IFINDEX] = NLA_POLICY_MIN(NLA_U32, 1),
	[BMGEN_A_PORT_IFNAME] = { .type = NLA_NUL_STRING, .len = IFNAMSIZ - 1 },
	[BMGEN_A_PORT_HWTS] = NLA_POLICY_MASK(NLA_U32, BMGEN_HWTS_ALL),
	[BMGEN_A_PORT_PHC_OFFSET_NS] = { .type = NLA_S64 },
};

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

int bm_nl_port_attach(struct sk_buff *skb, struct genl_info *info)
{
	return bm_nl_port_change(info, true);
}

int bm_nl_port_detach(struct sk_buff *skb, struct genl_info *info)
{
	return bm_nl_port_change(info, false);
}

/* PORT_SET: the hardware stamping userspace switched on (SPEC PLAT-TS). */
int bm_nl_port_set(struct sk_buff *skb, struct genl_info *info)
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

int bm_nl_dev_get(struct sk_buff *skb, struct genl_info *info)
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

int bm_nl_port_dump(struct sk_buff *skb, struct netlink_callback *cb)
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

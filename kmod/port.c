// SPDX-License-Identifier: GPL-2.0
/*
 * Ports: net devices attached as tester ports.  Attaching installs the
 * rx_handler that consumes bmgen test frames; a device that disappears ends
 * a running trial with -ENODEV and is detached (netdev.c), so nothing keeps
 * a reference to it (DESIGN.md, ports).
 */
#include <linux/ethtool.h>
#include <linux/if_arp.h>
#include <linux/net_tstamp.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <linux/version.h>
#include <net/net_namespace.h>

#include "bmgen.h"

/*
 * Hardware timestamp capabilities of dev (SPEC PLAT-TS REQ-TS-3) and its
 * PHC's index in *phc (-1: none).
 */
static u32 bm_port_ts_caps(struct net_device *dev, int *phc)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 11, 0)
	/* 6.11 gave the driver op a kernel-only struct */
	struct kernel_ethtool_ts_info info = { .cmd = ETHTOOL_GET_TS_INFO };
#else
	struct ethtool_ts_info info = { .cmd = ETHTOOL_GET_TS_INFO };
#endif
	const struct ethtool_ops *ops = dev->ethtool_ops;
	u32 caps = 0;

	*phc = -1;
	if (!ops || !ops->get_ts_info || ops->get_ts_info(dev, &info))
		return 0;
	*phc = info.phc_index;
	if (info.so_timestamping & SOF_TIMESTAMPING_RX_HARDWARE)
		caps |= BMGEN_PORT_F_HW_TS_RX;
	if (info.so_timestamping & SOF_TIMESTAMPING_TX_HARDWARE)
		caps |= BMGEN_PORT_F_HW_TS_TX;
	return caps;
}

/* The attached port of ifindex in net, or NULL.  Needs bm_cfg_lock. */
struct bm_port *bm_port_find(struct net *net, int ifindex)
{
	struct bm_port *p;

	list_for_each_entry(p, &bm_ports, node)
		if (p->ifindex == ifindex && net_eq(p->net, net))
			return p;
	return NULL;
}

unsigned int bm_port_count(const struct net *net)
{
	struct bm_port *p;
	unsigned int n = 0;

	list_for_each_entry(p, &bm_ports, node)
		n += net_eq(p->net, net);
	return n;
}

static bool bm_link_ok(const struct net_device *dev)
{
	return netif_running(dev) && netif_carrier_ok(dev);
}

/* Attach dev as a port.  Needs RTNL and bm_cfg_lock. */
int bm_port_attach(struct net *net, struct net_device *dev,
		   struct netlink_ext_ack *extack)
{
	struct bm_port *p;
	int ret;

	ASSERT_RTNL();
	if (bm_port_find(net, dev->ifindex)) {
		NL_SET_ERR_MSG(extack, "port is already attached");
		return -EEXIST;
	}
	if (dev->type != ARPHRD_ETHER) {
		NL_SET_ERR_MSG(extack, "port is not an Ethernet device");
		return -EOPNOTSUPP;
	}
	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	p->dev = dev;
	p->net = net;
	p->ifindex = dev->ifindex;
	p->ts_caps = bm_port_ts_caps(dev, &p->phc_index);
	spin_lock_init(&p->ts_lock);
	p->link_up = bm_link_ok(dev);
	ret = netdev_rx_handler_register(dev, bm_rx_handler, p);
	if (ret) {
		NL_SET_ERR_MSG(extack,
			       "device already has an rx handler (bridge or bond port?)");
		kfree(p);
		return ret;
	}
	/*
	 * A tester's port takes every frame, as a NIC filtering on its own
	 * MAC would not: RFC 2544 §12's random MAC destinations (SPEC
	 * R2544-ADDR), and a DUT's flooding, counted as misdirected.
	 */
	ret = dev_set_promiscuity(dev, 1);
	if (ret) {
		NL_SET_ERR_MSG(extack, "cannot make the port promiscuous");
		netdev_rx_handler_unregister(dev);
		kfree(p);
		return ret;
	}
	netdev_hold(dev, &p->dev_tracker, GFP_KERNEL);
	list_add_tail(&p->node, &bm_ports);
	bm_cfg_changed();
	return 0;
}

void bm_port_release(struct bm_port *p)
{
	int i;

	ASSERT_RTNL();
	/* Streams keep their statistics but lose the port. */
	for (i = 1; i < BMGEN_MAX_STREAMS; i++) {
		struct bm_stream *s = rcu_dereference_protected(bm_streams[i],
					lockdep_is_held(&bm_cfg_lock));

		if (!s)
			continue;
		if (s->tx_port == p)
			s->tx_port = NULL;
		if (s->rx_port == p)
			s->rx_port = NULL;
	}
	netdev_rx_handler_unregister(p->dev);
	dev_set_promiscuity(p->dev, -1);
	bm_hwts_port_release(p);
	list_del(&p->node);
	bm_cfg_changed();
	/* unregister waits for an RCU grace period: no reader sees p now */
	netdev_put(p->dev, &p->dev_tracker);
	kfree(p);
}

/* Does a stream of the current (or last) trial use p? */
static bool bm_port_streams_in_trial(struct bm_port *p)
{
	int i;

	for (i = 1; i < BMGEN_MAX_STREAMS; i++) {
		struct bm_stream *s = rcu_dereference_protected(bm_streams[i],
					lockdep_is_held(&bm_cfg_lock));

		if (s && s->in_trial && (s->tx_port == p || s->rx_port == p))
			return true;
	}
	return false;
}

/* Does a stream of the armed or running trial send from p? */
static bool bm_port_sends_in_trial(struct bm_port *p)
{
	int i;

	if (!bm_trial_busy())
		return false;
	for (i = 1; i < BMGEN_MAX_STREAMS; i++) {
		struct bm_stream *s = rcu_dereference_protected(bm_streams[i],
					lockdep_is_held(&bm_cfg_lock));

		if (s && s->in_trial && s->tx_port == p)
			return true;
	}
	return false;
}

/* Does a stream of the armed or running trial use p? */
static bool bm_port_in_trial(struct bm_port *p)
{
	return bm_trial_busy() && bm_port_streams_in_trial(p);
}

/* Note a link loss of trial port p.  Needs bm_cfg_lock. */
static void bm_trial_link_down(struct bm_port *p)
{
	if (!bm_trial.link_downs++)
		bm_trial.link_down_ifindex = p->ifindex;
	pr_info("bmgen: port %s has no link in trial %u\n", p->dev->name,
		bm_trial.id);
}

void bm_ports_link_at_start(void)
{
	struct bm_port *p;

	list_for_each_entry(p, &bm_ports, node) {
		bm_hwts_port_reset(p);
		p->link_up = bm_link_ok(p->dev);
		if (!p->link_up && bm_port_streams_in_trial(p))
			bm_trial_link_down(p);
	}
}

/* Detach port p.  Needs RTNL and bm_cfg_lock. */
int bm_port_detach(struct bm_port *p, struct netlink_ext_ack *extack)
{
	if (bm_port_in_trial(p)) {
		NL_SET_ERR_MSG(extack, "port is in use by a running trial");
		return -EBUSY;
	}
	bm_port_release(p);
	return 0;
}

/* Detach every port (module exit).  Needs RTNL and bm_cfg_lock. */
void bm_ports_detach_all(void)
{
	struct bm_port *p, *tmp;

	list_for_each_entry_safe(p, tmp, &bm_ports, node)
		bm_port_release(p);
}

/*
 * What event on p's device means for a trial: a link loss of a trial port
 * is counted, and the error a trial using p must fail with is returned (0:
 * it goes on).  Needs bm_cfg_lock.
 */
int bm_port_dev_event(struct bm_port *p, unsigned long event)
{
	struct net_device *dev = p->dev;
	bool up, counting;

	if (event == NETDEV_GOING_DOWN) {
		/* a device being unregistered is closed first: dismantle
		 * says it goes away (-ENODEV, as below)
		 */
		if (!bm_port_sends_in_trial(p))
			return 0;
		pr_info("bmgen: port %s %s during trial %u\n", dev->name,
			dev->dismantle ? "removed" : "closed", bm_trial.id);
		return dev->dismantle ? -ENODEV : -ENETDOWN;
	}
	if (event == NETDEV_UNREGISTER) {
		if (!bm_port_in_trial(p))
			return 0;
		pr_info("bmgen: port %s removed during trial %u\n", dev->name,
			bm_trial.id);
		return -ENODEV;
	}
	counting = bm_trial.state == BMGEN_TRIAL_ARMED ||
		   bm_trial.state == BMGEN_TRIAL_RUNNING ||
		   bm_trial.state == BMGEN_TRIAL_DONE;
	up = bm_link_ok(dev);
	if (p->link_up && !up && counting && bm_port_streams_in_trial(p))
		bm_trial_link_down(p);
	p->link_up = up;
	return 0;
}

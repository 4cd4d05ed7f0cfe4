// SPDX-License-Identifier: GPL-2.0
/*
 * What a port's device going down or away does to the trial: the netdevice
 * notifier.  It sits above both the ports and the trial, because a device
 * event may stop the trial (trial.c) and then detach the port (port.c).
 */
#include <linux/netdevice.h>

#include "bmgen.h"

/*
 * A port's device went away: a trial using it fails (-ENODEV).  A port a
 * trial sends from is being closed (ip link set down, or on its way out):
 * the trial fails (-ENETDOWN, -ENODEV) and its kthreads are gone before
 * the driver's ndo_stop frees its rings, which the direct and XDP paths
 * would otherwise still write to.  A port lost its link (down, or carrier
 * off: a pulled cable, a DUT port reset) while a trial used it, during the
 * trial or its drain: the trial goes on, counted in bm_trial.link_downs,
 * and userspace decides (a flap must not pass for the DUT's losses).
 */
static int bm_netdev_event(struct notifier_block *nb, unsigned long event,
			   void *ptr)
{
	struct net_device *dev = netdev_notifier_info_to_dev(ptr);
	struct bm_port *p, *tmp;
	int err;

	if (event != NETDEV_UNREGISTER && event != NETDEV_DOWN &&
	    event != NETDEV_UP && event != NETDEV_CHANGE &&
	    event != NETDEV_GOING_DOWN)
		return NOTIFY_DONE;
	mutex_lock(&bm_cfg_lock);
	list_for_each_entry_safe(p, tmp, &bm_ports, node) {
		if (p->dev != dev)
			continue;
		err = bm_port_dev_event(p, event);
		if (err)
			bm_trial_stop(err);
		if (event == NETDEV_UNREGISTER)
			bm_port_release(p);
	}
	mutex_unlock(&bm_cfg_lock);
	return NOTIFY_DONE;
}

static struct notifier_block bm_netdev_nb = {
	.notifier_call = bm_netdev_event,
};

int bm_netdev_notifier_init(void)
{
	return register_netdevice_notifier(&bm_netdev_nb);
}

void bm_netdev_notifier_exit(void)
{
	unregister_netdevice_notifier(&bm_netdev_nb);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * bmgen: a benchmark traffic generator and analyser for network devices.
 * Module entry and exit; see bmgen.h for the locking rules.
 */
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>

#include "bmgen.h"

static int __init bm_init(void)
{
	int ret;

	bm_state_init(bm_genl_trial_event);
	ret = bm_tx_init();
	if (ret)
		return ret;
	ret = bm_netdev_notifier_init();
	if (ret)
		goto err_tx;
	ret = bm_net_init();
	if (ret)
		goto err_notifier;
	ret = bm_genl_init();
	if (ret)
		goto err_net;
	/* receive stamps where the stack queues a frame (rx.c) */
	net_enable_timestamp();
	pr_info("bmgen %s loaded, %u tx kthreads\n", BMGEN_VERSION,
		bm_tx_kthreads());
	return 0;

err_net:
	bm_net_exit();
err_notifier:
	bm_netdev_notifier_exit();
err_tx:
	bm_tx_exit();
	bm_state_exit();
	return ret;
}

static void __exit bm_exit(void)
{
	/* No new requests first, then stop traffic, then drop the devices. */
	bm_genl_exit();
	net_disable_timestamp();
	mutex_lock(&bm_cfg_lock);
	bm_trial_stop(-ESHUTDOWN);
	mutex_unlock(&bm_cfg_lock);
	bm_tx_exit();
	bm_state_exit();
	bm_net_exit();
	bm_netdev_notifier_exit();
	mutex_lock(&bm_cfg_lock);
	bm_streams_del_net(NULL);
	bm_ports_detach_all();
	mutex_unlock(&bm_cfg_lock);
	rcu_barrier();
	pr_info("bmgen unloaded\n");
}

module_init(bm_init);
module_exit(bm_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("bmgen benchmark traffic generator and analyser");
MODULE_VERSION(BMGEN_VERSION);

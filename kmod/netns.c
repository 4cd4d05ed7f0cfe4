// SPDX-License-Identifier: GPL-2.0
/*
 * The namespace model (Documentation/abi.md, "Network namespaces"): ports,
 * streams and the trial belong to one network namespace each.  Nothing
 * holds a reference to a namespace, so that a namespace dies when its last
 * user goes (a trial must not keep it alive, unreachable and sending);
 * when it does, its trial ends and its streams go, before its devices, and
 * with them its ports, are unregistered.
 */
#include <net/net_namespace.h>

#include "bmgen.h"

/* pre_exit: the namespace is unreachable, its devices still exist */
static void bm_net_pre_exit(struct net *net)
{
	mutex_lock(&bm_cfg_lock);
	if (bm_trial.net && net_eq(bm_trial.net, net)) {
		if (bm_trial_busy()) {
			pr_info("bmgen: trial %u stopped: its network namespace went away\n",
				bm_trial.id);
			bm_trial_stop(-ENODEV);
		}
		/* no event into a namespace that has no listeners left */
		bm_trial.net = NULL;
	}
	/* a busy trial is another namespace's: it does not send these */
	bm_streams_del_net(net);
	mutex_unlock(&bm_cfg_lock);
}

static struct pernet_operations bm_net_ops = {
	.pre_exit = bm_net_pre_exit,
};

int bm_net_init(void)
{
	return register_pernet_subsys(&bm_net_ops);
}

void bm_net_exit(void)
{
	unregister_pernet_subsys(&bm_net_ops);
}

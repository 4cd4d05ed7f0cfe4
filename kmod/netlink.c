// SPDX-License-Identifier: GPL-2.0
/*
 * The operations of the generic netlink family "bmgen"
 * (include/uapi/linux/bmgen.h), one table, and its registration.  Every
 * operation has its own strict policy, so an attribute that does not belong
 * to a command is rejected by the core with an extack message; every
 * change needs CAP_NET_ADMIN (GENL_ADMIN_PERM).  bm_req_check()
 * (netlink_family.c) adds what the core leaves to the family
 * (Documentation/abi.md, "Requests"), and every request sees only its own
 * network namespace's objects.
 */
#include <net/genetlink.h>

#include "bmgen.h"
#include "netlink_int.h"

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

int bm_genl_init(void)
{
	int ret;

	ret = bm_nl_trial_owner_init();
	if (ret)
		return ret;
	ret = bm_genl_family_register(bm_ops, ARRAY_SIZE(bm_ops));
	if (ret)
		bm_nl_trial_owner_exit();
	return ret;
}

void bm_genl_exit(void)
{
	bm_genl_family_unregister();
	bm_nl_trial_owner_exit();
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the netlink files share: the family's helpers (netlink_family.c),
 * and each object's policies and handlers for netlink.c's table of
 * operations.  No other file of the module includes it.
 */
#ifndef BMGEN_NETLINK_INT_H
#define BMGEN_NETLINK_INT_H

#include <linux/version.h>
#include <net/genetlink.h>

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

#define BM_POLICY_VERSION \
	[BMGEN_A_VERSION] = NLA_POLICY_RANGE(NLA_U32, BMGEN_GENL_VERSION, \
					     BMGEN_GENL_VERSION)

/* Longest a trial may wait for its epoch, and the longest burst gap or
 * stream start offset: an hour (a typo must not arm a trial for a year).
 */
#define BM_MAX_DELAY_NS (3600ULL * NSEC_PER_SEC)
/* 100 Mfps: above any port this module can drive */
#define BM_MAX_RATE_UFPS (100000000ULL * 1000000ULL)
/* a line's back to back (measured, not paced): 64 B at 400 Gbit/s is 595 Mfps */
#define BM_MAX_DUE_UFPS (1000000000ULL * 1000000ULL)

/* netlink_family.c: the family and what every request gets */
extern const struct nla_policy bm_status_policy[BMGEN_A_MAX + 1];
/* Register the family with netlink.c's operations; 0 or -errno. */
int bm_genl_family_register(const struct genl_ops *ops, unsigned int n_ops);
void bm_genl_family_unregister(void);
/* A dump's request checks, in its first part.  Needs bm_cfg_lock. */
int bm_dump_begin(struct netlink_callback *cb);
/* The header of one dump message, marked if the dump spans a change. */
void *bm_dump_put(struct sk_buff *skb, struct netlink_callback *cb, u8 cmd);
/* The header of the reply to info. */
void *bm_reply_put(struct sk_buff *skb, struct genl_info *info, u8 cmd);
/* STATUS_GET's attributes as seen from net.  Needs bm_cfg_lock. */
int bm_status_fill(struct sk_buff *skb, const struct net *net);

/* netlink_port.c */
extern const struct nla_policy bm_port_policy[BMGEN_A_MAX + 1];
extern const struct nla_policy bm_port_set_policy[BMGEN_A_MAX + 1];
int bm_nl_port_attach(struct sk_buff *skb, struct genl_info *info);
int bm_nl_port_detach(struct sk_buff *skb, struct genl_info *info);
int bm_nl_port_set(struct sk_buff *skb, struct genl_info *info);
int bm_nl_dev_get(struct sk_buff *skb, struct genl_info *info);
int bm_nl_port_dump(struct sk_buff *skb, struct netlink_callback *cb);

/* netlink_stream.c */
extern const struct nla_policy bm_stream_policy[BMGEN_A_MAX + 1];
extern const struct nla_policy bm_stream_del_policy[BMGEN_A_MAX + 1];
int bm_nl_stream_add(struct sk_buff *skb, struct genl_info *info);
int bm_nl_stream_del(struct sk_buff *skb, struct genl_info *info);
int bm_nl_stream_dump(struct sk_buff *skb, struct netlink_callback *cb);

/* netlink_trial.c */
extern const struct nla_policy bm_trial_policy[BMGEN_A_MAX + 1];
int bm_nl_status_get(struct sk_buff *skb, struct genl_info *info);
int bm_nl_trial_start(struct sk_buff *skb, struct genl_info *info);
int bm_nl_trial_stop(struct sk_buff *skb, struct genl_info *info);
int bm_nl_rx_close(struct sk_buff *skb, struct genl_info *info);
/* An owned trial stops when its owner's socket closes. */
int bm_nl_trial_owner_init(void);
void bm_nl_trial_owner_exit(void);

/* netlink_stats.c */
extern const struct nla_policy bm_log_policy[BMGEN_A_MAX + 1];
int bm_nl_stats_dump(struct sk_buff *skb, struct netlink_callback *cb);
int bm_nl_log_dump(struct sk_buff *skb, struct netlink_callback *cb);

#endif /* BMGEN_NETLINK_INT_H */

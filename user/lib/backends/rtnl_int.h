/* SPDX-License-Identifier: GPL-2.0 */
/* The rtnetlink socket the backends' libnl-route users share (router.c,
 * tcp_domain.c). */
#ifndef BM_RTNL_INT_H
#define BM_RTNL_INT_H

#include <netlink/netlink.h>

#include "bm_trial.h"

/* A libnl socket connected to NETLINK_ROUTE, or NULL with err set. */
struct nl_sock *bm_rtnl_sock(struct bm_error *err);

#endif /* BM_RTNL_INT_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * Routing domains for the TCP engine (bm_tcp_engine.h): a VRF per tester
 * port, made with libnl-3's route library, which models links, VRFs and
 * enslaving directly (rtnl_link_vrf_*, rtnl_link_enslave_ifindex), so this
 * file holds the policy and no message layout.
 */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include <netlink/netlink.h>
#include <netlink/route/addr.h>
#include <netlink/route/link.h>
#include <netlink/route/link/vrf.h>
#include <netlink/route/route.h>

#include "bm_router.h"
#include "bm_tcp_engine.h"
#include "rtnl_int.h"
#include "tcp_int.h"

void bm_tcp_port_ip4(unsigned int i, uint8_t ip4[4])
{
	ip4[0] = 198;
	ip4[1] = 18;
	ip4[2] = 0;
	ip4[3] = (uint8_t)(i % 254 + 1);
}

/* Set IFF_UP on link ifindex; 0 or a libnl error. */
static int link_up(struct nl_sock *sk, int ifindex)
{
	struct rtnl_link *cur = NULL, *chg = rtnl_link_alloc();
	int ret = -NLE_NOMEM;

	if (chg && !(ret = rtnl_link_get_kernel(sk, ifindex, NULL, &cur))) {
		rtnl_link_set_flags(chg, IFF_UP);
		ret = rtnl_link_change(sk, cur, chg, 0);
	}
	rtnl_link_put(cur);
	rtnl_link_put(chg);
	return ret;
}

/* The VRF d->vrf, made when missing (a crashed bmd's is taken over, the
 * name being the engine's); 0 or -errno with err set. */
static int vrf_make(struct nl_sock *sk, struct tcp_domain *d,
		    struct bm_error *err)
{
	struct rtnl_link *l = NULL;
	uint32_t table = 0;
	int ret;

	if (!rtnl_link_get_kernel(sk, 0, d->vrf, &l)) {
		if (!rtnl_link_is_vrf(l) ||
		    rtnl_link_vrf_get_tableid(l, &table) || table != d->table) {
			rtnl_link_put(l);
			return bm_errorf(err, "%s: a link named %s is there and "
					 "is not the engine's VRF (table %u)",
					 d->port, d->vrf, d->table), -EEXIST;
		}
		rtnl_link_put(l);
	} else {
		l = rtnl_link_vrf_alloc();
		if (!l)
			return bm_errorf(err, "out of memory"), -ENOMEM;
		rtnl_link_set_name(l, d->vrf);
		rtnl_link_vrf_set_tableid(l, d->table);
		ret = rtnl_link_add(sk, l, NLM_F_CREATE | NLM_F_EXCL);
		rtnl_link_put(l);
		if (ret < 0)
			return bm_errorf(err, "%s: cannot make VRF %s: %s%s",
					 d->port, d->vrf, nl_geterror(ret),
					 ret == -NLE_OPNOTSUPP ?
					 " (no vrf module: modprobe vrf)" : ""),
			       -EOPNOTSUPP;
	}
	d->made_vrf = true;
	d->vrf_ifindex = (int)if_nametoindex(d->vrf);
	if (!d->vrf_ifindex)
		return bm_errorf(err, "%s: VRF %s vanished", d->port, d->vrf),
		       -ENODEV;
	ret = link_up(sk, d->vrf_ifindex);
	if (ret < 0)
		return bm_errorf(err, "%s: cannot set %s up: %s", d->port,
				 d->vrf, nl_geterror(ret)), -EIO;
	return 0;
}

/* Add or delete d->ip4/24 on the port; a libnl error. */
static int addr_op(struct nl_sock *sk, const struct tcp_domain *d, bool add)
{
	struct rtnl_addr *a = rtnl_addr_alloc();
	struct nl_addr *local = nl_addr_build(AF_INET, d->ip4, 4);
	int ret = -NLE_NOMEM;

	if (a && local) {
		nl_addr_set_prefixlen(local, 24);
		rtnl_addr_set_ifindex(a, d->ifindex);
		rtnl_addr_set_local(a, local);
		rtnl_addr_set_prefixlen(a, 24);
		ret = add ? rtnl_addr_add(sk, a, 0) : rtnl_addr_delete(sk, a, 0);
	}
	nl_addr_put(local);
	rtnl_addr_put(a);
	return ret;
}

/* Router DUTs: 0.0.0.0/0 via the DUT's address on the port, in the
 * port's VRF table (the release from the VRF flushes it). */
static int route_default(struct nl_sock *sk, const struct tcp_domain *d)
{
	static const uint8_t any[4];
	struct rtnl_route *r = rtnl_route_alloc();
	struct rtnl_nexthop *nh = rtnl_route_nh_alloc();
	struct nl_addr *dst = nl_addr_build(AF_INET, any, 4);
	struct nl_addr *gw = nl_addr_build(AF_INET, d->gw4, 4);
	int ret = -NLE_NOMEM;

	if (r && nh && dst && gw) {
		nl_addr_set_prefixlen(dst, 0);
		rtnl_route_set_family(r, AF_INET);
		rtnl_route_set_table(r, d->table);
		rtnl_route_set_dst(r, dst);
		rtnl_route_nh_set_gateway(nh, gw);
		rtnl_route_nh_set_ifindex(nh, d->ifindex);
		rtnl_route_add_nexthop(r, nh);
		nh = NULL;	/* the route's now */
		ret = rtnl_route_add(sk, r, NLM_F_CREATE | NLM_F_REPLACE);
	}
	if (nh)
		rtnl_route_nh_free(nh);
	nl_addr_put(dst);
	nl_addr_put(gw);
	rtnl_route_put(r);
	return ret;
}

int tcp_domain_setup(struct tcp_domain *d, const char *port, unsigned int i,
		     bool router, struct bm_error *err)
{
	struct rtnl_link *l = NULL;
	struct nl_sock *sk;
	char master[IF_NAMESIZE] = "?";
	int ret;

	memset(d, 0, sizeof(*d));
	snprintf(d->port, sizeof(d->port), "%s", port);
	d->ifindex = (int)if_nametoindex(port);
	if (!d->ifindex)
		return bm_errorf(err, "no such port '%s'", port), -ENODEV;
	snprintf(d->vrf, sizeof(d->vrf), "bmv%d", d->ifindex);
	d->table = BM_TCP_VRF_TABLE + (uint32_t)d->ifindex;
	d->router = router;
	if (router) {
		struct bm_router_port rp;

		bm_router_port_default(&rp, port, i);
		memcpy(d->ip4, rp.ip4, 4);
		memcpy(d->gw4, rp.gw4, 4);
	} else {
		bm_tcp_port_ip4(i, d->ip4);
	}
	sk = bm_rtnl_sock(err);
	if (!sk)
		return -ENOMEM;
	ret = rtnl_link_get_kernel(sk, d->ifindex, NULL, &l);
	if (ret < 0) {
		nl_socket_free(sk);
		return bm_errorf(err, "%s: %s", port, nl_geterror(ret)), -EIO;
	}
	d->old_master = rtnl_link_get_master(l);
	rtnl_link_put(l);
	if (d->old_master)
		if_indextoname((unsigned int)d->old_master, master);
	if (d->old_master && strcmp(master, d->vrf)) {
		nl_socket_free(sk);
		return bm_errorf(err, "%s is a port of %s; the TCP engine needs "
				 "it free to give it a VRF of its own", port,
				 master), -EBUSY;
	}
	ret = vrf_make(sk, d, err);
	if (!ret && !d->old_master) {
		ret = rtnl_link_enslave_ifindex(sk, d->vrf_ifindex, d->ifindex);
		if (ret < 0)
			ret = (bm_errorf(err, "%s: cannot put it into %s: %s",
					port, d->vrf, nl_geterror(ret)), -EIO);
		else
			d->enslaved = true;
	}
	if (!ret) {
		/* the enslaving cycled the port: it must come up again */
		ret = link_up(sk, d->ifindex);
		if (ret < 0)
			ret = (bm_errorf(err, "%s: cannot set it up: %s", port,
					nl_geterror(ret)), -EIO);
	}
	if (!ret) {
		ret = addr_op(sk, d, true);
		if (ret == -NLE_EXIST) {
			ret = 0;
		} else if (ret < 0) {
			ret = (bm_errorf(err, "%s: cannot add %u.%u.%u.%u/24: %s",
					port, d->ip4[0], d->ip4[1], d->ip4[2],
					d->ip4[3], nl_geterror(ret)), -EIO);
		} else {
			d->added_addr = true;
		}
	}
	if (!ret && router) {
		ret = route_default(sk, d);
		if (ret < 0)
			ret = (bm_errorf(err, "%s: cannot route via the DUT "
					"%u.%u.%u.%u in %s: %s", port, d->gw4[0],
					d->gw4[1], d->gw4[2], d->gw4[3], d->vrf,
					nl_geterror(ret)), -EIO);
	}
	nl_socket_free(sk);
	if (ret)
		tcp_domain_teardown(d);
	return ret;
}

void tcp_domain_teardown(struct tcp_domain *d)
{
	struct bm_error err;
	struct nl_sock *sk = bm_rtnl_sock(&err);
	struct rtnl_link *l;

	if (!sk)
		return;
	if (d->added_addr)
		addr_op(sk, d, false);
	if (d->enslaved) {
		rtnl_link_release_ifindex(sk, d->ifindex);
		link_up(sk, d->ifindex);
	}
	if (d->made_vrf) {
		l = rtnl_link_alloc();
		if (l) {
			rtnl_link_set_name(l, d->vrf);
			rtnl_link_delete(sk, l);
			rtnl_link_put(l);
		}
	}
	d->added_addr = d->enslaved = d->made_vrf = false;
	nl_socket_free(sk);
}

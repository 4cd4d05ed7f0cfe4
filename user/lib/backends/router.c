// SPDX-License-Identifier: GPL-2.0
/*
 * Router DUTs: addresses and neighbours with libnl-3's route library
 * (bm_router.h).  Why libnl and not libmnl here: addresses and neighbour
 * caches are what libnl-route models directly (rtnl_addr, rtnl_neigh and
 * their caches), so this file holds the policy, not the message layout.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <netlink/netlink.h>
#include <netlink/route/addr.h>
#include <netlink/route/neighbour.h>

#include "bm_clock.h"
#include "bm_router.h"
#include "bm_traffic.h"
#include "rtnl_int.h"

void bm_router_port_default(struct bm_router_port *p, const char *ifname,
			    unsigned int i)
{
	memset(p, 0, sizeof(*p));
	snprintf(p->ifname, sizeof(p->ifname), "%s", ifname);
	bm_port_default_ip4(i, p->ip4);
	p->prefix = 24;
	memcpy(p->gw4, p->ip4, 3);
	p->gw4[3] = 1;
}

struct nl_sock *bm_rtnl_sock(struct bm_error *err)
{
	struct nl_sock *sk = nl_socket_alloc();
	int ret;

	if (!sk) {
		bm_errorf(err, "out of memory");
		return NULL;
	}
	ret = nl_connect(sk, NETLINK_ROUTE);
	if (ret < 0) {
		bm_errorf(err, "rtnetlink: %s", nl_geterror(ret));
		nl_socket_free(sk);
		return NULL;
	}
	return sk;
}

/* Add ip4/prefix to the port (one already there is fine); 0 or -errno. */
static int add_addr(struct nl_sock *sk, const struct bm_router_port *p,
		    unsigned int ifindex, const uint8_t ip4[4],
		    struct bm_error *err)
{
	struct rtnl_addr *a = rtnl_addr_alloc();
	struct nl_addr *local = nl_addr_build(AF_INET, ip4, 4);
	int ret;

	if (!a || !local) {
		bm_errorf(err, "out of memory");
		ret = -ENOMEM;
		goto out;
	}
	nl_addr_set_prefixlen(local, p->prefix);
	rtnl_addr_set_ifindex(a, (int)ifindex);
	rtnl_addr_set_local(a, local);
	rtnl_addr_set_prefixlen(a, p->prefix);
	ret = rtnl_addr_add(sk, a, 0);
	if (ret == -NLE_EXIST)
		ret = 0;
	if (ret < 0) {
		bm_errorf(err, "%s: cannot add %u.%u.%u.%u/%u: %s", p->ifname,
			  ip4[0], ip4[1], ip4[2], ip4[3], p->prefix,
			  nl_geterror(ret));
		ret = -EIO;
	}
out:
	nl_addr_put(local);
	rtnl_addr_put(a);
	return ret;
}

int bm_router_port_setup(const struct bm_router_port *p, struct bm_error *err)
{
	unsigned int ifindex = if_nametoindex(p->ifname);
	uint8_t phantom[4];
	struct nl_sock *sk;
	int ret;

	if (!ifindex)
		return bm_errorf(err, "no such port '%s'", p->ifname), -ENODEV;
	sk = bm_rtnl_sock(err);
	if (!sk)
		return -ENOMEM;
	ret = add_addr(sk, p, ifindex, p->ip4, err);
	/* the phantom router .10 of the port's network, for streams to
	 * networks beyond it (RFC 2544 C.2.2, §12; REQ-TRIAL-4): the DUT
	 * routes them via .10 and the tester's kernel answers its ARP */
	memcpy(phantom, p->ip4, 4);
	phantom[3] = BM_ROUTER_PHANTOM;
	if (!ret && p->prefix <= 24 && p->ip4[3] != BM_ROUTER_PHANTOM)
		ret = add_addr(sk, p, ifindex, phantom, err);
	nl_socket_free(sk);
	return ret;
}

/* Make the kernel resolve gw on the port: a datagram to its discard port. */
static void poke(const struct bm_router_port *p)
{
	struct sockaddr_in to = { .sin_family = AF_INET, .sin_port = htons(9) };
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return;
	memcpy(&to.sin_addr, p->gw4, 4);
	setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, p->ifname,
		   (socklen_t)strlen(p->ifname));
	sendto(fd, "bmgen", 5, MSG_DONTWAIT, (struct sockaddr *)&to, sizeof(to));
	close(fd);
}

/* The gateway's MAC from a fresh neighbour cache; 0, or -EAGAIN. */
static int lookup(struct nl_sock *sk, const struct bm_router_port *p,
		  int ifindex, uint8_t mac[6])
{
	struct nl_cache *cache = NULL;
	struct nl_addr *dst = nl_addr_build(AF_INET, p->gw4, 4);
	struct rtnl_neigh *n;
	struct nl_addr *ll;
	int ret = -EAGAIN;

	if (!dst || rtnl_neigh_alloc_cache(sk, &cache) < 0) {
		nl_addr_put(dst);
		return -ENOMEM;
	}
	n = rtnl_neigh_get(cache, ifindex, dst);
	if (n) {
		ll = rtnl_neigh_get_lladdr(n);
		if ((rtnl_neigh_get_state(n) & (NUD_REACHABLE | NUD_STALE |
						NUD_DELAY | NUD_PROBE |
						NUD_PERMANENT | NUD_NOARP)) &&
		    ll && nl_addr_get_len(ll) == 6) {
			memcpy(mac, nl_addr_get_binary_addr(ll), 6);
			ret = 0;
		}
		rtnl_neigh_put(n);
	}
	nl_cache_free(cache);
	nl_addr_put(dst);
	return ret;
}

int bm_router_resolve(struct bm_router_port *p, double timeout_s,
		      struct bm_error *err)
{
	int ifindex = (int)if_nametoindex(p->ifname), ret = -EAGAIN;
	double t0 = bm_mono_s(), last_poke = -1;
	struct nl_sock *sk;

	if (!ifindex)
		return bm_errorf(err, "no such port '%s'", p->ifname), -ENODEV;
	sk = bm_rtnl_sock(err);
	if (!sk)
		return -ENOMEM;
	/* refresh first: a stale entry may name a DUT that changed */
	for (;;) {
		double now = bm_mono_s();

		if (last_poke < 0 || now - last_poke >= 0.5) {
			poke(p);
			last_poke = now;
			usleep(20000);
		}
		ret = lookup(sk, p, ifindex, p->gw_mac);
		if (ret != -EAGAIN || bm_mono_s() - t0 > timeout_s)
			break;
		usleep(20000);
	}
	nl_socket_free(sk);
	if (ret == -EAGAIN)
		return bm_errorf(err, "%s: the DUT did not answer ARP for "
				 "%u.%u.%u.%u within %.1f s", p->ifname,
				 p->gw4[0], p->gw4[1], p->gw4[2], p->gw4[3],
				 timeout_s), -EHOSTUNREACH;
	if (ret)
		return bm_errorf(err, "out of memory"), ret;
	return 0;
}

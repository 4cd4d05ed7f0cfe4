// SPDX-License-Identifier: GPL-2.0
/*
 * Which ports bmd lets its users test on (bmd(8), ACCESS, "ports").
 *
 * bmd holds CAP_NET_ADMIN: a job makes its ports promiscuous, floods them
 * at line rate and may enslave them to a VRF.  Without a rule any member
 * of bmd's group could do that to the host's management NIC and cut off
 * every SSH session.  The rule, in bmd.conf's "ports": names and fnmatch
 * patterns the operator allows, and the word "unaddressed" for every port
 * the host itself does not use.  A port the host uses is one that is up
 * with an address outside the networks a benchmark lives in, or one
 * enslaved to a bridge, bond or VRF of somebody else's (the loopback is
 * up with 127.0.0.1: the host's).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fnmatch.h>
#include <ifaddrs.h>
#include <limits.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bm_traffic.h"
#include "daemon_int.h"

#define POLICY_WORDS_MAX	64

void bmd_port_policy_free(struct bmd_port_policy *p)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		free(p->patterns[i]);
	free(p->patterns);
	free(p->text);
	memset(p, 0, sizeof(*p));
}

int bmd_port_policy_parse(const char *spec, struct bmd_port_policy *p,
			  struct bm_error *err)
{
	const char *s = spec ? spec : BMD_DEFAULT_PORTS;
	size_t len;

	memset(p, 0, sizeof(*p));
	p->text = strdup(s);
	p->patterns = calloc(POLICY_WORDS_MAX, sizeof(*p->patterns));
	if (!p->text || !p->patterns)
		goto nomem;
	while (*s) {
		len = strcspn(s, " \t");
		if (!len) {
			s++;
			continue;
		}
		if (len == 11 && !strncmp(s, "unaddressed", len)) {
			p->unaddressed = true;
		} else {
			/* A name bmd could ever be given, or a pattern of
			 * such names: no '/' (sysfs paths), no ':' (an
			 * address label, never a port) */
			if (len >= IFNAMSIZ * 2 || memchr(s, '/', len) ||
			    memchr(s, ':', len)) {
				bmd_port_policy_free(p);
				return bm_errorf(err, "ports: '%.*s' is neither unaddressed nor a port name or pattern",
						 (int)(len > 40 ? 40 : len), s);
			}
			if (p->n == POLICY_WORDS_MAX) {
				bmd_port_policy_free(p);
				return bm_errorf(err, "ports: more than %d names",
						 POLICY_WORDS_MAX);
			}
			p->patterns[p->n] = strndup(s, len);
			if (!p->patterns[p->n++])
				goto nomem;
		}
		s += len;
	}
	if (!p->unaddressed && !p->n) {
		bmd_port_policy_free(p);
		return bm_errorf(err, "ports: names no port");
	}
	return 0;
nomem:
	bmd_port_policy_free(p);
	return bm_errorf(err, "out of memory");
}

/*
 * An address of a network a benchmark lives in, which a tester port may
 * carry without being the host's own: IPv4 198.18.0.0/15 (RFC 2544
 * Appendix C.2.2, RFC 6890; bmd's router and TCP procedures put theirs
 * there), IPv6 2001:2::/48 (RFC 5180 §5) and IPv6 link-local, which every
 * IPv6 port that is up has.
 */
static bool benchmark_addr(const struct sockaddr *sa)
{
	if (sa->sa_family == AF_INET) {
		const uint8_t *a = (const uint8_t *)
			&((const struct sockaddr_in *)sa)->sin_addr;

		return bm_addr4_benchmark(a);
	}
	if (sa->sa_family == AF_INET6) {
		const uint8_t *a = ((const struct sockaddr_in6 *)sa)
			->sin6_addr.s6_addr;

		if (a[0] == 0xfe && (a[1] & 0xc0) == 0x80)
			return true;
		return bm_addr6_benchmark(a);
	}
	return true;	/* no IP address: AF_PACKET's entry */
}

/* Is ifa_name (an IPv4 label "eth0:1" included) port's? */
static bool addr_of(const char *ifa_name, const char *port)
{
	size_t n = strlen(port);

	return !strncmp(ifa_name, port, n) &&
	       (!ifa_name[n] || ifa_name[n] == ':');
}

/* The first address of port outside the benchmark networks into buf
 * (size >= INET6_ADDRSTRLEN), "" when none. */
static void host_addr(const char *port, char *buf, size_t size)
{
	struct ifaddrs *all, *a;

	buf[0] = '\0';
	if (getifaddrs(&all))
		return;
	for (a = all; a && !buf[0]; a = a->ifa_next) {
		if (!a->ifa_addr || !a->ifa_name || !addr_of(a->ifa_name, port) ||
		    benchmark_addr(a->ifa_addr))
			continue;
		inet_ntop(a->ifa_addr->sa_family, a->ifa_addr->sa_family ==
			  AF_INET ? (const void *)&((struct sockaddr_in *)
						    a->ifa_addr)->sin_addr :
			  (const void *)&((struct sockaddr_in6 *)
					  a->ifa_addr)->sin6_addr, buf,
			  (socklen_t)size);
	}
	freeifaddrs(all);
}

int bmd_port_use_read(const char *sysfs_net, const char *port,
		      struct bmd_port_use *u)
{
	char path[PATH_MAX], link[PATH_MAX], *base;
	unsigned long flags;
	ssize_t n;
	FILE *f;

	memset(u, 0, sizeof(*u));
	if (!sysfs_net)
		sysfs_net = "/sys/class/net";
	snprintf(path, sizeof(path), "%s/%s/flags", sysfs_net, port);
	f = fopen(path, "re");
	if (f) {
		if (fscanf(f, "%lx", &flags) == 1) {
			u->up = flags & IFF_UP;
		}
		fclose(f);
	}
	snprintf(path, sizeof(path), "%s/%s/master", sysfs_net, port);
	n = readlink(path, link, sizeof(link) - 1);
	if (n > 0) {
		link[n] = '\0';
		base = strrchr(link, '/');
		snprintf(u->master, sizeof(u->master), "%.*s", IFNAMSIZ - 1,
			 base ? base + 1 : link);
	}
	host_addr(port, u->addr, sizeof(u->addr));
	return 0;
}

/* Is master one of bmd's own TCP VRFs ("bmv" and the port's ifindex,
 * user/lib/backends/tcp_domain.c), which a crashed bmd may leave? */
static bool own_vrf(const char *master)
{
	size_t n = strspn(master + 3, "0123456789");

	return !strncmp(master, "bmv", 3) && n && !master[3 + n];
}

bool bmd_port_permitted(const struct bmd_port_policy *p, const char *port,
			const struct bmd_port_use *u, char *why, size_t size)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		if (!fnmatch(p->patterns[i], port, 0))
			return true;
	if (!p->unaddressed) {
		snprintf(why, size, "not named");
		return false;
	}
	if (u->master[0] && !own_vrf(u->master)) {
		snprintf(why, size, "enslaved to %s, the host's own; name it to allow it",
			 u->master);
		return false;
	}
	if (u->up && u->addr[0]) {
		snprintf(why, size, "up with address %s, the host's own; name it to allow it",
			 u->addr);
		return false;
	}
	return true;
}

int bmd_port_check(const struct bmd *d, const char *port, struct bm_error *err)
{
	struct bmd_port_use u;
	char why[160];

	bmd_port_use_read(d->sysfs_net, port, &u);
	if (bmd_port_permitted(&d->port_policy, port, &u, why, sizeof(why)))
		return 0;
	return bm_errorf(err, "port %s: refused: %s (ports = %.80s in %s)",
			 port, why, d->port_policy.text,
			 d->config_path ? d->config_path : BMD_DEFAULT_CONF);
}

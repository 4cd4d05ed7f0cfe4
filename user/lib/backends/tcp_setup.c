// SPDX-License-Identifier: GPL-2.0
/*
 * A TCP engine session's connections (tcp_engine.c): every port a
 * routing domain, a listener on each server port, every client bound
 * and connected with the spec's socket options, each accepted end
 * matched to its connection, then the epoll set the thread waits on;
 * and all of it closed again.  Apart from the engine's operations
 * because it is the session's plumbing, sockets and domains, not its
 * traffic.
 */
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/tcp.h>

#include "tcp_int.h"

#define CONNECT_S	5.0

/* err and -errno for a socket option that failed: "NAME VALUE: why". */
static int opt_err(struct bm_error *err, const char *name, const char *val)
{
	int e = errno;

	bm_errorf(err, "%s %s: %s", name, val, strerror(e));
	return -e;
}

/* setsockopt of an int, the value v > 0 only; 0 or opt_err's. */
static int opt_int(int fd, int level, int opt, const char *name,
		   uint32_t v, struct bm_error *err)
{
	char val[16];
	int i = (int)v;

	if (!v || !setsockopt(fd, level, opt, &i, sizeof(i)))
		return 0;
	snprintf(val, sizeof(val), "%u", v);
	return opt_err(err, name, val);
}

/* Apply the spec's socket options to fd (before connect or listen);
 * 0, or -errno with err naming the option. */
static int sock_opts(int fd, const struct bm_tcp_spec *sp, const char *vrf,
		     struct bm_error *err)
{
	int one = 1, ret;

	if (setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, vrf,
		       (socklen_t)strlen(vrf)))
		return opt_err(err, "SO_BINDTODEVICE", vrf);
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (sp->cc[0] && setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, sp->cc,
				    (socklen_t)strlen(sp->cc)))
		return opt_err(err, "congestion control", sp->cc);
	if ((ret = opt_int(fd, SOL_SOCKET, SO_SNDBUF, "SO_SNDBUF", sp->sndbuf,
			   err)) ||
	    (ret = opt_int(fd, SOL_SOCKET, SO_RCVBUF, "SO_RCVBUF", sp->rcvbuf,
			   err)) ||
	    (ret = opt_int(fd, IPPROTO_TCP, TCP_WINDOW_CLAMP,
			   "TCP_WINDOW_CLAMP", sp->window_clamp, err)) ||
	    (ret = opt_int(fd, IPPROTO_TCP, TCP_MAXSEG, "TCP_MAXSEG", sp->mss,
			   err)))
		return ret;
	return opt_int(fd, IPPROTO_IP, IP_TOS, "IP_TOS",
		       (uint32_t)sp->dscp << 2, err);
}

static void sin_of(struct sockaddr_in *a, const uint8_t ip4[4], uint16_t port)
{
	memset(a, 0, sizeof(*a));
	a->sin_family = AF_INET;
	a->sin_port = htons(port);
	memcpy(&a->sin_addr, ip4, 4);
}

static const char *pname(const struct sess *s, unsigned int i)
{
	return s->be->port_names[i];
}

void tcp_setup_close_all(struct sess *s)
{
	unsigned int i;

	for (i = 0; i < s->spec.n_conn; i++) {
		if (s->conn[i].c.fd >= 0)
			close(s->conn[i].c.fd);
		if (s->conn[i].s.fd >= 0)
			close(s->conn[i].s.fd);
		s->conn[i].c.fd = s->conn[i].s.fd = -1;
		bm_ttp_script_free(&s->conn[i].c.script);
		bm_ttp_script_free(&s->conn[i].s.script);
	}
	for (i = 0; i < BM_BACKEND_MAX_PORTS; i++) {
		if (s->lfd[i] >= 0)
			close(s->lfd[i]);
		s->lfd[i] = -1;
	}
	if (s->epfd >= 0)
		close(s->epfd);
	if (s->evfd >= 0)
		close(s->evfd);
	s->epfd = s->evfd = -1;
	for (i = 0; i < BM_BACKEND_MAX_PORTS; i++)
		if (s->in_dom[i]) {
			tcp_domain_teardown(&s->dom[i]);
			s->in_dom[i] = false;
		}
}

/* A TCP socket of port p's domain with the spec's options, bound to the
 * port's address (any TCP port) into *fd; 0 or -errno with err set. */
static int open_bound(struct sess *s, unsigned int p, int *fd,
		      struct bm_error *err)
{
	struct sockaddr_in a;
	int ret, e;

	*fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (*fd < 0) {
		e = errno;
		return bm_errorf(err, "socket: %s", strerror(e)), -e;
	}
	ret = sock_opts(*fd, &s->spec, s->dom[p].vrf, err);
	if (ret)
		return ret;
	sin_of(&a, s->dom[p].ip4, 0);
	if (bind(*fd, (struct sockaddr *)&a, sizeof(a))) {
		e = errno;
		return bm_errorf(err, "%s: bind: %s", pname(s, p),
				 strerror(e)), -e;
	}
	return 0;
}

static int listen_on(struct sess *s, unsigned int p, struct bm_error *err)
{
	struct sockaddr_in a;
	socklen_t len = sizeof(a);
	int ret, e;

	ret = open_bound(s, p, &s->lfd[p], err);
	if (ret)
		return ret;
	if (listen(s->lfd[p], BM_TCP_MAX_CONN) ||
	    getsockname(s->lfd[p], (struct sockaddr *)&a, &len)) {
		e = errno;
		return bm_errorf(err, "%s: listen on %u.%u.%u.%u: %s",
				 pname(s, p), s->dom[p].ip4[0],
				 s->dom[p].ip4[1], s->dom[p].ip4[2],
				 s->dom[p].ip4[3], strerror(e)), -e;
	}
	s->lport[p] = ntohs(a.sin_port);
	return 0;
}

static int connect_one(struct sess *s, struct conn *c, struct bm_error *err)
{
	const struct tcp_domain *cd = &s->dom[c->spec.client];
	const struct tcp_domain *sd = &s->dom[c->spec.server];
	struct sockaddr_in a;
	socklen_t len = sizeof(a);
	int ret, e;

	ret = open_bound(s, c->spec.client, &c->c.fd, err);
	if (ret)
		return ret;
	/* a bulk application's configured rate (TM-QS-2: "the rate of
	 * each application MUST be configurable"): the kernel paces the
	 * socket, SO_MAX_PACING_RATE in bytes/s */
	if (c->spec.dscp_set &&
	    (ret = opt_int(c->c.fd, IPPROTO_IP, IP_TOS, "IP_TOS",
			   (uint32_t)c->spec.dscp << 2, err)))
		return ret;
	if (c->spec.rate_bps > 0) {
		unsigned long r = (unsigned long)(c->spec.rate_bps / 8);

		if (setsockopt(c->c.fd, SOL_SOCKET, SO_MAX_PACING_RATE, &r,
			       sizeof(r)))
			return opt_err(err, "SO_MAX_PACING_RATE", "(bulk)");
	}
	sin_of(&a, sd->ip4, s->lport[c->spec.server]);
	if (connect(c->c.fd, (struct sockaddr *)&a, sizeof(a)) &&
	    errno != EINPROGRESS) {
		e = errno;
		return bm_errorf(err, "%s -> %s: connect: %s", cd->port,
				 sd->port, strerror(e)), -e;
	}
	if (getsockname(c->c.fd, (struct sockaddr *)&a, &len)) {
		e = errno;
		return bm_errorf(err, "getsockname: %s", strerror(e)), -e;
	}
	c->cport = ntohs(a.sin_port);
	return 0;
}

/* Wait until every client is connected and every server side accepted;
 * 0, or -ETIMEDOUT naming the first connection that did not come up. */
static int establish(struct sess *s, struct bm_error *err)
{
	double t0 = bm_mono_s();
	unsigned int i, up = 0;

	while (up < s->spec.n_conn) {
		struct pollfd pfd[BM_BACKEND_MAX_PORTS];
		unsigned int n = 0, p;

		for (p = 0; p < BM_BACKEND_MAX_PORTS; p++)
			if (s->lfd[p] >= 0)
				pfd[n++] = (struct pollfd){ s->lfd[p], POLLIN, 0 };
		if (bm_mono_s() - t0 > CONNECT_S)
			break;
		poll(pfd, n, 50);
		for (p = 0; p < BM_BACKEND_MAX_PORTS; p++) {
			struct sockaddr_in a;
			socklen_t len = sizeof(a);
			int fd;

			if (s->lfd[p] < 0)
				continue;
			while ((fd = accept4(s->lfd[p], (struct sockaddr *)&a,
					     &len, SOCK_NONBLOCK |
					     SOCK_CLOEXEC)) >= 0) {
				for (i = 0; i < s->spec.n_conn; i++) {
					struct conn *c = &s->conn[i];

					if (c->spec.server == p && c->s.fd < 0 &&
					    c->cport == ntohs(a.sin_port))
						break;
				}
				if (i == s->spec.n_conn) {
					close(fd);	/* not ours */
					continue;
				}
				s->conn[i].s.fd = fd;
				up++;
				len = sizeof(a);
			}
		}
	}
	for (i = 0; i < s->spec.n_conn; i++) {
		struct conn *c = &s->conn[i];
		int e = 0;
		socklen_t len = sizeof(e);

		if (c->s.fd >= 0 && !getsockopt(c->c.fd, SOL_SOCKET, SO_ERROR,
						&e, &len) && !e)
			continue;
		return bm_errorf(err, "TCP %s (%u.%u.%u.%u) -> %s "
				 "(%u.%u.%u.%u) did not come up within %.0f s"
				 "%s%s: does the DUT forward between them?",
				 pname(s, c->spec.client),
				 s->dom[c->spec.client].ip4[0],
				 s->dom[c->spec.client].ip4[1],
				 s->dom[c->spec.client].ip4[2],
				 s->dom[c->spec.client].ip4[3],
				 pname(s, c->spec.server),
				 s->dom[c->spec.server].ip4[0],
				 s->dom[c->spec.server].ip4[1],
				 s->dom[c->spec.server].ip4[2],
				 s->dom[c->spec.server].ip4[3], CONNECT_S,
				 e ? ": " : "", e ? strerror(e) : ""),
		       -ETIMEDOUT;
	}
	return 0;
}

int tcp_setup_session(struct sess *s, struct bm_error *err)
{
	unsigned int i;
	int ret;

	for (i = 0; i < s->spec.n_conn; i++) {
		const struct bm_tcp_conn_spec *cs = &s->spec.conn[i];
		unsigned int ends[2] = { cs->client, cs->server }, k;

		if (cs->client >= s->be->n_ports ||
		    cs->server >= s->be->n_ports || cs->client == cs->server)
			return bm_errorf(err, "TCP connection %u: ports %u -> "
					 "%u of %u", i, cs->client,
					 cs->server, s->be->n_ports), -EINVAL;
		for (k = 0; k < 2; k++) {
			if (s->in_dom[ends[k]])
				continue;
			ret = tcp_domain_setup(&s->dom[ends[k]],
					       pname(s, ends[k]), ends[k],
					       s->router, err);
			if (ret)
				return ret;
			s->in_dom[ends[k]] = true;
		}
	}
	for (i = 0; i < s->spec.n_conn; i++) {
		unsigned int p = s->spec.conn[i].server;

		if (s->lfd[p] < 0 && (ret = listen_on(s, p, err)))
			return ret;
	}
	for (i = 0; i < s->spec.n_conn; i++)
		if ((ret = connect_one(s, &s->conn[i], err)))
			return ret;
	ret = establish(s, err);
	if (ret)
		return ret;
	s->epfd = epoll_create1(EPOLL_CLOEXEC);
	s->evfd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (s->epfd < 0 || s->evfd < 0)
		return opt_err(err, "epoll", "and eventfd");
	{
		struct epoll_event ev = { .events = EPOLLIN,
					  .data.fd = s->evfd };

		epoll_ctl(s->epfd, EPOLL_CTL_ADD, s->evfd, &ev);
	}
	for (i = 0; i < s->spec.n_conn; i++) {
		struct conn *c = &s->conn[i];
		struct epoll_event ev = { .events = EPOLLIN };
		struct tcp_info ti;
		int v;

		/* the server end gets the options too: a listener's are
		 * not all inherited (TCP_CONGESTION is) */
		v = (c->spec.dscp_set ? c->spec.dscp : s->spec.dscp) << 2;
		if (v)
			setsockopt(c->s.fd, IPPROTO_IP, IP_TOS, &v, sizeof(v));
		ev.data.fd = c->c.fd;
		epoll_ctl(s->epfd, EPOLL_CTL_ADD, c->c.fd, &ev);
		ev.data.fd = c->s.fd;
		epoll_ctl(s->epfd, EPOLL_CTL_ADD, c->s.fd, &ev);
		if (!tcp_info_read(c->c.fd, &ti))
			c->acked_base = ti.tcpi_bytes_acked;
		if (bm_ttp_is_script(c->spec.pattern)) {
			tcp_pump_script_load(s, c, &c->c);
			tcp_pump_script_load(s, c, &c->s);
			if (c->error[0])
				return bm_errorf(err, "%s", c->error), -EINVAL;
		}
	}
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel TCP engine (bm_tcp_engine.h, SPEC PLAT-TCP REQ-TCP-1..4).
 *
 * start() gives every port of the session a routing domain, opens a
 * listener on each server port and connects every client, all bound to
 * their ports' VRFs, then hands the sockets to one thread that runs the
 * patterns from an epoll loop: bulk writes while the socket takes data,
 * micro bursts on their clock, scripts step by step (TM-TTP), and
 * TCP_INFO sampled every second (REQ-TCP-2).  mark() and stop() talk to
 * that thread under the session's lock.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <linux/tcp.h>

#include "bm_tcp_engine.h"
#include "tcp_int.h"

#define IO_CHUNK	(256 * 1024)
#define CONNECT_S	5.0
#define BURST_POLL_S	0.001	/* TCP_INFO polling while a burst is
				 * unacknowledged (AMB-49 completion) */
/* tcpi_state values (include/net/tcp_states.h; netinet/tcp.h has them
 * too but cannot be included beside linux/tcp.h) */
#define ST_TIME_WAIT	6
#define ST_CLOSE	7
#define QUIESCE_S	5.0	/* longest wait for a connection's data to be
				 * delivered and its close handshake done */

/* One end of a connection. */
struct side {
	int fd;
	bool server;
	/* scripts */
	struct bm_ttp_script script;
	size_t step;
	uint64_t exec;
	bool sending;
	double wait_until;		/* 0: not waiting */
	uint64_t to_send;		/* bytes left of the current send */
	uint64_t carry;			/* read and not yet given to a step */
	bool finished;			/* its executions are done */
	/* counts */
	uint64_t tx, rx;
	double last_rx_t;
	bool eof;
};

struct conn {
	struct bm_tcp_conn_spec spec;
	struct side c, s;
	uint16_t cport;			/* the client's local port */
	/* bulk / micro */
	uint64_t acked_base;		/* tcpi_bytes_acked at establishment */
	bool warm;			/* micro: warm-up acknowledged */
	double next_burst;
	bool burst_open;
	uint64_t burst_end;		/* client tx when the open burst ends */
	double burst_t0;
	unsigned int bursts;
	double burst_sum, burst_min, burst_max;
	/* scripts */
	double exec_t0;
	unsigned int execs;
	double ttpet_sum, ttpet_min, ttpet_max;
	/* the window */
	uint64_t mark_rx;
	uint64_t window_rx;		/* read when the window closed */
	double done_t;			/* a finite transfer's end, 0: running */
	bool quiesced;			/* closed cleanly: the final counts are
					 * every segment either end sent */
	/* RTT samples (REQ-TCP-2) */
	unsigned int rtt_n, rtt_excl;
	double rtt_sum, rtt_min, rtt_max;
	char error[96];
};

struct sess {
	struct bm_backend *be;
	bool router;			/* router DUT: App C addresses, routes */
	struct bm_tcp_spec spec;
	struct conn conn[BM_TCP_MAX_CONN];
	struct tcp_domain dom[BM_BACKEND_MAX_PORTS];
	bool in_dom[BM_BACKEND_MAX_PORTS];
	int lfd[BM_BACKEND_MAX_PORTS];
	uint16_t lport[BM_BACKEND_MAX_PORTS];
	int epfd, evfd;
	pthread_t thread;
	bool running;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool stop_req, mark_req, mark_done;
	bool done;			/* all_done(), for run_for() */
	double t_start, t_mark, t_stop;
	char buf[IO_CHUNK];
};

struct engine {
	struct sess *s;
	bool router;		/* the job's DUT routes (RFC 2544 App C) */
};

static double mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

bool bm_tcp_engine_available(char *why, size_t len)
{
	struct stat st;

	/* loaded, built in, or loadable: a VRF link can then be made */
	if (!stat("/sys/module/vrf", &st) ||
	    !stat("/proc/sys/net/vrf", &st))
		return true;
	{
		struct utsname u;
		char path[320];

		if (!uname(&u)) {
			snprintf(path, sizeof(path),
				 "/lib/modules/%s/kernel/drivers/net/vrf.ko",
				 u.release);
			if (!stat(path, &st))
				return true;
			snprintf(path, sizeof(path),
				 "/lib/modules/%s/kernel/drivers/net/vrf.ko.xz",
				 u.release);
			if (!stat(path, &st))
				return true;
		}
	}
	snprintf(why, len, "the kernel has no VRF support (the vrf module) "
		 "to keep TCP between local ports off the loopback");
	return false;
}

static int tcp_info(int fd, struct tcp_info *ti)
{
	socklen_t len = sizeof(*ti);

	memset(ti, 0, sizeof(*ti));
	return getsockopt(fd, IPPROTO_TCP, TCP_INFO, ti, &len);
}

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

/* --- patterns ------------------------------------------------------------ */

/* Write up to n bytes to side; bytes written, 0 when the socket is full. */
static uint64_t put(struct sess *s, struct side *sd, uint64_t n)
{
	ssize_t w;

	if (n > IO_CHUNK)
		n = IO_CHUNK;
	w = send(sd->fd, s->buf, n, MSG_DONTWAIT | MSG_NOSIGNAL);
	if (w <= 0)
		return 0;
	sd->tx += (uint64_t)w;
	return (uint64_t)w;
}

static void script_load(struct sess *s, struct conn *c, struct side *sd)
{
	struct bm_ttp_params p = c->spec.ttp;
	struct bm_error err;

	bm_ttp_script_free(&sd->script);
	p.kind = c->spec.pattern;
	/* a new draw every execution, the same on both ends */
	p.seed = c->spec.ttp.seed + sd->exec;
	if (bm_ttp_script_build(&p, &sd->script, &err) && !c->error[0])
		snprintf(c->error, sizeof(c->error), "%.95s", err.msg);
	(void)s;
}

/* One side of a script as far as it can go now. */
static void script_pump(struct sess *s, struct conn *c, struct side *sd,
			double now)
{
	while (!sd->finished && sd->script.n) {
		const struct bm_ttp_step *st = &sd->script.v[sd->step];

		if (st->from_server == sd->server) {
			if (!sd->sending) {
				if (sd->wait_until == 0)
					sd->wait_until = now + st->wait_s;
				if (now < sd->wait_until)
					return;
				sd->sending = true;
				sd->to_send = st->bytes;
			}
			while (sd->to_send) {
				uint64_t w = put(s, sd, sd->to_send);

				if (!w)
					return;
				sd->to_send -= w;
			}
			sd->sending = false;
			sd->wait_until = 0;
		} else {
			uint64_t need = st->bytes;

			/* the carry holds what arrived for this step and
			 * later ones; a step takes its bytes whole */
			if (sd->carry < need)
				return;
			sd->carry -= need;
		}
		if (++sd->step < sd->script.n)
			continue;
		sd->step = 0;
		sd->exec++;
		if (!sd->server) {
			/* TTPET: the client's first wait to its last byte */
			double t = now - c->exec_t0;

			c->execs++;
			c->ttpet_sum += t;
			if (c->execs == 1 || t < c->ttpet_min)
				c->ttpet_min = t;
			if (t > c->ttpet_max)
				c->ttpet_max = t;
			c->exec_t0 = now;
		}
		if (c->spec.executions && sd->exec >= c->spec.executions) {
			sd->finished = true;
			if (!sd->server)
				c->done_t = now;
			return;
		}
		if (c->spec.ttp.random)
			script_load(s, c, sd);
	}
}

static uint64_t acked(const struct conn *c)
{
	struct tcp_info ti;

	if (tcp_info(c->c.fd, &ti))
		return 0;
	return ti.tcpi_bytes_acked > c->acked_base ?
	       ti.tcpi_bytes_acked - c->acked_base : 0;
}

/* The client of a bulk or micro connection as far as it can go now. */
static void stream_pump(struct sess *s, struct conn *c, double now)
{
	struct side *sd = &c->c;

	if (c->spec.pattern == BM_TTP_BULK) {
		uint64_t left;

		if (c->spec.bytes && sd->tx >= c->spec.bytes)
			return;
		do {
			left = c->spec.bytes ? c->spec.bytes - sd->tx : IO_CHUNK;
		} while (left && put(s, sd, left));
		if (c->spec.bytes && sd->tx >= c->spec.bytes && !sd->finished) {
			sd->finished = true;
			shutdown(sd->fd, SHUT_WR);
		}
		return;
	}
	/* micro: the warm-up as bulk, then bursts on their clock */
	if (!c->warm) {
		while (sd->tx < c->spec.warmup_bytes &&
		       put(s, sd, c->spec.warmup_bytes - sd->tx))
			;
		if (sd->tx < c->spec.warmup_bytes ||
		    acked(c) < c->spec.warmup_bytes)
			return;
		c->warm = true;
		c->next_burst = now;
	}
	if (c->burst_open && acked(c) >= c->burst_end) {
		double t = now - c->burst_t0;

		c->burst_open = false;
		/* TTPET: the first burst's write to this one's last ack */
		c->execs = 1;
		c->ttpet_sum = c->ttpet_min = c->ttpet_max =
			now - c->exec_t0;
		c->bursts++;
		c->burst_sum += t;
		if (c->bursts == 1 || t < c->burst_min)
			c->burst_min = t;
		if (t > c->burst_max)
			c->burst_max = t;
	}
	if (sd->to_send) {
		uint64_t w;

		while (sd->to_send && (w = put(s, sd, sd->to_send)))
			sd->to_send -= w;
		return;
	}
	if (now >= c->next_burst && !c->burst_open) {
		if (!c->bursts)
			c->exec_t0 = now;
		c->burst_open = true;
		c->burst_t0 = now;
		c->burst_end = sd->tx + c->spec.burst_bytes;
		sd->to_send = c->spec.burst_bytes;
		c->next_burst += c->spec.burst_interval_s;
		if (c->next_burst < now)
			c->next_burst = now + c->spec.burst_interval_s;
		stream_pump(s, c, now);
	}
}

/* Read what side's socket has; counts it and feeds its script. */
static void drain(struct sess *s, struct conn *c, struct side *sd, double now)
{
	ssize_t r;

	while ((r = recv(sd->fd, s->buf, IO_CHUNK, MSG_DONTWAIT)) > 0) {
		sd->rx += (uint64_t)r;
		sd->carry += (uint64_t)r;
		sd->last_rx_t = now;
	}
	if (r == 0)
		sd->eof = true;
	if (c->spec.pattern == BM_TTP_BULK && c->spec.bytes && sd->server &&
	    sd->rx >= c->spec.bytes && !c->done_t) {
		c->done_t = now;
		c->execs = 1;
		c->ttpet_sum = c->ttpet_min = c->ttpet_max = now - s->t_start;
	}
}

static void sample(struct sess *s, struct conn *c)
{
	/* the sender of the data: the client for streams, the server
	 * (which sends the objects and blocks) for scripts */
	int fd = bm_ttp_is_script(c->spec.pattern) ? c->s.fd : c->c.fd;
	struct tcp_info ti;
	double rtt;

	if (c->done_t || tcp_info(fd, &ti) || !ti.tcpi_rtt)
		return;
	/* [TM §4.2]: no RTT while a retransmission is outstanding
	 * (REQ-TCP-2), nor in fast recovery or loss state */
	if (ti.tcpi_retransmits || ti.tcpi_ca_state >= 3) {
		c->rtt_excl++;
		return;
	}
	if (s->t_mark == 0)
		return;
	rtt = ti.tcpi_rtt / 1e6;
	c->rtt_n++;
	c->rtt_sum += rtt;
	if (c->rtt_n == 1 || rtt < c->rtt_min)
		c->rtt_min = rtt;
	if (rtt > c->rtt_max)
		c->rtt_max = rtt;
}

static void do_mark(struct sess *s, double now)
{
	unsigned int i;

	s->t_mark = now;
	for (i = 0; i < s->spec.n_conn; i++) {
		struct conn *c = &s->conn[i];

		/* what arrived before the mark is read before it, as stop
		 * reads what arrived before the window closed: a reader that
		 * lagged must not move bytes into the window */
		drain(s, c, &c->c, now);
		drain(s, c, &c->s, now);
		c->mark_rx = c->s.rx + c->c.rx;
		c->rtt_n = c->rtt_excl = 0;
		c->rtt_sum = 0;
	}
}

/* Pump every connection; the earliest time something is due. */
static double pump_all(struct sess *s, double now)
{
	double due = now + 1.0;
	unsigned int i;

	for (i = 0; i < s->spec.n_conn; i++) {
		struct conn *c = &s->conn[i];

		drain(s, c, &c->c, now);
		drain(s, c, &c->s, now);
		if (bm_ttp_is_script(c->spec.pattern)) {
			script_pump(s, c, &c->c, now);
			script_pump(s, c, &c->s, now);
			if (c->c.wait_until && c->c.wait_until < due)
				due = c->c.wait_until;
			if (c->s.wait_until && c->s.wait_until < due)
				due = c->s.wait_until;
		} else {
			stream_pump(s, c, now);
			if (c->spec.pattern == BM_TTP_MICRO) {
				if (!c->warm || c->burst_open)
					due = fmin(due, now + BURST_POLL_S);
				else
					due = fmin(due, c->next_burst);
			}
		}
	}
	return due;
}

/* Ask epoll for writability only where a send waits for room. */
static void want_out(struct sess *s)
{
	unsigned int i;

	for (i = 0; i < s->spec.n_conn; i++) {
		struct conn *c = &s->conn[i];
		struct side *sides[2] = { &c->c, &c->s };
		int k;

		for (k = 0; k < 2; k++) {
			struct side *sd = sides[k];
			bool out = sd->to_send > 0 ||
				   (!sd->server && !sd->finished &&
				    (c->spec.pattern == BM_TTP_BULK ||
				     (c->spec.pattern == BM_TTP_MICRO &&
				      !c->warm)));
			struct epoll_event ev = {
				.events = EPOLLIN | (out ? EPOLLOUT : 0),
				.data.fd = sd->fd,
			};

			epoll_ctl(s->epfd, EPOLL_CTL_MOD, sd->fd, &ev);
		}
	}
}

static bool all_done(struct sess *s);

static void *engine_thread(void *arg)
{
	struct sess *s = arg;
	double next_sample = mono_s() + 1.0;
	struct epoll_event ev[64];

	for (;;) {
		double now = mono_s(), due;
		int ms, i;
		bool stop, mark;

		pthread_mutex_lock(&s->lock);
		stop = s->stop_req;
		mark = s->mark_req;
		s->mark_req = false;
		pthread_mutex_unlock(&s->lock);
		if (mark) {
			do_mark(s, now);
			pthread_mutex_lock(&s->lock);
			s->mark_done = true;
			pthread_cond_broadcast(&s->cond);
			pthread_mutex_unlock(&s->lock);
		}
		if (stop)
			break;
		due = pump_all(s, now);
		if (now >= next_sample) {
			for (i = 0; i < (int)s->spec.n_conn; i++)
				sample(s, &s->conn[i]);
			next_sample += 1.0;
			if (next_sample < now)
				next_sample = now + 1.0;
		}
		due = fmin(due, next_sample);
		want_out(s);
		pthread_mutex_lock(&s->lock);
		s->done = all_done(s);
		pthread_mutex_unlock(&s->lock);
		ms = (int)ceil((due - mono_s()) * 1000);
		if (ms < 0)
			ms = 0;
		epoll_wait(s->epfd, ev, 64, ms);
		/* an eventfd wake-up: read it so it does not fire again */
		{
			uint64_t v;

			if (read(s->evfd, &v, sizeof(v)) < 0)
				errno = 0;
		}
	}
	return NULL;
}

/* --- set-up -------------------------------------------------------------- */

static void close_all(struct sess *s)
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
	double t0 = mono_s();
	unsigned int i, up = 0;

	while (up < s->spec.n_conn) {
		struct pollfd pfd[BM_BACKEND_MAX_PORTS];
		unsigned int n = 0, p;

		for (p = 0; p < BM_BACKEND_MAX_PORTS; p++)
			if (s->lfd[p] >= 0)
				pfd[n++] = (struct pollfd){ s->lfd[p], POLLIN, 0 };
		if (mono_s() - t0 > CONNECT_S)
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

static int sess_setup(struct sess *s, struct bm_error *err)
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
		if (!tcp_info(c->c.fd, &ti))
			c->acked_base = ti.tcpi_bytes_acked;
		if (bm_ttp_is_script(c->spec.pattern)) {
			script_load(s, c, &c->c);
			script_load(s, c, &c->s);
			if (c->error[0])
				return bm_errorf(err, "%s", c->error), -EINVAL;
		}
	}
	return 0;
}

static int e_start(struct bm_backend *be, const struct bm_tcp_spec *spec,
		   struct bm_error *err)
{
	struct engine *e = be->tcp_priv;
	struct sess *s;
	unsigned int i;
	int ret;

	if (e->s)
		return bm_errorf(err, "a TCP session is already running"),
		       -EBUSY;
	if (!spec->n_conn || spec->n_conn > BM_TCP_MAX_CONN)
		return bm_errorf(err, "TCP: %u connections (1 .. %d)",
				 spec->n_conn, BM_TCP_MAX_CONN), -EINVAL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return bm_errorf(err, "out of memory"), -ENOMEM;
	s->be = be;
	s->router = e->router;
	s->spec = *spec;
	s->epfd = s->evfd = -1;
	for (i = 0; i < BM_BACKEND_MAX_PORTS; i++)
		s->lfd[i] = -1;
	for (i = 0; i < spec->n_conn; i++) {
		s->conn[i].spec = spec->conn[i];
		s->conn[i].c.fd = s->conn[i].s.fd = -1;
		s->conn[i].s.server = true;
	}
	memset(s->buf, 'b', sizeof(s->buf));
	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->cond, NULL);
	ret = sess_setup(s, err);
	if (!ret) {
		/* the window is open from the start until a mark moves it */
		s->t_start = s->t_mark = mono_s();
		for (i = 0; i < spec->n_conn; i++)
			s->conn[i].exec_t0 = s->t_start;
		ret = -pthread_create(&s->thread, NULL, engine_thread, s);
		if (ret)
			bm_errorf(err, "TCP engine thread: %s", strerror(-ret));
	}
	if (ret) {
		close_all(s);
		pthread_mutex_destroy(&s->lock);
		pthread_cond_destroy(&s->cond);
		free(s);
		return ret;
	}
	s->running = true;
	e->s = s;
	return 0;
}

static void wake(struct sess *s)
{
	uint64_t one = 1;

	if (write(s->evfd, &one, sizeof(one)) < 0)
		errno = 0;
}

static int e_mark(struct bm_backend *be, struct bm_error *err)
{
	struct engine *e = be->tcp_priv;
	struct sess *s = e->s;

	if (!s)
		return bm_errorf(err, "no TCP session is running"), -EINVAL;
	pthread_mutex_lock(&s->lock);
	s->mark_req = true;
	s->mark_done = false;
	wake(s);
	while (!s->mark_done)
		pthread_cond_wait(&s->cond, &s->lock);
	pthread_mutex_unlock(&s->lock);
	return 0;
}

static bool all_done(struct sess *s)
{
	unsigned int i, finite = 0;

	for (i = 0; i < s->spec.n_conn; i++) {
		const struct conn *c = &s->conn[i];

		if (!(bm_ttp_is_script(c->spec.pattern) ?
		      c->spec.executions > 0 :
		      c->spec.pattern == BM_TTP_BULK && c->spec.bytes))
			continue;
		finite++;
		if (!c->done_t)
			return false;
	}
	return finite > 0;
}

static void e_run_for(struct bm_backend *be, double sec, bool done_early)
{
	struct engine *e = be->tcp_priv;
	double end = mono_s() + sec;

	while (mono_s() < end) {
		if (done_early && e->s) {
			bool done;

			pthread_mutex_lock(&e->s->lock);
			done = e->s->done;
			pthread_mutex_unlock(&e->s->lock);
			if (done)
				return;
		}
		usleep(10000);
	}
}

static void fill_stack(struct sess *s, struct bm_tcp_stack *st)
{
	struct utsname u;
	struct tcp_info ti;
	socklen_t len;
	int v;

	memset(st, 0, sizeof(*st));
	if (!uname(&u))
		snprintf(st->os, sizeof(st->os), "%.15s %.47s", u.sysname,
			 u.release);
	snprintf(st->domains, sizeof(st->domains), "vrf");
	if (!s->spec.n_conn || s->conn[0].c.fd < 0)
		return;
	len = sizeof(st->cc);
	getsockopt(s->conn[0].c.fd, IPPROTO_TCP, TCP_CONGESTION, st->cc, &len);
	st->cc[sizeof(st->cc) - 1] = 0;
	if (!tcp_info(s->conn[0].c.fd, &ti))
		snprintf(st->options, sizeof(st->options), "%s%s%s%s",
			 ti.tcpi_options & TCPI_OPT_SACK ? "SACK, " : "",
			 ti.tcpi_options & TCPI_OPT_TIMESTAMPS ?
			 "timestamps, " : "",
			 ti.tcpi_options & TCPI_OPT_WSCALE ?
			 "window scaling, " : "",
			 ti.tcpi_options & TCPI_OPT_ECN ? "ECN, " : "");
	len = strlen(st->options);
	if (len >= 2)
		st->options[len - 2] = 0;
	len = sizeof(v);
	if (!getsockopt(s->conn[0].c.fd, SOL_SOCKET, SO_SNDBUF, &v, &len))
		st->sndbuf = (uint32_t)v;
	len = sizeof(v);
	if (!getsockopt(s->conn[0].s.fd, SOL_SOCKET, SO_RCVBUF, &v, &len))
		st->rcvbuf = (uint32_t)v;
	st->window_clamp = s->spec.window_clamp;
}

static void fill_conn(struct sess *s, struct conn *c,
		      struct bm_tcp_conn_result *r)
{
	struct tcp_info ci, si;
	bool script = bm_ttp_is_script(c->spec.pattern);
	double end = c->done_t && c->done_t > s->t_mark ? c->done_t : s->t_stop;
	double base;

	memset(r, 0, sizeof(*r));
	r->client = c->spec.client;
	r->server = c->spec.server;
	r->pattern = c->spec.pattern;
	r->dscp = c->spec.dscp_set ? c->spec.dscp : s->spec.dscp;
	r->established = c->c.fd >= 0 && c->s.fd >= 0;
	snprintf(r->error, sizeof(r->error), "%s", c->error);
	r->c2s_bytes = c->c.tx;
	r->s2c_bytes = c->s.tx;
	r->window_bytes = c->window_rx - c->mark_rx;
	r->quiesced = c->quiesced;
	r->window_s = end - s->t_mark;
	r->goodput_bps = r->window_s > 0 ?
			 r->window_bytes * 8.0 / r->window_s : 0;
	tcp_info(c->c.fd, &ci);
	tcp_info(c->s.fd, &si);
	r->bytes_sent = ci.tcpi_bytes_sent + (script ? si.tcpi_bytes_sent : 0);
	r->bytes_retrans = ci.tcpi_bytes_retrans +
			   (script ? si.tcpi_bytes_retrans : 0);
	r->total_retrans = ci.tcpi_total_retrans +
			   (script ? si.tcpi_total_retrans : 0);
	r->dsack_dups = ci.tcpi_dsack_dups +
			(script ? si.tcpi_dsack_dups : 0);
	r->segs_out = ci.tcpi_segs_out;
	r->segs_in = ci.tcpi_segs_in;
	r->srv_segs_out = si.tcpi_segs_out;
	r->srv_segs_in = si.tcpi_segs_in;
	r->efficiency_pct = bm_tcp_efficiency_pct(r->bytes_sent,
						  r->bytes_retrans);
	r->rtt_samples = c->rtt_n;
	r->rtt_excluded = c->rtt_excl;
	r->rtt_avg_ms = c->rtt_n ? c->rtt_sum / c->rtt_n * 1e3 : NAN;
	r->rtt_min_ms = c->rtt_n ? c->rtt_min * 1e3 : NAN;
	r->rtt_max_ms = c->rtt_n ? c->rtt_max * 1e3 : NAN;
	/* F-13's baseline, the RTT without congestion: the smallest the
	 * sender's stack saw (tcpi_min_rtt; its first segments met an
	 * empty queue), unless the procedure knows it.  Not the
	 * handshake's: a first SYN waits for ARP, which lab 47 saw double
	 * it through a 30 ms NDE. */
	base = s->spec.baseline_rtt_s > 0 ? s->spec.baseline_rtt_s :
	       (script ? si.tcpi_min_rtt : ci.tcpi_min_rtt) / 1e6;
	r->baseline_rtt_ms = base > 0 ? base * 1e3 : NAN;
	r->buffer_delay_pct = c->rtt_n ?
		bm_tcp_buffer_delay_pct(c->rtt_sum / c->rtt_n, base) : NAN;
	r->mss = ci.tcpi_snd_mss;
	r->executions = c->execs;
	r->ttpet_min_s = c->execs ? c->ttpet_min : NAN;
	r->ttpet_avg_s = c->execs ? c->ttpet_sum / c->execs : NAN;
	r->ttpet_max_s = c->execs ? c->ttpet_max : NAN;
	r->bursts = c->bursts;
	r->burst_min_s = c->bursts ? c->burst_min : NAN;
	r->burst_avg_s = c->bursts ? c->burst_sum / c->bursts : NAN;
	r->burst_max_s = c->bursts ? c->burst_max : NAN;
}

/* A TCP state from TCP_INFO. */
static int tcp_state(int fd)
{
	struct tcp_info ti;

	return tcp_info(fd, &ti) ? -1 : ti.tcpi_state;
}

/*
 * End every connection with its close handshake and wait until both ends
 * are closed, so that the counts read afterwards hold every segment
 * either end ever sent (what a DUT's counters are checked against): the
 * client's data is delivered first (shutdown queues its FIN behind it),
 * the server answers with its FIN at end of file.  Gives up after
 * QUIESCE_S (a 4 MB send buffer at 10 Mbit/s takes 3.4 s): such a
 * connection says quiesced false.
 */
static void quiesce(struct sess *s)
{
	double end = mono_s() + QUIESCE_S;
	unsigned int i, open = s->spec.n_conn;

	for (i = 0; i < s->spec.n_conn; i++) {
		shutdown(s->conn[i].c.fd, SHUT_WR);
		s->conn[i].s.eof = s->conn[i].c.eof = false;
	}
	while (open && mono_s() < end) {
		struct pollfd pfd[2 * BM_TCP_MAX_CONN];

		open = 0;
		for (i = 0; i < s->spec.n_conn; i++) {
			struct conn *c = &s->conn[i];
			int cs, ss;

			drain(s, c, &c->s, mono_s());
			drain(s, c, &c->c, mono_s());
			if (c->s.eof && !c->quiesced) {
				/* once: the server's FIN after the client's */
				shutdown(c->s.fd, SHUT_WR);
				c->quiesced = true;
			}
			cs = tcp_state(c->c.fd);
			ss = tcp_state(c->s.fd);
			if (!c->quiesced || (cs != ST_CLOSE &&
					     cs != ST_TIME_WAIT) ||
			    ss != ST_CLOSE)
				open++;
			pfd[2 * i] = (struct pollfd){ c->c.fd, POLLIN, 0 };
			pfd[2 * i + 1] = (struct pollfd){ c->s.fd, POLLIN, 0 };
		}
		if (open)
			poll(pfd, 2 * s->spec.n_conn, 5);
	}
	for (i = 0; i < s->spec.n_conn; i++) {
		struct conn *c = &s->conn[i];
		int cs = tcp_state(c->c.fd), ss = tcp_state(c->s.fd);

		c->quiesced = c->quiesced && (cs == ST_CLOSE ||
					      cs == ST_TIME_WAIT) &&
			      ss == ST_CLOSE;
	}
}

static int e_stop(struct bm_backend *be, struct bm_tcp_result *res,
		  struct bm_error *err)
{
	struct engine *e = be->tcp_priv;
	struct sess *s = e->s;
	unsigned int i;

	memset(res, 0, sizeof(*res));
	if (!s)
		return bm_errorf(err, "no TCP session is running"), -EINVAL;
	pthread_mutex_lock(&s->lock);
	s->stop_req = true;
	wake(s);
	pthread_mutex_unlock(&s->lock);
	pthread_join(s->thread, NULL);
	s->t_stop = mono_s();
	if (s->t_mark == 0)
		s->t_mark = s->t_start;
	/* the last reads, and a last RTT sample (REQ-TCP-2: "and at the
	 * end"); the window closes here */
	for (i = 0; i < s->spec.n_conn; i++) {
		struct conn *c = &s->conn[i];

		drain(s, c, &c->c, s->t_stop);
		drain(s, c, &c->s, s->t_stop);
		sample(s, c);
		c->window_rx = c->s.rx + c->c.rx;
	}
	quiesce(s);
	res->n_conn = s->spec.n_conn;
	res->window_s = s->t_stop - s->t_mark;
	for (i = 0; i < s->spec.n_conn; i++) {
		fill_conn(s, &s->conn[i], &res->conn[i]);
		res->goodput_bps += res->conn[i].goodput_bps;
	}
	fill_stack(s, &res->stack);
	close_all(s);
	pthread_mutex_destroy(&s->lock);
	pthread_cond_destroy(&s->cond);
	free(s);
	e->s = NULL;
	(void)err;
	return 0;
}

static const struct bm_tcp_ops engine_ops = {
	.start = e_start,
	.mark = e_mark,
	.run_for = e_run_for,
	.stop = e_stop,
};

int bm_tcp_engine_attach(struct bm_backend *be, bool router,
			 struct bm_error *err)
{
	struct engine *e = calloc(1, sizeof(*e));

	if (!e)
		return bm_errorf(err, "out of memory"), -ENOMEM;
	e->router = router;
	be->tcp = &engine_ops;
	be->tcp_priv = e;
	return 0;
}

void bm_tcp_engine_detach(struct bm_backend *be)
{
	struct engine *e = be->tcp_priv;
	struct bm_tcp_result res;
	struct bm_error err;

	if (!e || be->tcp != &engine_ops)
		return;
	if (e->s)
		e_stop(be, &res, &err);
	free(e);
	be->tcp = NULL;
	be->tcp_priv = NULL;
}

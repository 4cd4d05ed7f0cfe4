// SPDX-License-Identifier: GPL-2.0
/*
 * The TCP engine's thread (tcp_engine.c): the patterns pumped from an
 * epoll loop (bulk writes while the socket takes data, micro bursts on
 * their clock, scripts step by step, TM-TTP), what each end reads, the
 * window's mark and the RTT sampled every second (REQ-TCP-2).  Apart
 * from the session's set-up and end because this is what runs while a
 * session does; it calls neither.
 */
#include <errno.h>
#include <math.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <linux/tcp.h>

#include "tcp_int.h"

#define BURST_POLL_S	0.001	/* TCP_INFO polling while a burst is
				 * unacknowledged (AMB-49 completion) */

int tcp_info_read(int fd, struct tcp_info *ti)
{
	socklen_t len = sizeof(*ti);

	memset(ti, 0, sizeof(*ti));
	return getsockopt(fd, IPPROTO_TCP, TCP_INFO, ti, &len);
}

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

void tcp_pump_script_load(struct sess *s, struct conn *c, struct side *sd)
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
			tcp_pump_script_load(s, c, sd);
	}
}

static uint64_t acked(const struct conn *c)
{
	struct tcp_info ti;

	if (tcp_info_read(c->c.fd, &ti))
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
void tcp_pump_drain(struct sess *s, struct conn *c, struct side *sd, double now)
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

void tcp_pump_sample(struct sess *s, struct conn *c)
{
	/* the sender of the data: the client for streams, the server
	 * (which sends the objects and blocks) for scripts */
	int fd = bm_ttp_is_script(c->spec.pattern) ? c->s.fd : c->c.fd;
	struct tcp_info ti;
	double rtt;

	if (c->done_t || tcp_info_read(fd, &ti) || !ti.tcpi_rtt)
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
		tcp_pump_drain(s, c, &c->c, now);
		tcp_pump_drain(s, c, &c->s, now);
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

		tcp_pump_drain(s, c, &c->c, now);
		tcp_pump_drain(s, c, &c->s, now);
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

void *tcp_pump_thread(void *arg)
{
	struct sess *s = arg;
	double next_sample = bm_mono_s() + 1.0;
	struct epoll_event ev[64];

	for (;;) {
		double now = bm_mono_s(), due;
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
				tcp_pump_sample(s, &s->conn[i]);
			next_sample += 1.0;
			if (next_sample < now)
				next_sample = now + 1.0;
		}
		due = fmin(due, next_sample);
		want_out(s);
		pthread_mutex_lock(&s->lock);
		s->done = all_done(s);
		pthread_mutex_unlock(&s->lock);
		ms = (int)ceil((due - bm_mono_s()) * 1000);
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

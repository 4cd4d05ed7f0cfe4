// SPDX-License-Identifier: GPL-2.0
/*
 * What a TCP engine session (tcp_engine.c) reports at its stop: every
 * connection closed with its handshake so that its counts are final,
 * then each connection's figures from TCP_INFO and the session's, and
 * the stack it ran on.  Apart from the thread (tcp_pump.c) because it
 * runs once the thread has ended, and reads what it left.
 */
#include <math.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/utsname.h>

#include <linux/tcp.h>

#include "tcp_int.h"

/* tcpi_state values (include/net/tcp_states.h; netinet/tcp.h has them
 * too but cannot be included beside linux/tcp.h) */
#define ST_TIME_WAIT	6
#define ST_CLOSE	7
#define QUIESCE_S	5.0	/* longest wait for a connection's data to be
				 * delivered and its close handshake done */

/* A TCP state from TCP_INFO. */
static int tcp_state(int fd)
{
	struct tcp_info ti;

	return tcp_info_read(fd, &ti) ? -1 : ti.tcpi_state;
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
void tcp_results_quiesce(struct sess *s)
{
	double end = bm_mono_s() + QUIESCE_S;
	unsigned int i, open = s->spec.n_conn;

	for (i = 0; i < s->spec.n_conn; i++) {
		shutdown(s->conn[i].c.fd, SHUT_WR);
		s->conn[i].s.eof = s->conn[i].c.eof = false;
	}
	while (open && bm_mono_s() < end) {
		struct pollfd pfd[2 * BM_TCP_MAX_CONN];

		open = 0;
		for (i = 0; i < s->spec.n_conn; i++) {
			struct conn *c = &s->conn[i];
			int cs, ss;

			tcp_pump_drain(s, c, &c->s, bm_mono_s());
			tcp_pump_drain(s, c, &c->c, bm_mono_s());
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

void tcp_results_stack(struct sess *s, struct bm_tcp_stack *st)
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
	if (!tcp_info_read(s->conn[0].c.fd, &ti))
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

void tcp_results_conn(struct sess *s, struct conn *c,
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
	tcp_info_read(c->c.fd, &ci);
	tcp_info_read(c->s.fd, &si);
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

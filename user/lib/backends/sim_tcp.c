// SPDX-License-Identifier: GPL-2.0
/*
 * The simulated DUT's TCP engine (bm_tcp.h), a fluid model with closed-form
 * numbers for unit tests: the connections to one egress share what its
 * service leaves after the frame streams of the trials run during the
 * window, equally, as payload: every segment carries S = 1448 B in a 1518 B
 * frame that the egress accounts as A bytes (F + 20 on a line; F - 4 +
 * overhead behind a tbf).  So one bulk connection alone gets R x S / A,
 * F-9's Linux ceiling.  No loss, no retransmission, no standing queue: the
 * RTT is twice the DUT's base latency, and the buffer delay 0.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bm_sim.h"
#include "sim_int.h"

#define SIM_TCP_S	1448.0		/* payload of a full segment */
#define SIM_TCP_F	1518.0		/* its frame (MTU 1500) */

struct sim_tcp {
	/* the simulator whose DUT the model reads; a backend that wraps it
	 * (a test's) may pass itself to the ops: its clock is the one */
	struct bm_backend *sim;
	bool on;
	struct bm_tcp_spec spec;
	double t_start, t_mark;
	double udp_bits[BM_TRAFFIC_MAX_PORTS];	/* accounted, in the window */
};

/* The egress service of port e in accounted bit/s and the bytes A it
 * accounts for one full segment. */
static void service(const struct bm_backend *be, unsigned int e,
		    double *rate_bps, double *a_bytes)
{
	const struct sim_tcp *t = be->tcp_priv;
	const struct sim_priv *sp = t->sim->priv;
	const struct bm_sim_port *pt = &sp->p.ports[e];

	if (pt->shaper.rate_bps > 0) {
		*rate_bps = pt->shaper.rate_bps;
		*a_bytes = SIM_TCP_F - 4 + pt->shaper.overhead;
	} else {
		*rate_bps = pt->egress_bps > 0 ? pt->egress_bps :
			    t->sim->line_rate_bps;
		*a_bytes = SIM_TCP_F + 20;
	}
}

static unsigned int sharers(const struct sim_tcp *t, unsigned int e)
{
	unsigned int i, k = 0;

	for (i = 0; i < t->spec.n_conn; i++)
		k += t->spec.conn[i].server == e;
	return k;
}

/* One connection's payload rate in bit/s over a window of w s. */
static double conn_rate(const struct bm_backend *be, const struct sim_tcp *t,
			unsigned int i, double w)
{
	unsigned int e = t->spec.conn[i].server;
	double r, a, bits;

	service(be, e, &r, &a);
	bits = r * w - t->udp_bits[e];
	if (bits < 0 || w <= 0)
		return 0;
	return bits / w * SIM_TCP_S / a / sharers(t, e);
}

static int st_start(struct bm_backend *be, const struct bm_tcp_spec *spec,
		    struct bm_error *err)
{
	struct sim_tcp *t = be->tcp_priv;
	unsigned int i;

	if (t->on)
		return bm_errorf(err, "a TCP session is already running"),
		       -EBUSY;
	if (!spec->n_conn || spec->n_conn > BM_TCP_MAX_CONN)
		return bm_errorf(err, "TCP: %u connections (1 .. %d)",
				 spec->n_conn, BM_TCP_MAX_CONN), -EINVAL;
	for (i = 0; i < spec->n_conn; i++)
		if (spec->conn[i].client >= be->n_ports ||
		    spec->conn[i].server >= be->n_ports ||
		    spec->conn[i].client == spec->conn[i].server)
			return bm_errorf(err, "TCP connection %u: ports %u -> "
					 "%u of %u", i, spec->conn[i].client,
					 spec->conn[i].server, be->n_ports),
			       -EINVAL;
	memset(t->udp_bits, 0, sizeof(t->udp_bits));
	t->on = true;
	t->spec = *spec;
	t->t_start = t->t_mark = be->elapsed_s;
	return 0;
}

static int st_mark(struct bm_backend *be, struct bm_error *err)
{
	struct sim_tcp *t = be->tcp_priv;

	if (!t->on)
		return bm_errorf(err, "no TCP session is running"), -EINVAL;
	t->t_mark = be->elapsed_s;
	memset(t->udp_bits, 0, sizeof(t->udp_bits));
	return 0;
}

static void st_run_for(struct bm_backend *be, double s, bool done_early)
{
	(void)done_early;
	be->elapsed_s += s;
}

static int st_stop(struct bm_backend *be, struct bm_tcp_result *res,
		   struct bm_error *err)
{
	struct sim_tcp *t = be->tcp_priv;
	const struct sim_priv *sp = t->sim->priv;
	double w = be->elapsed_s - t->t_mark;
	double rtt = 2 * sp->p.base_latency_ns / 1e9;
	unsigned int i;

	memset(res, 0, sizeof(*res));
	if (!t->on)
		return bm_errorf(err, "no TCP session is running"), -EINVAL;
	res->n_conn = t->spec.n_conn;
	res->window_s = w;
	for (i = 0; i < t->spec.n_conn; i++) {
		const struct bm_tcp_conn_spec *cs = &t->spec.conn[i];
		struct bm_tcp_conn_result *r = &res->conn[i];
		double rate = conn_rate(be, t, i, w);
		uint64_t bytes = (uint64_t)(rate * w / 8);

		r->client = cs->client;
		r->server = cs->server;
		r->pattern = cs->pattern;
		r->established = true;
		r->quiesced = true;	/* nothing is ever in flight */
		if (cs->pattern == BM_TTP_BULK && cs->bytes && bytes > cs->bytes)
			bytes = cs->bytes;
		r->c2s_bytes = r->window_bytes = bytes;
		r->window_s = w;
		r->goodput_bps = w > 0 ? bytes * 8.0 / w : 0;
		r->bytes_sent = bytes;
		r->segs_out = (uint64_t)ceil(bytes / SIM_TCP_S);
		r->efficiency_pct = bm_tcp_efficiency_pct(bytes, 0);
		r->rtt_samples = (unsigned int)floor(w);
		r->rtt_avg_ms = r->rtt_min_ms = r->rtt_max_ms = rtt * 1e3;
		r->baseline_rtt_ms = rtt * 1e3;
		r->buffer_delay_pct = bm_tcp_buffer_delay_pct(rtt, rtt);
		r->mss = (uint32_t)SIM_TCP_S;
		res->goodput_bps += r->goodput_bps;
	}
	snprintf(res->stack.os, sizeof(res->stack.os), "sim");
	snprintf(res->stack.cc, sizeof(res->stack.cc), "%s",
		 t->spec.cc[0] ? t->spec.cc : "fluid");
	snprintf(res->stack.options, sizeof(res->stack.options), "none");
	snprintf(res->stack.domains, sizeof(res->stack.domains), "sim");
	res->stack.sndbuf = t->spec.sndbuf;
	res->stack.rcvbuf = t->spec.rcvbuf;
	res->stack.window_clamp = t->spec.window_clamp;
	t->on = false;
	return 0;
}

static const struct bm_tcp_ops sim_tcp_ops = {
	.start = st_start,
	.mark = st_mark,
	.run_for = st_run_for,
	.stop = st_stop,
};

int sim_tcp_attach(struct bm_backend *be)
{
	struct sim_tcp *t = calloc(1, sizeof(*t));

	if (!t)
		return -ENOMEM;
	t->sim = be;
	be->tcp_priv = t;
	be->tcp = &sim_tcp_ops;
	return 0;
}

void sim_tcp_detach(struct bm_backend *be)
{
	free(be->tcp_priv);
	be->tcp_priv = NULL;
	be->tcp = NULL;
}

void sim_tcp_trial(struct bm_backend *be, const struct bm_trial_spec *spec)
{
	struct sim_tcp *t = be->tcp_priv;
	const struct sim_priv *sp = be->priv;
	unsigned int i;

	if (!t || !t->on || !spec->traffic || !spec->traffic_res)
		return;
	/* what the trial's frames took of each egress's service */
	for (i = 0; i < spec->traffic_res->n_streams; i++) {
		const struct bm_stream_result *r = &spec->traffic_res->streams[i];
		unsigned int e = spec->traffic->streams[i].rx_port;
		const struct bm_sim_port *pt = &sp->p.ports[e];
		double per_frame = pt->shaper.rate_bps > 0 ?
				   pt->shaper.overhead - 4.0 : 20.0;

		t->udp_bits[e] += 8.0 * (r->rx_bytes + r->received * per_frame);
	}
}

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
 * accounts for one full segment: its shaper's or its line's, and never
 * more segments a second than the DUT forwards frames (capacity_fps or
 * capacity_bps, as the frame model's egress serves). */
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
	*rate_bps = fmin(*rate_bps, bm_sim_capacity_fps(&sp->p,
						     (uint32_t)SIM_TCP_F) *
			 *a_bytes * 8.0);
}

/* What connection i asks of its egress in payload bit/s: a paced bulk
 * its pacing rate (which counts IP packets: 1500 B for 1448 of payload),
 * micro its bursts' average, the rest all they can get. */
static double demand(const struct bm_tcp_conn_spec *cs)
{
	if (cs->pattern == BM_TTP_BULK && cs->rate_bps > 0)
		return cs->rate_bps * SIM_TCP_S / (SIM_TCP_S + 52);
	if (cs->pattern == BM_TTP_MICRO && cs->burst_interval_s > 0)
		return cs->burst_bytes * 8.0 / cs->burst_interval_s;
	return INFINITY;
}

/* The payload bit/s egress e's service leaves the connections over a
 * window of w s. */
static double egress_payload(const struct bm_backend *be,
			     const struct sim_tcp *t, unsigned int e, double w)
{
	double r, a, bits;

	service(be, e, &r, &a);
	bits = r * w - t->udp_bits[e];
	return bits > 0 && w > 0 ? bits / w * SIM_TCP_S / a : 0;
}

/* Max-min fair shares of every connection into rate[] (payload bit/s):
 * per egress, the connections that ask less than an equal share get
 * what they ask, the rest share what is left equally. */
static void shares(const struct bm_backend *be, const struct sim_tcp *t,
		   double w, double *rate)
{
	unsigned int i, e, n = t->spec.n_conn;
	bool fixed[BM_TCP_MAX_CONN] = { false };

	for (e = 0; e < be->n_ports; e++) {
		double left = egress_payload(be, t, e, w);
		unsigned int open = 0, k;

		for (i = 0; i < n; i++)
			open += t->spec.conn[i].server == e;
		for (k = 0; k < n && open; k++) {
			bool changed = false;

			for (i = 0; i < n; i++) {
				const struct bm_tcp_conn_spec *cs =
					&t->spec.conn[i];

				if (cs->server != e || fixed[i] ||
				    demand(cs) > left / open)
					continue;
				rate[i] = demand(cs);
				left -= rate[i];
				fixed[i] = true;
				open--;
				changed = true;
			}
			if (!changed)
				break;
		}
		for (i = 0; i < n; i++)
			if (t->spec.conn[i].server == e && !fixed[i])
				rate[i] = open ? left / open : 0;
	}
}

/* What connection i could send beside the others' shares on its egress:
 * the rate a micro burst drains at. */
static double spare(const struct bm_backend *be, const struct sim_tcp *t,
		    const double *rate, unsigned int i, double w)
{
	unsigned int j, e = t->spec.conn[i].server;
	double left = egress_payload(be, t, e, w);

	for (j = 0; j < t->spec.n_conn; j++)
		if (j != i && t->spec.conn[j].server == e)
			left -= rate[j];
	return left;
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

/* Connection i over the window w at payload rate rate (its share); its
 * window bytes, the window's length and its TTPET into r. */
static void fill_pattern(const struct bm_backend *be, const struct sim_tcp *t,
			 const double *rate, unsigned int i, double w,
			 double rtt, struct bm_tcp_conn_result *r)
{
	const struct bm_tcp_conn_spec *cs = &t->spec.conn[i];
	double x = rate[i], ttpet = NAN, bytes = x * w / 8;

	r->window_s = w;
	if (cs->pattern == BM_TTP_BULK && cs->bytes && x > 0 &&
	    cs->bytes * 8.0 / x <= w) {
		/* a finite transfer that ends in the window */
		ttpet = cs->bytes * 8.0 / x;
		bytes = (double)cs->bytes;
		r->window_s = ttpet;
	} else if (cs->pattern == BM_TTP_MICRO && cs->burst_interval_s > 0) {
		double drain = spare(be, t, rate, i, w);
		unsigned int n = (unsigned int)floor(w / cs->burst_interval_s);
		double one = drain > 0 ? cs->burst_bytes * 8.0 / drain + rtt :
			     INFINITY;

		bytes = (double)n * cs->burst_bytes;
		r->bursts = n;
		r->burst_min_s = r->burst_avg_s = r->burst_max_s = one;
		if (n)
			ttpet = (n - 1) * cs->burst_interval_s + one;
	} else if (bm_ttp_is_script(cs->pattern) && x > 0) {
		struct bm_ttp_params tp = cs->ttp;
		struct bm_ttp_script sc = { NULL, 0 };
		struct bm_error err;
		uint64_t cb, sb;

		tp.kind = cs->pattern;
		if (!bm_ttp_script_build(&tp, &sc, &err)) {
			ttpet = bm_ttp_script_ideal_s(&sc, x, rtt);
			bm_ttp_script_bytes(&sc, &cb, &sb);
			r->executions = ttpet > 0 ? (unsigned int)floor(w / ttpet)
						  : 0;
			if (cs->executions && r->executions > cs->executions)
				r->executions = cs->executions;
			bytes = (double)r->executions * (cb + sb);
			r->c2s_bytes = r->executions * cb;
			r->s2c_bytes = r->executions * sb;
		}
		bm_ttp_script_free(&sc);
		if (!r->executions)
			ttpet = NAN;
	}
	if (!bm_ttp_is_script(cs->pattern)) {
		r->c2s_bytes = (uint64_t)bytes;
		r->executions = isfinite(ttpet) ? 1 : 0;
	}
	r->window_bytes = (uint64_t)bytes;
	r->ttpet_min_s = r->ttpet_avg_s = r->ttpet_max_s = ttpet;
}

static int st_stop(struct bm_backend *be, struct bm_tcp_result *res,
		   struct bm_error *err)
{
	struct sim_tcp *t = be->tcp_priv;
	const struct sim_priv *sp = t->sim->priv;
	double w = be->elapsed_s - t->t_mark;
	double rtt = 2 * sp->p.base_latency_ns / 1e9;
	double rate[BM_TCP_MAX_CONN] = { 0 };
	unsigned int i;

	memset(res, 0, sizeof(*res));
	if (!t->on)
		return bm_errorf(err, "no TCP session is running"), -EINVAL;
	res->n_conn = t->spec.n_conn;
	res->window_s = w;
	shares(be, t, w, rate);
	for (i = 0; i < t->spec.n_conn; i++) {
		const struct bm_tcp_conn_spec *cs = &t->spec.conn[i];
		struct bm_tcp_conn_result *r = &res->conn[i];

		r->client = cs->client;
		r->server = cs->server;
		r->pattern = cs->pattern;
		r->dscp = cs->dscp_set ? cs->dscp : t->spec.dscp;
		r->established = true;
		r->quiesced = true;	/* nothing is ever in flight */
		fill_pattern(be, t, rate, i, w, rtt, r);
		r->goodput_bps = r->window_s > 0 ?
				 r->window_bytes * 8.0 / r->window_s : 0;
		r->bytes_sent = r->c2s_bytes + r->s2c_bytes;
		r->segs_out = (uint64_t)ceil(r->c2s_bytes / SIM_TCP_S);
		r->efficiency_pct = bm_tcp_efficiency_pct(r->bytes_sent, 0);
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

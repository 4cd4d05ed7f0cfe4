// SPDX-License-Identifier: GPL-2.0
/*
 * TM-MET-SL from stream results (tm_metrics.h).  LP, OOS and the bytes
 * come from the backend's counters, PD and PDV from its latency summary
 * (the p99 of delay - min delay is the p99 of the delays less their
 * minimum: RFC 5481 PDV needs no frame log), the bytes per burst and per
 * DSCP from the per-frame log, which tells a frame's burst by its
 * sequence number (seq / frames per burst).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tm_metrics.h"

double tm_percentile(const double *x, size_t n, double p)
{
	double k;
	size_t i;

	if (!n)
		return NAN;
	/* the nearest rank; a hair below an integer rank is that rank */
	k = ceil(p / 100.0 * (double)n - 1e-9);
	i = k < 1.0 ? 0 : (size_t)k - 1;
	return x[i < n ? i : n - 1];
}

/* PD of the pieces together: exact moments; the p99 of one piece, or
 * the largest piece p99 when several have samples (an upper bound: the
 * pieces' histograms are not merged); their IPDV, each over its own
 * consecutive pairs. */
static void flow_pd(const struct bm_traffic_result *r,
		    const struct tm_flow *f, struct tm_flow_metrics *m)
{
	double sum = 0;
	unsigned int i;

	double ipdv_sum = 0;

	m->pd_min_ns = m->pd_mean_ns = m->pd_p99_ns = m->pd_max_ns = NAN;
	m->pdv_ns = m->pdv_mean_ns = NAN;
	m->ipdv_min_ns = m->ipdv_mean_ns = m->ipdv_max_ns = NAN;
	m->ipdv_pairs = 0;
	for (i = 0; i < f->n; i++) {
		const struct bm_stream_result *s = &r->streams[f->first + i];

		if (!s->ipdv_count)
			continue;
		m->ipdv_min_ns = m->ipdv_pairs ?
				 fmin(m->ipdv_min_ns, s->ipdv_min_ns) :
				 s->ipdv_min_ns;
		m->ipdv_max_ns = m->ipdv_pairs ?
				 fmax(m->ipdv_max_ns, s->ipdv_max_ns) :
				 s->ipdv_max_ns;
		ipdv_sum += s->ipdv_mean_ns * (double)s->ipdv_count;
		m->ipdv_pairs += s->ipdv_count;
	}
	if (m->ipdv_pairs)
		m->ipdv_mean_ns = ipdv_sum / (double)m->ipdv_pairs;
	for (i = 0; i < f->n; i++) {
		const struct bm_latency *l = &r->streams[f->first + i].latency;

		if (!l->count)
			continue;
		m->pd_min_ns = m->pd_count ? fmin(m->pd_min_ns, l->min_ns) :
			       l->min_ns;
		m->pd_max_ns = m->pd_count ? fmax(m->pd_max_ns, l->max_ns) :
			       l->max_ns;
		m->pd_p99_ns = m->pd_count ? fmax(m->pd_p99_ns, l->p99_ns) :
			       l->p99_ns;
		sum += l->mean_ns * (double)l->count;
		m->pd_count += l->count;
	}
	if (!m->pd_count)
		return;
	m->pd_mean_ns = sum / (double)m->pd_count;
	/* a histogram's p99 may sit a bucket below the exact minimum */
	m->pd_p99_ns = fmax(m->pd_p99_ns, m->pd_min_ns);
	m->pdv_ns = m->pd_p99_ns - m->pd_min_ns;
	m->pdv_mean_ns = fmax(0.0, m->pd_mean_ns - m->pd_min_ns);
}

/* The bursts the logs of f's pieces hold whole: all of them when every
 * log holds every frame received; else those before the burst of the
 * last frame of the shortest log. */
static uint64_t analysable(const struct bm_traffic_result *r,
			  const struct tm_flow *f, bool *complete)
{
	uint64_t b = f->bursts, last;
	unsigned int i;

	*complete = true;
	for (i = 0; i < f->n; i++) {
		const struct bm_stream_result *s = &r->streams[f->first + i];

		if (s->n_rx_log >= s->received)
			continue;
		*complete = false;
		last = s->n_rx_log ? s->rx_log[s->n_rx_log - 1].seq : 0;
		if (f->per_burst[i] && last / f->per_burst[i] < b)
			b = last / f->per_burst[i];
	}
	return b;
}

/* Bytes per burst and per DSCP from the logs. */
static int flow_log(const struct bm_traffic_result *r, const struct tm_flow *f,
		    int d, struct tm_flow_metrics *m)
{
	uint64_t nb, b, k, per = 0, *cnt = NULL;
	double *bytes = NULL, sum = 0;
	bool complete;
	unsigned int i;
	size_t j;

	nb = analysable(r, f, &complete);
	m->log_complete = complete;
	if (complete) {
		for (i = 0; i < 64; i++)
			m->rx_dscp_bytes[i] = 0;
		m->remarked_bytes = 0;
	}
	if (f->per_burst[0] && nb) {
		bytes = calloc(nb, sizeof(*bytes));
		cnt = calloc(nb, sizeof(*cnt));
		if (!bytes || !cnt) {
			free(bytes);
			free(cnt);
			return -ENOMEM;
		}
	}
	for (i = 0; i < f->n; i++) {
		const struct bm_stream_result *s = &r->streams[f->first + i];

		per += f->per_burst[i];
		for (j = 0; j < s->n_rx_log; j++) {
			const struct bm_frame_rec *fr = &s->rx_log[j];
			double a = (double)fr->size + d;

			if (complete) {
				m->rx_dscp_bytes[fr->dscp & 63] += a;
				if (fr->dscp != f->dscp)
					m->remarked_bytes += a;
			}
			if (!bytes || !f->per_burst[i])
				continue;
			b = fr->seq / f->per_burst[i];
			if (b < nb) {
				bytes[b] += a;
				cnt[b]++;
			}
		}
	}
	m->bursts_analysed = bytes ? nb : 0;
	for (k = 0; bytes && k < nb; k++) {
		m->egress_min_bytes = k ? fmin(m->egress_min_bytes, bytes[k]) :
				      bytes[k];
		m->egress_max_bytes = k ? fmax(m->egress_max_bytes, bytes[k]) :
				      bytes[k];
		sum += bytes[k];
		if (cnt[k] < per)
			m->bursts_with_loss++;
	}
	if (m->bursts_analysed)
		m->egress_mean_bytes = sum / (double)nb;
	free(bytes);
	free(cnt);
	return 0;
}

int tm_flow_metrics(const struct bm_traffic *t,
		    const struct bm_traffic_result *r, const struct tm_flow *f,
		    enum tm_acct acct, struct tm_flow_metrics *m,
		    struct bm_error *err)
{
	int d = tm_acct_delta(acct);
	double first = INFINITY, last = -INFINITY;
	uint64_t dscp_sum, arrivals = 0;
	unsigned int i, k;

	memset(m, 0, sizeof(*m));
	for (k = 0; k < 64; k++)
		m->rx_dscp_bytes[k] = NAN;
	m->remarked_bytes = NAN;
	m->egress_min_bytes = m->egress_mean_bytes = NAN;
	m->egress_max_bytes = NAN;
	m->first_rx_s = m->last_rx_s = NAN;
	m->dscp = f->dscp;
	m->bursts = f->per_burst[0] ? f->bursts : 0;
	for (i = 0; i < f->n; i++) {
		const struct bm_stream_result *s = &r->streams[f->first + i];
		const struct bm_stream_spec *ss = &t->streams[f->first + i];

		/* a backend without the byte counters RFC 7640 needs would make
		 * every byte metric a silent 0 */
		if (s->sent && !s->tx_bytes)
			return bm_errorf(err, "the backend counted no bytes "
					 "sent (stream %u): it lacks the byte "
					 "counters TM metrics need",
					 f->first + i);
		if (s->received && !s->rx_bytes)
			return bm_errorf(err, "the backend counted no bytes "
					 "received (stream %u)", f->first + i);
		dscp_sum = 0;
		for (k = 0; k < 64; k++)
			dscp_sum += s->rx_dscp[k];
		if (s->received && !dscp_sum)
			return bm_errorf(err, "the backend counted no DSCP of "
					 "the frames received (stream %u, "
					 "REQ-RX-5)", f->first + i);
		if (s->received && ss->log_frames && !s->n_rx_log)
			return bm_errorf(err, "the backend kept no frame log "
					 "(stream %u asked for %u frames)",
					 f->first + i, ss->log_frames);
		m->sent += s->sent;
		m->received += s->received;
		m->lost += s->lost;
		m->reordered += s->reordered;
		m->tx_bytes += (double)s->tx_bytes + (double)s->sent * d;
		m->rx_bytes += (double)s->rx_bytes +
			       (double)(s->received + s->duplicated) * d;
		arrivals += s->received + s->duplicated;
		if (s->received && s->first_rx_s >= 0.0) {
			first = fmin(first, s->first_rx_s);
			last = fmax(last, s->last_rx_s);
		}
		for (k = 0; k < 64; k++) {
			m->rx_dscp[k] += s->rx_dscp[k];
			if (k != f->dscp)
				m->remarked_frames += s->rx_dscp[k];
		}
	}
	/* n arrivals span n - 1 gaps: the first one's bytes are not in */
	m->rx_rate_bps = arrivals >= 2 && last > first ?
			 m->rx_bytes * (double)(arrivals - 1) /
			 (double)arrivals * 8.0 / (last - first) : NAN;
	m->arrivals = arrivals;
	if (isfinite(first)) {
		m->first_rx_s = first;
		m->last_rx_s = last;
	}
	flow_pd(r, f, m);
	if (flow_log(r, f, d, m))
		return bm_errorf(err, "out of memory");
	return 0;
}

void tm_flow_calibrate(struct tm_flow_metrics *m, double cal_pd_ns,
		       double cal_pdv_ns)
{
	if (cal_pd_ns > 0 && m->pd_count) {
		m->pd_min_ns -= cal_pd_ns;
		m->pd_mean_ns -= cal_pd_ns;
		m->pd_p99_ns -= cal_pd_ns;
		m->pd_max_ns -= cal_pd_ns;
	}
	if (cal_pdv_ns > 0 && m->pd_count) {
		/* TM-MET-PDV: never negative; a PDV below the tester's own
		 * is below what the tester resolves */
		m->pdv_ns = fmax(0.0, m->pdv_ns - cal_pdv_ns);
		m->pdv_mean_ns = fmax(0.0, m->pdv_mean_ns - cal_pdv_ns);
	}
}

double tm_flow_tput(const struct tm_flow_metrics *m, double td_s)
{
	struct tm_egress e = TM_EGRESS_INIT;

	tm_egress_add(&e, m);
	return tm_egress_flow_tput(&e, m, td_s);
}

void tm_egress_add(struct tm_egress *e, const struct tm_flow_metrics *m)
{
	e->bytes += m->rx_bytes;
	e->arrivals += m->arrivals;
	if (isfinite(m->first_rx_s)) {
		e->first_s = fmin(e->first_s, m->first_rx_s);
		e->last_s = fmax(e->last_s, m->last_rx_s);
	}
}

double tm_egress_tput(const struct tm_egress *e, double td_s)
{
	double over_td = e->bytes * 8.0 / td_s;

	/* n arrivals span n - 1 gaps: the first one's bytes are not in */
	if (e->arrivals < 2 || !(e->last_s > e->first_s))
		return over_td;
	return fmin(over_td, e->bytes * (double)(e->arrivals - 1) /
			     (double)e->arrivals * 8.0 /
			     (e->last_s - e->first_s));
}

double tm_egress_flow_tput(const struct tm_egress *e,
			   const struct tm_flow_metrics *m, double td_s)
{
	double over_td = m->rx_bytes * 8.0 / td_s;

	/* from the egress's first arrival to the flow's own last: n
	 * arrivals span n - 1 gaps, the first one's bytes are not in */
	if (m->arrivals < 2 || !(m->last_rx_s > e->first_s))
		return over_td;
	return fmin(over_td, m->rx_bytes * (double)(m->arrivals - 1) /
			     (double)m->arrivals * 8.0 /
			     (m->last_rx_s - e->first_s));
}

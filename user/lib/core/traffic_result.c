// SPDX-License-Identifier: GPL-2.0
/*
 * The results of N-port traffic: per-stream results made and freed, the
 * IPDV of one and of all, and the per-port and total sums a trial's
 * result reports.  Apart from the traffic's making (traffic.c) because
 * it runs after a trial, on what a backend counted.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bm_traffic.h"
#include "traffic_int.h"

struct bm_traffic_result *bm_traffic_result_new(const struct bm_traffic *t)
{
	struct bm_traffic_result *r = calloc(1, sizeof(*r));
	unsigned int i;

	if (!r)
		return NULL;
	/* calloc(0) may return NULL; one spare entry keeps NULL = ENOMEM. */
	r->ports = calloc(t->n_ports ? t->n_ports : 1, sizeof(*r->ports));
	r->streams = calloc(t->n_streams ? t->n_streams : 1,
			    sizeof(*r->streams));
	if (!r->ports || !r->streams) {
		bm_traffic_result_free(r);
		return NULL;
	}
	r->n_ports = t->n_ports;
	r->n_streams = t->n_streams;
	for (i = 0; i < r->n_streams; i++) {
		struct bm_stream_result *s = &r->streams[i];

		s->first_tx_s = s->last_tx_s = -1;
		s->first_rx_s = s->last_rx_s = -1;
		bm_ipdv_set(s, 0, 0, 0, 0);
	}
	return r;
}

void bm_ipdv_set(struct bm_stream_result *s, uint64_t count, double min_ns,
		 double max_ns, double sum_ns)
{
	s->ipdv_count = count;
	s->ipdv_min_ns = count ? min_ns : NAN;
	s->ipdv_max_ns = count ? max_ns : NAN;
	s->ipdv_mean_ns = count ? sum_ns / (double)count : NAN;
}

void bm_ipdv_fold(const struct bm_traffic_result *r, uint64_t *count,
		  double *min_ns, double *mean_ns, double *max_ns)
{
	double sum = 0;
	unsigned int i;

	*count = 0;
	*min_ns = *mean_ns = *max_ns = NAN;
	for (i = 0; i < r->n_streams; i++) {
		const struct bm_stream_result *s = &r->streams[i];

		if (!s->ipdv_count)
			continue;
		*min_ns = *count ? fmin(*min_ns, s->ipdv_min_ns) :
			  s->ipdv_min_ns;
		*max_ns = *count ? fmax(*max_ns, s->ipdv_max_ns) :
			  s->ipdv_max_ns;
		sum += s->ipdv_mean_ns * (double)s->ipdv_count;
		*count += s->ipdv_count;
	}
	if (*count)
		*mean_ns = sum / (double)*count;
}

void bm_stream_result_free_logs(struct bm_stream_result *x)
{
	free(x->tx_log_s);
	free(x->rx_log);
	free(x->hw_log);
	x->tx_log_s = NULL;
	x->rx_log = NULL;
	x->hw_log = NULL;
	x->n_tx_log = x->n_rx_log = x->n_hw_log = 0;
}

void bm_traffic_result_free(struct bm_traffic_result *r)
{
	unsigned int i;

	if (!r)
		return;
	for (i = 0; r->streams && i < r->n_streams; i++)
		bm_stream_result_free_logs(&r->streams[i]);
	free(r->ports);
	free(r->streams);
	free(r);
}

/* Bytes of n frames of s: exact for one size, the imix mean otherwise
 * (which frames of the cycle were lost is not known). */
static uint64_t frame_bytes(const struct bm_traffic *t,
			    const struct bm_stream_spec *s, uint32_t frame_size,
			    uint64_t n)
{
	uint64_t sum = 0;
	unsigned int i;

	if (!s->imix)
		return n * (s->frame_size ? s->frame_size : frame_size);
	if (!t->n_imix || t->n_imix > BM_TRAFFIC_MAX_IMIX)
		return 0;
	for (i = 0; i < t->n_imix; i++)
		sum += t->imix[i];
	return n / t->n_imix * sum +
	       (uint64_t)llround((double)(n % t->n_imix) * sum / t->n_imix);
}

/* The bytes of n frames the backend counted (exact: a burst's last size,
 * which imix frames), else as frame_bytes() estimates them. */
static uint64_t stream_bytes(const struct bm_traffic *t,
			     const struct bm_stream_spec *s,
			     uint32_t frame_size, uint64_t n, uint64_t counted)
{
	return counted || !n ? counted : frame_bytes(t, s, frame_size, n);
}

static double l1_pct(uint64_t bytes, uint64_t frames, double span_s,
		     double line_rate_bps)
{
	if (!(span_s > 0) || !isfinite(span_s) ||
	    !traffic_rate_ok(line_rate_bps))
		return 0;
	return ((double)bytes + (double)frames * BM_L1_OVERHEAD) * 8.0 /
	       span_s / line_rate_bps * 100.0;
}

/* Pool the latency of every stream with samples into *l. */
static void sum_latency(const struct bm_traffic_result *r, unsigned int n,
			struct bm_latency *l)
{
	const struct bm_latency *one = NULL;
	double total = 0, mean = 0, ss = 0;
	unsigned int i, with = 0;

	memset(l, 0, sizeof(*l));
	for (i = 0; i < n; i++) {
		const struct bm_latency *x = &r->streams[i].latency;

		if (!x->count)
			continue;
		if (!with || x->min_ns < l->min_ns)
			l->min_ns = x->min_ns;
		if (!with || x->max_ns > l->max_ns)
			l->max_ns = x->max_ns;
		with++;
		l->count += x->count;
		l->below_zero += x->below_zero;
		total += (double)x->count * x->mean_ns;
		one = x;
	}
	if (!l->count)
		return;
	mean = total / (double)l->count;
	/* REQ-STAT-2's sample stddev: the sum of squares about the pooled
	 * mean is each stream's own ((n-1) s^2) plus n (m - mean)^2. */
	for (i = 0; i < n; i++) {
		const struct bm_latency *x = &r->streams[i].latency;
		double d = x->mean_ns - mean;

		if (!x->count)
			continue;
		ss += (double)(x->count - 1) * x->stddev_ns * x->stddev_ns +
		      (double)x->count * d * d;
	}
	l->mean_ns = mean;
	l->stddev_ns = l->count > 1 ? sqrt(ss / (double)(l->count - 1)) : 0;
	/* Percentiles do not pool; a merged histogram is the backend's. */
	if (with == 1) {
		l->p50_ns = one->p50_ns;
		l->p90_ns = one->p90_ns;
		l->p99_ns = one->p99_ns;
		l->p999_ns = one->p999_ns;
	}
}

void bm_traffic_result_sum(const struct bm_traffic *t, uint32_t frame_size,
			   struct bm_traffic_result *r, double span_s,
			   struct bm_trial_result *sum)
{
	unsigned int np = r->n_ports < t->n_ports ? r->n_ports : t->n_ports;
	unsigned int ns = r->n_streams < t->n_streams ? r->n_streams :
			  t->n_streams;
	double first_tx = -1, last_tx = -1;
	unsigned int i;

	memset(r->ports, 0, r->n_ports * sizeof(*r->ports));
	sum->intended = sum->attempted = sum->received = 0;
	sum->lost = sum->duplicate = sum->reordered = 0;
	sum->first_rx_s = sum->last_rx_s = -1;
	for (i = 0; i < ns; i++) {
		const struct bm_stream_spec *s = &t->streams[i];
		const struct bm_stream_result *x = &r->streams[i];

		if (s->tx_port < np) {
			struct bm_port_result *p = &r->ports[s->tx_port];

			p->tx_frames += x->sent;
			p->tx_bytes += stream_bytes(t, s, frame_size, x->sent,
						    x->tx_bytes);
		}
		if (s->rx_port < np) {
			struct bm_port_result *p = &r->ports[s->rx_port];

			p->rx_frames += x->received;
			p->rx_bytes += stream_bytes(t, s, frame_size,
						    x->received, x->rx_bytes);
			p->lost += x->lost;
		}
		sum->intended += x->intended;
		sum->attempted += x->sent;
		sum->received += x->received;
		sum->lost += x->lost;
		sum->duplicate += x->duplicated;
		sum->reordered += x->reordered;
		if (x->first_rx_s >= 0 &&
		    (sum->first_rx_s < 0 || x->first_rx_s < sum->first_rx_s))
			sum->first_rx_s = x->first_rx_s;
		if (x->last_rx_s >= 0 && x->last_rx_s > sum->last_rx_s)
			sum->last_rx_s = x->last_rx_s;
		if (x->first_tx_s >= 0 &&
		    (first_tx < 0 || x->first_tx_s < first_tx))
			first_tx = x->first_tx_s;
		if (x->last_tx_s >= 0 && x->last_tx_s > last_tx)
			last_tx = x->last_tx_s;
	}
	for (i = 0; i < np; i++) {
		struct bm_port_result *p = &r->ports[i];
		double rate = t->ports[i].line_rate_bps;

		p->tx_load_pct = l1_pct(p->tx_bytes, p->tx_frames, span_s,
					rate);
		p->rx_load_pct = l1_pct(p->rx_bytes, p->rx_frames, span_s,
					rate);
	}
	sum->actual_duration_s = first_tx >= 0 && last_tx >= first_tx ?
				 last_tx - first_tx : 0;
	sum_latency(r, ns, &sum->latency);
}

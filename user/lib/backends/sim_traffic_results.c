// SPDX-License-Identifier: GPL-2.0
/*
 * The results of an N-port trial on the simulated DUT (sim_traffic.c):
 * each stream's logs made ready before the run, then its counts,
 * lateness, gaps and latency, the trial's totals and the modelled
 * hardware stamps after it.  Apart from the model because it only reads
 * what the run left in its state.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bm_hosts.h"
#include "sim_int.h"

double sim_traffic_secs(int64_t t)
{
	return t < 0 ? -1.0 : (double)t / TPS;
}

/*
 * The model of ports that stamp every frame in hardware: the
 * hardware latency is the model's, the software stamps come delay ns
 * later on the receive side, for every frame (the trial's latency
 * summary only: histograms and per-stream figures stay the model's).
 */
static void sim_hw_stamps(double delay, struct bm_trial_result *res)
{
	struct bm_hw_latency *h = &res->hw;
	struct bm_latency *l = &res->latency;

	h->on = true;
	snprintf(h->tx_filter, sizeof(h->tx_filter), "all");
	snprintf(h->rx_filter, sizeof(h->rx_filter), "all");
	h->tx_requests = h->tx_stamps = h->rx_stamps = h->count = l->count;
	h->min_ns = l->min_ns;
	h->mean_ns = l->mean_ns;
	h->max_ns = l->max_ns;
	h->accuracy_ns = 0.0;
	sim_lat_shift(l, delay);
	h->sw_mean_ns = l->mean_ns;
}

/* RFC 2544 §26.2's tagged frame of the first stream that tags one, as
 * bmgen.ko reports it (backend_genl_collect.c's marks). */
static void sim_traffic_tag(const struct tsim *S, double base_ns,
			    struct bm_trial_result *res)
{
	uint32_t f = S->spec->frame_size;
	unsigned int i;

	for (i = 0; i < S->ns; i++) {
		const struct tstream *s = &S->s[i];
		double fps;

		if (s->ss->tag_seq < 0)
			continue;
		fps = bm_stream_fps(S->t, s->ss, f);
		if (!(fps > 0))
			continue;
		res->tag_tx_s = bm_stream_start_s(S->t, s->ss, f) +
				(double)s->ss->tag_seq / fps;
		res->tag_received = s->tag_rx;
		res->tag_latency_ns = s->tag_rx ?
				      (double)s->tag_lat / TICKS_NS + base_ns :
				      0;
		return;
	}
}

/* Per-stream results into tr, then the ports and totals into res. */
void sim_traffic_results(struct tsim *S, struct bm_traffic_result *tr,
			 struct bm_trial_result *res)
{
	double base_ns = (double)S->base / TICKS_NS, span;
	int64_t first = -1, last = -1, shortfall = 0, stretch;
	unsigned int i, j;

	res->max_gap_s = 0;
	res->max_gap_start_s = 0;
	for (i = 0; i < S->ns; i++) {
		const struct tstream *s = &S->s[i];
		struct bm_stream_result *r = &tr->streams[i];

		/* zeroed by reset_results; the counts by size, DSCP and PCP,
		 * the reordered frames and the logs came in on the way */
		r->intended = s->n;
		r->sent = s->sent;
		r->received = s->rcvd;
		r->lost = s->sent - s->rcvd;
		r->n_tx_log = s->sent < s->log_cap ? s->sent : s->log_cap;
		r->tx_late_max_s = s->late_max > 0 ? s->late_max / TPS : 0;
		if (s->ss->pattern == BM_STREAM_BURSTS) {
			r->tx_burst_late_max_s = s->burst_late_max / TPS;
			bm_trial_burst_late_add(res, r->tx_burst_late_max_s);
		}
		for (j = 0; j < BM_TX_STALLS; j++) {
			r->tx_stalls_s[j] = s->stalls[j] / TPS;
			bm_trial_stall_add(res->tx_stalls_s, r->tx_stalls_s[j]);
		}
		r->first_tx_s = sim_traffic_secs(s->tx_first);
		r->last_tx_s = sim_traffic_secs(s->tx_last);
		r->first_rx_s = sim_traffic_secs(s->rx_first);
		r->last_rx_s = sim_traffic_secs(s->rx_last);
		if (S->latency) {
			sim_lat_summary(&s->lat, &s->lat.h, base_ns,
					&r->latency);
			bm_ipdv_set(r, s->lat.ipdv_n,
				    (double)s->lat.ipdv_min / TICKS_NS,
				    (double)s->lat.ipdv_max / TICKS_NS,
				    (double)s->lat.ipdv_sum / TICKS_NS);
			r->pdv_ns = s->lat.n ? (double)(s->lat.max -
						s->lat.min) / TICKS_NS : 0;
		}
		if (s->gap > 0 && s->gap / TPS > res->max_gap_s) {
			res->max_gap_s = s->gap / TPS;
			res->max_gap_start_s = sim_traffic_secs(s->gap_at);
		}
		if (s->sent) {
			if (first < 0 || s->tx_first < first)
				first = s->tx_first;
			if (s->tx_last > last)
				last = s->tx_last;
		}
		/* REQ-GEN-6, MLR §5.1: whole intervals a paced stream's last
		 * frame left behind its schedule */
		if (s->ss->pattern != BM_STREAM_BURSTS && s->sent > 1) {
			stretch = (s->tx_last - s->tx_first) -
				  (s->sched_last - s->start);
			if (stretch > 0)
				shortfall += (int64_t)floor((double)stretch /
							    s->iv);
		}
	}
	span = first >= 0 ? (double)(last - first) / TPS : 0;
	bm_traffic_result_sum(S->t, S->spec->frame_size, tr, span, res);
	sim_traffic_tag(S, base_ns, res);
	if (S->latency && res->latency.count) {
		/* percentiles of all streams together, from all samples */
		double mn = (res->latency.min_ns - base_ns) * TICKS_NS;
		double mx = (res->latency.max_ns - base_ns) * TICKS_NS;
		uint64_t n = res->latency.count;

		res->latency.p50_ns = base_ns +
			sim_lat_hist_pct(&S->all, n, 0.50, mn, mx) / TICKS_NS;
		res->latency.p90_ns = base_ns +
			sim_lat_hist_pct(&S->all, n, 0.90, mn, mx) / TICKS_NS;
		res->latency.p99_ns = base_ns +
			sim_lat_hist_pct(&S->all, n, 0.99, mn, mx) / TICKS_NS;
		res->latency.p999_ns = base_ns +
			sim_lat_hist_pct(&S->all, n, 0.999, mn, mx) / TICKS_NS;
		sim_lat_hist_fold(&S->all, base_ns, res->lat_hist);
	}
	if (S->latency && res->latency.count && S->p->sw_stamp_delay_ns > 0)
		sim_hw_stamps(S->p->sw_stamp_delay_ns, res);
	res->late = S->late;
	res->tx_late_frames = S->late_frames;
	res->tx_late_max_s = S->late_max > 0 ? S->late_max / TPS : 0;
	res->shortfall = (uint64_t)shortfall;
	res->generator_limited = S->late_frames > 0 || shortfall > 0;
	snprintf(res->ts_source, sizeof(res->ts_source), "sim");
	res->late_watch_s = -1;	/* the model knows every late frame */
}

/* Stream i's hardware stamp log on a pool host (s->hw_*), its ports
 * stamping every frame; 0 or -ENOMEM. */
static int sim_hw_half(struct tsim *S, unsigned int i, struct tstream *s)
{
	const char *host = S->spec->host;
	enum bm_half h;

	s->hw_side = 0;
	s->hw_cap = 0;
	if (!host || !(S->p->sw_stamp_delay_ns > 0) || !S->latency)
		return 0;
	h = bm_stream_half(S->t, s->ss, host);
	if (h != BM_HALF_TX && h != BM_HALF_RX)
		return 0;
	s->hw_cap = bm_hw_log_plan(S->t, i, s->n, &s->hw_every);
	if (!s->hw_cap)
		return 0;
	s->hw_side = (uint8_t)h;
	s->r->hw_log = calloc(s->hw_cap, sizeof(*s->r->hw_log));
	return s->r->hw_log ? 0 : -ENOMEM;
}

void sim_hw_part(const struct bm_trial_spec *spec,
		 const struct bm_traffic_result *tr, double delay_ns,
		 struct bm_trial_result *res)
{
	const struct bm_traffic *t = spec->traffic;
	struct bm_hw_latency *h = &res->hw;
	unsigned int k;

	memset(h, 0, sizeof(*h));
	h->on = true;
	snprintf(h->tx_filter, sizeof(h->tx_filter), "all");
	snprintf(h->rx_filter, sizeof(h->rx_filter), "all");
	for (k = 0; k < t->n_streams && k < tr->n_streams; k++) {
		const struct bm_latency *l = &tr->streams[k].latency;
		uint64_t n = tr->streams[k].n_hw_log;

		switch (bm_stream_half(t, &t->streams[k], spec->host)) {
		case BM_HALF_TX:
			h->tx_requests += n;
			h->tx_stamps += n;
			break;
		case BM_HALF_RX:
			h->rx_stamps += n;
			break;
		case BM_HALF_BOTH:
			/* paired on this host: every frame it timed */
			if (!l->count)
				break;
			h->min_ns = h->count ? fmin(h->min_ns, l->min_ns) :
				    l->min_ns;
			h->max_ns = h->count ? fmax(h->max_ns, l->max_ns) :
				    l->max_ns;
			h->mean_ns += l->mean_ns * (double)l->count;
			h->count += l->count;
			h->tx_requests += l->count;
			h->tx_stamps += l->count;
			h->rx_stamps += l->count;
			break;
		default:
			break;
		}
	}
	if (h->count) {
		h->mean_ns /= (double)h->count;
		h->sw_mean_ns = h->mean_ns + delay_ns;
	}
}

/*
 * Zero each stream's result in tr (freeing the logs of an earlier trial)
 * and give it logs of log_frames frames, at most its frame count; point
 * the streams at them.  0 or -ENOMEM.
 */
int sim_traffic_reset_results(struct tsim *S, struct bm_traffic_result *tr)
{
	unsigned int i;

	for (i = 0; i < S->ns; i++) {
		struct tstream *s = &S->s[i];
		struct bm_stream_result *r = &tr->streams[i];
		uint64_t cap = s->ss->log_frames;

		bm_stream_result_free_logs(r);
		memset(r, 0, sizeof(*r));
		s->r = r;
		if (sim_hw_half(S, i, s))
			return -ENOMEM;
		s->log_cap = (uint32_t)(cap < s->n ? cap : s->n);
		if (!s->log_cap)
			continue;
		r->tx_log_s = calloc(s->log_cap, sizeof(*r->tx_log_s));
		r->rx_log = calloc(s->log_cap, sizeof(*r->rx_log));
		if (!r->tx_log_s || !r->rx_log)
			return -ENOMEM;
	}
	return 0;
}

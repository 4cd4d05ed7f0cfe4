// SPDX-License-Identifier: GPL-2.0
/*
 * NIC hardware stamps across a pool's hosts (bm_hosts.h).  A stream whose
 * halves are on two hosts leaves one NIC and arrives at another, each
 * with its own PHC: no module sees both stamps.  Each host's module logs
 * its half's (STREAM_HW_LOG), of the same frames on both hosts
 * (bm_hw_log_plan), the parts carry the logs, and the merge pairs the
 * sender's tx stamps with the receiver's rx stamps by seq.  Both are ns
 * since the trial's epoch, the one CLOCK_TAI instant every part started
 * at, each on its host's clock (PHC less its offset to that clock): a
 * pair is the one-way latency off by the two hosts' sync error, which
 * its stated accuracy adds to both hosts' PHC offsets' uncertainty.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hosts_int.h"

/* The stamps a trial's logs hold at most, shared by its streams across
 * hosts (32 B each in the module, ~40 B each in a part's JSON), and each
 * stream's least and most of them. */
#define BM_HW_LOG_TRIAL		65536u
#define BM_HW_LOG_STREAM_MIN	16u
#define BM_HW_LOG_STREAM_MAX	BM_TRAFFIC_MAX_HW_LOG

/* One half's log, as its host's part reported it. */
struct hw_half {
	struct bm_hw_stamp *log;
	size_t n;
	double accuracy_ns;	/* its host's PHC offsets' */
};

struct bm_pool_hw {
	unsigned int n_streams;
	struct hw_half (*half)[2];	/* per stream: sender's, receiver's */
	bool tx_filter, rx_filter;	/* named yet */
	double host_accuracy_ns;	/* the most any host stated */
	/* the pairs the hosts' modules made (a stream on one host), and
	 * the most accuracy_ns those hosts stated */
	uint64_t local;
	double local_accuracy_ns;
	/* every pair: the modules' and the merge's (across hosts) */
	uint64_t n;
	double min, max, sum, sw_sum;
};

static bool stream_across(const struct bm_traffic *t,
			  const struct bm_stream_spec *s)
{
	return s->tx_port < t->n_ports && s->rx_port < t->n_ports &&
	       strcmp(t->ports[s->tx_port].host, t->ports[s->rx_port].host);
}

uint32_t bm_hw_log_plan(const struct bm_traffic *t, unsigned int k,
			uint64_t intended, uint32_t *every)
{
	unsigned int j, across = 0;
	uint64_t cap, e;

	*every = 1;
	if (k >= t->n_streams || !stream_across(t, &t->streams[k]))
		return 0;
	for (j = 0; j < t->n_streams; j++)
		across += stream_across(t, &t->streams[j]);
	cap = BM_HW_LOG_TRIAL / across;
	if (cap < BM_HW_LOG_STREAM_MIN)
		cap = BM_HW_LOG_STREAM_MIN;
	if (cap > BM_HW_LOG_STREAM_MAX)
		cap = BM_HW_LOG_STREAM_MAX;
	e = (intended + cap - 1) / cap;
	*every = e > UINT32_MAX ? UINT32_MAX : e > 1 ? (uint32_t)e : 1;
	return (uint32_t)cap;
}

void bm_pool_hw_init(struct bm_pool_merge *m)
{
	struct bm_pool_hw *w = calloc(1, sizeof(*w));

	m->hw = w;
	if (!w)
		return;
	w->n_streams = m->t->n_streams;
	w->half = calloc(w->n_streams ? w->n_streams : 1, sizeof(*w->half));
	if (!w->half) {
		free(w);
		m->hw = NULL;
	}
}

void bm_pool_hw_take(struct bm_pool_merge *m, unsigned int k, enum bm_half h,
		     struct bm_stream_result *x,
		     const struct bm_trial_result *pres)
{
	struct hw_half *to;

	if (!x->hw_log)
		return;
	if (m->hw && k < m->hw->n_streams &&
	    (h == BM_HALF_TX || h == BM_HALF_RX)) {
		to = &m->hw->half[k][h == BM_HALF_RX];
		free(to->log);
		to->log = x->hw_log;
		to->n = x->n_hw_log;
		to->accuracy_ns = pres->hw.accuracy_ns;
	} else {
		free(x->hw_log);
	}
	x->hw_log = NULL;
	x->n_hw_log = 0;
}

/* n pairs whose least, largest and summed latency are min, max and sum,
 * and their summed software latency sw_sum, into w. */
static void pairs_add(struct bm_pool_hw *w, uint64_t n, double min,
		      double max, double sum, double sw_sum)
{
	if (!n)
		return;
	w->min = w->n ? fmin(w->min, min) : min;
	w->max = w->n ? fmax(w->max, max) : max;
	w->n += n;
	w->sum += sum;
	w->sw_sum += sw_sum;
}

void bm_pool_hw_add(struct bm_pool_merge *m, unsigned int sides,
		    const struct bm_trial_result *pres)
{
	const struct bm_hw_latency *h = &pres->hw;
	struct bm_hw_latency *d = &m->res->hw;
	struct bm_pool_hw *w = m->hw;

	if (!h->on)
		return;
	d->on = true;
	d->tx_requests += h->tx_requests;
	d->tx_stamps += h->tx_stamps;
	d->rx_stamps += h->rx_stamps;
	if (!w)
		return;
	/* the filter a sending port took, and a receiving one's */
	if ((sides & BM_HALF_TX) && !w->tx_filter) {
		memcpy(d->tx_filter, h->tx_filter, sizeof(d->tx_filter));
		w->tx_filter = true;
	}
	if ((sides & BM_HALF_RX) && !w->rx_filter) {
		memcpy(d->rx_filter, h->rx_filter, sizeof(d->rx_filter));
		w->rx_filter = true;
	}
	w->host_accuracy_ns = fmax(w->host_accuracy_ns, h->accuracy_ns);
	if (!h->count)
		return;
	w->local += h->count;
	w->local_accuracy_ns = fmax(w->local_accuracy_ns, h->accuracy_ns);
	pairs_add(w, h->count, h->min_ns, h->max_ns,
		  h->mean_ns * (double)h->count,
		  h->sw_mean_ns * (double)h->count);
}

static int stamp_cmp(const void *a, const void *b)
{
	const struct bm_hw_stamp *x = a, *y = b;

	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Pair stream k's sender's stamps with its receiver's into w; how many
 * pairs, and their accuracy (both hosts' offsets') in *acc. */
static uint64_t pair_stream(struct bm_pool_hw *w, unsigned int k,
			    double *acc)
{
	struct hw_half *tx = &w->half[k][0], *rx = &w->half[k][1];
	const struct bm_hw_stamp *r;
	uint64_t n = 0;
	size_t i;

	if (!tx->n || !rx->n)
		return 0;
	qsort(rx->log, rx->n, sizeof(*rx->log), stamp_cmp);
	*acc = fmax(*acc, tx->accuracy_ns + rx->accuracy_ns);
	for (i = 0; i < tx->n; i++) {
		double lat;

		r = bsearch(&tx->log[i], rx->log, rx->n, sizeof(*rx->log),
			    stamp_cmp);
		if (!r)
			continue;	/* lost, or not stamped there */
		lat = (double)(r->ns - tx->log[i].ns);
		pairs_add(w, 1, lat, lat, lat, (double)r->sw_lat_ns);
		n++;
	}
	return n;
}

void bm_pool_hw_end(struct bm_pool_merge *m)
{
	struct bm_hw_latency *d = &m->res->hw;
	struct bm_pool_hw *w = m->hw;
	uint64_t across = 0;
	double acc = 0;
	unsigned int k;

	if (!w)
		return;
	for (k = 0; k < w->n_streams; k++) {
		across += pair_stream(w, k, &acc);
		free(w->half[k][0].log);
		free(w->half[k][1].log);
	}
	if (d->on) {
		d->across = across;
		d->count = w->n;
		d->accuracy_ns = w->local ? w->local_accuracy_ns :
				 w->host_accuracy_ns;
		d->sync_error_ns = NAN;
		if (across) {
			/* pairs on two hosts' clocks: their sync error too
			 * (unknown when a host was unread: the trial's sync
			 * record says so and flags it) */
			d->sync_error_ns = m->res->sync.error_ns;
			acc += isfinite(d->sync_error_ns) ?
			       d->sync_error_ns : 0;
			d->accuracy_ns = w->local ?
					 fmax(d->accuracy_ns, acc) : acc;
		}
		if (w->n) {
			d->min_ns = w->min;
			d->max_ns = w->max;
			d->mean_ns = w->sum / (double)w->n;
			d->sw_mean_ns = w->sw_sum / (double)w->n;
		}
	}
	free(w->half);
	free(w);
	m->hw = NULL;
}

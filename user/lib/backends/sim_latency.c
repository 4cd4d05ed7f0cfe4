// SPDX-License-Identifier: GPL-2.0
/*
 * The N-port model's latency (sim_traffic.c): each stream's moments, its
 * IPDV as bmgen.ko's receiver takes it, and a log-linear histogram from
 * which the percentiles come.  Apart from the model because it knows
 * nothing of ports, queues or events: samples in ticks in, a latency
 * summary out.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim_int.h"

static void hist_at(uint64_t v, unsigned int *pg, unsigned int *sub)
{
	unsigned int e;

	if (v < HIST_SUB) {
		*pg = 0;
		*sub = (unsigned int)v;
		return;
	}
	e = 63 - (unsigned int)__builtin_clzll(v);
	*pg = e - HIST_BITS + 1;
	*sub = (unsigned int)(v >> (e - HIST_BITS)) - HIST_SUB;
}

bool sim_lat_hist_add(struct hist *h, uint64_t v)
{
	unsigned int pg, sub;

	hist_at(v, &pg, &sub);
	if (!h->pg[pg]) {
		h->pg[pg] = calloc(HIST_SUB, sizeof(*h->pg[pg]));
		if (!h->pg[pg])
			return false;
	}
	h->pg[pg][sub]++;
	return true;
}

void sim_lat_hist_free(struct hist *h)
{
	unsigned int i;

	for (i = 0; i < HIST_PAGES; i++)
		free(h->pg[i]);
	memset(h, 0, sizeof(*h));
}

/* The rank-th smallest sample (1-based), as the middle of its bucket. */
static double hist_rank(const struct hist *h, uint64_t rank)
{
	uint64_t c = 0;
	unsigned int pg, sub;
	double w;

	for (pg = 0; pg < HIST_PAGES; pg++) {
		if (!h->pg[pg])
			continue;
		for (sub = 0; sub < HIST_SUB; sub++) {
			c += h->pg[pg][sub];
			if (c < rank)
				continue;
			if (!pg)
				return sub;
			w = ldexp(1.0, (int)pg - 1);
			return (HIST_SUB + sub + 0.5) * w;
		}
	}
	return 0;
}

/* Fold h (ticks, offset base_ns) into a report's BM_LAT_HIST histogram,
 * each bucket of ours at its middle (ours are 0.4 % wide). */
void sim_lat_hist_fold(const struct hist *h, double base_ns, uint64_t *out)
{
	unsigned int pg, sub;
	double v;

	for (pg = 0; pg < HIST_PAGES; pg++) {
		if (!h->pg[pg])
			continue;
		for (sub = 0; sub < HIST_SUB; sub++) {
			if (!h->pg[pg][sub])
				continue;
			v = pg ? (HIST_SUB + sub + 0.5) * ldexp(1.0, (int)pg - 1) :
			    sub;
			out[bm_lat_hist_index(base_ns + v / TICKS_NS)] +=
				h->pg[pg][sub];
		}
	}
}

/* Percentile q of n samples in [mn, mx] ticks: nearest rank. */
double sim_lat_hist_pct(const struct hist *h, uint64_t n, double q,
			double mn, double mx)
{
	double r = ceil(q * (double)n - 1e-9);
	uint64_t rank = r < 1 ? 1 : (uint64_t)r;

	if (rank > n)
		rank = n;
	return fmin(mx, fmax(mn, hist_rank(h, rank)));
}

bool sim_lat_add(struct lat_acc *a, int64_t v, uint64_t seq)
{
	double d;

	if (a->n) {
		if (seq == a->prev_seq + 1) {
			int64_t dv = v - a->prev;

			if (!a->ipdv_n || dv < a->ipdv_min)
				a->ipdv_min = dv;
			if (!a->ipdv_n || dv > a->ipdv_max)
				a->ipdv_max = dv;
			a->ipdv_sum += dv;
			a->ipdv_n++;
		}
		if (v < a->min)
			a->min = v;
		if (v > a->max)
			a->max = v;
	} else {
		a->min = a->max = v;
	}
	a->prev = v;
	a->prev_seq = seq;
	a->n++;
	d = (double)v - a->mean;
	a->mean += d / (double)a->n;
	a->m2 += d * ((double)v - a->mean);
	return sim_lat_hist_add(&a->h, (uint64_t)v);
}

void sim_lat_summary(const struct lat_acc *a, const struct hist *h,
		     double base_ns, struct bm_latency *l)
{
	double mn = (double)a->min, mx = (double)a->max;

	memset(l, 0, sizeof(*l));
	if (!a->n)
		return;
	l->count = a->n;
	l->min_ns = base_ns + mn / TICKS_NS;
	l->max_ns = base_ns + mx / TICKS_NS;
	l->mean_ns = base_ns + a->mean / TICKS_NS;
	l->stddev_ns = a->n > 1 ? sqrt(a->m2 / (double)(a->n - 1)) / TICKS_NS :
		       0;
	l->p50_ns = base_ns +
		     sim_lat_hist_pct(h, a->n, 0.50, mn, mx) / TICKS_NS;
	l->p90_ns = base_ns +
		     sim_lat_hist_pct(h, a->n, 0.90, mn, mx) / TICKS_NS;
	l->p99_ns = base_ns +
		     sim_lat_hist_pct(h, a->n, 0.99, mn, mx) / TICKS_NS;
	l->p999_ns = base_ns +
		      sim_lat_hist_pct(h, a->n, 0.999, mn, mx) / TICKS_NS;
}

/*
 * The share of a latency distribution below zero, from its summary: all
 * or none when min and max agree, else linear between the percentiles
 * around zero (the model keeps no samples by then).
 */
static double below_zero_share(const struct bm_latency *l)
{
	const double q[] = { 0, 0.50, 0.90, 0.99, 0.999, 1 };
	const double v[] = { l->min_ns, l->p50_ns, l->p90_ns, l->p99_ns,
			     l->p999_ns, l->max_ns };
	unsigned int i;

	if (l->max_ns < 0)
		return 1;
	if (!(l->min_ns < 0))
		return 0;
	for (i = 1; i < 6; i++)
		if (v[i] >= 0)
			return v[i] > v[i - 1] ?
			       q[i - 1] + (q[i] - q[i - 1]) *
			       -v[i - 1] / (v[i] - v[i - 1]) : q[i - 1];
	return 1;
}

void sim_lat_shift(struct bm_latency *l, double e_ns)
{
	if (!l->count)
		return;
	l->min_ns += e_ns;
	l->mean_ns += e_ns;
	l->max_ns += e_ns;
	l->p50_ns += e_ns;
	l->p90_ns += e_ns;
	l->p99_ns += e_ns;
	l->p999_ns += e_ns;
	l->below_zero = (uint64_t)llround(below_zero_share(l) *
					  (double)l->count);
}

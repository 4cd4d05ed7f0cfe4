// SPDX-License-Identifier: GPL-2.0
/*
 * Arithmetic on a stream's statistics as the module reported them: the
 * lanes of one logical stream merged, and the latency summary from the
 * sums and the histogram.  Apart from the dumps (genl_stats.c) because
 * no netlink is involved: structs in, structs out.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bmgen.h>

#include "bm_genl.h"

void bm_genl_stats_merge(struct bm_genl_stats *sum,
			 const struct bm_genl_stats *st)
{
	uint64_t lo;
	uint32_t i;

	for (i = 0; i < BMGEN_HIST_BUCKETS; i++)
		sum->hist[i] += st->hist[i];
	sum->hw_tx_requests += st->hw_tx_requests;
	sum->hw_tx_stamps += st->hw_tx_stamps;
	sum->hw_rx_stamps += st->hw_rx_stamps;
	if (st->hw_lat_count) {
		if (!sum->hw_lat_count || st->hw_lat_min_ns < sum->hw_lat_min_ns)
			sum->hw_lat_min_ns = st->hw_lat_min_ns;
		if (!sum->hw_lat_count || st->hw_lat_max_ns > sum->hw_lat_max_ns)
			sum->hw_lat_max_ns = st->hw_lat_max_ns;
		sum->hw_lat_count += st->hw_lat_count;
		sum->hw_lat_sum_ns += st->hw_lat_sum_ns;
		sum->hw_lat_sw_sum_ns += st->hw_lat_sw_sum_ns;
	}
	if (!st->lat_count)
		return;
	if (!sum->lat_count || st->lat_min_ns < sum->lat_min_ns)
		sum->lat_min_ns = st->lat_min_ns;
	if (!sum->lat_count || st->lat_max_ns > sum->lat_max_ns)
		sum->lat_max_ns = st->lat_max_ns;
	sum->lat_count += st->lat_count;
	sum->lat_below_zero += st->lat_below_zero;
	sum->lat_sum_ns += st->lat_sum_ns;
	/* 128-bit sum of squares, carried by hand */
	lo = sum->lat_sumsq_lo + st->lat_sumsq_lo;
	sum->lat_sumsq_hi += st->lat_sumsq_hi + (lo < st->lat_sumsq_lo);
	sum->lat_sumsq_lo = lo;
}

/* The earlier of two event times, where v counts the frames of b's. */
static void lane_first(uint64_t *a, uint64_t have_a, uint64_t b, uint64_t v)
{
	if (v && (!have_a || b < *a))
		*a = b;
}

void bm_genl_stats_lane_add(struct bm_genl_stats *st,
			    const struct bm_genl_stats *lane)
{
	unsigned int i;

	lane_first(&st->tx_first_ns, st->tx_frames, lane->tx_first_ns,
		   lane->tx_frames);
	lane_first(&st->rx_first_ns, st->rx_frames, lane->rx_first_ns,
		   lane->rx_frames);
	if (lane->tx_frames && lane->tx_last_ns > st->tx_last_ns)
		st->tx_last_ns = lane->tx_last_ns;
	if (lane->rx_frames && lane->rx_last_ns > st->rx_last_ns)
		st->rx_last_ns = lane->rx_last_ns;
	if (lane->ipdv_count) {
		if (!st->ipdv_count || lane->ipdv_min_ns < st->ipdv_min_ns)
			st->ipdv_min_ns = lane->ipdv_min_ns;
		if (!st->ipdv_count || lane->ipdv_max_ns > st->ipdv_max_ns)
			st->ipdv_max_ns = lane->ipdv_max_ns;
	}
	st->ipdv_count += lane->ipdv_count;
	st->ipdv_sum_ns += lane->ipdv_sum_ns;
	st->tx_frames += lane->tx_frames;
	st->tx_bytes += lane->tx_bytes;
	st->tx_retries += lane->tx_retries;
	st->tx_errors += lane->tx_errors;
	st->tx_late_frames += lane->tx_late_frames;
	st->tx_ring_misses += lane->tx_ring_misses;
	st->rx_frames += lane->rx_frames;
	st->rx_bytes += lane->rx_bytes;
	st->rx_unique += lane->rx_unique;
	st->rx_late += lane->rx_late;
	st->rx_in_order += lane->rx_in_order;
	st->rx_reordered += lane->rx_reordered;
	st->rx_dup += lane->rx_dup;
	st->rx_gap_events += lane->rx_gap_events;
	st->rx_gap_frames += lane->rx_gap_frames;
	st->rx_bad_len += lane->rx_bad_len;
	st->rx_learn += lane->rx_learn;
	st->rx_cpu_split += lane->rx_cpu_split;
	st->rx_untagged += lane->rx_untagged;
	st->log_tx += lane->log_tx;
	st->log_rx += lane->log_rx;
	for (i = 0; i < 64; i++)
		st->rx_dscp[i] += lane->rx_dscp[i];
	for (i = 0; i < 8; i++)
		st->rx_pcp[i] += lane->rx_pcp[i];
	if (lane->tx_late_max_ns > st->tx_late_max_ns)
		st->tx_late_max_ns = lane->tx_late_max_ns;
	if (lane->tx_burst_late_max_ns > st->tx_burst_late_max_ns)
		st->tx_burst_late_max_ns = lane->tx_burst_late_max_ns;
	if (lane->tx_max_batch > st->tx_max_batch)
		st->tx_max_batch = lane->tx_max_batch;
	if (lane->tag_seen) {		/* one lane carries the tag */
		st->tag_seen = true;
		st->tag_lat_ns = lane->tag_lat_ns;
	}
	/* a lane's own longest silence: the stream's is at most that */
	if (lane->rx_max_iat_ns > st->rx_max_iat_ns) {
		st->rx_max_iat_ns = lane->rx_max_iat_ns;
		st->rx_max_iat_start_ns = lane->rx_max_iat_start_ns;
	}
	for (i = 0; i < BMGEN_TX_STALLS; i++) {
		uint64_t v = lane->tx_stalls_ns[i];
		int j = BMGEN_TX_STALLS - 1;

		if (v <= st->tx_stalls_ns[j])
			break;	/* largest first: the rest are smaller */
		for (; j > 0 && st->tx_stalls_ns[j - 1] < v; j--)
			st->tx_stalls_ns[j] = st->tx_stalls_ns[j - 1];
		st->tx_stalls_ns[j] = v;
	}
	st->tx_done = st->tx_done && lane->tx_done;
	if (lane->tx_frames && lane->tx_path != st->tx_path)
		st->tx_path = st->tx_frames == lane->tx_frames ?
			      lane->tx_path : BM_GENL_TXP_MIXED;
	bm_genl_stats_merge(st, lane);
}

void bm_genl_stats_free(struct bm_genl_stats *st)
{
	free(st->hist);
	st->hist = NULL;
}

/*
 * The latency below which a fraction q of the samples lie (bucket middle).
 * The histogram has no bucket below zero: its bucket 0 holds the
 * below_zero samples (across hosts) first, taken as one bucket from
 * min_ns to 0, then those from 0 up to its upper edge.
 */
static double bm_hist_quantile(const uint64_t *hist, uint64_t count,
			       uint64_t below_zero, double min_ns, double q)
{
	uint64_t want = (uint64_t)ceil(q * (double)count), seen = 0;
	uint32_t i;

	if (!want)
		want = 1;
	if (want <= below_zero)
		return min_ns / 2;
	for (i = 0; i < BMGEN_HIST_BUCKETS; i++) {
		seen += hist[i];
		if (seen >= want) {
			double lo = (double)bmgen_hist_lower_ns(i);
			double hi = i + 1 < BMGEN_HIST_BUCKETS ?
				    (double)bmgen_hist_lower_ns(i + 1) : lo;

			return (lo + hi) / 2;
		}
	}
	return 0;
}

void bm_genl_stats_latency(const struct bm_genl_stats *st, struct bm_latency *l)
{
	double n = (double)st->lat_count, sumsq, var;
	unsigned int i;
	static const double q[4] = { 0.50, 0.90, 0.99, 0.999 };
	double *p[4] = { &l->p50_ns, &l->p90_ns, &l->p99_ns, &l->p999_ns };

	memset(l, 0, sizeof(*l));
	l->count = st->lat_count;
	if (!st->lat_count)
		return;
	l->below_zero = st->lat_below_zero;
	l->min_ns = (double)st->lat_min_ns;
	l->max_ns = (double)st->lat_max_ns;
	l->mean_ns = (double)st->lat_sum_ns / n;
	sumsq = ldexp((double)st->lat_sumsq_hi, 64) + (double)st->lat_sumsq_lo;
	var = n > 1 ? (sumsq - n * l->mean_ns * l->mean_ns) / (n - 1) : 0;
	l->stddev_ns = var > 0 ? sqrt(var) : 0;
	if (!st->hist)
		return;
	for (i = 0; i < 4; i++)
		*p[i] = bm_hist_quantile(st->hist, st->lat_count,
					 st->lat_below_zero, l->min_ns, q[i]);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * A pool host's clock off true time (sim.clock_error_ns), as its part's
 * measurements carry it: a frame another host sent arrives here at its
 * true time plus the error, so the latency this host's half measures is
 * off by it, below zero when the clock is behind by more than the path
 * (RFC 2544 §26.2 across hosts, Documentation/multi-host.md).  Apart from
 * sim.c because it only rewrites results the models made.
 */
#include <math.h>

#include "bm_hosts.h"
#include "sim_int.h"

/* A histogram's buckets moved by e_ns, each whole from its lower edge
 * (below zero: bucket 0, as the module counts it). */
static void hist_shift(uint64_t *h, double e_ns)
{
	uint64_t moved[BM_LAT_HIST_BUCKETS] = { 0 };
	unsigned int i;

	for (i = 0; i < BM_LAT_HIST_BUCKETS; i++)
		if (h[i])
			moved[bm_lat_hist_index(fmax(0, bm_lat_hist_lower_ns(i) +
							e_ns))] += h[i];
	for (i = 0; i < BM_LAT_HIST_BUCKETS; i++)
		h[i] = moved[i];
}

void sim_clock_error_part(const struct bm_trial_spec *spec, double e_ns,
			  struct bm_trial_result *res)
{
	const struct bm_traffic *t = spec->traffic;
	struct bm_traffic_result *tr = spec->traffic_res;
	bool first_rx = false, tag_rx = false;
	unsigned int k;
	size_t i;

	if (!(e_ns != 0) || !spec->host || !spec->host[0])
		return;
	for (k = 0; k < t->n_streams && k < tr->n_streams; k++) {
		struct bm_stream_result *r = &tr->streams[k];

		/* a stream both of whose ends are here reads one clock */
		if (bm_stream_half(t, &t->streams[k], spec->host) !=
		    BM_HALF_RX)
			continue;
		if (!k)
			first_rx = true;
		if (t->streams[k].tag_seq >= 0)
			tag_rx = true;
		sim_lat_shift(&r->latency, e_ns);
		for (i = 0; i < r->n_hw_log; i++) {
			r->hw_log[i].ns += (int64_t)llround(e_ns);
			r->hw_log[i].sw_lat_ns += (int64_t)llround(e_ns);
		}
	}
	if (first_rx) {
		sim_lat_shift(&res->latency, e_ns);
		hist_shift(res->lat_hist, e_ns);
	}
	if (tag_rx && res->tag_received)
		res->tag_latency_ns += e_ns;
}

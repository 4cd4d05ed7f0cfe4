// SPDX-License-Identifier: GPL-2.0
/*
 * An N-port trial's results read back from bmgen.ko
 * (backend_genl_traffic.c): each logical stream's statistics with its
 * lanes merged, its frame log, the totals and the merged latency
 * histogram, the late frames watched for after the drain (REQ-RX-3),
 * and the generator's shortfall (REQ-GEN-6).  Apart from the trial
 * because it runs once the module has stopped counting, on what it
 * counted.
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bmgen.h>

#include "backend_genl_int.h"
#include "bm_hosts.h"
#include "bm_traffic.h"

bool bm_genl_stream_here(const struct bm_genl_backend *b, unsigned int k)
{
	return k >= b->n_logical || b->lane_n[k];
}

/* Is stream k of spec's trial only sent here (a pool's part)? */
static bool bm_sender_only(const struct bm_trial_spec *spec, unsigned int k)
{
	return spec->host && bm_stream_half(spec->traffic,
					    &spec->traffic->streams[k],
					    spec->host) == BM_HALF_TX;
}

/*
 * The sending half of a stream whose receiver is another host counts
 * what reaches this host's ports of it all the same (a DUT that floods):
 * not the stream's, whose receiving counts are the other host's.
 */
static void bm_stats_sender_only(struct bm_genl_stats *st)
{
	memset(&st->rx_frames, 0, offsetof(struct bm_genl_stats, log_tx) -
	       offsetof(struct bm_genl_stats, rx_frames));
	st->log_rx = 0;
	st->hw_rx_stamps = st->hw_lat_count = 0;
	st->hw_lat_min_ns = st->hw_lat_max_ns = 0;
	st->hw_lat_sum_ns = st->hw_lat_sw_sum_ns = 0;
	if (st->hist)
		memset(st->hist, 0, BMGEN_HIST_BUCKETS * sizeof(*st->hist));
}

int bm_genl_logical_stats(struct bm_genl_backend *b, unsigned int k,
			  struct bm_genl_stats *st, struct bm_error *err)
{
	unsigned int i, lanes = k < b->n_logical ? b->lane_n[k] : 1;
	struct bm_genl_stats lane;
	int ret;

	ret = bm_genl_stats_get(b->g, k + 1, st, err);
	for (i = 1; !ret && i < lanes; i++) {
		ret = bm_genl_stats_get(b->g,
					bm_genl_lane_id(k, i, b->n_logical),
					&lane, err);
		if (ret)
			break;
		bm_genl_stats_lane_add(st, &lane);
		bm_genl_stats_free(&lane);
	}
	if (ret)
		bm_genl_stats_free(st);
	return ret;
}

int bm_genl_close_counting(struct bm_genl_backend *b, struct bm_error *err)
{
	int ret = bm_genl_rx_close(b->g, err);

	if (ret == -EOPNOTSUPP) {
		if (err)
			err->msg[0] = '\0';
		return 0;
	}
	return ret ? ret : 1;
}

int bm_genl_watch_late(struct bm_genl_backend *b,
		       const struct bm_trial_spec *spec, int closed,
		       struct bm_trial_result *res, struct bm_error *err)
{
	struct bm_genl_stats st;
	uint64_t late = 0;
	unsigned int k;
	double t0;
	int ret = 0;

	if (closed <= 0 || !res->lost)
		return 0;
	t0 = bm_mono_s();
	bm_sleep_s(BM_LATE_WATCH_S);
	for (k = 0; !ret && k < b->n_logical; k++) {
		if (!bm_genl_stream_here(b, k) || bm_sender_only(spec, k))
			continue;
		ret = bm_genl_logical_stats(b, k, &st, err);
		if (!ret) {
			late += st.rx_late;
			bm_genl_stats_free(&st);
		}
	}
	if (ret)
		return ret;
	/* late frames are among the lost ones, never more */
	res->late = late < res->lost ? late : res->lost;
	res->late_watch_s = bm_mono_s() - t0;
	b->be.elapsed_s += res->late_watch_s;
	return 0;
}

static void bm_stream_from_stats(const struct bm_genl_stats *st,
				 uint64_t intended, struct bm_stream_result *r)
{
	unsigned int i;

	r->intended = intended;
	r->sent = st->tx_frames;
	r->received = st->rx_unique;
	r->lost = r->sent > r->received ? r->sent - r->received : 0;
	r->reordered = st->rx_reordered;
	r->duplicated = st->rx_dup;
	r->first_tx_s = st->tx_frames ? st->tx_first_ns / 1e9 : -1;
	r->last_tx_s = st->tx_frames ? st->tx_last_ns / 1e9 : -1;
	r->first_rx_s = st->rx_frames ? st->rx_first_ns / 1e9 : -1;
	r->last_rx_s = st->rx_frames ? st->rx_last_ns / 1e9 : -1;
	bm_genl_stats_latency(st, &r->latency);
	bm_ipdv_set(r, st->ipdv_count, (double)st->ipdv_min_ns,
		    (double)st->ipdv_max_ns, (double)st->ipdv_sum_ns);
	r->pdv_ns = st->lat_count ? (double)(st->lat_max_ns - st->lat_min_ns) : 0;
	r->tx_bytes = st->tx_bytes;
	r->rx_bytes = st->rx_bytes;
	memcpy(r->rx_dscp, st->rx_dscp, sizeof(r->rx_dscp));
	memcpy(r->rx_pcp, st->rx_pcp, sizeof(r->rx_pcp));
	r->rx_untagged = st->rx_untagged;
	r->tx_late_max_s = st->tx_late_max_ns / 1e9;
	r->tx_burst_late_max_s = st->tx_burst_late_max_ns / 1e9;
	for (i = 0; i < BMGEN_TX_STALLS; i++)
		r->tx_stalls_s[i] = st->tx_stalls_ns[i] / 1e9;
}

/* Read stream id's frame log (spec log_frames) into r. */
static int bm_stream_log(struct bm_genl_backend *b, uint32_t id,
			 uint32_t cap, struct bm_stream_result *r,
			 struct bm_error *err)
{
	struct bmgen_log_rx *rx;
	uint64_t *tx;
	size_t ntx = 0, nrx = 0, i;
	int ret;

	tx = calloc(cap, sizeof(*tx));
	rx = calloc(cap, sizeof(*rx));
	r->tx_log_s = calloc(cap, sizeof(*r->tx_log_s));
	r->rx_log = calloc(cap, sizeof(*r->rx_log));
	if (!tx || !rx || !r->tx_log_s || !r->rx_log) {
		bm_errorf(err, "out of memory for a log of %u frames", cap);
		ret = -ENOMEM;
		goto out;
	}
	ret = bm_genl_log_get(b->g, id, cap, tx, &ntx, rx, &nrx, err);
	if (ret)
		goto out;
	for (i = 0; i < ntx; i++)
		r->tx_log_s[i] = tx[i] / 1e9;
	for (i = 0; i < nrx; i++) {
		struct bm_frame_rec *f = &r->rx_log[i];

		f->seq = rx[i].seq;
		f->tx_s = rx[i].flags & BMGEN_LOG_F_TS ? rx[i].tx_ns / 1e9 : -1;
		f->rx_s = (double)(int64_t)rx[i].rx_ns / 1e9;
		f->size = rx[i].len;
		f->dscp = rx[i].dscp;
		f->pcp = rx[i].pcp;
		f->tagged = rx[i].flags & BMGEN_LOG_F_TAGGED;
	}
	r->n_tx_log = ntx;
	r->n_rx_log = nrx;
out:
	free(tx);
	free(rx);
	return ret;
}

/* Read the hardware stamps stream id's half here logged (at most cap)
 * into r, for the pool to pair with the other host's. */
static int bm_stream_hw_log(struct bm_genl_backend *b, uint32_t id,
			    uint32_t cap, struct bm_stream_result *r,
			    struct bm_error *err)
{
	struct bmgen_log_hw *rec = calloc(cap, sizeof(*rec));
	size_t n = 0, i;
	int ret;

	free(r->hw_log);
	r->n_hw_log = 0;
	r->hw_log = calloc(cap, sizeof(*r->hw_log));
	if (!rec || !r->hw_log) {
		free(rec);
		return bm_errorf(err, "out of memory for %u stamps", cap),
		       -ENOMEM;
	}
	ret = bm_genl_hw_log_get(b->g, id, cap, rec, &n, err);
	for (i = 0; !ret && i < n; i++)
		r->hw_log[i] = (struct bm_hw_stamp){ rec[i].seq, rec[i].ns,
						     rec[i].sw_lat_ns };
	if (!ret)
		r->n_hw_log = n;
	free(rec);
	return ret;
}

/*
 * What a stream's own counters say of the trial's marks: the RFC 2544
 * §26.2 tagged frame (its tx time by the schedule, its latency when it
 * arrived) and, for a stream that starts later than the trial (a load
 * step, R2544-RECOV), the tx time from its start of its last lost frame:
 * frames after the highest received are lost, else the module's last
 * gap in the sequence.
 */
static void bm_stream_marks(const struct bm_traffic *t, uint32_t f,
			    unsigned int k, const struct bm_genl_stats *st,
			    struct bm_trial_result *res)
{
	const struct bm_stream_spec *s = &t->streams[k];
	double fps = bm_stream_fps(t, s, f);
	uint64_t last = 0;
	bool any = false;

	if (s->tag_seq >= 0 && fps > 0) {
		res->tag_tx_s = bm_stream_start_s(t, s, f) +
				(double)s->tag_seq / fps;
		res->tag_received = st->tag_seen;
		res->tag_latency_ns = (double)st->tag_lat_ns;
	}
	if (!(s->start_s > 0) || !(fps > 0) ||
	    s->pattern == BM_STREAM_BURSTS)
		return;
	if (st->rx_unique < st->tx_frames && st->rx_max_seq + 1 < st->tx_frames) {
		last = st->tx_frames - 1;
		any = true;
	} else if (st->rx_last_lost_seq) {
		last = st->rx_last_lost_seq - 1;
		any = true;
	}
	res->last_loss_after_step_s = any ? (double)last / fps : -1.0;
}

/* The exact frames of this trial for the report (RFC 2544 §7): the
 * first stream's, and the first stream's back the other way when there
 * is one; a module that cannot say leaves them "" (no failure: the
 * counts are what the trial is). */
void bm_traffic_note_frames(struct bm_genl_backend *b,
			    const struct bm_traffic *t)
{
	const struct bm_stream_spec *f = &t->streams[0];
	unsigned int k;

	bm_genl_note_frame(b, 1, 0);
	b->be.frame_hex[1][0] = 0;
	for (k = 1; k < t->n_streams; k++)
		if (t->streams[k].tx_port == f->rx_port &&
		    t->streams[k].rx_port == f->tx_port) {
			bm_genl_note_frame(b, k + 1, 1);
			break;
		}
}

int bm_traffic_collect(struct bm_genl_backend *b,
		       const struct bm_trial_spec *spec,
		       const uint64_t *intended,
		       struct bm_traffic_result *tr,
		       struct bm_trial_result *res, struct bm_error *err)
{
	const struct bm_traffic *t = spec->traffic;
	struct bm_genl_stats st, sum = { 0 };
	double first = -1, last = -1;
	uint32_t hw_cap, every;
	unsigned int j, k;
	int ret = 0;

	sum.hist = calloc(BMGEN_HIST_BUCKETS, sizeof(*sum.hist));
	if (!sum.hist)
		return bm_errorf(err, "out of memory"), -ENOMEM;
	for (k = 0; k < t->n_streams; k++) {
		if (!bm_genl_stream_here(b, k))
			continue;	/* another host's stream */
		ret = bm_genl_logical_stats(b, k, &st, err);
		if (ret)
			break;
		if (bm_sender_only(spec, k))
			bm_stats_sender_only(&st);
		if (k < b->n_logical && b->lane_n[k] > res->tx_lanes)
			res->tx_lanes = b->lane_n[k];
		bm_stream_from_stats(&st, intended[k], &tr->streams[k]);
		bm_stream_marks(t, spec->frame_size, k, &st, res);
		hw_cap = bm_genl_hw_log(b, spec, k, intended[k], &every);
		if (hw_cap) {
			ret = bm_stream_hw_log(b, k + 1, hw_cap,
					       &tr->streams[k], err);
			if (ret) {
				bm_genl_stats_free(&st);
				break;
			}
		}
		if (t->streams[k].log_frames) {
			ret = bm_stream_log(b, k + 1, t->streams[k].log_frames,
					    &tr->streams[k], err);
			if (ret) {
				bm_genl_stats_free(&st);
				break;
			}
			if (bm_sender_only(spec, k)) {
				free(tr->streams[k].rx_log);
				tr->streams[k].rx_log = NULL;
				tr->streams[k].n_rx_log = 0;
			}
		}
		bm_genl_stats_merge(&sum, &st);
		if (st.tx_frames)
			bm_trial_tx_path_add(res, bm_genl_tx_path_name(st.tx_path));
		res->tx_late_frames += st.tx_late_frames;
		res->tx_late_max_s = fmax(res->tx_late_max_s,
					  tr->streams[k].tx_late_max_s);
		if (t->streams[k].pattern == BM_STREAM_BURSTS)
			bm_trial_burst_late_add(res,
				tr->streams[k].tx_burst_late_max_s);
		for (j = 0; j < BMGEN_TX_STALLS; j++)
			bm_trial_stall_add(res->tx_stalls_s,
					   tr->streams[k].tx_stalls_s[j]);
		if (st.rx_max_iat_ns / 1e9 > res->max_gap_s) {
			res->max_gap_s = st.rx_max_iat_ns / 1e9;
			res->max_gap_start_s = st.rx_max_iat_start_ns / 1e9;
		}
		if (st.tx_frames) {
			if (first < 0 || st.tx_first_ns / 1e9 < first)
				first = st.tx_first_ns / 1e9;
			last = fmax(last, st.tx_last_ns / 1e9);
		}
		bm_genl_stats_free(&st);
	}
	if (!ret) {
		bm_traffic_result_sum(t, spec->frame_size, tr,
				      first >= 0 ? last - first : 0, res);
		/* percentiles of all streams together, from the merged
		 * histogram (the sum alone cannot give them) */
		bm_genl_stats_latency(&sum, &res->latency);
		bm_genl_hw_result(b, &sum, res);
		/* the report's coarser histogram: the module's buckets share
		 * its octave edges, so each falls into one of ours whole */
		for (k = 0; sum.hist && k < BMGEN_HIST_BUCKETS; k++)
			if (sum.hist[k])
				res->lat_hist[bm_lat_hist_index(
					(double)bmgen_hist_lower_ns(k))] +=
					sum.hist[k];
	}
	bm_genl_stats_free(&sum);
	return ret;
}

/*
 * REQ-GEN-6, MLR §5.1 duration stretching, counted as the pair trial
 * counts it: the frames of a paced stream still unsent when its last
 * one was due are shortfall, and more than 10 us of them (at least a
 * frame) make the trial generator-limited.  Without it a stream the
 * module sent in full, but seconds late, passed as offered at its rate.
 * Bursts are back to back by definition: no schedule to stretch.
 */
void bm_traffic_stretch(const struct bm_traffic *t, uint32_t f,
			const struct bm_traffic_result *tr,
			struct bm_trial_result *res)
{
	unsigned int k;

	for (k = 0; k < t->n_streams; k++) {
		const struct bm_stream_result *sr = &tr->streams[k];
		double fps = bm_stream_fps(t, &t->streams[k], f), late;
		uint64_t sf;

		if (t->streams[k].pattern == BM_STREAM_BURSTS ||
		    !(fps > 0) || sr->sent < 2)
			continue;
		late = sr->last_tx_s - sr->first_tx_s -
		       (double)(sr->sent - 1) / fps;
		if (!(late > 0))
			continue;
		sf = (uint64_t)(late * fps);
		res->shortfall += sf;
		if (sf > (uint64_t)(10e-6 * fps))
			res->generator_limited = true;
	}
}

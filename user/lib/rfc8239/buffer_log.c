// SPDX-License-Identifier: GPL-2.0
/*
 * REQ-BUF-1 (SPEC §8.2, F-7): the inflection of one congestion trial and
 * the egress's queue at it, from the per-frame logs of the streams into
 * the measured egress.
 *
 *   t_loss   = tx time of the earliest frame that never arrived (the
 *              primary inflection, AMB-34: loss detection is exact);
 *   L0       = the smallest tx -> rx latency of the trial: the path of a
 *              frame that found the queue empty, its own frame time
 *              t_wire on the egress line included, so a frame received
 *              at rx left the egress (its last bit on the line) at
 *              rx - L0 + t_wire on the tester's clock: the frame on the
 *              line is still the egress's, as in a store-and-forward
 *              port's buffer;
 *   Buf_q    = frames the egress took up to t_loss (sent before it, and
 *              those sent at that instant from other ports and taken) -
 *              frames that left before t_loss: what the egress held
 *              when it dropped (REQ-BUF-1); every later loss found the
 *              queue full too, and the median over all of them is the
 *              Buf_q reported: a departure the tester's receive path
 *              stamped late reads one loss high, a frame lost elsewhere
 *              on the path reads it low, and the median hears neither;
 *   n_os     = oversubscription frames of those (Buf_rfc);
 *   t_plateau = the earliest tx time after which the running maximum of
 *              the latency (frames before t_loss) grows by less than one
 *              t_wire (reported beside t_loss, noisy with SW stamps);
 *   service  = the departures from t_loss to the last, per second: the
 *              rate the egress served at while it was busy (full, then
 *              draining), which RFC 8239 §3.2's (n_os - 1) x F assumes
 *              is the line rate.
 *
 * Unlike the counters' estimator (frames sent - span / t_wire), this one
 * assumes nothing about how fast the egress served: an egress that
 * stalled, paused or ran above its line rate on a shaper's bucket is
 * counted as it served, and a late generator changes nothing, since a
 * queue that drops is full whatever happened before.  Without a loss the
 * largest backlog over the trial's arrivals is a lower bound.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bm_repeat.h"
#include "rfc8239_int.h"

/* (tx, latency) of a received frame; tx first: sorted by it */
struct txlat {
	double tx, lat;
};

/* Append to lost[] the tx times of sr's frames that never arrived (their
 * number into *missing); the minimum latency of its frames into *l0. */
static int find_losses(const struct bm_stream_result *sr, double *l0,
		       double *lost, uint64_t *missing)
{
	unsigned char *got = calloc(sr->n_tx_log ? sr->n_tx_log : 1, 1);
	size_t i;

	if (!got)
		return -ENOMEM;
	for (i = 0; i < sr->n_rx_log; i++) {
		const struct bm_frame_rec *x = &sr->rx_log[i];

		if (x->seq < sr->n_tx_log)
			got[x->seq] = 1;
		*l0 = fmin(*l0, x->rx_s - x->tx_s);
	}
	*missing = 0;
	for (i = 0; i < sr->n_tx_log; i++)
		if (!got[i])
			lost[(*missing)++] = sr->tx_log_s[i];
	free(got);
	return 0;
}

int r8239_buf_log_fill(const struct bm_traffic_result *r,
		       const unsigned int *idx, size_t n, int os,
		       double t_wire, struct r8239_buf_log *out,
		       struct bm_error *err)
{
	size_t n_tx = 0, n_rx = 0, n_lost = 0, i, j, k, a, d;
	double *dep = NULL, *lost = NULL, *occ = NULL;
	double l0 = INFINITY, lmax = -INFINITY;
	struct txlat *rx = NULL;	/* every arrival, by tx time */
	int ret = 0;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < n; i++) {
		const struct bm_stream_result *sr = &r->streams[idx[i]];

		if (sr->n_tx_log != sr->sent)
			return bm_errorf(err, "buffer: stream %u: the frame "
					 "log holds %zu of %llu frames sent "
					 "(REQ-BUF-1 needs them all)", idx[i],
					 sr->n_tx_log,
					 (unsigned long long)sr->sent);
		n_tx += sr->n_tx_log;
		n_rx += sr->n_rx_log;
	}
	lost = malloc((n_tx ? n_tx : 1) * sizeof(*lost));
	occ = malloc((n_tx ? n_tx : 1) * sizeof(*occ));
	dep = malloc((n_rx ? n_rx : 1) * sizeof(*dep));
	rx = malloc((n_rx ? n_rx : 1) * sizeof(*rx));
	if (!lost || !occ || !dep || !rx) {
		ret = bm_errorf(err, "out of memory");
		goto out;
	}
	for (i = 0; i < n; i++) {
		const struct bm_stream_result *sr = &r->streams[idx[i]];
		uint64_t missing;

		if (find_losses(sr, &l0, lost + n_lost, &missing)) {
			ret = bm_errorf(err, "out of memory");
			goto out;
		}
		/* the log and the counters must tell the same losses, or
		 * the log is short and an inflection would be invented */
		if (missing != sr->sent - sr->received) {
			ret = bm_errorf(err, "buffer: stream %u: the frame "
					"log misses %llu frames, the counters "
					"%llu lost", idx[i],
					(unsigned long long)missing,
					(unsigned long long)(sr->sent -
							     sr->received));
			goto out;
		}
		n_lost += missing;
	}
	qsort(lost, n_lost, sizeof(*lost), bm_cmp_double);
	out->lossy = n_lost > 0;
	out->t_loss_s = n_lost ? lost[0] : INFINITY;
	if (!isfinite(l0))
		l0 = 0.0;	/* nothing arrived: nothing left either */
	out->l0_s = l0;
	n_rx = 0;
	for (i = 0; i < n; i++) {
		const struct bm_stream_result *sr = &r->streams[idx[i]];

		for (j = 0; j < sr->n_rx_log; j++) {
			const struct bm_frame_rec *x = &sr->rx_log[j];

			rx[n_rx] = (struct txlat){ x->tx_s, x->rx_s - x->tx_s };
			dep[n_rx++] = x->rx_s - l0 + t_wire;
			/* the arrivals the queue took up to the loss: those
			 * sent at its very instant from other ports too (a
			 * fabric takes them in some order; taken, they were
			 * in the queue the lost frame found full) */
			if ((int)idx[i] == os && x->tx_s <= out->t_loss_s)
				out->n_os++;
			if (x->tx_s < out->t_loss_s)
				lmax = fmax(lmax, x->rx_s - x->tx_s);
		}
	}
	qsort(rx, n_rx, sizeof(*rx), bm_cmp_double);
	qsort(dep, n_rx, sizeof(*dep), bm_cmp_double);
	out->first_tx_s = n_rx && (!n_lost || rx[0].tx < lost[0]) ?
			  rx[0].tx : n_lost ? lost[0] : NAN;
	out->lat_min_s = l0;
	out->lat_max_s = lmax;
	if (out->lossy) {
		/* every loss found the queue full: what it held then is
		 * frames taken up to that instant - frames gone before it.
		 * A departure stamped late (the tester's receive path) only
		 * adds, a loss elsewhere on the path only takes away; the
		 * median over the trial's losses is deaf to a few of either */
		for (k = 0, a = 0, d = 0; k < n_lost; k++) {
			while (a < n_rx && rx[a].tx <= lost[k])
				a++;
			while (d < n_rx && dep[d] < lost[k])
				d++;
			occ[k] = (double)a - (double)d;
			if (!k) {
				out->sent_before = a;
				out->left_before = d;
				out->q_first_frames = occ[0];
			}
		}
		qsort(occ, n_lost, sizeof(*occ), bm_cmp_double);
		out->n_losses = n_lost;
		out->q_frames = n_lost % 2 ? occ[n_lost / 2] :
				(occ[n_lost / 2 - 1] + occ[n_lost / 2]) / 2.0;
	} else {
		/* the largest backlog an arrival found (itself not
		 * counted, as a lost frame is not above): with no loss,
		 * the arrivals are every frame sent */
		double peak = 0.0;

		for (a = 0, d = 0; a < n_rx; a++) {
			while (d < n_rx && dep[d] < rx[a].tx)
				d++;
			peak = fmax(peak, (double)a - (double)d);
		}
		out->sent_before = out->left_before = n_rx;
		out->q_frames = out->q_first_frames = peak;
	}
	/* t_plateau: the first frame before the inflection whose latency
	 * is within one t_wire of the maximum before it */
	out->service_fps = NAN;
	if (out->lossy) {
		d = out->left_before;	/* the departures before t_loss */
		if (n_rx - d >= 2 && dep[n_rx - 1] > dep[d])
			out->service_fps = (double)(n_rx - d - 1) /
					   (dep[n_rx - 1] - dep[d]);
	}
	out->t_plateau_s = NAN;
	for (k = 0; k < n_rx && rx[k].tx < out->t_loss_s; k++)
		if (rx[k].lat >= lmax - t_wire) {
			out->t_plateau_s = rx[k].tx;
			break;
		}
out:
	free(dep);
	free(lost);
	free(occ);
	free(rx);
	return ret;
}

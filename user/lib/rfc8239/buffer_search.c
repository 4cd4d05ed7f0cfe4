// SPDX-License-Identifier: GPL-2.0
/*
 * One repetition of an RFC 8239 §3.2 buffering measurement (REQ-BUF-1):
 * the congestion's counted streams sent as one trial, sent again when the
 * generator fell short or frames arrived after the loss wait (REQ-RX-3),
 * a loss confirmed by running it again, and the search on the reference
 * stream's length for the inflection: doubling to the first loss (method
 * log: that trial's frame logs, buffer_log.c) or then bisection to one
 * frame (method search).  Apart from buffer.c because this is the trial
 * and its search; buffer.c lays out each test's congestions and reports
 * what the repetitions found.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bm_search.h"
#include "bm_traffic.h"
#include "rfc8239_int.h"

/* The longest loss wait a trial is run again with (60 s: PLAT-TRIAL's
 * drain_s range). */
#define BUF_DRAIN_MAX_S	60.0

/* Frames of flow i when the reference sends k (loads in proportion). */
static uint64_t count_of(const struct r8239_buf_cong *c, unsigned int i,
			 uint64_t k)
{
	uint64_t n = (uint64_t)llround((double)k * c->fl[i].pct /
				       c->fl[c->ref].pct);

	return n ? n : 1;
}

/* Has stream i a frame of the trial's result in it? Fold it into f. */
static void fold(struct r8239_buf_fill *f, const struct bm_stream_result *sr,
		 double *lo, double *hi)
{
	f->sent += sr->sent;
	if (sr->first_tx_s >= 0.0)
		*lo = fmin(*lo, sr->first_tx_s);
	if (sr->last_tx_s >= 0.0)
		*hi = fmax(*hi, sr->last_tx_s);
	if (sr->latency.count) {
		f->lat_min_ns = fmin(f->lat_min_ns, sr->latency.min_ns);
		f->lat_max_ns = fmax(f->lat_max_ns, sr->latency.max_ns);
	}
}

/* Method log: f and *pass from the trial's frame logs (REQ-BUF-1). */
static int fill_from_log(struct r8239_buf *b, const struct r8239_buf_cong *c,
			 const struct bm_traffic_result *r,
			 struct r8239_buf_fill *f, bool *pass)
{
	unsigned int idx[R8239_BUF_MAX_FLOWS], i, n = 0;
	struct r8239_buf_log g;
	int ret;

	for (i = 0; i < c->n; i++)
		if (c->fl[i].rx == c->egress)
			idx[n++] = i;
	ret = r8239_buf_log_fill(r, idx, n, c->os, b->t_wire, &g, b->err);
	if (ret)
		return ret;
	/* a frame the counters saw lost is missing from the log too */
	*pass = !g.lossy;
	f->from_log = true;
	f->q_frames = g.q_frames;
	f->q_first_frames = g.q_first_frames;
	f->n_losses = g.n_losses;
	f->t_loss_s = g.lossy ? g.t_loss_s : NAN;
	f->t_plateau_s = g.t_plateau_s;
	f->service_pct = 100.0 * g.service_fps * b->t_wire;
	f->sent = g.sent_before;
	f->span_s = g.lossy ? g.t_loss_s - g.first_tx_s : f->span_s;
	if (c->os >= 0)
		f->n_os = g.n_os;
	f->lat_min_ns = g.lat_min_s * 1e9;
	f->lat_max_ns = g.lat_max_s * 1e9;
	return 0;
}

static int buf_trial(struct r8239_buf *b, const struct r8239_buf_cong *c,
		     uint64_t k, unsigned int rep, const char *why, bool *pass,
		     struct r8239_buf_fill *f)
{
	const struct r8239_buf_params *p = b->p;
	struct bm_traffic_result *r = NULL;
	struct bm_stream_spec s;
	struct bm_trial_spec spec;
	struct bm_trial_result res;
	struct bm_traffic t;
	double lo = INFINITY, hi = -INFINITY;
	uint64_t lost = 0;
	char reason[112];
	unsigned int i, attempt = 0;
	double drain = p->c.drain_s;
	int ret;

	ret = r8239_traffic_ports(&t, b->be, b->err);
	if (ret)
		goto out;
	for (i = 0; i < c->n; i++) {
		bm_stream_init(&s, c->fl[i].tx, c->fl[i].rx, c->fl[i].pct);
		s.pattern = BM_STREAM_COUNT;
		s.count = count_of(c, i, k);
		s.start_s = p->start_s;
		if (p->method == R8239_BUF_LOG && c->fl[i].rx == c->egress) {
			if (s.count > BM_TRAFFIC_MAX_LOG) {
				ret = bm_errorf(b->err, "%s: egress %s has not "
						"dropped with %llu frames a "
						"stream, the most the frame log "
						"holds (%u); method=search "
						"measures larger buffers",
						r8239_buf_params_ids[p->test],
						b->be->port_names[c->egress],
						(unsigned long long)count_of(
							c, i, k / 2),
						BM_TRAFFIC_MAX_LOG);
				goto out;
			}
			s.log_frames = (uint32_t)s.count;
		}
		ret = bm_traffic_add_stream(&t, &s, b->err);
		if (ret < 0)
			goto out;
	}
	ret = bm_traffic_check(&t, b->f, b->err);
	if (ret)
		goto out;
again:
	bm_traffic_result_free(r);
	r = bm_traffic_result_new(&t);
	if (!r) {
		ret = -ENOMEM;
		bm_errorf(b->err, "out of memory");
		goto out;
	}
	r8239_trial_spec(&spec, &p->c, b->f, p->start_s + (double)k /
			 bm_stream_fps(&t, &t.streams[c->ref], b->f),
			 !b->learned, &t, r);
	spec.latency = true;
	spec.drain_s = drain;
	snprintf(reason, sizeof(reason), "%u B egress %s rep %u: %s k=%llu%s",
		 b->f, b->be->port_names[c->egress], rep, why,
		 (unsigned long long)k, drain > p->c.drain_s ?
		 " (again: a longer loss wait)" :
		 attempt ? " (again: generator fell short)" : "");
	ret = bm_search_trial(b->be, &spec, &res, &b->log, "buffer", reason,
			      b->progress, b->ctx, b->err);
	if (ret)
		goto out;
	b->learned = true;
	/* A stream the generator could not send whole did not fill the
	 * queue as asked: send it again (the module says so).  A late
	 * generator that caught up is fine: the frames it held back arrive
	 * back to back, and the queue after them is what it would have been
	 * (the egress drained meanwhile), up to the bucket a DUT refills. */
	for (i = 0; i < t.n_streams; i++)
		if (r->streams[i].sent < t.streams[i].count)
			break;
	if (i < t.n_streams) {
		if (attempt++ < p->retries) {
			b->retried++;
			goto again;
		}
		ret = bm_errorf(b->err, "%s: the generator could not send "
				"%llu frames to %s whole in %u attempts",
				r8239_buf_params_ids[p->test],
				(unsigned long long)k,
				b->be->port_names[c->egress], attempt);
		goto out;
	}
	/* REQ-RX-3: frames that arrived after the loss wait were still in
	 * the egress (one that drains below the line holds them longer):
	 * counted lost, the earliest of them would read as the first loss
	 * and the buffer low.  Run again, waiting twice as long. */
	if (res.late && drain < BUF_DRAIN_MAX_S) {
		drain = fmin(BUF_DRAIN_MAX_S, fmax(2.0 * drain, 0.5));
		b->drained_again++;
		b->drain_longest_s = fmax(b->drain_longest_s, drain);
		goto again;
	}
	memset(f, 0, sizeof(*f));
	f->service_pct = NAN;
	f->k = k;
	f->tx_late_max_s = res.tx_late_max_s;
	b->search_late_s = fmax(b->search_late_s, res.tx_late_max_s);
	f->lat_min_ns = INFINITY;
	f->lat_max_ns = -INFINITY;
	/* only the measured egress's flows: another congested egress of
	 * the same trial (BUF-3) may lose meanwhile */
	for (i = 0; i < t.n_streams; i++) {
		if (c->fl[i].rx != c->egress)
			continue;
		lost += r->streams[i].lost;
		fold(f, &r->streams[i], &lo, &hi);
	}
	*pass = lost == 0;
	if (c->os >= 0)
		f->n_os = r->streams[c->os].sent;
	f->span_s = hi >= lo ? hi - lo : NAN;
	if (p->method == R8239_BUF_LOG)
		ret = fill_from_log(b, c, r, f, pass);
out:
	bm_traffic_result_free(r);
	bm_traffic_free(&t);
	return ret;
}

/*
 * buf_trial, and a loss run again up to `confirm` times: the trial is lossy
 * only if every run loses.  A stall of the generator or of the DUT's
 * scheduler (an egress that idles with its queue empty loses service for
 * good) can drop frames of a trial that fits, and one such loss would cut
 * the search short and report a buffer smaller than the DUT's.  A trial
 * beyond the buffer loses on every run, so confirming costs one trial per
 * true loss and never raises the result above what a loss-free run showed.
 */
static int buf_trial_confirmed(struct r8239_buf *b,
			       const struct r8239_buf_cong *c, uint64_t k,
			       unsigned int rep, const char *why, bool *pass,
			       struct r8239_buf_fill *f)
{
	struct r8239_buf_fill g;
	unsigned int i;
	int ret;

	ret = buf_trial(b, c, k, rep, why, pass, f);
	for (i = 0; !ret && !*pass && i < b->p->confirm; i++) {
		ret = buf_trial(b, c, k, rep, "confirm loss", pass, &g);
		if (!ret && *pass)
			b->unconfirmed++;
		/* a loss elsewhere on the path reads the queue low; the
		 * queue's own overflow reads it full: keep the fullest */
		if (!ret && (*pass || !(g.q_frames <= f->q_frames)))
			*f = g;
	}
	return ret;
}

/* One repetition: the largest loss-free k, doubling then bisection. */
int r8239_buf_search(struct r8239_buf *b, const struct r8239_buf_cong *c,
		     unsigned int rep, struct r8239_buf_fill *best,
		     struct r8239_buf_fill *lossy)
{
	const struct r8239_buf_params *p = b->p;
	double ref_fps = bm_fps_max(b->be->line_rate_bps, b->f) *
			 c->fl[c->ref].pct / 100.0;
	uint64_t kmax = (uint64_t)fmax(1.0, floor(ref_fps * p->max_trial_s));
	uint64_t k = 1, lo = 0, hi = 0;
	struct r8239_buf_fill f;
	bool pass;
	int ret;

	b->search_late_s = 0.0;
	memset(best, 0, sizeof(*best));
	best->span_s = best->lat_min_ns = best->lat_max_ns = NAN;
	best->service_pct = NAN;
	*lossy = *best;
	for (;;) {
		ret = buf_trial_confirmed(b, c, k, rep, "grow", &pass, &f);
		if (ret)
			return ret;
		if (!pass) {
			hi = k;
			*lossy = f;
			break;
		}
		lo = k;
		*best = f;
		if (k >= kmax)
			break;
		k = k * 2 > kmax ? kmax : k * 2;
	}
	/* method log: the first loss is the inflection, no bisection */
	if (hi && p->method == R8239_BUF_LOG)
		*best = *lossy;
	while (hi && hi - lo > 1 && p->method != R8239_BUF_LOG) {
		k = lo + (hi - lo) / 2;
		ret = buf_trial_confirmed(b, c, k, rep, "bisect", &pass,
					  &f);
		if (ret)
			return ret;
		if (pass) {
			lo = k;
			*best = f;
		} else {
			hi = k;
			*lossy = f;
		}
	}
	best->lower_bound = !hi;
	best->search_late_s = b->search_late_s;
	return 0;
}

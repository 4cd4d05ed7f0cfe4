// SPDX-License-Identifier: GPL-2.0
/*
 * RFC 8239 §3 buffering (SPEC §8.2): the frame size of the highest buffer
 * efficiency (R8239-BUF-1), the maximum port buffer size (-BUF-2), the
 * port-pair buffers with all pairs loaded (-BUF-3) and the maximum DUT
 * buffer size, many-to-one (-BUF-4).
 *
 * Congestion (RFC 8239 §3.2): senders whose loads add up to the line rate
 * (99.98 %, AMB-27) plus the oversubscription os_pct send to one egress
 * port, all starting together.  The egress queue grows at the excess
 * until the first drop: the inflection point.  BUF-2 iteration i: port i
 * at 99.98 % and port i+2 at os_pct to egress i+1 (ports 1-based, i =
 * 1 .. N-2; the RFC's last "port N ... to egress port N" is read as egress
 * N-1, AMB-29).  BUF-4 iteration for egress e = N, 1, 2, ..., N-1: every
 * other port at (99.98 + os_pct)/(N-1) % (F-8).  BUF-1: BUF-2's first
 * iteration at every size of a sweep; B* is the size whose Buf_q in bytes
 * is the largest.  BUF-3 (AMB-30): pairs 1<->2 .. (N-3)<->(N-2) at 99.98 %
 * both ways, port N-1 at os_pct to egress e and port N to egress e+1,
 * e = 2, 4, ... and N-3; both egress ports are measured, each by its own
 * search (the other may lose meanwhile: only the measured egress's flows
 * count).
 *
 * The inflection (REQ-BUF-1): every sender sends a counted stream of
 * frames proportional to its load, k frames of the reference stream (the
 * oversubscription stream in BUF-2, each sender in BUF-4).
 *   method log (default): every frame into the egress is logged, k
 *     doubles until a frame into it is lost, and buffer_log.c reads that
 *     trial's logs: t_loss, n_os, Buf_q = what the egress held when it
 *     dropped (deliveries measured, not assumed at the line rate);
 *   method search (counters only): the largest loss-free k, doubling then
 *     bisection to one frame, is the traffic up to the inflection:
 *   n_os   = k (BUF-2)
 *   Buf_rfc      = (n_os - 1) x F                   (RFC 8239 §3.2, F-7)
 *   Buf_rfc_corr = n_os x F x (bg + os - 1) / os     (F-7: the background
 *                  at 99.98 % makes Buf_rfc 2 % high at os 1 %)
 *   Buf_q  = (frames sent to the egress - T / t_wire) x F, T the span of
 *            their departures (first to last) and t_wire the egress's
 *            frame time at line rate: the frames the egress still held
 *            when the last one arrived, if it served at the line rate
 *            from the first arrival (F-7 [EXTENSION], AMB-35)
 *   Buf_lat = (L_max - L_min) x R / 8 x F / (F + 20) (F-7 [EXTENSION]) from
 *            the latency of the egress's streams in that trial (noisy with
 *            software timestamps: a cross-check, AMB-34).
 * No loss at max_trial_s gives a lower bound.
 *
 * This file lays out each test's congestions, measures an egress over the
 * repetitions and reports it (the estimators of F-7); the parameters are
 * buffer_params.c's, one repetition's trials and search buffer_search.c's,
 * the inflection from the frame logs buffer_log.c's.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bm_json.h"
#include "bm_repeat.h"
#include "bm_result.h"
#include "bm_search.h"
#include "bm_traffic.h"
#include "rfc8239_int.h"

#define BUF_MAX_REPEAT	R8239_MAX_REPEAT
#define BUF_MAX_SENDERS	(BM_TRAFFIC_MAX_PORTS - 1)

static void add_flow(struct r8239_buf_cong *c, unsigned int tx,
		     unsigned int rx, double pct)
{
	c->fl[c->n++] = (struct r8239_buf_flow){ tx, rx, pct };
}

/* The estimators of F-7 for one repetition, in bytes. */
static void estimators(const struct r8239_buf *b,
		       const struct r8239_buf_cong *c,
		       const struct r8239_buf_fill *f, double *rfc,
		       double *rfc_corr, double *q, double *lat)
{
	const struct r8239_buf_params *p = b->p;
	double fs = b->f, os = p->os_pct / 100.0;
	double bg = p->line_pct / 100.0;

	*rfc = *rfc_corr = NAN;
	if (c->os >= 0 && f->n_os) {
		*rfc = (double)(f->n_os - 1) * fs;
		*rfc_corr = (double)f->n_os * fs * (bg + os - 1.0) / os;
	}
	if (f->from_log)
		*q = f->q_frames * fs;
	else
		*q = isfinite(f->span_s) ?
		     ((double)f->sent - f->span_s / b->t_wire) * fs : NAN;
	*lat = isfinite(f->lat_max_ns) && isfinite(f->lat_min_ns) ?
	       (f->lat_max_ns - f->lat_min_ns) * 1e-9 *
	       b->be->line_rate_bps / 8.0 * fs / (fs + 20.0) : NAN;
}

/*
 * RFC 8239 §3.2's Buf = (n_os - 1) x F holds for an egress that serves at
 * the line rate, so that the queue grows at the oversubscription alone.
 * One that served slower (a shaper, a slower egress line, pause) filled
 * at the excess over its own rate and the formula reads it low: 512 B
 * for the 37 KB queue of an egress at half the line.  When the egress
 * measurably served below the background's line_pct by more than a tenth
 * of os_pct (Buf_rfc more than 10 % low) and Buf_q (what the egress held
 * at its drops, from the logs, the buffer) differs from Buf_rfc by more
 * than 10 %, entry e says why in estimator_why and the result counts it.
 * svc: the slowest service of the repetitions, % of the line (NAN: not
 * measured, method search).
 */
static bool slow_egress(struct r8239_buf *b, const struct r8239_buf_cong *c,
			json_object *e, double svc, double rfc, double q)
{
	const struct r8239_buf_params *p = b->p;
	char why[320];

	if (!isfinite(svc) || !isfinite(rfc) || !isfinite(q) || q <= 0 ||
	    svc >= p->line_pct - p->os_pct / 10.0 ||
	    fabs(rfc - q) <= 0.1 * q)
		return false;
	snprintf(why, sizeof(why), "egress %s served at %.2f %% of the line "
		 "while congested, not %.2f %%: RFC 8239 §3.2's (n_os - 1) x "
		 "F assumes the line rate and reads %.0f B; Buf_q, the "
		 "buffer, is %.0f B, what the egress held at its drops",
		 b->be->port_names[c->egress], svc, p->line_pct, rfc, q);
	bm_json_add_str(e, "estimator_why", why);
	if (!b->n_slow++)
		snprintf(b->slow_why, sizeof(b->slow_why), "%s", why);
	return true;
}

/* Measure c's egress `repeat` times at frame size b->f: one entry of
 * iters, *mean_q the mean Buf_q in bytes and *max_q the largest so far. */
static int buf_iteration(struct r8239_buf *b, const struct r8239_buf_cong *c,
			 json_object *iters, double *mean_q, double *max_q)
{
	const struct r8239_buf_params *p = b->p;
	double rfc[BUF_MAX_REPEAT], rc[BUF_MAX_REPEAT], q[BUF_MAX_REPEAT];
	double lat[BUF_MAX_REPEAT], svc = NAN, rfc_mean = NAN;
	json_object *e, *reps, *o, *a;
	struct bm_repeat st, sq;
	struct r8239_buf_fill f, fl;
	unsigned int r, i;
	const char *est;
	bool bound = false;
	int ret = 0;

	b->t_wire = (b->f + 20) * 8.0 / b->be->line_rate_bps;
	e = json_object_new_object();
	if (c->iteration)
		bm_json_add_u64(e, "iteration", c->iteration);
	bm_json_add_u64(e, "frame_size", b->f);
	bm_json_add_str(e, "egress", b->be->port_names[c->egress]);
	a = json_object_new_array();
	for (i = 0; i < c->n; i++) {
		o = json_object_new_object();
		bm_json_add_str(o, "port", b->be->port_names[c->fl[i].tx]);
		bm_json_add_str(o, "to", b->be->port_names[c->fl[i].rx]);
		bm_json_add_double(o, "load_pct", c->fl[i].pct);
		bm_json_add_bool(o, "oversubscription", (int)i == c->os);
		json_object_array_add(a, o);
	}
	json_object_object_add(e, "flows", a);
	reps = json_object_new_array();
	json_object_object_add(e, "repetitions", reps);
	json_object_array_add(iters, e);
	b->learned = false;
	for (r = 0; r < p->c.repeat; r++) {
		ret = r8239_buf_search(b, c, r + 1, &f, &fl);
		if (ret)
			break;
		estimators(b, c, &f, &rfc[r], &rc[r], &q[r], &lat[r]);
		bound |= f.lower_bound;
		o = json_object_new_object();
		bm_json_add_u64(o, "frames_to_egress", f.sent);
		if (c->os >= 0)
			bm_json_add_u64(o, "n_os", f.n_os);
		bm_json_add_double(o, "t_inflection_s", f.span_s);
		bm_json_add_double(o, "buf_rfc_bytes", rfc[r]);
		bm_json_add_double(o, "buf_rfc_corr_bytes", rc[r]);
		bm_json_add_double(o, "buf_q_bytes", q[r]);
		bm_json_add_double(o, "buf_q_frames", q[r] / b->f);
		bm_json_add_double(o, "buf_lat_bytes", lat[r]);
		bm_json_add_double(o, "latency_max_ns", f.lat_max_ns);
		bm_json_add_double(o, "tx_late_max_s", f.tx_late_max_s);
		/* a generator L late while the egress's queue was still
		 * short idles the egress up to L: any trial of the search
		 * that did so may have cut it short, and Buf_q can read
		 * low by up to L x the egress's frame rate */
		bm_json_add_double(o, "search_tx_late_max_s",
				   f.search_late_s);
		bm_json_add_bool(o, "lower_bound", f.lower_bound);
		if (f.from_log) {
			bm_json_add_double(o, "t_loss_s", f.t_loss_s);
			bm_json_add_double(o, "buf_q_first_loss_frames",
					   f.q_first_frames);
			bm_json_add_u64(o, "losses", f.n_losses);
			bm_json_add_double(o, "t_plateau_s", f.t_plateau_s);
			bm_json_add_double(o, "egress_service_pct_line",
					   f.service_pct);
			/* fmin keeps the number where one side is NAN */
			svc = fmin(svc, f.service_pct);
		}
		if (!f.lower_bound && !f.from_log) {
			/* the trial one frame longer, which lost */
			bm_json_add_u64(o, "lossy_frames_to_egress", fl.sent);
			bm_json_add_double(o, "lossy_tx_late_max_s",
					   fl.tx_late_max_s);
		}
		json_object_array_add(reps, o);
	}
	bm_repeat_of(q, r, &sq);
	json_object_object_add(e, "buf_q", bm_repeat_to_json(&sq, q));
	*mean_q = sq.n ? sq.mean : NAN;
	if (sq.n && sq.max > *max_q)
		*max_q = sq.max;
	if (c->os >= 0) {
		bm_repeat_of(rfc, r, &st);
		json_object_object_add(e, "buf_rfc",
				       bm_repeat_to_json(&st, rfc));
		rfc_mean = st.mean;
	}
	bm_json_add_bool(e, "lower_bound", bound);
	/*
	 * The buffer of every test is Buf_q, what the egress held when it
	 * dropped (decided once for the four: procedures-rfc8239.md "What
	 * the buffer is"; for BUF-4 SPEC's AMB-35); Buf_rfc stands beside it, and where the egress
	 * measurably served below the line the entry says why the two
	 * differ.
	 */
	est = "buf_q";
	bm_json_add_double(e, "egress_service_pct_line", svc);
	if (c->os >= 0)
		slow_egress(b, c, e, svc, rfc_mean, sq.mean);
	bm_json_add_str(e, "estimator", est);
	return ret;
}

/* BUF-2 iteration it (0-based): port it at the line and port it+2 at
 * os_pct to egress it+1, mod N. */
static void cong_port(const struct r8239_buf *b, unsigned int it,
		      struct r8239_buf_cong *c)
{
	const struct r8239_buf_params *p = b->p;
	unsigned int n = b->n;

	memset(c, 0, sizeof(*c));
	c->iteration = it + 1;
	c->egress = (it + 1) % n;
	add_flow(c, it % n, c->egress, p->line_pct);
	add_flow(c, (it + 2) % n, c->egress, p->os_pct);
	c->ref = 1;
	c->os = 1;
}

/* BUF-4 iteration it: egress N, 1, ..., N-1; every other port at
 * (line + os)/(N-1) % (F-8). */
static void cong_dut(const struct r8239_buf *b, unsigned int it,
		     struct r8239_buf_cong *c)
{
	const struct r8239_buf_params *p = b->p;
	unsigned int n = b->n, i;

	memset(c, 0, sizeof(*c));
	c->iteration = it + 1;
	c->egress = (it + n - 1) % n;
	c->os = -1;
	for (i = 0; i < n; i++)
		if (i != c->egress)
			add_flow(c, i, c->egress, (p->line_pct + p->os_pct) /
				 (n - 1));
}

/* BUF-3 (AMB-30) iteration with 1-based egress pair (e, e+1): the pairs
 * of ports 1 .. N-2 both ways at the line, N-1 -> e and N -> e+1 at
 * os_pct; measure egress e (second = false) or e+1. */
static void cong_pairs(const struct r8239_buf *b, unsigned int e,
		       unsigned int it, bool second, struct r8239_buf_cong *c)
{
	const struct r8239_buf_params *p = b->p;
	unsigned int n = b->n, i;

	memset(c, 0, sizeof(*c));
	c->iteration = it;
	for (i = 0; i + 1 < n - 2; i += 2) {
		add_flow(c, i, i + 1, p->line_pct);
		add_flow(c, i + 1, i, p->line_pct);
	}
	add_flow(c, n - 2, e - 1, p->os_pct);
	add_flow(c, n - 1, e, p->os_pct);
	c->egress = second ? e : e - 1;
	c->os = (int)c->n - (second ? 1 : 2);
	c->ref = (unsigned int)c->os;
}

/* The sizes of BUF-1's coarse pass or of the whole exhaustive sweep. */
static size_t sweep_sizes(const struct r8239_buf_params *p, uint32_t step,
			  uint32_t *s, size_t max)
{
	size_t n = 0;
	uint32_t f;

	for (f = p->b_min; f <= p->b_max && n < max; f += step)
		s[n++] = f;
	return n;
}

/* BUF-1: BUF-2's first iteration at every size of the sweep; B* is the
 * size of the largest mean Buf_q in bytes (ties: the smallest size). */
static int buf_efficiency(struct r8239_buf *b, json_object *iters,
			  json_object *res)
{
	const struct r8239_buf_params *p = b->p;
	uint32_t *sz = calloc(9216, sizeof(*sz)), best_f = 0, lo, hi, f;
	struct r8239_buf_cong *c = calloc(1, sizeof(*c));
	double mean, max_q = -INFINITY, best = -INFINITY;
	size_t n, i;
	int ret = 0;

	if (!sz || !c) {
		free(sz);
		free(c);
		return -ENOMEM;
	}
	cong_port(b, 0, c);
	n = sweep_sizes(p, p->sweep == R8239_SWEEP_EXHAUSTIVE ? 1 : 64, sz,
			9216);
	for (i = 0; i < n && !ret; i++) {
		b->f = sz[i];
		ret = buf_iteration(b, c, iters, &mean, &max_q);
		if (!ret && mean > best) {
			best = mean;
			best_f = sz[i];
		}
	}
	if (!ret && best_f && p->sweep == R8239_SWEEP_COARSE_FINE) {
		/* AMB-28: then 1-byte steps within 63 B of the best */
		lo = best_f > p->b_min + 63 ? best_f - 63 : p->b_min;
		hi = best_f + 63 < p->b_max ? best_f + 63 : p->b_max;
		for (f = lo; f <= hi && !ret; f++) {
			if ((f - p->b_min) % 64 == 0)
				continue;	/* measured in the coarse pass */
			b->f = f;
			ret = buf_iteration(b, c, iters, &mean, &max_q);
			if (!ret && (mean > best ||
				     (mean == best && f < best_f))) {
				best = mean;
				best_f = f;
			}
		}
	}
	bm_json_add_u64(res, "best_frame_size", best_f);
	bm_json_add_double(res, "best_buffer_bytes", best_f ? best : NAN);
	bm_json_add_str(res, "best_note", "the frame size that allows the "
			"highest buffer efficiency (RFC 8239 §3.2 (1)), by Buf_q");
	free(sz);
	free(c);
	return ret;
}

int r8239_buffer_run(struct bm_backend *be, const struct r8239_buf_params *p,
		     bm_progress_fn progress, void *ctx, json_object **result,
		     struct bm_error *err)
{
	struct r8239_order order;
	struct r8239_buf b = { .be = be, .p = p, .progress = progress,
			       .ctx = ctx, .err = err, .f = p->frame_size };
	json_object *res, *iters, *dev;
	unsigned int n = be->n_ports, n_it = 0, it, e, done = 0;
	double max_q = -INFINITY, mean;
	struct r8239_buf_cong *c;
	int ret = 0;

	*result = NULL;
	ret = r8239_buf_check(p, err);
	if (ret)
		return ret;
	if (n < 3)
		return bm_errorf(err, "%s needs 3 ports (R8239-BUF: 2 ingress, "
				 "1 egress), %u given",
				 r8239_buf_params_ids[p->test], n);
	if (p->test == R8239_BUF_PAIRS && (n < 6 || n % 2))
		return bm_errorf(err, "%s needs an even number of ports, at "
				 "least 6 (R8239-BUF-3), %u given",
				 r8239_buf_params_ids[p->test], n);
	b.n = n;
	switch (p->test) {
	case R8239_BUF_PORT:
		n_it = n - 2 + (p->wrap ? 2 : 0);
		break;
	case R8239_BUF_DUT:
		n_it = n;
		break;
	case R8239_BUF_PAIRS:
		/* e = 2, 4, ... while e + 1 <= N - 2, then N - 3 */
		n_it = (n - 3) / 2 + ((n - 3) % 2 ? 1 : 0);
		break;
	}
	if (p->test != R8239_BUF_EFFICIENCY && p->iteration > n_it)
		return bm_errorf(err, "%s: iteration: %u outside 1..%u for %u "
				 "ports", r8239_buf_params_ids[p->test],
				 p->iteration, n_it, n);
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	res = json_object_new_object();
	r8239_ports_begin(be, &p->c, &order, res);
	iters = json_object_new_array();
	json_object_object_add(res, "iterations", iters);
	if (p->test == R8239_BUF_EFFICIENCY)
		ret = buf_efficiency(&b, iters, res);
	for (it = 0; p->test != R8239_BUF_EFFICIENCY && it < n_it && !ret;
	     it++) {
		if (p->iteration && it + 1 != p->iteration)
			continue;
		if (p->test == R8239_BUF_PORT) {
			cong_port(&b, it, c);
			ret = buf_iteration(&b, c, iters, &mean, &max_q);
		} else if (p->test == R8239_BUF_DUT) {
			cong_dut(&b, it, c);
			ret = buf_iteration(&b, c, iters, &mean, &max_q);
		} else {
			/* the RFC's last iteration is egress N-3 and N-2 */
			e = 2 * it + 2;
			if (e + 1 > n - 2)
				e = n - 3;
			cong_pairs(&b, e, it + 1, false, c);
			ret = buf_iteration(&b, c, iters, &mean, &max_q);
			if (!ret) {
				cong_pairs(&b, e, it + 1, true, c);
				ret = buf_iteration(&b, c, iters, &mean,
						    &max_q);
			}
		}
		done++;
	}
	r8239_ports_end(be, &order);
	free(c);
	if (p->test != R8239_BUF_EFFICIENCY)
		bm_json_add_u64(res, "frame_size", p->frame_size);
	bm_json_add_u64(res, "ports", n);
	bm_json_add_double(res, "os_pct", p->os_pct);
	bm_json_add_u64(res, "trials_sent_again", b.retried);
	bm_json_add_u64(res, "losses_not_confirmed", b.unconfirmed);
	bm_json_add_u64(res, "trials_drained_again", b.drained_again);
	if (p->test == R8239_BUF_DUT)
		bm_json_add_double(res, "max_dut_buffer_bytes",
				   isfinite(max_q) ? max_q : NAN);
	dev = json_object_new_array();
	if (p->os_pct != 1.0)
		json_object_array_add(dev, json_object_new_string(
			"oversubscription is not 1 % (RFC 8239 §3.3 item 5: "
			"reported)"));
	if (p->line_pct != 99.98)
		json_object_array_add(dev, json_object_new_string(
			"line rate below 99.98 % of nominal"));
	if (p->wrap)
		json_object_array_add(dev, json_object_new_string(
			"wrap: egress ports N and 1 measured too [EXTENSION]"));
	if (p->method == R8239_BUF_SEARCH)
		json_object_array_add(dev, json_object_new_string(
			"method=search: inflection found by a search on the "
			"traffic's length, not from a per-frame log "
			"(REQ-BUF-1); Buf_rfc and Buf_q then both assume the "
			"egress serves at the line rate, and nothing checks "
			"it"));
	(void)done;
	if (p->test != R8239_BUF_DUT)
		json_object_array_add(dev, json_object_new_string(
			"the buffer is Buf_q, the frames the egress held when "
			"it dropped, not RFC 8239 §3.2's (extra frames - 1) x "
			"F (buf_rfc, reported beside it), which counts as "
			"buffer what the egress let out above the line rate "
			"(a shaper's bucket) and reads low when it drains "
			"below it [INTERPRETATION]"));
	if (b.drained_again) {
		char line[320];

		snprintf(line, sizeof(line), "%u trial(s) lost frames that "
			 "arrived after the loss wait (drain_s %g s): each was "
			 "run again waiting longer, up to %g s (REQ-RX-3: a "
			 "frame still in the egress is not a loss)",
			 b.drained_again, p->c.drain_s, b.drain_longest_s);
		json_object_array_add(dev, json_object_new_string(line));
	}
	if (b.n_slow) {
		char line[480];

		snprintf(line, sizeof(line), "%u iteration(s) whose egress "
			 "served below the line rate, where Buf_rfc reads "
			 "low: %s", b.n_slow, b.slow_why);
		json_object_array_add(dev, json_object_new_string(line));
	}
	r8239_flag_rsd(res, dev);
	*result = bm_result_envelope(r8239_buf_params_ids[p->test],
				     r8239_buf_params_refs[p->test],
				     bm_json_params_to_json(r8239_buf_keys,
					R8239_BUF_MASK(p->test), p, NULL),
				     &b.log, NULL, res, dev, be);
	bm_trial_log_free(&b.log);
	return ret;
}

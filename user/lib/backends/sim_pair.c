// SPDX-License-Identifier: GPL-2.0
/*
 * A pair trial on the simulated DUT's fluid model (sim_fluid.c): the
 * arrival segments of the trial's pattern (a generator slower than the
 * line stretches them), each direction run through the model with its
 * drain, random loss, receive timeline and tagged frame, and the two
 * directions summed into the trial's result.  Apart from the model
 * because this is the trial around it: the model knows no trial spec.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bm_sim.h"
#include "sim_int.h"

#define SIM_MAX_SEG	2

/* Result of one direction. */
struct dir_res {
	uint64_t intended, attempted, received, lost, late;
	bool limited;
	double burst_late;	/* the last frame behind the line's schedule */
	double first_tx, last_tx, first_rx, last_rx;
	double max_gap, max_gap_start;
	double last_loss_after_step;
	struct bm_latency lat;
	double tag_tx;
	bool tag_rx;
	double tag_lat_ns;
};

/* Build the arrival segments of spec; returns the step instant or -1. */
static double build_segs(const struct sim_priv *sp,
			 const struct bm_trial_spec *spec, double knee,
			 struct seg *segs, size_t *nseg, struct dir_res *r)
{
	const struct bm_sim_params *p = &sp->p;
	double line_fps = bm_fps_max(p->line_rate_bps, spec->frame_size);
	double cap = line_fps, rate, step = -1.0, r2;
	uint64_t n;

	if (p->generator_max_fps > 0.0 && p->generator_max_fps < cap)
		cap = p->generator_max_fps;
	*nseg = 0;
	if (spec->pattern == BM_PAT_BURST) {
		n = spec->burst_frames;
		rate = line_fps;
		/* a generator slower than the line leaves each gap wider
		 * than the minimum: its last frame is the latest */
		if (cap < line_fps * (1.0 - 1e-12)) {
			rate = cap;
			r->burst_late = n > 1 ? (double)(n - 1) *
					(1.0 / cap - 1.0 / line_fps) : 0.0;
			r->limited = r->burst_late > BM_BURST_GAP_TOL_S;
		}
		r->intended = r->attempted = n;
		if (n) {
			segs[0] = (struct seg){
				0.0, rate, n,
				sim_fluid_gradual_ratio(p, rate, knee) };
			*nseg = 1;
		}
		return step;
	}
	rate = spec->rate_fps;
	r->intended = (uint64_t)llround(rate * spec->duration_s);
	if (rate > cap * (1.0 + 1e-12))
		rate = cap;
	n = (uint64_t)llround(rate * spec->duration_s);
	if (n > r->intended)
		n = r->intended;
	if (n && rate > 0.0) {
		segs[0] = (struct seg){
			0.0, rate, n,
			sim_fluid_gradual_ratio(p, rate, knee) };
		*nseg = 1;
	}
	r->attempted = n;
	if (spec->pattern == BM_PAT_STEP) {
		step = spec->duration_s;
		r2 = spec->step_rate_fps;
		n = (uint64_t)llround(r2 * spec->step_duration_s);
		r->intended += n;
		if (r2 > cap * (1.0 + 1e-12))
			r2 = cap;
		n = (uint64_t)llround(r2 * spec->step_duration_s);
		if (n && r2 > 0.0) {
			segs[*nseg] = (struct seg){
				step, r2, n,
				sim_fluid_gradual_ratio(p, r2, knee) };
			(*nseg)++;
		}
		r->attempted += n;
	}
	/* REQ-GEN-6: short by more than 10 us worth of traffic. */
	if ((double)(r->intended - r->attempted) >
	    fmax(spec->rate_fps, spec->step_rate_fps) * 10e-6)
		r->limited = true;
	return step;
}

/* Random loss of one segment and the tx time of its last random loss. */
static uint64_t random_loss(struct sim_priv *sp, const struct seg *s,
			    uint64_t passed, double *last_tx)
{
	uint64_t k = sim_rng_binomial(&sp->rng, passed, sp->p.random_loss);
	double idx;

	*last_tx = -1.0;
	if (k && s->frames) {
		/* The largest of k uniform positions. */
		idx = floor(s->frames * pow(sim_rng_uniform(&sp->rng), 1.0 / k));
		if (idx > (double)(s->frames - 1))
			idx = (double)(s->frames - 1);
		*last_tx = s->t0 + idx / s->rate;
	}
	return k;
}

/* The receive timeline of a direction that received frames: normal
 * spacing, then gaps around outages (x_end: the backlog at the end). */
static void rx_timeline(const struct dir_state *st,
			const struct bm_sim_params *p, double C, double x_end,
			double normal_gap, struct dir_res *r)
{
	double gap, ta, tb;
	size_t i;

	r->first_rx = r->first_tx + p->base_latency_ns * 1e-9;
	r->last_rx = r->last_tx + p->base_latency_ns * 1e-9 + x_end / C;
	r->max_gap = r->received > 1 ? normal_gap : 0.0;
	r->max_gap_start = r->first_rx;
	for (i = 0; i < st->nw; i++) {
		ta = sim_fluid_arrival_before(st, st->w[i].s);
		tb = sim_fluid_arrival_from(st, st->w[i].e);
		if (ta < 0.0 || tb < 0.0 || ta >= st->w[i].s)
			continue;
		gap = tb - ta;
		if (gap > r->max_gap) {
			r->max_gap = gap;
			r->max_gap_start = ta + p->base_latency_ns * 1e-9;
		}
	}
	if (sim_fluid_window_at(st, r->first_tx) >= 0) {
		tb = sim_fluid_arrival_from(st,
			st->w[sim_fluid_window_at(st, r->first_tx)].e);
		if (tb >= 0.0)
			r->first_rx = tb + p->base_latency_ns * 1e-9;
	}
	/* an outage still on when the stream ends: the last frame
	 * received is the last one sent before it began */
	if (sim_fluid_window_at(st, r->last_tx) >= 0) {
		ta = sim_fluid_arrival_before(st,
			st->w[sim_fluid_window_at(st, r->last_tx)].s);
		if (ta >= 0.0)
			r->last_rx = ta + p->base_latency_ns * 1e-9;
	}
}

static void run_dir(struct sim_priv *sp, const struct bm_trial_spec *spec,
		    const struct win *wins, size_t nwin, struct dir_res *r)
{
	const struct bm_sim_params *p = &sp->p;
	struct dir_state *st;
	struct seg segs[SIM_MAX_SEG];
	size_t nseg, i;
	double C, A, knee, step, drain, lost_f, x_end, rl_tx;
	double offset, normal_gap = 0.0;
	uint64_t lost, passed, rnd, seg_lost;

	memset(r, 0, sizeof(*r));
	r->last_loss_after_step = -1.0;
	r->tag_tx = -1.0;
	st = calloc(1, sizeof(*st));
	if (!st)
		return;
	C = bm_sim_capacity_fps(p, spec->frame_size);
	if (p->capacity_noise > 0.0)
		C *= 1.0 + p->capacity_noise * (2.0 * sim_rng_uniform(&sp->rng) - 1.0);
	offset = 0.0;
	if (p->latency_jitter_ns > 0.0)
		offset = p->latency_jitter_ns * (2.0 * sim_rng_uniform(&sp->rng) - 1.0);
	A = bm_sim_frame_bytes(p, spec->frame_size);
	knee = p->knee_fps > 0.0 ? p->knee_fps : C;
	step = build_segs(sp, spec, knee, segs, &nseg, r);

	st->C = C;
	st->hi = (double)p->buffer_frames;
	/* tbf needs burst >= one frame, else nothing could ever leave. */
	st->lo = -fmax(1.0, p->bucket_bytes / A);
	st->base_ns = p->base_latency_ns;
	st->segs = segs;
	st->nseg = nseg;
	st->last_loss = -1.0;
	st->probe_t = spec->tag ? spec->tag_at_s : -1.0;
	st->x = st->lo;
	for (i = 0; i < nwin && i < SIM_MAX_WIN; i++)
		st->w[st->nw++] = wins[i];

	if (p->max_frame_size && spec->frame_size > p->max_frame_size) {
		/* Not forwarded (MTU): everything is lost. */
		st->lost = (double)r->attempted;
		if (nseg)
			st->last_loss = segs[nseg - 1].t0 +
				(segs[nseg - 1].frames - 1) / segs[nseg - 1].rate;
		st->npc = 0;
		nseg = 0;
	}
	for (i = 0; i < nseg; i++) {
		const struct seg *s = &segs[i];
		double span = (s->frames - 1) / s->rate;

		sim_fluid_advance(st, s->t0, NULL);
		sim_fluid_impulse(st, s);
		sim_fluid_advance(st, s->t0 + span, s);
		if (s->g > 0.0) {
			st->lost += s->g * s->frames;
			sim_fluid_note_loss(st, s->t0 + span);
		}
		normal_gap = fmax(normal_gap, 1.0 / fmin(s->rate * (1.0 - s->g), C));
	}
	x_end = fmax(0.0, st->x);

	/* Whole frames: a fractional fluid loss is at least one frame. */
	lost_f = ceil(st->lost - 1e-6);
	lost = lost_f <= 0.0 ? 0 : (uint64_t)lost_f;
	if (lost > r->attempted)
		lost = r->attempted;
	/* Frames still queued after the drain wait are late, hence lost. */
	drain = spec->drain_s < 0.0 ? SIM_DRAIN_S : spec->drain_s;
	/* A burst trial counts until duration_s after the burst start
	 * (§26.4 MUST >= 2 s), as the module backend does. */
	if (spec->pattern == BM_PAT_BURST && nseg)
		drain = fmax(drain, spec->duration_s -
				    (segs[0].frames - 1) / segs[0].rate);
	if (x_end > C * drain) {
		r->late = (uint64_t)ceil(x_end - C * drain - 1e-6);
		lost += r->late;
		if (lost > r->attempted)
			lost = r->attempted;
	}
	passed = r->attempted - lost;
	/* Random (Bernoulli) loss on what the model let through. */
	for (i = 0; i < nseg && p->random_loss > 0.0; i++) {
		seg_lost = (uint64_t)((double)passed * segs[i].frames /
				      (double)r->attempted);
		rnd = random_loss(sp, &segs[i], seg_lost, &rl_tx);
		if (rnd > passed)
			rnd = passed;
		passed -= rnd;
		lost += rnd;
		if (rnd)
			sim_fluid_note_loss(st, rl_tx);
	}
	r->lost = lost;
	r->received = r->attempted - lost;

	if (nseg) {
		const struct seg *ls = &segs[nseg - 1];

		r->first_tx = segs[0].t0;
		r->last_tx = ls->t0 + (ls->frames - 1) / ls->rate;
	}
	if (step >= 0.0 && st->last_loss >= step - SIM_EPS)
		r->last_loss_after_step = fmax(0.0, st->last_loss - step);

	/* Receive timeline: normal spacing, then gaps around outages. */
	if (r->received)
		rx_timeline(st, p, C, x_end, normal_gap, r);
	if (spec->latency)
		sim_fluid_latency(st, r->received, offset, &r->lat);

	/* The tagged frame (R2544-LAT): lost in an outage, to tail drop, to
	 * the gradual stage or at random; else its FIFO latency. */
	if (spec->tag && st->probe_done) {
		double pdrop = 0.0;

		r->tag_tx = sim_fluid_arrival_from(st, spec->tag_at_s);
		if (r->tag_tx < 0.0)
			r->tag_tx = st->probe_t;
		if (st->probe_a > C && st->probe_x >= st->hi - 1e-9)
			pdrop = (st->probe_a - C) / st->probe_a;
		/* §26.2 new-net: a RIP-only router (rip_routes) without a
		 * route to the tagged frame's network drops it */
		r->tag_rx = !st->probe_outage &&
			    sim_rip_routed_net(sp, spec->tag_dst_ip4, 1,
					       sp->rip_now_s) &&
			    sim_rng_uniform(&sp->rng) >= pdrop &&
			    sim_rng_uniform(&sp->rng) >= p->random_loss &&
			    !(p->max_frame_size &&
			      spec->frame_size > p->max_frame_size);
		for (i = 0; i < nseg; i++)
			if (r->tag_tx >= segs[i].t0 && segs[i].g > 0.0 &&
			    sim_rng_uniform(&sp->rng) < segs[i].g)
				r->tag_rx = false;
		r->tag_lat_ns = p->base_latency_ns + offset +
				fmax(0.0, st->probe_x) / C * 1e9;
	}
	free(st);
}

int sim_pair_run_trial(struct bm_backend *be,
		       const struct bm_trial_spec *spec,
		       struct bm_trial_result *res, struct bm_error *err)
{
	struct sim_priv *sp = be->priv;
	const struct bm_sim_params *p = &sp->p;
	struct win wins[SIM_MAX_WIN];
	struct dir_res d[2];
	size_t nwin;
	double span;
	int ndir, i;

	/* N ports: the frame-level model of sim_traffic.c */
	if (spec->traffic)
		return sim_run_traffic(be, spec, res, err);
	sp->rip_now_s = be->elapsed_s;	/* a route's age at the start */
	if (!spec->frame_size || spec->frame_size > 65535)
		return bm_errorf(err, "sim: bad frame size %u", spec->frame_size);
	if (spec->pattern == BM_PAT_BURST) {
		if (!spec->burst_frames)
			return bm_errorf(err, "sim: burst of 0 frames");
	} else if (!(spec->rate_fps >= 0.0) || !(spec->duration_s > 0.0) ||
		   !isfinite(spec->rate_fps) || !isfinite(spec->duration_s)) {
		return bm_errorf(err, "sim: bad rate %g fps or duration %g s",
				 spec->rate_fps, spec->duration_s);
	}
	if (spec->pattern == BM_PAT_STEP &&
	    (!(spec->step_rate_fps >= 0.0) || !(spec->step_duration_s > 0.0)))
		return bm_errorf(err, "sim: bad step rate or duration");

	nwin = sim_windows(sp, spec, spec->pattern == BM_PAT_STEP ?
			   spec->duration_s : -1.0, wins, res);

	ndir = spec->topology == BM_TOPO_PAIR_BIDIR ? 2 : 1;
	for (i = 0; i < ndir; i++)
		run_dir(sp, spec, wins, nwin, &d[i]);
	if (ndir == 1)
		d[1] = (struct dir_res){ 0 };

	res->intended = d[0].intended + d[1].intended;
	res->attempted = d[0].attempted + d[1].attempted;
	res->received = d[0].received + d[1].received;
	res->lost = d[0].lost + d[1].lost;
	res->late = d[0].late + d[1].late;
	res->generator_limited = d[0].limited || d[1].limited;
	if (spec->pattern == BM_PAT_BURST) {
		bm_trial_burst_late_add(res, d[0].burst_late);
		bm_trial_burst_late_add(res, d[1].burst_late);
	}
	res->actual_duration_s = d[0].last_tx - d[0].first_tx;
	res->first_rx_s = d[0].first_rx;
	res->last_rx_s = fmax(d[0].last_rx, d[1].last_rx);
	res->last_loss_after_step_s = fmax(d[0].last_loss_after_step,
					   d[1].last_loss_after_step);
	res->max_gap_s = d[0].max_gap;
	res->max_gap_start_s = d[0].max_gap_start;
	if (ndir == 2 && d[1].max_gap > d[0].max_gap) {
		res->max_gap_s = d[1].max_gap;
		res->max_gap_start_s = d[1].max_gap_start;
	}
	res->latency = d[0].lat;
	if (ndir == 2 && d[1].lat.count) {
		/* Both directions see the same model: merge the summaries. */
		res->latency.count += d[1].lat.count;
		res->latency.min_ns = fmin(d[0].lat.min_ns, d[1].lat.min_ns);
		res->latency.max_ns = fmax(d[0].lat.max_ns, d[1].lat.max_ns);
		res->latency.mean_ns = 0.5 * (d[0].lat.mean_ns + d[1].lat.mean_ns);
	}
	if (spec->tag) {
		res->tag_tx_s = d[0].tag_tx;
		res->tag_received = d[0].tag_rx;
		res->tag_latency_ns = d[0].tag_lat_ns;
	}
	snprintf(res->ts_source, sizeof(res->ts_source), "sim");
	res->late_watch_s = -1;	/* the model knows every late frame */

	span = spec->pattern == BM_PAT_BURST ?
	       fmax(spec->duration_s, res->actual_duration_s) :
	       spec->duration_s + (spec->pattern == BM_PAT_STEP ?
				   spec->step_duration_s : 0.0);
	be->elapsed_s += span + p->trial_overhead_s;
	return 0;
}

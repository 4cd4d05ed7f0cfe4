// SPDX-License-Identifier: GPL-2.0
/*
 * Constant traffic between two ports on the simulated DUT's fluid model
 * (sim_fluid.c), the model of every pair trial (bm_traffic_of_pair's
 * shapes: a counted stream, one burst, a load step, the reverse stream):
 * the arrival segments of the traffic (a generator slower than the line
 * stretches them), each direction run through the model with its drain,
 * random loss, receive timeline and tagged frame, and the directions
 * summed into the trial's result.  A fluid needs no frame-by-frame
 * events, so a trial of 10^9 frames costs what one of ten does; other
 * traffic runs frame by frame (sim_traffic.c).
 */
#include <errno.h>
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

/*
 * The pair load of a trial's traffic, when it is one the fluid model
 * answers: two ports, stream 0 from the first to the second at a count
 * of frames (or one burst), and a reverse stream like it or a later one
 * (the step); totals only (no per-stream result asked), the trial's
 * frame size, no frame log, imix, management or routing.  0, or -EINVAL
 * for traffic the frame-level model runs.
 */
int sim_pair_load_of(const struct bm_trial_spec *spec, struct sim_pair_load *l)
{
	const struct bm_traffic *t = spec->traffic;
	const struct bm_stream_spec *f, *r;

	if (!t || spec->traffic_res || t->n_ports != 2 || !t->n_streams ||
	    t->n_streams > 2 || t->n_imix || t->have_mgmt || t->n_rip)
		return -EINVAL;
	f = &t->streams[0];
	if (f->tx_port || f->rx_port != 1 || f->start_s != 0 ||
	    f->phase != 0 || f->frame_size || f->imix || f->log_frames ||
	    f->load_unit != BM_LOAD_FPS)
		return -EINVAL;
	memset(l, 0, sizeof(*l));
	l->frame_size = spec->frame_size;
	l->duration_s = spec->duration_s;
	l->tag_at_s = -1.0;
	if (f->pattern == BM_STREAM_BURSTS) {
		if (f->burst_count != 1 || f->burst_last_size)
			return -EINVAL;
		l->pattern = BM_PAT_BURST;
		l->burst_frames = f->burst_len;
	} else if (f->pattern == BM_STREAM_COUNT) {
		l->pattern = BM_PAT_RATE;
		l->rate_fps = f->load;
		l->frames = f->count;
	} else {
		return -EINVAL;
	}
	if (f->tag_seq >= 0 && f->load > 0) {
		/* the frame the module would tag: seq tag_seq */
		l->tag_at_s = (double)f->tag_seq / f->load;
		memcpy(l->tag_dst_ip4, f->tag_dst_ip4, 4);
	}
	if (t->n_streams == 1)
		return 0;
	r = &t->streams[1];
	if (r->pattern != f->pattern || r->load_unit != BM_LOAD_FPS ||
	    r->phase != 0 || r->frame_size || r->imix || r->log_frames ||
	    r->tag_seq >= 0)
		return -EINVAL;
	if (r->tx_port == 1 && !r->rx_port && r->start_s == 0 &&
	    r->load == f->load && r->count == f->count &&
	    r->burst_len == f->burst_len &&
	    r->burst_count == f->burst_count && !r->burst_last_size) {
		l->bidir = true;
		return 0;
	}
	if (l->pattern != BM_PAT_RATE || r->tx_port || r->rx_port != 1 ||
	    !(r->start_s > 0) ||
	    !(r->start_s < spec->duration_s))
		return -EINVAL;
	/* R2544-RECOV: the step at stream 1's start; the trial's duration
	 * holds both loads */
	l->pattern = BM_PAT_STEP;
	l->duration_s = r->start_s;
	l->step_rate_fps = r->load;
	l->step_frames = r->count;
	l->span_s = spec->duration_s;
	return 0;
}

/* The frames of a count at rate a generator of cap fps sends in the
 * count's time. */
static uint64_t sent_of(uint64_t count, double rate, double cap)
{
	if (rate > cap * (1.0 + 1e-12))
		return (uint64_t)llround(cap * ((double)count / rate));
	return count;
}

/* Build the arrival segments of load l; returns the step instant or -1. */
static double build_segs(const struct sim_priv *sp,
			 const struct sim_pair_load *l, double knee,
			 struct seg *segs, size_t *nseg, struct dir_res *r)
{
	const struct bm_sim_params *p = &sp->p;
	double line_fps = bm_fps_max(p->line_rate_bps, l->frame_size);
	double cap = line_fps, rate, step = -1.0, r2;
	uint64_t n;

	if (p->generator_max_fps > 0.0 && p->generator_max_fps < cap)
		cap = p->generator_max_fps;
	*nseg = 0;
	if (l->pattern == BM_PAT_BURST) {
		n = l->burst_frames;
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
	rate = l->rate_fps;
	r->intended = l->frames;
	n = sent_of(l->frames, rate, cap);
	if (rate > cap * (1.0 + 1e-12))
		rate = cap;
	if (n && rate > 0.0) {
		segs[0] = (struct seg){
			0.0, rate, n,
			sim_fluid_gradual_ratio(p, rate, knee) };
		*nseg = 1;
	}
	r->attempted = n;
	if (l->pattern == BM_PAT_STEP) {
		step = l->duration_s;
		r2 = l->step_rate_fps;
		r->intended += l->step_frames;
		n = sent_of(l->step_frames, r2, cap);
		if (r2 > cap * (1.0 + 1e-12))
			r2 = cap;
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
	    fmax(l->rate_fps, l->step_rate_fps) * 10e-6)
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
		    const struct sim_pair_load *l, const struct win *wins,
		    size_t nwin, struct dir_res *r)
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
	C = bm_sim_capacity_fps(p, l->frame_size);
	if (p->capacity_noise > 0.0)
		C *= 1.0 + p->capacity_noise * (2.0 * sim_rng_uniform(&sp->rng) - 1.0);
	offset = 0.0;
	if (p->latency_jitter_ns > 0.0)
		offset = p->latency_jitter_ns * (2.0 * sim_rng_uniform(&sp->rng) - 1.0);
	A = bm_sim_frame_bytes(p, l->frame_size);
	knee = p->knee_fps > 0.0 ? p->knee_fps : C;
	step = build_segs(sp, l, knee, segs, &nseg, r);

	st->C = C;
	st->hi = (double)p->buffer_frames;
	/* tbf needs burst >= one frame, else nothing could ever leave. */
	st->lo = -fmax(1.0, p->bucket_bytes / A);
	st->base_ns = p->base_latency_ns;
	st->segs = segs;
	st->nseg = nseg;
	st->last_loss = -1.0;
	st->probe_t = l->tag_at_s;
	st->x = st->lo;
	for (i = 0; i < nwin && i < SIM_MAX_WIN; i++)
		st->w[st->nw++] = wins[i];

	if (p->max_frame_size && l->frame_size > p->max_frame_size) {
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
	if (l->pattern == BM_PAT_BURST && nseg)
		drain = fmax(drain, l->duration_s -
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
	if (l->tag_at_s >= 0.0 && st->probe_done) {
		double pdrop = 0.0;

		r->tag_tx = sim_fluid_arrival_from(st, l->tag_at_s);
		if (r->tag_tx < 0.0)
			r->tag_tx = st->probe_t;
		if (st->probe_a > C && st->probe_x >= st->hi - 1e-9)
			pdrop = (st->probe_a - C) / st->probe_a;
		/* §26.2 new-net: a RIP-only router (rip_routes) without a
		 * route to the tagged frame's network drops it */
		r->tag_rx = !st->probe_outage &&
			    sim_rip_routed_net(sp, l->tag_dst_ip4, 1,
					       sp->rip_now_s) &&
			    sim_rng_uniform(&sp->rng) >= pdrop &&
			    sim_rng_uniform(&sp->rng) >= p->random_loss &&
			    !(p->max_frame_size &&
			      l->frame_size > p->max_frame_size);
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
		       const struct sim_pair_load *pl,
		       struct bm_trial_result *res, struct bm_error *err)
{
	struct sim_priv *sp = be->priv;
	const struct bm_sim_params *p = &sp->p;
	const struct sim_pair_load l = *pl;
	struct win wins[SIM_MAX_WIN];
	struct dir_res d[2];
	size_t nwin;
	double span;
	int ndir, i;

	sp->rip_now_s = be->elapsed_s;	/* a route's age at the start */
	if (!l.frame_size || l.frame_size > 65535)
		return bm_errorf(err, "sim: bad frame size %u", l.frame_size);
	if (l.pattern == BM_PAT_BURST && !l.burst_frames)
		return bm_errorf(err, "sim: burst of 0 frames");
	if (l.pattern != BM_PAT_BURST &&
	    (!(l.rate_fps >= 0.0) || !isfinite(l.rate_fps)))
		return bm_errorf(err, "sim: bad rate %g fps", l.rate_fps);
	if (!(l.duration_s > 0.0) || !isfinite(l.duration_s))
		return bm_errorf(err, "sim: bad duration %g s", l.duration_s);
	if (l.pattern == BM_PAT_STEP && !(l.step_rate_fps >= 0.0))
		return bm_errorf(err, "sim: bad step rate");

	nwin = sim_windows(sp, spec, l.pattern == BM_PAT_STEP ?
			   l.duration_s : -1.0, wins, res);

	ndir = l.bidir ? 2 : 1;
	for (i = 0; i < ndir; i++)
		run_dir(sp, spec, &l, wins, nwin, &d[i]);
	if (ndir == 1)
		d[1] = (struct dir_res){ 0 };

	res->intended = d[0].intended + d[1].intended;
	res->attempted = d[0].attempted + d[1].attempted;
	res->received = d[0].received + d[1].received;
	res->lost = d[0].lost + d[1].lost;
	res->late = d[0].late + d[1].late;
	res->generator_limited = d[0].limited || d[1].limited;
	if (l.pattern == BM_PAT_BURST) {
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
	if (l.tag_at_s >= 0.0) {
		res->tag_tx_s = d[0].tag_tx;
		res->tag_received = d[0].tag_rx;
		res->tag_latency_ns = d[0].tag_lat_ns;
	}
	snprintf(res->ts_source, sizeof(res->ts_source), "sim");
	res->late_watch_s = -1;	/* the model knows every late frame */

	span = l.pattern == BM_PAT_BURST ?
	       fmax(l.duration_s, res->actual_duration_s) :
	       l.pattern == BM_PAT_STEP ? l.span_s : l.duration_s;
	be->elapsed_s += span + p->trial_overhead_s;
	return 0;
}

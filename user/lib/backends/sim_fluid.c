// SPDX-License-Identifier: GPL-2.0
/*
 * The simulated DUT of pair trials: MODEL-TBF / MODEL-RL of SPEC 5.3 in
 * fluid form.
 *
 * The state of one direction is a single number x = backlog - token credit
 * in frames, bounded by [-B0, Q] where B0 = b/A is the bucket depth and Q
 * the FIFO.  Arrivals at rate a move x at (a - C); at Q the excess is lost
 * (tail drop), at -B0 the bucket is full.  Each trial starts idle (full
 * bucket, empty queue): the 5 s restabilise wait of REQ-TRIAL-1.
 *
 * A stream of N frames is an impulse of one frame at its start plus a fluid
 * of N-1 frames over the (N-1)/r arrival span, so the loss-free condition is
 * exactly the SPEC closed form n <= Q + floor((b + rho*T)/A) with T the time
 * from first to last arrival; fluid loss is rounded up to whole frames.
 *
 * This file holds the model of one direction: the state evolved over
 * arrivals and outages, and the latency of what it let through; the
 * trial around it is sim_pair.c.  Apart from the trial because the model
 * knows no trial spec, only segments of arrivals and outage windows.
 */
#include <math.h>
#include <string.h>

#include "bm_sim.h"
#include "sim_int.h"

double bm_sim_frame_bytes(const struct bm_sim_params *p, uint32_t frame_size)
{
	double a = (double)frame_size - 4.0 + p->overhead_bytes;

	return a < 1.0 ? 1.0 : a;
}

double bm_sim_capacity_fps(const struct bm_sim_params *p, uint32_t frame_size)
{
	if (p->capacity_fps > 0.0)
		return p->capacity_fps;
	if (p->capacity_bps > 0.0)
		return p->capacity_bps / 8.0 / bm_sim_frame_bytes(p, frame_size);
	/* A DUT without a bottleneck: far beyond any line rate. */
	return 1e6 * bm_fps_max(p->line_rate_bps, frame_size);
}

static void add_piece(struct dir_state *st, double mass, double x0, double x1)
{
	struct piece *pc;

	if (mass <= 0.0)
		return;
	if (st->npc == SIM_MAX_PIECES) {
		/* Cannot happen with <= 2 segments and 4 windows; merge into
		 * the last piece rather than lose received frames. */
		pc = &st->pc[st->npc - 1];
		pc->mass += mass;
		return;
	}
	pc = &st->pc[st->npc++];
	pc->mass = mass;
	pc->l0 = st->base_ns + fmax(0.0, x0) / st->C * 1e9;
	pc->l1 = st->base_ns + fmax(0.0, x1) / st->C * 1e9;
}

/* Last arrival strictly before t over all segments, or -1. */
double sim_fluid_arrival_before(const struct dir_state *st, double t)
{
	double best = -1.0, k, a;
	size_t i;

	for (i = 0; i < st->nseg; i++) {
		const struct seg *s = &st->segs[i];

		if (!s->frames || t <= s->t0)
			continue;
		k = ceil((t - s->t0) * s->rate - SIM_EPS) - 1.0;
		if (k > (double)(s->frames - 1))
			k = (double)(s->frames - 1);
		if (k < 0.0)
			k = 0.0;
		a = s->t0 + k / s->rate;
		if (a > best)
			best = a;
	}
	return best;
}

/* First arrival at or after t over all segments, or -1. */
double sim_fluid_arrival_from(const struct dir_state *st, double t)
{
	double best = -1.0, k, a;
	size_t i;

	for (i = 0; i < st->nseg; i++) {
		const struct seg *s = &st->segs[i];

		if (!s->frames)
			continue;
		k = t <= s->t0 ? 0.0 : ceil((t - s->t0) * s->rate - SIM_EPS);
		if (k > (double)(s->frames - 1))
			continue;
		a = s->t0 + k / s->rate;
		if (best < 0.0 || a < best)
			best = a;
	}
	return best;
}

void sim_fluid_note_loss(struct dir_state *st, double tx)
{
	if (tx > st->last_loss)
		st->last_loss = tx;
}

int sim_fluid_window_at(const struct dir_state *st, double t)
{
	size_t i;

	for (i = 0; i < st->nw; i++)
		if (t >= st->w[i].s && t < st->w[i].e)
			return (int)i;
	return -1;
}

/* Evolve x over dt with arrival rate a (frames/s) outside an outage. */
static void flow(struct dir_state *st, double a, double dt, double tend)
{
	double d = a - st->C, x = st->x, t1, m;

	if (dt <= 0.0)
		return;
	if (d > 0.0) {
		if (x < 0.0) {
			t1 = fmin(dt, -x / d);
			add_piece(st, a * t1, 0.0, 0.0);
			x += d * t1;
			dt -= t1;
		}
		if (dt > 0.0 && x < st->hi) {
			t1 = fmin(dt, (st->hi - x) / d);
			add_piece(st, a * t1, x, x + d * t1);
			x = fmin(st->hi, x + d * t1);
			dt -= t1;
		}
		if (dt > 0.0) {
			/* Tail drop: the queue is full, the excess is lost. */
			add_piece(st, st->C * dt, st->hi, st->hi);
			st->lost += d * dt;
			sim_fluid_note_loss(st, tend);
		}
	} else {
		if (x > 0.0) {
			t1 = d < 0.0 ? fmin(dt, x / -d) : dt;
			add_piece(st, a * t1, x, x + d * t1);
			x = fmax(0.0, x + d * t1);
			dt -= t1;
		}
		if (dt > 0.0) {
			m = a * dt;
			add_piece(st, m, 0.0, 0.0);
			x = fmax(st->lo, x + d * dt);
		}
	}
	st->x = x;
}

/*
 * Advance the state from st->t to t_to with arrivals at rate a from seg
 * (NULL = idle), splitting at outage boundaries and at the tag probe.
 */
void sim_fluid_advance(struct dir_state *st, double t_to, const struct seg *sg)
{
	double a = sg ? sg->rate * (1.0 - sg->g) : 0.0, nb, dt, lost_tx;
	size_t i;
	int w;

	while (st->t < t_to) {
		nb = t_to;
		for (i = 0; i < st->nw; i++) {
			if (st->w[i].s > st->t && st->w[i].s < nb)
				nb = st->w[i].s;
			if (st->w[i].e > st->t && st->w[i].e < nb)
				nb = st->w[i].e;
		}
		if (st->probe_t > st->t && st->probe_t < nb)
			nb = st->probe_t;
		w = sim_fluid_window_at(st, st->t);
		if (w >= 0 && !st->w[w].flushed) {
			/* Link down: whatever sits in the queue is lost. */
			st->w[w].flushed = true;
			if (st->x > 0.0) {
				st->lost += st->x;
				sim_fluid_note_loss(st,
					sim_fluid_arrival_before(st, st->t));
				st->x = 0.0;
			}
		}
		if (!st->probe_done && st->probe_t >= 0.0 &&
		    st->t >= st->probe_t) {
			st->probe_done = true;
			st->probe_x = st->x;
			st->probe_a = a;
			st->probe_outage = w >= 0;
		}
		dt = nb - st->t;
		if (w >= 0) {
			/* Arrivals are lost; the idle device refills tokens. */
			if (a > 0.0) {
				st->lost += a * dt;
				lost_tx = sim_fluid_arrival_before(st, nb);
				if (lost_tx >= st->t)
					sim_fluid_note_loss(st, lost_tx);
			}
			st->x = fmax(st->lo, fmin(st->x, 0.0) - st->C * dt);
		} else if (a > 0.0) {
			flow(st, a, dt, nb);
		} else {
			st->x = fmax(st->lo, st->x - st->C * dt);
		}
		st->t = nb;
	}
}

/* One frame arriving at st->t (the start of a segment). */
void sim_fluid_impulse(struct dir_state *st, const struct seg *sg)
{
	double m = 1.0 - sg->g;

	if (!st->probe_done && st->probe_t >= 0.0 && st->probe_t <= st->t) {
		st->probe_done = true;
		st->probe_x = st->x;
		st->probe_a = sg->rate * m;
		st->probe_outage = sim_fluid_window_at(st, st->t) >= 0;
	}
	if (sim_fluid_window_at(st, st->t) >= 0) {
		st->lost += m;
		sim_fluid_note_loss(st, st->t);
		return;
	}
	add_piece(st, m, st->x, st->x);
	st->x += m;
	if (st->x > st->hi) {
		st->lost += st->x - st->hi;
		sim_fluid_note_loss(st, st->t);
		st->x = st->hi;
	}
}

/* Gradual-stage loss ratio at offered rate r (BM_SIM_GRADUAL). */
double sim_fluid_gradual_ratio(const struct bm_sim_params *p, double r,
			       double knee)
{
	if (p->curve != BM_SIM_GRADUAL || r <= knee)
		return 0.0;
	return fmin(1.0, p->gradual_slope * (r - knee) / r);
}

/* Mass-weighted CDF of the latency pieces at l. */
static double pieces_cdf(const struct dir_state *st, double l, double total)
{
	double c = 0.0;
	size_t i;

	for (i = 0; i < st->npc; i++) {
		const struct piece *pc = &st->pc[i];
		double lo = fmin(pc->l0, pc->l1), hi = fmax(pc->l0, pc->l1);

		if (l >= hi)
			c += pc->mass;
		else if (l > lo)
			c += pc->mass * (l - lo) / (hi - lo);
	}
	return c / total;
}

static double pieces_quantile(const struct dir_state *st, double q,
			      double lo, double hi, double total)
{
	double mid;
	int i;

	for (i = 0; i < 80; i++) {
		mid = 0.5 * (lo + hi);
		if (pieces_cdf(st, mid, total) >= q)
			hi = mid;
		else
			lo = mid;
	}
	return hi;
}

void sim_fluid_latency(const struct dir_state *st, uint64_t count,
		       double offset_ns, struct bm_latency *lat)
{
	double total = 0.0, s1 = 0.0, s2 = 0.0, mn = INFINITY, mx = -INFINITY;
	double mean, var;
	size_t i;

	memset(lat, 0, sizeof(*lat));
	for (i = 0; i < st->npc; i++) {
		const struct piece *pc = &st->pc[i];
		double m = 0.5 * (pc->l0 + pc->l1), w = pc->l1 - pc->l0;

		total += pc->mass;
		s1 += pc->mass * m;
		s2 += pc->mass * (m * m + w * w / 12.0);
		mn = fmin(mn, fmin(pc->l0, pc->l1));
		mx = fmax(mx, fmax(pc->l0, pc->l1));
	}
	if (!count || total <= 0.0)
		return;
	mean = s1 / total;
	var = fmax(0.0, s2 / total - mean * mean);
	lat->count = count;
	lat->min_ns = mn + offset_ns;
	lat->max_ns = mx + offset_ns;
	lat->mean_ns = mean + offset_ns;
	lat->stddev_ns = sqrt(var);
	if (mx - mn < 1e-9) {
		lat->p50_ns = lat->p90_ns = lat->p99_ns = lat->p999_ns =
			mn + offset_ns;
		return;
	}
	lat->p50_ns = pieces_quantile(st, 0.50, mn, mx, total) + offset_ns;
	lat->p90_ns = pieces_quantile(st, 0.90, mn, mx, total) + offset_ns;
	lat->p99_ns = pieces_quantile(st, 0.99, mn, mx, total) + offset_ns;
	lat->p999_ns = pieces_quantile(st, 0.999, mn, mx, total) + offset_ns;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Simulated DUT backend: MODEL-TBF / MODEL-RL of SPEC 5.3 in fluid form.
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
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bm_sim.h"
#include "sim_int.h"

#define SIM_MAX_SEG	2
#define SIM_MAX_PIECES	64
#define SIM_EPS		1e-9

/* Frames of one stream segment arrive at t0 + k/rate, k < frames. */
struct seg {
	double t0, rate;
	uint64_t frames;
	double g;		/* gradual-stage loss ratio of this segment */
};

/* Received frames whose latency is uniform over [l0, l1] ns. */
struct piece {
	double mass, l0, l1;
};

struct dir_state {
	/* model constants */
	double C, lo, hi, base_ns;
	struct win w[SIM_MAX_WIN];
	size_t nw;
	const struct seg *segs;
	size_t nseg;
	/* evolving state */
	double t, x;
	double lost;			/* fluid frames lost */
	double last_loss;		/* tx time of the last lost frame */
	struct piece pc[SIM_MAX_PIECES];
	size_t npc;
	/* tagged frame probe */
	double probe_t;
	bool probe_done, probe_outage;
	double probe_x, probe_a;
};

/* --- parameters ---------------------------------------------------------- */

void bm_sim_params_default(struct bm_sim_params *p)
{
	unsigned int i;

	memset(p, 0, sizeof(*p));
	p->line_rate_bps = 1e9;
	p->overhead_bytes = 24;
	p->base_latency_ns = 10000.0;
	p->gradual_slope = 1.0;
	p->seed = 1;
	p->curve = BM_SIM_CLIFF;
	p->outage_ref = BM_SIM_OUTAGE_START;
	for (i = 0; i < BM_TRAFFIC_MAX_PORTS; i++) {
		p->ports[i].queue_frames = BM_SIM_QUEUE_DEFAULT;
		p->ports[i].policer.yellow_dscp = BM_SIM_YELLOW_DSCP;
		memset(p->ports[i].sched.band_of, BM_SIM_BAND_DEFAULT,
		       sizeof(p->ports[i].sched.band_of));
	}
	p->holb_port = -1;
	p->holb_mode = BM_SIM_HOLB_IDLE;
}

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

static bool rate_ok(double bps)
{
	return bps >= 0.0 && bps <= 1e13;
}

static bool bucket_ok(double rate, double bytes)
{
	return rate == 0.0 || (bytes >= BM_SIM_TM_MIN_BUCKET && bytes <= 1e12);
}

static bool overhead_ok(int o)
{
	return o >= -60 && o <= 1000;
}

/* A policer of port i, named what ("policer", "VLAN 10's policer"). */
static int check_policer(const struct bm_sim_policer *po, unsigned int i,
			 const char *what, struct bm_error *err)
{
	if (!rate_ok(po->cir_bps) || !rate_ok(po->eir_bps))
		return bm_errorf(err, "sim: port %u: %s: cir_bps and eir_bps "
				 "must be in [0, 1e13]", i, what);
	if (!bucket_ok(po->cir_bps, po->cbs_bytes))
		return bm_errorf(err, "sim: port %u: %s: cbs_bytes must be in "
				 "[%d, 1e12]", i, what, BM_SIM_TM_MIN_BUCKET);
	if (po->eir_bps > 0 && (po->cir_bps == 0.0 ||
				!bucket_ok(po->eir_bps, po->ebs_bytes)))
		return bm_errorf(err, "sim: port %u: %s: eir_bps needs cir_bps "
				 "and ebs_bytes in [%d, 1e12]", i, what,
				 BM_SIM_TM_MIN_BUCKET);
	if (!overhead_ok(po->overhead))
		return bm_errorf(err, "sim: port %u: %s: overhead must be in "
				 "[-60, 1000]", i, what);
	if (po->yellow_dscp < 0 || po->yellow_dscp > 63)
		return bm_errorf(err, "sim: port %u: %s: yellow_dscp must be "
				 "in [0, 63]", i, what);
	if (po->color_aware && !(po->eir_bps > 0))
		return bm_errorf(err, "sim: port %u: %s: color_aware needs "
				 "eir_bps > 0 (bucket E)", i, what);
	return 0;
}

/* Port i's catch-all policer and shaper; limits as in sim_json.c. */
static int check_policer_shaper(const struct bm_sim_port *pt, unsigned int i,
				struct bm_error *err)
{
	const struct bm_sim_shaper *sh = &pt->shaper;
	int ret = check_policer(&pt->policer, i, "policer", err);

	if (ret)
		return ret;
	if (!overhead_ok(sh->overhead))
		return bm_errorf(err, "sim: port %u: overhead must be in "
				 "[-60, 1000]", i);
	if (!rate_ok(sh->rate_bps) || !bucket_ok(sh->rate_bps,
						  sh->bucket_bytes))
		return bm_errorf(err, "sim: port %u: shaper: rate_bps must be "
				 "in [0, 1e13], bucket_bytes in [%d, 1e12]", i,
				 BM_SIM_TM_MIN_BUCKET);
	return 0;
}

/* Port i's scheduler. */
static int check_sched(const struct bm_sim_port *pt, unsigned int i,
		       struct bm_error *err)
{
	const struct bm_sim_sched *s = &pt->sched;
	unsigned int b, d;

	if (s->kind == BM_SIM_SCHED_NONE)
		return 0;
	if (s->kind != BM_SIM_SCHED_PRIO && s->kind != BM_SIM_SCHED_ETS)
		return bm_errorf(err, "sim: port %u: scheduler: kind must be "
				 "prio or ets", i);
	if (s->n_bands < 1 || s->n_bands > BM_SIM_MAX_BANDS)
		return bm_errorf(err, "sim: port %u: scheduler: %u bands, "
				 "expected 1..%d", i, s->n_bands,
				 BM_SIM_MAX_BANDS);
	for (d = 0; d < 64; d++)
		if (s->band_of[d] != BM_SIM_BAND_DEFAULT &&
		    s->band_of[d] >= s->n_bands)
			return bm_errorf(err, "sim: port %u: scheduler: DSCP "
					 "%u in band %u of %u", i, d,
					 s->band_of[d], s->n_bands);
	for (b = 0; s->kind == BM_SIM_SCHED_ETS && b < s->n_bands; b++)
		if (!s->bands[b].strict && !s->bands[b].quantum)
			return bm_errorf(err, "sim: port %u: scheduler: "
					 "bands[%u]: quantum 0 in a non-strict "
					 "ets band", i, b);
	for (b = 0; b < s->n_bands; b++) {
		const struct bm_sim_band *x = &s->bands[b];
		bool strict = s->kind == BM_SIM_SCHED_PRIO || x->strict;

		if (!rate_ok(x->rate_bps) ||
		    !bucket_ok(x->rate_bps, x->bucket_bytes) ||
		    !overhead_ok(x->overhead))
			return bm_errorf(err, "sim: port %u: scheduler: "
					 "bands[%u]: rate_bps must be in [0, "
					 "1e13], bucket_bytes in [%d, 1e12], "
					 "overhead in [-60, 1000]", i, b,
					 BM_SIM_TM_MIN_BUCKET);
		if (x->rate_bps > 0 && !strict)
			return bm_errorf(err, "sim: port %u: scheduler: "
					 "bands[%u]: only a strict band can be "
					 "shaped", i, b);
	}
	/* the bands are the queues: one FIFO limit would say nothing */
	if (pt->queue_frames != BM_SIM_QUEUE_DEFAULT || pt->queue_bytes)
		return bm_errorf(err, "sim: port %u: queue_frames and "
				 "queue_bytes: a port with a scheduler queues "
				 "per band (bands[i].queue_frames)", i);
	return 0;
}

static bool has_tm(const struct bm_sim_port *pt)
{
	return pt->policer.cir_bps > 0 || pt->shaper.rate_bps > 0 ||
	       pt->sched.kind != BM_SIM_SCHED_NONE;
}

/* The VLAN policers: ports, VLAN ids, one per VLAN of a port, at most
 * BM_SIM_MAX_POLICERS a port, each a valid policer with a rate. */
static int check_vlan_policers(const struct bm_sim_params *p,
			       struct bm_error *err)
{
	const struct bm_sim_vlan_policer *v, *w;
	unsigned int i, j, n;
	char what[48];
	int ret;

	if (p->n_vlan_policers > BM_SIM_MAX_VLAN_POLICERS)
		return bm_errorf(err, "sim: %u VLAN policers, at most %d in "
				 "the DUT", p->n_vlan_policers,
				 BM_SIM_MAX_VLAN_POLICERS);
	for (i = 0; i < p->n_vlan_policers; i++) {
		v = &p->vlan_policers[i];
		if (v->port >= BM_TRAFFIC_MAX_PORTS)
			return bm_errorf(err, "sim: VLAN policer %u: port %u "
					 "out of range", i, v->port);
		if (v->vlan < 1 || v->vlan > 4094)
			return bm_errorf(err, "sim: port %u: VLAN policer %u: "
					 "vlan %u outside 1..4094", v->port, i,
					 v->vlan);
		snprintf(what, sizeof(what), "VLAN %u's policer", v->vlan);
		if (!(v->pol.cir_bps > 0))
			return bm_errorf(err, "sim: port %u: %s: cir_bps must "
					 "be > 0", v->port, what);
		ret = check_policer(&v->pol, v->port, what, err);
		if (ret)
			return ret;
		if (p->holb_fifo_frames)
			return bm_errorf(err, "sim: holb_fifo_frames: not with "
					 "a policer, shaper or scheduler (port "
					 "%u)", v->port);
		for (j = 0, n = 0; j < p->n_vlan_policers; j++) {
			w = &p->vlan_policers[j];
			if (w->port != v->port)
				continue;
			n++;
			if (j < i && w->vlan == v->vlan)
				return bm_errorf(err, "sim: port %u: VLAN %u "
						 "has two policers", v->port,
						 v->vlan);
		}
		if (n > BM_SIM_MAX_POLICERS)
			return bm_errorf(err, "sim: port %u: %u VLAN policers, "
					 "at most %d a port", v->port, n,
					 BM_SIM_MAX_POLICERS);
	}
	return 0;
}

/* The N-port fields (sim_traffic.c); limits as in sim_json.c. */
static int sim_params_check_ports(const struct bm_sim_params *p,
				  struct bm_error *err)
{
	const struct bm_sim_port *pt;
	unsigned int i;
	int ret;

	for (i = 0; i < BM_TRAFFIC_MAX_PORTS; i++) {
		pt = &p->ports[i];
		if (!(pt->egress_bps >= 0.0) || pt->egress_bps > 1e13)
			return bm_errorf(err, "sim: port %u: egress_bps must be "
					 "in [0, 1e13] (0 = line rate)", i);
		if (pt->queue_frames != BM_SIM_QUEUE_DEFAULT &&
		    pt->queue_frames > BM_SIM_MAX_QUEUE_FRAMES)
			return bm_errorf(err, "sim: port %u: queue_frames too "
					 "large", i);
		if (pt->queue_bytes > BM_SIM_MAX_QUEUE_BYTES)
			return bm_errorf(err, "sim: port %u: queue_bytes too "
					 "large", i);
		ret = check_policer_shaper(pt, i, err);
		if (!ret)
			ret = check_sched(pt, i, err);
		if (ret)
			return ret;
		/* a FIFO head that retries would be policed twice */
		if (p->holb_fifo_frames && has_tm(pt))
			return bm_errorf(err, "sim: holb_fifo_frames: not with "
					 "a policer, shaper or scheduler (port "
					 "%u)", i);
	}
	ret = check_vlan_policers(p, err);
	if (ret)
		return ret;
	if (p->shared_buffer_bytes > BM_SIM_MAX_QUEUE_BYTES)
		return bm_errorf(err, "sim: shared_buffer_bytes too large");
	if (p->holb_fifo_frames > BM_SIM_MAX_HOLB_FRAMES)
		return bm_errorf(err, "sim: holb_fifo_frames must be in [0, %d]",
				 BM_SIM_MAX_HOLB_FRAMES);
	if (p->holb_port < -1 || p->holb_port >= BM_TRAFFIC_MAX_PORTS)
		return bm_errorf(err, "sim: holb_port must be -1 (every port) "
				 "or a port index below %d",
				 BM_TRAFFIC_MAX_PORTS);
	if (p->holb_mode != BM_SIM_HOLB_IDLE && p->holb_mode != BM_SIM_HOLB_ROOM)
		return bm_errorf(err, "sim: holb_mode must be idle or room");
	return 0;
}

int bm_sim_params_check(const struct bm_sim_params *p, struct bm_error *err)
{
	if (!(p->line_rate_bps > 0.0) || !isfinite(p->line_rate_bps))
		return bm_errorf(err, "sim: line_rate_bps must be > 0");
	if (p->capacity_fps < 0.0 || !isfinite(p->capacity_fps))
		return bm_errorf(err, "sim: capacity_fps must be >= 0");
	if (p->capacity_bps < 0.0 || !isfinite(p->capacity_bps))
		return bm_errorf(err, "sim: capacity_bps must be >= 0");
	if (p->overhead_bytes < -60 || p->overhead_bytes > 1000)
		return bm_errorf(err, "sim: overhead_bytes must be in [-60, 1000]");
	if (p->bucket_bytes < 0.0 || !isfinite(p->bucket_bytes))
		return bm_errorf(err, "sim: bucket_bytes must be >= 0");
	if (p->buffer_frames > (1ULL << 40))
		return bm_errorf(err, "sim: buffer_frames too large");
	if (p->base_latency_ns < 0.0 || !isfinite(p->base_latency_ns))
		return bm_errorf(err, "sim: base_latency_ns must be >= 0");
	if (p->latency_jitter_ns < 0.0 ||
	    p->latency_jitter_ns > p->base_latency_ns)
		return bm_errorf(err, "sim: latency_jitter_ns must be in [0, base_latency_ns]");
	if (p->curve != BM_SIM_CLIFF && p->curve != BM_SIM_GRADUAL)
		return bm_errorf(err, "sim: curve must be cliff or gradual");
	if (p->knee_fps < 0.0 || !isfinite(p->knee_fps))
		return bm_errorf(err, "sim: knee_fps must be >= 0");
	if (!(p->gradual_slope > 0.0) || p->gradual_slope > 1e6)
		return bm_errorf(err, "sim: gradual_slope must be in (0, 1e6]");
	if (p->random_loss < 0.0 || p->random_loss >= 1.0)
		return bm_errorf(err, "sim: random_loss must be in [0, 1)");
	if (p->capacity_noise < 0.0 || p->capacity_noise >= 1.0)
		return bm_errorf(err, "sim: capacity_noise must be in [0, 1)");
	if (p->reset_outage_s < 0.0 || !isfinite(p->reset_outage_s))
		return bm_errorf(err, "sim: reset_outage_s must be >= 0");
	if (p->outage_s < 0.0 || !isfinite(p->outage_s))
		return bm_errorf(err, "sim: outage_s must be >= 0");
	if (p->outage_at_s < 0.0 || !isfinite(p->outage_at_s))
		return bm_errorf(err, "sim: outage_at_s must be >= 0");
	if (p->outage_ref != BM_SIM_OUTAGE_START &&
	    p->outage_ref != BM_SIM_OUTAGE_STEP)
		return bm_errorf(err, "sim: outage_ref must be start or step");
	if (p->generator_max_fps < 0.0 || !isfinite(p->generator_max_fps))
		return bm_errorf(err, "sim: generator_max_fps must be >= 0");
	if (p->trial_overhead_s < 0.0 || !isfinite(p->trial_overhead_s))
		return bm_errorf(err, "sim: trial_overhead_s must be >= 0");
	return sim_params_check_ports(p, err);
}

/* --- the fluid model ----------------------------------------------------- */

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
static double arrival_before(const struct dir_state *st, double t)
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
static double arrival_from(const struct dir_state *st, double t)
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

static void note_loss(struct dir_state *st, double tx)
{
	if (tx > st->last_loss)
		st->last_loss = tx;
}

static int window_at(const struct dir_state *st, double t)
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
			note_loss(st, tend);
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
static void advance(struct dir_state *st, double t_to, const struct seg *sg)
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
		w = window_at(st, st->t);
		if (w >= 0 && !st->w[w].flushed) {
			/* Link down: whatever sits in the queue is lost. */
			st->w[w].flushed = true;
			if (st->x > 0.0) {
				st->lost += st->x;
				note_loss(st, arrival_before(st, st->t));
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
				lost_tx = arrival_before(st, nb);
				if (lost_tx >= st->t)
					note_loss(st, lost_tx);
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
static void impulse(struct dir_state *st, const struct seg *sg)
{
	double m = 1.0 - sg->g;

	if (!st->probe_done && st->probe_t >= 0.0 && st->probe_t <= st->t) {
		st->probe_done = true;
		st->probe_x = st->x;
		st->probe_a = sg->rate * m;
		st->probe_outage = window_at(st, st->t) >= 0;
	}
	if (window_at(st, st->t) >= 0) {
		st->lost += m;
		note_loss(st, st->t);
		return;
	}
	add_piece(st, m, st->x, st->x);
	st->x += m;
	if (st->x > st->hi) {
		st->lost += st->x - st->hi;
		note_loss(st, st->t);
		st->x = st->hi;
	}
}

/* Gradual-stage loss ratio at offered rate r (BM_SIM_GRADUAL). */
static double gradual_ratio(const struct bm_sim_params *p, double r,
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

static void latency_summary(const struct dir_state *st, uint64_t count,
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
			segs[0] = (struct seg){ 0.0, rate, n,
						gradual_ratio(p, rate, knee) };
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
		segs[0] = (struct seg){ 0.0, rate, n,
					gradual_ratio(p, rate, knee) };
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
			segs[*nseg] = (struct seg){ step, r2, n,
						    gradual_ratio(p, r2, knee) };
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

static void run_dir(struct sim_priv *sp, const struct bm_trial_spec *spec,
		    const struct win *wins, size_t nwin, struct dir_res *r)
{
	const struct bm_sim_params *p = &sp->p;
	struct dir_state *st;
	struct seg segs[SIM_MAX_SEG];
	size_t nseg, i;
	double C, A, knee, step, drain, lost_f, x_end, gap, ta, tb, rl_tx;
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

		advance(st, s->t0, NULL);
		impulse(st, s);
		advance(st, s->t0 + span, s);
		if (s->g > 0.0) {
			st->lost += s->g * s->frames;
			note_loss(st, s->t0 + span);
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
			note_loss(st, rl_tx);
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
	if (r->received) {
		r->first_rx = r->first_tx + p->base_latency_ns * 1e-9;
		r->last_rx = r->last_tx + p->base_latency_ns * 1e-9 + x_end / C;
		r->max_gap = r->received > 1 ? normal_gap : 0.0;
		r->max_gap_start = r->first_rx;
		for (i = 0; i < st->nw; i++) {
			ta = arrival_before(st, st->w[i].s);
			tb = arrival_from(st, st->w[i].e);
			if (ta < 0.0 || tb < 0.0 || ta >= st->w[i].s)
				continue;
			gap = tb - ta;
			if (gap > r->max_gap) {
				r->max_gap = gap;
				r->max_gap_start = ta + p->base_latency_ns * 1e-9;
			}
		}
		if (window_at(st, r->first_tx) >= 0) {
			tb = arrival_from(st, st->w[window_at(st, r->first_tx)].e);
			if (tb >= 0.0)
				r->first_rx = tb + p->base_latency_ns * 1e-9;
		}
		/* an outage still on when the stream ends: the last frame
		 * received is the last one sent before it began */
		if (window_at(st, r->last_tx) >= 0) {
			ta = arrival_before(st, st->w[window_at(st, r->last_tx)].s);
			if (ta >= 0.0)
				r->last_rx = ta + p->base_latency_ns * 1e-9;
		}
	}
	if (spec->latency)
		latency_summary(st, r->received, offset, &r->lat);

	/* The tagged frame (R2544-LAT): lost in an outage, to tail drop, to
	 * the gradual stage or at random; else its FIFO latency. */
	if (spec->tag && st->probe_done) {
		double pdrop = 0.0;

		r->tag_tx = arrival_from(st, spec->tag_at_s);
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

static int sim_run_trial(struct bm_backend *be, const struct bm_trial_spec *spec,
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

int bm_sim_reset_hook(void *ctx)
{
	struct bm_backend *be = ctx;

	if (!be || !bm_backend_is_sim(be))
		return -EINVAL;
	return be->ops->dut_reset(be);
}

/* The simulated DUT resets itself: its outage (reset_outage_s) starts now. */
static int sim_dut_reset(struct bm_backend *be)
{
	struct sim_priv *sp = be->priv;

	if (!sp->in_trial)
		return -EINVAL;
	sp->reset_fired = true;
	sp->reset_at_s = sp->now_s;
	return 0;
}

static void sim_destroy(struct bm_backend *be)
{
	sim_tcp_detach(be);
	free(be->priv);
	free(be);
}

/* sim_run_trial, the link loss of sim.link_down_trial and the stalls of
 * host_stall_above_fps. */
static int sim_run_trial_link(struct bm_backend *be,
			      const struct bm_trial_spec *spec,
			      struct bm_trial_result *res, struct bm_error *err)
{
	const struct sim_priv *sp = be->priv;
	int ret = sim_run_trial(be, spec, res, err);

	if (!ret)
		sim_tcp_trial(be, spec);
	if (!ret && sp->p.link_down_trial == be->trials + 1) {
		res->link_downs = 1;
		snprintf(res->link_down_port, sizeof(res->link_down_port),
			 "%s", be->n_ports > 1 ? be->port_names[1] : "rx");
	}
	if (!ret && sp->p.host_stall_above_fps > 0.0 && !res->lost &&
	    spec->rate_fps > sp->p.host_stall_above_fps &&
	    res->received >= 3) {
		res->received -= 3;
		res->lost = 3;
		res->tx_late_max_s = fmax(res->tx_late_max_s, 0.010);
		bm_trial_stall_add(res->tx_stalls_s, 0.010);
	}
	return ret;
}

static const struct bm_backend_ops sim_ops = {
	.run_trial = sim_run_trial_link,
	.destroy = sim_destroy,
	.dut_reset = sim_dut_reset,
};

bool bm_backend_is_sim(const struct bm_backend *be)
{
	return be && be->ops == &sim_ops;
}

const struct bm_sim_params *bm_sim_params_of(const struct bm_backend *be)
{
	return &((const struct sim_priv *)be->priv)->p;
}

struct bm_backend *bm_sim_new(const struct bm_sim_params *p,
			      struct bm_error *err)
{
	struct bm_backend *be;
	struct sim_priv *sp;

	if (bm_sim_params_check(p, err))
		return NULL;
	be = calloc(1, sizeof(*be));
	sp = calloc(1, sizeof(*sp));
	if (!be || !sp) {
		free(be);
		free(sp);
		bm_errorf(err, "sim: out of memory");
		return NULL;
	}
	sp->p = *p;
	sp->rng = p->seed;
	be->ops = &sim_ops;
	be->name = "sim";
	be->deviation = "backend sim: every trial ran on a simulated device "
			"(dry run), not a DUT";
	be->line_rate_bps = p->line_rate_bps;
	/* the model's own times, in double precision: nothing to err */
	be->ts_accuracy = "exact: the simulator's timestamps are its model's "
			  "times, not measured";
	be->ts_resolution_ns = 0.0;
	be->ts_accuracy_ns = 0.0;
	be->virtual_clock = true;
	be->priv = sp;
	if (sim_tcp_attach(be)) {
		sim_destroy(be);
		bm_errorf(err, "sim: out of memory");
		return NULL;
	}
	return be;
}

void bm_sim_free(struct bm_backend *be)
{
	if (be)
		be->ops->destroy(be);
}

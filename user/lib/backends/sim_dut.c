// SPDX-License-Identifier: GPL-2.0
/*
 * The DUT side of the N-port model (sim_traffic.c): a frame from the
 * tester's port through the ingress checks and the HOLB FIFO, the
 * egress's policer, queue or scheduler and line, to the receiver's
 * counts.  Apart from the trial's set-up and results because this is
 * the model's forwarding, event by event; the model's description is
 * sim_traffic.c's.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>

#include "bm_hosts.h"
#include "sim_int.h"

/* What the receiver counts of a frame of s that arrived at rx. */
static void count_rx(struct tstream *s, const struct sim_frame *f, int64_t rx)
{
	const struct bm_frame_template *ft = &s->ss->frame;
	struct bm_stream_result *r = s->r;
	bool tagged = ft->vlan_id >= 0;
	struct bm_frame_rec *x;

	/* RFC 4737: behind a frame that came before it (a re-marked frame
	 * in another band can overtake) */
	if (f->seq < s->rx_next)
		r->reordered++;
	else
		s->rx_next = (uint64_t)f->seq + 1;
	r->rx_bytes += f->size;
	r->rx_dscp[f->dscp & 63]++;
	if (tagged)
		r->rx_pcp[ft->pcp & 7]++;
	else
		r->rx_untagged++;
	if (r->n_rx_log < s->log_cap) {
		x = &r->rx_log[r->n_rx_log++];
		x->seq = f->seq;
		x->tx_s = (double)f->tx / TPS;
		x->rx_s = (double)rx / TPS;
		x->size = f->size;
		x->dscp = f->dscp;
		x->pcp = tagged ? ft->pcp : 0;
		x->tagged = tagged;
	}
}

/* A pool host's stamp of frame f of its half of s, which arrived at rx
 * (bmgen.ko's STREAM_HW_LOG): the sender's as it left, the receiver's
 * as it came with its software latency the stamp delay later. */
static void log_hw_stamp(const struct tsim *S, struct tstream *s,
			 const struct sim_frame *f, int64_t rx)
{
	struct bm_hw_stamp *h = &s->r->hw_log[s->r->n_hw_log++];

	h->seq = (uint64_t)f->seq;
	if (s->hw_side == BM_HALF_TX) {
		h->ns = llround(f->tx / TICKS_NS);
		h->sw_lat_ns = 0;
	} else {
		h->ns = llround(rx / TICKS_NS);
		h->sw_lat_ns = llround((rx - f->tx) / TICKS_NS +
				       S->p->sw_stamp_delay_ns);
	}
}

/* The frame leaves egress line at end: received, or lost on the way. */
static void deliver(struct tsim *S, const struct sim_frame *f, int64_t end)
{
	struct tstream *s = &S->s[f->stream];
	int64_t rx = end + S->base;

	if (S->p->random_loss > 0.0 &&
	    sim_rng_uniform(&S->sp->rng) < S->p->random_loss)
		return;
	if (rx > S->deadline) {
		S->late++;
		return;
	}
	count_rx(s, f, rx);
	if (!s->rcvd) {
		s->rx_first = rx;
	} else if (rx - s->rx_last > s->gap) {
		s->gap = rx - s->rx_last;
		s->gap_at = s->rx_last;
	}
	s->rx_last = rx;
	s->rcvd++;
	if (s->ss->tag_seq == (int64_t)f->seq) {
		s->tag_rx = true;
		s->tag_lat = end - f->tx;
	}
	if (s->hw_side && s->r->n_hw_log < s->hw_cap &&
	    !((uint64_t)f->seq % s->hw_every))
		log_hw_stamp(S, s, f, rx);
	if (S->latency && (!sim_lat_add(&s->lat, end - f->tx, f->seq) ||
			   !sim_lat_hist_add(&S->all, (uint64_t)(end - f->tx))))
		sim_fail(S, -ENOMEM);
}

/*
 * How long egress e takes to send a frame of size bytes: its line's time,
 * or the DUT's forwarding capacity's (capacity_fps or _bps, per port as
 * the fluid model has it per direction) when that is longer, so that
 * the two models of the simulator are one DUT.
 */
static int64_t service_ticks(const struct tsim *S, struct tport *E,
			     uint32_t size)
{
	int64_t line;
	double cap;

	/* once per frame size: this is the model's innermost path */
	if (E->svc_size == size)
		return E->svc_ticks;
	line = sim_l1_ticks(size, E->etpb);
	cap = ceil(SIM_TPS / bm_sim_capacity_fps(S->p, size));
	E->svc_size = size;
	E->svc_ticks = cap > (double)line ? (int64_t)cap : line;
	return E->svc_ticks;
}

/*
 * Scheduler egress e at t: when its line is free, the scheduler's head
 * (committed) starts if the shaper lets it, else the egress comes back when
 * the shaper will; after a frame, when the line is free again.  When only
 * shaped bands without tokens hold frames, the egress idles (an arrival
 * serves it) and wakes when the first of them may send.
 */
void sim_dut_serve(struct tsim *S, unsigned int e, int64_t t)
{
	struct tport *E = &S->port[e];
	struct sim_frame f;
	int64_t start, w;

	E->serving = true;
	if (E->efree > t) {
		sim_ev_push(S, E->efree, EV_SERVE, 0, e);
		return;
	}
	while (sim_tm_head(E->tm, t, &f)) {
		start = sim_tm_ready(E->tm, t, f.size);
		if (start > t && start != INT64_MAX) {
			/* an HTB root chooses again when it can send */
			sim_tm_unpop(E->tm);
			sim_ev_push(S, start, EV_SERVE, 0, e);
			return;
		}
		sim_tm_pop(E->tm);
		S->queued--;
		if (start == INT64_MAX)
			continue;	/* beyond the bucket: tbf drops it */
		sim_tm_take(E->tm, t, f.size);
		E->efree = t + service_ticks(S, E, f.size);
		deliver(S, &f, E->efree);
		sim_ev_push(S, E->efree, EV_SERVE, 0, e);
		return;
	}
	E->serving = false;
	w = sim_tm_wake(E->tm, t);
	if (w != INT64_MAX && w != E->wake_at) {
		E->wake_at = w;
		sim_ev_push(S, w, EV_SERVE, 1, e);
	}
}

/* Scheduler egress e takes f at t into its band; false: the band is full. */
static bool sched_admit(struct tsim *S, unsigned int e,
			const struct sim_frame *f, int64_t t)
{
	struct tport *E = &S->port[e];
	int ret;

	if (S->queued >= MAX_QUEUED) {
		sim_fail(S, -E2BIG);
		return true;
	}
	ret = sim_tm_enqueue(E->tm, f);
	if (ret < 0)
		sim_fail(S, -ENOMEM);
	if (ret <= 0)
		return ret < 0;
	S->queued++;
	if (!E->serving)
		sim_dut_serve(S, e, t);
	return true;
}

/* Egress e takes f at t: its policer drops it, or it goes straight to the
 * line, or into its queue, or not (false: no room). */
static bool admit(struct tsim *S, unsigned int e, const struct sim_frame *in,
		  int64_t t)
{
	struct tport *E = &S->port[e];
	struct sim_frame f = *in;
	uint32_t pool = 0, bytes;
	int64_t start;

	if (!sim_tm_police(E->tm, t, &f, S->s[f.stream].ss->frame.vlan_id))
		return true;		/* red: gone before the queue */
	if (sim_tm_scheduled(E->tm))
		return sched_admit(S, e, &f, t);
	/* FIFO: the head leaves when the line is free and, with a shaper,
	 * the bucket holds its bytes; in order, so the time is known now */
	start = sim_tm_ready(E->tm, E->efree > t ? E->efree : t, f.size);
	if (start == INT64_MAX)
		return true;		/* beyond the bucket: tbf drops it */
	if (E->q.n || start > t) {
		bytes = f.size - E->uncounted;
		if (E->df >= E->qf || (E->qb && E->db + bytes > E->qb)) {
			if (S->pool_used + bytes > S->pool)
				return false;
			pool = 1;
		}
		sim_ring_push(S, &E->q, (struct slot){ start, bytes, pool });
		if (S->err)
			return true;
		if (pool) {
			S->pool_used += bytes;
		} else {
			E->df++;
			E->db += bytes;
		}
		if (E->q.n == 1)
			sim_ev_push(S, start, EV_DEPART, 0, e);
	}
	sim_tm_take(E->tm, start, f.size);
	E->efree = start + service_ticks(S, E, f.size);
	deliver(S, &f, E->efree);
	return true;
}

/* May the head of a FIFO go to egress e now?  Then it has gone. */
static bool hol_move(struct tsim *S, unsigned int e, const struct sim_frame *f,
		     int64_t t)
{
	const struct tport *E = &S->port[e];

	if (S->mode == BM_SIM_HOLB_IDLE && (E->q.n || E->efree > t))
		return false;
	return admit(S, e, f, t);
}

static void hol_retry(struct tsim *S, unsigned int i, int64_t at)
{
	struct tport *P = &S->port[i];

	if (P->retry_at >= 0 && P->retry_at <= at)
		return;
	P->retry_at = at;
	/* The head blocked longest goes first. */
	sim_ev_push(S, at, EV_HOL, P->since, i);
}

/* The head of port i's FIFO waits for egress e from t. */
static void hol_block(struct tsim *S, unsigned int i, unsigned int e,
		      int64_t t, bool new_head)
{
	struct tport *P = &S->port[i], *E = &S->port[e];

	if (!P->blocked)
		S->nblocked++;
	if (!P->blocked || new_head)
		P->since = t;
	P->blocked = true;
	P->blocked_on = e;
	/* Idle: when the line would be done.  Room: the queue's departures
	 * wake it (hol_wake); with nothing queued, again the line's end. */
	if (S->mode == BM_SIM_HOLB_IDLE || !E->q.n)
		hol_retry(S, i, E->efree > t ? E->efree : t);
}

/* A frame into an ingress FIFO slot and back: no policer has re-marked
 * it yet, so its DSCP is its stream's. */
static struct slot fifo_slot(const struct sim_frame *f)
{
	return (struct slot){ f->tx, f->stream | f->size << FIFO_STREAM_BITS,
			      f->seq };
}

static struct sim_frame fifo_frame(const struct tsim *S, const struct slot *h)
{
	unsigned int x = h->a & FIFO_STREAM_MASK;

	return (struct sim_frame){ h->t, x, h->b, h->a >> FIFO_STREAM_BITS,
				   S->s[x].ss->frame.dscp };
}

void sim_dut_hol_drain(struct tsim *S, unsigned int i, int64_t t)
{
	struct tport *P = &S->port[i];
	bool moved = false;
	struct slot *h;
	struct sim_frame f;

	while (P->fifo.n && !S->err) {
		h = sim_ring_front(&P->fifo);
		f = fifo_frame(S, h);
		if (!hol_move(S, S->s[f.stream].rx, &f, t)) {
			hol_block(S, i, S->s[f.stream].rx, t, moved);
			return;
		}
		sim_ring_pop(S, &P->fifo);
		moved = true;
	}
	if (P->blocked) {
		P->blocked = false;
		S->nblocked--;
	}
}

/* Room mode: a frame left egress e's queue (from the pool when pool). */
static void hol_wake(struct tsim *S, unsigned int e, bool pool, int64_t t)
{
	unsigned int k;

	for (k = 0; k < S->nhol; k++) {
		const struct tport *P = &S->port[S->hol[k]];

		if (P->blocked && (P->blocked_on == e || pool))
			hol_retry(S, S->hol[k], t);
	}
}

static bool in_outage(const struct tsim *S, int64_t t)
{
	size_t i;

	for (i = 0; i < S->nw; i++)
		if (t >= S->ws[i] && t < S->we[i])
			return true;
	return false;
}

/* f reaches the DUT on ingress port i at t. */
static void arrive(struct tsim *S, unsigned int i, const struct sim_frame *f,
		   int64_t t)
{
	struct tport *P = &S->port[i];
	unsigned int e = S->s[f->stream].rx;
	struct slot x = fifo_slot(f);

	if (S->p->max_frame_size && f->size > S->p->max_frame_size)
		return;
	if (S->s[f->stream].denied)
		return;
	if (in_outage(S, t))
		return;
	if (!P->holb) {
		admit(S, e, f, t);
		return;
	}
	if (P->fifo.n) {
		if (P->fifo.n < S->hol_d)
			sim_ring_push(S, &P->fifo, x);
		return;
	}
	if (hol_move(S, e, f, t))
		return;
	sim_ring_push(S, &P->fifo, x);
	hol_block(S, i, e, t, true);
}

void sim_dut_on_depart(struct tsim *S, unsigned int e, int64_t t)
{
	struct tport *E = &S->port[e];
	struct slot *h = sim_ring_front(&E->q);
	bool pool = h->b;

	if (pool) {
		S->pool_used -= h->a;
	} else {
		E->df--;
		E->db -= h->a;
	}
	sim_ring_pop(S, &E->q);
	if (E->q.n)
		sim_ev_push(S, sim_ring_front(&E->q)->t, EV_DEPART, 0, e);
	if (S->mode == BM_SIM_HOLB_ROOM && S->nblocked)
		hol_wake(S, e, pool, t);
}

/* Every port sending at t: round robin per egress, then the arrivals. */
void sim_dut_on_tx(struct tsim *S, const struct ev *first)
{
	struct arrival *b = S->batch, x;
	unsigned int nb = 0, i, j;
	struct ev ev = *first;

	for (;;) {
		b[nb].f = sim_tester_emit(S, ev.idx, ev.t);
		b[nb].in = ev.idx;
		b[nb].out = S->s[b[nb].f.stream].rx;
		/* (idx + np - rr) mod np, both below np: no division */
		b[nb].rank = ev.idx + S->np - S->port[b[nb].out].rr;
		if (b[nb].rank >= S->np)
			b[nb].rank -= S->np;
		nb++;
		if (!S->nev || S->ev[0].type != EV_TX || S->ev[0].t != ev.t)
			break;
		ev = sim_ev_pop(S);
	}
	for (i = 1; i < nb; i++) {
		x = b[i];
		for (j = i; j && (b[j - 1].out > x.out ||
				  (b[j - 1].out == x.out &&
				   b[j - 1].rank > x.rank)); j--)
			b[j] = b[j - 1];
		b[j] = x;
	}
	for (i = 0; i < nb; i++)
		if ((!i || b[i - 1].out != b[i].out) && i + 1 < nb &&
		    b[i + 1].out == b[i].out)
			S->port[b[i].out].rr = (b[i].in + 1) % S->np;
	for (i = 0; i < nb && !S->err; i++)
		arrive(S, b[i].in, &b[i].f, ev.t);
}

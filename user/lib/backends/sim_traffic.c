// SPDX-License-Identifier: GPL-2.0
/*
 * The simulated DUT of N-port trials: a frame-level discrete-event model,
 * exact in time, against which the procedures of RFC 8239 (R8239-BUF-*,
 * R8239-MB, R8239-HOLB), RFC 2889 and RFC 7640 are unit-tested with
 * closed forms.
 *
 * Time.  Integer ticks of 0.1 ps (TPS), so that frame times at the usual
 * line rates are exact ((F + 20) bytes at 1 Gbit/s: F = 1518 is
 * 123,040,000 ticks) and two events at one instant really are at one
 * instant: a frame that arrives as its egress frees up does not wait.
 *
 * Tester.  Stream s of port i has frames k = 0 .. n-1 scheduled at
 *   CBR:    start_s + k/fps, n = round(fps * (duration_s - start_s))
 *   COUNT:  start_s + k/fps, n = count
 *   BURSTS: start_s + b * burst_period_s + the line-rate time of the
 *           burst's earlier frames, n = burst_len * burst_count
 * with fps = bm_stream_fps() (IMIX streams cycle the traffic's sizes).
 * Port i sends its streams' frames in the order of their schedule (ties:
 * lower stream index), one at a time: departure = max(scheduled, port
 * free), and the port is free again (F + 20) * 8 / line_rate later, or
 * 1/generator_max_fps if that is longer.  A frame that leaves more than
 * its stream's interval (bursts: its own frame time) behind schedule is
 * late (REQ-GEN-6).  Every frame is sent: a port that falls behind
 * stretches the trial, and whole intervals of stretch are the shortfall.
 *
 * DUT.  A frame enters the DUT as it leaves the tester (no propagation;
 * admitted at its first bit, so that a frame that never waits has the
 * latency base + its egress frame time: RFC 8238 FILO of a cut-through
 * ingress).  Ingress drops first: frames above max_frame_size, frames that
 * arrive in an outage.  Egress e is a line of egress_bps ((F + 20) bytes a
 * frame) behind a FIFO: a frame that finds the line idle and nothing
 * queued goes straight out; else it waits if fewer than queue_frames
 * frames wait (the one on the line not counted) and, with queue_bytes,
 * their bytes F stay within it; else it borrows F bytes of the one pool of
 * shared_buffer_bytes until it leaves the queue for the line (RFC 8239
 * §3 shared buffer); else it is dropped (tail drop).  Its latency is
 * base_latency_ns (+ the trial's latency_jitter_ns offset) + its wait + its
 * egress frame time.  On its way out it is lost at random (random_loss),
 * or late, hence lost, when it arrives after the drain wait (drain_s after
 * duration_s or the last scheduled frame, whichever is later).
 *
 * TM (RFC 7640; sim_tm.c has the stages).  A frame that reaches egress e
 * meets its policer first (dropped or re-marked).  With a shaper, the
 * FIFO's head also waits for the shaper's tokens, a frame that would wait
 * is what counts against queue_frames, and byte limits count F - 4 (tbf +
 * pfifo/bfifo, MODEL-TBF): in order, so its departure is still known on
 * arrival.  With a scheduler the bands replace the FIFO, and the egress
 * is driven by EV_SERVE events: when its line is free the scheduler picks
 * (and commits) a head, which starts when the shaper allows; a shaped
 * band without tokens is passed over, and when only such bands hold
 * frames the egress wakes when the first of them may send.  The
 * receiver counts each frame's bytes, DSCP and PCP and logs the first
 * log_frames of a stream in arrival order, with the seq it carries.
 *
 * HOLB (DUT-HOLB-EMU, R8239-HOLB).  With holb_fifo_frames = D > 0 the
 * frames of ingress port holb_port (-1: of every port) wait in one FIFO of
 * D frames in arrival order; an arrival to a full FIFO is dropped.  The
 * head leaves for its egress, in holb_mode "idle", when that egress is
 * idle (the emulator's head waits for its egress's tokens); in "room",
 * when the egress queue has room for it.  Every frame behind it waits,
 * whatever its egress.
 *
 * One instant.  Events at one instant go in this order: frames leaving
 * egress queues and bands for their lines (room frees up), frames
 * arriving from the tester, FIFO heads (a direct arrival takes what freed
 * up before a head that waits, as port B writes straight to E2 in
 * DUT-HOLB-EMU).  Frames
 * that reach one egress at one instant are admitted round robin over their
 * ingress ports: at each contested instant the port after the previous
 * one's first goes first, so that equal synchronised streams lose equally.
 *
 * What a closed form must know: a FIFO tail-drop queue fed by periodic,
 * synchronised streams drops by their phases, not in proportion to their
 * rates.  A at 50 % and B at 100 % of one line (R8239-HOLB's E2): B's frames
 * arrive just as the line frees a place, only A's instants are contested,
 * and the lost third of the offered frames splits equally in frames (A
 * loses 50 %, B 25 %), not 33.3 % each as in a fluid model or with random
 * phases.
 *
 * Cost and bounds.  One event heap over the ports (tester departures,
 * egress queue departures, scheduler services, FIFO retries) and one heap
 * of streams per tester port: O(log) per frame (+ the bands) and no memory
 * per frame of the trial but the logs asked for.  The queues hold what
 * the DUT buffers, at most 2^23 frames at once; a trial of
 * more than 10^8 frames or of more than a week of simulated time is
 * refused.  Latency percentiles come from a log-linear histogram per
 * stream, 256 buckets per octave of (wait + egress frame time): a
 * percentile is within 0.2 % of that part of the latency (exact when all
 * samples are equal); count, min, mean, max, stddev, IPDV and PDV are
 * exact.  No frame is duplicated, and none is reordered but by a
 * scheduler whose policer re-marks part of a stream into another band
 * (counted per RFC 4737: a frame behind a higher seq).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bm_sim.h"
#include "bm_traffic.h"
#include "sim_int.h"

#define TPS		SIM_TPS		/* ticks per second */
#define TICKS_NS	1e4		/* ticks per ns */
#define L1_EXTRA	20		/* preamble, SFD, gap (SPEC F-1) */
/* The fuzzers' build (make fuzz) lowers it: a mutated duration must cost
 * a refusal, not minutes of simulation. */
#ifdef BM_SIM_MAX_FRAMES
#define MAX_FRAMES	BM_SIM_MAX_FRAMES
#else
#define MAX_FRAMES	100000000ULL
#endif
#define MAX_SPAN_S	604800.0	/* int64 ticks reach 10 days */
#define MAX_QUEUED	(1UL << 23)
#define HIST_BITS	8
#define HIST_SUB	(1U << HIST_BITS)
#define HIST_PAGES	(64 - HIST_BITS + 1)

/* --- latency: moments and a log-linear histogram ------------------- */

/* Page 0 holds 0..255 ticks one by one; page p >= 1 the octave
 * [2^(p+7), 2^(p+8)) in 256 buckets. */
struct hist {
	uint32_t *pg[HIST_PAGES];
};

struct lat_acc {
	uint64_t n;
	double mean, m2;		/* Welford */
	int64_t min, max, prev;		/* ticks */
	/* IPDV as bmgen.ko's receiver takes it (rx.c): D - D_prev of each
	 * frame received right after the frame of the sequence number
	 * before it, signed (RFC 5481 §4.1) */
	uint64_t prev_seq, ipdv_n;
	int64_t ipdv_min, ipdv_max, ipdv_sum;
	struct hist h;
};

static void hist_at(uint64_t v, unsigned int *pg, unsigned int *sub)
{
	unsigned int e;

	if (v < HIST_SUB) {
		*pg = 0;
		*sub = (unsigned int)v;
		return;
	}
	e = 63 - (unsigned int)__builtin_clzll(v);
	*pg = e - HIST_BITS + 1;
	*sub = (unsigned int)(v >> (e - HIST_BITS)) - HIST_SUB;
}

static bool hist_add(struct hist *h, uint64_t v)
{
	unsigned int pg, sub;

	hist_at(v, &pg, &sub);
	if (!h->pg[pg]) {
		h->pg[pg] = calloc(HIST_SUB, sizeof(*h->pg[pg]));
		if (!h->pg[pg])
			return false;
	}
	h->pg[pg][sub]++;
	return true;
}

static void hist_free(struct hist *h)
{
	unsigned int i;

	for (i = 0; i < HIST_PAGES; i++)
		free(h->pg[i]);
	memset(h, 0, sizeof(*h));
}

/* The rank-th smallest sample (1-based), as the middle of its bucket. */
static double hist_rank(const struct hist *h, uint64_t rank)
{
	uint64_t c = 0;
	unsigned int pg, sub;
	double w;

	for (pg = 0; pg < HIST_PAGES; pg++) {
		if (!h->pg[pg])
			continue;
		for (sub = 0; sub < HIST_SUB; sub++) {
			c += h->pg[pg][sub];
			if (c < rank)
				continue;
			if (!pg)
				return sub;
			w = ldexp(1.0, (int)pg - 1);
			return (HIST_SUB + sub + 0.5) * w;
		}
	}
	return 0;
}

/* Fold h (ticks, offset base_ns) into a report's BM_LAT_HIST histogram,
 * each bucket of ours at its middle (ours are 0.4 % wide). */
static void hist_fold(const struct hist *h, double base_ns, uint64_t *out)
{
	unsigned int pg, sub;
	double v;

	for (pg = 0; pg < HIST_PAGES; pg++) {
		if (!h->pg[pg])
			continue;
		for (sub = 0; sub < HIST_SUB; sub++) {
			if (!h->pg[pg][sub])
				continue;
			v = pg ? (HIST_SUB + sub + 0.5) * ldexp(1.0, (int)pg - 1) :
			    sub;
			out[bm_lat_hist_index(base_ns + v / TICKS_NS)] +=
				h->pg[pg][sub];
		}
	}
}

/* Percentile q of n samples in [mn, mx] ticks: nearest rank. */
static double hist_pct(const struct hist *h, uint64_t n, double q, double mn,
		       double mx)
{
	double r = ceil(q * (double)n - 1e-9);
	uint64_t rank = r < 1 ? 1 : (uint64_t)r;

	if (rank > n)
		rank = n;
	return fmin(mx, fmax(mn, hist_rank(h, rank)));
}

static bool lat_add(struct lat_acc *a, int64_t v, uint64_t seq)
{
	double d;

	if (a->n) {
		if (seq == a->prev_seq + 1) {
			int64_t dv = v - a->prev;

			if (!a->ipdv_n || dv < a->ipdv_min)
				a->ipdv_min = dv;
			if (!a->ipdv_n || dv > a->ipdv_max)
				a->ipdv_max = dv;
			a->ipdv_sum += dv;
			a->ipdv_n++;
		}
		if (v < a->min)
			a->min = v;
		if (v > a->max)
			a->max = v;
	} else {
		a->min = a->max = v;
	}
	a->prev = v;
	a->prev_seq = seq;
	a->n++;
	d = (double)v - a->mean;
	a->mean += d / (double)a->n;
	a->m2 += d * ((double)v - a->mean);
	return hist_add(&a->h, (uint64_t)v);
}

/* --- the model's state ---------------------------------------------- */

/* A frame in a queue (t = leaves for the line, a = bytes, b = from the
 * pool) or in an ingress FIFO (t = tx time, a = stream | size << 13,
 * b = seq: 16 bytes a frame, up to 2^23 of them). */
struct slot {
	int64_t t;
	uint32_t a, b;
};

#define FIFO_STREAM_BITS	13
#define FIFO_STREAM_MASK	((1U << FIFO_STREAM_BITS) - 1)
_Static_assert(BM_TRAFFIC_MAX_STREAMS <= 1 << FIFO_STREAM_BITS,
	       "a stream index fits a FIFO slot");

struct ring {
	struct slot *v;
	size_t head, n, cap;		/* cap a power of two */
};

struct tstream {
	const struct bm_stream_spec *ss;
	uint16_t tx, rx;
	uint32_t size;			/* 0: the imix cycle */
	uint64_t n, k;			/* frames in all; the next one */
	int64_t start, next;		/* ticks of frame 0 and frame k */
	double iv;			/* ticks from frame to frame */
	int64_t iv_int;			/* iv when whole, else 0 */
	double period;			/* BURSTS: ticks burst to burst */
	int64_t period_int;
	int64_t cum;			/* BURSTS: k's offset in burst */
	int64_t sched_last;
	bool denied;			/* the DUT's filters drop it */
	/* what happened; counts by size, DSCP, PCP and the logs straight
	 * into the stream's result */
	struct bm_stream_result *r;
	uint64_t sent, rcvd;
	int64_t tx_first, tx_last, rx_first, rx_last;
	int64_t gap, gap_at;		/* longest rx gap and its start */
	int64_t late_max;		/* ticks behind schedule, at most */
	/* BURSTS: a frame behind back to back at the line from its
	 * burst's first departure, at most (bmgen.ko's BURST_DUE_UFPS) */
	int64_t burst_late_max, burst_first_late;
	int64_t late_prev;		/* the last paced frame's lateness */
	double stalls[BM_TX_STALLS];	/* its largest rises (ticks) */
	uint32_t log_cap;		/* frames each log holds */
	uint64_t rx_next;		/* highest seq received + 1 */
	struct lat_acc lat;
};

struct tport {
	/* tester side */
	double tpb;			/* ticks per L1 byte at line rate */
	int64_t gap;			/* generator_max_fps spacing */
	int64_t free;			/* can send again from then */
	unsigned int *sh, nsh;		/* streams with frames left */
	/* DUT egress */
	double etpb;			/* the same at egress_bps */
	uint64_t qf, qb;		/* queue limits (qb 0: none) */
	struct ring q;			/* frames waiting for the line */
	uint64_t df, db;		/* dedicated frames, bytes used */
	int64_t efree;			/* the line is busy until then */
	unsigned int rr;		/* round robin over ingress ports */
	struct sim_tm *tm;		/* policer, shaper, scheduler: NULL */
	uint32_t uncounted;		/* 4 with a shaper: byte limits count
					 * skb->len (bfifo), else F */
	bool serving;			/* scheduler: an EV_SERVE is due */
	int64_t wake_at;		/* scheduler: a shaped band's wake
					 * (EV_SERVE, tie 1) is due; -1 */
	/* DUT ingress FIFO (holb) */
	bool holb, blocked;
	struct ring fifo;
	unsigned int blocked_on;	/* the head's egress */
	int64_t since, retry_at;	/* head blocked since; retry (-1) */
};

/* The order within one instant: room frees up before arrivals. */
enum { EV_DEPART, EV_SERVE, EV_TX, EV_HOL };

struct ev {
	int64_t t, tie;
	unsigned int type, idx;
};

struct arrival {
	struct sim_frame f;
	unsigned int in, out, rank;
};

struct tsim {
	const struct bm_traffic *t;
	const struct bm_trial_spec *spec;
	const struct bm_sim_params *p;
	struct sim_priv *sp;
	struct tstream *s;
	struct tport *port;
	unsigned int ns, np;
	unsigned int *sh;		/* the ports' stream heaps */
	struct ev *ev;
	size_t nev, cap_ev;
	unsigned int *hol, nhol, nblocked;
	enum bm_sim_holb_mode mode;
	uint64_t hol_d, pool, pool_used, queued;
	int64_t base;			/* ticks added to every latency */
	int64_t deadline;		/* received later: late */
	int64_t ws[SIM_MAX_WIN], we[SIM_MAX_WIN];
	size_t nw;
	bool latency;
	struct hist all;
	uint64_t late, late_frames;
	int64_t late_max, last_dep;
	int err;			/* -ENOMEM, or -E2BIG: queues full */
	struct arrival *batch;
};

static void fail(struct tsim *S, int e)
{
	if (!S->err)
		S->err = e;
}

/* --- rings and heaps ------------------------------------------------ */

static void ring_push(struct tsim *S, struct ring *r, struct slot x)
{
	struct slot *v;
	size_t i, cap;

	if (S->queued >= MAX_QUEUED) {
		fail(S, -E2BIG);
		return;
	}
	if (r->n == r->cap) {
		cap = r->cap ? 2 * r->cap : 16;
		v = malloc(cap * sizeof(*v));
		if (!v) {
			fail(S, -ENOMEM);
			return;
		}
		for (i = 0; i < r->n; i++)
			v[i] = r->v[(r->head + i) & (r->cap - 1)];
		free(r->v);
		r->v = v;
		r->cap = cap;
		r->head = 0;
	}
	r->v[(r->head + r->n) & (r->cap - 1)] = x;
	r->n++;
	S->queued++;
}

static struct slot *ring_front(struct ring *r)
{
	return &r->v[r->head];
}

static void ring_pop(struct tsim *S, struct ring *r)
{
	r->head = (r->head + 1) & (r->cap - 1);
	r->n--;
	S->queued--;
}

static bool ev_before(const struct ev *a, const struct ev *b)
{
	if (a->t != b->t)
		return a->t < b->t;
	if (a->type != b->type)
		return a->type < b->type;
	if (a->tie != b->tie)
		return a->tie < b->tie;
	return a->idx < b->idx;
}

static void ev_push(struct tsim *S, int64_t t, unsigned int type,
		    int64_t tie, unsigned int idx)
{
	struct ev x = { t, tie, type, idx }, *v;
	size_t i, up;

	if (S->nev == S->cap_ev) {
		v = realloc(S->ev, 2 * S->cap_ev * sizeof(*v));
		if (!v) {
			fail(S, -ENOMEM);
			return;
		}
		S->ev = v;
		S->cap_ev *= 2;
	}
	for (i = S->nev++; i; i = up) {
		up = (i - 1) / 2;
		if (!ev_before(&x, &S->ev[up]))
			break;
		S->ev[i] = S->ev[up];
	}
	S->ev[i] = x;
}

static struct ev ev_pop(struct tsim *S)
{
	struct ev top = S->ev[0], x = S->ev[--S->nev];
	size_t i = 0, c;

	while ((c = 2 * i + 1) < S->nev) {
		if (c + 1 < S->nev && ev_before(&S->ev[c + 1], &S->ev[c]))
			c++;
		if (!ev_before(&S->ev[c], &x))
			break;
		S->ev[i] = S->ev[c];
		i = c;
	}
	if (S->nev)
		S->ev[i] = x;
	return top;
}

static bool sh_before(const struct tsim *S, unsigned int a, unsigned int b)
{
	if (S->s[a].next != S->s[b].next)
		return S->s[a].next < S->s[b].next;
	return a < b;
}

/* Restore the stream heap of P after its root's key grew. */
static void sh_down(const struct tsim *S, struct tport *P)
{
	unsigned int i = 0, c, x = P->sh[0];

	while ((c = 2 * i + 1) < P->nsh) {
		if (c + 1 < P->nsh && sh_before(S, P->sh[c + 1], P->sh[c]))
			c++;
		if (!sh_before(S, P->sh[c], x))
			break;
		P->sh[i] = P->sh[c];
		i = c;
	}
	P->sh[i] = x;
}

/* --- tester side ---------------------------------------------------- */

static int64_t l1_ticks(uint32_t size, double tpb)
{
	return llround((double)(size + L1_EXTRA) * tpb);
}

static uint32_t frame_size(const struct tsim *S, const struct tstream *s,
			   uint64_t k)
{
	const struct bm_stream_spec *ss = s->ss;

	if (ss->burst_last_size && ss->pattern == BM_STREAM_BURSTS &&
	    k % ss->burst_len == ss->burst_len - 1)
		return ss->burst_last_size;
	return s->size ? s->size : S->t->imix[k % S->t->n_imix];
}

/* x as a whole number of ticks when it is one up to rounding, else 0. */
static int64_t whole(double x)
{
	double r = nearbyint(x);

	return r >= 1.0 && fabs(x - r) < 1e-3 ? (int64_t)r : 0;
}

/* Schedule s's next frame after one of size bytes left; false at its end. */
static bool stream_next(struct tstream *s, uint32_t size, double tpb)
{
	uint64_t b;

	s->sched_last = s->next;
	if (++s->k >= s->n)
		return false;
	if (s->ss->pattern != BM_STREAM_BURSTS) {
		s->next = s->start + (s->iv_int ? (int64_t)s->k * s->iv_int :
				      llround((double)s->k * s->iv));
		return true;
	}
	b = s->k / s->ss->burst_len;
	s->cum = s->k % s->ss->burst_len ? s->cum + l1_ticks(size, tpb) : 0;
	s->next = s->start + s->cum +
		  (s->period_int ? (int64_t)b * s->period_int :
		   llround((double)b * s->period));
	return true;
}

/* Port i sends its next frame at t (the TX event); the frame. */
static struct sim_frame emit(struct tsim *S, unsigned int i, int64_t t)
{
	struct tport *P = &S->port[i];
	unsigned int x = P->sh[0];
	struct tstream *s = &S->s[x];
	const struct bm_stream_spec *ss = s->ss;
	uint32_t size = frame_size(S, s, s->k);
	struct sim_frame f = { t, x, (uint32_t)s->k, size, ss->frame.dscp };
	int64_t late = t - s->next, busy = l1_ticks(size, P->tpb);
	bool bursts = ss->pattern == BM_STREAM_BURSTS;
	double nominal = bursts ? (double)busy : s->iv;

	if (late > S->late_max)
		S->late_max = late;
	if ((double)late > nominal)
		S->late_frames++;
	/* the stream's lateness: every frame, or each burst's start */
	if (late > s->late_max && (!bursts || !(s->k % ss->burst_len)))
		s->late_max = late;
	if (bursts && !(s->k % ss->burst_len))
		s->burst_first_late = late;
	else if (bursts && late - s->burst_first_late > s->burst_late_max)
		s->burst_late_max = late - s->burst_first_late;
	/* stalls as bmgen.ko counts them (tx.c): paced frames only */
	if (!bursts) {
		int64_t l = late > 0 ? late : 0;

		if (l > s->late_prev && (!s->k || (double)l > s->iv))
			bm_trial_stall_add(s->stalls, (double)(l - s->late_prev));
		s->late_prev = l;
	}
	if (s->k < s->log_cap)
		s->r->tx_log_s[s->k] = (double)t / TPS;
	s->r->tx_bytes += size;
	if (!s->sent)
		s->tx_first = t;
	s->tx_last = t;
	s->sent++;
	if (!stream_next(s, size, P->tpb))
		P->sh[0] = P->sh[--P->nsh];
	if (P->nsh)
		sh_down(S, P);
	P->free = t + (busy > P->gap ? busy : P->gap);
	if (t > S->last_dep)
		S->last_dep = t;
	if (P->nsh) {
		int64_t nx = S->s[P->sh[0]].next;

		ev_push(S, nx > P->free ? nx : P->free, EV_TX, 0, i);
	}
	return f;
}

/* --- DUT side ------------------------------------------------------- */

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
	if (S->latency && (!lat_add(&s->lat, end - f->tx, f->seq) ||
			   !hist_add(&S->all, (uint64_t)(end - f->tx))))
		fail(S, -ENOMEM);
}

/*
 * Scheduler egress e at t: when its line is free, the scheduler's head
 * (committed) starts if the shaper lets it, else the egress comes back when
 * the shaper will; after a frame, when the line is free again.  When only
 * shaped bands without tokens hold frames, the egress idles (an arrival
 * serves it) and wakes when the first of them may send.
 */
static void serve(struct tsim *S, unsigned int e, int64_t t)
{
	struct tport *E = &S->port[e];
	struct sim_frame f;
	int64_t start, w;

	E->serving = true;
	if (E->efree > t) {
		ev_push(S, E->efree, EV_SERVE, 0, e);
		return;
	}
	while (sim_tm_head(E->tm, t, &f)) {
		start = sim_tm_ready(E->tm, t, f.size);
		if (start > t && start != INT64_MAX) {
			/* an HTB root chooses again when it can send */
			sim_tm_unpop(E->tm);
			ev_push(S, start, EV_SERVE, 0, e);
			return;
		}
		sim_tm_pop(E->tm);
		S->queued--;
		if (start == INT64_MAX)
			continue;	/* beyond the bucket: tbf drops it */
		sim_tm_take(E->tm, t, f.size);
		E->efree = t + l1_ticks(f.size, E->etpb);
		deliver(S, &f, E->efree);
		ev_push(S, E->efree, EV_SERVE, 0, e);
		return;
	}
	E->serving = false;
	w = sim_tm_wake(E->tm, t);
	if (w != INT64_MAX && w != E->wake_at) {
		E->wake_at = w;
		ev_push(S, w, EV_SERVE, 1, e);
	}
}

/* Scheduler egress e takes f at t into its band; false: the band is full. */
static bool sched_admit(struct tsim *S, unsigned int e,
			const struct sim_frame *f, int64_t t)
{
	struct tport *E = &S->port[e];
	int ret;

	if (S->queued >= MAX_QUEUED) {
		fail(S, -E2BIG);
		return true;
	}
	ret = sim_tm_enqueue(E->tm, f);
	if (ret < 0)
		fail(S, -ENOMEM);
	if (ret <= 0)
		return ret < 0;
	S->queued++;
	if (!E->serving)
		serve(S, e, t);
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
		ring_push(S, &E->q, (struct slot){ start, bytes, pool });
		if (S->err)
			return true;
		if (pool) {
			S->pool_used += bytes;
		} else {
			E->df++;
			E->db += bytes;
		}
		if (E->q.n == 1)
			ev_push(S, start, EV_DEPART, 0, e);
	}
	sim_tm_take(E->tm, start, f.size);
	E->efree = start + l1_ticks(f.size, E->etpb);
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
	ev_push(S, at, EV_HOL, P->since, i);
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

static void hol_drain(struct tsim *S, unsigned int i, int64_t t)
{
	struct tport *P = &S->port[i];
	bool moved = false;
	struct slot *h;
	struct sim_frame f;

	while (P->fifo.n && !S->err) {
		h = ring_front(&P->fifo);
		f = fifo_frame(S, h);
		if (!hol_move(S, S->s[f.stream].rx, &f, t)) {
			hol_block(S, i, S->s[f.stream].rx, t, moved);
			return;
		}
		ring_pop(S, &P->fifo);
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
			ring_push(S, &P->fifo, x);
		return;
	}
	if (hol_move(S, e, f, t))
		return;
	ring_push(S, &P->fifo, x);
	hol_block(S, i, e, t, true);
}

static void on_depart(struct tsim *S, unsigned int e, int64_t t)
{
	struct tport *E = &S->port[e];
	struct slot *h = ring_front(&E->q);
	bool pool = h->b;

	if (pool) {
		S->pool_used -= h->a;
	} else {
		E->df--;
		E->db -= h->a;
	}
	ring_pop(S, &E->q);
	if (E->q.n)
		ev_push(S, ring_front(&E->q)->t, EV_DEPART, 0, e);
	if (S->mode == BM_SIM_HOLB_ROOM && S->nblocked)
		hol_wake(S, e, pool, t);
}

/* Every port sending at t: round robin per egress, then the arrivals. */
static void on_tx(struct tsim *S, const struct ev *first)
{
	struct arrival *b = S->batch, x;
	unsigned int nb = 0, i, j;
	struct ev ev = *first;

	for (;;) {
		b[nb].f = emit(S, ev.idx, ev.t);
		b[nb].in = ev.idx;
		b[nb].out = S->s[b[nb].f.stream].rx;
		b[nb].rank = (ev.idx + S->np - S->port[b[nb].out].rr) % S->np;
		nb++;
		if (!S->nev || S->ev[0].type != EV_TX || S->ev[0].t != ev.t)
			break;
		ev = ev_pop(S);
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

/* --- set-up --------------------------------------------------------- */

/* The largest frame stream s sends. */
static uint32_t max_size(const struct tsim *S, const struct tstream *s)
{
	uint32_t m = 0;
	unsigned int i;

	if (s->size)
		return s->size > s->ss->burst_last_size ? s->size :
		       s->ss->burst_last_size;
	for (i = 0; i < S->t->n_imix; i++)
		if (S->t->imix[i] > m)
			m = S->t->imix[i];
	return m;
}

/* Frames of stream s and the time (s) of its last scheduled frame. */
static double stream_plan(const struct tsim *S, const struct tstream *s,
			  double *end_s)
{
	const struct bm_stream_spec *ss = s->ss;
	double fps = bm_stream_fps(S->t, ss, S->spec->frame_size), n = 0;
	double d = S->spec->duration_s;

	switch (ss->pattern) {
	case BM_STREAM_CBR:
		/* llround's rounding, without its overflow before the
		 * frame limit can refuse the trial */
		n = d > ss->start_s ? floor(fps * (d - ss->start_s) + 0.5) : 0;
		break;
	case BM_STREAM_COUNT:
		n = (double)ss->count;
		break;
	case BM_STREAM_BURSTS:
		n = (double)ss->burst_len * ss->burst_count;
		*end_s = ss->start_s + (ss->burst_count - 1.0) *
			 ss->burst_period_s + ss->burst_len *
			 l1_ticks(max_size(S, s), S->port[s->tx].tpb) / TPS;
		return n;
	}
	*end_s = bm_stream_start_s(S->t, ss, S->spec->frame_size) +
		 (n > 1 ? (n - 1) / fps : 0);
	return n;
}

/*
 * Count the frames and bound the simulated time, refusing what cannot be
 * simulated frame by frame; *sched_end = the last scheduled frame (s).
 * 0 or -EINVAL.
 */
static int plan(struct tsim *S, double *sched_end, struct bm_error *err)
{
	double frames = 0, tx_end = 0, drain = 0, n, e = 0, cap, busy, per, bpt;
	double port_end[BM_TRAFFIC_MAX_PORTS] = { 0 };
	double to[BM_TRAFFIC_MAX_PORTS] = { 0 };
	uint32_t big[BM_TRAFFIC_MAX_PORTS] = { 0 };
	unsigned int i;

	*sched_end = 0;
	for (i = 0; i < S->ns; i++) {
		struct tstream *s = &S->s[i];
		const struct tport *P = &S->port[s->tx];
		uint32_t m = max_size(S, s);

		n = stream_plan(S, s, &e);
		frames += n;
		if (frames > (double)MAX_FRAMES)
			continue;
		s->n = (uint64_t)n;
		if (!n)
			continue;
		to[s->rx] += n;
		big[s->rx] = m > big[s->rx] ? m : big[s->rx];
		*sched_end = fmax(*sched_end, e);
		/* the port sends its frames one after the other */
		busy = fmax((double)l1_ticks(m, P->tpb), (double)P->gap) / TPS;
		port_end[s->tx] = fmax(port_end[s->tx], e) + n * busy;
	}
	if (frames > (double)MAX_FRAMES)
		return bm_errorf(err, "sim: the traffic has %.0f frames, more "
				 "than the %llu a trial may have to be "
				 "simulated frame by frame", frames,
				 (unsigned long long)MAX_FRAMES);
	for (i = 0; i < S->np; i++) {
		const struct tport *E = &S->port[i];

		tx_end = fmax(tx_end, port_end[i]);
		if (!to[i])
			continue;
		/* what the egress may still hold when its last frame came,
		 * each at the line's or the shaper's pace (overhead <= 1000) */
		cap = sim_tm_scheduled(E->tm) ?
		      (double)sim_tm_capacity(E->tm) :
		      (double)E->qf + (double)S->pool / 64.0 +
		      (double)S->hol_d * S->nhol + 1.0;
		per = (double)l1_ticks(big[i], E->etpb);
		bpt = sim_tm_bytes_per_tick(E->tm);
		if (bpt > 0)
			per = fmax(per, (big[i] + 1000.0) / bpt);
		drain += fmin(to[i], cap) * per / TPS;
	}
	if (!(tx_end + drain <= MAX_SPAN_S))
		return bm_errorf(err, "sim: the traffic would run for more "
				 "than the %.0f s of simulated time a trial "
				 "may have (up to %.3g s)", MAX_SPAN_S,
				 tx_end + drain);
	return 0;
}

static int64_t ticks_of(double s)
{
	double t = s * TPS;

	if (!(t < 9e18))
		return INT64_MAX;
	return llround(t);
}

/* Does the DUT's filter list (RFC 2544 §11.4) drop stream ss's frames?
 * Its addresses are the template's, else its ports'. */
static bool denied(const struct bm_sim_params *p, const struct bm_traffic *t,
		   const struct bm_stream_spec *ss)
{
	static const uint8_t zero[4];
	const uint8_t *src = ss->frame.src_ip, *dst = ss->frame.dst_ip;
	unsigned int i;

	if (!p->n_permit || ss->frame.ip_version == 6)
		return false;
	if (!memcmp(src, zero, 4))
		src = t->ports[ss->tx_port].ip4;
	if (!memcmp(dst, zero, 4))
		dst = t->ports[ss->rx_port].ip4;
	for (i = 0; i < p->n_permit; i++)
		if (!memcmp(p->permit[i][0], src, 4) &&
		    !memcmp(p->permit[i][1], dst, 4))
			return false;
	return true;
}

/* Ports and streams from the traffic and the parameters. */
static int setup(struct tsim *S, struct bm_error *err)
{
	const struct bm_sim_params *p = S->p;
	const struct bm_traffic *t = S->t;
	unsigned int i;

	S->s = calloc(S->ns, sizeof(*S->s));
	S->port = calloc(S->np, sizeof(*S->port));
	S->hol = calloc(S->np, sizeof(*S->hol));
	S->batch = calloc(S->np, sizeof(*S->batch));
	S->sh = calloc(S->ns, sizeof(*S->sh));
	S->cap_ev = 4 * (size_t)S->np + 16;
	S->ev = calloc(S->cap_ev, sizeof(*S->ev));
	if (!S->s || !S->port || !S->hol || !S->batch || !S->sh || !S->ev) {
		bm_errorf(err, "sim: out of memory");
		return -ENOMEM;
	}
	S->mode = p->holb_mode;
	S->hol_d = p->holb_fifo_frames;
	S->pool = p->shared_buffer_bytes;
	for (i = 0; i < S->np; i++) {
		struct tport *P = &S->port[i];
		const struct bm_sim_port *o = &p->ports[i];
		double rate = t->ports[i].line_rate_bps;

		P->tpb = 8.0 * TPS / rate;
		if (p->generator_max_fps > 0.0)
			P->gap = llround(TPS / p->generator_max_fps);
		P->etpb = 8.0 * TPS / (o->egress_bps > 0.0 ? o->egress_bps :
				       rate);
		P->qf = o->queue_frames != BM_SIM_QUEUE_DEFAULT ?
			o->queue_frames : p->buffer_frames;
		P->qb = o->queue_bytes;
		if (sim_tm_new(p, i, &P->tm)) {
			bm_errorf(err, "sim: out of memory");
			return -ENOMEM;
		}
		P->uncounted = sim_tm_shaped(P->tm) ? 4 : 0;
		P->retry_at = -1;
		P->wake_at = -1;
		P->holb = S->hol_d && (p->holb_port < 0 ||
				       p->holb_port == (int)i);
		if (P->holb)
			S->hol[S->nhol++] = i;
	}
	for (i = 0; i < S->ns; i++) {
		struct tstream *s = &S->s[i];
		const struct bm_stream_spec *ss = &t->streams[i];

		s->ss = ss;
		s->tx = ss->tx_port;
		s->rx = ss->rx_port;
		s->size = ss->imix ? 0 : ss->frame_size ? ss->frame_size :
			  S->spec->frame_size;
		/* start_s, plus the round-robin phase (RFC 2544 §16) */
		s->start = ticks_of(bm_stream_start_s(t, ss,
						      S->spec->frame_size));
		s->next = s->start;
		s->tx_first = s->tx_last = s->rx_first = s->rx_last = -1;
		s->denied = denied(p, t, ss) ||
			    !sim_rip_routed(S->sp, t, ss, S->sp->rip_now_s);
		if (ss->pattern == BM_STREAM_BURSTS) {
			s->period = ss->burst_period_s * TPS;
			s->period_int = whole(s->period);
		} else {
			s->iv = TPS / bm_stream_fps(t, ss, S->spec->frame_size);
			s->iv_int = whole(s->iv);
		}
	}
	return 0;
}

/* Each port's streams with frames into its slice of S->sh, as a heap;
 * the ports' first departures into the event heap. */
static void start(struct tsim *S)
{
	unsigned int i, j, off = 0;

	for (i = 0; i < S->np; i++) {
		struct tport *P = &S->port[i];

		P->sh = S->sh + off;
		for (j = 0; j < S->ns; j++)
			if (S->s[j].tx == i && S->s[j].n)
				P->sh[P->nsh++] = j;
		off += P->nsh;
		/* all at their first frame: sort by time, then index */
		for (j = 1; j < P->nsh; j++) {
			unsigned int x = P->sh[j], k;

			for (k = j; k && sh_before(S, x, P->sh[k - 1]); k--)
				P->sh[k] = P->sh[k - 1];
			P->sh[k] = x;
		}
		if (P->nsh)
			ev_push(S, S->s[P->sh[0]].next, EV_TX, 0, i);
	}
}

static void run(struct tsim *S)
{
	struct ev ev;

	while (S->nev && !S->err) {
		ev = ev_pop(S);
		switch (ev.type) {
		case EV_DEPART:
			on_depart(S, ev.idx, ev.t);
			break;
		case EV_SERVE:
			if (ev.tie) {
				/* a band's wake: superseded by a later one,
				 * or the egress is busy again */
				if (S->port[ev.idx].wake_at != ev.t)
					break;
				S->port[ev.idx].wake_at = -1;
				if (S->port[ev.idx].serving)
					break;
			}
			serve(S, ev.idx, ev.t);
			break;
		case EV_TX:
			on_tx(S, &ev);
			break;
		case EV_HOL:
			if (S->port[ev.idx].retry_at != ev.t)
				break;	/* superseded */
			S->port[ev.idx].retry_at = -1;
			hol_drain(S, ev.idx, ev.t);
			break;
		}
	}
}

static double secs(int64_t t)
{
	return t < 0 ? -1.0 : (double)t / TPS;
}

static void lat_summary(const struct lat_acc *a, const struct hist *h,
			double base_ns, struct bm_latency *l)
{
	double mn = (double)a->min, mx = (double)a->max;

	memset(l, 0, sizeof(*l));
	if (!a->n)
		return;
	l->count = a->n;
	l->min_ns = base_ns + mn / TICKS_NS;
	l->max_ns = base_ns + mx / TICKS_NS;
	l->mean_ns = base_ns + a->mean / TICKS_NS;
	l->stddev_ns = a->n > 1 ? sqrt(a->m2 / (double)(a->n - 1)) / TICKS_NS :
		       0;
	l->p50_ns = base_ns + hist_pct(h, a->n, 0.50, mn, mx) / TICKS_NS;
	l->p90_ns = base_ns + hist_pct(h, a->n, 0.90, mn, mx) / TICKS_NS;
	l->p99_ns = base_ns + hist_pct(h, a->n, 0.99, mn, mx) / TICKS_NS;
	l->p999_ns = base_ns + hist_pct(h, a->n, 0.999, mn, mx) / TICKS_NS;
}

/* Per-stream results into tr, then the ports and totals into res. */
/*
 * The model of ports that stamp every frame in hardware: the
 * hardware latency is the model's, the software stamps come delay ns
 * later on the receive side, for every frame (the trial's latency
 * summary only: histograms and per-stream figures stay the model's).
 */
static void sim_hw_stamps(double delay, struct bm_trial_result *res)
{
	struct bm_hw_latency *h = &res->hw;
	struct bm_latency *l = &res->latency;

	h->on = true;
	snprintf(h->tx_filter, sizeof(h->tx_filter), "all");
	snprintf(h->rx_filter, sizeof(h->rx_filter), "all");
	h->tx_requests = h->tx_stamps = h->rx_stamps = h->count = l->count;
	h->min_ns = l->min_ns;
	h->mean_ns = l->mean_ns;
	h->max_ns = l->max_ns;
	h->accuracy_ns = 0.0;
	l->min_ns += delay;
	l->mean_ns += delay;
	l->max_ns += delay;
	l->p50_ns += delay;
	l->p90_ns += delay;
	l->p99_ns += delay;
	l->p999_ns += delay;
	h->sw_mean_ns = l->mean_ns;
}

static void results(struct tsim *S, struct bm_traffic_result *tr,
		    struct bm_trial_result *res)
{
	double base_ns = (double)S->base / TICKS_NS, span;
	int64_t first = -1, last = -1, shortfall = 0, stretch;
	unsigned int i, j;

	res->max_gap_s = 0;
	res->max_gap_start_s = 0;
	for (i = 0; i < S->ns; i++) {
		const struct tstream *s = &S->s[i];
		struct bm_stream_result *r = &tr->streams[i];

		/* zeroed by reset_results; the counts by size, DSCP and PCP,
		 * the reordered frames and the logs came in on the way */
		r->intended = s->n;
		r->sent = s->sent;
		r->received = s->rcvd;
		r->lost = s->sent - s->rcvd;
		r->n_tx_log = s->sent < s->log_cap ? s->sent : s->log_cap;
		r->tx_late_max_s = s->late_max > 0 ? s->late_max / TPS : 0;
		if (s->ss->pattern == BM_STREAM_BURSTS) {
			r->tx_burst_late_max_s = s->burst_late_max / TPS;
			bm_trial_burst_late_add(res, r->tx_burst_late_max_s);
		}
		for (j = 0; j < BM_TX_STALLS; j++) {
			r->tx_stalls_s[j] = s->stalls[j] / TPS;
			bm_trial_stall_add(res->tx_stalls_s, r->tx_stalls_s[j]);
		}
		r->first_tx_s = secs(s->tx_first);
		r->last_tx_s = secs(s->tx_last);
		r->first_rx_s = secs(s->rx_first);
		r->last_rx_s = secs(s->rx_last);
		if (S->latency) {
			lat_summary(&s->lat, &s->lat.h, base_ns, &r->latency);
			bm_ipdv_set(r, s->lat.ipdv_n,
				    (double)s->lat.ipdv_min / TICKS_NS,
				    (double)s->lat.ipdv_max / TICKS_NS,
				    (double)s->lat.ipdv_sum / TICKS_NS);
			r->pdv_ns = s->lat.n ? (double)(s->lat.max -
						s->lat.min) / TICKS_NS : 0;
		}
		if (s->gap > 0 && s->gap / TPS > res->max_gap_s) {
			res->max_gap_s = s->gap / TPS;
			res->max_gap_start_s = secs(s->gap_at);
		}
		if (s->sent) {
			if (first < 0 || s->tx_first < first)
				first = s->tx_first;
			if (s->tx_last > last)
				last = s->tx_last;
		}
		/* REQ-GEN-6, MLR §5.1: whole intervals a paced stream's last
		 * frame left behind its schedule */
		if (s->ss->pattern != BM_STREAM_BURSTS && s->sent > 1) {
			stretch = (s->tx_last - s->tx_first) -
				  (s->sched_last - s->start);
			if (stretch > 0)
				shortfall += (int64_t)floor((double)stretch /
							    s->iv);
		}
	}
	span = first >= 0 ? (double)(last - first) / TPS : 0;
	bm_traffic_result_sum(S->t, S->spec->frame_size, tr, span, res);
	if (S->latency && res->latency.count) {
		/* percentiles of all streams together, from all samples */
		double mn = (res->latency.min_ns - base_ns) * TICKS_NS;
		double mx = (res->latency.max_ns - base_ns) * TICKS_NS;
		uint64_t n = res->latency.count;

		res->latency.p50_ns = base_ns +
			hist_pct(&S->all, n, 0.50, mn, mx) / TICKS_NS;
		res->latency.p90_ns = base_ns +
			hist_pct(&S->all, n, 0.90, mn, mx) / TICKS_NS;
		res->latency.p99_ns = base_ns +
			hist_pct(&S->all, n, 0.99, mn, mx) / TICKS_NS;
		res->latency.p999_ns = base_ns +
			hist_pct(&S->all, n, 0.999, mn, mx) / TICKS_NS;
		hist_fold(&S->all, base_ns, res->lat_hist);
	}
	if (S->latency && res->latency.count && S->p->sw_stamp_delay_ns > 0)
		sim_hw_stamps(S->p->sw_stamp_delay_ns, res);
	res->late = S->late;
	res->tx_late_frames = S->late_frames;
	res->tx_late_max_s = S->late_max > 0 ? S->late_max / TPS : 0;
	res->shortfall = (uint64_t)shortfall;
	res->generator_limited = S->late_frames > 0 || shortfall > 0;
	snprintf(res->ts_source, sizeof(res->ts_source), "sim");
	res->late_watch_s = -1;	/* the model knows every late frame */
}

/*
 * Zero each stream's result in tr (freeing the logs of an earlier trial)
 * and give it logs of log_frames frames, at most its frame count; point
 * the streams at them.  0 or -ENOMEM.
 */
static int reset_results(struct tsim *S, struct bm_traffic_result *tr)
{
	unsigned int i;

	for (i = 0; i < S->ns; i++) {
		struct tstream *s = &S->s[i];
		struct bm_stream_result *r = &tr->streams[i];
		uint64_t cap = s->ss->log_frames;

		free(r->tx_log_s);
		free(r->rx_log);
		memset(r, 0, sizeof(*r));
		s->r = r;
		s->log_cap = (uint32_t)(cap < s->n ? cap : s->n);
		if (!s->log_cap)
			continue;
		r->tx_log_s = calloc(s->log_cap, sizeof(*r->tx_log_s));
		r->rx_log = calloc(s->log_cap, sizeof(*r->rx_log));
		if (!r->tx_log_s || !r->rx_log)
			return -ENOMEM;
	}
	return 0;
}

static void teardown(struct tsim *S)
{
	unsigned int i;

	for (i = 0; S->s && i < S->ns; i++)
		hist_free(&S->s[i].lat.h);
	for (i = 0; S->port && i < S->np; i++) {
		free(S->port[i].q.v);
		free(S->port[i].fifo.v);
		sim_tm_free(S->port[i].tm);
	}
	hist_free(&S->all);
	free(S->s);
	free(S->port);
	free(S->hol);
	free(S->batch);
	free(S->sh);
	free(S->ev);
}

/* RFC 2544 §11.2: the sim's agent answers every query at mgmt_agent's
 * address with a GetResponse that verifies; anywhere else, none does. */
static void mgmt_answers(const struct bm_sim_params *p,
			 const struct bm_traffic *t,
			 const struct bm_trial_spec *spec,
			 struct bm_trial_result *res)
{
	res->mgmt_sent = bm_mgmt_queries(&t->mgmt, spec->duration_s);
	if (p->have_mgmt_agent &&
	    !memcmp(p->mgmt_agent, t->mgmt.agent_ip4, 4))
		res->mgmt_answered = res->mgmt_verified = res->mgmt_sent;
	bm_mgmt_note_unanswered(res);
}

/* The routing updates a trial sent (bm_traffic.h), each heard by the
 * table for the trials after it (bm_sim.h rip_routes). */
static void rip_sends(struct sim_priv *sp, const struct bm_traffic *t,
		      const struct bm_trial_spec *spec, double t0,
		      struct bm_trial_result *res)
{
	const struct bm_rip_msg *m;
	unsigned int k, j, n;

	for (k = 0; k < t->n_rip; k++) {
		m = &t->rip[k];
		n = bm_rip_sends(m, -m->at_s, spec->duration_s);
		res->rip_sent[k] = n + (m->at_s < 0);
		for (j = 0; j < n; j++)
			sim_rip_hear(sp, t, m, t0 + spec->duration_s);
	}
}

int sim_run_traffic(struct bm_backend *be, const struct bm_trial_spec *spec,
		    struct bm_trial_result *res, struct bm_error *err)
{
	struct sim_priv *sp = be->priv;
	const struct bm_sim_params *p = &sp->p;
	const struct bm_traffic *t = spec->traffic;
	struct bm_traffic_result *tr = spec->traffic_res, *own = NULL;
	struct win wins[SIM_MAX_WIN];
	struct tsim S = { 0 };
	double sched_end, offset = 0, drain;
	size_t i;
	int ret;

	ret = bm_traffic_check(t, spec->frame_size, err);
	if (ret)
		return ret;
	if (!isfinite(spec->duration_s) || spec->duration_s < 0)
		return bm_errorf(err, "sim: bad duration %g s",
				 spec->duration_s);
	if (tr && (tr->n_streams != t->n_streams ||
		   tr->n_ports != t->n_ports))
		return bm_errorf(err, "sim: traffic_res has %u ports and %u "
				 "streams, the traffic %u and %u",
				 tr->n_ports, tr->n_streams, t->n_ports,
				 t->n_streams);
	/* §13: the updates before the trial make its table */
	for (i = 0; i < t->n_rip; i++)
		if (t->rip[i].at_s < 0)
			sim_rip_hear(sp, t, &t->rip[i], be->elapsed_s);
	sp->rip_now_s = be->elapsed_s;
	S.t = t;
	S.spec = spec;
	S.p = p;
	S.sp = sp;
	S.ns = t->n_streams;
	S.np = t->n_ports;
	S.latency = spec->latency;
	ret = setup(&S, err);
	if (!ret)
		ret = plan(&S, &sched_end, err);
	if (!ret && !tr) {
		/* the totals come from per-stream results all the same */
		own = tr = bm_traffic_result_new(t);
		if (!tr) {
			bm_errorf(err, "sim: out of memory");
			ret = -ENOMEM;
		}
	}
	if (!ret && reset_results(&S, tr)) {
		bm_errorf(err, "sim: out of memory");
		ret = -ENOMEM;
	}
	if (ret)
		goto out;

	/* as the pair model: one latency offset per trial, outages */
	if (p->latency_jitter_ns > 0.0)
		offset = p->latency_jitter_ns *
			 (2.0 * sim_rng_uniform(&sp->rng) - 1.0);
	S.base = llround((p->base_latency_ns + offset) * TICKS_NS);
	S.nw = sim_windows(sp, spec, -1.0, wins, res);
	for (i = 0; i < S.nw; i++) {
		S.ws[i] = ticks_of(wins[i].s);
		S.we[i] = ticks_of(wins[i].e);
	}
	drain = spec->drain_s < 0.0 ? SIM_DRAIN_S : spec->drain_s;
	S.deadline = ticks_of(fmax(spec->duration_s, sched_end) + drain);

	start(&S);
	run(&S);
	if (S.err == -E2BIG) {
		ret = bm_errorf(err, "sim: the DUT's queues and FIFOs would "
				"hold more than %lu frames at once, the most "
				"the simulator keeps: lower buffer_frames, "
				"queue_frames or shared_buffer_bytes",
				MAX_QUEUED);
		goto out;
	}
	if (S.err) {
		bm_errorf(err, "sim: out of memory");
		ret = -ENOMEM;
		goto out;
	}
	results(&S, tr, res);
	if (t->have_mgmt)
		mgmt_answers(p, t, spec, res);
	rip_sends(sp, t, spec, be->elapsed_s, res);
	be->elapsed_s += fmax(spec->duration_s, secs(S.last_dep)) +
			 p->trial_overhead_s;
out:
	bm_traffic_result_free(own);
	teardown(&S);
	return ret;
}

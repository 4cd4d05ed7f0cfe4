// SPDX-License-Identifier: GPL-2.0
/*
 * The tester side of the N-port model (sim_traffic.c): each port sends
 * its streams' frames in the order of their schedule, one at a time, and
 * counts what left late (REQ-GEN-6).  Apart from the DUT side
 * (sim_dut.c), which takes the frames this side emits and never calls
 * back.
 */
#include <math.h>

#include "sim_int.h"

#define L1_EXTRA	20		/* preamble, SFD, gap (SPEC F-1) */

int64_t sim_l1_ticks(uint32_t size, double tpb)
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
	s->cum = s->k % s->ss->burst_len ? s->cum + sim_l1_ticks(size, tpb) : 0;
	s->next = s->start + s->cum +
		  (s->period_int ? (int64_t)b * s->period_int :
		   llround((double)b * s->period));
	return true;
}

/* Port i sends its next frame at t (the TX event); the frame. */
struct sim_frame sim_tester_emit(struct tsim *S, unsigned int i, int64_t t)
{
	struct tport *P = &S->port[i];
	unsigned int x = P->sh[0];
	struct tstream *s = &S->s[x];
	const struct bm_stream_spec *ss = s->ss;
	uint32_t size = frame_size(S, s, s->k);
	struct sim_frame f = { t, x, (uint32_t)s->k, size, ss->frame.dscp };
	int64_t late = t - s->next, busy;
	bool bursts = ss->pattern == BM_STREAM_BURSTS;
	double nominal;

	/* one frame size is usual: its line time computed once */
	if (P->busy_size != size) {
		P->busy_size = size;
		P->busy_ticks = sim_l1_ticks(size, P->tpb);
	}
	busy = P->busy_ticks;
	nominal = bursts ? (double)busy : s->iv;

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
		sim_sh_down(S, P);
	P->free = t + (busy > P->gap ? busy : P->gap);
	if (t > S->last_dep)
		S->last_dep = t;
	if (P->nsh) {
		int64_t nx = S->s[P->sh[0]].next;

		sim_ev_push(S, nx > P->free ? nx : P->free, EV_TX, 0, i);
	}
	return f;
}

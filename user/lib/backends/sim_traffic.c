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
 *
 * Files.  This one sets a trial up (ports, streams, the frame and time
 * bounds), runs its events and answers its management queries and
 * routing updates; the tester is sim_tester.c, the DUT sim_dut.c, the
 * latency sim_latency.c, the rings and heaps sim_heaps.c and the results
 * sim_traffic_results.c (sim_int.h has their state).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bm_sim.h"
#include "bm_traffic.h"
#include "sim_int.h"

/* The fuzzers' build (make fuzz) lowers it: a mutated duration must cost
 * a refusal, not minutes of simulation. */
#ifdef BM_SIM_MAX_FRAMES
#define MAX_FRAMES	BM_SIM_MAX_FRAMES
#else
#define MAX_FRAMES	100000000ULL
#endif
#define MAX_SPAN_S	604800.0	/* int64 ticks reach 10 days */

/* x as a whole number of ticks when it is one up to rounding, else 0. */
static int64_t whole(double x)
{
	double r = nearbyint(x);

	return r >= 1.0 && fabs(x - r) < 1e-3 ? (int64_t)r : 0;
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
			 sim_l1_ticks(max_size(S, s), S->port[s->tx].tpb) / TPS;
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
		busy = fmax((double)sim_l1_ticks(m, P->tpb),
			    (double)P->gap) / TPS;
		port_end[s->tx] = fmax(port_end[s->tx], e) + n * busy;
	}
	if (frames > (double)MAX_FRAMES) {
		/* the fix in the message: the frames scale with the trial's
		 * duration and the line rate */
		double k = (double)MAX_FRAMES / frames;

		return bm_errorf(err, "sim: the traffic has %.0f frames, more "
				 "than the %llu a trial may have to be "
				 "simulated frame by frame: dry-run it with "
				 "trials of at most %.3g s (--duration or the "
				 "procedure's duration parameter) or a line "
				 "rate %.3g times lower", frames,
				 (unsigned long long)MAX_FRAMES,
				 floor(S->spec->duration_s * k * 1000) / 1000,
				 ceil(1.0 / k * 10) / 10);
	}
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
		per = (double)sim_l1_ticks(big[i], E->etpb);
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

			for (k = j; k && sim_sh_before(S, x, P->sh[k - 1]); k--)
				P->sh[k] = P->sh[k - 1];
			P->sh[k] = x;
		}
		if (P->nsh)
			sim_ev_push(S, S->s[P->sh[0]].next, EV_TX, 0, i);
	}
}

static void run(struct tsim *S)
{
	struct ev ev;

	while (S->nev && !S->err) {
		ev = sim_ev_pop(S);
		switch (ev.type) {
		case EV_DEPART:
			sim_dut_on_depart(S, ev.idx, ev.t);
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
			sim_dut_serve(S, ev.idx, ev.t);
			break;
		case EV_TX:
			sim_dut_on_tx(S, &ev);
			break;
		case EV_HOL:
			if (S->port[ev.idx].retry_at != ev.t)
				break;	/* superseded */
			S->port[ev.idx].retry_at = -1;
			sim_dut_hol_drain(S, ev.idx, ev.t);
			break;
		}
	}
}

static void teardown(struct tsim *S)
{
	unsigned int i;

	for (i = 0; S->s && i < S->ns; i++)
		sim_lat_hist_free(&S->s[i].lat.h);
	for (i = 0; S->port && i < S->np; i++) {
		free(S->port[i].q.v);
		free(S->port[i].fifo.v);
		sim_tm_free(S->port[i].tm);
	}
	sim_lat_hist_free(&S->all);
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
	if (!ret && sim_traffic_reset_results(&S, tr)) {
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
	sim_traffic_results(&S, tr, res);
	if (t->have_mgmt)
		mgmt_answers(p, t, spec, res);
	rip_sends(sp, t, spec, be->elapsed_s, res);
	be->elapsed_s += fmax(spec->duration_s, sim_traffic_secs(S.last_dep)) +
			 p->trial_overhead_s;
out:
	bm_traffic_result_free(own);
	teardown(&S);
	return ret;
}

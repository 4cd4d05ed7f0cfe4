/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internals shared by the simulated DUT's files: the backend (sim.c),
 * the fluid model of pair traffic (sim_fluid.c, its trial sim_pair.c)
 * and the frame-level model of any traffic (sim_traffic.c and its
 * parts); not a public interface.
 */
#ifndef SIM_INT_H
#define SIM_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bm_sim.h"
#include "bm_tcp.h"

#define SIM_MAX_WIN	4
#define SIM_DRAIN_S	2.0	/* REQ-TRIAL-1 step 4 default */

#define SIM_MAX_ROUTES	1024

struct sim_priv {
	struct bm_sim_params p;
	uint64_t rng;
	unsigned int outage_used;
	/* set while a trial runs, for bm_sim_reset_hook */
	bool in_trial;
	double now_s;
	bool reset_fired;
	double reset_at_s;
	/* the RIP routes of a rip_routes DUT (bm_sim.h) */
	struct sim_route {
		uint8_t net[4];
		uint8_t metric;		/* as installed: advertised + 1 */
		unsigned int port;
		double expires_s;	/* on the virtual clock */
	} routes[SIM_MAX_ROUTES];
	unsigned int n_routes;
	double rip_now_s;		/* the trial's start */
};

/* Route from a message's routes to the table (bm_sim.h rip_routes). */
void sim_rip_hear(struct sim_priv *sp, const struct bm_traffic *t,
		  const struct bm_rip_msg *m, double now_s);

/* Does sp's table take IPv4 address dst (0.0.0.0: the stream's own,
 * taken as adjacent) to port? */
bool sim_rip_routed_net(const struct sim_priv *sp, const uint8_t dst[4],
			unsigned int port, double now_s);

/* Does sp's table take stream ss of t to its rx port? */
bool sim_rip_routed(const struct sim_priv *sp, const struct bm_traffic *t,
		    const struct bm_stream_spec *ss, double now_s);

/* An outage: nothing is forwarded in [s, e) s from the trial start. */
struct win {
	double s, e;
	bool flushed;
};

/* The fluid TCP engine of the simulated DUT (sim_tcp.c): attach it to be
 * (0 or -ENOMEM), free it, and account a trial's frames to the egresses
 * of a running session. */
int sim_tcp_attach(struct bm_backend *be);
void sim_tcp_detach(struct bm_backend *be);
void sim_tcp_trial(struct bm_backend *be, const struct bm_trial_spec *spec);

/* sim_rng.c: the next uniform [0, 1) draw of the simulator's seeded
 * PRNG at *s. */
double sim_rng_uniform(uint64_t *s);
/* A Binomial(n, p) draw: exact inversion for small means, else normal. */
uint64_t sim_rng_binomial(uint64_t *s, uint64_t n, double p);

/*
 * sim_outage.c: the outage windows of one trial into wins[SIM_MAX_WIN]: the scheduled
 * outage (DUT-OUTAGE; a step-referenced one only when step_at_s >= 0)
 * and the one the DUT reset hook starts when spec->event_fn fires
 * (R2544-RESET, res->event_ret set).  Returns the number of windows.
 */
size_t sim_windows(struct sim_priv *sp, const struct bm_trial_spec *spec,
		   double step_at_s, struct win *wins,
		   struct bm_trial_result *res);

/* --- the N-port model's traffic management (sim_tm.c) --------------- */

#define SIM_TPS		1e13		/* ticks per second */

/* A frame inside the DUT. */
struct sim_frame {
	int64_t tx;			/* ticks: its first bit left */
	uint32_t stream, seq;		/* seq: the stream's frame index */
	uint32_t size;			/* F, with FCS */
	uint8_t dscp;			/* as it is now: a policer re-marks */
};

/* The policer, shaper and scheduler of one DUT egress. */
struct sim_tm;

/* The TM of egress port of p into *tm: NULL when it has none.  0 or
 * -ENOMEM. */
int sim_tm_new(const struct bm_sim_params *p, unsigned int port,
	       struct sim_tm **tm);
/* Release tm and the frames its bands still hold (NULL: nothing). */
void sim_tm_free(struct sim_tm *tm);

/* The policer of outer VLAN id vlan (-1: untagged), else the catch-all,
 * at t (ticks): false when f exceeds (red: dropped); a yellow frame has
 * its DSCP re-marked.  No policer for it: true. */
bool sim_tm_police(struct sim_tm *tm, int64_t t, struct sim_frame *f,
		   int vlan);

/* Has the egress a shaper? */
bool sim_tm_shaped(const struct sim_tm *tm);
/* The first tick >= t at which the shaper's bucket holds a frame of size
 * bytes (INT64_MAX: never, it is larger than the bucket); t without a
 * shaper. */
int64_t sim_tm_ready(struct sim_tm *tm, int64_t t, uint32_t size);
/* A frame of size bytes leaves the shaper at t: its tokens go, and
 * those of the band of the head popped last, when shaped. */
void sim_tm_take(struct sim_tm *tm, int64_t t, uint32_t size);
/* The slowest shaper's rate (the root's or a band's) in bytes of F per
 * tick, for bounds (0: none). */
double sim_tm_bytes_per_tick(const struct sim_tm *tm);

/* Has the egress a scheduler (its bands replace the FIFO)? */
bool sim_tm_scheduled(const struct sim_tm *tm);
/* f joins its band: 1, 0 when the band is full (tail drop), -ENOMEM. */
int sim_tm_enqueue(struct sim_tm *tm, const struct sim_frame *f);
/* The frame the scheduler sends next at t into *f, false when none may
 * (none waits, or only in shaped bands without tokens: sim_tm_wake).  It
 * is committed (tbf's peek): it stays the head until sim_tm_pop, even if
 * a frame of a higher band arrives meanwhile. */
bool sim_tm_head(struct sim_tm *tm, int64_t t, struct sim_frame *f);
/* The first tick >= t at which a shaped band's bucket holds its waiting
 * head; INT64_MAX when no shaped band waits. */
int64_t sim_tm_wake(struct sim_tm *tm, int64_t t);
/* The committed head has gone to the line. */
void sim_tm_pop(struct sim_tm *tm);
/* In an HTB tree (a shaped band), the committed head of a strict band
 * goes back to its band's front, to be chosen again when the root can
 * send: true; false (nothing done) otherwise. */
bool sim_tm_unpop(struct sim_tm *tm);
/* Frames the bands may hold at once (for bounds; UINT64_MAX: no limit). */
uint64_t sim_tm_capacity(const struct sim_tm *tm);

/* --- the fluid model (sim_fluid.c) and its trial (sim_pair.c) ------- */


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

/* sim_fluid.c: advance the state from st->t to t_to with arrivals from
 * segment sg (NULL: idle), splitting at outage boundaries and at the tag
 * probe. */
void sim_fluid_advance(struct dir_state *st, double t_to,
		       const struct seg *sg);
/* One frame of sg arriving at st->t (the start of a segment). */
void sim_fluid_impulse(struct dir_state *st, const struct seg *sg);
/* Last arrival strictly before t over all segments, or -1. */
double sim_fluid_arrival_before(const struct dir_state *st, double t);
/* First arrival at or after t over all segments, or -1. */
double sim_fluid_arrival_from(const struct dir_state *st, double t);
/* A frame sent at tx was lost: the latest such time is kept. */
void sim_fluid_note_loss(struct dir_state *st, double tx);
/* The outage window holding t, or -1. */
int sim_fluid_window_at(const struct dir_state *st, double t);
/* Gradual-stage loss ratio at offered rate r (BM_SIM_GRADUAL). */
double sim_fluid_gradual_ratio(const struct bm_sim_params *p, double r,
			       double knee);
/* The latency of the count frames received, from st's pieces, offset by
 * offset_ns, into *lat; all zero without any. */
void sim_fluid_latency(const struct dir_state *st, uint64_t count,
		       double offset_ns, struct bm_latency *lat);

/* --- sim_pair.c: pair traffic on the fluid model --- */

/* A pair trial's load as the fluid model takes it (sim_pair_load_of). */
struct sim_pair_load {
	enum bm_pattern pattern;	/* RATE, BURST or STEP */
	bool bidir;			/* a reverse stream like the forward */
	uint32_t frame_size;
	double rate_fps;
	uint64_t frames;		/* the forward count */
	double duration_s;		/* the trial's; for a step, the time
					 * before it */
	uint64_t burst_frames;
	double step_rate_fps;
	uint64_t step_frames;
	double span_s;			/* a step trial's whole duration */
	double tag_at_s;		/* the tagged frame's due time, < 0
					 * none (RFC 2544 §26.2) */
	uint8_t tag_dst_ip4[4];
};

/* Spec's traffic as a pair load, when the fluid model answers it: 0, or
 * -EINVAL for traffic the frame-level model runs. */
int sim_pair_load_of(const struct bm_trial_spec *spec,
		     struct sim_pair_load *l);

/* Run spec's pair traffic, *l as sim_pair_load_of() read it, on the
 * fluid model; as run_trial. */
int sim_pair_run_trial(struct bm_backend *be,
		       const struct bm_trial_spec *spec,
		       const struct sim_pair_load *l,
		       struct bm_trial_result *res, struct bm_error *err);

/* --- the N-port model's state (sim_traffic.c) and its parts ------- */

/* sim_traffic.c sets a trial up and runs its events; sim_tester.c sends,
 * sim_dut.c forwards and receives, sim_latency.c keeps the latency,
 * sim_heaps.c holds the rings and heaps they share, and
 * sim_traffic_results.c makes the results.  Calls run down that list. */

#define TPS		SIM_TPS		/* ticks per second */
#define TICKS_NS	1e4		/* ticks per ns */
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
	/* a pool host's half of a stream across hosts, its ports
	 * stamping in hardware: its stamps of every hw_every-th frame,
	 * hw_cap at most (bm_hw_log_plan); hw_side BM_HALF_TX or _RX,
	 * 0 for none */
	uint32_t hw_cap, hw_every;
	uint8_t hw_side;
	uint64_t rx_next;		/* highest seq received + 1 */
	struct lat_acc lat;
	/* RFC 2544 §26.2's tagged frame (ss->tag_seq) came: its latency
	 * (ticks, without the base) */
	bool tag_rx;
	int64_t tag_lat;
};

struct tport {
	/* tester side */
	double tpb;			/* ticks per L1 byte at line rate */
	int64_t gap;			/* generator_max_fps spacing */
	int64_t free;			/* can send again from then */
	unsigned int *sh, nsh;		/* streams with frames left */
	uint32_t busy_size;		/* the last frame size sent, and */
	int64_t busy_ticks;		/* its line time: one size is usual */
	/* DUT egress */
	double etpb;			/* the same at egress_bps */
	uint64_t qf, qb;		/* queue limits (qb 0: none) */
	struct ring q;			/* frames waiting for the line */
	uint64_t df, db;		/* dedicated frames, bytes used */
	int64_t efree;			/* the line is busy until then */
	uint32_t svc_size;		/* the last frame size served, and */
	int64_t svc_ticks;		/* its service time (service_ticks) */
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

/* sim_latency.c: count sample v (ticks) into h; false: out of memory. */
bool sim_lat_hist_add(struct hist *h, uint64_t v);
/* Free h's pages; h is empty after. */
void sim_lat_hist_free(struct hist *h);
/* Fold h (ticks, offset base_ns) into a report's BM_LAT_HIST histogram,
 * each bucket of ours at its middle (ours are 0.4 % wide). */
void sim_lat_hist_fold(const struct hist *h, double base_ns, uint64_t *out);
/* Percentile q of n samples in [mn, mx] ticks: nearest rank. */
double sim_lat_hist_pct(const struct hist *h, uint64_t n, double q,
			double mn, double mx);
/* Sample v (ticks) of the frame of sequence number seq into a's moments,
 * IPDV and histogram; false: out of memory. */
bool sim_lat_add(struct lat_acc *a, int64_t v, uint64_t seq);
/* a's samples (ticks, histogram h) as a latency summary in ns, offset
 * base_ns; all zero without samples. */
void sim_lat_summary(const struct lat_acc *a, const struct hist *h,
		     double base_ns, struct bm_latency *l);
/* l as measured e_ns later (a receiver's stamp delay or clock error):
 * every value moved, below_zero from the result. */
void sim_lat_shift(struct bm_latency *l, double e_ns);

/* sim_heaps.c: the run fails with e (-ENOMEM, -E2BIG); the first stays. */
void sim_fail(struct tsim *S, int e);
/* Append x to r (S counts what all rings hold; sim_fail when full or out
 * of memory). */
void sim_ring_push(struct tsim *S, struct ring *r, struct slot x);
/* r's oldest slot; r holds one. */
struct slot *sim_ring_front(struct ring *r);
/* Drop r's oldest slot; r holds one. */
void sim_ring_pop(struct tsim *S, struct ring *r);
/* An event of type at t onto S's heap, tie and idx ordering it within
 * one instant (sim_fail when out of memory). */
void sim_ev_push(struct tsim *S, int64_t t, unsigned int type,
		 int64_t tie, unsigned int idx);
/* Take the earliest event off S's heap; it holds one. */
struct ev sim_ev_pop(struct tsim *S);
/* Is stream a's next frame due before stream b's (ties: lower index)? */
bool sim_sh_before(const struct tsim *S, unsigned int a, unsigned int b);
/* Restore the stream heap of P after its root's key grew. */
void sim_sh_down(const struct tsim *S, struct tport *P);

/* sim_tester.c: ticks of a frame of size bytes on a line of tpb ticks
 * per L1 byte. */
int64_t sim_l1_ticks(uint32_t size, double tpb);
/* Port i sends its next frame at t (the TX event); the frame. */
struct sim_frame sim_tester_emit(struct tsim *S, unsigned int i, int64_t t);

/* sim_dut.c: scheduler egress e at t (an EV_SERVE event). */
void sim_dut_serve(struct tsim *S, unsigned int e, int64_t t);
/* Port i's HOLB FIFO at t: its heads go while their egresses take them
 * (an EV_HOL event). */
void sim_dut_hol_drain(struct tsim *S, unsigned int i, int64_t t);
/* The head of egress e's queue leaves for the line at t (an EV_DEPART
 * event). */
void sim_dut_on_depart(struct tsim *S, unsigned int e, int64_t t);
/* Every port sending at first's instant: round robin per egress, then
 * the arrivals (EV_TX events, the first popped). */
void sim_dut_on_tx(struct tsim *S, const struct ev *first);

/* sim_traffic_results.c: ticks t in s; -1 for a time never reached
 * (t < 0). */
double sim_traffic_secs(int64_t t);
/* Zero each stream's result in tr (freeing the logs of an earlier trial)
 * and give it logs; 0 or -ENOMEM. */
int sim_traffic_reset_results(struct tsim *S, struct bm_traffic_result *tr);
/* A pool host's part on a clock e_ns off true time (clock_error_ns): the
 * latency of its receiving halves in spec's traffic_res and in res moved
 * by it (sim_clock.c). */
void sim_clock_error_part(const struct bm_trial_spec *spec, double e_ns,
			  struct bm_trial_result *res);
/* Per-stream results into tr, then the ports and totals into res. */
/* A pool host's part, its ports stamping every frame, their software
 * stamps delay_ns later: its hardware block from its halves' stamp logs
 * in tr (the pool pairs them) and its whole streams' latency. */
void sim_hw_part(const struct bm_trial_spec *spec,
		 const struct bm_traffic_result *tr, double delay_ns,
		 struct bm_trial_result *res);
void sim_traffic_results(struct tsim *S, struct bm_traffic_result *tr,
			 struct bm_trial_result *res);

/* Run spec->traffic on the N-port model (sim_traffic.c); as run_trial. */
int sim_run_traffic(struct bm_backend *be, const struct bm_trial_spec *spec,
		    struct bm_trial_result *res, struct bm_error *err);

#endif /* SIM_INT_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internals shared by sim.c (the pair model) and sim_traffic.c (the
 * N-port model) of the simulated DUT; not a public interface.
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

/* Run spec->traffic on the N-port model (sim_traffic.c); as run_trial. */
int sim_run_traffic(struct bm_backend *be, const struct bm_trial_spec *spec,
		    struct bm_trial_result *res, struct bm_error *err);

#endif /* SIM_INT_H */

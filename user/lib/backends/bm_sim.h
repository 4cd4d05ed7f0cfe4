/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The simulated device under test: a trial backend (bm_trial.h) that needs
 * no hardware and no time.  Unit tests and `bmctl --dry-run --sim '{...}'`
 * use it to check every procedure against a DUT whose truth is known.
 *
 * Model (per direction; a bidirectional trial runs two identical DUT paths,
 * like DUT-TBF on both d1 and d2 in the R2544-BIDIR acceptance):
 *
 *   generator --> [gradual loss stage] --> FIFO of Q frames --> token bucket
 *
 * The FIFO and the token bucket are MODEL-TBF of SPEC 5.3 (tbf + pfifo) in
 * fluid form, with frames accounted like Linux tbf: A = (F - 4) + overhead
 * bytes (overhead 24 makes the service a real line of that bit rate).
 * A burst of n frames at spacing tau into an idle DUT is loss-free iff
 * n <= Q + floor((b + rho*(n-1)*tau)/A), the SPEC closed form; a CBR trial
 * of d seconds above the capacity C loses about (r - C)*d - Q - b/A frames
 * (MODEL-RL), so short trials pass above capacity (R2544-THRPT step 5).
 *
 * Time is virtual: a trial adds duration + trial_overhead_s to
 * be->elapsed_s and never sleeps.  Noise is drawn from a seeded PRNG, so a
 * run is exactly repeatable.
 *
 * N ports (spec.traffic set): a frame-level discrete-event model instead
 * (sim_traffic.c has the details).  Each tester port
 * serialises its streams' frames at its line rate; in the DUT every egress
 * port is a FIFO line of egress_bps (default: the port's line rate, L1
 * accounting, F + 20 bytes a frame) behind a tail-drop queue of
 * queue_frames waiting frames (default buffer_frames) and optionally
 * queue_bytes; frames that do not fit may borrow from one pool of
 * shared_buffer_bytes for all egresses (RFC 8239 §3).  holb_fifo_frames
 * gives ingress port holb_port (-1: every port) one FIFO whose head waits
 * for its egress (DUT-HOLB-EMU), so that a congested egress blocks frames
 * to idle ones (R8239-HOLB).  Latency is first bit out of the tester to
 * last bit out of the DUT: base_latency_ns + queueing + service.
 *
 * Traffic management (RFC 7640; sim_tm.c): per egress port, in Linux's
 * order, optional policers (tc clsact egress, DUT-POL: one
 * MODEL-TB bucket, exceed = drop; DUT-POL2 with eir_bps: buckets C then
 * E, yellow re-marked to yellow_dscp, red dropped; colour-aware with
 * color_aware; one per outer VLAN id and a catch-all for the rest,
 * TM-POL-CAP-1), then an optional tbf
 * shaper (the head leaves when the line is free and the bucket holds
 * A = F - 4 + overhead; DUT-TBF/TBFB), then either the FIFO above (its
 * byte limit then counts skb->len = F - 4, bfifo) or a prio/ets scheduler
 * of up to 16 bands classified by DSCP (strict bands in order, the rest
 * by deficit round robin; DUT-SP, DUT-ETS), all on the egress line; a
 * strict band may have its own token bucket (an HTB class with rate =
 * ceil under the tbf as root: a band without tokens is passed over for
 * the next band in priority order; TM-SHP-CAP-2).  A
 * receiver counts every frame by size, DSCP (as re-marked) and VLAN PCP,
 * and logs the first log_frames frames of a stream (their tx times, and
 * seq, times, size, DSCP, PCP as received): what MODEL-TB and MODEL-TBF
 * (bm_tm_model.h) are fed with.  TM does not combine with the HOLB FIFO.
 *
 * Of the pair parameters, line_rate_bps, capacity_*, overhead_bytes,
 * bucket_bytes, curve, knee_fps, gradual_slope and capacity_noise do not
 * apply to N-port trials; random_loss, latency_jitter_ns, max_frame_size,
 * the outages, generator_max_fps (per tester port) and trial_overhead_s
 * do.
 */
#ifndef BM_SIM_H
#define BM_SIM_H

#include <stdbool.h>
#include <stdint.h>

#include <json-c/json.h>

#include "bm_traffic.h"
#include "bm_trial.h"

/* Shape of the loss curve above the knee. */
enum bm_sim_curve {
	BM_SIM_CLIFF = 0,	/* no loss below capacity; loss = excess above */
	BM_SIM_GRADUAL,		/* extra loss ratio rising from knee_fps */
};

/* What a scheduled outage is timed against. */
enum bm_sim_outage_ref {
	BM_SIM_OUTAGE_START = 0,	/* outage_at_s after each trial start */
	BM_SIM_OUTAGE_STEP,		/* outage_at_s after the rate step of
					 * BM_PAT_STEP trials only (DUT-OUTAGE
					 * of the R2544-RECOV acceptance) */
};

/* queue_frames of struct bm_sim_port: the egress takes buffer_frames. */
#define BM_SIM_QUEUE_DEFAULT	UINT64_MAX
#define BM_SIM_MAX_QUEUE_FRAMES	1000000000000ULL	/* 1e12 */
#define BM_SIM_MAX_QUEUE_BYTES	1000000000000000ULL	/* 1e15 */
#define BM_SIM_MAX_HOLB_FRAMES	1000000

/* Traffic management on an egress (RFC 7640, SPEC 5.2 DUT-POL .. ETS). */
#define BM_SIM_MAX_BANDS	16
#define BM_SIM_TM_MIN_BUCKET	64	/* bytes: no frame is smaller */
#define BM_SIM_BAND_DEFAULT	0xff	/* band_of[]: not listed, last band */
#define BM_SIM_YELLOW_DSCP	10	/* AF11, DUT-POL2's re-mark */
#define BM_SIM_BAND_QUEUE	1000	/* pfifo of txqueuelen frames */
#define BM_SIM_ETS_QUANTUM	1514	/* [PROPOSED] Linux's MTU 1500 + 14 */

/* A tc clsact egress policer (DUT-POL, DUT-POL2); cir_bps 0: none. */
struct bm_sim_policer {
	double cir_bps, cbs_bytes;	/* bucket C */
	double eir_bps, ebs_bytes;	/* bucket E; eir_bps 0: one rate, two
					 * colours, exceed = drop */
	int overhead;			/* A = F - 4 + overhead (4: l2) */
	int yellow_dscp;		/* what a yellow frame is re-marked to */
	bool color_aware;		/* RFC 4115 colour-aware (eir_bps > 0):
					 * a frame that arrives with
					 * yellow_dscp may only take bucket E */
};

/* VLAN policers (TM-POL-CAP-1: one per customer, `tc filter ... flower
 * vlan_id V action police ...`): at most this many on one egress, and
 * this many in the whole DUT [PROPOSED: bounds of the simulator only]. */
#define BM_SIM_MAX_POLICERS	64
#define BM_SIM_MAX_VLAN_POLICERS	1024
#define BM_SIM_MAX_PERMIT	64	/* RFC 2544 §11.4: 25 filters at most */

/* A policer on egress port that takes the frames whose outer VLAN id is
 * vlan; a frame no VLAN policer takes meets the port's own policer (the
 * catch-all, TM §6.1.2.1's policer for "other traffic"), if any. */
struct bm_sim_vlan_policer {
	uint16_t port;
	uint16_t vlan;			/* 1..4094 */
	struct bm_sim_policer pol;
};

/* A tbf at the egress root (DUT-TBF, DUT-TBFB); rate_bps 0: none. */
struct bm_sim_shaper {
	double rate_bps, bucket_bytes;
	int overhead;			/* A = F - 4 + overhead */
};

enum bm_sim_sched_kind {
	BM_SIM_SCHED_NONE = 0,		/* one FIFO */
	BM_SIM_SCHED_PRIO,		/* every band strict (DUT-SP) */
	BM_SIM_SCHED_ETS,		/* strict bands, then DRR (DUT-ETS) */
};

/* One band: a tail-drop queue (pfifo / bfifo of skb->len = F - 4),
 * optionally shaped (an HTB class with rate = ceil; strict bands only). */
struct bm_sim_band {
	bool strict;
	uint32_t quantum;		/* DRR bytes of a non-strict ets band */
	uint32_t queue_frames;		/* the committed head not counted */
	uint64_t queue_bytes;		/* 0: no byte limit */
	double rate_bps;		/* the band's shaper; 0: none */
	double bucket_bytes;		/* its bucket (>= 64 with a rate) */
	int overhead;			/* A = F - 4 + overhead */
};

/* A prio or ets qdisc below the shaper (or alone on the line). */
struct bm_sim_sched {
	enum bm_sim_sched_kind kind;
	unsigned int n_bands;
	uint8_t band_of[64];		/* DSCP -> band, BM_SIM_BAND_DEFAULT */
	struct bm_sim_band bands[BM_SIM_MAX_BANDS];
};

/* The DUT side of one port of an N-port trial (index = bm_traffic port). */
struct bm_sim_port {
	double egress_bps;		/* egress line rate; 0 = the port's */
	uint64_t queue_frames;		/* frames waiting for the egress,
					 * the one on the line not counted;
					 * BM_SIM_QUEUE_DEFAULT = buffer_frames */
	uint64_t queue_bytes;		/* and their bytes (F, with FCS; with
					 * a shaper skb->len = F - 4, bfifo);
					 * 0 = no byte limit */
	struct bm_sim_policer policer;	/* the catch-all: frames no VLAN
					 * policer of the port takes */
	struct bm_sim_shaper shaper;
	struct bm_sim_sched sched;
};

/* When the head of a holb ingress FIFO may leave it for its egress. */
enum bm_sim_holb_mode {
	BM_SIM_HOLB_IDLE = 0,	/* when the egress is idle: it waits for its
				 * egress's tokens like DUT-HOLB-EMU, behind
				 * everything that reaches the egress directly */
	BM_SIM_HOLB_ROOM,	/* when the egress queue has room, after the
				 * frames that arrive at that same instant */
};

struct bm_sim_params {
	double line_rate_bps;		/* nominal R_line, bit/s */
	/* Service rate: capacity_fps frames/s for every size when > 0, else
	 * capacity_bps bit/s of accounted bytes (tbf "rate"), else the DUT
	 * forwards everything (DUT-BR). */
	double capacity_fps;
	double capacity_bps;
	int overhead_bytes;		/* tbf "overhead": A = F - 4 + this */
	double bucket_bytes;		/* tbf "burst" b (at least one frame) */
	uint64_t buffer_frames;		/* FIFO Q ahead of the service */
	double base_latency_ns;		/* FIFO latency with an empty queue */
	double latency_jitter_ns;	/* per-trial uniform offset +-jitter */
	enum bm_sim_curve curve;
	double knee_fps;		/* gradual: loss starts above (0 = C) */
	double gradual_slope;		/* gradual: ratio = slope*(r-knee)/r */
	double random_loss;		/* Bernoulli loss ratio per frame */
	double capacity_noise;		/* per-trial relative noise of C, +- */
	uint64_t seed;			/* PRNG seed */
	double reset_outage_s;		/* outage caused by bm_sim_reset_hook */
	double outage_s;		/* scheduled outage length (0 = none) */
	double outage_at_s;		/* its start, see outage_ref */
	enum bm_sim_outage_ref outage_ref;
	unsigned int outage_trials;	/* affect only the first n matching
					 * trials (0 = all) */
	/* A link flap: in the sim's trial number link_down_trial (1 = its
	 * first; 0 = never) the rx port (port 1) loses its link once. */
	unsigned int link_down_trial;
	/* A busy tester host.  Every trial above this rate (0 = none) that
	 * the DUT carried loses 3 frames in the generator's catch-up burst
	 * after a 10 ms stall, attempt after attempt. */
	double host_stall_above_fps;
	/* A pool host's clock: this many ns off the pool's grandmaster by
	 * its linuxptp before and after each part (a host that is the
	 * grandmaster, "", is never off it). */
	double ptp_offset_ns;
	/* ... and during each part this many ns further off at its
	 * farthest (an excursion the readings before and after miss). */
	double ptp_wander_ns;
	/* ... only in the sim's trial number ptp_wander_trial (1 = its
	 * first; 0 = in every trial). */
	unsigned int ptp_wander_trial;
	/* A pool host whose phc2sys's log is read (bm_phc2sys.h): its
	 * system clock phc2sys_offset_ns off the clock ptp4l keeps in
	 * every report, phc2sys_reports of them a part (0: none in its
	 * window, the log read in vain). */
	bool phc2sys_log;
	double phc2sys_offset_ns;
	unsigned int phc2sys_reports;
	/* A pool host's clock this many ns off true time (ptp_offset_ns is
	 * what linuxptp says of it; this is what it is): the latency of a
	 * frame another host sent, as this host receives it, is that much
	 * off, below zero when behind by more than the path. */
	double clock_error_ns;
	/* A pool host whose kernel's TAI-UTC offset is this many seconds
	 * off the real one's (bm_tai_utc_s): its part refuses to start. */
	double tai_utc_error_s;
	/* Ports that stamp every frame in hardware (> 0), whose software
	 * stamps come this many ns later on the receive side: N-port trials
	 * then report hw latency = the model's latency and software latency
	 * = it + the delay. */
	double sw_stamp_delay_ns;
	double generator_max_fps;	/* tester limit per direction (0 = none) */
	double trial_overhead_s;	/* virtual time added per trial */
	uint32_t max_frame_size;	/* larger frames are dropped (MTU); 0 =
					 * no limit (R2544-SIZES §9.4) */
	/* N-port trials only (spec.traffic): */
	struct bm_sim_port ports[BM_TRAFFIC_MAX_PORTS];
	/* the VLAN policers of every port, in no order (a pool, so that a
	 * port without them costs nothing) */
	struct bm_sim_vlan_policer vlan_policers[BM_SIM_MAX_VLAN_POLICERS];
	unsigned int n_vlan_policers;
	uint64_t shared_buffer_bytes;	/* pool for all egresses; 0 = none */
	uint64_t holb_fifo_frames;	/* ingress FIFO depth; 0 = no FIFO */
	int holb_port;			/* the FIFO's port; -1 = every port */
	enum bm_sim_holb_mode holb_mode;
	/* A DUT with RFC 2544 §11.4 filters: it forwards an IPv4 frame only
	 * when its (source, destination) is one of these pairs; n_permit 0
	 * = no filters, everything forwarded. */
	uint8_t permit[BM_SIM_MAX_PERMIT][2][4];
	unsigned int n_permit;
	/* An SNMP agent at this address answers RFC 2544 §11.2's queries
	 * (every one, verified); none when !have_mgmt_agent. */
	uint8_t mgmt_agent[4];
	bool have_mgmt_agent;
	/* A router DUT that knows no network beyond its ports' own /24s
	 * but those RIP v1 updates give it (RFC 2544 §13, R2544-ROUTE):
	 * it forwards a stream only when each of its destination networks
	 * is its rx port's own or has a route via that port, learnt from
	 * an update (metric + 1 < 16) within the last 180 s of the
	 * virtual clock (RFC 1058's timeout); an update of metric 16
	 * removes the route.  The table is the one at the trial's start:
	 * updates sent during a trial count from the next.  A pair trial's
	 * tagged frame sent to another network (RFC 2544 §26.2 new-net) is
	 * lost without a route to it via port 1. */
	bool rip_routes;
};

/* Fill *p with the defaults: 1 Gbit/s line, a lossless DUT, 10 us. */
void bm_sim_params_default(struct bm_sim_params *p);

/* Check p; 0, or -EINVAL with a one-line reason naming the field. */
int bm_sim_params_check(const struct bm_sim_params *p, struct bm_error *err);

/*
 * Parse a JSON object (keys as the struct fields, enums as strings:
 * "curve": "cliff"|"gradual", "outage_ref": "start"|"step", "holb_mode":
 * "idle"|"room"; "ports": [{"port": i, "egress_bps": x, "queue_frames": n,
 * "queue_bytes": n, "policer": {...}, "policers": [{"vlan": v, ...}, ...],
 * "shaper": {...}, "scheduler": {...}}, ...] sets the overrides of the
 * ports it names; a TM object replaces that stage whole, "policers" every
 * policer of the port, see Documentation/trials.md) on top of the
 * values already in *p.  Unknown keys, wrong types and out-of-range values
 * are rejected with -EINVAL and a one-line reason naming the key.
 */
int bm_sim_params_from_json(json_object *obj, struct bm_sim_params *p,
			    struct bm_error *err);

/* Create a simulated backend from p (copied); NULL with err set. */
struct bm_backend *bm_sim_new(const struct bm_sim_params *p,
			      struct bm_error *err);

/* Create a simulated backend from a JSON object (NULL = defaults). */
struct bm_backend *bm_sim_new_json(json_object *obj, struct bm_error *err);

/* Release a backend created by bm_sim_new (same as be->ops->destroy). */
void bm_sim_free(struct bm_backend *be);

/* True when be is a simulated device. */
bool bm_backend_is_sim(const struct bm_backend *be);

/* The simulated device's parameters (be must be a sim). */
const struct bm_sim_params *bm_sim_params_of(const struct bm_backend *be);

/*
 * DUT reset hook for a simulated device: ctx is the bm_backend.  Called by
 * the backend itself through spec.event_fn during a trial, it starts an
 * outage of reset_outage_s at that instant (R2544-RESET).  Returns 0, or
 * -EINVAL when called outside a trial.
 */
int bm_sim_reset_hook(void *ctx);

/* Service rate C in frames/s for frame size F, without noise. */
double bm_sim_capacity_fps(const struct bm_sim_params *p, uint32_t frame_size);

/* Accounted bytes per frame A(F) = F - 4 + overhead (at least 1). */
double bm_sim_frame_bytes(const struct bm_sim_params *p, uint32_t frame_size);

#endif /* BM_SIM_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RFC 8239 (data-center benchmarking methodology) procedures over N ports,
 * with the measurement terms of RFC 8238 (SPEC §6, §8): microburst
 * (R8239-MB), buffering (-BUF-2, -BUF-4), head-of-line blocking (-HOLB)
 * and line rate (-LR-*).  Every procedure repeats itself `repeat` times and
 * reports the repeatability block (REQ-8239-1, REQ-STAT-5).
 * Documentation/procedures-rfc8239.md has the interpretations taken.
 */
#ifndef RFC8239_H
#define RFC8239_H

#include <stdbool.h>
#include <stdint.h>

#include <json-c/json.h>

#include "bm_json.h"
#include "bm_trial.h"
#include "bm_proc_info.h"

/* What every RFC 8239 procedure has: its repetitions (REQ-8239-1) and the
 * trial phases of PLAT-TRIAL. */
struct r8239_common {
	unsigned int repeat;		/* REQ-8239-1, default 5 [PROPOSED] */
	double drain_s;			/* wait after each trial, 2 s */
	bool learning;			/* learning frames per iteration */
	double learning_pause_s;	/* < 0: the backend's default */
	unsigned int dscp;		/* of every test frame, reported with
					 * every result ([8238 §6.1]) */
	int port_order;			/* enum r8239_port_order */
	uint64_t seed;			/* random order; 0: from the clock */
};

/* The order of the job's ports a procedure uses (RFC 8239 §3.3:
 * "varying the ports randomly but documented is RECOMMENDED"). */
enum r8239_port_order {
	R8239_ORDER_GIVEN = 0,
	R8239_ORDER_RANDOM,
};

enum r8239_growth {
	R8239_GROWTH_DOUBLING = 0,	/* 1, 2, 4, ... then bisection (AMB-36) */
	R8239_GROWTH_LINEAR,		/* 1, 2, 3, ... (the RFC's literal
					 * "increase until non-zero loss") */
};

/* R8239-MB parameters; defaults in r8239_mb_defaults(). */
struct r8239_mb_params {
	uint32_t frame_size;		/* 64 [PROPOSED] */
	double intensity_pct;		/* 100: the RFC's MUST */
	unsigned int iteration;		/* j of N-j -> j; 0 = all, 1..N-2 */
	int growth;			/* enum r8239_growth */
	uint64_t burst_max;		/* frames per ingress port */
	double start_s;			/* common start of the bursts */
	double offset_s;		/* the last ingress port starts this
					 * much later [EXTENSION]: R8238-INCAST
					 * acceptance's deliberate offset */
	unsigned int retries;		/* re-sends of a burst the generator
					 * could not send whole */
	struct r8239_common c;
};

/* The parameter table of rfc8239.microburst (bm_json_parse_params). */
extern const struct bm_param r8239_mb_keys[];

/* Fill *p with the defaults of R8239-MB. */
void r8239_mb_defaults(struct r8239_mb_params *p);

/* Cross-key checks after parsing (the per-key ranges are in the table):
 * 0 or -EINVAL with one line naming the key. */
int r8239_mb_check(const struct r8239_mb_params *p, struct bm_error *err);

/* The most trials R8239-MB with p may run on n_ports ports: every
 * iteration's searches at full length, every burst sent again `retries`
 * times. */
double r8239_mb_max_trials(const struct r8239_mb_params *p,
			   unsigned int n_ports);

/*
 * Run R8239-MB on the backend's ports (be->n_ports >= 3, be->port_names,
 * each at be->line_rate_bps): for every iteration j, N-j ingress ports
 * burst together to j egress ports, the largest loss-free burst found by
 * growth then bisection, `repeat` times.  0 or -ECANCELED with *result the
 * result document (partial when cancelled); -errno with err set and
 * *result NULL or partial.
 */
int r8239_microburst_run(struct bm_backend *be,
			 const struct r8239_mb_params *p,
			 bm_progress_fn progress, void *ctx,
			 json_object **result, struct bm_error *err);

/* The buffering tests of RFC 8239 §3.2 (R8239-BUF-*). */
enum r8239_buf_test {
	R8239_BUF_PORT = 0,		/* BUF-2 maximum port buffer size */
	R8239_BUF_DUT,			/* BUF-4 maximum DUT buffer size */
	R8239_BUF_EFFICIENCY,		/* BUF-1 highest buffer efficiency */
	R8239_BUF_PAIRS,		/* BUF-3 port-pair buffer sizes */
};

/* BUF-1's sweep of frame sizes. */
enum r8239_sweep {
	R8239_SWEEP_COARSE_FINE = 0,	/* step 64, then 1 around the best
					 * (AMB-28) */
	R8239_SWEEP_EXHAUSTIVE,		/* every size from b_min to b_max */
};

/* How the inflection is found (REQ-BUF-1). */
enum r8239_buf_method {
	R8239_BUF_LOG = 0,		/* per-frame logs: the first loss of a
					 * doubling of the traffic's length */
	R8239_BUF_SEARCH,		/* counters only: the largest
					 * loss-free length, doubling then
					 * bisection; Buf_q assumes the egress
					 * served at its line rate */
};

/* Key masks of r8239_buf_keys: keys of one test only. */
#define R8239_BUF_MASK(t)	(1u << (t))

/* R8239-BUF-2/-4 parameters; defaults in r8239_buf_defaults(). */
struct r8239_buf_params {
	int test;			/* enum r8239_buf_test */
	uint32_t frame_size;		/* B* of BUF-1; 1518 [PROPOSED] */
	int sweep;			/* BUF-1: enum r8239_sweep */
	uint32_t b_min, b_max;		/* BUF-1: the sizes swept */
	double os_pct;			/* oversubscription, 1 % */
	double line_pct;		/* "line rate": 99.98 % (AMB-27) */
	unsigned int iteration;		/* 1-based; 0 = all */
	bool wrap;			/* BUF-2: egress N and 1 too */
	double max_trial_s;		/* REQ-BUF-1: 60 s */
	double start_s;
	unsigned int retries;		/* re-sends of a trial the generator
					 * could not send whole */
	unsigned int confirm;		/* re-runs of a lossy trial */
	int method;			/* enum r8239_buf_method */
	struct r8239_common c;
};

/* The parameter table of the buffering procedures. */
extern const struct bm_param r8239_buf_keys[];

/* Fill *p with the defaults of test t. */
void r8239_buf_defaults(struct r8239_buf_params *p, enum r8239_buf_test t);

/* Cross-key checks after parsing: 0 or -EINVAL naming the key. */
int r8239_buf_check(const struct r8239_buf_params *p, struct bm_error *err);

/* The most trials p may run on n_ports ports at line_rate_bps: every
 * search to the longest trial (max_trial_s at the line), every point
 * confirmed and retried. */
double r8239_buf_max_trials(const struct r8239_buf_params *p,
			    unsigned int n_ports, double line_rate_bps);

/*
 * Run R8239-BUF-1, -2, -3 or -4 (p->test) on the backend's ports (>= 3;
 * BUF-3: even, >= 6; in the order given), `repeat` times per measured
 * egress and size.  Result and errors as r8239_microburst_run().
 */
int r8239_buffer_run(struct bm_backend *be, const struct r8239_buf_params *p,
		     bm_progress_fn progress, void *ctx, json_object **result,
		     struct bm_error *err);

/* R8239-HOLB-1 / -HOLB-2 (2a) parameters; r8239_holb_defaults(). */
struct r8239_holb_params {
	uint32_t frame_size;		/* 512 [PROPOSED] */
	unsigned int groups;		/* 2: HOLB-1; 0: floor(N/4), HOLB-2 */
	unsigned int shift;		/* s + 1 of the one iteration; 0 = all */
	bool split25;			/* HOLB-2 variant 2b (AMB-32) */
	double line_pct;		/* 99.98 (AMB-27) */
	double trial_duration_s;	/* 60 [PROPOSED] */
	struct r8239_common c;
};

/* The parameter table of rfc8239.holb. */
extern const struct bm_param r8239_holb_keys[];

/* Fill *p with the defaults of R8239-HOLB-1. */
void r8239_holb_defaults(struct r8239_holb_params *p);

/* The most trials R8239-HOLB with p runs on n_ports ports. */
double r8239_holb_max_trials(const struct r8239_holb_params *p,
			     unsigned int n_ports);

/*
 * Run R8239-HOLB on the backend's ports (>= 8, in the order given): for
 * every shift, groups of four (A, B, E1, E2) with A -> E1, A -> E2 at
 * half the line and B -> E2 at the line, `repeat` trials each; HOLB when
 * A -> E1 loses.  Result and errors as r8239_microburst_run().
 */
int r8239_holb_run(struct bm_backend *be, const struct r8239_holb_params *p,
		   bm_progress_fn progress, void *ctx, json_object **result,
		   struct bm_error *err);

/* The line-rate tests of RFC 8239 §2.2 (R8239-LR-*). */
enum r8239_lr_topo {
	R8239_LR_PAIR = 0,		/* LR-PP: 1<->2, 3<->4, ... */
	R8239_LR_MESH,			/* LR-MESH: N(N-1) streams */
	R8239_LR_SNAKE,			/* LR-SNAKE: 2 tester ports */
};

#define R8239_LR_MASK(t)	(1u << (t))
#define R8239_LR_MAX_SIZES	160	/* 64 .. 9216 in steps of 64: 144 */

/* R8239-LR-* parameters; defaults in r8239_lr_defaults(). */
struct r8239_lr_params {
	int topo;			/* enum r8239_lr_topo */
	uint32_t frame_sizes[R8239_LR_MAX_SIZES];
	size_t n_sizes;
	bool step64;			/* 64, 128, ..., 9216 */
	double load_pct;		/* <= 99.98 (MUST) */
	double trial_duration_s;	/* 60 [PROPOSED] */
	bool bidir;			/* pair: AMB-33; snake: optional */
	unsigned int dut_ports;		/* snake: the DUT's N */
	unsigned int vlan_base;		/* snake: VLAN of DUT ports {1, 2} */
	int latency_events;		/* enum bm_lat_event, FL (R8238-LAT) */
	bool comparison;		/* a multi-DUT comparison: LF refused */
	double cal_constant_ns;		/* C of R8238-CAL, subtracted; 0 none */
	double cal_constant_hw_ns;	/* its hardware-stamp C */
	struct r8239_common c;
};

/* The parameter table of the line-rate procedures. */
extern const struct bm_param r8239_lr_keys[];
extern const struct bm_jwriter r8239_lr_writers[];

/* Fill *p with the defaults of topology t. */
void r8239_lr_defaults(struct r8239_lr_params *p, enum r8239_lr_topo t);

/* Cross-key checks, and step64 expanded into frame_sizes: 0 or -EINVAL
 * with one line naming the key (a load above 99.98 % cites the MUST). */
int r8239_lr_check(struct r8239_lr_params *p, struct bm_error *err);

/* The trials R8239-LR-* with p (checked: step64 expanded) runs. */
double r8239_lr_max_trials(const struct r8239_lr_params *p);

/*
 * Run R8239-LR-PP, -LR-MESH or -LR-SNAKE (p->topo) on the backend's ports
 * in the order given: one trial per size and repetition at load_pct on
 * every port.  Result and errors as r8239_microburst_run().
 */
int r8239_line_rate_run(struct bm_backend *be, const struct r8239_lr_params *p,
			bm_progress_fn progress, void *ctx,
			json_object **result, struct bm_error *err);

/* R8238-CAL parameters; defaults in r8238_cal_defaults(). */
#define R8238_CAL_MAX_SIZES	16
struct r8238_cal_params {
	uint32_t frame_sizes[R8238_CAL_MAX_SIZES];
	size_t n_sizes;
	uint64_t frames;		/* per size, 10^5 */
	double load_pct;		/* 10 */
	char cable_type[64];		/* [8238 §4.3] MUST */
	double cable_length_m;		/* [8238 §4.3] MUST */
	char cable_vendor[64];
	char transceivers[128];		/* [8238 §4.1] MUST */
	double drain_s;
};

/* The parameter table of rfc8238.calibrate. */
extern const struct bm_param r8238_cal_keys[];
extern const struct bm_jwriter r8238_cal_writers[];

/* Fill *p with the defaults of R8238-CAL. */
void r8238_cal_defaults(struct r8238_cal_params *p);

/* The trials R8238-CAL with p runs: one per size. */
double r8238_cal_max_trials(const struct r8238_cal_params *p);

/*
 * Run R8238-CAL on the backend's two ports, cabled back to back: per size
 * C(F) = the mean FF of `frames` frames and its accuracy.  Result and
 * errors as r8239_microburst_run().
 */
int r8238_calibrate_run(struct bm_backend *be,
			const struct r8238_cal_params *p,
			bm_progress_fn progress, void *ctx,
			json_object **result, struct bm_error *err);

/* R8239-INC's two variations (RFC 8239 §6.1, §6.2). */
enum r8239_inc_var {
	R8239_INC_STATEFUL = 0,		/* INC-1: k TCP ports + 1 UDP port */
	R8239_INC_STATELESS,		/* INC-2: 1 TCP port + k UDP ports */
};

/* R8239-INC and R8238-GOODPUT parameters; defaults in
 * r8239_inc_defaults(). */
struct r8239_inc_params {
	bool goodput;			/* rfc8238.goodput: TCP only, every
					 * port before the last a client */
	int variation;			/* enum r8239_inc_var */
	unsigned int iteration;		/* k; 0 = 1 .. N-2 */
	uint32_t frame_size;		/* UDP, 64 [PROPOSED] */
	double intensity_pct;		/* 100: the RFC's MUST */
	uint32_t burst_frames;		/* n_b, 100 [PROPOSED] */
	double burst_period_s;		/* 0.1 [PROPOSED] */
	double offset_s;		/* [EXTENSION] */
	unsigned int connections;	/* goodput: per ingress port */
	double warmup_s, duration_s;	/* 5 and 60 [PROPOSED] */
	char cc[16];			/* "" = the system's (BM_TCP_CC_NAME) */
	uint64_t sndbuf, rcvbuf;	/* 4 MB (SPEC R8239-INC) */
	uint64_t window_clamp;
	uint32_t mtu;			/* of the F-9 ceiling, 1500 */
	int latency_events;		/* enum bm_lat_event, FL (R8238-LAT) */
	double cal_constant_ns;		/* C of R8238-CAL, subtracted; 0 none */
	struct r8239_common c;
};

/* The parameter table of both (mask 1: incast's keys, 2: goodput's). */
extern const struct bm_param r8239_inc_keys[];
#define R8239_INC_MASK(goodput)	((goodput) ? 2u : 1u)
extern const struct bm_jwriter r8239_inc_writers[];

/* Fill *p with the defaults of R8239-INC (goodput false). */
void r8239_inc_defaults(struct r8239_inc_params *p);

/* Cross-key checks: 0 or -EINVAL with one line naming the key. */
int r8239_inc_check(const struct r8239_inc_params *p, struct bm_error *err);

/* The most trials p may run. */
double r8239_inc_max_trials(const struct r8239_inc_params *p);

/*
 * Run R8239-INC (or R8238-GOODPUT when p->goodput) on be's ports, the last
 * the egress, with be's TCP engine (refused with -EOPNOTSUPP without
 * one): per iteration and repetition the connections' goodput beside the
 * F-9 ceilings, and the UDP bursts' loss, latency and sync%.  0 or
 * -ECANCELED with *result the result document; -errno with err set.
 */
int r8239_inc_run(struct bm_backend *be, const struct r8239_inc_params *p,
		  bm_progress_fn progress, void *ctx, json_object **result,
		  struct bm_error *err);

/* The RFC 8239 and 8238 procedures as the registry offers them
 * (rfc8239_procs.c), ending with a NULL name. */
extern const struct bm_procedure_info rfc8239_procedures[];

#endif /* RFC8239_H */

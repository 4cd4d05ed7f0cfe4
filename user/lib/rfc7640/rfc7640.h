/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RFC 7640 (draft-ietf-bmwg-traffic-management-06) stateless procedures
 * (SPEC §9): the burst hunt (TM-BURST-HUNT), the policer (TM-POL-1,
 * TM-POL-CAP-2), the queue and scheduler (TM-QS-1, TM-QS-CAP-1 .. -4) and
 * the shaper (TM-SHP-1, TM-SHP-CAP-1 .. -3), with the byte
 * accounting and byte-exact bursts of SPEC §2.2 and REQ-GEN-2.4 and the
 * stateless metrics of TM-MET-SL.  Every procedure runs Tr times and
 * reports the repeatability block over the runs (REQ-TM-3); none gives a
 * verdict (REQ-TM-1).  Documentation/procedures-rfc7640.md has the
 * interpretations taken.
 */
#ifndef RFC7640_H
#define RFC7640_H

#include <stdbool.h>
#include <stdint.h>

#include <json-c/json.h>

#include "bm_json.h"
#include "bm_trial.h"
#include "bm_proc_info.h"

/* --- accounting and bursts (SPEC §2.2, REQ-GEN-2.4) ---------------------- */

/* The bytes a frame of size F counts for (REQ-UNIT-1). */
enum tm_acct {
	TM_ACCT_L1 = 0,			/* F + 20: preamble, SFD, IFG */
	TM_ACCT_L2,			/* F (AMB-01: the default) */
	TM_ACCT_L2NOFCS,		/* F - 4: what Linux's skb->len is */
	TM_ACCT_L3,			/* F - 18: IP total length, untagged */
};

/* "l1", "l2", "l2nofcs", "l3", NULL-terminated (enum tm_acct order). */
extern const char *const tm_acct_names[];

/* How a byte count becomes frames (AMB-07). */
enum tm_burst_mode {
	TM_BURST_EXACT = 0,		/* full frames + a remainder frame */
	TM_BURST_WHOLE,			/* ceil(bytes / A(F)) full frames */
};

extern const char *const tm_burst_mode_names[];

/* Bytes a frame of F counts for in mode m minus F: +20, 0, -4, -18. */
int tm_acct_delta(enum tm_acct m);

/* Accounted bytes A(F) of one frame of size F in mode m. */
double tm_acct_bytes(uint32_t frame_size, enum tm_acct m);

/*
 * A burst of a number of bytes as frames: frames - 2 full frames of F,
 * then penult_size and last_size (both F when nothing was resized; with
 * one frame only last_size counts).  actual is its accounted bytes.
 */
struct tm_burst {
	uint64_t nominal;		/* the bytes asked for */
	uint32_t frame_size;		/* F of the full frames */
	uint64_t frames;
	uint32_t penult_size, last_size;
	uint64_t actual;		/* accounted bytes actually sent */
	bool resized;			/* REQ-GEN-2.4: a remainder under 64 B
					 * went into the last frames */
};

/*
 * The burst of bytes B at frame size F in accounting mode m (REQ-GEN-2.4):
 * exact: n = floor(B / A) full frames and one remainder frame of the
 * accounted remainder r; a remainder frame under 64 B is merged with the
 * last full frame and the two are split evenly (both >= 64 B, <= F), or,
 * where that pair would be under 128 B (F < 128), become one frame of
 * F + r; the total stays exact.  whole: ceil(B / A) full frames.
 * 0, or -EINVAL with one line in err when no frames of >= 64 B make B
 * (B under one 64 B frame) or B is 0.
 */
int tm_burst_plan(uint64_t bytes, uint32_t frame_size, enum tm_acct m,
		  enum tm_burst_mode mode, struct tm_burst *b,
		  struct bm_error *err);

/* Bytes of frame k (0-based) of burst b, F with FCS. */
uint32_t tm_burst_frame_size(const struct tm_burst *b, uint64_t k);

/* Time in s the burst takes at line_rate_bps, back to back (F + 20 each). */
double tm_burst_time_s(const struct tm_burst *b, double line_rate_bps);

/* --- what every procedure has -------------------------------------------- */

/* Ti formula of the policer (AMB-41). */
enum tm_ti_formula {
	TM_TI_AMB41 = 0,		/* max(CBS x 8 / CIR, EBS x 8 / EIR) */
	TM_TI_DRAFT,			/* CBS x 8 / CIR, as the draft writes */
};

struct tm_common {
	uint32_t frame_size;		/* 1518 [PROPOSED]: the draft names none */
	int accounting;			/* enum tm_acct; l2 (AMB-01) */
	int burst_mode;			/* enum tm_burst_mode; exact (AMB-07) */
	unsigned int tr;		/* Tr: runs (TM §6, 10) */
	double td_s;			/* Td: per section (AMB-42) */
	double ti_margin_pct;		/* REQ-TM-10: Ti x (1 + margin) */
	double drain_s;			/* the loss wait threshold (TM-MET-LP) */
	bool learning;			/* learning frames before the first trial */
	double learning_pause_s;	/* < 0: the backend's (2 s) */
	unsigned int dscp;		/* DSCP of the test frames, 0 */
	double cal_pd_ns;		/* REQ-TS-5: the tester's own PD, 0 none */
	double cal_pdv_ns;		/* the tester's own PDV (p99), 0 none */
	uint32_t log_frames;		/* first N frames of each stream per trial
					 * copied into the result, 0 none */
};

#define TM_MAX_TR	100

/* --- TM-BURST-HUNT -------------------------------------------------------- */

struct tm_hunt_params {
	uint64_t target;		/* the function's burst parameter */
	uint64_t min, step;		/* 1 KB each (TM §5.1.1, [PROPOSED]) */
	bool verify_policer;		/* after a pass, +step until a loss */
	uint64_t verify_max;		/* 0: target + 16 KB [PROPOSED] */
	double rate_bps;		/* refill (CIR) or drain (BB) rate; 0 =
					 * not known */
	double recover_wait_s;		/* < 0: max(2 s, 2 x B x 8 / rate) */
	struct tm_common c;
};

extern const struct bm_param tm_hunt_keys[];

/* Fill *p with the defaults of TM-BURST-HUNT. */
void tm_hunt_defaults(struct tm_hunt_params *p);

/* Cross-key checks after parsing: 0 or -EINVAL with one line naming the
 * key. */
int tm_hunt_check(const struct tm_hunt_params *p, struct bm_error *err);

/* The most trials a hunt with p may run: every step of every run. */
double tm_hunt_max_trials(const struct tm_hunt_params *p);

/*
 * Run TM-BURST-HUNT on the backend's two ports (port 0 sends, port 1
 * receives), Tr times.  0 or -ECANCELED with *result the result document
 * (partial when cancelled); -errno with err set and *result NULL or
 * partial.
 */
int tm_hunt_run(struct bm_backend *be, const struct tm_hunt_params *p,
		bm_progress_fn progress, void *ctx, json_object **result,
		struct bm_error *err);

/* --- TM-POL-1 ------------------------------------------------------------- */

/* The policer's mode (TM §6.1.1: colour-aware is an additional test). */
enum tm_pol_mode {
	TM_POL_BLIND = 0,		/* every frame sent green */
	TM_POL_AWARE,			/* RFC 4115: the EBS part pre-marked
					 * yellow */
};

/* "color-blind", "color-aware" (enum tm_pol_mode), NULL-terminated. */
extern const char *const tm_pol_mode_names[];

struct tm_pol_params {
	double cir_bps, eir_bps;	/* the DUT's, 100 Mbit/s and 0 */
	uint64_t cbs, ebs;		/* the DUT's, 64 KB and 0 */
	uint64_t excess;		/* 1000 B (TM §6.1.1) */
	int ti_formula;			/* enum tm_ti_formula */
	int mode;			/* enum tm_pol_mode, color-blind */
	unsigned int yellow_dscp;	/* colour-aware: 10 (AF11) */
	struct tm_common c;
};

extern const struct bm_param tm_pol_keys[];

/* Fill *p with the defaults of TM-POL-1. */
void tm_pol_defaults(struct tm_pol_params *p);

/* Cross-key checks: 0 or -EINVAL naming the key. */
int tm_pol_check(const struct tm_pol_params *p, struct bm_error *err);

/* Ti in s of p: AMB-41 or the draft's formula, times 1 + margin. */
double tm_pol_ti_s(const struct tm_pol_params *p);

/* The trials TM-POL-1 with p runs: two steps a run. */
double tm_pol_max_trials(const struct tm_pol_params *p);

/*
 * Run TM-POL-1 on the backend's two ports: per run a compliant step
 * (bursts of CBS + EBS every Ti for Td) and an excess step (CBS + EBS +
 * excess).  Result and errors as tm_hunt_run().
 */
int tm_pol_run(struct bm_backend *be, const struct tm_pol_params *p,
	       bm_progress_fn progress, void *ctx, json_object **result,
	       struct bm_error *err);

/* --- TM-POL-CAP-2 -------------------------------------------------------- */

#define TM_MAX_PAIRS	(256 / 2)	/* port pairs of the most ports */

/* Per pair values: one for every pair (n_* = 1) or one per pair. */
struct tm_polp_params {
	double cir_bps[TM_MAX_PAIRS], eir_bps[TM_MAX_PAIRS];
	double cbs[TM_MAX_PAIRS], ebs[TM_MAX_PAIRS];	/* bytes */
	size_t n_cir_bps, n_eir_bps, n_cbs, n_ebs;
	uint64_t excess;		/* 1000 B */
	int ti_formula;			/* enum tm_ti_formula */
	struct tm_common c;
};

extern const struct bm_param tm_polp_keys[];
extern const struct bm_jwriter tm_polp_writers[];

/* Fill *p with the defaults of TM-POL-CAP-2. */
void tm_polp_defaults(struct tm_polp_params *p);

/* Cross-key checks: 0 or -EINVAL naming the key. */
int tm_polp_check(const struct tm_polp_params *p, struct bm_error *err);

/* The trials TM-POL-CAP-2 with p runs: two steps a run. */
double tm_polp_max_trials(const struct tm_polp_params *p);

/*
 * Run TM-POL-CAP-2 on the backend's ports in pairs (1 -> 2, 3 -> 4, ...),
 * a policer at each pair's egress: TM-POL-1's steps for every pair at
 * once, results per egress port.  Result and errors as tm_hunt_run().
 */
int tm_polp_run(struct bm_backend *be, const struct tm_polp_params *p,
		bm_progress_fn progress, void *ctx, json_object **result,
		struct bm_error *err);

/* --- TM-POL-CAP-1, TM-POL-CAP-3 ------------------------------------------ */

#define TM_MAX_CUSTOMERS	64	/* a port's customer policers
					 * [PROPOSED: the sim's bound] */

/* One customer traffic stream and its policer (TM §6.1.2.1). */
struct tm_customer {
	uint16_t vlan;			/* outer VLAN id, 1..4094 */
	uint16_t tpid;			/* its TPID; 0: 0x8100 */
	uint16_t vlan2;			/* inner (QinQ) VLAN id; 0: none */
	double cir_bps, eir_bps;
	uint64_t cbs, ebs;
};

struct tm_polc_params {
	struct tm_customer cust[TM_MAX_CUSTOMERS];
	size_t n_cust;
	uint64_t excess;		/* 1000 B, recorded */
	int ti_formula;			/* enum tm_ti_formula */
	struct tm_common c;
};

extern const struct bm_param tm_polc_keys[];
extern const struct bm_jwriter tm_polc_writers[];

/* Fill *p with the defaults of TM-POL-CAP-1. */
void tm_polc_defaults(struct tm_polc_params *p);

/* Cross-key checks: 0 or -EINVAL naming the key. */
int tm_polc_check(const struct tm_polc_params *p, struct bm_error *err);

/* The trials TM-POL-CAP-1 with p runs: two steps a run. */
double tm_polc_max_trials(const struct tm_polc_params *p);

/*
 * Run TM-POL-CAP-1 (one port pair) or TM-POL-CAP-3 (every pair of the
 * job's ports, 1 -> 2, 3 -> 4, ...): every customer of p on every pair at
 * once, its bursts staggered (REQ-TM-8), TM-POL-1's steps per customer
 * stream.  Result and errors as tm_hunt_run().
 */
int tm_polc_run(struct bm_backend *be, const struct tm_polc_params *p,
		bm_progress_fn progress, void *ctx, json_object **result,
		struct bm_error *err);

/* --- TM-QS-1 -------------------------------------------------------------- */

/* The scheduling technique the DUT was configured with (reported). */
enum tm_sched {
	TM_SCHED_FIFO = 0,
	TM_SCHED_SP,
	TM_SCHED_WFQ,
	TM_SCHED_OTHER,
	TM_SCHED_SP_WFQ,		/* SP queues, then WFQ (TM-QS-CAP-2) */
};

struct tm_qs_params {
	uint64_t ql;			/* queue length, 32 KB */
	double bb_bps;			/* bottleneck bandwidth, 100 Mbit/s */
	int scheduler;			/* enum tm_sched */
	bool hunt;			/* also hunt the queue (TM-BURST-HUNT
					 * with target QL and verify) */
	bool classes;			/* the scheduling characterisation */
	double high_bps, low_bps;	/* 0: 60 % of BB each [PROPOSED] */
	unsigned int high_dscp;		/* 46 (EF) */
	unsigned int low_dscp;		/* 0 (BE) */
	struct tm_common c;
};

extern const struct bm_param tm_qs_keys[];

/* Fill *p with the defaults of TM-QS-1. */
void tm_qs_defaults(struct tm_qs_params *p);

/* Cross-key checks: 0 or -EINVAL naming the key. */
int tm_qs_check(const struct tm_qs_params *p, struct bm_error *err);

/* The most trials TM-QS-1 with p runs. */
double tm_qs_max_trials(const struct tm_qs_params *p);

/*
 * Run TM-QS-1 on the backend's 2 or 3 ports (the last is the egress):
 * bursts of QL every QL x 8 / BB from port 0, optionally the hunt, and
 * the characterisation: a high class from port 0 and a low class from
 * port 1 (3 ports) or port 0 (2 ports), together above BB.  Result and
 * errors as tm_hunt_run().
 */
int tm_qs_run(struct bm_backend *be, const struct tm_qs_params *p,
	      bm_progress_fn progress, void *ctx, json_object **result,
	      struct bm_error *err);

/* --- TM-QS-CAP-1 .. -4 --------------------------------------------------- */

#define TM_MAX_CLASSES	8	/* "typically 8 per port" (TM §6.2.2) */

/* Ports of the job by position, 1-based as the operator gives them; n 0:
 * unset (the procedure's default map). */
struct tm_port_list {
	unsigned int v[BM_BACKEND_MAX_PORTS];
	size_t n;
};

struct tm_qcap_params {
	uint64_t ql;			/* 32 KB [PROPOSED] */
	double bb_bps;			/* 100 Mbit/s [PROPOSED] */
	int scheduler;			/* enum tm_sched, sp */
	unsigned int dscps[TM_MAX_CLASSES];	/* one queue each */
	size_t n_classes;
	double rates_bps[TM_MAX_CLASSES];	/* per ingress and egress port */
	size_t n_rates;
	double weights[TM_MAX_CLASSES];	/* WFQ weight, 0: an SP queue;
					 * n_weights 0: not given */
	size_t n_weights;
	struct tm_port_list ingress, egress;	/* unset: all but the last
						 * -> the last */
	bool bursts;			/* TM-QS-1's bursts from every port */
	struct tm_common c;
	/* TM-QS-2's stateful traffic beside the classes (TM §6.2.2: "apply
	 * TM-QS-1 and TM-QS-2"): TCP applications from every ingress port
	 * to every egress port, each with sf_connections; sf_apps 0: none */
	unsigned int sf_apps;		/* 1 << enum bm_ttp: bulk, micro */
	unsigned int sf_connections;	/* per ingress, egress and app: 1 */
	unsigned int sf_dscp;		/* the segments' class: 0 [PROPOSED] */
	double sf_bulk_pct;		/* bulk's pacing, % of BB; 0: none */
	uint64_t sf_burst_bytes;	/* micro: 16 KB */
	double sf_burst_interval_s;	/* micro: 0.1 s */
	uint64_t sf_warmup_bytes;	/* micro: 0 = 10 x BDP */
	double nde_rtt_ms;		/* the NDE's RTT (BDP); NAN: not given */
	char sf_cc[16];
	uint64_t sf_sndbuf, sf_rcvbuf, sf_window_clamp;
	bool sf_force;			/* bmd's gate: run unverified */
};

extern const struct bm_param tm_qcap_keys[];
extern const struct bm_jwriter tm_qcap_writers[];

/* Fill *p with the defaults of TM-QS-CAP-1. */
void tm_qcap_defaults(struct tm_qcap_params *p);

/* Cross-key checks: 0 or -EINVAL naming the key. */
int tm_qcap_check(const struct tm_qcap_params *p, struct bm_error *err);

/* The trials TM-QS-CAP-1 with p runs. */
double tm_qcap_max_trials(const struct tm_qcap_params *p);

/* REQ-TM-2: the (ingress, egress) job port indexes of p's TCP paths on a
 * job of n_ports ports into pairs[0..max), their number; 0 without
 * stateful_apps (or with a map the run refuses). */
unsigned int tm_qcap_nde_pairs(const struct tm_qcap_params *p,
			       unsigned int n_ports, unsigned int (*pairs)[2],
			       unsigned int max);

/*
 * Run TM-QS-CAP-1 .. -4 on the backend's ports (>= 3): every ingress port
 * sends to every egress port (unset: all but the last to the last) the
 * bursts of TM-QS-1 shared out and one CBR stream per class; per egress,
 * queue and ingress stream the throughput and metrics, and the WFQ
 * queues' shares.  Result and errors as tm_hunt_run().
 */
int tm_qcap_run(struct bm_backend *be, const struct tm_qcap_params *p,
		bm_progress_fn progress, void *ctx, json_object **result,
		struct bm_error *err);

/* --- TM-SHP-1 ------------------------------------------------------------- */

struct tm_shp_params {
	uint64_t iq;			/* ingress queue (QL), 512,000 B */
	double sr_bps;			/* shaper rate, 50 Mbit/s */
	uint64_t bc, be;		/* 32,000 B each, reported */
	uint64_t burst;			/* 0: IQ; never above IQ */
	bool single;			/* one burst, then stop */
	struct tm_common c;
};

extern const struct bm_param tm_shp_keys[];

/* Fill *p with the defaults of TM-SHP-1. */
void tm_shp_defaults(struct tm_shp_params *p);

/* Cross-key checks: 0 or -EINVAL naming the key. */
int tm_shp_check(const struct tm_shp_params *p, struct bm_error *err);

/* The trials TM-SHP-1 with p runs: one a run. */
double tm_shp_max_trials(const struct tm_shp_params *p);

/*
 * Run TM-SHP-1 on the backend's two ports: bursts of IQ every IQ x 8 / SR
 * for Td (or one burst), LP, OOS, PDV, SR, SR_busy, SBB and SBI at the
 * egress.  Result and errors as tm_hunt_run().
 */
int tm_shp_run(struct bm_backend *be, const struct tm_shp_params *p,
	       bm_progress_fn progress, void *ctx, json_object **result,
	       struct bm_error *err);

/* --- TM-SHP-CAP-1 .. -3 --------------------------------------------------- */

/* The DUT's shapers as the operator gives them (reported, MUST rows
 * 44-46): per egress port one value for all or one per egress port; per
 * queue one per class, unset (n 0) when the queues are not shaped. */
struct tm_shcap_params {
	unsigned int dscps[TM_MAX_CLASSES];	/* one queue each, SP order */
	size_t n_classes;
	double rates_bps[TM_MAX_CLASSES];	/* per ingress and egress port */
	size_t n_rates;
	struct tm_port_list ingress, egress;
	double port_sr_bps[BM_BACKEND_MAX_PORTS], port_ql[BM_BACKEND_MAX_PORTS];
	double port_bc[BM_BACKEND_MAX_PORTS], port_be[BM_BACKEND_MAX_PORTS];
	size_t n_port_sr_bps, n_port_ql, n_port_bc, n_port_be;
	double queue_sr_bps[TM_MAX_CLASSES], queue_ql[TM_MAX_CLASSES];
	double queue_bc[TM_MAX_CLASSES], queue_be[TM_MAX_CLASSES];
	size_t n_queue_sr_bps, n_queue_ql, n_queue_bc, n_queue_be;
	struct tm_common c;
};

extern const struct bm_param tm_shcap_keys[];
extern const struct bm_jwriter tm_shcap_writers[];

/* Fill *p with the defaults of TM-SHP-CAP-1. */
void tm_shcap_defaults(struct tm_shcap_params *p);

/* Cross-key checks: 0 or -EINVAL naming the key. */
int tm_shcap_check(const struct tm_shcap_params *p, struct bm_error *err);

/* The trials TM-SHP-CAP-* with p runs: one a run. */
double tm_shcap_max_trials(const struct tm_shcap_params *p);

/*
 * Run TM-SHP-CAP-1 .. -3 on the backend's ports (>= 3): every ingress
 * port sends one CBR stream per class to every shaped egress port (unset:
 * all but the last to the last) for Td; per egress port, per queue and
 * per ingress stream SR, LP, OOS, PD, PDV, SBB and SBI.  Result and
 * errors as tm_hunt_run().
 */
int tm_shcap_run(struct bm_backend *be, const struct tm_shcap_params *p,
		 bm_progress_fn progress, void *ctx, json_object **result,
		 struct bm_error *err);

/* --- TM-QS-2, TM-SHP-2: queue and shaper with stateful traffic ---------- */

/* The DUT's scheduling technique, reported (TM-QS-2's DUT summary). */
enum tm_sf_sched {
	TM_SF_FIFO = 0, TM_SF_SP, TM_SF_WFQ, TM_SF_SP_WFQ, TM_SF_SHAPER,
	TM_SF_OTHER,
};

/* "fifo", "sp", "wfq", "sp_wfq", "shaper", "other", NULL-terminated. */
extern const char *const tm_sf_sched_names[];

struct tm_sf_params {
	bool shaper;			/* TM-SHP-2, else TM-QS-2 */
	double rate_bps;		/* BB or SR: required */
	uint64_t ql;			/* QL (IQ), reported, BDP rule */
	int scheduler;			/* enum tm_sf_sched */
	double nde_rtt_ms;		/* the NDE's RTT: required */
	double rtt_tol_pct;		/* 10 [PROPOSED] */
	bool force;			/* run without a verified NDE (bmd's
					 * gate, REQ-TM-2) */
	unsigned int apps;		/* 1 << enum bm_ttp, bulk | micro */
	bool concurrent;		/* one mixture, else a test each */
	unsigned int connections;	/* per application, 1 */
	double bulk_pct;		/* bulk's paced rate, % of rate_bps */
	uint64_t bulk_bytes;		/* 0: rate x Td / connections */
	uint64_t burst_bytes;		/* micro, 16 KB [PROPOSED] */
	double burst_interval_s;	/* micro, 0.1 s [PROPOSED] */
	uint64_t warmup_bytes;		/* micro, 0: 10 x BDP */
	bool random;			/* scripts: AMB-40 draws */
	uint64_t seed;
	char cc[16];
	uint64_t sndbuf, rcvbuf, window_clamp;
	unsigned int tr;		/* 10 */
	double td_s;			/* 60 queue, 30 shaper (AMB-42) */
	unsigned int dscp;
	uint8_t conn_dscps[16];		/* connection c's DSCP, c < n */
	unsigned int n_conn_dscps;
};

#define TM_SF_MAX_CONN	16		/* connections of an application */

/* Both procedures' table (mask 1: queue-stateful, 2: shaper-stateful). */
extern const struct bm_param tm_sf_keys[];
#define TM_SF_MASK(shaper)	((shaper) ? 2u : 1u)
extern const struct bm_jwriter tm_sf_writers[];

/* Defaults of rfc7640.queue-stateful and of rfc7640.shaper-stateful. */
void tm_sf_defaults(struct tm_sf_params *p);
void tm_sf_shaper_defaults(struct tm_sf_params *p);

/* Cross-key checks (connections x applications); 0 or -EINVAL. */
int tm_sf_check(const struct tm_sf_params *p, struct bm_error *err);

/* Runs p may take (no frame trials), for bmd's bound. */
double tm_sf_max_trials(const struct tm_sf_params *p);

/*
 * Run TM-QS-2 (TM-SHP-2 when p->shaper) on be's first two ports (client,
 * server) with be's TCP engine (-EOPNOTSUPP without one): per test (an
 * application, or the mixture) Tr runs of Td, each application's
 * throughput, TTPET, bytes in and out, efficiency and buffer delay, and
 * their statistics over the runs.  0, or -errno with err set and *result
 * the partial document when there is one.
 */
int tm_sf_run(struct bm_backend *be, const struct tm_sf_params *p,
	      bm_progress_fn progress, void *ctx, json_object **result,
	      struct bm_error *err);

/* --- TM-SETUP, REQ-TM-2: the network delay emulator's verification ------- */

#define TM_NDE_MAX_SIZES	16

struct tm_nde_params {
	double delay_ms;		/* port 0 -> 1: required */
	double reverse_delay_ms;	/* port 1 -> 0; NAN: not measured */
	uint32_t frame_sizes[TM_NDE_MAX_SIZES];
	size_t n_sizes;			/* TM §1.2's, 9600 B left out */
	double load_pct;		/* the target rate, 100 */
	double duration_s;		/* per size, 10 [PROPOSED] */
	double tolerance_pct;		/* 1 [PROPOSED] */
	double tolerance_ms;		/* 0.05 [PROPOSED] */
	double cal_pd_ns;		/* the tester's own delay, 0 none */
	unsigned int dscp;
	double drain_s;
	bool learning;
	double learning_pause_s;	/* < 0: the backend's */
	bool tcp;			/* the bulk TCP check, on */
	double tcp_duration_s, tcp_warmup_s;
	double tcp_target_pct;		/* REQ-TM-6: 95 */
	char cc[16];
	uint64_t sndbuf, rcvbuf;
};

extern const struct bm_param tm_nde_keys[];
extern const struct bm_jwriter tm_nde_writers[];

/* Fill *p with the defaults (delay_ms unset: a run needs it). */
void tm_nde_defaults(struct tm_nde_params *p);

/* Cross-key checks (delay_ms given); 0 or -EINVAL. */
int tm_nde_check(const struct tm_nde_params *p, struct bm_error *err);

/* Trials p takes: one per frame size. */
double tm_nde_max_trials(const struct tm_nde_params *p);

/* How far a measured delay may be from configured ms: the larger of
 * tolerance_pct of it and tolerance_ms. */
double tm_nde_tolerance_ms(const struct tm_nde_params *p, double configured);

/* The RTT p states: delay_ms, plus reverse_delay_ms when given. */
double tm_nde_rtt_ms(const struct tm_nde_params *p);

/*
 * Verify the NDE between be's two ports (TM-SETUP, REQ-TM-2, REQ-TM-6):
 * per frame size a trial at the target rate, each way measured, loss and
 * one-way delay against the configured; then a bulk TCP connection's
 * goodput and baseline RTT.  0 when it passed; -EDOM with the first
 * failure in err when it did not (the result is complete either way,
 * results.nde_ok and results.failures saying which); other -errno with
 * *result the partial document when there is one.
 */
int tm_nde_run(struct bm_backend *be, const struct tm_nde_params *p,
	       bm_progress_fn progress, void *ctx, json_object **result,
	       struct bm_error *err);

/*
 * REQ-TM-2's gate of a stateful test on the ports verify was measured on:
 * verify is the newest rfc7640.nde-verify result there (NULL: none) from
 * job verify_job, nde_rtt_ms the RTT the test states (NAN: none).  It may
 * run when that verification passed and verified the same RTT, or when
 * force is set; then 0, *nde the result's meta.nde (what was verified, or
 * why the run was forced) and dev (the test's deviations) told of a
 * forced run or a TCP host that fell short.  Else -EPERM with one line in
 * err.
 */
int tm_nde_gate(json_object *verify, unsigned long verify_job,
		double nde_rtt_ms, bool force, json_object **nde,
		json_object *dev, struct bm_error *err);

/* The RFC 7640 procedures as the registry offers them (rfc7640_procs.c),
 * ending with a NULL name; rfc7640.concurrent is procedures/'. */
extern const struct bm_procedure_info rfc7640_procedures[];

#endif /* RFC7640_H */

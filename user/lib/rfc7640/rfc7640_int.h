/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the RFC 7640 procedures share inside user/lib/rfc7640: the keys
 * and defaults of struct tm_common, the burst and CBR flows over a
 * backend's ports, one trial, and the parts of the result every procedure
 * has (the measurement block, the statistics over Tr runs, the frame logs
 * and the deviations).
 */
#ifndef RFC7640_INT_H
#define RFC7640_INT_H

#include "bm_traffic.h"
#include "rfc7640.h"
#include "tm_metrics.h"

/*
 * The key rows of struct tm_common in a parameter table; OFF is the
 * table's offsetof macro.  TM_COMMON_KEYS: frame and accounting, runs
 * (TM_FRAME_KEYS), waits, timestamps and logs (TM_WAIT_KEYS);
 * TM_COMMON_TD_KEYS: the same with Td (the help names the section's
 * default) and the Ti margin between them, where the result's params have
 * always had them.
 */
#define TM_COMMON_KEYS(OFF) TM_FRAME_KEYS(OFF), TM_WAIT_KEYS(OFF)
#define TM_COMMON_TD_KEYS(OFF, td) \
	TM_FRAME_KEYS(OFF), TM_TD_KEYS(OFF, td), TM_WAIT_KEYS(OFF)

#define TM_FRAME_KEYS(OFF) \
	{ { "frame_size", BM_J_U32, OFF(c.frame_size), 64, 9216, 0, 0, NULL, \
	    NULL }, "B", "frame size F with FCS [PROPOSED 1518: the draft " \
	  "names none]", NULL }, \
	{ { "accounting", BM_J_ENUM, OFF(c.accounting), 0, 0, 0, 0, \
	    tm_acct_names, NULL }, "", "bytes a frame counts for: l1 F+20, " \
	  "l2 F (AMB-01), l2nofcs F-4, l3 F-18", NULL }, \
	{ { "burst_mode", BM_J_ENUM, OFF(c.burst_mode), 0, 0, 0, 0, \
	    tm_burst_mode_names, NULL }, "", "exact: a remainder frame makes " \
	  "the bytes exact (AMB-07); whole: ceil(bytes / A(F)) frames", \
	  NULL }, \
	{ { "tr", BM_J_UINT, OFF(c.tr), 1, TM_MAX_TR, 0, 0, NULL, NULL }, "", \
	  "Tr: test runs, statistics over them (TM §6, REQ-TM-3)", NULL }

#define TM_WAIT_KEYS(OFF) \
	{ { "drain_s", BM_J_DOUBLE, OFF(c.drain_s), 0, 60, 0, 0, NULL, \
	    NULL }, "s", "loss wait threshold after each trial, reported " \
	  "(TM-MET-LP: 2 s)", NULL }, \
	{ { "learning", BM_J_BOOL, OFF(c.learning), 0, 0, 0, 0, NULL, NULL }, \
	  "", "learning frames before the first trial (RFC 2544 §23b)", \
	  NULL }, \
	{ { "learning_pause_s", BM_J_DOUBLE, OFF(c.learning_pause_s), 0, 60, \
	    BM_JK_DERIVED | BM_JK_NEG_NULL, 0, NULL, NULL }, "s", \
	  "wait after the learning frames (unset: the backend's, 2 s)", \
	  NULL }, \
	{ { "dscp", BM_J_UINT, OFF(c.dscp), 0, 63, 0, 0, NULL, NULL }, "", \
	  "DSCP of the test frames; others on arrival count as re-marked", \
	  NULL }, \
	{ { "cal_pd_ns", BM_J_DOUBLE, OFF(c.cal_pd_ns), 0, 1e9, 0, 0, NULL, \
	    NULL }, "ns", "the tester's own PD (rfc8238.calibrate's " \
	  "cal_constant_ns), subtracted from PD (REQ-TS-5); 0: none", NULL }, \
	{ { "cal_pdv_ns", BM_J_DOUBLE, OFF(c.cal_pdv_ns), 0, 1e9, 0, 0, NULL, \
	    NULL }, "ns", "the tester's own PDV (rfc8238.calibrate's " \
	  "accuracy_ns), subtracted from PDV (REQ-TS-5); 0: none", NULL }, \
	{ { "log_frames", BM_J_U32, OFF(c.log_frames), 0, \
	    BM_TRAFFIC_MAX_LOG, 0, 0, NULL, NULL }, "frames", "copy the " \
	  "per-frame log of each stream's first N frames per trial into " \
	  "results.frame_logs (MODEL-TB's tx times); 0: none", NULL }

#define TM_TD_KEYS(OFF, td) \
	{ { "td_s", BM_J_DOUBLE, OFF(c.td_s), 0, 86400, BM_JK_MIN_EXCL, 0, \
	    NULL, NULL }, "s", "Td: test duration (" td "; AMB-42, a " \
	  "warning below 60 s)", NULL }, \
	{ { "ti_margin_pct", BM_J_DOUBLE, OFF(c.ti_margin_pct), 0, 1000, 0, \
	    0, NULL, NULL }, "%", "Ti x (1 + margin): extra spacing of the " \
	  "bursts, reported (REQ-TM-10)", NULL }

/* Fill *c with the defaults: 1518 B, l2, exact, Tr 10, Td td_s, 2 s. */
void tm_common_defaults(struct tm_common *c, double td_s);

/* One run of a procedure. */
struct tm_ctx {
	const char *name;		/* "rfc7640.policer", for messages */
	struct bm_backend *be;
	const struct tm_common *c;
	bm_progress_fn progress;
	void *ctx;
	struct bm_error *err;
	struct bm_trial_log log;
	bool learned;			/* learning frames went out */
	char ts_source[16];		/* of the last trial */
	bool sw_ts;			/* a trial had software timestamps */
	bool partial_log;		/* a burst analysis saw fewer bursts */
	/* bursts' frames behind back to back at the line, at most over
	 * the trials (s; bmgen.ko's measure, the sim's) */
	double burst_late_max_s;
	json_object *frame_logs;	/* results.frame_logs, or NULL */
};

/* Set up *x for procedure name on be; 0, or -EINVAL when be's ports are
 * not min_ports .. max_ports. */
int tm_ctx_init(struct tm_ctx *x, const char *name, struct bm_backend *be,
		const struct tm_common *c, unsigned int min_ports,
		unsigned int max_ports, bm_progress_fn progress, void *ctx,
		struct bm_error *err);

/* Release what *x holds (the trial log; frame_logs is the result's). */
void tm_ctx_free(struct tm_ctx *x);

/* Zero *t and add the backend's ports, each at its line rate. */
int tm_traffic(struct tm_ctx *x, struct bm_traffic *t);

/* The per-frame log a stream of total frames needs when analysed
 * (analyse) or only copied: capped at BM_TRAFFIC_MAX_LOG. */
uint32_t tm_log_size(const struct tm_ctx *x, uint64_t total, bool analyse);

/*
 * Add flow f: count bursts of b from port tx to rx every period_s from
 * start_s, DSCP dscp, each stream logging log frames (tm_log_size()).
 * A resized burst goes as two pieces (tm_flow).  0 or -errno, err set.
 */
int tm_add_bursts(struct tm_ctx *x, struct bm_traffic *t, unsigned int tx,
		  unsigned int rx, uint8_t dscp, const struct tm_burst *b,
		  uint32_t count, double period_s, double start_s, bool analyse,
		  struct tm_flow *f);

/* Make flow f carry g's pieces too: g's streams follow f's (added right
 * after them, the same bursts), as one burst of both. */
void tm_flow_join(struct tm_flow *f, const struct tm_flow *g);

/* Add flow f: CBR of frame size F at fps from tx to rx with dscp. */
int tm_add_cbr(struct tm_ctx *x, struct bm_traffic *t, unsigned int tx,
	       unsigned int rx, uint8_t dscp, uint32_t frame_size, double fps,
	       struct tm_flow *f);

/*
 * Run t for duration_s (latency on, the loss wait of c, learning before
 * the procedure's first trial), logged under phase and reason; *r the
 * stream results (the caller frees it).  0, -ECANCELED, or -errno.
 */
int tm_trial(struct tm_ctx *x, struct bm_traffic *t, double duration_s,
	     const char *phase, const char *reason,
	     struct bm_traffic_result **r, struct bm_trial_result *res);

/* The metrics of flow f, calibrated (REQ-TS-5); notes a partial log. */
int tm_metrics(struct tm_ctx *x, const struct bm_traffic *t,
	       const struct bm_traffic_result *r, const struct tm_flow *f,
	       struct tm_flow_metrics *m);

/*
 * tm_trial, then the metrics of flows f[0..n) into m[0..n) and, with
 * c->log_frames, the logs of run test's phase: what every step of a
 * procedure does with its traffic.  *r as tm_trial's.
 */
int tm_trial_flows(struct tm_ctx *x, struct bm_traffic *t, double duration_s,
		   const char *phase, const char *reason, unsigned int test,
		   const struct tm_flow *f, struct tm_flow_metrics *m,
		   unsigned int n, struct bm_traffic_result **r);

/* With c->log_frames, add every stream's first log_frames frames of run
 * test's step to x->frame_logs. */
void tm_keep_logs(struct tm_ctx *x, unsigned int test, const char *step,
		  const struct bm_traffic *t, const struct bm_traffic_result *r);

/* Add LP, OOS, PD (min, mean, max in s) and PDV (p99, s) of m to o. */
void tm_metrics_json(json_object *o, const struct tm_flow_metrics *m);

/* Append to a one row {test, step, dscp, frames, bytes} per DSCP that
 * frames of m arrived with (REQ-RX-5). */
void tm_dscp_rows(json_object *a, unsigned int test, const char *step,
		  const struct tm_flow_metrics *m);

/* Add the repeatability block of x[0..n-1] as stats.name. */
/* One ingress stream's part of its queue at an egress, into its row o:
 * offered, throughput (timed as eb's flows), bytes, share_pct of the
 * queue's bytes, the metrics, loss; the capacity tests' stream rows. */
void tm_stream_share_json(json_object *o, const struct tm_flow_metrics *s,
			  const struct tm_egress *eb, double td,
			  double share_pct);
/* A new result row {test, egress}, the capacity tests' rows' key. */
json_object *tm_egress_row(unsigned int test, const char *egress);
/* Append row o to res's array key (the array exists). */
void tm_add_row(json_object *res, const char *key, json_object *o);
void tm_stat(json_object *stats, const char *name, const double *v, size_t n);

/* The measurement block: loss wait, PD event, timestamps, calibration. */
json_object *tm_measurement_json(const struct tm_ctx *x);

/* Deviations every procedure may have: Td (with_td), Tr, calibration,
 * partial logs, accounting and burst mode in effect. */
void tm_deviations(const struct tm_ctx *x, json_object *dev, bool with_td);

/* Bursts of period ti_s in td_s: floor(td / ti), at least 1. */
uint32_t tm_bursts_in(double td_s, double ti_s);

/* 0 when bursts of b every ti_s fit at the line; else -EINVAL naming
 * what (e.g. "Ti = CBS x 8 / CIR"). */
int tm_ti_fits(struct tm_ctx *x, const struct tm_burst *b, double ti_s,
	       const char *what);

/* The burst plan of bytes with c's frame size and modes; key names the
 * parameter in the message. */
int tm_plan(struct tm_ctx *x, uint64_t bytes, const char *key,
	    struct tm_burst *b);

/* Add the plan's fields to o as PREFIX_bytes, _actual_bytes, _frames,
 * _last_frame_size (and _resized when true). */
void tm_plan_json(json_object *o, const char *prefix, const struct tm_burst *b);

/* --- the capacity tests' traffic map (TM-QS-CAP-*, TM-SHP-CAP-*) -------- */

/* Which of the job's ports send (in) and receive (eg), 0-based. */
struct tm_portmap {
	unsigned int in[BM_BACKEND_MAX_PORTS], eg[BM_BACKEND_MAX_PORTS];
	unsigned int n_in, n_eg;
};

/* Parse key's array of distinct 1-based port numbers into *l. */
int tm_port_list_parse(json_object *v, const char *key,
		       struct tm_port_list *l, struct bm_error *err);

/* l as the 1-based array it was given as, or NULL (JSON null) unset. */
json_object *tm_port_list_json(const struct tm_port_list *l);

/* A custom key's writer (bm_json.h): the port list at base + k->off. */
json_object *tm_port_list_at(const struct bm_jwriter *w,
			     const struct bm_jkey *k, const void *base);

/*
 * The map of x's job from the keys ingress_ports (in) and egress_ports
 * (eg): unset egress, the last port; unset ingress, every port that is
 * not an egress.  0, or -EINVAL naming the key (a port beyond the job's,
 * a port both ingress and egress, fewer than two ingress ports).
 */
int tm_portmap_of(struct tm_ctx *x, const struct tm_port_list *in,
		  const struct tm_port_list *eg, struct tm_portmap *pm);

/* The names of pm's ingress (or egress) ports, a new JSON array. */
json_object *tm_portmap_json(const struct tm_ctx *x,
			     const struct tm_portmap *pm, bool ingress);

/* Add to cfg what TM §6.2.2 and §6.3.2 make a MUST of a capacity test's
 * configuration: the ingress and egress ports active, and each ingress
 * port's marking (dscps) and stateless rates to every egress. */
void tm_portmap_config(json_object *cfg, const struct tm_ctx *x,
		       const struct tm_portmap *pm, const unsigned int *dscps,
		       size_t n_classes, const double *rates, size_t n_rates);

/* key's array of 1 to TM_MAX_CLASSES distinct DSCPs into out[*n_out]. */
int tm_class_dscps_parse(json_object *v, const char *key, unsigned int *out,
			 size_t *n_out, struct bm_error *err);

/* key's array of 1 to max numbers in [lo, hi] ((lo, hi] with lo_excl;
 * with bytes whole numbers or strings with a unit) into out[*n_out]. */
int tm_values_parse(json_object *v, const char *key, double lo, bool lo_excl,
		    double hi, bool bytes, size_t max, double *out,
		    size_t *n_out, struct bm_error *err);

/* New JSON arrays of v[0..n). */
json_object *tm_doubles_json(const double *v, size_t n);
json_object *tm_uints_json(const unsigned int *v, size_t n);

/* One trial of CBR streams over a map: its traffic, results, flows and
 * their metrics, n of each (tm_mesh_at). */
struct tm_mesh {
	struct bm_traffic t;
	struct bm_traffic_result *r;
	struct tm_flow *f;
	struct tm_flow_metrics *m;
	unsigned int n;
};

/* The index in a mesh of ingress i, egress e, class k of nc. */
static inline unsigned int tm_mesh_at(const struct tm_portmap *pm,
				      unsigned int nc, unsigned int i,
				      unsigned int e, unsigned int k)
{
	return (i * pm->n_eg + e) * nc + k;
}

/*
 * Run one trial of td_s in which every ingress port of pm sends class k
 * (DSCP dscps[k], rates_bps[k] in the accounting mode) to every egress,
 * a port's streams interleaved; analyse: every stream logs all its
 * frames (capped) for the trains.  0, -ECANCELED or -errno, err set;
 * tm_mesh_free() in every case.
 */
int tm_mesh_run(struct tm_ctx *x, const struct tm_portmap *pm,
		const unsigned int *dscps, const double *rates_bps,
		unsigned int nc, bool analyse, double td_s, const char *phase,
		unsigned int test, struct tm_mesh *ms);

/* Release what ms holds. */
void tm_mesh_free(struct tm_mesh *ms);

/* --- the policer's steps, for one port pair or many (TM-POL-1, -CAP-2) --- */

/* "amb41", "draft" (enum tm_ti_formula). */
extern const char *const tm_ti_formula_names[];

/* "compliant", "excess": the steps in order. */
extern const char *const tm_pol_step_names[2];

/* MODEL-TB (SPEC 5.3) fed with a step's actual tx times, and how
 * close to the line its bursts went. */
struct tm_model {
	uint64_t bursts;		/* the bursts the tx log held whole */
	double pass_min, pass_mean;	/* accounted bytes a burst passes */
	double yellow_mean;		/* of them yellow (two rates) */
	uint64_t red_frames;		/* over the bursts */
	/* achieved intensity (REQ-TM-8): a burst's bytes on the wire over
	 * the time from its first bit to its last at the line rate, % */
	double intensity_min_pct, intensity_mean_pct;
};

/* One step of one run of one policer. */
struct tm_pol_step {
	struct tm_burst b;		/* the burst; colour-aware: its CBS
					 * part, sent green */
	struct tm_burst yb;		/* colour-aware: its EBS (+ excess)
					 * part, sent pre-marked yellow */
	struct tm_flow_metrics m;	/* the whole burst, both parts */
	struct tm_model model;
	double taken;			/* accounted bytes per burst dropped or
					 * arrived with another DSCP than the
					 * green one: not passed green */
};

/* A policed stream's tags (REQ-TM-5): outer VLAN id 1..4094 (0:
 * untagged), its TPID (0: 0x8100), an inner VLAN id (0: none). */
struct tm_encap {
	uint16_t vlan, tpid, vlan2;
};

/* One policed stream (a port pair's, or a customer's): its DUT values,
 * Ti and bursts, its two steps. */
struct tm_pol_pair {
	unsigned int tx, rx;
	double cir_bps, eir_bps;
	uint64_t cbs, ebs;
	bool aware;			/* colour-aware (RFC 4115): the EBS
					 * part goes pre-marked yellow */
	uint8_t yellow;			/* the yellow DSCP */
	struct tm_encap enc;
	double start_s;			/* the bursts' phase (REQ-TM-8) */
	double ti_s;
	uint32_t bursts;		/* per step */
	struct tm_pol_step st[2];
	unsigned int taken_runs;	/* runs whose excess was taken */
};

/*
 * MODEL-TB of pp's policer (colour-aware when pp is) fed with the tx log
 * of flow f, whose pieces from yellow_from on were sent yellow, frames
 * accounted in acct; and the bursts' achieved intensity on line_bps.
 * 0, or -ENOMEM.
 */
int tm_pol_model(const struct bm_traffic *t, const struct bm_traffic_result *r,
		 const struct tm_flow *f, unsigned int yellow_from,
		 enum tm_acct acct, const struct tm_pol_pair *pp,
		 double line_bps, struct tm_model *o);

/* Plans, Ti and bursts of pp for excess and formula (colour-aware: the
 * CBS and the EBS + excess parts); 0 or -EINVAL (a burst under a frame,
 * Ti too short for the line or Td). */
int tm_pol_pair_setup(struct tm_ctx *x, struct tm_pol_pair *pp,
		      uint64_t excess, int formula);

/* Run step k (0 compliant, 1 excess) of run test for the n pairs pp
 * together, one trial; each pair's metrics and taken bytes filled. */
int tm_pol_step_run(struct tm_ctx *x, struct tm_pol_pair *pp, unsigned int n,
		    int k, unsigned int test);

/* Did the excess step take more per burst than the compliant one? */
bool tm_pol_excess_taken(const struct tm_pol_pair *pp);

/* The time in s a burst of pp's step k takes at line_bps, both parts. */
double tm_pol_burst_s(const struct tm_pol_pair *pp, int k, double line_bps);

/* The result row of pp's step k in run test, naming its ingress and
 * egress ports when in and eg are not NULL. */
json_object *tm_pol_step_row(const struct tm_pol_pair *pp, int k,
			     unsigned int test, const char *in, const char *eg);

/* The test configuration every policer procedure reports: Tr, Td, the
 * mode (enum tm_pol_mode), Ti's formula and margin, the excess (MUST be
 * recorded), frame size and accounting. */
json_object *tm_pol_config(const struct tm_common *c, int mode, int formula,
			   uint64_t excess);

/* Add ingress, egress (and the VLAN ids of enc, when not NULL) to the
 * rows of array a from index from on. */
void tm_pol_name_rows(json_object *a, size_t from, const char *in,
		      const char *eg, const struct tm_encap *enc);

/* The excess outcome over n runs of which taken took it (TM §6.1.1 MUST
 * verify), in buf when mixed. */
const char *tm_pol_outcome(unsigned int taken, unsigned int n, char *buf,
			   size_t len);

/* The policer's deviations: AMB-41, the draft's Ti with EBS, the
 * common ones. */
void tm_pol_deviations(const struct tm_ctx *x, json_object *dev, int formula,
		       bool ebs);

/* --- many policed streams at once (TM-POL-CAP-1, -2, -3) ---------------- */

/* The job's ports as pairs 1 -> 2, 3 -> 4, ...: their number in *n; 0,
 * or -EINVAL when the ports are odd. */
int tm_pol_port_pairs(struct tm_ctx *x, unsigned int *n);

/*
 * Tr runs of TM-POL-1's two steps for the n streams pp at once: into res
 * the rows compliant, excess and dscp_counts (each naming ingress,
 * egress and the stream's VLAN ids), the statistics per stream and its
 * excess_outcomes.  0, -ECANCELED or -errno (res then partial).
 */
int tm_pol_streams(struct tm_ctx *x, struct tm_pol_pair *pp, unsigned int n,
		   json_object *res);

/* The result document of x's procedure (SPEC id ref) from res, with the
 * deviations dev (the policer's are added), the measurement and frame
 * logs; x is freed. */
json_object *tm_pol_finish(struct tm_ctx *x, json_object *res,
			   json_object *dev, int formula,
			   const struct tm_pol_pair *pp, unsigned int n,
			   const char *ref, json_object *params);

/* What one hunt found (TM-BURST-HUNT steps 1-3). */
struct tm_hunt_out {
	const char *outcome;		/* "target passed", "hunted", "< min" */
	const char *verify;		/* verify_policer's outcome, or NULL */
	struct tm_burst bsa;		/* nominal 0: none (< min) */
	struct tm_flow_metrics bsa_m;	/* the BSA burst's metrics */
	uint64_t largest_pass;		/* the largest burst that passed */
	struct tm_burst first_fail;	/* nominal 0: none */
	unsigned int bursts;		/* sent */
	/* TM §5.1: bursts at the line rate.  A burst the generator spread
	 * (a frame more than BM_BURST_GAP_TOL_S behind) is measured again,
	 * up to TM_HUNT_REMEASURE times, unless the refill (drain) its
	 * spread allowed at rate_bps is below one step: the hunt's
	 * resolution.  remeasured: trials sent again; spread: bursts still
	 * beyond that after them; unmeasured: bursts whose gaps the backend
	 * did not measure; late_max_s: the largest lateness of the bursts
	 * counted */
	unsigned int remeasured, spread, unmeasured;
	double late_max_s;
};

#define TM_HUNT_REMEASURE	2

/* Adds to r what hunt o said of its bursts: bursts_remeasured,
 * bursts_spread and result ("ok", or why the hunt's bursts were not
 * what TM §5.1 asks). */
void tm_hunt_result_json(json_object *r, const struct tm_hunt_params *p,
			 const struct tm_hunt_out *o);

/* The recover wait of a burst of actual accounted bytes under p. */
double tm_hunt_recover_s(const struct tm_hunt_params *p, double bytes);

/*
 * One hunt of p from port tx to rx, run `test` (1-based), its bursts
 * added as rows to steps (NULL: not kept).  0, -ECANCELED or -errno with
 * x->err set.
 */
int tm_hunt_once(struct tm_ctx *x, const struct tm_hunt_params *p,
		 unsigned int tx, unsigned int rx, unsigned int test,
		 json_object *steps, struct tm_hunt_out *o);

/* --- queue_cap_params.c: TM-QS-CAP's parameters -------------------------- */

/* The scheduler's names, in enum tm_sched order. */
extern const char *const tm_qcap_params_sched_names[];

/* Is class k a WFQ queue (a weight above 0)? */
bool tm_qcap_params_is_wfq(const struct tm_qcap_params *p, size_t k);
/* What queue k is: "sp", "wfq", or the scheduler's name (no weights). */
const char *tm_qcap_params_queue_kind(const struct tm_qcap_params *p,
				      size_t k);
/* The sum of the queues' WFQ weights (0 without weights). */
double tm_qcap_params_wfq_weights(const struct tm_qcap_params *p);

/* --- queue_cap_trial.c: one run of TM-QS-CAP, its rows and statistics ---- */

/* The numbers of every run, v[slot][run]: the slots are per scope (every
 * egress together, then each egress when there are several) and class,
 * per egress (several), then the bursts'; n slots in all. */
struct tm_qcap_stats {
	unsigned int scopes, nc, n_eg;
	size_t n;
	double (*v)[TM_MAX_TR];
};

/* The slot of the bursts' number j (0: LP, 1: smallest BSA) in s; with j
 * 2, the number of slots s needs. */
size_t tm_qcap_trial_qs_bursts(const struct tm_qcap_stats *s,
			       unsigned int j);

/*
 * One run (`test`, 1-based) of p over pm: the bursts b every ti (bursts
 * of them, when p->bursts) and the classes' mesh; its rows into res's
 * arrays, its numbers into st at run n.  0, or -errno with x->err set.
 */
int tm_qcap_trial_run(struct tm_ctx *x, const struct tm_qcap_params *p,
		      const struct tm_portmap *pm, const struct tm_burst *b,
		      double ti, uint32_t bursts, unsigned int test,
		      json_object *res, struct tm_qcap_stats *st,
		      unsigned int n);

/* The statistics block of st's n runs, a new JSON object. */
json_object *tm_qcap_trial_stats_json(const struct tm_ctx *x,
				      const struct tm_qcap_params *p,
				      const struct tm_portmap *pm,
				      const struct tm_qcap_stats *st,
				      unsigned int n);

/* --- queue_cap_sf.c: TM-QS-CAP's stateful traffic ----------------------- */

struct tm_qcap_params;
struct bm_tcp_result;

/* The metrics of one application over its connections in one run. */
struct tm_app_run {
	unsigned int connections;
	double thr_bps;		/* window bytes over the longest window */
	double window_s, ttpet_s, eff_pct, bufd_pct, rtt_ms, base_ms;
	uint64_t bytes_in, bytes_out, retrans;
};

/* Sum application k's (enum bm_ttp) connections of r into *a, only those
 * from port client to port server where these are >= 0. */
void tm_app_of(const struct bm_tcp_result *r, int k, int client, int server,
	       struct tm_app_run *a);

/* Add a's bytes, efficiency, RTTs and buffer delay to o, each null with
 * a KEY_why beside it (TM §4.2 MUST). */
void tm_app_json(json_object *o, const struct tm_app_run *a);
/* Add a's TTPET to o, null with ttpet_s_why when no execution ended. */
void tm_app_ttpet_json(json_object *o, const struct tm_app_run *a);

/* The applications of mask (1 << enum bm_ttp) by name, a new JSON array. */
json_object *tm_apps_json(unsigned int mask);

/* A custom key's writer (bm_json.h): the applications mask, an unsigned
 * int at base + k->off. */
json_object *tm_apps_at(const struct bm_jwriter *w,
			const struct bm_jkey *k, const void *base);

/* stateful_apps: "bulk" and "micro", each at most once; cc: a name. */
int tm_qcap_parse_sf_apps(json_object *v, void *base, const char *key,
			  struct bm_error *err);
int tm_qcap_parse_sf_cc(json_object *v, void *base, const char *key,
			struct bm_error *err);

/* The key rows of TM-QS-CAP's stateful traffic; OFF its offsetof.  Its
 * custom rows' writers, by offset (TM_QCAP_SF_WRITERS). */
#define TM_QCAP_SF_KEYS(OFF) \
	{ { "stateful_apps", BM_J_CUSTOM, OFF(sf_apps), 0, 0, 0, 0, NULL, \
	    tm_qcap_parse_sf_apps }, "", "TM-QS-2's applications from every " \
	  "ingress port to every egress beside the classes: \"bulk\", " \
	  "\"micro\" (TCP engine and a verified NDE needed); [] none", \
	  "string array" }, \
	{ { "stateful_connections", BM_J_UINT, OFF(sf_connections), 1, 16, \
	    0, 0, NULL, NULL }, "", "connections of each application per " \
	  "ingress and egress port", NULL }, \
	{ { "stateful_dscp", BM_J_UINT, OFF(sf_dscp), 0, 63, 0, 0, NULL, \
	    NULL }, "", "the segments' DSCP, both ways: the queue they take " \
	  "[PROPOSED 0]", NULL }, \
	{ { "stateful_bulk_pct", BM_J_DOUBLE, OFF(sf_bulk_pct), 0, 100, 0, 0, \
	    NULL, NULL }, "%", "bulk's pacing per ingress and egress port, % " \
	  "of BB (the mixture TM §6.2.2.1.1 asks per ingress port); 0: as " \
	  "fast as TCP goes", NULL }, \
	{ { "stateful_burst_bytes", BM_J_BYTES, OFF(sf_burst_bytes), 1, 1e9, \
	    0, 0, NULL, NULL }, "B", "micro: each burst [PROPOSED 16KB]", \
	  NULL }, \
	{ { "stateful_burst_interval_s", BM_J_DOUBLE, \
	    OFF(sf_burst_interval_s), 0, 3600, BM_JK_MIN_EXCL, 0, NULL, \
	    NULL }, "s", "micro: start to start [PROPOSED 0.1]", NULL }, \
	{ { "stateful_warmup_bytes", BM_J_BYTES, OFF(sf_warmup_bytes), 0, \
	    1e12, BM_JK_DERIVED, 0, NULL, NULL }, "B", "micro: before the " \
	  "first burst (unset: 10 x BDP, TM-TTP)", NULL }, \
	{ { "nde_rtt_ms", BM_J_DOUBLE, OFF(nde_rtt_ms), 0, 10000, \
	    BM_JK_DERIVED, 0, NULL, NULL }, "ms", "the RTT the NDE is set " \
	  "to: the BDP's, and what bmd's gate compares with the verified " \
	  "one (REQ-TM-2)", NULL }, \
	{ { "cc", BM_J_CUSTOM, OFF(sf_cc), 0, 0, 0, 0, NULL, \
	    tm_qcap_parse_sf_cc }, \
	  "", "congestion control (TCP_CONGESTION); \"\": the system's", \
	  "string" }, \
	{ { "sndbuf", BM_J_BYTES, OFF(sf_sndbuf), 0, 1 << 30, 0, 0, NULL, \
	    NULL }, "B", "SO_SNDBUF, 0: autotuning", NULL }, \
	{ { "rcvbuf", BM_J_BYTES, OFF(sf_rcvbuf), 0, 1 << 30, 0, 0, NULL, \
	    NULL }, "B", "SO_RCVBUF, 0: autotuning", NULL }, \
	{ { "window_clamp", BM_J_BYTES, OFF(sf_window_clamp), 0, 1 << 30, 0, \
	    0, NULL, NULL }, "B", "TCP_WINDOW_CLAMP (REQ-TM-7), 0: none", \
	  NULL }, \
	{ { "force", BM_J_BOOL, OFF(sf_force), 0, 0, 0, 0, NULL, NULL }, "", \
	  "with stateful_apps: run without a passing rfc7640.nde-verify on " \
	  "each ingress-egress pair (REQ-TM-2; bmctl --force): a deviation", \
	  NULL }

#define TM_QCAP_SF_WRITERS \
	{ tm_qcap_parse_sf_apps, tm_apps_at, 0 }, \
	{ tm_qcap_parse_sf_cc, bm_json_string_at, 0 }

/* Fill p's stateful keys with their defaults (no applications). */
void tm_qcap_sf_defaults(struct tm_qcap_params *p);

/* TM §6.2.2.1.1's MUST: the stateful rate and mixture per ingress port,
 * into the test configuration cfg. */
void tm_qcap_sf_config(json_object *cfg, const struct tm_ctx *x,
		       const struct tm_qcap_params *p,
		       const struct tm_portmap *pm);

/* Start p's connections from every ingress to every egress of pm on
 * x->be's engine, *tr the record tm_qcap_sf_stop() fills and frees; 0,
 * or -errno with x->err set, nothing running and *tr NULL. */
int tm_qcap_sf_start(struct tm_ctx *x, const struct tm_qcap_params *p,
		     const struct tm_portmap *pm, struct bm_tcp_result **tr);

/*
 * Stop them into tr (freed) and add run test's rows to res's "stateful"
 * array: per egress, ingress and application the throughput at the
 * egress and TCP metrics (TM-MET-SF); thr[e * BM_TTP_N + k] gets egress
 * e's throughput of application k.  ret is the run's error so far: the
 * session is stopped all the same, and its rows added only when ret is
 * 0.  The run's error, or the stop's.
 */
int tm_qcap_sf_stop(struct tm_ctx *x, const struct tm_qcap_params *p,
		    const struct tm_portmap *pm, unsigned int test,
		    json_object *res, double *thr, struct bm_tcp_result *tr,
		    int ret);

#endif /* RFC7640_INT_H */

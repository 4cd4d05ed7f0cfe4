/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the RFC 8239 procedures share inside user/lib/rfc8239: the keys
 * and defaults of struct r8239_common, and the N-port traffic over a
 * backend's ports.
 */
#ifndef RFC8239_INT_H
#define RFC8239_INT_H

#include "bm_traffic.h"
#include "rfc8239.h"

#define R8239_MAX_REPEAT	100

/* The key rows of struct r8239_common in a parameter table; OFF is the
 * table's offsetof macro, what names one repetition ("iteration"). */
#define R8239_COMMON_KEYS(OFF, what) \
	{ { "repeat", BM_J_UINT, OFF(c.repeat), 1, R8239_MAX_REPEAT, 0, 0, \
	    NULL, NULL }, "", "repetitions of each " what \
	  " (REQ-8239-1) [PROPOSED 5]", NULL }, \
	{ { "drain_s", BM_J_DOUBLE, OFF(c.drain_s), 0, 60, 0, 0, NULL, \
	    NULL }, "s", "wait after each trial for the DUT to empty " \
	  "(PLAT-TRIAL)", NULL }, \
	{ { "learning", BM_J_BOOL, OFF(c.learning), 0, 0, 0, 0, NULL, NULL }, \
	  "", "learning frames before each " what " (RFC 2544 §23b)", \
	  NULL }, \
	{ { "learning_pause_s", BM_J_DOUBLE, OFF(c.learning_pause_s), 0, 60, \
	    BM_JK_DERIVED | BM_JK_NEG_NULL, 0, NULL, NULL }, "s", \
	  "wait after the learning frames (unset: the backend's, 2 s)", \
	  NULL }, \
	{ { "dscp", BM_J_UINT, OFF(c.dscp), 0, 63, 0, 0, NULL, NULL }, "", \
	  "DSCP of every test frame, reported with the results", NULL }, \
	{ { "port_order", BM_J_ENUM, OFF(c.port_order), 0, 0, 0, 0, \
	    r8239_port_order_names, NULL }, "", "given: the ports in the " \
	  "order given; random: shuffled by seed, the order reported", \
	  NULL }, \
	{ { "seed", BM_J_U64, OFF(c.seed), 0, 1e18, 0, 0, NULL, NULL }, "", \
	  "seed of the random order (0: from the clock, reported)", NULL }

extern const char *const r8239_port_order_names[];

/* The job's port names as they were before a random order. */
struct r8239_order {
	bool shuffled;
	char names[BM_BACKEND_MAX_PORTS][BM_BACKEND_PORT_NAME];
};

/*
 * With c->port_order random, shuffle be's port names (the roles the
 * procedure gives by position follow) with c->seed, or a seed from the
 * clock, saving the order in *o; either way add "dscp", "port_order"
 * (the names in the order used) and, when random, "seed" to res.
 */
void r8239_ports_begin(struct bm_backend *be, const struct r8239_common *c,
		       struct r8239_order *o, json_object *res);
/* Put be's port names back as r8239_ports_begin found them. */
void r8239_ports_end(struct bm_backend *be, const struct r8239_order *o);

/* Fill *c with the defaults: repeat 5, drain 2 s, learning, pause unset. */
void r8239_common_defaults(struct r8239_common *c);

/* Fill *spec for an N-port trial of t (results into r) of duration_s at
 * frame size f, with c's drain and, when learn, c's learning; every
 * stream of t gets c's DSCP. */
void r8239_trial_spec(struct bm_trial_spec *spec, const struct r8239_common *c,
		      uint32_t f, double duration_s, bool learn,
		      struct bm_traffic *t, struct bm_traffic_result *r);

/* A JSON array of be's port names [from, to). */
json_object *r8239_port_names_json(const struct bm_backend *be,
				   unsigned int from, unsigned int to);

/* Zero *t and add the backend's ports in order, each at its line rate;
 * 0, or -EINVAL with err set (no ports, a bad name). */
int r8239_traffic_ports(struct bm_traffic *t, const struct bm_backend *be,
			struct bm_error *err);

/* Append to dev one line per repeatability block in res whose RSD is
 * 10 % or more (RFC 8239 §1.2 SHOULD be below), naming where it is. */
void r8239_flag_rsd(json_object *res, json_object *dev);

/* What a latency of ev (enum bm_lat_event) less calibration constant
 * cal_ns (0: none) is, into res: latency_events (RFC 8238 §2.1 MUST),
 * cal_constant_subtracted and cal_constant_ns (§4.3 MUST, REQ-TS-5); and
 * into dev the departures: no calibration, not FILO, LIFO. */
void r8239_latency_said(json_object *res, json_object *dev, int ev,
			double cal_ns);

/* What one congestion trial's frame logs say of the measured egress
 * (REQ-BUF-1, buffer_log.c); times in s from the trial start. */
struct r8239_buf_log {
	bool lossy;			/* a frame into the egress was lost */
	double t_loss_s;		/* tx time of the earliest lost one */
	double t_plateau_s;		/* running max latency levels off */
	double first_tx_s;		/* the first frame into the egress */
	double l0_s;			/* smallest latency: the bare path */
	double lat_min_s, lat_max_s;	/* frames sent before t_loss */
	uint64_t sent_before;		/* frames taken up to t_loss */
	uint64_t left_before;		/* of them, gone before t_loss */
	uint64_t n_os;			/* oversubscription frames of those */
	double q_first_frames;		/* the egress's queue at t_loss; no
					 * loss: the largest it was */
	double q_frames;		/* the median over every loss of what
					 * the queue held at it; no loss: the
					 * largest it was */
	uint64_t n_losses;		/* losses the median is over */
	double service_fps;		/* the egress's departures from the
					 * first loss on (it stayed busy: the
					 * queue full, then draining) per
					 * second; NAN without a loss and two
					 * departures after it */
};

/* From the logs of r's streams idx[0..n) (all into the measured egress;
 * os the oversubscription stream's index in r or -1) fill *out, t_wire
 * being the egress's frame time; 0, or -EINVAL with err set when a log
 * does not hold every frame or no frame arrived. */
int r8239_buf_log_fill(const struct bm_traffic_result *r,
		       const unsigned int *idx, size_t n, int os,
		       double t_wire, struct r8239_buf_log *out,
		       struct bm_error *err);

/* --- the buffering tests (buffer.c, buffer_params.c, buffer_search.c) -- */

/* The most senders' streams of one congestion. */
#define R8239_BUF_MAX_FLOWS	(BM_TRAFFIC_MAX_PORTS + 2)

/* Each test's procedure name and SPEC reference, by enum r8239_buf_test
 * (buffer_params.c). */
extern const char *const r8239_buf_params_ids[];
extern const char *const r8239_buf_params_refs[];

/* One sender's stream of a congestion. */
struct r8239_buf_flow {
	unsigned int tx, rx;
	double pct;			/* % of line rate */
};

/* A congestion of one measured egress, with whatever else is loaded. */
struct r8239_buf_cong {
	unsigned int egress;
	unsigned int n;
	struct r8239_buf_flow fl[R8239_BUF_MAX_FLOWS];
	unsigned int ref;		/* a flow into egress: its frames are k */
	int os;				/* the oversubscription flow, or -1 */
	unsigned int iteration;		/* 1-based, for the report */
};

/* One run of a buffering test: where it is, what it counted so far. */
struct r8239_buf {
	struct bm_backend *be;
	const struct r8239_buf_params *p;
	bm_progress_fn progress;
	void *ctx;
	struct bm_error *err;
	struct bm_trial_log log;
	unsigned int n;
	uint32_t f;			/* frame size of this measurement */
	double t_wire;			/* its frame time at line rate */
	bool learned;
	unsigned int retried;		/* trials sent again, in all */
	unsigned int unconfirmed;	/* losses a run again did not repeat */
	/* trials run again with a longer loss wait: frames the egress
	 * still held when the wait ended arrived late (REQ-RX-3), lost to
	 * the counts, and the earliest of them read as the first loss */
	unsigned int drained_again;
	double drain_longest_s;		/* the longest wait that took */
	double search_late_s;		/* the latest generator of the search */
	/* iterations whose headline is Buf_q, not Buf_rfc: the egress
	 * did not serve at the line rate (the first one's reason kept) */
	unsigned int n_slow;
	char slow_why[320];
};

/* What the largest loss-free trial of a repetition showed. */
struct r8239_buf_fill {
	uint64_t k;			/* reference stream frames */
	uint64_t n_os;			/* oversubscription frames (BUF-2) */
	uint64_t sent;			/* frames to the egress */
	double span_s;			/* first to last departure */
	double lat_min_ns, lat_max_ns;
	double tx_late_max_s;		/* the module's account (REQ-GEN-6) */
	double search_late_s;		/* the same over the whole search */
	bool lower_bound;
	/* method log (REQ-BUF-1): the trial's frame logs' account */
	bool from_log;
	double q_frames;		/* median over the losses */
	double q_first_frames;		/* the egress's queue at t_loss */
	uint64_t n_losses;
	double t_loss_s, t_plateau_s;	/* from the trial start */
	double service_pct;		/* the egress busy, % of the line */
};

/* One repetition rep (1-based) of c's egress at frame size b->f: the
 * largest loss-free trial into *best, the first lossy one into *lossy
 * (buffer_search.c); 0, or -errno with b->err set. */
int r8239_buf_search(struct r8239_buf *b, const struct r8239_buf_cong *c,
		     unsigned int rep, struct r8239_buf_fill *best,
		     struct r8239_buf_fill *lossy);

#endif /* RFC8239_INT_H */

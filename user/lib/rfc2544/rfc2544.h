/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The six RFC 2544 §26 benchmarks (SPEC 7.3 R2544-THRPT, -LAT, -FLR, -B2B,
 * -RECOV, -RESET) over the trial backend.  Each run produces the REQ-REP-1
 * document minus meta: {procedure: {id, ref}, params, trials, results,
 * deviations}.  Rates are per direction; bidirectional results also carry
 * the aggregate (R2544-BIDIR).
 */
#ifndef RFC2544_H
#define RFC2544_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "bm_json.h"
#include "bm_search.h"
#include "bm_trial.h"
#include "bm_proc_info.h"

#define RFC2544_MAX_SIZES 16
#define RFC2544_MAX_BURSTS 8
#define RFC2544_MAX_IMIX 16
#define RFC2544_MAX_PROTOCOLS	2	/* §17: IPv4 and IPv6 */
#define RFC2544_IPV6_MIN	84	/* bmgen.ko: untagged IPv6 + TPLD */
/* App C C.2.2.2: the output side's phantom networks 198.19.65-254 */
#define RFC2544_NEW_NET_FIRST	65
#define RFC2544_NEW_NETS	190

enum rfc2544_test {
	RFC2544_THROUGHPUT = 0,	/* §26.1 R2544-THRPT */
	RFC2544_LATENCY,	/* §26.2 R2544-LAT */
	RFC2544_FRAME_LOSS,	/* §26.3 R2544-FLR */
	RFC2544_BACK_TO_BACK,	/* §26.4 R2544-B2B */
	RFC2544_RECOVERY,	/* §26.5 R2544-RECOV */
	RFC2544_RESET,		/* §26.6 R2544-RESET */
	RFC2544_N_TESTS,
};

/* RFC 1242 latency definition (R2544-LAT "MUST be stated"). */
enum rfc2544_lat_dest {
	RFC2544_LAT_SAME = 0,
	RFC2544_LAT_NEW_NET,
};

enum rfc2544_lat_def {
	RFC2544_LAT_BF = 0,	/* bit forwarding: first bit out -> first in */
	RFC2544_LAT_SF,		/* store and forward: last bit out -> first in */
};

enum rfc2544_reset_type {
	RFC2544_RESET_HARDWARE = 0,
	RFC2544_RESET_SOFTWARE,
	RFC2544_RESET_POWER,
};

/* Where §11.4's 25-filter list puts its permit rule (AMB-25): last
 * (§11.4's prose) or 13th (§11.4.1's list). */
/* §12: App C's output-side networks 198.19.65.0/24 .. 198.19.254.0/24 */
#define RFC2544_RANDOM_NETWORKS	190
#define RFC2544_RANDOM_MACS	256	/* SPEC AMB-06's K */
#define RFC2544_RANDOM_MACS_MAX	65536

enum rfc2544_filter_order {
	RFC2544_FILTER_LAST = 0,
	RFC2544_FILTER_RFC1141,
};

/* R2544-ROUTE (§13): how the DUT has its routes to the trial's
 * destination networks beyond its own */
enum rfc2544_route_setup {
	RFC2544_ROUTES_STATIC = 0,	/* configured on the DUT */
	RFC2544_ROUTES_RIP,		/* a RIP v1 update before each trial */
};

struct rfc2544_params {
	/* Common (R2544-SIZES, R2544-BIDIR, PLAT-TRIAL, R2544-MAXRATE). */
	uint32_t frame_sizes[RFC2544_MAX_SIZES];
	size_t n_sizes;
	enum bm_topology topology;
	bool learning;
	double learning_pause_s;	/* §23b: 2 s */
	double drain_s;			/* REQ-TRIAL-1 step 4 */
	double restabilise_s;		/* step 5, §23e: >= 5 s */
	double max_rate_pct;		/* of the slowest link's fps_max */
	double slowest_link_bps;	/* 0 = the tester's line rate */

	/* Throughput search, also used first by LAT, RECOV and RESET. */
	enum bm_search_kind search;
	double r_min_pct;		/* % of r_max */
	double start_rate_pct;		/* % of r_max */
	double resolution_pct;		/* % of the result (relative) ... */
	double resolution_fps;		/* ... or absolute when > 0 */
	double thr_search_trial_s;
	double thr_final_trial_s;
	uint64_t loss_tolerance_frames;
	double mlr_final_relative_width;
	double mlr_initial_trial_s;
	double mlr_expansion_coefficient;
	double mlr_timeout_s;
	unsigned int mlr_intermediate_phases;
	/* Known throughput per size (skip measuring it); 0 = measure. */
	double throughput_fps[RFC2544_MAX_SIZES];

	/* The data stream of THRPT and FLR (R2544-MOD, -BURSTY, -MIX): one
	 * modifier at a time (§11), none = a constant stream. */
	/* §21: bursts of burst_sizes[k] frames back to back at line rate,
	 * each size its own search or table; the rate is their average */
	uint32_t burst_sizes[RFC2544_MAX_BURSTS];
	size_t n_bursts;
	/* §17/§18 (R2544-MIX, REQ-2544-5): one search with frames of these
	 * sizes in these proportions (weights sum to at most 64, the
	 * module's cycle), in place of frame_sizes; n_imix 0 = none */
	uint32_t imix_sizes[RFC2544_MAX_IMIX];
	unsigned int imix_weights[RFC2544_MAX_IMIX];
	size_t n_imix;
	/* §17 (R2544-MIX): the test frames spread over these IP versions
	 * (4, 6) by these weights, each its own stream from the tx port,
	 * interleaved; n_protocols 1 = IPv4 only */
	uint8_t protocols[RFC2544_MAX_PROTOCOLS];
	unsigned int protocol_weights[RFC2544_MAX_PROTOCOLS];
	size_t n_protocols;
	/* §11.1: this % of the frames to the hardware broadcast address,
	 * evenly spread; 0 = none (§11.1 SHOULD: 1) */
	double broadcast_pct;
	/* §11.4 (R2544-MOD filters, AMB-25): the filter condition the DUT
	 * was set up with, 0 (none), 1 or 25 filters; with filters the test
	 * stream is 198.18.1.2 -> 198.19.65.2 and probe_pct % of the frames
	 * come from the denied addresses, to show that the filters act */
	unsigned int filters;
	enum rfc2544_filter_order filter_order;
	double probe_pct;
	/* §11.2 (R2544-MOD management, C.2.4.3, AMB-24): one SNMPv1
	 * GetRequest for C.2.4.3's variables of interface mgmt_ifindex to
	 * the agent at mgmt_agent as the first frame of each second of every
	 * trial, from the tx port, in place of a test frame */
	bool management;
	uint8_t mgmt_agent[4];
	char mgmt_community[64];
	unsigned int mgmt_ifindex;
	/* §12 (R2544-ADDR, AMB-05): random destination addresses, frame by
	 * frame over 198.19.(65 + k).2, k uniform in [0, random_networks)
	 * from random_seed (bmgen_flow_pick); 0 = one destination */
	unsigned int random_networks;
	/* the same for a bridge (AMB-06): to one of random_macs unicast
	 * MACs (bmgen_flow_mac(random_seed, k)), learnt behind the rx
	 * port; 0 = the rx port's MAC */
	unsigned int random_macs;
	unsigned int random_seed;
	/* §13 (R2544-ROUTE, REQ-2544-4): with route_setup rip, every
	 * trial's destination networks beyond the rx port's own /24 in RIP
	 * v1 updates from the rx port's phantom router, route_lead_s before
	 * the stream (REQ-TRIAL-2: 7 s), repeated every 30 s (C.2.3) */
	enum rfc2544_route_setup route_setup;
	double route_lead_s;
	/* §11.3 (R2544-MOD routing update): update "A" as the trial's
	 * first frame, then "B", "A", ... every routing_interval_s (C.2.3:
	 * 30 s for RIP), alternating over the whole run */
	bool routing_updates;
	double routing_interval_s;

	/* R2544-LAT */
	double lat_trial_s;
	double lat_tag_at_s;
	unsigned int lat_repetitions;
	unsigned int lat_max_invalid;
	enum rfc2544_lat_def lat_definition;
	/* §26.2: the tagged frame "addressed to the same destination as
	 * the rest of the data stream" or, NEW_NET, repetition k's to
	 * 198.19.(65 + k mod 190).2, a new destination network */
	enum rfc2544_lat_dest lat_destination;
	double lat_ts_accuracy_ns;	/* calibrated; 0 = the backend's */

	/* R2544-FLR */
	double flr_trial_s;
	double flr_step_pct;

	/* R2544-B2B */
	uint64_t b2b_burst_max;		/* 0 = fps_max(F) x 1 s */
	double b2b_trial_s;
	unsigned int b2b_repetitions;

	/* R2544-RECOV */
	double rec_overload_s;
	double rec_observe_s;
	unsigned int rec_repetitions;

	/* R2544-RESET */
	double reset_trial_s;
	double reset_at_s;
	double gap_threshold_s;		/* 0 = max(10 ms, 100 frame times) */
	unsigned int reset_repetitions;
	enum rfc2544_reset_type reset_type;
	/* The name of one of bmd's configured resets (procedures.c runs
	 * its command); "" = none */
	char reset[33];
	double reset_timeout_s;		/* the command is killed after this */
	/* The DUT reset hook, called mid-trial at reset_at_s (not JSON). */
	int (*reset_hook)(void *ctx);
	void *reset_ctx;
};

/* Procedure name ("rfc2544.throughput", ...) and reference of test t, as
 * the result document states them; the registry (procedures.c) finds a
 * procedure by name, this library never does. */
const char *rfc2544_name(enum rfc2544_test t);
const char *rfc2544_ref(enum rfc2544_test t);

/* The bm_jkey mask of the keys of rfc2544_keys[] that test t takes. */
#define RFC2544_MASK(t)	(1u << (t))

/* Every RFC 2544 parameter, NULL-key-terminated, with its unit and help;
 * an entry applies to the tests whose RFC2544_MASK() its mask holds. */
extern const struct bm_param rfc2544_keys[];

/* Fill *p with the SPEC defaults of test t (frame sizes 64..1518; reset:
 * 64 only). */
void rfc2544_params_default(struct rfc2544_params *p, enum rfc2544_test t);

/* The mean frame size of p's IMIX (0 when none). */
double rfc2544_imix_mean(const struct rfc2544_params *p);

/* p's IMIX as "S:W,S:W,..." into buf (len bytes); "" when none. */
void rfc2544_imix_text(const struct rfc2544_params *p, char *buf, size_t len);
/* §17: p's protocols as "ipv4:W,ipv6:W" into buf (len bytes). */
void rfc2544_protocols_text(const struct rfc2544_params *p, char *buf,
			    size_t len);

/* Does p ask for anything but IPv4 frames only (§17)? */
static inline bool rfc2544_protocol_mix(const struct rfc2544_params *p)
{
	return p->n_protocols > 1 || p->protocols[0] != 4;
}

/* Does p send IPv6 frames? */
static inline bool rfc2544_has_ipv6(const struct rfc2544_params *p)
{
	size_t i;

	for (i = 0; i < p->n_protocols; i++)
		if (p->protocols[i] == 6)
			return true;
	return false;
}

/*
 * Parse JSON params for test t over the defaults in *p, strictly: unknown
 * keys, wrong types and out-of-range values give -EINVAL and a one-line
 * reason naming the key.  Cross-field rules are checked too.
 */
int rfc2544_params_from_json(json_object *obj, enum rfc2544_test t,
			     struct rfc2544_params *p, struct bm_error *err);

/* The shortest trial test t's parameters p run, in s (a search's first
 * trials, or the test's own). */
double rfc2544_shortest_trial_s(const struct rfc2544_params *p,
				enum rfc2544_test t);

/*
 * The most trials test t may run with p (parsed): every search, rate step
 * and repetition at its worst, the throughput measured first included.
 * bmd refuses a job above its limit up front.
 */
double rfc2544_max_trials(const struct rfc2544_params *p, enum rfc2544_test t);

/* The time limit of a search mlr per size: mlr_timeout_s, or unset the
 * scaled default (rfc2544_keys). */
double rfc2544_mlr_timeout_s(const struct rfc2544_params *p);

/* The effective parameters of test t as a new JSON object. */
json_object *rfc2544_params_to_json(const struct rfc2544_params *p,
				    enum rfc2544_test t);

/*
 * Run test t on be.  On 0 and -ECANCELED *doc is a new result document
 * (REQ-REP-1 minus meta) owned by the caller; on other errors *doc holds
 * what was done so far (or NULL) and err says why.
 */
int rfc2544_run(enum rfc2544_test t, struct bm_backend *be,
		const struct rfc2544_params *p, bm_progress_fn progress,
		void *ctx, json_object **doc, struct bm_error *err);

/* The RFC 2544 benchmarks as the registry offers them (rfc2544_procs.c):
 * one row a §26 test, ending with a NULL name. */
extern const struct bm_procedure_info rfc2544_procedures[];

#endif /* RFC2544_H */

/* SPDX-License-Identifier: GPL-2.0 */
/* Internals shared by the rfc2544_*.c files; not a public interface. */
#ifndef RFC2544_INT_H
#define RFC2544_INT_H

#include "bm_json.h"
#include "rfc2544.h"

/* Which tests a key applies to (rfc2544_keys.c's table, and what the
 * parameters' JSON and bounds read of it). */
#define M(t)	RFC2544_MASK(t)
#define M_THR	M(RFC2544_THROUGHPUT)
#define M_LAT	M(RFC2544_LATENCY)
#define M_FLR	M(RFC2544_FRAME_LOSS)
#define M_B2B	M(RFC2544_BACK_TO_BACK)
#define M_REC	M(RFC2544_RECOVERY)
#define M_RST	M(RFC2544_RESET)
#define M_NEED	(M_LAT | M_REC | M_RST)	/* measure throughput first */
#define M_SRCH	(M_THR | M_NEED)
#define M_ALL	0x3fu

struct r2544_stream;
struct bm_traffic;
struct bm_stream_spec;
struct bm_frame_template;

/*
 * One measurement of a THRPT or FLR run: a frame size and, with bursts
 * (§21), one burst size.
 */
struct r2544_case {
	size_t i;			/* index into frame_sizes[] */
	uint32_t f;			/* frame size; an IMIX: its mean rounded,
					 * the trial records' nominal size */
	uint32_t burst;			/* frames per burst; 0 = steady */
	bool mix;			/* the IMIX of the parameters */
	double size;			/* f, or the IMIX's mean size: what
					 * every rate and limit is of */
};

/* State of one benchmark run. */
struct r2544_run {
	enum rfc2544_test test;
	/* The backend the trials run on: the job's, or with a modifier the
	 * stream backend over it (rfc2544_stream.c). */
	struct bm_backend *be;
	struct r2544_stream *stream;	/* NULL without a modifier */
	const struct rfc2544_params *p;
	bm_progress_fn progress;
	void *ctx;
	struct bm_error *err;
	struct bm_trial_log log;
	json_object *results;		/* per-size entries */
	json_object *deviations;	/* strings, each once */
	unsigned int new_nets;		/* §26.2 new-net: networks used */
	/* A procedure's own parameters beyond p (r2544_run_doc), or NULL */
	const void *ext;
};

/* A benchmark body: fill r->results; 0 or -errno. */
typedef int (*r2544_body)(struct r2544_run *r);

/*
 * Run body as test t's (its data stream for THRPT and FLR, §23e between
 * trials) with p, ext in r->ext, and make *doc the result document of the
 * procedure name, ref and params (taken): as rfc2544_run() does.
 */
int r2544_run_doc(enum rfc2544_test t, r2544_body body, const char *name,
		  const char *ref, json_object *params, struct bm_backend *be,
		  const struct rfc2544_params *p, const void *ext,
		  bm_progress_fn progress, void *ctx, json_object **doc,
		  struct bm_error *err);

/* The per-test bodies: fill r->results; 0 or -errno. */
int r2544_throughput(struct r2544_run *r);
int r2544_latency(struct r2544_run *r);
int r2544_frame_loss(struct r2544_run *r);
int r2544_back_to_back(struct r2544_run *r);
int r2544_recovery(struct r2544_run *r);
int r2544_reset(struct r2544_run *r);

/*
 * The data stream types of R2544-MOD/-BURSTY as a backend: a CBR pair
 * trial on it becomes an N-port trial on inner with p's modifier (bursts
 * of the current case's size), the result the test frames'.  NULL with
 * err set when inner has no two port names.
 */
struct r2544_stream *r2544_stream_new(struct bm_backend *inner,
				      const struct rfc2544_params *p,
				      struct bm_error *err);
/* The backend view of s, for trials and searches. */
struct bm_backend *r2544_stream_backend(struct r2544_stream *s);
/* Make the trials that follow those of case c. */
void r2544_stream_set_case(struct r2544_stream *s, const struct r2544_case *c);
void r2544_stream_free(struct r2544_stream *s);
/*
 * With broadcast frames (§11.1), add to throughput entry e their share of
 * throughput thr (NAN: none) and what the trial at thr sent and received
 * of them, that trial searched for in r's log from record first on; a
 * clause to the statement stmt (len bytes) when not NULL.
 */
void r2544_stream_report(struct r2544_run *r, json_object *e, double thr,
			 size_t first, char *stmt, size_t len);
/* §17: add entry e's "protocols" array from r's trials [first, n): each
 * protocol's weight and test frames sent and received over them. */
void r2544_protocols_report(struct r2544_run *r, json_object *e,
			    size_t first);
/* The deviations and interpretations of r's data stream, once each. */
void r2544_stream_deviations(struct r2544_run *r);

/* §11.4 (rfc2544_filters.c): the names of enum rfc2544_filter_order. */
extern const char *const rfc2544_filter_order_names[];
/* Address pair k of the filters: 0 the permitted one (the test stream),
 * 1..24 the denied ones (AMB-25). */
void r2544_filter_pair(unsigned int k, uint8_t src[4], uint8_t dst[4]);
/* The rules p's filter condition means, as strings in the DUT's order. */
json_object *r2544_filter_rules(const struct rfc2544_params *p);
/* Add test, a counted stream of r fps over d s, to t as the permitted
 * pair's, and the probe streams of the denied pairs in place of
 * probe_pct % of its frames; 0 or -errno with err set. */
int r2544_filter_streams(const struct rfc2544_params *p, struct bm_traffic *t,
			 const struct bm_stream_spec *test, double r, double d,
			 struct bm_error *err);
/* Add entry e's "filters" object from r's trials [first, n): the rules,
 * the probe counts, the test frames' part of throughput thr (NAN: none);
 * a probe received replaces "result" (not "ok") and, when stmt is not
 * NULL, the statement (len bytes), else a clause is added to it. */
void r2544_filter_report(struct r2544_run *r, json_object *e, size_t first,
			 double thr, char *stmt, size_t len);
/* The filters' deviations and interpretations, once each. */
void r2544_filter_deviations(struct r2544_run *r);

/* §11.2 (rfc2544_mgmt.c): add entry e's "management" object from r's
 * trials [first, n), and a clause to the statement stmt (len bytes) when
 * not NULL. */
void r2544_mgmt_report(struct r2544_run *r, json_object *e, size_t first,
		       char *stmt, size_t len);
/* The management queries' interpretation, once. */
void r2544_mgmt_deviations(struct r2544_run *r);

/* §13 and §11.3 (rfc2544_routes.c): the names of enum
 * rfc2544_route_setup. */
extern const char *const rfc2544_route_setup_names[];
/* t's routing updates from p (after its streams): §13's for every
 * destination network beyond its rx port's /24, §11.3's A and B, the one
 * ab_next says (even "A", odd "B") first; 0 or -E2BIG with err set. */
int r2544_route_msgs(const struct rfc2544_params *p, struct bm_traffic *t,
		     unsigned int ab_next, struct bm_error *err);
/* After a trial of t: res's route_setup_sent and routing_ab from its
 * rip_sent, *ab_next advanced by the §11.3 updates it sent. */
void r2544_route_result(const struct rfc2544_params *p,
			const struct bm_traffic *t, unsigned int *ab_next,
			struct bm_trial_result *res);
/* Add entry e's "routing" object from r's trials [first, n). */
void r2544_route_report(struct r2544_run *r, json_object *e, size_t first);
/* The routing updates' deviations and interpretations, once each. */
void r2544_route_deviations(struct r2544_run *r);

/* §12 (rfc2544_random.c): the frame of p's random destinations: to
 * 198.19.65.2 + k networks, seeded. */
void r2544_random_frame(const struct rfc2544_params *p,
			struct bm_frame_template *fr);
/* The frames of one trial that attempted n, per destination network k
 * (counts[0 .. p->random_networks)), added to counts. */
void r2544_random_count(const struct rfc2544_params *p, uint64_t n,
			uint64_t *counts);
/* Add entry e's "random_destinations" object from r's trials [first, n):
 * the networks, the seed, the frames sent to each network over those
 * trials and their chi-square test of uniformity (SPEC R2544-ADDR). */
void r2544_random_report(struct r2544_run *r, json_object *e, size_t first);
/* §12's interpretations, once. */
void r2544_random_deviations(struct r2544_run *r);

/* §23e (rfc2544_settle.c): a view of inner that waits settle_s before
 * each trial but its first; NULL when out of memory. */
struct bm_backend *r2544_settle_new(struct bm_backend *inner, double settle_s);
void r2544_settle_free(struct bm_backend *be);

/* Does p ask THRPT or FLR for a modified data stream? */
bool r2544_stream_wanted(const struct rfc2544_params *p);

/*
 * The cases of a THRPT or FLR run: every frame size, times every burst
 * size with bursts; into c[0..max), their count returned.
 */
size_t r2544_cases(const struct rfc2544_params *p, struct r2544_case *c,
		   size_t max);

/* Add the entry keys of case c: frame_size, burst_frames, stream_type. */
void r2544_case_json(const struct r2544_run *r, const struct r2544_case *c,
		     json_object *e);

/*
 * RFC 2544 §26.4's burst-length search (rfc2544_back_to_back.c), for
 * rfc2544.back-to-back and RFC 9004's update of it (rfc9004_b2b.c): the
 * state of one frame size's bursts.
 */
struct r2544_b2b {
	struct r2544_run *r;
	uint32_t f;
	uint64_t max;
	unsigned int rep;
	/* RFC 9004 §6.2's trial (r2544_b2b_trial_s) when depletion_s > 0:
	 * the line's and the throughput's rates, in fps; else every trial
	 * lasts the run's b2b_trial_s (RFC 2544 §26.4) */
	double line_fps, thr_fps, depletion_s;
	/* Achieved intensity ([2544 §26.4] "minimum inter-frame gap",
	 * R2544-B2B): the slowest and the summed rate of the bursts sent,
	 * from the generator's own first and last departure, in fps. */
	double min_fps, sum_fps;
	unsigned int n_fps;
	/* Bursts that failed because the generator fell short, not the
	 * DUT: they say nothing of the DUT (REQ-GEN-6). */
	unsigned int n_limited;
	/* the last burst failed that way, after B2B_ATTEMPTS sendings */
	bool inconclusive;
	/* the shortest such burst that bounded a repetition's answer
	 * from above (0 = none): the answer is the generator's, not the
	 * DUT's */
	uint64_t bound;
};

/* RFC 9004 §6.2: the duration of b's trial of a burst of n frames. */
double r2544_b2b_trial_s(const struct r2544_b2b *b, uint64_t n);
/* Send a burst of n frames back to back (again while the generator
 * leaves gaps); *pass: no frame lost and the burst the line's; 0 or
 * -errno. */
int r2544_b2b_burst(struct r2544_b2b *b, uint64_t n, const char *why,
		    bool *pass);
/* One repetition: the longest loss-free burst in [lo, hi) given that lo
 * passes (0 always does) and hi fails, the generator's failing if
 * hi_lim, into *out; a bound of the generator's is kept in b->bound. */
int r2544_b2b_bisect(struct r2544_b2b *b, uint64_t lo, uint64_t hi,
		     bool hi_lim, uint64_t *out);
/* Add e's achieved burst intensity in % of line rate, min and mean, and
 * the bursts the generator fell short of. */
void r2544_b2b_intensity(const struct r2544_b2b *b, json_object *e,
			 double line_fps);

/* Record a deviation/interpretation in effect (once per text). */
static inline void r2544_deviation(struct r2544_run *r, const char *text)
{
	bm_json_add_str_once(r->deviations, text);
}

/* R2544-MAXRATE: highest offered rate for (mean) frame size f, per
 * direction. */
double r2544_r_max(const struct r2544_run *r, double f);

/* fps_max (F-1) of a (mean) frame size f on a line of line_bps. */
double r2544_fps_max(double line_bps, double f);

/* The ports that send the trial's rate each: 1 for a pair, 2 both ways,
 * half of the job's ports for multiport, all of them for mesh. */
unsigned int r2544_senders(const struct r2544_run *r);

/* Add <prefix>_fps, _l1_bps, _l2_bps, _pct_line (and _aggregate_fps, the
 * rate of all r2544_senders(), when more than one port sends) for a
 * per-port rate of frames of (mean) size f (SPEC 2.3, F-4; an IMIX's L1
 * rate is of its mean size + 20 B). */
void r2544_add_rate(const struct r2544_run *r, json_object *o,
		    const char *prefix, double fps, double f);

/*
 * Throughput of size index i (frame size f): the caller's value when given,
 * else measured with the configured search; entry gets the details.
 * *thr = 0 with *ok false when no rate passed ("throughput < r_min").
 */
int r2544_get_throughput(struct r2544_run *r, size_t i, uint32_t f,
			 json_object *entry, double *thr, bool *ok);
/* The same for case c, on the run's data stream. */
int r2544_case_throughput(struct r2544_run *r, const struct r2544_case *c,
			  json_object *entry, double *thr, bool *ok);

/* Set entry's "result" of a benchmark whose throughput (entry from
 * r2544_get_throughput, not ok) is unknown: "not measured: " and why;
 * and each key of the NULL-terminated values (the benchmark's own report
 * items, RFC 2544 §26) null, so the row has every column it would have
 * had, with the reason beside it. */
void r2544_result_no_throughput(json_object *entry,
				const char *const *values);

/* Run, log and report one trial. */
int r2544_trial(struct r2544_run *r, const struct bm_trial_spec *spec,
		struct bm_trial_result *res, const char *phase,
		const char *reason);

/* A CBR spec with the run's topology, learning and drain. */
void r2544_spec(const struct r2544_run *r, struct bm_trial_spec *spec,
		uint32_t f, double rate_fps, double duration_s);

/* Sample mean, standard deviation (n - 1), min and max of v[0..n); all
 * NAN when n is 0. */
void r2544_stats(const double *v, size_t n, double *mean, double *sd,
		 double *min, double *max);

#endif /* RFC2544_INT_H */

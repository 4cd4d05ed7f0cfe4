// SPDX-License-Identifier: GPL-2.0
/*
 * RFC 8239 §4 microburst (R8239-MB, SPEC §8.3): the largest burst that
 * N-j ingress ports, bursting together at 100 % intensity to j egress
 * ports, get through the DUT without loss.
 *
 * A burst of n frames from one port is n frames at the intensity, sent
 * round robin over the iteration's egress ports (AMB-31): stream k of an
 * ingress port carries its frames k, k + j, ... as a counted stream at
 * intensity / j % with phase k / j, so that the port's frames leave one
 * frame time apart (at 100 %) and alternate over the egress ports.  All
 * ports start at the same epoch (start_s; REQ-GEN-5).
 *
 * Search (AMB-36): n = 1, 2, 4, ... while a burst is loss-free, then
 * bisection between the last loss-free and the first lossy n, to one
 * frame; growth "linear" adds one frame instead.  No loss up to burst_max
 * is reported as a lower bound ("no congestion possible" when N-j <= j).
 * A burst the generator could not send whole (a stream sent fewer frames
 * than asked) is sent again, up to `retries` times, and says so: it did
 * not test the DUT.  One sent whole but later than its schedule (more
 * than 10 us of frames, REQ-GEN-6) did test it, at a lower intensity
 * than asked: it counts, its trial says generator_limited, and the
 * result says how many there were and the lowest intensity reached.
 *
 * What each repetition reports (RFC 8239 §4.3, RFC 8238 §6): the loss-free
 * burst per ingress port and in aggregate, the frames each ingress port
 * got through at that burst, the achieved intensity (F-10) from the
 * generator's own first and last departure of every port, the start skew
 * of the ports' first frames and the percentage of synchronisation (F-11:
 * their overlap, in % of one frame time; 0 flags "not an incast").
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bm_json.h"
#include "bm_repeat.h"
#include "bm_result.h"
#include "bm_search.h"
#include "bm_traffic.h"
#include "rfc8239_int.h"

#define MB_MAX_REPEAT	R8239_MAX_REPEAT

static const char *const growth_names[] = { "doubling", "linear", NULL };

#define MO(f)	offsetof(struct r8239_mb_params, f)

const struct bm_param r8239_mb_keys[] = {
	{ { "frame_size", BM_J_U32, MO(frame_size), 64, 9216, 0, 0, NULL,
	    NULL }, "B", "frame size with FCS, one per run [PROPOSED 64]",
	  NULL },
	{ { "intensity_pct", BM_J_DOUBLE, MO(intensity_pct), 0, 100,
	    BM_JK_MIN_EXCL, 0, NULL, NULL }, "%",
	  "burst intensity (RFC 8238 §6.1.1); the RFC's MUST is 100, other "
	  "values are reported as a deviation", NULL },
	{ { "iteration", BM_J_UINT, MO(iteration), 0, 254, 0, 0, NULL, NULL },
	  "", "j of the N-j -> j iteration to run; 0 runs j = 1 .. N-2", NULL },
	{ { "growth", BM_J_ENUM, MO(growth), 0, 0, 0, 0, growth_names, NULL },
	  "", "doubling then bisection (AMB-36), or linear: +1 frame a trial",
	  NULL },
	{ { "burst_max", BM_J_U64, MO(burst_max), 1, 1e9, 0, 0, NULL, NULL },
	  "frames", "largest burst per ingress port tried", NULL },
	{ { "start_s", BM_J_DOUBLE, MO(start_s), 0, 10, 0, 0, NULL, NULL }, "s",
	  "lead time before all ports start their bursts together", NULL },
	{ { "offset_s", BM_J_DOUBLE, MO(offset_s), 0, 1, 0, 0, NULL, NULL },
	  "s", "start the last ingress port this much later (a deliberate "
	  "loss of synchronisation) [EXTENSION]", NULL },
	{ { "retries", BM_J_UINT, MO(retries), 0, 10, 0, 0, NULL, NULL }, "",
	  "re-sends of a burst the generator could not send whole", NULL },
	R8239_COMMON_KEYS(MO, "iteration"),
	{ { NULL, 0, 0, 0, 0, 0, 0, NULL, NULL }, NULL, NULL, NULL },
};

void r8239_mb_defaults(struct r8239_mb_params *p)
{
	*p = (struct r8239_mb_params){
		.frame_size = 64,		/* [PROPOSED] */
		.intensity_pct = 100.0,		/* [8239 §4.2] MUST */
		.iteration = 0,
		.growth = R8239_GROWTH_DOUBLING,
		.burst_max = 100000,		/* [PROPOSED] */
		.start_s = 0.01,
		.retries = 3,
	};
	r8239_common_defaults(&p->c);
}

double r8239_mb_max_trials(const struct r8239_mb_params *p,
			   unsigned int n_ports)
{
	double bits = ceil(log2((double)p->burst_max)), points;
	unsigned int iters = p->iteration ? 1 : (n_ports > 2 ? n_ports - 2 : 1);

	/* doubling: 1 .. burst_max, then bisection of the last doubling;
	 * linear: one burst a frame up to burst_max */
	points = p->growth == R8239_GROWTH_LINEAR ? (double)p->burst_max :
		 2.0 * bits + 1.0;
	return (double)iters * p->c.repeat * points * (p->retries + 1.0);
}

int r8239_mb_check(const struct r8239_mb_params *p, struct bm_error *err)
{
	if (p->growth == R8239_GROWTH_LINEAR && p->burst_max > 100000)
		return bm_errorf(err, "rfc8239.microburst: burst_max: at most "
				 "100000 with growth linear (one trial a frame)");
	return 0;
}

/* One run of the procedure. */
struct mb {
	struct bm_backend *be;
	const struct r8239_mb_params *p;
	bm_progress_fn progress;
	void *ctx;
	struct bm_error *err;
	struct bm_trial_log log;
	unsigned int n;			/* ports */
	double t_wire;			/* one frame at line rate, s */
	bool learned;			/* learning sent in this iteration */
	unsigned int retried;		/* bursts sent again, in all */
	/* bursts sent whole but later than their schedule, and the lowest
	 * intensity any burst achieved (F-10) */
	unsigned int late;
	double low_intensity_pct;
};

/* What one burst trial showed. */
struct burst {
	uint64_t n;			/* frames per ingress port */
	uint64_t lost;
	bool spoiled;			/* the generator fell short */
	bool late;			/* sent whole, but stretched */
	double intensity_pct;		/* F-10, smallest of the ports */
	double skew_s;			/* REQ-GEN-5 start skew */
	double sync_pct;		/* F-11 */
	double span_s;			/* first bit of the first frame to the
					 * last bit of the last, all ports */
	uint64_t rx_per_port[BM_TRAFFIC_MAX_PORTS];	/* by ingress port */
};

/* The streams of iteration j, n frames per ingress port (see the top). */
static int mb_traffic(struct mb *m, unsigned int j, uint64_t n,
		      struct bm_traffic *t)
{
	const struct r8239_mb_params *p = m->p;
	struct bm_stream_spec s;
	unsigned int i, k;
	uint64_t c;

	if (r8239_traffic_ports(t, m->be, m->err))
		return -EINVAL;
	for (i = 0; i < m->n - j; i++) {
		for (k = 0; k < j; k++) {
			c = n > k ? (n - k + j - 1) / j : 0;
			if (!c)
				continue;
			bm_stream_init(&s, i, m->n - j + k,
				       p->intensity_pct / j);
			s.pattern = BM_STREAM_COUNT;
			s.count = c;
			s.phase = (double)k / j;
			s.start_s = p->start_s +
				    (i == m->n - j - 1 ? p->offset_s : 0.0);
			if (bm_traffic_add_stream(t, &s, m->err) < 0)
				return -ENOMEM;
		}
	}
	return bm_traffic_check(t, p->frame_size, m->err);
}

/* F-10 and F-11 of a trial from the generator's own departures. */
static void mb_timing(struct mb *m, const struct bm_traffic *t,
		      const struct bm_traffic_result *r, unsigned int n_in,
		      uint64_t n, struct burst *b)
{
	double first[BM_TRAFFIC_MAX_PORTS], last[BM_TRAFFIC_MAX_PORTS];
	double lo = INFINITY, hi = -INFINITY, end = -INFINITY, span, in;
	unsigned int i, s;

	for (i = 0; i < n_in; i++) {
		first[i] = INFINITY;
		last[i] = -INFINITY;
	}
	for (s = 0; s < t->n_streams; s++) {
		const struct bm_stream_result *sr = &r->streams[s];

		i = t->streams[s].tx_port;
		b->rx_per_port[i] += sr->received;
		if (sr->first_tx_s >= 0.0)
			first[i] = fmin(first[i], sr->first_tx_s);
		if (sr->last_tx_s >= 0.0)
			last[i] = fmax(last[i], sr->last_tx_s);
	}
	b->intensity_pct = 100.0;
	for (i = 0; i < n_in; i++) {
		if (!isfinite(first[i]) || !isfinite(last[i])) {
			b->intensity_pct = NAN;
			b->skew_s = b->sync_pct = b->span_s = NAN;
			return;
		}
		lo = fmin(lo, first[i]);
		hi = fmax(hi, first[i]);
		end = fmax(end, last[i]);
		/* F-10: the wire time of the burst over the time it took,
		 * first bit of the first frame to the last bit of the last;
		 * a virtual port may send faster than its notional line, so
		 * the value is capped at 100. */
		span = last[i] - first[i] + m->t_wire;
		in = 100.0 * (double)n * m->t_wire / span;
		b->intensity_pct = fmin(b->intensity_pct, fmin(in, 100.0));
	}
	b->skew_s = hi - lo;
	b->span_s = end - lo + m->t_wire;
	/* F-11: the first frames of all ingress ports overlap for one frame
	 * time less the skew. */
	b->sync_pct = 100.0 * fmax(0.0, m->t_wire - b->skew_s) / m->t_wire;
}

/* Send one burst of n frames per ingress port in iteration j. */
static int mb_burst(struct mb *m, unsigned int j, unsigned int rep, uint64_t n,
		    const char *why, struct burst *b)
{
	const struct r8239_mb_params *p = m->p;
	unsigned int n_in = m->n - j, s, attempt;
	struct bm_traffic_result *r = NULL;
	struct bm_trial_spec spec;
	struct bm_trial_result res;
	struct bm_traffic t;
	char reason[96];
	int ret;

	memset(b, 0, sizeof(*b));
	b->n = n;
	ret = mb_traffic(m, j, n, &t);
	if (ret)
		goto out;
	for (attempt = 0; attempt <= p->retries; attempt++) {
		bm_traffic_result_free(r);
		r = bm_traffic_result_new(&t);
		if (!r) {
			bm_errorf(m->err, "out of memory");
			ret = -ENOMEM;
			goto out;
		}
		/* The burst, then a margin for a late generator: the
		 * module sends a counted stream whole, and the drain wait
		 * starts when it is done. */
		r8239_trial_spec(&spec, &p->c, p->frame_size, p->start_s +
				 p->offset_s + 1.1 * (double)n * m->t_wire * 100.0 /
				 p->intensity_pct + 0.001, !m->learned, &t, r);
		snprintf(reason, sizeof(reason), "j=%u rep %u: %s n=%llu%s", j,
			 rep, why, (unsigned long long)n,
			 attempt ? " (again: generator fell short)" : "");
		ret = bm_search_trial(m->be, &spec, &res, &m->log, "microburst",
				      reason, m->progress, m->ctx, m->err);
		if (ret)
			goto out;
		m->learned = true;
		b->spoiled = false;
		for (s = 0; s < t.n_streams; s++)
			if (r->streams[s].sent < t.streams[s].count)
				b->spoiled = true;
		if (!b->spoiled)
			break;
		m->retried++;
	}
	/* REQ-GEN-6: sent whole, but later than the schedule (duration
	 * stretching): a milder burst than asked, which the DUT did see;
	 * the trial says generator_limited and the result counts it */
	b->late = !b->spoiled && res.generator_limited;
	m->late += b->late;
	b->lost = res.lost;
	mb_timing(m, &t, r, n_in, n, b);
	if (isfinite(b->intensity_pct))
		m->low_intensity_pct = fmin(m->low_intensity_pct,
					    b->intensity_pct);
out:
	bm_traffic_result_free(r);
	bm_traffic_free(&t);
	return ret;
}

/* A burst the generator spoiled even after its retries tested nothing:
 * the search stops with an error rather than guess. */
static int mb_pass(struct mb *m, const struct burst *b, bool *pass)
{
	if (b->spoiled)
		return bm_errorf(m->err, "rfc8239.microburst: the generator "
				 "could not send a burst of %llu frames per "
				 "port whole in %u attempts",
				 (unsigned long long)b->n, m->p->retries + 1);
	*pass = b->lost == 0;
	return 0;
}

/* One repetition of iteration j: the largest loss-free burst per port in
 * *ok (0 when one frame already lost), *bounded when none was lossy up to
 * burst_max, and the loss-free burst's own trial in *best. */
static int mb_search(struct mb *m, unsigned int j, unsigned int rep,
		     uint64_t *ok, bool *bounded, struct burst *best,
		     struct burst *lossy)
{
	const struct r8239_mb_params *p = m->p;
	uint64_t n = 1, lo = 0, hi = 0;
	struct burst *b = calloc(1, sizeof(*b));
	bool pass;
	int ret;

	if (!b)
		return -ENOMEM;
	memset(best, 0, sizeof(*best));
	best->intensity_pct = best->skew_s = best->sync_pct = NAN;
	best->span_s = NAN;
	*lossy = *best;
	for (;;) {
		ret = mb_burst(m, j, rep, n, "grow", b);
		if (!ret)
			ret = mb_pass(m, b, &pass);
		if (ret)
			goto out;
		if (!pass) {
			hi = n;
			*lossy = *b;
			break;
		}
		lo = n;
		*best = *b;
		if (n >= p->burst_max)
			break;
		n = p->growth == R8239_GROWTH_LINEAR ? n + 1 : 2 * n;
		if (n > p->burst_max)
			n = p->burst_max;
	}
	while (hi && hi - lo > 1) {
		n = lo + (hi - lo) / 2;
		ret = mb_burst(m, j, rep, n, "bisect", b);
		if (!ret)
			ret = mb_pass(m, b, &pass);
		if (ret)
			goto out;
		if (pass) {
			lo = n;
			*best = *b;
		} else {
			hi = n;
			*lossy = *b;
		}
	}
	*ok = lo;
	*bounded = !hi;
out:
	free(b);
	return ret;
}

/* Iteration j, all its repetitions, as one entry of "iterations". */
static int mb_iteration(struct mb *m, unsigned int j, json_object *iters,
			bool *not_incast)
{
	const struct r8239_mb_params *p = m->p;
	unsigned int n_in = m->n - j, r, i;
	double agg[MB_MAX_REPEAT];
	json_object *e, *reps, *o, *a;
	struct bm_repeat st;
	struct burst *best = calloc(2, sizeof(*best));
	bool bounded = false, any_bounded = false;
	uint64_t ok;
	int ret = 0;

	if (!best)
		return -ENOMEM;
	e = json_object_new_object();
	bm_json_add_u64(e, "j", j);
	bm_json_add_u64(e, "n_ingress", n_in);
	bm_json_add_u64(e, "n_egress", j);
	json_object_object_add(e, "ingress",
			       r8239_port_names_json(m->be, 0, n_in));
	json_object_object_add(e, "egress",
			       r8239_port_names_json(m->be, n_in, m->n));
	/* AMB-31: each egress gets (N-j)/j of a line in aggregate */
	bm_json_add_double(e, "egress_offered_pct",
			   p->intensity_pct * n_in / j);
	reps = json_object_new_array();
	json_object_object_add(e, "repetitions", reps);
	json_object_array_add(iters, e);
	m->learned = false;
	for (r = 0; r < p->c.repeat; r++) {
		ret = mb_search(m, j, r + 1, &ok, &bounded, best, best + 1);
		if (ret)
			break;
		agg[r] = (double)(ok * n_in);
		any_bounded |= bounded;
		o = json_object_new_object();
		bm_json_add_u64(o, "burst_per_port", ok);
		bm_json_add_u64(o, "burst_aggregate", ok * n_in);
		bm_json_add_bool(o, "lower_bound", bounded);
		a = json_object_new_array();
		for (i = 0; i < n_in; i++)
			json_object_array_add(a, json_object_new_int64(
				(int64_t)best->rx_per_port[i]));
		json_object_object_add(o, "received_per_port", a);
		bm_json_add_double(o, "intensity_pct", best->intensity_pct);
		bm_json_add_double(o, "start_skew_s", best->skew_s);
		bm_json_add_double(o, "sync_pct", best->sync_pct);
		bm_json_add_double(o, "burst_span_s", best->span_s);
		/* RFC 8239 §4.2: the burst MUST be at 100 % intensity; a
		 * loss-free burst the generator stretched (sent whole, but
		 * later than its schedule, even after its retries) showed a
		 * milder burst passing, which is not the measurement */
		if (best->late) {
			char why[200];

			snprintf(why, sizeof(why), "not at 100 %% intensity: "
				 "the loss-free burst of %llu frames a port "
				 "left at %.1f %% (RFC 8239 §4.2: MUST be "
				 "100 %%); a full-intensity burst may pass "
				 "fewer", (unsigned long long)best->n,
				 best->intensity_pct);
			bm_json_add_str(o, "result", why);
		} else {
			bm_json_add_str(o, "result", "ok");
		}
		/* the smallest lossy burst: with the loss-free one it brackets
		 * the DUT's capacity, each with the time its frames took */
		if (!bounded) {
			bm_json_add_u64(o, "lossy_burst_per_port",
					best[1].n);
			bm_json_add_u64(o, "lossy_lost", best[1].lost);
			bm_json_add_double(o, "lossy_span_s", best[1].span_s);
		}
		/* [8238 §6.2.3]: a non-null synchronisation, or it is not
		 * an incast; a repetition whose loss-free burst is 0 sent
		 * nothing loss-free to measure it on. */
		if (ok && !(best->sync_pct > 0.0))
			*not_incast = true;
		json_object_array_add(reps, o);
	}
	bm_repeat_of(agg, r, &st);
	o = bm_repeat_to_json(&st, agg);
	json_object_object_add(e, "aggregate", o);
	bm_json_add_bool(e, "lower_bound", any_bounded);
	if (any_bounded && n_in <= j)
		bm_json_add_str(e, "note", "no congestion possible: N-j <= j");
	free(best);
	return ret;
}

int r8239_microburst_run(struct bm_backend *be,
			 const struct r8239_mb_params *p,
			 bm_progress_fn progress, void *ctx,
			 json_object **result, struct bm_error *err)
{
	struct r8239_order order;
	struct mb m = { .be = be, .p = p, .progress = progress, .ctx = ctx,
			.err = err, .low_intensity_pct = 100.0 };
	json_object *res, *iters, *dev;
	unsigned int j, j0, j1;
	bool not_incast = false;
	int ret;

	*result = NULL;
	ret = r8239_mb_check(p, err);
	if (ret)
		return ret;
	m.n = be->n_ports;
	if (m.n < 3)
		return bm_errorf(err, "rfc8239.microburst needs 3 ports "
				 "(R8239-MB: 2 ingress, 1 egress), %u given",
				 m.n);
	if (p->iteration > m.n - 2)
		return bm_errorf(err, "rfc8239.microburst: iteration: j = %u "
				 "outside 1..%u for %u ports", p->iteration,
				 m.n - 2, m.n);
	m.t_wire = (p->frame_size + 20) * 8.0 / be->line_rate_bps;
	j0 = p->iteration ? p->iteration : 1;
	j1 = p->iteration ? p->iteration : m.n - 2;
	res = json_object_new_object();
	r8239_ports_begin(be, &p->c, &order, res);
	iters = json_object_new_array();
	json_object_object_add(res, "iterations", iters);
	for (j = j0; j <= j1 && !ret; j++)
		ret = mb_iteration(&m, j, iters, &not_incast);
	r8239_ports_end(be, &order);
	bm_json_add_u64(res, "frame_size", p->frame_size);
	bm_json_add_u64(res, "ports", m.n);
	bm_json_add_u64(res, "bursts_sent_again", m.retried);
	bm_json_add_u64(res, "bursts_late", m.late);
	bm_json_add_bool(res, "not_an_incast", not_incast);
	dev = json_object_new_array();
	if (p->intensity_pct != 100.0)
		json_object_array_add(dev, json_object_new_string(
			"intensity below 100 %: RFC 8239 §4.2 says MUST be "
			"100 %"));
	if (m.n < 9)
		json_object_array_add(dev, json_object_new_string(
			"fewer than 9 ports: RFC 8239 §2.3 assumes a DUT of "
			"at least 9 (REQ-8239-2)"));
	if (p->offset_s > 0)
		json_object_array_add(dev, json_object_new_string(
			"offset_s: the last ingress port started late on "
			"purpose [EXTENSION]"));
	if (not_incast)
		json_object_array_add(dev, json_object_new_string(
			"a repetition had 0 % synchronisation: not an incast "
			"per RFC 8238 §6.2.3"));
	if (m.late) {
		char line[320];

		/* RFC 8239 §4.2: the burst MUST be at 100 % intensity */
		snprintf(line, sizeof(line),
			 "%u bursts left later than their schedule (generator_limited; lowest achieved intensity %.1f %%, F-10, for %.0f %% asked): the DUT saw milder bursts than RFC 8239 §4.2 asks, and the loss-free bursts may overstate what it absorbs",
			 m.late, m.low_intensity_pct, p->intensity_pct);
		json_object_array_add(dev, json_object_new_string(line));
	}
	r8239_flag_rsd(res, dev);
	*result = bm_result_envelope("rfc8239.microburst", "R8239-MB",
				     bm_json_params_to_json(r8239_mb_keys, 0, p,
							    NULL),
				     &m.log, NULL, res, dev, be);
	bm_trial_log_free(&m.log);
	return ret;
}

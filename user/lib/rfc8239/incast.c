// SPDX-License-Identifier: GPL-2.0
/*
 * RFC 8239 §6 incast with stateful and stateless traffic (R8239-INC-1,
 * -INC-2, SPEC §8.5) and RFC 8238 §7 goodput (R8238-GOODPUT).
 *
 * The job's last port is the egress; the ports before it are ingress
 * ports, the first ones stateful (a bulk TCP connection each to the
 * egress, through the backend's TCP engine), the next ones stateless (the
 * module's UDP microbursts).  INC-1 runs k = 1 .. N-2 stateful ports with
 * one stateless; INC-2 one stateful with k = 1 .. N-2 stateless.
 *
 * One repetition: the connections start and warm up (warmup_s), the
 * measurement window opens, the stateless ports send bursts of
 * burst_frames at intensity_pct every burst_period_s for duration_s, all
 * starting together (REQ-GEN-5), and the window closes when that trial
 * ends.  Goodput is what the egress's sockets read in the window (F-9);
 * next to it the analytic ceiling (S/F) x V, and that ceiling less what
 * the UDP frames took of the egress in the window (their accounted bits:
 * the model's bound for the TCP flows, AMB of this implementation).
 * The UDP streams' latency and loss come from the module; sync% (F-11)
 * from the first frames of the stateless ports' first bursts.
 *
 * Without a TCP engine on the backend the procedure refuses to run (R8239-
 * INC (d), "MUST").
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bm_events.h"
#include "bm_json.h"
#include "bm_repeat.h"
#include "bm_result.h"
#include "bm_search.h"
#include "bm_tcp.h"
#include "bm_traffic.h"
#include "rfc8239_int.h"

#define INC_MAX_REPEAT	R8239_MAX_REPEAT

static const char *const var_names[] = { "stateful", "stateless", NULL };

/* "cubic", "bbr", ...: TCP_CONGESTION's names, checked by the kernel. */
static int parse_cc(json_object *v, void *base, const char *key,
		    struct bm_error *err)
{
	return bm_tcp_cc_parse(v, ((struct r8239_inc_params *)base)->cc, key,
			       err);
}

#define IO(f)	offsetof(struct r8239_inc_params, f)

/* The keys of both procedures; mask 1: incast only. */
const struct bm_param r8239_inc_keys[] = {
	{ { "variation", BM_J_ENUM, IO(variation), 0, 0, 0, 1, var_names,
	    NULL }, "", "stateful: k = 1 .. N-2 TCP ports + 1 UDP port "
	  "(INC-1); stateless: 1 TCP port + k UDP ports (INC-2)", NULL },
	{ { "iteration", BM_J_UINT, IO(iteration), 0, 254, 0, 1, NULL, NULL },
	  "", "k of the variation to run; 0 runs k = 1 .. N-2", NULL },
	{ { "frame_size", BM_J_U32, IO(frame_size), 64, 9216, 0, 1, NULL,
	    NULL }, "B", "UDP frame size with FCS [PROPOSED 64]", NULL },
	{ { "intensity_pct", BM_J_DOUBLE, IO(intensity_pct), 0, 100,
	    BM_JK_MIN_EXCL, 1, NULL, NULL }, "%",
	  "UDP burst intensity; RFC 8239 §6.2 MUST 100, other values are a "
	  "deviation", NULL },
	{ { "burst_frames", BM_J_U32, IO(burst_frames), 1, 1000000, 0, 1, NULL,
	    NULL }, "frames", "frames per UDP burst n_b [PROPOSED 100] "
	  "(AMB-38)", NULL },
	{ { "burst_period_s", BM_J_DOUBLE, IO(burst_period_s), 0, 60,
	    BM_JK_MIN_EXCL, 1, NULL, NULL }, "s",
	  "start to start of a port's bursts [PROPOSED 0.1] (AMB-38)", NULL },
	{ { "offset_s", BM_J_DOUBLE, IO(offset_s), 0, 1, 0, 1, NULL, NULL },
	  "s", "start the last UDP port this much later (a deliberate loss "
	  "of synchronisation) [EXTENSION]", NULL },
	{ { "latency_events", BM_J_ENUM, IO(latency_events), 0, 0, 0, 1,
	    bm_lat_event_names, NULL }, "", "the stateless latency's events: "
	  "FL (FILO, the RFC 8238 §2.1 MUST), FF, LL or LF (LIFO: never to "
	  "compare DUTs)", NULL },
	{ { "cal_constant_ns", BM_J_DOUBLE, IO(cal_constant_ns), 0, 1e9, 0, 1,
	    NULL, NULL }, "ns", "tester + cable constant C from "
	  "rfc8238.calibrate, subtracted from every latency (0: none)",
	  NULL },
	{ { "connections", BM_J_UINT, IO(connections), 1, 16, 0, 2, NULL,
	    NULL }, "", "TCP connections from each ingress port", NULL },
	{ { "warmup_s", BM_J_DOUBLE, IO(warmup_s), 0, 600, 0, 0, NULL, NULL },
	  "s", "TCP before the measurement window [PROPOSED 5]", NULL },
	{ { "duration_s", BM_J_DOUBLE, IO(duration_s), 0, 3600,
	    BM_JK_MIN_EXCL, 0, NULL, NULL }, "s",
	  "the measurement window [PROPOSED 60]", NULL },
	{ { "cc", BM_J_CUSTOM, IO(cc), 0, 0, 0, 0, NULL, parse_cc }, "",
	  "TCP congestion control (TCP_CONGESTION); unset: the system's, "
	  "reported", "string" },
	{ { "sndbuf", BM_J_BYTES, IO(sndbuf), 0, 1 << 30, 0, 0, NULL, NULL },
	  "B", "SO_SNDBUF of every socket; 0: the system's [SPEC 4 MB]", NULL },
	{ { "rcvbuf", BM_J_BYTES, IO(rcvbuf), 0, 1 << 30, 0, 0, NULL, NULL },
	  "B", "SO_RCVBUF of every socket; 0: the system's [SPEC 4 MB]", NULL },
	{ { "window_clamp", BM_J_BYTES, IO(window_clamp), 0, 1 << 30, 0, 0,
	    NULL, NULL }, "B", "TCP_WINDOW_CLAMP; 0: none", NULL },
	{ { "mtu", BM_J_U32, IO(mtu), 576, 9000, 0, 0, NULL, NULL }, "B",
	  "the path MTU of the F-9 ceiling printed with the goodput", NULL },
	R8239_COMMON_KEYS(IO, "iteration"),
	{ { NULL, 0, 0, 0, 0, 0, 0, NULL, NULL }, NULL, NULL, NULL },
};

const struct bm_jwriter r8239_inc_writers[] = {
	{ parse_cc, bm_json_string_at, 0 },
	{ NULL, NULL, 0 },
};

void r8239_inc_defaults(struct r8239_inc_params *p)
{
	*p = (struct r8239_inc_params){
		.variation = R8239_INC_STATEFUL,
		.frame_size = 64,		/* [PROPOSED] */
		.intensity_pct = 100.0,		/* [8239 §6.2] MUST */
		.burst_frames = 100,		/* [PROPOSED] */
		.burst_period_s = 0.1,		/* [PROPOSED] */
		.connections = 1,
		.warmup_s = 5.0,		/* [PROPOSED] */
		.duration_s = 60.0,		/* [PROPOSED] */
		.sndbuf = 4000000,		/* SPEC R8239-INC: 4 MB */
		.rcvbuf = 4000000,
		.mtu = 1500,
		.latency_events = BM_EV_FL,	/* RFC 8238 §2.1 MUST */
	};
	r8239_common_defaults(&p->c);
}

int r8239_inc_check(const struct r8239_inc_params *p, struct bm_error *err)
{
	if (!p->goodput && p->burst_period_s > p->duration_s)
		return bm_errorf(err, "rfc8239.incast: burst_period_s %.3g s "
				 "is longer than duration_s %.3g s: no burst "
				 "would be repeated", p->burst_period_s,
				 p->duration_s);
	return 0;
}

double r8239_inc_max_trials(const struct r8239_inc_params *p)
{
	/* one trial a repetition; iterations are bounded by the ports */
	return (double)p->c.repeat * (p->iteration ? 1 : 254);
}

/* One run. */
struct inc {
	struct bm_backend *be;
	const struct r8239_inc_params *p;
	bm_progress_fn progress;
	void *ctx;
	struct bm_error *err;
	struct bm_trial_log log;
	unsigned int n;			/* ports; the egress is n - 1 */
	bool learned;
	bool sync_unmeasured;		/* a repetition with one UDP port */
	/* repetitions whose UDP bursts left with wider gaps than asked,
	 * and the farthest a frame fell behind its place in its burst */
	unsigned int reps_late, reps_udp, reps_unmeasured;
	double burst_late_max_s;
};

/* The UDP streams of ports [from, to) to the egress. */
static int udp_traffic(struct inc *m, unsigned int from, unsigned int to,
		       struct bm_traffic *t)
{
	const struct r8239_inc_params *p = m->p;
	struct bm_stream_spec s;
	unsigned int i;
	double count;

	if (r8239_traffic_ports(t, m->be, m->err))
		return -EINVAL;
	count = floor(p->duration_s / p->burst_period_s);
	for (i = from; i < to; i++) {
		bm_stream_init(&s, i, m->n - 1, p->intensity_pct);
		s.pattern = BM_STREAM_BURSTS;
		s.burst_len = p->burst_frames;
		s.burst_count = (uint32_t)fmax(1, count);
		s.burst_period_s = p->burst_period_s;
		s.start_s = 0.01 + (i == to - 1 ? p->offset_s : 0.0);
		s.frame.dscp = (uint8_t)p->c.dscp;
		/* the first burst's departures: F-11 and its overlap */
		s.log_frames = p->burst_frames < BM_TRAFFIC_MAX_LOG ?
			       p->burst_frames : BM_TRAFFIC_MAX_LOG;
		if (bm_traffic_add_stream(t, &s, m->err) < 0)
			return -ENOMEM;
	}
	return bm_traffic_check(t, p->frame_size, m->err);
}

/* What the UDP frames took of the egress's service in accounted bits:
 * (F + 20) x 8 a frame on a line. */
static double udp_bits(const struct bm_traffic_result *r)
{
	double b = 0;
	unsigned int i;

	for (i = 0; r && i < r->n_streams; i++)
		b += 8.0 * (r->streams[i].rx_bytes +
			    20.0 * r->streams[i].received);
	return b;
}

/* F-11 from the ports' first frames, and how much of their first bursts
 * overlapped in time (frames on several ports overlapping for any bits
 * is RFC 8238 §6.2's synchronous arrival): *skew_s, *sync_pct and
 * *overlap_pct (of the shortest first burst), all from the generator's
 * own departures. */
static void udp_sync(const struct bm_traffic_result *r, double t_wire,
		     uint32_t n_b, double *skew_s, double *sync_pct,
		     double *overlap_pct)
{
	double lo = INFINITY, hi = -INFINITY, end = INFINITY, span = INFINITY;
	unsigned int i;

	*skew_s = *sync_pct = *overlap_pct = NAN;
	for (i = 0; i < r->n_streams; i++) {
		const struct bm_stream_result *sr = &r->streams[i];
		size_t n = sr->n_tx_log < n_b ? sr->n_tx_log : n_b;
		double e;

		if (!n)
			return;
		lo = fmin(lo, sr->tx_log_s[0]);
		hi = fmax(hi, sr->tx_log_s[0]);
		e = sr->tx_log_s[n - 1] + t_wire;
		end = fmin(end, e);
		span = fmin(span, e - sr->tx_log_s[0]);
	}
	*skew_s = hi - lo;
	if (r->n_streams < 2)
		return;
	*sync_pct = 100.0 * fmax(0, t_wire - *skew_s) / t_wire;
	*overlap_pct = fmin(100.0, 100.0 * fmax(0, end - hi) / span);
}

/*
 * RFC 8239 §6.2: the stateless bursts at 100 % intensity, a MUST (or at
 * the intensity asked).  A frame that left more than BM_BURST_GAP_TOL_S
 * behind its place in its burst (bmgen.ko measures each against its
 * burst's first departure) made the incast milder than asked: the
 * repetition's result says so, never "ok", and the result's deviations
 * count them.
 */
static void inc_rep_result(struct inc *m, const struct bm_trial_result *res,
			   json_object *o)
{
	char why[256];

	m->reps_udp++;
	if (!res->burst_gaps_measured) {
		bm_json_add_str(o, "result", "bursts not measured: the "
				"backend measured no burst's gaps, so their "
				"intensity (RFC 8239 §6.2) is unknown");
		m->reps_unmeasured++;
		return;
	}
	if (!(res->tx_burst_late_max_s > BM_BURST_GAP_TOL_S)) {
		bm_json_add_str(o, "result", "ok");
		return;
	}
	m->reps_late++;
	m->burst_late_max_s = fmax(m->burst_late_max_s,
				   res->tx_burst_late_max_s);
	snprintf(why, sizeof(why), "bursts not as asked: a UDP frame left "
		 "%.3f ms behind its place in its burst (RFC 8239 §6.2: %.0f "
		 "%% intensity); the DUT saw a milder incast, and the "
		 "goodput and latency may overstate it",
		 res->tx_burst_late_max_s * 1e3, m->p->intensity_pct);
	bm_json_add_str(o, "result", why);
}

/* One repetition as it runs: its ports, the UDP streams and what came of
 * them and of the TCP connections. */
struct rep {
	unsigned int k, rep, n_tcp, n_udp;
	struct bm_traffic t;		/* the UDP streams */
	struct bm_traffic_result *r;	/* theirs, NULL with no UDP port */
	struct bm_trial_result res;	/* the UDP trial's */
	struct bm_tcp_result *tr;
};

/* The stateful ports' connections to the egress: p->connections each
 * for RFC 8238's goodput, one each otherwise. */
static void inc_tcp_spec(const struct inc *m, unsigned int n_tcp,
			 struct bm_tcp_spec *ts)
{
	const struct r8239_inc_params *p = m->p;
	unsigned int i, c;

	memset(ts, 0, sizeof(*ts));
	for (i = 0; i < n_tcp; i++)
		for (c = 0; c < (p->goodput ? p->connections : 1); c++) {
			struct bm_tcp_conn_spec *cs = &ts->conn[ts->n_conn++];

			cs->client = i;
			cs->server = m->n - 1;
			cs->pattern = BM_TTP_BULK;
		}
	snprintf(ts->cc, sizeof(ts->cc), "%s", p->cc);
	ts->sndbuf = (uint32_t)p->sndbuf;
	ts->rcvbuf = (uint32_t)p->rcvbuf;
	ts->window_clamp = (uint32_t)p->window_clamp;
	ts->dscp = (uint8_t)p->c.dscp;
}

/*
 * The repetition's traffic: the connections started and warmed up, the
 * UDP bursts as one trial beside them (or the TCP alone for the
 * duration), then the connections stopped into x->tr.  A stop's error
 * counts only where the run had none.
 */
static int inc_rep_run(struct inc *m, struct rep *x,
		       const struct bm_tcp_spec *ts)
{
	const struct r8239_inc_params *p = m->p;
	struct bm_trial_spec spec;
	struct bm_error e2;
	char reason[96];
	int ret, r2;

	ret = bm_tcp_start(m->be, ts, m->err);
	if (ret)
		return ret;
	bm_backend_idle(m->be, p->warmup_s);
	ret = m->be->tcp->mark(m->be, m->err);
	if (!ret && x->n_udp) {
		r8239_trial_spec(&spec, &p->c, p->frame_size, p->duration_s,
				 !m->learned, &x->t, x->r);
		spec.latency = true;
		snprintf(reason, sizeof(reason), "k=%u rep %u: %u TCP + %u UDP "
			 "ports", x->k, x->rep, x->n_tcp, x->n_udp);
		ret = bm_search_trial(m->be, &spec, &x->res, &m->log, "incast",
				      reason, m->progress, m->ctx, m->err);
		m->learned = true;
	} else if (!ret) {
		bm_backend_idle(m->be, p->duration_s);
	}
	r2 = m->be->tcp->stop(m->be, x->tr, &e2);
	if (!ret && r2) {
		*m->err = e2;
		ret = r2;
	}
	return ret;
}

/* F-9: the goodput beside its ceiling with no other traffic, and what
 * the UDP frames left of it in the window. */
static void inc_goodput_json(const struct inc *m, const struct rep *x,
			     json_object *o)
{
	const struct r8239_inc_params *p = m->p;
	const struct bm_tcp_result *tr = x->tr;
	double ceil_bps, left;

	ceil_bps = bm_goodput_linux_bps(p->mtu, m->be->line_rate_bps);
	left = tr->window_s > 0 ?
	       fmax(0, m->be->line_rate_bps * tr->window_s - udp_bits(x->r)) /
	       tr->window_s * (p->mtu - 52.0) / (p->mtu + 38.0) : NAN;
	bm_json_add_double(o, "goodput_bps", tr->goodput_bps);
	bm_json_add_double(o, "ceiling_bps", ceil_bps);
	bm_json_add_double(o, "ceiling_8238_bps", bm_goodput_ceiling_bps(
		p->mtu - 40.0, p->mtu + 26.0, m->be->line_rate_bps));
	bm_json_add_double(o, "ceiling_left_by_udp_bps", x->n_udp ? left :
			   ceil_bps);
}

/* A connection never established or broken fails the repetition. */
static int inc_tcp_check(const struct inc *m, const struct bm_tcp_result *tr)
{
	unsigned int i;

	for (i = 0; i < tr->n_conn; i++)
		if (!tr->conn[i].established || tr->conn[i].error[0])
			return bm_errorf(m->err, "TCP connection %u: %s", i,
					 tr->conn[i].error[0] ? tr->conn[i].error
					 : "not established");
	return 0;
}

/* R8238-LAT: the events asked for (FILO by default) from the measured
 * first bit out to first bit in, less C, with the frame's serialisation
 * ser on equal-rate links (REQ-TS-2); NAN with no frame measured. */
static double inc_lat_ns(const struct inc *m, uint64_t count, double ns,
			 double ser)
{
	return count ? bm_lat_event_ns(m->p->latency_events,
				       ns - m->p->cal_constant_ns, ser, ser) :
		       NAN;
}

/* Each UDP stream's port, counts and worst latency. */
static json_object *inc_udp_streams_json(const struct inc *m,
					 const struct rep *x)
{
	json_object *a = json_object_new_array();
	unsigned int i;

	for (i = 0; i < x->r->n_streams; i++) {
		const struct bm_stream_result *sr = &x->r->streams[i];
		json_object *s = json_object_new_object();

		bm_json_add_str(s, "port", m->be->port_names[
			x->t.streams[i].tx_port]);
		bm_json_add_u64(s, "sent", sr->sent);
		bm_json_add_u64(s, "lost", sr->lost);
		bm_json_add_double(s, "latency_max_ns", sr->latency.count ?
				   sr->latency.max_ns : NAN);
		json_object_array_add(a, s);
	}
	return a;
}

/* The UDP streams' entry: counts, latency, the generator's lateness and
 * F-11's synchrony; *lat_mean the mean latency, *not_incast set when
 * the bursts did not overlap. */
static json_object *inc_udp_json(struct inc *m, const struct rep *x,
				 double *lat_mean, bool *not_incast)
{
	const struct r8239_inc_params *p = m->p;
	const struct bm_trial_result *res = &x->res;
	json_object *u = json_object_new_object();
	double ser, t_wire, skew, sync, overlap;

	bm_json_add_u64(u, "sent", res->attempted);
	bm_json_add_u64(u, "received", res->received);
	bm_json_add_u64(u, "lost", res->lost);
	ser = bm_serialisation_ns(p->frame_size, m->be->line_rate_bps);
	*lat_mean = inc_lat_ns(m, res->latency.count, res->latency.mean_ns,
			       ser);
	bm_json_add_double(u, "latency_min_ns", inc_lat_ns(m,
			   res->latency.count, res->latency.min_ns, ser));
	bm_json_add_double(u, "latency_mean_ns", *lat_mean);
	bm_json_add_double(u, "latency_max_ns", inc_lat_ns(m,
			   res->latency.count, res->latency.max_ns, ser));
	bm_json_add_double(u, "tx_late_max_s", res->tx_late_max_s);
	bm_json_add_double(u, "tx_burst_late_max_s",
			   res->burst_gaps_measured ?
			   res->tx_burst_late_max_s : NAN);
	bm_json_add_double(u, "accounted_bits", udp_bits(x->r));
	t_wire = (p->frame_size + 20) * 8.0 / m->be->line_rate_bps;
	udp_sync(x->r, t_wire, p->burst_frames, &skew, &sync, &overlap);
	bm_json_add_double(u, "start_skew_s", skew);
	bm_json_add_double(u, "sync_pct", sync);
	bm_json_add_double(u, "burst_overlap_pct", overlap);
	if (isnan(sync) && x->r->n_streams < 2) {
		/* RFC 8238 §6.2.1 measures the overlap of frames on
		 * several ingress ports; the TCP port's segments
		 * carry no tester timestamp to overlap with */
		bm_json_add_str(u, "sync_pct_why", "one stateless "
				"port: the stateful port's TCP segments "
				"carry no tester timestamp to measure "
				"an overlap against");
		m->sync_unmeasured = true;
	}
	/* [8238 §6.2.3]: a non-null synchronisation (SPEC
	 * R8238-INCAST: flag a 0) */
	if (sync == 0)
		*not_incast = true;
	json_object_object_add(u, "streams", inc_udp_streams_json(m, x));
	return u;
}

/* One repetition of iteration k with n_tcp stateful ports first and
 * n_udp stateless after them; its entry into reps. */
static int inc_rep(struct inc *m, unsigned int k, unsigned int rep,
		   unsigned int n_tcp, unsigned int n_udp, json_object *reps,
		   double *goodput, double *lat_mean, bool *not_incast)
{
	struct rep x = { .k = k, .rep = rep, .n_tcp = n_tcp, .n_udp = n_udp };
	struct bm_tcp_spec ts;
	json_object *o;
	int ret;

	x.tr = calloc(1, sizeof(*x.tr));
	if (!x.tr)
		return bm_errorf(m->err, "out of memory"), -ENOMEM;
	inc_tcp_spec(m, n_tcp, &ts);
	if (n_udp) {
		ret = udp_traffic(m, n_tcp, n_tcp + n_udp, &x.t);
		if (ret)
			goto out;
		x.r = bm_traffic_result_new(&x.t);
		if (!x.r) {
			ret = (bm_errorf(m->err, "out of memory"), -ENOMEM);
			goto out;
		}
	}
	ret = inc_rep_run(m, &x, &ts);
	if (ret)
		goto out;
	o = json_object_new_object();
	bm_json_add_u64(o, "repetition", rep);
	json_object_object_add(o, "tcp", bm_tcp_result_json(
		x.tr, (const char (*)[16])m->be->port_names));
	inc_goodput_json(m, &x, o);
	ret = inc_tcp_check(m, x.tr);
	if (ret) {
		json_object_put(o);
		goto out;
	}
	*goodput = x.tr->goodput_bps;
	if (n_udp) {
		json_object_object_add(o, "udp", inc_udp_json(m, &x, lat_mean,
							      not_incast));
		inc_rep_result(m, &x.res, o);
	}
	json_object_array_add(reps, o);
out:
	bm_traffic_result_free(x.r);
	bm_traffic_free(&x.t);
	free(x.tr);
	return ret;
}

/* Iteration k (n_tcp, n_udp), all repetitions, into iters. */
static int inc_iteration(struct inc *m, unsigned int k, unsigned int n_tcp,
			 unsigned int n_udp, json_object *iters,
			 bool *not_incast)
{
	const struct r8239_inc_params *p = m->p;
	double g[INC_MAX_REPEAT], lat[INC_MAX_REPEAT];
	unsigned int nl = 0;
	json_object *e, *reps;
	struct bm_repeat st;
	unsigned int r;
	int ret = 0;

	e = json_object_new_object();
	bm_json_add_u64(e, "k", k);
	/* RFC 8239 §6.3 item 1: the ports and their designation */
	bm_json_add_u64(e, "n_ingress", n_tcp + n_udp);
	bm_json_add_u64(e, "n_egress", 1);
	json_object_object_add(e, "stateful",
			       r8239_port_names_json(m->be, 0, n_tcp));
	json_object_object_add(e, "stateless",
			       r8239_port_names_json(m->be, n_tcp,
						     n_tcp + n_udp));
	json_object_object_add(e, "egress",
			       r8239_port_names_json(m->be, m->n - 1, m->n));
	reps = json_object_new_array();
	json_object_object_add(e, "repetitions", reps);
	json_object_array_add(iters, e);
	m->learned = false;
	for (r = 0; r < p->c.repeat && !ret; r++) {
		double l = NAN;

		ret = inc_rep(m, k, r + 1, n_tcp, n_udp, reps, &g[r], &l,
			      not_incast);
		if (!ret && n_udp && !isnan(l))
			lat[nl++] = l;
	}
	if (r && ret)
		r--;
	/* RFC 8239 §6.3 item 4: repeatability of the goodput, and of the
	 * stateless flow's latency (item 3) */
	bm_repeat_of(g, r, &st);
	json_object_object_add(e, "goodput_bps", bm_repeat_to_json(&st, g));
	if (n_udp) {
		bm_repeat_of(lat, nl, &st);
		json_object_object_add(e, "latency_mean_ns",
				       bm_repeat_to_json(&st, lat));
	}
	return ret;
}

int r8239_inc_run(struct bm_backend *be, const struct r8239_inc_params *p,
		  bm_progress_fn progress, void *ctx, json_object **result,
		  struct bm_error *err)
{
	const char *name = p->goodput ? "rfc8238.goodput" : "rfc8239.incast";
	struct inc m = { .be = be, .p = p, .progress = progress, .ctx = ctx,
			 .err = err };
	struct r8239_order order;
	json_object *res, *iters, *dev;
	unsigned int k, k0, k1;
	bool not_incast = false;
	int ret;

	*result = NULL;
	ret = r8239_inc_check(p, err);
	if (ret)
		return ret;
	m.n = be->n_ports;
	if (!be->tcp)
		return bm_errorf(err, "%s needs the TCP engine (PLAT-TCP, "
				 "R8239-INC: MUST refuse without it), and this "
				 "backend has none (bmd.conf tcp-engine, or no "
				 "VRF support)", name), -EOPNOTSUPP;
	if (m.n < (p->goodput ? 2u : 3u))
		return bm_errorf(err, "%s needs %u ports, %u given", name,
				 p->goodput ? 2 : 3, m.n);
	if (p->goodput && (m.n - 1) * p->connections > BM_TCP_MAX_CONN)
		return bm_errorf(err, "%s: %u ingress ports x %u connections: "
				 "at most %d connections", name, m.n - 1,
				 p->connections, BM_TCP_MAX_CONN);
	if (!p->goodput && p->iteration > m.n - 2)
		return bm_errorf(err, "%s: iteration: k = %u outside 1..%u for "
				 "%u ports", name, p->iteration, m.n - 2, m.n);
	k0 = p->iteration ? p->iteration : 1;
	k1 = p->iteration ? p->iteration : m.n - 2;
	res = json_object_new_object();
	r8239_ports_begin(be, &p->c, &order, res);
	iters = json_object_new_array();
	json_object_object_add(res, "iterations", iters);
	if (p->goodput)
		ret = inc_iteration(&m, m.n - 1, m.n - 1, 0, iters,
				    &not_incast);
	for (k = k0; !p->goodput && k <= k1 && !ret; k++) {
		if (p->variation == R8239_INC_STATEFUL)
			ret = inc_iteration(&m, k, k, 1, iters, &not_incast);
		else
			ret = inc_iteration(&m, k, 1, k, iters, &not_incast);
	}
	r8239_ports_end(be, &order);
	bm_json_add_u64(res, "ports", m.n);
	if (!p->goodput)
		bm_json_add_bool(res, "not_an_incast", not_incast);
	dev = json_object_new_array();
	/* R8238-LAT, R8238-CAL: the stateless latency's events and C */
	if (!p->goodput)
		r8239_latency_said(res, dev, p->latency_events,
				   p->cal_constant_ns);
	if (!p->goodput && p->intensity_pct != 100.0)
		json_object_array_add(dev, json_object_new_string(
			"UDP intensity below 100 %: RFC 8239 §6.2 says MUST be "
			"100 %"));
	if (!p->goodput && p->offset_s > 0)
		json_object_array_add(dev, json_object_new_string(
			"offset_s: the last UDP port started late on purpose "
			"[EXTENSION]"));
	if (not_incast)
		json_object_array_add(dev, json_object_new_string(
			"a repetition had 0 % synchronisation of its UDP "
			"ports' first frames: not an incast per RFC 8238 "
			"§6.2.3 (see burst_overlap_pct)"));
	if (m.reps_late) {
		char line[320];

		snprintf(line, sizeof(line), "%u of %u repetitions' UDP bursts "
			 "not offered as asked (RFC 8239 §6.2: bursts at %.0f "
			 "%% intensity): a frame up to %.3f ms behind its "
			 "place in its burst (bmgen.ko's minimum-gap measure; "
			 "each repetition's result)", m.reps_late, m.reps_udp,
			 p->intensity_pct, m.burst_late_max_s * 1e3);
		json_object_array_add(dev, json_object_new_string(line));
	}
	if (m.reps_unmeasured)
		json_object_array_add(dev, json_object_new_string(
			"the backend measured no gaps of the UDP bursts of "
			"some repetitions: their intensity (RFC 8239 §6.2) is "
			"unknown"));
	if (m.sync_unmeasured)
		json_object_array_add(dev, json_object_new_string(
			"synchronisation not measured where one stateless "
			"port ran (sync_pct null, sync_pct_why): RFC 8238 "
			"§6.2.3 makes a non-null percentage a MUST"));
	r8239_flag_rsd(res, dev);
	*result = bm_result_envelope(name, p->goodput ? "R8238-GOODPUT" :
				     "R8239-INC-1, R8239-INC-2",
				     bm_json_params_to_json(r8239_inc_keys,
					R8239_INC_MASK(p->goodput), p,
					r8239_inc_writers), &m.log, NULL, res,
				     dev, be);
	bm_trial_log_free(&m.log);
	return ret;
}

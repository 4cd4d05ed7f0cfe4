// SPDX-License-Identifier: GPL-2.0
/*
 * The network delay emulator's own verification (TM-SETUP, REQ-TM-2; TM
 * §1.2: "an active NDE MUST be independently verified, with the DUT
 * removed, to add the configured delay without loss"; TM-CAP-SF: the
 * target rate and the configured RTT MUST be verified with the NDE alone),
 * and the TCP host check of REQ-TM-6 (TM §5.2: the TCP host MUST reach the
 * DUT's link speed).
 *
 * The job's two ports are cabled through the NDE only.  Per frame size
 * (TM §1.2's 128 ... 9600 B): one trial at load_pct of the line (the
 * target rate; 100 %: maximum offered load) from port 0 to port 1, and
 * back when reverse_delay_ms is given (an NDE that delays the return path
 * too, or only it).  Per direction: loss (must be 0), the mean, min, p99
 * and max one-way delay less the tester's own (cal_pd_ns), the accuracy
 * p99 - min (the module's histogram has no p1, as rfc8238.calibrate), and
 * the mean's distance from the configured delay, which must stay within
 * max(tolerance_pct of it, tolerance_ms).  Then one bulk TCP connection
 * through the NDE for tcp_duration_s: its goodput against F-9's Linux
 * ceiling at the target rate (below tcp_target_pct: tcp_host_limited,
 * REQ-TM-6) and its baseline RTT (tcpi_min_rtt) against the configured
 * RTT, delay_ms + reverse_delay_ms, within the same tolerance.
 *
 * A verification that found loss or a delay off its tolerance fails the
 * job (its result is stored, nde_ok false, the reasons in failures), so
 * that a script sees it in bmctl's exit status.  bmd keeps the stateful
 * procedures from starting unless the newest verification on their ports
 * passed (tm_nde_gate()).
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bm_json.h"
#include "bm_result.h"
#include "bm_tcp.h"
#include "rfc7640_int.h"

#define NO(f)	offsetof(struct tm_nde_params, f)

static int parse_nde_sizes(json_object *v, void *base, const char *key,
			   struct bm_error *err)
{
	struct tm_nde_params *p = base;

	return bm_json_parse_sizes(v, key, 64, 9216, p->frame_sizes,
				   TM_NDE_MAX_SIZES, &p->n_sizes, err);
}

static int parse_nde_cc(json_object *v, void *base, const char *key,
			struct bm_error *err)
{
	return bm_tcp_cc_parse(v, ((struct tm_nde_params *)base)->cc, key,
			       err);
}

const struct bm_param tm_nde_keys[] = {
	{ { "delay_ms", BM_J_DOUBLE, NO(delay_ms), 0, 10000, BM_JK_DERIVED, 0,
	    NULL, NULL }, "ms", "the delay the NDE is set to from the first "
	  "port to the second (required: what is verified)", NULL },
	{ { "reverse_delay_ms", BM_J_DOUBLE, NO(reverse_delay_ms), 0, 10000,
	    BM_JK_DERIVED, 0, NULL, NULL }, "ms", "the delay it is set to "
	  "back; unset: the return path is not measured (and adds nothing "
	  "to the RTT)", NULL },
	{ { "frame_sizes", BM_J_CUSTOM, NO(frame_sizes), 64, 9216, 0, 0, NULL,
	    parse_nde_sizes }, "B", "frame sizes with FCS (TM §1.2 names 128 "
	  "... 1500 and 9600: jumbo frames only where the ports and the NDE "
	  "carry them [PROPOSED])", "integer array" },
	{ { "load_pct", BM_J_DOUBLE, NO(load_pct), 0, 100, BM_JK_MIN_EXCL, 0,
	    NULL, NULL }, "%", "the target rate, % of the line (TM §1.2: "
	  "maximum offered load)", NULL },
	{ { "duration_s", BM_J_DOUBLE, NO(duration_s), 0, 86400,
	    BM_JK_MIN_EXCL, 0, NULL, NULL }, "s", "each frame size's trial "
	  "[PROPOSED]", NULL },
	{ { "tolerance_pct", BM_J_DOUBLE, NO(tolerance_pct), 0, 100, 0, 0,
	    NULL, NULL }, "%", "the mean delay may be this far from the "
	  "configured one (SPEC TM-SETUP: 1 [PROPOSED]) ...", NULL },
	{ { "tolerance_ms", BM_J_DOUBLE, NO(tolerance_ms), 0, 10000, 0, 0,
	    NULL, NULL }, "ms", "... or this far, whichever is larger "
	  "[PROPOSED: 0.05, SPEC's 10 ms +- 50 us]", NULL },
	{ { "cal_pd_ns", BM_J_DOUBLE, NO(cal_pd_ns), 0, 1e9, 0, 0, NULL,
	    NULL }, "ns", "the tester's own delay (rfc8238.calibrate's "
	  "cal_constant_ns), subtracted (REQ-TS-5); 0: none", NULL },
	{ { "dscp", BM_J_UINT, NO(dscp), 0, 63, 0, 0, NULL, NULL }, "",
	  "DSCP of the frames and segments", NULL },
	{ { "drain_s", BM_J_DOUBLE, NO(drain_s), 0, 60, 0, 0, NULL, NULL },
	  "s", "loss wait after each trial", NULL },
	{ { "learning", BM_J_BOOL, NO(learning), 0, 0, 0, 0, NULL, NULL }, "",
	  "learning frames before the first trial (an NDE that bridges)",
	  NULL },
	{ { "learning_pause_s", BM_J_DOUBLE, NO(learning_pause_s), 0, 60,
	    BM_JK_DERIVED | BM_JK_NEG_NULL, 0, NULL, NULL }, "s", "wait after "
	  "the learning frames (unset: the backend's, 2 s)", NULL },
	{ { "tcp", BM_J_BOOL, NO(tcp), 0, 0, 0, 0, NULL, NULL }, "",
	  "run the bulk TCP check (REQ-TM-2 step 3, REQ-TM-6); off: a "
	  "deviation", NULL },
	{ { "tcp_duration_s", BM_J_DOUBLE, NO(tcp_duration_s), 0, 86400,
	    BM_JK_MIN_EXCL, 0, NULL, NULL }, "s", "the bulk connection's "
	  "measurement window [PROPOSED]", NULL },
	{ { "tcp_warmup_s", BM_J_DOUBLE, NO(tcp_warmup_s), 0, 600, 0, 0, NULL,
	    NULL }, "s", "its slow start, before the window [PROPOSED]", NULL },
	{ { "tcp_target_pct", BM_J_DOUBLE, NO(tcp_target_pct), 0, 100, 0, 0,
	    NULL, NULL }, "%", "goodput below this share of F-9's ceiling at "
	  "the target rate flags tcp_host_limited (REQ-TM-6: 95)", NULL },
	{ { "cc", BM_J_CUSTOM, NO(cc), 0, 0, 0, 0, NULL, parse_nde_cc }, "",
	  "congestion control (TCP_CONGESTION); \"\": the system's", "string" },
	{ { "sndbuf", BM_J_BYTES, NO(sndbuf), 0, 1 << 30, 0, 0, NULL, NULL },
	  "B", "SO_SNDBUF, 0: the kernel's autotuning", NULL },
	{ { "rcvbuf", BM_J_BYTES, NO(rcvbuf), 0, 1 << 30, 0, 0, NULL, NULL },
	  "B", "SO_RCVBUF, 0: the kernel's autotuning", NULL },
	{ { NULL, 0, 0, 0, 0, 0, 0, NULL, NULL }, NULL, NULL, NULL },
};

const struct bm_jwriter tm_nde_writers[] = {
	{ parse_nde_sizes, bm_json_u32s_at, NO(n_sizes) },
	{ parse_nde_cc, bm_json_string_at, 0 },
	{ NULL, NULL, 0 },
};

void tm_nde_defaults(struct tm_nde_params *p)
{
	/* TM §1.2 less 9600 B, which needs jumbo frames end to end */
	static const uint32_t sizes[] = { 128, 256, 512, 768, 1024, 1500 };

	memset(p, 0, sizeof(*p));
	memcpy(p->frame_sizes, sizes, sizeof(sizes));
	p->n_sizes = sizeof(sizes) / sizeof(sizes[0]);
	p->delay_ms = NAN;
	p->reverse_delay_ms = NAN;
	p->load_pct = 100.0;			/* TM §1.2 */
	p->duration_s = 10.0;			/* [PROPOSED] */
	p->tolerance_pct = 1.0;			/* SPEC TM-SETUP [PROPOSED] */
	p->tolerance_ms = 0.05;			/* [PROPOSED] */
	p->drain_s = 2.0;
	p->learning = true;
	p->learning_pause_s = -1;
	p->tcp = true;
	p->tcp_duration_s = 10.0;		/* [PROPOSED] */
	p->tcp_warmup_s = 2.0;			/* [PROPOSED] */
	p->tcp_target_pct = 95.0;		/* REQ-TM-6 */
}

int tm_nde_check(const struct tm_nde_params *p, struct bm_error *err)
{
	if (!isfinite(p->delay_ms))
		return bm_errorf(err, "rfc7640.nde-verify: delay_ms: the delay "
				 "the NDE is set to is required (REQ-TM-2 "
				 "verifies it): --param delay_ms=MS"), -EINVAL;
	return 0;
}

double tm_nde_max_trials(const struct tm_nde_params *p)
{
	return (double)p->n_sizes;
}

double tm_nde_tolerance_ms(const struct tm_nde_params *p, double configured)
{
	return fmax(fabs(configured) * p->tolerance_pct / 100.0,
		    p->tolerance_ms);
}

double tm_nde_rtt_ms(const struct tm_nde_params *p)
{
	return p->delay_ms + (isfinite(p->reverse_delay_ms) ?
			      p->reverse_delay_ms : 0);
}

struct nde_run {
	const struct tm_nde_params *p;
	struct tm_ctx x;
	struct tm_common c;
	json_object *failures;
	bool ok;
};

static void nde_fail(struct nde_run *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void nde_fail(struct nde_run *m, const char *fmt, ...)
{
	char line[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	json_object_array_add(m->failures, json_object_new_string(line));
	m->ok = false;
}

/* One direction of one size's trial: its row, and its failures noted. */
static json_object *nde_direction(struct nde_run *m,
				  const struct bm_stream_result *s,
				  const char *from, const char *to,
				  uint32_t f, double configured_ms)
{
	const struct bm_latency *l = &s->latency;
	double cal = m->p->cal_pd_ns, tol = tm_nde_tolerance_ms(m->p,
								configured_ms);
	double mean = l->count ? (l->mean_ns - cal) / 1e6 : NAN;
	json_object *o = json_object_new_object();
	char dir[48];

	snprintf(dir, sizeof(dir), "%s->%s", from, to);
	bm_json_add_str(o, "direction", dir);
	bm_json_add_u64(o, "sent", s->sent);
	bm_json_add_u64(o, "received", s->received);
	bm_json_add_u64(o, "lost", s->lost);
	bm_json_add_double(o, "configured_delay_ms", configured_ms);
	bm_json_add_double(o, "mean_delay_ms", mean);
	bm_json_add_double(o, "min_delay_ms", l->count ?
			   (l->min_ns - cal) / 1e6 : NAN);
	bm_json_add_double(o, "p99_delay_ms", l->count ?
			   (l->p99_ns - cal) / 1e6 : NAN);
	bm_json_add_double(o, "max_delay_ms", l->count ?
			   (l->max_ns - cal) / 1e6 : NAN);
	/* the delay accuracy TM §1.2 calibrates the BDP range with */
	bm_json_add_double(o, "accuracy_ms", l->count ?
			   (l->p99_ns - l->min_ns) / 1e6 : NAN);
	bm_json_add_double(o, "delay_error_ms", mean - configured_ms);
	bm_json_add_double(o, "tolerance_ms", tol);
	bm_json_add_double(o, "tx_late_max_s", s->tx_late_max_s);
	if (!s->sent)
		nde_fail(m, "%u B %s: nothing sent", f, dir);
	else if (s->lost)
		nde_fail(m, "%u B %s: %llu of %llu frames lost", f, dir,
			 (unsigned long long)s->lost,
			 (unsigned long long)s->sent);
	if (s->sent && !l->count)
		nde_fail(m, "%u B %s: no frame with a latency", f, dir);
	else if (l->count && fabs(mean - configured_ms) > tol)
		nde_fail(m, "%u B %s: mean delay %.4f ms, configured %.4f ms "
			 "(+- %.4f)", f, dir, mean, configured_ms, tol);
	bm_json_add_bool(o, "ok", !s->lost && s->sent && l->count &&
			 fabs(mean - configured_ms) <= tol);
	return o;
}

static int nde_size(struct nde_run *m, uint32_t f, json_object *sizes)
{
	const struct tm_nde_params *p = m->p;
	struct bm_backend *be = m->x.be;
	bool back = isfinite(p->reverse_delay_ms);
	struct bm_traffic_result *r = NULL;
	struct bm_trial_result res;
	struct bm_traffic t;
	json_object *e, *dirs;
	char reason[48];
	unsigned int i;
	int ret;

	ret = tm_traffic(&m->x, &t);
	if (!ret && bm_topo_pair(&t, 0, 1, back, p->load_pct, m->x.err) < 0)
		ret = -EINVAL;
	if (ret) {
		bm_traffic_free(&t);
		return ret;
	}
	for (i = 0; i < t.n_streams; i++)
		t.streams[i].frame.dscp = (uint8_t)p->dscp;
	m->c.frame_size = f;
	snprintf(reason, sizeof(reason), "%u B through the NDE", f);
	ret = tm_trial(&m->x, &t, p->duration_s, "nde", reason, &r, &res);
	if (!ret) {
		e = json_object_new_object();
		bm_json_add_u64(e, "frame_size", f);
		bm_json_add_double(e, "fps", bm_stream_fps(&t, &t.streams[0],
							   f));
		dirs = json_object_new_array();
		json_object_array_add(dirs, nde_direction(m, &r->streams[0],
			be->port_names[0], be->port_names[1], f, p->delay_ms));
		if (back)
			json_object_array_add(dirs, nde_direction(m,
				&r->streams[1], be->port_names[1],
				be->port_names[0], f, p->reverse_delay_ms));
		json_object_object_add(e, "directions", dirs);
		json_object_array_add(sizes, e);
	}
	bm_traffic_result_free(r);
	bm_traffic_free(&t);
	return ret;
}

/* REQ-TM-2 step 3 and REQ-TM-6: one bulk connection through the NDE. */
static int nde_tcp(struct nde_run *m, json_object *out)
{
	const struct tm_nde_params *p = m->p;
	struct bm_backend *be = m->x.be;
	double target = be->line_rate_bps * p->load_pct / 100.0;
	double ceil_bps = bm_goodput_linux_bps(1500, target);
	double rtt = tm_nde_rtt_ms(p), tol = tm_nde_tolerance_ms(p, rtt);
	struct bm_tcp_result *tr = calloc(1, sizeof(*tr));
	const struct bm_tcp_conn_result *c;
	struct bm_tcp_spec ts;
	struct bm_error e2;
	json_object *o;
	double pct;
	int ret, r2;

	if (!tr)
		return bm_errorf(m->x.err, "out of memory"), -ENOMEM;
	memset(&ts, 0, sizeof(ts));
	ts.n_conn = 1;
	ts.conn[0].client = 0;
	ts.conn[0].server = 1;
	ts.conn[0].pattern = BM_TTP_BULK;
	/* paced to the target below the line (the kernel paces IP bytes:
	 * 1500 of every 1538 on the wire) */
	if (p->load_pct < 100)
		ts.conn[0].rate_bps = target * 1500.0 / 1538.0;
	snprintf(ts.cc, sizeof(ts.cc), "%s", p->cc);
	ts.sndbuf = (uint32_t)p->sndbuf;
	ts.rcvbuf = (uint32_t)p->rcvbuf;
	ts.dscp = (uint8_t)p->dscp;
	ret = bm_tcp_start(be, &ts, m->x.err);
	if (ret) {
		free(tr);
		return ret;
	}
	bm_backend_idle(be, p->tcp_warmup_s);
	ret = be->tcp->mark(be, m->x.err);
	if (!ret)
		bm_backend_idle(be, p->tcp_duration_s);
	r2 = be->tcp->stop(be, tr, &e2);
	if (!ret && r2) {
		*m->x.err = e2;
		ret = r2;
	}
	c = &tr->conn[0];
	if (!ret && (!c->established || c->error[0]))
		ret = bm_errorf(m->x.err, "the NDE's TCP connection: %s",
				c->error[0] ? c->error : "not established");
	if (ret) {
		free(tr);
		return ret;
	}
	o = bm_tcp_result_json(tr, (const char (*)[16])be->port_names);
	pct = ceil_bps > 0 ? tr->goodput_bps / ceil_bps * 100 : NAN;
	bm_json_add_double(o, "target_bps", target);
	bm_json_add_double(o, "ceiling_bps", ceil_bps);
	bm_json_add_double(o, "goodput_pct_of_ceiling", pct);
	/* REQ-TM-6: the host (or the path) cannot carry the target */
	bm_json_add_bool(o, "tcp_host_limited", !(pct >= p->tcp_target_pct));
	bm_json_add_double(o, "configured_rtt_ms", rtt);
	bm_json_add_double(o, "baseline_rtt_ms", c->baseline_rtt_ms);
	bm_json_add_double(o, "rtt_error_ms", c->baseline_rtt_ms - rtt);
	bm_json_add_double(o, "rtt_tolerance_ms", tol);
	json_object_object_add(out, "tcp", o);
	if (!isfinite(c->baseline_rtt_ms))
		nde_fail(m, "TCP: no RTT sample");
	else if (fabs(c->baseline_rtt_ms - rtt) > tol)
		nde_fail(m, "TCP: baseline RTT %.4f ms, configured %.4f ms "
			 "(+- %.4f)", c->baseline_rtt_ms, rtt, tol);
	free(tr);
	return 0;
}

int tm_nde_run(struct bm_backend *be, const struct tm_nde_params *p,
	       bm_progress_fn progress, void *ctx, json_object **result,
	       struct bm_error *err)
{
	struct nde_run m = { .p = p, .ok = true };
	json_object *out, *sizes, *o, *dev, *tcp = NULL;
	size_t i;
	int ret;

	*result = NULL;
	ret = tm_nde_check(p, err);
	if (ret)
		return ret;
	tm_common_defaults(&m.c, p->duration_s);
	m.c.drain_s = p->drain_s;
	m.c.learning = p->learning;
	m.c.learning_pause_s = p->learning_pause_s;
	m.c.dscp = p->dscp;
	ret = tm_ctx_init(&m.x, "rfc7640.nde-verify", be, &m.c, 2, 2,
			  progress, ctx, err);
	if (ret)
		return ret;
	if (p->tcp && !be->tcp) {
		tm_ctx_free(&m.x);
		return bm_errorf(err, "rfc7640.nde-verify: the TCP check needs "
				 "the TCP engine (PLAT-TCP), and this backend "
				 "has none: tcp=false skips it, as a "
				 "deviation"), -EOPNOTSUPP;
	}
	out = json_object_new_object();
	m.failures = json_object_new_array();
	o = json_object_new_object();
	bm_json_add_str(o, "from", be->port_names[0]);
	bm_json_add_str(o, "to", be->port_names[1]);
	bm_json_add_double(o, "delay_ms", p->delay_ms);
	bm_json_add_double(o, "reverse_delay_ms", p->reverse_delay_ms);
	bm_json_add_double(o, "rtt_ms", tm_nde_rtt_ms(p));
	bm_json_add_double(o, "target_bps", be->line_rate_bps * p->load_pct /
			   100.0);
	json_object_object_add(out, "configured", o);
	sizes = json_object_new_array();
	json_object_object_add(out, "per_size", sizes);
	for (i = 0; i < p->n_sizes && !ret; i++)
		ret = nde_size(&m, p->frame_sizes[i], sizes);
	if (!ret && p->tcp)
		ret = nde_tcp(&m, out);
	if (!json_object_object_get_ex(out, "tcp", &tcp))
		json_object_object_add(out, "tcp", NULL);
	if (ret)
		m.ok = false;
	bm_json_add_bool(out, "nde_ok", m.ok);
	json_object_object_add(out, "failures", m.failures);
	dev = json_object_new_array();
	if (!p->tcp)
		json_object_array_add(dev, json_object_new_string(
			"the bulk TCP check was not run (tcp=false): the "
			"target rate is verified for frames only (REQ-TM-2 "
			"step 3, REQ-TM-6)"));
	json_object_array_add(dev, json_object_new_string(
		"delay accuracy is p99 - min of the one-way delay, not p99 - "
		"p1 (SPEC TM-SETUP): the histogram has no p1"));
	if (!(p->cal_pd_ns > 0))
		json_object_array_add(dev, json_object_new_string(
			"the delays include the tester's own: no calibration "
			"given (cal_pd_ns; REQ-TS-5)"));
	*result = bm_result_envelope("rfc7640.nde-verify", "TM-SETUP",
				     bm_json_params_to_json(tm_nde_keys, 0, p,
							    tm_nde_writers),
				     &m.x.log, NULL, out, dev, be);
	tm_ctx_free(&m.x);
	if (!ret && !m.ok) {
		bm_errorf(err, "the NDE failed its verification: %s",
			  json_object_get_string(json_object_array_get_idx(
				m.failures, 0)));
		ret = -EDOM;
	}
	return ret;
}

/* The first number of key in o, or NAN. */
static double num_of(json_object *o, const char *key)
{
	json_object *v;
	double x;

	return json_object_object_get_ex(o, key, &v) &&
	       bm_json_number(v, &x) ? x : NAN;
}

static json_object *obj_of(json_object *o, const char *key)
{
	json_object *v;

	return json_object_object_get_ex(o, key, &v) &&
	       json_object_is_type(v, json_type_object) ? v : NULL;
}

int tm_nde_gate(json_object *verify, unsigned long verify_job,
		double nde_rtt_ms, bool force, json_object **nde,
		json_object *dev, struct bm_error *err)
{
	json_object *res = obj_of(verify, "results"), *cfg, *tcp, *o, *v;
	bool ok = false, limited = false;
	double rtt = NAN;
	char why[200] = "";

	*nde = NULL;
	cfg = obj_of(res, "configured");
	tcp = obj_of(res, "tcp");
	if (!verify || !res || !cfg) {
		snprintf(why, sizeof(why), "no rfc7640.nde-verify result on "
			 "these ports");
	} else {
		ok = json_object_object_get_ex(res, "nde_ok", &v) &&
		     json_object_get_boolean(v);
		rtt = num_of(cfg, "rtt_ms");
		limited = tcp && json_object_object_get_ex(tcp,
				"tcp_host_limited", &v) &&
			  json_object_get_boolean(v);
		if (!ok)
			snprintf(why, sizeof(why), "the newest rfc7640."
				 "nde-verify on these ports (job %lu) failed",
				 verify_job);
		else if (isfinite(nde_rtt_ms) &&
			 !(fabs(nde_rtt_ms - rtt) <= 1e-6))
			snprintf(why, sizeof(why), "nde_rtt_ms %g differs from "
				 "the RTT the newest rfc7640.nde-verify on "
				 "these ports (job %lu) verified, %g ms",
				 nde_rtt_ms, verify_job, rtt);
	}
	if (why[0] && !force)
		return bm_errorf(err, "%s: verify the NDE first (REQ-TM-2: "
				 "bmctl nde-verify), or run with --force",
				 why), -EPERM;
	o = json_object_new_object();
	if (verify && res && cfg) {
		bm_json_add_u64(o, "verified_by_job", verify_job);
		json_object_object_add(o, "verified_at",
			json_object_object_get_ex(obj_of(verify, "meta"),
						  "end", &v) ?
			json_object_get(v) : NULL);
		bm_json_add_bool(o, "nde_ok", ok);
		bm_json_add_double(o, "rtt_ms", rtt);
		bm_json_add_double(o, "delay_ms", num_of(cfg, "delay_ms"));
		bm_json_add_double(o, "reverse_delay_ms",
				   num_of(cfg, "reverse_delay_ms"));
		bm_json_add_double(o, "target_bps", num_of(cfg, "target_bps"));
		json_object_object_add(o, "tcp_host_limited", tcp ?
			json_object_new_boolean(limited) : NULL);
	}
	bm_json_add_bool(o, "forced", why[0] != 0);
	if (why[0]) {
		bm_json_add_str(o, "reason", why);
		bm_json_add_str_once(dev, "run with --force without a "
				     "verified NDE (REQ-TM-2, TM-CAP-SF: the "
				     "target rate and RTT MUST be verified "
				     "with the NDE alone)");
	}
	if (limited)
		bm_json_add_str_once(dev, "the NDE's verification found TCP "
				     "below its target rate (tcp_host_limited, "
				     "REQ-TM-6): the stateful results may "
				     "show the test host, not the DUT");
	*nde = o;
	return 0;
}

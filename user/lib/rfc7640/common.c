// SPDX-License-Identifier: GPL-2.0
/*
 * What every RFC 7640 procedure shares (rfc7640_int.h): its common keys,
 * its flows and trials over the job's ports, and the parts of its result
 * that say how it measured.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "bm_json.h"
#include "bm_repeat.h"
#include "bm_search.h"
#include "rfc7640_int.h"

void tm_common_defaults(struct tm_common *c, double td_s)
{
	*c = (struct tm_common){
		.frame_size = 1518,		/* [PROPOSED] */
		.accounting = TM_ACCT_L2,	/* AMB-01 */
		.burst_mode = TM_BURST_EXACT,	/* AMB-07, REQ-GEN-2.4 */
		.tr = 10,			/* TM §6 */
		.td_s = td_s,			/* AMB-42: the section's */
		.drain_s = 2.0,			/* TM-MET-LP, REQ-TRIAL-1 */
		.learning = true,
		.learning_pause_s = -1.0,
	};
}

int tm_ctx_init(struct tm_ctx *x, const char *name, struct bm_backend *be,
		const struct tm_common *c, unsigned int min_ports,
		unsigned int max_ports, bm_progress_fn progress, void *ctx,
		struct bm_error *err)
{
	memset(x, 0, sizeof(*x));
	x->name = name;
	x->be = be;
	x->c = c;
	x->progress = progress;
	x->ctx = ctx;
	x->err = err;
	if (be->n_ports < min_ports || be->n_ports > max_ports) {
		if (min_ports == max_ports)
			return bm_errorf(err, "%s needs exactly %u ports "
					 "(ingress and egress), %u given",
					 name, min_ports, be->n_ports);
		return bm_errorf(err, "%s needs %u to %u ports, %u given",
				 name, min_ports, max_ports, be->n_ports);
	}
	if (c->log_frames)
		x->frame_logs = json_object_new_array();
	return 0;
}

void tm_ctx_free(struct tm_ctx *x)
{
	bm_trial_log_free(&x->log);
}

int tm_traffic(struct tm_ctx *x, struct bm_traffic *t)
{
	unsigned int i;

	bm_traffic_init(t);
	for (i = 0; i < x->be->n_ports; i++)
		if (bm_traffic_add_port(t, x->be->port_names[i],
					x->be->line_rate_bps, x->err) < 0)
			return -EINVAL;
	return 0;
}

uint32_t tm_log_size(const struct tm_ctx *x, uint64_t total, bool analyse)
{
	uint64_t n = analyse ? total : 0;

	if (n < x->c->log_frames)
		n = x->c->log_frames;
	return n > BM_TRAFFIC_MAX_LOG ? BM_TRAFFIC_MAX_LOG : (uint32_t)n;
}

static void burst_stream(struct bm_stream_spec *s, unsigned int tx,
			 unsigned int rx, uint8_t dscp, uint32_t size,
			 uint32_t len, uint32_t last, uint32_t count,
			 double period_s, double start_s)
{
	bm_stream_init(s, tx, rx, 100.0);
	s->frame.dscp = dscp;
	s->frame_size = size;
	s->pattern = BM_STREAM_BURSTS;
	s->burst_len = len;
	s->burst_last_size = last != size ? last : 0;
	s->burst_count = count;
	s->burst_period_s = period_s;
	s->start_s = start_s;
}

int tm_add_bursts(struct tm_ctx *x, struct bm_traffic *t, unsigned int tx,
		  unsigned int rx, uint8_t dscp, const struct tm_burst *b,
		  uint32_t count, double period_s, double start_s, bool analyse,
		  struct tm_flow *f)
{
	struct bm_stream_spec s;
	uint64_t n1 = b->frames;
	int i;

	if (b->frames > UINT32_MAX)
		return bm_errorf(x->err, "%s: a burst of %llu frames is too "
				 "long", x->name,
				 (unsigned long long)b->frames);
	*f = (struct tm_flow){ .first = t->n_streams, .bursts = count,
			       .dscp = dscp };
	/* a resized pair goes as a second stream right behind the first */
	if (b->frames >= 2 && b->penult_size != b->frame_size)
		n1 = b->frames - 2;
	if (n1) {
		burst_stream(&s, tx, rx, dscp, b->frame_size, (uint32_t)n1,
			     n1 == b->frames ? b->last_size : b->frame_size,
			     count, period_s, start_s);
		s.log_frames = tm_log_size(x, n1 * count, analyse);
		i = bm_traffic_add_stream(t, &s, x->err);
		if (i < 0)
			return i;
		f->per_burst[f->n++] = (uint32_t)n1;
	}
	if (n1 < b->frames) {
		burst_stream(&s, tx, rx, dscp, b->penult_size, 2, b->last_size,
			     count, period_s, start_s + (double)n1 *
			     (b->frame_size + 20.0) * 8.0 /
			     x->be->line_rate_bps);
		s.log_frames = tm_log_size(x, 2ULL * count, analyse);
		i = bm_traffic_add_stream(t, &s, x->err);
		if (i < 0)
			return i;
		f->per_burst[f->n++] = 2;
	}
	return 0;
}

void tm_flow_join(struct tm_flow *f, const struct tm_flow *g)
{
	unsigned int i;

	for (i = 0; i < g->n && f->n < TM_FLOW_MAX_PIECES; i++)
		f->per_burst[f->n++] = g->per_burst[i];
}

int tm_add_cbr(struct tm_ctx *x, struct bm_traffic *t, unsigned int tx,
	       unsigned int rx, uint8_t dscp, uint32_t frame_size, double fps,
	       struct tm_flow *f)
{
	struct bm_stream_spec s;
	int i;

	bm_stream_init(&s, tx, rx, fps);
	s.load_unit = BM_LOAD_FPS;
	s.frame.dscp = dscp;
	s.frame_size = frame_size;
	s.log_frames = tm_log_size(x, 0, false);
	*f = (struct tm_flow){ .first = t->n_streams, .n = 1, .dscp = dscp };
	i = bm_traffic_add_stream(t, &s, x->err);
	return i < 0 ? i : 0;
}

int tm_trial(struct tm_ctx *x, struct bm_traffic *t, double duration_s,
	     const char *phase, const char *reason,
	     struct bm_traffic_result **r, struct bm_trial_result *res)
{
	struct bm_trial_spec spec;
	int ret;

	*r = NULL;
	ret = bm_traffic_check(t, x->c->frame_size, x->err);
	if (ret)
		return ret;
	*r = bm_traffic_result_new(t);
	if (!*r) {
		bm_errorf(x->err, "out of memory");
		return -ENOMEM;
	}
	memset(&spec, 0, sizeof(spec));
	spec.frame_size = x->c->frame_size;
	spec.duration_s = duration_s;
	spec.drain_s = x->c->drain_s;
	spec.latency = true;
	spec.learning = x->c->learning && !x->learned;
	spec.learning_pause_s = x->c->learning_pause_s;
	spec.traffic = t;
	spec.traffic_res = *r;
	ret = bm_search_trial(x->be, &spec, res, &x->log, phase, reason,
			      x->progress, x->ctx, x->err);
	if (ret)
		return ret;
	x->learned = true;
	if (res->burst_gaps_measured)
		x->burst_late_max_s = fmax(x->burst_late_max_s,
					   res->tx_burst_late_max_s);
	snprintf(x->ts_source, sizeof(x->ts_source), "%s", res->ts_source);
	if (!strcmp(res->ts_source, "sw"))
		x->sw_ts = true;
	return 0;
}

int tm_metrics(struct tm_ctx *x, const struct bm_traffic *t,
	       const struct bm_traffic_result *r, const struct tm_flow *f,
	       struct tm_flow_metrics *m)
{
	char why[sizeof(x->err->msg)];
	int ret;

	ret = tm_flow_metrics(t, r, f, x->c->accounting, m, x->err);
	if (ret) {
		memcpy(why, x->err->msg, sizeof(why));
		return bm_errorf(x->err, "%s: %s", x->name, why);
	}
	tm_flow_calibrate(m, x->c->cal_pd_ns, x->c->cal_pdv_ns);
	if (m->bursts_analysed < m->bursts)
		x->partial_log = true;
	return 0;
}

int tm_trial_flows(struct tm_ctx *x, struct bm_traffic *t, double duration_s,
		   const char *phase, const char *reason, unsigned int test,
		   const struct tm_flow *f, struct tm_flow_metrics *m,
		   unsigned int n, struct bm_traffic_result **r)
{
	struct bm_trial_result res;
	unsigned int i;
	int ret;

	ret = tm_trial(x, t, duration_s, phase, reason, r, &res);
	for (i = 0; i < n && !ret; i++)
		ret = tm_metrics(x, t, *r, &f[i], &m[i]);
	if (!ret)
		tm_keep_logs(x, test, phase, t, *r);
	return ret;
}

void tm_keep_logs(struct tm_ctx *x, unsigned int test, const char *step,
		  const struct bm_traffic *t, const struct bm_traffic_result *r)
{
	uint32_t n = x->c->log_frames;
	json_object *o, *a, *e;
	unsigned int s;
	size_t i;

	if (!n || !x->frame_logs)
		return;
	for (s = 0; s < t->n_streams; s++) {
		const struct bm_stream_result *sr = &r->streams[s];

		o = json_object_new_object();
		bm_json_add_u64(o, "test", test);
		bm_json_add_str(o, "step", step);
		bm_json_add_u64(o, "stream", s);
		a = json_object_new_array();
		for (i = 0; i < sr->n_tx_log && i < n; i++)
			json_object_array_add(a, json_object_new_double(
				sr->tx_log_s[i]));
		json_object_object_add(o, "tx_s", a);
		/* compact: [seq, tx_s, rx_s, size, dscp] a frame */
		a = json_object_new_array();
		for (i = 0; i < sr->n_rx_log && i < n; i++) {
			const struct bm_frame_rec *f = &sr->rx_log[i];

			e = json_object_new_array();
			json_object_array_add(e, json_object_new_uint64(f->seq));
			json_object_array_add(e, json_object_new_double(f->tx_s));
			json_object_array_add(e, json_object_new_double(f->rx_s));
			json_object_array_add(e, json_object_new_int64(f->size));
			json_object_array_add(e, json_object_new_int64(f->dscp));
			json_object_array_add(a, e);
		}
		json_object_object_add(o, "rx", a);
		json_object_array_add(x->frame_logs, o);
	}
}

void tm_metrics_json(json_object *o, const struct tm_flow_metrics *m)
{
	bm_json_add_u64(o, "lp", m->lost);
	bm_json_add_u64(o, "oos", m->reordered);
	/* TM-MET-PD: seconds, a real number (AMB-48: min, mean, max) */
	bm_json_add_double(o, "pd_min_s", m->pd_min_ns * 1e-9);
	bm_json_add_double(o, "pd_mean_s", m->pd_mean_ns * 1e-9);
	bm_json_add_double(o, "pd_max_s", m->pd_max_ns * 1e-9);
	bm_json_add_double(o, "pdv_s", m->pdv_ns * 1e-9);
	/* REQ-STAT-3: IPDV, signed (RFC 5481 §4.1) */
	bm_json_add_u64(o, "ipdv_pairs", m->ipdv_pairs);
	bm_json_add_double(o, "ipdv_min_s", m->ipdv_min_ns * 1e-9);
	bm_json_add_double(o, "ipdv_mean_s", m->ipdv_mean_ns * 1e-9);
	bm_json_add_double(o, "ipdv_max_s", m->ipdv_max_ns * 1e-9);
}

void tm_dscp_rows(json_object *a, unsigned int test, const char *step,
		  const struct tm_flow_metrics *m)
{
	json_object *o;
	unsigned int d;

	for (d = 0; d < 64; d++) {
		if (!m->rx_dscp[d])
			continue;
		o = json_object_new_object();
		bm_json_add_u64(o, "test", test);
		bm_json_add_str(o, "step", step);
		bm_json_add_u64(o, "dscp", d);
		bm_json_add_u64(o, "frames", m->rx_dscp[d]);
		bm_json_add_double(o, "bytes", m->rx_dscp_bytes[d]);
		bm_json_add_bool(o, "remarked", d != m->dscp);
		json_object_array_add(a, o);
	}
}

json_object *tm_egress_row(unsigned int test, const char *egress)
{
	json_object *o = json_object_new_object();

	bm_json_add_u64(o, "test", test);
	bm_json_add_str(o, "egress", egress);
	return o;
}

void tm_add_row(json_object *res, const char *key, json_object *o)
{
	json_object_array_add(json_object_object_get(res, key), o);
}

void tm_stream_share_json(json_object *o, const struct tm_flow_metrics *s,
			  const struct tm_egress *eb, double td,
			  double share_pct)
{
	bm_json_add_double(o, "offered_bps", s->tx_bytes * 8.0 / td);
	/* TM-MET-SR of the stream: its part of the egress's bits over the
	 * egress's window (tm_egress) */
	bm_json_add_double(o, "throughput_bps",
			   tm_egress_flow_tput(eb, s, td));
	bm_json_add_double(o, "rx_bytes", s->rx_bytes);
	bm_json_add_double(o, "share_pct", share_pct);
	tm_metrics_json(o, s);
	bm_json_add_double(o, "loss_pct", s->sent ? 100.0 * (double)s->lost /
			   (double)s->sent : NAN);
}

void tm_stat(json_object *stats, const char *name, const double *v, size_t n)
{
	struct bm_repeat st;

	/* a run nothing was measured in (NAN) makes the block's moments
	 * null rather than a statistic of the other runs */
	bm_repeat_of(v, n, &st);
	json_object_object_add(stats, name, bm_repeat_to_json(&st, v));
}

json_object *tm_measurement_json(const struct tm_ctx *x)
{
	const struct tm_common *c = x->c;
	json_object *o = json_object_new_object();

	/* TM-MET-LP MUST: the threshold before a frame counts as lost */
	bm_json_add_double(o, "loss_wait_s", c->drain_s);
	bm_json_add_str(o, "pd_event", "FF: rx timestamp - tx timestamp "
			"(RFC 1242, one clock domain)");
	bm_json_add_str(o, "ts_source", x->ts_source[0] ? x->ts_source : NULL);
	bm_json_add_double(o, "ts_accuracy_s", x->be->ts_accuracy ?
			   x->be->ts_accuracy_ns * 1e-9 : NAN);
	/* REQ-TS-5: whether the tester's own PD and PDV were subtracted */
	bm_json_add_bool(o, "calibrated", c->cal_pd_ns > 0 ||
			 c->cal_pdv_ns > 0);
	bm_json_add_double(o, "cal_pd_s", c->cal_pd_ns * 1e-9);
	bm_json_add_double(o, "cal_pdv_s", c->cal_pdv_ns * 1e-9);
	bm_json_add_str(o, "accounting", tm_acct_names[c->accounting]);
	bm_json_add_str(o, "kb", "1 KB = 1000 B (AMB-02)");
	return o;
}

static void note(json_object *dev, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void note(json_object *dev, const char *fmt, ...)
{
	char line[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	json_object_array_add(dev, json_object_new_string(line));
}

void tm_deviations(const struct tm_ctx *x, json_object *dev, bool with_td)
{
	const struct tm_common *c = x->c;

	note(dev, "bytes counted in %s accounting (AMB-01; SPEC §2.2), "
	     "bursts %s (AMB-07, REQ-GEN-2.4)", tm_acct_names[c->accounting],
	     c->burst_mode == TM_BURST_EXACT ? "byte-exact with a remainder "
	     "frame" : "of whole frames (ceil)");
	note(dev, "PD reported as min, mean and max (AMB-48); OOS is the "
	     "RFC 4737 reordered count (AMB-47)");
	if (with_td && c->td_s < 60.0)
		note(dev, "Td = %g s is below the 60 s TM §6 recommends "
		     "(AMB-42)", c->td_s);
	if (with_td && c->tr < 10)
		note(dev, "Tr = %u: TM §6 recommends at least 10 runs", c->tr);
	if (!(c->cal_pd_ns > 0) || !(c->cal_pdv_ns > 0))
		note(dev, "PD%s include the tester's own delay: no calibration "
		     "given (cal_pd_ns, cal_pdv_ns; TM §5.1, REQ-TS-5)",
		     c->cal_pd_ns > 0 ? "V does" : c->cal_pdv_ns > 0 ?
		     " does" : " and PDV");
	if (x->partial_log)
		note(dev, "the frame log held fewer frames than were sent: "
		     "per-burst bytes from the bursts it held "
		     "(bursts_analysed)");
	/* TM §5.1: bursts at the line rate (burst_rate_bps); one the
	 * generator spread out gave a bucket time to refill, a queue
	 * time to drain, and what passed says less than it seems */
	if (x->burst_late_max_s > BM_BURST_GAP_TOL_S)
		note(dev, "bursts not back to back at the line rate "
		     "(burst_rate_bps): a burst's frame left up to %.3f ms "
		     "behind (bmgen.ko's minimum-gap measure); a DUT's "
		     "bucket refilled and its queue drained meanwhile, by up "
		     "to its rate x that time", x->burst_late_max_s * 1e3);
}

uint32_t tm_bursts_in(double td_s, double ti_s)
{
	double n = floor(td_s / ti_s + 1e-9);

	if (n < 1)
		return 1;
	return n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
}

int tm_ti_fits(struct tm_ctx *x, const struct tm_burst *b, double ti_s,
	       const char *what)
{
	double t = tm_burst_time_s(b, x->be->line_rate_bps);

	if (ti_s >= t)
		return 0;
	return bm_errorf(x->err, "%s: %s = %.6g s is shorter than one burst "
			 "of %llu B at the line rate (%.6g s at %g bit/s): the "
			 "bursts would not fit", x->name, what, ti_s,
			 (unsigned long long)b->nominal, t,
			 x->be->line_rate_bps);
}

int tm_plan(struct tm_ctx *x, uint64_t bytes, const char *key,
	    struct tm_burst *b)
{
	char why[sizeof(x->err->msg)];

	if (!tm_burst_plan(bytes, x->c->frame_size, x->c->accounting,
			   x->c->burst_mode, b, x->err))
		return 0;
	memcpy(why, x->err->msg, sizeof(why));
	return bm_errorf(x->err, "%s: %s: %s", x->name, key, why);
}

void tm_plan_json(json_object *o, const char *prefix, const struct tm_burst *b)
{
	char k[64];

	snprintf(k, sizeof(k), "%s_bytes", prefix);
	bm_json_add_u64(o, k, b->nominal);
	snprintf(k, sizeof(k), "%s_actual_bytes", prefix);
	bm_json_add_u64(o, k, b->actual);
	snprintf(k, sizeof(k), "%s_frames", prefix);
	bm_json_add_u64(o, k, b->frames);
	snprintf(k, sizeof(k), "%s_last_frame_size", prefix);
	bm_json_add_u64(o, k, b->last_size);
	if (b->resized) {
		snprintf(k, sizeof(k), "%s_penult_frame_size", prefix);
		bm_json_add_u64(o, k, b->penult_size);
	}
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The one trial record (bm_result.h): three serialisers once wrote it
 * with different keys (loss_pct / loss_ratio, rate_fps / load_fps,
 * reason / why); now results, the MLR sub-result and progress events all
 * come from here.
 */
#include <math.h>
#include <string.h>

#include <json-c/json.h>

#include "bm_json.h"
#include "bm_result.h"

static const char *pattern_name(enum bm_pattern p)
{
	switch (p) {
	case BM_PAT_BURST:
		return "burst";
	case BM_PAT_STEP:
		return "step";
	default:
		return "rate";
	}
}

/* What the trial offered: the burst, or the rate, its load and duration,
 * and a step's second rate; an N-port trial's busiest port. */
static void offered_json(json_object *o, const struct bm_trial_record *rec,
			 double line_rate_bps)
{
	const struct bm_trial_spec *sp = &rec->spec;
	const struct bm_trial_result *r = &rec->res;

	if (sp->traffic) {
		bm_json_add_double(o, "rate_fps", rec->traffic_fps);
		if (rec->traffic_pct_line > 0)
			bm_json_add_double(o, "load_pct",
					   rec->traffic_pct_line);
		bm_json_add_double(o, "duration_s", sp->duration_s);
	} else if (sp->pair.pattern == BM_PAT_BURST) {
		bm_json_add_u64(o, "burst_frames", sp->pair.burst_frames);
	} else {
		bm_json_add_double(o, "rate_fps", sp->pair.rate_fps);
		/* an IMIX's load is of its mean size (SPEC 2.3) */
		if (line_rate_bps > 0 && r->mean_frame_size > 0)
			bm_json_add_double(o, "load_pct", sp->pair.rate_fps *
					   (r->mean_frame_size + 20.0) * 8.0 /
					   line_rate_bps * 100.0);
		else if (line_rate_bps > 0 && sp->frame_size)
			bm_json_add_double(o, "load_pct",
					   bm_load_pct(sp->pair.rate_fps,
						       sp->frame_size,
						       line_rate_bps));
		bm_json_add_double(o, "duration_s", sp->duration_s);
	}
	if (sp->pair.pattern == BM_PAT_STEP) {
		bm_json_add_double(o, "step_rate_fps", sp->pair.step_rate_fps);
		bm_json_add_double(o, "step_duration_s", sp->pair.step_duration_s);
		bm_json_add_double(o, "last_loss_after_step_s",
				   r->last_loss_after_step_s);
	}
}

/* The counters of a stream type of its own (broadcast, management,
 * protocols, filters, routing updates) and the links lost. */
static void stream_type_json(json_object *o, const struct bm_trial_result *r)
{
	if (r->stream_type[0])
		bm_json_add_str(o, "stream_type", r->stream_type);
	if (r->mean_frame_size > 0)
		bm_json_add_double(o, "mean_frame_size", r->mean_frame_size);
	if (!strncmp(r->stream_type, "broadcast", 9)) {
		bm_json_add_u64(o, "broadcast_sent", r->bcast_sent);
		bm_json_add_u64(o, "broadcast_received", r->bcast_received);
	}
	if (!strcmp(r->stream_type, "management")) {
		bm_json_add_u64(o, "mgmt_sent", r->mgmt_sent);
		bm_json_add_u64(o, "mgmt_answered", r->mgmt_answered);
		bm_json_add_u64(o, "mgmt_verified", r->mgmt_verified);
		bm_json_add_str(o, "mgmt_error", r->mgmt_error[0] ?
				r->mgmt_error : NULL);
	}
	if (!strncmp(r->stream_type, "protocols", 9)) {
		bm_json_add_u64(o, "ipv4_sent", r->proto_sent[0]);
		bm_json_add_u64(o, "ipv4_received", r->proto_received[0]);
		bm_json_add_u64(o, "ipv6_sent", r->proto_sent[1]);
		bm_json_add_u64(o, "ipv6_received", r->proto_received[1]);
	}
	/* RFC 2544 §13 and §11.3 routing updates */
	if (r->route_setup_sent)
		bm_json_add_u64(o, "route_setup_sent", r->route_setup_sent);
	if (r->routing_ab[0])
		bm_json_add_str(o, "routing_ab", r->routing_ab);
	if (r->rip_error[0])
		bm_json_add_str(o, "routing_error", r->rip_error);
	if (!strncmp(r->stream_type, "filters", 7)) {
		bm_json_add_u64(o, "probe_sent", r->probe_sent);
		bm_json_add_u64(o, "probe_received", r->probe_received);
	}
	/* only a trial that may lose its links keeps them (R2544-RESET) */
	if (r->link_downs) {
		bm_json_add_u64(o, "link_downs", r->link_downs);
		bm_json_add_str(o, "link_down_port", r->link_down_port);
	}
}

/* The frames counted, the loss (loss_ratio < 0: of these counts) and
 * the late ones. */
static void counts_json(json_object *o, const struct bm_trial_result *r,
			double loss_ratio)
{
	bm_json_add_u64(o, "intended", r->intended);
	bm_json_add_u64(o, "attempted", r->attempted);
	bm_json_add_u64(o, "received", r->received);
	bm_json_add_u64(o, "lost", r->lost);
	if (loss_ratio < 0)
		loss_ratio = r->attempted ? (double)r->lost / r->attempted : 0.0;
	bm_json_add_double(o, "loss_ratio", loss_ratio);
	bm_json_add_double(o, "loss_pct", 100.0 * loss_ratio);
	bm_json_add_u64(o, "duplicate", r->duplicate);
	bm_json_add_u64(o, "reordered", r->reordered);
	bm_json_add_u64(o, "gap_events", r->gap_events);
	bm_json_add_u64(o, "late", r->late);
	if (r->late_watch_s < 0)
		json_object_object_add(o, "late_watch_s", NULL);
	else
		bm_json_add_double(o, "late_watch_s", r->late_watch_s);
}

/* How well the generator kept to the spec: its shortfall, lateness and
 * stalls, and how long it sent. */
static void generator_json(json_object *o, const struct bm_trial_result *r)
{
	json_object *stalls;
	size_t n;

	bm_json_add_bool(o, "generator_limited", r->generator_limited);
	bm_json_add_u64(o, "shortfall", r->shortfall);
	bm_json_add_u64(o, "tx_late_frames", r->tx_late_frames);
	bm_json_add_double(o, "tx_late_max_s", r->tx_late_max_s);
	if (r->burst_gaps_measured)
		bm_json_add_double(o, "tx_burst_late_max_s",
				   r->tx_burst_late_max_s);
	stalls = json_object_new_array();
	for (n = 0; n < BM_TX_STALLS && r->tx_stalls_s[n] > 0; n++)
		json_object_array_add(stalls,
				      json_object_new_double(r->tx_stalls_s[n]));
	json_object_object_add(o, "tx_stalls_s", stalls);
	bm_json_add_double(o, "actual_duration_s", r->actual_duration_s);
}

/* The spec's event in the trial and its tagged frame, where it had them. */
static void marks_json(json_object *o, const struct bm_trial_spec *sp,
		       const struct bm_trial_result *r)
{
	if (sp->event_fn) {
		bm_json_add_double(o, "event_fired_s", r->event_fired_s);
		bm_json_add_double(o, "max_gap_s", r->max_gap_s);
		bm_json_add_double(o, "max_gap_start_s", r->max_gap_start_s);
	}
	if (sp->pair.tag) {
		bm_json_add_double(o, "tag_tx_s", r->tag_tx_s);
		bm_json_add_bool(o, "tag_received", r->tag_received);
		bm_json_add_double(o, "tag_latency_ns", r->tag_latency_ns);
		if (memcmp(sp->pair.tag_dst_ip4, "\0\0\0\0", 4)) {
			char a[16];

			bm_ip4_text(sp->pair.tag_dst_ip4, a);
			bm_json_add_str(o, "tag_destination", a);
		}
	}
}

/* The latency of the frames measured: its summary and percentiles. */
static json_object *latency_json(const struct bm_latency *lat)
{
	json_object *l = json_object_new_object();

	bm_json_add_u64(l, "count", lat->count);
	if (lat->below_zero)
		bm_json_add_u64(l, "below_zero", lat->below_zero);
	bm_json_add_double(l, "min_ns", lat->min_ns);
	bm_json_add_double(l, "mean_ns", lat->mean_ns);
	bm_json_add_double(l, "max_ns", lat->max_ns);
	bm_json_add_double(l, "stddev_ns", lat->stddev_ns);
	bm_json_add_double(l, "p50_ns", lat->p50_ns);
	bm_json_add_double(l, "p90_ns", lat->p90_ns);
	bm_json_add_double(l, "p99_ns", lat->p99_ns);
	bm_json_add_double(l, "p999_ns", lat->p999_ns);
	return l;
}

/* What the NICs stamped, their clock, its accuracy. */
static json_object *hw_latency_json(const struct bm_trial_result *r)
{
	json_object *l = json_object_new_object();

	bm_json_add_str(l, "source", "hw");
	bm_json_add_str(l, "clock", "PHC, to CLOCK_MONOTONIC by PTP_SYS_OFFSET_EXTENDED");
	bm_json_add_double(l, "accuracy_ns", r->hw.accuracy_ns);
	bm_json_add_str(l, "tx_port_rx_filter", r->hw.tx_filter);
	bm_json_add_str(l, "rx_port_rx_filter", r->hw.rx_filter);
	bm_json_add_u64(l, "tx_requests", r->hw.tx_requests);
	bm_json_add_u64(l, "tx_stamps", r->hw.tx_stamps);
	bm_json_add_u64(l, "tx_missed", r->hw.tx_requests > r->hw.tx_stamps ?
			r->hw.tx_requests - r->hw.tx_stamps : 0);
	bm_json_add_u64(l, "rx_stamps", r->hw.rx_stamps);
	bm_json_add_u64(l, "count", r->hw.count);
	if (r->hw.count) {
		bm_json_add_double(l, "min_ns", r->hw.min_ns);
		bm_json_add_double(l, "mean_ns", r->hw.mean_ns);
		bm_json_add_double(l, "max_ns", r->hw.max_ns);
		bm_json_add_double(l, "sw_mean_ns", r->hw.sw_mean_ns);
	}
	if (r->sync.n_hosts) {
		/* a pool's: the pairs it made of two hosts' stamps */
		bm_json_add_u64(l, "across_hosts", r->hw.across);
		if (r->hw.across && isfinite(r->hw.sync_error_ns))
			bm_json_add_double(l, "sync_error_ns",
					   r->hw.sync_error_ns);
	}
	return l;
}

/* A pool's trial: each host's clock by linuxptp and what they come to
 * (bm_pool_sync). */
static json_object *clock_json(const struct bm_clock_reading *c)
{
	json_object *o = json_object_new_object();

	if (!c->valid) {
		bm_json_add_str(o, "error", c->error);
		return o;
	}
	bm_json_add_double(o, "offset_ns", (double)c->offset_ns);
	bm_json_add_str(o, "grandmaster", c->gm);
	bm_json_add_bool(o, "follows", c->gm_present);
	return o;
}

/* n offsets read, and their range: null with none. */
static void add_offsets(json_object *o, unsigned int n, int64_t min_ns,
			int64_t max_ns)
{
	bm_json_add_u64(o, "samples", n);
	bm_json_add_double(o, "min_offset_ns", n ? (double)min_ns : NAN);
	bm_json_add_double(o, "max_offset_ns", n ? (double)max_ns : NAN);
}

/* ptp4l's answers while a host's part ran: how many, their range. */
static json_object *span_json(const struct bm_clock_span *d)
{
	json_object *o = json_object_new_object();

	add_offsets(o, d->samples, d->min_ns, d->max_ns);
	bm_json_add_u64(o, "missed", d->missed);
	if (d->other_gm[0])
		bm_json_add_str(o, "other_grandmaster", d->other_gm);
	return o;
}

/* phc2sys's reports of a host's system clock in its part: the log, how
 * many, their range; or why none. */
static json_object *system_json(const struct bm_sysclock_span *s)
{
	json_object *o = json_object_new_object();

	bm_json_add_str(o, "source", s->source);
	add_offsets(o, s->samples, s->min_ns, s->max_ns);
	if (!s->samples)
		bm_json_add_str(o, "error", s->error);
	return o;
}

static json_object *sync_json(const struct bm_pool_sync *sy)
{
	json_object *o = json_object_new_object(), *a, *h;
	unsigned int i;

	a = json_object_new_array();
	for (i = 0; i < sy->n_hosts; i++) {
		const struct bm_host_part *c = &sy->hosts[i];

		h = json_object_new_object();
		bm_json_add_str(h, "host", c->host[0] ? c->host : "local");
		json_object_object_add(h, "before", clock_json(&c->before));
		json_object_object_add(h, "after", clock_json(&c->after));
		json_object_object_add(h, "during", span_json(&c->during));
		if (c->system.source[0])
			json_object_object_add(h, "system_clock",
					       system_json(&c->system));
		bm_json_add_double(h, "first_tx_s", c->first_tx_s);
		bm_json_add_u64(h, "sent", c->sent);
		bm_json_add_u64(h, "received", c->received);
		if (c->failed)
			bm_json_add_bool(h, "failed", true);
		json_object_array_add(a, h);
	}
	json_object_object_add(o, "hosts", a);
	bm_json_add_double(o, "error_ns", sy->error_ns);
	bm_json_add_double(o, "start_skew_ns", sy->start_skew_ns);
	bm_json_add_double(o, "tolerance_ns", sy->tolerance_ns > 0 ?
			   sy->tolerance_ns : NAN);
	bm_json_add_bool(o, "within", sy->within);
	if (!sy->within)
		bm_json_add_str(o, "why", sy->why);
	if (sy->failed[0])
		bm_json_add_str(o, "failed", sy->failed);
	return o;
}

json_object *bm_trial_record_to_json(const struct bm_trial_record *rec,
				     double line_rate_bps, double loss_ratio)
{
	const struct bm_trial_spec *sp = &rec->spec;
	const struct bm_trial_result *r = &rec->res;
	json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	bm_json_add_u64(o, "index", rec->index);
	bm_json_add_str(o, "phase", rec->phase);
	bm_json_add_str(o, "reason", rec->reason);
	bm_json_add_u64(o, "frame_size", sp->frame_size);
	bm_json_add_str(o, "pattern", pattern_name(sp->pair.pattern));
	bm_json_add_str(o, "topology", bm_topology_name(sp->pair.topology));
	offered_json(o, rec, line_rate_bps);
	stream_type_json(o, r);
	counts_json(o, r, loss_ratio);
	generator_json(o, r);
	marks_json(o, sp, r);
	if (r->latency.count)
		json_object_object_add(o, "latency", latency_json(&r->latency));
	bm_json_add_str(o, "ts_source", r->ts_source);
	if (r->tx_path[0])
		bm_json_add_str(o, "tx_path", r->tx_path);
	if (r->tx_lanes)
		bm_json_add_u64(o, "tx_kthreads", r->tx_lanes);
	/* the clock of that latency (its accuracy, REQ-TS-4: meta's
	 * timestamp_accuracy, or the calibration) */
	if (!strcmp(r->ts_source, "sw"))
		bm_json_add_str(o, "ts_clock", "CLOCK_MONOTONIC");
	else if (!strcmp(r->ts_source, "sim"))
		bm_json_add_str(o, "ts_clock", "simulated");
	if (r->hw.on)
		json_object_object_add(o, "hw_latency", hw_latency_json(r));
	if (r->sync.n_hosts)
		json_object_object_add(o, "sync", sync_json(&r->sync));
	return o;
}

json_object *bm_result_envelope(const char *id, const char *ref,
				json_object *params,
				const struct bm_trial_log *log,
				const double *loss_ratios,
				json_object *results, json_object *deviations,
				const struct bm_backend *be)
{
	json_object *d = json_object_new_object(), *p, *trials, *dev;
	size_t i;

	p = json_object_new_object();
	trials = json_object_new_array();
	dev = json_object_new_array();
	if (!d || !p || !trials || !dev) {
		json_object_put(d);
		json_object_put(p);
		json_object_put(trials);
		json_object_put(dev);
		json_object_put(params);
		json_object_put(results);
		json_object_put(deviations);
		return NULL;
	}
	json_object_object_add(d, "schema_version",
			       json_object_new_int(BM_RESULT_SCHEMA_VERSION));
	bm_json_add_str(p, "id", id);
	bm_json_add_str(p, "ref", ref);
	json_object_object_add(d, "procedure", p);
	json_object_object_add(d, "params", params ? params :
			       json_object_new_object());
	for (i = 0; log && i < log->n; i++)
		json_object_array_add(trials, bm_trial_record_to_json(
			&log->v[i], be ? be->line_rate_bps : 0,
			loss_ratios ? loss_ratios[i] : -1));
	json_object_object_add(d, "trials", trials);
	json_object_object_add(d, "results", results ? results :
			       json_object_new_object());
	/* the backend's own statement first, then the procedure's, once */
	if (be && be->deviation)
		json_object_array_add(dev, json_object_new_string(
			be->deviation));
	for (i = 0; deviations && i < json_object_array_length(deviations); i++) {
		json_object *e = json_object_array_get_idx(deviations, i);

		if (be && be->deviation &&
		    !strcmp(json_object_get_string(e), be->deviation))
			continue;
		json_object_array_add(dev, json_object_get(e));
	}
	json_object_put(deviations);
	json_object_object_add(d, "deviations", dev);
	/* RFC 2544 §7: the exact frames, as the module built them */
	if (be && be->frame_hex[0][0]) {
		json_object *f = json_object_new_object();

		bm_json_add_str(f, "forward", be->frame_hex[0]);
		if (be->frame_hex[1][0])
			bm_json_add_str(f, "reverse", be->frame_hex[1]);
		json_object_object_add(d, "frames", f);
	}
	return d;
}

json_object *bm_lat_hist_json(const uint64_t *h)
{
	json_object *a = json_object_new_array(), *b;
	unsigned int i;

	if (!a)
		return NULL;
	for (i = 0; i < BM_LAT_HIST_BUCKETS; i++) {
		if (!h[i])
			continue;
		b = json_object_new_object();
		bm_json_add_double(b, "lower_ns", bm_lat_hist_lower_ns(i));
		bm_json_add_u64(b, "count", h[i]);
		json_object_array_add(a, b);
	}
	return a;
}

void bm_result_mark_partial(json_object *doc, int ret, const char *msg)
{
	if (!doc || !ret || json_object_object_get_ex(doc, "error", NULL))
		return;
	json_object_object_add(doc, "error", json_object_new_string(
		msg && *msg ? msg : strerror(ret < 0 ? -ret : ret)));
}

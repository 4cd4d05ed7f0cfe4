// SPDX-License-Identifier: GPL-2.0
/*
 * RFC 2544 §26.2 latency (R2544-LAT): at the throughput rate, a stream of
 * lat_trial_s with one tagged frame at lat_tag_at_s; latency = B - A per
 * the RFC 1242 definition; >= 20 valid repetitions, the mean reported.
 *
 * Backends timestamp first bits (REQ-TS-1), so the tagged frame's latency
 * is FIFO = bit forwarding.  Store and forward (LIFO) starts at the last
 * bit out: sf = bf - S_in with S_in = F x 8 / R_line (REQ-TS-2).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rfc2544_int.h"

/* Percentile summary of the repetitions' full distributions [EXTENSION]. */
struct lat_dist {
	double min, mean, max, p50, p90, p99, p999;
	unsigned int n;
};

static void dist_add(struct lat_dist *d, const struct bm_latency *l,
		     double shift)
{
	if (!l->count)
		return;
	if (!d->n || l->min_ns - shift < d->min)
		d->min = l->min_ns - shift;
	if (!d->n || l->max_ns - shift > d->max)
		d->max = l->max_ns - shift;
	d->mean += l->mean_ns - shift;
	d->p50 += l->p50_ns - shift;
	d->p90 += l->p90_ns - shift;
	d->p99 += l->p99_ns - shift;
	d->p999 += l->p999_ns - shift;
	d->n++;
}

static json_object *dist_json(const struct lat_dist *d)
{
	json_object *o = json_object_new_object();

	bm_json_add_u64(o, "repetitions", d->n);
	bm_json_add_double(o, "min_ns", d->min);
	bm_json_add_double(o, "mean_ns", d->mean / d->n);
	bm_json_add_double(o, "max_ns", d->max);
	bm_json_add_double(o, "p50_ns", d->p50 / d->n);
	bm_json_add_double(o, "p90_ns", d->p90 / d->n);
	bm_json_add_double(o, "p99_ns", d->p99 / d->n);
	bm_json_add_double(o, "p999_ns", d->p999 / d->n);
	return o;
}

/*
 * What the timestamps are worth: RFC 2544 §26.2 asks only for the latency
 * definition, but RFC 8238 §4.3 and SPEC REQ-TS-4 make the accuracy a
 * MUST of a latency report.  A calibrated value given by the user wins
 * over the backend's own statement; neither known is null, never 0.
 */
static void lat_timestamps(struct r2544_run *r, json_object *e,
			   const char *src)
{
	const struct bm_backend *be = r->be;
	double acc = NAN;
	const char *how;

	if (src[0])
		bm_json_add_str(e, "timestamp_source", src);
	else
		json_object_object_add(e, "timestamp_source", NULL);
	bm_json_add_double(e, "timestamp_resolution_ns", be->ts_accuracy ?
			   be->ts_resolution_ns : NAN);
	if (r->p->lat_ts_accuracy_ns > 0.0) {
		acc = r->p->lat_ts_accuracy_ns;
		how = "timestamp accuracy given (timestamp_accuracy_ns, "
		      "as calibrated)";
	} else if (be->ts_accuracy) {
		acc = be->ts_accuracy_ns;
		how = be->ts_accuracy;
	} else {
		how = "timestamp accuracy not stated by the backend";
	}
	bm_json_add_double(e, "timestamp_accuracy_ns", acc);
	bm_json_add_str(e, "timestamp_accuracy", how);
	if (!isfinite(acc))
		r2544_deviation(r, "REQ-TS-4: the timestamps' accuracy is not "
				"known (not calibrated; give "
				"timestamp_accuracy_ns): latency is stated "
				"without it");
}

static int latency_size(struct r2544_run *r, size_t i, json_object *e)
{
	const struct rfc2544_params *p = r->p;
	uint32_t f = p->frame_sizes[i];
	/* S_in: serialisation of the frame alone on the input link, ns */
	double s_in = f * 8.0 / r->be->line_rate_bps * 1e9;
	double shift = p->lat_definition == RFC2544_LAT_SF ? s_in : 0.0;
	double thr, mean, sd, mn, mx, *v;
	unsigned int valid = 0, invalid = 0, unsynced = 0;
	struct lat_dist dist = { 0 };
	struct bm_trial_spec spec;
	struct bm_trial_result res;
	char unsynced_why[sizeof(res.sync.why)] = "";
	json_object *a;
	unsigned int k;
	bool ok, fallback = false, across = false;
	char why[96], src[16] = "";
	int ret;

	ret = r2544_get_throughput(r, i, f, e, &thr, &ok);
	if (ret)
		return ret;
	if (!ok) {
		static const char *const values[] = {
			"rate_fps", "latency_ns", "definition",
			"valid_repetitions", "timestamp_source", NULL
		};

		r2544_result_no_throughput(e, values);
		return 0;
	}
	v = calloc(p->lat_repetitions, sizeof(*v));
	if (!v) {
		bm_errorf(r->err, "out of memory");
		return -ENOMEM;
	}
	r2544_spec(r, &spec, f, thr, p->lat_trial_s);
	spec.latency = true;		/* full distribution [EXTENSION] */
	spec.pair.tag = true;
	spec.pair.tag_at_s = p->lat_tag_at_s;
	while (valid < p->lat_repetitions) {
		snprintf(why, sizeof(why), "repetition %u, tag at %g s",
			 valid + invalid + 1, p->lat_tag_at_s);
		/* §26.2 new-net: every attempt's tagged frame to a network
		 * no frame has gone to in this run (while there are 190) */
		if (p->lat_destination == RFC2544_LAT_NEW_NET)
			memcpy(spec.pair.tag_dst_ip4, (const uint8_t[]){ 198, 19,
			       (uint8_t)(RFC2544_NEW_NET_FIRST +
					 r->new_nets++ % RFC2544_NEW_NETS), 2 },
			       4);
		ret = r2544_trial(r, &spec, &res, "latency", why);
		if (ret)
			goto out;
		/* each trial names its stamps; say so if they differ */
		if (valid + invalid == 0)
			snprintf(src, sizeof(src), "%s", res.ts_source);
		else if (strcmp(src, res.ts_source))
			snprintf(src, sizeof(src), "mixed");
		across |= res.sync.n_hosts > 1;
		if (res.sync.n_hosts > 1 && !res.sync.within) {
			/* Across hosts the latency is one host's stamp less
			 * another's: with their clocks not within the pool's
			 * tolerance (or not known) it is not a latency of the
			 * DUT to the accuracy stated, so run it again. */
			invalid++;
			unsynced++;
			snprintf(unsynced_why, sizeof(unsynced_why), "%s",
				 res.sync.why);
		} else if (res.tag_tx_s < 0.0) {
			/* The backend cannot tag: use the mean of all frames. */
			fallback = true;
			if (!res.latency.count) {
				invalid++;
			} else {
				v[valid++] = res.latency.mean_ns - shift;
				dist_add(&dist, &res.latency, shift);
			}
		} else if (!res.tag_received) {
			/* Step 5: the tagged frame was lost, run it again. */
			invalid++;
		} else {
			v[valid++] = res.tag_latency_ns - shift;
			dist_add(&dist, &res.latency, shift);
		}
		if (invalid > p->lat_max_invalid)
			break;
	}
	r2544_stats(v, valid, &mean, &sd, &mn, &mx);
	bm_json_add_str(e, "definition", p->lat_definition == RFC2544_LAT_SF ?
			"sf (RFC 1242 store and forward, LIFO)" :
			"bf (RFC 1242 bit forwarding, FIFO)");
	bm_json_add_double(e, "rate_fps", thr);
	bm_json_add_str(e, "destination",
			p->lat_destination == RFC2544_LAT_NEW_NET ? "new-net" :
			"same");
	bm_json_add_u64(e, "valid_repetitions", valid);
	bm_json_add_u64(e, "invalid_repetitions", invalid);
	if (across)
		bm_json_add_u64(e, "unsynced_repetitions", unsynced);
	bm_json_add_double(e, "serialisation_in_ns", s_in);
	bm_json_add_bool(e, "cable_constant_subtracted", false);
	lat_timestamps(r, e, src);
	if (valid < p->lat_repetitions && unsynced) {
		char msg[sizeof(unsynced_why) + 160];

		snprintf(msg, sizeof(msg), "too many invalid repetitions: %u "
			 "of %u with the hosts' clocks not within the pool's "
			 "tolerance (the last: %s)", unsynced, invalid,
			 unsynced_why);
		bm_json_add_str(e, "result", msg);
		bm_json_add_double(e, "latency_ns", NAN);
	} else if (valid < p->lat_repetitions) {
		bm_json_add_str(e, "result", "too many invalid repetitions");
		bm_json_add_double(e, "latency_ns", NAN);
	} else {
		/* a DUT takes time: 0 or less is no latency to report as
		 * "ok", though the number stays what was measured */
		if (mean > 0.0)
			bm_json_add_str(e, "result", "ok");
		else if (across)
			bm_json_add_str(e, "result", "0 ns or less across "
					"hosts: the receiving host's clock was "
					"behind the sender's by more than the "
					"path, within the trials' sync error "
					"(sync.error_ns)");
		else if (p->lat_definition == RFC2544_LAT_SF)
			bm_json_add_str(e, "result", "no store-and-forward "
					"latency: 0 ns or less, the DUT forwards "
					"before the whole frame is in; use "
					"definition bf");
		else
			bm_json_add_str(e, "result", "no latency: 0 ns or less "
					"from first bit out to first bit in");
		bm_json_add_double(e, "latency_ns", mean);	/* the average */
	}
	bm_json_add_double(e, "latency_min_ns", mn);
	bm_json_add_double(e, "latency_max_ns", mx);
	bm_json_add_double(e, "latency_stddev_ns", sd);
	a = json_object_new_array();
	for (k = 0; k < valid; k++)
		json_object_array_add(a, json_object_new_double(v[k]));
	json_object_object_add(e, "repetition_latency_ns", a);
	if (dist.n)
		json_object_object_add(e, "distribution", dist_json(&dist));
	if (fallback)
		r2544_deviation(r, "the backend cannot tag frames: each "
				"repetition's latency is the mean over all "
				"frames, not one tagged frame");
	r2544_deviation(r, "R2544-LAT: a repetition whose tagged frame is lost "
			"is invalid and re-run [INTERPRETATION]");
	if (across)
		r2544_deviation(r, "R2544-LAT across hosts: a repetition whose "
				"hosts' clocks were not within the pool's "
				"tolerance (its trial's sync.within false) is "
				"invalid and re-run, as a lost tag "
				"[INTERPRETATION]");
	if (p->lat_destination == RFC2544_LAT_NEW_NET)
		r2544_deviation(r, "R2544-LAT §26.2 new-net: the tagged frame "
				"of the k-th attempt of the run (re-runs "
				"counted) goes to 198.19.(65 + k mod 190).2, "
				"App C's output-side phantom networks, the "
				"other frames to the stream's destination; a "
				"router DUT needs routes to them via "
				"198.19.1.10, and after 190 attempts the "
				"networks are no longer new");
	r2544_deviation(r, "EXTENSION: min/max/stddev over repetitions and the "
			"all-frame distribution are reported besides the mean");
out:
	free(v);
	return ret;
}

int r2544_latency(struct r2544_run *r)
{
	json_object *e;
	size_t i;
	int ret = 0;

	for (i = 0; i < r->p->n_sizes && !ret; i++) {
		e = json_object_new_object();
		json_object_array_add(r->results, e);
		bm_json_add_u64(e, "frame_size", r->p->frame_sizes[i]);
		/* §26: per data stream type; this test sends no other */
		bm_json_add_str(e, "stream_type", "constant");
		ret = latency_size(r, i, e);
	}
	return ret;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * RFC 8238 §4 calibration of the physical layer (SPEC R8238-CAL): the
 * latency of the test apparatus itself, the tester's two ports cabled back
 * to back with the cables of the test, so that it can be subtracted
 * (cal_constant_ns of the line-rate procedures) and reported as
 * subtracted or not ([8238 §4.3] MUST).
 *
 * Per frame size: `frames` frames (10^5) at load_pct (10 %) from the
 * first port to the second, FF of every frame; C(F) = the mean FF; its
 * accuracy the spread p99 - min and the sample stddev (the SPEC's
 * p99 - p1: the module's histogram gives no p1, and the minimum is the
 * more cautious bound).  The cable descriptors ([8238 §4.1] MUST: type and
 * length; vendor recommended) and the transceivers are stored with it.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bm_json.h"
#include "bm_result.h"
#include "bm_search.h"
#include "bm_traffic.h"
#include "rfc8239_int.h"

static int parse_text(json_object *v, char *out, size_t len, const char *key,
		      struct bm_error *err)
{
	if (!json_object_is_type(v, json_type_string))
		return bm_errorf(err, "%s: expected a string", key);
	if ((size_t)json_object_get_string_len(v) >= len)
		return bm_errorf(err, "%s: at most %zu characters", key,
				 len - 1);
	snprintf(out, len, "%s", json_object_get_string(v));
	return 0;
}

#define TEXT_KEY(field) \
static int parse_##field(json_object *v, void *base, const char *key, \
			 struct bm_error *err) \
{ \
	struct r8238_cal_params *p = base; \
	return parse_text(v, p->field, sizeof(p->field), key, err); \
}
TEXT_KEY(cable_type)
TEXT_KEY(cable_vendor)
TEXT_KEY(transceivers)

static int parse_cal_sizes(json_object *v, void *base, const char *key,
			   struct bm_error *err)
{
	struct r8238_cal_params *p = base;

	return bm_json_parse_sizes(v, key, 64, 9216, p->frame_sizes,
				   R8238_CAL_MAX_SIZES, &p->n_sizes, err);
}

#define CO(f)	offsetof(struct r8238_cal_params, f)

const struct bm_param r8238_cal_keys[] = {
	{ { "frame_sizes", BM_J_CUSTOM, CO(frame_sizes), 64, 9216, 0, 0, NULL,
	    parse_cal_sizes }, "B", "frame sizes with FCS, 1 to 16 "
	  "[PROPOSED 64, 512, 1518]", "integer array" },
	{ { "frames", BM_J_U64, CO(frames), 1, 1e9, 0, 0, NULL, NULL },
	  "frames", "frames per size (SPEC R8238-CAL: 10^5)", NULL },
	{ { "load_pct", BM_J_DOUBLE, CO(load_pct), 0, 99.98, BM_JK_MIN_EXCL,
	    0, NULL, NULL }, "%", "load of the calibration stream (10)", NULL },
	{ { "cable_type", BM_J_CUSTOM, CO(cable_type), 0, 0, 0, 0, NULL,
	    parse_cable_type },
	  "", "cable type ([8238 §4.3] MUST), e.g. \"DAC\", \"OM4\", "
	  "\"veth\"", "string" },
	{ { "cable_length_m", BM_J_DOUBLE, CO(cable_length_m), 0, 1e5, 0, 0,
	    NULL, NULL }, "m", "cable length ([8238 §4.3] MUST)", NULL },
	{ { "cable_vendor", BM_J_CUSTOM, CO(cable_vendor), 0, 0, 0, 0, NULL,
	    parse_cable_vendor }, "", "cable vendor (RECOMMENDED)", "string" },
	{ { "transceivers", BM_J_CUSTOM, CO(transceivers), 0, 0, 0, 0, NULL,
	    parse_transceivers }, "", "the tester's transceivers ([8238 "
	  "§4.1] MUST)", "string" },
	{ { "drain_s", BM_J_DOUBLE, CO(drain_s), 0, 60, 0, 0, NULL, NULL }, "s",
	  "loss wait after each trial (PLAT-TRIAL)", NULL },
	{ { NULL, 0, 0, 0, 0, 0, 0, NULL, NULL }, NULL, NULL, NULL },
};

const struct bm_jwriter r8238_cal_writers[] = {
	{ parse_cal_sizes, bm_json_u32s_at, CO(n_sizes) },
	{ parse_cable_type, bm_json_string_at, 0 },
	{ parse_cable_vendor, bm_json_string_at, 0 },
	{ parse_transceivers, bm_json_string_at, 0 },
	{ NULL, NULL, 0 },
};

double r8238_cal_max_trials(const struct r8238_cal_params *p)
{
	return (double)p->n_sizes;
}

void r8238_cal_defaults(struct r8238_cal_params *p)
{
	static const uint32_t sizes[] = { 64, 512, 1518 };

	memset(p, 0, sizeof(*p));
	memcpy(p->frame_sizes, sizes, sizeof(sizes));	/* [PROPOSED] */
	p->n_sizes = 3;
	p->frames = 100000;			/* SPEC R8238-CAL step 2 */
	p->load_pct = 10.0;
	p->drain_s = 2.0;
}

/*
 * The hardware-stamp calibration of one size (R8238-CAL, REQ-TS-4): C_hw =
 * the mean hardware FF of the frames the NICs stamped; its accuracy the
 * spread of those (max - min: the module keeps no histogram of them)
 * plus the PHC offsets' uncertainty.  A procedure subtracts C of the
 * source its latency comes from.
 */
static json_object *cal_hw(const struct bm_hw_latency *h)
{
	json_object *o = json_object_new_object();

	bm_json_add_str(o, "source", "hw");
	bm_json_add_u64(o, "frames", h->count);
	bm_json_add_u64(o, "tx_requests", h->tx_requests);
	bm_json_add_u64(o, "tx_missed", h->tx_requests > h->tx_stamps ?
			h->tx_requests - h->tx_stamps : 0);
	bm_json_add_u64(o, "rx_stamps", h->rx_stamps);
	bm_json_add_str(o, "rx_filter", h->rx_filter);
	bm_json_add_double(o, "cal_constant_ns", h->count ? h->mean_ns : NAN);
	bm_json_add_double(o, "min_ns", h->count ? h->min_ns : NAN);
	bm_json_add_double(o, "max_ns", h->count ? h->max_ns : NAN);
	bm_json_add_double(o, "sw_cal_constant_ns", h->count ? h->sw_mean_ns :
			   NAN);
	bm_json_add_double(o, "accuracy_ns", h->count ? h->max_ns - h->min_ns +
			   h->accuracy_ns : NAN);
	return o;
}

int r8238_calibrate_run(struct bm_backend *be,
			const struct r8238_cal_params *p,
			bm_progress_fn progress, void *ctx,
			json_object **result, struct bm_error *err)
{
	struct bm_trial_log log = { 0 };
	struct bm_traffic_result *r = NULL;
	struct bm_trial_spec spec;
	struct bm_trial_result res;
	struct r8239_common c;
	struct bm_traffic t;
	json_object *out, *sizes, *e, *dev;
	char reason[64];
	uint32_t f;
	size_t i;
	int ret = 0;

	*result = NULL;
	if (be->n_ports != 2)
		return bm_errorf(err, "rfc8238.calibrate: exactly 2 ports, "
				 "cabled back to back, %u given", be->n_ports);
	r8239_common_defaults(&c);
	c.drain_s = p->drain_s;
	c.learning = false;		/* back to back: nothing to learn */
	out = json_object_new_object();
	sizes = json_object_new_array();
	json_object_object_add(out, "per_size", sizes);
	for (i = 0; i < p->n_sizes && !ret; i++) {
		f = p->frame_sizes[i];
		ret = r8239_traffic_ports(&t, be, err);
		if (!ret)
			ret = bm_topo_pair(&t, 0, 1, false, p->load_pct, err);
		if (ret < 0) {
			bm_traffic_free(&t);
			break;
		}
		t.streams[0].pattern = BM_STREAM_COUNT;
		t.streams[0].count = p->frames;
		r = bm_traffic_result_new(&t);
		if (!r) {
			bm_traffic_free(&t);
			bm_errorf(err, "out of memory");
			ret = -ENOMEM;
			break;
		}
		r8239_trial_spec(&spec, &c, f, (double)p->frames /
				 bm_stream_fps(&t, &t.streams[0], f), false,
				 &t, r);
		spec.latency = true;
		/* back to back: frames may take the shape a PTP-only rx
		 * filter stamps */
		spec.ptp_shape_ok = true;
		snprintf(reason, sizeof(reason), "%u B loopback", f);
		ret = bm_search_trial(be, &spec, &res, &log, "calibrate",
				      reason, progress, ctx, err);
		if (!ret) {
			const struct bm_latency *l = &res.latency;

			e = json_object_new_object();
			bm_json_add_u64(e, "frame_size", f);
			bm_json_add_u64(e, "frames", res.received);
			bm_json_add_u64(e, "lost", res.lost);
			/* C(F): the mean FF; accuracy: its spread */
			bm_json_add_double(e, "cal_constant_ns", l->count ?
					   l->mean_ns : NAN);
			bm_json_add_double(e, "min_ns", l->count ? l->min_ns : NAN);
			bm_json_add_double(e, "p99_ns", l->count ? l->p99_ns : NAN);
			bm_json_add_double(e, "stddev_ns", l->count ?
					   l->stddev_ns : NAN);
			bm_json_add_double(e, "accuracy_ns", l->count ?
					   l->p99_ns - l->min_ns : NAN);
			if (res.hw.on)
				json_object_object_add(e, "hw", cal_hw(&res.hw));
			json_object_array_add(sizes, e);
		}
		bm_traffic_result_free(r);
		bm_traffic_free(&t);
	}
	/* [8238 §4.3]: cables documented, generator accuracy provided */
	e = json_object_new_object();
	bm_json_add_str(e, "type", p->cable_type);
	bm_json_add_double(e, "length_m", p->cable_length_m);
	bm_json_add_str(e, "vendor", p->cable_vendor);
	bm_json_add_str(e, "transceivers", p->transceivers);
	/* SPEC R8238-CAL: ~5 ns/m when the test's cabling differs */
	bm_json_add_double(e, "propagation_ns", 5.0 * p->cable_length_m);
	json_object_object_add(out, "cable", e);
	bm_json_add_str(out, "event", "FF (FIFO): t_rx - t_tx");
	dev = json_object_new_array();
	if (!p->cable_type[0] || !(p->cable_length_m > 0))
		json_object_array_add(dev, json_object_new_string(
			"cable type or length not given ([8238 §4.3] MUST "
			"document them)"));
	json_object_array_add(dev, json_object_new_string(
		"accuracy is p99 - min of FF, not p99 - p1 (SPEC R8238-CAL): "
		"the histogram has no p1"));
	*result = bm_result_envelope("rfc8238.calibrate", "R8238-CAL",
				     bm_json_params_to_json(r8238_cal_keys, 0,
					p, r8238_cal_writers),
				     &log, NULL, out, dev, be);
	bm_trial_log_free(&log);
	return ret;
}

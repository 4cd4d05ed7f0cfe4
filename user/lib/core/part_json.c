// SPDX-License-Identifier: GPL-2.0
/*
 * A pool's part on the wire (bm_part.h): every struct a field table, one
 * encoder and one strict decoder over the tables, so that a field added
 * to a struct is one row here and both ends agree on it.
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bm_hosts.h"
#include "bm_part.h"

enum pf_type {
	PF_U8, PF_U16, PF_U32, PF_UINT, PF_U64, PF_INT, PF_I64, PF_DBL,
	PF_BOOL,
	PF_HEX,		/* uint8_t[n], a hex string */
	PF_STR,		/* char[n], NUL-terminated */
	PF_DBLA,	/* double[n] */
	PF_U32A,	/* uint32_t[n] */
	PF_U64A,	/* uint64_t[n] */
	PF_SUB,		/* a struct of table sub at off */
};

struct pf {
	const char *key;
	enum pf_type type;
	size_t off;
	size_t n;			/* HEX, STR, arrays: elements */
	const struct pf *sub;		/* PF_SUB */
	double min, max;		/* integers: their range */
};

#define F(T, f, t)	{ #f, t, offsetof(T, f), 0, NULL, 0, 0 }
#define FN(T, f, t)	{ #f, t, offsetof(T, f), \
			  sizeof(((T *)0)->f) / sizeof(((T *)0)->f[0]), NULL, \
			  0, 0 }
#define FS(T, f, s)	{ #f, PF_SUB, offsetof(T, f), 0, s, 0, 0 }
#define FR(T, f, t, lo, hi)	{ #f, t, offsetof(T, f), 0, NULL, lo, hi }
#define FEND		{ NULL, 0, 0, 0, NULL, 0, 0 }

#define PS struct bm_port_spec
static const struct pf port_spec[] = {
	FN(PS, host, PF_STR), FN(PS, name, PF_STR),
	F(PS, line_rate_bps, PF_DBL), FN(PS, ip4, PF_HEX),
	FN(PS, ip6, PF_HEX), F(PS, have_ip6, PF_BOOL),
	FN(PS, mac, PF_HEX), F(PS, have_mac, PF_BOOL), FEND,
};

#define FT struct bm_frame_template
static const struct pf frame_tmpl[] = {
	F(FT, have_dst_mac, PF_BOOL), FN(FT, dst_mac, PF_HEX),
	FR(FT, vlan_id, PF_INT, -1, 4095), F(FT, pcp, PF_U8),
	F(FT, ip_version, PF_U8), FN(FT, src_ip, PF_HEX),
	FN(FT, dst_ip, PF_HEX), F(FT, dscp, PF_U8),
	F(FT, udp_src, PF_U16), F(FT, udp_dst, PF_U16),
	F(FT, tpid, PF_U16), F(FT, have_vlan2, PF_BOOL),
	F(FT, vlan2_id, PF_U16), F(FT, pcp2, PF_U8),
	FR(FT, n_mpls, PF_U8, 0, 2), FN(FT, mpls, PF_U32A),
	F(FT, dst_networks, PF_U32), F(FT, dst_seed, PF_U64),
	F(FT, dst_macs, PF_U32), F(FT, mac_seed, PF_U64), FEND,
};

#define SS struct bm_stream_spec
static const struct pf stream_spec[] = {
	F(SS, tx_port, PF_U16), F(SS, rx_port, PF_U16),
	FS(SS, frame, frame_tmpl), F(SS, frame_size, PF_U32),
	F(SS, imix, PF_BOOL), F(SS, load, PF_DBL),
	FR(SS, load_unit, PF_INT, BM_LOAD_PCT, BM_LOAD_FPS),
	FR(SS, pattern, PF_INT, BM_STREAM_CBR, BM_STREAM_BURSTS),
	F(SS, count, PF_U64), F(SS, burst_len, PF_U32),
	F(SS, burst_count, PF_U32), F(SS, burst_period_s, PF_DBL),
	F(SS, start_s, PF_DBL), FN(SS, tag_dst_ip4, PF_HEX),
	FR(SS, tag_seq, PF_I64, -1, 9.2e18), F(SS, phase, PF_DBL),
	F(SS, burst_last_size, PF_U32),
	FR(SS, log_frames, PF_U32, 0, BM_TRAFFIC_MAX_LOG), FEND,
};

#define RR struct bm_rip_route
static const struct pf rip_route[] = {
	FN(RR, net, PF_HEX), FR(RR, metric, PF_U8, 1, 16), FEND,
};

#define RM struct bm_rip_msg
static const struct pf rip_msg[] = {
	FR(RM, port, PF_UINT, 0, BM_TRAFFIC_MAX_PORTS - 1),
	F(RM, at_s, PF_DBL), F(RM, every_s, PF_DBL), FEND,
};

#define TS struct bm_trial_spec
static const struct pf trial_spec[] = {
	F(TS, frame_size, PF_U32), F(TS, duration_s, PF_DBL),
	F(TS, latency, PF_BOOL), F(TS, ptp_shape_ok, PF_BOOL),
	F(TS, learning, PF_BOOL), F(TS, learning_pause_s, PF_DBL),
	F(TS, drain_s, PF_DBL), F(TS, link_down_ok, PF_BOOL),
	F(TS, tx_kthreads, PF_UINT), F(TS, sync_tolerance_ns, PF_DBL),
	FR(TS, tai_utc_s, PF_INT, -3600, 3600), FEND,
};

#define LA struct bm_latency
static const struct pf latency[] = {
	F(LA, count, PF_U64), F(LA, below_zero, PF_U64),
	F(LA, min_ns, PF_DBL), F(LA, mean_ns, PF_DBL), F(LA, max_ns, PF_DBL),
	F(LA, stddev_ns, PF_DBL), F(LA, p50_ns, PF_DBL),
	F(LA, p90_ns, PF_DBL), F(LA, p99_ns, PF_DBL),
	F(LA, p999_ns, PF_DBL), FEND,
};

#define HW struct bm_hw_latency
static const struct pf hw_latency[] = {
	F(HW, on, PF_BOOL), FN(HW, tx_filter, PF_STR),
	FN(HW, rx_filter, PF_STR), F(HW, tx_requests, PF_U64),
	F(HW, tx_stamps, PF_U64), F(HW, rx_stamps, PF_U64),
	F(HW, count, PF_U64), F(HW, min_ns, PF_DBL),
	F(HW, mean_ns, PF_DBL), F(HW, max_ns, PF_DBL),
	F(HW, sw_mean_ns, PF_DBL), F(HW, accuracy_ns, PF_DBL),
	F(HW, across, PF_U64), F(HW, sync_error_ns, PF_DBL), FEND,
};

#define CR struct bm_clock_reading
static const struct pf clock_reading[] = {
	F(CR, valid, PF_BOOL), F(CR, gm_present, PF_BOOL),
	F(CR, offset_ns, PF_I64), FN(CR, gm, PF_STR), FN(CR, error, PF_STR),
	FEND,
};

#define CS struct bm_clock_span
static const struct pf clock_span[] = {
	F(CS, samples, PF_UINT), F(CS, missed, PF_UINT),
	F(CS, min_ns, PF_I64), F(CS, max_ns, PF_I64),
	FN(CS, other_gm, PF_STR), FEND,
};

#define SC struct bm_sysclock_span
static const struct pf sysclock_span[] = {
	FN(SC, source, PF_STR), F(SC, samples, PF_UINT),
	F(SC, min_ns, PF_I64), F(SC, max_ns, PF_I64),
	FN(SC, error, PF_STR), FEND,
};

#define TR struct bm_trial_result
static const struct pf trial_result[] = {
	F(TR, intended, PF_U64), F(TR, attempted, PF_U64),
	F(TR, received, PF_U64), F(TR, lost, PF_U64),
	F(TR, duplicate, PF_U64), F(TR, reordered, PF_U64),
	F(TR, gap_events, PF_U64), F(TR, late, PF_U64),
	F(TR, late_watch_s, PF_DBL), F(TR, generator_limited, PF_BOOL),
	F(TR, shortfall, PF_U64), F(TR, tx_late_frames, PF_U64),
	F(TR, tx_late_max_s, PF_DBL),
	F(TR, burst_gaps_measured, PF_BOOL),
	F(TR, tx_burst_late_max_s, PF_DBL),
	FN(TR, tx_stalls_s, PF_DBLA), F(TR, actual_duration_s, PF_DBL),
	F(TR, first_rx_s, PF_DBL), F(TR, last_rx_s, PF_DBL),
	F(TR, last_loss_after_step_s, PF_DBL), F(TR, max_gap_s, PF_DBL),
	F(TR, max_gap_start_s, PF_DBL), F(TR, event_fired_s, PF_DBL),
	FS(TR, latency, latency), FN(TR, ts_source, PF_STR),
	FN(TR, tx_path, PF_STR), F(TR, tx_lanes, PF_UINT),
	F(TR, tag_tx_s, PF_DBL), F(TR, tag_received, PF_BOOL),
	F(TR, tag_latency_ns, PF_DBL),
	FR(TR, event_ret, PF_INT, -4096, 4096),
	FN(TR, lat_hist, PF_U64A), FN(TR, stream_type, PF_STR),
	F(TR, mean_frame_size, PF_DBL), F(TR, bcast_sent, PF_U64),
	F(TR, bcast_received, PF_U64), F(TR, probe_sent, PF_U64),
	F(TR, probe_received, PF_U64), F(TR, mgmt_sent, PF_U32),
	F(TR, mgmt_answered, PF_U32), F(TR, mgmt_verified, PF_U32),
	FN(TR, mgmt_error, PF_STR), FN(TR, rip_sent, PF_U32A),
	FN(TR, rip_error, PF_STR), F(TR, route_setup_sent, PF_U32),
	FN(TR, routing_ab, PF_STR), FN(TR, proto_sent, PF_U64A),
	FN(TR, proto_received, PF_U64A), F(TR, link_downs, PF_U32),
	FN(TR, link_down_port, PF_STR), FS(TR, hw, hw_latency),
	FS(TR, clock_before, clock_reading), FS(TR, clock_after, clock_reading),
	FS(TR, clock_during, clock_span),
	FS(TR, clock_system, sysclock_span),
	FEND,
};

#define SR struct bm_stream_result
static const struct pf stream_result[] = {
	F(SR, intended, PF_U64), F(SR, sent, PF_U64),
	F(SR, received, PF_U64), F(SR, lost, PF_U64),
	F(SR, reordered, PF_U64), F(SR, duplicated, PF_U64),
	F(SR, tx_bytes, PF_U64), F(SR, rx_bytes, PF_U64),
	FN(SR, rx_dscp, PF_U64A), FN(SR, rx_pcp, PF_U64A),
	F(SR, rx_untagged, PF_U64), F(SR, tx_late_max_s, PF_DBL),
	F(SR, tx_burst_late_max_s, PF_DBL), FN(SR, tx_stalls_s, PF_DBLA),
	F(SR, first_tx_s, PF_DBL), F(SR, last_tx_s, PF_DBL),
	F(SR, first_rx_s, PF_DBL), F(SR, last_rx_s, PF_DBL),
	FS(SR, latency, latency), F(SR, ipdv_count, PF_U64),
	F(SR, ipdv_min_ns, PF_DBL), F(SR, ipdv_mean_ns, PF_DBL),
	F(SR, ipdv_max_ns, PF_DBL), F(SR, pdv_ns, PF_DBL), FEND,
};

#define FRR struct bm_frame_rec
static const struct pf frame_rec[] = {
	F(FRR, seq, PF_U64), F(FRR, tx_s, PF_DBL), F(FRR, rx_s, PF_DBL),
	F(FRR, size, PF_U32), F(FRR, dscp, PF_U8), F(FRR, pcp, PF_U8),
	F(FRR, tagged, PF_BOOL), FEND,
};

#define PR struct bm_port_result
static const struct pf port_result[] = {
	F(PR, tx_frames, PF_U64), F(PR, rx_frames, PF_U64),
	F(PR, tx_bytes, PF_U64), F(PR, rx_bytes, PF_U64),
	F(PR, lost, PF_U64), F(PR, tx_load_pct, PF_DBL),
	F(PR, rx_load_pct, PF_DBL), FEND,
};

/* --- encoding ------------------------------------------------------- */

static json_object *pf_double(double d)
{
	/* JSON has no NaN or infinity; a double's 17 digits are exact */
	return isfinite(d) ? json_object_new_double(d) : NULL;
}

static json_object *pf_hex(const uint8_t *b, size_t n)
{
	char s[2 * 16 + 1];
	size_t i;

	for (i = 0; i < n && i < 16; i++)
		snprintf(s + 2 * i, 3, "%02x", b[i]);
	s[2 * i] = 0;
	return json_object_new_string(s);
}

static json_object *pf_encode(const struct pf *tab, const void *base);

static json_object *pf_value(const struct pf *f, const void *base)
{
	const char *p = (const char *)base + f->off;
	json_object *a;
	size_t i;

	switch (f->type) {
	case PF_U8: return json_object_new_int(*(const uint8_t *)p);
	case PF_U16: return json_object_new_int(*(const uint16_t *)p);
	case PF_U32: return json_object_new_int64(*(const uint32_t *)p);
	case PF_UINT: return json_object_new_int64(*(const unsigned int *)p);
	case PF_U64: return json_object_new_uint64(*(const uint64_t *)p);
	case PF_INT: return json_object_new_int(*(const int *)p);
	case PF_I64: return json_object_new_int64(*(const int64_t *)p);
	case PF_DBL: return pf_double(*(const double *)p);
	case PF_BOOL: return json_object_new_boolean(*(const bool *)p);
	case PF_HEX: return pf_hex((const uint8_t *)p, f->n);
	case PF_STR: return json_object_new_string_len(p, (int)strnlen(p,
								 f->n - 1));
	case PF_SUB: return pf_encode(f->sub, p);
	default:
		break;
	}
	a = json_object_new_array();
	for (i = 0; a && i < f->n; i++) {
		json_object *v = f->type == PF_DBLA ?
			pf_double(((const double *)p)[i]) :
			f->type == PF_U32A ?
			json_object_new_int64(((const uint32_t *)p)[i]) :
			json_object_new_uint64(((const uint64_t *)p)[i]);

		json_object_array_add(a, v);
	}
	return a;
}

static json_object *pf_encode(const struct pf *tab, const void *base)
{
	json_object *o = json_object_new_object();

	for (; o && tab->key; tab++)
		json_object_object_add(o, tab->key, pf_value(tab, base));
	return o;
}

/* --- decoding ------------------------------------------------------- */

static int pf_decode(json_object *o, const struct pf *tab, void *base,
		     const char *what, size_t extra, struct bm_error *err);

static int pf_int(json_object *v, const struct pf *f, double lo, double hi,
		  int64_t *out, const char *what, struct bm_error *err)
{
	int64_t x;

	if (!json_object_is_type(v, json_type_int))
		return bm_errorf(err, "part: %s.%s: not an integer", what,
				 f->key);
	x = json_object_get_int64(v);
	if (f->min != 0 || f->max != 0) {
		lo = f->min;
		hi = f->max;
	}
	if ((double)x < lo || (double)x > hi)
		return bm_errorf(err, "part: %s.%s: %lld out of range", what,
				 f->key, (long long)x);
	*out = x;
	return 0;
}

static int pf_dbl(json_object *v, double *out)
{
	if (!v) {
		*out = NAN;
		return 0;
	}
	if (!json_object_is_type(v, json_type_double) &&
	    !json_object_is_type(v, json_type_int))
		return -EINVAL;
	*out = json_object_get_double(v);
	return 0;
}

static int pf_hexdec(const char *s, uint8_t *b, size_t n)
{
	size_t i;
	unsigned int x;

	if (strlen(s) != 2 * n)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		if (sscanf(s + 2 * i, "%2x", &x) != 1)
			return -EINVAL;
		b[i] = (uint8_t)x;
	}
	return 0;
}

static int pf_array(json_object *v, const struct pf *f, char *p,
		    const char *what, struct bm_error *err)
{
	size_t i;

	if (!json_object_is_type(v, json_type_array) ||
	    json_object_array_length(v) != f->n)
		return bm_errorf(err, "part: %s.%s: not an array of %zu", what,
				 f->key, f->n);
	for (i = 0; i < f->n; i++) {
		json_object *x = json_object_array_get_idx(v, i);
		int64_t n;

		if (f->type == PF_DBLA) {
			if (pf_dbl(x, &((double *)p)[i]))
				return bm_errorf(err, "part: %s.%s[%zu]: not a "
						 "number", what, f->key, i);
		} else if (f->type == PF_U32A) {
			if (pf_int(x, f, 0, UINT32_MAX, &n, what, err))
				return -EINVAL;
			((uint32_t *)p)[i] = (uint32_t)n;
		} else {
			if (!json_object_is_type(x, json_type_int))
				return bm_errorf(err, "part: %s.%s[%zu]: not an "
						 "integer", what, f->key, i);
			((uint64_t *)p)[i] = json_object_get_uint64(x);
		}
	}
	return 0;
}

static int pf_field(json_object *v, const struct pf *f, void *base,
		    const char *what, struct bm_error *err)
{
	char *p = (char *)base + f->off;
	int64_t n = 0;
	const char *s;

	switch (f->type) {
	case PF_U8: case PF_U16: case PF_U32: case PF_UINT: case PF_INT:
	case PF_I64: {
		static const double hi[] = {
			[PF_U8] = UINT8_MAX, [PF_U16] = UINT16_MAX,
			[PF_U32] = UINT32_MAX, [PF_UINT] = UINT32_MAX,
			[PF_INT] = INT32_MAX, [PF_I64] = 9.2e18,
		};
		double lo = f->type == PF_INT ? INT32_MIN :
			    f->type == PF_I64 ? -9.2e18 : 0;

		if (pf_int(v, f, lo, hi[f->type], &n, what, err))
			return -EINVAL;
		if (f->type == PF_U8)
			*(uint8_t *)p = (uint8_t)n;
		else if (f->type == PF_U16)
			*(uint16_t *)p = (uint16_t)n;
		else if (f->type == PF_U32)
			*(uint32_t *)p = (uint32_t)n;
		else if (f->type == PF_UINT)
			*(unsigned int *)p = (unsigned int)n;
		else if (f->type == PF_INT)
			*(int *)p = (int)n;
		else
			*(int64_t *)p = n;
		return 0;
	}
	case PF_U64:
		if (!json_object_is_type(v, json_type_int))
			return bm_errorf(err, "part: %s.%s: not an integer",
					 what, f->key);
		*(uint64_t *)p = json_object_get_uint64(v);
		return 0;
	case PF_DBL:
		if (pf_dbl(v, (double *)p))
			return bm_errorf(err, "part: %s.%s: not a number", what,
					 f->key);
		return 0;
	case PF_BOOL:
		if (!json_object_is_type(v, json_type_boolean))
			return bm_errorf(err, "part: %s.%s: not a boolean",
					 what, f->key);
		*(bool *)p = json_object_get_boolean(v);
		return 0;
	case PF_HEX:
		if (!json_object_is_type(v, json_type_string) ||
		    pf_hexdec(json_object_get_string(v), (uint8_t *)p, f->n))
			return bm_errorf(err, "part: %s.%s: not %zu bytes in "
					 "hex", what, f->key, f->n);
		return 0;
	case PF_STR:
		s = json_object_is_type(v, json_type_string) ?
		    json_object_get_string(v) : NULL;
		if (!s || (size_t)json_object_get_string_len(v) >= f->n ||
		    strlen(s) != (size_t)json_object_get_string_len(v))
			return bm_errorf(err, "part: %s.%s: not a string of "
					 "at most %zu bytes", what, f->key,
					 f->n - 1);
		memset(p, 0, f->n);
		memcpy(p, s, strlen(s));
		return 0;
	case PF_SUB:
		return pf_decode(v, f->sub, p, f->key, 0, err);
	default:
		return pf_array(v, f, p, what, err);
	}
}

/* Decode o by tab into base: every field of tab, and extra keys more
 * that the caller reads itself (and has checked are there). */
static int pf_decode(json_object *o, const struct pf *tab, void *base,
		     const char *what, size_t extra, struct bm_error *err)
{
	const struct pf *f;
	size_t n = 0;

	if (!json_object_is_type(o, json_type_object))
		return bm_errorf(err, "part: %s: not an object", what);
	for (f = tab; f->key; f++, n++) {
		json_object *v;

		if (!json_object_object_get_ex(o, f->key, &v))
			return bm_errorf(err, "part: %s: no %s", what, f->key);
		if (!v && f->type != PF_DBL)
			return bm_errorf(err, "part: %s.%s: null", what, f->key);
		if (pf_field(v, f, base, what, err))
			return -EINVAL;
	}
	if ((size_t)json_object_object_length(o) != n + extra)
		return bm_errorf(err, "part: %s: fields that are not this "
				 "version's (a pool runs one version)", what);
	return 0;
}

/* --- the part ------------------------------------------------------- */

static const char *const tx_paths[] = { "auto", "alloc", "recycle", "xdp" };

json_object *bm_part_spec_to_json(const struct bm_trial_spec *spec)
{
	const struct bm_traffic *t = spec->traffic;
	json_object *o, *tr, *a;
	unsigned int i;

	/* §11.2's queries are not carried: they go from the coordinating
	 * host's port only (its SNMP community stays there) */
	if (!t || !spec->host ||
	    (t->have_mgmt && bm_part_has_mgmt(t, spec->host)))
		return NULL;
	o = json_object_new_object();
	if (!o)
		return NULL;
	json_object_object_add(o, "host", json_object_new_string(spec->host));
	json_object_object_add(o, "start_tai_ns",
			       json_object_new_int64(spec->start_tai_ns));
	tr = pf_encode(trial_spec, spec);
	json_object_object_add(tr, "tx_path", spec->tx_path ?
			       json_object_new_string(spec->tx_path) : NULL);
	json_object_object_add(o, "trial", tr);
	tr = json_object_new_object();
	json_object_object_add(o, "traffic", tr);
	a = json_object_new_array();
	for (i = 0; i < t->n_ports; i++)
		json_object_array_add(a, pf_encode(port_spec, &t->ports[i]));
	json_object_object_add(tr, "ports", a);
	a = json_object_new_array();
	for (i = 0; i < t->n_streams; i++)
		json_object_array_add(a, pf_encode(stream_spec,
						   &t->streams[i]));
	json_object_object_add(tr, "streams", a);
	a = json_object_new_array();
	for (i = 0; i < t->n_imix; i++)
		json_object_array_add(a, json_object_new_int64(t->imix[i]));
	json_object_object_add(tr, "imix", a);
	json_object_object_add(tr, "overload_ok",
			       json_object_new_boolean(t->overload_ok));
	/* §11.3/§13's updates: every host's, each part sends its own
	 * ports' (bm_hosts.h), the indices kept for the merge */
	a = json_object_new_array();
	for (i = 0; i < t->n_rip; i++) {
		json_object *m = pf_encode(rip_msg, &t->rip[i]), *r;
		unsigned int j;

		r = json_object_new_array();
		for (j = 0; j < t->rip[i].n; j++)
			json_object_array_add(r, pf_encode(rip_route,
						&t->rip[i].routes[j]));
		json_object_object_add(m, "routes", r);
		json_object_array_add(a, m);
	}
	json_object_object_add(tr, "rip", a);
	return o;
}

/* o[key] as an array of at most max; NULL with err set when not. */
static json_object *pf_list(json_object *o, const char *key, size_t max,
			    struct bm_error *err)
{
	json_object *a;

	if (!json_object_object_get_ex(o, key, &a) ||
	    !json_object_is_type(a, json_type_array)) {
		bm_errorf(err, "part: traffic.%s: not an array", key);
		return NULL;
	}
	if (json_object_array_length(a) > max) {
		bm_errorf(err, "part: traffic.%s: more than %zu", key, max);
		return NULL;
	}
	return a;
}

/* The routing updates of a part's traffic from array a into t. */
static int part_rip(json_object *a, struct bm_traffic *t,
		    struct bm_error *err)
{
	json_object *m, *r;
	size_t i, j;

	for (i = 0; i < json_object_array_length(a); i++) {
		struct bm_rip_msg *x = &t->rip[i];

		m = json_object_array_get_idx(a, i);
		if (pf_decode(m, rip_msg, x, "rip", 1, err))
			return -EINVAL;
		r = pf_list(m, "routes", BM_RIP_MAX_ENTRIES, err);
		if (!r)
			return -EINVAL;
		if (x->port >= t->n_ports || !isfinite(x->at_s) ||
		    !isfinite(x->every_s) || x->every_s < 0)
			return bm_errorf(err, "part: traffic.rip[%zu]: no "
					 "port of the traffic, or not a time",
					 i);
		for (j = 0; j < json_object_array_length(r); j++)
			if (pf_decode(json_object_array_get_idx(r, j),
				      rip_route, &x->routes[j], "route", 0,
				      err))
				return -EINVAL;
		x->n = (unsigned int)j;
	}
	t->n_rip = (unsigned int)i;
	return 0;
}

static int part_traffic(json_object *o, struct bm_traffic *t,
			struct bm_error *err)
{
	json_object *ports, *streams, *imix, *rip, *v;
	struct bm_stream_spec s;
	size_t i;

	if (!json_object_is_type(o, json_type_object) ||
	    json_object_object_length(o) != 5)
		return bm_errorf(err, "part: traffic: not an object of ports, "
				 "streams, imix, overload_ok, rip");
	ports = pf_list(o, "ports", BM_TRAFFIC_MAX_PORTS, err);
	streams = ports ? pf_list(o, "streams", BM_TRAFFIC_MAX_STREAMS,
				  err) : NULL;
	imix = streams ? pf_list(o, "imix", BM_TRAFFIC_MAX_IMIX, err) : NULL;
	rip = imix ? pf_list(o, "rip", BM_TRAFFIC_MAX_RIP, err) : NULL;
	if (!rip)
		return -EINVAL;
	for (i = 0; i < json_object_array_length(ports); i++)
		if (pf_decode(json_object_array_get_idx(ports, i), port_spec,
			      &t->ports[i], "port", 0, err))
			return -EINVAL;
	t->n_ports = (unsigned int)i;
	for (i = 0; i < json_object_array_length(streams); i++) {
		memset(&s, 0, sizeof(s));
		if (pf_decode(json_object_array_get_idx(streams, i),
			      stream_spec, &s, "stream", 0, err) ||
		    bm_traffic_add_stream(t, &s, err) < 0)
			return -EINVAL;
	}
	for (i = 0; i < json_object_array_length(imix); i++) {
		v = json_object_array_get_idx(imix, i);
		if (!json_object_is_type(v, json_type_int) ||
		    json_object_get_int64(v) < 64 ||
		    json_object_get_int64(v) > 65535)
			return bm_errorf(err, "part: traffic.imix[%zu]: not a "
					 "frame size", i);
		t->imix[i] = (uint32_t)json_object_get_int64(v);
	}
	t->n_imix = (unsigned int)i;
	if (!json_object_object_get_ex(o, "overload_ok", &v) ||
	    !json_object_is_type(v, json_type_boolean))
		return bm_errorf(err, "part: traffic.overload_ok: not a "
				 "boolean");
	t->overload_ok = json_object_get_boolean(v);
	return part_rip(rip, t, err);
}

int bm_part_spec_from_json(json_object *o, struct bm_trial_spec *spec,
			   struct bm_traffic *t, char *host,
			   struct bm_error *err)
{
	json_object *v, *trial, *path;
	size_t i;

	bm_traffic_init(t);
	memset(spec, 0, sizeof(*spec));
	if (!json_object_is_type(o, json_type_object) ||
	    json_object_object_length(o) != 4)
		return bm_errorf(err, "part: not an object of host, "
				 "start_tai_ns, trial, traffic");
	if (!json_object_object_get_ex(o, "host", &v) ||
	    !json_object_is_type(v, json_type_string) ||
	    json_object_get_string_len(v) >= BM_PART_HOST_LEN)
		return bm_errorf(err, "part: host: not a host name");
	strcpy(host, json_object_get_string(v));
	spec->host = host;
	if (!json_object_object_get_ex(o, "start_tai_ns", &v) ||
	    !json_object_is_type(v, json_type_int) ||
	    json_object_get_int64(v) < 0)
		return bm_errorf(err, "part: start_tai_ns: not a CLOCK_TAI "
				 "instant");
	spec->start_tai_ns = json_object_get_int64(v);
	if (!json_object_object_get_ex(o, "trial", &trial) ||
	    !json_object_is_type(trial, json_type_object) ||
	    !json_object_object_get_ex(trial, "tx_path", &path))
		return bm_errorf(err, "part: trial: not an object with "
				 "tx_path");
	if (path) {
		for (i = 0; i < sizeof(tx_paths) / sizeof(tx_paths[0]); i++)
			if (json_object_is_type(path, json_type_string) &&
			    !strcmp(json_object_get_string(path), tx_paths[i]))
				break;
		if (i == sizeof(tx_paths) / sizeof(tx_paths[0]))
			return bm_errorf(err, "part: trial.tx_path: not a "
					 "transmit path");
		spec->tx_path = tx_paths[i];
	}
	/* tx_path is the trial's one field not in the table */
	if (pf_decode(trial, trial_spec, spec, "trial", 1, err))
		return -EINVAL;
	if (!json_object_object_get_ex(o, "traffic", &v) ||
	    part_traffic(v, t, err))
		return -EINVAL;
	spec->traffic = t;
	return 0;
}

/* A stream's hardware stamps: [seq, ns, sw_lat_ns] each. */
static json_object *part_hw_log(const struct bm_stream_result *x)
{
	json_object *l = json_object_new_array(), *e;
	size_t k;

	for (k = 0; l && k < x->n_hw_log; k++) {
		e = json_object_new_array();
		json_object_array_add(e, json_object_new_int64(
			(int64_t)x->hw_log[k].seq));
		json_object_array_add(e, json_object_new_int64(x->hw_log[k].ns));
		json_object_array_add(e, json_object_new_int64(
			x->hw_log[k].sw_lat_ns));
		json_object_array_add(l, e);
	}
	return l;
}

json_object *bm_part_result_to_json(const struct bm_trial_result *res,
				    const struct bm_traffic_result *tr)
{
	json_object *o = json_object_new_object(), *a, *s, *l;
	unsigned int i;
	size_t k;

	if (!o)
		return NULL;
	json_object_object_add(o, "trial", pf_encode(trial_result, res));
	a = json_object_new_array();
	for (i = 0; i < tr->n_streams; i++) {
		const struct bm_stream_result *x = &tr->streams[i];

		s = pf_encode(stream_result, x);
		l = json_object_new_array();
		for (k = 0; k < x->n_tx_log; k++)
			json_object_array_add(l, pf_double(x->tx_log_s[k]));
		json_object_object_add(s, "tx_log", l);
		l = json_object_new_array();
		for (k = 0; k < x->n_rx_log; k++)
			json_object_array_add(l, pf_encode(frame_rec,
							   &x->rx_log[k]));
		json_object_object_add(s, "rx_log", l);
		json_object_object_add(s, "hw_log", part_hw_log(x));
		json_object_array_add(a, s);
	}
	json_object_object_add(o, "streams", a);
	a = json_object_new_array();
	for (i = 0; i < tr->n_ports; i++)
		json_object_array_add(a, pf_encode(port_result, &tr->ports[i]));
	json_object_object_add(o, "ports", a);
	return o;
}

/* Is v an array of n integers, the first not negative? */
static bool part_ints(json_object *v, size_t n)
{
	size_t i;

	if (!json_object_is_type(v, json_type_array) ||
	    json_object_array_length(v) != n)
		return false;
	for (i = 0; i < n; i++)
		if (!json_object_is_type(json_object_array_get_idx(v, i),
					 json_type_int))
			return false;
	return json_object_get_int64(json_object_array_get_idx(v, 0)) >= 0;
}

/* A stream result's hardware stamps from s (part_hw_log's). */
static int part_hw_log_of(json_object *s, struct bm_stream_result *x,
			  struct bm_error *err)
{
	json_object *hw, *e;
	size_t k, n;

	if (!json_object_object_get_ex(s, "hw_log", &hw) ||
	    !json_object_is_type(hw, json_type_array) ||
	    json_object_array_length(hw) > BM_TRAFFIC_MAX_HW_LOG)
		return bm_errorf(err, "part: stream: hw_log must be an array "
				 "of at most %u", BM_TRAFFIC_MAX_HW_LOG);
	n = json_object_array_length(hw);
	if (n && !(x->hw_log = calloc(n, sizeof(*x->hw_log))))
		return bm_errorf(err, "out of memory"), -ENOMEM;
	for (k = 0; k < n; k++) {
		e = json_object_array_get_idx(hw, k);
		if (!part_ints(e, 3))
			return bm_errorf(err, "part: stream.hw_log[%zu]: not "
					 "[seq, ns, sw_lat_ns]", k);
		x->hw_log[k].seq = (uint64_t)json_object_get_int64(
			json_object_array_get_idx(e, 0));
		x->hw_log[k].ns = json_object_get_int64(
			json_object_array_get_idx(e, 1));
		x->hw_log[k].sw_lat_ns = json_object_get_int64(
			json_object_array_get_idx(e, 2));
	}
	x->n_hw_log = n;
	return 0;
}

/* A stream result's frame logs from s. */
static int part_logs(json_object *s, struct bm_stream_result *x,
		     struct bm_error *err)
{
	json_object *tx, *rx;
	size_t k, n;

	if (!json_object_object_get_ex(s, "tx_log", &tx) ||
	    !json_object_object_get_ex(s, "rx_log", &rx) ||
	    !json_object_is_type(tx, json_type_array) ||
	    !json_object_is_type(rx, json_type_array) ||
	    json_object_array_length(tx) > BM_TRAFFIC_MAX_LOG ||
	    json_object_array_length(rx) > BM_TRAFFIC_MAX_LOG)
		return bm_errorf(err, "part: stream: tx_log and rx_log must "
				 "be arrays of at most %u", BM_TRAFFIC_MAX_LOG);
	n = json_object_array_length(tx);
	if (n && !(x->tx_log_s = calloc(n, sizeof(*x->tx_log_s))))
		return bm_errorf(err, "out of memory"), -ENOMEM;
	for (k = 0; k < n; k++)
		if (pf_dbl(json_object_array_get_idx(tx, k), &x->tx_log_s[k]))
			return bm_errorf(err, "part: stream.tx_log[%zu]: not a "
					 "number", k);
	x->n_tx_log = n;
	n = json_object_array_length(rx);
	if (n && !(x->rx_log = calloc(n, sizeof(*x->rx_log))))
		return bm_errorf(err, "out of memory"), -ENOMEM;
	for (k = 0; k < n; k++)
		if (pf_decode(json_object_array_get_idx(rx, k), frame_rec,
			      &x->rx_log[k], "rx_log", 0, err))
			return -EINVAL;
	x->n_rx_log = n;
	return part_hw_log_of(s, x, err);
}

int bm_part_result_from_json(json_object *o, struct bm_trial_result *res,
			     struct bm_traffic_result *tr,
			     struct bm_error *err)
{
	json_object *v, *a;
	unsigned int i;
	int ret;

	if (!json_object_object_get_ex(o, "trial", &v) ||
	    pf_decode(v, trial_result, res, "trial", 0, err))
		return err->msg[0] ? -EINVAL :
		       bm_errorf(err, "part: no trial result");
	if (!json_object_object_get_ex(o, "streams", &a) ||
	    !json_object_is_type(a, json_type_array) ||
	    json_object_array_length(a) != tr->n_streams)
		return bm_errorf(err, "part: streams: not an array of %u",
				 tr->n_streams);
	for (i = 0; i < tr->n_streams; i++) {
		struct bm_stream_result *x = &tr->streams[i];
		json_object *s = json_object_array_get_idx(a, i);

		if (!json_object_is_type(s, json_type_object))
			return bm_errorf(err, "part: streams[%u]: not an "
					 "object", i);
		bm_stream_result_free_logs(x);
		ret = part_logs(s, x, err);
		if (!ret)
			ret = pf_decode(s, stream_result, x, "stream", 3,
					err);
		if (ret)
			return ret;
	}
	if (!json_object_object_get_ex(o, "ports", &a) ||
	    !json_object_is_type(a, json_type_array) ||
	    json_object_array_length(a) != tr->n_ports)
		return bm_errorf(err, "part: ports: not an array of %u",
				 tr->n_ports);
	for (i = 0; i < tr->n_ports; i++)
		if (pf_decode(json_object_array_get_idx(a, i), port_result,
			      &tr->ports[i], "port", 0, err))
			return -EINVAL;
	return 0;
}

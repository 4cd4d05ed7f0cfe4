// SPDX-License-Identifier: GPL-2.0
/*
 * The parts every RFC 8239 procedure shares (rfc8239_int.h).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "bm_events.h"
#include "bm_json.h"
#include "rfc8239_int.h"

const char *const r8239_port_order_names[] = { "given", "random", NULL };

void r8239_common_defaults(struct r8239_common *c)
{
	memset(c, 0, sizeof(*c));
	c->repeat = 5;			/* [PROPOSED] REQ-8239-1 */
	c->drain_s = 2.0;		/* PLAT-TRIAL */
	c->learning = true;
	c->learning_pause_s = -1.0;
}

/* splitmix64: a seed's whole sequence from 64 bits, for a reproducible
 * order on any libc */
static uint64_t mix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void r8239_ports_begin(struct bm_backend *be, const struct r8239_common *c,
		       struct r8239_order *o, json_object *res)
{
	char tmp[BM_BACKEND_PORT_NAME];
	struct timespec ts;
	uint64_t seed = c->seed, s;
	json_object *a;
	unsigned int i, j;

	o->shuffled = false;
	bm_json_add_u64(res, "dscp", c->dscp);
	if (c->port_order == R8239_ORDER_RANDOM && be->n_ports > 1) {
		if (!seed) {
			clock_gettime(CLOCK_REALTIME, &ts);
			seed = (uint64_t)ts.tv_sec * 1000000000ULL +
			       (uint64_t)ts.tv_nsec;
		}
		memcpy(o->names, be->port_names, sizeof(o->names));
		o->shuffled = true;
		s = seed;
		/* Fisher-Yates */
		for (i = be->n_ports - 1; i > 0; i--) {
			j = (unsigned int)(mix(&s) % (i + 1));
			memcpy(tmp, be->port_names[i], sizeof(tmp));
			memcpy(be->port_names[i], be->port_names[j],
			       sizeof(tmp));
			memcpy(be->port_names[j], tmp, sizeof(tmp));
		}
		bm_json_add_u64(res, "seed", seed);
	}
	a = json_object_new_array();
	for (i = 0; i < be->n_ports; i++)
		json_object_array_add(a, json_object_new_string(
			be->port_names[i]));
	json_object_object_add(res, "port_order", a);
}

void r8239_ports_end(struct bm_backend *be, const struct r8239_order *o)
{
	if (o->shuffled)
		memcpy(be->port_names, o->names, sizeof(o->names));
}

void r8239_trial_spec(struct bm_trial_spec *spec, const struct r8239_common *c,
		      uint32_t f, double duration_s, bool learn,
		      struct bm_traffic *t, struct bm_traffic_result *r)
{
	unsigned int i;

	for (i = 0; i < t->n_streams; i++)
		t->streams[i].frame.dscp = (uint8_t)c->dscp;
	memset(spec, 0, sizeof(*spec));
	spec->frame_size = f;
	spec->duration_s = duration_s;
	spec->drain_s = c->drain_s;
	spec->learning = c->learning && learn;
	spec->learning_pause_s = c->learning_pause_s;
	spec->traffic = t;
	spec->traffic_res = r;
}

/* Walk o for objects with "rsd_ok": false; path names where. */
static void flag_rsd(json_object *o, const char *path, json_object *dev,
		     unsigned int *n)
{
	json_object *v;
	char sub[160];
	size_t i;

	if (json_object_is_type(o, json_type_array)) {
		for (i = 0; i < json_object_array_length(o); i++) {
			snprintf(sub, sizeof(sub), "%s[%zu]", path, i + 1);
			flag_rsd(json_object_array_get_idx(o, i), sub, dev, n);
		}
		return;
	}
	if (!json_object_is_type(o, json_type_object))
		return;
	if (json_object_object_get_ex(o, "rsd_ok", &v) &&
	    !json_object_get_boolean(v) && (*n)++ < 8) {
		char line[256];

		json_object_object_get_ex(o, "rsd_pct", &v);
		snprintf(line, sizeof(line), "%s: RSD %.1f %% >= 10 %% (RFC "
			 "8239 §1.2: not repeatable enough; more repetitions "
			 "or a look at the DUT)", path,
			 json_object_get_double(v));
		json_object_array_add(dev, json_object_new_string(line));
	}
	json_object_object_foreach(o, key, val) {
		if (json_object_is_type(val, json_type_object) ||
		    json_object_is_type(val, json_type_array)) {
			snprintf(sub, sizeof(sub), "%s%s%s", path,
				 *path ? "." : "", key);
			flag_rsd(val, sub, dev, n);
		}
	}
}

void r8239_flag_rsd(json_object *res, json_object *dev)
{
	unsigned int n = 0;

	flag_rsd(res, "", dev, &n);
}

void r8239_latency_said(json_object *res, json_object *dev, int ev,
			double cal_ns)
{
	bm_json_add_str(res, "latency_events", bm_lat_event_label(ev));
	bm_json_add_bool(res, "cal_constant_subtracted", cal_ns > 0);
	bm_json_add_double(res, "cal_constant_ns", cal_ns);
	if (!(cal_ns > 0))
		json_object_array_add(dev, json_object_new_string(
			"no calibration constant (R8238-CAL): latency is not "
			"corrected for the tester and cables"));
	if (ev == BM_EV_LF)
		json_object_array_add(dev, json_object_new_string(
			"latency as LF (LIFO): RFC 8238 §2.3 says MUST NOT for "
			"data-center benchmarks; never compare DUTs by it"));
	else if (ev != BM_EV_FL)
		json_object_array_add(dev, json_object_new_string(
			"latency not as FL (FILO), which RFC 8238 §2.1 makes "
			"the switch latency"));
}

int r8239_traffic_ports(struct bm_traffic *t, const struct bm_backend *be,
			struct bm_error *err)
{
	unsigned int i;

	bm_traffic_init(t);
	for (i = 0; i < be->n_ports; i++)
		if (bm_traffic_add_port(t, be->port_names[i],
					be->line_rate_bps, err) < 0)
			return -EINVAL;
	return 0;
}

json_object *r8239_port_names_json(const struct bm_backend *be,
				   unsigned int from, unsigned int to)
{
	json_object *a = json_object_new_array();
	unsigned int i;

	for (i = from; i < to; i++)
		json_object_array_add(a, json_object_new_string(
			be->port_names[i]));
	return a;
}

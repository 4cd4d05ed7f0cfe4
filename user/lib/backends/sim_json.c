// SPDX-License-Identifier: GPL-2.0
/* The simulated device from JSON: bmctl --dry-run --sim '{...}'. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "bm_json.h"
#include "bm_sim.h"

static const char *const curve_names[] = { "cliff", "gradual", NULL };
static const char *const outage_ref_names[] = { "start", "step", NULL };
static const char *const holb_mode_names[] = { "idle", "room", NULL };

/* One entry of "ports": which port, then its overrides. */
struct sim_port_entry {
	int port;
	struct bm_sim_port v;
};

#define PORT_K(name, type, lo, hi, fl) \
	{ #name, type, offsetof(struct sim_port_entry, v.name), lo, hi, fl, \
	  0, NULL, NULL }

static const struct bm_jkey port_keys[] = {
	{ "port", BM_J_INT, offsetof(struct sim_port_entry, port), 0,
	  BM_TRAFFIC_MAX_PORTS - 1, 0, 0, NULL, NULL },
	PORT_K(egress_bps, BM_J_DOUBLE, 0, 1e13, 0),
	PORT_K(queue_frames, BM_J_U64, 0, 1e12, 0),
	PORT_K(queue_bytes, BM_J_U64, 0, 1e15, 0),
	{ NULL, 0, 0, 0, 0, 0, 0, NULL, NULL },
};

/*
 * "ports": [{"port": 2, "egress_bps": 5e8, ...}, ...]: each entry names a
 * port once and overrides what it gives; the others keep their values.
 */
static int parse_ports(json_object *v, void *base, const char *key,
		       struct bm_error *err)
{
	struct bm_sim_params *p = base;
	unsigned char seen[BM_TRAFFIC_MAX_PORTS] = { 0 };
	struct sim_port_entry e;
	json_object *o, *jp;
	char what[48];
	size_t i, n;

	if (json_object_get_type(v) != json_type_array)
		return bm_errorf(err, "%s: expected an array of objects", key);
	n = json_object_array_length(v);
	for (i = 0; i < n; i++) {
		o = json_object_array_get_idx(v, i);
		snprintf(what, sizeof(what), "%s[%zu]", key, i);
		if (json_object_get_type(o) != json_type_object)
			return bm_errorf(err, "%s: expected an object", what);
		if (!json_object_object_get_ex(o, "port", &jp))
			return bm_errorf(err, "%s: port: missing", what);
		/* The port first, so that the entry starts from its values. */
		memset(&e, 0, sizeof(e));
		if (bm_json_parse_keys(o, port_keys, 0, &e, what, err))
			return -1;
		if (seen[e.port])
			return bm_errorf(err, "%s: port %d given twice", what,
					 e.port);
		seen[e.port] = 1;
		e.v = p->ports[e.port];
		if (bm_json_parse_keys(o, port_keys, 0, &e, what, err))
			return -1;
		p->ports[e.port] = e.v;
	}
	return 0;
}

#define SIM_D(name, lo, hi, fl) \
	{ #name, BM_J_DOUBLE, offsetof(struct bm_sim_params, name), lo, hi, \
	  fl, 0, NULL, NULL }

/* Ranges here catch type-level nonsense; bm_sim_params_check() does the
 * cross-field checks. */
static const struct bm_jkey sim_keys[] = {
	SIM_D(line_rate_bps, 0, 1e13, BM_JK_MIN_EXCL),
	SIM_D(capacity_fps, 0, 1e10, 0),
	SIM_D(capacity_bps, 0, 1e13, 0),
	{ "overhead_bytes", BM_J_INT, offsetof(struct bm_sim_params,
	  overhead_bytes), -60, 1000, 0, 0, NULL, NULL },
	SIM_D(bucket_bytes, 0, 1e12, 0),
	{ "buffer_frames", BM_J_U64, offsetof(struct bm_sim_params,
	  buffer_frames), 0, 1e12, 0, 0, NULL, NULL },
	SIM_D(base_latency_ns, 0, 1e11, 0),
	SIM_D(latency_jitter_ns, 0, 1e11, 0),
	{ "curve", BM_J_ENUM, offsetof(struct bm_sim_params, curve), 0, 0, 0,
	  0, curve_names, NULL },
	SIM_D(knee_fps, 0, 1e10, 0),
	SIM_D(gradual_slope, 0, 1e6, BM_JK_MIN_EXCL),
	SIM_D(random_loss, 0, 1, BM_JK_MAX_EXCL),
	SIM_D(capacity_noise, 0, 1, BM_JK_MAX_EXCL),
	{ "seed", BM_J_U64, offsetof(struct bm_sim_params, seed), 0, 9.2e18,
	  0, 0, NULL, NULL },
	SIM_D(reset_outage_s, 0, 86400, 0),
	SIM_D(outage_s, 0, 86400, 0),
	SIM_D(outage_at_s, 0, 86400, 0),
	{ "outage_ref", BM_J_ENUM, offsetof(struct bm_sim_params, outage_ref),
	  0, 0, 0, 0, outage_ref_names, NULL },
	{ "outage_trials", BM_J_UINT, offsetof(struct bm_sim_params,
	  outage_trials), 0, 1e9, 0, 0, NULL, NULL },
	SIM_D(generator_max_fps, 0, 1e10, 0),
	SIM_D(trial_overhead_s, 0, 86400, 0),
	{ "max_frame_size", BM_J_U32, offsetof(struct bm_sim_params,
	  max_frame_size), 0, 65535, 0, 0, NULL, NULL },
	{ "ports", BM_J_CUSTOM, 0, 0, 0, 0, 0, NULL, parse_ports },
	{ "shared_buffer_bytes", BM_J_U64, offsetof(struct bm_sim_params,
	  shared_buffer_bytes), 0, 1e15, 0, 0, NULL, NULL },
	{ "holb_fifo_frames", BM_J_U64, offsetof(struct bm_sim_params,
	  holb_fifo_frames), 0, BM_SIM_MAX_HOLB_FRAMES, 0, 0, NULL, NULL },
	{ "holb_port", BM_J_INT, offsetof(struct bm_sim_params, holb_port),
	  -1, BM_TRAFFIC_MAX_PORTS - 1, 0, 0, NULL, NULL },
	{ "holb_mode", BM_J_ENUM, offsetof(struct bm_sim_params, holb_mode),
	  0, 0, 0, 0, holb_mode_names, NULL },
	{ NULL, 0, 0, 0, 0, 0, 0, NULL, NULL },
};

int bm_sim_params_from_json(json_object *obj, struct bm_sim_params *p,
			    struct bm_error *err)
{
	int ret = bm_json_parse_keys(obj, sim_keys, 0, p, "sim", err);

	return ret ? ret : bm_sim_params_check(p, err);
}

struct bm_backend *bm_sim_new_json(json_object *obj, struct bm_error *err)
{
	struct bm_sim_params p;

	bm_sim_params_default(&p);
	if (bm_sim_params_from_json(obj, &p, err))
		return NULL;
	return bm_sim_new(&p, err);
}

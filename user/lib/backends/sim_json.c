// SPDX-License-Identifier: GPL-2.0
/* The simulated device from JSON: bmctl --dry-run --sim '{...}'. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "bm_json.h"
#include "bm_sim.h"

static const char *const curve_names[] = { "cliff", "gradual", NULL };
static const char *const outage_ref_names[] = { "start", "step", NULL };
static const char *const holb_mode_names[] = { "idle", "room", NULL };

/* One entry of "ports": which port, then its overrides; "policers" is
 * kept in list until the port's entry is whole. */
struct sim_port_entry {
	int port;
	struct bm_sim_port v;
	bool have_list;
	unsigned int n_list;
	struct bm_sim_vlan_policer list[BM_SIM_MAX_POLICERS];
	bool have_catch_all;
	struct bm_sim_policer catch_all;
};

#define PORT_K(name, type, lo, hi, fl) \
	{ #name, type, offsetof(struct sim_port_entry, v.name), lo, hi, fl, \
	  0, NULL, NULL }

/* --- traffic management: "policer", "shaper", "scheduler" ----------- */

/* Rejects an object without key (tables cannot say "required"). */
static int need(json_object *o, const char *what, const char *key,
		struct bm_error *err)
{
	if (json_object_object_get_ex(o, key, NULL))
		return 0;
	return bm_errorf(err, "%s: %s: missing", what, key);
}

/* A policer while it is parsed: "vlan" (-1: none, the catch-all) beside
 * the policer's keys, the policer first so that their offsets agree. */
struct pol_entry {
	struct bm_sim_policer pol;
	int vlan;
};

/* "vlan": 1..4094, or null (the catch-all). */
static int parse_vlan(json_object *v, void *base, const char *key,
		      struct bm_error *err)
{
	struct pol_entry *pe = base;
	int64_t x;

	if (!v) {
		pe->vlan = -1;
		return 0;
	}
	if (json_object_get_type(v) != json_type_int)
		return bm_errorf(err, "%s: expected a VLAN id 1..4094 or null",
				 key);
	x = json_object_get_int64(v);
	if (x < 1 || x > 4094)
		return bm_errorf(err, "%s: %lld outside 1..4094", key,
				 (long long)x);
	pe->vlan = (int)x;
	return 0;
}

#define POL_K(name, type, lo, hi, fl) \
	{ #name, type, offsetof(struct bm_sim_policer, name), lo, hi, fl, 0, \
	  NULL, NULL }
#define POLICER_KEYS \
	POL_K(cir_bps, BM_J_DOUBLE, 0, 1e13, BM_JK_MIN_EXCL), \
	POL_K(cbs_bytes, BM_J_DOUBLE, BM_SIM_TM_MIN_BUCKET, 1e12, 0), \
	POL_K(eir_bps, BM_J_DOUBLE, 0, 1e13, 0), \
	POL_K(ebs_bytes, BM_J_DOUBLE, BM_SIM_TM_MIN_BUCKET, 1e12, 0), \
	POL_K(overhead, BM_J_INT, -60, 1000, 0), \
	POL_K(yellow_dscp, BM_J_INT, 0, 63, 0), \
	POL_K(color_aware, BM_J_BOOL, 0, 0, 0)

static const struct bm_jkey policer_keys[] = {
	POLICER_KEYS,
	{ NULL, 0, 0, 0, 0, 0, 0, NULL, NULL },
};

static const struct bm_jkey vlan_policer_keys[] = {
	POLICER_KEYS,
	{ "vlan", BM_J_CUSTOM, 0, 0, 0, 0, 0, NULL, parse_vlan },
	{ NULL, 0, 0, 0, 0, 0, 0, NULL, NULL },
};

/* A policer object v under key with keys (with or without "vlan"). */
static int policer_of(json_object *v, const struct bm_jkey *keys,
		      const char *key, struct pol_entry *pe,
		      struct bm_error *err)
{
	bool two;

	*pe = (struct pol_entry){ .pol.yellow_dscp = BM_SIM_YELLOW_DSCP,
				  .vlan = -1 };
	if (bm_json_parse_keys(v, keys, 0, pe, key, err) ||
	    need(v, key, "cir_bps", err) || need(v, key, "cbs_bytes", err))
		return -1;
	two = pe->pol.eir_bps > 0;
	if (two && need(v, key, "ebs_bytes", err))
		return -1;
	if (!two && json_object_object_get_ex(v, "ebs_bytes", NULL))
		return bm_errorf(err, "%s: ebs_bytes: needs eir_bps > 0", key);
	if (!two && json_object_object_get_ex(v, "yellow_dscp", NULL))
		return bm_errorf(err, "%s: yellow_dscp: needs eir_bps > 0",
				 key);
	if (!two && pe->pol.color_aware)
		return bm_errorf(err, "%s: color_aware: needs eir_bps > 0 "
				 "(bucket E)", key);
	return 0;
}

/* "policer": {"cir_bps": x, "cbs_bytes": n, ...}: a whole policer, the
 * port's catch-all. */
static int parse_policer(json_object *v, void *base, const char *key,
			 struct bm_error *err)
{
	struct sim_port_entry *e = base;
	struct pol_entry pe;

	if (policer_of(v, policer_keys, key, &pe, err))
		return -1;
	e->v.policer = pe.pol;
	return 0;
}

/*
 * "policers": [{"vlan": 10, "cir_bps": x, ...}, {"cir_bps": y, ...}]: every
 * policer of the port, one per VLAN id (TM-POL-CAP-1's customers) and at
 * most one without "vlan" (or with null), the catch-all; at most
 * BM_SIM_MAX_POLICERS with a VLAN.
 */
static int parse_policers(json_object *v, void *base, const char *key,
			  struct bm_error *err)
{
	struct sim_port_entry *e = base;
	struct pol_entry pe;
	char what[48];
	size_t i, j, n;

	if (json_object_get_type(v) != json_type_array)
		return bm_errorf(err, "%s: expected an array of objects", key);
	e->have_list = true;
	e->have_catch_all = false;
	e->n_list = 0;
	n = json_object_array_length(v);
	for (i = 0; i < n; i++) {
		snprintf(what, sizeof(what), "%s[%zu]", key, i);
		if (policer_of(json_object_array_get_idx(v, i),
			       vlan_policer_keys, what, &pe, err))
			return -1;
		if (pe.vlan < 0) {
			if (e->have_catch_all)
				return bm_errorf(err, "%s: a second catch-all "
						 "policer (no vlan)", what);
			e->have_catch_all = true;
			e->catch_all = pe.pol;
			continue;
		}
		for (j = 0; j < e->n_list; j++)
			if (e->list[j].vlan == pe.vlan)
				return bm_errorf(err, "%s: vlan: VLAN %d has a "
						 "policer already", what,
						 pe.vlan);
		if (e->n_list >= BM_SIM_MAX_POLICERS)
			return bm_errorf(err, "%s: more than %d VLAN policers "
					 "on one port", key,
					 BM_SIM_MAX_POLICERS);
		e->list[e->n_list++] = (struct bm_sim_vlan_policer){
			.vlan = (uint16_t)pe.vlan, .pol = pe.pol };
	}
	return 0;
}

/* Make the port's policers e's list: its VLAN policers replace the port's
 * in p's pool, its catch-all (or none) the port's policer. */
static int apply_policers(struct bm_sim_params *p,
			  const struct sim_port_entry *e, const char *what,
			  struct bm_error *err)
{
	unsigned int i, n = 0;

	for (i = 0; i < p->n_vlan_policers; i++)
		if (p->vlan_policers[i].port != e->port)
			p->vlan_policers[n++] = p->vlan_policers[i];
	if (n + e->n_list > BM_SIM_MAX_VLAN_POLICERS)
		return bm_errorf(err, "%s: policers: more than %d VLAN "
				 "policers in the DUT", what,
				 BM_SIM_MAX_VLAN_POLICERS);
	for (i = 0; i < e->n_list; i++) {
		p->vlan_policers[n] = e->list[i];
		p->vlan_policers[n++].port = (uint16_t)e->port;
	}
	p->n_vlan_policers = n;
	p->ports[e->port].policer = e->have_catch_all ? e->catch_all :
		(struct bm_sim_policer){ .yellow_dscp = BM_SIM_YELLOW_DSCP };
	return 0;
}

#define SHP_K(name, type, lo, hi, fl) \
	{ #name, type, offsetof(struct bm_sim_shaper, name), lo, hi, fl, 0, \
	  NULL, NULL }

static const struct bm_jkey shaper_keys[] = {
	SHP_K(rate_bps, BM_J_DOUBLE, 0, 1e13, BM_JK_MIN_EXCL),
	SHP_K(bucket_bytes, BM_J_DOUBLE, BM_SIM_TM_MIN_BUCKET, 1e12, 0),
	SHP_K(overhead, BM_J_INT, -60, 1000, 0),
	{ NULL, 0, 0, 0, 0, 0, 0, NULL, NULL },
};

/* "shaper": {"rate_bps": x, "bucket_bytes": b, "overhead": o}. */
static int parse_shaper(json_object *v, void *base, const char *key,
			struct bm_error *err)
{
	struct sim_port_entry *e = base;
	struct bm_sim_shaper x = { 0 };

	if (bm_json_parse_keys(v, shaper_keys, 0, &x, key, err) ||
	    need(v, key, "rate_bps", err) || need(v, key, "bucket_bytes", err))
		return -1;
	e->v.shaper = x;
	return 0;
}

static const char *const sched_kind_names[] = { "prio", "ets", NULL };

/* One band being parsed: the band and the DSCPs it lists. */
struct band_entry {
	struct bm_sim_band b;
	uint64_t dscp;			/* bit d: DSCP d */
};

/* "dscp": [46, 10, ...]: distinct integers 0..63, possibly none. */
static int parse_dscps(json_object *v, void *base, const char *key,
		       struct bm_error *err)
{
	struct band_entry *be = base;
	json_object *x;
	size_t i, n;
	int64_t d;

	if (json_object_get_type(v) != json_type_array)
		return bm_errorf(err, "%s: expected an array of DSCPs", key);
	be->dscp = 0;
	n = json_object_array_length(v);
	for (i = 0; i < n; i++) {
		x = json_object_array_get_idx(v, i);
		if (json_object_get_type(x) != json_type_int)
			return bm_errorf(err, "%s[%zu]: expected an integer",
					 key, i);
		d = json_object_get_int64(x);
		if (d < 0 || d > 63)
			return bm_errorf(err, "%s[%zu]: DSCP %lld outside 0..63",
					 key, i, (long long)d);
		if (be->dscp & (1ULL << d))
			return bm_errorf(err, "%s[%zu]: DSCP %lld given twice",
					 key, i, (long long)d);
		be->dscp |= 1ULL << d;
	}
	return 0;
}

#define BAND_K(name, type, lo, hi, fl) \
	{ #name, type, offsetof(struct band_entry, b.name), lo, hi, fl, 0, \
	  NULL, NULL }

static const struct bm_jkey band_keys[] = {
	{ "dscp", BM_J_CUSTOM, 0, 0, 0, 0, 0, NULL, parse_dscps },
	BAND_K(strict, BM_J_BOOL, 0, 0, 0),
	BAND_K(quantum, BM_J_U32, 1, 1e8, 0),
	BAND_K(queue_frames, BM_J_U32, 0, 1e9, 0),
	BAND_K(queue_bytes, BM_J_U64, 0, 1e15, 0),
	BAND_K(rate_bps, BM_J_DOUBLE, 0, 1e13, BM_JK_MIN_EXCL),
	BAND_K(bucket_bytes, BM_J_DOUBLE, BM_SIM_TM_MIN_BUCKET, 1e12, 0),
	BAND_K(overhead, BM_J_INT, -60, 1000, 0),
	{ NULL, 0, 0, 0, 0, 0, 0, NULL, NULL },
};

/* Band i of a kind scheduler from object o into s; key names the
 * scheduler in messages. */
static int parse_band(json_object *o, enum bm_sim_sched_kind kind,
		      unsigned int i, struct bm_sim_sched *s, const char *key,
		      struct bm_error *err)
{
	struct band_entry be = { .b = { .queue_frames = BM_SIM_BAND_QUEUE } };
	bool strict_given, quantum_given;
	char what[48];
	unsigned int d;

	snprintf(what, sizeof(what), "%.20s: bands[%u]", key, i);
	if (json_object_get_type(o) != json_type_object)
		return bm_errorf(err, "%s: expected an object", what);
	if (bm_json_parse_keys(o, band_keys, 0, &be, what, err))
		return -1;
	strict_given = json_object_object_get_ex(o, "strict", NULL);
	quantum_given = json_object_object_get_ex(o, "quantum", NULL);
	if (kind == BM_SIM_SCHED_PRIO && (strict_given || quantum_given))
		return bm_errorf(err, "%s: %s: not for prio, whose bands are "
				 "all strict", what,
				 strict_given ? "strict" : "quantum");
	if (kind == BM_SIM_SCHED_PRIO)
		be.b.strict = true;
	if (be.b.strict && quantum_given)
		return bm_errorf(err, "%s: quantum: not for a strict band",
				 what);
	if (!be.b.strict && !quantum_given)
		be.b.quantum = BM_SIM_ETS_QUANTUM;
	/* a band's shaper: rate and bucket together, on a strict band (the
	 * DRR bands would need HTB's borrowing, which is not modelled) */
	if (json_object_object_get_ex(o, "rate_bps", NULL) ||
	    json_object_object_get_ex(o, "bucket_bytes", NULL) ||
	    json_object_object_get_ex(o, "overhead", NULL)) {
		if (need(o, what, "rate_bps", err) ||
		    need(o, what, "bucket_bytes", err))
			return -1;
		if (!be.b.strict)
			return bm_errorf(err, "%s: rate_bps: only a strict band "
					 "can be shaped", what);
	}
	for (d = 0; d < 64; d++) {
		if (!(be.dscp & (1ULL << d)))
			continue;
		if (s->band_of[d] != BM_SIM_BAND_DEFAULT)
			return bm_errorf(err, "%s: dscp: DSCP %u is already in "
					 "band %u", what, d, s->band_of[d]);
		s->band_of[d] = (uint8_t)i;
	}
	s->bands[i] = be.b;
	return 0;
}

/* The scheduler object while its keys are read, before "bands". */
struct sched_entry {
	int kind;
	json_object *bands;
};

static int keep_bands(json_object *v, void *base, const char *key,
		      struct bm_error *err)
{
	struct sched_entry *se = base;

	if (json_object_get_type(v) != json_type_array)
		return bm_errorf(err, "%s: expected an array of objects", key);
	se->bands = v;
	return 0;
}

static const struct bm_jkey sched_keys[] = {
	{ "kind", BM_J_ENUM, offsetof(struct sched_entry, kind), 0, 0, 0, 0,
	  sched_kind_names, NULL },
	{ "bands", BM_J_CUSTOM, 0, 0, 0, 0, 0, NULL, keep_bands },
	{ NULL, 0, 0, 0, 0, 0, 0, NULL, NULL },
};

/*
 * "scheduler": {"kind": "prio"|"ets", "bands": [{"dscp": [46], "strict":
 * true, "rate_bps": 3e7, "bucket_bytes": 3028}, {"dscp": [10], "quantum":
 * 3000}, ...]}: bands in order, a DSCP no band lists goes to the last.
 */
static int parse_scheduler(json_object *v, void *base, const char *key,
			   struct bm_error *err)
{
	struct sim_port_entry *e = base;
	struct sched_entry se = { -1, NULL };
	struct bm_sim_sched s;
	size_t i, n;
	int ret;

	if (bm_json_parse_keys(v, sched_keys, 0, &se, key, err) ||
	    need(v, key, "kind", err) || need(v, key, "bands", err))
		return -1;
	memset(&s, 0, sizeof(s));
	memset(s.band_of, BM_SIM_BAND_DEFAULT, sizeof(s.band_of));
	/* the names start at "prio" */
	s.kind = (enum bm_sim_sched_kind)(se.kind + 1);
	n = json_object_array_length(se.bands);
	if (n < 1 || n > BM_SIM_MAX_BANDS)
		return bm_errorf(err, "%s: bands: %zu bands, expected 1..%d",
				 key, n, BM_SIM_MAX_BANDS);
	s.n_bands = (unsigned int)n;
	for (i = 0; i < n; i++) {
		ret = parse_band(json_object_array_get_idx(se.bands, i),
				 s.kind, (unsigned int)i, &s, key, err);
		if (ret)
			return -1;
	}
	e->v.sched = s;
	return 0;
}

static const struct bm_jkey port_keys[] = {
	{ "port", BM_J_INT, offsetof(struct sim_port_entry, port), 0,
	  BM_TRAFFIC_MAX_PORTS - 1, 0, 0, NULL, NULL },
	PORT_K(egress_bps, BM_J_DOUBLE, 0, 1e13, 0),
	PORT_K(queue_frames, BM_J_U64, 0, 1e12, 0),
	PORT_K(queue_bytes, BM_J_U64, 0, 1e15, 0),
	{ "policer", BM_J_CUSTOM, 0, 0, 0, 0, 0, NULL, parse_policer },
	{ "policers", BM_J_CUSTOM, 0, 0, 0, 0, 0, NULL, parse_policers },
	{ "shaper", BM_J_CUSTOM, 0, 0, 0, 0, 0, NULL, parse_shaper },
	{ "scheduler", BM_J_CUSTOM, 0, 0, 0, 0, 0, NULL, parse_scheduler },
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
	int ret;
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
		if (e.have_list && json_object_object_get_ex(o, "policer",
							     NULL))
			return bm_errorf(err, "%s: policer and policers: give "
					 "one (the catch-all is the policer "
					 "without a vlan)", what);
		p->ports[e.port] = e.v;
		if (e.have_list) {
			ret = apply_policers(p, &e, what, err);
			if (ret)
				return ret;
		}
	}
	return 0;
}

#define SIM_D(name, lo, hi, fl) \
	{ #name, BM_J_DOUBLE, offsetof(struct bm_sim_params, name), lo, hi, \
	  fl, 0, NULL, NULL }

/* An IPv4 address in dotted quad into a; 0 or -EINVAL. */
static int ip4(json_object *v, uint8_t a[4], const char *key, size_t i,
	       struct bm_error *err)
{
	if (!bm_json_ip4(v, a))
		return bm_errorf(err, "%s[%zu]: expected an IPv4 address "
				 "\"a.b.c.d\"", key, i);
	return 0;
}

/* "filter_permit": [["198.18.1.2", "198.19.65.2"], ...]: the (source,
 * destination) pairs the DUT's filters let through (RFC 2544 §11.4). */
static int parse_permit(json_object *v, void *base, const char *key,
			struct bm_error *err)
{
	struct bm_sim_params *p = base;
	json_object *x;
	size_t i, n;

	if (json_object_get_type(v) != json_type_array)
		return bm_errorf(err, "%s: expected an array of [source, "
				 "destination] pairs", key);
	n = json_object_array_length(v);
	if (n > BM_SIM_MAX_PERMIT)
		return bm_errorf(err, "%s: %zu pairs, at most %d", key, n,
				 BM_SIM_MAX_PERMIT);
	for (i = 0; i < n; i++) {
		x = json_object_array_get_idx(v, i);
		if (json_object_get_type(x) != json_type_array ||
		    json_object_array_length(x) != 2)
			return bm_errorf(err, "%s[%zu]: expected [source, "
					 "destination]", key, i);
		if (ip4(json_object_array_get_idx(x, 0), p->permit[i][0], key,
			i, err) ||
		    ip4(json_object_array_get_idx(x, 1), p->permit[i][1], key,
			i, err))
			return -EINVAL;
	}
	p->n_permit = (unsigned int)n;
	return 0;
}

/* "mgmt_agent": "198.18.1.1": an SNMP agent there (RFC 2544 §11.2). */
static int parse_agent(json_object *v, void *base, const char *key,
		       struct bm_error *err)
{
	struct bm_sim_params *p = base;

	if (!bm_json_ip4(v, p->mgmt_agent))
		return bm_errorf(err, "%s: expected an IPv4 address "
				 "\"a.b.c.d\"", key);
	p->have_mgmt_agent = true;
	return 0;
}

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
	{ "link_down_trial", BM_J_UINT, offsetof(struct bm_sim_params,
	  link_down_trial), 0, 1e9, 0, 0, NULL, NULL },
	SIM_D(host_stall_above_fps, 0, 1e12, 0),
	SIM_D(ptp_offset_ns, -1e12, 1e12, 0),
	SIM_D(ptp_wander_ns, -1e12, 1e12, 0),
	{ "ptp_wander_trial", BM_J_UINT, offsetof(struct bm_sim_params,
	  ptp_wander_trial), 0, 1e9, 0, 0, NULL, NULL },
	{ "phc2sys_log", BM_J_BOOL, offsetof(struct bm_sim_params,
	  phc2sys_log), 0, 0, 0, 0, NULL, NULL },
	SIM_D(phc2sys_offset_ns, -1e12, 1e12, 0),
	{ "phc2sys_reports", BM_J_UINT, offsetof(struct bm_sim_params,
	  phc2sys_reports), 0, 1e6, 0, 0, NULL, NULL },
	SIM_D(clock_error_ns, -1e12, 1e12, 0),
	SIM_D(tai_utc_error_s, -3600, 3600, 0),
	SIM_D(sw_stamp_delay_ns, 0, 1e9, 0),
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
	{ "filter_permit", BM_J_CUSTOM, 0, 0, 0, 0, 0, NULL, parse_permit },
	{ "mgmt_agent", BM_J_CUSTOM, 0, 0, 0, 0, 0, NULL, parse_agent },
	{ "rip_routes", BM_J_BOOL, offsetof(struct bm_sim_params, rip_routes),
	  0, 0, 0, 0, NULL, NULL },
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

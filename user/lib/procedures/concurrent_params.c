// SPDX-License-Identifier: GPL-2.0
/*
 * rfc7640.concurrent's parameters (concurrent.c): the profile's name and
 * its instances, each an rfc7640 procedure with its own parameters on
 * its own ports of the job (REQ-TM-9: disjoint; one with TCP at most),
 * and the registry's hooks that need only them (validate, defaults, the
 * TCP paths, the trial bound).  Apart from the run because bmd calls
 * these at submit, long before any instance runs.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "bm_json.h"
#include "concurrent_int.h"

static int parse_profile(json_object *v, void *base, const char *key,
			 struct bm_error *err)
{
	struct conc_params *p = base;

	if (!json_object_is_type(v, json_type_string))
		return bm_errorf(err, "%s: a string", key);
	if ((size_t)json_object_get_string_len(v) >= sizeof(p->profile))
		return bm_errorf(err, "%s: at most %zu characters", key,
				 sizeof(p->profile) - 1);
	snprintf(p->profile, sizeof(p->profile), "%s",
		 json_object_get_string(v));
	return 0;
}

/* instances[i].ports into ip: 1-based, distinct, as many as the procedure
 * needs (REQ-CAP-1). */
static int parse_ports(json_object *v, struct conc_inst_params *ip,
		       const char *key, unsigned int i, struct bm_error *err)
{
	unsigned int k, m;
	int64_t x;

	if (!v || !json_object_is_type(v, json_type_array) ||
	    !json_object_array_length(v))
		return bm_errorf(err, "%s[%u].ports: a list of the job's ports, "
				 "1 = its first", key, i + 1);
	if (json_object_array_length(v) > BM_BACKEND_MAX_PORTS)
		return bm_errorf(err, "%s[%u].ports: at most %d", key, i + 1,
				 BM_BACKEND_MAX_PORTS);
	ip->n_idx = 0;
	for (k = 0; k < json_object_array_length(v); k++) {
		json_object *e = json_object_array_get_idx(v, k);

		if (!json_object_is_type(e, json_type_int))
			return bm_errorf(err, "%s[%u].ports: integers", key,
					 i + 1);
		x = json_object_get_int64(e);
		if (x < 1 || x > BM_BACKEND_MAX_PORTS)
			return bm_errorf(err, "%s[%u].ports: %lld: 1 to %d",
					 key, i + 1, (long long)x,
					 BM_BACKEND_MAX_PORTS);
		for (m = 0; m < ip->n_idx; m++)
			if (ip->idx[m] == (unsigned int)x - 1)
				return bm_errorf(err, "%s[%u].ports: %lld "
						 "twice", key, i + 1,
						 (long long)x);
		ip->idx[ip->n_idx++] = (unsigned int)x - 1;
	}
	if (ip->n_idx < ip->pi->ports_needed)
		return bm_errorf(err, "%s[%u].ports: %s needs %u ports "
				 "(REQ-CAP-1), %u given", key, i + 1,
				 ip->pi->name, ip->pi->ports_needed,
				 ip->n_idx);
	return 0;
}

static int parse_instance(json_object *o, struct conc_inst_params *ip,
			  const char *key, unsigned int i,
			  struct bm_error *err)
{
	json_object *v;

	if (!json_object_is_type(o, json_type_object))
		return bm_errorf(err, "%s[%u]: an object {procedure, ports, "
				 "params}", key, i + 1);
	json_object_object_foreach(o, k, val) {
		(void)val;
		if (strcmp(k, "procedure") && strcmp(k, "ports") &&
		    strcmp(k, "params"))
			return bm_errorf(err, "%s[%u]: unknown key '%s'", key,
					 i + 1, k);
	}
	if (!json_object_object_get_ex(o, "procedure", &v) ||
	    !json_object_is_type(v, json_type_string))
		return bm_errorf(err, "%s[%u].procedure: the name of an "
				 "rfc7640 procedure", key, i + 1);
	ip->pi = bm_procedure_find(json_object_get_string(v), NULL);
	if (!ip->pi || strncmp(ip->pi->name, CONC_FAMILY,
			       strlen(CONC_FAMILY)) ||
	    ip->pi->validate == conc_validate)	/* not itself */
		return bm_errorf(err, "%s[%u].procedure: '%.64s' is not an "
				 "rfc7640 procedure that can run beside "
				 "others", key, i + 1,
				 json_object_get_string(v));
	json_object_object_get_ex(o, "ports", &v);
	if (parse_ports(v, ip, key, i, err))
		return -EINVAL;
	ip->params = NULL;
	if (json_object_object_get_ex(o, "params", &v) && v) {
		if (!json_object_is_type(v, json_type_object))
			return bm_errorf(err, "%s[%u].params: an object", key,
					 i + 1);
		ip->params = v;
	}
	return 0;
}

/* The TCP paths (REQ-TM-2) of instance ip as the job's port indexes into
 * pairs[0..max) (NULL: only count them); their number. */
static unsigned int inst_tcp_paths(const struct conc_inst_params *ip,
				   unsigned int (*pairs)[2], unsigned int max)
{
	unsigned int local[64][2], n, k;

	if (!ip->pi->nde_pairs)
		return 0;
	n = ip->pi->nde_pairs(ip->pi, ip->params, ip->n_idx, local, 64);
	for (k = 0; pairs && k < n && k < max; k++) {
		pairs[k][0] = ip->idx[local[k][0]];
		pairs[k][1] = ip->idx[local[k][1]];
	}
	return pairs && n > max ? max : n;
}

static int parse_instances(json_object *v, void *base, const char *key,
			   struct bm_error *err)
{
	struct conc_params *p = base;
	unsigned int i, j, a, b, n;

	if (!json_object_is_type(v, json_type_array))
		return bm_errorf(err, "%s: a list of {procedure, ports, "
				 "params}", key);
	n = json_object_array_length(v);
	if (n < 2 || n > CONC_MAX)
		return bm_errorf(err, "%s: 2 to %d procedures, %u given", key,
				 CONC_MAX, n);
	for (i = 0; i < n; i++)
		if (parse_instance(json_object_array_get_idx(v, i),
				   &p->inst[i], key, i, err))
			return -EINVAL;
	/* REQ-TM-9: disjoint ports (and so disjoint streams) */
	for (i = 0; i < n; i++)
		for (j = 0; j < i; j++)
			for (a = 0; a < p->inst[i].n_idx; a++)
				for (b = 0; b < p->inst[j].n_idx; b++)
					if (p->inst[i].idx[a] ==
					    p->inst[j].idx[b])
						return bm_errorf(err,
							"%s[%u].ports: port %u "
							"is %s[%u]'s too (REQ-"
							"TM-9: disjoint ports)",
							key, i + 1,
							p->inst[i].idx[a] + 1,
							key, j + 1);
	/* the TCP engine runs one session: one stateful instance */
	for (i = 0, j = 0; i < n; i++)
		if (inst_tcp_paths(&p->inst[i], NULL, 0) && j++)
			return bm_errorf(err, "%s[%u]: a second instance with "
					 "TCP traffic (the engine runs one "
					 "session at a time)", key, i + 1);
	p->instances = v;
	p->n = n;
	return 0;
}

const struct bm_param conc_keys[] = {
	{ { "profile", BM_J_CUSTOM, 0, 0, 0, 0, 0, NULL, parse_profile }, "",
	  "the concurrency profile's name, reported (TM §6.4) [PROPOSED "
	  "\"policers on ingress + shapers on egress\": the SPEC's "
	  "acceptance]", "string" },
	{ { "instances", BM_J_CUSTOM, 0, 0, 0, 0, 0, NULL, parse_instances },
	  "", "2 to 8 rfc7640 procedures at once: {procedure, ports (the "
	  "job's, 1 = its first; disjoint), params} "
	  "[PROPOSED rfc7640.policer on 1, 2 and rfc7640.shaper on 3, 4]",
	  "object array" },
	{ { NULL, 0, 0, 0, 0, 0, 0, NULL, NULL }, NULL, NULL, NULL },
};

json_object *conc_defaults_json(const struct bm_procedure_info *pi)
{
	json_object *o = json_object_new_object();

	(void)pi;
	bm_json_add_str(o, "profile", "policers on ingress + shapers on "
			"egress");
	json_object_object_add(o, "instances", json_tokener_parse(
		"[{\"procedure\": \"rfc7640.policer\", \"ports\": [1, 2]},"
		" {\"procedure\": \"rfc7640.shaper\", \"ports\": [3, 4]}]"));
	return o;
}

void conc_params_free(struct conc_params *p)
{
	json_object_put(p->defaults);
	p->defaults = NULL;
}

/* The defaults, then params over them; 0 or -EINVAL with err set.  Free
 * with conc_params_free() either way. */
int conc_parse(const struct bm_procedure_info *pi, json_object *params,
	       double line_rate_bps, struct conc_params *p,
	       struct bm_error *err)
{
	struct bm_error e = { "" };
	unsigned int i;

	memset(p, 0, sizeof(*p));
	p->defaults = conc_defaults_json(pi);
	if (!p->defaults)
		return bm_errorf(err, "out of memory");
	if (bm_json_parse_params(p->defaults, pi->keys, pi->mask, p, pi->name,
				 err) ||
	    bm_json_parse_params(params, pi->keys, pi->mask, p, pi->name,
				 err))
		return -EINVAL;
	for (i = 0; i < p->n; i++)
		if (p->inst[i].pi->validate(p->inst[i].pi, p->inst[i].params,
					    line_rate_bps, &e))
			return bm_errorf(err, "%s: instances[%u].params: %s",
					 pi->name, i + 1,
					 e.msg);
	return 0;
}

int conc_validate(const struct bm_procedure_info *pi, json_object *params,
		  double line_rate_bps, struct bm_error *err)
{
	struct conc_params p;
	int ret = conc_parse(pi, params, line_rate_bps, &p, err);

	conc_params_free(&p);
	return ret;
}

unsigned int conc_nde_pairs(const struct bm_procedure_info *pi,
			    json_object *params, unsigned int n_ports,
			    unsigned int (*pairs)[2], unsigned int max)
{
	struct bm_error err = { "" };
	struct conc_params p;
	unsigned int i, n = 0;

	(void)n_ports;
	memset(&p, 0, sizeof(p));
	p.defaults = conc_defaults_json(pi);
	/* what submit took; a run refuses anything else itself */
	if (p.defaults &&
	    !bm_json_parse_params(p.defaults, pi->keys, pi->mask, &p, pi->name,
				  &err) &&
	    !bm_json_parse_params(params, pi->keys, pi->mask, &p, pi->name,
				  &err))
		for (i = 0; i < p.n && n < max; i++)
			n += inst_tcp_paths(&p.inst[i], pairs + n, max - n);
	conc_params_free(&p);
	return n;
}

int conc_max_trials(const struct bm_procedure_info *pi, json_object *params,
		    double line_rate_bps, unsigned int n_ports, double *n,
		    struct bm_error *err)
{
	struct conc_params p;
	unsigned int i;
	double x;
	int ret;

	(void)n_ports;
	*n = 0.0;
	ret = conc_parse(pi, params, line_rate_bps, &p, err);
	for (i = 0; !ret && i < p.n; i++) {
		ret = p.inst[i].pi->max_trials(p.inst[i].pi, p.inst[i].params,
					       line_rate_bps, p.inst[i].n_idx,
					       &x, err);
		*n += x;
	}
	conc_params_free(&p);
	return ret;
}

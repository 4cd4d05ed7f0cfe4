// SPDX-License-Identifier: GPL-2.0
/*
 * bmgen.part (part.h): one host's part of a pool's trial, run as a job.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "bm_part.h"
#include "bm_result.h"
#include "part.h"

struct part_params {
	json_object *part;	/* borrowed from the job's params */
};

static int parse_part(json_object *v, void *base, const char *key,
		      struct bm_error *err)
{
	struct part_params *p = base;

	if (!json_object_is_type(v, json_type_object))
		return bm_errorf(err, "%s: the trial a pool sends, an object",
				 key);
	p->part = v;
	return 0;
}

static json_object *part_json(const struct bm_jwriter *w,
			      const struct bm_jkey *k, const void *base)
{
	const struct part_params *p = base;

	(void)w;
	(void)k;
	return p->part ? json_object_get(p->part) : NULL;
}

const struct bm_param part_keys[] = {
	{ { "part", BM_J_CUSTOM, 0, 0, 0, 0, 0, NULL, parse_part }, "",
	  "the trial, its traffic, this host's name in the pool and the "
	  "CLOCK_TAI start, as the bmd that runs the pool's job sends them "
	  "(not for typing by hand); unset: one trial of 1 % of the line "
	  "from the first port to the second, 1 s at 512 B", "object" },
	{ { NULL, 0, 0, 0, 0, 0, 0, NULL, NULL }, NULL, NULL, NULL },
};

const struct bm_jwriter part_writers[] = {
	{ parse_part, part_json, 0 },
	{ NULL, NULL, 0 },
};

/* The part of params into spec and t (bm_traffic_free() it either way),
 * checked as a trial; 0, or -EINVAL with err set. */
static int part_parse(const struct bm_procedure_info *pi, json_object *params,
		      struct bm_trial_spec *spec, struct bm_traffic *t,
		      char *host, struct part_params *pp, struct bm_error *err)
{
	struct part_params p = { NULL };
	int ret;

	bm_traffic_init(t);
	memset(spec, 0, sizeof(*spec));
	ret = bm_json_parse_params(params, pi->keys, pi->mask, &p, pi->name,
				   err);
	if (ret)
		return ret;
	if (pp)
		*pp = p;
	if (!p.part)
		return 0;	/* the check trial: part_check_trial() */
	ret = bm_part_spec_from_json(p.part, spec, t, host, err);
	if (!ret)
		ret = bm_traffic_check(t, spec->frame_size, err);
	if (ret) {
		struct bm_error e = *err;

		bm_errorf(err, "%s: %s", pi->name, e.msg);
	}
	return ret;
}

int part_validate(const struct bm_procedure_info *pi, json_object *params,
		  double line_rate_bps, struct bm_error *err)
{
	char host[BM_PART_HOST_LEN];
	struct bm_trial_spec spec;
	struct bm_traffic t;
	int ret;

	(void)line_rate_bps;
	ret = part_parse(pi, params, &spec, &t, host, NULL, err);
	bm_traffic_free(&t);
	return ret;
}

json_object *part_defaults_json(const struct bm_procedure_info *pi)
{
	struct part_params p = { NULL };

	return bm_json_params_to_json(pi->keys, pi->mask, &p, pi->writers);
}

int part_max_trials(const struct bm_procedure_info *pi, json_object *params,
		    double line_rate_bps, unsigned int n_ports, double *n,
		    struct bm_error *err)
{
	int ret = part_validate(pi, params, line_rate_bps, err);

	(void)n_ports;
	if (!ret)
		*n = 1;
	return ret;
}

/*
 * Without a part, a trial that checks the job's ports as a part would:
 * 1 % of the line from the first port to the second for 1 s at 512 B,
 * both halves on this host.
 */
static int part_check_trial(const struct bm_backend *be,
			    struct bm_trial_spec *spec, struct bm_traffic *t,
			    char *host, struct bm_error *err)
{
	double rate = be->line_rate_bps > 0 ? be->line_rate_bps : 1e9;

	host[0] = 0;
	if (be->n_ports < 1)
		return bm_errorf(err, "bmgen.part: no port to check");
	if (bm_traffic_add_port(t, be->port_names[0], rate, err) < 0 ||
	    (be->n_ports > 1 && strcmp(be->port_names[0], be->port_names[1]) &&
	     bm_traffic_add_port(t, be->port_names[1], rate, err) < 0) ||
	    bm_topo_pair(t, 0, t->n_ports - 1, false, 1.0, err) < 0)
		return -EINVAL;
	bm_trial_spec_rate(spec, 512, 0, 1.0);
	spec->traffic = t;
	spec->host = host;
	return 0;
}

/* Every port of the part's host must be one of the job's: bmd let the
 * job have those, and no other. */
static int part_ports_ok(const struct bm_backend *be,
			 const struct bm_traffic *t, const char *host,
			 struct bm_error *err)
{
	unsigned int i, j;

	for (i = 0; i < t->n_ports; i++) {
		if (strcmp(t->ports[i].host, host))
			continue;
		for (j = 0; j < be->n_ports; j++)
			if (!strcmp(be->port_names[j], t->ports[i].name))
				break;
		if (j == be->n_ports)
			return bm_errorf(err, "part: port %s is not one of the "
					 "job's", t->ports[i].name);
	}
	return 0;
}

int part_run(const struct bm_procedure_info *pi, json_object *params,
	     struct bm_backend *be, bm_progress_fn progress, void *ctx,
	     json_object **result, struct bm_error *err)
{
	char host[BM_PART_HOST_LEN];
	struct bm_trial_log log = { 0 };
	struct part_params p = { NULL };
	struct bm_trial_result res;
	struct bm_trial_spec spec;
	struct bm_traffic t;
	json_object *out = NULL;
	int ret;

	*result = NULL;
	ret = part_parse(pi, params, &spec, &t, host, &p, err);
	if (!ret && !p.part)
		ret = part_check_trial(be, &spec, &t, host, err);
	if (!ret)
		ret = part_ports_ok(be, &t, host, err);
	if (!ret) {
		spec.traffic_res = bm_traffic_result_new(&t);
		if (!spec.traffic_res)
			ret = (bm_errorf(err, "out of memory"), -ENOMEM);
	}
	if (!ret)
		ret = bm_run_trial(be, &spec, &res, err);
	if (!ret) {
		out = json_object_new_object();
		bm_json_add_str(out, "host", host);
		bm_json_add_u64(out, "attempted", res.attempted);
		bm_json_add_u64(out, "received", res.received);
		json_object_object_add(out, "part",
				       bm_part_result_to_json(&res,
							      spec.traffic_res));
		if (!bm_trial_log_add(&log, "part", "this host's halves",
				      &spec, &res)) {
			bm_trial_record_offered(&log.v[0]);
			if (progress)
				progress(ctx, &log.v[0], "part done");
		}
		*result = bm_result_envelope(pi->name, pi->refs,
			bm_json_params_to_json(pi->keys, pi->mask, &p,
					       pi->writers),
			&log, NULL, out, NULL, be);
		if (!*result)
			ret = (bm_errorf(err, "out of memory"), -ENOMEM);
	}
	bm_trial_log_free(&log);
	bm_traffic_result_free(spec.traffic_res);
	bm_traffic_free(&t);
	return ret;
}

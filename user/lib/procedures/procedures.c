// SPDX-License-Identifier: GPL-2.0
/*
 * The procedure registry of bm_procedure.h.  Each family keeps its
 * procedures' rows beside their code (bm_proc_info.h): the RFC 2544
 * benchmarks (rfc2544/rfc2544_procs.c), MLRsearch on its own
 * (searches/mlrsearch_proc.c), the RFC 8239 and 8238 procedures
 * (rfc8239/rfc8239_procs.c), the RFC 7640 ones (rfc7640/rfc7640_procs.c)
 * and bmgen's own below: the generator's capacity, and rfc7640.concurrent,
 * which runs the others through this registry.  The families' list is
 * the only place that knows them all; what every procedure gets (the
 * lookup by name, the ports check, the description, the dry-run rule)
 * is done here once.
 */
#include <errno.h>
#include <string.h>

#include "bm_procedure.h"
#include "capacity.h"
#include "concurrent.h"
#include "part.h"
#include "rfc2544.h"
#include "rfc7640.h"
#include "rfc8239.h"
#include "bm_mlrsearch.h"

/* bmgen's own procedures: of no standard, or over the others */
static const struct bm_procedure_info bmgen_procedures[] = {
	{ .name = "bmgen.capacity",
	  .summary = "the generator's own capacity: frames/s one transmit "
		     "kthread sends per path and frame size, and what the "
		     "loop to the second port carries clean (bmctl port "
		     "calibrate)",
	  .refs = "REQ-GEN-6",
	  .ports_needed = 2, .keys = cap_keys, .writers = cap_writers,
	  .duration_key = "duration_s", .sizes_key = "frame_sizes",
	  .validate = cap_validate, .defaults = cap_defaults_json,
	  .max_trials = cap_max_trials, .run = cap_run, .own_rates = true },
	{ .name = "bmgen.part",
	  .summary = "one host's part of a trial over several hosts' ports: "
		     "what the bmd of a pool's job runs on each other host "
		     "(Documentation/multi-host.md)",
	  .refs = "PLAT-TRIAL, REQ-TRIAL-3",
	  .ports_needed = 2, .keys = part_keys, .writers = part_writers,
	  .duration_key = NULL, .sizes_key = NULL,
	  .validate = part_validate, .defaults = part_defaults_json,
	  .max_trials = part_max_trials, .run = part_run },
	{ .name = "rfc7640.concurrent",
	  .summary = "RFC 7640 §6.4 concurrent capacity load: several "
		     "rfc7640 procedures at once on disjoint ports, one "
		     "time base, one report",
	  .refs = "TM-CONC, REQ-TM-9, REQ-TM-3",
	  /* two instances of a port pair at least */
	  .ports_needed = 4, .keys = conc_keys,
	  .duration_key = NULL, .sizes_key = NULL,
	  .validate = conc_validate, .defaults = conc_defaults_json,
	  .max_trials = conc_max_trials, .run = conc_run,
	  .nde_pairs = conc_nde_pairs },
	{ .name = NULL },
};

/* The families, in the order bmctl lists their procedures. */
static const struct bm_procedure_info *const families[] = {
	rfc2544_procedures, mlrsearch_procedures, rfc8239_procedures,
	rfc7640_procedures, bmgen_procedures, NULL,
};

const struct bm_procedure_info *bm_procedure_at(size_t i)
{
	const struct bm_procedure_info *const *f;
	const struct bm_procedure_info *pi;

	for (f = families; *f; f++)
		for (pi = *f; pi->name; pi++)
			if (!i--)
				return pi;
	return NULL;
}

const struct bm_procedure_info *bm_procedure_find(const char *name,
						  struct bm_error *err)
{
	const struct bm_procedure_info *pi;
	size_t i;

	for (i = 0; name && (pi = bm_procedure_at(i)); i++)
		if (!strcmp(pi->name, name))
			return pi;
	bm_errorf(err, "unknown procedure \"%s\"", name ? name : "");
	return NULL;
}

json_object *bm_procedure_describe(const struct bm_procedure_info *pi)
{
	json_object *o = json_object_new_object(), *d;

	bm_json_add_str(o, "name", pi->name);
	bm_json_add_str(o, "summary", pi->summary);
	/* "ref", as the protocol has always called it */
	bm_json_add_str(o, "ref", pi->refs);
	bm_json_add_u64(o, "ports_needed", pi->ports_needed);
	bm_json_add_str(o, "duration_key", pi->duration_key);
	bm_json_add_str(o, "sizes_key", pi->sizes_key);
	d = pi->defaults(pi);
	json_object_object_add(o, "params",
			       bm_json_params_schema(pi->keys, pi->mask, d));
	json_object_put(d);
	return o;
}

int bm_procedure_check_ports(const struct bm_procedure_info *pi,
			     unsigned int nports, struct bm_error *err)
{
	if (nports >= pi->ports_needed)
		return 0;
	return bm_errorf(err, "%s needs %u ports (REQ-CAP-1), %u given",
			 pi->name, pi->ports_needed, nports);
}

int bm_procedure_validate(const char *name, json_object *params,
			  double line_rate_bps, struct bm_error *err)
{
	const struct bm_procedure_info *pi = bm_procedure_find(name, err);

	if (!pi)
		return -EINVAL;
	if (!(line_rate_bps > 0.0))
		return bm_errorf(err, "line rate must be > 0");
	return pi->validate(pi, params, line_rate_bps, err);
}

int bm_procedure_max_trials(const char *name, json_object *params,
			    double line_rate_bps, unsigned int n_ports,
			    double *n, struct bm_error *err)
{
	const struct bm_procedure_info *pi = bm_procedure_find(name, err);

	*n = 0.0;
	if (!pi)
		return -EINVAL;
	if (!(line_rate_bps > 0.0))
		return bm_errorf(err, "line rate must be > 0");
	if (n_ports < pi->ports_needed)
		n_ports = pi->ports_needed;
	return pi->max_trials(pi, params, line_rate_bps, n_ports, n, err);
}

/* The parameters that name one of bmd's configured resets: each makes
 * bmd run that reset's command on its host. */
static const char *const reset_keys[] = { "reset", NULL };

const char *bm_procedure_reset_name(const char *name, json_object *params)
{
	const struct bm_procedure_info *pi = bm_procedure_find(name, NULL);
	const char *const *k;
	json_object *v;

	if (!pi || !params)
		return NULL;
	for (k = reset_keys; *k; k++)
		if (bm_json_find_param(pi->keys, pi->mask, *k) &&
		    json_object_object_get_ex(params, *k, &v) &&
		    json_object_is_type(v, json_type_string) &&
		    json_object_get_string_len(v))
			return json_object_get_string(v);
	return NULL;
}

int bm_procedure_check_dry_run(const char *name, json_object *params,
			       struct bm_error *err)
{
	const struct bm_procedure_info *pi = bm_procedure_find(name, err);

	if (!pi)
		return -EINVAL;
	/*
	 * A dry run is what a user tries first, anywhere, to see what a
	 * procedure would do; a reset's command would still run as bmd's
	 * user on bmd's host and may touch the real DUT.  Refused rather
	 * than ignored with a deviation: the user learns it at submit,
	 * not from a result that says the command did not run.  "" is no
	 * reset.
	 */
	if (bm_procedure_reset_name(name, params))
		return bm_errorf(err, "%s: %s: a dry run runs no command on bmd's host (the simulated DUT resets itself): leave it out",
				 pi->name, reset_keys[0]);
	return 0;
}

int bm_procedure_run(const char *name, json_object *params,
		     struct bm_backend *be, bm_progress_fn progress,
		     void *progress_ctx, json_object **result,
		     struct bm_error *err)
{
	const struct bm_procedure_info *pi = bm_procedure_find(name, err);

	*result = NULL;
	if (!pi)
		return -EINVAL;
	return pi->run(pi, params, be, progress, progress_ctx, result, err);
}

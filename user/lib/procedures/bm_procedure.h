/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The procedure registry: the one table of the procedures bmd runs, and
 * the one entry point through which it runs any of them by name with JSON
 * parameters, against any trial backend.  A row says everything a client
 * needs to offer a procedure (bmctl run PROC --help asks bmd for it): its
 * SPEC ids, the ports it needs (REQ-CAP-1), every parameter with type,
 * unit, range, default and help, and what bmctl's --duration and
 * --frame-sizes set.  The JSON result document follows SPEC PLAT-REPORT
 * REQ-REP-1 (meta is added by bmd).
 */
#ifndef BM_PROCEDURE_H
#define BM_PROCEDURE_H

#include <json-c/json.h>

#include "bm_json.h"
#include "bm_trial.h"

struct bm_procedure_info {
	const char *name;	/* "family.test": "rfc2544.throughput" */
	const char *summary;	/* one line for bmctl help */
	const char *refs;	/* SPEC requirement ids, "R2544-THRPT, ..." */
	unsigned int ports_needed;	/* fewer are refused (REQ-CAP-1) */
	/* The parameters: the entries of keys whose jk.mask shares a bit
	 * with mask (or is 0); test is the family's own number for it
	 * (enum rfc2544_test), for the hooks. */
	const struct bm_param *keys;
	unsigned int mask;
	int test;
	const char *duration_key;	/* what --duration sets, or NULL */
	const char *sizes_key;		/* what --frame-sizes sets, or NULL */
	/* Parse params (NULL = none) over the defaults, strictly; 0 or
	 * -EINVAL with a one-line reason naming the key. */
	int (*validate)(const struct bm_procedure_info *pi, json_object *params,
			double line_rate_bps, struct bm_error *err);
	/* The parameters with nothing given, as the result's "params". */
	json_object *(*defaults)(const struct bm_procedure_info *pi);
	/* Parse params as validate does; the most trials a run of them
	 * on n_ports ports (at least ports_needed) may take, in *n. */
	int (*max_trials)(const struct bm_procedure_info *pi,
			  json_object *params, double line_rate_bps,
			  unsigned int n_ports, double *n,
			  struct bm_error *err);
	/* Run: see bm_procedure_run(). */
	int (*run)(const struct bm_procedure_info *pi, json_object *params,
		   struct bm_backend *be, bm_progress_fn progress, void *ctx,
		   json_object **result, struct bm_error *err);
	/* REQ-TM-2: the job port index pairs (client, server) of the TCP
	 * paths a run with params on n_ports ports takes through the NDE,
	 * into pairs[0..max), their number; bmd runs it only when the
	 * newest rfc7640.nde-verify of each passed, or with force
	 * (tm_nde_gate()).  NULL, or 0 pairs: no gate. */
	unsigned int (*nde_pairs)(const struct bm_procedure_info *pi,
				  json_object *params, unsigned int n_ports,
				  unsigned int (*pairs)[2], unsigned int max);
	/* Its rates are the generator's own, not shares of the line rate
	 * (bmgen.capacity): a port of unknown speed is fine, and then
	 * line_rate_bps is 0. */
	bool own_rates;
};

/* The registry: a table ending with a NULL name. */
const struct bm_procedure_info *bm_procedures(void);

/* The procedure called name, or NULL (-EINVAL reason in err, if given). */
const struct bm_procedure_info *bm_procedure_find(const char *name,
						  struct bm_error *err);

/*
 * What a client shows about pi, as a new JSON object: name, summary, ref,
 * ports_needed, duration_key, sizes_key (null when none) and params, the
 * schema of bm_json_params_schema() with the procedure's defaults.
 */
json_object *bm_procedure_describe(const struct bm_procedure_info *pi);

/* 0 when nports ports are enough for pi, else -EINVAL with the one line
 * "NAME needs N ports (REQ-CAP-1), M given" in err. */
int bm_procedure_check_ports(const struct bm_procedure_info *pi,
			     unsigned int nports, struct bm_error *err);

/*
 * Validate params (a JSON object; NULL = all defaults) for procedure name
 * without running anything.  0, or -EINVAL with a one-line reason in err.
 */
int bm_procedure_validate(const char *name, json_object *params,
			  double line_rate_bps, struct bm_error *err);

/*
 * The worst-case number of trials procedure name runs with params (NULL =
 * the defaults) on n_ports ports (fewer than it needs count as as many as
 * it needs) at line_rate_bps, in *n: every loop, search, retry and
 * repetition at its longest, as far as the parameters tell before the
 * run (bmd refuses a job above its limit up front).  0, or
 * -EINVAL with the one-line reason of bm_procedure_validate().
 */
int bm_procedure_max_trials(const char *name, json_object *params,
			    double line_rate_bps, unsigned int n_ports,
			    double *n, struct bm_error *err);

/*
 * The name of the DUT reset that params (NULL = none) of procedure name
 * choose (rfc2544.reset's "reset": one of bmd's configured resets), or
 * NULL when they choose none ("" is none).  The string is params'.
 */
const char *bm_procedure_reset_name(const char *name, json_object *params);

/*
 * May params (NULL = none) of procedure name run in a dry run?  0, or
 * -EINVAL with a one-line reason naming the key when they would run a
 * command on bmd's host (a reset): a dry run touches nothing outside
 * bmd, and the simulated DUT resets itself.
 */
int bm_procedure_check_dry_run(const char *name, json_object *params,
			       struct bm_error *err);

/*
 * Run procedure name with params on be.  On success (0) and on -ECANCELED,
 * *result is a new JSON object {procedure, params, trials, results,
 * deviations} owned by the caller.  Any other error: -errno, err->msg set,
 * *result may hold the partial document (or NULL).
 */
int bm_procedure_run(const char *name, json_object *params,
		     struct bm_backend *be, bm_progress_fn progress,
		     void *progress_ctx, json_object **result,
		     struct bm_error *err);

#endif /* BM_PROCEDURE_H */

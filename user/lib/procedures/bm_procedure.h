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
#include "bm_proc_info.h"
#include "bm_trial.h"


/* The registry's procedure i (0, 1, ...: the families in order, each
 * family's rows in its order), or NULL past the last. */
const struct bm_procedure_info *bm_procedure_at(size_t i);

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

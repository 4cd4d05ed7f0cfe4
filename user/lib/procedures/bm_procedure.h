/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The procedure registry: the one entry point through which bmd (and
 * bmctl --dry-run) runs any benchmark procedure by name with JSON
 * parameters, against any trial backend.  The JSON result document follows
 * SPEC PLAT-REPORT REQ-REP-1 (meta is added by bmd).
 */
#ifndef BM_PROCEDURE_H
#define BM_PROCEDURE_H

#include <json-c/json.h>

#include "bm_trial.h"


struct bm_procedure_info {
	const char *name;	/* e.g. "rfc2544.throughput", "mlrsearch" */
	const char *summary;	/* one line for bmctl help */
	const char *ref;	/* requirement IDs, e.g. "R2544-THRPT" */
};

/* NULL-terminated table of the procedures this libbm knows. */
const struct bm_procedure_info *bm_procedures(void);

/*
 * Validate params (a JSON object; NULL = all defaults) for procedure name
 * without running anything.  0, or -EINVAL with a one-line reason in err.
 */
int bm_procedure_validate(const char *name, json_object *params,
			  double line_rate_bps, struct bm_error *err);

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

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rfc7640.concurrent (TM-CONC, REQ-TM-9): several RFC 7640 procedures at
 * once on disjoint ports of one job, each on its own backend and thread,
 * their trials on one time base, one combined result.  The registry's
 * row; the hooks are those of struct bm_procedure_info.
 */
#ifndef BM_CONCURRENT_H
#define BM_CONCURRENT_H

#include "bm_procedure.h"

extern const struct bm_param conc_keys[];

/* Hooks of the registry row: see struct bm_procedure_info. */
int conc_validate(const struct bm_procedure_info *pi, json_object *params,
		  double line_rate_bps, struct bm_error *err);
json_object *conc_defaults_json(const struct bm_procedure_info *pi);
int conc_max_trials(const struct bm_procedure_info *pi, json_object *params,
		    double line_rate_bps, unsigned int n_ports, double *n,
		    struct bm_error *err);
unsigned int conc_nde_pairs(const struct bm_procedure_info *pi,
			    json_object *params, unsigned int n_ports,
			    unsigned int (*pairs)[2], unsigned int max);
int conc_run(const struct bm_procedure_info *pi, json_object *params,
	     struct bm_backend *be, bm_progress_fn progress, void *ctx,
	     json_object **result, struct bm_error *err);

#endif /* BM_CONCURRENT_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bmgen.capacity (SPEC REQ-GEN-6, RFC 7640 §5.1 "the test device must be
 * calibrated"): what one transmit kthread of the generator carries on the
 * job's first port, per transmit path and frame size, and the highest
 * rate the loop to the second port carries with no loss.  bmd keeps the
 * newest figures of each port (bmctl port list, status) and warns before
 * a job whose rates exceed them.  The registry's row; the hooks are those
 * of struct bm_procedure_info.
 */
#ifndef BM_CAPACITY_PROC_H
#define BM_CAPACITY_PROC_H

#include "bm_procedure.h"

extern const struct bm_param cap_keys[];
extern const struct bm_jwriter cap_writers[];

/* Hooks of the registry row: see struct bm_procedure_info. */
int cap_validate(const struct bm_procedure_info *pi, json_object *params,
		 double line_rate_bps, struct bm_error *err);
json_object *cap_defaults_json(const struct bm_procedure_info *pi);
int cap_max_trials(const struct bm_procedure_info *pi, json_object *params,
		   double line_rate_bps, unsigned int n_ports, double *n,
		   struct bm_error *err);
int cap_run(const struct bm_procedure_info *pi, json_object *params,
	    struct bm_backend *be, bm_progress_fn progress, void *ctx,
	    json_object **result, struct bm_error *err);

#endif /* BM_CAPACITY_PROC_H */

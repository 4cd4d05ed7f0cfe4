/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rfc9971.mlrsearch's hooks for its row in the searches' procedure table
 * (mlrsearch_proc.c); mlr9971_proc.c has them.
 */
#ifndef MLR9971_PROC_H
#define MLR9971_PROC_H

#include "bm_proc_info.h"

/* Its parameters (the Controller Input and the trial), NULL-terminated,
 * and how the custom ones (goals) are written back. */
extern const struct bm_param r9971_keys[];
extern const struct bm_jwriter r9971_writers[];

/* The registry's hooks (bm_proc_info.h): check params against the line,
 * the defaults as JSON, the most trials, and the run. */
int r9971_validate(const struct bm_procedure_info *pi, json_object *params,
		   double line, struct bm_error *err);
json_object *r9971_defaults_json(const struct bm_procedure_info *pi);
int r9971_bound(const struct bm_procedure_info *pi, json_object *params,
		double line, unsigned int n_ports, double *n,
		struct bm_error *err);
int r9971_run(const struct bm_procedure_info *pi, json_object *params,
	      struct bm_backend *be, bm_progress_fn progress, void *ctx,
	      json_object **result, struct bm_error *err);

#endif /* MLR9971_PROC_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bmgen.part: one host's part of a trial over several hosts' ports (a
 * pool, Documentation/multi-host.md).  The bmd that runs a job over a
 * pool submits it to every other host's bmd with the trial (bm_part.h);
 * there it runs as a job like any other, on that host's ports (bmd.conf
 * says which a job may use), one trial: that host's halves of the
 * streams, from the trial's CLOCK_TAI instant.  Its result carries what
 * the part measured, which the pool merges.  The registry's row; the
 * hooks are those of struct bm_procedure_info.
 */
#ifndef BM_PART_PROC_H
#define BM_PART_PROC_H

#include "bm_procedure.h"

extern const struct bm_param part_keys[];
extern const struct bm_jwriter part_writers[];

/* Hooks of the registry row: see struct bm_procedure_info. */
int part_validate(const struct bm_procedure_info *pi, json_object *params,
		  double line_rate_bps, struct bm_error *err);
json_object *part_defaults_json(const struct bm_procedure_info *pi);
int part_max_trials(const struct bm_procedure_info *pi, json_object *params,
		    double line_rate_bps, unsigned int n_ports, double *n,
		    struct bm_error *err);
int part_run(const struct bm_procedure_info *pi, json_object *params,
	     struct bm_backend *be, bm_progress_fn progress, void *ctx,
	     json_object **result, struct bm_error *err);

#endif /* BM_PART_PROC_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One procedure as the registry offers it: its descriptor.  Each family
 * (user/lib/rfc2544, rfc8239, rfc7640, searches for MLRsearch,
 * procedures for bmgen's own) keeps its procedures' rows beside their
 * code, in one table ending with a NULL name, and the registry
 * (procedures/procedures.c) lists the families: a new procedure is its
 * family's file and one row (HACKING.md, "Adding a procedure").
 */
#ifndef BM_PROC_INFO_H
#define BM_PROC_INFO_H

#include <stdbool.h>

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
	/* How keys' custom rows are written back (bm_json_params_to_json),
	 * NULL when there are none or the family writes its own. */
	const struct bm_jwriter *writers;
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

/*
 * The hooks of a procedure whose parameters are a struct T parsed from
 * its keys table alone: parse = P_defaults(p), the table, P_check(p, err);
 * defaults = the table written back from P_defaults(p); then
 * P_max_trials(p) and P_run(be, p, ...).  P is the function prefix
 * (tm_pol, ...); a family names its rows' hooks P_validate,
 * P_defaults_json, P_bound, P_run_proc.  P_defaults(p) is expanded where
 * pi is in scope and P_max_trials(p) where line and n_ports are too: a
 * family whose functions take the test or the ports defines these as
 * function-like macros over them (rfc8239_procs.c).
 */
#define BM_PROC_HOOKS(P, T) \
static int P##_parse(const struct bm_procedure_info *pi, \
		     json_object *params, T *p, struct bm_error *err) \
{ \
	int ret; \
	P##_defaults(p); \
	ret = bm_json_parse_params(params, pi->keys, pi->mask, p, pi->name, \
				   err); \
	return ret ? ret : P##_check(p, err); \
} \
static int P##_validate(const struct bm_procedure_info *pi, \
			json_object *params, double line, \
			struct bm_error *err) \
{ \
	T p; \
	(void)line; \
	return P##_parse(pi, params, &p, err); \
} \
static json_object *P##_defaults_json(const struct bm_procedure_info *pi) \
{ \
	T p; \
	P##_defaults(&p); \
	return bm_json_params_to_json(pi->keys, pi->mask, &p, pi->writers); \
} \
static int P##_bound(const struct bm_procedure_info *pi, \
		     json_object *params, double line, unsigned int n_ports, \
		     double *n, struct bm_error *err) \
{ \
	T p; \
	int ret; \
	(void)line; \
	(void)n_ports; \
	ret = P##_parse(pi, params, &p, err); \
	if (!ret) \
		*n = P##_max_trials(&p); \
	return ret; \
} \
static int P##_run_proc(const struct bm_procedure_info *pi, \
			json_object *params, struct bm_backend *be, \
			bm_progress_fn progress, void *ctx, \
			json_object **result, struct bm_error *err) \
{ \
	T p; \
	int ret; \
	ret = P##_parse(pi, params, &p, err); \
	if (ret) \
		return ret; \
	return P##_run(be, &p, progress, ctx, result, err); \
}

#endif /* BM_PROC_INFO_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * The RFC 8239 and RFC 8238 procedures as procedures of the registry
 * (bm_proc_info.h): their parameters' parse, bound and run, and their
 * rows.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bm_json.h"
#include "bm_result.h"
#include "bm_proc_info.h"
#include "rfc8239.h"

static int mb_parse(const struct bm_procedure_info *pi, json_object *params,
		    struct r8239_mb_params *p, struct bm_error *err)
{
	int ret;

	r8239_mb_defaults(p);
	ret = bm_json_parse_params(params, pi->keys, pi->mask, p, pi->name,
				   err);
	return ret ? ret : r8239_mb_check(p, err);
}

static int mb_validate(const struct bm_procedure_info *pi,
		       json_object *params, double line, struct bm_error *err)
{
	struct r8239_mb_params p;

	(void)line;
	return mb_parse(pi, params, &p, err);
}

static json_object *mb_defaults_json(const struct bm_procedure_info *pi)
{
	struct r8239_mb_params p;

	r8239_mb_defaults(&p);
	return bm_json_params_to_json(pi->keys, pi->mask, &p, pi->writers);
}

static int mb_max_trials(const struct bm_procedure_info *pi,
			 json_object *params, double line, unsigned int n_ports,
			 double *n, struct bm_error *err)
{
	struct r8239_mb_params p;
	int ret;

	(void)line;
	ret = mb_parse(pi, params, &p, err);
	if (!ret)
		*n = r8239_mb_max_trials(&p, n_ports);
	return ret;
}

static int mb_run(const struct bm_procedure_info *pi, json_object *params,
		  struct bm_backend *be, bm_progress_fn progress, void *ctx,
		  json_object **result, struct bm_error *err)
{
	struct r8239_mb_params p;
	int ret;

	ret = mb_parse(pi, params, &p, err);
	if (ret)
		return ret;
	return r8239_microburst_run(be, &p, progress, ctx, result, err);
}

static int buf_parse(const struct bm_procedure_info *pi, json_object *params,
		     struct r8239_buf_params *p, struct bm_error *err)
{
	int ret;

	r8239_buf_defaults(p, pi->test);
	ret = bm_json_parse_params(params, pi->keys, pi->mask, p, pi->name,
				   err);
	return ret ? ret : r8239_buf_check(p, err);
}

static int buf_validate(const struct bm_procedure_info *pi,
			json_object *params, double line, struct bm_error *err)
{
	struct r8239_buf_params p;

	(void)line;
	return buf_parse(pi, params, &p, err);
}

static json_object *buf_defaults_json(const struct bm_procedure_info *pi)
{
	struct r8239_buf_params p;

	r8239_buf_defaults(&p, pi->test);
	return bm_json_params_to_json(pi->keys, pi->mask, &p, pi->writers);
}

static int buf_max_trials(const struct bm_procedure_info *pi,
			  json_object *params, double line,
			  unsigned int n_ports, double *n, struct bm_error *err)
{
	struct r8239_buf_params p;
	int ret;

	ret = buf_parse(pi, params, &p, err);
	if (!ret)
		*n = r8239_buf_max_trials(&p, n_ports, line);
	return ret;
}

static int buf_run(const struct bm_procedure_info *pi, json_object *params,
		   struct bm_backend *be, bm_progress_fn progress, void *ctx,
		   json_object **result, struct bm_error *err)
{
	struct r8239_buf_params p;
	int ret;

	ret = buf_parse(pi, params, &p, err);
	if (ret)
		return ret;
	return r8239_buffer_run(be, &p, progress, ctx, result, err);
}

static int holb_parse(const struct bm_procedure_info *pi, json_object *params,
		      struct r8239_holb_params *p, struct bm_error *err)
{
	r8239_holb_defaults(p);
	return bm_json_parse_params(params, pi->keys, pi->mask, p, pi->name,
				    err);
}

static int holb_validate(const struct bm_procedure_info *pi,
			 json_object *params, double line, struct bm_error *err)
{
	struct r8239_holb_params p;

	(void)line;
	return holb_parse(pi, params, &p, err);
}

static json_object *holb_defaults_json(const struct bm_procedure_info *pi)
{
	struct r8239_holb_params p;

	r8239_holb_defaults(&p);
	return bm_json_params_to_json(pi->keys, pi->mask, &p, pi->writers);
}

static int holb_max_trials(const struct bm_procedure_info *pi,
			   json_object *params, double line,
			   unsigned int n_ports, double *n,
			   struct bm_error *err)
{
	struct r8239_holb_params p;
	int ret;

	(void)line;
	ret = holb_parse(pi, params, &p, err);
	if (!ret)
		*n = r8239_holb_max_trials(&p, n_ports);
	return ret;
}

static int holb_run(const struct bm_procedure_info *pi, json_object *params,
		    struct bm_backend *be, bm_progress_fn progress, void *ctx,
		    json_object **result, struct bm_error *err)
{
	struct r8239_holb_params p;
	int ret;

	ret = holb_parse(pi, params, &p, err);
	if (ret)
		return ret;
	return r8239_holb_run(be, &p, progress, ctx, result, err);
}

static int lr_parse(const struct bm_procedure_info *pi, json_object *params,
		    struct r8239_lr_params *p, struct bm_error *err)
{
	int ret;

	r8239_lr_defaults(p, pi->test);
	ret = bm_json_parse_params(params, pi->keys, pi->mask, p, pi->name,
				   err);
	return ret ? ret : r8239_lr_check(p, err);
}

static int lr_validate(const struct bm_procedure_info *pi,
		       json_object *params, double line, struct bm_error *err)
{
	struct r8239_lr_params p;

	(void)line;
	return lr_parse(pi, params, &p, err);
}

static json_object *lr_defaults_json(const struct bm_procedure_info *pi)
{
	struct r8239_lr_params p;

	r8239_lr_defaults(&p, pi->test);
	return bm_json_params_to_json(pi->keys, pi->mask, &p, pi->writers);
}

static int lr_max_trials(const struct bm_procedure_info *pi,
			 json_object *params, double line, unsigned int n_ports,
			 double *n, struct bm_error *err)
{
	struct r8239_lr_params p;
	int ret;

	(void)line;
	(void)n_ports;
	ret = lr_parse(pi, params, &p, err);
	if (!ret)
		*n = r8239_lr_max_trials(&p);
	return ret;
}

static int lr_run(const struct bm_procedure_info *pi, json_object *params,
		  struct bm_backend *be, bm_progress_fn progress, void *ctx,
		  json_object **result, struct bm_error *err)
{
	struct r8239_lr_params p;
	int ret;

	ret = lr_parse(pi, params, &p, err);
	if (ret)
		return ret;
	return r8239_line_rate_run(be, &p, progress, ctx, result, err);
}

static int cal_parse(const struct bm_procedure_info *pi, json_object *params,
		     struct r8238_cal_params *p, struct bm_error *err)
{
	r8238_cal_defaults(p);
	return bm_json_parse_params(params, pi->keys, pi->mask, p, pi->name,
				    err);
}

static int cal_validate(const struct bm_procedure_info *pi,
			json_object *params, double line, struct bm_error *err)
{
	struct r8238_cal_params p;

	(void)line;
	return cal_parse(pi, params, &p, err);
}

static json_object *cal_defaults_json(const struct bm_procedure_info *pi)
{
	struct r8238_cal_params p;

	r8238_cal_defaults(&p);
	return bm_json_params_to_json(pi->keys, pi->mask, &p, pi->writers);
}

static int cal_max_trials(const struct bm_procedure_info *pi,
			  json_object *params, double line,
			  unsigned int n_ports, double *n, struct bm_error *err)
{
	struct r8238_cal_params p;
	int ret;

	(void)line;
	(void)n_ports;
	ret = cal_parse(pi, params, &p, err);
	if (!ret)
		*n = r8238_cal_max_trials(&p);
	return ret;
}

static int cal_run(const struct bm_procedure_info *pi, json_object *params,
		   struct bm_backend *be, bm_progress_fn progress, void *ctx,
		   json_object **result, struct bm_error *err)
{
	struct r8238_cal_params p;
	int ret;

	ret = cal_parse(pi, params, &p, err);
	if (ret)
		return ret;
	return r8238_calibrate_run(be, &p, progress, ctx, result, err);
}

/* RFC 8239 §6 incast and RFC 8238 §7 goodput: one parameter table (mask
 * 1 incast's keys, 2 goodput's), two sets of defaults. */
#define inc_keys r8239_inc_keys
#define gp_keys r8239_inc_keys
#define inc_check r8239_inc_check
#define gp_check r8239_inc_check
#define inc_max_trials r8239_inc_max_trials
#define gp_max_trials r8239_inc_max_trials
#define inc_run r8239_inc_run
#define gp_run r8239_inc_run
#define inc_defaults r8239_inc_defaults

static void gp_defaults(struct r8239_inc_params *p)
{
	r8239_inc_defaults(p);
	p->goodput = true;
}

BM_PROC_HOOKS(inc, struct r8239_inc_params)

BM_PROC_HOOKS(gp, struct r8239_inc_params)

const struct bm_procedure_info rfc8239_procedures[] = {
	{ .name = "rfc8239.microburst",
	  .summary = "RFC 8239 §4 microburst: largest loss-free burst of N-j "
		     "ingress ports bursting together to j egress ports",
	  .refs = "R8239-MB, R8238-MB, R8238-INCAST, REQ-8239-1",
	  /* SPEC 12: 2 ingress + 1 egress at least */
	  .ports_needed = 3, .keys = r8239_mb_keys,
	  .duration_key = NULL, .sizes_key = "frame_size",
	  .validate = mb_validate, .defaults = mb_defaults_json,
	  .max_trials = mb_max_trials, .run = mb_run },
	{ .name = "rfc8239.port-buffer",
	  .summary = "RFC 8239 §3.2 (2) maximum port buffer size of each "
		     "egress: line rate + oversubscription to it",
	  .refs = "R8239-BUF-2, R8238-BUF, REQ-BUF-1, REQ-8239-1",
	  .ports_needed = 3, .keys = r8239_buf_keys,
	  .mask = R8239_BUF_MASK(R8239_BUF_PORT), .test = R8239_BUF_PORT,
	  .duration_key = "max_trial_s", .sizes_key = "frame_size",
	  .validate = buf_validate, .defaults = buf_defaults_json,
	  .max_trials = buf_max_trials, .run = buf_run },
	{ .name = "rfc8239.buffer-efficiency",
	  .summary = "RFC 8239 §3.2 (1) the frame size that allows the highest "
		     "buffer efficiency (a sweep of port-buffer's first "
		     "iteration)",
	  .refs = "R8239-BUF-1, AMB-28, R8238-BUF, REQ-8239-1",
	  .ports_needed = 3, .keys = r8239_buf_keys,
	  .mask = R8239_BUF_MASK(R8239_BUF_EFFICIENCY),
	  .test = R8239_BUF_EFFICIENCY,
	  .duration_key = "max_trial_s", .sizes_key = NULL,
	  .validate = buf_validate, .defaults = buf_defaults_json,
	  .max_trials = buf_max_trials, .run = buf_run },
	{ .name = "rfc8239.port-pair-buffer",
	  .summary = "RFC 8239 §3.2 (3) port buffers with every port pair "
		     "loaded both ways and two oversubscribers",
	  .refs = "R8239-BUF-3, AMB-30, R8238-BUF, REQ-8239-1",
	  .ports_needed = 6, .keys = r8239_buf_keys,
	  .mask = R8239_BUF_MASK(R8239_BUF_PAIRS), .test = R8239_BUF_PAIRS,
	  .duration_key = "max_trial_s", .sizes_key = "frame_size",
	  .validate = buf_validate, .defaults = buf_defaults_json,
	  .max_trials = buf_max_trials, .run = buf_run },
	{ .name = "rfc8239.dut-buffer",
	  .summary = "RFC 8239 §3.2 (4) maximum DUT buffer size: all other "
		     "ports to each egress in turn (many-to-one)",
	  .refs = "R8239-BUF-4, R8238-BUF, F-8, REQ-BUF-1, REQ-8239-1",
	  .ports_needed = 3, .keys = r8239_buf_keys,
	  .mask = R8239_BUF_MASK(R8239_BUF_DUT), .test = R8239_BUF_DUT,
	  .duration_key = "max_trial_s", .sizes_key = "frame_size",
	  .validate = buf_validate, .defaults = buf_defaults_json,
	  .max_trials = buf_max_trials, .run = buf_run },
	{ .name = "rfc8239.holb",
	  .summary = "RFC 8239 §5 head-of-line blocking: does a congested "
		     "egress cost a flow to an idle one (groups of four)",
	  .refs = "R8239-HOLB-1, R8239-HOLB-2, REQ-8239-1, REQ-8239-2",
	  .ports_needed = 8, .keys = r8239_holb_keys,
	  .duration_key = "trial_duration_s", .sizes_key = "frame_size",
	  .validate = holb_validate, .defaults = holb_defaults_json,
	  .max_trials = holb_max_trials, .run = holb_run },
	/* RFC 8239 §2.2 MUST run both the pair and the mesh test */
#define R8239_LR(t, nm, need, sum, ids) { \
	.name = nm, .summary = sum, .refs = ids, .ports_needed = need, \
	.keys = r8239_lr_keys, .mask = R8239_LR_MASK(t), .test = t, \
	.writers = r8239_lr_writers, \
	.duration_key = "trial_duration_s", .sizes_key = "frame_sizes", \
	.validate = lr_validate, .defaults = lr_defaults_json, \
	.max_trials = lr_max_trials, .run = lr_run }
	R8239_LR(R8239_LR_PAIR, "rfc8239.line-rate-pair", 2,
		 "RFC 8239 §2.2 (1) port pairs at 99.98 % of line rate: "
		 "throughput, drops, latency and jitter per size",
		 "R8239-LR-PP, R8238-LINE, R8238-LAT, R8238-JIT, REQ-8239-1"),
	R8239_LR(R8239_LR_MESH, "rfc8239.line-rate-mesh", 3,
		 "RFC 8239 §2.2 (2) full mesh at 99.98 % of line rate",
		 "R8239-LR-MESH, R8238-LINE, R8238-LAT, R8238-JIT, "
		 "REQ-8239-1"),
	R8239_LR(R8239_LR_SNAKE, "rfc8239.snake", 2,
		 "RFC 8239 §2.2 snake: 2 tester ports through every DUT "
		 "port (prints the DUT's VLAN and cabling plan)",
		 "R8239-LR-SNAKE, REQ-8239-3, REQ-8239-1"),
	{ .name = "rfc8239.incast",
	  .summary = "RFC 8239 §6 incast: TCP goodput and UDP microburst "
		     "latency into one egress, stateful or stateless ports "
		     "varied",
	  .refs = "R8239-INC-1, R8239-INC-2, R8238-INCAST, R8238-GOODPUT, "
		  "PLAT-TCP, REQ-8239-1",
	  /* 1 TCP + 1 UDP ingress, 1 egress */
	  .ports_needed = 3, .keys = inc_keys, .mask = R8239_INC_MASK(false),
	  .writers = r8239_inc_writers,
	  .duration_key = "duration_s", .sizes_key = "frame_size",
	  .validate = inc_validate, .defaults = inc_defaults_json,
	  .max_trials = inc_bound, .run = inc_run_proc },
	{ .name = "rfc8238.goodput",
	  .summary = "RFC 8238 §7 goodput: bulk TCP from every port but the "
		     "last into it, beside the F-9 ceiling",
	  .refs = "R8238-GOODPUT, F-9, PLAT-TCP, REQ-TCP-4",
	  .ports_needed = 2, .keys = gp_keys, .mask = R8239_INC_MASK(true),
	  .writers = r8239_inc_writers,
	  .duration_key = "duration_s", .sizes_key = NULL,
	  .validate = gp_validate, .defaults = gp_defaults_json,
	  .max_trials = gp_bound, .run = gp_run_proc },
	{ .name = "rfc8238.calibrate",
	  .summary = "RFC 8238 §4 calibration: the tester's latency constant "
		     "C per frame size, its two ports cabled back to back",
	  .refs = "R8238-CAL, REQ-TS-4, REQ-TS-5",
	  .ports_needed = 2, .keys = r8238_cal_keys,
	  .writers = r8238_cal_writers,
	  .duration_key = NULL, .sizes_key = "frame_sizes",
	  .validate = cal_validate, .defaults = cal_defaults_json,
	  .max_trials = cal_max_trials, .run = cal_run },
	{ .name = NULL },
};

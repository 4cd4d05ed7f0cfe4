// SPDX-License-Identifier: GPL-2.0
/*
 * The procedure registry of bm_procedure.h: the RFC 2544 benchmarks, a
 * standalone MLRsearch, the RFC 8239 / 8238 and the RFC 7640 procedures,
 * each run by name with strictly validated JSON parameters
 * (Documentation/procedures-*.md).  The table at the end is the only place that
 * knows procedures by name.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bm_json.h"
#include "bm_result.h"
#include "bm_mlrsearch.h"
#include "bm_procedure.h"
#include "bm_search.h"
#include "rfc2544.h"
#include "rfc8239.h"
#include "rfc7640.h"
#include "dut_command.h"
#include "concurrent.h"
#include "capacity.h"

#define MLR_MAX_TARGETS	16

/* --- mlrsearch parameters ------------------------------------------------ */

struct mlr_in {
	struct bm_mlr_params mp;
	double targets[MLR_MAX_TARGETS];
};

static const char *const topo_names[] = { "pair-uni", "pair-bidir", NULL };
/* in enum bm_mlr_mode's order */
static const char *const mlr_mode_names[] = { "draft-01", "fast", NULL };

static int parse_targets(json_object *v, void *base, const char *key,
			 struct bm_error *err)
{
	struct mlr_in *in = base;
	size_t n, i;
	double x;

	if (json_object_get_type(v) != json_type_array)
		return bm_errorf(err, "%s: expected an array", key);
	n = json_object_array_length(v);
	if (!n || n > MLR_MAX_TARGETS)
		return bm_errorf(err, "%s: expected 1 to %d ratios", key,
				 MLR_MAX_TARGETS);
	for (i = 0; i < n; i++) {
		if (!bm_json_number(json_object_array_get_idx(v, i), &x) ||
		    x < 0.0 || x >= 1.0)
			return bm_errorf(err, "%s[%zu]: expected a number in "
					 "[0, 1)", key, i);
		/* MLR-IN: strictly increasing, as the reference requires */
		if (i && x <= in->targets[i - 1])
			return bm_errorf(err, "%s[%zu]: must be larger than "
					 "the previous ratio", key, i);
		in->targets[i] = x;
	}
	in->mp.n_targets = n;
	return 0;
}

#define MO(f)	offsetof(struct mlr_in, mp.f)
#define MD(k, lo, hi, fl, u, h) \
	{ { #k, BM_J_DOUBLE, MO(k), lo, hi, fl, 0, NULL, NULL }, u, h, NULL }
#define MB(k, h) \
	{ { #k, BM_J_BOOL, MO(k), 0, 0, 0, 0, NULL, NULL }, "", h, NULL }
#define EX	BM_JK_MIN_EXCL
#define DV	BM_JK_DERIVED

/* MLR-IN ([MLR §4.1, §5.1.1]) and the tester's additions; the help lines
 * follow Documentation/procedures-mlrsearch.md. */
static const struct bm_param mlr_keys[] = {
	{ { "frame_size", BM_J_U32, MO(frame_size), 64, 9216, 0, 0, NULL,
	    NULL }, "B", "the frame size searched, with FCS (one per search)",
	  NULL },
	{ { "topology", BM_J_ENUM, MO(topology), 0, 0, 0, 0, topo_names, NULL },
	  "", "pair-uni: TX to RX; pair-bidir: both ways, loss aggregated",
	  NULL },
	{ { "mode", BM_J_ENUM, MO(mode), 0, 0, 0, 0, mlr_mode_names, NULL },
	  "", "draft-01: the draft's sample implementation, trial for trial; "
	  "fast: a shorter trial's failure is an upper bound at longer ones",
	  NULL },
	MD(min_rate_fps, 0, 1e10, EX | DV, "fps",
	   "lowest load offered (unset: 0.1 % of max_rate_fps)"),
	MD(max_rate_fps, 0, 1e10, EX | DV, "fps",
	   "MTR, the first load, <= the line (unset: fps_max(frame_size))"),
	MD(final_trial_duration_s, 0, 86400, EX, "s",
	   "trial duration of the final phase"),
	MD(initial_trial_duration_s, 0, 86400, EX, "s",
	   "trial duration of the initial and first intermediate phase, "
	   "<= final"),
	MD(final_relative_width, 0, 1, EX | BM_JK_MAX_EXCL, "",
	   "goal for (upper - lower) / upper at the end"),
	MD(expansion_coefficient, 1, 1000, EX, "",
	   "width multiplier of the external search (4: quadruple)"),
	MD(timeout_s, 0, 1e7, EX, "s",
	   "limit on the whole search, trial overheads included"),
	{ { "number_of_intermediate_phases", BM_J_UINT,
	    MO(number_of_intermediate_phases), 0, 20, 0, 0, NULL, NULL }, "",
	  "phases between the initial and the final one", NULL },
	{ { "target_loss_ratios", BM_J_CUSTOM, 0, 0, 1, BM_JK_MAX_EXCL, 0, NULL,
	    parse_targets }, "",
	  "target loss ratios, 1 to 16, strictly increasing (0: NDR, "
	  "> 0: PDR)", "number array" },
	MD(packet_loss_ratio_tolerance, 0, 1, BM_JK_MAX_EXCL, "",
	   "slack added to every target ratio; > 0 is not in the draft"),
	MD(attempt_tolerance_s, 0, 1, 0, "s",
	   "tolerated attempted-vs-intended shortfall, as time of traffic "
	   "([MLR §5.1])"),
	MB(learning, "learning frames before every trial (RFC 2544 §23b)"),
	MB(fail_fast, "end a phase when the smallest ratio's upper bound is "
	   "at min_rate_fps (draft-01 exactly)"),
	MD(learning_pause_s, 0, 60, DV, "s",
	   "wait after the learning frames (unset: the backend's, 2 s)"),
	MD(drain_s, 0, 60, DV, "s",
	   "loss wait after every trial (unset: the backend's, 2 s)"),
	{ { NULL, 0, 0, 0, 0, 0, 0, NULL, NULL }, NULL, NULL, NULL },
};

/* Defaults: the draft's CSIT values, targets [0, 0.005] (NDR, PDR), the
 * fast mode, the rates left at 0 for mlr_parse() to scale to the line. */
static void mlr_defaults(struct mlr_in *in)
{
	memset(in, 0, sizeof(*in));
	bm_mlr_params_default(&in->mp);
	in->mp.frame_size = 64;
	in->mp.min_rate_fps = 0.0;
	in->mp.max_rate_fps = 0.0;
	in->targets[0] = 0.0;
	in->targets[1] = 0.005;
	in->mp.n_targets = 2;
	in->mp.target_loss_ratios = in->targets;
	/* [PROPOSED] default mode: bounds as correct as draft-01's in less
	 * trial time than FD.io CSIT's MLRsearch 1.2.1 on the comparison
	 * devices (Documentation/benchmarks.md, goal mlr-vs-csit);
	 * draft-01 stays one key away */
	in->mp.mode = BM_MLR_MODE_FAST;
}

/* Unset rates from the line: max = fps_max(F), min = 0.1 % of max. */
static int mlr_parse(const struct bm_procedure_info *pi, json_object *params,
		     double line, struct mlr_in *in, struct bm_error *err)
{
	int ret;

	mlr_defaults(in);
	ret = bm_json_parse_params(params, pi->keys, pi->mask, in, pi->name,
				   err);
	if (ret)
		return ret;
	if (in->mp.max_rate_fps == 0.0)
		in->mp.max_rate_fps = bm_fps_max(line, in->mp.frame_size);
	if (in->mp.min_rate_fps == 0.0)
		in->mp.min_rate_fps = 0.001 * in->mp.max_rate_fps;
	if (in->mp.max_rate_fps > bm_fps_max(line, in->mp.frame_size) * 1.000001)
		return bm_errorf(err, "%s: max_rate_fps: above the line rate "
				 "(%.2f fps at %u B)", pi->name,
				 bm_fps_max(line, in->mp.frame_size),
				 in->mp.frame_size);
	in->mp.target_loss_ratios = in->targets;
	return bm_mlr_params_validate(&in->mp, err);
}

static json_object *mlr_params_json(const struct mlr_in *in)
{
	const struct bm_mlr_params *p = &in->mp;
	json_object *o = json_object_new_object(), *a;
	size_t i;

	bm_json_add_u64(o, "frame_size", p->frame_size);
	bm_json_add_str(o, "topology", topo_names[p->topology]);
	bm_json_add_str(o, "mode", mlr_mode_names[p->mode]);
	bm_json_add_double(o, "min_rate_fps", p->min_rate_fps);
	bm_json_add_double(o, "max_rate_fps", p->max_rate_fps);
	bm_json_add_double(o, "final_trial_duration_s",
			   p->final_trial_duration_s);
	bm_json_add_double(o, "initial_trial_duration_s",
			   p->initial_trial_duration_s);
	bm_json_add_double(o, "final_relative_width", p->final_relative_width);
	bm_json_add_double(o, "expansion_coefficient",
			   p->expansion_coefficient);
	bm_json_add_double(o, "timeout_s", p->timeout_s);
	bm_json_add_u64(o, "number_of_intermediate_phases",
			p->number_of_intermediate_phases);
	a = json_object_new_array();
	for (i = 0; i < p->n_targets; i++)
		json_object_array_add(a, json_object_new_double(in->targets[i]));
	json_object_object_add(o, "target_loss_ratios", a);
	bm_json_add_double(o, "packet_loss_ratio_tolerance",
			   p->packet_loss_ratio_tolerance);
	bm_json_add_double(o, "attempt_tolerance_s", p->attempt_tolerance_s);
	bm_json_add_bool(o, "learning", p->learning);
	bm_json_add_bool(o, "fail_fast", p->fail_fast);
	bm_json_add_double(o, "learning_pause_s", p->learning_pause_s >= 0.0 ?
			   p->learning_pause_s : NAN);
	/* < 0 = the backend's default, shown as null */
	bm_json_add_double(o, "drain_s", p->drain_s >= 0.0 ? p->drain_s : NAN);
	return o;
}

static int mlr_validate(const struct bm_procedure_info *pi,
			json_object *params, double line, struct bm_error *err)
{
	struct mlr_in in;

	return mlr_parse(pi, params, line, &in, err);
}

static json_object *mlr_defaults_json(const struct bm_procedure_info *pi)
{
	struct mlr_in in;

	(void)pi;
	mlr_defaults(&in);
	return mlr_params_json(&in);
}

static int mlr_max_trials(const struct bm_procedure_info *pi,
			  json_object *params, double line,
			  unsigned int n_ports, double *n, struct bm_error *err)
{
	struct mlr_in in;
	int ret;

	(void)n_ports;
	ret = mlr_parse(pi, params, line, &in, err);
	if (!ret)
		*n = bm_mlr_max_trials(&in.mp);
	return ret;
}

static int mlr_run(const struct bm_procedure_info *pi, json_object *params,
		   struct bm_backend *be, bm_progress_fn progress, void *ctx,
		   json_object **result, struct bm_error *err)
{
	struct mlr_in in;
	struct bm_mlr_result res;
	json_object *d, *o, *a, *b;
	uint32_t f;
	size_t i;
	int ret;

	ret = mlr_parse(pi, params, be->line_rate_bps, &in, err);
	if (ret)
		return ret;
	f = in.mp.frame_size;
	memset(&res, 0, sizeof(res));
	ret = bm_mlrsearch_run(be, &in.mp, &res, progress, ctx, err);

	o = bm_mlr_result_to_json(&res);
	if (!o)
		o = json_object_new_object();
	/* Every rate also in L1/L2 bit/s and % of line (SPEC 2.3, F-4). */
	a = json_object_new_array();
	for (i = 0; i < res.n; i++) {
		b = json_object_new_object();
		bm_json_add_double(b, "target_loss_ratio",
				   res.bounds[i].target_ratio);
		bm_json_add_double(b, "lower_fps", res.bounds[i].lower_fps);
		bm_json_add_double(b, "lower_l1_bps",
				   bm_l1_bps(res.bounds[i].lower_fps, f));
		bm_json_add_double(b, "lower_l2_bps",
				   bm_l2_bps(res.bounds[i].lower_fps, f));
		bm_json_add_double(b, "lower_pct_line",
				   bm_load_pct(res.bounds[i].lower_fps, f,
					       be->line_rate_bps));
		bm_json_add_double(b, "upper_fps", res.bounds[i].upper_fps);
		bm_json_add_bool(b, "lower_valid", res.bounds[i].lower_valid);
		json_object_array_add(a, b);
	}
	json_object_object_add(o, "rates", a);
	bm_json_add_double(o, "theoretical_max_fps",
			   bm_fps_max(be->line_rate_bps, f));
	a = json_object_new_array();
	if (in.mp.packet_loss_ratio_tolerance > 0.0)
		json_object_array_add(a, json_object_new_string(
			"packet_loss_ratio_tolerance > 0: not in the draft"));
	d = bm_result_envelope(pi->name, "draft-ietf-bmwg-mlrsearch-01; MLR-*",
			       mlr_params_json(&in), &res.log, res.loss_ratios,
			       o, a, be);
	bm_mlr_result_free(&res);
	*result = d;
	return ret;
}

/* --- RFC 2544 ------------------------------------------------------------ */

static int r2544_parse(const struct bm_procedure_info *pi,
		       json_object *params, double line,
		       struct rfc2544_params *p, struct bm_error *err)
{
	size_t i;
	int ret;

	rfc2544_params_default(p, pi->test);
	ret = rfc2544_params_from_json(params, pi->test, p, err);
	if (ret)
		return ret;
	for (i = 0; i < p->n_sizes; i++)
		if (p->throughput_fps[i] >
		    bm_fps_max(line, p->frame_sizes[i]) * 1.000001)
			return bm_errorf(err, "%s: throughput_fps: %.2f fps is "
					 "above the line rate at %u B",
					 pi->name, p->throughput_fps[i],
					 p->frame_sizes[i]);
	/* A trial that cannot carry one frame even at the line measures
	 * nothing, and would pass: a line rate of 1 bit/s
	 * (a "--line-rate 1" meant as 1G) is refused, not "ok". */
	for (i = 0; line > 0 && i < p->n_sizes; i++) {
		double d = rfc2544_shortest_trial_s(p, pi->test);
		double n = bm_fps_max(line, p->frame_sizes[i]) * d;

		if (n < 1.0)
			return bm_errorf(err, "%s: a %g s trial of %u B frames "
					 "carries %.3g frames at the line rate "
					 "of %g bit/s: is the line rate right?",
					 pi->name, d, p->frame_sizes[i], n,
					 line);
	}
	return 0;
}

static int r2544_validate(const struct bm_procedure_info *pi,
			  json_object *params, double line,
			  struct bm_error *err)
{
	struct rfc2544_params p;

	return r2544_parse(pi, params, line, &p, err);
}

static json_object *r2544_defaults(const struct bm_procedure_info *pi)
{
	struct rfc2544_params p;

	rfc2544_params_default(&p, pi->test);
	return rfc2544_params_to_json(&p, pi->test);
}

static int r2544_max_trials(const struct bm_procedure_info *pi,
			    json_object *params, double line,
			    unsigned int n_ports, double *n,
			    struct bm_error *err)
{
	struct rfc2544_params p;
	int ret;

	(void)n_ports;
	ret = r2544_parse(pi, params, line, &p, err);
	if (!ret)
		*n = rfc2544_max_trials(&p, pi->test);
	return ret;
}

static int r2544_run(const struct bm_procedure_info *pi, json_object *params,
		     struct bm_backend *be, bm_progress_fn progress, void *ctx,
		     json_object **result, struct bm_error *err)
{
	struct rfc2544_params p;
	struct bm_dut_cmd rc;
	char what[48];
	int ret;

	ret = r2544_parse(pi, params, be->line_rate_bps, &p, err);
	if (ret)
		return ret;
	if (p.reset[0]) {
		/* bmd gives the backend the command of the reset the job
		 * names; a name without one must not fall back to anything */
		if (!be->reset_command)
			return bm_errorf(err, "%s: reset: no command for reset '%s'",
					 pi->name, p.reset);
		snprintf(what, sizeof(what), "reset '%s'", p.reset);
		rc = (struct bm_dut_cmd){
			.name = what, .command = be->reset_command,
			.timeout_s = p.reset_timeout_s, .progress = progress,
			.progress_ctx = ctx,
		};
		p.reset_hook = bm_dut_command_run;
		p.reset_ctx = &rc;
	} else if (be->ops->dut_reset) {
		/* A backend that can reset its DUT (the simulator). */
		p.reset_hook = bm_backend_dut_reset;
		p.reset_ctx = be;
	}
	return rfc2544_run(pi->test, be, &p, progress, ctx, result, err);
}

/* --- RFC 8239 ------------------------------------------------------------ */

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

	(void)pi;
	r8239_mb_defaults(&p);
	return r8239_mb_params_json(&p);
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
	return r8239_buf_params_json(&p);
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

	(void)pi;
	r8239_holb_defaults(&p);
	return r8239_holb_params_json(&p);
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
	return r8239_lr_params_json(&p);
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

	(void)pi;
	r8238_cal_defaults(&p);
	return r8238_cal_params_json(&p);
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

/* --- RFC 7640 (traffic management) --------------------------------------- */

/*
 * The hooks of one RFC 7640 procedure: parse = its defaults, the table,
 * its cross-key checks; the rest as the other families'.  T is the
 * params type, P the function prefix (tm_hunt, tm_pol, ...).
 */
#define TM_HOOKS(P, T) \
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
	(void)pi; \
	P##_defaults(&p); \
	return P##_params_json(&p); \
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

TM_HOOKS(tm_hunt, struct tm_hunt_params)
TM_HOOKS(tm_pol, struct tm_pol_params)
TM_HOOKS(tm_qs, struct tm_qs_params)
TM_HOOKS(tm_shp, struct tm_shp_params)
TM_HOOKS(tm_qcap, struct tm_qcap_params)
TM_HOOKS(tm_polp, struct tm_polp_params)
TM_HOOKS(tm_polc, struct tm_polc_params)
TM_HOOKS(tm_shcap, struct tm_shcap_params)

/* RFC 8239 §6 incast and RFC 8238 §7 goodput: one parameter table (mask
 * 1 incast's keys, 2 goodput's), two sets of defaults. */
#define inc_keys r8239_inc_keys
#define gp_keys r8239_inc_keys
#define inc_check r8239_inc_check
#define gp_check r8239_inc_check
#define inc_params_json r8239_inc_params_json
#define gp_params_json r8239_inc_params_json
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

TM_HOOKS(inc, struct r8239_inc_params)

/* RFC 7640 TM-QS-2 and TM-SHP-2: one table, two sets of defaults. */
#define sfq_keys tm_sf_keys
#define sfs_keys tm_sf_keys
#define sfq_check tm_sf_check
#define sfs_check tm_sf_check
#define sfq_params_json tm_sf_params_json
#define sfs_params_json tm_sf_params_json
#define sfq_max_trials tm_sf_max_trials
#define sfs_max_trials tm_sf_max_trials
#define sfq_run tm_sf_run
#define sfs_run tm_sf_run
#define sfq_defaults tm_sf_defaults
#define sfs_defaults tm_sf_shaper_defaults

/* rfc7640.nde-verify: delay_ms is the one key without a default, so the
 * hooks parse without requiring it (a bound of the defaults, for one) and
 * validate requires it, as a run does (tm_nde_check) */
static int nde_keys_check(const struct tm_nde_params *p, struct bm_error *err)
{
	(void)p;
	(void)err;
	return 0;
}
#define nde_defaults tm_nde_defaults
#define nde_check nde_keys_check
#define nde_params_json tm_nde_params_json
#define nde_max_trials tm_nde_max_trials
#define nde_run tm_nde_run
TM_HOOKS(nde, struct tm_nde_params)

static int nde_validate_all(const struct bm_procedure_info *pi,
			    json_object *params, double line,
			    struct bm_error *err)
{
	struct tm_nde_params p;
	int ret = nde_validate(pi, params, line, err);

	if (ret)
		return ret;
	nde_parse(pi, params, &p, err);
	return tm_nde_check(&p, err);
}

/* REQ-TM-2's paths: TM-QS-2 and TM-SHP-2 client -> server, ports 1 and
 * 2; TM-QS-CAP's every ingress -> egress with stateful_apps. */
static unsigned int sf_nde_pairs(const struct bm_procedure_info *pi,
				 json_object *params, unsigned int n_ports,
				 unsigned int (*pairs)[2], unsigned int max)
{
	(void)pi;
	(void)params;
	if (n_ports < 2 || !max)
		return 0;
	pairs[0][0] = 0;
	pairs[0][1] = 1;
	return 1;
}

static unsigned int qcap_nde_pairs(const struct bm_procedure_info *pi,
				   json_object *params, unsigned int n_ports,
				   unsigned int (*pairs)[2], unsigned int max)
{
	struct tm_qcap_params p;
	struct bm_error err = { "" };

	/* parameters bmd's submit took; a run refuses them otherwise */
	if (tm_qcap_parse(pi, params, &p, &err))
		return 0;
	return tm_qcap_nde_pairs(&p, n_ports, pairs, max);
}

TM_HOOKS(sfq, struct tm_sf_params)
TM_HOOKS(sfs, struct tm_sf_params)
TM_HOOKS(gp, struct r8239_inc_params)

#define TM_ROW(P, nm, need, dur, sum, ids) { \
	.name = nm, .summary = sum, .refs = ids, .ports_needed = need, \
	.keys = P##_keys, .duration_key = dur, .sizes_key = "frame_size", \
	.validate = P##_validate, .defaults = P##_defaults_json, \
	.max_trials = P##_bound, .run = P##_run_proc }

/* --- the registry -------------------------------------------------------- */

/* Every RFC 2544 test: two ports (SPEC 12, R2544-*: 1 tx + 1 rx), the
 * keys of rfc2544_keys[] for its mask, --duration = trial_duration_s where
 * the test has one trial duration. */
#define R2544(t, nm, dur, sum, ids) { \
	.name = nm, .summary = sum, .refs = ids, .ports_needed = 2, \
	.keys = rfc2544_keys, .mask = RFC2544_MASK(t), .test = t, \
	.duration_key = dur, .sizes_key = "frame_sizes", \
	.validate = r2544_validate, .defaults = r2544_defaults, \
	.max_trials = r2544_max_trials, .run = r2544_run }

static const struct bm_procedure_info registry[] = {
	R2544(RFC2544_THROUGHPUT, "rfc2544.throughput", "trial_duration_s",
	      "RFC 2544 §26.1 throughput: binary search (or MLRsearch) for "
	      "the highest zero-loss rate", "R2544-THRPT, R2544-DUR"),
	R2544(RFC2544_LATENCY, "rfc2544.latency", "trial_duration_s",
	      "RFC 2544 §26.2 latency at the throughput rate, >= 20 "
	      "tagged-frame repetitions", "R2544-LAT"),
	R2544(RFC2544_FRAME_LOSS, "rfc2544.frame-loss", "trial_duration_s",
	      "RFC 2544 §26.3 frame loss rate from 100 % down until two "
	      "zero-loss trials", "R2544-FLR"),
	R2544(RFC2544_BACK_TO_BACK, "rfc2544.back-to-back", "trial_duration_s",
	      "RFC 2544 §26.4 longest loss-free burst at minimum gap, "
	      "repeated", "R2544-B2B"),
	/* Overload and observation are two durations: neither is "the"
	 * trial duration, so --duration names no key here. */
	R2544(RFC2544_RECOVERY, "rfc2544.recovery", NULL,
	      "RFC 2544 §26.5 recovery time after 110 % overload",
	      "R2544-RECOV"),
	R2544(RFC2544_RESET, "rfc2544.reset", "trial_duration_s",
	      "RFC 2544 §26.6 outage caused by a DUT reset", "R2544-RESET"),
	{ .name = "mlrsearch",
	  .summary = "MLRsearch: NDR/PDR bounds for several loss ratios in "
		     "one search",
	  .refs = "MLR-IN, MLR-MEAS, MLR-WIDTH, MLR-DB, MLR-INIT, MLR-PHASE, "
		  "MLR-SEL, MLR-OUT",
	  .ports_needed = 2, .keys = mlr_keys,
	  /* MLRsearch searches one size and its full-length trials are
	   * "final" ones. */
	  .duration_key = "final_trial_duration_s", .sizes_key = "frame_size",
	  .validate = mlr_validate, .defaults = mlr_defaults_json,
	  .max_trials = mlr_max_trials, .run = mlr_run },
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
	  .ports_needed = 3, .keys = inc_keys, .mask = 1,
	  .duration_key = "duration_s", .sizes_key = "frame_size",
	  .validate = inc_validate, .defaults = inc_defaults_json,
	  .max_trials = inc_bound, .run = inc_run_proc },
	{ .name = "rfc8238.goodput",
	  .summary = "RFC 8238 §7 goodput: bulk TCP from every port but the "
		     "last into it, beside the F-9 ceiling",
	  .refs = "R8238-GOODPUT, F-9, PLAT-TCP, REQ-TCP-4",
	  .ports_needed = 2, .keys = gp_keys, .mask = 2,
	  .duration_key = "duration_s", .sizes_key = NULL,
	  .validate = gp_validate, .defaults = gp_defaults_json,
	  .max_trials = gp_bound, .run = gp_run_proc },
	{ .name = "bmgen.capacity",
	  .summary = "the generator's own capacity: frames/s one transmit "
		     "kthread sends per path and frame size, and what the "
		     "loop to the second port carries clean (bmctl port "
		     "calibrate)",
	  .refs = "REQ-GEN-6",
	  .ports_needed = 2, .keys = cap_keys,
	  .duration_key = "duration_s", .sizes_key = "frame_sizes",
	  .validate = cap_validate, .defaults = cap_defaults_json,
	  .max_trials = cap_max_trials, .run = cap_run, .own_rates = true },
	{ .name = "rfc8238.calibrate",
	  .summary = "RFC 8238 §4 calibration: the tester's latency constant "
		     "C per frame size, its two ports cabled back to back",
	  .refs = "R8238-CAL, REQ-TS-4, REQ-TS-5",
	  .ports_needed = 2, .keys = r8238_cal_keys,
	  .duration_key = NULL, .sizes_key = "frame_sizes",
	  .validate = cal_validate, .defaults = cal_defaults_json,
	  .max_trials = cal_max_trials, .run = cal_run },
	TM_ROW(tm_hunt, "rfc7640.burst-hunt", 2, NULL,
	       "RFC 7640 §5.1.1 burst hunt: the largest burst a policer or "
	       "queue passes without loss (BSA)",
	       "TM-BURST-HUNT, TM-MET-BSA, TM-CAP-SL, REQ-GEN-2.4, "
	       "REQ-UNIT-1"),
	TM_ROW(tm_pol, "rfc7640.policer", 2, "td_s",
	       "RFC 7640 §6.1.1 policer: compliant CBS + EBS bursts every "
	       "Ti, then excess bursts; BSA, LP, OOS, PD, PDV, re-marking",
	       "TM-POL-1, TM-MET-SL, TM-GLOBAL, REQ-TM-1, REQ-TM-3, "
	       "REQ-TM-10, REQ-RX-5"),
	TM_ROW(tm_polp, "rfc7640.policer-ports", 2, "td_s",
	       "RFC 7640 §6.1.2.2 a policer on every port, all ports "
	       "active: the policer test on port pairs 1 -> 2, 3 -> 4, ... "
	       "at once",
	       "TM-POL-CAP-2, TM-POL-1, TM-MET-SL, REQ-TM-1, REQ-TM-3, "
	       "REQ-TM-10"),
	TM_ROW(tm_polc, "rfc7640.policer-customers", 2, "td_s",
	       "RFC 7640 §6.1.2.1 / §6.1.2.3 a policer per customer VLAN: "
	       "the policer test per customer stream, bursts staggered, on "
	       "one port pair or all",
	       "TM-POL-CAP-1, TM-POL-CAP-3, TM-POL-1, TM-MET-SL, REQ-TM-1, "
	       "REQ-TM-3, REQ-TM-8, REQ-TM-10"),
	TM_ROW(tm_qs, "rfc7640.queue", 2, "td_s",
	       "RFC 7640 §6.2.1.1 queue and scheduler: QL bursts every "
	       "QL x 8 / BB, and two classes above BB (2 or 3 ports)",
	       "TM-QS-1, TM-MET-SL, TM-GLOBAL, REQ-TM-1, REQ-TM-3, "
	       "REQ-TM-10"),
	TM_ROW(tm_shp, "rfc7640.shaper", 2, "td_s",
	       "RFC 7640 §6.3.1.1 shaper: IQ bursts every IQ x 8 / SR; LP, "
	       "OOS, PDV, SR, SBB, SBI at the egress",
	       "TM-SHP-1, TM-MET-SL, TM-GLOBAL, REQ-TM-1, REQ-TM-3, "
	       "REQ-TM-10"),
	{ .name = "rfc7640.queue-capacity",
	  .summary = "RFC 7640 §6.2.2 queues of one or more egress ports (SP, "
		     "WFQ): every ingress port sends each class, and "
		     "optionally TM-QS-2's TCP applications, to each egress; "
		     "per egress, queue and ingress stream",
	  .refs = "TM-QS-CAP-1, TM-QS-CAP-2, TM-QS-CAP-3, TM-QS-CAP-4, "
		  "TM-QS-1, TM-QS-2, TM-MET-SL, TM-MET-SF, AMB-43, AMB-44, "
		  "REQ-TM-1, REQ-TM-3",
	  .ports_needed = 3, .keys = tm_qcap_keys, .duration_key = "td_s",
	  .sizes_key = "frame_size", .validate = tm_qcap_validate,
	  .defaults = tm_qcap_defaults_json, .max_trials = tm_qcap_bound,
	  .run = tm_qcap_run_proc, .nde_pairs = qcap_nde_pairs },
	TM_ROW(tm_shcap, "rfc7640.shaper-capacity", 3, "td_s",
	       "RFC 7640 §6.3.2 shaped egress ports and queues, all ports "
	       "active: per egress, queue and ingress stream SR, LP, OOS, "
	       "PDV, SBB, SBI",
	       "TM-SHP-CAP-1, TM-SHP-CAP-2, TM-SHP-CAP-3, TM-SHP-1, "
	       "TM-MET-SL, AMB-39, REQ-TM-1, REQ-TM-3"),
	{ .name = "rfc7640.nde-verify",
	  .summary = "RFC 7640 §1.2 the network delay emulator alone: loss "
		     "and delay per frame size at the target rate, and a bulk "
		     "TCP connection's goodput and RTT (bmctl nde-verify)",
	  .refs = "TM-SETUP, REQ-TM-2, REQ-TM-6, TM-CAP-SF",
	  .ports_needed = 2, .keys = tm_nde_keys,
	  .duration_key = "duration_s", .sizes_key = "frame_sizes",
	  .validate = nde_validate_all, .defaults = nde_defaults_json,
	  .max_trials = nde_bound, .run = nde_run_proc },
	{ .name = "rfc7640.queue-stateful",
	  .summary = "RFC 7640 §6.2.1.2 queue and scheduler with stateful "
		     "traffic: TCP applications (bulk, micro burst, web, ...) "
		     "through the queue and the NDE",
	  .refs = "TM-QS-2, TM-MET-SF, TM-CAP-SF, TM-TTP, PLAT-TCP, "
		  "REQ-TM-1, REQ-TM-3",
	  .ports_needed = 2, .keys = sfq_keys, .mask = 1,
	  .duration_key = "td_s", .sizes_key = NULL,
	  .validate = sfq_validate, .defaults = sfq_defaults_json,
	  .max_trials = sfq_bound, .run = sfq_run_proc,
	  .nde_pairs = sf_nde_pairs },
	{ .name = "rfc7640.shaper-stateful",
	  .summary = "RFC 7640 §6.3.1.2 shaper with stateful traffic: TCP "
		     "applications through the shaper and the NDE",
	  .refs = "TM-SHP-2, TM-MET-SF, TM-CAP-SF, TM-TTP, PLAT-TCP, "
		  "AMB-46, REQ-TM-1, REQ-TM-3",
	  .ports_needed = 2, .keys = sfs_keys, .mask = 2,
	  .duration_key = "td_s", .sizes_key = NULL,
	  .validate = sfs_validate, .defaults = sfs_defaults_json,
	  .max_trials = sfs_bound, .run = sfs_run_proc,
	  .nde_pairs = sf_nde_pairs },
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

const struct bm_procedure_info *bm_procedures(void)
{
	return registry;
}

const struct bm_procedure_info *bm_procedure_find(const char *name,
						  struct bm_error *err)
{
	const struct bm_procedure_info *pi;

	for (pi = registry; name && pi->name; pi++)
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

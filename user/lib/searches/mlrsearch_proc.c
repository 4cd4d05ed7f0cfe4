// SPDX-License-Identifier: GPL-2.0
/*
 * MLRsearch as a procedure of the registry (bm_proc_info.h): its
 * parameters (MLR-IN, [MLR §4.1, §5.1.1] and the tester's additions),
 * defaults, bound and run, and its row.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bm_json.h"
#include "bm_result.h"
#include "bm_proc_info.h"
#include "bm_mlrsearch.h"
#include "bm_search.h"
#include "mlr9971_proc.h"

#define MLR_MAX_TARGETS	16

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
	{ { "target_loss_ratios", BM_J_CUSTOM, offsetof(struct mlr_in, targets),
	    0, 1, BM_JK_MAX_EXCL, 0, NULL, parse_targets }, "",
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
	MD(learning_pause_s, 0, 60, DV | BM_JK_NEG_NULL, "s",
	   "wait after the learning frames (unset: the backend's, 2 s)"),
	MD(drain_s, 0, 60, DV | BM_JK_NEG_NULL, "s",
	   "loss wait after every trial (unset: the backend's, 2 s)"),
	{ { NULL, 0, 0, 0, 0, 0, 0, NULL, NULL }, NULL, NULL, NULL },
};

static const struct bm_jwriter mlr_writers[] = {
	{ parse_targets, bm_json_doubles_at, MO(n_targets) },
	{ NULL, NULL, 0 },
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

static int mlr_validate(const struct bm_procedure_info *pi,
			json_object *params, double line, struct bm_error *err)
{
	struct mlr_in in;

	return mlr_parse(pi, params, line, &in, err);
}

static json_object *mlr_defaults_json(const struct bm_procedure_info *pi)
{
	struct mlr_in in;

	mlr_defaults(&in);
	return bm_json_params_to_json(pi->keys, pi->mask, &in, pi->writers);
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
			       bm_json_params_to_json(pi->keys, pi->mask, &in,
						      pi->writers),
			       &res.log, res.loss_ratios, o, a, be);
	bm_mlr_result_free(&res);
	*result = d;
	return ret;
}

/* The searches' procedures: MLRsearch as the draft and as RFC 9971. */
const struct bm_procedure_info mlrsearch_procedures[] = {
	{ .name = "mlrsearch",
	  .summary = "MLRsearch: NDR/PDR bounds for several loss ratios in "
		     "one search",
	  .refs = "MLR-IN, MLR-MEAS, MLR-WIDTH, MLR-DB, MLR-INIT, MLR-PHASE, "
		  "MLR-SEL, MLR-OUT",
	  .ports_needed = 2, .keys = mlr_keys, .writers = mlr_writers,
	  /* MLRsearch searches one size and its full-length trials are
	   * "final" ones. */
	  .duration_key = "final_trial_duration_s", .sizes_key = "frame_size",
	  .validate = mlr_validate, .defaults = mlr_defaults_json,
	  .max_trials = mlr_max_trials, .run = mlr_run },
	/* RFC 9971, a plug-in (mlr9971_proc.c) */
	{ .name = "rfc9971.mlrsearch", .summary = "MLRsearch as RFC 9971 "
	  "specifies it: Search Goals, their relevant bounds and Conditional "
	  "Throughput", .refs = "MLR-IN, MLR-MEAS, MLR-OUT", .ports_needed = 2,
	  .keys = r9971_keys, .writers = r9971_writers,
	  .sizes_key = "frame_size", .validate = r9971_validate,
	  .defaults = r9971_defaults_json, .max_trials = r9971_bound,
	  .run = r9971_run },
	{ .name = NULL },
};

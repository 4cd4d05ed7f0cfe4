// SPDX-License-Identifier: GPL-2.0
/*
 * rfc9971.mlrsearch, the procedure: the Manager of RFC 9971 §4.9.3 over
 * the search of bm_mlr9971.h.  Its parameters are the Controller Input
 * (§4.6.8: the Search Goals, each key named after the RFC's term, Max
 * and Min Load) and the trial (frame size, topology, learning, waits);
 * its result the Test Report items of §4.2.1 and §4.8: every goal with
 * its Goal Result, regular or marked irregular with the reason, the
 * Relevant Lower Bound always shown, the Relevant Upper Bound and the
 * Conditional Throughput, the units and how loads count interfaces.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bm_json.h"
#include "bm_mlr9971.h"
#include "bm_proc_info.h"
#include "bm_result.h"
#include "mlr9971_proc.h"

#define R9971_MAX_GOALS	8

struct r9971_in {
	struct bm_mlr_goal goals[R9971_MAX_GOALS];
	size_t n_goals;
	struct bm_pair_trial trial;
	double max_load_fps, min_load_fps;	/* 0: from the line */
	double max_search_s;
	unsigned int preceding_targets;
	double attempt_tolerance_s;
	enum bm_mlr9971_selection selection;
};

#define GO(f)	offsetof(struct bm_mlr_goal, f)
#define EX	BM_JK_MIN_EXCL
#define DV	BM_JK_DERIVED

/* One Search Goal's keys: the RFC's terms without "Goal" (§4.6.1-6). */
static const struct bm_param goal_keys[] = {
	{ { "final_trial_duration", BM_J_DOUBLE, GO(final_trial_s), 0, 86400,
	    EX, 0, NULL, NULL }, "s",
	  "Goal Final Trial Duration (RFC 9971 §4.6.1)", NULL },
	{ { "duration_sum", BM_J_DOUBLE, GO(duration_sum_s), 0, 1e6,
	    EX | DV, 0, NULL, NULL }, "s",
	  "Goal Duration Sum (§4.6.2); unset: the final trial duration",
	  NULL },
	{ { "loss_ratio", BM_J_DOUBLE, GO(loss_ratio), 0, 1, BM_JK_MAX_EXCL,
	    0, NULL, NULL }, "", "Goal Loss Ratio (§4.6.3)", NULL },
	{ { "exceed_ratio", BM_J_DOUBLE, GO(exceed_ratio), 0, 1,
	    BM_JK_MAX_EXCL, 0, NULL, NULL }, "",
	  "Goal Exceed Ratio (§4.6.4)", NULL },
	{ { "width", BM_J_DOUBLE, GO(width), 0, 1, EX | BM_JK_MAX_EXCL, 0,
	    NULL, NULL }, "",
	  "Goal Width (§4.6.5), relative: (upper - lower) / upper", NULL },
	{ { "initial_trial_duration", BM_J_DOUBLE, GO(initial_trial_s), 0,
	    86400, EX | DV, 0, NULL, NULL }, "s",
	  "Goal Initial Trial Duration (§4.6.6); unset: 1 s, or the final "
	  "one when shorter", NULL },
	{ { NULL, 0, 0, 0, 0, 0, 0, NULL, NULL }, NULL, NULL, NULL },
};

/* A goal's defaults: NDR at 1 s trials, width 0.5 %; < 0 = unset. */
static void goal_default(struct bm_mlr_goal *g)
{
	*g = (struct bm_mlr_goal){ .final_trial_s = 1, .duration_sum_s = -1,
				   .width = 0.005, .initial_trial_s = -1 };
}

static int parse_goals(json_object *v, void *base, const char *key,
		       struct bm_error *err)
{
	struct r9971_in *in = base;
	struct bm_mlr_goal *g;
	char what[48], why[128];
	size_t n, i;
	int ret;

	if (json_object_get_type(v) != json_type_array)
		return bm_errorf(err, "%s: expected an array of goals", key);
	n = json_object_array_length(v);
	if (!n || n > R9971_MAX_GOALS)
		return bm_errorf(err, "%s: expected 1 to %d goals", key,
				 R9971_MAX_GOALS);
	for (i = 0; i < n; i++) {
		json_object *o = json_object_array_get_idx(v, i);

		if (json_object_get_type(o) != json_type_object)
			return bm_errorf(err, "%s[%zu]: expected an object",
					 key, i);
		g = &in->goals[i];
		goal_default(g);
		snprintf(what, sizeof(what), "%s[%zu]", key, i);
		ret = bm_json_parse_params(o, goal_keys, 0, g, what, err);
		if (ret)
			return ret;
		if (g->duration_sum_s < 0)
			g->duration_sum_s = g->final_trial_s;
		if (g->initial_trial_s < 0)
			g->initial_trial_s = fmin(1.0, g->final_trial_s);
		if (bm_mlr_goal_check(g, why, sizeof(why)))
			return bm_errorf(err, "%s: %s", what, why);
	}
	in->n_goals = n;
	return 0;
}

static json_object *goals_json(const struct bm_jwriter *w,
			       const struct bm_jkey *k, const void *base)
{
	const struct r9971_in *in = base;
	json_object *a = json_object_new_array();
	size_t i;

	(void)w;
	(void)k;
	for (i = 0; a && i < in->n_goals; i++)
		json_object_array_add(a, bm_json_params_to_json(goal_keys, 0,
								&in->goals[i],
								NULL));
	return a;
}

static const char *const topo_names[] = { "pair-uni", "pair-bidir", NULL };
static const char *const selection_names[] = { "bmgen", "csit", NULL };

#define IO(f)	offsetof(struct r9971_in, f)
#define ID(k, f, lo, hi, fl, u, h) \
	{ { k, BM_J_DOUBLE, IO(f), lo, hi, fl, 0, NULL, NULL }, u, h, NULL }

const struct bm_param r9971_keys[] = {
	{ { "goals", BM_J_CUSTOM, IO(goals), 0, 0, 0, 0, NULL, parse_goals },
	  "", "Search Goals (§4.6.7), 1 to 8 objects: final_trial_duration, "
	  "duration_sum, loss_ratio, exceed_ratio, width, "
	  "initial_trial_duration (default: FD.io CSIT's NDR and PDR)",
	  "object array" },
	{ { "frame_size", BM_J_U32, IO(trial.frame_size), 64, 9216, 0, 0,
	    NULL, NULL }, "B", "the frame size searched, with FCS", NULL },
	{ { "topology", BM_J_ENUM, IO(trial.topology), 0, 0, 0, 0,
	    topo_names, NULL }, "",
	  "pair-uni: TX to RX; pair-bidir: both ways, loads per interface",
	  NULL },
	ID("max_load_fps", max_load_fps, 0, 1e10, EX | DV | BM_JK_ZERO_NULL,
	   "fps",
	   "Max Load (§4.6.8.1), <= the line (unset: fps_max(frame_size))"),
	ID("min_load_fps", min_load_fps, 0, 1e10, EX | DV | BM_JK_ZERO_NULL,
	   "fps",
	   "Min Load (§4.6.8.2) (unset: 0.1 % of max_load_fps)"),
	ID("max_search_s", max_search_s, 0, 1e7, BM_JK_ZERO_NULL, "s",
	   "end the search, its results irregular, after this much time "
	   "(0: no limit)"),
	{ { "preceding_targets", BM_J_UINT, IO(preceding_targets), 0, 4, 0,
	    0, NULL, NULL }, "",
	  "coarser targets before each goal, each twice as wide", NULL },
	{ { "selection", BM_J_ENUM, IO(selection), 0, 0, 0, 0,
	    selection_names, NULL }, "",
	  "the load selection (§4.9.2): bmgen's own, or csit: the same "
	  "loads as FD.io CSIT's MLRsearch given the same trials", NULL },
	ID("attempt_tolerance_s", attempt_tolerance_s, 0, 1, 0, "s",
	   "frames the generator may lack, as time of traffic, before they "
	   "count as lost (§4.9.1)"),
	{ { "learning", BM_J_BOOL, IO(trial.learning), 0, 0, 0, 0, NULL,
	    NULL }, "", "learning frames before every trial (RFC 2544 §23b)",
	  NULL },
	ID("learning_pause_s", trial.learning_pause_s, 0, 60,
	   DV | BM_JK_NEG_NULL, "s",
	   "wait after the learning frames (unset: the backend's, 2 s)"),
	ID("drain_s", trial.drain_s, 0, 60, DV | BM_JK_NEG_NULL, "s",
	   "loss wait after every trial (unset: the backend's, 2 s)"),
	{ { NULL, 0, 0, 0, 0, 0, 0, NULL, NULL }, NULL, NULL, NULL },
};

const struct bm_jwriter r9971_writers[] = {
	{ parse_goals, goals_json, 0 },
	{ NULL, NULL, 0 },
};

/* Defaults: FD.io CSIT's production goals (NDR and PDR 0.5 %, 1 s
 * trials, 21 s, exceed ratio 0.5, width 0.5 %), 64 B, one direction. */
static void r9971_defaults(struct r9971_in *in)
{
	size_t i;

	memset(in, 0, sizeof(*in));
	for (i = 0; i < 2; i++) {
		goal_default(&in->goals[i]);
		in->goals[i].duration_sum_s = 21;
		in->goals[i].exceed_ratio = 0.5;
		in->goals[i].initial_trial_s = 1;
	}
	in->goals[1].loss_ratio = 0.005;
	in->n_goals = 2;
	in->trial = (struct bm_pair_trial){ .frame_size = 64,
		.topology = BM_TOPO_PAIR_UNI, .learning_pause_s = -1,
		.drain_s = -1 };
	in->preceding_targets = 2;
	in->attempt_tolerance_s = 10e-6;
}

/* Parse params over the defaults, the loads from the line; the input
 * checked as the search would. */
static int r9971_parse(const struct bm_procedure_info *pi,
		       json_object *params, double line, struct r9971_in *in,
		       struct bm_mlr9971_input *ci, struct bm_error *err)
{
	double fmax_l;
	int ret;

	r9971_defaults(in);
	ret = bm_json_parse_params(params, pi->keys, pi->mask, in, pi->name,
				   err);
	if (ret)
		return ret;
	fmax_l = bm_fps_max(line, in->trial.frame_size);
	if (in->max_load_fps == 0)
		in->max_load_fps = fmax_l;
	if (in->min_load_fps == 0)
		in->min_load_fps = 0.001 * in->max_load_fps;
	if (in->max_load_fps > fmax_l * 1.000001)
		return bm_errorf(err, "%s: max_load_fps: above the line rate "
				 "(%.2f fps at %u B)", pi->name, fmax_l,
				 in->trial.frame_size);
	bm_mlr9971_input_default(ci);
	ci->goals = in->goals;
	ci->n_goals = in->n_goals;
	ci->max_load_fps = in->max_load_fps;
	ci->min_load_fps = in->min_load_fps;
	ci->max_search_s = in->max_search_s;
	ci->preceding_targets = in->preceding_targets;
	ci->attempt_tolerance_s = in->attempt_tolerance_s;
	ci->selection = in->selection;
	ret = bm_mlr9971_input_check(ci, err);
	if (ret) {
		char why[sizeof(err->msg)];

		snprintf(why, sizeof(why), "%s", err->msg);
		return bm_errorf(err, "%s: %s", pi->name, why);
	}
	return 0;
}

int r9971_validate(const struct bm_procedure_info *pi,
			  json_object *params, double line,
			  struct bm_error *err)
{
	struct bm_mlr9971_input ci;
	struct r9971_in in;

	return r9971_parse(pi, params, line, &in, &ci, err);
}

json_object *r9971_defaults_json(const struct bm_procedure_info *pi)
{
	struct r9971_in in;

	r9971_defaults(&in);
	return bm_json_params_to_json(pi->keys, pi->mask, &in, pi->writers);
}

/* The most trials: the search's own bound (bm_mlr9971_max_trials). */
int r9971_bound(const struct bm_procedure_info *pi, json_object *params,
		double line, unsigned int n_ports, double *n,
		struct bm_error *err)
{
	struct bm_mlr9971_input ci;
	struct r9971_in in;
	int ret;

	(void)n_ports;
	ret = r9971_parse(pi, params, line, &in, &ci, err);
	if (!ret)
		*n = bm_mlr9971_max_trials(&ci);
	return ret;
}

/* A rate of the report in fps, L1 bit/s and % of the line (SPEC 2.3,
 * F-4); null when it does not exist, and key_why then says why. */
static void add_rate(json_object *o, const char *key, bool has, double fps,
		     uint32_t f, double line, const char *why)
{
	char k[64];

	bm_json_add_double(o, key, has ? fps : NAN);
	if (!has) {
		snprintf(k, sizeof(k), "%s_why", key);
		bm_json_add_str(o, k, why ? why : "not found");
	}
	snprintf(k, sizeof(k), "%.*s_l1_bps", (int)(strlen(key) - 4), key);
	bm_json_add_double(o, k, has ? bm_l1_bps(fps, f) : NAN);
	snprintf(k, sizeof(k), "%.*s_pct_line", (int)(strlen(key) - 4), key);
	bm_json_add_double(o, k, has ? bm_load_pct(fps, f, line) : NAN);
}

/* Why a Goal Result is irregular (§4.8.4.2), NULL when it is regular. */
static const char *irregular(const struct bm_mlr_goal_result *r,
			     bool timed_out)
{
	if (r->regular)
		return NULL;
	if (r->lower_is_max_load)
		return "Max Load is a Lower Bound: no Relevant Upper Bound, "
		       "the lower bound shown is Max Load";
	if (timed_out)
		return "the search ended at max_search_s before this goal "
		       "was reached";
	if (!r->has_lower && r->has_upper)
		return "no Lower Bound: Min Load is an Upper Bound";
	if (!r->has_lower || !r->has_upper)
		return "the search ended before both bounds were found";
	return "the relevant bounds are further apart than the Goal Width";
}

static json_object *goal_results(const struct r9971_in *in,
				 const struct bm_mlr9971_result *res,
				 double line)
{
	json_object *a = json_object_new_array(), *o;
	const struct bm_mlr_goal_result *r;
	const char *why;
	uint32_t f = in->trial.frame_size;
	size_t i;

	for (i = 0; i < res->n_goals; i++) {
		r = &res->goals[i];
		o = json_object_new_object();
		json_object_object_add(o, "goal", bm_json_params_to_json(
			goal_keys, 0, &in->goals[i], NULL));
		bm_json_add_bool(o, "regular", r->regular);
		why = irregular(r, res->timed_out);
		/* §4.8.4.2: irregular values MUST be marked as such */
		if (why)
			bm_json_add_str(o, "irregular", why);
		add_rate(o, "relevant_lower_bound_fps", r->has_lower,
			 r->lower_fps, f, line, why);
		add_rate(o, "relevant_upper_bound_fps", r->has_upper,
			 r->upper_fps, f, line, why);
		add_rate(o, "conditional_throughput_fps", r->has_lower,
			 r->conditional_throughput_fps, f, line, why);
		bm_json_add_bool(o, "lower_is_max_load", r->lower_is_max_load);
		json_object_array_add(a, o);
	}
	return a;
}

static json_object *results_json(const struct r9971_in *in,
				 const struct bm_mlr9971_result *res,
				 unsigned int directions, double line)
{
	json_object *o = json_object_new_object();

	bm_json_add_u64(o, "frame_size", in->trial.frame_size);
	bm_json_add_u64(o, "directions", directions);
	bm_json_add_str(o, "loads", directions > 1 ?
			"per interface (RFC 9971 §4.5.2): each of the two "
			"directions offered the load; aggregate = 2 x" :
			"per interface (RFC 9971 §4.5.2): one direction");
	bm_json_add_double(o, "theoretical_max_fps", bm_fps_max(line,
						in->trial.frame_size));
	bm_json_add_double(o, "max_load_fps", in->max_load_fps);
	bm_json_add_double(o, "min_load_fps", in->min_load_fps);
	json_object_object_add(o, "goal_results", goal_results(in, res, line));
	bm_json_add_str(o, "goal_width", "relative: (upper - lower) / upper");
	bm_json_add_str(o, "trial_effective_duration",
			"the trial duration (RFC 9971 §4.5.8 default)");
	bm_json_add_str(o, "trial_loss_ratio",
			"lost / attempted; a trial the generator could not "
			"offer in full is repeated (twice at most, the last "
			"counts), and one still short counts its unsent "
			"frames as lost (§4.9.1)");
	bm_json_add_str(o, "load_selection", in->selection ==
			BM_MLR9971_SEL_CSIT ? "csit: FD.io CSIT's MLRsearch "
			"(commit 78e52b9c8a), the same loads given the same "
			"trials (Documentation/procedures-mlrsearch.md)" :
			"bmgen's (Documentation/procedures-mlrsearch.md, "
			"RFC 9971)");
	bm_json_add_u64(o, "trial_count", res->log.n);
	bm_json_add_double(o, "trial_time_s", res->trial_time_s);
	bm_json_add_double(o, "search_time_s", res->search_time_s);
	bm_json_add_bool(o, "timed_out", res->timed_out);
	bm_json_add_u64(o, "repeated_trials", res->repeated_trials);
	bm_json_add_u64(o, "generator_limited_trials",
			res->generator_limited_trials);
	return o;
}

int r9971_run(const struct bm_procedure_info *pi, json_object *params,
		     struct bm_backend *be, bm_progress_fn progress, void *ctx,
		     json_object **result, struct bm_error *err)
{
	struct bm_mlr9971_input ci;
	struct bm_mlr9971_result res;
	struct bm_measurer m;
	struct r9971_in in;
	json_object *dev;
	int ret;

	ret = r9971_parse(pi, params, be->line_rate_bps, &in, &ci, err);
	if (ret)
		return ret;
	bm_measurer_pair(&m, be, &in.trial);
	ret = bm_mlr9971_search(&m, &ci, &res, progress, ctx, err);
	dev = json_object_new_array();
	if (res.generator_limited_trials)
		json_object_array_add(dev, json_object_new_string(
			"some loads the generator could not offer in full, "
			"repeats included: their missing frames counted as "
			"lost (RFC 9971 §4.9.1), see generator_limited_trials"));
	*result = bm_result_envelope(pi->name, "RFC 9971",
				     bm_json_params_to_json(pi->keys, pi->mask,
							    &in, pi->writers),
				     &res.log, res.loss_ratios,
				     results_json(&in, &res, m.directions,
						  be->line_rate_bps),
				     dev, be);
	bm_mlr9971_result_free(&res);
	return ret;
}

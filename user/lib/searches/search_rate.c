// SPDX-License-Identifier: GPL-2.0
/*
 * The pluggable rate search of throughput-style procedures (REQ-SRCH-1):
 * the R2544-THRPT binary search, MLRsearch (NDR = lower bound of target
 * loss ratio 0), or the RFC 9971 search with the goal RFC 9971 §4.10.2
 * makes compliant with RFC 2544.  The trial logging every search shares is
 * search_trial.c.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bm_json.h"
#include "bm_search.h"

const char *bm_search_kind_name(enum bm_search_kind kind)
{
	return kind == BM_SEARCH_MLR ? "mlr" :
	       kind == BM_SEARCH_RFC9971 ? "rfc9971" : "binary";
}

/* Append every record of from to log (a search's own log to the
 * procedure's); 0, or -ENOMEM with err set. */
static int append_log(struct bm_trial_log *log,
		      const struct bm_trial_log *from, struct bm_error *err)
{
	size_t i;

	for (i = 0; i < from->n; i++) {
		struct bm_trial_record *r;

		if (bm_trial_log_add(log, from->v[i].phase, from->v[i].reason,
				     &from->v[i].spec, &from->v[i].res))
			return bm_errorf(err, "out of memory"), -ENOMEM;
		/* the whole record (what an N-port trial offered too, its
		 * traffic long gone), in this log's order */
		r = &log->v[log->n - 1];
		*r = from->v[i];
		r->index = log->n - 1;
	}
	return 0;
}

void bm_rate_search_9971_input(const struct bm_rate_search *s,
			       struct bm_mlr_goal *goal,
			       struct bm_mlr9971_input *in)
{
	const struct bm_binsearch_params *b = &s->bin;

	*goal = (struct bm_mlr_goal){
		.final_trial_s = b->final_trial_s,
		.duration_sum_s = b->final_trial_s,
		.width = b->resolution_rel > 0 ? b->resolution_rel :
			 fmin(0.5, b->resolution_fps / b->r_max_fps),
		.initial_trial_s = fmin(b->search_trial_s, b->final_trial_s),
	};
	bm_mlr9971_input_default(in);
	in->goals = goal;
	in->n_goals = 1;
	in->max_load_fps = b->r_max_fps;
	in->min_load_fps = b->r_min_fps;
}

/* RFC 9971 with §4.10.2's goal: the Relevant Lower Bound is the
 * throughput; every trial goes to log, the Goal Result to res->mlr. */
static int run_9971(const struct bm_measurer *m,
		    const struct bm_rate_search *s, struct bm_trial_log *log,
		    struct bm_rate_search_result *res, bm_progress_fn progress,
		    void *ctx, struct bm_error *err)
{
	const struct bm_mlr_goal_result *g;
	struct bm_mlr9971_result r;
	struct bm_mlr9971_input in;
	struct bm_mlr_goal goal;
	json_object *o;
	int ret;

	bm_rate_search_9971_input(s, &goal, &in);
	ret = bm_mlr9971_search(m, &in, &r, progress, ctx, err);
	if (append_log(log, &r.log, err))
		ret = -ENOMEM;
	res->trials = (unsigned int)r.log.n;
	if (r.n_goals) {
		g = &r.goals[0];
		res->below_r_min = !g->has_lower;
		res->throughput_fps = g->has_lower ? g->lower_fps : 0.0;
		snprintf(res->reason, sizeof(res->reason), "%s",
			 g->lower_is_max_load ? "rfc9971: r_max is a lower "
			 "bound (no loss at the maximum rate)" :
			 g->has_lower ? "rfc9971: relevant lower bound" :
			 "throughput < r_min");
		o = json_object_new_object();
		bm_json_add_bool(o, "regular", g->regular);
		bm_json_add_double(o, "relevant_lower_bound_fps",
				   g->has_lower ? g->lower_fps : NAN);
		bm_json_add_double(o, "relevant_upper_bound_fps",
				   g->has_upper ? g->upper_fps : NAN);
		bm_json_add_double(o, "conditional_throughput_fps",
				   g->has_lower ? g->conditional_throughput_fps :
				   NAN);
		bm_json_add_double(o, "width", goal.width);
		bm_json_add_u64(o, "repeated_trials", r.repeated_trials);
		res->mlr = o;
	}
	bm_mlr9971_result_free(&r);
	return ret;
}

void bm_rate_search_default(struct bm_rate_search *s, uint32_t frame_size,
			    double line_rate_bps)
{
	memset(s, 0, sizeof(*s));
	s->kind = BM_SEARCH_BINARY;
	bm_binsearch_params_default(&s->bin, frame_size, line_rate_bps);
	bm_mlr_params_default(&s->mlr);
}

static int run_mlr(const struct bm_measurer *m, const struct bm_rate_search *s,
		   struct bm_trial_log *log, struct bm_rate_search_result *res,
		   bm_progress_fn progress, void *ctx, struct bm_error *err)
{
	static const double ndr = 0.0;
	struct bm_mlr_params mp = s->mlr;
	struct bm_mlr_result mr;
	int ret;

	mp.min_rate_fps = s->bin.r_min_fps;
	mp.max_rate_fps = s->bin.r_max_fps;
	mp.final_trial_duration_s = s->bin.final_trial_s;
	if (mp.initial_trial_duration_s > mp.final_trial_duration_s)
		mp.initial_trial_duration_s = mp.final_trial_duration_s;
	mp.target_loss_ratios = &ndr;
	mp.n_targets = 1;
	/* the result's frame size; the trials are the measurer's */
	mp.frame_size = s->bin.frame_size;
	memset(&mr, 0, sizeof(mr));
	ret = bm_mlrsearch(m, &mp, &mr, progress, ctx, err);
	/* Copy the trials even on error: the log must show every trial. */
	if (append_log(log, &mr.log, err))
		ret = -ENOMEM;
	res->trials = (unsigned int)mr.log.n;
	if (mr.n >= 1) {
		const struct bm_mlr_bound *b = &mr.bounds[0];

		res->below_r_min = !b->lower_valid;
		res->throughput_fps = b->lower_valid ? b->lower_fps : 0.0;
		snprintf(res->reason, sizeof(res->reason), "%s",
			 b->lower_valid ? "mlr: NDR lower bound" :
			 "throughput < r_min");
	}
	res->mlr = bm_mlr_result_to_json(&mr);
	bm_mlr_result_free(&mr);
	return ret;
}

int bm_rate_search_run(struct bm_backend *be, const struct bm_rate_search *s,
		       struct bm_trial_log *log,
		       struct bm_rate_search_result *res,
		       bm_progress_fn progress, void *ctx,
		       struct bm_error *err)
{
	struct bm_measurer m;
	struct bm_pair_trial t;

	/* The procedure's trial phases (learning, drain_s) apply to every
	 * search trial, whichever search runs them. */
	bm_binsearch_pair(&s->bin, &t);
	bm_measurer_pair(&m, be, &t);
	return bm_rate_search(&m, s, log, res, progress, ctx, err);
}

int bm_rate_search(const struct bm_measurer *m, const struct bm_rate_search *s,
		   struct bm_trial_log *log, struct bm_rate_search_result *res,
		   bm_progress_fn progress, void *ctx, struct bm_error *err)
{
	struct bm_binsearch_result br;
	int ret;

	memset(res, 0, sizeof(*res));
	if (s->kind == BM_SEARCH_MLR)
		return run_mlr(m, s, log, res, progress, ctx, err);
	if (s->kind == BM_SEARCH_RFC9971)
		return run_9971(m, s, log, res, progress, ctx, err);
	ret = bm_binsearch(m, &s->bin, log, &br, progress, ctx, err);
	res->throughput_fps = br.throughput_fps;
	res->below_r_min = br.below_r_min;
	res->trials = br.trials;
	res->repeats = br.repeats;
	res->disturbed_failures = br.disturbed_failures;
	res->disturbed_min_fps = br.disturbed_min_fps;
	snprintf(res->reason, sizeof(res->reason), "%s", br.reason);
	return ret;
}

void bm_rate_search_result_free(struct bm_rate_search_result *res)
{
	if (res->mlr)
		json_object_put(res->mlr);
	res->mlr = NULL;
}

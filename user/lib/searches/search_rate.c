// SPDX-License-Identifier: GPL-2.0
/*
 * The pluggable rate search of throughput-style procedures (REQ-SRCH-1):
 * the R2544-THRPT binary search or MLRsearch (NDR = lower bound of target
 * loss ratio 0), plus the trial logging every search shares.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bm_json.h"
#include "bm_search.h"

int bm_search_trial(struct bm_backend *be, const struct bm_trial_spec *spec,
		    struct bm_trial_result *res, struct bm_trial_log *log,
		    const char *phase, const char *reason,
		    bm_progress_fn progress, void *ctx, struct bm_error *err)
{
	char line[160];
	int ret;

	ret = bm_run_trial(be, spec, res, err);
	if (ret)
		return ret;
	if (bm_trial_log_add(log, phase, reason, spec, res)) {
		bm_errorf(err, "out of memory");
		return -ENOMEM;
	}
	if (!progress)
		return 0;
	if (spec->pattern == BM_PAT_BURST)
		snprintf(line, sizeof(line),
			 "%s: %u B burst of %llu frames: lost %llu", phase,
			 spec->frame_size,
			 (unsigned long long)spec->burst_frames,
			 (unsigned long long)res->lost);
	else
		snprintf(line, sizeof(line),
			 "%s: %u B at %.2f fps for %g s: lost %llu of %llu",
			 phase, spec->frame_size, spec->rate_fps,
			 spec->duration_s, (unsigned long long)res->lost,
			 (unsigned long long)res->attempted);
	if (progress(ctx, &log->v[log->n - 1], line)) {
		bm_errorf(err, "cancelled");
		return -ECANCELED;
	}
	return 0;
}

const char *bm_search_kind_name(enum bm_search_kind kind)
{
	return kind == BM_SEARCH_MLR ? "mlr" : "binary";
}

void bm_rate_search_default(struct bm_rate_search *s, uint32_t frame_size,
			    double line_rate_bps)
{
	memset(s, 0, sizeof(*s));
	s->kind = BM_SEARCH_BINARY;
	bm_binsearch_params_default(&s->bin, frame_size, line_rate_bps);
	bm_mlr_params_default(&s->mlr);
}

static int run_mlr(struct bm_backend *be, const struct bm_rate_search *s,
		   struct bm_trial_log *log, struct bm_rate_search_result *res,
		   bm_progress_fn progress, void *ctx, struct bm_error *err)
{
	static const double ndr = 0.0;
	struct bm_mlr_params mp = s->mlr;
	struct bm_mlr_result mr;
	size_t i;
	int ret;

	mp.min_rate_fps = s->bin.r_min_fps;
	mp.max_rate_fps = s->bin.r_max_fps;
	mp.final_trial_duration_s = s->bin.final_trial_s;
	if (mp.initial_trial_duration_s > mp.final_trial_duration_s)
		mp.initial_trial_duration_s = mp.final_trial_duration_s;
	mp.target_loss_ratios = &ndr;
	mp.n_targets = 1;
	mp.frame_size = s->bin.frame_size;
	mp.topology = s->bin.topology;
	/* The procedure's trial phases (learning, drain_s) apply to every
	 * search trial, whichever search runs them. */
	mp.learning = s->bin.learning;
	mp.learning_pause_s = s->bin.learning_pause_s;
	mp.drain_s = s->bin.drain_s;
	memset(&mr, 0, sizeof(mr));
	ret = bm_mlrsearch_run(be, &mp, &mr, progress, ctx, err);
	/* Copy the trials even on error: the log must show every trial. */
	for (i = 0; i < mr.log.n; i++) {
		const struct bm_trial_record *r = &mr.log.v[i];

		if (bm_trial_log_add(log, r->phase, r->reason, &r->spec,
				     &r->res)) {
			bm_errorf(err, "out of memory");
			ret = -ENOMEM;
			break;
		}
	}
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
	struct bm_binsearch_result br;
	int ret;

	memset(res, 0, sizeof(*res));
	if (s->kind == BM_SEARCH_MLR)
		return run_mlr(be, s, log, res, progress, ctx, err);
	ret = bm_binsearch_run(be, &s->bin, log, &br, progress, ctx, err);
	res->throughput_fps = br.throughput_fps;
	res->below_r_min = br.below_r_min;
	res->trials = br.trials;
	res->repeats = br.repeats;
	snprintf(res->reason, sizeof(res->reason), "%s", br.reason);
	return ret;
}

void bm_rate_search_result_free(struct bm_rate_search_result *res)
{
	if (res->mlr)
		json_object_put(res->mlr);
	res->mlr = NULL;
}

static const char *pattern_name(enum bm_pattern p)
{
	switch (p) {
	case BM_PAT_BURST:
		return "burst";
	case BM_PAT_STEP:
		return "step";
	default:
		return "rate";
	}
}

json_object *bm_trial_record_to_json(const struct bm_trial_record *rec)
{
	const struct bm_trial_spec *sp = &rec->spec;
	const struct bm_trial_result *r = &rec->res;
	json_object *o = json_object_new_object(), *l;

	if (!o)
		return NULL;
	bm_json_add_u64(o, "index", rec->index);
	bm_json_add_str(o, "phase", rec->phase);
	bm_json_add_str(o, "reason", rec->reason);
	bm_json_add_u64(o, "frame_size", sp->frame_size);
	bm_json_add_str(o, "pattern", pattern_name(sp->pattern));
	bm_json_add_str(o, "topology", sp->topology == BM_TOPO_PAIR_BIDIR ?
			"pair-bidir" : "pair-uni");
	if (sp->pattern == BM_PAT_BURST) {
		bm_json_add_u64(o, "burst_frames", sp->burst_frames);
	} else {
		bm_json_add_double(o, "rate_fps", sp->rate_fps);
		bm_json_add_double(o, "duration_s", sp->duration_s);
	}
	if (sp->pattern == BM_PAT_STEP) {
		bm_json_add_double(o, "step_rate_fps", sp->step_rate_fps);
		bm_json_add_double(o, "step_duration_s", sp->step_duration_s);
		bm_json_add_double(o, "last_loss_after_step_s",
				   r->last_loss_after_step_s);
	}
	bm_json_add_u64(o, "intended", r->intended);
	bm_json_add_u64(o, "attempted", r->attempted);
	bm_json_add_u64(o, "received", r->received);
	bm_json_add_u64(o, "lost", r->lost);
	bm_json_add_double(o, "loss_pct", r->attempted ?
			   100.0 * r->lost / r->attempted : 0.0);
	bm_json_add_u64(o, "duplicate", r->duplicate);
	bm_json_add_u64(o, "reordered", r->reordered);
	bm_json_add_u64(o, "gap_events", r->gap_events);
	bm_json_add_u64(o, "late", r->late);
	bm_json_add_bool(o, "generator_limited", r->generator_limited);
	bm_json_add_u64(o, "shortfall", r->shortfall);
	bm_json_add_u64(o, "tx_late_frames", r->tx_late_frames);
	bm_json_add_double(o, "tx_late_max_s", r->tx_late_max_s);
	bm_json_add_double(o, "actual_duration_s", r->actual_duration_s);
	if (sp->event_fn) {
		bm_json_add_double(o, "max_gap_s", r->max_gap_s);
		bm_json_add_double(o, "max_gap_start_s", r->max_gap_start_s);
	}
	if (sp->tag) {
		bm_json_add_double(o, "tag_tx_s", r->tag_tx_s);
		bm_json_add_bool(o, "tag_received", r->tag_received);
		bm_json_add_double(o, "tag_latency_ns", r->tag_latency_ns);
	}
	if (r->latency.count) {
		l = json_object_new_object();
		bm_json_add_u64(l, "count", r->latency.count);
		bm_json_add_double(l, "min_ns", r->latency.min_ns);
		bm_json_add_double(l, "mean_ns", r->latency.mean_ns);
		bm_json_add_double(l, "max_ns", r->latency.max_ns);
		bm_json_add_double(l, "stddev_ns", r->latency.stddev_ns);
		bm_json_add_double(l, "p50_ns", r->latency.p50_ns);
		bm_json_add_double(l, "p90_ns", r->latency.p90_ns);
		bm_json_add_double(l, "p99_ns", r->latency.p99_ns);
		bm_json_add_double(l, "p999_ns", r->latency.p999_ns);
		json_object_object_add(o, "latency", l);
	}
	bm_json_add_str(o, "ts_source", r->ts_source);
	return o;
}

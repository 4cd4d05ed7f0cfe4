// SPDX-License-Identifier: GPL-2.0
/*
 * What every RFC 2544 §26 test shares: the rates (R2544-MAXRATE, F-1),
 * the senders of a topology, a trial run and logged, the throughput a
 * test needs first, the statistics of repetitions.  Apart from
 * rfc2544_run.c, which calls the tests, so that the tests call down to
 * this file and nothing calls back up.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bm_repeat.h"
#include "bm_result.h"
#include "rfc2544_int.h"

double r2544_fps_max(double line_bps, double f)
{
	return line_bps / ((f + 20.0) * 8.0);	/* F-1, SPEC 2.3 */
}

double r2544_r_max(const struct r2544_run *r, double f)
{
	double line = r->be->line_rate_bps;
	double slow = r->p->slowest_link_bps > 0.0 ? r->p->slowest_link_bps :
		      line;
	double rmax = r->p->max_rate_pct / 100.0 * r2544_fps_max(slow, f);

	/* The tester can never exceed its own port's line rate. */
	return fmin(rmax, r2544_fps_max(line, f));
}

unsigned int r2544_senders(const struct r2544_run *r)
{
	switch (r->p->topology) {
	case BM_TOPO_PAIR_BIDIR:
		return 2;
	case BM_TOPO_MULTIPORT:
		return r->be->n_ports / 2;
	case BM_TOPO_MESH:
		return r->be->n_ports;
	default:
		return 1;
	}
}

void r2544_add_rate(const struct r2544_run *r, json_object *o,
		    const char *prefix, double fps, double f)
{
	char key[64];

	snprintf(key, sizeof(key), "%s_fps", prefix);
	bm_json_add_double(o, key, fps);
	snprintf(key, sizeof(key), "%s_l1_bps", prefix);
	bm_json_add_double(o, key, fps * (f + 20.0) * 8.0);
	snprintf(key, sizeof(key), "%s_l2_bps", prefix);
	bm_json_add_double(o, key, fps * f * 8.0);
	snprintf(key, sizeof(key), "%s_pct_line", prefix);
	bm_json_add_double(o, key, fps * (f + 20.0) * 8.0 /
			   r->be->line_rate_bps * 100.0);
	if (r->p->topology != BM_TOPO_PAIR_UNI) {
		snprintf(key, sizeof(key), "%s_aggregate_fps", prefix);
		bm_json_add_double(o, key, r2544_senders(r) * fps);
	}
}

void r2544_spec(const struct r2544_run *r, struct bm_trial_spec *spec,
		uint32_t f, double rate_fps, double duration_s)
{
	bm_trial_spec_rate(spec, f, rate_fps, duration_s);
	spec->pair.topology = r->p->topology;
	spec->learning = r->p->learning;
	spec->learning_pause_s = r->p->learning_pause_s;
	spec->drain_s = r->p->drain_s;
}

int r2544_trial(struct r2544_run *r, const struct bm_trial_spec *spec,
		struct bm_trial_result *res, const char *phase,
		const char *reason)
{
	return bm_search_trial(r->be, spec, res, &r->log, phase, reason,
			       r->progress, r->ctx, r->err);
}

void r2544_stats(const double *v, size_t n, double *mean, double *sd,
		 double *min, double *max)
{
	struct bm_repeat r;

	/* no sample is no statistic: null in the result, never 0 */
	*mean = *sd = *min = *max = NAN;
	if (!n)
		return;
	bm_repeat_of(v, n, &r);
	*mean = r.mean;
	*sd = r.stddev;
	*min = r.min;
	*max = r.max;
}

int r2544_get_throughput(struct r2544_run *r, size_t i, uint32_t f,
			 json_object *entry, double *thr, bool *ok)
{
	struct r2544_case c = { i, f, 0, false, f };

	return r2544_case_throughput(r, &c, entry, thr, ok);
}

int r2544_case_throughput(struct r2544_run *r, const struct r2544_case *c,
			  json_object *entry, double *thr, bool *ok)
{
	const struct rfc2544_params *p = r->p;
	struct bm_rate_search s;
	struct bm_rate_search_result res;
	uint32_t f = c->f;
	size_t i = c->i;
	double rmax = r2544_r_max(r, c->size);
	int ret;

	if (r->stream)
		r2544_stream_set_case(r->stream, c);
	if (p->throughput_fps[i] > 0.0) {
		*thr = p->throughput_fps[i];
		*ok = true;
		r2544_add_rate(r, entry, "throughput", *thr, c->size);
		bm_json_add_str(entry, "throughput_source", "given");
		r2544_deviation(r, "throughput supplied by the caller, not "
				"measured first");
		return 0;
	}
	bm_rate_search_default(&s, f, r->be->line_rate_bps);
	s.kind = p->search;
	s.bin.topology = p->topology;
	s.bin.learning = p->learning;
	s.bin.learning_pause_s = p->learning_pause_s;
	s.bin.drain_s = p->drain_s;
	s.bin.r_max_fps = rmax;
	s.bin.r_min_fps = p->r_min_pct / 100.0 * rmax;
	s.bin.start_rate_fps = p->start_rate_pct / 100.0 * rmax;
	/* resolution_pct is relative to the result, so a DUT at
	 * 1 % of line rate is not measured to +-10 % as with 0.1 % of
	 * r_max; resolution_fps, when given, is absolute */
	s.bin.resolution_fps = p->resolution_fps;
	s.bin.resolution_rel = p->resolution_fps > 0.0 ? 0.0 :
			       p->resolution_pct / 100.0;
	s.bin.search_trial_s = p->thr_search_trial_s;
	s.bin.final_trial_s = p->thr_final_trial_s;
	s.bin.loss_tolerance_frames = p->loss_tolerance_frames;
	s.mlr.final_relative_width = p->mlr_final_relative_width;
	s.mlr.initial_trial_duration_s = p->mlr_initial_trial_s;
	s.mlr.expansion_coefficient = p->mlr_expansion_coefficient;
	s.mlr.timeout_s = rfc2544_mlr_timeout_s(p);
	s.mlr.number_of_intermediate_phases = p->mlr_intermediate_phases;

	ret = bm_rate_search_run(r->be, &s, &r->log, &res, r->progress, r->ctx,
				 r->err);
	if (ret == -ETIMEDOUT && p->search == BM_SEARCH_MLR) {
		/* keep what the search found: the trials are in the log,
		 * the partial bounds in "mlr"; this size is not measured */
		snprintf(res.reason, sizeof(res.reason), "mlr: timed out "
			 "after %g s, partial bounds only", s.mlr.timeout_s);
		res.throughput_fps = 0.0;
		r2544_deviation(r, "search mlr: a search timed out "
				"(mlr_timeout_s); its size is not measured");
		ret = 0;
	}
	*thr = res.throughput_fps;
	*ok = !ret && !res.below_r_min && res.throughput_fps > 0.0;
	/* a search stopped by an error or a cancel has no words of its
	 * own, and "not measured: " alone says nothing */
	if (!*ok && !res.reason[0])
		snprintf(res.reason, sizeof(res.reason), "search stopped: %.78s",
			 ret == -ECANCELED ? "cancelled" :
			 ret ? r->err->msg : "no throughput found");
	/* no throughput is null, never 0 fps (a 0 reads as a result) */
	r2544_add_rate(r, entry, "throughput", *ok ? *thr : NAN, c->size);
	bm_json_add_str(entry, "throughput_source",
			bm_search_kind_name(p->search));
	bm_json_add_bool(entry, "below_r_min", res.below_r_min);
	bm_json_add_str(entry, "search_result", res.reason);
	bm_json_add_u64(entry, "search_trials", res.trials);
	bm_json_add_double(entry, "r_max_fps", rmax);
	bm_json_add_double(entry, "r_min_fps", s.bin.r_min_fps);
	if (p->search == BM_SEARCH_BINARY) {
		if (s.bin.resolution_rel > 0.0)
			bm_json_add_double(entry, "resolution_pct_of_result",
					   100.0 * s.bin.resolution_rel);
		else
			bm_json_add_double(entry, "resolution_fps",
					   s.bin.resolution_fps);
		bm_json_add_u64(entry, "repeated_trials", res.repeats);
		bm_json_add_u64(entry, "disturbed_failures",
				res.disturbed_failures);
		if (res.disturbed_failures)
			bm_json_add_double(entry, "disturbed_failure_min_fps",
					   res.disturbed_min_fps);
	}
	if (p->search == BM_SEARCH_MLR)
		bm_json_add_double(entry, "mlr_timeout_s", s.mlr.timeout_s);
	if (res.mlr) {
		json_object_object_add(entry, p->search == BM_SEARCH_RFC9971 ?
				       "rfc9971" : "mlr", res.mlr);
		res.mlr = NULL;
	}
	bm_rate_search_result_free(&res);

	if (p->search == BM_SEARCH_MLR)
		r2544_deviation(r, "search mlr: MLRsearch (NDR lower bound, "
				"draft-ietf-bmwg-mlrsearch-01) replaces the "
				"RFC 2544 binary search");
	else if (p->search == BM_SEARCH_RFC9971)
		r2544_deviation(r, "search rfc9971: RFC 9971 MLRsearch with "
				"its §4.10.2 goal (trial_duration_s, as many "
				"in sum, loss and exceed ratio 0), "
				"unconditionally compliant with RFC 2544 §24, "
				"replaces the binary search; the throughput is "
				"its Relevant Lower Bound");
	else
		r2544_deviation(r, "AMB-16: the garbled §26.1 sentence is read "
				"as a binary search (raise on success, lower on "
				"loss) with a full-length final determination");
	if (p->thr_final_trial_s < 60.0)
		r2544_deviation(r, "R2544-DUR: full-length throughput trials "
				"shorter than 60 s");
	if (p->loss_tolerance_frames)
		r2544_deviation(r, "loss_tolerance_frames > 0: not the RFC 2544 "
				"zero-loss throughput");
	if (res.repeats)
		r2544_deviation(r, "REQ-GEN-6: a failed trial the generator "
				"itself disturbed (limited without loss, or a "
				"loss within its own catch-up burst) was "
				"repeated, at most twice [INTERPRETATION]");
	if (res.disturbed_failures) {
		char d[200];

		snprintf(d, sizeof(d), "REQ-GEN-6: at %u B a trial at %.2f fps "
			 "was taken as failed though the generator disturbed "
			 "every attempt: the throughput may be higher than "
			 "measured (a busy tester host)", f,
			 res.disturbed_min_fps);
		r2544_deviation(r, d);
	}
	return ret;
}

void r2544_result_no_throughput(json_object *entry,
				const char *const *values)
{
	json_object *why;
	char buf[160];

	for (; values && *values; values++)
		if (!json_object_object_get_ex(entry, *values, NULL))
			json_object_object_add(entry, *values, NULL);

	/* the search's own words: below r_min, timed out, stopped ... (a
	 * timed-out search is not "throughput < r_min") */
	snprintf(buf, sizeof(buf), "not measured: %s",
		 json_object_object_get_ex(entry, "search_result", &why) ?
		 json_object_get_string(why) : "no throughput");
	bm_json_add_str(entry, "result", buf);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * MLRsearch result as JSON (MLR-OUT): bounds per target ratio with their
 * validity, and the full trial log with phase, duration, load, counts,
 * loss ratio and why each load was chosen (REQ-SRCH-1).  The schema is
 * in Documentation/procedures-mlrsearch.md.
 */
#include <json-c/json.h>

#include "bm_result.h"
#include "mlrsearch_int.h"

/* Loss ratio or null when the load was never measured (< 0). */
static json_object *mlr_json_ratio(double lr)
{
	return lr < 0 ? NULL : json_object_new_double(lr);
}

static int mlr_json_add(json_object *o, const char *key, json_object *v)
{
	/* json_object_object_add takes ownership even on failure. */
	return json_object_object_add(o, key, v);
}

static json_object *mlr_bound_to_json(const struct bm_mlr_bound *b,
				      uint32_t frame_size,
				      unsigned int directions)
{
	json_object *o = json_object_new_object();
	int bad = 0;

	if (!o)
		return NULL;
	bad |= mlr_json_add(o, "target_loss_ratio",
			    json_object_new_double(b->target_ratio));
	bad |= mlr_json_add(o, "lower_fps", json_object_new_double(b->lower_fps));
	bad |= mlr_json_add(o, "upper_fps", json_object_new_double(b->upper_fps));
	bad |= mlr_json_add(o, "lower_l1_bps",
			    json_object_new_double(bm_l1_bps(b->lower_fps,
							     frame_size)));
	/* a bidirectional search states the aggregate too */
	if (directions > 1) {
		bad |= mlr_json_add(o, "lower_aggregate_fps",
				    json_object_new_double(directions * b->lower_fps));
		bad |= mlr_json_add(o, "upper_aggregate_fps",
				    json_object_new_double(directions * b->upper_fps));
	}
	bad |= mlr_json_add(o, "relative_width",
			    json_object_new_double(mlr_rel_width(b->lower_fps,
								 b->upper_fps)));
	bad |= mlr_json_add(o, "lower_valid",
			    json_object_new_boolean(b->lower_valid));
	bad |= mlr_json_add(o, "upper_valid",
			    json_object_new_boolean(b->upper_valid));
	bad |= mlr_json_add(o, "lower_loss_ratio",
			    mlr_json_ratio(b->lower_loss_ratio));
	bad |= mlr_json_add(o, "upper_loss_ratio",
			    mlr_json_ratio(b->upper_loss_ratio));
	bad |= mlr_json_add(o, "duration_s", json_object_new_double(b->duration_s));
	bad |= mlr_json_add(o, "upper_duration_s",
			    json_object_new_double(b->upper_duration_s));
	if (bad) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

json_object *bm_mlr_result_to_json(const struct bm_mlr_result *res)
{
	json_object *o = json_object_new_object();
	json_object *bounds = json_object_new_array();
	json_object *trials = json_object_new_array();
	int bad = !o || !bounds || !trials;
	size_t i;

	for (i = 0; !bad && i < res->n; i++)
		bad |= json_object_array_add(bounds,
				mlr_bound_to_json(&res->bounds[i],
						  res->frame_size,
						  res->directions)) ||
		       !json_object_array_get_idx(bounds, i);
	for (i = 0; !bad && i < res->log.n; i++)
		bad |= json_object_array_add(trials,
				bm_trial_record_to_json(&res->log.v[i], 0,
					res->loss_ratios ?
					res->loss_ratios[i] : -1)) ||
		       !json_object_array_get_idx(trials, i);
	if (bad || !o) {
		json_object_put(o);
		json_object_put(bounds);
		json_object_put(trials);
		return NULL;
	}
	bad |= mlr_json_add(o, "algorithm",
			    json_object_new_string("draft-ietf-bmwg-mlrsearch-01"));
	bad |= mlr_json_add(o, "mode",
			    json_object_new_string(bm_mlr_mode_name(res->mode)));
	bad |= mlr_json_add(o, "frame_size", json_object_new_int64(res->frame_size));
	bad |= mlr_json_add(o, "directions", json_object_new_int64(res->directions ?
							  res->directions : 1));
	bad |= mlr_json_add(o, "mtr_fps", json_object_new_double(res->mtr_fps));
	bad |= mlr_json_add(o, "mrr_fps", json_object_new_double(res->mrr_fps));
	bad |= mlr_json_add(o, "final_trial_duration_s",
			    json_object_new_double(res->final_trial_duration_s));
	bad |= mlr_json_add(o, "final_relative_width",
			    json_object_new_double(res->final_relative_width));
	bad |= mlr_json_add(o, "timed_out", json_object_new_boolean(res->timed_out));
	bad |= mlr_json_add(o, "stream_errors",
			    json_object_new_boolean(res->stream_errors));
	bad |= mlr_json_add(o, "generator_limited_trials",
			    json_object_new_int64(res->generator_limited_trials));
	bad |= mlr_json_add(o, "trial_count", json_object_new_int64(res->log.n));
	bad |= mlr_json_add(o, "trial_time_s",
			    json_object_new_double(res->trial_time_s));
	bad |= mlr_json_add(o, "search_time_s",
			    json_object_new_double(res->search_time_s));
	bad |= mlr_json_add(o, "bounds", bounds);
	bad |= mlr_json_add(o, "trials", trials);
	if (bad) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

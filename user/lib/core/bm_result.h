/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The result document's parts that every procedure shares: one trial
 * record, written by one serialiser for results, the MLR sub-result and
 * bmd's progress events alike.  Documentation/results.md
 * and Documentation/result.schema.json describe the document.
 */
#ifndef BM_RESULT_H
#define BM_RESULT_H

#include <json-c/json.h>

#include "bm_trial.h"

/*
 * New JSON object for one trial record (REQ-TRIAL-3, REQ-SRCH-1).
 * line_rate_bps > 0 adds load_pct.  loss_ratio >= 0 is the search's own
 * loss ratio of the trial (MLRsearch's MLR-MEAS); below 0 it is
 * lost / attempted.  NULL when out of memory.
 */
json_object *bm_trial_record_to_json(const struct bm_trial_record *rec,
				     double line_rate_bps, double loss_ratio);

/* The version of the result document (Documentation/result.schema.json). */
#define BM_RESULT_SCHEMA_VERSION 1

/*
 * The result envelope every procedure returns: schema_version, procedure
 * {id, ref}, params, trials (log's records as trial records, with
 * loss_ratios[i] when given: MLRsearch's own), results, deviations (an
 * array of strings; NULL = none, but the backend's deviation is always
 * first when it has one).  Takes ownership of params, results and
 * deviations.  NULL when out of memory.
 */
json_object *bm_result_envelope(const char *id, const char *ref,
				json_object *params,
				const struct bm_trial_log *log,
				const double *loss_ratios,
				json_object *results, json_object *deviations,
				const struct bm_backend *be);

/* Mark doc, a procedure's result that ret (< 0) cut short, as partial:
 * its "error" is msg (or strerror(-ret) when msg is empty), unless it
 * already has one.  A partial result must never read as a whole one
 * (SPEC REQ-REP-2: bmctl report --check fails it). */
void bm_result_mark_partial(json_object *doc, int ret, const char *msg);

/* New JSON array of the non-empty buckets of a BM_LAT_HIST histogram h:
 * {lower_ns, count} each, in order; NULL when out of memory. */
json_object *bm_lat_hist_json(const uint64_t *h);

#endif /* BM_RESULT_H */

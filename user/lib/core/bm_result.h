/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The result document's parts that every procedure shares (issue 9 item
 * 8): one trial record, written by one serialiser for results, the MLR
 * sub-result and bmd's progress events alike.  Documentation/results.md
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

#endif /* BM_RESULT_H */

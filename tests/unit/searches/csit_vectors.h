/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading FD.io CSIT's reference vectors (vectors/csit-rfc9971.json,
 * tools/csit-mlr-vectors): the device kinds, a goal set's Search Goals
 * and loads, and the rule by which a Goal Result brackets a device's
 * truth.  Shared by test_mlr_goal, test_mlr9971 and mlr9971_bench.
 */
#ifndef CSIT_VECTORS_H
#define CSIT_VECTORS_H

#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

#include "bm_mlr9971.h"
#include "bm_mlr_goal.h"
#include "mlr_devices.h"

#define CSIT_VECTORS "tests/unit/searches/vectors/csit-rfc9971.json"
/* tools/csit-mlr-vectors --configs: searches of random configurations,
 * each with its device, loads, goals, CSIT's trials and Goal Results */
#define CSIT_CONFIGS \
	"tests/unit/searches/vectors/csit-rfc9971-configs.json"

/* The device kind the vectors call name ("cliff", "gradual", "buffer",
 * "bgloss"); MLR_CMP_N for any other. */
enum mlr_cmp_dev csit_vec_kind(const char *name);

/* The Search Goals of goal set gs into g[0..max) and its Min and Max
 * Load; the goals' number, 0 when gs has more than max or lacks a
 * number the goals or loads need. */
size_t csit_vec_goals(json_object *gs, struct bm_mlr_goal *g, size_t max,
		      double *min_load, double *max_load);

/* The Controller Input of goal set gs: bm_mlr9971_input_default() with
 * its goals in g[0..max) and its loads; the goals' number, 0 as
 * csit_vec_goals(). */
size_t csit_vec_input(json_object *gs, struct bm_mlr_goal *g, size_t max,
		      struct bm_mlr9971_input *in);

/* The knobs of goal set gs that CSIT takes per goal and bmgen's CSIT
 * selection once for all (bm_mlr9971.h): preceding_targets,
 * expansion_coefficient and fail_fast; false when a goal lacks one or
 * the goals differ in one. */
bool csit_vec_knobs(json_object *gs, unsigned int *preceding,
		    unsigned int *expansion, bool *fail_fast);

/* Do bounds [lower, upper] of goal g bracket truth: lower <= truth <=
 * upper but for the whole frames the truth formula leaves out.  One lost
 * frame of a trial's d L moves the bound by at most 4 / d fps (the
 * gradual device's slope, 0.25 % of loss per % of load), d the shortest
 * trial's (with exceed ratio 0 one short trial makes an upper bound,
 * RFC 9971 §4.7.2.1). */
bool csit_vec_brackets(double lower, double upper, double truth,
		       const struct bm_mlr_goal *g);

#endif /* CSIT_VECTORS_H */

// SPDX-License-Identifier: GPL-2.0
/* Reading FD.io CSIT's reference vectors (csit_vectors.h). */
#include <math.h>
#include <string.h>

#include "csit_vectors.h"

enum mlr_cmp_dev csit_vec_kind(const char *name)
{
	static const char *const names[MLR_CMP_N] = { "cliff", "gradual",
						      "buffer", "bgloss" };
	unsigned int k;

	for (k = 0; name && k < MLR_CMP_N; k++)
		if (!strcmp(name, names[k]))
			break;
	return name ? (enum mlr_cmp_dev)k : MLR_CMP_N;
}

/* o[key] as a number into *x; false when there is none. */
static bool num(json_object *o, const char *key, double *x)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v) ||
	    (!json_object_is_type(v, json_type_double) &&
	     !json_object_is_type(v, json_type_int)))
		return false;
	*x = json_object_get_double(v);
	return true;
}

size_t csit_vec_goals(json_object *gs, struct bm_mlr_goal *g, size_t max,
		      double *min_load, double *max_load)
{
	json_object *a, *cfg, *o;
	size_t k, n;

	if (!json_object_object_get_ex(gs, "goals", &a) ||
	    !json_object_is_type(a, json_type_array) ||
	    !json_object_object_get_ex(gs, "config", &cfg) ||
	    !num(cfg, "min_load", min_load) || !num(cfg, "max_load", max_load))
		return 0;
	n = json_object_array_length(a);
	if (n > max)
		return 0;
	for (k = 0; k < n; k++) {
		o = json_object_array_get_idx(a, k);
		if (!num(o, "final_trial_duration", &g[k].final_trial_s) ||
		    !num(o, "duration_sum", &g[k].duration_sum_s) ||
		    !num(o, "loss_ratio", &g[k].loss_ratio) ||
		    !num(o, "exceed_ratio", &g[k].exceed_ratio) ||
		    !num(o, "relative_width", &g[k].width) ||
		    !num(o, "initial_trial_duration", &g[k].initial_trial_s))
			return 0;
	}
	return n;
}

bool csit_vec_brackets(double lower, double upper, double truth,
		       const struct bm_mlr_goal *g)
{
	return lower <= truth &&
	       truth <= upper + 4.0 / g->initial_trial_s + 1e-9 * truth;
}

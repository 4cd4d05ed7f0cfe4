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

size_t csit_vec_input(json_object *gs, struct bm_mlr_goal *g, size_t max,
		      struct bm_mlr9971_input *in)
{
	bm_mlr9971_input_default(in);
	in->goals = g;
	in->n_goals = csit_vec_goals(gs, g, max, &in->min_load_fps,
				     &in->max_load_fps);
	return in->n_goals;
}

bool csit_vec_knobs(json_object *gs, unsigned int *preceding,
		    unsigned int *expansion, bool *fail_fast)
{
	json_object *a, *o, *v;
	double p, e;
	size_t k;
	bool f;

	if (!json_object_object_get_ex(gs, "goals", &a) ||
	    !json_object_is_type(a, json_type_array))
		return false;
	for (k = 0; k < json_object_array_length(a); k++) {
		o = json_object_array_get_idx(a, k);
		if (!num(o, "preceding_targets", &p) ||
		    !num(o, "expansion_coefficient", &e) ||
		    !json_object_object_get_ex(o, "fail_fast", &v) ||
		    !json_object_is_type(v, json_type_boolean))
			return false;
		f = json_object_get_boolean(v);
		if (k && (*preceding != (unsigned int)p ||
			  *expansion != (unsigned int)e || *fail_fast != f))
			return false;
		*preceding = (unsigned int)p;
		*expansion = (unsigned int)e;
		*fail_fast = f;
	}
	return k > 0;
}

bool csit_vec_brackets(double lower, double upper, double truth,
		       const struct bm_mlr_goal *g)
{
	return lower <= truth &&
	       truth <= upper + 4.0 / g->initial_trial_s + 1e-9 * truth;
}

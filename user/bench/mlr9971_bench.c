// SPDX-License-Identifier: GPL-2.0
/*
 * mlr9971_bench: bmgen's RFC 9971 search against FD.io CSIT's MLRsearch
 * on the eight comparison devices of mlr_devices.h, with the goal sets
 * of the reference vectors (tests/unit/searches/vectors/csit-rfc9971.json,
 * which also hold CSIT's trials and Goal Results).  Time is the sum of
 * trial durations (CSIT's own count).  Prints one Markdown table per
 * goal set, then the totals on the vectors' random devices (a change of
 * load selection must not win on the eight by losing on those), and the
 * goal line of CSIT's production set:
 *   goal mlr9971-vs-csit: RATIO (target <= 0.80) met|missed
 * "met" also needs every Goal Result regular and bracketing the truth.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "bm_mlr9971.h"
#include "../../tests/unit/searches/csit_vectors.h"

#define MAX_GOALS 4
#define N_DEV 8
#define TARGET 0.80

static double num(json_object *o, const char *key)
{
	json_object *v;

	return json_object_object_get_ex(o, key, &v) ?
	       json_object_get_double(v) : NAN;
}

/* CSIT's result of device d in goal set name. */
static json_object *csit_of(json_object *res, size_t d, const char *name)
{
	size_t i;

	for (i = 0; i < json_object_array_length(res); i++) {
		json_object *o = json_object_array_get_idx(res, i), *v;

		if (json_object_object_get_ex(o, "device", &v) &&
		    (size_t)json_object_get_int(v) == d &&
		    json_object_object_get_ex(o, "goal_set", &v) &&
		    !strcmp(json_object_get_string(v), name))
			return o;
	}
	return NULL;
}

/* bmgen's search on device d of the vectors into *r, its kind in *kind
 * and capacity in *cap; CSIT's result of it in goal set name, NULL when
 * there is none or the search fails. */
static json_object *search_dev(json_object *devs, json_object *res,
			       const char *name, size_t d,
			       const struct bm_mlr9971_input *in,
			       struct bm_mlr9971_result *r,
			       enum mlr_cmp_dev *kind, double *cap)
{
	struct bm_pair_trial pt = { .frame_size = 64, .drain_s = -1,
				    .learning_pause_s = -1 };
	json_object *dv = json_object_array_get_idx(devs, d);
	json_object *c = csit_of(res, d, name);
	struct bm_backend *be;
	struct bm_error err;
	struct bm_measurer m;
	int ret;

	*kind = csit_vec_kind(json_object_get_string(
		json_object_object_get(dv, "kind")));
	*cap = num(dv, "capacity_fps");
	be = mlr_dev_cmp(*kind, *cap);
	if (!be || !c)
		return NULL;
	bm_measurer_pair(&m, be, &pt);
	ret = bm_mlr9971_search(&m, in, r, NULL, NULL, &err);
	if (ret)
		fprintf(stderr, "mlr9971_bench: %s device %zu: %s\n", name, d,
			err.msg);
	mlr_dev_destroy(be);
	return ret ? NULL : c;
}

/* Does goal k's result in r bracket the truth of device kind, cap? */
static bool brackets(const struct bm_mlr9971_result *r, size_t k,
		     const struct bm_mlr_goal *g, enum mlr_cmp_dev kind,
		     double cap, double *truth)
{
	*truth = mlr_dev_cmp_truth(kind, cap, g->final_trial_s,
				   g->loss_ratio);
	return r->goals[k].regular &&
	       csit_vec_brackets(r->goals[k].lower_fps, r->goals[k].upper_fps,
				 *truth, g);
}

/* The goal set's input from gs; its goals' number, 0 when gs has none
 * or too many. */
static size_t input_of(json_object *gs, struct bm_mlr_goal *g,
		       struct bm_mlr9971_input *in)
{
	size_t n;

	bm_mlr9971_input_default(in);
	n = csit_vec_goals(gs, g, MAX_GOALS, &in->min_load_fps,
			   &in->max_load_fps);
	in->goals = g;
	in->n_goals = n;
	return n;
}

/* The rows of device d (kind, cap) of the eight: bmgen's result r and
 * CSIT's c for the n goals g; *ok false when one misses its truth. */
static void rows(json_object *c, const struct bm_mlr9971_result *r,
		 const struct bm_mlr_goal *g, size_t n, enum mlr_cmp_dev kind,
		 double cap, bool *ok)
{
	size_t k;
	double t;

	for (k = 0; k < n; k++) {
		json_object *cg = json_object_array_get_idx(
			json_object_object_get(c, "goals"), k);
		bool br = brackets(r, k, &g[k], kind, cap, &t);

		*ok = *ok && br;
		if (!k)
			printf("| %s | %.0f | %.0f | %.1f | %zu | %.1f ",
			       mlr_dev_cmp_name(kind), cap, num(c, "trials"),
			       num(c, "trial_time_s"), r->log.n,
			       r->trial_time_s);
		else
			printf("| | | | | | ");
		printf("| %zu | %.1f | %.1f, %.1f | %.1f, %.1f | %.1f | %s |\n",
		       k + 1, t, num(cg, "relevant_lower_bound_fps"),
		       num(cg, "relevant_upper_bound_fps"),
		       r->goals[k].lower_fps, r->goals[k].upper_fps,
		       r->goals[k].conditional_throughput_fps,
		       br ? "yes" : "NO");
	}
}

/* The table of goal set name on the eight devices, then the line of
 * its random devices (those after the eight: bmgen's and CSIT's total
 * trial time, and how many of bmgen's Goal Results miss their truth);
 * the eight's totals in *b_s and *c_s, *ok false when a result of the
 * eight is irregular or misses its truth.  0 or -1. */
static int table(const char *name, json_object *gs, json_object *devs,
		 json_object *res, double *b_s, double *c_s, bool *ok)
{
	struct bm_mlr_goal g[MAX_GOALS];
	struct bm_mlr9971_input in;
	unsigned int b_n = 0, c_n = 0;
	double rb_s = 0, rc_s = 0, t;
	size_t n = input_of(gs, g, &in), d, k, misses = 0;

	if (!n)
		return -1;
	printf("\n**%s**: ", name);
	for (k = 0; k < n; k++)
		printf("%sloss ratio %g, exceed ratio %g, final trial %g s, "
		       "sum %g s, width %g", k ? "; " : "", g[k].loss_ratio,
		       g[k].exceed_ratio, g[k].final_trial_s,
		       g[k].duration_sum_s, g[k].width);
	printf(".\n\n| device | capacity fps | CSIT trials | CSIT s | bmgen "
	       "trials | bmgen s | goal | truth fps | CSIT lower, upper | "
	       "bmgen lower, upper | bmgen cond. throughput | brackets |\n");
	printf("|---|---:|---:|---:|---:|---:|---:|---:|---|---|---:|---|\n");
	*b_s = *c_s = 0;
	*ok = true;
	for (d = 0; d < json_object_array_length(devs); d++) {
		struct bm_mlr9971_result r;
		enum mlr_cmp_dev kind;
		double cap;
		json_object *c = search_dev(devs, res, name, d, &in, &r, &kind,
					    &cap);

		if (!c)
			return -1;
		if (d < N_DEV) {
			rows(c, &r, g, n, kind, cap, ok);
			*b_s += r.trial_time_s;
			*c_s += num(c, "trial_time_s");
			b_n += (unsigned int)r.log.n;
			c_n += (unsigned int)num(c, "trials");
		} else {
			for (k = 0; k < n; k++)
				misses += !brackets(&r, k, &g[k], kind, cap,
						    &t);
			rb_s += r.trial_time_s;
			rc_s += num(c, "trial_time_s");
		}
		bm_mlr9971_result_free(&r);
	}
	printf("| **total** | | %u | %.1f | %u | %.1f | | | | | | |\n", c_n,
	       *c_s, b_n, *b_s);
	printf("\nThe %zu random devices: CSIT %.1f s, bmgen %.1f s (%.4f of "
	       "CSIT's), %zu Goal Results missing their truth.\n",
	       d > N_DEV ? d - N_DEV : 0, rc_s, rb_s, rb_s / rc_s, misses);
	return 0;
}

int main(void)
{
	json_object *doc = json_object_from_file(CSIT_VECTORS), *sets, *v;
	double b_s, c_s, prod = NAN;
	bool ok, prod_ok = false;

	if (!doc) {
		fprintf(stderr, "mlr9971_bench: cannot read %s\n",
			CSIT_VECTORS);
		return EXIT_FAILURE;
	}
	sets = json_object_object_get(doc, "goal_sets");
	printf("bmgen's RFC 9971 search against FD.io CSIT's MLRsearch "
	       "(commit %.10s, from the reference vectors) on the eight "
	       "comparison devices, min load 18002 fps, max load 29.76 Mfps. "
	       "Time is the sum of trial durations (CSIT's own count). "
	       "*brackets*: the Goal Result is regular and lower <= truth <= "
	       "upper, the upper to the device's whole frames.\n",
	       json_object_object_get_ex(doc, "csit_commit", &v) ?
	       json_object_get_string(v) : "?");
	json_object_object_foreach(sets, name, gs) {
		if (table(name, gs, json_object_object_get(doc, "devices"),
			  json_object_object_get(doc, "results"), &b_s, &c_s,
			  &ok)) {
			json_object_put(doc);
			return EXIT_FAILURE;
		}
		if (!strcmp(name, "csit-production")) {
			prod = b_s / c_s;
			prod_ok = ok;
		}
	}
	printf("\ngoal mlr9971-vs-csit: %.4f (target <= %.2f) %s\n", prod,
	       TARGET, prod <= TARGET && prod_ok ? "met" : "missed");
	json_object_put(doc);
	return EXIT_SUCCESS;
}

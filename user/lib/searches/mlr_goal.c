// SPDX-License-Identifier: GPL-2.0
/*
 * RFC 9971's goal logic over the Trial Results at a Load: Appendix A's
 * Load Classification Code and Appendix B's Conditional Throughput Code,
 * statement for statement (the RFC's pseudocode is normative in effect:
 * §4.7.2 defines the bounds as what that code classifies) but for
 * Appendix B's trials of equal loss ratio, taken together (see there),
 * and the Goal Result of §4.8 over all measured Loads.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bm_mlr_goal.h"

int bm_mlr_goal_check(const struct bm_mlr_goal *g, char *why, size_t len)
{
	const char *bad = NULL;

	if (!(g->final_trial_s > 0) || !isfinite(g->final_trial_s))
		bad = "Goal Final Trial Duration must be > 0";
	else if (!(g->duration_sum_s >= g->final_trial_s) ||
		 !isfinite(g->duration_sum_s))
		bad = "Goal Duration Sum must be >= Goal Final Trial Duration";
	else if (!(g->loss_ratio >= 0 && g->loss_ratio < 1))
		bad = "Goal Loss Ratio must be in [0, 1)";
	else if (!(g->exceed_ratio >= 0 && g->exceed_ratio < 1))
		bad = "Goal Exceed Ratio must be in [0, 1)";
	else if (!(g->width >= 0 && g->width < 1))
		bad = "Goal Width (relative) must be in (0, 1), or 0 for none";
	else if (!(g->initial_trial_s >= 0 &&
		   g->initial_trial_s <= g->final_trial_s))
		bad = "Goal Initial Trial Duration must be in (0, Goal Final "
		      "Trial Duration], or 0 for the final one";
	if (!bad)
		return 0;
	snprintf(why, len, "%s", bad);
	return -EINVAL;
}

void bm_mlr_classify(const struct bm_mlr_goal *g, const struct bm_mlr_trial *t,
		     size_t n, struct bm_mlr_classification *c)
{
	double coeff, quantile_s;
	bool pess_lower, opt_lower;
	size_t i;

	memset(c, 0, sizeof(*c));
	/* §4.7.1: high-loss above the Goal Loss Ratio, short below the
	 * Goal Final Trial Duration */
	for (i = 0; i < n; i++) {
		bool high = t[i].loss_ratio > g->loss_ratio;

		if (t[i].duration_s < g->final_trial_s)
			*(high ? &c->short_high_s : &c->short_low_s) +=
				t[i].effective_s;
		else
			*(high ? &c->full_high_s : &c->full_low_s) +=
				t[i].effective_s;
	}
	coeff = g->exceed_ratio / (1.0 - g->exceed_ratio);
	c->balancing_s = c->short_low_s * coeff;
	c->excess_s = c->short_high_s - c->balancing_s;
	c->positive_excess_s = fmax(0.0, c->excess_s);
	c->effect_high_s = c->full_high_s + c->positive_excess_s;
	c->effect_full_s = c->full_low_s + c->effect_high_s;
	c->effect_whole_s = fmax(c->effect_full_s, g->duration_sum_s);
	c->missing_s = c->effect_whole_s - c->effect_full_s;
	quantile_s = c->effect_whole_s * g->exceed_ratio;
	c->pessimistic_high_s = c->effect_whole_s - c->full_low_s;
	c->optimistic_exceed_ratio = c->effect_high_s / c->effect_whole_s;
	c->pessimistic_exceed_ratio = c->pessimistic_high_s /
				      c->effect_whole_s;
	pess_lower = c->pessimistic_high_s <= quantile_s;
	opt_lower = c->effect_high_s <= quantile_s;
	c->cls = pess_lower && opt_lower ? BM_MLR_LOWER :
		 !pess_lower && !opt_lower ? BM_MLR_UPPER : BM_MLR_UNDECIDED;
}

/* Order of the full-length trials for Appendix B: loss ratio up, equal
 * ones in the order they were measured (their place in the array). */
static int by_loss(const void *a, const void *b)
{
	const struct bm_mlr_trial *x = *(const struct bm_mlr_trial *const *)a;
	const struct bm_mlr_trial *y = *(const struct bm_mlr_trial *const *)b;

	if (x->loss_ratio != y->loss_ratio)
		return (x->loss_ratio > y->loss_ratio) -
		       (x->loss_ratio < y->loss_ratio);
	return (x > y) - (x < y);
}

/*
 * Appendix B's code, with the Full-Length Trials of one loss ratio taken
 * together (their durations summed in measurement order), as FD.io
 * CSIT's MLRsearch (commit 78e52b9c8a) does: the same quantile in exact
 * arithmetic, but subtracting trial by trial the durations summed in
 * another order can leave a rounding residue above 0 (2 + 4.18... + 10 +
 * 10 + 10 s, all lossless: a Conditional Throughput of 0 instead of the
 * load).
 */
double bm_mlr_conditional_throughput(const struct bm_mlr_goal *g,
				     double load_fps,
				     const struct bm_mlr_trial *t, size_t n)
{
	const struct bm_mlr_trial **full;
	double low_s = 0, high_s = 0, remaining, quantile = -1, same_s;
	size_t i, j, k = 0;
	bool broke = false;

	full = calloc(n ? n : 1, sizeof(*full));
	if (!full)
		return NAN;
	for (i = 0; i < n; i++)
		if (t[i].duration_s >= g->final_trial_s) {
			full[k++] = &t[i];
			*(t[i].loss_ratio > g->loss_ratio ? &high_s : &low_s) +=
				t[i].effective_s;
		}
	qsort(full, k, sizeof(*full), by_loss);
	remaining = fmax(g->duration_sum_s, low_s + high_s) *
		    (1.0 - g->exceed_ratio);
	for (i = 0; i < k; i = j) {
		if (quantile >= 0 && !(remaining > 0)) {
			broke = true;
			break;
		}
		same_s = 0;
		for (j = i; j < k && full[j]->loss_ratio == full[i]->loss_ratio;
		     j++)
			same_s += full[j]->effective_s;
		quantile = full[i]->loss_ratio;
		remaining -= same_s;
	}
	/* the trials still missing from the Goal Duration Sum may all be
	 * lost: the quantile is total loss */
	if (!broke && remaining > 0)
		quantile = 1.0;
	free(full);
	return load_fps * (1.0 - quantile);
}

void bm_mlr_goal_result(const struct bm_mlr_goal *g,
			const struct bm_mlr_load *l, size_t n,
			double max_load_fps, struct bm_mlr_goal_result *r)
{
	struct bm_mlr_classification c;
	const struct bm_mlr_load *low = NULL, *max_low = NULL;
	size_t i;

	memset(r, 0, sizeof(*r));
	/* §4.8.1: the smallest Upper Bound */
	for (i = 0; i < n; i++) {
		bm_mlr_classify(g, l[i].t, l[i].n, &c);
		if (c.cls == BM_MLR_UPPER &&
		    (!r->has_upper || l[i].load_fps < r->upper_fps)) {
			r->has_upper = true;
			r->upper_fps = l[i].load_fps;
		}
		if (c.cls == BM_MLR_LOWER && l[i].load_fps >= max_load_fps)
			max_low = &l[i];
	}
	/* §4.8.2: the largest Lower Bound below it */
	for (i = 0; r->has_upper && i < n; i++) {
		if (l[i].load_fps >= r->upper_fps ||
		    (low && l[i].load_fps <= low->load_fps))
			continue;
		bm_mlr_classify(g, l[i].t, l[i].n, &c);
		if (c.cls == BM_MLR_LOWER)
			low = &l[i];
	}
	/* §4.8.4.2: without an Upper Bound, Max Load as a Lower Bound is
	 * the "effective" lower bound an irregular result may report */
	if (!r->has_upper && max_low) {
		low = max_low;
		r->lower_is_max_load = true;
	}
	if (low) {
		r->has_lower = true;
		r->lower_fps = low->load_fps;
		r->conditional_throughput_fps =
			bm_mlr_conditional_throughput(g, low->load_fps, low->t,
						      low->n);
	}
	r->regular = r->has_upper && r->has_lower && !r->lower_is_max_load &&
		     (!(g->width > 0) ||
		      r->upper_fps - r->lower_fps <= g->width * r->upper_fps);
}

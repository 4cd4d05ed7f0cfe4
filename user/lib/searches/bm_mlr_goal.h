/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RFC 9971's Search Goal and what it makes of the Trial Results at one
 * Load: Load Classification (§4.7.2, §6.1, Appendix A), Conditional
 * Throughput (§4.8.3, §6.2, Appendix B) and the Goal Result (§4.8.1,
 * §4.8.2, §4.8.4).  Pure functions of the results: the search that
 * chooses the loads builds on them, and a unit test checks them against
 * the RFC's own worked example (Appendix C).
 */
#ifndef BM_MLR_GOAL_H
#define BM_MLR_GOAL_H

#include <stdbool.h>
#include <stddef.h>

/* A Search Goal (RFC 9971 §4.6.7), durations in s. */
struct bm_mlr_goal {
	double final_trial_s;	/* §4.6.1 Goal Final Trial Duration, > 0 */
	double duration_sum_s;	/* §4.6.2 Goal Duration Sum, >= final */
	double loss_ratio;	/* §4.6.3 Goal Loss Ratio, [0, 1) */
	double exceed_ratio;	/* §4.6.4 Goal Exceed Ratio, [0, 1) */
	/* §4.6.5 Goal Width, relative: (upper - lower) / upper; 0 = none */
	double width;
	/* §4.6.6 Goal Initial Trial Duration, (0, final]; 0 = final */
	double initial_trial_s;
};

/* One Trial Result at a Load, as the classification reads it. */
struct bm_mlr_trial {
	double duration_s;	/* §4.5.1 Trial Duration */
	double effective_s;	/* §4.5.8 Trial Effective Duration */
	double loss_ratio;	/* §4.5.6 Trial Loss Ratio */
};

enum bm_mlr_class {
	BM_MLR_UNDECIDED = 0,	/* §4.7.2.3 */
	BM_MLR_LOWER,		/* §4.7.2.2 Lower Bound */
	BM_MLR_UPPER,		/* §4.7.2.1 Upper Bound */
};

/* Load Classification Logic (§6.1) of one Load, every temporary value
 * of the RFC's tables in Appendix C with it. */
struct bm_mlr_classification {
	double full_high_s, full_low_s, short_high_s, short_low_s;
	double balancing_s, excess_s, positive_excess_s;
	double effect_high_s, effect_full_s, effect_whole_s, missing_s;
	double pessimistic_high_s;
	double optimistic_exceed_ratio, pessimistic_exceed_ratio;
	enum bm_mlr_class cls;
};

/* Check g; 0, or -EINVAL with a one-line reason naming the RFC term. */
int bm_mlr_goal_check(const struct bm_mlr_goal *g, char *why, size_t len);

/* Classify the Load whose Trial Results are t[0..n) against g (n may be
 * 0: an unmeasured Load is Undecided). */
void bm_mlr_classify(const struct bm_mlr_goal *g, const struct bm_mlr_trial *t,
		     size_t n, struct bm_mlr_classification *c);

/* The Conditional Throughput (Appendix B) at load_fps from its Trial
 * Results t[0..n), n >= 1, in the unit of load_fps. */
double bm_mlr_conditional_throughput(const struct bm_mlr_goal *g,
				     double load_fps,
				     const struct bm_mlr_trial *t, size_t n);

/* The Trial Results at one Load. */
struct bm_mlr_load {
	double load_fps;
	const struct bm_mlr_trial *t;
	size_t n;
};

/* A Goal Result (§4.8.4): the relevant bounds (§4.8.1, §4.8.2), the
 * Conditional Throughput at the lower one, and whether it is regular. */
struct bm_mlr_goal_result {
	bool has_upper, has_lower;
	double upper_fps, lower_fps;
	double conditional_throughput_fps;	/* with has_lower */
	/* §4.8.4.1: both bounds, no further apart than the Goal Width */
	bool regular;
	/* §4.8.4.2: no Upper Bound and a Lower Bound at max_load, the
	 * "effective" Relevant Lower Bound an irregular result may show */
	bool lower_is_max_load;
};

/* The Goal Result of g over the measured loads l[0..n) (any order), with
 * the search's max_load_fps. */
void bm_mlr_goal_result(const struct bm_mlr_goal *g,
			const struct bm_mlr_load *l, size_t n,
			double max_load_fps, struct bm_mlr_goal_result *r);

#endif /* BM_MLR_GOAL_H */

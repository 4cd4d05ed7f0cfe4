// SPDX-License-Identifier: GPL-2.0
/*
 * The RFC 9971 Controller (§4.9.2): load selection for a list of Search
 * Goals.  The RFC fixes what a bound is (bm_mlr_goal.c) and leaves the
 * choice of loads and durations to the implementation.  Two selections
 * share the measurement (mlr9971_measure.c) and the Goal Results: the
 * CSIT-identical one (mlr9971_csit.c, input.selection csit) and bmgen's,
 * here, the default:
 *
 * Targets.  Each goal is searched as a short chain of targets, the
 * coarsest first (preceding_targets of them, as CSIT does): target k
 * has the goal's loss and exceed ratios, 2^k times its width, trials of
 * a duration geometric between the Goal Initial and Final Trial
 * Duration, and a duration sum of one such trial (so one trial decides a
 * load); target 0 is the goal itself.  Every target classifies every
 * load on all the trials so far, of every goal.
 *
 * Selection for a target.  A load is decided (Lower or Upper Bound) by
 * Appendix A; an undecided one leans by its trials so far: upper when
 * its high-loss durations exceed the Goal Exceed Ratio of all of them.
 * PU is the smallest load that is or leans upper, PL the largest below
 * it that is or leans lower.  Then, in order:
 *   - nothing measured: Max Load;
 *   - PU and PL no wider than the width: measure whichever is undecided,
 *     PU first, with the target's trial duration, until both are bounds;
 *   - no PL: the forwarding rate at PU (its first trial's frames
 *     received per second) the first time (RFC 2544's "a loss tells
 *     the rate the DUT forwarded"), else where the loss line
 *     (through the loss ratios of the two smallest loads that lean
 *     upper) meets the Goal Loss Ratio, else below PU by the goal's own
 *     width, doubled on every further step from the same PU (a coarse
 *     target starts as fine as its goal: the forwarding rate is often
 *     that close), at least Min Load;
 *   - no PU: above PL the same way, at most Max Load;
 *   - PL is the load the loss line predicted (for this goal, in any of
 *     its targets) and PU more than two goal widths above it: one goal
 *     width above PL (the bound is most often that close to the line:
 *     an upper outcome ends the goal, not just a coarse target);
 *   - when no load leaves both within the width of it: where the loss
 *     line meets the goal if that is above PL, else above PL by the
 *     width doubled on every such step (PL is most often an overload's
 *     forwarding rate, the bound just above it), or the geometric
 *     middle when that is lower;
 *   - else such a load: one width above PL when PL is a Lower Bound
 *     already and PU no Upper Bound (the decided bound is kept: an
 *     upper outcome ends the target), one width below PU the other way
 *     round, else the middle of the loads that would do.
 * A load on the loss line starts any doubling over from the goal's
 * width: the bound is most likely near it.  A target is done when its
 * relevant bounds are within its width, or Max Load is a Lower Bound,
 * or Min Load an Upper Bound.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bm_mlr9971.h"
#include "mlr9971_int.h"

#define MAX_TARGETS	5
/* Goals the csit selection's load scale fits at once */
#define MAX_CSIT_GOALS	16
/* Exploration trials a target may take before it converges: twice the
 * doublings from a 0.1 % width across nine decades of load */
#define R9971_EXPLORE	64

void bm_mlr9971_input_default(struct bm_mlr9971_input *in)
{
	memset(in, 0, sizeof(*in));
	in->preceding_targets = 2;
	in->attempt_tolerance_s = 10e-6;
	in->expansion_coefficient = 2;
}

/* What the CSIT selection needs beyond the common input, as FD.io CSIT's
 * MLRsearch (commit 78e52b9c8a) checks its goals: a coefficient >= 2,
 * no goal twice, and a preceding target when one initial trial cannot
 * decide a load. */
static int csit_input_check(const struct bm_mlr9971_input *in,
			    struct bm_error *err)
{
	const struct bm_mlr_goal *g;
	size_t i, j;

	if (in->expansion_coefficient < 2 || in->expansion_coefficient > 1024)
		return bm_errorf(err, "expansion_coefficient %u: 2 to 1024",
				 in->expansion_coefficient);
	if (in->n_goals > MAX_CSIT_GOALS)
		return bm_errorf(err, "the csit selection takes at most %d "
				 "goals", MAX_CSIT_GOALS);
	for (i = 0; i < in->n_goals; i++) {
		g = &in->goals[i];
		for (j = 0; j < i; j++)
			if (!memcmp(g, &in->goals[j], sizeof(*g)))
				return bm_errorf(err, "goal %zu: the same as "
						 "goal %zu (the csit selection "
						 "refuses it as CSIT does)",
						 i + 1, j + 1);
		if (!in->preceding_targets &&
		    (g->initial_trial_s > 0 ? g->initial_trial_s :
					      g->final_trial_s) <
		    g->duration_sum_s)
			return bm_errorf(err, "goal %zu: the csit selection "
					 "needs preceding_targets >= 1 when "
					 "the Goal Initial Trial Duration is "
					 "below the Goal Duration Sum", i + 1);
	}
	return 0;
}

int bm_mlr9971_input_check(const struct bm_mlr9971_input *in,
			   struct bm_error *err)
{
	char why[128];
	size_t i;

	if (!in->n_goals || !in->goals)
		return bm_errorf(err, "no Search Goal");
	for (i = 0; i < in->n_goals; i++) {
		if (bm_mlr_goal_check(&in->goals[i], why, sizeof(why)))
			return bm_errorf(err, "goal %zu: %s", i + 1,
					 why);
		if (!(in->goals[i].width > 0))
			return bm_errorf(err, "goal %zu: a Goal "
					 "Width is needed (bmgen's stopping "
					 "condition, RFC 9971 §4.6.5)", i + 1);
	}
	if (!(in->min_load_fps > 0) || !(in->max_load_fps > in->min_load_fps) ||
	    !isfinite(in->max_load_fps))
		return bm_errorf(err, "Min Load %g and Max Load %g: "
				 "0 < min < max", in->min_load_fps,
				 in->max_load_fps);
	if (in->preceding_targets > MAX_TARGETS - 1)
		return bm_errorf(err, "preceding_targets %u: at "
				 "most %d", in->preceding_targets,
				 MAX_TARGETS - 1);
	if (!(in->max_search_s >= 0) || !(in->attempt_tolerance_s >= 0))
		return bm_errorf(err, "max_search_s and "
				 "attempt_tolerance_s must be >= 0");
	if (in->selection == BM_MLR9971_SEL_CSIT)
		return csit_input_check(in, err);
	if (in->selection != BM_MLR9971_SEL_BMGEN)
		return bm_errorf(err, "selection %d: unknown",
				 (int)in->selection);
	return 0;
}

/* Target k (0 = the goal) of goal g with p preceding targets. */
static struct bm_mlr_goal target_of(const struct bm_mlr_goal *g,
				    unsigned int k, unsigned int p)
{
	struct bm_mlr_goal t = *g;
	double init = g->initial_trial_s > 0 ? g->initial_trial_s :
					       g->final_trial_s;

	if (!k)
		return t;
	t.width = g->width * ldexp(1.0, (int)k);
	/* k = p: the initial duration; k = 0 would be the final one */
	t.final_trial_s = init * pow(g->final_trial_s / init,
				     (double)(p - k) / (double)p);
	t.duration_sum_s = t.final_trial_s;
	return t;
}

/* Load l's leaning for target g when Appendix A leaves it undecided:
 * upper when its high-loss durations exceed g's exceed ratio of all. */
static enum bm_mlr_class lean(const struct bm_mlr_goal *g,
			      const struct r9971_load *l)
{
	struct bm_mlr_classification k;
	double hi, all;

	bm_mlr_classify(g, l->t, l->n, &k);
	if (k.cls != BM_MLR_UNDECIDED)
		return k.cls;
	hi = k.full_high_s + k.short_high_s;
	all = hi + k.full_low_s + k.short_low_s;
	return hi > g->exceed_ratio * all ? BM_MLR_UPPER : BM_MLR_LOWER;
}

/* The decided (cls) and leaning (PU, PL) bounds of target g. */
struct picture {
	const struct r9971_load *pu, *pl;
	enum bm_mlr_class pu_cls, pl_cls;
};

static void look(struct r9971_ctl *c, const struct bm_mlr_goal *g,
		 struct picture *p)
{
	struct bm_mlr_classification k;
	size_t i;

	memset(p, 0, sizeof(*p));
	for (i = 0; i < c->n; i++)
		if (lean(g, &c->v[i]) == BM_MLR_UPPER &&
		    (!p->pu || c->v[i].load < p->pu->load))
			p->pu = &c->v[i];
	for (i = 0; i < c->n; i++)
		if ((!p->pu || c->v[i].load < p->pu->load) &&
		    lean(g, &c->v[i]) == BM_MLR_LOWER &&
		    (!p->pl || c->v[i].load > p->pl->load))
			p->pl = &c->v[i];
	if (p->pu) {
		bm_mlr_classify(g, p->pu->t, p->pu->n, &k);
		p->pu_cls = k.cls;
	}
	if (p->pl) {
		bm_mlr_classify(g, p->pl->t, p->pl->n, &k);
		p->pl_cls = k.cls;
	}
}

/* Is target g done: its Goal Result regular, or Max Load a Lower
 * Bound with no Upper Bound, or Min Load an Upper Bound (then the
 * smallest one: no load is below Min Load). */
static bool target_done(struct r9971_ctl *c, const struct bm_mlr_goal *g)
{
	struct bm_mlr_goal_result r;

	if (r9971_goal_result(c, g, &r))
		return true;	/* the next trial's allocation reports it */
	return r.regular || r.lower_is_max_load ||
	       (r.has_upper && r.upper_fps <= c->in->min_load_fps);
}

/* A width w a hair narrower: a load that far from a bound is within w
 * of it whatever the rounding of the products. */
static double inside(double w)
{
	return w * (1.0 - 1e-9);
}

/*
 * Where the loss ratio of the two smallest loads that lean upper for g,
 * drawn as a line, reaches g's Goal Loss Ratio: a load whose loss grows
 * with the load (most that lose some frames below their capacity do)
 * has its bound there.  0 when there is no such line or its point is
 * not at least the width w0 below the smaller load and above floor.
 */
static double predict(const struct r9971_ctl *c, const struct bm_mlr_goal *g,
		      double w0, double floor)
{
	const struct r9971_load *a = NULL, *b = NULL;
	double ra, rb, x;
	size_t i;

	for (i = 0; i < c->n; i++) {
		const struct r9971_load *l = &c->v[i];

		if (lean(g, l) != BM_MLR_UPPER)
			continue;
		if (!a || l->load < a->load) {
			b = a;
			a = l;
		} else if (!b || l->load < b->load) {
			b = l;
		}
	}
	if (!a || !b)
		return 0;
	ra = a->t[0].loss_ratio;
	rb = b->t[0].loss_ratio;
	/* a slope of a few lost frames is their rounding, not a line */
	if (!(rb - ra > 20 * fmax(a->first_frame, b->first_frame)) ||
	    rb > 0.5)
		return 0;
	x = a->load - (ra - g->loss_ratio) * (b->load - a->load) / (rb - ra);
	return x > floor && x > a->load / 2 &&
	       x < a->load * (1.0 - inside(w0)) ? x : 0;
}

/* The width of expansion step *steps in direction dir (-1 down, +1 up):
 * the goal's width w0 first (the bound is often that close), then the
 * target's w doubled on every further step in one direction; back to w0
 * when the direction changes. */
static double expand_width(struct r9971_ctl *c, int dir, double w0, double w,
			   unsigned int *steps)
{
	if (c->dir != dir)
		*steps = 0;
	c->dir = dir;
	if (!(*steps)++)
		return inside(w0);
	return inside(fmin(0.5, fmax(w0, w) * ldexp(1.0, (int)*steps - 2)));
}

/* x, the load where the loss line meets goal g: the bound is most
 * likely within the goal's width of it, so the next step there, either
 * way, is one goal width (the expansion starts over). */
static double predicted(struct r9971_ctl *c, double x, const char **why)
{
	c->dir = 0;
	c->near = x;
	*why = "where the loss line meets the goal";
	return x;
}

/* The next load for target g when only PU or only PL is known. */
static double next_one_sided(struct r9971_ctl *c, const struct bm_mlr_goal *g,
			     const struct picture *p, double w0,
			     unsigned int *steps, const char **why)
{
	const struct bm_mlr9971_input *in = c->in;
	double w = g->width, x;

	if (!p->pu) {
		if (p->pl->load >= in->max_load_fps)
			return *why = "confirm Max Load", p->pl->load;
		x = p->pl->load / (1.0 - expand_width(c, 1, w0, w, steps));
		return *why = "expand up", fmin(x, in->max_load_fps);
	}
	if (p->pu->load <= in->min_load_fps)
		return *why = "confirm Min Load", p->pu->load;
	if (c->dir != -1 && p->pu->first_fr > 0 &&
	    p->pu->first_fr < p->pu->load * (1.0 - inside(w0))) {
		/* the first step down only: the next from there */
		c->dir = -1;
		*steps = 0;
		x = p->pu->first_fr;
		*why = "forwarding rate at the upper bound";
	} else if ((x = predict(c, g, w0, in->min_load_fps)) > 0) {
		predicted(c, x, why);
	} else {
		x = p->pu->load * (1.0 - expand_width(c, -1, w0, w, steps));
		*why = "expand down";
	}
	return fmax(x, in->min_load_fps);
}

/* The next load for target g between PL and PU wider than its width;
 * not inside (PL, PU) when there is no room between them. */
static double next_between(struct r9971_ctl *c, const struct bm_mlr_goal *g,
			   const struct picture *p, double w0,
			   unsigned int *steps, const char **why)
{
	double w = g->width, x, lo_x, hi_x;

	/* a load in [lo_x, hi_x] leaves PL and PU within the width of
	 * it whichever bound it turns out to be */
	lo_x = p->pu->load - p->pu->load * inside(w);
	hi_x = p->pl->load / (1.0 - inside(w));
	x = p->pl->load / (1.0 - inside(w0));
	if (c->near == p->pl->load &&
	    x < p->pu->load * (1.0 - inside(w0))) {
		/* the predicted load was lower: one goal width above it
		 * ends the goal when it is upper, whatever the target */
		c->near = 0;
		*why = "one goal width above the predicted load";
	} else if (lo_x > hi_x && (x = predict(c, g, w0, hi_x)) > 0) {
		predicted(c, x, why);
	} else if (lo_x > hi_x) {
		/* the lower bound is most often the forwarding rate that
		 * an overload showed: look just above it first, then
		 * further, before halving the whole interval */
		x = p->pl->load / (1.0 - expand_width(c, 1, w0, w, steps));
		*why = "expand up";
		if (x >= sqrt(p->pu->load * p->pl->load)) {
			x = sqrt(p->pu->load * p->pl->load);
			*why = "bisect";
		}
	} else if (p->pl_cls == BM_MLR_LOWER && p->pu_cls != BM_MLR_UPPER) {
		/* keep the bound already paid for */
		x = hi_x;
		*why = "one width above a lower bound";
	} else if (p->pu_cls == BM_MLR_UPPER && p->pl_cls != BM_MLR_LOWER) {
		x = lo_x;
		*why = "one width below an upper bound";
	} else {
		x = sqrt(lo_x * hi_x);
		*why = "between the bounds";
	}
	return x;
}

/* The next load for target g (see the head of this file); 0 = none
 * left to try (the target is as done as it can be). */
static double next_load(struct r9971_ctl *c, const struct bm_mlr_goal *g,
			double w0, unsigned int *steps, const char **why)
{
	struct picture p;
	double x;

	look(c, g, &p);
	if (!p.pu && !p.pl)
		return *why = "Max Load", c->in->max_load_fps;
	if (p.pu && p.pl && p.pu->load - p.pl->load <= g->width * p.pu->load) {
		c->dir = 0;
		if (p.pu_cls == BM_MLR_UNDECIDED)
			return *why = "confirm upper", p.pu->load;
		if (p.pl_cls == BM_MLR_UNDECIDED)
			return *why = "confirm lower", p.pl->load;
		return 0;
	}
	if (!p.pu || !p.pl)
		return next_one_sided(c, g, &p, w0, steps, why);
	x = next_between(c, g, &p, w0, steps, why);
	if (x > p.pl->load && x < p.pu->load)
		return x;
	/* no room between them: decide what is undecided */
	if (p.pu_cls == BM_MLR_UNDECIDED)
		return *why = "confirm upper", p.pu->load;
	if (p.pl_cls == BM_MLR_UNDECIDED)
		return *why = "confirm lower", p.pl->load;
	return 0;
}

/* Search target k of goal gi until it is done; 0 or -errno. */
static int run_target(struct r9971_ctl *c, size_t gi, unsigned int k)
{
	struct bm_mlr_goal g = target_of(&c->in->goals[gi], k,
					 c->in->preceding_targets);
	unsigned int steps = 0;
	const char *why = "";
	double x;
	int ret;

	c->dir = 0;
	if (k == c->in->preceding_targets)
		c->near = 0;	/* a prediction is for its goal's ratio */
	if (k)
		snprintf(c->phase, sizeof(c->phase), "goal-%u-coarse-%u",
			 (unsigned int)(gi + 1) % 1000, k % 10);
	else
		snprintf(c->phase, sizeof(c->phase), "goal-%u",
			 (unsigned int)(gi + 1) % 1000);
	while (!target_done(c, &g)) {
		x = next_load(c, &g, c->in->goals[gi].width, &steps, &why);
		if (!(x > 0))
			return 0;
		ret = r9971_measure(c, x, g.final_trial_s, why, NULL);
		if (ret)
			return ret;
	}
	return 0;
}

/* The Search Result of the trials so far; 0 or -ENOMEM. */
static int fill_results(struct r9971_ctl *c)
{
	struct bm_mlr9971_result *res = c->res;
	size_t i;

	res->goals = calloc(c->in->n_goals, sizeof(*res->goals));
	if (!res->goals)
		return -ENOMEM;
	res->n_goals = c->in->n_goals;
	for (i = 0; i < c->in->n_goals; i++)
		if (r9971_goal_result(c, &c->in->goals[i], &res->goals[i]))
			return -ENOMEM;
	return 0;
}

int bm_mlr9971_search(const struct bm_measurer *m,
		      const struct bm_mlr9971_input *in,
		      struct bm_mlr9971_result *res, bm_progress_fn progress,
		      void *ctx, struct bm_error *err)
{
	struct r9971_ctl c = { .m = m, .in = in, .res = res,
			       .progress = progress, .ctx = ctx, .err = err };
	unsigned int k;
	size_t gi, i;
	int ret = 0;

	memset(res, 0, sizeof(*res));
	ret = bm_mlr9971_input_check(in, err);
	if (ret) {
		char why[sizeof(err->msg)];

		snprintf(why, sizeof(why), "%s", err->msg);
		return bm_errorf(err, "mlrsearch: %s", why);
	}
	c.start_s = m->be->elapsed_s;
	if (in->selection == BM_MLR9971_SEL_CSIT)
		ret = r9971_csit_select(&c);
	for (gi = 0; in->selection == BM_MLR9971_SEL_BMGEN && !ret &&
	     gi < in->n_goals; gi++)
		for (k = in->preceding_targets + 1; !ret && k-- > 0;)
			ret = run_target(&c, gi, k);
	res->search_time_s = m->be->elapsed_s - c.start_s;
	if (fill_results(&c) && !ret) {
		bm_errorf(err, "mlrsearch: out of memory");
		ret = -ENOMEM;
	}
	for (i = 0; i < c.n; i++)
		free(c.v[i].t);
	free(c.v);
	return ret;
}

double bm_mlr9971_max_trials(const struct bm_mlr9971_input *in)
{
	double n = 0, shortest = INFINITY, init;
	size_t i;

	for (i = 0; i < in->n_goals; i++) {
		const struct bm_mlr_goal *g = &in->goals[i];

		/* measurements, each with its repeats */
		n += (R9971_REPEATS + 1.0) *
		     ((in->preceding_targets + 1.0) * R9971_EXPLORE +
		      4.0 * (ceil(g->duration_sum_s / g->final_trial_s) + 1));
		init = g->initial_trial_s > 0 ? g->initial_trial_s :
						g->final_trial_s;
		shortest = fmin(shortest, init);
	}
	if (in->max_search_s > 0)
		n = fmin(n, ceil(in->max_search_s / shortest) + 1);
	return n;
}

void bm_mlr9971_result_free(struct bm_mlr9971_result *res)
{
	free(res->goals);
	free(res->loss_ratios);
	bm_trial_log_free(&res->log);
	memset(res, 0, sizeof(*res));
}

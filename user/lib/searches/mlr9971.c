// SPDX-License-Identifier: GPL-2.0
/*
 * The RFC 9971 Controller (§4.9.2): load selection for a list of Search
 * Goals.  The RFC fixes what a bound is (bm_mlr_goal.c) and leaves the
 * choice of loads and durations to the implementation; bmgen's:
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
#include "mlrsearch_int.h"

#define MAX_TARGETS	5
#define MAX_TRIALS	100000
/* Attempts after one the generator could not offer in full (measure) */
#define R9971_REPEATS	2
/* Exploration trials a target may take before it converges: twice the
 * doublings from a 0.1 % width across nine decades of load */
#define R9971_EXPLORE	64

struct m_load {
	double load;
	struct bm_mlr_trial *t;
	size_t n, cap;
	double first_fr;	/* forwarding rate of its first trial */
	double first_frame;	/* the loss ratio one frame made in it */
};

/* One attempt's outcome: its Trial Result, the forwarding rate (frames
 * received per second of the trial, per direction), the loss ratio one
 * frame makes, and whether the generator could not offer the load. */
struct attempt {
	struct bm_mlr_trial t;
	double fwd_fps;
	double frame;
	bool short_gen;
};

struct ctl {
	const struct bm_measurer *m;
	const struct bm_mlr9971_input *in;
	struct bm_mlr9971_result *res;
	bm_progress_fn progress;
	void *ctx;
	struct bm_error *err;
	struct m_load *v;
	size_t n, cap;
	double start_s;
	char phase[32];
	int dir;			/* the expansion going on: -1 down,
					 * +1 up, 0 none */
	double near;			/* the load the loss line predicted,
					 * until a step is taken from it */
};

void bm_mlr9971_input_default(struct bm_mlr9971_input *in)
{
	memset(in, 0, sizeof(*in));
	in->preceding_targets = 2;
	in->attempt_tolerance_s = 10e-6;
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

static struct m_load *find_load(struct ctl *c, double load)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		if (c->v[i].load == load)
			return &c->v[i];
	return NULL;
}

/* Add attempt a's trial at load; 0 or -ENOMEM. */
static int db_add(struct ctl *c, double load, const struct attempt *a)
{
	struct m_load *l = find_load(c, load);
	void *p;

	if (!l) {
		if (c->n == c->cap) {
			p = realloc(c->v, (c->cap ? 2 * c->cap : 32) *
					  sizeof(*c->v));
			if (!p)
				return -ENOMEM;
			c->v = p;
			c->cap = c->cap ? 2 * c->cap : 32;
		}
		l = &c->v[c->n++];
		memset(l, 0, sizeof(*l));
		l->load = load;
		l->first_fr = fmin(load, a->fwd_fps);
		l->first_frame = a->frame;
	}
	if (l->n == l->cap) {
		p = realloc(l->t, (l->cap ? 2 * l->cap : 4) * sizeof(*l->t));
		if (!p)
			return -ENOMEM;
		l->t = p;
		l->cap = l->cap ? 2 * l->cap : 4;
	}
	l->t[l->n++] = a->t;
	return 0;
}

/* One trial at load for dur, logged with why and reported; its outcome
 * in *a.  0 or -errno. */
static int one_trial(struct ctl *c, double load, double dur, const char *why,
		     struct attempt *a)
{
	struct bm_mlr9971_result *res = c->res;
	struct bm_trial_spec spec;
	struct bm_trial_result tr;
	uint64_t beyond;
	char line[160];
	int ret;

	if (c->in->max_search_s > 0 &&
	    c->m->be->elapsed_s - c->start_s >= c->in->max_search_s) {
		res->timed_out = true;
		return bm_errorf(c->err, "mlrsearch: %.1f s spent, the limit "
				 "max_search_s", c->in->max_search_s),
		       -ETIMEDOUT;
	}
	if (res->log.n >= MAX_TRIALS)
		return bm_errorf(c->err, "mlrsearch: internal error: %d "
				 "trials and not converging", MAX_TRIALS),
		       -EPROTO;
	ret = bm_measure(c->m, dur, load, &spec, &tr, c->err);
	if (ret)
		return ret;
	/* §4.5.6 from the counts as MLR-MEAS accounts them: frames the
	 * generator did not send count as lost (§4.9.1's recommendation) */
	a->t.duration_s = a->t.effective_s = dur;
	a->t.loss_ratio = mlr_trial_loss_ratio(load * c->m->directions, dur,
					       &tr, c->in->attempt_tolerance_s,
					       &beyond);
	a->frame = mlr_trial_frame_ratio(load * c->m->directions, dur, &tr,
					 c->in->attempt_tolerance_s);
	/* counted, not load * (1 - loss ratio): that product's rounding
	 * can put the next load a few ulps above what was forwarded */
	a->fwd_fps = (double)tr.received / (dur * c->m->directions);
	a->short_gen = beyond || tr.generator_limited;
	res->trial_time_s += dur;
	ret = bm_trial_log_add(&res->log, c->phase, why, &spec, &tr);
	if (!ret)
		ret = mlr_push_ratio(&res->loss_ratios, res->log.n,
				     a->t.loss_ratio);
	if (ret)
		return bm_errorf(c->err, "mlrsearch: out of memory"), -ENOMEM;
	if (c->progress) {
		snprintf(line, sizeof(line), "%s: %.0f fps for %g s: loss "
			 "ratio %.4g", c->phase, load, dur, a->t.loss_ratio);
		if (c->progress(c->ctx, &res->log.v[res->log.n - 1], line))
			return bm_errorf(c->err, "mlrsearch: cancelled after "
					 "%zu trials", res->log.n),
			       -ECANCELED;
	}
	return 0;
}

/*
 * A measurement at load for dur: a trial the generator could not offer
 * in full (a stalled host, a load above what it can send) is repeated,
 * at most R9971_REPEATS times, every attempt logged, and only the last
 * counts at the load: its shortfall is the generator's, not the DUT's,
 * and one stall must not make a bound.  One that stays short counts with
 * its unsent frames lost (§4.9.1) and generator_limited_trials says so.
 * 0 or -errno.
 */
static int measure(struct ctl *c, double load, double dur, const char *why)
{
	struct attempt a;
	unsigned int n;
	int ret;

	for (n = 0;; n++) {
		ret = one_trial(c, load, dur, n ? "repeat: the generator "
				"could not offer the load" : why, &a);
		if (ret)
			return ret;
		if (!a.short_gen || n == R9971_REPEATS)
			break;
		c->res->repeated_trials++;
	}
	if (a.short_gen)
		c->res->generator_limited_trials++;
	if (db_add(c, load, &a))
		return bm_errorf(c->err, "mlrsearch: out of memory"), -ENOMEM;
	return 0;
}

/* Load l's leaning for target g when Appendix A leaves it undecided:
 * upper when its high-loss durations exceed g's exceed ratio of all. */
static enum bm_mlr_class lean(const struct bm_mlr_goal *g,
			      const struct m_load *l)
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
	const struct m_load *pu, *pl;
	enum bm_mlr_class pu_cls, pl_cls;
};

static void look(struct ctl *c, const struct bm_mlr_goal *g,
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

/* The Goal Result of g over every load measured so far; 0 or -ENOMEM. */
static int goal_result_of(const struct ctl *c, const struct bm_mlr_goal *g,
			  struct bm_mlr_goal_result *r)
{
	struct bm_mlr_load *l = calloc(c->n ? c->n : 1, sizeof(*l));
	size_t i;

	if (!l)
		return -ENOMEM;
	for (i = 0; i < c->n; i++)
		l[i] = (struct bm_mlr_load){ c->v[i].load, c->v[i].t,
					     c->v[i].n };
	bm_mlr_goal_result(g, l, c->n, c->in->max_load_fps, r);
	free(l);
	return 0;
}

/* Is target g done: its Goal Result regular, or Max Load a Lower
 * Bound with no Upper Bound, or Min Load an Upper Bound (then the
 * smallest one: no load is below Min Load). */
static bool target_done(struct ctl *c, const struct bm_mlr_goal *g)
{
	struct bm_mlr_goal_result r;

	if (goal_result_of(c, g, &r))
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
static double predict(const struct ctl *c, const struct bm_mlr_goal *g,
		      double w0, double floor)
{
	const struct m_load *a = NULL, *b = NULL;
	double ra, rb, x;
	size_t i;

	for (i = 0; i < c->n; i++) {
		const struct m_load *l = &c->v[i];

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
static double expand_width(struct ctl *c, int dir, double w0, double w,
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
static double predicted(struct ctl *c, double x, const char **why)
{
	c->dir = 0;
	c->near = x;
	*why = "where the loss line meets the goal";
	return x;
}

/* The next load for target g when only PU or only PL is known. */
static double next_one_sided(struct ctl *c, const struct bm_mlr_goal *g,
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
static double next_between(struct ctl *c, const struct bm_mlr_goal *g,
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
static double next_load(struct ctl *c, const struct bm_mlr_goal *g,
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
static int run_target(struct ctl *c, size_t gi, unsigned int k)
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
		ret = measure(c, x, g.final_trial_s, why);
		if (ret)
			return ret;
	}
	return 0;
}

/* The Search Result of the trials so far; 0 or -ENOMEM. */
static int fill_results(struct ctl *c)
{
	struct bm_mlr9971_result *res = c->res;
	size_t i;

	res->goals = calloc(c->in->n_goals, sizeof(*res->goals));
	if (!res->goals)
		return -ENOMEM;
	res->n_goals = c->in->n_goals;
	for (i = 0; i < c->in->n_goals; i++)
		if (goal_result_of(c, &c->in->goals[i], &res->goals[i]))
			return -ENOMEM;
	return 0;
}

int bm_mlr9971_search(const struct bm_measurer *m,
		      const struct bm_mlr9971_input *in,
		      struct bm_mlr9971_result *res, bm_progress_fn progress,
		      void *ctx, struct bm_error *err)
{
	struct ctl c = { m, in, res, progress, ctx, err, NULL, 0, 0, 0, "",
			 0, 0 };
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
	for (gi = 0; !ret && gi < in->n_goals; gi++)
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

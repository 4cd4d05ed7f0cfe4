// SPDX-License-Identifier: GPL-2.0
/*
 * The CSIT-identical load selection of the RFC 9971 Controller (§4.9.2
 * leaves the selection to the implementation): given the same Trial
 * Results it measures the same (duration, load) sequence as FD.io
 * CSIT's MLRsearch (commit 78e52b9c8a), and so reaches the same Goal
 * Results.  Re-implemented from its behaviour, in bmgen's structure:
 *
 * Targets.  Each goal is a chain of targets, the coarsest first: its
 * preceding_targets coarser ones, each twice as wide (in load steps) as
 * the next, their duration sums geometric from the Goal Duration Sum
 * down to the Goal Initial Trial Duration (the coarsest's), their trial
 * durations those sums capped at the Goal Final Trial Duration; every
 * target classifies every load on all trials so far (§4.7.2 with the
 * target's duration sum and trial duration as the goal's).
 *
 * Loads.  Discrete (mlr9971_csit_load.h): every load and width is an integer
 * on a log scale between Min and Max Load.
 *
 * Initial trials.  Max Load, then its forwarding rate raised by the
 * smallest Goal Loss Ratio, then either the same from that one or one
 * width above it, with the longest initial duration and widest initial
 * width; what they leave is the first interval and the global width.
 *
 * Then one selector per goal nominates (load, duration, width) by the
 * first strategy of its current target that has one: halve the first
 * interval when it is one to two widths, re-measure its lower then upper
 * end, extend down from an upper bound with no lower one, up from a
 * lower bound with no upper one, and inside a bracket prefer extending
 * from the nearer first-interval end over the uneven bisection.  A
 * target that nominates nothing hands its bounds to the next finer
 * target as that one's first interval.  The extensions step by the
 * targeted expander's width, multiplied by the expansion coefficient
 * after each extension that came out the same way, and by the global
 * width (the winner's) when that is wider.  The smallest load wins,
 * then the longer duration, the wider width, the earlier goal.  The
 * search ends when no selector nominates.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlr9971_csit_strategy.h"
#include "mlr9971_int.h"

static const char *const strategy_why[CSIT_N] = {
	"csit: halve the first interval", "csit: refine its lower end",
	"csit: refine its upper end", "csit: extend down",
	"csit: extend up", "csit: bisect",
};

struct cand {
	struct csit_load load;
	double dur;
	bool has_width;
	int64_t width;
	struct csit_selector *sel;
};

/* The targets of every goal: the duration sums geometric from the Goal
 * Duration Sum to the Initial Trial Duration, the widths doubling. */
static void make_targets(struct csit_search *cs)
{
	const struct bm_mlr9971_input *in = cs->c->in;
	unsigned int p = in->preceding_targets, gi, k;
	double init, mult, sum;

	for (gi = 0; gi < in->n_goals; gi++) {
		const struct bm_mlr_goal *g = &in->goals[gi];
		struct csit_target *t = &cs->t[gi * cs->levels];

		init = g->initial_trial_s > 0 ? g->initial_trial_s :
						g->final_trial_s;
		t[0].g = *g;
		t[0].width = csit_width(&cs->s, g->width);
		t[0].fail_fast = in->fail_fast;
		mult = p ? pow(init / g->duration_sum_s, 1.0 / p) : 1.0;
		for (k = 1; k <= p; k++) {
			sum = g->duration_sum_s * pow(mult, (double)k);
			if (k >= p)
				sum = init;
			t[k].g = *g;
			t[k].g.duration_sum_s = sum;
			t[k].g.final_trial_s = g->final_trial_s < sum ?
					       g->final_trial_s : sum;
			t[k].width = t[k - 1].width * 2;
			t[k].fail_fast = false;
		}
	}
}

/* The class of load l for target t: §4.7.2 in CSIT's expression order
 * (the short trials' good time discounted before the excess). */
static enum bm_mlr_class classify(const struct csit_target *t,
				  const struct r9971_load *l)
{
	double gl = 0, bl = 0, gs = 0, bs = 0, er = t->g.exceed_ratio;
	double decrease, excess, sum, limit;
	bool bad, opt, pes;
	size_t i;

	for (i = 0; i < l->n; i++) {
		bad = l->t[i].loss_ratio > t->g.loss_ratio;
		if (l->t[i].duration_s >= t->g.final_trial_s)
			*(bad ? &bl : &gl) += l->t[i].effective_s;
		else
			*(bad ? &bs : &gs) += l->t[i].effective_s;
	}
	decrease = gs * er / (1.0 - er);
	excess = bs - decrease;
	excess = bl + (excess > 0.0 ? excess : 0.0);
	sum = gl + excess;
	if (t->g.duration_sum_s > sum)
		sum = t->g.duration_sum_s;
	limit = sum * er;
	opt = excess <= limit;
	pes = sum - gl <= limit;
	return opt != pes ? BM_MLR_UNDECIDED : opt ? BM_MLR_LOWER :
						     BM_MLR_UPPER;
}

/* The relevant bounds of target t (§4.8.1, §4.8.2). */
static void bounds_of(const struct csit_search *cs, const struct csit_target *t,
		      struct csit_bounds *b)
{
	const struct r9971_load *l;
	enum bm_mlr_class k;
	size_t j;

	*b = (struct csit_bounds){ CSIT_NONE, CSIT_NONE };
	for (j = 0; j < cs->n_known; j++) {
		l = &cs->c->v[cs->order[j]];
		k = classify(t, l);
		if (k == BM_MLR_UNDECIDED)
			continue;
		if (k == BM_MLR_UPPER) {
			b->chi = (struct csit_load){ cs->ints[cs->order[j]],
						     l->load };
			break;
		}
		b->clo = (struct csit_load){ cs->ints[cs->order[j]], l->load };
	}
}

/* Selector sel's candidate; a target with nothing to nominate hands its
 * bounds to the next finer one.  0, -ERANGE (fail_fast: Min Load an
 * Upper Bound of the goal) or -EPROTO (CSIT's internal errors). */
static int nominate(struct csit_search *cs, struct csit_selector *sel,
		    struct cand *cd)
{
	const struct csit_target *t;
	enum csit_strategy k;
	int ret;

	for (;;) {
		t = csit_target_of(cs, sel);
		bounds_of(cs, t, &sel->b);
		*cd = (struct cand){ CSIT_NONE, t->g.final_trial_s, false, 0,
				     sel };
		for (k = 0; k < CSIT_N; k++) {
			ret = csit_nominate_by(cs, sel, k, &cd->load,
					       &cd->width);
			if (ret)
				return ret;
			if (csit_has(cd->load)) {
				sel->won_by = k;
				cd->has_width = true;
				return 0;
			}
		}
		if (!csit_has(sel->b.clo) && !csit_has(sel->b.chi))
			return -EPROTO;
		if (!sel->level) {
			if (!csit_has(sel->b.clo) && t->fail_fast)
				return -ERANGE;
			return 0;
		}
		sel->level--;
		sel->ilo = sel->b.clo;
		sel->ihi = sel->b.chi;
		csit_expander_init(cs, sel);
	}
}

/* After sel's candidate at load was measured: an extension that came
 * out the same way (the bound moved to it) widens the next step. */
static void won(struct csit_search *cs, struct csit_selector *sel,
		struct csit_load load)
{
	struct csit_bounds b;

	bounds_of(cs, csit_target_of(cs, sel), &b);
	sel->b = b;
	if ((sel->won_by == CSIT_EXTEND_LO ||
	     (sel->won_by == CSIT_BISECT && sel->grow_hi)) &&
	    csit_has(b.chi) && load.f == b.chi.f)
		csit_expander_grow(cs, sel);
	else if ((sel->won_by == CSIT_EXTEND_HI ||
		  (sel->won_by == CSIT_BISECT && sel->grow_lo)) &&
		 csit_has(b.clo) && load.f == b.clo.f)
		csit_expander_grow(cs, sel);
}

/* Does candidate a win over b: the smaller load, then the longer trial,
 * then the wider width; a tie keeps a (the earlier goal's). */
static bool beats(const struct csit_search *cs, const struct cand *a,
		  const struct cand *b)
{
	if (!csit_has(a->load))
		return !csit_has(b->load);
	if (!csit_has(b->load) || a->load.f < b->load.f)
		return true;
	if (a->load.f > b->load.f)
		return false;
	if (a->dur != b->dur)
		return a->dur > b->dur;
	if (!a->has_width)
		return !b->has_width;
	if (!b->has_width)
		return true;
	return csit_wcmp(&cs->s, a->width, b->width) >= 0;
}

/* Keep the loads of c in order and with their integers, as CSIT's
 * measurement database does; 0 or -ENOMEM. */
static int know_loads(struct csit_search *cs)
{
	struct r9971_ctl *c = cs->c;
	size_t j, idx;
	void *p;

	while (cs->n_known < c->n) {
		idx = cs->n_known;
		p = realloc(cs->order, c->n * sizeof(*cs->order));
		if (!p)
			return -ENOMEM;
		cs->order = p;
		p = realloc(cs->ints, c->n * sizeof(*cs->ints));
		if (!p)
			return -ENOMEM;
		cs->ints = p;
		cs->ints[idx] = csit_from_float(&cs->s, c->v[idx].load).i;
		for (j = cs->n_known; j > 0 &&
		     c->v[cs->order[j - 1]].load > c->v[idx].load; j--)
			cs->order[j] = cs->order[j - 1];
		cs->order[j] = idx;
		cs->n_known++;
	}
	return 0;
}

/* One measurement at load for dur, its Trial Loss Ratio in *lr. */
static int measure_at(struct csit_search *cs, double dur, struct csit_load load,
		      const char *why, double *lr)
{
	int ret = r9971_measure(cs->c, load.f, dur, why, lr);

	if (!ret && know_loads(cs)) {
		bm_errorf(cs->c->err, "mlrsearch: out of memory");
		ret = -ENOMEM;
	}
	return ret;
}

/* A load's forwarding rate raised by loss ratio ratio, rounded down. */
static struct csit_load corrected(const struct csit_search *cs, double load_fps,
				  double lr, double ratio)
{
	double rfr = load_fps * (1.0 - lr);

	return csit_at(&cs->s,
		       csit_from_float(&cs->s, rfr * (1.0 / (1.0 - ratio))).i);
}

/*
 * The initial trials for every goal's coarsest target at once (the
 * smallest loss ratio, the longest duration, the widest width): Max
 * Load, its corrected forwarding rate, then either that one's (when it
 * lost more) or one width above it.  The last two loads in *l0, *l1 (the
 * same one twice when one was enough).
 */
static int initial_trials(struct csit_search *cs, struct csit_load *l0,
			  struct csit_load *l1)
{
	const struct csit_scale *s = &cs->s;
	struct csit_load top = { s->max_int, s->max }, mrr, mrr2;
	double ratio = 0, dur = 0, lr;
	int64_t width = 0;
	const struct csit_target *t;
	bool first = true;
	size_t gi;
	int ret;

	for (gi = 0; gi < cs->c->in->n_goals; gi++, first = false) {
		t = &cs->t[gi * cs->levels + cs->levels - 1];
		if (first || ratio > t->g.loss_ratio)
			ratio = t->g.loss_ratio;
		if (first || dur < t->g.final_trial_s)
			dur = t->g.final_trial_s;
		if (first || csit_wcmp(s, width, t->width) < 0)
			width = t->width;
	}
	snprintf(cs->c->phase, sizeof(cs->c->phase), "initial");
	ret = measure_at(cs, dur, top, "csit: Max Load", &lr);
	if (ret)
		return ret;
	mrr = corrected(cs, top.f, lr, ratio);
	if (mrr.f >= top.f) {
		*l0 = *l1 = top;
		return 0;
	}
	ret = csit_handle(s, mrr, width, CSIT_NONE, top, &mrr);
	if (!ret && !csit_has(mrr))
		ret = -EPROTO;
	if (!ret)
		ret = measure_at(cs, dur, mrr, "csit: its forwarding rate",
				 &lr);
	if (ret)
		return ret;
	if (lr > ratio)
		ret = csit_handle(s, corrected(cs, mrr.f, lr, ratio), width,
				  CSIT_NONE, mrr, &mrr2);
	else
		ret = csit_handle(s, csit_at(s, mrr.i + width), width, mrr,
				  top, &mrr2);
	*l0 = *l1 = mrr;
	if (ret || !csit_has(mrr2))
		return ret;
	*l1 = mrr2;
	return measure_at(cs, dur, mrr2, lr > ratio ?
			  "csit: its forwarding rate again" :
			  "csit: one width above it", NULL);
}

/* The trial log's phase of selector sel's target. */
static void set_phase(struct csit_search *cs, const struct csit_selector *sel)
{
	if (sel->level)
		snprintf(cs->c->phase, sizeof(cs->c->phase),
			 "goal-%u-coarse-%u", (sel->goal + 1) % 1000,
			 sel->level % 10);
	else
		snprintf(cs->c->phase, sizeof(cs->c->phase), "goal-%u",
			 (sel->goal + 1) % 1000);
}

/* Nominate and measure the winner until no selector has a candidate. */
static int main_loop(struct csit_search *cs)
{
	struct cand win, cd;
	size_t gi;
	int ret;

	for (;;) {
		win = (struct cand){ CSIT_NONE, 0, false, 0, NULL };
		for (gi = 0; gi < cs->c->in->n_goals; gi++) {
			ret = nominate(cs, &cs->sel[gi], &cd);
			if (ret == -ERANGE)
				return bm_errorf(cs->c->err, "mlrsearch: goal "
						 "%zu: Min Load is an Upper "
						 "Bound (fail_fast)", gi + 1),
				       ret;
			if (ret)
				return bm_errorf(cs->c->err, "mlrsearch: "
						 "internal error of the csit "
						 "selection, goal %zu", gi + 1),
				       ret;
			if (!beats(cs, &win, &cd))
				win = cd;
		}
		if (!csit_has(win.load))
			return 0;
		set_phase(cs, win.sel);
		ret = measure_at(cs, win.dur, win.load,
				 strategy_why[win.sel->won_by], NULL);
		if (ret)
			return ret;
		if (win.has_width)
			cs->global_width = win.width;
		won(cs, win.sel, win.load);
	}
}

int r9971_csit_select(struct r9971_ctl *c)
{
	const struct bm_mlr9971_input *in = c->in;
	struct csit_search cs = { .c = c, .levels = in->preceding_targets + 1,
			   .coef = in->expansion_coefficient };
	struct csit_load l0, l1;
	double w[16];
	size_t gi;
	int ret;

	for (gi = 0; gi < in->n_goals && gi < 16; gi++)
		w[gi] = in->goals[gi].width;
	if (csit_scale_init(&cs.s, in->min_load_fps, in->max_load_fps, w,
			    in->n_goals))
		return bm_errorf(c->err, "mlrsearch: no discrete load scale "
				 "fits the Goal Widths"), -EINVAL;
	cs.t = calloc(in->n_goals * cs.levels, sizeof(*cs.t));
	cs.sel = calloc(in->n_goals, sizeof(*cs.sel));
	if (!cs.t || !cs.sel) {
		bm_errorf(c->err, "mlrsearch: out of memory");
		ret = -ENOMEM;
		goto out;
	}
	make_targets(&cs);
	ret = initial_trials(&cs, &l0, &l1);
	if (ret == -EPROTO)
		bm_errorf(c->err, "mlrsearch: internal error of the csit "
			  "selection's initial trials");
	if (ret)
		goto out;
	if (l1.f < l0.f) {
		struct csit_load x = l0;

		l0 = l1;
		l1 = x;
	}
	cs.global_width = l1.i - l0.i;
	for (gi = 0; gi < in->n_goals; gi++) {
		cs.sel[gi] = (struct csit_selector){ .goal = (unsigned int)gi,
			.level = cs.levels - 1, .ilo = l0, .ihi = l1 };
		csit_expander_init(&cs, &cs.sel[gi]);
	}
	ret = main_loop(&cs);
out:
	free(cs.t);
	free(cs.sel);
	free(cs.order);
	free(cs.ints);
	return ret;
}

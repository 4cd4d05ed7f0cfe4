// SPDX-License-Identifier: GPL-2.0
/*
 * MLRsearch, fast mode (BM_MLR_MODE_FAST; Documentation/
 * procedures-mlrsearch.md, "Modes").  The draft-01 phases (MLR-PHASE),
 * with what FD.io CSIT's MLRsearch 1.2 showed saves long trials:
 *
 *  - a trial that failed a target is an upper bound for that target at
 *    its own and at every longer duration (loss does not shrink when the
 *    same load is offered for longer), if it failed by a whole frame;
 *  - so narrowing costs short trials only, and every phase aims at the
 *    final width: a longer phase mostly measures the lower bound again;
 *  - the external search starts with a step of one goal width and grows
 *    by expansion_coefficient only while its steps keep failing;
 *  - widths within float noise of the goal meet it.
 *
 * Lower bounds still need a pass at the phase's duration, so NDR and PDR
 * (the lower bounds) are final-duration trials, as in draft-01.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlrsearch_int.h"

/* x / (1 - w) and back gives w plus float noise: no trial for that. */
#define MLR_FAST_WIDTH_SLACK 1e-9

/* Bounds of one ratio at one duration D, across durations. */
struct mlr_fast_bounds {
	const struct mlr_point *lo1;	/* highest pass at D below hi1 */
	const struct mlr_point *hi1;	/* lowest failure at any d <= D */
	double hi1_duration_s;
};

/* Per-ratio state of the external search in the current phase. */
struct mlr_fast_ext {
	double w;			/* width of the last step, 0 = none */
	double load_fps;		/* the load it chose */
};

struct mlr_fast {
	struct mlr_search *s;
	struct mlr_fast_ext *ext;	/* one per target ratio */
};

static bool mlr_fast_width_met(double lo_fps, double hi_fps, double goal)
{
	return mlr_rel_width(lo_fps, hi_fps) <=
	       goal * (1.0 + MLR_FAST_WIDTH_SLACK);
}

/*
 * Does p fail ratio, at its own duration or (shorter) at a longer one?
 * Losses are whole frames, so a short trial's loss ratio may exceed the
 * ratio only because its last frame was rounded up, which a longer
 * trial at the same load would not repeat: a shorter trial's failure
 * counts at a longer duration only if it fails by a whole frame more.
 * Ratio 0 needs no such margin: one lost frame is loss at any duration.
 */
static bool mlr_fast_fails(const struct mlr_point *p, double ratio,
			   bool shorter)
{
	if (p->loss_ratio <= ratio)
		return false;
	return !shorter || p->loss_ratio - p->frame_ratio >= ratio;
}

/*
 * The bounds of ratio (tolerance included) at duration duration_s: any
 * trial of that or a shorter duration that lost more than ratio is an
 * upper bound, the lowest of them the tightest; lower bounds are the
 * passes at duration_s below it.  Loads between a failure and a pass
 * above it keep the failure, as the effective loss ratio does (MLR-DB).
 */
static struct mlr_fast_bounds mlr_fast_bounds(const struct mlr_db *db,
					      double duration_s, double ratio)
{
	struct mlr_fast_bounds b = { NULL, NULL, 0.0 };
	const struct mlr_dur *d;
	size_t k, i;

	for (k = 0; k < db->n; k++) {
		d = &db->d[k];
		if (d->duration_s > duration_s)
			continue;
		/* sorted by load: the first failure is this duration's
		 * lowest */
		for (i = 0; i < d->n; i++) {
			if (!mlr_fast_fails(&d->v[i], ratio,
					    d->duration_s < duration_s))
				continue;
			if (!b.hi1 || d->v[i].load_fps < b.hi1->load_fps) {
				b.hi1 = &d->v[i];
				b.hi1_duration_s = d->duration_s;
			}
			break;
		}
	}
	for (k = 0; k < db->n; k++) {
		d = &db->d[k];
		if (d->duration_s != duration_s)
			continue;
		for (i = 0; i < d->n; i++) {
			if (b.hi1 && d->v[i].load_fps >= b.hi1->load_fps)
				break;
			b.lo1 = &d->v[i];
		}
	}
	return b;
}

/* Bounds of target ratio i at the current duration. */
static struct mlr_fast_bounds mlr_fast_cur(const struct mlr_search *s,
					   size_t i, int di)
{
	double r = s->p->target_loss_ratios[i] +
		   s->p->packet_loss_ratio_tolerance;

	if (di < 0) {
		struct mlr_fast_bounds none = { NULL, NULL, 0.0 };

		return none;
	}
	return mlr_fast_bounds(&s->db, s->db.d[di].duration_s, r);
}

/* Bisect (lo, hi) to the goal (MLR-WIDTH), or MLR_NONE when met. */
static double mlr_fast_bisect(double lo_fps, double hi_fps, double goal)
{
	if (mlr_fast_width_met(lo_fps, hi_fps, goal))
		return MLR_NONE;
	return mlr_bisect_load(lo_fps, hi_fps, goal);
}

/*
 * Width of the next external step from bound load_fps: one goal, or, if
 * the last step of this ratio landed on load_fps and it still bounds the
 * same side, that step times expansion_coefficient (in log space).
 */
static double mlr_fast_ext_w(const struct mlr_fast *f, size_t i,
			     double load_fps)
{
	const struct mlr_fast_ext *e = &f->ext[i];

	if (e->w > 0.0 && mlr_same_load(e->load_fps, load_fps))
		return fmax(mlr_mul_w(e->w, f->s->p->expansion_coefficient),
			    f->s->goal);
	return f->s->goal;
}

/*
 * Next load for target ratio i in the current phase, or MLR_NONE; rule
 * names the choice for the trial log, *ext_w the external step's width
 * (0 for other rules).
 */
static int mlr_fast_select(struct mlr_fast *f, size_t i, double *load_fps,
			   const char **rule, double *ext_w)
{
	struct mlr_search *s = f->s;
	const struct bm_mlr_params *p = s->p;
	struct mlr_fast_bounds c = mlr_fast_cur(s, i, s->db.cur);
	struct mlr_fast_bounds pv = mlr_fast_cur(s, i, s->db.prev);
	const struct mlr_point *clo = c.lo1, *chi = c.hi1;
	bool pl_imp = mlr_improves(pv.lo1, clo, chi);

	*load_fps = MLR_NONE;
	*ext_w = 0.0;
	*rule = "";
	if (clo && chi && mlr_fast_width_met(clo->load_fps, chi->load_fps,
					     s->goal))
		return 0;
	if (pl_imp) {
		*rule = "re-measure lower";
		*load_fps = pv.lo1->load_fps;
		return 0;
	}
	if (!clo && !chi) {
		snprintf(s->err->msg, sizeof(s->err->msg),
			 "mlrsearch: internal error: no results for ratio %g",
			 p->target_loss_ratios[i]);
		return -EPROTO;
	}
	if (!clo) {
		if (p->min_rate_fps >= chi->load_fps)
			return 0;
		*ext_w = mlr_fast_ext_w(f, i, chi->load_fps);
		*rule = "extend down";
		*load_fps = fmax(mlr_step_down(chi->load_fps, *ext_w),
				 p->min_rate_fps);
		return 0;
	}
	if (!chi) {
		if (p->max_rate_fps <= clo->load_fps)
			return 0;
		*ext_w = mlr_fast_ext_w(f, i, clo->load_fps);
		*rule = "extend up";
		*load_fps = fmin(mlr_step_up(clo->load_fps, *ext_w),
				 p->max_rate_fps);
		return 0;
	}
	*rule = "bisect";
	*load_fps = mlr_fast_bisect(clo->load_fps, chi->load_fps, s->goal);
	return 0;
}

/* One phase of the fast mode: MLR-PHASE's loop with mlr_fast_select. */
static int mlr_fast_phase(struct mlr_fast *f, unsigned int p_index)
{
	struct mlr_search *s = f->s;
	const struct bm_mlr_params *p = s->p;
	unsigned int nip = p->number_of_intermediate_phases;
	double load, lr, rr, ext_w;
	const char *rule;
	char why[96];
	bool measured;
	size_t i;
	int ret;

	mlr_set_phase(s, p_index + 1);
	s->duration_s = mlr_phase_duration_s(p->initial_trial_duration_s,
					     p->final_trial_duration_s, nip,
					     p_index);
	s->goal = p->final_relative_width;
	ret = mlr_db_set_duration(&s->db, s->duration_s);
	if (ret)
		return ret;
	memset(f->ext, 0, p->n_targets * sizeof(*f->ext));

	do {
		measured = false;
		for (i = 0; i < p->n_targets; i++) {
			ret = mlr_fast_select(f, i, &load, &rule, &ext_w);
			if (ret)
				return ret;
			if (load == MLR_NONE) {
				/* as draft-01's fail_fast (MLR-PHASE) */
				if (i == 0 && p->fail_fast &&
				    !mlr_fast_cur(s, 0, s->db.cur).lo1)
					return 0;
				continue;
			}
			if (ext_w > 0.0) {
				f->ext[i].w = ext_w;
				f->ext[i].load_fps = load;
			}
			if (!p->fail_fast && s->mtr_aside &&
			    s->duration_s == p->initial_trial_duration_s &&
			    mlr_same_load(load, p->max_rate_fps)) {
				/* MTR's initial trial, not a repeat of it */
				s->mtr_aside = false;
				ret = mlr_db_add_trial(&s->db, load,
						       s->mtr_loss_ratio,
						       s->mtr_frame_ratio, 0);
			} else {
				snprintf(why, sizeof(why), "r=%g %s",
					 p->target_loss_ratios[i], rule);
				ret = mlr_measure(s, load, why, &lr, &rr);
			}
			if (ret)
				return ret;
			measured = true;
			break;
		}
	} while (measured);
	return 0;
}

int mlr_fast_run(struct mlr_search *s)
{
	const struct bm_mlr_params *p = s->p;
	struct mlr_fast f = { s, NULL };
	unsigned int i;
	int ret;

	f.ext = calloc(p->n_targets, sizeof(*f.ext));
	if (!f.ext) {
		snprintf(s->err->msg, sizeof(s->err->msg),
			 "mlrsearch: out of memory");
		return -ENOMEM;
	}
	ret = mlr_initial_phase(s);
	for (i = 0; !ret && i <= p->number_of_intermediate_phases; i++)
		ret = mlr_fast_phase(&f, i);
	free(f.ext);
	return ret;
}

int mlr_fast_fill_bounds(const struct mlr_search *s, struct bm_mlr_result *res)
{
	const struct bm_mlr_params *p = s->p;
	const struct mlr_db *db = &s->db;
	const struct mlr_dur *d = db->cur >= 0 ? &db->d[db->cur] : NULL;
	size_t i;

	free(res->bounds);
	res->n = 0;
	res->bounds = calloc(p->n_targets, sizeof(*res->bounds));
	if (!res->bounds)
		return -ENOMEM;
	res->n = p->n_targets;
	for (i = 0; i < p->n_targets; i++) {
		struct bm_mlr_bound *o = &res->bounds[i];
		struct mlr_fast_bounds b = mlr_fast_cur(s, i, db->cur);

		o->target_ratio = p->target_loss_ratios[i];
		o->duration_s = d ? d->duration_s : 0.0;
		/* [MLR §4.3] 1.6.1: no valid bound -> min_rate / max_rate. */
		o->lower_valid = b.lo1 != NULL;
		o->lower_fps = b.lo1 ? b.lo1->load_fps : p->min_rate_fps;
		o->lower_loss_ratio = b.lo1 ? b.lo1->loss_ratio :
				      mlr_dur_loss_at(d, p->min_rate_fps);
		o->upper_valid = b.hi1 != NULL;
		o->upper_fps = b.hi1 ? b.hi1->load_fps : p->max_rate_fps;
		o->upper_loss_ratio = b.hi1 ? b.hi1->loss_ratio :
				      mlr_dur_loss_at(d, p->max_rate_fps);
		o->upper_duration_s = b.hi1 ? b.hi1_duration_s : o->duration_s;
	}
	return 0;
}

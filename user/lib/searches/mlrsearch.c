// SPDX-License-Identifier: GPL-2.0
/*
 * MLRsearch phase logic (draft-ietf-bmwg-mlrsearch-01 §3, §4, §5.1;
 * SPEC MLR-PHASE, MLR-SEL): the intermediate and final phases and the
 * choice of the next load for one target loss ratio, as draft-01 has
 * them, and the search's entry point; the fast mode's phases are in
 * mlrsearch_fast.c, a measurement and the initial phase both share in
 * mlrsearch_measure.c, the bookkeeping in mlrsearch_db.c.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlrsearch_int.h"

/*
 * External search down from upper bound h1 ([MLR §4.3] 2.3.3): widen
 * the previous interval by expansion_coefficient.  MLR_NONE when h1 is
 * at min_rate already.
 */
static double mlr_extend_down(const struct mlr_search *s,
			      const struct mlr_point *h1,
			      const struct mlr_point *h2,
			      const struct mlr_point *ph)
{
	const struct mlr_point *nb = h2;
	double w = s->goal;

	if (s->p->min_rate_fps >= h1->load_fps)
		return MLR_NONE;
	/* 2.3.3.1: second tightest bound, or the previous duration's one
	 * if it is narrower, or the goal; never below the goal. */
	if (mlr_improves(ph, h1, h2))
		nb = ph;
	if (nb)
		w = fmax(mlr_rel_width(h1->load_fps, nb->load_fps), s->goal);
	return fmax(mlr_step_down(h1->load_fps,
				  mlr_mul_w(w, s->p->expansion_coefficient)),
		    s->p->min_rate_fps);
}

/* External search up from lower bound l1 ([MLR §4.3] 2.4), mirrored. */
static double mlr_extend_up(const struct mlr_search *s,
			    const struct mlr_point *l1,
			    const struct mlr_point *l2,
			    const struct mlr_point *pl)
{
	const struct mlr_point *nb = l2;
	double w = s->goal;

	if (s->p->max_rate_fps <= l1->load_fps)
		return MLR_NONE;
	if (mlr_improves(pl, l2, l1))
		nb = pl;
	if (nb)
		w = fmax(mlr_rel_width(l1->load_fps, nb->load_fps), s->goal);
	return fmin(mlr_step_up(l1->load_fps,
				mlr_mul_w(w, s->p->expansion_coefficient)),
		    s->p->max_rate_fps);
}

/*
 * Next load for target ratio i ([MLR §4.3] item 2, MLR-SEL), or
 * MLR_NONE when this ratio needs no trial now; why says which rule.
 */
static int mlr_select(const struct mlr_search *s, size_t i, double *load_fps,
		      char *why, size_t why_len)
{
	double target = s->p->target_loss_ratios[i];
	double r = target + s->p->packet_loss_ratio_tolerance;
	struct mlr_bounds c = mlr_db_bounds(&s->db, s->db.cur, r);
	struct mlr_bounds pv = mlr_db_bounds(&s->db, s->db.prev, r);
	bool pl_imp = mlr_improves(pv.lo1, c.lo1, c.hi1);
	bool ph_imp = mlr_improves(pv.hi1, c.lo1, c.hi1);
	const char *rule;
	double x, e;

	*load_fps = MLR_NONE;
	/* 2.1: both previous bounds are new here: bisect between them, at
	 * most once per ratio and phase thanks to the doubled goal. */
	if (pl_imp && ph_imp) {
		x = mlr_bisect_load(pv.lo1->load_fps, pv.hi1->load_fps,
				    s->goal);
		if (x != MLR_NONE) {
			rule = "initial bisect";
			goto found;
		}
	}
	/* 2.2: re-measure the previous duration's bound. */
	if (pl_imp) {
		x = pv.lo1->load_fps;
		rule = "re-measure lower";
		goto found;
	}
	if (ph_imp) {
		x = pv.hi1->load_fps;
		rule = "re-measure upper";
		goto found;
	}
	if (!c.lo1 && !c.hi1) {
		snprintf(s->err->msg, sizeof(s->err->msg),
			 "mlrsearch: internal error: no results for ratio %g",
			 target);
		return -EPROTO;
	}
	/* 2.3: only an upper bound: external search down. */
	if (!c.lo1) {
		x = mlr_extend_down(s, c.hi1, c.hi2, pv.hi1);
		rule = "extend down";
		goto found;
	}
	/* 2.4: only a lower bound: external search up. */
	if (!c.hi1) {
		x = mlr_extend_up(s, c.lo1, c.lo2, pv.lo1);
		rule = "extend up";
		goto found;
	}
	/*
	 * 2.5: both bounds.  The lower one may be a smaller ratio's upper
	 * bound and far too low, so extending down from the upper bound
	 * competes with bisecting; "exactly as in 2.3" (which falls back to
	 * the goal width when there is no second bound).  If bisect says
	 * the width is met, exit (2.5.4); else the higher rate (2.5.5).
	 */
	x = mlr_bisect_load(c.lo1->load_fps, c.hi1->load_fps, s->goal);
	rule = "bisect";
	if (x != MLR_NONE) {
		e = mlr_extend_down(s, c.hi1, c.hi2, pv.hi1);
		if (e != MLR_NONE && e > x) {
			x = e;
			rule = "extend down (beats bisect)";
		}
	}
found:
	if (x == MLR_NONE)
		return 0;
	*load_fps = x;
	snprintf(why, why_len, "r=%g %s", target, rule);
	return 0;
}

/* One non-initial phase (MLR-PHASE, [MLR §4.3] item 1). */
static int mlr_phase(struct mlr_search *s, unsigned int p_index)
{
	const struct bm_mlr_params *p = s->p;
	unsigned int nip = p->number_of_intermediate_phases;
	char why[96];
	double load, lr, rr;
	bool measured;
	size_t i;
	int ret;

	mlr_set_phase(s, p_index + 1);
	s->duration_s = mlr_phase_duration_s(p->initial_trial_duration_s,
					     p->final_trial_duration_s, nip,
					     p_index);
	s->goal = mlr_phase_goal(p->final_relative_width, nip, p_index);
	ret = mlr_db_set_duration(&s->db, s->duration_s);
	if (ret)
		return ret;

	do {
		measured = false;
		/*
		 * Ratios in increasing order; after every trial start again
		 * from the smallest.  Trials for a higher ratio never move a
		 * lower ratio's bounds ([MLR §3]), so this only re-checks
		 * them, and it is what reproduces [MLR §5.2].
		 */
		for (i = 0; i < p->n_targets; i++) {
			ret = mlr_select(s, i, &load, why, sizeof(why));
			if (ret)
				return ret;
			if (load == MLR_NONE) {
				/* 2.3.2: the smallest ratio's upper bound is
				 * at min_rate; the draft exits the whole phase
				 * early (fail_fast), else the larger ratios
				 * are refined. */
				if (i == 0 && p->fail_fast &&
				    !mlr_db_bounds(&s->db, s->db.cur,
						p->target_loss_ratios[0] +
						p->packet_loss_ratio_tolerance).lo1)
					return 0;
				continue;
			}
			if (!p->fail_fast && s->mtr_aside &&
			    s->duration_s == p->initial_trial_duration_s &&
			    mlr_same_load(load, p->max_rate_fps)) {
				s->mtr_aside = false;
				ret = mlr_db_add(&s->db, load, s->mtr_loss_ratio, 0);
			} else {
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

int bm_mlrsearch_run(struct bm_backend *be, const struct bm_mlr_params *p,
		     struct bm_mlr_result *res, bm_progress_fn progress,
		     void *ctx, struct bm_error *err)
{
	struct bm_measurer m;

	bm_mlr_pair(p, &m, be);
	return bm_mlrsearch(&m, p, res, progress, ctx, err);
}

int bm_mlrsearch(const struct bm_measurer *m, const struct bm_mlr_params *p,
		 struct bm_mlr_result *res, bm_progress_fn progress, void *ctx,
		 struct bm_error *err)
{
	struct bm_backend *be = m->be;
	struct bm_error local_err;
	struct mlr_search s;
	unsigned int i;
	int ret, ret2;

	memset(res, 0, sizeof(*res));
	if (!err)
		err = &local_err;
	err->msg[0] = '\0';
	ret = bm_mlr_params_validate(p, err);
	if (ret)
		return ret;

	memset(&s, 0, sizeof(s));
	s.m = m;
	s.p = p;
	s.res = res;
	s.progress = progress;
	s.ctx = ctx;
	s.err = err;
	s.start_elapsed_s = be->elapsed_s;
	mlr_db_init(&s.db);

	res->frame_size = p->frame_size;
	res->directions = m->directions;
	res->mtr_fps = p->max_rate_fps;
	res->final_trial_duration_s = p->final_trial_duration_s;
	res->final_relative_width = p->final_relative_width;

	res->mode = p->mode;

	if (p->mode == BM_MLR_MODE_FAST) {
		s.initial_goal = p->final_relative_width;
		ret = mlr_fast_run(&s);
		ret2 = mlr_fast_fill_bounds(&s, res);
	} else {
		s.initial_goal = mlr_phase_goal(p->final_relative_width,
				p->number_of_intermediate_phases, 0);
		ret = mlr_initial_phase(&s);
		for (i = 0; !ret && i <= p->number_of_intermediate_phases; i++)
			ret = mlr_phase(&s, i);
		/* MLR-OUT: bounds of the latest duration, also for partial
		 * runs. */
		ret2 = mlr_fill_bounds(&s.db, p, res);
	}
	if (ret2 && !ret) {
		snprintf(err->msg, sizeof(err->msg),
			 "mlrsearch: out of memory for the bounds");
		ret = ret2;
	}
	res->search_time_s = be->elapsed_s - s.start_elapsed_s;
	mlr_db_free(&s.db);
	return ret;
}

void bm_mlr_result_free(struct bm_mlr_result *res)
{
	free(res->bounds);
	free(res->loss_ratios);
	bm_trial_log_free(&res->log);
	memset(res, 0, sizeof(*res));
}

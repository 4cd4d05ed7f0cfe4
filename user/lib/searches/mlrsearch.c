// SPDX-License-Identifier: GPL-2.0
/*
 * MLRsearch phase logic (draft-ietf-bmwg-mlrsearch-01 §3, §4, §5.1;
 * SPEC MLR-INIT, MLR-PHASE, MLR-SEL): the initial phase, the
 * intermediate and final phases, and the choice of the next load for one
 * target loss ratio, as draft-01 has them; the fast mode's phases are in
 * mlrsearch_fast.c.  Bookkeeping lives in mlrsearch_db.c.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlrsearch_int.h"

void mlr_set_phase(struct mlr_search *s, unsigned int phase)
{
	unsigned int nip = s->p->number_of_intermediate_phases;

	s->phase = phase;
	if (phase == 0)
		snprintf(s->phase_name, sizeof(s->phase_name), "mlr-initial");
	else if (phase == nip + 1)
		snprintf(s->phase_name, sizeof(s->phase_name), "mlr-final");
	else
		snprintf(s->phase_name, sizeof(s->phase_name),
			 "mlr-intermediate-%u", phase);
}

/* Append the loss ratio of the newest log entry; 0 or -ENOMEM. */
static int mlr_push_loss_ratio(struct bm_mlr_result *res, double lr)
{
	double *v = realloc(res->loss_ratios, res->log.n * sizeof(*v));

	if (!v)
		return -ENOMEM;
	res->loss_ratios = v;
	v[res->log.n - 1] = lr;
	return 0;
}

int mlr_measure(struct mlr_search *s, double load_fps, const char *why,
		double *loss_ratio, double *receive_fps)
{
	const struct bm_mlr_params *p = s->p;
	struct bm_mlr_result *res = s->res;
	struct bm_trial_spec spec;
	struct bm_trial_result tr;
	uint64_t beyond;
	char line[160];
	double lr, fr;
	int ret;

	/* [MLR §5.1] item 2: fail a search that takes too long.  The clock
	 * covers the whole search ([MLR §5.1.1] item 8 "overall"). */
	if (s->be->elapsed_s - s->start_elapsed_s >= p->timeout_s) {
		res->timed_out = true;
		snprintf(s->err->msg, sizeof(s->err->msg),
			 "mlrsearch: timeout: %.1f s spent, limit timeout_s %.1f s",
			 s->be->elapsed_s - s->start_elapsed_s, p->timeout_s);
		return -ETIMEDOUT;
	}
	/* [MLR §3] "a measurement is never repeated with both duration and
	 * offered load being the same": a repeat would be our bug. */
	if (mlr_db_has(&s->db, load_fps) || res->log.n >= MLR_MAX_TRIALS) {
		snprintf(s->err->msg, sizeof(s->err->msg),
			 "mlrsearch: internal error: load %.3f fps at %g s repeated or search not converging",
			 load_fps, s->duration_s);
		return -EPROTO;
	}

	bm_trial_spec_rate(&spec, p->frame_size, load_fps, s->duration_s);
	spec.topology = p->topology;
	spec.learning = p->learning;
	spec.learning_pause_s = p->learning_pause_s;
	spec.drain_s = p->drain_s;
	ret = bm_run_trial(s->be, &spec, &tr, s->err);
	if (ret)
		return ret;

	lr = mlr_trial_loss_ratio(&spec, &tr, p->attempt_tolerance_s,
				  &beyond);
	if (beyond || tr.generator_limited)
		res->generator_limited_trials++;
	/* REQ-MLR-1: flag, keep searching. */
	if (tr.reordered || tr.duplicate)
		res->stream_errors = true;
	res->trial_time_s += s->duration_s;

	fr = mlr_trial_frame_ratio(&spec, &tr, p->attempt_tolerance_s);
	ret = bm_trial_log_add(&res->log, s->phase_name, why, &spec, &tr);
	if (!ret)
		ret = mlr_push_loss_ratio(res, lr);
	if (!ret)
		ret = mlr_db_add_trial(&s->db, load_fps, lr, fr,
				       res->log.n - 1);
	if (ret) {
		snprintf(s->err->msg, sizeof(s->err->msg),
			 "mlrsearch: cannot record trial: %s", strerror(-ret));
		return ret;
	}
	*loss_ratio = lr;
	*receive_fps = load_fps * (1.0 - lr);
	s->last_frame_ratio = fr;

	if (s->progress) {
		if (s->phase == 0)
			snprintf(line, sizeof(line),
				 "mlr initial d=%gs load=%.0f fps loss=%.4g",
				 s->duration_s, load_fps, lr);
		else
			snprintf(line, sizeof(line),
				 "mlr phase %u/%u d=%gs load=%.0f fps loss=%.4g",
				 s->phase, p->number_of_intermediate_phases + 1,
				 s->duration_s, load_fps, lr);
		if (s->progress(s->ctx, &res->log.v[res->log.n - 1], line)) {
			snprintf(s->err->msg, sizeof(s->err->msg),
				 "mlrsearch: cancelled after %zu trials",
				 res->log.n);
			return -ECANCELED;
		}
	}
	return 0;
}

int mlr_initial_phase(struct mlr_search *s)
{
	const struct bm_mlr_params *p = s->p;
	/* The first intermediate phase's goal (the final one if nip = 0). */
	double igw = s->initial_goal;
	double r0 = p->target_loss_ratios[0] + p->packet_loss_ratio_tolerance;
	double lr, rr1, rr2, rr3, mrr, mrr2;
	int ret;

	mlr_set_phase(s, 0);
	s->duration_s = p->initial_trial_duration_s;
	s->goal = igw;
	ret = mlr_db_set_duration(&s->db, s->duration_s);
	if (ret)
		return ret;

	ret = mlr_measure(s, p->max_rate_fps, "MTR: measure MRR", &lr, &rr1);
	if (ret)
		return ret;
	s->res->mrr_fps = rr1;
	s->mtr_loss_ratio = lr;
	s->mtr_frame_ratio = s->last_frame_ratio;

	/* "If MRR is too close to MTR", keep one goal between them. */
	mrr = fmin(rr1, mlr_step_down(p->max_rate_fps, igw));
	mrr = fmax(mrr, p->min_rate_fps);
	ret = mlr_measure(s, mrr, mrr < rr1 ? "MRR, lowered to MTR - goal" :
			  mrr > rr1 ? "MRR below min_rate: min_rate" : "MRR",
			  &lr, &rr2);
	if (ret)
		return ret;

	if (lr > r0)
		/* §5.2 measurement 3: "slightly less than MRR2 in
		 * preparation for first intermediate phase". */
		mrr2 = fmin(rr2, mlr_step_down(mrr, igw));
	else
		/* Lower bound already: look one goal above MRR. */
		mrr2 = mlr_step_up(mrr, igw);
	mrr2 = fmin(fmax(mrr2, p->min_rate_fps), p->max_rate_fps);

	/* Step 3 is skipped when MRR2 hits a load measured already, e.g.
	 * MTR after two lossless trials, or min_rate twice (AMB-52). */
	if (mlr_db_has(&s->db, mrr2))
		return 0;
	ret = mlr_measure(s, mrr2, lr > r0 ? "MRR2, at most MRR - goal" :
			  "MRR lossless: MRR + goal", &lr, &rr3);
	if (ret)
		return ret;
	/* External search from MRR and MRR2 beats bisecting up to MTR. */
	mlr_db_forget(&s->db, p->max_rate_fps);
	s->mtr_aside = true;
	return 0;
}

bool mlr_improves(const struct mlr_point *x, const struct mlr_point *lo,
		  const struct mlr_point *hi)
{
	return x && (!lo || x->load_fps > lo->load_fps) &&
	       (!hi || x->load_fps < hi->load_fps);
}

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
	s.be = be;
	s.p = p;
	s.res = res;
	s.progress = progress;
	s.ctx = ctx;
	s.err = err;
	s.start_elapsed_s = be->elapsed_s;
	mlr_db_init(&s.db);

	res->frame_size = p->frame_size;
	res->directions = p->topology == BM_TOPO_PAIR_BIDIR ? 2 : 1;
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

const char *bm_mlr_mode_name(enum bm_mlr_mode mode)
{
	switch (mode) {
	case BM_MLR_MODE_DRAFT01:
		return "draft-01";
	case BM_MLR_MODE_FAST:
		return "fast";
	}
	return NULL;
}

void bm_mlr_result_free(struct bm_mlr_result *res)
{
	free(res->bounds);
	free(res->loss_ratios);
	bm_trial_log_free(&res->log);
	memset(res, 0, sizeof(*res));
}

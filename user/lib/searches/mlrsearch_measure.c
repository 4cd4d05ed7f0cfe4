// SPDX-License-Identifier: GPL-2.0
/*
 * What both MLRsearch modes build on (draft-ietf-bmwg-mlrsearch-01 §3,
 * §5.1; SPEC MLR-MEAS, MLR-INIT): the phase a search is in, one
 * measurement at a load (a trial, its loss ratio, the database), the
 * initial phase, and when a measurement improves on a bound.  The
 * draft-01 phases are mlrsearch.c, the fast mode's mlrsearch_fast.c.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bm_search.h"
#include "bm_traffic.h"
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
	if (s->m->be->elapsed_s - s->start_elapsed_s >= p->timeout_s) {
		res->timed_out = true;
		snprintf(s->err->msg, sizeof(s->err->msg),
			 "mlrsearch: timeout: %.1f s spent, limit timeout_s %.1f s",
			 s->m->be->elapsed_s - s->start_elapsed_s, p->timeout_s);
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

	ret = bm_measure(s->m, s->duration_s, load_fps, &spec, &tr, s->err);
	/* a pool's host failed it: the others' halves kept, its loss
	 * ratio from their counts (the frames whose receiver failed lost) */
	if (ret && bm_search_keep_failed(&spec, &tr, &res->log, why))
		mlr_push_ratio(&res->loss_ratios, res->log.n,
			       mlr_trial_loss_ratio(load_fps * s->m->directions,
						    s->duration_s, &tr,
						    p->attempt_tolerance_s,
						    &beyond));
	if (ret)
		return ret;

	lr = mlr_trial_loss_ratio(load_fps * s->m->directions, s->duration_s,
				  &tr, p->attempt_tolerance_s, &beyond);
	if (beyond || tr.generator_limited)
		res->generator_limited_trials++;
	/* REQ-MLR-1: flag, keep searching. */
	if (tr.reordered || tr.duplicate)
		res->stream_errors = true;
	res->trial_time_s += s->duration_s;

	fr = mlr_trial_frame_ratio(load_fps * s->m->directions,
				   s->duration_s, &tr, p->attempt_tolerance_s);
	ret = bm_trial_log_add(&res->log, s->phase_name, why, &spec, &tr);
	if (!ret)
		bm_trial_record_offered(&res->log.v[res->log.n - 1]);
	if (!ret)
		ret = mlr_push_ratio(&res->loss_ratios, res->log.n, lr);
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

// SPDX-License-Identifier: GPL-2.0
/*
 * MLRsearch inputs: the draft's CSIT defaults and validation at
 * construction (MLR-IN, [MLR §4.1, §5.1.1]).  Every check names the
 * parameter, its unit and the allowed range, so a bad request fails
 * before any trial with a message the user can act on.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "mlrsearch_int.h"

/* [MLR §5.1.1] item 6: NDR and PDR (0.5 %). */
static const double bm_mlr_default_ratios[] = { 0.0, 0.005 };

void bm_mlr_pair(const struct bm_mlr_params *p, struct bm_measurer *m,
		 struct bm_backend *be)
{
	struct bm_pair_trial t = {
		.frame_size = p->frame_size, .topology = p->topology,
		.learning = p->learning,
		.learning_pause_s = p->learning_pause_s,
		.drain_s = p->drain_s,
	};

	bm_measurer_pair(m, be, &t);
}

void bm_mlr_params_default(struct bm_mlr_params *p)
{
	memset(p, 0, sizeof(*p));
	/* Item 1: MTR; 64 B at 10 GbE, one direction (SPEC MLR-ACC). */
	p->max_rate_fps = bm_fps_max(10e9, 64);
	/* Item 2: CSIT reserves 9000 fps per direction for latency. */
	p->min_rate_fps = 9001.0;
	p->final_trial_duration_s = 30.0;	/* item 3 */
	p->initial_trial_duration_s = 1.0;	/* item 4 */
	p->final_relative_width = 0.005;	/* item 5 */
	p->target_loss_ratios = bm_mlr_default_ratios;	/* item 6 */
	p->n_targets = 2;
	p->number_of_intermediate_phases = 2;	/* item 7 */
	p->timeout_s = 600.0;			/* item 8 */
	p->expansion_coefficient = 4.0;		/* item 9 */
	p->frame_size = 64;
	p->packet_loss_ratio_tolerance = 0.0;
	p->attempt_tolerance_s = 10e-6;		/* [MLR §5.1] item 5 */
	p->topology = BM_TOPO_PAIR_UNI;
	p->learning = false;
	p->learning_pause_s = -1.0;
	p->drain_s = -1.0;			/* the backend's default */
	/* the draft's own procedure; the mlrsearch procedure picks fast */
	p->mode = BM_MLR_MODE_DRAFT01;
}

/* Phases beyond this double the first goal past any useful width. */
#define MLR_MAX_INTERMEDIATE_PHASES 32

double bm_mlr_max_trials(const struct bm_mlr_params *p)
{
	double d = fmin(p->initial_trial_duration_s, p->final_trial_duration_s);
	double n = d > 0.0 ? floor(p->timeout_s / d) + 1.0 : INFINITY;

	return fmin(n, MLR_MAX_TRIALS);
}

int bm_mlr_params_validate(const struct bm_mlr_params *p,
			   struct bm_error *err)
{
	unsigned int nip = p->number_of_intermediate_phases;
	double goal0;
	size_t i;

	/* Written as !(x > a) so that NaN fails every check. */
	if (!(p->min_rate_fps > 0) || !isfinite(p->min_rate_fps))
		return bm_errorf(err, "min_rate_fps %g must be > 0",
				 p->min_rate_fps);
	if (!(p->max_rate_fps > p->min_rate_fps) ||
	    !isfinite(p->max_rate_fps))
		return bm_errorf(err,
				 "max_rate_fps %g must be finite and > min_rate_fps %g",
				 p->max_rate_fps, p->min_rate_fps);
	if (!(p->initial_trial_duration_s > 0) ||
	    !isfinite(p->initial_trial_duration_s))
		return bm_errorf(err, "initial_trial_duration_s %g must be > 0",
				 p->initial_trial_duration_s);
	if (!(p->final_trial_duration_s >= p->initial_trial_duration_s) ||
	    !isfinite(p->final_trial_duration_s))
		return bm_errorf(err,
				 "final_trial_duration_s %g must be >= initial_trial_duration_s %g",
				 p->final_trial_duration_s,
				 p->initial_trial_duration_s);
	if (!(p->final_relative_width > 0 && p->final_relative_width < 1))
		return bm_errorf(err,
				 "final_relative_width %g must be in (0, 1)",
				 p->final_relative_width);
	if (!(p->expansion_coefficient > 1) ||
	    !isfinite(p->expansion_coefficient))
		return bm_errorf(err, "expansion_coefficient %g must be > 1",
				 p->expansion_coefficient);
	if (!(p->timeout_s > 0))
		return bm_errorf(err, "timeout_s %g must be > 0", p->timeout_s);
	if (nip > MLR_MAX_INTERMEDIATE_PHASES)
		return bm_errorf(err,
				 "number_of_intermediate_phases %u must be <= %d",
				 nip, MLR_MAX_INTERMEDIATE_PHASES);
	/* Each earlier phase doubles the goal; the first must stay < 1. */
	goal0 = mlr_phase_goal(p->final_relative_width, nip, 0);
	if (!(goal0 < 1.0))
		return bm_errorf(err,
				 "final_relative_width %g doubled for %u intermediate phases reaches 1; use fewer phases or a smaller width",
				 p->final_relative_width, nip);
	if (!p->target_loss_ratios || p->n_targets == 0)
		return bm_errorf(err,
				 "target_loss_ratios must list at least one ratio");
	for (i = 0; i < p->n_targets; i++) {
		double r = p->target_loss_ratios[i];

		if (!(r >= 0 && r < 1))
			return bm_errorf(err,
					 "target_loss_ratios[%zu] %g must be in [0, 1)",
					 i, r);
		/* The draft iterates "in increasing order" and the
		 * reference rejects unsorted or duplicate lists. */
		if (i > 0 && !(r > p->target_loss_ratios[i - 1]))
			return bm_errorf(err,
					 "target_loss_ratios must be strictly increasing: [%zu] %g after %g",
					 i, r, p->target_loss_ratios[i - 1]);
	}
	if (p->frame_size < 64 || p->frame_size > 65535)
		return bm_errorf(err, "frame_size %u B must be in [64, 65535]",
				 p->frame_size);
	if (!(p->packet_loss_ratio_tolerance >= 0 &&
	      p->packet_loss_ratio_tolerance < 1))
		return bm_errorf(err,
				 "packet_loss_ratio_tolerance %g must be in [0, 1)",
				 p->packet_loss_ratio_tolerance);
	if (!(p->attempt_tolerance_s >= 0) ||
	    !isfinite(p->attempt_tolerance_s))
		return bm_errorf(err, "attempt_tolerance_s %g must be >= 0",
				 p->attempt_tolerance_s);
	if (p->topology != BM_TOPO_PAIR_UNI &&
	    p->topology != BM_TOPO_PAIR_BIDIR)
		return bm_errorf(err, "topology %d must be pair-uni or pair-bidir",
				 (int)p->topology);
	if (!bm_mlr_mode_name(p->mode))
		return bm_errorf(err, "mode %d must be draft-01 or fast",
				 (int)p->mode);
	/* Negative means the backend's default; NaN is no wait at all. */
	if (isnan(p->drain_s) || p->drain_s > 3600)
		return bm_errorf(err, "drain_s %g must be <= 3600 (< 0: the backend's default)",
				 p->drain_s);
	return 0;
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

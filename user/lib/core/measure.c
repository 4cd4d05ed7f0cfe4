// SPDX-License-Identifier: GPL-2.0
/*
 * The measurer every search calls (bm_measure.h), and the one most
 * procedures give it: a constant stream over the job's pair of ports.
 */
#include <string.h>

#include "bm_measure.h"

static int pair_measure(const struct bm_measurer *m, double duration_s,
			double load_fps, struct bm_trial_spec *spec,
			struct bm_trial_result *res, struct bm_error *err)
{
	bm_trial_spec_rate(spec, m->pair.frame_size, load_fps, duration_s);
	spec->pair.topology = m->pair.topology;
	spec->learning = m->pair.learning;
	spec->learning_pause_s = m->pair.learning_pause_s;
	spec->drain_s = m->pair.drain_s;
	return bm_run_trial(m->be, spec, res, err);
}

void bm_measurer_pair(struct bm_measurer *m, struct bm_backend *be,
		      const struct bm_pair_trial *t)
{
	memset(m, 0, sizeof(*m));
	m->measure = pair_measure;
	m->be = be;
	m->pair = *t;
	m->directions = t->topology == BM_TOPO_PAIR_BIDIR ? 2 : 1;
}

int bm_measure(const struct bm_measurer *m, double duration_s,
	       double load_fps, struct bm_trial_spec *spec,
	       struct bm_trial_result *res, struct bm_error *err)
{
	memset(spec, 0, sizeof(*spec));
	memset(res, 0, sizeof(*res));
	return m->measure(m, duration_s, load_fps, spec, res, err);
}

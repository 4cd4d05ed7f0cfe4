// SPDX-License-Identifier: GPL-2.0
/*
 * The simulated DUT's outages within a trial, both models' (the pair
 * engine in sim_pair.c, the N-port one in sim_traffic.c): the scheduled
 * outage of DUT-OUTAGE and the one a DUT reset starts (R2544-RESET).
 */
#include "sim_int.h"

size_t sim_windows(struct sim_priv *sp, const struct bm_trial_spec *spec,
		   double step_at_s, struct win *wins,
		   struct bm_trial_result *res)
{
	const struct bm_sim_params *p = &sp->p;
	size_t nwin = 0;
	double t_out;

	/* Scheduled outage (DUT-OUTAGE). */
	if (p->outage_s > 0.0 &&
	    (!p->outage_trials || sp->outage_used < p->outage_trials)) {
		t_out = -1.0;
		if (p->outage_ref == BM_SIM_OUTAGE_START)
			t_out = p->outage_at_s;
		else if (step_at_s >= 0.0)
			t_out = step_at_s + p->outage_at_s;
		if (t_out >= 0.0) {
			wins[nwin++] = (struct win){ t_out, t_out + p->outage_s,
						     false };
			sp->outage_used++;
		}
	}
	/* The DUT reset hook fires at event_at_s (R2544-RESET). */
	if (spec->event_fn) {
		sp->in_trial = true;
		sp->reset_fired = false;
		sp->now_s = spec->event_at_s;
		res->event_fired_s = spec->event_at_s;
		res->event_ret = spec->event_fn(spec->event_ctx);
		sp->in_trial = false;
		if (sp->reset_fired && p->reset_outage_s > 0.0)
			wins[nwin++] = (struct win){
				sp->reset_at_s, sp->reset_at_s + p->reset_outage_s,
				false };
	}
	return nwin;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internals shared by sim.c (the pair model) and sim_traffic.c (the
 * N-port model) of the simulated DUT; not a public interface.
 */
#ifndef SIM_INT_H
#define SIM_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bm_sim.h"

#define SIM_MAX_WIN	4
#define SIM_DRAIN_S	2.0	/* REQ-TRIAL-1 step 4 default */

struct sim_priv {
	struct bm_sim_params p;
	uint64_t rng;
	unsigned int outage_used;
	/* set while a trial runs, for bm_sim_reset_hook */
	bool in_trial;
	double now_s;
	bool reset_fired;
	double reset_at_s;
};

/* An outage: nothing is forwarded in [s, e) s from the trial start. */
struct win {
	double s, e;
	bool flushed;
};

/* The next uniform [0, 1) draw of the simulator's seeded PRNG at *s. */
double sim_rng_uniform(uint64_t *s);

/*
 * The outage windows of one trial into wins[SIM_MAX_WIN]: the scheduled
 * outage (DUT-OUTAGE; a step-referenced one only when step_at_s >= 0)
 * and the one the DUT reset hook starts when spec->event_fn fires
 * (R2544-RESET, res->event_ret set).  Returns the number of windows.
 */
size_t sim_windows(struct sim_priv *sp, const struct bm_trial_spec *spec,
		   double step_at_s, struct win *wins,
		   struct bm_trial_result *res);

/* Run spec->traffic on the N-port model (sim_traffic.c); as run_trial. */
int sim_run_traffic(struct bm_backend *be, const struct bm_trial_spec *spec,
		    struct bm_trial_result *res, struct bm_error *err);

#endif /* SIM_INT_H */

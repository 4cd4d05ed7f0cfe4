// SPDX-License-Identifier: GPL-2.0
/*
 * bm_run_trial(): the one way a procedure or a search runs a trial.  A
 * pair load becomes its traffic here (bm_traffic_of_pair), so that every
 * backend runs traffic only; apart from trial.c, whose helpers the
 * traffic files themselves use.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "bm_traffic.h"
#include "bm_trial.h"

/*
 * The copy of a pair trial's spec a backend runs: its traffic (t, built
 * here) set, and for a load step the whole of both loads as its
 * duration, as an N-port trial's duration holds every stream.
 */
static int pair_run_spec(const struct bm_backend *be,
			 const struct bm_trial_spec *spec,
			 struct bm_trial_spec *run, struct bm_traffic *t,
			 struct bm_error *err)
{
	int ret = bm_traffic_of_pair(spec, be, t, err);

	if (ret)
		return ret;
	*run = *spec;
	run->traffic = t;
	if (spec->pair.pattern == BM_PAT_STEP)
		run->duration_s = spec->duration_s + spec->pair.step_duration_s;
	return 0;
}

int bm_run_trial(struct bm_backend *be, const struct bm_trial_spec *spec,
		 struct bm_trial_result *res, struct bm_error *err)
{
	struct bm_trial_spec run;
	struct bm_traffic t;
	int ret;

	bm_trial_result_empty(res);
	/* a procedure that goes on to its next step after a cancelled
	 * trial (another frame size) starts nothing more */
	if (be->abort && *be->abort)
		return bm_errorf(err, "cancelled"), -ECANCELED;
	/* every backend runs traffic: a pair trial's is built here, once */
	if (!spec->traffic && !be->ops->translates_pairs) {
		ret = pair_run_spec(be, spec, &run, &t, err);
		if (ret)
			return ret;
		ret = be->ops->run_trial(be, &run, res, err);
		bm_traffic_free(&t);
		/*
		 * RFC 2544 §26.4: a burst is back to back at the minimum
		 * gap.  One the generator handed over with a wider gap
		 * somewhere offered the DUT less than asked: what it passed
		 * says nothing (REQ-GEN-6).
		 */
		if (!ret && spec->pair.pattern == BM_PAT_BURST &&
		    res->tx_burst_late_max_s > BM_BURST_GAP_TOL_S)
			res->generator_limited = true;
	} else {
		ret = be->ops->run_trial(be, spec, res, err);
	}
	be->trials++;
	/* frames lost to a flapping tester link are no loss of
	 * the DUT; a search would take them for one and come out low */
	if (!ret && res->link_downs && !spec->link_down_ok)
		return bm_errorf(err, "port %s lost its link during the trial "
				 "(%u time%s): its losses measure the link, "
				 "not the DUT", res->link_down_port[0] ?
				 res->link_down_port : "?", res->link_downs,
				 res->link_downs == 1 ? "" : "s"), -ENETDOWN;
	return ret;
}

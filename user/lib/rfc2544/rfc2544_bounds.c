// SPDX-License-Identifier: GPL-2.0
/*
 * What a parameter set of RFC 2544 implies before any trial: MLRsearch's
 * timeout, the most trials a test may run (for bmd's estimate and the
 * fuzzers' bound) and its shortest trial.  Apart from the parameters'
 * parsing (rfc2544_params.c) because these are computed from parsed
 * parameters, by the registry and the run alike.
 */
#include <math.h>

#include "rfc2544_int.h"

double rfc2544_mlr_timeout_s(const struct rfc2544_params *p)
{
	/*
	 * A fixed 600 s cut a search with 60 s final trials short.
	 * Unless given, allow 30 full-length trials with their drain and
	 * restabilise waits (the backend's clock counts both), never less
	 * than MLRsearch's own
	 * 600 s [PROPOSED].  An NDR search that falls to r_min at the final
	 * duration and bisects back takes 34 trials, 17 of them full-length:
	 * 1199 s of the former 20 x 60 s on the simulator with a 2 s drain,
	 * and out of time with any longer drain.
	 */
	return p->mlr_timeout_s > 0.0 ? p->mlr_timeout_s :
	       fmax(600.0, 30.0 * (p->thr_final_trial_s + p->drain_s +
				   p->restabilise_s));
}

/* The most trials of one throughput search (binary or MLRsearch) with p,
 * as rfc2544.c sets either up. */
static double search_bound(const struct rfc2544_params *p)
{
	struct bm_binsearch_params bin = { 0 };
	struct bm_mlr9971_input in;
	struct bm_rate_search s;
	struct bm_mlr_goal goal;
	struct bm_mlr_params mp;

	if (p->search == BM_SEARCH_RFC9971) {
		/* rates do not bound it; the durations and width do */
		bm_rate_search_default(&s, 64, 1e9);
		s.bin.final_trial_s = p->thr_final_trial_s;
		s.bin.search_trial_s = p->thr_search_trial_s;
		bm_rate_search_9971_input(&s, &goal, &in);
		return bm_mlr9971_max_trials(&in);
	}
	if (p->search != BM_SEARCH_MLR)
		return bm_binsearch_max_trials(&bin);
	bm_mlr_params_default(&mp);
	mp.final_trial_duration_s = p->thr_final_trial_s;
	mp.initial_trial_duration_s = fmin(p->mlr_initial_trial_s,
					   p->thr_final_trial_s);
	mp.timeout_s = rfc2544_mlr_timeout_s(p);
	return bm_mlr_max_trials(&mp);
}

double rfc2544_max_trials(const struct rfc2544_params *p, enum rfc2544_test t)
{
	/* the throughput measured first, per size, unless given */
	double thr = p->throughput_fps[0] > 0.0 ? 0.0 : search_bound(p);
	double per = 0.0, sizes = (double)p->n_sizes;

	switch (t) {
	case RFC2544_THROUGHPUT:
		per = search_bound(p);
		break;
	case RFC2544_LATENCY:
		/* stops once invalid repetitions exceed max_invalid */
		per = thr + p->lat_repetitions + p->lat_max_invalid + 1.0;
		break;
	case RFC2544_FRAME_LOSS:
		/* 100 % down in steps, one past the two zero-loss trials */
		per = ceil(100.0 / p->flr_step_pct) + 1.0;
		break;
	case RFC2544_BACK_TO_BACK:
		/* the first repetition grows and bisects to burst_max (unset:
		 * a second at the line, 2^40 at the most), the others start
		 * at the previous answer (AMB-19): two bursts for a DUT that
		 * repeats itself; eight cover an answer that moved by up to
		 * about 15 frames (steps 1, 2, 4, 8, then a bisection) */
		per = 2.0 * (p->b2b_burst_max ?
			     ceil(log2((double)p->b2b_burst_max + 1)) : 40) +
		      2.0 + 8.0 * (p->b2b_repetitions - 1);
		break;
	case RFC2544_RECOVERY:
		per = thr + p->rec_repetitions;
		break;
	case RFC2544_RESET:
		/* §26.6: the smallest size only, 64 repetitions at most */
		sizes = 1.0;
		per = thr + fmin(p->reset_repetitions, 64);
		break;
	default:
		break;
	}
	/* a search or a table per burst size (§21) */
	if ((t == RFC2544_THROUGHPUT || t == RFC2544_FRAME_LOSS) && p->n_bursts)
		per *= (double)p->n_bursts;
	return per * sizes;
}

double rfc2544_shortest_trial_s(const struct rfc2544_params *p,
				enum rfc2544_test t)
{
	double s = INFINITY;
	size_t i;
	bool search = t == RFC2544_THROUGHPUT;

	/* LAT, RECOV and RESET search unless every throughput is given */
	if (M(t) & M_NEED)
		for (i = 0; i < p->n_sizes; i++)
			search = search || !(p->throughput_fps[i] > 0.0);
	if (search) {
		s = p->thr_search_trial_s;
		if (p->search == BM_SEARCH_MLR)
			s = fmin(s, p->mlr_initial_trial_s);
	}
	switch (t) {
	case RFC2544_THROUGHPUT:
		return fmin(s, p->thr_final_trial_s);
	case RFC2544_LATENCY:
		return fmin(s, p->lat_trial_s);
	case RFC2544_FRAME_LOSS:
		return fmin(s, p->flr_trial_s);
	case RFC2544_BACK_TO_BACK:
		return fmin(s, p->b2b_trial_s);
	case RFC2544_RECOVERY:
		return fmin(s, p->rec_overload_s);
	case RFC2544_RESET:
		return fmin(s, p->reset_trial_s);
	case RFC2544_N_TESTS:
		break;
	}
	return s;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The RFC 9971 Controller's measurement (mlr9971_int.h), the same for
 * every load selection: a trial through the Measurer (§4.9.1), its Trial
 * Loss Ratio as MLR-MEAS accounts it, the repeats of a trial the
 * generator could not offer in full, the trial log, the time limit, and
 * the Trial Results kept by Load for the Goal Results (bm_mlr_goal.h).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bm_search.h"
#include "bm_traffic.h"
#include "mlr9971_int.h"
#include "mlrsearch_int.h"

#define MAX_TRIALS	100000

struct r9971_load *r9971_find_load(struct r9971_ctl *c, double load_fps)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		if (c->v[i].load == load_fps)
			return &c->v[i];
	return NULL;
}

/* One attempt's outcome: its Trial Result, the forwarding rate (frames
 * received per second of the trial, per direction), the loss ratio one
 * frame makes, and whether the generator could not offer the load. */
struct attempt {
	struct bm_mlr_trial t;
	double fwd_fps;
	double frame;
	bool short_gen;
};

/* Add attempt a's trial at load; 0 or -ENOMEM. */
static int db_add(struct r9971_ctl *c, double load, const struct attempt *a)
{
	struct r9971_load *l = r9971_find_load(c, load);
	void *p;

	if (!l) {
		if (c->n == c->cap) {
			p = realloc(c->v, (c->cap ? 2 * c->cap : 32) *
					  sizeof(*c->v));
			if (!p)
				return -ENOMEM;
			c->v = p;
			c->cap = c->cap ? 2 * c->cap : 32;
		}
		l = &c->v[c->n++];
		memset(l, 0, sizeof(*l));
		l->load = load;
		l->first_fr = fmin(load, a->fwd_fps);
		l->first_frame = a->frame;
	}
	if (l->n == l->cap) {
		p = realloc(l->t, (l->cap ? 2 * l->cap : 4) * sizeof(*l->t));
		if (!p)
			return -ENOMEM;
		l->t = p;
		l->cap = l->cap ? 2 * l->cap : 4;
	}
	l->t[l->n++] = a->t;
	return 0;
}

/* One trial at load for dur, logged with why and reported; its outcome
 * in *a.  0 or -errno. */
static int one_trial(struct r9971_ctl *c, double load, double dur,
		     const char *why, struct attempt *a)
{
	struct bm_mlr9971_result *res = c->res;
	struct bm_trial_spec spec;
	struct bm_trial_result tr;
	uint64_t beyond;
	char line[160];
	int ret;

	if (c->in->max_search_s > 0 &&
	    c->m->be->elapsed_s - c->start_s >= c->in->max_search_s) {
		res->timed_out = true;
		return bm_errorf(c->err, "mlrsearch: %.1f s spent, the limit "
				 "max_search_s", c->in->max_search_s),
		       -ETIMEDOUT;
	}
	if (res->log.n >= MAX_TRIALS)
		return bm_errorf(c->err, "mlrsearch: internal error: %d "
				 "trials and not converging", MAX_TRIALS),
		       -EPROTO;
	ret = bm_measure(c->m, dur, load, &spec, &tr, c->err);
	/* a pool's host failed it: kept as bm_search_trial keeps one */
	if (ret && bm_search_keep_failed(&spec, &tr, &res->log, why))
		mlr_push_ratio(&res->loss_ratios, res->log.n,
			       mlr_trial_loss_ratio(load * c->m->directions,
						    dur, &tr,
						    c->in->attempt_tolerance_s,
						    &beyond));
	if (ret)
		return ret;
	/* §4.5.6 from the counts as MLR-MEAS accounts them: frames the
	 * generator did not send count as lost (§4.9.1's recommendation) */
	a->t.duration_s = a->t.effective_s = dur;
	a->t.loss_ratio = mlr_trial_loss_ratio(load * c->m->directions, dur,
					       &tr, c->in->attempt_tolerance_s,
					       &beyond);
	a->frame = mlr_trial_frame_ratio(load * c->m->directions, dur, &tr,
					 c->in->attempt_tolerance_s);
	/* counted, not load * (1 - loss ratio): that product's rounding
	 * can put the next load a few ulps above what was forwarded */
	a->fwd_fps = (double)tr.received / (dur * c->m->directions);
	a->short_gen = beyond || tr.generator_limited;
	res->trial_time_s += dur;
	ret = bm_trial_log_add(&res->log, c->phase, why, &spec, &tr);
	if (!ret)
		bm_trial_record_offered(&res->log.v[res->log.n - 1]);
	if (!ret)
		ret = mlr_push_ratio(&res->loss_ratios, res->log.n,
				     a->t.loss_ratio);
	if (ret)
		return bm_errorf(c->err, "mlrsearch: out of memory"), -ENOMEM;
	if (c->progress) {
		snprintf(line, sizeof(line), "%s: %.0f fps for %g s: loss "
			 "ratio %.4g", c->phase, load, dur, a->t.loss_ratio);
		if (c->progress(c->ctx, &res->log.v[res->log.n - 1], line))
			return bm_errorf(c->err, "mlrsearch: cancelled after "
					 "%zu trials", res->log.n),
			       -ECANCELED;
	}
	return 0;
}

/*
 * A trial the generator could not offer in full (a stalled host, a load
 * above what it can send) is repeated, at most R9971_REPEATS times,
 * every attempt logged, and only the last counts at the load: its
 * shortfall is the generator's, not the DUT's, and one stall must not
 * make a bound.  One that stays short counts with its unsent frames lost
 * (§4.9.1) and generator_limited_trials says so.
 */
int r9971_measure(struct r9971_ctl *c, double load_fps, double dur_s,
		  const char *why, double *loss_ratio)
{
	struct attempt a;
	unsigned int n;
	int ret;

	for (n = 0;; n++) {
		ret = one_trial(c, load_fps, dur_s, n ? "repeat: the generator "
				"could not offer the load" : why, &a);
		if (ret)
			return ret;
		if (!a.short_gen || n == R9971_REPEATS)
			break;
		c->res->repeated_trials++;
	}
	if (a.short_gen)
		c->res->generator_limited_trials++;
	if (db_add(c, load_fps, &a))
		return bm_errorf(c->err, "mlrsearch: out of memory"), -ENOMEM;
	if (loss_ratio)
		*loss_ratio = a.t.loss_ratio;
	return 0;
}

int r9971_goal_result(const struct r9971_ctl *c, const struct bm_mlr_goal *g,
		      struct bm_mlr_goal_result *r)
{
	struct bm_mlr_load *l = calloc(c->n ? c->n : 1, sizeof(*l));
	size_t i;

	if (!l)
		return -ENOMEM;
	for (i = 0; i < c->n; i++)
		l[i] = (struct bm_mlr_load){ c->v[i].load, c->v[i].t,
					     c->v[i].n };
	bm_mlr_goal_result(g, l, c->n, c->in->max_load_fps, r);
	free(l);
	return 0;
}

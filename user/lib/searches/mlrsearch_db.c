// SPDX-License-Identifier: GPL-2.0
/*
 * MLRsearch arithmetic and bookkeeping: width arithmetic (MLR-WIDTH,
 * F-15), the per-duration measurement database with effective loss
 * ratios and bounds (MLR-DB), trial loss accounting (MLR-MEAS) and the
 * extraction of the returned bounds (MLR-OUT).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mlrsearch_int.h"

double mlr_rel_width(double a_fps, double b_fps)
{
	double lo = a_fps < b_fps ? a_fps : b_fps;
	double hi = a_fps < b_fps ? b_fps : a_fps;

	return (hi - lo) / hi;
}

double mlr_mul_w(double w, double c)
{
	/* Widths add in log space ([MLR §5.1] item 1): ln(1 - w) is the
	 * (negative) log width, so scaling it scales the interval. */
	return 1.0 - exp(log(1.0 - w) * c * MLR_RC);
}

double mlr_step_down(double x_fps, double w)
{
	return x_fps * (1.0 - w);
}

double mlr_step_up(double x_fps, double w)
{
	return x_fps / (1.0 - w);
}

double mlr_half_w(double w, double goal)
{
	/* The exact geometric midpoint: "the middle of 2 and 8 is 4". */
	double fallback = 1.0 - sqrt(1.0 - w);
	/* How many goals wide the interval is, in log space. */
	double wig = log(1.0 - w) / log(1.0 - goal);
	double cwig = 2.0 * ceil(wig / 2.0);
	double fwig = 2.0 * ceil(wig * MLR_RC / 2.0);

	/*
	 * [MLR §4.3] 2.5.3.4: two goals or less, halve.  2.5.3.5-6: round
	 * up to an even multiple and give the lower sub-interval half of it,
	 * so the upper one is narrower and one lucky trial ends the
	 * iteration.  If the rounding flips under the 1e-6 rounding
	 * constant, wig is an even integer blurred by float noise: halve.
	 */
	if (wig <= 2.0 || cwig != fwig)
		return fallback;
	return mlr_mul_w(goal, cwig / 2.0);
}

double mlr_bisect_load(double lo_fps, double hi_fps, double goal)
{
	double w = mlr_rel_width(lo_fps, hi_fps);

	/* [MLR §4.3] 2.5.3.3: a multiple not above one means done. */
	if (w <= goal)
		return MLR_NONE;
	return mlr_step_up(lo_fps < hi_fps ? lo_fps : hi_fps,
			   mlr_half_w(w, goal));
}

double mlr_phase_goal(double final_relative_width, unsigned int nip,
		      unsigned int p)
{
	double goal = final_relative_width;
	unsigned int i;

	/* [MLR §4.3] 1.2: "doubled for each preceding phase" (log space). */
	for (i = p; i < nip; i++)
		goal = mlr_mul_w(goal, 2.0);
	return goal;
}

double mlr_phase_duration_s(double initial_s, double final_s,
			    unsigned int nip, unsigned int p)
{
	/* [MLR §4.3] 1.1: exact ends, geometric sequence in between. */
	if (p >= nip)
		return final_s;
	if (p == 0)
		return initial_s;
	return initial_s * pow(final_s / initial_s, (double)p / nip);
}

bool mlr_same_load(double a_fps, double b_fps)
{
	double hi = a_fps > b_fps ? a_fps : b_fps;

	return fabs(a_fps - b_fps) <= MLR_SAME_LOAD_REL * hi;
}

void mlr_db_init(struct mlr_db *db)
{
	memset(db, 0, sizeof(*db));
	db->cur = -1;
	db->prev = -1;
}

void mlr_db_free(struct mlr_db *db)
{
	size_t i;

	for (i = 0; i < db->n; i++)
		free(db->d[i].v);
	free(db->d);
	mlr_db_init(db);
}

int mlr_db_set_duration(struct mlr_db *db, double duration_s)
{
	struct mlr_dur *d;

	/* The first intermediate phase reuses the initial duration. */
	if (db->cur >= 0 && db->d[db->cur].duration_s == duration_s)
		return 0;
	if (db->n == db->cap) {
		size_t cap = db->cap ? db->cap * 2 : 8;

		d = realloc(db->d, cap * sizeof(*d));
		if (!d)
			return -ENOMEM;
		db->d = d;
		db->cap = cap;
	}
	d = &db->d[db->n];
	memset(d, 0, sizeof(*d));
	d->duration_s = duration_s;
	db->prev = db->cur;
	db->cur = (int)db->n++;
	return 0;
}

/* MLR-DB: elr_i = max(elr_{i-1}, lr_i) in ascending load order. */
static void mlr_dur_update_elr(struct mlr_dur *d)
{
	double elr = 0.0;
	size_t i;

	for (i = 0; i < d->n; i++) {
		if (d->v[i].loss_ratio > elr)
			elr = d->v[i].loss_ratio;
		d->v[i].eff_loss_ratio = elr;
	}
}

bool mlr_db_has(const struct mlr_db *db, double load_fps)
{
	const struct mlr_dur *d;
	size_t i;

	if (db->cur < 0)
		return false;
	d = &db->d[db->cur];
	for (i = 0; i < d->n; i++)
		if (mlr_same_load(d->v[i].load_fps, load_fps))
			return true;
	return false;
}

int mlr_db_add(struct mlr_db *db, double load_fps, double loss_ratio,
	       unsigned int trial)
{
	return mlr_db_add_trial(db, load_fps, loss_ratio, 0.0, trial);
}

int mlr_db_add_trial(struct mlr_db *db, double load_fps, double loss_ratio,
		     double frame_ratio, unsigned int trial)
{
	struct mlr_dur *d;
	struct mlr_point *v;
	size_t i;

	if (db->cur < 0)
		return -EINVAL;
	/* [MLR §3] a (load, duration) pair is never measured twice. */
	if (mlr_db_has(db, load_fps))
		return -EEXIST;
	d = &db->d[db->cur];
	if (d->n == d->cap) {
		size_t cap = d->cap ? d->cap * 2 : 16;

		v = realloc(d->v, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		d->v = v;
		d->cap = cap;
	}
	for (i = d->n; i > 0 && d->v[i - 1].load_fps > load_fps; i--)
		d->v[i] = d->v[i - 1];
	d->v[i].load_fps = load_fps;
	d->v[i].loss_ratio = loss_ratio;
	d->v[i].frame_ratio = frame_ratio;
	d->v[i].trial = trial;
	d->n++;
	mlr_dur_update_elr(d);
	return 0;
}

void mlr_db_forget(struct mlr_db *db, double load_fps)
{
	struct mlr_dur *d;
	size_t i;

	if (db->cur < 0)
		return;
	d = &db->d[db->cur];
	for (i = 0; i < d->n; i++) {
		if (!mlr_same_load(d->v[i].load_fps, load_fps))
			continue;
		memmove(&d->v[i], &d->v[i + 1], (d->n - i - 1) * sizeof(*d->v));
		d->n--;
		/* A forgotten high loss must not linger in the elr. */
		mlr_dur_update_elr(d);
		return;
	}
}

struct mlr_bounds mlr_db_bounds(const struct mlr_db *db, int di,
				double ratio)
{
	struct mlr_bounds b = { NULL, NULL, NULL, NULL };
	const struct mlr_dur *d;
	size_t i;

	if (di < 0)
		return b;
	d = &db->d[di];
	/*
	 * Effective loss ratios never decrease with load, so the points
	 * split into a prefix of lower bounds and a suffix of upper bounds;
	 * the tightest ones sit on either side of the split.
	 */
	for (i = 0; i < d->n && d->v[i].eff_loss_ratio <= ratio; i++)
		;
	if (i < d->n)
		b.hi1 = &d->v[i];
	if (i + 1 < d->n)
		b.hi2 = &d->v[i + 1];
	if (i >= 1)
		b.lo1 = &d->v[i - 1];
	if (i >= 2)
		b.lo2 = &d->v[i - 2];
	return b;
}

static uint64_t sat_sub(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

/* MLR-MEAS: tx and loss of one trial; *beyond_tolerance as below. */
static void mlr_trial_account(double intended_fps, double duration_s,
			      const struct bm_trial_result *res,
			      double attempt_tolerance_s,
			      uint64_t *beyond_tolerance, uint64_t *tx_frames,
			      uint64_t *loss_frames)
{
	uint64_t n_int = res->intended;
	uint64_t att = res->attempted, rx = res->received;
	uint64_t tol, tx, loss;

	/* [MLR §5.1] item 3: the generator's own rounding wins when known. */
	if (!n_int)
		n_int = (uint64_t)llround(intended_fps * duration_s);
	/* Items 5-6: "10 microseconds worth of traffic" (AMB-53). */
	tol = (uint64_t)ceil(intended_fps * attempt_tolerance_s);
	*beyond_tolerance = 0;
	if (att + tol < n_int) {
		/* Duration stretching: unsent frames count as lost. */
		*beyond_tolerance = n_int - att;
		tx = n_int;
		loss = sat_sub(n_int, rx);
	} else if (att > n_int + tol) {
		/* Excess (retransmissions): the surplus counts as lost. */
		*beyond_tolerance = att - n_int;
		tx = n_int;
		loss = (att - n_int) + sat_sub(n_int, rx);
	} else {
		tx = att;
		loss = sat_sub(att, rx);
	}
	if (loss > tx)
		loss = tx;
	*tx_frames = tx;
	*loss_frames = loss;
}

double mlr_trial_loss_ratio(double intended_fps, double duration_s,
			    const struct bm_trial_result *res,
			    double attempt_tolerance_s,
			    uint64_t *beyond_tolerance)
{
	uint64_t tx, loss;

	mlr_trial_account(intended_fps, duration_s, res, attempt_tolerance_s, beyond_tolerance,
			  &tx, &loss);
	/* Nothing sent proves nothing forwarded: treat as total loss. */
	return tx ? (double)loss / (double)tx : 1.0;
}

double mlr_trial_frame_ratio(double intended_fps, double duration_s,
			     const struct bm_trial_result *res,
			     double attempt_tolerance_s)
{
	uint64_t beyond, tx, loss;

	mlr_trial_account(intended_fps, duration_s, res, attempt_tolerance_s, &beyond, &tx,
			  &loss);
	return tx ? 1.0 / (double)tx : 1.0;
}

double mlr_dur_loss_at(const struct mlr_dur *d, double load_fps)
{
	size_t i;

	for (i = 0; d && i < d->n; i++)
		if (mlr_same_load(d->v[i].load_fps, load_fps))
			return d->v[i].loss_ratio;
	return -1.0;
}

int mlr_fill_bounds(const struct mlr_db *db, const struct bm_mlr_params *p,
		    struct bm_mlr_result *res)
{
	const struct mlr_dur *d = db->cur >= 0 ? &db->d[db->cur] : NULL;
	size_t i;

	free(res->bounds);
	res->n = 0;
	res->bounds = calloc(p->n_targets, sizeof(*res->bounds));
	if (!res->bounds)
		return -ENOMEM;
	res->n = p->n_targets;
	for (i = 0; i < p->n_targets; i++) {
		struct bm_mlr_bound *o = &res->bounds[i];
		double r = p->target_loss_ratios[i];
		struct mlr_bounds b = mlr_db_bounds(db, db->cur,
				r + p->packet_loss_ratio_tolerance);

		o->target_ratio = r;
		o->duration_s = d ? d->duration_s : 0.0;
		/* [MLR §4.3] 1.6.1: no valid bound -> min_rate / max_rate. */
		o->lower_valid = b.lo1 != NULL;
		o->lower_fps = b.lo1 ? b.lo1->load_fps : p->min_rate_fps;
		o->lower_loss_ratio = b.lo1 ? b.lo1->loss_ratio :
				      mlr_dur_loss_at(d, p->min_rate_fps);
		o->upper_valid = b.hi1 != NULL;
		o->upper_fps = b.hi1 ? b.hi1->load_fps : p->max_rate_fps;
		o->upper_loss_ratio = b.hi1 ? b.hi1->loss_ratio :
				      mlr_dur_loss_at(d, p->max_rate_fps);
		o->upper_duration_s = o->duration_s;
	}
	return 0;
}

int mlr_push_ratio(double **v, size_t n, double lr)
{
	double *p = realloc(*v, n * sizeof(*p));

	if (!p)
		return -ENOMEM;
	*v = p;
	p[n - 1] = lr;
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/* Simulated devices for MLRsearch tests; see mlr_devices.h. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlr_devices.h"

enum mlr_dev_kind {
	DEV_CLIFF, DEV_GRADUAL, DEV_BUFFER, DEV_NOISY, DEV_NONMONO,
	DEV_GENLIMIT, DEV_LIVELOCK, DEV_CONSTANT, DEV_REPLAY52, DEV_CMP,
};

struct mlr_dev {
	enum mlr_dev_kind kind;
	double a, b, c, d;		/* kind-specific parameters */
	uint64_t rng;
	int fail_at;
};

/* Frames per "exact" trial: any double ratio r in [0, 1) times 2^62 is
 * an integer to within 2^-64 absolute, so lost / 2^62 gives r back. */
#define EXACT_FRAMES ((uint64_t)1 << 62)

/* [MLR §5.2]: duration s, load pps, loss ratio of measurements 1-16. */
static const double replay52[][3] = {
	{ 1.0, 18750000.0, 0.7089514628479618 },
	{ 1.0, 5457160.071600716, 0.018650817320118702 },
	{ 1.0, 5348832.933500009, 0.00964383362905351 },
	{ 1.0, 4936605.579021453, 0.0 },
	{ 1.0, 5138587.208637197, 0.0 },
	{ 1.0, 5242656.244044665, 0.013523745379347257 },
	{ 5.477225575051661, 5190360.904111567, 0.0023533920869969953 },
	{ 5.477225575051661, 5138587.208637197, 1.2080222912800403e-06 },
	{ 5.477225575051661, 4936605.381062318, 0.0 },
	{ 5.477225575051661, 5036583.888432355, 0.0 },
	{ 5.477225575051661, 5087329.903232804, 0.0 },
	{ 5.477225575051661, 5242656.244044665, 0.0101174866190136 },
	{ 30.0, 5112894.3238511775, 0.0 },
	{ 30.0, 5138587.208637197, 2.030389804256833e-06 },
	{ 30.0, 5216443.04126728, 0.005620871287975237 },
	{ 30.0, 5190360.904111567, 0.0027629971184465604 },
};

static bool close_rel(double x, double y)
{
	return fabs(x - y) <= 1e-9 * fmax(fabs(x), fabs(y));
}

/* xorshift64: tiny, seeded, the same sequence on every host. */
static double dev_uniform(struct mlr_dev *d)
{
	d->rng ^= d->rng << 13;
	d->rng ^= d->rng >> 7;
	d->rng ^= d->rng << 17;
	return (double)(d->rng >> 11) / (double)(1ULL << 53);
}

/* Counts of a trial that forwards at most fwd frames of n. */
static void fill_counts(struct bm_trial_result *res, uint64_t n,
			uint64_t attempted, uint64_t lost)
{
	res->intended = n;
	res->attempted = attempted;
	if (lost > attempted)
		lost = attempted;
	res->lost = lost;
	res->received = attempted - lost;
}

/* Loss ratio of comparison device kind at load l fps (mlr_devices.h). */
static double cmp_loss_ratio(enum mlr_cmp_dev kind, double c, double l)
{
	switch (kind) {
	case MLR_CMP_CLIFF:
		return fmax(0.0, 1.0 - c / l);
	case MLR_CMP_GRADUAL:
		if (l <= 0.98 * c)
			return 0.0;
		if (l <= 1.02 * c)
			return 0.01 * (l - 0.98 * c) / (0.04 * c);
		return fmax(0.01, 1.0 - c / l);
	case MLR_CMP_BGLOSS:
		if (l <= 0.5 * c)
			return 0.0;
		if (l <= c)
			return 1e-6;
		return fmax(1e-6, 1.0 - c / l);
	default:
		return 0.0;
	}
}

/* A comparison device's trial: whole frames sent, whole frames lost. */
static void cmp_run(const struct mlr_dev *d, double rate, double dur,
		    struct bm_trial_result *res)
{
	enum mlr_cmp_dev kind = (enum mlr_cmp_dev)d->b;
	double c = d->a, sent = floor(dur * rate), lr;

	/* The buffer's excess as a share of the intended d L frames, not of
	 * the floor()ed sent: the CSIT figures were made this way (a
	 * load a few ulps above C d + 0.02 C loses one frame). */
	if (kind == MLR_CMP_BUFFER)
		lr = fmax(0.0, 1.0 - (c * dur + 0.02 * c) / (dur * rate));
	else
		lr = cmp_loss_ratio(kind, c, rate);
	fill_counts(res, (uint64_t)sent, (uint64_t)sent,
		    (uint64_t)ceil(sent * lr));
}

static int mlr_dev_run(struct bm_backend *be, const struct bm_trial_spec *spec,
		       struct bm_trial_result *res, struct bm_error *err)
{
	struct mlr_dev *d = be->priv;
	double rate = spec->pair.rate_fps, dur = spec->duration_s;
	uint64_t n = (uint64_t)llround(rate * dur);
	double lr = 0.0, cap, excess;
	bool exact = false;
	size_t i;

	if (d->fail_at >= 0 && be->trials == (unsigned int)d->fail_at) {
		bm_errorf(err, "device: injected failure");
		return -EIO;
	}
	be->elapsed_s += dur + MLR_DEV_OVERHEAD_S;
	res->actual_duration_s = dur;
	snprintf(res->ts_source, sizeof(res->ts_source), "sim");

	switch (d->kind) {
	case DEV_CMP:
		cmp_run(d, rate, dur, res);
		return 0;
	case DEV_CLIFF:
	case DEV_NOISY:
		cap = d->a;
		if (d->kind == DEV_NOISY)
			cap *= 1.0 + d->b * (2.0 * dev_uniform(d) - 1.0);
		excess = rate * dur - floor(cap * dur);
		fill_counts(res, n, n, excess > 0 ? (uint64_t)llround(excess) : 0);
		return 0;
	case DEV_BUFFER:
		/* The buffer absorbs the excess of a short trial. */
		excess = (rate - d->a) * dur - d->b;
		fill_counts(res, n, n, excess > 0 ? (uint64_t)llround(excess) : 0);
		return 0;
	case DEV_GENLIMIT:
		/* The generator stops on time with frames unsent. */
		if (rate > d->a) {
			fill_counts(res, n, (uint64_t)llround(d->a * dur), 0);
			res->generator_limited = true;
		} else {
			fill_counts(res, n, n, 0);
		}
		return 0;
	case DEV_GRADUAL:
		if (rate > d->a)
			lr = fmin(1.0, d->b * (rate - d->a) / d->a);
		break;
	case DEV_NONMONO:
		if (rate > d->a)
			lr = (rate - d->a) / rate;
		else if (rate >= d->b && rate <= d->c)
			lr = d->d;
		break;
	case DEV_LIVELOCK:
		exact = true;
		if (rate > 5e6)
			lr = fmin(1.0, (rate - 5e6) / rate + 0.01);
		break;
	case DEV_CONSTANT:
		exact = true;
		lr = d->a;
		break;
	case DEV_REPLAY52:
		/* Call k must be the draft's measurement k (MLR-ACC V1). */
		exact = true;
		i = be->trials;
		if (i >= sizeof(replay52) / sizeof(replay52[0]) ||
		    !close_rel(dur, replay52[i][0]) ||
		    !close_rel(rate, replay52[i][1]))
			return bm_errorf(err,
					 "replay52: trial %zu d=%.15g s load=%.17g is not the draft's measurement %zu",
					 i + 1, dur, rate, i + 1);
		lr = replay52[i][2];
		break;
	}
	if (exact) {
		fill_counts(res, EXACT_FRAMES, EXACT_FRAMES,
			    (uint64_t)llround(lr * (double)EXACT_FRAMES));
		return 0;
	}
	fill_counts(res, n, n, (uint64_t)llround(lr * (double)n));
	return 0;
}

static void mlr_dev_ops_destroy(struct bm_backend *be)
{
	free(be->priv);
	free(be);
}

static const struct bm_backend_ops mlr_dev_ops = {
	.run_trial = mlr_dev_run,
	.destroy = mlr_dev_ops_destroy,
};

static struct bm_backend *dev_new(enum mlr_dev_kind kind, double a, double b,
				  double c, double d)
{
	struct bm_backend *be = calloc(1, sizeof(*be));
	struct mlr_dev *dev = calloc(1, sizeof(*dev));

	if (!be || !dev) {
		free(be);
		free(dev);
		return NULL;
	}
	dev->kind = kind;
	dev->a = a;
	dev->b = b;
	dev->c = c;
	dev->d = d;
	dev->fail_at = -1;
	be->ops = &mlr_dev_ops;
	be->name = "mlr-dev";
	be->line_rate_bps = 10e9;
	be->priv = dev;
	return be;
}

struct bm_backend *mlr_dev_cliff(double capacity_fps)
{
	return dev_new(DEV_CLIFF, capacity_fps, 0, 0, 0);
}

struct bm_backend *mlr_dev_gradual(double knee_fps, double slope)
{
	return dev_new(DEV_GRADUAL, knee_fps, slope, 0, 0);
}

struct bm_backend *mlr_dev_buffer(double capacity_fps, double buffer_frames)
{
	return dev_new(DEV_BUFFER, capacity_fps, buffer_frames, 0, 0);
}

struct bm_backend *mlr_dev_noisy(double capacity_fps, double noise_rel,
				 uint64_t seed)
{
	struct bm_backend *be = dev_new(DEV_NOISY, capacity_fps, noise_rel,
					0, 0);

	if (be)
		((struct mlr_dev *)be->priv)->rng = seed ? seed : 1;
	return be;
}

struct bm_backend *mlr_dev_nonmono(double capacity_fps, double band_lo_fps,
				   double band_hi_fps, double band_loss_ratio)
{
	return dev_new(DEV_NONMONO, capacity_fps, band_lo_fps, band_hi_fps,
		       band_loss_ratio);
}

struct bm_backend *mlr_dev_genlimit(double tester_max_fps)
{
	return dev_new(DEV_GENLIMIT, tester_max_fps, 0, 0, 0);
}

struct bm_backend *mlr_dev_livelock(void)
{
	return dev_new(DEV_LIVELOCK, 0, 0, 0, 0);
}

struct bm_backend *mlr_dev_constant(double loss_ratio)
{
	return dev_new(DEV_CONSTANT, loss_ratio, 0, 0, 0);
}

struct bm_backend *mlr_dev_replay52(void)
{
	return dev_new(DEV_REPLAY52, 0, 0, 0, 0);
}

struct bm_backend *mlr_dev_cmp(enum mlr_cmp_dev kind, double capacity_fps)
{
	if (kind >= MLR_CMP_N)
		return NULL;
	return dev_new(DEV_CMP, capacity_fps, kind, 0, 0);
}

const char *mlr_dev_cmp_name(enum mlr_cmp_dev kind)
{
	static const char *const names[MLR_CMP_N] = {
		"cliff", "gradual", "duration-dependent", "low background loss",
	};

	return kind < MLR_CMP_N ? names[kind] : "?";
}

double mlr_dev_cmp_truth(enum mlr_cmp_dev kind, double capacity_fps,
			 double duration_s, double ratio)
{
	double c = capacity_fps;

	switch (kind) {
	case MLR_CMP_CLIFF:
		return c / (1.0 - ratio);
	case MLR_CMP_GRADUAL:
		/* the linear part: 0.98 C + 0.04 C ratio / 1 % */
		if (ratio <= 0.01)
			return 0.98 * c + 4.0 * c * ratio;
		return c / (1.0 - ratio);
	case MLR_CMP_BUFFER:
		/* (1 - ratio) d L = C d + 0.02 C */
		return c * (1.0 + 0.02 / duration_s) / (1.0 - ratio);
	case MLR_CMP_BGLOSS:
		if (ratio < 1e-6)
			return 0.5 * c;
		return c / (1.0 - ratio);
	default:
		return 0.0;
	}
}

void mlr_dev_fail_at(struct bm_backend *be, int fail_at)
{
	((struct mlr_dev *)be->priv)->fail_at = fail_at;
}

void mlr_dev_destroy(struct bm_backend *be)
{
	if (be)
		be->ops->destroy(be);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * mlr_bench: MLRsearch (NDR + PDR in one search) against two RFC 2544
 * style binary searches (NDR, then PDR), on simulated devices, at the
 * same final trial duration and relative precision (SPEC MLR-WHY,
 * REQ-MLR-2).  Time is virtual: trial durations plus a 0.5 s per-trial
 * overhead.  Prints a Markdown table to stdout.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bm_mlrsearch.h"
#include "mlrsearch_int.h"
#include "../../tests/unit/searches/mlr_devices.h"

#define MTR_FPS 14880952.380952381	/* 10 GbE, 64 B, one direction */
#define MIN_FPS 10000.0

struct bench_dev {
	const char *name;
	struct bm_backend *(*make)(void);
	double ndr_fps, pdr_fps;	/* analytic truth at 30 s; 0 = n/a */
};

static struct bm_backend *mk_cliff(void)
{
	return mlr_dev_cliff(3.3e6);
}

static struct bm_backend *mk_gradual(void)
{
	return mlr_dev_gradual(2e6, 0.5);
}

static struct bm_backend *mk_buffer(void)
{
	return mlr_dev_buffer(4e6, 6e6);
}

static struct bm_backend *mk_livelock(void)
{
	return mlr_dev_livelock();
}

static struct bm_backend *mk_nonmono(void)
{
	return mlr_dev_nonmono(5e6, 4.8e6, 4.85e6, 0.02);
}

static struct bm_backend *mk_noisy(void)
{
	return mlr_dev_noisy(6e6, 0.001, 7919);
}

static struct bm_backend *mk_genlimit(void)
{
	return mlr_dev_genlimit(7e6);
}

static const struct bench_dev devs[] = {
	{ "cliff 3.3 Mfps", mk_cliff, 3.3e6, 3.3e6 / 0.995 },
	{ "gradual, knee 2 Mfps", mk_gradual, 2e6, 2e6 * 1.01 },
	{ "buffer 6 M frames, 4 Mfps", mk_buffer, 4.2e6, 4.2e6 / 0.995 },
	{ "livelock (MLR-ACC V2)", mk_livelock, 5e6, 5e6 },
	{ "non-monotonic band", mk_nonmono, 0, 0 },
	{ "noisy 6 Mfps +-0.1 %", mk_noisy, 0, 0 },
	{ "generator-limited 7 Mfps", mk_genlimit, 7e6, 7e6 / 0.995 },
};

struct bin_result {
	double lo_fps;
	unsigned int trials;
	double time_s;
};

/*
 * One RFC 2544-style binary search (R2544-THRPT steps 1-4) for one loss
 * ratio with every trial at final_s: start at MTR, halve linearly, stop
 * when (hi - lo) / hi <= width.  Loss accounting as MLR-MEAS.
 */
static int bin_search(const struct bench_dev *dev, double ratio,
		      double final_s, double width, struct bin_result *out)
{
	struct bm_backend *be = dev->make();
	double lo = -1.0, hi = -1.0, x = MTR_FPS;
	struct bm_trial_spec spec;
	struct bm_trial_result tr;
	struct bm_error err;
	uint64_t beyond;
	int ret = 0;

	if (!be)
		return -ENOMEM;
	for (;;) {
		bm_trial_spec_rate(&spec, 64, x, final_s);
		ret = bm_run_trial(be, &spec, &tr, &err);
		if (ret)
			break;
		if (mlr_trial_loss_ratio(&spec, &tr, 10e-6, &beyond) <= ratio)
			lo = x;
		else
			hi = x;
		if (lo == MTR_FPS)
			break;
		if (lo > 0 && hi > 0 && (hi - lo) / hi <= width)
			break;
		if (lo < 0 && x == MIN_FPS) {
			lo = 0.0;	/* "throughput < r_min" */
			break;
		}
		x = ((lo > 0 ? lo : 0.0) + hi) / 2.0;
		if (lo < 0 && x < MIN_FPS)
			x = MIN_FPS;
	}
	out->lo_fps = lo;
	out->trials = be->trials;
	out->time_s = be->elapsed_s;
	mlr_dev_destroy(be);
	return ret;
}

static void fmt_truth(char *buf, size_t len, double fps)
{
	if (fps > 0)
		snprintf(buf, len, "%.0f", fps);
	else
		snprintf(buf, len, "n/a");
}

int main(void)
{
	double tot_mlr_s = 0, tot_bin_s = 0;
	unsigned int tot_mlr_n = 0, tot_bin_n = 0;
	struct bm_mlr_params p;
	size_t i;

	bm_mlr_params_default(&p);
	p.max_rate_fps = MTR_FPS;
	p.min_rate_fps = MIN_FPS;

	printf("MLRsearch (NDR 0 + PDR 0.005 in one search, defaults of "
	       "draft-ietf-bmwg-mlrsearch-01 §5.1.1) vs two RFC 2544 binary "
	       "searches with all trials at %.0f s, both to relative width "
	       "%.3f; MTR %.0f fps, min %.0f fps, %.1f s overhead per trial.\n\n",
	       p.final_trial_duration_s, p.final_relative_width, MTR_FPS,
	       MIN_FPS, MLR_DEV_OVERHEAD_S);
	printf("| device | true NDR fps | MLR NDR fps | binary NDR fps | true PDR fps | MLR PDR fps | binary PDR fps | MLR trials | MLR time s | binary trials | binary time s | time saved |\n");
	printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
	for (i = 0; i < sizeof(devs) / sizeof(devs[0]); i++) {
		const struct bench_dev *d = &devs[i];
		struct bm_backend *be = d->make();
		struct bin_result bn, bp;
		struct bm_mlr_result res;
		struct bm_error err;
		char tn[32], tp[32];
		double bin_s;
		int ret;

		if (!be)
			return EXIT_FAILURE;
		ret = bm_mlrsearch_run(be, &p, &res, NULL, NULL, &err);
		if (ret) {
			fprintf(stderr, "%s: mlrsearch: %s\n", d->name, err.msg);
			return EXIT_FAILURE;
		}
		if (bin_search(d, 0.0, p.final_trial_duration_s,
			       p.final_relative_width, &bn) ||
		    bin_search(d, 0.005, p.final_trial_duration_s,
			       p.final_relative_width, &bp)) {
			fprintf(stderr, "%s: binary search failed\n", d->name);
			return EXIT_FAILURE;
		}
		bin_s = bn.time_s + bp.time_s;
		fmt_truth(tn, sizeof(tn), d->ndr_fps);
		fmt_truth(tp, sizeof(tp), d->pdr_fps);
		printf("| %s | %s | %.0f | %.0f | %s | %.0f | %.0f | %zu | %.1f | %u | %.1f | %.0f %% |\n",
		       d->name, tn, res.bounds[0].lower_fps, bn.lo_fps, tp,
		       res.bounds[1].lower_fps, bp.lo_fps, res.log.n,
		       res.search_time_s, bn.trials + bp.trials, bin_s,
		       100.0 * (1.0 - res.search_time_s / bin_s));
		tot_mlr_s += res.search_time_s;
		tot_mlr_n += res.log.n;
		tot_bin_s += bin_s;
		tot_bin_n += bn.trials + bp.trials;
		bm_mlr_result_free(&res);
		mlr_dev_destroy(be);
	}
	printf("| **total** | | | | | | | %u | %.1f | %u | %.1f | %.0f %% |\n",
	       tot_mlr_n, tot_mlr_s, tot_bin_n, tot_bin_s,
	       100.0 * (1.0 - tot_mlr_s / tot_bin_s));
	return EXIT_SUCCESS;
}

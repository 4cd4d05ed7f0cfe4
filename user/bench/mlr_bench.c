// SPDX-License-Identifier: GPL-2.0
/*
 * mlr_bench: MLRsearch (NDR + PDR in one search) against two RFC 2544
 * style binary searches (NDR, then PDR), on simulated devices, at the
 * same final trial duration and relative precision (SPEC MLR-WHY,
 * REQ-MLR-2).  Time is virtual: trial durations plus a 0.5 s per-trial
 * overhead.  Prints a Markdown table to stdout.
 *
 * mlr_bench csit: bmgen's MLRsearch modes against FD.io CSIT's MLRsearch
 * 1.2.1 on the four comparison devices of mlr_devices.h, in trial
 * durations, and the goal line of the mlrsearch procedure's default mode.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bm_mlrsearch.h"
#include "bm_procedure.h"
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
		if (mlr_trial_loss_ratio(x, final_s, &tr, 10e-6, &beyond) <=
		    ratio)
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

/*
 * FD.io CSIT's MLRsearch 1.2.1 (csit commit 72eca4f66c, the code of the
 * PyPI release) on the devices of mlr_devices.h, as that code gives them:
 * goals loss_ratio 0 and 0.005, exceed_ratio 0, relative_width 0.005,
 * initial_trial_duration 1 s, final_trial_duration 30 s, duration_sum
 * 30 s, preceding_targets 2, expansion_coefficient 4; min_load 18002,
 * max_load 29.76e6, no warmup; time = the sum of intended trial
 * durations.
 */
static const struct {
	double cap_fps;
	enum mlr_cmp_dev kind;
	unsigned int trials;
	double trial_s;
} csit121[] = {
	{ 1e6, MLR_CMP_CLIFF, 7, 74.0 },
	{ 1e6, MLR_CMP_GRADUAL, 14, 147.9 },
	{ 1e6, MLR_CMP_BUFFER, 12, 150.4 },
	{ 1e6, MLR_CMP_BGLOSS, 25, 125.4 },
	{ 5.14e6, MLR_CMP_CLIFF, 7, 74.0 },
	{ 5.14e6, MLR_CMP_GRADUAL, 14, 147.9 },
	{ 5.14e6, MLR_CMP_BUFFER, 12, 150.4 },
	{ 5.14e6, MLR_CMP_BGLOSS, 24, 124.4 },
};

#define N_CSIT (sizeof(csit121) / sizeof(csit121[0]))
#define CSIT121_TOTAL_S 994.4		/* the sum of csit121[].trial_s */

/* The mlrsearch procedure's default mode, from the registry (so the goal
 * line follows the default wherever it is set). */
static enum bm_mlr_mode default_mode(void)
{
	const struct bm_procedure_info *pi = bm_procedure_find("mlrsearch",
								NULL);
	json_object *d = pi ? pi->defaults(pi) : NULL, *m;
	enum bm_mlr_mode mode = BM_MLR_MODE_DRAFT01;

	if (d && json_object_object_get_ex(d, "mode", &m) &&
	    !strcmp(json_object_get_string(m),
		    bm_mlr_mode_name(BM_MLR_MODE_FAST)))
		mode = BM_MLR_MODE_FAST;
	json_object_put(d);
	return mode;
}

/* One search of the comparison; 0 or -errno with the reason printed. */
static int csit_run(size_t i, enum bm_mlr_mode mode, struct bm_mlr_result *res)
{
	struct bm_backend *be = mlr_dev_cmp(csit121[i].kind, csit121[i].cap_fps);
	struct bm_mlr_params p;
	struct bm_error err;
	int ret;

	if (!be)
		return -ENOMEM;
	bm_mlr_params_default(&p);
	p.mode = mode;
	p.min_rate_fps = 18002.0;
	p.max_rate_fps = 29.76e6;
	ret = bm_mlrsearch_run(be, &p, res, NULL, NULL, &err);
	if (ret)
		fprintf(stderr, "%s: mlrsearch %s: %s\n",
			mlr_dev_cmp_name(csit121[i].kind), bm_mlr_mode_name(mode),
			err.msg);
	mlr_dev_destroy(be);
	return ret;
}

/* Does bound b hold the 30 s truth t: the lower bound passed at 30 s, so
 * at most t; the upper bound failed, so at least t less one lost frame
 * of a 30 s trial (1e-7 here). */
static bool holds(const struct bm_mlr_bound *b, double t)
{
	return b->lower_valid && b->upper_valid && b->lower_fps <= t &&
	       b->upper_fps >= t * (1 - 1e-7);
}

static int csit_table(void)
{
	enum bm_mlr_mode def = default_mode();
	unsigned int n_c = 0, n_d = 0, n_f = 0, held_d = 0, held_f = 0;
	double s_c = 0, s_d = 0, s_f = 0, s_def;
	size_t i, j;

	printf("bmgen's MLRsearch against FD.io CSIT's MLRsearch 1.2.1: NDR "
	       "(loss ratio 0) and PDR (0.005) in one search, final relative "
	       "width 0.005, trials of 1 s to 30 s, 2 intermediate phases, "
	       "expansion coefficient 4, min 18002 fps, max 29.76 Mfps. Time "
	       "is the sum of trial durations (CSIT's own count; no per-trial "
	       "overhead). CSIT figures: from CSIT's own code at commit "
	       "72eca4f66c (exceed ratio 0, duration sum 30 s). Bounds "
	       "of the `fast` mode in fps; truth at 30 s from the loss "
	       "formula; *brackets*: lower <= truth <= upper (the upper to "
	       "1e-7), of draft-01 / fast. The mlrsearch procedure's default "
	       "mode: %s.\n\n", bm_mlr_mode_name(def));
	printf("| device | capacity fps | CSIT trials | CSIT s | draft-01 "
	       "trials | draft-01 s | fast trials | fast s | true NDR | fast "
	       "NDR lower, upper | true PDR | fast PDR lower, upper | "
	       "brackets |\n");
	printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---|---|\n");
	for (i = 0; i < N_CSIT; i++) {
		struct bm_mlr_result rd, rf;
		double t[2];
		bool hd = true, hf = true;

		if (csit_run(i, BM_MLR_MODE_DRAFT01, &rd) ||
		    csit_run(i, BM_MLR_MODE_FAST, &rf))
			return EXIT_FAILURE;
		for (j = 0; j < 2; j++) {
			t[j] = mlr_dev_cmp_truth(csit121[i].kind,
						 csit121[i].cap_fps, 30.0,
						 rf.bounds[j].target_ratio);
			hd = hd && holds(&rd.bounds[j], t[j]);
			hf = hf && holds(&rf.bounds[j], t[j]);
		}
		printf("| %s | %.0f | %u | %.1f | %zu | %.1f | %zu | %.1f | "
		       "%.1f | %.1f, %.1f | %.1f | %.1f, %.1f | %s / %s |\n",
		       mlr_dev_cmp_name(csit121[i].kind), csit121[i].cap_fps,
		       csit121[i].trials, csit121[i].trial_s, rd.log.n,
		       rd.trial_time_s, rf.log.n, rf.trial_time_s, t[0],
		       rf.bounds[0].lower_fps, rf.bounds[0].upper_fps, t[1],
		       rf.bounds[1].lower_fps, rf.bounds[1].upper_fps,
		       hd ? "yes" : "NO", hf ? "yes" : "NO");
		n_c += csit121[i].trials;
		s_c += csit121[i].trial_s;
		n_d += rd.log.n;
		s_d += rd.trial_time_s;
		n_f += rf.log.n;
		s_f += rf.trial_time_s;
		held_d += hd;
		held_f += hf;
		bm_mlr_result_free(&rd);
		bm_mlr_result_free(&rf);
	}
	printf("| **total** | | %u | %.1f | %u | %.1f | %u | %.1f | | | | | "
	       "%u / %u of %zu |\n\n", n_c, s_c, n_d, s_d, n_f, s_f, held_d,
	       held_f, N_CSIT);
	/* the default mode, and only if its bounds hold, can meet the goal */
	s_def = def == BM_MLR_MODE_FAST ? s_f : s_d;
	printf("goal mlr-vs-csit: %.2f (target <= 1.00) %s\n",
	       s_def / CSIT121_TOTAL_S,
	       s_def <= CSIT121_TOTAL_S &&
	       (def == BM_MLR_MODE_FAST ? held_f : held_d) == N_CSIT ?
	       "met" : "missed");
	return EXIT_SUCCESS;
}

int main(int argc, char **argv)
{
	double tot_mlr_s = 0, tot_bin_s = 0;
	unsigned int tot_mlr_n = 0, tot_bin_n = 0;
	struct bm_mlr_params p;
	size_t i;

	if (argc > 1 && !strcmp(argv[1], "csit"))
		return csit_table();
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

// SPDX-License-Identifier: GPL-2.0
/*
 * The searches see a trial only through the measurer (bm_measure.h, RFC
 * 9971 §4.9.1): here a measurer that is no backend trial at all, a
 * closed-form device on two interfaces, drives the binary search, the
 * rate search and MLRsearch, and each finds the device's truth; a
 * measurer's error ends the search with every trial before it logged.
 */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <string.h>

#include "check_util.h"
#include "bm_mlrsearch.h"
#include "bm_search.h"

#define CAP_FPS		1e6	/* per interface */

/* The device and the clock the searches read. */
struct dev {
	struct bm_backend clock;
	unsigned int calls;
	unsigned int fail_at;	/* 1-based call that fails; 0 = none */
};

/*
 * A trial at load L per interface for d s on both interfaces: whole
 * frames sent, floor(2 d L), of which the excess over the capacity is
 * lost, ceil(sent (1 - C / L)) above C.
 */
static int dev_measure(const struct bm_measurer *m, double duration_s,
		       double load_fps, struct bm_trial_spec *spec,
		       struct bm_trial_result *res, struct bm_error *err)
{
	struct dev *d = m->priv;
	double sent = floor(m->directions * duration_s * load_fps);
	double lr = load_fps > CAP_FPS ? 1.0 - CAP_FPS / load_fps : 0.0;

	if (++d->calls == d->fail_at)
		return bm_errorf(err, "device gone"), -EIO;
	bm_trial_spec_rate(spec, 64, load_fps, duration_s);
	spec->pair.topology = BM_TOPO_PAIR_BIDIR;
	res->intended = res->attempted = (uint64_t)sent;
	res->lost = (uint64_t)ceil(sent * lr);
	res->received = res->attempted - res->lost;
	d->clock.elapsed_s += duration_s;
	d->clock.trials++;
	return 0;
}

static void dev_init(struct dev *d, struct bm_measurer *m)
{
	memset(d, 0, sizeof(*d));
	memset(m, 0, sizeof(*m));
	d->clock.name = "closed-form";
	d->clock.virtual_clock = true;
	m->measure = dev_measure;
	m->be = &d->clock;
	m->directions = 2;
	m->priv = d;
}

/* R2544-THRPT through the measurer: within the resolution below C, every
 * trial the measurer's and logged with the load it was asked. */
START_TEST(test_binary_through_measurer)
{
	struct bm_binsearch_params bp;
	struct bm_binsearch_result r;
	struct bm_trial_log log = { 0 };
	struct bm_error err = { "" };
	struct bm_measurer m;
	struct dev d;
	size_t i;

	dev_init(&d, &m);
	bm_binsearch_params_default(&bp, 64, 10e9);
	bp.search_trial_s = bp.final_trial_s = 1.0;
	ck_assert_int_eq(bm_binsearch(&m, &bp, &log, &r, NULL, NULL, &err), 0);
	ck_assert_uint_eq(log.n, d.calls);
	ck_assert_uint_eq(log.n, r.trials);
	ck_assert_msg(r.throughput_fps <= CAP_FPS &&
		      r.throughput_fps >= CAP_FPS - bp.resolution_fps,
		      "throughput %.1f fps, truth %.1f", r.throughput_fps,
		      CAP_FPS);
	for (i = 0; i < log.n; i++) {
		ck_assert_int_eq(log.v[i].spec.pair.topology, BM_TOPO_PAIR_BIDIR);
		ck_assert(log.v[i].spec.pair.rate_fps <= bp.r_max_fps);
	}
	bm_trial_log_free(&log);
}
END_TEST

/* MLRsearch through the measurer: NDR and PDR bracket their truths
 * (C and C / (1 - 0.005)), and the result counts the measurer's two
 * interfaces. */
START_TEST(test_mlr_through_measurer)
{
	static const double ratios[] = { 0.0, 0.005 };
	struct bm_mlr_params p;
	struct bm_mlr_result res;
	struct bm_error err = { "" };
	struct bm_measurer m;
	struct dev d;
	size_t j;

	dev_init(&d, &m);
	bm_mlr_params_default(&p);
	p.target_loss_ratios = ratios;
	p.n_targets = 2;
	p.min_rate_fps = 1e4;
	p.max_rate_fps = 5e6;
	p.final_trial_duration_s = 10.0;
	ck_assert_int_eq(bm_mlrsearch(&m, &p, &res, NULL, NULL, &err), 0);
	ck_assert_uint_eq(res.directions, 2);
	ck_assert_uint_eq(res.log.n, d.calls);
	for (j = 0; j < 2; j++) {
		double truth = CAP_FPS / (1.0 - ratios[j]);

		ck_assert(res.bounds[j].lower_valid && res.bounds[j].upper_valid);
		ck_assert_msg(res.bounds[j].lower_fps <= truth &&
			      res.bounds[j].upper_fps >= truth * (1 - 1e-6),
			      "ratio %g: [%.1f, %.1f] misses %.1f", ratios[j],
			      res.bounds[j].lower_fps, res.bounds[j].upper_fps,
			      truth);
	}
	/* the clock the measurer kept is the search's time */
	ck_assert_double_eq(res.search_time_s, d.clock.elapsed_s);
	bm_mlr_result_free(&res);
}
END_TEST

/* A measurer that fails ends either search with its error; the trials
 * before it stay in the log (REQ-SRCH-1). */
START_TEST(test_measurer_error_ends_search)
{
	struct bm_rate_search s;
	struct bm_rate_search_result r;
	struct bm_trial_log log = { 0 };
	struct bm_error err = { "" };
	struct bm_measurer m;
	struct dev d;
	int kind;

	for (kind = BM_SEARCH_BINARY; kind <= BM_SEARCH_MLR; kind++) {
		dev_init(&d, &m);
		d.fail_at = 3;
		bm_rate_search_default(&s, 64, 10e9);
		s.kind = kind;
		s.bin.search_trial_s = s.bin.final_trial_s = 1.0;
		ck_assert_int_eq(bm_rate_search(&m, &s, &log, &r, NULL, NULL,
						&err), -EIO);
		ck_assert_str_eq(err.msg, "device gone");
		ck_assert_uint_eq(log.n, 2);
		bm_rate_search_result_free(&r);
		bm_trial_log_free(&log);
	}
}
END_TEST

static Suite *measure_suite(void)
{
	Suite *s = suite_create("measure");
	TCase *tc = tcase_create("measurer");

	tcase_add_test(tc, test_binary_through_measurer);
	tcase_add_test(tc, test_mlr_through_measurer);
	tcase_add_test(tc, test_measurer_error_ends_search);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tj_run_suite(measure_suite());
}

// SPDX-License-Identifier: GPL-2.0
/*
 * A pool of tester hosts (bm_pool.h, bm_hosts.h) against the simulated
 * DUT: each host a simulator of the one DUT that reports its halves of
 * every stream (the sender's counts on the tx port's host, the
 * receiver's on the rx port's), the pool's merge put back together.
 * Truth: the same job on one simulated host, and so its closed forms:
 * RFC 2544 throughput of DUT-TBF (C = R / (8 (F + 20)) within the
 * search's resolution), the RFC 8239 mesh's drops into a shaped port.
 * Then the halves' bookkeeping by hand, and what must fail, and how.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bm_hosts.h"
#include "bm_measure.h"
#include "bm_mlr9971.h"
#include "bm_mlrsearch.h"
#include "bm_pool.h"
#include "bm_result.h"
#include "bm_search.h"
#include "bm_sim.h"
#include "check_util.h"
#include "keep_result.h"
#include "rfc2544.h"
#include "rfc8239.h"

/* Two simulated hosts of one DUT: "" (the job's own) and "b". */
struct two_hosts {
	struct bm_backend *a, *b, *pool;
};

/* The pool of this host on pa and host b on pb, n ports each. */
static void two_hosts_new_each(struct two_hosts *h,
			       const struct bm_sim_params *pa,
			       const struct bm_sim_params *pb, unsigned int n,
			       const char *const *labels)
{
	struct bm_error err = { "" };
	struct bm_pool_host hosts[2] = {
		{ .name = "" }, { .name = "b" },
	};

	h->a = sim_ports_new(pa, n, "p");
	h->b = sim_ports_new(pb, n, "p");
	hosts[0].be = h->a;
	hosts[1].be = h->b;
	h->pool = bm_pool_new(hosts, 2, labels, n, pa->line_rate_bps, &err);
	ck_assert_msg(h->pool, "bm_pool_new: %s", err.msg);
}

static void two_hosts_new(struct two_hosts *h, const struct bm_sim_params *p,
			  unsigned int n, const char *const *labels)
{
	two_hosts_new_each(h, p, p, n, labels);
}

static void two_hosts_free(struct two_hosts *h)
{
	h->pool->ops->destroy(h->pool);
	bm_sim_free(h->a);
	bm_sim_free(h->b);
}

/* DUT-TBF(R 30 Mbit/s, b 3200 B, Q 1000 frames) on a 100 Mbit/s line. */
static void tbf(struct bm_sim_params *p)
{
	bm_sim_params_default(p);
	p->line_rate_bps = 100e6;
	p->capacity_bps = 30e6;
	p->bucket_bytes = 3200;
	p->buffer_frames = 1000;
}

/*
 * R2544-THRPT with its tx port on this host and its rx port on host b:
 * the throughput within the search's resolution of C = 30e6 / (532 * 8)
 * = 7048.87 fps, above it by at most what the bucket and the queue pass
 * in a trial ((Q + b / A) / T); every trial's loss the sender's count
 * less the receiver's.
 */
START_TEST(throughput_across_hosts)
{
	static const char *const labels[] = { "p1", "b:p2" };
	const double c = 30e6 / (532 * 8.0), t_s = 5.0;
	struct rfc2544_params rp;
	struct bm_sim_params sp;
	struct bm_error err = { "" };
	struct two_hosts h;
	json_object *doc = NULL, *e, *trials;
	size_t i;

	tbf(&sp);
	two_hosts_new(&h, &sp, 2, labels);
	rfc2544_params_default(&rp, RFC2544_THROUGHPUT);
	rp.frame_sizes[0] = 512;
	rp.n_sizes = 1;
	rp.thr_search_trial_s = rp.thr_final_trial_s = t_s;
	ck_assert_msg(rfc2544_run(RFC2544_THROUGHPUT, h.pool, &rp, NULL, NULL,
				  &doc, &err) == 0, "%s", err.msg);
	bm_test_keep_result(doc, "pool.rfc2544.throughput");
	e = json_object_array_get_idx(tj_get(tj_get(doc, "results"),
					     "per_size"), 0);
	ck_assert_msg(tj_num(e, "throughput_fps") >= c * 0.999 - c * 0.001 &&
		      tj_num(e, "throughput_fps") <=
		      c + (1000 + 3200 / 532.0) / t_s,
		      "throughput %.2f fps, truth %.2f", tj_num(e,
		      "throughput_fps"), c);
	trials = tj_get(doc, "trials");
	ck_assert_uint_gt(json_object_array_length(trials), 5);
	for (i = 0; i < json_object_array_length(trials); i++) {
		json_object *r = json_object_array_get_idx(trials, i);

		ck_assert_double_eq(tj_num(r, "attempted"),
				    tj_num(r, "received") + tj_num(r, "lost"));
		ck_assert_double_gt(tj_num(r, "attempted"), 0);
	}
	ck_assert(tj_has_deviation(doc, "backend sim"));
	/* both simulated clocks on the grandmaster: no sync error, one
	 * sending host, so no start skew */
	for (i = 0; i < json_object_array_length(trials); i++) {
		json_object *sy = tj_get(json_object_array_get_idx(trials, i),
					 "sync");

		ck_assert_uint_eq(json_object_array_length(tj_get(sy,
								  "hosts")), 2);
		ck_assert_double_eq(tj_num(sy, "error_ns"), 0);
		ck_assert_double_eq(tj_num(sy, "start_skew_ns"), 0);
		ck_assert_double_eq(tj_num(sy, "tolerance_ns"), 1e6);
		ck_assert(json_object_get_boolean(tj_get(sy, "within")));
	}
	json_object_put(doc);
	two_hosts_free(&h);
}
END_TEST

/*
 * RFC 2544 §11.2's management queries over a pool: they go from their
 * port's host only (the tx port's: here, then on host b), and the merged
 * trial states that host's count: one query each second of every trial
 * (2 s trials: 2 each), every one answered and verified by the simulated
 * DUT's agent; the throughput is the test frames' as without them,
 * within the search's resolution below C and what DUT-TBF's bucket and
 * queue absorb in a 2 s trial above it.
 */
START_TEST(management_from_its_host)
{
	static const char *const labels[2][2] = {
		{ "p1", "b:p2" }, { "b:p1", "p2" },
	};
	const double c = 30e6 / (532 * 8.0);
	struct rfc2544_params rp;
	struct bm_sim_params sp;
	struct bm_error err = { "" };
	struct two_hosts h;
	json_object *doc, *e, *m, *trials;
	unsigned int k;
	size_t i;

	for (k = 0; k < 2; k++) {
		tbf(&sp);
		sp.mgmt_agent[0] = 198;
		sp.mgmt_agent[1] = 18;
		sp.mgmt_agent[2] = 1;
		sp.mgmt_agent[3] = 1;
		sp.have_mgmt_agent = true;
		two_hosts_new(&h, &sp, 2, labels[k]);
		rfc2544_params_default(&rp, RFC2544_THROUGHPUT);
		rp.frame_sizes[0] = 512;
		rp.n_sizes = 1;
		rp.thr_search_trial_s = rp.thr_final_trial_s = 2;
		rp.management = true;
		doc = NULL;
		ck_assert_msg(rfc2544_run(RFC2544_THROUGHPUT, h.pool, &rp, NULL,
					  NULL, &doc, &err) == 0, "%s", err.msg);
		trials = tj_get(doc, "trials");
		for (i = 0; i < json_object_array_length(trials); i++) {
			json_object *r = json_object_array_get_idx(trials, i);

			ck_assert_double_eq(tj_num(r, "mgmt_sent"), 2);
		}
		e = json_object_array_get_idx(tj_get(tj_get(doc, "results"),
						     "per_size"), 0);
		m = tj_get(e, "management");
		ck_assert_double_eq(tj_num(m, "queries"),
				    2.0 * json_object_array_length(trials));
		ck_assert_double_eq(tj_num(m, "answered"), tj_num(m, "queries"));
		ck_assert_double_eq(tj_num(m, "verified"), tj_num(m, "queries"));
		/* as throughput_across_hosts: the bucket and queue absorb
		 * (Q + b/A) frames over a trial above C */
		ck_assert_msg(tj_num(e, "throughput_fps") >= c * 0.998 &&
			      tj_num(e, "throughput_fps") <=
			      c + (1000 + 3200 / 532.0) / 2,
			      "throughput %.2f fps, truth %.2f",
			      tj_num(e, "throughput_fps"), c);
		json_object_put(doc);
		two_hosts_free(&h);
	}
}
END_TEST

/* Host b's kernel's TAI-UTC offset less this host's (sync_trial). */
static double b_tai_utc_error_s;
/* Host b's phc2sys's log, as the simulator's phc2sys_* (sync_trial). */
static struct {
	bool log;
	double offset_ns;
	unsigned int reports;
} b_phc2sys;

/* Host b's simulator sb given b_phc2sys. */
static void b_phc2sys_apply(struct bm_sim_params *sb)
{
	sb->phc2sys_log = b_phc2sys.log;
	sb->phc2sys_offset_ns = b_phc2sys.offset_ns;
	sb->phc2sys_reports = b_phc2sys.reports;
}

/* One pair trial on two simulated hosts, b's clock off_ns off the
 * grandmaster (this host) before and after its part and wander_ns more
 * during it; its return, the result in *res. */
static int sync_trial_wander(double off_ns, double wander_ns, double tol_ns,
			     bool set_tol, struct bm_trial_result *res,
			     struct bm_error *err)
{
	static const char *const labels[] = { "p1", "b:p2" };
	struct bm_sim_params sp, sb;
	struct bm_trial_spec spec = { 0 };
	struct two_hosts h;
	int ret;

	tbf(&sp);
	sb = sp;
	sb.ptp_offset_ns = off_ns;
	sb.ptp_wander_ns = wander_ns;
	sb.tai_utc_error_s = b_tai_utc_error_s;
	b_phc2sys_apply(&sb);
	two_hosts_new_each(&h, &sp, &sb, 2, labels);
	if (set_tol)
		bm_pool_set_sync_tolerance(h.pool, tol_ns);
	spec.pair.rate_fps = 1000;
	spec.frame_size = 512;
	spec.duration_s = 1;
	spec.learning_pause_s = -1;
	spec.drain_s = -1;
	ret = bm_run_trial(h.pool, &spec, res, err);
	two_hosts_free(&h);
	return ret;
}

static int sync_trial(double off_ns, double tol_ns, bool set_tol,
		      struct bm_trial_result *res, struct bm_error *err)
{
	return sync_trial_wander(off_ns, 0, tol_ns, set_tol, res, err);
}

/*
 * The sync error is what linuxptp says of the hosts' clocks: b's offset
 * from the grandmaster exactly (this host is the grandmaster, offset 0);
 * a part whose host is off by more than the tolerance is refused before
 * it runs, by the host's name and offset; without a tolerance it runs
 * and says the error.  Then the judgement by hand: a host not read,
 * another grandmaster, an offset grown past the tolerance by the end.
 */
START_TEST(sync_error_and_tolerance)
{
	struct bm_trial_result res;
	struct bm_error err = { "" };
	struct bm_pool_sync sy;

	ck_assert_int_eq(sync_trial(-400e3, 0, false, &res, &err), 0);
	ck_assert_uint_eq(res.sync.n_hosts, 2);
	ck_assert_str_eq(res.sync.hosts[1].host, "b");
	ck_assert(res.sync.hosts[1].before.gm_present);
	ck_assert(!res.sync.hosts[0].before.gm_present);
	ck_assert_int_eq(res.sync.hosts[1].after.offset_ns, -400000);
	ck_assert_double_eq(res.sync.error_ns, 400e3);
	ck_assert_double_eq(res.sync.tolerance_ns, 1e6);
	ck_assert(res.sync.within);
	ck_assert(isnan(res.sync.hosts[1].first_tx_s));	/* b only receives */
	ck_assert(res.sync.hosts[0].first_tx_s >= 0);
	ck_assert_uint_eq(res.attempted, res.received + res.lost);

	ck_assert_int_eq(sync_trial(1.5e6, 0, false, &res, &err), -ERANGE);
	ck_assert_msg(strstr(err.msg, "host b:") &&
		      strstr(err.msg, "1.500 ms off") &&
		      strstr(err.msg, "allows 1.000 ms"), "%s", err.msg);

	ck_assert_int_eq(sync_trial(1.5e6, 0, true, &res, &err), 0);
	ck_assert_double_eq(res.sync.error_ns, 1.5e6);
	ck_assert(res.sync.within);

	/* b's kernel 37 s TAI-UTC off this one's (one has it set, one not):
	 * its UTC clock in step by ptp4l, its CLOCK_TAI 37 s away, and the
	 * one start instant 37 s apart; refused before anything is sent */
	b_tai_utc_error_s = -37;
	ck_assert_int_eq(sync_trial(0, 0, false, &res, &err), -ERANGE);
	b_tai_utc_error_s = 0;
	ck_assert_msg(strstr(err.msg, "host b:") &&
		      strstr(err.msg, "TAI-UTC offset") &&
		      strstr(err.msg, "37 s apart"), "%s", err.msg);

	/* b -0.3 ms off before and after, -2.8 ms at its farthest during
	 * the part: the error is the excursion, past the tolerance */
	ck_assert_int_eq(sync_trial_wander(-300e3, -2.5e6, 0, false, &res,
					   &err), 0);
	ck_assert_int_eq(res.sync.hosts[1].during.min_ns, -2800000);
	ck_assert_int_eq(res.sync.hosts[1].during.max_ns, -300000);
	ck_assert_uint_ge(res.sync.hosts[1].during.samples, 2);
	ck_assert_uint_eq(res.sync.hosts[0].during.samples, 0);
	ck_assert_double_eq(res.sync.error_ns, 2.8e6);
	ck_assert(!res.sync.within);
	ck_assert_msg(strstr(res.sync.why, "b: 2.800 ms off"), "%s",
		      res.sync.why);

	memset(&sy, 0, sizeof(sy));
	sy.n_hosts = 2;
	strcpy(sy.hosts[1].host, "lab2");
	sy.hosts[0].before = (struct bm_clock_reading){ .valid = true,
							.gm = "aa" };
	sy.hosts[0].after = sy.hosts[0].before;
	sy.hosts[1].before = (struct bm_clock_reading){ .valid = true,
		.gm_present = true, .offset_ns = 200000, .gm = "aa" };
	sy.hosts[1].after = sy.hosts[1].before;
	sy.hosts[1].after.offset_ns = -1200000;
	sy.hosts[0].first_tx_s = 0.000100;
	sy.hosts[1].first_tx_s = 0.000350;
	bm_pool_sync_judge(&sy, 1e6);
	ck_assert_double_eq(sy.error_ns, 1.2e6);
	ck_assert_double_eq_tol(sy.start_skew_ns, 250e3, 1e-3);
	ck_assert(!sy.within);
	ck_assert_msg(strstr(sy.why, "lab2: 1.200 ms off"), "%s", sy.why);
	bm_pool_sync_judge(&sy, 0);
	ck_assert(sy.within);
	strcpy(sy.hosts[1].after.gm, "bb");
	bm_pool_sync_judge(&sy, 0);
	ck_assert(isnan(sy.error_ns) && !sy.within);
	ck_assert_msg(strstr(sy.why, "lab2 follows grandmaster bb, not aa"),
		      "%s", sy.why);
	/* two hosts that follow: one's highest less the other's lowest,
	 * whenever during the trial each fell */
	strcpy(sy.hosts[1].after.gm, "aa");
	sy.hosts[0].before.offset_ns = 100000;
	sy.hosts[0].during = (struct bm_clock_span){ .samples = 9,
		.min_ns = -50000, .max_ns = 900000 };
	sy.hosts[1].during = (struct bm_clock_span){ .samples = 9,
		.min_ns = -1500000, .max_ns = 300000 };
	bm_pool_sync_judge(&sy, 0);
	ck_assert_double_eq(sy.error_ns, 900000 + 1500000);
	strcpy(sy.hosts[1].during.other_gm, "cc");
	bm_pool_sync_judge(&sy, 0);
	ck_assert(isnan(sy.error_ns) && !sy.within);
	ck_assert_msg(strstr(sy.why, "lab2 followed grandmaster cc during"),
		      "%s", sy.why);
	sy.hosts[1].after = (struct bm_clock_reading){ .error =
		"ptp4l at /var/run/ptp4l: No such file or directory" };
	bm_pool_sync_judge(&sy, 1e6);
	ck_assert(isnan(sy.error_ns) && !sy.within);
	ck_assert_msg(strstr(sy.why, "lab2: no PTP time (ptp4l at"), "%s",
		      sy.why);
}
END_TEST

static json_object *latency_across_wander(double err_ns, double wander_ns,
					  unsigned int wander_trial,
					  unsigned int max_invalid);

/*
 * Host b's system clock by phc2sys: ptp4l says its clock (a PHC) is 0.3
 * ms behind the grandmaster, phc2sys that the system clock is 2 ms ahead
 * of that PHC in each of 3 reports: the system clock, on which the
 * trial's instant and stamps are, 1.7 ms ahead, past the 1 ms tolerance
 * (flagged, error 1.7 ms); 0.2 ms ahead of it: 0.1 ms behind, within; a
 * log with no report in the part: flagged, the error unknown.  The
 * record carries b's reports, this host (no log read) none.
 */
START_TEST(system_clock_by_phc2sys)
{
	static struct bm_trial_record r;
	struct bm_trial_result res;
	struct bm_error err = { "" };
	json_object *rec, *hosts, *sys;

	b_phc2sys.log = true;
	b_phc2sys.offset_ns = 2e6;
	b_phc2sys.reports = 3;
	ck_assert_int_eq(sync_trial(-300e3, 0, false, &res, &err), 0);
	ck_assert_uint_eq(res.sync.hosts[1].system.samples, 3);
	ck_assert_int_eq(res.sync.hosts[1].system.min_ns, 2000000);
	ck_assert_uint_eq(res.sync.hosts[0].system.samples, 0);
	ck_assert_str_eq(res.sync.hosts[0].system.source, "");
	ck_assert_double_eq(res.sync.error_ns, 1.7e6);
	ck_assert(!res.sync.within);
	ck_assert_msg(strstr(res.sync.why, "b: 1.700 ms off"), "%s",
		      res.sync.why);
	r.res = res;
	rec = bm_trial_record_to_json(&r, 1e8, -1);
	hosts = tj_get(tj_get(rec, "sync"), "hosts");
	sys = tj_get(json_object_array_get_idx(hosts, 1), "system_clock");
	ck_assert_str_eq(json_object_get_string(tj_get(sys, "source")), "sim");
	ck_assert_double_eq(tj_num(sys, "samples"), 3);
	ck_assert_double_eq(tj_num(sys, "min_offset_ns"), 2e6);
	ck_assert_double_eq(tj_num(sys, "max_offset_ns"), 2e6);
	ck_assert(!json_object_object_get_ex(json_object_array_get_idx(hosts,
				0), "system_clock", NULL));
	json_object_put(rec);

	b_phc2sys.offset_ns = 200e3;
	ck_assert_int_eq(sync_trial(-300e3, 0, false, &res, &err), 0);
	ck_assert_double_eq(res.sync.error_ns, 100e3);
	ck_assert(res.sync.within);

	/* a whole procedure's record: every trial states b's reports */
	{
		json_object *doc = latency_across_wander(-300e3, 0, 0, 20);
		json_object *trials = tj_get(doc, "trials");
		size_t i;

		bm_test_keep_result(doc, "pool.rfc2544.latency-phc2sys");
		ck_assert_uint_eq(json_object_array_length(trials), 20);
		for (i = 0; i < 20; i++) {
			json_object *sy = tj_get(json_object_array_get_idx(
						trials, i), "sync");

			sys = tj_get(json_object_array_get_idx(tj_get(sy,
					"hosts"), 1), "system_clock");
			ck_assert_double_eq(tj_num(sys, "samples"), 3);
			ck_assert_double_eq(tj_num(sys, "max_offset_ns"),
					    200e3);
			ck_assert_double_eq(tj_num(sy, "error_ns"), 100e3);
		}
		json_object_put(doc);
	}

	b_phc2sys.reports = 0;
	ck_assert_int_eq(sync_trial(-300e3, 0, false, &res, &err), 0);
	ck_assert(isnan(res.sync.error_ns) && !res.sync.within);
	ck_assert_msg(strstr(res.sync.why, "b: no system clock by phc2sys "
				   "(phc2sys's log: no report"), "%s",
		      res.sync.why);
	memset(&b_phc2sys, 0, sizeof(b_phc2sys));
}
END_TEST

/* RFC 8239 §3's mesh of 512 B frames for duration_s on a simulated DUT
 * of sp (1 Gbit/s, 100 frames of buffer): over four ports, two a host
 * (p1 and p3 here, p2 and p4 on host b), into *pooled, and on one host,
 * into *alone. */
static void mesh_pooled_and_alone(struct bm_sim_params *sp,
				  double duration_s, json_object **pooled,
				  json_object **alone)
{
	static const char *const labels[] = { "p1", "b:p2", "p3", "b:p4" };
	struct r8239_lr_params p;
	struct bm_error err = { "" };
	struct bm_backend *one;
	struct two_hosts h;

	sp->line_rate_bps = 1e9;
	sp->buffer_frames = 100;
	two_hosts_new(&h, sp, 4, labels);
	one = sim_ports_new(sp, 4, "p");
	r8239_lr_defaults(&p, R8239_LR_MESH);
	p.frame_sizes[0] = 512;
	p.n_sizes = 1;
	p.trial_duration_s = duration_s;
	p.c.repeat = 1;
	p.c.drain_s = 0.01;
	*pooled = *alone = NULL;
	ck_assert_msg(r8239_line_rate_run(h.pool, &p, NULL, NULL, pooled,
					  &err) == 0, "pool: %s", err.msg);
	ck_assert_msg(r8239_line_rate_run(one, &p, NULL, NULL, alone,
					  &err) == 0, "one: %s", err.msg);
	bm_sim_free(one);
	two_hosts_free(&h);
}

/* The mesh of RFC 8239 §3 over four ports, two a host, p2 shaped to
 * 99.9 % of its line: the same per-port counts as on one host, and so
 * the closed form of the drops into p2. */
START_TEST(mesh_as_on_one_host)
{
	struct bm_sim_params sp;
	json_object *pooled, *alone, *ra, *rb;
	size_t i;

	bm_sim_params_default(&sp);
	sp.ports[1].egress_bps = 0.999e9;
	mesh_pooled_and_alone(&sp, 2.0, &pooled, &alone);
	bm_test_keep_result(pooled, "pool.line-rate-mesh");
	ra = json_object_array_get_idx(tj_get(json_object_array_get_idx(
		tj_get(tj_get(pooled, "results"), "per_size"), 0),
		"repetitions"), 0);
	rb = json_object_array_get_idx(tj_get(json_object_array_get_idx(
		tj_get(tj_get(alone, "results"), "per_size"), 0),
		"repetitions"), 0);
	for (i = 0; i < 4; i++) {
		json_object *pa = json_object_array_get_idx(tj_get(ra, "ports"),
							   i);
		json_object *pb = json_object_array_get_idx(tj_get(rb, "ports"),
							   i);
		static const char *const keys[] = {
			"tx_frames", "rx_frames", "lost", "rx_pct_line",
		};
		size_t k;

		for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
			ck_assert_msg(tj_num(pa, keys[k]) == tj_num(pb, keys[k]),
				      "port %zu %s: pool %.6f, one host %.6f",
				      i, keys[k], tj_num(pa, keys[k]),
				      tj_num(pb, keys[k]));
	}
	/* p2's drops: 3 streams at 99.98 % of its line into 99.9 % */
	ck_assert_double_gt(tj_num(json_object_array_get_idx(tj_get(ra,
		"ports"), 1), "lost"), 0);
	json_object_put(pooled);
	json_object_put(alone);
}
END_TEST

/* Traffic of ports p1 (""), p2 ("b"), p3 (""), streams 0: p1 -> p2,
 * 1: p2 -> p1, 2: p1 -> p3. */
static void three_ports(struct bm_traffic *t)
{
	struct bm_error err = { "" };
	struct bm_stream_spec s;
	unsigned int k;

	bm_traffic_init(t);
	ck_assert_int_eq(bm_traffic_add_port(t, "p1", 1e9, &err), 0);
	ck_assert_int_eq(bm_traffic_add_port(t, "p2", 1e9, &err), 1);
	ck_assert_int_eq(bm_traffic_add_port(t, "p3", 1e9, &err), 2);
	strcpy(t->ports[1].host, "b");
	for (k = 0; k < 3; k++) {
		bm_stream_init(&s, k == 1 ? 1 : 0, k == 0 ? 1 : k == 1 ? 0 : 2,
			       10.0);
		ck_assert_int_eq(bm_traffic_add_stream(t, &s, &err), (int)k);
	}
}

/* One host's report of stream k: the sender's or receiver's counts. */
static void report(struct bm_traffic_result *r, unsigned int k,
		   uint64_t sent, uint64_t received, double first_tx)
{
	struct bm_stream_result *x = &r->streams[k];

	x->intended = x->sent = sent;
	x->received = received;
	x->lost = 999;		/* a receiving half alone cannot know it */
	x->first_tx_s = first_tx;
	x->last_tx_s = first_tx + 1;
	x->latency.count = received;
	x->latency.min_ns = x->latency.mean_ns = x->latency.max_ns = 1000;
	x->latency.p50_ns = 1000;
}

START_TEST(halves_by_hand)
{
	struct bm_traffic t;
	struct bm_traffic_result *a, *b, *whole;
	struct bm_trial_result ra, rb, res;
	struct bm_pool_merge m;
	const char *hosts[4];

	three_ports(&t);
	ck_assert_int_eq(bm_stream_half(&t, &t.streams[0], ""), BM_HALF_TX);
	ck_assert_int_eq(bm_stream_half(&t, &t.streams[0], "b"), BM_HALF_RX);
	ck_assert_int_eq(bm_stream_half(&t, &t.streams[1], ""), BM_HALF_RX);
	ck_assert_int_eq(bm_stream_half(&t, &t.streams[2], ""), BM_HALF_BOTH);
	ck_assert_int_eq(bm_stream_half(&t, &t.streams[2], "b"), BM_HALF_NONE);
	ck_assert_uint_eq(bm_traffic_hosts(&t, hosts, 4), 2);
	ck_assert_str_eq(hosts[0], "");
	ck_assert_str_eq(hosts[1], "b");

	/* what each host counted of the whole: 1000 sent on each stream,
	 * 990, 980 and 970 received */
	a = bm_traffic_result_new(&t);
	b = bm_traffic_result_new(&t);
	whole = bm_traffic_result_new(&t);
	ck_assert(a && b && whole);
	report(a, 0, 1000, 990, 0.1);
	report(a, 1, 1000, 980, 0.2);
	report(a, 2, 1000, 970, 0.3);
	a->streams[2].lost = 30;
	report(b, 0, 1000, 990, 0.1);
	report(b, 1, 1000, 980, 0.2);
	memset(&ra, 0, sizeof(ra));
	memset(&rb, 0, sizeof(rb));
	ra.shortfall = 5;
	ra.late = 2;
	rb.shortfall = 7;
	rb.tx_late_max_s = 0.5;
	snprintf(ra.ts_source, sizeof(ra.ts_source), "sw");
	snprintf(rb.ts_source, sizeof(rb.ts_source), "sw");
	bm_traffic_keep_host(&t, "", a, &ra);
	bm_traffic_keep_host(&t, "b", b, &rb);
	/* keeping: host b reports nothing of stream 1's receiving */
	ck_assert_uint_eq(b->streams[1].received, 0);
	ck_assert_double_eq(b->streams[1].first_rx_s, -1);
	ck_assert_uint_eq(b->streams[1].sent, 1000);
	ck_assert_uint_eq(b->streams[0].sent, 0);
	ck_assert_uint_eq(b->streams[0].received, 990);

	bm_pool_merge_init(&m, &t, whole, &res);
	bm_pool_merge_add(&m, "", a, &ra);
	bm_pool_merge_add(&m, "b", b, &rb);
	bm_pool_merge_end(&m, 64);
	/* the sender's 1000 less the receiver's, not a half's own guess */
	ck_assert_uint_eq(whole->streams[0].lost, 10);
	ck_assert_uint_eq(whole->streams[1].lost, 20);
	ck_assert_uint_eq(whole->streams[2].lost, 30);
	ck_assert_uint_eq(res.attempted, 3000);
	ck_assert_uint_eq(res.received, 990 + 980 + 970);
	ck_assert_uint_eq(res.lost, 60);
	ck_assert_uint_eq(whole->ports[1].rx_frames, 990);
	ck_assert_uint_eq(whole->ports[1].tx_frames, 1000);
	ck_assert_uint_eq(whole->ports[0].rx_frames, 980);
	/* the first stream's host keeps the trial's sender and receiver
	 * sides as the simulator reports them: the sender's from "",
	 * the receiver's from b */
	ck_assert_uint_eq(res.shortfall, 5);
	ck_assert_uint_eq(res.late, 0);
	ck_assert_double_eq(res.tx_late_max_s, 0);
	/* three streams timed: percentiles do not pool */
	ck_assert_uint_eq(res.latency.count, 990 + 980 + 970);
	ck_assert_double_eq(res.latency.p50_ns, 0);
	ck_assert_double_eq(res.latency.mean_ns, 1000);
	ck_assert_double_eq_tol(res.actual_duration_s, 1.2, 1e-12);
	bm_traffic_result_free(a);
	bm_traffic_result_free(b);
	bm_traffic_result_free(whole);
	bm_traffic_free(&t);
}
END_TEST

/* A host of the pool whose part fails: "lost" mid-trial. */
static int host_lost(void *ctx, const struct bm_trial_spec *spec,
		     struct bm_trial_result *res, struct bm_error *err)
{
	(void)ctx;
	(void)res;
	ck_assert_str_eq(spec->host, "c");
	ck_assert_ptr_nonnull(spec->traffic_res);
	ck_assert(spec->start_tai_ns > 0);
	return bm_errorf(err, "connection lost (ssh exited 255)"), -ECONNRESET;
}

/* A reset hook of bmd's (a command) stand-in: counts its calls. */
static int count_hook(void *ctx)
{
	++*(unsigned int *)ctx;
	return 0;
}

/*
 * R2544-RESET (RFC 2544 §26.6) with its stream from this host to host
 * b: the simulated DUT's reset (bm_backend_dut_reset of the pool) is
 * each host's model's, at reset_at_s of its trial, so the receiving
 * host sees the outage: the reset value is its reset_outage_s, 3 s, to
 * 0.1 s as on one host (test_rfc2544 test_reset).  Any other hook, as
 * bmd's reset command, runs once a repetition, from the pool, not once
 * a host; it resets no model here, so no outage is seen.
 */
START_TEST(reset_across_hosts)
{
	static const char *const labels[] = { "p1", "b:p2" };
	struct rfc2544_params rp;
	struct bm_sim_params sp;
	struct bm_error err = { "" };
	struct two_hosts h;
	unsigned int calls = 0;
	json_object *doc = NULL, *e, *reps;

	bm_sim_params_default(&sp);
	sp.line_rate_bps = 100e6;
	sp.reset_outage_s = 3.0;
	two_hosts_new(&h, &sp, 2, labels);
	ck_assert_ptr_nonnull(h.pool->ops->dut_reset);
	rfc2544_params_default(&rp, RFC2544_RESET);
	rp.reset_trial_s = 6.0;
	rp.reset_at_s = 1.0;
	rp.reset_repetitions = 2;
	rp.reset_hook = bm_backend_dut_reset;
	rp.reset_ctx = h.pool;
	ck_assert_msg(rfc2544_run(RFC2544_RESET, h.pool, &rp, NULL, NULL,
				  &doc, &err) == 0, "%s", err.msg);
	bm_test_keep_result(doc, "pool.rfc2544.reset");
	e = json_object_array_get_idx(tj_get(tj_get(doc, "results"),
					     "per_size"), 0);
	ck_assert_str_eq(json_object_get_string(tj_get(e, "result")), "ok");
	ck_assert_double_eq_tol(tj_num(e, "reset_s"), 3.0, 0.1);
	reps = tj_get(e, "repetitions");
	ck_assert_uint_eq(json_object_array_length(reps), 2);
	ck_assert_double_eq(tj_num(json_object_array_get_idx(reps, 0),
				   "reset_fired_s"), 1.0);
	json_object_put(doc);

	rp.reset_hook = count_hook;
	rp.reset_ctx = &calls;
	doc = NULL;
	ck_assert_msg(rfc2544_run(RFC2544_RESET, h.pool, &rp, NULL, NULL,
				  &doc, &err) == 0, "%s", err.msg);
	ck_assert_uint_eq(calls, 2);
	e = json_object_array_get_idx(tj_get(tj_get(doc, "results"),
					     "per_size"), 0);
	reps = tj_get(e, "repetitions");
	ck_assert_str_eq(json_object_get_string(tj_get(
		json_object_array_get_idx(reps, 1), "result")),
		"no outage above the gap threshold");
	json_object_put(doc);
	two_hosts_free(&h);
}
END_TEST

/*
 * R8238-CAL back to back across two hosts whose ports stamp every frame
 * in hardware (sim sw_stamp_delay_ns): no host sees both stamps of a
 * frame, so each logs its half's (the sender's tx stamps, the
 * receiver's rx stamps) and the pool pairs them by seq.  Truth, as on
 * one host (test_linerate's hw_calibration): C_hw = 14,256 ns for 512 B
 * at 1 Gbit/s and the software stamps 3 us later; every one of 1,000
 * frames paired across hosts (a log holds 4,096); host b 2 us off the
 * grandmaster, so the pairs' stated accuracy is that sync error.  Then
 * 10,000 frames: the logs keep every 3rd (ceil(10000 / 4096)) on both
 * hosts alike, 3,334 pairs, each C_hw.
 */
static json_object *cal_hw_across(struct bm_backend *pool, uint64_t frames)
{
	struct r8238_cal_params cp;
	struct bm_error err = { "" };
	json_object *doc = NULL;

	r8238_cal_defaults(&cp);
	cp.frame_sizes[0] = 512;
	cp.n_sizes = 1;
	cp.frames = frames;
	cp.drain_s = 0.01;
	ck_assert_msg(r8238_calibrate_run(pool, &cp, NULL, NULL, &doc,
					  &err) == 0, "%s", err.msg);
	return doc;
}

START_TEST(hw_stamps_across_hosts)
{
	static const char *const labels[] = { "p1", "b:p2" };
	struct bm_sim_params sp;
	struct two_hosts h;
	json_object *doc, *s, *hw, *tr;

	bm_sim_params_default(&sp);
	sp.line_rate_bps = 1e9;
	sp.buffer_frames = 100;
	sp.sw_stamp_delay_ns = 3000;
	sp.ptp_offset_ns = 2000;
	two_hosts_new(&h, &sp, 2, labels);
	doc = cal_hw_across(h.pool, 1000);
	bm_test_keep_result(doc, "pool.rfc8238.calibrate.hw");
	s = json_object_array_get_idx(tj_get(tj_get(doc, "results"),
					     "per_size"), 0);
	hw = tj_get(s, "hw");
	ck_assert_ptr_nonnull(hw);
	ck_assert_int_eq(json_object_get_int64(tj_get(hw, "frames")), 1000);
	ck_assert_double_eq_tol(tj_num(hw, "cal_constant_ns"), 14256, 0.5);
	ck_assert_double_eq_tol(tj_num(hw, "min_ns"), 14256, 0.5);
	ck_assert_double_eq_tol(tj_num(hw, "max_ns"), 14256, 0.5);
	ck_assert_double_eq_tol(tj_num(hw, "sw_cal_constant_ns"), 17256, 0.5);
	ck_assert_double_eq_tol(tj_num(hw, "accuracy_ns"), 2000, 0.5);
	tr = tj_get(json_object_array_get_idx(tj_get(doc, "trials"), 0),
		    "hw_latency");
	ck_assert_ptr_nonnull(tr);
	ck_assert_int_eq(json_object_get_int64(tj_get(tr, "across_hosts")),
			 1000);
	ck_assert_int_eq(json_object_get_int64(tj_get(tr, "tx_stamps")), 1000);
	ck_assert_int_eq(json_object_get_int64(tj_get(tr, "rx_stamps")), 1000);
	ck_assert_double_eq(tj_num(tr, "sync_error_ns"), 2000);
	json_object_put(doc);

	doc = cal_hw_across(h.pool, 10000);
	s = json_object_array_get_idx(tj_get(tj_get(doc, "results"),
					     "per_size"), 0);
	hw = tj_get(s, "hw");
	ck_assert_int_eq(json_object_get_int64(tj_get(hw, "frames")), 3334);
	ck_assert_double_eq_tol(tj_num(hw, "min_ns"), 14256, 0.5);
	ck_assert_double_eq_tol(tj_num(hw, "max_ns"), 14256, 0.5);
	json_object_put(doc);
	two_hosts_free(&h);
}
END_TEST

/*
 * Both kinds of pairs in one trial: RFC 8239's mesh over four ports, two
 * a host, stamping every frame.  Of its 12 streams the 4 between two
 * ports of one host pair in that host (every frame), the 8 across hosts
 * in the pool from logs of every k-th frame (65,536 / 8 streams, at most
 * 4,096 a stream: k = ceil(n / 4096)).  Truth, the same mesh on one
 * simulated host, no loss: the pool's local pairs are a third of its
 * pairs, its pairs across hosts 8 ceil(n / k), and every pair within
 * its least and largest latency.
 */
START_TEST(hw_stamps_local_and_across)
{
	struct bm_sim_params sp;
	json_object *pooled, *alone, *hp, *ho;
	double n, k, across, count;

	bm_sim_params_default(&sp);
	sp.sw_stamp_delay_ns = 3000;
	mesh_pooled_and_alone(&sp, 0.2, &pooled, &alone);
	hp = tj_get(json_object_array_get_idx(tj_get(pooled, "trials"), 0),
		    "hw_latency");
	ho = tj_get(json_object_array_get_idx(tj_get(alone, "trials"), 0),
		    "hw_latency");
	ck_assert_ptr_nonnull(hp);
	ck_assert_ptr_nonnull(ho);
	ck_assert_double_eq(tj_num(json_object_array_get_idx(tj_get(alone,
		"trials"), 0), "lost"), 0);
	n = tj_num(ho, "count") / 12;		/* frames a stream */
	k = ceil(n / 4096);
	across = tj_num(hp, "across_hosts");
	count = tj_num(hp, "count");
	ck_assert_double_gt(k, 1);
	ck_assert_double_eq(across, 8 * ceil(n / k));
	ck_assert_double_eq(count - across, 4 * n);
	ck_assert_double_ge(tj_num(hp, "min_ns"), tj_num(ho, "min_ns") - 0.5);
	ck_assert_double_le(tj_num(hp, "max_ns"), tj_num(ho, "max_ns") + 0.5);
	ck_assert_double_eq_tol(tj_num(hp, "sw_mean_ns"),
				tj_num(hp, "mean_ns") + 3000, 0.5);
	json_object_put(pooled);
	json_object_put(alone);
}
END_TEST

/*
 * RFC 2544 §13's route set-up and §11.3's routing updates over a pool:
 * each part sends the updates of its own ports (bm_rip_msg.port), §13's
 * from the rx port's host (b here), §11.3's from the tx port's (this
 * one), and the merged trial counts each message once.  The DUT is a
 * router that knows no network beyond its own but from RIP (bm_sim.h
 * rip_routes), DUT-TBF's bottleneck, random destinations over 190
 * networks (§12).  Truth: the same job on one simulated host: the same
 * throughput, 8 set-up messages a trial (ceil(190 / 25)), the same
 * A/B updates; without the set-up no frame is forwarded, so the routes
 * the pool's frames took were the updates'.
 */
static json_object *routed_run(struct bm_backend *be, bool setup)
{
	struct rfc2544_params rp;
	struct bm_error err = { "" };
	json_object *doc = NULL;

	rfc2544_params_default(&rp, RFC2544_THROUGHPUT);
	rp.frame_sizes[0] = 512;
	rp.n_sizes = 1;
	rp.thr_search_trial_s = rp.thr_final_trial_s = 1.0;
	rp.random_networks = 190;
	if (setup) {
		rp.route_setup = RFC2544_ROUTES_RIP;
		rp.route_lead_s = 2;
		rp.routing_updates = true;
		rp.routing_interval_s = 0.4;
	}
	ck_assert_msg(rfc2544_run(RFC2544_THROUGHPUT, be, &rp, NULL, NULL,
				  &doc, &err) == 0, "%s", err.msg);
	return doc;
}

START_TEST(routing_across_hosts)
{
	static const char *const labels[] = { "p1", "b:p2" };
	struct bm_sim_params sp;
	struct bm_backend *one;
	struct two_hosts h;
	json_object *d1, *dp, *e1, *ep, *t1, *tp;
	size_t i, n;

	tbf(&sp);
	sp.rip_routes = true;
	one = sim_ports_new(&sp, 2, "p");
	d1 = routed_run(one, true);
	two_hosts_new(&h, &sp, 2, labels);
	dp = routed_run(h.pool, true);
	bm_test_keep_result(dp, "pool.rfc2544.routing");
	e1 = json_object_array_get_idx(tj_get(tj_get(d1, "results"),
					      "per_size"), 0);
	ep = json_object_array_get_idx(tj_get(tj_get(dp, "results"),
					      "per_size"), 0);
	ck_assert_double_eq(tj_num(ep, "throughput_fps"),
			    tj_num(e1, "throughput_fps"));
	ck_assert_double_gt(tj_num(ep, "throughput_fps"), 0);
	t1 = tj_get(d1, "trials");
	tp = tj_get(dp, "trials");
	n = json_object_array_length(tp);
	ck_assert_uint_eq(n, json_object_array_length(t1));
	for (i = 0; i < n; i++) {
		json_object *a = json_object_array_get_idx(t1, i);
		json_object *b = json_object_array_get_idx(tp, i);

		ck_assert_double_eq(tj_num(b, "route_setup_sent"), 8);
		ck_assert_str_eq(json_object_get_string(tj_get(b,
					"routing_ab")),
				 json_object_get_string(tj_get(a,
					"routing_ab")));
		ck_assert_double_eq(tj_num(b, "received"),
				    tj_num(a, "received"));
	}
	ck_assert_double_eq(tj_num(tj_get(ep, "routing"),
				   "routing_updates_sent"),
			    tj_num(tj_get(e1, "routing"),
				   "routing_updates_sent"));
	json_object_put(d1);
	json_object_put(dp);
	two_hosts_free(&h);
	bm_sim_free(one);

	/* no set-up: the router has no route to any of the networks */
	two_hosts_new(&h, &sp, 2, labels);
	dp = routed_run(h.pool, false);
	tp = tj_get(dp, "trials");
	for (i = 0; i < json_object_array_length(tp); i++)
		ck_assert_double_eq(tj_num(json_object_array_get_idx(tp, i),
					   "received"), 0);
	json_object_put(dp);
	two_hosts_free(&h);
}
END_TEST

START_TEST(host_lost_and_refusals)
{
	static const char *const labels[] = { "p1", "c:p2" };
	struct bm_sim_params sp;
	struct bm_error err = { "" };
	struct bm_pool_host hosts[2] = {
		{ .name = "" }, { .name = "c", .run = host_lost },
	};
	struct bm_trial_spec spec;
	struct bm_trial_result res;
	struct bm_backend *a, *pool;
	static const char *const bad[][2] = {
		{ "x:p2", "host x is not in the pool" },
		{ ":p2", "no host before" },
		{ "c:", "no interface name" },
		{ "c:p:2", "one ':' between" },
		{ "c:averyverylongname", "longer than 15" },
	};
	size_t i;

	tbf(&sp);
	a = sim_ports_new(&sp, 2, "p");
	hosts[0].be = a;
	pool = bm_pool_new(hosts, 2, labels, 2, 1e8, &err);
	ck_assert_msg(pool, "%s", err.msg);
	/* a host that is no model: the pool has no DUT reset of its own
	 * (R2544-RESET takes bmd's reset command) */
	ck_assert_ptr_null(pool->ops->dut_reset);
	bm_trial_spec_rate(&spec, 512, 1000, 1.0);
	ck_assert_int_eq(bm_run_trial(pool, &spec, &res, &err), -ECONNRESET);
	ck_assert_msg(strstr(err.msg, "host c: connection lost"), "%s",
		      err.msg);
	/* what this host measured is kept: its 1000 frames sent (1 s at
	 * 1000 fps), none known received (the receiver's host failed), and
	 * the failure said in the record's sync */
	ck_assert_str_eq(res.sync.failed, err.msg);
	ck_assert_uint_eq(res.sync.n_hosts, 2);
	ck_assert_uint_eq(res.sync.hosts[0].sent, 1000);
	ck_assert(!res.sync.hosts[0].failed && res.sync.hosts[1].failed);
	ck_assert_str_eq(res.sync.hosts[1].host, "c");
	ck_assert_uint_eq(res.attempted, 1000);
	ck_assert_uint_eq(res.received, 0);
	ck_assert_uint_eq(res.lost, 1000);
	ck_assert(!res.sync.within);
	{
		struct bm_trial_log log = { 0 };
		json_object *rec;

		ck_assert_int_eq(bm_search_trial(pool, &spec, &res, &log,
						 "search", "a lost host", NULL,
						 NULL, &err), -ECONNRESET);
		ck_assert_uint_eq(log.n, 1);
		ck_assert_str_eq(log.v[0].phase, "failed");
		rec = bm_trial_record_to_json(&log.v[0], 1e8, -1);
		ck_assert_msg(strstr(json_object_to_json_string(rec),
				     "\"failed\": \"host c: connection lost"),
			      "%s", json_object_to_json_string(rec));
		json_object_put(rec);
		bm_trial_log_free(&log);
	}
	/* MLRsearch, as the draft and as RFC 9971, keep that trial too:
	 * logged "failed", its loss ratio from what this host sent (all
	 * lost: the receiving host failed), the search's error returned */
	{
		struct bm_mlr_params mp;
		struct bm_mlr_result mr;
		struct bm_mlr9971_input in;
		struct bm_mlr9971_result r9;
		struct bm_mlr_goal g = { .final_trial_s = 1,
					 .duration_sum_s = 1, .width = 0.1 };
		struct bm_pair_trial pt = { .frame_size = 512, .drain_s = -1,
					    .learning_pause_s = -1 };
		struct bm_measurer m;

		bm_mlr_params_default(&mp);
		mp.frame_size = 512;
		mp.max_rate_fps = 10000;
		memset(&mr, 0, sizeof(mr));
		ck_assert_int_eq(bm_mlrsearch_run(pool, &mp, &mr, NULL, NULL,
						  &err), -ECONNRESET);
		ck_assert_uint_eq(mr.log.n, 1);
		ck_assert_str_eq(mr.log.v[0].phase, "failed");
		ck_assert_str_eq(mr.log.v[0].res.sync.failed, err.msg);
		ck_assert_double_eq(mr.loss_ratios[0], 1.0);
		bm_mlr_result_free(&mr);

		bm_mlr9971_input_default(&in);
		in.goals = &g;
		in.n_goals = 1;
		in.max_load_fps = 10000;
		in.min_load_fps = 100;
		bm_measurer_pair(&m, pool, &pt);
		memset(&r9, 0, sizeof(r9));
		ck_assert_int_eq(bm_mlr9971_search(&m, &in, &r9, NULL, NULL,
						   &err), -ECONNRESET);
		ck_assert_uint_eq(r9.log.n, 1);
		ck_assert_str_eq(r9.log.v[0].phase, "failed");
		ck_assert_double_eq(r9.loss_ratios[0], 1.0);
		bm_mlr9971_result_free(&r9);
	}
	pool->ops->destroy(pool);

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *l[2] = { "p1", bad[i][0] };

		err.msg[0] = 0;
		ck_assert_ptr_null(bm_pool_new(hosts, 2, l, 2, 1e8, &err));
		ck_assert_msg(strstr(err.msg, bad[i][1]), "%s: %s", bad[i][0],
			      err.msg);
	}
	/* a host named twice, or one that cannot run */
	hosts[1].name = "";
	ck_assert_ptr_null(bm_pool_new(hosts, 2, labels, 2, 1e8, &err));
	ck_assert_ptr_nonnull(strstr(err.msg, "repeated"));
	bm_sim_free(a);
}
END_TEST

/*
 * R2544-LAT (RFC 2544 §26.2) from this host to host b, whose clock is
 * err_ns off true time (and linuxptp says so), and wander_ns further off
 * during its part of trial wander_trial (0: every trial): a 500 us path
 * on a 100 Mbit/s line at 1518 B, at most max_invalid repetitions run
 * again.  The result, its doc.
 */
static json_object *latency_across_wander(double err_ns, double wander_ns,
					  unsigned int wander_trial,
					  unsigned int max_invalid)
{
	static const char *const labels[] = { "p1", "b:p2" };
	struct bm_sim_params sp, sb;
	struct rfc2544_params rp;
	struct bm_error err = { "" };
	struct two_hosts h;
	json_object *doc = NULL;

	bm_sim_params_default(&sp);
	sp.line_rate_bps = 100e6;
	sp.base_latency_ns = 500000;
	sb = sp;
	sb.clock_error_ns = err_ns;
	sb.ptp_offset_ns = err_ns;
	sb.ptp_wander_ns = wander_ns;
	sb.ptp_wander_trial = wander_trial;
	b_phc2sys_apply(&sb);
	two_hosts_new_each(&h, &sp, &sb, 2, labels);
	rfc2544_params_default(&rp, RFC2544_LATENCY);
	rp.lat_max_invalid = max_invalid;
	rp.frame_sizes[0] = 1518;
	rp.n_sizes = 1;
	rp.throughput_fps[0] = bm_fps_max(100e6, 1518);
	rp.lat_trial_s = 2;
	rp.lat_tag_at_s = 1;
	ck_assert_msg(rfc2544_run(RFC2544_LATENCY, h.pool, &rp, NULL, NULL,
				  &doc, &err) == 0, "%s", err.msg);
	two_hosts_free(&h);
	return doc;
}

static json_object *latency_across(double err_ns)
{
	return latency_across_wander(err_ns, 0, 0, 20);
}

/*
 * Across hosts a one-way latency is the path plus the receiver's clock
 * error.  The path of the simulator's frame model at line rate: its 500
 * us plus the DUT's egress time of the frame, (1518 + 20) * 8 / 100e6 s
 * (no queue).  With b 800 us behind every frame's latency is the path
 * less 800 us, below zero: every tagged frame arrived, so all 20
 * repetitions are valid (a tag of 0 or less is no lost tag), the latency
 * is that, each trial counts its frames below zero, and the result says
 * why it is below zero.  With b 300 us behind: above zero, none below.
 */
START_TEST(latency_below_zero_across_hosts)
{
	const double path = 500000 + 1538 * 8 / 100e6 * 1e9;
	json_object *doc, *e, *trials, *l;
	size_t i, n;

	doc = latency_across(-800000);
	bm_test_keep_result(doc, "pool.rfc2544.latency-below-zero");
	e = json_object_array_get_idx(tj_get(tj_get(doc, "results"),
					     "per_size"), 0);
	ck_assert_int_eq(json_object_get_int64(tj_get(e, "valid_repetitions")),
			 20);
	ck_assert_int_eq(json_object_get_int64(tj_get(e,
					"invalid_repetitions")), 0);
	ck_assert_double_eq_tol(tj_num(e, "latency_ns"), path - 800000, 1e-6);
	ck_assert_ptr_nonnull(strstr(json_object_get_string(tj_get(e,
					"result")), "across hosts"));
	trials = tj_get(doc, "trials");
	n = json_object_array_length(trials);
	ck_assert_uint_eq(n, 20);
	for (i = 0; i < n; i++) {
		json_object *r = json_object_array_get_idx(trials, i);

		l = tj_get(r, "latency");
		ck_assert(json_object_get_boolean(tj_get(r, "tag_received")));
		ck_assert_double_eq_tol(tj_num(r, "tag_latency_ns"),
					path - 800000, 1e-6);
		ck_assert_double_eq_tol(tj_num(l, "max_ns"), path - 800000,
					1e-6);
		ck_assert_double_eq(tj_num(l, "below_zero"),
				    tj_num(l, "count"));
		ck_assert_double_eq(tj_num(tj_get(r, "sync"), "error_ns"),
				    800000);
	}
	json_object_put(doc);

	doc = latency_across(-300000);
	e = json_object_array_get_idx(tj_get(tj_get(doc, "results"),
					     "per_size"), 0);
	ck_assert_double_eq_tol(tj_num(e, "latency_ns"), path - 300000, 1e-6);
	ck_assert_str_eq(json_object_get_string(tj_get(e, "result")), "ok");
	l = tj_get(json_object_array_get_idx(tj_get(doc, "trials"), 0),
		   "latency");
	ck_assert(!json_object_object_get_ex(l, "below_zero", NULL));
	json_object_put(doc);
}
END_TEST

/*
 * R2544-LAT across hosts with b's clock 300 us behind by linuxptp and 2.5
 * ms further during its part of the third trial: past the pool's 1 ms
 * tolerance there, so that repetition is invalid and runs again (21
 * trials, the third flagged, 20 valid, the latency the path less 300 us
 * as without the excursion).  With the excursion in every trial and 3
 * re-runs allowed: 4 trials, no latency, the result saying why.
 */
START_TEST(latency_unsynced_repetition_rerun)
{
	const double path = 500000 + 1538 * 8 / 100e6 * 1e9;
	json_object *doc, *e, *trials, *sy;
	const char *res;
	size_t i, n;

	doc = latency_across_wander(-300000, -2.5e6, 3, 20);
	bm_test_keep_result(doc, "pool.rfc2544.latency-unsynced-rerun");
	e = json_object_array_get_idx(tj_get(tj_get(doc, "results"),
					     "per_size"), 0);
	ck_assert_double_eq(tj_num(e, "valid_repetitions"), 20);
	ck_assert_double_eq(tj_num(e, "invalid_repetitions"), 1);
	ck_assert_double_eq(tj_num(e, "unsynced_repetitions"), 1);
	ck_assert_double_eq_tol(tj_num(e, "latency_ns"), path - 300000, 1e-6);
	ck_assert_str_eq(json_object_get_string(tj_get(e, "result")), "ok");
	trials = tj_get(doc, "trials");
	n = json_object_array_length(trials);
	ck_assert_uint_eq(n, 21);
	for (i = 0; i < n; i++) {
		sy = tj_get(json_object_array_get_idx(trials, i), "sync");
		ck_assert(json_object_get_boolean(tj_get(sy, "within")) ==
			  (i != 2));
	}
	sy = tj_get(json_object_array_get_idx(trials, 2), "sync");
	ck_assert_double_eq(tj_num(sy, "error_ns"), 2.8e6);
	ck_assert_msg(strstr(json_object_get_string(tj_get(sy, "why")),
			     "b: 2.800 ms off"), "%s",
		      json_object_get_string(tj_get(sy, "why")));
	json_object_put(doc);

	doc = latency_across_wander(-300000, -2.5e6, 0, 3);
	e = json_object_array_get_idx(tj_get(tj_get(doc, "results"),
					     "per_size"), 0);
	ck_assert_double_eq(tj_num(e, "valid_repetitions"), 0);
	ck_assert_double_eq(tj_num(e, "invalid_repetitions"), 4);
	ck_assert_double_eq(tj_num(e, "unsynced_repetitions"), 4);
	ck_assert(json_object_get_type(tj_get(e, "latency_ns")) ==
		  json_type_null);
	res = json_object_get_string(tj_get(e, "result"));
	ck_assert_msg(strstr(res, "4 of 4 with the hosts' clocks not within") &&
		      strstr(res, "b: 2.800 ms off"), "%s", res);
	ck_assert_uint_eq(json_object_array_length(tj_get(doc, "trials")), 4);
	json_object_put(doc);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("pool");
	TCase *tc = tcase_create("pool");

	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, halves_by_hand);
	tcase_add_test(tc, sync_error_and_tolerance);
	tcase_add_test(tc, system_clock_by_phc2sys);
	tcase_add_test(tc, host_lost_and_refusals);
	tcase_add_test(tc, throughput_across_hosts);
	tcase_add_test(tc, mesh_as_on_one_host);
	tcase_add_test(tc, management_from_its_host);
	tcase_add_test(tc, reset_across_hosts);
	tcase_add_test(tc, routing_across_hosts);
	tcase_add_test(tc, hw_stamps_across_hosts);
	tcase_add_test(tc, hw_stamps_local_and_across);
	tcase_add_test(tc, latency_below_zero_across_hosts);
	tcase_add_test(tc, latency_unsynced_repetition_rerun);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tj_run_suite(suite());
}

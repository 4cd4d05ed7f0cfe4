// SPDX-License-Identifier: GPL-2.0
/*
 * RFC 2544's data stream types (R2544-BURSTY, -MIX,
 * -MOD broadcast, filters and management) through rfc2544.throughput and .frame-loss, against the
 * simulated DUT's N-port model: the rx port's egress is a line of
 * egress_bps behind a tail-drop queue of Q waiting frames, the one on the
 * line not counted (bm_sim.h), so every truth below is a closed form.
 *
 * The line is 100 Mbit/s and the egress 30 Mbit/s: at 512 B (532 B on the
 * wire) a frame takes T = 42.56 us on the line and S = T / 0.3 on the
 * egress, E = 30e6 / 8 / 532 = 7048.87 fps.  A burst of n frames back to
 * back into an empty egress: when frame k (0-based) arrives, floor(0.3 k)
 * have left and one is on the line, so k - floor(0.3 k) - 1 wait; it is
 * dropped iff that is >= Q.  n = 16 peaks at 10 waiting (k = 15): it fits
 * Q = 11 and not Q = 10; n = 64 needs 44.  At an average rate r <= E the
 * egress empties between bursts (a burst needs n S <= n / r), so the
 * throughput of bursts that fit is E, less the search's resolution, plus
 * at most about one frame over the 1 s trial; bursts that do not fit lose
 * frames at any rate: "throughput < r_min".
 */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bmgen.h>

#include "check_util.h"
#include "bm_sim.h"
#include "keep_result.h"
#include "rfc2544.h"
#include "rfc2544_check.h"
#include "rfc2544_int.h"

#define LINE	100e6
#define EGRESS	30e6
#define E512	(EGRESS / 8 / 532)

/* The egress DUT above, with two named ports (the stream needs them);
 * the constant pair trials of the sim's pair model get the same service
 * (capacity_bps with overhead 24 is the line of egress_bps) and queue. */
static struct bm_backend *egress_dut_gen(double egress_bps, uint64_t q,
					 double gen_fps)
{
	struct bm_sim_params sp;

	bm_sim_params_default(&sp);
	sp.generator_max_fps = gen_fps;
	sp.line_rate_bps = LINE;
	sp.capacity_bps = egress_bps;
	sp.bucket_bytes = 532;
	sp.buffer_frames = q;
	sp.ports[1].egress_bps = egress_bps;
	sp.ports[1].queue_frames = q;
	return sim_ports_new(&sp, 2, "t");
}

static struct bm_backend *egress_dut(double egress_bps, uint64_t q)
{
	return egress_dut_gen(egress_bps, q, 0);
}

static const char *str(json_object *o, const char *key)
{
	return json_object_get_string(tj_get(o, key));
}

/* Throughput of one size, 1 s trials (the sim's frames are not free). */
static void thr_params(struct rfc2544_params *p, uint32_t f)
{
	rfc2544_params_default(p, RFC2544_THROUGHPUT);
	p->frame_sizes[0] = f;
	p->n_sizes = 1;
	p->thr_search_trial_s = p->thr_final_trial_s = 1.0;
}

/* R2544-BURSTY: bursts of 16 fit Q = 11, bursts of 64 fit nothing; every
 * trial record says what it sent; the report has the §21 interval. */
START_TEST(test_bursty_throughput)
{
	struct rfc2544_params p;
	struct bm_backend *be = egress_dut(EGRESS, 11);
	json_object *doc, *e, *trials, *t;
	double thr, period;
	size_t i;

	thr_params(&p, 512);
	p.burst_sizes[0] = 16;
	p.burst_sizes[1] = 64;
	p.n_bursts = 2;
	doc = r2544_check_run(RFC2544_THROUGHPUT, be, &p);

	e = r2544_check_entry(doc, 0);
	ck_assert_uint_eq(tj_num(e, "frame_size"), 512);
	ck_assert_uint_eq(tj_num(e, "burst_frames"), 16);
	ck_assert_str_eq(str(e, "stream_type"), "bursty(16)");
	ck_assert_str_eq(str(e, "result"), "ok");
	thr = tj_num(e, "throughput_fps");
	ck_assert_msg(thr >= E512 * (1 - 0.001) - 0.01 && thr <= E512 + 2.0,
		      "bursts of 16: %.3f fps, E = %.3f", thr, E512);
	/* §21's interval: start to start n / thr, the gap that minus the
	 * burst's n frame times at line rate (AMB-22) */
	period = tj_num(e, "inter_burst_period_s");
	ck_assert_double_eq_tol(period, 16 / thr, 1e-12);
	ck_assert_double_eq_tol(tj_num(e, "burst_duration_s"),
				16 * 532 * 8 / LINE, 1e-12);
	ck_assert_double_eq_tol(tj_num(e, "inter_burst_gap_s"),
				period - 16 * 532 * 8 / LINE, 1e-12);
	ck_assert_ptr_nonnull(strstr(str(e, "statement"), "in bursts of 16 "
				     "frames"));

	e = r2544_check_entry(doc, 1);
	ck_assert_uint_eq(tj_num(e, "burst_frames"), 64);
	ck_assert_str_eq(str(e, "result"), "not measured: throughput < r_min");
	ck_assert_ptr_null(tj_get(e, "throughput_fps"));
	ck_assert_ptr_null(tj_get(e, "inter_burst_period_s"));
	ck_assert_ptr_nonnull(strstr(str(e, "statement"), "no loss-free "
				     "interval between bursts of 64"));

	/* a trial record per trial, each saying it was bursts */
	trials = tj_get(doc, "trials");
	ck_assert_uint_gt(json_object_array_length(trials), 4);
	for (i = 0; i < json_object_array_length(trials); i++) {
		t = json_object_array_get_idx(trials, i);
		ck_assert_ptr_nonnull(strstr(str(t, "stream_type"),
					     "bursty("));
		/* whole bursts: what was sent is a multiple of the burst */
		ck_assert_uint_eq((uint64_t)tj_num(t, "attempted") %
				  (strstr(str(t, "stream_type"), "(16)") ? 16 : 64),
				  0);
	}
	/* §21 SHOULD: 16, 64, 256 and 1024; this run had two */
	ck_assert(tj_has_deviation(doc, "R2544-BURSTY: §21 SHOULD run bursts of "
			       "16, 64, 256 and 1024 frames; this run: 16 64"));
	json_object_put(doc);
	bm_sim_free(be);

	/* Q = 10: the 16th frame of a burst finds 10 waiting and is dropped,
	 * at any rate; a constant stream at E would have passed */
	be = egress_dut(EGRESS, 10);
	p.n_bursts = 1;
	doc = r2544_check_run(RFC2544_THROUGHPUT, be, &p);
	ck_assert_str_eq(str(r2544_check_entry(doc, 0), "result"),
			 "not measured: throughput < r_min");
	json_object_put(doc);
	p.n_bursts = 0;
	doc = r2544_check_run(RFC2544_THROUGHPUT, be, &p);
	ck_assert_msg(fabs(tj_num(r2544_check_entry(doc, 0), "throughput_fps") / E512 - 1) <
		      0.002, "constant stream: %.3f fps",
		      tj_num(r2544_check_entry(doc, 0), "throughput_fps"));
	/* §26: the unmodified stream is a data stream type too */
	ck_assert_str_eq(str(r2544_check_entry(doc, 0), "stream_type"),
			 "constant");
	json_object_put(doc);
	bm_sim_free(be);
}
END_TEST

/*
 * §21 asks bursts back to back at the line.  A generator of 10 kfps
 * behind the 100 Mbit/s line (23,496 fps at 512 B) sends each burst's
 * frames 100 us apart, not 42.6: the 16th leaves 0.86 ms behind.  Q = 10
 * drops a line-rate burst of 16 at any rate, but those slower bursts it
 * absorbs, so the search used to report a throughput of bursts the DUT
 * was never offered.  Every such trial is generator-limited, and none
 * passes.
 */
START_TEST(test_bursty_generator_spread)
{
	struct rfc2544_params p;
	struct bm_backend *be = egress_dut_gen(EGRESS, 10, 10000);
	json_object *doc, *e, *trials, *t;
	size_t i, late = 0;

	thr_params(&p, 512);
	p.burst_sizes[0] = 16;
	p.n_bursts = 1;
	doc = r2544_check_run(RFC2544_THROUGHPUT, be, &p);
	e = r2544_check_entry(doc, 0);
	ck_assert_msg(strcmp(str(e, "result"), "ok"), "bursts the DUT was "
		      "not offered: %s", json_object_to_json_string(e));
	trials = tj_get(doc, "trials");
	for (i = 0; i < json_object_array_length(trials); i++) {
		t = json_object_array_get_idx(trials, i);
		ck_assert_msg(tj_num(t, "tx_burst_late_max_s") > 0.8e-3,
			      "trial %zu: burst late %.6f s", i,
			      tj_num(t, "tx_burst_late_max_s"));
		late += json_object_get_boolean(tj_get(t, "generator_limited"));
	}
	ck_assert_uint_eq(late, json_object_array_length(trials));
	json_object_put(doc);
	bm_sim_free(be);
}
END_TEST

/*
 * R2544-FLR with bursts of 16 (egress 31 Mbit/s, Q = 11): at 100 % of the
 * maximum rate the bursts are back to back, a constant stream at line
 * rate, and the egress keeps E = 31e6 / 8 / 532 = 7283.8 fps of 1 s plus
 * the Q + 1 frames it holds at the end; from 30 % (7048.9 fps < E) down
 * nothing is lost, so the table stops after 20 %.
 */
START_TEST(test_bursty_frame_loss)
{
	struct rfc2544_params p;
	struct bm_backend *be = egress_dut(31e6, 11);
	json_object *doc, *e, *tab, *row;
	double e31 = 31e6 / 8 / 532, tx, loss;
	size_t i;

	rfc2544_params_default(&p, RFC2544_FRAME_LOSS);
	p.frame_sizes[0] = 512;
	p.n_sizes = 1;
	p.flr_trial_s = 1.0;
	p.burst_sizes[0] = 16;
	p.n_bursts = 1;
	doc = r2544_check_run(RFC2544_FRAME_LOSS, be, &p);
	e = r2544_check_entry(doc, 0);
	ck_assert_str_eq(str(e, "stream_type"), "bursty(16)");
	ck_assert_str_eq(str(e, "stop"), "two successive zero-loss trials");
	tab = tj_get(e, "table");
	ck_assert_uint_eq(json_object_array_length(tab), 9);
	row = json_object_array_get_idx(tab, 0);
	tx = tj_num(row, "tx");
	/* 1 s of bursts at 23496.2 fps: 1469 whole bursts */
	ck_assert_uint_eq((uint64_t)tx, 1469 * 16);
	loss = 100 * (tx - (e31 * tx / (LINE / 8 / 532) + 12)) / tx;
	ck_assert_msg(fabs(tj_num(row, "loss_pct") - loss) < 0.05,
		      "100 %%: loss %.3f %%, model %.3f %%",
		      tj_num(row, "loss_pct"), loss);
	for (i = 0; i < 9; i++) {
		row = json_object_array_get_idx(tab, i);
		if (tj_num(row, "rate_pct") <= 30.0 + 1e-9)
			ck_assert_double_eq(tj_num(row, "loss_pct"), 0);
		else
			ck_assert_double_gt(tj_num(row, "loss_pct"), 0);
	}
	json_object_put(doc);
	bm_sim_free(be);
}
END_TEST

/*
 * R2544-MIX: the classic IMIX 64:7, 594:4, 1518:1, mean m = 4342 / 12 =
 * 361.83 B, through the 30 Mbit/s egress: it forwards C = 30e6 / 8 /
 * (m + 20) = 9821.04 frames/s of the mix (L1 accounting, the sim's and
 * tbf's with overhead 24).  Q = 10 absorbs the mix's unevenness (a
 * 1518-byte frame takes 4 intervals of the mix at C) and adds at most
 * 10 frames over the 1 s trial above C: [C (1 - 0.1 %), C + 11].
 */
START_TEST(test_imix_throughput)
{
	struct rfc2544_params p;
	struct bm_backend *be = egress_dut(EGRESS, 10);
	json_object *doc, *e, *t, *trials;
	double m = 4342.0 / 12, c = EGRESS / 8 / (m + 20), thr;
	struct bm_error err = { "" };
	json_object *o;
	size_t i;

	thr_params(&p, 512);
	o = json_tokener_parse("{\"imix\": \"classic\"}");
	ck_assert_int_eq(rfc2544_params_from_json(o, RFC2544_THROUGHPUT, &p,
						  &err), 0);
	json_object_put(o);
	ck_assert_uint_eq(p.n_imix, 3);
	ck_assert_double_eq_tol(rfc2544_imix_mean(&p), m, 1e-9);
	doc = r2544_check_run(RFC2544_THROUGHPUT, be, &p);
	ck_assert_uint_eq(json_object_array_length(
		tj_get(tj_get(doc, "results"), "per_size")), 1);
	e = r2544_check_entry(doc, 0);
	ck_assert(!json_object_object_get_ex(e, "frame_size", NULL));
	ck_assert_str_eq(str(e, "imix"), "64:7,594:4,1518:1");
	ck_assert_str_eq(str(e, "stream_type"), "imix");
	ck_assert_double_eq_tol(tj_num(e, "mean_frame_size"), m, 1e-9);
	ck_assert_str_eq(str(e, "result"), "ok");
	thr = tj_num(e, "throughput_fps");
	ck_assert_msg(thr >= c * (1 - 0.001) && thr <= c + 11,
		      "imix: %.3f fps, C = %.3f", thr, c);
	/* every rate of the mix: L1 of the mean + 20 B, L2 of the mean */
	ck_assert_double_eq_tol(tj_num(e, "theoretical_max_fps"),
				LINE / 8 / (m + 20), 1e-6);
	ck_assert_double_eq_tol(tj_num(e, "throughput_l1_bps"),
				thr * (m + 20) * 8, 1e-3);
	ck_assert_double_eq_tol(tj_num(e, "throughput_l2_bps"), thr * m * 8,
				1e-3);
	ck_assert_double_eq_tol(tj_num(e, "throughput_pct_line"),
				thr * (m + 20) * 8 / LINE * 100, 1e-9);
	ck_assert_ptr_nonnull(strstr(str(e, "statement"), "frames of the IMIX "
				     "64:7,594:4,1518:1 (mean 361.83 bytes)"));
	trials = tj_get(doc, "trials");
	for (i = 0; i < json_object_array_length(trials); i++) {
		t = json_object_array_get_idx(trials, i);
		ck_assert_str_eq(str(t, "stream_type"), "imix");
		ck_assert_uint_eq(tj_num(t, "frame_size"), 362);
		ck_assert_double_eq_tol(tj_num(t, "load_pct"),
					tj_num(t, "rate_fps") * (m + 20) * 8 /
					LINE * 100, 1e-9);
	}
	ck_assert(tj_has_deviation(doc, "R2544-MIX"));
	json_object_put(doc);
	bm_sim_free(be);
}
END_TEST

/* The imix key: strict, and one data stream type at a time (§11). */
START_TEST(test_imix_params)
{
	static const char *const bad[] = {
		"{\"imix\": \"64:7,594\"}",
		"{\"imix\": \"64:7,64:1\"}",
		"{\"imix\": \"63:1\"}",
		"{\"imix\": \"64:0\"}",
		"{\"imix\": \"64:40,128:25\"}",
		"{\"imix\": \"64:1;128:1\"}",
		"{\"imix\": 64}",
		"{\"imix\": \"classic\", \"frame_sizes\": [64]}",
		"{\"imix\": \"classic\", \"burst_sizes\": [16]}",
		"{\"imix\": \"classic\", \"broadcast_pct\": 1}",
	};
	struct rfc2544_params p;
	struct bm_error err;
	json_object *o;
	size_t i;
	char txt[160];

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		rfc2544_params_default(&p, RFC2544_THROUGHPUT);
		o = json_tokener_parse(bad[i]);
		ck_assert_ptr_nonnull(o);
		err.msg[0] = 0;
		ck_assert_msg(rfc2544_params_from_json(o, RFC2544_THROUGHPUT,
						       &p, &err) == -EINVAL,
			      "accepted %s", bad[i]);
		ck_assert_ptr_nonnull(strstr(err.msg, "imix"));
		json_object_put(o);
	}
	rfc2544_params_default(&p, RFC2544_FRAME_LOSS);
	o = json_tokener_parse("{\"imix\": \"1518:1,64:63\"}");
	ck_assert_int_eq(rfc2544_params_from_json(o, RFC2544_FRAME_LOSS, &p,
						  &err), 0);
	json_object_put(o);
	rfc2544_imix_text(&p, txt, sizeof(txt));
	ck_assert_str_eq(txt, "1518:1,64:63");
	/* the key is throughput's and frame loss's only */
	rfc2544_params_default(&p, RFC2544_LATENCY);
	o = json_tokener_parse("{\"imix\": \"classic\"}");
	ck_assert_int_eq(rfc2544_params_from_json(o, RFC2544_LATENCY, &p,
						  &err), -EINVAL);
	json_object_put(o);
}
END_TEST

/*
 * R2544-MOD broadcast: 1 % of the frames to ff:ff:ff:ff:ff:ff through the
 * egress of E = 7048.87 fps (Q = 11).  Test and broadcast frames share
 * that egress, so the whole stream's rate is what it carries:
 * throughput_fps in [E (1 - 0.1 %), E + 12] (Q frames more over the 1 s
 * trial).  The trial at the throughput sent round(0.99 r) test and
 * round(0.01 r) broadcast frames, and the rx port got every broadcast
 * (a two-port bridge floods them there).  The trial records count the
 * test frames only (REQ-2544-3) and the broadcasts apart.
 */
START_TEST(test_broadcast_throughput)
{
	struct rfc2544_params p;
	struct bm_backend *be = egress_dut(EGRESS, 11);
	json_object *doc, *e, *t, *trials;
	double thr, r;
	bool lossy = false;
	size_t i;

	thr_params(&p, 512);
	p.broadcast_pct = 1.0;
	doc = r2544_check_run(RFC2544_THROUGHPUT, be, &p);
	e = r2544_check_entry(doc, 0);
	ck_assert_str_eq(str(e, "stream_type"), "broadcast 1 %");
	ck_assert_double_eq(tj_num(e, "broadcast_pct"), 1.0);
	ck_assert_str_eq(str(e, "result"), "ok");
	thr = tj_num(e, "throughput_fps");
	ck_assert_msg(thr >= E512 * (1 - 0.001) - 0.01 && thr <= E512 + 12,
		      "broadcast 1 %%: %.3f fps, E = %.3f", thr, E512);
	ck_assert_double_eq_tol(tj_num(e, "test_frames_fps"), 0.99 * thr, 1e-6);
	ck_assert_double_eq_tol(tj_num(e, "broadcast_fps"), 0.01 * thr, 1e-9);
	ck_assert_uint_eq(tj_num(e, "broadcast_sent"), llround(0.01 * thr));
	ck_assert_uint_eq(tj_num(e, "broadcast_received"),
			  llround(0.01 * thr));
	ck_assert_str_eq(str(e, "broadcast_delivered"), "all");
	ck_assert_double_eq(tj_num(e, "broadcast_delivered_pct"), 100.0);
	ck_assert_double_eq_tol(tj_num(e, "broadcast_actual_pct"), 1.0, 0.02);
	ck_assert_ptr_nonnull(strstr(str(e, "statement"), "with 1 % broadcast "
				     "frames, of which the rx port received"));

	trials = tj_get(doc, "trials");
	for (i = 0; i < json_object_array_length(trials); i++) {
		t = json_object_array_get_idx(trials, i);
		r = tj_num(t, "rate_fps");
		ck_assert_str_eq(str(t, "stream_type"), "broadcast 1 %");
		ck_assert_uint_eq(tj_num(t, "attempted"), llround(0.99 * r));
		ck_assert_uint_eq(tj_num(t, "broadcast_sent"),
				  llround(0.01 * r));
		/* lost is of the test frames: received + lost = attempted */
		ck_assert_uint_eq(tj_num(t, "received") + tj_num(t, "lost"),
				  tj_num(t, "attempted"));
		if (tj_num(t, "lost") > 0 && tj_num(t, "broadcast_received") <
		    tj_num(t, "broadcast_sent"))
			lossy = true;
	}
	/* the tail drop hits both kinds: the trial at r_max lost some of each */
	ck_assert(lossy);
	ck_assert(tj_has_deviation(doc, "R2544-MOD broadcast (§11.1)"));
	ck_assert(!tj_has_deviation(doc, "SHOULD be 1 %"));
	json_object_put(doc);

	/* frame loss: rows count test frames, the broadcasts apart */
	rfc2544_params_default(&p, RFC2544_FRAME_LOSS);
	p.frame_sizes[0] = 512;
	p.n_sizes = 1;
	p.flr_trial_s = 1.0;
	p.broadcast_pct = 2.0;
	doc = r2544_check_run(RFC2544_FRAME_LOSS, be, &p);
	e = json_object_array_get_idx(tj_get(r2544_check_entry(doc, 0), "table"), 0);
	r = tj_num(e, "rate_fps");
	ck_assert_uint_eq(tj_num(e, "tx"), llround(0.98 * r));
	ck_assert_uint_eq(tj_num(e, "broadcast_tx"), llround(0.02 * r));
	/* which kind the tail drop hits goes by the phases (bm_sim.h) */
	ck_assert_double_le(tj_num(e, "broadcast_rx"), tj_num(e, "broadcast_tx"));
	ck_assert_double_gt(tj_num(e, "loss_pct"), 60);
	ck_assert(tj_has_deviation(doc, "SHOULD be 1 % of the frames"));
	json_object_put(doc);
	bm_sim_free(be);
}
END_TEST

/*
 * R2544-MULTI (§16) on 4 ports, t1, t2 -> t3, t4 round-robin, each output
 * an egress of 30 Mbit/s behind Q = 10: each input's rate r reaches each
 * output as r / 2 from either input, r in all, so the throughput per
 * input is the pair's closed form E (less the resolution, plus about a
 * frame), the aggregate 2 E; mesh on 3 ports with t3's egress alone at
 * 30 Mbit/s: t3 gets r / 2 from each of the others, r again.  Every
 * trial counts the frames of all streams.  Then what is refused.
 */
static struct bm_backend *multi_dut(unsigned int n, const unsigned int *eg,
				    unsigned int n_eg)
{
	struct bm_sim_params sp;
	unsigned int i;

	bm_sim_params_default(&sp);
	sp.line_rate_bps = LINE;
	for (i = 0; i < n_eg; i++) {
		sp.ports[eg[i]].egress_bps = EGRESS;
		sp.ports[eg[i]].queue_frames = 10;
	}
	return sim_ports_new(&sp, n, "t");
}

static void check_multi(const char *topo, unsigned int n,
			const unsigned int *eg, unsigned int n_eg,
			unsigned int senders)
{
	struct rfc2544_params p;
	struct bm_backend *be = multi_dut(n, eg, n_eg);
	struct bm_error err = { "" };
	json_object *doc, *e, *t, *trials, *o;
	double thr;
	char js[64];
	size_t i;

	thr_params(&p, 512);
	snprintf(js, sizeof(js), "{\"topology\": \"%s\"}", topo);
	o = json_tokener_parse(js);
	ck_assert_int_eq(rfc2544_params_from_json(o, RFC2544_THROUGHPUT, &p,
						  &err), 0);
	json_object_put(o);
	doc = r2544_check_run(RFC2544_THROUGHPUT, be, &p);
	ck_assert_str_eq(str(tj_get(doc, "results"), "topology"), topo);
	ck_assert_uint_eq(tj_num(tj_get(doc, "results"), "sending_ports"),
			  senders);
	e = r2544_check_entry(doc, 0);
	ck_assert_str_eq(str(e, "result"), "ok");
	thr = tj_num(e, "throughput_fps");
	ck_assert_msg(thr >= E512 * (1 - 0.001) && thr <= E512 + 11,
		      "%s: %.3f fps, E = %.3f", topo, thr, E512);
	ck_assert_double_eq_tol(tj_num(e, "throughput_aggregate_fps"),
				senders * thr, 1e-6);
	trials = tj_get(doc, "trials");
	for (i = 0; i < json_object_array_length(trials); i++) {
		t = json_object_array_get_idx(trials, i);
		ck_assert_str_eq(str(t, "topology"), topo);
		/* every sender's frames, within a frame a stream */
		ck_assert_double_eq_tol(tj_num(t, "intended"),
					senders * tj_num(t, "rate_fps") *
					tj_num(t, "duration_s"),
					senders * (n - 1));
	}
	json_object_put(doc);
	bm_sim_free(be);
}

START_TEST(test_multiport_throughput)
{
	static const unsigned int mp[] = { 2, 3 }, mesh[] = { 2 };

	check_multi("multiport", 4, mp, 2, 2);
	check_multi("mesh", 3, mesh, 1, 3);
}
END_TEST

START_TEST(test_multiport_params)
{
	static const struct r2544_refusal bad[] = {
		{ RFC2544_LATENCY, "{\"topology\": \"mesh\"}",
		  "topology: mesh is for throughput and frame-loss" },
		{ RFC2544_THROUGHPUT, "{\"topology\": \"multiport\", "
		  "\"burst_sizes\": [16]}", "topology multiport: "
		  "burst_sizes: with a pair only" },
		{ RFC2544_FRAME_LOSS, "{\"topology\": \"mesh\", "
		  "\"broadcast_pct\": 1}", "broadcast_pct: with a pair only" },
		{ RFC2544_THROUGHPUT, "{\"topology\": \"mesh\", "
		  "\"search\": \"mlr\"}", "search mlr: with a pair only" },
		{ RFC2544_THROUGHPUT, "{\"topology\": \"mesh\", "
		  "\"search\": \"rfc9971\"}",
		  "search rfc9971: with a pair only" },
		{ RFC2544_THROUGHPUT, "{\"search\": \"rfc9971\", "
		  "\"loss_tolerance_frames\": 2}", "loss_tolerance_frames: not "
		  "with search rfc9971" },
	};
	static const unsigned int eg[] = { 2 };
	struct rfc2544_params p;
	struct bm_error err;
	struct bm_backend *be;
	json_object *doc = NULL;

	r2544_check_refused(bad, sizeof(bad) / sizeof(bad[0]));
	/* half in, half out: not of 3 ports */
	be = multi_dut(3, eg, 1);
	thr_params(&p, 512);
	p.topology = BM_TOPO_MULTIPORT;
	err.msg[0] = '\0';
	ck_assert_int_eq(rfc2544_run(RFC2544_THROUGHPUT, be, &p, NULL, NULL,
				     &doc, &err), -EINVAL);
	ck_assert_msg(strstr(err.msg, "topology multiport: 3 ports"), "%s",
		      err.msg);
	json_object_put(doc);
	bm_sim_free(be);
}
END_TEST

/*
 * R2544-MOD filters (§11.4, AMB-25) on the egress DUT of E = 7048.87 fps,
 * its filters permitting 198.18.1.2 -> 198.19.65.2 only: the probe frames
 * (1 %) never reach the egress, so the test frames alone fill it and the
 * throughput of all frames is E / 0.99, less the resolution, plus Q
 * frames over the 1 s trial; every probe sent is lost, the result is ok.
 * The same DUT without filters forwards the probes: they share the egress
 * (throughput E), and the result is not "ok" but says the filters do not
 * act.
 */
static struct bm_backend *filter_dut(bool filtering)
{
	struct bm_sim_params sp;

	bm_sim_params_default(&sp);
	sp.line_rate_bps = LINE;
	sp.ports[1].egress_bps = EGRESS;
	sp.ports[1].queue_frames = 11;
	if (filtering) {
		r2544_filter_pair(0, sp.permit[0][0], sp.permit[0][1]);
		sp.n_permit = 1;
	}
	return sim_ports_new(&sp, 2, "t");
}

START_TEST(test_filters_throughput)
{
	struct rfc2544_params p;
	struct bm_backend *be = filter_dut(true);
	json_object *doc, *e, *f, *t, *trials;
	double thr, r, top = E512 / 0.99;
	size_t i;

	thr_params(&p, 512);
	p.filters = 25;
	doc = r2544_check_run(RFC2544_THROUGHPUT, be, &p);
	e = r2544_check_entry(doc, 0);
	ck_assert_str_eq(str(e, "stream_type"), "filters(25)");
	ck_assert_str_eq(str(e, "result"), "ok");
	thr = tj_num(e, "throughput_fps");
	ck_assert_msg(thr >= top * (1 - 0.001) - 0.01 && thr <= top + 12,
		      "filters 25: %.3f fps, E / 0.99 = %.3f", thr, top);
	ck_assert_double_eq_tol(tj_num(e, "test_frames_fps"), 0.99 * thr, 1e-6);
	f = tj_get(e, "filters");
	ck_assert_int_eq(tj_num(f, "filters"), 25);
	ck_assert_str_eq(str(f, "order"), "last");
	ck_assert_str_eq(str(f, "test_stream"), "198.18.1.2 -> 198.19.65.2");
	ck_assert_double_gt(tj_num(f, "probe_sent"), 24);
	ck_assert_int_eq(tj_num(f, "probe_received"), 0);
	/* pairs 2..24: pair 1's source is the DUT's own 198.18.1.1 */
	ck_assert_int_eq(tj_num(f, "pairs_probed"), 23);
	ck_assert(json_object_get_boolean(tj_get(f, "filters_act")));
	ck_assert_ptr_nonnull(strstr(str(e, "statement"), "the DUT dropped "
				     "all"));
	trials = tj_get(doc, "trials");
	for (i = 0; i < json_object_array_length(trials); i++) {
		t = json_object_array_get_idx(trials, i);
		r = tj_num(t, "rate_fps");
		ck_assert_str_eq(str(t, "stream_type"), "filters(25)");
		ck_assert_uint_eq(tj_num(t, "attempted"), llround(0.99 * r));
		ck_assert_uint_eq(tj_num(t, "probe_sent"), llround(0.01 * r));
		ck_assert_int_eq(tj_num(t, "probe_received"), 0);
		ck_assert_uint_eq(tj_num(t, "received") + tj_num(t, "lost"),
				  tj_num(t, "attempted"));
	}
	ck_assert(tj_has_deviation(doc, "AMB-25"));
	json_object_put(doc);
	bm_sim_free(be);

	/* no filters on the DUT: the probes pass and share the egress */
	be = filter_dut(false);
	p.filters = 1;
	doc = r2544_check_run(RFC2544_THROUGHPUT, be, &p);
	e = r2544_check_entry(doc, 0);
	thr = tj_num(e, "throughput_fps");
	ck_assert_msg(thr >= E512 * (1 - 0.001) - 0.01 && thr <= E512 + 12,
		      "filters 1, none on the DUT: %.3f fps, E = %.3f", thr,
		      E512);
	ck_assert_ptr_nonnull(strstr(str(e, "result"), "filters not active: "
				     "the DUT forwarded"));
	ck_assert_ptr_nonnull(strstr(str(e, "statement"), "no §11.4 result"));
	f = tj_get(e, "filters");
	ck_assert_double_gt(tj_num(f, "probe_received"), 0);
	ck_assert(!json_object_get_boolean(tj_get(f, "filters_act")));
	json_object_put(doc);

	/* frame loss: the rows count the test frames, the probes apart */
	rfc2544_params_default(&p, RFC2544_FRAME_LOSS);
	p.frame_sizes[0] = 512;
	p.n_sizes = 1;
	p.flr_trial_s = 1.0;
	p.filters = 1;
	p.probe_pct = 2.0;
	doc = r2544_check_run(RFC2544_FRAME_LOSS, be, &p);
	e = r2544_check_entry(doc, 0);
	ck_assert_ptr_nonnull(strstr(str(e, "result"), "filters not active"));
	t = json_object_array_get_idx(tj_get(e, "table"), 0);
	r = tj_num(t, "rate_fps");
	ck_assert_uint_eq(tj_num(t, "tx"), llround(0.98 * r));
	ck_assert_uint_eq(tj_num(t, "probe_tx"), llround(0.02 * r));
	ck_assert_double_gt(tj_num(t, "probe_rx"), 0);
	json_object_put(doc);
	bm_sim_free(be);
}
END_TEST

/* §11.4's lists (AMB-25): the permit last or 13th, "deny all else" last;
 * and what the parameters refuse. */
START_TEST(test_filters_rules_params)
{
	static const struct r2544_refusal bad[] = {
		{ RFC2544_THROUGHPUT, "{\"filters\": 2}",
		  "filters: 2: 0, 1 or 25" },
		{ RFC2544_THROUGHPUT, "{\"probe_pct\": 2}",
		  "probe_pct: only with filters" },
		{ RFC2544_FRAME_LOSS, "{\"filters\": 1, \"filter_order\": "
		  "\"last\"}", "filter_order: a list of 25" },
		{ RFC2544_THROUGHPUT, "{\"filters\": 25, \"broadcast_pct\": 1}",
		  "broadcast_pct and filters: one data stream type" },
		{ RFC2544_THROUGHPUT, "{\"filters\": 25, \"topology\": "
		  "\"pair-bidir\"}", "filters: with topology pair-uni only" },
		{ RFC2544_LATENCY, "{\"filters\": 25}", "filters" },
	};
	struct rfc2544_params p;
	json_object *a;

	rfc2544_params_default(&p, RFC2544_THROUGHPUT);
	p.filters = 25;
	a = r2544_filter_rules(&p);
	ck_assert_int_eq(json_object_array_length(a), 26);
	ck_assert_str_eq(json_object_get_string(json_object_array_get_idx(a, 0)),
			 "deny 198.18.1.1 -> 198.19.101.1");
	ck_assert_str_eq(json_object_get_string(json_object_array_get_idx(a, 23)),
			 "deny 198.18.24.24 -> 198.19.124.24");
	ck_assert_str_eq(json_object_get_string(json_object_array_get_idx(a, 24)),
			 "permit 198.18.1.2 -> 198.19.65.2");
	ck_assert_str_eq(json_object_get_string(json_object_array_get_idx(a, 25)),
			 "deny all else");
	json_object_put(a);
	p.filter_order = RFC2544_FILTER_RFC1141;
	a = r2544_filter_rules(&p);
	ck_assert_int_eq(json_object_array_length(a), 26);
	ck_assert_str_eq(json_object_get_string(json_object_array_get_idx(a, 12)),
			 "permit 198.18.1.2 -> 198.19.65.2");
	ck_assert_str_eq(json_object_get_string(json_object_array_get_idx(a, 13)),
			 "deny 198.18.13.13 -> 198.19.113.13");
	json_object_put(a);
	p.filters = 1;
	a = r2544_filter_rules(&p);
	ck_assert_int_eq(json_object_array_length(a), 2);
	json_object_put(a);

	r2544_check_refused(bad, sizeof(bad) / sizeof(bad[0]));
}
END_TEST

/*
 * R2544-MOD management (§11.2, AMB-24): the sim's agent at 198.18.1.1
 * answers every query.  A trial of D = 1.5 s makes ceil(D) = 2 queries,
 * at 0 and 1 s, each in place of a test frame: attempted = round(r D) -
 * 2; the throughput is the egress's E (the queries never reach it), and
 * the entry sums the trials' queries.  An agent elsewhere answers none:
 * the throughput is the same and "ok", the entry says what went
 * unanswered.
 */
START_TEST(test_management)
{
	struct rfc2544_params p;
	struct bm_backend *be;
	struct bm_sim_params sp;
	json_object *doc, *e, *m, *t, *trials;
	double thr, r;
	size_t i, n;

	bm_sim_params_default(&sp);
	sp.line_rate_bps = LINE;
	sp.ports[1].egress_bps = EGRESS;
	sp.ports[1].queue_frames = 11;
	memcpy(sp.mgmt_agent, (const uint8_t[]){ 198, 18, 1, 1 }, 4);
	sp.have_mgmt_agent = true;
	be = sim_ports_new(&sp, 2, "t");
	thr_params(&p, 512);
	p.thr_search_trial_s = p.thr_final_trial_s = 1.5;
	p.management = true;
	doc = r2544_check_run(RFC2544_THROUGHPUT, be, &p);
	e = r2544_check_entry(doc, 0);
	ck_assert_str_eq(str(e, "stream_type"), "management");
	ck_assert_str_eq(str(e, "result"), "ok");
	thr = tj_num(e, "throughput_fps");
	ck_assert_msg(thr >= E512 * (1 - 0.001) - 0.01 && thr <= E512 + 12,
		      "management: %.3f fps, E = %.3f", thr, E512);
	trials = tj_get(doc, "trials");
	n = json_object_array_length(trials);
	for (i = 0; i < n; i++) {
		t = json_object_array_get_idx(trials, i);
		r = tj_num(t, "rate_fps");
		ck_assert_str_eq(str(t, "stream_type"), "management");
		ck_assert_uint_eq(tj_num(t, "attempted"), llround(1.5 * r) - 2);
		ck_assert_int_eq(tj_num(t, "mgmt_sent"), 2);
		ck_assert_int_eq(tj_num(t, "mgmt_verified"), 2);
	}
	m = tj_get(e, "management");
	ck_assert_str_eq(str(m, "agent"), "198.18.1.1");
	ck_assert_uint_eq(tj_num(m, "queries"), 2 * n);
	ck_assert_uint_eq(tj_num(m, "answered"), 2 * n);
	ck_assert_uint_eq(tj_num(m, "verified"), 2 * n);
	ck_assert(json_object_get_type(tj_get(m, "first_error")) ==
		  json_type_null);
	ck_assert_ptr_nonnull(strstr(str(e, "statement"), "the agent answered"));
	ck_assert(tj_has_deviation(doc, "AMB-24"));
	json_object_put(doc);
	/* the community is no part of the result's parameters */
	doc = rfc2544_params_to_json(&p, RFC2544_THROUGHPUT);
	ck_assert(!json_object_object_get_ex(doc, "mgmt_community", NULL));
	ck_assert_str_eq(str(doc, "mgmt_agent"), "198.18.1.1");
	json_object_put(doc);

	/* an agent that is not there: nothing answered, the rate the same */
	p.mgmt_agent[3] = 9;
	doc = r2544_check_run(RFC2544_THROUGHPUT, be, &p);
	e = r2544_check_entry(doc, 0);
	ck_assert_str_eq(str(e, "result"), "ok");
	ck_assert_double_eq_tol(tj_num(e, "throughput_fps"), thr, 1e-9);
	m = tj_get(e, "management");
	ck_assert_int_eq(tj_num(m, "answered"), 0);
	ck_assert_ptr_nonnull(strstr(str(m, "first_error"), "2 of 2 queries "
				     "unanswered"));
	json_object_put(doc);
	bm_sim_free(be);
}
END_TEST

START_TEST(test_management_params)
{
	static const struct r2544_refusal bad[] = {
		{ RFC2544_THROUGHPUT, "{\"mgmt_agent\": \"198.18.1.1\"}",
		  "only with management" },
		{ RFC2544_THROUGHPUT, "{\"management\": true, \"mgmt_agent\": "
		  "\"198.18.1\"}", "mgmt_agent: expected an IPv4 address" },
		{ RFC2544_THROUGHPUT, "{\"management\": true, \"mgmt_agent\": "
		  "\"10.0.2.2\"}", "mgmt_agent: 10.0.2.2 is not a DUT address: the test network is 198.18.0.0/15" },
		{ RFC2544_THROUGHPUT, "{\"management\": true, \"mgmt_agent\": "
		  "\"198.20.1.1\"}", "mgmt_agent: 198.20.1.1 is not a DUT address" },
		{ RFC2544_FRAME_LOSS, "{\"management\": true, "
		  "\"mgmt_community\": \"pub lic\"}",
		  "mgmt_community: printable characters only" },
		{ RFC2544_THROUGHPUT, "{\"management\": true, \"topology\": "
		  "\"mesh\"}", "management: with a pair only" },
		{ RFC2544_THROUGHPUT, "{\"management\": true, \"filters\": 1}",
		  "filters and management: one data stream type" },
		{ RFC2544_LATENCY, "{\"management\": true}", "management" },
	};
	r2544_check_refused(bad, sizeof(bad) / sizeof(bad[0]));
}
END_TEST

/*
 * §12 random destinations (SPEC R2544-ADDR): the sim forwards every
 * destination alike, so the throughput is the single destination's; the
 * report's frames per network are exactly bmgen_flow_pick's over every
 * trial's attempted frames, uniform by chi-square at 1 %; the same seed
 * gives the same destinations, another seed others.  SPEC's acceptance:
 * 1.9 x 10^6 frames over 190 networks pass the chi-square test.
 */
static json_object *random_run(unsigned int networks, unsigned int macs,
			       unsigned int seed, double *thr)
{
	struct bm_backend *be = filter_dut(false);
	struct rfc2544_params p;
	json_object *doc;

	thr_params(&p, 512);
	p.random_networks = networks;
	p.random_macs = macs;
	p.random_seed = seed;
	doc = r2544_check_run(RFC2544_THROUGHPUT, be, &p);
	*thr = tj_num(r2544_check_entry(doc, 0), "throughput_fps");
	bm_sim_free(be);
	return doc;
}

/* rd's frames per destination (key, n of them) are exactly p's picks
 * over every trial's attempted frames of doc, and uniform. */
static void random_counts_ok(json_object *doc, json_object *rd,
			     const struct rfc2544_params *p, const char *key,
			     unsigned int n)
{
	uint64_t *want = calloc(n, sizeof(*want)), sum = 0;
	json_object *trials = tj_get(doc, "trials"), *a;
	double x;
	size_t i;

	ck_assert_ptr_nonnull(want);
	for (i = 0; i < json_object_array_length(trials); i++) {
		x = tj_num(json_object_array_get_idx(trials, i), "attempted");
		r2544_random_count(p, (uint64_t)x, want);
		sum += (uint64_t)x;
	}
	ck_assert_uint_gt(sum, 10000);
	ck_assert_uint_eq((uint64_t)tj_num(rd, "frames"), sum);
	a = tj_get(rd, key);
	ck_assert_uint_eq(json_object_array_length(a), n);
	for (i = 0; i < n; i++)
		ck_assert_uint_eq((uint64_t)json_object_get_int64(
				  json_object_array_get_idx(a, i)), want[i]);
	ck_assert(json_object_get_boolean(tj_get(rd, "uniform")));
	ck_assert(tj_num(rd, "chi2") <= tj_num(rd, "chi2_critical_1pct"));
	free(want);
}

START_TEST(test_random_destinations)
{
	json_object *doc, *doc2, *doc3, *e, *rd, *a;
	struct rfc2544_params p;
	uint64_t *big;
	double thr, chi2 = 0;
	size_t i;

	/* the egress E512 fps and its queue of 11 frames over 1 s trials,
	 * less the search's resolution (0.5 % of the result) */
	doc = random_run(190, 0, 7, &thr);
	ck_assert_msg(thr >= E512 * 0.995 && thr <= E512 + 11.0 + 1.0,
		      "throughput %.2f, E %.2f", thr, E512);
	e = r2544_check_entry(doc, 0);
	ck_assert_str_eq(str(e, "stream_type"), "random(190)");
	ck_assert_str_eq(str(e, "result"), "ok");
	rd = tj_get(e, "random_destinations");
	ck_assert_int_eq((int)tj_num(rd, "networks"), 190);
	ck_assert_int_eq((int)tj_num(rd, "seed"), 7);
	ck_assert_str_eq(str(rd, "last_network"), "198.19.254.0/24");
	rfc2544_params_default(&p, RFC2544_THROUGHPUT);
	p.random_networks = 190;
	p.random_seed = 7;
	random_counts_ok(doc, rd, &p, "frames_per_network", 190);
	a = tj_get(rd, "frames_per_network");
	/* df 189 at 1 %: 237.16 by Wilson-Hilferty (tables: 237.2) */
	ck_assert_double_eq_tol(tj_num(rd, "chi2_critical_1pct"), 237.2, 0.2);

	doc2 = random_run(190, 0, 7, &thr);
	ck_assert_str_eq(json_object_to_json_string(a),
			 json_object_to_json_string(tj_get(tj_get(
			 r2544_check_entry(doc2, 0), "random_destinations"),
			 "frames_per_network")));
	doc3 = random_run(190, 0, 8, &thr);
	ck_assert_str_ne(json_object_to_json_string(a),
			 json_object_to_json_string(tj_get(tj_get(
			 r2544_check_entry(doc3, 0), "random_destinations"),
			 "frames_per_network")));
	json_object_put(doc);
	json_object_put(doc2);
	json_object_put(doc3);

	/* SPEC R2544-ADDR acceptance: 1.9 x 10^6 frames, 190 networks */
	big = calloc(190, sizeof(*big));
	ck_assert_ptr_nonnull(big);
	p.random_seed = 1;
	r2544_random_count(&p, 1900000, big);
	for (i = 0; i < 190; i++)
		chi2 += (big[i] - 10000.0) * (big[i] - 10000.0) / 10000.0;
	ck_assert_msg(chi2 <= 237.2, "chi2 %.1f", chi2);
	free(big);
}
END_TEST

/*
 * §12 for a bridge (SPEC R2544-ADDR, AMB-06): frames to a seeded set of
 * K unicast MACs.  The sim forwards every destination alike: the
 * throughput is the single destination's; the set is bmgen_flow_mac()'s,
 * unicast and all different; the frames per MAC are exactly
 * bmgen_flow_pick()'s over every trial's attempted frames, uniform by
 * chi-square at 1 %; the same seed gives the same set, another another.
 */
START_TEST(test_random_macs)
{
	json_object *doc, *doc2, *e, *rd, *set;
	struct rfc2544_params p;
	double thr;
	uint8_t m[6];
	char buf[18];
	size_t i, j;

	doc = random_run(0, 256, 3, &thr);
	ck_assert_msg(thr >= E512 * 0.995 && thr <= E512 + 11.0 + 1.0,
		      "throughput %.2f, E %.2f", thr, E512);
	e = r2544_check_entry(doc, 0);
	ck_assert_str_eq(str(e, "stream_type"), "random-mac(256)");
	ck_assert_str_eq(str(e, "result"), "ok");
	rd = tj_get(e, "random_destinations");
	ck_assert_int_eq((int)tj_num(rd, "macs"), 256);
	ck_assert(!json_object_object_get_ex(rd, "networks", NULL));
	set = tj_get(rd, "mac_set");
	ck_assert_uint_eq(json_object_array_length(set), 256);
	for (i = 0; i < 256; i++) {
		bmgen_flow_mac(3, (uint32_t)i, m);
		ck_assert(!(m[0] & 1));
		snprintf(buf, sizeof(buf), "%02x:%02x:%02x:%02x:%02x:%02x",
			 m[0], m[1], m[2], m[3], m[4], m[5]);
		ck_assert_str_eq(json_object_get_string(
				 json_object_array_get_idx(set, i)), buf);
		for (j = 0; j < i; j++)
			ck_assert_str_ne(buf, json_object_get_string(
					 json_object_array_get_idx(set, j)));
	}
	rfc2544_params_default(&p, RFC2544_THROUGHPUT);
	p.random_macs = 256;
	p.random_seed = 3;
	random_counts_ok(doc, rd, &p, "frames_per_mac", 256);
	ck_assert(tj_has_deviation(doc, "random MAC destinations"));

	doc2 = random_run(0, 256, 4, &thr);
	ck_assert_str_ne(json_object_to_json_string(set),
			 json_object_to_json_string(tj_get(tj_get(
			 r2544_check_entry(doc2, 0), "random_destinations"),
			 "mac_set")));
	json_object_put(doc);
	json_object_put(doc2);
}
END_TEST

START_TEST(test_random_params)
{
	static const struct r2544_refusal bad[] = {
		{ RFC2544_THROUGHPUT, "{\"random_networks\": 1}",
		  "random_networks: 1 network is one destination" },
		{ RFC2544_THROUGHPUT, "{\"random_networks\": 191}",
		  "random_networks" },
		{ RFC2544_THROUGHPUT, "{\"random_seed\": 3}",
		  "random_seed: only with random_networks" },
		{ RFC2544_FRAME_LOSS, "{\"random_networks\": 190, "
		  "\"topology\": \"pair-bidir\"}", "with topology pair-uni" },
		{ RFC2544_THROUGHPUT, "{\"random_networks\": 190, "
		  "\"filters\": 1}", "filters and random_networks: one data "
		  "stream type" },
		{ RFC2544_LATENCY, "{\"random_networks\": 190}",
		  "random_networks" },
		{ RFC2544_THROUGHPUT, "{\"random_macs\": 1}",
		  "random_macs: 1 MAC is one destination" },
		{ RFC2544_THROUGHPUT, "{\"random_macs\": 65537}",
		  "random_macs" },
		{ RFC2544_THROUGHPUT, "{\"random_macs\": 16, "
		  "\"random_networks\": 190}", "one data stream type" },
		{ RFC2544_FRAME_LOSS, "{\"random_macs\": 16, "
		  "\"topology\": \"pair-bidir\"}", "random_macs: with topology" },
		{ RFC2544_LATENCY, "{\"random_macs\": 16}", "random_macs" },
	};
	r2544_check_refused(bad, sizeof(bad) / sizeof(bad[0]));
}
END_TEST


/* Run p's throughput on be: result ok, stream type type (NULL: not
 * checked), throughput within the egress window of E512 (less 0.5 % of
 * resolution, plus its queue of 11 frames over the 1 s trials). */
static json_object *thr_run_ok(struct bm_backend *be,
			       const struct rfc2544_params *p,
			       const char *type)
{
	json_object *doc = r2544_check_run(RFC2544_THROUGHPUT, be, p);
	json_object *e = r2544_check_entry(doc, 0);
	double thr = tj_num(e, "throughput_fps");

	ck_assert_str_eq(str(e, "result"), "ok");
	if (type)
		ck_assert_str_eq(str(e, "stream_type"), type);
	ck_assert_msg(thr >= E512 * 0.995 && thr <= E512 + 11.0 + 1.0,
		      "throughput %.2f, E %.2f", thr, E512);
	return doc;
}

/*
 * §13 route set-up (SPEC R2544-ROUTE, REQ-2544-4) on a sim router that
 * knows no network beyond its own but from RIP (bm_sim.h rip_routes),
 * random destinations over 190 networks (§12), egress E512:
 *   static: the DUT has no route, so no trial forwards a frame: the
 *     result is not "ok", and the deviation says the routes were meant to
 *     be configured;
 *   rip: before each trial ceil(190 / 25) = 8 messages from the rx
 *     port's phantom router (the sim hears them as C.2.6.2's frames), so
 *     the throughput is the one of test_random_destinations; the 1 s
 *     trials are over before the first 30 s repeat (7 s lead), so each
 *     trial sends exactly 8; in 40 s frame-loss trials each message
 *     repeats once (at 23 s), 16 a trial.
 */
static struct bm_backend *rip_dut(void)
{
	struct bm_sim_params sp;

	bm_sim_params_default(&sp);
	sp.line_rate_bps = LINE;
	sp.ports[1].egress_bps = EGRESS;
	sp.ports[1].queue_frames = 11;
	sp.rip_routes = true;
	return sim_ports_new(&sp, 2, "t");
}

START_TEST(test_route_setup)
{
	struct bm_backend *be = rip_dut();
	json_object *doc, *e, *trials, *t;
	struct rfc2544_params p;
	size_t i;

	thr_params(&p, 512);
	p.random_networks = 190;
	doc = r2544_check_run(RFC2544_THROUGHPUT, be, &p);
	e = r2544_check_entry(doc, 0);
	ck_assert_str_ne(str(e, "result"), "ok");
	ck_assert(tj_has_deviation(doc, "route_setup static: no routing "
				   "update was sent"));
	ck_assert(!json_object_object_get_ex(e, "routing", NULL));
	trials = tj_get(doc, "trials");
	for (i = 0; i < json_object_array_length(trials); i++)
		ck_assert_double_eq(tj_num(json_object_array_get_idx(trials, i),
					   "received"), 0);
	json_object_put(doc);
	bm_sim_free(be);

	be = rip_dut();
	p.route_setup = RFC2544_ROUTES_RIP;
	doc = thr_run_ok(be, &p, "random(190)");
	e = r2544_check_entry(doc, 0);
	trials = tj_get(doc, "trials");
	for (i = 0; i < json_object_array_length(trials); i++) {
		t = json_object_array_get_idx(trials, i);
		ck_assert_double_eq(tj_num(t, "route_setup_sent"), 8);
	}
	ck_assert_double_eq(tj_num(tj_get(e, "routing"), "route_setup_sent"),
			    8.0 * json_object_array_length(trials));
	ck_assert_str_eq(str(tj_get(e, "routing"), "route_setup"), "rip");
	ck_assert(tj_has_deviation(doc, "R2544-ROUTE (§13, C.2.4.2"));
	json_object_put(doc);
	bm_sim_free(be);

	/* 40 s frame-loss steps: one repeat of each message in each */
	be = rip_dut();
	rfc2544_params_default(&p, RFC2544_FRAME_LOSS);
	p.frame_sizes[0] = 1518;
	p.n_sizes = 1;
	p.flr_trial_s = 40;
	p.random_networks = 190;
	p.route_setup = RFC2544_ROUTES_RIP;
	doc = r2544_check_run(RFC2544_FRAME_LOSS, be, &p);
	trials = tj_get(doc, "trials");
	ck_assert_uint_gt(json_object_array_length(trials), 1);
	for (i = 0; i < json_object_array_length(trials); i++) {
		t = json_object_array_get_idx(trials, i);
		ck_assert_double_eq(tj_num(t, "route_setup_sent"), 16);
		ck_assert_double_gt(tj_num(t, "received"), 0);
	}
	json_object_put(doc);
	bm_sim_free(be);
}
END_TEST

/*
 * §11.3 routing update frames A and B (R2544-MOD): every 0.4 s from the
 * start of each 1 s trial, so three a trial, alternating over the whole
 * run (ABA, BAB, ABA, ...); they change routes the test does not use, so
 * the throughput is the plain stream's on the same DUT, with RIP-only
 * routes and the route set-up beside them too.
 */
START_TEST(test_routing_updates)
{
	struct bm_backend *be = rip_dut();
	json_object *doc, *e, *trials, *t, *o;
	struct rfc2544_params p;
	char want[4];
	unsigned int n = 0;
	size_t i, k;

	thr_params(&p, 512);
	/* §13's set-up is no modifier: it goes with §11.3 */
	p.route_setup = RFC2544_ROUTES_RIP;
	p.route_lead_s = 2;
	p.routing_updates = true;
	p.routing_interval_s = 0.4;
	doc = thr_run_ok(be, &p, "routing-updates");
	e = r2544_check_entry(doc, 0);
	trials = tj_get(doc, "trials");
	for (i = 0; i < json_object_array_length(trials); i++) {
		t = json_object_array_get_idx(trials, i);
		for (k = 0; k < 3; k++)
			want[k] = (char)('A' + (n + k) % 2);
		want[3] = '\0';
		n += 3;
		ck_assert_str_eq(str(t, "routing_ab"), want);
		/* adjacent destinations: no set-up message at all */
		ck_assert(!json_object_object_get_ex(t, "route_setup_sent",
						     NULL));
	}
	o = tj_get(e, "routing");
	ck_assert_double_eq(tj_num(o, "routing_updates_sent"), n);
	ck_assert_str_eq(str(o, "last_state"), (n - 1) % 2 ? "B" : "A");
	ck_assert(tj_has_deviation(doc, "R2544-MOD routing update (§11.3)"));
	json_object_put(doc);
	bm_sim_free(be);
}
END_TEST

START_TEST(test_routing_params)
{
	static const struct r2544_refusal bad[] = {
		{ RFC2544_THROUGHPUT, "{\"route_lead_s\": 3}",
		  "route_lead_s: only with route_setup rip" },
		{ RFC2544_THROUGHPUT, "{\"routing_interval_s\": 3}",
		  "routing_interval_s: only with routing_updates" },
		{ RFC2544_THROUGHPUT, "{\"route_setup\": \"ospf\"}",
		  "route_setup" },
		{ RFC2544_THROUGHPUT, "{\"route_setup\": \"rip\", "
		  "\"random_macs\": 16}", "a bridge has no routes" },
		{ RFC2544_THROUGHPUT, "{\"routing_updates\": true, "
		  "\"topology\": \"mesh\"}", "routing_updates: with a pair" },
		{ RFC2544_THROUGHPUT, "{\"routing_updates\": true, "
		  "\"management\": true}", "one data stream type" },
		{ RFC2544_FRAME_LOSS, "{\"routing_updates\": true, "
		  "\"routing_interval_s\": 0.01}", "routing_interval_s" },
		{ RFC2544_THROUGHPUT, "{\"route_setup\": \"rip\", "
		  "\"route_lead_s\": 301}", "route_lead_s" },
		{ RFC2544_LATENCY, "{\"routing_updates\": true}",
		  "routing_updates" },
	};
	r2544_check_refused(bad, sizeof(bad) / sizeof(bad[0]));
}
END_TEST


/*
 * §17 several protocols (SPEC R2544-MIX): IPv4 and IPv6 test frames 3:1
 * through the egress DUT of E512, which forwards both alike, so the
 * throughput of all frames is the single stream's; each trial sends
 * round(r d 3/4) IPv4 and round(r d / 4) IPv6 frames; the entry's
 * per-protocol counts are the trials' sums and together every frame
 * attempted and received.
 */
START_TEST(test_protocols)
{
	struct bm_backend *be = filter_dut(false);
	json_object *doc, *e, *trials, *t, *a, *v4, *v6;
	uint64_t s4 = 0, s6 = 0, r4 = 0, r6 = 0, att = 0, rcv = 0;
	struct rfc2544_params p;
	double r;
	size_t i;

	thr_params(&p, 512);
	p.protocols[1] = 6;
	p.protocol_weights[0] = 3;
	p.protocol_weights[1] = 1;
	p.n_protocols = 2;
	doc = thr_run_ok(be, &p, "protocols(ipv4:3,ipv6:1)");
	e = r2544_check_entry(doc, 0);
	trials = tj_get(doc, "trials");
	for (i = 0; i < json_object_array_length(trials); i++) {
		t = json_object_array_get_idx(trials, i);
		r = tj_num(t, "rate_fps");
		ck_assert_double_eq(tj_num(t, "ipv4_sent"), llround(r * 0.75));
		ck_assert_double_eq(tj_num(t, "ipv6_sent"), llround(r * 0.25));
		s4 += (uint64_t)tj_num(t, "ipv4_sent");
		s6 += (uint64_t)tj_num(t, "ipv6_sent");
		r4 += (uint64_t)tj_num(t, "ipv4_received");
		r6 += (uint64_t)tj_num(t, "ipv6_received");
		att += (uint64_t)tj_num(t, "attempted");
		rcv += (uint64_t)tj_num(t, "received");
	}
	ck_assert_uint_eq(s4 + s6, att);
	ck_assert_uint_eq(r4 + r6, rcv);
	ck_assert_uint_gt(r6, 0);
	a = tj_get(e, "protocols");
	ck_assert_uint_eq(json_object_array_length(a), 2);
	v4 = json_object_array_get_idx(a, 0);
	v6 = json_object_array_get_idx(a, 1);
	ck_assert_str_eq(str(v4, "protocol"), "ipv4");
	ck_assert_str_eq(str(v6, "protocol"), "ipv6");
	ck_assert_double_eq(tj_num(v4, "weight"), 3);
	ck_assert_double_eq(tj_num(v4, "sent"), s4);
	ck_assert_double_eq(tj_num(v6, "sent"), s6);
	ck_assert_double_eq(tj_num(v4, "received"), r4);
	ck_assert_double_eq(tj_num(v6, "received"), r6);
	ck_assert(tj_has_deviation(doc, "R2544-MIX (§17)"));
	json_object_put(doc);
	bm_sim_free(be);
}
END_TEST

START_TEST(test_protocols_params)
{
	static const struct r2544_refusal bad[] = {
		{ RFC2544_THROUGHPUT, "{\"protocols\": \"ipv5\"}",
		  "protocols: expected ipv4 or ipv6" },
		{ RFC2544_THROUGHPUT, "{\"protocols\": \"ipv4,ipv4\"}",
		  "ipv4 twice" },
		{ RFC2544_THROUGHPUT, "{\"protocols\": \"ipv4:0,ipv6\"}",
		  "weight 0 outside" },
		{ RFC2544_THROUGHPUT, "{\"protocols\": \"ipv4;ipv6\"}",
		  "expected ','" },
		{ RFC2544_THROUGHPUT, "{\"protocols\": \"\"}", "no protocol" },
		{ RFC2544_THROUGHPUT, "{\"protocols\": \"ipv4,ipv6\", "
		  "\"frame_sizes\": [64, 512]}", "too small for IPv6" },
		{ RFC2544_THROUGHPUT, "{\"protocols\": \"ipv4,ipv6\", "
		  "\"imix\": \"classic\"}", "one data stream type" },
		{ RFC2544_THROUGHPUT, "{\"protocols\": \"ipv4,ipv6\", "
		  "\"topology\": \"mesh\"}", "protocols: with a pair only" },
		{ RFC2544_LATENCY, "{\"protocols\": \"ipv4,ipv6\"}",
		  "protocols" },
	};
	r2544_check_refused(bad, sizeof(bad) / sizeof(bad[0]));
}
END_TEST

static Suite *stream_suite(void)
{
	Suite *s = suite_create("rfc2544-stream");
	TCase *tc = tcase_create("stream types");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_bursty_throughput);
	tcase_add_test(tc, test_bursty_generator_spread);
	tcase_add_test(tc, test_bursty_frame_loss);
	tcase_add_test(tc, test_imix_throughput);
	tcase_add_test(tc, test_imix_params);
	tcase_add_test(tc, test_broadcast_throughput);
	tcase_add_test(tc, test_multiport_throughput);
	tcase_add_test(tc, test_multiport_params);
	tcase_add_test(tc, test_filters_throughput);
	tcase_add_test(tc, test_filters_rules_params);
	tcase_add_test(tc, test_management);
	tcase_add_test(tc, test_management_params);
	tcase_add_test(tc, test_random_destinations);
	tcase_add_test(tc, test_random_params);
	tcase_add_test(tc, test_random_macs);
	tcase_add_test(tc, test_route_setup);
	tcase_add_test(tc, test_routing_updates);
	tcase_add_test(tc, test_routing_params);
	tcase_add_test(tc, test_protocols);
	tcase_add_test(tc, test_protocols_params);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tj_run_suite(stream_suite());
}

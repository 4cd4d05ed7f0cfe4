// SPDX-License-Identifier: GPL-2.0
/*
 * TM-MET-SL from synthetic stream results with a hand-computed truth: LP,
 * OOS, PD (min, mean, max), PDV = p99 - min (RFC 5481) and its REQ-TS-5
 * calibration, the bytes each burst got through (BSA), re-marked frames
 * and bytes by DSCP (REQ-RX-5), a burst split into two pieces
 * (REQ-GEN-2.4), a log that holds fewer frames than arrived, and the
 * refusal of results without byte, DSCP or log data; the shaper's trains
 * (AMB-39: SBB first, median, p99, max; SBI median, p1, p99; SR_busy).
 */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check_util.h"
#include "tm_metrics.h"

/* A traffic of n_streams burst streams from port 0 to 1. */
static void mk(struct bm_traffic *t, unsigned int n_streams,
	       struct bm_traffic_result **r)
{
	struct bm_error err = { "" };
	struct bm_stream_spec s;
	unsigned int i;

	bm_traffic_init(t);
	ck_assert_int_ge(bm_traffic_add_port(t, "a", 1e9, &err), 0);
	ck_assert_int_ge(bm_traffic_add_port(t, "b", 1e9, &err), 0);
	for (i = 0; i < n_streams; i++) {
		bm_stream_init(&s, 0, 1, 100);
		s.pattern = BM_STREAM_BURSTS;
		s.log_frames = 1000;
		ck_assert_int_ge(bm_traffic_add_stream(t, &s, &err), 0);
	}
	*r = bm_traffic_result_new(t);
	ck_assert_ptr_nonnull(*r);
}

/* Log frame seq of size (dscp) into stream s's results. */
static void rx(struct bm_stream_result *s, uint64_t seq, uint32_t size,
	       uint8_t dscp)
{
	s->rx_log = realloc(s->rx_log, (s->n_rx_log + 1) * sizeof(*s->rx_log));
	ck_assert_ptr_nonnull(s->rx_log);
	s->rx_log[s->n_rx_log++] = (struct bm_frame_rec){
		.seq = seq, .tx_s = seq * 1e-5, .rx_s = seq * 1e-5 + 1e-5,
		.size = size, .dscp = dscp };
	s->received++;
	s->rx_bytes += size;
	s->rx_dscp[dscp]++;
}

static void latency(struct bm_stream_result *s, uint64_t n, double min,
		    double mean, double p99, double max)
{
	s->latency = (struct bm_latency){ .count = n, .min_ns = min,
					  .mean_ns = mean, .p99_ns = p99,
					  .max_ns = max };
}

/*
 * Three bursts of 64,000 B (42 x 1518 + 244): the first whole, the
 * second without its 244 B frame, the third without its last 1518 and
 * 244 B frames and with its first frame re-marked to DSCP 10.
 */
START_TEST(policer_bursts)
{
	struct bm_error err = { "" };
	struct tm_flow f = { .first = 0, .n = 1, .per_burst = { 43 },
			     .bursts = 3, .dscp = 0 };
	struct bm_traffic_result *r;
	struct tm_flow_metrics m;
	struct bm_stream_result *s;
	struct bm_traffic t;
	uint64_t b, k;

	mk(&t, 1, &r);
	s = &r->streams[0];
	s->sent = 129;
	s->tx_bytes = 3 * 64000;
	for (b = 0; b < 3; b++)
		for (k = 0; k < 43 - b; k++)
			rx(s, b * 43 + k, k == 42 ? 244 : 1518,
			   b == 2 && k == 0 ? 10 : 0);
	s->lost = 3;
	s->reordered = 1;
	latency(s, 126, 10000, 20000, 50000, 60000);
	ck_assert_int_eq(tm_flow_metrics(&t, r, &f, TM_ACCT_L2, &m, &err), 0);
	ck_assert_uint_eq(m.sent, 129);
	ck_assert_uint_eq(m.received, 126);
	ck_assert_uint_eq(m.lost, 3);
	ck_assert_uint_eq(m.reordered, 1);
	ck_assert_double_eq(m.tx_bytes, 192000);
	ck_assert_double_eq(m.rx_bytes, 64000 + 63756 + 62238);
	ck_assert(m.log_complete);
	ck_assert_uint_eq(m.bursts, 3);
	ck_assert_uint_eq(m.bursts_analysed, 3);
	ck_assert_uint_eq(m.bursts_with_loss, 2);
	ck_assert_double_eq(m.egress_min_bytes, 62238);
	ck_assert_double_eq(m.egress_max_bytes, 64000);
	ck_assert_double_eq_tol(m.egress_mean_bytes,
				(64000 + 63756 + 62238) / 3.0, 1e-9);
	ck_assert_uint_eq(m.rx_dscp[0], 125);
	ck_assert_uint_eq(m.rx_dscp[10], 1);
	ck_assert_uint_eq(m.remarked_frames, 1);
	ck_assert_double_eq(m.remarked_bytes, 1518);
	ck_assert_double_eq(m.rx_dscp_bytes[10], 1518);
	ck_assert_double_eq(m.rx_dscp_bytes[0], 64000 + 63756 + 62238 - 1518);
	ck_assert(isnan(m.rx_dscp_bytes[1]) || m.rx_dscp_bytes[1] == 0);
	/* PD and PDV: p99 - min, mean - min */
	ck_assert_double_eq(m.pd_min_ns, 10000);
	ck_assert_double_eq(m.pd_mean_ns, 20000);
	ck_assert_double_eq(m.pd_max_ns, 60000);
	ck_assert_double_eq(m.pdv_ns, 40000);
	ck_assert_double_eq(m.pdv_mean_ns, 10000);

	/* l1 accounting: 20 B more a frame */
	ck_assert_int_eq(tm_flow_metrics(&t, r, &f, TM_ACCT_L1, &m, &err), 0);
	ck_assert_double_eq(m.tx_bytes, 192000 + 129 * 20);
	ck_assert_double_eq(m.egress_max_bytes, 64000 + 43 * 20);
	ck_assert_double_eq(m.egress_min_bytes, 62238 + 41 * 20);

	/* REQ-TS-5: the tester's own 5 us of PD and 50 us of PDV */
	ck_assert_int_eq(tm_flow_metrics(&t, r, &f, TM_ACCT_L2, &m, &err), 0);
	tm_flow_calibrate(&m, 5000, 50000);
	ck_assert_double_eq(m.pd_min_ns, 5000);
	ck_assert_double_eq(m.pd_max_ns, 55000);
	ck_assert_double_eq(m.pdv_ns, 0);		/* never negative */
	ck_assert_double_eq(m.pdv_mean_ns, 0);
	tm_flow_calibrate(&m, 0, 0);
	ck_assert_double_eq(m.pd_min_ns, 5000);
	bm_traffic_result_free(r);
	bm_traffic_free(&t);
}
END_TEST

/* REQ-GEN-2.4 pieces: 41 full frames, then 774 + 774 B; burst 1 lost its
 * very last frame; the PD of the two pieces together */
START_TEST(two_pieces)
{
	struct bm_error err = { "" };
	struct tm_flow f = { .first = 0, .n = 2, .per_burst = { 41, 2 },
			     .bursts = 2, .dscp = 46 };
	struct bm_traffic_result *r;
	struct tm_flow_metrics m;
	struct bm_traffic t;
	double burst = 41 * 1518 + 2 * 774;
	uint64_t b, k;

	mk(&t, 2, &r);
	for (b = 0; b < 2; b++) {
		for (k = 0; k < 41; k++)
			rx(&r->streams[0], b * 41 + k, 1518, 46);
		for (k = 0; k < 2 - b; k++)
			rx(&r->streams[1], b * 2 + k, 774, 46);
	}
	r->streams[0].sent = 82;
	r->streams[0].tx_bytes = 82 * 1518;
	r->streams[1].sent = 4;
	r->streams[1].tx_bytes = 4 * 774;
	r->streams[1].lost = 1;
	latency(&r->streams[0], 82, 1000, 3000, 5000, 6000);
	latency(&r->streams[1], 3, 2000, 4000, 7000, 7000);
	ck_assert_int_eq(tm_flow_metrics(&t, r, &f, TM_ACCT_L2, &m, &err), 0);
	ck_assert_uint_eq(m.lost, 1);
	ck_assert_double_eq(m.tx_bytes, 2 * burst);
	ck_assert_uint_eq(m.bursts_with_loss, 1);
	ck_assert_double_eq(m.egress_max_bytes, burst);
	ck_assert_double_eq(m.egress_min_bytes, burst - 774);
	ck_assert_uint_eq(m.remarked_frames, 0);
	ck_assert_double_eq(m.remarked_bytes, 0);
	ck_assert_uint_eq(m.pd_count, 85);
	ck_assert_double_eq(m.pd_min_ns, 1000);
	ck_assert_double_eq(m.pd_max_ns, 7000);
	ck_assert_double_eq_tol(m.pd_mean_ns, (82 * 3000.0 + 3 * 4000.0) / 85,
				1e-9);
	/* the larger piece p99: an upper bound of the flow's */
	ck_assert_double_eq(m.pdv_ns, 6000);
	/* no piece had a consecutive pair: no IPDV, not 0 */
	ck_assert_uint_eq(m.ipdv_pairs, 0);
	ck_assert(isnan(m.ipdv_mean_ns));
	/* REQ-STAT-3: the pieces' signed IPDV folded: min of the minima,
	 * max of the maxima, the mean weighted by the pairs */
	bm_ipdv_set(&r->streams[0], 81, -2000, 3000, 81 * 100.0);
	bm_ipdv_set(&r->streams[1], 2, -500, 4000, 2 * 1750.0);
	ck_assert_int_eq(tm_flow_metrics(&t, r, &f, TM_ACCT_L2, &m, &err), 0);
	ck_assert_uint_eq(m.ipdv_pairs, 83);
	ck_assert_double_eq(m.ipdv_min_ns, -2000);
	ck_assert_double_eq(m.ipdv_max_ns, 4000);
	ck_assert_double_eq_tol(m.ipdv_mean_ns, (8100.0 + 3500.0) / 83, 1e-9);
	bm_traffic_result_free(r);
	bm_traffic_free(&t);
}
END_TEST

/* A log of the first 100 frames of 3 x 43 received: bursts 0 and 1 are
 * whole in it, burst 2 is not; DSCP bytes are unknown, not 0 */
START_TEST(short_log)
{
	struct bm_error err = { "" };
	struct tm_flow f = { .first = 0, .n = 1, .per_burst = { 43 },
			     .bursts = 3, .dscp = 0 };
	struct bm_traffic_result *r;
	struct tm_flow_metrics m;
	struct bm_traffic t;
	uint64_t k;

	mk(&t, 1, &r);
	for (k = 0; k < 100; k++)
		rx(&r->streams[0], k, 1000, 0);
	r->streams[0].sent = 129;
	r->streams[0].tx_bytes = 129000;
	r->streams[0].received = 129;
	r->streams[0].rx_bytes = 129000;
	r->streams[0].rx_dscp[0] = 129;
	ck_assert_int_eq(tm_flow_metrics(&t, r, &f, TM_ACCT_L2, &m, &err), 0);
	ck_assert(!m.log_complete);
	ck_assert_uint_eq(m.bursts, 3);
	ck_assert_uint_eq(m.bursts_analysed, 2);
	ck_assert_uint_eq(m.bursts_with_loss, 0);
	ck_assert_double_eq(m.egress_min_bytes, 43000);
	ck_assert(isnan(m.rx_dscp_bytes[0]));
	ck_assert(isnan(m.remarked_bytes));
	ck_assert_uint_eq(m.rx_dscp[0], 129);
	/* no latency measured: PD and PDV unknown, not 0 */
	ck_assert(isnan(m.pd_min_ns) && isnan(m.pdv_ns));
	bm_traffic_result_free(r);
	bm_traffic_free(&t);
}
END_TEST

/* A backend without the counters TM metrics need gives no silent zeros */
START_TEST(missing_data)
{
	struct bm_error err = { "" };
	struct tm_flow f = { .first = 0, .n = 1, .per_burst = { 1 },
			     .bursts = 1 };
	struct bm_traffic_result *r;
	struct tm_flow_metrics m;
	struct bm_traffic t;

	mk(&t, 1, &r);
	r->streams[0].sent = 1;
	ck_assert_int_eq(tm_flow_metrics(&t, r, &f, TM_ACCT_L2, &m, &err),
			 -EINVAL);
	ck_assert_str_eq(err.msg, "the backend counted no bytes sent (stream "
			 "0): it lacks the byte counters TM metrics need");
	r->streams[0].tx_bytes = 1518;
	r->streams[0].received = 1;
	r->streams[0].rx_bytes = 1518;
	ck_assert_int_eq(tm_flow_metrics(&t, r, &f, TM_ACCT_L2, &m, &err),
			 -EINVAL);
	ck_assert_str_eq(err.msg, "the backend counted no DSCP of the frames "
			 "received (stream 0, REQ-RX-5)");
	r->streams[0].rx_dscp[0] = 1;
	ck_assert_int_eq(tm_flow_metrics(&t, r, &f, TM_ACCT_L2, &m, &err),
			 -EINVAL);
	ck_assert_str_eq(err.msg, "the backend kept no frame log (stream 0 "
			 "asked for 1000 frames)");
	rx(&r->streams[0], 0, 1518, 0);
	r->streams[0].received = 1;
	ck_assert_int_eq(tm_flow_metrics(&t, r, &f, TM_ACCT_L2, &m, &err), 0);
	bm_traffic_result_free(r);
	bm_traffic_free(&t);
}
END_TEST

/*
 * The delivered rate: two streams of one flow, 101 and 51 frames of 1518
 * B, arriving from 1.0 s to 2.0 s and from 1.5 s to 2.5 s: 150 gaps'
 * worth of bytes (152 frames less the first's) over 1.5 s, l2 (F with
 * FCS) = 151 x 1518 x 8 / 1.5 bit/s - not the bytes over a Td of 1 s,
 * which would count the frames a queue held past Td as rate.  One
 * arrival has no rate to time: tm_flow_tput falls back to bytes / Td.
 * A flow starved until the others stopped, 11 frames from 1.9 to 2.0 s
 * of a 2 s Td, is its bytes over Td (66.8 kbit/s), not the 1.214 Mbit/s
 * of its 0.1 s span: the smaller of the two.
 */
START_TEST(rx_rate)
{
	struct bm_error err = { "" };
	struct tm_flow f = { .first = 0, .n = 2 };
	struct bm_traffic_result *r;
	struct tm_flow_metrics m;
	struct bm_traffic t;
	unsigned int i;

	mk(&t, 2, &r);
	for (i = 0; i < 2; i++) {
		struct bm_stream_result *s = &r->streams[i];

		s->sent = s->received = i ? 51 : 101;
		s->tx_bytes = s->rx_bytes = s->sent * 1518;
		s->rx_dscp[0] = s->received;
		s->first_rx_s = i ? 1.5 : 1.0;
		s->last_rx_s = i ? 2.5 : 2.0;
		t.streams[i].log_frames = 0;
	}
	ck_assert_int_eq(tm_flow_metrics(&t, r, &f, TM_ACCT_L2, &m, &err), 0);
	ck_assert_double_eq_tol(m.rx_rate_bps, 151.0 * 1518 * 8 / 1.5, 1e-6);
	ck_assert_double_eq_tol(tm_flow_tput(&m, 1.0), m.rx_rate_bps, 1e-9);
	f.n = 1;
	r->streams[0].sent = r->streams[0].received = 1;
	r->streams[0].tx_bytes = r->streams[0].rx_bytes = 1518;
	r->streams[0].rx_dscp[0] = 1;
	r->streams[0].last_rx_s = 1.0;
	ck_assert_int_eq(tm_flow_metrics(&t, r, &f, TM_ACCT_L2, &m, &err), 0);
	ck_assert(isnan(m.rx_rate_bps));
	ck_assert_double_eq_tol(tm_flow_tput(&m, 2.0), 1518 * 8 / 2.0, 1e-9);
	r->streams[0].sent = r->streams[0].received = 11;
	r->streams[0].tx_bytes = r->streams[0].rx_bytes = 11 * 1518;
	r->streams[0].rx_dscp[0] = 11;
	r->streams[0].first_rx_s = 1.9;
	r->streams[0].last_rx_s = 2.0;
	ck_assert_int_eq(tm_flow_metrics(&t, r, &f, TM_ACCT_L2, &m, &err), 0);
	ck_assert_double_eq_tol(m.rx_rate_bps, 10.0 * 1518 * 8 / 0.1, 1e-6);
	ck_assert_double_eq_tol(tm_flow_tput(&m, 2.0), 11.0 * 1518 * 8 / 2.0,
				1e-9);
	bm_traffic_result_free(r);
	bm_traffic_free(&t);
}
END_TEST

/*
 * Two flows of one egress that drains at 4 Mbit/s frames of 1250 B (10,000
 * bit, 400 fps), Td 2 s: A's 601 frames arrive from 0.0 to 2.0 s (EF,
 * delivered within Td), B's 280 (starved, then drained) from 1.5 to 2.2
 * s.  The egress delivered 880 gaps' worth over 2.2 s: 4.0 Mbit/s
 * exactly.  Each flow is timed from the egress's first arrival (0.0) to
 * its own last: A 600 gaps over 2.0 s, 3.0 Mbit/s, what it got; B 279
 * over 2.2 s, 1.268 Mbit/s.  Over its own span B read 3.986 Mbit/s (the
 * starved flow), over Td 1.4 (its drained frames as rate), and over the
 * egress's whole window A read 2.729 (the other queue's drain).  They
 * add up to 4.268: A and B are averaged over different times, by A's
 * share (0.75) of the drain (0.2 s) over 2.2 s more than the egress.
 */
START_TEST(egress_window)
{
	struct bm_error err = { "" };
	struct tm_flow fa = { .first = 0, .n = 1 }, fb = { .first = 1, .n = 1 };
	struct tm_egress e = TM_EGRESS_INIT;
	struct bm_traffic_result *r;
	struct tm_flow_metrics a, b;
	struct bm_traffic t;
	unsigned int i;

	mk(&t, 2, &r);
	for (i = 0; i < 2; i++) {
		struct bm_stream_result *s = &r->streams[i];

		s->sent = s->received = i ? 280 : 601;
		s->tx_bytes = s->rx_bytes = s->sent * 1250;
		s->rx_dscp[0] = s->received;
		s->first_rx_s = i ? 1.5 : 0.0;
		s->last_rx_s = i ? 2.2 : 2.0;
		t.streams[i].log_frames = 0;
	}
	ck_assert_int_eq(tm_flow_metrics(&t, r, &fa, TM_ACCT_L2, &a, &err), 0);
	ck_assert_int_eq(tm_flow_metrics(&t, r, &fb, TM_ACCT_L2, &b, &err), 0);
	/* alone, B is the smaller of its span's 3.986 and Td's 1.4 */
	ck_assert_double_eq_tol(tm_flow_tput(&b, 2.0), 1.4e6, 1e-3);
	tm_egress_add(&e, &a);
	tm_egress_add(&e, &b);
	ck_assert_double_eq_tol(tm_egress_tput(&e, 2.0), 4e6, 1e-3);
	ck_assert_double_eq_tol(tm_egress_flow_tput(&e, &a, 2.0), 3e6, 1e-3);
	ck_assert_double_eq_tol(tm_egress_flow_tput(&e, &b, 2.0),
				279e4 / 2.2, 1e-3);
	ck_assert_double_eq_tol(tm_egress_flow_tput(&e, &a, 2.0) +
				tm_egress_flow_tput(&e, &b, 2.0),
				4e6 * (1 + 0.75 * 0.2 / 2.2), 0.01e6);
	/* a window inside Td: the bytes over Td are the smaller */
	ck_assert_double_eq_tol(tm_egress_tput(&e, 3.0), 881 * 1e4 / 3.0,
				1e-3);
	bm_traffic_result_free(r);
	bm_traffic_free(&t);
}
END_TEST

START_TEST(percentiles)
{
	const double x[10] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };

	ck_assert(isnan(tm_percentile(x, 0, 50)));
	ck_assert_double_eq(tm_percentile(x, 10, 50), 5);
	ck_assert_double_eq(tm_percentile(x, 10, 99), 10);
	ck_assert_double_eq(tm_percentile(x, 10, 1), 1);
	ck_assert_double_eq(tm_percentile(x, 10, 10), 1);
	ck_assert_double_eq(tm_percentile(x, 10, 11), 2);
	ck_assert_double_eq(tm_percentile(x, 10, 100), 10);
	ck_assert_double_eq(tm_percentile(x, 1, 99), 1);
}
END_TEST

#define T_WIRE	(1538 * 8e-9)		/* 1518 B at 1 Gbit/s */
#define T_SR	(1518 * 8 / 50e6)	/* one frame at 50 Mbit/s: 242.88 us */

/*
 * A shaper's output on a 1 Gbit/s egress: its bucket's 21 frames back to
 * back, then 100 frames one T_SR apart, given in scrambled order: 101
 * trains, the first 31,878 B, the others one frame; SBI 242.88 us but the
 * first, 20 wire times + T_SR.
 */
START_TEST(trains)
{
	struct tm_arrival a[121];
	struct tm_trains tr;
	size_t i, n = 0;
	double end = 20 * T_WIRE, span;

	for (i = 0; i < 100; i++)
		a[n++] = (struct tm_arrival){ end + (i + 1) * T_SR, 1518, 0 };
	for (i = 0; i < 21; i++)
		a[n++] = (struct tm_arrival){ (20 - i) * T_WIRE, 1518, 0 };
	ck_assert_int_eq(tm_trains_of(a, n, TM_ACCT_L2, 1e9, 0, &tr), 0);
	ck_assert_uint_eq(tr.frames, 121);
	ck_assert_uint_eq(tr.trains, 101);
	ck_assert_double_eq(tr.first_bytes, 21 * 1518);
	ck_assert_double_eq(tr.median_bytes, 1518);
	ck_assert_double_eq(tr.p99_bytes, 1518);
	ck_assert_double_eq(tr.max_bytes, 21 * 1518);
	ck_assert_double_eq_tol(tr.sbi_median_s, T_SR, 1e-12);
	ck_assert_double_eq_tol(tr.sbi_p1_s, T_SR, 1e-12);
	ck_assert_double_eq_tol(tr.sbi_p99_s, T_SR, 1e-12);
	/* SR_busy: 120 frames after the first over the burst's span */
	span = end + 100 * T_SR;
	ck_assert_uint_eq(tr.busy_bursts, 1);
	ck_assert_double_eq_tol(tr.sr_busy_bps, 120 * 1518 * 8 / span, 1e-3);
	/* l1 accounting counts 20 B more a frame */
	ck_assert_int_eq(tm_trains_of(a, n, TM_ACCT_L1, 1e9, 0, &tr), 0);
	ck_assert_double_eq(tr.first_bytes, 21 * 1538);
}
END_TEST

/* AMB-39's margins: 10 % of the wire time, then the ts accuracy */
START_TEST(train_rule)
{
	struct tm_arrival a[3];
	struct tm_trains tr;

	/* 1.09 wire times apart: one train */
	a[0] = (struct tm_arrival){ 0, 1518, 0 };
	a[1] = (struct tm_arrival){ 1.09 * T_WIRE, 1518, 0 };
	ck_assert_int_eq(tm_trains_of(a, 2, TM_ACCT_L2, 1e9, 0, &tr), 0);
	ck_assert_uint_eq(tr.trains, 1);
	ck_assert_double_eq(tr.first_bytes, 3036);
	ck_assert(isnan(tr.sbi_median_s));
	/* 1.2 wire times: two, unless the timestamps are 2 us coarse */
	a[1].rx_s = 1.2 * T_WIRE;
	ck_assert_int_eq(tm_trains_of(a, 2, TM_ACCT_L2, 1e9, 0, &tr), 0);
	ck_assert_uint_eq(tr.trains, 2);
	ck_assert_double_eq_tol(tr.sbi_median_s, 1.2 * T_WIRE, 1e-15);
	ck_assert_int_eq(tm_trains_of(a, 2, TM_ACCT_L2, 1e9, 2e-6, &tr), 0);
	ck_assert_uint_eq(tr.trains, 1);
	/* the wire time is the larger frame's: a 64 B frame then a 1518 B
	 * one, first-bit stamps (the 64 B frame's wire time apart) and
	 * last-bit stamps (the 1518 B frame's) */
	a[0] = (struct tm_arrival){ 0, 64, 0 };
	a[1] = (struct tm_arrival){ T_WIRE, 1518, 0 };
	ck_assert_int_eq(tm_trains_of(a, 2, TM_ACCT_L2, 1e9, 0, &tr), 0);
	ck_assert_uint_eq(tr.trains, 1);
	a[1].rx_s = 1.2 * T_WIRE;
	ck_assert_int_eq(tm_trains_of(a, 2, TM_ACCT_L2, 1e9, 0, &tr), 0);
	ck_assert_uint_eq(tr.trains, 2);
	a[0] = (struct tm_arrival){ 0, 64, 0 };
	a[1] = (struct tm_arrival){ 84 * 8e-9, 1518, 0 };
	a[2] = (struct tm_arrival){ 84 * 8e-9 + 1.05 * T_WIRE, 64, 1 };
	ck_assert_int_eq(tm_trains_of(a, 3, TM_ACCT_L2, 1e9, 0, &tr), 0);
	ck_assert_uint_eq(tr.trains, 1);
	ck_assert_double_eq(tr.first_bytes, 64 + 1518 + 64);
	/* bursts 0 and 1: only burst 0 has two frames */
	ck_assert_uint_eq(tr.busy_bursts, 1);
	ck_assert_double_eq_tol(tr.sr_busy_bps, 1518 * 8 / (84 * 8e-9), 1e-3);
	ck_assert_int_eq(tm_trains_of(a, 0, TM_ACCT_L2, 1e9, 0, &tr), 0);
	ck_assert_uint_eq(tr.trains, 0);
	ck_assert(isnan(tr.first_bytes) && isnan(tr.sr_busy_bps));
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("rfc7640-metrics");
	TCase *tc = tcase_create("metrics");

	tcase_add_test(tc, policer_bursts);
	tcase_add_test(tc, two_pieces);
	tcase_add_test(tc, short_log);
	tcase_add_test(tc, missing_data);
	tcase_add_test(tc, rx_rate);
	tcase_add_test(tc, egress_window);
	tcase_add_test(tc, percentiles);
	tcase_add_test(tc, trains);
	tcase_add_test(tc, train_rule);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tj_run_suite(suite());
}

// SPDX-License-Identifier: GPL-2.0
/*
 * N-port traffic (bm_traffic.h): the builders of REQ-TOPO-1 against their
 * closed-form stream sets (RFC 2544 §16, R8239-BUF-4/AMB-31, R8239-HOLB,
 * R8239-LR-SNAKE), the check's refusals, and the per-port and total sums
 * against a hand-computed example.
 */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_util.h"
#include "bm_traffic.h"
#include "bm_traffic_merge.h"

/* n ports "t0".."t<n-1>" at rate. */
static void mk_ports(struct bm_traffic *t, unsigned int n, double rate)
{
	struct bm_error err = { "" };
	char name[16];
	unsigned int i;

	bm_traffic_init(t);
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "t%u", i);
		ck_assert_msg(bm_traffic_add_port(t, name, rate, &err) ==
			      (int)i, "add_port %s: %s", name, err.msg);
	}
}

static void ck_stream(const struct bm_traffic *t, unsigned int i,
		      unsigned int tx, unsigned int rx, double pct)
{
	const struct bm_stream_spec *s = &t->streams[i];

	ck_assert_msg(s->tx_port == tx && s->rx_port == rx,
		      "stream %u: %u -> %u, expected %u -> %u", i, s->tx_port,
		      s->rx_port, tx, rx);
	ck_assert_int_eq(s->load_unit, BM_LOAD_PCT);
	ck_assert_int_eq(s->pattern, BM_STREAM_CBR);
	ck_assert_double_eq_tol(s->load, pct, 1e-12);
	ck_assert_double_eq(s->start_s, 0);
}

static void ck_check_ok(const struct bm_traffic *t, uint32_t f)
{
	struct bm_error err = { "" };

	ck_assert_msg(bm_traffic_check(t, f, &err) == 0, "check: %s",
		      err.msg);
}

static void ck_check_fails(const struct bm_traffic *t, uint32_t f,
			   const char *frag)
{
	struct bm_error err = { "" };

	ck_assert_int_eq(bm_traffic_check(t, f, &err), -EINVAL);
	ck_assert_msg(strstr(err.msg, frag), "\"%s\" lacks \"%s\"", err.msg,
		      frag);
}

START_TEST(test_default_ip4)
{
	static const uint8_t want[4][4] = {
		{ 198, 18, 1, 2 }, { 198, 19, 1, 2 },
		{ 198, 18, 2, 2 }, { 198, 19, 2, 2 },
	};
	uint8_t ip[4];
	unsigned int i;

	for (i = 0; i < 4; i++) {
		bm_port_default_ip4(i, ip);
		ck_assert_mem_eq(ip, want[i], 4);
	}
	/* The last port there can be: pair 127. */
	bm_port_default_ip4(BM_TRAFFIC_MAX_PORTS - 1, ip);
	ck_assert_mem_eq(ip, ((uint8_t[]){ 198, 19, 128, 2 }), 4);
	/* Pair 254 wraps to pair 0, never to octet 255 or 0. */
	bm_port_default_ip4(508, ip);
	ck_assert_mem_eq(ip, want[0], 4);
	bm_port_default_ip4(511, ip);
	ck_assert_mem_eq(ip, ((uint8_t[]){ 198, 19, 2, 2 }), 4);
}
END_TEST

START_TEST(test_add_port)
{
	static const char n31[] = "abcdefghijklmnopqrstuvwxyz01234";
	static const char n32[] = "abcdefghijklmnopqrstuvwxyz012345";
	struct bm_traffic t;
	struct bm_error err = { "" };
	char name[16];
	unsigned int i;

	bm_traffic_init(&t);
	ck_assert_int_eq(bm_traffic_add_port(&t, "eth1", 10e9, &err), 0);
	ck_assert_int_eq(bm_traffic_add_port(&t, n31, 1e9, &err), 1);
	ck_assert_str_eq(t.ports[0].name, "eth1");
	ck_assert_str_eq(t.ports[0].host, "");
	ck_assert_double_eq(t.ports[0].line_rate_bps, 10e9);
	ck_assert_mem_eq(t.ports[1].ip4, ((uint8_t[]){ 198, 19, 1, 2 }), 4);
	ck_assert(!t.ports[1].have_ip6);
	ck_assert_int_eq(bm_traffic_add_port(&t, n32, 1e9, &err), -EINVAL);
	ck_assert_int_eq(bm_traffic_add_port(&t, "", 1e9, &err), -EINVAL);
	ck_assert_int_eq(bm_traffic_add_port(&t, NULL, 1e9, &err), -EINVAL);
	ck_assert_int_eq(bm_traffic_add_port(&t, "x", 0, &err), -EINVAL);
	ck_assert_int_eq(bm_traffic_add_port(&t, "x", -1e9, &err), -EINVAL);
	ck_assert_int_eq(bm_traffic_add_port(&t, "x", NAN, &err), -EINVAL);
	ck_assert_int_eq(bm_traffic_add_port(&t, "x", INFINITY, &err),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "line rate"));
	ck_assert_int_eq(bm_traffic_add_port(&t, "eth1", 1e9, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "already port 0"));
	ck_assert_uint_eq(t.n_ports, 2);
	for (i = 2; i < BM_TRAFFIC_MAX_PORTS; i++) {
		snprintf(name, sizeof(name), "p%u", i);
		ck_assert_int_eq(bm_traffic_add_port(&t, name, 1e9, &err),
				 (int)i);
	}
	ck_assert_int_eq(bm_traffic_add_port(&t, "one-more", 1e9, &err),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "at most 256 ports"));
	ck_assert_uint_eq(t.n_ports, BM_TRAFFIC_MAX_PORTS);
	bm_traffic_free(&t);
}
END_TEST

START_TEST(test_stream_init)
{
	struct bm_stream_spec s;

	memset(&s, 0xa5, sizeof(s));
	bm_stream_init(&s, 3, 5, 42.5);
	ck_assert_uint_eq(s.tx_port, 3);
	ck_assert_uint_eq(s.rx_port, 5);
	ck_assert_int_eq(s.frame.vlan_id, -1);
	ck_assert_uint_eq(s.frame.ip_version, 4);
	ck_assert(!s.frame.have_dst_mac);
	ck_assert_uint_eq(s.frame.dscp, 0);
	ck_assert_uint_eq(s.frame.udp_src, 0);
	ck_assert_uint_eq(s.frame_size, 0);
	ck_assert(!s.imix);
	ck_assert_int_eq(s.pattern, BM_STREAM_CBR);
	ck_assert_int_eq(s.load_unit, BM_LOAD_PCT);
	ck_assert_double_eq(s.load, 42.5);
	ck_assert_uint_eq(s.count, 0);
	ck_assert_double_eq(s.start_s, 0);
}
END_TEST

START_TEST(test_add_stream_limit)
{
	struct bm_traffic t;
	struct bm_stream_spec s;
	struct bm_error err = { "" };
	unsigned int i;

	mk_ports(&t, 2, 1e9);
	bm_stream_init(&s, 0, 1, 0.001);
	for (i = 0; i < BM_TRAFFIC_MAX_STREAMS; i++) {
		s.count = i;
		ck_assert_int_eq(bm_traffic_add_stream(&t, &s, &err), (int)i);
	}
	ck_assert_uint_le(t.cap_streams, BM_TRAFFIC_MAX_STREAMS);
	ck_assert_uint_eq(t.streams[4711].count, 4711);
	ck_assert_int_eq(bm_traffic_add_stream(&t, &s, &err), -E2BIG);
	ck_assert_ptr_nonnull(strstr(err.msg, "at most 8191"));
	ck_assert_uint_eq(t.n_streams, BM_TRAFFIC_MAX_STREAMS);
	/* A builder that would pass the limit adds nothing. */
	ck_assert_int_eq(bm_topo_pair(&t, 0, 1, false, 1, &err), -E2BIG);
	ck_assert_uint_eq(t.n_streams, BM_TRAFFIC_MAX_STREAMS);
	bm_traffic_free(&t);
	ck_assert_uint_eq(t.n_streams, 0);
	ck_assert_ptr_null(t.streams);
}
END_TEST

START_TEST(test_pair)
{
	struct bm_traffic t;
	struct bm_error err = { "" };

	mk_ports(&t, 3, 1e9);
	ck_assert_int_eq(bm_topo_pair(&t, 2, 0, true, 99.98, &err), 2);
	ck_stream(&t, 0, 2, 0, 99.98);
	ck_stream(&t, 1, 0, 2, 99.98);
	ck_assert_int_eq(bm_topo_pair(&t, 0, 1, false, 50, &err), 1);
	ck_stream(&t, 2, 0, 1, 50);
	ck_assert_int_eq(bm_topo_pair(&t, 1, 1, false, 50, &err), -EINVAL);
	ck_assert_int_eq(bm_topo_pair(&t, 1, 3, false, 50, &err), -EINVAL);
	ck_assert_int_eq(bm_topo_pair(&t, 0, 1, false, 0, &err), -EINVAL);
	ck_assert_int_eq(bm_topo_pair(&t, 0, 1, false, 100.5, &err),
			 -EINVAL);
	ck_assert_int_eq(bm_topo_pair(&t, 0, 1, false, NAN, &err), -EINVAL);
	ck_assert_uint_eq(t.n_streams, 3);
	/* t0 now offers 99.98 + 50 %. */
	ck_check_fails(&t, 512, "port t0: streams offer 149.98 % of its line "
		       "rate");
	bm_traffic_free(&t);
}
END_TEST

/* A pair trial as traffic (bm_traffic_of_pair): the streams every
 * backend runs for RFC 2544 §14's pair topologies, §26.4's burst, the
 * R2544-RECOV step and §26.2's tagged frame. */
START_TEST(test_traffic_of_pair)
{
	const char *names[2] = { "eth1", "eth2" };
	struct bm_error err = { "" };
	struct bm_backend be;
	struct bm_trial_spec sp;
	struct bm_traffic t;
	const struct bm_stream_spec *s;

	memset(&be, 0, sizeof(be));
	be.line_rate_bps = 1e9;
	ck_assert_int_eq(bm_backend_set_ports(&be, 2, names, &err), 0);
	bm_trial_spec_rate(&sp, 64, 1000.4, 2.0);
	sp.pair.tag = true;
	sp.pair.tag_at_s = 1.0;
	ck_assert_int_eq(bm_traffic_of_pair(&sp, &be, &t, &err), 0);
	ck_assert_uint_eq(t.n_ports, 2);
	ck_assert_str_eq(t.ports[0].name, "eth1");
	ck_assert_str_eq(t.ports[1].name, "eth2");
	ck_assert_double_eq(t.ports[1].line_rate_bps, 1e9);
	ck_assert_uint_eq(t.n_streams, 1);
	s = &t.streams[0];
	ck_assert(s->tx_port == 0 && s->rx_port == 1);
	ck_assert_int_eq(s->pattern, BM_STREAM_COUNT);
	ck_assert_int_eq(s->load_unit, BM_LOAD_FPS);
	ck_assert_double_eq(s->load, 1000.4);
	ck_assert_uint_eq(s->count, 2001);	/* llround(2000.8) */
	ck_assert_int_eq(s->tag_seq, 1000);	/* llround(1000.4) */
	ck_check_ok(&t, 64);
	bm_traffic_free(&t);

	/* bidirectional: the same stream back, untagged */
	sp.pair.topology = BM_TOPO_PAIR_BIDIR;
	ck_assert_int_eq(bm_traffic_of_pair(&sp, &be, &t, &err), 0);
	ck_assert_uint_eq(t.n_streams, 2);
	s = &t.streams[1];
	ck_assert(s->tx_port == 1 && s->rx_port == 0);
	ck_assert_uint_eq(s->count, 2001);
	ck_assert_int_eq(s->tag_seq, -1);
	bm_traffic_free(&t);

	/* a load step: the second load from the end of the first */
	sp.pair.topology = BM_TOPO_PAIR_UNI;
	sp.pair.tag = false;
	sp.pair.pattern = BM_PAT_STEP;
	sp.pair.step_rate_fps = 500;
	sp.pair.step_duration_s = 3;
	ck_assert_int_eq(bm_traffic_of_pair(&sp, &be, &t, &err), 0);
	ck_assert_uint_eq(t.n_streams, 2);
	s = &t.streams[1];
	ck_assert(s->tx_port == 0 && s->rx_port == 1);
	ck_assert_double_eq(s->start_s, 2.0);
	ck_assert_uint_eq(s->count, 1500);
	ck_assert_int_eq(t.streams[0].tag_seq, -1);
	bm_traffic_free(&t);

	/* one burst, both ways */
	sp.pair.pattern = BM_PAT_BURST;
	sp.pair.topology = BM_TOPO_PAIR_BIDIR;
	sp.pair.burst_frames = 300;
	ck_assert_int_eq(bm_traffic_of_pair(&sp, &be, &t, &err), 0);
	ck_assert_uint_eq(t.n_streams, 2);
	ck_assert_int_eq(t.streams[0].pattern, BM_STREAM_BURSTS);
	ck_assert_uint_eq(t.streams[0].burst_len, 300);
	ck_assert_uint_eq(t.streams[0].burst_count, 1);
	ck_assert(t.streams[1].tx_port == 1 && t.streams[1].burst_len == 300);
	bm_traffic_free(&t);

	/* above the line: the generator's shortfall, not a bad trial */
	bm_trial_spec_rate(&sp, 64, 2e6, 1.0);
	ck_assert_int_eq(bm_traffic_of_pair(&sp, &be, &t, &err), 0);
	ck_check_ok(&t, 64);
	bm_traffic_free(&t);

	/* no frames, no rate, no step */
	bm_trial_spec_rate(&sp, 64, 0.4, 1.0);
	ck_assert_int_eq(bm_traffic_of_pair(&sp, &be, &t, &err), -EINVAL);
	ck_assert_str_eq(err.msg, "trial of 0 frames (rate 0.400 fps, 1.000 s)");
	ck_assert_uint_eq(t.n_streams, 0);
	bm_trial_spec_rate(&sp, 64, NAN, 1.0);
	ck_assert_int_eq(bm_traffic_of_pair(&sp, &be, &t, &err), -EINVAL);
	bm_trial_spec_rate(&sp, 64, 100, 1.0);
	sp.pair.pattern = BM_PAT_STEP;
	sp.pair.step_rate_fps = 100;
	ck_assert_int_eq(bm_traffic_of_pair(&sp, &be, &t, &err), -EINVAL);
	ck_assert_str_eq(err.msg, "bad step rate 100 fps or duration 0 s");
	sp.pair.step_duration_s = 0.001;
	ck_assert_int_eq(bm_traffic_of_pair(&sp, &be, &t, &err), -EINVAL);
	ck_assert_str_eq(err.msg, "step of 0 frames");
	ck_assert_uint_eq(t.n_streams, 0);
}
END_TEST

/* A mesh of n: port i's k-th stream goes to i+k mod n, each pair once. */
static void ck_mesh(unsigned int n)
{
	struct bm_traffic t;
	struct bm_error err = { "" };
	unsigned char *seen = calloc((size_t)n * n, 1);
	unsigned int i, k, idx = 0;

	ck_assert_ptr_nonnull(seen);
	mk_ports(&t, n, 10e9);
	ck_assert_int_eq(bm_topo_mesh(&t, 100, &err), (int)(n * (n - 1)));
	ck_assert_uint_eq(t.n_streams, n * (n - 1));
	for (i = 0; i < n; i++)
		for (k = 1; k < n; k++)
			ck_stream(&t, idx++, i, (i + k) % n, 100.0 / (n - 1));
	for (i = 0; i < t.n_streams; i++) {
		const struct bm_stream_spec *s = &t.streams[i];

		ck_assert_uint_ne(s->tx_port, s->rx_port);
		ck_assert_uint_eq(seen[s->tx_port * n + s->rx_port]++, 0);
	}
	for (i = 0; i < n; i++)
		for (k = 0; k < n; k++)
			ck_assert_uint_eq(seen[i * n + k], i != k);
	/* n-1 loads of 100/(n-1) % sum to 100 % up to rounding. */
	ck_check_ok(&t, 64);
	free(seen);
	bm_traffic_free(&t);
}

START_TEST(test_mesh_64)
{
	ck_mesh(64);
}
END_TEST

START_TEST(test_mesh_16)
{
	ck_mesh(16);
}
END_TEST

START_TEST(test_mesh_limits)
{
	struct bm_traffic t;
	struct bm_error err = { "" };

	mk_ports(&t, 1, 1e9);
	ck_assert_int_eq(bm_topo_mesh(&t, 100, &err), -EINVAL);
	bm_traffic_free(&t);
	/* 91 * 90 = 8190 streams fit in 8191; 92 * 91 = 8372 do not. */
	mk_ports(&t, 91, 1e9);
	ck_assert_int_eq(bm_topo_mesh(&t, 100, &err), 8190);
	bm_traffic_free(&t);
	mk_ports(&t, 92, 1e9);
	ck_assert_int_eq(bm_topo_mesh(&t, 100, &err), -E2BIG);
	ck_assert_str_eq(err.msg, "mesh: 0 + 8372 streams, at most 8191");
	ck_assert_uint_eq(t.n_streams, 0);
	bm_traffic_free(&t);
}
END_TEST

START_TEST(test_multiport_6)
{
	struct bm_traffic t;
	struct bm_error err = { "" };
	unsigned int i, o, idx = 0;

	mk_ports(&t, 6, 1e9);
	ck_assert_int_eq(bm_topo_multiport(&t, 90, &err), 9);
	/* A, B, C = 0, 1, 2 each to X, Y, Z = 3, 4, 5 in that order, and
	 * round robin in the same phase on every input, so that frames to
	 * one output arrive together (RFC 2544 §16) */
	for (i = 0; i < 3; i++)
		for (o = 3; o < 6; o++) {
			ck_assert_double_eq_tol(t.streams[idx].phase,
						(o - 3) / 3.0, 1e-15);
			ck_stream(&t, idx++, i, o, 30);
		}
	ck_check_ok(&t, 1518);
	/* stream Y of A starts a third of its interval late: 1/(3 fps) */
	ck_assert_double_eq_tol(bm_stream_start_s(&t, &t.streams[1], 1518),
				1 / (3 * bm_stream_fps(&t, &t.streams[1], 1518)),
				1e-15);
	t.streams[1].phase = 1;
	ck_assert_int_eq(bm_traffic_check(&t, 1518, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "phase 1 outside [0, 1)"));
	bm_traffic_free(&t);
	mk_ports(&t, 5, 1e9);
	ck_assert_int_eq(bm_topo_multiport(&t, 90, &err), -EINVAL);
	ck_assert_uint_eq(t.n_streams, 0);
	bm_traffic_free(&t);
}
END_TEST

START_TEST(test_n_minus_j)
{
	struct bm_traffic t;
	struct bm_error err = { "" };
	unsigned int j, i, e, idx;

	for (j = 1; j <= 6; j++) {
		mk_ports(&t, 8, 1e9);
		ck_assert_int_eq(bm_topo_n_minus_j(&t, j, 99.98, &err),
				 (int)((8 - j) * j));
		idx = 0;
		for (i = 0; i < 8 - j; i++)
			for (e = 8 - j; e < 8; e++)
				ck_stream(&t, idx++, i, e, 99.98 / j);
		ck_assert_uint_eq(idx, t.n_streams);
		ck_check_ok(&t, 64);
		bm_traffic_free(&t);
	}
	mk_ports(&t, 8, 1e9);
	ck_assert_int_eq(bm_topo_n_minus_j(&t, 0, 50, &err), -EINVAL);
	ck_assert_int_eq(bm_topo_n_minus_j(&t, 7, 50, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "1..N-2"));
	ck_assert_uint_eq(t.n_streams, 0);
	bm_traffic_free(&t);
}
END_TEST

static void ck_holb(unsigned int n, unsigned int groups, unsigned int s,
		    const unsigned int (*want)[2], unsigned int nwant)
{
	struct bm_traffic t;
	struct bm_error err = { "" };
	unsigned int i;

	mk_ports(&t, n, 1e9);
	ck_assert_int_eq(bm_topo_holb(&t, groups, s, 49.99, 99.98, &err),
			 (int)nwant);
	for (i = 0; i < nwant; i++)
		ck_stream(&t, i, want[i][0], want[i][1],
			  i % 3 == 2 ? 99.98 : 49.99);
	ck_check_ok(&t, 512);
	bm_traffic_free(&t);
}

START_TEST(test_holb)
{
	/* SPEC R8239-HOLB-1, 1-based: iteration 1 is 1->3, 1->4, 2->4;
	 * 5->7, 5->8, 6->8; iteration 2 is 2->4, 2->5, 3->5; 6->8, 6->9,
	 * 7->9 (port 9 = port 1 for N = 8); the last starts at port N
	 * (N->2) and measures 4->6 in the second group. */
	static const unsigned int s0[][2] = {
		{ 0, 2 }, { 0, 3 }, { 1, 3 }, { 4, 6 }, { 4, 7 }, { 5, 7 },
	};
	static const unsigned int s1[][2] = {
		{ 1, 3 }, { 1, 4 }, { 2, 4 }, { 5, 7 }, { 5, 0 }, { 6, 0 },
	};
	static const unsigned int s7[][2] = {
		{ 7, 1 }, { 7, 2 }, { 0, 2 }, { 3, 5 }, { 3, 6 }, { 4, 6 },
	};
	struct bm_traffic t;
	struct bm_error err = { "" };

	ck_holb(8, 0, 0, s0, 6);
	ck_holb(8, 2, 0, s0, 6);
	ck_holb(8, 0, 1, s1, 6);
	ck_holb(8, 0, 7, s7, 6);
	/* One group of an 8-port DUT, leftover ports idle. */
	ck_holb(8, 1, 7, s7, 3);
	/* N = 9: floor(9/4) = 2 groups, port 8 idle at s = 0. */
	ck_holb(9, 0, 0, s0, 6);

	mk_ports(&t, 8, 1e9);
	ck_assert_int_eq(bm_topo_holb(&t, 3, 0, 49.99, 99.98, &err), -EINVAL);
	ck_assert_int_eq(bm_topo_holb(&t, 0, 8, 49.99, 99.98, &err), -EINVAL);
	ck_assert_int_eq(bm_topo_holb(&t, 0, 0, 50.5, 99.98, &err), -EINVAL);
	ck_assert_int_eq(bm_topo_holb(&t, 0, 0, 49.99, 0, &err), -EINVAL);
	ck_assert_uint_eq(t.n_streams, 0);
	bm_traffic_free(&t);
	mk_ports(&t, 3, 1e9);
	ck_assert_int_eq(bm_topo_holb(&t, 0, 0, 49.99, 99.98, &err), -EINVAL);
	bm_traffic_free(&t);
}
END_TEST

START_TEST(test_many_one)
{
	static const unsigned int in[] = { 0, 2, 3 };
	static const unsigned int dup[] = { 0, 2, 0 };
	static const unsigned int self[] = { 0, 1 };
	static const unsigned int far[] = { 0, 4 };
	struct bm_traffic t;
	struct bm_error err = { "" };

	mk_ports(&t, 4, 1e9);
	ck_assert_int_eq(bm_topo_many_to_one(&t, in, 3, 1, 34, &err), 3);
	ck_stream(&t, 0, 0, 1, 34);
	ck_stream(&t, 1, 2, 1, 34);
	ck_stream(&t, 2, 3, 1, 34);
	ck_check_ok(&t, 64);
	ck_assert_int_eq(bm_topo_one_to_many(&t, 1, in, 3, 60, &err), 3);
	ck_stream(&t, 3, 1, 0, 20);
	ck_stream(&t, 4, 1, 2, 20);
	ck_stream(&t, 5, 1, 3, 20);
	ck_check_ok(&t, 64);

	ck_assert_int_eq(bm_topo_many_to_one(&t, dup, 3, 1, 10, &err),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "port 0 twice"));
	ck_assert_int_eq(bm_topo_many_to_one(&t, self, 2, 1, 10, &err),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "both sends and receives"));
	ck_assert_int_eq(bm_topo_many_to_one(&t, far, 2, 1, 10, &err),
			 -EINVAL);
	ck_assert_int_eq(bm_topo_many_to_one(&t, in, 3, 4, 10, &err),
			 -EINVAL);
	ck_assert_int_eq(bm_topo_many_to_one(&t, in, 0, 1, 10, &err),
			 -EINVAL);
	ck_assert_int_eq(bm_topo_one_to_many(&t, 1, dup, 3, 10, &err),
			 -EINVAL);
	ck_assert_int_eq(bm_topo_one_to_many(&t, 0, in, 3, 10, &err),
			 -EINVAL);
	ck_assert_int_eq(bm_topo_one_to_many(&t, 1, far, 2, 10, &err),
			 -EINVAL);
	ck_assert_int_eq(bm_topo_one_to_many(&t, 1, in, 3, 101, &err),
			 -EINVAL);
	ck_assert_uint_eq(t.n_streams, 6);
	bm_traffic_free(&t);
}
END_TEST

START_TEST(test_snake)
{
	struct bm_traffic t;
	struct bm_error err = { "" };

	mk_ports(&t, 2, 1e9);
	ck_assert_int_eq(bm_topo_snake(&t, 6, false, 99.98, &err), 1);
	ck_stream(&t, 0, 0, 1, 99.98);
	ck_assert_int_eq(bm_topo_snake(&t, 5, true, 99.98, &err), -EINVAL);
	ck_assert_int_eq(bm_topo_snake(&t, 2, true, 99.98, &err), -EINVAL);
	ck_assert_uint_eq(t.n_streams, 1);
	bm_traffic_free(&t);
	mk_ports(&t, 2, 1e9);
	ck_assert_int_eq(bm_topo_snake(&t, 4, true, 99.98, &err), 2);
	ck_stream(&t, 0, 0, 1, 99.98);
	ck_stream(&t, 1, 1, 0, 99.98);
	ck_check_ok(&t, 64);
	bm_traffic_free(&t);
	mk_ports(&t, 3, 1e9);
	ck_assert_int_eq(bm_topo_snake(&t, 6, false, 99.98, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "exactly 2"));
	ck_assert_uint_eq(t.n_streams, 0);
	bm_traffic_free(&t);
}
END_TEST

START_TEST(test_snake_plan)
{
	static const char want6[] =
		"DUT ports 1 and 6 to the tester; cable DUT ports 2<->3, "
		"4<->5\n"
		"VLAN 100: DUT ports 1, 2\n"
		"VLAN 101: DUT ports 3, 4\n"
		"VLAN 102: DUT ports 5, 6\n";
	static const char want4[] =
		"DUT ports 1 and 4 to the tester; cable DUT ports 2<->3\n"
		"VLAN 10: DUT ports 1, 2\n"
		"VLAN 11: DUT ports 3, 4\n";
	char buf[256], small[20];

	ck_assert_int_eq(bm_snake_plan(6, 100, buf, sizeof(buf)),
			 (int)strlen(want6));
	ck_assert_str_eq(buf, want6);
	ck_assert_int_eq(bm_snake_plan(4, 10, buf, sizeof(buf)),
			 (int)strlen(want4));
	ck_assert_str_eq(buf, want4);
	/* Like snprintf: the length needed, truncated and terminated. */
	ck_assert_int_eq(bm_snake_plan(6, 100, NULL, 0), (int)strlen(want6));
	ck_assert_int_eq(bm_snake_plan(6, 100, small, sizeof(small)),
			 (int)strlen(want6));
	ck_assert_uint_eq(strlen(small), sizeof(small) - 1);
	ck_assert(!strncmp(small, want6, sizeof(small) - 1));
	ck_assert_int_eq(bm_snake_plan(5, 100, buf, sizeof(buf)), -EINVAL);
	ck_assert_int_eq(bm_snake_plan(2, 100, buf, sizeof(buf)), -EINVAL);
	ck_assert_int_eq(bm_snake_plan(6, 0, buf, sizeof(buf)), -EINVAL);
	/* VLANs 4092..4094 fit, 4093..4095 do not. */
	ck_assert_int_gt(bm_snake_plan(6, 4092, buf, sizeof(buf)), 0);
	ck_assert_int_eq(bm_snake_plan(6, 4093, buf, sizeof(buf)), -EINVAL);
}
END_TEST

START_TEST(test_stream_fps)
{
	struct bm_traffic t;
	struct bm_stream_spec s;

	mk_ports(&t, 2, 10e9);
	bm_stream_init(&s, 0, 1, 100);
	/* 10e9 / ((64 + 20) * 8) */
	ck_assert_double_eq_tol(bm_stream_fps(&t, &s, 64), 14880952.38, 0.01);
	s.frame_size = 64;
	ck_assert_double_eq_tol(bm_stream_fps(&t, &s, 1518), 14880952.38,
				0.01);
	s.frame_size = 0;
	s.load = 50;
	/* 0.5 * 10e9 / (1538 * 8) */
	ck_assert_double_eq_tol(bm_stream_fps(&t, &s, 1518), 406371.911573,
				1e-5);
	/* imix 64, 576, 1500: mean 2140/3 B, 3 * 1e10 / (2200 * 8) */
	t.n_imix = 3;
	t.imix[0] = 64;
	t.imix[1] = 576;
	t.imix[2] = 1500;
	s.imix = true;
	s.load = 100;
	ck_assert_double_eq_tol(bm_stream_fps(&t, &s, 64), 1704545.454545,
				1e-5);
	s.load_unit = BM_LOAD_FPS;
	s.load = 1234.5;
	ck_assert_double_eq(bm_stream_fps(&t, &s, 64), 1234.5);
	bm_traffic_free(&t);
}
END_TEST

START_TEST(test_check_same_port_message)
{
	struct bm_traffic t;
	struct bm_stream_spec s;
	struct bm_error err = { "" };
	unsigned int i;

	mk_ports(&t, 4, 1e9);
	for (i = 0; i < 17; i++) {
		bm_stream_init(&s, i % 4, (i + 1) % 4, 1);
		ck_assert_int_eq(bm_traffic_add_stream(&t, &s, &err), (int)i);
	}
	ck_check_ok(&t, 64);
	bm_stream_init(&s, 3, 3, 1);
	ck_assert_int_eq(bm_traffic_add_stream(&t, &s, &err), 17);
	ck_assert_int_eq(bm_traffic_check(&t, 64, &err), -EINVAL);
	ck_assert_str_eq(err.msg,
			 "stream 17 (t3 -> t3): tx and rx port are the same");
	bm_traffic_free(&t);
}
END_TEST

/* One stream 0 -> 1 at 50 % on two 10 Gbit/s ports, then broken by bad. */
struct bad_case {
	const char *frag;
	uint32_t trial_size;
	void (*bad)(struct bm_traffic *t, struct bm_stream_spec *s);
};

static void bad_vlan(struct bm_traffic *t, struct bm_stream_spec *s)
{
	(void)t;
	s->frame.vlan_id = 4095;
}

static void bad_vlan_neg(struct bm_traffic *t, struct bm_stream_spec *s)
{
	(void)t;
	s->frame.vlan_id = -2;
}

static void bad_dscp(struct bm_traffic *t, struct bm_stream_spec *s)
{
	(void)t;
	s->frame.dscp = 64;
}

static void bad_pcp(struct bm_traffic *t, struct bm_stream_spec *s)
{
	(void)t;
	s->frame.vlan_id = 100;
	s->frame.pcp = 8;
}

static void bad_pcp_untagged(struct bm_traffic *t, struct bm_stream_spec *s)
{
	(void)t;
	s->frame.pcp = 3;
}

static void bad_ipver(struct bm_traffic *t, struct bm_stream_spec *s)
{
	(void)t;
	s->frame.ip_version = 5;
}

static void bad_size63(struct bm_traffic *t, struct bm_stream_spec *s)
{
	(void)t;
	s->frame_size = 63;
}

static void bad_size9217(struct bm_traffic *t, struct bm_stream_spec *s)
{
	(void)t;
	s->frame_size = 9217;
}

static void bad_no_size(struct bm_traffic *t, struct bm_stream_spec *s)
{
	(void)t;
	(void)s;
}

static void bad_imix(struct bm_traffic *t, struct bm_stream_spec *s)
{
	(void)t;
	s->imix = true;
}

static void bad_imix_entry(struct bm_traffic *t, struct bm_stream_spec *s)
{
	s->imix = true;
	t->n_imix = 2;
	t->imix[0] = 64;
	t->imix[1] = 63;
}

static void bad_overload(struct bm_traffic *t, struct bm_stream_spec *s)
{
	struct bm_stream_spec x;

	s->load = 60;
	bm_stream_init(&x, 0, 1, 60);
	ck_assert_int_eq(bm_traffic_add_stream(t, &x, NULL), 1);
}

static void bad_pct0(struct bm_traffic *t, struct bm_stream_spec *s)
{
	(void)t;
	s->load = 0;
}

static void bad_pct101(struct bm_traffic *t, struct bm_stream_spec *s)
{
	(void)t;
	s->load = 100.01;
}

static void bad_fps(struct bm_traffic *t, struct bm_stream_spec *s)
{
	(void)t;
	/* 10e9 / (84 * 8) = 14880952.38 fps at 64 B */
	s->load_unit = BM_LOAD_FPS;
	s->frame_size = 64;
	s->load = 14880953;
}

static void bad_fps_nan(struct bm_traffic *t, struct bm_stream_spec *s)
{
	(void)t;
	s->load_unit = BM_LOAD_FPS;
	s->load = NAN;
}

static void bad_start(struct bm_traffic *t, struct bm_stream_spec *s)
{
	(void)t;
	s->start_s = -0.5;
}

static void bad_start_inf(struct bm_traffic *t, struct bm_stream_spec *s)
{
	(void)t;
	s->start_s = INFINITY;
}

static void bad_count(struct bm_traffic *t, struct bm_stream_spec *s)
{
	(void)t;
	s->pattern = BM_STREAM_COUNT;
}

static void bursts(struct bm_stream_spec *s)
{
	s->pattern = BM_STREAM_BURSTS;
	s->burst_len = 100;
	s->burst_count = 3;
	s->burst_period_s = 0.01;
}

static void bad_burst_len(struct bm_traffic *t, struct bm_stream_spec *s)
{
	(void)t;
	bursts(s);
	s->burst_len = 0;
}

static void bad_burst_count(struct bm_traffic *t, struct bm_stream_spec *s)
{
	(void)t;
	bursts(s);
	s->burst_count = 0;
}

static void bad_burst_period(struct bm_traffic *t, struct bm_stream_spec *s)
{
	(void)t;
	bursts(s);
	s->burst_period_s = 0;
}

static void bad_burst_overlap(struct bm_traffic *t, struct bm_stream_spec *s)
{
	(void)t;
	bursts(s);
	/* 100 frames of 1518 B at 10 Gbit/s take 123.04 us. */
	s->frame_size = 1518;
	s->burst_period_s = 100e-6;
}

static void bad_rx_port(struct bm_traffic *t, struct bm_stream_spec *s)
{
	(void)t;
	s->rx_port = 2;
}

static void bad_pattern(struct bm_traffic *t, struct bm_stream_spec *s)
{
	(void)t;
	s->pattern = (enum bm_stream_pattern)7;
}

static void bad_port_rate(struct bm_traffic *t, struct bm_stream_spec *s)
{
	(void)s;
	t->ports[1].line_rate_bps = 0;
}

static void bad_port_dup(struct bm_traffic *t, struct bm_stream_spec *s)
{
	(void)s;
	strcpy(t->ports[1].name, "t0");
}

/* REQ-ADDR-1: addresses outside the benchmarking networks */
static void bad_dst_ip(struct bm_traffic *t, struct bm_stream_spec *s)
{
	(void)t;
	memcpy(s->frame.dst_ip, (const uint8_t[]){ 10, 0, 0, 1 }, 4);
}

static void bad_port_ip(struct bm_traffic *t, struct bm_stream_spec *s)
{
	(void)s;
	memcpy(t->ports[0].ip4, (const uint8_t[]){ 192, 168, 1, 2 }, 4);
}

static void bad_networks(struct bm_traffic *t, struct bm_stream_spec *s)
{
	(void)t;
	/* 198.19.200.2 + 100 networks of 256 ends in 200.1.44.2 */
	memcpy(s->frame.dst_ip, (const uint8_t[]){ 198, 19, 200, 2 }, 4);
	s->frame.dst_networks = 100;
}

static void bad_tag_dst(struct bm_traffic *t, struct bm_stream_spec *s)
{
	(void)t;
	s->tag_seq = 5;
	memcpy(s->tag_dst_ip4, (const uint8_t[]){ 8, 8, 8, 8 }, 4);
}

static void bad_ip6(struct bm_traffic *t, struct bm_stream_spec *s)
{
	(void)t;
	s->frame.ip_version = 6;
	memcpy(s->frame.dst_ip, (const uint8_t[]){ 0x20, 0x01, 0x0d, 0xb8,
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 }, 16);
}

static const struct bad_case bad_cases[] = {
	{ "stream 0 (t0 -> t1): an IPv4 address outside 198.18.0.0/15",
	  512, bad_dst_ip },
	{ "an IPv4 address outside 198.18.0.0/15", 512, bad_port_ip },
	{ "an IPv4 address outside 198.18.0.0/15", 512, bad_networks },
	{ "an IPv4 address outside 198.18.0.0/15", 512, bad_tag_dst },
	{ "an IPv6 address outside the benchmarking prefix 2001:2::/48", 512,
	  bad_ip6 },
	{ "stream 0 (t0 -> t1): VLAN 4095 outside 0..4094", 512, bad_vlan },
	{ "VLAN -2 outside", 512, bad_vlan_neg },
	{ "stream 0 (t0 -> t1): DSCP 64 outside 0..63", 512, bad_dscp },
	{ "PCP 8 outside 0..7", 512, bad_pcp },
	{ "PCP 3 without a VLAN tag", 512, bad_pcp_untagged },
	{ "IP version 5", 512, bad_ipver },
	{ "frame size 63 outside 64..9216", 512, bad_size63 },
	{ "frame size 9217 outside 64..9216", 512, bad_size9217 },
	{ "trial frame size 63", 63, bad_no_size },
	{ "stream 0 (t0 -> t1): no frame size", 0, bad_no_size },
	{ "stream 0 (t0 -> t1): imix without an imix table", 512, bad_imix },
	{ "imix size 63 (entry 1)", 512, bad_imix_entry },
	{ "port t0: streams offer 120.00 % of its line rate", 512,
	  bad_overload },
	{ "load 0 is not a positive number", 512, bad_pct0 },
	{ "load 100.01 % above 100 %", 512, bad_pct101 },
	{ "14880953.00 fps above the line rate's 14880952.38 fps", 512,
	  bad_fps },
	{ "load nan is not", 512, bad_fps_nan },
	{ "start -0.5 s", 512, bad_start },
	{ "start inf s", 512, bad_start_inf },
	{ "COUNT of 0 frames", 512, bad_count },
	{ "bursts of 0 frames", 512, bad_burst_len },
	{ "0 bursts", 512, bad_burst_count },
	{ "burst period 0 s", 512, bad_burst_period },
	{ "shorter than its burst", 512, bad_burst_overlap },
	{ "stream 0 (t0 -> port 2): rx port 2 does not exist", 512,
	  bad_rx_port },
	{ "unknown pattern 7", 512, bad_pattern },
	{ "port t1: line rate 0", 512, bad_port_rate },
	{ "port 1: t0 is port 0 too", 512, bad_port_dup },
};

START_TEST(test_check_rejects)
{
	const struct bad_case *c = &bad_cases[_i];
	struct bm_traffic t;
	struct bm_stream_spec s;

	mk_ports(&t, 2, 10e9);
	bm_stream_init(&s, 0, 1, 50);
	ck_assert_int_eq(bm_traffic_add_stream(&t, &s, NULL), 0);
	/* Each case must break a traffic the check accepts. */
	ck_check_ok(&t, 512);
	c->bad(&t, &t.streams[0]);
	ck_check_fails(&t, c->trial_size, c->frag);
	bm_traffic_free(&t);
}
END_TEST

/* REQ-ADDR-1's networks: App C's, the limited broadcast, RFC 5180's */
START_TEST(test_check_benchmark_addresses)
{
	struct bm_traffic t;
	struct bm_stream_spec s;

	mk_ports(&t, 2, 10e9);
	bm_stream_init(&s, 0, 1, 50);
	memcpy(s.frame.dst_ip, (const uint8_t[]){ 198, 19, 65, 2 }, 4);
	s.frame.dst_networks = 190;	/* up to 198.19.254.2 */
	ck_assert_int_eq(bm_traffic_add_stream(&t, &s, NULL), 0);
	bm_stream_init(&s, 0, 1, 10);
	memset(s.frame.dst_ip, 0xff, 4);	/* §11.1 broadcast */
	ck_assert_int_eq(bm_traffic_add_stream(&t, &s, NULL), 1);
	bm_stream_init(&s, 1, 0, 10);
	s.frame.ip_version = 6;
	memcpy(s.frame.src_ip, (const uint8_t[]){ 0x20, 0x01, 0, 0x02, 0, 0,
		0, 2, 0, 0, 0, 0, 0, 0, 0, 2 }, 16);
	ck_assert_int_eq(bm_traffic_add_stream(&t, &s, NULL), 2);
	ck_check_ok(&t, 512);
	bm_traffic_free(&t);
}
END_TEST

START_TEST(test_check_accepts)
{
	struct bm_traffic t;
	struct bm_stream_spec s;

	mk_ports(&t, 3, 10e9);
	ck_check_fails(&t, 64, "no streams");
	/* t0 at exactly its line rate in fps, bursts on top (they are not
	 * part of the load sum), an imix stream and a 6-in-4 one. */
	bm_stream_init(&s, 0, 1, 14880952.38);
	s.load_unit = BM_LOAD_FPS;
	s.frame_size = 64;
	ck_assert_int_eq(bm_traffic_add_stream(&t, &s, NULL), 0);
	bm_stream_init(&s, 0, 2, 0);
	bursts(&s);
	s.frame_size = 1518;
	s.start_s = 1.5;
	ck_assert_int_eq(bm_traffic_add_stream(&t, &s, NULL), 1);
	bm_stream_init(&s, 1, 2, 70);
	s.imix = true;
	ck_assert_int_eq(bm_traffic_add_stream(&t, &s, NULL), 2);
	t.n_imix = 3;
	t.imix[0] = 64;
	t.imix[1] = 9216;
	t.imix[2] = 576;
	bm_stream_init(&s, 2, 0, 30);
	s.frame.vlan_id = 4094;
	s.frame.pcp = 7;
	s.frame.dscp = 63;
	s.frame.ip_version = 6;
	s.pattern = BM_STREAM_COUNT;
	s.count = 1;
	ck_assert_int_eq(bm_traffic_add_stream(&t, &s, NULL), 3);
	/* No trial size: every stream names its own or is imix... */
	ck_check_fails(&t, 0, "stream 3 (t2 -> t0): no frame size");
	ck_check_ok(&t, 9216);
	/* ...and 30 % + 71 % from t2 is too much. */
	bm_stream_init(&s, 2, 1, 71);
	ck_assert_int_eq(bm_traffic_add_stream(&t, &s, NULL), 4);
	ck_check_fails(&t, 9216, "port t2: streams offer 101.00 %");
	bm_traffic_free(&t);
}
END_TEST

START_TEST(test_result_new)
{
	struct bm_traffic t;
	struct bm_traffic_result *r;
	struct bm_error err = { "" };
	unsigned int i;

	mk_ports(&t, 5, 1e9);
	ck_assert_int_eq(bm_topo_mesh(&t, 100, &err), 20);
	r = bm_traffic_result_new(&t);
	ck_assert_ptr_nonnull(r);
	ck_assert_uint_eq(r->n_ports, 5);
	ck_assert_uint_eq(r->n_streams, 20);
	for (i = 0; i < 20; i++) {
		const struct bm_stream_result *x = &r->streams[i];

		ck_assert_double_eq(x->first_tx_s, -1);
		ck_assert_double_eq(x->last_tx_s, -1);
		ck_assert_double_eq(x->first_rx_s, -1);
		ck_assert_double_eq(x->last_rx_s, -1);
		ck_assert_uint_eq(x->sent + x->received + x->latency.count, 0);
	}
	for (i = 0; i < 5; i++)
		ck_assert_uint_eq(r->ports[i].tx_frames, 0);
	bm_traffic_result_free(r);
	bm_traffic_free(&t);
	bm_traffic_init(&t);
	r = bm_traffic_result_new(&t);
	ck_assert_ptr_nonnull(r);
	ck_assert_uint_eq(r->n_ports + r->n_streams, 0);
	bm_traffic_result_free(r);
	bm_traffic_result_free(NULL);
}
END_TEST

static void set_lat(struct bm_latency *l, uint64_t n, double mn, double mean,
		    double mx, double sd)
{
	memset(l, 0, sizeof(*l));
	l->count = n;
	l->min_ns = mn;
	l->mean_ns = mean;
	l->max_ns = mx;
	l->stddev_ns = sd;
	l->p50_ns = mean;
	l->p90_ns = mx - 1;
	l->p99_ns = mx;
	l->p999_ns = mx;
}

/*
 * Ports t0, t1 at 1 Gbit/s, t2 at 10 Gbit/s; trial size 512, span 2 s.
 *   s0 t0 -> t1, 512 B (the trial's): sent 1000, received 990, lost 10,
 *      intended 1000, 1 duplicate, 2 reordered, tx 0.1..1.9 s,
 *      rx 0.1001..1.9001 s, latency {10, 20, 30} ns: mean 20, sd 10.
 *   s1 t0 -> t2, 64 B: sent = received = intended = 2000, tx 0.05..1.95 s,
 *      rx 0.0502..1.9502 s, latency {40, 60} ns: mean 50, sd sqrt(200).
 *   s2 t1 -> t2, 1518 B: intended 600, sent 500, received 400, lost 100,
 *      3 reordered, tx 0.2..2.0 s, rx 0.3..2.05 s, no latency samples.
 * Per port (L1 % = (bytes + 20 frames) * 8 / 2 s / rate * 100):
 *   t0 tx 3000 frames, 1000*512 + 2000*64 = 640000 B:
 *      (640000 + 60000) * 4 / 1e9 * 100 = 0.28 %
 *   t1 tx 500, 759000 B: (759000 + 10000) * 4 / 1e9 * 100 = 0.3076 %
 *      rx 990, 506880 B, lost 10: (506880 + 19800) * 4 / 1e7 = 0.210672 %
 *   t2 rx 2400, 2000*64 + 400*1518 = 735200 B, lost 100:
 *      (735200 + 48000) * 4 / 1e10 * 100 = 0.031328 %
 * Totals: intended 3600, attempted 3500, received 3390, lost 110, 1
 * duplicate, 5 reordered, first rx 0.0502, last rx 2.05, duration
 * 2.0 - 0.05 = 1.95 s.  Latency of {10, 20, 30, 40, 60}: count 5, min 10,
 * max 60, mean 32, squares about 32: 484 + 144 + 4 + 64 + 784 = 1480,
 * sample sd sqrt(1480 / 4) = sqrt(370) = 19.235384061671343.
 */
START_TEST(test_result_sum)
{
	struct bm_traffic t;
	struct bm_traffic_result *r;
	struct bm_trial_result sum;
	struct bm_stream_spec s;
	struct bm_stream_result *x;

	mk_ports(&t, 3, 1e9);
	t.ports[2].line_rate_bps = 10e9;
	bm_stream_init(&s, 0, 1, 1);
	ck_assert_int_eq(bm_traffic_add_stream(&t, &s, NULL), 0);
	bm_stream_init(&s, 0, 2, 1);
	s.frame_size = 64;
	ck_assert_int_eq(bm_traffic_add_stream(&t, &s, NULL), 1);
	bm_stream_init(&s, 1, 2, 1);
	s.frame_size = 1518;
	ck_assert_int_eq(bm_traffic_add_stream(&t, &s, NULL), 2);
	r = bm_traffic_result_new(&t);
	ck_assert_ptr_nonnull(r);

	x = &r->streams[0];
	x->intended = 1000;
	x->sent = 1000;
	x->received = 990;
	x->lost = 10;
	x->duplicated = 1;
	x->reordered = 2;
	x->first_tx_s = 0.1;
	x->last_tx_s = 1.9;
	x->first_rx_s = 0.1001;
	x->last_rx_s = 1.9001;
	set_lat(&x->latency, 3, 10, 20, 30, 10);
	x = &r->streams[1];
	x->intended = x->sent = x->received = 2000;
	x->first_tx_s = 0.05;
	x->last_tx_s = 1.95;
	x->first_rx_s = 0.0502;
	x->last_rx_s = 1.9502;
	set_lat(&x->latency, 2, 40, 50, 60, sqrt(200));
	x = &r->streams[2];
	x->intended = 600;
	x->sent = 500;
	x->received = 400;
	x->lost = 100;
	x->reordered = 3;
	x->first_tx_s = 0.2;
	x->last_tx_s = 2.0;
	x->first_rx_s = 0.3;
	x->last_rx_s = 2.05;

	/* Fields the sum does not own must survive it. */
	memset(&sum, 0, sizeof(sum));
	sum.gap_events = 7;
	sum.late = 3;
	sum.max_gap_s = 0.25;
	sum.tag_tx_s = 1.5;
	strcpy(sum.ts_source, "hw");
	r->ports[2].tx_frames = 99;	/* stale: the sum recomputes it */
	bm_traffic_result_sum(&t, 512, r, 2.0, &sum);

	ck_assert_uint_eq(r->ports[0].tx_frames, 3000);
	ck_assert_uint_eq(r->ports[0].tx_bytes, 640000);
	ck_assert_uint_eq(r->ports[0].rx_frames, 0);
	ck_assert_uint_eq(r->ports[0].lost, 0);
	ck_assert_double_eq_tol(r->ports[0].tx_load_pct, 0.28, 1e-12);
	ck_assert_double_eq(r->ports[0].rx_load_pct, 0);
	ck_assert_uint_eq(r->ports[1].tx_frames, 500);
	ck_assert_uint_eq(r->ports[1].tx_bytes, 759000);
	ck_assert_uint_eq(r->ports[1].rx_frames, 990);
	ck_assert_uint_eq(r->ports[1].rx_bytes, 506880);
	ck_assert_uint_eq(r->ports[1].lost, 10);
	ck_assert_double_eq_tol(r->ports[1].tx_load_pct, 0.3076, 1e-12);
	ck_assert_double_eq_tol(r->ports[1].rx_load_pct, 0.210672, 1e-12);
	ck_assert_uint_eq(r->ports[2].tx_frames, 0);
	ck_assert_uint_eq(r->ports[2].rx_frames, 2400);
	ck_assert_uint_eq(r->ports[2].rx_bytes, 735200);
	ck_assert_uint_eq(r->ports[2].lost, 100);
	ck_assert_double_eq_tol(r->ports[2].rx_load_pct, 0.031328, 1e-12);

	ck_assert_uint_eq(sum.intended, 3600);
	ck_assert_uint_eq(sum.attempted, 3500);
	ck_assert_uint_eq(sum.received, 3390);
	ck_assert_uint_eq(sum.lost, 110);
	ck_assert_uint_eq(sum.duplicate, 1);
	ck_assert_uint_eq(sum.reordered, 5);
	ck_assert_double_eq(sum.first_rx_s, 0.0502);
	ck_assert_double_eq(sum.last_rx_s, 2.05);
	ck_assert_double_eq_tol(sum.actual_duration_s, 1.95, 1e-12);
	ck_assert_uint_eq(sum.latency.count, 5);
	ck_assert_double_eq(sum.latency.min_ns, 10);
	ck_assert_double_eq(sum.latency.max_ns, 60);
	ck_assert_double_eq_tol(sum.latency.mean_ns, 32, 1e-12);
	ck_assert_double_eq_tol(sum.latency.stddev_ns, 19.235384061671343,
				1e-9);
	/* Two streams with samples: no percentiles to copy. */
	ck_assert_double_eq(sum.latency.p50_ns, 0);
	ck_assert_double_eq(sum.latency.p999_ns, 0);

	ck_assert_uint_eq(sum.gap_events, 7);
	ck_assert_uint_eq(sum.late, 3);
	ck_assert_double_eq(sum.max_gap_s, 0.25);
	ck_assert_double_eq(sum.tag_tx_s, 1.5);
	ck_assert_str_eq(sum.ts_source, "hw");

	/* With s1's samples gone, s0's percentiles are the trial's. */
	memset(&r->streams[1].latency, 0, sizeof(r->streams[1].latency));
	bm_traffic_result_sum(&t, 512, r, 2.0, &sum);
	ck_assert_uint_eq(sum.latency.count, 3);
	ck_assert_double_eq_tol(sum.latency.stddev_ns, 10, 1e-9);
	ck_assert_double_eq(sum.latency.p50_ns, 20);
	ck_assert_double_eq(sum.latency.p90_ns, 29);
	ck_assert_double_eq(sum.latency.p99_ns, 30);
	/* Sums again, not added to the last ones. */
	ck_assert_uint_eq(r->ports[0].tx_frames, 3000);
	ck_assert_uint_eq(sum.attempted, 3500);
	bm_traffic_result_free(r);
	bm_traffic_free(&t);
}
END_TEST

START_TEST(test_result_sum_nothing)
{
	struct bm_traffic t;
	struct bm_traffic_result *r;
	struct bm_trial_result sum;
	struct bm_stream_spec s;

	mk_ports(&t, 2, 1e9);
	bm_stream_init(&s, 0, 1, 10);
	s.imix = true;
	t.n_imix = 2;
	t.imix[0] = 64;
	t.imix[1] = 1500;
	ck_assert_int_eq(bm_traffic_add_stream(&t, &s, NULL), 0);
	r = bm_traffic_result_new(&t);
	ck_assert_ptr_nonnull(r);
	memset(&sum, 0x5a, sizeof(sum));
	bm_traffic_result_sum(&t, 0, r, 1.0, &sum);
	ck_assert_uint_eq(sum.attempted, 0);
	ck_assert_double_eq(sum.first_rx_s, -1);
	ck_assert_double_eq(sum.last_rx_s, -1);
	ck_assert_double_eq(sum.actual_duration_s, 0);
	ck_assert_uint_eq(sum.latency.count, 0);
	ck_assert_double_eq(sum.latency.stddev_ns, 0);
	/* imix bytes: 3 frames of a 64/1500 cycle = 64 + 1500 + 782 mean. */
	r->streams[0].sent = 3;
	bm_traffic_result_sum(&t, 0, r, 0, &sum);
	ck_assert_uint_eq(r->ports[0].tx_bytes, 64 + 1500 + 782);
	ck_assert_double_eq(r->ports[0].tx_load_pct, 0);
	bm_traffic_result_free(r);
	bm_traffic_free(&t);
}
END_TEST

/* A backend names the job's ports for N-port procedures: all of them, in
 * order, or none (a bad list leaves the backend as it was). */
START_TEST(test_backend_ports)
{
	static const char *const names[] = { "eth0", "eth1", "eth2" };
	struct bm_backend be = { .n_ports = 0 };
	struct bm_error err = { "" };
	const char *bad[3] = { "eth0", "averyveryverylongname", "eth2" };
	const char *many[BM_BACKEND_MAX_PORTS + 1];
	unsigned int i;

	ck_assert_int_eq(bm_backend_set_ports(&be, 3, names, &err), 0);
	ck_assert_uint_eq(be.n_ports, 3);
	for (i = 0; i < 3; i++)
		ck_assert_str_eq(be.port_names[i], names[i]);
	ck_assert_int_eq(bm_backend_set_ports(&be, 3, bad, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "port 1: bad name"));
	ck_assert_uint_eq(be.n_ports, 3);
	ck_assert_str_eq(be.port_names[1], "eth1");
	for (i = 0; i <= BM_BACKEND_MAX_PORTS; i++)
		many[i] = "p";
	ck_assert_int_eq(bm_backend_set_ports(&be, BM_BACKEND_MAX_PORTS + 1,
					      many, &err), -EINVAL);
	ck_assert_str_eq(err.msg, "257 ports: at most 256");
	ck_assert_int_eq(bm_backend_set_ports(&be, 0, NULL, &err), 0);
	ck_assert_uint_eq(be.n_ports, 0);
}
END_TEST

/*
 * Two trials as one (TM-CONC): part A, t0 -> t1, a constant stream of
 * 64 B at 10 % of 1 Gbit/s (148,809.5 fps) for 1 s from 0.25 s; part B,
 * t2 -> t3, a constant 512 B stream for 2 s and a counted one.  Merged:
 * 4 ports once, 3 streams in order with their frame sizes, 2 s; A's stream
 * becomes 111,607 counted frames (0.75 s of it); B's stay as they were.
 * Split: each part's streams and sums, the logs moved.
 */
START_TEST(test_merge_split)
{
	struct bm_traffic a, b, m;
	struct bm_trial_spec sa, sb, sm;
	struct bm_trial_result ra, rb, rm;
	struct bm_traffic_result *tra, *trb, *r;
	struct bm_merge_part parts[2];
	struct bm_stream_spec s;
	struct bm_error err = { "" };

	mk_ports(&a, 2, 1e9);
	bm_stream_init(&s, 0, 1, 10);
	s.start_s = 0.25;
	ck_assert_int_eq(bm_traffic_add_stream(&a, &s, &err), 0);
	bm_traffic_init(&b);
	ck_assert_int_eq(bm_traffic_add_port(&b, "t2", 1e9, &err), 0);
	ck_assert_int_eq(bm_traffic_add_port(&b, "t3", 1e9, &err), 1);
	bm_stream_init(&s, 0, 1, 20);
	ck_assert_int_eq(bm_traffic_add_stream(&b, &s, &err), 0);
	s.pattern = BM_STREAM_COUNT;
	s.count = 7;
	ck_assert_int_eq(bm_traffic_add_stream(&b, &s, &err), 1);
	tra = bm_traffic_result_new(&a);
	trb = bm_traffic_result_new(&b);
	memset(&sa, 0, sizeof(sa));
	sa.frame_size = 64;
	sa.duration_s = 1;
	sa.drain_s = 0.5;
	sa.traffic = &a;
	sa.traffic_res = tra;
	sb = sa;
	sb.frame_size = 512;
	sb.duration_s = 2;
	sb.drain_s = 1;
	sb.learning = true;
	sb.learning_pause_s = 0.2;
	sb.traffic = &b;
	sb.traffic_res = trb;
	memset(&ra, 0, sizeof(ra));
	memset(&rb, 0, sizeof(rb));
	parts[0] = (struct bm_merge_part){ .spec = &sa, .res = &ra };
	parts[1] = (struct bm_merge_part){ .spec = &sb, .res = &rb };
	ck_assert_int_eq(bm_traffic_merge(parts, 2, &m, &sm, &err), 0);
	ck_assert_uint_eq(m.n_ports, 4);
	ck_assert_str_eq(m.ports[2].name, "t2");
	/* the addresses each part's frames had */
	ck_assert_mem_eq(m.ports[2].ip4, b.ports[0].ip4, 4);
	ck_assert_uint_eq(m.n_streams, 3);
	ck_assert_uint_eq(parts[1].first_stream, 1);
	ck_assert_double_eq(sm.duration_s, 2);
	ck_assert_double_eq(sm.drain_s, 1);
	ck_assert(sm.learning);
	ck_assert_double_eq(sm.learning_pause_s, 0.2);
	ck_assert_ptr_eq(sm.traffic, &m);
	ck_assert_int_eq(m.streams[0].pattern, BM_STREAM_COUNT);
	ck_assert_uint_eq(m.streams[0].count,
			  (uint64_t)llround(1e8 / 672 * 0.75));
	ck_assert_uint_eq(m.streams[0].frame_size, 64);
	ck_assert_int_eq(m.streams[1].pattern, BM_STREAM_CBR);
	ck_assert_uint_eq(m.streams[1].frame_size, 512);
	ck_assert_uint_eq(m.streams[2].tx_port, 2);
	ck_assert_uint_eq(m.streams[2].rx_port, 3);

	/* the merged trial's results, by hand */
	r = bm_traffic_result_new(&m);
	memset(&rm, 0, sizeof(rm));
	snprintf(rm.ts_source, sizeof(rm.ts_source), "sw");
	rm.tx_late_frames = 3;
	r->streams[0] = (struct bm_stream_result){ .intended = 100,
		.sent = 100, .received = 98, .lost = 2, .first_tx_s = 0.25,
		.last_tx_s = 1.0, .tx_late_max_s = 0.002 };
	r->streams[0].tx_log_s = malloc(sizeof(double));
	r->streams[0].n_tx_log = 1;
	r->streams[1] = (struct bm_stream_result){ .intended = 50,
		.sent = 40, .received = 40, .first_tx_s = 0, .last_tx_s = 2 };
	r->streams[2] = (struct bm_stream_result){ .intended = 7, .sent = 7,
		.received = 7 };
	ck_assert_int_eq(bm_traffic_split(parts, 2, r, &rm), 0);
	ck_assert_uint_eq(ra.attempted, 100);
	ck_assert_uint_eq(ra.lost, 2);
	ck_assert_double_eq(ra.tx_late_max_s, 0.002);
	ck_assert_uint_eq(ra.tx_late_frames, 3);
	ck_assert_str_eq(ra.ts_source, "sw");
	ck_assert(!ra.generator_limited);
	ck_assert_ptr_nonnull(tra->streams[0].tx_log_s);
	ck_assert_ptr_null(r->streams[0].tx_log_s);
	ck_assert_uint_eq(rb.intended, 57);
	ck_assert_uint_eq(rb.received, 47);
	ck_assert(rb.generator_limited);
	ck_assert_uint_eq(rb.shortfall, 10);
	ck_assert_uint_eq(trb->streams[1].intended, 7);
	ck_assert_uint_eq(trb->ports[1].rx_frames, 47);
	bm_traffic_result_free(r);
	bm_traffic_result_free(tra);
	bm_traffic_result_free(trb);
	bm_traffic_free(&m);
	bm_traffic_free(&a);
	bm_traffic_free(&b);
}
END_TEST

/* What cannot run beside another: no traffic, a tag, other IMIX tables. */
START_TEST(test_merge_refuses)
{
	struct bm_traffic a, b, m;
	struct bm_trial_spec sa, sb, sm;
	struct bm_merge_part parts[2];
	struct bm_stream_spec s;
	struct bm_error err = { "" };

	mk_ports(&a, 2, 1e9);
	bm_traffic_init(&b);
	bm_traffic_add_port(&b, "u0", 1e9, &err);
	bm_traffic_add_port(&b, "u1", 1e9, &err);
	bm_stream_init(&s, 0, 1, 10);
	s.imix = true;
	bm_traffic_add_stream(&a, &s, &err);
	bm_traffic_add_stream(&b, &s, &err);
	a.n_imix = b.n_imix = 2;
	a.imix[0] = b.imix[0] = 64;
	a.imix[1] = 1518;
	b.imix[1] = 512;
	memset(&sa, 0, sizeof(sa));
	sa.frame_size = 64;
	sa.duration_s = 1;
	sa.traffic = &a;
	sb = sa;
	sb.traffic = &b;
	parts[0] = (struct bm_merge_part){ .spec = &sa };
	parts[1] = (struct bm_merge_part){ .spec = &sb };
	ck_assert_int_eq(bm_traffic_merge(parts, 2, &m, &sm, &err), -EINVAL);
	ck_assert_str_eq(err.msg, "part 2: its IMIX is not the other parts'");
	bm_traffic_free(&m);
	b.imix[1] = 1518;
	ck_assert_int_eq(bm_traffic_merge(parts, 2, &m, &sm, &err), 0);
	ck_assert_uint_eq(m.n_imix, 2);
	bm_traffic_free(&m);
	sb.pair.tag = true;
	ck_assert_int_eq(bm_traffic_merge(parts, 2, &m, &sm, &err), -EINVAL);
	ck_assert_str_eq(err.msg, "part 2: a tagged frame or an event cannot "
			 "run beside others");
	bm_traffic_free(&m);
	sb.pair.tag = false;
	sb.traffic = NULL;
	ck_assert_int_eq(bm_traffic_merge(parts, 2, &m, &sm, &err), -EINVAL);
	ck_assert_str_eq(err.msg, "part 2: a trial without N-port traffic "
			 "cannot run beside others");
	bm_traffic_free(&m);
	bm_traffic_free(&a);
	bm_traffic_free(&b);
}
END_TEST

static Suite *traffic_suite(void)
{
	Suite *s = suite_create("traffic");
	TCase *tc = tcase_create("spec");

	tcase_add_test(tc, test_default_ip4);
	tcase_add_test(tc, test_traffic_of_pair);
	tcase_add_test(tc, test_add_port);
	tcase_add_test(tc, test_stream_init);
	tcase_add_test(tc, test_add_stream_limit);
	tcase_add_test(tc, test_stream_fps);
	suite_add_tcase(s, tc);
	tc = tcase_create("builders");
	tcase_add_test(tc, test_pair);
	tcase_add_test(tc, test_mesh_64);
	tcase_add_test(tc, test_mesh_16);
	tcase_add_test(tc, test_mesh_limits);
	tcase_add_test(tc, test_multiport_6);
	tcase_add_test(tc, test_n_minus_j);
	tcase_add_test(tc, test_holb);
	tcase_add_test(tc, test_many_one);
	tcase_add_test(tc, test_snake);
	tcase_add_test(tc, test_snake_plan);
	suite_add_tcase(s, tc);
	tc = tcase_create("check");
	tcase_add_test(tc, test_check_same_port_message);
	tcase_add_loop_test(tc, test_check_rejects, 0,
			    sizeof(bad_cases) / sizeof(bad_cases[0]));
	tcase_add_test(tc, test_check_accepts);
	tcase_add_test(tc, test_check_benchmark_addresses);
	suite_add_tcase(s, tc);
	tc = tcase_create("results");
	tcase_add_test(tc, test_result_new);
	tcase_add_test(tc, test_result_sum);
	tcase_add_test(tc, test_result_sum_nothing);
	tcase_add_test(tc, test_merge_split);
	tcase_add_test(tc, test_merge_refuses);
	suite_add_tcase(s, tc);
	tc = tcase_create("backend");
	tcase_add_test(tc, test_backend_ports);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tj_run_suite(traffic_suite());
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The reference models of SPEC 5.3 (bm_tm_model.h) against the SPEC's own
 * worked numbers: MODEL-TB's closed form (46 frames at 1 GbE spacing, 42
 * as tau -> 0), the same by replaying the frames through the bucket, the
 * exact 64,000 B burst of TM-BURST-HUNT, DUT-POL2's counter-example (244 B
 * stranded in each bucket) and its frame-aligned case, and MODEL-TBF: its
 * closed form against the per-frame model over a grid of set-ups, the
 * TM-QS-1 (b) hunt (22 frames, "about 33 KB"), departures and drops.
 *
 * Unless a test says otherwise: CIR 100 Mbit/s (rho = 12.5e6 B/s),
 * b = 64,000 B, frames of A = 1518 B (l2 accounting, overhead 4).
 */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "bm_tm_model.h"
#include "check_util.h"

#define CIR	100e6
#define RHO	(CIR / 8)
#define CBS	64000.0
#define A	1518.0
#define TAU_1G	12.304e-6		/* (1518 + 20) * 8 ns at 1 Gbit/s */

/* MODEL-TB closed form, SPEC 5.3's example: 46 frames (69,828 B) at 1 GbE
 * spacing, 42 (63,756 B, the draft's "63 KB") as tau -> 0; 0 when the
 * frame is larger than the bucket; unbounded when the refill keeps up. */
START_TEST(tb_closed_form)
{
	ck_assert_uint_eq(bm_tb_burst_max(CBS, A, RHO, TAU_1G), 46);
	ck_assert_uint_eq(46 * 1518, 69828);
	ck_assert_uint_eq(bm_tb_burst_max(CBS, A, RHO, 0), 42);
	ck_assert_uint_eq(42 * 1518, 63756);
	ck_assert_uint_eq(bm_tb_burst_max(1000, A, RHO, 0), 0);
	ck_assert_uint_eq(bm_tb_burst_max(CBS, A, RHO, 1e-3), UINT64_MAX);
	/* an exact multiple: 10 frames of 1000 B into 10,000 B */
	ck_assert_uint_eq(bm_tb_burst_max(10000, 1000, RHO, 0), 10);
}
END_TEST

/* The first frame of an evenly spaced burst that exceeds, by replay. */
static unsigned int first_exceed(double tau, unsigned int n)
{
	struct bm_tb tb;
	unsigned int k;

	bm_tb_init(&tb, CIR, CBS);
	for (k = 0; k < n; k++)
		if (!bm_tb_offer(&tb, k * tau, A))
			return k;
	return n;
}

/* Replaying the frames agrees with the closed form: frame 46 (0-based) is
 * the first to exceed at 1 GbE spacing, frame 42 at tau = 0; an exceeding
 * frame leaves the bucket as it was (act_police). */
START_TEST(tb_replay)
{
	struct bm_tb tb;
	double before;
	unsigned int k;

	ck_assert_uint_eq(first_exceed(TAU_1G, 60), 46);
	ck_assert_uint_eq(first_exceed(0, 60), 42);
	bm_tb_init(&tb, CIR, CBS);
	for (k = 0; k < 42; k++)
		ck_assert(bm_tb_offer(&tb, 0, A));
	ck_assert_double_eq_tol(tb.tokens, 244, 1e-9);
	before = tb.tokens;
	ck_assert(!bm_tb_offer(&tb, 0, A));
	ck_assert_double_eq(tb.tokens, before);
	ck_assert_double_eq(tb.t_c, 0);
	/* 1 ms later 12,500 B have come back; never more than b */
	ck_assert_double_eq_tol(bm_tb_tokens(&tb, 1e-3), 12744, 1e-6);
	ck_assert_double_eq(bm_tb_tokens(&tb, 10), CBS);
}
END_TEST

/* TM-BURST-HUNT exact mode at tau -> 0: 64,000 B (42 x 1518 + 244) passes
 * whole and empties the bucket; 65,000 B (42 x 1518 + 1,244) loses its
 * last frame, which leaves 244 B behind. */
START_TEST(tb_exact_bursts)
{
	struct bm_tb tb;
	unsigned int k;

	bm_tb_init(&tb, CIR, CBS);
	for (k = 0; k < 42; k++)
		ck_assert(bm_tb_offer(&tb, 0, A));
	ck_assert(bm_tb_offer(&tb, 0, 244));
	ck_assert_double_eq_tol(tb.tokens, 0, 1e-9);

	bm_tb_init(&tb, CIR, CBS);
	for (k = 0; k < 42; k++)
		ck_assert(bm_tb_offer(&tb, 0, A));
	ck_assert(!bm_tb_offer(&tb, 0, 1244));
	ck_assert_double_eq_tol(tb.tokens, 244, 1e-9);
	/* Ti = 5.12 ms later the bucket is full again (64,000 B at 100
	 * Mbit/s): the next burst finds the same state */
	ck_assert_double_eq_tol(bm_tb_tokens(&tb, 5.12e-3), CBS, 1e-9);
}
END_TEST

/* Offer n frames of A and one of last (0: none) at t; count colours. */
static void tb2_burst(struct bm_tb2 *m, double t, unsigned int n, double last,
		      unsigned int c[3])
{
	unsigned int k;

	for (k = 0; k < n; k++)
		c[bm_tb2_offer(m, t, A)]++;
	if (last > 0)
		c[bm_tb2_offer(m, t, last)]++;
}

/*
 * DUT-POL2, TM-POL-1 (c).  Counter-example: CBS = EBS = 64,000, a 128,000 B
 * exact burst is 84 x 1518 + 488: C takes 42 frames and strands 244 B, E
 * takes the next 42 and strands 244 B, and the 488 B frame finds 244 B in
 * each: red, one frame lost per burst.  Frame-aligned buckets of 63,756 B
 * (42 x 1518): 84 frames are 42 green + 42 yellow, and a 1,000 B frame on
 * top is red; Ti = 5.10 ms x 1.015 later both are full again.
 */
START_TEST(tb2_colours)
{
	unsigned int c[3] = { 0 };
	struct bm_tb2 m;

	ck_assert_uint_eq(84 * 1518 + 488, 128000);
	bm_tb2_init(&m, CIR, CBS, CIR, CBS);
	tb2_burst(&m, 0, 84, 488, c);
	ck_assert_uint_eq(c[BM_GREEN], 42);
	ck_assert_uint_eq(c[BM_YELLOW], 42);
	ck_assert_uint_eq(c[BM_RED], 1);
	ck_assert_double_eq_tol(m.c.tokens, 244, 1e-9);
	ck_assert_double_eq_tol(m.e.tokens, 244, 1e-9);

	bm_tb2_init(&m, CIR, 63756, CIR, 63756);
	c[0] = c[1] = c[2] = 0;
	tb2_burst(&m, 0, 84, 0, c);
	ck_assert_uint_eq(c[BM_GREEN], 42);
	ck_assert_uint_eq(c[BM_YELLOW], 42);
	ck_assert_uint_eq(c[BM_RED], 0);
	ck_assert_int_eq(bm_tb2_offer(&m, 0, 1000), BM_RED);
	c[0] = c[1] = c[2] = 0;
	tb2_burst(&m, 5.10e-3 * 1.015, 84, 1000, c);
	ck_assert_uint_eq(c[BM_GREEN], 42);
	ck_assert_uint_eq(c[BM_YELLOW], 42);
	ck_assert_uint_eq(c[BM_RED], 1);
}
END_TEST

/*
 * RFC 4115 colour-aware, CBS = EBS = 64,000: the counter-example's
 * 128,000 B burst sent as its CBS part green (42 x 1518 + 244) and its
 * EBS part pre-marked yellow (the same) loses nothing: the 244 B frames
 * fill each bucket exactly.  A yellow frame never takes C: 43 yellow
 * frames into full buckets are 42 yellow and 1 red although C is full,
 * where the colour-blind marker makes the first 42 green.
 */
START_TEST(tb2_colour_aware)
{
	unsigned int c[3] = { 0 }, k, part;
	struct bm_tb2 m;

	bm_tb2_init(&m, CIR, CBS, CIR, CBS);
	for (part = 0; part < 2; part++) {
		for (k = 0; k < 42; k++)
			c[bm_tb2_offer_aware(&m, 0, A, part)]++;
		c[bm_tb2_offer_aware(&m, 0, 244, part)]++;
	}
	ck_assert_uint_eq(c[BM_GREEN], 43);
	ck_assert_uint_eq(c[BM_YELLOW], 43);
	ck_assert_uint_eq(c[BM_RED], 0);
	ck_assert_double_eq_tol(m.c.tokens, 0, 1e-9);
	ck_assert_double_eq_tol(m.e.tokens, 0, 1e-9);

	bm_tb2_init(&m, CIR, CBS, CIR, CBS);
	c[0] = c[1] = c[2] = 0;
	for (k = 0; k < 43; k++)
		c[bm_tb2_offer_aware(&m, 0, A, true)]++;
	ck_assert_uint_eq(c[BM_YELLOW], 42);
	ck_assert_uint_eq(c[BM_RED], 1);
	ck_assert_double_eq_tol(m.c.tokens, CBS, 1e-9);
	/* a green frame still takes C first */
	ck_assert_int_eq(bm_tb2_offer_aware(&m, 0, A, false), BM_GREEN);
}
END_TEST

/* A burst of n frames of A at spacing tau through MODEL-TBF: dropped. */
static long tbf_burst(const struct bm_tbf_cfg *c, unsigned int n, double tau,
		      double a, struct bm_tbf_frame *f)
{
	unsigned int k;

	for (k = 0; k < n; k++) {
		f[k].t_s = k * tau;
		f[k].a_bytes = a;
		f[k].q_bytes = (uint32_t)a - 4;	/* F - 4 with A = F */
		f[k].wire_bytes = (uint32_t)a + 20;
	}
	return bm_tbf_run(c, f, n);
}

/*
 * MODEL-TBF: the closed form n <= Q + floor((b + rho*(n-1)*tau)/A) against
 * the per-frame model, for rate 10/50/100 Mbit/s x b 1,600 / 3,028 /
 * 32,000 x Q 0/5/100 x tau 0 / 1 GbE / 100 Mbit/s spacing (81 set-ups):
 * the burst of n* frames loses nothing, n* + 1 loses exactly one (in the 9
 * where the refill keeps up, n* is unbounded and 1,999 frames pass).
 */
START_TEST(tbf_closed_form_grid)
{
	static const double rates[] = { 10e6, 50e6, 100e6 };
	static const double bs[] = { 1600, 3028, 32000 };
	static const uint64_t qs[] = { 0, 5, 100 };
	static const double taus[] = { 0, TAU_1G, 10 * TAU_1G };
	struct bm_tbf_frame *f = calloc(2000, sizeof(*f));
	unsigned int ir, ib, iq, it, n_setups = 0, n_finite = 0;
	struct bm_tbf_cfg c = { 0 };
	uint64_t n;

	ck_assert_ptr_nonnull(f);
	for (ir = 0; ir < 3; ir++)
	for (ib = 0; ib < 3; ib++)
	for (iq = 0; iq < 3; iq++)
	for (it = 0; it < 3; it++) {
		c.rate_bps = rates[ir];
		c.bucket_bytes = bs[ib];
		c.limit_frames = qs[iq];
		n = bm_tbf_burst_max(bs[ib], A, rates[ir] / 8, taus[it],
				     qs[iq]);
		n_setups++;
		if (rates[ir] / 8 * taus[it] >= A) {
			/* 100 Mbit/s of A = F against a line that carries
			 * F + 20: the bucket keeps up, nothing is lost */
			ck_assert_uint_eq(n, UINT64_MAX);
			ck_assert_int_eq(tbf_burst(&c, 1999, taus[it], A, f),
					 0);
			continue;
		}
		ck_assert_msg(n >= 1 && n < 1999, "n* = %llu",
			      (unsigned long long)n);
		ck_assert_int_eq(tbf_burst(&c, (unsigned int)n, taus[it], A,
					   f), 0);
		ck_assert_msg(tbf_burst(&c, (unsigned int)n + 1, taus[it], A,
					f) == 1,
			      "rate %g b %g Q %llu tau %g: n* = %llu",
			      rates[ir], bs[ib], (unsigned long long)qs[iq],
			      taus[it], (unsigned long long)n);
		n_finite++;
	}
	ck_assert_uint_eq(n_setups, 81);
	ck_assert_uint_eq(n_finite, 72);
	free(f);
}
END_TEST

/*
 * TM-QS-1 (b), DUT-TBFB(100 Mbit/s, b = 1600, L = 32,000, o = 4) on LAB-V
 * (tau -> 0): bfifo counts F - 4 = 1514 B, Q = floor(32000/1514) = 21,
 * n* = 21 + floor(1600/1518) = 22 frames = 33,396 B ("about 33 KB"); the
 * byte limit itself gives the same in the per-frame model.
 */
START_TEST(tbf_bfifo)
{
	struct bm_tbf_cfg c = { 100e6, 1600, UINT64_MAX, 32000, 0 };
	struct bm_tbf_frame f[40];

	ck_assert_uint_eq(bm_tbf_burst_max(1600, A, 12.5e6, 0, 32000 / 1514),
			  22);
	ck_assert_int_eq(tbf_burst(&c, 22, 0, A, f), 0);
	ck_assert_int_eq(tbf_burst(&c, 23, 0, A, f), 1);
	ck_assert(f[22].dep_s < 0);
	/* the 22nd frame left last: 21 x 1518 B after the first, at the rate */
	ck_assert_double_eq_tol(f[21].dep_s, (21 * 1518 - 82) * 8 / 100e6,
				1e-12);
}
END_TEST

/*
 * Departures: tbf 50 Mbit/s, b = 32,000 (TM-SHP-1), 60 frames at once.
 * Without a line, floor(32000/1518) = 21 leave at 0; the 22nd waits for
 * 1518 - 122 = 1,396 B (223.36 us), each later one for 242.88 us.  With a
 * 1 Gbit/s line the bucket's train leaves one frame per 12.304 us and
 * refills meanwhile.  A frame larger than the bucket is dropped; bad
 * set-ups and arrivals out of order are refused.
 */
START_TEST(tbf_departures)
{
	struct bm_tbf_cfg c = { 50e6, 32000, UINT64_MAX, 0, 0 };
	struct bm_tbf_frame f[60], g[2];
	unsigned int k;

	ck_assert_int_eq(tbf_burst(&c, 60, 0, A, f), 0);
	for (k = 0; k < 21; k++)
		ck_assert_double_eq(f[k].dep_s, 0);
	ck_assert_double_eq_tol(f[21].dep_s, 223.36e-6, 1e-12);
	for (k = 22; k < 60; k++)
		ck_assert_double_eq_tol(f[k].dep_s - f[k - 1].dep_s,
					242.88e-6, 1e-12);
	c.line_bps = 1e9;
	ck_assert_int_eq(tbf_burst(&c, 60, 0, A, f), 0);
	for (k = 1; k < 21; k++)
		ck_assert_double_eq_tol(f[k].dep_s - f[k - 1].dep_s, TAU_1G,
					1e-12);
	/* by then 21 x 12.304 us refilled 1,615 B: the 22nd goes on time */
	ck_assert_double_eq_tol(f[21].dep_s, 21 * TAU_1G, 1e-12);

	c.bucket_bytes = 1500;
	ck_assert_int_eq(tbf_burst(&c, 3, 1e-3, A, f), 3);
	ck_assert(f[0].dep_s < 0);
	c.bucket_bytes = 0;
	ck_assert_int_eq(tbf_burst(&c, 1, 0, A, f), -EINVAL);
	c.bucket_bytes = 32000;
	g[0] = (struct bm_tbf_frame){ 1.0, A, 1514, 1538, 0 };
	g[1] = (struct bm_tbf_frame){ 0.5, A, 1514, 1538, 0 };
	ck_assert_int_eq(bm_tbf_run(&c, g, 2), -EINVAL);
	ck_assert_int_eq(bm_tbf_run(&c, g, 0), 0);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("tm_model");
	TCase *tc = tcase_create("models");

	tcase_add_test(tc, tb_closed_form);
	tcase_add_test(tc, tb_replay);
	tcase_add_test(tc, tb_exact_bursts);
	tcase_add_test(tc, tb2_colours);
	tcase_add_test(tc, tb2_colour_aware);
	tcase_add_test(tc, tbf_closed_form_grid);
	tcase_add_test(tc, tbf_bfifo);
	tcase_add_test(tc, tbf_departures);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tj_run_suite(suite());
}

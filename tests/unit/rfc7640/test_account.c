// SPDX-License-Identifier: GPL-2.0
/*
 * Byte accounting and byte-exact bursts (SPEC §2.2 REQ-UNIT-1, REQ-GEN-2.4,
 * AMB-07) with the SPEC's numbers: 64,000 B exact = 42 x 1518 + 244;
 * whole = 43 frames = 65,274 B; 65,000 = 42 x 1518 + 1,244; 63,000 whole =
 * 42 frames = 63,756 B (TM-BURST-HUNT acceptance).  Every plan's frames
 * add up to its actual bytes, and a remainder under 64 B is resized into
 * the last two frames (or one, for F < 128) without changing the total.
 */
#include <check.h>
#include <errno.h>
#include <string.h>

#include "check_util.h"
#include "rfc7640.h"

static struct tm_burst plan(uint64_t bytes, uint32_t f, enum tm_acct m,
			    enum tm_burst_mode mode)
{
	struct bm_error err = { "" };
	struct tm_burst b;
	uint64_t k, sum = 0;

	ck_assert_msg(tm_burst_plan(bytes, f, m, mode, &b, &err) == 0,
		      "%llu B at %u: %s", (unsigned long long)bytes, f,
		      err.msg);
	/* the frames' accounted bytes are the actual bytes, every frame a
	 * legal size no larger than F unless F < 128 */
	for (k = 0; k < b.frames; k++) {
		uint32_t s = tm_burst_frame_size(&b, k);

		ck_assert_uint_ge(s, 64);
		if (f >= 128)
			ck_assert_uint_le(s, f);
		sum += s + tm_acct_delta(m);
	}
	ck_assert_uint_eq(sum, b.actual);
	if (mode == TM_BURST_EXACT)
		ck_assert_uint_eq(b.actual, bytes);
	else
		ck_assert_uint_ge(b.actual, bytes);
	ck_assert_uint_eq(b.nominal, bytes);
	return b;
}

START_TEST(acct_modes)
{
	ck_assert_int_eq(tm_acct_delta(TM_ACCT_L1), 20);
	ck_assert_int_eq(tm_acct_delta(TM_ACCT_L2), 0);
	ck_assert_int_eq(tm_acct_delta(TM_ACCT_L2NOFCS), -4);
	ck_assert_int_eq(tm_acct_delta(TM_ACCT_L3), -18);
	ck_assert_double_eq(tm_acct_bytes(1518, TM_ACCT_L1), 1538);
	ck_assert_double_eq(tm_acct_bytes(64, TM_ACCT_L3), 46);
	ck_assert_str_eq(tm_acct_names[TM_ACCT_L2NOFCS], "l2nofcs");
	ck_assert_ptr_null(tm_acct_names[4]);
	ck_assert_str_eq(tm_burst_mode_names[TM_BURST_WHOLE], "whole");
}
END_TEST

START_TEST(spec_numbers)
{
	struct tm_burst b;

	b = plan(64000, 1518, TM_ACCT_L2, TM_BURST_EXACT);
	ck_assert_uint_eq(b.frames, 43);
	ck_assert_uint_eq(b.last_size, 244);
	ck_assert_uint_eq(b.penult_size, 1518);
	ck_assert(!b.resized);
	ck_assert_uint_eq(tm_burst_frame_size(&b, 0), 1518);
	ck_assert_uint_eq(tm_burst_frame_size(&b, 41), 1518);
	ck_assert_uint_eq(tm_burst_frame_size(&b, 42), 244);
	/* F-14: 64 KB at 1 GbE is 0.512 ms of bytes, plus 43 x 20 B */
	ck_assert_double_eq_tol(tm_burst_time_s(&b, 1e9),
				(64000 + 43 * 20) * 8e-9, 1e-15);

	b = plan(64000, 1518, TM_ACCT_L2, TM_BURST_WHOLE);
	ck_assert_uint_eq(b.frames, 43);
	ck_assert_uint_eq(b.actual, 65274);
	ck_assert_uint_eq(b.last_size, 1518);

	b = plan(65000, 1518, TM_ACCT_L2, TM_BURST_EXACT);
	ck_assert_uint_eq(b.frames, 43);
	ck_assert_uint_eq(b.last_size, 1244);

	b = plan(63000, 1518, TM_ACCT_L2, TM_BURST_WHOLE);
	ck_assert_uint_eq(b.frames, 42);
	ck_assert_uint_eq(b.actual, 63756);

	/* POL2's frame-aligned buckets: 2 x 63,756 = 84 frames */
	b = plan(127512, 1518, TM_ACCT_L2, TM_BURST_EXACT);
	ck_assert_uint_eq(b.frames, 84);
	ck_assert_uint_eq(b.last_size, 1518);
	/* and its excess burst: one 1,000 B frame more */
	b = plan(128512, 1518, TM_ACCT_L2, TM_BURST_EXACT);
	ck_assert_uint_eq(b.frames, 85);
	ck_assert_uint_eq(b.last_size, 1000);

	/* the shaper's 512,000 B: 337 full frames and one of 434 B */
	b = plan(512000, 1518, TM_ACCT_L2, TM_BURST_EXACT);
	ck_assert_uint_eq(b.frames, 338);
	ck_assert_uint_eq(b.last_size, 512000 - 337 * 1518);
}
END_TEST

START_TEST(other_modes)
{
	struct tm_burst b;

	/* l1: A = 1538, 64,000 = 41 x 1538 + 942, a 922 B frame */
	b = plan(64000, 1518, TM_ACCT_L1, TM_BURST_EXACT);
	ck_assert_uint_eq(b.frames, 42);
	ck_assert_uint_eq(b.last_size, 922);
	/* l2nofcs: A = 1514, 42 x 1514 = 63,588, remainder 412 -> 416 B */
	b = plan(64000, 1518, TM_ACCT_L2NOFCS, TM_BURST_EXACT);
	ck_assert_uint_eq(b.frames, 43);
	ck_assert_uint_eq(b.last_size, 416);
	/* l3: A = 1500, 42 x 1500 = 63,000, remainder 1,000 -> 1,018 B */
	b = plan(64000, 1518, TM_ACCT_L3, TM_BURST_EXACT);
	ck_assert_uint_eq(b.frames, 43);
	ck_assert_uint_eq(b.last_size, 1018);
	b = plan(64000, 1518, TM_ACCT_L3, TM_BURST_WHOLE);
	ck_assert_uint_eq(b.frames, 43);
	ck_assert_uint_eq(b.actual, 64500);
	/* exactly one minimal frame */
	b = plan(64, 1518, TM_ACCT_L2, TM_BURST_EXACT);
	ck_assert_uint_eq(b.frames, 1);
	ck_assert_uint_eq(b.last_size, 64);
	b = plan(3036, 1518, TM_ACCT_L2, TM_BURST_EXACT);
	ck_assert_uint_eq(b.frames, 2);
	ck_assert_uint_eq(b.last_size, 1518);
}
END_TEST

/* REQ-GEN-2.4: a remainder frame under 64 B is not sent as such */
START_TEST(small_remainder)
{
	struct tm_burst b;

	/* 42 x 1518 + 30: the last full frame and the 30 B share 1,548 B */
	b = plan(42 * 1518 + 30, 1518, TM_ACCT_L2, TM_BURST_EXACT);
	ck_assert(b.resized);
	ck_assert_uint_eq(b.frames, 43);
	ck_assert_uint_eq(b.penult_size, 774);
	ck_assert_uint_eq(b.last_size, 774);
	b = plan(42 * 1518 + 31, 1518, TM_ACCT_L2, TM_BURST_EXACT);
	ck_assert_uint_eq(b.penult_size, 775);
	ck_assert_uint_eq(b.last_size, 774);
	/* one full frame and 63 B: two frames of 790 and 791 */
	b = plan(1518 + 63, 1518, TM_ACCT_L2, TM_BURST_EXACT);
	ck_assert_uint_eq(b.frames, 2);
	ck_assert_uint_eq(b.penult_size + b.last_size, 1581);
	/* F = 64: 15 x 64 + 40 = 1,000 B; 64 + 40 cannot be two frames of
	 * 64, so the last frame is 104 B */
	b = plan(1000, 64, TM_ACCT_L2, TM_BURST_EXACT);
	ck_assert(b.resized);
	ck_assert_uint_eq(b.frames, 15);
	ck_assert_uint_eq(b.last_size, 104);
	ck_assert_uint_eq(b.penult_size, 64);
	/* l1 with F = 64 (A = 84): 85 B is one 65 B frame */
	b = plan(85, 64, TM_ACCT_L1, TM_BURST_EXACT);
	ck_assert_uint_eq(b.frames, 1);
	ck_assert_uint_eq(b.last_size, 65);
	/* F = 100, l2: 100 + 30 = 130 B splits into 65 + 65 */
	b = plan(230, 100, TM_ACCT_L2, TM_BURST_EXACT);
	ck_assert_uint_eq(b.frames, 3);
	ck_assert_uint_eq(b.penult_size, 65);
	ck_assert_uint_eq(b.last_size, 65);
}
END_TEST

START_TEST(refused)
{
	struct bm_error err = { "" };
	struct tm_burst b;

	ck_assert_int_eq(tm_burst_plan(50, 1518, TM_ACCT_L2, TM_BURST_EXACT,
				       &b, &err), -EINVAL);
	ck_assert_str_eq(err.msg, "a burst of 50 B is less than one 64 B "
			 "frame (64 B in l2 accounting)");
	ck_assert_int_eq(tm_burst_plan(80, 1518, TM_ACCT_L1, TM_BURST_EXACT,
				       &b, &err), -EINVAL);
	ck_assert_str_eq(err.msg, "a burst of 80 B is less than one 64 B "
			 "frame (84 B in l1 accounting)");
	ck_assert_int_eq(tm_burst_plan(0, 1518, TM_ACCT_L2, TM_BURST_WHOLE,
				       &b, &err), -EINVAL);
	ck_assert_str_eq(err.msg, "a burst of 0 bytes");
	ck_assert_int_eq(tm_burst_plan(1000, 60, TM_ACCT_L2, TM_BURST_WHOLE,
				       &b, &err), -EINVAL);
	/* whole mode sends at least one full frame */
	b = plan(10, 1518, TM_ACCT_L2, TM_BURST_WHOLE);
	ck_assert_uint_eq(b.frames, 1);
	ck_assert_uint_eq(b.actual, 1518);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("rfc7640-account");
	TCase *tc = tcase_create("account");

	tcase_add_test(tc, acct_modes);
	tcase_add_test(tc, spec_numbers);
	tcase_add_test(tc, other_modes);
	tcase_add_test(tc, small_remainder);
	tcase_add_test(tc, refused);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tj_run_suite(suite());
}

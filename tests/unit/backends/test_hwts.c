// SPDX-License-Identifier: GPL-2.0
/*
 * The hardware-timestamp helpers (backends/hwts.c, REQ-TS-3) against
 * closed forms: which PHC read the offset comes from and what it is, the
 * module bits a negotiated driver setting gives, the filter names.  The
 * ioctls themselves are checked in the lab (tests/lab/hw/).
 */
#include <check.h>
#include <linux/net_tstamp.h>
#include <stdint.h>
#include <string.h>

#include <linux/bmgen.h>

#include "bm_hwts.h"
#include "check_util.h"

/* The narrowest window wins, its offset is phc - midpoint, and the
 * uncertainty is half its width. */
START_TEST(test_pick_narrowest)
{
	const int64_t rd[4][3] = {
		{ 1000, 51500, 2000 },	/* width 1000: offset 50000 */
		{ 3000, 53240, 3400 },	/* width 400: offset 50040 */
		{ 5000, 55100, 5200 },	/* width 200: offset 50000 */
		{ 7000, 57000, 8000 },	/* width 1000 */
	};
	int64_t off = 0, half = 0;

	ck_assert_int_eq(bm_phc_pick(rd, 4, &off, &half), 0);
	ck_assert_int_eq(off, 50000);
	ck_assert_int_eq(half, 100);
}
END_TEST

/* A read whose "after" precedes its "before" (a clock step) is no read;
 * none usable is an error, not a zero offset. */
START_TEST(test_pick_no_usable_read)
{
	const int64_t bad[2][3] = { { 2000, 0, 1000 }, { 9000, 5, 8999 } };
	const int64_t mixed[2][3] = { { 2000, 0, 1000 }, { 100, -900, 300 } };
	int64_t off = 7, half = 7;

	ck_assert_int_eq(bm_phc_pick(bad, 2, &off, &half), -1);
	ck_assert_int_eq(bm_phc_pick(bad, 0, &off, &half), -1);
	ck_assert_int_eq(bm_phc_pick(mixed, 2, &off, &half), 0);
	ck_assert_int_eq(off, -1100);
	ck_assert_int_eq(half, 100);
}
END_TEST

START_TEST(test_bits)
{
	struct bm_hwts_cfg c = { .tx_on = 1, .rx_filter = HWTSTAMP_FILTER_NONE };

	ck_assert_uint_eq(bm_hwts_bits(&c), BMGEN_HWTS_TX);
	c.rx_filter = HWTSTAMP_FILTER_PTP_V2_EVENT;
	ck_assert_uint_eq(bm_hwts_bits(&c), BMGEN_HWTS_TX | BMGEN_HWTS_RX);
	c.tx_on = 0;
	c.rx_filter = HWTSTAMP_FILTER_ALL;
	ck_assert_uint_eq(bm_hwts_bits(&c), BMGEN_HWTS_RX);
	ck_assert_str_eq(bm_hwts_filter_name(HWTSTAMP_FILTER_ALL), "all");
	ck_assert_str_eq(bm_hwts_filter_name(HWTSTAMP_FILTER_PTP_V2_EVENT),
			 "ptpv2-event");
	ck_assert_str_eq(bm_hwts_filter_name(HWTSTAMP_FILTER_NONE), "none");
	ck_assert_str_eq(bm_hwts_filter_name(999), "other");
}
END_TEST

/* No PHC, or one that is not there: an error with a reason. */
START_TEST(test_offset_no_phc)
{
	struct bm_error err = { { 0 } };
	int64_t off, unc;

	ck_assert_int_lt(bm_phc_offset(-1, &off, &unc, &err), 0);
	ck_assert_str_eq(err.msg, "no PTP hardware clock");
	ck_assert_int_lt(bm_phc_offset(4093, &off, &unc, &err), 0);
	ck_assert_ptr_nonnull(strstr(err.msg, "/dev/ptp4093"));
}
END_TEST

static Suite *hwts_suite(void)
{
	Suite *s = suite_create("hwts");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_pick_narrowest);
	tcase_add_test(tc, test_pick_no_usable_read);
	tcase_add_test(tc, test_bits);
	tcase_add_test(tc, test_offset_no_phc);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tj_run_suite(hwts_suite());
}

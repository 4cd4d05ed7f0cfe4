// SPDX-License-Identifier: GPL-2.0
/*
 * RIP v1 responses (bm_rip.h) against RFC 2544 C.2.6.2's printed frame:
 * every fixed byte at its offset, the lengths and checksum computed
 * (AMB-26: the printed 0x00EE / 0x00DA do not fit six routes, 152 and
 * 132 do), and the parser that the simulated DUT hears them with.
 */
#include <check.h>
#include <string.h>

#include "bm_rip.h"
#include "check_util.h"

static const uint8_t MAC[6] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 };
static const uint8_t SRC[4] = { 198, 19, 1, 10 };

static unsigned int be16(const uint8_t *p)
{
	return (unsigned int)p[0] << 8 | p[1];
}

static unsigned int six(uint8_t *f, struct bm_rip_route *r)
{
	unsigned int k;

	for (k = 0; k < 6; k++) {
		r[k].net[0] = 198;
		r[k].net[1] = 19;
		r[k].net[2] = (uint8_t)(65 + k);
		r[k].net[3] = 0;
		r[k].metric = BM_RIP_METRIC;
	}
	return (unsigned int)bm_rip_frame(f, BM_RIP_MAX_FRAME, MAC, SRC, r, 6);
}

START_TEST(test_c262_bytes)
{
	struct bm_rip_route r[6], back[BM_RIP_MAX_ENTRIES];
	uint8_t f[BM_RIP_MAX_FRAME], src[4];
	unsigned int len = six(f, r), k, s = 0;

	ck_assert_uint_eq(len, 14 + 152);
	for (k = 0; k < 6; k++)
		ck_assert_uint_eq(f[k], 0xff);
	ck_assert(!memcmp(f + 6, MAC, 6));
	ck_assert_uint_eq(be16(f + 12), 0x0800);
	ck_assert_uint_eq(f[14], 0x45);
	ck_assert_uint_eq(be16(f + 16), 152);		/* IP total length */
	ck_assert_uint_eq(be16(f + 20), 0x4000);	/* DF */
	ck_assert_uint_eq(f[22], 10);			/* TTL */
	ck_assert_uint_eq(f[23], 17);
	ck_assert(!memcmp(f + 26, SRC, 4));
	ck_assert_uint_eq(f[30], 198);
	ck_assert_uint_eq(f[32], 1);
	ck_assert_uint_eq(f[33], 0xff);			/* host part */
	for (k = 14; k < 34; k += 2)
		s += be16(f + k);
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	ck_assert_uint_eq(s, 0xffff);			/* checksum */
	ck_assert_uint_eq(be16(f + 34), 520);
	ck_assert_uint_eq(be16(f + 36), 520);
	ck_assert_uint_eq(be16(f + 38), 132);		/* UDP length */
	ck_assert_uint_eq(f[42], 2);			/* response */
	ck_assert_uint_eq(f[43], 1);			/* version 1 */
	for (k = 0; k < 6; k++) {
		const uint8_t *e = f + 46 + 20 * k;

		ck_assert_uint_eq(be16(e), 2);		/* family IP */
		ck_assert_uint_eq(e[4], 198);
		ck_assert_uint_eq(e[6], 65 + k);
		ck_assert_uint_eq(e[7], 0);		/* net, not node */
		ck_assert_uint_eq(e[19], 7);		/* metric */
	}
	ck_assert_int_eq(bm_rip_parse(f, len, src, back, 25), 6);
	ck_assert(!memcmp(src, SRC, 4));
	for (k = 0; k < 6; k++) {
		ck_assert(!memcmp(back[k].net, r[k].net, 4));
		ck_assert_uint_eq(back[k].metric, 7);
	}
}
END_TEST

START_TEST(test_limits_and_refusals)
{
	struct bm_rip_route r[BM_RIP_MAX_ENTRIES + 1], back[BM_RIP_MAX_ENTRIES];
	uint8_t f[BM_RIP_MAX_FRAME + 20], src[4];
	unsigned int len, k;

	memset(r, 0, sizeof(r));
	for (k = 0; k <= BM_RIP_MAX_ENTRIES; k++) {
		r[k].net[0] = 198;
		r[k].net[2] = (uint8_t)k;
		r[k].metric = BM_RIP_INFINITY;
	}
	/* 25 routes fill the largest frame; 26, none, or metric 0 or 17
	 * are no message */
	ck_assert_uint_eq(bm_rip_frame(f, sizeof(f), MAC, SRC, r, 25),
			  BM_RIP_MAX_FRAME);
	ck_assert_uint_eq(bm_rip_frame(f, sizeof(f), MAC, SRC, r, 26), 0);
	ck_assert_uint_eq(bm_rip_frame(f, sizeof(f), MAC, SRC, r, 0), 0);
	ck_assert_uint_eq(bm_rip_frame(f, 100, MAC, SRC, r, 25), 0);
	r[3].metric = 0;
	ck_assert_uint_eq(bm_rip_frame(f, sizeof(f), MAC, SRC, r, 25), 0);
	r[3].metric = 17;
	ck_assert_uint_eq(bm_rip_frame(f, sizeof(f), MAC, SRC, r, 25), 0);
	r[3].metric = BM_RIP_INFINITY;
	len = (unsigned int)bm_rip_frame(f, sizeof(f), MAC, SRC, r, 25);
	ck_assert_int_eq(bm_rip_parse(f, len, src, back, 25), 25);
	ck_assert_int_eq(bm_rip_parse(f, len, src, back, 24), -1);
	/* any byte wrong in what a listener checks: no message */
	for (k = 0; k < 46 + 20; k++) {
		if (k >= 6 && k < 12)
			continue;		/* the source MAC is free */
		if (k >= 26 && k < 30)
			continue;		/* so is the source address */
		if (k >= 30 && k < 33)
			continue;		/* the network (checksummed) */
		if (k >= 40 && k < 42)
			continue;		/* UDP checksum 0 = none */
		if (k == 18 || k == 19 || k == 15 || k == 22)
			continue;		/* id, TOS, TTL (checksummed) */
		if (k >= 50 && k < 54)
			continue;		/* the route's network */
		f[k] ^= 0x01;
		ck_assert_msg(bm_rip_parse(f, len, src, back, 25) == -1,
			      "byte %u", k);
		f[k] ^= 0x01;
	}
	ck_assert_int_eq(bm_rip_parse(f, len - 1, src, back, 25), -1);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("rip");
	TCase *tc = tcase_create("rip");

	tcase_add_test(tc, test_c262_bytes);
	tcase_add_test(tc, test_limits_and_refusals);
	suite_add_tcase(s, tc);
	return tj_run_suite(s);
}

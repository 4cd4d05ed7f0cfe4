// SPDX-License-Identifier: GPL-2.0
/*
 * Byte accounting (SPEC §2.2, REQ-UNIT-1) and byte-exact bursts
 * (REQ-GEN-2.4, AMB-07, TM-CAP-SL): the draft's burst parameters are
 * bytes, the tester sends frames, and which bytes count is the tester's
 * to say and report.
 */
#include <errno.h>
#include <stdio.h>

#include "rfc7640.h"

const char *const tm_acct_names[] = { "l1", "l2", "l2nofcs", "l3", NULL };
const char *const tm_burst_mode_names[] = { "exact", "whole", NULL };

#define MIN_FRAME	64

int tm_acct_delta(enum tm_acct m)
{
	switch (m) {
	case TM_ACCT_L1:
		return 20;
	case TM_ACCT_L2:
		return 0;
	case TM_ACCT_L2NOFCS:
		return -4;
	case TM_ACCT_L3:
		/* 14 B Ethernet header + 4 B FCS; the tester's frames are
		 * untagged IPv4 */
		return -18;
	}
	return 0;
}

double tm_acct_bytes(uint32_t frame_size, enum tm_acct m)
{
	return (double)frame_size + tm_acct_delta(m);
}

int tm_burst_plan(uint64_t bytes, uint32_t frame_size, enum tm_acct m,
		  enum tm_burst_mode mode, struct tm_burst *b,
		  struct bm_error *err)
{
	int64_t d = tm_acct_delta(m), fr, pair;
	uint64_t a = (uint64_t)((int64_t)frame_size + d), n, r;

	*b = (struct tm_burst){ .nominal = bytes, .frame_size = frame_size,
				.penult_size = frame_size,
				.last_size = frame_size };
	if (!bytes)
		return bm_errorf(err, "a burst of 0 bytes");
	if (frame_size < MIN_FRAME)
		return bm_errorf(err, "frame size %u below 64 B", frame_size);
	if (mode == TM_BURST_WHOLE) {
		b->frames = (bytes + a - 1) / a;
		b->actual = b->frames * a;
		return 0;
	}
	n = bytes / a;
	r = bytes % a;
	b->actual = bytes;
	b->frames = n;
	if (!r)
		return 0;
	fr = (int64_t)r - d;		/* the remainder frame's size */
	if (fr >= MIN_FRAME) {
		b->frames = n + 1;
		b->last_size = (uint32_t)fr;
		return 0;
	}
	if (!n)
		return bm_errorf(err, "a burst of %llu B is less than one 64 B "
				 "frame (%lld B in %s accounting)",
				 (unsigned long long)bytes, (long long)(64 + d),
				 tm_acct_names[m]);
	/* REQ-GEN-2.4: the remainder is too small for a frame; the last
	 * full frame and it share their bytes, each frame >= 64 B, and
	 * neither above F, so that no frame exceeds the size under test
	 * (the DUT's MTU) */
	b->resized = true;
	pair = (int64_t)frame_size + fr;
	if (pair >= 2 * MIN_FRAME) {
		b->frames = n + 1;
		b->penult_size = (uint32_t)((pair + 1) / 2);
		b->last_size = (uint32_t)(pair / 2);
		return 0;
	}
	/* F < 128: one frame of F + r, under 148 B */
	b->frames = n;
	b->last_size = (uint32_t)(frame_size + r);
	return 0;
}

uint32_t tm_burst_frame_size(const struct tm_burst *b, uint64_t k)
{
	if (k + 1 == b->frames)
		return b->last_size;
	if (k + 2 == b->frames)
		return b->penult_size;
	return b->frame_size;
}

double tm_burst_time_s(const struct tm_burst *b, double line_rate_bps)
{
	double bytes = (double)b->frame_size * (double)b->frames;

	/* the last two frames' sizes in place of two full ones */
	if (b->frames >= 1)
		bytes += (double)b->last_size - b->frame_size;
	if (b->frames >= 2)
		bytes += (double)b->penult_size - b->frame_size;
	return (bytes + 20.0 * (double)b->frames) * 8.0 / line_rate_bps;
}

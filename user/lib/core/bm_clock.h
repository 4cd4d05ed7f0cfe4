/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The host's monotonic clock: the one clock that the real backends'
 * waits, a trial's elapsed time and bmd's timeouts are read on (never
 * the wall clock, which ptp4l or an administrator may step).
 */
#ifndef BM_CLOCK_H
#define BM_CLOCK_H

/* CLOCK_MONOTONIC now, in seconds. */
double bm_mono_s(void);

/* The kernel's TAI-UTC offset, CLOCK_TAI less CLOCK_REALTIME in whole
 * seconds (37 since 2017 where phc2sys -w or chrony's leapsectz set it,
 * 0 where nothing did). */
int bm_tai_utc_s(void);

#endif /* BM_CLOCK_H */

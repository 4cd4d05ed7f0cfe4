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

#endif /* BM_CLOCK_H */

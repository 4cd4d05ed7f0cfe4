// SPDX-License-Identifier: GPL-2.0
/* The host's monotonic clock (bm_clock.h). */
#include <math.h>
#include <time.h>

#include "bm_clock.h"

double bm_mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int bm_tai_utc_s(void)
{
	struct timespec tai, utc;

	clock_gettime(CLOCK_TAI, &tai);
	clock_gettime(CLOCK_REALTIME, &utc);
	return (int)lround((double)(tai.tv_sec - utc.tv_sec) +
			   (tai.tv_nsec - utc.tv_nsec) / 1e9);
}

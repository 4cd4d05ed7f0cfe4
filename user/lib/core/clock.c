// SPDX-License-Identifier: GPL-2.0
/* The host's monotonic clock (bm_clock.h). */
#include <time.h>

#include "bm_clock.h"

double bm_mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

// SPDX-License-Identifier: GPL-2.0
/* A port's calibrated generator capacity (bm_capacity.h). */
#include <string.h>

#include "bm_capacity.h"

double bm_tx_capacity_fps(const struct bm_tx_capacity *v, size_t n,
			  const char *port, const char *path, uint32_t f)
{
	const struct bm_tx_capacity *best = NULL;
	uint32_t dist = 0, d;
	size_t i;

	for (i = 0; i < n; i++) {
		if (strcmp(v[i].port, port) || strcmp(v[i].path, path) ||
		    !(v[i].send_fps > 0))
			continue;
		d = v[i].frame_size > f ? v[i].frame_size - f :
		    f - v[i].frame_size;
		/* a larger frame costs at least as much: of two as near,
		 * its figure is the cautious one */
		if (!best || d < dist ||
		    (d == dist && v[i].frame_size > best->frame_size)) {
			best = &v[i];
			dist = d;
		}
	}
	return best ? best->send_fps : 0;
}

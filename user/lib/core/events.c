// SPDX-License-Identifier: GPL-2.0
/* RFC 8238 §2 latency events (bm_events.h). */
#include <stddef.h>

#include "bm_events.h"

const char *const bm_lat_event_names[] = { "FL", "FF", "LL", "LF", NULL };

const char *bm_lat_event_label(enum bm_lat_event ev)
{
	static const char *const label[] = { "FL (FILO)", "FF (FIFO)",
					     "LL (LILO)", "LF (LIFO)" };

	return ev <= BM_EV_LF ? label[ev] : "?";
}

double bm_serialisation_ns(uint32_t frame_size, double rate_bps)
{
	return rate_bps > 0 ? frame_size * 8.0 / rate_bps * 1e9 : 0.0;
}

double bm_lat_event_ns(enum bm_lat_event ev, double ff_ns, double s_in_ns,
		       double s_out_ns)
{
	switch (ev) {
	case BM_EV_FL:
		return ff_ns + s_out_ns;
	case BM_EV_LL:
		return ff_ns + s_out_ns - s_in_ns;
	case BM_EV_LF:
		return ff_ns - s_in_ns;
	case BM_EV_FF:
	default:
		return ff_ns;
	}
}

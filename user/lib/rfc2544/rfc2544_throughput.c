// SPDX-License-Identifier: GPL-2.0
/*
 * RFC 2544 §26.1 throughput (R2544-THRPT) per frame size, with the
 * §26.1 MUST statement: measured rate in fps, frame size, theoretical
 * limit of the media (F-1) and protocol.  The limit is the slowest link's
 * (R2544-MAXRATE), reported with that link's rate and the throughput as
 * a share of it.
 */
#include <math.h>
#include <stdio.h>

#include "rfc2544_int.h"

int r2544_throughput(struct r2544_run *r)
{
	const struct rfc2544_params *p = r->p;
	/* §26.1 MUST: the theoretical limit of the media, which is the
	 * slowest link's when one is given (R2544-MAXRATE, WAN) */
	double line = p->slowest_link_bps > 0.0 ?
		      fmin(p->slowest_link_bps, r->be->line_rate_bps) :
		      r->be->line_rate_bps, thr;
	char stmt[256];
	json_object *e, *why;
	size_t i;
	bool ok;
	int ret = 0;

	for (i = 0; i < p->n_sizes && !ret; i++) {
		uint32_t f = p->frame_sizes[i];

		e = json_object_new_object();
		json_object_array_add(r->results, e);
		bm_json_add_u64(e, "frame_size", f);
		bm_json_add_double(e, "theoretical_max_fps", bm_fps_max(line, f));
		/* which link the limit is of, so the two can be compared */
		bm_json_add_double(e, "theoretical_link_bps", line);
		ret = r2544_get_throughput(r, i, f, e, &thr, &ok);
		bm_json_add_double(e, "throughput_pct_theoretical", ok ?
				   100.0 * thr / bm_fps_max(line, f) : NAN);
		/* as the other five, a status; no throughput is never "ok" */
		if (ok) {
			bm_json_add_str(e, "result", "ok");
			snprintf(stmt, sizeof(stmt),
				 "%.2f fps at %u-byte frames (theoretical "
				 "maximum %.2f fps%s), UDP/IPv4 over Ethernet",
				 thr, f, bm_fps_max(line, f),
				 p->slowest_link_bps > 0.0 ?
				 " of the slowest link" : "");
		} else {
			r2544_result_no_throughput(e);
			snprintf(stmt, sizeof(stmt),
				 "throughput not measured at %u-byte frames: %s",
				 f, json_object_object_get_ex(e, "search_result", &why) ?
				 json_object_get_string(why) : "no search result");
		}
		bm_json_add_str(e, "statement", stmt);
	}
	return ret;
}

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

/* §21 (R2544-BURSTY report): the minimum period and gap between bursts
 * of case c that throughput thr (fps, NAN when none) means. */
static void burst_interval(const struct r2544_run *r, const struct r2544_case *c,
			   json_object *e, double thr)
{
	double period = c->burst / thr;
	double burst_s = c->burst / r2544_fps_max(r->be->line_rate_bps, c->f);

	bm_json_add_double(e, "inter_burst_period_s", period);
	bm_json_add_double(e, "inter_burst_gap_s", period - burst_s);
	bm_json_add_double(e, "burst_duration_s", burst_s);
}

int r2544_throughput(struct r2544_run *r)
{
	const struct rfc2544_params *p = r->p;
	/* §26.1 MUST: the theoretical limit of the media, which is the
	 * slowest link's when one is given (R2544-MAXRATE, WAN) */
	double line = p->slowest_link_bps > 0.0 ?
		      fmin(p->slowest_link_bps, r->be->line_rate_bps) :
		      r->be->line_rate_bps, thr;
	struct r2544_case cs[RFC2544_MAX_SIZES * RFC2544_MAX_BURSTS];
	size_t k, first, n = r2544_cases(p, cs, sizeof(cs) / sizeof(cs[0]));
	char stmt[480], burst[96];
	json_object *e, *why = NULL;
	bool ok;
	int ret = 0;

	for (k = 0; k < n && !ret; k++) {
		const struct r2544_case *c = &cs[k];
		double tmax = r2544_fps_max(line, c->size);
		char what[224], mix[160];

		e = json_object_new_object();
		json_object_array_add(r->results, e);
		r2544_case_json(r, c, e);
		bm_json_add_double(e, "theoretical_max_fps", tmax);
		/* which link the limit is of, so the two can be compared */
		bm_json_add_double(e, "theoretical_link_bps", line);
		first = r->log.n;
		ret = r2544_case_throughput(r, c, e, &thr, &ok);
		bm_json_add_double(e, "throughput_pct_theoretical", ok ?
				   100.0 * thr / tmax : NAN);
		if (c->mix) {
			rfc2544_imix_text(p, mix, sizeof(mix));
			snprintf(what, sizeof(what), "frames of the IMIX %s "
				 "(mean %.2f bytes)", mix, c->size);
		} else {
			snprintf(what, sizeof(what), "%u-byte frames", c->f);
		}
		burst[0] = 0;
		if (p->topology >= BM_TOPO_MULTIPORT)
			/* §16: each input is offered the rate */
			snprintf(burst, sizeof(burst), " from each of %u "
				 "ports (%s, %.2f fps in all)",
				 r2544_senders(r),
				 bm_topology_name(p->topology),
				 ok ? r2544_senders(r) * thr : NAN);
		if (c->burst) {
			burst_interval(r, c, e, ok ? thr : NAN);
			snprintf(burst, sizeof(burst), " in bursts of %u frames "
				 "(minimum interval %.6g s start to start)",
				 c->burst, ok ? c->burst / thr : NAN);
		}
		/* as the other five, a status; no throughput is never "ok" */
		if (ok) {
			bm_json_add_str(e, "result", "ok");
			snprintf(stmt, sizeof(stmt),
				 "%.2f fps at %s%s (theoretical maximum %.2f "
				 "fps%s), UDP/IPv4 over Ethernet",
				 thr, what, burst, tmax,
				 p->slowest_link_bps > 0.0 ?
				 " of the slowest link" : "");
		} else {
			r2544_result_no_throughput(e, NULL);
			json_object_object_get_ex(e, "search_result", &why);
			if (c->burst)
				snprintf(stmt, sizeof(stmt), "no loss-free "
					 "interval between bursts of %u "
					 "%s down to r_min: %s",
					 c->burst, what, why ?
					 json_object_get_string(why) :
					 "no search result");
			else
				snprintf(stmt, sizeof(stmt), "throughput not "
					 "measured at %s: %s", what,
					 why ? json_object_get_string(why) :
					 "no search result");
		}
		r2544_stream_report(r, e, ok ? thr : NAN, first,
				    ok ? stmt : NULL, sizeof(stmt));
		if (p->filters)
			r2544_filter_report(r, e, first, ok ? thr : NAN,
					    stmt, sizeof(stmt));
		if (p->management)
			r2544_mgmt_report(r, e, first, ok ? stmt : NULL,
					  sizeof(stmt));
		r2544_random_report(r, e, first);
		r2544_route_report(r, e, first);
		r2544_protocols_report(r, e, first);
		bm_json_add_str(e, "statement", stmt);
	}
	return ret;
}

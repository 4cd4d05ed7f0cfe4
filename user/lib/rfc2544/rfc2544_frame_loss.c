// SPDX-License-Identifier: GPL-2.0
/*
 * RFC 2544 §26.3 frame loss rate (R2544-FLR): from 100 % of the maximum
 * rate down in steps of step_pct % of the maximum rate (AMB-17) until two
 * successive trials lose nothing; loss % = (input - output) x 100 / input
 * (F-6).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "rfc2544_int.h"

static int flr_size(struct r2544_run *r, const struct r2544_case *c,
		    json_object *e)
{
	const struct rfc2544_params *p = r->p;
	uint32_t f = c->f;
	double rmax = r2544_r_max(r, c->size), pct, loss;
	struct bm_trial_spec spec;
	struct bm_trial_result res;
	json_object *tab = json_object_new_array(), *row;
	bool prev_zero = false, zero;
	unsigned int k, unsent = 0;
	const char *stop;
	char why[96];
	int ret = 0;

	if (r->stream)
		r2544_stream_set_case(r->stream, c);
	json_object_object_add(e, "table", tab);
	bm_json_add_double(e, "max_rate_fps", rmax);
	bm_json_add_str(e, "stop", "rate reached 0 %");
	/* Integer step count: 100 - k x step without float drift. */
	for (k = 0;; k++) {
		pct = 100.0 - k * p->flr_step_pct;
		if (pct <= 1e-9)
			break;
		snprintf(why, sizeof(why), "%.4g %% of the maximum rate", pct);
		r2544_spec(r, &spec, f, pct / 100.0 * rmax, p->flr_trial_s);
		ret = r2544_trial(r, &spec, &res, "flr", why);
		if (ret && ret != -ECANCELED) {
			bm_json_add_str(e, "stop", "a trial failed");
			break;
		}
		/* a trial that sent nothing lost nothing and measured
		 * nothing: null, not 0 % (and no zero-loss trial below) */
		loss = res.attempted ?
		       (double)(res.attempted - res.received) * 100.0 /
		       res.attempted : NAN;
		if (!res.attempted)
			unsent++;
		row = json_object_new_object();
		bm_json_add_double(row, "rate_pct", pct);
		bm_json_add_double(row, "rate_pct_line",
				   spec.pair.rate_fps / r2544_fps_max(
					   r->be->line_rate_bps, c->size) *
				   100.0);
		bm_json_add_double(row, "rate_fps", spec.pair.rate_fps);
		bm_json_add_u64(row, "tx", res.attempted);
		bm_json_add_u64(row, "rx", res.received);
		bm_json_add_double(row, "loss_pct", loss);
		bm_json_add_bool(row, "generator_limited",
				 res.generator_limited);
		/* §11.1: tx, rx and loss are the test frames' */
		if (p->broadcast_pct > 0) {
			bm_json_add_u64(row, "broadcast_tx", res.bcast_sent);
			bm_json_add_u64(row, "broadcast_rx",
					res.bcast_received);
		}
		/* §11.4: what the filters let through of the probes */
		if (p->filters) {
			bm_json_add_u64(row, "probe_tx", res.probe_sent);
			bm_json_add_u64(row, "probe_rx", res.probe_received);
		}
		/* §11.2: the queries of this step and their answers */
		if (p->management) {
			bm_json_add_u64(row, "mgmt_sent", res.mgmt_sent);
			bm_json_add_u64(row, "mgmt_answered",
					res.mgmt_answered);
		}
		json_object_array_add(tab, row);
		if (ret) {
			/* cancelled after this trial, which still counts; the
			 * table must not claim the run reached 0 % */
			bm_json_add_str(e, "stop", "cancelled");
			break;
		}
		zero = res.attempted && res.received >= res.attempted;
		if (zero && prev_zero) {
			bm_json_add_str(e, "stop",
					"two successive zero-loss trials");
			break;
		}
		prev_zero = zero;
	}
	bm_json_add_str(e, "graph", "x: input rate, % of the theoretical rate "
			"for the media at this size (0..100); y: % loss "
			"(0..100)");
	stop = json_object_get_string(json_object_object_get(e, "stop"));
	if (unsent) {
		snprintf(why, sizeof(why), "incomplete: %u of %zu trials sent "
			 "no frames (loss_pct null)", unsent,
			 json_object_array_length(tab));
		bm_json_add_str(e, "result", why);
	} else if (ret) {
		snprintf(why, sizeof(why), "incomplete: %s", stop);
		bm_json_add_str(e, "result", why);
	} else {
		bm_json_add_str(e, "result", "ok");
	}
	return ret;
}

int r2544_frame_loss(struct r2544_run *r)
{
	struct r2544_case cs[RFC2544_MAX_SIZES * RFC2544_MAX_BURSTS];
	size_t i, n = r2544_cases(r->p, cs, sizeof(cs) / sizeof(cs[0]));
	json_object *e;
	size_t first;
	int ret = 0;

	r2544_deviation(r, "AMB-17: \"80% of this rate\" read as 100, 90, "
			"80 ... % of the maximum rate");
	r2544_deviation(r, "AMB-18: §26.3's \"see section 18\" for maximum "
			"rates read as section 20");
	if (r->p->flr_trial_s < 60.0)
		r2544_deviation(r, "R2544-DUR: frame loss trials shorter than "
				"60 s");
	for (i = 0; i < n && !ret; i++) {
		e = json_object_new_object();
		json_object_array_add(r->results, e);
		r2544_case_json(r, &cs[i], e);
		bm_json_add_double(e, "theoretical_max_fps",
				   r2544_fps_max(r->be->line_rate_bps,
						 cs[i].size));
		first = r->log.n;
		ret = flr_size(r, &cs[i], e);
		if (r->p->filters)
			r2544_filter_report(r, e, first, NAN, NULL, 0);
		if (r->p->management)
			r2544_mgmt_report(r, e, first, NULL, 0);
		r2544_random_report(r, e, first);
		r2544_route_report(r, e, first);
		r2544_protocols_report(r, e, first);
	}
	return ret;
}

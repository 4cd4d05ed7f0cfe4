// SPDX-License-Identifier: GPL-2.0
/*
 * RFC 2544 benchmarks run: the test a procedure names called, in the
 * result document it fills (REQ-REP-1 minus meta).  The helpers the tests
 * share are rfc2544_common.c's.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bm_repeat.h"
#include "bm_result.h"
#include "rfc2544_int.h"

static const r2544_body bodies[RFC2544_N_TESTS] = {
	[RFC2544_THROUGHPUT] = r2544_throughput,
	[RFC2544_LATENCY] = r2544_latency,
	[RFC2544_FRAME_LOSS] = r2544_frame_loss,
	[RFC2544_BACK_TO_BACK] = r2544_back_to_back,
	[RFC2544_RECOVERY] = r2544_recovery,
	[RFC2544_RESET] = r2544_reset,
};

int rfc2544_run(enum rfc2544_test t, struct bm_backend *be,
		const struct rfc2544_params *p, bm_progress_fn progress,
		void *ctx, json_object **doc, struct bm_error *err)
{
	*doc = NULL;
	if (t >= RFC2544_N_TESTS)
		return bm_errorf(err, "rfc2544: unknown test %d", (int)t);
	return r2544_run_doc(t, bodies[t], rfc2544_name(t), rfc2544_ref(t),
			     rfc2544_params_to_json(p, t), be, p, NULL,
			     progress, ctx, doc, err);
}

int r2544_run_doc(enum rfc2544_test t, r2544_body body, const char *name,
		  const char *ref, json_object *params, struct bm_backend *be,
		  const struct rfc2544_params *p, const void *ext,
		  bm_progress_fn progress, void *ctx, json_object **doc,
		  struct bm_error *err)
{
	struct r2544_run r = { .test = t, .be = be, .p = p, .ext = ext,
			       .progress = progress, .ctx = ctx, .err = err };
	struct bm_backend *settle;
	json_object *d, *res;
	int ret;

	*doc = NULL;
	if (!(be->line_rate_bps > 0.0)) {
		json_object_put(params);
		return bm_errorf(err, "%s: backend has no line rate", name);
	}
	/* every trial after a trial waits §23e's restabilise_s */
	settle = r2544_settle_new(be, p->restabilise_s);
	if (!settle) {
		json_object_put(params);
		return bm_errorf(err, "out of memory");
	}
	r.be = settle;
	/* THRPT and FLR run their trials on the modified stream */
	if ((t == RFC2544_THROUGHPUT || t == RFC2544_FRAME_LOSS) &&
	    r2544_stream_wanted(p)) {
		r.stream = r2544_stream_new(settle, p, err);
		if (!r.stream) {
			r2544_settle_free(settle);
			json_object_put(params);
			return -EINVAL;
		}
		r.be = r2544_stream_backend(r.stream);
	}
	r.results = json_object_new_array();
	r.deviations = json_object_new_array();

	ret = body(&r);
	if (p->restabilise_s < 5.0) {
		char dev[128];

		snprintf(dev, sizeof(dev), "§23e: %g s between trials for the "
			 "DUT to restabilise, not at least 5 s "
			 "(restabilise_s)", p->restabilise_s);
		r2544_deviation(&r, dev);
	}
	if (r.stream)
		r2544_stream_deviations(&r);
	r2544_stream_free(r.stream);
	r.stream = NULL;
	r2544_settle_free(settle);
	r.be = be;	/* the views are gone: the same ports */

	res = json_object_new_object();
	bm_json_add_double(res, "line_rate_bps", be->line_rate_bps);
	bm_json_add_str(res, "topology", bm_topology_name(p->topology));
	if (p->topology >= BM_TOPO_MULTIPORT)
		bm_json_add_u64(res, "sending_ports", r2544_senders(&r));
	bm_json_add_str(res, "protocol", "UDP/IPv4 over Ethernet (RFC 2544 App C)");
	json_object_object_add(res, "per_size", r.results);
	d = bm_result_envelope(name, ref, params, &r.log, NULL, res,
			       r.deviations, be);
	bm_trial_log_free(&r.log);
	*doc = d;
	return ret;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * RFC 2544 §26.5 system recovery (R2544-RECOV): overload at
 * min(110 % of throughput, media maximum) for >= 60 s, step down to 50 %
 * of that at timestamp A, B = tx time of the last lost frame; recovery
 * time = B - A (the RFC's "B from A" sign is an erratum, AMB-21).
 *
 * Two outcomes are not a recovery time: a repetition whose
 * overload lost nothing measured nothing, and one still losing frames at
 * the end of the observation window W has not recovered within W.  The
 * latter is judged with the reset benchmark's margin: a loss sent within
 * max(10 ms, 100 frame intervals at the reduced rate) of W's end
 * [PROPOSED].
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "rfc2544_int.h"

static int recovery_size(struct r2544_run *r, size_t i, json_object *e)
{
	const struct rfc2544_params *p = r->p;
	uint32_t f = p->frame_sizes[i];
	double fmax_f = bm_fps_max(r->be->line_rate_bps, f);
	double thr, over, reduced, mean, sd, mn, mx, *v;
	struct bm_trial_spec spec;
	struct bm_trial_result res;
	bool ok, capped;
	unsigned int k, n = 0, lossless = 0, unrecovered = 0, immediate = 0;
	double end_margin;
	json_object *a;
	char why[64], stmt[192];
	int ret;

	ret = r2544_get_throughput(r, i, f, e, &thr, &ok);
	if (ret)
		return ret;
	if (!ok) {
		static const char *const values[] = { "recovery_s", NULL };

		r2544_result_no_throughput(e, values);
		return 0;
	}
	over = fmin(1.10 * thr, fmax_f);
	capped = 1.10 * thr > fmax_f;
	reduced = 0.5 * over;
	r2544_add_rate(r, e, "overload", over, f);
	r2544_add_rate(r, e, "reduced", reduced, f);
	v = calloc(p->rec_repetitions, sizeof(*v));
	if (!v) {
		bm_errorf(r->err, "out of memory");
		return -ENOMEM;
	}
	end_margin = fmax(0.010, 100.0 / reduced);
	a = json_object_new_array();
	json_object_object_add(e, "repetitions", a);
	for (k = 0; k < p->rec_repetitions; k++) {
		r2544_spec(r, &spec, f, over, p->rec_overload_s);
		spec.pair.pattern = BM_PAT_STEP;
		spec.pair.step_rate_fps = reduced;
		spec.pair.step_duration_s = p->rec_observe_s;
		snprintf(why, sizeof(why), "repetition %u: overload, then 50 %%",
			 k + 1);
		ret = r2544_trial(r, &spec, &res, "recovery", why);
		if (ret)
			goto out;
		/* a repetition that is no measurement is null in the list */
		if (!res.lost) {
			lossless++;
			json_object_array_add(a, NULL);
			continue;
		}
		if (res.last_loss_after_step_s >= p->rec_observe_s - end_margin) {
			unrecovered++;
			json_object_array_add(a, NULL);
			continue;
		}
		/* No loss at or after A: recovered immediately, 0. */
		v[n] = res.last_loss_after_step_s >= 0.0 ?
		       res.last_loss_after_step_s : 0.0;
		if (v[n] == 0.0)
			immediate++;
		json_object_array_add(a, json_object_new_double(v[n++]));
	}
	r2544_stats(v, n, &mean, &sd, &mn, &mx);
	bm_json_add_u64(e, "valid_repetitions", n);
	bm_json_add_u64(e, "repetitions_without_loss", lossless);
	bm_json_add_u64(e, "repetitions_not_recovered", unrecovered);
	/* a 0 here is a measurement, SPEC R2544-RECOV step 5's "recovered
	 * immediately", not a missing one: counted and said in words */
	bm_json_add_u64(e, "repetitions_recovered_immediately", immediate);
	if (unrecovered) {
		snprintf(why, sizeof(why), "not recovered within %g s",
			 p->rec_observe_s);
		bm_json_add_str(e, "result", why);
		mean = NAN;	/* the recovery time is longer than W */
	} else if (!n && capped) {
		bm_json_add_str(e, "result", "not applicable: overload not "
				"achievable");
	} else if (!n) {
		bm_json_add_str(e, "result", "not measured: the overload "
				"caused no loss");
	} else {
		bm_json_add_str(e, "result", "ok");
		/* §26.5's table row: frame size, throughput rate, time */
		if (immediate == n)
			snprintf(stmt, sizeof(stmt), "recovered immediately (0 "
				 "s) at %u-byte frames, throughput %.2f fps: no "
				 "frame sent after A was lost in %u of %u "
				 "repetitions", f, thr, n, n);
		else
			snprintf(stmt, sizeof(stmt), "recovery %.6f s at "
				 "%u-byte frames, throughput %.2f fps (mean of "
				 "%u; %u recovered immediately)", mean, f, thr,
				 n, immediate);
		bm_json_add_str(e, "statement", stmt);
	}
	bm_json_add_double(e, "recovery_s", mean);	/* the average */
	bm_json_add_double(e, "recovery_min_s", mn);
	bm_json_add_double(e, "recovery_max_s", mx);
	bm_json_add_double(e, "recovery_stddev_s", sd);
out:
	free(v);
	return ret;
}

int r2544_recovery(struct r2544_run *r)
{
	json_object *e;
	size_t i;
	int ret = 0;

	r2544_deviation(r, "AMB-21: recovery time = B - A (the RFC's \"subtracting "
			"Timestamp B from Timestamp A\" is an erratum); B = tx "
			"time of the last lost frame");
	if (r->p->rec_observe_s == 10.0)
		r2544_deviation(r, "observation window after A = 10 s [PROPOSED]");
	if (r->p->rec_overload_s < 60.0)
		r2544_deviation(r, "R2544-RECOV: overload shorter than 60 s");
	for (i = 0; i < r->p->n_sizes && !ret; i++) {
		e = json_object_new_object();
		json_object_array_add(r->results, e);
		bm_json_add_u64(e, "frame_size", r->p->frame_sizes[i]);
		/* §26: per data stream type; this test sends no other */
		bm_json_add_str(e, "stream_type", "constant");
		ret = recovery_size(r, i, e);
	}
	return ret;
}

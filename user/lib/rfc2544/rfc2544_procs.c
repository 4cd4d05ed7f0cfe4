// SPDX-License-Identifier: GPL-2.0
/*
 * The RFC 2544 benchmarks as procedures of the registry
 * (bm_proc_info.h): their parameters' parse, bound and run, and their
 * rows, one a §26 test.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bm_json.h"
#include "bm_result.h"
#include "bm_proc_info.h"
#include "dut_command.h"
#include "rfc2544.h"
#include "rfc9004.h"

BM_PROC_HOOKS(r9004_b2b, struct r9004_params)

static int r2544_parse(const struct bm_procedure_info *pi,
		       json_object *params, double line,
		       struct rfc2544_params *p, struct bm_error *err)
{
	size_t i;
	int ret;

	rfc2544_params_default(p, pi->test);
	ret = rfc2544_params_from_json(params, pi->test, p, err);
	if (ret)
		return ret;
	for (i = 0; i < p->n_sizes; i++)
		if (p->throughput_fps[i] >
		    bm_fps_max(line, p->frame_sizes[i]) * 1.000001)
			return bm_errorf(err, "%s: throughput_fps: %.2f fps is "
					 "above the line rate at %u B",
					 pi->name, p->throughput_fps[i],
					 p->frame_sizes[i]);
	/* A trial that cannot carry one frame even at the line measures
	 * nothing, and would pass: a line rate of 1 bit/s
	 * (a "--line-rate 1" meant as 1G) is refused, not "ok". */
	for (i = 0; line > 0 && i < p->n_sizes; i++) {
		double d = rfc2544_shortest_trial_s(p, pi->test);
		double n = bm_fps_max(line, p->frame_sizes[i]) * d;

		if (n < 1.0)
			return bm_errorf(err, "%s: a %g s trial of %u B frames "
					 "carries %.3g frames at the line rate "
					 "of %g bit/s: is the line rate right?",
					 pi->name, d, p->frame_sizes[i], n,
					 line);
	}
	return 0;
}

static int r2544_validate(const struct bm_procedure_info *pi,
			  json_object *params, double line,
			  struct bm_error *err)
{
	struct rfc2544_params p;

	return r2544_parse(pi, params, line, &p, err);
}

static json_object *r2544_defaults(const struct bm_procedure_info *pi)
{
	struct rfc2544_params p;

	rfc2544_params_default(&p, pi->test);
	return rfc2544_params_to_json(&p, pi->test);
}

static int r2544_max_trials(const struct bm_procedure_info *pi,
			    json_object *params, double line,
			    unsigned int n_ports, double *n,
			    struct bm_error *err)
{
	struct rfc2544_params p;
	int ret;

	(void)n_ports;
	ret = r2544_parse(pi, params, line, &p, err);
	if (!ret)
		*n = rfc2544_max_trials(&p, pi->test);
	return ret;
}

static int r2544_run(const struct bm_procedure_info *pi, json_object *params,
		     struct bm_backend *be, bm_progress_fn progress, void *ctx,
		     json_object **result, struct bm_error *err)
{
	struct rfc2544_params p;
	struct bm_dut_cmd rc;
	char what[48];
	int ret;

	ret = r2544_parse(pi, params, be->line_rate_bps, &p, err);
	if (ret)
		return ret;
	if (p.reset[0]) {
		/* bmd gives the backend the command of the reset the job
		 * names; a name without one must not fall back to anything */
		if (!be->reset_command)
			return bm_errorf(err, "%s: reset: no command for reset '%s'",
					 pi->name, p.reset);
		snprintf(what, sizeof(what), "reset '%s'", p.reset);
		rc = (struct bm_dut_cmd){
			.name = what, .command = be->reset_command,
			.timeout_s = p.reset_timeout_s, .progress = progress,
			.progress_ctx = ctx,
		};
		p.reset_hook = bm_dut_command_run;
		p.reset_ctx = &rc;
	} else if (be->ops->dut_reset) {
		/* A backend that can reset its DUT (the simulator). */
		p.reset_hook = bm_backend_dut_reset;
		p.reset_ctx = be;
	}
	return rfc2544_run(pi->test, be, &p, progress, ctx, result, err);
}

/* Every RFC 2544 test: two ports (SPEC 12, R2544-*: 1 tx + 1 rx), the
 * keys of rfc2544_keys[] for its mask, --duration = trial_duration_s where
 * the test has one trial duration. */
#define R2544(t, nm, dur, sum, ids) { \
	.name = nm, .summary = sum, .refs = ids, .ports_needed = 2, \
	.keys = rfc2544_keys, .mask = RFC2544_MASK(t), .test = t, \
	.duration_key = dur, .sizes_key = "frame_sizes", \
	.validate = r2544_validate, .defaults = r2544_defaults, \
	.max_trials = r2544_max_trials, .run = r2544_run }

const struct bm_procedure_info rfc2544_procedures[] = {
	R2544(RFC2544_THROUGHPUT, "rfc2544.throughput", "trial_duration_s",
	      "RFC 2544 §26.1 throughput: binary search (or MLRsearch) for "
	      "the highest zero-loss rate", "R2544-THRPT, R2544-DUR"),
	R2544(RFC2544_LATENCY, "rfc2544.latency", "trial_duration_s",
	      "RFC 2544 §26.2 latency at the throughput rate, >= 20 "
	      "tagged-frame repetitions", "R2544-LAT"),
	R2544(RFC2544_FRAME_LOSS, "rfc2544.frame-loss", "trial_duration_s",
	      "RFC 2544 §26.3 frame loss rate from 100 % down until two "
	      "zero-loss trials", "R2544-FLR"),
	R2544(RFC2544_BACK_TO_BACK, "rfc2544.back-to-back", "trial_duration_s",
	      "RFC 2544 §26.4 longest loss-free burst at minimum gap, "
	      "repeated", "R2544-B2B"),
	/* Overload and observation are two durations: neither is "the"
	 * trial duration, so --duration names no key here. */
	R2544(RFC2544_RECOVERY, "rfc2544.recovery", NULL,
	      "RFC 2544 §26.5 recovery time after 110 % overload",
	      "R2544-RECOV"),
	R2544(RFC2544_RESET, "rfc2544.reset", "trial_duration_s",
	      "RFC 2544 §26.6 outage caused by a DUT reset", "R2544-RESET"),
	/* RFC 9004's update of §26.4, a plug-in (rfc9004_b2b.c) */
	{ .name = "rfc9004.back-to-back", .summary = "RFC 9004 back-to-back "
	  "frames below the throughput, with the implied and corrected DUT "
	  "buffer times", .refs = "R2544-B2B, R2544-SIZES", .ports_needed = 2,
	  .keys = r9004_b2b_keys, .writers = r9004_b2b_writers,
	  .sizes_key = "frame_sizes",
	  .validate = r9004_b2b_validate, .defaults = r9004_b2b_defaults_json,
	  .max_trials = r9004_b2b_bound, .run = r9004_b2b_run_proc },
	{ .name = NULL },
};

// SPDX-License-Identifier: GPL-2.0
/*
 * RFC 2544 §23e between trials: "wait for at least five seconds for the
 * device to restabilize" (SPEC REQ-TRIAL-1 step 5).  A backend over the
 * job's that waits restabilise_s before every trial but the run's first
 * (after a trial, before the next: the step is the trial's last), in
 * host time on a device, and on the backend's clock either way (a dry
 * run's elapsed time tells the truth without taking it; MLRsearch's time
 * limit counts it as it counts the drain).  The searches and the six tests run their
 * trials on it unchanged.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rfc2544_int.h"

struct r2544_settle {
	struct bm_backend be;		/* first: the run's view */
	struct bm_backend *inner;
	double settle_s;
	unsigned int done;		/* trials run through it */
};

static void wait_s(double s)
{
	struct timespec ts;

	ts.tv_sec = (time_t)s;
	ts.tv_nsec = (long)((s - (double)ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static int settle_run(struct bm_backend *be, const struct bm_trial_spec *spec,
		      struct bm_trial_result *res, struct bm_error *err)
{
	struct r2544_settle *s = (struct r2544_settle *)be;
	int ret;

	if (s->done++ && s->settle_s > 0.0) {
		/* the run's time counts it, as it counts the drain */
		if (!s->inner->virtual_clock)
			wait_s(s->settle_s);
		s->inner->elapsed_s += s->settle_s;
	}
	ret = bm_run_trial(s->inner, spec, res, err);
	be->elapsed_s = s->inner->elapsed_s;
	memcpy(be->frame_hex, s->inner->frame_hex, sizeof(be->frame_hex));
	return ret;
}

static int settle_reset(struct bm_backend *be)
{
	struct r2544_settle *s = (struct r2544_settle *)be;

	return s->inner->ops->dut_reset(s->inner);
}

static void settle_destroy(struct bm_backend *be)
{
	free(be);
}

/* A reset goes through when the job's backend has one: the tests ask
 * for it by its being there. */
static const struct bm_backend_ops settle_ops = {
	.run_trial = settle_run,
	.destroy = settle_destroy,
	.dut_reset = NULL,
};

static const struct bm_backend_ops settle_reset_ops = {
	.run_trial = settle_run,
	.destroy = settle_destroy,
	.dut_reset = settle_reset,
};

struct bm_backend *r2544_settle_new(struct bm_backend *inner, double settle_s)
{
	struct r2544_settle *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->be = *inner;
	s->be.ops = inner->ops->dut_reset ? &settle_reset_ops : &settle_ops;
	s->be.priv = NULL;
	s->inner = inner;
	s->settle_s = settle_s;
	return &s->be;
}

void r2544_settle_free(struct bm_backend *be)
{
	free(be);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The trial every search and procedure runs through bm_search_measure()
 * (a search: the measurer's trial at a load) or bm_search_trial() (a
 * procedure's own trial): run, logged (the result's "trials"), reported
 * to the progress callback.  Below the searches, so that each of them and the
 * rate search that picks one call down to it.
 */
#include <errno.h>
#include <stdio.h>

#include "bm_search.h"
#include "bm_traffic.h"

/* Log the trial just run and tell progress; as bm_search_trial. */
static int search_logged(const struct bm_trial_spec *spec,
			 const struct bm_trial_result *res,
			 struct bm_trial_log *log, const char *phase,
			 const char *reason, bm_progress_fn progress,
			 void *ctx, struct bm_error *err)
{
	char line[160];

	if (bm_trial_log_add(log, phase, reason, spec, res)) {
		bm_errorf(err, "out of memory");
		return -ENOMEM;
	}
	bm_trial_record_offered(&log->v[log->n - 1]);
	if (!progress)
		return 0;
	if (spec->pair.pattern == BM_PAT_BURST)
		snprintf(line, sizeof(line),
			 "%s: %u B burst of %llu frames: lost %llu", phase,
			 spec->frame_size,
			 (unsigned long long)spec->pair.burst_frames,
			 (unsigned long long)res->lost);
	else
		snprintf(line, sizeof(line),
			 "%s: %u B at %.2f fps for %g s: lost %llu of %llu",
			 phase, spec->frame_size, spec->traffic ?
			 log->v[log->n - 1].traffic_fps : spec->pair.rate_fps,
			 spec->duration_s, (unsigned long long)res->lost,
			 (unsigned long long)res->attempted);
	if (progress(ctx, &log->v[log->n - 1], line)) {
		bm_errorf(err, "cancelled");
		return -ECANCELED;
	}
	return 0;
}

bool bm_search_keep_failed(const struct bm_trial_spec *spec,
			   const struct bm_trial_result *res,
			   struct bm_trial_log *log, const char *reason)
{
	if (!res->sync.failed[0] ||
	    bm_trial_log_add(log, "failed", reason, spec, res))
		return false;
	bm_trial_record_offered(&log->v[log->n - 1]);
	return true;
}

/* A failed trial logged when a pool's host failed it (not reported to
 * progress), and ret returned all the same. */
static int search_failed(int ret, const struct bm_trial_spec *spec,
			 const struct bm_trial_result *res,
			 struct bm_trial_log *log, const char *reason)
{
	bm_search_keep_failed(spec, res, log, reason);
	return ret;
}

int bm_search_trial(struct bm_backend *be, const struct bm_trial_spec *spec,
		    struct bm_trial_result *res, struct bm_trial_log *log,
		    const char *phase, const char *reason,
		    bm_progress_fn progress, void *ctx, struct bm_error *err)
{
	int ret = bm_run_trial(be, spec, res, err);

	return ret ? search_failed(ret, spec, res, log, reason) :
		     search_logged(spec, res, log, phase, reason, progress,
				   ctx, err);
}

int bm_search_measure(const struct bm_measurer *m, double duration_s,
		      double load_fps, struct bm_trial_spec *spec,
		      struct bm_trial_result *res, struct bm_trial_log *log,
		      const char *phase, const char *reason,
		      bm_progress_fn progress, void *ctx, struct bm_error *err)
{
	int ret = bm_measure(m, duration_s, load_fps, spec, res, err);

	return ret ? search_failed(ret, spec, res, log, reason) :
		     search_logged(spec, res, log, phase, reason, progress,
				   ctx, err);
}

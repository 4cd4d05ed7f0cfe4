// SPDX-License-Identifier: GPL-2.0
/*
 * A dry-run job: the input is one submit line (what bmctl run ...
 * --dry-run sends), which the bmd engine in this process takes as from a
 * client and runs to its end as it runs every dry run: submit checks,
 * the procedure's and the sim's parameters, the worker thread, the
 * procedure on the simulated device, the result's meta, its JSON and CSV
 * files.  A submit without dry_run runs on the simulator too, on the
 * fake ports it names: the backend factory takes every job as a dry run.
 *
 * So that any input is fast: a job runs at most FUZZ_MAX_TRIALS trials
 * (the next one fails, and so does the job, through the same paths as a
 * backend's error), and the fuzz build simulates at most
 * BM_SIM_MAX_FRAMES frames in a frame-level trial (Makefile).
 *
 * Invariants: the reply as in fuzz_request; the job ends (done, failed
 * or cancelled); a failed job says why in one line; a done job has its
 * result; every result file is strict JSON with the procedure, its
 * params, trials, results and meta.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bm_proto.h"
#include "daemon_int.h"
#include "util.h"

#define FUZZ_MAX_TRIALS	64

static struct bmd *d;
static const struct bm_backend_ops *sim_ops;
static struct bm_backend_ops capped_ops;

static int capped_run(struct bm_backend *be, const struct bm_trial_spec *spec,
		      struct bm_trial_result *res, struct bm_error *err)
{
	if (be->trials >= FUZZ_MAX_TRIALS)
		return bm_errorf(err, "fuzz: a job runs at most %d trials",
				 FUZZ_MAX_TRIALS);
	return sim_ops->run_trial(be, spec, res, err);
}

/* bmd's own dry-run backend for every job, its trials counted.  One job
 * runs at a time, so the ops need no lock. */
static struct bm_backend *sim_only(void *ctx, const struct bmd_job_desc *jd,
				   struct bm_error *err)
{
	struct bmd_job_desc dry = *jd;
	struct bm_backend *be;

	dry.dry_run = true;
	be = bmd_backend_default(ctx, &dry, err);
	if (!be)
		return NULL;
	sim_ops = be->ops;
	capped_ops = *be->ops;
	capped_ops.run_trial = capped_run;
	be->ops = &capped_ops;
	return be;
}

static char *read_file(const char *path, size_t *n)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t cap = 0, k;

	if (!f)
		fuzz_fail("%s: %s", path, strerror(errno));
	*n = 0;
	for (;;) {
		if (*n + 4096 > cap) {
			cap = cap ? 2 * cap : 65536;
			buf = realloc(buf, cap);
			if (!buf)
				fuzz_fail("out of memory");
		}
		k = fread(buf + *n, 1, cap - *n, f);
		if (!k)
			break;
		*n += k;
	}
	fclose(f);
	return buf;
}

static void check_result(const struct bmd_job *j)
{
	static const char *const keys[] = {
		"procedure", "params", "trials", "results", "meta", NULL,
	};
	const char *const *k;
	char path[512];
	json_object *o;
	size_t n;
	char *text;

	snprintf(path, sizeof(path), "%s/%lu.json", d->results_dir, j->id);
	text = read_file(path, &n);
	o = fuzz_json_strict(text, n, "result file");
	for (k = keys; *k; k++)
		if (!json_object_object_get_ex(o, *k, NULL))
			fuzz_fail("job %lu (%s): result without '%s'", j->id,
				  job_state_name(j->state), *k);
	json_object_put(o);
	free(text);
	snprintf(path, sizeof(path), "%s/%lu.csv", d->results_dir, j->id);
	if (access(path, R_OK))
		fuzz_fail("job %lu: JSON result without its CSV", j->id);
}

static void check_job(const struct bmd_job *j)
{
	/* FUZZ_VERBOSE=1: what each input's job did (for seeds) */
	if (getenv("FUZZ_VERBOSE"))
		fprintf(stderr, "fuzz: job %s %s, %u trials%s%s\n",
			j->procedure, job_state_name(j->state), j->trials,
			j->error[0] ? ": " : "", j->error);
	if (!job_finished(j))
		fuzz_fail("job %lu still %s after its worker ended", j->id,
			  job_state_name(j->state));
	if (j->state == JOB_FAILED)
		fuzz_one_line(j->error, "failed job's error");
	else if (j->state == JOB_DONE && !j->has_result)
		fuzz_fail("job %lu done without a result", j->id);
	if (j->has_result)
		check_result(j);
}

/* Leave nothing of job id for the next input. */
static void remove_files(unsigned long id)
{
	static const char *const fmt[] = {
		"%s/%lu.json", "%s/%lu.csv", "%s/jobs/%lu.json",
	};
	char path[512];
	size_t i;

	for (i = 0; i < sizeof(fmt) / sizeof(fmt[0]); i++) {
		snprintf(path, sizeof(path), fmt[i], d->results_dir, id);
		unlink(path);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bmd_client c = { .fd = -1, .stream_fd = -1, .replay_fd = -1,
				.uid = 1000, .pid = 4242 };
	char *sent;
	size_t sent_len;
	const uint8_t *nl = memchr(data, '\n', size);
	struct bmd_job *j;

	if (!d)
		d = fuzz_bmd(sim_only, NULL, 0);
	c.d = d;	/* the client's bmd, as client_new() sets it */
	/* One request: one job at most, so that jobs never run side by
	 * side and an input's run is repeatable. */
	if (nl)
		size = nl - data;
	if (bm_linebuf_append(&c.in, (const char *)data, size) ||
	    bm_linebuf_append(&c.in, "\n", 1))
		fuzz_fail("out of memory");
	pthread_mutex_lock(&d->lock);
	d->clients = &c;
	sent = fuzz_client_run(d, &c, &sent_len);
	d->clients = NULL;
	while (d->running)
		pthread_cond_wait(&d->idle, &d->lock);
	jobs_reap(d);
	for (j = d->jobs; j; j = j->next) {
		check_job(j);
		remove_files(j->id);
	}
	jobs_free(d);
	d->next_id = 1;
	pthread_mutex_unlock(&d->lock);

	fuzz_client_done(&c, sent, sent_len);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * bmd's port-aware queue and one worker thread per running job: a job
 * starts when none of its ports is busy, its worker runs the procedure
 * outside the lock, appends each trial to the job's events file, and
 * stores the result.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include "bm_genl.h"
#include "bm_procedure.h"
#include "bm_result.h"
#include "bm_store.h"
#include "daemon_int.h"

static bool same(const char *a, const char *b)
{
	return a && b && a[0] && !strcmp(a, b);
}

bool bmd_ports_conflict(unsigned int n1, const char *const *p1,
			unsigned int n2, const char *const *p2)
{
	unsigned int i, k;

	/* At most 256 x 256 names, for the few jobs not yet finished. */
	for (i = 0; i < n1; i++)
		for (k = 0; k < n2; k++)
			if (same(p1[i], p2[k]))
				return true;
	return false;
}

/* Dry runs touch no port, so they never wait for one; any port two real
 * jobs share makes them wait (an N-port job holds all of its ports). */
static bool jobs_conflict(const struct bmd_job *a, const struct bmd_job *b)
{
	const char *pa[BM_BACKEND_MAX_PORTS], *pb[BM_BACKEND_MAX_PORTS];
	unsigned int i;

	if (a->dry_run || b->dry_run)
		return false;
	for (i = 0; i < a->n_ports; i++)
		pa[i] = a->ports[i];
	for (i = 0; i < b->n_ports; i++)
		pb[i] = b->ports[i];
	return bmd_ports_conflict(a->n_ports, pa, b->n_ports, pb);
}

/* Must j wait?  Yes if a running job, or an earlier queued job (FIFO: a
 * later job never overtakes an earlier one on the same port), shares a
 * port with it. */
static bool job_blocked(struct bmd *d, const struct bmd_job *j)
{
	struct bmd_job *k;

	for (k = d->jobs; k; k = k->next) {
		if (k == j || job_finished(k))
			continue;
		if (k->state == JOB_QUEUED && k->id > j->id)
			continue;
		if (jobs_conflict(j, k))
			return true;
	}
	return false;
}

static void *worker(void *arg);

void jobs_schedule(struct bmd *d)
{
	struct bmd_job *j;
	int ret;

	if (d->shutting_down)
		return;
	for (j = d->jobs; j; j = j->next) {
		if (j->state != JOB_QUEUED || job_blocked(d, j))
			continue;
		j->state = JOB_RUNNING;
		j->started = bmd_now();
		j->thread_done = false;
		ret = pthread_create(&j->thread, NULL, worker, j);
		if (ret) {
			j->state = JOB_FAILED;
			j->ended = j->started;
			snprintf(j->error, sizeof(j->error),
				 "cannot start worker: %s", strerror(ret));
			job_persist(j);
			job_notify_end(j);
			continue;
		}
		j->thread_live = true;
		d->running++;
		job_persist(j);
		job_log(j, "started");
	}
}

void jobs_reap(struct bmd *d)
{
	struct bmd_job *j;

	for (j = d->jobs; j; j = j->next) {
		if (j->thread_live && j->thread_done) {
			pthread_join(j->thread, NULL);
			j->thread_live = false;
		}
	}
}

/* Append ev as one line to j's events file, opened at the first event.
 * A failure loses history, never the job: logged once.  d->lock held. */
static void job_events_append(struct bmd_job *j, json_object *ev)
{
	char path[PATH_MAX];
	size_t len, off = 0;
	ssize_t n;
	char *line;

	if (j->events_err)
		return;
	if (j->events_fd < 0) {
		job_events_path(j->d, j->id, path, sizeof(path));
		j->events_fd = open(path, O_WRONLY | O_APPEND | O_CREAT |
				    O_TRUNC | O_CLOEXEC | O_NOFOLLOW,
				    j->d->results_mode);
		if (j->events_fd < 0) {
			j->events_err = true;
			bmd_logf(j->d, LOG_ERR, "job %lu: %s: %s", j->id, path,
				 strerror(errno));
			return;
		}
	}
	line = bm_proto_line(ev, &len);
	while (line && off < len) {
		n = write(j->events_fd, line + off, len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		off += n;
	}
	if (!line || off < len) {
		j->events_err = true;
		bmd_logf(j->d, LOG_ERR, "job %lu: events file: %s: watch history is incomplete",
			 j->id, line ? strerror(errno) : "out of memory");
	}
	free(line);
}

struct worker_ctx {
	struct bmd_job *job;
	char ts_source[16];
	/* What a real run of a dry run's trials would add to the simulated
	 * time: each trial's learning pause and drain wait, which the
	 * simulator does not pass (bmd.8, "real_run") */
	double waits_s;
	unsigned long trials;
	double sim_elapsed_s;		/* the simulator's clock at the end */
	/* The parameters the submitter gave, by name: a report shows
	 * these first, the procedure's defaults after them */
	json_object *given;
};

static int cmp_names(const void *a, const void *b)
{
	return strcmp(json_object_get_string(*(json_object *const *)a),
		      json_object_get_string(*(json_object *const *)b));
}

/* The names of the parameters in params (the request's), sorted; NULL
 * when there is none. */
static json_object *given_keys(json_object *params)
{
	json_object *a;

	if (!params || !json_object_is_type(params, json_type_object))
		return NULL;
	a = json_object_new_array();
	json_object_object_foreach(params, k, v) {
		(void)v;
		json_object_array_add(a, json_object_new_string(k));
	}
	json_object_array_sort(a, cmp_names);
	return a;
}

/* Of the names in given, those the result's params show: a secret (an
 * SNMP community) is never written, not even by name. */
static json_object *given_shown(json_object *given, json_object *result)
{
	json_object *params = NULL, *a = json_object_new_array();
	size_t i;

	json_object_object_get_ex(result, "params", &params);
	for (i = 0; i < json_object_array_length(given); i++) {
		json_object *k = json_object_array_get_idx(given, i);

		if (params && json_object_object_get_ex(params,
				json_object_get_string(k), NULL))
			json_object_array_add(a, json_object_get(k));
	}
	return a;
}

/* The waits a real trial of rec spends beside its traffic: the learning
 * pause (RFC 2544 §23b, 2 s unless set) and the drain (§23d). */
static double trial_waits_s(const struct bm_trial_record *rec)
{
	double pause = rec->spec.learning_pause_s < 0 ? 2.0 :
		       rec->spec.learning_pause_s;

	return (rec->spec.learning ? pause : 0.0) +
	       (rec->spec.drain_s > 0 ? rec->spec.drain_s : 0.0);
}

/* A dry run's estimate of the real run: its trials and the time they
 * would take on a DUT (the simulated trials, the waits between them the
 * simulator counts, and the learning and drain waits it does not). */
static json_object *real_run_estimate(const struct worker_ctx *w)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "trials", json_object_new_int64(
		(int64_t)w->trials));
	json_object_object_add(o, "duration_s", json_object_new_double(
		w->sim_elapsed_s + w->waits_s));
	json_object_object_add(o, "basis", json_object_new_string(
		"the simulated trials' durations and the waits between them, "
		"plus each trial's learning pause and drain wait; a DUT that "
		"loses where the simulator did not takes other trials"));
	return o;
}

static int on_progress(void *ctx, const struct bm_trial_record *rec,
		       const char *status_line)
{
	struct worker_ctx *w = ctx;
	struct bmd_job *j = w->job;
	struct bmd *d = j->d;
	json_object *ev;
	int cancel;

	if (rec && rec->res.ts_source[0])
		snprintf(w->ts_source, sizeof(w->ts_source), "%s",
			 rec->res.ts_source);
	if (rec) {
		w->trials++;
		w->waits_s += trial_waits_s(rec);
	}
	pthread_mutex_lock(&d->lock);
	if (rec)
		j->trials++;
	if (status_line)
		snprintf(j->status_line, sizeof(j->status_line), "%s",
			 status_line);
	ev = json_object_new_object();
	json_object_object_add(ev, "ok", json_object_new_boolean(true));
	json_object_object_add(ev, "event", json_object_new_string("progress"));
	json_object_object_add(ev, "job", json_object_new_int64(j->id));
	json_object_object_add(ev, "trials", json_object_new_int64(j->trials));
	json_object_object_add(ev, "status", json_object_new_string(
		j->status_line));
	if (rec)
		json_object_object_add(ev, "trial",
				       bm_trial_record_to_json(
					       rec, j->line_rate_bps, -1));
	job_events_append(j, ev);
	json_object_put(j->last_event);
	j->last_event = json_object_get(ev);
	j->mem_events = 1;
	if (j->mem_events > j->mem_events_peak)
		j->mem_events_peak = j->mem_events;
	clients_broadcast(d, j->id, ev, false);
	json_object_put(ev);
	cancel = j->cancel_req;
	pthread_mutex_unlock(&d->lock);
	return cancel;
}

/* Append what bmd adds to a result's deviations (the NDE gate's: a
 * forced run, a TCP host that fell short; the generator's capacity) to
 * the result's own. */
static void add_deviations(json_object *result, json_object *dev)
{
	json_object *a;
	size_t i;

	if (!json_object_array_length(dev))
		return;
	if (!json_object_object_get_ex(result, "deviations", &a) ||
	    !json_object_is_type(a, json_type_array)) {
		a = json_object_new_array();
		json_object_object_add(result, "deviations", a);
	}
	for (i = 0; i < json_object_array_length(dev); i++)
		bm_json_add_str_once(a, json_object_get_string(
			json_object_array_get_idx(dev, i)));
}

/*
 * A warning before the first trial (REQ-GEN-6: rates the generator will
 * not carry): an event for bmctl to show at once, the job's log, and
 * later the result's deviations.  d->lock held.
 */
static void job_warning(struct bmd_job *j, const char *msg)
{
	json_object *ev = json_object_new_object();

	json_object_object_add(ev, "ok", json_object_new_boolean(true));
	json_object_object_add(ev, "event", json_object_new_string("warning"));
	json_object_object_add(ev, "job", json_object_new_int64(j->id));
	json_object_object_add(ev, "message", json_object_new_string(msg));
	job_events_append(j, ev);
	clients_broadcast(j->d, j->id, ev, false);
	json_object_put(ev);
	bmd_logf(j->d, LOG_WARNING, "job %lu: %s", j->id, msg);
}

/* The kthreads a stream of a job may use: bmd.conf tx-kthreads, at most
 * the module's CPUs (all of them with auto). */
static unsigned int job_kthreads(const struct bmd *d)
{
	struct bm_module_status st;
	struct bm_error e;
	unsigned int cpus = 0, k = d->tx_kthreads ? d->tx_kthreads : 1;

	if (!bm_genl_status(&st, &e))
		cpus = st.cpus;
	if (d->tx_kthreads == BMD_TX_KTHREADS_AUTO)
		return cpus ? cpus : 1;
	return cpus && k > cpus ? cpus : k;
}

/* Does bmd.conf's ports allow every port of j now?  The policy never
 * changes and j's ports stay put: no lock needed. */
static int job_ports_ok(const struct bmd_job *j, struct bm_error *err)
{
	unsigned int i;

	for (i = 0; !j->dry_run && i < j->n_ports; i++)
		if (bmd_port_check(j->d, j->ports[i], err))
			return -EINVAL;
	return 0;
}

/*
 * Finish job j's result: its meta (desc, the backend, the stamps the
 * trials had, the NDE it was gated on), the deviations of the run, what
 * ended it (ret, err), its params and id; and store it.  A reference to
 * the result when it could not be stored (store_err says why), else
 * NULL: a full disk loses no result, bmd keeps it and writes it as soon
 * as there is room (jobs_store_pending).
 */
static json_object *worker_result(struct bmd_job *j,
				  const struct bmd_job_desc *desc,
				  double started, const char *backend,
				  const struct worker_ctx *w, json_object *nde,
				  json_object *nde_dev, json_object *params,
				  int ret, const struct bm_error *err,
				  json_object *result,
				  struct bm_error *store_err)
{
	struct bmd *d = j->d;
	json_object *meta;

	meta = bmd_result_meta(desc, started, bmd_now(), backend,
			       w->ts_source[0] ? w->ts_source :
			       !strcmp(backend, "sim") ? "sim" : NULL,
			       d->sysfs_net);
	if (nde)
		json_object_object_add(meta, "nde", json_object_get(nde));
	if (j->dry_run)
		json_object_object_add(meta, "real_run", real_run_estimate(w));
	if (w->given)
		json_object_object_add(meta, "params_given",
				       given_shown(w->given, result));
	json_object_object_add(result, "meta", meta);
	add_deviations(result, nde_dev);
	/* a failed or cancelled job's result says so in itself */
	bm_result_mark_partial(result, ret, ret == -ECANCELED ?
			       "cancelled" : err->msg);
	if (!json_object_object_get_ex(result, "params", NULL))
		json_object_object_add(result, "params",
				       json_object_get(params));
	if (!json_object_object_get_ex(result, "job", NULL))
		json_object_object_add(result, "job",
				       json_object_new_int64(j->id));
	if (bmd_store_result(d, j->id, result, store_err))
		return json_object_get(result);
	return NULL;
}

/*
 * Job j has ended as end (a cancel becomes what the cancel asked for):
 * its state, error and result kept (unsaved: the reference
 * worker_result returned), its file written, its watchers told, and the
 * queue moved on.
 */
static void worker_ended(struct bmd_job *j, enum job_state end,
			 const struct bm_error *err, json_object *result,
			 json_object *unsaved,
			 const struct bm_error *store_err)
{
	struct bmd *d = j->d;

	pthread_mutex_lock(&d->lock);
	if (end == JOB_CANCELLED)
		end = j->cancel_to;
	j->state = end;
	j->ended = bmd_now();
	if (end == JOB_FAILED)
		snprintf(j->error, sizeof(j->error), "%s",
			 err->msg[0] ? err->msg : "procedure failed");
	else if (end == JOB_INTERRUPTED)
		snprintf(j->error, sizeof(j->error), "bmd stopped");
	else if (end == JOB_CANCELLED)
		snprintf(j->error, sizeof(j->error), "cancelled by %s",
			 j->cancel_by[0] ? j->cancel_by : "request");
	if (result) {
		char path[PATH_MAX];

		snprintf(path, sizeof(path), "%s/%lu.json", d->results_dir,
			 j->id);
		j->has_result = unsaved || !access(path, F_OK);
	}
	if (unsaved) {
		j->unsaved_result = unsaved;
		snprintf(j->unsaved_why, sizeof(j->unsaved_why), "%s",
			 store_err->msg);
		bmd_logf(d, LOG_ERR, "job %lu: its result is not stored (%s): bmd keeps it and stores it when there is room",
			 j->id, store_err->msg);
		d->store_pending = true;
	}
	job_persist(j);
	job_notify_end(j);
	j->thread_done = true;
	d->running--;
	jobs_schedule(d);
	pthread_cond_broadcast(&d->idle);
	bmd_wake(d);
	pthread_mutex_unlock(&d->lock);
}

static void *worker(void *arg)
{
	struct worker_ctx w = { .job = arg };
	struct bmd_job *j = arg;
	struct bmd *d = j->d;
	struct bm_error err = { "" }, store_err = { "" };
	struct bmd_job_desc desc;
	unsigned int i;
	json_object *params, *sim, *dut, *result = NULL, *mode;
	json_object *unsaved = NULL;
	json_object *nde = NULL, *nde_dev;
	json_object *before = NULL, *after = NULL;
	char why[256] = "";
	bool counters = d->dut_counters && !j->dry_run;
	struct bm_tx_capacity *cap;
	struct bm_backend *be;
	enum job_state end = JOB_FAILED;
	const char *backend = "?";
	double started;
	int ret = 0;

	pthread_mutex_lock(&d->lock);
	params = NULL;
	json_object_deep_copy(j->params, &params, NULL);
	w.given = given_keys(j->params);
	sim = NULL;
	if (j->sim)
		json_object_deep_copy(j->sim, &sim, NULL);
	dut = NULL;
	if (j->dut)
		json_object_deep_copy(j->dut, &dut, NULL);
	started = j->started;
	/* j->ports stays put until the job is freed, after its worker */
	job_desc_of(j, &desc);
	desc.sim = sim;
	desc.dut = dut;
	desc.router = dut && json_object_object_get_ex(dut, "mode", &mode) &&
		      !strcmp(json_object_get_string(mode), "router");
	desc.no_hw_timestamps = d->no_hw_timestamps;
	desc.no_tcp_engine = d->no_tcp_engine;
	desc.tx_kthreads = d->tx_kthreads;
	desc.tx_path = d->tx_path;
	desc.hosts = &d->hosts;
	/* the job's own, tighter than bmd's (submit_tolerance_ok) */
	desc.sync_tolerance_us = j->sync_tolerance_us > 0 ?
				 j->sync_tolerance_us : d->sync_tolerance_us;
	cap = j->dry_run ? NULL : calloc(BM_CAPACITY_MAX, sizeof(*cap));
	if (cap)
		desc.n_capacity = bmd_capacity_list(d, desc.ports, desc.n_ports,
						    cap, BM_CAPACITY_MAX);
	desc.capacity = cap;
	pthread_mutex_unlock(&d->lock);

	nde_dev = json_object_new_array();
	if (desc.n_capacity && params) {
		json_object *warn = json_object_new_array();

		bmd_capacity_warn(&desc, params, cap, desc.n_capacity,
				  job_kthreads(d), warn);
		pthread_mutex_lock(&d->lock);
		for (i = 0; i < json_object_array_length(warn); i++) {
			const char *m = json_object_get_string(
				json_object_array_get_idx(warn, i));

			job_warning(j, m);
			bm_json_add_str_once(nde_dev, m);
		}
		pthread_mutex_unlock(&d->lock);
		json_object_put(warn);
	}
	/* A port may have become the host's (an address, a bridge) while
	 * the job waited: checked again before anything touches it.
	 * REQ-TM-2: a stateful TM test waits for a verified NDE */
	be = params && !job_ports_ok(j, &err) &&
	     !bmd_nde_gate(d, j, params, &nde, nde_dev, &err) ?
	     d->backend_new(d->backend_ctx, &desc, &err) : NULL;
	if (!params)
		bm_errorf(&err, "out of memory");
	if (be) {
		const char *reset = bm_procedure_reset_name(j->procedure,
							    params);
		const struct bmd_reset *rs = reset ?
					     bmd_reset_find(d, reset) : NULL;

		/* submit checked the name; the command is bmd's own */
		be->reset_command = rs ? rs->command : NULL;
		be->abort = &j->abort_trial;
		backend = be->name ? be->name : "?";
		/* REQ-TM-4: the DUT's counters before its traffic */
		if (counters)
			before = bmd_counters_read(d, j, "before", on_progress,
						   &w, why, sizeof(why));
		ret = bm_procedure_run(j->procedure, params, be, on_progress,
				       &w, &result, &err);
		w.sim_elapsed_s = be->elapsed_s;
		bmd_backend_free(be);
	}
	/* ... and again once they counted all of it; the job keeps its
	 * ports meanwhile, so no other job's traffic is counted */
	if (be && counters && result) {
		if (before && !bmd_counters_wait(j, d->dut_counters_wait_s,
						 on_progress, &w))
			snprintf(why, sizeof(why), "the job was cancelled "
				 "before the after reading");
		else if (before)
			after = bmd_counters_read(d, j, "after", on_progress,
						  &w, why, sizeof(why));
		bmd_counters_add(result, before, after, why,
				 d->dut_counters_wait_s);
	}
	if (be && ret == 0)
		end = JOB_DONE;
	else if (be && (ret == -ECANCELED || (ret && j->abort_trial)))
		end = JOB_CANCELLED;	/* or interrupted, decided below */

	if (result)
		unsaved = worker_result(j, &desc, started, backend, &w, nde,
					nde_dev, params, ret, &err, result,
					&store_err);
	worker_ended(j, end, &err, result, unsaved, &store_err);

	json_object_put(result);
	json_object_put(before);
	json_object_put(after);
	json_object_put(nde);
	json_object_put(nde_dev);
	free(cap);
	json_object_put(params);
	json_object_put(w.given);
	json_object_put(sim);
	json_object_put(dut);
	return NULL;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * bmd's job: its state, its file DIR/jobs/<id>.json, the ids, its log
 * lines, its events file's name and the storing of its result.  What
 * runs a job is daemon_worker.c; what reads the jobs back at start is
 * daemon_load.c.
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

static const char *const state_names[] = {
	[JOB_QUEUED] = "queued",
	[JOB_RUNNING] = "running",
	[JOB_DONE] = "done",
	[JOB_FAILED] = "failed",
	[JOB_CANCELLED] = "cancelled",
	[JOB_INTERRUPTED] = "interrupted",
};

const char *job_state_name(enum job_state s)
{
	return s <= JOB_INTERRUPTED ? state_names[s] : "?";
}

bool job_finished(const struct bmd_job *j)
{
	return j->state >= JOB_DONE;
}

bool bmd_job_mem_events(struct bmd *d, unsigned long id, unsigned int *now,
			unsigned int *peak)
{
	struct bmd_job *j;

	pthread_mutex_lock(&d->lock);
	j = job_find(d, id);
	if (j) {
		*now = j->mem_events;
		*peak = j->mem_events_peak;
	}
	pthread_mutex_unlock(&d->lock);
	return j != NULL;
}

struct bmd_job *job_find(struct bmd *d, unsigned long id)
{
	struct bmd_job *j;

	for (j = d->jobs; j; j = j->next)
		if (j->id == id)
			return j;
	return NULL;
}

static void add_time(json_object *o, const char *key, double t)
{
	char buf[40];

	if (!t) {
		json_object_object_add(o, key, NULL);
		return;
	}
	bmd_time_iso(t, buf, sizeof(buf));
	json_object_object_add(o, key, json_object_new_string(buf));
}

int job_set_ports(struct bmd_job *j, unsigned int n, const char *const *names)
{
	char (*p)[IFNAMSIZ] = NULL;
	unsigned int i;

	/* As many as the job has: thousands of finished jobs stay loaded,
	 * most with two ports. */
	if (n) {
		p = calloc(n, sizeof(*p));
		if (!p)
			return -ENOMEM;
	}
	for (i = 0; i < n; i++)
		snprintf(p[i], sizeof(p[i]), "%s", names[i]);
	free(j->ports);
	j->ports = p;
	j->n_ports = n;
	return 0;
}

/*
 * The parameters as bmd shows and keeps them: a secret (§11.2's SNMP
 * community) is replaced by "(hidden)", so that neither the job's state
 * file nor the protocol's job request gives it away; the job itself ran
 * from memory.  Built member by member, sharing the values: there is no
 * copy that can fail and leave the secret in (a failed deep copy once
 * returned the parameters as they were).  NULL (shown as null) when out of
 * memory.
 */
json_object *job_params_shown(json_object *params)
{
	static const char *const secret[] = { "mgmt_community" };
	json_object *o = json_object_new_object();
	size_t i;

	if (!o)
		return NULL;
	json_object_object_foreach(params, key, val) {
		bool hide = false;

		for (i = 0; i < sizeof(secret) / sizeof(secret[0]); i++)
			hide = hide || !strcmp(key, secret[i]);
		if (json_object_object_add(o, key, hide ?
					   json_object_new_string("(hidden)") :
					   json_object_get(val))) {
			json_object_put(o);
			return NULL;
		}
	}
	return o;
}

static void job_shown_from_file(const struct bmd_job *j, json_object *o);

json_object *job_to_json(const struct bmd_job *j, bool full)
{
	json_object *o = json_object_new_object(), *ports, *list;
	unsigned int i;
	char name[64];

	json_object_object_add(o, "job", json_object_new_int64(j->id));
	json_object_object_add(o, "state",
			       json_object_new_string(job_state_name(j->state)));
	json_object_object_add(o, "procedure",
			       json_object_new_string(j->procedure));
	/* tx and rx for the clients (and job files) that know only those,
	 * the list for every port */
	ports = json_object_new_object();
	json_object_object_add(ports, "tx", j->n_ports ?
			       json_object_new_string(j->ports[0]) : NULL);
	json_object_object_add(ports, "rx", j->n_ports > 1 ?
			       json_object_new_string(j->ports[1]) : NULL);
	list = json_object_new_array();
	for (i = 0; i < j->n_ports; i++)
		json_object_array_add(list, json_object_new_string(j->ports[i]));
	json_object_object_add(ports, "list", list);
	json_object_object_add(ports, "line_rate_bps",
			       json_object_new_double(j->line_rate_bps));
	if (j->sync_tolerance_us > 0)
		json_object_object_add(ports, "sync_tolerance_us",
				json_object_new_double(j->sync_tolerance_us));
	json_object_object_add(o, "ports", ports);
	json_object_object_add(o, "dry_run", json_object_new_boolean(j->dry_run));
	/* whose job it is: only they (or an admin) may cancel it, also
	 * after a restart */
	json_object_object_add(o, "owner_uid", j->submit_uid >= 0 ?
			       json_object_new_int64(j->submit_uid) : NULL);
	add_time(o, "submitted", j->submitted);
	add_time(o, "started", j->started);
	add_time(o, "ended", j->ended);
	json_object_object_add(o, "trials", json_object_new_int64(j->trials));
	json_object_object_add(o, "status", j->status_line[0] ?
			       json_object_new_string(j->status_line) : NULL);
	json_object_object_add(o, "error", j->error[0] ?
			       json_object_new_string(j->error) : NULL);
	snprintf(name, sizeof(name), "%lu.json", j->id);
	json_object_object_add(o, "result", j->has_result ?
			       json_object_new_string(name) : NULL);
	if (full && j->shed) {
		job_shown_from_file(j, o);
	} else if (full) {
		json_object_object_add(o, "params", job_params_shown(j->params));
		json_object_object_add(o, "sim", json_object_get(j->sim));
		json_object_object_add(o, "dut", json_object_get(j->dut));
	}
	return o;
}

/* A shed job's params, sim and dut into o, as its job file keeps them
 * (the secrets there are hidden already); null where it cannot be read. */
static void job_shown_from_file(const struct bmd_job *j, json_object *o)
{
	static const char *const keys[] = { "params", "sim", "dut" };
	char path[PATH_MAX];
	json_object *f, *v;
	size_t i;

	snprintf(path, sizeof(path), "%s/%lu.json", j->d->jobs_dir, j->id);
	f = bm_read_json(path, NULL, NULL);
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		json_object_object_add(o, keys[i], f &&
				       json_object_object_get_ex(f, keys[i], &v) ?
				       json_object_get(v) : NULL);
	json_object_put(f);
}

void job_shed(struct bmd_job *j)
{
	if (!job_finished(j) || j->shed)
		return;
	json_object_put(j->params);
	json_object_put(j->sim);
	json_object_put(j->dut);
	j->params = j->sim = j->dut = NULL;
	j->shed = true;
}

/* Persist j; failures are logged, not fatal: the job itself goes on. */
int job_persist_err(struct bmd_job *j, struct bm_error *err)
{
	char name[64];
	json_object *o;
	int ret;

	snprintf(name, sizeof(name), "%lu.json", j->id);
	o = job_to_json(j, true);
	ret = bm_write_json_atomic_mode(j->d->jobs_dir, name, o,
					j->d->results_mode, err);
	json_object_put(o);
	j->unsaved_job = ret != 0;
	if (ret && j->d)
		j->d->store_pending = true;
	return ret;
}

void job_persist(struct bmd_job *j)
{
	struct bm_error err = { "" };

	if (job_persist_err(j, &err))
		bmd_logf(j->d, LOG_ERR, "job %lu: %s (bmd writes it again when there is room)",
			 j->id, err.msg);
}

/* The file that keeps the last id bmd handed out (ids_take). */
#define LAST_ID_FILE	".last-id"

/*
 * Take the next job id, durably: written (fsync'ed, renamed into place)
 * before anything else of the job, so that no id is handed out twice,
 * however many job and result files are deleted, lost to a full disk or
 * never written.  0 with *id, or -errno with err set (nothing taken).
 */
int ids_take(struct bmd *d, unsigned long *id, struct bm_error *err)
{
	char text[32];
	int n;

	n = snprintf(text, sizeof(text), "%lu\n", d->next_id);
	if (bm_write_atomic_mode(d->results_dir, LAST_ID_FILE, text,
				 (size_t)n, d->results_mode, err))
		return -EIO;
	*id = d->next_id++;
	return 0;
}

/* The id LAST_ID_FILE keeps, noted: ids continue above it. */
void ids_load(struct bmd *d)
{
	char path[PATH_MAX], text[32] = "";
	unsigned long id;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", d->results_dir, LAST_ID_FILE);
	f = fopen(path, "re");
	if (!f)
		return;
	if (fgets(text, sizeof(text), f) && sscanf(text, "%lu", &id) == 1 &&
	    id < 1000000000000000UL)
		note_id(d, id);
	else
		bmd_logf(d, LOG_WARNING, "%s: not an id: ignored (ids continue above every job file)",
			 path);
	fclose(f);
}

/* Ids are never reused, so the next one is above every id any file of
 * the results directory carries, readable or not. */
void note_id(struct bmd *d, unsigned long id)
{
	if (id >= d->next_id)
		d->next_id = id + 1;
}

void job_append(struct bmd *d, struct bmd_job *j)
{
	struct bmd_job **pp = &d->jobs;

	/* Keep id order: the queue is FIFO by id. */
	while (*pp && (*pp)->id < j->id)
		pp = &(*pp)->next;
	j->next = *pp;
	*pp = j;
	j->d = d;
	note_id(d, j->id);
}

void job_discard(struct bmd_job *j)
{
	free(j->procedure);
	free(j->ports);
	json_object_put(j->params);
	json_object_put(j->sim);
	json_object_put(j->dut);
	json_object_put(j->last_event);
	json_object_put(j->unsaved_result);
	if (j->events_fd >= 0)
		close(j->events_fd);
	free(j);
}

void jobs_free(struct bmd *d)
{
	struct bmd_job *j, *n;

	for (j = d->jobs; j; j = n) {
		n = j->next;
		job_discard(j);
	}
	d->jobs = NULL;
}

/* Append one "FIELD=value" to f (n of them, each malloc'ed); a field
 * that does not fit in memory is left out. */
static void field(char **f, size_t *n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void field(char **f, size_t *n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&f[*n], fmt, ap) >= 0)
		(*n)++;
	va_end(ap);
}

/*
 * One log event per step of a job: who submitted it
 * (the connection's SO_PEERCRED), what it runs (procedure, ports, the
 * reset and its command), when it started and ended, and how it ended.
 * Under systemd every field reaches the journal (journalctl JOB_ID=7);
 * on stderr only the message.  Called with d->lock held.
 */
void job_log(struct bmd_job *j, const char *event)
{
	const char *reset = bm_procedure_reset_name(j->procedure, j->params);
	const struct bmd_reset *rs = reset ? bmd_reset_find(j->d, reset) : NULL;
	bool end = !strcmp(event, "ended");
	int prio = LOG_INFO;
	char *f[16], ports[160] = "", t[40], who[64] = "";
	size_t n = 0, i;

	for (i = 0; i < j->n_ports; i++)
		snprintf(ports + strlen(ports), sizeof(ports) - strlen(ports),
			 "%s%s", i ? "," : "", j->ports[i]);
	if (j->submit_uid >= 0)
		snprintf(who, sizeof(who), " by uid %ld pid %ld",
			 j->submit_uid, j->submit_pid);
	if (!strcmp(event, "submitted"))
		field(f, &n, "MESSAGE=job %lu %s submitted%s%s", j->id,
		      j->procedure, who, j->dry_run ? " (dry run)" : "");
	else if (!end)
		field(f, &n, "MESSAGE=job %lu %s started%s%s", j->id,
		      j->procedure, rs ? "; reset " : "", rs ? rs->name : "");
	else
		field(f, &n, "MESSAGE=job %lu %s %s%s%s", j->id, j->procedure,
		      job_state_name(j->state), j->error[0] ? ": " : "",
		      j->error);
	if (end && j->state != JOB_DONE)
		prio = j->state == JOB_FAILED ? LOG_ERR : LOG_WARNING;
	field(f, &n, "JOB_ID=%lu", j->id);
	field(f, &n, "JOB_EVENT=%s", event);
	field(f, &n, "PROCEDURE=%s", j->procedure);
	if (j->submit_uid >= 0) {
		field(f, &n, "SUBMITTER_UID=%ld", j->submit_uid);
		if (j->submit_pid >= 0)
			field(f, &n, "SUBMITTER_PID=%ld", j->submit_pid);
	}
	field(f, &n, "DRY_RUN=%s", j->dry_run ? "yes" : "no");
	if (ports[0])
		field(f, &n, "PORTS=%s", ports);
	/* the name only: a command may carry the DUT's password, and the
	 * journal's readers are not bmd.conf's */
	if (rs)
		field(f, &n, "RESET=%s", rs->name);
	if (j->started) {
		bmd_time_iso(j->started, t, sizeof(t));
		field(f, &n, "JOB_START=%s", t);
	}
	if (end) {
		bmd_time_iso(j->ended, t, sizeof(t));
		field(f, &n, "JOB_END=%s", t);
		field(f, &n, "VERDICT=%s", job_state_name(j->state));
		field(f, &n, "TRIALS=%u", j->trials);
		if (j->error[0])
			field(f, &n, "JOB_ERROR=%s", j->error);
	}
	bmd_log(j->d, prio, (const char *const *)f, n);
	for (i = 0; i < n; i++)
		free(f[i]);
}

void job_log_cancel(struct bmd_job *j, uid_t uid, pid_t pid)
{
	char *f[8];
	size_t n = 0, i;

	field(f, &n, "MESSAGE=job %lu %s: cancel requested by uid %u pid %d",
	      j->id, j->procedure, (unsigned int)uid, (int)pid);
	field(f, &n, "JOB_ID=%lu", j->id);
	field(f, &n, "JOB_EVENT=cancel");
	field(f, &n, "PROCEDURE=%s", j->procedure);
	field(f, &n, "CANCEL_UID=%u", (unsigned int)uid);
	field(f, &n, "CANCEL_PID=%d", (int)pid);
	if (j->submit_uid >= 0)
		field(f, &n, "SUBMITTER_UID=%ld", j->submit_uid);
	bmd_log(j->d, LOG_NOTICE, (const char *const *)f, n);
	for (i = 0; i < n; i++)
		free(f[i]);
}

json_object *job_end_event(const struct bmd_job *j)
{
	json_object *msg = json_object_new_object();

	json_object_object_add(msg, "ok", json_object_new_boolean(true));
	json_object_object_add(msg, "event", json_object_new_string("end"));
	json_object_object_add(msg, "job", job_to_json(j, false));
	return msg;
}

void job_events_path(const struct bmd *d, unsigned long id, char *buf,
		     size_t size)
{
	snprintf(buf, size, "%s/%lu.events", d->jobs_dir, id);
}

void job_notify_end(struct bmd_job *j)
{
	json_object *msg = job_end_event(j);

	job_log(j, "ended");
	clients_broadcast(j->d, j->id, msg, true);
	json_object_put(msg);
	json_object_put(j->last_event);
	j->last_event = NULL;
	j->mem_events = 0;
	if (j->events_fd >= 0)
		close(j->events_fd);
	j->events_fd = -1;
	/* told and stored: what only its file needs leaves memory */
	job_shed(j);
}

/* Store result (with meta) as JSON and CSV; 0 or -errno with err set. */
int bmd_store_result(struct bmd *d, unsigned long id, json_object *result,
		     struct bm_error *err)
{
	char name[64];
	char *csv;
	int ret;

	csv = bm_result_csv(result);
	if (!csv) {
		bm_errorf(err, "out of memory writing the CSV");
		return -ENOMEM;
	}
	snprintf(name, sizeof(name), "%lu.csv", id);
	ret = bm_write_atomic_mode(d->results_dir, name, csv, strlen(csv),
				   d->results_mode, err);
	free(csv);
	if (ret)
		return ret;
	/* JSON last: its presence is what marks a complete result. */
	snprintf(name, sizeof(name), "%lu.json", id);
	return bm_write_json_atomic_mode(d->results_dir, name, result,
					 d->results_mode, err);
}

void job_desc_of(const struct bmd_job *j, struct bmd_job_desc *desc)
{
	unsigned int i;

	*desc = (struct bmd_job_desc){
		.id = j->id, .procedure = j->procedure,
		.tx_port = j->n_ports ? j->ports[0] : NULL,
		.rx_port = j->n_ports > 1 ? j->ports[1] : NULL,
		.n_ports = j->n_ports,
		.line_rate_bps = j->line_rate_bps, .dry_run = j->dry_run,
	};
	for (i = 0; i < j->n_ports; i++)
		desc->ports[i] = j->ports[i];
}

int jobs_store_pending(struct bmd *d)
{
	struct bm_error err = { "" };
	struct bmd_job *j;
	int left = 0;

	for (j = d->jobs; j; j = j->next) {
		if (j->unsaved_result) {
			if (bmd_store_result(d, j->id, j->unsaved_result,
					     &err)) {
				left++;
				continue;
			}
			json_object_put(j->unsaved_result);
			j->unsaved_result = NULL;
			j->unsaved_why[0] = '\0';
			bmd_logf(d, LOG_NOTICE, "job %lu: its result is stored now",
				 j->id);
			j->unsaved_job = true;
		}
		if (j->unsaved_job) {
			job_persist_err(j, &err);
			left += j->unsaved_job;
		}
	}
	return left;
}

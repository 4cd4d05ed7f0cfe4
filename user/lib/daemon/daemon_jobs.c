// SPDX-License-Identifier: GPL-2.0
/*
 * bmd jobs: state, persistence in DIR/jobs/<id>.json, the port-aware
 * queue and one worker thread per running job.
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
 * copy that can fail and leave the secret in (issue 16: a failed deep copy
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

static void note_id(struct bmd *d, unsigned long id);

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
static void ids_load(struct bmd *d)
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
static void note_id(struct bmd *d, unsigned long id)
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

/* --- loading after a restart ------------------------------------------- */

static const char *get_str(json_object *o, const char *key)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

/* A job file's port names: ports.list, or (files of a bmd before the
 * list) tx and rx; *n = 0 when there are none.  A name that could not
 * have been submitted makes the list unreadable. */
static int ports_from_json(json_object *ports, const char **names,
			   unsigned int *n)
{
	json_object *list, *v;
	size_t i, len;

	*n = 0;
	if (json_object_object_get_ex(ports, "list", &list) &&
	    json_object_is_type(list, json_type_array) &&
	    json_object_array_length(list)) {
		len = json_object_array_length(list);
		if (len > BM_BACKEND_MAX_PORTS)
			return -EINVAL;
		for (i = 0; i < len; i++) {
			v = json_object_array_get_idx(list, i);
			if (!json_object_is_type(v, json_type_string))
				return -EINVAL;
			names[i] = json_object_get_string(v);
		}
		*n = len;
	} else {
		names[0] = get_str(ports, "tx");
		names[1] = get_str(ports, "rx");
		if (names[0] && names[1])
			*n = 2;
	}
	for (i = 0; i < *n; i++)
		if (!names[i][0] || strlen(names[i]) >= IFNAMSIZ)
			return -EINVAL;
	return 0;
}

static struct bmd_job *job_from_json(json_object *o, unsigned long id)
{
	const char *names[BM_BACKEND_MAX_PORTS];
	struct bmd_job *j;
	json_object *v, *ports;
	unsigned int n = 0;
	const char *s;
	int i;

	s = get_str(o, "procedure");
	if (!s)
		return NULL;
	j = calloc(1, sizeof(*j));
	if (!j)
		return NULL;
	j->id = id;
	j->events_fd = -1;
	j->procedure = strdup(s);
	j->state = JOB_INTERRUPTED;
	j->submit_uid = j->submit_pid = -1;	/* the pid is not kept */
	if (json_object_object_get_ex(o, "owner_uid", &v) &&
	    json_object_is_type(v, json_type_int) &&
	    json_object_get_int64(v) >= 0 &&
	    json_object_get_int64(v) <= UINT32_MAX)
		j->submit_uid = json_object_get_int64(v);
	s = get_str(o, "state");
	for (i = JOB_QUEUED; s && i <= JOB_INTERRUPTED; i++)
		if (!strcmp(s, state_names[i]))
			j->state = i;
	if (json_object_object_get_ex(o, "ports", &ports)) {
		if (ports_from_json(ports, names, &n) ||
		    job_set_ports(j, n, names)) {
			job_discard(j);
			return NULL;
		}
		if (json_object_object_get_ex(ports, "line_rate_bps", &v))
			j->line_rate_bps = json_object_get_double(v);
	}
	if (json_object_object_get_ex(o, "dry_run", &v))
		j->dry_run = json_object_get_boolean(v);
	j->submitted = bmd_time_parse(get_str(o, "submitted"));
	j->started = bmd_time_parse(get_str(o, "started"));
	j->ended = bmd_time_parse(get_str(o, "ended"));
	if (json_object_object_get_ex(o, "trials", &v))
		j->trials = json_object_get_int(v);
	if ((s = get_str(o, "status")))
		snprintf(j->status_line, sizeof(j->status_line), "%s", s);
	if ((s = get_str(o, "error")))
		snprintf(j->error, sizeof(j->error), "%s", s);
	if (json_object_object_get_ex(o, "params", &v) &&
	    json_object_is_type(v, json_type_object))
		j->params = json_object_get(v);
	else
		j->params = json_object_new_object();
	if (json_object_object_get_ex(o, "sim", &v) &&
	    json_object_is_type(v, json_type_object))
		j->sim = json_object_get(v);
	if (json_object_object_get_ex(o, "dut", &v) &&
	    json_object_is_type(v, json_type_object))
		j->dut = json_object_get(v);
	if (!j->procedure || !j->params) {
		job_discard(j);
		return NULL;
	}
	return j;
}

/*
 * The id of a file bmd names "<id><ext>": 1 to 15 decimal digits without a
 * leading zero, then exactly ext.  strtoul() would also take " 7", "+7",
 * "-7" (a huge id, and the next one wraps to 0) and "07", which alias
 * another job or are no job at all.  15 digits keep an id exact in any
 * client's double.  0 when name is not such a name.
 */
static unsigned long id_of(const char *name, const char *ext)
{
	unsigned long id = 0;
	size_t i;

	if (name[0] < '1' || name[0] > '9')
		return 0;
	for (i = 0; name[i] >= '0' && name[i] <= '9'; i++) {
		if (i == 15)
			return 0;
		id = id * 10 + (name[i] - '0');
	}
	return strcmp(name + i, ext) ? 0 : id;
}


/* The ids of DIR/<id>.json and .csv: a result whose job file is gone (or
 * was never written) must not be overwritten by a new job. */
static int results_scan(struct bmd *d, struct bm_error *err)
{
	struct dirent *de;
	DIR *dir;
	int ret;

	dir = opendir(d->results_dir);
	if (!dir) {
		ret = -errno;
		bm_errorf(err, "%s: %s", d->results_dir, strerror(-ret));
		return ret;
	}
	while ((de = readdir(dir))) {
		note_id(d, id_of(de->d_name, ".json"));
		note_id(d, id_of(de->d_name, ".csv"));
	}
	closedir(dir);
	return 0;
}

int jobs_load(struct bmd *d, struct bm_error *err)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *dir;
	int ret;

	ret = results_scan(d, err);
	if (ret)
		return ret;
	ids_load(d);
	dir = opendir(d->jobs_dir);
	if (!dir) {
		bm_errorf(err, "%s: %s", d->jobs_dir, strerror(errno));
		return -errno;
	}
	while ((de = readdir(dir))) {
		struct bmd_job *j;
		unsigned long id;
		json_object *o;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		/* a job's progress events, read by watch, not loaded */
		if (id_of(de->d_name, ".events")) {
			note_id(d, id_of(de->d_name, ".events"));
			continue;
		}
		id = id_of(de->d_name, ".json");
		if (!id) {
			bmd_logf(d, LOG_WARNING, "ignoring %s/%s: not a job file name (<id>.json)",
				 d->jobs_dir, de->d_name);
			continue;
		}
		/* Even an unreadable job file keeps its id from reuse. */
		note_id(d, id);
		snprintf(path, sizeof(path), "%s/%s", d->jobs_dir, de->d_name);
		o = bm_read_json(path, NULL, NULL);
		j = o ? job_from_json(o, id) : NULL;
		json_object_put(o);
		if (!j) {
			bmd_logf(d, LOG_WARNING, "ignoring unreadable %s",
				 path);
			continue;
		}
		snprintf(path, sizeof(path), "%s/%lu.json", d->results_dir, id);
		j->has_result = !access(path, F_OK);
		job_append(d, j);
		/* Nothing runs yet, so a job the file calls queued or
		 * running belonged to a bmd that died: never restart a
		 * benchmark behind the user's back, say what happened. */
		if (!job_finished(j)) {
			bool ran = j->state == JOB_RUNNING;

			snprintf(j->error, sizeof(j->error), ran ?
				 "bmd stopped while the job was running" :
				 "bmd stopped before the job started");
			j->state = JOB_INTERRUPTED;
			if (!j->ended)
				j->ended = bmd_now();
			/* its finished trials are in its events file */
			if (ran && !j->has_result && !job_recover(d, j))
				snprintf(j->error, sizeof(j->error),
					 "bmd stopped while the job was running; its %u finished trials are kept in its result",
					 j->trials);
			job_persist(j);
		}
		job_shed(j);
	}
	closedir(dir);
	return 0;
}

/* --- the queue ---------------------------------------------------------- */

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
 * One log event per step of a job (issue 15 item 2): who submitted it
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

/* --- the worker --------------------------------------------------------- */

struct worker_ctx {
	struct bmd_job *job;
	char ts_source[16];
};

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

static void *worker(void *arg)
{
	struct worker_ctx w = { .job = arg };
	struct bmd_job *j = arg;
	struct bmd *d = j->d;
	struct bm_error err = { "" }, store_err = { "" };
	struct bmd_job_desc desc;
	unsigned int i;
	json_object *params, *sim, *dut, *result = NULL, *meta, *mode;
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

	if (result) {
		meta = bmd_result_meta(&desc, started, bmd_now(), backend,
				       w.ts_source[0] ? w.ts_source : backend,
				       d->sysfs_net);
		if (nde)
			json_object_object_add(meta, "nde",
					       json_object_get(nde));
		json_object_object_add(result, "meta", meta);
		add_deviations(result, nde_dev);
		/* a failed or cancelled job's result says so in itself */
		bm_result_mark_partial(result, ret, ret == -ECANCELED ?
				       "cancelled" : err.msg);
		if (!json_object_object_get_ex(result, "params", NULL))
			json_object_object_add(result, "params",
					       json_object_get(params));
		if (!json_object_object_get_ex(result, "job", NULL))
			json_object_object_add(result, "job",
					       json_object_new_int64(j->id));
		/* a full disk loses no result: bmd keeps it and writes it
		 * as soon as there is room (jobs_store_pending) */
		if (bmd_store_result(d, j->id, result, &store_err))
			unsaved = json_object_get(result);
	}

	pthread_mutex_lock(&d->lock);
	if (end == JOB_CANCELLED)
		end = j->cancel_to;
	j->state = end;
	j->ended = bmd_now();
	if (end == JOB_FAILED)
		snprintf(j->error, sizeof(j->error), "%s",
			 err.msg[0] ? err.msg : "procedure failed");
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
			 store_err.msg);
		bmd_logf(d, LOG_ERR, "job %lu: its result is not stored (%s): bmd keeps it and stores it when there is room",
			 j->id, store_err.msg);
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

	json_object_put(result);
	json_object_put(before);
	json_object_put(after);
	json_object_put(nde);
	json_object_put(nde_dev);
	free(cap);
	json_object_put(params);
	json_object_put(sim);
	json_object_put(dut);
	return NULL;
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

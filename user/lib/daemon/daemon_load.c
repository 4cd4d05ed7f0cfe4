// SPDX-License-Identifier: GPL-2.0
/*
 * bmd at start: the jobs of DIR/jobs/<id>.json read back, the ids already
 * taken noted, and a job a dead bmd left queued or running ended as
 * interrupted, its finished trials recovered from its events file
 * (daemon_recover.c): never restarted behind the user's back.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <limits.h>
#include <math.h>
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
		if (!strcmp(s, job_state_name(i)))
			j->state = i;
	if (json_object_object_get_ex(o, "ports", &ports)) {
		if (ports_from_json(ports, names, &n) ||
		    job_set_ports(j, n, names)) {
			job_discard(j);
			return NULL;
		}
		if (json_object_object_get_ex(ports, "line_rate_bps", &v))
			j->line_rate_bps = json_object_get_double(v);
		if (json_object_object_get_ex(ports, "sync_tolerance_us", &v) &&
		    json_object_get_double(v) > 0 &&
		    isfinite(json_object_get_double(v)))
			j->sync_tolerance_us = json_object_get_double(v);
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

// SPDX-License-Identifier: GPL-2.0
/*
 * The result of a job that a bmd which died left running (bmd(8),
 * "A bmd that stops"): every trial it finished is in jobs/<id>.events,
 * one progress event a line with the trial's record, written as the trial
 * ended.  A restart used to mark the job interrupted with 0 trials and
 * throw them away; here they become its result: the trials as they were
 * reported, the job's parameters and meta, and a deviation saying that
 * the procedure's own summary (its "results") was never computed.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "bm_procedure.h"
#include "bm_result.h"
#include "daemon_int.h"

/* The first of the procedure's SPEC ids ("R2544-THRPT, ..."), its ref. */
static void first_ref(const char *procedure, char *buf, size_t size)
{
	const struct bm_procedure_info *p = bm_procedure_find(procedure, NULL);
	const char *refs = p && p->refs ? p->refs : "";
	size_t n = strcspn(refs, ", ");

	snprintf(buf, size, "%.*s", (int)n, n ? refs : "bmd");
}

/* Read j's events file: the trials into trials, the warnings into dev;
 * the lines that are no event (a line cut short by the kill) counted in
 * *bad.  -errno when the file cannot be read. */
static int read_events(struct bmd *d, const struct bmd_job *j,
		       json_object *trials, json_object *dev,
		       unsigned int *bad)
{
	char path[PATH_MAX], *line = NULL;
	size_t cap = 0;
	ssize_t n;
	FILE *f;

	job_events_path(d, j->id, path, sizeof(path));
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while ((n = getline(&line, &cap, f)) > 0) {
		json_object *ev = json_tokener_parse(line), *v, *t;
		const char *kind;

		if (!ev || !json_object_object_get_ex(ev, "event", &v)) {
			(*bad)++;
			json_object_put(ev);
			continue;
		}
		kind = json_object_get_string(v);
		if (!strcmp(kind, "progress") &&
		    json_object_object_get_ex(ev, "trial", &t) &&
		    json_object_is_type(t, json_type_object))
			json_object_array_add(trials, json_object_get(t));
		else if (!strcmp(kind, "warning") &&
			 json_object_object_get_ex(ev, "message", &v))
			json_object_array_add(dev, json_object_get(v));
		json_object_put(ev);
	}
	free(line);
	fclose(f);
	return 0;
}

/* The timestamp source the trials said, else the simulator's, else NULL
 * (no trial took a timestamp). */
static const char *ts_source_of(json_object *trials, const char *backend)
{
	size_t i = json_object_array_length(trials);
	json_object *v;

	while (i--)
		if (json_object_object_get_ex(json_object_array_get_idx(
				trials, i), "ts_source", &v) &&
		    json_object_get_string(v)[0])
			return json_object_get_string(v);
	return strcmp(backend, "sim") ? NULL : "sim";
}

int job_recover(struct bmd *d, struct bmd_job *j)
{
	json_object *doc, *proc, *trials, *dev, *meta;
	struct bmd_job_desc desc;
	struct bm_error err = { "" };
	const char *backend = j->dry_run ? "sim" : "genl";
	char ref[64], msg[320];
	unsigned int bad = 0;
	size_t n;
	int ret;

	doc = json_object_new_object();
	proc = json_object_new_object();
	trials = json_object_new_array();
	dev = json_object_new_array();
	if (!doc || !proc || !trials || !dev) {
		ret = -ENOMEM;
		goto out;
	}
	ret = read_events(d, j, trials, dev, &bad);
	if (ret)
		goto out;
	n = json_object_array_length(trials);
	snprintf(msg, sizeof(msg),
		 "bmd stopped while the job ran (killed or restarted): this result is rebuilt from the %zu trial(s) of its events file%s; the procedure's summary (results) was never computed",
		 n, bad ? ", one line cut short left out" : "");
	json_object_array_add(dev, json_object_new_string(msg));
	json_object_object_add(doc, "schema_version",
			       json_object_new_int(BM_RESULT_SCHEMA_VERSION));
	first_ref(j->procedure, ref, sizeof(ref));
	json_object_object_add(proc, "id", json_object_new_string(j->procedure));
	json_object_object_add(proc, "ref", json_object_new_string(ref));
	json_object_object_add(doc, "procedure", json_object_get(proc));
	json_object_object_add(doc, "params", j->params ?
			       json_object_get(j->params) :
			       json_object_new_object());
	json_object_object_add(doc, "trials", json_object_get(trials));
	json_object_object_add(doc, "results", json_object_new_object());
	json_object_object_add(doc, "deviations", json_object_get(dev));
	json_object_object_add(doc, "job", json_object_new_int64(j->id));
	json_object_object_add(doc, "error", json_object_new_string(
		"interrupted: bmd stopped while the job ran"));
	job_desc_of(j, &desc);
	desc.dut = j->dut;
	meta = bmd_result_meta(&desc, j->started ? j->started : j->submitted,
			       j->ended, backend, ts_source_of(trials, backend),
			       d->sysfs_net);
	json_object_object_add(doc, "meta", meta);
	ret = bmd_store_result(d, j->id, doc, &err);
	if (ret) {
		bmd_logf(d, LOG_ERR, "job %lu: rebuilding its result: %s",
			 j->id, err.msg);
		goto out;
	}
	j->trials = n;
	j->has_result = true;
out:
	json_object_put(doc);
	json_object_put(proc);
	json_object_put(trials);
	json_object_put(dev);
	return ret;
}

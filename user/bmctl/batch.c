// SPDX-License-Identifier: GPL-2.0
/*
 * bmctl batch PLAN: a night of procedures from one plan file (JSON or
 * YAML, as --param @FILE takes), each step run exactly as `bmctl run`
 * would run it (the same options, the same checks), one after the other,
 * with optional hooks before and after each step, and an exit status that
 * says passed, failed or interrupted.
 *
 * Plan:
 *   { "ports": ["p1", "p2"], "line_rate": "10G", "dry_run": false,
 *     "sync_tolerance": "50us",
 *     "sim": {...}, "dut": {"name": .., "version": .., "config": FILE,
 *             "pathway": .., "path": ..},
 *     "before": "sh command", "after": "sh command", "keep_going": false,
 *     "steps": [ { "procedure": "rfc2544.throughput",
 *                  "params": {...}, "frame_sizes": [..], "ports": [..],
 *                  "line_rate": .., "sync_tolerance": ..,
 *                  "dry_run": .., "sim": {..},
 *                  "before": .., "after": .. }, ... ] }
 * A step's keys override the plan's.  Hooks run with /bin/sh -c on this
 * host, with BMGEN_STEP, BMGEN_PROCEDURE and (after) BMGEN_JOB and
 * BMGEN_STATE in the environment; a failing hook fails its step.
 *
 * --detach submits every step at once (bmd queues jobs that share ports
 * and runs them in order) and prints the job ids: the batch then survives
 * the SSH session that started it; `bmctl wait ID ...` follows it later.
 * Hooks need the client and are refused with --detach.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bmctl.h"
#include "print.h"

#define MAX_ARGS	1024

static const char *const plan_keys[] = {
	"ports", "line_rate", "sync_tolerance", "dry_run", "sim", "dut",
	"before", "after", "keep_going", "steps", NULL };
static const char *const step_keys[] = {
	"procedure", "params", "frame_sizes", "ports", "line_rate",
	"sync_tolerance", "dry_run", "sim", "before", "after", NULL };

static bool known(const char *key, const char *const *keys)
{
	for (; *keys; keys++)
		if (!strcmp(key, *keys))
			return true;
	return false;
}

/* o[key] of the step, else of the plan, else NULL. */
static json_object *pick(json_object *step, json_object *plan,
			 const char *key)
{
	json_object *v;

	if (json_object_object_get_ex(step, key, &v))
		return v;
	if (json_object_object_get_ex(plan, key, &v))
		return v;
	return NULL;
}

struct argv_buf {
	char *v[MAX_ARGS];
	int n;
};

/* Append a copy of s; false when full. */
static bool arg(struct argv_buf *a, const char *s)
{
	if (a->n >= MAX_ARGS - 1)
		return false;
	a->v[a->n] = strdup(s);
	return a->v[a->n++] != NULL;
}

static void args_free(struct argv_buf *a)
{
	while (a->n)
		free(a->v[--a->n]);
}

/* A JSON value as bmctl's option text: strings as they are, the rest as
 * JSON. */
static const char *text(json_object *v)
{
	return json_object_is_type(v, json_type_string) ?
	       json_object_get_string(v) :
	       json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN);
}

/* The `bmctl run` arguments of step i; 0 or EXIT_USAGE with the reason. */
static int step_args(json_object *plan, json_object *step, size_t i,
		     bool detach, struct argv_buf *a)
{
	json_object *v, *d, *x;
	char buf[512];
	const char *dot;
	size_t k;
	bool ok = true;

	if (!json_object_is_type(step, json_type_object))
		return usage_error("batch: steps[%zu]: not an object", i + 1);
	json_object_object_foreach(step, key, val) {
		(void)val;
		if (!known(key, step_keys))
			return usage_error("batch: steps[%zu]: unknown key '%s'",
					   i + 1, key);
	}
	v = pick(step, NULL, "procedure");
	if (!v || !json_object_is_type(v, json_type_string))
		return usage_error("batch: steps[%zu]: no \"procedure\"", i + 1);
	/* "rfc2544.throughput" -> "rfc2544" "throughput" */
	snprintf(buf, sizeof(buf), "%s", json_object_get_string(v));
	dot = strchr(buf, '.');
	if (dot) {
		buf[dot - buf] = '\0';
		ok &= arg(a, buf) && arg(a, dot + 1);
	} else {
		ok &= arg(a, buf);
	}
	v = pick(step, plan, "ports");
	if (v && !json_object_is_type(v, json_type_array))
		return usage_error("batch: steps[%zu]: ports: a list of names",
				   i + 1);
	for (k = 0; v && k < json_object_array_length(v); k++)
		ok &= arg(a, "--port") &&
		      arg(a, text(json_object_array_get_idx(v, k)));
	if ((v = pick(step, plan, "line_rate")))
		ok &= arg(a, "--line-rate") && arg(a, text(v));
	if ((v = pick(step, plan, "sync_tolerance")))
		ok &= arg(a, "--sync-tolerance") && arg(a, text(v));
	if ((v = pick(step, NULL, "frame_sizes"))) {
		if (!json_object_is_type(v, json_type_array))
			return usage_error("batch: steps[%zu]: frame_sizes: a "
					   "list", i + 1);
		buf[0] = '\0';
		for (k = 0; k < json_object_array_length(v); k++)
			snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf),
				 "%s%s", k ? "," : "",
				 text(json_object_array_get_idx(v, k)));
		ok &= arg(a, "--frame-sizes") && arg(a, buf);
	}
	if ((v = pick(step, NULL, "params"))) {
		if (!json_object_is_type(v, json_type_object))
			return usage_error("batch: steps[%zu]: params: an "
					   "object", i + 1);
		json_object_object_foreach(v, pk, pv) {
			snprintf(buf, sizeof(buf), "%s=%s", pk, text(pv));
			ok &= arg(a, "--param") && arg(a, buf);
		}
	}
	if ((v = pick(step, plan, "dry_run")) && json_object_get_boolean(v))
		ok &= arg(a, "--dry-run");
	if ((v = pick(step, plan, "sim")))
		ok &= arg(a, "--sim") && arg(a, text(v));
	if ((d = pick(NULL, plan, "dut"))) {
		if (json_object_object_get_ex(d, "name", &x))
			ok &= arg(a, "--dut-name") && arg(a, text(x));
		if (json_object_object_get_ex(d, "version", &x))
			ok &= arg(a, "--dut-version") && arg(a, text(x));
		if (json_object_object_get_ex(d, "config", &x))
			ok &= arg(a, "--dut-config") && arg(a, text(x));
		if (json_object_object_get_ex(d, "pathway", &x))
			ok &= arg(a, "--dut-pathway") && arg(a, text(x));
		if (json_object_object_get_ex(d, "path", &x))
			ok &= arg(a, "--dut-path") && arg(a, text(x));
	}
	if (detach)
		ok &= arg(a, "--detach");
	if (!ok)
		return usage_error("batch: steps[%zu]: too many arguments",
				   i + 1);
	a->v[a->n] = NULL;
	return 0;
}

/* Run hook cmd (NULL: nothing to do) with the step's environment; 0 when
 * it exits 0. */
static int hook(json_object *cmd, size_t step, const char *proc,
		unsigned long job, const char *state)
{
	char num[32];
	pid_t pid;
	int st;

	if (!cmd)
		return 0;
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		snprintf(num, sizeof(num), "%zu", step);
		setenv("BMGEN_STEP", num, 1);
		setenv("BMGEN_PROCEDURE", proc, 1);
		if (job) {
			snprintf(num, sizeof(num), "%lu", job);
			setenv("BMGEN_JOB", num, 1);
			setenv("BMGEN_STATE", state, 1);
		}
		execl("/bin/sh", "sh", "-c", json_object_get_string(cmd),
		      (char *)NULL);
		_exit(127);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(st) && !WEXITSTATUS(st) ? 0 : -1;
}

/* The state bmd gives job now: "done", "failed", ...; into buf. */
static void job_state(unsigned long job, char *buf, size_t len)
{
	json_object *r, *j, *s;
	char id[32];

	snprintf(buf, len, "unknown");
	snprintf(id, sizeof(id), "%lu", job);
	if (job && !job_request("job", id, &r)) {
		if (json_object_object_get_ex(r, "job", &j) &&
		    json_object_object_get_ex(j, "state", &s))
			snprintf(buf, len, "%s", json_object_get_string(s));
		json_object_put(r);
	}
}

int cmd_batch(int argc, char **argv)
{
	const char *path = NULL;
	bool detach = false, keep_going;
	json_object *plan, *steps, *step, *v;
	struct argv_buf a = { .n = 0 };
	char why[256], state[32];
	size_t i, n;
	int failed = 0, interrupted = 0, ret = 0, rc;
	unsigned long job;

	for (i = 0; i < (size_t)argc; i++) {
		if (!strcmp(argv[i], "--detach"))
			detach = true;
		else if (argv[i][0] != '-' && !path)
			path = argv[i];
		else
			return usage_error("batch: unknown argument '%s'",
					   argv[i]);
	}
	if (!path)
		return usage_error("usage: bmctl batch PLAN [--detach]");
	plan = profile_read(path, why, sizeof(why));
	if (!plan)
		return usage_error("batch: %s", why);
	if (!json_object_is_type(plan, json_type_object)) {
		json_object_put(plan);
		return usage_error("batch: %s: not an object", path);
	}
	json_object_object_foreach(plan, key, val) {
		(void)val;
		if (!known(key, plan_keys)) {
			ret = usage_error("batch: %s: unknown key '%s'", path,
					  key);
			json_object_put(plan);
			return ret;
		}
	}
	if (!json_object_object_get_ex(plan, "steps", &steps) ||
	    !json_object_is_type(steps, json_type_array) ||
	    !(n = json_object_array_length(steps))) {
		json_object_put(plan);
		return usage_error("batch: %s: no \"steps\"", path);
	}
	keep_going = (v = pick(NULL, plan, "keep_going")) &&
		     json_object_get_boolean(v);
	/* every step checked before the first one runs */
	for (i = 0; i < n && !ret; i++) {
		step = json_object_array_get_idx(steps, i);
		ret = step_args(plan, step, i, detach, &a);
		args_free(&a);
		if (!ret && detach && (pick(step, plan, "before") ||
				       pick(step, plan, "after")))
			ret = usage_error("batch: hooks need the client: not "
					  "with --detach");
	}
	for (i = 0; i < n && !ret; i++) {
		step = json_object_array_get_idx(steps, i);
		v = pick(step, NULL, "procedure");
		step_args(plan, step, i, detach, &a);
		if (!detach)
			printf("== step %zu of %zu: %s\n", i + 1, n,
			       json_object_get_string(v));
		if (hook(pick(step, plan, "before"), i + 1,
			 json_object_get_string(v), 0, NULL)) {
			fprintf(stderr, "bmctl: batch: step %zu: the before "
				"hook failed\n", i + 1);
			failed++;
			args_free(&a);
			if (!keep_going)
				break;
			continue;
		}
		run_last_job_reset();
		rc = cmd_run(a.n, a.v);
		job = run_last_job();
		args_free(&a);
		if (detach) {
			if (rc)
				failed++;
			continue;
		}
		job_state(job, state, sizeof(state));
		if (hook(pick(step, plan, "after"), i + 1,
			 json_object_get_string(v), job, state)) {
			fprintf(stderr, "bmctl: batch: step %zu: the after "
				"hook failed\n", i + 1);
			rc = EXIT_FAIL;
		}
		if (job)
			printf("== step %zu: job %lu %s\n", i + 1, job, state);
		else
			printf("== step %zu: not submitted\n", i + 1);
		if (!strcmp(state, "interrupted") || !strcmp(state, "cancelled") ||
		    rc == EXIT_DETACHED) {
			interrupted++;
			break;
		}
		if (rc || strcmp(state, "done")) {
			failed++;
			if (!keep_going)
				break;
		}
	}
	json_object_put(plan);
	if (ret)
		return ret;
	if (!detach)
		printf("batch: %zu steps, %d failed, %d interrupted\n", n,
		       failed, interrupted);
	return failed ? EXIT_FAIL : interrupted ? EXIT_INTERRUPTED : EXIT_OK;
}

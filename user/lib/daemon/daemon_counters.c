// SPDX-License-Identifier: GPL-2.0
/*
 * The DUT's own counters beside the tester's (SPEC REQ-TM-4; RFC 7640 §4:
 * each test SHOULD compare the DUT's internal statistics with the
 * measured metrics, from cumulative statistics read after the test, as
 * device counters often update every 10 s or more).  bmd.conf names the
 * command (dut-counters), never a request: it runs as bmd and may carry
 * the DUT's password, so a result says only that bmd.conf's command ran.
 * bmd runs it before a job's traffic and, dut-counters-wait (15 s) after
 * the traffic stopped, again, and keeps both readings, their difference
 * and the tester's totals in the result's dut_counters.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bm_json.h"
#include "daemon_int.h"
#include "dut_command.h"

extern char **environ;

/* What one reading may print, and how long it may take. */
#define COUNTERS_OUT_MAX	(64 * 1024)
#define COUNTERS_TIMEOUT_S	60.0
#define COUNTERS_KEYS_MAX	512
#define COUNTERS_KEY_MAX	128

/* RFC 7640 §4: counters update every 10 s or more; SPEC REQ-TM-4 waits
 * at least 15 s after the traffic before the second reading. */
#define COUNTERS_WAIT_MIN_S	15.0

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t' || *s == '\r')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		*--e = '\0';
	return s;
}

json_object *bmd_counters_parse(const char *text, unsigned int *skipped)
{
	json_object *o = json_object_new_object();
	char *copy = strdup(text ? text : ""), *line, *save = NULL;

	*skipped = 0;
	if (!copy)
		return o;
	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *key = trim(line), *v, *end;
		size_t k;
		double x;

		if (!*key || *key == '#')
			continue;
		k = strcspn(key, "=: \t");
		v = key + k;
		if (!k || !*v || k >= COUNTERS_KEY_MAX ||
		    json_object_object_length(o) >= COUNTERS_KEYS_MAX) {
			(*skipped)++;
			continue;
		}
		*v++ = '\0';
		v = trim(v);
		if (*v == '=' || *v == ':')
			v = trim(v + 1);
		if (!*v) {
			(*skipped)++;
			continue;
		}
		errno = 0;
		x = strtod(v, &end);
		if (!errno && !*end && isfinite(x))
			json_object_object_add(o, key, fabs(x) < 9e15 &&
				x == (double)(long long)x ?
				json_object_new_int64((long long)x) :
				json_object_new_double(x));
		else
			json_object_object_add(o, key,
					       json_object_new_string(v));
	}
	free(copy);
	return o;
}

/* bmd's environment with the reading's own BMGEN_* (bmd(8)); NULL when
 * out of memory.  Free with free_env(). */
static char **reading_env(const struct bmd_job *j, const char *phase)
{
	size_t n = 0, k = 0, i;
	char ports[BM_BACKEND_MAX_PORTS * (IFNAMSIZ + 1) + 1] = "", **env;

	for (i = 0; i < j->n_ports; i++)
		snprintf(ports + strlen(ports), sizeof(ports) - strlen(ports),
			 "%s%s", i ? " " : "", j->ports[i]);
	while (environ[n])
		n++;
	env = calloc(n + 5, sizeof(*env));
	if (!env)
		return NULL;
	for (i = 0; i < n; i++)
		if (strncmp(environ[i], "BMGEN_", 6))
			env[k++] = strdup(environ[i]);
	if (asprintf(&env[k++], "BMGEN_PHASE=%s", phase) < 0 ||
	    asprintf(&env[k++], "BMGEN_JOB=%lu", j->id) < 0 ||
	    asprintf(&env[k++], "BMGEN_PROCEDURE=%s", j->procedure) < 0 ||
	    asprintf(&env[k++], "BMGEN_PORTS=%s", ports) < 0)
		env[--k] = NULL;
	return env;
}

static void free_env(char **env)
{
	size_t i;

	for (i = 0; env && env[i]; i++)
		free(env[i]);
	free(env);
}

json_object *bmd_counters_read(const struct bmd *d, const struct bmd_job *j,
			       const char *phase, bm_progress_fn progress,
			       void *ctx, char *why, size_t n)
{
	struct bm_dut_cmd rc = {
		.name = "dut-counters", .command = d->dut_counters,
		.timeout_s = COUNTERS_TIMEOUT_S, .progress = progress,
		.progress_ctx = ctx, .out_max = COUNTERS_OUT_MAX,
	};
	unsigned int skipped;
	json_object *o;
	char **env;
	int ret;

	env = reading_env(j, phase);
	rc.out = malloc(COUNTERS_OUT_MAX);
	if (!env || !rc.out) {
		free_env(env);
		free(rc.out);
		snprintf(why, n, "the %s reading: out of memory", phase);
		return NULL;
	}
	rc.envp = env;
	ret = bm_dut_command_run(&rc);
	free_env(env);
	if (ret) {
		snprintf(why, n, "the %s reading failed: %s", phase,
			 ret == -EIO ? "the command exited non-zero" :
			 ret == -ETIMEDOUT ? "the command took over 60 s" :
			 ret == -ECANCELED ? "the job was cancelled" :
			 strerror(-ret));
		free(rc.out);
		return NULL;
	}
	o = bmd_counters_parse(rc.out, &skipped);
	free(rc.out);
	if (!json_object_object_length(o)) {
		snprintf(why, n, "the %s reading printed no KEY VALUE line",
			 phase);
		json_object_put(o);
		return NULL;
	}
	return o;
}

bool bmd_counters_wait(const struct bmd_job *j, double wait_s,
		       bm_progress_fn progress, void *ctx)
{
	char line[96];
	double left;

	for (left = wait_s; left > 0; left -= 0.1) {
		if (j->abort_trial)
			return false;
		if (progress && fmod(wait_s - left, 1.0) < 0.1) {
			snprintf(line, sizeof(line),
				 "DUT counters: %.0f s of %.0f s after the traffic",
				 wait_s - left, wait_s);
			if (progress(ctx, NULL, line))
				return false;
		}
		nanosleep(&(struct timespec){ 0, 100000000 }, NULL);
	}
	return !j->abort_trial;
}

/* The tester's totals over the result's trials (each trial's own
 * attempted, received, lost). */
static json_object *tester_totals(json_object *result)
{
	static const char *const keys[] = { "attempted", "received", "lost" };
	json_object *trials, *o = json_object_new_object();
	int64_t sum[3] = { 0 };
	size_t i, k;

	if (json_object_object_get_ex(result, "trials", &trials) &&
	    json_object_is_type(trials, json_type_array))
		for (i = 0; i < json_object_array_length(trials); i++) {
			json_object *t = json_object_array_get_idx(trials, i);
			json_object *v;

			for (k = 0; k < 3; k++)
				if (json_object_object_get_ex(t, keys[k], &v))
					sum[k] += json_object_get_int64(v);
		}
	json_object_object_add(o, "trials", json_object_new_int64(
		trials && json_object_is_type(trials, json_type_array) ?
		(int64_t)json_object_array_length(trials) : 0));
	for (k = 0; k < 3; k++)
		json_object_object_add(o, keys[k],
				       json_object_new_int64(sum[k]));
	return o;
}

/* after - before of every number both readings have. */
static json_object *difference(json_object *before, json_object *after)
{
	json_object *o = json_object_new_object(), *b;

	if (!before || !after)
		return o;
	json_object_object_foreach(after, key, a) {
		if (!json_object_object_get_ex(before, key, &b))
			continue;
		if (json_object_is_type(a, json_type_int) &&
		    json_object_is_type(b, json_type_int))
			json_object_object_add(o, key, json_object_new_int64(
				json_object_get_int64(a) -
				json_object_get_int64(b)));
		else if ((json_object_is_type(a, json_type_int) ||
			  json_object_is_type(a, json_type_double)) &&
			 (json_object_is_type(b, json_type_int) ||
			  json_object_is_type(b, json_type_double)))
			json_object_object_add(o, key, json_object_new_double(
				json_object_get_double(a) -
				json_object_get_double(b)));
	}
	return o;
}

void bmd_counters_add(json_object *result, json_object *before,
		      json_object *after, const char *why, double wait_s)
{
	json_object *o = json_object_new_object(), *dev;
	char line[320];

	json_object_object_add(o, "command", json_object_new_string(
		"bmd.conf dut-counters"));
	json_object_object_add(o, "wait_s", json_object_new_double(wait_s));
	json_object_object_add(o, "before", json_object_get(before));
	json_object_object_add(o, "after", json_object_get(after));
	json_object_object_add(o, "delta", difference(before, after));
	json_object_object_add(o, "tester", tester_totals(result));
	json_object_object_add(o, "error", why && *why ?
			       json_object_new_string(why) : NULL);
	json_object_object_add(result, "dut_counters", o);
	if (!json_object_object_get_ex(result, "deviations", &dev) ||
	    !json_object_is_type(dev, json_type_array)) {
		dev = json_object_new_array();
		json_object_object_add(result, "deviations", dev);
	}
	if (why && *why) {
		snprintf(line, sizeof(line),
			 "DUT counters (SPEC REQ-TM-4): %s", why);
		bm_json_add_str_once(dev, line);
	}
	if (wait_s < COUNTERS_WAIT_MIN_S) {
		snprintf(line, sizeof(line),
			 "DUT counters read %g s after the traffic stopped, "
			 "not at least %g s (SPEC REQ-TM-4: device counters "
			 "often update every 10 s or more)", wait_s,
			 COUNTERS_WAIT_MIN_S);
		bm_json_add_str_once(dev, line);
	}
}

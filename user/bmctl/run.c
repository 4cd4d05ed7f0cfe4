// SPDX-License-Identifier: GPL-2.0
/* bmctl run and wait: submit a job, follow its progress, print the result. */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "bm_units.h"
#include "bmctl.h"
#include "print.h"

static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
	(void)sig;
	interrupted = 1;
}

/* Ctrl-C must interrupt poll() rather than kill bmctl: the job belongs
 * to bmd and goes on, and the user should learn how to find it again. */
static void catch_sigint(void)
{
	struct sigaction sa = { .sa_handler = on_sigint };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
}

static json_object *get(json_object *o, const char *key)
{
	json_object *v = NULL;

	json_object_object_get_ex(o, key, &v);
	return v;
}

/* --- progress ----------------------------------------------------------- */

/*
 * What a follower (bmctl run, bmctl wait) shows.  On a terminal one line,
 * redrawn at every event and every second: procedure, frame size n of N,
 * trial k, offered load, loss, the search's bounds, elapsed time and an
 * estimate of the rest.  In a pipe one timestamped line per event, none
 * dropped; with --json one JSON object per event on stderr (NDJSON), so
 * that stdout stays the result document alone.
 */
struct follow {
	unsigned long job;
	bool tty;
	char procedure[64];
	double start;			/* the job's start, CLOCK_REALTIME s */
	uint32_t sizes[64];		/* the job's frame sizes, when given */
	unsigned int n_sizes;
	int size_idx;			/* index of the current size, -1 */
	double size_start;		/* when the current size began */
	unsigned int sizes_done;
	double done_time;		/* time the finished sizes took */
	char last[384];			/* the trial part of the line */
	bool drawn;
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* "2026-11-23T10:00:00Z" -> s since the epoch (UTC); 0 when unparsable. */
static double iso_s(const char *s)
{
	struct tm tm = { 0 };
	const char *end;

	if (!s)
		return 0;
	end = strptime(s, "%Y-%m-%dT%H:%M:%S", &tm);
	if (!end)
		return 0;
	return (double)timegm(&tm) + (*end == '.' ? strtod(end, NULL) : 0);
}

static void fmt_dur(char *buf, size_t len, double s)
{
	long t = s > 0 ? (long)(s + 0.5) : 0;

	if (t >= 3600)
		snprintf(buf, len, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60,
			 t % 60);
	else
		snprintf(buf, len, "%ld:%02ld", t / 60, t % 60);
}

static int term_width(void)
{
	struct winsize ws;

	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) || ws.ws_col < 20)
		return 80;
	return ws.ws_col;
}

/* The job summary of the watch's start event: procedure, start, sizes. */
static void follow_start(struct follow *f, json_object *job)
{
	json_object *params = get(job, "params"), *a;
	const char *p = json_object_get_string(get(job, "procedure"));
	size_t i;

	snprintf(f->procedure, sizeof(f->procedure), "%s", p ? p : "?");
	f->start = iso_s(json_object_get_string(get(job, "started")));
	if (!f->start)
		f->start = now_s();	/* queued: counts from now */
	f->size_start = f->start;
	a = get(params, "frame_sizes");
	if (json_object_is_type(a, json_type_array))
		for (i = 0; i < json_object_array_length(a) && i < 64; i++)
			f->sizes[f->n_sizes++] = json_object_get_int(
				json_object_array_get_idx(a, i));
	else if (get(params, "frame_size"))
		f->sizes[f->n_sizes++] = json_object_get_int(
			get(params, "frame_size"));
}

/* Track the frame size of a trial: n of N, and the time each took. */
static void follow_size(struct follow *f, uint32_t size, double t)
{
	unsigned int i;

	for (i = 0; i < f->n_sizes && f->sizes[i] != size; i++)
		;
	if (i == f->n_sizes || (int)i == f->size_idx)
		return;
	if (f->size_idx >= 0 && (int)i > f->size_idx) {
		f->sizes_done += i - f->size_idx;
		f->done_time += t - f->size_start;
	}
	f->size_idx = i;
	f->size_start = t;
}

/* Print the line: times from now first (a narrow terminal cuts the
 * end), then the trial part of the last event. */
static void follow_draw(struct follow *f, bool newline)
{
	double t = now_s(), el = t - f->start;
	char line[640], e[32], r[48] = "";

	fmt_dur(e, sizeof(e), el);
	/* the rest: the sizes still to do at the mean time of the finished
	 * ones, less what the current one has had */
	if (f->sizes_done && f->size_idx >= 0) {
		double per = f->done_time / f->sizes_done;
		double rest = per * (f->n_sizes - f->size_idx) -
			      (t - f->size_start);
		char d[32];

		fmt_dur(d, sizeof(d), rest > 0 ? rest : 0);
		snprintf(r, sizeof(r), ", ~%s left", d);
	}
	snprintf(line, sizeof(line), "job %lu %s [%s%s]%s%s", f->job,
		 f->procedure, e, r, f->last[0] ? " " : "", f->last);
	if (f->tty) {
		int w = term_width() - 1;

		if ((int)strlen(line) > w)
			line[w] = '\0';
		printf("\r\033[K%s", line);
		f->drawn = true;
	} else if (newline) {
		time_t now = (time_t)t;
		char ts[32];

		strftime(ts, sizeof(ts), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
		printf("%s %s\n", ts, line);
	}
	fflush(stdout);
}

static void progress(struct follow *f, json_object *ev)
{
	json_object *t = get(ev, "trial");
	const char *status = json_object_get_string(get(ev, "status"));
	char *l = f->last;
	size_t len = sizeof(f->last);
	int n;

	if (opts.json) {
		/* the event as bmd sent it, one line on stderr */
		fprintf(stderr, "%s\n", json_object_to_json_string_ext(
			ev, JSON_C_TO_STRING_PLAIN |
			JSON_C_TO_STRING_NOSLASHESCAPE));
		return;
	}
	n = snprintf(l, len, "trial %d",
		     json_object_get_int(get(ev, "trials")));
	if (t) {
		uint32_t size = json_object_get_int(get(t, "frame_size"));
		const char *why = json_object_get_string(get(t, "reason"));

		follow_size(f, size, now_s());
		if (f->size_idx >= 0 && f->n_sizes > 1)
			n += snprintf(l + n, len - n, ", %u B (%d of %u)", size,
				      f->size_idx + 1, f->n_sizes);
		else if (size)
			n += snprintf(l + n, len - n, ", %u B", size);
		if (get(t, "load_pct"))
			n += snprintf(l + n, len - n, " at %.3f %%",
				      json_object_get_double(get(t, "load_pct")));
		else
			n += snprintf(l + n, len - n, " at %.0f fps",
				      json_object_get_double(get(t, "rate_fps")));
		n += snprintf(l + n, len - n, ", lost %lld (%.4g %%)",
			      (long long)json_object_get_int64(get(t, "lost")),
			      json_object_get_double(get(t, "loss_ratio")) *
			      100.0);
		/* the search's bounds, as the procedure states them */
		if (why && *why && n < (int)len)
			n += snprintf(l + n, len - n, " [%s]", why);
	} else if (status && *status && n < (int)len) {
		/* no trial: a step of its own (a reset command running) */
		n += snprintf(l + n, len - n, ", %s", status);
	}
	follow_draw(f, true);
}

/* Fetch and print the result of a finished job; exit status. */
static int print_result(struct bm_client *c, unsigned long job,
			json_object *jobinfo)
{
	const char *state = json_object_get_string(get(jobinfo, "state"));
	const char *error = json_object_get_string(get(jobinfo, "error"));
	json_object *req, *r;
	bool done = state && !strcmp(state, "done");
	int ret = EXIT_OK;

	if (get(jobinfo, "result")) {
		req = request_new("result");
		json_object_object_add(req, "job", json_object_new_int64(job));
		ret = call_bmd(c, req, &r);
		if (ret)
			return ret;
		if (opts.json)
			printf("%s\n", json_object_to_json_string_ext(
				get(r, "result"), JSON_C_TO_STRING_PRETTY |
				JSON_C_TO_STRING_SPACED |
				JSON_C_TO_STRING_NOSLASHESCAPE));
		else
			report_print(get(r, "result"), false);
		json_object_put(r);
	} else if (opts.json) {
		printf("%s\n", json_object_to_json_string_ext(jobinfo,
			JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED));
	}
	if (!done)
		return failure("job %lu %s%s%s", job, state ? state : "ended",
			       error ? ": " : "", error ? error : "");
	return ret;
}

int follow_job(struct bm_client *c, unsigned long job)
{
	struct bm_error err = { "" };
	struct follow f = { .job = job, .size_idx = -1 };
	json_object *req, *m, *end = NULL;
	const char *ev;
	int64_t id;
	int ret;

	f.tty = !opts.json && isatty(STDOUT_FILENO);
	catch_sigint();
	req = request_new("watch");
	json_object_object_add(req, "job", json_object_new_int64(job));
	/* every event of the job, from its first: none lost in a pipe */
	json_object_object_add(req, "history", json_object_new_boolean(true));
	id = bm_client_send(c, req, &err);
	json_object_put(req);
	if (id < 0)
		return failure("%s", err.msg);
	while (!end) {
		/* a terminal's line ticks every second between events */
		ret = interrupted ? -EINTR : bm_client_recv(c, &m,
							   f.tty ? 1000 : -1,
							   &err);
		if (ret == -ETIMEDOUT) {
			if (f.procedure[0])
				follow_draw(&f, false);
			continue;
		}
		if (ret == -EINTR) {
			if (!interrupted)
				continue;
			if (f.drawn)
				printf("\n");
			fflush(stdout);
			fprintf(stderr, "detached; job %lu continues: bmctl wait %lu\n",
				job, job);
			return EXIT_DETACHED;
		}
		if (ret)
			return failure("%s", err.msg);
		if (json_object_get_int64(get(m, "id")) != id) {
			json_object_put(m);
			continue;
		}
		if (!json_object_get_boolean(get(m, "ok"))) {
			ret = failure("%s", json_object_get_string(get(m, "error")));
			json_object_put(m);
			return ret;
		}
		ev = json_object_get_string(get(m, "event"));
		if (!strcmp(ev, "end")) {
			end = json_object_get(get(m, "job"));
		} else if (!strcmp(ev, "start")) {
			/* shown at once, not after the first trial */
			follow_start(&f, get(m, "job"));
			if (opts.json)
				progress(&f, m);
			else
				follow_draw(&f, true);
		} else if (!strcmp(ev, "progress")) {
			progress(&f, m);
		} else if (!strcmp(ev, "warning")) {
			/* REQ-GEN-6: said before the first trial, on stderr
			 * so that --json's stdout stays the result */
			if (f.drawn)
				printf("\r\033[K");
			fflush(stdout);
			fprintf(stderr, "bmctl: warning: %s\n",
				json_object_get_string(get(m, "message")));
			if (f.drawn && !opts.json)
				follow_draw(&f, true);
		}
		json_object_put(m);
	}
	if (f.drawn)
		printf("\r\033[K");
	fflush(stdout);
	ret = print_result(c, job, end);
	json_object_put(end);
	return ret;
}

int cmd_wait(int argc, char **argv)
{
	struct bm_client c;
	unsigned long job;
	int i, ret, worst = EXIT_OK;

	if (argc < 1)
		return usage_error("usage: bmctl wait JOB [JOB ...]");
	for (i = 0; i < argc; i++)
		if (!parse_job(argv[i]))
			return EXIT_USAGE;
	/* several jobs (a detached batch): one after the other, in the
	 * order given; the exit status is the worst of them */
	for (i = 0; i < argc; i++) {
		job = parse_job(argv[i]);
		ret = connect_bmd(&c);
		if (ret)
			return ret;
		ret = follow_job(&c, job);
		bm_client_close(&c);
		if (ret == EXIT_DETACHED)
			return ret;
		if (ret && worst == EXIT_OK)
			worst = ret;
	}
	return worst;
}

/* --- run ---------------------------------------------------------------- */

/* "10G", "2.5G", "100M", "1e10", "25Gbps" -> bit/s (bm_units.h's one
 * grammar); <= 0 with the reason in why when bad. */
static double parse_rate(const char *s, struct bm_error *why)
{
	double v;

	if (bm_quantity_parse(s, "bit/s", &v, why))
		return -1;
	return v;
}

/* "64,128,1518" -> JSON array of integers; NULL when bad. */
static json_object *parse_sizes(const char *s)
{
	json_object *a = json_object_new_array();
	char *end;
	long v;

	for (;;) {
		errno = 0;
		v = strtol(s, &end, 10);
		if (end == s || errno || v <= 0 || v > 65535 ||
		    (*end && *end != ',')) {
			json_object_put(a);
			return NULL;
		}
		json_object_array_add(a, json_object_new_int64(v));
		if (!*end)
			return a;
		s = end + 1;
	}
}

/* Match "--name VALUE" or "--name=VALUE" at argv[*i]; *val set. */
static int opt_value(int argc, char **argv, int *i, const char *name,
		     const char **val)
{
	size_t n = strlen(name);

	if (strncmp(argv[*i], name, n))
		return 0;
	if (argv[*i][n] == '=') {
		*val = argv[*i] + n + 1;
		return 1;
	}
	if (argv[*i][n])
		return 0;
	if (*i + 1 >= argc) {
		usage_error("%s needs a value", name);
		return -1;
	}
	*val = argv[++*i];
	return 1;
}

/* --sim JSON or @FILE: a JSON object of the simulated DUT's keys, strict
 * (a trailing comma or text after it is refused, never half read); NULL
 * with the reason in why. */
static json_object *read_sim(const char *arg, char *why, size_t size)
{
	json_object *o;
	size_t len;
	char *text;

	if (arg[0] == '@') {
		text = file_read(arg + 1, PROFILE_MAX_BYTES, &len, why, size);
		if (!text)
			return NULL;
		o = json_parse_strict(arg + 1, text, len, why, size);
		free(text);
	} else {
		o = json_parse_strict("--sim", arg, strlen(arg), why, size);
	}
	if (o && !json_object_is_type(o, json_type_object)) {
		snprintf(why, size, "%s: expected a JSON object of the "
			 "simulated DUT (bmctl run PROCEDURE --help lists "
			 "its keys)", arg[0] == '@' ? arg + 1 : "--sim");
		json_object_put(o);
		return NULL;
	}
	return o;
}

struct run_args {
	char procedure[128];
	const char *ports[BM_PROTO_MAX_PORTS];	/* --port, in order */
	int nports;
	double line_rate_bps;
	double sync_tolerance_us;	/* --sync-tolerance, 0 = bmd's */
	bool dry_run, detach, force;
	json_object *params;	/* --param KEY=VALUE, --search */
	json_object *profile;	/* --param @FILE, merged in order */
	json_object *sim;
	json_object *sizes;	/* --frame-sizes */
	json_object *goals;	/* --goal, in order */
	double duration_s;	/* --duration, 0 = not given */
	json_object *dut;	/* --router, --dut-*: the DUT descriptor */
};

/* The DUT configuration a report quotes (RFC 2544 §7), as bmd takes it. */
#define DUT_CONFIG_MAX (256 * 1024)

/* Set key of the DUT descriptor (made on first use) to the string v. */
static void dut_set(struct run_args *a, const char *key, const char *v)
{
	if (!a->dut)
		a->dut = json_object_new_object();
	json_object_object_add(a->dut, key, json_object_new_string(v));
}

/*
 * The convenience options set the parameters bmd's registry names for the
 * procedure (proc, from bmd): MLRsearch, for one, searches one frame size
 * and calls its full-length trials "final".
 */
static int map_options(struct run_args *a, json_object *proc)
{
	const char *name = a->procedure;
	const char *dk = json_object_get_string(get(proc, "duration_key"));
	const char *sk = json_object_get_string(get(proc, "sizes_key"));
	json_object *sp = procedure_param(proc, sk);
	const char *st = json_object_get_string(get(sp, "type"));

	if (a->sizes && !sp)
		return usage_error("--frame-sizes: %s has no frame size parameter",
				   name);
	if (a->sizes && st && !strcmp(st, "integer")) {
		if (json_object_array_length(a->sizes) != 1)
			return usage_error("%s takes one frame size (%s): --frame-sizes N",
					   name, sk);
		json_object_object_add(a->params, sk, json_object_get(
			json_object_array_get_idx(a->sizes, 0)));
	} else if (a->sizes) {
		json_object_object_add(a->params, sk, json_object_get(a->sizes));
	}
	if (a->duration_s > 0) {
		if (!dk)
			return usage_error("--duration: %s has no one trial duration; --param KEY=S (bmctl run %s --help)",
					   name, name);
		json_object_object_add(a->params, dk,
				       json_object_new_double(a->duration_s));
	}
	/* REQ-TM-2: run a stateful test without a verified NDE */
	if (a->force && !procedure_param(proc, "force"))
		return usage_error("--force: %s has no force parameter (the "
				   "stateful RFC 7640 tests have)", name);
	if (a->force)
		json_object_object_add(a->params, "force",
				       json_object_new_boolean(true));
	if (json_object_object_get_ex(a->params, "search", NULL) &&
	    !procedure_param(proc, "search"))
		return usage_error("--search: %s has no search parameter", name);
	/* RFC 9971 §4.6.7: the goals given replace a profile's */
	if (a->goals && !procedure_param(proc, "goals"))
		return usage_error("--goal: %s has no Search Goals "
				   "(rfc9971.mlrsearch has)", name);
	if (a->goals)
		json_object_object_add(a->params, "goals",
				       json_object_get(a->goals));
	return 0;
}

/* The profiles, then the command line over them: the command line wins. */
static json_object *merged_params(const struct run_args *a)
{
	json_object *o = NULL;

	if (!a->profile || json_object_deep_copy(a->profile, &o, NULL))
		return json_object_get(a->params);
	json_object_object_foreach(a->params, key, v)
		json_object_object_add(o, key, json_object_get(v));
	return o;
}

/* --param @FILE: the file's parameters over those of earlier files. */
static int add_profile(struct run_args *a, const char *name)
{
	char why[512], buf[512];
	json_object *o = profile_read(profile_path(name, buf, sizeof(buf)), why,
				      sizeof(why));

	if (!o)
		return usage_error("--param @%s", why);
	if (!a->profile) {
		a->profile = o;
		return 0;
	}
	json_object_object_foreach(o, key, v)
		json_object_object_add(a->profile, key, json_object_get(v));
	json_object_put(o);
	return 0;
}

static int parse_run(int argc, char **argv, struct run_args *a)
{
	const char *v;
	int i, r;

	/* Procedure words: "rfc2544 throughput" -> "rfc2544.throughput". */
	i = procedure_words(argc, argv, a->procedure, sizeof(a->procedure));
	if (i < 0)
		return EXIT_USAGE;
	if (!a->procedure[0])
		return usage_error("run: which procedure? (bmctl procedures)");
	for (; i < argc; i++) {
		if ((r = opt_value(argc, argv, &i, "--port", &v))) {
			int k;

			if (r < 0)
				return EXIT_USAGE;
			if (a->nports == BM_PROTO_MAX_PORTS)
				return usage_error("run: at most %d --port",
						   BM_PROTO_MAX_PORTS);
			/* bmd refuses it too; say so before connecting */
			for (k = 0; k < a->nports; k++)
				/* bmgen.capacity of one port alone: its
				 * generator, nothing to loop to */
				if (!strcmp(a->ports[k], v) &&
				    !(a->nports == 1 &&
				      !strcmp(a->procedure, "bmgen.capacity")))
					return usage_error("run: --port %s given twice (port %d and port %d)",
							   v, k + 1, a->nports + 1);
			/* the loopback carries no test traffic to a DUT */
			if (!strcmp(v, "lo"))
				return usage_error("run: --port lo: the loopback "
						   "is not a tester port");
			a->ports[a->nports++] = v;
		} else if ((r = opt_value(argc, argv, &i, "--frame-sizes", &v))) {
			json_object *s;

			if (r < 0)
				return EXIT_USAGE;
			s = parse_sizes(v);
			if (!s)
				return usage_error("bad --frame-sizes '%s' (e.g. 64,128,1518)", v);
			json_object_put(a->sizes);
			a->sizes = s;
		} else if ((r = opt_value(argc, argv, &i, "--duration", &v))) {
			struct bm_error why = { "" };
			double d;

			if (r < 0)
				return EXIT_USAGE;
			if (bm_quantity_parse(v, "s", &d, &why))
				return usage_error("--duration: %s", why.msg);
			if (!(d > 0))
				return usage_error("--duration: must be more than 0 s, got '%s'", v);
			a->duration_s = d;
		} else if ((r = opt_value(argc, argv, &i, "--sync-tolerance",
					  &v))) {
			struct bm_error why = { "" };
			double t;

			if (r < 0)
				return EXIT_USAGE;
			if (bm_quantity_parse(v, "s", &t, &why))
				return usage_error("--sync-tolerance: %s",
						   why.msg);
			if (!(t > 0) || t > 1.0)
				return usage_error("--sync-tolerance: must be more than 0 and at most 1 s, got '%s'", v);
			/* whole ns: "50us" is 50 us, not 49.99999... */
			a->sync_tolerance_us = round(t * 1e9) / 1e3;
		} else if ((r = opt_value(argc, argv, &i, "--search", &v))) {
			if (r < 0)
				return EXIT_USAGE;
			if (strcmp(v, "binary") && strcmp(v, "mlr") &&
			    strcmp(v, "rfc9971"))
				return usage_error("bad --search '%s' (binary, mlr or rfc9971)", v);
			json_object_object_add(a->params, "search",
					       json_object_new_string(v));
		} else if ((r = opt_value(argc, argv, &i, "--goal", &v))) {
			char why[256];
			json_object *g;

			if (r < 0)
				return EXIT_USAGE;
			g = goal_parse(v, why, sizeof(why));
			if (!g)
				return usage_error("bad --goal: %s", why);
			if (!a->goals)
				a->goals = json_object_new_array();
			json_object_array_add(a->goals, g);
		} else if ((r = opt_value(argc, argv, &i, "--line-rate", &v))) {
			struct bm_error why = { "" };

			if (r < 0)
				return EXIT_USAGE;
			a->line_rate_bps = parse_rate(v, &why);
			if (why.msg[0])
				return usage_error("--line-rate: %s", why.msg);
			if (a->line_rate_bps <= 0)
				return usage_error("--line-rate: must be more than 0 bit/s, got '%s'", v);
		} else if ((r = opt_value(argc, argv, &i, "--param", &v))) {
			const char *eq;
			char key[128];

			if (r < 0)
				return EXIT_USAGE;
			if (v[0] == '@') {
				if (add_profile(a, v + 1))
					return EXIT_USAGE;
				continue;
			}
			eq = strchr(v, '=');
			if (!eq || eq == v || eq - v >= (long)sizeof(key))
				return usage_error("bad --param '%s' (KEY=VALUE or @FILE)", v);
			snprintf(key, sizeof(key), "%.*s", (int)(eq - v), v);
			json_object_object_add(a->params, key,
						profile_param_value(eq + 1));
		} else if ((r = opt_value(argc, argv, &i, "--sim", &v))) {
			if (r < 0)
				return EXIT_USAGE;
			json_object_put(a->sim);
			char why[256];

			a->sim = read_sim(v, why, sizeof(why));
			if (!a->sim)
				return usage_error("%s", why);
		} else if ((r = opt_value(argc, argv, &i, "--dut-name", &v))) {
			if (r < 0)
				return EXIT_USAGE;
			dut_set(a, "name", v);
		} else if ((r = opt_value(argc, argv, &i, "--dut-version", &v))) {
			if (r < 0)
				return EXIT_USAGE;
			dut_set(a, "software_version", v);
		} else if ((r = opt_value(argc, argv, &i, "--dut-pathway", &v))) {
			if (r < 0)
				return EXIT_USAGE;
			if (strcmp(v, "same-card") && strcmp(v, "cross-card") &&
			    strcmp(v, "n/a"))
				return usage_error("bad --dut-pathway '%s' (same-card, cross-card or n/a)", v);
			dut_set(a, "pathway", v);
		} else if ((r = opt_value(argc, argv, &i, "--dut-path", &v))) {
			if (r < 0)
				return EXIT_USAGE;
			dut_set(a, "path", v);
		} else if ((r = opt_value(argc, argv, &i, "--dut-config", &v))) {
			char why[300], *text;
			size_t len;

			if (r < 0)
				return EXIT_USAGE;
			text = file_read(v, DUT_CONFIG_MAX, &len, why, sizeof(why));
			if (!text)
				return usage_error("--dut-config %s", why);
			if (strlen(text) != len) {
				free(text);
				return usage_error("--dut-config %s: not text", v);
			}
			dut_set(a, "configuration", text);
			free(text);
		} else if (!strcmp(argv[i], "--router")) {
			dut_set(a, "mode", "router");
		} else if (!strcmp(argv[i], "--dry-run")) {
			a->dry_run = true;
		} else if (!strcmp(argv[i], "--force")) {
			a->force = true;
		} else if (!strcmp(argv[i], "--detach")) {
			a->detach = true;
		} else {
			return usage_error("run: unknown argument '%s'", argv[i]);
		}
	}
	if (a->sim && !a->dry_run)
		return usage_error("--sim needs --dry-run");
	return 0;
}

/* bmctl run PROC [TEST] --help: bmd's description of the procedure. */
static int run_help(int argc, char **argv)
{
	struct bm_client c;
	json_object *proc;
	char name[128];
	int ret;

	ret = procedure_words(argc, argv, name, sizeof(name));
	if (ret < 0)
		return EXIT_USAGE;
	if (!name[0])
		return usage_error("usage: bmctl run PROCEDURE [TEST] --help (bmctl procedures lists them)");
	ret = connect_bmd(&c);
	if (ret)
		return ret;
	ret = procedure_fetch(&c, name, &proc);
	bm_client_close(&c);
	if (ret)
		return ret;
	procedure_print(proc);
	json_object_put(proc);
	return EXIT_OK;
}

static bool wants_help(int argc, char **argv)
{
	int i;

	for (i = 0; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return true;
	return false;
}

static unsigned long last_job;

unsigned long run_last_job(void)
{
	return last_job;
}

void run_last_job_reset(void)
{
	last_job = 0;
}

/* bmctl nde-verify ...: bmctl run rfc7640.nde-verify ... (SPEC TM-SETUP) */
int cmd_nde_verify(int argc, char **argv)
{
	char *v[argc + 2];
	int i;

	v[0] = (char *)"rfc7640.nde-verify";
	for (i = 0; i < argc; i++)
		v[i + 1] = argv[i];
	v[argc + 1] = NULL;
	return cmd_run(argc + 1, v);
}

/* bmctl port calibrate TX [RX] ...: bmctl run bmgen.capacity --port TX
 * --port RX ...; without RX the generator alone (steps 0). */
int cmd_port_calibrate(int argc, char **argv)
{
	char *v[argc + 8];
	int i = 0, k = 0;

	if (argc < 1 || argv[0][0] == '-')
		return usage_error("usage: bmctl port calibrate TX [RX] [RUN-OPTIONS]");
	v[k++] = (char *)"bmgen.capacity";
	v[k++] = (char *)"--port";
	v[k++] = argv[i++];
	v[k++] = (char *)"--port";
	if (i < argc && argv[i][0] != '-') {
		v[k++] = argv[i++];
	} else {
		v[k++] = argv[0];
		v[k++] = (char *)"--param";
		v[k++] = (char *)"steps=0";
	}
	for (; i < argc; i++)
		v[k++] = argv[i];
	v[k] = NULL;
	return cmd_run(k, v);
}

int cmd_run(int argc, char **argv)
{
	struct run_args a = { .params = json_object_new_object() };
	json_object *req, *r, *ports, *proc = NULL;
	struct bm_client c;
	unsigned long job;
	int ret, needed;

	if (wants_help(argc, argv))
		return run_help(argc, argv);
	ret = parse_run(argc, argv, &a);
	if (ret)
		goto out;
	ret = connect_bmd(&c);
	if (ret)
		goto out;
	/* What the procedure is comes from bmd (REQ-CAP-1: its ports). */
	ret = procedure_fetch(&c, a.procedure, &proc);
	if (ret)
		goto out_close;
	ret = map_options(&a, proc);
	if (ret)
		goto out_close;
	/* A dry run without --port gets every port it needs from bmd's
	 * simulator; one with --port runs on those, so they must do. */
	needed = json_object_get_int(get(proc, "ports_needed"));
	if ((!a.dry_run || a.nports) && a.nports < needed) {
		ret = usage_error("run: %s needs %d ports (REQ-CAP-1), %d given: %s, or --dry-run",
				  a.procedure, needed, a.nports,
				  needed > 2 ? "--port IF once per port, in order"
					     : "--port TX --port RX");
		goto out_close;
	}
	/* A job's ports are a pair or a longer list: none or two at least. */
	if (a.nports == 1) {
		ret = usage_error("run: give two ports: --port TX --port RX");
		goto out_close;
	}
	req = request_new("submit");
	json_object_object_add(req, "procedure",
			       json_object_new_string(a.procedure));
	json_object_object_add(req, "params", merged_params(&a));
	if (a.nports || a.line_rate_bps > 0 || a.sync_tolerance_us > 0) {
		ports = json_object_new_object();
		/* A pair as tx/rx, which every bmd takes; only more ports
		 * need ports.list, which an older bmd refuses by name. */
		if (a.nports == 2) {
			json_object_object_add(ports, "tx",
				json_object_new_string(a.ports[0]));
			json_object_object_add(ports, "rx",
				json_object_new_string(a.ports[1]));
		} else if (a.nports > 2) {
			json_object *list = json_object_new_array();
			int k;

			for (k = 0; k < a.nports; k++)
				json_object_array_add(list,
					json_object_new_string(a.ports[k]));
			json_object_object_add(ports, "list", list);
		}
		if (a.line_rate_bps > 0)
			json_object_object_add(ports, "line_rate_bps",
				json_object_new_double(a.line_rate_bps));
		if (a.sync_tolerance_us > 0)
			json_object_object_add(ports, "sync_tolerance_us",
				json_object_new_double(a.sync_tolerance_us));
		json_object_object_add(req, "ports", ports);
	}
	if (a.dry_run)
		json_object_object_add(req, "dry_run",
				       json_object_new_boolean(true));
	if (a.sim)
		json_object_object_add(req, "sim", json_object_get(a.sim));
	if (a.dut)
		json_object_object_add(req, "dut", json_object_get(a.dut));
	ret = call_bmd(&c, req, &r);
	if (ret)
		goto out_close;
	job = json_object_get_int64(get(r, "job"));
	last_job = job;
	if (a.detach) {
		pr_init(opts.json);
		pr_kv_u64("job", "job", job);
		pr_kv_json("state", "state", get(r, "state"));
		pr_finish();
		if (!opts.json)
			printf("follow it with: bmctl %s%s%swait %lu\n",
			       opts.host ? "-H " : "",
			       opts.host ? opts.host : "",
			       opts.host ? " " : "", job);
	} else {
		if (!opts.json && !isatty(STDOUT_FILENO))
			printf("job %lu submitted\n", job);
		ret = follow_job(&c, job);
	}
	json_object_put(r);
out_close:
	bm_client_close(&c);
out:
	json_object_put(proc);
	json_object_put(a.params);
	json_object_put(a.profile);
	json_object_put(a.sim);
	json_object_put(a.sizes);
	json_object_put(a.goals);
	json_object_put(a.dut);
	return ret;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * bmd in-process: the real engine (bm_daemon.h) on a temporary socket and
 * results dir, driven through the real client code (bm_proto.h).  Jobs run
 * the real procedures on the simulated device; a wrapper slows each trial
 * down so that a test can act while a job is running.
 */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <grp.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/bmgen.h>

#include "bm_daemon.h"
#include "bm_pool.h"
#include "bm_portinfo.h"
#include "bm_procedure.h"
#include "bm_proto.h"
#include "bm_sim.h"
#include "bm_store.h"
#include "check_util.h"
#include "daemon_int.h"
#include "keep_result.h"

#define RECV_MS 20000	/* a hung daemon fails the test instead of hanging it */
#define PROC "rfc2544.throughput"

static char dir[64], sock[96];
static struct bmd *d;
static pthread_t loop;
static int trial_delay_us;		/* read by the slow backend */
static double gen_max_fps;		/* its generator_max_fps, 0 none */
static volatile int backends_made;
static const char *sysfs_root;		/* bmd's port facts; NULL = live */
/* The ports of the last job desc the backend factory got (N ports). */
static unsigned int desc_n_ports;
static char desc_ports[BM_BACKEND_MAX_PORTS][16];
static char desc_tx[16], desc_rx[16];

/* --- a slowed-down simulated device ------------------------------------ */

struct slow {
	struct bm_backend be;
	struct bm_backend *inner;
};

static int slow_run(struct bm_backend *be, const struct bm_trial_spec *spec,
		    struct bm_trial_result *res, struct bm_error *err)
{
	struct slow *s = be->priv;
	unsigned int us;
	double t0;
	int ret;

	/* as the module backend does: a cancel ends the trial at once */
	for (us = 0; (int)us < trial_delay_us; us += 2000) {
		if (be->abort && *be->abort)
			return bm_errorf(err, "cancelled"), -ECANCELED;
		usleep(2000);
	}
	t0 = s->inner->elapsed_s;
	ret = s->inner->ops->run_trial(s->inner, spec, res, err);
	/* the sim's time passes on this clock, which keeps what a wrapper
	 * adds (RFC 2544 §23e's restabilise wait) */
	be->elapsed_s += s->inner->elapsed_s - t0;
	return ret;
}

static void slow_destroy(struct bm_backend *be)
{
	struct slow *s = be->priv;

	s->inner->ops->destroy(s->inner);
	free(s);
}

/* The sim resets its DUT itself: what rfc2544.reset uses in a dry run. */
static int slow_dut_reset(struct bm_backend *be)
{
	struct slow *s = be->priv;

	return s->inner->ops->dut_reset(s->inner);
}

static const struct bm_backend_ops slow_ops = {
	.run_trial = slow_run,
	.destroy = slow_destroy,
	.dut_reset = slow_dut_reset,
};

/* Every job, dry run or not, runs on the sim: real ports ("lo") only
 * serve the queue's port bookkeeping. */
static struct bm_backend *slow_new(void *ctx, const struct bmd_job_desc *jd,
				   struct bm_error *err)
{
	struct bm_sim_params p;
	struct slow *s;

	unsigned int i;

	(void)ctx;
	/* the worker's desc lives until the job ends: copy what it says */
	desc_n_ports = jd->n_ports;
	for (i = 0; i < jd->n_ports; i++)
		snprintf(desc_ports[i], sizeof(desc_ports[i]), "%s",
			 jd->ports[i]);
	snprintf(desc_tx, sizeof(desc_tx), "%s", jd->tx_port ? jd->tx_port : "");
	snprintf(desc_rx, sizeof(desc_rx), "%s", jd->rx_port ? jd->rx_port : "");
	bm_sim_params_default(&p);
	p.line_rate_bps = jd->line_rate_bps;
	p.capacity_fps = bm_fps_max(p.line_rate_bps, 64) * 0.5;
	p.generator_max_fps = gen_max_fps;
	s = calloc(1, sizeof(*s));
	ck_assert_ptr_nonnull(s);
	s->inner = bm_sim_new(&p, err);
	if (!s->inner) {
		free(s);
		return NULL;
	}
	/* the sim's clock: RFC 2544's waits between trials (§23e) take
	 * no host time, trial_delay_us alone does */
	s->be = (struct bm_backend){ .ops = &slow_ops, .name = "slow-sim",
		.line_rate_bps = p.line_rate_bps, .virtual_clock = true,
		.priv = s };
	__atomic_add_fetch(&backends_made, 1, __ATOMIC_SEQ_CST);
	return &s->be;
}

/* --- daemon and client helpers ----------------------------------------- */

static void *loop_fn(void *arg)
{
	bmd_run(arg);
	return NULL;
}

/* The configuration every test's bmd starts from. */
static struct bmd_config base_cfg(void)
{
	return (struct bmd_config){
		.socket_path = sock, .listen_fd = -1, .results_dir = dir,
		.backend_new = slow_new, .sysfs_net = sysfs_root,
		/* the slow backend touches no port: "lo" stands for one */
		.ports = "unaddressed lo",
		/* the other tester hosts a job may reach */
		.hosts = "lab2 lab3=bmgen@10.0.0.3",
	};
}

/* Start bmd with cfg and run its loop. */
static void daemon_start_cfg(const struct bmd_config *cfg)
{
	struct bm_error err = { "" };

	d = bmd_new(cfg, &err);
	ck_assert_msg(d, "bmd_new: %s", err.msg);
	ck_assert_int_eq(pthread_create(&loop, NULL, loop_fn, d), 0);
}

static void daemon_start(void)
{
	struct bmd_config cfg = base_cfg();

	daemon_start_cfg(&cfg);
}

/* bmd_new(cfg) must fail; its one-line reason into msg. */
static void daemon_refuses(const struct bmd_config *cfg, char *msg)
{
	struct bm_error err = { "" };
	struct bmd *b = bmd_new(cfg, &err);

	ck_assert_msg(!b, "bmd_new accepted what it must refuse");
	ck_assert_ptr_null(strchr(err.msg, '\n'));
	strcpy(msg, err.msg);
}

/* Write text to the file dir/name. */
static void put_file(const char *name, const char *text)
{
	char p[256];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	f = fopen(p, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
}

/* The first line of dir/name ("" when there is none) into buf. */
static char *file_text(const char *name, char *buf, size_t size)
{
	char p[256];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	buf[0] = '\0';
	f = fopen(p, "r");
	ck_assert_msg(f, "%s: %s", p, strerror(errno));
	if (!fgets(buf, size, f))
		buf[0] = '\0';
	fclose(f);
	return buf;
}

/* What SIGTERM does in bmd: stop the loop, interrupt jobs, free. */
static void daemon_stop(void)
{
	bmd_stop(d);
	pthread_join(loop, NULL);
	bmd_free(d);
	d = NULL;
}

static void setup(void)
{
	strcpy(dir, "/tmp/bmd-test.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(sock, sizeof(sock), "%s/bmd.sock", dir);
	trial_delay_us = 0;
	gen_max_fps = 0;
	sysfs_root = NULL;
	daemon_start();
}

static void teardown(void)
{
	char cmd[128];

	if (d)
		daemon_stop();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}

static void client(struct bm_client *c)
{
	struct bm_error err = { "" };

	ck_assert_msg(!bm_client_open(c, sock, &err), "connect: %s", err.msg);
}

static json_object *get(json_object *o, const char *key)
{
	json_object *v = NULL;

	json_object_object_get_ex(o, key, &v);
	return v;
}

static const char *gets_(json_object *o, const char *key)
{
	return json_object_get_string(get(o, key));
}

/* Call and expect success; the response. */
static json_object *call_ok(struct bm_client *c, json_object *req)
{
	struct bm_error err = { "" };
	json_object *r;
	int ret;

	ret = bm_client_call(c, req, &r, &err);
	json_object_put(req);
	ck_assert_msg(ret == 0, "call failed: %s", err.msg);
	return r;
}

/* Call and expect refusal; the error message in msg. */
static void call_err(struct bm_client *c, json_object *req, char *msg)
{
	struct bm_error err = { "" };
	json_object *r;
	int ret;

	ret = bm_client_call(c, req, &r, &err);
	json_object_put(req);
	json_object_put(r);
	ck_assert_int_eq(ret, -EREMOTEIO);
	strcpy(msg, err.msg);
}

static json_object *req(const char *cmd)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "cmd", json_object_new_string(cmd));
	return o;
}

static json_object *req_job(const char *cmd, long job)
{
	json_object *o = req(cmd);

	json_object_object_add(o, "job", json_object_new_int64(job));
	return o;
}

/* Submit PROC at 64 B; ports NULL = dry run.  The job id. */
static long submit(struct bm_client *c, const char *tx, const char *rx)
{
	json_object *o = req("submit"), *r, *p;
	long id;

	json_object_object_add(o, "procedure", json_object_new_string(PROC));
	p = json_tokener_parse("{\"frame_sizes\":[64]}");
	json_object_object_add(o, "params", p);
	if (tx) {
		p = json_object_new_object();
		json_object_object_add(p, "tx", json_object_new_string(tx));
		json_object_object_add(p, "rx", json_object_new_string(rx));
		json_object_object_add(p, "line_rate_bps",
				       json_object_new_double(1e9));
		json_object_object_add(o, "ports", p);
	} else {
		json_object_object_add(o, "dry_run",
				       json_object_new_boolean(true));
	}
	r = call_ok(c, o);
	id = json_object_get_int64(get(r, "job"));
	ck_assert_int_gt(id, 0);
	json_object_put(r);
	return id;
}

static char *job_state(struct bm_client *c, long job, char *buf)
{
	json_object *r = call_ok(c, req_job("job", job));

	strcpy(buf, gets_(get(r, "job"), "state"));
	json_object_put(r);
	return buf;
}

/* Watch job to its end; progress events seen in *events.  The end
 * state. */
static char *watch_to_end(struct bm_client *c, long job, int *events,
			  char *state)
{
	struct bm_error err = { "" };
	json_object *m, *o = req_job("watch", job);
	int64_t id;
	int ret;

	id = bm_client_send(c, o, &err);
	json_object_put(o);
	ck_assert_int_gt(id, 0);
	*events = 0;
	for (;;) {
		ret = bm_client_recv(c, &m, RECV_MS, &err);
		ck_assert_msg(ret == 0, "watch: %s", err.msg);
		if (json_object_get_int64(get(m, "id")) != id) {
			json_object_put(m);
			continue;
		}
		ck_assert_msg(json_object_get_boolean(get(m, "ok")),
			      "watch refused: %s", gets_(m, "error"));
		if (!strcmp(gets_(m, "event"), "progress"))
			(*events)++;
		if (!strcmp(gets_(m, "event"), "end")) {
			strcpy(state, gets_(get(m, "job"), "state"));
			json_object_put(m);
			return state;
		}
		json_object_put(m);
	}
}

static bool exists(const char *name)
{
	char p[256];

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return !access(p, F_OK);
}

/* --- tests -------------------------------------------------------------- */

/*
 * A dry run's estimate of the real run (meta.real_run): its trials, and
 * for RFC 2544 throughput on the simulator each trial's duration, the
 * learning pause (§23b) and drain (§23d) every trial waits, and the
 * restabilise wait (§23e) between trials.
 */
static void real_run_closed_form(json_object *res)
{
	json_object *est = get(get(res, "meta"), "real_run");
	json_object *trials = get(res, "trials"), *p = get(res, "params");
	size_t i, n = json_object_array_length(trials);
	double want = 0, pause;

	ck_assert_ptr_nonnull(est);
	ck_assert_int_eq(json_object_get_int64(get(est, "trials")), (int64_t)n);
	pause = json_object_get_boolean(get(p, "learning")) ?
		json_object_get_double(get(p, "learning_pause_s")) : 0.0;
	for (i = 0; i < n; i++)
		want += json_object_get_double(get(json_object_array_get_idx(
			trials, i), "duration_s")) + pause +
			json_object_get_double(get(p, "drain_s"));
	want += (double)(n - 1) * json_object_get_double(get(p,
							 "restabilise_s"));
	ck_assert_double_eq_tol(json_object_get_double(get(est, "duration_s")),
				want, 1e-6);
}

START_TEST(submit_watch_result_dry_run)
{
	struct bm_client c;
	json_object *r, *res, *meta;
	char state[32], path[256], *csv, line[4096];
	int events;
	long job;
	FILE *f;
	DIR *dd;
	struct dirent *de;

	client(&c);
	r = call_ok(&c, req("procedures"));
	ck_assert_int_gt(json_object_array_length(get(r, "procedures")), 0);
	json_object_put(r);

	trial_delay_us = 2000;
	job = submit(&c, NULL, NULL);
	ck_assert_str_eq(watch_to_end(&c, job, &events, state), "done");
	ck_assert_int_ge(events, 1);

	r = call_ok(&c, req_job("result", job));
	res = get(r, "result");
	bm_test_keep_result(res, "bmd-dry-run");
	ck_assert_ptr_nonnull(get(res, "results"));
	ck_assert_ptr_nonnull(get(res, "trials"));
	meta = get(res, "meta");
	ck_assert_str_eq(gets_(meta, "bmgen_version"), BM_VERSION);
	ck_assert_ptr_nonnull(get(meta, "kernel"));
	ck_assert_ptr_nonnull(get(meta, "hostname"));
	ck_assert_ptr_nonnull(get(meta, "start"));
	ck_assert_ptr_nonnull(get(meta, "end"));
	ck_assert_ptr_nonnull(get(meta, "timestamp_source"));
	ck_assert(json_object_get_boolean(get(meta, "dry_run")));
	/* RFC 2544 §7: a dry run's DUT is the simulated device, described
	 * by bmd itself when the job names none */
	ck_assert_str_eq(gets_(get(meta, "dut"), "name"),
			 "the simulated device");
	ck_assert_str_eq(gets_(get(meta, "dut"), "software_version"),
			 "bmgen " BM_VERSION ", backend slow-sim");
	ck_assert_ptr_nonnull(strstr(gets_(get(meta, "dut"), "configuration"),
				     "defaults"));
	/* §15 and §19: a model has no cards and nothing in its path */
	ck_assert_str_eq(gets_(get(meta, "dut"), "pathway"), "n/a");
	ck_assert_ptr_nonnull(strstr(gets_(get(meta, "dut"), "path"),
				     "simulated device"));
	real_run_closed_form(res);
	/* what the submitter gave, by name, beside every parameter */
	ck_assert_int_eq(json_object_array_length(get(meta, "params_given")),
			 1);
	ck_assert_str_eq(json_object_get_string(json_object_array_get_idx(
		get(meta, "params_given"), 0)), "frame_sizes");
	ck_assert_ptr_nonnull(get(get(res, "params"), "trial_duration_s"));
	json_object_put(r);

	/* The files: JSON parses, CSV has a header and one row per trial. */
	snprintf(path, sizeof(path), "%s/%ld.json", dir, job);
	res = bm_read_json(path, NULL, NULL);
	ck_assert_ptr_nonnull(res);
	snprintf(path, sizeof(path), "%s/%ld.csv", dir, job);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	events = 0;
	while (fgets(line, sizeof(line), f))
		events++;
	fclose(f);
	ck_assert_int_eq(events - 1,
			 (int)json_object_array_length(get(res, "trials")));
	csv = bm_result_csv(res);
	ck_assert_ptr_nonnull(csv);
	free(csv);
	json_object_put(res);
	/* Atomic writes leave no temporaries behind (.lock is bmd's). */
	dd = opendir(dir);
	while ((de = readdir(dd)))
		ck_assert_msg(de->d_name[0] != '.' || !strcmp(de->d_name, ".") ||
			      !strcmp(de->d_name, "..") ||
			      !strcmp(de->d_name, ".lock") ||
			      !strcmp(de->d_name, ".last-id"),
			      "temporary left: %s", de->d_name);
	closedir(dd);
	bm_client_close(&c);
}
END_TEST

/* The registry through the protocol: every procedure in "procedures"
 * carries its schema, "procedure NAME" answers one, and what bmctl run
 * --help prints is all there. */
START_TEST(procedure_schema_from_bmd)
{
	json_object *r, *p, *a, *e = NULL, *o;
	struct bm_client c;
	char msg[256];
	size_t i, n;

	client(&c);
	r = call_ok(&c, req("procedures"));
	a = get(r, "procedures");
	n = json_object_array_length(a);
	ck_assert_int_ge(n, 7);
	for (i = 0; i < n; i++) {
		p = json_object_array_get_idx(a, i);
		/* the fields of protocol 1, and the registry's */
		ck_assert_ptr_nonnull(gets_(p, "name"));
		ck_assert_ptr_nonnull(gets_(p, "summary"));
		ck_assert_ptr_nonnull(gets_(p, "ref"));
		ck_assert_int_ge(json_object_get_int(get(p, "ports_needed")), 2);
		ck_assert_int_gt(json_object_array_length(get(p, "params")), 0);
	}
	json_object_put(r);

	o = req("procedure");
	json_object_object_add(o, "procedure", json_object_new_string(PROC));
	r = call_ok(&c, o);
	p = get(r, "procedure");
	ck_assert_str_eq(gets_(p, "name"), PROC);
	ck_assert_str_eq(gets_(p, "duration_key"), "trial_duration_s");
	ck_assert_str_eq(gets_(p, "sizes_key"), "frame_sizes");
	a = get(p, "params");
	for (i = 0; i < json_object_array_length(a); i++)
		if (!strcmp(gets_(json_object_array_get_idx(a, i), "key"),
			    "trial_duration_s"))
			e = json_object_array_get_idx(a, i);
	ck_assert_ptr_nonnull(e);
	ck_assert_str_eq(gets_(e, "unit"), "s");
	ck_assert(json_object_get_double(get(e, "default")) == 60.0);
	json_object_put(r);

	o = req("procedure");
	json_object_object_add(o, "procedure", json_object_new_string("nope"));
	call_err(&c, o, msg);
	ck_assert_str_eq(msg, "unknown procedure 'nope' (bmctl procedures lists them)");
	bm_client_close(&c);
}
END_TEST

/* bmctl port list asks bmd: the ports of bmd's host, "lo" among them,
 * each with the facts a result's meta carries. */
START_TEST(ports_from_bmd)
{
	json_object *r, *a, *lo = NULL;
	struct bm_client c;
	size_t i;

	client(&c);
	r = call_ok(&c, req("ports"));
	ck_assert_ptr_nonnull(gets_(r, "host"));
	a = get(r, "ports");
	for (i = 0; i < json_object_array_length(a); i++)
		if (!strcmp(gets_(json_object_array_get_idx(a, i), "name"), "lo"))
			lo = json_object_array_get_idx(a, i);
	ck_assert_ptr_nonnull(lo);
	ck_assert_str_eq(gets_(lo, "driver"), "virtual");
	ck_assert(json_object_object_get_ex(lo, "phc_index", NULL));
	ck_assert(json_object_object_get_ex(lo, "hw_timestamps", NULL));
	/* the build host runs no bmgen.ko: the module said nothing */
	ck_assert(json_object_object_get_ex(lo, "tx_paths", &a));
	ck_assert(a == NULL || json_object_is_type(a, json_type_array));
	json_object_put(r);
	bm_client_close(&c);
}
END_TEST

/* A port's transmit paths as the module gave them (1 << BMGEN_TXP_*):
 * their names in order; none given is null, not an empty list. */
START_TEST(port_json_tx_paths)
{
	struct bm_port_info pi;
	json_object *o, *a;

	memset(&pi, 0, sizeof(pi));
	snprintf(pi.name, sizeof(pi.name), "eth0");
	pi.phc_index = -1;
	pi.tx_paths = (1u << BMGEN_TXP_ALLOC) | (1u << BMGEN_TXP_RECYCLE);
	o = bmd_port_json(&pi, NULL);
	a = get(o, "tx_paths");
	ck_assert_uint_eq(json_object_array_length(a), 2);
	ck_assert_str_eq(json_object_get_string(json_object_array_get_idx(a, 0)), "alloc");
	ck_assert_str_eq(json_object_get_string(json_object_array_get_idx(a, 1)), "recycle");
	json_object_put(o);
	/* a veth whose peer receives XDP frames: no recycling, XDP */
	pi.tx_paths = (1u << BMGEN_TXP_ALLOC) | (1u << BMGEN_TXP_XDP);
	o = bmd_port_json(&pi, NULL);
	a = get(o, "tx_paths");
	ck_assert_uint_eq(json_object_array_length(a), 2);
	ck_assert_str_eq(json_object_get_string(json_object_array_get_idx(a, 1)), "xdp");
	json_object_put(o);
	pi.tx_paths = 1u << BMGEN_TXP_ALLOC;
	o = bmd_port_json(&pi, NULL);
	ck_assert_uint_eq(json_object_array_length(get(o, "tx_paths")), 1);
	json_object_put(o);
	pi.tx_paths = 0;
	o = bmd_port_json(&pi, NULL);
	ck_assert(json_object_object_get_ex(o, "tx_paths", &a));
	ck_assert_ptr_null(a);
	json_object_put(o);
}
END_TEST

/* Raw bytes to the daemon; the next message. */
static json_object *raw(struct bm_client *c, const char *s, size_t n)
{
	struct bm_error err = { "" };
	json_object *m;

	ck_assert_int_eq(send(c->fd, s, n, MSG_NOSIGNAL), (ssize_t)n);
	ck_assert_msg(!bm_client_recv(c, &m, RECV_MS, &err), "%s", err.msg);
	return m;
}

START_TEST(bad_requests_answered_daemon_survives)
{
	static const char *const lines[] = {
		"not json\n",
		"{\"id\":1,\"cmd\":\"reboot\"}\n",
		"{\"id\":2,\"cmd\":\"job\",\"job\":\"x\"}\n",
		"{\"id\":3,\"cmd\":\"job\",\"job\":999}\n",
		"{\"id\":4,\"cmd\":\"result\",\"job\":999}\n",
		"[]\n",
	};
	size_t big = BM_PROTO_MAX_LINE + 100, i;
	struct bm_client c;
	char msg[256], *junk;
	json_object *m, *o;

	client(&c);
	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		m = raw(&c, lines[i], strlen(lines[i]));
		ck_assert(!json_object_get_boolean(get(m, "ok")));
		ck_assert_ptr_nonnull(gets_(m, "error"));
		json_object_put(m);
	}
	/* Oversize: one error, then the same connection still works. */
	junk = malloc(big + 1);
	memset(junk, ' ', big);
	junk[big] = '\n';
	m = raw(&c, junk, big + 1);
	free(junk);
	ck_assert_ptr_nonnull(strstr(gets_(m, "error"), "too long"));
	json_object_put(m);

	/* Refusals with reasons: another host's port without a line rate,
	 * unknown procedure, bad params, no port. */
	o = req("submit");
	json_object_object_add(o, "procedure", json_object_new_string(PROC));
	json_object_object_add(o, "ports", json_tokener_parse(
		"{\"tx\":\"lab2:b\",\"rx\":\"a\"}"));
	call_err(&c, o, msg);
	ck_assert_msg(strstr(msg, "port lab2:b is on host lab2: give "
			     "ports.line_rate_bps"), "%s", msg);
	/* a host bmd.conf's hosts does not list: bmd's ssh key reaches
	 * only those; a name ssh would take for an option: none */
	o = req("submit");
	json_object_object_add(o, "procedure", json_object_new_string(PROC));
	json_object_object_add(o, "ports", json_tokener_parse(
		"{\"tx\":\"lab9:b\",\"rx\":\"a\"}"));
	call_err(&c, o, msg);
	ck_assert_msg(strstr(msg, "port lab9:b: host lab9 is not one of bmd's "
			     "tester hosts (hosts = lab2 lab3=bmgen@10.0.0.3 "
			     "in "), "%s", msg);
	/* a job's own tolerance of the hosts' clocks: a pool's, and only
	 * tighter than this bmd's (its default, 1 ms) */
	o = req("submit");
	json_object_object_add(o, "procedure", json_object_new_string(PROC));
	json_object_object_add(o, "ports", json_tokener_parse(
		"{\"tx\":\"lab2:b\",\"rx\":\"lo\",\"line_rate_bps\":1e9,"
		"\"sync_tolerance_us\":5000}"));
	call_err(&c, o, msg);
	ck_assert_msg(strstr(msg, "ports.sync_tolerance_us: 5000 us is looser "
			     "than this bmd's 1000 us (sync-tolerance-us in "),
		      "%s", msg);
	o = req("submit");
	json_object_object_add(o, "procedure", json_object_new_string(PROC));
	json_object_object_add(o, "dry_run", json_object_new_boolean(true));
	json_object_object_add(o, "ports", json_tokener_parse(
		"{\"tx\":\"a\",\"rx\":\"b\",\"sync_tolerance_us\":50}"));
	call_err(&c, o, msg);
	ck_assert_msg(strstr(msg, "every port of the job is this host's"),
		      "%s", msg);
	o = req("submit");
	json_object_object_add(o, "procedure", json_object_new_string(PROC));
	json_object_object_add(o, "ports", json_tokener_parse(
		"{\"tx\":\"-F/tmp/x:b\",\"rx\":\"a\"}"));
	call_err(&c, o, msg);
	ck_assert_msg(strstr(msg, "bad interface name (IFNAME or HOST:IFNAME"),
		      "%s", msg);
	o = req("submit");
	json_object_object_add(o, "procedure", json_object_new_string("nope"));
	json_object_object_add(o, "dry_run", json_object_new_boolean(true));
	call_err(&c, o, msg);
	ck_assert_ptr_nonnull(strstr(msg, "unknown procedure"));
	o = req("submit");
	json_object_object_add(o, "procedure", json_object_new_string(PROC));
	json_object_object_add(o, "dry_run", json_object_new_boolean(true));
	json_object_object_add(o, "params",
			       json_tokener_parse("{\"frame_sizes\":\"x\"}"));
	call_err(&c, o, msg);
	ck_assert_ptr_nonnull(strstr(msg, "frame_sizes"));
	o = req("submit");
	json_object_object_add(o, "procedure", json_object_new_string(PROC));
	json_object_object_add(o, "ports", json_tokener_parse(
		"{\"tx\":\"nosuchdev0\",\"rx\":\"lo\",\"line_rate_bps\":1e9}"));
	call_err(&c, o, msg);
	ck_assert_ptr_nonnull(strstr(msg, "nosuchdev0"));
	o = req("submit");
	json_object_object_add(o, "procedure", json_object_new_string(PROC));
	json_object_object_add(o, "dry_run", json_object_new_boolean(true));
	json_object_object_add(o, "sim", json_tokener_parse("{\"bogus\":1}"));
	call_err(&c, o, msg);
	ck_assert_ptr_nonnull(strstr(msg, "bogus"));
	/* Nothing was queued by any of that. */
	m = call_ok(&c, req("jobs"));
	ck_assert_int_eq(json_object_array_length(get(m, "jobs")), 0);
	json_object_put(m);
	m = call_ok(&c, req("status"));
	ck_assert_str_eq(gets_(m, "version"), BM_VERSION);
	ck_assert(get(m, "module") || get(m, "module_error"));
	json_object_put(m);
	bm_client_close(&c);
}
END_TEST

/* Send s on a fresh connection; the reply line exactly as bmd sent it,
 * newline included, into buf. */
static size_t raw_reply(const char *s, char *buf, size_t size)
{
	struct bm_client c;
	size_t n = 0;
	ssize_t r;

	client(&c);
	ck_assert_int_eq(send(c.fd, s, strlen(s), MSG_NOSIGNAL),
			 (ssize_t)strlen(s));
	while (!n || buf[n - 1] != '\n') {
		ck_assert_uint_lt(n, size - 1);
		r = recv(c.fd, buf + n, size - 1 - n, 0);
		ck_assert_int_gt(r, 0);
		n += r;
	}
	buf[n] = '\0';
	bm_client_close(&c);
	return n;
}

/* Bytes that are not UTF-8 in a request are never
 * echoed; the refusal is JSON a strict reader accepts, with the id. */
START_TEST(invalid_utf8_gets_a_json_reply)
{
	static const char *const lines[] = {
		"{\"id\":3,\"cmd\":\"\xff\xfe\"}\n",
		"{\"id\":3,\"cmd\":\"status\",\"k\xc3\":1}\n",
		"{\"id\":3,\"cmd\":\"procedure\",\"procedure\":\"\xed\xa0\x80\"}\n",
		"{\"id\":3,\"cmd\":\"submit\",\"procedure\":\"" PROC "\","
		"\"dry_run\":true,\"dut\":{\"name\":\"\xe9t\xe9\"}}\n",
	};
	json_object *m;
	char buf[512];
	size_t i, n;

	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		n = raw_reply(lines[i], buf, sizeof(buf));
		ck_assert_msg(tj_utf8_valid(buf, n), "reply %zu: %s", i, buf);
		m = json_tokener_parse(buf);
		ck_assert_ptr_nonnull(m);
		ck_assert_int_eq(json_object_get_int64(get(m, "id")), 3);
		ck_assert(!json_object_get_boolean(get(m, "ok")));
		ck_assert_ptr_nonnull(strstr(gets_(m, "error"), "UTF-8"));
		json_object_put(m);
	}
	/* and the Latin-1 DUT name was not queued */
	n = raw_reply("{\"id\":4,\"cmd\":\"jobs\"}\n", buf, sizeof(buf));
	ck_assert_str_eq(buf, "{\"id\":4,\"ok\":true,\"jobs\":[]}\n");
}
END_TEST

START_TEST(client_disconnect_does_not_affect_job)
{
	struct bm_client c, w1, w2;
	struct bm_error err = { "" };
	json_object *m, *o;
	char state[32], s2[32];
	int events, e2;
	long job;

	trial_delay_us = 20000;
	client(&c);
	job = submit(&c, NULL, NULL);
	/* A watcher that reads one event and hangs up mid-job. */
	client(&w1);
	o = req_job("watch", job);
	ck_assert_int_gt(bm_client_send(&w1, o, &err), 0);
	json_object_put(o);
	ck_assert_int_eq(bm_client_recv(&w1, &m, RECV_MS, &err), 0);
	ck_assert_str_eq(gets_(m, "event"), "start");
	json_object_put(m);
	bm_client_close(&w1);
	bm_client_close(&c);

	/* Two more watchers on separate connections both see the end. */
	client(&w1);
	client(&w2);
	o = req_job("watch", job);
	ck_assert_int_gt(bm_client_send(&w2, o, &err), 0);
	json_object_put(o);
	ck_assert_str_eq(watch_to_end(&w1, job, &events, state), "done");
	ck_assert_int_eq(bm_client_recv(&w2, &m, RECV_MS, &err), 0);
	ck_assert_str_eq(gets_(m, "event"), "start");
	json_object_put(m);
	e2 = 0;
	for (;;) {
		ck_assert_int_eq(bm_client_recv(&w2, &m, RECV_MS, &err), 0);
		if (!strcmp(gets_(m, "event"), "end")) {
			strcpy(s2, gets_(get(m, "job"), "state"));
			json_object_put(m);
			break;
		}
		e2++;
		json_object_put(m);
	}
	ck_assert_str_eq(s2, "done");
	m = call_ok(&w1, req_job("result", job));
	ck_assert_ptr_nonnull(get(get(m, "result"), "results"));
	bm_test_keep_result(get(m, "result"), "bmd-watched");
	json_object_put(m);
	bm_client_close(&w1);
	bm_client_close(&w2);
}
END_TEST

START_TEST(same_ports_wait_dry_runs_do_not)
{
	struct bm_client c;
	char s[32];
	int events;
	long j1, j2, j3;

	/* Slow enough that j1 is still running when j2 is looked at. */
	trial_delay_us = 50000;
	client(&c);
	j1 = submit(&c, "lo", "lo");
	j2 = submit(&c, "lo", "lo");
	j3 = submit(&c, NULL, NULL);
	ck_assert_str_eq(job_state(&c, j1, s), "running");
	ck_assert_str_eq(job_state(&c, j2, s), "queued");
	ck_assert_str_eq(job_state(&c, j3, s), "running");
	ck_assert_str_eq(watch_to_end(&c, j1, &events, s), "done");
	ck_assert_str_eq(watch_to_end(&c, j2, &events, s), "done");
	ck_assert_str_eq(watch_to_end(&c, j3, &events, s), "done");
	bm_client_close(&c);
	{
		static const char *const ab[] = { "a", "b" }, *const bc[] = {
			"b", "c" }, *const cd[] = { "c", "d" }, *const none[] = {
			NULL, NULL }, *const aa[] = { "a", "a" };
		/* an N-port job holds every port: the third one too */
		static const char *const abx[] = { "a", "b", "x" },
			*const cdx[] = { "c", "d", "x" }, *const cde[] = {
			"c", "d", "e" };

		ck_assert(bmd_ports_conflict(2, ab, 2, bc));
		ck_assert(!bmd_ports_conflict(2, ab, 2, cd));
		ck_assert(!bmd_ports_conflict(2, none, 2, aa));
		ck_assert(!bmd_ports_conflict(0, NULL, 2, aa));
		ck_assert(bmd_ports_conflict(3, abx, 3, cdx));
		ck_assert(!bmd_ports_conflict(3, abx, 3, cde));
		ck_assert(bmd_ports_conflict(2, cd, 3, cde));
	}
}
END_TEST

/* --- N ports ------------------------------------------------------------ */

/* A port in the fake sysfs tree at sysfs_root: speed in Mbit/s (-1:
 * unknown, as veth says). */
static void fake_port(const char *name, long speed)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", sysfs_root, name);
	ck_assert_int_eq(bm_mkdirs(path, NULL), 0);
	snprintf(path, sizeof(path), "%s/%s/speed", sysfs_root, name);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "%ld\n", speed);
	fclose(f);
	snprintf(path, sizeof(path), "%s/%s/mtu", sysfs_root, name);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs("1500\n", f);
	fclose(f);
}

/* Restart bmd on a fake sysfs tree of ports p1..p8 at 1 Gbit/s, p9 at
 * 10 Gbit/s and p10 of unknown speed: real (not dry-run) N-port jobs
 * without the host's interfaces. */
static void daemon_on_fake_ports(void)
{
	static char root[96];
	char name[16];
	int i;

	daemon_stop();
	snprintf(root, sizeof(root), "%s/sys", dir);
	sysfs_root = root;
	for (i = 1; i <= 8; i++) {
		snprintf(name, sizeof(name), "p%d", i);
		fake_port(name, 1000);
	}
	fake_port("p9", 10000);
	fake_port("p10", -1);
	daemon_start();
}

/* Submit PROC at 64 B on the ports in csv ("p1,p2,p3") as ports.list; a
 * line rate when rate > 0. */
static json_object *submit_list_req(const char *csv, double rate, bool dry)
{
	json_object *o = req("submit"), *p, *l;
	char buf[256], *tok, *save;

	json_object_object_add(o, "procedure", json_object_new_string(PROC));
	json_object_object_add(o, "params",
			       json_tokener_parse("{\"frame_sizes\":[64]}"));
	p = json_object_new_object();
	l = json_object_new_array();
	snprintf(buf, sizeof(buf), "%s", csv);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save))
		json_object_array_add(l, json_object_new_string(tok));
	json_object_object_add(p, "list", l);
	if (rate > 0)
		json_object_object_add(p, "line_rate_bps",
				       json_object_new_double(rate));
	json_object_object_add(o, "ports", p);
	if (dry)
		json_object_object_add(o, "dry_run",
				       json_object_new_boolean(true));
	return o;
}

static long submit_list(struct bm_client *c, const char *csv, double rate,
			bool dry)
{
	json_object *r = call_ok(c, submit_list_req(csv, rate, dry));
	long id = json_object_get_int64(get(r, "job"));

	ck_assert_int_gt(id, 0);
	json_object_put(r);
	return id;
}

/* The names of a JSON array of strings, joined by ','. */
static char *join(json_object *a, char *buf, size_t size)
{
	size_t i, off = 0;

	buf[0] = '\0';
	for (i = 0; i < json_object_array_length(a); i++)
		off += snprintf(buf + off, size - off, "%s%s", i ? "," : "",
				json_object_get_string(
					json_object_array_get_idx(a, i)));
	return buf;
}

/* A 3-port job: every name reaches the backend factory in order, the
 * line rate is the ports' common speed, the result's meta lists the
 * ports with their roles, and the job (with its list) survives a
 * restart. */
/* The port p of a ports reply. */
static json_object *port_of(json_object *r, const char *name)
{
	json_object *a = get(r, "ports"), *p;
	size_t i;

	for (i = 0; i < json_object_array_length(a); i++) {
		p = json_object_array_get_idx(a, i);
		if (!strcmp(gets_(p, "name"), name))
			return p;
	}
	ck_abort_msg("no port %s", name);
	return NULL;
}

/*
 * REQ-GEN-6: a bmgen.capacity job is the figure of its tx port (ports,
 * status, after a restart too), and a job whose line rate at its smallest
 * frame is above it is warned before its first trial and in its result.
 * Closed form: the sim's generator sends 0.5 Mfps; at 1 Gbit/s and 64 B
 * the line is 1,488,095 fps, so one kthread carries 33.6 % of it.
 */
START_TEST(capacity_kept_shown_and_warned)
{
	const char *want = "generator capacity (REQ-GEN-6): at 64 B the line "
		"rate is 1.488e+06 fps; one transmit kthread sent 5e+05 fps "
		"from p1 (tx path auto, bmgen.capacity), 1 kthread 5e+05 fps: "
		"what p1 sends above 33.6 % of the line rate will be "
		"generator-limited";
	struct bm_error err = { "" };
	json_object *o, *r, *p, *m, *e, *dev;
	struct bm_client c;
	char s[32], warned[512] = "";
	int events;
	long cal, job;
	int64_t id;
	size_t i;

	gen_max_fps = 5e5;
	daemon_on_fake_ports();
	client(&c);
	o = req("submit");
	json_object_object_add(o, "procedure",
			       json_object_new_string("bmgen.capacity"));
	json_object_object_add(o, "params", json_tokener_parse(
		"{\"tx_paths\": [\"auto\"], \"steps\": 1, \"duration_s\": 0.1}"));
	json_object_object_add(o, "ports", json_tokener_parse(
		"{\"tx\": \"p1\", \"rx\": \"p2\"}"));
	r = call_ok(&c, o);
	cal = json_object_get_int64(get(r, "job"));
	json_object_put(r);
	ck_assert_str_eq(watch_to_end(&c, cal, &events, s), "done");

	r = call_ok(&c, req("ports"));
	p = get(port_of(r, "p1"), "capacity");
	ck_assert_int_eq(json_object_get_int64(get(p, "job")), cal);
	ck_assert_str_eq(gets_(p, "rx_port"), "p2");
	e = json_object_array_get_idx(get(p, "capacity"), 0);
	ck_assert_double_eq_tol(json_object_get_double(get(e, "send_fps")),
				5e5, 5e5 * 1e-3);
	ck_assert_double_eq_tol(json_object_get_double(get(e, "loop_fps")),
				0.95 * 5e5, 1.0);
	ck_assert(!json_object_object_get_ex(port_of(r, "p2"), "capacity",
					     &m) || !m);
	json_object_put(r);
	r = call_ok(&c, req("status"));
	ck_assert_int_eq(json_object_array_length(get(r, "capacity")), 1);
	ck_assert_str_eq(gets_(json_object_array_get_idx(get(r, "capacity"), 0),
			       "port"), "p1");
	json_object_put(r);

	/* the warning, replayed from the job's events */
	job = submit(&c, "p1", "p2");
	o = req_job("watch", job);
	json_object_object_add(o, "history", json_object_new_boolean(true));
	id = bm_client_send(&c, o, &err);
	json_object_put(o);
	ck_assert_int_gt(id, 0);
	for (;;) {
		ck_assert_msg(!bm_client_recv(&c, &m, RECV_MS, &err), "%s",
			      err.msg);
		if (json_object_get_int64(get(m, "id")) != id) {
			json_object_put(m);
			continue;
		}
		if (!strcmp(gets_(m, "event"), "warning"))
			snprintf(warned, sizeof(warned), "%s",
				 gets_(m, "message"));
		if (!strcmp(gets_(m, "event"), "end")) {
			json_object_put(m);
			break;
		}
		json_object_put(m);
	}
	ck_assert_str_eq(warned, want);
	r = call_ok(&c, req_job("result", job));
	dev = get(get(r, "result"), "deviations");
	for (i = 0; i < json_object_array_length(dev); i++)
		if (!strcmp(json_object_get_string(
			json_object_array_get_idx(dev, i)), want))
			break;
	ck_assert_msg(i < json_object_array_length(dev),
		      "the result's deviations lack the warning");
	bm_test_keep_result(get(r, "result"), "bmd-capacity-warned");
	json_object_put(r);
	bm_client_close(&c);

	/* the results directory is the cache: a restart keeps the figure */
	daemon_stop();
	daemon_start();
	client(&c);
	r = call_ok(&c, req("ports"));
	ck_assert_int_eq(json_object_get_int64(get(get(port_of(r, "p1"),
		"capacity"), "job")), cal);
	json_object_put(r);
	bm_client_close(&c);
}
END_TEST

START_TEST(n_port_job_desc_meta_and_restart)
{
	json_object *r, *j, *ports, *meta;
	struct bm_client c;
	char s[32], buf[256], path[256];
	int events;
	long job;

	daemon_on_fake_ports();
	client(&c);
	job = submit_list(&c, "p3,p1,p2", 0, false);
	ck_assert_str_eq(watch_to_end(&c, job, &events, s), "done");
	ck_assert_uint_eq(desc_n_ports, 3);
	ck_assert_str_eq(desc_ports[0], "p3");
	ck_assert_str_eq(desc_ports[1], "p1");
	ck_assert_str_eq(desc_ports[2], "p2");
	ck_assert_str_eq(desc_tx, "p3");
	ck_assert_str_eq(desc_rx, "p1");

	r = call_ok(&c, req_job("job", job));
	j = get(get(r, "job"), "ports");
	ck_assert_str_eq(join(get(j, "list"), buf, sizeof(buf)), "p3,p1,p2");
	ck_assert_str_eq(gets_(j, "tx"), "p3");
	ck_assert_str_eq(gets_(j, "rx"), "p1");
	ck_assert(json_object_get_double(get(j, "line_rate_bps")) == 1e9);
	json_object_put(r);

	r = call_ok(&c, req_job("result", job));
	bm_test_keep_result(get(r, "result"), "bmd-3-ports");
	meta = get(get(r, "result"), "meta");
	ports = get(meta, "ports");
	ck_assert_int_eq(json_object_array_length(ports), 3);
	ck_assert_str_eq(gets_(json_object_array_get_idx(ports, 0), "name"), "p3");
	ck_assert_str_eq(gets_(json_object_array_get_idx(ports, 0), "role"), "tx");
	ck_assert_str_eq(gets_(json_object_array_get_idx(ports, 1), "role"), "rx");
	ck_assert_str_eq(gets_(json_object_array_get_idx(ports, 2), "name"), "p2");
	ck_assert_str_eq(gets_(json_object_array_get_idx(ports, 2), "role"), "port");
	ck_assert_int_eq(json_object_get_int(
		get(json_object_array_get_idx(ports, 2), "speed_mbps")), 1000);
	json_object_put(r);

	/* A dry run's list reaches the backend too (no port need exist). */
	job = submit_list(&c, "x1,x2,x3,x4", 0, true);
	ck_assert_str_eq(watch_to_end(&c, job, &events, s), "done");
	ck_assert_uint_eq(desc_n_ports, 4);
	ck_assert_str_eq(desc_ports[3], "x4");
	bm_client_close(&c);

	/* The job file keeps the list next to tx and rx; a restart reads
	 * it back. */
	daemon_stop();
	snprintf(path, sizeof(path), "%s/jobs/1.json", dir);
	r = bm_read_json(path, NULL, NULL);
	ck_assert_ptr_nonnull(r);
	ck_assert_str_eq(join(get(get(r, "ports"), "list"), buf, sizeof(buf)),
			 "p3,p1,p2");
	ck_assert_str_eq(gets_(get(r, "ports"), "tx"), "p3");
	json_object_put(r);
	daemon_start();
	client(&c);
	r = call_ok(&c, req_job("job", 1));
	j = get(get(r, "job"), "ports");
	ck_assert_str_eq(gets_(get(r, "job"), "state"), "done");
	ck_assert_str_eq(join(get(j, "list"), buf, sizeof(buf)), "p3,p1,p2");
	json_object_put(r);
	r = call_ok(&c, req_job("job", 2));
	ck_assert_str_eq(join(get(get(get(r, "job"), "ports"), "list"), buf,
			      sizeof(buf)), "x1,x2,x3,x4");
	json_object_put(r);
	bm_client_close(&c);
}
END_TEST

/* The queue: jobs that share any port wait, the third port too; jobs on
 * other ports run beside them.  The line rate: every port's speed must
 * be known and the same unless given, every port must exist. */
START_TEST(n_port_jobs_share_a_third_port)
{
	struct bm_client c;
	char s[32], msg[256];
	int events;
	long j1, j2, j3, j4;

	daemon_on_fake_ports();
	trial_delay_us = 50000;
	client(&c);
	j1 = submit_list(&c, "p1,p2,p3", 0, false);
	j2 = submit_list(&c, "p4,p5,p3", 0, false);
	j3 = submit_list(&c, "p6,p7,p8", 0, false);
	/* the old tx/rx pair against a list: p8 is j3's third port */
	j4 = submit(&c, "p8", "p9");
	ck_assert_str_eq(job_state(&c, j1, s), "running");
	ck_assert_str_eq(job_state(&c, j2, s), "queued");
	ck_assert_str_eq(job_state(&c, j3, s), "running");
	ck_assert_str_eq(job_state(&c, j4, s), "queued");
	ck_assert_str_eq(watch_to_end(&c, j1, &events, s), "done");
	ck_assert_str_eq(watch_to_end(&c, j2, &events, s), "done");
	ck_assert_str_eq(watch_to_end(&c, j3, &events, s), "done");
	ck_assert_str_eq(watch_to_end(&c, j4, &events, s), "done");

	call_err(&c, submit_list_req("p1,p2,p9", 0, false), msg);
	ck_assert_str_eq(msg, "ports p1 (1000 Mbit/s) and p9 (10000 Mbit/s) differ in link speed: give ports.line_rate_bps");
	call_err(&c, submit_list_req("p1,p2,p10", 0, false), msg);
	ck_assert_str_eq(msg, "line rate of p10 unknown (virtual or link down): give ports.line_rate_bps");
	call_err(&c, submit_list_req("p1,p2,p11", 1e9, false), msg);
	ck_assert_str_eq(msg, "port p11: no such device");
	call_err(&c, submit_list_req("p1,p2,p1", 1e9, false), msg);
	ck_assert_str_eq(msg, "submit: ports: 'p1' is in 'list' twice (list[0] and list[2])");
	/* with a given line rate, mixed and unknown speeds are the user's
	 * call */
	j1 = submit_list(&c, "p1,p9,p10", 1e9, false);
	ck_assert_str_eq(watch_to_end(&c, j1, &events, s), "done");
	ck_assert_str_eq(desc_ports[2], "p10");
	bm_client_close(&c);
}
END_TEST

/* The default factory names a dry run's simulated ports: the job's, or
 * "sim1".."simK" for the K (at least 2) ports the procedure needs. */
START_TEST(default_backend_names_ports)
{
	struct bmd_job_desc jd = { .id = 1, .procedure = PROC,
				   .dry_run = true, .line_rate_bps = 1e9 };
	const struct bm_procedure_info *pi;
	size_t k;
	struct bm_error err = { "" };
	struct bm_backend *be;
	char want[16];

	be = bmd_backend_default(NULL, &jd, &err);
	ck_assert_msg(be, "%s", err.msg);
	ck_assert_uint_eq(be->n_ports, 2);
	ck_assert_str_eq(be->port_names[0], "sim1");
	ck_assert_str_eq(be->port_names[1], "sim2");
	be->ops->destroy(be);

	/* every procedure: as many as it needs (RFC 8239's more than 2) */
	for (k = 0; (pi = bm_procedure_at(k)); k++) {
		jd.procedure = pi->name;
		be = bmd_backend_default(NULL, &jd, &err);
		ck_assert_msg(be, "%s: %s", pi->name, err.msg);
		ck_assert_uint_eq(be->n_ports, pi->ports_needed > 2 ?
				  pi->ports_needed : 2);
		snprintf(want, sizeof(want), "sim%u", be->n_ports);
		ck_assert_str_eq(be->port_names[be->n_ports - 1], want);
		be->ops->destroy(be);
	}

	jd.procedure = PROC;
	jd.n_ports = 3;
	jd.ports[0] = jd.tx_port = "a";
	jd.ports[1] = jd.rx_port = "b";
	jd.ports[2] = "c";
	be = bmd_backend_default(NULL, &jd, &err);
	ck_assert_msg(be, "%s", err.msg);
	ck_assert_uint_eq(be->n_ports, 3);
	ck_assert_str_eq(be->port_names[0], "a");
	ck_assert_str_eq(be->port_names[2], "c");
	be->ops->destroy(be);

	/* a dry run over two hosts' ports: a pool of simulators, its
	 * ports as the job named them, every trial run as both hosts'
	 * halves (test_pool's truth) */
	jd.n_ports = 2;
	jd.ports[1] = jd.rx_port = "lab2:b";
	jd.sync_tolerance_us = 50;	/* a job's own, as the worker gives it */
	be = bmd_backend_default(NULL, &jd, &err);
	ck_assert_msg(be, "%s", err.msg);
	ck_assert(bm_backend_is_pool(be));
	ck_assert_str_eq(be->port_names[1], "lab2:b");
	{
		json_object *p = json_tokener_parse("{\"frame_sizes\":[512],"
			"\"search_trial_duration_s\":1,"
			"\"trial_duration_s\":1}");
		json_object *doc = NULL;

		ck_assert_msg(bm_procedure_run(PROC, p, be, NULL, NULL, &doc,
					       &err) == 0, "%s", err.msg);
		bm_test_keep_result(doc, "bmd-dry-run-pool");
		ck_assert_double_gt(json_object_get_double(get(
			json_object_array_get_idx(get(get(doc, "results"),
					"per_size"), 0), "throughput_fps")), 0);
		ck_assert_double_eq(json_object_get_double(get(get(
			json_object_array_get_idx(get(doc, "trials"), 0),
			"sync"), "tolerance_ns")), 50e3);
		json_object_put(doc);
		json_object_put(p);
	}
	bmd_backend_free(be);
}
END_TEST

/* A job's own tolerance of its hosts' clocks, tighter than bmd's: the
 * job keeps it (the worker gives it to the pool: dry_run_backends). */
START_TEST(job_sync_tolerance_kept)
{
	struct bm_client c;
	json_object *o, *r;
	long job;

	client(&c);
	o = req("submit");
	json_object_object_add(o, "procedure", json_object_new_string(PROC));
	json_object_object_add(o, "dry_run", json_object_new_boolean(true));
	json_object_object_add(o, "params", json_tokener_parse(
		"{\"frame_sizes\":[512],\"trial_duration_s\":1,"
		"\"search_trial_duration_s\":1}"));
	json_object_object_add(o, "ports", json_tokener_parse(
		"{\"tx\":\"a\",\"rx\":\"lab2:b\",\"sync_tolerance_us\":50}"));
	r = call_ok(&c, o);
	job = json_object_get_int64(get(r, "job"));
	json_object_put(r);
	r = call_ok(&c, req_job("job", job));
	ck_assert(json_object_get_double(get(get(get(r, "job"), "ports"),
					     "sync_tolerance_us")) == 50);
	json_object_put(r);
	bm_client_close(&c);
}
END_TEST

START_TEST(cancel_queued_and_running)
{
	struct bm_client c;
	json_object *r;
	char s[32], msg[256];
	int events;
	long j1, j2;

	trial_delay_us = 50000;
	client(&c);
	j1 = submit(&c, "lo", "lo");
	j2 = submit(&c, "lo", "lo");
	r = call_ok(&c, req_job("cancel", j2));
	ck_assert_str_eq(gets_(get(r, "job"), "state"), "cancelled");
	json_object_put(r);
	r = call_ok(&c, req_job("cancel", j1));
	json_object_put(r);
	ck_assert_str_eq(watch_to_end(&c, j1, &events, s), "cancelled");
	call_err(&c, req_job("cancel", j1), msg);
	ck_assert_ptr_nonnull(strstr(msg, "already cancelled"));
	bm_client_close(&c);
}
END_TEST

START_TEST(restart_keeps_results_and_marks_interrupted)
{
	struct bm_client c;
	json_object *r, *o;
	char s[32], path[256];
	int events;
	long done, running;
	FILE *f;

	trial_delay_us = 1000;
	client(&c);
	done = submit(&c, NULL, NULL);
	ck_assert_str_eq(watch_to_end(&c, done, &events, s), "done");
	trial_delay_us = 200000;
	running = submit(&c, "lo", "lo");
	ck_assert_str_eq(job_state(&c, running, s), "running");
	bm_client_close(&c);

	/* SIGTERM path: the running job is interrupted, not lost. */
	daemon_stop();
	/* And a crash: a job file that still says running. */
	snprintf(path, sizeof(path), "%s/jobs/99.json", dir);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs("{\"job\":99,\"state\":\"running\",\"procedure\":\"" PROC
	      "\",\"ports\":{\"tx\":\"lo\",\"rx\":\"lo\"}}", f);
	fclose(f);
	/* Garbage in the jobs dir is skipped, not fatal. */
	snprintf(path, sizeof(path), "%s/jobs/7.json", dir);
	f = fopen(path, "w");
	fputs("{{{", f);
	fclose(f);

	daemon_start();
	client(&c);
	ck_assert_str_eq(job_state(&c, done, s), "done");
	ck_assert_str_eq(job_state(&c, running, s), "interrupted");
	ck_assert_str_eq(job_state(&c, 99, s), "interrupted");
	r = call_ok(&c, req_job("job", 99));
	ck_assert_ptr_nonnull(strstr(gets_(get(r, "job"), "error"),
				     "while the job was running"));
	json_object_put(r);
	r = call_ok(&c, req_job("result", done));
	ck_assert_ptr_nonnull(get(get(r, "result"), "meta"));
	bm_test_keep_result(get(r, "result"), "bmd-after-restart");
	json_object_put(r);
	/* New ids continue after the highest one seen. */
	o = req("submit");
	json_object_object_add(o, "procedure", json_object_new_string(PROC));
	json_object_object_add(o, "dry_run", json_object_new_boolean(true));
	r = call_ok(&c, o);
	ck_assert_int_eq(json_object_get_int64(get(r, "job")), 100);
	json_object_put(r);
	ck_assert(exists("jobs/100.json"));
	bm_client_close(&c);
}
END_TEST

/*
 * A bmd killed in the middle of a job lost every trial of it: the
 * restart marked the job interrupted with 0 trials although each one was
 * in its events file.  Now its result is rebuilt from that file: every
 * trial as it was reported (a last line cut short by the kill left out),
 * the job's parameters and meta, and a deviation that says so.
 */
START_TEST(restart_rebuilds_result_from_events)
{
	struct bm_client c;
	json_object *r, *res, *trials, *want;
	char s[32], from[256], to[256], line[65536], msg[160];
	int events, n = 0;
	long done;
	FILE *in, *out;

	trial_delay_us = 1000;
	client(&c);
	done = submit(&c, NULL, NULL);
	ck_assert_str_eq(watch_to_end(&c, done, &events, s), "done");
	bm_client_close(&c);
	daemon_stop();

	/* job 98 died running, with job 'done''s trials in its events */
	snprintf(from, sizeof(from), "%s/jobs/%ld.events", dir, done);
	snprintf(to, sizeof(to), "%s/jobs/98.events", dir);
	in = fopen(from, "r");
	out = fopen(to, "w");
	ck_assert_ptr_nonnull(in);
	ck_assert_ptr_nonnull(out);
	while (fgets(line, sizeof(line), in)) {
		n += strstr(line, "\"event\":\"progress\"") &&
		     strstr(line, "\"trial\":{");
		fputs(line, out);
	}
	fputs("{\"ok\":true,\"event\":\"progress\",\"trials\":9", out);
	fclose(in);
	fclose(out);
	ck_assert_int_gt(n, 2);
	put_file("jobs/98.json",
		 "{\"job\":98,\"state\":\"running\",\"procedure\":\"" PROC "\","
		 "\"params\":{\"frame_sizes\":[64]},\"dry_run\":true,"
		 "\"ports\":{\"list\":[],\"line_rate_bps\":1e9},"
		 "\"submitted\":\"2026-12-02T10:00:00.000Z\","
		 "\"started\":\"2026-12-02T10:00:00.100Z\",\"trials\":0}");
	/* and job 97, on the module, killed before its first trial ended */
	put_file("jobs/97.json",
		 "{\"job\":97,\"state\":\"running\",\"procedure\":\"" PROC "\","
		 "\"params\":{\"frame_sizes\":[64]},"
		 "\"ports\":{\"tx\":\"lo\",\"rx\":\"lo\","
		 "\"line_rate_bps\":1e9},"
		 "\"submitted\":\"2026-12-02T10:00:00.000Z\","
		 "\"started\":\"2026-12-02T10:00:00.100Z\",\"trials\":0}");
	put_file("jobs/97.events", "{\"ok\":true,\"event\":\"progress\","
		 "\"trials\":0}\n");

	daemon_start();
	client(&c);
	ck_assert_str_eq(job_state(&c, 98, s), "interrupted");
	r = call_ok(&c, req_job("job", 98));
	ck_assert_int_eq(json_object_get_int(get(get(r, "job"), "trials")), n);
	snprintf(msg, sizeof(msg),
		 "bmd stopped while the job was running; its %d finished trials are kept in its result",
		 n);
	ck_assert_str_eq(gets_(get(r, "job"), "error"), msg);
	json_object_put(r);
	r = call_ok(&c, req_job("result", 98));
	res = get(r, "result");
	trials = get(res, "trials");
	ck_assert_int_eq(json_object_array_length(trials), n);
	snprintf(msg, sizeof(msg),
		 "bmd stopped while the job ran (killed or restarted): this result is rebuilt from the %d trial(s) of its events file, one line cut short left out",
		 n);
	ck_assert_ptr_nonnull(strstr(json_object_get_string(
		json_object_array_get_idx(get(res, "deviations"), 0)), msg));
	ck_assert_str_eq(gets_(get(res, "procedure"), "id"), PROC);
	ck_assert_str_eq(gets_(get(res, "meta"), "backend"), "sim");
	ck_assert_str_eq(gets_(get(res, "meta"), "start"),
			 "2026-12-02T10:00:00.100Z");
	{
		json_object *r97 = call_ok(&c, req_job("result", 97));
		json_object *m = get(get(r97, "result"), "meta");

		/* no trial of it took a timestamp: it claims none, neither
		 * its backend's name nor software stamps' accuracy */
		ck_assert_str_eq(gets_(m, "backend"), "genl");
		ck_assert_str_eq(gets_(m, "timestamp_source"), "none");
		ck_assert_str_eq(gets_(m, "timestamp_accuracy"),
				 "none: no trial took a timestamp");
		bm_test_keep_result(get(r97, "result"),
				    "bmd-rebuilt-no-trial");
		json_object_put(r97);
	}
	/* the trials are those the finished job reported, one for one */
	want = call_ok(&c, req_job("result", done));
	ck_assert_str_eq(json_object_to_json_string(json_object_array_get_idx(
				trials, n - 1)),
			 json_object_to_json_string(json_object_array_get_idx(
				get(get(want, "result"), "trials"), n - 1)));
	json_object_put(want);
	bm_test_keep_result(res, "bmd-rebuilt-after-kill");
	json_object_put(r);
	bm_client_close(&c);
}
END_TEST

/* --- the socket path -------------------------------------------------- */

/* -s naming a stored result (or a symlink to one) is refused with one
 * line and the file is left alone; a file put at the path while bmd runs
 * survives bmd's exit. */
START_TEST(socket_path_only_a_socket_is_removed)
{
	struct bmd_config cfg;
	char msg[512], want[512], buf[64], target[128];

	daemon_stop();
	cfg = base_cfg();
	/* the running bmd's socket is gone with it */
	ck_assert(!exists("bmd.sock"));

	put_file("bmd.sock", "{\"stored\": \"result\"}\n");
	daemon_refuses(&cfg, msg);
	snprintf(want, sizeof(want),
		 "%s exists and is not a socket: not removing it", sock);
	ck_assert_str_eq(msg, want);
	ck_assert_str_eq(file_text("bmd.sock", buf, sizeof(buf)),
			 "{\"stored\": \"result\"}\n");

	ck_assert_int_eq(unlink(sock), 0);
	put_file("1.json", "result\n");
	snprintf(target, sizeof(target), "%s/1.json", dir);
	ck_assert_int_eq(symlink(target, sock), 0);
	daemon_refuses(&cfg, msg);
	ck_assert_str_eq(msg, want);
	ck_assert_str_eq(file_text("1.json", buf, sizeof(buf)), "result\n");
	ck_assert_str_eq(file_text("bmd.sock", buf, sizeof(buf)), "result\n");

	ck_assert_int_eq(unlink(sock), 0);
	daemon_start();
	ck_assert_int_eq(unlink(sock), 0);
	put_file("bmd.sock", "not bmd's\n");
	daemon_stop();
	ck_assert_str_eq(file_text("bmd.sock", buf, sizeof(buf)), "not bmd's\n");
}
END_TEST

/* --- job ids and the results directory -------------------------------- */

/* A second bmd on the same results directory (its own socket) is refused
 * with one line while the first runs, and starts once it has stopped. */
START_TEST(results_dir_locked)
{
	struct bmd_config cfg = base_cfg();
	char other[128], msg[512], want[512];
	struct bm_error err = { "" };
	struct bmd *b;

	snprintf(other, sizeof(other), "%s/other.sock", dir);
	cfg.socket_path = other;
	daemon_refuses(&cfg, msg);
	snprintf(want, sizeof(want),
		 "results directory %s is in use by another bmd (%s/.lock is locked)",
		 dir, dir);
	ck_assert_str_eq(msg, want);
	ck_assert(!exists("other.sock"));
	daemon_stop();
	b = bmd_new(&cfg, &err);
	ck_assert_msg(b, "bmd_new: %s", err.msg);
	bmd_free(b);
}
END_TEST

/* A job file for job id with state "done". */
static void job_file(const char *name, long id)
{
	char p[128], text[256];

	snprintf(p, sizeof(p), "jobs/%s", name);
	snprintf(text, sizeof(text),
		 "{\"job\":%ld,\"state\":\"done\",\"procedure\":\"" PROC "\"}",
		 id);
	put_file(p, text);
}

/* After a restart the next id is above every id a file carries: a
 * result without its job file, an unreadable job file.  Names that are
 * not <id>.json are skipped, not parsed ("+3" is no alias of 3, "-1" no
 * huge id after which ids wrap to 0). */
START_TEST(ids_never_reused)
{
	static const char *const odd[] = {
		"+3.json", "-1.json", " 4.json", "0012.json", "5.json.bak",
		"99999999999999999999.json", "1234567890123456.json",
		".8.json.Ab12Cd",
	};
	struct bm_client c;
	json_object *r, *a;
	size_t i;
	long id;

	client(&c);
	id = submit(&c, NULL, NULL);
	ck_assert_int_eq(id, 1);
	bm_client_close(&c);
	daemon_stop();

	put_file("150.json", "{\"a stored\": \"result\"}\n");
	put_file("160.csv", "a,b\n");
	put_file("jobs/120.json", "{{{");
	for (i = 0; i < sizeof(odd) / sizeof(odd[0]); i++)
		job_file(odd[i], 1000000 + i);
	daemon_start();

	client(&c);
	r = call_ok(&c, req("jobs"));
	a = get(r, "jobs");
	ck_assert_int_eq(json_object_array_length(a), 1);
	ck_assert_int_eq(json_object_get_int64(get(
		json_object_array_get_idx(a, 0), "job")), 1);
	json_object_put(r);
	id = submit(&c, NULL, NULL);
	ck_assert_int_eq(id, 161);
	ck_assert(exists("jobs/161.json"));
	bm_client_close(&c);
}
END_TEST

/*
 * With no inode left, ids were handed out twice: a job whose file could
 * not be written was taken all the same, and after a restart its id was
 * free again.  Now the id is kept durably (results/.last-id) before
 * anything else, a job whose file cannot be written is refused, and an
 * id never comes back, whatever files are lost.
 */
START_TEST(ids_durable_and_jobs_kept_or_refused)
{
	struct bm_client c;
	char msg[512], path[512];
	int events;
	char s[32];
	long id;

	client(&c);
	id = submit(&c, NULL, NULL);
	ck_assert_int_eq(id, 1);
	ck_assert_str_eq(watch_to_end(&c, id, &events, s), "done");
	/* job 2's file cannot be written (a directory is in its way) */
	snprintf(path, sizeof(path), "%s/jobs/2.json", dir);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/jobs/2.json/x", dir);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	call_err(&c, submit_list_req("sim1,sim2", 0, true), msg);
	ck_assert_msg(strstr(msg, "cannot keep the job: ") &&
		      strstr(msg, "2.json"), "%s", msg);
	ck_assert_int_eq(submit(&c, NULL, NULL), 3);
	/* .last-id cannot be written: nothing is taken */
	snprintf(path, sizeof(path), "%s/.last-id", dir);
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/.last-id/x", dir);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	call_err(&c, submit_list_req("sim1,sim2", 0, true), msg);
	ck_assert_msg(strstr(msg, "cannot keep the job: ") &&
		      strstr(msg, ".last-id"), "%s", msg);
	ck_assert_int_eq(rmdir(path), 0);
	snprintf(path, sizeof(path), "%s/.last-id", dir);
	ck_assert_int_eq(rmdir(path), 0);
	ck_assert_int_eq(submit(&c, NULL, NULL), 4);
	bm_client_close(&c);
	daemon_stop();
	/* every file of jobs 3 and 4 lost: their ids stay taken */
	snprintf(path, sizeof(path), "rm -rf %s/jobs/3.* %s/jobs/4.* %s/3.* %s/4.*",
		 dir, dir, dir, dir);
	ck_assert_int_eq(system(path), 0);
	daemon_start();
	client(&c);
	ck_assert_int_eq(submit(&c, NULL, NULL), 5);
	bm_client_close(&c);
}
END_TEST

/*
 * A full disk at the end of a job dropped its result.  Now the result
 * waits in memory, "result" serves it from there, and bmd writes it as
 * soon as there is room (every 2 s).
 */
START_TEST(result_kept_until_there_is_room)
{
	struct bm_client c;
	json_object *r;
	char path[256], s[32];
	int events, i;
	long id;

	client(&c);
	snprintf(path, sizeof(path), "%s/1.json", dir);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/1.json/x", dir);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	id = submit(&c, NULL, NULL);
	ck_assert_int_eq(id, 1);
	ck_assert_str_eq(watch_to_end(&c, id, &events, s), "done");
	r = call_ok(&c, req_job("result", id));
	ck_assert_int_gt(json_object_array_length(get(get(r, "result"),
						      "trials")), 0);
	json_object_put(r);
	ck_assert_int_eq(rmdir(path), 0);
	snprintf(path, sizeof(path), "%s/1.json", dir);
	ck_assert_int_eq(rmdir(path), 0);
	for (i = 0; i < 100 && !exists("1.json"); i++)
		usleep(50000);
	ck_assert_msg(exists("1.json"), "result not written within 5 s");
	r = call_ok(&c, req_job("result", id));
	ck_assert_int_gt(json_object_array_length(get(get(r, "result"),
						      "trials")), 0);
	json_object_put(r);
	bm_client_close(&c);
}
END_TEST

/* --- the mode of results ---------------------------------------------- */

/* The permission bits of dir/name. */
static unsigned int mode_of(const char *name)
{
	char p[256];
	struct stat st;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	ck_assert_msg(!stat(p, &st), "%s: %s", p, strerror(errno));
	return st.st_mode & 07777;
}

/* Result and job files are 0640 by default, whatever the umask, and the
 * configured mode otherwise; a mode bmd does not offer is refused. */
START_TEST(results_mode_0640_by_default)
{
	static const unsigned int bad[] = { 0755, 0666, 0604, 0400, 01640 };
	struct bmd_config cfg = base_cfg();
	struct bm_client c;
	char s[32], msg[256], want[256];
	int events;
	size_t i;
	long job;
	mode_t old;

	client(&c);
	job = submit(&c, NULL, NULL);
	ck_assert_str_eq(watch_to_end(&c, job, &events, s), "done");
	bm_client_close(&c);
	ck_assert_uint_eq(mode_of("1.json"), 0640);
	ck_assert_uint_eq(mode_of("1.csv"), 0640);
	ck_assert_uint_eq(mode_of("jobs/1.json"), 0640);
	daemon_stop();

	cfg.results_mode = 0644;
	old = umask(077);
	daemon_start_cfg(&cfg);
	client(&c);
	job = submit(&c, NULL, NULL);
	ck_assert_str_eq(watch_to_end(&c, job, &events, s), "done");
	bm_client_close(&c);
	daemon_stop();
	umask(old);
	ck_assert_uint_eq(mode_of("2.json"), 0644);
	ck_assert_uint_eq(mode_of("2.csv"), 0644);
	ck_assert_uint_eq(mode_of("jobs/2.json"), 0644);

	cfg.results_mode = 0600;
	daemon_start_cfg(&cfg);
	client(&c);
	job = submit(&c, NULL, NULL);
	ck_assert_str_eq(watch_to_end(&c, job, &events, s), "done");
	bm_client_close(&c);
	daemon_stop();
	ck_assert_uint_eq(mode_of("3.json"), 0600);
	ck_assert_uint_eq(mode_of("jobs/3.json"), 0600);

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		cfg.results_mode = bad[i];
		daemon_refuses(&cfg, msg);
		snprintf(want, sizeof(want),
			 "results mode %04o: must be 0600, 0640 or 0644", bad[i]);
		ck_assert_str_eq(msg, want);
	}
	ck_assert(bmd_results_mode_ok(0640));
	ck_assert(!bmd_results_mode_ok(0));
}
END_TEST

/* --- resets: only from bmd's configuration ----------------------------- */

/* A submit of rfc2544.reset with params (JSON); dry or on lo. */
static json_object *reset_req(const char *params, bool dry)
{
	json_object *o = req("submit");

	json_object_object_add(o, "procedure",
			       json_object_new_string("rfc2544.reset"));
	json_object_object_add(o, "params", json_tokener_parse(params));
	if (dry)
		json_object_object_add(o, "dry_run",
				       json_object_new_boolean(true));
	else
		json_object_object_add(o, "ports", json_tokener_parse(
			"{\"tx\":\"lo\",\"rx\":\"lo\",\"line_rate_bps\":1e9}"));
	return o;
}

/* Submit rfc2544.reset with params; the job id. */
static long submit_reset(struct bm_client *c, const char *params, bool dry)
{
	json_object *r = call_ok(c, reset_req(params, dry));
	long id = json_object_get_int64(get(r, "job"));

	json_object_put(r);
	ck_assert_int_gt(id, 0);
	return id;
}

static char log_text[16384];
static void catch_log(void *ctx, int priority, const char *const *fields,
		      size_t n);
static bool logged(const char *const *want, size_t n);

/* Restart bmd with the configuration file dir/bmd.conf holding text; its
 * log into log_text. */
static void daemon_with_conf(const char *text)
{
	struct bmd_config cfg = base_cfg();
	struct bm_error err = { "" };
	struct bmd_conf conf;
	char path[128];

	daemon_stop();
	put_file("bmd.conf", text);
	snprintf(path, sizeof(path), "%s/bmd.conf", dir);
	ck_assert_msg(!bmd_conf_read(path, true, &conf, &err), "%s", err.msg);
	bmd_conf_apply(&conf, &cfg);
	log_text[0] = '\0';
	cfg.log = catch_log;
	daemon_start_cfg(&cfg);
	bmd_conf_free(&conf);		/* bmd keeps its own copy */
}

/*
 * A request that carries a command is refused, dry run or not,
 * with one line that names the configuration file, and nothing runs;
 * before, bmd ran it with /bin/sh -c as its own user (root).
 */
START_TEST(request_command_refused)
{
	char params[512], msg[512], want[512];
	struct bm_client c;
	json_object *r;

	snprintf(params, sizeof(params),
		 "{\"frame_sizes\":[64],\"trial_duration_s\":2,"
		 "\"throughput_fps\":1000,\"reset_command\":\"touch %s/ran\"}",
		 dir);
	client(&c);
	call_err(&c, reset_req(params, false), msg);
	ck_assert_str_eq(msg, "rfc2544.reset: reset_command: refused: bmd runs only the reset commands of /etc/bmgen/bmd.conf (reset.NAME = COMMAND); choose one with reset=NAME");
	call_err(&c, reset_req(params, true), msg);
	ck_assert_str_eq(msg, "rfc2544.reset: reset_command: refused: bmd runs only the reset commands of /etc/bmgen/bmd.conf (reset.NAME = COMMAND); choose one with reset=NAME");
	bm_client_close(&c);

	/* the file bmd read is the one named, "" no less a command */
	daemon_with_conf("reset.ok = true\n");
	client(&c);
	call_err(&c, reset_req("{\"reset_command\":\"\"}", false), msg);
	snprintf(want, sizeof(want), "rfc2544.reset: reset_command: refused: bmd runs only the reset commands of %s/bmd.conf (reset.NAME = COMMAND); choose one with reset=NAME",
		 dir);
	ck_assert_str_eq(msg, want);
	r = call_ok(&c, req("jobs"));
	ck_assert_int_eq(json_object_array_length(get(r, "jobs")), 0);
	json_object_put(r);
	bm_client_close(&c);
	ck_assert(!exists("ran"));
}
END_TEST

/*
 * A request chooses one of the configuration's resets by name and bmd
 * runs that reset's command; status lists them; an unknown name is
 * refused naming the file; a dry run runs none (the simulated DUT resets
 * itself), and "" is no reset.
 */
START_TEST(reset_by_name_from_config)
{
	char conf[512], msg[512], want[512], s[32];
	struct bm_client c;
	json_object *r, *a;
	int events;
	long job;

	snprintf(conf, sizeof(conf),
		 "# resets of the test DUT\n"
		 "reset.touch = touch %s/ran; echo \"a # is no comment\" > %s/said\n"
		 "reset.nop = true\n", dir, dir);
	daemon_with_conf(conf);
	client(&c);
	r = call_ok(&c, req("status"));
	snprintf(want, sizeof(want), "%s/bmd.conf", dir);
	ck_assert_str_eq(gets_(r, "config"), want);
	a = get(r, "resets");
	ck_assert_int_eq(json_object_array_length(a), 2);
	ck_assert_str_eq(gets_(json_object_array_get_idx(a, 0), "name"),
			 "touch");
	/* the name only: a command may carry the DUT's password */
	ck_assert(!json_object_object_get_ex(json_object_array_get_idx(a, 0),
					     "command", NULL));
	ck_assert_ptr_null(strstr(json_object_to_json_string(r), "touch "));
	ck_assert_str_eq(gets_(json_object_array_get_idx(a, 1), "name"), "nop");
	json_object_put(r);

	call_err(&c, reset_req("{\"reset\":\"rm-rf\"}", false), msg);
	snprintf(want, sizeof(want), "rfc2544.reset: reset: no reset 'rm-rf' in %s/bmd.conf (bmctl status lists them)",
		 dir);
	ck_assert_str_eq(msg, want);
	call_err(&c, reset_req("{\"reset\":\"touch\"}", true), msg);
	ck_assert_str_eq(msg, "rfc2544.reset: reset: a dry run runs no command on bmd's host (the simulated DUT resets itself): leave it out");
	job = submit_reset(&c, "{\"frame_sizes\":[64],\"trial_duration_s\":2,"
			   "\"throughput_fps\":1000,\"reset\":\"\"}", true);
	ck_assert_str_eq(watch_to_end(&c, job, &events, s), "done");
	ck_assert(!exists("ran"));

	job = submit_reset(&c, "{\"frame_sizes\":[64],\"trial_duration_s\":2,"
			   "\"throughput_fps\":1000,\"reset\":\"touch\"}",
			   false);
	ck_assert_str_eq(watch_to_end(&c, job, &events, s), "done");
	r = call_ok(&c, req_job("result", job));
	ck_assert_str_eq(gets_(get(get(r, "result"), "params"), "reset"),
			 "touch");
	json_object_put(r);
	bm_client_close(&c);
	ck_assert(exists("ran"));
	ck_assert_str_eq(file_text("said", msg, sizeof(msg)),
			 "a # is no comment\n");
	/* the log names the reset, never its command (a password) */
	ck_assert_msg(logged((const char *[]){ "|RESET=touch" }, 1), "%s",
		      log_text);
	ck_assert_msg(!strstr(log_text, "/said") &&
		      !strstr(log_text, "RESET_COMMAND"), "%s", log_text);

	/* a bmd with no resets says so */
	daemon_stop();
	daemon_start();
	client(&c);
	call_err(&c, reset_req("{\"reset\":\"touch\"}", false), msg);
	ck_assert_str_eq(msg, "rfc2544.reset: reset: no reset 'touch' in /etc/bmgen/bmd.conf (it names none)");
	r = call_ok(&c, req("status"));
	ck_assert_ptr_null(get(r, "config"));
	ck_assert_int_eq(json_object_array_length(get(r, "resets")), 0);
	json_object_put(r);
	bm_client_close(&c);
}
END_TEST

/*
 * SPEC REQ-TM-4: bmd.conf's dut-counters runs before a job's traffic and
 * dut-counters-wait after it; the result keeps both readings, their
 * difference and the tester's totals beside them, and never the command
 * (it may carry the DUT's password).  The test DUT's counter goes up by 7
 * per reading: before 100, after 107, delta 7.  A failing command costs
 * the job nothing but a deviation; a dry run reads no counters.
 */
START_TEST(dut_counters_beside_the_tester)
{
	char conf[768], s[32], msg[512];
	json_object *r, *res, *dc, *dev, *t;
	struct bm_client c;
	int64_t sum = 0;
	int events;
	size_t i;
	long job;

	snprintf(conf, sizeof(conf),
		 "dut-counters = n=$(cat %s/n 2>/dev/null || echo 100); "
		 "echo \"rx_packets $n\"; echo \"phase: $BMGEN_PHASE\"; "
		 "echo \"ports=$BMGEN_PORTS\"; echo \"# a comment\"; "
		 "echo $((n + 7)) > %s/n; echo \"$BMGEN_JOB\" >> %s/job-ids\n"
		 "dut-counters-wait = 1\n", dir, dir, dir);
	daemon_with_conf(conf);
	client(&c);
	job = submit_reset(&c, "{\"frame_sizes\":[64],\"trial_duration_s\":2,"
			   "\"throughput_fps\":1000,\"reset\":\"\"}", false);
	ck_assert_str_eq(watch_to_end(&c, job, &events, s), "done");
	r = call_ok(&c, req_job("result", job));
	res = get(r, "result");
	dc = get(res, "dut_counters");
	ck_assert_ptr_nonnull(dc);
	ck_assert_int_eq(json_object_get_int64(get(get(dc, "before"),
						   "rx_packets")), 100);
	ck_assert_int_eq(json_object_get_int64(get(get(dc, "after"),
						   "rx_packets")), 107);
	ck_assert_int_eq(json_object_get_int64(get(get(dc, "delta"),
						   "rx_packets")), 7);
	ck_assert_str_eq(gets_(get(dc, "before"), "phase"), "before");
	ck_assert_str_eq(gets_(get(dc, "after"), "phase"), "after");
	ck_assert_str_eq(gets_(get(dc, "after"), "ports"), "lo lo");
	ck_assert(!json_object_object_get_ex(get(dc, "delta"), "phase", NULL));
	ck_assert_ptr_null(get(dc, "error"));
	ck_assert_double_eq(json_object_get_double(get(dc, "wait_s")), 1);
	ck_assert_str_eq(gets_(dc, "command"), "bmd.conf dut-counters");
	ck_assert_ptr_null(strstr(json_object_to_json_string(r), "cat "));
	/* the tester's totals are the trials' */
	t = get(res, "trials");
	for (i = 0; i < json_object_array_length(t); i++)
		sum += json_object_get_int64(get(json_object_array_get_idx(t, i),
						 "attempted"));
	ck_assert_int_gt(sum, 0);
	ck_assert_int_eq(json_object_get_int64(get(get(dc, "tester"),
						   "attempted")), sum);
	ck_assert_int_eq(json_object_get_int64(get(get(dc, "tester"),
						   "trials")),
			 json_object_array_length(t));
	/* read 1 s after the traffic: less than REQ-TM-4's 15 s, said */
	dev = get(res, "deviations");
	for (i = 0; i < json_object_array_length(dev); i++)
		if (strstr(json_object_get_string(
				json_object_array_get_idx(dev, i)),
			   "DUT counters read 1 s after the traffic"))
			break;
	ck_assert_uint_lt(i, json_object_array_length(dev));
	json_object_put(r);
	/* BMGEN_JOB was the job's, in both readings (the file's first
	 * line; the counter file shows there were two) */
	snprintf(msg, sizeof(msg), "%ld\n", job);
	ck_assert_str_eq(file_text("job-ids", s, sizeof(s)), msg);
	ck_assert_str_eq(file_text("n", s, sizeof(s)), "114\n");

	/* a dry run has no DUT to ask */
	job = submit_reset(&c, "{\"frame_sizes\":[64],\"trial_duration_s\":2,"
			   "\"throughput_fps\":1000,\"reset\":\"\"}", true);
	ck_assert_str_eq(watch_to_end(&c, job, &events, s), "done");
	r = call_ok(&c, req_job("result", job));
	ck_assert_ptr_null(get(get(r, "result"), "dut_counters"));
	json_object_put(r);
	bm_client_close(&c);

	/* a command that fails: the job is done, the result says why */
	daemon_with_conf("dut-counters = echo x 1; exit 3\n");
	client(&c);
	job = submit_reset(&c, "{\"frame_sizes\":[64],\"trial_duration_s\":2,"
			   "\"throughput_fps\":1000,\"reset\":\"\"}", false);
	ck_assert_str_eq(watch_to_end(&c, job, &events, s), "done");
	r = call_ok(&c, req_job("result", job));
	dc = get(get(r, "result"), "dut_counters");
	ck_assert_str_eq(gets_(dc, "error"), "the before reading failed: "
			 "the command exited non-zero");
	ck_assert_ptr_null(get(dc, "before"));
	ck_assert_int_eq(json_object_object_length(get(dc, "delta")), 0);
	ck_assert_double_eq(json_object_get_double(get(dc, "wait_s")), 15);
	json_object_put(r);
	bm_client_close(&c);
}
END_TEST

/* The readings' lines: KEY VALUE, KEY=VALUE, KEY: VALUE; numbers stay
 * numbers, other lines are counted, not guessed at. */
START_TEST(dut_counters_parsed)
{
	unsigned int skipped;
	json_object *o = bmd_counters_parse(
		"rx 12\n tx=13 \nerr: -1.5\n# no\n\nname: sw1 rev 2\n"
		"lonely\n=5\nbig 18446744073709551615\n", &skipped);

	ck_assert_int_eq(json_object_get_int64(get(o, "rx")), 12);
	ck_assert_int_eq(json_object_get_int64(get(o, "tx")), 13);
	ck_assert_double_eq(json_object_get_double(get(o, "err")), -1.5);
	ck_assert_str_eq(gets_(o, "name"), "sw1 rev 2");
	ck_assert(json_object_is_type(get(o, "big"), json_type_double));
	ck_assert_uint_eq(skipped, 2);
	ck_assert_int_eq(json_object_object_length(o), 5);
	json_object_put(o);
}
END_TEST

/* --- the log: one event per step of a job ------------------------------ */

static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static char log_text[16384];

/* A bmd_log_fn: each event as "PRIORITY|FIELD|FIELD...\n" in log_text. */
static void catch_log(void *ctx, int priority, const char *const *fields,
		      size_t n)
{
	size_t i, len;

	(void)ctx;
	pthread_mutex_lock(&log_lock);
	len = strlen(log_text);
	snprintf(log_text + len, sizeof(log_text) - len, "%d", priority);
	for (i = 0; i < n; i++) {
		len = strlen(log_text);
		snprintf(log_text + len, sizeof(log_text) - len, "|%s",
			 fields[i]);
	}
	len = strlen(log_text);
	snprintf(log_text + len, sizeof(log_text) - len, "\n");
	pthread_mutex_unlock(&log_lock);
}

/* The logged line that contains every one of the n strings in want. */
static bool logged(const char *const *want, size_t n)
{
	char *line, *save = NULL, copy[sizeof(log_text)];
	bool all = false;
	size_t i;

	pthread_mutex_lock(&log_lock);
	strcpy(copy, log_text);
	pthread_mutex_unlock(&log_lock);
	for (line = strtok_r(copy, "\n", &save); line && !all;
	     line = strtok_r(NULL, "\n", &save))
		for (i = 0, all = true; i < n && all; i++)
			all = strstr(line, want[i]) != NULL;
	return all;
}

/*
 * Under systemd bmd sends every event with fields (bmd_log_journal); the
 * sink sees them here: the submit with who submitted it (the client's
 * SO_PEERCRED: this process), the start, and the end with start, end and
 * verdict; a cancelled job ends at warning priority.
 */
START_TEST(job_events_logged_with_fields)
{
	struct bmd_config cfg = base_cfg();
	char uid[32], pid[32], msg[128], s[32];
	struct bm_client c;
	json_object *r;
	int events;
	long job;

	log_text[0] = '\0';
	daemon_stop();
	cfg.log = catch_log;
	daemon_start_cfg(&cfg);
	client(&c);
	job = submit(&c, NULL, NULL);
	ck_assert_str_eq(watch_to_end(&c, job, &events, s), "done");
	snprintf(uid, sizeof(uid), "|SUBMITTER_UID=%u|", (unsigned int)getuid());
	snprintf(pid, sizeof(pid), "|SUBMITTER_PID=%d|", (int)getpid());
	snprintf(msg, sizeof(msg),
		 "6|MESSAGE=job 1 rfc2544.throughput submitted by uid %u pid %d (dry run)|",
		 (unsigned int)getuid(), (int)getpid());
	ck_assert_msg(logged((const char *[]){ msg, "|JOB_ID=1|",
		"|JOB_EVENT=submitted|", "|PROCEDURE=rfc2544.throughput|",
		uid, pid, "|DRY_RUN=yes" }, 7), "%s", log_text);
	ck_assert_msg(logged((const char *[]){ "6|MESSAGE=job 1 rfc2544.throughput started|",
		"|JOB_EVENT=started|", "|JOB_START=20" }, 3), "%s", log_text);
	ck_assert_msg(logged((const char *[]){ "6|MESSAGE=job 1 rfc2544.throughput done|",
		"|JOB_ID=1|", "|JOB_EVENT=ended|", uid, pid, "|JOB_START=20",
		"|JOB_END=20", "|VERDICT=done|", "|TRIALS=" }, 9), "%s", log_text);

	trial_delay_us = 200000;
	job = submit(&c, NULL, NULL);
	r = call_ok(&c, req_job("cancel", job));
	json_object_put(r);
	ck_assert_str_eq(watch_to_end(&c, job, &events, s), "cancelled");
	bm_client_close(&c);
	snprintf(msg, sizeof(msg),
		 "4|MESSAGE=job 2 rfc2544.throughput cancelled: cancelled by uid %u pid %d|",
		 (unsigned int)getuid(), (int)getpid());
	ck_assert_msg(logged((const char *[]){ msg, "|VERDICT=cancelled|",
		"|JOB_ERROR=cancelled by uid " }, 3), "%s", log_text);
	snprintf(msg, sizeof(msg),
		 "5|MESSAGE=job 2 rfc2544.throughput: cancel requested by uid %u pid %d|",
		 (unsigned int)getuid(), (int)getpid());
	ck_assert_msg(logged((const char *[]){ msg, "|JOB_EVENT=cancel|",
		"|CANCEL_UID=" }, 3), "%s", log_text);
}
END_TEST

/* --- who may talk to bmd ---------------------------------------------- */

#define NOBODY		65534
#define TEST_GROUP	4242	/* no one on the test host is in it */

/* In the child: write s to fd. */
static void put(int fd, const char *s)
{
	ssize_t w = write(fd, s, strlen(s));

	(void)w;
}

/* What the child pid wrote to the pipe end fd until it exited, into out;
 * the child must have exited 0. */
static char *child_said(int fd, pid_t pid, char *out, size_t size)
{
	size_t got = 0;
	ssize_t r;
	int status;

	while ((r = read(fd, out + got, size - 1 - got)) > 0)
		got += r;
	out[got] = '\0';
	close(fd);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && !WEXITSTATUS(status),
		      "child failed: status %d, said '%s'", status, out);
	return out;
}

/*
 * Fork a child that becomes uid NOBODY with primary group gid and the n
 * supplementary groups supp, connects to bmd, sends the request line q
 * (with its newline) and tells
 * through a pipe: "connect: ERRNO", or the first reply line and then
 * "closed" when bmd hung up after it, "open" when it did not.  That, into
 * out.
 */
static char *as_nobody_req(gid_t gid, const gid_t *supp, int n,
			   const char *q, char *out, size_t size)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	size_t got = 0;
	int p[2], fd;
	char buf[4096], num[32];
	struct pollfd pfd;
	ssize_t r;
	pid_t pid;

	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", sock);
	ck_assert_int_eq(pipe(p), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		/* only system calls here: the parent has threads */
		close(p[0]);
		if (setgroups(n, supp) || setgid(gid) || setuid(NOBODY))
			_exit(10);
		fd = socket(AF_UNIX, SOCK_STREAM, 0);
		if (connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
			snprintf(num, sizeof(num), "connect: %d\n", errno);
			put(p[1], num);
			_exit(0);
		}
		/* bmd may have refused us already: no SIGPIPE */
		r = send(fd, q, strlen(q), MSG_NOSIGNAL);
		pfd = (struct pollfd){ .fd = fd, .events = POLLIN };
		while (got < sizeof(buf) - 1 &&
		       (!got || buf[got - 1] != '\n')) {
			if (poll(&pfd, 1, 5000) != 1)
				_exit(11);
			r = read(fd, buf + got, sizeof(buf) - 1 - got);
			if (r <= 0)
				_exit(12);
			got += r;
		}
		buf[got] = '\0';
		put(p[1], buf);
		/* bmd closes a refused connection at once: EOF, or a reset
		 * since it left our request unread */
		r = poll(&pfd, 1, 500) == 1 ? read(fd, buf, 1) : 1;
		put(p[1], r <= 0 ? "closed\n" : "open\n");
		_exit(0);
	}
	close(p[1]);
	return child_said(p[0], pid, out, size);
}

/* as_nobody_req asking for status. */
static char *as_nobody(gid_t gid, const gid_t *supp, int n, char *out,
		       size_t size)
{
	return as_nobody_req(gid, supp, n, "{\"id\":1,\"cmd\":\"status\"}\n",
			     out, size);
}

/* bmd sets the socket's mode itself (0660, whatever the umask) and, with
 * -g, its group; an unknown group is refused. */
START_TEST(socket_mode_0660_and_group)
{
	struct bmd_config cfg = base_cfg();
	char msg[256];
	struct stat st;
	mode_t old;

	daemon_stop();
	old = umask(0);
	daemon_start_cfg(&cfg);
	umask(old);
	ck_assert_int_eq(lstat(sock, &st), 0);
	ck_assert(S_ISSOCK(st.st_mode));
	ck_assert_uint_eq(st.st_mode & 07777, 0660);
	daemon_stop();

	cfg.group = "4242";
	old = umask(0);
	daemon_start_cfg(&cfg);
	umask(old);
	ck_assert_int_eq(lstat(sock, &st), 0);
	ck_assert_uint_eq(st.st_mode & 07777, 0660);
	ck_assert_uint_eq(st.st_gid, TEST_GROUP);
	daemon_stop();

	cfg.group = "no-such-group-of-bmd";
	daemon_refuses(&cfg, msg);
	ck_assert_str_eq(msg, "group: unknown group 'no-such-group-of-bmd'");
	cfg.group = "12x";
	daemon_refuses(&cfg, msg);
	ck_assert_str_eq(msg, "group: unknown group '12x'");
}
END_TEST

/* Root (this process) and bmd's user talk; uid 65534 talks only as a
 * member of the -g group, by its primary or a supplementary group.
 * Anyone else who reaches the socket (a mode opened up to 0666, as a
 * systemd SocketMode= may) gets one JSON refusal and is hung up on. */
START_TEST(peer_credentials_checked)
{
	static const gid_t member = TEST_GROUP, other = 100;
	struct bmd_config cfg = base_cfg();
	struct bm_client c;
	char out[4096];
	json_object *r;

	ck_assert_int_eq(chmod(dir, 0711), 0);
	ck_assert_str_eq(as_nobody(NOBODY, NULL, 0, out, sizeof(out)),
			 "connect: 13\n");
	ck_assert_int_eq(chmod(sock, 0666), 0);
	ck_assert_str_eq(as_nobody(NOBODY, &member, 1, out, sizeof(out)),
			 "{\"id\":null,\"ok\":false,\"error\":\"permission denied: uid 65534 is not root or bmd's user (uid 0), and bmd has no -g group\"}\n"
			 "closed\n");

	daemon_stop();
	cfg.group = "4242";
	daemon_start_cfg(&cfg);
	ck_assert_ptr_nonnull(strstr(as_nobody(NOBODY, &member, 1, out,
					       sizeof(out)), "\"ok\":true"));
	ck_assert_ptr_nonnull(strstr(out, "\"version\""));
	ck_assert_ptr_nonnull(strstr(out, "\nopen\n"));
	ck_assert_ptr_nonnull(strstr(as_nobody(TEST_GROUP, &other, 1, out,
					       sizeof(out)), "\"ok\":true"));
	ck_assert_str_eq(as_nobody(NOBODY, &other, 1, out, sizeof(out)),
			 "connect: 13\n");
	ck_assert_int_eq(chmod(sock, 0666), 0);
	ck_assert_str_eq(as_nobody(NOBODY, &other, 1, out, sizeof(out)),
			 "{\"id\":null,\"ok\":false,\"error\":\"permission denied: uid 65534 is not root, bmd's user (uid 0) or in group 4242\"}\n"
			 "closed\n");

	client(&c);
	r = call_ok(&c, req("status"));
	json_object_put(r);
	bm_client_close(&c);
}
END_TEST

/* The group database's answer, for kernels without SO_PEERGROUPS. */
START_TEST(uid_in_group_from_the_database)
{
	ck_assert(bmd_uid_in_group(0, 0, 0));
	ck_assert(bmd_uid_in_group(NOBODY, TEST_GROUP, TEST_GROUP));
	ck_assert(!bmd_uid_in_group(NOBODY, NOBODY, TEST_GROUP));
	/* no such user: its primary group only */
	ck_assert(!bmd_uid_in_group(54321, 54321, TEST_GROUP));
	ck_assert(bmd_uid_in_group(54321, 54321, 54321));
}
END_TEST

/* Submit procedure proc (dry run) with params js; 0 and the job id in
 * *job, or the refusal in msg. */
static int submit_js(struct bm_client *c, const char *proc, const char *js,
		     long *job, char *msg)
{
	struct bm_error err = { "" };
	json_object *o = req("submit"), *r;
	int ret;

	json_object_object_add(o, "procedure", json_object_new_string(proc));
	json_object_object_add(o, "params", json_tokener_parse(js));
	json_object_object_add(o, "dry_run", json_object_new_boolean(true));
	ret = bm_client_call(c, o, &r, &err);
	json_object_put(o);
	if (!ret)
		*job = json_object_get_int64(get(r, "job"));
	json_object_put(r);
	strcpy(msg, err.msg);
	return ret;
}

/* A job whose parameters may need more trials than bmd's
 * limit is refused before it is queued, with the count and the limit. */
START_TEST(trials_per_job_bounded)
{
	struct bmd_config cfg;
	struct bm_client c;
	char msg[512];
	long job;

	client(&c);
	/* the default limit: 7 sizes x 100227 latency trials */
	ck_assert_int_eq(submit_js(&c, "rfc2544.latency",
				   "{\"repetitions\": 100000}", &job, msg),
			 -EREMOTEIO);
	ck_assert_str_eq(msg, "rfc2544.latency: these parameters may need up to 701589 trials; bmd runs at most 20000 a job: set max-trials = 701589 in " BMD_DEFAULT_CONF ", or take fewer sizes, repetitions or iterations (bmctl run rfc2544.latency --help)");
	bm_client_close(&c);
	daemon_stop();

	/* max-trials 300: one size's search (206) runs, two (412) not */
	cfg = base_cfg();
	cfg.max_trials = 300;
	daemon_start_cfg(&cfg);
	client(&c);
	ck_assert_int_eq(submit_js(&c, PROC, "{\"frame_sizes\": [64, 128]}",
				   &job, msg), -EREMOTEIO);
	ck_assert_str_eq(msg, PROC ": these parameters may need up to 412 trials; bmd runs at most 300 a job: set max-trials = 412 in " BMD_DEFAULT_CONF ", or take fewer sizes, repetitions or iterations (bmctl run " PROC " --help)");
	ck_assert_int_eq(submit_js(&c, PROC, "{\"frame_sizes\": [64]}", &job,
				   msg), 0);
	ck_assert_int_gt(job, 0);
	bm_client_close(&c);
}
END_TEST

/* json-c's deep copy, made to fail on demand (linked with
 * -Wl,--wrap=json_object_deep_copy): an allocation failure inside it. */
static volatile bool deep_copy_fails;
int __real_json_object_deep_copy(json_object *src, json_object **dst,
				 json_c_shallow_copy_fn *fn);
int __wrap_json_object_deep_copy(json_object *src, json_object **dst,
				 json_c_shallow_copy_fn *fn);
int __wrap_json_object_deep_copy(json_object *src, json_object **dst,
				 json_c_shallow_copy_fn *fn)
{
	if (deep_copy_fails)
		return -1;
	return __real_json_object_deep_copy(src, dst, fn);
}

/* The SNMP community never leaves bmd, not
 * in the job file, and not when memory runs out either (the shown copy
 * was a deep copy; on failure the parameters went out as they were). */
START_TEST(secret_never_shown)
{
	json_object *p = json_tokener_parse("{\"management\": true, "
		"\"mgmt_community\": \"s3cr3t-unit\", \"trial_duration_s\": 1}");
	json_object *shown, *job;
	struct bm_client c;
	char msg[512], name[160], text[8192];
	long id;
	FILE *f;

	deep_copy_fails = true;
	shown = job_params_shown(p);
	deep_copy_fails = false;
	ck_assert_ptr_ne(shown, p);
	if (shown) {
		ck_assert_str_eq(gets_(shown, "mgmt_community"), "(hidden)");
		ck_assert_int_eq(json_object_get_int(get(shown, "trial_duration_s")), 1);
	}
	/* the job itself still has it */
	ck_assert_str_eq(gets_(p, "mgmt_community"), "s3cr3t-unit");
	json_object_put(shown);
	json_object_put(p);

	client(&c);
	ck_assert_int_eq(submit_js(&c, PROC, "{\"management\": true, "
				   "\"mgmt_community\": \"s3cr3t-unit\", "
				   "\"frame_sizes\": [64]}", &id, msg), 0);
	snprintf(name, sizeof(name), "%s/jobs/%ld.json", dir, id);
	f = fopen(name, "r");
	ck_assert_ptr_nonnull(f);
	text[fread(text, 1, sizeof(text) - 1, f)] = '\0';
	fclose(f);
	ck_assert_ptr_null(strstr(text, "s3cr3t"));
	ck_assert_ptr_nonnull(strstr(text, "(hidden)"));
	job = call_ok(&c, req_job("job", id));
	ck_assert_ptr_null(strstr(json_object_to_json_string(job), "s3cr3t"));
	json_object_put(job);
	bm_client_close(&c);
}
END_TEST

/* Threads of this process (bmd runs in it), from /proc. */
static int threads_now(void)
{
	char line[256];
	int n = -1;
	FILE *f = fopen("/proc/self/status", "r");

	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Threads: %d", &n) == 1)
			break;
	fclose(f);
	return n;
}

/* Jobs queued or running are capped per uid and in all,
 * refused with the count; only a running job has a thread. */
START_TEST(jobs_capped)
{
	struct bmd_config cfg;
	struct bm_client c;
	char msg[512], want[512], s[32];
	int base, events;
	long j1, j2, j3, job;
	json_object *r;

	daemon_stop();
	cfg = base_cfg();
	cfg.max_jobs_per_user = 2;
	daemon_start_cfg(&cfg);
	trial_delay_us = 50000;
	client(&c);
	base = threads_now();
	/* two on one port: one runs (a thread), one waits (none) */
	j1 = submit(&c, "lo", "lo");
	j2 = submit(&c, "lo", "lo");
	ck_assert_str_eq(job_state(&c, j2, s), "queued");
	ck_assert_int_eq(threads_now(), base + 1);
	ck_assert_int_eq(submit_js(&c, PROC, "{\"frame_sizes\": [64]}", &job,
				   msg), -EREMOTEIO);
	snprintf(want, sizeof(want), "busy: uid %u has 2 jobs queued or running, bmd takes at most 2 a user (max-jobs-per-user in " BMD_DEFAULT_CONF ")",
		 (unsigned int)getuid());
	ck_assert_str_eq(msg, want);
	/* a finished (here cancelled) job makes room */
	r = call_ok(&c, req_job("cancel", j2));
	json_object_put(r);
	j3 = submit(&c, NULL, NULL);
	r = call_ok(&c, req_job("cancel", j1));
	json_object_put(r);
	ck_assert_str_eq(watch_to_end(&c, j1, &events, s), "cancelled");
	ck_assert_str_eq(watch_to_end(&c, j3, &events, s), "done");
	bm_client_close(&c);
	daemon_stop();

	/* in all: max-jobs 1 */
	cfg = base_cfg();
	cfg.max_jobs = 1;
	daemon_start_cfg(&cfg);
	client(&c);
	j1 = submit(&c, "lo", "lo");
	ck_assert_int_eq(submit_js(&c, PROC, "{\"frame_sizes\": [64]}", &job,
				   msg), -EREMOTEIO);
	ck_assert_str_eq(msg, "busy: 1 jobs queued or running, bmd takes at most 1 (max-jobs in " BMD_DEFAULT_CONF ")");
	ck_assert_str_eq(watch_to_end(&c, j1, &events, s), "done");
	j2 = submit(&c, NULL, NULL);
	ck_assert_str_eq(watch_to_end(&c, j2, &events, s), "done");
	bm_client_close(&c);
}
END_TEST

/* Watch job with history to its end on c: every progress event's trial
 * count, in order, into trials[] (at most max); their number. */
static int watch_history(struct bm_client *c, long job, long *trials,
			 int max)
{
	struct bm_error err = { "" };
	json_object *m, *o = req_job("watch", job);
	int64_t id;
	int n = 0;

	json_object_object_add(o, "history", json_object_new_boolean(true));
	id = bm_client_send(c, o, &err);
	json_object_put(o);
	ck_assert_int_gt(id, 0);
	for (;;) {
		ck_assert_msg(!bm_client_recv(c, &m, RECV_MS, &err), "%s",
			      err.msg);
		ck_assert_int_eq(json_object_get_int64(get(m, "id")), id);
		if (!strcmp(gets_(m, "event"), "end")) {
			json_object_put(m);
			return n;
		}
		if (!strcmp(gets_(m, "event"), "progress") && get(m, "trial")) {
			ck_assert_int_lt(n, max);
			trials[n++] = json_object_get_int64(get(m, "trials"));
		}
		json_object_put(m);
	}
}

/* A job's progress events go to jobs/<id>.events, not
 * memory; bmd holds one a job (the latest), and watch --history replays
 * the file, every event once and in order, then goes live. */
/* REQ-TM-2: a stateful TM test waits for a passing nde-verify of its RTT
 * on its ports (either order), or --force; its result names the job that
 * verified the NDE (meta.nde).  Dry runs on the default sim backend, its
 * NDE 10 ms each way. */
static long submit_sim(struct bm_client *c, const char *proc,
		       const char *params, const char *ports)
{
	json_object *o = submit_list_req(ports, 1e9, true), *r;
	long id;

	json_object_object_add(o, "procedure", json_object_new_string(proc));
	json_object_object_add(o, "params", json_tokener_parse(params));
	json_object_object_add(o, "sim", json_tokener_parse(
		"{\"base_latency_ns\": 1e7}"));
	r = call_ok(c, o);
	id = json_object_get_int64(get(r, "job"));
	json_object_put(r);
	return id;
}

#define SF_PARAMS(rtt, more) "{\"nde_rtt_ms\": " rtt ", \"td_s\": 1, " \
	"\"tr\": 1, \"apps\": [\"bulk\"], \"bulk_bytes\": 100000" more "}"
#define QC_PARAMS(more) "{\"td_s\": 0.2, \"tr\": 1, \"bursts\": false, " \
	"\"stateful_apps\": [\"bulk\"], \"nde_rtt_ms\": 20" more "}"
#define NDE_PARAMS(d) "{\"delay_ms\": " d ", \"reverse_delay_ms\": 10, " \
	"\"frame_sizes\": [128], \"duration_s\": 0.1, \"tcp_duration_s\": 1}"

static json_object *job_of(struct bm_client *c, long id, char *error)
{
	json_object *r = call_ok(c, req_job("job", id)), *j;

	j = json_object_get(get(r, "job"));
	snprintf(error, 256, "%s", json_object_get_string(get(j, "error")) ?
		 json_object_get_string(get(j, "error")) : "");
	json_object_put(r);
	return j;
}

/* Submit proc on ports as submit_sim() does and watch it end in state;
 * with needle, its error must hold it.  The job id. */
static long expect(struct bm_client *c, const char *proc, const char *params,
		   const char *ports, const char *state, const char *needle)
{
	char s[32], e[256];
	int events;
	long id = submit_sim(c, proc, params, ports);

	ck_assert_str_eq(watch_to_end(c, id, &events, s), state);
	json_object_put(job_of(c, id, e));
	ck_assert_msg(!needle || strstr(e, needle), "job %ld: '%s', want "
		      "'%s'", id, e, needle);
	return id;
}

/* meta.nde of job id's result, a new reference. */
static json_object *nde_of(struct bm_client *c, long id, const char *keep)
{
	json_object *r = call_ok(c, req_job("result", id)), *nde;

	nde = json_object_get(get(get(get(r, "result"), "meta"), "nde"));
	if (keep)
		bm_test_keep_result(get(r, "result"), keep);
	ck_assert_msg(!keep || tj_has_deviation(get(r, "result"),
						"run with --force"),
		      "no --force deviation");
	json_object_put(r);
	return nde;
}

START_TEST(stateful_waits_for_a_verified_nde)
{
	struct bmd_config cfg = base_cfg();
	struct bm_client c;
	json_object *nde;
	long sf, v2, v3;

	daemon_stop();
	cfg.backend_new = bmd_backend_default;
	daemon_start_cfg(&cfg);
	client(&c);
	expect(&c, "rfc7640.queue-stateful", SF_PARAMS("20", ""), "p1,p2",
	       "failed", "no rfc7640.nde-verify result on these ports: "
	       "verify the NDE first (REQ-TM-2");
	/* a verification that fails (configured 5 ms, the NDE has 10) */
	expect(&c, "rfc7640.nde-verify", NDE_PARAMS("5"), "p1,p2", "failed",
	       "the NDE failed its verification: 128 B p1->p2: mean delay");
	expect(&c, "rfc7640.queue-stateful", SF_PARAMS("15", ""), "p1,p2",
	       "failed", "failed: verify the NDE first");
	/* one that passes, on the ports the other way round */
	v2 = expect(&c, "rfc7640.nde-verify", NDE_PARAMS("10"), "p2,p1",
		    "done", NULL);
	sf = expect(&c, "rfc7640.queue-stateful", SF_PARAMS("20", ""), "p1,p2",
		    "done", NULL);
	nde = nde_of(&c, sf, NULL);
	ck_assert_int_eq(json_object_get_int64(get(nde, "verified_by_job")), v2);
	ck_assert(!json_object_get_boolean(get(nde, "forced")));
	json_object_put(nde);
	/* another RTT stated: refused; forced: runs and says so */
	expect(&c, "rfc7640.queue-stateful", SF_PARAMS("30", ""), "p1,p2",
	       "failed", "nde_rtt_ms 30 differs");
	sf = expect(&c, "rfc7640.shaper-stateful",
		    SF_PARAMS("30", ", \"force\": true"), "p1,p2", "done", NULL);
	nde = nde_of(&c, sf, "bmd-nde-forced");
	ck_assert(json_object_get_boolean(get(nde, "forced")));
	ck_assert_int_eq(json_object_get_int64(get(nde, "verified_by_job")), v2);
	json_object_put(nde);
	/* other ports have no verification of their own */
	expect(&c, "rfc7640.queue-stateful", SF_PARAMS("20", ""), "p1,p3",
	       "failed", "no rfc7640.nde-verify");
	/* queue-capacity with TCP: every ingress -> egress path (p1 ->
	 * p3, p2 -> p3), named one by one; without TCP no gate at all */
	expect(&c, "rfc7640.queue-capacity", QC_PARAMS(""), "p1,p2,p3",
	       "failed", "p1 -> p3: no rfc7640.nde-verify");
	expect(&c, "rfc7640.nde-verify", NDE_PARAMS("10"), "p3,p1", "done",
	       NULL);
	expect(&c, "rfc7640.queue-capacity", QC_PARAMS(""), "p1,p2,p3",
	       "failed", "p2 -> p3: no rfc7640.nde-verify");
	v3 = expect(&c, "rfc7640.nde-verify", NDE_PARAMS("10"), "p2,p3",
		    "done", NULL);
	sf = expect(&c, "rfc7640.queue-capacity", QC_PARAMS(""), "p1,p2,p3",
		    "done", NULL);
	nde = nde_of(&c, sf, NULL);
	ck_assert_uint_eq(json_object_array_length(get(nde, "pairs")), 2);
	ck_assert_int_eq(json_object_get_int64(get(json_object_array_get_idx(
		get(nde, "pairs"), 1), "verified_by_job")), v3);
	ck_assert(!json_object_get_boolean(get(nde, "forced")));
	json_object_put(nde);
	expect(&c, "rfc7640.queue-capacity", "{\"td_s\": 0.2, \"tr\": 1, "
	       "\"bursts\": false}", "p4,p5,p6", "done", NULL);
	bm_client_close(&c);
}
END_TEST

START_TEST(job_events_in_a_file)
{
	unsigned int now = 9, peak = 9;
	struct bm_client c, w;
	long trials[400], job, total;
	char path[256], line[65536], s[32];
	int n, i, events;
	json_object *r;
	FILE *f;

	client(&c);
	client(&w);
	trial_delay_us = 3000;
	/* frame loss in 1 % steps from 100 % down to the sim's 50 % and
	 * two loss-free steps: about 52 trials */
	ck_assert_int_eq(submit_js(&c, "rfc2544.frame-loss",
				   "{\"frame_sizes\": [64], \"step_pct\": 1,"
				   " \"trial_duration_s\": 1}", &job, line), 0);
	/* joins mid-job: the past from the file, the rest live */
	usleep(60000);
	n = watch_history(&w, job, trials, 400);
	ck_assert_str_eq(watch_to_end(&c, job, &events, s), "done");
	r = call_ok(&c, req_job("job", job));
	total = json_object_get_int64(get(get(r, "job"), "trials"));
	json_object_put(r);
	ck_assert_int_ge(total, 40);
	ck_assert_int_eq(n, total);
	for (i = 0; i < n; i++)
		ck_assert_int_eq(trials[i], i + 1);
	/* memory held the latest event only, never more */
	ck_assert(bmd_job_mem_events(d, job, &now, &peak));
	ck_assert_uint_eq(peak, 1);
	ck_assert_uint_eq(now, 0);
	ck_assert(!bmd_job_mem_events(d, 999, &now, &peak));
	/* the file: one JSON line an event, without a request id */
	snprintf(path, sizeof(path), "%s/jobs/%ld.events", dir, job);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	n = 0;
	while (fgets(line, sizeof(line), f)) {
		r = json_tokener_parse(line);
		ck_assert_ptr_nonnull(r);
		ck_assert_ptr_null(get(r, "id"));
		n += get(r, "trial") != NULL;
		json_object_put(r);
	}
	fclose(f);
	ck_assert_int_eq(n, total);
	/* a restart leaves the file alone and loads the job */
	bm_client_close(&c);
	bm_client_close(&w);
	daemon_stop();
	daemon_start();
	client(&c);
	ck_assert_str_eq(job_state(&c, job, s), "done");
	/* a finished job's watch is its end, history or not */
	ck_assert_int_eq(watch_history(&c, job, trials, 400), 0);
	bm_client_close(&c);
}
END_TEST

/* A connection with nothing to do is closed after
 * idle-timeout; one that watches a job, or keeps asking, is not. */
START_TEST(idle_connections_closed)
{
	struct bm_client idle, busy, w;
	struct bm_error err = { "" };
	struct bmd_config cfg;
	json_object *m, *o;
	char s[32];
	long job;
	int i;

	daemon_stop();
	cfg = base_cfg();
	cfg.idle_timeout_s = 0.3;
	daemon_start_cfg(&cfg);
	trial_delay_us = 150000;
	client(&idle);
	client(&busy);
	client(&w);
	job = submit(&busy, NULL, NULL);
	o = req_job("watch", job);
	ck_assert_int_gt(bm_client_send(&w, o, &err), 0);
	json_object_put(o);
	for (i = 0; i < 8; i++) {
		usleep(100000);
		m = call_ok(&busy, req("status"));
		json_object_put(m);
	}
	/* 0.8 s later: the idle one is gone, with nothing said */
	ck_assert_int_eq(bm_client_recv(&idle, &m, RECV_MS, &err),
			 -ECONNRESET);
	/* the watcher sees its job to the end, and is idle after it */
	ck_assert_str_eq(job_state(&busy, job, s), "running");
	for (;;) {
		ck_assert_int_eq(bm_client_recv(&w, &m, RECV_MS, &err), 0);
		if (!strcmp(gets_(m, "event"), "end")) {
			json_object_put(m);
			break;
		}
		json_object_put(m);
	}
	ck_assert_int_eq(bm_client_recv(&w, &m, RECV_MS, &err), -ECONNRESET);
	/* the asking one stopped asking while the job ran */
	ck_assert_int_eq(bm_client_recv(&busy, &m, RECV_MS, &err),
			 -ECONNRESET);
	bm_client_close(&idle);
	bm_client_close(&busy);
	bm_client_close(&w);
}
END_TEST

/* bmd buffers at most max-output for a client, and a
 * result larger than that (and than a request line) is streamed from
 * its file as the socket drains: it arrives whole. */
START_TEST(large_result_streamed)
{
	struct bm_client c;
	struct bmd_config cfg;
	json_object *doc, *pad, *r, *res;
	char path[256], s[32], big[1000];
	int events, i;
	long job;

	client(&c);
	job = submit(&c, NULL, NULL);
	ck_assert_str_eq(watch_to_end(&c, job, &events, s), "done");
	bm_client_close(&c);
	daemon_stop();
	/* a 3 MB result, written as bmd writes them (pretty: line breaks) */
	snprintf(path, sizeof(path), "%s/%ld.json", dir, job);
	doc = bm_read_json(path, NULL, NULL);
	ck_assert_ptr_nonnull(doc);
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	pad = json_object_new_array();
	for (i = 0; i < 3000; i++)
		json_object_array_add(pad, json_object_new_string(big));
	json_object_object_add(doc, "pad", pad);
	ck_assert_int_eq(json_object_to_file_ext(path, doc,
						 JSON_C_TO_STRING_PRETTY), 0);
	cfg = base_cfg();
	cfg.max_output = 64 << 10;
	daemon_start_cfg(&cfg);
	client(&c);
	r = call_ok(&c, req_job("result", job));
	ck_assert_str_eq(gets_(r, "state"), "done");
	res = get(r, "result");
	ck_assert(json_object_equal(res, doc));
	json_object_put(r);
	/* bmd never held more than a few chunks of it */
	ck_assert_uint_le(bmd_output_peak(d), 256 << 10);
	/* and the connection goes on */
	r = call_ok(&c, req("status"));
	json_object_put(r);
	json_object_put(doc);
	bm_client_close(&c);
}
END_TEST

/* With max-connections taken, one more connection may
 * still ask status (an operator sees what is going on), nothing else;
 * the one after is refused. */
START_TEST(status_slot_when_full)
{
	struct bm_client c1, c2, op, c4;
	struct bmd_config cfg;
	char msg[512], want[512];
	json_object *r;
	int i;

	daemon_stop();
	cfg = base_cfg();
	cfg.max_connections = 2;
	daemon_start_cfg(&cfg);
	client(&c1);
	client(&c2);
	r = call_ok(&c1, req("status"));
	json_object_put(r);
	r = call_ok(&c2, req("status"));
	json_object_put(r);
	client(&op);
	r = call_ok(&op, req("status"));
	ck_assert_int_eq(json_object_get_int(get(get(r, "connections"), "open")),
			 2);
	ck_assert_int_eq(json_object_get_int(get(get(r, "connections"), "max")),
			 2);
	json_object_put(r);
	call_err(&op, req("jobs"), msg);
	ck_assert_str_eq(msg, "busy: 2 connections (max-connections in " BMD_DEFAULT_CONF "): this one may ask status only");
	client(&c4);
	call_err(&c4, req("status"), msg);
	ck_assert_str_eq(msg, "busy: 2 connections (max-connections in " BMD_DEFAULT_CONF "), and the status one is taken");
	bm_client_close(&c4);
	/* a slot freed is a normal one again */
	bm_client_close(&c1);
	for (i = 0; i < 200; i++) {
		client(&c1);
		snprintf(want, sizeof(want), "x");
		r = NULL;
		{
			struct bm_error err = { "" };
			json_object *o = req("jobs");

			if (!bm_client_call(&c1, o, &r, &err)) {
				json_object_put(o);
				break;
			}
			json_object_put(o);
		}
		json_object_put(r);
		bm_client_close(&c1);
		usleep(10000);
	}
	ck_assert_int_lt(i, 200);
	json_object_put(r);
	bm_client_close(&c1);
	bm_client_close(&c2);
	bm_client_close(&op);
}
END_TEST

/* --- who may touch what (bmd(8), ACCESS) ----------------------------- */

/* Give the fake port name the sysfs flags text (e.g. "0x1003": up). */
static void fake_flags(const char *name, const char *flags)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s/flags", sysfs_root, name);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "%s\n", flags);
	fclose(f);
}

/* Enslave the fake port name to master, as sysfs shows it. */
static void fake_master(const char *name, const char *master)
{
	char path[256], target[64];

	snprintf(path, sizeof(path), "%s/%s/master", sysfs_root, name);
	snprintf(target, sizeof(target), "../../virtual/net/%s", master);
	unlink(path);
	ck_assert_int_eq(symlink(target, path), 0);
}

/* Restart bmd with bmd.conf's ports = spec (NULL: not given). */
static void daemon_with_ports(const char *spec)
{
	struct bmd_config cfg = base_cfg();

	daemon_stop();
	cfg.ports = spec;
	daemon_start_cfg(&cfg);
}

/*
 * Any member of bmd's group could flood the management NIC and enslave
 * it to a VRF.  With no ports in bmd.conf a job takes only ports the host
 * does not use itself: not up with an address outside the benchmark
 * networks, not enslaved but to bmd's own VRF; a name or pattern allows
 * a port whatever it carries.  Checked at submit and again at start.
 */
START_TEST(ports_allowed_by_bmd_conf)
{
	struct bmd_port_policy pol;
	struct bmd_port_use u = { .up = true };
	struct bm_error err = { "" };
	struct bm_client c;
	char msg[512], why[160], s[32];
	json_object *r;
	int events, i, k = 0;
	long j1, j2;

	daemon_on_fake_ports();
	fake_flags("p1", "0x1003");
	fake_flags("p2", "0x1003");
	fake_master("p3", "br0");
	fake_master("p4", "bmv12");
	daemon_with_ports(NULL);
	client(&c);
	submit_list(&c, "p1,p2", 0, false);
	submit_list(&c, "p4,p5", 0, false);
	call_err(&c, submit_list_req("p1,p3", 0, false), msg);
	ck_assert_str_eq(msg, "port p3: refused: enslaved to br0, the host's own; name it to allow it (ports = unaddressed in /etc/bmgen/bmd.conf)");
	/* a dry run touches none of its ports */
	submit_list(&c, "p1,p3", 0, true);
	bm_client_close(&c);

	daemon_with_ports("p1 p2");
	client(&c);
	call_err(&c, submit_list_req("p1,p5", 0, false), msg);
	ck_assert_str_eq(msg, "port p5: refused: not named (ports = p1 p2 in /etc/bmgen/bmd.conf)");
	bm_client_close(&c);

	daemon_with_ports("unaddressed p[3-9]");
	client(&c);
	submit_list(&c, "p3,p6", 0, false);
	bm_client_close(&c);

	/* a port that became the host's while the job waited: the job
	 * fails before anything touches it */
	daemon_with_ports(NULL);
	trial_delay_us = 50000;
	client(&c);
	j1 = submit_list(&c, "p7,p8", 0, false);
	j2 = submit_list(&c, "p7,p8", 0, false);
	/* j1 past its own start check: it has run a trial */
	for (i = 0; i < 500; i++) {
		r = call_ok(&c, req_job("job", j1));
		k = json_object_get_int(get(get(r, "job"), "trials"));
		json_object_put(r);
		if (k >= 1)
			break;
		usleep(10000);
	}
	ck_assert_int_ge(k, 1);
	fake_master("p8", "bond0");
	json_object_put(call_ok(&c, req_job("cancel", j1)));
	ck_assert_str_eq(watch_to_end(&c, j2, &events, s), "failed");
	r = call_ok(&c, req_job("job", j2));

	ck_assert_str_eq(gets_(get(r, "job"), "error"),
			 "port p8: refused: enslaved to bond0, the host's own; name it to allow it (ports = unaddressed in /etc/bmgen/bmd.conf)");
	json_object_put(r);
	bm_client_close(&c);

	/* the live host: lo is up with 127.0.0.1 */
	sysfs_root = NULL;
	daemon_with_ports(NULL);
	client(&c);
	call_err(&c, submit_list_req("lo,bmgen-none0", 1e9, false), msg);
	ck_assert_str_eq(msg, "port lo: refused: up with address 127.0.0.1, the host's own; name it to allow it (ports = unaddressed in /etc/bmgen/bmd.conf)");
	bm_client_close(&c);
	ck_assert_int_eq(bmd_port_use_read(NULL, "lo", &u), 0);
	ck_assert(u.up);
	ck_assert_str_eq(u.addr, "127.0.0.1");

	/* the rule itself */
	ck_assert_int_eq(bmd_port_policy_parse(NULL, &pol, &err), 0);
	u = (struct bmd_port_use){ .up = true, .addr = "10.0.2.15" };
	ck_assert(!bmd_port_permitted(&pol, "eth0", &u, why, sizeof(why)));
	ck_assert_str_eq(why, "up with address 10.0.2.15, the host's own; name it to allow it");
	u.up = false;	/* a spare port, down: nobody's */
	ck_assert(bmd_port_permitted(&pol, "eth0", &u, why, sizeof(why)));
	bmd_port_policy_free(&pol);
	ck_assert_int_eq(bmd_port_policy_parse("eth*", &pol, &err), 0);
	u.up = true;
	ck_assert(bmd_port_permitted(&pol, "eth0", &u, why, sizeof(why)));
	ck_assert(!bmd_port_permitted(&pol, "ens1", &u, why, sizeof(why)));
	ck_assert_str_eq(why, "not named");
	bmd_port_policy_free(&pol);
	ck_assert_int_eq(bmd_port_policy_parse(" \t", &pol, &err), -EINVAL);
	ck_assert_str_eq(err.msg, "ports: names no port");
}
END_TEST

/*
 * A job is its submitter's: another member of the group may read it but
 * not cancel it; root, bmd's user and admin-group may.  The job says
 * whose it is, also after a restart, and the log who cancelled.
 */
START_TEST(only_owner_or_admin_cancels)
{
	static const gid_t member = TEST_GROUP;
	struct bmd_config cfg = base_cfg();
	struct bm_client c;
	char out[4096], q[128], want[512], s[32];
	json_object *r;
	int events;
	long job;

	daemon_stop();
	cfg.group = "4242";
	log_text[0] = '\0';
	cfg.log = catch_log;
	daemon_start_cfg(&cfg);
	ck_assert_int_eq(chmod(dir, 0711), 0);
	trial_delay_us = 100000;
	client(&c);
	job = submit(&c, NULL, NULL);
	r = call_ok(&c, req_job("job", job));
	ck_assert_int_eq(json_object_get_int64(get(get(r, "job"), "owner_uid")),
			 getuid());
	json_object_put(r);
	snprintf(q, sizeof(q), "{\"id\":1,\"cmd\":\"cancel\",\"job\":%ld}\n",
		 job);
	snprintf(want, sizeof(want), "{\"id\":1,\"ok\":false,\"error\":\"permission denied: job %ld is uid %u's; only its submitter, root, bmd's user or admin-group (none in bmd.conf) may cancel it\"}\n",
		 job, (unsigned int)getuid());
	ck_assert_str_eq(as_nobody_req(NOBODY, &member, 1, q, out,
				       sizeof(out)), strcat(want, "open\n"));
	ck_assert_str_eq(job_state(&c, job, s), "running");

	/* admin-group's members may */
	daemon_stop();
	cfg.admin_group = "4242";
	daemon_start_cfg(&cfg);
	bm_client_close(&c);
	client(&c);
	ck_assert_str_eq(job_state(&c, job, s), "interrupted");
	job = submit(&c, NULL, NULL);
	snprintf(q, sizeof(q), "{\"id\":1,\"cmd\":\"cancel\",\"job\":%ld}\n",
		 job);
	ck_assert_ptr_nonnull(strstr(as_nobody_req(NOBODY, &member, 1, q, out,
						   sizeof(out)),
				     "\"ok\":true"));
	ck_assert_str_eq(watch_to_end(&c, job, &events, s), "cancelled");
	r = call_ok(&c, req_job("job", job));
	ck_assert_ptr_nonnull(strstr(gets_(get(r, "job"), "error"),
				     "cancelled by uid 65534 pid "));
	json_object_put(r);
	ck_assert_msg(logged((const char *[]){ "|JOB_EVENT=cancel|",
		"|CANCEL_UID=65534|", "|CANCEL_PID=" }, 3), "%s", log_text);

	/* the owner survives a restart */
	daemon_stop();
	cfg.admin_group = NULL;
	daemon_start_cfg(&cfg);
	bm_client_close(&c);
	client(&c);
	r = call_ok(&c, req_job("job", job));
	ck_assert_int_eq(json_object_get_int64(get(get(r, "job"), "owner_uid")),
			 getuid());
	json_object_put(r);
	bm_client_close(&c);
}
END_TEST

/* --- bounded resources ----------------------------------------------- */

/*
 * The jobs not yet finished may need, at their worst, BMD_TRIAL_MEM a
 * trial of the trials their parameters allow; a submit beyond
 * max-memory-mib is refused with the figures, and taken again once the
 * others end.
 */
START_TEST(memory_budget_at_submit)
{
	struct bmd_config cfg = base_cfg();
	struct bm_error err = { "" };
	json_object *p = json_tokener_parse("{\"frame_sizes\":[64]}");
	struct bm_client c;
	char msg[512], want[512], s[32];
	double n;
	int k, i, events;
	long ids[64];

	ck_assert_int_eq(bm_procedure_max_trials(PROC, p, 1e9, 2, &n, &err),
			 0);
	json_object_put(p);
	k = (int)(16.0 * 1048576.0 / (n * BMD_TRIAL_MEM));
	ck_assert_int_ge(k, 1);
	ck_assert_int_le(k, 64);
	daemon_stop();
	cfg.max_memory_mib = 16;
	cfg.max_jobs = cfg.max_jobs_per_user = 1000;
	daemon_start_cfg(&cfg);
	trial_delay_us = 20000;
	client(&c);
	for (i = 0; i < k; i++)
		ids[i] = submit(&c, NULL, NULL);
	call_err(&c, submit_list_req("sim1,sim2", 0, true), msg);
	snprintf(want, sizeof(want), "busy: %s may need up to %.0f MiB (%.0f trials), and the jobs queued or running up to %.0f MiB of bmd's 16 (max-memory-mib in /etc/bmgen/bmd.conf): wait for them, or narrow its parameters",
		 PROC, n * BMD_TRIAL_MEM / 1048576.0, n,
		 k * n * BMD_TRIAL_MEM / 1048576.0);
	ck_assert_str_eq(msg, want);
	json_object_put(call_ok(&c, req_job("cancel", ids[0])));
	ck_assert_str_eq(watch_to_end(&c, ids[0], &events, s), "cancelled");
	ids[0] = submit(&c, NULL, NULL);
	for (i = 0; i < k; i++)
		json_object_put(call_ok(&c, req_job("cancel", ids[i])));
	bm_client_close(&c);
}
END_TEST

/*
 * Fork a child that becomes uid NOBODY in group TEST_GROUP, opens n
 * connections and asks status on each; what each got first ("ok" or the
 * refusal's error) a line each, into out.
 */
static char *as_nobody_n(int n, char *out, size_t size)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	const char *q = "{\"id\":1,\"cmd\":\"status\"}\n";
	static const gid_t member = TEST_GROUP;
	int p[2], fd[16], i;
	char buf[8192];
	ssize_t r;
	pid_t pid;

	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", sock);
	ck_assert_int_eq(pipe(p), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		close(p[0]);
		if (setgroups(1, &member) || setgid(NOBODY) || setuid(NOBODY))
			_exit(10);
		for (i = 0; i < n; i++) {
			fd[i] = socket(AF_UNIX, SOCK_STREAM, 0);
			if (connect(fd[i], (struct sockaddr *)&sa, sizeof(sa)))
				_exit(11);
		}
		for (i = 0; i < n; i++) {
			struct pollfd pfd = { .fd = fd[i], .events = POLLIN };

			r = send(fd[i], q, strlen(q), MSG_NOSIGNAL);
			if (poll(&pfd, 1, 5000) != 1)
				_exit(12);
			r = read(fd[i], buf, sizeof(buf) - 1);
			if (r <= 0)
				_exit(13);
			buf[r] = '\0';
			put(p[1], strstr(buf, "\"ok\":true") ? "ok\n" : buf);
		}
		_exit(0);
	}
	close(p[1]);
	return child_said(p[0], pid, out, size);
}

/* One user's connections cannot take every slot: beyond
 * max-connections-per-user the next is refused with one line; root (this
 * process) is not counted. */
START_TEST(connections_per_user_capped)
{
	struct bmd_config cfg = base_cfg();
	struct bm_client c[4];
	char out[4096];
	int i;

	daemon_stop();
	cfg.group = "4242";
	cfg.max_connections_per_user = 2;
	daemon_start_cfg(&cfg);
	ck_assert_int_eq(chmod(dir, 0711), 0);
	ck_assert_str_eq(as_nobody_n(3, out, sizeof(out)),
			 "ok\nok\n{\"id\":null,\"ok\":false,\"error\":\"busy: uid 65534 has 2 connections, bmd takes at most 2 a user (max-connections-per-user in /etc/bmgen/bmd.conf)\"}\n");
	for (i = 0; i < 4; i++)
		client(&c[i]);
	for (i = 0; i < 4; i++) {
		json_object_put(call_ok(&c[i], req("status")));
		bm_client_close(&c[i]);
	}
}
END_TEST

/* A request that trickles in a byte at a time holds its slot no longer
 * than request-timeout: then one error line and the connection closed.
 * Blank keep-alive lines and whole requests are no trickle. */
START_TEST(request_line_deadline)
{
	struct bmd_config cfg = base_cfg();
	struct bm_error err = { "" };
	struct bm_client c, k;
	json_object *m;
	int i;

	daemon_stop();
	cfg.request_timeout_s = 0.5;
	daemon_start_cfg(&cfg);
	client(&c);
	client(&k);
	for (i = 0; i < 4; i++) {
		ck_assert_int_eq(send(c.fd, "{", 1, MSG_NOSIGNAL), 1);
		ck_assert_int_eq(send(k.fd, "\n", 1, MSG_NOSIGNAL), 1);
		usleep(100000);
	}
	ck_assert_int_eq(bm_client_recv(&c, &m, RECV_MS, &err), 0);
	ck_assert_str_eq(gets_(m, "error"), "request not complete after 0.5 s (request-timeout in /etc/bmgen/bmd.conf): connection closed");
	json_object_put(m);
	ck_assert_int_eq(bm_client_recv(&c, &m, RECV_MS, &err), -ECONNRESET);
	bm_client_close(&c);
	m = call_ok(&k, req("status"));
	json_object_put(m);
	bm_client_close(&k);
}
END_TEST

/*
 * 400 finished jobs with 256 KiB DUT configurations held 109 MB: a
 * finished job keeps its summary in memory, its params, sim and DUT in
 * its job file, from where "job" reads them, before a restart and after.
 */
START_TEST(finished_jobs_shed_their_params)
{
	json_object *o = req("submit"), *r, *dut;
	struct bm_client c;
	struct bmd_job *j;
	char *conf, s[32];
	int events, pass;
	long id;

	conf = malloc(200001);
	ck_assert_ptr_nonnull(conf);
	memset(conf, 'c', 200000);
	conf[200000] = '\0';
	json_object_object_add(o, "procedure", json_object_new_string(PROC));
	json_object_object_add(o, "dry_run", json_object_new_boolean(true));
	json_object_object_add(o, "params", json_tokener_parse(
		"{\"frame_sizes\":[64],\"trial_duration_s\":1.5}"));
	dut = json_object_new_object();
	json_object_object_add(dut, "name", json_object_new_string("dut-x"));
	json_object_object_add(dut, "configuration",
			       json_object_new_string(conf));
	json_object_object_add(o, "dut", dut);
	client(&c);
	r = call_ok(&c, o);
	id = json_object_get_int64(get(r, "job"));
	json_object_put(r);
	ck_assert_str_eq(watch_to_end(&c, id, &events, s), "done");
	for (pass = 0; pass < 2; pass++) {
		pthread_mutex_lock(&d->lock);
		j = job_find(d, (unsigned long)id);
		ck_assert(j->shed);
		ck_assert_ptr_null(j->params);
		ck_assert_ptr_null(j->dut);
		pthread_mutex_unlock(&d->lock);
		r = call_ok(&c, req_job("job", id));
		ck_assert_str_eq(gets_(get(get(r, "job"), "dut"),
				       "configuration"), conf);
		ck_assert_double_eq(json_object_get_double(get(get(get(r,
				"job"), "params"), "trial_duration_s")), 1.5);
		json_object_put(r);
		bm_client_close(&c);
		daemon_stop();
		daemon_start();
		client(&c);
	}
	bm_client_close(&c);
	free(conf);
}
END_TEST

/*
 * A cancel, and SIGTERM, end the trial in progress within a second, not
 * after it (a trial lasts a minute by default, and TimeoutStopSec would
 * kill bmd first): the cut trial is no trial (none recorded), and the
 * partial result is stored.
 */
START_TEST(cancel_ends_a_trial_at_once)
{
	struct bm_client c;
	json_object *r;
	char s[32];
	double t0;
	int events;
	long job;

	trial_delay_us = 8000000;
	client(&c);
	job = submit(&c, NULL, NULL);
	ck_assert_str_eq(job_state(&c, job, s), "running");
	usleep(300000);
	t0 = bm_mono_s();
	json_object_put(call_ok(&c, req_job("cancel", job)));
	ck_assert_str_eq(watch_to_end(&c, job, &events, s), "cancelled");
	ck_assert_msg(bm_mono_s() - t0 < 2.0, "cancel took %.1f s",
		      bm_mono_s() - t0);
	r = call_ok(&c, req_job("job", job));
	ck_assert_int_eq(json_object_get_int(get(get(r, "job"), "trials")), 0);
	json_object_put(r);

	/* SIGTERM: bmd stops within a second, the job interrupted */
	job = submit(&c, NULL, NULL);
	ck_assert_str_eq(job_state(&c, job, s), "running");
	usleep(300000);
	bm_client_close(&c);
	t0 = bm_mono_s();
	daemon_stop();
	ck_assert_msg(bm_mono_s() - t0 < 2.0, "SIGTERM took %.1f s",
		      bm_mono_s() - t0);
	trial_delay_us = 0;
	daemon_start();
	client(&c);
	ck_assert_str_eq(job_state(&c, job, s), "interrupted");
	bm_client_close(&c);
}
END_TEST

static Suite *bmd_suite(void)
{
	Suite *s = suite_create("bmd");
	TCase *tc = tcase_create("daemon");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, submit_watch_result_dry_run);
	tcase_add_test(tc, bad_requests_answered_daemon_survives);
	tcase_add_test(tc, invalid_utf8_gets_a_json_reply);
	tcase_add_test(tc, procedure_schema_from_bmd);
	tcase_add_test(tc, ports_from_bmd);
	tcase_add_test(tc, port_json_tx_paths);
	tcase_add_test(tc, client_disconnect_does_not_affect_job);
	tcase_add_test(tc, same_ports_wait_dry_runs_do_not);
	tcase_add_test(tc, job_sync_tolerance_kept);
	tcase_add_test(tc, cancel_queued_and_running);
	tcase_add_test(tc, restart_keeps_results_and_marks_interrupted);
	tcase_add_test(tc, n_port_job_desc_meta_and_restart);
	tcase_add_test(tc, capacity_kept_shown_and_warned);
	tcase_add_test(tc, n_port_jobs_share_a_third_port);
	tcase_add_test(tc, default_backend_names_ports);
	tcase_add_test(tc, socket_path_only_a_socket_is_removed);
	tcase_add_test(tc, socket_mode_0660_and_group);
	tcase_add_test(tc, peer_credentials_checked);
	tcase_add_test(tc, uid_in_group_from_the_database);
	tcase_add_test(tc, results_dir_locked);
	tcase_add_test(tc, ids_never_reused);
	tcase_add_test(tc, results_mode_0640_by_default);
	tcase_add_test(tc, request_command_refused);
	tcase_add_test(tc, reset_by_name_from_config);
	tcase_add_test(tc, dut_counters_beside_the_tester);
	tcase_add_test(tc, dut_counters_parsed);
	tcase_add_test(tc, job_events_logged_with_fields);
	tcase_add_test(tc, secret_never_shown);
	tcase_add_test(tc, ports_allowed_by_bmd_conf);
	tcase_add_test(tc, memory_budget_at_submit);
	tcase_add_test(tc, ids_durable_and_jobs_kept_or_refused);
	tcase_add_test(tc, result_kept_until_there_is_room);
	tcase_add_test(tc, cancel_ends_a_trial_at_once);
	tcase_add_test(tc, connections_per_user_capped);
	tcase_add_test(tc, request_line_deadline);
	tcase_add_test(tc, finished_jobs_shed_their_params);
	tcase_add_test(tc, restart_rebuilds_result_from_events);
	tcase_add_test(tc, only_owner_or_admin_cancels);
	tcase_add_test(tc, trials_per_job_bounded);
	tcase_add_test(tc, jobs_capped);
	tcase_add_test(tc, job_events_in_a_file);
	tcase_add_test(tc, stateful_waits_for_a_verified_nde);
	tcase_add_test(tc, idle_connections_closed);
	tcase_add_test(tc, large_result_streamed);
	tcase_add_test(tc, status_slot_when_full);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tj_run_suite(bmd_suite());
}

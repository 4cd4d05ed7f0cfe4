// SPDX-License-Identifier: GPL-2.0
/*
 * bmd: the Unix socket server.  One poll loop serves every client; a
 * client only ever gets bytes queued in its own output buffer, so a slow or
 * vanished client can stall nothing but itself, and never a job.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <poll.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/un.h>
#include <syslog.h>
#include <unistd.h>

#include "bm_genl.h"
#include "bm_portinfo.h"
#include "bm_procedure.h"
#include "bm_sim.h"
#include "bm_store.h"
#include "daemon_int.h"

#ifndef BM_VERSION
#define BM_VERSION "unknown"
#endif

/* Output below this is topped up from a stream or a replay. */
#define OUT_LOW		(64u << 10)

void bmd_wake(struct bmd *d)
{
	uint64_t one = 1;
	ssize_t n;

	n = write(d->wake_fd, &one, sizeof(one));
	(void)n;	/* EAGAIN: a wakeup is already pending */
}

void bmd_stop(struct bmd *d)
{
	d->stop = 1;
	bmd_wake(d);
}

/* --- client output ------------------------------------------------------ */

/* Bytes queued for c and not yet sent. */
static size_t client_unsent(const struct bmd_client *c)
{
	return c->out_len - c->out_off + c->held_len;
}

/* Grow *buf (holding *len of *cap bytes) by n bytes from p; false when
 * out of memory. */
static bool buf_append(char **buf, size_t *len, size_t *cap, const char *p,
		       size_t n)
{
	size_t c = *cap ? *cap : 4096;
	char *b;

	if (*len + n > *cap) {
		while (c < *len + n)
			c *= 2;
		b = realloc(*buf, c);
		if (!b)
			return false;
		*buf = b;
		*cap = c;
	}
	memcpy(*buf + *len, p, n);
	*len += n;
	return true;
}

/* Append n bytes to c's output or, while a result streams, to what is
 * held until it ends; false when out of memory. */
static bool client_append(struct bmd_client *c, const char *p, size_t n,
			  bool hold)
{
	if (hold)
		return buf_append(&c->held, &c->held_len, &c->held_cap, p, n);
	if (c->out_off) {
		memmove(c->out, c->out + c->out_off, c->out_len - c->out_off);
		c->out_len -= c->out_off;
		c->out_off = 0;
	}
	if (!buf_append(&c->out, &c->out_len, &c->out_cap, p, n))
		return false;
	if (c->out_cap > c->d->output_peak)
		c->d->output_peak = c->out_cap;
	return true;
}

size_t bmd_output_peak(struct bmd *d)
{
	size_t n;

	pthread_mutex_lock(&d->lock);
	n = d->output_peak;
	pthread_mutex_unlock(&d->lock);
	return n;
}

/*
 * Queue msg for c.  A reply is always queued: bmd reads a client's next
 * request only while its unsent output is below max-output, so replies
 * never pile up.  An event (progress, end) to a watcher that lets its
 * backlog pass max-output drops that watcher rather than let bmd's
 * memory grow (issue 16: up to 64 MiB a client before); its job goes on.
 */
static void client_queue_(struct bmd *d, struct bmd_client *c,
			  json_object *msg, bool event)
{
	size_t len;
	char *line;

	if (c->dead)
		return;
	line = bm_proto_line(msg, &len);
	if (!line || (event && client_unsent(c) + len > d->max_output) ||
	    !client_append(c, line, len, c->stream_fd >= 0))
		c->dead = true;
	free(line);
}

static void client_queue(struct bmd_client *c, json_object *msg)
{
	client_queue_(c->d, c, msg, false);
}

static void client_flush(struct bmd_client *c)
{
	while (!c->dead && c->out_off < c->out_len) {
		ssize_t n = send(c->fd, c->out + c->out_off,
				 c->out_len - c->out_off,
				 MSG_NOSIGNAL | MSG_DONTWAIT);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		if (n <= 0) {
			c->dead = true;
			return;
		}
		c->out_off += n;
		c->last_active = bmd_mono();
	}
}

void clients_broadcast(struct bmd *d, unsigned long job, json_object *msg,
		       bool end)
{
	struct bmd_client *c;

	for (c = d->clients; c; c = c->next) {
		/* a replaying watcher reads this from the job's events file,
		 * in order, and the end once it has read them all */
		if (c->watch_job != job || c->replay_fd >= 0)
			continue;
		json_object_object_add(msg, "id",
				       json_object_new_int64(c->watch_id));
		client_queue_(d, c, msg, true);
		if (end)
			c->watch_job = 0;
	}
	bmd_wake(d);
}

static void reply_error(struct bmd_client *c, int64_t id, bool has_id,
			const char *msg)
{
	json_object *r = bm_response_error(id, has_id, msg);

	client_queue(c, r);
	json_object_put(r);
}

/* --- commands ----------------------------------------------------------- */

/* The ports of bmd's host: a bmctl elsewhere sees these, not its own. */
static json_object *cmd_ports(struct bmd *d, json_object *r,
			      struct bm_error *err)
{
	struct bm_port_info *v;
	json_object *a;
	char host[256] = "";
	size_t i, n;
	int ret;

	ret = bm_port_list(d->sysfs_net, &v, &n);
	if (ret) {
		bm_errorf(err, "%s: %s", d->sysfs_net ? d->sysfs_net :
			  "/sys/class/net", strerror(-ret));
		return NULL;
	}
	gethostname(host, sizeof(host) - 1);
	json_object_object_add(r, "host", json_object_new_string(host));
	a = json_object_new_array();
	for (i = 0; i < n; i++) {
		json_object *p = bmd_port_json(&v[i], NULL);

		/* REQ-GEN-6: what one kthread sends there, when measured */
		json_object_object_add(p, "capacity",
				       bmd_capacity_of(d, v[i].name));
		json_object_array_add(a, p);
	}
	json_object_object_add(r, "ports", a);
	free(v);
	return r;
}

static json_object *cmd_status(struct bmd *d, json_object *r)
{
	struct bm_module_status st;
	struct bm_error err = { "" };
	unsigned int queued = 0, running = 0, finished = 0;
	struct bmd_client *c;
	struct bmd_job *j;
	json_object *m, *q, *a;
	size_t i;

	json_object_object_add(r, "version", json_object_new_string(BM_VERSION));
	json_object_object_add(r, "protocol",
			       json_object_new_int(BM_PROTO_VERSION));
	json_object_object_add(r, "pid", json_object_new_int(getpid()));
	json_object_object_add(r, "uptime_s", json_object_new_double(
		bmd_mono() - d->start_mono));
	json_object_object_add(r, "results_dir",
			       json_object_new_string(d->results_dir));
	json_object_object_add(r, "config", d->config_path ?
			       json_object_new_string(d->config_path) : NULL);
	/* What a request may choose with reset=NAME; the commands stay
	 * in bmd.conf, which only root may read: they carry the DUT's
	 * passwords and every member of the group asks for status */
	a = json_object_new_array();
	for (i = 0; i < d->n_resets; i++) {
		m = json_object_new_object();
		json_object_object_add(m, "name", json_object_new_string(
			d->resets[i].name));
		json_object_array_add(a, m);
	}
	json_object_object_add(r, "resets", a);
	if (bm_genl_status(&st, &err) == 0) {
		m = json_object_new_object();
		json_object_object_add(m, "version",
				       json_object_new_string(st.version));
		json_object_object_add(m, "protocol",
				       json_object_new_int64(st.proto));
		json_object_object_add(m, "cpus", json_object_new_int64(st.cpus));
		json_object_object_add(m, "kthreads",
				       json_object_new_int64(st.kthreads));
		json_object_object_add(m, "ports", json_object_new_int64(st.ports));
		json_object_object_add(m, "streams",
				       json_object_new_int64(st.streams));
		json_object_object_add(m, "trial_state",
				       json_object_new_int64(st.trial_state));
		json_object_object_add(r, "module", m);
	} else {
		json_object_object_add(r, "module", NULL);
		json_object_object_add(r, "module_error", json_object_new_string(
			err.msg[0] ? err.msg : "bmgen module not available"));
	}
	for (j = d->jobs; j; j = j->next) {
		if (j->state == JOB_QUEUED)
			queued++;
		else if (j->state == JOB_RUNNING)
			running++;
		else
			finished++;
	}
	q = json_object_new_object();
	json_object_object_add(q, "queued", json_object_new_int(queued));
	json_object_object_add(q, "running", json_object_new_int(running));
	json_object_object_add(q, "finished", json_object_new_int(finished));
	json_object_object_add(r, "queue", q);
	/* an operator on the status-only connection sees why (issue 16) */
	q = json_object_new_object();
	i = 0;
	for (c = d->clients; c; c = c->next)
		i += !c->reserved;
	json_object_object_add(q, "open", json_object_new_int64(i));
	json_object_object_add(q, "max", json_object_new_int64(d->max_clients));
	json_object_object_add(r, "connections", q);
	json_object_object_add(r, "capacity", bmd_capacity_all(d));
	return r;
}

/* Every procedure with its parameter schema (bm_procedure_describe). */
static json_object *cmd_procedures(json_object *r)
{
	const struct bm_procedure_info *p;
	json_object *a = json_object_new_array();

	for (p = bm_procedures(); p && p->name; p++)
		json_object_array_add(a, bm_procedure_describe(p));
	json_object_object_add(r, "procedures", a);
	return r;
}

static const struct bm_procedure_info *find_procedure(const char *name,
						      struct bm_error *err)
{
	const struct bm_procedure_info *p = bm_procedure_find(name, NULL);

	if (!p)
		bm_errorf(err, "unknown procedure '%s' (bmctl procedures lists them)",
			  name);
	return p;
}

/* One procedure: what bmctl run PROC --help prints. */
static json_object *cmd_procedure(const struct bm_request *q, json_object *r,
				  struct bm_error *err)
{
	const struct bm_procedure_info *p = find_procedure(q->procedure, err);

	if (!p)
		return NULL;
	json_object_object_add(r, "procedure", bm_procedure_describe(p));
	return r;
}

/*
 * Work out the line rate of a submit: given, else the sim's (dry run),
 * else the link speed of its ports.  Every port must exist, and without a
 * given rate every port's speed must be known and the same: procedures
 * load every port against one R_line, and a slower port would be
 * overloaded at "100 %".  0, or -EINVAL with err set.
 */
static int submit_line_rate(const struct bmd *d, const struct bm_request *q,
			    const struct bm_procedure_info *proc,
			    double *rate, struct bm_error *err)
{
	struct bm_sim_params p;
	struct bm_port_info pi;
	unsigned int i;
	long speed = 0;
	int ret;

	*rate = q->line_rate_bps;
	if (q->dry_run) {
		bm_sim_params_default(&p);
		if (q->sim && bm_sim_params_from_json(q->sim, &p, err))
			return -EINVAL;
		if (*rate > 0)
			p.line_rate_bps = *rate;
		if (bm_sim_params_check(&p, err))
			return -EINVAL;
		*rate = p.line_rate_bps;
		return 0;
	}
	for (i = 0; i < q->n_ports; i++) {
		ret = bm_port_info(d->sysfs_net, q->ports[i], &pi);
		if (ret)
			return bm_errorf(err, "port %s: %s", q->ports[i],
					 ret == -ENOENT ? "no such device"
							: strerror(-ret));
		if (*rate > 0)
			continue;
		/* the generator's own rates: the tx port's speed, or 0 */
		if (proc->own_rates) {
			if (!i)
				speed = pi.speed_mbps > 0 ? pi.speed_mbps : 0;
			continue;
		}
		if (pi.speed_mbps <= 0)
			return bm_errorf(err, "line rate of %s unknown (virtual or link down): give ports.line_rate_bps",
					 q->ports[i]);
		if (!i) {
			speed = pi.speed_mbps;
		} else if (pi.speed_mbps != speed) {
			return bm_errorf(err, "ports %s (%ld Mbit/s) and %s (%ld Mbit/s) differ in link speed: give ports.line_rate_bps",
					 q->ports[0], speed, q->ports[i],
					 pi.speed_mbps);
		}
	}
	if (*rate <= 0)
		*rate = speed * 1e6;
	return 0;
}

const struct bmd_reset *bmd_reset_find(const struct bmd *d, const char *name)
{
	size_t i;

	for (i = 0; i < d->n_resets; i++)
		if (!strcmp(d->resets[i].name, name))
			return &d->resets[i];
	return NULL;
}

/* The file a reset comes from, for messages: the one read, or where bmd
 * looked for one. */
static const char *conf_name(const struct bmd *d)
{
	return d->config_path ? d->config_path : BMD_DEFAULT_CONF;
}

/*
 * Issue 16: a reset command in a request ran with /bin/sh -c as bmd's
 * user (root) for anyone who may reach the socket.  Commands come only
 * from bmd's configuration, by name.  A request that still carries one
 * is refused by name, before the parameters are validated, so that its
 * user learns where resets live now rather than "unknown key".
 */
static int submit_no_command(struct bmd *d, const struct bm_request *q,
			     struct bm_error *err)
{
	if (q->params &&
	    json_object_object_get_ex(q->params, "reset_command", NULL))
		return bm_errorf(err, "%s: reset_command: refused: bmd runs only the reset commands of %s (reset.NAME = COMMAND); choose one with reset=NAME",
				 q->procedure, conf_name(d));
	return 0;
}

/* The reset a submit names is one of bmd's, and never in a dry run. */
static int submit_reset_ok(struct bmd *d, const struct bm_request *q,
			   struct bm_error *err)
{
	const char *name;

	if (q->dry_run)
		return bm_procedure_check_dry_run(q->procedure, q->params, err);
	name = bm_procedure_reset_name(q->procedure, q->params);
	if (name && !bmd_reset_find(d, name))
		return bm_errorf(err, "%s: reset: no reset '%.40s' in %s (%s)",
				 q->procedure, name, conf_name(d),
				 d->n_resets ? "bmctl status lists them" :
				 "it names none");
	return 0;
}

/*
 * Issue 16: a job's memory and time grow with its trials, so parameters
 * whose worst case (every search, retry and repetition at its longest)
 * is above max-trials are refused before anything runs, with the count.
 */
static int submit_trials_ok(struct bmd *d, const struct bm_request *q,
			    double rate, double *n, struct bm_error *err)
{
	if (bm_procedure_max_trials(q->procedure, q->params, rate, q->n_ports,
				    n, err))
		return -EINVAL;
	if (*n > d->max_trials)
		return bm_errorf(err, "%s: these parameters may need up to %.0f trials; bmd runs at most %u a job (max-trials in %s)",
				 q->procedure, *n, d->max_trials, conf_name(d));
	return 0;
}

/* The trials the jobs queued or running may still need, at their worst:
 * what they may hold in memory and write to disk. */
static double unfinished_trials(const struct bmd *d)
{
	const struct bmd_job *j;
	double n = 0;

	for (j = d->jobs; j; j = j->next)
		if (!job_finished(j))
			n += j->worst_trials;
	return n;
}

/*
 * A full disk dropped results and, with no inode left, handed out ids
 * twice.  A job is taken only with room for what the jobs not yet
 * finished may write at their worst (BMD_TRIAL_DISK a trial: its event,
 * its share of the result and of the CSV) and a few inodes; a full disk
 * later (someone else's files) still loses nothing: the result waits in
 * memory (jobs_store_pending).
 */
static int submit_space_ok(struct bmd *d, const struct bm_request *q,
			   double n, struct bm_error *err)
{
	double need = (n + unfinished_trials(d)) * BMD_TRIAL_DISK + (1 << 20);
	struct statvfs sv;
	double free_b;

	if (statvfs(d->results_dir, &sv))
		return bm_errorf(err, "%s: %s", d->results_dir,
				 strerror(errno));
	free_b = (double)sv.f_bavail * (double)sv.f_frsize;
	if (free_b < need)
		return bm_errorf(err, "no room: %s has %.1f MiB free, and %s with the jobs queued or running may write up to %.1f MiB (%.0f trials of its own): free some space",
				 d->results_dir, free_b / 1048576.0,
				 q->procedure, need / 1048576.0, n);
	if (sv.f_files && sv.f_favail < BMD_JOB_INODES)
		return bm_errorf(err, "no room: %s has %lu free inodes, a job needs %d: free some files",
				 d->results_dir, (unsigned long)sv.f_favail,
				 BMD_JOB_INODES);
	return 0;
}

/*
 * Issue 42: 16 accepted jobs of 20,000 trials took bmd past 4.1 GB, and
 * the defaults allowed some 18 GB.  What the jobs not yet finished may
 * hold at their worst (BMD_TRIAL_MEM a trial of the trials their
 * parameters may need), this one's included, stays within max-memory.
 */
static int submit_memory_ok(struct bmd *d, const struct bm_request *q,
			    double n, struct bm_error *err)
{
	double held = unfinished_trials(d) * BMD_TRIAL_MEM;
	double mine = n * BMD_TRIAL_MEM;

	if (held + mine > d->max_memory)
		return bm_errorf(err, "busy: %s may need up to %.0f MiB (%.0f trials), and the jobs queued or running up to %.0f MiB of bmd's %.0f (max-memory-mib in %s): wait for them, or narrow its parameters",
				 q->procedure, mine / 1048576.0, n,
				 held / 1048576.0, d->max_memory / 1048576.0,
				 conf_name(d));
	return 0;
}

/*
 * Issue 16: 300 queued latency jobs took bmd to 23.6 GB and the OOM
 * killer, and every dry run is a thread of its own.  Jobs not yet
 * finished are capped, of one uid (SO_PEERCRED) and in all.
 */
static int submit_room(struct bmd *d, const struct bmd_client *c,
		       struct bm_error *err)
{
	unsigned int all = 0, mine = 0;
	struct bmd_job *j;

	for (j = d->jobs; j; j = j->next) {
		if (job_finished(j))
			continue;
		all++;
		mine += j->submit_uid == (long)c->uid;
	}
	if (mine >= d->max_jobs_per_user)
		return bm_errorf(err, "busy: uid %u has %u jobs queued or running, bmd takes at most %u a user (max-jobs-per-user in %s)",
				 (unsigned int)c->uid, mine,
				 d->max_jobs_per_user, conf_name(d));
	if (all >= d->max_jobs)
		return bm_errorf(err, "busy: %u jobs queued or running, bmd takes at most %u (max-jobs in %s)",
				 all, d->max_jobs, conf_name(d));
	return 0;
}

/* A job runs only on ports bmd.conf's ports allows; a dry run touches
 * none of its ports. */
static int submit_ports_ok(const struct bmd *d, const struct bm_request *q,
			   struct bm_error *err)
{
	unsigned int i;

	for (i = 0; !q->dry_run && i < q->n_ports; i++)
		if (bmd_port_check(d, q->ports[i], err))
			return -EINVAL;
	return 0;
}

static json_object *cmd_submit(struct bmd *d, const struct bmd_client *c,
			       const struct bm_request *q, json_object *r,
			       struct bm_error *err)
{
	const struct bm_procedure_info *p = find_procedure(q->procedure, err);
	struct bm_error e = { "" };
	struct bmd_job *j;
	double rate, worst;

	if (!p || submit_no_command(d, q, err) || submit_room(d, c, err))
		return NULL;
	/* A dry run that names no ports gets a simulated device with every
	 * port the procedure needs (bmd_backend_default); one that names
	 * them runs on those. */
	if ((!q->dry_run || q->n_ports) &&
	    bm_procedure_check_ports(p, q->n_ports, err))
		return NULL;
	if (submit_ports_ok(d, q, err) ||
	    submit_line_rate(d, q, p, &rate, err))
		return NULL;
	if (bm_procedure_validate(q->procedure, q->params, rate, err) ||
	    submit_reset_ok(d, q, err) ||
	    submit_trials_ok(d, q, rate, &worst, err) ||
	    submit_memory_ok(d, q, worst, err) ||
	    submit_space_ok(d, q, worst, err))
		return NULL;
	j = calloc(1, sizeof(*j));
	if (!j) {
		bm_errorf(err, "out of memory");
		return NULL;
	}
	j->events_fd = -1;
	j->d = d;
	j->procedure = strdup(q->procedure);
	if (q->params)
		json_object_deep_copy(q->params, &j->params, NULL);
	else
		j->params = json_object_new_object();
	if (q->sim)
		json_object_deep_copy(q->sim, &j->sim, NULL);
	if (q->dut)
		json_object_deep_copy(q->dut, &j->dut, NULL);
	j->line_rate_bps = rate;
	j->worst_trials = worst;
	j->dry_run = q->dry_run;
	j->cancel_to = JOB_CANCELLED;
	j->submitted = bmd_now();
	j->submit_uid = c->uid;
	j->submit_pid = c->pid;
	if (!j->procedure || !j->params || (q->sim && !j->sim) ||
	    (q->dut && !j->dut) || job_set_ports(j, q->n_ports, q->ports)) {
		job_discard(j);
		bm_errorf(err, "out of memory");
		return NULL;
	}
	/* the id, then the job file, both on disk before the job is
	 * taken: a job bmd cannot keep is refused, and its id never comes
	 * again */
	if (ids_take(d, &j->id, &e) || job_persist_err(j, &e)) {
		job_discard(j);
		bm_errorf(err, "cannot keep the job: %s", e.msg);
		return NULL;
	}
	job_append(d, j);
	job_log(j, "submitted");
	jobs_schedule(d);
	json_object_object_add(r, "job", json_object_new_int64(j->id));
	json_object_object_add(r, "state",
			       json_object_new_string(job_state_name(j->state)));
	return r;
}

static json_object *cmd_jobs(struct bmd *d, json_object *r)
{
	json_object *a = json_object_new_array();
	struct bmd_job *j;

	for (j = d->jobs; j; j = j->next)
		json_object_array_add(a, job_to_json(j, false));
	json_object_object_add(r, "jobs", a);
	return r;
}

static struct bmd_job *find_or_err(struct bmd *d, int64_t id,
				   struct bm_error *err)
{
	struct bmd_job *j = job_find(d, (unsigned long)id);

	if (!j)
		bm_errorf(err, "no job %lld", (long long)id);
	return j;
}

/* Who is c, for the log: "uid U pid P". */
static void who(const struct bmd_client *c, char *buf, size_t size)
{
	snprintf(buf, size, "uid %u pid %d", (unsigned int)c->uid, (int)c->pid);
}

static json_object *cmd_cancel(struct bmd *d, const struct bmd_client *c,
			       struct bmd_job *j, json_object *r,
			       struct bm_error *err)
{
	char by[64];

	/* A job is its submitter's: another member of the group may watch
	 * it and read its result, not end it */
	if (!c->admin && (j->submit_uid < 0 || j->submit_uid != (long)c->uid)) {
		bm_errorf(err, "permission denied: job %lu is uid %ld's; only its submitter, root, bmd's user or admin-group%s%s may cancel it",
			  j->id, j->submit_uid, d->has_admin_group ? " " : "",
			  d->has_admin_group ? "members" : " (none in bmd.conf)");
		return NULL;
	}
	if (job_finished(j)) {
		bm_errorf(err, "job %lu already %s", j->id,
			  job_state_name(j->state));
		return NULL;
	}
	if (j->state == JOB_QUEUED) {
		j->state = JOB_CANCELLED;
		j->ended = bmd_now();
		who(c, by, sizeof(by));
		snprintf(j->error, sizeof(j->error), "cancelled by %s", by);
		job_persist(j);
		job_notify_end(j);
		/* Jobs queued behind it may run now. */
		jobs_schedule(d);
	} else {
		/* The trial in progress ends within 0.1 s, unrecorded; the
		 * worker then stores the partial result. */
		j->cancel_req = true;
		j->abort_trial = 1;
		j->cancel_to = JOB_CANCELLED;
		who(c, j->cancel_by, sizeof(j->cancel_by));
	}
	job_log_cancel(j, c->uid, c->pid);
	json_object_object_add(r, "job", job_to_json(j, false));
	return r;
}

/*
 * The result of j, streamed from its file as the socket drains
 * (client_stream): a result is as large as its trials make it, and bmd
 * holds no more than max-output of it for one client (issue 16).  The
 * reply is the one line {"id":N,"ok":true,"state":S,"result":FILE}, the
 * file's line breaks (whitespace: JSON escapes those in strings) sent as
 * blanks.  0, or -1 with err set.
 */
static int cmd_result(struct bmd *d, struct bmd_client *c, int64_t id,
		      struct bmd_job *j, struct bm_error *err)
{
	char path[PATH_MAX], *line = NULL;
	json_object *r;
	struct stat st;
	size_t len = 0;
	int fd, e;

	if (!job_finished(j))
		return bm_errorf(err, "job %lu is %s; bmctl wait %lu", j->id,
				 job_state_name(j->state), j->id);
	if (!j->has_result)
		return bm_errorf(err, "job %lu has no result (%s%s%s)", j->id,
				 job_state_name(j->state),
				 j->error[0] ? ": " : "", j->error);
	if (j->unsaved_result) {
		/* not on disk yet (full): the copy bmd keeps */
		r = bm_response_ok(id, true);
		json_object_object_add(r, "state", json_object_new_string(
			job_state_name(j->state)));
		json_object_object_add(r, "result",
				       json_object_get(j->unsaved_result));
		client_queue(c, r);
		json_object_put(r);
		return 0;
	}
	snprintf(path, sizeof(path), "%s/%lu.json", d->results_dir, j->id);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode) || !st.st_size) {
		e = fd < 0 ? errno : EINVAL;
		if (fd >= 0)
			close(fd);
		return bm_errorf(err, "%s: %s", path, strerror(e));
	}
	r = bm_response_ok(id, true);
	json_object_object_add(r, "state",
			       json_object_new_string(job_state_name(j->state)));
	line = r ? bm_proto_line(r, &len) : NULL;
	json_object_put(r);
	c->stream_tail = strdup("}\n");
	/* "{...}\n" without its "}\n", then the result's key */
	if (!line || len < 2 || !c->stream_tail ||
	    !client_append(c, line, len - 2, false) ||
	    !client_append(c, ",\"result\":", 10, false)) {
		free(line);
		close(fd);
		free(c->stream_tail);
		c->stream_tail = NULL;
		c->dead = true;
		return 0;
	}
	free(line);
	c->stream_fd = fd;
	return 0;
}

/* Top up c's output from its result stream; at the end, the reply's
 * tail and what was held meanwhile. */
static void client_stream(struct bmd_client *c)
{
	char chunk[OUT_LOW];
	ssize_t n, i;

	while (!c->dead && c->stream_fd >= 0 &&
	       c->out_len - c->out_off < OUT_LOW) {
		n = read(c->stream_fd, chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			c->dead = true;	/* half a line cannot be mended */
			return;
		}
		for (i = 0; i < n; i++)
			if (chunk[i] == '\n' || chunk[i] == '\r')
				chunk[i] = ' ';
		if (n > 0) {
			if (!client_append(c, chunk, n, false))
				c->dead = true;
			continue;
		}
		close(c->stream_fd);
		c->stream_fd = -1;
		if (!client_append(c, c->stream_tail, strlen(c->stream_tail),
				   false) ||
		    (c->held_len &&
		     !client_append(c, c->held, c->held_len, false)))
			c->dead = true;
		free(c->stream_tail);
		c->stream_tail = NULL;
		free(c->held);
		c->held = NULL;
		c->held_len = c->held_cap = 0;
	}
}

/* Watch answers at once ("start" or, for a finished job, "end"); the
 * progress and end events follow from the workers via clients_broadcast.
 * With history the job's events file is replayed first, as the socket
 * drains (client_replay), never read whole into memory. */
static void cmd_watch(struct bmd *d, struct bmd_client *c,
		      const struct bm_request *q, struct bmd_job *j,
		      struct bm_error *err)
{
	char path[PATH_MAX];
	json_object *r;

	if (!job_finished(j) && c->watch_job) {
		bm_errorf(err, "this connection already watches job %lu",
			  c->watch_job);
		reply_error(c, q->id, true, err->msg);
		return;
	}
	r = bm_response_ok(q->id, true);
	json_object_object_add(r, "event", json_object_new_string(
		job_finished(j) ? "end" : "start"));
	/* with the job's params: a watcher shows frame size n of N */
	json_object_object_add(r, "job", job_to_json(j, !job_finished(j)));
	client_queue(c, r);
	json_object_put(r);
	if (job_finished(j))
		return;
	c->watch_job = j->id;
	c->watch_id = q->id;
	if (q->history) {
		job_events_path(d, j->id, path, sizeof(path));
		c->replay_fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
		/* no file: the job has sent no event yet */
		return;
	}
	/* Without history only the latest progress event: enough to draw
	 * the progress line of a job that has run for hours. */
	if (j->last_event) {
		json_object_object_add(j->last_event, "id",
				       json_object_new_int64(q->id));
		client_queue(c, j->last_event);
	}
}

/*
 * Queue the next events of c's replay while its output is short; at the
 * end of the file the watch goes live (or, for a job that has ended, gets
 * its end event).  Under d->lock, as the workers append, so no event is
 * lost or sent twice.
 */
static void client_replay(struct bmd *d, struct bmd_client *c)
{
	struct bmd_job *j = job_find(d, c->watch_job);
	enum bm_line_status st;
	json_object *ev;
	size_t len;
	char *line;
	ssize_t n;

	while (!c->dead && c->replay_fd >= 0 &&
	       c->out_len - c->out_off < OUT_LOW) {
		st = bm_linebuf_next(&c->replay, &line, &len);
		if (st == BM_LINE_OK) {
			ev = json_tokener_parse(line);
			if (!ev)
				continue;	/* a line a full disk cut */
			json_object_object_add(ev, "id",
					       json_object_new_int64(c->watch_id));
			client_queue(c, ev);
			json_object_put(ev);
			continue;
		}
		if (st == BM_LINE_TOO_LONG)
			continue;
		n = bm_linebuf_read(&c->replay, c->replay_fd);
		if (n == -EINTR)
			continue;
		if (n > 0)
			continue;
		/* read through: live from here on */
		close(c->replay_fd);
		c->replay_fd = -1;
		bm_linebuf_free(&c->replay);
		if (!j || job_finished(j)) {
			ev = j ? job_end_event(j) : NULL;
			if (ev) {
				json_object_object_add(ev, "id",
					json_object_new_int64(c->watch_id));
				client_queue(c, ev);
				json_object_put(ev);
			}
			c->watch_job = 0;
		}
	}
}

static void handle_request(struct bmd *d, struct bmd_client *c,
			   const char *line, size_t len)
{
	struct bm_error err = { "" };
	struct bm_request q;
	struct bmd_job *j = NULL;
	json_object *r, *out = NULL;

	if (bm_request_parse(line, len, &q, &err)) {
		if (d->verbose)
			bmd_logf(d, LOG_DEBUG, "bad request: %s", err.msg);
		reply_error(c, q.id, q.has_id, err.msg);
		bm_request_free(&q);
		return;
	}
	if (d->verbose)
		bmd_logf(d, LOG_DEBUG, "request %lld %s", (long long)q.id,
			 bm_cmd_name(q.cmd));
	/* the status-only connection beyond max-connections */
	if (c->reserved && q.cmd != BM_CMD_STATUS) {
		bm_errorf(&err, "busy: %u connections (max-connections in %s): this one may ask status only",
			  d->max_clients, conf_name(d));
		reply_error(c, q.id, true, err.msg);
		bm_request_free(&q);
		return;
	}
	if (q.cmd == BM_CMD_JOB || q.cmd == BM_CMD_WATCH ||
	    q.cmd == BM_CMD_CANCEL || q.cmd == BM_CMD_RESULT) {
		j = find_or_err(d, q.job, &err);
		if (!j) {
			reply_error(c, q.id, true, err.msg);
			bm_request_free(&q);
			return;
		}
	}
	if (q.cmd == BM_CMD_WATCH) {
		cmd_watch(d, c, &q, j, &err);
		bm_request_free(&q);
		return;
	}
	if (q.cmd == BM_CMD_RESULT) {
		if (cmd_result(d, c, q.id, j, &err))
			reply_error(c, q.id, true, err.msg);
		bm_request_free(&q);
		return;
	}
	r = bm_response_ok(q.id, true);
	switch (q.cmd) {
	case BM_CMD_STATUS:
		out = cmd_status(d, r);
		break;
	case BM_CMD_PROCEDURES:
		out = cmd_procedures(r);
		break;
	case BM_CMD_PROCEDURE:
		out = cmd_procedure(&q, r, &err);
		break;
	case BM_CMD_PORTS:
		out = cmd_ports(d, r, &err);
		break;
	case BM_CMD_SUBMIT:
		out = cmd_submit(d, c, &q, r, &err);
		break;
	case BM_CMD_JOBS:
		out = cmd_jobs(d, r);
		break;
	case BM_CMD_JOB:
		json_object_object_add(r, "job", job_to_json(j, true));
		out = r;
		break;
	case BM_CMD_CANCEL:
		out = cmd_cancel(d, c, j, r, &err);
		break;
	default:
		bm_errorf(&err, "cmd not implemented");
		break;
	}
	if (out)
		client_queue(c, out);
	else
		reply_error(c, q.id, true, err.msg[0] ? err.msg : "failed");
	json_object_put(r);
	bm_request_free(&q);
}

/* --- the loop ----------------------------------------------------------- */

/* Handle c's complete requests while it takes its replies: none while a
 * result streams, none while its unsent output is at max-output (a
 * client that sends and never reads holds bmd to that much). */
void bmd_client_lines(struct bmd *d, struct bmd_client *c)
{
	enum bm_line_status st;
	size_t len;
	char *line;

	while (!c->dead && c->stream_fd < 0 &&
	       client_unsent(c) < d->max_output &&
	       (st = bm_linebuf_next(&c->in, &line, &len)) != BM_LINE_NONE) {
		if (st == BM_LINE_TOO_LONG) {
			char msg[64];

			snprintf(msg, sizeof(msg),
				 "request too long (max %d bytes)",
				 BM_PROTO_MAX_LINE);
			reply_error(c, 0, false, msg);
			continue;
		}
		if (len && line[len - 1] == '\r')
			line[--len] = '\0';
		if (!len)
			continue;	/* blank lines are keep-alives */
		handle_request(d, c, line, len);
	}
}

/* Does c hold the start of a request line whose end has not come (or
 * one too long, being skipped)?  Complete lines waiting for their turn
 * are bmd's delay, not the client's. */
static bool client_partial(const struct bmd_client *c)
{
	const struct bm_linebuf *b = &c->in;
	size_t n = b->len - b->consumed;

	if (b->discarding)
		return true;
	return n && !memchr(b->buf + b->consumed, '\n', n);
}

static void client_read(struct bmd *d, struct bmd_client *c)
{
	ssize_t n;

	n = bm_linebuf_read(&c->in, c->fd);
	if (n == -EAGAIN || n == -EINTR)
		return;
	if (n <= 0) {
		c->dead = true;
		return;
	}
	c->last_active = bmd_mono();
	bmd_client_lines(d, c);
	if (!client_partial(c))
		c->line_start = 0;
	else if (!c->line_start)
		c->line_start = c->last_active;
}

static void client_free(struct bmd_client *c)
{
	close(c->fd);
	if (c->replay_fd >= 0)
		close(c->replay_fd);
	if (c->stream_fd >= 0)
		close(c->stream_fd);
	free(c->stream_tail);
	free(c->held);
	bm_linebuf_free(&c->replay);
	bm_linebuf_free(&c->in);
	free(c->out);
	free(c);
}

static void clients_prune(struct bmd *d)
{
	struct bmd_client **pp = &d->clients, *c;

	while ((c = *pp)) {
		if (c->dead) {
			*pp = c->next;
			client_free(c);
		} else {
			pp = &c->next;
		}
	}
}

bool bmd_uid_in_group(uid_t uid, gid_t gid, gid_t group)
{
	struct passwd pw, *pwp = NULL;
	gid_t groups[256];
	int n = 256, i;
	char buf[4096];

	if (gid == group)
		return true;
	if (getpwuid_r(uid, &pw, buf, sizeof(buf), &pwp) || !pwp)
		return false;
	/* More groups than fit: the ones that fit are still checked. */
	getgrouplist(pwp->pw_name, gid, groups, &n);
	for (i = 0; i < n && i < 256; i++)
		if (groups[i] == group)
			return true;
	return false;
}

/*
 * Is the peer behind fd (credentials cr) in group?  The groups the
 * peer process had when it connected (SO_PEERGROUPS) are the ones the
 * kernel checked against the socket's mode, so they decide; a kernel
 * without SO_PEERGROUPS (before 4.13) leaves the group database.
 */
static bool peer_in_group(gid_t group, int fd, const struct ucred *cr)
{
	gid_t one[64], *g = one;
	socklen_t len = sizeof(one);
	bool in = false;
	size_t i;

	if (cr->gid == group)
		return true;
	if (getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, g, &len)) {
		if (errno == ENOPROTOOPT)
			return bmd_uid_in_group(cr->uid, cr->gid, group);
		if (errno != ERANGE)
			return false;
		/* len now says how much the groups need */
		g = malloc(len);
		if (!g || getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, g, &len)) {
			free(g);
			return false;
		}
	}
	for (i = 0; i < len / sizeof(*g) && !in; i++)
		in = g[i] == group;
	if (g != one)
		free(g);
	return in;
}

/* Send a new connection fd the one refusal line msg (no id). */
static void send_refusal(int fd, const char *msg)
{
	json_object *r = bm_response_error(0, false, msg);
	size_t n;
	char *line = r ? bm_proto_line(r, &n) : NULL;
	ssize_t w;

	/* A fresh socket's buffer takes this one short line whole. */
	if (line) {
		w = send(fd, line, n, MSG_NOSIGNAL | MSG_DONTWAIT);
		(void)w;	/* the peer learns nothing more either way */
	}
	free(line);
	json_object_put(r);
}

/*
 * Who may talk to bmd: root, bmd's own user and the members of its -g
 * group.  The socket's mode says the same, but a socket from systemd may
 * have any mode and a directory may be opened up by mistake; bmd runs
 * benchmarks (and reset commands) as itself, so it checks each peer.
 * Anyone else gets one JSON refusal and the connection is closed.
 */
static bool peer_allowed(struct bmd *d, int fd, struct ucred *out)
{
	struct ucred cr;
	socklen_t len = sizeof(cr);
	char msg[256], m[300], pu[32], pp[32];
	const char *fields[] = { m, pu, pp };

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &len)) {
		bmd_logf(d, LOG_ERR, "SO_PEERCRED: %s: connection closed",
			 strerror(errno));
		return false;
	}
	*out = cr;
	if (cr.uid == 0 || cr.uid == geteuid() ||
	    (d->has_group && peer_in_group(d->group, fd, &cr)))
		return true;
	if (d->has_group)
		snprintf(msg, sizeof(msg),
			 "permission denied: uid %u is not root, bmd's user (uid %u) or in group %s",
			 (unsigned int)cr.uid, (unsigned int)geteuid(),
			 d->group_name);
	else
		snprintf(msg, sizeof(msg),
			 "permission denied: uid %u is not root or bmd's user (uid %u), and bmd has no -g group",
			 (unsigned int)cr.uid, (unsigned int)geteuid());
	snprintf(m, sizeof(m), "MESSAGE=refused pid %d: %s", (int)cr.pid,
		 msg);
	snprintf(pu, sizeof(pu), "PEER_UID=%u", (unsigned int)cr.uid);
	snprintf(pp, sizeof(pp), "PEER_PID=%d", (int)cr.pid);
	bmd_log(d, LOG_WARNING, fields, 3);
	send_refusal(fd, msg);
	return false;
}

static void accept_client(struct bmd *d)
{
	struct bmd_client *c, *k;
	bool has_reserved = false;
	struct ucred cr;
	unsigned int n = 0, mine = 0;
	char msg[256];
	int fd;

	fd = accept4(d->listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (fd < 0)
		return;
	if (!peer_allowed(d, fd, &cr)) {
		close(fd);
		return;
	}
	/*
	 * Issue 16: 256 idle connections locked everyone else out.  Beyond
	 * max-connections one more is taken, for status only, so that an
	 * operator can always see what bmd is doing; the next is refused.
	 */
	for (k = d->clients; k; k = k->next) {
		n += !k->reserved;
		has_reserved |= k->reserved;
		mine += k->uid == cr.uid;
	}
	/* one user's connections cannot take everyone's slots */
	if (cr.uid != 0 && mine >= d->max_clients_per_user) {
		snprintf(msg, sizeof(msg), "busy: uid %u has %u connections, bmd takes at most %u a user (max-connections-per-user in %s)",
			 (unsigned int)cr.uid, mine, d->max_clients_per_user,
			 conf_name(d));
		send_refusal(fd, msg);
		close(fd);
		return;
	}
	if (n >= d->max_clients && has_reserved) {
		snprintf(msg, sizeof(msg), "busy: %u connections (max-connections in %s), and the status one is taken",
			 n, conf_name(d));
		send_refusal(fd, msg);
		close(fd);
		return;
	}
	c = calloc(1, sizeof(*c));
	if (!c) {
		close(fd);
		return;
	}
	c->d = d;
	c->fd = fd;
	c->replay_fd = -1;
	c->stream_fd = -1;
	c->reserved = n >= d->max_clients;
	c->last_active = bmd_mono();
	c->uid = cr.uid;
	c->pid = cr.pid;
	c->admin = cr.uid == 0 || cr.uid == geteuid() ||
		   (d->has_admin_group && peer_in_group(d->admin_group, fd, &cr));
	c->next = d->clients;
	d->clients = c;
}

/* Is c idle: no watch, nothing to send, nothing streaming? */
static bool client_idle(const struct bmd_client *c)
{
	return !c->watch_job && !client_unsent(c) && c->stream_fd < 0 &&
	       c->replay_fd < 0;
}

/* Close the clients idle for idle-timeout; the poll timeout in ms until
 * the next may be (-1: none). */
static int clients_expire(struct bmd *d)
{
	double now = bmd_mono(), left, next = -1.0;
	struct bmd_client *c;
	char msg[160];

	for (c = d->clients; c; c = c->next) {
		if (c->dead || !c->line_start)
			continue;
		/* a request that trickles in, a byte at a time, holds a
		 * slot as long as it likes: a whole line has a deadline */
		left = c->line_start + d->request_timeout_s - now;
		if (left <= 0.0) {
			snprintf(msg, sizeof(msg), "request not complete after %g s (request-timeout in %s): connection closed",
				 d->request_timeout_s, conf_name(d));
			reply_error(c, 0, false, msg);
			client_flush(c);
			c->dead = true;
		} else if (next < 0.0 || left < next) {
			next = left;
		}
	}
	for (c = d->clients; d->idle_timeout_s > 0.0 && c; c = c->next) {
		if (c->dead || !client_idle(c))
			continue;
		left = c->last_active + d->idle_timeout_s - now;
		if (left <= 0.0) {
			if (d->verbose)
				bmd_logf(d, LOG_DEBUG, "pid %d: idle for %g s: closed",
					 (int)c->pid, d->idle_timeout_s);
			c->dead = true;
		} else if (next < 0.0 || left < next) {
			next = left;
		}
	}
	return next < 0.0 ? -1 : (int)(next * 1000.0) + 1;
}

int bmd_run(struct bmd *d)
{
	struct pollfd *pfd = NULL;
	struct bmd_client **pc = NULL, *c;
	size_t n, i, cap = 0;
	uint64_t ticks;
	int ret = 0, r, timeout;
	double next_store = 0;

	pthread_mutex_lock(&d->lock);
	while (!d->stop) {
		jobs_reap(d);
		timeout = clients_expire(d);
		/* what a full disk left in memory, every 2 s until written */
		if (d->store_pending) {
			double now = bmd_mono();
			int ms;

			if (now >= next_store) {
				d->store_pending = jobs_store_pending(d) > 0;
				next_store = now + 2.0;
			}
			ms = (int)((next_store - now) * 1000.0) + 1;
			if (d->store_pending && (timeout < 0 || timeout > ms))
				timeout = ms;
		}
		clients_prune(d);
		n = 2;
		for (c = d->clients; c; c = c->next)
			n++;
		if (n > cap) {
			void *a = realloc(pfd, n * sizeof(*pfd));
			void *b = a ? realloc(pc, n * sizeof(*pc)) : NULL;

			if (a)
				pfd = a;
			if (!b) {
				ret = -ENOMEM;
				break;
			}
			pc = b;
			cap = n;
		}
		pfd[0] = (struct pollfd){ .fd = d->wake_fd, .events = POLLIN };
		pfd[1] = (struct pollfd){ .fd = d->listen_fd, .events = POLLIN };
		for (i = 2, c = d->clients; c; c = c->next, i++) {
			pc[i] = c;
			/* a client that does not take its replies sends no
			 * more requests for now (bmd_client_lines) */
			pfd[i] = (struct pollfd){ .fd = c->fd,
				.events = c->stream_fd < 0 &&
					  client_unsent(c) < d->max_output ?
					  POLLIN : 0 };
			/* a stream or replay goes on as the socket drains */
			if (c->out_off < c->out_len || c->stream_fd >= 0 ||
			    c->replay_fd >= 0)
				pfd[i].events |= POLLOUT;
		}
		/* Clients are only freed by this thread, so pc[] stays valid
		 * while the workers run during poll. */
		pthread_mutex_unlock(&d->lock);
		r = poll(pfd, n, timeout);
		pthread_mutex_lock(&d->lock);
		if (r < 0 && errno != EINTR) {
			ret = -errno;
			break;
		}
		if (r <= 0)
			continue;	/* the timeout: clients_expire */
		if (pfd[0].revents & POLLIN)
			r = read(d->wake_fd, &ticks, sizeof(ticks));
		if (pfd[1].revents & POLLIN)
			accept_client(d);
		for (i = 2; i < n; i++) {
			c = pc[i];
			if (pfd[i].revents & (POLLIN | POLLHUP | POLLERR))
				client_read(d, c);
			client_flush(c);
		}
		/* Events queued by workers since the last turn, and more of
		 * a replay where the socket took what was queued. */
		for (c = d->clients; c; c = c->next) {
			client_stream(c);
			client_replay(d, c);
			client_flush(c);
			bmd_client_lines(d, c);
			client_flush(c);
		}
	}
	pthread_mutex_unlock(&d->lock);
	free(pfd);
	free(pc);
	return ret;
}

void bmd_client_pump(struct bmd *d, struct bmd_client *c)
{
	client_stream(c);
	client_replay(d, c);
	bmd_client_lines(d, c);
}

void bmd_status_line(struct bmd *d, char *buf, size_t size)
{
	unsigned int queued = 0, running = 0;
	struct bmd_job *j;

	pthread_mutex_lock(&d->lock);
	for (j = d->jobs; j; j = j->next) {
		queued += j->state == JOB_QUEUED;
		running += j->state == JOB_RUNNING;
	}
	pthread_mutex_unlock(&d->lock);
	snprintf(buf, size, "%u running, %u queued", running, queued);
}

/* --- setup and teardown ------------------------------------------------- */

/* Is path (not following a symlink) a socket? */
static bool is_socket(const char *path, struct stat *st)
{
	return !lstat(path, st) && S_ISSOCK(st->st_mode);
}

static int listen_unix(struct bmd *d, const char *path, struct bm_error *err)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char dir[PATH_MAX], *slash;
	struct stat st;
	int fd, e;

	if (strlen(path) >= sizeof(sa.sun_path))
		return bm_errorf(err, "socket path too long: %s", path);
	strcpy(sa.sun_path, path);
	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		*slash = '\0';
		mkdir(dir, 0755);
	}
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return bm_errorf(err, "socket: %s", strerror(errno));
	/*
	 * Only a socket is ever removed: connect() fails with ECONNREFUSED
	 * on a regular file too, and a -s that names a stored result (or a
	 * symlink to one) by mistake must not delete it.
	 */
	if (!lstat(path, &st) && !S_ISSOCK(st.st_mode)) {
		close(fd);
		return bm_errorf(err, "%s exists and is not a socket: not removing it",
				 path);
	}
	/* A stale socket file is removed, a live bmd is not displaced. */
	if (!connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		close(fd);
		return bm_errorf(err, "another bmd is listening on %s", path);
	}
	if (errno == ECONNREFUSED && is_socket(path, &st))
		unlink(path);
	close(fd);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return bm_errorf(err, "socket: %s", strerror(errno));
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		e = errno;
		close(fd);
		return bm_errorf(err, "%s: %s", path, strerror(e));
	}
	/*
	 * bind() gives the socket 0777 less the umask: set the mode and the
	 * group ourselves.  Until listen() a connect() is refused, so the
	 * mode bind() left is never usable.
	 */
	/*
	 * No chown() when bind() already gave the socket the group (bmd's
	 * own, as the unit's Group=bmgen does): the unit's seccomp filter
	 * refuses chown, and nothing needs it then.
	 */
	if (chmod(path, 0660) ||
	    (d->has_group && (lstat(path, &st) || st.st_gid != d->group) &&
	     chown(path, (uid_t)-1, d->group))) {
		e = errno;
		close(fd);
		unlink(path);
		return bm_errorf(err, "%s: mode 0660%s%s: %s", path,
				 d->has_group ? ", group " : "",
				 d->has_group ? d->group_name : "",
				 strerror(e));
	}
	if (listen(fd, SOMAXCONN)) {
		e = errno;
		close(fd);
		unlink(path);
		return bm_errorf(err, "%s: %s", path, strerror(e));
	}
	/* bmd_free removes the path only while it is still this socket. */
	if (is_socket(path, &st)) {
		d->sock_dev = st.st_dev;
		d->sock_ino = st.st_ino;
	}
	return fd;
}

bool bmd_results_mode_ok(unsigned int mode)
{
	/* Never writable by others, never executable: a result is data. */
	return mode == 0600 || mode == 0640 || mode == 0644;
}

/* The group name (a group name, else a number) into *gid; 0, or -EINVAL
 * with err set (what names the setting in messages). */
static int resolve_group(const char *what, const char *name, gid_t *gid,
			 struct bm_error *err)
{
	struct group gr, *grp = NULL;
	char buf[4096], *end;
	unsigned long g;

	if (!name[0] || strlen(name) >= 64)
		return bm_errorf(err, "%s: bad group name '%.64s'", what, name);
	if (!getgrnam_r(name, &gr, buf, sizeof(buf), &grp) && grp) {
		*gid = grp->gr_gid;
		return 0;
	}
	errno = 0;
	g = strtoul(name, &end, 10);
	if (*end || errno || name[0] < '0' || name[0] > '9' ||
	    g >= (gid_t)-1)
		return bm_errorf(err, "%s: unknown group '%s'", what, name);
	*gid = g;
	return 0;
}

/* d's group from name; 0 or -EINVAL. */
static int set_group(struct bmd *d, const char *name, struct bm_error *err)
{
	if (resolve_group("group", name, &d->group, err))
		return -EINVAL;
	d->has_group = true;
	snprintf(d->group_name, sizeof(d->group_name), "%s", name);
	return 0;
}

/*
 * Take DIR/.lock for as long as d lives.  Two bmd on one results
 * directory would each count ids from what they saw at start and
 * overwrite each other's jobs and results.  flock() goes with the open
 * file, so a bmd that dies, however, frees the directory.
 */
static int lock_results(struct bmd *d, struct bm_error *err)
{
	char path[PATH_MAX];
	int e;

	snprintf(path, sizeof(path), "%s/.lock", d->results_dir);
	d->lock_fd = open(path, O_RDONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC,
			  0600);
	if (d->lock_fd < 0)
		return bm_errorf(err, "%s: %s", path, strerror(errno));
	if (flock(d->lock_fd, LOCK_EX | LOCK_NB)) {
		e = errno;
		if (e == EWOULDBLOCK)
			return bm_errorf(err, "results directory %s is in use by another bmd (%s is locked)",
					 d->results_dir, path);
		return bm_errorf(err, "%s: flock: %s", path, strerror(e));
	}
	return 0;
}

/* d's own copy of the configuration's resets and file name. */
static int copy_resets(struct bmd *d, const struct bmd_config *cfg,
		       struct bm_error *err)
{
	size_t i;

	if (cfg->config_path) {
		d->config_path = strdup(cfg->config_path);
		if (!d->config_path)
			return bm_errorf(err, "out of memory");
	}
	if (!cfg->n_resets)
		return 0;
	d->resets = calloc(cfg->n_resets, sizeof(*d->resets));
	if (!d->resets)
		return bm_errorf(err, "out of memory");
	d->n_resets = cfg->n_resets;
	for (i = 0; i < cfg->n_resets; i++) {
		if (!bmd_reset_name_ok(cfg->resets[i].name))
			return bm_errorf(err, "bad reset name '%.40s'",
					 cfg->resets[i].name);
		d->resets[i].name = strdup(cfg->resets[i].name);
		d->resets[i].command = strdup(cfg->resets[i].command);
		if (!d->resets[i].name || !d->resets[i].command)
			return bm_errorf(err, "out of memory");
	}
	return 0;
}

struct bmd *bmd_new(const struct bmd_config *cfg, struct bm_error *err)
{
	struct bmd *d = calloc(1, sizeof(*d));
	char jobs[PATH_MAX];
	int fl;

	if (!d) {
		bm_errorf(err, "out of memory");
		return NULL;
	}
	pthread_mutex_init(&d->lock, NULL);
	pthread_cond_init(&d->idle, NULL);
	d->listen_fd = -1;
	d->wake_fd = -1;
	d->lock_fd = -1;
	d->next_id = 1;
	d->start_mono = bmd_mono();
	d->backend_new = cfg->backend_new ? cfg->backend_new
					  : bmd_backend_default;
	d->backend_ctx = cfg->backend_ctx;
	d->verbose = cfg->verbose;
	d->no_hw_timestamps = cfg->no_hw_timestamps;
	d->no_tcp_engine = cfg->no_tcp_engine;
	d->tx_kthreads = cfg->tx_kthreads ? cfg->tx_kthreads :
					    BMD_TX_KTHREADS_AUTO;
	d->tx_path = cfg->tx_path;
	d->log = cfg->log;
	d->log_ctx = cfg->log_ctx;
	d->max_trials = cfg->max_trials ? cfg->max_trials :
					  BMD_DEFAULT_MAX_TRIALS;
	d->max_jobs = cfg->max_jobs ? cfg->max_jobs : BMD_DEFAULT_MAX_JOBS;
	d->max_clients = cfg->max_connections ? cfg->max_connections :
						BMD_DEFAULT_MAX_CONNECTIONS;
	d->idle_timeout_s = cfg->idle_timeout_s ? cfg->idle_timeout_s :
						  BMD_DEFAULT_IDLE_TIMEOUT_S;
	d->max_output = cfg->max_output ? cfg->max_output :
					  BMD_DEFAULT_MAX_OUTPUT;
	d->max_clients_per_user = cfg->max_connections_per_user ?
				  cfg->max_connections_per_user :
				  BMD_DEFAULT_MAX_CONNECTIONS_PER_USER;
	d->request_timeout_s = cfg->request_timeout_s > 0 ?
			       cfg->request_timeout_s :
			       BMD_DEFAULT_REQUEST_TIMEOUT_S;
	d->max_memory = (double)(cfg->max_memory_mib ? cfg->max_memory_mib :
				 BMD_DEFAULT_MAX_MEMORY_MIB) * 1048576.0;
	d->max_jobs_per_user = cfg->max_jobs_per_user ?
			       cfg->max_jobs_per_user :
			       BMD_DEFAULT_MAX_JOBS_PER_USER;
	d->results_mode = cfg->results_mode ? cfg->results_mode : 0640;
	if (!bmd_results_mode_ok(d->results_mode)) {
		bm_errorf(err, "results mode %04o: must be 0600, 0640 or 0644",
			  cfg->results_mode);
		goto fail;
	}
	snprintf(jobs, sizeof(jobs), "%s/jobs", cfg->results_dir);
	d->results_dir = strdup(cfg->results_dir);
	d->jobs_dir = strdup(jobs);
	d->sysfs_net = cfg->sysfs_net ? strdup(cfg->sysfs_net) : NULL;
	if (!d->results_dir || !d->jobs_dir ||
	    (cfg->sysfs_net && !d->sysfs_net)) {
		bm_errorf(err, "out of memory");
		goto fail;
	}
	if (cfg->group && set_group(d, cfg->group, err))
		goto fail;
	if (cfg->admin_group) {
		if (resolve_group("admin-group", cfg->admin_group,
				  &d->admin_group, err))
			goto fail;
		d->has_admin_group = true;
	}
	if (bmd_port_policy_parse(cfg->ports, &d->port_policy, err))
		goto fail;
	if (cfg->dut_counters) {
		d->dut_counters = strdup(cfg->dut_counters);
		if (!d->dut_counters) {
			bm_errorf(err, "out of memory");
			goto fail;
		}
	}
	d->dut_counters_wait_s = cfg->dut_counters_wait_s < 0 ? 0 :
				 cfg->dut_counters_wait_s > 0 ?
				 cfg->dut_counters_wait_s :
				 BMD_DEFAULT_COUNTERS_WAIT_S;
	if (copy_resets(d, cfg, err))
		goto fail;
	if (bm_mkdirs(d->jobs_dir, err))
		goto fail;
	if (lock_results(d, err))
		goto fail;
	d->wake_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (d->wake_fd < 0) {
		bm_errorf(err, "eventfd: %s", strerror(errno));
		goto fail;
	}
	if (jobs_load(d, err))
		goto fail;
	if (cfg->listen_fd >= 0) {
		d->listen_fd = cfg->listen_fd;
		fl = fcntl(d->listen_fd, F_GETFL);
		fcntl(d->listen_fd, F_SETFL, fl | O_NONBLOCK);
	} else {
		d->listen_fd = listen_unix(d, cfg->socket_path, err);
		if (d->listen_fd < 0)
			goto fail;
		d->socket_path = strdup(cfg->socket_path);
	}
	return d;
fail:
	bmd_free(d);
	return NULL;
}

void bmd_free(struct bmd *d)
{
	struct bmd_client *c;
	struct bmd_job *j;
	struct stat st;

	if (!d)
		return;
	pthread_mutex_lock(&d->lock);
	d->shutting_down = true;
	for (j = d->jobs; j; j = j->next) {
		if (j->state == JOB_RUNNING) {
			j->cancel_req = true;
			j->abort_trial = 1;
			j->cancel_to = JOB_INTERRUPTED;
		} else if (j->state == JOB_QUEUED) {
			j->state = JOB_INTERRUPTED;
			j->ended = bmd_now();
			snprintf(j->error, sizeof(j->error),
				 "bmd stopped before the job started");
			job_persist(j);
			job_notify_end(j);
		}
	}
	while (d->running)
		pthread_cond_wait(&d->idle, &d->lock);
	jobs_reap(d);
	/* Best effort: let watchers see the end events. */
	for (c = d->clients; c; c = c->next)
		client_flush(c);
	pthread_mutex_unlock(&d->lock);

	while ((c = d->clients)) {
		d->clients = c->next;
		client_free(c);
	}
	if (d->listen_fd >= 0)
		close(d->listen_fd);
	/* Not a file put there since, nor another bmd's socket. */
	if (d->socket_path && is_socket(d->socket_path, &st) &&
	    st.st_dev == d->sock_dev && st.st_ino == d->sock_ino)
		unlink(d->socket_path);
	if (d->wake_fd >= 0)
		close(d->wake_fd);
	jobs_free(d);
	/* Last: every job file is written. */
	if (d->lock_fd >= 0)
		close(d->lock_fd);
	pthread_mutex_destroy(&d->lock);
	pthread_cond_destroy(&d->idle);
	free(d->socket_path);
	free(d->results_dir);
	free(d->jobs_dir);
	free(d->sysfs_net);
	for (size_t i = 0; i < d->n_resets; i++) {
		free(d->resets[i].name);
		free(d->resets[i].command);
	}
	free(d->resets);
	free(d->config_path);
	free(d->dut_counters);
	bmd_port_policy_free(&d->port_policy);
	free(d);
}

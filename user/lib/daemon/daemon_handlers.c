// SPDX-License-Identifier: GPL-2.0
/*
 * bmd: the request handlers, one cmd_* a request, and the reading of a
 * client's request lines; results and watches are streamed into the
 * client's output as it drains (client_stream, client_replay).
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
		bm_mono_s() - d->start_mono));
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
	/* an operator on the status-only connection sees why */
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
	size_t i;

	for (i = 0; (p = bm_procedure_at(i)); i++)
		json_object_array_add(a, bm_procedure_describe(p));
	json_object_object_add(r, "procedures", a);
	return r;
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
 * holds no more than max-output of it for one client.  The
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
void client_stream(struct bmd_client *c)
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
void client_replay(struct bmd *d, struct bmd_client *c)
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
	bool usage = false;

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
		usage = !out;
		break;
	case BM_CMD_PORTS:
		out = cmd_ports(d, r, &err);
		break;
	case BM_CMD_SUBMIT:
		out = cmd_submit(d, c, &q, r, &err, &usage);
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
		reply_refusal(c, q.id, true, err.msg[0] ? err.msg : "failed",
			      usage);
	json_object_put(r);
	bm_request_free(&q);
}

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

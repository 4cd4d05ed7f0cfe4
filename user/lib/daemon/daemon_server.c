// SPDX-License-Identifier: GPL-2.0
/*
 * bmd: the Unix socket server.  One poll loop serves every client and
 * reaps the jobs: accepting (daemon_auth.c decides who may), reading
 * requests (daemon_handlers.c answers them), expiring idle clients; and
 * the daemon's setup and teardown.
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
	c->last_active = bm_mono_s();
	bmd_client_lines(d, c);
	if (!client_partial(c))
		c->line_start = 0;
	else if (!c->line_start)
		c->line_start = c->last_active;
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
	 * 256 idle connections once locked everyone else out.  Beyond
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
	c->last_active = bm_mono_s();
	c->uid = cr.uid;
	c->pid = cr.pid;
	c->admin = cr.uid == 0 || cr.uid == geteuid() ||
		   (d->has_admin_group && peer_in_group(d->admin_group, fd, &cr));
	c->next = d->clients;
	d->clients = c;
}

/* Close the clients idle for idle-timeout; the poll timeout in ms until
 * the next may be (-1: none). */
static int clients_expire(struct bmd *d)
{
	double now = bm_mono_s(), left, next = -1.0;
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
			double now = bm_mono_s();
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
	d->start_mono = bm_mono_s();
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
	if (bmd_hosts_parse(cfg->hosts, &d->hosts, err))
		goto fail;
	d->sync_tolerance_us = cfg->sync_tolerance_us;
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
	bmd_hosts_free(&d->hosts);
	free(d);
}

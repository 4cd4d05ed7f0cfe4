/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internals of the bmd engine shared by daemon_*.c.
 *
 * Locking: one mutex, bmd->lock, protects every job and client field and
 * every json_object reachable from them.  The poll loop holds it except in
 * poll(); workers take it only to report progress and to finish.  A worker
 * gets private deep copies of params and sim, because json-c caches the
 * serialised string inside the object and is not safe for concurrent
 * readers.
 */
#ifndef BM_DAEMON_INT_H
#define BM_DAEMON_INT_H

#include <net/if.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <json-c/json.h>

#include "bm_clock.h"
#include "bm_daemon.h"
#include "bm_part.h"
#include "bm_proto.h"

enum job_state {
	JOB_QUEUED = 0,
	JOB_RUNNING,
	JOB_DONE,
	JOB_FAILED,
	JOB_CANCELLED,
	JOB_INTERRUPTED,
};

struct bmd_job {
	struct bmd_job *next;		/* in id order */
	struct bmd *d;
	unsigned long id;
	enum job_state state;
	char *procedure;
	json_object *params;		/* object; NULL once shed */
	json_object *sim;		/* dry run only, may be NULL */
	json_object *dut;		/* submit's DUT descriptor, or NULL */
	/* A finished job keeps only its summary in memory (params, sim
	 * and dut, up to 256 KiB of DUT configuration, are in its job
	 * file, read when a client asks): job_shed() */
	bool shed;
	/* A result the results directory had no room for (a full disk
	 * once dropped it): kept here, served by "result", written by
	 * jobs_store_pending() once there is room; and its job file, when
	 * that could not be written */
	json_object *unsaved_result;
	char unsaved_why[160];
	bool unsaved_job;
	/* The most trials its parameters may need, at submit (the memory
	 * budget, max-memory-mib); 0 for a job loaded from its file */
	double worst_trials;
	/* The job's ports in the order given (tx = ports[0], rx =
	 * ports[1]); n_ports = 0 and NULL when none were named. */
	unsigned int n_ports;
	char (*ports)[IFNAMSIZ];
	double line_rate_bps;
	/* ports.sync_tolerance_us of its submit (us), 0 = bmd.conf's */
	double sync_tolerance_us;
	bool dry_run;
	double submitted, started, ended;	/* Unix time, 0 = not yet */
	/* Who submitted it (SO_PEERCRED of the connection), for the log;
	 * -1 for a job loaded from its file. */
	long submit_uid, submit_pid;
	char error[512];
	bool has_result;
	unsigned int trials;
	char status_line[256];
	/* Progress events (~18 KB each were once all kept until the
	 * job ended): every one is appended to jobs/<id>.events, one JSON
	 * line without "id", and only the latest stays in memory, for a
	 * watch without history.  mem_events counts what memory holds. */
	json_object *last_event;
	int events_fd;			/* the file, open while running; -1 */
	bool events_err;		/* a write failed: logged once */
	unsigned int mem_events, mem_events_peak;
	bool cancel_req;
	/* Set with cancel_req for a running job: its backend's abort (the
	 * trial in progress ends within 0.1 s); written under
	 * d->lock, read by the worker's backend without it */
	volatile int abort_trial;
	enum job_state cancel_to;	/* CANCELLED or INTERRUPTED */
	char cancel_by[64];		/* "uid U pid P" of the cancel */
	pthread_t thread;
	bool thread_live;		/* needs pthread_join */
	bool thread_done;		/* worker has returned */
};

struct bmd_client {
	struct bmd_client *next;
	struct bmd *d;
	int fd;
	struct bm_linebuf in;
	char *out;
	size_t out_len, out_off, out_cap;
	unsigned long watch_job;	/* 0 = not watching */
	int64_t watch_id;		/* request id of the watch */
	/* watch with history: the job's events file, read as the socket
	 * drains; live events wait in the file until it is read through */
	int replay_fd;			/* -1: not replaying */
	struct bm_linebuf replay;
	bool dead;			/* close at the next loop turn */
	/* A result streamed from its file (cmd_result): what follows the
	 * file's bytes, and the replies and events queued meanwhile, which
	 * must not land inside its line. */
	int stream_fd;			/* -1: none */
	char *stream_tail;
	char *held;
	size_t held_len, held_cap;
	bool reserved;			/* the status-only slot */
	double last_active;		/* bm_mono_s() of the last byte */
	double line_start;		/* bm_mono_s() when the request line
					 * now arriving began; 0: none */
	uid_t uid;			/* the peer at connect (SO_PEERCRED) */
	pid_t pid;
	/* root, bmd's user or in admin-group at connect: may cancel any
	 * user's job */
	bool admin;
};

/* bmd.conf ports, parsed (daemon_access.c) */
struct bmd_port_policy {
	char *text;			/* as given, for messages */
	char **patterns;		/* fnmatch patterns of allowed names */
	size_t n;
	bool unaddressed;		/* and every port the host does not use */
};

/* bmd.conf hosts, parsed (daemon_hosts.c): the other tester hosts a
 * job's ports may name, and the ssh destination of each. */
#define BMD_HOSTS_MAX		64
#define BMD_HOST_DEST_LEN	128
struct bmd_host {
	char name[BM_PART_HOST_LEN];	/* as a port label names it */
	char dest[BMD_HOST_DEST_LEN];	/* what bmd gives ssh */
};
struct bmd_hosts {
	char *text;			/* as given, for messages */
	struct bmd_host *v;
	size_t n;
};

/* What decides whether the host uses a port itself. */
struct bmd_port_use {
	bool up;
	char master[IFNAMSIZ];		/* "" when not enslaved */
	char addr[48];			/* first address outside the benchmark
					 * networks, "" none */
};

struct bmd {
	pthread_mutex_t lock;
	pthread_cond_t idle;		/* signalled when a worker finishes */
	bmd_backend_fn backend_new;
	void *backend_ctx;
	bool verbose;
	bool no_hw_timestamps;		/* bmd_config.no_hw_timestamps */
	bool no_tcp_engine;		/* bmd_config.no_tcp_engine */
	unsigned int tx_kthreads;	/* bmd_config.tx_kthreads */
	unsigned int tx_path;		/* bmd_config.tx_path */
	char *socket_path;		/* NULL when activated by systemd */
	dev_t sock_dev;			/* the socket file bmd bound */
	ino_t sock_ino;
	bool has_group;			/* bmd_config.group given */
	gid_t group;
	char group_name[64];		/* as given, for messages */
	bool has_admin_group;		/* bmd_config.admin_group given */
	gid_t admin_group;
	struct bmd_port_policy port_policy;	/* never changed: workers
						 * read it unlocked */
	struct bmd_hosts hosts;		/* bmd.conf hosts; as port_policy */
	double sync_tolerance_us;	/* bmd_config.sync_tolerance_us */
	char *results_dir;
	char *jobs_dir;
	int lock_fd;			/* flock'ed DIR/.lock, or -1 */
	mode_t results_mode;		/* of result and job files */
	char *sysfs_net;		/* bmd_config.sysfs_net, or NULL */
	/* The configuration file read, or NULL, and its resets (a copy,
	 * never changed while bmd runs: workers read it unlocked). */
	char *config_path;
	struct bmd_reset *resets;
	size_t n_resets;
	/* bmd.conf dut-counters (NULL: none) and how long after a job's
	 * traffic its second reading waits (REQ-TM-4) */
	char *dut_counters;
	double dut_counters_wait_s;
	unsigned int max_trials;	/* a job's worst case, at most */
	unsigned int max_jobs;		/* queued + running, in all */
	unsigned int max_jobs_per_user;	/* ... of one submitter uid */
	unsigned int max_clients;	/* connections, the status one not
					 * counted */
	double idle_timeout_s;		/* <= 0: never */
	unsigned int max_clients_per_user;	/* of one uid but root */
	double request_timeout_s;	/* a request line's first to last byte */
	double max_memory;		/* bytes: max-memory-mib */
	size_t max_output;		/* a client's unsent bytes, at most */
	size_t output_peak;		/* largest client buffer so far */
	bmd_log_fn log;			/* NULL: stderr */
	void *log_ctx;
	int listen_fd;
	int wake_fd;			/* eventfd: workers and bmd_stop */
	volatile sig_atomic_t stop;
	bool shutting_down;		/* no new jobs start */
	bool store_pending;		/* a job's unsaved_result or _job */
	double start_mono;
	struct bmd_client *clients;
	struct bmd_job *jobs;
	unsigned long next_id;
	unsigned int running;
};

/* daemon_job.c: the name of state s ("queued", ... "interrupted"). */
const char *job_state_name(enum job_state s);
/* Has j ended (done, failed, cancelled or interrupted)? */
bool job_finished(const struct bmd_job *j);
/* The job of id, or NULL. */
struct bmd_job *job_find(struct bmd *d, unsigned long id);
/* A new object: params with every secret value replaced by "(hidden)";
 * NULL when out of memory, never params themselves. */
json_object *job_params_shown(json_object *params);
/* JSON description; full adds params and sim. */
json_object *job_to_json(const struct bmd_job *j, bool full);
/* Write j's job file (a failure is logged and kept for
 * jobs_store_pending). */
void job_persist(struct bmd_job *j);
/* Write j's job file; 0, or -errno with err set (j->unsaved_job then
 * says so, for jobs_store_pending). */
int job_persist_err(struct bmd_job *j, struct bm_error *err);
/* Take the next job id, written durably first (results/.last-id): ids
 * are never handed out twice, whatever files are lost.  0 with *id, or
 * -errno with err set and nothing taken. */
int ids_take(struct bmd *d, unsigned long *id, struct bm_error *err);
/* Note that id is taken: ids continue above the largest noted. */
void note_id(struct bmd *d, unsigned long id);
/* Note the id results/.last-id keeps. */
void ids_load(struct bmd *d);
/* Write what a full disk kept in memory (results, job files); the
 * number still unwritten.  d->lock held. */
int jobs_store_pending(struct bmd *d);
/* Drop a finished job's params, sim and dut from memory (its job file
 * keeps them; job_to_json(full) reads them there); no-op otherwise. */
void job_shed(struct bmd_job *j);
/* Give j the ports names[0..n-1] (each shorter than IFNAMSIZ); 0 or
 * -ENOMEM. */
int job_set_ports(struct bmd_job *j, unsigned int n, const char *const *names);
/* Add j to d's jobs, in id order; its id is noted as taken. */
void job_append(struct bmd *d, struct bmd_job *j);
/* Send a finished job's end event to its watchers and detach them. */
void job_notify_end(struct bmd_job *j);
/* The end event of finished job j, for a watcher ("id" left out). */
json_object *job_end_event(const struct bmd_job *j);
/* Path of job id's events file into buf. */
void job_events_path(const struct bmd *d, unsigned long id, char *buf,
		     size_t size);
/* Free every job of d. */
void jobs_free(struct bmd *d);
/* What j runs on, as a backend factory gets it: id, procedure, ports,
 * line rate, dry run; the rest zero, for the caller to fill. */
void job_desc_of(const struct bmd_job *j, struct bmd_job_desc *desc);
/* Free j, which is in no list (a job refused at submit, or unreadable). */
void job_discard(struct bmd_job *j);

/* Store result (with meta) as JSON and CSV in d's results directory as
 * job id's; 0 or -errno with err set. */
int bmd_store_result(struct bmd *d, unsigned long id, json_object *result,
		     struct bm_error *err);

/* daemon_worker.c: start the queued jobs whose ports are all free, each
 * on a worker thread of its own; d->lock held. */
void jobs_schedule(struct bmd *d);
/* Join the workers of the jobs that have ended; d->lock held. */
void jobs_reap(struct bmd *d);

/* daemon_load.c: read the jobs of d's results directory back at start;
 * a job a dead bmd left queued or running ends interrupted.  0 or -errno
 * with err set. */
int jobs_load(struct bmd *d, struct bm_error *err);

/* daemon_recover.c: the result of job j, left running by a bmd that
 * died, rebuilt from its events file (every finished trial, its meta, the
 * reason) and stored; j->trials and has_result set.  0 or -errno. */
int job_recover(struct bmd *d, struct bmd_job *j);

/* daemon_client.c: wake the poll loop (from any thread). */
void bmd_wake(struct bmd *d);
/* Queue msg (id filled in per client) to every watcher of job id. */
void clients_broadcast(struct bmd *d, unsigned long job, json_object *msg,
		       bool end);
/* Bytes queued for c and not yet sent. */
size_t client_unsent(const struct bmd_client *c);
/* Append n bytes to c's output or, while a result streams (hold), to what
 * is held until it ends; false when out of memory. */
bool client_append(struct bmd_client *c, const char *p, size_t n, bool hold);
/* Queue reply msg to c (c->dead when it cannot be). */
void client_queue(struct bmd_client *c, json_object *msg);
/* Send what c's socket takes now without blocking; c->dead on an error. */
void client_flush(struct bmd_client *c);
/* Queue the error reply msg to c, for request id when has_id. */
void reply_error(struct bmd_client *c, int64_t id, bool has_id,
		 const char *msg);
/* reply_error, telling the request's own fault (usage) from a refusal. */
void reply_refusal(struct bmd_client *c, int64_t id, bool has_id,
		   const char *msg, bool usage);
/* Does c hold the start of a request line whose end has not come? */
bool client_partial(const struct bmd_client *c);
/* Is c idle: no watch, nothing to send, nothing streaming? */
bool client_idle(const struct bmd_client *c);
/* Close c's descriptors and free it (it is in no list). */
void client_free(struct bmd_client *c);

/* daemon_auth.c: send a new connection fd the one refusal line msg. */
void send_refusal(int fd, const char *msg);
/* Is the peer behind fd (credentials cr) in group? */
bool peer_in_group(gid_t group, int fd, const struct ucred *cr);
/* May the peer behind fd talk to bmd (root, bmd's user, its group)?  Its
 * credentials into *out; a refused peer is logged and told why. */
bool peer_allowed(struct bmd *d, int fd, struct ucred *out);
/* The group name (a name, else a number) into *gid; 0, or -EINVAL with
 * err set (what names the setting). */
int resolve_group(const char *what, const char *name, gid_t *gid,
		  struct bm_error *err);
/* d's group from name; 0 or -EINVAL. */
int set_group(struct bmd *d, const char *name, struct bm_error *err);

/* daemon_submit.c: the procedure called name, or NULL with err set. */
const struct bm_procedure_info *find_procedure(const char *name,
					       struct bm_error *err);
/* Answer submit request q of c: the job queued, or NULL with err set and
 * *usage true when the request itself is wrong (a bad procedure, port
 * count, line rate or parameter), not the host's refusal. */
json_object *cmd_submit(struct bmd *d, const struct bmd_client *c,
			const struct bm_request *q, json_object *r,
			struct bm_error *err, bool *usage);

/* daemon_handlers.c: answer the complete request lines buffered in c->in,
 * replies queued in c->out, while c takes its replies (none while a
 * result streams or its unsent output is at max-output); d->lock held.
 * The poll loop calls it after each read and as output drains, the
 * fuzzers (tests/fuzz) without a socket. */
void bmd_client_lines(struct bmd *d, struct bmd_client *c);
/* Top up c's output from its result stream; at the end, the reply's
 * tail and what was held meanwhile. */
void client_stream(struct bmd_client *c);
/* Queue the next events of c's replay while its output is short. */
void client_replay(struct bmd *d, struct bmd_client *c);

/* daemon_server.c: what the poll loop does for c once its socket took
 * its output: more of a streamed result or a replayed history, then
 * further requests; for the fuzzers, which have no socket.  d->lock
 * held. */
void bmd_client_pump(struct bmd *d, struct bmd_client *c);

/* daemon_conf.c: the reset called name, or NULL. */
const struct bmd_reset *bmd_reset_find(const struct bmd *d, const char *name);
/* The file the configuration comes from, for messages: the one read, or
 * where bmd looked for one. */
const char *conf_name(const struct bmd *d);

/* daemon_log.c: log one event (bm_daemon.h, bmd_log_fn) through d's
 * sink; d may be NULL (stderr). */
void bmd_log(struct bmd *d, int priority, const char *const *fields,
	     size_t n);
/* Log MESSAGE= alone, printf-style. */
void bmd_logf(struct bmd *d, int priority, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* daemon_job.c: log j's submit, start or end with all its fields. */
void job_log(struct bmd_job *j, const char *event);
/* Log that uid (pid) asked to cancel j. */
void job_log_cancel(struct bmd_job *j, uid_t uid, pid_t pid);

/* daemon_meta.c */
double bmd_now(void);
/* ISO 8601 UTC with ms into buf (at least 32 bytes); "" for t == 0. */
void bmd_time_iso(double t, char *buf, size_t size);
/* Inverse of bmd_time_iso; 0 when s is not such a time. */
double bmd_time_parse(const char *s);
struct bm_port_info;
/* One port as bmd reports it (the ports request, a result's meta); role
 * ("tx", "rx", "port") is left out when NULL. */
json_object *bmd_port_json(const struct bm_port_info *pi, const char *role);
/* The meta object of a result (SPEC REQ-REP-1); port facts from sysfs_net
 * (NULL = /sys/class/net); ts_source the trials' (NULL: none took a
 * timestamp, a job that failed before its first trial). */
json_object *bmd_result_meta(const struct bmd_job_desc *desc, double started,
			     double ended, const char *backend,
			     const char *ts_source, const char *sysfs_net);

/* daemon_hosts.c: the other tester hosts a job may reach (bmd(8),
 * CONFIGURATION "hosts") */
/* Parse bmd.conf's hosts value text (NAME or NAME=DEST words; NULL or ""
 * = none) into *h; 0, or -EINVAL with one line in err ("hosts: ..."). */
int bmd_hosts_parse(const char *text, struct bmd_hosts *h,
		    struct bm_error *err);
void bmd_hosts_free(struct bmd_hosts *h);
/* The ssh destination of host name, NULL when h does not list it. */
const char *bmd_host_dest(const struct bmd_hosts *h, const char *name);
/* 0 when port label, whose host bm_port_label_parse gave as host, is
 * this host's or on a host h lists; -EINVAL with one line in err naming
 * the host and conf (the file) otherwise. */
int bmd_host_check(const struct bmd_hosts *h, const char *label,
		   const char *host, const char *conf, struct bm_error *err);

/* daemon_access.c: the ports a job may use (bmd(8), ACCESS) */
/* Parse bmd.conf's ports value spec (NULL = BMD_DEFAULT_PORTS) into *p;
 * 0, or -EINVAL with one line in err ("ports: ..."). */
int bmd_port_policy_parse(const char *spec, struct bmd_port_policy *p,
			  struct bm_error *err);
void bmd_port_policy_free(struct bmd_port_policy *p);
/* Read what says whether the host uses port (flags and master from
 * sysfs_net, NULL = /sys/class/net; addresses from getifaddrs). */
int bmd_port_use_read(const char *sysfs_net, const char *port,
		      struct bmd_port_use *u);
/* May a job use port, whose use is u?  false with the reason in why. */
bool bmd_port_permitted(const struct bmd_port_policy *p, const char *port,
			const struct bmd_port_use *u, char *why, size_t size);
/* 0 when a job may use port now; -EINVAL with one line in err
 * otherwise. */
int bmd_port_check(const struct bmd *d, const char *port,
		   struct bm_error *err);

/* daemon_nde.c */
/* REQ-TM-2: 0 when job j (not yet started; params its parameters) may
 * run: *nde its result's meta.nde, or NULL for a procedure or parameters
 * without the gate (no TCP path: bm_procedure_info.nde_pairs); dev gets
 * what its result must say.  -EPERM with the reason in err when the
 * newest rfc7640.nde-verify of one of its paths did not pass, verified
 * another RTT, or there is none, and force was not given. */
int bmd_nde_gate(struct bmd *d, const struct bmd_job *j, json_object *params,
		 json_object **nde, json_object *dev, struct bm_error *err);

/* daemon_capacity.c: the generator's calibrated capacity (REQ-GEN-6),
 * from the newest bmgen.capacity job that sent from a port */
/* That job's figures of port ({job, measured, rx_port, capacity}) as a
 * new object, NULL when none.  d->lock held. */
json_object *bmd_capacity_of(struct bmd *d, const char *port);
/* Every port's newest figures, bmd_capacity_of's with "port", as a new
 * array.  d->lock held. */
json_object *bmd_capacity_all(struct bmd *d);
/* The available figures of the n_ports ports into v[0..max), their
 * number.  d->lock held. */
size_t bmd_capacity_list(struct bmd *d, const char *const *ports,
			 unsigned int n_ports, struct bm_tx_capacity *v,
			 size_t max);
/* Before a job (desc, params): one line into dev for each of its ports
 * whose kthreads (kthreads each carrying v's figure) send less than the
 * line rate at the job's smallest frame. */
void bmd_capacity_warn(const struct bmd_job_desc *desc, json_object *params,
		       const struct bm_tx_capacity *v, size_t n,
		       unsigned int kthreads, json_object *dev);

/* daemon_counters.c: the DUT's own counters (SPEC REQ-TM-4, bmd.conf
 * dut-counters) */
/* A reading's "KEY VALUE", "KEY=VALUE" or "KEY: VALUE" lines as a new
 * object (a number stays a number); *skipped counts the lines that are
 * neither blank, '#' nor such a pair. */
json_object *bmd_counters_parse(const char *text, unsigned int *skipped);
/* Run d's dut-counters for job j in phase ("before" or "after"); its
 * pairs as a new object, or NULL with one line in why. */
json_object *bmd_counters_read(const struct bmd *d, const struct bmd_job *j,
			       const char *phase, bm_progress_fn progress,
			       void *ctx, char *why, size_t n);
/* Wait wait_s after a job's traffic, saying so through progress; false
 * when the job was cancelled or bmd stops meanwhile. */
bool bmd_counters_wait(const struct bmd_job *j, double wait_s,
		       bm_progress_fn progress, void *ctx);
/* The result's dut_counters from the two readings (either NULL: why
 * says what went wrong), the wait and the tester's totals over the
 * result's trials; its deviations say what falls short of REQ-TM-4. */
void bmd_counters_add(json_object *result, json_object *before,
		      json_object *after, const char *why, double wait_s);

/* daemon_pool.c: a job over several hosts' ports (Documentation/
 * multi-host.md) */
/* The other hosts d's ports name (HOST:IFNAME), each once in the order of
 * its first port, into names[0..); how many (0: every port is this
 * host's). */
unsigned int bmd_job_hosts(const struct bmd_job_desc *d,
			   char (*names)[BM_PART_HOST_LEN]);
/* The tolerance of a pool's hosts' clocks (us) a sync_tolerance_us
 * setting (bmd.conf's, a job's) means: its value, the pool's default
 * when 0 (not set), none (INFINITY) when < 0. */
double bmd_sync_tolerance_us(double setting);
/* Give pool d's tolerance of its hosts' clocks (the job's, else
 * bmd.conf's: bmd_sync_tolerance_us). */
void bmd_pool_set_tolerance(struct bm_backend *pool,
			    const struct bmd_job_desc *d);
/* The pool of d's hosts: local (owned from here on; NULL when the job
 * has no port here) for this host's ports, another host's bmd over
 * OpenSSH for each of the others, checked for its version and its
 * ports' MACs.  NULL with err set (local then destroyed). */
struct bm_backend *bmd_pool_backend(const struct bmd_job_desc *d,
				    struct bm_backend *local,
				    struct bm_error *err);

#endif /* BM_DAEMON_INT_H */

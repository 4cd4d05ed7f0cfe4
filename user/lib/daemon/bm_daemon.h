/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The engine of bmd: socket server, job queue, workers, result store.
 * It lives in libbm rather than user/bmd so that unit tests can run a whole
 * daemon in-process; user/bmd/main.c only adds options, signals and systemd.
 * Only bmd and the tests use this header.
 */
#ifndef BM_DAEMON_H
#define BM_DAEMON_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include <json-c/json.h>

#include "bm_capacity.h"
#include "bm_trial.h"

/* What a job runs on; handed to the backend factory. */
struct bmd_hosts;

struct bmd_job_desc {
	unsigned long id;
	const char *procedure;
	const char *tx_port, *rx_port;	/* NULL for a dry run without ports */
	/* Every port of the job in the order the user gave them (tx_port =
	 * ports[0], rx_port = ports[1]); n_ports = 0 for a dry run that
	 * names none. */
	unsigned int n_ports;
	const char *ports[BM_BACKEND_MAX_PORTS];
	double line_rate_bps;
	bool dry_run;
	json_object *sim;		/* dry run: sim parameters or NULL */
	json_object *dut;		/* the user's DUT descriptor, or NULL */
	bool router;			/* dut.mode "router": RFC 2544 App C */
	bool no_hw_timestamps;		/* bmd_config.no_hw_timestamps */
	bool no_tcp_engine;		/* bmd_config.no_tcp_engine */
	unsigned int tx_kthreads;	/* bmd_config.tx_kthreads */
	unsigned int tx_path;		/* bmd_config.tx_path */
	/* What one kthread sends on the job's ports (bmgen.capacity),
	 * for tx-kthreads = auto; n_capacity 0 when none was measured */
	const struct bm_tx_capacity *capacity;
	size_t n_capacity;
	/* bmd.conf hosts: the other tester hosts and their ssh
	 * destinations (never NULL in a job bmd runs); sync-tolerance-us
	 * (bmd_config.sync_tolerance_us) */
	const struct bmd_hosts *hosts;
	double sync_tolerance_us;
};

/* bmd.conf tx-kthreads = auto: a stream takes the kthreads its rate needs
 * of its port's bmgen.capacity figure (bm_genl_port_opts.tx_kthreads
 * BM_GENL_KTHREADS_AUTO). */
#define BMD_TX_KTHREADS_AUTO	0xffffffffu

/* The bmd.conf name of transmit path p (tx-path: "auto", "xdp" ...). */
const char *bmd_tx_path_name(unsigned int p);

/* bmd's configuration file when -c names none (bmd(8), CONFIGURATION). */
#define BMD_DEFAULT_CONF	"/etc/bmgen/bmd.conf"
/*
 * The most trials a job's parameters may need (bmd.conf max-trials).  A
 * result document is built in memory when the job ends: ~0.5 KB of JSON a
 * trial, ~18 KB with a latency distribution, so 20000 trials
 * stay below 0.4 GB; the RFC 2544 procedures' own bound before.
 */
#define BMD_DEFAULT_MAX_TRIALS	20000
/* Jobs queued or running at once, in all and of one user (bmd.conf
 * max-jobs, max-jobs-per-user): each running job is a thread, each queued
 * one its parameters in memory. */
#define BMD_DEFAULT_MAX_JOBS		64
#define BMD_DEFAULT_MAX_JOBS_PER_USER	16
/* Connections (bmd.conf max-connections; one more may ask status only),
 * the idle time after which one is closed (idle-timeout, s) and what bmd
 * buffers for one client (max-output-kib). */
#define BMD_DEFAULT_MAX_CONNECTIONS	256
/* Connections of one uid (max-connections-per-user; root is not
 * counted) and the time a request line may take to arrive whole
 * (request-timeout, s): 256 connections that each sent a byte every 3 s
 * held every slot. */
#define BMD_DEFAULT_MAX_CONNECTIONS_PER_USER	32
#define BMD_DEFAULT_REQUEST_TIMEOUT_S	10.0
/* What the jobs queued or running may hold in memory at their worst
 * (max-memory-mib): each trial's record and its share of the result
 * document, BMD_TRIAL_MEM bytes at most (measured: 16 jobs of 20,000
 * trials took 4.1 GB, 12.8 KB a trial), times the trials its parameters
 * may need. */
#define BMD_DEFAULT_MAX_MEMORY_MIB	2048
#define BMD_TRIAL_MEM			(16u << 10)
/* What a trial may write to the results directory at most, on average:
 * its progress event and its share of the result and the CSV (0.5 KB of
 * JSON each without a latency distribution, ~9 KB with one); and the
 * files a job makes (job file, events, result, CSV and their temporary
 * files).  A submit needs room for the jobs not yet finished. */
#define BMD_TRIAL_DISK			(20u << 10)
#define BMD_JOB_INODES			8
#define BMD_DEFAULT_IDLE_TIMEOUT_S	300.0
#define BMD_DEFAULT_MAX_OUTPUT		(4u << 20)
/* The ports a job may use when bmd.conf names none: those the host does
 * not use itself (bmd(8), ACCESS). */
#define BMD_DEFAULT_PORTS	"unaddressed"
/* bmd.conf dut-counters-wait's default: s after a job's traffic */
#define BMD_DEFAULT_COUNTERS_WAIT_S	15.0
/* The longest name of a reset (bmd.conf "reset.NAME = COMMAND"). */
#define BMD_RESET_NAME_MAX	32

/*
 * A DUT reset of bmd's configuration (R2544-RESET): a request chooses it by
 * NAME (rfc2544.reset's "reset" parameter) and bmd runs COMMAND with
 * /bin/sh -c.  A request never carries a command itself.
 */
struct bmd_reset {
	char *name;
	char *command;
};

/*
 * Where bmd's log goes: one event is a syslog priority (LOG_INFO, ...)
 * and n "FIELD=value" strings, "MESSAGE=..." first (JOB_ID, PROCEDURE,
 * SUBMITTER_UID, SUBMITTER_PID, JOB_START, JOB_END, VERDICT, ...: bmd(8),
 * LOGGING).  The strings live only for the call.
 */
typedef void (*bmd_log_fn)(void *ctx, int priority,
			   const char *const *fields, size_t n);

/* A bmd_log_fn that sends every field to journald (sd_journal_sendv). */
void bmd_log_journal(void *ctx, int priority, const char *const *fields,
		     size_t n);

/* Make the trial backend for a job; NULL with err->msg on failure. */
typedef struct bm_backend *(*bmd_backend_fn)(void *ctx,
					     const struct bmd_job_desc *d,
					     struct bm_error *err);

struct bmd_config {
	const char *socket_path;	/* bound unless listen_fd >= 0 */
	int listen_fd;			/* from socket activation, or -1 */
	/* bmd -g: a group name or number.  The socket bmd binds is given
	 * to it (mode 0660 either way), and its members may talk to bmd
	 * besides root and bmd's own user.  NULL = no group. */
	const char *group;
	const char *results_dir;
	/* bmd --results-mode: the mode of result and job files, 0600, 0640
	 * or 0644; 0 = 0640 (results may name hosts, DUTs and their
	 * configuration: the group, not everyone, reads them). */
	unsigned int results_mode;
	/* NULL = the default: simulated device for dry runs, the module
	 * otherwise.  Tests inject slow or scripted backends here. */
	bmd_backend_fn backend_new;
	void *backend_ctx;
	bool verbose;			/* log requests to stderr */
	/* bmd.conf hw-timestamps = no: the module backend leaves the ports'
	 * hardware stamping alone */
	bool no_hw_timestamps;
	/* bmd.conf tcp-engine = no: jobs get no TCP engine, and stateful
	 * procedures refuse to run (R8239-INC (d)) */
	bool no_tcp_engine;
	/* bmd.conf tx-kthreads: the transmit kthreads (lanes) one stream may
	 * go out on (bm_genl_port_opts.tx_kthreads), 0 = auto
	 * (BMD_TX_KTHREADS_AUTO: as many as the port's calibrated capacity
	 * asks for; one where it was never calibrated) */
	unsigned int tx_kthreads;
	/* bmd.conf tx-path: the transmit path trials ask bmgen.ko for,
	 * BMGEN_TXP_* (0 = AUTO: recycle or alloc, never xdp) */
	unsigned int tx_path;
	/* Where bmd reads port facts (existence, link speed, driver):
	 * NULL = /sys/class/net; tests give a fake tree of ports. */
	const char *sysfs_net;
	/* The configuration file read (for messages: where resets come
	 * from), or NULL when there was none; and its resets, copied. */
	const char *config_path;
	const struct bmd_reset *resets;
	size_t n_resets;
	/* bmd.conf dut-counters: a command bmd runs before each job's
	 * traffic and, dut_counters_wait_s after it, again (SPEC REQ-TM-4;
	 * NULL = none, never a dry run's); 0 s = 15 s, < 0 = no wait. */
	const char *dut_counters;
	double dut_counters_wait_s;
	/* NULL = "bmd: MESSAGE" lines on stderr; bmd_log_journal under
	 * systemd; tests catch the events here. */
	bmd_log_fn log;
	void *log_ctx;
	/* A submit whose parameters may need more trials is refused;
	 * 0 = BMD_DEFAULT_MAX_TRIALS (bmd.conf max-trials). */
	unsigned int max_trials;
	/* A submit beyond this many jobs queued or running, in all or of
	 * the submitter's uid, is refused; 0 = the defaults above. */
	unsigned int max_jobs, max_jobs_per_user;
	/* Connections served at once (0 = the default), the status-only
	 * one besides; idle time in s before one is closed (0 = the
	 * default, < 0 = never); a client's unsent output in bytes beyond
	 * which a watcher that does not read is dropped (0 = default). */
	unsigned int max_connections;
	double idle_timeout_s;
	size_t max_output;
	/* 0 = the defaults above */
	unsigned int max_connections_per_user;
	double request_timeout_s;
	unsigned int max_memory_mib;
	/* bmd.conf ports: the ports a job may use, names and fnmatch
	 * patterns and "unaddressed" (every port the host does not use
	 * itself: bmd(8), ACCESS); NULL = BMD_DEFAULT_PORTS */
	const char *ports;
	/* bmd.conf admin-group: its members (besides root and bmd's user)
	 * may cancel any user's job; NULL = none */
	const char *admin_group;
	/* bmd.conf hosts: the other tester hosts a job's ports may name,
	 * "NAME" or "NAME=SSH-DESTINATION" words; NULL = none */
	const char *hosts;
	/* bmd.conf sync-tolerance-us: how far off the PTP grandmaster a
	 * pool host's clock may be (µs); 0 = the pool's default
	 * (BM_POOL_SYNC_TOLERANCE_NS), < 0 = no limit */
	double sync_tolerance_us;
};

/* What bmd.conf sets; strings owned, NULL (0, verbose -1) = not set. */
struct bmd_conf {
	char *path;			/* the file read; NULL: none */
	char *socket_path;
	char *results_dir;
	char *group;
	unsigned int results_mode;
	int verbose;
	unsigned int max_trials;
	unsigned int max_jobs, max_jobs_per_user;
	unsigned int max_connections, max_output_kib;
	unsigned int max_connections_per_user, max_memory_mib;
	unsigned int request_timeout_s;
	double idle_timeout_s;		/* 0: not set, < 0: never */
	int hw_timestamps;		/* 0: not set, 1 auto, -1 no */
	int tcp_engine;			/* 0: not set, 1 auto, -1 no */
	unsigned int tx_kthreads;	/* 0: not set */
	unsigned int tx_path;		/* BMGEN_TXP_*, 0: auto */
	char *ports;
	char *admin_group;
	struct bmd_reset *resets;
	size_t n_resets;
	char *dut_counters;
	double dut_counters_wait_s;	/* 0: not set, < 0: no wait */
	char *hosts;
	double sync_tolerance_us;	/* 0: not set, < 0: no limit */
};

/*
 * Read the configuration file path into *c (bmd(8), CONFIGURATION).  A
 * missing file is no error unless must_exist (bmd -c FILE): *c then sets
 * nothing.  0, or < 0 with one line in err, "PATH:LINE: KEY: reason" (or
 * "PATH: reason" for the file itself); *c is then empty.
 */
int bmd_conf_read(const char *path, bool must_exist, struct bmd_conf *c,
		  struct bm_error *err);

/* Fill what cfg leaves unset (NULL or 0: not on the command line) from
 * c, and cfg's config_path and resets; cfg borrows c's strings. */
void bmd_conf_apply(const struct bmd_conf *c, struct bmd_config *cfg);

/* Free c's strings and resets and empty it. */
void bmd_conf_free(struct bmd_conf *c);

/* Is s a name bmd.conf may give a reset (1 to BMD_RESET_NAME_MAX of
 * A-Z a-z 0-9 . _ -, not starting with '-')? */
bool bmd_reset_name_ok(const char *s);

struct bmd;

/* Create the daemon: results dir, persisted jobs (running ones marked
 * interrupted), listening socket.  NULL with err->msg on failure. */
struct bmd *bmd_new(const struct bmd_config *cfg, struct bm_error *err);

/* Serve until bmd_stop(); 0, or -errno on a fatal poll error. */
int bmd_run(struct bmd *d);

/* Ask bmd_run to return.  Async-signal-safe. */
void bmd_stop(struct bmd *d);

/* Cancel running jobs (they end "interrupted"), wait for their workers,
 * close the socket (unlinking it if bmd bound it) and free everything. */
void bmd_free(struct bmd *d);

/* Progress events of job id held in memory now and at most so far (the
 * rest are in its events file); false when there is no such job. */
bool bmd_job_mem_events(struct bmd *d, unsigned long id, unsigned int *now,
			unsigned int *peak);

/* The largest output buffer bmd has had for any one client, in bytes:
 * what max-output and result streaming bound. */
size_t bmd_output_peak(struct bmd *d);

/* One line for sd_notify STATUS=, e.g. "1 running, 2 queued". */
void bmd_status_line(struct bmd *d, char *buf, size_t size);

/* The default backend factory (sim for dry runs, genl otherwise). */
/* Free a backend made by a bmd_backend_fn, its TCP engine first. */
void bmd_backend_free(struct bm_backend *be);

struct bm_backend *bmd_backend_default(void *ctx, const struct bmd_job_desc *d,
				       struct bm_error *err);

/* Is mode one bmd --results-mode accepts (0600, 0640, 0644)? */
bool bmd_results_mode_ok(unsigned int mode);

/* Is the user uid, whose primary group is gid, a member of group in the
 * group database (getgrouplist)?  An unknown uid is in gid only. */
bool bmd_uid_in_group(uid_t uid, gid_t gid, gid_t group);

/* Do two jobs' port lists (n1 names in p1, n2 in p2) share any port (and
 * so must not run together)?  NULL and "" entries name no port. */
bool bmd_ports_conflict(unsigned int n1, const char *const *p1,
			unsigned int n2, const char *const *p2);

#endif /* BM_DAEMON_H */

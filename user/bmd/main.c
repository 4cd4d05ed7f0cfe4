// SPDX-License-Identifier: GPL-2.0
/*
 * bmd: the bmgen daemon.  Options, signals and systemd integration only;
 * the engine is in libbm (bm_daemon.h) so the unit tests can run it.
 */
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <systemd/sd-daemon.h>

#include "bm_daemon.h"
#include "bm_proto.h"

#ifndef BM_VERSION
#define BM_VERSION "unknown"
#endif

static struct bmd *the_bmd;

static void on_signal(int sig)
{
	(void)sig;
	if (the_bmd)
		bmd_stop(the_bmd);
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: bmd [OPTIONS]\n"
		"  -c, --config FILE    configuration (default " BMD_DEFAULT_CONF ");\n"
		"                       the options below override it\n"
		"      --check-config   read the configuration, print it and exit\n"
		"  -s, --socket PATH    listen on PATH (default " BM_DEFAULT_SOCKET ")\n"
		"  -r, --results DIR    results and job state (default " BM_DEFAULT_RESULTS ")\n"
		"  -g, --group GROUP    give the socket to GROUP; its members may use bmd\n"
		"      --results-mode M result and job files' mode: 0600, 0640 (default), 0644\n"
		"  -f, --foreground     do not detach (implied under systemd)\n"
		"  -v, --verbose        log every request to stderr\n"
		"  -V, --version        print the version and exit\n"
		"  -h, --help           this text\n");
}

enum { OPT_RESULTS_MODE = 256, OPT_CHECK_CONFIG };

/* An octal mode that bmd_results_mode_ok() accepts into *mode; 0 or -1. */
static int parse_mode(const char *s, unsigned int *mode)
{
	unsigned long m;
	char *end;

	if (*s < '0' || *s > '7')
		return -1;
	m = strtoul(s, &end, 8);
	if (*end || !bmd_results_mode_ok(m))
		return -1;
	*mode = m;
	return 0;
}

static volatile int status_stop;

/* Keep systemctl status current without touching the engine's loop. */
static void *status_thread(void *arg)
{
	char line[128], msg[160];

	while (!status_stop) {
		bmd_status_line(arg, line, sizeof(line));
		snprintf(msg, sizeof(msg), "STATUS=%s", line);
		sd_notify(0, msg);
		sleep(2);
	}
	return NULL;
}

/* A socket from systemd (bmd.socket), or -1 to bind our own. */
static int activation_fd(void)
{
	int n = sd_listen_fds(1);

	if (n < 0) {
		fprintf(stderr, "bmd: socket activation: %s\n", strerror(-n));
		exit(1);
	}
	if (n == 0)
		return -1;
	if (n > 1 || sd_is_socket_unix(SD_LISTEN_FDS_START, SOCK_STREAM, 1,
					NULL, 0) <= 0) {
		fprintf(stderr, "bmd: socket activation: expected one listening Unix stream socket\n");
		exit(1);
	}
	return SD_LISTEN_FDS_START;
}

/*
 * Is stderr the journal?  systemd sets JOURNAL_STREAM to the device and
 * inode of the stream it connected (systemd.exec(5)); compared with
 * stderr's own, it says that the journal reads it, not just that some
 * ancestor was a service.  Then bmd logs with every field.
 */
static bool stderr_is_journal(void)
{
	const char *e = getenv("JOURNAL_STREAM");
	unsigned long long dev, ino;
	struct stat st;

	return e && sscanf(e, "%llu:%llu", &dev, &ino) == 2 &&
	       !fstat(STDERR_FILENO, &st) && st.st_dev == dev &&
	       st.st_ino == ino;
}

/* bmd --check-config: what bmd would run with, one setting a line. */
static void print_config(const struct bmd_config *cfg)
{
	size_t i;

	printf("config        %s\n", cfg->config_path ? cfg->config_path :
	       "(none: no file)");
	printf("socket        %s\n", cfg->socket_path);
	printf("results       %s\n", cfg->results_dir);
	printf("group         %s\n", cfg->group ? cfg->group : "(none)");
	printf("results-mode  %04o\n",
	       cfg->results_mode ? cfg->results_mode : 0640);
	printf("verbose       %s\n", cfg->verbose ? "yes" : "no");
	printf("max-trials    %u\n", cfg->max_trials ? cfg->max_trials :
	       BMD_DEFAULT_MAX_TRIALS);
	printf("max-jobs      %u\n", cfg->max_jobs ? cfg->max_jobs :
	       BMD_DEFAULT_MAX_JOBS);
	printf("max-jobs-per-user %u\n", cfg->max_jobs_per_user ?
	       cfg->max_jobs_per_user : BMD_DEFAULT_MAX_JOBS_PER_USER);
	printf("max-connections %u\n", cfg->max_connections ?
	       cfg->max_connections : BMD_DEFAULT_MAX_CONNECTIONS);
	if (cfg->idle_timeout_s < 0)
		printf("idle-timeout  0 (never)\n");
	else
		printf("idle-timeout  %g\n", cfg->idle_timeout_s ?
		       cfg->idle_timeout_s : BMD_DEFAULT_IDLE_TIMEOUT_S);
	printf("max-output-kib %zu\n", (cfg->max_output ? cfg->max_output :
					 BMD_DEFAULT_MAX_OUTPUT) >> 10);
	if (!cfg->tx_kthreads || cfg->tx_kthreads == BMD_TX_KTHREADS_AUTO)
		printf("tx-kthreads   auto\n");
	else
		printf("tx-kthreads   %u\n", cfg->tx_kthreads);
	printf("tx-path       %s\n", bmd_tx_path_name(cfg->tx_path));
	printf("max-connections-per-user %u\n", cfg->max_connections_per_user ?
	       cfg->max_connections_per_user :
	       BMD_DEFAULT_MAX_CONNECTIONS_PER_USER);
	printf("request-timeout %g\n", cfg->request_timeout_s ?
	       cfg->request_timeout_s : BMD_DEFAULT_REQUEST_TIMEOUT_S);
	printf("max-memory-mib %u\n", cfg->max_memory_mib ?
	       cfg->max_memory_mib : BMD_DEFAULT_MAX_MEMORY_MIB);
	printf("ports         %s\n", cfg->ports ? cfg->ports : BMD_DEFAULT_PORTS);
	printf("admin-group   %s\n", cfg->admin_group ? cfg->admin_group :
					  "(none)");
	for (i = 0; i < cfg->n_resets; i++)
		printf("reset.%s = %s\n", cfg->resets[i].name,
		       cfg->resets[i].command);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "check-config", no_argument, NULL, OPT_CHECK_CONFIG },
		{ "socket", required_argument, NULL, 's' },
		{ "results", required_argument, NULL, 'r' },
		{ "group", required_argument, NULL, 'g' },
		{ "results-mode", required_argument, NULL, OPT_RESULTS_MODE },
		{ "foreground", no_argument, NULL, 'f' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	/* NULL and 0: not on the command line, so the file may set it */
	struct bmd_config cfg = { .listen_fd = -1 };
	const char *conf_path = NULL;
	struct bmd_conf conf;
	struct bm_error err = { "" };
	struct sigaction sa = { .sa_handler = on_signal };
	bool foreground = false, check = false;
	pthread_t st;
	bool st_live;
	int c, ret;

	while ((c = getopt_long(argc, argv, "c:s:r:g:fvVh", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			conf_path = optarg;
			break;
		case OPT_CHECK_CONFIG:
			check = true;
			break;
		case 's':
			cfg.socket_path = optarg;
			break;
		case 'r':
			cfg.results_dir = optarg;
			break;
		case 'g':
			cfg.group = optarg;
			break;
		case OPT_RESULTS_MODE:
			if (parse_mode(optarg, &cfg.results_mode)) {
				fprintf(stderr, "bmd: --results-mode: '%s': must be 0600, 0640 or 0644\n",
					optarg);
				return 2;
			}
			break;
		case 'f':
			foreground = true;
			break;
		case 'v':
			cfg.verbose = true;
			break;
		case 'V':
			printf("bmd " BM_VERSION "\n");
			return 0;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "bmd: unexpected argument '%s'\n", argv[optind]);
		return 2;
	}
	/* The default file may be absent (no resets, the built-in
	 * defaults); one named with -c must be there.  A bad file is
	 * refused like a bad option: restarting will not mend it. */
	if (bmd_conf_read(conf_path ? conf_path : BMD_DEFAULT_CONF,
			  conf_path != NULL, &conf, &err)) {
		fprintf(stderr, "bmd: %s\n", err.msg);
		sd_notifyf(0, "STATUS=failed: %s", err.msg);
		return 2;
	}
	bmd_conf_apply(&conf, &cfg);
	if (!cfg.socket_path)
		cfg.socket_path = BM_DEFAULT_SOCKET;
	if (!cfg.results_dir)
		cfg.results_dir = BM_DEFAULT_RESULTS;
	if (check) {
		print_config(&cfg);
		bmd_conf_free(&conf);
		return 0;
	}
	/* Under systemd the service manager is the parent: never fork. */
	if (getenv("NOTIFY_SOCKET") || getenv("LISTEN_FDS"))
		foreground = true;
	cfg.listen_fd = activation_fd();
	if (stderr_is_journal())
		cfg.log = bmd_log_journal;

	signal(SIGPIPE, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);

	the_bmd = bmd_new(&cfg, &err);
	bmd_conf_free(&conf);	/* bmd_new copied what it keeps */
	if (!the_bmd) {
		fprintf(stderr, "bmd: %s\n", err.msg);
		sd_notifyf(0, "STATUS=failed: %s", err.msg);
		return 1;
	}
	/* Detach only after the socket is bound, so errors reach the
	 * terminal and a client may connect as soon as we return. */
	if (!foreground && daemon(0, 0)) {
		fprintf(stderr, "bmd: daemon: %s\n", strerror(errno));
		bmd_free(the_bmd);
		return 1;
	}
	sd_notify(0, "READY=1\nSTATUS=ready");
	st_live = !pthread_create(&st, NULL, status_thread, the_bmd);

	ret = bmd_run(the_bmd);
	if (ret)
		fprintf(stderr, "bmd: %s\n", strerror(-ret));
	sd_notify(0, "STOPPING=1\nSTATUS=stopping: interrupting running jobs");
	status_stop = 1;
	if (st_live) {
		pthread_kill(st, SIGTERM);	/* cut the sleep short */
		pthread_join(st, NULL);
	}
	bmd_free(the_bmd);
	return ret ? 1 : 0;
}

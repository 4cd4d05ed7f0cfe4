// SPDX-License-Identifier: GPL-2.0
/*
 * bmd.conf: "KEY = VALUE" lines, '#' comments, nothing else (bmd(8),
 * CONFIGURATION).  Not YAML, INI or JSON: a reset command is a shell
 * command line that must reach /bin/sh byte for byte, and every one of
 * those formats has quoting or comment rules (YAML's ": " and " #",
 * inih's " ;" inline comments and 200-byte lines, JSON's escapes and no
 * comments at all) that would change such a line without a word.  Here
 * the value is the rest of the line, trimmed, and nothing more.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/bmgen.h>

#include "bm_genl.h"
#include "daemon_int.h"

_Static_assert(BMD_TX_KTHREADS_AUTO == BM_GENL_KTHREADS_AUTO,
	       "bmd.conf auto is the backend's");

#define CONF_LINE_MAX	4096	/* bytes, without the newline */

struct conf_reader {
	const char *path;
	unsigned int line;
	unsigned int seen[24];		/* line of socket, results, ... */
	struct bm_error *err;
};

/* In the order of conf_line()'s switch. */
static const char *const plain_keys[] = {
	"socket", "results", "group", "results-mode", "verbose",
	"max-trials", "max-jobs", "max-jobs-per-user",
	"max-connections", "idle-timeout", "max-output-kib", "hw-timestamps",
	"tcp-engine", "tx-kthreads", "tx-path", "ports", "admin-group",
	"max-connections-per-user", "request-timeout", "max-memory-mib",
	"dut-counters", "dut-counters-wait", "hosts", "sync-tolerance-us",
};


static int conf_err(struct conf_reader *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

const char *bmd_tx_path_name(unsigned int p)
{
	return bm_genl_tx_path_name(p);
}

/* One line "PATH:LINE: what" into r->err; -EINVAL. */
static int conf_err(struct conf_reader *r, const char *fmt, ...)
{
	char what[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return bm_errorf(r->err, "%s:%u: %s", r->path, r->line, what);
}

/* The unsigned number v in [lo, hi] into *dst; one line naming key and
 * the range otherwise. */
static int set_uint(struct conf_reader *r, unsigned int *dst, const char *key,
		    const char *v, unsigned long lo, unsigned long hi)
{
	unsigned long x;
	char *end;

	errno = 0;
	x = strtoul(v, &end, 10);
	if (v[0] < '0' || v[0] > '9' || *end || errno || x < lo || x > hi)
		return conf_err(r, "%s: '%.20s' must be a whole number from %lu to %lu",
				key, v, lo, hi);
	*dst = (unsigned int)x;
	return 0;
}

bool bmd_reset_name_ok(const char *s)
{
	size_t i, n = strlen(s);

	/* A name goes on command lines (--param reset=NAME) and into
	 * journal fields: letters, digits and . _ -, not an option. */
	if (!n || n > BMD_RESET_NAME_MAX || s[0] == '-')
		return false;
	for (i = 0; i < n; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789._-", s[i]))
			return false;
	return true;
}

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		*--e = '\0';
	return s;
}

static int set_str(struct conf_reader *r, char **dst, const char *key,
		   const char *v, bool path)
{
	if (path && v[0] != '/')
		return conf_err(r, "%s: '%s' is not an absolute path", key, v);
	*dst = strdup(v);
	return *dst ? 0 : bm_errorf(r->err, "out of memory");
}

static int add_reset(struct conf_reader *r, struct bmd_conf *c,
		     const char *key, const char *name, const char *cmd)
{
	struct bmd_reset *v;
	size_t i;

	if (!bmd_reset_name_ok(name))
		return conf_err(r, "%s: a reset's name is 1 to %d of A-Z a-z 0-9 . _ - (not '-' first)",
				key, BMD_RESET_NAME_MAX);
	for (i = 0; i < c->n_resets; i++)
		if (!strcmp(c->resets[i].name, name))
			return conf_err(r, "%s: given twice", key);
	v = realloc(c->resets, (c->n_resets + 1) * sizeof(*v));
	if (!v)
		return bm_errorf(r->err, "out of memory");
	c->resets = v;
	v[c->n_resets].name = strdup(name);
	v[c->n_resets].command = strdup(cmd);
	c->n_resets++;
	if (!v[c->n_resets - 1].name || !v[c->n_resets - 1].command)
		return bm_errorf(r->err, "out of memory");
	return 0;
}

/* ports: checked here, so that a mistake names its line */
static int conf_ports(struct conf_reader *r, struct bmd_conf *c,
		      const char *v)
{
	struct bmd_port_policy p;
	struct bm_error e = { "" };

	if (bmd_port_policy_parse(v, &p, &e))
		return conf_err(r, "%s", e.msg);
	bmd_port_policy_free(&p);
	return set_str(r, &c->ports, "ports", v, false);
}

/* hosts: checked here too */
static int conf_hosts(struct conf_reader *r, struct bmd_conf *c,
		      const char *v)
{
	struct bmd_hosts h;
	struct bm_error e = { "" };

	if (bmd_hosts_parse(v, &h, &e))
		return conf_err(r, "%s", e.msg);
	bmd_hosts_free(&h);
	return set_str(r, &c->hosts, "hosts", v, false);
}

static int conf_line(struct conf_reader *r, struct bmd_conf *c, char *line)
{
	char *eq, *key, *v;
	unsigned int mode, k32;
	size_t k;
	char *end;

	key = trim(line);
	if (!key[0] || key[0] == '#')
		return 0;
	eq = strchr(key, '=');
	if (!eq)
		return conf_err(r, "expected KEY = VALUE, got '%.60s'", key);
	*eq = '\0';
	key = trim(key);
	v = trim(eq + 1);
	if (!key[0])
		return conf_err(r, "no key before '='");
	if (!v[0])
		return conf_err(r, "%s: no value after '='", key);
	if (!strncmp(key, "reset.", 6))
		return add_reset(r, c, key, key + 6, v);
	for (k = 0; k < sizeof(plain_keys) / sizeof(plain_keys[0]); k++)
		if (!strcmp(key, plain_keys[k]))
			break;
	if (k == sizeof(plain_keys) / sizeof(plain_keys[0]))
		return conf_err(r, "unknown key '%.60s' (socket, results, group, results-mode, verbose, max-trials, max-jobs, max-jobs-per-user, max-connections, idle-timeout, max-output-kib, hw-timestamps, tcp-engine, tx-kthreads, tx-path, ports, admin-group, max-connections-per-user, request-timeout, max-memory-mib, dut-counters, dut-counters-wait, hosts, sync-tolerance-us, reset.NAME)",
				key);
	if (r->seen[k])
		return conf_err(r, "%s: given twice (first on line %u)", key,
				r->seen[k]);
	_Static_assert(sizeof(plain_keys) / sizeof(plain_keys[0]) <=
		       sizeof(r->seen) / sizeof(r->seen[0]), "seen[] too short");
	r->seen[k] = r->line;
	switch (k) {
	case 0:
		return set_str(r, &c->socket_path, key, v, true);
	case 1:
		return set_str(r, &c->results_dir, key, v, true);
	case 2:
		return set_str(r, &c->group, key, v, false);
	case 3:
		errno = 0;
		mode = strtoul(v, &end, 8);
		if (errno || *end || v[0] != '0' || !bmd_results_mode_ok(mode))
			return conf_err(r, "%s: '%.20s' must be 0600, 0640 or 0644",
					key, v);
		c->results_mode = mode;
		return 0;
	case 5:
		return set_uint(r, &c->max_trials, key, v, 1, 100000000);
	case 6:
		return set_uint(r, &c->max_jobs, key, v, 1, 100000);
	case 7:
		return set_uint(r, &c->max_jobs_per_user, key, v, 1, 100000);
	case 8:
		return set_uint(r, &c->max_connections, key, v, 1, 65536);
	case 9:
		/* seconds; 0 = never ("not set" is 0 in c, hence -1) */
		if (set_uint(r, &k32, key, v, 0, 31536000))
			return -EINVAL;
		c->idle_timeout_s = k32 ? (double)k32 : -1.0;
		return 0;
	case 10:
		/* a result line needs a few chunks of 64 KiB at least */
		return set_uint(r, &c->max_output_kib, key, v, 256, 1048576);
	case 11:
		/* hw-timestamps "no": the ports' stamping left alone (ptp4l) */
		if (!strcmp(v, "auto"))
			c->hw_timestamps = 1;
		else if (!strcmp(v, "no"))
			c->hw_timestamps = -1;
		else
			return conf_err(r, "%s: '%.20s' must be auto or no", key,
					v);
		return 0;
	case 12:
		/* tcp-engine: "no" gives jobs no TCP engine (no VRFs made) */
		if (!strcmp(v, "auto"))
			c->tcp_engine = 1;
		else if (!strcmp(v, "no"))
			c->tcp_engine = -1;
		else
			return conf_err(r, "%s: '%.20s' must be auto or no", key,
					v);
		return 0;
	case 13:
		/* kthreads (lanes) a stream may go out on; bmgen.ko's tx
		 * kthreads are one a CPU, the backend caps it there; auto:
		 * what the port's bmgen.capacity figure asks for */
		if (!strcmp(v, "auto")) {
			c->tx_kthreads = BMD_TX_KTHREADS_AUTO;
			return 0;
		}
		if (set_uint(r, &c->tx_kthreads, key, v, 1, 1024))
			return conf_err(r, "%s: '%.20s' must be auto or a whole number from 1 to 1024",
					key, v);
		return 0;
	case 14:
		/* the path bmgen.ko's trials take (bmgen_tx_path); auto
		 * never takes xdp, which a host asks for here */
		for (c->tx_path = BMGEN_TXP_AUTO; c->tx_path <= BMGEN_TXP_MAX;
		     c->tx_path++)
			if (!strcmp(v, bm_genl_tx_path_name(c->tx_path)))
				return 0;
		return conf_err(r, "%s: '%.20s' must be auto, alloc, recycle or xdp",
				key, v);
	case 15:
		return conf_ports(r, c, v);
	case 16:
		return set_str(r, &c->admin_group, key, v, false);
	case 17:
		return set_uint(r, &c->max_connections_per_user, key, v, 1,
				65536);
	case 18:
		return set_uint(r, &c->request_timeout_s, key, v, 1, 3600);
	case 19:
		return set_uint(r, &c->max_memory_mib, key, v, 16, 1048576);
	case 20:
		/* REQ-TM-4: a shell command line, like a reset's */
		return set_str(r, &c->dut_counters, key, v, false);
	case 21:
		/* seconds; 0 = none ("not set" is 0 in c, hence -1) */
		if (set_uint(r, &k32, key, v, 0, 3600))
			return -EINVAL;
		c->dut_counters_wait_s = k32 ? (double)k32 : -1.0;
		return 0;
	case 22:
		return conf_hosts(r, c, v);
	case 23:
		/* µs; 0 = no limit ("not set" is 0 in c, hence -1) */
		if (set_uint(r, &k32, key, v, 0, 1000000000))
			return -EINVAL;
		c->sync_tolerance_us = k32 ? (double)k32 : -1.0;
		return 0;
	default:	/* verbose */
		if (!strcmp(v, "yes") || !strcmp(v, "true"))
			c->verbose = 1;
		else if (!strcmp(v, "no") || !strcmp(v, "false"))
			c->verbose = 0;
		else
			return conf_err(r, "%s: '%.20s' must be yes or no", key,
					v);
		return 0;
	}
}

/*
 * bmd runs the file's reset commands as itself: a file that someone else
 * may write would let that someone run commands as bmd, so it must
 * belong to root or to bmd's user and be writable by its owner only
 * (sshd's StrictModes, for the same reason).
 */
static int conf_file_ok(const char *path, int fd, struct bm_error *err)
{
	struct stat st;

	if (fstat(fd, &st))
		return bm_errorf(err, "%s: %s", path, strerror(errno));
	if (!S_ISREG(st.st_mode))
		return bm_errorf(err, "%s: not a regular file", path);
	if (st.st_uid != 0 && st.st_uid != geteuid())
		return bm_errorf(err, "%s: owned by uid %u, not root or bmd's user: bmd runs its reset commands",
				 path, (unsigned int)st.st_uid);
	if (st.st_mode & (S_IWGRP | S_IWOTH))
		return bm_errorf(err, "%s: mode %04o: writable by group or others, and bmd runs its reset commands (chmod go-w)",
				 path, (unsigned int)(st.st_mode & 07777));
	return 0;
}

int bmd_conf_read(const char *path, bool must_exist, struct bmd_conf *c,
		  struct bm_error *err)
{
	struct conf_reader r = { .path = path, .err = err };
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int fd, ret = 0;
	FILE *f;

	memset(c, 0, sizeof(*c));
	c->verbose = -1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT && !must_exist)
			return 0;
		ret = -errno;
		bm_errorf(err, "%s: %s", path, strerror(errno));
		return ret;
	}
	if (conf_file_ok(path, fd, err)) {
		close(fd);
		return -EINVAL;
	}
	f = fdopen(fd, "r");
	if (!f) {
		ret = -errno;
		close(fd);
		bm_errorf(err, "%s: %s", path, strerror(-ret));
		return ret;
	}
	c->path = strdup(path);
	if (!c->path)
		ret = bm_errorf(err, "out of memory");
	while (!ret && (n = getline(&line, &cap, f)) >= 0) {
		r.line++;
		if (n && line[n - 1] == '\n')
			line[--n] = '\0';
		/* a NUL would cut the line short where nobody sees it */
		if (memchr(line, '\0', n))
			ret = conf_err(&r, "NUL byte");
		else if (n > CONF_LINE_MAX)
			ret = conf_err(&r, "longer than %d bytes",
				       CONF_LINE_MAX);
		else
			ret = conf_line(&r, c, line);
	}
	free(line);
	if (!ret && ferror(f))
		ret = bm_errorf(err, "%s: read error", path);
	fclose(f);
	if (ret) {
		bmd_conf_free(c);
		return ret < 0 ? ret : -EINVAL;
	}
	return 0;
}

void bmd_conf_apply(const struct bmd_conf *c, struct bmd_config *cfg)
{
	if (!cfg->socket_path)
		cfg->socket_path = c->socket_path;
	if (!cfg->results_dir)
		cfg->results_dir = c->results_dir;
	if (!cfg->group)
		cfg->group = c->group;
	if (!cfg->results_mode)
		cfg->results_mode = c->results_mode;
	if (c->verbose > 0)
		cfg->verbose = true;
	if (!cfg->max_trials)
		cfg->max_trials = c->max_trials;
	if (!cfg->max_jobs)
		cfg->max_jobs = c->max_jobs;
	if (!cfg->max_jobs_per_user)
		cfg->max_jobs_per_user = c->max_jobs_per_user;
	if (!cfg->max_connections)
		cfg->max_connections = c->max_connections;
	if (!cfg->idle_timeout_s)
		cfg->idle_timeout_s = c->idle_timeout_s;
	if (!cfg->max_output)
		cfg->max_output = (size_t)c->max_output_kib << 10;
	if (c->hw_timestamps < 0)
		cfg->no_hw_timestamps = true;
	if (c->tcp_engine < 0)
		cfg->no_tcp_engine = true;
	if (!cfg->tx_kthreads)
		cfg->tx_kthreads = c->tx_kthreads;
	if (!cfg->tx_path)
		cfg->tx_path = c->tx_path;
	if (!cfg->ports)
		cfg->ports = c->ports;
	if (!cfg->max_connections_per_user)
		cfg->max_connections_per_user = c->max_connections_per_user;
	if (!cfg->request_timeout_s)
		cfg->request_timeout_s = c->request_timeout_s;
	if (!cfg->max_memory_mib)
		cfg->max_memory_mib = c->max_memory_mib;
	if (!cfg->admin_group)
		cfg->admin_group = c->admin_group;
	cfg->config_path = c->path;
	cfg->resets = c->resets;
	cfg->n_resets = c->n_resets;
	if (!cfg->dut_counters)
		cfg->dut_counters = c->dut_counters;
	if (!cfg->dut_counters_wait_s)
		cfg->dut_counters_wait_s = c->dut_counters_wait_s;
	if (!cfg->hosts)
		cfg->hosts = c->hosts;
	if (!cfg->sync_tolerance_us)
		cfg->sync_tolerance_us = c->sync_tolerance_us;
}

void bmd_conf_free(struct bmd_conf *c)
{
	size_t i;

	free(c->path);
	free(c->socket_path);
	free(c->results_dir);
	free(c->group);
	free(c->ports);
	free(c->admin_group);
	free(c->dut_counters);
	free(c->hosts);
	for (i = 0; i < c->n_resets; i++) {
		free(c->resets[i].name);
		free(c->resets[i].command);
	}
	free(c->resets);
	memset(c, 0, sizeof(*c));
	c->verbose = -1;
}

const struct bmd_reset *bmd_reset_find(const struct bmd *d, const char *name)
{
	size_t i;

	for (i = 0; i < d->n_resets; i++)
		if (!strcmp(d->resets[i].name, name))
			return &d->resets[i];
	return NULL;
}

bool bmd_results_mode_ok(unsigned int mode)
{
	/* Never writable by others, never executable: a result is data. */
	return mode == 0600 || mode == 0640 || mode == 0644;
}

/* The file a reset comes from, for messages: the one read, or where bmd
 * looked for one. */
const char *conf_name(const struct bmd *d)
{
	return d->config_path ? d->config_path : BMD_DEFAULT_CONF;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * bmctl across hosts, with OpenSSH as the only transport: `bmctl -H HOST
 * ...` runs `ssh -T HOST bmctl bridge` and speaks the bmd protocol over
 * its standard input and output; `bmctl bridge` (what sshd runs) joins
 * them to the local bmd's socket, so that bmd sees the ssh login user as
 * its peer and admits it by its own rules (group, owners); keys,
 * known_hosts and who may log in stay OpenSSH's.  `bmctl pool HOST...`
 * asks each host's bmd and module for their versions: a job over several
 * hosts needs one version everywhere.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "bmctl.h"
#include "print.h"

#define POOL_MAX	64

/* The command that reaches host's bmd: $BMGEN_SSH (default ssh) -T HOST
 * $BMGEN_REMOTE_BMCTL (default bmctl) bridge [-s SOCKET]. */
static int open_remote(struct bm_client *c, const char *host,
		       struct bm_error *err)
{
	const char *ssh = getenv("BMGEN_SSH"), *rb = getenv("BMGEN_REMOTE_BMCTL");
	char *argv[8];
	int n = 0;

	argv[n++] = (char *)(ssh && *ssh ? ssh : "ssh");
	argv[n++] = "-T";
	argv[n++] = (char *)host;
	argv[n++] = (char *)(rb && *rb ? rb : "bmctl");
	if (opts.socket_given) {
		argv[n++] = "-s";
		argv[n++] = (char *)opts.socket;
	}
	argv[n++] = "bridge";
	argv[n] = NULL;
	return bm_client_open_cmd(c, argv, err);
}

int bmctl_client_open(struct bm_client *c, const char *host,
		      struct bm_error *err)
{
	if (host && *host && strcmp(host, "local"))
		return open_remote(c, host, err);
	return bm_client_open(c, opts.socket, err);
}

/* Copy what is readable on from to to; 0 at EOF, <0 on an error, else
 * the bytes copied. */
static ssize_t pump(int from, int to)
{
	char buf[65536];
	ssize_t n = read(from, buf, sizeof(buf)), w, off = 0;

	if (n <= 0)
		return n < 0 && errno == EINTR ? 1 : n;
	while (off < n) {
		w = write(to, buf + off, (size_t)(n - off));
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		off += w;
	}
	return n;
}

int cmd_bridge(int argc, char **argv)
{
	struct bm_error err = { "" };
	struct bm_client c;
	struct pollfd p[2];
	bool in_open = true;
	ssize_t r;

	(void)argv;
	if (argc)
		return usage_error("bridge takes no argument (it is what "
				   "bmctl -H HOST runs over ssh)");
	if (bm_client_open(&c, opts.socket, &err))
		return failure("%s", err.msg);
	for (;;) {
		p[0] = (struct pollfd){ in_open ? 0 : -1, POLLIN, 0 };
		p[1] = (struct pollfd){ c.fd, POLLIN, 0 };
		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (p[1].revents) {
			r = pump(c.fd, 1);
			if (r <= 0)	/* bmd closed: so does the bridge */
				break;
		}
		if (in_open && p[0].revents) {
			r = pump(0, c.fd);
			if (r < 0)
				break;
			if (!r) {
				/* the client is done asking; bmd's answers
				 * still come */
				in_open = false;
				shutdown(c.fd, SHUT_WR);
			}
		}
	}
	bm_client_close(&c);
	return EXIT_OK;
}

/* A member of o by name, or NULL. */
static json_object *get(json_object *o, const char *k)
{
	json_object *v = NULL;

	return o && json_object_object_get_ex(o, k, &v) ? v : NULL;
}

struct pool_host {
	const char *name;
	char bmd[32], module[64], why[256];
	int protocol;
	size_t ports;
	bool ok;
};

/* Ask host's bmd for its status into h. */
static void pool_ask(struct pool_host *h)
{
	struct bm_error err = { "" };
	json_object *resp = NULL, *mod;
	struct bm_client c;
	const char *v;

	if (bmctl_client_open(&c, h->name, &err)) {
		snprintf(h->why, sizeof(h->why), "%s", err.msg);
		return;
	}
	if (bm_client_call(&c, request_new("status"), &resp, &err)) {
		/* ssh said why on stderr; the protocol only saw it end */
		snprintf(h->why, sizeof(h->why), "%s", c.pid &&
			 !resp ? "no bmd reached over ssh (ssh's message "
			 "above)" : err.msg);
		json_object_put(resp);
		bm_client_close(&c);
		return;
	}
	bm_client_close(&c);
	snprintf(h->bmd, sizeof(h->bmd), "%s",
		 json_object_get_string(get(resp, "version")) ?: "?");
	h->protocol = json_object_get_int(get(resp, "protocol"));
	mod = get(resp, "module");
	v = json_object_get_string(get(mod, "version"));
	snprintf(h->module, sizeof(h->module), "%s", v ? v : "not loaded");
	h->ports = (size_t)json_object_get_int64(get(mod, "ports"));
	h->ok = true;
	json_object_put(resp);
}

int cmd_pool(int argc, char **argv)
{
	static struct pool_host h[POOL_MAX];
	struct pr_col cols[] = {
		{ "host", "host", true }, { "bmd", "bmd", true },
		{ "protocol", "protocol", false }, { "module", "module", true },
		{ "ports", "ports", false }, { "state", "state", true },
	};
	struct pr_table *t;
	int i, n = 0, ret = EXIT_OK;
	char num[32];

	for (i = 0; i < argc; i++) {
		if (argv[i][0] == '-')
			return usage_error("pool: unknown option '%s'",
					   argv[i]);
		if (n == POOL_MAX)
			return usage_error("pool: at most %d hosts",
					   POOL_MAX);
		memset(&h[n], 0, sizeof(h[n]));
		h[n++].name = argv[i];
	}
	if (!n)
		return usage_error("pool: name the hosts (\"local\" is this "
				   "one): bmctl pool HOST [HOST ...]");
	for (i = 0; i < n; i++)
		pool_ask(&h[i]);
	/* one version everywhere: a trial's halves must agree on frames,
	 * stamps and the protocol */
	for (i = 0; i < n; i++) {
		if (!h[i].ok) {
			ret = EXIT_FAIL;
			continue;
		}
		if (!h[0].ok || (!strcmp(h[i].bmd, h[0].bmd) &&
				 h[i].protocol == h[0].protocol &&
				 !strcmp(h[i].module, h[0].module)))
			continue;
		snprintf(h[i].why, sizeof(h[i].why), "differs from %s "
			 "(bmd %s, protocol %d, module %s): a pool runs one "
			 "version", h[0].name, h[0].bmd, h[0].protocol,
			 h[0].module);
		ret = EXIT_FAIL;
	}
	if (opts.json) {
		json_object *a = json_object_new_array(), *o;

		for (i = 0; i < n; i++) {
			o = json_object_new_object();
			json_object_object_add(o, "host",
					       json_object_new_string(h[i].name));
			json_object_object_add(o, "ok", json_object_new_boolean(
				h[i].ok && !h[i].why[0]));
			if (h[i].ok) {
				json_object_object_add(o, "bmd",
					json_object_new_string(h[i].bmd));
				json_object_object_add(o, "protocol",
					json_object_new_int(h[i].protocol));
				json_object_object_add(o, "module",
					json_object_new_string(h[i].module));
				json_object_object_add(o, "ports",
					json_object_new_int64(
						(int64_t)h[i].ports));
			}
			if (h[i].why[0])
				json_object_object_add(o, "error",
					json_object_new_string(h[i].why));
			json_object_array_add(a, o);
		}
		printf("%s\n", json_object_to_json_string_ext(a,
			JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED));
		json_object_put(a);
		return ret;
	}
	pr_init(false);
	t = pr_table_new("pool", cols, 6);
	for (i = 0; i < n; i++) {
		pr_table_row(t);
		pr_cell_str(t, h[i].name);
		pr_cell_str(t, h[i].ok ? h[i].bmd : "-");
		snprintf(num, sizeof(num), "%d", h[i].protocol);
		pr_cell_str(t, h[i].ok ? num : "-");
		pr_cell_str(t, h[i].ok ? h[i].module : "-");
		snprintf(num, sizeof(num), "%zu", h[i].ports);
		pr_cell_str(t, h[i].ok ? num : "-");
		pr_cell_str(t, h[i].why[0] ? "refused" : "ok");
	}
	pr_table_end(t);
	for (i = 0; i < n; i++)
		if (h[i].why[0])
			fprintf(stderr, "bmctl: pool: %s: %s\n", h[i].name,
				h[i].why);
	return ret;
}

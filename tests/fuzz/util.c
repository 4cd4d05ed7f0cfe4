// SPDX-License-Identifier: GPL-2.0
/* Helpers of the libFuzzer harnesses (util.h). */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bm_proto.h"
#include "daemon_int.h"
#include "util.h"

static char dir[64];

void fuzz_fail(const char *fmt, ...)
{
	va_list ap;

	fputs("fuzz: invariant broken: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

static void rm_dir(void)
{
	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

const char *fuzz_dir(void)
{
	if (dir[0])
		return dir;
	snprintf(dir, sizeof(dir), "%s/bmgen-fuzz.XXXXXX",
		 access("/dev/shm", W_OK) ? "/tmp" : "/dev/shm");
	if (!mkdtemp(dir))
		fuzz_fail("mkdtemp %s: %s", dir, strerror(errno));
	atexit(rm_dir);
	return dir;
}

void fuzz_write_file(const char *path, const void *data, size_t n,
		     mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);

	if (fd < 0 || (n && write(fd, data, n) != (ssize_t)n) ||
	    fchmod(fd, mode) || close(fd))
		fuzz_fail("%s: %s", path, strerror(errno));
}

/* Every number of v finite: json-c writes NaN and Infinity, which are
 * not JSON, and reads them back without complaint.  at: v's path. */
static void finite_only(json_object *v, const char *what, const char *at)
{
	char sub[256];
	size_t i;

	switch (json_object_get_type(v)) {
	case json_type_double:
		if (!isfinite(json_object_get_double(v)))
			fuzz_fail("%s: %s is not a finite number (%s)", what,
				  at, json_object_to_json_string(v));
		break;
	case json_type_array:
		for (i = 0; i < json_object_array_length(v); i++) {
			snprintf(sub, sizeof(sub), "%s[%zu]", at, i);
			finite_only(json_object_array_get_idx(v, i), what, sub);
		}
		break;
	case json_type_object: {
		json_object_object_foreach(v, key, val) {
			snprintf(sub, sizeof(sub), "%s.%s", at, key);
			finite_only(val, what, sub);
		}
		break;
	}
	default:
		break;
	}
}

json_object *fuzz_json_strict(const char *s, size_t n, const char *what)
{
	struct json_tokener *tok;
	json_object *o;
	size_t bad, end;

	bad = bm_utf8_check(s, n);
	if (bad < n)
		fuzz_fail("%s: not UTF-8 at byte %zu: %.*s", what, bad, (int)n,
			  s);
	tok = json_tokener_new();
	if (!tok)
		fuzz_fail("out of memory");
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	o = json_tokener_parse_ex(tok, s, (int)n);
	end = json_tokener_get_parse_end(tok);
	if (!o || json_tokener_get_error(tok) != json_tokener_success)
		fuzz_fail("%s: not JSON (%s): %.*s", what,
			  json_tokener_error_desc(json_tokener_get_error(tok)),
			  (int)n, s);
	json_tokener_free(tok);
	for (; end < n; end++)
		if (!strchr(" \t\r\n", s[end]))
			fuzz_fail("%s: data after the JSON value: %.*s", what,
				  (int)n, s);
	finite_only(o, what, "$");
	return o;
}

void fuzz_one_line(const char *msg, const char *what)
{
	if (!msg || !msg[0])
		fuzz_fail("%s: no reason given", what);
	if (strchr(msg, '\n'))
		fuzz_fail("%s: reason of more than one line: %s", what, msg);
}

static void check_reply(const char *line, size_t n)
{
	json_object *o = fuzz_json_strict(line, n, "reply"), *v;

	if (!json_object_is_type(o, json_type_object))
		fuzz_fail("reply is not an object: %.*s", (int)n, line);
	if (!json_object_object_get_ex(o, "ok", &v) ||
	    !json_object_is_type(v, json_type_boolean))
		fuzz_fail("reply without a boolean ok: %.*s", (int)n, line);
	if (!json_object_get_boolean(v)) {
		if (!json_object_object_get_ex(o, "error", &v) ||
		    !json_object_is_type(v, json_type_string))
			fuzz_fail("refusal without an error: %.*s", (int)n,
				  line);
		fuzz_one_line(json_object_get_string(v), "reply error");
	}
	if (!json_object_object_get_ex(o, "id", &v) ||
	    !(json_object_is_type(v, json_type_int) ||
	      json_object_is_type(v, json_type_null)))
		fuzz_fail("reply without an integer or null id: %.*s", (int)n,
			  line);
	json_object_put(o);
}

void fuzz_check_replies(const char *out, size_t n)
{
	const char *s = out, *e, *end = out + n;

	for (; s < end; s = e + 1) {
		e = memchr(s, '\n', end - s);
		if (!e)
			fuzz_fail("a reply without its newline");
		check_reply(s, e - s);
	}
}

/* --- an in-process bmd ---------------------------------------------------- */

static void fake_port(const char *sys, const char *name, long speed)
{
	char path[256], text[32];

	snprintf(path, sizeof(path), "%s/%s", sys, name);
	if (mkdir(path, 0755) && errno != EEXIST)
		fuzz_fail("%s: %s", path, strerror(errno));
	snprintf(path, sizeof(path), "%s/%s/speed", sys, name);
	snprintf(text, sizeof(text), "%ld\n", speed);
	fuzz_write_file(path, text, strlen(text), 0644);
	snprintf(path, sizeof(path), "%s/%s/mtu", sys, name);
	fuzz_write_file(path, "1500\n", 5, 0644);
}

/* Journald field names: upper-case letters, digits and '_', not '_'
 * first (sd_journal_sendv refuses the whole event otherwise). */
static void check_field(const char *f)
{
	const char *eq = strchr(f, '=');
	const char *c;

	if (!eq || eq == f || f[0] == '_')
		fuzz_fail("log field without a NAME=: %s", f);
	for (c = f; c < eq; c++)
		if (!((*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
		      *c == '_'))
			fuzz_fail("log field with a bad name: %s", f);
}

static void log_sink(void *ctx, int priority, const char *const *fields,
		     size_t n)
{
	size_t i;

	(void)ctx;
	(void)priority;
	if (!n || strncmp(fields[0], "MESSAGE=", 8))
		fuzz_fail("log event without MESSAGE first");
	/* On stderr only the message is written, as one line: a newline
	 * in it would let a request forge bmd's log lines. */
	fuzz_one_line(fields[0] + 8, "log MESSAGE");
	for (i = 0; i < n; i++)
		check_field(fields[i]);
}

struct bmd *fuzz_bmd(bmd_backend_fn backend_new,
		     const struct bmd_reset *resets, size_t n_resets)
{
	char sys[128], results[128], sock[128], name[16];
	struct bm_error err = { "" };
	struct bmd_config cfg;
	struct bmd *d;
	int i;

	snprintf(sys, sizeof(sys), "%s/sys", fuzz_dir());
	snprintf(results, sizeof(results), "%s/results", fuzz_dir());
	snprintf(sock, sizeof(sock), "%s/bmd.sock", fuzz_dir());
	if (mkdir(sys, 0755) && errno != EEXIST)
		fuzz_fail("%s: %s", sys, strerror(errno));
	for (i = 1; i <= 8; i++) {
		snprintf(name, sizeof(name), "t%d", i);
		fake_port(sys, name, 10);
	}
	for (i = 1; i <= 6; i++) {
		snprintf(name, sizeof(name), "s%d", i);
		fake_port(sys, name, 10);
	}
	fake_port(sys, "p9", 10000);
	fake_port(sys, "p10", -1);
	cfg = (struct bmd_config){
		.socket_path = sock, .listen_fd = -1, .results_dir = results,
		.backend_new = backend_new, .verbose = true, .sysfs_net = sys,
		.config_path = resets ? "fuzz.conf" : NULL,
		.resets = resets, .n_resets = n_resets, .log = log_sink,
	};
	d = bmd_new(&cfg, &err);
	if (!d)
		fuzz_fail("bmd_new: %s", err.msg);
	return d;
}

char *fuzz_client_run(struct bmd *d, struct bmd_client *c, size_t *len)
{
	char *sent = malloc(1);
	size_t turns = 0;

	if (!sent)
		fuzz_fail("out of memory");
	*len = 0;
	bmd_client_lines(d, c);
	do {
		size_t n = c->out_len - c->out_off;

		if (n) {
			sent = realloc(sent, *len + n);
			if (!sent)
				fuzz_fail("out of memory");
			memcpy(sent + *len, c->out + c->out_off, n);
			*len += n;
			c->out_off = c->out_len;
		}
		bmd_client_pump(d, c);
	} while ((c->out_off < c->out_len || c->stream_fd >= 0 ||
		  c->replay_fd >= 0) && !c->dead && ++turns < 100000);
	return sent;
}

void fuzz_client_done(struct bmd_client *c, char *sent, size_t len)
{
	if (c->dead)
		fuzz_fail("the client was dropped");
	fuzz_check_replies(sent, len);
	free(sent);
	bm_linebuf_free(&c->in);
	if (c->stream_fd >= 0)
		close(c->stream_fd);
	if (c->replay_fd >= 0)
		close(c->replay_fd);
	free(c->out);
	free(c->held);
	free(c->stream_tail);
}

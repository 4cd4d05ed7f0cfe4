// SPDX-License-Identifier: GPL-2.0
/* Protocol framing, request validation and response builders (bm_proto.h). */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bm_hosts.h"
#include "bm_json.h"
#include "bm_proto.h"

/* Read in chunks this big; the buffer may exceed the line limit by one
 * chunk before the oversize line is detected and dropped. */
#define BM_READ_CHUNK	65536

int bm_linebuf_append(struct bm_linebuf *lb, const char *data, size_t n)
{
	/* Compact first so that a long-lived connection does not grow. */
	if (lb->consumed) {
		memmove(lb->buf, lb->buf + lb->consumed, lb->len - lb->consumed);
		lb->len -= lb->consumed;
		lb->consumed = 0;
	}
	if (lb->len + n + 1 > lb->cap) {
		size_t cap = lb->cap ? lb->cap : 4096;
		char *b;

		while (cap < lb->len + n + 1)
			cap *= 2;
		b = realloc(lb->buf, cap);
		if (!b)
			return -ENOMEM;
		lb->buf = b;
		lb->cap = cap;
	}
	memcpy(lb->buf + lb->len, data, n);
	lb->len += n;
	return 0;
}

ssize_t bm_linebuf_read(struct bm_linebuf *lb, int fd)
{
	char chunk[BM_READ_CHUNK];
	ssize_t n;

	n = read(fd, chunk, sizeof(chunk));
	if (n < 0)
		return -errno;
	if (n > 0 && bm_linebuf_append(lb, chunk, n))
		return -ENOMEM;
	return n;
}

enum bm_line_status bm_linebuf_next(struct bm_linebuf *lb, char **line,
				    size_t *len)
{
	size_t max = lb->max ? lb->max : BM_PROTO_MAX_LINE;
	char *start, *nl;
	size_t avail;

	for (;;) {
		start = lb->buf + lb->consumed;
		avail = lb->len - lb->consumed;
		nl = avail ? memchr(start, '\n', avail) : NULL;

		if (lb->discarding) {
			if (!nl) {
				lb->consumed = lb->len;
				return BM_LINE_NONE;
			}
			lb->consumed += nl - start + 1;
			lb->discarding = false;
			continue;
		}
		if (!nl) {
			if (avail > max) {
				lb->consumed = lb->len;
				lb->discarding = true;
				return BM_LINE_TOO_LONG;
			}
			return BM_LINE_NONE;
		}
		if ((size_t)(nl - start) > max) {
			lb->consumed += nl - start + 1;
			return BM_LINE_TOO_LONG;
		}
		*nl = '\0';
		*line = start;
		*len = nl - start;
		lb->consumed += nl - start + 1;
		return BM_LINE_OK;
	}
}

void bm_linebuf_free(struct bm_linebuf *lb)
{
	free(lb->buf);
	memset(lb, 0, sizeof(*lb));
}

/*
 * The well-formed UTF-8 sequence at s[0..n) (n >= 1): its length, or minus
 * the length of its maximal ill-formed subpart (at least 1), which is what
 * one U+FFFD replaces (Unicode §3.9, "U+FFFD Substitution of Maximal
 * Subparts").  The second byte's range excludes overlong forms (E0, F0),
 * surrogates (ED) and code points above U+10FFFF (F4).
 */
static int utf8_seq(const unsigned char *s, size_t n)
{
	unsigned char lo = 0x80, hi = 0xbf;
	int len, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		len = 2;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3;
		if (s[0] == 0xe0)
			lo = 0xa0;
		else if (s[0] == 0xed)
			hi = 0x9f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4;
		if (s[0] == 0xf0)
			lo = 0x90;
		else if (s[0] == 0xf4)
			hi = 0x8f;
	} else {
		return -1;
	}
	for (i = 1; i < len; i++) {
		if ((size_t)i >= n || s[i] < lo || s[i] > hi)
			return -i;
		lo = 0x80;
		hi = 0xbf;
	}
	return len;
}

size_t bm_utf8_check(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0;
	int k;

	while (i < n) {
		k = utf8_seq(u + i, n - i);
		if (k < 0)
			return i;
		i += k;
	}
	return n;
}

char *bm_proto_line(json_object *o, size_t *len)
{
	const unsigned char *u;
	size_t n, i, bad, o_len;
	const char *s;
	char *out;
	int k;

	/* Plain json-c output escapes control characters, so it never holds
	 * a raw newline and the framing stays intact. */
	s = json_object_to_json_string_length(o, JSON_C_TO_STRING_PLAIN |
					      JSON_C_TO_STRING_NOSLASHESCAPE,
					      &n);
	if (!s)
		return NULL;
	/*
	 * json-c copies a string's bytes as they are, so a job file written
	 * by an older bmd or a message that quotes bytes it should not would
	 * make the line invalid JSON (RFC 8259 §8.1) for any strict reader.
	 * Bytes >= 0x80 only occur inside strings, so replacing each
	 * ill-formed sequence with U+FFFD keeps the line's structure.
	 */
	bad = bm_utf8_check(s, n);
	out = malloc(bad == n ? n + 2 : 3 * n + 2);
	if (!out)
		return NULL;
	memcpy(out, s, bad);
	u = (const unsigned char *)s;
	o_len = bad;
	for (i = bad; i < n; i += k < 0 ? -k : k) {
		k = utf8_seq(u + i, n - i);
		if (k > 0) {
			memcpy(out + o_len, s + i, k);
			o_len += k;
		} else {
			memcpy(out + o_len, "\xef\xbf\xbd", 3);
			o_len += 3;
		}
	}
	out[o_len] = '\n';
	out[o_len + 1] = '\0';
	if (len)
		*len = o_len + 1;
	return out;
}

/*
 * Copy at most 64 bytes of s (a request's text, already checked to be
 * well-formed UTF-8) into buf for an error message, cut at a character
 * boundary: a message that ends inside a character is not UTF-8.
 */
static const char *clip(const char *s, char buf[static 65])
{
	size_t n = strnlen(s, 65);

	/* Back off from byte 64 to the start of its character. */
	if (n > 64)
		for (n = 64; n && ((unsigned char)s[n] & 0xc0) == 0x80; n--)
			;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return buf;
}

/* --- request validation ------------------------------------------------- */

static const char *const cmd_names[BM_CMD__COUNT] = {
	[BM_CMD_STATUS] = "status",
	[BM_CMD_PROCEDURES] = "procedures",
	[BM_CMD_SUBMIT] = "submit",
	[BM_CMD_JOBS] = "jobs",
	[BM_CMD_JOB] = "job",
	[BM_CMD_WATCH] = "watch",
	[BM_CMD_CANCEL] = "cancel",
	[BM_CMD_RESULT] = "result",
	[BM_CMD_PROCEDURE] = "procedure",
	[BM_CMD_PORTS] = "ports",
};

const char *bm_cmd_name(enum bm_cmd cmd)
{
	return cmd < BM_CMD__COUNT ? cmd_names[cmd] : "?";
}

/* Field kinds: a JSON type, or "number" which accepts int and double. */
enum fkind { F_STRING, F_INT, F_NUMBER, F_BOOL, F_OBJECT, F_ARRAY };

struct field {
	const char *name;
	enum fkind kind;
	bool required;
};

static const struct field f_none[] = { { NULL, 0, false } };
static const struct field f_job[] = {
	{ "job", F_INT, true }, { NULL, 0, false } };
static const struct field f_watch[] = {
	{ "job", F_INT, true }, { "history", F_BOOL, false },
	{ NULL, 0, false } };
static const struct field f_submit[] = {
	{ "procedure", F_STRING, true }, { "params", F_OBJECT, false },
	{ "ports", F_OBJECT, false }, { "dry_run", F_BOOL, false },
	{ "sim", F_OBJECT, false }, { "dut", F_OBJECT, false },
	{ NULL, 0, false } };
/* The DUT descriptor of RFC 2544 §7 / REQ-REP-1 and the DUT's mode. */
static const struct field f_dut[] = {
	{ "mode", F_STRING, false }, { "name", F_STRING, false },
	{ "software_version", F_STRING, false },
	{ "configuration", F_STRING, false }, { "pathway", F_STRING, false },
	{ "path", F_STRING, false }, { NULL, 0, false } };
#define BM_DUT_TEXT_MAX 256
#define BM_DUT_PATH_MAX 4096
#define BM_DUT_CONFIG_MAX (256 * 1024)
static const struct field f_procedure[] = {
	{ "procedure", F_STRING, true }, { NULL, 0, false } };
static const struct field f_ports[] = {
	{ "tx", F_STRING, false }, { "rx", F_STRING, false },
	{ "list", F_ARRAY, false }, { "line_rate_bps", F_NUMBER, false },
	{ "sync_tolerance_us", F_NUMBER, false }, { NULL, 0, false } };

static const struct field *const cmd_fields[BM_CMD__COUNT] = {
	[BM_CMD_STATUS] = f_none,
	[BM_CMD_PROCEDURES] = f_none,
	[BM_CMD_SUBMIT] = f_submit,
	[BM_CMD_JOBS] = f_none,
	[BM_CMD_JOB] = f_job,
	[BM_CMD_WATCH] = f_watch,
	[BM_CMD_CANCEL] = f_job,
	[BM_CMD_RESULT] = f_job,
	[BM_CMD_PROCEDURE] = f_procedure,
	[BM_CMD_PORTS] = f_none,
};

static const char *const kind_names[] = {
	[F_STRING] = "a string", [F_INT] = "an integer",
	[F_NUMBER] = "a number", [F_BOOL] = "a boolean",
	[F_OBJECT] = "an object", [F_ARRAY] = "an array",
};

static bool kind_ok(json_object *v, enum fkind kind)
{
	switch (kind) {
	case F_STRING:
		return json_object_is_type(v, json_type_string);
	case F_INT:
		return json_object_is_type(v, json_type_int);
	case F_NUMBER:
		return json_object_is_type(v, json_type_int) ||
		       json_object_is_type(v, json_type_double);
	case F_BOOL:
		return json_object_is_type(v, json_type_boolean);
	case F_OBJECT:
		return json_object_is_type(v, json_type_object);
	case F_ARRAY:
		return json_object_is_type(v, json_type_array);
	}
	return false;
}

/* Check obj against fields (plus the names in extra); where names the
 * object in messages. */
static int check_fields(json_object *obj, const struct field *fields,
			const char *const *extra, const char *where,
			struct bm_error *err)
{
	const struct field *f;
	char buf[65];

	json_object_object_foreach(obj, key, val) {
		const char *const *e;
		bool known = false;

		for (e = extra; e && *e && !known; e++)
			known = !strcmp(*e, key);
		for (f = fields; f->name && !known; f++) {
			if (strcmp(f->name, key))
				continue;
			known = true;
			if (!kind_ok(val, f->kind))
				return bm_errorf(err, "%s: '%s' must be %s",
						 where, key,
						 kind_names[f->kind]);
		}
		if (!known)
			return bm_errorf(err, "%s: unknown field '%s'",
					 where, clip(key, buf));
	}
	for (f = fields; f->name; f++)
		if (f->required && !json_object_object_get_ex(obj, f->name,
							      NULL))
			return bm_errorf(err, "%s: missing '%s'", where,
					 f->name);
	return 0;
}

/* Interface names end up in /sys paths: refuse anything that could
 * escape the directory or that the kernel would not accept. */
static bool ifname_ok(const char *s)
{
	size_t n = strlen(s);

	if (!n || n >= IFNAMSIZ || !strcmp(s, ".") || !strcmp(s, ".."))
		return false;
	for (; *s; s++)
		if (*s == '/' || *s == ':' || *s <= ' ' || *s == 0x7f)
			return false;
	return true;
}

/* A job's port: an interface name, or "host:ifname" (a port of another
 * tester host of a pool, Documentation/multi-host.md) whose host is a
 * host name, never one ssh would read as an option, the whole as short
 * as any port name of a job (BM_BACKEND_PORT_NAME). */
static bool port_label_ok(const char *s)
{
	const char *sep = strchr(s, BM_HOST_SEP);
	char host[BM_BACKEND_PORT_NAME];

	if (!sep)
		return ifname_ok(s);
	if (strlen(s) >= BM_BACKEND_PORT_NAME)
		return false;
	memcpy(host, s, (size_t)(sep - s));
	host[sep - s] = '\0';
	return bm_host_name_ok(host) && ifname_ok(sep + 1);
}

static bool procname_ok(const char *s)
{
	size_t n = strlen(s);

	if (!n || n > 64)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
		      *s == '.' || *s == '-' || *s == '_'))
			return false;
	return true;
}

/*
 * ports.list: 2..BM_PROTO_MAX_PORTS distinct interface names, the order
 * the N-port procedures use.  tx and rx, when given too, must be its first
 * two (an old client's reading of the job must be the new one's).  A
 * name is echoed only once it is known to be printable.
 */
static int parse_port_list(struct bm_request *req, json_object *list,
			   struct bm_error *err)
{
	size_t n = json_object_array_length(list), i, k;
	json_object *v;

	if (n < 2 || n > BM_PROTO_MAX_PORTS)
		return bm_errorf(err, "submit: ports: 'list' must name 2 to %d ports, not %zu",
				 BM_PROTO_MAX_PORTS, n);
	for (i = 0; i < n; i++) {
		v = json_object_array_get_idx(list, i);
		if (!json_object_is_type(v, json_type_string))
			return bm_errorf(err, "submit: ports: list[%zu] must be a string",
					 i);
		req->ports[i] = json_object_get_string(v);
		if (!port_label_ok(req->ports[i]))
			return bm_errorf(err, "submit: ports: list[%zu]: bad interface name (IFNAME or HOST:IFNAME, at most %d characters)",
					 i, BM_BACKEND_PORT_NAME - 1);
		for (k = 0; k < i; k++)
			if (!strcmp(req->ports[k], req->ports[i]))
				return bm_errorf(err, "submit: ports: '%s' is in 'list' twice (list[%zu] and list[%zu])",
						 req->ports[i], k, i);
	}
	if (req->tx_port && strcmp(req->tx_port, req->ports[0]))
		return bm_errorf(err, "submit: ports: 'tx' must be list[0] ('%s')",
				 req->ports[0]);
	if (req->rx_port && strcmp(req->rx_port, req->ports[1]))
		return bm_errorf(err, "submit: ports: 'rx' must be list[1] ('%s')",
				 req->ports[1]);
	req->n_ports = n;
	req->tx_port = req->ports[0];
	req->rx_port = req->ports[1];
	return 0;
}

static int parse_submit(struct bm_request *req, struct bm_error *err)
{
	json_object *o = req->obj, *v, *ports;
	char buf[65];

	json_object_object_get_ex(o, "procedure", &v);
	req->procedure = json_object_get_string(v);
	if (!procname_ok(req->procedure))
		return bm_errorf(err, "submit: bad procedure name '%s'",
				 clip(req->procedure, buf));
	if (json_object_object_get_ex(o, "params", &v))
		req->params = v;
	if (json_object_object_get_ex(o, "dry_run", &v))
		req->dry_run = json_object_get_boolean(v);
	if (json_object_object_get_ex(o, "sim", &v)) {
		if (!req->dry_run)
			return bm_errorf(err, "submit: 'sim' needs \"dry_run\":true");
		req->sim = v;
	}
	if (json_object_object_get_ex(o, "dut", &v)) {
		const char *mode = NULL;
		json_object *f;

		if (check_fields(v, f_dut, NULL, "submit: dut", err))
			return -EINVAL;
		if (json_object_object_get_ex(v, "mode", &f))
			mode = json_object_get_string(f);
		if (mode && strcmp(mode, "bridge") && strcmp(mode, "router"))
			return bm_errorf(err, "submit: dut: mode must be \"bridge\" or \"router\"");
		req->router = mode && !strcmp(mode, "router");
		/* REQ-2544-7: the pathway RFC 2544 §15 has tested */
		if (json_object_object_get_ex(v, "pathway", &f) &&
		    strcmp(json_object_get_string(f), "same-card") &&
		    strcmp(json_object_get_string(f), "cross-card") &&
		    strcmp(json_object_get_string(f), "n/a"))
			return bm_errorf(err, "submit: dut: pathway must be \"same-card\", \"cross-card\" or \"n/a\"");
		json_object_object_foreach(v, key, val) {
			size_t max = !strcmp(key, "configuration") ?
				     BM_DUT_CONFIG_MAX : !strcmp(key, "path") ?
				     BM_DUT_PATH_MAX : BM_DUT_TEXT_MAX;

			if ((size_t)json_object_get_string_len(val) > max)
				return bm_errorf(err, "submit: dut: '%s' is longer than %zu bytes",
						 key, max);
		}
		req->dut = v;
	}
	if (!json_object_object_get_ex(o, "ports", &ports)) {
		if (!req->dry_run)
			return bm_errorf(err, "submit: missing 'ports'");
		return 0;
	}
	if (check_fields(ports, f_ports, NULL, "submit: ports", err))
		return -EINVAL;
	if (json_object_object_get_ex(ports, "tx", &v))
		req->tx_port = json_object_get_string(v);
	if (json_object_object_get_ex(ports, "rx", &v))
		req->rx_port = json_object_get_string(v);
	if (json_object_object_get_ex(ports, "list", &v)) {
		if (parse_port_list(req, v, err))
			return -EINVAL;
	} else {
		/* A dry run may name no ports (only a line rate); a real
		 * run needs both, and both or neither keeps the queue's
		 * port logic simple. */
		if (!req->tx_port != !req->rx_port ||
		    (!req->tx_port && !req->dry_run))
			return bm_errorf(err, "submit: ports: need both 'tx' and 'rx', or 'list'");
		if (req->tx_port &&
		    (!port_label_ok(req->tx_port) ||
		     !port_label_ok(req->rx_port)))
			return bm_errorf(err, "submit: ports: bad interface name (IFNAME or HOST:IFNAME, at most %d characters)",
					 BM_BACKEND_PORT_NAME - 1);
		if (req->tx_port) {
			req->ports[0] = req->tx_port;
			req->ports[1] = req->rx_port;
			req->n_ports = 2;
		}
	}
	if (json_object_object_get_ex(ports, "line_rate_bps", &v)) {
		req->line_rate_bps = json_object_get_double(v);
		if (!isfinite(req->line_rate_bps) || req->line_rate_bps <= 0 ||
		    req->line_rate_bps > 1e13)
			return bm_errorf(err, "submit: ports: line_rate_bps must be > 0 and <= 1e13");
	}
	if (json_object_object_get_ex(ports, "sync_tolerance_us", &v)) {
		req->sync_tolerance_us = json_object_get_double(v);
		if (!isfinite(req->sync_tolerance_us) ||
		    req->sync_tolerance_us <= 0 ||
		    req->sync_tolerance_us > 1e6)
			return bm_errorf(err, "submit: ports: sync_tolerance_us must be > 0 and <= 1e6 (us)");
	}
	return 0;
}

/* A request is JSON exactly as RFC 8259 has it: bm_json_parse_strict()
 * (no comments, single quotes, NaN, duplicate names ...), nested at most
 * 32 deep. */
static int parse_json(const char *line, size_t len, json_object **out,
		      struct bm_error *err)
{
	const char *why;
	size_t at;

	*out = bm_json_parse_strict(line, len, 32, &why, &at);
	if (why)
		return bm_errorf(err, "malformed JSON: %s at byte %zu", why,
				 at);
	return 0;
}

int bm_request_parse(const char *line, size_t len, struct bm_request *req,
		     struct bm_error *err)
{
	static const char *const common[] = { "id", "cmd", NULL };
	json_object *v;
	const char *name;
	char buf[65];
	size_t bad;
	int i;

	memset(req, 0, sizeof(*req));
	if (len > BM_PROTO_MAX_LINE)
		return bm_errorf(err, "request too long (max %d bytes)",
				 BM_PROTO_MAX_LINE);
	if (parse_json(line, len, &req->obj, err))
		return -EINVAL;
	if (!json_object_is_type(req->obj, json_type_object))
		return bm_errorf(err, "request must be a JSON object");
	if (!json_object_object_get_ex(req->obj, "id", &v))
		return bm_errorf(err, "missing 'id'");
	if (!json_object_is_type(v, json_type_int))
		return bm_errorf(err, "'id' must be an integer");
	req->id = json_object_get_int64(v);
	req->has_id = true;
	/*
	 * JSON text between systems must be UTF-8 (RFC 8259 §8.1) and json-c
	 * passes any bytes through, so a string of ill-formed UTF-8 would be
	 * quoted in our error or stored in a job and a result.  Refuse the
	 * line, after the id so that the client can match the refusal, and
	 * name the offset, never the bytes.
	 */
	bad = bm_utf8_check(line, len);
	if (bad < len)
		return bm_errorf(err, "malformed JSON: invalid UTF-8 at byte %zu",
				 bad);
	if (!json_object_object_get_ex(req->obj, "cmd", &v))
		return bm_errorf(err, "missing 'cmd'");
	if (!json_object_is_type(v, json_type_string))
		return bm_errorf(err, "'cmd' must be a string");
	name = json_object_get_string(v);
	for (i = 0; i < BM_CMD__COUNT; i++)
		if (!strcmp(name, cmd_names[i]))
			break;
	if (i == BM_CMD__COUNT)
		return bm_errorf(err, "unknown cmd '%s'", clip(name, buf));
	req->cmd = i;
	if (check_fields(req->obj, cmd_fields[i], common, cmd_names[i], err))
		return -EINVAL;
	if (json_object_object_get_ex(req->obj, "job", &v)) {
		req->job = json_object_get_int64(v);
		if (req->job <= 0)
			return bm_errorf(err, "%s: 'job' must be > 0", name);
	}
	if (json_object_object_get_ex(req->obj, "history", &v))
		req->history = json_object_get_boolean(v);
	if (req->cmd == BM_CMD_SUBMIT)
		return parse_submit(req, err);
	if (req->cmd == BM_CMD_PROCEDURE) {
		json_object_object_get_ex(req->obj, "procedure", &v);
		req->procedure = json_object_get_string(v);
		if (!procname_ok(req->procedure))
			return bm_errorf(err, "procedure: bad procedure name '%s'",
					 clip(req->procedure, buf));
	}
	return 0;
}

void bm_request_free(struct bm_request *req)
{
	json_object_put(req->obj);
	memset(req, 0, sizeof(*req));
}

/* --- responses ---------------------------------------------------------- */

static json_object *response_new(int64_t id, bool has_id, bool ok)
{
	json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	json_object_object_add(o, "id", has_id ? json_object_new_int64(id)
					       : NULL);
	json_object_object_add(o, "ok", json_object_new_boolean(ok));
	return o;
}

json_object *bm_response_ok(int64_t id, bool has_id)
{
	return response_new(id, has_id, true);
}

json_object *bm_response_error(int64_t id, bool has_id, const char *msg)
{
	return bm_response_refusal(id, has_id, msg, false);
}

json_object *bm_response_refusal(int64_t id, bool has_id, const char *msg,
				 bool usage)
{
	json_object *o = response_new(id, has_id, false);

	if (o) {
		json_object_object_add(o, "error", json_object_new_string(msg));
		if (usage)
			json_object_object_add(o, "usage",
					       json_object_new_boolean(true));
	}
	return o;
}

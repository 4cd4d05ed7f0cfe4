/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The bmd <-> bmctl protocol: newline-delimited JSON objects over a Unix
 * stream socket (Documentation/protocol.md).  Framing, request validation
 * and the client side live here so that both programs and the unit tests
 * share one definition.
 */
#ifndef BM_PROTO_H
#define BM_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "bm_trial.h"

#define BM_PROTO_VERSION	1
#define BM_PROTO_MAX_LINE	(1024 * 1024)	/* bytes, without the '\n' */
/* The longest line a client takes from bmd: a result is one line, and
 * bmd streams it from its file whatever its size. */
#define BM_PROTO_MAX_REPLY	(512u * 1024 * 1024)
#define BM_DEFAULT_SOCKET	"/run/bmd/bmd.sock"
#define BM_DEFAULT_RESULTS	"/var/lib/bmgen/results"
/* A submit's ports.list names 2 to this many ports: as many as a backend
 * can name (RFC 8239 procedures need up to 256). */
#define BM_PROTO_MAX_PORTS	BM_BACKEND_MAX_PORTS

/* --- framing ------------------------------------------------------------ */

/* Receive buffer that splits a byte stream into lines of at most max
 * bytes; longer lines are reported once and skipped. */
struct bm_linebuf {
	char *buf;
	size_t len;		/* bytes held */
	size_t cap;
	size_t consumed;	/* bytes of buf already handed out */
	bool discarding;	/* inside an oversize line, dropping to '\n' */
	size_t max;		/* longest line; 0 = BM_PROTO_MAX_LINE */
};

enum bm_line_status {
	BM_LINE_NONE = 0,	/* no complete line buffered */
	BM_LINE_OK,		/* *line is a NUL-terminated line */
	BM_LINE_TOO_LONG,	/* a line exceeded BM_PROTO_MAX_LINE */
};

/* Read once from fd into lb; bytes read, 0 on EOF, or -errno. */
ssize_t bm_linebuf_read(struct bm_linebuf *lb, int fd);

/* Append n bytes to lb (for callers that read themselves); 0 or -ENOMEM. */
int bm_linebuf_append(struct bm_linebuf *lb, const char *data, size_t n);

/* Next complete line; *line stays valid until the next call on lb. */
enum bm_line_status bm_linebuf_next(struct bm_linebuf *lb, char **line,
				    size_t *len);

/* Free the buffer of lb and zero it. */
void bm_linebuf_free(struct bm_linebuf *lb);

/* Serialise o as one protocol line (no inner newlines, '\n' appended,
 * always well-formed UTF-8: an ill-formed sequence inside a string becomes
 * U+FFFD); malloc'd string or NULL on ENOMEM.  *len gets its length. */
char *bm_proto_line(json_object *o, size_t *len);

/* Offset of the first byte of s[0..n) that is not part of well-formed
 * UTF-8 (RFC 3629: no overlong forms, surrogates or code points above
 * U+10FFFF), or n when all of it is. */
size_t bm_utf8_check(const char *s, size_t n);

/* --- requests ----------------------------------------------------------- */

enum bm_cmd {
	BM_CMD_STATUS = 0,
	BM_CMD_PROCEDURES,
	BM_CMD_SUBMIT,
	BM_CMD_JOBS,
	BM_CMD_JOB,
	BM_CMD_WATCH,
	BM_CMD_CANCEL,
	BM_CMD_RESULT,
	BM_CMD_PROCEDURE,	/* one procedure, its parameter schema */
	BM_CMD_PORTS,		/* the ports of bmd's host */
	BM_CMD__COUNT,
};

/* A validated request.  Borrowed pointers point into obj. */
struct bm_request {
	json_object *obj;	/* the whole request, owned */
	int64_t id;
	bool has_id;		/* false only for rejected requests */
	enum bm_cmd cmd;
	int64_t job;		/* job, watch, cancel, result */
	/* submit, procedure */
	const char *procedure;
	json_object *params;	/* object or NULL */
	const char *tx_port, *rx_port;	/* = ports[0], ports[1] */
	/* Every port of the job in the order given: ports.list, or tx and
	 * rx; n_ports = 0 when a dry run names none.  Names in a list are
	 * distinct; a tx/rx pair may name one port twice (looped back). */
	unsigned int n_ports;
	const char *ports[BM_PROTO_MAX_PORTS];
	double line_rate_bps;	/* 0 = not given */
	/* ports.sync_tolerance_us: a pool's tolerance of its hosts' clocks
	 * for this job (us; 0 = not given: bmd's) */
	double sync_tolerance_us;
	bool dry_run;
	json_object *sim;	/* object or NULL */
	json_object *dut;	/* descriptor (mode, name, software_version,
				 * configuration) or NULL */
	bool router;		/* dut.mode "router" (RFC 2544 App C) */
	bool history;		/* watch: replay every past event */
};

/* Name of cmd on the wire. */
const char *bm_cmd_name(enum bm_cmd cmd);

/*
 * Parse and validate one request line.  0 and *req filled (release with
 * bm_request_free), or -EINVAL with a one-line reason in err; even then
 * req->id/has_id are set when the id could be read, for the error reply.
 * A line that is not well-formed UTF-8 is refused, and the reason never
 * quotes the request's bytes, so err->msg is always well-formed UTF-8.
 */
int bm_request_parse(const char *line, size_t len, struct bm_request *req,
		     struct bm_error *err);

/* Release what bm_request_parse allocated. */
void bm_request_free(struct bm_request *req);

/* --- responses ---------------------------------------------------------- */

/* New {"id":id,"ok":true} (id null when !has_id); NULL on ENOMEM. */
json_object *bm_response_ok(int64_t id, bool has_id);

/* New {"id":id,"ok":false,"error":msg}; NULL on ENOMEM. */
json_object *bm_response_error(int64_t id, bool has_id, const char *msg);

/* As bm_response_error, with "usage": true when the request itself is
 * wrong (an unknown procedure, a bad parameter, too few ports), so that a
 * client tells a usage error from a refusal of the host's (busy, no
 * permission, no memory) as bmctl's exit status does (2 or 1). */
json_object *bm_response_refusal(int64_t id, bool has_id, const char *msg,
				 bool usage);

/* --- client ------------------------------------------------------------- */

struct bm_client {
	int fd;
	int64_t next_id;
	struct bm_linebuf lb;
	int pid;		/* the transport's process (ssh), else 0 */
};

/* Connect to the bmd socket at path.  0, or -errno with err->msg set
 * (-ENOENT/-ECONNREFUSED: bmd not running). */
int bm_client_open(struct bm_client *c, const char *path, struct bm_error *err);

/*
 * Talk to a bmd through a command that carries the protocol on its
 * standard input and output (argv[0] found on PATH): OpenSSH running
 * `bmctl bridge` on another host, whose keys, known_hosts and
 * authorisation are OpenSSH's and whose bmd sees the login user as its
 * peer.  Its standard error stays the caller's.  0, or -errno with
 * err->msg set.
 */
int bm_client_open_cmd(struct bm_client *c, char *const argv[],
		       struct bm_error *err);

/* Close the connection and free the buffers; a command's process is
 * waited for (it ends at the closed connection, as ssh does). */
void bm_client_close(struct bm_client *c);

/* Give req (an object with "cmd") a fresh id, send it; the id or -errno. */
int64_t bm_client_send(struct bm_client *c, json_object *req,
		       struct bm_error *err);

/*
 * Receive the next message.  timeout_ms < 0 waits forever.  0 and *msg
 * (owned by the caller), -ETIMEDOUT, -EINTR (a signal arrived: the caller
 * decides), -ECONNRESET on EOF, or another -errno; err->msg set.
 */
int bm_client_recv(struct bm_client *c, json_object **msg, int timeout_ms,
		   struct bm_error *err);

/*
 * Send req and wait for the response with its id (or a refusal with a
 * null id, which answers the connection).  0 and *resp when "ok" is true;
 * -EREMOTEIO with the daemon's error in err->msg (and *resp still set)
 * when it is false; other -errno on transport errors.
 */
int bm_client_call(struct bm_client *c, json_object *req, json_object **resp,
		   struct bm_error *err);

#endif /* BM_PROTO_H */

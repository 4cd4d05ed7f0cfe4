// SPDX-License-Identifier: GPL-2.0
/* Client side of the bmd protocol (bm_proto.h): used by bmctl and tests. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bm_proto.h"

/* c unconnected, with its first id and the reply size bound. */
static void client_init(struct bm_client *c)
{
	memset(c, 0, sizeof(*c));
	c->fd = -1;
	c->next_id = 1;
	c->lb.max = BM_PROTO_MAX_REPLY;
}

int bm_client_open(struct bm_client *c, const char *path, struct bm_error *err)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd, e;

	client_init(c);
	if (strlen(path) >= sizeof(sa.sun_path)) {
		bm_errorf(err, "socket path too long: %s", path);
		return -ENAMETOOLONG;
	}
	strcpy(sa.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		e = errno;
		bm_errorf(err, "socket: %s", strerror(e));
		return -e;
	}
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		e = errno;
		close(fd);
		if (e == ENOENT || e == ECONNREFUSED)
			bm_errorf(err, "bmd not running (%s: %s)", path,
				  strerror(e));
		else
			bm_errorf(err, "cannot connect to bmd at %s: %s", path,
				  strerror(e));
		return -e;
	}
	c->fd = fd;
	return 0;
}

int bm_client_open_cmd(struct bm_client *c, char *const argv[],
		       struct bm_error *err)
{
	int sv[2], e;
	pid_t pid;

	client_init(c);
	/* one socket both ways: the client's send() and poll() as with
	 * bmd's own socket */
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv)) {
		e = errno;
		bm_errorf(err, "socketpair: %s", strerror(e));
		return -e;
	}
	pid = fork();
	if (pid < 0) {
		e = errno;
		close(sv[0]);
		close(sv[1]);
		bm_errorf(err, "fork: %s", strerror(e));
		return -e;
	}
	if (!pid) {
		if (dup2(sv[1], 0) < 0 || dup2(sv[1], 1) < 0)
			_exit(127);
		execvp(argv[0], argv);
		fprintf(stderr, "%s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(sv[1]);
	c->fd = sv[0];
	c->pid = pid;
	return 0;
}

void bm_client_close(struct bm_client *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	if (c->pid > 0)
		while (waitpid(c->pid, NULL, 0) < 0 && errno == EINTR)
			;
	c->pid = 0;
	bm_linebuf_free(&c->lb);
}

static int send_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = send(fd, p, n, MSG_NOSIGNAL);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += w;
		n -= w;
	}
	return 0;
}

int64_t bm_client_send(struct bm_client *c, json_object *req,
		       struct bm_error *err)
{
	int64_t id = c->next_id++;
	size_t len;
	char *line;
	int ret;

	json_object_object_add(req, "id", json_object_new_int64(id));
	line = bm_proto_line(req, &len);
	if (!line) {
		bm_errorf(err, "out of memory");
		return -ENOMEM;
	}
	ret = send_all(c->fd, line, len);
	free(line);
	if (ret) {
		bm_errorf(err, "send to bmd: %s", strerror(-ret));
		return ret;
	}
	return id;
}

int bm_client_recv(struct bm_client *c, json_object **msg, int timeout_ms,
		   struct bm_error *err)
{
	struct pollfd pfd = { .fd = c->fd, .events = POLLIN };
	enum bm_line_status st;
	size_t len;
	char *line;
	ssize_t n;
	int r;

	*msg = NULL;
	for (;;) {
		st = bm_linebuf_next(&c->lb, &line, &len);
		if (st == BM_LINE_TOO_LONG) {
			bm_errorf(err, "bmd sent an oversize line");
			return -EPROTO;
		}
		if (st == BM_LINE_OK) {
			*msg = json_tokener_parse(line);
			if (!*msg || !json_object_is_type(*msg,
							  json_type_object)) {
				json_object_put(*msg);
				*msg = NULL;
				bm_errorf(err, "bmd sent malformed JSON");
				return -EPROTO;
			}
			return 0;
		}
		r = poll(&pfd, 1, timeout_ms);
		if (r < 0) {
			r = -errno;
			bm_errorf(err, "poll: %s", strerror(-r));
			return r;
		}
		if (r == 0) {
			bm_errorf(err, "timed out waiting for bmd");
			return -ETIMEDOUT;
		}
		n = bm_linebuf_read(&c->lb, c->fd);
		if (n == -EINTR || n == -EAGAIN)
			continue;
		if (n < 0) {
			bm_errorf(err, "read from bmd: %s", strerror(-n));
			return n;
		}
		if (n == 0) {
			bm_errorf(err, "bmd closed the connection");
			return -ECONNRESET;
		}
	}
}

/* Is m a refusal without an id, which answers the connection (bmd refused
 * the peer, or could not read the request) rather than one request? */
static bool refusal_without_id(json_object *m)
{
	json_object *v;

	if (json_object_object_get_ex(m, "id", &v) && v)
		return false;
	return json_object_object_get_ex(m, "ok", &v) &&
	       !json_object_get_boolean(v);
}

int bm_client_call(struct bm_client *c, json_object *req, json_object **resp,
		   struct bm_error *err)
{
	struct bm_error e2 = { "" };
	json_object *m, *v;
	int64_t id;
	int ret;

	*resp = NULL;
	id = bm_client_send(c, req, err);
	if (id == -EPIPE || id == -ECONNRESET) {
		/* bmd hung up before our request went out: what it sent
		 * first (a refusal of this peer) says why. */
		if (!bm_client_recv(c, &m, 0, &e2)) {
			if (refusal_without_id(m))
				goto answer;
			json_object_put(m);
		}
		return id;
	}
	if (id < 0)
		return id;
	for (;;) {
		ret = bm_client_recv(c, &m, -1, err);
		if (ret == -EINTR)
			continue;
		if (ret)
			return ret;
		/* Messages for other ids (a watch stream on the same
		 * connection) are not ours to consume here; a refusal
		 * without an id is: waiting on would end in "bmd closed the
		 * connection" and lose the reason. */
		if (json_object_object_get_ex(m, "id", &v) &&
		    json_object_get_int64(v) == id)
			break;
		if (refusal_without_id(m))
			break;
		json_object_put(m);
	}
answer:
	*resp = m;
	if (json_object_object_get_ex(m, "ok", &v) &&
	    json_object_get_boolean(v))
		return 0;
	if (json_object_object_get_ex(m, "error", &v))
		bm_errorf(err, "%s", json_object_get_string(v));
	else
		bm_errorf(err, "bmd refused the request");
	return -EREMOTEIO;
}

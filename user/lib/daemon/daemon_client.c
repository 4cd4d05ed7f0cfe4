// SPDX-License-Identifier: GPL-2.0
/*
 * bmd: what reaches the poll loop and the clients from anywhere, a job's
 * worker included: the loop's wake-up, each client's output buffer (a
 * client only ever gets bytes queued in its own, so a slow or vanished
 * client stalls nothing but itself, and never a job), and broadcasts to
 * the clients that watch a job.
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

void bmd_wake(struct bmd *d)
{
	uint64_t one = 1;
	ssize_t n;

	n = write(d->wake_fd, &one, sizeof(one));
	(void)n;	/* EAGAIN: a wakeup is already pending */
}

void bmd_stop(struct bmd *d)
{
	d->stop = 1;
	bmd_wake(d);
}

/* Bytes queued for c and not yet sent. */
size_t client_unsent(const struct bmd_client *c)
{
	return c->out_len - c->out_off + c->held_len;
}

/* Grow *buf (holding *len of *cap bytes) by n bytes from p; false when
 * out of memory. */
static bool buf_append(char **buf, size_t *len, size_t *cap, const char *p,
		       size_t n)
{
	size_t c = *cap ? *cap : 4096;
	char *b;

	if (*len + n > *cap) {
		while (c < *len + n)
			c *= 2;
		b = realloc(*buf, c);
		if (!b)
			return false;
		*buf = b;
		*cap = c;
	}
	memcpy(*buf + *len, p, n);
	*len += n;
	return true;
}

/* Append n bytes to c's output or, while a result streams, to what is
 * held until it ends; false when out of memory. */
bool client_append(struct bmd_client *c, const char *p, size_t n,
		   bool hold)
{
	if (hold)
		return buf_append(&c->held, &c->held_len, &c->held_cap, p, n);
	if (c->out_off) {
		memmove(c->out, c->out + c->out_off, c->out_len - c->out_off);
		c->out_len -= c->out_off;
		c->out_off = 0;
	}
	if (!buf_append(&c->out, &c->out_len, &c->out_cap, p, n))
		return false;
	if (c->out_cap > c->d->output_peak)
		c->d->output_peak = c->out_cap;
	return true;
}

size_t bmd_output_peak(struct bmd *d)
{
	size_t n;

	pthread_mutex_lock(&d->lock);
	n = d->output_peak;
	pthread_mutex_unlock(&d->lock);
	return n;
}

/*
 * Queue msg for c.  A reply is always queued: bmd reads a client's next
 * request only while its unsent output is below max-output, so replies
 * never pile up.  An event (progress, end) to a watcher that lets its
 * backlog pass max-output drops that watcher rather than let bmd's
 * memory grow (up to 64 MiB a client before); its job goes on.
 */
static void client_queue_(struct bmd *d, struct bmd_client *c,
			  json_object *msg, bool event)
{
	size_t len;
	char *line;

	if (c->dead)
		return;
	line = bm_proto_line(msg, &len);
	if (!line || (event && client_unsent(c) + len > d->max_output) ||
	    !client_append(c, line, len, c->stream_fd >= 0))
		c->dead = true;
	free(line);
}

void client_queue(struct bmd_client *c, json_object *msg)
{
	client_queue_(c->d, c, msg, false);
}

void client_flush(struct bmd_client *c)
{
	while (!c->dead && c->out_off < c->out_len) {
		ssize_t n = send(c->fd, c->out + c->out_off,
				 c->out_len - c->out_off,
				 MSG_NOSIGNAL | MSG_DONTWAIT);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		if (n <= 0) {
			c->dead = true;
			return;
		}
		c->out_off += n;
		c->last_active = bm_mono_s();
	}
}

void clients_broadcast(struct bmd *d, unsigned long job, json_object *msg,
		       bool end)
{
	struct bmd_client *c;

	for (c = d->clients; c; c = c->next) {
		/* a replaying watcher reads this from the job's events file,
		 * in order, and the end once it has read them all */
		if (c->watch_job != job || c->replay_fd >= 0)
			continue;
		json_object_object_add(msg, "id",
				       json_object_new_int64(c->watch_id));
		client_queue_(d, c, msg, true);
		if (end)
			c->watch_job = 0;
	}
	bmd_wake(d);
}

void reply_error(struct bmd_client *c, int64_t id, bool has_id,
		 const char *msg)
{
	reply_refusal(c, id, has_id, msg, false);
}

void reply_refusal(struct bmd_client *c, int64_t id, bool has_id,
		   const char *msg, bool usage)
{
	json_object *r = bm_response_refusal(id, has_id, msg, usage);

	client_queue(c, r);
	json_object_put(r);
}

/* Does c hold the start of a request line whose end has not come (or
 * one too long, being skipped)?  Complete lines waiting for their turn
 * are bmd's delay, not the client's. */
bool client_partial(const struct bmd_client *c)
{
	const struct bm_linebuf *b = &c->in;
	size_t n = b->len - b->consumed;

	if (b->discarding)
		return true;
	return n && !memchr(b->buf + b->consumed, '\n', n);
}

void client_free(struct bmd_client *c)
{
	close(c->fd);
	if (c->replay_fd >= 0)
		close(c->replay_fd);
	if (c->stream_fd >= 0)
		close(c->stream_fd);
	free(c->stream_tail);
	free(c->held);
	bm_linebuf_free(&c->replay);
	bm_linebuf_free(&c->in);
	free(c->out);
	free(c);
}

/* Is c idle: no watch, nothing to send, nothing streaming? */
bool client_idle(const struct bmd_client *c)
{
	return !c->watch_job && !client_unsent(c) && c->stream_fd < 0 &&
	       c->replay_fd < 0;
}

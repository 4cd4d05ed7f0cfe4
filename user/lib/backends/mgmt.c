// SPDX-License-Identifier: GPL-2.0
/*
 * RFC 2544 §11.2 management queries during a module trial: bm_mgmt.h.
 *
 * One thread per trial: query k (k = 0 .. n-1) leaves at t0 + k x
 * interval with request-id base + k; between sends, and for a second
 * after the last, the socket is read in slices of at most 50 ms, so a
 * stop ends it within one.  An answer counts once, for the query whose
 * request-id it carries; one that matches no query, or a second answer to
 * the same, is counted as an error, never as an answer.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "backend_genl_int.h"
#include "bm_mgmt.h"
#include "bm_snmp.h"

#define ANSWER_WAIT_S	1.0	/* after the last query */

struct bm_mgmt_run {
	struct bm_mgmt_spec m;
	struct bm_snmp_oid oids[BM_SNMP_C243_VARS];
	int fd;
	double t0, duration_s;
	unsigned int n;			/* queries to send */
	int32_t base;			/* request-id of query 0 */
	uint8_t *answered;		/* per query */
	uint32_t sent, n_answered, verified;
	char error[96];
	atomic_bool stop;
	pthread_t thread;
};

/* Request-ids differ from trial to trial, so that a late answer to an
 * earlier trial's query is never taken for one of this trial's. */
static atomic_int next_base = 1;

static void note_error(struct bm_mgmt_run *q, const char *fmt, const char *a)
{
	if (!q->error[0])
		snprintf(q->error, sizeof(q->error), fmt, a);
}

static void take_answer(struct bm_mgmt_run *q, const uint8_t *buf, size_t n)
{
	struct bm_snmp_response r;
	char why[72];
	int64_t k;

	if (bm_snmp_parse_response(buf, n, &r, why, sizeof(why))) {
		note_error(q, "malformed answer: %s", why);
		return;
	}
	k = (int64_t)r.request_id - q->base;
	if (k < 0 || k >= q->sent) {
		note_error(q, "%s", "an answer to no query of this trial");
		return;
	}
	if (q->answered[k]) {
		note_error(q, "%s", "a second answer to one query");
		return;
	}
	q->answered[k] = 1;
	q->n_answered++;
	if (bm_snmp_verify(&r, q->m.community, r.request_id, q->oids,
			   BM_SNMP_C243_VARS, why, sizeof(why)))
		note_error(q, "answer not verified: %s", why);
	else
		q->verified++;
}

/* Read answers until the monotonic time until (or a stop). */
static void read_until(struct bm_mgmt_run *q, double until)
{
	struct pollfd pfd = { .fd = q->fd, .events = POLLIN };
	uint8_t buf[2048];
	double left;
	ssize_t n;

	while (!atomic_load(&q->stop) && (left = until - bm_mono_s()) > 0) {
		if (poll(&pfd, 1, (int)ceil(fmin(left, 0.05) * 1000)) <= 0)
			continue;
		n = recv(q->fd, buf, sizeof(buf), MSG_DONTWAIT);
		if (n > 0)
			take_answer(q, buf, (size_t)n);
	}
}

static void *run(void *arg)
{
	struct bm_mgmt_run *q = arg;
	uint8_t req[BM_SNMP_MAX_MSG];
	unsigned int k;
	size_t len;

	for (k = 0; k < q->n && !atomic_load(&q->stop); k++) {
		read_until(q, q->t0 + k * q->m.interval_s);
		if (atomic_load(&q->stop))
			break;
		len = bm_snmp_get_request(req, sizeof(req), q->m.community,
					  q->base + (int32_t)k, q->oids,
					  BM_SNMP_C243_VARS);
		if (!len) {
			note_error(q, "%s", "the query does not encode");
			break;
		}
		if (send(q->fd, req, len, 0) == (ssize_t)len)
			q->sent++;
		else
			note_error(q, "query not sent: %s", strerror(errno));
	}
	read_until(q, q->t0 + fmax(q->duration_s,
				   (q->n ? q->n - 1 : 0) * q->m.interval_s) +
		      ANSWER_WAIT_S);
	return NULL;
}

int bm_mgmt_start(struct bm_mgmt_run **out, const struct bm_mgmt_spec *m,
		  const char *ifname, const uint8_t src_ip4[4], double t0,
		  double duration_s, struct bm_error *err)
{
	struct sockaddr_in src = { .sin_family = AF_INET };
	struct sockaddr_in dst = { .sin_family = AF_INET,
				   .sin_port = htons(161) };
	struct bm_mgmt_run *q = calloc(1, sizeof(*q));
	int ret;

	if (!q)
		return bm_errorf(err, "out of memory"), -ENOMEM;
	q->fd = -1;
	q->m = *m;
	q->t0 = t0;
	q->duration_s = duration_s;
	q->n = bm_mgmt_queries(m, duration_s);
	q->base = atomic_fetch_add(&next_base, (int)q->n + 1) & 0x3fffffff;
	bm_snmp_c243_oids(m->ifindex, q->oids);
	q->answered = calloc(q->n ? q->n : 1, 1);
	if (q->answered)
		q->fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (!q->answered || q->fd < 0) {
		ret = -errno;
		bm_errorf(err, "management queries: %s", strerror(errno));
		goto fail;
	}
	memcpy(&src.sin_addr, src_ip4, 4);
	memcpy(&dst.sin_addr, m->agent_ip4, 4);
	if (setsockopt(q->fd, SOL_SOCKET, SO_BINDTODEVICE, ifname,
		       (socklen_t)strlen(ifname)) ||
	    bind(q->fd, (struct sockaddr *)&src, sizeof(src)) ||
	    connect(q->fd, (struct sockaddr *)&dst, sizeof(dst))) {
		ret = -errno;
		bm_errorf(err, "management queries from %s (%u.%u.%u.%u): %s",
			  ifname, src_ip4[0], src_ip4[1], src_ip4[2],
			  src_ip4[3], strerror(errno));
		goto fail;
	}
	ret = -pthread_create(&q->thread, NULL, run, q);
	if (ret) {
		bm_errorf(err, "management queries: %s", strerror(-ret));
		goto fail;
	}
	*out = q;
	return 0;
fail:
	if (q->fd >= 0)
		close(q->fd);
	free(q->answered);
	free(q);
	return ret ? ret : -EIO;
}

void bm_mgmt_finish(struct bm_mgmt_run *q, bool stop,
		    struct bm_trial_result *res)
{
	if (!q)
		return;
	if (stop)
		atomic_store(&q->stop, true);
	pthread_join(q->thread, NULL);
	res->mgmt_sent = q->sent;
	res->mgmt_answered = q->n_answered;
	res->mgmt_verified = q->verified;
	snprintf(res->mgmt_error, sizeof(res->mgmt_error), "%s", q->error);
	bm_mgmt_note_unanswered(res);
	close(q->fd);
	free(q->answered);
	free(q);
}

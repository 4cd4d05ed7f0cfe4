// SPDX-License-Identifier: GPL-2.0
/*
 * RIP routing updates around a module trial: bm_rip_send.h.
 *
 * A packet socket per message (they are few: at most BM_TRAFFIC_MAX_RIP),
 * its frame built once.  The thread sleeps to each send in slices of at
 * most 50 ms, so that a stop ends it within one.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <net/if.h>
#include <netpacket/packet.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/if_ether.h>

#include "backend_genl_int.h"
#include "bm_hosts.h"
#include "bm_rip_send.h"

struct bm_rip_run {
	unsigned int n;
	struct {
		struct bm_rip_msg m;
		int fd;
		uint8_t frame[BM_RIP_MAX_FRAME];
		size_t len;
		double next;		/* monotonic s of the next send */
		uint32_t sent;
	} msg[BM_TRAFFIC_MAX_RIP];
	double t_pre, end;
	char error[96];
	atomic_bool stop;
	bool thread;
	pthread_t tid;
};

static int msg_open(struct bm_rip_run *q, unsigned int k,
		    const struct bm_traffic *t, struct bm_error *err)
{
	const char *name = t->ports[q->msg[k].m.port].name;
	struct sockaddr_ll sll = { .sll_family = AF_PACKET };
	uint8_t src[4];
	struct ifreq ifr;
	int fd, ret;

	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", name);
	fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
	q->msg[k].fd = fd;
	if (fd < 0 || ioctl(fd, SIOCGIFHWADDR, &ifr) ||
	    !(sll.sll_ifindex = (int)if_nametoindex(name)) ||
	    bind(fd, (struct sockaddr *)&sll, sizeof(sll))) {
		ret = -errno;
		bm_errorf(err, "routing updates from %s: %s", name,
			  strerror(-ret));
		return ret;
	}
	memcpy(src, t->ports[q->msg[k].m.port].ip4, 4);
	src[3] = 10;		/* the phantom router (C.2.2.2) */
	q->msg[k].len = bm_rip_frame(q->msg[k].frame,
				     sizeof(q->msg[k].frame),
				     (const uint8_t *)ifr.ifr_hwaddr.sa_data,
				     src, q->msg[k].m.routes, q->msg[k].m.n);
	if (!q->msg[k].len)
		return bm_errorf(err, "routing update %u does not encode", k),
		       -EINVAL;
	return 0;
}

static void msg_send(struct bm_rip_run *q, unsigned int k)
{
	if (send(q->msg[k].fd, q->msg[k].frame, q->msg[k].len, 0) ==
	    (ssize_t)q->msg[k].len)
		q->msg[k].sent++;
	else if (!q->error[0])
		snprintf(q->error, sizeof(q->error), "routing update %u not "
			 "sent: %s", k, strerror(errno));
}

static void rip_free(struct bm_rip_run *q)
{
	unsigned int k;

	for (k = 0; k < q->n; k++)
		if (q->msg[k].fd >= 0)
			close(q->msg[k].fd);
	free(q);
}

int bm_rip_pre(struct bm_rip_run **out, const struct bm_traffic *t,
	       const char *host, double *lead_s, struct bm_error *err)
{
	struct bm_rip_run *q = calloc(1, sizeof(*q));
	unsigned int k;
	int ret;

	*out = NULL;
	*lead_s = 0;
	if (!q)
		return bm_errorf(err, "out of memory"), -ENOMEM;
	for (k = 0; k < t->n_rip && k < BM_TRAFFIC_MAX_RIP; k++) {
		q->msg[k].m = t->rip[k];
		q->msg[k].fd = -1;
		q->n = k + 1;
		/* another host's port: its part sends this one */
		if (host && !bm_port_on_host(&t->ports[t->rip[k].port], host))
			continue;
		ret = msg_open(q, k, t, err);
		if (ret) {
			rip_free(q);
			return ret;
		}
	}
	q->t_pre = bm_mono_s();
	for (k = 0; k < q->n; k++)
		if (q->msg[k].fd >= 0 && q->msg[k].m.at_s < 0) {
			msg_send(q, k);
			*lead_s = fmax(*lead_s, -q->msg[k].m.at_s);
		}
	if (q->error[0]) {
		bm_errorf(err, "%s", q->error);
		rip_free(q);
		return -EIO;
	}
	*out = q;
	return 0;
}

static void *run(void *arg)
{
	struct bm_rip_run *q = arg;
	unsigned int k, best;
	double left;

	for (;;) {
		best = q->n;
		for (k = 0; k < q->n; k++)
			if (q->msg[k].next < q->end &&
			    (best == q->n || q->msg[k].next < q->msg[best].next))
				best = k;
		if (best == q->n)
			return NULL;
		while (!atomic_load(&q->stop) &&
		       (left = q->msg[best].next - bm_mono_s()) > 0)
			bm_sleep_s(fmin(left, 0.05));
		if (atomic_load(&q->stop))
			return NULL;
		msg_send(q, best);
		q->msg[best].next = q->msg[best].m.every_s > 0 ?
				    q->msg[best].next + q->msg[best].m.every_s :
				    INFINITY;
	}
}

int bm_rip_start(struct bm_rip_run *q, double t0, double duration_s,
		 struct bm_error *err)
{
	const struct bm_rip_msg *m;
	unsigned int k;
	int ret;

	if (!q || !q->n)
		return 0;
	/* none at the very end, as bm_rip_sends() counts them */
	q->end = t0 + duration_s - 1e-9;
	for (k = 0; k < q->n; k++) {
		m = &q->msg[k].m;
		if (q->msg[k].fd < 0)
			q->msg[k].next = INFINITY;	/* another host's */
		else if (m->at_s >= 0)
			q->msg[k].next = t0 + m->at_s;
		else if (m->every_s > 0)
			/* the first repeat at or after the start */
			q->msg[k].next = q->t_pre + m->every_s *
				fmax(1.0, ceil((t0 - q->t_pre) / m->every_s -
					       1e-9));
		else
			q->msg[k].next = INFINITY;
	}
	ret = -pthread_create(&q->tid, NULL, run, q);
	if (ret)
		return bm_errorf(err, "routing updates: %s", strerror(-ret)),
		       ret;
	q->thread = true;
	return 0;
}

void bm_rip_finish(struct bm_rip_run *q, bool stop,
		   struct bm_trial_result *res)
{
	unsigned int k;

	if (!q)
		return;
	if (stop)
		atomic_store(&q->stop, true);
	if (q->thread)
		pthread_join(q->tid, NULL);
	for (k = 0; k < q->n; k++)
		res->rip_sent[k] = q->msg[k].sent;
	snprintf(res->rip_error, sizeof(res->rip_error), "%s", q->error);
	rip_free(q);
}

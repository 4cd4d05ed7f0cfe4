// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel TCP engine (bm_tcp_engine.h, SPEC PLAT-TCP REQ-TCP-1..4).
 *
 * start() gives every port of the session a routing domain, opens a
 * listener on each server port and connects every client, all bound to
 * their ports' VRFs, then hands the sockets to one thread that runs the
 * patterns from an epoll loop: bulk writes while the socket takes data,
 * micro bursts on their clock, scripts step by step (TM-TTP), and
 * TCP_INFO sampled every second (REQ-TCP-2).  mark() and stop() talk to
 * that thread under the session's lock.
 *
 * This file holds the engine's operations and its session's life; the
 * connections are made in tcp_setup.c, the thread is tcp_pump.c, the
 * results at the stop tcp_results.c (tcp_int.h has the session).
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "bm_tcp_engine.h"
#include "tcp_int.h"

struct engine {
	struct sess *s;
	bool router;		/* the job's DUT routes (RFC 2544 App C) */
};

bool bm_tcp_engine_available(char *why, size_t len)
{
	struct stat st;

	/* loaded, built in, or loadable: a VRF link can then be made */
	if (!stat("/sys/module/vrf", &st) ||
	    !stat("/proc/sys/net/vrf", &st))
		return true;
	{
		struct utsname u;
		char path[320];

		if (!uname(&u)) {
			snprintf(path, sizeof(path),
				 "/lib/modules/%s/kernel/drivers/net/vrf.ko",
				 u.release);
			if (!stat(path, &st))
				return true;
			snprintf(path, sizeof(path),
				 "/lib/modules/%s/kernel/drivers/net/vrf.ko.xz",
				 u.release);
			if (!stat(path, &st))
				return true;
		}
	}
	snprintf(why, len, "the kernel has no VRF support (the vrf module) "
		 "to keep TCP between local ports off the loopback");
	return false;
}

static int e_start(struct bm_backend *be, const struct bm_tcp_spec *spec,
		   struct bm_error *err)
{
	struct engine *e = be->tcp_priv;
	struct sess *s;
	unsigned int i;
	int ret;

	if (e->s)
		return bm_errorf(err, "a TCP session is already running"),
		       -EBUSY;
	if (!spec->n_conn || spec->n_conn > BM_TCP_MAX_CONN)
		return bm_errorf(err, "TCP: %u connections (1 .. %d)",
				 spec->n_conn, BM_TCP_MAX_CONN), -EINVAL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return bm_errorf(err, "out of memory"), -ENOMEM;
	s->be = be;
	s->router = e->router;
	s->spec = *spec;
	s->epfd = s->evfd = -1;
	for (i = 0; i < BM_BACKEND_MAX_PORTS; i++)
		s->lfd[i] = -1;
	for (i = 0; i < spec->n_conn; i++) {
		s->conn[i].spec = spec->conn[i];
		s->conn[i].c.fd = s->conn[i].s.fd = -1;
		s->conn[i].s.server = true;
	}
	memset(s->buf, 'b', sizeof(s->buf));
	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->cond, NULL);
	ret = tcp_setup_session(s, err);
	if (!ret) {
		/* the window is open from the start until a mark moves it */
		s->t_start = s->t_mark = bm_mono_s();
		for (i = 0; i < spec->n_conn; i++)
			s->conn[i].exec_t0 = s->t_start;
		ret = -pthread_create(&s->thread, NULL, tcp_pump_thread, s);
		if (ret)
			bm_errorf(err, "TCP engine thread: %s", strerror(-ret));
	}
	if (ret) {
		tcp_setup_close_all(s);
		pthread_mutex_destroy(&s->lock);
		pthread_cond_destroy(&s->cond);
		free(s);
		return ret;
	}
	s->running = true;
	e->s = s;
	return 0;
}

static void wake(struct sess *s)
{
	uint64_t one = 1;

	if (write(s->evfd, &one, sizeof(one)) < 0)
		errno = 0;
}

static int e_mark(struct bm_backend *be, struct bm_error *err)
{
	struct engine *e = be->tcp_priv;
	struct sess *s = e->s;

	if (!s)
		return bm_errorf(err, "no TCP session is running"), -EINVAL;
	pthread_mutex_lock(&s->lock);
	s->mark_req = true;
	s->mark_done = false;
	wake(s);
	while (!s->mark_done)
		pthread_cond_wait(&s->cond, &s->lock);
	pthread_mutex_unlock(&s->lock);
	return 0;
}

static void e_run_for(struct bm_backend *be, double sec, bool done_early)
{
	struct engine *e = be->tcp_priv;
	double end = bm_mono_s() + sec;

	while (bm_mono_s() < end) {
		if (done_early && e->s) {
			bool done;

			pthread_mutex_lock(&e->s->lock);
			done = e->s->done;
			pthread_mutex_unlock(&e->s->lock);
			if (done)
				return;
		}
		usleep(10000);
	}
}

static int e_stop(struct bm_backend *be, struct bm_tcp_result *res,
		  struct bm_error *err)
{
	struct engine *e = be->tcp_priv;
	struct sess *s = e->s;
	unsigned int i;

	memset(res, 0, sizeof(*res));
	if (!s)
		return bm_errorf(err, "no TCP session is running"), -EINVAL;
	pthread_mutex_lock(&s->lock);
	s->stop_req = true;
	wake(s);
	pthread_mutex_unlock(&s->lock);
	pthread_join(s->thread, NULL);
	s->t_stop = bm_mono_s();
	if (s->t_mark == 0)
		s->t_mark = s->t_start;
	/* the last reads, and a last RTT sample (REQ-TCP-2: "and at the
	 * end"); the window closes here */
	for (i = 0; i < s->spec.n_conn; i++) {
		struct conn *c = &s->conn[i];

		tcp_pump_drain(s, c, &c->c, s->t_stop);
		tcp_pump_drain(s, c, &c->s, s->t_stop);
		tcp_pump_sample(s, c);
		c->window_rx = c->s.rx + c->c.rx;
	}
	tcp_results_quiesce(s);
	res->n_conn = s->spec.n_conn;
	res->window_s = s->t_stop - s->t_mark;
	for (i = 0; i < s->spec.n_conn; i++) {
		tcp_results_conn(s, &s->conn[i], &res->conn[i]);
		res->goodput_bps += res->conn[i].goodput_bps;
	}
	tcp_results_stack(s, &res->stack);
	tcp_setup_close_all(s);
	pthread_mutex_destroy(&s->lock);
	pthread_cond_destroy(&s->cond);
	free(s);
	e->s = NULL;
	(void)err;
	return 0;
}

static const struct bm_tcp_ops engine_ops = {
	.start = e_start,
	.mark = e_mark,
	.run_for = e_run_for,
	.stop = e_stop,
};

int bm_tcp_engine_attach(struct bm_backend *be, bool router,
			 struct bm_error *err)
{
	struct engine *e = calloc(1, sizeof(*e));

	if (!e)
		return bm_errorf(err, "out of memory"), -ENOMEM;
	e->router = router;
	be->tcp = &engine_ops;
	be->tcp_priv = e;
	return 0;
}

void bm_tcp_engine_detach(struct bm_backend *be)
{
	struct engine *e = be->tcp_priv;
	struct bm_tcp_result res;
	struct bm_error err;

	if (!e || be->tcp != &engine_ops)
		return;
	if (e->s)
		e_stop(be, &res, &err);
	free(e);
	be->tcp = NULL;
	be->tcp_priv = NULL;
}

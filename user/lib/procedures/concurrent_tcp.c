// SPDX-License-Identifier: GPL-2.0
/*
 * rfc7640.concurrent's TCP (concurrent.c): the one stateful instance's
 * engine is the job's, its ports mapped to the job's and back; while its
 * connections run it takes no trial and holds none back, and on a
 * virtual clock it waits for the others' trials to carry the clock.
 * Apart from the trial barrier (concurrent_trial.c) because it is the
 * engine's operations over it, for one instance only.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#include "bm_tcp.h"
#include "concurrent_int.h"

static struct conc_inst *tcp_inst(struct bm_backend *be)
{
	return ((struct conc_be *)be)->in;
}

static void vlock(struct conc *c)
{
	if (c->be->virtual_clock)
		pthread_mutex_lock(&c->vlock);
}

static void vunlock(struct conc *c)
{
	if (c->be->virtual_clock)
		pthread_mutex_unlock(&c->vlock);
}

static int ctcp_start(struct bm_backend *be, const struct bm_tcp_spec *spec,
		      struct bm_error *err)
{
	struct conc_inst *in = tcp_inst(be);
	const struct conc_inst_params *ip = in->ip;
	struct conc *c = in->c;
	struct bm_tcp_spec *m = malloc(sizeof(*m));
	unsigned int i;
	int ret;

	if (!m)
		return bm_errorf(err, "out of memory"), -ENOMEM;
	*m = *spec;
	for (i = 0; i < m->n_conn; i++) {
		if (spec->conn[i].client >= ip->n_idx ||
		    spec->conn[i].server >= ip->n_idx) {
			free(m);
			return bm_errorf(err, "TCP connection %u: ports %u -> "
					 "%u of %u", i, spec->conn[i].client,
					 spec->conn[i].server, ip->n_idx),
			       -EINVAL;
		}
		m->conn[i].client = ip->idx[spec->conn[i].client];
		m->conn[i].server = ip->idx[spec->conn[i].server];
	}
	vlock(c);
	ret = c->be->tcp->start(c->be, m, err);
	pthread_mutex_lock(&c->lock);
	in->tcp_a = conc_now(c);
	pthread_mutex_unlock(&c->lock);
	vunlock(c);
	free(m);
	return ret;
}

static int ctcp_mark(struct bm_backend *be, struct bm_error *err)
{
	struct conc *c = tcp_inst(be)->c;
	int ret;

	vlock(c);
	ret = c->be->tcp->mark(c->be, err);
	vunlock(c);
	return ret;
}

/* Is an instance other than in still to take trials? */
static bool others_live(const struct conc *c, const struct conc_inst *in)
{
	unsigned int i;

	for (i = 0; i < c->n; i++)
		if (&c->in[i] != in && c->in[i].state != INST_FINISHED &&
		    c->in[i].state != INST_BACKGROUND)
			return true;
	return false;
}

static void ctcp_run_for(struct bm_backend *be, double s, bool done_early)
{
	struct conc_inst *in = tcp_inst(be);
	struct conc *c = in->c;
	double end = 0;

	if (c->be->virtual_clock) {
		/* now on the one clock: no trial runs while it is read */
		vlock(c);
		end = c->be->elapsed_s + s;
		pthread_mutex_lock(&c->lock);
		c->vnow = c->be->elapsed_s;
		vunlock(c);
	} else {
		pthread_mutex_lock(&c->lock);
	}
	in->state = INST_BACKGROUND;
	/* a waiter may run the trial it held back */
	pthread_cond_broadcast(&c->cond);
	if (c->be->virtual_clock) {
		/* the others' trials carry the clock; the rest of s, when
		 * they are done, passes here */
		while (c->vnow < end && others_live(c, in) && !c->stop)
			pthread_cond_wait(&c->cond, &c->lock);
		pthread_mutex_unlock(&c->lock);
		vlock(c);
		if (c->be->elapsed_s < end)
			c->be->tcp->run_for(c->be, end - c->be->elapsed_s,
					    done_early);
		pthread_mutex_lock(&c->lock);
		c->vnow = c->be->elapsed_s;
		pthread_mutex_unlock(&c->lock);
		vunlock(c);
	} else {
		pthread_mutex_unlock(&c->lock);
		c->be->tcp->run_for(c->be, s, done_early);
	}
	pthread_mutex_lock(&c->lock);
	in->state = INST_RUNNING;
	pthread_mutex_unlock(&c->lock);
}

static int ctcp_stop(struct bm_backend *be, struct bm_tcp_result *res,
		     struct bm_error *err)
{
	struct conc_inst *in = tcp_inst(be);
	const struct conc_inst_params *ip = in->ip;
	struct conc *c = in->c;
	unsigned int i, k;
	int ret;

	vlock(c);
	ret = c->be->tcp->stop(c->be, res, err);
	pthread_mutex_lock(&c->lock);
	conc_add_window(in, in->tcp_a, conc_now(c));
	pthread_mutex_unlock(&c->lock);
	vunlock(c);
	/* back to the instance's own port numbers (from the job's: a
	 * number mapped once is not looked up again) */
	for (i = 0; i < res->n_conn; i++) {
		unsigned int cl = res->conn[i].client, sv = res->conn[i].server;

		for (k = 0; k < ip->n_idx; k++) {
			if (ip->idx[k] == cl)
				res->conn[i].client = k;
			if (ip->idx[k] == sv)
				res->conn[i].server = k;
		}
	}
	return ret;
}

const struct bm_tcp_ops conc_tcp_ops = {
	.start = ctcp_start,
	.mark = ctcp_mark,
	.run_for = ctcp_run_for,
	.stop = ctcp_stop,
};

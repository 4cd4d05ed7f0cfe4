// SPDX-License-Identifier: GPL-2.0
/*
 * rfc7640.concurrent: TM-CONC (RFC 7640 §6.4), REQ-TM-9.  The draft
 * leaves the profiles open ("policers on ingress plus queuing on egress",
 * "policers on ingress plus shapers on egress, on different flows") and
 * lets their procedures be those of §§6.1-6.3; so an instance here is any
 * other rfc7640 procedure with its own parameters on its own ports of the
 * job, the ports of two instances disjoint (no flow is policed and then
 * shaped).
 *
 * Each instance runs in a thread of its own on a backend of its own, a
 * view of the job's over its ports.  The module runs one trial at a time,
 * so the instances' trials cannot each start their own: a trial waits
 * until every instance still running has asked for one, and then all of
 * them run as one trial (bm_traffic_merge()), whose results go back to
 * each as if it had run alone.  The instances thus load the DUT at the
 * same moments, on one time base (the trial's clock; the report lays
 * each instance's trials on the host's monotonic clock, or the simulated
 * DUT's), in lock step: an instance between two trials (a drain, a
 * pause) holds the others' next trial back until it asks for its own.
 * An instance that fails stops the others at their next trial; every
 * instance's result, finished or partial, is kept.
 *
 * One instance may run TCP (a stateful one: queue-stateful,
 * shaper-stateful, queue-capacity with stateful_apps; the engine runs one
 * session): its backend's engine is the job's, its ports mapped, and
 * while its connections run (run_for) it takes no trial and holds none
 * back, so the others' trials run beside its TCP (TM-CONC with stateful
 * traffic).  Its window on the time base is its session's.  On a virtual
 * clock (the simulated DUT) its run_for waits for the others' trials to
 * carry the clock to its end, and only the rest passes on its own: one
 * clock, advanced by one thread at a time.
 *
 * This file runs the instances, each in its thread; the parameters are
 * concurrent_params.c, the trial barrier concurrent_trial.c, the TCP
 * instance's engine concurrent_tcp.c and the result concurrent_result.c
 * (concurrent_int.h has the run's state).
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "concurrent_int.h"

static int conc_progress(void *ctx, const struct bm_trial_record *rec,
			 const char *status_line)
{
	struct conc_inst *in = ctx;
	struct conc *c = in->c;
	char line[320];
	int stop;

	pthread_mutex_lock(&c->lock);
	if (status_line)
		snprintf(line, sizeof(line), "[%u %s] %s", in->index + 1,
			 in->ip->pi->name + strlen(CONC_FAMILY), status_line);
	if (c->progress &&
	    c->progress(c->ctx, rec, status_line ? line : NULL))
		c->stop = true;
	stop = c->stop;
	pthread_mutex_unlock(&c->lock);
	return stop;
}

static void *inst_thread(void *arg)
{
	struct conc_inst *in = arg;
	struct conc *c = in->c;

	in->ret = in->ip->pi->run(in->ip->pi, in->ip->params, &in->w.be,
				  conc_progress, in, &in->result, &in->err);
	pthread_mutex_lock(&c->lock);
	/* the profile no longer holds: stop the others */
	if (in->ret && in->ret != -ECANCELED)
		c->stop = true;
	in->state = INST_FINISHED;
	conc_run_merged(c);
	/* a TCP instance waiting for the clock stops waiting for it */
	pthread_cond_broadcast(&c->cond);
	pthread_mutex_unlock(&c->lock);
	return NULL;
}

int conc_run(const struct bm_procedure_info *pi, json_object *params,
	     struct bm_backend *be, bm_progress_fn progress, void *ctx,
	     json_object **result, struct bm_error *err)
{
	struct conc_params p;
	struct conc *c;
	unsigned int i, k;
	int ret;

	*result = NULL;
	ret = conc_parse(pi, params, be->line_rate_bps, &p, err);
	c = ret ? NULL : calloc(1, sizeof(*c));
	if (!ret && !c)
		ret = bm_errorf(err, "out of memory");
	for (i = 0; !ret && i < p.n; i++)
		for (k = 0; k < p.inst[i].n_idx; k++)
			if (p.inst[i].idx[k] >= be->n_ports) {
				ret = bm_errorf(err, "%s: instances[%u].ports: "
						"port %u: the job has %u",
						pi->name, i + 1,
						p.inst[i].idx[k] + 1,
						be->n_ports);
				break;
			}
	if (ret) {
		free(c);
		conc_params_free(&p);
		return ret;
	}
	pthread_mutex_init(&c->lock, NULL);
	pthread_mutex_init(&c->vlock, NULL);
	pthread_cond_init(&c->cond, NULL);
	c->be = be;
	c->vnow = be->elapsed_s;
	c->progress = progress;
	c->ctx = ctx;
	c->n = p.n;
	for (i = 0; i < c->n; i++) {
		struct conc_inst *in = &c->in[i];
		const char *names[BM_BACKEND_MAX_PORTS];

		in->index = i;
		in->ip = &p.inst[i];
		in->c = c;
		in->w.be = *be;
		in->w.be.ops = &conc_be_ops;
		in->w.be.priv = NULL;
		in->w.be.reset_command = NULL;
		in->w.be.trials = 0;
		/* the job's engine, through the port map (one TCP
		 * instance at most: conc_parse) */
		in->w.be.tcp = be->tcp ? &conc_tcp_ops : NULL;
		in->w.be.tcp_priv = NULL;
		in->w.in = in;
		for (k = 0; k < in->ip->n_idx; k++)
			names[k] = be->port_names[in->ip->idx[k]];
		/* checked above: cannot fail */
		bm_backend_set_ports(&in->w.be, in->ip->n_idx, names, NULL);
		/* not started: no trial waits for it */
		in->state = INST_FINISHED;
	}
	c->t0 = bm_mono_s();
	pthread_mutex_lock(&c->lock);
	for (i = 0; i < c->n; i++) {
		int e;

		c->in[i].state = INST_RUNNING;
		e = pthread_create(&c->in[i].thread, NULL, inst_thread,
				   &c->in[i]);
		if (e) {
			c->in[i].state = INST_FINISHED;
			ret = bm_errorf(err, "instances[%u]: cannot start its "
					"thread: %s", i + 1, strerror(e));
			c->stop = true;
			break;
		}
		c->in[i].started = true;
	}
	/* instances that did not start hold no trial back */
	conc_run_merged(c);
	pthread_mutex_unlock(&c->lock);
	for (i = 0; i < c->n; i++)
		if (c->in[i].started)
			pthread_join(c->in[i].thread, NULL);
	for (i = 0; i < c->n && !ret; i++) {
		if (c->in[i].oom) {
			ret = bm_errorf(err, "out of memory");
		} else if (c->in[i].ret && c->in[i].ret != -ECANCELED) {
			bm_errorf(err, "instances[%u] (%s): %s", i + 1,
				  c->in[i].ip->pi->name,
				  c->in[i].err.msg[0] ? c->in[i].err.msg :
				  "failed");
			ret = c->in[i].ret;
		}
	}
	for (i = 0; i < c->n && !ret; i++)
		if (c->in[i].ret == -ECANCELED)
			ret = -ECANCELED;
	if (c->in[0].started)
		*result = conc_document(pi, &p, c, be);
	if (!ret && !*result)
		ret = bm_errorf(err, "out of memory");
	for (i = 0; i < c->n; i++) {
		json_object_put(c->in[i].result);
		free(c->in[i].win);
	}
	pthread_cond_destroy(&c->cond);
	pthread_mutex_destroy(&c->vlock);
	pthread_mutex_destroy(&c->lock);
	free(c);
	conc_params_free(&p);
	return ret;
}

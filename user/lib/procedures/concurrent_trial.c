// SPDX-License-Identifier: GPL-2.0
/*
 * rfc7640.concurrent's trial barrier (concurrent.c): each instance's
 * backend, a view of the job's whose trials wait until every instance
 * still running has asked for one, then run as one merged trial
 * (bm_traffic_merge) whose results go back to each; and the windows each
 * instance's frames were sent in, on the run's time base.  Apart from
 * the run because it is the one place instances meet, under the run's
 * lock.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bm_traffic_merge.h"
#include "concurrent_int.h"

/* Now on the run's time base. */
double conc_now(const struct conc *c)
{
	return c->be->virtual_clock ? c->be->elapsed_s : bm_mono_s() - c->t0;
}

/* Note window [a, b] of a trial of in. */
void conc_add_window(struct conc_inst *in, double a, double b)
{
	double *nw;

	if (in->n_win + 2 > in->cap_win) {
		size_t cap = in->cap_win ? 2 * in->cap_win : 64;

		nw = realloc(in->win, cap * sizeof(*nw));
		if (!nw) {
			in->oom = true;
			return;
		}
		in->win = nw;
		in->cap_win = cap;
	}
	in->win[in->n_win++] = a;
	in->win[in->n_win++] = b;
}

/* Note the span in's frames went out in its trial that started at a on
 * the time base: first to last transmitted frame of its streams, on the
 * module's clock for the trial (so the instances of one trial compare
 * exactly). */
static void tx_window(struct conc_inst *in, double a)
{
	const struct bm_traffic_result *tr = in->spec->traffic_res;
	double first = -1, last = -1;
	unsigned int k;

	for (k = 0; tr && k < tr->n_streams; k++) {
		const struct bm_stream_result *x = &tr->streams[k];

		if (x->first_tx_s < 0 || !x->sent)
			continue;
		if (first < 0 || x->first_tx_s < first)
			first = x->first_tx_s;
		last = fmax(last, x->last_tx_s);
	}
	if (first >= 0)
		conc_add_window(in, a + first, a + last);
}

/*
 * With c->lock held: when no instance is between trials and some wait,
 * run their trials as one on the job's backend (the lock dropped while
 * it runs) and wake them.  Whoever makes the last instance wait or
 * finish runs it.
 */
void conc_run_merged(struct conc *c)
{
	struct bm_merge_part parts[CONC_MAX];
	struct conc_inst *who[CONC_MAX];
	struct bm_traffic_result *r = NULL;
	struct bm_trial_result res;
	struct bm_trial_spec spec;
	struct bm_error e = { "" };
	struct bm_traffic t;
	unsigned int i, n = 0, live = 0, bg = 0;
	double a, vnow = 0;
	int ret;

	for (i = 0; i < c->n; i++) {
		if (c->in[i].state == INST_RUNNING)
			return;
		if (c->in[i].state == INST_WAITING)
			who[n++] = &c->in[i];
		if (c->in[i].state == INST_BACKGROUND)
			bg++;
		if (c->in[i].state != INST_FINISHED)
			live++;
	}
	if (!n)
		return;
	if (c->stop) {
		/* no trial after a failure or a cancel: the waiting get
		 * what a cancelled trial gives */
		for (i = 0; i < n; i++) {
			who[i]->trial_ret = -ECANCELED;
			snprintf(who[i]->trial_err, sizeof(who[i]->trial_err),
				 "stopped: another instance failed, or the "
				 "job was cancelled");
			who[i]->state = INST_RUNNING;
		}
		pthread_cond_broadcast(&c->cond);
		return;
	}
	for (i = 0; i < n; i++) {
		who[i]->state = INST_IN_TRIAL;
		parts[i] = (struct bm_merge_part){ .spec = who[i]->spec,
						   .res = who[i]->res };
	}
	pthread_mutex_unlock(&c->lock);

	ret = bm_traffic_merge(parts, n, &t, &spec, &e);
	if (!ret) {
		r = bm_traffic_result_new(&t);
		if (!r)
			ret = bm_errorf(&e, "out of memory");
	}
	if (c->be->virtual_clock)
		pthread_mutex_lock(&c->vlock);
	a = conc_now(c);
	if (!ret) {
		spec.traffic_res = r;
		ret = bm_run_trial(c->be, &spec, &res, &e);
	}
	if (c->be->virtual_clock) {
		vnow = c->be->elapsed_s;
		pthread_mutex_unlock(&c->vlock);
	}
	if (!ret && bm_traffic_split(parts, n, r, &res))
		ret = bm_errorf(&e, "out of memory");
	bm_traffic_result_free(r);
	bm_traffic_free(&t);

	pthread_mutex_lock(&c->lock);
	if (c->be->virtual_clock)
		c->vnow = vnow;
	c->trials++;
	for (i = 0; i < n; i++) {
		struct conc_inst *in = who[i];

		if (!ret)
			tx_window(in, a);
		in->trials++;
		/* a TCP instance in the background shares the trial */
		if (n + bg == live && live > 1)
			in->together++;
		in->trial_ret = ret;
		snprintf(in->trial_err, sizeof(in->trial_err), "%s", e.msg);
		in->state = INST_RUNNING;
	}
	pthread_cond_broadcast(&c->cond);
}

static int conc_trial(struct bm_backend *be, const struct bm_trial_spec *spec,
		      struct bm_trial_result *res, struct bm_error *err)
{
	struct conc_inst *in = ((struct conc_be *)be)->in;
	struct conc *c = in->c;
	int ret;

	pthread_mutex_lock(&c->lock);
	in->spec = spec;
	in->res = res;
	in->state = INST_WAITING;
	conc_run_merged(c);
	while (in->state != INST_RUNNING) {
		pthread_cond_wait(&c->cond, &c->lock);
		/* a TCP instance that went to the background makes no
		 * trial run: a waiter does */
		if (in->state == INST_WAITING)
			conc_run_merged(c);
	}
	ret = in->trial_ret;
	if (ret)
		bm_errorf(err, "%s", in->trial_err);
	/* what a procedure reads of its backend after a trial */
	be->elapsed_s = c->be->elapsed_s;
	memcpy(be->frame_hex, c->be->frame_hex, sizeof(be->frame_hex));
	pthread_mutex_unlock(&c->lock);
	return ret;
}

static void conc_be_destroy(struct bm_backend *be)
{
	(void)be;	/* the run owns the views */
}

const struct bm_backend_ops conc_be_ops = {
	.run_trial = conc_trial,
	.destroy = conc_be_destroy,
	.dut_reset = NULL,
};

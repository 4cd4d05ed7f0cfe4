// SPDX-License-Identifier: GPL-2.0
/*
 * rfc7640.concurrent's result document (concurrent.c): each instance's
 * ports, state, trials and send windows with its own result inside, and
 * how much the instances overlapped (the time every one was sending).
 * Apart from the run because it reads what the run left, once every
 * instance has ended.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "bm_json.h"
#include "bm_repeat.h"
#include "bm_result.h"
#include "concurrent_int.h"

/* The time during which every instance was sending: a sweep over the
 * windows' starts (+1) and ends (-1). */
static double all_active_s(const struct conc *c)
{
	double (*ev)[2], t = 0.0;
	size_t n = 0, k;
	unsigned int i;
	int active = 0;

	for (i = 0; i < c->n; i++)
		n += c->in[i].n_win;
	ev = malloc((n ? n : 1) * sizeof(*ev));
	if (!ev)
		return NAN;
	n = 0;
	for (i = 0; i < c->n; i++)
		for (k = 0; k < c->in[i].n_win; k++) {
			ev[n][0] = c->in[i].win[k];
			ev[n++][1] = k % 2 ? -1.0 : 1.0;
		}
	qsort(ev, n, sizeof(*ev), bm_cmp_double);
	for (k = 0; k < n; k++) {
		if (k && active == (int)c->n)
			t += ev[k][0] - ev[k - 1][0];
		active += (int)ev[k][1];
	}
	free(ev);
	return t;
}

/* The sum of in's trial windows. */
static double busy_s(const struct conc_inst *in)
{
	double t = 0.0;
	size_t m;

	for (m = 0; m + 1 < in->n_win; m += 2)
		t += in->win[m + 1] - in->win[m];
	return t;
}

static json_object *inst_json(const struct conc_inst *in,
			      const struct bm_backend *be)
{
	json_object *o = json_object_new_object(), *a, *w;
	unsigned int k;
	size_t m;

	json_object_object_add(o, "instance",
			       json_object_new_int(in->index + 1));
	bm_json_add_str(o, "procedure", in->ip->pi->name);
	a = json_object_new_array();
	for (k = 0; k < in->ip->n_idx; k++)
		json_object_array_add(a, json_object_new_string(
			be->port_names[in->ip->idx[k]]));
	json_object_object_add(o, "ports", a);
	bm_json_add_str(o, "state", !in->started ? "not started" :
			!in->ret ? "done" : in->ret == -ECANCELED ?
			"stopped" : "failed");
	if (in->ret && in->err.msg[0])
		bm_json_add_str(o, "error", in->err.msg);
	bm_result_mark_partial(in->result, in->ret, in->err.msg);
	bm_json_add_u64(o, "trials", in->trials);
	bm_json_add_u64(o, "trials_together", in->together);
	w = json_object_new_array();
	for (m = 0; m + 1 < in->n_win; m += 2) {
		json_object *p = json_object_new_array();

		json_object_array_add(p, json_object_new_double(in->win[m]));
		json_object_array_add(p, json_object_new_double(in->win[m + 1]));
		json_object_array_add(w, p);
	}
	bm_json_add_double(o, "first_tx_s", in->n_win ? in->win[0] : NAN);
	bm_json_add_double(o, "last_tx_s",
			   in->n_win ? in->win[in->n_win - 1] : NAN);
	bm_json_add_double(o, "tx_time_s", busy_s(in));
	json_object_object_add(o, "tx_windows_s", w);
	json_object_object_add(o, "result", json_object_get(in->result));
	return o;
}

/* Add the strings of doc's deviations not yet in dev. */
static void merge_deviations(json_object *dev, json_object *doc)
{
	json_object *d;
	size_t i;

	if (!doc || !json_object_object_get_ex(doc, "deviations", &d))
		return;
	for (i = 0; i < json_object_array_length(d); i++)
		bm_json_add_str_once(dev, json_object_get_string(
			json_object_array_get_idx(d, i)));
}

json_object *conc_document(const struct bm_procedure_info *pi,
			   const struct conc_params *p,
			   const struct conc *c, struct bm_backend *be)
{
	json_object *res = json_object_new_object(), *a, *o, *params, *dev;
	double busy_min = INFINITY, first = INFINITY, last = -INFINITY;
	double all;
	unsigned int i;

	bm_json_add_str(res, "profile", p->profile);
	bm_json_add_str(res, "time_base", be->virtual_clock ?
			"the simulated DUT's clock, s from the start; within "
			"a trial its own" :
			"the host's monotonic clock, s from the start; within "
			"a trial the module's");
	a = json_object_new_array();
	dev = json_object_new_array();
	for (i = 0; i < c->n; i++) {
		const struct conc_inst *in = &c->in[i];

		busy_min = fmin(busy_min, busy_s(in));
		if (in->n_win) {
			first = fmin(first, in->win[0]);
			last = fmax(last, in->win[in->n_win - 1]);
		}
		json_object_array_add(a, inst_json(in, be));
		merge_deviations(dev, in->result);
	}
	o = json_object_new_object();
	all = all_active_s(c);
	bm_json_add_u64(o, "trials", c->trials);
	bm_json_add_double(o, "span_s", last >= first ? last - first : NAN);
	bm_json_add_double(o, "all_active_s", all);
	/* of the instance that sent for the shortest time: 100 % = it
	 * never sent alone */
	bm_json_add_double(o, "overlap_pct", busy_min > 0.0 ?
			   100.0 * all / busy_min : NAN);
	json_object_object_add(res, "concurrency", o);
	json_object_object_add(res, "instances", a);
	params = json_object_new_object();
	bm_json_add_str(params, "profile", p->profile);
	json_object_object_add(params, "instances",
			       json_object_get(p->instances));
	return bm_result_envelope(pi->name, pi->refs, params, NULL, NULL, res,
				  dev, be);
}

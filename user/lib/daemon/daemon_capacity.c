// SPDX-License-Identifier: GPL-2.0
/*
 * The generator's calibrated capacity per port (SPEC REQ-GEN-6): the
 * newest bmgen.capacity job that sent from a port is its figure.  Jobs
 * and results outlive bmd already, so the cache is the results directory
 * itself: nothing else to keep consistent, and a result removed by hand
 * takes its figure with it.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bm_json.h"
#include "bm_procedure.h"
#include "bm_store.h"
#include "daemon_int.h"

#define CAPACITY_PROC	"bmgen.capacity"

/* A bmgen.capacity job that ended done with a result, not a dry run. */
static bool is_capacity(const struct bmd_job *k)
{
	return k->state == JOB_DONE && k->has_result && !k->dry_run &&
	       k->n_ports && !strcmp(k->procedure, CAPACITY_PROC);
}

/* The newest such job that sent from port, NULL when none.  d->lock
 * held. */
static const struct bmd_job *newest_capacity(const struct bmd *d,
					     const char *port)
{
	const struct bmd_job *k, *newest = NULL;

	for (k = d->jobs; k; k = k->next)
		if (is_capacity(k) && !strcmp(k->ports[0], port))
			newest = k;	/* the list is in id order */
	return newest;
}

json_object *bmd_capacity_of(struct bmd *d, const char *port)
{
	const struct bmd_job *k = newest_capacity(d, port);
	json_object *doc, *res, *v, *o, *a, *e, *x;
	char path[PATH_MAX], when[40];
	size_t i;

	if (!k)
		return NULL;
	snprintf(path, sizeof(path), "%s/%lu.json", d->results_dir, k->id);
	/* a result that cannot be read calibrates nothing */
	doc = bm_read_json(path, NULL, NULL);
	if (!doc || !json_object_object_get_ex(doc, "results", &res) ||
	    !json_object_object_get_ex(res, "capacity", &v) ||
	    !json_object_is_type(v, json_type_array)) {
		json_object_put(doc);
		return NULL;
	}
	o = json_object_new_object();
	json_object_object_add(o, "job", json_object_new_int64((int64_t)k->id));
	bmd_time_iso(k->ended, when, sizeof(when));
	bm_json_add_str(o, "measured", when);
	bm_json_add_str(o, "rx_port", k->n_ports > 1 ? k->ports[1] :
			k->ports[0]);
	a = json_object_new_array();
	for (i = 0; i < json_object_array_length(v); i++) {
		static const char *const keep[] = {
			"frame_size", "tx_path", "tx_path_used", "available",
			"send_fps", "line_limited", "loop_fps", NULL
		};
		json_object *src = json_object_array_get_idx(v, i);
		const char *const *key;

		e = json_object_new_object();
		for (key = keep; *key; key++)
			if (json_object_object_get_ex(src, *key, &x))
				json_object_object_add(e, *key,
						       json_object_get(x));
		json_object_array_add(a, e);
	}
	json_object_object_add(o, "capacity", a);
	json_object_put(doc);
	return o;
}

json_object *bmd_capacity_all(struct bmd *d)
{
	json_object *a = json_object_new_array(), *o;
	const struct bmd_job *k;

	for (k = d->jobs; k; k = k->next) {
		/* each port once, at its newest job */
		if (!is_capacity(k) || newest_capacity(d, k->ports[0]) != k)
			continue;
		o = bmd_capacity_of(d, k->ports[0]);
		if (!o)
			continue;
		bm_json_add_str(o, "port", k->ports[0]);
		json_object_array_add(a, o);
	}
	return a;
}

size_t bmd_capacity_list(struct bmd *d, const char *const *ports,
			 unsigned int n_ports, struct bm_tx_capacity *v,
			 size_t max)
{
	json_object *o, *a, *e, *x;
	unsigned int p;
	size_t i, n = 0;

	for (p = 0; p < n_ports; p++) {
		o = bmd_capacity_of(d, ports[p]);
		if (!o)
			continue;
		json_object_object_get_ex(o, "capacity", &a);
		for (i = 0; i < json_object_array_length(a) && n < max; i++) {
			json_object *path, *size, *fps;

			e = json_object_array_get_idx(a, i);
			/* a result edited by hand is skipped, not trusted */
			if (!json_object_object_get_ex(e, "available", &x) ||
			    !json_object_get_boolean(x) ||
			    !json_object_object_get_ex(e, "tx_path", &path) ||
			    !json_object_is_type(path, json_type_string) ||
			    !json_object_object_get_ex(e, "frame_size", &size) ||
			    !json_object_is_type(size, json_type_int) ||
			    !json_object_object_get_ex(e, "send_fps", &fps) ||
			    !bm_json_number(fps, &v[n].send_fps) ||
			    !(v[n].send_fps > 0))
				continue;
			snprintf(v[n].port, sizeof(v[n].port), "%s", ports[p]);
			snprintf(v[n].path, sizeof(v[n].path), "%s",
				 json_object_get_string(path));
			v[n].frame_size = (uint32_t)json_object_get_int64(size);
			n++;
		}
		json_object_put(o);
	}
	return n;
}

/* The smallest frame size params (over the procedure's defaults) name
 * with its sizes key; 64 (the most frames a port can need) when none. */
static uint32_t job_min_frame(const char *procedure, json_object *params)
{
	const struct bm_procedure_info *pi = bm_procedure_find(procedure,
							       NULL);
	json_object *def = NULL, *v = NULL;
	uint32_t f = 0, x;
	size_t i;

	if (pi && pi->sizes_key) {
		if (!params || !json_object_object_get_ex(params, pi->sizes_key,
							  &v)) {
			def = pi->defaults ? pi->defaults(pi) : NULL;
			if (def)
				json_object_object_get_ex(def, pi->sizes_key,
							  &v);
		}
		if (v && json_object_is_type(v, json_type_int))
			f = (uint32_t)json_object_get_int64(v);
		for (i = 0; v && json_object_is_type(v, json_type_array) &&
		     i < json_object_array_length(v); i++) {
			x = (uint32_t)json_object_get_int64(
				json_object_array_get_idx(v, i));
			if (x && (!f || x < f))
				f = x;
		}
	}
	json_object_put(def);
	return f >= 64 ? f : 64;
}

void bmd_capacity_warn(const struct bmd_job_desc *desc, json_object *params,
		       const struct bm_tx_capacity *v, size_t n,
		       unsigned int kthreads, json_object *dev)
{
	const char *path = bmd_tx_path_name(desc->tx_path);
	uint32_t f = job_min_frame(desc->procedure, params);
	double line, cap;
	char msg[400];
	unsigned int p;

	if (desc->dry_run || !(desc->line_rate_bps > 0) ||
	    !strcmp(desc->procedure, CAPACITY_PROC))
		return;
	line = desc->line_rate_bps / ((f + 20) * 8.0);
	for (p = 0; p < desc->n_ports; p++) {
		cap = bm_tx_capacity_fps(v, n, desc->ports[p], path, f);
		if (!(cap > 0) || kthreads * cap >= line)
			continue;
		snprintf(msg, sizeof(msg),
			 "generator capacity (REQ-GEN-6): at %u B the line rate is %.4g fps; one transmit kthread sent %.4g fps from %s (tx path %s, bmgen.capacity), %u kthread%s %.4g fps: what %s sends above %.3g %% of the line rate will be generator-limited",
			 f, line, cap, desc->ports[p], path, kthreads,
			 kthreads == 1 ? "" : "s", kthreads * cap,
			 desc->ports[p], 100.0 * kthreads * cap / line);
		bm_json_add_str_once(dev, msg);
	}
}

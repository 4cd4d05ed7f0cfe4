// SPDX-License-Identifier: GPL-2.0
/*
 * What the capacity tests of TM §6.2.2 and §6.3.2 share (rfc7640_int.h):
 * the traffic map (which of the job's ports are ingress, which egress;
 * every ingress port sends every class to every egress port), the class
 * keys, and the one trial of CBR streams over that map whose per-stream
 * metrics the reports MUST give (SPEC §11.2 rows 34-37, 44-46).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bm_json.h"
#include "bm_units.h"
#include "rfc7640_int.h"

/* key's array of 1 to max distinct integers in [lo, hi] into out[*n_out];
 * list, many and one name them in the messages. */
static int int_set_parse(json_object *v, const char *key, const char *list,
			 const char *many, const char *one, int64_t lo,
			 int64_t hi, size_t max, unsigned int *out,
			 size_t *n_out, struct bm_error *err)
{
	size_t n, i, j;
	int64_t d;

	if (json_object_get_type(v) != json_type_array)
		return bm_errorf(err, "%s: expected an array of %s", key, list);
	n = json_object_array_length(v);
	if (!n || n > max)
		return bm_errorf(err, "%s: expected 1 to %zu %s", key, max,
				 many);
	for (i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(v, i);

		if (json_object_get_type(e) != json_type_int)
			return bm_errorf(err, "%s[%zu]: expected an integer",
					 key, i);
		d = json_object_get_int64(e);
		if (d < lo || d > hi)
			return bm_errorf(err, "%s[%zu]: %s %lld outside "
					 "%lld..%lld", key, i, one,
					 (long long)d, (long long)lo,
					 (long long)hi);
		for (j = 0; j < i; j++)
			if (out[j] == d)
				return bm_errorf(err, "%s[%zu]: %s %lld "
						 "given twice", key, i, one,
						 (long long)d);
		out[i] = (unsigned int)d;
	}
	*n_out = n;
	return 0;
}

int tm_port_list_parse(json_object *v, const char *key,
		       struct tm_port_list *l, struct bm_error *err)
{
	return int_set_parse(v, key, "port numbers (1 = the job's first "
			     "port)", "ports", "port", 1, BM_BACKEND_MAX_PORTS,
			     BM_BACKEND_MAX_PORTS, l->v, &l->n, err);
}

json_object *tm_port_list_json(const struct tm_port_list *l)
{
	json_object *a;
	size_t i;

	if (!l->n)
		return NULL;
	a = json_object_new_array();
	for (i = 0; i < l->n; i++)
		json_object_array_add(a, json_object_new_int64(l->v[i]));
	return a;
}

json_object *tm_port_list_at(const struct bm_jwriter *w,
			     const struct bm_jkey *k, const void *base)
{
	(void)w;
	return tm_port_list_json((const struct tm_port_list *)
				 ((const char *)base + k->off));
}

static bool listed(const struct tm_port_list *l, unsigned int port)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (l->v[i] == port)
			return true;
	return false;
}

int tm_portmap_of(struct tm_ctx *x, const struct tm_port_list *in,
		  const struct tm_port_list *eg, struct tm_portmap *pm)
{
	unsigned int np = x->be->n_ports, p;
	size_t i;

	memset(pm, 0, sizeof(*pm));
	for (i = 0; i < in->n; i++)
		if (in->v[i] > np)
			return bm_errorf(x->err, "%s: ingress_ports[%zu]: port "
					 "%u, but the job has %u ports",
					 x->name, i, in->v[i], np);
	for (i = 0; i < eg->n; i++) {
		if (eg->v[i] > np)
			return bm_errorf(x->err, "%s: egress_ports[%zu]: port "
					 "%u, but the job has %u ports",
					 x->name, i, eg->v[i], np);
		if (listed(in, eg->v[i]))
			return bm_errorf(x->err, "%s: egress_ports[%zu]: port "
					 "%u is an ingress port too", x->name,
					 i, eg->v[i]);
	}
	/* unset: the last port is the egress, every other one an ingress */
	if (eg->n) {
		for (i = 0; i < eg->n; i++)
			pm->eg[pm->n_eg++] = eg->v[i] - 1;
	} else {
		if (listed(in, np))
			return bm_errorf(x->err, "%s: ingress_ports: port %u "
					 "is the egress (unset egress_ports: "
					 "the last port)", x->name, np);
		pm->eg[pm->n_eg++] = np - 1;
	}
	if (in->n) {
		for (i = 0; i < in->n; i++)
			pm->in[pm->n_in++] = in->v[i] - 1;
	} else {
		for (p = 1; p <= np; p++)
			if (!(eg->n ? listed(eg, p) : p == np))
				pm->in[pm->n_in++] = p - 1;
	}
	/* the draft's tests converge several ingress ports on each egress */
	if (pm->n_in < 2)
		return bm_errorf(x->err, "%s: ingress_ports: %u ingress "
				 "port%s; the capacity tests need at least 2 "
				 "converging on each egress", x->name,
				 pm->n_in, pm->n_in == 1 ? "" : "s");
	return 0;
}

void tm_portmap_config(json_object *cfg, const struct tm_ctx *x,
		       const struct tm_portmap *pm, const unsigned int *dscps,
		       size_t n_classes, const double *rates, size_t n_rates)
{
	json_object *a = json_object_new_array(), *o;
	unsigned int i;

	bm_json_add_u64(cfg, "ingress_ports_active", pm->n_in);
	bm_json_add_u64(cfg, "egress_ports_active", pm->n_eg);
	for (i = 0; i < pm->n_in; i++) {
		o = json_object_new_object();
		bm_json_add_str(o, "port", x->be->port_names[pm->in[i]]);
		json_object_object_add(o, "dscps",
				       tm_uints_json(dscps, n_classes));
		/* to each egress */
		json_object_object_add(o, "rates_bps",
				       tm_doubles_json(rates, n_rates));
		json_object_object_add(o, "egress",
				       tm_portmap_json(x, pm, false));
		json_object_array_add(a, o);
	}
	json_object_object_add(cfg, "ingress", a);
	json_object_object_add(cfg, "egress_ports",
			       tm_portmap_json(x, pm, false));
}

json_object *tm_portmap_json(const struct tm_ctx *x,
			     const struct tm_portmap *pm, bool ingress)
{
	json_object *a = json_object_new_array();
	unsigned int i, n = ingress ? pm->n_in : pm->n_eg;

	for (i = 0; i < n; i++)
		json_object_array_add(a, json_object_new_string(
			x->be->port_names[ingress ? pm->in[i] : pm->eg[i]]));
	return a;
}

int tm_class_dscps_parse(json_object *v, const char *key, unsigned int *out,
			 size_t *n_out, struct bm_error *err)
{
	return int_set_parse(v, key, "DSCPs", "DSCPs", "DSCP", 0, 63,
			     TM_MAX_CLASSES, out, n_out, err);
}

int tm_values_parse(json_object *v, const char *key, double lo, bool lo_excl,
		    double hi, bool bytes, size_t max, double *out,
		    size_t *n_out, struct bm_error *err)
{
	char why[sizeof(err->msg)];
	size_t n, i;
	uint64_t u;
	double x;

	if (json_object_get_type(v) != json_type_array)
		return bm_errorf(err, "%s: expected an array", key);
	n = json_object_array_length(v);
	if (!n || n > max)
		return bm_errorf(err, "%s: expected 1 to %zu values", key, max);
	for (i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(v, i);

		if (bytes && json_object_is_type(e, json_type_string)) {
			/* REQ-UNIT-3: "32KB" as the scalar byte keys take */
			if (bm_bytes_parse(json_object_get_string(e), &u,
					   err)) {
				memcpy(why, err->msg, sizeof(why));
				return bm_errorf(err, "%s[%zu]: %s", key, i,
						 why);
			}
			x = (double)u;
		} else if (!bm_json_number(e, &x) ||
			   (bytes && x != floor(x))) {
			return bm_errorf(err, "%s[%zu]: expected %s", key, i,
					 bytes ? "a whole number of bytes" :
					 "a number");
		}
		if ((lo_excl ? !(x > lo) : !(x >= lo)) || x > hi)
			return bm_errorf(err, "%s[%zu]: expected a value in "
					 "%c%g, %g]", key, i,
					 lo_excl ? '(' : '[', lo, hi);
		out[i] = x;
	}
	*n_out = n;
	return 0;
}

json_object *tm_doubles_json(const double *v, size_t n)
{
	json_object *a = json_object_new_array();
	size_t i;

	for (i = 0; i < n; i++)
		json_object_array_add(a, json_object_new_double(v[i]));
	return a;
}

json_object *tm_uints_json(const unsigned int *v, size_t n)
{
	json_object *a = json_object_new_array();
	size_t i;

	for (i = 0; i < n; i++)
		json_object_array_add(a, json_object_new_int64(v[i]));
	return a;
}

int tm_mesh_run(struct tm_ctx *x, const struct tm_portmap *pm,
		const unsigned int *dscps, const double *rates_bps,
		unsigned int nc, bool analyse, double td_s, const char *phase,
		unsigned int test, struct tm_mesh *ms)
{
	double a = tm_acct_bytes(x->c->frame_size, x->c->accounting) * 8.0;
	unsigned int i, e, k, j, per_port = pm->n_eg * nc;
	char reason[96];
	double fps;
	int ret;

	memset(ms, 0, sizeof(*ms));
	ms->n = pm->n_in * per_port;
	if (ms->n > BM_TRAFFIC_MAX_STREAMS)
		return bm_errorf(x->err, "%s: %u ingress x %u egress ports x "
				 "%u classes make %u streams, more than the %d "
				 "a trial may have", x->name, pm->n_in,
				 pm->n_eg, nc, ms->n, BM_TRAFFIC_MAX_STREAMS);
	ms->f = calloc(ms->n, sizeof(*ms->f));
	ms->m = calloc(ms->n, sizeof(*ms->m));
	if (!ms->f || !ms->m)
		return bm_errorf(x->err, "out of memory");
	ret = tm_traffic(x, &ms->t);
	for (i = 0; i < pm->n_in && !ret; i++) {
		for (e = 0; e < pm->n_eg && !ret; e++) {
			for (k = 0; k < nc && !ret; k++) {
				j = tm_mesh_at(pm, nc, i, e, k);
				fps = rates_bps[k] / a;
				ret = tm_add_cbr(x, &ms->t, pm->in[i],
						 pm->eg[e], (uint8_t)dscps[k],
						 x->c->frame_size, fps,
						 &ms->f[j]);
				if (ret)
					break;
				/* a port's streams take turns (REQ-GEN-2
				 * mode 6) */
				ms->t.streams[ms->t.n_streams - 1].phase =
					(double)(e * nc + k) / per_port;
				if (analyse)
					ms->t.streams[ms->t.n_streams - 1]
						.log_frames = tm_log_size(x,
						(uint64_t)ceil(fps * td_s) + 1,
						true);
			}
		}
	}
	if (ret)
		return ret;
	snprintf(reason, sizeof(reason), "run %u: %u ingress x %u egress "
		 "ports x %u classes", test, pm->n_in, pm->n_eg, nc);
	return tm_trial_flows(x, &ms->t, td_s, phase, reason, test, ms->f,
			      ms->m, ms->n, &ms->r);
}

void tm_mesh_free(struct tm_mesh *ms)
{
	free(ms->f);
	free(ms->m);
	bm_traffic_result_free(ms->r);
	bm_traffic_free(&ms->t);
	memset(ms, 0, sizeof(*ms));
}

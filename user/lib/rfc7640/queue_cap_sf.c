// SPDX-License-Identifier: GPL-2.0
/*
 * TM §6.2.2's stateful traffic (SPEC TM-QS-CAP-1 .. -4: "apply TM-QS-1
 * and TM-QS-2 with traffic from several ingress ports"): beside the
 * classes' CBR streams, TM-QS-2's two MUST applications, bulk transfer
 * and micro burst, from every ingress port to every egress port on the
 * backend's TCP engine (PLAT-TCP), each with stateful_connections
 * connections in one class (stateful_dscp).  The connections start
 * before each run's class trial and stop after it: their window opens
 * with them (as TM-QS-2's, lab rfc7640/stateful: data sent before a later
 * mark would land in it), so it spans the trial and the waits around it, and
 * the throughput is the bytes the egress side read over it.  Per egress,
 * ingress and application: the throughput at the egress and the TCP metrics
 * of TM-MET-SF (efficiency F-12, buffer delay F-13, RTT), as
 * the report MUST give per ingress stream (TM §6.2.2.1.1).  The NDE a
 * stateful test MUST use is bmd's to check (REQ-TM-2, on every ingress
 * and egress pair).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bm_json.h"
#include "bm_tcp.h"
#include "rfc7640_int.h"

/* The BDP's RTT when the NDE's is not given [PROPOSED], as TM-QS-2's. */
#define QC_SF_RTT_UNSET_MS	10.0

int tm_qcap_parse_sf_apps(json_object *v, void *base, const char *key,
			  struct bm_error *err)
{
	struct tm_qcap_params *p = base;
	unsigned int mask = 0, k;
	size_t i, n;

	if (!json_object_is_type(v, json_type_array) ||
	    (n = json_object_array_length(v)) > 2)
		return bm_errorf(err, "%s: an array of at most 2 names (bulk, "
				 "micro)", key);
	for (i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(v, i);
		const char *s = json_object_get_string(e);

		if (!json_object_is_type(e, json_type_string) ||
		    (strcmp(s, "bulk") && strcmp(s, "micro")))
			return bm_errorf(err, "%s[%zu]: '%.20s' is not bulk or "
					 "micro (TM-QS-2's MUST applications)",
					 key, i, s ? s : "");
		k = strcmp(s, "bulk") ? BM_TTP_MICRO : BM_TTP_BULK;
		if (mask & (1u << k))
			return bm_errorf(err, "%s[%zu]: %s twice", key, i, s);
		mask |= 1u << k;
	}
	p->sf_apps = mask;
	return 0;
}

int tm_qcap_parse_sf_cc(json_object *v, void *base, const char *key,
			struct bm_error *err)
{
	return bm_tcp_cc_parse(v, ((struct tm_qcap_params *)base)->sf_cc, key,
			       err);
}

void tm_qcap_sf_defaults(struct tm_qcap_params *p)
{
	p->sf_apps = 0;
	p->sf_connections = 1;
	p->sf_dscp = 0;				/* [PROPOSED] best effort */
	p->sf_bulk_pct = 0;
	p->sf_burst_bytes = 16000;		/* [PROPOSED] TM-QS-2's */
	p->sf_burst_interval_s = 0.1;		/* [PROPOSED] */
	p->sf_warmup_bytes = 0;			/* 10 x BDP */
	p->nde_rtt_ms = NAN;
	p->sf_cc[0] = '\0';
	p->sf_sndbuf = p->sf_rcvbuf = p->sf_window_clamp = 0;
	p->sf_force = false;
}

static double bdp_bytes(const struct tm_qcap_params *p)
{
	return p->bb_bps * (isfinite(p->nde_rtt_ms) ? p->nde_rtt_ms :
			    QC_SF_RTT_UNSET_MS) / 1e3 / 8;
}

void tm_qcap_sf_config(json_object *cfg, const struct tm_ctx *x,
		       const struct tm_qcap_params *p,
		       const struct tm_portmap *pm)
{
	json_object *o = json_object_new_object(), *a;
	unsigned int i;

	json_object_object_add(o, "apps", tm_apps_json(p->sf_apps));
	bm_json_add_u64(o, "connections_per_app", p->sf_connections);
	bm_json_add_u64(o, "dscp", p->sf_dscp);
	/* per ingress port, to each egress: the mixture in % of BB */
	bm_json_add_double(o, "bulk_pct", p->sf_apps & (1u << BM_TTP_BULK) ?
			   p->sf_bulk_pct : NAN);
	bm_json_add_double(o, "micro_pct", p->sf_apps & (1u << BM_TTP_MICRO) ?
			   100.0 * p->sf_connections * p->sf_burst_bytes *
			   8.0 / p->sf_burst_interval_s / p->bb_bps : NAN);
	bm_json_add_double(o, "nde_rtt_ms", p->nde_rtt_ms);
	bm_json_add_double(o, "bdp_bytes", bdp_bytes(p));
	a = json_object_new_array();
	for (i = 0; i < pm->n_in; i++)
		json_object_array_add(a, json_object_new_string(
			x->be->port_names[pm->in[i]]));
	json_object_object_add(o, "ingress_ports", a);
	json_object_object_add(cfg, "stateful", o);
}

int tm_qcap_sf_start(struct tm_ctx *x, const struct tm_qcap_params *p,
		     const struct tm_portmap *pm, struct bm_tcp_result **tr)
{
	struct bm_tcp_spec ts;
	unsigned int i, e, k, c;
	int ret;

	*tr = NULL;
	if (!x->be->tcp)
		return bm_errorf(x->err, "%s: stateful_apps need the TCP "
				 "engine (PLAT-TCP, TM-CAP-SF), and this "
				 "backend has none", x->name), -EOPNOTSUPP;
	if ((size_t)pm->n_in * pm->n_eg * 2 * p->sf_connections >
	    BM_TCP_MAX_CONN)
		return bm_errorf(x->err, "%s: %u ingress x %u egress ports x "
				 "%u connections a application: more than "
				 "the engine's %d", x->name, pm->n_in,
				 pm->n_eg, p->sf_connections,
				 BM_TCP_MAX_CONN), -EINVAL;
	memset(&ts, 0, sizeof(ts));
	snprintf(ts.cc, sizeof(ts.cc), "%s", p->sf_cc);
	ts.sndbuf = (uint32_t)p->sf_sndbuf;
	ts.rcvbuf = (uint32_t)p->sf_rcvbuf;
	ts.window_clamp = (uint32_t)p->sf_window_clamp;
	ts.dscp = (uint8_t)p->sf_dscp;
	for (i = 0; i < pm->n_in; i++)
		for (e = 0; e < pm->n_eg; e++)
			for (k = 0; k < BM_TTP_N; k++) {
				if (!(p->sf_apps & (1u << k)))
					continue;
				for (c = 0; c < p->sf_connections; c++) {
					struct bm_tcp_conn_spec *cs =
						&ts.conn[ts.n_conn++];

					cs->client = pm->in[i];
					cs->server = pm->eg[e];
					cs->pattern = (enum bm_ttp)k;
					cs->ttp.kind = (enum bm_ttp)k;
					if (k == BM_TTP_BULK) {
						/* until stopped */
						cs->rate_bps = p->bb_bps *
							p->sf_bulk_pct / 100 /
							p->sf_connections;
						continue;
					}
					cs->burst_bytes = p->sf_burst_bytes;
					cs->burst_interval_s =
						p->sf_burst_interval_s;
					cs->warmup_bytes = p->sf_warmup_bytes ?
						p->sf_warmup_bytes :
						(uint64_t)(10 * bdp_bytes(p));
				}
			}
	/* the record the stop fills, before anything runs */
	*tr = calloc(1, sizeof(**tr));
	if (!*tr)
		return bm_errorf(x->err, "out of memory"), -ENOMEM;
	ret = bm_tcp_start(x->be, &ts, x->err);
	if (ret) {
		free(*tr);
		*tr = NULL;
	}
	return ret;
}

/* Ingress in to egress eg, application k's connections, into row. */
static double sf_row(const struct bm_tcp_result *tr, unsigned int in,
		     unsigned int eg, enum bm_ttp k, json_object *row)
{
	struct tm_app_run a;

	tm_app_of(tr, (int)k, (int)in, (int)eg, &a);
	bm_json_add_str(row, "app", bm_ttp_names[k]);
	bm_json_add_u64(row, "connections", a.connections);
	bm_json_add_double(row, "throughput_bps", a.thr_bps);
	bm_json_add_double(row, "window_s", a.window_s);
	tm_app_json(row, &a);
	return a.thr_bps;
}

int tm_qcap_sf_stop(struct tm_ctx *x, const struct tm_qcap_params *p,
		    const struct tm_portmap *pm, unsigned int test,
		    json_object *res, double *thr, struct bm_tcp_result *tr,
		    int ret)
{
	struct bm_error e2 = { "" };
	json_object *rows, *row;
	unsigned int i, e, k, j;
	int r2;

	r2 = x->be->tcp->stop(x->be, tr, &e2);
	if (!ret && r2) {
		*x->err = e2;
		ret = r2;
	}
	for (j = 0; !ret && j < tr->n_conn; j++)
		if (!tr->conn[j].established || tr->conn[j].error[0])
			ret = bm_errorf(x->err, "%s: TCP connection %s -> %s: "
					"%s", x->name,
					x->be->port_names[tr->conn[j].client],
					x->be->port_names[tr->conn[j].server],
					tr->conn[j].error[0] ?
					tr->conn[j].error : "not established");
	if (ret) {
		free(tr);
		return ret;
	}
	if (!json_object_object_get_ex(res, "stateful", &rows)) {
		rows = json_object_new_array();
		json_object_object_add(res, "stateful", rows);
	}
	for (e = 0; e < pm->n_eg; e++)
		for (k = 0; k < BM_TTP_N; k++) {
			if (!(p->sf_apps & (1u << k)))
				continue;
			thr[e * BM_TTP_N + k] = 0;
			for (i = 0; i < pm->n_in; i++) {
				row = json_object_new_object();
				bm_json_add_u64(row, "test", test);
				bm_json_add_str(row, "egress",
					x->be->port_names[pm->eg[e]]);
				bm_json_add_str(row, "ingress",
					x->be->port_names[pm->in[i]]);
				thr[e * BM_TTP_N + k] += sf_row(tr, pm->in[i],
					pm->eg[e], (enum bm_ttp)k, row);
				json_object_array_add(rows, row);
			}
		}
	free(tr);
	return 0;
}

unsigned int tm_qcap_nde_pairs(const struct tm_qcap_params *p,
			       unsigned int n_ports, unsigned int (*pairs)[2],
			       unsigned int max)
{
	struct bm_backend be = { .n_ports = n_ports };
	struct bm_error err = { "" };
	struct tm_ctx x = { .name = "rfc7640.queue-capacity", .be = &be,
			    .err = &err };
	struct tm_portmap pm;
	unsigned int i, e, n = 0;

	/* a map the run refuses has nothing to verify: the run says why */
	if (!p->sf_apps || tm_portmap_of(&x, &p->ingress, &p->egress, &pm))
		return 0;
	for (i = 0; i < pm.n_in; i++)
		for (e = 0; e < pm.n_eg && n < max; e++) {
			pairs[n][0] = pm.in[i];
			pairs[n++][1] = pm.eg[e];
		}
	return n;
}

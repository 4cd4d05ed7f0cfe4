// SPDX-License-Identifier: GPL-2.0
/*
 * TM §6.2.2 queue and scheduler capacity (SPEC TM-QS-CAP-1 .. -4),
 * stateless part: TM-QS-1 with traffic from several ingress ports to one
 * egress port (CAP-1: strict priority; CAP-2: SP and WFQ queues) or to
 * several (CAP-3: one queue a port; CAP-4: several), all in one procedure
 * because the four differ only in the traffic map and the scheduler the
 * operator describes.
 *
 * The map: ingress_ports and egress_ports (1-based positions in the
 * job's port list); every ingress port sends every class to every egress
 * port.  Unset, every port but the last sends to the last (CAP-1's).
 *
 * Per run:
 *   bursts (optional): every ingress port bursts QL / n_in bytes at the
 *     line rate to each egress at the same instants (one egress after
 *     the other), every Ti = QL x 8 / BB (x 1 + margin), for Td, so that
 *     each egress queue sees QL a period: per ingress and egress BSA, LP,
 *     OOS, PD, PDV;
 *   classes: every ingress port sends one CBR stream per class (DSCP,
 *     rate in the accounting mode) to every egress, up to 8 classes, one
 *     per queue ("each priority maps to its own queue"), for Td: per
 *     egress port, per queue and per ingress stream the achieved
 *     throughput and metrics at the egress (MUST rows 34-37), per class
 *     how an egress shared it among the ingress ports ("each ingress port
 *     should get a fair share"), and per WFQ queue its share of what the
 *     WFQ queues got beside the share its weight configures.
 * The configuration the draft makes a MUST is in test_configuration (the
 * ingress and egress ports active, their marking and rates) and
 * dut_configuration (the scheduler: SP queues in priority order, WFQ
 * queues with weights, as the operator describes them).  No verdicts.
 *
 * This file is the run: the plan, the configuration and the result around
 * the runs; the parameters are queue_cap_params.c's, what one run measures
 * and its rows queue_cap_trial.c's, the stateful traffic queue_cap_sf.c's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bm_json.h"
#include "bm_result.h"
#include "bm_tcp.h"
#include "rfc7640_int.h"

#define NAME	"rfc7640.queue-capacity"

/* The SPEC test a map and scheduler make: one egress, SP (CAP-1) or with
 * WFQ queues (CAP-2); several egresses, one queue (CAP-3) or more. */
static const char *qc_ref(const struct tm_qcap_params *p,
			  const struct tm_portmap *pm)
{
	size_t k;
	bool wfq = false;

	for (k = 0; k < p->n_classes; k++)
		wfq |= tm_qcap_params_is_wfq(p, k);
	if (pm->n_eg == 1)
		return wfq ? "TM-QS-CAP-2" : "TM-QS-CAP-1";
	return p->n_classes > 1 ? "TM-QS-CAP-4" : "TM-QS-CAP-3";
}

static json_object *qc_config(const struct tm_ctx *x,
			      const struct tm_qcap_params *p,
			      const struct tm_portmap *pm,
			      const struct tm_burst *b, double ti,
			      uint32_t bursts)
{
	json_object *cfg = json_object_new_object();

	bm_json_add_str(cfg, "spec_test", qc_ref(p, pm));
	bm_json_add_u64(cfg, "tr", p->c.tr);
	bm_json_add_double(cfg, "td_s", p->c.td_s);
	bm_json_add_u64(cfg, "frame_size", p->c.frame_size);
	bm_json_add_str(cfg, "accounting", tm_acct_names[p->c.accounting]);
	bm_json_add_str(cfg, "burst_mode", tm_burst_mode_names[p->c.burst_mode]);
	/* TM §6.2.2.1.1 and §6.2.2.2 MUST */
	tm_portmap_config(cfg, x, pm, p->dscps, p->n_classes, p->rates_bps,
			  p->n_rates);
	if (pm->n_eg == 1)
		bm_json_add_str(cfg, "egress_port",
				x->be->port_names[pm->eg[0]]);
	bm_json_add_bool(cfg, "bursts", p->bursts);
	if (p->bursts) {
		bm_json_add_double(cfg, "ti_s", ti);
		bm_json_add_double(cfg, "ti_margin_pct", p->c.ti_margin_pct);
		tm_plan_json(cfg, "burst_per_port", b);
		bm_json_add_u64(cfg, "bursts_per_run", bursts);
	}
	bm_json_add_double(cfg, "burst_rate_bps", x->be->line_rate_bps);
	if (p->sf_apps)
		tm_qcap_sf_config(cfg, x, p, pm);
	return cfg;
}

static json_object *qc_dut(const struct tm_qcap_params *p)
{
	json_object *dut = json_object_new_object(), *a, *o;
	unsigned int prio = 0;
	double wsum = tm_qcap_params_wfq_weights(p);
	size_t k;

	bm_json_add_str(dut, "scheduler",
			tm_qcap_params_sched_names[p->scheduler]);
	bm_json_add_double(dut, "bb_bps", p->bb_bps);
	bm_json_add_u64(dut, "ql_bytes", p->ql);
	bm_json_add_u64(dut, "queues", p->n_classes);
	/* TM §6.2.2.1.2: the SP and WFQ queues as configured, every egress
	 * port alike */
	a = json_object_new_array();
	for (k = 0; k < p->n_classes; k++) {
		o = json_object_new_object();
		bm_json_add_u64(o, "queue", k + 1);
		bm_json_add_u64(o, "dscp", p->dscps[k]);
		bm_json_add_str(o, "kind", tm_qcap_params_queue_kind(p, k));
		if (!strcmp(tm_qcap_params_queue_kind(p, k), "sp"))
			bm_json_add_u64(o, "sp_priority", ++prio);
		if (tm_qcap_params_is_wfq(p, k)) {
			bm_json_add_double(o, "weight", p->weights[k]);
			bm_json_add_double(o, "weight_share_pct",
					   100.0 * p->weights[k] / wsum);
		}
		json_object_array_add(a, o);
	}
	json_object_object_add(dut, "scheduler_queues", a);
	return dut;
}

/* The bursts' plan and checks: QL from the ingress ports together to
 * each egress, whole bytes each, one egress's after the other's. */
static int qc_plan(struct tm_ctx *x, const struct tm_qcap_params *p,
		   const struct tm_portmap *pm, double ti, struct tm_burst *b)
{
	double t;
	int ret;

	ret = tm_plan(x, p->ql / pm->n_in, "ql", b);
	if (ret)
		return ret;
	if (pm->n_eg == 1)
		ret = tm_ti_fits(x, b, ti, "Ti = QL x 8 / BB");
	t = pm->n_eg * tm_burst_time_s(b, x->be->line_rate_bps);
	if (!ret && ti < t)
		ret = bm_errorf(x->err, NAME ": Ti = QL x 8 / BB = %.6g s is "
				"shorter than an ingress port's %u bursts of "
				"%llu B at the line rate (%.6g s): the bursts "
				"would not fit", ti, pm->n_eg,
				(unsigned long long)b->nominal, t);
	if (!ret && p->c.td_s < ti)
		ret = bm_errorf(x->err, NAME ": td_s: %g s is shorter than "
				"one Ti (%.6g s)", p->c.td_s, ti);
	return ret;
}

/* Into stats: per egress and application the repeatability block of its
 * stateful throughput over the n runs in v[(e * BM_TTP_N + k) * tr +
 * run], as EGRESS_stateful_APP_throughput_bps. */
static void qc_sf_stats(json_object *stats, const struct tm_ctx *x,
			const struct tm_qcap_params *p,
			const struct tm_portmap *pm, const double *v,
			unsigned int n)
{
	unsigned int e, k;
	char key[96];

	for (e = 0; e < pm->n_eg; e++)
		for (k = 0; k < BM_TTP_N; k++) {
			if (!(p->sf_apps & (1u << k)))
				continue;
			snprintf(key, sizeof(key), "%s_stateful_%s_"
				 "throughput_bps",
				 x->be->port_names[pm->eg[e]],
				 bm_ttp_names[k]);
			tm_stat(stats, key, &v[(e * BM_TTP_N + k) * p->c.tr],
				n);
		}
}

int tm_qcap_run(struct bm_backend *be, const struct tm_qcap_params *p,
		bm_progress_fn progress, void *ctx, json_object **result,
		struct bm_error *err)
{
	json_object *res, *dev, *stats;
	double *sf_v = NULL, *sf_run = NULL;
	unsigned int i, j, n = 0;
	struct tm_burst b = { 0 };
	struct tm_portmap pm;
	struct tm_qcap_stats st;
	struct tm_ctx x;
	uint32_t bursts = 0;
	double ti;
	int ret;

	*result = NULL;
	ret = tm_qcap_check(p, err);
	if (!ret)
		ret = tm_ctx_init(&x, NAME, be, &p->c, 3, BM_TRAFFIC_MAX_PORTS,
				  progress, ctx, err);
	if (ret)
		return ret;
	ti = (double)p->ql * 8.0 / p->bb_bps *
	     (1.0 + p->c.ti_margin_pct / 100.0);
	ret = tm_portmap_of(&x, &p->ingress, &p->egress, &pm);
	if (!ret && p->bursts) {
		ret = qc_plan(&x, p, &pm, ti, &b);
		bursts = tm_bursts_in(p->c.td_s, ti);
	}
	st = (struct tm_qcap_stats){ .scopes = 1 + (pm.n_eg > 1 ? pm.n_eg : 0),
				.nc = (unsigned int)p->n_classes,
				.n_eg = pm.n_eg };
	st.n = tm_qcap_trial_qs_bursts(&st, 2);
	if (!ret) {
		st.v = calloc(st.n, sizeof(*st.v));
		if (!st.v)
			ret = bm_errorf(err, "out of memory");
	}
	if (ret) {
		json_object_put(x.frame_logs);
		return ret;
	}
	res = json_object_new_object();
	json_object_object_add(res, "test_configuration",
			       qc_config(&x, p, &pm, &b, ti, bursts));
	json_object_object_add(res, "dut_configuration", qc_dut(p));
	if (p->bursts)
		json_object_object_add(res, "bursts", json_object_new_array());
	json_object_object_add(res, "streams", json_object_new_array());
	json_object_object_add(res, "fairness", json_object_new_array());
	json_object_object_add(res, "queues", json_object_new_array());
	json_object_object_add(res, "egresses", json_object_new_array());
	if (p->sf_apps) {
		sf_v = calloc((size_t)pm.n_eg * BM_TTP_N * p->c.tr,
			      sizeof(*sf_v));
		sf_run = calloc((size_t)pm.n_eg * BM_TTP_N, sizeof(*sf_run));
		if (!sf_v || !sf_run)
			ret = bm_errorf(err, "out of memory");
	}
	for (i = 0; i < p->c.tr && !ret; i++) {
		struct bm_tcp_result *tr = NULL;

		/* TM-QS-2's connections run through the bursts and the
		 * classes of the run (TM §6.2.2) */
		if (p->sf_apps)
			ret = tm_qcap_sf_start(&x, p, &pm, &tr);
		if (!ret)
			ret = tm_qcap_trial_run(&x, p, &pm, &b, ti, bursts,
						i + 1, res, &st, n);
		if (tr)
			ret = tm_qcap_sf_stop(&x, p, &pm, i + 1, res, sf_run,
					      tr, ret);
		for (j = 0; !ret && sf_run && j < pm.n_eg * BM_TTP_N; j++)
			sf_v[j * p->c.tr + n] = sf_run[j];
		if (!ret)
			n++;
	}
	stats = tm_qcap_trial_stats_json(&x, p, &pm, &st, n);
	if (p->sf_apps && sf_v)
		qc_sf_stats(stats, &x, p, &pm, sf_v, n);
	json_object_object_add(res, "statistics", stats);
	free(st.v);
	free(sf_v);
	free(sf_run);
	json_object_object_add(res, "measurement", tm_measurement_json(&x));
	if (x.frame_logs)
		json_object_object_add(res, "frame_logs", x.frame_logs);
	dev = json_object_new_array();
	if (!p->sf_apps)
		json_object_array_add(dev, json_object_new_string(
			"stateless part only: TM-QS-2's stateful traffic is "
			"not run (stateful_apps; AMB-43: the first "
			"\"stateful\" of the configuration MUST read as "
			"stateless)"));
	else
		json_object_array_add(dev, json_object_new_string(
			"stateful traffic: TM-QS-2's MUST applications (bulk, "
			"micro) only; the scripted patterns it SHOULD run are "
			"rfc7640.queue-stateful's"));
	if (p->bursts && p->ql % pm.n_in)
		json_object_array_add(dev, json_object_new_string(
			"QL does not divide by the ingress ports: the bursts "
			"together are a few bytes short of QL"));
	if (pm.n_eg > 1 && p->n_classes > 1)
		json_object_array_add(dev, json_object_new_string(
			"per egress port, queue and ingress stream as AMB-44 "
			"reads the draft's example (\"Egress Port 1, WFQ "
			"Queue\")"));
	tm_deviations(&x, dev, true);
	/* each number is its own flow's (tm_egress_flow_tput) */
	json_object_array_add(dev, json_object_new_string(TM_TPUT_SAID));
	*result = bm_result_envelope(NAME, qc_ref(p, &pm),
				     bm_json_params_to_json(tm_qcap_keys, 0, p,
							    tm_qcap_writers),
				     &x.log, NULL, res, dev, be);
	tm_ctx_free(&x);
	return ret;
}

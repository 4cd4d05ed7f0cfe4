// SPDX-License-Identifier: GPL-2.0
/*
 * rfc7640.queue-capacity's parameters (TM §6.2.2, SPEC TM-QS-CAP-1 ..
 * -4): the key table and its writers, the defaults, the check and the
 * bound on trials, and what the scheduler's queues are (SP or WFQ, the
 * WFQ weights' sum) that the configuration, the rows and the statistics
 * all ask.  Apart from the run (queue_cap.c) and its trials
 * (queue_cap_trial.c) because these only read the params: the registry
 * parses and checks them without a backend.
 */

#include "bm_json.h"
#include "rfc7640_int.h"

/* enum tm_sched order */
const char *const tm_qcap_params_sched_names[] = { "fifo", "sp", "wfq",
						   "other", "sp_wfq", NULL };

#define NAME	"rfc7640.queue-capacity"

static int parse_dscps(json_object *v, void *base, const char *key,
		       struct bm_error *err)
{
	struct tm_qcap_params *p = base;

	return tm_class_dscps_parse(v, key, p->dscps, &p->n_classes, err);
}

static int parse_rates(json_object *v, void *base, const char *key,
		       struct bm_error *err)
{
	struct tm_qcap_params *p = base;

	return tm_values_parse(v, key, 0, true, 1e13, false, TM_MAX_CLASSES,
			       p->rates_bps, &p->n_rates, err);
}

static int parse_weights(json_object *v, void *base, const char *key,
			 struct bm_error *err)
{
	struct tm_qcap_params *p = base;

	return tm_values_parse(v, key, 0, false, 1e9, false, TM_MAX_CLASSES,
			       p->weights, &p->n_weights, err);
}

static int parse_ingress(json_object *v, void *base, const char *key,
			 struct bm_error *err)
{
	return tm_port_list_parse(v, key,
				  &((struct tm_qcap_params *)base)->ingress,
				  err);
}

static int parse_egress(json_object *v, void *base, const char *key,
			struct bm_error *err)
{
	return tm_port_list_parse(v, key,
				  &((struct tm_qcap_params *)base)->egress,
				  err);
}

#define CO(f)	offsetof(struct tm_qcap_params, f)

const struct bm_param tm_qcap_keys[] = {
	{ { "ql", BM_J_BYTES, CO(ql), 64, 1e12, 0, 0, NULL, NULL }, "B",
	  "the egress queue length QL [PROPOSED 32KB: the draft's example]",
	  NULL },
	{ { "bb_bps", BM_J_DOUBLE, CO(bb_bps), 0, 1e13, BM_JK_MIN_EXCL, 0,
	    NULL, NULL }, "bit/s", "the egress bottleneck BB [PROPOSED 100 "
	  "Mbit/s]", NULL },
	{ { "scheduler", BM_J_ENUM, CO(scheduler), 0, 0, 0, 0,
	    tm_qcap_params_sched_names, NULL }, "", "the DUT's scheduling "
	  "technique, reported (TM §6.2.2.1.1: sp; §6.2.2.1.2: sp_wfq)",
	  NULL },
	{ { "class_dscps", BM_J_CUSTOM, CO(dscps), 0, 63, 0, 0, NULL,
	    parse_dscps },
	  "", "the classes' DSCPs, one queue each, 1 to 8, SP queues in "
	  "priority order [PROPOSED 46, 0: EF and best effort]",
	  "integer array" },
	{ { "class_rates_bps", BM_J_CUSTOM, CO(rates_bps), 0, 1e13,
	    BM_JK_MIN_EXCL, 0, NULL, parse_rates }, "bit/s", "each class's "
	  "rate from every ingress port to every egress port, accounting "
	  "mode [PROPOSED 20e6, 50e6: the SPEC's acceptance]", "number array" },
	{ { "class_weights", BM_J_CUSTOM, CO(weights), 0, 1e9,
	    BM_JK_DERIVED | BM_JK_ZERO_NULL, 0, NULL, parse_weights }, "",
	  "each queue's WFQ weight as configured (e.g. ets quanta), 0 for an "
	  "SP queue; reported, and the WFQ shares are set against it (unset: "
	  "every queue SP)", "number array" },
	{ { "ingress_ports", BM_J_CUSTOM, CO(ingress), 1, BM_BACKEND_MAX_PORTS,
	    BM_JK_DERIVED, 0, NULL, parse_ingress }, "", "the ingress ports, "
	  "1 = the job's first (unset: every port not an egress)",
	  "integer array" },
	{ { "egress_ports", BM_J_CUSTOM, CO(egress), 1, BM_BACKEND_MAX_PORTS,
	    BM_JK_DERIVED, 0, NULL, parse_egress }, "", "the egress ports; "
	  "every ingress port sends each class to each (unset: the last "
	  "port)", "integer array" },
	{ { "bursts", BM_J_BOOL, CO(bursts), 0, 0, 0, 0, NULL, NULL }, "",
	  "also TM-QS-1's bursts: QL / n_in from every ingress port to each "
	  "egress together every QL x 8 / BB", NULL },
	TM_COMMON_TD_KEYS(CO, "§6.2.1.1: 30"),
	TM_QCAP_SF_KEYS(CO),
	{ { NULL, 0, 0, 0, 0, 0, 0, NULL, NULL }, NULL, NULL, NULL },
};

const struct bm_jwriter tm_qcap_writers[] = {
	{ parse_dscps, bm_json_uints_at, CO(n_classes) },
	{ parse_rates, bm_json_doubles_at, CO(n_rates) },
	{ parse_weights, bm_json_doubles_at, CO(n_weights) },
	{ parse_ingress, tm_port_list_at, 0 },
	{ parse_egress, tm_port_list_at, 0 },
	TM_QCAP_SF_WRITERS,
	{ NULL, NULL, 0 },
};

void tm_qcap_defaults(struct tm_qcap_params *p)
{
	*p = (struct tm_qcap_params){
		.ql = 32000,			/* [PROPOSED] */
		.bb_bps = 100e6,		/* [PROPOSED] */
		.scheduler = TM_SCHED_SP,	/* §6.2.2.1.1 */
		.dscps = { 46, 0 },		/* [PROPOSED] EF, BE */
		.n_classes = 2,
		.rates_bps = { 20e6, 50e6 },	/* [PROPOSED] SPEC acceptance */
		.n_rates = 2,
		.bursts = true,
	};
	tm_common_defaults(&p->c, 30.0);
	tm_qcap_sf_defaults(p);
}

/* Is class k a WFQ queue? */
bool tm_qcap_params_is_wfq(const struct tm_qcap_params *p, size_t k)
{
	/* tm_qcap_check: scheduler wfq comes with its weights */
	return p->n_weights && p->weights[k] > 0;
}

/* What queue k is: "sp", "wfq", or the scheduler's name. */
const char *tm_qcap_params_queue_kind(const struct tm_qcap_params *p,
				      size_t k)
{
	if (p->n_weights)
		return p->weights[k] > 0 ? "wfq" : "sp";
	return tm_qcap_params_sched_names[p->scheduler];
}

int tm_qcap_check(const struct tm_qcap_params *p, struct bm_error *err)
{
	size_t k, n_wfq = 0;

	if (p->n_rates != p->n_classes)
		return bm_errorf(err, NAME ": class_rates_bps: %zu rates for "
				 "%zu classes (class_dscps)", p->n_rates,
				 p->n_classes);
	if (p->n_weights && p->n_weights != p->n_classes)
		return bm_errorf(err, NAME ": class_weights: %zu weights for "
				 "%zu classes (class_dscps)", p->n_weights,
				 p->n_classes);
	for (k = 0; k < p->n_weights; k++)
		n_wfq += p->weights[k] > 0;
	switch (p->scheduler) {
	case TM_SCHED_SP:
		if (n_wfq)
			return bm_errorf(err, NAME ": class_weights: a WFQ "
					 "weight with scheduler sp (use "
					 "sp_wfq)");
		break;
	case TM_SCHED_WFQ:
		if (p->n_weights && n_wfq < p->n_classes)
			return bm_errorf(err, NAME ": class_weights: an SP "
					 "queue (weight 0) with scheduler wfq "
					 "(use sp_wfq)");
		break;
	case TM_SCHED_SP_WFQ:
		if (!n_wfq || n_wfq == p->n_classes)
			return bm_errorf(err, NAME ": class_weights: "
					 "scheduler sp_wfq needs SP queues "
					 "(weight 0) and WFQ queues (weight > "
					 "0)");
		break;
	default:
		break;
	}
	if (p->scheduler == TM_SCHED_WFQ && !p->n_weights)
		return bm_errorf(err, NAME ": class_weights: scheduler wfq "
				 "needs the queues' weights");
	return 0;
}

double tm_qcap_max_trials(const struct tm_qcap_params *p)
{
	return (1.0 + (p->bursts ? 1.0 : 0.0)) * p->c.tr;
}

/* Sum of the WFQ queues' weights. */
double tm_qcap_params_wfq_weights(const struct tm_qcap_params *p)
{
	double w = 0;
	size_t k;

	for (k = 0; k < p->n_weights; k++)
		w += p->weights[k];
	return w;
}

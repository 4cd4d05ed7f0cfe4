// SPDX-License-Identifier: GPL-2.0
/*
 * The RFC 7640 (traffic management) procedures as procedures of the
 * registry (bm_proc_info.h): their hooks and their rows.
 * rfc7640.concurrent, which runs the others through the registry, is
 * procedures/concurrent.c's.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bm_json.h"
#include "bm_result.h"
#include "bm_proc_info.h"
#include "rfc7640.h"

BM_PROC_HOOKS(tm_hunt, struct tm_hunt_params)
BM_PROC_HOOKS(tm_pol, struct tm_pol_params)
BM_PROC_HOOKS(tm_qs, struct tm_qs_params)
BM_PROC_HOOKS(tm_shp, struct tm_shp_params)
BM_PROC_HOOKS(tm_qcap, struct tm_qcap_params)
BM_PROC_HOOKS(tm_polp, struct tm_polp_params)
BM_PROC_HOOKS(tm_polc, struct tm_polc_params)
BM_PROC_HOOKS(tm_shcap, struct tm_shcap_params)


/* RFC 7640 TM-QS-2 and TM-SHP-2: one table, two sets of defaults. */
#define sfq_keys tm_sf_keys
#define sfs_keys tm_sf_keys
#define sfq_check tm_sf_check
#define sfs_check tm_sf_check
#define sfq_max_trials tm_sf_max_trials
#define sfs_max_trials tm_sf_max_trials
#define sfq_run tm_sf_run
#define sfs_run tm_sf_run
#define sfq_defaults tm_sf_defaults
#define sfs_defaults tm_sf_shaper_defaults

/* rfc7640.nde-verify: delay_ms is the one key without a default, so the
 * hooks parse without requiring it (a bound of the defaults, for one) and
 * validate requires it, as a run does (tm_nde_check) */
static int nde_keys_check(const struct tm_nde_params *p, struct bm_error *err)
{
	(void)p;
	(void)err;
	return 0;
}
#define nde_defaults tm_nde_defaults
#define nde_check nde_keys_check
#define nde_max_trials tm_nde_max_trials
#define nde_run tm_nde_run
BM_PROC_HOOKS(nde, struct tm_nde_params)

static int nde_validate_all(const struct bm_procedure_info *pi,
			    json_object *params, double line,
			    struct bm_error *err)
{
	struct tm_nde_params p;
	int ret = nde_validate(pi, params, line, err);

	if (ret)
		return ret;
	nde_parse(pi, params, &p, err);
	return tm_nde_check(&p, err);
}

/* REQ-TM-2's paths: TM-QS-2 and TM-SHP-2 client -> server, ports 1 and
 * 2; TM-QS-CAP's every ingress -> egress with stateful_apps. */
static unsigned int sf_nde_pairs(const struct bm_procedure_info *pi,
				 json_object *params, unsigned int n_ports,
				 unsigned int (*pairs)[2], unsigned int max)
{
	(void)pi;
	(void)params;
	if (n_ports < 2 || !max)
		return 0;
	pairs[0][0] = 0;
	pairs[0][1] = 1;
	return 1;
}

static unsigned int qcap_nde_pairs(const struct bm_procedure_info *pi,
				   json_object *params, unsigned int n_ports,
				   unsigned int (*pairs)[2], unsigned int max)
{
	struct tm_qcap_params p;
	struct bm_error err = { "" };

	/* parameters bmd's submit took; a run refuses them otherwise */
	if (tm_qcap_parse(pi, params, &p, &err))
		return 0;
	return tm_qcap_nde_pairs(&p, n_ports, pairs, max);
}

BM_PROC_HOOKS(sfq, struct tm_sf_params)
BM_PROC_HOOKS(sfs, struct tm_sf_params)

/* tables without custom keys */
#define tm_hunt_writers NULL
#define tm_pol_writers NULL
#define tm_qs_writers NULL
#define tm_shp_writers NULL

#define TM_ROW(P, nm, need, dur, sum, ids) { \
	.name = nm, .summary = sum, .refs = ids, .ports_needed = need, \
	.keys = P##_keys, .writers = P##_writers, .duration_key = dur, \
	.sizes_key = "frame_size", \
	.validate = P##_validate, .defaults = P##_defaults_json, \
	.max_trials = P##_bound, .run = P##_run_proc }

const struct bm_procedure_info rfc7640_procedures[] = {
	TM_ROW(tm_hunt, "rfc7640.burst-hunt", 2, NULL,
	       "RFC 7640 §5.1.1 burst hunt: the largest burst a policer or "
	       "queue passes without loss (BSA)",
	       "TM-BURST-HUNT, TM-MET-BSA, TM-CAP-SL, REQ-GEN-2.4, "
	       "REQ-UNIT-1"),
	TM_ROW(tm_pol, "rfc7640.policer", 2, "td_s",
	       "RFC 7640 §6.1.1 policer: compliant CBS + EBS bursts every "
	       "Ti, then excess bursts; BSA, LP, OOS, PD, PDV, re-marking",
	       "TM-POL-1, TM-MET-SL, TM-GLOBAL, REQ-TM-1, REQ-TM-3, "
	       "REQ-TM-10, REQ-RX-5"),
	TM_ROW(tm_polp, "rfc7640.policer-ports", 2, "td_s",
	       "RFC 7640 §6.1.2.2 a policer on every port, all ports "
	       "active: the policer test on port pairs 1 -> 2, 3 -> 4, ... "
	       "at once",
	       "TM-POL-CAP-2, TM-POL-1, TM-MET-SL, REQ-TM-1, REQ-TM-3, "
	       "REQ-TM-10"),
	TM_ROW(tm_polc, "rfc7640.policer-customers", 2, "td_s",
	       "RFC 7640 §6.1.2.1 / §6.1.2.3 a policer per customer VLAN: "
	       "the policer test per customer stream, bursts staggered, on "
	       "one port pair or all",
	       "TM-POL-CAP-1, TM-POL-CAP-3, TM-POL-1, TM-MET-SL, REQ-TM-1, "
	       "REQ-TM-3, REQ-TM-8, REQ-TM-10"),
	TM_ROW(tm_qs, "rfc7640.queue", 2, "td_s",
	       "RFC 7640 §6.2.1.1 queue and scheduler: QL bursts every "
	       "QL x 8 / BB, and two classes above BB (2 or 3 ports)",
	       "TM-QS-1, TM-MET-SL, TM-GLOBAL, REQ-TM-1, REQ-TM-3, "
	       "REQ-TM-10"),
	TM_ROW(tm_shp, "rfc7640.shaper", 2, "td_s",
	       "RFC 7640 §6.3.1.1 shaper: IQ bursts every IQ x 8 / SR; LP, "
	       "OOS, PDV, SR, SBB, SBI at the egress",
	       "TM-SHP-1, TM-MET-SL, TM-GLOBAL, REQ-TM-1, REQ-TM-3, "
	       "REQ-TM-10"),
	{ .name = "rfc7640.queue-capacity",
	  .summary = "RFC 7640 §6.2.2 queues of one or more egress ports (SP, "
		     "WFQ): every ingress port sends each class, and "
		     "optionally TM-QS-2's TCP applications, to each egress; "
		     "per egress, queue and ingress stream",
	  .refs = "TM-QS-CAP-1, TM-QS-CAP-2, TM-QS-CAP-3, TM-QS-CAP-4, "
		  "TM-QS-1, TM-QS-2, TM-MET-SL, TM-MET-SF, AMB-43, AMB-44, "
		  "REQ-TM-1, REQ-TM-3",
	  .ports_needed = 3, .keys = tm_qcap_keys,
	  .writers = tm_qcap_writers, .duration_key = "td_s",
	  .sizes_key = "frame_size", .validate = tm_qcap_validate,
	  .defaults = tm_qcap_defaults_json, .max_trials = tm_qcap_bound,
	  .run = tm_qcap_run_proc, .nde_pairs = qcap_nde_pairs },
	TM_ROW(tm_shcap, "rfc7640.shaper-capacity", 3, "td_s",
	       "RFC 7640 §6.3.2 shaped egress ports and queues, all ports "
	       "active: per egress, queue and ingress stream SR, LP, OOS, "
	       "PDV, SBB, SBI",
	       "TM-SHP-CAP-1, TM-SHP-CAP-2, TM-SHP-CAP-3, TM-SHP-1, "
	       "TM-MET-SL, AMB-39, REQ-TM-1, REQ-TM-3"),
	{ .name = "rfc7640.nde-verify",
	  .summary = "RFC 7640 §1.2 the network delay emulator alone: loss "
		     "and delay per frame size at the target rate, and a bulk "
		     "TCP connection's goodput and RTT (bmctl nde-verify)",
	  .refs = "TM-SETUP, REQ-TM-2, REQ-TM-6, TM-CAP-SF",
	  .ports_needed = 2, .keys = tm_nde_keys, .writers = tm_nde_writers,
	  .duration_key = "duration_s", .sizes_key = "frame_sizes",
	  .validate = nde_validate_all, .defaults = nde_defaults_json,
	  .max_trials = nde_bound, .run = nde_run_proc },
	{ .name = "rfc7640.queue-stateful",
	  .summary = "RFC 7640 §6.2.1.2 queue and scheduler with stateful "
		     "traffic: TCP applications (bulk, micro burst, web, ...) "
		     "through the queue and the NDE",
	  .refs = "TM-QS-2, TM-MET-SF, TM-CAP-SF, TM-TTP, PLAT-TCP, "
		  "REQ-TM-1, REQ-TM-3",
	  .ports_needed = 2, .keys = sfq_keys, .mask = TM_SF_MASK(false),
	  .writers = tm_sf_writers,
	  .duration_key = "td_s", .sizes_key = NULL,
	  .validate = sfq_validate, .defaults = sfq_defaults_json,
	  .max_trials = sfq_bound, .run = sfq_run_proc,
	  .nde_pairs = sf_nde_pairs },
	{ .name = "rfc7640.shaper-stateful",
	  .summary = "RFC 7640 §6.3.1.2 shaper with stateful traffic: TCP "
		     "applications through the shaper and the NDE",
	  .refs = "TM-SHP-2, TM-MET-SF, TM-CAP-SF, TM-TTP, PLAT-TCP, "
		  "AMB-46, REQ-TM-1, REQ-TM-3",
	  .ports_needed = 2, .keys = sfs_keys, .mask = TM_SF_MASK(true),
	  .writers = tm_sf_writers,
	  .duration_key = "td_s", .sizes_key = NULL,
	  .validate = sfs_validate, .defaults = sfs_defaults_json,
	  .max_trials = sfs_bound, .run = sfs_run_proc,
	  .nde_pairs = sf_nde_pairs },
	{ .name = NULL },
};

// SPDX-License-Identifier: GPL-2.0
/*
 * RFC 2544 §11.2 management queries (R2544-MOD, C.2.4.3, AMB-24): what a
 * run with them reports.  The queries themselves are the backend's
 * (bm_traffic.h's struct bm_mgmt_spec): one SNMPv1 GetRequest as the
 * first frame of each second of every trial, from the tx port, in place
 * of a test frame; the answers are checked there (bm_snmp_verify).
 *
 * A DUT that leaves queries unanswered under load is a finding about the
 * DUT, not a failed measurement: the throughput stays the test frames'
 * (§11.2's aim is the forwarding rate "with management frames"), and the
 * entry says how many queries went unanswered and why.
 */
#include <stdio.h>
#include <string.h>

#include "rfc2544_int.h"

void r2544_mgmt_report(struct r2544_run *r, json_object *e, size_t first,
		       char *stmt, size_t len)
{
	const struct rfc2544_params *p = r->p;
	uint64_t sent = 0, answered = 0, verified = 0;
	const char *error = NULL;
	json_object *m = json_object_new_object();
	char agent[16];
	size_t k;

	for (k = first; k < r->log.n; k++) {
		const struct bm_trial_result *res = &r->log.v[k].res;

		sent += res->mgmt_sent;
		answered += res->mgmt_answered;
		verified += res->mgmt_verified;
		if (!error && res->mgmt_error[0])
			error = res->mgmt_error;
	}
	bm_ip4_text(p->mgmt_agent, agent);
	json_object_object_add(e, "management", m);
	bm_json_add_str(m, "agent", agent);
	bm_json_add_u64(m, "ifindex", p->mgmt_ifindex);
	bm_json_add_u64(m, "queries", sent);
	bm_json_add_u64(m, "answered", answered);
	bm_json_add_u64(m, "verified", verified);
	bm_json_add_str(m, "first_error", error);
	if (stmt && sent)
		snprintf(stmt + strlen(stmt), len - strlen(stmt),
			 "; with one SNMP query a second to %s (§11.2), of "
			 "which the agent answered %llu of %llu, %llu "
			 "verified", agent, (unsigned long long)answered,
			 (unsigned long long)sent,
			 (unsigned long long)verified);
}

void r2544_mgmt_deviations(struct r2544_run *r)
{
	if (!r->p->management)
		return;
	r2544_deviation(r, "AMB-24: §11.2's management query (C.2.4.6 \"to "
			"be defined\") is an SNMPv1 GetRequest for sysUpTime.0 "
			"and ifInOctets, ifOutOctets, ifInUcastPkts, "
			"ifOutUcastPkts of mgmt_ifindex (C.2.4.3), sent through "
			"the tx port's kernel stack beside bmgen.ko's test "
			"frames, each in place of one test frame; an answer is "
			"verified when it is a GetResponse to that query, "
			"error-status 0, the same five OIDs, TimeTicks and "
			"counters");
}

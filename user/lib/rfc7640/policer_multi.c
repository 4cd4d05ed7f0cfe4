// SPDX-License-Identifier: GPL-2.0
/*
 * What the policer capacity procedures (TM §6.1.2: TM-POL-CAP-1, -2, -3)
 * share: TM-POL-1's two steps for many policed streams at once, run Tr
 * times, with a row per stream per step per run (TM §6.1.2.1's "two rows
 * for each customer stream"), the statistics per stream over the runs
 * (REQ-TM-3) and per stream its excess outcome (TM §6.1.1 MUST verify).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bm_json.h"
#include "bm_result.h"
#include "rfc7640_int.h"

int tm_pol_port_pairs(struct tm_ctx *x, unsigned int *n)
{
	*n = x->be->n_ports / 2;
	if (x->be->n_ports % 2)
		return bm_errorf(x->err, "%s: the ports go in pairs (ingress, "
				 "egress), %u given", x->name,
				 x->be->n_ports);
	return 0;
}

/* Per stream: compliant BSA and LP, excess BSA and LP. */
#define POL_STATS	4

static const char *const stat_names[POL_STATS] = {
	"compliant_bsa_bytes", "compliant_lp", "excess_bsa_bytes",
	"excess_lp",
};

/* One run: every stream's rows and statistics. */
static int run_once(struct tm_ctx *x, struct tm_pol_pair *pp, unsigned int n,
		    unsigned int test, json_object *res,
		    double (*v)[POL_STATS][TM_MAX_TR], unsigned int run)
{
	json_object *comp = json_object_object_get(res, "compliant");
	json_object *exc = json_object_object_get(res, "excess");
	json_object *dscp = json_object_object_get(res, "dscp_counts");
	const char *in, *eg;
	unsigned int i;
	int k, ret = 0;
	size_t from;

	for (k = 0; k < 2 && !ret; k++)
		ret = tm_pol_step_run(x, pp, n, k, test);
	for (i = 0; i < n && !ret; i++) {
		const struct tm_pol_step *st = pp[i].st;

		in = x->be->port_names[pp[i].tx];
		eg = x->be->port_names[pp[i].rx];
		for (k = 0; k < 2; k++) {
			from = json_object_array_length(k ? exc : comp);
			json_object_array_add(k ? exc : comp, tm_pol_step_row(
				&pp[i], k, test, NULL, NULL));
			tm_pol_name_rows(k ? exc : comp, from, in, eg,
					 &pp[i].enc);
		}
		from = json_object_array_length(dscp);
		for (k = 0; k < 2; k++)
			tm_dscp_rows(dscp, test, tm_pol_step_names[k],
				     &st[k].m);
		tm_pol_name_rows(dscp, from, in, eg, &pp[i].enc);
		pp[i].taken_runs += tm_pol_excess_taken(&pp[i]);
		v[i][0][run] = st[0].m.bursts_analysed ?
			       st[0].m.egress_min_bytes : NAN;
		v[i][1][run] = (double)st[0].m.lost;
		v[i][2][run] = st[1].m.bursts_analysed ?
			       st[1].m.egress_min_bytes : NAN;
		v[i][3][run] = (double)st[1].m.lost;
	}
	return ret;
}

/* "EGRESS" or "EGRESS_vlanV" (and "_V2" for QinQ): a stream's name. */
static void stream_name(const struct tm_ctx *x, const struct tm_pol_pair *pp,
			char *buf, size_t len)
{
	const char *eg = x->be->port_names[pp->rx];

	if (!pp->enc.vlan)
		snprintf(buf, len, "%s", eg);
	else if (!pp->enc.vlan2)
		snprintf(buf, len, "%s_vlan%u", eg, pp->enc.vlan);
	else
		snprintf(buf, len, "%s_vlan%u_%u", eg, pp->enc.vlan,
			 pp->enc.vlan2);
}

int tm_pol_streams(struct tm_ctx *x, struct tm_pol_pair *pp, unsigned int n,
		   json_object *res)
{
	double (*v)[POL_STATS][TM_MAX_TR] = calloc(n, sizeof(*v));
	json_object *stats, *outs, *o;
	unsigned int i, k, runs = 0;
	char name[128], sname[96], buf[64];
	int ret = 0;

	json_object_object_add(res, "compliant", json_object_new_array());
	json_object_object_add(res, "excess", json_object_new_array());
	json_object_object_add(res, "dscp_counts", json_object_new_array());
	if (!v)
		ret = bm_errorf(x->err, "out of memory");
	for (i = 0; i < x->c->tr && !ret; i++) {
		ret = run_once(x, pp, n, i + 1, res, v, runs);
		if (!ret)
			runs++;
	}
	stats = json_object_new_object();
	outs = json_object_new_array();
	for (i = 0; i < n && v; i++) {
		stream_name(x, &pp[i], sname, sizeof(sname));
		for (k = 0; k < POL_STATS; k++) {
			snprintf(name, sizeof(name), "%s_%s", sname,
				 stat_names[k]);
			tm_stat(stats, name, v[i][k], runs);
		}
		o = json_object_new_object();
		json_object_array_add(outs, o);
		bm_json_add_str(o, "outcome", runs ? tm_pol_outcome(
			pp[i].taken_runs, runs, buf, sizeof(buf)) : NULL);
		tm_pol_name_rows(outs, json_object_array_length(outs) - 1,
				 x->be->port_names[pp[i].tx],
				 x->be->port_names[pp[i].rx], &pp[i].enc);
	}
	json_object_object_add(res, "statistics", stats);
	json_object_object_add(res, "excess_outcomes", outs);
	free(v);
	return ret;
}

json_object *tm_pol_finish(struct tm_ctx *x, json_object *res,
			   json_object *dev, int formula,
			   const struct tm_pol_pair *pp, unsigned int n,
			   const char *ref, json_object *params)
{
	json_object *doc;
	bool ebs = false;
	unsigned int i;

	for (i = 0; i < n; i++)
		ebs |= pp[i].ebs > 0;
	json_object_object_add(res, "measurement", tm_measurement_json(x));
	if (x->frame_logs)
		json_object_object_add(res, "frame_logs", x->frame_logs);
	tm_pol_deviations(x, dev, formula, ebs);
	doc = bm_result_envelope(x->name, ref, params, &x->log, NULL, res, dev,
				 x->be);
	tm_ctx_free(x);
	return doc;
}

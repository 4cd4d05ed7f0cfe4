// SPDX-License-Identifier: GPL-2.0
/*
 * One run of rfc7640.queue-capacity (TM §6.2.2, SPEC TM-QS-CAP-1 .. -4):
 * its bursts (TM-QS-1's, from every ingress port to each egress) and its
 * classes' CBR mesh, the rows each egress port gets per ingress stream,
 * class and queue (MUST rows 34-37, the fair and WFQ shares), and the
 * statistics block over the runs.  Apart from the run (queue_cap.c)
 * because this is what one run measures and says; the run around it
 * plans, configures and sums up.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bm_json.h"
#include "rfc7640_int.h"

/* The burst part of one run: m[i * n_eg + e] of ingress i to egress e. */
static int qc_bursts(struct tm_ctx *x, const struct tm_qcap_params *p,
		     const struct tm_portmap *pm, const struct tm_burst *b,
		     double ti, uint32_t bursts, unsigned int test,
		     struct tm_flow_metrics *m)
{
	double bt = tm_burst_time_s(b, x->be->line_rate_bps);
	unsigned int i, e, n = pm->n_in * pm->n_eg;
	struct bm_traffic_result *r = NULL;
	struct tm_flow *f;
	struct bm_traffic t;
	char reason[96];
	int ret;

	f = calloc(n, sizeof(*f));
	if (!f)
		return bm_errorf(x->err, "out of memory");
	ret = tm_traffic(x, &t);
	for (i = 0; i < pm->n_in && !ret; i++)
		for (e = 0; e < pm->n_eg && !ret; e++)
			ret = tm_add_bursts(x, &t, pm->in[i], pm->eg[e],
					    (uint8_t)p->c.dscp, b, bursts, ti,
					    e * bt, true, &f[i * pm->n_eg + e]);
	if (ret)
		goto out;
	snprintf(reason, sizeof(reason), "run %u: %u x %u x %llu B bursts "
		 "every %.6g s", test, pm->n_in, pm->n_eg,
		 (unsigned long long)b->nominal, ti);
	ret = tm_trial_flows(x, &t, p->c.td_s, "bursts", reason, test, f, m,
			     n, &r);
out:
	free(f);
	bm_traffic_result_free(r);
	bm_traffic_free(&t);
	return ret;
}

/*
 * The statistics over the runs: per scope (0: every egress together,
 * then each egress when there are several) and class, the throughput,
 * LP, smallest share and WFQ share; per egress its throughput (several
 * egresses); the bursts' LP and smallest BSA.
 */
enum { QS_THR, QS_LP, QS_SHARE_MIN, QS_WFQ_SHARE, QS_PER_CLASS };

static size_t qs_class(const struct tm_qcap_stats *s, unsigned int scope,
		       unsigned int k, unsigned int j)
{
	return ((size_t)scope * s->nc + k) * QS_PER_CLASS + j;
}

static size_t qs_egress(const struct tm_qcap_stats *s, unsigned int e)
{
	return (size_t)s->scopes * s->nc * QS_PER_CLASS + e;
}

size_t tm_qcap_trial_qs_bursts(const struct tm_qcap_stats *s,
			       unsigned int j)
{
	return qs_egress(s, s->scopes > 1 ? s->n_eg : 0) + j;
}

/* One egress's class totals of a run. */
struct qc_class {
	double tot, offered, lp, lo, hi, wfq_share;
	double bytes;		/* received: the shares are of bytes */
};

/* The classes' rows of egress e of run test, from the mesh's metrics;
 * its totals into c[0..nc); the egress's throughput (tm_egress_tput). */
static double qc_egress_rows(const struct tm_ctx *x,
			   const struct tm_qcap_params *p,
			   const struct tm_portmap *pm,
			   const struct tm_mesh *ms, unsigned int e,
			   unsigned int test, json_object *res,
			   struct qc_class *c)
{
	const char *eg = x->be->port_names[pm->eg[e]];
	unsigned int i, k, nc = (unsigned int)p->n_classes, prio = 0;
	double td = p->c.td_s, wsum = tm_qcap_params_wfq_weights(p);
	double wfq = 0, sp = 0;
	double off = 0, lp = 0, share;
	struct tm_egress eb = TM_EGRESS_INIT;
	json_object *o;

	for (k = 0; k < nc; k++)
		for (i = 0; i < pm->n_in; i++)
			tm_egress_add(&eb, &ms->m[tm_mesh_at(pm, nc, i, e, k)]);
	for (k = 0; k < nc; k++) {
		struct qc_class *q = &c[k];

		*q = (struct qc_class){ .lo = INFINITY, .hi = -INFINITY,
					.wfq_share = NAN };
		for (i = 0; i < pm->n_in; i++) {
			const struct tm_flow_metrics *s =
				&ms->m[tm_mesh_at(pm, nc, i, e, k)];

			q->tot += tm_egress_flow_tput(&eb, s, td);
			q->bytes += s->rx_bytes;
			q->offered += s->tx_bytes * 8.0 / td;
			q->lp += (double)s->lost;
		}
		if (tm_qcap_params_is_wfq(p, k))
			wfq += q->tot;
		else
			sp += q->tot;
		off += q->offered;
		lp += q->lp;
	}
	for (k = 0; k < nc; k++) {
		struct qc_class *q = &c[k];
		bool w = tm_qcap_params_is_wfq(p, k);

		/* the share of what the WFQ queues got: the remainder the
		 * SP queues left, when the egress is busy (TM §6.2.2.1.2);
		 * of their rates, each timed to its own last arrival: of
		 * bytes, the queue that drained alone after Td read its
		 * drain as share (28.7 % for a weight's 27.3, lab
		 * rfc7640/capacity-every-port) */
		if (w)
			q->wfq_share = wfq > 0 ? 100.0 * q->tot / wfq : NAN;
		for (i = 0; i < pm->n_in; i++) {
			const struct tm_flow_metrics *s =
				&ms->m[tm_mesh_at(pm, nc, i, e, k)];

			/* the ingress's part of its class at this egress, of
			 * bytes: rates timed over spans that differ split
			 * otherwise (66.2/33.8 for bytes of 73.5/26.5) */
			share = q->bytes > 0 ? 100.0 * s->rx_bytes / q->bytes :
				NAN;
			q->lo = fmin(q->lo, share);
			q->hi = fmax(q->hi, share);
			o = tm_egress_row(test, eg);
			bm_json_add_str(o, "ingress",
					x->be->port_names[pm->in[i]]);
			bm_json_add_u64(o, "queue", k + 1);
			bm_json_add_str(o, "queue_kind",
					tm_qcap_params_queue_kind(p, k));
			bm_json_add_u64(o, "dscp", p->dscps[k]);
			tm_stream_share_json(o, s, &eb, td, share);
			bm_json_add_double(o, "pd_p99_s", s->pd_p99_ns * 1e-9);
			tm_add_row(res, "streams", o);
		}
		o = tm_egress_row(test, eg);
		bm_json_add_u64(o, "dscp", p->dscps[k]);
		bm_json_add_double(o, "throughput_bps", q->tot);
		bm_json_add_double(o, "lp", q->lp);
		bm_json_add_double(o, "share_min_pct", q->lo);
		bm_json_add_double(o, "share_max_pct", q->hi);
		bm_json_add_double(o, "fair_share_pct", 100.0 / pm->n_in);
		tm_add_row(res, "fairness", o);
		o = tm_egress_row(test, eg);
		bm_json_add_u64(o, "queue", k + 1);
		bm_json_add_u64(o, "dscp", p->dscps[k]);
		bm_json_add_str(o, "kind", tm_qcap_params_queue_kind(p, k));
		if (!strcmp(tm_qcap_params_queue_kind(p, k), "sp"))
			bm_json_add_u64(o, "sp_priority", ++prio);
		bm_json_add_double(o, "offered_bps", q->offered);
		bm_json_add_double(o, "throughput_bps", q->tot);
		bm_json_add_double(o, "lp", q->lp);
		if (w) {
			bm_json_add_double(o, "wfq_share_pct", q->wfq_share);
			bm_json_add_double(o, "weight", p->weights[k]);
			bm_json_add_double(o, "weight_share_pct",
					   100.0 * p->weights[k] / wsum);
		}
		tm_add_row(res, "queues", o);
	}
	o = tm_egress_row(test, eg);
	bm_json_add_double(o, "offered_bps", off);
	/* TM-MET-SR of the egress port: all its bits over its window; the
	 * queues beside it are each timed to their own last arrival */
	bm_json_add_double(o, "throughput_bps", tm_egress_tput(&eb, td));
	bm_json_add_double(o, "lp", lp);
	bm_json_add_double(o, "sp_throughput_bps", sp);
	bm_json_add_double(o, "wfq_throughput_bps", wfq);
	tm_add_row(res, "egresses", o);
	return tm_egress_tput(&eb, td);
}

int tm_qcap_trial_run(struct tm_ctx *x, const struct tm_qcap_params *p,
		      const struct tm_portmap *pm, const struct tm_burst *b,
		      double ti, uint32_t bursts, unsigned int test,
		      json_object *res, struct tm_qcap_stats *st,
		      unsigned int n)
{
	unsigned int i, e, k, nc = (unsigned int)p->n_classes;
	struct tm_flow_metrics *bm = NULL;
	struct qc_class *c = NULL;
	struct tm_mesh ms;
	double bsa = INFINITY, blp = 0, wtot, wall;
	double eg_tput[BM_BACKEND_MAX_PORTS];
	json_object *o;
	size_t j;
	int ret = 0;

	for (j = 0; j < st->n; j++)
		st->v[j][n] = NAN;
	memset(&ms, 0, sizeof(ms));
	c = calloc((size_t)pm->n_eg * nc, sizeof(*c));
	bm = calloc((size_t)pm->n_in * pm->n_eg, sizeof(*bm));
	if (!c || !bm) {
		ret = bm_errorf(x->err, "out of memory");
		goto out;
	}
	if (p->bursts) {
		ret = qc_bursts(x, p, pm, b, ti, bursts, test, bm);
		for (i = 0; i < pm->n_in && !ret; i++) {
			for (e = 0; e < pm->n_eg; e++) {
				const struct tm_flow_metrics *s =
					&bm[i * pm->n_eg + e];

				o = tm_egress_row(test,
					   x->be->port_names[pm->eg[e]]);
				bm_json_add_str(o, "ingress",
						x->be->port_names[pm->in[i]]);
				bm_json_add_double(o, "bsa_bytes",
						   s->bursts_analysed ?
						   s->egress_min_bytes : NAN);
				tm_metrics_json(o, s);
				bm_json_add_u64(o, "bursts_with_loss",
						s->bursts_with_loss);
				tm_add_row(res, "bursts", o);
				bsa = fmin(bsa, s->bursts_analysed ?
					   s->egress_min_bytes : NAN);
				blp += (double)s->lost;
			}
		}
		st->v[tm_qcap_trial_qs_bursts(st, 0)][n] = blp;
		st->v[tm_qcap_trial_qs_bursts(st, 1)][n] =
			isfinite(bsa) ? bsa : NAN;
	}
	if (!ret)
		ret = tm_mesh_run(x, pm, p->dscps, p->rates_bps, nc, false,
				  p->c.td_s, "classes", test, &ms);
	if (ret)
		goto out;
	for (e = 0; e < pm->n_eg; e++)
		eg_tput[e] = qc_egress_rows(x, p, pm, &ms, e, test, res,
					    &c[e * nc]);
	/* every egress together; then each egress (several) */
	for (k = 0; k < nc; k++) {
		double thr = 0, lp = 0, lo = INFINITY, w = 0;

		wall = 0;
		for (e = 0; e < pm->n_eg; e++) {
			const struct qc_class *q = &c[e * nc + k];

			thr += q->tot;
			lp += q->lp;
			lo = fmin(lo, q->lo);
			for (i = 0, wtot = 0; i < nc; i++)
				wtot += tm_qcap_params_is_wfq(p, i) ?
					c[e * nc + i].tot : 0;
			wall += wtot;
			w += q->tot;
			if (st->scopes > 1) {
				st->v[qs_class(st, e + 1, k, QS_THR)][n] =
					q->tot;
				st->v[qs_class(st, e + 1, k, QS_LP)][n] =
					q->lp;
				st->v[qs_class(st, e + 1, k,
					       QS_SHARE_MIN)][n] = q->lo;
				st->v[qs_class(st, e + 1, k,
					       QS_WFQ_SHARE)][n] = q->wfq_share;
			}
		}
		st->v[qs_class(st, 0, k, QS_THR)][n] = thr;
		st->v[qs_class(st, 0, k, QS_LP)][n] = lp;
		st->v[qs_class(st, 0, k, QS_SHARE_MIN)][n] = lo;
		if (tm_qcap_params_is_wfq(p, k))
			st->v[qs_class(st, 0, k, QS_WFQ_SHARE)][n] =
				wall > 0 ? 100.0 * w / wall : NAN;
	}
	for (e = 0; st->scopes > 1 && e < pm->n_eg; e++)
		st->v[qs_egress(st, e)][n] = eg_tput[e];
out:
	tm_mesh_free(&ms);
	free(c);
	free(bm);
	return ret;
}

json_object *tm_qcap_trial_stats_json(const struct tm_ctx *x,
				      const struct tm_qcap_params *p,
				      const struct tm_portmap *pm,
				      const struct tm_qcap_stats *st,
				      unsigned int n)
{
	static const char *const what[QS_PER_CLASS] = {
		"throughput_bps", "lp", "share_min_pct", "wfq_share_pct",
	};
	json_object *stats = json_object_new_object();
	unsigned int s, k, j;
	char name[128], scope[48];

	for (s = 0; s < st->scopes; s++) {
		/* the first scope keeps CAP-1's names */
		if (s)
			snprintf(scope, sizeof(scope), "%s_",
				 x->be->port_names[pm->eg[s - 1]]);
		else
			scope[0] = '\0';
		for (k = 0; k < st->nc; k++) {
			for (j = 0; j < QS_PER_CLASS; j++) {
				if (j == QS_WFQ_SHARE &&
				    !tm_qcap_params_is_wfq(p, k))
					continue;
				snprintf(name, sizeof(name), "%sdscp%u_%s",
					 scope, p->dscps[k], what[j]);
				tm_stat(stats, name, st->v[qs_class(st, s, k,
								    j)], n);
			}
		}
	}
	for (s = 0; st->scopes > 1 && s < pm->n_eg; s++) {
		snprintf(name, sizeof(name), "%s_throughput_bps",
			 x->be->port_names[pm->eg[s]]);
		tm_stat(stats, name, st->v[qs_egress(st, s)], n);
	}
	if (p->bursts) {
		tm_stat(stats, "bursts_lp",
			st->v[tm_qcap_trial_qs_bursts(st, 0)], n);
		tm_stat(stats, "bursts_bsa_min_bytes",
			st->v[tm_qcap_trial_qs_bursts(st, 1)], n);
	}
	return stats;
}

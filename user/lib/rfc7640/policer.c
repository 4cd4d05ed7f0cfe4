// SPDX-License-Identifier: GPL-2.0
/*
 * TM §6.1.1 policer individual test (SPEC TM-POL-1), color-blind or, as
 * the draft's additional test, color-aware.
 *
 * Bursts at the line rate every Ti for Td, from port 0 to port 1:
 *   compliant step: bursts of CBS + EBS (the draft's step 3; its step 2
 *     says CBS, which agrees only for EBS = 0: AMB-41 follows step 3);
 *   excess step: bursts of CBS + EBS + excess (1000 B, recorded).
 * Ti = max(CBS x 8 / CIR, EBS x 8 / EIR) (AMB-41: neither bucket is
 * offered more than its rate), or CBS x 8 / CIR (--ti-formula draft),
 * times 1 + ti_margin (REQ-TM-10).
 *
 * Per step: BSA, the accounted bytes the DUT let through of every burst
 * (the smallest over the bursts: of a loss-free step, the burst itself;
 * of the excess step, what "only the BSA bytes" exit), LP, OOS, PD and
 * PDV, and per DSCP the frames and bytes that arrived: a frame with
 * another DSCP than sent was re-marked (yellow), a frame that did not
 * arrive was dropped (red).  The excess step took the excess away when it
 * took more bytes per burst (dropped or re-marked) than the compliant
 * step; a DUT that took no more "did not drop or re-mark the excess", the
 * one outcome TM §6.1.1 MUST verify.  No verdicts (REQ-TM-1).
 *
 * Colour-aware (RFC 4115 §2, --mode color-aware): each burst is its CBS
 * part sent green (DSCP dscp) and then its EBS part (+ excess) sent
 * pre-marked yellow (yellow_dscp), back to back; a colour-aware policer
 * may only pass the yellow part from bucket E.  Green, yellow and red are
 * reported per burst as the DSCP they arrived with or their loss.
 *
 * Every step also carries MODEL-TB's prediction (SPEC 5.3) fed with its
 * actual tx times (tm_pol_model): what the DUT should have let through of
 * the traffic that was sent.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bm_json.h"
#include "bm_result.h"
#include "rfc7640_int.h"

const char *const tm_ti_formula_names[] = { "amb41", "draft", NULL };
const char *const tm_pol_mode_names[] = { "color-blind", "color-aware",
					  NULL };

#define PO(f)	offsetof(struct tm_pol_params, f)

const struct bm_param tm_pol_keys[] = {
	{ { "cir_bps", BM_J_DOUBLE, PO(cir_bps), 0, 1e13, BM_JK_MIN_EXCL, 0,
	    NULL, NULL }, "bit/s", "the DUT policer's CIR [PROPOSED 100 "
	  "Mbit/s: the draft's example]", NULL },
	{ { "eir_bps", BM_J_DOUBLE, PO(eir_bps), 0, 1e13, 0, 0, NULL, NULL },
	  "bit/s", "the DUT policer's EIR; 0: single rate", NULL },
	{ { "cbs", BM_J_BYTES, PO(cbs), 1, 1e12, 0, 0, NULL, NULL }, "B",
	  "the DUT policer's CBS [PROPOSED 64KB: the draft's example]", NULL },
	{ { "ebs", BM_J_BYTES, PO(ebs), 0, 1e12, 0, 0, NULL, NULL }, "B",
	  "the DUT policer's EBS; 0: single rate", NULL },
	{ { "excess", BM_J_BYTES, PO(excess), 1, 1e12, 0, 0, NULL, NULL }, "B",
	  "bytes the excess step adds to each burst (TM §6.1.1: 1000, "
	  "recorded)", NULL },
	{ { "ti_formula", BM_J_ENUM, PO(ti_formula), 0, 0, 0, 0,
	    tm_ti_formula_names, NULL }, "", "amb41: Ti = max(CBS x 8 / CIR, EBS "
	  "x 8 / EIR) (AMB-41); draft: CBS x 8 / CIR as written", NULL },
	{ { "mode", BM_J_ENUM, PO(mode), 0, 0, 0, 0, tm_pol_mode_names,
	    NULL }, "", "color-blind; color-aware (RFC 4115, TM §6.1.1's "
	  "additional test): the EBS part of each burst goes pre-marked "
	  "yellow_dscp", NULL },
	{ { "yellow_dscp", BM_J_UINT, PO(yellow_dscp), 0, 63, 0, 0, NULL,
	    NULL }, "", "color-aware: the DSCP of the pre-marked yellow part "
	  "[PROPOSED 10, AF11: DUT-POL2's re-mark]", NULL },
	TM_COMMON_TD_KEYS(PO, "§6.1.1: 60"),
	{ { NULL, 0, 0, 0, 0, 0, 0, NULL, NULL }, NULL, NULL, NULL },
};

void tm_pol_defaults(struct tm_pol_params *p)
{
	*p = (struct tm_pol_params){
		/* [PROPOSED] the draft's §6.1.1 example: the user gives the
		 * DUT's configured values */
		.cir_bps = 100e6,
		.cbs = 64000,
		.excess = 1000,			/* TM §6.1.1 */
		.ti_formula = TM_TI_AMB41,
		.mode = TM_POL_BLIND,		/* TM-POL-1 */
		.yellow_dscp = 10,		/* [PROPOSED] AF11 */
	};
	tm_common_defaults(&p->c, 60.0);	/* §6.1.1: Td 60 s */
}

int tm_pol_check(const struct tm_pol_params *p, struct bm_error *err)
{
	if (p->ebs && !(p->eir_bps > 0))
		return bm_errorf(err, "rfc7640.policer: ebs: an EBS needs "
				 "eir_bps > 0");
	if (p->mode == TM_POL_AWARE && !p->ebs)
		return bm_errorf(err, "rfc7640.policer: mode: color-aware "
				 "needs a two-rate policer (ebs, eir_bps)");
	if (p->mode == TM_POL_AWARE && p->yellow_dscp == p->c.dscp)
		return bm_errorf(err, "rfc7640.policer: yellow_dscp: %u is "
				 "the green frames' dscp", p->yellow_dscp);
	return 0;
}

/* Ti of one policer: AMB-41's or the draft's, times 1 + margin. */
static double ti_of(double cir, uint64_t cbs, double eir, uint64_t ebs,
		    int formula, double margin_pct)
{
	double ti = (double)cbs * 8.0 / cir;

	if (formula == TM_TI_AMB41 && ebs && eir > 0)
		ti = fmax(ti, (double)ebs * 8.0 / eir);
	return ti * (1.0 + margin_pct / 100.0);
}

double tm_pol_ti_s(const struct tm_pol_params *p)
{
	return ti_of(p->cir_bps, p->cbs, p->eir_bps, p->ebs, p->ti_formula,
		     p->c.ti_margin_pct);
}

double tm_pol_max_trials(const struct tm_pol_params *p)
{
	return 2.0 * p->c.tr;
}

const char *const tm_pol_step_names[2] = { "compliant", "excess" };

double tm_pol_burst_s(const struct tm_pol_pair *pp, int k, double line_bps)
{
	return tm_burst_time_s(&pp->st[k].b, line_bps) +
	       (pp->aware ? tm_burst_time_s(&pp->st[k].yb, line_bps) : 0);
}

int tm_pol_pair_setup(struct tm_ctx *x, struct tm_pol_pair *pp,
		      uint64_t excess, int formula)
{
	double line = x->be->line_rate_bps;
	int ret;

	pp->ti_s = ti_of(pp->cir_bps, pp->cbs, pp->eir_bps, pp->ebs, formula,
			 x->c->ti_margin_pct);
	if (pp->aware) {
		ret = tm_plan(x, pp->cbs, "cbs", &pp->st[0].b);
		pp->st[1].b = pp->st[0].b;
		if (!ret)
			ret = tm_plan(x, pp->ebs, "ebs", &pp->st[0].yb);
		if (!ret)
			ret = tm_plan(x, pp->ebs + excess, "excess",
				      &pp->st[1].yb);
		if (!ret && tm_pol_burst_s(pp, 1, line) > pp->ti_s)
			ret = bm_errorf(x->err, "%s: Ti = %.6g s is shorter "
					"than the two parts of a burst at the "
					"line rate (%.6g s at %g bit/s)",
					x->name, pp->ti_s,
					tm_pol_burst_s(pp, 1, line), line);
	} else {
		ret = tm_plan(x, pp->cbs + pp->ebs, "cbs", &pp->st[0].b);
		if (!ret)
			ret = tm_plan(x, pp->cbs + pp->ebs + excess, "excess",
				      &pp->st[1].b);
		if (!ret)
			ret = tm_ti_fits(x, &pp->st[1].b, pp->ti_s, "Ti");
	}
	if (!ret && x->c->td_s < pp->ti_s)
		ret = bm_errorf(x->err, "%s: td_s: %g s is shorter than one "
				"Ti (%.6g s)", x->name, x->c->td_s, pp->ti_s);
	pp->bursts = tm_bursts_in(x->c->td_s, pp->ti_s);
	return ret;
}

/* Add pp's bursts of step k as flow f, its pieces from *yellow_from on
 * sent yellow, every stream with pp's tags. */
static int pol_flow(struct tm_ctx *x, struct bm_traffic *t,
		    const struct tm_pol_pair *pp, int k, struct tm_flow *f,
		    unsigned int *yellow_from)
{
	const struct tm_pol_step *s = &pp->st[k];
	struct bm_frame_template *ft;
	struct tm_flow y;
	unsigned int i;
	int ret;

	ret = tm_add_bursts(x, t, pp->tx, pp->rx, (uint8_t)x->c->dscp, &s->b,
			    pp->bursts, pp->ti_s, pp->start_s, true, f);
	*yellow_from = f->n;
	if (!ret && pp->aware) {
		/* right behind the green part: one burst at the line */
		ret = tm_add_bursts(x, t, pp->tx, pp->rx, pp->yellow, &s->yb,
				    pp->bursts, pp->ti_s, pp->start_s +
				    tm_burst_time_s(&s->b, x->be->line_rate_bps),
				    true, &y);
		if (!ret)
			tm_flow_join(f, &y);
	}
	for (i = f->first; !ret && pp->enc.vlan && i < f->first + f->n; i++) {
		ft = &t->streams[i].frame;
		ft->vlan_id = pp->enc.vlan;
		ft->tpid = pp->enc.tpid;
		ft->have_vlan2 = pp->enc.vlan2 != 0;
		ft->vlan2_id = pp->enc.vlan2;
	}
	return ret;
}

int tm_pol_step_run(struct tm_ctx *x, struct tm_pol_pair *pp, unsigned int n,
		    int k, unsigned int test)
{
	struct bm_traffic_result *r = NULL;
	struct bm_trial_result res;
	struct tm_flow *f = calloc(n, sizeof(*f));
	unsigned int *yf = calloc(n, sizeof(*yf));
	struct bm_traffic t;
	char reason[96];
	struct tm_pol_step *s;
	unsigned int i;
	double green;
	int ret;

	ret = tm_traffic(x, &t);
	if (!ret && (!f || !yf))
		ret = bm_errorf(x->err, "out of memory");
	for (i = 0; i < n && !ret; i++)
		ret = pol_flow(x, &t, &pp[i], k, &f[i], &yf[i]);
	if (ret)
		goto out;
	snprintf(reason, sizeof(reason), "run %u: %s, %u bursts of %llu B "
		 "every %.6g s%s", test, tm_pol_step_names[k], pp[0].bursts,
		 (unsigned long long)pp[0].st[k].b.nominal, pp[0].ti_s,
		 n > 1 ? " (port pair 1)" : "");
	ret = tm_trial(x, &t, x->c->td_s, tm_pol_step_names[k], reason, &r,
		       &res);
	for (i = 0; i < n && !ret; i++) {
		s = &pp[i].st[k];
		ret = tm_metrics(x, &t, r, &f[i], &s->m);
		if (ret)
			break;
		/* green: arrived with the DSCP sent; bytes from the log,
		 * frames (of the burst's mean size) where the log did not
		 * hold all */
		green = s->m.rx_bytes - s->m.remarked_bytes;
		if (!isfinite(green))
			green = s->m.rx_bytes * (double)(s->m.received -
							 s->m.remarked_frames) /
				fmax(1.0, (double)s->m.received);
		s->taken = (s->m.tx_bytes - green) / (double)pp[i].bursts;
		if (tm_pol_model(&t, r, &f[i], yf[i], x->c->accounting, &pp[i],
				 x->be->line_rate_bps, &s->model))
			ret = bm_errorf(x->err, "out of memory");
	}
	if (!ret)
		tm_keep_logs(x, test, tm_pol_step_names[k], &t, r);
out:
	free(f);
	free(yf);
	bm_traffic_result_free(r);
	bm_traffic_free(&t);
	return ret;
}

bool tm_pol_excess_taken(const struct tm_pol_pair *pp)
{
	/* more taken per burst than from the compliant bursts */
	return pp->st[1].taken > pp->st[0].taken + 0.5;
}

json_object *tm_pol_step_row(const struct tm_pol_pair *pp, int k,
			     unsigned int test, const char *in, const char *eg)
{
	const struct tm_flow_metrics *m = &pp->st[k].m;
	json_object *o = json_object_new_object();
	double bursts = pp->bursts;

	bm_json_add_u64(o, "test", test);
	if (in)
		bm_json_add_str(o, "ingress", in);
	if (eg)
		bm_json_add_str(o, "egress", eg);
	/* TM-MET-BSA: what every burst of the step got through */
	bm_json_add_double(o, "bsa_bytes", m->bursts_analysed ?
			   m->egress_min_bytes : NAN);
	tm_metrics_json(o, m);
	bm_json_add_u64(o, "bursts", m->bursts);
	bm_json_add_u64(o, "bursts_analysed", m->bursts_analysed);
	bm_json_add_u64(o, "bursts_with_loss", m->bursts_with_loss);
	bm_json_add_double(o, "egress_max_bytes", m->egress_max_bytes);
	bm_json_add_double(o, "egress_mean_bytes", m->egress_mean_bytes);
	bm_json_add_double(o, "tx_bytes", m->tx_bytes);
	bm_json_add_double(o, "rx_bytes", m->rx_bytes);
	bm_json_add_double(o, "dropped_per_burst_bytes",
			   (m->tx_bytes - m->rx_bytes) / bursts);
	bm_json_add_u64(o, "remarked_frames", m->remarked_frames);
	bm_json_add_double(o, "remarked_per_burst_bytes",
			   m->remarked_bytes / bursts);
	/* the colours: arrived with the green DSCP, with another, lost */
	bm_json_add_double(o, "green_per_burst_bytes",
			   (m->rx_bytes - m->remarked_bytes) / bursts);
	bm_json_add_double(o, "yellow_per_burst_bytes",
			   m->remarked_bytes / bursts);
	bm_json_add_double(o, "red_per_burst_bytes",
			   (m->tx_bytes - m->rx_bytes) / bursts);
	/* MODEL-TB from the tx log: what the policer should pass */
	bm_json_add_u64(o, "model_tb_bursts", pp->st[k].model.bursts);
	bm_json_add_double(o, "model_tb_bsa_bytes", pp->st[k].model.pass_min);
	bm_json_add_double(o, "model_tb_mean_bytes",
			   pp->st[k].model.pass_mean);
	bm_json_add_double(o, "model_tb_yellow_per_burst_bytes",
			   pp->st[k].model.yellow_mean);
	bm_json_add_u64(o, "model_tb_lp", pp->st[k].model.red_frames);
	bm_json_add_double(o, "intensity_min_pct",
			   pp->st[k].model.intensity_min_pct);
	bm_json_add_double(o, "intensity_mean_pct",
			   pp->st[k].model.intensity_mean_pct);
	if (k == 1)
		bm_json_add_bool(o, "excess_dropped_or_remarked",
				 tm_pol_excess_taken(pp));
	return o;
}

const char *tm_pol_outcome(unsigned int taken, unsigned int n, char *buf,
			   size_t len)
{
	if (taken == n)
		return "excess dropped or re-marked";
	if (!taken)
		return "excess was not dropped or re-marked";
	snprintf(buf, len, "excess dropped or re-marked in %u of %u runs",
		 taken, n);
	return buf;
}

json_object *tm_pol_config(const struct tm_common *c, int mode, int formula,
			   uint64_t excess)
{
	json_object *cfg = json_object_new_object();

	/* the draft's "Test Configuration Summary: Tr, Td" and what a
	 * reader needs to repeat it */
	bm_json_add_u64(cfg, "tr", c->tr);
	bm_json_add_double(cfg, "td_s", c->td_s);
	bm_json_add_str(cfg, "mode", tm_pol_mode_names[mode]);
	bm_json_add_str(cfg, "ti_formula", formula == TM_TI_AMB41 ?
			"max(CBS x 8 / CIR, EBS x 8 / EIR) (AMB-41)" :
			"CBS x 8 / CIR (the draft's)");
	bm_json_add_double(cfg, "ti_margin_pct", c->ti_margin_pct);
	bm_json_add_u64(cfg, "excess_bytes", excess);
	bm_json_add_u64(cfg, "frame_size", c->frame_size);
	bm_json_add_str(cfg, "accounting", tm_acct_names[c->accounting]);
	bm_json_add_str(cfg, "burst_mode", tm_burst_mode_names[c->burst_mode]);
	return cfg;
}

void tm_pol_name_rows(json_object *a, size_t from, const char *in,
		      const char *eg, const struct tm_encap *enc)
{
	json_object *o;
	size_t i;

	for (i = from; i < json_object_array_length(a); i++) {
		o = json_object_array_get_idx(a, i);
		bm_json_add_str(o, "ingress", in);
		bm_json_add_str(o, "egress", eg);
		if (enc && enc->vlan)
			bm_json_add_u64(o, "vlan", enc->vlan);
		if (enc && enc->vlan2)
			bm_json_add_u64(o, "vlan2", enc->vlan2);
	}
}

static json_object *pol_config(const struct tm_pol_params *p,
			       const struct tm_pol_step *st, double ti,
			       uint32_t bursts, double line)
{
	json_object *cfg = tm_pol_config(&p->c, p->mode, p->ti_formula,
					 p->excess);

	bm_json_add_double(cfg, "ti_s", ti);
	if (p->mode == TM_POL_AWARE) {
		/* the green part is the same in both steps */
		tm_plan_json(cfg, "green_part", &st[0].b);
		tm_plan_json(cfg, "compliant_yellow_part", &st[0].yb);
		tm_plan_json(cfg, "excess_yellow_part", &st[1].yb);
		bm_json_add_u64(cfg, "yellow_dscp", p->yellow_dscp);
	} else {
		tm_plan_json(cfg, "compliant_burst", &st[0].b);
		tm_plan_json(cfg, "excess_burst", &st[1].b);
	}
	bm_json_add_u64(cfg, "bursts_per_step", bursts);
	bm_json_add_double(cfg, "burst_rate_bps", line);
	return cfg;
}

static json_object *pol_dut(const struct tm_pol_params *p)
{
	json_object *dut = json_object_new_object();

	bm_json_add_double(dut, "cir_bps", p->cir_bps);
	bm_json_add_double(dut, "eir_bps", p->eir_bps);
	bm_json_add_u64(dut, "cbs_bytes", p->cbs);
	bm_json_add_u64(dut, "ebs_bytes", p->ebs);
	return dut;
}

enum { S_BSA, S_LP, S_OOS, S_PD, S_PDV, X_BSA, X_LP, X_DROP, X_REMARK,
       N_STATS };

static const char *const stat_names[N_STATS] = {
	"compliant_bsa_bytes", "compliant_lp", "compliant_oos",
	"compliant_pd_mean_s", "compliant_pdv_s", "excess_bsa_bytes",
	"excess_lp", "excess_dropped_per_burst_bytes",
	"excess_remarked_per_burst_bytes",
};

int tm_pol_run(struct bm_backend *be, const struct tm_pol_params *p,
	       bm_progress_fn progress, void *ctx, json_object **result,
	       struct bm_error *err)
{
	double v[N_STATS][TM_MAX_TR];
	json_object *res, *comp, *exc, *dscp, *stats, *dev;
	struct tm_pol_pair pp = { .tx = 0, .rx = 1, .cir_bps = p->cir_bps,
				  .eir_bps = p->eir_bps, .cbs = p->cbs,
				  .ebs = p->ebs, .aware = p->mode == TM_POL_AWARE,
				  .yellow = (uint8_t)p->yellow_dscp };
	struct tm_pol_step *st = pp.st;
	unsigned int i, k, n = 0;
	struct tm_ctx x;
	char buf[64];
	int ret;

	*result = NULL;
	ret = tm_pol_check(p, err);
	if (!ret)
		ret = tm_ctx_init(&x, "rfc7640.policer", be, &p->c, 2, 2,
				  progress, ctx, err);
	if (ret)
		return ret;
	ret = tm_pol_pair_setup(&x, &pp, p->excess, p->ti_formula);
	if (ret) {
		json_object_put(x.frame_logs);
		return ret;
	}
	res = json_object_new_object();
	json_object_object_add(res, "test_configuration",
			       pol_config(p, st, pp.ti_s, pp.bursts,
					  be->line_rate_bps));
	json_object_object_add(res, "dut_configuration", pol_dut(p));
	comp = json_object_new_array();
	exc = json_object_new_array();
	dscp = json_object_new_array();
	json_object_object_add(res, "compliant", comp);
	json_object_object_add(res, "excess", exc);
	json_object_object_add(res, "dscp_counts", dscp);
	for (i = 0; i < p->c.tr && !ret; i++) {
		for (k = 0; k < 2 && !ret; k++)
			ret = tm_pol_step_run(&x, &pp, 1, (int)k, i + 1);
		if (ret)
			break;
		json_object_array_add(comp, tm_pol_step_row(&pp, 0, i + 1, NULL, NULL));
		json_object_array_add(exc, tm_pol_step_row(&pp, 1, i + 1, NULL, NULL));
		pp.taken_runs += tm_pol_excess_taken(&pp);
		for (k = 0; k < 2; k++)
			tm_dscp_rows(dscp, i + 1, tm_pol_step_names[k],
				     &st[k].m);
		v[S_BSA][n] = st[0].m.bursts_analysed ?
			      st[0].m.egress_min_bytes : NAN;
		v[S_LP][n] = (double)st[0].m.lost;
		v[S_OOS][n] = (double)st[0].m.reordered;
		v[S_PD][n] = st[0].m.pd_mean_ns * 1e-9;
		v[S_PDV][n] = st[0].m.pdv_ns * 1e-9;
		v[X_BSA][n] = st[1].m.bursts_analysed ?
			      st[1].m.egress_min_bytes : NAN;
		v[X_LP][n] = (double)st[1].m.lost;
		v[X_DROP][n] = (st[1].m.tx_bytes - st[1].m.rx_bytes) /
			       pp.bursts;
		v[X_REMARK][n] = st[1].m.remarked_bytes / pp.bursts;
		n++;
	}
	stats = json_object_new_object();
	for (k = 0; k < N_STATS; k++)
		tm_stat(stats, stat_names[k], v[k], n);
	json_object_object_add(res, "statistics", stats);
	if (n)
		bm_json_add_str(res, "excess_outcome",
				tm_pol_outcome(pp.taken_runs, n, buf,
					       sizeof(buf)));
	json_object_object_add(res, "measurement", tm_measurement_json(&x));
	if (x.frame_logs)
		json_object_object_add(res, "frame_logs", x.frame_logs);
	dev = json_object_new_array();
	tm_pol_deviations(&x, dev, p->ti_formula, p->ebs > 0);
	if (p->mode == TM_POL_AWARE)
		json_object_array_add(dev, json_object_new_string(
			"color-aware (RFC 4115): bursts of a green CBS part "
			"and a pre-marked yellow EBS part; \"remarked\" and "
			"yellow count the yellow part sent yellow too"));
	*result = bm_result_envelope("rfc7640.policer", "TM-POL-1",
				     bm_json_params_to_json(tm_pol_keys, 0, p,
							    NULL),
				     &x.log, NULL, res, dev, be);
	tm_ctx_free(&x);
	return ret;
}

void tm_pol_deviations(const struct tm_ctx *x, json_object *dev, int formula,
		       bool ebs)
{
	json_object_array_add(dev, json_object_new_string(
		"compliant bursts of CBS + EBS (TM §6.1.1 step 3, not step 2's "
		"CBS; AMB-41)"));
	if (formula == TM_TI_DRAFT && ebs)
		json_object_array_add(dev, json_object_new_string(
			"Ti = CBS x 8 / CIR (--ti-formula draft) with EBS > "
			"0: the EBS bucket may be offered more than EIR"));
	tm_deviations(x, dev, true);
}

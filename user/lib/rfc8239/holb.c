// SPDX-License-Identifier: GPL-2.0
/*
 * RFC 8239 §5 head-of-line blocking (R8239-HOLB-1, -HOLB-2 variant 2a;
 * SPEC §8.4): does congestion on one egress port cost frames of a flow
 * from the same ingress port to another, uncongested egress?
 *
 * Groups of four ports (A, B, E1, E2): A sends 50 % of the line rate to
 * E1 and 50 % to E2, B sends the line rate to E2, so E2 is offered 150 %
 * and E1 50 %; "line rate" is 99.98 % (AMB-27), so 49.99/49.99/99.98 %.
 * Group g at shift s is ports (4g+1+s, 4g+2+s, 4g+3+s, 4g+4+s) mod N
 * (1-based, AMB-20); HOLB-1 uses two groups, HOLB-2a floor(N/4); shifts
 * s = 0 .. N-1 are the iterations.  HOLB is observed in a group when the
 * flow A -> E1 loses frames (AMB-37).  One trial per shift and
 * repetition, all groups at once.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bm_json.h"
#include "bm_repeat.h"
#include "bm_result.h"
#include "bm_search.h"
#include "bm_traffic.h"
#include "rfc8239_int.h"

#define HOLB_MAX_REPEAT	R8239_MAX_REPEAT
#define HOLB_MAX_GROUPS	(BM_TRAFFIC_MAX_PORTS / 4)

#define HO(f)	offsetof(struct r8239_holb_params, f)

const struct bm_param r8239_holb_keys[] = {
	{ { "frame_size", BM_J_U32, HO(frame_size), 64, 9216, 0, 0, NULL,
	    NULL }, "B", "frame size with FCS, one per run (the RFC names "
	  "none) [PROPOSED 512]", NULL },
	{ { "groups", BM_J_UINT, HO(groups), 0, HOLB_MAX_GROUPS, 0, 0, NULL,
	    NULL }, "", "groups of four: 2 is HOLB-1, 0 all floor(N/4) "
	  "(HOLB-2 variant 2a)", NULL },
	{ { "shift", BM_J_UINT, HO(shift), 0, 256, 0, 0, NULL, NULL }, "",
	  "the one iteration to run, s + 1 (1..N); 0 runs all N shifts", NULL },
	{ { "split25", BM_J_BOOL, HO(split25), 0, 0, 0, 0, NULL, NULL }, "",
	  "HOLB-2 variant 2b: A splits 25 % to each of its and the next "
	  "group's E1 and E2 (AMB-32)", NULL },
	{ { "line_pct", BM_J_DOUBLE, HO(line_pct), 0, 99.98, BM_JK_MIN_EXCL, 0,
	    NULL, NULL }, "%", "what \"line rate\" is (AMB-27: 99.98); A sends "
	  "half of it to each egress", NULL },
	{ { "trial_duration_s", BM_J_DOUBLE, HO(trial_duration_s), 0, 86400,
	    BM_JK_MIN_EXCL, 0, NULL, NULL }, "s", "length of each trial "
	  "[PROPOSED 60]", NULL },
	R8239_COMMON_KEYS(HO, "iteration"),
	{ { NULL, 0, 0, 0, 0, 0, 0, NULL, NULL }, NULL, NULL, NULL },
};

void r8239_holb_defaults(struct r8239_holb_params *p)
{
	*p = (struct r8239_holb_params){
		.frame_size = 512,		/* [PROPOSED] */
		.groups = 2,			/* HOLB-1 */
		.shift = 0,
		.line_pct = 99.98,		/* AMB-27 */
		.trial_duration_s = 60.0,	/* [PROPOSED] */
	};
	r8239_common_defaults(&p->c);
}

struct holb {
	struct bm_backend *be;
	const struct r8239_holb_params *p;
	bm_progress_fn progress;
	void *ctx;
	struct bm_error *err;
	struct bm_trial_log log;
	unsigned int n, groups;
	bool learned;
	unsigned int with_holb;		/* iterations in which a group had it */
};

/* The flows of one group in a trial's streams (-1: none). */
struct gflows {
	unsigned int a, b, e1, e2;	/* ports */
	int ae1[2], ae2[2], be2;	/* stream indexes */
};

/* Group g at shift s: (A, B, E1, E2) = (4g+s .. 4g+3+s) mod N, 0-based. */
static void group_ports(const struct holb *h, unsigned int g, unsigned int s,
			struct gflows *gf)
{
	gf->a = (4 * g + s) % h->n;
	gf->b = (4 * g + 1 + s) % h->n;
	gf->e1 = (4 * g + 2 + s) % h->n;
	gf->e2 = (4 * g + 3 + s) % h->n;
	gf->ae1[1] = gf->ae2[1] = -1;
}

/*
 * The streams of shift s into t and their groups into gf[].  Variant 2a
 * (bm_topo_holb): A -> E1 and A -> E2 at half the line, B -> E2 at the
 * line.  Variant 2b (AMB-32, "split across four egress ports"): A_g sends
 * a quarter of the line each to E1_g, E2_g, E1_g+1 and E2_g+1 (groups
 * mod the number of groups), round robin; B_g the line to E2_g.
 */
static int holb_streams(struct holb *h, unsigned int s, struct bm_traffic *t,
			struct gflows *gf)
{
	const struct r8239_holb_params *p = h->p;
	struct bm_stream_spec ss;
	unsigned int g, k, n = h->groups;
	struct gflows nx;
	int ret;

	if (!p->split25) {
		ret = bm_topo_holb(t, n, s, p->line_pct / 2.0, p->line_pct,
				   h->err);
		if (ret < 0)
			return ret;
		for (g = 0; g < n; g++) {
			group_ports(h, g, s, &gf[g]);
			gf[g].ae1[0] = (int)(3 * g);
			gf[g].ae2[0] = (int)(3 * g + 1);
			gf[g].be2 = (int)(3 * g + 2);
		}
		return 0;
	}
	for (g = 0; g < n; g++) {
		unsigned int to[4];

		group_ports(h, g, s, &gf[g]);
		group_ports(h, (g + 1) % n, s, &nx);
		to[0] = gf[g].e1;
		to[1] = gf[g].e2;
		to[2] = nx.e1;
		to[3] = nx.e2;
		for (k = 0; k < 4; k++) {
			bm_stream_init(&ss, gf[g].a, to[k], p->line_pct / 4.0);
			ss.phase = k / 4.0;
			ret = bm_traffic_add_stream(t, &ss, h->err);
			if (ret < 0)
				return ret;
			if (k % 2)
				gf[g].ae2[k / 2] = ret;
			else
				gf[g].ae1[k / 2] = ret;
		}
		bm_stream_init(&ss, gf[g].b, gf[g].e2, p->line_pct);
		ret = bm_traffic_add_stream(t, &ss, h->err);
		if (ret < 0)
			return ret;
		gf[g].be2 = ret;
	}
	return bm_traffic_check(t, p->frame_size, h->err);
}

/* Lost and sent frames of the streams idx[0..n-1] (-1 skipped). */
static void flows_sum(const struct bm_traffic_result *r, const int *idx,
		      unsigned int n, double *lost, double *sent)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (idx[i] < 0)
			continue;
		*lost += (double)r->streams[idx[i]].lost;
		*sent += (double)r->streams[idx[i]].sent;
	}
}

static double pct(double lost, double sent)
{
	return sent > 0 ? 100.0 * lost / sent : NAN;
}

/* One trial at shift s; its groups appended to reps as one repetition.
 * *a_e1 the largest A -> E1 loss, *e2 the E2 flows' loss, in %. */
static int holb_trial(struct holb *h, unsigned int s, unsigned int rep,
		      json_object *reps, double *a_e1, double *e2,
		      bool *holb)
{
	const struct r8239_holb_params *p = h->p;
	struct bm_traffic_result *r = NULL;
	struct gflows *gf = calloc(h->groups, sizeof(*gf));
	struct bm_trial_spec spec;
	struct bm_trial_result res;
	struct bm_traffic t;
	json_object *o, *g;
	char reason[96];
	unsigned int k;
	double sent = 0, lost = 0;
	int ret;

	bm_traffic_init(&t);
	if (!gf) {
		ret = -ENOMEM;
		goto out;
	}
	ret = r8239_traffic_ports(&t, h->be, h->err);
	if (!ret)
		ret = holb_streams(h, s, &t, gf);
	if (ret < 0)
		goto out;
	r = bm_traffic_result_new(&t);
	if (!r) {
		ret = -ENOMEM;
		bm_errorf(h->err, "out of memory");
		goto out;
	}
	r8239_trial_spec(&spec, &p->c, p->frame_size, p->trial_duration_s,
			 !h->learned, &t, r);
	snprintf(reason, sizeof(reason), "shift %u rep %u", s, rep);
	ret = bm_search_trial(h->be, &spec, &res, &h->log, "holb", reason,
			      h->progress, h->ctx, h->err);
	if (ret)
		goto out;
	h->learned = true;
	o = json_object_new_array();
	*a_e1 = 0.0;
	*holb = false;
	for (k = 0; k < h->groups; k++) {
		double l1 = 0, s1 = 0, l2 = 0, s2 = 0, lb = 0, sb = 0;

		flows_sum(r, gf[k].ae1, 2, &l1, &s1);
		flows_sum(r, gf[k].ae2, 2, &l2, &s2);
		flows_sum(r, &gf[k].be2, 1, &lb, &sb);
		g = json_object_new_object();
		bm_json_add_str(g, "a", h->be->port_names[gf[k].a]);
		bm_json_add_str(g, "b", h->be->port_names[gf[k].b]);
		bm_json_add_str(g, "e1", h->be->port_names[gf[k].e1]);
		bm_json_add_str(g, "e2", h->be->port_names[gf[k].e2]);
		/* 2b: A's two E1 flows together, and its two E2 flows */
		bm_json_add_double(g, "loss_a_e1_pct", pct(l1, s1));
		bm_json_add_double(g, "loss_a_e2_pct", pct(l2, s2));
		bm_json_add_double(g, "loss_b_e2_pct", pct(lb, sb));
		bm_json_add_u64(g, "lost_a_e1", (uint64_t)l1);
		/* E2 saturated: what it received in % of its line (SPEC
		 * HOLB-1 acceptance (a)) */
		bm_json_add_double(g, "e2_rx_pct_line",
				   r->ports[gf[k].e2].rx_load_pct);
		bm_json_add_bool(g, "holb", l1 > 0);
		json_object_array_add(o, g);
		*holb |= l1 > 0;
		*a_e1 = fmax(*a_e1, pct(l1, s1));
		lost += l2 + lb;
		sent += s2 + sb;
	}
	*e2 = pct(lost, sent);
	g = json_object_new_object();
	bm_json_add_bool(g, "holb", *holb);
	bm_json_add_double(g, "loss_e2_flows_pct", *e2);
	json_object_object_add(g, "groups", o);
	json_object_array_add(reps, g);
out:
	free(gf);
	bm_traffic_result_free(r);
	bm_traffic_free(&t);
	return ret;
}

static int holb_iteration(struct holb *h, unsigned int s, json_object *iters)
{
	const struct r8239_holb_params *p = h->p;
	double ae1[HOLB_MAX_REPEAT], e2[HOLB_MAX_REPEAT];
	json_object *e, *reps;
	struct bm_repeat st;
	bool holb, any = false;
	unsigned int r;
	int ret = 0;

	e = json_object_new_object();
	bm_json_add_u64(e, "shift", s);
	reps = json_object_new_array();
	json_object_object_add(e, "repetitions", reps);
	json_object_array_add(iters, e);
	h->learned = false;
	for (r = 0; r < p->c.repeat; r++) {
		ret = holb_trial(h, s, r + 1, reps, &ae1[r], &e2[r], &holb);
		if (ret)
			break;
		any |= holb;
	}
	bm_json_add_bool(e, "holb", any);
	bm_repeat_of(ae1, r, &st);
	json_object_object_add(e, "loss_a_e1_pct", bm_repeat_to_json(&st, ae1));
	bm_repeat_of(e2, r, &st);
	json_object_object_add(e, "loss_e2_flows_pct",
			       bm_repeat_to_json(&st, e2));
	h->with_holb += any;
	return ret;
}

double r8239_holb_max_trials(const struct r8239_holb_params *p,
			     unsigned int n_ports)
{
	/* one trial a repetition of every shift (each port's) */
	return (p->shift ? 1.0 : (double)(n_ports < 8 ? 8 : n_ports)) *
	       p->c.repeat;
}

int r8239_holb_run(struct bm_backend *be, const struct r8239_holb_params *p,
		   bm_progress_fn progress, void *ctx, json_object **result,
		   struct bm_error *err)
{
	struct r8239_order order;
	struct holb h = { .be = be, .p = p, .progress = progress, .ctx = ctx,
			  .err = err };
	json_object *res, *iters, *dev, *idle;
	unsigned int s, i;
	int ret = 0;

	*result = NULL;
	h.n = be->n_ports;
	/* REQ-8239-2: HOLB needs two groups of four */
	if (h.n < 8)
		return bm_errorf(err, "rfc8239.holb needs 8 ports (R8239-HOLB, "
				 "REQ-8239-2), %u given", h.n);
	h.groups = p->groups ? p->groups : h.n / 4;
	if (h.groups > h.n / 4)
		return bm_errorf(err, "rfc8239.holb: groups: %u groups of 4 "
				 "need %u ports, %u given", h.groups,
				 4 * h.groups, h.n);
	if (p->split25 && h.groups < 2)
		return bm_errorf(err, "rfc8239.holb: split25: needs 2 groups "
				 "at least");
	if (p->shift > h.n)
		return bm_errorf(err, "rfc8239.holb: shift: %u outside 1..%u",
				 p->shift, h.n);
	res = json_object_new_object();
	r8239_ports_begin(be, &p->c, &order, res);
	bm_json_add_u64(res, "ports", h.n);
	bm_json_add_u64(res, "groups", h.groups);
	bm_json_add_str(res, "variant", p->split25 ? "HOLB-2 (2b)" :
			h.groups == 2 ? "HOLB-1" : "HOLB-2 (2a)");
	bm_json_add_double(res, "offered_e2_pct_line", 1.5 * p->line_pct);
	/* the expected congestion loss on E2 flows: 1 - 100/149.97 */
	bm_json_add_double(res, "expected_e2_loss_pct",
			   100.0 * (1.0 - 100.0 / (1.5 * p->line_pct)));
	idle = json_object_new_array();
	/* leftover ports of shift 0 are reported (HOLB-2: ideally N = 4k) */
	for (i = 4 * h.groups; i < h.n; i++)
		json_object_array_add(idle, json_object_new_string(
			be->port_names[i]));
	json_object_object_add(res, "idle_ports_shift_0", idle);
	iters = json_object_new_array();
	json_object_object_add(res, "iterations", iters);
	for (s = 0; s < h.n && !ret; s++)
		if (!p->shift || s + 1 == p->shift)
			ret = holb_iteration(&h, s, iters);
	r8239_ports_end(be, &order);
	bm_json_add_bool(res, "holb_observed", h.with_holb > 0);
	bm_json_add_u64(res, "iterations_with_holb", h.with_holb);
	dev = json_object_new_array();
	if (p->line_pct != 99.98)
		json_object_array_add(dev, json_object_new_string(
			"line rate below 99.98 % of nominal"));
	if (h.n < 9)
		json_object_array_add(dev, json_object_new_string(
			"fewer than 9 ports: RFC 8239 §2.3 assumes a DUT of "
			"at least 9 (REQ-8239-2)"));
	r8239_flag_rsd(res, dev);
	*result = bm_result_envelope("rfc8239.holb", h.groups == 2 &&
				     !p->split25 ?
				     "R8239-HOLB-1" : "R8239-HOLB-2",
				     bm_json_params_to_json(r8239_holb_keys, 0,
							    p, NULL),
				     &h.log, NULL, res, dev, be);
	bm_trial_log_free(&h.log);
	return ret;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The simulated DUT's parameters (bm_sim.h): their defaults and their
 * check, the pair model's and the N-port model's (ports, policers,
 * shapers, schedulers, HOLB).  Apart from the models because bm_sim_new
 * and the JSON parser (sim_json.c) refuse bad parameters before any
 * model runs.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bm_sim.h"

void bm_sim_params_default(struct bm_sim_params *p)
{
	unsigned int i;

	memset(p, 0, sizeof(*p));
	p->line_rate_bps = 1e9;
	p->overhead_bytes = 24;
	p->base_latency_ns = 10000.0;
	p->gradual_slope = 1.0;
	p->seed = 1;
	p->curve = BM_SIM_CLIFF;
	p->outage_ref = BM_SIM_OUTAGE_START;
	for (i = 0; i < BM_TRAFFIC_MAX_PORTS; i++) {
		p->ports[i].queue_frames = BM_SIM_QUEUE_DEFAULT;
		p->ports[i].policer.yellow_dscp = BM_SIM_YELLOW_DSCP;
		memset(p->ports[i].sched.band_of, BM_SIM_BAND_DEFAULT,
		       sizeof(p->ports[i].sched.band_of));
	}
	p->holb_port = -1;
	p->holb_mode = BM_SIM_HOLB_IDLE;
}

static bool rate_ok(double bps)
{
	return bps >= 0.0 && bps <= 1e13;
}

static bool bucket_ok(double rate, double bytes)
{
	return rate == 0.0 || (bytes >= BM_SIM_TM_MIN_BUCKET && bytes <= 1e12);
}

static bool overhead_ok(int o)
{
	return o >= -60 && o <= 1000;
}

/* A policer of port i, named what ("policer", "VLAN 10's policer"). */
static int check_policer(const struct bm_sim_policer *po, unsigned int i,
			 const char *what, struct bm_error *err)
{
	if (!rate_ok(po->cir_bps) || !rate_ok(po->eir_bps))
		return bm_errorf(err, "sim: port %u: %s: cir_bps and eir_bps "
				 "must be in [0, 1e13]", i, what);
	if (!bucket_ok(po->cir_bps, po->cbs_bytes))
		return bm_errorf(err, "sim: port %u: %s: cbs_bytes must be in "
				 "[%d, 1e12]", i, what, BM_SIM_TM_MIN_BUCKET);
	if (po->eir_bps > 0 && (po->cir_bps == 0.0 ||
				!bucket_ok(po->eir_bps, po->ebs_bytes)))
		return bm_errorf(err, "sim: port %u: %s: eir_bps needs cir_bps "
				 "and ebs_bytes in [%d, 1e12]", i, what,
				 BM_SIM_TM_MIN_BUCKET);
	if (!overhead_ok(po->overhead))
		return bm_errorf(err, "sim: port %u: %s: overhead must be in "
				 "[-60, 1000]", i, what);
	if (po->yellow_dscp < 0 || po->yellow_dscp > 63)
		return bm_errorf(err, "sim: port %u: %s: yellow_dscp must be "
				 "in [0, 63]", i, what);
	if (po->color_aware && !(po->eir_bps > 0))
		return bm_errorf(err, "sim: port %u: %s: color_aware needs "
				 "eir_bps > 0 (bucket E)", i, what);
	return 0;
}

/* Port i's catch-all policer and shaper; limits as in sim_json.c. */
static int check_policer_shaper(const struct bm_sim_port *pt, unsigned int i,
				struct bm_error *err)
{
	const struct bm_sim_shaper *sh = &pt->shaper;
	int ret = check_policer(&pt->policer, i, "policer", err);

	if (ret)
		return ret;
	if (!overhead_ok(sh->overhead))
		return bm_errorf(err, "sim: port %u: overhead must be in "
				 "[-60, 1000]", i);
	if (!rate_ok(sh->rate_bps) || !bucket_ok(sh->rate_bps,
						  sh->bucket_bytes))
		return bm_errorf(err, "sim: port %u: shaper: rate_bps must be "
				 "in [0, 1e13], bucket_bytes in [%d, 1e12]", i,
				 BM_SIM_TM_MIN_BUCKET);
	return 0;
}

/* Port i's scheduler. */
static int check_sched(const struct bm_sim_port *pt, unsigned int i,
		       struct bm_error *err)
{
	const struct bm_sim_sched *s = &pt->sched;
	unsigned int b, d;

	if (s->kind == BM_SIM_SCHED_NONE)
		return 0;
	if (s->kind != BM_SIM_SCHED_PRIO && s->kind != BM_SIM_SCHED_ETS)
		return bm_errorf(err, "sim: port %u: scheduler: kind must be "
				 "prio or ets", i);
	if (s->n_bands < 1 || s->n_bands > BM_SIM_MAX_BANDS)
		return bm_errorf(err, "sim: port %u: scheduler: %u bands, "
				 "expected 1..%d", i, s->n_bands,
				 BM_SIM_MAX_BANDS);
	for (d = 0; d < 64; d++)
		if (s->band_of[d] != BM_SIM_BAND_DEFAULT &&
		    s->band_of[d] >= s->n_bands)
			return bm_errorf(err, "sim: port %u: scheduler: DSCP "
					 "%u in band %u of %u", i, d,
					 s->band_of[d], s->n_bands);
	for (b = 0; s->kind == BM_SIM_SCHED_ETS && b < s->n_bands; b++)
		if (!s->bands[b].strict && !s->bands[b].quantum)
			return bm_errorf(err, "sim: port %u: scheduler: "
					 "bands[%u]: quantum 0 in a non-strict "
					 "ets band", i, b);
	for (b = 0; b < s->n_bands; b++) {
		const struct bm_sim_band *x = &s->bands[b];
		bool strict = s->kind == BM_SIM_SCHED_PRIO || x->strict;

		if (!rate_ok(x->rate_bps) ||
		    !bucket_ok(x->rate_bps, x->bucket_bytes) ||
		    !overhead_ok(x->overhead))
			return bm_errorf(err, "sim: port %u: scheduler: "
					 "bands[%u]: rate_bps must be in [0, "
					 "1e13], bucket_bytes in [%d, 1e12], "
					 "overhead in [-60, 1000]", i, b,
					 BM_SIM_TM_MIN_BUCKET);
		if (x->rate_bps > 0 && !strict)
			return bm_errorf(err, "sim: port %u: scheduler: "
					 "bands[%u]: only a strict band can be "
					 "shaped", i, b);
	}
	/* the bands are the queues: one FIFO limit would say nothing */
	if (pt->queue_frames != BM_SIM_QUEUE_DEFAULT || pt->queue_bytes)
		return bm_errorf(err, "sim: port %u: queue_frames and "
				 "queue_bytes: a port with a scheduler queues "
				 "per band (bands[i].queue_frames)", i);
	return 0;
}

static bool has_tm(const struct bm_sim_port *pt)
{
	return pt->policer.cir_bps > 0 || pt->shaper.rate_bps > 0 ||
	       pt->sched.kind != BM_SIM_SCHED_NONE;
}

/* The VLAN policers: ports, VLAN ids, one per VLAN of a port, at most
 * BM_SIM_MAX_POLICERS a port, each a valid policer with a rate. */
static int check_vlan_policers(const struct bm_sim_params *p,
			       struct bm_error *err)
{
	const struct bm_sim_vlan_policer *v, *w;
	unsigned int i, j, n;
	char what[48];
	int ret;

	if (p->n_vlan_policers > BM_SIM_MAX_VLAN_POLICERS)
		return bm_errorf(err, "sim: %u VLAN policers, at most %d in "
				 "the DUT", p->n_vlan_policers,
				 BM_SIM_MAX_VLAN_POLICERS);
	for (i = 0; i < p->n_vlan_policers; i++) {
		v = &p->vlan_policers[i];
		if (v->port >= BM_TRAFFIC_MAX_PORTS)
			return bm_errorf(err, "sim: VLAN policer %u: port %u "
					 "out of range", i, v->port);
		if (v->vlan < 1 || v->vlan > 4094)
			return bm_errorf(err, "sim: port %u: VLAN policer %u: "
					 "vlan %u outside 1..4094", v->port, i,
					 v->vlan);
		snprintf(what, sizeof(what), "VLAN %u's policer", v->vlan);
		if (!(v->pol.cir_bps > 0))
			return bm_errorf(err, "sim: port %u: %s: cir_bps must "
					 "be > 0", v->port, what);
		ret = check_policer(&v->pol, v->port, what, err);
		if (ret)
			return ret;
		if (p->holb_fifo_frames)
			return bm_errorf(err, "sim: holb_fifo_frames: not with "
					 "a policer, shaper or scheduler (port "
					 "%u)", v->port);
		for (j = 0, n = 0; j < p->n_vlan_policers; j++) {
			w = &p->vlan_policers[j];
			if (w->port != v->port)
				continue;
			n++;
			if (j < i && w->vlan == v->vlan)
				return bm_errorf(err, "sim: port %u: VLAN %u "
						 "has two policers", v->port,
						 v->vlan);
		}
		if (n > BM_SIM_MAX_POLICERS)
			return bm_errorf(err, "sim: port %u: %u VLAN policers, "
					 "at most %d a port", v->port, n,
					 BM_SIM_MAX_POLICERS);
	}
	return 0;
}

/* The N-port fields (sim_traffic.c); limits as in sim_json.c. */
static int sim_params_check_ports(const struct bm_sim_params *p,
				  struct bm_error *err)
{
	const struct bm_sim_port *pt;
	unsigned int i;
	int ret;

	for (i = 0; i < BM_TRAFFIC_MAX_PORTS; i++) {
		pt = &p->ports[i];
		if (!(pt->egress_bps >= 0.0) || pt->egress_bps > 1e13)
			return bm_errorf(err, "sim: port %u: egress_bps must be "
					 "in [0, 1e13] (0 = line rate)", i);
		if (pt->queue_frames != BM_SIM_QUEUE_DEFAULT &&
		    pt->queue_frames > BM_SIM_MAX_QUEUE_FRAMES)
			return bm_errorf(err, "sim: port %u: queue_frames too "
					 "large", i);
		if (pt->queue_bytes > BM_SIM_MAX_QUEUE_BYTES)
			return bm_errorf(err, "sim: port %u: queue_bytes too "
					 "large", i);
		ret = check_policer_shaper(pt, i, err);
		if (!ret)
			ret = check_sched(pt, i, err);
		if (ret)
			return ret;
		/* a FIFO head that retries would be policed twice */
		if (p->holb_fifo_frames && has_tm(pt))
			return bm_errorf(err, "sim: holb_fifo_frames: not with "
					 "a policer, shaper or scheduler (port "
					 "%u)", i);
	}
	ret = check_vlan_policers(p, err);
	if (ret)
		return ret;
	if (p->shared_buffer_bytes > BM_SIM_MAX_QUEUE_BYTES)
		return bm_errorf(err, "sim: shared_buffer_bytes too large");
	if (p->holb_fifo_frames > BM_SIM_MAX_HOLB_FRAMES)
		return bm_errorf(err, "sim: holb_fifo_frames must be in [0, %d]",
				 BM_SIM_MAX_HOLB_FRAMES);
	if (p->holb_port < -1 || p->holb_port >= BM_TRAFFIC_MAX_PORTS)
		return bm_errorf(err, "sim: holb_port must be -1 (every port) "
				 "or a port index below %d",
				 BM_TRAFFIC_MAX_PORTS);
	if (p->holb_mode != BM_SIM_HOLB_IDLE && p->holb_mode != BM_SIM_HOLB_ROOM)
		return bm_errorf(err, "sim: holb_mode must be idle or room");
	return 0;
}

int bm_sim_params_check(const struct bm_sim_params *p, struct bm_error *err)
{
	if (!(p->line_rate_bps > 0.0) || !isfinite(p->line_rate_bps))
		return bm_errorf(err, "sim: line_rate_bps must be > 0");
	if (p->capacity_fps < 0.0 || !isfinite(p->capacity_fps))
		return bm_errorf(err, "sim: capacity_fps must be >= 0");
	if (p->capacity_bps < 0.0 || !isfinite(p->capacity_bps))
		return bm_errorf(err, "sim: capacity_bps must be >= 0");
	if (p->overhead_bytes < -60 || p->overhead_bytes > 1000)
		return bm_errorf(err, "sim: overhead_bytes must be in [-60, 1000]");
	if (p->bucket_bytes < 0.0 || !isfinite(p->bucket_bytes))
		return bm_errorf(err, "sim: bucket_bytes must be >= 0");
	if (p->buffer_frames > (1ULL << 40))
		return bm_errorf(err, "sim: buffer_frames too large");
	if (p->base_latency_ns < 0.0 || !isfinite(p->base_latency_ns))
		return bm_errorf(err, "sim: base_latency_ns must be >= 0");
	if (p->latency_jitter_ns < 0.0 ||
	    p->latency_jitter_ns > p->base_latency_ns)
		return bm_errorf(err, "sim: latency_jitter_ns must be in [0, base_latency_ns]");
	if (p->curve != BM_SIM_CLIFF && p->curve != BM_SIM_GRADUAL)
		return bm_errorf(err, "sim: curve must be cliff or gradual");
	if (p->knee_fps < 0.0 || !isfinite(p->knee_fps))
		return bm_errorf(err, "sim: knee_fps must be >= 0");
	if (!(p->gradual_slope > 0.0) || p->gradual_slope > 1e6)
		return bm_errorf(err, "sim: gradual_slope must be in (0, 1e6]");
	if (p->random_loss < 0.0 || p->random_loss >= 1.0)
		return bm_errorf(err, "sim: random_loss must be in [0, 1)");
	if (p->capacity_noise < 0.0 || p->capacity_noise >= 1.0)
		return bm_errorf(err, "sim: capacity_noise must be in [0, 1)");
	if (p->reset_outage_s < 0.0 || !isfinite(p->reset_outage_s))
		return bm_errorf(err, "sim: reset_outage_s must be >= 0");
	if (p->outage_s < 0.0 || !isfinite(p->outage_s))
		return bm_errorf(err, "sim: outage_s must be >= 0");
	if (p->outage_at_s < 0.0 || !isfinite(p->outage_at_s))
		return bm_errorf(err, "sim: outage_at_s must be >= 0");
	if (p->outage_ref != BM_SIM_OUTAGE_START &&
	    p->outage_ref != BM_SIM_OUTAGE_STEP)
		return bm_errorf(err, "sim: outage_ref must be start or step");
	if (p->generator_max_fps < 0.0 || !isfinite(p->generator_max_fps))
		return bm_errorf(err, "sim: generator_max_fps must be >= 0");
	if (p->trial_overhead_s < 0.0 || !isfinite(p->trial_overhead_s))
		return bm_errorf(err, "sim: trial_overhead_s must be >= 0");
	return sim_params_check_ports(p, err);
}

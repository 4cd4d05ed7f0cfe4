// SPDX-License-Identifier: GPL-2.0
/*
 * The simulated DUT backend: made from its parameters (checked in
 * sim_params.c), its operations, the DUT reset it can do, and what a
 * trial adds to the models' results (a link loss, host stalls, the fluid
 * TCP engine's share).  The models: the fluid one of pair traffic
 * (sim_pair.c on sim_fluid.c) and the frame-level one of any traffic
 * (sim_traffic.c).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bm_clock.h"
#include "bm_hosts.h"
#include "bm_ptp.h"
#include "bm_sim.h"
#include "sim_int.h"

int bm_sim_reset_hook(void *ctx)
{
	struct bm_backend *be = ctx;

	if (!be || !bm_backend_is_sim(be))
		return -EINVAL;
	return be->ops->dut_reset(be);
}

/* The simulated DUT resets itself: its outage (reset_outage_s) starts now. */
static int sim_dut_reset(struct bm_backend *be)
{
	struct sim_priv *sp = be->priv;

	if (!sp->in_trial)
		return -EINVAL;
	sp->reset_fired = true;
	sp->reset_at_s = sp->now_s;
	return 0;
}

static void sim_destroy(struct bm_backend *be)
{
	sim_tcp_detach(be);
	free(be->priv);
	free(be);
}

/* The fastest stream of spec's traffic, frames per second. */
static double sim_fastest_fps(const struct bm_trial_spec *spec)
{
	const struct bm_traffic *t = spec->traffic;
	double fps = 0.0;
	unsigned int k;

	for (k = 0; t && k < t->n_streams; k++)
		fps = fmax(fps, bm_stream_fps(t, &t->streams[k],
					      spec->frame_size));
	return fps;
}

/* A pool host's clock while its part ran: read every BM_PTP_SAMPLE_S of
 * the trial, from its offset before to that plus ptp_wander_ns (in trial
 * ptp_wander_trial alone when set). */
static void sim_clock_during(const struct bm_backend *be,
			     const struct bm_trial_spec *spec,
			     const struct bm_clock_reading *before,
			     struct bm_clock_span *d)
{
	const struct sim_priv *sp = be->priv;
	struct bm_clock_reading far = *before;

	memset(d, 0, sizeof(*d));
	if (!spec->host[0])
		return;		/* the grandmaster's own: always 0 */
	if (!sp->p.ptp_wander_trial || sp->p.ptp_wander_trial == be->trials + 1)
		far.offset_ns += (int64_t)sp->p.ptp_wander_ns;
	bm_clock_span_add(d, before, before->gm);
	bm_clock_span_add(d, &far, before->gm);
	d->samples = (unsigned int)fmax(2, spec->duration_s / BM_PTP_SAMPLE_S);
}

/* A pool host's system clock by its phc2sys's log, as configured. */
static void sim_clock_system(const struct bm_sim_params *p,
			     struct bm_sysclock_span *s)
{
	memset(s, 0, sizeof(*s));
	if (!p->phc2sys_log)
		return;
	snprintf(s->source, sizeof(s->source), "sim");
	s->samples = p->phc2sys_reports;
	s->min_ns = s->max_ns = (int64_t)p->phc2sys_offset_ns;
	if (!s->samples)
		snprintf(s->error, sizeof(s->error), "phc2sys's log: no report "
			 "of CLOCK_REALTIME in the part (simulated)");
}

/*
 * The trial on its model (pair traffic on the fluid one, any other frame
 * by frame), then the link loss of sim.link_down_trial and the stalls of
 * host_stall_above_fps.
 */
static int sim_run_trial_link(struct bm_backend *be,
			      const struct bm_trial_spec *spec,
			      struct bm_trial_result *res, struct bm_error *err)
{
	const struct sim_priv *sp = be->priv;
	struct sim_pair_load l;
	int ret;

	struct bm_clock_reading clock = {
		.valid = true, .gm_present = spec->host && spec->host[0],
		.offset_ns = spec->host && spec->host[0] ?
			     (int64_t)sp->p.ptp_offset_ns : 0,
		.gm = "000000.fffe.000000",
	};

	if (!spec->traffic)
		return bm_errorf(err, "sim: a trial without traffic");
	if (spec->host && !spec->traffic_res)
		return bm_errorf(err, "sim: a host's part of a trial without "
				 "its streams' results");
	/* a pool host's part: its clock as a module's host reads it */
	if (spec->host &&
	    (bm_part_tai_check(spec, bm_tai_utc_s() +
			       (int)sp->p.tai_utc_error_s, err) ||
	     bm_part_clock_check(spec, &clock, err)))
		return -ERANGE;
	if (!sim_pair_load_of(spec, &l))
		ret = sim_pair_run_trial(be, spec, &l, res, err);
	else
		ret = sim_run_traffic(be, spec, res, err);

	if (!ret)
		sim_tcp_trial(be, spec);
	if (!ret && sp->p.link_down_trial == be->trials + 1) {
		res->link_downs = 1;
		snprintf(res->link_down_port, sizeof(res->link_down_port),
			 "%s", be->n_ports > 1 ? be->port_names[1] : "rx");
	}
	if (!ret && sp->p.host_stall_above_fps > 0.0 && !res->lost &&
	    sim_fastest_fps(spec) > sp->p.host_stall_above_fps &&
	    res->received >= 3) {
		res->received -= 3;
		res->lost = 3;
		res->tx_late_max_s = fmax(res->tx_late_max_s, 0.010);
		bm_trial_stall_add(res->tx_stalls_s, 0.010);
	}
	/* one DUT behind every host of a pool: the whole trial modelled,
	 * and this host's halves of it reported */
	if (!ret && spec->host) {
		bm_traffic_keep_host(spec->traffic, spec->host,
				     spec->traffic_res, res);
		if (sp->p.sw_stamp_delay_ns > 0 && spec->latency)
			sim_hw_part(spec, spec->traffic_res,
				    sp->p.sw_stamp_delay_ns, res);
		sim_clock_error_part(spec, sp->p.clock_error_ns, res);
		res->clock_before = clock;
		res->clock_after = clock;
		sim_clock_during(be, spec, &clock, &res->clock_during);
		sim_clock_system(&sp->p, &res->clock_system);
	}
	return ret;
}

static const struct bm_backend_ops sim_ops = {
	.run_trial = sim_run_trial_link,
	.destroy = sim_destroy,
	.dut_reset = sim_dut_reset,
};

bool bm_backend_is_sim(const struct bm_backend *be)
{
	return be && be->ops == &sim_ops;
}

const struct bm_sim_params *bm_sim_params_of(const struct bm_backend *be)
{
	return &((const struct sim_priv *)be->priv)->p;
}

struct bm_backend *bm_sim_new(const struct bm_sim_params *p,
			      struct bm_error *err)
{
	struct bm_backend *be;
	struct sim_priv *sp;

	if (bm_sim_params_check(p, err))
		return NULL;
	be = calloc(1, sizeof(*be));
	sp = calloc(1, sizeof(*sp));
	if (!be || !sp) {
		free(be);
		free(sp);
		bm_errorf(err, "sim: out of memory");
		return NULL;
	}
	sp->p = *p;
	sp->rng = p->seed;
	be->ops = &sim_ops;
	be->name = "sim";
	be->deviation = "backend sim: every trial ran on a simulated device "
			"(dry run), not a DUT";
	be->line_rate_bps = p->line_rate_bps;
	/* the model's own times, in double precision: nothing to err */
	be->ts_accuracy = "exact: the simulator's timestamps are its model's "
			  "times, not measured";
	be->ts_resolution_ns = 0.0;
	be->ts_accuracy_ns = 0.0;
	be->virtual_clock = true;
	be->priv = sp;
	if (sim_tcp_attach(be)) {
		sim_destroy(be);
		bm_errorf(err, "sim: out of memory");
		return NULL;
	}
	return be;
}

void bm_sim_free(struct bm_backend *be)
{
	if (be)
		be->ops->destroy(be);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The trial backend that drives bmgen.ko (DESIGN.md: procedures never talk
 * netlink; this file turns one struct bm_trial_spec into module streams, runs
 * the trial, waits for the drain and turns the statistics into a
 * struct bm_trial_result).
 */
#include <errno.h>
#include <math.h>
#include <net/if.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/bmgen.h>

#include "backend_genl_int.h"
#include "bm_traffic.h"

_Static_assert(BM_TX_STALLS == BMGEN_TX_STALLS,
	       "a trial keeps as many stalls as the module reports");

/*
 * The module has one stream table and runs one trial at a time, and every
 * trial here begins by deleting all streams.  bmd runs jobs on disjoint
 * ports in parallel threads, each with its own backend: without this lock
 * one job deleted the other's streams or met "a trial is already running".
 * Held from the learning frames to the statistics, so the jobs' trials
 * take turns, each complete.
 */
static pthread_mutex_t bm_genl_module_lock = PTHREAD_MUTEX_INITIALIZER;

/*
 * Switch hardware stamping on at both ports if both can (tx and rx, each
 * with a PHC); either both or neither, since a latency needs a stamp from
 * each end.  A port that cannot is no error: the trials keep their
 * software latency and the records say nothing of hardware.
 */
static void bm_genl_hw_setup(struct bm_genl_backend *b)
{
	const char *name[2] = { b->tx, b->rx };
	unsigned int ifi[2] = { b->tx_ifindex, b->rx_ifindex };
	struct bm_genl_port_counters pc;
	struct bm_error ignore;
	int i;

	for (i = 0; i < 2; i++) {
		if (bm_genl_port_counters(b->g, ifi[i], &pc, &ignore) ||
		    (pc.ts_caps & (BMGEN_PORT_F_HW_TS_RX | BMGEN_PORT_F_HW_TS_TX)) !=
		    (BMGEN_PORT_F_HW_TS_RX | BMGEN_PORT_F_HW_TS_TX) ||
		    pc.phc_index < 0)
			return;
		b->phc[i] = pc.phc_index;
	}
	for (i = 0; i < 2; i++) {
		if (bm_hwts_enable(name[i], &b->hw[i], &ignore) ||
		    !b->hw[i].tx_on) {
			while (i >= 0)
				bm_hwts_restore(&b->hw[i--]);
			memset(b->hw, 0, sizeof(b->hw));
			return;
		}
	}
	b->hw_on = 1;
}

/* Put back what the ports' drivers stamped before (bm_genl_hw_setup). */
static void bm_genl_hw_teardown(struct bm_genl_backend *b)
{
	const char *name[2] = { b->tx, b->rx };
	struct bm_error ignore;
	int i;

	if (!b->hw_on)
		return;
	for (i = 0; i < 2; i++) {
		bm_genl_port_set(b->g, name[i], 0, NULL, &ignore);
		bm_hwts_restore(&b->hw[i]);
	}
	b->hw_on = 0;
}

/* The module's count of link losses of the trial's ports, through its
 * drain; bm_run_trial judges them. */
static int bm_genl_link_downs(struct bm_genl_backend *b,
			      struct bm_trial_result *res, struct bm_error *err)
{
	struct bm_module_status st;
	char name[IF_NAMESIZE];
	int ret;

	ret = bm_genl_status_get(b->g, &st, err);
	if (ret)
		return ret;
	res->link_downs = st.link_downs;
	/* a device deleted after its trial first goes down: no name */
	if (st.link_downs && if_indextoname(st.link_down_ifindex, name))
		snprintf(res->link_down_port, sizeof(res->link_down_port),
			 "%s", name);
	else if (st.link_downs)
		snprintf(res->link_down_port, sizeof(res->link_down_port),
			 "#%u (gone)", st.link_down_ifindex);
	return 0;
}

static int bm_genl_run_trial(struct bm_backend *be,
			     const struct bm_trial_spec *spec,
			     struct bm_trial_result *res, struct bm_error *err)
{
	int ret;

	if (spec->tx_path && bm_genl_tx_path_of_name(spec->tx_path) < 0)
		return bm_errorf(err, "unknown transmit path '%.20s' (auto, alloc, recycle, xdp)",
				 spec->tx_path);
	/* another job's trial may hold the module for a minute: a cancel
	 * must not wait for it */
	if (!be->abort)
		pthread_mutex_lock(&bm_genl_module_lock);
	else
		while (pthread_mutex_trylock(&bm_genl_module_lock) == EBUSY) {
			if (*be->abort)
				return bm_errorf(err, "cancelled"), -ECANCELED;
			bm_sleep_s(0.05);
		}
	bm_genl_set_abort(((struct bm_genl_backend *)be)->g, be->abort);
	/* bm_run_trial gives every trial its traffic, a pair's too */
	if (!spec->traffic)
		ret = bm_errorf(err, "a trial without traffic");
	else
		ret = bm_genl_run_traffic_locked((struct bm_genl_backend *)be,
						 spec, res, err);
	if (!ret)
		ret = bm_genl_link_downs((struct bm_genl_backend *)be, res, err);
	pthread_mutex_unlock(&bm_genl_module_lock);
	return ret;
}

static void bm_genl_destroy(struct bm_backend *be)
{
	struct bm_genl_backend *b = (struct bm_genl_backend *)be;

	if (b->g) {
		/* not while another job's trial has its streams in place */
		pthread_mutex_lock(&bm_genl_module_lock);
		bm_genl_stream_del(b->g, 0, NULL);
		bm_genl_hw_teardown(b);
		pthread_mutex_unlock(&bm_genl_module_lock);
		bm_genl_close(b->g);
	}
	free(b->lane_n);
	free(b->cap);
	free(b);
}

static const struct bm_backend_ops bm_genl_ops = {
	.run_trial = bm_genl_run_trial,
	.destroy = bm_genl_destroy,
};

struct bm_backend *bm_backend_genl_new(const struct bm_genl_port_opts *o,
				       struct bm_error *err)
{
	struct bm_genl_backend *b;
	int ret;

	const char *pair[2] = { o->tx_port, o->rx_port };

	if (!o->tx_port || !o->rx_port) {
		bm_errorf(err, "the module backend needs a tx and an rx port");
		return NULL;
	}
	/* A pair load runs on the job's first two ports, N-port traffic on
	 * the list: tx and rx must be those two, or one job would test two
	 * setups. */
	if (o->n_ports && (o->n_ports < 2 || strcmp(o->ports[0], o->tx_port) ||
			   strcmp(o->ports[1], o->rx_port))) {
		bm_errorf(err, "the module backend's port list must begin with tx, rx");
		return NULL;
	}
	b = calloc(1, sizeof(*b));
	if (!b) {
		bm_errorf(err, "out of memory");
		return NULL;
	}
	if (bm_backend_set_ports(&b->be, o->n_ports ? o->n_ports : 2,
				 o->n_ports ? o->ports : pair, err)) {
		free(b);
		return NULL;
	}
	b->be.ops = &bm_genl_ops;
	b->be.name = "genl";
	b->be.line_rate_bps = o->line_rate_bps;
	/*
	 * bmgen.ko stamps in software only (BMGEN_TS_SW): ktime_get_ns(), in
	 * ns as the frame's tx_ts carries it, just before the driver's xmit
	 * and in the rx handler.  How far either is from the wire (queueing
	 * in the driver, softirq delay) no calibration has measured, so the
	 * accuracy is not claimed (REQ-TS-4, R8238-CAL).
	 */
	b->be.ts_accuracy = "software timestamps (ktime_get_ns before xmit "
			    "and in the rx handler), not calibrated";
	b->be.ts_resolution_ns = 1.0;
	b->be.ts_accuracy_ns = NAN;
	snprintf(b->tx, sizeof(b->tx), "%s", o->tx_port);
	snprintf(b->rx, sizeof(b->rx), "%s", o->rx_port);
	b->router = o->router;
	bm_router_port_default(&b->rp[0], b->tx, 0);
	bm_router_port_default(&b->rp[1], b->rx, 1);
	b->g = bm_genl_open(&ret, err);
	if (b->g) {
		struct bm_module_status st;
		struct bm_error ignore;

		/* for one kthread per tx port; unknown is fine */
		if (!bm_genl_status_get(b->g, &st, &ignore))
			b->ncpus = st.cpus;
	}
	/* a lane a kthread: more lanes than CPUs would share them */
	b->lanes = o->tx_kthreads ? o->tx_kthreads : 1;
	if (o->tx_kthreads == BM_GENL_KTHREADS_AUTO) {
		b->lanes_auto = 1;
		b->lanes = b->ncpus ? b->ncpus : 1;
		if (o->n_capacity) {
			b->cap = calloc(o->n_capacity, sizeof(*b->cap));
			if (b->cap) {
				memcpy(b->cap, o->capacity,
				       o->n_capacity * sizeof(*b->cap));
				b->n_cap = o->n_capacity;
			}
		}
	}
	b->tx_path = o->tx_path;
	if (b->ncpus && b->lanes > b->ncpus)
		b->lanes = b->ncpus;
	if (!b->g ||
	    bm_genl_attach(b->g, b->tx, &b->tx_ifindex, err) ||
	    bm_genl_attach(b->g, b->rx, &b->rx_ifindex, err) ||
	    (b->router && (bm_router_port_setup(&b->rp[0], err) ||
			   bm_router_port_setup(&b->rp[1], err)))) {
		bm_genl_destroy(&b->be);
		return NULL;
	}
	if (!o->no_hw_timestamps)
		bm_genl_hw_setup(b);
	return &b->be;
}

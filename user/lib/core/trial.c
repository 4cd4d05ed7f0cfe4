// SPDX-License-Identifier: GPL-2.0
/* Trial helpers shared by every backend and procedure (SPEC F-1, 2.3). */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bm_trial.h"

/* Ethernet preamble + SFD (8) and minimum inter-frame gap (12), SPEC F-1. */
#define BM_L1_OVERHEAD 20.0

int bm_backend_set_ports(struct bm_backend *be, unsigned int n,
			 const char *const *names, struct bm_error *err)
{
	unsigned int i;

	if (n > BM_BACKEND_MAX_PORTS)
		return bm_errorf(err, "%u ports: at most %d", n,
				 BM_BACKEND_MAX_PORTS);
	/* Check all before writing any: a truncated name would address
	 * another interface, and half a list is no job's list. */
	for (i = 0; i < n; i++)
		if (!names[i] || !names[i][0] ||
		    strlen(names[i]) >= BM_BACKEND_PORT_NAME)
			return bm_errorf(err, "port %u: bad name '%.32s'", i,
					 names[i] ? names[i] : "");
	for (i = 0; i < n; i++)
		snprintf(be->port_names[i], sizeof(be->port_names[i]), "%s",
			 names[i]);
	be->n_ports = n;
	return 0;
}

const char *const bm_topology_names[] = { "pair-uni", "pair-bidir",
					  "multiport", "mesh", NULL };

const char *bm_topology_name(enum bm_topology t)
{
	return (unsigned int)t <= BM_TOPO_MESH ? bm_topology_names[t] :
						 bm_topology_names[0];
}

int bm_backend_dut_reset(void *ctx)
{
	struct bm_backend *be = ctx;

	if (!be || !be->ops->dut_reset)
		return -EOPNOTSUPP;
	return be->ops->dut_reset(be);
}

void bm_trial_result_empty(struct bm_trial_result *r)
{
	memset(r, 0, sizeof(*r));
	r->event_fired_s = -1.0;
	r->last_loss_after_step_s = -1.0;
	r->tag_tx_s = -1.0;
}

void bm_trial_stall_add(double *top, double stall)
{
	int i = BM_TX_STALLS - 1;

	if (!(stall > top[i]))
		return;
	for (; i > 0 && top[i - 1] < stall; i--)
		top[i] = top[i - 1];
	top[i] = stall;
}

void bm_trial_burst_late_add(struct bm_trial_result *r, double late_s)
{
	r->burst_gaps_measured = true;
	r->tx_burst_late_max_s = fmax(r->tx_burst_late_max_s, late_s);
}

void bm_trial_tx_path_add(struct bm_trial_result *r, const char *name)
{
	if (!r->tx_path[0])
		snprintf(r->tx_path, sizeof(r->tx_path), "%s", name);
	else if (strcmp(r->tx_path, name))
		snprintf(r->tx_path, sizeof(r->tx_path), "mixed");
}

void bm_trial_spec_rate(struct bm_trial_spec *spec, uint32_t frame_size,
			double rate_fps, double duration_s)
{
	memset(spec, 0, sizeof(*spec));
	spec->pair.pattern = BM_PAT_RATE;
	spec->pair.topology = BM_TOPO_PAIR_UNI;
	spec->frame_size = frame_size;
	spec->pair.rate_fps = rate_fps;
	spec->duration_s = duration_s;
	spec->drain_s = -1.0;
	spec->learning_pause_s = -1.0;
}

double bm_fps_max(double line_rate_bps, uint32_t frame_size)
{
	return line_rate_bps / ((frame_size + BM_L1_OVERHEAD) * 8.0);
}

double bm_l1_bps(double fps, uint32_t frame_size)
{
	return fps * (frame_size + BM_L1_OVERHEAD) * 8.0;
}

double bm_l2_bps(double fps, uint32_t frame_size)
{
	return fps * frame_size * 8.0;
}

double bm_load_pct(double fps, uint32_t frame_size, double line_rate_bps)
{
	return bm_l1_bps(fps, frame_size) / line_rate_bps * 100.0;
}

int bm_errorf(struct bm_error *err, const char *fmt, ...)
{
	va_list ap;
	char *c;

	if (err) {
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
		/* A reason quotes what a request named (a JSON key may hold
		 * "\n"); it goes on one line of a log, a reply, a terminal. */
		for (c = err->msg; *c; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f)
				*c = '?';
	}
	return -EINVAL;
}

int bm_trial_log_add(struct bm_trial_log *log, const char *phase,
		     const char *reason, const struct bm_trial_spec *spec,
		     const struct bm_trial_result *res)
{
	struct bm_trial_record *r;

	if (log->n == log->cap) {
		size_t cap = log->cap ? log->cap * 2 : 32;

		r = realloc(log->v, cap * sizeof(*r));
		if (!r)
			return -ENOMEM;
		log->v = r;
		log->cap = cap;
	}
	r = &log->v[log->n];
	memset(r, 0, sizeof(*r));
	r->index = log->n++;
	snprintf(r->phase, sizeof(r->phase), "%s", phase ? phase : "");
	snprintf(r->reason, sizeof(r->reason), "%s", reason ? reason : "");
	r->spec = *spec;
	r->res = *res;
	return 0;
}

void bm_trial_log_free(struct bm_trial_log *log)
{
	free(log->v);
	memset(log, 0, sizeof(*log));
}

unsigned int bm_lat_hist_index(double ns)
{
	int e;
	double m;

	if (!(ns >= (double)(1ULL << BM_LAT_HIST_MIN_SHIFT)))
		return 0;
	m = frexp(ns, &e);		/* ns = m 2^e, m in [0.5, 1) */
	e -= 1;				/* ns = 2m 2^e, 2m in [1, 2) */
	if (e >= BM_LAT_HIST_MAX_SHIFT)
		return BM_LAT_HIST_BUCKETS - 1;
	return 1 + ((unsigned int)(e - BM_LAT_HIST_MIN_SHIFT) <<
		    BM_LAT_HIST_SUB_BITS) +
	       (unsigned int)((2.0 * m - 1.0) * (1 << BM_LAT_HIST_SUB_BITS));
}

double bm_lat_hist_lower_ns(unsigned int i)
{
	unsigned int oct, sub;

	if (!i)
		return 0.0;
	if (i >= BM_LAT_HIST_BUCKETS - 1)
		return ldexp(1.0, BM_LAT_HIST_MAX_SHIFT);
	oct = (i - 1) >> BM_LAT_HIST_SUB_BITS;
	sub = (i - 1) & ((1U << BM_LAT_HIST_SUB_BITS) - 1);
	return ldexp(1.0 + (double)sub / (1 << BM_LAT_HIST_SUB_BITS),
		     (int)(oct + BM_LAT_HIST_MIN_SHIFT));
}

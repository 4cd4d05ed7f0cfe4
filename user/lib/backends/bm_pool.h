/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A pool of tester hosts as one backend: a job's ports on several hosts
 * (labels "host:ifname", bm_hosts.h), every trial run as each host's
 * part at one CLOCK_TAI instant and the parts' results merged.  How a
 * part reaches its host is the creator's: a backend of this process (the
 * local module, or a simulator standing in for a host) or a function that
 * runs it elsewhere (bmd over OpenSSH).  Procedures see one backend.
 */
#ifndef BM_POOL_H
#define BM_POOL_H

#include "bm_trial.h"

/* One host of a pool. */
struct bm_pool_host {
	/* The host as the job's port labels name it; "" = the host that
	 * runs the job. */
	const char *name;
	/* Its part through a backend of this process (bm_run_trial; not
	 * owned), or else through run: spec's host is this one's, its
	 * traffic_res set; 0 and *res when the part ran to its end, or
	 * -errno with err set. */
	struct bm_backend *be;
	bool owned;		/* the pool destroys be with itself */
	int (*run)(void *ctx, const struct bm_trial_spec *spec,
		   struct bm_trial_result *res, struct bm_error *err);
	void *ctx;
	/* Called with ctx when the pool is destroyed (or not made); NULL =
	 * nothing to release. */
	void (*release)(void *ctx);
};

/* How long before a trial's start its parts are sent, at the least, so
 * that every host has its part ready at the instant (s). */
#define BM_POOL_START_LEAD_S	0.5

/*
 * A pool of the n hosts (copied with their names; the backends it does
 * not own must outlive it, the owned ones are destroyed even on failure)
 * over the job's ports labels[0..n_ports) of line rate line_rate_bps
 * each.  Every label's host must be one of hosts.  The timestamps' worth
 * and the deviation are the first host's with a backend.  NULL with err
 * set on a bad label, an unknown or repeated host, or no memory.
 */
struct bm_backend *bm_pool_new(const struct bm_pool_host *hosts,
			       unsigned int n, const char *const *labels,
			       unsigned int n_ports, double line_rate_bps,
			       struct bm_error *err);

/* Port i of pool be (a job's port, in order) has MAC mac: where another
 * host's sending half addresses its frames (bm_port_spec.mac). */
void bm_pool_set_mac(struct bm_backend *be, unsigned int i,
		     const uint8_t mac[6]);

/* How far off the grandmaster a host's clock may be (ns) unless the
 * creator says otherwise: what ptp4l with software stamps holds on a
 * quiet network (Documentation/multi-host.md); hardware stamps hold
 * well under a microsecond. */
#define BM_POOL_SYNC_TOLERANCE_NS	1e6

/* A part whose host's clock is more than ns off the pool's grandmaster
 * by linuxptp is refused before it starts, and a trial whose hosts were
 * flagged after it (bm_pool_sync.within); 0 = no tolerance. */
void bm_pool_set_sync_tolerance(struct bm_backend *be, double ns);

/* The pool's timestamps' worth: the hosts' own (text, copied), and
 * between hosts their clocks' sync error as each trial states it. */
void bm_pool_set_ts_accuracy(struct bm_backend *be, const char *hosts);

/* Release hosts[0..n) as a pool would: destroy the backends it owns,
 * call release; for a creator whose pool was never made. */
void bm_pool_hosts_release(const struct bm_pool_host *hosts, unsigned int n);

/* Is be a pool? */
bool bm_backend_is_pool(const struct bm_backend *be);

#endif /* BM_POOL_H */

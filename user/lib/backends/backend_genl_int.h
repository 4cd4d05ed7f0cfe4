/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internals of the module backend shared by its ports and hardware
 * stamps (backend_genl.c) and its trials (backend_genl_traffic.c, which
 * sets its ports up in backend_genl_setup.c, adds its streams in
 * backend_genl_streams.c and reads its results in
 * backend_genl_collect.c); the helpers all use are backend_genl_shared.c.
 */
#ifndef BACKEND_GENL_INT_H
#define BACKEND_GENL_INT_H

#include <net/if.h>

#include "bm_clock.h"
#include "bm_genl.h"
#include "bm_hwts.h"
#include "bm_router.h"

/* Default drain: the loss wait threshold of REQ-TRIAL-1 step 4. */
#define BM_DEFAULT_DRAIN_S 2.0

struct bm_genl_backend {
	struct bm_backend be;
	struct bm_genl *g;
	char tx[IFNAMSIZ], rx[IFNAMSIZ];
	unsigned int tx_ifindex, rx_ifindex;
	int router;			/* bm_genl_port_opts.router */
	unsigned int ncpus;		/* the module's CPUs, 0 unknown */
	struct bm_router_port rp[2];	/* router: tx and rx port */
	/* hardware stamping switched on at tx and rx, with each
	 * PHC's offset (PHC - CLOCK_MONOTONIC) and uncertainty as set for
	 * the current trial */
	int hw_on;
	struct bm_hwts_cfg hw[2];
	int phc[2];
	int64_t hw_off[2], hw_unc[2];
	/* a stream faster than one kthread carries goes out as lanes
	 * (bm_lanes.h): at most lanes each; the current trial's logical
	 * streams and how many lanes each got */
	unsigned int lanes;
	/* tx-kthreads auto: lanes is the CPUs, a stream takes what its
	 * rate needs of the port's calibrated capacity (cap, n_cap) */
	int lanes_auto;
	struct bm_tx_capacity *cap;
	size_t n_cap;
	unsigned int tx_path;		/* bm_genl_port_opts.tx_path */
	unsigned int n_logical;
	unsigned int *lane_n;
};

/*
 * REQ-RX-3: after the drain (the loss wait threshold), how long a trial
 * that lost frames keeps counting the late ones.  They stay lost either
 * way; the watch only says how many a DUT held past the threshold, and
 * costs nothing on a trial without loss.
 */
#define BM_LATE_WATCH_S 0.25

/* How long a trial waits for the DUT's ARP answer (router DUTs). */
#define BM_ARP_TIMEOUT_S 3.0

/* backend_genl_shared.c: sleep s seconds (nothing for s <= 0), through
 * signals. */
void bm_sleep_s(double s);
/* CLOCK_MONOTONIC now, in s. */
/* Wait for a trial this process did not start to end; 0, -EBUSY after
 * BM_FOREIGN_TRIAL_WAIT_S, or -errno. */
int bm_genl_wait_foreign(struct bm_genl_backend *b, struct bm_error *err);
/* err says why the module failed the trial (-terr); returns -terr, or
 * -EIO for none. */
int bm_genl_trial_failed(int terr, struct bm_error *err);
/* Attach port name to the module (already attached is fine) and return
 * its ifindex; -ENODEV for no such device. */
int bm_genl_attach(struct bm_genl *g, const char *name,
		   unsigned int *ifindex, struct bm_error *err);
struct bm_traffic;

/* Learning frames (RFC 2544 §23b) from every port that receives in t
 * (ports) and from every MAC of a random set (always: §12's set is only
 * a set once learnt), then the pause (< 0: 2 s); 0 or -errno. */
int bm_traffic_learn(struct bm_genl_backend *b, const struct bm_traffic *t,
		     const unsigned int *ifindex, uint32_t f, double pause,
		     bool ports, struct bm_error *err);
/* Does a stream of t go to a random set of MACs (§12, bridges)? */
bool bm_traffic_has_macs(const struct bm_traffic *t);
/* backend_genl_setup.c: attach every port of t on host (bm_hosts.h; NULL:
 * every port, which must be this host's) and its ifindex into ifindex[],
 * 0 for another host's; 0 or -errno. */
int bm_genl_resolve_ports(struct bm_genl_backend *b,
			  const struct bm_traffic *t, const char *host,
			  unsigned int *ifindex, struct bm_error *err);
/* Is logical stream k in the module this trial (not another host's)? */
bool bm_genl_stream_here(const struct bm_genl_backend *b, unsigned int k);
/* The hardware stamp log of stream k's half here, of intended frames
 * (bm_hw_log_plan): its records, 0 when the stream is whole here or the
 * ports do not stamp; every how many frames in *every. */
uint32_t bm_genl_hw_log(const struct bm_genl_backend *b,
			const struct bm_trial_spec *spec, unsigned int k,
			uint64_t intended, uint32_t *every);
/* Router DUT: every port of t on host (NULL: every port; a pool's part:
 * this host's) its address, every one it sends from the DUT's MAC on its
 * subnet into gw_mac[], resolved afresh; 0 or -errno. */
int bm_traffic_routes(const struct bm_traffic *t, const char *host,
		      uint8_t (*gw_mac)[6], struct bm_error *err);
/* §11.2: the management queries' port gets its address (a router DUT's
 * ports have theirs); 0 or -errno. */
int bm_traffic_mgmt_port(const struct bm_traffic *t, bool router,
			 struct bm_error *err);
/* Replace the module's streams with t's, ids 1..n in t's order; their
 * intended frames into intended[], the latest scheduled end into *want
 * (kept if later).  gw_mac: the DUT's MAC per port (router), or NULL. */
int bm_traffic_add_all(struct bm_genl_backend *b, const struct bm_traffic *t,
		       const struct bm_trial_spec *spec,
		       const unsigned int *ifindex, uint8_t (*gw_mac)[6],
		       uint64_t *intended, double *want, struct bm_error *err);
/* backend_genl_streams.c: the module's id of lane i of logical stream k
 * of n: lane 0 is k + 1, so a trial without lanes keeps ids 1..n. */
uint32_t bm_genl_lane_id(unsigned int k, unsigned int i, unsigned int n);
/* The statistics of logical stream k (0-based) of the current trial, its
 * lanes merged (st->hist allocated; free with bm_genl_stats_free). */
int bm_genl_logical_stats(struct bm_genl_backend *b, unsigned int k,
			  struct bm_genl_stats *st, struct bm_error *err);
/* The drain is over: the module stops counting the trial's streams
 * (REQ-RX-3); false when it cannot (a module before RX_CLOSE), and the
 * trial's late frames go uncounted.  -errno for other failures. */
int bm_genl_close_counting(struct bm_genl_backend *b, struct bm_error *err);
/* After the trial's counts were read (closed > 0): when it lost frames,
 * count those that arrive in BM_LATE_WATCH_S into res->late, and
 * res->late_watch_s (of the streams received here, a pool's part).  0 or
 * -errno. */
int bm_genl_watch_late(struct bm_genl_backend *b,
		       const struct bm_trial_spec *spec, int closed,
		       struct bm_trial_result *res, struct bm_error *err);
struct bm_traffic_result;
/* backend_genl_collect.c: every stream's statistics into tr (intended[]
 * its frames meant), the totals and merged latency into res; 0 or
 * -errno. */
int bm_traffic_collect(struct bm_genl_backend *b,
		       const struct bm_trial_spec *spec,
		       const uint64_t *intended,
		       struct bm_traffic_result *tr,
		       struct bm_trial_result *res, struct bm_error *err);
/* backend_genl_collect.c: the report's frames (RFC 2544 §7) of t's
 * first stream and of its reverse, if any, into b->be.frame_hex. */
void bm_traffic_note_frames(struct bm_genl_backend *b,
			    const struct bm_traffic *t);
/* REQ-GEN-6, MLR §5.1: the paced streams' stretch into res's shortfall
 * (more than 10 us of it: generator-limited). */
void bm_traffic_stretch(const struct bm_traffic *t, uint32_t f,
			const struct bm_traffic_result *tr,
			struct bm_trial_result *res);
/* Before a trial: each stamping port's fresh PHC offset into
 * the module (PHCs drift); 0 or -errno.  Nothing without hw_on. */
int bm_genl_hw_arm(struct bm_genl_backend *b, struct bm_error *err);

/* Keep stream id's frame, as the module built it, in hex in the
 * backend's frame_hex[slot] for the result (RFC 2544 §8); "" when the
 * module cannot say. */
void bm_genl_note_frame(struct bm_genl_backend *b, uint32_t id,
			unsigned int slot);
/* After it: res->hw from the streams' merged statistics. */
void bm_genl_hw_result(struct bm_genl_backend *b,
		       const struct bm_genl_stats *sum,
		       struct bm_trial_result *res);
/* Should a stream from port tx to port rx (ifnames) be PTP-shaped:
 * hardware stamping on, spec->ptp_shape_ok, and rx's filter PTP-only, or
 * rx NULL: another host's port (a pool's part), whose filter is not known
 * here, so shaped whenever allowed (a filter of all frames stamps them
 * too). */
bool bm_genl_hw_ptp_shape(const struct bm_genl_backend *b,
			  const struct bm_trial_spec *spec, const char *tx,
			  const char *rx, uint32_t f);
/* Run spec->traffic (an N-port trial) with the module lock held. */
int bm_genl_run_traffic_locked(struct bm_genl_backend *b,
			       const struct bm_trial_spec *spec,
			       struct bm_trial_result *res,
			       struct bm_error *err);

#endif /* BACKEND_GENL_INT_H */

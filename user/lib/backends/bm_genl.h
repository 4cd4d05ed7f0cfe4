/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace side of the bmgen generic netlink ABI (include/uapi/linux/bmgen.h),
 * over libmnl.  Only bmd, bmctl and the lab tools include this; procedures
 * see the module only as a struct bm_backend.
 */
#ifndef BM_GENL_H
#define BM_GENL_H

#include <stdint.h>

#include "bm_capacity.h"
#include "bm_trial.h"

struct bm_module_status {
	char version[32];	/* module version string */
	uint32_t proto;		/* BMGEN_GENL_VERSION of the module */
	uint32_t cpus;		/* online CPUs */
	uint32_t kthreads;	/* running transmit kthreads */
	uint32_t ports;		/* attached ports */
	uint32_t streams;	/* configured streams */
	uint32_t trial_state;	/* enum bmgen_trial_state */
	int32_t trial_error;	/* -errno of a failed trial */
	/* this namespace's last trial: link losses of its ports, the first
	 * such port */
	uint32_t link_downs, link_down_ifindex;
	uint64_t epoch_tai_ns;	/* the last trial's epoch on CLOCK_TAI; 0
				 * from a module before it */
};

/* Query the module.  0, -ENOENT when bmgen.ko is not loaded (err says so),
 * or another -errno with err->msg set. */
int bm_genl_status(struct bm_module_status *st, struct bm_error *err);

/* An open generic netlink channel to the module. */
struct bm_genl;

/* Receive counters of one attached port (PORT_GET). */
struct bm_genl_port_counters {
	uint64_t rx_other;		/* non-test frames passed up */
	uint64_t rx_unknown;		/* test frames of unknown streams */
	uint64_t rx_misdirected;	/* a stream's frames on a wrong port */
	uint32_t ts_caps;		/* BMGEN_PORT_F_HW_TS_* */
	uint32_t hwts;			/* BMGEN_HWTS_* in use */
	int32_t phc_index;		/* /dev/ptpN, -1 none */
	int64_t phc_offset_ns;		/* PHC - CLOCK_MONOTONIC, as set */
	uint32_t tx_paths;		/* 1 << BMGEN_TXP_* it allows now */
};

/* The transmit paths (1 << BMGEN_TXP_*) device ifname's driver allows,
 * attached or not, into *paths; 0 or -errno (-EOPNOTSUPP: a module
 * before DEV_GET). */
int bm_genl_dev_tx_paths(struct bm_genl *g, const char *ifname,
			 uint32_t *paths, struct bm_error *err);

/* Tell the module which hardware stamping is on at port ifname's driver
 * (BMGEN_HWTS_*) and, if off_ns, its PHC's offset from CLOCK_MONOTONIC;
 * 0 or -errno with err set. */
int bm_genl_port_set(struct bm_genl *g, const char *ifname, uint32_t hwts,
		     const int64_t *off_ns, struct bm_error *err);

struct bm_hwts_cfg;
/* Measure PHC /dev/ptp<phc>'s offset (and its uncertainty) now and hand
 * it with the bits of c, what ifname's driver took, to the module: before
 * each trial, as PHCs drift; 0 or -errno with err set. */
int bm_genl_port_hw_arm(struct bm_genl *g, const char *ifname,
			const struct bm_hwts_cfg *c, int phc, int64_t *off_ns,
			int64_t *unc_ns, struct bm_error *err);

/* The counters of attached port ifindex; 0, -ENOENT if it is not
 * attached, or -errno with err set. */
int bm_genl_port_counters(struct bm_genl *g, uint32_t ifindex,
			  struct bm_genl_port_counters *pc,
			  struct bm_error *err);

/* Open a channel and resolve the family; NULL (err set, -ENOENT in
 * *errp if the module is not loaded) on failure. */
struct bm_genl *bm_genl_open(int *errp, struct bm_error *err);
void bm_genl_close(struct bm_genl *g);

/* Module status over an open channel; 0 or -errno with err set. */
int bm_genl_status_get(struct bm_genl *g, struct bm_module_status *st,
		       struct bm_error *err);

/* Attach/detach a port by name in the caller's netns; 0 or -errno. */
int bm_genl_port_attach(struct bm_genl *g, const char *ifname,
			struct bm_error *err);
int bm_genl_port_detach(struct bm_genl *g, const char *ifname,
			struct bm_error *err);

/* One stream as STREAM_ADD takes it; zero fields take the module default.
 * tx_ifindex 0 is the receiving half alone (another host sends it): the
 * sending fields are then not sent. */
struct bm_genl_stream {
	uint32_t id;
	uint32_t tx_ifindex, rx_ifindex;
	uint32_t frame_size;
	uint64_t rate_ufps;		/* 0 = unpaced */
	uint32_t pattern;		/* enum bmgen_pattern */
	uint64_t count;
	uint32_t burst_len, burst_count;
	uint64_t burst_gap_ns;
	uint64_t burst_period_ns;	/* start to start; 0 = burst_gap_ns */
	uint32_t burst_last_size;	/* F of a burst's last frame; 0 = F */
	uint64_t burst_due_ufps;	/* back to back at the line, measured
					 * (RFC 2544 §26.4); 0 = not */
	uint32_t log_frames;		/* frame log (BMGEN_CMD_LOG_GET) */
	/* a half of a stream across hosts: its hardware stamps logged,
	 * at most hw_log, of every hw_log_every-th frame (0: 1) */
	uint32_t hw_log, hw_log_every;
	uint64_t start_ns;
	uint32_t flows;
	/* RFC 2544 §12: flows vary the IPv4 destination by dst_step each
	 * (ip_dst_flows; else the UDP source port), chosen per frame by
	 * bmgen_flow_pick(flow_seed, ...) when flow_random */
	bool ip_dst_flows;
	uint32_t dst_step;		/* 0 = 1 */
	bool flow_random;
	uint64_t flow_seed;
	/* RFC 2544 §12 for bridges: flows vary the destination MAC
	 * (mac_flows BMGEN_FLOW_MAC_DST) or the source MAC (MAC_SRC, for
	 * learning) over bmgen_flow_mac(mac_seed, k); 0 = neither */
	uint32_t mac_flows;
	uint64_t mac_seed;
	uint8_t dscp;
	uint8_t ip_version;
	int vlan_id;			/* -1 = untagged */
	uint8_t vlan_pcp;
	uint16_t vlan_tpid;		/* 0 = 0x8100 */
	int vlan2_id;			/* -1 = no inner tag */
	uint8_t vlan2_pcp;
	uint32_t mpls[2];		/* label stack entries */
	uint32_t n_mpls;
	uint32_t tx_mode;
	uint32_t tx_path;		/* BMGEN_TXP_*, 0 = AUTO */
	int cpu;			/* -1 = round robin */
	int learn;
	int ptp_shape;		/* IEEE 1588 Sync-shaped frames */
	int tag;			/* carry the latency tag on tag_seq */
	uint64_t tag_seq;
	uint8_t tag_dst_ip4[4];		/* the tagged frame's; 0 = as all */
	uint32_t imix[64];
	uint32_t n_imix;
	/* the frame template; unset fields take the module's defaults
	 * (Documentation/abi.md: RFC 2544 App C addresses, rx port's MAC) */
	int have_dst_mac;
	uint8_t dst_mac[6];
	int have_ip4;
	uint8_t src_ip4[4], dst_ip4[4];
	int have_src_ip6, have_dst_ip6;
	uint8_t src_ip6[16], dst_ip6[16];
	uint16_t udp_src, udp_dst;	/* 0 = default */
};

/* Initialise *s with the defaults above (untagged, round robin). */
void bm_genl_stream_init(struct bm_genl_stream *s);
int bm_genl_stream_add(struct bm_genl *g, const struct bm_genl_stream *s,
		       struct bm_error *err);
/* Delete stream id, or every stream for id 0. */
int bm_genl_stream_del(struct bm_genl *g, uint32_t id, struct bm_error *err);
/* Start a trial at now + delay_ns (0: the module's default).  With
 * BM_GENL_TRIAL_OWNED the module stops it if this channel closes first. */
#define BM_GENL_TRIAL_OWNED 1u
int bm_genl_trial_start(struct bm_genl *g, uint64_t delay_ns,
			unsigned int flags, struct bm_error *err);
/* The same, at at_tai_ns on CLOCK_TAI when not 0 (a trial across hosts:
 * each host's module starts its part at that instant); -ERANGE when it
 * has passed or is more than an hour ahead. */
int bm_genl_trial_start_at(struct bm_genl *g, uint64_t delay_ns,
			   uint64_t at_tai_ns, unsigned int flags,
			   struct bm_error *err);
int bm_genl_trial_stop(struct bm_genl *g, struct bm_error *err);
/* The loss wait of the last trial is over (REQ-RX-3): the module stops
 * counting its streams, later test frames count as rx_late.  0, or -errno
 * (-EOPNOTSUPP from a module before it). */
int bm_genl_rx_close(struct bm_genl *g, struct bm_error *err);

/* Statistics of one stream (BMGEN_STATS_*), with its latency histogram. */
struct bm_genl_stats {
	uint32_t stream_id, ts_source;
	uint64_t tx_frames, tx_bytes, tx_retries, tx_errors;
	uint64_t tx_first_ns, tx_last_ns;
	uint64_t tx_late_frames;	/* left > 1 interval behind schedule */
	uint64_t tx_late_max_ns;	/* largest departure lateness */
	uint64_t tx_stalls_ns[BM_TX_STALLS];	/* largest first */
	uint64_t tx_max_batch;		/* pacing granularity (REQ-GEN-3) */
	uint32_t tx_path;		/* BMGEN_TXP_* the trial used */
	uint64_t tx_ring_misses;	/* recycling: new skbs a full ring needed */
	uint64_t tx_burst_late_max_ns;	/* a burst's frame behind its minimum
					 * gap, at most (burst_due_ufps) */
	uint64_t ts_clock;		/* clockid of all timestamps */
	int tx_done;
	uint64_t rx_frames, rx_bytes, rx_unique, rx_in_order, rx_reordered;
	uint64_t rx_late;		/* after bm_genl_rx_close (REQ-RX-3) */
	uint64_t rx_dup, rx_gap_events, rx_gap_frames, rx_bad_len, rx_learn;
	uint64_t rx_first_ns, rx_last_ns, rx_max_seq, rx_last_lost_seq;
	uint64_t rx_max_iat_ns, rx_max_iat_start_ns;
	/* below zero only across hosts (the receiver's clock behind) */
	uint64_t lat_count, lat_below_zero;
	int64_t lat_min_ns, lat_max_ns, lat_sum_ns;
	uint64_t lat_sumsq_hi, lat_sumsq_lo;
	uint64_t ipdv_count;
	int64_t ipdv_min_ns, ipdv_max_ns, ipdv_sum_ns;
	int64_t tag_lat_ns;
	bool tag_seen;			/* the tagged frame arrived */
	uint64_t rx_cpu_split;
	uint64_t rx_dscp[64], rx_pcp[8], rx_untagged;	/* REQ-RX-5 */
	uint64_t log_tx, log_rx;	/* frame log records */
	/* hardware stamps: missed = requests - stamps */
	uint64_t hw_tx_requests, hw_tx_stamps, hw_rx_stamps, hw_lat_count;
	int64_t hw_lat_min_ns, hw_lat_max_ns, hw_lat_sum_ns, hw_lat_sw_sum_ns;
	uint64_t *hist;			/* BMGEN_HIST_BUCKETS, malloc'd */
};

/* bm_genl_port_opts.tx_kthreads: as many as the calibrated capacity of
 * the port asks for (bmd.conf tx-kthreads = auto). */
#define BM_GENL_KTHREADS_AUTO 0xffffffffu

/* A stream whose lanes used different transmit paths. */
#define BM_GENL_TXP_MIXED 0xffffffffu

/* The name of transmit path p (enum bmgen_tx_path): "auto", "alloc",
 * "recycle", "xdp", "mixed" (BM_GENL_TXP_MIXED), or "unknown" for one this build
 * does not know. */
const char *bm_genl_tx_path_name(uint32_t p);
/* The transmit path called name (bm_genl_tx_path_name's, not "mixed"),
 * or -EINVAL. */
int bm_genl_tx_path_of_name(const char *name);

/* Fetch the statistics of stream id into *st (st->hist allocated; free
 * with bm_genl_stats_free).  -ENOENT if the stream does not exist. */
int bm_genl_stats_get(struct bm_genl *g, uint32_t id, struct bm_genl_stats *st,
		      struct bm_error *err);
void bm_genl_stats_free(struct bm_genl_stats *st);

/* Add st's latency histogram and moments to *sum (sum->hist allocated):
 * the latency of several streams together. */
void bm_genl_stats_merge(struct bm_genl_stats *sum,
			 const struct bm_genl_stats *st);

/*
 * Fold lane into st, both statistics of one logical stream sent as
 * several module streams (lanes, each its own sequence space on its own
 * kthread): counts add up, first and last events are the earliest and
 * latest, latency and its histogram merge (st->hist and lane->hist
 * allocated); reordering and gaps are within a lane.
 */
void bm_genl_stats_lane_add(struct bm_genl_stats *st,
			    const struct bm_genl_stats *lane);

/* The first bytes of stream id's frame 0 as it leaves (at most
 * BMGEN_FRAME_HEAD_MAX) into buf, their number in *len; -ENOENT when the
 * module gives none. */
int bm_genl_stream_frame_head(struct bm_genl *g, uint32_t id, uint8_t *buf,
			      size_t *len, struct bm_error *err);

/*
 * Read stream id's frame log of the last trial: tx[i] = tx time (ns from
 * the epoch) of frame seq i for i < *ntx, rx[] the first *nrx frames
 * received; at most cap records each (the stream's log_frames).  0, or
 * -errno with err set (-ENODATA: the stream keeps no log).
 */
struct bmgen_log_rx;
int bm_genl_log_get(struct bm_genl *g, uint32_t id, size_t cap, uint64_t *tx,
		    size_t *ntx, struct bmgen_log_rx *rx, size_t *nrx,
		    struct bm_error *err);

/*
 * Read stream id's hardware stamp log of the last trial (STREAM_HW_LOG)
 * into rec, at most cap records, their number in *n.  0, or -errno with
 * err set (-ENODATA: the stream keeps no log).
 */
struct bmgen_log_hw;
int bm_genl_hw_log_get(struct bm_genl *g, uint32_t id, size_t cap,
		       struct bmgen_log_hw *rec, size_t *n,
		       struct bm_error *err);

/* Latency summary (mean, stddev, percentiles) from module statistics. */
void bm_genl_stats_latency(const struct bm_genl_stats *st, struct bm_latency *l);

/* The flag (struct bm_backend's abort) that ends g's trial waits at once
 * with -ECANCELED when it turns nonzero; NULL = none. */
void bm_genl_set_abort(struct bm_genl *g, const volatile int *abort);

/* Wait (on the module's events group) until the trial is no longer
 * armed/running or timeout_s passes; the final enum bmgen_trial_state or
 * -errno. */
int bm_genl_trial_wait(struct bm_genl *g, double timeout_s, int *trial_error,
		       struct bm_error *err);

/* The same, asking the module every every_s as well (another
 * namespace's trial, whose end is not announced here: 0.02). */
int bm_genl_trial_wait_every(struct bm_genl *g, double timeout_s,
			     double every_s, int *trial_error,
			     struct bm_error *err);

struct bm_genl_port_opts {
	const char *tx_port;	/* net device name the frames leave on */
	const char *rx_port;	/* net device name they come back on */
	double line_rate_bps;	/* notional R_line (veth has none), bit/s */
	uint8_t dst_mac[6];	/* 0 = rx_port's own MAC (bridged DUT) */
	int have_dst_mac;
	/* RFC 2544 App C router DUT: the ports get 198.18.1.2/24 and
	 * 198.19.1.2/24 (tx, rx), frames go to the DUT's MAC from ARP and
	 * no learning frames are sent (bm_router.h) */
	int router;
	/* Leave the ports' hardware stamping alone (bmd's
	 * hw_timestamps = off); else it is switched on where both ports
	 * can stamp, and put back when the backend goes */
	int no_hw_timestamps;
	/* The job's ports in the order the user gave them (be->port_names,
	 * for N-port procedures, whose trials attach their own ports);
	 * n_ports = 0 names just tx_port and rx_port.  When given, ports[0]
	 * and ports[1] must be tx_port and rx_port. */
	unsigned int n_ports;
	const char *const *ports;
	/* Transmit kthreads a stream may use (lanes, bm_lanes.h): a rate
	 * stream goes out as up to this many module streams, each on its
	 * own kthread and transmit queue; 0 or 1: one; at most the CPUs */
	unsigned int tx_kthreads;
	/* With tx_kthreads BM_GENL_KTHREADS_AUTO: what one kthread sends on
	 * each port (bmgen.capacity), from which a stream gets as many
	 * lanes as its rate needs, up to the CPUs; a port without a figure
	 * gets one.  Copied. */
	const struct bm_tx_capacity *capacity;
	size_t n_capacity;
	/* The transmit path every rate stream asks for (BMGEN_TXP_*; 0 =
	 * AUTO); the trial's record says the one it got (tx_path) */
	unsigned int tx_path;
};

/* A trial backend that drives bmgen.ko through the given ports; NULL and
 * err->msg on failure.  Destroy with be->ops->destroy(be). */
struct bm_backend *bm_backend_genl_new(const struct bm_genl_port_opts *o,
				       struct bm_error *err);

#endif /* BM_GENL_H */

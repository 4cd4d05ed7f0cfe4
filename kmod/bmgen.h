/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bmgen.ko internals: ports, streams, the trial and the tx kthreads.
 *
 * Locking: bm_cfg_lock (a mutex) serialises every configuration change
 * (netlink, the netdevice notifier, module exit).  The data path never takes
 * it: while a trial is armed or running the stream set is frozen (changes
 * get -EBUSY), so the kthreads use their stream pointers freely.  The rx
 * path finds streams through an RCU-protected table and updates a stream's
 * receive state under that stream's rx_lock, which is uncontended because
 * each stream is received on one CPU (RSS, SPEC REQ-RX-2).
 *
 * Namespaces: every port, stream and trial belongs to one network
 * namespace (a port to its device's, a stream and a trial to the caller's)
 * and a request sees and changes only its own namespace's objects.  None
 * of them holds a reference to its namespace: ports go with their devices
 * and bm_net_pre_exit() removes a dying namespace's streams and trial, so
 * every stored struct net pointer is live.
 */
#ifndef BMGEN_H
#define BMGEN_H

#include <linux/types.h>
#include <linux/netdevice.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/mutex.h>
#include <uapi/linux/bmgen.h>

#define BMGEN_VERSION		"0.1.0"
#define BM_DUP_WINDOW_BITS	16	/* duplicate detection window 2^16 */
#define BM_DUP_WINDOW		(1U << BM_DUP_WINDOW_BITS)
#define BM_PTP_SYNC_LEN		44	/* IEEE 1588v2 Sync message */

struct bm_port {
	struct list_head node;
	struct net_device *dev;
	netdevice_tracker dev_tracker;
	struct net *net;
	int ifindex;
	u32 ts_caps;
	atomic64_t rx_other;
	atomic64_t rx_unknown;
	atomic64_t rx_misdirected;
	bool link_up;			/* running with carrier, at the last
					 * event (to count link flaps)
					 */
	/* hardware timestamps (hwts.c, SPEC PLAT-TS) */
	int phc_index;			/* -1: no PHC */
	u32 hwts;			/* BMGEN_HWTS_* userspace switched on */
	s64 phc_offset_ns;		/* PHC - CLOCK_MONOTONIC */
	struct socket *ts_sock;		/* receives the tx stamps; NULL
					 * unless BMGEN_HWTS_TX
					 */
	spinlock_t ts_lock;		/* the pending request below */
	bool ts_pending;		/* a stamped frame is in flight */
	u32 ts_key;			/* its tskey */
	u32 ts_stream;
	u64 ts_seq;
	u64 ts_sent_ns;			/* ktime_get_ns() at its xmit */
};

/*
 * A frame's hardware stamps wait here for their other half, by seq: the
 * tx stamp comes through the port's socket, possibly after the frame
 * arrived.  Monotonic ns (PHC minus the port's offset).
 */
#define BM_HW_SLOTS		16
#define BM_HW_HAVE_TX		0x1
#define BM_HW_HAVE_RX		0x2
struct bm_hw_slot {
	u64 seq;
	s64 tx_ns, rx_ns, sw_lat;
	u32 have;
};

/* Receive state of one stream; written under rx_lock. */
struct bm_rx_state {
	spinlock_t lock;
	unsigned long *seen;		/* BM_DUP_WINDOW bits, ring by seq */
	u64 *hist;			/* BMGEN_HIST_BUCKETS counters */
	struct_group(stats,
	int cpu;			/* CPU that saw the first frame */
	u64 frames, bytes, unique, in_order, reordered, dup;
	u64 gap_events, gap_frames, bad_len, learn, cpu_split;
	u64 next_exp;
	u64 max_seq;
	u64 last_lost_seq;		/* highest lost seq + 1, 0 = none */
	u64 first_ns, last_ns;		/* rel. to epoch; first_ns valid if frames */
	u64 max_iat_ns, max_iat_start_ns;
	u64 lat_count, lat_below_zero;
	s64 lat_min, lat_max, lat_sum;	/* below 0 only across hosts */
	unsigned __int128 lat_sumsq;
	bool have_prev_lat;
	u64 prev_seq;
	s64 prev_lat;
	u64 ipdv_count;
	s64 ipdv_min, ipdv_max, ipdv_sum;
	s64 tag_lat_ns;
	bool tag_seen;			/* the tagged frame arrived */
	u64 seen_base;			/* lowest seq the window covers */
	u64 untagged;			/* frames without a VLAN tag */
	u64 log_n;			/* records in the stream's rx_log */
	u64 hw_tx_stamps, hw_rx_stamps, hw_lat_count;
	u32 hw_log_n;			/* records in the stream's hw_log */
	s64 hw_lat_min, hw_lat_max, hw_lat_sum, hw_lat_sw_sum;
	bool closed;			/* the loss wait is over (RX_CLOSE) */
	u64 late;			/* test frames that came after it */
	);
	struct bm_hw_slot hw[BM_HW_SLOTS];
	/* REQ-RX-5: frames by DSCP and by PCP (tagged frames only) */
	u64 dscp[64];
	u64 pcp[8];
};

struct bm_stream {
	u32 id;
	struct net *net;		/* where it was added; see above */
	bool in_trial;			/* sent by the current or last trial */
	bool rx_only;			/* added without a tx port: another
					 * host sends it
					 */
	struct bm_port *tx_port;	/* NULL for rx_only, or once detached */
	struct bm_port *rx_port;	/* may be NULL */
	/* configuration */
	u32 frame_size;
	u32 imix[BMGEN_MAX_IMIX];
	u32 n_imix;			/* 0 = fixed frame_size */
	u32 max_frame;
	u8 dst_mac[ETH_ALEN], src_mac[ETH_ALEN];
	bool vlan;
	u16 vlan_id;
	u8 vlan_pcp;
	u16 vlan_tpid;			/* outer tag: ETH_P_8021Q or _8021AD */
	bool vlan2;			/* inner 802.1Q tag (QinQ) */
	u16 vlan2_id;
	u8 vlan2_pcp;
	u32 mpls[BMGEN_MAX_MPLS];	/* label stack entries, host order */
	u32 n_mpls;
	u32 l3off;			/* offset of the IP header */
	u8 ip_version;
	__be32 src_ip4, dst_ip4;
	struct in6_addr src_ip6, dst_ip6;
	u8 dscp, ttl;
	u16 udp_src, udp_dst;
	u32 flows;
	u32 flow_mode;
	u32 flow_step;			/* IPv4 destination step a flow */
	bool flow_random;		/* flow of seq: bmgen_flow_pick() */
	u64 flow_seed;
	u64 mac_seed;			/* MAC flow modes: bmgen_flow_mac() */
	u32 pattern;
	u64 rate_ufps;
	u64 count;
	u32 burst_len;
	u64 burst_gap_ns;
	u32 burst_count;
	u64 burst_period_ns;		/* start to start; 0 = burst_gap_ns */
	u64 burst_due_ufps;		/* back to back at the line; 0 = none */
	u32 burst_last_size;		/* F of a burst's last frame; 0 = F */
	u64 start_ns;
	bool learn;
	bool ptp_shape;			/* BMGEN_A_STREAM_PTP_SHAPE */
	int cpu;
	u32 tx_mode;
	u32 tx_path_req;		/* enum bmgen_tx_path asked for */
	bool tag;
	u64 tag_seq;
	__be32 tag_dst_ip4;		/* 0: the tagged frame's own */
	/* the frame log of the last trial (BMGEN_A_STREAM_LOG_FRAMES):
	 * tx_log[seq] for seq < log_frames, written by the kthread; rx_log
	 * in arrival order, rx.log_n records, written under rx.lock
	 */
	u32 log_frames;
	u64 *tx_log;
	struct bmgen_log_rx *rx_log;
	/* its half's hardware stamps (BMGEN_A_STREAM_HW_LOG), rx.hw_log_n
	 * records, written under rx.lock
	 */
	u32 hw_log_max, hw_log_every;
	struct bmgen_log_hw *hw_log;
	/* frame template: headers + fill for max_frame (without FCS) */
	u8 *tmpl;
	u32 hdr_len;			/* offset of the TPLD in the frame */
	bool fill_once;			/* frames differ in seq and tx_ts only:
					 * bm_frame_fill() once per ring skb
					 */
	bool stamp_more;		/* bm_frame_stamp_more() per frame */
	/* tx state, written only by the owning kthread */
	u64 tx_frames, tx_bytes, tx_retries, tx_errors;
	u64 tx_first_ns, tx_last_ns;
	u64 tx_late_frames, tx_late_max_ns;
	u64 tx_burst_late_max_ns;
	u64 tx_stalls_ns[BMGEN_TX_STALLS];	/* largest first */
	u64 hw_tx_requests;
	u64 tx_ring_misses;
	u32 tx_path;			/* enum bmgen_tx_path used */
	u32 tx_max_batch;
	bool tx_done;
	struct list_head tx_node;	/* on its kthread's list for a trial */
	/* rx */
	struct bm_rx_state rx;
	size_t mem;			/* bytes it holds, bm_stream_mem_of() */
	struct rcu_head rcu;
};

struct bm_trial {
	u32 state;			/* enum bmgen_trial_state */
	int error;
	u32 id;
	u64 epoch_ns;			/* CLOCK_MONOTONIC */
	u64 epoch_tai_ns;		/* the same instant on CLOCK_TAI */
	atomic_t active;		/* kthreads still sending */
	bool stop;			/* ask the kthreads to stop */
	struct net *net;		/* where the trial was started, or NULL
					 * once that namespace went away
					 */
	u32 portid;			/* who started it */
	bool owned;			/* stop when portid's socket closes */
	u32 link_downs;			/* a trial port lost its link (or had
					 * none at the start): the trial's
					 * counts measure the link, not the DUT
					 */
	u32 link_down_ifindex;		/* the first such port */
};

/* state.c: what every file shares, defined once */
extern struct mutex bm_cfg_lock;
extern struct bm_stream __rcu *bm_streams[BMGEN_MAX_STREAMS];
extern struct list_head bm_ports;
extern struct bm_trial bm_trial;
/* Changes with every port, stream or trial change, never 0: dumps set
 * cb->seq to it, so a dump across a change carries NLM_F_DUMP_INTR.
 */
extern unsigned int bm_cfg_gen;

/* Note a change of ports, streams or the trial.  Needs bm_cfg_lock. */
static inline void bm_cfg_changed(void)
{
	if (!++bm_cfg_gen)
		bm_cfg_gen = 1;
}

/* Is a trial armed or running?  Needs bm_cfg_lock. */
static inline bool bm_trial_busy(void)
{
	return bm_trial.state == BMGEN_TRIAL_ARMED ||
	       bm_trial.state == BMGEN_TRIAL_RUNNING;
}

/* Set up the trial's events: event (bm_genl_trial_event) tells netlink
 * listeners of each change of the trial's state, from a work item.
 */
void bm_state_init(void (*event)(void));
/* Wait for a pending event; forget the trial's namespace. */
void bm_state_exit(void);
/* The trial changed state: schedule its event. */
void bm_trial_event(void);
/* The last kthread finished: the trial is done, or failed (bm_trial_fail). */
void bm_trial_done(void);
/* A kthread cannot go on: the trial fails with error, every kthread stops. */
void bm_trial_fail(int error);

/* port.c: attach/detach, the rx_handler, device removal */
int bm_port_attach(struct net *net, struct net_device *dev, struct netlink_ext_ack *extack);
int bm_port_detach(struct bm_port *port, struct netlink_ext_ack *extack);
struct bm_port *bm_port_find(struct net *net, int ifindex);
/* The number of attached ports of net.  Needs bm_cfg_lock. */
unsigned int bm_port_count(const struct net *net);
void bm_ports_detach_all(void);
/* Detach p whatever uses it (its device goes away).  Needs bm_cfg_lock. */
void bm_port_release(struct bm_port *p);
/* A NETDEV_* event on p's device: the error a trial using p must fail
 * with, or 0.  Needs bm_cfg_lock.
 */
int bm_port_dev_event(struct bm_port *p, unsigned long event);
/* Count the trial's ports that have no link as it starts.  Needs
 * bm_cfg_lock, the trial's streams marked in_trial.
 */
void bm_ports_link_at_start(void);

/* stream.c: the stream table */
int bm_stream_add(struct bm_stream *s, struct netlink_ext_ack *extack);
/* Delete net's stream id, or all of net's streams for id 0. */
int bm_stream_del(struct net *net, u32 id, struct netlink_ext_ack *extack);
/* Delete every stream of net (all of them for NULL); no trial may run. */
void bm_streams_del_net(const struct net *net);
/* The number of streams of net.  Needs bm_cfg_lock. */
unsigned int bm_stream_count(const struct net *net);
void bm_stream_free(struct bm_stream *s);
void bm_stream_rx_reset(struct bm_stream *s);

/* frame.c: templates and frames */
int bm_stream_build_template(struct bm_stream *s, struct netlink_ext_ack *extack);
u32 bm_stream_frame_size(const struct bm_stream *s, u64 seq);
/* A new skb for frame seq of s, headers and TPLD filled in but tx_ts. */
struct sk_buff *bm_frame_build(const struct bm_stream *s, struct net_device *dev,
			       u64 seq, u32 *size);
/* An skb with s's largest frame, for a ring that bm_frame_fill() reuses. */
struct sk_buff *bm_frame_new(const struct bm_stream *s, struct net_device *dev,
			     gfp_t gfp);
/* Make skb (from either of the above) frame seq of s but for seq and tx_ts. */
void bm_frame_fill(const struct bm_stream *s, struct sk_buff *skb, u64 seq,
		   u32 *size);
/* The same for the frame at d, whatever holds it; returns its size F. */
u32 bm_frame_fill_buf(const struct bm_stream *s, u8 *d, u64 seq);
void bm_frame_stamp_more(const struct bm_stream *s, u8 *d, u64 seq);

/* Stamp seq and ts into the frame at d just before it goes (inline: it
 * runs for every frame; two stores a field, not six).
 */
static inline void bm_frame_stamp_buf(const struct bm_stream *s, u8 *d,
				      u64 seq, u64 ts)
{
	struct bmgen_tpld *tp = (struct bmgen_tpld *)(d + s->hdr_len);
	__be16 seq_hi = cpu_to_be16(seq >> 32), ts_hi = cpu_to_be16(ts >> 32);
	__be32 seq_lo = cpu_to_be32(seq), ts_lo = cpu_to_be32(ts);

	/* fixed-size copies: plain stores, and no unaligned.h, which 6.12
	 * moved from asm/ to linux/
	 */
	memcpy(tp->seq, &seq_hi, 2);
	memcpy(tp->seq + 2, &seq_lo, 4);
	memcpy(tp->tx_ts, &ts_hi, 2);
	memcpy(tp->tx_ts + 2, &ts_lo, 4);
	if (unlikely(s->stamp_more))
		bm_frame_stamp_more(s, d, seq);
}

/* bm_frame_stamp_buf() in skb's frame. */
static inline void bm_frame_stamp(const struct bm_stream *s,
				  struct sk_buff *skb, u64 seq, u64 ts)
{
	bm_frame_stamp_buf(s, skb->data, seq, ts);
}

/* Busy buffers a ring tries before a new one replaces the last of them. */
#define BM_RING_PROBE	4

/* tx_xdp.c: the XDP path's ring of pages (one frame a page) */
struct bm_xdp_ring {
	struct page **pg;
	unsigned int size;	/* 0: not this path */
	unsigned int pos;	/* the next slot to try */
	unsigned int first;	/* the current batch's first slot */
};

struct xdp_frame;
/* Does dev's driver take XDP frames (ndo_xdp_xmit) now? */
bool bm_xdp_ready(struct net_device *dev);
/* Does every frame of s fit one page with XDP's head- and tailroom? */
bool bm_xdp_fits(const struct bm_stream *s);
bool bm_xdp_ring_init(struct bm_xdp_ring *r, unsigned int size);
void bm_xdp_ring_free(struct bm_xdp_ring *r);
/* Frame seq of s in r's next free page, all but seq and tx_ts. */
struct xdp_frame *bm_xdp_get(struct bm_xdp_ring *r, const struct bm_stream *s,
			     u64 seq, u32 *size, u64 *misses);
void bm_xdp_put(struct xdp_frame *xf);
void bm_xdp_rewind(struct bm_xdp_ring *r);
/* Frames of xf[0..n) the driver took, or -errno. */
int bm_xdp_xmit(struct net_device *dev, struct xdp_frame **xf, unsigned int n);

/* tx.c: the kthreads that pace and send */
/* BMGEN_TXP_* bits of the paths p allows now (BMGEN_A_PORT_TX_PATHS). */
u32 bm_tx_paths(const struct bm_port *p);
/* The same for dev's driver, hardware tx stamps aside (DEV_GET). */
u32 bm_tx_paths_dev(struct net_device *dev);
int bm_tx_init(void);
void bm_tx_exit(void);
unsigned int bm_tx_kthreads(void);
void bm_tx_prepare(void);
bool bm_tx_assign(struct bm_stream *s, unsigned int *next_cpu);
void bm_tx_go(void);
void bm_tx_wait_idle(void);

/* trial.c: the trial's lifecycle */
int bm_trial_start(struct net *net, u32 portid, u64 delay_ns, u64 at_tai_ns,
		   struct netlink_ext_ack *extack);
void bm_trial_stop(int error);
/* End the counting of net's last trial's streams (REQ-RX-3); bm_cfg_lock. */
int bm_trial_rx_close(struct net *net, struct netlink_ext_ack *extack);

/* netdev.c: what a port's device event does to the trial */
int bm_netdev_notifier_init(void);
void bm_netdev_notifier_exit(void);

/* rx.c: per-frame analysis */
rx_handler_result_t bm_rx_handler(struct sk_buff **pskb);

/* hwts.c: hardware timestamps (SPEC PLAT-TS) */
/* Set what userspace switched on at p's driver.  Needs bm_cfg_lock. */
int bm_hwts_port_set(struct bm_port *p, u32 hwts, const s64 *phc_offset_ns,
		     struct netlink_ext_ack *extack);
/* Free p's stamping state (its socket).  Needs bm_cfg_lock. */
void bm_hwts_port_release(struct bm_port *p);
/* Forget p's request in flight, for a new trial. */
void bm_hwts_port_reset(struct bm_port *p);
/* Ask for a hardware tx stamp of frame seq if none is in flight on p. */
void bm_hwts_mark(struct bm_port *p, struct bm_stream *s, struct sk_buff *skb,
		  u64 seq);
/* Take the tx stamps p's socket received.  Process context. */
void bm_hwts_drain(struct bm_port *p);
/* Note frame seq's rx hardware stamp, if skb has one.  Under s->rx.lock. */
void bm_hwts_rx(struct bm_stream *s, const struct bm_port *p,
		struct sk_buff *skb, u64 seq, s64 sw_lat);
/* Zero s's stamps for a new trial.  Under s->rx.lock. */
void bm_hwts_stream_reset(struct bm_stream *s);

/* netlink.c */
int bm_genl_init(void);
void bm_genl_exit(void);
void bm_genl_trial_event(void);
int bm_net_init(void);
void bm_net_exit(void);

#endif /* BMGEN_H */

/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * bmgen: the generic netlink ABI between bmgen.ko and userspace.
 *
 * This header is the one contract between the module and bmd/bmctl.  Every
 * incompatible change bumps BMGEN_GENL_VERSION; userspace sends its version
 * in genlmsghdr.version and in BMGEN_A_VERSION with every request, do or
 * dump, and the module rejects a mismatch.  Documentation/abi.md describes
 * every command and attribute, and the namespace model: a request sees and
 * changes only the ports, streams and trial of its own network namespace.
 *
 * Units are part of every attribute name: _NS nanoseconds, _UFPS frames per
 * second times 10^6, _BYTES bytes.  Frame sizes count the Ethernet frame
 * with FCS, without preamble and gap (SPEC 2.1).
 */
#ifndef _UAPI_LINUX_BMGEN_H
#define _UAPI_LINUX_BMGEN_H

#include <linux/types.h>

#define BMGEN_GENL_NAME		"bmgen"
#define BMGEN_GENL_VERSION	1
#define BMGEN_MCGRP_EVENTS	"events"

/* Limits the module enforces (and userspace may check first). */
/*
 * Stream ids are 1 .. BMGEN_MAX_STREAMS-1: a full mesh of 64 ports is 4032
 * streams (REQ-TOPO-1 mesh).  Modules before 0.2 stopped at 1023 and
 * refuse higher ids with ERANGE, which needs no version bump: the request
 * fails cleanly.
 * The module also bounds the memory of all streams (max_stream_mem_kb).
 */
#define BMGEN_MAX_STREAMS	8192
#define BMGEN_MIN_FRAME		64
#define BMGEN_MAX_FRAME		9216
#define BMGEN_MAX_IMIX		64
#define BMGEN_MAX_BURST		(1U << 24)
#define BMGEN_MAX_FLOWS		65536
#define BMGEN_FRAME_HEAD_MAX	128
#define BMGEN_MAX_LOG_FRAMES	(1U << 20)
#define BMGEN_MAX_HW_LOG	(1U << 16)
#define BMGEN_TX_STALLS		8	/* BMGEN_STATS_TX_STALLS_NS */
#define BMGEN_UDP_SRC_DEFAULT	49184	/* STREAM_UDP_SRC when not given */
#define BMGEN_MAX_MPLS		2

/*
 * The test payload header (SPEC PLAT-FRAME REQ-FRM-2), 18 bytes at the start
 * of the UDP payload, network byte order.
 */
#define BMGEN_TPLD_MAGIC	0xB37E
#define BMGEN_TPLD_LEN		18
#define BMGEN_TPLD_F_LATENCY	0x01	/* RFC 2544 §26.2 latency tag */
#define BMGEN_TPLD_F_TS		0x02	/* tx timestamp valid */
#define BMGEN_TPLD_F_LEARN	0x04	/* learning frame, not counted */

struct bmgen_tpld {
	__be16 magic;
	__u8 flags;
	__u8 stream_id[3];	/* 24 bit */
	__u8 seq[6];		/* 48 bit */
	__u8 tx_ts[6];		/* 48 bit, ns since the trial epoch */
} __attribute__((packed));

enum bmgen_cmd {
	BMGEN_CMD_UNSPEC,
	BMGEN_CMD_STATUS_GET,	/* do: module version, CPUs, kthreads, trial */
	BMGEN_CMD_PORT_ATTACH,	/* do: IFNAME or IFINDEX [, PORT_FLAGS] */
	BMGEN_CMD_PORT_DETACH,	/* do: IFINDEX */
	BMGEN_CMD_PORT_GET,	/* dump: attached ports of the caller's netns */
	BMGEN_CMD_STREAM_ADD,	/* do: STREAM_* */
	BMGEN_CMD_STREAM_DEL,	/* do: STREAM_ID, or none for all of the
				 * caller's netns
				 */
	BMGEN_CMD_STREAM_GET,	/* dump: the caller's netns's streams */
	BMGEN_CMD_TRIAL_START,	/* do: [TRIAL_START_DELAY_NS]; the caller's
				 * netns's streams
				 */
	BMGEN_CMD_TRIAL_STOP,	/* do: EPERM if another netns's trial runs */
	BMGEN_CMD_STATS_GET,	/* dump: one message per stream of the
				 * caller's netns (+ histogram)
				 */
	BMGEN_CMD_TRIAL_EVENT,	/* notification on BMGEN_MCGRP_EVENTS */
	/* ABI v1, appended */
	BMGEN_CMD_LOG_GET,	/* dump: STREAM_ID; the stream's frame log
				 * (STREAM_LOG_FRAMES) and hardware stamp
				 * log (STREAM_HW_LOG) of the last trial in
				 * chunks: LOG_DIR, LOG_OFFSET, LOG_RECORDS
				 */
	BMGEN_CMD_PORT_SET,	/* do: IFINDEX or IFNAME; [PORT_HWTS]
				 * [PORT_PHC_OFFSET_NS]: the hardware
				 * stamping userspace switched on at the
				 * driver (SIOCSHWTSTAMP) and the port's PHC
				 * against CLOCK_MONOTONIC; EBUSY while the
				 * port is in a trial
				 */
	BMGEN_CMD_DEV_GET,	/* do: IFINDEX or IFNAME of any device of the
				 * caller's netns, attached or not (nothing
				 * changes): IFINDEX, IFNAME, PORT_TX_PATHS
				 * (what its driver allows, hardware stamps
				 * aside)
				 */
	BMGEN_CMD_RX_CLOSE,	/* do: the loss wait threshold is over
				 * (SPEC REQ-RX-3): every stream of the
				 * caller's netns's last trial stops
				 * counting; a test frame that arrives
				 * later counts only in STATS_RX_LATE.
				 * EBUSY while that trial still sends
				 */
	__BMGEN_CMD_MAX
};
#define BMGEN_CMD_MAX (__BMGEN_CMD_MAX - 1)

enum bmgen_trial_state {
	BMGEN_TRIAL_IDLE,	/* no trial since streams changed */
	BMGEN_TRIAL_ARMED,	/* started, waiting for the epoch */
	BMGEN_TRIAL_RUNNING,
	BMGEN_TRIAL_DONE,	/* every stream sent all it had to */
	BMGEN_TRIAL_STOPPED,	/* stopped by TRIAL_STOP */
	BMGEN_TRIAL_FAILED,	/* a port went away etc.; see TRIAL_ERROR */
};

enum bmgen_pattern {
	BMGEN_PAT_CONTINUOUS,	/* at RATE until TRIAL_STOP */
	BMGEN_PAT_COUNT,	/* COUNT frames at RATE */
	BMGEN_PAT_BURST,	/* BURST_LEN frames back to back, then BURST_GAP_NS
				 * (end to start), BURST_COUNT times (0 = forever)
				 */
};

enum bmgen_tx_mode {
	BMGEN_TX_DIRECT,	/* ndo_start_xmit under the tx queue lock */
	BMGEN_TX_QDISC,		/* dev_queue_xmit: through the port's qdisc */
};

/*
 * How a frame's buffer is had (BMGEN_A_STREAM_TX_PATH asks, the stream's
 * BMGEN_STATS_TX_PATH says what the trial used, BMGEN_A_PORT_TX_PATHS
 * what a port allows as 1 << path).  Every path gives every frame its own
 * sequence number and timestamp, written just before it goes.
 */
enum bmgen_tx_path {
	BMGEN_TXP_AUTO,		/* ask: RECYCLE where the port allows it,
				 * else ALLOC; never XDP (see abi.md)
				 */
	BMGEN_TXP_ALLOC,	/* a new skb per frame: any driver */
	BMGEN_TXP_RECYCLE,	/* a ring of skbs, each sent again once the
				 * driver has released it: drivers that
				 * allow shared skbs (IFF_TX_SKB_SHARING),
				 * TX_MODE direct, no hardware tx stamps;
				 * anything else falls back to ALLOC
				 */
	BMGEN_TXP_XDP,		/* XDP frames in a ring of pages, handed to
				 * the driver's ndo_xdp_xmit in bulk: a
				 * driver ready for XDP frames (veth whose
				 * peer has GRO or an XDP program; NIC
				 * drivers with an XDP program attached),
				 * TX_MODE direct, no hardware tx stamps,
				 * frames that fit a page; anything else
				 * falls back to RECYCLE, then ALLOC
				 */
	__BMGEN_TXP_MAX
};
#define BMGEN_TXP_MAX (__BMGEN_TXP_MAX - 1)

enum bmgen_flow_mode {
	BMGEN_FLOW_UDP_SRC,	/* vary the UDP source port */
	BMGEN_FLOW_IP_DST,	/* vary the low bits of the destination address */
	/* RFC 2544 §12 for bridges (SPEC R2544-ADDR, AMB-06): flow k's
	 * frames carry bmgen_flow_mac(STREAM_MAC_SEED, k) as their
	 * destination MAC, or (MAC_SRC) as their source MAC, which is how
	 * learning frames teach a bridge where the set lives
	 */
	BMGEN_FLOW_MAC_DST,
	BMGEN_FLOW_MAC_SRC,
};

/*
 * The flow of frame seq of a stream with BMGEN_A_STREAM_FLOW_SEED: the
 * splitmix64 finaliser of seed + (seq + 1) * 2^64/phi, scaled to
 * [0, flows) by its high 32 bits (bias below flows / 2^32).  The same
 * seed gives the same sequence in the module and in userspace, which
 * predicts a trial's counts per destination exactly.
 */
static inline __u32 bmgen_flow_pick(__u64 seed, __u64 seq, __u32 flows)
{
	__u64 z = seed + (seq + 1) * 0x9e3779b97f4a7c15ULL;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return (__u32)(((z >> 32) * (__u64)flows) >> 32);
}

/*
 * Unicast MAC k of the seeded set of a MAC flow mode: the splitmix64
 * finaliser of (seed ^ "mac_set!") + (k + 1) * 2^64/phi, its bytes 2..7,
 * with the group bit cleared (never multicast) and never all zero.  Any
 * unicast address, as §12 asks "over the full MAC range"; userspace
 * computes the same set for learning and for its report.
 */
static inline void bmgen_flow_mac(__u64 seed, __u32 k, __u8 *mac)
{
	__u64 z = (seed ^ 0x6d61635f73657421ULL) +
		  ((__u64)k + 1) * 0x9e3779b97f4a7c15ULL;
	int i;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	for (i = 0; i < 6; i++)
		mac[i] = (__u8)(z >> (8 * (5 - i)));
	mac[0] &= 0xfe;
	if (!(mac[0] | mac[1] | mac[2] | mac[3] | mac[4] | mac[5]))
		mac[5] = 1;
}

enum bmgen_ts_source {
	BMGEN_TS_SW,		/* ktime_get_ns() at xmit and at the rx_handler */
	BMGEN_TS_HW,		/* NIC PHC (not available on veth/virtio) */
};

/* BMGEN_A_PORT_FLAGS / BMGEN_A_PORT_TS_CAPS bits. */
#define BMGEN_PORT_F_HW_TS_RX	0x1	/* port can hardware-stamp rx */
#define BMGEN_PORT_F_HW_TS_TX	0x2	/* port can hardware-stamp tx */

/*
 * BMGEN_A_PORT_HWTS bits (SPEC PLAT-TS): what the module may use.  TX: the
 * driver's tx stamping is on; the module asks for a hardware stamp of one
 * frame at a time per port (NICs keep one in flight) through a kernel
 * socket of its own.  RX: the driver's rx filter is on; frames that
 * arrive with a hardware stamp are paired with their tx stamp by seq.
 */
#define BMGEN_HWTS_TX		0x1
#define BMGEN_HWTS_RX		0x2
#define BMGEN_HWTS_ALL		(BMGEN_HWTS_TX | BMGEN_HWTS_RX)

enum bmgen_attr {
	BMGEN_A_UNSPEC,
	BMGEN_A_VERSION,		/* u32: BMGEN_GENL_VERSION */
	BMGEN_A_MOD_VERSION,		/* string: module version */
	BMGEN_A_CPUS,			/* u32: online CPUs */
	BMGEN_A_KTHREADS,		/* u32: running tx kthreads */
	BMGEN_A_NPORTS,			/* u32: of the caller's netns */
	BMGEN_A_NSTREAMS,		/* u32: of the caller's netns */
	BMGEN_A_TRIAL_STATE,		/* u32: enum bmgen_trial_state */
	BMGEN_A_TRIAL_ERROR,		/* s32: -errno of a failed trial */
	BMGEN_A_TRIAL_START_DELAY_NS,	/* u64: epoch = now + delay */
	BMGEN_A_TRIAL_EPOCH_NS,		/* u64: CLOCK_MONOTONIC ns */
	BMGEN_A_TRIAL_ID,		/* u32: counts trials since load */

	BMGEN_A_PORT_IFINDEX,		/* u32 */
	BMGEN_A_PORT_IFNAME,		/* string */
	BMGEN_A_PORT_TS_CAPS,		/* u32: BMGEN_PORT_F_* */
	BMGEN_A_PORT_RX_OTHER,		/* u64: non-test frames passed up */
	BMGEN_A_PORT_RX_UNKNOWN,	/* u64: test frames of unknown streams */

	BMGEN_A_STREAM_ID,		/* u32: 1 .. BMGEN_MAX_STREAMS-1 */
	BMGEN_A_STREAM_TX_IFINDEX,	/* u32: attached port */
	BMGEN_A_STREAM_RX_IFINDEX,	/* u32: attached port (may be 0) */
	BMGEN_A_STREAM_FRAME_SIZE,	/* u32: F, 64 .. 9216 */
	BMGEN_A_STREAM_IMIX,		/* binary: __u32 sizes, cycled in order */
	BMGEN_A_STREAM_DST_MAC,		/* binary[6] */
	BMGEN_A_STREAM_SRC_MAC,		/* binary[6]; default: tx port's MAC */
	BMGEN_A_STREAM_VLAN_ID,		/* u16: 0..4094; absent = untagged */
	BMGEN_A_STREAM_VLAN_PCP,	/* u8: 0..7 */
	BMGEN_A_STREAM_IP_VERSION,	/* u8: 4 (default) or 6 */
	BMGEN_A_STREAM_SRC_IP4,		/* be32 (binary[4]) */
	BMGEN_A_STREAM_DST_IP4,		/* be32 (binary[4]) */
	BMGEN_A_STREAM_SRC_IP6,		/* binary[16] */
	BMGEN_A_STREAM_DST_IP6,		/* binary[16] */
	BMGEN_A_STREAM_DSCP,		/* u8: 0..63 */
	BMGEN_A_STREAM_TTL,		/* u8: default 10 (RFC 2544 C.2.6.4) */
	BMGEN_A_STREAM_UDP_SRC,		/* u16: default 49184 */
	BMGEN_A_STREAM_UDP_DST,		/* u16: default 7 */
	BMGEN_A_STREAM_FLOWS,		/* u32: 1 .. BMGEN_MAX_FLOWS */
	BMGEN_A_STREAM_FLOW_MODE,	/* u32: enum bmgen_flow_mode */
	BMGEN_A_STREAM_PATTERN,		/* u32: enum bmgen_pattern */
	BMGEN_A_STREAM_RATE_UFPS,	/* u64: fps * 10^6; 0 = unpaced */
	BMGEN_A_STREAM_COUNT,		/* u64: frames, BMGEN_PAT_COUNT */
	BMGEN_A_STREAM_BURST_LEN,	/* u32 */
	BMGEN_A_STREAM_BURST_GAP_NS,	/* u64 */
	BMGEN_A_STREAM_BURST_COUNT,	/* u32 */
	BMGEN_A_STREAM_START_NS,	/* u64: offset from the trial epoch */
	BMGEN_A_STREAM_LEARN,		/* flag: learning frames (not counted) */
	BMGEN_A_STREAM_CPU,		/* u32: tx kthread; default round robin */
	BMGEN_A_STREAM_TX_MODE,		/* u32: enum bmgen_tx_mode */
	BMGEN_A_STREAM_LATENCY_TAG_SEQ,	/* u64: seq that carries the RFC 2544
					 * latency tag; absent = none
					 */

	BMGEN_A_STATS,			/* nest: BMGEN_STATS_* */
	BMGEN_A_HIST,			/* binary: struct bmgen_hist_bucket[] */
	BMGEN_A_PAD,
	/* ABI v1, appended */
	BMGEN_A_PORT_RX_MISDIRECTED,	/* u64: test frames of a stream that
					 * arrived on a port other than the
					 * stream's rx port (a flooding DUT);
					 * not counted for the stream
					 */
	BMGEN_A_TRIAL_OWNED,		/* flag (TRIAL_START): the trial ends,
					 * FAILED with -ECONNRESET, when the
					 * starting socket closes (its daemon
					 * died): no orphaned traffic
					 */
	BMGEN_A_STREAM_FRAME_HEAD,	/* binary (STREAM_GET): the first
					 * BMGEN_FRAME_HEAD_MAX bytes of the
					 * stream's frame 0 as it leaves, with
					 * tx_ts 0 (RFC 2544 §7: the report
					 * names the exact frame)
					 */
	BMGEN_A_STREAM_BURST_PERIOD_NS,	/* u64: burst k starts at START_NS +
					 * k * period (start to start, RFC
					 * 7640 Ti); instead of BURST_GAP_NS;
					 * at least 1 us
					 */
	BMGEN_A_STREAM_BURST_LAST_SIZE,	/* u32: F of each burst's last frame
					 * (byte-exact bursts, SPEC REQ-GEN-
					 * 2.4); not with IMIX
					 */
	BMGEN_A_STREAM_LOG_FRAMES,	/* u32: log the tx time of frames
					 * seq < n and the first n frames
					 * received (BMGEN_CMD_LOG_GET); at
					 * most BMGEN_MAX_LOG_FRAMES
					 */
	BMGEN_A_LOG_DIR,		/* u32: enum bmgen_log_dir */
	BMGEN_A_LOG_OFFSET,		/* u64: index of the chunk's first
					 * record
					 */
	BMGEN_A_LOG_RECORDS,		/* binary: __u64 tx ns (BMGEN_LOG_TX,
					 * record i = seq i) or struct
					 * bmgen_log_rx[] (BMGEN_LOG_RX, in
					 * arrival order) or struct
					 * bmgen_log_hw[] (BMGEN_LOG_HW)
					 */
	/* encapsulations of RFC 7640 (SPEC TM-CAP-SL REQ-TM-5) */
	BMGEN_A_STREAM_VLAN_TPID,	/* u16: the outer tag's TPID, 0x8100
					 * (802.1Q, default) or 0x88a8
					 * (802.1ad); needs VLAN_ID
					 */
	BMGEN_A_STREAM_VLAN2_ID,	/* u16: 0..4094, an inner 802.1Q tag
					 * (QinQ); needs VLAN_ID
					 */
	BMGEN_A_STREAM_VLAN2_PCP,	/* u8: 0..7, needs VLAN2_ID */
	BMGEN_A_STREAM_MPLS,		/* binary: __u32[1..BMGEN_MAX_MPLS]
					 * label stack entries, host order,
					 * label << 12 | TC << 9 | TTL; the
					 * module sets bottom of stack on the
					 * last (EtherType 0x8847, IPv4/6
					 * after it)
					 */
	BMGEN_A_TRIAL_LINK_DOWNS,	/* u32 (STATUS_GET, the caller's
					 * namespace's trial): times a port of
					 * the trial lost its link (down or no
					 * carrier) during the trial or after
					 * it until the next, or had none at
					 * its start; the trial goes on
					 */
	BMGEN_A_TRIAL_LINK_DOWN_IFINDEX, /* u32: the first such port */
	/* RFC 2544 §12 random destinations (SPEC R2544-ADDR) */
	BMGEN_A_STREAM_FLOW_STEP,	/* u32, IPv4 with FLOW_MODE IP_DST: flow
					 * k's destination is DST_IP4 + k *
					 * step (256: one /24 network a flow);
					 * default 1
					 */
	BMGEN_A_STREAM_FLOW_SEED,	/* u64: frame seq goes to flow
					 * bmgen_flow_pick(seed, seq, FLOWS),
					 * a seeded uniform choice, instead of
					 * seq mod FLOWS
					 */
	/* hardware timestamps (SPEC PLAT-TS) */
	BMGEN_A_PORT_HWTS,		/* u32: BMGEN_HWTS_* (PORT_SET, GET) */
	BMGEN_A_PORT_PHC_OFFSET_NS,	/* s64: PHC time - CLOCK_MONOTONIC,
					 * as userspace measured it
					 * (PTP_SYS_OFFSET_EXTENDED); hardware
					 * stamps are converted with it
					 */
	BMGEN_A_PORT_PHC_INDEX,		/* s32 (PORT_GET): the port's PTP
					 * hardware clock /dev/ptpN, -1 none
					 */
	BMGEN_A_STREAM_PTP_SHAPE,	/* flag: frames are IEEE 1588v2 Sync
					 * messages on Ethernet (EtherType
					 * 0x88F7, 44 bytes) with the TPLD
					 * after them, no IP: a NIC whose rx
					 * filter stamps PTP event frames only
					 * stamps them; L2 DUTs; F >= 80
					 */
	/* RFC 2544 §12 random MAC destinations (SPEC R2544-ADDR) */
	BMGEN_A_STREAM_MAC_SEED,	/* u64: the set of FLOW_MODE MAC_DST,
					 * MAC_SRC (bmgen_flow_mac()); default 0
					 */
	/* RFC 2544 §26.2: a tagged frame to a new network (SPEC R2544-LAT) */
	BMGEN_A_STREAM_TAG_DST_IP4,	/* be32 (binary[4]), IPv4 streams with
					 * LATENCY_TAG_SEQ: the tagged frame
					 * goes to this address, every other
					 * frame as before
					 */
	/* a transmit path without an allocation per frame */
	BMGEN_A_STREAM_TX_PATH,		/* u32: enum bmgen_tx_path asked for
					 * (default AUTO)
					 */
	BMGEN_A_PORT_TX_PATHS,		/* u32 (PORT_GET): 1 << enum
					 * bmgen_tx_path for each path the port
					 * allows now
					 */
	/*
	 * RFC 2544 §26.4 "minimum inter-frame gap", measured, not paced
	 * (STATS_TX_BURST_LATE_MAX_NS).  u64, burst pattern: fps * 10^6 of
	 * back to back at the line; frame j of a burst is due j / rate
	 * after the burst's first departure.
	 */
	BMGEN_A_STREAM_BURST_DUE_UFPS,
	/*
	 * A trial across hosts: each host's module starts its part at one
	 * absolute instant, so that a frame's TPLD transmit time (ns since
	 * the sender's epoch) and its receive time (ns since the
	 * receiver's) share an origin, off by the hosts' sync error.
	 * TRIAL_START: u64 CLOCK_TAI ns, the epoch; not with
	 * TRIAL_START_DELAY_NS; from now to an hour ahead (ERANGE "the start
	 * time has passed" otherwise).  STATUS_GET: the last trial's epoch
	 * on CLOCK_TAI, as the module converted it at TRIAL_START.
	 */
	BMGEN_A_TRIAL_START_TAI_NS,
	BMGEN_A_TRIAL_EPOCH_TAI_NS,
	/*
	 * flag (STREAM_GET): the stream was added with an rx port and no tx
	 * port: another host sends it, this module only receives it (its
	 * sending attributes are refused).  A trial of rx-only streams
	 * alone runs until TRIAL_STOP.
	 */
	BMGEN_A_STREAM_RX_ONLY,
	/*
	 * A stream whose halves are on two hosts cannot pair its hardware
	 * stamps in one module: each module logs its half's (LOG_GET,
	 * BMGEN_LOG_HW) and the pool pairs them by seq.  STREAM_HW_LOG: u32,
	 * at most this many records, 1 .. BMGEN_MAX_HW_LOG: the tx stamps of
	 * a stream with no rx port here, the rx stamps of an rx-only one.
	 * STREAM_HW_LOG_EVERY: u32, only frames whose seq is a multiple of
	 * it (default 1; needs HW_LOG): the sender asks stamps of those
	 * frames only and the receiver logs those only, so the two logs
	 * hold the same frames, spread over the whole trial.
	 */
	BMGEN_A_STREAM_HW_LOG,
	BMGEN_A_STREAM_HW_LOG_EVERY,
	__BMGEN_A_MAX
};
#define BMGEN_A_MAX (__BMGEN_A_MAX - 1)

/* Per-stream statistics of the current (or last) trial, inside BMGEN_A_STATS. */
enum bmgen_stats_attr {
	BMGEN_STATS_UNSPEC,
	BMGEN_STATS_STREAM_ID,		/* u32 */
	BMGEN_STATS_TS_SOURCE,		/* u32: enum bmgen_ts_source */
	BMGEN_STATS_TX_FRAMES,		/* u64 */
	BMGEN_STATS_TX_BYTES,		/* u64: sum of F */
	BMGEN_STATS_TX_RETRIES,		/* u64: driver busy returns retried */
	BMGEN_STATS_TX_ERRORS,		/* u64: frames the driver/qdisc dropped */
	BMGEN_STATS_TX_FIRST_NS,	/* u64: rel. to epoch */
	BMGEN_STATS_TX_LAST_NS,		/* u64: rel. to epoch */
	BMGEN_STATS_TX_DONE,		/* u8: 1 when the stream has finished */
	BMGEN_STATS_RX_FRAMES,		/* u64: all test frames incl. dups */
	BMGEN_STATS_RX_BYTES,		/* u64: sum of F */
	BMGEN_STATS_RX_UNIQUE,		/* u64 */
	BMGEN_STATS_RX_IN_ORDER,	/* u64 */
	BMGEN_STATS_RX_REORDERED,	/* u64: seq < next expected (RFC 4737) */
	BMGEN_STATS_RX_DUP,		/* u64 */
	BMGEN_STATS_RX_GAP_EVENTS,	/* u64 */
	BMGEN_STATS_RX_GAP_FRAMES,	/* u64 */
	BMGEN_STATS_RX_BAD_LEN,		/* u64 */
	BMGEN_STATS_RX_LEARN,		/* u64: learning frames seen */
	BMGEN_STATS_RX_FIRST_NS,	/* u64: rel. to epoch */
	BMGEN_STATS_RX_LAST_NS,		/* u64: rel. to epoch */
	BMGEN_STATS_RX_MAX_SEQ,		/* u64: highest seq received */
	BMGEN_STATS_RX_LAST_LOST_SEQ,	/* u64: highest seq in a gap, +1
					 * (0 = no gap seen)
					 */
	BMGEN_STATS_RX_MAX_IAT_NS,	/* u64: longest inter-arrival time */
	BMGEN_STATS_RX_MAX_IAT_START_NS,/* u64: arrival before that gap */
	BMGEN_STATS_LAT_COUNT,		/* u64 */
	/*
	 * s64; u64 in modules that send no LAT_BELOW_ZERO, the same bits
	 * on one host's clock.  Across hosts a latency is below zero when
	 * the receiver's clock is behind the sender's by more than the path
	 */
	BMGEN_STATS_LAT_MIN_NS,
	BMGEN_STATS_LAT_MAX_NS,		/* s64 */
	BMGEN_STATS_LAT_SUM_NS,		/* s64 */
	BMGEN_STATS_LAT_SUMSQ_HI,	/* u64: sum of squares (ns^2), 128 bit */
	BMGEN_STATS_LAT_SUMSQ_LO,	/* u64 */
	BMGEN_STATS_IPDV_COUNT,		/* u64: consecutive pairs (RFC 3393) */
	BMGEN_STATS_IPDV_MIN_NS,	/* s64 */
	BMGEN_STATS_IPDV_MAX_NS,	/* s64 */
	BMGEN_STATS_IPDV_SUM_NS,	/* s64 */
	BMGEN_STATS_TAG_LAT_NS,		/* s64 as LAT_MIN_NS: latency of the
					 * tagged frame; TAG_SEEN says
					 * whether it arrived
					 */
	BMGEN_STATS_RX_CPU_SPLIT,	/* u64: frames seen on a second CPU */
	BMGEN_STATS_PAD,
	/* ABI v1, appended: the generator's own account of its schedule */
	BMGEN_STATS_TX_LATE_FRAMES,	/* u64: paced frames that left more than
					 * one interval after their departure
					 */
	BMGEN_STATS_TX_LATE_MAX_NS,	/* u64: largest departure lateness */
	BMGEN_STATS_TX_MAX_BATCH,	/* u32: most frames sent back to back
					 * in one xmit_more batch (REQ-GEN-3
					 * pacing granularity)
					 */
	BMGEN_STATS_TS_CLOCK,		/* u32: clockid of the timestamps:
					 * CLOCK_MONOTONIC for sw; both ends
					 * of a latency use the same clock
					 */
	/* appended for RFC 7640 (SPEC REQ-RX-5, TM-MET-SBB/SBI) */
	BMGEN_STATS_RX_DSCP,		/* binary: __u64[64] frames by DSCP */
	BMGEN_STATS_RX_PCP,		/* binary: __u64[8] tagged frames by
					 * VLAN PCP
					 */
	BMGEN_STATS_RX_UNTAGGED,	/* u64: frames without a VLAN tag */
	BMGEN_STATS_LOG_TX,		/* u64: tx log records (frames sent
					 * with seq < LOG_FRAMES)
					 */
	BMGEN_STATS_LOG_RX,		/* u64: rx log records */
	/* hardware timestamps (SPEC PLAT-TS): missed = REQUESTS - STAMPS */
	BMGEN_STATS_HW_TX_REQUESTS,	/* u64: frames sent asking for a
					 * hardware tx stamp
					 */
	BMGEN_STATS_HW_TX_STAMPS,	/* u64: hardware tx stamps received */
	BMGEN_STATS_HW_RX_STAMPS,	/* u64: frames that arrived with a
					 * hardware stamp
					 */
	BMGEN_STATS_HW_LAT_COUNT,	/* u64: frames with both stamps */
	BMGEN_STATS_HW_LAT_MIN_NS,	/* s64: their latency, from the two
					 * PHCs via PORT_PHC_OFFSET_NS
					 */
	BMGEN_STATS_HW_LAT_MAX_NS,	/* s64 */
	BMGEN_STATS_HW_LAT_SUM_NS,	/* s64 */
	BMGEN_STATS_HW_LAT_SW_SUM_NS,	/* s64: the software latency of the
					 * same frames, to compare
					 */
	BMGEN_STATS_TX_STALLS_NS,	/* binary: __u64[BMGEN_TX_STALLS], the
					 * trial's largest stalls, largest
					 * first, 0 = none: the rise of a
					 * paced frame's lateness over its
					 * predecessor's (one gap), where the
					 * frame left more than one interval
					 * late
					 */
	BMGEN_STATS_TX_PATH,		/* u32: enum bmgen_tx_path the trial
					 * used (never AUTO)
					 */
	BMGEN_STATS_TX_RING_MISSES,	/* u64, TX_PATH RECYCLE: frames that
					 * needed a new skb because the ring's
					 * next ones were still with the driver
					 */
	/*
	 * u64, bursts with BURST_DUE_UFPS: the largest lateness of a
	 * burst's frame against that schedule; above the host's jitter, a
	 * gap wider than the minimum left inside a burst
	 */
	BMGEN_STATS_TX_BURST_LATE_MAX_NS,
	BMGEN_STATS_RX_LATE,		/* u64: test frames that arrived after
					 * CMD_RX_CLOSE; they count nowhere
					 * else and stay lost (REQ-RX-3)
					 */
	BMGEN_STATS_LAT_BELOW_ZERO,	/* u64: of LAT_COUNT, latencies below
					 * zero (across hosts only); the
					 * histogram counts them in bucket 0
					 */
	BMGEN_STATS_TAG_SEEN,		/* u8: 1 when the tagged frame arrived
					 * (TAG_LAT_NS may be 0 or less)
					 */
	__BMGEN_STATS_MAX
};
#define BMGEN_STATS_MAX (__BMGEN_STATS_MAX - 1)

enum bmgen_log_dir {
	BMGEN_LOG_TX,
	BMGEN_LOG_RX,
	BMGEN_LOG_HW,		/* struct bmgen_log_hw[] (STREAM_HW_LOG) */
};

/* One received frame of a stream's log (BMGEN_LOG_RX), host byte order. */
struct bmgen_log_rx {
	__u64 seq;
	__u64 tx_ns;		/* rel. to the trial epoch, from the TPLD */
	__u64 rx_ns;		/* rel. to the trial epoch; s64 bits:
				 * below zero when the frame came before
				 * this host's epoch (across hosts)
				 */
	__u32 len;		/* F as received, with FCS */
	__u8 dscp;
	__u8 pcp;
	__u8 flags;		/* BMGEN_LOG_F_* */
	__u8 reserved;
};
#define BMGEN_LOG_F_TAGGED	0x1	/* arrived with a VLAN tag */
#define BMGEN_LOG_F_TS		0x2	/* tx_ns valid */

/*
 * One hardware stamp of a stream's half (BMGEN_LOG_HW), in the order they
 * came, host byte order: the NIC's stamp less the port's PHC offset
 * (PORT_PHC_OFFSET_NS), rel. to the trial epoch, so a tx record of one
 * host and the rx record of the same seq on another give the frame's
 * one-way latency, off by the two hosts' sync error.
 */
struct bmgen_log_hw {
	__u64 seq;
	__s64 ns;
	__s64 sw_lat_ns;	/* rx: the frame's software latency; tx: 0 */
	__u32 flags;		/* BMGEN_LOG_HW_F_* */
	__u32 reserved;
};
#define BMGEN_LOG_HW_F_RX	0x1	/* an rx stamp; a tx stamp if clear */

/*
 * The latency histogram is log-linear: 2^BMGEN_HIST_SUB_BITS buckets per
 * power of two, so each bucket's width is at most 1/128 (0.78 %) of its
 * lower bound from BMGEN_HIST_MIN_NS up (SPEC REQ-STAT-2).  Bucket 0 holds
 * everything below BMGEN_HIST_MIN_NS, the last everything above the range.
 */
#define BMGEN_HIST_SUB_BITS	7
#define BMGEN_HIST_MIN_SHIFT	6	/* 64 ns */
#define BMGEN_HIST_MAX_SHIFT	35	/* 34.4 s */
#define BMGEN_HIST_MIN_NS	(1ULL << BMGEN_HIST_MIN_SHIFT)
#define BMGEN_HIST_BUCKETS \
	(((BMGEN_HIST_MAX_SHIFT - BMGEN_HIST_MIN_SHIFT) << BMGEN_HIST_SUB_BITS) + 2)

struct bmgen_hist_bucket {
	__u32 index;
	__u32 reserved;
	__u64 count;
};

/* Bucket index of a latency in ns (module and userspace share it). */
static inline __u32 bmgen_hist_index(__u64 ns)
{
	__u32 msb, sub;

	if (ns < BMGEN_HIST_MIN_NS)
		return 0;
	msb = 63 - __builtin_clzll(ns);
	if (msb >= BMGEN_HIST_MAX_SHIFT)
		return BMGEN_HIST_BUCKETS - 1;
	/* an octave narrower than its buckets (64-127 ns: 64 values in 128
	 * buckets) uses every other one
	 */
	sub = (__u32)(msb >= BMGEN_HIST_SUB_BITS ?
		      ns >> (msb - BMGEN_HIST_SUB_BITS) :
		      ns << (BMGEN_HIST_SUB_BITS - msb)) &
	      ((1U << BMGEN_HIST_SUB_BITS) - 1);
	return 1 + ((msb - BMGEN_HIST_MIN_SHIFT) << BMGEN_HIST_SUB_BITS) + sub;
}

/* Lowest latency in ns that falls into bucket index. */
static inline __u64 bmgen_hist_lower_ns(__u32 index)
{
	__u32 shift, sub;
	__u64 base;

	if (index == 0)
		return 0;
	if (index >= BMGEN_HIST_BUCKETS - 1)
		return 1ULL << BMGEN_HIST_MAX_SHIFT;
	shift = ((index - 1) >> BMGEN_HIST_SUB_BITS) + BMGEN_HIST_MIN_SHIFT;
	sub = (index - 1) & ((1U << BMGEN_HIST_SUB_BITS) - 1);
	base = (1ULL << BMGEN_HIST_SUB_BITS) + sub;
	return shift >= BMGEN_HIST_SUB_BITS ?
	       base << (shift - BMGEN_HIST_SUB_BITS) :
	       base >> (BMGEN_HIST_SUB_BITS - shift);
}

#endif /* _UAPI_LINUX_BMGEN_H */

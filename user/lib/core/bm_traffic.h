/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A trial for N ports: a set of ports, each with its line rate and its
 * host, and a set of streams, each from one port to another with its own
 * frame template, size, load, pattern and start offset; the results per
 * stream (RFC 8238 §2's four events, latency, delay variation) and per
 * port.  Builders make the standards' topologies (REQ-TOPO-1):
 * port pair, bidirectional, multiport and full mesh (RFC 2544 §16,
 * RFC 2889), snake (R8239-LR-SNAKE), many-to-one, one-to-many, N-j -> j
 * (R8239-BUF-4, -MB, AMB-31) and the groups of four of R8239-HOLB.
 *
 * Every trial is this traffic: a struct bm_trial_spec whose traffic is
 * set runs it, and bm_run_trial() builds a pair load's
 * (bm_traffic_of_pair) before a backend sees the trial.
 */
#ifndef BM_TRAFFIC_H
#define BM_TRAFFIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bm_rip.h"
#include "bm_trial.h"

#define BM_TRAFFIC_MAX_PORTS	256
/* 64-port full mesh = 4032 streams; the module's table holds 8191. */
#define BM_TRAFFIC_MAX_STREAMS	8191
#define BM_TRAFFIC_MAX_IMIX	64
/* Frames a stream's per-frame log may hold, each direction (the module's
 * BMGEN_MAX_LOG_FRAMES). */
#define BM_TRAFFIC_MAX_LOG	(1U << 20)

/*
 * One tester port.  host names the tester host whose bmd owns the port
 * (several bmd hosts as one port pool, start times aligned by PTP); ""
 * is the host that runs the trial (bm_hosts.h: a pool gives each host
 * the trial and its name).
 */
struct bm_port_spec {
	char host[64];
	char name[32];			/* interface name on that host */
	double line_rate_bps;		/* R_line of this port */
	uint8_t ip4[4];			/* the port's address (router DUTs) */
	uint8_t ip6[16];
	bool have_ip6;
	/* Its MAC address, when known: where another host's sending half
	 * addresses this port's frames through a bridge DUT (a pool learns
	 * it from the port's bmd). */
	uint8_t mac[6];
	bool have_mac;
};

enum bm_load_unit {
	BM_LOAD_PCT = 0,		/* % of the tx port's line rate, L1 */
	BM_LOAD_FPS,			/* frames per second */
};

enum bm_stream_pattern {
	BM_STREAM_CBR = 0,		/* load from start_s to the trial end */
	BM_STREAM_COUNT,		/* count frames at load, from start_s */
	BM_STREAM_BURSTS,		/* burst_count bursts of burst_len
					 * frames back to back at line rate,
					 * one every burst_period_s */
};

/* What a stream's frames carry; zero fields take the defaults noted. */
struct bm_frame_template {
	bool have_dst_mac;		/* else: the rx port's MAC (bridge
					 * DUT) or the DUT's, resolved from
					 * the neighbour table (router DUT) */
	uint8_t dst_mac[6];
	int vlan_id;			/* -1 = untagged */
	uint8_t pcp;			/* 0..7, with a VLAN tag */
	uint8_t ip_version;		/* 4 (0 = 4) or 6 */
	uint8_t src_ip[16], dst_ip[16];	/* all zero: the ports' addresses;
					 * IPv4 in the first four bytes */
	uint8_t dscp;			/* 0..63 */
	uint16_t udp_src, udp_dst;	/* 0: 49184 and 7 (RFC 2544 C.2.6.4) */
	/* RFC 7640 encapsulations (REQ-TM-5): the outer tag's TPID (0 =
	 * 0x8100; 0x88a8 for 802.1ad), an inner 802.1Q tag (QinQ) under
	 * the vlan_id tag, and 0..2 MPLS label stack entries (label << 12 |
	 * TC << 9 | TTL; bottom of stack is set on the last) before IP. */
	uint16_t tpid;
	bool have_vlan2;
	uint16_t vlan2_id;
	uint8_t pcp2;
	uint8_t n_mpls;
	uint32_t mpls[2];
	/* RFC 2544 §12 random destinations (R2544-ADDR): dst_networks > 1
	 * sends frame seq to IPv4 dst_ip + k * 256, k =
	 * bmgen_flow_pick(dst_seed, seq, dst_networks) (linux/bmgen.h) */
	uint32_t dst_networks;
	uint64_t dst_seed;
	/* the same for a bridge (AMB-06): dst_macs > 1 sends frame seq to
	 * bmgen_flow_mac(mac_seed, k), k = bmgen_flow_pick(dst_seed, seq,
	 * dst_macs); the receiving port first sends learning frames from
	 * every MAC of the set */
	uint32_t dst_macs;
	uint64_t mac_seed;
};

struct bm_stream_spec {
	uint16_t tx_port, rx_port;	/* indexes into bm_traffic.ports */
	struct bm_frame_template frame;
	uint32_t frame_size;		/* 0 = the trial's frame size */
	bool imix;			/* cycle bm_traffic.imix instead */
	double load;			/* in load_unit */
	enum bm_load_unit load_unit;
	enum bm_stream_pattern pattern;
	uint64_t count;			/* BM_STREAM_COUNT */
	uint32_t burst_len;		/* BM_STREAM_BURSTS */
	uint32_t burst_count;
	double burst_period_s;		/* start to start */
	double start_s;			/* offset from the trial start:
					 * bursts of several ports start with
					 * a chosen synchronisation (RFC 8238
					 * §6.2) */
	/* RFC 2544 §26.2 "addressed to a new destination network": the
	 * tagged frame goes to this IPv4 address; 0.0.0.0 = the stream's */
	uint8_t tag_dst_ip4[4];
	int64_t tag_seq;		/* >= 0: that frame carries the RFC
					 * 2544 §26.2 latency tag; -1 none */
	double phase;			/* CBR and COUNT: a further delay of
					 * phase (0 <= phase < 1) of its own
					 * frame interval; the builders give
					 * a port's k-th of n streams k/n, so
					 * that the port's frames go round
					 * robin over its destinations (RFC
					 * 2544 §16, REQ-GEN-2 mode 6) */
	/* BM_STREAM_BURSTS: the size of each burst's last frame, so that a
	 * burst carries an exact number of bytes (REQ-GEN-2.4, TM-CAP-SL:
	 * 64,000 B = 42 x 1518 + 244); 0 = the stream's frame size.  Not
	 * with imix. */
	uint32_t burst_last_size;
	/* Log the first log_frames frames the stream sends (their tx times)
	 * and receives (struct bm_frame_rec): what MODEL-TB needs as its
	 * actual tx times and TM-MET-SBB/SBI as arrival times; 0 = none,
	 * at most BM_TRAFFIC_MAX_LOG. */
	uint32_t log_frames;
};

/*
 * RFC 2544 §11.2 management queries (R2544-MOD, C.2.4.3, AMB-24): during
 * the trial, port sends an SNMPv1 GetRequest (bm_snmp.h) for C.2.4.3's
 * variables of interface ifindex to agent_ip4:161 at 0, interval_s,
 * 2 interval_s, ... before the trial's end, from the port's address, and
 * checks the GetResponses; the counts go to the trial result.
 */
struct bm_mgmt_spec {
	uint8_t agent_ip4[4];
	char community[64];
	uint32_t ifindex;
	unsigned int port;
	double interval_s;
};

/*
 * RIP v1 routing updates (bm_rip.h; RFC 2544 §13 route set-up, §11.3
 * routing update frames, C.2.3): each message leaves its port from the
 * port's phantom router (.10 of the port's /24) as C.2.6.2's frame.
 * Messages with at_s < 0 go before the trial, all at once, and the trial
 * starts no sooner than -at_s of the earliest later (§23a: T0 - 7 s);
 * then each repeats every every_s (0 = never) after that send while the
 * trial runs.  Messages with at_s >= 0 leave at_s into the trial, then
 * every every_s until its end.
 */
#define BM_TRAFFIC_MAX_RIP	BM_TRIAL_MAX_RIP

struct bm_rip_msg {
	unsigned int port;
	double at_s, every_s;
	unsigned int n;
	struct bm_rip_route routes[BM_RIP_MAX_ENTRIES];
};

/* The sends of message m in a trial of duration_s after its start (its
 * pre-trial send not counted; for at_s < 0, lead_s is the time from that
 * send to the trial start). */
unsigned int bm_rip_sends(const struct bm_rip_msg *m, double lead_s,
			  double duration_s);

struct bm_traffic {
	unsigned int n_ports;
	struct bm_port_spec ports[BM_TRAFFIC_MAX_PORTS];
	unsigned int n_streams, cap_streams;
	struct bm_stream_spec *streams;	/* owned; bm_traffic_free() */
	unsigned int n_imix;
	uint32_t imix[BM_TRAFFIC_MAX_IMIX];
	bool have_mgmt;			/* mgmt's queries go with the trial */
	struct bm_mgmt_spec mgmt;
	unsigned int n_rip;		/* routing updates with the trial */
	struct bm_rip_msg rip[BM_TRAFFIC_MAX_RIP];
	/* Streams may ask more frames per second than their port's line
	 * carries (a search's probe above it): the generator sends what it
	 * can and reports the rest as its shortfall (REQ-GEN-6). */
	bool overload_ok;
};

/* The queries m makes in a trial of duration_s: one at each multiple of
 * the interval before the end. */
unsigned int bm_mgmt_queries(const struct bm_mgmt_spec *m, double duration_s);

/* A trial result's mgmt_error when nothing else went wrong but queries
 * went unanswered: "N of M queries unanswered". */
void bm_mgmt_note_unanswered(struct bm_trial_result *res);

/* One received frame of a stream's log, in arrival order. */
struct bm_frame_rec {
	uint64_t seq;
	double tx_s, rx_s;		/* from the trial start */
	uint32_t size;			/* F as received (with FCS) */
	uint8_t dscp;			/* as received: re-marked or not */
	uint8_t pcp;			/* 0 when untagged */
	bool tagged;			/* arrived with a VLAN tag */
};

/* One hardware stamp of a stream's half on one host of a pool, for
 * pairing with the other half's on another: ns from the trial's epoch by
 * that host's clock (the NIC's stamp less its PHC's offset). */
struct bm_hw_stamp {
	uint64_t seq;
	int64_t ns;
	int64_t sw_lat_ns;	/* rx stamps: the frame's software latency */
};
#define BM_TRAFFIC_MAX_HW_LOG	4096u	/* a stream's hw_log at most */

/* Per stream (REQ-TRIAL-3, RFC 8238 §2); times in s from the trial start,
 * negative when the event did not happen (nothing sent or received). */
struct bm_stream_result {
	uint64_t intended, sent, received, lost, reordered, duplicated;
	/* Bytes sent and received (F with FCS, all frames incl. duplicates
	 * on rx) as the generator and receiver counted them. */
	uint64_t tx_bytes, rx_bytes;
	/* Received frames by DSCP and by VLAN PCP (REQ-RX-5: re-marked,
	 * yellow, frames told from green ones); rx_untagged counts frames
	 * that arrived without a VLAN tag, not in rx_pcp. */
	uint64_t rx_dscp[64], rx_pcp[8], rx_untagged;
	/* The generator's largest lateness for this stream: frames of paced
	 * streams, burst starts of bursts (s; 0 = on time or unknown). */
	double tx_late_max_s;
	/* Bursts: how far a frame left behind back to back at the line
	 * from its burst's first (s, RFC 2544 §26.4 minimum gap); 0 = on
	 * time or not measured. */
	double tx_burst_late_max_s;
	/* The generator's largest stalls for this stream (s, largest first,
	 * 0 = none): the lateness a paced frame gained over its predecessor
	 * where it left more than one interval late. */
	double tx_stalls_s[BM_TX_STALLS];
	/* The per-frame log (spec log_frames): tx_log_s[i] is the tx time
	 * of frame seq i, i < n_tx_log; rx_log the first n_rx_log frames
	 * received.  Owned; bm_traffic_result_free() frees them. */
	size_t n_tx_log, n_rx_log;
	double *tx_log_s;
	struct bm_frame_rec *rx_log;
	/* A half of a stream across a pool's hosts with NIC stamps: the
	 * sender's tx stamps or the receiver's rx stamps, n_hw_log of them
	 * in the order they came; the pool pairs them.  Owned likewise. */
	size_t n_hw_log;
	struct bm_hw_stamp *hw_log;
	double first_tx_s, last_tx_s, first_rx_s, last_rx_s;
	struct bm_latency latency;	/* valid when latency.count > 0 */
	/* IPDV (RFC 5481 §4.1, RFC 3393): D_i - D_(i-1) of each frame
	 * received right after the frame of the sequence number before it,
	 * signed (never an absolute value, RFC 8238 §3.2): ipdv_count such
	 * pairs, their least, mean and largest (ns); NAN with none. */
	uint64_t ipdv_count;
	double ipdv_min_ns, ipdv_mean_ns, ipdv_max_ns;
	double pdv_ns;			/* max - min latency (RFC 5481 PDV) */
};

/* Per port: what its streams sent from it and what arrived on it. */
struct bm_port_result {
	uint64_t tx_frames, rx_frames;	/* test frames only */
	uint64_t tx_bytes, rx_bytes;	/* frame bytes with FCS */
	uint64_t lost;			/* lost frames of streams into it */
	double tx_load_pct, rx_load_pct;	/* L1, over the trial span */
};

struct bm_traffic_result {
	unsigned int n_ports, n_streams;
	struct bm_port_result *ports;
	struct bm_stream_result *streams;
};

/*
 * The traffic of a pair trial (spec's pattern, topology, rate, burst,
 * step and tag; its frame size is the trial's) over be's first two ports
 * (tx, rx; "tx", "rx" for a backend without a port list): a counted
 * stream 0 -> 1 at the rate (the tagged frame its frame nearest
 * tag_at_s) or one burst, then the reverse stream (bidirectional) or
 * the post-step stream from duration_s (R2544-RECOV).  0, or -EINVAL /
 * -ENOMEM with err set and *t empty.
 */
int bm_traffic_of_pair(const struct bm_trial_spec *spec,
		       const struct bm_backend *be, struct bm_traffic *t,
		       struct bm_error *err);

/* Zero *t: no ports, no streams. */
void bm_traffic_init(struct bm_traffic *t);
/* Release the streams of t and zero it. */
void bm_traffic_free(struct bm_traffic *t);

/*
 * Append a local port name with line rate and its default addresses
 * (bm_port_default_ip4); its index, or -EINVAL (bad name, rate, or
 * BM_TRAFFIC_MAX_PORTS reached) with err set.
 */
int bm_traffic_add_port(struct bm_traffic *t, const char *name,
			double line_rate_bps, struct bm_error *err);

/*
 * The default IPv4 address of port i (RFC 2544 App C.2.6.2): the ports of
 * pair n (i = 2n, 2n+1) are 198.18.(n+1).2 and 198.19.(n+1).2; from pair
 * 254 on (beyond BM_TRAFFIC_MAX_PORTS) n wraps modulo 254.
 */
void bm_port_default_ip4(unsigned int i, uint8_t ip4[4]);

/* Is a (network order) in a benchmarking network: IPv4 198.18.0.0/15
 * (RFC 2544 App. C, RFC 6890), IPv6 2001:2::/48 (RFC 5180 §5)?  The one
 * test of REQ-ADDR-1 and of bmd's port policy. */
bool bm_addr4_benchmark(const uint8_t a[4]);
bool bm_addr6_benchmark(const uint8_t a[16]);

/* Fill *s with a CBR stream from port tx to rx at load % of line rate. */
void bm_stream_init(struct bm_stream_spec *s, unsigned int tx, unsigned int rx,
		    double load_pct);

/* Append a copy of *s; its index, or -ENOMEM / -E2BIG with err set. */
int bm_traffic_add_stream(struct bm_traffic *t, const struct bm_stream_spec *s,
			  struct bm_error *err);

/*
 * Check t against trial frame size F (0 = every stream names its own):
 * port and stream limits, port indexes, tx != rx, loads within the tx
 * port's line rate (the sum per tx port too, beyond 100 % refused), sizes
 * 64..9216, VLAN 0..4094, PCP 0..7, DSCP 0..63, patterns.  0 or -EINVAL
 * with one line naming the stream or port.
 */
int bm_traffic_check(const struct bm_traffic *t, uint32_t frame_size,
		     struct bm_error *err);

/* When stream s's first frame is due, s from the trial start: start_s,
 * plus phase of its frame interval for CBR and COUNT streams. */
double bm_stream_start_s(const struct bm_traffic *t,
			 const struct bm_stream_spec *s, uint32_t frame_size);

/* What t offers at trial frame size F: its busiest sending port's frames
 * per second (every stream of the port, bursts at their load) into *fps,
 * and the largest share of a port's line rate any port sends into
 * *pct_line (L1, %; 0 when no port has a line rate). */
void bm_traffic_offered(const struct bm_traffic *t, uint32_t frame_size,
			double *fps, double *pct_line);

/* Record in r what its N-port trial offered (bm_traffic_offered of
 * r->spec.traffic), while that traffic still exists: a logged record
 * keeps no traffic of its own.  Nothing for a pair trial. */
void bm_trial_record_offered(struct bm_trial_record *r);

/* Frames per second of stream s in t for trial frame size F (an imix
 * stream at its table's mean size); 0 when it has no port or size. */
double bm_stream_fps(const struct bm_traffic *t, const struct bm_stream_spec *s,
		     uint32_t frame_size);

/*
 * Topology builders (REQ-TOPO-1).  Each adds streams over the ports
 * already in t, leaves the ports alone, and returns the number of streams
 * added or -errno with err set.  load_pct is the load every sending port
 * offers in total, split evenly over its streams.
 */
/* a -> b, and b -> a when bidir (RFC 2544 §14). */
int bm_topo_pair(struct bm_traffic *t, unsigned int a, unsigned int b,
		 bool bidir, double load_pct, struct bm_error *err);
/* Every port to each of the N-1 others (RFC 2544 §16, RFC 2889): N(N-1)
 * streams, port i's to i+1, i+2, ... mod N in that order.  All start at 0:
 * a frame time needs the frame size, which the builder does not know, so
 * interleaving a port's frames round-robin over its destinations is the
 * backend's job. */
int bm_topo_mesh(struct bm_traffic *t, double load_pct, struct bm_error *err);
/* The first half of the ports send, the second half receive; every input
 * goes round-robin over all outputs in the same order (RFC 2544 §16). */
int bm_topo_multiport(struct bm_traffic *t, double load_pct,
		      struct bm_error *err);
/* Ports in[0..n_in-1] each to port out (R8239-BUF many-to-one). */
int bm_topo_many_to_one(struct bm_traffic *t, const unsigned int *in,
			unsigned int n_in, unsigned int out, double load_pct,
			struct bm_error *err);
/* Port in to each of out[0..n_out-1]. */
int bm_topo_one_to_many(struct bm_traffic *t, unsigned int in,
			const unsigned int *out, unsigned int n_out,
			double load_pct, struct bm_error *err);
/* Iteration j of R8239-BUF-4 / -MB: ports 0..N-j-1 send, round-robin over
 * the j egress ports N-j..N-1 (AMB-31); 1 <= j <= N-2. */
int bm_topo_n_minus_j(struct bm_traffic *t, unsigned int j, double load_pct,
		      struct bm_error *err);
/*
 * R8239-HOLB-1/2 variant 2a, shift s: groups g = 0 .. n_groups-1 of four
 * ports (A, B, E1, E2) = (4g+s, 4g+1+s, 4g+2+s, 4g+3+s) mod N (0-based),
 * each with A->E1 and A->E2 at a_pct, B->E2 at b_pct.  n_groups = 0 takes
 * floor(N/4).  Streams come in group order, A->E1 first.
 */
int bm_topo_holb(struct bm_traffic *t, unsigned int n_groups, unsigned int s,
		 double a_pct, double b_pct, struct bm_error *err);
/*
 * Snake (R8239-LR-SNAKE): the tester's port 0 feeds DUT port 1 and port 1
 * takes DUT port n_dut_ports (even, >= 4) back; one stream 0 -> 1, and
 * 1 -> 0 when bidir.
 */
int bm_topo_snake(struct bm_traffic *t, unsigned int n_dut_ports, bool bidir,
		  double load_pct, struct bm_error *err);
/*
 * The DUT plan a snake needs (REQ-8239-3), one line each: the cabling
 * 2<->3, 4<->5, ... and VLAN vlan_base + k on DUT ports {2k+1, 2k+2}.
 * Writes at most len bytes (NUL-terminated) and returns the length it
 * needed, or -EINVAL (n_dut_ports odd or < 4, or a VLAN outside 1..4094).
 */
int bm_snake_plan(unsigned int n_dut_ports, unsigned int vlan_base,
		  char *buf, size_t len);

/* Allocate results for t (zeroed, times set to -1); NULL on ENOMEM. */
struct bm_traffic_result *bm_traffic_result_new(const struct bm_traffic *t);
void bm_traffic_result_free(struct bm_traffic_result *r);

/* Free the logs of x (frame logs, hardware stamps) and leave it none. */
void bm_stream_result_free_logs(struct bm_stream_result *x);

/* Set s's IPDV from count pairs, their least, largest and sum (ns). */
void bm_ipdv_set(struct bm_stream_result *s, uint64_t count, double min_ns,
		 double max_ns, double sum_ns);

/* The IPDV of all r's streams: pairs, least, mean, largest (NAN with
 * none).  Each pair is of one stream: IPDV never spans two streams. */
void bm_ipdv_fold(const struct bm_traffic_result *r, uint64_t *count,
		  double *min_ns, double *mean_ns, double *max_ns);
/*
 * From r's per-stream results fill its per-port results (tx from the
 * stream's tx port, rx and lost to its rx port, loads over span_s) and
 * the trial totals in *sum (counts, earliest/latest events, latency of
 * all streams together).  Backends call it after filling the streams.
 * Port bytes are the streams' tx_bytes / rx_bytes where the backend
 * counted them, else estimated (imix from the table's mean size).  In
 * *sum it sets only intended, attempted, received, lost, duplicate,
 * reordered, first_rx_s and last_rx_s (-1 when nothing arrived),
 * actual_duration_s (0 when nothing was sent) and latency: count, min,
 * max, mean and the pooled sample stddev; the percentiles only when a
 * single stream has samples, else 0 for the backend to fill from a merged
 * histogram.
 */
void bm_traffic_result_sum(const struct bm_traffic *t, uint32_t frame_size,
			   struct bm_traffic_result *r, double span_s,
			   struct bm_trial_result *sum);

#endif /* BM_TRAFFIC_H */

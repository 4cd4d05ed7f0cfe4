/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The trial backend interface (SPEC PLAT-SEARCH REQ-SRCH-1, PLAT-TRIAL).
 *
 * Every procedure and every search in libbm runs trials only through this
 * interface, so that the same code drives the kernel module (bm_backend_genl)
 * and the simulated device (bm_sim) used by unit tests and --dry-run.
 * Procedures never see netlink.
 */
#ifndef BM_TRIAL_H
#define BM_TRIAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Traffic pattern of one trial (REQ-GEN-2). */
enum bm_pattern {
	BM_PAT_RATE = 0,	/* CBR at rate_fps for duration_s */
	BM_PAT_BURST,		/* burst_frames back to back at line rate, then
				 * wait until duration_s has elapsed */
	BM_PAT_STEP,		/* rate_fps for duration_s, then step_rate_fps
				 * for step_duration_s (R2544-RECOV) */
};

enum bm_topology {
	BM_TOPO_PAIR_UNI = 0,	/* port a -> port b */
	BM_TOPO_PAIR_BIDIR,	/* a <-> b, rate_fps in each direction */
	/* RFC 2544 §16 over all of a job's ports, rate_fps from each
	 * sending port: the first half to the second half, each input
	 * round-robin over the outputs in the same order (R2544-MULTI);
	 * every port to all others (mesh).  Only as N-port traffic that a
	 * procedure builds (spec.traffic): a backend never sees them
	 * without. */
	BM_TOPO_MULTIPORT,
	BM_TOPO_MESH,
};

/* The names of enum bm_topology, in its order, NULL-terminated (a
 * parameter table's enum names). */
extern const char *const bm_topology_names[];

/* "pair-uni", "pair-bidir", "multiport", "mesh". */
const char *bm_topology_name(enum bm_topology t);

struct bm_traffic;
struct bm_traffic_result;

/*
 * A pair trial in short: a constant load between the job's first two
 * ports (RFC 2544 §14's pair topologies), what most procedures and every
 * search ask.  bm_run_trial() turns it into the traffic every backend
 * runs (bm_traffic_of_pair: one model of a trial, not two that must
 * agree); no backend reads it.  A trial record keeps it as what was
 * asked.  All rates are per direction.
 */
struct bm_pair_load {
	enum bm_pattern pattern;
	enum bm_topology topology;
	double rate_fps;		/* intended offered load, frames/s */
	uint64_t burst_frames;		/* BM_PAT_BURST: frames in the burst */
	double step_rate_fps;		/* BM_PAT_STEP: rate after the step */
	double step_duration_s;		/* BM_PAT_STEP: time after the step */
	/* R2544-LAT: tag the frame due nearest tag_at_s (flags.bit0) and
	 * report its latency in the result. */
	bool tag;
	double tag_at_s;
	/* §26.2's other run: the tagged frame to this IPv4 address (a new
	 * destination network); 0.0.0.0 = the stream's destination */
	uint8_t tag_dst_ip4[4];
};

/* RFC 2544 §23b: the wait after the learning frames when a spec's
 * learning_pause_s is < 0 (s). */
#define BM_LEARNING_PAUSE_S	2.0

/* What the caller asks of one trial: its load (traffic when set, else
 * the pair load) and how it is run. */
struct bm_trial_spec {
	struct bm_pair_load pair;
	uint32_t frame_size;		/* F in bytes, with FCS (SPEC 2.1) */
	double duration_s;		/* trial duration, s */
	bool latency;			/* measure latency on every frame */
	/* The frames cross no DUT (a loopback: R8238-CAL), so they may be
	 * shaped as a port's PTP-only rx filter needs to stamp them; no
	 * effect without hardware stamping. */
	bool ptp_shape_ok;
	bool learning;			/* send learning frames first (§23b) */
	double learning_pause_s;	/* then wait this long; < 0 = the
					 * RFC's 2 s */
	double drain_s;			/* loss wait threshold after the run
					 * (REQ-TRIAL-1 step 4); <0 = default */
	/* Added for R2544-RESET: when event_fn is set the backend calls
	 * event_fn(event_ctx) once, event_at_s after the run started, while
	 * traffic keeps flowing (the DUT reset hook). */
	double event_at_s;
	int (*event_fn)(void *ctx);
	void *event_ctx;
	/* A port's link may go down in this trial and the trial still
	 * counts (R2544-RESET: on real hardware a DUT reset takes the
	 * tester's links down). */
	bool link_down_ok;
	/* N ports (bm_traffic.h): when traffic is set the trial
	 * runs its streams for duration_s and the pair load is only what a
	 * record shows; frame_size is the size of streams that name none.  The backend fills traffic_res (from
	 * bm_traffic_result_new(traffic), owned by the caller) when set,
	 * and the totals in struct bm_trial_result always. */
	const struct bm_traffic *traffic;
	struct bm_traffic_result *traffic_res;
	/* The generator measuring itself (REQ-GEN-6, bmgen.calibrate): the
	 * transmit path every stream asks for ("auto", "alloc", "recycle",
	 * "xdp"; NULL = the backend's) and the kthreads a stream may use
	 * (0 = the backend's choice); a backend without either ignores
	 * them, and the record says what the trial got. */
	const char *tx_path;
	unsigned int tx_kthreads;
	/* A trial over the ports of several tester hosts (bm_hosts.h):
	 * run host's halves of traffic's streams only, the ports of other
	 * hosts untouched, and report them in traffic_res (which must be
	 * set); NULL = every port is this host's.  start_tai_ns > 0 starts
	 * the trial at that CLOCK_TAI instant, the one instant of every
	 * host's part (0 = now). */
	const char *host;
	int64_t start_tai_ns;
	/* A host's part: refuse to start when its clock is more than this
	 * off the pool's grandmaster by linuxptp (ns; 0 = no limit). */
	double sync_tolerance_ns;
	/* ... or when its kernel's TAI-UTC offset (bm_tai_utc_s) is not
	 * this, the coordinating host's: linuxptp keeps the hosts' UTC
	 * clocks together, and start_tai_ns on a kernel whose offset
	 * differs is that many seconds away. */
	int tai_utc_s;
};

/*
 * The latency histogram a report shows (RFC 8239 §2.3 item 8, RFC 8238
 * §3.1 "a PDV histogram MAY be provided"): log-linear, 4 buckets per
 * octave from 64 ns to 2^35 ns (34 s); bucket 0 holds everything below,
 * the last everything above.  Coarser than the backends' own (their
 * percentiles stay within 1 %); the same octave edges, so that a finer
 * bucket falls into one of these whole.
 */
#define BM_LAT_HIST_SUB_BITS	2
#define BM_LAT_HIST_MIN_SHIFT	6
#define BM_LAT_HIST_MAX_SHIFT	35
#define BM_LAT_HIST_BUCKETS \
	(((BM_LAT_HIST_MAX_SHIFT - BM_LAT_HIST_MIN_SHIFT) << \
	  BM_LAT_HIST_SUB_BITS) + 2)

/* Latency summary of one trial in ns (REQ-STAT-2). */
struct bm_latency {
	uint64_t count;
	/* Of count, the latencies below zero: across hosts, where the
	 * receiver's clock was behind the sender's by more than the path
	 * (the values stay as measured, within the sync error); 0 on one
	 * host's clock. */
	uint64_t below_zero;
	double min_ns, mean_ns, max_ns, stddev_ns;
	double p50_ns, p90_ns, p99_ns, p999_ns;
};

/* Routing update messages a trial may send (bm_traffic.h). */
#define BM_TRIAL_MAX_RIP	16
/* The generator stalls a trial keeps: the module's BMGEN_TX_STALLS. */
#define BM_TX_STALLS		8
/*
 * A burst's frame may leave this much behind back to back at the line
 * before the burst counts as not offered at the minimum gap: the 10 us
 * of REQ-GEN-6 (MLR §5.1), above a software stamp's jitter and a NIC's
 * fetch of the burst's first frame.
 */
#define BM_BURST_GAP_TOL_S	10e-6

/*
 * A tester host's clock against its pool's time base, as linuxptp's ptp4l
 * reports it (its management message TIME_STATUS_NP): the offset of this
 * clock from the master it follows and the grandmaster's identity.  A
 * host that is the grandmaster has offset 0 and names itself.
 */
struct bm_clock_reading {
	bool valid;		/* ptp4l answered */
	bool gm_present;	/* it follows another clock */
	int64_t offset_ns;	/* this clock less its master's */
	char gm[24];		/* "525400.fffe.aa0002" */
	char error[64];		/* why not valid, "" when valid */
};

/*
 * A tester host's clock while its part ran, read from ptp4l every
 * BM_PTP_SAMPLE_S between the readings before and after: the readings
 * before and after alone miss an excursion inside the trial, and the
 * stated sync error must cover the whole of it.
 */
struct bm_clock_span {
	unsigned int samples;	/* ptp4l's answers during the part */
	unsigned int missed;	/* asked and not answered */
	int64_t min_ns, max_ns;	/* the offsets' range over the answers */
	char other_gm[24];	/* an answer's grandmaster other than the
				 * one read before, "" none */
};

/*
 * A tester host's system clock against the clock linuxptp's ptp4l keeps
 * (a PHC ptp4l disciplines, phc2sys CLOCK_REALTIME from it), by
 * phc2sys's reports while its part ran: a pool's trials start and pair
 * on CLOCK_REALTIME (as TAI), so that error adds to ptp4l's.
 */
struct bm_sysclock_span {
	char source[48];	/* the log read, "" = none configured */
	unsigned int samples;	/* phc2sys's reports in the part */
	int64_t min_ns, max_ns;	/* their offsets' range */
	char error[96];		/* why none, "" when read */
};

/* The most hosts of one pool. */
#define BM_POOL_MAX_HOSTS	16

/* One host's part of a pool's trial: its clock, its halves' counts. */
struct bm_host_part {
	char host[64];			/* "" = the host that ran the job */
	struct bm_clock_reading before, after;
	struct bm_clock_span during;
	struct bm_sysclock_span system;	/* by phc2sys */
	/* Its first departure after the trial's instant by its own clock
	 * (s); NAN when it sent nothing. */
	double first_tx_s;
	/* What its sending halves sent and its receiving halves took;
	 * failed: its part ended in error (no counts, no readings). */
	uint64_t sent, received;
	bool failed;
};

/* A pool's trial: its hosts' clocks and what they come to. */
struct bm_pool_sync {
	unsigned int n_hosts;
	struct bm_host_part hosts[BM_POOL_MAX_HOSTS];
	/* The most two hosts' clocks can have differed during the trial by
	 * linuxptp's own account: over every ordered pair of hosts, one's
	 * largest offset from the common grandmaster (before, during or
	 * after its part) less the other's smallest; NAN when a host had no
	 * reading or the hosts named different grandmasters. */
	double error_ns;
	/* The first departures' spread over the hosts that sent (ns; 0
	 * with one such host, NAN with none). */
	double start_skew_ns;
	/* Every host within tolerance_ns of the grandmaster before, during
	 * and after (0 = no tolerance given: within whenever error_ns is
	 * known); why not, "" when within. */
	double tolerance_ns;
	bool within;
	char why[96];
	/* A host's part failed and ended the trial: the error, the other
	 * hosts' halves kept (their counts merged; a frame whose receiver
	 * failed counts lost); "" for a trial that ran to its end. */
	char failed[160];
};

/* Counts of one trial, summed over directions (REQ-TRIAL-3). */
struct bm_trial_result {
	uint64_t intended;		/* frames the spec asked for */
	uint64_t attempted;		/* frames the generator sent */
	uint64_t received;		/* unique test frames received */
	uint64_t lost;			/* attempted - received (>= 0) */
	uint64_t duplicate;
	uint64_t reordered;
	uint64_t gap_events;
	uint64_t late;			/* arrived after the drain (REQ-RX-3),
					 * counted in lost */
	/* How long after the drain late frames were counted: the module
	 * counts them while a trial that lost frames waits its late watch;
	 * 0 when none was kept (nothing lost, or a module before RX_CLOSE);
	 * < 0 for every one (the simulated DUT knows them all). */
	double late_watch_s;
	bool generator_limited;		/* attempted fell short (REQ-GEN-6) */
	uint64_t shortfall;		/* frames not yet sent when the trial
					 * should have ended (MLR §5.1) */
	uint64_t tx_late_frames;	/* left > 1 interval behind schedule */
	double tx_late_max_s;		/* largest departure lateness */
	/* Bursts measured against back to back at the line (RFC 2544
	 * §26.4 "minimum inter-frame gap"): how far a frame left behind
	 * its due time from its burst's first, at most; more than
	 * BM_BURST_GAP_TOL_S is a gap the DUT was not offered as asked. */
	bool burst_gaps_measured;
	double tx_burst_late_max_s;
	double tx_stalls_s[BM_TX_STALLS];	/* largest stalls, largest first
					 * (bm_trial_stall_add), 0 = none */
	double actual_duration_s;	/* first to last transmitted frame */
	double first_rx_s, last_rx_s;	/* arrival times rel. to trial start */
	/* BM_PAT_STEP: tx time (s from step) of the last lost frame sent at
	 * or after the step; negative when none was lost (R2544-RECOV). */
	double last_loss_after_step_s;
	/* Longest receive gap (s) and its start, rel. to trial start
	 * (R2544-RESET timestamps A and B). */
	double max_gap_s, max_gap_start_s;
	/* When spec's event_fn was called, s from the trial start as the
	 * backend saw it start (its clock read just after the start, so
	 * no later than the module's: the gap times above are at most as
	 * early); negative without an event. */
	double event_fired_s;
	struct bm_latency latency;	/* valid when latency.count > 0 */
	char ts_source[16];		/* "sw", "hw" or "sim" */
	/* How the generator had its frames' buffers (the module's
	 * BMGEN_TXP_*): "alloc", "recycle", "xdp", "mixed" when streams differed;
	 * "" for a backend without a transmit path (the simulator). */
	char tx_path[16];
	/* The most transmit kthreads (lanes) one stream of the trial used;
	 * 0 for a backend without them (the simulator). */
	unsigned int tx_lanes;
	/* Added for R2544-LAT (spec.tag): tx time of the tagged frame in s
	 * from the trial start, negative when the backend tagged nothing
	 * (unsupported); tag_received false when the tagged frame was lost;
	 * tag_latency_ns its bit-forwarding (FIFO, first bit out to first
	 * bit in) latency. */
	double tag_tx_s;
	bool tag_received;
	double tag_latency_ns;
	/* Added for R2544-RESET: return value of spec.event_fn (0 = ok). */
	int event_ret;
	/* Added for RFC 8239 §2.3: the latency (FF) histogram of all the
	 * trial's frames, BM_LAT_HIST_* buckets; filled by N-port trials
	 * with latency, else all zero. */
	uint64_t lat_hist[BM_LAT_HIST_BUCKETS];
	/* Added for RFC 2544 §26 "type of data stream": what the trial sent
	 * when it was not a constant stream of test frames of frame_size at
	 * rate_fps, e.g. "bursty(16)" (§21: rate_fps is the bursts' average
	 * rate), "imix" (§18) or "broadcast 1 %" (§11.1, rate_fps of test and
	 * broadcast frames together); "" for such a constant stream. */
	char stream_type[32];
	/* Frames of several sizes (an IMIX, RFC 2544 §18): their mean size,
	 * of which rate_fps is the L1 load; 0 = all of frame_size. */
	double mean_frame_size;
	/* RFC 2544 §11.1 broadcast frames mixed into the stream: sent and
	 * received (on the stream's rx port).  They are no test frames
	 * (REQ-2544-3): intended, attempted, received and lost count the
	 * test frames without them. */
	uint64_t bcast_sent, bcast_received;
	/* RFC 2544 §11.4 probe frames from the filters' denied addresses in
	 * place of test frames: sent, and received (the filters let them
	 * through).  Not in intended .. lost either. */
	uint64_t probe_sent, probe_received;
	/* RFC 2544 §11.2 management queries (bm_traffic.h's mgmt): sent,
	 * answered by a GetResponse to one of them, and of those verified
	 * (bm_snmp_verify); the first thing wrong, "" when none. */
	uint32_t mgmt_sent, mgmt_answered, mgmt_verified;
	char mgmt_error[96];
	/* RIP routing updates (bm_traffic.h's rip, RFC 2544 §13 and
	 * §11.3): the sends of each message, its pre-trial one included;
	 * the first send that failed, "" when none. */
	uint32_t rip_sent[BM_TRIAL_MAX_RIP];
	char rip_error[96];
	/* What the RFC 2544 layer makes of them: §13's route set-up
	 * messages sent, and §11.3's updates in order ("ABA"). */
	uint32_t route_setup_sent;
	char routing_ab[24];
	/* RFC 2544 §17 (stream_type "protocols(...)"): the test frames
	 * sent and received of each IP version, [0] IPv4, [1] IPv6. */
	uint64_t proto_sent[2], proto_received[2];
	/* Link flaps: times a port of the trial lost its link during it (or
	 * had none at its start), and the first such port.  bm_run_trial
	 * fails such a trial unless spec.link_down_ok. */
	uint32_t link_downs;
	char link_down_port[16];
	/* SPEC PLAT-TS: NIC hardware stamps of the frames a NIC
	 * stamped, beside the software latency of every frame (latency);
	 * hw.on false when the ports could not stamp. */
	struct bm_hw_latency {
		bool on;
		char tx_filter[16], rx_filter[16];  /* rx filter each took */
		uint64_t tx_requests, tx_stamps, rx_stamps, count;
		double min_ns, mean_ns, max_ns;	/* frames with both stamps */
		double sw_mean_ns;	/* software latency of the same frames */
		double accuracy_ns;	/* the PHC offsets' uncertainty plus
					 * their drift over the trial; a
					 * pool's pairs across hosts: both
					 * hosts' and the sync error */
		/* a pool's trial: of count, the frames stamped leaving
		 * one host and arriving at another (paired by the pool),
		 * and the hosts' sync error their accuracy includes */
		uint64_t across;
		double sync_error_ns;
	} hw;
	/* A host's part of a pool's trial (spec.host): its clock by
	 * linuxptp just before, during and just after its part. */
	struct bm_clock_reading clock_before, clock_after;
	struct bm_clock_span clock_during;
	/* ... and its system clock by phc2sys while the part ran */
	struct bm_sysclock_span clock_system;
	/* A pool's trial: every host's clock and what they come to
	 * (bm_hosts.h); n_hosts 0 for a trial on one host. */
	struct bm_pool_sync sync;
};

struct bm_error {
	/* one line; room for a path and bmd.conf's list of keys */
	char msg[512];
};

/* One entry of a search's trial log (REQ-SRCH-1: every search logs every
 * trial).  phase and reason are short human-readable words. */
struct bm_trial_record {
	unsigned int index;		/* 0-based order of execution */
	char phase[32];			/* "search", "final", "mlr-initial", ... */
	char reason[96];		/* why this load was chosen */
	struct bm_trial_spec spec;
	struct bm_trial_result res;
	/* What an N-port trial (spec.traffic, gone once the trial is
	 * logged) offered: its busiest port's frames per second and % of
	 * that port's line; a pair trial's is spec.pair.rate_fps. */
	double traffic_fps, traffic_pct_line;
};

/* Growable trial log owned by a procedure result. */
struct bm_trial_log {
	struct bm_trial_record *v;
	size_t n, cap;
};

/* Ports of a job: as many as a trial may have (BM_TRAFFIC_MAX_PORTS),
 * names as long as IFNAMSIZ. */
#define BM_BACKEND_MAX_PORTS	256
#define BM_BACKEND_PORT_NAME	16

struct bm_backend;
struct bm_tcp_ops;

/*
 * Called after every trial with the record just logged; total_hint is the
 * procedure's best estimate of its remaining trials (0 = unknown).  A
 * non-zero return asks the procedure to stop (cancel): it then returns
 * -ECANCELED with the partial result still filled in.
 */
typedef int (*bm_progress_fn)(void *ctx, const struct bm_trial_record *rec,
			      const char *status_line);


struct bm_backend_ops {
	/* Run one trial; 0 and *res filled, or -errno with err->msg set. */
	int (*run_trial)(struct bm_backend *be, const struct bm_trial_spec *spec,
			 struct bm_trial_result *res, struct bm_error *err);
	/* Release the backend. */
	void (*destroy)(struct bm_backend *be);
	/* Optional: reset the DUT now, from inside a running trial (the
	 * R2544-RESET event); 0, or -errno.  NULL when the backend cannot
	 * reset its DUT (then only a configured reset command can). */
	int (*dut_reset)(struct bm_backend *be);
	/* A procedure's translator in front of a backend (RFC 2544's
	 * stream types), not a backend: it takes a pair trial's spec as
	 * it is and hands its own traffic, or the spec, to
	 * bm_run_trial() of the backend behind it.  A backend proper is
	 * only ever given traffic: bm_run_trial() builds a pair trial's
	 * (bm_traffic_of_pair). */
	bool translates_pairs;
};

struct bm_backend {
	const struct bm_backend_ops *ops;
	const char *name;		/* "genl", "sim" */
	double line_rate_bps;		/* nominal R_line of the tx port */
	/* Trial time spent so far in s (sum of durations plus per-trial
	 * overhead); the simulated device advances it virtually. */
	double elapsed_s;
	unsigned int trials;		/* trials run so far */
	/* What every result of this backend must say about it, e.g. that
	 * no DUT was measured (the simulator); NULL when nothing.  Results
	 * list it under deviations. */
	const char *deviation;
	/* What its timestamps are worth (REQ-TS-4; RFC 8238 §4.3 makes the
	 * accuracy a MUST of every latency report): ts_accuracy says how
	 * the two numbers in ns were obtained, NAN where not known; NULL
	 * when the backend states nothing, and then neither is read (a
	 * zeroed 0 would claim exact timestamps). */
	const char *ts_accuracy;
	double ts_resolution_ns, ts_accuracy_ns;
	/* The first bytes of the frames its last trial sent, in hex, one
	 * per direction (tx -> rx, rx -> tx); "" when unknown (RFC 2544 §7:
	 * the report names the exact frame; the simulator sends none). */
	char frame_hex[2][2 * 128 + 1];
	/* The job's ports in the order the user gave them (N-port
	 * procedures build their struct bm_traffic over them, line rate
	 * line_rate_bps each); n_ports = 0 when none were named.  A pair
	 * procedure's tx is port 0 and its rx port 1. */
	unsigned int n_ports;
	char port_names[BM_BACKEND_MAX_PORTS][BM_BACKEND_PORT_NAME];
	/* The command line that resets this job's DUT, from bmd's
	 * configuration (the reset the job names), run with
	 * /bin/sh -c by a procedure that resets; NULL = none.  Set by
	 * whoever made the backend, never from a request. */
	const char *reset_command;
	/* The backend's clock is elapsed_s, not the host's: its trials take
	 * no host time (the simulator).  A procedure that lays trials on a
	 * time base of its own (TM-CONC) reads elapsed_s of such a backend
	 * instead of the host's monotonic clock. */
	bool virtual_clock;
	/* Set by whoever made the backend (bmd: a cancel, SIGTERM), read
	 * by it during a trial: nonzero asks the trial in progress to end
	 * now and the next not to start (-ECANCELED, "cancelled"); NULL =
	 * never.  A trial cut short is no trial: no record is made. */
	const volatile int *abort;
	void *priv;
	/* Its TCP engine (bm_tcp.h, PLAT-TCP); NULL when it has none, and
	 * then a stateful procedure refuses to run (R8239-INC (d)). */
	const struct bm_tcp_ops *tcp;
	void *tcp_priv;
};

/* Run one trial through the backend, counting it; see bm_backend_ops. */
int bm_run_trial(struct bm_backend *be, const struct bm_trial_spec *spec,
		 struct bm_trial_result *res, struct bm_error *err);

/* Name be's ports (n_ports, port_names) names[0..n-1], in order: what an
 * N-port procedure builds its traffic over.  0, or -EINVAL with err set
 * (be unchanged) when n > BM_BACKEND_MAX_PORTS or a name is empty or
 * longer than BM_BACKEND_PORT_NAME - 1. */
int bm_backend_set_ports(struct bm_backend *be, unsigned int n,
			 const char *const *names, struct bm_error *err);

/* An event_fn for struct bm_trial_spec: ctx is the struct bm_backend whose
 * dut_reset resets the DUT; -EOPNOTSUPP when it has none. */
int bm_backend_dut_reset(void *ctx);

/* Append a record to log; 0 or -ENOMEM. */
int bm_trial_log_add(struct bm_trial_log *log, const char *phase,
		     const char *reason, const struct bm_trial_spec *spec,
		     const struct bm_trial_result *res);

/* Free the records of log and zero it. */
void bm_trial_log_free(struct bm_trial_log *log);

/* Make r a result with nothing in it yet: zeros, and no event, step
 * loss or tagged frame (-1). */
void bm_trial_result_empty(struct bm_trial_result *r);

/* Keep stall (s) among top[], the BM_TX_STALLS largest, largest first. */
void bm_trial_stall_add(double *top, double stall);

/* Note that r's trial had a burst measured against back to back at the
 * line, a frame of it late_s behind: r keeps the largest. */
void bm_trial_burst_late_add(struct bm_trial_result *r, double late_s);

/* Note that a stream of r's trial used transmit path name: r->tx_path
 * becomes it, or "mixed" when another stream used another. */
void bm_trial_tx_path_add(struct bm_trial_result *r, const char *name);

/* Fill *spec with the defaults of a CBR trial at rate for duration. */
void bm_trial_spec_rate(struct bm_trial_spec *spec, uint32_t frame_size,
			double rate_fps, double duration_s);

/* The BM_LAT_HIST bucket of a latency of ns nanoseconds. */
unsigned int bm_lat_hist_index(double ns);
/* The lower edge in ns of BM_LAT_HIST bucket i (0 for bucket 0). */
double bm_lat_hist_lower_ns(unsigned int i);

/* Frames per second at 100 % of line rate for frame size F (SPEC F-1). */
double bm_fps_max(double line_rate_bps, uint32_t frame_size);

/* L1 (F+20) and L2 (F) bit rates of fps frames/s of size F (SPEC 2.3). */
double bm_l1_bps(double fps, uint32_t frame_size);
double bm_l2_bps(double fps, uint32_t frame_size);

/* Load in % of line rate, L1 based (REQ-UNIT-2). */
double bm_load_pct(double fps, uint32_t frame_size, double line_rate_bps);

/* Set err->msg printf-style, one line (control characters become '?');
 * returns -EINVAL for use in return statements. */
int bm_errorf(struct bm_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif /* BM_TRIAL_H */

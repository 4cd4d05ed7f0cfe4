/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The stateless metrics of TM-MET-SL from a trial's stream results: LP,
 * OOS, PD, PDV, the bytes each burst got through the egress (BSA), the
 * DSCP each frame arrived with (re-marked or not), and the shaper's
 * trains (SR, SR_busy, SBB, SBI).  Pure functions of the results, so that
 * unit tests feed them synthetic logs with a hand-computed truth.
 */
#ifndef TM_METRICS_H
#define TM_METRICS_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bm_traffic.h"
#include "rfc7640.h"

/*
 * One flow of a trial: the streams first .. first + n - 1 of its traffic
 * that carry it.  A burst of REQ-GEN-2.4 whose last two frames were
 * resized goes as two streams (pieces) whose bursts follow each other
 * back to back: per_burst[i] frames of piece i make one burst.  CBR flows
 * have per_burst 0.  A colour-aware policer burst is its green part's
 * pieces and then its yellow part's (tm_flow_join): every DSCP but dscp
 * counts as re-marked.
 */
#define TM_FLOW_MAX_PIECES	4	/* colour-aware: green and yellow parts,
					 * each resized or not */

struct tm_flow {
	unsigned int first, n;
	uint32_t per_burst[TM_FLOW_MAX_PIECES];
	uint64_t bursts;		/* bursts each piece sends */
	uint8_t dscp;			/* as sent */
};

struct tm_flow_metrics {
	uint8_t dscp;			/* as sent */
	uint64_t sent, received, lost, reordered;	/* LP = lost, OOS */
	double tx_bytes, rx_bytes;	/* accounted (tm_acct) */
	/* the rate the flow was delivered at: its bytes after its first
	 * arrival over the time from its first to its last arrival (bit/s;
	 * NAN below two arrivals).  Not rx_bytes / Td: the frames a queue
	 * still held at Td's end arrive after it and would count as rate */
	double rx_rate_bps;
	/* its first and last arrival (s on the receive clock; NAN with
	 * none) and its arrivals, duplicates included */
	double first_rx_s, last_rx_s;
	uint64_t arrivals;
	/* PD (rx - tx) in ns: min, mean, p99, max; pdv = p99 - min (RFC
	 * 5481 PDV at the 99th percentile), pdv_mean = mean - min; NAN
	 * when no latency was measured */
	uint64_t pd_count;
	double pd_min_ns, pd_mean_ns, pd_p99_ns, pd_max_ns;
	double pdv_ns, pdv_mean_ns;
	/* IPDV (RFC 5481 §4.1, REQ-STAT-3): signed, over the pairs of
	 * consecutive sequence numbers of each piece; NAN without a pair */
	uint64_t ipdv_pairs;
	double ipdv_min_ns, ipdv_mean_ns, ipdv_max_ns;
	/* frames by DSCP as received (REQ-RX-5), and their accounted bytes
	 * from the frame log (NAN each when the log does not hold every
	 * frame received) */
	uint64_t rx_dscp[64];
	double rx_dscp_bytes[64];
	uint64_t remarked_frames;	/* DSCP != dscp sent */
	double remarked_bytes;		/* NAN without a whole log */
	/* bursts: from the log, bursts_analysed of them (every burst when
	 * the log holds every frame) */
	uint64_t bursts, bursts_analysed, bursts_with_loss;
	double egress_min_bytes, egress_mean_bytes, egress_max_bytes;
	bool log_complete;		/* the log holds every frame received */
};

/*
 * The metrics of flow f in trial results r of traffic t, bytes accounted
 * in mode acct.  0, or -EIO with one line in err when the backend left
 * out what the metrics need (byte counts, DSCP counts, or the frame log
 * of a burst flow that asked for one): never a silent 0.
 */
int tm_flow_metrics(const struct bm_traffic *t,
		    const struct bm_traffic_result *r, const struct tm_flow *f,
		    enum tm_acct acct, struct tm_flow_metrics *m,
		    struct bm_error *err);

/*
 * m's throughput in bit/s as tm_egress_flow_tput() times a flow alone at
 * its egress: the smaller of its rx_rate_bps and its bytes over td_s
 * (that alone below two arrivals).
 */
double tm_flow_tput(const struct tm_flow_metrics *m, double td_s);

/*
 * The flows one egress delivered, and when: from its first arrival of
 * any of them (first_s) to its last of any (last_s).  Start from
 * TM_EGRESS_INIT.
 */
struct tm_egress {
	double first_s, last_s, bytes;
	uint64_t arrivals;
};

#define TM_EGRESS_INIT { .first_s = INFINITY, .last_s = -INFINITY }

/* Adds flow m to egress e. */
void tm_egress_add(struct tm_egress *e, const struct tm_flow_metrics *m);

/*
 * e's throughput in bit/s: the smaller of its bytes after its first
 * arrival over its window, first to last arrival, and its bytes over
 * td_s (that alone below two arrivals).  Never more than the egress
 * carried (TM-MET-SR of the egress port).
 */
double tm_egress_tput(const struct tm_egress *e, double td_s);

/*
 * The throughput of flow m (added to e) in bit/s, timed from the time
 * its egress began to deliver (e's first arrival of any flow) to its own
 * last arrival, at most its bytes over td_s.  Over its own span alone, a
 * flow a scheduler starved until the others stopped, all its frames in a
 * short span at the end, read the egress's whole rate (4.55 Mbit/s
 * through a 4.016 Mbit/s shaper); over td_s, the frames a queue still
 * held at Td's end counted as rate; over the egress's whole window, a
 * flow delivered within Td read low by the other queues' drain (EF
 * 1.94 Mbit/s of 2.00 delivered, lab rfc7640/queue-shaper-capacity).  A flow
 * delivered whole within Td is timed over Td, one that drained after it over
 * its longer delivery; flows that end at different times are averaged over
 * different times, so an egress's flows may add up to more than
 * tm_egress_tput() by up to the early flows' share of the drain time over the
 * window.
 */
double tm_egress_flow_tput(const struct tm_egress *e,
			   const struct tm_flow_metrics *m, double td_s);

/* What a result whose flows share egresses says of their throughput. */
#define TM_TPUT_SAID "throughput: each flow's from its egress's first " \
	"arrival to its own last (at most its bytes over Td), each egress's " \
	"over its own window: a flow that drained after Td is averaged over " \
	"a longer time than one delivered within it, so an egress's flows " \
	"may add up to more than its throughput_bps [INTERPRETATION]"

/*
 * REQ-TS-5: subtract the tester's own PD (cal_pd_ns, from every PD
 * statistic) and PDV (cal_pdv_ns, from pdv and pdv_mean, never below 0);
 * 0 = no calibration of that kind.
 */
void tm_flow_calibrate(struct tm_flow_metrics *m, double cal_pd_ns,
		       double cal_pdv_ns);

/* The p-th percentile (0 < p <= 100) of x[0..n-1], sorted ascending, by
 * nearest rank: x[ceil(p / 100 x n) - 1]; NAN when n is 0. */
double tm_percentile(const double *x, size_t n, double p);

/* One received frame, for the trains. */
struct tm_arrival {
	double rx_s;
	uint32_t size;			/* F */
	uint64_t burst;			/* the burst it was sent in */
};

/* The shaper's output (TM-MET-SR, -SBB, -SBI). */
struct tm_trains {
	uint64_t frames, trains;
	double first_bytes;		/* the first train after idle */
	double median_bytes, p99_bytes, max_bytes;
	double sbi_median_s, sbi_p1_s, sbi_p99_s;	/* NAN: < 2 trains */
	double sr_busy_bps;		/* mean over the drained bursts */
	uint64_t busy_bursts;		/* bursts with >= 2 frames */
};

/*
 * The trains of arrivals a[0..n-1] (in arrival order, sorted here by
 * rx_s) on an egress of line_rate_bps (AMB-39): a frame belongs to the
 * train of the one before it when it arrived at most
 * 1.1 x (F_prev + 20) x 8 / line + ts_acc_s after it.  SBB in bytes
 * accounted in acct; SBI start to start of consecutive trains; SR_busy
 * per burst of more than one frame: its bytes after its first frame over
 * the time from its first to its last arrival, the mean over the bursts.
 * 0, or -ENOMEM.
 */
int tm_trains_of(struct tm_arrival *a, size_t n, enum tm_acct acct,
		 double line_rate_bps, double ts_acc_s, struct tm_trains *tr);

#endif /* TM_METRICS_H */

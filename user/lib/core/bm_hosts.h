/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One trial over the ports of several tester hosts (a pool): which half
 * of each stream a host runs, and the halves' results put back together.
 *
 * A stream whose ports are on two hosts is run as two halves: the sending
 * half on its tx port's host (it sends, stamps and counts what it sent),
 * the receiving half on its rx port's host (it counts, orders and times
 * what arrived).  Every host is given the whole traffic and its own name
 * (spec.host) and runs the halves on its ports; the stream keeps its index
 * and so its id on every host.  The sent counts come from the sender, the
 * received ones from the receiver, and the loss is their difference
 * (RFC 2544 §26.3: frames the tester transmitted that did not arrive).
 */
#ifndef BM_HOSTS_H
#define BM_HOSTS_H

#include <stdbool.h>

#include "bm_traffic.h"

/* The halves of a stream one host runs: bit 0 sends, bit 1 receives. */
enum bm_half {
	BM_HALF_NONE = 0,
	BM_HALF_TX = 1,
	BM_HALF_RX = 2,
	BM_HALF_BOTH = 3,
};

/* The separator of a pool port's label: "lab2:ens1f0" is port ens1f0 of
 * host lab2; a label without it is a port of the host that runs the job. */
#define BM_HOST_SEP	':'

/*
 * Is s a tester host's name a port label may carry: 1 to
 * sizeof(bm_port_spec.host) - 1 of A-Z a-z 0-9 . _ -, starting with a
 * letter or digit?  bmd hands it to ssh as an argument: a name starting
 * with '-' would be taken as one of ssh's options.
 */
bool bm_host_name_ok(const char *s);

/*
 * Split a job's port label into its host ("" for this host) and the
 * interface name.  0, or -EINVAL with err set: an empty host or name, a
 * host that is not bm_host_name_ok, a name longer than IFNAMSIZ - 1, a
 * second separator.
 */
int bm_port_label_parse(const char *label, char *host, size_t host_len,
			char *name, size_t name_len, struct bm_error *err);

/* Does a job's port label name another host's port ("lab2:ens1f0")? */
bool bm_port_label_remote(const char *label);

/* Does host's part of a trial of t send its RFC 2544 §11.2 management
 * queries (t has them and their port is on host; host NULL: one host
 * runs the whole trial)?  Only that part sends and counts them. */
bool bm_part_has_mgmt(const struct bm_traffic *t, const char *host);

/*
 * How long before a pool's trial starts its parts must have it (s): a
 * part's learning frames and pause (RFC 2544 §23b) and its router's ARP,
 * and, when t has routing updates before the trial (§23a, bm_rip_msg
 * at_s < 0), their lead, and at least the DUT's settling after them
 * (BM_RIP_SETTLE_S) and the learning.  A part sends those updates that
 * long before the start.
 */
double bm_part_lead_s(const struct bm_traffic *t,
		      const struct bm_trial_spec *spec);

/* Is port p of a trial on host (the same name; "" is the job's own)? */
bool bm_port_on_host(const struct bm_port_spec *p, const char *host);

/* The halves of stream s of t that host runs. */
enum bm_half bm_stream_half(const struct bm_traffic *t,
			    const struct bm_stream_spec *s, const char *host);

/* The hosts t's ports are on, each once, in the order of their first
 * port: up to max names (pointers into t); how many there are. */
unsigned int bm_traffic_hosts(const struct bm_traffic *t, const char **names,
			      unsigned int max);

/*
 * Make r and res what host reports of a trial of t (what a backend that
 * ran the whole trial, the simulator, hands a host): each stream's half
 * of host's (the other half zeroed, its times -1), and the trial's
 * results of one side (bm_trial_result_side) kept only when host runs
 * that side of the first stream that has one (so that the pool's merge
 * counts each once).  r has t's streams.
 */
void bm_traffic_keep_host(const struct bm_traffic *t, const char *host,
			  struct bm_traffic_result *r,
			  struct bm_trial_result *res);

/*
 * The hardware stamp log (bm_stream_result.hw_log) each half of stream k
 * of t keeps when its halves are on two hosts and its ports stamp: at
 * most the records returned, of every *every-th frame of the intended
 * ones, so that the sender's and the receiver's logs hold the same frames
 * over the whole trial.  Every host computes the same from t and
 * intended; 0 for a stream on one host (its module pairs its stamps).
 */
uint32_t bm_hw_log_plan(const struct bm_traffic *t, unsigned int k,
			uint64_t intended, uint32_t *every);

/* A merge of the hosts' parts of one trial into the pool's result. */
struct bm_pool_merge {
	const struct bm_traffic *t;
	struct bm_traffic_result *r;	/* t's streams, bm_traffic_result_new */
	struct bm_trial_result *res;
	unsigned int lat_hosts;		/* parts that timed frames */
	struct bm_latency lat;		/* the last such part's summary */
	struct bm_pool_hw *hw;		/* their stamps (hosts_hw.c) */
};

/* Start merging into r and res (res emptied: no event, step loss, tag or
 * stall; the timestamp source the first part's). */
void bm_pool_merge_init(struct bm_pool_merge *m, const struct bm_traffic *t,
			struct bm_traffic_result *r,
			struct bm_trial_result *res);

/*
 * Add host's part (its traffic result pr and trial result pres, as
 * bm_traffic_keep_host leaves them): each stream's half it ran moved
 * into the merge (its frame logs move too), its trial-wide results of
 * each side it ran added (counts summed, lateness and gaps the largest).
 */
void bm_pool_merge_add(struct bm_pool_merge *m, const char *host,
		       struct bm_traffic_result *pr,
		       const struct bm_trial_result *pres);

/* Host's part failed (why, the trial's error): the merge goes on with
 * the other hosts' parts, and says so (bm_pool_sync.failed). */
void bm_pool_merge_failed(struct bm_pool_merge *m, const char *host,
			  const char *why);

/*
 * End the merge of a trial of frame_size: a stream on two hosts loses
 * what its sender sent less what its receiver took; the per-port and
 * total counts and the latency summary are summed from the streams; the
 * latency percentiles are the one timing part's, else 0 (percentiles do
 * not pool, as over a host's several streams).  The hardware block
 * pairs each stream's sender's tx stamps with its receiver's rx stamps
 * by seq, beside the pairs each host's module made; their accuracy adds
 * res->sync.error_ns, so bm_pool_sync_judge() comes first.
 */
void bm_pool_merge_end(struct bm_pool_merge *m, uint32_t frame_size);

/*
 * A host's part of a pool's trial may start when its clock c (linuxptp,
 * read just before) is within spec's sync_tolerance_ns of the
 * grandmaster, or either is unknown (the record says so: bm_pool_sync);
 * else -ERANGE with err saying by how much.
 */
int bm_part_clock_check(const struct bm_trial_spec *spec,
			const struct bm_clock_reading *c,
			struct bm_error *err);

/* A host's part may start when its kernel's TAI-UTC offset here_s is
 * spec's (the coordinating host's); else -ERANGE with err naming both. */
int bm_part_tai_check(const struct bm_trial_spec *spec, int here_s,
		      struct bm_error *err);

/*
 * What the hosts' clocks of sy come to: the sync error (the most two
 * hosts' offsets from one grandmaster can have differed, before, during
 * or after their parts: bm_pool_sync.error_ns), the start skew (their
 * first departures' spread), and within: every host read, all on one
 * grandmaster, none off it by more than tolerance_ns at any reading (0 =
 * no tolerance), else why not.
 */
void bm_pool_sync_judge(struct bm_pool_sync *sy, double tolerance_ns);

#endif /* BM_HOSTS_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * The trial backend that drives bmgen.ko (DESIGN.md: procedures never talk
 * netlink; this file turns one struct bm_trial_spec into module streams, runs
 * the trial, waits for the drain and turns the statistics into a
 * struct bm_trial_result).
 */
#include <errno.h>
#include <math.h>
#include <net/if.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/bmgen.h>

#include "backend_genl_int.h"
#include "bm_traffic.h"

_Static_assert(BM_TX_STALLS == BMGEN_TX_STALLS,
	       "a trial keeps as many stalls as the module reports");

/* A pair trial's streams, allocated per trial in this order:
 * the forward one, then the reverse (bidirectional) or post-step one. */
#define BM_SID_FWD	1
#define BM_SID_SECOND	2

/*
 * The module has one stream table and runs one trial at a time, and every
 * trial here begins by deleting all streams.  bmd runs jobs on disjoint
 * ports in parallel threads, each with its own backend: without this lock
 * one job deleted the other's streams or met "a trial is already running".
 * Held from the learning frames to the statistics, so the jobs' trials
 * take turns, each complete.
 */
static pthread_mutex_t bm_genl_module_lock = PTHREAD_MUTEX_INITIALIZER;

/* The exact frames of this trial for the report; a module that cannot
 * say leaves them "" (no failure: the counts are what the trial is). */
static void bm_genl_note_frames(struct bm_genl_backend *b,
				const struct bm_trial_spec *spec)
{
	bm_genl_note_frame(b, BM_SID_FWD, 0);
	b->be.frame_hex[1][0] = 0;
	if (spec->topology == BM_TOPO_PAIR_BIDIR &&
	    spec->pattern != BM_PAT_STEP)
		bm_genl_note_frame(b, BM_SID_SECOND, 1);
}

/*
 * Switch hardware stamping on at both ports if both can (tx and rx, each
 * with a PHC); either both or neither, since a latency needs a stamp from
 * each end.  A port that cannot is no error: the trials keep their
 * software latency and the records say nothing of hardware.
 */
static void bm_genl_hw_setup(struct bm_genl_backend *b)
{
	const char *name[2] = { b->tx, b->rx };
	unsigned int ifi[2] = { b->tx_ifindex, b->rx_ifindex };
	struct bm_genl_port_counters pc;
	struct bm_error ignore;
	int i;

	for (i = 0; i < 2; i++) {
		if (bm_genl_port_counters(b->g, ifi[i], &pc, &ignore) ||
		    (pc.ts_caps & (BMGEN_PORT_F_HW_TS_RX | BMGEN_PORT_F_HW_TS_TX)) !=
		    (BMGEN_PORT_F_HW_TS_RX | BMGEN_PORT_F_HW_TS_TX) ||
		    pc.phc_index < 0)
			return;
		b->phc[i] = pc.phc_index;
	}
	for (i = 0; i < 2; i++) {
		if (bm_hwts_enable(name[i], &b->hw[i], &ignore) ||
		    !b->hw[i].tx_on) {
			while (i >= 0)
				bm_hwts_restore(&b->hw[i--]);
			memset(b->hw, 0, sizeof(b->hw));
			return;
		}
	}
	b->hw_on = 1;
}

/* Put back what the ports' drivers stamped before (bm_genl_hw_setup). */
static void bm_genl_hw_teardown(struct bm_genl_backend *b)
{
	const char *name[2] = { b->tx, b->rx };
	struct bm_error ignore;
	int i;

	if (!b->hw_on)
		return;
	for (i = 0; i < 2; i++) {
		bm_genl_port_set(b->g, name[i], 0, NULL, &ignore);
		bm_hwts_restore(&b->hw[i]);
	}
	b->hw_on = 0;
}

/*
 * The pair trial as traffic (one engine for pairs and N ports): tx is
 * port 0, rx port 1, loads in fps as the procedure asked (no line-rate
 * cap: an overload above line rate is the generator's to report,
 * REQ-GEN-6).  Streams: the forward one, then the reverse (bidirectional)
 * or the post-step one (R2544-RECOV, starting at duration_s).  *intended:
 * frames the spec asks for; 0 or -EINVAL.
 */
static int bm_pair_traffic(const struct bm_genl_backend *b,
			   const struct bm_trial_spec *spec,
			   struct bm_traffic *t, uint64_t *intended,
			   struct bm_error *err)
{
	struct bm_stream_spec s;
	uint64_t n;
	unsigned int i;

	bm_traffic_init(t);
	t->n_ports = 2;
	for (i = 0; i < 2; i++) {
		snprintf(t->ports[i].name, sizeof(t->ports[i].name), "%s",
			 i ? b->rx : b->tx);
		t->ports[i].line_rate_bps = b->be.line_rate_bps;
		memcpy(t->ports[i].ip4, b->rp[i].ip4, 4);
	}
	bm_stream_init(&s, 0, 1, 0);
	s.load_unit = BM_LOAD_FPS;
	switch (spec->pattern) {
	case BM_PAT_BURST:
		s.pattern = BM_STREAM_BURSTS;
		s.burst_len = (uint32_t)spec->burst_frames;
		s.burst_count = 1;
		n = spec->burst_frames;
		break;
	default:
		s.pattern = BM_STREAM_COUNT;
		s.load = spec->rate_fps;
		s.count = n = (uint64_t)llround(spec->rate_fps * spec->duration_s);
		if (spec->tag && spec->pattern == BM_PAT_RATE) {
			s.tag_seq = llround(spec->tag_at_s * spec->rate_fps);
			memcpy(s.tag_dst_ip4, spec->tag_dst_ip4, 4);
		}
		break;
	}
	if (!n)
		return bm_errorf(err, "trial of 0 frames (rate %.3f fps, %.3f s)",
				 spec->rate_fps, spec->duration_s);
	if (bm_traffic_add_stream(t, &s, err) < 0)
		return -ENOMEM;
	*intended = n;
	if (spec->pattern == BM_PAT_STEP) {
		s.load = spec->step_rate_fps;
		s.count = (uint64_t)llround(spec->step_rate_fps *
					    spec->step_duration_s);
		s.start_s = spec->duration_s;
		if (!s.count)
			return bm_errorf(err, "step of 0 frames");
		*intended += s.count;
	} else if (spec->topology == BM_TOPO_PAIR_BIDIR) {
		s.tx_port = 1;
		s.rx_port = 0;
		s.tag_seq = -1;
		*intended += n;
	} else {
		return 0;
	}
	return bm_traffic_add_stream(t, &s, err) < 0 ? -ENOMEM : 0;
}

/*
 * Fetch stream id's statistics into *out (without its histogram) and fold
 * them into the trial: counts into res, latency and histogram into *sum.
 */
static int bm_genl_collect(struct bm_genl_backend *b, uint32_t id,
			   struct bm_trial_result *res, struct bm_genl_stats *sum,
			   struct bm_genl_stats *out, struct bm_error *err)
{
	struct bm_genl_stats st;
	int ret;

	ret = bm_genl_logical_stats(b, id - 1, &st, err);
	if (ret)
		return ret;
	if (id - 1 < b->n_logical && b->lane_n[id - 1] > res->tx_lanes)
		res->tx_lanes = b->lane_n[id - 1];
	res->attempted += st.tx_frames;
	res->received += st.rx_unique;
	res->duplicate += st.rx_dup;
	res->reordered += st.rx_reordered;
	res->gap_events += st.rx_gap_events;
	if (st.tx_frames)
		bm_trial_tx_path_add(res, bm_genl_tx_path_name(st.tx_path));
	bm_genl_stats_merge(sum, &st);
	bm_genl_stats_free(&st);
	*out = st;
	return 0;
}

/* A pair trial's streams as the module counted them: the forward one and
 * the second, as reverse or as post-step (zero where the trial had none). */
struct bm_pair_stats {
	struct bm_genl_stats fwd, rev, step;
};

/* What the module cannot run is refused before a stream is touched. */
static int bm_genl_pair_check(const struct bm_trial_spec *spec,
			      struct bm_error *err)
{
	if (spec->frame_size < BMGEN_MIN_FRAME || spec->frame_size > BMGEN_MAX_FRAME)
		return bm_errorf(err, "frame size %u outside %u..%u",
				 spec->frame_size, BMGEN_MIN_FRAME, BMGEN_MAX_FRAME);
	if (spec->pattern != BM_PAT_BURST &&
	    (!(spec->rate_fps > 0) || !(spec->duration_s > 0)))
		return bm_errorf(err, "trial needs a rate > 0 and a duration > 0");
	return 0;
}

/*
 * Set up the pair's streams: wait out another user's trial, resolve a
 * router DUT's MACs or send the learning frames, add the streams and arm
 * hardware stamping.  *intended: the frames the spec asks for.
 */
static int bm_genl_pair_setup(struct bm_genl_backend *b,
			      const struct bm_trial_spec *spec,
			      uint64_t *intended, struct bm_error *err)
{
	unsigned int ifindex[2] = { b->tx_ifindex, b->rx_ifindex };
	uint8_t gw_mac[2][6];
	uint64_t per_stream[2];
	struct bm_traffic t;
	double end = 0;
	int ret;

	ret = bm_pair_traffic(b, spec, &t, intended, err);
	if (!ret)
		ret = bm_genl_wait_foreign(b, err);
	if (!ret && b->router) {
		/* the trial resolves and refreshes the DUT's MACs first;
		 * a router learns nothing from learning frames */
		ret = bm_router_resolve(&b->rp[0], BM_ARP_TIMEOUT_S, err);
		if (!ret)
			ret = bm_router_resolve(&b->rp[1], BM_ARP_TIMEOUT_S, err);
		memcpy(gw_mac[0], b->rp[0].gw_mac, 6);
		memcpy(gw_mac[1], b->rp[1].gw_mac, 6);
	} else if (!ret && spec->learning) {
		ret = bm_traffic_learn(b, &t, ifindex, spec->frame_size,
				       spec->learning_pause_s, true, err);
	}
	if (!ret)
		ret = bm_traffic_add_all(b, &t, spec, ifindex,
					 b->router ? gw_mac : NULL, per_stream,
					 &end, err);
	bm_traffic_free(&t);
	if (!ret)
		ret = bm_genl_hw_arm(b, err);
	return ret;
}

/*
 * Start the trial, fire the spec's event on time, wait for the module to
 * end it, then for the drain, and close the counting; *t0: when it
 * started.  bm_genl_close_counting's value (for bm_genl_watch_late) or
 * -errno.
 */
static int bm_genl_pair_run(struct bm_genl_backend *b,
			    const struct bm_trial_spec *spec,
			    struct bm_trial_result *res, double *t0,
			    struct bm_error *err)
{
	double drain, want;
	int ret, terr = 0;

	ret = bm_genl_trial_start(b->g, 0, BM_GENL_TRIAL_OWNED, err);
	if (ret)
		return ret;
	*t0 = bm_mono_s();
	if (spec->event_fn) {
		bm_sleep_s(spec->event_at_s - (bm_mono_s() - *t0));
		res->event_fired_s = bm_mono_s() - *t0;
		res->event_ret = spec->event_fn(spec->event_ctx);
	}
	want = spec->duration_s + (spec->pattern == BM_PAT_STEP ?
				   spec->step_duration_s : 0);
	ret = bm_genl_trial_wait(b->g, want * 2 + 30, &terr, err);
	if (ret < 0) {
		bm_genl_trial_stop(b->g, NULL);
		return ret;
	}
	if (ret == BMGEN_TRIAL_FAILED)
		return bm_genl_trial_failed(terr, err);
	if (ret != BMGEN_TRIAL_DONE)
		return bm_errorf(err, "trial was stopped"), -ECANCELED;
	drain = spec->drain_s >= 0 ? spec->drain_s : BM_DEFAULT_DRAIN_S;
	/*
	 * R2544-B2B, RFC 2544 §26.4: a back-to-back trial MUST last
	 * duration_s (>= 2 s) from the burst start to the end of counting.
	 * The burst itself takes milliseconds, so waiting only drain_s after
	 * it counted the frames a slow DUT still held in its queue as lost,
	 * and the search came out short (Q + b/A frames need Q/rate to leave).
	 */
	if (spec->pattern == BM_PAT_BURST)
		drain = fmax(drain, spec->duration_s - (bm_mono_s() - *t0));
	bm_sleep_s(drain);
	return bm_genl_close_counting(b, err);
}

/* Read the streams' counters: the counts, latency and hardware stamps of
 * all into res, each stream's own into *st. */
static int bm_genl_pair_read(struct bm_genl_backend *b,
			     const struct bm_trial_spec *spec,
			     struct bm_trial_result *res,
			     struct bm_pair_stats *st, struct bm_error *err)
{
	struct bm_genl_stats sum = { 0 };
	int ret;

	sum.hist = calloc(BMGEN_HIST_BUCKETS, sizeof(*sum.hist));
	if (!sum.hist)
		return bm_errorf(err, "out of memory"), -ENOMEM;
	ret = bm_genl_collect(b, BM_SID_FWD, res, &sum, &st->fwd, err);
	if (!ret && spec->topology == BM_TOPO_PAIR_BIDIR &&
	    spec->pattern != BM_PAT_STEP)
		ret = bm_genl_collect(b, BM_SID_SECOND, res, &sum, &st->rev, err);
	if (!ret && spec->pattern == BM_PAT_STEP)
		ret = bm_genl_collect(b, BM_SID_SECOND, res, &sum, &st->step, err);
	if (!ret) {
		bm_genl_stats_latency(&sum, &res->latency);
		bm_genl_hw_result(b, &sum, res);
	}
	bm_genl_stats_free(&sum);
	return ret;
}

/*
 * REQ-GEN-6, MLR §5.1 duration stretching: the frames still unsent when
 * the last one was due are the generator's shortfall.  Frames are whole,
 * so the 10 us allowance is at least one frame; a software pacer is often
 * a wakeup late, never a frame late.
 */
static void bm_genl_pair_generator(const struct bm_trial_spec *spec,
				   const struct bm_pair_stats *st,
				   struct bm_trial_result *res)
{
	const struct bm_genl_stats *fwd = &st->fwd, *rev = &st->rev;
	const struct bm_genl_stats *step = &st->step;
	double span;
	unsigned int i;

	res->tx_late_frames = fwd->tx_late_frames + rev->tx_late_frames +
			      step->tx_late_frames;
	res->tx_late_max_s = fmax(fwd->tx_late_max_ns,
				  fmax(rev->tx_late_max_ns, step->tx_late_max_ns)) / 1e9;
	for (i = 0; i < BMGEN_TX_STALLS; i++) {
		bm_trial_stall_add(res->tx_stalls_s, fwd->tx_stalls_ns[i] / 1e9);
		bm_trial_stall_add(res->tx_stalls_s, rev->tx_stalls_ns[i] / 1e9);
		bm_trial_stall_add(res->tx_stalls_s, step->tx_stalls_ns[i] / 1e9);
	}
	if (spec->pattern == BM_PAT_RATE && spec->rate_fps > 0 && fwd->tx_frames > 1) {
		span = (double)(fwd->tx_frames - 1) / spec->rate_fps;
		if (res->actual_duration_s > span)
			res->shortfall = (uint64_t)((res->actual_duration_s - span) *
						    spec->rate_fps);
		if (res->shortfall > (uint64_t)(10e-6 * spec->rate_fps))
			res->generator_limited = true;
	}
	if (res->attempted < res->intended) {
		res->shortfall += res->intended - res->attempted;
		res->generator_limited = true;
	}
	/*
	 * RFC 2544 §26.4: a burst is back to back at the minimum gap.  One
	 * the generator handed over with a wider gap somewhere offered the
	 * DUT less than asked: what it passed says nothing (as the
	 * simulator's generator slower than the line).
	 */
	if (spec->pattern == BM_PAT_BURST) {
		bm_trial_burst_late_add(res, fwd->tx_burst_late_max_ns / 1e9);
		bm_trial_burst_late_add(res, rev->tx_burst_late_max_ns / 1e9);
		if (res->tx_burst_late_max_s > BM_BURST_GAP_TOL_S)
			res->generator_limited = true;
	}
}

/* R2544-RECOV: the highest lost seq of the post-step stream, by the
 * schedule's tx time relative to the step; -1 when none was lost. */
static double bm_genl_last_loss_after_step(const struct bm_trial_spec *spec,
					   const struct bm_genl_stats *step)
{
	uint64_t last = 0;
	bool any = false;

	if (step->rx_unique < step->tx_frames &&
	    step->rx_max_seq + 1 < step->tx_frames) {
		last = step->tx_frames - 1;
		any = true;
	} else if (step->rx_last_lost_seq) {
		last = step->rx_last_lost_seq - 1;
		any = true;
	}
	return any ? (double)last / spec->step_rate_fps : -1.0;
}

static int bm_genl_run_trial_locked(struct bm_backend *be,
				    const struct bm_trial_spec *spec,
				    struct bm_trial_result *res,
				    struct bm_error *err)
{
	struct bm_genl_backend *b = (struct bm_genl_backend *)be;
	struct bm_pair_stats st = { 0 };
	const struct bm_genl_stats *fwd = &st.fwd;
	uint64_t intended = 0;
	double t0 = 0;
	int ret, closed;

	ret = bm_genl_pair_check(spec, err);
	if (!ret)
		ret = bm_genl_pair_setup(b, spec, &intended, err);
	if (ret)
		return ret;
	closed = bm_genl_pair_run(b, spec, res, &t0, err);
	if (closed < 0)
		return closed;
	ret = bm_genl_pair_read(b, spec, res, &st, err);
	if (ret)
		return ret;
	res->intended = intended;
	res->lost = res->attempted > res->received ?
		    res->attempted - res->received : 0;
	ret = bm_genl_watch_late(b, closed, res, err);
	if (ret)
		return ret;
	res->actual_duration_s = (fwd->tx_last_ns - fwd->tx_first_ns) / 1e9;
	res->first_rx_s = fwd->rx_first_ns / 1e9;
	res->last_rx_s = fwd->rx_last_ns / 1e9;
	res->max_gap_s = fwd->rx_max_iat_ns / 1e9;
	res->max_gap_start_s = fwd->rx_max_iat_start_ns / 1e9;
	bm_genl_pair_generator(spec, &st, res);
	if (spec->pattern == BM_PAT_STEP)
		res->last_loss_after_step_s =
			bm_genl_last_loss_after_step(spec, &st.step);
	if (spec->tag) {
		res->tag_tx_s = (double)llround(spec->tag_at_s * spec->rate_fps) /
				spec->rate_fps;
		res->tag_received = fwd->tag_lat_ns > 0;
		res->tag_latency_ns = (double)fwd->tag_lat_ns;
	} else {
		res->tag_tx_s = -1;
	}
	snprintf(res->ts_source, sizeof(res->ts_source), "sw");
	be->elapsed_s += bm_mono_s() - t0;
	bm_genl_note_frames(b, spec);
	return 0;
}

/* The module's count of link losses of the trial's ports, through its
 * drain; bm_run_trial judges them. */
static int bm_genl_link_downs(struct bm_genl_backend *b,
			      struct bm_trial_result *res, struct bm_error *err)
{
	struct bm_module_status st;
	char name[IF_NAMESIZE];
	int ret;

	ret = bm_genl_status_get(b->g, &st, err);
	if (ret)
		return ret;
	res->link_downs = st.link_downs;
	/* a device deleted after its trial first goes down: no name */
	if (st.link_downs && if_indextoname(st.link_down_ifindex, name))
		snprintf(res->link_down_port, sizeof(res->link_down_port),
			 "%s", name);
	else if (st.link_downs)
		snprintf(res->link_down_port, sizeof(res->link_down_port),
			 "#%u (gone)", st.link_down_ifindex);
	return 0;
}

static int bm_genl_run_trial(struct bm_backend *be,
			     const struct bm_trial_spec *spec,
			     struct bm_trial_result *res, struct bm_error *err)
{
	int ret;

	if (spec->tx_path && bm_genl_tx_path_of_name(spec->tx_path) < 0)
		return bm_errorf(err, "unknown transmit path '%.20s' (auto, alloc, recycle, xdp)",
				 spec->tx_path);
	/* another job's trial may hold the module for a minute: a cancel
	 * must not wait for it */
	if (!be->abort)
		pthread_mutex_lock(&bm_genl_module_lock);
	else
		while (pthread_mutex_trylock(&bm_genl_module_lock) == EBUSY) {
			if (*be->abort)
				return bm_errorf(err, "cancelled"), -ECANCELED;
			bm_sleep_s(0.05);
		}
	bm_genl_set_abort(((struct bm_genl_backend *)be)->g, be->abort);
	if (spec->traffic)
		ret = bm_genl_run_traffic_locked((struct bm_genl_backend *)be,
						 spec, res, err);
	else
		ret = bm_genl_run_trial_locked(be, spec, res, err);
	if (!ret)
		ret = bm_genl_link_downs((struct bm_genl_backend *)be, res, err);
	pthread_mutex_unlock(&bm_genl_module_lock);
	return ret;
}

static void bm_genl_destroy(struct bm_backend *be)
{
	struct bm_genl_backend *b = (struct bm_genl_backend *)be;

	if (b->g) {
		/* not while another job's trial has its streams in place */
		pthread_mutex_lock(&bm_genl_module_lock);
		bm_genl_stream_del(b->g, 0, NULL);
		bm_genl_hw_teardown(b);
		pthread_mutex_unlock(&bm_genl_module_lock);
		bm_genl_close(b->g);
	}
	free(b->lane_n);
	free(b->cap);
	free(b);
}

static const struct bm_backend_ops bm_genl_ops = {
	.run_trial = bm_genl_run_trial,
	.destroy = bm_genl_destroy,
};

struct bm_backend *bm_backend_genl_new(const struct bm_genl_port_opts *o,
				       struct bm_error *err)
{
	struct bm_genl_backend *b;
	int ret;

	const char *pair[2] = { o->tx_port, o->rx_port };

	if (!o->tx_port || !o->rx_port) {
		bm_errorf(err, "the module backend needs a tx and an rx port");
		return NULL;
	}
	/* The pair trials run on tx/rx, N-port ones on the list: they must
	 * be the same first two ports, or one job would test two setups. */
	if (o->n_ports && (o->n_ports < 2 || strcmp(o->ports[0], o->tx_port) ||
			   strcmp(o->ports[1], o->rx_port))) {
		bm_errorf(err, "the module backend's port list must begin with tx, rx");
		return NULL;
	}
	b = calloc(1, sizeof(*b));
	if (!b) {
		bm_errorf(err, "out of memory");
		return NULL;
	}
	if (bm_backend_set_ports(&b->be, o->n_ports ? o->n_ports : 2,
				 o->n_ports ? o->ports : pair, err)) {
		free(b);
		return NULL;
	}
	b->be.ops = &bm_genl_ops;
	b->be.name = "genl";
	b->be.line_rate_bps = o->line_rate_bps;
	/*
	 * bmgen.ko stamps in software only (BMGEN_TS_SW): ktime_get_ns(), in
	 * ns as the frame's tx_ts carries it, just before the driver's xmit
	 * and in the rx handler.  How far either is from the wire (queueing
	 * in the driver, softirq delay) no calibration has measured, so the
	 * accuracy is not claimed (REQ-TS-4, R8238-CAL).
	 */
	b->be.ts_accuracy = "software timestamps (ktime_get_ns before xmit "
			    "and in the rx handler), not calibrated";
	b->be.ts_resolution_ns = 1.0;
	b->be.ts_accuracy_ns = NAN;
	snprintf(b->tx, sizeof(b->tx), "%s", o->tx_port);
	snprintf(b->rx, sizeof(b->rx), "%s", o->rx_port);
	b->router = o->router;
	bm_router_port_default(&b->rp[0], b->tx, 0);
	bm_router_port_default(&b->rp[1], b->rx, 1);
	b->g = bm_genl_open(&ret, err);
	if (b->g) {
		struct bm_module_status st;
		struct bm_error ignore;

		/* for one kthread per tx port; unknown is fine */
		if (!bm_genl_status_get(b->g, &st, &ignore))
			b->ncpus = st.cpus;
	}
	/* a lane a kthread: more lanes than CPUs would share them */
	b->lanes = o->tx_kthreads ? o->tx_kthreads : 1;
	if (o->tx_kthreads == BM_GENL_KTHREADS_AUTO) {
		b->lanes_auto = 1;
		b->lanes = b->ncpus ? b->ncpus : 1;
		if (o->n_capacity) {
			b->cap = calloc(o->n_capacity, sizeof(*b->cap));
			if (b->cap) {
				memcpy(b->cap, o->capacity,
				       o->n_capacity * sizeof(*b->cap));
				b->n_cap = o->n_capacity;
			}
		}
	}
	b->tx_path = o->tx_path;
	if (b->ncpus && b->lanes > b->ncpus)
		b->lanes = b->ncpus;
	if (!b->g ||
	    bm_genl_attach(b->g, b->tx, &b->tx_ifindex, err) ||
	    bm_genl_attach(b->g, b->rx, &b->rx_ifindex, err) ||
	    (b->router && (bm_router_port_setup(&b->rp[0], err) ||
			   bm_router_port_setup(&b->rp[1], err)))) {
		bm_genl_destroy(&b->be);
		return NULL;
	}
	if (!o->no_hw_timestamps)
		bm_genl_hw_setup(b);
	return &b->be;
}

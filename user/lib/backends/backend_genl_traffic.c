// SPDX-License-Identifier: GPL-2.0
/*
 * N-port trials on bmgen.ko: one module stream per traffic stream, ids
 * allocated 1..n for this trial, every port attached and resolved by
 * name, learning frames from every receiving port, then per-stream
 * statistics into a struct bm_traffic_result.
 *
 * This file runs the trial, step by step; the ports, learning and
 * routes are set up in backend_genl_setup.c, the streams added in
 * backend_genl_streams.c, the results read in backend_genl_collect.c.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <linux/bmgen.h>

#include "backend_genl_int.h"
#include "bm_hosts.h"
#include "bm_mgmt.h"
#include "bm_phc2sys.h"
#include "bm_ptp.h"
#include "bm_rip_send.h"
#include "bm_traffic.h"

/* Does this trial send stream k here (a pool's part: its sending half)? */
static bool bm_genl_part_sends_stream(const struct bm_traffic *t,
				      const struct bm_trial_spec *spec,
				      unsigned int k)
{
	return !spec->host ||
	       (bm_stream_half(t, &t->streams[k], spec->host) & BM_HALF_TX);
}

/* Does this trial send anything here? */
static bool bm_part_sends(const struct bm_traffic *t,
			  const struct bm_trial_spec *spec)
{
	unsigned int k;

	for (k = 0; k < t->n_streams; k++)
		if (bm_genl_part_sends_stream(t, spec, k))
			return true;
	return false;
}

/* Seconds from now to CLOCK_TAI instant at_ns (0: now). */
static double bm_tai_until_s(int64_t at_ns)
{
	struct timespec ts;

	if (at_ns <= 0)
		return 0;
	clock_gettime(CLOCK_TAI, &ts);
	return (double)(at_ns - ((int64_t)ts.tv_sec * 1000000000 +
				 ts.tv_nsec)) / 1e9;
}

int bm_genl_run_traffic_locked(struct bm_genl_backend *b,
			       const struct bm_trial_spec *spec,
			       struct bm_trial_result *res,
			       struct bm_error *err)
{
	const struct bm_traffic *t = spec->traffic;
	struct bm_traffic_result *tr = spec->traffic_res, *own = NULL;
	unsigned int *ifindex = NULL, k;
	uint8_t (*gw_mac)[6] = NULL;
	uint64_t *intended = NULL;
	struct bm_mgmt_run *mgmt = NULL;
	struct bm_rip_run *rip = NULL;
	struct bm_clock_reading clock0 = { 0 };
	struct bm_ptp_watch *watch = NULL;
	double t0, want = spec->duration_s, drain, lead = 0, t_pre = 0;
	int ret, terr = 0, closed;

	ret = bm_traffic_check(t, spec->frame_size, err);
	if (ret)
		return ret;
	if (t->n_streams > BMGEN_MAX_STREAMS - 1)
		return bm_errorf(err, "%u streams: the module takes %u",
				 t->n_streams, BMGEN_MAX_STREAMS - 1), -E2BIG;
	if (tr && (tr->n_streams != t->n_streams || tr->n_ports != t->n_ports))
		return bm_errorf(err, "traffic result does not fit the traffic");
	if (!tr)
		tr = own = bm_traffic_result_new(t);
	ifindex = calloc(t->n_ports, sizeof(*ifindex));
	intended = calloc(t->n_streams, sizeof(*intended));
	if (b->router)
		gw_mac = calloc(t->n_ports, sizeof(*gw_mac));
	if (!tr || !ifindex || !intended || (b->router && !gw_mac)) {
		bm_errorf(err, "out of memory");
		ret = -ENOMEM;
		goto out;
	}
	/* a pool's part: this host's clock by linuxptp first, refused
	 * when off the grandmaster by more than the pool allows */
	if (spec->host) {
		ret = bm_part_tai_check(spec, bm_tai_utc_s(), err);
		if (ret)
			goto out;
		bm_ptp_read(NULL, BM_PTP_TIMEOUT_MS, &clock0);
		ret = bm_part_clock_check(spec, &clock0, err);
		if (ret)
			goto out;
		if (clock0.valid)
			watch = bm_ptp_watch_start(NULL, clock0.gm);
	}
	ret = bm_genl_resolve_ports(b, t, spec->host, ifindex, err);
	/* a pool fires its event itself (pool.c); no part has one */
	if (!ret && spec->host && spec->event_fn)
		ret = (bm_errorf(err, "an event in a pool's part"),
		       -EOPNOTSUPP);
	if (!ret)
		ret = bm_genl_wait_foreign(b, err);
	/* §23a: the routing update first, then 2 s for the DUT to settle
	 * before its ARP (or a bridge's learning) starts */
	if (!ret && t->n_rip) {
		/* a pool's part: its ports' updates as long before the
		 * parts' one instant as every part's lead (bm_hosts.h) */
		if (spec->host && spec->start_tai_ns > 0)
			bm_sleep_s(bm_tai_until_s(spec->start_tai_ns) -
				   bm_part_lead_s(t, spec));
		t_pre = bm_mono_s();
		ret = bm_rip_pre(&rip, t, spec->host, &lead, err);
		if (!ret)
			bm_sleep_s(fmin(lead, BM_RIP_SETTLE_S));
	}
	if (!ret && b->router)
		ret = bm_traffic_routes(t, spec->host, gw_mac, err);
	else if (!ret && (spec->learning || bm_traffic_has_macs(t)))
		ret = bm_traffic_learn(b, t, ifindex, spec->frame_size ?
				       spec->frame_size : 64,
				       spec->learning_pause_s, spec->learning,
				       err);
	if (!ret && bm_part_has_mgmt(t, spec->host))
		ret = bm_traffic_mgmt_port(t, b->router, err);
	if (!ret)
		ret = bm_traffic_add_all(b, t, spec, ifindex, gw_mac, intended,
					 &want, err);
	if (!ret)
		ret = bm_genl_hw_arm(b, err);
	/* the stream starts lead after the update (T0 - 7 s, REQ-TRIAL-2) */
	if (!ret && rip)
		bm_sleep_s(t_pre + lead - bm_mono_s());
	if (!ret)
		ret = bm_genl_trial_start_at(b->g, 0,
					     (uint64_t)spec->start_tai_ns,
					     BM_GENL_TRIAL_OWNED, err);
	if (ret)
		goto out;
	t0 = bm_mono_s() + bm_tai_until_s(spec->start_tai_ns);
	/* §11.2: from their port's host, whether it sends test frames or
	 * only receives them */
	if (bm_part_has_mgmt(t, spec->host)) {
		ret = bm_mgmt_start(&mgmt, &t->mgmt,
				    t->ports[t->mgmt.port].name,
				    t->ports[t->mgmt.port].ip4, t0,
				    spec->duration_s, err);
		if (ret) {
			bm_genl_trial_stop(b->g, NULL);
			goto out;
		}
	}
	/* §11.3's updates in the trial, from their ports' host whether
	 * it sends test frames or only receives them */
	ret = bm_rip_start(rip, t0, spec->duration_s, err);
	if (ret) {
		bm_genl_trial_stop(b->g, NULL);
		goto out;
	}
	if (!bm_part_sends(t, spec)) {
		/* a part that only receives runs until stopped: stopped when
		 * the other hosts' senders are done (the drain follows) */
		bm_sleep_s(t0 + want - bm_mono_s());
		ret = bm_genl_trial_stop(b->g, err);
		if (ret)
			goto out;
		goto counted;
	}
	if (spec->event_fn) {
		bm_sleep_s(spec->event_at_s - (bm_mono_s() - t0));
		res->event_fired_s = bm_mono_s() - t0;
		res->event_ret = spec->event_fn(spec->event_ctx);
	}
	ret = bm_genl_trial_wait(b->g, want * 2 + 30, &terr, err);
	if (ret < 0) {
		bm_genl_trial_stop(b->g, NULL);
		goto out;
	}
	if (ret == BMGEN_TRIAL_FAILED) {
		ret = bm_genl_trial_failed(terr, err);
		goto out;
	}
	if (ret != BMGEN_TRIAL_DONE) {
		bm_errorf(err, "trial was stopped");
		ret = -ECANCELED;
		goto out;
	}
	/* other hosts' frames to this part's receiving halves may still
	 * come: their senders end at the trial's end, not this one's */
	if (spec->host)
		bm_sleep_s(t0 + want - bm_mono_s());
counted:
	drain = spec->drain_s >= 0 ? spec->drain_s : BM_DEFAULT_DRAIN_S;
	/*
	 * R2544-B2B, RFC 2544 §26.4: a trial MUST last duration_s (>= 2 s)
	 * from its start to the end of counting.  A burst takes
	 * milliseconds, so waiting only drain_s after it counted the frames
	 * a slow DUT still held in its queue as lost, and a back-to-back
	 * search came out short (Q + b/A frames need Q/rate to leave).
	 */
	drain = fmax(drain, spec->duration_s - (bm_mono_s() - t0));
	bm_sleep_s(drain);
	closed = bm_genl_close_counting(b, err);
	if (closed < 0) {
		ret = closed;
		goto out;
	}
	/* the last query's answer may come up to a second after it */
	bm_mgmt_finish(mgmt, false, res);
	mgmt = NULL;
	bm_rip_finish(rip, false, res);
	rip = NULL;
	ret = bm_traffic_collect(b, spec, intended, tr, res, err);
	if (ret)
		goto out;
	ret = bm_genl_watch_late(b, spec, closed, res, err);
	if (ret)
		goto out;
	/* REQ-GEN-6: what the generator did not send is its shortfall
	 * (of the streams this host sends) */
	for (k = 0; k < t->n_streams; k++)
		if (bm_genl_part_sends_stream(t, spec, k) &&
		    tr->streams[k].sent < intended[k]) {
			res->shortfall += intended[k] - tr->streams[k].sent;
			res->generator_limited = true;
		}
	bm_traffic_stretch(t, spec->frame_size, tr, res);
	snprintf(res->ts_source, sizeof(res->ts_source), "sw");
	bm_traffic_note_frames(b, t);
	if (spec->host) {
		res->clock_before = clock0;
		bm_ptp_watch_end(watch, &res->clock_during);
		watch = NULL;
		bm_ptp_read(NULL, BM_PTP_TIMEOUT_MS, &res->clock_after);
		/* phc2sys's reports of the system clock from just before
		 * the part to its end, where a log is configured */
		bm_phc2sys_read(NULL, t0 - BM_PHC2SYS_LEAD_S, bm_mono_s(),
				&res->clock_system);
	}
	b->be.elapsed_s += bm_mono_s() - t0;
	ret = 0;
out:
	if (watch) {
		struct bm_clock_span unused;

		bm_ptp_watch_end(watch, &unused);
	}
	bm_mgmt_finish(mgmt, true, res);
	bm_rip_finish(rip, true, res);
	bm_traffic_result_free(own);
	free(ifindex);
	free(intended);
	free(gw_mac);
	return ret;
}

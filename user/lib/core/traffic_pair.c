// SPDX-License-Identifier: GPL-2.0
/*
 * A pair trial as N-port traffic: the one description every backend
 * runs (RFC 2544 §14 pair topologies, §26.4 bursts, R2544-RECOV's load
 * step, §26.2's tagged frame).  bm_run_trial() builds it for a spec
 * without traffic, so no backend reads the spec's pair fields and no two
 * engines must agree on what they mean.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bm_traffic.h"

/* The pair's port i: the job's port, or a name for a backend without a
 * port list (the simulator of a unit test). */
static void pair_port(const struct bm_backend *be, unsigned int i,
		      struct bm_port_spec *p)
{
	if (be && be->n_ports >= 2)
		snprintf(p->name, sizeof(p->name), "%s", be->port_names[i]);
	else
		snprintf(p->name, sizeof(p->name), "%s", i ? "rx" : "tx");
	p->line_rate_bps = be ? be->line_rate_bps : 0;
	bm_port_default_ip4(i, p->ip4);
}

/* The forward stream of spec: a counted stream at its rate (with its
 * tagged frame), or its one burst.  Its frames; 0 when it has none. */
static uint64_t pair_forward(const struct bm_trial_spec *spec,
			     struct bm_stream_spec *s)
{
	bm_stream_init(s, 0, 1, 0);
	s->load_unit = BM_LOAD_FPS;
	if (spec->pair.pattern == BM_PAT_BURST) {
		s->pattern = BM_STREAM_BURSTS;
		s->burst_len = (uint32_t)spec->pair.burst_frames;
		s->burst_count = 1;
		return spec->pair.burst_frames;
	}
	s->pattern = BM_STREAM_COUNT;
	s->load = spec->pair.rate_fps;
	s->count = (uint64_t)llround(spec->pair.rate_fps * spec->duration_s);
	if (spec->pair.tag && spec->pair.pattern == BM_PAT_RATE) {
		s->tag_seq = llround(spec->pair.tag_at_s * spec->pair.rate_fps);
		memcpy(s->tag_dst_ip4, spec->pair.tag_dst_ip4, 4);
	}
	return s->count;
}

int bm_traffic_of_pair(const struct bm_trial_spec *spec,
		       const struct bm_backend *be, struct bm_traffic *t,
		       struct bm_error *err)
{
	struct bm_stream_spec fwd, second;
	unsigned int i;

	bm_traffic_init(t);
	if (spec->pair.pattern == BM_PAT_BURST ? spec->pair.burst_frames > UINT32_MAX :
	    !(spec->pair.rate_fps >= 0 && spec->duration_s > 0 &&
	      isfinite(spec->pair.rate_fps) && isfinite(spec->duration_s)))
		return bm_errorf(err, "bad rate %g fps, duration %g s or "
				 "burst of %llu frames", spec->pair.rate_fps,
				 spec->duration_s,
				 (unsigned long long)spec->pair.burst_frames),
		       -EINVAL;
	if (spec->pair.pattern == BM_PAT_STEP &&
	    !(spec->pair.step_rate_fps >= 0 && spec->pair.step_duration_s > 0 &&
	      isfinite(spec->pair.step_rate_fps) &&
	      isfinite(spec->pair.step_duration_s)))
		return bm_errorf(err, "bad step rate %g fps or duration %g s",
				 spec->pair.step_rate_fps, spec->pair.step_duration_s),
		       -EINVAL;
	if (!pair_forward(spec, &fwd))
		return bm_errorf(err, "trial of 0 frames (rate %.3f fps, %.3f s)",
				 spec->pair.rate_fps, spec->duration_s), -EINVAL;
	second = fwd;
	second.tag_seq = -1;
	if (spec->pair.pattern == BM_PAT_STEP) {
		/* R2544-RECOV: the post-step load from the step on */
		second.load = spec->pair.step_rate_fps;
		second.count = (uint64_t)llround(spec->pair.step_rate_fps *
						 spec->pair.step_duration_s);
		second.start_s = spec->duration_s;
		if (!second.count)
			return bm_errorf(err, "step of 0 frames"), -EINVAL;
	} else if (spec->pair.topology == BM_TOPO_PAIR_BIDIR) {
		second.tx_port = 1;
		second.rx_port = 0;
	}
	t->n_ports = 2;
	for (i = 0; i < 2; i++)
		pair_port(be, i, &t->ports[i]);
	/* a search may probe above the line: what the generator cannot
	 * send is its shortfall to report (REQ-GEN-6), not a bad trial */
	t->overload_ok = true;
	if (bm_traffic_add_stream(t, &fwd, err) < 0 ||
	    ((spec->pair.pattern == BM_PAT_STEP ||
	      spec->pair.topology == BM_TOPO_PAIR_BIDIR) &&
	     bm_traffic_add_stream(t, &second, err) < 0)) {
		bm_traffic_free(t);
		return -ENOMEM;
	}
	return 0;
}

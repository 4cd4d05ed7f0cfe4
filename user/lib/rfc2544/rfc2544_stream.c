// SPDX-License-Identifier: GPL-2.0
/*
 * The data stream types of RFC 2544 (R2544-MOD, -BURSTY): the searches
 * and the frame loss steps ask for a constant stream at a rate; this
 * backend sits between them and the job's backend and sends that rate as
 * the modified stream the parameters ask for, through the N-port trial
 * engine (bm_traffic.h):
 *
 *   §21 bursts of n frames back to back at line rate, one burst every
 *   n / rate seconds (start to start), so that rate is their average and
 *   a search over the rate is the §21 search over the inter-burst
 *   interval at a constant burst size.
 *
 *   §18 an IMIX: one constant stream whose frames cycle through the mix
 *   (the sizes spread over the cycle by their weights), the rate in
 *   frames/s of the mix, its L1 load that of the mean size.
 *
 *   §11.1 broadcast frames: a share p of the rate as a stream of its own
 *   from the same port to ff:ff:ff:ff:ff:ff (IP 255.255.255.255, AMB-23),
 *   evenly spread between the test frames, the rest as the test stream.
 *   Their own stream id lets the receiver count them apart (SPEC: flags
 *   bit 3, which bmgen.ko cannot set; the id does the same).  They are
 *   counted where the stream's receiver is, the pair's rx port: a bridge
 *   floods them to every port but the input, which in a pair test is that
 *   port, and bmgen.ko counts a copy on any other attached port as
 *   misdirected, not received.  The trial's counts are the test frames'
 *   (REQ-2544-3: the search judges the other data, §11.1's aim), the
 *   broadcast frames' go to bcast_sent and bcast_received.
 *
 *   §16 multi-port (R2544-MULTI): every port of the job, the first half
 *   sending to the second round-robin (multiport) or every port to all
 *   the others (mesh), the rate per sending port; constant or IMIX.
 *
 * Every trial record then says what was sent (stream_type).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bm_traffic.h"
#include "rfc2544_int.h"

struct r2544_stream {
	struct bm_backend be;		/* first: the searches' view */
	struct bm_backend *inner;	/* the job's backend */
	const struct rfc2544_params *p;
	struct r2544_case c;		/* the case of the trials to come */
	unsigned int ab_next;		/* §11.3 updates sent so far */
};

bool r2544_stream_wanted(const struct rfc2544_params *p)
{
	return p->n_bursts > 0 || p->n_imix > 0 || p->broadcast_pct > 0 ||
	       p->filters || p->management || p->random_networks ||
	       p->random_macs || p->routing_updates ||
	       rfc2544_protocol_mix(p) ||
	       p->route_setup == RFC2544_ROUTES_RIP ||
	       p->topology >= BM_TOPO_MULTIPORT;
}

size_t r2544_cases(const struct rfc2544_params *p, struct r2544_case *c,
		   size_t max)
{
	size_t n = 0, i, k, nb = p->n_bursts ? p->n_bursts : 1;
	double mean = rfc2544_imix_mean(p);

	if (p->n_imix) {
		/* one search of the mix: the frame sizes are its own */
		if (!max)
			return 0;
		memset(c, 0, sizeof(*c));
		c->f = (uint32_t)lround(mean);
		c->mix = true;
		c->size = mean;
		return 1;
	}
	for (i = 0; i < p->n_sizes; i++)
		for (k = 0; k < nb && n < max; k++, n++) {
			c[n].i = i;
			c[n].f = p->frame_sizes[i];
			c[n].burst = p->n_bursts ? p->burst_sizes[k] : 0;
			c[n].mix = false;
			c[n].size = c[n].f;
		}
	return n;
}

/* What a trial of case c sends, in the report's words (§26). */
static void stream_type(const struct rfc2544_params *p,
			const struct r2544_case *c, char *buf, size_t len)
{
	if (c->burst)
		snprintf(buf, len, "bursty(%u)", c->burst);
	else if (c->mix)
		snprintf(buf, len, "imix");
	else if (p->broadcast_pct > 0)
		snprintf(buf, len, "broadcast %g %%", p->broadcast_pct);
	else if (p->filters)
		snprintf(buf, len, "filters(%u)", p->filters);
	else if (p->management)
		snprintf(buf, len, "management");
	else if (p->random_networks)
		snprintf(buf, len, "random(%u)", p->random_networks);
	else if (p->random_macs)
		snprintf(buf, len, "random-mac(%u)", p->random_macs);
	else if (p->routing_updates)
		snprintf(buf, len, "routing-updates");
	else if (rfc2544_protocol_mix(p)) {
		char mix[21];	/* "ipv4:1000,ipv6:1000" */

		rfc2544_protocols_text(p, mix, sizeof(mix));
		snprintf(buf, len, "protocols(%s)", mix);
	}
	else
		snprintf(buf, len, "constant");
}

void r2544_case_json(const struct r2544_run *r, const struct r2544_case *c,
		     json_object *e)
{
	char type[32], mix[160];

	if (c->mix) {
		/* no one frame size: the mix and its mean instead */
		rfc2544_imix_text(r->p, mix, sizeof(mix));
		bm_json_add_str(e, "imix", mix);
		bm_json_add_double(e, "mean_frame_size", c->size);
	} else {
		bm_json_add_u64(e, "frame_size", c->f);
	}
	/* §26: every result per frame size and per data stream type,
	 * "constant" for the unmodified stream */
	stream_type(r->p, c, type, sizeof(type));
	bm_json_add_str(e, "stream_type", type);
	if (!r2544_stream_wanted(r->p))
		return;
	if (r->p->broadcast_pct > 0)
		bm_json_add_double(e, "broadcast_pct", r->p->broadcast_pct);
	if (c->burst)
		bm_json_add_u64(e, "burst_frames", c->burst);
}

/*
 * The module's IMIX cycle from p's sizes and weights: each size as often
 * as its weight, spread over the cycle by a smooth weighted round robin
 * (at each step the size furthest behind its share goes next), so that
 * 7:4:1 is not seven 64-byte frames in a row.
 */
static void imix_cycle(const struct rfc2544_params *p, struct bm_traffic *t)
{
	long cur[RFC2544_MAX_IMIX] = { 0 }, total = 0;
	size_t i, best;
	unsigned int k;

	for (i = 0; i < p->n_imix; i++)
		total += p->imix_weights[i];
	t->n_imix = 0;
	for (k = 0; k < total && k < BM_TRAFFIC_MAX_IMIX; k++) {
		best = 0;
		for (i = 0; i < p->n_imix; i++) {
			cur[i] += p->imix_weights[i];
			if (cur[i] > cur[best])
				best = i;
		}
		cur[best] -= total;
		t->imix[t->n_imix++] = p->imix_sizes[best];
	}
}

/*
 * §17 (R2544-MIX): the test stream test at r fps over d s as one counted
 * stream per protocol of p, each its weight's share of r, interleaved
 * (stream j starts j/n of its own interval late); 0 or -errno.
 */
static int protocol_streams(const struct rfc2544_params *p,
			    struct bm_traffic *t,
			    const struct bm_stream_spec *test, double r,
			    double d, struct bm_error *err)
{
	struct bm_stream_spec ss;
	unsigned int w = 0;
	size_t j;

	for (j = 0; j < p->n_protocols; j++)
		w += p->protocol_weights[j];
	for (j = 0; j < p->n_protocols; j++) {
		ss = *test;
		ss.frame.ip_version = p->protocols[j];
		ss.load = r * p->protocol_weights[j] / w;
		ss.count = (uint64_t)llround(ss.load * d);
		ss.phase = (double)j / (double)p->n_protocols;
		if (!ss.count)
			return bm_errorf(err, "trial of 0 IPv%u frames (%.3f "
					 "fps, %.3f s)", p->protocols[j],
					 ss.load, d);
		if (bm_traffic_add_stream(t, &ss, err) < 0)
			return -ENOMEM;
	}
	return 0;
}

/* One direction's stream of a trial at spec's rate, tx -> rx. */
static int add_streams(const struct r2544_stream *s, struct bm_traffic *t,
		       unsigned int tx, unsigned int rx,
		       const struct bm_trial_spec *spec, struct bm_error *err)
{
	double r = spec->pair.rate_fps, d = spec->duration_s, bursts;
	double share = s->p->broadcast_pct / 100.0;
	struct bm_stream_spec ss;
	unsigned int q;
	int ret;

	bm_stream_init(&ss, tx, rx, 0);
	ss.load_unit = BM_LOAD_FPS;
	ss.load = r;
	if (s->c.burst) {
		/* as many bursts as the rate fills the duration with, at
		 * least one: the rate is exact, the trial is whole bursts */
		bursts = fmax(1.0, round(r * d / s->c.burst));
		if (bursts > UINT32_MAX)
			return bm_errorf(err, "%.0f bursts of %u frames: at "
					 "most %u", bursts, s->c.burst,
					 UINT32_MAX);
		ss.pattern = BM_STREAM_BURSTS;
		ss.burst_len = s->c.burst;
		ss.burst_count = (uint32_t)bursts;
		ss.burst_period_s = s->c.burst / r;
	} else {
		ss.pattern = BM_STREAM_COUNT;
		ss.imix = s->c.mix;
		ss.load = r * (1.0 - share);
		ss.count = (uint64_t)llround(ss.load * d);
		if (!ss.count)
			return bm_errorf(err, "trial of 0 frames (rate %.3f "
					 "fps, %.3f s)", r, d);
		/* §11.2: each query in place of a test frame of the tx
		 * port's stream, which keeps the port's rate at r */
		if (t->have_mgmt && tx == t->mgmt.port) {
			q = bm_mgmt_queries(&t->mgmt, d);
			if (ss.count <= q)
				return bm_errorf(err, "trial of %llu frames "
						 "(rate %.3f fps, %.3f s) for %u "
						 "management queries",
						 (unsigned long long)ss.count,
						 r, d, q);
			ss.count -= q;
			ss.load = ss.count / d;
		}
	}
	if (s->p->filters)
		return r2544_filter_streams(s->p, t, &ss, r, d, err);
	if (rfc2544_protocol_mix(s->p) && !s->c.burst)
		return protocol_streams(s->p, t, &ss, r, d, err);
	if (s->p->random_networks || s->p->random_macs)
		r2544_random_frame(s->p, &ss.frame);
	ret = bm_traffic_add_stream(t, &ss, err) < 0 ? -ENOMEM : 0;
	if (ret || !(share > 0.0))
		return ret;
	/* the broadcast frames, half a test frame interval after the
	 * first test frame (phase is in their own interval) */
	ss.load = r * share;
	ss.count = (uint64_t)llround(ss.load * d);
	if (!ss.count)
		return 0;	/* too short for one: bcast_sent says 0 */
	ss.phase = 0.5 * share / (1.0 - share);
	ss.frame.have_dst_mac = true;
	memset(ss.frame.dst_mac, 0xff, sizeof(ss.frame.dst_mac));
	memset(ss.frame.dst_ip, 0xff, 4);
	return bm_traffic_add_stream(t, &ss, err) < 0 ? -ENOMEM : 0;
}

/* Is stream k of t one of §11.1's broadcast streams? */
static bool is_bcast(const struct bm_traffic *t, unsigned int k)
{
	static const uint8_t bc[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

	return t->streams[k].frame.have_dst_mac &&
	       !memcmp(t->streams[k].frame.dst_mac, bc, 6);
}

/* Is stream k of t one of §11.4's probe streams (a denied source)? */
static bool is_probe(const struct r2544_stream *s, const struct bm_traffic *t,
		     unsigned int k)
{
	uint8_t src[4], dst[4];

	if (!s->p->filters)
		return false;
	r2544_filter_pair(0, src, dst);
	return memcmp(t->streams[k].frame.src_ip, src, 4) != 0;
}

/* Move the broadcast and probe streams' counts out of the test frames'
 * (res): the search judges the test frames (REQ-2544-3). */
static void split_other(const struct r2544_stream *s,
			const struct bm_traffic *t,
			const struct bm_traffic_result *tr,
			struct bm_trial_result *res)
{
	const struct bm_stream_result *b;
	unsigned int k, i;

	for (k = 0; k < t->n_streams; k++) {
		b = &tr->streams[k];
		/* §17: each protocol's test frames */
		i = t->streams[k].frame.ip_version == 6;
		if (!is_bcast(t, k) && !is_probe(s, t, k)) {
			res->proto_sent[i] += b->sent;
			res->proto_received[i] += b->received;
		}
		if (is_bcast(t, k)) {
			res->bcast_sent += b->sent;
			res->bcast_received += b->received;
		} else if (is_probe(s, t, k)) {
			res->probe_sent += b->sent;
			res->probe_received += b->received;
		} else {
			continue;
		}
		res->intended -= b->intended;
		res->attempted -= b->sent;
		res->received -= b->received;
		res->lost -= b->lost;
		res->duplicate -= b->duplicated;
		res->reordered -= b->reordered;
	}
}

/*
 * R2544-MULTI (§16): every port of the job, the streams of core's
 * builders (each input round-robin over its outputs, the same order on
 * every input, by the streams' phases), each input's rate shared by its
 * outputs, as counted streams of the trial's frames (or the IMIX).
 */
static int build_multi(const struct r2544_stream *s,
		       const struct bm_trial_spec *spec, struct bm_traffic *t,
		       struct bm_error *err)
{
	unsigned int k, per;
	int ret;

	ret = s->p->topology == BM_TOPO_MESH ? bm_topo_mesh(t, 100, err) :
					       bm_topo_multiport(t, 100, err);
	if (ret < 0)
		return -EINVAL;
	per = s->p->topology == BM_TOPO_MESH ? t->n_ports - 1 : t->n_ports / 2;
	for (k = 0; k < t->n_streams; k++) {
		struct bm_stream_spec *ss = &t->streams[k];

		ss->load_unit = BM_LOAD_FPS;
		ss->load = spec->pair.rate_fps / per;
		ss->pattern = BM_STREAM_COUNT;
		ss->imix = s->c.mix;
		ss->count = (uint64_t)llround(ss->load * spec->duration_s);
		if (!ss->count)
			return bm_errorf(err, "trial of 0 frames a stream "
					 "(%.3f fps over %u outputs, %.3f s)",
					 spec->pair.rate_fps, per,
					 spec->duration_s);
	}
	return 0;
}

static int build(const struct r2544_stream *s, const struct bm_trial_spec *spec,
		 struct bm_traffic *t, struct bm_error *err)
{
	const struct bm_backend *in = s->inner;
	bool multi = s->p->topology >= BM_TOPO_MULTIPORT;
	unsigned int i;
	int ret;

	bm_traffic_init(t);
	for (i = 0; i < (multi ? in->n_ports : 2); i++)
		if (bm_traffic_add_port(t, in->port_names[i],
					in->line_rate_bps, err) < 0)
			return -EINVAL;
	if (!(spec->pair.rate_fps > 0.0))
		return bm_errorf(err, "trial at %g fps", spec->pair.rate_fps);
	if (s->c.mix)
		imix_cycle(s->p, t);
	if (s->p->management) {
		/* §11.2, SPEC R2544-MOD: "one query per second" */
		t->have_mgmt = true;
		memcpy(t->mgmt.agent_ip4, s->p->mgmt_agent, 4);
		snprintf(t->mgmt.community, sizeof(t->mgmt.community), "%s",
			 s->p->mgmt_community);
		t->mgmt.ifindex = s->p->mgmt_ifindex;
		t->mgmt.port = 0;
		t->mgmt.interval_s = 1.0;
	}
	if (multi)
		ret = build_multi(s, spec, t, err);
	else
		ret = add_streams(s, t, 0, 1, spec, err);
	if (!ret && !multi && spec->pair.topology == BM_TOPO_PAIR_BIDIR)
		ret = add_streams(s, t, 1, 0, spec, err);
	return ret ? ret : r2544_route_msgs(s->p, t, s->ab_next, err);
}

static int stream_run(struct bm_backend *be, const struct bm_trial_spec *spec,
		      struct bm_trial_result *res, struct bm_error *err)
{
	struct r2544_stream *s = (struct r2544_stream *)be;
	struct bm_trial_spec ts = *spec;
	struct bm_traffic_result *tr = NULL;
	struct bm_traffic t;
	int ret;

	/* anything but a constant pair stream goes through as it is */
	if (spec->traffic || spec->pair.pattern != BM_PAT_RATE) {
		ret = bm_run_trial(s->inner, spec, res, err);
		goto out;
	}
	ret = build(s, spec, &t, err);
	if (!ret) {
		tr = bm_traffic_result_new(&t);
		if (!tr) {
			bm_errorf(err, "out of memory");
			ret = -ENOMEM;
		}
	}
	if (!ret) {
		ts.traffic = &t;
		ts.traffic_res = tr;
		ret = bm_run_trial(s->inner, &ts, res, err);
	}
	if (!ret) {
		split_other(s, &t, tr, res);
		r2544_route_result(s->p, &t, &s->ab_next, res);
	}
	/*
	 * §21: each burst back to back at the line.  One whose frames left
	 * with wider gaps (the module measures each frame against its
	 * burst's first departure) offered the DUT a milder burst than
	 * asked: the trial is the generator's, and never passes (REQ-GEN-6).
	 */
	if (!ret && s->c.burst && res->burst_gaps_measured &&
	    res->tx_burst_late_max_s > BM_BURST_GAP_TOL_S)
		res->generator_limited = true;
	bm_traffic_result_free(tr);
	bm_traffic_free(&t);
	stream_type(s->p, &s->c, res->stream_type, sizeof(res->stream_type));
	if (s->c.mix)
		res->mean_frame_size = s->c.size;
out:
	/* MLRsearch's time limit reads the clock of the backend it has */
	be->elapsed_s = s->inner->elapsed_s;
	memcpy(be->frame_hex, s->inner->frame_hex, sizeof(be->frame_hex));
	return ret;
}

static void stream_destroy(struct bm_backend *be)
{
	free(be);
}

static const struct bm_backend_ops stream_ops = {
	.run_trial = stream_run,
	.destroy = stream_destroy,
	.dut_reset = NULL,
	.translates_pairs = true,
};

struct r2544_stream *r2544_stream_new(struct bm_backend *inner,
				      const struct rfc2544_params *p,
				      struct bm_error *err)
{
	struct r2544_stream *s;

	if (inner->n_ports < 2)
		return bm_errorf(err, "a modified data stream (§11, §16, §21) "
				 "needs the job's tx and rx port names"), NULL;
	if (p->topology == BM_TOPO_MULTIPORT && inner->n_ports % 2)
		return bm_errorf(err, "topology multiport: %u ports; §16 "
				 "takes half of them as inputs, half as "
				 "outputs: an even number", inner->n_ports),
		       NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return bm_errorf(err, "out of memory"), NULL;
	s->be = *inner;
	s->be.ops = &stream_ops;
	s->be.priv = NULL;
	s->inner = inner;
	s->p = p;
	return s;
}

struct bm_backend *r2544_stream_backend(struct r2544_stream *s)
{
	return &s->be;
}

void r2544_stream_set_case(struct r2544_stream *s, const struct r2544_case *c)
{
	s->c = *c;
}

void r2544_stream_free(struct r2544_stream *s)
{
	free(s);
}

void r2544_stream_deviations(struct r2544_run *r)
{
	static const uint32_t rfc[] = { 16, 64, 256, 1024 };
	const struct rfc2544_params *p = r->p;
	char buf[160];
	size_t i, k, n = 0;
	int len;

	r2544_filter_deviations(r);
	r2544_mgmt_deviations(r);
	r2544_random_deviations(r);
	r2544_route_deviations(r);
	if (p->broadcast_pct > 0) {
		r2544_deviation(r, "R2544-MOD broadcast (§11.1): broadcast "
				"frames are a stream of their own from the tx "
				"port, evenly spread, counted apart by its "
				"stream id (bmgen.ko cannot set SPEC's flags "
				"bit 3) and only on the rx port; the throughput "
				"and loss are the test frames' (REQ-2544-3), "
				"throughput_fps the rate of all frames");
		if (p->broadcast_pct != 1.0)
			r2544_deviation(r, "R2544-MOD broadcast: §11.1 SHOULD "
					"be 1 % of the frames");
	}
	if (rfc2544_protocol_mix(p))
		r2544_deviation(r, "R2544-MIX (§17): the test frames spread "
				"over the listed IP versions by weight, each its "
				"own stream from the tx port, interleaved, UDP "
				"per App C (IPv6 between RFC 5180's "
				"2001:2:0:1::2 and 2001:2:0:2::2); the "
				"throughput and loss are of all of them together, "
				"each protocol's counts in \"protocols\"; §17 "
				"gives no interpretation of the result");
	if (p->n_imix)
		r2544_deviation(r, "R2544-MIX: §18 leaves a mixed frame size "
				"test to the tester (\"the authors do not have "
				"any idea how the results of such a test would be "
				"interpreted\"): one search over the rate in frames "
				"of the IMIX, its L1 load that of the mean size; "
				"the trial records' frame_size is the mean, "
				"rounded");
	if (!p->n_bursts)
		return;
	for (k = 0; k < 4; k++)
		for (i = 0; i < p->n_bursts; i++)
			if (p->burst_sizes[i] == rfc[k])
				n++;
	if (n < 4) {
		len = snprintf(buf, sizeof(buf), "R2544-BURSTY: §21 SHOULD run "
			       "bursts of 16, 64, 256 and 1024 frames; this "
			       "run:");
		for (i = 0; i < p->n_bursts && len < (int)sizeof(buf); i++)
			len += snprintf(buf + len, sizeof(buf) - len, " %u",
					p->burst_sizes[i]);
		r2544_deviation(r, buf);
	}
	r2544_deviation(r, "R2544-BURSTY: the §21 search over the interval "
			"between bursts is a search over their average rate "
			"(rate = burst / period); the result gives the "
			"minimum period and gap (AMB-22) at the throughput");
}

void r2544_protocols_report(struct r2544_run *r, json_object *e, size_t first)
{
	const struct rfc2544_params *p = r->p;
	uint64_t sent[2] = { 0 }, rcvd[2] = { 0 };
	json_object *a, *o;
	size_t k, j;

	if (!rfc2544_protocol_mix(p))
		return;
	for (k = first; k < r->log.n; k++)
		for (j = 0; j < 2; j++) {
			sent[j] += r->log.v[k].res.proto_sent[j];
			rcvd[j] += r->log.v[k].res.proto_received[j];
		}
	a = json_object_new_array();
	json_object_object_add(e, "protocols", a);
	for (j = 0; j < p->n_protocols; j++) {
		unsigned int i = p->protocols[j] == 6;

		o = json_object_new_object();
		json_object_array_add(a, o);
		bm_json_add_str(o, "protocol", i ? "ipv6" : "ipv4");
		bm_json_add_u64(o, "weight", p->protocol_weights[j]);
		bm_json_add_u64(o, "sent", sent[i]);
		bm_json_add_u64(o, "received", rcvd[i]);
		bm_json_add_double(o, "loss_pct", sent[i] ?
				   100.0 * (double)(sent[i] - rcvd[i]) /
				   (double)sent[i] : NAN);
	}
}

void r2544_stream_report(struct r2544_run *r, json_object *e, double thr,
			 size_t first, char *stmt, size_t len)
{
	double share = r->p->broadcast_pct / 100.0;
	const struct bm_trial_record *at = NULL;
	size_t k;

	if (!(share > 0.0))
		return;
	/* the last trial of this case at the throughput's rate */
	for (k = r->log.n; k > first && isfinite(thr); k--)
		if (r->log.v[k - 1].spec.pair.rate_fps == thr) {
			at = &r->log.v[k - 1];
			break;
		}
	bm_json_add_double(e, "test_frames_fps", thr * (1.0 - share));
	bm_json_add_double(e, "broadcast_fps", thr * share);
	if (!at) {
		bm_json_add_str(e, "broadcast_delivered", NULL);
		return;
	}
	bm_json_add_u64(e, "broadcast_sent", at->res.bcast_sent);
	bm_json_add_u64(e, "broadcast_received", at->res.bcast_received);
	/* §11.1: the level actually sent, if not the one asked for */
	bm_json_add_double(e, "broadcast_actual_pct", at->res.bcast_sent ?
			   100.0 * at->res.bcast_sent /
			   (at->res.bcast_sent + at->res.attempted) : NAN);
	bm_json_add_double(e, "broadcast_delivered_pct", at->res.bcast_sent ?
			   100.0 * at->res.bcast_received /
			   at->res.bcast_sent : NAN);
	bm_json_add_str(e, "broadcast_delivered", !at->res.bcast_sent ?
			"none sent" : at->res.bcast_received >=
			at->res.bcast_sent ? "all" :
			at->res.bcast_received ? "some" : "none");
	if (stmt)
		snprintf(stmt + strlen(stmt), len - strlen(stmt),
			 "; with %g %% broadcast frames, of which the rx port "
			 "received %llu of %llu in the trial at the throughput",
			 r->p->broadcast_pct,
			 (unsigned long long)at->res.bcast_received,
			 (unsigned long long)at->res.bcast_sent);
}

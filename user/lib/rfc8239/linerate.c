// SPDX-License-Identifier: GPL-2.0
/*
 * RFC 8239 §2 line-rate testing (R8239-LR-PP, -LR-MESH, -LR-SNAKE; SPEC
 * §8.1): every port sends at 99.98 % of its nominal line rate, no PPM
 * adjustment (a load above it is refused: [8239 §2.2] MUST), one trial per
 * frame size and repetition, and the report of [8239 §2.3] from that same
 * trial: throughput as % of bandwidth and of transmitted frames, drops as
 * a count and as % of line rate (F-6, AMB-12), latency and jitter (PDV)
 * min/avg/max.
 *
 * Topologies: pair (1<->2, 3<->4, ..., bidirectional by default, AMB-33),
 * mesh (every port to every other, its load split round robin, RFC 2889)
 * and snake (two tester ports on DUT ports 1 and N, the DUT cabled and
 * VLAN'd as bm_snake_plan() prints; no latency or jitter, [8239 §2.2]).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bm_events.h"
#include "bm_json.h"
#include "bm_repeat.h"
#include "bm_result.h"
#include "bm_search.h"
#include "bm_traffic.h"
#include "rfc8239_int.h"

#define LR_MAX_REPEAT	R8239_MAX_REPEAT
#define LR_LOAD_MAX	99.98		/* [8239 §2.2] MUST */

static int parse_lr_sizes(json_object *v, void *base, const char *key,
			  struct bm_error *err)
{
	struct r8239_lr_params *p = base;

	return bm_json_parse_sizes(v, key, 64, 9216, p->frame_sizes,
				   R8239_LR_MAX_SIZES, &p->n_sizes, err);
}

#define LO(f)	offsetof(struct r8239_lr_params, f)
#define PAIR	R8239_LR_MASK(R8239_LR_PAIR)
#define SNAKE	R8239_LR_MASK(R8239_LR_SNAKE)
#define MESH	R8239_LR_MASK(R8239_LR_MESH)

const struct bm_param r8239_lr_keys[] = {
	{ { "frame_sizes", BM_J_CUSTOM, LO(frame_sizes), 64, 9216, 0, 0, NULL,
	    parse_lr_sizes }, "B", "frame sizes with FCS, 1 to 160 (default "
	  "the RFC's 64 .. 9216 list)", "integer array" },
	{ { "step64", BM_J_BOOL, LO(step64), 0, 0, 0, 0, NULL, NULL }, "",
	  "every size from 64 to 9216 in 64-byte steps (144 sizes), the "
	  "RFC's \"ideal\"", NULL },
	{ { "load_pct", BM_J_DOUBLE, LO(load_pct), 0, 1000, BM_JK_MIN_EXCL, 0,
	    NULL, NULL }, "%", "load of every port, <= 99.98 (RFC 8239 §2.2 "
	  "MUST, no PPM adjustment)", NULL },
	{ { "trial_duration_s", BM_J_DOUBLE, LO(trial_duration_s), 0, 86400,
	    BM_JK_MIN_EXCL, 0, NULL, NULL }, "s", "length of each trial "
	  "[PROPOSED 60]; below 10 s is reported", NULL },
	{ { "bidir", BM_J_BOOL, LO(bidir), 0, 0, 0, PAIR | SNAKE, NULL, NULL },
	  "", "both directions at the load (AMB-33; snake: optional)", NULL },
	{ { "dut_ports", BM_J_UINT, LO(dut_ports), 0, 4096, 0, SNAKE, NULL,
	    NULL }, "", "the DUT's port count N, even, >= 4: set it, the "
	  "plan depends on it", NULL },
	{ { "vlan_base", BM_J_UINT, LO(vlan_base), 1, 4094, 0, SNAKE, NULL,
	    NULL }, "", "VLAN of DUT ports {1, 2}; {3, 4} get the next, ...",
	  NULL },
	{ { "latency_events", BM_J_ENUM, LO(latency_events), 0, 0, 0,
	    PAIR | MESH, bm_lat_event_names, NULL }, "", "FL (FILO, the "
	  "RFC 8238 MUST), FF, LL or LF (LIFO: never to compare DUTs)", NULL },
	{ { "comparison", BM_J_BOOL, LO(comparison), 0, 0, 0, PAIR | MESH,
	    NULL, NULL }, "", "the result compares DUTs: LF is refused "
	  "(RFC 8238 §2.2)", NULL },
	{ { "cal_constant_ns", BM_J_DOUBLE, LO(cal_constant_ns), 0, 1e9, 0,
	    PAIR | MESH, NULL, NULL }, "ns", "tester + cable constant C from "
	  "rfc8238.calibrate, subtracted from every latency (0: none)",
	  NULL },
	{ { "cal_constant_hw_ns", BM_J_DOUBLE, LO(cal_constant_hw_ns), 0, 1e9,
	    0, PAIR | MESH, NULL, NULL }, "ns", "the hardware-stamp C "
	  "(rfc8238.calibrate's hw entry), subtracted from the hardware "
	  "latency where the ports stamp (0: none)", NULL },
	R8239_COMMON_KEYS(LO, "frame size"),
	{ { NULL, 0, 0, 0, 0, 0, 0, NULL, NULL }, NULL, NULL, NULL },
};

const struct bm_jwriter r8239_lr_writers[] = {
	{ parse_lr_sizes, bm_json_u32s_at, LO(n_sizes) },
	{ NULL, NULL, 0 },
};

void r8239_lr_defaults(struct r8239_lr_params *p, enum r8239_lr_topo t)
{
	static const uint32_t common[] = { 64, 128, 256, 512, 1024, 1518,
					   4096, 8000, 9216 };

	memset(p, 0, sizeof(*p));
	p->topo = t;
	memcpy(p->frame_sizes, common, sizeof(common));	/* [8239 §2.3] */
	p->n_sizes = sizeof(common) / sizeof(common[0]);
	p->load_pct = LR_LOAD_MAX;
	p->trial_duration_s = 60.0;		/* [PROPOSED] from 2544 §24 */
	p->bidir = t == R8239_LR_PAIR;		/* AMB-33; snake: optional */
	p->dut_ports = 4;			/* the smallest snake: set N */
	p->vlan_base = 100;
	r8239_common_defaults(&p->c);
}

static const char *const topo_ids[] = { "rfc8239.line-rate-pair",
					"rfc8239.line-rate-mesh",
					"rfc8239.snake" };
static const char *const topo_refs[] = { "R8239-LR-PP", "R8239-LR-MESH",
					 "R8239-LR-SNAKE" };

double r8239_lr_max_trials(const struct r8239_lr_params *p)
{
	return (double)p->n_sizes * p->c.repeat;
}

int r8239_lr_check(struct r8239_lr_params *p, struct bm_error *err)
{
	const char *id = topo_ids[p->topo];
	char plan[8];
	uint32_t f;

	if (p->load_pct > LR_LOAD_MAX)
		return bm_errorf(err, "%s: load_pct: %g %% refused: RFC 8239 "
				 "§2.2 MUST send at most 99.98 %% of the "
				 "nominal line rate, with no PPM adjustment",
				 id, p->load_pct);
	if (p->comparison && p->latency_events == BM_EV_LF)
		return bm_errorf(err, "%s: latency_events: LF refused in a "
				 "comparison of DUTs (RFC 8238 §2.2: LIFO MUST "
				 "NOT be used to compare two DUTs)", id);
	if (p->step64) {
		p->n_sizes = 0;
		for (f = 64; f <= 9216; f += 64)
			p->frame_sizes[p->n_sizes++] = f;
	}
	if (p->topo == R8239_LR_SNAKE &&
	    bm_snake_plan(p->dut_ports, p->vlan_base, plan, sizeof(plan)) < 0)
		return bm_errorf(err, "%s: dut_ports: the DUT's port count, "
				 "even and >= 4, with VLANs vlan_base .. "
				 "vlan_base + N/2 - 1 within 4094 (got %u)",
				 id, p->dut_ports);
	return 0;
}

struct lr {
	struct bm_backend *be;
	const struct r8239_lr_params *p;
	bm_progress_fn progress;
	void *ctx;
	struct bm_error *err;
	struct bm_trial_log log;
	unsigned int n;
	bool learned;
};

/* What [8239 §2.3] reports of one trial. */
struct lr_meas {
	uint64_t tx, rx, drops;
	double thr_pct_tx;		/* item 4: rx / tx */
	double rx_pct_line_min;		/* item 3: the worst receiving port */
	double drops_pct_line;		/* item 5, F-6 / AMB-12 */
	double lat_min_ns, lat_mean_ns, lat_max_ns;	/* item 6-7 */
	double pdv_max_ns;		/* jitter (R8238-JIT) */
};

static int lr_traffic(struct lr *l, struct bm_traffic *t)
{
	const struct r8239_lr_params *p = l->p;
	unsigned int i;
	int ret = 0;

	if (r8239_traffic_ports(t, l->be, l->err))
		return -EINVAL;
	switch (p->topo) {
	case R8239_LR_PAIR:
		for (i = 0; i + 1 < l->n && ret >= 0; i += 2)
			ret = bm_topo_pair(t, i, i + 1, p->bidir, p->load_pct,
					   l->err);
		break;
	case R8239_LR_MESH:
		ret = bm_topo_mesh(t, p->load_pct, l->err);
		break;
	case R8239_LR_SNAKE:
		ret = bm_topo_snake(t, p->dut_ports, p->bidir, p->load_pct,
				    l->err);
		break;
	}
	return ret < 0 ? ret : 0;
}

/*
 * Port i's own latency (§2.3: per port), of the streams received on it:
 * the mean over their frames and the largest maximum, as the event asked
 * for less C (as the repetition's), and its PDV (RFC 5481 §4.2), the
 * largest of its streams' max - min and p99 - min; nothing for a port
 * that received no stamped frame.
 */
static void lr_port_latency(json_object *po, const struct bm_traffic_result *r,
			    const struct bm_traffic *t, unsigned int i,
			    enum bm_lat_event ev, double c, double s)
{
	double sum = 0, max = -INFINITY, pdv = 0, pdv99 = 0;
	uint64_t n = 0;
	unsigned int k;

	for (k = 0; k < t->n_streams; k++) {
		const struct bm_latency *lat = &r->streams[k].latency;

		if (t->streams[k].rx_port != i || !lat->count)
			continue;
		sum += lat->mean_ns * (double)lat->count;
		n += lat->count;
		max = fmax(max, lat->max_ns);
		pdv = fmax(pdv, r->streams[k].pdv_ns);
		pdv99 = fmax(pdv99, lat->p99_ns - lat->min_ns);
	}
	if (!n)
		return;
	bm_json_add_double(po, "latency_mean_ns",
			   bm_lat_event_ns(ev, sum / (double)n - c, s, s));
	bm_json_add_double(po, "latency_max_ns",
			   bm_lat_event_ns(ev, max - c, s, s));
	bm_json_add_double(po, "jitter_pdv_max_ns", pdv);
	bm_json_add_double(po, "jitter_pdv_p99_ns", pdv99);
}

static int lr_trial(struct lr *l, uint32_t f, unsigned int rep,
		    json_object *reps, struct lr_meas *m)
{
	const struct r8239_lr_params *p = l->p;
	struct bm_traffic_result *r = NULL;
	struct bm_trial_spec spec;
	struct bm_trial_result res;
	struct bm_traffic t;
	json_object *o, *ports, *po;
	double span, s = bm_serialisation_ns(f, l->be->line_rate_bps);
	double c = p->cal_constant_ns;
	double pdv99, ipdv_min, ipdv_mean, ipdv_max;
	enum bm_lat_event ev = p->latency_events;
	unsigned int i, n_rx = 0, n_tx = 0;
	uint64_t ipdv_n;
	char reason[96];
	int ret;

	ret = lr_traffic(l, &t);
	if (ret)
		goto out;
	r = bm_traffic_result_new(&t);
	if (!r) {
		ret = -ENOMEM;
		bm_errorf(l->err, "out of memory");
		goto out;
	}
	r8239_trial_spec(&spec, &p->c, f, p->trial_duration_s, !l->learned,
			 &t, r);
	spec.latency = p->topo != R8239_LR_SNAKE;
	snprintf(reason, sizeof(reason), "%u B rep %u", f, rep);
	ret = bm_search_trial(l->be, &spec, &res, &l->log, "line-rate", reason,
			      l->progress, l->ctx, l->err);
	if (ret)
		goto out;
	l->learned = true;
	memset(m, 0, sizeof(*m));
	m->tx = res.attempted;
	m->rx = res.received;
	m->drops = res.lost;
	m->thr_pct_tx = m->tx ? 100.0 * (double)m->rx / (double)m->tx : NAN;
	m->rx_pct_line_min = INFINITY;
	o = json_object_new_object();
	ports = json_object_new_array();
	for (i = 0; i < t.n_ports; i++) {
		const struct bm_port_result *pr = &r->ports[i];

		po = json_object_new_object();
		bm_json_add_str(po, "port", t.ports[i].name);
		bm_json_add_u64(po, "tx_frames", pr->tx_frames);
		bm_json_add_u64(po, "rx_frames", pr->rx_frames);
		bm_json_add_u64(po, "lost", pr->lost);
		bm_json_add_double(po, "tx_pct_line", pr->tx_load_pct);
		bm_json_add_double(po, "rx_pct_line", pr->rx_load_pct);
		if (p->topo != R8239_LR_SNAKE)
			lr_port_latency(po, r, &t, i, ev, c, s);
		json_object_array_add(ports, po);
		if (pr->tx_frames)
			n_tx++;
		if (pr->rx_frames || pr->lost) {
			n_rx++;
			m->rx_pct_line_min = fmin(m->rx_pct_line_min,
						  pr->rx_load_pct);
		}
	}
	if (!n_rx)
		m->rx_pct_line_min = 0.0;
	/* F-6 / AMB-12: drops over what the sending ports could carry */
	span = res.actual_duration_s > 0 ? res.actual_duration_s :
	       p->trial_duration_s;
	m->drops_pct_line = n_tx ? 100.0 * (double)m->drops /
			    (bm_fps_max(l->be->line_rate_bps, f) * span * n_tx) :
			    0.0;
	bm_json_add_u64(o, "tx_frames", m->tx);
	bm_json_add_u64(o, "rx_frames", m->rx);
	bm_json_add_u64(o, "drops", m->drops);
	bm_json_add_double(o, "drops_pct_line", m->drops_pct_line);
	bm_json_add_double(o, "throughput_pct_tx", m->thr_pct_tx);
	bm_json_add_double(o, "rx_pct_line_min", m->rx_pct_line_min);
	if (p->topo != R8239_LR_SNAKE && res.latency.count) {
		/* R8238-LAT: the event asked for from the measured first
		 * bit in to first bit out (FF) less C, with the frame's
		 * serialisation on the input and output links (REQ-TS-2,
		 * equal line rates) */
		m->lat_min_ns = bm_lat_event_ns(ev, res.latency.min_ns - c,
						s, s);
		m->lat_mean_ns = bm_lat_event_ns(ev, res.latency.mean_ns - c,
						 s, s);
		m->lat_max_ns = bm_lat_event_ns(ev, res.latency.max_ns - c,
						s, s);
		for (i = 0; i < t.n_streams; i++)
			m->pdv_max_ns = fmax(m->pdv_max_ns, r->streams[i].pdv_ns);
		bm_json_add_double(o, "latency_min_ns", m->lat_min_ns);
		bm_json_add_double(o, "latency_mean_ns", m->lat_mean_ns);
		bm_json_add_double(o, "latency_max_ns", m->lat_max_ns);
		bm_json_add_double(o, "latency_p99_ns", bm_lat_event_ns(
			ev, res.latency.p99_ns - c, s, s));
		/* jitter: PDV (R8238-JIT, RFC 5481 §4.2), frames of one
		 * size: min 0, mean = mean - min latency of all streams,
		 * max = the worst stream's max - min */
		bm_json_add_double(o, "jitter_pdv_min_ns", 0.0);
		bm_json_add_double(o, "jitter_pdv_mean_ns",
				   res.latency.mean_ns - res.latency.min_ns);
		bm_json_add_double(o, "jitter_pdv_max_ns", m->pdv_max_ns);
		/* REQ-STAT-3: the 99th percentile of PDV, the worst
		 * stream's (p99 - min of its own latency), and IPDV
		 * (RFC 5481 §4.1) signed, of consecutive frames */
		pdv99 = NAN;
		for (i = 0; i < t.n_streams; i++)
			if (r->streams[i].latency.count)
				pdv99 = fmax(isnan(pdv99) ? 0 : pdv99,
					     r->streams[i].latency.p99_ns -
					     r->streams[i].latency.min_ns);
		bm_json_add_double(o, "jitter_pdv_p99_ns", pdv99);
		bm_ipdv_fold(r, &ipdv_n, &ipdv_min, &ipdv_mean, &ipdv_max);
		bm_json_add_u64(o, "ipdv_pairs", ipdv_n);
		bm_json_add_double(o, "ipdv_min_ns", ipdv_min);
		bm_json_add_double(o, "ipdv_mean_ns", ipdv_mean);
		bm_json_add_double(o, "ipdv_max_ns", ipdv_max);
		/* §2.3 item 8: the population per latency bucket, of FF
		 * (PDV's is the same, less the minimum) */
		json_object_object_add(o, "latency_ff_histogram",
				       bm_lat_hist_json(res.lat_hist));
		bm_json_add_bool(o, "same_iteration", true);
	}
	if (p->topo != R8239_LR_SNAKE && res.hw.on && res.hw.count) {
		/* the same event from the NICs' hardware stamps, less their
		 * own C; the software latency of the same frames beside it */
		double ch = p->cal_constant_hw_ns;

		bm_json_add_u64(o, "hw_latency_frames", res.hw.count);
		bm_json_add_double(o, "hw_latency_min_ns",
				   bm_lat_event_ns(ev, res.hw.min_ns - ch, s, s));
		bm_json_add_double(o, "hw_latency_mean_ns",
				   bm_lat_event_ns(ev, res.hw.mean_ns - ch, s, s));
		bm_json_add_double(o, "hw_latency_max_ns",
				   bm_lat_event_ns(ev, res.hw.max_ns - ch, s, s));
		bm_json_add_double(o, "hw_same_frames_sw_mean_ns",
				   bm_lat_event_ns(ev, res.hw.sw_mean_ns - c, s, s));
		bm_json_add_double(o, "hw_accuracy_ns", res.hw.accuracy_ns);
	}
	json_object_object_add(o, "ports", ports);
	json_object_array_add(reps, o);
out:
	bm_traffic_result_free(r);
	bm_traffic_free(&t);
	return ret;
}

static int lr_size(struct lr *l, uint32_t f, json_object *sizes)
{
	const struct r8239_lr_params *p = l->p;
	double rx[LR_MAX_REPEAT], dr[LR_MAX_REPEAT];
	json_object *e, *reps;
	struct bm_repeat st;
	struct lr_meas m;
	unsigned int r;
	uint64_t drops = 0;
	int ret = 0;

	e = json_object_new_object();
	bm_json_add_u64(e, "frame_size", f);
	bm_json_add_double(e, "theoretical_max_fps",
			   bm_fps_max(l->be->line_rate_bps, f));
	bm_json_add_double(e, "offered_fps_per_port", bm_fps_max(
		l->be->line_rate_bps, f) * p->load_pct / 100.0);
	reps = json_object_new_array();
	json_object_object_add(e, "repetitions", reps);
	json_object_array_add(sizes, e);
	for (r = 0; r < p->c.repeat; r++) {
		ret = lr_trial(l, f, r + 1, reps, &m);
		if (ret)
			break;
		rx[r] = m.rx_pct_line_min;
		dr[r] = (double)m.drops;
		drops += m.drops;
	}
	bm_json_add_u64(e, "drops", drops);
	bm_repeat_of(rx, r, &st);
	json_object_object_add(e, "rx_pct_line_min", bm_repeat_to_json(&st, rx));
	bm_repeat_of(dr, r, &st);
	json_object_object_add(e, "drops_per_trial", bm_repeat_to_json(&st, dr));
	return ret;
}

int r8239_line_rate_run(struct bm_backend *be, const struct r8239_lr_params *p,
			bm_progress_fn progress, void *ctx,
			json_object **result, struct bm_error *err)
{
	struct r8239_order order;
	struct lr l = { .be = be, .p = p, .progress = progress, .ctx = ctx,
			.err = err };
	struct r8239_lr_params q = *p;
	json_object *res, *sizes, *dev, *a;
	unsigned int need = p->topo == R8239_LR_MESH ? 3 : 2;
	char *plan = NULL, *line, *save;
	size_t i;
	int ret, len;

	*result = NULL;
	ret = r8239_lr_check(&q, err);
	if (ret)
		return ret;
	l.p = &q;
	l.n = be->n_ports;
	if (l.n < need)
		return bm_errorf(err, "%s needs %u ports, %u given",
				 topo_ids[p->topo], need, l.n);
	if (p->topo == R8239_LR_SNAKE && l.n != 2)
		return bm_errorf(err, "%s: exactly 2 tester ports (DUT ports 1 "
				 "and N), %u given", topo_ids[p->topo], l.n);
	res = json_object_new_object();
	dev = json_object_new_array();
	r8239_ports_begin(be, &q.c, &order, res);
	bm_json_add_u64(res, "ports", l.n);
	bm_json_add_double(res, "load_pct", q.load_pct);
	bm_json_add_u64(res, "ppm_adjustment", 0);
	bm_json_add_double(res, "line_rate_bps", be->line_rate_bps);
	if (p->topo == R8239_LR_SNAKE) {
		/* REQ-8239-3: the DUT's cabling and VLANs, one line each */
		len = bm_snake_plan(q.dut_ports, q.vlan_base, NULL, 0);
		plan = malloc((size_t)len + 1);
		a = json_object_new_array();
		if (plan && bm_snake_plan(q.dut_ports, q.vlan_base, plan,
					  (size_t)len + 1) >= 0)
			for (line = strtok_r(plan, "\n", &save); line;
			     line = strtok_r(NULL, "\n", &save))
				json_object_array_add(a,
					json_object_new_string(line));
		free(plan);
		json_object_object_add(res, "dut_plan", a);
		bm_json_add_u64(res, "dut_ports", q.dut_ports);
	} else {
		/* R8238-LAT, R8238-CAL, REQ-TS-5: the event, and whether C
		 * was subtracted; their deviations come first */
		r8239_latency_said(res, dev, q.latency_events,
				   q.cal_constant_ns);
		/* and the hardware latency's own C */
		bm_json_add_bool(res, "cal_constant_hw_subtracted",
				 q.cal_constant_hw_ns > 0);
		bm_json_add_double(res, "cal_constant_hw_ns",
				   q.cal_constant_hw_ns);
	}
	sizes = json_object_new_array();
	json_object_object_add(res, "per_size", sizes);
	for (i = 0; i < q.n_sizes && !ret; i++)
		ret = lr_size(&l, q.frame_sizes[i], sizes);
	r8239_ports_end(be, &order);
	if (q.trial_duration_s < 10.0)
		json_object_array_add(dev, json_object_new_string(
			"trials shorter than 10 s (SPEC R8239-LR: >= 10 s)"));
	if (p->topo == R8239_LR_PAIR && !q.bidir)
		json_object_array_add(dev, json_object_new_string(
			"pairs one way only (AMB-33 takes both directions)"));
	if (p->topo == R8239_LR_SNAKE)
		json_object_array_add(dev, json_object_new_string(
			"snake: latency and jitter are not reported (RFC 8239 "
			"§2.2)"));
	r8239_flag_rsd(res, dev);
	*result = bm_result_envelope(topo_ids[p->topo], topo_refs[p->topo],
				     bm_json_params_to_json(r8239_lr_keys,
					R8239_LR_MASK(q.topo), &q,
					r8239_lr_writers), &l.log, NULL, res,
				     dev, be);
	bm_trial_log_free(&l.log);
	return ret;
}

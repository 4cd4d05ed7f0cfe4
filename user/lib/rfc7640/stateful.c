// SPDX-License-Identifier: GPL-2.0
/*
 * RFC 7640 draft's queue/scheduler and shaper tests with stateful traffic
 * (TM-QS-2 §6.2.1.2, TM-SHP-2 §6.3.1.2; TM-MET-SF, TM-CAP-SF, TM-TTP),
 * on the backend's TCP engine: clients on the job's first port (the
 * ingress side), servers on the second (the egress side), through the
 * DUT's queue or shaper and the network delay emulator (NDE) that a
 * stateful test MUST use.
 *
 * The applications: bulk transfer and micro burst MUST be performed
 * (§6.2.1.2), the web, business, e-commerce, e-mail and SMB patterns
 * SHOULD; `apps` lists them.  By default each is its own test (Tr runs of
 * Td), as the acceptance set-ups run bulk and micro with different
 * windows; `concurrent` runs them as one mixture.  The mixture is stated
 * as % of the bottleneck (BB or SR): bulk's configured rate (paced,
 * SO_MAX_PACING_RATE; 0 = as fast as TCP goes), micro's bursts over their
 * interval; scripted patterns have no rate of their own (their shares are
 * reported as measured).
 *
 * A run lasts Td, and with bulk until its bytes are through (at most 2
 * Td): other applications run on meanwhile.
 *
 * Per run and application: throughput (L4 bytes delivered in the window,
 * a retransmitted byte once), TTPET (bulk: its bytes, default rate x Td /
 * connections as the draft says; micro: first burst write to last burst
 * acknowledged, AMB-49; scripts: per execution), bytes in and out, TCP
 * efficiency (F-12, the sender's own counts) and buffer delay (F-13
 * against each connection's smallest RTT, tcpi_min_rtt: the path through
 * the NDE before a queue built).  Over the runs each is a repeatability block (min,
 * mean, max: "min/max/avg per application session", REQ-TM-3).  No
 * verdicts (REQ-TM-1).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bm_json.h"
#include "bm_repeat.h"
#include "bm_result.h"
#include "bm_tcp.h"
#include "rfc7640_int.h"

#define SF(f)	offsetof(struct tm_sf_params, f)

/* "bulk", "micro", "web-s", ...: bm_ttp_names, at most one of each. */
static int parse_apps(json_object *v, void *base, const char *key,
		      struct bm_error *err)
{
	struct tm_sf_params *p = base;
	size_t i, n;
	unsigned int k, mask = 0;

	if (!json_object_is_type(v, json_type_array) ||
	    !(n = json_object_array_length(v)) || n > BM_TTP_N)
		return bm_errorf(err, "%s: an array of 1 .. %d pattern names",
				 key, BM_TTP_N);
	for (i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(v, i);
		const char *s = json_object_get_string(e);

		for (k = 0; json_object_is_type(e, json_type_string) &&
		     bm_ttp_names[k]; k++)
			if (!strcmp(bm_ttp_names[k], s))
				break;
		if (!json_object_is_type(e, json_type_string) ||
		    !bm_ttp_names[k])
			return bm_errorf(err, "%s[%zu]: '%.20s' is no pattern "
					 "(bulk, micro, web-s, web-c, biz-s, "
					 "biz-c, ecom, email, smb-read, "
					 "smb-write)", key, i,
					 s ? s : "");
		if (mask & (1u << k))
			return bm_errorf(err, "%s[%zu]: %s twice", key, i, s);
		mask |= 1u << k;
	}
	p->apps = mask;
	return 0;
}

/* DSCPs of connection 0, 1, ... of each application. */
static int parse_conn_dscps(json_object *v, void *base, const char *key,
			    struct bm_error *err)
{
	struct tm_sf_params *p = base;
	size_t i, n;

	if (!json_object_is_type(v, json_type_array) ||
	    (n = json_object_array_length(v)) > TM_SF_MAX_CONN)
		return bm_errorf(err, "%s: an array of at most %d DSCPs", key,
				 TM_SF_MAX_CONN);
	for (i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(v, i);
		int64_t d = json_object_get_int64(e);

		if (!json_object_is_type(e, json_type_int) || d < 0 || d > 63)
			return bm_errorf(err, "%s[%zu]: a DSCP 0 .. 63", key, i);
		p->conn_dscps[i] = (uint8_t)d;
	}
	p->n_conn_dscps = (unsigned int)n;
	return 0;
}

static int parse_cc(json_object *v, void *base, const char *key,
		    struct bm_error *err)
{
	return bm_tcp_cc_parse(v, ((struct tm_sf_params *)base)->cc, key, err);
}

static json_object *conn_dscps_json(const struct bm_jwriter *w,
				    const struct bm_jkey *k, const void *base)
{
	const struct tm_sf_params *p = base;
	json_object *a = json_object_new_array();
	unsigned int i;

	(void)w;
	(void)k;
	for (i = 0; i < p->n_conn_dscps; i++)
		json_object_array_add(a, json_object_new_int(p->conn_dscps[i]));
	return a;
}

/* mask 1: rfc7640.queue-stateful's keys; 2: rfc7640.shaper-stateful's */
const struct bm_param tm_sf_keys[] = {
	{ { "bb_bps", BM_J_DOUBLE, SF(rate_bps), 0, 1e13, BM_JK_DERIVED, 1,
	    NULL, NULL }, "bit/s", "BB: the egress's bottleneck bandwidth "
	  "(the BDP's and the mixture's base); unset: the line rate", NULL },
	{ { "sr_bps", BM_J_DOUBLE, SF(rate_bps), 0, 1e13, BM_JK_DERIVED, 2,
	    NULL, NULL }, "bit/s", "SR: the shaper's rate (the BDP's and the "
	  "mixture's base); unset: the line rate", NULL },
	{ { "ql_bytes", BM_J_BYTES, SF(ql), 0, 1e12, 0, 0, NULL, NULL }, "B",
	  "QL: the DUT's queue (or IQ of the shaper), reported; BDP must "
	  "exceed it (TM-QS-2)", NULL },
	{ { "scheduler", BM_J_ENUM, SF(scheduler), 0, 0, 0, 0,
	    tm_sf_sched_names, NULL }, "", "the DUT's scheduling technique, "
	  "reported (DUT configuration summary)", NULL },
	{ { "nde_rtt_ms", BM_J_DOUBLE, SF(nde_rtt_ms), 0, 10000,
	    BM_JK_DERIVED, 0, NULL, NULL }, "ms", "the RTT the network delay "
	  "emulator is set to (TM-CAP-SF: stateful tests MUST use one); "
	  "unset: a deviation, and the BDP from 10 ms [PROPOSED]", NULL },
	{ { "rtt_tolerance_pct", BM_J_DOUBLE, SF(rtt_tol_pct), 0, 1000, 0, 0,
	    NULL, NULL }, "%", "a baseline RTT further from nde_rtt_ms is a "
	  "deviation [PROPOSED 10]", NULL },
	{ { "force", BM_J_BOOL, SF(force), 0, 0, 0, 0, NULL, NULL }, "",
	  "run without a passing rfc7640.nde-verify of the same RTT on these "
	  "ports (REQ-TM-2; bmctl --force): a deviation", NULL },
	{ { "apps", BM_J_CUSTOM, SF(apps), 0, 0, 0, 0, NULL, parse_apps }, "",
	  "the applications (TM-TTP); bulk and micro MUST be among them",
	  "string array" },
	{ { "concurrent", BM_J_BOOL, SF(concurrent), 0, 0, 0, 0, NULL, NULL },
	  "", "run the applications as one mixture (else one test each)",
	  NULL },
	{ { "connections", BM_J_UINT, SF(connections), 1, 16, 0, 0, NULL,
	    NULL }, "", "connections of each application", NULL },
	{ { "bulk_pct", BM_J_DOUBLE, SF(bulk_pct), 0, 1000, 0, 0, NULL, NULL },
	  "%", "bulk's rate in % of BB/SR, all its connections (paced); 0: "
	  "as fast as TCP goes", NULL },
	{ { "bulk_bytes", BM_J_BYTES, SF(bulk_bytes), 0, 1e15, 0, 0, NULL,
	    NULL }, "B", "bytes per bulk connection; 0: rate x Td / "
	  "connections (TM-TTP-BULK)", NULL },
	{ { "burst_bytes", BM_J_BYTES, SF(burst_bytes), 1, 1e12, 0, 0, NULL,
	    NULL }, "B", "micro: one write per connection each interval "
	  "[PROPOSED 16 KB, SPEC's acceptance]", NULL },
	{ { "burst_interval_s", BM_J_DOUBLE, SF(burst_interval_s), 0, 3600,
	    BM_JK_MIN_EXCL, 0, NULL, NULL }, "s", "micro: write to write "
	  "[PROPOSED 0.1]", NULL },
	{ { "warmup_bytes", BM_J_BYTES, SF(warmup_bytes), 0, 1e12,
	    BM_JK_DERIVED, 0, NULL, NULL }, "B", "micro: before the first "
	  "burst (unset: 10 x BDP, TM-TTP-MICRO)", NULL },
	{ { "random", BM_J_BOOL, SF(random), 0, 0, 0, 0, NULL, NULL }, "",
	  "scripts: App B values drawn (log-normal, AMB-40), else Ave", NULL },
	{ { "seed", BM_J_U64, SF(seed), 0, 1e18, 0, 0, NULL, NULL }, "",
	  "scripts: the draws' seed, reported", NULL },
	{ { "cc", BM_J_CUSTOM, SF(cc), 0, 0, 0, 0, NULL, parse_cc }, "",
	  "TCP congestion control; unset: the system's, reported", "string" },
	{ { "sndbuf", BM_J_BYTES, SF(sndbuf), 0, 1 << 30, 0, 0, NULL, NULL },
	  "B", "SO_SNDBUF (the SSB, TM-SHP-2: MUST fill the BDP); 0: the "
	  "system's", NULL },
	{ { "rcvbuf", BM_J_BYTES, SF(rcvbuf), 0, 1 << 30, 0, 0, NULL, NULL },
	  "B", "SO_RCVBUF; 0: the system's", NULL },
	{ { "window_clamp", BM_J_BYTES, SF(window_clamp), 0, 1 << 30, 0, 0,
	    NULL, NULL }, "B", "TCP_WINDOW_CLAMP, exact windows (REQ-TM-7); "
	  "0: none", NULL },
	{ { "tr", BM_J_UINT, SF(tr), 1, TM_MAX_TR, 0, 0, NULL, NULL }, "",
	  "Tr: test runs, statistics over them (TM §6, REQ-TM-3)", NULL },
	{ { "td_s", BM_J_DOUBLE, SF(td_s), 0, 86400, BM_JK_MIN_EXCL, 0, NULL,
	    NULL }, "s", "Td: test duration (60 s queue, 30 s shaper; "
	  "AMB-42)", NULL },
	{ { "dscp", BM_J_UINT, SF(dscp), 0, 63, 0, 0, NULL, NULL }, "",
	  "DSCP of every segment, both ways", NULL },
	{ { "conn_dscps", BM_J_CUSTOM, 0, 0, 63, 0, 0, NULL,
	    parse_conn_dscps }, "", "DSCP of connection 0, 1, ... of each "
	  "application in place of dscp (classes through a scheduler)",
	  "integer array" },
	{ { NULL, 0, 0, 0, 0, 0, 0, NULL, NULL }, NULL, NULL, NULL },
};

const struct bm_jwriter tm_sf_writers[] = {
	{ parse_apps, tm_apps_at, 0 },
	{ parse_cc, bm_json_string_at, 0 },
	{ parse_conn_dscps, conn_dscps_json, 0 },
	{ NULL, NULL, 0 },
};

const char *const tm_sf_sched_names[] = { "fifo", "sp", "wfq", "sp_wfq",
					   "shaper", "other", NULL };

void tm_sf_defaults(struct tm_sf_params *p)
{
	memset(p, 0, sizeof(*p));
	p->apps = 1u << BM_TTP_BULK | 1u << BM_TTP_MICRO;
	p->connections = 1;
	p->rtt_tol_pct = 10;		/* [PROPOSED] */
	p->burst_bytes = 16000;		/* [PROPOSED] SPEC's acceptance */
	p->burst_interval_s = 0.1;	/* [PROPOSED] */
	p->warmup_bytes = 0;		/* derived: 10 x BDP */
	p->tr = 10;			/* TM §6: at least 10 */
	p->td_s = 60;			/* §6.2.1.2 */
	p->scheduler = TM_SF_FIFO;
}

void tm_sf_shaper_defaults(struct tm_sf_params *p)
{
	tm_sf_defaults(p);
	p->shaper = true;
	p->td_s = 30;			/* §6.3.1.2 */
	p->scheduler = TM_SF_SHAPER;
}

static const char *name_of(const struct tm_sf_params *p)
{
	return p->shaper ? "rfc7640.shaper-stateful" :
			   "rfc7640.queue-stateful";
}

int tm_sf_check(const struct tm_sf_params *p, struct bm_error *err)
{
	if (p->connections * (unsigned int)__builtin_popcount(p->apps) >
	    BM_TCP_MAX_CONN)
		return bm_errorf(err, "%s: connections: %u x %d applications "
				 "is over %d", name_of(p), p->connections,
				 __builtin_popcount(p->apps), BM_TCP_MAX_CONN);
	return 0;
}

double tm_sf_max_trials(const struct tm_sf_params *p)
{
	/* no frame trials; the runs, for bmd's bound */
	return (double)p->tr * __builtin_popcount(p->apps);
}

enum { M_THR, M_TTPET, M_EFF, M_BUFD, M_RTT, M_IN, M_OUT, M_N };
static const char *const m_names[M_N] = {
	"throughput_bps", "ttpet_s", "tcp_efficiency_pct",
	"buffer_delay_pct", "rtt_avg_ms", "bytes_in", "bytes_out",
};

/* The spec of one test: apps (a mask) with p's connections each. */
static void test_spec(const struct tm_sf_params *p, unsigned int apps,
		      double bdp, struct bm_tcp_spec *ts)
{
	unsigned int k, c;

	memset(ts, 0, sizeof(*ts));
	snprintf(ts->cc, sizeof(ts->cc), "%s", p->cc);
	ts->sndbuf = (uint32_t)p->sndbuf;
	ts->rcvbuf = (uint32_t)p->rcvbuf;
	ts->window_clamp = (uint32_t)p->window_clamp;
	ts->dscp = (uint8_t)p->dscp;
	for (k = 0; k < BM_TTP_N; k++) {
		if (!(apps & (1u << k)))
			continue;
		for (c = 0; c < p->connections; c++) {
			struct bm_tcp_conn_spec *cs = &ts->conn[ts->n_conn++];

			cs->client = 0;
			cs->server = 1;
			cs->pattern = (enum bm_ttp)k;
			cs->ttp.kind = (enum bm_ttp)k;
			cs->ttp.random = p->random;
			cs->ttp.seed = p->seed + c * 1000003u;
			if (c < p->n_conn_dscps) {
				cs->dscp_set = true;
				cs->dscp = p->conn_dscps[c];
			}
			if (k == BM_TTP_BULK) {
				cs->bytes = p->bulk_bytes ? p->bulk_bytes :
					(uint64_t)(p->rate_bps * p->td_s / 8 /
						   p->connections);
				cs->rate_bps = p->rate_bps * p->bulk_pct /
					       100.0 / p->connections;
			} else if (k == BM_TTP_MICRO) {
				cs->burst_bytes = p->burst_bytes;
				cs->burst_interval_s = p->burst_interval_s;
				cs->warmup_bytes = p->warmup_bytes ?
					p->warmup_bytes : (uint64_t)(10 * bdp);
			}
		}
	}
}

/* The configured share of application k in % of the bottleneck
 * ("the application mixture MUST be defined as a percentage of the
 * total bandwidth"); NAN: no rate of its own. */
static double share_pct(const struct tm_sf_params *p, enum bm_ttp k)
{
	if (k == BM_TTP_BULK)
		return p->bulk_pct > 0 ? p->bulk_pct : NAN;
	if (k == BM_TTP_MICRO)
		return 100.0 * p->connections * p->burst_bytes * 8.0 /
		       p->burst_interval_s / p->rate_bps;
	return NAN;
}

/* One test (the applications of mask apps), Tr runs, into tests[]. */
static int sf_test(struct bm_backend *be, const struct tm_sf_params *p,
		   unsigned int apps, double bdp, json_object *tests,
		   double *base_min_ms, struct bm_error *err)
{
	double v[BM_TTP_N][M_N][TM_MAX_TR];
	struct bm_tcp_result *tr = calloc(1, sizeof(*tr));
	json_object *t, *runs, *stats, *mix;
	struct bm_tcp_spec ts;
	unsigned int r, k, m, n = 0;
	int ret = 0;

	if (!tr)
		return bm_errorf(err, "out of memory"), -ENOMEM;
	test_spec(p, apps, bdp, &ts);
	t = json_object_new_object();
	mix = json_object_new_array();
	for (k = 0; k < BM_TTP_N; k++) {
		json_object *e;

		if (!(apps & (1u << k)))
			continue;
		e = json_object_new_object();
		bm_json_add_str(e, "app", bm_ttp_names[k]);
		bm_json_add_u64(e, "connections", p->connections);
		bm_json_add_double(e, "configured_pct", share_pct(p, k));
		json_object_array_add(mix, e);
	}
	json_object_object_add(t, "mixture", mix);
	runs = json_object_new_array();
	json_object_object_add(t, "runs", runs);
	json_object_array_add(tests, t);
	for (r = 0; r < p->tr && !ret; r++) {
		json_object *row, *apps_o;

		/* the window opens with the connections (no mark): data
		 * sent before a later mark would arrive in the window, which
		 * lab rfc7640/stateful saw add up to 64 KB on a stalled host */
		ret = bm_tcp_start(be, &ts, err);
		if (ret)
			break;
		be->tcp->run_for(be, p->td_s, false);
		/* bulk's bytes (rate x Td by default) take longer than Td
		 * at a goodput below the rate: its TTPET needs them all
		 * through; at most Td more */
		if (apps & (1u << BM_TTP_BULK))
			be->tcp->run_for(be, p->td_s, true);
		{
			struct bm_error e2;
			int r2 = be->tcp->stop(be, tr, &e2);

			if (!ret && r2) {
				*err = e2;
				ret = r2;
			}
		}
		for (k = 0; !ret && k < tr->n_conn; k++)
			if (!tr->conn[k].established || tr->conn[k].error[0])
				ret = bm_errorf(err, "%s: TCP connection %u: "
						"%s", name_of(p), k,
						tr->conn[k].error[0] ?
						tr->conn[k].error :
						"not established");
		if (ret)
			break;
		row = json_object_new_object();
		bm_json_add_u64(row, "run", r + 1);
		apps_o = json_object_new_object();
		for (k = 0; k < BM_TTP_N; k++) {
			struct tm_app_run a;
			json_object *e;

			if (!(apps & (1u << k)))
				continue;
			tm_app_of(tr, (int)k, -1, -1, &a);
			e = json_object_new_object();
			bm_json_add_double(e, "throughput_bps", a.thr_bps);
			bm_json_add_double(e, "share_pct",
					   100.0 * a.thr_bps / p->rate_bps);
			tm_app_ttpet_json(e, &a);
			tm_app_json(e, &a);
			json_object_object_add(apps_o, bm_ttp_names[k], e);
			v[k][M_THR][n] = a.thr_bps;
			v[k][M_TTPET][n] = a.ttpet_s;
			v[k][M_EFF][n] = a.eff_pct;
			v[k][M_BUFD][n] = a.bufd_pct;
			v[k][M_RTT][n] = a.rtt_ms;
			v[k][M_IN][n] = (double)a.bytes_in;
			v[k][M_OUT][n] = (double)a.bytes_out;
			if (isnan(*base_min_ms) || a.base_ms < *base_min_ms)
				*base_min_ms = a.base_ms;
		}
		json_object_object_add(row, "apps", apps_o);
		json_object_object_add(row, "tcp", bm_tcp_result_json(
			tr, (const char (*)[16])be->port_names));
		json_object_array_add(runs, row);
		n++;
	}
	/* min/max/avg per application over the runs (REQ-TM-3) */
	stats = json_object_new_object();
	for (k = 0; k < BM_TTP_N; k++) {
		json_object *s;

		if (!(apps & (1u << k)))
			continue;
		s = json_object_new_object();
		for (m = 0; m < M_N; m++)
			tm_stat(s, m_names[m], v[k][m], n);
		json_object_object_add(stats, bm_ttp_names[k], s);
	}
	json_object_object_add(t, "statistics", stats);
	free(tr);
	return ret;
}

/* The RTT the BDP is worked out from when the NDE's is not given. */
#define SF_RTT_UNSET_MS	10.0

int tm_sf_run(struct bm_backend *be, const struct tm_sf_params *given,
	      bm_progress_fn progress, void *ctx, json_object **result,
	      struct bm_error *err)
{
	struct tm_sf_params pp = *given, *p = &pp;
	struct bm_trial_log log = { NULL, 0, 0 };
	double bdp, base_ms = NAN, rtt_min_ms;
	json_object *res, *tests, *o, *dev;
	unsigned int k;
	int ret;

	(void)progress;
	(void)ctx;
	*result = NULL;
	ret = tm_sf_check(p, err);
	if (ret)
		return ret;
	if (!be->tcp)
		return bm_errorf(err, "%s needs the TCP engine (PLAT-TCP, "
				 "TM-CAP-SF), and this backend has none "
				 "(bmd.conf tcp-engine, or no VRF support)",
				 name_of(p)), -EOPNOTSUPP;
	if (be->n_ports < 2)
		return bm_errorf(err, "%s needs 2 ports, %u given", name_of(p),
				 be->n_ports);
	if (!(p->rate_bps > 0))
		p->rate_bps = be->line_rate_bps;
	/* BDP = BB x RTT / 8 (§6.2.1.2, RFC 6349; SHP: AMB-46) */
	bdp = p->rate_bps * (p->nde_rtt_ms > 0 ? p->nde_rtt_ms :
			     SF_RTT_UNSET_MS) / 1e3 / 8;
	rtt_min_ms = (double)p->ql * 8 / p->rate_bps * 1e3;
	res = json_object_new_object();
	o = json_object_new_object();
	bm_json_add_u64(o, "tr", p->tr);
	bm_json_add_double(o, "td_s", p->td_s);
	bm_json_add_str(o, "client_port", be->port_names[0]);
	bm_json_add_str(o, "server_port", be->port_names[1]);
	bm_json_add_double(o, "bdp_bytes", bdp);
	bm_json_add_double(o, "rtt_min_for_ql_ms", rtt_min_ms);
	if (p->window_clamp) {
		/* TM-SHP-2: the cumulative window over the BDP, 1.1 - 1.5 */
		bm_json_add_double(o, "window_over_bdp",
				   (double)p->window_clamp * p->connections /
				   bdp);
	}
	json_object_object_add(res, "test_configuration", o);
	o = json_object_new_object();
	bm_json_add_str(o, "scheduling", tm_sf_sched_names[p->scheduler]);
	bm_json_add_double(o, p->shaper ? "sr_bps" : "bb_bps", p->rate_bps);
	bm_json_add_u64(o, p->shaper ? "iq_bytes" : "ql_bytes", p->ql);
	bm_json_add_double(o, "nde_rtt_ms", p->nde_rtt_ms > 0 ?
			   p->nde_rtt_ms : NAN);
	json_object_object_add(res, "dut_configuration", o);
	tests = json_object_new_array();
	json_object_object_add(res, "tests", tests);
	if (p->concurrent)
		ret = sf_test(be, p, p->apps, bdp, tests, &base_ms, err);
	for (k = 0; !p->concurrent && k < BM_TTP_N && !ret; k++)
		if (p->apps & (1u << k))
			ret = sf_test(be, p, 1u << k, bdp, tests, &base_ms,
				      err);
	bm_json_add_double(res, "baseline_rtt_ms", base_ms);
	dev = json_object_new_array();
	if (!(p->apps & (1u << BM_TTP_BULK)) ||
	    !(p->apps & (1u << BM_TTP_MICRO)))
		json_object_array_add(dev, json_object_new_string(
			"bulk transfer and micro burst MUST both be performed "
			"(TM §6.2.1.2, §6.3.1.2); apps leaves one out"));
	if (!p->shaper && p->ql && bdp <= (double)p->ql)
		json_object_array_add(dev, json_object_new_string(
			"BDP = BB x RTT / 8 is not above QL (TM-QS-2 asks an NDE "
			"RTT of at least QL x 8 / BB: rtt_min_for_ql_ms)"));
	if (p->shaper && p->window_clamp &&
	    (double)p->window_clamp * p->connections < bdp)
		json_object_array_add(dev, json_object_new_string(
			"the cumulative window is below the BDP (TM-SHP-2: "
			"the SSB MUST fill it, 1.1 - 1.5 x)"));
	if (!(p->nde_rtt_ms > 0))
		json_object_array_add(dev, json_object_new_string(
			"nde_rtt_ms not given: a stateful test MUST use a "
			"network delay emulator (TM-CAP-SF), whose RTT the "
			"result states; BDP from 10 ms [PROPOSED]"));
	else if (isfinite(base_ms) &&
	    fabs(base_ms - p->nde_rtt_ms) > p->nde_rtt_ms * p->rtt_tol_pct /
					    100.0)
		json_object_array_add(dev, json_object_new_string(
			"the connections' baseline RTT is further from "
			"nde_rtt_ms than rtt_tolerance_pct: is the NDE set "
			"as stated (TM-SETUP)?"));
	if (p->td_s < 60)
		json_object_array_add(dev, json_object_new_string(
			"Td below 60 s (TM §6 recommends at least 60 s)"));
	*result = bm_result_envelope(name_of(p), p->shaper ? "TM-SHP-2" :
				     "TM-QS-2", bm_json_params_to_json(
					tm_sf_keys, TM_SF_MASK(p->shaper), p,
					tm_sf_writers), &log, NULL, res, dev,
				     be);
	return ret;
}

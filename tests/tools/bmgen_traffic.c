// SPDX-License-Identifier: GPL-2.0
/*
 * bmgen-traffic: one raw N-port trial, on bmgen.ko or, with --sim, on the
 * simulated N-port DUT (a dry run).  Builds one of the standards'
 * topologies (REQ-TOPO-1) over the ports given, runs it once and prints one
 * key=value line per stream, per port and for the totals, so that lab
 * tests can check every stream's count.  Exit 0 on a completed trial, 1 on
 * an error (its message on stderr), 2 on bad arguments.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>
#include <linux/bmgen.h>

#include "bm_clock.h"
#include "bm_genl.h"
#include "bm_portinfo.h"
#include "bm_hosts.h"
#include "bm_sim.h"
#include "bm_tm_model.h"
#include "bm_traffic.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: bmgen-traffic --ports P1,P2,... --topology T [--size F]\n"
		"                     [--load PCT] [--duration S] [--line-rate BPS]\n"
		"                     [--j J] [--shift S] [--dut-ports N] [--bidir]\n"
		"                     [--no-learning] [--learning-pause S] [--drain S]\n"
		"                     [--bursts LEN,COUNT,PERIOD_S[,LAST_SIZE]]\n"
		"                     [--dscp D] [--vlan ID[,PCP]] [--log N]\n"
		"                     [--tpid 0x8100|0x88a8] [--vlan2 ID[,PCP]]\n"
		"                     [--mpls LABEL[,LABEL]]\n"
		"                     [--model-tb CIR_BPS,CBS,OVERHEAD]\n"
		"                     [--model-tbf RATE_BPS,BURST,LIMIT_BYTES,OVERHEAD]\n"
		"                     [--sim[=JSON]] [--tx-kthreads K]\n"
		"                     [--tx-path auto|alloc|recycle|xdp]\n"
		"                     [--part HOST|.] [--start-tai NS]\n"
		"       bmgen-traffic --plan N [--vlan-base V]\n"
		"T: pair, mesh, multiport, many-to-one (the last port receives),\n"
		"   one-to-many (the first port sends), n-minus-j, holb, snake\n"
		"--tx-kthreads K: each rate stream goes out on up to K transmit\n"
		"   kthreads (lanes), merged back into the one stream\n"
		"--tx-path P: the transmit path the streams ask bmgen.ko for\n"
		"   (auto: recycle where the port allows it, else alloc)\n"
		"--ports: IFNAME or HOST:IFNAME each (another tester host's)\n"
		"--part HOST: run HOST's halves of the streams only (. = the\n"
		"   ports without a host), as one host of a pool does\n"
		"--start-tai NS: start at that CLOCK_TAI instant\n");
}

static int bad(const char *what, const char *v)
{
	fprintf(stderr, "bmgen-traffic: bad %s '%s'\n", what, v);
	return 2;
}

static int parse_double(const char *s, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	return errno || !*s || *end || !isfinite(*v) ? -1 : 0;
}

/* The MAC of interface name here into mac; false when there is none. */
static bool local_mac(const char *name, uint8_t *mac)
{
	struct bm_port_info pi;

	return !bm_port_info(NULL, name, &pi) && bm_mac_parse(pi.address, mac);
}

/* The ports of list, each IFNAME or HOST:IFNAME (bm_hosts.h); a port of
 * another host gets the MAC of the interface of its name here, when
 * there is one (the lab's one guest plays both hosts). */
static int add_ports(struct bm_traffic *t, char *list, double rate,
		     struct bm_error *err)
{
	char *save = NULL, *p, host[64], name[32];
	int k;

	for (p = strtok_r(list, ",", &save); p;
	     p = strtok_r(NULL, ",", &save)) {
		if (bm_port_label_parse(p, host, sizeof(host), name,
					sizeof(name), err))
			return -1;
		k = bm_traffic_add_port(t, name, rate, err);
		if (k < 0)
			return -1;
		strcpy(t->ports[k].host, host);
		if (host[0])
			t->ports[k].have_mac = local_mac(name,
							 t->ports[k].mac);
	}
	return 0;
}

static int build(struct bm_traffic *t, const char *topo, double load,
		 unsigned int j, unsigned int shift, unsigned int dut_ports,
		 bool bidir, struct bm_error *err)
{
	unsigned int n = t->n_ports, i, *idx;
	int ret;

	if (!strcmp(topo, "pair"))
		return bm_topo_pair(t, 0, 1, bidir, load, err);
	if (!strcmp(topo, "mesh"))
		return bm_topo_mesh(t, load, err);
	if (!strcmp(topo, "multiport"))
		return bm_topo_multiport(t, load, err);
	if (!strcmp(topo, "n-minus-j"))
		return bm_topo_n_minus_j(t, j, load, err);
	if (!strcmp(topo, "holb"))
		return bm_topo_holb(t, 0, shift, load / 2, load, err);
	if (!strcmp(topo, "snake"))
		return bm_topo_snake(t, dut_ports, bidir, load, err);
	if (strcmp(topo, "many-to-one") && strcmp(topo, "one-to-many"))
		return bm_errorf(err, "unknown topology '%s'", topo);
	if (n < 2)
		return bm_errorf(err, "%s needs 2 ports or more", topo);
	idx = calloc(n, sizeof(*idx));
	if (!idx)
		return bm_errorf(err, "out of memory"), -ENOMEM;
	for (i = 0; i < n; i++)
		idx[i] = i;
	if (!strcmp(topo, "many-to-one"))
		ret = bm_topo_many_to_one(t, idx, n - 1, n - 1, load, err);
	else
		ret = bm_topo_one_to_many(t, 0, idx + 1, n - 1, load, err);
	free(idx);
	return ret;
}

/* What --bursts, --dscp, --vlan and --log give every stream. */
struct stream_opts {
	uint32_t burst_len, burst_count, last_size;
	double period_s;
	int dscp;			/* -1: leave */
	int vlan_id, pcp;		/* vlan_id -1: untagged */
	uint16_t tpid;
	int vlan2_id, pcp2;		/* vlan2_id -1: no inner tag */
	uint32_t mpls[2], n_mpls;
	uint32_t log;
};

/* Parse "LEN,COUNT,PERIOD_S[,LAST_SIZE]"; 0 or -1. */
static int parse_bursts(const char *arg, struct stream_opts *o)
{
	unsigned int len, count, last = 0;
	double period;
	int n, used = 0;

	n = sscanf(arg, "%u,%u,%lf%n,%u%n", &len, &count, &period, &used,
		   &last, &used);
	if (n < 3 || arg[used] || !len || !count || !(period > 0) ||
	    (n == 4 && (last < 64 || last > 9216)))
		return -1;
	o->burst_len = len;
	o->burst_count = count;
	o->period_s = period;
	o->last_size = n == 4 ? last : 0;
	return 0;
}

static void apply_stream_opts(struct bm_traffic *t, const struct stream_opts *o)
{
	unsigned int k;

	for (k = 0; k < t->n_streams; k++) {
		struct bm_stream_spec *s = &t->streams[k];

		if (o->burst_len) {
			s->pattern = BM_STREAM_BURSTS;
			s->burst_len = o->burst_len;
			s->burst_count = o->burst_count;
			s->burst_period_s = o->period_s;
			s->burst_last_size = o->last_size;
		}
		if (o->dscp >= 0)
			s->frame.dscp = (uint8_t)o->dscp;
		if (o->vlan_id >= 0) {
			s->frame.vlan_id = o->vlan_id;
			s->frame.pcp = (uint8_t)o->pcp;
		}
		s->frame.tpid = o->tpid;
		if (o->vlan2_id >= 0) {
			s->frame.have_vlan2 = true;
			s->frame.vlan2_id = (uint16_t)o->vlan2_id;
			s->frame.pcp2 = (uint8_t)o->pcp2;
		}
		s->frame.n_mpls = (uint8_t)o->n_mpls;
		memcpy(s->frame.mpls, o->mpls, sizeof(o->mpls));
		s->log_frames = o->log;
	}
}

/* "d:n,d:n" of the non-zero counters of v[n] into buf. */
static const char *counts(const uint64_t *v, unsigned int n, char *buf,
			  size_t len)
{
	size_t off = 0;
	unsigned int i;

	buf[0] = '-';
	buf[1] = 0;
	for (i = 0; i < n && off + 32 < len; i++)
		if (v[i])
			off += snprintf(buf + off, len - off, "%s%u:%llu",
					off ? "," : "", i,
					(unsigned long long)v[i]);
	return buf;
}

static void print_log(unsigned int k, const struct bm_stream_result *s)
{
	size_t i;

	for (i = 0; i < s->n_tx_log; i++)
		printf("log stream=%u dir=tx seq=%zu tx_s=%.9f\n", k, i,
		       s->tx_log_s[i]);
	for (i = 0; i < s->n_rx_log; i++) {
		const struct bm_frame_rec *f = &s->rx_log[i];

		printf("log stream=%u dir=rx seq=%llu tx_s=%.9f rx_s=%.9f "
		       "size=%u dscp=%u pcp=%u tagged=%d\n", k,
		       (unsigned long long)f->seq, f->tx_s, f->rx_s, f->size,
		       f->dscp, f->pcp, f->tagged);
	}
}

/* Size F of frame seq i of stream ss (byte-exact bursts end short). */
static uint32_t frame_size_of(const struct bm_stream_spec *ss, uint32_t size,
			      size_t i)
{
	if (ss->burst_last_size && ss->burst_len &&
	    i % ss->burst_len == ss->burst_len - 1)
		return ss->burst_last_size;
	return size;
}

/* --model-tb: a DUT-POL policer to replay the logged frames through. */
struct model_tb {
	double cir_bps, cbs, overhead;
};

/*
 * MODEL-TB (SPEC 5.3) fed with stream k's actual tx times: model_pass is
 * its verdict with the policer seeing each frame as it leaves.  The DUT
 * sees a frame somewhere between its tx time and its arrival, later when
 * the guest is busy, and not always with the same delay as the frames
 * around it, so each verdict is checked within that delay: the replay
 * follows the DUT (it takes tokens exactly for the frames that arrived)
 * and a frame whose verdict differs from the DUT's is an edge when its
 * tokens at its tx time were within the refill of the run's largest
 * delay (max_delay_s, the largest rx - tx of any frame) of its size, and
 * a mismatch otherwise: bmgen's counts or times are wrong there, or the
 * DUT is no DUT-POL.  Prints one "model" line.
 */
static void print_model(unsigned int k, const struct bm_stream_spec *ss,
			const struct bm_stream_result *s, uint32_t size,
			const struct model_tb *m)
{
	size_t i, n = s->n_tx_log, pass = 0, arrived = 0, mismatch = 0;
	size_t edge = 0;
	uint64_t first = UINT64_MAX, last = 0;
	double *rx = calloc(n ? n : 1, sizeof(*rx)), delay = 0, win;
	struct bm_tb tx, dut;

	if (!rx)
		return;
	for (i = 0; i < n; i++)
		rx[i] = -1;
	for (i = 0; i < s->n_rx_log; i++) {
		uint64_t q = s->rx_log[i].seq;

		if (q >= n)
			continue;
		rx[q] = s->rx_log[i].rx_s;
		delay = fmax(delay, rx[q] - s->tx_log_s[q]);
	}
	win = m->cir_bps / 8 * delay;
	bm_tb_init(&tx, m->cir_bps, m->cbs);
	dut = tx;
	for (i = 0; i < n; i++) {
		double a = frame_size_of(ss, size, i) - 4.0 + m->overhead;
		double t = s->tx_log_s[i], margin = bm_tb_tokens(&dut, t) - a;
		bool got = rx[i] >= 0;

		pass += bm_tb_offer(&tx, t, a);
		arrived += got;
		if (got)
			bm_tb_take(&dut, t, a);
		if (got == (margin >= 0))
			continue;
		if (fabs(margin) <= win) {
			edge++;
			continue;
		}
		mismatch++;
		if (i < first)
			first = i;
		last = i;
	}
	printf("model stream=%u frames=%zu model_pass=%zu arrived=%zu "
	       "mismatch=%zu edge=%zu max_delay_s=%.6f first_mismatch=%lld "
	       "last_mismatch=%lld\n", k, n, pass, arrived, mismatch, edge,
	       delay, mismatch ? (long long)first : -1LL,
	       mismatch ? (long long)last : -1LL);
	free(rx);
}

/* --model-tbf: a DUT-TBFB shaper (tbf + bfifo) to replay the log through. */
struct model_tbf {
	double rate_bps, burst, overhead;
	uint64_t limit_bytes;
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * MODEL-TBF (SPEC 5.3) fed with stream k's actual tx times: each frame's
 * drop or departure, against the rx log.  Prints the frames whose fate
 * differs, and for the frames both let through how much later they
 * arrived than the model's departure (the DUT's timer and forwarding
 * delay: p50, p99, max) and the egress rate over the first to the last
 * departure and arrival (TM-MET-SR).
 */
static void print_model_tbf(unsigned int k, const struct bm_stream_spec *ss,
			    const struct bm_stream_result *s, uint32_t size,
			    const struct model_tbf *m)
{
	struct bm_tbf_cfg cfg = {
		.rate_bps = m->rate_bps, .bucket_bytes = m->burst,
		.limit_frames = UINT64_MAX, .limit_bytes = m->limit_bytes,
	};
	size_t n = s->n_tx_log, i, nd = 0, mismatch = 0, arrived = 0;
	struct bm_tbf_frame *f = calloc(n ? n : 1, sizeof(*f));
	double *rx = calloc(n ? n : 1, sizeof(*rx)), *d = NULL;
	double dep0 = -1, dep1 = -1, rx0 = -1, rx1 = -1, bytes = 0;
	long dropped;

	if (!f || !rx)
		goto out;
	for (i = 0; i < n; i++)
		rx[i] = -1;
	for (i = 0; i < s->n_rx_log; i++)
		if (s->rx_log[i].seq < n)
			rx[s->rx_log[i].seq] = s->rx_log[i].rx_s;
	for (i = 0; i < n; i++) {
		uint32_t z = frame_size_of(ss, size, i);

		f[i].t_s = s->tx_log_s[i];
		f[i].a_bytes = z - 4 + m->overhead;
		f[i].q_bytes = z - 4;
		f[i].wire_bytes = z + 20;
	}
	dropped = bm_tbf_run(&cfg, f, n);
	d = calloc(n ? n : 1, sizeof(*d));
	if (dropped < 0 || !d)
		goto out;
	for (i = 0; i < n; i++) {
		bool got = rx[i] >= 0, pass = f[i].dep_s >= 0;

		arrived += got;
		if (got != pass) {
			mismatch++;
			continue;
		}
		if (!pass)
			continue;
		d[nd++] = rx[i] - f[i].dep_s;
		bytes += frame_size_of(ss, size, i);
		if (dep0 < 0 || f[i].dep_s < dep0)
			dep0 = f[i].dep_s;
		dep1 = fmax(dep1, f[i].dep_s);
		if (rx0 < 0 || rx[i] < rx0)
			rx0 = rx[i];
		rx1 = fmax(rx1, rx[i]);
	}
	qsort(d, nd, sizeof(*d), cmp_double);
	printf("model_tbf stream=%u frames=%zu model_dropped=%ld arrived=%zu "
	       "mismatch=%zu late_p50_s=%.6f late_p99_s=%.6f late_max_s=%.6f "
	       "sr_model_bps=%.0f sr_rx_bps=%.0f span_s=%.6f\n", k, n,
	       dropped, arrived, mismatch, nd ? d[nd / 2] : 0,
	       nd ? d[nd * 99 / 100] : 0, nd ? d[nd - 1] : 0,
	       dep1 > dep0 ? bytes * 8 / (dep1 - dep0) : 0,
	       rx1 > rx0 ? bytes * 8 / (rx1 - rx0) : 0,
	       dep1 > dep0 ? dep1 - dep0 : 0);
out:
	free(d);
	free(f);
	free(rx);
}

static void print_result(const struct bm_traffic *t,
			 const struct bm_traffic_result *r,
			 const struct bm_trial_result *sum, double wall_s)
{
	char dscp[1024], pcp[256];
	unsigned int k;

	for (k = 0; k < r->n_streams; k++) {
		const struct bm_stream_result *s = &r->streams[k];

		printf("stream=%u tx=%s rx=%s intended=%llu sent=%llu "
		       "received=%llu lost=%llu reordered=%llu duplicated=%llu "
		       "first_tx_s=%.6f last_tx_s=%.6f first_rx_s=%.6f "
		       "last_rx_s=%.6f lat_mean_ns=%.0f lat_max_ns=%.0f "
		       "tx_bytes=%llu rx_bytes=%llu untagged=%llu dscp=%s pcp=%s "
		       "tx_late_max_s=%.6f log_tx=%zu log_rx=%zu\n", k,
		       t->ports[t->streams[k].tx_port].name,
		       t->ports[t->streams[k].rx_port].name,
		       (unsigned long long)s->intended,
		       (unsigned long long)s->sent,
		       (unsigned long long)s->received,
		       (unsigned long long)s->lost,
		       (unsigned long long)s->reordered,
		       (unsigned long long)s->duplicated, s->first_tx_s,
		       s->last_tx_s, s->first_rx_s, s->last_rx_s,
		       s->latency.mean_ns, s->latency.max_ns,
		       (unsigned long long)s->tx_bytes,
		       (unsigned long long)s->rx_bytes,
		       (unsigned long long)s->rx_untagged,
		       counts(s->rx_dscp, 64, dscp, sizeof(dscp)),
		       counts(s->rx_pcp, 8, pcp, sizeof(pcp)),
		       s->tx_late_max_s, s->n_tx_log, s->n_rx_log);
	}
	for (k = 0; k < r->n_streams; k++)
		print_log(k, &r->streams[k]);
	for (k = 0; k < r->n_ports; k++) {
		const struct bm_port_result *p = &r->ports[k];

		printf("port=%s tx_frames=%llu rx_frames=%llu lost=%llu "
		       "tx_load_pct=%.3f rx_load_pct=%.3f\n", t->ports[k].name,
		       (unsigned long long)p->tx_frames,
		       (unsigned long long)p->rx_frames,
		       (unsigned long long)p->lost, p->tx_load_pct,
		       p->rx_load_pct);
	}
	printf("total streams=%u intended=%llu sent=%llu received=%llu "
	       "lost=%llu reordered=%llu duplicated=%llu generator_limited=%d "
	       "ts_source=%s tx_path=%s tx_kthreads=%u wall_s=%.3f\n",
	       r->n_streams,
	       (unsigned long long)sum->intended,
	       (unsigned long long)sum->attempted,
	       (unsigned long long)sum->received,
	       (unsigned long long)sum->lost,
	       (unsigned long long)sum->reordered,
	       (unsigned long long)sum->duplicate, sum->generator_limited,
	       sum->ts_source, sum->tx_path[0] ? sum->tx_path : "none",
	       sum->tx_lanes, wall_s);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The options: the ports and their topology, the trial, the backend,
 * what every stream gets, and the models to replay the log through. */
struct traffic_opts {
	char *ports;
	const char *topo, *sim_json;
	uint32_t size;
	double load, duration, rate, drain, pause;
	unsigned int j, shift, dut_ports, plan, vbase;
	unsigned int kthreads, tx_path;
	bool bidir, learning, sim;
	const char *part;		/* --part: this host's halves only */
	int64_t start_tai;		/* --start-tai: the parts' instant */
	struct stream_opts so;
	struct model_tb mtb;
	struct model_tbf mtbf;
};

static const struct option traffic_options[] = {
	{ "ports", required_argument, NULL, 'p' },
	{ "part", required_argument, NULL, 'H' },
	{ "start-tai", required_argument, NULL, 'Z' },
	{ "topology", required_argument, NULL, 't' },
	{ "size", required_argument, NULL, 's' },
	{ "load", required_argument, NULL, 'l' },
	{ "duration", required_argument, NULL, 'd' },
	{ "line-rate", required_argument, NULL, 'r' },
	{ "j", required_argument, NULL, 'j' },
	{ "shift", required_argument, NULL, 'S' },
	{ "dut-ports", required_argument, NULL, 'N' },
	{ "bidir", no_argument, NULL, 'b' },
	{ "no-learning", no_argument, NULL, 'L' },
	{ "drain", required_argument, NULL, 'D' },
	{ "learning-pause", required_argument, NULL, 'A' },
	{ "sim", optional_argument, NULL, 'm' },
	{ "plan", required_argument, NULL, 'P' },
	{ "vlan-base", required_argument, NULL, 'V' },
	{ "bursts", required_argument, NULL, 'B' },
	{ "dscp", required_argument, NULL, 'Q' },
	{ "vlan", required_argument, NULL, 'T' },
	{ "log", required_argument, NULL, 'G' },
	{ "model-tb", required_argument, NULL, 'M' },
	{ "model-tbf", required_argument, NULL, 'F' },
	{ "tpid", required_argument, NULL, 'I' },
	{ "vlan2", required_argument, NULL, 'W' },
	{ "mpls", required_argument, NULL, 'X' },
	{ "tx-kthreads", required_argument, NULL, 'K' },
	{ "tx-path", required_argument, NULL, 'Y' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

/* "ID[,PCP]" of --vlan and --vlan2 (PCP 0 when not given); 0 or -1. */
static int parse_vlan(const char *arg, int *id, int *pcp)
{
	int n, used = 0;

	*pcp = 0;
	n = sscanf(arg, "%d%n,%d%n", id, &used, pcp, &used);
	if (n < 1 || arg[used] || *id < 0 || *id > 4094 || *pcp < 0 ||
	    *pcp > 7)
		return -1;
	return 0;
}

/* --mpls LABEL[,LABEL]: one or two label stack entries, TC 0, TTL 64. */
static int parse_mpls(const char *arg, struct stream_opts *so)
{
	unsigned int l1, l2;
	int n, used = 0;

	n = sscanf(arg, "%u%n,%u%n", &l1, &used, &l2, &used);
	if (n < 1 || arg[used] || l1 < 16 || l1 > 1048575 ||
	    (n == 2 && (l2 < 16 || l2 > 1048575)))
		return -1;
	so->mpls[0] = l1 << 12 | 64;
	so->mpls[1] = n == 2 ? (l2 << 12 | 64) : 0;
	so->n_mpls = (uint32_t)n;
	return 0;
}

/* What every stream's frames get (--bursts, --dscp, --vlan, --tpid,
 * --vlan2, --mpls, --log): -1, or the exit code on a bad value. */
static int parse_stream_opt(int c, const char *arg, struct stream_opts *so)
{
	unsigned int tpid;
	int used = 0;
	double v;

	switch (c) {
	case 'B':
		if (parse_bursts(arg, so))
			return bad("bursts (LEN,COUNT,PERIOD_S[,LAST_SIZE])", arg);
		break;
	case 'Q':
		if (parse_double(arg, &v) || v < 0 || v > 63 || v != floor(v))
			return bad("DSCP (0..63)", arg);
		so->dscp = (int)v;
		break;
	case 'T':
		if (parse_vlan(arg, &so->vlan_id, &so->pcp))
			return bad("VLAN (ID[,PCP])", arg);
		break;
	case 'I':
		if (sscanf(arg, "%x%n", &tpid, &used) != 1 ||
		    arg[used] || (tpid != 0x8100 && tpid != 0x88a8))
			return bad("TPID (0x8100 or 0x88a8)", arg);
		so->tpid = (uint16_t)tpid;
		break;
	case 'W':
		if (parse_vlan(arg, &so->vlan2_id, &so->pcp2))
			return bad("inner VLAN (ID[,PCP])", arg);
		break;
	case 'X':
		if (parse_mpls(arg, so))
			return bad("MPLS labels (16..1048575, one or two)", arg);
		break;
	case 'G':
		if (parse_double(arg, &v) || v < 1 ||
		    v > BM_TRAFFIC_MAX_LOG || v != floor(v))
			return bad("log frames", arg);
		so->log = (uint32_t)v;
		break;
	}
	return -1;
}

/* --model-tb and --model-tbf: -1, or the exit code on a bad value. */
static int parse_model_opt(int c, const char *arg, struct traffic_opts *o)
{
	struct model_tbf *f = &o->mtbf;
	struct model_tb *m = &o->mtb;
	int used = 0;
	double lim;

	if (c == 'M') {
		if (sscanf(arg, "%lf,%lf,%lf%n", &m->cir_bps, &m->cbs,
			   &m->overhead, &used) != 3 ||
		    arg[used] || !(m->cir_bps > 0) || !(m->cbs > 0) ||
		    m->overhead < -64 || m->overhead > 256)
			return bad("model (CIR_BPS,CBS,OVERHEAD)", arg);
		return -1;
	}
	if (sscanf(arg, "%lf,%lf,%lf,%lf%n", &f->rate_bps, &f->burst, &lim,
		   &f->overhead, &used) != 4 ||
	    arg[used] || !(f->rate_bps > 0) || !(f->burst > 0) ||
	    !(lim >= 1) || lim > 1e12 || f->overhead < -64 || f->overhead > 256)
		return bad("model (RATE_BPS,BURST,LIMIT_BYTES,OVERHEAD)", arg);
	f->limit_bytes = (uint64_t)lim;
	return -1;
}

/* The whole numbers --j, --shift, --dut-ports, --plan, --vlan-base and
 * --tx-kthreads: -1, or the exit code on a bad value. */
static int parse_count(int c, const char *arg, struct traffic_opts *o)
{
	double v;

	if (parse_double(arg, &v) || v < 0 || v > 65535 ||
	    v != floor(v) || (c == 'K' && v < 1))
		return bad("number", arg);
	if (c == 'K')
		o->kthreads = (unsigned int)v;
	else if (c == 'j')
		o->j = (unsigned int)v;
	else if (c == 'S')
		o->shift = (unsigned int)v;
	else if (c == 'N')
		o->dut_ports = (unsigned int)v;
	else if (c == 'P')
		o->plan = (unsigned int)v;
	else
		o->vbase = (unsigned int)v;
	return -1;
}

/* One option c into o: -1, or the exit code (a bad value, --help). */
static int parse_opt(int c, char *arg, struct traffic_opts *o)
{
	double v;

	switch (c) {
	case 'p': o->ports = arg; break;
	case 'H': o->part = strcmp(arg, ".") ? arg : ""; break;
	case 'Z':
		if (parse_double(arg, &v) || !(v > 0) || v > 9.2e18)
			return bad("CLOCK_TAI instant (ns)", arg);
		o->start_tai = (int64_t)v;
		break;
	case 't': o->topo = arg; break;
	case 's':
		if (parse_double(arg, &v) || v < 64 || v > 9216 || v != floor(v))
			return bad("frame size", arg);
		o->size = (uint32_t)v;
		break;
	case 'l':
		if (parse_double(arg, &o->load) || !(o->load > 0) || o->load > 100)
			return bad("load (% of line rate, 0 < PCT <= 100)", arg);
		break;
	case 'd':
		if (parse_double(arg, &o->duration) || !(o->duration > 0) ||
		    o->duration > 86400)
			return bad("duration", arg);
		break;
	case 'r':
		if (parse_double(arg, &o->rate) || !(o->rate > 0))
			return bad("line rate", arg);
		break;
	case 'j': case 'S': case 'N': case 'P': case 'V': case 'K':
		return parse_count(c, arg, o);
	case 'Y':
		for (o->tx_path = BMGEN_TXP_AUTO; o->tx_path <= BMGEN_TXP_MAX &&
		     strcmp(arg, bm_genl_tx_path_name(o->tx_path)); o->tx_path++)
			;
		if (o->tx_path > BMGEN_TXP_MAX)
			return bad("transmit path", arg);
		break;
	case 'b': o->bidir = true; break;
	case 'L': o->learning = false; break;
	case 'D':
		if (parse_double(arg, &o->drain) || o->drain < 0 || o->drain > 60)
			return bad("drain", arg);
		break;
	case 'A':
		if (parse_double(arg, &o->pause) || o->pause < 0 || o->pause > 60)
			return bad("learning pause", arg);
		break;
	case 'm': o->sim = true; o->sim_json = arg; break;
	case 'B': case 'Q': case 'T': case 'I': case 'W': case 'X': case 'G':
		return parse_stream_opt(c, arg, &o->so);
	case 'M': case 'F':
		return parse_model_opt(c, arg, o);
	case 'h': usage(stdout); return 0;
	default: usage(stderr); return 2;
	}
	return -1;
}

/* The options into o, from their defaults: -1, or the exit code. */
static int parse_opts(int argc, char **argv, struct traffic_opts *o)
{
	int c, ret;

	memset(o, 0, sizeof(*o));
	o->size = 512;
	o->load = 10;
	o->duration = 1;
	o->rate = 1e9;
	o->drain = -1;
	o->pause = -1;
	o->j = 1;
	o->vbase = 100;
	o->kthreads = 1;
	o->tx_path = BMGEN_TXP_AUTO;
	o->learning = true;
	o->so.dscp = -1;
	o->so.vlan_id = -1;
	o->so.vlan2_id = -1;
	while ((c = getopt_long(argc, argv, "h", traffic_options, NULL)) != -1) {
		ret = parse_opt(c, optarg, o);
		if (ret >= 0)
			return ret;
	}
	return -1;
}

/* --plan N: the snake's DUT configuration, for the lab to apply. */
static int print_plan(const struct traffic_opts *o)
{
	char buf[8192];

	if (bm_snake_plan(o->plan, o->vbase, buf, sizeof(buf)) < 0)
		return bad("snake DUT port count (even, >= 4)", "--plan");
	fputs(buf, stdout);
	return 0;
}

/* One run: its traffic, the backend it runs on, and what came of it. */
struct traffic_run {
	struct bm_traffic *t;
	struct bm_traffic_result *tr;
	struct bm_backend *be;
	struct bm_trial_result res;
	double wall_s;
};

/* The ports, the topology's streams and what every stream gets, checked;
 * 0, or the exit code (its error on stderr). */
static int make_traffic(struct traffic_opts *o, struct traffic_run *r,
			struct bm_error *err)
{
	r->t = calloc(1, sizeof(*r->t));
	if (!r->t)
		return 1;
	bm_traffic_init(r->t);
	if (add_ports(r->t, o->ports, o->rate, err) ||
	    build(r->t, o->topo, o->load, o->j, o->shift, o->dut_ports,
		  o->bidir, err) < 0) {
		fprintf(stderr, "bmgen-traffic: %s\n", err->msg);
		return 2;
	}
	if ((o->mtb.cir_bps > 0 || o->mtbf.rate_bps > 0) && !o->so.log) {
		fprintf(stderr, "bmgen-traffic: a model needs --log\n");
		return 2;
	}
	apply_stream_opts(r->t, &o->so);
	if (bm_traffic_check(r->t, o->size, err)) {
		fprintf(stderr, "bmgen-traffic: %s\n", err->msg);
		return 2;
	}
	return 0;
}

/* --sim[=JSON]: the simulated DUT into r->be (NULL on its error, in
 * err); 0, or 2 on JSON that is none or no simulator's. */
static int make_sim(const struct traffic_opts *o, struct traffic_run *r,
		    struct bm_error *err)
{
	struct bm_sim_params p;
	json_object *j = NULL;

	bm_sim_params_default(&p);
	p.line_rate_bps = o->rate;
	if (o->sim_json) {
		j = json_tokener_parse(o->sim_json);
		if (!j) {
			fprintf(stderr, "bmgen-traffic: --sim: not JSON\n");
			return 2;
		}
		if (bm_sim_params_from_json(j, &p, err)) {
			json_object_put(j);
			fprintf(stderr, "bmgen-traffic: --sim: %s\n", err->msg);
			return 2;
		}
		json_object_put(j);
	}
	r->be = bm_sim_new(&p, err);
	return 0;
}

/* The backend, the simulator or bmgen.ko, into r->be (NULL on its
 * error, in err), and the result to fill; 0, or the exit code. */
static int make_backend(const struct traffic_opts *o, struct traffic_run *r,
			struct bm_error *err)
{
	struct bm_genl_port_opts g = { 0 };
	int ret;

	if (o->sim) {
		ret = make_sim(o, r, err);
		if (ret)
			return ret;
	} else {
		/* the backend's own pair; the traffic names every port.  A
		 * part's pair is of its host's ports (one twice when it has
		 * one): the module never attaches another host's */
		const struct bm_traffic *t = r->t;
		unsigned int i, n = 0, pick[2] = { 0, 1 % t->n_ports };

		for (i = 0; o->part && i < t->n_ports && n < 2; i++)
			if (bm_port_on_host(&t->ports[i], o->part))
				pick[n++] = i;
		if (o->part && n == 1)
			pick[1] = pick[0];
		g.tx_port = t->ports[pick[0]].name;
		g.rx_port = t->ports[pick[1]].name;
		g.line_rate_bps = o->rate;
		g.tx_kthreads = o->kthreads;
		g.tx_path = o->tx_path;
		r->be = bm_backend_genl_new(&g, err);
	}
	r->tr = bm_traffic_result_new(r->t);
	if (!r->be || !r->tr) {
		fprintf(stderr, "bmgen-traffic: %s\n", err->msg[0] ? err->msg :
			"out of memory");
		return 1;
	}
	return 0;
}

/* The trial once: r->res its totals, r->wall_s how long it took; 0, or
 * 1 (its error on stderr). */
static int run_trial(const struct traffic_opts *o, struct traffic_run *r,
		     struct bm_error *err)
{
	struct bm_trial_spec spec;
	double t0;

	memset(&spec, 0, sizeof(spec));
	spec.frame_size = o->size;
	spec.duration_s = o->duration;
	spec.learning = o->learning;
	spec.learning_pause_s = o->pause;
	spec.drain_s = o->drain;
	spec.traffic = r->t;
	spec.traffic_res = r->tr;
	spec.host = o->part;
	spec.start_tai_ns = o->start_tai;
	spec.tai_utc_s = bm_tai_utc_s();	/* its caller's start is ours */
	t0 = now_s();
	if (bm_run_trial(r->be, &spec, &r->res, err)) {
		fprintf(stderr, "bmgen-traffic: %s\n", err->msg);
		return 1;
	}
	r->wall_s = now_s() - t0;
	return 0;
}

/* --model-tb and --model-tbf: each stream's log replayed through them. */
static void print_models(const struct traffic_opts *o,
			 const struct traffic_run *r)
{
	const struct bm_traffic *t = r->t;
	unsigned int k;

	if (o->mtb.cir_bps > 0)
		for (k = 0; k < t->n_streams; k++)
			print_model(k, &t->streams[k], &r->tr->streams[k],
				    t->streams[k].frame_size ?
				    t->streams[k].frame_size : o->size, &o->mtb);
	if (o->mtbf.rate_bps > 0)
		for (k = 0; k < t->n_streams; k++)
			print_model_tbf(k, &t->streams[k], &r->tr->streams[k],
					t->streams[k].frame_size ?
					t->streams[k].frame_size : o->size,
					&o->mtbf);
}

int main(int argc, char **argv)
{
	struct bm_error err = { { 0 } };
	struct traffic_run r = { 0 };
	struct traffic_opts o;
	int ret;

	ret = parse_opts(argc, argv, &o);
	if (ret >= 0)
		return ret;
	if (o.plan)
		return print_plan(&o);
	if (!o.ports || !o.topo || optind < argc) {
		usage(stderr);
		return 2;
	}
	ret = make_traffic(&o, &r, &err);
	if (!ret)
		ret = make_backend(&o, &r, &err);
	if (!ret)
		ret = run_trial(&o, &r, &err);
	if (!ret) {
		print_result(r.t, r.tr, &r.res, r.wall_s);
		print_models(&o, &r);
	}
	if (r.be)
		r.be->ops->destroy(r.be);
	bm_traffic_result_free(r.tr);
	if (r.t) {
		bm_traffic_free(r.t);
		free(r.t);
	}
	return ret;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * bmgen-trial: one raw trial on bmgen.ko, for lab tests and for engineers who
 * want the instrument without a procedure.  Prints key=value lines (or the
 * module status with "status").  Exit 0 on a completed trial, 1 on an error
 * from the module (its extack message on stderr), 2 on bad arguments.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/bmgen.h>

#include "bm_genl.h"
#include "bm_hwts.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: bmgen-trial status\n"
		"       bmgen-trial port DEV\n"
		"       bmgen-trial hwts DEV\n"
		"       bmgen-trial dev DEV    (transmit paths, attached or not)\n"
		"       bmgen-trial --tx DEV --rx DEV [--size F | --imix F,F,...]\n"
		"                   [--rate FPS] [--count N | --burst N [--gap NS] [--bursts K]]\n"
		"                   [--flows N] [--dscp D] [--vlan ID [--pcp P]] [--ipv6]\n"
		"                   [--qdisc] [--cpu N] [--streams N] [--drain S] [--late-watch S]\n"
		"                   [--stop-after S]\n"
		"                   [--hwts] [--ptp] [--sum] [--log N]\n"
		"                   [--tx-path auto|alloc|recycle|xdp] [--start-tai NS]\n"
		"       bmgen-trial --rx-only --rx DEV --stop-after S [--size F | --imix ...]\n"
		"                   [--streams N] [--start-tai NS] [--drain S]\n"
		"--streams N adds N identical streams (ids 1..N, each at --rate);\n"
		"--sum prints their totals, not N blocks; --log N prints the\n"
		"departure times of stream 1's first N frames (tx_log=, ns).\n"
		"--hwts switches hardware stamping on at both ports' drivers for the trial\n"
		"(then puts back what was set) and tells the module with the PHCs' offsets;\n"
		"--ptp sends IEEE 1588 Sync-shaped frames, which PTP-only rx filters stamp.\n"
		"--drain S waits S (default 1) after the trial, then closes its counting\n"
		"(RX_CLOSE); --late-watch S waits S more and rx_late= says how many\n"
		"frames came after the drain (REQ-RX-3).\n"
		"--tx-path asks for a transmit path (default auto: the cheapest the\n"
		"port allows); tx_path= says which the trial used.\n"
		"--start-tai NS starts the trial at that CLOCK_TAI instant (every host of a\n"
		"trial across hosts at one); epoch_tai_ns= says when it started.\n"
		"--rx-only adds the streams' receiving halves alone (another host, or\n"
		"bmgen-peer, sends them) and runs until --stop-after.\n");
}

/* Slab + vmalloc of the whole guest in kB (/proc/meminfo), -1 unknown. */
static long long mem_kb(void)
{
	char line[128];
	long long v, sum = 0;
	int seen = 0;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "Slab: %lld", &v) == 1 ||
		    sscanf(line, "VmallocUsed: %lld", &v) == 1) {
			sum += v;
			seen++;
		}
	}
	fclose(f);
	return seen == 2 ? sum : -1;
}

static uint64_t mono_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ULL + (uint64_t)t.tv_nsec;
}

/* The streams' totals, for --sum: one block however many streams. */
struct trial_sum {
	uint64_t tx_frames, tx_errors, tx_late, rx_frames, rx_unique, rx_late;
	uint64_t tx_first, tx_last, max_batch, ring_misses;
	uint32_t paths;		/* 1 << BMGEN_TXP_* the streams used */
};

static void sum_add(struct trial_sum *t, const struct bm_genl_stats *st)
{
	if (st->tx_frames && (!t->tx_frames || st->tx_first_ns < t->tx_first))
		t->tx_first = st->tx_first_ns;
	if (st->tx_frames && st->tx_last_ns > t->tx_last)
		t->tx_last = st->tx_last_ns;
	t->tx_frames += st->tx_frames;
	t->tx_errors += st->tx_errors;
	t->tx_late += st->tx_late_frames;
	t->rx_frames += st->rx_frames;
	t->rx_unique += st->rx_unique;
	t->rx_late += st->rx_late;
	if (st->tx_max_batch > t->max_batch)
		t->max_batch = st->tx_max_batch;
	t->ring_misses += st->tx_ring_misses;
	if (st->tx_path < 32)
		t->paths |= 1u << st->tx_path;
}

static void sum_print(const struct trial_sum *t)
{
	printf("tx_frames=%llu\ntx_errors=%llu\ntx_late_frames=%llu\n"
	       "tx_first_ns=%llu\ntx_last_ns=%llu\ntx_max_batch=%llu\n"
	       "rx_frames=%llu\nrx_unique=%llu\nrx_late=%llu\n",
	       (unsigned long long)t->tx_frames,
	       (unsigned long long)t->tx_errors, (unsigned long long)t->tx_late,
	       (unsigned long long)t->tx_first, (unsigned long long)t->tx_last,
	       (unsigned long long)t->max_batch,
	       (unsigned long long)t->rx_frames,
	       (unsigned long long)t->rx_unique,
	       (unsigned long long)t->rx_late);
	/* one name when every stream used the same path */
	printf("tx_path=%s\ntx_ring_misses=%llu\n",
	       t->paths && !(t->paths & (t->paths - 1)) ?
	       bm_genl_tx_path_name(__builtin_ctz(t->paths)) : "mixed",
	       (unsigned long long)t->ring_misses);
}

/* --log: stream 1's departures, one comma-separated line. */
static int print_tx_log(struct bm_genl *g, size_t n, struct bm_error *err)
{
	uint64_t *tx = calloc(n, sizeof(*tx));
	struct bmgen_log_rx *rx = calloc(n, sizeof(*rx));
	size_t ntx = 0, nrx = 0, i;
	int ret = -ENOMEM;

	if (!tx || !rx) {
		bm_errorf(err, "out of memory");
		goto out;
	}
	ret = bm_genl_log_get(g, 1, n, tx, &ntx, rx, &nrx, err);
	if (!ret) {
		printf("tx_log=");
		for (i = 0; i < ntx; i++)
			printf("%s%llu", i ? "," : "", (unsigned long long)tx[i]);
		printf("\n");
	}
out:
	free(rx);
	free(tx);
	return ret;
}

/* tx_paths=alloc,recycle,xdp: the names of the 1 << BMGEN_TXP_* bits. */
static void print_paths(uint32_t paths)
{
	const char *sep = "";
	uint32_t i;

	printf("tx_paths=");
	for (i = BMGEN_TXP_ALLOC; i <= BMGEN_TXP_MAX; i++)
		if (paths & (1u << i)) {
			printf("%s%s", sep, bm_genl_tx_path_name(i));
			sep = ",";
		}
	printf("\n");
}

static int die(int code, const char *what, const struct bm_error *err)
{
	fprintf(stderr, "bmgen-trial: %s: %s\n", what, err->msg);
	return code;
}

static int parse_u64(const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 0);
	return errno || !*s || *end || *s == '-' ? -1 : 0;
}

static void print_stats(const struct bm_genl_stats *st, const char *pfx)
{
	struct bm_latency l;
	unsigned int i;

	bm_genl_stats_latency(st, &l);
	printf("%sts_source=%s\n", pfx, st->ts_source == BMGEN_TS_HW ? "hw" : "sw");
	printf("%sts_clock=%s\n", pfx, st->ts_clock == CLOCK_MONOTONIC ?
	       "monotonic" : "other");
	printf("%stx_frames=%llu\n", pfx, (unsigned long long)st->tx_frames);
	printf("%stx_bytes=%llu\n", pfx, (unsigned long long)st->tx_bytes);
	printf("%stx_retries=%llu\n", pfx, (unsigned long long)st->tx_retries);
	printf("%stx_errors=%llu\n", pfx, (unsigned long long)st->tx_errors);
	printf("%stx_first_ns=%llu\n", pfx, (unsigned long long)st->tx_first_ns);
	printf("%stx_last_ns=%llu\n", pfx, (unsigned long long)st->tx_last_ns);
	printf("%stx_late_frames=%llu\n", pfx,
	       (unsigned long long)st->tx_late_frames);
	printf("%stx_late_max_ns=%llu\n", pfx,
	       (unsigned long long)st->tx_late_max_ns);
	printf("%stx_stalls_ns=", pfx);
	for (i = 0; i < BMGEN_TX_STALLS; i++)
		printf("%s%llu", i ? "," : "",
		       (unsigned long long)st->tx_stalls_ns[i]);
	printf("\n");
	printf("%stx_max_batch=%llu\n", pfx,
	       (unsigned long long)st->tx_max_batch);
	printf("%stx_path=%s\n", pfx, bm_genl_tx_path_name(st->tx_path));
	printf("%stx_ring_misses=%llu\n", pfx,
	       (unsigned long long)st->tx_ring_misses);
	printf("%srx_frames=%llu\n", pfx, (unsigned long long)st->rx_frames);
	printf("%srx_bytes=%llu\n", pfx, (unsigned long long)st->rx_bytes);
	printf("%srx_unique=%llu\n", pfx, (unsigned long long)st->rx_unique);
	printf("%srx_late=%llu\n", pfx, (unsigned long long)st->rx_late);
	printf("%srx_in_order=%llu\n", pfx, (unsigned long long)st->rx_in_order);
	printf("%srx_reordered=%llu\n", pfx, (unsigned long long)st->rx_reordered);
	printf("%srx_dup=%llu\n", pfx, (unsigned long long)st->rx_dup);
	printf("%srx_gap_events=%llu\n", pfx, (unsigned long long)st->rx_gap_events);
	printf("%srx_gap_frames=%llu\n", pfx, (unsigned long long)st->rx_gap_frames);
	printf("%srx_bad_len=%llu\n", pfx, (unsigned long long)st->rx_bad_len);
	printf("%srx_cpu_split=%llu\n", pfx, (unsigned long long)st->rx_cpu_split);
	printf("%srx_first_ns=%llu\n", pfx, (unsigned long long)st->rx_first_ns);
	printf("%srx_last_ns=%llu\n", pfx, (unsigned long long)st->rx_last_ns);
	printf("%srx_max_iat_ns=%llu\n", pfx, (unsigned long long)st->rx_max_iat_ns);
	printf("%slost=%llu\n", pfx, (unsigned long long)
	       (st->tx_frames > st->rx_unique ? st->tx_frames - st->rx_unique : 0));
	printf("%slat_count=%llu\n", pfx, (unsigned long long)l.count);
	printf("%slat_min_ns=%.0f\n", pfx, l.min_ns);
	printf("%slat_mean_ns=%.0f\n", pfx, l.mean_ns);
	printf("%slat_max_ns=%.0f\n", pfx, l.max_ns);
	printf("%slat_stddev_ns=%.0f\n", pfx, l.stddev_ns);
	printf("%slat_p50_ns=%.0f\n", pfx, l.p50_ns);
	printf("%slat_p99_ns=%.0f\n", pfx, l.p99_ns);
	printf("%sipdv_count=%llu\n", pfx, (unsigned long long)st->ipdv_count);
	printf("%sipdv_min_ns=%lld\n", pfx, (long long)st->ipdv_min_ns);
	printf("%sipdv_max_ns=%lld\n", pfx, (long long)st->ipdv_max_ns);
	/* achieved rate between first and last arrival (PLAT-GEN REQ-GEN-3) */
	if (st->rx_unique > 1 && st->rx_last_ns > st->rx_first_ns)
		printf("%srx_rate_fps=%.3f\n", pfx, (double)(st->rx_unique - 1) *
		       1e9 / (double)(st->rx_last_ns - st->rx_first_ns));
	if (st->tx_frames > 1 && st->tx_last_ns > st->tx_first_ns)
		printf("%stx_rate_fps=%.3f\n", pfx, (double)(st->tx_frames - 1) *
		       1e9 / (double)(st->tx_last_ns - st->tx_first_ns));
	/* hardware stamps: the frames that have both halves */
	printf("%shw_tx_requests=%llu\n", pfx,
	       (unsigned long long)st->hw_tx_requests);
	printf("%shw_tx_stamps=%llu\n", pfx, (unsigned long long)st->hw_tx_stamps);
	printf("%shw_tx_missed=%llu\n", pfx, (unsigned long long)
	       (st->hw_tx_requests > st->hw_tx_stamps ?
		st->hw_tx_requests - st->hw_tx_stamps : 0));
	printf("%shw_rx_stamps=%llu\n", pfx, (unsigned long long)st->hw_rx_stamps);
	printf("%shw_lat_count=%llu\n", pfx, (unsigned long long)st->hw_lat_count);
	if (st->hw_lat_count) {
		printf("%shw_lat_min_ns=%lld\n", pfx, (long long)st->hw_lat_min_ns);
		printf("%shw_lat_max_ns=%lld\n", pfx, (long long)st->hw_lat_max_ns);
		printf("%shw_lat_mean_ns=%.0f\n", pfx, (double)st->hw_lat_sum_ns /
		       (double)st->hw_lat_count);
		printf("%shw_lat_sw_mean_ns=%.0f\n", pfx,
		       (double)st->hw_lat_sw_sum_ns / (double)st->hw_lat_count);
	}
}

/* "hwts DEV": what the driver takes, then put back. */
static int hwts_probe(const char *dev)
{
	struct bm_error err = { { 0 } };
	struct bm_hwts_cfg c;
	int ret, tx_on, filter;

	ret = bm_hwts_enable(dev, &c, &err);
	if (ret) {
		fprintf(stderr, "bmgen-trial: %s\n", err.msg);
		return 1;
	}
	if (c.saved)
		printf("hwts_before_tx=%s\nhwts_before_rx_filter=%s\n",
		       c.old.tx_type == HWTSTAMP_TX_ON ? "on" : "off",
		       bm_hwts_filter_name(c.old.rx_filter));
	printf("hwts_tx=%s\nhwts_rx_filter=%s\n", c.tx_on ? "on" : "off",
	       bm_hwts_filter_name(c.rx_filter));
	if (bm_hwts_restore(&c)) {
		fprintf(stderr, "bmgen-trial: %s: cannot put back the old setting\n",
			dev);
		return 1;
	}
	if (!bm_hwts_get(dev, &tx_on, &filter))
		printf("hwts_after_tx=%s\nhwts_after_rx_filter=%s\n",
		       tx_on ? "on" : "off", bm_hwts_filter_name(filter));
	return 0;
}

/* --hwts: switch stamping on at port dev and tell the module. */
static int hwts_port(struct bm_genl *g, const char *dev, const char *side,
		     struct bm_hwts_cfg *c, struct bm_error *err)
{
	struct bm_genl_port_counters pc;
	int64_t off, unc;
	int ret;

	ret = bm_hwts_enable(dev, c, err);
	if (ret)
		return ret;
	ret = bm_genl_port_counters(g, if_nametoindex(dev), &pc, err);
	if (ret)
		return ret;
	ret = bm_genl_port_hw_arm(g, dev, c, pc.phc_index, &off, &unc, err);
	if (ret)
		return ret;
	printf("%s_hwts_tx=%s\n%s_hwts_rx_filter=%s\n%s_phc=%d\n"
	       "%s_phc_offset_unc_ns=%lld\n", side, c->tx_on ? "on" : "off",
	       side, bm_hwts_filter_name(c->rx_filter), side, pc.phc_index, side,
	       (long long)unc);
	return 0;
}

/* "status": the module's version, resources and trial state. */
static int cmd_status(void)
{
	struct bm_error err = { { 0 } };
	struct bm_module_status st;

	if (bm_genl_status(&st, &err))
		return die(1, "status", &err);
	printf("version=%s\nproto=%u\ncpus=%u\nkthreads=%u\nports=%u\nstreams=%u\ntrial_state=%u\ntrial_error=%d\n",
	       st.version, st.proto, st.cpus, st.kthreads, st.ports,
	       st.streams, st.trial_state, st.trial_error);
	return 0;
}

/* "dev DEV": the transmit paths of a device, attached or not. */
static int cmd_dev(const char *dev)
{
	struct bm_error err = { { 0 } };
	struct bm_genl *g;
	uint32_t paths;
	int ret;

	g = bm_genl_open(&ret, &err);
	if (!g)
		return die(1, "open", &err);
	if (bm_genl_dev_tx_paths(g, dev, &paths, &err))
		return die(1, "dev", &err);
	print_paths(paths);
	bm_genl_close(g);
	return 0;
}

/* "port DEV": an attached port's counters and capabilities. */
static int cmd_port(const char *dev)
{
	struct bm_error err = { { 0 } };
	struct bm_genl_port_counters pc;
	unsigned int ifindex = if_nametoindex(dev);
	struct bm_genl *g;
	int ret;

	if (!ifindex) {
		fprintf(stderr, "bmgen-trial: no such device: %s\n", dev);
		return 2;
	}
	g = bm_genl_open(&ret, &err);
	if (!g)
		return die(1, "open", &err);
	if (bm_genl_port_counters(g, ifindex, &pc, &err))
		return die(1, "port", &err);
	printf("rx_other=%llu\nrx_unknown=%llu\nrx_misdirected=%llu\n"
	       "ts_caps=%u\nphc=%d\nhwts=%u\n",
	       (unsigned long long)pc.rx_other,
	       (unsigned long long)pc.rx_unknown,
	       (unsigned long long)pc.rx_misdirected, pc.ts_caps,
	       pc.phc_index, pc.hwts);
	print_paths(pc.tx_paths);
	bm_genl_close(g);
	return 0;
}

/* The commands other than a trial: their exit code, or -1 for none. */
static int subcommand(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "status"))
		return cmd_status();
	if (argc == 3 && !strcmp(argv[1], "hwts"))
		return hwts_probe(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "dev"))
		return cmd_dev(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "port"))
		return cmd_port(argv[2]);
	return -1;
}

/* A trial as the options give it: stream 1 (the others are its copies),
 * the ports, and what to do around the trial. */
struct trial_opts {
	struct bm_genl_stream s;
	const char *tx, *rx;
	double rate, drain, stop_after, watch;
	uint64_t nstreams;
	uint32_t log_n;		/* --log: stream 1's departures to print */
	uint64_t start_tai;	/* --start-tai: the epoch on CLOCK_TAI */
	int hwts, sum, rx_only;
};

static const struct option trial_options[] = {
	{ "tx", required_argument, NULL, 't' },
	{ "rx", required_argument, NULL, 'r' },
	{ "size", required_argument, NULL, 's' },
	{ "imix", required_argument, NULL, 'i' },
	{ "rate", required_argument, NULL, 'R' },
	{ "count", required_argument, NULL, 'c' },
	{ "burst", required_argument, NULL, 'b' },
	{ "gap", required_argument, NULL, 'g' },
	{ "bursts", required_argument, NULL, 'B' },
	{ "flows", required_argument, NULL, 'f' },
	{ "dscp", required_argument, NULL, 'd' },
	{ "vlan", required_argument, NULL, 'v' },
	{ "pcp", required_argument, NULL, 'p' },
	{ "ipv6", no_argument, NULL, '6' },
	{ "qdisc", no_argument, NULL, 'q' },
	{ "cpu", required_argument, NULL, 'C' },
	{ "streams", required_argument, NULL, 'n' },
	{ "drain", required_argument, NULL, 'D' },
	{ "late-watch", required_argument, NULL, 'W' },
	{ "stop-after", required_argument, NULL, 'S' },
	{ "hwts", no_argument, NULL, 'H' },
	{ "ptp", no_argument, NULL, 'P' },
	{ "sum", no_argument, NULL, 'u' },
	{ "log", required_argument, NULL, 'L' },
	{ "tx-path", required_argument, NULL, 'T' },
	{ "start-tai", required_argument, NULL, 'A' },
	{ "rx-only", no_argument, NULL, 'O' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* --imix F,F,...: the sizes into s; -1 on a size that is no number. */
static int parse_imix(const char *arg, struct bm_genl_stream *s)
{
	char *e = NULL;

	for (const char *p = arg; *p && s->n_imix < 64; p = e + (*e == ',')) {
		s->imix[s->n_imix++] = strtoul(p, &e, 10);
		if (e == p)
			return -1;
	}
	return 0;
}

/* --tx-path NAME into s; -1 on a name no path has. */
static int parse_tx_path(const char *arg, struct bm_genl_stream *s)
{
	for (s->tx_path = 0; s->tx_path <= BMGEN_TXP_MAX &&
	     strcmp(arg, bm_genl_tx_path_name(s->tx_path)); s->tx_path++)
		;
	return s->tx_path > BMGEN_TXP_MAX ? -1 : 0;
}

/* One option c (its argument as a number in v) into o: 0, or the exit
 * code on a bad value or --help. */
static int parse_opt(int c, uint64_t v, struct trial_opts *o)
{
	struct bm_genl_stream *s = &o->s;
	char *e = NULL;

	switch (c) {
	case 't': o->tx = optarg; break;
	case 'r': o->rx = optarg; break;
	case 's': s->frame_size = v; break;
	case 'i':
		if (parse_imix(optarg, s))
			return usage(stderr), 2;
		break;
	case 'R':
		o->rate = strtod(optarg, &e);
		if (*e || o->rate < 0)
			return usage(stderr), 2;
		break;
	case 'c': s->count = v; break;
	case 'b':
		s->pattern = BMGEN_PAT_BURST;
		s->burst_len = v;
		if (!s->burst_count)
			s->burst_count = 1;
		break;
	case 'g': s->burst_gap_ns = v; break;
	case 'B': s->burst_count = v; break;
	case 'f': s->flows = v; break;
	case 'd': s->dscp = v; break;
	case 'v': s->vlan_id = v; break;
	case 'p': s->vlan_pcp = v; break;
	case '6': s->ip_version = 6; break;
	case 'q': s->tx_mode = BMGEN_TX_QDISC; break;
	case 'C': s->cpu = v; break;
	case 'n': o->nstreams = v; break;
	case 'D': o->drain = strtod(optarg, &e); break;
	case 'W':
		o->watch = strtod(optarg, &e);
		if (*e || !(o->watch >= 0 && o->watch <= 60))
			return usage(stderr), 2;
		break;
	case 'S':
		o->stop_after = strtod(optarg, &e);
		s->pattern = BMGEN_PAT_CONTINUOUS;
		break;
	case 'H': o->hwts = 1; break;
	case 'P': s->ptp_shape = 1; break;
	case 'u': o->sum = 1; break;
	case 'L': s->log_frames = v; break;
	case 'T':
		if (parse_tx_path(optarg, s)) {
			fprintf(stderr, "bmgen-trial: --tx-path takes auto, alloc, recycle or xdp\n");
			return 2;
		}
		break;
	case 'A': o->start_tai = v; break;
	case 'O': o->rx_only = 1; break;
	case 'h': usage(stdout); return 0;
	default: usage(stderr); return 2;
	}
	return -1;
}

/* The options into o, checked: -1 to run the trial, or the exit code. */
static int parse_opts(int argc, char **argv, struct trial_opts *o)
{
	uint64_t v = 0;
	int c, ret;

	memset(o, 0, sizeof(*o));
	bm_genl_stream_init(&o->s);
	o->s.pattern = BMGEN_PAT_COUNT;
	o->s.count = 1000;
	o->drain = 1.0;
	o->nstreams = 1;
	while ((c = getopt_long(argc, argv, "h", trial_options, NULL)) != -1) {
		/* getopt said what was wrong: an unknown option, a missing
		 * argument */
		if (c == '?') {
			usage(stderr);
			return 2;
		}
		/* the options whose argument is no unsigned number */
		if (optarg && c != 't' && c != 'r' && c != 'i' && c != 'R' && c != 'D' &&
		    c != 'W' && c != 'S' && c != '6' && c != 'q' && c != 'h' && c != 'H' &&
		    c != 'P' && c != 'u' && c != 'T' && c != 'O' &&
		    parse_u64(optarg, &v)) {
			fprintf(stderr, "bmgen-trial: bad number '%s'\n", optarg);
			return 2;
		}
		ret = parse_opt(c, v, o);
		if (ret >= 0)
			return ret;
	}
	if (!o->tx == !o->rx_only || !o->rx || optind != argc || !o->nstreams ||
	    o->nstreams >= BMGEN_MAX_STREAMS) {
		usage(stderr);
		return 2;
	}
	/* a receiving half ends when told: its sender is elsewhere */
	if (o->rx_only && (!(o->stop_after > 0) || o->hwts)) {
		fprintf(stderr, "bmgen-trial: --rx-only needs --stop-after, and no --hwts\n");
		return 2;
	}
	o->log_n = o->rx_only ? 0 : o->s.log_frames;
	o->s.rate_ufps = (uint64_t)llround(o->rate * 1e6);
	o->s.tx_ifindex = o->rx_only ? 0 : if_nametoindex(o->tx);
	o->s.rx_ifindex = if_nametoindex(o->rx);
	if ((!o->rx_only && !o->s.tx_ifindex) || !o->s.rx_ifindex) {
		fprintf(stderr, "bmgen-trial: no such device\n");
		return 2;
	}
	return -1;
}

/* Attach both ports, switch stamping on with --hwts (hc), and clear the
 * module's streams; 0 or the exit code. */
static int prepare(struct bm_genl *g, const struct trial_opts *o,
		   struct bm_hwts_cfg hc[2], struct bm_error *err)
{
	int i, ret;

	for (i = o->rx_only; i < 2; i++) {
		ret = bm_genl_port_attach(g, i ? o->rx : o->tx, err);
		if (ret && ret != -EEXIST)
			return die(1, "attach", err);
	}
	memset(hc, 0, 2 * sizeof(*hc));
	for (i = 0; o->hwts && i < 2; i++) {
		if (hwts_port(g, i ? o->rx : o->tx, i ? "rx" : "tx", &hc[i], err)) {
			bm_hwts_restore(&hc[0]);
			return die(1, "hwts", err);
		}
	}
	if (bm_genl_stream_del(g, 0, err))
		return die(1, "stream del", err);
	return 0;
}

/* Add the streams (stream 1 alone logs its departures) and start the
 * trial, printing the control plane's cost: the time the set-up and the
 * start took, and the memory the streams hold.  0 or the exit code. */
static int start_streams(struct bm_genl *g, struct trial_opts *o,
			 struct bm_error *err)
{
	struct bm_module_status st;
	uint64_t t0, t1, i;
	long long m0, m1;

	m0 = mem_kb();
	t0 = mono_ns();
	for (i = 1; i <= o->nstreams; i++) {
		o->s.id = i;
		if (bm_genl_stream_add(g, &o->s, err))
			return die(1, "stream add", err);
		if (i > 1)
			o->s.log_frames = 0;
	}
	if (bm_genl_trial_start_at(g, 0, o->start_tai, BM_GENL_TRIAL_OWNED, err))
		return die(1, "trial start", err);
	t1 = mono_ns();
	m1 = mem_kb();
	if (bm_genl_status_get(g, &st, err))
		return die(1, "status", err);
	printf("epoch_tai_ns=%llu\n", (unsigned long long)st.epoch_tai_ns);
	printf("setup_ns=%llu\n", (unsigned long long)(t1 - t0));
	if (m0 >= 0 && m1 >= 0)
		printf("setup_mem_kb=%lld\n", m1 - m0);
	return 0;
}

/* Stop the trial after --stop-after, wait for its end (*state), drain,
 * close the counting and watch for late frames; 0 or the exit code. */
static int finish_trial(struct bm_genl *g, const struct trial_opts *o,
			int *state, struct bm_error *err)
{
	int c, terr = 0;

	if (o->stop_after > 0) {
		usleep((useconds_t)(o->stop_after * 1e6));
		if (bm_genl_trial_stop(g, err))
			return die(1, "trial stop", err);
	}
	*state = bm_genl_trial_wait(g, 3600, &terr, err);
	if (*state < 0)
		return die(1, "trial", err);
	printf("trial_state=%d\ntrial_error=%d\n", *state, terr);
	usleep((useconds_t)(o->drain * 1e6));
	/* the counts are those at the threshold; later frames are late */
	c = bm_genl_rx_close(g, err);
	if (c && c != -EOPNOTSUPP)
		return die(1, "rx close", err);
	if (o->watch > 0)
		usleep((useconds_t)(o->watch * 1e6));
	return 0;
}

/* Every stream's statistics (or their totals with --sum), the time
 * reading them took, and --log's departures; 0 or the exit code. */
static int print_results(struct bm_genl *g, const struct trial_opts *o,
			 struct bm_error *err)
{
	struct trial_sum tot = { 0 };
	uint64_t t0, t1, i;

	t0 = mono_ns();
	for (i = 1; i <= o->nstreams; i++) {
		struct bm_genl_stats st;
		char pfx[16] = "";

		if (bm_genl_stats_get(g, i, &st, err))
			return die(1, "stats", err);
		if (o->nstreams > 1)
			snprintf(pfx, sizeof(pfx), "s%llu_", (unsigned long long)i);
		if (o->sum)
			sum_add(&tot, &st);
		else
			print_stats(&st, pfx);
		bm_genl_stats_free(&st);
	}
	t1 = mono_ns();
	if (o->sum)
		sum_print(&tot);
	printf("stats_ns=%llu\n", (unsigned long long)(t1 - t0));
	if (o->log_n && print_tx_log(g, o->log_n, err))
		return die(1, "log", err);
	return 0;
}

/* --hwts: put back what the ports' drivers stamped before. */
static void restore_hwts(struct bm_genl *g, const struct trial_opts *o,
			 struct bm_hwts_cfg hc[2], struct bm_error *err)
{
	int i;

	for (i = 0; o->hwts && i < 2; i++) {
		bm_genl_port_set(g, i ? o->rx : o->tx, 0, NULL, err);
		if (bm_hwts_restore(&hc[i]))
			fprintf(stderr, "bmgen-trial: %s: cannot put back the old stamping\n",
				i ? o->rx : o->tx);
	}
}

int main(int argc, char **argv)
{
	struct bm_error err = { { 0 } };
	struct bm_hwts_cfg hc[2];
	struct trial_opts o;
	struct bm_genl *g;
	int ret, state = 0;

	ret = subcommand(argc, argv);
	if (ret >= 0)
		return ret;
	ret = parse_opts(argc, argv, &o);
	if (ret >= 0)
		return ret;
	g = bm_genl_open(&ret, &err);
	if (!g)
		return die(1, "open", &err);
	ret = prepare(g, &o, hc, &err);
	if (!ret)
		ret = start_streams(g, &o, &err);
	if (!ret)
		ret = finish_trial(g, &o, &state, &err);
	if (!ret)
		ret = print_results(g, &o, &err);
	if (ret)
		return ret;
	restore_hwts(g, &o, hc, &err);
	bm_genl_close(g);
	return state == BMGEN_TRIAL_FAILED ? 1 : 0;
}

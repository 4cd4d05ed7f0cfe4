// SPDX-License-Identifier: GPL-2.0
/*
 * RFC 2544's parameter keys: the table every key of every test is read
 * from (type, range, unit, help; Documentation/procedures-rfc2544.md
 * says more) and the parsers its custom keys name (frame sizes, given
 * throughputs, burst sizes, an IMIX, protocols, §11.2's agent and
 * community, a reset).  Apart from the parameters' defaults and their
 * checks across keys (rfc2544_params.c) because this is what one key
 * is, read alone.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bm_traffic.h"
#include "rfc2544_int.h"

#define OFF(f)	offsetof(struct rfc2544_params, f)

static const char *const search_names[] = { "binary", "mlr", "rfc9971",
					    NULL };
static const char *const latdef_names[] = { "bf", "sf", NULL };
static const char *const latdest_names[] = { "same", "new-net", NULL };
static const char *const reset_names[] = { "hardware", "software", "power",
					   NULL };

/* REQ-FRM-3: the 18-byte test header needs 64 B; 9216 B is the largest
 * jumbo frame the lab carries. */
#define FRAME_MIN	64
#define FRAME_MAX	9216

static int parse_sizes(json_object *v, void *base, const char *key,
		       struct bm_error *err)
{
	struct rfc2544_params *p = base;

	return bm_json_parse_sizes(v, key, FRAME_MIN, FRAME_MAX,
				   p->frame_sizes, RFC2544_MAX_SIZES,
				   &p->n_sizes, err);
}

/* A number for every size, or an array parallel to frame_sizes; checked
 * against n_sizes after all keys are parsed. */
static int parse_thr(json_object *v, void *base, const char *key,
		     struct bm_error *err)
{
	struct rfc2544_params *p = base;
	size_t n, i;
	double x;

	memset(p->throughput_fps, 0, sizeof(p->throughput_fps));
	if (bm_json_number(v, &x)) {
		if (!(x > 0.0))
			return bm_errorf(err, "%s: must be > 0", key);
		for (i = 0; i < RFC2544_MAX_SIZES; i++)
			p->throughput_fps[i] = x;
		return 0;
	}
	if (json_object_get_type(v) != json_type_array)
		return bm_errorf(err, "%s: expected a number or an array", key);
	n = json_object_array_length(v);
	if (!n || n > RFC2544_MAX_SIZES)
		return bm_errorf(err, "%s: expected 1 to %d rates", key,
				 RFC2544_MAX_SIZES);
	for (i = 0; i < n; i++) {
		if (!bm_json_number(json_object_array_get_idx(v, i), &x) ||
		    !(x > 0.0))
			return bm_errorf(err, "%s[%zu]: expected a number > 0",
					 key, i);
		p->throughput_fps[i] = x;
	}
	/* Mark the array length in the first unused slot's sign. */
	if (n < RFC2544_MAX_SIZES)
		p->throughput_fps[n] = -1.0;
	return 0;
}

/* §21: bursts of 1 frame are a constant stream; the module sends at most
 * 2^24 frames back to back (BMGEN_MAX_BURST). */
#define BURST_MIN	2
#define BURST_MAX	16777216

/* §21 burst sizes: [] (a constant stream) or 1..RFC2544_MAX_BURSTS
 * distinct sizes, reported in the order given. */
static int parse_bursts(json_object *v, void *base, const char *key,
			struct bm_error *err)
{
	struct rfc2544_params *p = base;
	size_t n, i, j;
	int64_t b;

	if (json_object_get_type(v) != json_type_array)
		return bm_errorf(err, "%s: expected an array of burst sizes "
				 "(frames)", key);
	n = json_object_array_length(v);
	if (n > RFC2544_MAX_BURSTS)
		return bm_errorf(err, "%s: at most %d burst sizes", key,
				 RFC2544_MAX_BURSTS);
	for (i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(v, i);

		if (json_object_get_type(e) != json_type_int)
			return bm_errorf(err, "%s[%zu]: expected an integer",
					 key, i);
		b = json_object_get_int64(e);
		if (b < BURST_MIN || b > BURST_MAX)
			return bm_errorf(err, "%s[%zu]: must be in [%d, %d], "
					 "got %lld", key, i, BURST_MIN,
					 BURST_MAX, (long long)b);
		for (j = 0; j < i; j++)
			if (p->burst_sizes[j] == (uint32_t)b)
				return bm_errorf(err, "%s[%zu]: duplicate burst "
						 "size %lld", key, i,
						 (long long)b);
		p->burst_sizes[i] = (uint32_t)b;
	}
	p->n_bursts = n;
	return 0;
}

/* The module cycles an IMIX of at most 64 frames (BMGEN_MAX_IMIX, the
 * engine's BM_TRAFFIC_MAX_IMIX): the weights' sum. */
#define IMIX_CYCLE	64

/*
 * §17/§18 IMIX: "" (none), "classic" (64:7, 594:4, 1518:1, the "simple
 * IMIX" of 7:4:1) or "S:W,S:W,..." (REQ-2544-5's {size:weight}): distinct
 * sizes in [64, 9216], weights >= 1 summing to at most IMIX_CYCLE.
 */
static int parse_imix(json_object *v, void *base, const char *key,
		      struct bm_error *err)
{
	struct rfc2544_params *p = base;
	const char *s, *q;
	unsigned long sz, w, sum = 0;
	char *end;
	size_t n = 0, j;

	if (json_object_get_type(v) != json_type_string)
		return bm_errorf(err, "%s: expected a string: \"classic\" or "
				 "\"SIZE:WEIGHT,...\"", key);
	s = json_object_get_string(v);
	if (!strcmp(s, "classic"))
		s = "64:7,594:4,1518:1";
	p->n_imix = 0;
	for (q = s; *q;) {
		if (n == RFC2544_MAX_IMIX)
			return bm_errorf(err, "%s: at most %d sizes", key,
					 RFC2544_MAX_IMIX);
		if (*q < '0' || *q > '9')
			return bm_errorf(err, "%s: expected SIZE:WEIGHT at "
					 "\"%.20s\"", key, q);
		sz = strtoul(q, &end, 10);
		if (*end != ':' || end[1] < '0' || end[1] > '9')
			return bm_errorf(err, "%s: expected SIZE:WEIGHT at "
					 "\"%.20s\"", key, q);
		w = strtoul(end + 1, &end, 10);
		if (*end && *end != ',')
			return bm_errorf(err, "%s: expected ',' at \"%.20s\"",
					 key, end);
		if (sz < FRAME_MIN || sz > FRAME_MAX)
			return bm_errorf(err, "%s: size %lu outside [%d, %d]",
					 key, sz, FRAME_MIN, FRAME_MAX);
		if (w < 1 || w > IMIX_CYCLE)
			return bm_errorf(err, "%s: weight %lu of size %lu "
					 "outside [1, %d]", key, w, sz,
					 IMIX_CYCLE);
		for (j = 0; j < n; j++)
			if (p->imix_sizes[j] == sz)
				return bm_errorf(err, "%s: size %lu twice", key,
						 sz);
		sum += w;
		if (sum > IMIX_CYCLE)
			return bm_errorf(err, "%s: weights sum to more than "
					 "%d (the cycle of frames the module "
					 "repeats)", key, IMIX_CYCLE);
		p->imix_sizes[n] = (uint32_t)sz;
		p->imix_weights[n++] = (unsigned int)w;
		q = *end ? end + 1 : end;
	}
	p->n_imix = n;
	return 0;
}

/*
 * §17 protocols: "ipv4", "ipv6", or both as "ipv4,ipv6" (equal shares)
 * or "ipv4:W,ipv6:W" (weights 1..1000), each version once.
 */
static int parse_protocols(json_object *v, void *base, const char *key,
			   struct bm_error *err)
{
	struct rfc2544_params *p = base;
	const char *q;
	unsigned long w;
	uint8_t ver;
	char *end;
	size_t n = 0, j;

	if (json_object_get_type(v) != json_type_string)
		return bm_errorf(err, "%s: expected a string: \"ipv4,ipv6\" "
				 "or \"ipv4:W,ipv6:W\"", key);
	for (q = json_object_get_string(v); *q;) {
		if (!strncmp(q, "ipv4", 4))
			ver = 4;
		else if (!strncmp(q, "ipv6", 4))
			ver = 6;
		else
			return bm_errorf(err, "%s: expected ipv4 or ipv6 at "
					 "\"%.20s\"", key, q);
		q += 4;
		w = 1;
		if (*q == ':') {
			if (q[1] < '0' || q[1] > '9')
				return bm_errorf(err, "%s: expected a weight at "
						 "\"%.20s\"", key, q);
			w = strtoul(q + 1, &end, 10);
			q = end;
			if (w < 1 || w > 1000)
				return bm_errorf(err, "%s: weight %lu outside "
						 "[1, 1000]", key, w);
		}
		if (*q && *q != ',')
			return bm_errorf(err, "%s: expected ',' at \"%.20s\"",
					 key, q);
		for (j = 0; j < n; j++)
			if (p->protocols[j] == ver)
				return bm_errorf(err, "%s: ipv%u twice", key,
						 ver);
		if (n == RFC2544_MAX_PROTOCOLS)
			return bm_errorf(err, "%s: at most %d", key,
					 RFC2544_MAX_PROTOCOLS);
		p->protocols[n] = ver;
		p->protocol_weights[n++] = (unsigned int)w;
		q = *q ? q + 1 : q;
	}
	if (!n)
		return bm_errorf(err, "%s: no protocol", key);
	p->n_protocols = n;
	return 0;
}

/* §11.2's agent: an IPv4 address. */
static int parse_agent(json_object *v, void *base, const char *key,
		       struct bm_error *err)
{
	struct rfc2544_params *p = base;

	if (!bm_json_ip4(v, p->mgmt_agent))
		return bm_errorf(err, "%s: expected an IPv4 address \"a.b.c.d\"",
				 key);
	/* The DUT's addresses on the test network are in 198.18.0.0/15
	 * (App. C.2.2; REQ-ADDR-1): bmd sends a chosen community to no
	 * other host, so that a user cannot aim it at the lab's network */
	if (!bm_addr4_benchmark(p->mgmt_agent))
		return bm_errorf(err, "%s: %s is not a DUT address: the test network is 198.18.0.0/15 (RFC 2544 App. C.2.2)",
				 key, json_object_get_string(v));
	return 0;
}

/* §11.2's community: 1 to 63 printable characters. */
static int parse_community(json_object *v, void *base, const char *key,
			   struct bm_error *err)
{
	struct rfc2544_params *p = base;
	const char *s;
	size_t i, n;

	if (json_object_get_type(v) != json_type_string)
		return bm_errorf(err, "%s: expected a string", key);
	s = json_object_get_string(v);
	n = strlen(s);
	if (n < 1 || n >= sizeof(p->mgmt_community))
		return bm_errorf(err, "%s: 1 to %zu characters", key,
				 sizeof(p->mgmt_community) - 1);
	for (i = 0; i < n; i++)
		if (s[i] < 0x21 || s[i] > 0x7e)
			return bm_errorf(err, "%s: printable characters only",
					 key);
	memcpy(p->mgmt_community, s, n + 1);
	return 0;
}

/* A reset's name: bmd checks it against its configuration. */
static int parse_reset(json_object *v, void *base, const char *key,
		       struct bm_error *err)
{
	struct rfc2544_params *p = base;
	const char *s;

	if (json_object_get_type(v) != json_type_string)
		return bm_errorf(err, "%s: expected a string", key);
	s = json_object_get_string(v);
	if (strlen(s) >= sizeof(p->reset))
		return bm_errorf(err, "%s: longer than %zu characters", key,
				 sizeof(p->reset) - 1);
	snprintf(p->reset, sizeof(p->reset), "%s", s);
	return 0;
}

/* Entries of the table: a number, an unsigned integer, an enum, a custom
 * parser; each with its unit and its one line of help. */
#define KD(k, f, lo, hi, fl, m, u, h) \
	{ { k, BM_J_DOUBLE, OFF(f), lo, hi, fl, m, NULL, NULL }, u, h, NULL }
#define KU(k, f, lo, hi, m, u, h) \
	{ { k, BM_J_UINT, OFF(f), lo, hi, 0, m, NULL, NULL }, u, h, NULL }
#define KL(k, f, lo, hi, m, u, h) \
	{ { k, BM_J_U64, OFF(f), lo, hi, 0, m, NULL, NULL }, u, h, NULL }
#define KB(k, f, m, h) \
	{ { k, BM_J_BOOL, OFF(f), 0, 0, 0, m, NULL, NULL }, "", h, NULL }
#define KE(k, f, names, m, h) \
	{ { k, BM_J_ENUM, OFF(f), 0, 0, 0, m, names, NULL }, "", h, NULL }
/* lo/hi of a custom key document the range of its elements. */
#define KC(k, fn, lo, hi, fl, m, type, u, h) \
	{ { k, BM_J_CUSTOM, 0, lo, hi, fl, m, NULL, fn }, u, h, type }
#define EX BM_JK_MIN_EXCL
#define DV BM_JK_DERIVED

/* Help lines follow Documentation/procedures-rfc2544.md, which says more. */
const struct bm_param rfc2544_keys[] = {
	KC("frame_sizes", parse_sizes, FRAME_MIN, FRAME_MAX, 0, M_ALL,
	   "integer array", "B", "frame sizes with FCS, 1 to 16 distinct (R2544-SIZES); "
	   "reset uses the smallest"),
	KE("topology", topology, bm_topology_names, M_ALL,
	   "pair-uni: TX to RX; pair-bidir: the same rate both ways "
	   "(R2544-BIDIR); multiport: the first half of the ports to the "
	   "second, round-robin; mesh: every port to all others (§16, "
	   "R2544-MULTI; throughput and frame-loss)"),
	KB("learning", learning, M_ALL,
	   "learning frames before every trial (§23b)"),
	KD("learning_pause_s", learning_pause_s, 0, 60, 0, M_ALL, "s",
	   "wait after the learning frames (§23b: 2 s)"),
	KD("drain_s", drain_s, 0, 60, 0, M_ALL, "s",
	   "wait for late frames after each trial before counting (§23d)"),
	KD("restabilise_s", restabilise_s, 0, 600, 0, M_ALL, "s",
	   "wait between a trial and the next for the DUT to restabilise "
	   "(§23e: at least 5)"),
	KD("max_rate_pct", max_rate_pct, 0, 1000, EX, M_ALL, "%",
	   "r_max in % of fps_max(F) on the slowest link (R2544-MAXRATE), "
	   "capped at the tester's line"),
	KD("slowest_link_bps", slowest_link_bps, 0, 1e13, 0, M_ALL, "bit/s",
	   "slowest link of the path (WAN), for r_max; 0 = the tester's line "
	   "rate"),

	KE("search", search, search_names, M_SRCH,
	   "throughput search: binary (R2544-THRPT), mlr (MLRsearch, the "
	   "NDR lower bound) or rfc9971 (RFC 9971 with §4.10.2's goal)"),
	KD("r_min_pct", r_min_pct, 0, 100, EX, M_SRCH, "%",
	   "lowest rate tried, % of r_max [PROPOSED]"),
	KD("start_rate_pct", start_rate_pct, 0, 100, EX, M_SRCH, "%",
	   "rate of the first trial, % of r_max, >= r_min_pct"),
	KD("resolution_pct", resolution_pct, 0, 50, EX, M_SRCH, "%",
	   "stop when hi - lo <= this % of hi [PROPOSED]"),
	KD("resolution_fps", resolution_fps, 1, 1e10, DV, M_SRCH, "fps",
	   "absolute resolution instead of resolution_pct (unset: relative)"),
	KL("loss_tolerance_frames", loss_tolerance_frames, 0, 1e15, M_SRCH,
	   "frames", "lost frames a passing trial may have; only 0 is "
	   "RFC 2544 (else a deviation)"),
	KD("mlr_final_relative_width", mlr_final_relative_width, 0, 1,
	   EX | BM_JK_MAX_EXCL, M_SRCH, "",
	   "search mlr: goal for (hi - lo) / hi (MLR-IN)"),
	KD("mlr_initial_trial_duration_s", mlr_initial_trial_s, 0, 3600, EX,
	   M_SRCH, "s", "search mlr: trial duration of the initial phase"),
	KD("mlr_expansion_coefficient", mlr_expansion_coefficient, 1, 1000, EX,
	   M_SRCH, "", "search mlr: width multiplier of the external search"),
	KD("mlr_timeout_s", mlr_timeout_s, 0, 1e7, EX | DV, M_SRCH, "s",
	   "search mlr: limit per frame size (unset: max(600 s, 30 x "
	   "(trial_duration_s + drain_s))) [PROPOSED]"),
	KU("mlr_intermediate_phases", mlr_intermediate_phases, 0, 20, M_SRCH,
	   "", "search mlr: phases between the initial and the final one"),
	KD("trial_duration_s", thr_final_trial_s, 0, 86400, EX, M_THR, "s",
	   "full-length trial duration (R2544-DUR: SHOULD be >= 60)"),
	KD("search_trial_duration_s", thr_search_trial_s, 0, 86400, EX, M_THR,
	   "s", "search trial duration, <= trial_duration_s (§24: MAY be "
	   "shorter); unset and longer: trial_duration_s"),
	KD("throughput_trial_duration_s", thr_final_trial_s, 0, 86400, EX,
	   M_NEED, "s", "full-length trials of the throughput measured first"),
	KD("throughput_search_trial_duration_s", thr_search_trial_s, 0, 86400,
	   EX, M_NEED, "s", "search trials of the throughput measured first"),
	KC("burst_sizes", parse_bursts, BURST_MIN, BURST_MAX, 0, M_THR | M_FLR,
	   "integer array", "frames", "§21 bursty traffic: bursts of each "
	   "size back to back at line rate, the rate their average (§21 "
	   "SHOULD: [16, 64, 256, 1024]); [] = a constant stream"),
	KC("imix", parse_imix, FRAME_MIN, FRAME_MAX, 0, M_THR | M_FLR, "string",
	   "", "§18 several frame sizes in one trial, in place of frame_sizes: "
	   "\"classic\" (64:7,594:4,1518:1) or \"SIZE:WEIGHT,...\" "
	   "(weights sum <= 64); \"\" = none"),
	KC("protocols", parse_protocols, 0, 0, 0, M_THR | M_FLR, "string", "",
	   "§17 the test frames over several protocols: \"ipv4,ipv6\" "
	   "(equal shares) or \"ipv4:W,ipv6:W\", each its own stream, "
	   "interleaved; \"ipv4\" = IPv4 only"),
	KD("broadcast_pct", broadcast_pct, 0, 50, 0, M_THR | M_FLR, "%",
	   "§11.1 share of frames to ff:ff:ff:ff:ff:ff, evenly spread (§11.1 "
	   "SHOULD: 1); judged on the other frames, delivery reported; 0 = "
	   "none"),
	KU("filters", filters, 0, 25, M_THR | M_FLR, "",
	   "§11.4 the DUT's filter condition: 0 none, 1 the single permit "
	   "filter, 25 the 25-filter list; the test stream becomes "
	   "198.18.1.2 -> 198.19.65.2 and probe frames from denied addresses "
	   "are mixed in (AMB-25)"),
	KE("filter_order", filter_order, rfc2544_filter_order_names, M_THR | M_FLR,
	   "filters 25: where the permit rule is in the list the result "
	   "prints: last (§11.4) or rfc11.4.1 (13th, §11.4.1)"),
	KD("probe_pct", probe_pct, 0, 50, 0, M_THR | M_FLR, "%",
	   "with filters: share of the frames from the denied address "
	   "pairs, evenly spread; any received means the filters do not act; "
	   "0 = no probes (a deviation)"),
	KB("management", management, M_THR | M_FLR,
	   "§11.2: an SNMPv1 GetRequest (C.2.4.3's five variables) to "
	   "mgmt_agent as the first frame of each trial second, in place of "
	   "a test frame; the answers counted and verified"),
	KC("mgmt_agent", parse_agent, 0, 0, 0, M_THR | M_FLR, "string", "",
	   "with management: the DUT's SNMP agent (SPEC: 198.18.1.1)"),
	KC("mgmt_community", parse_community, 0, 0, 0, M_THR | M_FLR,
	   "string", "", "with management: the SNMP community (\"public\")"),
	KU("mgmt_ifindex", mgmt_ifindex, 1, 2147483647, M_THR | M_FLR, "",
	   "with management: the ifIndex of the interface whose counters are "
	   "asked for"),
	KU("random_networks", random_networks, 0, RFC2544_RANDOM_NETWORKS,
	   M_THR | M_FLR, "", "§12 random destination addresses: each frame "
	   "to 198.19.(65+k).2, k uniform over this many networks (SPEC: "
	   "190, App C's output side; AMB-05), for a router DUT; 0 = one "
	   "destination (§12's first run)"),
	KU("random_macs", random_macs, 0, RFC2544_RANDOM_MACS_MAX,
	   M_THR | M_FLR, "", "§12 random destination addresses for a "
	   "bridge DUT: each frame to one of this many unicast MACs drawn "
	   "from random_seed (SPEC: 256; AMB-06), every one of them learnt "
	   "behind the rx port first; 0 = the rx port's MAC"),
	KE("route_setup", route_setup, rfc2544_route_setup_names,
	   M_THR | M_FLR, "§13 how a router DUT gets its routes to the "
	   "trial's networks beyond its own: static (configured on it; a "
	   "deviation) or rip (a RIP v1 update from each rx port's phantom "
	   "router before every trial, C.2.4.2)"),
	KD("route_lead_s", route_lead_s, 0, 300, 0, M_THR | M_FLR, "s",
	   "with route_setup rip: the update this long before the stream "
	   "(REQ-TRIAL-2: 7; the DUT's ARP 2 s after it)"),
	KB("routing_updates", routing_updates, M_THR | M_FLR,
	   "§11.3: RIP v1 updates A and B alternated from the tx port, one "
	   "as the trial's first frame, then one every routing_interval_s; "
	   "they change routes to networks the test does not use"),
	KD("routing_interval_s", routing_interval_s, 0.1, 86400, 0,
	   M_THR | M_FLR, "s", "with routing_updates: between updates "
	   "(C.2.3: 30 for RIP)"),
	KU("random_seed", random_seed, 0, 4294967295u, M_THR | M_FLR, "",
	   "with random_networks or random_macs: the seed; the same seed, "
	   "the same destinations frame by frame"),
	KC("throughput_fps", parse_thr, 0, INFINITY, EX | DV, M_NEED,
	   "number or number array", "fps",
	   "known throughput, one or one per size: no search (a deviation); "
	   "unset: measure it"),

	KD("trial_duration_s", lat_trial_s, 0, 86400, EX, M_LAT, "s",
	   "stream length of each repetition (§26.2: 120)"),
	KD("tag_at_s", lat_tag_at_s, 0, 86400, 0, M_LAT, "s",
	   "when the tagged frame is sent, < trial_duration_s (§26.2: 60; "
	   "unset and too late: the middle of the stream)"),
	/* R2544-LAT: "MUST be repeated at least 20 times" */
	KU("repetitions", lat_repetitions, 20, 100000, M_LAT, "",
	   "valid repetitions averaged (MUST be >= 20)"),
	KU("max_invalid", lat_max_invalid, 0, 100000, M_LAT, "",
	   "re-runs allowed for repetitions whose tag was lost [PROPOSED]"),
	KE("definition", lat_definition, latdef_names, M_LAT,
	   "RFC 1242 latency: bf bit forwarding (FIFO), sf store and forward"),
	KE("destination", lat_destination, latdest_names, M_LAT,
	   "§26.2 the tagged frame to the stream's destination (same) or "
	   "each to a new destination network (new-net: 198.19.(65+k).2, "
	   "k the repetition; a router DUT routes them via 198.19.1.10)"),
	KD("timestamp_accuracy_ns", lat_ts_accuracy_ns, 0, 1e9, EX | DV, M_LAT,
	   "ns", "the timestamps' accuracy as calibrated (rfc8238.calibrate "
	   "accuracy_ns), stated in the result; unset: the backend's"),

	KD("trial_duration_s", flr_trial_s, 0, 86400, EX, M_FLR, "s",
	   "trial duration of each rate step (§24: 60)"),
	/* R2544-FLR: granularity MUST be <= 10 % of the maximum rate */
	KD("step_pct", flr_step_pct, 0, 10, EX, M_FLR, "%",
	   "rate step in % of the maximum rate (MUST be <= 10)"),

	/* R2544-B2B: trial length MUST be >= 2 s */
	KD("trial_duration_s", b2b_trial_s, 2, 3600, 0, M_B2B, "s",
	   "burst start to the end of counting (MUST be >= 2)"),
	KU("repetitions", b2b_repetitions, 1, 100000, M_B2B, "",
	   "burst searches averaged (SHOULD be >= 50)"),
	KL("burst_max", b2b_burst_max, 0, 1e12, M_B2B, "frames",
	   "longest burst tried; 0 = fps_max(F) x 1 s [PROPOSED]"),

	KD("overload_duration_s", rec_overload_s, 0, 86400, EX, M_REC, "s",
	   "overload at 110 % of the throughput (§26.5: >= 60)"),
	KD("observe_s", rec_observe_s, 0, 86400, EX, M_REC, "s",
	   "observation window after the step down [PROPOSED]"),
	KU("repetitions", rec_repetitions, 1, 100000, M_REC, "",
	   "repetitions averaged [PROPOSED]"),

	KD("trial_duration_s", reset_trial_s, 0, 86400, EX, M_RST, "s",
	   "stream length of each repetition, > reset_at_s [PROPOSED]"),
	KD("reset_at_s", reset_at_s, 0, 86400, 0, M_RST, "s",
	   "when the reset hook runs, from the stream's start [PROPOSED]; "
	   "unset and too late: a sixth of the stream"),
	KD("gap_threshold_s", gap_threshold_s, 0, 3600, 0, M_RST, "s",
	   "an outage is a receive gap above this; 0 = max(10 ms, 100 frame "
	   "times) [PROPOSED]"),
	KU("repetitions", reset_repetitions, 1, 64, M_RST, "",
	   "resets measured"),
	KE("reset_type", reset_type, reset_names, M_RST,
	   "the kind of reset the named reset does (reported; all "
	   "three SHOULD be tested)"),
	KC("reset", parse_reset, 0, 0, 0, M_RST, "string", "",
	   "name of a reset in bmd's configuration (bmctl status lists "
	   "them), run at reset_at_s; \"\" = the backend's own or none; "
	   "refused in a dry run"),
	KD("reset_timeout_s", reset_timeout_s, 0, 3600, EX, M_RST, "s",
	   "the reset's command and its process group are killed after "
	   "this"),
	{ { NULL, 0, 0, 0, 0, 0, 0, NULL, NULL }, NULL, NULL, NULL },
};

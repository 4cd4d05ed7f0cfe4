// SPDX-License-Identifier: GPL-2.0
/*
 * RFC 2544 parameters: SPEC defaults (7.3 Inputs tables, [PROPOSED] where
 * no source gives one) and strict JSON parsing.  Every key is documented in
 * Documentation/procedures-rfc2544.md.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bm_rip.h"
#include "bm_traffic.h"
#include "rfc2544_int.h"

/* Which tests a key applies to. */
#define M(t)	RFC2544_MASK(t)
#define M_THR	M(RFC2544_THROUGHPUT)
#define M_LAT	M(RFC2544_LATENCY)
#define M_FLR	M(RFC2544_FRAME_LOSS)
#define M_B2B	M(RFC2544_BACK_TO_BACK)
#define M_REC	M(RFC2544_RECOVERY)
#define M_RST	M(RFC2544_RESET)
#define M_NEED	(M_LAT | M_REC | M_RST)	/* measure throughput first */
#define M_SRCH	(M_THR | M_NEED)
#define M_ALL	0x3fu

#define OFF(f)	offsetof(struct rfc2544_params, f)

static const char *const search_names[] = { "binary", "mlr", NULL };
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

void rfc2544_protocols_text(const struct rfc2544_params *p, char *buf,
			    size_t len)
{
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < p->n_protocols && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%sipv%u:%u",
				      i ? "," : "", p->protocols[i],
				      p->protocol_weights[i]);
}

double rfc2544_imix_mean(const struct rfc2544_params *p)
{
	double sum = 0.0, w = 0.0;
	size_t i;

	for (i = 0; i < p->n_imix; i++) {
		sum += (double)p->imix_sizes[i] * p->imix_weights[i];
		w += p->imix_weights[i];
	}
	return w > 0.0 ? sum / w : 0.0;
}

void rfc2544_imix_text(const struct rfc2544_params *p, char *buf, size_t len)
{
	size_t i, n = 0;

	if (len)
		buf[0] = 0;
	for (i = 0; i < p->n_imix && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%u:%u", i ? "," : "",
				      p->imix_sizes[i], p->imix_weights[i]);
}

/* "imix and burst_sizes" ...: the first two data stream types p asks
 * for at once (§11: one at a time). */
static const char *modifiers_text(const struct rfc2544_params *p, char *buf,
				  size_t len)
{
	const char *on[8];
	size_t n = 0;

	if (p->n_imix)
		on[n++] = "imix";
	if (p->n_bursts)
		on[n++] = "burst_sizes";
	if (p->broadcast_pct > 0)
		on[n++] = "broadcast_pct";
	if (p->filters)
		on[n++] = "filters";
	if (p->management)
		on[n++] = "management";
	if (p->random_networks)
		on[n++] = "random_networks";
	if (p->random_macs)
		on[n++] = "random_macs";
	if (p->routing_updates)
		on[n++] = "routing_updates";
	if (rfc2544_protocol_mix(p))
		on[n++] = "protocols";
	if (n < 2)
		return "";
	snprintf(buf, len, "%s and %s", on[0], on[1]);
	return buf;
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
	   "throughput search: binary (R2544-THRPT) or mlr (MLRsearch, the "
	   "NDR lower bound)"),
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

void rfc2544_params_default(struct rfc2544_params *p, enum rfc2544_test t)
{
	static const uint32_t sizes[] = { 64, 128, 256, 512, 1024, 1280, 1518 };

	memset(p, 0, sizeof(*p));
	memcpy(p->frame_sizes, sizes, sizeof(sizes));	/* R2544-SIZES */
	p->n_sizes = sizeof(sizes) / sizeof(sizes[0]);
	if (t == RFC2544_RESET)
		p->n_sizes = 1;		/* §26.6: the minimum size only */
	p->topology = BM_TOPO_PAIR_UNI;
	p->learning = true;
	p->learning_pause_s = 2.0;	/* RFC 2544 §23b */
	p->drain_s = 2.0;		/* §23d */
	p->restabilise_s = 5.0;		/* §23e "at least five seconds" */
	p->max_rate_pct = 100.0;	/* §20, LAN */
	p->search = BM_SEARCH_BINARY;
	p->r_min_pct = 0.1;		/* [PROPOSED] */
	p->start_rate_pct = 100.0;
	p->resolution_pct = 0.1;	/* [PROPOSED] */
	p->thr_search_trial_s = 60.0;	/* §24 */
	p->thr_final_trial_s = 60.0;
	p->mlr_final_relative_width = 0.005;	/* MLR-IN CSIT defaults */
	p->mlr_initial_trial_s = 1.0;
	p->mlr_expansion_coefficient = 4.0;
	p->mlr_timeout_s = 0.0;		/* scaled: rfc2544.c */
	p->mlr_intermediate_phases = 2;
	p->lat_trial_s = 120.0;		/* §26.2 */
	p->lat_tag_at_s = 60.0;
	p->lat_repetitions = 20;
	p->lat_max_invalid = 20;	/* [PROPOSED] */
	p->lat_definition = RFC2544_LAT_BF;
	p->flr_trial_s = 60.0;
	p->flr_step_pct = 10.0;
	p->b2b_trial_s = 2.0;		/* §26.4 MUST >= 2 s */
	p->b2b_repetitions = 50;	/* §26.4 SHOULD >= 50 */
	p->rec_overload_s = 60.0;	/* §26.5 at least 60 s */
	p->rec_observe_s = 10.0;	/* [PROPOSED] */
	p->rec_repetitions = 10;	/* [PROPOSED] */
	p->reset_trial_s = 60.0;	/* [PROPOSED] */
	p->reset_at_s = 10.0;		/* [PROPOSED] */
	p->reset_timeout_s = 120.0;
	p->reset_repetitions = 1;
	p->reset_type = RFC2544_RESET_SOFTWARE;
	p->filter_order = RFC2544_FILTER_LAST;	/* §11.4 */
	p->probe_pct = 1.0;
	/* §11.2, SPEC R2544-MOD: the DUT's management address */
	memcpy(p->mgmt_agent, (const uint8_t[]){ 198, 18, 1, 1 }, 4);
	snprintf(p->mgmt_community, sizeof(p->mgmt_community), "public");
	p->mgmt_ifindex = 1;
	p->random_seed = 1;
	p->protocols[0] = 4;
	p->protocol_weights[0] = 1;
	p->n_protocols = 1;
	p->route_lead_s = 7.0;		/* REQ-TRIAL-2, AMB-08 */
	p->routing_interval_s = BM_RIP_INTERVAL_S;	/* C.2.3 */
}

static bool given(json_object *obj, const char *key)
{
	return obj && json_object_object_get_ex(obj, key, NULL);
}

double rfc2544_mlr_timeout_s(const struct rfc2544_params *p)
{
	/*
	 * A fixed 600 s cut a search with 60 s final trials short.
	 * Unless given, allow 30 full-length trials with their drain and
	 * restabilise waits (the backend's clock counts both), never less
	 * than MLRsearch's own
	 * 600 s [PROPOSED].  An NDR search that falls to r_min at the final
	 * duration and bisects back takes 34 trials, 17 of them full-length:
	 * 1199 s of the former 20 x 60 s on the simulator with a 2 s drain,
	 * and out of time with any longer drain.
	 */
	return p->mlr_timeout_s > 0.0 ? p->mlr_timeout_s :
	       fmax(600.0, 30.0 * (p->thr_final_trial_s + p->drain_s +
				   p->restabilise_s));
}

/* The most trials of one throughput search (binary or MLRsearch) with p,
 * as rfc2544.c sets either up. */
static double search_bound(const struct rfc2544_params *p)
{
	struct bm_binsearch_params bin = { 0 };
	struct bm_mlr_params mp;

	if (p->search != BM_SEARCH_MLR)
		return bm_binsearch_max_trials(&bin);
	bm_mlr_params_default(&mp);
	mp.final_trial_duration_s = p->thr_final_trial_s;
	mp.initial_trial_duration_s = fmin(p->mlr_initial_trial_s,
					   p->thr_final_trial_s);
	mp.timeout_s = rfc2544_mlr_timeout_s(p);
	return bm_mlr_max_trials(&mp);
}

double rfc2544_max_trials(const struct rfc2544_params *p, enum rfc2544_test t)
{
	/* the throughput measured first, per size, unless given */
	double thr = p->throughput_fps[0] > 0.0 ? 0.0 : search_bound(p);
	double per = 0.0, sizes = (double)p->n_sizes;

	switch (t) {
	case RFC2544_THROUGHPUT:
		per = search_bound(p);
		break;
	case RFC2544_LATENCY:
		/* stops once invalid repetitions exceed max_invalid */
		per = thr + p->lat_repetitions + p->lat_max_invalid + 1.0;
		break;
	case RFC2544_FRAME_LOSS:
		/* 100 % down in steps, one past the two zero-loss trials */
		per = ceil(100.0 / p->flr_step_pct) + 1.0;
		break;
	case RFC2544_BACK_TO_BACK:
		/* the first repetition grows and bisects to burst_max (unset:
		 * a second at the line, 2^40 at the most), the others start
		 * at the previous answer (AMB-19): two bursts for a DUT that
		 * repeats itself; eight cover an answer that moved by up to
		 * about 15 frames (steps 1, 2, 4, 8, then a bisection) */
		per = 2.0 * (p->b2b_burst_max ?
			     ceil(log2((double)p->b2b_burst_max + 1)) : 40) +
		      2.0 + 8.0 * (p->b2b_repetitions - 1);
		break;
	case RFC2544_RECOVERY:
		per = thr + p->rec_repetitions;
		break;
	case RFC2544_RESET:
		/* §26.6: the smallest size only, 64 repetitions at most */
		sizes = 1.0;
		per = thr + fmin(p->reset_repetitions, 64);
		break;
	default:
		break;
	}
	/* a search or a table per burst size (§21) */
	if ((t == RFC2544_THROUGHPUT || t == RFC2544_FRAME_LOSS) && p->n_bursts)
		per *= (double)p->n_bursts;
	return per * sizes;
}

double rfc2544_shortest_trial_s(const struct rfc2544_params *p,
				enum rfc2544_test t)
{
	double s = INFINITY;
	size_t i;
	bool search = t == RFC2544_THROUGHPUT;

	/* LAT, RECOV and RESET search unless every throughput is given */
	if (M(t) & M_NEED)
		for (i = 0; i < p->n_sizes; i++)
			search = search || !(p->throughput_fps[i] > 0.0);
	if (search) {
		s = p->thr_search_trial_s;
		if (p->search == BM_SEARCH_MLR)
			s = fmin(s, p->mlr_initial_trial_s);
	}
	switch (t) {
	case RFC2544_THROUGHPUT:
		return fmin(s, p->thr_final_trial_s);
	case RFC2544_LATENCY:
		return fmin(s, p->lat_trial_s);
	case RFC2544_FRAME_LOSS:
		return fmin(s, p->flr_trial_s);
	case RFC2544_BACK_TO_BACK:
		return fmin(s, p->b2b_trial_s);
	case RFC2544_RECOVERY:
		return fmin(s, p->rec_overload_s);
	case RFC2544_RESET:
		return fmin(s, p->reset_trial_s);
	case RFC2544_N_TESTS:
		break;
	}
	return s;
}

int rfc2544_params_from_json(json_object *obj, enum rfc2544_test t,
			     struct rfc2544_params *p, struct bm_error *err)
{
	const char *name = rfc2544_name(t);
	size_t i, n_thr = RFC2544_MAX_SIZES;
	char two[64];
	int ret;

	if (!name)
		return bm_errorf(err, "rfc2544: unknown test");
	ret = bm_json_parse_params(obj, rfc2544_keys, M(t), p, name, err);
	if (ret)
		return ret;
	for (i = 0; i < RFC2544_MAX_SIZES; i++) {
		if (p->throughput_fps[i] < 0.0) {
			n_thr = i;
			p->throughput_fps[i] = 0.0;
			break;
		}
	}
	if (n_thr != RFC2544_MAX_SIZES && n_thr != p->n_sizes)
		return bm_errorf(err, "%s: throughput_fps: %zu rates for %zu "
				 "frame sizes", name, n_thr, p->n_sizes);
	if (p->start_rate_pct < p->r_min_pct)
		return bm_errorf(err, "%s: start_rate_pct: below r_min_pct",
				 name);
	/*
	 * A default that the user's own duration contradicts follows it:
	 * "--duration 2" means 2 s trials, not "refused because the search
	 * trials still default to 60 s".  Explicit values are kept, and
	 * refused below when they contradict.
	 */
	if (!given(obj, "search_trial_duration_s") &&
	    !given(obj, "throughput_search_trial_duration_s") &&
	    p->thr_search_trial_s > p->thr_final_trial_s)
		p->thr_search_trial_s = p->thr_final_trial_s;
	if (t == RFC2544_LATENCY && !given(obj, "tag_at_s") &&
	    p->lat_tag_at_s >= p->lat_trial_s)
		p->lat_tag_at_s = p->lat_trial_s / 2;	/* §26.2: the middle */
	if (t == RFC2544_RESET && !given(obj, "reset_at_s") &&
	    p->reset_at_s >= p->reset_trial_s)
		p->reset_at_s = p->reset_trial_s / 6;	/* 10 s of 60 s */
	if (t == RFC2544_LATENCY && p->lat_tag_at_s >= p->lat_trial_s)
		return bm_errorf(err, "%s: tag_at_s: must be before the end of "
				 "the %g s stream", name, p->lat_trial_s);
	if (t == RFC2544_RESET && p->reset_at_s >= p->reset_trial_s)
		return bm_errorf(err, "%s: reset_at_s: must be before the end of "
				 "the %g s stream", name, p->reset_trial_s);
	if (p->thr_search_trial_s > p->thr_final_trial_s)
		return bm_errorf(err, "%s: search trial duration longer than "
				 "the full-length trial duration", name);
	/* §11: each modifier separately; an IMIX is the trial's sizes */
	if ((p->n_imix > 0) + (p->n_bursts > 0) + (p->broadcast_pct > 0) +
	    (p->filters > 0) + p->management + (p->random_networks > 0) +
	    (p->random_macs > 0) + p->routing_updates +
	    rfc2544_protocol_mix(p) > 1)
		return bm_errorf(err, "%s: %s: one data stream type at a time "
				 "(RFC 2544 §11: each modifier separately)",
				 name, modifiers_text(p, two, sizeof(two)));
	if (p->filters != 0 && p->filters != 1 && p->filters != 25)
		return bm_errorf(err, "%s: filters: %u: 0, 1 or 25 (§11.4, "
				 "§11.4.1)", name, p->filters);
	if (!p->filters && (given(obj, "probe_pct") ||
			    given(obj, "filter_order")))
		return bm_errorf(err, "%s: %s: only with filters 1 or 25",
				 name, given(obj, "probe_pct") ? "probe_pct" :
				 "filter_order");
	if (p->filters == 1 && given(obj, "filter_order"))
		return bm_errorf(err, "%s: filter_order: a list of 25 filters' "
				 "only (filters 1 has one rule)", name);
	if (!p->management && (given(obj, "mgmt_agent") ||
				given(obj, "mgmt_community") ||
				given(obj, "mgmt_ifindex")))
		return bm_errorf(err, "%s: mgmt_agent, mgmt_community, "
				 "mgmt_ifindex: only with management", name);
	if (p->management && p->topology >= BM_TOPO_MULTIPORT)
		return bm_errorf(err, "%s: management: with a pair only (the "
				 "queries leave from the tx port)", name);
	if (p->route_setup != RFC2544_ROUTES_RIP && given(obj, "route_lead_s"))
		return bm_errorf(err, "%s: route_lead_s: only with route_setup "
				 "rip", name);
	if (!p->routing_updates && given(obj, "routing_interval_s"))
		return bm_errorf(err, "%s: routing_interval_s: only with "
				 "routing_updates", name);
	if (p->route_setup == RFC2544_ROUTES_RIP && p->random_macs)
		return bm_errorf(err, "%s: route_setup rip and random_macs: "
				 "a bridge has no routes (§12's MACs are for "
				 "bridges)", name);
	if (rfc2544_protocol_mix(p) && p->topology >= BM_TOPO_MULTIPORT)
		return bm_errorf(err, "%s: protocols: with a pair only", name);
	for (i = 0; i < p->n_sizes && rfc2544_has_ipv6(p); i++)
		if (p->frame_sizes[i] < RFC2544_IPV6_MIN)
			return bm_errorf(err, "%s: protocols: frame size %u "
					 "is too small for IPv6 (%d B at "
					 "least: headers and the test "
					 "header)", name, p->frame_sizes[i],
					 RFC2544_IPV6_MIN);
	if (p->routing_updates && p->topology >= BM_TOPO_MULTIPORT)
		return bm_errorf(err, "%s: routing_updates: with a pair only "
				 "(the updates leave from the tx port)", name);
	if (p->random_networks == 1)
		return bm_errorf(err, "%s: random_networks: 1 network is one "
				 "destination: 0, or 2 .. %u (§12)", name,
				 RFC2544_RANDOM_NETWORKS);
	if (p->random_macs == 1)
		return bm_errorf(err, "%s: random_macs: 1 MAC is one "
				 "destination: 0, or 2 .. %u (§12)", name,
				 RFC2544_RANDOM_MACS_MAX);
	if (!p->random_networks && !p->random_macs &&
	    given(obj, "random_seed"))
		return bm_errorf(err, "%s: random_seed: only with "
				 "random_networks or random_macs", name);
	if (p->random_macs && p->topology != BM_TOPO_PAIR_UNI)
		return bm_errorf(err, "%s: random_macs: with topology "
				 "pair-uni only (§12: one input, one output)",
				 name);
	if (p->random_networks && p->topology != BM_TOPO_PAIR_UNI)
		return bm_errorf(err, "%s: random_networks: with topology "
				 "pair-uni only (§12's destinations are the "
				 "output side's networks)", name);
	if (p->filters && p->topology != BM_TOPO_PAIR_UNI)
		return bm_errorf(err, "%s: filters: with topology pair-uni "
				 "only (§11.4's filters are for one input "
				 "and output)", name);
	if (p->n_imix && given(obj, "frame_sizes"))
		return bm_errorf(err, "%s: imix and frame_sizes: the IMIX is "
				 "the trial's frame sizes; give one", name);
	/* R2544-MULTI: N-port traffic that the stream backend builds, for
	 * the tests that run on it; a burst or a broadcast share is a
	 * pair's (§11.1 counts them at the pair's receiver) */
	if (p->topology >= BM_TOPO_MULTIPORT) {
		if (t != RFC2544_THROUGHPUT && t != RFC2544_FRAME_LOSS)
			return bm_errorf(err, "%s: topology: %s is for "
					 "throughput and frame-loss (§16)",
					 name, bm_topology_name(p->topology));
		if (p->n_bursts || p->broadcast_pct > 0)
			return bm_errorf(err, "%s: topology %s: %s: with a "
					 "pair only", name,
					 bm_topology_name(p->topology),
					 p->n_bursts ? "burst_sizes" :
					 "broadcast_pct");
	}
	return 0;
}

json_object *rfc2544_params_to_json(const struct rfc2544_params *p,
				    enum rfc2544_test t)
{
	json_object *o = json_object_new_object(), *a;
	const struct bm_param *k;
	const char *base = (const char *)p;
	size_t i;

	for (k = rfc2544_keys; k->jk.key; k++) {
		const struct bm_jkey *j = &k->jk;

		if (!(j->mask & M(t)))
			continue;
		switch (j->type) {
		case BM_J_DOUBLE:
			bm_json_add_double(o, j->key,
					   *(const double *)(base + j->off));
			break;
		case BM_J_U64:
			bm_json_add_u64(o, j->key,
					*(const uint64_t *)(base + j->off));
			break;
		case BM_J_UINT:
			bm_json_add_u64(o, j->key,
					*(const unsigned int *)(base + j->off));
			break;
		case BM_J_BOOL:
			bm_json_add_bool(o, j->key, *(const bool *)(base + j->off));
			break;
		case BM_J_ENUM:
			bm_json_add_str(o, j->key,
					j->names[*(const int *)(base + j->off)]);
			break;
		default:
			break;
		}
	}
	bm_json_add_u32_array(o, "frame_sizes", p->frame_sizes, p->n_sizes);
	if (M(t) & (M_THR | M_FLR)) {
		char mix[160];

		bm_json_add_u32_array(o, "burst_sizes", p->burst_sizes,
				      p->n_bursts);
		rfc2544_imix_text(p, mix, sizeof(mix));
		bm_json_add_str(o, "imix", mix);
		rfc2544_protocols_text(p, mix, sizeof(mix));
		bm_json_add_str(o, "protocols", mix);
		bm_ip4_text(p->mgmt_agent, mix);
		/* not the community: a password of sorts, kept out of
		 * every result */
		bm_json_add_str(o, "mgmt_agent", mix);
	}
	if (M(t) & M_NEED) {
		a = json_object_new_array();
		for (i = 0; i < p->n_sizes; i++)
			json_object_array_add(a, p->throughput_fps[i] > 0.0 ?
				json_object_new_double(p->throughput_fps[i]) :
				NULL);
		json_object_object_add(o, "throughput_fps", a);
	}
	if (t == RFC2544_RESET) {
		bm_json_add_str(o, "reset", p->reset);
		bm_json_add_double(o, "reset_timeout_s", p->reset_timeout_s);
		bm_json_add_bool(o, "reset_hook", p->reset_hook != NULL);
	}
	return o;
}

static const struct {
	const char *name, *ref;
} tests[RFC2544_N_TESTS] = {
	[RFC2544_THROUGHPUT] = { "rfc2544.throughput",
				 "RFC 2544 §26.1; R2544-THRPT" },
	[RFC2544_LATENCY] = { "rfc2544.latency", "RFC 2544 §26.2; R2544-LAT" },
	[RFC2544_FRAME_LOSS] = { "rfc2544.frame-loss",
				 "RFC 2544 §26.3; R2544-FLR" },
	[RFC2544_BACK_TO_BACK] = { "rfc2544.back-to-back",
				   "RFC 2544 §26.4; R2544-B2B" },
	[RFC2544_RECOVERY] = { "rfc2544.recovery",
			       "RFC 2544 §26.5; R2544-RECOV" },
	[RFC2544_RESET] = { "rfc2544.reset", "RFC 2544 §26.6; R2544-RESET" },
};

const char *rfc2544_name(enum rfc2544_test t)
{
	return t < RFC2544_N_TESTS ? tests[t].name : NULL;
}

const char *rfc2544_ref(enum rfc2544_test t)
{
	return t < RFC2544_N_TESTS ? tests[t].ref : NULL;
}

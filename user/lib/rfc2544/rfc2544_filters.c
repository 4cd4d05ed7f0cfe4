// SPDX-License-Identifier: GPL-2.0
/*
 * RFC 2544 §11.4 filters (R2544-MOD, AMB-25).  The tester cannot set up
 * the DUT's filters; it gives the addresses the filters are written for,
 * the list of rules to write, and the evidence that they act:
 *
 *   the test stream goes from 198.18.1.2 to 198.19.65.2, the pair the
 *   permit rule names, with 1 filter and with 25 alike (AMB-25), so that
 *   the two runs differ by the DUT's filters only;
 *
 *   probe frames from the denied pairs 198.18.k.k -> 198.19.(100+k).k,
 *   k = 2..24, take the place of probe_pct % of the test frames, evenly
 *   spread, each pair its own stream (k = 1 comes from 198.18.1.1, the
 *   DUT's own address, which a router drops before its filters).  A DUT whose filters act drops every one; one
 *   that forwards any has no §11.4 filter condition, and the result says
 *   so instead of "ok" (a filter test of a DUT that does not filter is
 *   not a result).
 *
 * §11.4 puts the permit rule last, after 24 denies, so that every rule is
 * checked before the match; §11.4.1's list puts it 13th.  The result
 * prints the list in the order asked for; the traffic is the same.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bm_traffic.h"
#include "rfc2544_int.h"

#define DENIED	24	/* §11.4.1: 24 deny rules besides the permit */
/* The pairs probed: 2..24.  Pair 1's source 198.18.1.1 is the DUT's own
 * input address (App C), which a router drops as a martian before any
 * filter sees it: a probe from it would prove nothing. */
#define FIRST_PROBED	2
#define PROBED		(DENIED - FIRST_PROBED + 1)

const char *const rfc2544_filter_order_names[] = { "last", "rfc11.4.1",
						   NULL };

void r2544_filter_pair(unsigned int k, uint8_t src[4], uint8_t dst[4])
{
	src[0] = dst[0] = 198;
	src[1] = 18;
	dst[1] = 19;
	if (!k) {
		/* the permit rule's pair, the single-filter stream */
		src[2] = 1;
		src[3] = 2;
		dst[2] = 65;
		dst[3] = 2;
		return;
	}
	/* aa.ba.k.k -> aa.ba.(100+k).k, read as the pattern it is (§11.4.1
	 * prints "aa.ba.3.3 to aa.ba.103.3" once: AMB-25) */
	src[2] = src[3] = dst[3] = (uint8_t)k;
	dst[2] = (uint8_t)(100 + k);
}

/* "198.18.1.2 -> 198.19.65.2" of pair k. */
static void pair_text(unsigned int k, char *buf, size_t len)
{
	uint8_t s[4], d[4];
	char st[16], dt[16];

	r2544_filter_pair(k, s, d);
	bm_ip4_text(s, st);
	bm_ip4_text(d, dt);
	snprintf(buf, len, "%s -> %s", st, dt);
}

json_object *r2544_filter_rules(const struct rfc2544_params *p)
{
	json_object *a = json_object_new_array();
	char pair[48], line[64];
	unsigned int k, permit_at;

	if (p->filters == 1) {
		pair_text(0, pair, sizeof(pair));
		snprintf(line, sizeof(line), "permit %s", pair);
		json_object_array_add(a, json_object_new_string(line));
	} else {
		/* the permit after this many denies */
		permit_at = p->filter_order == RFC2544_FILTER_LAST ? DENIED :
								       12;
		for (k = 1; k <= DENIED + 1; k++) {
			if (k == permit_at + 1) {
				pair_text(0, pair, sizeof(pair));
				snprintf(line, sizeof(line), "permit %s", pair);
				json_object_array_add(
					a, json_object_new_string(line));
			}
			if (k > DENIED)
				break;
			pair_text(k, pair, sizeof(pair));
			snprintf(line, sizeof(line), "deny %s", pair);
			json_object_array_add(a, json_object_new_string(line));
		}
	}
	json_object_array_add(a, json_object_new_string("deny all else"));
	return a;
}

int r2544_filter_streams(const struct rfc2544_params *p, struct bm_traffic *t,
			 const struct bm_stream_spec *test, double r, double d,
			 struct bm_error *err)
{
	double share = p->probe_pct / 100.0;
	struct bm_stream_spec ts = *test, ss = *test;
	uint64_t n, each, extra;
	unsigned int k;

	r2544_filter_pair(0, ts.frame.src_ip, ts.frame.dst_ip);
	if (share > 0.0) {
		/* the probes' frames in place of test frames: the port's
		 * rate stays r (§11: "in place of one of the test frames") */
		ts.load = r * (1.0 - share);
		ts.count = (uint64_t)llround(ts.load * d);
	}
	if (!ts.count)
		return bm_errorf(err, "trial of 0 test frames (rate %.3f fps, "
				 "%.3f s, probe_pct %g)", r, d, p->probe_pct);
	if (bm_traffic_add_stream(t, &ts, err) < 0)
		return -ENOMEM;
	if (!(share > 0.0))
		return 0;
	/* the probe frames over the pairs, the first ones one more when
	 * they do not divide; the j-th pair at j/PROBED of its own
	 * interval, all half a test frame interval off the test frames */
	n = (uint64_t)llround(r * share * d);
	each = n / PROBED;
	extra = n % PROBED;
	ss.load = r * share / PROBED;
	for (k = 0; k < PROBED; k++) {
		ss.count = each + (k < extra);
		if (!ss.count)
			break;
		ss.phase = (k + 0.5 * share / (1.0 - share)) / PROBED;
		r2544_filter_pair(FIRST_PROBED + k, ss.frame.src_ip,
				  ss.frame.dst_ip);
		if (bm_traffic_add_stream(t, &ss, err) < 0)
			return -ENOMEM;
	}
	return 0;
}

void r2544_filter_report(struct r2544_run *r, json_object *e, size_t first,
			 double thr, char *stmt, size_t len)
{
	const struct rfc2544_params *p = r->p;
	uint64_t sent = 0, rcvd = 0, most = 0;
	json_object *f = json_object_new_object();
	char pair[48], why[200];
	size_t k;

	for (k = first; k < r->log.n; k++) {
		sent += r->log.v[k].res.probe_sent;
		rcvd += r->log.v[k].res.probe_received;
		if (r->log.v[k].res.probe_sent > most)
			most = r->log.v[k].res.probe_sent;
	}
	json_object_object_add(e, "filters", f);
	bm_json_add_u64(f, "filters", p->filters);
	if (p->filters == 25)
		bm_json_add_str(f, "order",
				rfc2544_filter_order_names[p->filter_order]);
	json_object_object_add(f, "rules", r2544_filter_rules(p));
	pair_text(0, pair, sizeof(pair));
	bm_json_add_str(f, "test_stream", pair);
	bm_json_add_double(f, "probe_pct", p->probe_pct);
	bm_json_add_u64(f, "probe_sent", sent);
	bm_json_add_u64(f, "probe_received", rcvd);
	/* a trial of n < 23 probe frames probes pairs 2..n+1: the pairs any
	 * trial probed, which a DUT's filters were shown to deny */
	bm_json_add_u64(f, "pairs_probed", most < PROBED ? most : PROBED);
	/* null: no probe frame sent, nothing shown either way */
	if (!sent)
		bm_json_add_str(f, "filters_act", NULL);
	else
		json_object_object_add(f, "filters_act",
				       json_object_new_boolean(!rcvd));
	if (isfinite(thr)) {
		/* the throughput is of all frames, as offered to the port;
		 * the permitted stream's share of it */
		bm_json_add_double(e, "test_frames_fps",
				   thr * (1.0 - p->probe_pct / 100.0));
		bm_json_add_double(f, "probe_fps", thr * p->probe_pct / 100.0);
	}
	if (!rcvd) {
		if (stmt && sent)
			snprintf(stmt + strlen(stmt), len - strlen(stmt),
				 "; %s through %u filter%s, the DUT dropped "
				 "all %llu probe frames from denied addresses "
				 "(%g %% of the frames)", pair, p->filters,
				 p->filters > 1 ? "s" : "",
				 (unsigned long long)sent, p->probe_pct);
		return;
	}
	snprintf(why, sizeof(why), "filters not active: the DUT forwarded "
		 "%llu of %llu probe frames from denied addresses "
		 "(§11.4)", (unsigned long long)rcvd,
		 (unsigned long long)sent);
	json_object_object_add(e, "result", json_object_new_string(why));
	if (stmt)
		snprintf(stmt, len, "no §11.4 result: %s", why);
}

void r2544_filter_deviations(struct r2544_run *r)
{
	if (!r->p->filters)
		return;
	r2544_deviation(r, "AMB-25: §11.4's filter addresses: denies "
			"198.18.k.k -> 198.19.(100+k).k, the permit "
			"198.18.1.2 -> 198.19.65.2 for 1 and 25 filters alike; "
			"the DUT's filters are the user's to set (the result "
			"lists them), probe frames from the denied pairs show "
			"whether they act");
	if (!(r->p->probe_pct > 0.0))
		r2544_deviation(r, "R2544-MOD filters: probe_pct 0: no probe "
				"frames, so nothing shows that the DUT's "
				"filters act");
}

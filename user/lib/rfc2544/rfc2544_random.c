// SPDX-License-Identifier: GPL-2.0
/*
 * RFC 2544 §12, random destination addresses (SPEC R2544-ADDR, PLAT-ADDR,
 * AMB-05).  §12: "the tests SHOULD be run with a single stream [...] then
 * repeated with random destination addresses", for routers "random and
 * uniformly distributed over a range of 256 networks".  App C gives the
 * output side 190 networks (198.19.65.0/24 .. 198.19.254.0/24, the DUT
 * routes them via the phantom router 198.19.1.10): frame seq goes to
 * 198.19.(65 + k).2, k = bmgen_flow_pick(seed, seq, networks), chosen in
 * the module frame by frame.  The pick is a pure function of the seed and
 * the sequence number, so the report can say exactly how many frames each
 * network got (a DUT's per-route counters must show the same) and test
 * their uniformity.  For a bridge (AMB-06) the same pick chooses among a
 * seeded set of unicast MACs (bmgen_flow_mac()), which the rx port
 * teaches the bridge with learning frames from each before the trial.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bmgen.h>

#include "bm_result.h"
#include "bm_traffic.h"
#include "rfc2544_int.h"

void r2544_random_frame(const struct rfc2544_params *p,
			struct bm_frame_template *fr)
{
	static const uint8_t first[4] = { 198, 19, 65, 2 };

	if (p->random_macs) {
		fr->dst_macs = p->random_macs;
		fr->mac_seed = p->random_seed;
		fr->dst_seed = p->random_seed;
		return;
	}
	memcpy(fr->dst_ip, first, 4);
	fr->dst_networks = p->random_networks;
	fr->dst_seed = p->random_seed;
}

/* How many destinations p's frames are spread over. */
static unsigned int n_dest(const struct rfc2544_params *p)
{
	return p->random_macs ? p->random_macs : p->random_networks;
}

void r2544_random_count(const struct rfc2544_params *p, uint64_t n,
			uint64_t *counts)
{
	uint64_t seq;

	for (seq = 0; seq < n; seq++)
		counts[bmgen_flow_pick(p->random_seed, seq, n_dest(p))]++;
}

/*
 * The chi-square value below which df degrees of freedom stay with
 * probability 0.99: the Wilson-Hilferty approximation, within 0.1 % of
 * the exact quantile from df = 10 up (df 189: 237.2).
 */
static double chi2_crit_1pct(double df)
{
	const double z = 2.3263478740;	/* the normal's 99 % quantile */
	double a = 2.0 / (9.0 * df);

	return df * pow(1.0 - a + z * sqrt(a), 3.0);
}

/* The set of p's random MACs, in flow order (AMB-06). */
static json_object *mac_set(const struct rfc2544_params *p)
{
	json_object *a = json_object_new_array();
	unsigned int k;
	uint8_t m[6];
	char buf[18];

	for (k = 0; k < p->random_macs; k++) {
		bmgen_flow_mac(p->random_seed, k, m);
		snprintf(buf, sizeof(buf), "%02x:%02x:%02x:%02x:%02x:%02x",
			 m[0], m[1], m[2], m[3], m[4], m[5]);
		json_object_array_add(a, json_object_new_string(buf));
	}
	return a;
}

void r2544_random_report(struct r2544_run *r, json_object *e, size_t first)
{
	unsigned int n = n_dest(r->p), k;
	uint64_t *c, *one, total = 0, most = 0;
	json_object *o, *a;
	double chi2 = 0.0, want, crit;
	size_t i;
	char net[32];

	if (!n)
		return;
	c = calloc(n, sizeof(*c));
	one = calloc(n, sizeof(*one));
	o = json_object_new_object();
	json_object_object_add(e, "random_destinations", o);
	if (r->p->random_macs) {
		bm_json_add_u64(o, "macs", n);
		json_object_object_add(o, "mac_set", mac_set(r->p));
	} else {
		bm_json_add_u64(o, "networks", n);
		bm_json_add_str(o, "first_network", "198.19.65.0/24");
		snprintf(net, sizeof(net), "198.19.%u.0/24", 64 + n);
		bm_json_add_str(o, "last_network", net);
	}
	bm_json_add_u64(o, "seed", r->p->random_seed);
	if (!c || !one) {
		free(c);
		free(one);
		return;
	}
	/* every trial of this case sent frames 0 .. attempted - 1: the
	 * same destinations from the start each time */
	for (i = first; i < r->log.n; i++) {
		r2544_random_count(r->p, r->log.v[i].res.attempted, c);
		if (r->log.v[i].res.attempted > most)
			most = r->log.v[i].res.attempted;
	}
	a = json_object_new_array();
	for (k = 0; k < n; k++) {
		json_object_array_add(a, json_object_new_int64((int64_t)c[k]));
		total += c[k];
	}
	json_object_object_add(o, r->p->random_macs ? "frames_per_mac" :
			       "frames_per_network", a);
	bm_json_add_u64(o, "frames", total);
	/* uniformity of one trial's destinations (the trials' sums repeat
	 * their first frames, so they are no sample): the largest trial */
	r2544_random_count(r->p, most, one);
	if (most) {
		want = (double)most / n;
		for (k = 0; k < n; k++)
			chi2 += (one[k] - want) * (one[k] - want) / want;
	}
	crit = chi2_crit_1pct(n - 1.0);
	bm_json_add_u64(o, "chi2_frames", most);
	bm_json_add_double(o, "chi2", most ? chi2 : NAN);
	bm_json_add_double(o, "chi2_critical_1pct", crit);
	bm_json_add_bool(o, "uniform", most && chi2 <= crit);
	free(c);
	free(one);
}

void r2544_random_deviations(struct r2544_run *r)
{
	if (r->p->random_macs) {
		r2544_deviation(r, "R2544-ADDR: §12 random MAC destinations "
				"for a bridge over a seeded set of unicast "
				"MACs (not the full MAC range, which no "
				"bridge could learn: AMB-06), each learnt "
				"behind the rx port before every trial and "
				"chosen frame by frame from the seed");
		if (r->p->random_macs != RFC2544_RANDOM_MACS)
			r2544_deviation(r, "R2544-ADDR: a set of other than "
					"SPEC's 256 MACs");
		return;
	}
	if (!r->p->random_networks)
		return;
	r2544_deviation(r, "R2544-ADDR: §12 random destinations over App "
			"C's output-side networks 198.19.65.0/24 and up "
			"(190 at most, not §12's 256: AMB-05), chosen frame "
			"by frame from the seed; a bridge takes random_macs");
	if (r->p->random_networks != RFC2544_RANDOM_NETWORKS)
		r2544_deviation(r, "R2544-ADDR: fewer destination networks "
				"than App C's 190");
}

// SPDX-License-Identifier: GPL-2.0
/*
 * RFC 2544 parameters: SPEC defaults (7.3 Inputs tables, [PROPOSED] where
 * no source gives one) and strict JSON parsing.  Every key is documented in
 * Documentation/procedures-rfc2544.md.
 *
 * This file holds the defaults, the parse of a test's keys with the
 * checks across them, the parameters as the result shows them, and the
 * tests' names; the key table and its parsers are rfc2544_keys.c, what
 * the parameters bound (trials, durations) rfc2544_bounds.c.
 */
#include <stdio.h>
#include <string.h>

#include "bm_rip.h"
#include "rfc2544_int.h"

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
	/* RFC 9971 §4.10.2's goal has a loss ratio of 0 */
	if (p->search == BM_SEARCH_RFC9971 && p->loss_tolerance_frames)
		return bm_errorf(err, "%s: loss_tolerance_frames: not with "
				 "search rfc9971 (its goal's loss ratio is 0)",
				 name);
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
		/* MLRsearch's loss accounting counts a pair's directions,
		 * not a mesh's sending ports */
		if (p->search != BM_SEARCH_BINARY)
			return bm_errorf(err, "%s: topology %s: search %s: "
					 "with a pair only", name,
					 bm_topology_name(p->topology),
					 bm_search_kind_name(p->search));
	}
	return 0;
}

json_object *rfc2544_params_to_json(const struct rfc2544_params *p,
				    enum rfc2544_test t)
{
	json_object *o = json_object_new_object(), *a;
	const struct bm_param *k;
	size_t i;

	for (k = rfc2544_keys; k->jk.key; k++) {
		const struct bm_jkey *j = &k->jk;

		if (!(j->mask & M(t)))
			continue;
		/* the custom keys follow, in the order results have had */
		if (j->type != BM_J_CUSTOM)
			json_object_object_add(o, j->key,
					       bm_json_key_value(j, p, NULL));
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

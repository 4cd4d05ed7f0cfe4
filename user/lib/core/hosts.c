// SPDX-License-Identifier: GPL-2.0
/*
 * A trial over the ports of several hosts: which half of a stream each
 * host runs, and their results put back together (bm_hosts.h).  One file
 * holds both the keeping and the merging, because both read the one list
 * of which result belongs to which side: the sender's or the receiver's.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bm_hosts.h"
#include "hosts_int.h"

/* IFNAMSIZ of <net/if.h>, without dragging the kernel's names in. */
#define BM_IFNAMSIZ	16

bool bm_host_name_ok(const char *s)
{
	size_t n = strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			  "0123456789._-");

	return n && !s[n] && n < sizeof(((struct bm_port_spec *)0)->host) &&
	       isalnum((unsigned char)s[0]);
}

int bm_port_label_parse(const char *label, char *host, size_t host_len,
			char *name, size_t name_len, struct bm_error *err)
{
	const char *sep = strchr(label, BM_HOST_SEP);
	const char *ifname = sep ? sep + 1 : label;
	size_t hl = sep ? (size_t)(sep - label) : 0;

	if (sep && !hl)
		return bm_errorf(err, "port %s: no host before '%c'", label,
				 BM_HOST_SEP);
	if (!*ifname)
		return bm_errorf(err, "port %s: no interface name", label);
	if (strchr(ifname, BM_HOST_SEP))
		return bm_errorf(err, "port %s: one '%c' between host and "
				 "interface", label, BM_HOST_SEP);
	if (hl >= host_len || hl >= sizeof(((struct bm_port_spec *)0)->host))
		return bm_errorf(err, "port %s: host name longer than %zu "
				 "characters", label,
				 sizeof(((struct bm_port_spec *)0)->host) - 1);
	memcpy(host, label, hl);
	host[hl] = 0;
	if (hl && !bm_host_name_ok(host))
		return bm_errorf(err, "port %s: '%s' is not a host name "
				 "(letters, digits, '.', '_', '-', starting "
				 "with a letter or digit)", label, host);
	if (strlen(ifname) >= name_len || strlen(ifname) >= BM_IFNAMSIZ)
		return bm_errorf(err, "port %s: interface name longer than %d "
				 "characters", label, BM_IFNAMSIZ - 1);
	strcpy(name, ifname);
	return 0;
}

bool bm_port_label_remote(const char *label)
{
	return strchr(label, BM_HOST_SEP) != NULL;
}

bool bm_port_on_host(const struct bm_port_spec *p, const char *host)
{
	return !strcmp(p->host, host);
}

bool bm_part_has_mgmt(const struct bm_traffic *t, const char *host)
{
	return t->have_mgmt && (!host || (t->mgmt.port < t->n_ports &&
					   bm_port_on_host(&t->ports[t->mgmt.port],
							   host)));
}

enum bm_half bm_stream_half(const struct bm_traffic *t,
			    const struct bm_stream_spec *s, const char *host)
{
	unsigned int h = BM_HALF_NONE;

	if (s->tx_port < t->n_ports &&
	    bm_port_on_host(&t->ports[s->tx_port], host))
		h |= BM_HALF_TX;
	if (s->rx_port < t->n_ports &&
	    bm_port_on_host(&t->ports[s->rx_port], host))
		h |= BM_HALF_RX;
	return (enum bm_half)h;
}

unsigned int bm_traffic_hosts(const struct bm_traffic *t, const char **names,
			      unsigned int max)
{
	unsigned int i, j, n = 0;

	for (i = 0; i < t->n_ports; i++) {
		for (j = 0; j < i; j++)
			if (!strcmp(t->ports[j].host, t->ports[i].host))
				break;
		if (j < i)
			continue;
		if (n < max)
			names[n] = t->ports[i].host;
		n++;
	}
	return n;
}

/* Move the results of half h of stream s into d (the sender's or the
 * receiver's; d's other half untouched). */
static void stream_take(struct bm_stream_result *d,
			struct bm_stream_result *s, enum bm_half h)
{
	if (h & BM_HALF_TX) {
		d->intended = s->intended;
		d->sent = s->sent;
		d->tx_bytes = s->tx_bytes;
		d->tx_late_max_s = s->tx_late_max_s;
		d->tx_burst_late_max_s = s->tx_burst_late_max_s;
		memcpy(d->tx_stalls_s, s->tx_stalls_s, sizeof(d->tx_stalls_s));
		free(d->tx_log_s);
		d->tx_log_s = s->tx_log_s;
		d->n_tx_log = s->n_tx_log;
		s->tx_log_s = NULL;
		s->n_tx_log = 0;
		d->first_tx_s = s->first_tx_s;
		d->last_tx_s = s->last_tx_s;
	}
	if (h != BM_HALF_NONE) {
		free(d->hw_log);
		d->hw_log = s->hw_log;
		d->n_hw_log = s->n_hw_log;
		s->hw_log = NULL;
		s->n_hw_log = 0;
	}
	if (h & BM_HALF_RX) {
		d->received = s->received;
		d->lost = s->lost;
		d->reordered = s->reordered;
		d->duplicated = s->duplicated;
		d->rx_bytes = s->rx_bytes;
		memcpy(d->rx_dscp, s->rx_dscp, sizeof(d->rx_dscp));
		memcpy(d->rx_pcp, s->rx_pcp, sizeof(d->rx_pcp));
		d->rx_untagged = s->rx_untagged;
		free(d->rx_log);
		d->rx_log = s->rx_log;
		d->n_rx_log = s->n_rx_log;
		s->rx_log = NULL;
		s->n_rx_log = 0;
		d->first_rx_s = s->first_rx_s;
		d->last_rx_s = s->last_rx_s;
		d->latency = s->latency;
		d->ipdv_count = s->ipdv_count;
		d->ipdv_min_ns = s->ipdv_min_ns;
		d->ipdv_mean_ns = s->ipdv_mean_ns;
		d->ipdv_max_ns = s->ipdv_max_ns;
		d->pdv_ns = s->pdv_ns;
	}
}

/* An empty stream result: nothing sent or received, times -1. */
static void stream_empty(struct bm_stream_result *s)
{
	memset(s, 0, sizeof(*s));
	s->first_tx_s = s->last_tx_s = -1;
	s->first_rx_s = s->last_rx_s = -1;
	bm_ipdv_set(s, 0, 0, 0, 0);
}

/* Add the sender's trial-wide results of s into d. */
static void trial_add_tx(struct bm_trial_result *d,
			 const struct bm_trial_result *s)
{
	unsigned int i;

	d->generator_limited |= s->generator_limited;
	d->shortfall += s->shortfall;
	d->tx_late_frames += s->tx_late_frames;
	d->tx_late_max_s = fmax(d->tx_late_max_s, s->tx_late_max_s);
	if (s->burst_gaps_measured)
		bm_trial_burst_late_add(d, s->tx_burst_late_max_s);
	for (i = 0; i < BM_TX_STALLS; i++)
		bm_trial_stall_add(d->tx_stalls_s, s->tx_stalls_s[i]);
	if (s->event_fired_s >= 0) {
		d->event_fired_s = s->event_fired_s;
		d->event_ret = s->event_ret;
	}
	if (s->tx_path[0])
		bm_trial_tx_path_add(d, s->tx_path);
	if (s->tx_lanes > d->tx_lanes)
		d->tx_lanes = s->tx_lanes;
	if (s->tag_tx_s >= 0)
		d->tag_tx_s = s->tag_tx_s;
	if (s->stream_type[0])
		memcpy(d->stream_type, s->stream_type, sizeof(d->stream_type));
	if (s->mean_frame_size > 0)
		d->mean_frame_size = s->mean_frame_size;
	d->bcast_sent += s->bcast_sent;
	d->probe_sent += s->probe_sent;
	d->proto_sent[0] += s->proto_sent[0];
	d->proto_sent[1] += s->proto_sent[1];
}

/* Add the receiver's trial-wide results of s into d. */
static void trial_add_rx(struct bm_trial_result *d,
			 const struct bm_trial_result *s)
{
	unsigned int i;

	d->late += s->late;
	/* < 0: every late frame known (the simulator) */
	if (d->late_watch_s >= 0 && s->late_watch_s != 0)
		d->late_watch_s = s->late_watch_s < 0 ? s->late_watch_s :
				  fmax(d->late_watch_s, s->late_watch_s);
	d->last_loss_after_step_s = fmax(d->last_loss_after_step_s,
					 s->last_loss_after_step_s);
	if (s->max_gap_s > d->max_gap_s) {
		d->max_gap_s = s->max_gap_s;
		d->max_gap_start_s = s->max_gap_start_s;
	}
	if (s->tag_received) {
		d->tag_received = true;
		d->tag_latency_ns = s->tag_latency_ns;
	}
	for (i = 0; i < BM_LAT_HIST_BUCKETS; i++)
		d->lat_hist[i] += s->lat_hist[i];
	d->bcast_received += s->bcast_received;
	d->probe_received += s->probe_received;
	d->proto_received[0] += s->proto_received[0];
	d->proto_received[1] += s->proto_received[1];
	d->link_downs += s->link_downs;
	if (s->link_downs && !d->link_down_port[0])
		memcpy(d->link_down_port, s->link_down_port,
		       sizeof(d->link_down_port));
}

/* §11.2's query counts of s into d: one host sends and counts them. */
static void mgmt_take(struct bm_trial_result *d,
		      const struct bm_trial_result *s)
{
	d->mgmt_sent = s->mgmt_sent;
	d->mgmt_answered = s->mgmt_answered;
	d->mgmt_verified = s->mgmt_verified;
	memcpy(d->mgmt_error, s->mgmt_error, sizeof(d->mgmt_error));
}

/* The routing updates of s that host's part sends (those from its
 * ports: bm_rip_msg.port) added into d: each is one host's. */
static void rip_take(const struct bm_traffic *t, const char *host,
		     struct bm_trial_result *d,
		     const struct bm_trial_result *s)
{
	unsigned int k;

	for (k = 0; k < t->n_rip && k < BM_TRIAL_MAX_RIP; k++)
		if (bm_port_on_host(&t->ports[t->rip[k].port], host))
			d->rip_sent[k] += s->rip_sent[k];
	if (s->rip_error[0] && !d->rip_error[0])
		memcpy(d->rip_error, s->rip_error, sizeof(d->rip_error));
}

double bm_part_lead_s(const struct bm_traffic *t,
		      const struct bm_trial_spec *spec)
{
	double learn = 0, rip = 0;
	unsigned int k;

	if (spec->learning)
		learn = (spec->learning_pause_s < 0 ? BM_LEARNING_PAUSE_S :
			 spec->learning_pause_s) + 1.0;
	for (k = 0; k < t->n_rip; k++)
		rip = fmax(rip, -t->rip[k].at_s);
	/* §23a: the update, the DUT's settling, then the learning (or the
	 * router's ARP) before the start */
	return rip > 0 ? fmax(rip, fmin(rip, BM_RIP_SETTLE_S) + learn) :
	       learn;
}

void bm_traffic_keep_host(const struct bm_traffic *t, const char *host,
			  struct bm_traffic_result *r,
			  struct bm_trial_result *res)
{
	struct bm_trial_result kept;
	enum bm_half first = BM_HALF_NONE;
	unsigned int k;

	for (k = 0; k < r->n_streams && k < t->n_streams; k++) {
		enum bm_half h = bm_stream_half(t, &t->streams[k], host);
		struct bm_stream_result x;

		if (!k)
			first = h;
		if (h == BM_HALF_BOTH)
			continue;
		stream_empty(&x);
		stream_take(&x, &r->streams[k], h);
		bm_stream_result_free_logs(&r->streams[k]);
		r->streams[k] = x;
	}
	bm_trial_result_empty(&kept);
	memcpy(kept.ts_source, res->ts_source, sizeof(kept.ts_source));
	if (first & BM_HALF_TX)
		trial_add_tx(&kept, res);
	if (first & BM_HALF_RX) {
		trial_add_rx(&kept, res);
		kept.latency = res->latency;
		kept.hw = res->hw;
	}
	if (bm_part_has_mgmt(t, host))
		mgmt_take(&kept, res);
	rip_take(t, host, &kept, res);
	*res = kept;
}

void bm_pool_merge_init(struct bm_pool_merge *m, const struct bm_traffic *t,
			struct bm_traffic_result *r,
			struct bm_trial_result *res)
{
	memset(m, 0, sizeof(*m));
	m->t = t;
	m->r = r;
	m->res = res;
	bm_trial_result_empty(res);
	bm_pool_hw_init(m);
}

void bm_pool_merge_add(struct bm_pool_merge *m, const char *host,
		       struct bm_traffic_result *pr,
		       const struct bm_trial_result *pres)
{
	const struct bm_traffic *t = m->t;
	struct bm_pool_sync *sy = &m->res->sync;
	struct bm_host_part *c = NULL;
	unsigned int k, sides = 0;

	if (sy->n_hosts < BM_POOL_MAX_HOSTS) {
		c = &sy->hosts[sy->n_hosts++];
		snprintf(c->host, sizeof(c->host), "%s", host);
		c->before = pres->clock_before;
		c->after = pres->clock_after;
		c->during = pres->clock_during;
		c->system = pres->clock_system;
		c->first_tx_s = NAN;
	}
	for (k = 0; k < t->n_streams && k < pr->n_streams &&
		    k < m->r->n_streams; k++) {
		enum bm_half h = bm_stream_half(t, &t->streams[k], host);

		if (c && (h & BM_HALF_TX) && pr->streams[k].first_tx_s >= 0 &&
		    !(pr->streams[k].first_tx_s >= c->first_tx_s))
			c->first_tx_s = pr->streams[k].first_tx_s;
		if (c && (h & BM_HALF_TX))
			c->sent += pr->streams[k].sent;
		if (c && (h & BM_HALF_RX))
			c->received += pr->streams[k].received;
		bm_pool_hw_take(m, k, h, &pr->streams[k], pres);
		stream_take(&m->r->streams[k], &pr->streams[k], h);
		sides |= h;
	}
	bm_pool_hw_add(m, sides, pres);
	/* §11.2's queries: what the part on their port's host counted */
	if (bm_part_has_mgmt(t, host))
		mgmt_take(m->res, pres);
	rip_take(t, host, m->res, pres);
	if (!m->res->ts_source[0])
		memcpy(m->res->ts_source, pres->ts_source,
		       sizeof(m->res->ts_source));
	else if (strcmp(m->res->ts_source, pres->ts_source))
		/* a pool whose hosts stamp differently states the weaker */
		snprintf(m->res->ts_source, sizeof(m->res->ts_source), "sw");
	if (sides & BM_HALF_TX)
		trial_add_tx(m->res, pres);
	if (sides & BM_HALF_RX) {
		trial_add_rx(m->res, pres);
		if (pres->latency.count) {
			m->lat_hosts++;
			m->lat = pres->latency;
		}
	}
}

void bm_pool_merge_failed(struct bm_pool_merge *m, const char *host,
			  const char *why)
{
	struct bm_pool_sync *sy = &m->res->sync;
	struct bm_host_part *c;

	if (!sy->failed[0])
		snprintf(sy->failed, sizeof(sy->failed), "%s", why);
	if (sy->n_hosts >= BM_POOL_MAX_HOSTS)
		return;
	c = &sy->hosts[sy->n_hosts++];
	memset(c, 0, sizeof(*c));
	snprintf(c->host, sizeof(c->host), "%s", host);
	c->failed = true;
	c->first_tx_s = NAN;
	snprintf(c->before.error, sizeof(c->before.error), "its part failed");
	c->after = c->before;
}

int bm_part_clock_check(const struct bm_trial_spec *spec,
			const struct bm_clock_reading *c, struct bm_error *err)
{
	double tol = spec->sync_tolerance_ns;

	if (!(tol > 0) || !c->valid || llabs(c->offset_ns) <= tol)
		return 0;
	bm_errorf(err, "its clock is %.3f ms off the PTP grandmaster %s by "
		  "ptp4l (the pool allows %.3f ms): not run",
		  c->offset_ns / 1e6, c->gm, tol / 1e6);
	return -ERANGE;
}

int bm_part_tai_check(const struct bm_trial_spec *spec, int here_s,
		      struct bm_error *err)
{
	if (here_s == spec->tai_utc_s)
		return 0;
	bm_errorf(err, "its kernel's TAI-UTC offset is %d s, the pool's "
		  "coordinating host's %d s: a start on CLOCK_TAI would be "
		  "%d s apart (give every host the same, e.g. phc2sys -w or "
		  "chrony's leapsectz): not run", here_s, spec->tai_utc_s,
		  abs(here_s - spec->tai_utc_s));
	return -ERANGE;
}

/* Host h's readings valid and on grandmaster gm (the first host's when
 * *gm is NULL); else why not, in why. */
static bool host_readable(const struct bm_host_part *h, const char **gm,
			  char *why, size_t why_len)
{
	const char *name = h->host[0] ? h->host : "this host";
	const struct bm_clock_reading *c[2] = { &h->before, &h->after };
	unsigned int i;

	for (i = 0; i < 2; i++) {
		if (!c[i]->valid) {
			snprintf(why, why_len, "%s: no PTP time (%s)", name,
				 c[i]->error);
			return false;
		}
		if (!*gm)
			*gm = c[i]->gm;
		if (strcmp(c[i]->gm, *gm)) {
			snprintf(why, why_len, "%s follows grandmaster %s, "
				 "not %s", name, c[i]->gm, *gm);
			return false;
		}
	}
	if (h->during.other_gm[0]) {
		snprintf(why, why_len, "%s followed grandmaster %s during "
			 "its part", name, h->during.other_gm);
		return false;
	}
	/* its system clock's error is read, and was not there */
	if (h->system.source[0] && !h->system.samples) {
		snprintf(why, why_len, "%s: no system clock by phc2sys (%s)",
			 name, h->system.error);
		return false;
	}
	return true;
}

/*
 * The smallest and largest offset host h had before, during and after
 * its part.  Where phc2sys's reports were read, its system clock is
 * ptp4l's clock (a PHC) plus phc2sys's offset from it: the two ranges
 * add, whenever in the part each extreme fell.
 */
static void host_range(const struct bm_host_part *h, double *lo, double *hi)
{
	*lo = fmin(h->before.offset_ns, h->after.offset_ns);
	*hi = fmax(h->before.offset_ns, h->after.offset_ns);
	if (h->during.samples) {
		*lo = fmin(*lo, (double)h->during.min_ns);
		*hi = fmax(*hi, (double)h->during.max_ns);
	}
	if (h->system.samples) {
		*lo += (double)h->system.min_ns;
		*hi += (double)h->system.max_ns;
	}
}

/*
 * The most two hosts' clocks can have differed during the trial: one's
 * highest offset less another's lowest.  The readings are not taken at
 * one instant on every host, so the two extremes are paired whenever
 * they fell; a bound, not a simultaneous spread.  NAN with why set when a
 * host is unread or on another grandmaster.
 */
static double sync_error(const struct bm_pool_sync *sy, char *why,
			 size_t why_len)
{
	double lo[BM_POOL_MAX_HOSTS], hi[BM_POOL_MAX_HOSTS], e = 0;
	const char *gm = NULL;
	unsigned int i, j, n = 0;

	for (i = 0; i < sy->n_hosts; i++) {
		const struct bm_host_part *h = &sy->hosts[i];

		if (h->failed)
			continue;	/* its part's error says why */
		if (!host_readable(h, &gm, why, why_len))
			return NAN;
		host_range(h, &lo[n], &hi[n]);
		n++;
	}
	if (!n) {
		snprintf(why, why_len, "no host's clock was read");
		return NAN;
	}
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			if (i != j)
				e = fmax(e, hi[i] - lo[j]);
	return e;
}

void bm_pool_sync_judge(struct bm_pool_sync *sy, double tolerance_ns)
{
	double lo = INFINITY, hi = -INFINITY, worst = 0;
	const char *who = "";
	unsigned int i;

	sy->tolerance_ns = tolerance_ns > 0 ? tolerance_ns : 0;
	sy->why[0] = '\0';
	sy->error_ns = sync_error(sy, sy->why, sizeof(sy->why));
	for (i = 0; i < sy->n_hosts; i++) {
		const struct bm_host_part *h = &sy->hosts[i];
		double olo, ohi, o;

		if (!isnan(h->first_tx_s)) {
			lo = fmin(lo, h->first_tx_s);
			hi = fmax(hi, h->first_tx_s);
		}
		host_range(h, &olo, &ohi);
		o = fmax(fabs(olo), fabs(ohi));
		if (o > worst) {
			worst = o;
			who = h->host[0] ? h->host : "this host";
		}
	}
	sy->start_skew_ns = lo <= hi ? (hi - lo) * 1e9 : NAN;
	if (!sy->why[0] && sy->tolerance_ns > 0 && worst > sy->tolerance_ns)
		snprintf(sy->why, sizeof(sy->why), "%s: %.3f ms off the "
			 "grandmaster (tolerance %.3f ms)", who, worst / 1e6,
			 sy->tolerance_ns / 1e6);
	if (!sy->why[0] && sy->failed[0])
		snprintf(sy->why, sizeof(sy->why), "a host's part failed");
	sy->within = !sy->why[0];
}

void bm_pool_merge_end(struct bm_pool_merge *m, uint32_t frame_size)
{
	const struct bm_traffic *t = m->t;
	struct bm_traffic_result *r = m->r;
	double first = -1, last = -1;
	unsigned int k;

	for (k = 0; k < t->n_streams && k < r->n_streams; k++) {
		const struct bm_stream_spec *s = &t->streams[k];
		struct bm_stream_result *x = &r->streams[k];

		/* RFC 2544 §26.3: what the sender transmitted and the
		 * receiver did not take; one host counted it itself */
		if (s->tx_port < t->n_ports && s->rx_port < t->n_ports &&
		    strcmp(t->ports[s->tx_port].host,
			   t->ports[s->rx_port].host))
			x->lost = x->sent > x->received ?
				  x->sent - x->received : 0;
		if (x->first_tx_s >= 0 && (first < 0 || x->first_tx_s < first))
			first = x->first_tx_s;
		last = fmax(last, x->last_tx_s);
	}
	bm_traffic_result_sum(t, frame_size, r,
			      first >= 0 ? last - first : 0, m->res);
	if (m->lat_hosts == 1 && m->res->latency.count == m->lat.count) {
		m->res->latency.p50_ns = m->lat.p50_ns;
		m->res->latency.p90_ns = m->lat.p90_ns;
		m->res->latency.p99_ns = m->lat.p99_ns;
		m->res->latency.p999_ns = m->lat.p999_ns;
	}
	bm_pool_hw_end(m);
}

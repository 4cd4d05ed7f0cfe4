// SPDX-License-Identifier: GPL-2.0
/*
 * N-port traffic made: ports, streams, their rates and start times, and
 * how many management queries and routing updates a trial sends.  Its
 * check is traffic_check.c, the topology builders of REQ-TOPO-1
 * traffic_topo.c, the sums of the per-stream results traffic_result.c;
 * they share what traffic_int.h declares.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bm_traffic.h"
#include "traffic_int.h"

void bm_traffic_init(struct bm_traffic *t)
{
	memset(t, 0, sizeof(*t));
}

void bm_traffic_free(struct bm_traffic *t)
{
	free(t->streams);
	memset(t, 0, sizeof(*t));
}

unsigned int bm_mgmt_queries(const struct bm_mgmt_spec *m, double duration_s)
{
	double n;

	if (!(m->interval_s > 0.0) || !(duration_s > 0.0))
		return 0;
	/* a query at the very end is after the trial: 1e-9 of slack */
	n = ceil(duration_s / m->interval_s - 1e-9);
	return n > 1e6 ? 1000000 : (unsigned int)n;
}

unsigned int bm_rip_sends(const struct bm_rip_msg *m, double lead_s,
			  double duration_s)
{
	double first = m->at_s, n;

	if (!(m->every_s > 0.0))
		return m->at_s >= 0 && m->at_s < duration_s - 1e-9;
	/* a pre-trial message's first repeat in the trial */
	if (m->at_s < 0)
		first = fmax(1.0, ceil(lead_s / m->every_s - 1e-9)) *
			m->every_s - lead_s;
	if (!(duration_s > 0.0) || !(first < duration_s - 1e-9))
		return 0;
	/* as bm_mgmt_queries: none at the very end */
	n = ceil((duration_s - first) / m->every_s - 1e-9);
	return n > 1e6 ? 1000000 : (unsigned int)n;
}

void bm_mgmt_note_unanswered(struct bm_trial_result *res)
{
	if (!res->mgmt_error[0] && res->mgmt_answered < res->mgmt_sent)
		snprintf(res->mgmt_error, sizeof(res->mgmt_error), "%u of %u "
			 "queries unanswered",
			 res->mgmt_sent - res->mgmt_answered, res->mgmt_sent);
}

void bm_port_default_ip4(unsigned int i, uint8_t ip4[4])
{
	/* Only 254 pairs fit in the third octet; beyond them (i >= 508,
	 * never within BM_TRAFFIC_MAX_PORTS) the pairs wrap modulo 254. */
	unsigned int n = (i / 2) % 254;

	ip4[0] = 198;
	ip4[1] = i % 2 ? 19 : 18;
	ip4[2] = (uint8_t)(n + 1);
	ip4[3] = 2;
}

bool traffic_rate_ok(double bps)
{
	return isfinite(bps) && bps > 0;
}

int bm_traffic_add_port(struct bm_traffic *t, const char *name,
			double line_rate_bps, struct bm_error *err)
{
	struct bm_port_spec *p;
	size_t len = name ? strlen(name) : 0;
	unsigned int i;

	if (t->n_ports >= BM_TRAFFIC_MAX_PORTS)
		return bm_errorf(err, "at most %d ports", BM_TRAFFIC_MAX_PORTS);
	if (len < 1 || len >= sizeof(p->name))
		return bm_errorf(err, "port name \"%s\": 1 to %zu characters",
				 name ? name : "", sizeof(p->name) - 1);
	if (!traffic_rate_ok(line_rate_bps))
		return bm_errorf(err, "port %s: line rate %g bit/s is not a "
				 "positive number", name, line_rate_bps);
	for (i = 0; i < t->n_ports; i++)
		if (!t->ports[i].host[0] && !strcmp(t->ports[i].name, name))
			return bm_errorf(err, "port %s: already port %u",
					 name, i);
	p = &t->ports[t->n_ports];
	memset(p, 0, sizeof(*p));
	memcpy(p->name, name, len + 1);
	p->line_rate_bps = line_rate_bps;
	bm_port_default_ip4(t->n_ports, p->ip4);
	return (int)t->n_ports++;
}

void bm_stream_init(struct bm_stream_spec *s, unsigned int tx, unsigned int rx,
		    double load_pct)
{
	memset(s, 0, sizeof(*s));
	s->tx_port = (uint16_t)tx;
	s->rx_port = (uint16_t)rx;
	s->frame.vlan_id = -1;
	s->frame.ip_version = 4;
	s->pattern = BM_STREAM_CBR;
	s->load_unit = BM_LOAD_PCT;
	s->load = load_pct;
	s->tag_seq = -1;
}

/* Room for n streams in all, so that a builder cannot fail half way. */
int traffic_reserve(struct bm_traffic *t, unsigned int n,
		    struct bm_error *err)
{
	struct bm_stream_spec *v;
	unsigned int cap = t->cap_streams ? t->cap_streams : 16;

	if (n > BM_TRAFFIC_MAX_STREAMS) {
		bm_errorf(err, "%u streams: at most %d", n,
			  BM_TRAFFIC_MAX_STREAMS);
		return -E2BIG;
	}
	if (n <= t->cap_streams)
		return 0;
	while (cap < n)
		cap *= 2;
	if (cap > BM_TRAFFIC_MAX_STREAMS)
		cap = BM_TRAFFIC_MAX_STREAMS;
	v = realloc(t->streams, cap * sizeof(*v));
	if (!v) {
		bm_errorf(err, "no memory for %u streams", cap);
		return -ENOMEM;
	}
	t->streams = v;
	t->cap_streams = cap;
	return 0;
}

int bm_traffic_add_stream(struct bm_traffic *t, const struct bm_stream_spec *s,
			  struct bm_error *err)
{
	int ret = traffic_reserve(t, t->n_streams + 1, err);

	if (ret)
		return ret;
	t->streams[t->n_streams] = *s;
	return (int)t->n_streams++;
}

static double imix_mean(const struct bm_traffic *t)
{
	double sum = 0;
	unsigned int i;

	if (!t->n_imix || t->n_imix > BM_TRAFFIC_MAX_IMIX)
		return 0;
	for (i = 0; i < t->n_imix; i++)
		sum += t->imix[i];
	return sum / t->n_imix;
}

/* Mean frame size of s (the imix mean), or 0 when it has none. */
double traffic_stream_size(const struct bm_traffic *t,
			   const struct bm_stream_spec *s,
			   uint32_t frame_size)
{
	if (s->imix)
		return imix_mean(t);
	return s->frame_size ? s->frame_size : frame_size;
}

double traffic_fps_max(double line_rate_bps, double size)
{
	return line_rate_bps / ((size + BM_L1_OVERHEAD) * 8.0);
}

double bm_stream_start_s(const struct bm_traffic *t,
			 const struct bm_stream_spec *s, uint32_t frame_size)
{
	double fps;

	if (s->pattern == BM_STREAM_BURSTS || !(s->phase > 0))
		return s->start_s;
	fps = bm_stream_fps(t, s, frame_size);
	return fps > 0 ? s->start_s + s->phase / fps : s->start_s;
}

void bm_traffic_offered(const struct bm_traffic *t, uint32_t frame_size,
			double *fps, double *pct_line)
{
	double f[BM_TRAFFIC_MAX_PORTS] = { 0 }, bps[BM_TRAFFIC_MAX_PORTS] = { 0 };
	const struct bm_stream_spec *s;
	unsigned int i;
	double size;

	*fps = *pct_line = 0.0;
	for (i = 0; i < t->n_streams; i++) {
		s = &t->streams[i];
		if (s->tx_port >= t->n_ports)
			continue;
		size = traffic_stream_size(t, s, frame_size);
		f[s->tx_port] += bm_stream_fps(t, s, frame_size);
		bps[s->tx_port] += bm_stream_fps(t, s, frame_size) *
				   (size + 20.0) * 8.0;
	}
	for (i = 0; i < t->n_ports; i++) {
		*fps = fmax(*fps, f[i]);
		if (t->ports[i].line_rate_bps > 0)
			*pct_line = fmax(*pct_line, bps[i] /
					 t->ports[i].line_rate_bps * 100.0);
	}
}

void bm_trial_record_offered(struct bm_trial_record *r)
{
	if (r->spec.traffic)
		bm_traffic_offered(r->spec.traffic, r->spec.frame_size,
				   &r->traffic_fps, &r->traffic_pct_line);
}

double bm_stream_fps(const struct bm_traffic *t, const struct bm_stream_spec *s,
		     uint32_t frame_size)
{
	double size;

	if (s->load_unit == BM_LOAD_FPS)
		return s->load;
	size = traffic_stream_size(t, s, frame_size);
	if (s->tx_port >= t->n_ports || size <= 0)
		return 0;
	return s->load / 100.0 *
	       traffic_fps_max(t->ports[s->tx_port].line_rate_bps, size);
}

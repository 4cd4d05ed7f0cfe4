// SPDX-License-Identifier: GPL-2.0
/*
 * One application's TCP metrics over its connections (TM-TTP, TM-MET):
 * what rfc7640.stateful reports per run and queue-capacity's stateful
 * part per egress and ingress, from one sum; and the applications a test
 * runs, as both write them.
 */
#include <math.h>
#include <string.h>

#include "bm_json.h"
#include "bm_tcp.h"
#include "rfc7640_int.h"

void tm_app_of(const struct bm_tcp_result *r, int k, int client, int server,
	       struct tm_app_run *a)
{
	uint64_t sent = 0, bytes = 0;
	double rtt_sum = 0, base_sum = 0;
	unsigned int i, nr = 0;

	memset(a, 0, sizeof(*a));
	a->ttpet_s = NAN;
	for (i = 0; i < r->n_conn; i++) {
		const struct bm_tcp_conn_result *c = &r->conn[i];

		if ((int)c->pattern != k ||
		    (client >= 0 && c->client != (unsigned int)client) ||
		    (server >= 0 && c->server != (unsigned int)server))
			continue;
		a->connections++;
		bytes += c->window_bytes;
		a->window_s = fmax(a->window_s, c->window_s);
		a->bytes_in += c->c2s_bytes;	/* into the DUT's ingress */
		a->bytes_out += c->s2c_bytes;
		sent += c->bytes_sent;
		a->retrans += c->bytes_retrans;
		/* the application's execution ends with its last
		 * connection (bulk: all bytes, TM-TTP-BULK) */
		if (c->executions && (isnan(a->ttpet_s) ||
				      c->ttpet_max_s > a->ttpet_s))
			a->ttpet_s = c->ttpet_max_s;
		if (c->rtt_samples) {
			rtt_sum += c->rtt_avg_ms * c->rtt_samples;
			nr += c->rtt_samples;
		}
		base_sum += c->baseline_rtt_ms;
	}
	/* the application's bytes over the time its last connection took:
	 * connections that end apart must not add their rates */
	a->thr_bps = a->window_s > 0 ? bytes * 8.0 / a->window_s : 0;
	a->eff_pct = bm_tcp_efficiency_pct(sent, a->retrans);
	a->rtt_ms = nr ? rtt_sum / nr : NAN;
	a->base_ms = a->connections ? base_sum / a->connections : NAN;
	a->bufd_pct = bm_tcp_buffer_delay_pct(a->rtt_ms, a->base_ms);
}

void tm_app_json(json_object *o, const struct tm_app_run *a)
{
	bm_json_add_u64(o, "bytes_in", a->bytes_in);
	bm_json_add_u64(o, "bytes_out", a->bytes_out);
	bm_json_add_u64(o, "bytes_retrans", a->retrans);
	bm_json_add_double(o, "tcp_efficiency_pct", a->eff_pct);
	/* TM §4.2 MUST: each metric, or why the run has none */
	if (isnan(a->eff_pct))
		bm_json_add_str(o, "tcp_efficiency_pct_why",
				"the application sent no bytes in the run");
	bm_json_add_double(o, "rtt_avg_ms", a->rtt_ms);
	bm_json_add_double(o, "baseline_rtt_ms", a->base_ms);
	bm_json_add_double(o, "buffer_delay_pct", a->bufd_pct);
	if (isnan(a->bufd_pct))
		bm_json_add_str(o, "buffer_delay_pct_why", isnan(a->rtt_ms) ?
			"no RTT sample of the application's connections in "
			"the run" :
			"no baseline RTT: no connection measured its RTT "
			"before the load");
}

void tm_app_ttpet_json(json_object *o, const struct tm_app_run *a)
{
	bm_json_add_double(o, "ttpet_s", a->ttpet_s);
	if (isnan(a->ttpet_s))
		bm_json_add_str(o, "ttpet_s_why", "no execution of the "
				"application completed in the run (TTPET is "
				"the time of a whole one, TM §4.2)");
}

json_object *tm_apps_json(unsigned int mask)
{
	json_object *a = json_object_new_array();
	unsigned int k;

	for (k = 0; k < BM_TTP_N; k++)
		if (mask & (1u << k))
			json_object_array_add(a, json_object_new_string(
				bm_ttp_names[k]));
	return a;
}

json_object *tm_apps_at(const struct bm_jwriter *w,
			const struct bm_jkey *k, const void *base)
{
	unsigned int mask;

	(void)w;
	memcpy(&mask, (const char *)base + k->off, sizeof(mask));
	return tm_apps_json(mask);
}

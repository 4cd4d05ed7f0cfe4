// SPDX-License-Identifier: GPL-2.0
/* A TCP session's result as JSON, and the procedures' entry to an engine
 * (bm_tcp.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "bm_json.h"
#include "bm_tcp.h"

static json_object *conn_json(const struct bm_tcp_conn_result *c,
			      const char (*names)[16])
{
	json_object *o = json_object_new_object();

	bm_json_add_str(o, "client", names[c->client]);
	bm_json_add_str(o, "server", names[c->server]);
	bm_json_add_str(o, "pattern", bm_ttp_name(c->pattern));
	bm_json_add_u64(o, "dscp", c->dscp);
	bm_json_add_bool(o, "established", c->established);
	if (c->error[0])
		bm_json_add_str(o, "error", c->error);
	bm_json_add_u64(o, "c2s_bytes", c->c2s_bytes);
	bm_json_add_u64(o, "s2c_bytes", c->s2c_bytes);
	bm_json_add_u64(o, "window_bytes", c->window_bytes);
	bm_json_add_double(o, "window_s", c->window_s);
	bm_json_add_double(o, "goodput_bps", c->goodput_bps);
	bm_json_add_u64(o, "bytes_sent", c->bytes_sent);
	bm_json_add_u64(o, "bytes_retrans", c->bytes_retrans);
	bm_json_add_u64(o, "total_retrans", c->total_retrans);
	bm_json_add_u64(o, "dsack_dups", c->dsack_dups);
	bm_json_add_double(o, "efficiency_pct", c->efficiency_pct);
	bm_json_add_u64(o, "client_segs_out", c->segs_out);
	bm_json_add_u64(o, "client_segs_in", c->segs_in);
	bm_json_add_u64(o, "server_segs_out", c->srv_segs_out);
	bm_json_add_u64(o, "server_segs_in", c->srv_segs_in);
	bm_json_add_bool(o, "quiesced", c->quiesced);
	bm_json_add_u64(o, "rtt_samples", c->rtt_samples);
	bm_json_add_u64(o, "rtt_excluded", c->rtt_excluded);
	bm_json_add_double(o, "rtt_avg_ms", c->rtt_avg_ms);
	bm_json_add_double(o, "rtt_min_ms", c->rtt_min_ms);
	bm_json_add_double(o, "rtt_max_ms", c->rtt_max_ms);
	bm_json_add_double(o, "baseline_rtt_ms", c->baseline_rtt_ms);
	bm_json_add_double(o, "buffer_delay_pct", c->buffer_delay_pct);
	bm_json_add_u64(o, "mss", c->mss);
	if (c->executions) {
		bm_json_add_u64(o, "executions", c->executions);
		bm_json_add_double(o, "ttpet_min_s", c->ttpet_min_s);
		bm_json_add_double(o, "ttpet_avg_s", c->ttpet_avg_s);
		bm_json_add_double(o, "ttpet_max_s", c->ttpet_max_s);
	}
	if (c->bursts) {
		bm_json_add_u64(o, "bursts", c->bursts);
		bm_json_add_double(o, "burst_min_s", c->burst_min_s);
		bm_json_add_double(o, "burst_avg_s", c->burst_avg_s);
		bm_json_add_double(o, "burst_max_s", c->burst_max_s);
	}
	return o;
}

json_object *bm_tcp_result_json(const struct bm_tcp_result *res,
				const char (*names)[16])
{
	json_object *o = json_object_new_object();
	json_object *st = json_object_new_object(), *a;
	unsigned int i;

	/* REQ-TCP-4, RFC 8238 §7.3: the stack the numbers come from */
	bm_json_add_str(st, "os", res->stack.os);
	bm_json_add_str(st, "congestion_control", res->stack.cc);
	bm_json_add_str(st, "options", res->stack.options);
	bm_json_add_u64(st, "sndbuf", res->stack.sndbuf);
	bm_json_add_u64(st, "rcvbuf", res->stack.rcvbuf);
	bm_json_add_u64(st, "window_clamp", res->stack.window_clamp);
	bm_json_add_str(st, "routing_domains", res->stack.domains);
	json_object_object_add(o, "stack", st);
	bm_json_add_double(o, "window_s", res->window_s);
	bm_json_add_double(o, "goodput_bps", res->goodput_bps);
	a = json_object_new_array();
	for (i = 0; i < res->n_conn; i++)
		json_object_array_add(a, conn_json(&res->conn[i], names));
	json_object_object_add(o, "connections", a);
	return o;
}

int bm_tcp_cc_parse(json_object *v, char out[BM_TCP_CC_NAME],
		    const char *key, struct bm_error *err)
{
	const char *s = json_object_get_string(v);

	if (!json_object_is_type(v, json_type_string) || !*s ||
	    strlen(s) >= BM_TCP_CC_NAME ||
	    strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_-") != strlen(s))
		return bm_errorf(err, "%s: a congestion control name of 1 .. "
				 "%d of a-z 0-9 _ -", key, BM_TCP_CC_NAME - 1);
	snprintf(out, BM_TCP_CC_NAME, "%s", s);
	return 0;
}

int bm_tcp_start(struct bm_backend *be, const struct bm_tcp_spec *spec,
		 struct bm_error *err)
{
	if (!be->tcp)
		return bm_errorf(err, "this procedure needs the TCP engine "
				 "(PLAT-TCP), and bmd's backend has none "
				 "(bmd.conf tcp-engine, or no VRF support)"),
		       -EOPNOTSUPP;
	return be->tcp->start(be, spec, err);
}

void bm_backend_idle(struct bm_backend *be, double s)
{
	struct timespec ts;

	if (s <= 0)
		return;
	if (be->tcp && be->tcp->run_for) {
		be->tcp->run_for(be, s, false);
		return;
	}
	if (be->virtual_clock) {
		be->elapsed_s += s;
		return;
	}
	ts.tv_sec = (time_t)s;
	ts.tv_nsec = (long)((s - (double)ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

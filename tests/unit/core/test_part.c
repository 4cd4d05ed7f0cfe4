// SPDX-License-Identifier: GPL-2.0
/*
 * A pool's part on the wire (bm_part.h): the trial and what a part
 * measured go through JSON text and come back the same, field by field
 * (compared as their encodings and by the fields that matter most), and
 * what is not this version's part is refused by name.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bm_hosts.h"
#include "bm_part.h"
#include "bm_sim.h"
#include "check_util.h"

/* Ports p1 (""), p2 ("lab2"), p3 (""); a mesh at 10 %, every template
 * field away from its default on stream 1, an IMIX, bursts on 2. */
static void traffic(struct bm_traffic *t)
{
	struct bm_error err = { "" };
	struct bm_stream_spec *s;
	unsigned int i;

	bm_traffic_init(t);
	for (i = 0; i < 3; i++) {
		char name[8];

		snprintf(name, sizeof(name), "p%u", i + 1);
		ck_assert_int_eq(bm_traffic_add_port(t, name, 1e9, &err),
				 (int)i);
		t->ports[i].ip4[0] = 198;
		t->ports[i].ip4[1] = 18;
		t->ports[i].ip4[2] = (uint8_t)i;
		t->ports[i].ip4[3] = 2;
	}
	strcpy(t->ports[1].host, "lab2");
	t->ports[1].have_mac = true;
	memcpy(t->ports[1].mac, "\x02\x00\x00\x00\x00\x07", 6);
	ck_assert_int_eq(bm_topo_mesh(t, 10.0, &err), 6);
	s = &t->streams[1];
	s->frame.have_dst_mac = true;
	memcpy(s->frame.dst_mac, "\x02\xaa\xbb\xcc\xdd\xee", 6);
	s->frame.vlan_id = 100;
	s->frame.pcp = 5;
	s->frame.ip_version = 6;
	s->frame.src_ip[15] = 1;
	s->frame.dst_ip[0] = 0x20;
	s->frame.dscp = 46;
	s->frame.udp_src = 1234;
	s->frame.tpid = 0x88a8;
	s->frame.have_vlan2 = true;
	s->frame.vlan2_id = 7;
	s->frame.n_mpls = 2;
	s->frame.mpls[0] = 16 << 12;
	s->frame.mpls[1] = 17 << 12;
	s->frame.dst_macs = 4096;
	s->frame.mac_seed = 0xfedcba9876543210ULL;
	s->imix = true;
	s->tag_seq = 12345;
	s->phase = 0.5;
	s->log_frames = 100;
	t->n_imix = 3;
	t->imix[0] = 64;
	t->imix[1] = 594;
	t->imix[2] = 1518;
	s = &t->streams[2];
	s->pattern = BM_STREAM_BURSTS;
	s->burst_len = 42;
	s->burst_count = 3;
	s->burst_period_s = 0.1;
	s->burst_last_size = 244;
	s->start_s = 1.0 / 3.0;
	t->overload_ok = true;
	/* §13's set-up before the trial and §11.3's updates in it */
	t->n_rip = 2;
	t->rip[0].port = 1;
	t->rip[0].at_s = -7.0;
	t->rip[0].every_s = 30.0;
	t->rip[0].n = 2;
	memcpy(t->rip[0].routes[0].net, "\xc6\x13\x41\x00", 4);
	t->rip[0].routes[0].metric = 7;
	memcpy(t->rip[0].routes[1].net, "\xc6\x13\x42\x00", 4);
	t->rip[0].routes[1].metric = 16;
	t->rip[1].port = 2;
	t->rip[1].at_s = 0.25;
	t->rip[1].every_s = 0.5;
	t->rip[1].n = 1;
	memcpy(t->rip[1].routes[0].net, "\xc6\x12\x41\x00", 4);
	t->rip[1].routes[0].metric = 7;
}

/* o through JSON text and back, as the protocol carries it. */
static json_object *through_text(json_object *o)
{
	json_object *back = json_tokener_parse(
		json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));

	ck_assert_ptr_nonnull(back);
	return back;
}

START_TEST(spec_round_trip)
{
	struct bm_traffic t, t2;
	struct bm_trial_spec spec, back;
	struct bm_error err = { "" };
	char host[BM_PART_HOST_LEN];
	json_object *o, *p;
	unsigned int i;

	traffic(&t);
	bm_trial_spec_rate(&spec, 512, 1000, 2.5);
	spec.traffic = &t;
	spec.host = "lab2";
	spec.start_tai_ns = 1798765432123456789LL;
	spec.latency = true;
	spec.learning = true;
	spec.learning_pause_s = 0.2;
	spec.drain_s = 0.3;
	spec.tx_path = "recycle";
	spec.tx_kthreads = 2;
	o = bm_part_spec_to_json(&spec);
	ck_assert_ptr_nonnull(o);
	p = through_text(o);
	ck_assert_msg(bm_part_spec_from_json(p, &back, &t2, host, &err) == 0,
		      "%s", err.msg);
	ck_assert_str_eq(back.host, "lab2");
	ck_assert_int_eq(back.start_tai_ns, spec.start_tai_ns);
	ck_assert_str_eq(back.tx_path, "recycle");
	ck_assert_uint_eq(back.tx_kthreads, 2);
	ck_assert_uint_eq(back.frame_size, 512);
	ck_assert_double_eq(back.duration_s, 2.5);
	ck_assert(back.latency && back.learning);
	ck_assert_double_eq(back.learning_pause_s, 0.2);
	ck_assert_double_eq(back.drain_s, 0.3);
	ck_assert_ptr_eq(back.traffic, &t2);
	ck_assert_uint_eq(t2.n_ports, 3);
	ck_assert_uint_eq(t2.n_streams, t.n_streams);
	for (i = 0; i < t.n_ports; i++)
		ck_assert_msg(!memcmp(&t.ports[i], &t2.ports[i],
				      sizeof(t.ports[i])), "port %u", i);
	for (i = 0; i < t.n_streams; i++)
		ck_assert_msg(!memcmp(&t.streams[i], &t2.streams[i],
				      sizeof(t.streams[i])), "stream %u", i);
	ck_assert_double_eq(t2.streams[2].start_s, 1.0 / 3.0);
	ck_assert_uint_eq(t2.n_imix, 3);
	ck_assert_uint_eq(t2.imix[2], 1518);
	ck_assert(t2.overload_ok);
	ck_assert_uint_eq(t2.n_rip, 2);
	for (i = 0; i < t.n_rip; i++)
		ck_assert_msg(!memcmp(&t.rip[i], &t2.rip[i],
				      sizeof(t.rip[i])), "rip %u", i);
	json_object_put(o);
	json_object_put(p);
	bm_traffic_free(&t2);

	/* what has no part: no host, management queries from a port of
	 * the part's host (their community is never carried); queries from
	 * another host's port leave the part as it was, without them */
	spec.host = NULL;
	ck_assert_ptr_null(bm_part_spec_to_json(&spec));
	spec.host = "lab2";
	t.have_mgmt = true;
	snprintf(t.mgmt.community, sizeof(t.mgmt.community), "s3cr3t");
	for (t.mgmt.port = 0; t.mgmt.port < t.n_ports; t.mgmt.port++) {
		o = bm_part_spec_to_json(&spec);
		if (bm_port_on_host(&t.ports[t.mgmt.port], "lab2")) {
			ck_assert_ptr_null(o);
			continue;
		}
		ck_assert_ptr_nonnull(o);
		ck_assert_ptr_null(strstr(json_object_to_json_string(o),
					  "s3cr3t"));
		json_object_put(o);
	}
	bm_traffic_free(&t);
}
END_TEST

/* A part's own results: the simulator's halves of host lab2, with frame
 * logs, latency and a NaN (an IPDV of no pair). */
START_TEST(result_round_trip)
{
	struct bm_traffic t;
	struct bm_trial_spec spec;
	struct bm_trial_result res, res2;
	struct bm_traffic_result *tr, *tr2;
	struct bm_error err = { "" };
	struct bm_sim_params sp;
	struct bm_backend *be;
	json_object *o, *p, *o2;
	unsigned int i;

	traffic(&t);
	t.streams[1].frame = t.streams[0].frame;	/* a plain frame */
	t.streams[1].imix = false;
	t.streams[1].tag_seq = -1;
	t.n_imix = 0;
	/* lab2's halves: stream 0 (p1 -> p2) received, 2 (p2 -> p1) sent */
	t.streams[0].log_frames = 50;
	t.streams[2].log_frames = 50;
	bm_sim_params_default(&sp);
	sp.line_rate_bps = 1e8;
	sp.sw_stamp_delay_ns = 1000;	/* ports that stamp every frame */
	be = sim_ports_new(&sp, 3, "p");
	tr = bm_traffic_result_new(&t);
	tr2 = bm_traffic_result_new(&t);
	bm_trial_spec_rate(&spec, 128, 1000, 0.5);
	spec.traffic = &t;
	spec.traffic_res = tr;
	spec.host = "lab2";
	spec.latency = true;
	ck_assert_msg(bm_run_trial(be, &spec, &res, &err) == 0, "%s", err.msg);
	ck_assert_uint_gt(tr->streams[0].n_rx_log, 0);
	ck_assert_uint_gt(tr->streams[2].n_tx_log, 0);
	ck_assert_uint_eq(tr->streams[0].n_tx_log, 0);	/* p1's half */
	/* the halves' hardware stamps: stream 0's rx, stream 2's tx */
	ck_assert_uint_gt(tr->streams[0].n_hw_log, 0);
	ck_assert_uint_gt(tr->streams[2].n_hw_log, 0);
	ck_assert_int_gt(tr->streams[0].hw_log[0].sw_lat_ns, 1000);
	ck_assert_int_eq(tr->streams[2].hw_log[0].sw_lat_ns, 0);
	o = bm_part_result_to_json(&res, tr);
	p = through_text(o);
	memset(&res2, 0, sizeof(res2));
	ck_assert_msg(bm_part_result_from_json(p, &res2, tr2, &err) == 0,
		      "%s", err.msg);
	o2 = bm_part_result_to_json(&res2, tr2);
	ck_assert_str_eq(json_object_to_json_string(o),
			 json_object_to_json_string(o2));
	ck_assert_uint_eq(res2.received, res.received);
	ck_assert_double_eq(res2.latency.mean_ns, res.latency.mean_ns);
	for (i = 0; i < t.n_streams; i++) {
		ck_assert_uint_eq(tr2->streams[i].sent, tr->streams[i].sent);
		ck_assert_uint_eq(tr2->streams[i].received,
				  tr->streams[i].received);
		ck_assert_uint_eq(tr2->streams[i].n_rx_log,
				  tr->streams[i].n_rx_log);
		ck_assert_uint_eq(tr2->streams[i].n_hw_log,
				  tr->streams[i].n_hw_log);
		ck_assert(isnan(tr2->streams[i].ipdv_mean_ns) ==
			  isnan(tr->streams[i].ipdv_mean_ns));
	}
	json_object_put(o);
	json_object_put(o2);

	/* hardware stamps that are not [seq, ns, sw_lat_ns] */
	{
		static const struct {
			const char *log, *msg;
		} bad[] = {
			{ "{}", "hw_log must be an array" },
			{ "[[1, 2]]", "hw_log[0]: not [seq, ns, sw_lat_ns]" },
			{ "[[-1, 2, 3]]", "hw_log[0]: not [seq, ns" },
			{ "[[1, 2, 3], [4, 5.5, 6]]", "hw_log[1]: not [seq" },
		};
		json_object *s0 = json_object_array_get_idx(
			json_object_object_get(p, "streams"), 0);
		json_object *keep = json_object_get(
			json_object_object_get(s0, "hw_log"));
		size_t b;

		for (b = 0; b < sizeof(bad) / sizeof(bad[0]); b++) {
			json_object_object_add(s0, "hw_log",
					       json_tokener_parse(bad[b].log));
			err.msg[0] = 0;
			ck_assert_int_eq(bm_part_result_from_json(p, &res2,
								  tr2, &err),
					 -EINVAL);
			ck_assert_msg(strstr(err.msg, bad[b].msg), "%s: %s",
				      bad[b].log, err.msg);
		}
		json_object_object_add(s0, "hw_log", keep);
	}

	/* the streams must be the traffic's */
	bm_traffic_result_free(tr2);
	t.n_streams--;
	tr2 = bm_traffic_result_new(&t);
	t.n_streams++;
	ck_assert_int_eq(bm_part_result_from_json(p, &res2, tr2, &err),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "streams: not an array of 5"));
	json_object_put(p);
	bm_traffic_result_free(tr);
	bm_traffic_result_free(tr2);
	bm_sim_free(be);
	bm_traffic_free(&t);
}
END_TEST

/* A part that is not this version's, or not a part: refused by name. */
START_TEST(refusals)
{
	static const struct {
		const char *path, *value, *msg;
	} bad[] = {
		{ "traffic.ports.0.extra", "1", "port: fields that are not" },
		{ "traffic.ports.0.name", "\"averyveryveryveryverylongname0123\"",
		  "port.name: not a string of at most 31" },
		{ "traffic.ports.0.mac", "\"02000000\"", "port.mac: not 6 bytes" },
		{ "traffic.streams.0.pattern", "7", "stream.pattern: 7 out of range" },
		{ "traffic.streams.0.frame.vlan_id", "5000", "vlan_id: 5000 out" },
		{ "traffic.streams.0.load", "\"x\"", "stream.load: not a number" },
		{ "traffic.streams.0.frame.n_mpls", "3", "n_mpls: 3 out of range" },
		{ "trial.tx_path", "\"warp\"", "trial.tx_path: not a transmit" },
		{ "trial.latency", "1", "trial.latency: not a boolean" },
		{ "start_tai_ns", "-1", "start_tai_ns" },
		{ "traffic.imix", "[1]", "imix[0]: not a frame size" },
		{ "traffic.rip.0.port", "3", "traffic.rip[0]: no port" },
		{ "traffic.rip.1.every_s", "-1", "traffic.rip[1]: no port" },
		{ "traffic.rip.0.routes.1.metric", "17", "metric: 17 out" },
		{ "traffic.rip.0.routes.0.net", "\"c613\"", "route.net: not 4" },
		{ "traffic.rip.1.routes", "{}", "traffic.routes: not an array" },
	};
	struct bm_traffic t, t2;
	struct bm_trial_spec spec, back;
	struct bm_error err;
	char host[BM_PART_HOST_LEN];
	json_object *o;
	size_t i;

	traffic(&t);
	bm_trial_spec_rate(&spec, 512, 1000, 1);
	spec.traffic = &t;
	spec.host = "lab2";
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char path[128], *save = NULL, *k, *next;
		json_object *at, *enc = bm_part_spec_to_json(&spec);

		o = through_text(enc);
		json_object_put(enc);
		snprintf(path, sizeof(path), "%s", bad[i].path);
		at = o;
		k = strtok_r(path, ".", &save);
		while ((next = strtok_r(NULL, ".", &save))) {
			at = json_object_is_type(at, json_type_array) ?
			     json_object_array_get_idx(at, (size_t)atoi(k)) :
			     json_object_object_get(at, k);
			k = next;
		}
		json_object_object_add(at, k, json_tokener_parse(bad[i].value));
		err.msg[0] = 0;
		ck_assert_int_eq(bm_part_spec_from_json(o, &back, &t2, host,
							&err), -EINVAL);
		ck_assert_msg(strstr(err.msg, bad[i].msg), "%s: %s",
			      bad[i].path, err.msg);
		bm_traffic_free(&t2);
		json_object_put(o);
	}
	o = json_tokener_parse("{\"host\": \"x\"}");
	ck_assert_int_eq(bm_part_spec_from_json(o, &back, &t2, host, &err),
			 -EINVAL);
	json_object_put(o);
	bm_traffic_free(&t2);
	bm_traffic_free(&t);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("part");
	TCase *tc = tcase_create("part");

	tcase_add_test(tc, spec_round_trip);
	tcase_add_test(tc, result_round_trip);
	tcase_add_test(tc, refusals);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tj_run_suite(suite());
}

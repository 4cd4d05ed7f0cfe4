// SPDX-License-Identifier: GPL-2.0
/* See sim_assert.h. */
#include <stdio.h>
#include <string.h>

#include <check.h>
#include <json-c/json.h>

#include "bm_sim.h"
#include "bm_traffic.h"
#include "sim_assert.h"

void sim_json_rejects(const char *js, const char *needle)
{
	struct bm_error err = { "" };
	json_object *o = json_tokener_parse(js);
	struct bm_backend *be;

	ck_assert_ptr_nonnull(o);
	be = bm_sim_new_json(o, &err);
	ck_assert_msg(be == NULL, "accepted %s", js);
	ck_assert_msg(strstr(err.msg, needle), "'%s' lacks '%s'", err.msg,
		      needle);
	json_object_put(o);
}

struct bm_traffic_result *sim_check_traffic(struct bm_backend *be,
					  const struct bm_traffic *t,
					  uint32_t frame_size, double d,
					  struct bm_trial_result *r)
{
	struct bm_traffic_result *tr = bm_traffic_result_new(t);
	struct bm_error err = { "" };
	struct bm_trial_spec s;

	ck_assert_ptr_nonnull(tr);
	memset(&s, 0, sizeof(s));
	s.frame_size = frame_size;
	s.duration_s = d;
	s.latency = true;
	s.drain_s = -1;
	s.learning_pause_s = -1;
	s.traffic = t;
	s.traffic_res = tr;
	ck_assert_msg(bm_run_trial(be, &s, r, &err) == 0, "trial: %s",
		      err.msg);
	return tr;
}

void sim_check_ports(struct bm_traffic *t, unsigned int n, double rate)
{
	struct bm_error err = { "" };
	char name[16];
	unsigned int i;

	bm_traffic_init(t);
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "p%u", i);
		ck_assert_msg(bm_traffic_add_port(t, name, rate, &err) ==
			      (int)i, "add_port: %s", err.msg);
	}
}

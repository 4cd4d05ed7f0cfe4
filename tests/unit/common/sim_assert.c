// SPDX-License-Identifier: GPL-2.0
/* See sim_assert.h. */
#include <string.h>

#include <check.h>
#include <json-c/json.h>

#include "bm_sim.h"
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

// SPDX-License-Identifier: GPL-2.0
/* Helpers of the RFC 2544 unit tests (rfc2544_check.h). */
#include <errno.h>
#include <string.h>

#include <check.h>

#include "check_util.h"
#include "keep_result.h"
#include "rfc2544_check.h"

json_object *r2544_check_run(enum rfc2544_test t, struct bm_backend *be,
			     const struct rfc2544_params *p)
{
	struct bm_error err = { "" };
	json_object *doc = NULL;
	int ret = rfc2544_run(t, be, p, NULL, NULL, &doc, &err);

	ck_assert_msg(ret == 0, "%s: %s", rfc2544_name(t), err.msg);
	ck_assert_ptr_nonnull(doc);
	bm_test_keep_result(doc, rfc2544_name(t));
	return doc;
}

json_object *r2544_check_entry(json_object *doc, size_t i)
{
	json_object *a = tj_get(tj_get(doc, "results"), "per_size");

	ck_assert_uint_gt(json_object_array_length(a), i);
	return json_object_array_get_idx(a, i);
}

void r2544_check_refused(const struct r2544_refusal *bad, size_t n)
{
	struct rfc2544_params p;
	struct bm_error err;
	json_object *o;
	size_t i;

	for (i = 0; i < n; i++) {
		rfc2544_params_default(&p, bad[i].test);
		o = json_tokener_parse(bad[i].js);
		ck_assert_msg(o, "not JSON: %s", bad[i].js);
		err.msg[0] = '\0';
		ck_assert_int_eq(rfc2544_params_from_json(o, bad[i].test, &p,
							  &err), -EINVAL);
		ck_assert_msg(strstr(err.msg, bad[i].msg), "%s", err.msg);
		json_object_put(o);
	}
}

void r2544_check_accepted(enum rfc2544_test t, const char *js,
			  struct rfc2544_params *p)
{
	struct bm_error err = { "" };
	json_object *o = json_tokener_parse(js);

	ck_assert_msg(o, "not JSON: %s", js);
	rfc2544_params_default(p, t);
	ck_assert_msg(rfc2544_params_from_json(o, t, p, &err) == 0, "%s: %s",
		      js, err.msg);
	json_object_put(o);
}

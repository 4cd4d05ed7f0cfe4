// SPDX-License-Identifier: GPL-2.0
/* Helpers of the RFC 2544 unit tests (rfc2544_check.h). */
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

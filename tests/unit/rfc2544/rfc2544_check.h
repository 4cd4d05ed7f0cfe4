/* SPDX-License-Identifier: GPL-2.0 */
/* What the RFC 2544 unit tests share: a run that must succeed, and the
 * entries of its result. */
#ifndef RFC2544_CHECK_H
#define RFC2544_CHECK_H

#include <stddef.h>

#include <json-c/json.h>

#include "rfc2544.h"

/* Run test t on be with p; the test fails unless it succeeds.  The
 * result document (kept for the schema check), owned by the caller. */
json_object *r2544_check_run(enum rfc2544_test t, struct bm_backend *be,
			     const struct rfc2544_params *p);

/* results.per_size[i] of doc; the test fails when there is none. */
json_object *r2544_check_entry(json_object *doc, size_t i);

#endif /* RFC2544_CHECK_H */

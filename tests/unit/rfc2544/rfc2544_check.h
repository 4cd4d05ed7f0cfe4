/* SPDX-License-Identifier: GPL-2.0 */
/* What the RFC 2544 unit tests share: a run that must succeed, the
 * entries of its result, and parameter sets accepted or refused. */
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

/* A parameter set that test t refuses, and the words the refusal must
 * have. */
struct r2544_refusal {
	int test;
	const char *js, *msg;
};

/* Each of bad[0..n) is refused (-EINVAL) with its words. */
void r2544_check_refused(const struct r2544_refusal *bad, size_t n);

/* p = test t's defaults overlaid with the JSON object js; the test fails
 * unless js is accepted. */
void r2544_check_accepted(enum rfc2544_test t, const char *js,
			  struct rfc2544_params *p);

#endif /* RFC2544_CHECK_H */

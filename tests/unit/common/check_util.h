/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the procedure unit tests share: a simulated backend with named
 * ports, JSON lookups that fail the test when a key is missing, and the
 * Check runner's main.
 */
#ifndef CHECK_UTIL_H
#define CHECK_UTIL_H

#include <check.h>
#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

#include "bm_sim.h"

/* A simulated backend from p with n ports named PREFIX1 .. PREFIXn (a
 * Check assertion: fails the test when the sim refuses p). */
struct bm_backend *sim_ports_new(const struct bm_sim_params *p, unsigned int n,
				 const char *prefix);

/* o[key], failing the test when there is none. */
json_object *tj_get(json_object *o, const char *key);

/* Does a deviation line of result doc contain needle? */
bool tj_has_deviation(json_object *doc, const char *needle);

/* o[key] as a double, failing the test when there is none. */
double tj_num(json_object *o, const char *key);

/* Is s[0..n) well-formed UTF-8 (RFC 3629)?  Written apart from libbm's
 * check (decode, then refuse overlong, surrogate and > U+10FFFF), so that
 * the protocol tests do not test libbm against itself. */
bool tj_utf8_valid(const char *s, size_t n);

/* Run every test of s (Check's normal output); the process exit code. */
int tj_run_suite(Suite *s);

#endif /* CHECK_UTIL_H */

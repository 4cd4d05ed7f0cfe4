/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the RFC 8239 procedures share inside user/lib/rfc8239: the keys,
 * defaults and JSON of struct r8239_common, and the N-port traffic over a
 * backend's ports.
 */
#ifndef RFC8239_INT_H
#define RFC8239_INT_H

#include "bm_traffic.h"
#include "rfc8239.h"

#define R8239_MAX_REPEAT	100

/* The key rows of struct r8239_common in a parameter table; OFF is the
 * table's offsetof macro, what names one repetition ("iteration"). */
#define R8239_COMMON_KEYS(OFF, what) \
	{ { "repeat", BM_J_UINT, OFF(c.repeat), 1, R8239_MAX_REPEAT, 0, 0, \
	    NULL, NULL }, "", "repetitions of each " what \
	  " (REQ-8239-1) [PROPOSED 5]", NULL }, \
	{ { "drain_s", BM_J_DOUBLE, OFF(c.drain_s), 0, 60, 0, 0, NULL, \
	    NULL }, "s", "wait after each trial for the DUT to empty " \
	  "(PLAT-TRIAL)", NULL }, \
	{ { "learning", BM_J_BOOL, OFF(c.learning), 0, 0, 0, 0, NULL, NULL }, \
	  "", "learning frames before each " what " (RFC 2544 §23b)", \
	  NULL }, \
	{ { "learning_pause_s", BM_J_DOUBLE, OFF(c.learning_pause_s), 0, 60, \
	    BM_JK_DERIVED, 0, NULL, NULL }, "s", "wait after the learning " \
	  "frames (unset: the backend's, 2 s)", NULL }

/* Fill *c with the defaults: repeat 5, drain 2 s, learning, pause unset. */
void r8239_common_defaults(struct r8239_common *c);

/* Add c's keys to the JSON object o (learning_pause_s unset: null). */
void r8239_common_json(json_object *o, const struct r8239_common *c);

/* Fill *spec for an N-port trial of t (results into r) of duration_s at
 * frame size f, with c's drain and, when learn, c's learning. */
void r8239_trial_spec(struct bm_trial_spec *spec, const struct r8239_common *c,
		      uint32_t f, double duration_s, bool learn,
		      const struct bm_traffic *t, struct bm_traffic_result *r);

/* Zero *t and add the backend's ports in order, each at its line rate;
 * 0, or -EINVAL with err set (no ports, a bad name). */
int r8239_traffic_ports(struct bm_traffic *t, const struct bm_backend *be,
			struct bm_error *err);

/* Append to dev one line per repeatability block in res whose RSD is
 * 10 % or more (RFC 8239 §1.2 SHOULD be below), naming where it is. */
void r8239_flag_rsd(json_object *res, json_object *dev);

#endif /* RFC8239_INT_H */

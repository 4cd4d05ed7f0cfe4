/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One host's part of a pool's trial on the wire (the bmgen.part
 * procedure, between the bmd of the host that runs the job and the bmd
 * of another host in its pool): the trial asked for, and what the part
 * measured, both without loss (a double as its 17 digits, NaN as null).
 * A pool runs one version on every host (bmctl pool), so the encoding is
 * this version's structs, field by field, and the decoder takes nothing
 * else: an unknown, missing or mistyped field, a string or array too
 * long, is refused by name.
 */
#ifndef BM_PART_H
#define BM_PART_H

#include <json-c/json.h>

#include "bm_traffic.h"

/* The longest host name a part carries (bm_port_spec.host). */
#define BM_PART_HOST_LEN	64

/*
 * spec (its traffic set, no routing updates, no management queries
 * from a port of its host: they are never carried; its host and start
 * instant) as JSON: {"host", "start_tai_ns", "trial": {...}, "traffic":
 * {...}}.  NULL when out of memory or spec has none of that.
 */
json_object *bm_part_spec_to_json(const struct bm_trial_spec *spec);

/*
 * The part o asks for: *spec its trial (traffic = t, host = host, a
 * buffer of BM_PART_HOST_LEN), *t its traffic (initialised here;
 * bm_traffic_free() it either way).  0, or -EINVAL with the field named
 * in err.  The traffic is not checked beyond its shape:
 * bm_traffic_check() it.
 */
int bm_part_spec_from_json(json_object *o, struct bm_trial_spec *spec,
			   struct bm_traffic *t, char *host,
			   struct bm_error *err);

/* What a part measured, res and tr, as JSON: {"trial": {...},
 * "streams": [...], "ports": [...]}.  NULL when out of memory. */
json_object *bm_part_result_to_json(const struct bm_trial_result *res,
				    const struct bm_traffic_result *tr);

/*
 * The part's results o into res and tr (tr from bm_traffic_result_new()
 * of the part's traffic: as many streams and ports as o must have).  0,
 * or -EINVAL with the field named in err (res and tr then partly
 * filled), -ENOMEM.
 */
int bm_part_result_from_json(json_object *o, struct bm_trial_result *res,
			     struct bm_traffic_result *tr,
			     struct bm_error *err);

#endif /* BM_PART_H */

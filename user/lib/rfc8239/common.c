// SPDX-License-Identifier: GPL-2.0
/*
 * The parts every RFC 8239 procedure shares (rfc8239_int.h).
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "bm_json.h"
#include "rfc8239_int.h"

void r8239_common_defaults(struct r8239_common *c)
{
	c->repeat = 5;			/* [PROPOSED] REQ-8239-1 */
	c->drain_s = 2.0;		/* PLAT-TRIAL */
	c->learning = true;
	c->learning_pause_s = -1.0;
}

void r8239_common_json(json_object *o, const struct r8239_common *c)
{
	bm_json_add_u64(o, "repeat", c->repeat);
	bm_json_add_double(o, "drain_s", c->drain_s);
	bm_json_add_bool(o, "learning", c->learning);
	bm_json_add_double(o, "learning_pause_s", c->learning_pause_s >= 0.0 ?
			   c->learning_pause_s : NAN);
}

void r8239_trial_spec(struct bm_trial_spec *spec, const struct r8239_common *c,
		      uint32_t f, double duration_s, bool learn,
		      const struct bm_traffic *t, struct bm_traffic_result *r)
{
	memset(spec, 0, sizeof(*spec));
	spec->frame_size = f;
	spec->duration_s = duration_s;
	spec->drain_s = c->drain_s;
	spec->learning = c->learning && learn;
	spec->learning_pause_s = c->learning_pause_s;
	spec->traffic = t;
	spec->traffic_res = r;
}

int r8239_traffic_ports(struct bm_traffic *t, const struct bm_backend *be,
			struct bm_error *err)
{
	unsigned int i;

	bm_traffic_init(t);
	for (i = 0; i < be->n_ports; i++)
		if (bm_traffic_add_port(t, be->port_names[i],
					be->line_rate_bps, err) < 0)
			return -EINVAL;
	return 0;
}

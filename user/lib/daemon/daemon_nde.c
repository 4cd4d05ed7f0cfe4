// SPDX-License-Identifier: GPL-2.0
/*
 * bmd: the network delay emulator's gate (REQ-TM-2, TM-CAP-SF).  A stateful
 * RFC 7640 test starts only after the newest rfc7640.nde-verify on its two
 * ports passed and verified the RTT it states, or with force; its result
 * then says which verification let it run (meta.nde).  The decision is
 * tm_nde_gate()'s; bmd only finds the verification: the jobs it knows,
 * newest first, finished with a stored result on the same two ports
 * (either order: the RTT is the same) and of the same kind, dry run or
 * real.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bm_json.h"
#include "bm_procedure.h"
#include "bm_store.h"
#include "daemon_int.h"
#include "rfc7640.h"

#define NDE_VERIFY	"rfc7640.nde-verify"

/* Are job k's first two ports job j's ports a and b, in either order? */
static bool same_pair(const struct bmd_job *k, const struct bmd_job *j,
		      unsigned int a, unsigned int b)
{
	return k->n_ports >= 2 &&
	       ((!strcmp(k->ports[0], j->ports[a]) &&
		 !strcmp(k->ports[1], j->ports[b])) ||
		(!strcmp(k->ports[0], j->ports[b]) &&
		 !strcmp(k->ports[1], j->ports[a])));
}

/* The newest finished nde-verify with a result on j's ports a and b; 0:
 * none.  Call with d->lock held. */
static unsigned long newest_verify(struct bmd *d, const struct bmd_job *j,
				   unsigned int a, unsigned int b)
{
	const struct bmd_job *k;
	unsigned long id = 0;

	for (k = d->jobs; k; k = k->next)
		if (k != j && k->id < j->id && job_finished(k) &&
		    k->has_result && k->dry_run == j->dry_run &&
		    !strcmp(k->procedure, NDE_VERIFY) &&
		    same_pair(k, j, a, b))
			id = k->id;	/* the list is in id order */
	return id;
}

/* The gate of one path, ports a -> b of job j. */
static int gate_pair(struct bmd *d, const struct bmd_job *j, unsigned int a,
		     unsigned int b, double rtt, bool force, json_object **nde,
		     json_object *dev, struct bm_error *err)
{
	json_object *verify = NULL;
	char path[PATH_MAX];
	unsigned long id;
	int ret, code;

	pthread_mutex_lock(&d->lock);
	id = newest_verify(d, j, a, b);
	pthread_mutex_unlock(&d->lock);
	if (id) {
		struct bm_error e2 = { "" };

		snprintf(path, sizeof(path), "%s/%lu.json", d->results_dir,
			 id);
		/* a result that cannot be read verifies nothing */
		verify = bm_read_json(path, &code, &e2);
	}
	ret = tm_nde_gate(verify, id, rtt, force, nde, dev, err);
	json_object_put(verify);
	return ret;
}

#define NDE_MAX_PAIRS	64

int bmd_nde_gate(struct bmd *d, const struct bmd_job *j, json_object *params,
		 json_object **nde, json_object *dev, struct bm_error *err)
{
	const struct bm_procedure_info *pi = bm_procedure_find(j->procedure,
							       NULL);
	unsigned int pairs[NDE_MAX_PAIRS][2], n, i;
	json_object *v, *o, *all = NULL;
	bool force = false, forced = false;
	double rtt = NAN;
	char why[sizeof(err->msg)];
	int ret = 0;

	*nde = NULL;
	n = pi && pi->nde_pairs ? pi->nde_pairs(pi, params, j->n_ports, pairs,
						 NDE_MAX_PAIRS) : 0;
	if (!n)
		return 0;
	if (json_object_object_get_ex(params, "force", &v))
		force = json_object_get_boolean(v);
	if (json_object_object_get_ex(params, "nde_rtt_ms", &v))
		bm_json_number(v, &rtt);
	/* one path: meta.nde is its record; several: each under pairs */
	if (n > 1)
		all = json_object_new_array();
	for (i = 0; i < n && !ret; i++) {
		ret = gate_pair(d, j, pairs[i][0], pairs[i][1], rtt, force, &o,
				dev, err);
		if (ret && n > 1) {
			memcpy(why, err->msg, sizeof(why));
			bm_errorf(err, "%s -> %s: %s", j->ports[pairs[i][0]],
				  j->ports[pairs[i][1]], why);
		}
		if (ret)
			break;
		forced |= json_object_get_boolean(json_object_object_get(o,
								"forced"));
		if (n == 1) {
			*nde = o;
			break;
		}
		v = json_object_new_array();
		json_object_array_add(v, json_object_new_string(
			j->ports[pairs[i][0]]));
		json_object_array_add(v, json_object_new_string(
			j->ports[pairs[i][1]]));
		json_object_object_add(o, "ports", v);
		json_object_array_add(all, o);
	}
	if (ret || n == 1) {
		json_object_put(all);
		return ret;
	}
	*nde = json_object_new_object();
	json_object_object_add(*nde, "forced",
			       json_object_new_boolean(forced));
	json_object_object_add(*nde, "pairs", all);
	return 0;
}

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

static bool same_pair(const struct bmd_job *a, const struct bmd_job *b)
{
	return a->n_ports >= 2 && b->n_ports >= 2 &&
	       ((!strcmp(a->ports[0], b->ports[0]) &&
		 !strcmp(a->ports[1], b->ports[1])) ||
		(!strcmp(a->ports[0], b->ports[1]) &&
		 !strcmp(a->ports[1], b->ports[0])));
}

/* The newest finished nde-verify with a result on j's ports; 0: none.
 * Call with d->lock held. */
static unsigned long newest_verify(struct bmd *d, const struct bmd_job *j)
{
	const struct bmd_job *k;
	unsigned long id = 0;

	for (k = d->jobs; k; k = k->next)
		if (k != j && k->id < j->id && job_finished(k) &&
		    k->has_result && k->dry_run == j->dry_run &&
		    !strcmp(k->procedure, NDE_VERIFY) && same_pair(k, j))
			id = k->id;	/* the list is in id order */
	return id;
}

int bmd_nde_gate(struct bmd *d, const struct bmd_job *j, json_object *params,
		 json_object **nde, json_object *dev, struct bm_error *err)
{
	const struct bm_procedure_info *pi = bm_procedure_find(j->procedure,
							       NULL);
	json_object *verify = NULL, *v;
	char path[PATH_MAX];
	unsigned long id;
	double rtt = NAN;
	bool force = false;
	int ret, code;

	*nde = NULL;
	if (!pi || !pi->nde_gate)
		return 0;
	pthread_mutex_lock(&d->lock);
	id = newest_verify(d, j);
	pthread_mutex_unlock(&d->lock);
	if (id) {
		struct bm_error e2 = { "" };

		snprintf(path, sizeof(path), "%s/%lu.json", d->results_dir,
			 id);
		/* a result that cannot be read verifies nothing */
		verify = bm_read_json(path, &code, &e2);
	}
	if (json_object_object_get_ex(params, "force", &v))
		force = json_object_get_boolean(v);
	if (json_object_object_get_ex(params, "nde_rtt_ms", &v))
		bm_json_number(v, &rtt);
	ret = tm_nde_gate(verify, id, rtt, force, nde, dev, err);
	json_object_put(verify);
	return ret;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Every parameter parser behind a submit: the input is a first line
 * "NAME [LINE_RATE_BPS]" and then a JSON object, the parameters as bmd
 * receives them.  NAME is a procedure of the registry (its validate hook:
 * bm_json_parse_params over its key table and the family's own checks,
 * then the reset and dry-run checks bmd makes) or "sim", the simulated
 * DUT's parameters of a dry run (bm_sim_params_from_json and _check).
 * The line rate defaults to 10 Gbit/s and is kept in bmd's range.
 *
 * Invariants: a refusal says why in one line; parameters one procedure
 * accepts are accepted again once written out as JSON and read back
 * (what bmd stores in a job file is what a restarted bmd reads).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bm_procedure.h"
#include "bm_proto.h"
#include "bm_sim.h"
#include "util.h"

static void fuzz_sim(json_object *params)
{
	struct bm_error err = { "" };
	struct bm_sim_params p;
	struct bm_backend *be;

	bm_sim_params_default(&p);
	if (bm_sim_params_from_json(params, &p, &err) ||
	    bm_sim_params_check(&p, &err)) {
		fuzz_one_line(err.msg, "sim refusal");
		return;
	}
	be = bm_sim_new(&p, &err);
	if (!be)
		fuzz_fail("bm_sim_new refused checked parameters: %s", err.msg);
	be->ops->destroy(be);
}

static void fuzz_procedure(const char *name, json_object *params,
			   double rate)
{
	struct bm_error err = { "" };
	const char *text;
	json_object *again;

	if (bm_procedure_validate(name, params, rate, &err)) {
		fuzz_one_line(err.msg, "parameter refusal");
		return;
	}
	bm_procedure_reset_name(name, params);
	if (bm_procedure_check_dry_run(name, params, &err))
		fuzz_one_line(err.msg, "dry-run refusal");
	text = json_object_to_json_string_ext(params, JSON_C_TO_STRING_PLAIN);
	again = json_tokener_parse(text);
	if (!again)
		fuzz_fail("%s: accepted parameters do not read back: %s", name,
			  text);
	if (bm_procedure_validate(name, again, rate, &err))
		fuzz_fail("%s: accepted %s, refused it read back: %s", name,
			  text, err.msg);
	json_object_put(again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data, *nl;
	struct json_tokener *tok;
	json_object *params;
	char head[128], *sp;
	double rate = 1e10;

	/* bmd refuses a request that is not UTF-8 before anything else */
	if (bm_utf8_check(s, size) < size || memchr(s, '\0', size))
		return 0;
	nl = memchr(s, '\n', size);
	if (!nl || (size_t)(nl - s) >= sizeof(head))
		return 0;
	memcpy(head, s, nl - s);
	head[nl - s] = '\0';
	sp = strchr(head, ' ');
	if (sp) {
		*sp++ = '\0';
		rate = strtod(sp, NULL);
		/* bmd's range (protocol: ports.line_rate_bps) */
		if (!(rate > 0 && rate <= 1e13))
			rate = 1e10;
	}
	tok = json_tokener_new();
	if (!tok)
		fuzz_fail("out of memory");
	params = json_tokener_parse_ex(tok, nl + 1, (int)(size - (nl + 1 - s)));
	json_tokener_free(tok);
	/* the protocol's "params" and "sim" are objects */
	if (json_object_is_type(params, json_type_object)) {
		if (!strcmp(head, "sim"))
			fuzz_sim(params);
		else
			fuzz_procedure(head, params, rate);
	}
	json_object_put(params);
	return 0;
}

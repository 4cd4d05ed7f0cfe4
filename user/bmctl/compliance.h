/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Does a result carry what its standard requires it to report (SPEC
 * REQ-REP-2)?  The items are the result schema's: its root "allOf" holds
 * one { "if": procedure id, "then": items } entry per procedure, and this
 * reads them from the schema, so the schema stays the one list.
 */
#ifndef BMCTL_COMPLIANCE_H
#define BMCTL_COMPLIANCE_H

#include <stdbool.h>
#include <stdio.h>

#include <json-c/json.h>

struct compliance {
	unsigned int items;	/* required members looked at */
	unsigned int missing;	/* absent, or null with nothing said why */
	unsigned int excused;	/* null where the entry says why (not ok) */
	unsigned int not_applicable;	/* items the schema says cannot apply */
	bool known;		/* the schema lists items for the procedure */
	const char *error;	/* a failed job's "error" (doc's): partial */
};

/* Check DOC against the report items SCHEMA lists for DOC's procedure:
 * for each missing item, a "NAME: MISSING path — reference" line to OUT
 * and a "path — reference" string into the array MISSING; for each item
 * that cannot apply, "NAME: N/A item — ref: why" and the text into NA
 * (any of the three NULL: none; none for a failed job's result,
 * c->error).  Never fails: an unknown procedure leaves c->known false. */
void compliance_check(json_object *schema, json_object *doc,
		      const char *name, FILE *out, json_object *missing,
		      json_object *na, struct compliance *c);

/* The report items SCHEMA lists for procedure ID ("then" of its allOf
 * entry), or NULL. */
json_object *compliance_items(json_object *schema, const char *id);

/* The result schema bmctl was built with, parsed once; NULL if it does not
 * parse (never, for a built bmctl). */
json_object *compliance_schema(void);

#endif /* BMCTL_COMPLIANCE_H */

// SPDX-License-Identifier: GPL-2.0
/* The result schema built into bmctl (schema.S), parsed on first use. */
#include "compliance.h"

extern const char bmctl_schema_json[];

json_object *compliance_schema(void)
{
	static json_object *schema;

	if (!schema)
		schema = json_tokener_parse(bmctl_schema_json);
	return schema;
}

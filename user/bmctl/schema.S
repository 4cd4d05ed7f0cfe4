/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The result schema bmctl was built with, NUL-terminated, for
 * bmctl report --check (SPEC REQ-REP-2): checked against the schema of
 * its own version, with no file to find or to fall out of step.
 */
	.section .rodata
	.globl	bmctl_schema_json
	.type	bmctl_schema_json, @object
bmctl_schema_json:
	.incbin	"Documentation/result.schema.json"
	.byte	0
	.size	bmctl_schema_json, . - bmctl_schema_json
	.section .note.GNU-stack, "", @progbits

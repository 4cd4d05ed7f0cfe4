// SPDX-License-Identifier: GPL-2.0
/*
 * RFC 2544 §11.2's GetResponse parser (bm_snmp.h): the input is one UDP
 * payload as it arrives from the DUT's agent, untrusted, parsed and then
 * verified against the five-variable query.
 *
 * Invariants: a refusal says why in one line; what is accepted stays in
 * its bounds (at most 8 varbinds of at most 32 sub-identifiers, a
 * NUL-terminated community); verifying it never crashes and refuses
 * with a reason.
 */
#include <string.h>

#include "bm_snmp.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bm_snmp_oid oids[BM_SNMP_C243_VARS];
	struct bm_snmp_response r;
	char why[80] = "";
	unsigned int k;

	if (bm_snmp_parse_response(data, size, &r, why, sizeof(why))) {
		if (!why[0] || strchr(why, '\n'))
			fuzz_fail("snmp: refusal without a one-line reason");
		return 0;
	}
	if (r.n_vb > BM_SNMP_MAX_VARBINDS ||
	    strnlen(r.community, sizeof(r.community)) >= sizeof(r.community))
		fuzz_fail("snmp: %u varbinds, or an unterminated community",
			  r.n_vb);
	for (k = 0; k < r.n_vb; k++)
		if (r.vb[k].oid.n < 2 || r.vb[k].oid.n > BM_SNMP_MAX_SUBIDS)
			fuzz_fail("snmp: varbind %u of %u sub-identifiers", k,
				  r.vb[k].oid.n);
	bm_snmp_c243_oids(1, oids);
	why[0] = 0;
	if (bm_snmp_verify(&r, "public", r.request_id, oids, BM_SNMP_C243_VARS,
			   why, sizeof(why)) && !why[0])
		fuzz_fail("snmp: verification refused without a reason");
	return 0;
}

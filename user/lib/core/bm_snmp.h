/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The management query frames of RFC 2544 §11.2 (R2544-MOD, C.2.4.3,
 * AMB-24): an SNMPv1 GetRequest for sysUpTime and four counters of one
 * interface, and the checks of the GetResponse the DUT's agent sends
 * back.  Only the bytes: no socket here (backends/mgmt.c sends them).
 *
 * Why our own BER and not net-snmp's library: the query is five fixed
 * OIDs, built once per trial and sent at set instants from a thread of
 * our own, and the answer is untrusted input whose every byte we check
 * (a fuzzer runs this parser); libnetsnmp would bring a MIB loader, its
 * own session and timer model and 2 MB of libraries for 200 lines.
 */
#ifndef BM_SNMP_H
#define BM_SNMP_H

#include <stddef.h>
#include <stdint.h>

#define BM_SNMP_MAX_SUBIDS	32
#define BM_SNMP_MAX_VARBINDS	8
#define BM_SNMP_C243_VARS	5	/* RFC 2544 C.2.4.3's five variables */
#define BM_SNMP_MAX_MSG		484	/* RFC 1157 §4: every agent takes it */

/* ASN.1 / SNMP tags of the values checked. */
enum {
	BM_SNMP_INTEGER = 0x02,
	BM_SNMP_OCTETS = 0x04,
	BM_SNMP_NULL = 0x05,
	BM_SNMP_OID = 0x06,
	BM_SNMP_SEQUENCE = 0x30,
	BM_SNMP_COUNTER32 = 0x41,
	BM_SNMP_GAUGE32 = 0x42,
	BM_SNMP_TIMETICKS = 0x43,
	BM_SNMP_COUNTER64 = 0x46,
	BM_SNMP_GET_REQUEST = 0xa0,
	BM_SNMP_GET_RESPONSE = 0xa2,
};

struct bm_snmp_oid {
	uint32_t sub[BM_SNMP_MAX_SUBIDS];
	unsigned int n;
};

struct bm_snmp_varbind {
	struct bm_snmp_oid oid;
	uint8_t tag;			/* the value's tag */
	uint64_t value;			/* integer-like values up to 64 bits */
};

/* A GetResponse as parsed: every field, checked or not. */
struct bm_snmp_response {
	int32_t version;		/* 0 = SNMPv1 */
	char community[64];
	int32_t request_id;
	int32_t error_status, error_index;
	struct bm_snmp_varbind vb[BM_SNMP_MAX_VARBINDS];
	unsigned int n_vb;
};

/* RFC 2544 C.2.4.3's variables for interface ifindex, in this order:
 * sysUpTime.0, ifInOctets, ifOutOctets, ifInUcastPkts, ifOutUcastPkts. */
void bm_snmp_c243_oids(uint32_t ifindex,
		       struct bm_snmp_oid oids[BM_SNMP_C243_VARS]);

/* Encode an SNMPv1 GetRequest for oids[0..n) into buf (len bytes); its
 * length, or 0 when it does not fit or an OID cannot be encoded. */
size_t bm_snmp_get_request(uint8_t *buf, size_t len, const char *community,
			   int32_t request_id, const struct bm_snmp_oid *oids,
			   unsigned int n);

/* Parse a GetResponse; 0, or -EINVAL with why (len bytes) saying what
 * is malformed.  Never reads outside buf[0..n). */
int bm_snmp_parse_response(const uint8_t *buf, size_t n,
			   struct bm_snmp_response *r, char *why, size_t len);

/*
 * §11.2's "SHOULD be verified": r answers request request_id for oids
 * [0..n) of community: the same version and community, error-status 0,
 * the same OIDs in order, sysUpTime a TimeTicks and the counters
 * Counter32 or Counter64.  0, or -EINVAL with why (len bytes).
 */
int bm_snmp_verify(const struct bm_snmp_response *r, const char *community,
		   int32_t request_id, const struct bm_snmp_oid *oids,
		   unsigned int n, char *why, size_t len);

#endif /* BM_SNMP_H */

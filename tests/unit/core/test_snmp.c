// SPDX-License-Identifier: GPL-2.0
/*
 * RFC 2544 §11.2's management query (R2544-MOD, C.2.4.3, AMB-24): the
 * GetRequest byte for byte against RFC 1157's encoding worked by hand,
 * GetResponses parsed and verified, and what a malformed or wrong answer
 * is refused with.
 */
#include <check.h>
#include <errno.h>
#include <string.h>

#include "check_util.h"
#include "bm_snmp.h"

/* GetRequest, community "public", request-id 1, sysUpTime.0 only:
 * SEQUENCE { INTEGER 0, OCTET STRING "public", [A0] { INTEGER 1,
 * INTEGER 0, INTEGER 0, SEQUENCE { SEQUENCE { OID 1.3.6.1.2.1.1.3.0,
 * NULL } } } } */
static const uint8_t golden[] = {
	0x30, 0x26, 0x02, 0x01, 0x00, 0x04, 0x06, 'p', 'u', 'b', 'l', 'i',
	'c', 0xa0, 0x19, 0x02, 0x01, 0x01, 0x02, 0x01, 0x00, 0x02, 0x01,
	0x00, 0x30, 0x0e, 0x30, 0x0c, 0x06, 0x08, 0x2b, 0x06, 0x01, 0x02,
	0x01, 0x01, 0x03, 0x00, 0x05, 0x00,
};

/* The five-variable request for ifindex 1, request-id 2, encoded by hand
 * (a Python one-off) and answered by snmpd as agent_answer5 below. */
static const uint8_t golden5[] = {
	0x30, 0x66, 0x02, 0x01, 0x00, 0x04, 0x06, 0x70, 0x75, 0x62, 0x6c, 0x69,
	0x63, 0xa0, 0x59, 0x02, 0x01, 0x02, 0x02, 0x01, 0x00, 0x02, 0x01, 0x00,
	0x30, 0x4e, 0x30, 0x0c, 0x06, 0x08, 0x2b, 0x06, 0x01, 0x02, 0x01, 0x01,
	0x03, 0x00, 0x05, 0x00, 0x30, 0x0e, 0x06, 0x0a, 0x2b, 0x06, 0x01, 0x02,
	0x01, 0x02, 0x02, 0x01, 0x0a, 0x01, 0x05, 0x00, 0x30, 0x0e, 0x06, 0x0a,
	0x2b, 0x06, 0x01, 0x02, 0x01, 0x02, 0x02, 0x01, 0x10, 0x01, 0x05, 0x00,
	0x30, 0x0e, 0x06, 0x0a, 0x2b, 0x06, 0x01, 0x02, 0x01, 0x02, 0x02, 0x01,
	0x0b, 0x01, 0x05, 0x00, 0x30, 0x0e, 0x06, 0x0a, 0x2b, 0x06, 0x01, 0x02,
	0x01, 0x02, 0x02, 0x01, 0x11, 0x01, 0x05, 0x00,
};

START_TEST(test_get_request_golden)
{
	struct bm_snmp_oid oids[BM_SNMP_C243_VARS];
	uint8_t buf[BM_SNMP_MAX_MSG];
	size_t n;

	bm_snmp_c243_oids(7, oids);
	n = bm_snmp_get_request(buf, sizeof(buf), "public", 1, oids, 1);
	ck_assert_uint_eq(n, sizeof(golden));
	ck_assert_mem_eq(buf, golden, n);
	/* the five variables: ifInOctets.7 is 1.3.6.1.2.1.2.2.1.10.7 */
	ck_assert_uint_eq(oids[1].n, 11);
	ck_assert_uint_eq(oids[1].sub[9], 10);
	ck_assert_uint_eq(oids[1].sub[10], 7);
	ck_assert_uint_eq(oids[4].sub[9], 17);
	bm_snmp_c243_oids(1, oids);
	n = bm_snmp_get_request(buf, sizeof(buf), "public", 2, oids, 5);
	ck_assert_uint_eq(n, sizeof(golden5));
	ck_assert_mem_eq(buf, golden5, n);
	n = bm_snmp_get_request(buf, sizeof(buf), "public", 70000, oids, 5);
	ck_assert_uint_gt(n, 100);
	/* request-id 70000 = 0x011170: three bytes */
	ck_assert_mem_eq(buf + 15, "\x02\x03\x01\x11\x70", 5);
	/* too small a buffer: 0, nothing written past it */
	ck_assert_uint_eq(bm_snmp_get_request(buf, 20, "public", 1, oids, 5),
			  0);
}
END_TEST

/* Our request for the five OIDs of ifindex 7 with the PDU tag of a
 * GetResponse (values NULL) and error-status as given. */
static size_t response(uint8_t *out, int32_t id, int error_status)
{
	struct bm_snmp_oid oids[BM_SNMP_C243_VARS];
	uint8_t req[BM_SNMP_MAX_MSG];
	size_t n, i;

	bm_snmp_c243_oids(7, oids);
	n = bm_snmp_get_request(req, sizeof(req), "public", id, oids, 5);
	/* the same message with [A2] and each NULL replaced by a value:
	 * rebuilt by hand from the request's varbinds */
	memcpy(out, req, n);
	out[13] = BM_SNMP_GET_RESPONSE;
	if (error_status) {
		/* error-status is the second INTEGER of the PDU */
		for (i = 15; i < n; i++)
			if (out[i] == 0x02 && out[i + 1] == 0x01 && out[i + 2] == 0x00) {
				out[i + 2] = (uint8_t)error_status;
				break;
			}
		return n;
	}
	return n;
}

START_TEST(test_parse_verify)
{
	struct bm_snmp_oid oids[BM_SNMP_C243_VARS];
	struct bm_snmp_response r;
	uint8_t buf[BM_SNMP_MAX_MSG];
	char why[80];
	size_t n;

	bm_snmp_c243_oids(7, oids);
	/* a request turned response, values NULL: parsed, not verified */
	n = response(buf, 42, 0);
	ck_assert_int_eq(bm_snmp_parse_response(buf, n, &r, why, sizeof(why)), 0);
	ck_assert_int_eq(r.request_id, 42);
	ck_assert_str_eq(r.community, "public");
	ck_assert_uint_eq(r.n_vb, 5);
	ck_assert_int_eq(bm_snmp_verify(&r, "public", 42, oids, 5, why,
					sizeof(why)), -EINVAL);
	ck_assert_msg(strstr(why, "varbind 0: type 0x05, want TimeTicks"),
		      "%s", why);
	/* with values of the right types: verified */
	r.vb[0].tag = BM_SNMP_TIMETICKS;
	r.vb[1].tag = r.vb[2].tag = r.vb[3].tag = BM_SNMP_COUNTER32;
	r.vb[4].tag = BM_SNMP_COUNTER64;
	ck_assert_int_eq(bm_snmp_verify(&r, "public", 42, oids, 5, why,
					sizeof(why)), 0);
	ck_assert_int_eq(bm_snmp_verify(&r, "public", 43, oids, 5, why,
					sizeof(why)), -EINVAL);
	ck_assert_msg(strstr(why, "request-id 42, want 43"), "%s", why);
	ck_assert_int_eq(bm_snmp_verify(&r, "secret", 42, oids, 5, why,
					sizeof(why)), -EINVAL);
	ck_assert_msg(strstr(why, "community"), "%s", why);
	bm_snmp_c243_oids(8, oids);
	ck_assert_int_eq(bm_snmp_verify(&r, "public", 42, oids, 5, why,
					sizeof(why)), -EINVAL);
	ck_assert_msg(strstr(why, "varbind 1: another OID"), "%s", why);

	/* noSuchName (2): an agent without that interface */
	bm_snmp_c243_oids(7, oids);
	n = response(buf, 42, 2);
	ck_assert_int_eq(bm_snmp_parse_response(buf, n, &r, why, sizeof(why)), 0);
	ck_assert_int_eq(bm_snmp_verify(&r, "public", 42, oids, 5, why,
					sizeof(why)), -EINVAL);
	ck_assert_msg(strstr(why, "noSuchName"), "%s", why);
}
END_TEST

/* Real answers of net-snmp 5.9.3's snmpd (Debian 12, "rocommunity public"),
 * captured on the host: to the golden request above (sysUpTime.0 =
 * TimeTicks 170), and to the five variables of ifindex 1 (lo), request-id
 * 2 (ifInOctets = Counter32 13068, ifInUcastPkts 0, ifOutUcastPkts 116). */
static const uint8_t agent_answer[] = {
	0x30, 0x28, 0x02, 0x01, 0x00, 0x04, 0x06, 0x70, 0x75, 0x62, 0x6c, 0x69,
	0x63, 0xa2, 0x1b, 0x02, 0x01, 0x01, 0x02, 0x01, 0x00, 0x02, 0x01, 0x00,
	0x30, 0x10, 0x30, 0x0e, 0x06, 0x08, 0x2b, 0x06, 0x01, 0x02, 0x01, 0x01,
	0x03, 0x00, 0x43, 0x02, 0x00, 0xaa,
};

static const uint8_t agent_answer5[] = {
	0x30, 0x6e, 0x02, 0x01, 0x00, 0x04, 0x06, 0x70, 0x75, 0x62, 0x6c, 0x69,
	0x63, 0xa2, 0x61, 0x02, 0x01, 0x02, 0x02, 0x01, 0x00, 0x02, 0x01, 0x00,
	0x30, 0x56, 0x30, 0x0e, 0x06, 0x08, 0x2b, 0x06, 0x01, 0x02, 0x01, 0x01,
	0x03, 0x00, 0x43, 0x02, 0x00, 0xaa, 0x30, 0x10, 0x06, 0x0a, 0x2b, 0x06,
	0x01, 0x02, 0x01, 0x02, 0x02, 0x01, 0x0a, 0x01, 0x41, 0x02, 0x33, 0x0c,
	0x30, 0x10, 0x06, 0x0a, 0x2b, 0x06, 0x01, 0x02, 0x01, 0x02, 0x02, 0x01,
	0x10, 0x01, 0x41, 0x02, 0x33, 0x0c, 0x30, 0x0f, 0x06, 0x0a, 0x2b, 0x06,
	0x01, 0x02, 0x01, 0x02, 0x02, 0x01, 0x0b, 0x01, 0x41, 0x01, 0x00, 0x30,
	0x0f, 0x06, 0x0a, 0x2b, 0x06, 0x01, 0x02, 0x01, 0x02, 0x02, 0x01, 0x11,
	0x01, 0x41, 0x01, 0x74,
};

START_TEST(test_parse_values_and_malformed)
{
	struct bm_snmp_oid oids[BM_SNMP_C243_VARS];
	struct bm_snmp_response r;
	uint8_t buf[sizeof(agent_answer)];
	char why[80];
	size_t k;

	bm_snmp_c243_oids(1, oids);
	ck_assert_int_eq(bm_snmp_parse_response(agent_answer,
						sizeof(agent_answer), &r, why,
						sizeof(why)), 0);
	ck_assert_uint_eq(r.vb[0].tag, BM_SNMP_TIMETICKS);
	ck_assert_uint_eq(r.vb[0].value, 170);
	ck_assert_int_eq(bm_snmp_verify(&r, "public", 1, oids, 1, why,
					sizeof(why)), 0);
	ck_assert_int_eq(bm_snmp_parse_response(agent_answer5,
						sizeof(agent_answer5), &r,
						why, sizeof(why)), 0);
	ck_assert_int_eq(bm_snmp_verify(&r, "public", 2, oids, 5, why,
					sizeof(why)), 0);
	ck_assert_uint_eq(r.vb[1].value, 13068);
	ck_assert_uint_eq(r.vb[3].value, 0);
	ck_assert_uint_eq(r.vb[4].value, 116);
	/* every truncation is refused, never read past */
	for (k = 0; k < sizeof(agent_answer); k++)
		ck_assert_int_eq(bm_snmp_parse_response(agent_answer, k, &r,
							why, sizeof(why)),
				 -EINVAL);
	/* a length that points past the end */
	memcpy(buf, agent_answer, sizeof(buf));
	buf[1] = 0x7f;
	ck_assert_int_eq(bm_snmp_parse_response(buf, sizeof(buf), &r, why,
						sizeof(why)), -EINVAL);
	ck_assert_msg(strstr(why, "message: length 127 past the end"), "%s",
		      why);
	/* a GetRequest is no answer */
	memcpy(buf, agent_answer, sizeof(buf));
	buf[13] = BM_SNMP_GET_REQUEST;
	ck_assert_int_eq(bm_snmp_parse_response(buf, sizeof(buf), &r, why,
						sizeof(why)), -EINVAL);
	ck_assert_msg(strstr(why, "GetResponse-PDU: tag 0xa0"), "%s", why);
}
END_TEST

static Suite *snmp_suite(void)
{
	Suite *s = suite_create("snmp");
	TCase *tc = tcase_create("codec");

	tcase_add_test(tc, test_get_request_golden);
	tcase_add_test(tc, test_parse_verify);
	tcase_add_test(tc, test_parse_values_and_malformed);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tj_run_suite(snmp_suite());
}

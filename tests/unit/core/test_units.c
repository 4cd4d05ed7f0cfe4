// SPDX-License-Identifier: GPL-2.0
/*
 * Byte counts with units (REQ-UNIT-3, AMB-02): "64KB" is 64,000 B as in
 * the traffic-management draft's examples, KiB and MiB are binary, and
 * anything else is refused with one line; the same through a parameter
 * table's BM_J_BYTES key, as a JSON integer or a string.
 */
#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "bm_json.h"
#include "bm_units.h"
#include "check_util.h"

static uint64_t ok(const char *s)
{
	struct bm_error err = { "" };
	uint64_t v = 12345;

	ck_assert_msg(bm_bytes_parse(s, &v, &err) == 0, "%s: %s", s, err.msg);
	return v;
}

static void bad(const char *s, const char *needle)
{
	struct bm_error err = { "" };
	uint64_t v = 7;

	ck_assert_msg(bm_bytes_parse(s, &v, &err) == -EINVAL, "%s accepted", s);
	ck_assert_msg(strstr(err.msg, needle), "%s: '%s' lacks '%s'", s,
		      err.msg, needle);
	ck_assert_ptr_null(strchr(err.msg, '\n'));
	ck_assert_uint_eq(v, 7);
}

START_TEST(units)
{
	ck_assert_uint_eq(ok("64000"), 64000);
	ck_assert_uint_eq(ok("64000B"), 64000);
	ck_assert_uint_eq(ok("64KB"), 64000);
	ck_assert_uint_eq(ok("64kB"), 64000);
	ck_assert_uint_eq(ok("64 KB"), 64000);
	ck_assert_uint_eq(ok("64KiB"), 65536);
	ck_assert_uint_eq(ok("0.5KiB"), 512);
	ck_assert_uint_eq(ok("1.5KB"), 1500);
	ck_assert_uint_eq(ok("10MB"), 10000000);
	ck_assert_uint_eq(ok("10MiB"), 10485760);
	/* the SMB example: 10 MB / 64 KB = 160 blocks only in binary units */
	ck_assert_uint_eq(ok("10MiB") / ok("64KiB"), 160);
	ck_assert_uint_eq(ok("0"), 0);
	ck_assert_uint_eq(ok("1e3"), 1000);
	bad("", "expected a number");
	bad("KB", "expected a number");
	bad("-1KB", "expected a number");
	bad(" 64KB", "expected a number");
	bad("64kb", "unknown unit \"kb\"");
	bad("64 K", "unknown unit");
	bad("64KB ", "unknown unit");
	bad("0x40", "decimal");
	bad("inf", "expected a number");
	bad("1.0001KB", "not a whole number of bytes");
	bad("0.3B", "not a whole number");
	bad("2000000000MB", "more than 1 PB");
}
END_TEST

struct bp {
	uint64_t b;
};

static const struct bm_param keys[] = {
	{ { "b", BM_J_BYTES, offsetof(struct bp, b), 1, 1e6, 0, 0, NULL,
	    NULL }, "B", "bytes", NULL },
	{ { NULL, 0, 0, 0, 0, 0, 0, NULL, NULL }, NULL, NULL, NULL },
};

static int parse(const char *js, struct bp *p, struct bm_error *err)
{
	json_object *o = json_tokener_parse(js);
	int ret;

	ck_assert_ptr_nonnull(o);
	ret = bm_json_parse_params(o, keys, 0, p, "t", err);
	json_object_put(o);
	return ret;
}

START_TEST(bytes_key)
{
	struct bm_error err = { "" };
	struct bp p = { 0 };
	json_object *s;

	ck_assert_int_eq(parse("{\"b\": 64000}", &p, &err), 0);
	ck_assert_uint_eq(p.b, 64000);
	ck_assert_int_eq(parse("{\"b\": \"63KB\"}", &p, &err), 0);
	ck_assert_uint_eq(p.b, 63000);
	ck_assert_int_eq(parse("{\"b\": 1e3}", &p, &err), 0);
	ck_assert_uint_eq(p.b, 1000);
	ck_assert_int_eq(parse("{\"b\": 1.5}", &p, &err), -EINVAL);
	ck_assert_str_eq(err.msg, "t: b: expected a whole number of bytes");
	ck_assert_int_eq(parse("{\"b\": \"2MB\"}", &p, &err), -EINVAL);
	ck_assert_str_eq(err.msg, "t: b: must be in [1, 1e+06], got 2e+06");
	ck_assert_int_eq(parse("{\"b\": 0}", &p, &err), -EINVAL);
	ck_assert_int_eq(parse("{\"b\": \"64 kb\"}", &p, &err), -EINVAL);
	ck_assert_str_eq(err.msg, "t: b: unknown unit \"kb\" (B, kB, KB, KiB, "
			 "MB, MiB)");
	ck_assert_int_eq(parse("{\"b\": true}", &p, &err), -EINVAL);
	ck_assert_str_eq(err.msg, "t: b: expected bytes (a number or a string "
			 "such as \"64KB\")");
	ck_assert_uint_eq(p.b, 1000);
	ck_assert_str_eq(bm_json_param_type(&keys[0]), "bytes");
	s = bm_json_params_schema(keys, 0, NULL);
	ck_assert_str_eq(json_object_get_string(tj_get(
		json_object_array_get_idx(s, 0), "type")), "bytes");
	ck_assert_double_eq(json_object_get_double(tj_get(
		json_object_array_get_idx(s, 0), "max")), 1e6);
	json_object_put(s);
}
END_TEST

static double qty(const char *s, const char *unit)
{
	struct bm_error err = { "" };
	double v = -1;

	ck_assert_msg(bm_quantity_parse(s, unit, &v, &err) == 0, "%s (%s): %s",
		      s, unit, err.msg);
	return v;
}

static void qty_bad(const char *s, const char *unit, const char *needle)
{
	struct bm_error err = { "" };
	double v = 7;

	ck_assert_msg(bm_quantity_parse(s, unit, &v, &err) == -EINVAL,
		      "%s (%s) accepted", s, unit);
	ck_assert_msg(strstr(err.msg, needle), "%s: '%s' lacks '%s'", s,
		      err.msg, needle);
	ck_assert_ptr_null(strchr(err.msg, '\n'));
	ck_assert_double_eq(v, 7);
}

/* One grammar for rates, frame rates and times (bm_units.h): SI
 * prefixes, the unit's names, values in the table's unit; "0x10G" was
 * 16 Gbit/s through strtod. */
START_TEST(quantities)
{
	ck_assert_double_eq(qty("10G", "bit/s"), 1e10);
	ck_assert_double_eq(qty("100M", "bit/s"), 1e8);
	ck_assert_double_eq(qty("2.5Gbps", "bit/s"), 2.5e9);
	ck_assert_double_eq(qty("25 Gbit/s", "bit/s"), 2.5e10);
	ck_assert_double_eq(qty("1e10", "bit/s"), 1e10);
	ck_assert_double_eq(qty("64k", "bit/s"), 64e3);
	ck_assert_double_eq(qty("14.88M", "fps"), 14.88e6);
	ck_assert_double_eq(qty("500kfps", "fps"), 5e5);
	ck_assert_double_eq(qty("1.5ms", "s"), 1.5e-3);
	ck_assert_double_eq(qty("60", "s"), 60);
	ck_assert_double_eq(qty("2min", "s"), 120);
	ck_assert_double_eq(qty("250us", "ms"), 0.25);
	ck_assert_double_eq(qty("1.5us", "ns"), 1500);
	ck_assert_double_eq(qty("1e-3s", "s"), 1e-3);
	qty_bad("0x10G", "bit/s", "in decimal");
	qty_bad("inf", "bit/s", "expected a rate");
	qty_bad("-1G", "bit/s", "expected a rate");
	qty_bad(" 10G", "bit/s", "expected a rate");
	qty_bad("10g", "bit/s", "unknown unit \"g\"");
	qty_bad("10Gb", "bit/s", "unknown unit");
	qty_bad("10 ms", "bit/s", "unknown unit");
	qty_bad("1.5 sec", "s", "unknown unit \"sec\"");
	qty_bad("10M", "%", "expected a number");
	ck_assert(bm_unit_known("bit/s") && bm_unit_known("ns"));
	ck_assert(!bm_unit_known("%") && !bm_unit_known(NULL));
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("units");
	TCase *tc = tcase_create("units");

	tcase_add_test(tc, units);
	tcase_add_test(tc, bytes_key);
	tcase_add_test(tc, quantities);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tj_run_suite(suite());
}

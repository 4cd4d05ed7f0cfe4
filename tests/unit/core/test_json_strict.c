// SPDX-License-Identifier: GPL-2.0
/*
 * bm_json_parse_strict: JSON as RFC 8259 has it and nothing json-c would
 * also take (single quotes, comments, NaN, Infinity, "1.", trailing
 * commas, raw control characters, a name twice in one object, integers
 * json-c would silently clamp), each refused with its reason and offset;
 * every text the RFC allows parsed to the value json-c gives.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "bm_json.h"
#include "check_util.h"

static const struct {
	const char *text;
	const char *why;	/* substring of the reason */
	size_t at;
} refused[] = {
	{ "{'a':1}", "a single quote", 1 },
	{ "{\"a\":'x'}", "a single quote", 5 },
	{ "{\"a\":1 /* c */}", "a comment", 7 },
	{ "{\"a\":1 x}", "',' or '}' expected", 7 },
	{ "// c\n{\"a\":1}", "a comment", 0 },
	{ "# c\n{\"a\":1}", "a comment", 0 },
	{ "{\"a\":NaN}", "NaN, Infinity", 5 },
	{ "{\"a\":Infinity}", "NaN, Infinity", 5 },
	{ "{\"a\":-Infinity}", "a number without digits", 6 },
	{ "{\"a\":+1}", "NaN, Infinity and +", 5 },
	{ "{\"a\":1.}", "without digits after '.'", 7 },
	{ "{\"a\":.5}", "unexpected character", 5 },
	{ "{\"a\":01}", "leading zero", 6 },
	{ "{\"a\":1e}", "in its exponent", 7 },
	{ "{\"a\":1,}", "trailing comma", 7 },
	{ "[1,2,]", "trailing comma", 5 },
	{ "{\"a\":\"x\ty\"}", "a control character in a string", 7 },
	{ "{\"a\":\"\\x41\"}", "a bad escape", 6 },
	{ "{\"a\":\"\\u12G4\"}", "a bad \\u escape", 6 },
	{ "{\"a\":\"abc}", "without its closing quote", 10 },
	{ "{\"a\":1,\"a\":2}", "a name given twice in one object", 0 },
	{ "{\"a\":{\"x\":1},\"b\":[{\"y\":1,\"y\":1}]}", "given twice", 0 },
	{ "{\"a\":18446744073709551616}", "an integer beyond 64 bits", 5 },
	{ "{\"a\":9223372036854775808}", "an integer beyond 64 bits", 5 },
	{ "{\"a\":-9223372036854775809}", "an integer beyond 64 bits", 5 },
	{ "{\"a\":1} {}", "trailing data after the value", 8 },
	{ "{a:1}", "an object's name must be a string", 1 },
	{ "{\"a\" 1}", "':' expected", 5 },
	{ "tru", "unexpected character", 0 },
	{ "", "a value expected", 0 },
	{ "[[[[1]]]]", "nested too deep", 3 },
};

static const char *const accepted[] = {
	"{\"a\":1}", " { \"a\" : [ 1 , -0 , 2.5e-3 , 1E+2 , true , false , null ] } \r\n",
	"\"\\u00e9\\\"\\\\\\/\\b\\f\\n\\r\\t\"", "null", "0", "-1.5",
	"{\"a\":9223372036854775807,\"b\":-9223372036854775808}",
	"{\"a\":1e400}", "{\"\":{\"\":[]}}", "{\"a\":{\"a\":{\"a\":1}}}",
	"[]", "{}", "\"caf\xc3\xa9\"",
};

START_TEST(rfc8259_only)
{
	const char *why;
	json_object *o, *want;
	size_t at, i;

	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		o = bm_json_parse_strict(refused[i].text,
					 strlen(refused[i].text), 3, &why, &at);
		ck_assert_msg(!o && why, "accepted: %s", refused[i].text);
		ck_assert_msg(strstr(why, refused[i].why),
			      "%s: '%s', want '%s'", refused[i].text, why,
			      refused[i].why);
		ck_assert_msg(at == refused[i].at, "%s: at %zu, want %zu",
			      refused[i].text, at, refused[i].at);
	}
	for (i = 0; i < sizeof(accepted) / sizeof(accepted[0]); i++) {
		o = bm_json_parse_strict(accepted[i], strlen(accepted[i]), 3,
					 &why, &at);
		ck_assert_msg(!why, "%s: refused: %s at %zu", accepted[i], why,
			      at);
		want = json_tokener_parse(accepted[i]);
		ck_assert_msg(json_object_equal(o, want), "%s", accepted[i]);
		json_object_put(o);
		json_object_put(want);
	}
	/* a NUL anywhere, named by its offset */
	o = bm_json_parse_strict("{\"a\":\"x\0y\"}", 11, 3, &why, &at);
	ck_assert_ptr_null(o);
	ck_assert_str_eq(why, "a NUL byte");
	ck_assert_uint_eq(at, 7);
}
END_TEST

/* Random bytes of JSON's alphabet: never a crash, and whatever is
 * accepted json-c reads the same. */
START_TEST(random_texts)
{
	static const char alphabet[] = "{}[]\",:0123456789-+.eEtrufalsn \\/'ux\t";
	char text[64];
	json_object *o, *want;
	const char *why;
	size_t at, n, i;
	unsigned int k, ok = 0;

	srand(4242);
	for (k = 0; k < 200000; k++) {
		n = (size_t)rand() % sizeof(text);
		for (i = 0; i < n; i++)
			text[i] = alphabet[rand() % (sizeof(alphabet) - 1)];
		o = bm_json_parse_strict(text, n, 8, &why, &at);
		if (why) {
			ck_assert_ptr_null(o);
			ck_assert_uint_le(at, n);
			continue;
		}
		ok++;
		text[n] = '\0';
		want = json_tokener_parse(text);
		ck_assert_msg(json_object_equal(o, want), "%s", text);
		json_object_put(o);
		json_object_put(want);
	}
	ck_assert_uint_gt(ok, 10);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("json_strict");
	TCase *tc = tcase_create("json_strict");

	tcase_add_test(tc, rfc8259_only);
	tcase_add_test(tc, random_texts);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tj_run_suite(suite());
}

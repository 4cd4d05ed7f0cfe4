// SPDX-License-Identifier: GPL-2.0
/*
 * A parameter table written back as JSON (bm_json_params_to_json): every
 * row that applies to the mask, in the table's order, by its type; a
 * double not finite, or a flagged row at its unset value, is null; a
 * custom row is what the writer found by its parse gives, null without
 * one.
 */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "bm_json.h"
#include "check_util.h"

struct wp {
	double d, dz, dn;
	uint64_t u64, bytes, bz;
	unsigned int ui;
	uint32_t u32;
	int i, e;
	bool b;
	char name[8];
	uint32_t sizes[3];
	size_t n_sizes;
	double rates[2];
	size_t n_rates;
	unsigned int dscps[2];
	size_t n_dscps;
};

static const char *const colours[] = { "red", "green", NULL };

/* Never called: the writer only compares them; each is its own. */
#define PARSE(name, ret) \
static int name(json_object *v, void *base, const char *key, \
		struct bm_error *err) \
{ \
	(void)v; \
	(void)base; \
	(void)key; \
	(void)err; \
	return ret; \
}
PARSE(parse_name, 0)
PARSE(parse_sizes, 1)
PARSE(parse_rates, 2)
PARSE(parse_dscps, 3)

#define WO(f)	offsetof(struct wp, f)
#define ROW(k, t, f, fl, m) \
	{ { k, t, WO(f), 0, 1e9, fl, m, NULL, NULL }, "", "h", NULL }

static const struct bm_param keys[] = {
	ROW("i", BM_J_INT, i, 0, 0),
	ROW("d", BM_J_DOUBLE, d, 0, 0),
	ROW("dz", BM_J_DOUBLE, dz, BM_JK_ZERO_NULL, 0),
	ROW("dn", BM_J_DOUBLE, dn, BM_JK_NEG_NULL, 0),
	ROW("u64", BM_J_U64, u64, 0, 1),
	ROW("bytes", BM_J_BYTES, bytes, 0, 0),
	ROW("bz", BM_J_BYTES, bz, BM_JK_ZERO_NULL, 0),
	ROW("ui", BM_J_UINT, ui, 0, 2),
	ROW("u32", BM_J_U32, u32, 0, 0),
	{ { "e", BM_J_ENUM, WO(e), 0, 0, 0, 0, colours, NULL }, "", "h",
	  NULL },
	ROW("b", BM_J_BOOL, b, 0, 0),
	{ { "name", BM_J_CUSTOM, WO(name), 0, 0, 0, 0, NULL, parse_name },
	  "", "h", "string" },
	{ { "sizes", BM_J_CUSTOM, WO(sizes), 0, 0, 0, 0, NULL, parse_sizes },
	  "", "h", "integer array" },
	{ { "rates", BM_J_CUSTOM, WO(rates), 0, 0, BM_JK_ZERO_NULL, 0, NULL,
	    parse_rates }, "", "h", "number array" },
	{ { "dscps", BM_J_CUSTOM, WO(dscps), 0, 0, 0, 0, NULL, parse_dscps },
	  "", "h", "integer array" },
	{ { NULL, 0, 0, 0, 0, 0, 0, NULL, NULL }, NULL, NULL, NULL },
};

static const struct bm_jwriter writers[] = {
	{ parse_name, bm_json_string_at, 0 },
	{ parse_sizes, bm_json_u32s_at, WO(n_sizes) },
	{ parse_rates, bm_json_doubles_at, WO(n_rates) },
	{ parse_dscps, bm_json_uints_at, WO(n_dscps) },
	{ NULL, NULL, 0 },
};

/* keys of p for mask, as plain text */
static void written(const struct wp *p, unsigned int mask,
		    const struct bm_jwriter *w, const char *want)
{
	json_object *o = bm_json_params_to_json(keys, mask, p, w);

	ck_assert_str_eq(json_object_to_json_string_ext(o,
		JSON_C_TO_STRING_PLAIN), want);
	json_object_put(o);
}

START_TEST(every_type)
{
	struct wp p = {
		.d = 1.5, .dz = 2, .dn = 0, .u64 = UINT64_MAX, .bytes = 64000,
		.bz = 1, .ui = 7, .u32 = 9216, .i = -3, .e = 1, .b = true,
		.name = "cubic", .sizes = { 64, 1518, 9216 }, .n_sizes = 2,
		.rates = { 1e6, 0.5 }, .n_rates = 2, .dscps = { 46, 0 },
		.n_dscps = 1,
	};

	/* mask 1: u64's row, not ui's; in the table's order */
	written(&p, 1, writers, "{\"i\":-3,\"d\":1.5,\"dz\":2.0,\"dn\":0.0,"
		"\"u64\":18446744073709551615,\"bytes\":64000,\"bz\":1,"
		"\"u32\":9216,\"e\":\"green\",\"b\":true,\"name\":\"cubic\","
		"\"sizes\":[64,1518],\"rates\":[1000000.0,0.5],"
		"\"dscps\":[46]}");
	written(&p, 2, writers, "{\"i\":-3,\"d\":1.5,\"dz\":2.0,\"dn\":0.0,"
		"\"bytes\":64000,\"bz\":1,\"ui\":7,\"u32\":9216,"
		"\"e\":\"green\",\"b\":true,\"name\":\"cubic\","
		"\"sizes\":[64,1518],\"rates\":[1000000.0,0.5],"
		"\"dscps\":[46]}");
}
END_TEST

START_TEST(unset_is_null)
{
	struct wp p = { .d = NAN, .dz = 0, .dn = -1, .bz = 0, .e = 2 };

	/* an empty list is one (null only with BM_JK_ZERO_NULL); an enum
	 * beyond its names and a custom row without a writer are null too,
	 * never a guess */
	written(&p, 0, writers, "{\"i\":0,\"d\":null,\"dz\":null,"
		"\"dn\":null,\"bytes\":0,\"bz\":null,\"u32\":0,\"e\":null,"
		"\"b\":false,\"name\":\"\",\"sizes\":[],\"rates\":null,"
		"\"dscps\":[]}");
	p.d = INFINITY;
	written(&p, 0, writers + 1, "{\"i\":0,\"d\":null,\"dz\":null,"
		"\"dn\":null,\"bytes\":0,\"bz\":null,\"u32\":0,\"e\":null,"
		"\"b\":false,\"name\":null,\"sizes\":[],\"rates\":null,"
		"\"dscps\":[]}");
}
END_TEST

/*
 * A derived key whose range leaves 0 out (resolution_fps, from 1;
 * mlr_timeout_s, above 0) reads 0 while unset: that 0 is written null,
 * never as a value asked for, and null read back keeps the default; a 0
 * the range allows (slowest_link_bps: the tester's line) stays 0.
 */
START_TEST(derived_zero_is_null)
{
	static const struct bm_param dk[] = {
		{ { "from1", BM_J_DOUBLE, WO(d), 1, 1e9, BM_JK_DERIVED, 0,
		    NULL, NULL }, "fps", "h", NULL },
		{ { "above0", BM_J_U64, WO(u64), 0, 1e9,
		    BM_JK_DERIVED | BM_JK_MIN_EXCL, 0, NULL, NULL }, "", "h",
		  NULL },
		{ { "zero_ok", BM_J_DOUBLE, WO(dz), 0, 1e9, BM_JK_DERIVED, 0,
		    NULL, NULL }, "bit/s", "h", NULL },
		{ { "plain", BM_J_DOUBLE, WO(dn), 1, 1e9, 0, 0, NULL, NULL },
		  "", "h", NULL },
		{ { NULL, 0, 0, 0, 0, 0, 0, NULL, NULL }, NULL, NULL, NULL },
	};
	struct bm_jkey jk[5];
	struct bm_error err = { "" };
	struct wp p = { .d = 0, .u64 = 0, .dz = 0, .dn = 0 };
	json_object *o = bm_json_params_to_json(dk, 0, &p, NULL);
	size_t i;

	ck_assert_str_eq(json_object_to_json_string_ext(o,
		JSON_C_TO_STRING_PLAIN), "{\"from1\":null,\"above0\":null,"
		"\"zero_ok\":0.0,\"plain\":0.0}");
	json_object_put(o);
	for (i = 0; i < 5; i++)
		jk[i] = dk[i].jk;
	p.d = 7;
	p.u64 = 9;
	o = json_tokener_parse("{\"from1\": null, \"above0\": null}");
	ck_assert_int_eq(bm_json_parse_keys(o, jk, 0, &p, "t", &err), 0);
	ck_assert_double_eq(p.d, 7);
	ck_assert_uint_eq(p.u64, 9);
	json_object_put(o);
	/* null for a key with no derived default is still refused */
	o = json_tokener_parse("{\"plain\": null}");
	ck_assert_int_ne(bm_json_parse_keys(o, jk, 0, &p, "t", &err), 0);
	json_object_put(o);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("params_json");
	TCase *tc = tcase_create("params_json");

	tcase_add_test(tc, every_type);
	tcase_add_test(tc, unset_is_null);
	tcase_add_test(tc, derived_zero_is_null);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tj_run_suite(suite());
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The front block every report opens with (user/bmctl/front.c): the DUT,
 * the ports, the date, a DRY RUN banner for the simulator's numbers, and
 * the headline its procedure declares in the result schema
 * ("x-headline"), each value in a unit a person reads and never in
 * scientific notation.
 */
#include <check.h>
#include <string.h>

#include "check_util.h"
#include "front.h"

static void value(const char *json, const char *key, const char *unit,
		  const char *want)
{
	json_object *v = json_tokener_parse(json);
	char buf[128];

	front_value(v, key, unit, buf, sizeof(buf));
	ck_assert_msg(!strcmp(buf, want), "%s (%s, %s): '%s', want '%s'", json,
		      key, unit ? unit : "-", buf, want);
	json_object_put(v);
}

START_TEST(values)
{
	value("1488095.238", "throughput_fps", NULL, "1.488 Mfps");
	value("234962.4", "lower_fps", NULL, "234.962 kfps");
	value("761904761.9", "throughput_l2_bps", NULL, "761.905 Mbit/s");
	value("1e10", "line_rate_bps", NULL, "10 Gbit/s");
	value("100.0", "throughput_pct_line", NULL, "100 % of line");
	value("33.2917", "loss_pct", NULL, "33.29 %");
	/* the "6.72e-08 s" */
	value("6.72e-08", "pdv_s", NULL, "67.2 ns");
	value("0.000442624", "mean_burst_s", NULL, "442.624 \u00b5s");
	value("500000.0", "latency_ns", NULL, "500 \u00b5s");
	value("10", "delay_ms", NULL, "10 ms");
	value("0", "recovery_s", NULL, "0 s");
	value("51712.0", "buf_q", "bytes", "51712 B");
	value("128512000.0", "x_bytes", NULL, "128.512 MB");
	value("{\"n\": 3, \"mean\": 106.0, \"stddev\": 0}", "aggregate",
	      "frames", "106 frames");
	value("0.005", "target_loss_ratio", NULL, "0.005");
	value("0.0000125", "ratio", NULL, "0.000013");
	value("true", "nde_ok", NULL, "yes");
	value("null", "throughput_fps", NULL, "-");
	value("\"software\"", "reset_type", NULL, "software");
}
END_TEST

static const char *doc_text =
	"{\"schema_version\": 1,"
	" \"procedure\": {\"id\": \"rfc2544.throughput\", \"ref\": \"R2544-THRPT\"},"
	" \"results\": {\"per_size\": ["
	"  {\"frame_size\": 64, \"throughput_fps\": 1488095.238,"
	"   \"throughput_pct_line\": 100.0, \"throughput_l1_bps\": 1e9,"
	"   \"result\": \"ok\"},"
	"  {\"frame_size\": 1518, \"throughput_fps\": null,"
	"   \"throughput_pct_line\": null, \"throughput_l1_bps\": null,"
	"   \"result\": \"not measured: throughput < r_min\"}]},"
	" \"meta\": {\"bmgen_version\": \"0.1.0\", \"hostname\": \"lab1\","
	"  \"job\": 7, \"backend\": \"sim\", \"dry_run\": true,"
	"  \"timestamp_source\": \"sim\", \"line_rate_bps\": 1e10,"
	"  \"real_run\": {\"trials\": 114, \"duration_s\": 7932.4},"
	"  \"start\": \"2026-12-03T16:28:06.829Z\","
	"  \"end\": \"2026-12-03T18:42:10.100Z\","
	"  \"dut\": {\"name\": \"edge1\", \"software_version\": \"17.3\","
	"   \"configuration\": \"a\\nb\\nc\\n\"},"
	"  \"ports\": [{\"name\": \"ens1f0\", \"role\": \"tx\","
	"   \"driver\": \"ice\", \"speed_mbps\": 10000},"
	"   {\"name\": \"ens1f1\", \"role\": \"rx\", \"driver\": \"ice\","
	"   \"speed_mbps\": 10000}]}}";

static const char *item(const struct front *f, const char *key)
{
	size_t i;

	for (i = 0; i < f->n_items; i++)
		if (!strcmp(f->items[i].key, key))
			return f->items[i].value;
	return NULL;
}

START_TEST(front_block)
{
	static struct front f;
	json_object *doc = json_tokener_parse(doc_text);

	ck_assert_ptr_nonnull(doc);
	front_build(doc, &f);
	ck_assert_str_eq(f.title, "rfc2544.throughput (R2544-THRPT)");
	ck_assert(f.dry_run);
	ck_assert_str_eq(item(&f, "DUT"), "edge1, version 17.3, configuration "
			 "of 3 lines in the result");
	ck_assert_str_eq(item(&f, "ports"), "ens1f0 (tx, ice, 10 Gbit/s), "
			 "ens1f1 (rx, ice, 10 Gbit/s)");
	ck_assert_str_eq(item(&f, "line rate"), "10 Gbit/s");
	ck_assert_str_eq(item(&f, "date"),
			 "2026-12-03 16:28:06 UTC, took 2 h 14 min");
	ck_assert_str_eq(item(&f, "bmgen"),
			 "0.1.0 on lab1, backend sim, timestamps sim");
	ck_assert_str_eq(item(&f, "job"), "7");
	/* a dry run says what the real run would take */
	ck_assert_str_eq(item(&f, "real run"), "114 trials, about 2 h 12 min "
			 "on a DUT that behaves as the simulated one");
	/* the schema's x-headline for the procedure: one line a size; a
	 * size without a value says why */
	ck_assert_uint_eq(f.n_headline, 2);
	ck_assert_str_eq(f.headline[0], "64 B: throughput 1.488 Mfps, "
			 "100 % of line, L1 1 Gbit/s");
	ck_assert_str_eq(f.headline[1], "1518 B: not measured: throughput "
			 "< r_min");
	ck_assert_uint_eq(f.headline_values, 2);
	json_object_put(doc);
}
END_TEST

/* No DUT given: the block says how to name it; a measurement has no
 * banner; an unknown procedure has no headline, and nothing breaks. */
START_TEST(front_unnamed)
{
	static struct front f;
	json_object *doc = json_tokener_parse(
		"{\"procedure\": {\"id\": \"nosuch\"}, \"results\": {},"
		" \"meta\": {\"dry_run\": false}}");

	front_build(doc, &f);
	ck_assert(!f.dry_run);
	ck_assert_str_eq(item(&f, "DUT"), "not named (bmctl run --dut-name, "
			 "--dut-version, --dut-config)");
	ck_assert_uint_eq(f.n_headline, 0);
	ck_assert_uint_eq(f.headline_values, 0);
	json_object_put(doc);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("front");
	TCase *tc = tcase_create("front");

	tcase_add_test(tc, values);
	tcase_add_test(tc, front_block);
	tcase_add_test(tc, front_unnamed);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tj_run_suite(suite());
}

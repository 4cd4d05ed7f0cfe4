// SPDX-License-Identifier: GPL-2.0
/*
 * bmctl report --check (user/bmctl/compliance.c, SPEC REQ-REP-2) against
 * the result schema's report items: every registered procedure has its
 * entry, a whole result passes, and each way an item can be missing is
 * caught with the standard's reference, while a null its entry explains
 * is counted as not measured, never as present.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bm_procedure.h"
#include "bm_sim.h"
#include "bm_trial.h"
#include "check_util.h"
#include "compliance.h"

static json_object *schema;

static void load_schema(void)
{
	const char *top = getenv("BM_TOP");
	char path[4096];

	snprintf(path, sizeof(path), "%s%sDocumentation/result.schema.json",
		 top ? top : "", top ? "/" : "");
	schema = json_object_from_file(path);
	ck_assert_msg(schema, "cannot read %s", path);
}

static void free_schema(void)
{
	json_object_put(schema);
	schema = NULL;
}

/* check doc; its output lines in out (size n) */
static void check(json_object *doc, struct compliance *c, char *out,
		  size_t n)
{
	FILE *f = fmemopen(out, n, "w");

	ck_assert_ptr_nonnull(f);
	compliance_check(schema, doc, "doc", f, NULL, NULL, c);
	fclose(f);
}

/* An rfc2544.throughput result of one frame size with every §26.1 item,
 * as bmd stores it (meta with a DUT). */
static json_object *throughput_doc(void)
{
	return json_tokener_parse(
		"{\"schema_version\":1,"
		"\"procedure\":{\"id\":\"rfc2544.throughput\",\"ref\":\"x\"},"
		"\"params\":{},\"trials\":[],\"deviations\":[],"
		"\"results\":{\"protocol\":\"UDP/IPv4\",\"line_rate_bps\":1e9,"
		"\"per_size\":[{\"frame_size\":64,\"throughput_fps\":1488095,"
		"\"theoretical_max_fps\":1488095.2,\"stream_type\":\"constant\","
		"\"result\":\"ok\"}]},"
		"\"meta\":{\"bmgen_version\":\"0\",\"kernel\":\"k\","
		"\"ports\":[],\"line_rate_bps\":1e9,"
		"\"timestamp_source\":\"sw\",\"timestamp_accuracy\":\"x\","
		"\"dut\":{\"software_version\":\"1.0\","
		"\"configuration\":\"bridge\",\"pathway\":\"cross-card\","
		"\"path\":\"t1, DAC, sw1 card 1 to card 2, DAC, t2\"}}}");
}

static json_object *row0(json_object *doc)
{
	json_object *r, *a;

	ck_assert(json_object_object_get_ex(doc, "results", &r));
	ck_assert(json_object_object_get_ex(r, "per_size", &a));
	return json_object_array_get_idx(a, 0);
}

START_TEST(test_every_procedure_has_items)
{
	const struct bm_procedure_info *pi;
	unsigned int n = 0;

	load_schema();
	for (n = 0; (pi = bm_procedure_at(n)); n++)
		ck_assert_msg(compliance_items(schema, pi->name),
			      "%s: no report items in the result schema",
			      pi->name);
	ck_assert_uint_ge(n, 30);
	ck_assert_ptr_null(compliance_items(schema, "rfc2544.nosuch"));
	ck_assert_ptr_null(compliance_items(schema, NULL));
	free_schema();
}
END_TEST

START_TEST(test_whole_result_passes)
{
	json_object *doc;
	struct compliance c;
	char out[4096] = "";

	load_schema();
	doc = throughput_doc();
	check(doc, &c, out, sizeof(out));
	ck_assert(c.known);
	ck_assert_ptr_null(c.error);
	/* results 3 + per_size 4, meta 6 + dut 1 + its 4, "results" 1 */
	ck_assert_uint_eq(c.items, 19);
	ck_assert_uint_eq(c.missing, 0);
	ck_assert_uint_eq(c.excused, 0);
	/* R2544-FPT: listed as not applicable, not as present or missing */
	ck_assert_uint_eq(c.not_applicable, 1);
	ck_assert_str_eq(out, "doc: N/A frames per token — RFC 2544 §22 "
			 "(SPEC R2544-FPT): Token Ring and FDDI only; bmgen "
			 "tests Ethernet\n");
	/* a procedure's own output (no meta) is checked for its results */
	json_object_object_del(doc, "meta");
	check(doc, &c, out, sizeof(out));
	ck_assert_uint_eq(c.items, 8);
	ck_assert_uint_eq(c.missing, 0);
	json_object_put(doc);
	free_schema();
}
END_TEST

START_TEST(test_missing_items_named)
{
	json_object *doc, *m;
	struct compliance c;
	char out[4096];

	load_schema();
	doc = throughput_doc();
	json_object_object_del(row0(doc), "theoretical_max_fps");
	check(doc, &c, out, sizeof(out));
	ck_assert_uint_eq(c.missing, 1);
	ck_assert_msg(strstr(out, "doc: MISSING results.per_size[0]."
			     "theoretical_max_fps — RFC 2544 §26.1 MUST"),
		      "%s", out);
	/* the same item as bmctl --json lists it */
	m = json_object_new_array();
	compliance_check(schema, doc, "doc", NULL, m, NULL, &c);
	ck_assert_uint_eq(json_object_array_length(m), 1);
	ck_assert_ptr_nonnull(strstr(json_object_get_string(
		json_object_array_get_idx(m, 0)), "results.per_size[0]."
		"theoretical_max_fps — RFC 2544 §26.1 MUST"));
	json_object_put(m);
	json_object_put(doc);

	/* a null where the row says "ok" is missing, not measured */
	doc = throughput_doc();
	json_object_object_add(row0(doc), "throughput_fps", NULL);
	check(doc, &c, out, sizeof(out));
	ck_assert_uint_eq(c.missing, 1);
	ck_assert_uint_eq(c.excused, 0);
	ck_assert_msg(strstr(out, "throughput_fps (null, and nothing says "
			     "why)"), "%s", out);
	json_object_put(doc);

	/* RFC 2544 §7: a DUT with no software version */
	doc = throughput_doc();
	ck_assert(json_object_object_get_ex(doc, "meta", &m));
	json_object_object_add(m, "dut", json_tokener_parse(
		"{\"configuration\":\"bridge\",\"pathway\":\"n/a\","
		"\"path\":\"t1, bridge, t2\"}"));
	check(doc, &c, out, sizeof(out));
	ck_assert_uint_eq(c.missing, 1);
	ck_assert_msg(strstr(out, "MISSING meta.dut.software_version — "
			     "RFC 2544 §7 MUST"), "%s", out);
	/* §15 (REQ-2544-7) and §19 (R2544-SYS): the pathway and the path */
	json_object_object_add(m, "dut", json_tokener_parse(
		"{\"software_version\":\"1\",\"configuration\":\"c\"}"));
	check(doc, &c, out, sizeof(out));
	ck_assert_uint_eq(c.missing, 2);
	ck_assert_msg(strstr(out, "MISSING meta.dut.pathway — RFC 2544 §15, "
			     "SPEC REQ-2544-7"), "%s", out);
	ck_assert_msg(strstr(out, "MISSING meta.dut.path — RFC 2544 §19, "
			     "SPEC R2544-SYS"), "%s", out);
	json_object_object_add(m, "dut", NULL);
	check(doc, &c, out, sizeof(out));
	ck_assert_uint_eq(c.missing, 1);
	ck_assert_msg(strstr(out, "MISSING meta.dut (null"), "%s", out);
	/* the N/A item as bmctl --json lists it; a failed job lists none */
	m = json_object_new_array();
	compliance_check(schema, doc, "doc", NULL, NULL, m, &c);
	ck_assert_uint_eq(json_object_array_length(m), 1);
	ck_assert_ptr_nonnull(strstr(json_object_get_string(
		json_object_array_get_idx(m, 0)), "frames per token"));
	json_object_put(m);
	json_object_object_add(doc, "error", json_object_new_string("x"));
	m = json_object_new_array();
	compliance_check(schema, doc, "doc", NULL, NULL, m, &c);
	ck_assert_uint_eq(json_object_array_length(m), 0);
	json_object_put(m);
	json_object_put(doc);
	free_schema();
}
END_TEST

/* RFC 2544 §8: a module run's result names its frames; a simulated
 * one has none to name. */
START_TEST(test_frames_of_module_runs)
{
	json_object *doc, *m;
	struct compliance c;
	char out[4096];

	load_schema();
	doc = throughput_doc();
	ck_assert(json_object_object_get_ex(doc, "meta", &m));
	json_object_object_add(m, "backend", json_object_new_string("sim"));
	check(doc, &c, out, sizeof(out));
	ck_assert_uint_eq(c.missing, 0);
	json_object_object_add(m, "backend", json_object_new_string("genl"));
	check(doc, &c, out, sizeof(out));
	ck_assert_uint_eq(c.missing, 1);
	ck_assert_msg(strstr(out, "doc: MISSING frames — RFC 2544 §8 MUST"),
		      "%s", out);
	json_object_object_add(doc, "frames", json_tokener_parse(
		"{\"forward\":\"ffffffffffff0000000000010800\"}"));
	check(doc, &c, out, sizeof(out));
	ck_assert_uint_eq(c.missing, 0);
	json_object_put(doc);
	free_schema();
}
END_TEST

START_TEST(test_nulls_that_say_why)
{
	json_object *doc, *r, *a;
	struct compliance c;
	char out[4096];

	load_schema();
	/* the row's own result says why */
	doc = throughput_doc();
	json_object_object_add(row0(doc), "throughput_fps", NULL);
	json_object_object_add(row0(doc), "result", json_object_new_string(
		"not measured: throughput < r_min"));
	check(doc, &c, out, sizeof(out));
	ck_assert_uint_eq(c.missing, 0);
	ck_assert_uint_eq(c.excused, 1);
	json_object_put(doc);

	/* a KEY_why beside it (rfc8239.incast's sync_pct) */
	doc = json_tokener_parse(
		"{\"procedure\":{\"id\":\"rfc8239.incast\"},\"results\":{"
		"\"ports\":3,\"port_order\":[\"a\",\"b\",\"c\"],"
		"\"latency_events\":\"FL (FILO)\","
		"\"cal_constant_subtracted\":false,"
		"\"iterations\":[{\"n_ingress\":2,\"n_egress\":1,"
		"\"latency_mean_ns\":{},"
		"\"stateful\":[\"a\"],\"stateless\":[\"b\"],"
		"\"goodput_bps\":{},\"repetitions\":[{\"result\":\"ok\","
		"\"udp\":{"
		"\"latency_min_ns\":1,\"latency_mean_ns\":2,"
		"\"latency_max_ns\":3,\"sync_pct\":null}}]}]}}");
	check(doc, &c, out, sizeof(out));
	ck_assert_uint_eq(c.missing, 1);
	ck_assert_msg(strstr(out, "MISSING results.iterations[0]."
			     "repetitions[0].udp.sync_pct (null, and nothing "
			     "says why) — RFC 8238 §6.2.3 MUST"), "%s", out);
	ck_assert(json_object_object_get_ex(doc, "results", &r));
	ck_assert(json_object_object_get_ex(r, "iterations", &a));
	ck_assert(json_object_object_get_ex(json_object_array_get_idx(a, 0),
					    "repetitions", &a));
	ck_assert(json_object_object_get_ex(json_object_array_get_idx(a, 0),
					    "udp", &r));
	json_object_object_add(r, "sync_pct_why",
			       json_object_new_string("one stateless port"));
	check(doc, &c, out, sizeof(out));
	ck_assert_uint_eq(c.missing, 0);
	ck_assert_uint_eq(c.excused, 1);
	json_object_put(doc);
	free_schema();
}
END_TEST

/* TM §4.2 MUST: every application of a stateful run has TTPET, TCP
 * efficiency and buffer delay (the apps object is keyed by application:
 * the schema's additionalProperties). */
START_TEST(test_tm_apps)
{
	json_object *doc;
	struct compliance c;
	char out[4096];

	load_schema();
	doc = json_tokener_parse(
		"{\"procedure\":{\"id\":\"rfc7640.queue-stateful\"},"
		"\"results\":{\"test_configuration\":{},\"dut_configuration\":{},"
		"\"tests\":[{\"mixture\":{},\"statistics\":{},\"runs\":[{"
		"\"run\":1,\"tcp\":{\"stack\":\"linux cubic\",\"connections\":4,"
		"\"goodput_bps\":1e6},\"apps\":{"
		"\"bulk\":{\"ttpet_s\":1.5,\"tcp_efficiency_pct\":99,"
		"\"buffer_delay_pct\":3},"
		"\"web\":{\"ttpet_s\":0.2,\"buffer_delay_pct\":1}}}]}]}}");
	ck_assert_ptr_nonnull(doc);
	check(doc, &c, out, sizeof(out));
	ck_assert(c.known);
	ck_assert_uint_eq(c.missing, 1);
	ck_assert_msg(strstr(out, "MISSING results.tests[0].runs[0].apps.web."
			     "tcp_efficiency_pct — TM §4.2 MUST"), "%s", out);
	json_object_put(doc);
	free_schema();
}
END_TEST

START_TEST(test_failed_job_and_unknown)
{
	json_object *doc;
	struct compliance c;
	char out[4096] = "";

	load_schema();
	/* a failed job's result is partial by its own word */
	doc = throughput_doc();
	json_object_object_add(doc, "error",
			       json_object_new_string("port p2 went away"));
	check(doc, &c, out, sizeof(out));
	ck_assert(c.known);
	ck_assert_str_eq(c.error, "port p2 went away");
	ck_assert_str_eq(out, "");
	json_object_put(doc);

	doc = json_tokener_parse("{\"procedure\":{\"id\":\"x.y\"}}");
	check(doc, &c, out, sizeof(out));
	ck_assert(!c.known);
	ck_assert_uint_eq(c.items, 0);
	json_object_put(doc);
	free_schema();
}
END_TEST

/* A simulated DUT of n ports at 10 Mbit/s, forwarding half the 64 B
 * line rate. */
static struct bm_backend *sim(unsigned int n)
{
	struct bm_sim_params sp;

	bm_sim_params_default(&sp);
	sp.line_rate_bps = 10e6;
	sp.capacity_fps = bm_fps_max(sp.line_rate_bps, 64) * 0.5;
	return sim_ports_new(&sp, n, "p");
}

/* Every procedure's result on the simulated DUT, at its defaults,
 * carries every item its standard requires (the closed form: the sim's
 * answers are exact, so no item may be null without a reason). */
START_TEST(test_sim_results_complete)
{
	static const char *const procs[] = {
		"rfc2544.throughput", "rfc2544.back-to-back",
		"rfc8239.line-rate-pair", "rfc8239.holb",
	};
	struct bm_error err = { "" };
	struct compliance c;
	char out[8192];
	size_t i;

	load_schema();
	for (i = 0; i < sizeof(procs) / sizeof(procs[0]); i++) {
		const struct bm_procedure_info *pi =
			bm_procedure_find(procs[i], NULL);
		unsigned int n = pi->ports_needed < 2 ? 2 : pi->ports_needed;
		struct bm_backend *be = sim(n);
		json_object *params = json_tokener_parse(
			strncmp(procs[i], "rfc2544", 7) ? "{}" :
			"{\"frame_sizes\":[64,1518]}");
		json_object *doc = NULL;
		int ret = bm_procedure_run(procs[i], params, be, NULL, NULL,
					   &doc, &err);

		ck_assert_msg(ret == 0, "%s: %d %s", procs[i], ret, err.msg);
		check(doc, &c, out, sizeof(out));
		ck_assert_msg(c.known && !c.missing && c.items >= 5,
			      "%s: %u of %u items missing:\n%s", procs[i],
			      c.missing, c.items, out);
		json_object_put(doc);
		json_object_put(params);
		bm_sim_free(be);
	}
	free_schema();
}
END_TEST

int main(void)
{
	Suite *s = suite_create("compliance");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_every_procedure_has_items);
	tcase_add_test(tc, test_whole_result_passes);
	tcase_add_test(tc, test_missing_items_named);
	tcase_add_test(tc, test_frames_of_module_runs);
	tcase_add_test(tc, test_nulls_that_say_why);
	tcase_add_test(tc, test_failed_job_and_unknown);
	tcase_add_test(tc, test_tm_apps);
	tcase_add_test(tc, test_sim_results_complete);
	suite_add_tcase(s, tc);
	return tj_run_suite(s);
}

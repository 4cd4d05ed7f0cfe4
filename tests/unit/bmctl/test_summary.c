// SPDX-License-Identifier: GPL-2.0
/*
 * What a test engineer pastes into a spreadsheet: bmctl report --csv
 * (user/bmctl/summary.c), the headline each procedure declares in the
 * result schema ("x-headline") a line a row, its columns named with their
 * units, its cells as stored and quoted as RFC 4180 says.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bmctl.h"
#include "check_util.h"
#include "summary.h"

/* summary_csv of the document text, malloc'd; its status in *ret. */
static char *csv(const char *text, int *ret)
{
	json_object *doc = json_tokener_parse(text);
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);

	ck_assert_ptr_nonnull(doc);
	ck_assert_ptr_nonnull(f);
	*ret = summary_csv(doc, f);
	fclose(f);
	json_object_put(doc);
	return buf;
}

/* One line a headline row, the numbers as stored in the unit the header
 * names, a row without a value saying why, the label's parts each a
 * column. */
START_TEST(csv_per_size)
{
	int ret;
	char *s = csv("{\"procedure\": {\"id\": \"rfc2544.throughput\"},"
		      " \"results\": {\"per_size\": ["
		      "  {\"frame_size\": 64, \"throughput_fps\": 1488095.238,"
		      "   \"throughput_pct_line\": 100.0,"
		      "   \"throughput_l1_bps\": 1e9, \"result\": \"ok\","
		      "   \"search_result\": \"converged\"},"
		      "  {\"frame_size\": 1518, \"throughput_fps\": null,"
		      "   \"throughput_pct_line\": null,"
		      "   \"throughput_l1_bps\": null,"
		      "   \"result\": \"not measured: throughput < r_min\"}]}}",
		      &ret);

	ck_assert_int_eq(ret, EXIT_OK);
	/* "converged" is no reason: the row has its values */
	ck_assert_str_eq(s, "procedure,frame_size,throughput (fps),"
			 "throughput (% of line),throughput l1 (bit/s),"
			 "why no value\n"
			 "\"rfc2544.throughput\",64,1488095.238,100,"
			 "1000000000,\n"
			 "\"rfc2544.throughput\",1518,,,,"
			 "\"not measured: throughput < r_min\"\n");
	free(s);
}
END_TEST

/* Text in quotes, a quote doubled (RFC 4180 §2.6, §2.7); a flag true or
 * false with no unit; a repetition its mean; a name the sheet has
 * already numbered. */
START_TEST(csv_cells)
{
	int ret;
	char *s = csv("{\"procedure\": {\"id\": \"rfc8239.port-buffer\"},"
		      " \"results\": {\"iterations\": ["
		      "  {\"frame_size\": 512, \"egress\": \"p\\\"2\\\", x\","
		      "   \"buf_q\": {\"n\": 2, \"mean\": 51712.5,"
		      "   \"stddev\": 1}, \"lower_bound\": true}]}}", &ret);

	ck_assert_int_eq(ret, EXIT_OK);
	ck_assert_str_eq(s, "procedure,frame_size,egress,buf q (bytes),"
			 "lower bound,why no value\n"
			 "\"rfc8239.port-buffer\",512,\"p\"\"2\"\", x\","
			 "51712.5,true,\n");
	free(s);
	s = csv("{\"procedure\": {\"id\": \"rfc7640.concurrent\"},"
		" \"results\": {\"instances\": [{\"instance\": 1,"
		" \"procedure\": \"rfc7640.policer\", \"state\": \"done\","
		" \"trials\": 4}]}}", &ret);
	ck_assert_str_eq(s, "procedure,instance,procedure (2),state,trials,"
			 "why no value\n\"rfc7640.concurrent\",1,"
			 "\"rfc7640.policer\",\"done\",4,\n");
	free(s);
	/* a procedure this bmctl knows no headline of: said, not empty */
	s = csv("{\"procedure\": {\"id\": \"nosuch\"}, \"results\": {}}",
		&ret);
	ck_assert_int_eq(ret, EXIT_FAIL);
	ck_assert_str_eq(s, "");
	free(s);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("summary");
	TCase *tc = tcase_create("summary");

	tcase_add_test(tc, csv_per_size);
	tcase_add_test(tc, csv_cells);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tj_run_suite(suite());
}

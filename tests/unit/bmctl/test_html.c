// SPDX-License-Identifier: GPL-2.0
/*
 * bmctl report --html (user/bmctl/html.c): the graphs RFC 2544 §26 lays
 * down.  §26.3's frame loss graph has both axes fixed at 0-100 % (MUSTs),
 * its X the rate as a percent of the theoretical rate: a point sits where
 * the closed form of the plot area puts it, whatever the other points.
 * §26.1's throughput graph has the measured and the theoretical frame
 * rate as two lines.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bmctl.h"
#include "check_util.h"

/* The page of doc, malloc'd. */
static char *page(json_object *doc)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(report_html(doc, f), 0);
	fclose(f);
	return buf;
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (; (hay = strstr(hay, needle)); hay++)
		n++;
	return n;
}

/*
 * Frame loss of one size, run with max_rate_pct 60: rate_pct is of 60 %
 * of the line, rate_pct_line of the line.  The plot area is 640 x 320
 * less margins (left 64, right 16, top 28, bottom 44): 560 x 248, so
 * X 30 % of the theoretical rate, Y 50 % loss sits at (64 + 0.3 x 560,
 * 28 + 248 - 0.5 x 248) = (232.0, 152.0), and X 60 %, Y 100 % at
 * (400.0, 28.0).
 */
START_TEST(test_frame_loss_axes)
{
	json_object *doc = json_tokener_parse(
		"{\"schema_version\":1,"
		"\"procedure\":{\"id\":\"rfc2544.frame-loss\",\"ref\":\"x\"},"
		"\"params\":{},\"trials\":[],\"deviations\":[],"
		"\"results\":{\"per_size\":[{\"frame_size\":512,\"table\":["
		"{\"rate_pct\":100,\"rate_pct_line\":60,\"loss_pct\":100},"
		"{\"rate_pct\":50,\"rate_pct_line\":30,\"loss_pct\":50}]}]}}");
	char *html = page(doc);

	ck_assert_msg(strstr(html, "<circle cx=\"232.0\" cy=\"152.0\""),
		      "the (30 %%, 50 %%) point is not on the fixed axes");
	ck_assert_msg(strstr(html, "<circle cx=\"400.0\" cy=\"28.0\""),
		      "the (60 %%, 100 %%) point is not on the fixed axes");
	/* the axes end at 0 and 100 both ways: ticks 0..100 on each */
	ck_assert_msg(strstr(html, "text-anchor=\"end\" font-size=\"11\">100<"),
		      "no 100 %% tick on Y");
	ck_assert_msg(strstr(html, "text-anchor=\"middle\" "
			     "font-size=\"11\">100<"), "no 100 %% tick on X");
	free(html);
	json_object_put(doc);
}
END_TEST

/* Throughput of two sizes, one not measured: the theoretical line has
 * both sizes, the measured one the size with a rate. */
START_TEST(test_throughput_two_lines)
{
	json_object *doc = json_tokener_parse(
		"{\"schema_version\":1,"
		"\"procedure\":{\"id\":\"rfc2544.throughput\",\"ref\":\"x\"},"
		"\"params\":{},\"trials\":[],\"deviations\":[],"
		"\"results\":{\"per_size\":["
		"{\"frame_size\":64,\"throughput_fps\":7440,"
		"\"theoretical_max_fps\":14880.95},"
		"{\"frame_size\":1518,\"throughput_fps\":null,"
		"\"theoretical_max_fps\":812.74}]}}");
	char *html = page(doc), *c = strstr(html, "Throughput (RFC 2544 §26.1)");
	char *end;

	ck_assert_ptr_nonnull(c);
	end = strstr(c, "</svg>");
	ck_assert_ptr_nonnull(end);
	*end = '\0';		/* this chart only */
	ck_assert_ptr_nonnull(strstr(c, ">measured<"));
	ck_assert_ptr_nonnull(strstr(c, ">theoretical (media)<"));
	/* one line, the theoretical one (the measured has one point), and
	 * three points in all */
	ck_assert_uint_eq(count(c, "<polyline"), 1);
	ck_assert_uint_eq(count(c, "<circle"), 3);
	free(html);
	json_object_put(doc);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("bmctl-html");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_frame_loss_axes);
	tcase_add_test(tc, test_throughput_two_lines);
	suite_add_tcase(s, tc);
	return tj_run_suite(s);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * bmctl report --html (user/bmctl/html.c): the graphs RFC 2544 §26 lays
 * down.  §26.3's frame loss graph has both axes fixed at 0-100 % (MUSTs),
 * its X the rate as a percent of the theoretical rate: a point sits where
 * the closed form of the plot area puts it, whatever the other points.
 * §26.1's throughput graph has the measured and the theoretical frame
 * rate as two lines.  Which charts a procedure gets is the result
 * schema's to say.
 */
#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json_pointer.h>

#include "bmctl.h"
#include "check_util.h"
#include "compliance.h"

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

/* Is the chart titled title on the page of an id result whose per-size
 * rows and repetitions carry key? */
static bool chart_drawn(const char *id, const char *key, const char *title)
{
	json_object *doc = json_object_new_object(), *res, *a, *e, *reps;
	json_object *proc = json_object_new_object();
	bool drawn;
	char *html;
	int i;

	json_object_object_add(proc, "id", json_object_new_string(id));
	json_object_object_add(proc, "ref", json_object_new_string("x"));
	json_object_object_add(doc, "schema_version", json_object_new_int(1));
	json_object_object_add(doc, "procedure", proc);
	json_object_object_add(doc, "params", json_object_new_object());
	json_object_object_add(doc, "trials", json_object_new_array());
	json_object_object_add(doc, "deviations", json_object_new_array());
	res = json_object_new_object();
	a = json_object_new_array();
	reps = json_object_new_array();
	for (i = 1; i <= 2; i++) {
		e = json_object_new_object();
		json_object_object_add(e, "frame_size",
				       json_object_new_int(64 * i));
		json_object_object_add(e, key, json_object_new_int(i));
		json_object_array_add(a, e);
		e = json_object_new_object();
		json_object_object_add(e, key, json_object_new_int(i));
		json_object_array_add(reps, e);
	}
	json_object_object_add(res, "per_size", a);
	a = json_object_new_array();
	e = json_object_new_object();
	json_object_object_add(e, "repetitions", reps);
	json_object_array_add(a, e);
	json_object_object_add(res, "iterations", a);
	json_object_object_add(doc, "results", res);
	html = page(doc);
	drawn = strstr(html, title) != NULL;
	free(html);
	json_object_put(doc);
	return drawn;
}

/* The results a "rows" chart's first path reaches: two rows, each with
 * the x, series and every key the chart names, nested as the path says
 * ("per_size.*.repetitions.*": an array of one object holding an array
 * of the rows). */
static json_object *rows_results(json_object *c)
{
	const char *path = json_object_get_string(json_object_array_get_idx(
		json_object_object_get(c, "rows"), 0));
	json_object *keys = json_object_object_get(c, "keys");
	const char *x = json_object_get_string(json_object_object_get(c, "x"));
	const char *split = json_object_get_string(
		json_object_object_get(c, "series"));
	json_object *rows = json_object_new_array(), *res, *o;
	char segs[8][64];
	int n = 0, i, k;

	for (i = 0; i < 2; i++) {
		o = json_object_new_object();
		if (x)
			json_object_object_add(o, x, json_object_new_int(i + 1));
		if (split)
			json_object_object_add(o, split,
					       json_object_new_int(i % 2));
		for (k = 0; k < (int)json_object_array_length(keys); k++)
			json_object_object_add(o, json_object_get_string(
				json_object_array_get_idx(keys, k)),
				json_object_new_double(1000.0 * (i + 1)));
		json_object_array_add(rows, o);
	}
	while (n < 8 && sscanf(path, "%63[^.]", segs[n]) == 1) {
		path += strlen(segs[n++]);
		path += *path == '.';
	}
	/* build from the innermost out: "*" is the array the rows are in */
	res = rows;
	for (i = n - 2; i >= 0; i--) {
		if (!strcmp(segs[i], "*")) {
			o = json_object_new_array();
			json_object_array_add(o, res);
		} else {
			o = json_object_new_object();
			json_object_object_add(o, segs[i], res);
		}
		res = o;
	}
	return res;
}

/* The doc a family chart c of procedure id draws from. */
static json_object *family_doc(const char *id, json_object *c)
{
	const char *kind = json_object_get_string(
		json_object_object_get(c, "kind"));
	json_object *doc = json_tokener_parse("{\"schema_version\":1,"
		"\"params\":{},\"deviations\":[],\"trials\":[]}");
	json_object *p = json_object_new_object();

	json_object_object_add(p, "id", json_object_new_string(id));
	json_object_object_add(doc, "procedure", p);
	if (!strcmp(kind, "rows"))
		json_object_object_add(doc, "results", rows_results(c));
	else if (!strcmp(kind, "lanes"))
		json_object_object_add(doc, "results", json_tokener_parse(
			"{\"instances\":[{\"instance\":1,\"procedure\":\"a\","
			"\"tx_windows_s\":[[0,1],[2,3]]}]}"));
	else
		json_object_object_add(doc, "results",
				       json_object_new_object());
	if (!strcmp(kind, "search-bounds"))
		json_object_object_add(doc, "trials", json_tokener_parse(
			"[{\"rate_fps\":100,\"duration_s\":1,\"lost\":0,"
			"\"intended\":100}]"));
	return doc;
}

/* Family chart c of procedure id is drawn from results that have it. */
static bool family_drawn(const char *id, json_object *c)
{
	json_object *doc = family_doc(id, c);
	const char *title = json_object_get_string(
		json_object_object_get(c, "title"));
	char *html = page(doc), esc[512];
	size_t i, n = 0;
	bool ok;

	/* the title as html_esc writes it */
	for (i = 0; title[i] && n + 8 < sizeof(esc); i++)
		n += (size_t)snprintf(esc + n, sizeof(esc) - n, "%s",
				      title[i] == '&' ? "&amp;" :
				      (char[2]){ title[i], 0 });
	ok = strstr(html, esc) != NULL;
	free(html);
	json_object_put(doc);
	return ok;
}

/*
 * A search's bounds as its trials found them, by hand: 100 fps lost
 * nothing, 200 lost 5 of 200, 150 nothing, 1 s each.  Loss ratio 0: the
 * lower bound 100, 100, 150 at 1, 2, 3 s; the upper none, then 200,
 * 200: five points, two lines.
 */
START_TEST(test_search_bounds)
{
	json_object *doc = json_tokener_parse(
		"{\"schema_version\":1,"
		"\"procedure\":{\"id\":\"mlrsearch\",\"ref\":\"x\"},"
		"\"params\":{},\"deviations\":[],\"results\":{},"
		"\"trials\":[{\"rate_fps\":100,\"duration_s\":1,\"lost\":0,"
		"\"intended\":100,\"loss_ratio\":0},{\"rate_fps\":200,"
		"\"duration_s\":1,\"lost\":5,\"intended\":200},"
		"{\"rate_fps\":150,\"duration_s\":1,\"lost\":0,"
		"\"intended\":150}]}");
	char *html = page(doc), *fig, *end;

	fig = strstr(html, "Bounds as the trials found them");
	ck_assert_ptr_nonnull(fig);
	end = strstr(fig, "</svg>");
	ck_assert_ptr_nonnull(end);
	*end = '\0';
	/* loss ratios 0 and 0.005: 5 points each */
	ck_assert_uint_eq(count(fig, "<circle"), 10);
	ck_assert_uint_eq(count(fig, "<polyline"), 4);
	ck_assert_ptr_nonnull(strstr(fig, ">upper bound, loss ratio 0<"));
	free(html);
	json_object_put(doc);
}
END_TEST

/* The parameters given apart from those at their defaults, whose 0
 * ("the tester's line rate") is not a value anyone asked for. */
START_TEST(test_params_given_apart)
{
	json_object *doc = json_tokener_parse(
		"{\"schema_version\":1,"
		"\"procedure\":{\"id\":\"rfc2544.throughput\",\"ref\":\"x\"},"
		"\"params\":{\"trial_duration_s\":2,\"slowest_link_bps\":0},"
		"\"meta\":{\"params_given\":[\"trial_duration_s\"]},"
		"\"deviations\":[],\"trials\":[],\"results\":{}}");
	char *html = page(doc), *given, *dflt;

	given = strstr(html, "<h2>Parameters given</h2>");
	dflt = strstr(html, "<h2>Parameters at the procedure's defaults");
	ck_assert_ptr_nonnull(given);
	ck_assert_ptr_nonnull(dflt);
	ck_assert(given < dflt);
	ck_assert_ptr_nonnull(strstr(given, "<th>trial_duration_s</th>"));
	ck_assert(strstr(given, "<th>trial_duration_s</th>") < dflt);
	ck_assert_ptr_nonnull(strstr(dflt, "<th>slowest_link_bps</th>"));
	ck_assert_ptr_null(strstr(dflt, "<th>trial_duration_s</th>"));
	free(html);
	json_object_put(doc);
}
END_TEST

/*
 * The charts come from the result schema ("x-charts"), not from names in
 * bmctl: every entry is of a kind html.c or family_charts.c draws, with
 * the results key and title its kind needs, and drawn from results
 * carrying its key.  42 charts in 22 procedures today.
 */
START_TEST(test_schema_charts_drawn)
{
	json_object *all = json_object_object_get(compliance_schema(), "allOf");
	size_t i, k, n = 0;

	ck_assert_ptr_nonnull(all);
	for (i = 0; i < json_object_array_length(all); i++) {
		json_object *e = json_object_array_get_idx(all, i), *charts;
		json_object *idv = NULL;
		const char *id;

		if (json_pointer_get(e, "/if/properties/procedure/properties"
				     "/id/const", &idv))
			continue;
		id = json_object_get_string(idv);
		charts = json_object_object_get(json_object_object_get(e, "then"),
						"x-charts");
		for (k = 0; charts && k < json_object_array_length(charts); k++) {
			json_object *c = json_object_array_get_idx(charts, k);
			const char *kind = json_object_get_string(
				json_object_object_get(c, "kind"));
			const char *key = json_object_get_string(
				json_object_object_get(c, "key"));
			const char *title = json_object_get_string(
				json_object_object_get(c, "title"));

			ck_assert_msg(kind, "%s: a chart without a kind", id);
			n++;
			if (!strcmp(kind, "throughput") ||
			    !strcmp(kind, "frame-loss"))
				continue;	/* the tests above */
			if (!strcmp(kind, "rows") || !strcmp(kind, "lanes") ||
			    !strcmp(kind, "search-bounds")) {
				ck_assert_msg(title, "%s: %s chart without "
					      "a title", id, kind);
				ck_assert_msg(family_drawn(id, c),
					      "%s: chart \"%s\" not drawn", id,
					      title);
				continue;
			}
			ck_assert_msg(!strcmp(kind, "per-size") ||
				      !strcmp(kind, "iterations"),
				      "%s: chart kind %s is not drawn", id, kind);
			ck_assert_msg(key && title,
				      "%s: %s chart without key or title", id,
				      kind);
			ck_assert_msg(chart_drawn(id, key, title),
				      "%s: chart \"%s\" not drawn", id, title);
		}
	}
	ck_assert_uint_ge(n, 42);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("bmctl-html");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_frame_loss_axes);
	tcase_add_test(tc, test_throughput_two_lines);
	tcase_add_test(tc, test_schema_charts_drawn);
	tcase_add_test(tc, test_search_bounds);
	tcase_add_test(tc, test_params_given_apart);
	suite_add_tcase(s, tc);
	return tj_run_suite(s);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * What bmctl compare says of several results (user/bmctl/compare.c,
 * compare_out.c), read from the headline each procedure declares in the
 * result schema ("x-headline"): the mean, the sample standard deviation,
 * each one's difference in % of the first result and a verdict, on
 * documents small enough to work out by hand.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bmctl.h"
#include "check_util.h"
#include "compare.h"

/* An rfc2544.throughput result of one size per (size, fps) pair; fps < 0
 * is a size not measured. */
static json_object *throughput(const char *sizes)
{
	char buf[2048];
	int n = 0, size, used;
	double fps;

	n += snprintf(buf + n, sizeof(buf) - n, "{\"procedure\": {\"id\": "
		      "\"rfc2544.throughput\"}, \"results\": {\"per_size\": [");
	while (sscanf(sizes, " %d:%lf%n", &size, &fps, &used) == 2) {
		sizes += used;
		if (fps < 0)
			n += snprintf(buf + n, sizeof(buf) - n, "%s{\"frame_"
				      "size\": %d, \"throughput_fps\": null, "
				      "\"result\": \"not measured: the loss "
				      "at r_min\"}", buf[n - 1] == '[' ? "" :
				      ",", size);
		else
			n += snprintf(buf + n, sizeof(buf) - n, "%s{\"frame_"
				      "size\": %d, \"throughput_fps\": %.17g, "
				      "\"throughput_pct_line\": %.17g, "
				      "\"result\": \"ok\"}",
				      buf[n - 1] == '[' ? "" : ",", size, fps,
				      fps / 1000);
	}
	snprintf(buf + n, sizeof(buf) - n, "]}}");
	return json_tokener_parse(buf);
}

static void build(struct cmp *c, json_object **d, size_t n, double thr,
		  bool all)
{
	char why[256] = "";

	ck_assert_msg(!cmp_build(c, d, n, thr, all, why, sizeof(why)), "%s",
		      why);
}

static const struct cmp_row *row(const struct cmp *c, const char *label,
				 const char *key)
{
	size_t i;

	for (i = 0; i < c->n_rows; i++)
		if (!strcmp(c->rows[i].label, label) &&
		    !strcmp(c->rows[i].key, key))
			return &c->rows[i];
	ck_abort_msg("no row %s %s", label, key);
	return NULL;
}

static void put_all(json_object **d, size_t n)
{
	while (n--)
		json_object_put(d[n]);
}

/*
 * 100, 101 and 98 fps: the mean 99.667, the sample's standard deviation
 * sqrt((0.333^2 + 1.333^2 + 1.667^2) / 2) = 1.5275, B +1 % of A (the
 * same at 1 %), C -2 % (beyond it: lower); at 2 % all the same.
 */
START_TEST(compare_statistics)
{
	json_object *d[3] = { throughput("64:100"), throughput("64:101"),
			      throughput("64:98") };
	const struct cmp_row *r;
	struct cmp c;

	build(&c, d, 3, 1.0, false);
	ck_assert_str_eq(c.procedure, "rfc2544.throughput");
	ck_assert_uint_eq(c.n_rows, 2);	/* fps and % of line */
	r = row(&c, "64 B", "throughput_fps");
	ck_assert_str_eq(r->unit, "fps");
	ck_assert_str_eq(r->name, "throughput");
	ck_assert_double_eq_tol(r->mean, 299.0 / 3, 1e-12);
	ck_assert_double_eq_tol(r->stdev, sqrt(7.0 / 3), 1e-12);
	ck_assert_double_eq_tol(r->diff[0], 0, 1e-12);
	ck_assert_double_eq_tol(r->diff[1], 1, 1e-9);
	ck_assert_double_eq_tol(r->diff[2], -2, 1e-9);
	ck_assert_int_eq(r->verdict, CMP_LOWER);
	ck_assert_str_eq(cmp_verdict_name(r->verdict), "lower");
	ck_assert_uint_eq(c.differ, 2);
	cmp_free(&c);
	build(&c, d, 3, 2.0, false);
	ck_assert_int_eq(row(&c, "64 B", "throughput_fps")->verdict, CMP_SAME);
	ck_assert_uint_eq(c.differ, 0);
	cmp_free(&c);
	put_all(d, 3);
}
END_TEST

/* Above and below A: mixed; a size one result lacks: missing; a size
 * no result measured: nothing to compare, no row. */
START_TEST(compare_verdicts)
{
	json_object *d[3] = { throughput("64:100 512:50 1518:-1"),
			      throughput("64:103 512:50 1518:-1"),
			      throughput("64:90 1518:-1") };
	const struct cmp_row *r;
	struct cmp c;

	build(&c, d, 3, 1.0, false);
	ck_assert_uint_eq(c.n_rows, 4);
	r = row(&c, "64 B", "throughput_fps");
	ck_assert_int_eq(r->verdict, CMP_MIXED);
	ck_assert_double_eq_tol(r->diff[1], 3, 1e-9);
	ck_assert_double_eq_tol(r->diff[2], -10, 1e-9);
	r = row(&c, "512 B", "throughput_fps");
	ck_assert_int_eq(r->verdict, CMP_MISSING);
	ck_assert(!r->has[2] && !r->has_diff[2]);
	ck_assert_uint_eq(r->n, 2);
	ck_assert_double_eq_tol(r->stdev, 0, 1e-12);
	cmp_free(&c);
	/* two results: B higher; the stdev of one value is none */
	build(&c, d, 2, 1.0, false);
	ck_assert_int_eq(row(&c, "64 B", "throughput_fps")->verdict,
			 CMP_HIGHER);
	ck_assert_int_eq(row(&c, "512 B", "throughput_fps")->verdict,
			 CMP_SAME);
	cmp_free(&c);
	put_all(d, 3);
}
END_TEST

/* From 0 any number is beyond any threshold (no % of 0); 0 and 0 are
 * the same. */
START_TEST(compare_zero_baseline)
{
	json_object *d[3] = { throughput("64:0"), throughput("64:0"),
			      throughput("64:5") };
	const struct cmp_row *r;
	struct cmp c;

	build(&c, d, 3, 1.0, false);
	r = row(&c, "64 B", "throughput_fps");
	ck_assert(r->has_diff[1] && r->diff[1] == 0);
	ck_assert(!r->has_diff[2]);
	ck_assert_int_eq(r->verdict, CMP_HIGHER);
	cmp_free(&c);
	build(&c, d, 2, 0, false);
	ck_assert_int_eq(row(&c, "64 B", "throughput_fps")->verdict, CMP_SAME);
	cmp_free(&c);
	put_all(d, 3);
}
END_TEST

/* Results of two procedures are refused, naming both; a procedure with
 * no headline has nothing to compare but with --all, by path. */
START_TEST(compare_refused)
{
	json_object *d[2] = { throughput("64:100"), json_tokener_parse(
		"{\"procedure\": {\"id\": \"rfc2544.latency\"},"
		" \"results\": {\"per_size\": []}}") };
	json_object *u[2] = { json_tokener_parse(
		"{\"procedure\": {\"id\": \"nosuch\"}, \"results\":"
		" {\"a\": [{\"x_ns\": {\"mean\": 10}}]}}"), json_tokener_parse(
		"{\"procedure\": {\"id\": \"nosuch\"}, \"results\":"
		" {\"a\": [{\"x_ns\": {\"mean\": 12}}]}}") };
	const struct cmp_row *r;
	char why[256];
	struct cmp c;

	ck_assert_int_eq(cmp_build(&c, d, 2, 1.0, false, why, sizeof(why)),
			 -1);
	ck_assert_str_eq(why, "B is rfc2544.latency, A is rfc2544.throughput:"
			 " compare results of one procedure");
	cmp_free(&c);
	ck_assert_int_eq(cmp_build(&c, u, 2, 1.0, false, why, sizeof(why)),
			 -1);
	ck_assert_ptr_nonnull(strstr(why, "no number in the headline"));
	cmp_free(&c);
	build(&c, u, 2, 1.0, true);
	ck_assert_uint_eq(c.n_rows, 1);
	r = row(&c, "a[0].x_ns", "mean");
	ck_assert_str_eq(r->unit, "ns");	/* its parent's */
	ck_assert_double_eq_tol(r->diff[1], 20, 1e-9);
	ck_assert_int_eq(r->verdict, CMP_HIGHER);
	cmp_free(&c);
	put_all(d, 2);
	put_all(u, 2);
}
END_TEST

/* The page: self-contained (no script, nothing fetched), every name
 * escaped, a differing value marked. */
START_TEST(compare_page)
{
	json_object *d[2] = { throughput("64:100"), throughput("64:110") };
	const char *names[2] = { "<a>.json", "7" };
	char *buf = NULL;
	size_t size = 0;
	struct cmp c;
	FILE *f;

	build(&c, d, 2, 1.0, false);
	f = open_memstream(&buf, &size);
	ck_assert_int_eq(cmp_html(&c, d, names, f), 0);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(buf, "&lt;a&gt;.json"));
	ck_assert_ptr_null(strstr(buf, "<a>"));
	ck_assert_ptr_null(strstr(buf, "<script"));
	/* nothing fetched: the one address is the SVG namespace's name */
	ck_assert_ptr_null(strstr(buf, "src="));
	ck_assert_ptr_null(strstr(buf, "href"));
	ck_assert_ptr_null(strstr(buf, "https:"));
	ck_assert_ptr_nonnull(strstr(buf, "<td class=\"n\">+10.00</td>"
				     "<td class=\"differs\">higher</td>"));
	ck_assert_ptr_nonnull(strstr(buf, "</html>"));
	free(buf);
	cmp_free(&c);
	put_all(d, 2);
}
END_TEST

/* d's params: random_macs m (none when m < 0) and frame_sizes [sz]. */
static json_object *with_params(json_object *d, int m, int sz)
{
	json_object *p = json_object_new_object(), *a;

	if (m >= 0)
		json_object_object_add(p, "random_macs",
				       json_object_new_int(m));
	a = json_object_new_array();
	json_object_array_add(a, json_object_new_int(sz));
	json_object_object_add(p, "frame_sizes", a);
	json_object_object_add(p, "trial_duration_s",
			       json_object_new_double(1.0));
	json_object_object_add(d, "params", p);
	return d;
}

/*
 * A sweep (RFC 2544 §12's random destinations, 1 to 10000 flows through
 * a vswitch): each result named by the one parameter that differs, its
 * values the charts' x axis, on a log axis over two decades and more;
 * one unset beside thousands puts the results by letter; two differing
 * parameters name both and make no axis of either.
 */
START_TEST(compare_sweep)
{
	json_object *d[3] = {
		with_params(throughput("64:100"), 10, 64),
		with_params(throughput("64:90"), 1000, 64),
		with_params(throughput("64:60"), 10000, 64),
	};
	const char *names[3] = { "a", "b", "c" };
	char *buf = NULL;
	size_t size = 0;
	struct cmp c;
	FILE *f;

	build(&c, d, 3, 1.0, false);
	ck_assert_uint_eq(c.n_varied, 1);
	ck_assert_str_eq(c.varied[0], "random_macs");
	ck_assert_str_eq(c.varied_as[1], "random_macs 1000");
	ck_assert(c.sweep);
	ck_assert_double_eq(c.sweep_x[2], 10000);
	f = open_memstream(&buf, &size);
	ck_assert_int_eq(cmp_html(&c, d, names, f), 0);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(buf, "<td>random_macs 10000</td>"));
	ck_assert_ptr_nonnull(strstr(buf, "throughput (fps) against "
				     "random_macs"));
	ck_assert_ptr_nonnull(strstr(buf, "log10 of random_macs"));
	ck_assert_ptr_nonnull(strstr(buf, ">64 B</text>"));
	free(buf);
	cmp_free(&c);

	/* 1 flow is random_macs unset (0): by letter */
	json_object_object_del(json_object_object_get(d[0], "params"),
			       "random_macs");
	build(&c, d, 3, 1.0, false);
	ck_assert_str_eq(c.varied_as[0], "random_macs unset");
	ck_assert(!c.sweep);
	f = open_memstream(&buf, &size);
	ck_assert_int_eq(cmp_html(&c, d, names, f), 0);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(buf, "result (1 = A, 2 = B, 3 = C)"));
	free(buf);
	cmp_free(&c);

	/* two parameters differ: both named, A's first (A has no
	 * random_macs now), no axis */
	json_object_object_add(json_object_object_get(d[2], "params"),
			       "trial_duration_s", json_object_new_double(2));
	build(&c, d, 3, 1.0, false);
	ck_assert_uint_eq(c.n_varied, 2);
	ck_assert_str_eq(c.varied_as[2], "trial_duration_s 2.0, "
			 "random_macs 10000");
	ck_assert(!c.sweep);
	cmp_free(&c);
	put_all(d, 3);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("compare");
	TCase *tc = tcase_create("compare");

	tcase_add_test(tc, compare_statistics);
	tcase_add_test(tc, compare_verdicts);
	tcase_add_test(tc, compare_zero_baseline);
	tcase_add_test(tc, compare_refused);
	tcase_add_test(tc, compare_page);
	tcase_add_test(tc, compare_sweep);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tj_run_suite(suite());
}

// SPDX-License-Identifier: GPL-2.0
/*
 * This host's system clock by phc2sys's log (bm_phc2sys.h), on lines as
 * linuxptp 3.1.1's phc2sys prints them (print.c's "[s.ms]", update_
 * clock's "%s %s offset %9d s%d freq %+7.0f delay %6d", the -u summary's
 * "%s rms %4.0f max %4.0f ..."): on its stdout (-m), through syslog into
 * a file, and as the journal keeps them.  Truth: each report's time and
 * offset as written; another clock's reports and other lines are none;
 * a window of a log holds exactly the reports written in it, their count
 * and range; no log, an unreadable one and one silent in the window say
 * so.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bm_phc2sys.h"
#include "check_util.h"

START_TEST(parses_its_reports)
{
	struct bm_phc2sys_report r;

	ck_assert(bm_phc2sys_parse("phc2sys[1234.567]: CLOCK_REALTIME phc "
				   "offset      -123 s2 freq   -4567 delay "
				   "   890", &r));
	ck_assert_double_eq_tol(r.mono_s, 1234.567, 1e-9);
	ck_assert(!r.summary);
	ck_assert_int_eq(r.offset_ns, -123);
	ck_assert_int_eq(r.max_ns, -123);
	/* syslog's file: its pid in brackets first, then print()'s time */
	ck_assert(bm_phc2sys_parse("Dec  6 05:00:01 lab2 phc2sys[812]: "
				   "[88.004] CLOCK_REALTIME phc offset   "
				   "3000041 s0 freq      +0", &r));
	ck_assert_double_eq_tol(r.mono_s, 88.004, 1e-9);
	ck_assert_int_eq(r.offset_ns, 3000041);
	/* the journal's MESSAGE */
	ck_assert(bm_phc2sys_parse("[7.250] CLOCK_REALTIME sys offset 5 s1 "
				   "freq +12", &r));
	ck_assert_int_eq(r.offset_ns, 5);
	/* -u's summary: the largest |offset| either way */
	ck_assert(bm_phc2sys_parse("phc2sys[99.001]: CLOCK_REALTIME rms   "
				   "12 max   40 freq   -310 +/-  15 delay   "
				   "600 +/-   3", &r));
	ck_assert(r.summary);
	ck_assert_int_eq(r.offset_ns, -40);
	ck_assert_int_eq(r.max_ns, 40);
	/* another clock (a PHC phc2sys keeps), and no report at all */
	ck_assert(!bm_phc2sys_parse("phc2sys[99.5]: eth1 sys offset 17 s2 "
				    "freq +1", &r));
	ck_assert(!bm_phc2sys_parse("phc2sys[99.6]: CLOCK_REALTIME "
				    "selected as the master clock", &r));
	ck_assert(!bm_phc2sys_parse("CLOCK_REALTIME phc offset 1 s2 freq +0",
				    &r));
	ck_assert(!bm_phc2sys_parse("phc2sys[x]: CLOCK_REALTIME phc offset "
				    "1 s2 freq +0", &r));
	ck_assert(!bm_phc2sys_parse("", &r));
}
END_TEST

/* A log of phc2sys -m's lines, one a second from 100.000 s, offset
 * 1000 + 10 k ns (k the line), with other lines between; its path. */
static const char *write_log(char *path, size_t len, unsigned int n)
{
	FILE *f;
	unsigned int k;
	int fd;

	snprintf(path, len, "/tmp/bm-phc2sys-XXXXXX");
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "phc2sys[99.000]: CLOCK_REALTIME phc offset   9999999 s0 "
		   "freq +0 delay 700\n");
	for (k = 0; k < n; k++) {
		fprintf(f, "phc2sys[%u.%03u]: CLOCK_REALTIME phc offset %9u "
			   "s2 freq %+7d delay %6u\n", 100 + k, 0,
			1000 + 10 * k, -300 + (int)k, 700 + k);
		fprintf(f, "phc2sys[%u.500]: eth1 sys offset -77777 s2 freq "
			   "+3\n", 100 + k);
	}
	fclose(f);
	return path;
}

START_TEST(reads_the_window)
{
	struct bm_sysclock_span s;
	char path[64];

	write_log(path, sizeof(path), 60);
	/* 104.5 .. 110.2 s: the reports of 105 .. 110 s */
	ck_assert_int_eq(bm_phc2sys_read(path, 104.5, 110.2, &s), 0);
	ck_assert_str_eq(s.source, path);
	ck_assert_uint_eq(s.samples, 6);
	ck_assert_int_eq(s.min_ns, 1050);
	ck_assert_int_eq(s.max_ns, 1100);
	ck_assert_str_eq(s.error, "");
	/* by $BMGEN_PHC2SYS_LOG */
	setenv(BM_PHC2SYS_ENV, path, 1);
	ck_assert_int_eq(bm_phc2sys_read(NULL, 99.0, 100.0, &s), 0);
	ck_assert_uint_eq(s.samples, 2);
	ck_assert_int_eq(s.min_ns, 1000);
	ck_assert_int_eq(s.max_ns, 9999999);
	/* none in the window: read in vain, and said */
	ck_assert_int_eq(bm_phc2sys_read(NULL, 200.0, 210.0, &s), -ENODATA);
	ck_assert_uint_eq(s.samples, 0);
	ck_assert_ptr_nonnull(strstr(s.error, "no report of CLOCK_REALTIME "
					      "from 200.000 to 210.000 s"));
	unlink(path);
	/* the log gone */
	ck_assert_int_eq(bm_phc2sys_read(NULL, 99.0, 100.0, &s), -ENOENT);
	ck_assert_str_eq(s.source, path);
	ck_assert_msg(strstr(s.error, "No such file"), "%s", s.error);
	/* none configured: nothing read, nothing to say */
	setenv(BM_PHC2SYS_ENV, "", 1);
	ck_assert_int_eq(bm_phc2sys_read(NULL, 99.0, 100.0, &s), -ENOENT);
	ck_assert_str_eq(s.source, "");
	unsetenv(BM_PHC2SYS_ENV);
	ck_assert_int_eq(bm_phc2sys_read(NULL, 99.0, 100.0, &s), -ENOENT);
	ck_assert_str_eq(s.source, "");
}
END_TEST

/* A log longer than the tail read: the window at its end is whole, the
 * first line read (cut short) no report. */
START_TEST(reads_the_tail_of_a_long_log)
{
	struct bm_sysclock_span s;
	char path[64];
	unsigned int n = BM_PHC2SYS_TAIL / 60;

	write_log(path, sizeof(path), n);
	ck_assert_int_eq(bm_phc2sys_read(path, 100.0 + n - 10.5,
					 100.0 + n, &s), 0);
	ck_assert_uint_eq(s.samples, 10);
	ck_assert_int_eq(s.min_ns, 1000 + 10 * (n - 10));
	ck_assert_int_eq(s.max_ns, 1000 + 10 * (n - 1));
	/* its beginning is not read */
	ck_assert_int_eq(bm_phc2sys_read(path, 99.0, 101.0, &s), -ENODATA);
	unlink(path);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("phc2sys");
	TCase *tc = tcase_create("phc2sys");

	tcase_add_test(tc, parses_its_reports);
	tcase_add_test(tc, reads_the_window);
	tcase_add_test(tc, reads_the_tail_of_a_long_log);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tj_run_suite(suite());
}

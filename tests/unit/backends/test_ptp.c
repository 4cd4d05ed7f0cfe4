// SPDX-License-Identifier: GPL-2.0
/*
 * This host's clock by linuxptp (bm_ptp.h) against a fake ptp4l: a Unix
 * datagram socket that answers the request as ptp4l 3.1.1 does (IEEE
 * 1588-2008 §15 management message, linuxptp's TIME_STATUS_NP TLV, in
 * network byte order), with an offset and grandmaster of its own.  Truth:
 * the reading is that offset and identity; no ptp4l, a silent one, a
 * management error and a short answer each say so and are not valid.
 * While a part runs: the span of a series of answers is its exact range
 * and count, an answer from another grandmaster named.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "bm_ptp.h"
#include "check_util.h"

enum fake_mode { FAKE_ANSWER, FAKE_SILENT, FAKE_ERROR, FAKE_SHORT };

struct fake_ptp4l {
	char path[108];
	int fd;
	enum fake_mode mode;
	int64_t offset_ns;
	int32_t gm_present;
	uint8_t gm[8];
	uint8_t req[64];	/* what it was asked */
	ssize_t req_len;
	/* a series of answers (n_series of them, offsets series[k]; the
	 * one at other_gm_at from another grandmaster), then silence;
	 * answered counts them */
	const int64_t *series;
	unsigned int n_series, answered;
	int other_gm_at;
	pthread_t thread;
};

static void be16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v & 0xff;
}

static void be_n(uint8_t *p, uint64_t v, int n)
{
	int i;

	for (i = n - 1; i >= 0; i--, v >>= 8)
		p[i] = v & 0xff;
}

/* Answer one request as ptp4l does, with offset off and grandmaster gm. */
static void fake_answer(struct fake_ptp4l *f, const struct sockaddr_un *from,
			socklen_t fl, int64_t off, const uint8_t *gm)
{
	uint8_t ans[128] = { 0 };
	size_t n;

	/* the header and target of the request, its action a response */
	memcpy(ans, f->req, 48);
	ans[46] = 2;
	be16(ans + 48, f->mode == FAKE_ERROR ? 0x0002 : 0x0001);
	be16(ans + 50, 2 + 50);
	be16(ans + 52, 0xc000);
	be_n(ans + 54, (uint64_t)off, 8);
	be_n(ans + 62, 123456789, 8);		/* ingress_time */
	be_n(ans + 92, (uint32_t)f->gm_present, 4);
	memcpy(ans + 96, gm, 8);
	n = f->mode == FAKE_SHORT ? 80 : 104;
	be16(ans + 2, (uint16_t)n);
	sendto(f->fd, ans, n, 0, (const struct sockaddr *)from, fl);
}

static void *fake_run(void *arg)
{
	struct fake_ptp4l *f = arg;
	struct sockaddr_un from;
	socklen_t fl;
	unsigned int k, n = f->series ? f->n_series : 1;

	for (k = 0; k < n; k++) {
		uint8_t gm[8];

		fl = sizeof(from);
		f->req_len = recvfrom(f->fd, f->req, sizeof(f->req), 0,
				      (struct sockaddr *)&from, &fl);
		if (f->req_len < 54 || f->mode == FAKE_SILENT)
			return NULL;
		memcpy(gm, f->gm, sizeof(gm));
		if ((int)k == f->other_gm_at)
			gm[7] ^= 0xff;
		fake_answer(f, &from, fl, f->series ? f->series[k] :
			    f->offset_ns, gm);
		__atomic_store_n(&f->answered, k + 1, __ATOMIC_RELEASE);
	}
	return NULL;
}

/* Bind f's socket, ready to answer as mode says (not answering yet). */
static void fake_init(struct fake_ptp4l *f, enum fake_mode mode)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	static const uint8_t gm[8] = { 0x52, 0x54, 0x00, 0xff, 0xfe,
				       0xaa, 0x00, 0x02 };

	memset(f, 0, sizeof(*f));
	f->other_gm_at = -1;
	f->mode = mode;
	f->offset_ns = -1234567;
	f->gm_present = 1;
	memcpy(f->gm, gm, sizeof(gm));
	snprintf(f->path, sizeof(f->path), "/tmp/bm-fake-ptp4l.%d",
		 (int)getpid());
	unlink(f->path);
	strcpy(a.sun_path, f->path);
	f->fd = socket(AF_UNIX, SOCK_DGRAM, 0);
	ck_assert_int_ge(f->fd, 0);
	ck_assert_int_eq(bind(f->fd, (struct sockaddr *)&a, sizeof(a)), 0);
}

static void fake_start(struct fake_ptp4l *f, enum fake_mode mode)
{
	fake_init(f, mode);
	ck_assert_int_eq(pthread_create(&f->thread, NULL, fake_run, f), 0);
}

static void fake_stop(struct fake_ptp4l *f)
{
	pthread_join(f->thread, NULL);
	close(f->fd);
	unlink(f->path);
}

START_TEST(reads_offset_and_grandmaster)
{
	struct bm_clock_reading c;
	struct fake_ptp4l f;

	fake_start(&f, FAKE_ANSWER);
	ck_assert_int_eq(bm_ptp_read(f.path, 2000, &c), 0);
	fake_stop(&f);
	ck_assert(c.valid);
	ck_assert(c.gm_present);
	ck_assert_int_eq(c.offset_ns, -1234567);
	ck_assert_str_eq(c.gm, "525400.fffe.aa0002");
	ck_assert_str_eq(c.error, "");
	/* the request as pmc -u -b 0 'GET TIME_STATUS_NP' sends it */
	ck_assert_int_eq(f.req_len, BM_PTP_REQ_LEN);
	ck_assert_uint_eq(f.req[0] & 0x0f, 0x0d);	/* management */
	ck_assert_uint_eq(f.req[1], 2);
	ck_assert_uint_eq(f.req[32], 4);		/* control */
	ck_assert_uint_eq(f.req[44], 0);		/* boundary hops */
	ck_assert_uint_eq(f.req[46] & 0x0f, 0);		/* GET */
	ck_assert_uint_eq(f.req[52] << 8 | f.req[53], 0xc000);

	/* the grandmaster itself: offset 0, no master present */
	fake_start(&f, FAKE_ANSWER);
	f.offset_ns = 0;
	f.gm_present = 0;
	ck_assert_int_eq(bm_ptp_read(f.path, 2000, &c), 0);
	fake_stop(&f);
	ck_assert(c.valid && !c.gm_present && c.offset_ns == 0);
}
END_TEST

START_TEST(no_answer_is_no_reading)
{
	struct bm_clock_reading c;
	struct fake_ptp4l f;

	ck_assert_int_eq(bm_ptp_read("/nonexistent/ptp4l", 200, &c),
			 -ENOENT);
	ck_assert(!c.valid);
	ck_assert_msg(strstr(c.error, "ptp4l at /nonexistent/ptp4l: No such"),
		      "%s", c.error);

	fake_start(&f, FAKE_SILENT);
	ck_assert_int_eq(bm_ptp_read(f.path, 200, &c), -ETIMEDOUT);
	fake_stop(&f);
	ck_assert(!c.valid);
	ck_assert_msg(strstr(c.error, "timed out"), "%s", c.error);

	fake_start(&f, FAKE_ERROR);
	ck_assert_int_eq(bm_ptp_read(f.path, 2000, &c), -EBADMSG);
	fake_stop(&f);
	ck_assert(!c.valid);
	ck_assert_msg(strstr(c.error, "management error"), "%s", c.error);

	fake_start(&f, FAKE_SHORT);
	ck_assert_int_eq(bm_ptp_read(f.path, 2000, &c), -EBADMSG);
	fake_stop(&f);
	ck_assert(!c.valid);

	/* $BMGEN_PTP_SOCKET when the caller names none */
	fake_start(&f, FAKE_ANSWER);
	setenv("BMGEN_PTP_SOCKET", f.path, 1);
	ck_assert_int_eq(bm_ptp_read(NULL, 2000, &c), 0);
	unsetenv("BMGEN_PTP_SOCKET");
	fake_stop(&f);
	ck_assert(c.valid);
}
END_TEST

/* Start f's thread on a series of n answers (offsets off). */
static void fake_series(struct fake_ptp4l *f, const int64_t *off,
			unsigned int n, int other_gm_at)
{
	fake_init(f, FAKE_ANSWER);
	f->series = off;
	f->n_series = n;
	f->other_gm_at = other_gm_at;
	ck_assert_int_eq(pthread_create(&f->thread, NULL, fake_run, f), 0);
}

/* Wait (10 s at most) until f answered all of its series. */
static void fake_wait_series(struct fake_ptp4l *f)
{
	int i;

	for (i = 0; i < 1000 && __atomic_load_n(&f->answered,
						__ATOMIC_ACQUIRE) <
	     f->n_series; i++)
		usleep(10000);
	ck_assert_uint_eq(__atomic_load_n(&f->answered, __ATOMIC_ACQUIRE),
			  f->n_series);
}

/*
 * A part's clock while it runs: every answer ptp4l gave counted once,
 * the span their exact range (the excursion to -3 ms that a reading
 * before and after would miss); an answer naming another grandmaster is
 * kept by name; a silent ptp4l's reads count missed.
 */
START_TEST(watch_spans_the_part)
{
	static const int64_t off[] = { -100000, 250000, -3000000, 40000 };
	struct bm_clock_reading c = { .valid = true, .offset_ns = 7 };
	struct bm_clock_span d;
	struct bm_ptp_watch *w;
	struct fake_ptp4l f;

	fake_series(&f, off, 4, -1);
	w = bm_ptp_watch_start(f.path, "525400.fffe.aa0002");
	ck_assert_ptr_nonnull(w);
	fake_wait_series(&f);
	/* a read after the last answer is pending: the end drops it */
	bm_ptp_watch_end(w, &d);
	fake_stop(&f);
	ck_assert_uint_eq(d.samples, 4);
	ck_assert_uint_eq(d.missed, 0);
	ck_assert_int_eq(d.min_ns, -3000000);
	ck_assert_int_eq(d.max_ns, 250000);
	ck_assert_str_eq(d.other_gm, "");

	fake_series(&f, off, 3, 1);
	w = bm_ptp_watch_start(f.path, "525400.fffe.aa0002");
	fake_wait_series(&f);
	bm_ptp_watch_end(w, &d);
	fake_stop(&f);
	ck_assert_uint_eq(d.samples, 3);
	ck_assert_str_eq(d.other_gm, "525400.fffe.aa00fd");

	/* no ptp4l: every read missed, no range */
	w = bm_ptp_watch_start("/nonexistent/ptp4l", "aa");
	usleep(350000);
	bm_ptp_watch_end(w, &d);
	ck_assert_uint_ge(d.missed, 1);
	ck_assert_uint_eq(d.samples, 0);
	bm_ptp_watch_end(NULL, &d);
	ck_assert_uint_eq(d.samples + d.missed, 0);

	/* by hand: one answer is its own range */
	bm_clock_span_add(&d, &c, "");
	ck_assert(d.samples == 1 && d.min_ns == 7 && d.max_ns == 7);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("ptp");
	TCase *tc = tcase_create("ptp");

	tcase_add_test(tc, reads_offset_and_grandmaster);
	tcase_add_test(tc, no_answer_is_no_reading);
	tcase_add_test(tc, watch_spans_the_part);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tj_run_suite(suite());
}

// SPDX-License-Identifier: GPL-2.0
/*
 * This host's clock by linuxptp (bm_ptp.h) against a fake ptp4l: a Unix
 * datagram socket that answers the request as ptp4l 3.1.1 does (IEEE
 * 1588-2008 §15 management message, linuxptp's TIME_STATUS_NP TLV, in
 * network byte order), with an offset and grandmaster of its own.  Truth:
 * the reading is that offset and identity; no ptp4l, a silent one, a
 * management error and a short answer each say so and are not valid.
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

static void *fake_run(void *arg)
{
	struct fake_ptp4l *f = arg;
	struct sockaddr_un from;
	socklen_t fl = sizeof(from);
	uint8_t ans[128] = { 0 };
	size_t n;

	f->req_len = recvfrom(f->fd, f->req, sizeof(f->req), 0,
			      (struct sockaddr *)&from, &fl);
	if (f->req_len < 54 || f->mode == FAKE_SILENT)
		return NULL;
	/* the header and target of the request, its action a response */
	memcpy(ans, f->req, 48);
	ans[46] = 2;
	be16(ans + 48, f->mode == FAKE_ERROR ? 0x0002 : 0x0001);
	be16(ans + 50, 2 + 50);
	be16(ans + 52, 0xc000);
	be_n(ans + 54, (uint64_t)f->offset_ns, 8);
	be_n(ans + 62, 123456789, 8);		/* ingress_time */
	be_n(ans + 92, (uint32_t)f->gm_present, 4);
	memcpy(ans + 96, f->gm, 8);
	n = f->mode == FAKE_SHORT ? 80 : 104;
	be16(ans + 2, (uint16_t)n);
	sendto(f->fd, ans, n, 0, (struct sockaddr *)&from, fl);
	return NULL;
}

static void fake_start(struct fake_ptp4l *f, enum fake_mode mode)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	static const uint8_t gm[8] = { 0x52, 0x54, 0x00, 0xff, 0xfe,
				       0xaa, 0x00, 0x02 };

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

static Suite *suite(void)
{
	Suite *s = suite_create("ptp");
	TCase *tc = tcase_create("ptp");

	tcase_add_test(tc, reads_offset_and_grandmaster);
	tcase_add_test(tc, no_answer_is_no_reading);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tj_run_suite(suite());
}

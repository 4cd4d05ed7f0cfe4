// SPDX-License-Identifier: GPL-2.0
/*
 * This host's clock by linuxptp (bm_ptp.h): one IEEE 1588 management
 * GET of linuxptp's TIME_STATUS_NP over ptp4l's Unix socket, as pmc asks
 * it.  No pmc process: a part's clock is read twice a trial from a
 * backend's thread, and the answer is a fixed layout (IEEE 1588-2008
 * §13.3 header, §15.4.1 management message; the TLV is linuxptp's).
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "bm_clock.h"
#include "bm_ptp.h"
#include "bm_wire.h"

#define PTP_MSG_MANAGEMENT	0x0d
#define PTP_VERSION		2
#define PTP_CTL_MANAGEMENT	0x04
#define PTP_ACTION_GET		0
#define PTP_ACTION_RESPONSE	2
#define PTP_TLV_MANAGEMENT	0x0001
#define PTP_TLV_MGMT_ERROR	0x0002
#define PTP_ID_TIME_STATUS_NP	0xc000
#define PTP_MGMT_HDR		48	/* header 34 + target 10 + 4 */
/* TIME_STATUS_NP: master_offset, ingress_time, two Integer32, a
 * UInteger16, a 12-byte ScaledNs, gmPresent, gmIdentity */
#define PTP_TSNP_LEN		50

void bm_ptp_request(uint8_t *b, uint16_t seq)
{
	memset(b, 0, BM_PTP_REQ_LEN);
	b[0] = PTP_MSG_MANAGEMENT;
	b[1] = PTP_VERSION;
	bm_put16(b + 2, BM_PTP_REQ_LEN);
	/* source port: no clock of ours; the port number tells our
	 * requests from another client's in ptp4l's log */
	bm_put16(b + 28, (uint16_t)getpid());
	bm_put16(b + 30, seq);
	b[32] = PTP_CTL_MANAGEMENT;
	b[33] = 0x7f;
	memset(b + 34, 0xff, 10);	/* every clock, every port ... */
	b[44] = 0;			/* ... of this one only (pmc -b 0) */
	b[45] = 0;
	b[46] = PTP_ACTION_GET;
	bm_put16(b + 48, PTP_TLV_MANAGEMENT);
	bm_put16(b + 50, 2);
	bm_put16(b + 52, PTP_ID_TIME_STATUS_NP);
}

static int ptp_bad(struct bm_clock_reading *out, const char *why)
{
	snprintf(out->error, sizeof(out->error), "ptp4l: %s", why);
	return -EBADMSG;
}

int bm_ptp_parse(const uint8_t *b, size_t n, struct bm_clock_reading *out)
{
	const uint8_t *d = b + PTP_MGMT_HDR + 6;
	const uint8_t *id;
	uint16_t len;

	memset(out, 0, sizeof(*out));
	if (n < PTP_MGMT_HDR + 6 || (b[0] & 0x0f) != PTP_MSG_MANAGEMENT ||
	    (b[1] & 0x0f) != PTP_VERSION || bm_get16(b + 2) > n)
		return ptp_bad(out, "an answer that is no management message");
	if ((b[46] & 0x0f) != PTP_ACTION_RESPONSE)
		return ptp_bad(out, "an answer that is no response");
	len = bm_get16(b + PTP_MGMT_HDR + 2);
	if (bm_get16(b + PTP_MGMT_HDR) == PTP_TLV_MGMT_ERROR)
		return ptp_bad(out, "refused TIME_STATUS_NP (management error)");
	if (bm_get16(b + PTP_MGMT_HDR) != PTP_TLV_MANAGEMENT ||
	    bm_get16(b + PTP_MGMT_HDR + 4) != PTP_ID_TIME_STATUS_NP ||
	    len < 2 + PTP_TSNP_LEN || PTP_MGMT_HDR + 4 + (size_t)len > n)
		return ptp_bad(out, "an answer that is not TIME_STATUS_NP");
	out->offset_ns = (int64_t)bm_get64(d);
	out->gm_present = bm_get32(d + 38) != 0;
	id = d + 42;
	snprintf(out->gm, sizeof(out->gm),
		 "%02x%02x%02x.%02x%02x.%02x%02x%02x", id[0], id[1], id[2],
		 id[3], id[4], id[5], id[6], id[7]);
	out->valid = true;
	return 0;
}

static int ptp_fail(struct bm_clock_reading *out, const char *path, int e)
{
	snprintf(out->error, sizeof(out->error), "ptp4l at %.32s: %s", path,
		 strerror(e));
	return -e;
}

int bm_ptp_read(const char *path, int timeout_ms,
		struct bm_clock_reading *out)
{
	static const sa_family_t autobind = AF_UNIX;
	struct sockaddr_un to = { .sun_family = AF_UNIX };
	uint8_t req[BM_PTP_REQ_LEN], ans[512];
	uint16_t seq = (uint16_t)(time(NULL) ^ getpid());
	double t0;
	int fd, ret, left;
	ssize_t n;

	memset(out, 0, sizeof(*out));
	if (!path)
		path = getenv("BMGEN_PTP_SOCKET");
	if (!path || !path[0])
		path = BM_PTP_SOCKET_DEFAULT;
	if (strlen(path) >= sizeof(to.sun_path))
		return ptp_fail(out, path, ENAMETOOLONG);
	strcpy(to.sun_path, path);
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return ptp_fail(out, path, errno);
	/* an abstract name of the kernel's choosing: ptp4l answers the
	 * sender's address, and no file is left behind */
	if (bind(fd, (const struct sockaddr *)&autobind, sizeof(autobind))) {
		ret = ptp_fail(out, path, errno);
		goto out;
	}
	bm_ptp_request(req, seq);
	if (sendto(fd, req, sizeof(req), 0, (struct sockaddr *)&to,
		   sizeof(to)) != (ssize_t)sizeof(req)) {
		ret = ptp_fail(out, path, errno);
		goto out;
	}
	t0 = bm_mono_s();
	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };

		left = timeout_ms - (int)((bm_mono_s() - t0) * 1000);
		if (left <= 0 || poll(&pfd, 1, left) <= 0) {
			ret = ptp_fail(out, path, ETIMEDOUT);
			break;
		}
		n = recv(fd, ans, sizeof(ans), 0);
		if (n < 0) {
			ret = ptp_fail(out, path, errno);
			break;
		}
		/* an answer to another request of this socket: none; to
		 * ours, by its sequence id */
		if (n >= 32 && bm_get16(ans + 30) != seq)
			continue;
		ret = bm_ptp_parse(ans, (size_t)n, out);
		break;
	}
out:
	close(fd);
	return ret;
}

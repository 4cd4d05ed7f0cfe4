/* SPDX-License-Identifier: GPL-2.0 */
/*
 * This host's clock by linuxptp: ptp4l's management interface on its
 * Unix socket (what `pmc -u -b 0 'GET TIME_STATUS_NP'` asks), read before
 * and after each part of a pool's trial (Documentation/multi-host.md).
 */
#ifndef BM_PTP_H
#define BM_PTP_H

#include "bm_trial.h"

/* ptp4l's socket when neither the caller nor $BMGEN_PTP_SOCKET names one
 * (linuxptp's uds_address default). */
#define BM_PTP_SOCKET_DEFAULT	"/var/run/ptp4l"

/* How long a part waits for ptp4l's answer (ms): it answers at once from
 * its poll loop; a busy host's ptp4l within a few of its sync intervals. */
#define BM_PTP_TIMEOUT_MS	500

/*
 * Ask the ptp4l at path (NULL: $BMGEN_PTP_SOCKET, else the default) for
 * TIME_STATUS_NP, waiting timeout_ms at most.  Always fills *out: valid
 * with the offset and grandmaster, or not valid with error set (no
 * ptp4l there, no answer, an answer that is not one).  0 when valid,
 * else -errno.
 */
int bm_ptp_read(const char *path, int timeout_ms,
		struct bm_clock_reading *out);

/*
 * The TIME_STATUS_NP answer of n bytes at buf (a whole PTP management
 * message, as ptp4l sends it) into *out; 0, or -EBADMSG with out->error
 * set.  For a test's fake ptp4l too.
 */
int bm_ptp_parse(const uint8_t *buf, size_t n, struct bm_clock_reading *out);

/* The request bm_ptp_read sends (sequence id seq) into buf of at least
 * BM_PTP_REQ_LEN bytes. */
#define BM_PTP_REQ_LEN	54
void bm_ptp_request(uint8_t *buf, uint16_t seq);

#endif /* BM_PTP_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * This host's clock by linuxptp: ptp4l's management interface on its
 * Unix socket (what `pmc -u -b 0 'GET TIME_STATUS_NP'` asks), read before
 * and after each part of a pool's trial and sampled while it runs
 * (Documentation/multi-host.md).
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

/*
 * How often a part reads ptp4l while it runs (s).  ptp4l's offset changes
 * at each Sync it takes (4 a second with logSyncInterval -2, 1 with the
 * default 0): reading faster than the fastest Sync sees each value.
 */
#define BM_PTP_SAMPLE_S		0.1
/* How long one of those reads waits (ms): less than a trial's drain. */
#define BM_PTP_SAMPLE_TIMEOUT_MS	250

/* Add reading c, taken while a part ran, to span s; gm is the
 * grandmaster read before the part. */
void bm_clock_span_add(struct bm_clock_span *s,
		       const struct bm_clock_reading *c, const char *gm);

struct bm_ptp_watch;

/*
 * Read the ptp4l at path (as bm_ptp_read) every BM_PTP_SAMPLE_S in a
 * thread of its own until bm_ptp_watch_end, against grandmaster gm.
 * NULL when out of memory or threads (the part runs; its span then says
 * no sample was taken).
 */
struct bm_ptp_watch *bm_ptp_watch_start(const char *path, const char *gm);

/* Stop w's thread and put what it read into *out (an empty span for a
 * NULL w); frees w. */
void bm_ptp_watch_end(struct bm_ptp_watch *w, struct bm_clock_span *out);

/* The request bm_ptp_read sends (sequence id seq) into buf of at least
 * BM_PTP_REQ_LEN bytes. */
#define BM_PTP_REQ_LEN	54
void bm_ptp_request(uint8_t *buf, uint16_t seq);

#endif /* BM_PTP_H */

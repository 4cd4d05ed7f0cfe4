/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RFC 2544 §11.2 management queries during a trial of the module
 * (bm_traffic.h's struct bm_mgmt_spec): a thread that sends the SNMP
 * GetRequests through the tester port's kernel stack at their instants
 * and checks the GetResponses.  bmgen.ko passes every non-test frame up
 * the stack, so the answers reach the socket; the queries take the port
 * beside the module's frames, as §11 has them "in the same data stream".
 */
#ifndef BM_MGMT_H
#define BM_MGMT_H

#include <stdint.h>

#include "bm_traffic.h"

struct bm_mgmt_run;

/*
 * Start m's queries for a trial of duration_s that started at t0 (the
 * CLOCK_MONOTONIC seconds of bm_mono_s()), from ifname's address src_ip4;
 * 0 with *out set, or -errno with err set (no socket, no such address).
 */
int bm_mgmt_start(struct bm_mgmt_run **out, const struct bm_mgmt_spec *m,
		  const char *ifname, const uint8_t src_ip4[4], double t0,
		  double duration_s, struct bm_error *err);

/* Wait for the last answer's time (1 s after the last query) or, with
 * stop, end at once; the counts into res; frees q. */
void bm_mgmt_finish(struct bm_mgmt_run *q, bool stop,
		    struct bm_trial_result *res);

#endif /* BM_MGMT_H */

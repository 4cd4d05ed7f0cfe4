/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RIP routing updates around a trial of the module (bm_traffic.h's rip;
 * RFC 2544 §13, §11.3, §23a): C.2.6.2's frames written whole to the
 * tester port with a packet socket, so that every byte is the one the
 * standard prints (TTL 10, DF, the /24's directed broadcast to the
 * broadcast MAC), from the port's phantom router .10.
 */
#ifndef BM_RIP_SEND_H
#define BM_RIP_SEND_H

#include <stdbool.h>

#include "bm_traffic.h"

struct bm_rip_run;

/* Send t's pre-trial messages now (0 with *out set, also when t has
 * none; -errno with err set), of host's ports only when host is set (a
 * pool's part: bm_hosts.h); *lead_s is how long before the trial's
 * start they must go (0 when none). */
int bm_rip_pre(struct bm_rip_run **out, const struct bm_traffic *t,
	       const char *host, double *lead_s, struct bm_error *err);

/* Send the in-trial messages of a trial of duration_s started at t0
 * (bm_mono_s()) from a thread; 0 or -errno with err set. */
int bm_rip_start(struct bm_rip_run *q, double t0, double duration_s,
		 struct bm_error *err);

/* End the thread (at once with stop), the sends into res; frees q. */
void bm_rip_finish(struct bm_rip_run *q, bool stop,
		   struct bm_trial_result *res);

#endif /* BM_RIP_SEND_H */

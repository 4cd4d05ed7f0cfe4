/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A configured DUT reset command (bmd.conf reset.NAME, never a request's:
 * issue 16), run as the RFC 2544 reset trial's event hook.
 */
#ifndef BM_RESET_COMMAND_H
#define BM_RESET_COMMAND_H

#include "bm_trial.h"

struct bm_reset_cmd {
	const char *name;	/* the reset's name, for the status line */
	const char *command;	/* run with /bin/sh -c */
	double timeout_s;	/* killed after this long */
	bm_progress_fn progress;	/* status and cancel, may be NULL */
	void *progress_ctx;
};

/* Event hook (ctx: struct bm_reset_cmd): run the command and wait; 0 when
 * it exits 0, -EIO when it fails, -ETIMEDOUT or -ECANCELED when it was
 * killed with every process of its group. */
int bm_reset_command_run(void *ctx);

#endif /* BM_RESET_COMMAND_H */

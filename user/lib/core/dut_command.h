/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A DUT command of bmd's configuration, never a request's: a reset
 * (bmd.conf reset.NAME), run as the RFC 2544 reset trial's event hook,
 * and the DUT's counters (bmd.conf dut-counters, SPEC REQ-TM-4), whose
 * output bmd keeps.
 */
#ifndef BM_DUT_COMMAND_H
#define BM_DUT_COMMAND_H

#include <stddef.h>

#include "bm_trial.h"

struct bm_dut_cmd {
	const char *name;	/* what it is, for the status line */
	const char *command;	/* run with /bin/sh -c */
	double timeout_s;	/* killed after this long */
	bm_progress_fn progress;	/* status and cancel, may be NULL */
	void *progress_ctx;
	/* The command's environment (NULL: bmd's own), and where its
	 * standard output goes: out[out_max] gets the first out_max - 1
	 * bytes, NUL-terminated, their count in out_len (out NULL: the
	 * output is bmd's). */
	char *const *envp;
	char *out;
	size_t out_max, out_len;
};

/* Run cmd (ctx: struct bm_dut_cmd) and wait; 0 when it exits 0, -EIO
 * when it fails, -ETIMEDOUT or -ECANCELED when it was killed with every
 * process of its group.  Also the reset trial's event hook. */
int bm_dut_command_run(void *ctx);

#endif /* BM_DUT_COMMAND_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * bmd.conf (bmd(8), CONFIGURATION): the input is the file, read by
 * bmd_conf_read() as bmd -c FILE reads it, then applied over an empty
 * command line as bmd does.
 *
 * Invariants: a refusal is one line naming the file; what is accepted is
 * what bmd may use: absolute socket and results paths, a results mode of
 * 0600, 0640 or 0644, resets with valid, distinct names and a non-empty
 * one-line command, and no string with a NUL cut short.
 */
#include <stdio.h>
#include <string.h>

#include "bm_daemon.h"
#include "util.h"

static void check_conf(const struct bmd_conf *c, const char *path)
{
	struct bmd_config cfg = { .listen_fd = -1 };
	size_t i, k;

	if (!c->path || strcmp(c->path, path))
		fuzz_fail("conf: path '%s', not the file read", c->path);
	if (c->socket_path && c->socket_path[0] != '/')
		fuzz_fail("conf: relative socket '%s'", c->socket_path);
	if (c->results_dir && c->results_dir[0] != '/')
		fuzz_fail("conf: relative results '%s'", c->results_dir);
	if (c->results_mode && !bmd_results_mode_ok(c->results_mode))
		fuzz_fail("conf: results mode %o", c->results_mode);
	if (c->verbose < -1 || c->verbose > 1)
		fuzz_fail("conf: verbose %d", c->verbose);
	for (i = 0; i < c->n_resets; i++) {
		if (!bmd_reset_name_ok(c->resets[i].name))
			fuzz_fail("conf: bad reset name '%s'",
				  c->resets[i].name);
		fuzz_one_line(c->resets[i].command, "conf: reset command");
		for (k = 0; k < i; k++)
			if (!strcmp(c->resets[i].name, c->resets[k].name))
				fuzz_fail("conf: reset '%s' twice",
					  c->resets[i].name);
	}
	bmd_conf_apply(c, &cfg);
	if (cfg.n_resets != c->n_resets || cfg.config_path != c->path)
		fuzz_fail("conf: bmd_conf_apply lost the resets");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bm_error err = { "" };
	struct bmd_conf c;
	char path[256];

	snprintf(path, sizeof(path), "%s/bmd.conf", fuzz_dir());
	/* bmd reads only a file its owner alone may write */
	fuzz_write_file(path, data, size, 0600);
	if (bmd_conf_read(path, true, &c, &err)) {
		fuzz_one_line(err.msg, "conf refusal");
		if (strncmp(err.msg, path, strlen(path)))
			fuzz_fail("conf refusal without the file: %s", err.msg);
		if (c.path || c.n_resets || c.socket_path || c.results_dir ||
		    c.group)
			fuzz_fail("conf refused but not emptied");
		return 0;
	}
	check_conf(&c, path);
	bmd_conf_free(&c);
	return 0;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * This host's system clock by linuxptp's phc2sys: its reports of
 * CLOCK_REALTIME against the clock it follows (a PHC that ptp4l
 * disciplines), read from phc2sys's log after each part of a pool's
 * trial (Documentation/multi-host.md "Time").  phc2sys 3.1 has no
 * management socket; what it prints is all it says.
 */
#ifndef BM_PHC2SYS_H
#define BM_PHC2SYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bm_trial.h"

/* The environment variable naming phc2sys's log: a file of its -m output
 * (or a syslog file with its lines); unset or "" = not read. */
#define BM_PHC2SYS_ENV		"BMGEN_PHC2SYS_LOG"

/*
 * phc2sys reports once an update (1 a second by default, -R): a part's
 * window starts this long before the part, so that the report in force
 * when it started is in it.
 */
#define BM_PHC2SYS_LEAD_S	1.5

/* How much of the log's end is read at most (bytes): phc2sys writes some
 * 70 bytes a report, so this is minutes of reports. */
#define BM_PHC2SYS_TAIL		(256 * 1024)

/* One report of CLOCK_REALTIME: its time by CLOCK_MONOTONIC (phc2sys's
 * "[s.ms]"), and its offset (CLOCK_REALTIME less the clock it follows,
 * ns), or the largest |offset| of a summary (-u: "rms R max M"). */
struct bm_phc2sys_report {
	double mono_s;
	bool summary;
	int64_t offset_ns;	/* summary: -max */
	int64_t max_ns;		/* summary: +max; else offset_ns */
};

/*
 * Line into *out when it is a phc2sys report of CLOCK_REALTIME ("...
 * phc2sys[12.345]: CLOCK_REALTIME phc offset -12 s2 freq +3 delay 500",
 * syslog's "phc2sys[pid]: [12.345] CLOCK_REALTIME ...", or a summary
 * "CLOCK_REALTIME rms 9 max 20 freq ..."); false for any other line.
 */
bool bm_phc2sys_parse(const char *line, struct bm_phc2sys_report *out);

/*
 * The reports of CLOCK_REALTIME in phc2sys's log at path (NULL: $BMGEN_
 * PHC2SYS_LOG) between from_s and to_s (CLOCK_MONOTONIC) into *out:
 * source the path, samples their count, min_ns and max_ns their range;
 * error set when the log cannot be read or has no report in the window.
 * 0, -ENOENT when no log is configured (*out empty), else -errno.
 */
int bm_phc2sys_read(const char *path, double from_s, double to_s,
		    struct bm_sysclock_span *out);

#endif /* BM_PHC2SYS_H */

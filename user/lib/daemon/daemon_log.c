// SPDX-License-Identifier: GPL-2.0
/*
 * bmd's log: every event is a priority and "FIELD=value" strings, MESSAGE
 * first.  On stderr only the message is written (as before); to journald
 * every field goes, so that `journalctl -u bmd JOB_ID=7` or
 * `SUBMITTER_UID=1001` finds a job's whole story.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/uio.h>

/* CODE_FILE= would name this sink, not the event's origin */
#define SD_JOURNAL_SUPPRESS_LOCATION
#include <systemd/sd-journal.h>

#include "daemon_int.h"

#define MAX_FIELDS	16

void bmd_log_journal(void *ctx, int priority, const char *const *fields,
		     size_t n)
{
	struct iovec iov[MAX_FIELDS + 2];
	char prio[16];
	size_t i, k = 0;

	(void)ctx;
	snprintf(prio, sizeof(prio), "PRIORITY=%d", priority);
	iov[k++] = (struct iovec){ (void *)prio, strlen(prio) };
	iov[k++] = (struct iovec){ (void *)"SYSLOG_IDENTIFIER=bmd", 21 };
	for (i = 0; i < n && i < MAX_FIELDS; i++)
		iov[k++] = (struct iovec){ (void *)fields[i], strlen(fields[i]) };
	/* journald gone: nothing to tell it, and stderr is its stream */
	sd_journal_sendv(iov, (int)k);
}

/* The default sink: "bmd: MESSAGE" on stderr, the other fields unsaid. */
static void log_stderr(const char *const *fields, size_t n)
{
	if (n && !strncmp(fields[0], "MESSAGE=", 8))
		fprintf(stderr, "bmd: %s\n", fields[0] + 8);
}

void bmd_log(struct bmd *d, int priority, const char *const *fields,
	     size_t n)
{
	if (d && d->log)
		d->log(d->log_ctx, priority, fields, n);
	else
		log_stderr(fields, n);
}

void bmd_logf(struct bmd *d, int priority, const char *fmt, ...)
{
	char msg[512] = "MESSAGE=";
	const char *f[1] = { msg };
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg + 8, sizeof(msg) - 8, fmt, ap);
	va_end(ap);
	bmd_log(d, priority, f, 1);
}

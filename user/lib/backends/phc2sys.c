// SPDX-License-Identifier: GPL-2.0
/*
 * This host's system clock by phc2sys's log (bm_phc2sys.h).  linuxptp's
 * print() gives every line its CLOCK_MONOTONIC time in brackets, on
 * stdout ("phc2sys[12.345]: ...") and to syslog ("[12.345] ..."), so the
 * reports of a part's window are found by that clock alone, whatever
 * else the file holds.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bm_phc2sys.h"

/* The device phc2sys names the system clock by (its -c / -a name). */
#define SYS_CLOCK	"CLOCK_REALTIME "

/* The "[s.ms]" that ends just before p in line, as seconds; false when
 * there is none. */
static bool mono_before(const char *line, const char *p, double *s)
{
	const char *close = p, *open;
	char *end;

	while (close > line && close[-1] == ' ')
		close--;
	if (close > line && close[-1] == ':')	/* "phc2sys[12.345]: " */
		close--;
	if (close == line || close[-1] != ']')
		return false;
	close--;
	for (open = close; open > line && open[-1] != '['; open--)
		;
	if (open == line)
		return false;
	*s = strtod(open, &end);
	return end == close && end != open && *s >= 0;
}

bool bm_phc2sys_parse(const char *line, struct bm_phc2sys_report *out)
{
	const char *p = strstr(line, SYS_CLOCK), *q;
	long long v, m;
	char label[16];
	int n = 0;

	if (!p || !mono_before(line, p, &out->mono_s))
		return false;
	q = p + strlen(SYS_CLOCK);
	/* "phc offset -12 s2 ..." (the label is the source's kind) */
	if (sscanf(q, "%15s offset %lld s%*d%n", label, &v, &n) == 2 && n) {
		out->summary = false;
		out->offset_ns = out->max_ns = v;
		return true;
	}
	/* a summary of -u updates: rms and the largest |offset| */
	if (sscanf(q, "rms %*f max %lld%n", &m, &n) == 1 && n && m >= 0) {
		out->summary = true;
		out->offset_ns = -m;
		out->max_ns = m;
		return true;
	}
	return false;
}

static int sys_fail(struct bm_sysclock_span *out, int e, const char *why)
{
	snprintf(out->error, sizeof(out->error), "phc2sys's log: %s", why);
	return -e;
}

/* The reports of the window in buf (n bytes, its first line perhaps cut
 * short: a cut line has no report whole) into out. */
static void window_reports(char *buf, double from_s, double to_s,
			   struct bm_sysclock_span *out)
{
	struct bm_phc2sys_report r;
	char *line, *save = NULL;

	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!bm_phc2sys_parse(line, &r) || r.mono_s < from_s ||
		    r.mono_s > to_s)
			continue;
		if (!out->samples || r.offset_ns < out->min_ns)
			out->min_ns = r.offset_ns;
		if (!out->samples || r.max_ns > out->max_ns)
			out->max_ns = r.max_ns;
		out->samples++;
	}
}

int bm_phc2sys_read(const char *path, double from_s, double to_s,
		    struct bm_sysclock_span *out)
{
	struct stat st;
	char *buf;
	off_t at;
	ssize_t n;
	int fd, e;

	memset(out, 0, sizeof(*out));
	if (!path)
		path = getenv(BM_PHC2SYS_ENV);
	if (!path || !path[0])
		return -ENOENT;
	snprintf(out->source, sizeof(out->source), "%s", path);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return sys_fail(out, errno, strerror(errno));
	if (fstat(fd, &st)) {
		e = errno;
		close(fd);
		return sys_fail(out, e, strerror(e));
	}
	at = st.st_size > BM_PHC2SYS_TAIL ? st.st_size - BM_PHC2SYS_TAIL : 0;
	buf = malloc(BM_PHC2SYS_TAIL + 1);
	if (!buf) {
		close(fd);
		return sys_fail(out, ENOMEM, "out of memory");
	}
	n = pread(fd, buf, BM_PHC2SYS_TAIL, at);
	e = errno;
	close(fd);
	if (n < 0) {
		free(buf);
		return sys_fail(out, e, strerror(e));
	}
	buf[n] = '\0';
	window_reports(buf, from_s, to_s, out);
	free(buf);
	if (!out->samples) {
		snprintf(out->error, sizeof(out->error), "phc2sys's log: no "
			 "report of CLOCK_REALTIME from %.3f to %.3f s "
			 "(CLOCK_MONOTONIC)", from_s, to_s);
		return -ENODATA;
	}
	return 0;
}

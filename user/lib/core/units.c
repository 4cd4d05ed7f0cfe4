// SPDX-License-Identifier: GPL-2.0
/* Byte counts with units (bm_units.h, REQ-UNIT-3). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bm_units.h"

static const struct {
	const char *name;
	double mul;
} units[] = {
	{ "", 1.0 }, { "B", 1.0 },
	/* AMB-02: KB is 1000 bytes in a TM context, so is kB */
	{ "kB", 1e3 }, { "KB", 1e3 }, { "KiB", 1024.0 },
	{ "MB", 1e6 }, { "MiB", 1048576.0 },
};

int bm_bytes_parse(const char *s, uint64_t *out, struct bm_error *err)
{
	const char *p = s;
	char *end;
	double x, y;
	size_t i;

	/* strtod would also take hex, "inf" and leading blanks */
	if (!((*p >= '0' && *p <= '9') || *p == '.'))
		return bm_errorf(err, "expected a number of bytes with an "
				 "optional unit B, kB, KB, KiB, MB or MiB, got "
				 "\"%.40s\"", s);
	for (; *p; p++)
		if (*p == 'x' || *p == 'X' || *p == 'p' || *p == 'P')
			return bm_errorf(err, "expected a decimal number of "
					 "bytes, got \"%.40s\"", s);
	errno = 0;
	x = strtod(s, &end);
	if (end == s || errno || !isfinite(x))
		return bm_errorf(err, "expected a number of bytes, got "
				 "\"%.40s\"", s);
	if (*end == ' ')
		end++;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(end, units[i].name))
			break;
	if (i == sizeof(units) / sizeof(units[0]))
		return bm_errorf(err, "unknown unit \"%.16s\" (B, kB, KB, KiB, "
				 "MB, MiB)", end);
	y = x * units[i].mul;
	/* a decimal fraction of a unit may round a hair off the integer */
	if (fabs(y - nearbyint(y)) > 1e-6 * fmax(1.0, y))
		return bm_errorf(err, "\"%.40s\" is not a whole number of "
				 "bytes", s);
	y = nearbyint(y);
	if (y > (double)BM_BYTES_MAX)
		return bm_errorf(err, "\"%.40s\" is more than 1 PB", s);
	*out = (uint64_t)y;
	return 0;
}

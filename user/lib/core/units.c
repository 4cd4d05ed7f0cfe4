// SPDX-License-Identifier: GPL-2.0
/* Quantities with units: bytes, bit/s, frames/s, time (bm_units.h,
 * REQ-UNIT-3). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
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

/*
 * The decimal number s starts with into *x, *end after it: strtod alone
 * would also take hex ("0x10G" is 16 G), "inf", "nan" and leading blanks,
 * none of which a user means.  0, or -EINVAL with "expected WHAT".
 */
static int decimal(const char *s, const char *what, double *x, char **end,
		   struct bm_error *err)
{
	const char *p = s;

	if (!((*p >= '0' && *p <= '9') || *p == '.'))
		return bm_errorf(err, "expected %s, got \"%.40s\"", what, s);
	for (; (*p >= '0' && *p <= '9') || *p == '.'; p++)
		;
	/* an exponent: e, a sign, digits; the rest is the unit's */
	if ((*p == 'e' || *p == 'E') &&
	    ((p[1] >= '0' && p[1] <= '9') ||
	     ((p[1] == '+' || p[1] == '-') && p[2] >= '0' && p[2] <= '9')))
		p += 2;
	for (; *p >= '0' && *p <= '9'; p++)
		;
	if (*p == 'x' || *p == 'X')
		return bm_errorf(err, "expected %s in decimal, got \"%.40s\"",
				 what, s);
	errno = 0;
	*x = strtod(s, end);
	if (*end == s || errno || !isfinite(*x))
		return bm_errorf(err, "expected %s, got \"%.40s\"", what, s);
	/* strtod may read further than the decimal did: never */
	*end = (char *)p < *end ? (char *)p : *end;
	return 0;
}

int bm_bytes_parse(const char *s, uint64_t *out, struct bm_error *err)
{
	char *end;
	double x, y;
	size_t i;

	if (decimal(s, "a number of bytes with an optional unit B, kB, KB, "
		    "KiB, MB or MiB", &x, &end, err))
		return -EINVAL;
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

/* A quantity's units: the names a user may write after the number and
 * what each is worth in the base unit. */
struct unit {
	const char *name;
	double mul;
};

static const struct unit rate_units[] = {
	{ "", 1.0 }, { "bps", 1.0 }, { "bit/s", 1.0 }, { "b/s", 1.0 },
	{ "k", 1e3 }, { "K", 1e3 }, { "kbps", 1e3 }, { "kbit/s", 1e3 },
	{ "M", 1e6 }, { "Mbps", 1e6 }, { "Mbit/s", 1e6 },
	{ "G", 1e9 }, { "Gbps", 1e9 }, { "Gbit/s", 1e9 },
	{ "T", 1e12 }, { "Tbps", 1e12 }, { "Tbit/s", 1e12 },
	{ NULL, 0 }
};

static const struct unit fps_units[] = {
	{ "", 1.0 }, { "fps", 1.0 }, { "k", 1e3 }, { "K", 1e3 },
	{ "kfps", 1e3 }, { "M", 1e6 }, { "Mfps", 1e6 }, { "G", 1e9 },
	{ NULL, 0 }
};

/* time in seconds */
static const struct unit time_units[] = {
	{ "", 1.0 }, { "s", 1.0 }, { "ms", 1e-3 }, { "us", 1e-6 },
	{ "\u00b5s", 1e-6 }, { "ns", 1e-9 }, { "min", 60.0 }, { "h", 3600.0 },
	{ NULL, 0 }
};

static const struct {
	const char *base;	/* the unit a parameter table names */
	const struct unit *units;
	double per_base;	/* the base unit in the table's units */
	const char *what, *hint;
} dims[] = {
	{ "bit/s", rate_units, 1.0, "a rate", "100M, 10G, 2.5Gbps" },
	{ "fps", fps_units, 1.0, "a frame rate", "14.88M, 500k, 1e6" },
	{ "s", time_units, 1.0, "a time", "1.5ms, 250us, 60s" },
	{ "ms", time_units, 1e3, "a time", "1.5ms, 250us, 2s" },
	{ "us", time_units, 1e6, "a time", "250us, 1.5ms" },
	{ "ns", time_units, 1e9, "a time", "500ns, 1.5us, 2ms" },
};

bool bm_unit_known(const char *unit)
{
	size_t i;

	for (i = 0; unit && i < sizeof(dims) / sizeof(dims[0]); i++)
		if (!strcmp(unit, dims[i].base))
			return true;
	return false;
}

int bm_quantity_parse(const char *s, const char *unit, double *out,
		      struct bm_error *err)
{
	const struct unit *u;
	char *end, what[64];
	size_t d;
	double x;

	for (d = 0; d < sizeof(dims) / sizeof(dims[0]); d++)
		if (unit && !strcmp(unit, dims[d].base))
			break;
	if (d == sizeof(dims) / sizeof(dims[0]))
		return bm_errorf(err, "expected a number");
	snprintf(what, sizeof(what), "%s (e.g. %s)", dims[d].what,
		 dims[d].hint);
	if (decimal(s, what, &x, &end, err))
		return -EINVAL;
	if (*end == ' ')
		end++;
	for (u = dims[d].units; u->name; u++)
		if (!strcmp(end, u->name))
			break;
	if (!u->name)
		return bm_errorf(err, "unknown unit \"%.16s\" for %s (e.g. %s)",
				 end, dims[d].what, dims[d].hint);
	*out = x * u->mul * dims[d].per_base;
	return 0;
}

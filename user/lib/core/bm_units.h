/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Byte counts with units, as a user types them (SPEC §2.4, REQ-UNIT-3):
 * the traffic-management draft's burst sizes are "64 KB" with KB = 1000
 * bytes in every worked example (AMB-02), and a tester that took only
 * plain integers would invite 65,536 where 64,000 was meant.
 */
#ifndef BM_UNITS_H
#define BM_UNITS_H

#include <stdbool.h>
#include <stdint.h>

#include "bm_trial.h"

/* The largest byte count bm_bytes_parse() takes: 1 PB, beyond any
 * buffer or burst a tester sends. */
#define BM_BYTES_MAX	1000000000000000ULL

/*
 * Parse s as a number of bytes: a decimal number (fractions allowed)
 * followed by an optional space and one of B, kB, KB (10^3), KiB (2^10),
 * MB (10^6), MiB (2^20); no unit means bytes.  The result must be a whole
 * number of bytes in [0, BM_BYTES_MAX].  0 and *out set, or -EINVAL with
 * a one-line reason in err (the caller prefixes the key).
 */
int bm_bytes_parse(const char *s, uint64_t *out, struct bm_error *err);

/*
 * One grammar for every rate, frame rate and time a user types (bmctl
 * --line-rate, --duration, --param KEY=VALUE, profiles): a decimal number
 * (no hexadecimal, no inf), an optional space and a unit of the quantity
 * unit names, as a parameter table does: "bit/s" (k, M, G, T, with or
 * without bps / bit/s: "100M", "10G", "2.5Gbps"), "fps" (k, M, G), and the
 * times "s", "ms", "us", "ns" (each takes ns, us, ms, s, min, h: "1.5ms"
 * is 1500 for a key in us).  No unit means the table's.  The value in
 * unit's terms into *out: 0, or -EINVAL with a one-line reason in err.
 */
int bm_quantity_parse(const char *s, const char *unit, double *out,
		      struct bm_error *err);

/* Does bm_quantity_parse() know unit? */
bool bm_unit_known(const char *unit);

#endif /* BM_UNITS_H */

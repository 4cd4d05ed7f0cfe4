/* SPDX-License-Identifier: GPL-2.0 */
/* bmctl: a result's headline as a spreadsheet's rows (summary.c). */
#ifndef BMCTL_SUMMARY_H
#define BMCTL_SUMMARY_H

#include <stdio.h>

#include <json-c/json.h>

/*
 * Write doc's per-size summary to f as CSV (RFC 4180): a header, then one
 * line per headline row its procedure declares (front_headline): the
 * procedure, each label part by its key, each field as stored (no k, M,
 * G; a repetition's mean) named with its unit ("throughput (fps)"),
 * booleans true or false, text in double quotes, nothing for no value,
 * last why a row has none.  0; EXIT_FAIL with a line on stderr when the
 * procedure declares no headline or f fails.
 */
int summary_csv(json_object *doc, FILE *f);

#endif /* BMCTL_SUMMARY_H */

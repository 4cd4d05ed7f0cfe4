/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Unit tests keep every result document they produce, so that make check
 * validates each against Documentation/result.schema.json: tools/run-unit
 * sets BM_TEST_RESULTS to a directory.
 */
#ifndef KEEP_RESULT_H
#define KEEP_RESULT_H

#include <json-c/json.h>

/* Write doc (not NULL) to $BM_TEST_RESULTS/NAME-PID-N.json when the
 * variable is set; does nothing otherwise.  Never fails a test. */
void bm_test_keep_result(json_object *doc, const char *name);

#endif /* KEEP_RESULT_H */

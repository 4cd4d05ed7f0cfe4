// SPDX-License-Identifier: GPL-2.0
/* See keep_result.h. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "keep_result.h"

void bm_test_keep_result(json_object *doc, const char *name)
{
	static unsigned int n;
	const char *dir = getenv("BM_TEST_RESULTS");
	char path[4096];

	if (!doc || !dir || !*dir)
		return;
	snprintf(path, sizeof(path), "%s/%s-%ld-%u.json", dir, name,
		 (long)getpid(), n++);
	json_object_to_file_ext(path, doc, JSON_C_TO_STRING_PLAIN);
}

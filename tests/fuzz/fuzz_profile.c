// SPDX-License-Identifier: GPL-2.0
/*
 * bmctl run --param @FILE, a profile (user/bmctl/profile.c): the input is
 * the file, read once as FILE.json and, in a bmctl built with libyaml,
 * once as FILE.yaml.
 *
 * Invariants: a refusal is one line naming the file; an accepted profile
 * is a JSON object that bmctl can send, one line of UTF-8 JSON that
 * bmd's request parser reads back.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bm_proto.h"
#include "bmctl.h"
#include "util.h"

static void read_as(const char *ext, const uint8_t *data, size_t size)
{
	char path[256], why[512] = "";
	json_object *o, *again;
	size_t n;
	char *line;

	snprintf(path, sizeof(path), "%s/profile%s", fuzz_dir(), ext);
	fuzz_write_file(path, data, size, 0600);
	o = profile_read(path, why, sizeof(why));
	if (!o) {
		fuzz_one_line(why, "profile refusal");
		if (strncmp(why, path, strlen(path)))
			fuzz_fail("profile refusal without the file: %s", why);
		return;
	}
	if (!json_object_is_type(o, json_type_object))
		fuzz_fail("profile %s: not an object", ext);
	/* What bmctl sends: one protocol line, which must read back. */
	line = bm_proto_line(o, &n);
	if (!line)
		fuzz_fail("out of memory");
	if (bm_utf8_check(line, n) < n || memchr(line, '\n', n - 1))
		fuzz_fail("profile %s: not one UTF-8 line: %s", ext, line);
	again = json_tokener_parse(line);
	if (!json_object_is_type(again, json_type_object))
		fuzz_fail("profile %s: its line does not read back: %s", ext,
			  line);
	json_object_put(again);
	free(line);
	json_object_put(o);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	read_as(".json", data, size);
#ifdef BM_HAVE_YAML
	read_as(".yaml", data, size);
#endif
	return 0;
}

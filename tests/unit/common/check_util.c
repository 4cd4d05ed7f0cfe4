// SPDX-License-Identifier: GPL-2.0
/* Shared helpers of the procedure unit tests (check_util.h). */
#include <stdio.h>

#include "check_util.h"

struct bm_backend *sim_ports_new(const struct bm_sim_params *p, unsigned int n,
				 const char *prefix)
{
	struct bm_error err = { "" };
	struct bm_backend *be = bm_sim_new(p, &err);
	unsigned int i;

	ck_assert_msg(be, "bm_sim_new: %s", err.msg);
	ck_assert_uint_le(n, BM_BACKEND_MAX_PORTS);
	be->n_ports = n;
	for (i = 0; i < n; i++)
		snprintf(be->port_names[i], sizeof(be->port_names[i]), "%s%u",
			 prefix, i + 1);
	return be;
}

json_object *tj_get(json_object *o, const char *key)
{
	json_object *v = NULL;

	ck_assert_msg(json_object_object_get_ex(o, key, &v), "no key %s", key);
	return v;
}

double tj_num(json_object *o, const char *key)
{
	return json_object_get_double(tj_get(o, key));
}

int tj_run_suite(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}

bool tj_utf8_valid(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	static const unsigned long min_cp[] = { 0, 0, 0x80, 0x800, 0x10000 };
	size_t i = 0, k, len;
	unsigned long cp;

	while (i < n) {
		/* the lead byte: the sequence's length and its payload */
		if (u[i] < 0x80)
			len = 1;
		else if ((u[i] & 0xe0) == 0xc0)
			len = 2;
		else if ((u[i] & 0xf0) == 0xe0)
			len = 3;
		else if ((u[i] & 0xf8) == 0xf0)
			len = 4;
		else
			return false;
		cp = u[i] & (0xff >> (len == 1 ? 1 : len + 1));
		if (i + len > n)
			return false;
		for (k = 1; k < len; k++) {
			if ((u[i + k] & 0xc0) != 0x80)
				return false;
			cp = cp << 6 | (u[i + k] & 0x3f);
		}
		if (cp < min_cp[len] || cp > 0x10ffff ||
		    (cp >= 0xd800 && cp <= 0xdfff))
			return false;
		i += len;
	}
	return true;
}

bool tj_has_deviation(json_object *doc, const char *needle)
{
	json_object *a = tj_get(doc, "deviations");
	size_t i;

	for (i = 0; i < json_object_array_length(a); i++)
		if (strstr(json_object_get_string(json_object_array_get_idx(a, i)),
			   needle))
			return true;
	return false;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * bmctl run --goal: one RFC 9971 Search Goal (§4.6.7) per option, its
 * attributes named as the RFC names them (less "Goal"), for the
 * procedures that take a "goals" parameter; and the ready profiles a
 * bare --param @NAME finds.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bmctl.h"

#ifndef BM_PROFILE_DIR
#define BM_PROFILE_DIR "/usr/share/bmgen/profiles"
#endif

static const struct {
	const char *key;
	char unit;		/* 's': seconds, '%': a ratio */
} goal_keys[] = {
	{ "final_trial_duration", 's' }, { "duration_sum", 's' },
	{ "loss_ratio", '%' }, { "exceed_ratio", '%' }, { "width", '%' },
	{ "initial_trial_duration", 's' },
};

#define N_KEYS (sizeof(goal_keys) / sizeof(goal_keys[0]))

/* The value of one KEY=VALUE: a number, then the key's unit ("s"; "%"
 * divides by 100); 0, or -EINVAL. */
static int goal_value(const char *v, size_t len, char unit, double *out)
{
	char buf[64], *end;

	if (!len || len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, v, len);
	buf[len] = '\0';
	*out = strtod(buf, &end);
	if (end == buf || !isfinite(*out))
		return -EINVAL;
	if (*end == unit && !end[1]) {
		/* 0.5% is the ratio 0.005 as written, not 0.5 / 100's
		 * 0.0050000000000000001: the percentage to 15 digits */
		if (unit == '%') {
			snprintf(buf, sizeof(buf), "%.15g", *out / 100.0);
			*out = strtod(buf, NULL);
		}
		return 0;
	}
	return *end ? -EINVAL : 0;
}

json_object *goal_parse(const char *spec, char *why, size_t size)
{
	json_object *g = json_object_new_object();
	const char *p = spec, *eq, *end;
	size_t k;
	double x;

	while (g && *p) {
		end = strchr(p, ',');
		if (!end)
			end = p + strlen(p);
		eq = memchr(p, '=', (size_t)(end - p));
		for (k = 0; eq && k < N_KEYS; k++)
			if (strlen(goal_keys[k].key) == (size_t)(eq - p) &&
			    !strncmp(p, goal_keys[k].key, (size_t)(eq - p)))
				break;
		if (!eq || k == N_KEYS) {
			snprintf(why, size, "'%.*s': expected KEY=VALUE with KEY "
				 "one of final_trial_duration, duration_sum, "
				 "loss_ratio, exceed_ratio, width, "
				 "initial_trial_duration", (int)(end - p), p);
			break;
		}
		if (json_object_object_get_ex(g, goal_keys[k].key, NULL)) {
			snprintf(why, size, "%s given twice", goal_keys[k].key);
			break;
		}
		if (goal_value(eq + 1, (size_t)(end - eq - 1),
			       goal_keys[k].unit, &x)) {
			snprintf(why, size, "%s: '%.*s' is no number%s",
				 goal_keys[k].key, (int)(end - eq - 1), eq + 1,
				 goal_keys[k].unit == 's' ? " of seconds" :
				 " (a ratio, or N%)");
			break;
		}
		json_object_object_add(g, goal_keys[k].key,
				       json_object_new_double(x));
		p = *end ? end + 1 : end;
	}
	if (g && *p) {
		json_object_put(g);
		return NULL;
	}
	if (g && !json_object_object_length(g)) {
		snprintf(why, size, "an empty goal");
		json_object_put(g);
		return NULL;
	}
	return g;
}

const char *profile_path(const char *name, char *buf, size_t size)
{
	const char *dir = getenv("BMCTL_PROFILE_DIR");

	if (strchr(name, '/') || !access(name, F_OK))
		return name;
	snprintf(buf, size, "%s/%s%s", dir && *dir ? dir : BM_PROFILE_DIR,
		 name, strchr(name, '.') ? "" : ".json");
	return access(buf, F_OK) ? name : buf;
}

// SPDX-License-Identifier: GPL-2.0
/* Strict JSON parameter tables and result builders (see bm_json.h). */
#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "bm_json.h"
#include "bm_units.h"

bool bm_json_number(json_object *v, double *out)
{
	enum json_type t = json_object_get_type(v);

	if (t != json_type_int && t != json_type_double)
		return false;
	*out = json_object_get_double(v);
	return isfinite(*out);
}

static int range_check(const struct bm_jkey *k, double x, const char *what,
		       struct bm_error *err)
{
	bool lo_bad = (k->flags & BM_JK_MIN_EXCL) ? x <= k->min : x < k->min;
	bool hi_bad = (k->flags & BM_JK_MAX_EXCL) ? x >= k->max : x > k->max;

	if (!lo_bad && !hi_bad)
		return 0;
	return bm_errorf(err, "%s: %s: must be in %c%g, %g%c, got %g", what,
			 k->key, (k->flags & BM_JK_MIN_EXCL) ? '(' : '[', k->min,
			 k->max, (k->flags & BM_JK_MAX_EXCL) ? ')' : ']', x);
}

/* Prefix err's reason with "what: key: "; -EINVAL. */
static int prefix(struct bm_error *err, const char *what, const char *key)
{
	char tmp[sizeof(err->msg)];

	if (!err)
		return -EINVAL;
	memcpy(tmp, err->msg, sizeof(tmp));
	return bm_errorf(err, "%s: %s: %s", what, key, tmp);
}

/*
 * A string with a unit for a key whose unit bm_quantity_parse() knows
 * ("100M" for bit/s, "1.5ms" for s): 1 and *x in the key's unit, 0 when v
 * is no such string, -EINVAL with "what: key: reason" in err.
 */
static int quantity(const struct bm_jkey *k, const char *unit,
		    json_object *v, double *x, const char *what,
		    struct bm_error *err)
{
	const char *str = json_object_get_string(v);
	size_t n = str ? strlen(str) : 0;

	/* a string must name its unit: "60" is a number in quotes, which
	 * strict types refuse as everywhere else */
	if (!json_object_is_type(v, json_type_string) ||
	    !bm_unit_known(unit) || !n ||
	    (str[n - 1] >= '0' && str[n - 1] <= '9') || str[n - 1] == '.')
		return 0;
	if (bm_quantity_parse(json_object_get_string(v), unit, x, err))
		return prefix(err, what, k->key);
	return 1;
}

static int parse_one(const struct bm_jkey *k, const char *unit,
		     json_object *v, void *base, const char *what,
		     struct bm_error *err)
{
	char *field = (char *)base + k->off;
	enum json_type t = json_object_get_type(v);
	double x;
	int64_t i;
	size_t n;
	int q;

	/* null is what a result's params show for a key left to its
	 * derived default (bm_json_params_to_json): the same key given back
	 * keeps that default, so a result's params resubmit as they are */
	if (t == json_type_null &&
	    k->flags & (BM_JK_DERIVED | BM_JK_ZERO_NULL | BM_JK_NEG_NULL))
		return 0;

	switch (k->type) {
	case BM_J_DOUBLE:
		q = quantity(k, unit, v, &x, what, err);
		if (q < 0)
			return q;
		if (!q && !bm_json_number(v, &x))
			return bm_errorf(err, "%s: %s: expected a number%s%s%s",
					 what, k->key,
					 bm_unit_known(unit) ? " (" : "",
					 bm_unit_known(unit) ? unit : "",
					 bm_unit_known(unit) ?
					 ") or a string with a unit" : "");
		if (range_check(k, x, what, err))
			return -EINVAL;
		memcpy(field, &x, sizeof(x));
		return 0;
	case BM_J_U64:
	case BM_J_UINT:
	case BM_J_U32:
	case BM_J_INT:
		q = quantity(k, unit, v, &x, what, err);
		if (q < 0)
			return q;
		if (q) {
			/* "1.5us" is 1500 ns; "1.5ns" no whole number */
			if (fabs(x - nearbyint(x)) > 1e-6 * fmax(1.0, fabs(x)) ||
			    fabs(x) > 9e15)
				return bm_errorf(err, "%s: %s: \"%s\" is not a "
						 "whole number of %s", what,
						 k->key,
						 json_object_get_string(v),
						 unit);
			i = (int64_t)nearbyint(x);
		} else if (t != json_type_int) {
			return bm_errorf(err, "%s: %s: expected an integer",
					 what, k->key);
		} else {
			errno = 0;
			i = json_object_get_int64(v);
			if (errno == ERANGE)
				return bm_errorf(err, "%s: %s: integer out of "
						 "range", what, k->key);
		}
		if (range_check(k, (double)i, what, err))
			return -EINVAL;
		if (k->type == BM_J_U64) {
			uint64_t u = (uint64_t)i;

			memcpy(field, &u, sizeof(u));
		} else if (k->type == BM_J_UINT) {
			unsigned int u = (unsigned int)i;

			memcpy(field, &u, sizeof(u));
		} else if (k->type == BM_J_U32) {
			uint32_t u = (uint32_t)i;

			memcpy(field, &u, sizeof(u));
		} else {
			int s = (int)i;

			memcpy(field, &s, sizeof(s));
		}
		return 0;
	case BM_J_BOOL:
		if (t != json_type_boolean)
			return bm_errorf(err, "%s: %s: expected true or false",
					 what, k->key);
		*(bool *)field = json_object_get_boolean(v);
		return 0;
	case BM_J_ENUM:
		if (t == json_type_string) {
			for (n = 0; k->names[n]; n++) {
				if (!strcmp(k->names[n],
					    json_object_get_string(v))) {
					int s = (int)n;

					memcpy(field, &s, sizeof(s));
					return 0;
				}
			}
		}
		return bm_errorf(err, "%s: %s: expected one of \"%s\"%s%s%s",
				 what, k->key, k->names[0],
				 k->names[1] ? " or \"" : "",
				 k->names[1] ? k->names[1] : "",
				 k->names[1] ? "\" ..." : "");
	case BM_J_BYTES: {
		uint64_t u;

		if (t == json_type_string) {
			if (bm_bytes_parse(json_object_get_string(v), &u, err))
				return prefix(err, what, k->key);
			x = (double)u;
		} else if (t == json_type_int || t == json_type_double) {
			/* 1e6 is a JSON number too; a fraction is no byte count */
			if (!bm_json_number(v, &x) || x != floor(x) || x < 0 ||
			    x > (double)BM_BYTES_MAX)
				return bm_errorf(err, "%s: %s: expected a whole "
						 "number of bytes", what,
						 k->key);
			u = (uint64_t)x;
		} else {
			return bm_errorf(err, "%s: %s: expected bytes (a number "
					 "or a string such as \"64KB\")", what,
					 k->key);
		}
		if (range_check(k, x, what, err))
			return -EINVAL;
		memcpy(field, &u, sizeof(u));
		return 0;
	}
	case BM_J_CUSTOM:
		if (!k->parse(v, base, k->key, err))
			return 0;
		/* Prefix the custom parser's reason like every other one. */
		if (err) {
			size_t w = strlen(what) + 2, m = sizeof(err->msg);

			if (w < m) {
				memmove(err->msg + w, err->msg, m - w - 1);
				err->msg[m - 1] = '\0';
				memcpy(err->msg, what, w - 2);
				memcpy(err->msg + w - 2, ": ", 2);
			}
		}
		return -EINVAL;
	}
	return bm_errorf(err, "%s: %s: internal error", what, k->key);
}

/* The entry named key of a table of entries stride bytes apart, each
 * starting with a struct bm_jkey, or NULL. */
static const struct bm_jkey *find_key(const void *tab, size_t stride,
				      unsigned int mask, const char *key)
{
	const char *p = tab;
	const struct bm_jkey *k;

	for (;; p += stride) {
		k = (const struct bm_jkey *)p;
		if (!k->key)
			return NULL;
		if (!strcmp(k->key, key) && (!k->mask || (k->mask & mask)))
			return k;
	}
}

/* params: tab is of struct bm_param, whose units a value may carry */
static int parse_table(json_object *obj, const void *tab, size_t stride,
		       bool params, unsigned int mask, void *base,
		       const char *what, struct bm_error *err)
{
	const struct bm_jkey *k;

	if (!obj)
		return 0;
	if (json_object_get_type(obj) != json_type_object)
		return bm_errorf(err, "%s: parameters must be a JSON object",
				 what);
	json_object_object_foreach(obj, key, v) {
		k = find_key(tab, stride, mask, key);
		if (!k)
			return bm_errorf(err, "%s: %s: unknown parameter", what,
					 key);
		if (parse_one(k, params ? ((const struct bm_param *)k)->unit :
			      NULL, v, base, what, err))
			return -EINVAL;
	}
	return 0;
}

int bm_json_parse_keys(json_object *obj, const struct bm_jkey *keys,
		       unsigned int mask, void *base, const char *what,
		       struct bm_error *err)
{
	return parse_table(obj, keys, sizeof(*keys), false, mask, base, what,
			   err);
}

int bm_json_parse_params(json_object *obj, const struct bm_param *keys,
			 unsigned int mask, void *base, const char *what,
			 struct bm_error *err)
{
	return parse_table(obj, keys, sizeof(*keys), true, mask, base, what,
			   err);
}

const struct bm_param *bm_json_find_param(const struct bm_param *keys,
					  unsigned int mask, const char *key)
{
	/* jk is the first member: the entry and its jk share an address. */
	return (const struct bm_param *)find_key(keys, sizeof(*keys), mask,
						 key);
}

const char *bm_json_param_type(const struct bm_param *k)
{
	switch (k->jk.type) {
	case BM_J_DOUBLE:
		return "number";
	case BM_J_U64:
	case BM_J_UINT:
	case BM_J_U32:
	case BM_J_INT:
		return "integer";
	case BM_J_BOOL:
		return "boolean";
	case BM_J_ENUM:
		return "enum";
	case BM_J_BYTES:
		return "bytes";
	case BM_J_CUSTOM:
		break;
	}
	return k->type ? k->type : "custom";
}

json_object *bm_json_params_schema(const struct bm_param *keys,
				   unsigned int mask, json_object *defaults)
{
	json_object *a = json_object_new_array(), *o, *e, *d;
	const struct bm_param *k;
	const struct bm_jkey *j;
	bool ranged;
	size_t n;

	for (k = keys; k->jk.key; k++) {
		j = &k->jk;
		if (j->mask && !(j->mask & mask))
			continue;
		o = json_object_new_object();
		bm_json_add_str(o, "key", j->key);
		bm_json_add_str(o, "type", bm_json_param_type(k));
		bm_json_add_str(o, "unit", k->unit ? k->unit : "");
		/* Custom keys give the range of their elements, if any. */
		ranged = j->type != BM_J_CUSTOM || j->min != 0.0 ||
			 j->max != 0.0;
		if (j->type != BM_J_BOOL && j->type != BM_J_ENUM && ranged) {
			bm_json_add_double(o, "min", j->min);
			bm_json_add_double(o, "max", j->max);
			bm_json_add_bool(o, "min_exclusive",
					 j->flags & BM_JK_MIN_EXCL);
			bm_json_add_bool(o, "max_exclusive",
					 j->flags & BM_JK_MAX_EXCL);
		}
		d = NULL;
		if (!(j->flags & BM_JK_DERIVED) && defaults &&
		    json_object_object_get_ex(defaults, j->key, &d))
			d = json_object_get(d);
		json_object_object_add(o, "default", d);
		bm_json_add_str(o, "help", k->help ? k->help : "");
		if (j->type == BM_J_ENUM) {
			e = json_object_new_array();
			for (n = 0; j->names && j->names[n]; n++)
				json_object_array_add(e, json_object_new_string(
					j->names[n]));
			json_object_object_add(o, "enum", e);
		}
		json_object_array_add(a, o);
	}
	return a;
}

void bm_json_add_double(json_object *obj, const char *key, double x)
{
	json_object_object_add(obj, key,
			       isfinite(x) ? json_object_new_double(x) : NULL);
}

void bm_json_add_u64(json_object *obj, const char *key, uint64_t x)
{
	json_object_object_add(obj, key, json_object_new_uint64(x));
}

void bm_json_add_str(json_object *obj, const char *key, const char *s)
{
	json_object_object_add(obj, key, s ? json_object_new_string(s) : NULL);
}

void bm_json_add_bool(json_object *obj, const char *key, bool b)
{
	json_object_object_add(obj, key, json_object_new_boolean(b));
}

int bm_json_parse_sizes(json_object *v, const char *key, uint32_t lo,
			uint32_t hi, uint32_t *out, size_t max, size_t *n,
			struct bm_error *err)
{
	size_t len, i, j;
	int64_t f;

	if (json_object_get_type(v) != json_type_array)
		return bm_errorf(err, "%s: expected an array of frame sizes",
				 key);
	len = json_object_array_length(v);
	if (!len || len > max)
		return bm_errorf(err, "%s: expected 1 to %zu frame sizes", key,
				 max);
	for (i = 0; i < len; i++) {
		json_object *e = json_object_array_get_idx(v, i);

		if (json_object_get_type(e) != json_type_int)
			return bm_errorf(err, "%s[%zu]: expected an integer",
					 key, i);
		f = json_object_get_int64(e);
		if (f < lo || f > hi)
			return bm_errorf(err, "%s[%zu]: must be in [%u, %u], "
					 "got %lld", key, i, lo, hi,
					 (long long)f);
		for (j = 0; j < i; j++)
			if (out[j] == (uint32_t)f)
				return bm_errorf(err, "%s[%zu]: duplicate size "
						 "%lld", key, i, (long long)f);
		out[i] = (uint32_t)f;
	}
	*n = len;
	return 0;
}

void bm_json_add_u32_array(json_object *obj, const char *key,
			   const uint32_t *v, size_t n)
{
	json_object *a = json_object_new_array();
	size_t i;

	for (i = 0; i < n; i++)
		json_object_array_add(a, json_object_new_int64(v[i]));
	json_object_object_add(obj, key, a);
}

bool bm_json_ip4(json_object *v, uint8_t a[4])
{
	return json_object_get_type(v) == json_type_string &&
	       inet_pton(AF_INET, json_object_get_string(v), a) == 1;
}

void bm_ip4_text(const uint8_t a[4], char buf[16])
{
	snprintf(buf, 16, "%u.%u.%u.%u", a[0], a[1], a[2], a[3]);
}

void bm_json_add_str_once(json_object *arr, const char *s)
{
	size_t i, n = json_object_array_length(arr);

	for (i = 0; i < n; i++)
		if (!strcmp(json_object_get_string(
			json_object_array_get_idx(arr, i)), s))
			return;
	json_object_array_add(arr, json_object_new_string(s));
}

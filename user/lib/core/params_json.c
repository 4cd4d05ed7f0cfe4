// SPDX-License-Identifier: GPL-2.0
/*
 * A parameter table's values written back as JSON (bm_json.h): the
 * result's "params" and a procedure's defaults, from the same rows that
 * parse them, so that a key is written once.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "bm_json.h"

static const struct bm_jwriter *writer_of(const struct bm_jkey *k,
					  const struct bm_jwriter *w)
{
	for (; w && w->parse; w++)
		if (w->parse == k->parse)
			return w;
	return NULL;
}

static json_object *enum_json(const struct bm_jkey *k, int v)
{
	int n;

	for (n = 0; k->names[n]; n++)
		if (n == v)
			return json_object_new_string(k->names[n]);
	return NULL;
}

/* 0 is no value k takes (its range starts above it) while k's default
 * is derived: a 0 in k's field is k unset, shown as null. */
static bool zero_is_unset(const struct bm_jkey *k)
{
	return k->flags & BM_JK_DERIVED &&
	       (k->min > 0 || (k->min == 0 && k->flags & BM_JK_MIN_EXCL));
}

json_object *bm_json_key_value(const struct bm_jkey *k, const void *base,
				const struct bm_jwriter *writers)
{
	const char *field = (const char *)base + k->off;
	const struct bm_jwriter *w;
	uint64_t u = 0;
	double x;
	int i;

	switch (k->type) {
	case BM_J_DOUBLE:
		memcpy(&x, field, sizeof(x));
		if (!isfinite(x) || (k->flags & BM_JK_ZERO_NULL && x == 0) ||
		    (k->flags & BM_JK_NEG_NULL && x < 0) ||
		    (x == 0 && zero_is_unset(k)))
			return NULL;
		return json_object_new_double(x);
	case BM_J_U64:
	case BM_J_BYTES:
		memcpy(&u, field, sizeof(uint64_t));
		break;
	case BM_J_UINT: {
		unsigned int v;

		memcpy(&v, field, sizeof(v));
		u = v;
		break;
	}
	case BM_J_U32: {
		uint32_t v;

		memcpy(&v, field, sizeof(v));
		u = v;
		break;
	}
	case BM_J_INT:
		memcpy(&i, field, sizeof(i));
		return json_object_new_int64(i);
	case BM_J_BOOL:
		return json_object_new_boolean(*(const bool *)field);
	case BM_J_ENUM:
		memcpy(&i, field, sizeof(i));
		return enum_json(k, i);
	case BM_J_CUSTOM:
		w = writer_of(k, writers);
		return w ? w->to_json(w, k, base) : NULL;
	}
	if ((k->flags & BM_JK_ZERO_NULL || zero_is_unset(k)) && !u)
		return NULL;
	return json_object_new_uint64(u);
}

json_object *bm_json_params_to_json(const struct bm_param *keys,
				    unsigned int mask, const void *base,
				    const struct bm_jwriter *writers)
{
	json_object *o = json_object_new_object();
	const struct bm_jkey *k;

	for (; keys->jk.key; keys++) {
		k = &keys->jk;
		if (k->mask && !(k->mask & mask))
			continue;
		json_object_object_add(o, k->key,
				       bm_json_key_value(k, base, writers));
	}
	return o;
}

json_object *bm_json_string_at(const struct bm_jwriter *w,
			       const struct bm_jkey *k, const void *base)
{
	(void)w;
	return json_object_new_string((const char *)base + k->off);
}

enum list_elem { LIST_U32, LIST_UINT, LIST_DOUBLE };

/* Row k's list in base, its count at w->n_off: a new JSON array, or NULL
 * for an empty one of a BM_JK_ZERO_NULL row. */
static json_object *list_json(const struct bm_jwriter *w,
			      const struct bm_jkey *k, const void *base,
			      enum list_elem e)
{
	const char *v = (const char *)base + k->off;
	json_object *a;
	unsigned int u;
	uint32_t u32;
	double x;
	size_t n, i;

	memcpy(&n, (const char *)base + w->n_off, sizeof(n));
	if (!n && k->flags & BM_JK_ZERO_NULL)
		return NULL;
	a = json_object_new_array();
	for (i = 0; i < n; i++) {
		if (e == LIST_U32) {
			memcpy(&u32, v + i * sizeof(u32), sizeof(u32));
			json_object_array_add(a, json_object_new_int64(u32));
		} else if (e == LIST_UINT) {
			memcpy(&u, v + i * sizeof(u), sizeof(u));
			json_object_array_add(a, json_object_new_int64(u));
		} else {
			memcpy(&x, v + i * sizeof(x), sizeof(x));
			json_object_array_add(a, json_object_new_double(x));
		}
	}
	return a;
}

json_object *bm_json_u32s_at(const struct bm_jwriter *w,
			     const struct bm_jkey *k, const void *base)
{
	return list_json(w, k, base, LIST_U32);
}

json_object *bm_json_uints_at(const struct bm_jwriter *w,
			      const struct bm_jkey *k, const void *base)
{
	return list_json(w, k, base, LIST_UINT);
}

json_object *bm_json_doubles_at(const struct bm_jwriter *w,
				const struct bm_jkey *k, const void *base)
{
	return list_json(w, k, base, LIST_DOUBLE);
}

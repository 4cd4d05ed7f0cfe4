/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Strict, table-driven parsing of flat JSON parameter objects into C
 * structs, and small JSON builders shared by the result documents.
 * Every rejection is one line that names the key (REQ-REP-1 inputs are
 * validated at construction, as CSIT's MLRsearch does).
 */
#ifndef BM_JSON_H
#define BM_JSON_H

#include <stddef.h>

#include <json-c/json.h>

#include "bm_trial.h"

enum bm_jtype {
	BM_J_DOUBLE,	/* double, any JSON number */
	BM_J_U64,	/* uint64_t, JSON integer */
	BM_J_UINT,	/* unsigned int, JSON integer */
	BM_J_U32,	/* uint32_t, JSON integer */
	BM_J_INT,	/* int, JSON integer */
	BM_J_BOOL,	/* bool */
	BM_J_ENUM,	/* int, JSON string from names[] (index) */
	BM_J_CUSTOM,	/* parse() does the work */
};

#define BM_JK_MIN_EXCL	0x1u	/* value must be > min */
#define BM_JK_MAX_EXCL	0x2u	/* value must be < max */

struct bm_jkey {
	const char *key;
	enum bm_jtype type;
	size_t off;			/* offset of the field in the struct */
	double min, max;		/* numeric range, inclusive by default */
	unsigned int flags;		/* BM_JK_* */
	unsigned int mask;		/* applies to these users (0 = all) */
	const char *const *names;	/* BM_J_ENUM: NULL-terminated */
	int (*parse)(json_object *v, void *base, const char *key,
		     struct bm_error *err);	/* BM_J_CUSTOM */
};

/*
 * Parse every key of obj (NULL = nothing to do) into base using the
 * NULL-key-terminated table keys, accepting only entries whose mask
 * shares a bit with mask (or is 0).  what prefixes messages ("sim").
 * 0, or -EINVAL with "what: key: reason" in err.
 */
int bm_json_parse_keys(json_object *obj, const struct bm_jkey *keys,
		       unsigned int mask, void *base, const char *what,
		       struct bm_error *err);

/* The number in v as a double; false when v is not a JSON number. */
bool bm_json_number(json_object *v, double *out);

/* Add key: number to obj, or null when x is not finite. */
void bm_json_add_double(json_object *obj, const char *key, double x);

/* Add key: unsigned integer to obj. */
void bm_json_add_u64(json_object *obj, const char *key, uint64_t x);

/* Add key: string to obj. */
void bm_json_add_str(json_object *obj, const char *key, const char *s);

/* Add key: bool to obj. */
void bm_json_add_bool(json_object *obj, const char *key, bool b);

#endif /* BM_JSON_H */

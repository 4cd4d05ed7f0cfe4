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
	BM_J_BYTES,	/* uint64_t bytes: a JSON integer, or a string with
			 * a unit B, kB, KB, KiB, MB, MiB (REQ-UNIT-3) */
	BM_J_CUSTOM,	/* parse() does the work */
};

#define BM_JK_MIN_EXCL	0x1u	/* value must be > min */
#define BM_JK_MAX_EXCL	0x2u	/* value must be < max */
/* The default is worked out at run time (from the line rate, another key,
 * the backend): a schema shows it as null and the help says how. */
#define BM_JK_DERIVED	0x4u
/* Written back as null when 0 (a list: empty), or a double when negative:
 * the value a key whose default is derived keeps while it is unset
 * (bm_json_params_to_json). */
#define BM_JK_ZERO_NULL	0x8u
#define BM_JK_NEG_NULL	0x10u

struct bm_jkey {
	const char *key;
	enum bm_jtype type;
	size_t off;			/* offset of the field in the struct (a
					 * custom key's: for a writer that
					 * reads it by offset) */
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

/*
 * A parameter a user sets: its parsing (jk) and what a user reads about it
 * (bmctl run PROC --help, bm_json_params_schema()).  A table of these is
 * what a procedure's parameters are; jk must stay the first member.
 */
struct bm_param {
	struct bm_jkey jk;
	const char *unit;	/* "s", "fps", "B", "%", "frames", "bit/s", "" */
	const char *help;	/* one line */
	const char *type;	/* BM_J_CUSTOM: schema type, "integer array" */
};

/* bm_json_parse_keys() over a NULL-key-terminated bm_param table. */
int bm_json_parse_params(json_object *obj, const struct bm_param *keys,
			 unsigned int mask, void *base, const char *what,
			 struct bm_error *err);

/*
 * How the BM_J_CUSTOM rows of a table are written back, each found by its
 * row's parse; a list of these ends with a NULL parse.  The rows cannot
 * hold it themselves: a new member would leave every table's positional
 * rows an initializer short (-Wmissing-field-initializers).
 */
struct bm_jwriter {
	int (*parse)(json_object *v, void *base, const char *key,
		     struct bm_error *err);
	/* The value of row k in base: a new JSON value, NULL for null. */
	json_object *(*to_json)(const struct bm_jwriter *w,
				const struct bm_jkey *k, const void *base);
	size_t n_off;		/* a list's count, a size_t in base */
};

/*
 * The parameters in base as a new JSON object (a result's "params"):
 * every entry of keys that applies to mask, in the table's order, read by
 * offset and type: a double not finite, or one at its unset value
 * (BM_JK_ZERO_NULL, BM_JK_NEG_NULL; or 0 for a BM_JK_DERIVED key whose
 * range leaves 0 out), is null; an enum is its name; a
 * custom key is what its writer in writers gives (null without one).
 */
json_object *bm_json_params_to_json(const struct bm_param *keys,
				    unsigned int mask, const void *base,
				    const struct bm_jwriter *writers);

/* Row k's value in base as bm_json_params_to_json writes it (NULL for
 * null; a custom key's from its writer in writers). */
json_object *bm_json_key_value(const struct bm_jkey *k, const void *base,
				const struct bm_jwriter *writers);

/* Custom keys' writers of what is at base + k->off: a NUL-terminated
 * string; a list of w->n_off's count of uint32_t, unsigned int or double
 * (null when empty with BM_JK_ZERO_NULL). */
json_object *bm_json_string_at(const struct bm_jwriter *w,
			       const struct bm_jkey *k, const void *base);
json_object *bm_json_u32s_at(const struct bm_jwriter *w,
			     const struct bm_jkey *k, const void *base);
json_object *bm_json_uints_at(const struct bm_jwriter *w,
			      const struct bm_jkey *k, const void *base);
json_object *bm_json_doubles_at(const struct bm_jwriter *w,
				const struct bm_jkey *k, const void *base);

/* The entry of keys named key that applies to mask, or NULL. */
const struct bm_param *bm_json_find_param(const struct bm_param *keys,
					  unsigned int mask, const char *key);

/* Schema type of a parameter: "number", "integer", "boolean", "enum",
 * "bytes", or the custom type; never NULL. */
const char *bm_json_param_type(const struct bm_param *k);

/*
 * The schema of the keys that apply to mask, as a new JSON array of
 * {key, type, unit, min, max, min_exclusive, max_exclusive, default, help,
 * enum}: default is defaults[key] (null for BM_JK_DERIVED keys), so that
 * a default is written once, where the procedure fills its defaults; min
 * and max are null where unbounded, and absent for non-numbers.
 */
json_object *bm_json_params_schema(const struct bm_param *keys,
				   unsigned int mask, json_object *defaults);

/*
 * Parse len bytes of text as one JSON value exactly as RFC 8259 has it
 * (json_strict.c): no comments, single quotes, NaN, Infinity, trailing
 * commas, leading zeros or raw control characters, no name twice in one
 * object, no NUL, nothing but whitespace after the value, at most
 * max_depth levels of nesting.  The value (NULL for the text "null"), or
 * NULL with *why the reason (a static string) and *at its byte offset.
 */
json_object *bm_json_parse_strict(const char *text, size_t len,
				  unsigned int max_depth, const char **why,
				  size_t *at);

/* The number in v as a double; false when v is not a JSON number. */
bool bm_json_number(json_object *v, double *out);

/* Add key: number to obj, or null when x is not finite. */
void bm_json_add_double(json_object *obj, const char *key, double x);

/* Add key: unsigned integer to obj. */
void bm_json_add_u64(json_object *obj, const char *key, uint64_t x);

/* Add key: string to obj. */
void bm_json_add_str(json_object *obj, const char *key, const char *s);

/* Append string s to the array arr unless it holds it already (a result's
 * deviations, each said once). */
void bm_json_add_str_once(json_object *arr, const char *s);

/* Is v a string "a.b.c.d"?  Its IPv4 address into a when it is. */
bool bm_json_ip4(json_object *v, uint8_t a[4]);

/* "a.b.c.d" of a into buf (16 bytes: the longest and its NUL). */
void bm_ip4_text(const uint8_t a[4], char buf[16]);

/* Add key: bool to obj. */
void bm_json_add_bool(json_object *obj, const char *key, bool b);

/*
 * A JSON array of 1..max distinct integer frame sizes in [lo, hi] into
 * out[], their number in *n; 0, or -EINVAL with "key[i]: reason" in err.
 */
int bm_json_parse_sizes(json_object *v, const char *key, uint32_t lo,
			uint32_t hi, uint32_t *out, size_t max, size_t *n,
			struct bm_error *err);

/* Add key: [v[0], ..., v[n-1]] (frame sizes) to the JSON object obj. */
void bm_json_add_u32_array(json_object *obj, const char *key,
			   const uint32_t *v, size_t n);

#endif /* BM_JSON_H */

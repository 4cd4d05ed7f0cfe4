/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The results directory (Documentation/bmd.8.md, FILES):
 *   DIR/<job>.json        result document (SPEC REQ-REP-1) with meta
 *   DIR/<job>.csv         one row per trial
 *   DIR/jobs/<job>.json   job state, so that a restart of bmd loses nothing
 * Every file is written atomically: temp file, fsync, rename, fsync dir.
 */
#ifndef BM_STORE_H
#define BM_STORE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <json-c/json.h>

#include "bm_trial.h"

/* Write len bytes to dir/name atomically, mode 0644; 0 or -errno with err
 * set. */
int bm_write_atomic(const char *dir, const char *name, const char *data,
		    size_t len, struct bm_error *err);

/* bm_write_atomic with the file's mode (whatever the umask). */
int bm_write_atomic_mode(const char *dir, const char *name, const char *data,
			 size_t len, mode_t mode, struct bm_error *err);

/* Write o as pretty JSON to dir/name atomically, mode 0644; 0 or -errno. */
int bm_write_json_atomic(const char *dir, const char *name, json_object *o,
			 struct bm_error *err);

/* bm_write_json_atomic with the file's mode (whatever the umask). */
int bm_write_json_atomic_mode(const char *dir, const char *name,
			      json_object *o, mode_t mode,
			      struct bm_error *err);

/* Read and parse the JSON file at path; the object, or NULL with err set
 * (errno-style code in *code when code is not NULL). */
json_object *bm_read_json(const char *path, int *code, struct bm_error *err);

/* mkdir -p for one level plus its parent; 0 or -errno with err set. */
int bm_mkdirs(const char *path, struct bm_error *err);

/* Add the non-object leaves of o to flat as "prefix.key" -> value
 * (prefix NULL at the top), e.g. {"res":{"lost":3}} -> "res.lost": 3. */
void bm_json_flatten(json_object *o, const char *prefix, json_object *flat);

/*
 * CSV of result["trials"]: a header of the flattened scalar keys
 * ("spec.rate_fps", ...) in first-seen order, then one row per trial.
 * malloc'd string (possibly just a header line), NULL on ENOMEM.
 */
char *bm_result_csv(json_object *result);

/* s as one CSV field in RFC 4180's form (§2.6, §2.7): in double quotes,
 * a quote doubled, when quoted is asked or s holds a comma, a quote or a
 * line break; as it is otherwise. */
void bm_csv_field(FILE *f, const char *s, bool quoted);

#endif /* BM_STORE_H */

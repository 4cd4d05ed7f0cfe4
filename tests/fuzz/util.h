/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the libFuzzer harnesses of tests/fuzz share: a scratch directory
 * per process, files written from the input, and the invariants every
 * harness checks on what libbm gives back.  A broken invariant aborts,
 * which libFuzzer reports as a crash with the input that caused it.
 */
#ifndef BM_FUZZ_UTIL_H
#define BM_FUZZ_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <json-c/json.h>

#include "bm_daemon.h"

struct bmd_client;

/* The entry point libFuzzer calls once per input. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Report a broken invariant on stderr and abort (a libFuzzer crash). */
void fuzz_fail(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));

/* This process's scratch directory (tmpfs when there is one, so that
 * bmd's fsyncs cost nothing), made on the first call and removed at
 * exit. */
const char *fuzz_dir(void);

/* path (under fuzz_dir()) := data[0..n), with mode; aborts on an I/O
 * error, which is the machine's fault, not the input's. */
void fuzz_write_file(const char *path, const void *data, size_t n,
		     mode_t mode);

/*
 * s[0..n) is one JSON text as bmgen must emit it (RFC 8259): well-formed
 * UTF-8, one value and nothing after it but whitespace, no NaN or
 * Infinity anywhere.  The value (the caller's), or abort naming what.
 */
json_object *fuzz_json_strict(const char *s, size_t n, const char *what);

/* msg is a reason as bmgen gives one: non-empty and a single line;
 * abort naming what otherwise. */
void fuzz_one_line(const char *msg, const char *what);

/*
 * out[0..n) is what bmd queued for a client: lines, each one reply of
 * strict JSON (fuzz_json_strict), an object with a boolean "ok" and an
 * integer or null "id"; a refusal has a one-line "error".
 */
void fuzz_check_replies(const char *out, size_t n);

/* Answer the request lines in c->in as bmd's poll loop would with a
 * socket that takes everything (streamed results and replayed histories
 * run to their end); everything c was sent, malloc'ed, its length in
 * *len.  d->lock held. */
char *fuzz_client_run(struct bmd *d, struct bmd_client *c, size_t *len);

/* The end of an input: c must not have been dropped and sent[0..len)
 * must be well-formed replies; then free sent and what c holds (not c). */
void fuzz_client_done(struct bmd_client *c, char *sent, size_t len);

/*
 * A bmd engine in this process on fuzz_dir(), without a served socket:
 * requests reach it through bmd_client_lines() (daemon_int.h).  Its
 * ports are a fake sysfs tree: t1..t8 and s1..s6 (the lab's names) at
 * 10 Mbit/s, p9 at 10 Gbit/s, p10 of unknown speed.  Its log goes to a
 * sink that checks every event (fields NAME=value, MESSAGE first and one
 * line, as bmd's stderr log needs).  backend_new NULL = bmd's default;
 * resets as bmd.conf would give them.
 */
struct bmd *fuzz_bmd(bmd_backend_fn backend_new,
		     const struct bmd_reset *resets, size_t n_resets);

#endif /* BM_FUZZ_UTIL_H */

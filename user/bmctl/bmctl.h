/* SPDX-License-Identifier: GPL-2.0 */
/* bmctl: shared declarations of the command files. */
#ifndef BMCTL_H
#define BMCTL_H

#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "bm_proto.h"

/* A profile (or --sim @FILE) is a page of parameters, not a data set. */
#define PROFILE_MAX_BYTES	(1024 * 1024)

/* Exit statuses (Documentation/bmctl.8.md). */
#define EXIT_OK		0
#define EXIT_FAIL	1	/* bmd refused (not the request), job failed */
#define EXIT_USAGE	2	/* bad arguments, found by bmctl or bmd */
#define EXIT_INTERRUPTED 3	/* batch: a job interrupted or cancelled */
#define EXIT_DETACHED	130	/* Ctrl-C: the job goes on */

struct bmctl_opts {
	bool json;
	const char *socket;
	bool socket_given;	/* -s: the remote bridge is told it too */
	const char *host;	/* -H: the bmd of this host, over ssh */
};

extern struct bmctl_opts opts;

/* "bmctl: msg" on stderr; returns EXIT_USAGE / EXIT_FAIL for return. */
int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int failure(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Is arg a (non-empty) prefix of word?  iproute2-style abbreviations. */
bool matches(const char *arg, const char *word);

/* Parse a job id argument; 0 (and a usage message printed) if bad. */
unsigned long parse_job(const char *s);

/* Connect to bmd; 0, or EXIT_FAIL with the reason printed. */
int connect_bmd(struct bm_client *c);

/* One request/response; 0 and *resp, or EXIT_USAGE (a request bmd found
 * wrong) or EXIT_FAIL with the reason printed (*resp is NULL then). */
int call_bmd(struct bm_client *c, json_object *req, json_object **resp);

/* Connect, one request/response, close: as call_bmd (req is consumed). */
int ask_bmd(json_object *req, json_object **resp);

/* New {"cmd": cmd} request. */
json_object *request_new(const char *cmd);

/* Render a result document as text; trials adds the trial log. */
void report_print(json_object *result, bool trials);

/* Print the trial log of result as a table (text or JSON). */
void report_trials(json_object *result);

/* Join the procedure words at the start of argv ("rfc2544 throughput" ->
 * "rfc2544.throughput") into name; how many words, or -1 (printed). */
int procedure_words(int argc, char **argv, char *name, size_t size);

/* Ask bmd what procedure name is: 0 and *proc (owned by the caller; see
 * Documentation/protocol.md, "procedure"), or EXIT_FAIL with the reason
 * printed. */
int procedure_fetch(struct bm_client *c, const char *name, json_object **proc);

/* The schema entry of parameter key in proc, or NULL (borrowed). */
json_object *procedure_param(json_object *proc, const char *key);

/* Print proc: summary, SPEC ids, ports, then one line per parameter with
 * type, unit, range, default and help (--json: bmd's object). */
void procedure_print(json_object *proc);

/*
 * Read a profile, a file of parameters: a JSON object, or YAML (.yaml,
 * .yml) when bmctl is built with libyaml.  The object, or NULL with a
 * one-line reason in why.
 */
json_object *profile_read(const char *path, char *why, size_t size);

/* text (len bytes) as one strict JSON value (RFC 8259: no trailing comma,
 * no single quotes, nothing after it), or NULL with "name: line L, column
 * C: reason" in why. */
json_object *json_parse_strict(const char *name, const char *text,
			       size_t len, char *why, size_t size);

/* The file at path as one strict JSON value (json_parse_strict), or NULL
 * with "path: reason" in why. */
json_object *json_read_strict(const char *path, char *why, size_t size);

/* The value of --param KEY=VALUE: JSON when all of VALUE is JSON, else
 * the string (so "64KB" stays "64KB", never the number 64). */
json_object *profile_param_value(const char *s);

/* One bmctl run --goal: "KEY=VALUE,..." with the six RFC 9971 goal
 * attributes (durations in s, ratios as numbers or N%) as a JSON object;
 * NULL with a one-line reason in why. */
json_object *goal_parse(const char *spec, char *why, size_t size);

/* Where --param @name is: name itself when it holds a '/' or exists,
 * else the ready profile of that name (name.json when it has no
 * extension) in $BMCTL_PROFILE_DIR or the installed profiles when there
 * is one, else name. */
const char *profile_path(const char *name, char *buf, size_t size);

/* The whole file at path, NUL-terminated, at most max bytes; NULL with a
 * one-line reason in why. */
char *file_read(const char *path, size_t max, size_t *len, char *why,
		size_t size);

/* Commands; each returns an exit status. */
int cmd_status(int argc, char **argv);
int cmd_port(int argc, char **argv);
int cmd_procedures(int argc, char **argv);
int cmd_run(int argc, char **argv);
/* bmctl nde-verify ARGS: cmd_run of rfc7640.nde-verify with ARGS. */
int cmd_port_calibrate(int argc, char **argv);
int cmd_nde_verify(int argc, char **argv);
/* The job the last cmd_run submitted (0: none since the reset). */
unsigned long run_last_job(void);
void run_last_job_reset(void);
/* bmctl batch PLAN: a plan file's procedures, one after the other. */
int cmd_batch(int argc, char **argv);
/* One request about job arg (a job id); 0 and *r, or the exit status
 * with the reason printed. */
int job_request(const char *cmd, const char *arg, json_object **r);
int cmd_jobs(int argc, char **argv);
int cmd_wait(int argc, char **argv);
int cmd_result(int argc, char **argv);
/* bmctl report FILE: a stored result document rendered without bmd. */
int cmd_report(int argc, char **argv);
/* Write doc as one self-contained HTML page with SVG charts to f; 0 or
 * EXIT_FAIL on a write error. */
int report_html(json_object *doc, FILE *f);
/* bmctl compare A B [C...]: results (job ids or files) of one procedure,
 * value by value against A; exit 0 all the same, 1 one differs, 2 none
 * compared. */
int cmd_compare(int argc, char **argv);
int cmd_cancel(int argc, char **argv);
/* bmctl bridge: the local bmd's socket on standard input and output (what
 * bmctl -H HOST runs over ssh). */
int cmd_bridge(int argc, char **argv);
/* bmctl pool HOST...: each host's bmd and module versions, one version
 * required; exit 1 when a host is unreachable or differs. */
int cmd_pool(int argc, char **argv);
/* Connect c to the bmd of host (NULL, "" or "local": the local socket;
 * else over ssh, remote.c).  0, or -errno with err set. */
int bmctl_client_open(struct bm_client *c, const char *host,
		      struct bm_error *err);

/* Follow job until it ends (progress shown unless --json), then print
 * its result; the exit status for the job's final state. */
int follow_job(struct bm_client *c, unsigned long job);

#endif /* BMCTL_H */

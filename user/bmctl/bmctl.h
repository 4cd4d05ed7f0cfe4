/* SPDX-License-Identifier: GPL-2.0 */
/* bmctl: shared declarations of the command files. */
#ifndef BMCTL_H
#define BMCTL_H

#include <stdbool.h>
#include <stdint.h>

#include <json-c/json.h>

#include "bm_proto.h"

/* Exit statuses (Documentation/bmctl.8.md). */
#define EXIT_OK		0
#define EXIT_FAIL	1	/* bmd refused, job failed, bmd unreachable */
#define EXIT_USAGE	2	/* bad arguments */
#define EXIT_DETACHED	130	/* Ctrl-C: the job goes on */

struct bmctl_opts {
	bool json;
	const char *socket;
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

/* One request/response; 0 and *resp, or EXIT_FAIL with the reason
 * printed (*resp is NULL then). */
int call_bmd(struct bm_client *c, json_object *req, json_object **resp);

/* New {"cmd": cmd} request. */
json_object *request_new(const char *cmd);

/* Render a result document as text; trials adds the trial log. */
void report_print(json_object *result, bool trials);

/* Print the trial log of result as a table (text or JSON). */
void report_trials(json_object *result);

/* Commands; each returns an exit status. */
int cmd_status(int argc, char **argv);
int cmd_port(int argc, char **argv);
int cmd_procedures(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_jobs(int argc, char **argv);
int cmd_wait(int argc, char **argv);
int cmd_result(int argc, char **argv);
int cmd_cancel(int argc, char **argv);

/* Follow job until it ends (progress shown unless --json), then print
 * its result; the exit status for the job's final state. */
int follow_job(struct bm_client *c, unsigned long job);

#endif /* BMCTL_H */

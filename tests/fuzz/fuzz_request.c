// SPDX-License-Identifier: GPL-2.0
/*
 * The request path: the input is what a client writes to bmd's socket,
 * one or more lines, and goes where bmd's poll loop sends a read: the
 * line framing (bm_linebuf), request validation (bm_request_parse) and
 * the dispatch of every command (bmd_client_lines) of one bmd engine in
 * this process.  Its fake ports, three finished jobs and one reset make
 * every command reachable; a submit is queued and never starts (the
 * engine is in shutdown: fuzz_dryrun runs jobs), and what an input
 * submitted is dropped after it, so every input meets the same bmd.
 *
 * Invariants: every reply is one line of strict JSON in UTF-8, an object
 * with a boolean "ok" and an "id"; a refusal carries a one-line "error";
 * every log event is well-formed (util.c).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bm_proto.h"
#include "daemon_int.h"
#include "util.h"

/* The jobs every input finds: 1 done with a result, 2 failed, 3 done
 * as a dry run on the N ports of a list. */
#define FIXED_JOBS	3

static struct bmd *d;

static const char *const job_files[FIXED_JOBS] = {
	"{\"job\":1,\"state\":\"done\",\"procedure\":\"rfc2544.throughput\","
	"\"ports\":{\"tx\":\"t1\",\"rx\":\"t2\",\"list\":[\"t1\",\"t2\"],"
	"\"line_rate_bps\":10000000.0},\"dry_run\":false,"
	"\"submitted\":\"2026-01-01T00:00:00.000Z\","
	"\"started\":\"2026-01-01T00:00:00.100Z\","
	"\"ended\":\"2026-01-01T00:01:00.000Z\",\"trials\":7,"
	"\"status\":\"done\",\"error\":null,\"result\":\"1.json\","
	"\"params\":{\"frame_sizes\":[64]},\"sim\":null,"
	"\"dut\":{\"name\":\"br0\"}}",
	"{\"job\":2,\"state\":\"failed\",\"procedure\":\"rfc8239.holb\","
	"\"ports\":{\"list\":[\"t1\",\"t2\",\"t3\",\"t4\",\"t5\",\"t6\","
	"\"t7\",\"t8\"],\"line_rate_bps\":10000000.0},\"dry_run\":false,"
	"\"submitted\":\"2026-01-01T00:02:00.000Z\",\"trials\":0,"
	"\"error\":\"port t3: no such device\",\"params\":{}}",
	"{\"job\":3,\"state\":\"done\",\"procedure\":\"mlrsearch\","
	"\"ports\":{\"list\":[],\"line_rate_bps\":1e10},\"dry_run\":true,"
	"\"submitted\":\"2026-01-01T00:03:00.000Z\",\"trials\":4,"
	"\"params\":{},\"sim\":{\"capacity_fps\":1000000}}",
};

static const char result1[] =
	"{\"procedure\":\"rfc2544.throughput\",\"params\":"
	"{\"frame_sizes\":[64]},\"trials\":[],\"results\":[],"
	"\"deviations\":[],\"job\":1}\n";

static const struct bmd_reset resets[] = {
	{ (char *)"br0-bounce", (char *)"ip link set br0 down" },
};

static void setup(void)
{
	char path[256];
	int i;

	snprintf(path, sizeof(path), "%s/results", fuzz_dir());
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/results/jobs", fuzz_dir());
	mkdir(path, 0755);
	for (i = 0; i < FIXED_JOBS; i++) {
		snprintf(path, sizeof(path), "%s/results/jobs/%d.json",
			 fuzz_dir(), i + 1);
		fuzz_write_file(path, job_files[i], strlen(job_files[i]), 0640);
	}
	snprintf(path, sizeof(path), "%s/results/1.json", fuzz_dir());
	fuzz_write_file(path, result1, strlen(result1), 0640);
	d = fuzz_bmd(NULL, resets, 1);
	/* Jobs are queued and never start: jobs_schedule() does nothing
	 * while bmd shuts down. */
	d->shutting_down = true;
}

/* Drop the jobs an input submitted; the fixed ones never change (they
 * are finished: nothing an input sends can alter them). */
static void forget_new_jobs(void)
{
	struct bmd_job *j = d->jobs, *head = d->jobs;

	while (j && j->id < FIXED_JOBS)
		j = j->next;
	if (!j || j->id != FIXED_JOBS)
		fuzz_fail("fixed job %d is gone", FIXED_JOBS);
	d->jobs = j->next;
	jobs_free(d);
	j->next = NULL;
	d->jobs = head;
	d->next_id = FIXED_JOBS + 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bmd_client c = { .fd = -1, .stream_fd = -1, .replay_fd = -1,
				.uid = 1000, .pid = 4242 };
	char *sent;
	size_t sent_len;

	if (!d)
		setup();
	c.d = d;	/* the client's bmd, as client_new() sets it */
	/* A client's last line ends with a newline too. */
	if (bm_linebuf_append(&c.in, (const char *)data, size) ||
	    bm_linebuf_append(&c.in, "\n", 1))
		fuzz_fail("out of memory");
	pthread_mutex_lock(&d->lock);
	d->clients = &c;	/* so that a watch sees its job's end */
	sent = fuzz_client_run(d, &c, &sent_len);
	d->clients = NULL;
	forget_new_jobs();
	pthread_mutex_unlock(&d->lock);

	fuzz_client_done(&c, sent, sent_len);
	return 0;
}

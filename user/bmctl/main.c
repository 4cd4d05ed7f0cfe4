// SPDX-License-Identifier: GPL-2.0
/*
 * bmctl: the bmgen client.  bmctl [OPTIONS] OBJECT COMMAND [ARGS], in the
 * style of ip(8) and devlink(8): objects and commands may be abbreviated.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bmctl.h"

#ifndef BM_VERSION
#define BM_VERSION "unknown"
#endif

struct bmctl_opts opts = { .socket = BM_DEFAULT_SOCKET };

static void vmsg(const char *fmt, va_list ap)
{
	fputs("bmctl: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

int usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
	return EXIT_USAGE;
}

int failure(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
	return EXIT_FAIL;
}

bool matches(const char *arg, const char *word)
{
	size_t n = strlen(arg);

	return n && n <= strlen(word) && !strncmp(arg, word, n);
}

unsigned long parse_job(const char *s)
{
	unsigned long id;
	char *end;

	errno = 0;
	id = s ? strtoul(s, &end, 10) : 0;
	if (!s || errno || *end || !id || s[0] == '-') {
		usage_error("bad job id '%s' (a positive integer)", s ? s : "");
		return 0;
	}
	return id;
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: bmctl [OPTIONS] OBJECT [COMMAND] [ARGS]\n"
		"OPTIONS: -j|--json  -s|--socket PATH  -H|--host HOST (over ssh)\n"
		"         -V|--version  -h|--help\n"
		"OBJECT := status | port list | procedures [PROCEDURE] | jobs |\n"
		"          wait JOB | result JOB [--trials] [--csv] | cancel JOB |\n"
		"          report FILE [--trials] [--csv] [--html OUT] |\n"
		"          compare A B [C...] [--threshold PCT] [--all] [--html OUT] |\n"
		"          batch PLAN [--detach] | pool HOST... |\n"
		"          run PROCEDURE [TEST] --help |\n"
		"          run PROCEDURE [TEST] --port TX --port RX [RUN-OPTIONS] |\n"
		"          nde-verify --port TX --port RX --param delay_ms=D [RUN-OPTIONS]\n"
		"RUN-OPTIONS: --frame-sizes 64,128 --duration S --search binary|mlr|rfc9971\n"
		"          --line-rate 10G --param KEY=VALUE --param @FILE\n"
		"          --goal KEY=VALUE,... (RFC 9971 Search Goals)\n"
		"          --dry-run [--sim JSON|@FILE] --detach --force\n"
		"Examples: bmctl run rfc2544 throughput --port ens1f0 --port ens1f1\n"
		"          bmctl run rfc2544 throughput --help\n"
		"          bmctl run mlrsearch --dry-run --sim '{\"capacity_fps\":1e6}'\n"
		"See bmctl(8).\n");
}

/* Each object's help: bmctl OBJECT --help, on stdout, exit 0; lines of at
 * most 79 columns (tests: tools/test-install). */
static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
} objects[] = {
	/* Order decides abbreviations: "r" is run, "res" result. */
	{ "status", cmd_status,
	  "Usage: bmctl status\n"
	  "bmd's version, module, ports, jobs and configuration.\n" },
	{ "run", cmd_run,
	  "Usage: bmctl run PROCEDURE [TEST] --port TX --port RX [RUN-OPTIONS]\n"
	  "       bmctl run PROCEDURE [TEST] --help   (its parameters)\n"
	  "RUN-OPTIONS:\n"
	  "  --frame-sizes 64,128,1518   --duration 60s | 1.5ms\n"
	  "  --line-rate 10G | 100M      --search binary|mlr|rfc9971\n"
	  "  --param KEY=VALUE | @FILE   --goal KEY=VALUE,... (RFC 9971)\n"
	  "  --dry-run [--sim JSON|@FILE]  --detach  --force\n"
	  "  --dut-name N --dut-version V --dut-config FILE\n"
	  "  --sync-tolerance 100us      (a pool's hosts' clocks)\n"
	  "Rates take k, M, G, T (bit/s), times ns, us, ms, s, bytes kB, KiB, MB.\n"
	  "bmctl procedures lists the procedures; see bmctl(8).\n" },
	{ "result", cmd_result,
	  "Usage: bmctl result JOB [--trials] [--csv]\n"
	  "The report of a finished job; -j prints the stored document.\n"
	  "--csv: the headline, a line a frame size (or iteration, run), as\n"
	  "CSV; --trials --csv: the trial log as CSV.\n" },
	{ "report", cmd_report,
	  "Usage: bmctl report FILE [--trials] [--csv] [--html OUT]\n"
	  "       bmctl report --check FILE|JOB...\n"
	  "The report of a result file, without bmd; --csv as result's;\n"
	  "--check: are the standard's report items all there?\n" },
	{ "compare", cmd_compare,
	  "Usage: bmctl compare A B [C...] [--threshold PCT] [--all] [--html OUT]\n"
	  "Results (job ids or files) of one procedure against A: each headline\n"
	  "value, the mean, stdev, difference in % of A and a verdict (the same\n"
	  "within 1 % unless --threshold); --all: every number, by its path.\n"
	  "Exit 0: all the same; 1: a value differs; 2: nothing compared.\n" },
	{ "batch", cmd_batch,
	  "Usage: bmctl batch PLAN [--detach]\n"
	  "Run a plan's steps (JSON or YAML) one after the other.\n" },
	{ "port", cmd_port,
	  "Usage: bmctl port list\n"
	  "       bmctl port calibrate TX [RX] [RUN-OPTIONS]\n" },
	{ "procedures", cmd_procedures,
	  "Usage: bmctl procedures [PROCEDURE [TEST]]\n" },
	{ "jobs", cmd_jobs,
	  "Usage: bmctl jobs\n" },
	{ "wait", cmd_wait,
	  "Usage: bmctl wait JOB [JOB ...]\n"
	  "Follow jobs to their ends; exit 0 when every one ended done.\n" },
	{ "cancel", cmd_cancel,
	  "Usage: bmctl cancel JOB\n" },
	{ "nde-verify", cmd_nde_verify, NULL },
	{ "pool", cmd_pool,
	  "Usage: bmctl pool HOST [HOST ...]\n"
	  "Each host's bmd and module versions, reached over ssh (\"local\": this\n"
	  "host's); exit 1 when one cannot be reached or runs another version.\n" },
	{ "bridge", cmd_bridge,
	  "Usage: bmctl bridge\n"
	  "The local bmd's socket on standard input and output: what\n"
	  "bmctl -H HOST runs on HOST over ssh (ssh -T HOST bmctl bridge).\n" },
};

/* Does argv (argc) ask for help, before any "--" or option value? */
static bool asks_help(int argc, char **argv)
{
	int i;

	for (i = 0; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return true;
	return false;
}

int main(int argc, char **argv)
{
	size_t i;
	int a;

	for (a = 1; a < argc && argv[a][0] == '-'; a++) {
		const char *o = argv[a];

		if (!strcmp(o, "-j") || !strcmp(o, "--json")) {
			opts.json = true;
		} else if (!strcmp(o, "-s") || !strcmp(o, "--socket")) {
			if (++a == argc)
				return usage_error("%s needs a PATH", o);
			opts.socket = argv[a];
			opts.socket_given = true;
		} else if (!strncmp(o, "--socket=", 9)) {
			opts.socket = o + 9;
			opts.socket_given = true;
		} else if (!strcmp(o, "-H") || !strcmp(o, "--host")) {
			if (++a == argc)
				return usage_error("%s needs a HOST (as ssh "
						   "takes it)", o);
			opts.host = argv[a];
		} else if (!strncmp(o, "--host=", 7)) {
			opts.host = o + 7;
		} else if (!strcmp(o, "-V") || !strcmp(o, "--version")) {
			printf("bmctl " BM_VERSION " (protocol %d)\n",
			       BM_PROTO_VERSION);
			return EXIT_OK;
		} else if (!strcmp(o, "-h") || !strcmp(o, "--help")) {
			usage(stdout);
			return EXIT_OK;
		} else {
			return usage_error("unknown option '%s' (bmctl --help)",
					   o);
		}
	}
	if (a == argc) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[a], "help")) {
		usage(stdout);
		return EXIT_OK;
	}
	for (i = 0; i < sizeof(objects) / sizeof(objects[0]); i++) {
		if (!matches(argv[a], objects[i].name))
			continue;
		/* run PROCEDURE --help is the procedure's own help */
		if (objects[i].help && asks_help(argc - a - 1, argv + a + 1) &&
		    (objects[i].fn != cmd_run || a + 1 == argc ||
		     argv[a + 1][0] == '-')) {
			fputs(objects[i].help, stdout);
			return EXIT_OK;
		}
		return objects[i].fn(argc - a - 1, argv + a + 1);
	}
	return usage_error("unknown object '%s' (bmctl help)", argv[a]);
}

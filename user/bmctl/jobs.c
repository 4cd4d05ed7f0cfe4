// SPDX-License-Identifier: GPL-2.0
/* bmctl jobs, cancel, result. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bm_store.h"
#include "bmctl.h"
#include "compare.h"
#include "compliance.h"
#include "front.h"
#include "print.h"
#include "summary.h"

static json_object *get(json_object *o, const char *key)
{
	json_object *v = NULL;

	json_object_object_get_ex(o, key, &v);
	return v;
}

/* The PORTS cell: "TX>RX" for a pair, "A,B,C" for a list (cut short
 * with "+N more" past what a table column can show), "-" for none. */
static void ports_cell(json_object *p, char *buf, size_t size)
{
	json_object *list = get(p, "list");
	size_t n = json_object_is_type(list, json_type_array) ?
		   json_object_array_length(list) : 0, i, off = 0;
	const char *name;

	if (n <= 2) {
		if (get(p, "tx"))
			snprintf(buf, size, "%s>%s",
				 json_object_get_string(get(p, "tx")),
				 json_object_get_string(get(p, "rx")));
		else
			snprintf(buf, size, "%s", "-");
		return;
	}
	buf[0] = '\0';
	for (i = 0; i < n; i++) {
		name = json_object_get_string(json_object_array_get_idx(list, i));
		/* room for this name and a "+NNN more" after it */
		if (off + strlen(name) + 1 + 10 >= size) {
			snprintf(buf + off, size - off, "+%zu more", n - i);
			return;
		}
		off += snprintf(buf + off, size - off, "%s%s", name,
				i + 1 < n ? "," : "");
	}
}

int cmd_jobs(int argc, char **argv)
{
	static const struct pr_col cols[] = {
		{ "job", "JOB", false }, { "state", "STATE", true },
		{ "procedure", "PROCEDURE", true }, { "ports", "PORTS", true },
		{ "submitted", "SUBMITTED", true }, { "trials", "TRIALS", false },
		{ "info", "INFO", true },
	};
	struct pr_table *t;
	json_object *r, *a;
	size_t i, n;
	int ret;

	if (argc > 1 || (argc == 1 && !matches(argv[0], "list")))
		return usage_error("usage: bmctl jobs [list]");
	ret = ask_bmd(request_new("jobs"), &r);
	if (ret)
		return ret;
	a = get(r, "jobs");
	n = a ? json_object_array_length(a) : 0;
	pr_init(opts.json);
	t = pr_table_new("jobs", cols, 7);
	for (i = 0; i < n; i++) {
		json_object *j = json_object_array_get_idx(a, i);
		json_object *p = get(j, "ports"), *info;
		char ports[64];

		ports_cell(p, ports, sizeof(ports) - 6);	/* " (dry)" */
		if (json_object_get_boolean(get(j, "dry_run")))
			strncat(ports, " (dry)", sizeof(ports) - strlen(ports) - 1);
		info = get(j, "error") ? get(j, "error") : get(j, "status");
		pr_table_row(t);
		pr_cell_json(t, get(j, "job"));
		pr_cell_json(t, get(j, "state"));
		pr_cell_json(t, get(j, "procedure"));
		if (opts.json)
			pr_cell_json(t, p);
		else
			pr_cell_str(t, ports);
		pr_cell_json(t, get(j, "submitted"));
		pr_cell_json(t, get(j, "trials"));
		pr_cell_json(t, info);
	}
	pr_table_end(t);
	pr_finish();
	json_object_put(r);
	return EXIT_OK;
}

int job_request(const char *cmd, const char *arg, json_object **r)
{
	struct bm_client c;
	unsigned long job;
	json_object *req;
	int ret;

	job = parse_job(arg);
	if (!job)
		return EXIT_USAGE;
	ret = connect_bmd(&c);
	if (ret)
		return ret;
	req = request_new(cmd);
	json_object_object_add(req, "job", json_object_new_int64(job));
	ret = call_bmd(&c, req, r);
	bm_client_close(&c);
	return ret;
}

int cmd_cancel(int argc, char **argv)
{
	json_object *r, *j;
	const char *state;
	int ret;

	if (argc != 1)
		return usage_error("usage: bmctl cancel JOB");
	ret = job_request("cancel", argv[0], &r);
	if (ret)
		return ret;
	j = get(r, "job");
	state = json_object_get_string(get(j, "state"));
	pr_init(opts.json);
	pr_kv_json("job", "job", get(j, "job"));
	pr_kv_str("state", "state", state);
	pr_finish();
	if (!opts.json && state && !strcmp(state, "running"))
		printf("cancelling: the job stops after its current trial\n");
	json_object_put(r);
	return EXIT_OK;
}

/* Show a result document: CSV (the headline's summary, or the trial
 * log), JSON (the document, or its trials), or the text report; the exit
 * status. */
static int show_result(json_object *res, bool trials, bool csv)
{
	if (csv && !trials)
		return summary_csv(res, stdout);
	if (csv) {
		char *s = bm_result_csv(res);

		fputs(s ? s : "", stdout);
		free(s);
	} else if (opts.json && trials) {
		pr_init(true);
		report_trials(res);
		pr_finish();
	} else if (opts.json) {
		printf("%s\n", json_object_to_json_string_ext(res,
			JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
			JSON_C_TO_STRING_NOSLASHESCAPE));
	} else {
		report_print(res, trials);
	}
	return EXIT_OK;
}

/* The arguments of result and report: one operand, --trials, --csv
 * (with --trials, the trial log's). */
static int result_args(const char *cmd, int argc, char **argv,
		       const char **what, bool *trials, bool *csv)
{
	int i;

	*what = NULL;
	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--trials"))
			*trials = true;
		else if (!strcmp(argv[i], "--csv"))
			*csv = true;
		else if (argv[i][0] != '-' && !*what)
			*what = argv[i];
		else
			return usage_error("%s: unknown argument '%s'", cmd,
					   argv[i]);
	}
	if (!*what)
		return usage_error("usage: bmctl %s %s [--trials] [--csv]", cmd,
				   strcmp(cmd, "result") ? "FILE" : "JOB");
	if (*csv && opts.json)
		return usage_error("--csv and --json exclude each other");
	return 0;
}

int cmd_result(int argc, char **argv)
{
	bool trials = false, csv = false;
	const char *job;
	json_object *r;
	int ret;

	ret = result_args("result", argc, argv, &job, &trials, &csv);
	if (ret)
		return ret;
	ret = job_request("result", job, &r);
	if (ret)
		return ret;
	ret = show_result(get(r, "result"), trials, csv);
	json_object_put(r);
	return ret;
}

/* A result document from a file (a path that exists) or from bmd (a job
 * id); *doc is a new reference.  0, or the exit status with the reason
 * printed. */
static int load_result(const char *what, json_object **doc)
{
	json_object *r, *p;
	int ret;

	*doc = NULL;
	if (!access(what, R_OK)) {
		char why[256];

		*doc = json_read_strict(what, why, sizeof(why));
		if (!*doc) {
			fprintf(stderr, "bmctl: %s\n", why);
			return EXIT_FAIL;
		}
		if (!json_object_is_type(*doc, json_type_object) ||
		    !json_object_object_get_ex(*doc, "procedure", &p)) {
			json_object_put(*doc);
			*doc = NULL;
			fprintf(stderr, "bmctl: %s: not a bmgen result document\n",
				what);
			return EXIT_FAIL;
		}
		return 0;
	}
	ret = job_request("result", what, &r);
	if (ret)
		return ret;
	*doc = json_object_get(get(r, "result"));
	json_object_put(r);
	return 0;
}

/* --threshold PCT: a percentage, "2", "0.5" or "2%", 0 or more. */
static int threshold_arg(const char *s, double *pct)
{
	char *end;

	*pct = s ? strtod(s, &end) : NAN;
	if (s && end != s && *end == '%')
		end++;
	if (!s || end == s || *end || !isfinite(*pct) || *pct < 0)
		return usage_error("compare: --threshold takes a percentage "
				   "(0 or more, e.g. 2 or 0.5%%), not '%s'",
				   s ? s : "");
	return 0;
}

/* Write c's page to out ("-": stdout); 0, or EXIT_USAGE with the reason
 * printed (compare's exit 1 is "they differ"). */
static int compare_page(const struct cmp *c, json_object *const *d,
			const char *const *w, const char *out)
{
	FILE *f = strcmp(out, "-") ? fopen(out, "w") : stdout;
	int ret;

	if (!f) {
		failure("compare: %s: %s", out, strerror(errno));
		return EXIT_USAGE;
	}
	ret = cmp_html(c, d, w, f);
	if ((f != stdout && fclose(f)) || ret) {
		failure("compare: %s: %s", out, strerror(errno));
		return EXIT_USAGE;
	}
	return 0;
}

/*
 * bmctl compare A B [C...]: exit 0 when every value is the same within
 * the threshold, 1 when one differs, 2 when nothing could be compared (a
 * usage error, a result that cannot be had, results of different
 * procedures), as diff(1), so that a script can tell the three apart.
 */
int cmd_compare(int argc, char **argv)
{
	const char *w[CMP_MAX_IN], *html = NULL;
	json_object *d[CMP_MAX_IN] = { NULL };
	double threshold = CMP_THRESHOLD_PCT;
	bool all = false;
	struct cmp c = { 0 };
	char why[512];
	int i, n = 0, ret = 0;

	for (i = 0; i < argc && !ret; i++) {
		if (!strcmp(argv[i], "--all"))
			all = true;
		else if (!strcmp(argv[i], "--threshold"))
			ret = threshold_arg(++i < argc ? argv[i] : NULL,
					    &threshold);
		else if (!strcmp(argv[i], "--html") && i + 1 == argc)
			ret = usage_error("compare: --html needs a file name");
		else if (!strcmp(argv[i], "--html"))
			html = argv[++i];
		else if (argv[i][0] != '-' && n < CMP_MAX_IN)
			w[n++] = argv[i];
		else
			ret = usage_error("compare: %s '%s'", argv[i][0] == '-' ?
					  "unknown argument" : "more than 26 "
					  "results, from", argv[i]);
	}
	if (ret)
		return ret;
	if (n < 2)
		return usage_error("usage: bmctl compare A B [C...] "
				   "[--threshold PCT] [--all] [--html OUT] "
				   "(job ids or result files)");
	if (html && opts.json)
		return usage_error("compare: --html excludes --json");
	for (i = 0; i < n && !ret; i++)
		ret = load_result(w[i], &d[i]) ? EXIT_USAGE : 0;
	if (!ret && cmp_build(&c, d, n, threshold, all, why, sizeof(why)))
		ret = usage_error("compare: %s", why);
	if (!ret && html)
		ret = compare_page(&c, d, w, html);
	else if (!ret && opts.json)
		cmp_json(&c);
	else if (!ret)
		cmp_text(&c, d, w);
	if (!ret && c.differ)
		ret = EXIT_FAIL;
	cmp_free(&c);
	for (i = 0; i < n; i++)
		json_object_put(d[i]);
	return ret;
}

/*
 * bmctl report --check WHAT...: each result (file or job id) against the
 * report items its standard requires (SPEC REQ-REP-2, the result schema's
 * root allOf); a line per result, one more per missing item.  EXIT_OK
 * when every result carries every item, EXIT_FAIL otherwise.
 */
static int report_check(int argc, char **argv)
{
	static struct front front;	/* 25 KB: off the stack */
	json_object *schema = compliance_schema(), *doc, *id, *arr = NULL;
	unsigned int good = 0, bad = 0;
	struct compliance c;
	int i;

	if (!schema)
		return failure("report --check: the built-in result schema "
			       "does not parse");
	if (opts.json)
		arr = json_object_new_array();
	for (i = 0; i < argc; i++) {
		const char *proc, *what = argv[i];
		json_object *missing, *na;

		if (!strcmp(what, "--check"))
			continue;
		if (load_result(what, &doc)) {
			bad++;
			continue;
		}
		id = get(get(doc, "procedure"), "id");
		proc = id ? json_object_get_string(id) : "?";
		missing = arr ? json_object_new_array() : NULL;
		na = arr ? json_object_new_array() : NULL;
		compliance_check(schema, doc, what, arr ? NULL : stdout,
				 missing, na, &c);
		if (!c.known || c.missing || c.error)
			bad++;
		else
			good++;
		if (arr) {
			json_object *o = json_object_new_object();

			json_object_object_add(o, "result",
					       json_object_new_string(what));
			json_object_object_add(o, "procedure",
					       json_object_new_string(proc));
			json_object_object_add(o, "known",
					       json_object_new_boolean(c.known));
			json_object_object_add(o, "items",
					       json_object_new_int(c.items));
			json_object_object_add(o, "missing",
					       json_object_new_int(c.missing));
			json_object_object_add(o, "not_measured",
					       json_object_new_int(c.excused));
			json_object_object_add(o, "error", c.error ?
				json_object_new_string(c.error) : NULL);
			json_object_object_add(o, "missing_items", missing);
			json_object_object_add(o, "not_applicable", na);
			/* what the report opens with: lines with a value */
			front_build(doc, &front);
			json_object_object_add(o, "headline_values",
				json_object_new_int((int)front.headline_values));
			json_object_array_add(arr, o);
		} else if (c.error) {
			printf("%s: %s: INCOMPLETE — the job failed (%s): its "
			       "results are partial\n", what, proc, c.error);
		} else if (!c.known) {
			printf("%s: %s: no report items are known for this "
			       "procedure (a newer bmctl?)\n", what, proc);
		} else {
			printf("%s: %s: %u of %u report items present%s",
			       what, proc, c.items - c.missing, c.items,
			       c.missing ? " — INCOMPLETE" : "");
			if (c.excused)
				printf(" (%u not measured, the result says "
				       "why)", c.excused);
			if (c.not_applicable)
				printf(" (%u not applicable)",
				       c.not_applicable);
			printf("\n");
		}
		json_object_put(doc);
	}
	if (arr) {
		printf("%s\n", json_object_to_json_string_ext(arr,
			JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(arr);
	} else if (good + bad > 1) {
		printf("%u complete, %u incomplete\n", good, bad);
	}
	return bad ? EXIT_FAIL : EXIT_OK;
}

int cmd_report(int argc, char **argv)
{
	bool trials = false, csv = false;
	const char *file, *html = NULL;
	char *args[64], why[256];
	json_object *doc, *p;
	FILE *out;
	int ret, i, n = 0;

	/* --check WHAT...: the report items, nothing rendered */
	for (i = 0; i < argc; i++)
		if (!strcmp(argv[i], "--check"))
			break;
	if (i < argc) {
		for (i = 0; i < argc; i++) {
			if (!strcmp(argv[i], "--check"))
				continue;
			if (argv[i][0] == '-')
				return usage_error("report --check: unknown "
						   "argument '%s'", argv[i]);
			n++;
		}
		if (!n)
			return usage_error("usage: bmctl report --check "
					   "FILE|JOB...");
		return report_check(argc, argv);
	}
	/* --html OUT: the page instead of the text */
	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--html")) {
			if (++i == argc)
				return usage_error("report: --html needs a "
						   "file name");
			html = argv[i];
		} else if (n < 63) {
			args[n++] = argv[i];
		}
	}
	ret = result_args("report", n, args, &file, &trials, &csv);
	if (ret)
		return ret;
	if (html && (csv || opts.json))
		return usage_error("report: --html excludes --csv and --json");
	/* a stored or copied result, read without bmd */
	doc = json_read_strict(file, why, sizeof(why));
	if (!doc) {
		fprintf(stderr, "bmctl: report: %s\n", why);
		return EXIT_FAIL;
	}
	if (!json_object_is_type(doc, json_type_object) ||
	    !json_object_object_get_ex(doc, "procedure", &p) ||
	    !json_object_is_type(p, json_type_object)) {
		fprintf(stderr, "bmctl: report: %s: not a bmgen result "
			"(Documentation/result.schema.json)\n", file);
		json_object_put(doc);
		return EXIT_FAIL;
	}
	if (html) {
		out = strcmp(html, "-") ? fopen(html, "w") : stdout;
		if (!out) {
			json_object_put(doc);
			return failure("report: %s: %s", html, strerror(errno));
		}
		ret = report_html(doc, out);
		if (out != stdout && fclose(out))
			ret = failure("report: %s: %s", html, strerror(errno));
		json_object_put(doc);
		return ret;
	}
	ret = show_result(doc, trials, csv);
	json_object_put(doc);
	return ret;
}

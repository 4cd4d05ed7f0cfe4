/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bmctl compare: two or more results of one procedure, value by value
 * (compare.c: the model and its statistics; compare_out.c: text, JSON,
 * HTML).  The first result is the baseline every other is measured
 * against, in % of it.
 */
#ifndef BMCTL_COMPARE_H
#define BMCTL_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <json-c/json.h>

/* A result per letter, A to Z. */
#define CMP_MAX_IN	26
/* [PROPOSED] twice the 0.5 % relative width MLRsearch and RFC 9971's
 * default goal stop at: two searches of one DUT that each met it lie
 * within 1 % of each other */
#define CMP_THRESHOLD_PCT 1.0

enum cmp_verdict {
	CMP_SAME,	/* every difference within the threshold */
	CMP_HIGHER,	/* beyond it, every one above the baseline */
	CMP_LOWER,	/* beyond it, every one below */
	CMP_MIXED,	/* beyond it, above and below */
	CMP_MISSING,	/* a result without the value */
};

/* One number compared: a field of a headline row (or, with all, any
 * number of the results by its path). */
struct cmp_row {
	size_t group;		/* the headline group (0 with all) */
	char label[256];	/* "64 B"; with all, the path to the value */
	char key[256];		/* the field's key in its row */
	char name[256];		/* for a column: "throughput" */
	const char *unit;	/* as stored: "fps"; "" */
	double x[CMP_MAX_IN];	/* each result's value, when has[] */
	bool has[CMP_MAX_IN];
	double mean, stdev;	/* over the results with one; stdev: n >= 2 */
	size_t n;		/* how many have one */
	double diff[CMP_MAX_IN]; /* (x - A) / |A| * 100, when has_diff[] */
	bool has_diff[CMP_MAX_IN];
	enum cmp_verdict verdict;
};

/* At most this many parameters name what the results differ in. */
#define CMP_MAX_VARIED	4

struct cmp {
	size_t n_in;		/* results, A first */
	/* The parameters ("params") whose values differ among the results,
	 * in A's order, e.g. "random_macs"; each result's values of them
	 * ("random_macs 1000") in varied_as[]. */
	char varied[CMP_MAX_VARIED][64];
	size_t n_varied;
	char varied_as[CMP_MAX_IN][256];
	/* x[i]: result i's value of the one varied parameter when there is
	 * one and it is a number in every result (a sweep's axis) */
	bool sweep;
	double sweep_x[CMP_MAX_IN];
	const char *procedure;
	double threshold;	/* in % */
	bool all;		/* every number, not the headline's */
	struct cmp_row *rows;
	size_t n_rows, cap;
	size_t differ;		/* rows not CMP_SAME */
	json_object *index;	/* row id -> row number, while built */
};

/*
 * Compare docs[0..n-1] (2 <= n <= CMP_MAX_IN) into c: each numeric field
 * of each headline row (all: each number under "results" by its path),
 * its value in each, their mean and sample standard deviation, each one's
 * difference in % of docs[0]'s and a verdict against threshold (%); and
 * the parameters the results differ in (c->varied).  0;
 * -1 with a one-line reason in why when the results are of different
 * procedures or there is no number to compare.  cmp_free() c after.
 */
int cmp_build(struct cmp *c, json_object *const *docs, size_t n,
	      double threshold, bool all, char *why, size_t size);

void cmp_free(struct cmp *c);

/* "same", "higher", "lower", "mixed", "missing". */
const char *cmp_verdict_name(enum cmp_verdict v);

/* Print c as text (a table) on stdout, the results named names[]. */
void cmp_text(const struct cmp *c, json_object *const *docs,
	      const char *const *names);

/* Print c as a JSON array of one object per row on stdout. */
void cmp_json(const struct cmp *c);

/* Write c as one self-contained HTML page to f; 0 or EXIT_FAIL on a
 * write error. */
int cmp_html(const struct cmp *c, json_object *const *docs,
	     const char *const *names, FILE *f);

#endif /* BMCTL_COMPARE_H */

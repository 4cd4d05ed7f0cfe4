// SPDX-License-Identifier: GPL-2.0
/*
 * Human-readable rendering of a result document (SPEC REQ-REP-1).  The
 * "results" object is rendered generically, so a new procedure prints
 * reasonably without touching bmctl: arrays of objects become tables, maps
 * of objects become tables keyed by the member name, scalars become
 * "label value" lines.  Rows that carry a frame size and a frame rate get
 * the derived columns of the RFC 2544 throughput report (% of line rate,
 * L1/L2 Mbit/s, theoretical maximum, SPEC F-1 and 2.3).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bm_store.h"
#include "bm_trial.h"
#include "bmctl.h"
#include "front.h"
#include "print.h"
#include "rtable.h"

static json_object *get(json_object *o, const char *key)
{
	return rt_get(o, key);
}

static bool is_scalar(json_object *v)
{
	return !v || (!json_object_is_type(v, json_type_object) &&
		      !json_object_is_type(v, json_type_array));
}

static bool is_number(json_object *v)
{
	return json_object_is_type(v, json_type_int) ||
	       json_object_is_type(v, json_type_double);
}

/* The member that holds a frame rate: throughput_fps, else the first
 * numeric *_fps member. */
static const char *fps_key(json_object *row)
{
	if (is_number(get(row, "throughput_fps")))
		return "throughput_fps";
	json_object_object_foreach(row, k, v) {
		size_t n = strlen(k);

		if (n >= 3 && !strcmp(k + n - 3, "fps") && is_number(v))
			return k;
	}
	return NULL;
}

static void render(const char *name, json_object *v, double line_rate_bps);

static void render_table(const char *name, json_object **rows,
			 const char **keys, size_t n, double line_rate_bps)
{
	static const struct pr_col derived[] = {
		{ "line_rate_pct", "%line", false },
		{ "l1_mbps", "L1 Mbit/s", false },
		{ "l2_mbps", "L2 Mbit/s", false },
		{ "max_fps", "max fps", false },
	};
	static struct rt_table rt;	/* 9 KB: off the stack of a recursion */
	struct pr_col cols[RT_MAX_COLS + 4];
	const char *fk = NULL;
	struct pr_table *t;
	int nc, c, nd = 0;
	char buf[256];
	size_t i;

	rt_build(&rt, rows, n, keys ? "key" : NULL, !pr_json());
	nc = rt.nc;
	for (c = 0; c < nc; c++)
		cols[c] = (struct pr_col){ rt.cols[c].key, rt.cols[c].head,
					   rt.cols[c].left };
	/* Derive the throughput columns only when the procedure did not. */
	if (n && get(rows[0], "frame_size") && line_rate_bps > 0 &&
	    !get(rows[0], "theoretical_max_fps") &&
	    !get(rows[0], "throughput_pct_line"))
		fk = fps_key(rows[0]);
	if (fk) {
		for (c = 0; c < 4; c++)
			if (!get(rows[0], derived[c].key))
				cols[nc + nd++] = derived[c];
	}
	pr_text("%s\n", name);
	pr_obj_open(NULL, "");
	t = pr_table_new(name, cols, nc + nd);
	for (i = 0; i < n; i++) {
		pr_table_row(t);
		for (c = 0; c < nc; c++) {
			json_object *v = get(rows[i], cols[c].key);

			if (keys && c == 0)
				pr_cell_str(t, keys[i]);
			else if (pr_json())
				pr_cell_json(t, v);
			else
				pr_cell_str(t, v ? rt_cell(&rt.cols[c], v, buf,
							   sizeof(buf)) : NULL);
		}
		if (!nd)
			continue;
		{
			double fps = json_object_get_double(get(rows[i], fk));
			uint32_t f = json_object_get_int(get(rows[i],
							     "frame_size"));

			for (c = nc; c < nc + nd; c++) {
				const char *k = cols[c].key;

				if (!strcmp(k, "line_rate_pct"))
					pr_cell_f64(t, "%.3f", bm_load_pct(
						fps, f, line_rate_bps));
				else if (!strcmp(k, "l1_mbps"))
					pr_cell_f64(t, "%.3f",
						    bm_l1_bps(fps, f) / 1e6);
				else if (!strcmp(k, "l2_mbps"))
					pr_cell_f64(t, "%.3f",
						    bm_l2_bps(fps, f) / 1e6);
				else
					pr_cell_f64(t, "%.2f", bm_fps_max(
						line_rate_bps, f));
			}
		}
	}
	pr_table_end(t);
	/* What every row shares, once. */
	if (rt.ns) {
		pr_text("every row\n");
		pr_obj_open(NULL, "");
		for (c = 0; c < rt.ns; c++)
			pr_text("%-18s %s\n", rt.same[c].head,
				rt_cell(&rt.same[c], get(rows[0],
							 rt.same[c].key),
					buf, sizeof(buf)));
		pr_obj_close();
	}
	/* The long texts left out of the table, one line per row, or once
	 * when every row says the same. */
	for (i = 0; i < n; i++) {
		json_object_object_foreach(rows[i], k, v) {
			if (json_object_is_type(v, json_type_string) &&
			    rt_long_line(&rt, i, k))
				pr_text("%s\n", json_object_get_string(v));
		}
	}
	/* What the rows nest, each under the row it belongs to. */
	for (i = 0; i < n; i++) {
		json_object_object_foreach(rows[i], k2, v2) {
			char title[128];

			if (!rt_is_nested(v2))
				continue;
			rt_title(title, sizeof(title), name, keys, rows[i], i,
				 k2);
			render(title, v2, line_rate_bps);
		}
	}
	pr_obj_close();
}

/* An object whose members are all objects: one table row per member. */
static bool render_map(const char *name, json_object *o, double lr)
{
	json_object *rows[256];
	const char *keys[256];
	size_t n = 0;

	json_object_object_foreach(o, k, v) {
		if (!json_object_is_type(v, json_type_object) || n == 256)
			return false;
		rows[n] = v;
		keys[n++] = k;
	}
	if (n < 2)
		return false;
	render_table(name, rows, keys, n, lr);
	return true;
}

static void render_array(const char *name, json_object *a, double lr)
{
	size_t i, n = json_object_array_length(a);
	json_object **rows;
	char buf[1024];
	int off = 0;

	if (n && json_object_is_type(json_object_array_get_idx(a, 0),
				     json_type_object)) {
		rows = calloc(n, sizeof(*rows));
		if (!rows)
			return;
		for (i = 0; i < n; i++) {
			rows[i] = json_object_array_get_idx(a, i);
			if (!json_object_is_type(rows[i], json_type_object))
				break;
		}
		if (i == n)
			render_table(name, rows, NULL, n, lr);
		free(rows);
		if (i == n)
			return;
	}
	/* Long texts (a snake's DUT plan): one per line under the name. */
	for (i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(a, i);

		if (!json_object_is_type(e, json_type_string))
			break;
		off += (int)strlen(json_object_get_string(e)) + 2;
	}
	if (n && i == n && off > RT_LONG_TEXT) {
		pr_text("%s\n", name);
		pr_obj_open(NULL, "");
		for (i = 0; i < n; i++)
			pr_text("%s\n", json_object_get_string(
				json_object_array_get_idx(a, i)));
		pr_obj_close();
		return;
	}
	off = 0;
	buf[0] = '\0';
	for (i = 0; i < n && off < (int)sizeof(buf) - 1; i++)
		off += snprintf(buf + off, sizeof(buf) - off, "%s%s",
				i ? ", " : "",
				pr_fmt_json(json_object_array_get_idx(a, i)));
	pr_text("%-18s %s\n", name, n ? buf : "-");
}

/* Results are shown in human units; parameters keep the names and
 * values a user types (--param learning_pause_s=0.2). */
static bool units;

static void render(const char *name, json_object *v, double lr)
{
	if (is_scalar(v)) {
		struct rt_col c;
		char buf[256];

		if (!units || !v) {
			pr_text("%-18s %s\n", name, pr_fmt_json(v));
			return;
		}
		rt_scalar(&c, name, v);
		pr_text("%-18s %s\n", c.head, rt_cell(&c, v, buf, sizeof(buf)));
		return;
	}
	if (json_object_is_type(v, json_type_array)) {
		render_array(name, v, lr);
		return;
	}
	if (render_map(name, v, lr))
		return;
	pr_text("%s\n", name);
	pr_obj_open(NULL, "");
	/* Scalars first, so the headline numbers lead. */
	json_object_object_foreach(v, k, m)
		if (is_scalar(m))
			render(k, m, lr);
	json_object_object_foreach(v, k2, m2)
		if (!is_scalar(m2))
			render(k2, m2, lr);
	pr_obj_close();
}

void report_trials(json_object *result)
{
	/* Preferred columns, each with the names procedures use for it. */
	static const char *const pref[][4] = {
		{ "index" }, { "phase" },
		{ "frame_size", "spec.frame_size" },
		{ "rate_fps", "load_fps", "spec.rate_fps" },
		{ "load_pct" },
		{ "duration_s", "spec.duration_s" },
		{ "attempted", "res.attempted" },
		{ "received", "res.received" },
		{ "lost", "res.lost" },
		{ "loss_ratio", "loss_pct" },
		{ "latency.mean_ns" },
		/* the NICs' hardware stamps, where the ports had them */
		{ "hw_latency.count" },
		{ "hw_latency.across_hosts" },
		{ "hw_latency.mean_ns" },
		{ "hw_latency.accuracy_ns" },
		/* a pool's trial: its hosts' clocks (linuxptp) */
		{ "sync.error_ns" },
		{ "sync.start_skew_ns" },
		{ "sync.within" },
		{ "reason", "why" },
	};
	const size_t npref = sizeof(pref) / sizeof(pref[0]);
	json_object *trials = get(result, "trials"), *flat;
	struct pr_col cols[RT_MAX_COLS];
	static struct rt_table rt;
	struct pr_table *t;
	size_t i, p, n;
	int nc = 0, c;

	n = json_object_is_type(trials, json_type_array) ?
	    json_object_array_length(trials) : 0;
	flat = json_object_new_array();
	for (i = 0; i < n; i++) {
		json_object *f = json_object_new_object();

		bm_json_flatten(json_object_array_get_idx(trials, i), NULL, f);
		json_object_array_add(flat, f);
	}
	for (p = 0; p < npref; p++) {
		for (c = 0; c < 4 && pref[p][c]; c++) {
			for (i = 0; i < n; i++)
				if (get(json_object_array_get_idx(flat, i),
					pref[p][c]))
					break;
			if (i < n) {
				cols[nc++] = (struct pr_col){ pref[p][c],
					pref[p][c], !strcmp(pref[p][0], "phase") ||
					!strcmp(pref[p][0], "reason") };
				break;
			}
		}
	}
	if (nc < 4) {
		/* An unfamiliar trial shape: show what there is. */
		json_object *rows[1] = { NULL };

		nc = 0;
		if (n) {
			rows[0] = json_object_array_get_idx(flat, 0);
			rt_build(&rt, rows, 1, NULL, false);
			for (nc = 0; nc < rt.nc; nc++)
				cols[nc] = (struct pr_col){ rt.cols[nc].key,
					rt.cols[nc].key, rt.cols[nc].left };
		}
	}
	pr_text("trials (%zu)\n", n);
	t = pr_table_new("trials", cols, nc);
	for (i = 0; i < n; i++) {
		json_object *f = json_object_array_get_idx(flat, i);

		pr_table_row(t);
		for (c = 0; c < nc; c++)
			pr_cell_json(t, get(f, cols[c].key));
	}
	pr_table_end(t);
	json_object_put(flat);
}

/* The instances of an rfc7640.concurrent result (each with a result
 * document of its own), or NULL. */
static json_object *instances_of(json_object *result)
{
	json_object *a = get(get(result, "results"), "instances");

	if (!json_object_is_type(a, json_type_array) ||
	    !json_object_array_length(a) ||
	    !json_object_is_type(get(json_object_array_get_idx(a, 0),
				     "result"), json_type_object))
		return NULL;
	return a;
}

/* A cell of the counters table: the value, or "-" for none. */
static const char *counter_cell(json_object *o, const char *key, char *buf,
				size_t n)
{
	json_object *v = get(o, key);

	snprintf(buf, n, "%s", v ? pr_fmt_json(v) : "-");
	return buf;
}

/*
 * SPEC REQ-TM-4: the DUT's own counters, before, after and their
 * difference, then the tester's totals in the same columns, so the two
 * accounts of the run read side by side.
 */
static void report_counters(json_object *dc)
{
	json_object *before = get(dc, "before"), *after = get(dc, "after");
	json_object *delta = get(dc, "delta"), *t = get(dc, "tester");
	json_object *keys = after ? after : before;
	char b[3][64];
	int w = 16;

	if (!dc)
		return;
	/* pr_fmt_json has one buffer: one value a call */
	counter_cell(dc, "command", b[0], sizeof(b[0]));
	counter_cell(dc, "wait_s", b[1], sizeof(b[1]));
	pr_text("\nDUT counters (%s, read %s s after the traffic)\n", b[0],
		b[1]);
	if (get(dc, "error"))
		pr_text("  %s\n", pr_fmt_json(get(dc, "error")));
	if (keys) {
		json_object_object_foreach(keys, k1, v1) {
			(void)v1;
			if ((int)strlen(k1) > w)
				w = (int)strlen(k1);
		}
		pr_text("  %-*s %16s %16s %16s\n", w, "counter", "before",
			"after", "delta");
		json_object_object_foreach(keys, k, v) {
			(void)v;
			pr_text("  %-*s %16s %16s %16s\n", w, k,
				counter_cell(before, k, b[0], sizeof(b[0])),
				counter_cell(after, k, b[1], sizeof(b[1])),
				counter_cell(delta, k, b[2], sizeof(b[2])));
		}
	}
	pr_text("  %-*s %16s %16s %16s\n", w, "tester: sent", "", "",
		counter_cell(t, "attempted", b[0], sizeof(b[0])));
	pr_text("  %-*s %16s %16s %16s\n", w, "tester: received", "", "",
		counter_cell(t, "received", b[0], sizeof(b[0])));
	pr_text("  %-*s %16s %16s %16s\n", w, "tester: lost", "", "",
		counter_cell(t, "lost", b[0], sizeof(b[0])));
}

/* The parameters: those the submitter gave (bmd's meta.params_given),
 * then how many kept the procedure's defaults (the JSON and the HTML
 * page list them); every one for a result that does not say. */
static void report_params(json_object *params, json_object *given)
{
	json_object *mine;

	if (!params || !json_object_object_length(params))
		return;
	pr_text("\n");
	mine = front_params_given(params, given);
	if (!mine) {
		render("parameters", params, 0);
		return;
	}
	if (json_object_object_length(mine))
		render("parameters given", mine, 0);
	else
		pr_text("parameters given: none\n");
	pr_text("  (%d more at the procedure's defaults: bmctl report --json, "
		"or the HTML page)\n",
		json_object_object_length(params) -
		json_object_object_length(mine));
	json_object_put(mine);
}

void report_print(json_object *result, bool trials)
{
	static struct front front;	/* 25 KB: off the stack */
	json_object *meta = get(result, "meta"), *v, *inst, *res = NULL;
	double lr = json_object_get_double(get(meta, "line_rate_bps"));
	size_t i, n;

	pr_init(false);
	front_build(result, &front);
	front_text(&front);
	v = get(result, "error");
	if (v)
		pr_text("\nINCOMPLETE: %s: the results below are partial\n",
			pr_fmt_json(v));
	pr_text("\n");
	units = true;
	/* TM-CONC: the combined table here, each instance's own document
	 * after it, as that procedure's report */
	inst = instances_of(result);
	if (inst && !json_object_deep_copy(get(result, "results"), &res,
					   NULL)) {
		v = get(res, "instances");
		for (i = 0; i < json_object_array_length(v); i++)
			json_object_object_del(json_object_array_get_idx(v, i),
					       "result");
	}
	render("results", res ? res : get(result, "results"), lr);
	json_object_put(res);
	v = get(result, "repeatability");
	if (v && !json_object_is_type(v, json_type_null)) {
		pr_text("\n");
		render("repeatability", v, 0);
	}
	units = false;
	v = get(result, "deviations");
	n = json_object_is_type(v, json_type_array) ?
	    json_object_array_length(v) : 0;
	if (n) {
		pr_text("\ndeviations\n");
		for (i = 0; i < n; i++)
			pr_text("  - %s\n", pr_fmt_json(
				json_object_array_get_idx(v, i)));
	}
	report_counters(get(result, "dut_counters"));
	/* what was asked comes after what was measured */
	report_params(get(result, "params"), get(meta, "params_given"));
	if (trials) {
		pr_text("\n");
		report_trials(result);
	}
	for (i = 0; inst && i < json_object_array_length(inst); i++) {
		v = json_object_array_get_idx(inst, i);
		pr_text("\n== instance %s: ", pr_fmt_json(get(v, "instance")));
		report_print(get(v, "result"), trials);
	}
}

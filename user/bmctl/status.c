// SPDX-License-Identifier: GPL-2.0
/* bmctl status, port list. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bmctl.h"
#include "print.h"

static json_object *get(json_object *o, const char *key)
{
	json_object *v = NULL;

	json_object_object_get_ex(o, key, &v);
	return v;
}

static void uptime_str(double s, char *buf, size_t size)
{
	long t = (long)s;

	if (t >= 86400)
		snprintf(buf, size, "%ldd%02ldh%02ldm", t / 86400,
			 t % 86400 / 3600, t % 3600 / 60);
	else if (t >= 3600)
		snprintf(buf, size, "%ldh%02ldm%02lds", t / 3600,
			 t % 3600 / 60, t % 60);
	else
		snprintf(buf, size, "%ldm%02lds", t / 60, t % 60);
}

/*
 * The resets of bmd's configuration (R2544-RESET): what `--param reset=NAME`
 * may choose.  Text shows each name with its command; JSON the array as
 * bmd gave it.  An older bmd says nothing, and neither does bmctl.
 */
static void print_resets(json_object *r)
{
	json_object *a = get(r, "resets"), *e;
	size_t i, n;

	if (!a)
		return;
	if (pr_json()) {
		pr_kv_json("config", NULL, get(r, "config"));
		pr_kv_json("resets", NULL, a);
		return;
	}
	pr_kv_str("config", "config", get(r, "config") ?
		  json_object_get_string(get(r, "config")) :
		  "none (no configuration file)");
	n = json_object_is_type(a, json_type_array) ?
	    json_object_array_length(a) : 0;
	if (!n)
		pr_kv_str("resets", "resets", "none (bmd.conf: reset.NAME = COMMAND)");
	/* names only: bmd keeps the commands, which may carry passwords */
	for (i = 0; i < n; i++) {
		char label[64];

		e = json_object_array_get_idx(a, i);
		snprintf(label, sizeof(label), "reset %s",
			 json_object_get_string(get(e, "name")));
		pr_kv_str("reset", label, "configured (reset=NAME)");
	}
}

/* v's string, "?" when it is none (a result edited by hand). */
static const char *str_or(json_object *v)
{
	const char *s = json_object_get_string(v);

	return s ? s : "?";
}

/* The generator's calibrated capacity (REQ-GEN-6): a line per port and
 * path measured, from bmd's newest bmgen.capacity of each port. */
static void print_capacity(json_object *r)
{
	json_object *a = get(r, "capacity"), *p, *c, *e, *loop;
	char label[64], line[200], lbuf[48];
	size_t i, k;

	if (opts.json) {
		if (a)
			pr_kv_json("capacity", NULL, a);
		return;
	}
	for (i = 0; a && i < json_object_array_length(a); i++) {
		p = json_object_array_get_idx(a, i);
		c = get(p, "capacity");
		for (k = 0; c && k < json_object_array_length(c); k++) {
			e = json_object_array_get_idx(c, k);
			if (!json_object_get_boolean(get(e, "available")))
				continue;
			loop = get(e, "loop_fps");
			if (!json_object_object_get_ex(e, "loop_fps", NULL))
				snprintf(lbuf, sizeof(lbuf), "not measured");
			else if (loop)
				snprintf(lbuf, sizeof(lbuf), "%.4g fps clean",
					 json_object_get_double(loop));
			else
				snprintf(lbuf, sizeof(lbuf), "lost frames at every rate tried");
			snprintf(label, sizeof(label), "capacity %s %s",
				 str_or(get(p, "port")), str_or(get(e, "tx_path")));
			snprintf(line, sizeof(line),
				 "%.4g fps/kthread at %lld B%s, loop %s; job %lld, %s",
				 json_object_get_double(get(e, "send_fps")),
				 (long long)json_object_get_int64(
					 get(e, "frame_size")),
				 json_object_get_boolean(get(e, "line_limited")) ?
				 " (line rate)" : "",
				 lbuf,
				 (long long)json_object_get_int64(get(p, "job")),
				 str_or(get(p, "measured")));
			pr_kv_str("capacity", label, line);
		}
	}
}

int cmd_status(int argc, char **argv)
{
	json_object *r, *m, *q;
	char buf[64];
	int ret;

	(void)argv;
	if (argc > 0)
		return usage_error("status takes no arguments");
	/* bmctl talks to bmd only: the module it reports is bmd's, on
	 * bmd's host, which need not be this one */
	ret = ask_bmd(request_new("status"), &r);
	if (ret)
		return ret;

	pr_init(opts.json);
	pr_obj_open("bmd", "bmd");
	pr_kv_json("version", NULL, get(r, "version"));
	pr_kv_json("protocol", NULL, get(r, "protocol"));
	pr_kv_json("pid", NULL, get(r, "pid"));
	if (opts.json) {
		pr_kv_json("uptime_s", NULL, get(r, "uptime_s"));
	} else {
		uptime_str(json_object_get_double(get(r, "uptime_s")), buf,
			   sizeof(buf));
		pr_kv_str("uptime_s", "uptime", buf);
	}
	pr_kv_json("results_dir", "results", get(r, "results_dir"));
	print_resets(r);
	q = get(r, "queue");
	pr_obj_open("queue", NULL);
	pr_kv_json("running", "jobs running", get(q, "running"));
	pr_kv_json("queued", "jobs queued", get(q, "queued"));
	pr_kv_json("finished", "jobs finished", get(q, "finished"));
	pr_obj_close();
	pr_obj_close();
	m = get(r, "module");
	if (m) {
		pr_obj_open("module", "module");
		pr_kv_json("version", NULL, get(m, "version"));
		pr_kv_json("protocol", NULL, get(m, "protocol"));
		pr_kv_json("cpus", NULL, get(m, "cpus"));
		pr_kv_json("kthreads", NULL, get(m, "kthreads"));
		pr_kv_json("ports", NULL, get(m, "ports"));
		pr_kv_json("streams", NULL, get(m, "streams"));
		pr_obj_close();
	} else {
		pr_kv_json("module_error", "module", get(r, "module_error"));
	}
	print_capacity(r);
	pr_finish();
	ret = EXIT_OK;
	if (!m)
		ret = failure("bmgen module: %s",
			      json_object_get_string(get(r, "module_error")));
	json_object_put(r);
	return ret;
}

/* A cell of an array of strings, comma-joined ("alloc,recycle"). */
static void cell_list(struct pr_table *t, json_object *a)
{
	char buf[128] = "";
	size_t i, n = json_object_array_length(a), len = 0;

	for (i = 0; i < n && len < sizeof(buf); i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s",
					i ? "," : "",
					json_object_get_string(
						json_object_array_get_idx(a, i)));
	pr_cell_str(t, buf);
}

/*
 * The CAPACITY cell (REQ-GEN-6): what one kthread sent on the port's
 * default path (auto) at the smallest calibrated frame, from the newest
 * bmgen.capacity: "2.13 Mfps/kthread 64 B"; empty when never measured.
 */
static void cell_capacity(struct pr_table *t, json_object *c)
{
	json_object *a = get(c, "capacity"), *e, *best = NULL;
	char buf[64];
	size_t i;

	for (i = 0; a && i < json_object_array_length(a); i++) {
		const char *tp;

		e = json_object_array_get_idx(a, i);
		tp = json_object_get_string(get(e, "tx_path"));
		if (!tp || strcmp(tp, "auto"))
			continue;
		if (!best || json_object_get_int64(get(e, "frame_size")) <
			     json_object_get_int64(get(best, "frame_size")))
			best = e;
	}
	if (!best) {
		pr_cell_str(t, NULL);
		return;
	}
	snprintf(buf, sizeof(buf), "%.3g Mfps/kthread %lld B%s",
		 json_object_get_double(get(best, "send_fps")) / 1e6,
		 (long long)json_object_get_int64(get(best, "frame_size")),
		 json_object_get_boolean(get(best, "line_limited")) ?
		 " (line)" : "");
	pr_cell_str(t, buf);
}

/* bmctl port list: the ports of bmd's host, as bmd sees them;
 * bmctl port calibrate: bmgen.capacity (run.c). */
int cmd_port(int argc, char **argv)
{
	static const struct pr_col cols[] = {
		{ "name", "PORT", true }, { "driver", "DRIVER", true },
		{ "speed_mbps", "SPEED(Mb/s)", false },
		{ "operstate", "STATE", true }, { "mtu", "MTU", false },
		{ "address", "ADDRESS", true }, { "bus_info", "BUS", true },
		{ "firmware", "FIRMWARE", true }, { "phc_index", "PHC", false },
		{ "hw_timestamps", "HWTS", true },
		{ "tx_paths", "TXPATHS", true },
		{ "capacity", "CAPACITY", true },
	};
	const size_t ncols = sizeof(cols) / sizeof(cols[0]);
	json_object *r, *ports;
	struct pr_table *t;
	size_t i, k, n;
	int ret;

	if (argc > 0 && matches(argv[0], "calibrate"))
		return cmd_port_calibrate(argc - 1, argv + 1);
	if (argc > 0 && !matches(argv[0], "list") && !matches(argv[0], "show"))
		return usage_error("unknown port command '%s' (port list, port calibrate)",
				   argv[0]);
	if (argc > 1)
		return usage_error("port list takes no arguments");
	ret = ask_bmd(request_new("ports"), &r);
	if (ret)
		return ret;
	ports = get(r, "ports");
	n = json_object_is_type(ports, json_type_array) ?
	    json_object_array_length(ports) : 0;
	pr_init(opts.json);
	if (!opts.json)
		pr_text("ports of %s\n", json_object_get_string(get(r, "host")));
	t = pr_table_new("ports", cols, (int)ncols);
	for (i = 0; i < n; i++) {
		json_object *p = json_object_array_get_idx(ports, i);

		pr_table_row(t);
		for (k = 0; k < ncols; k++) {
			json_object *v = get(p, cols[k].key);

			if (!v)
				pr_cell_str(t, NULL);
			else if (!strcmp(cols[k].key, "capacity"))
				cell_capacity(t, v);
			else if (json_object_is_type(v, json_type_boolean))
				pr_cell_str(t, json_object_get_boolean(v) ?
					    "yes" : "no");
			else if (json_object_is_type(v, json_type_int))
				pr_cell_u64(t, (uint64_t)json_object_get_int64(v));
			else if (json_object_is_type(v, json_type_array))
				cell_list(t, v);
			else
				pr_cell_str(t, json_object_get_string(v));
		}
	}
	pr_table_end(t);
	pr_finish();
	json_object_put(r);
	return EXIT_OK;
}

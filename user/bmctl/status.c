// SPDX-License-Identifier: GPL-2.0
/* bmctl status, port list. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bm_genl.h"
#include "bm_portinfo.h"
#include "bmctl.h"
#include "print.h"

static json_object *get(json_object *o, const char *key)
{
	json_object *v = NULL;

	json_object_object_get_ex(o, key, &v);
	return v;
}

static void print_module(const struct bm_module_status *st)
{
	pr_obj_open("module", "module");
	pr_kv_str("version", NULL, st->version);
	pr_kv_u64("protocol", NULL, st->proto);
	pr_kv_u64("cpus", NULL, st->cpus);
	pr_kv_u64("kthreads", NULL, st->kthreads);
	pr_kv_u64("ports", NULL, st->ports);
	pr_kv_u64("streams", NULL, st->streams);
	pr_obj_close();
}

/* bmd is not there: the module can still be asked directly. */
static int status_direct(const char *why)
{
	struct bm_module_status st;
	struct bm_error err = { "" };

	if (bm_genl_status(&st, &err))
		return failure("%s; bmgen module: %s", why, err.msg);
	pr_init(opts.json);
	pr_obj_open("bmd", "bmd");
	pr_kv_str("state", NULL, "not running");
	pr_obj_close();
	print_module(&st);
	pr_finish();
	return failure("%s", why);
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

int cmd_status(int argc, char **argv)
{
	struct bm_error err = { "" };
	struct bm_client c;
	json_object *r, *m, *q;
	char buf[64];
	int ret;

	(void)argv;
	if (argc > 0)
		return usage_error("status takes no arguments");
	ret = bm_client_open(&c, opts.socket, &err);
	if (ret == -ENOENT || ret == -ECONNREFUSED)
		return status_direct(err.msg);
	if (ret)
		return failure("%s", err.msg);
	ret = call_bmd(&c, request_new("status"), &r);
	bm_client_close(&c);
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
	pr_finish();
	ret = EXIT_OK;
	if (!m)
		ret = failure("bmgen module: %s",
			      json_object_get_string(get(r, "module_error")));
	json_object_put(r);
	return ret;
}

int cmd_port(int argc, char **argv)
{
	static const struct pr_col cols[] = {
		{ "name", "PORT", true }, { "driver", "DRIVER", true },
		{ "speed_mbps", "SPEED(Mb/s)", false },
		{ "operstate", "STATE", true }, { "mtu", "MTU", false },
		{ "address", "ADDRESS", true }, { "bus_info", "BUS", true },
	};
	struct bm_port_info *v;
	struct pr_table *t;
	size_t i, n;
	int ret;

	if (argc > 0 && !matches(argv[0], "list") && !matches(argv[0], "show"))
		return usage_error("unknown port command '%s' (port list)",
				   argv[0]);
	if (argc > 1)
		return usage_error("port list takes no arguments");
	ret = bm_port_list(NULL, &v, &n);
	if (ret)
		return failure("/sys/class/net: %s", strerror(-ret));
	pr_init(opts.json);
	t = pr_table_new("ports", cols, 7);
	for (i = 0; i < n; i++) {
		pr_table_row(t);
		pr_cell_str(t, v[i].name);
		pr_cell_str(t, v[i].driver);
		if (v[i].speed_mbps > 0)
			pr_cell_u64(t, v[i].speed_mbps);
		else
			pr_cell_str(t, NULL);
		pr_cell_str(t, v[i].operstate);
		pr_cell_u64(t, v[i].mtu);
		pr_cell_str(t, v[i].address);
		pr_cell_str(t, v[i].bus_info[0] ? v[i].bus_info : NULL);
	}
	pr_table_end(t);
	pr_finish();
	free(v);
	return EXIT_OK;
}

// SPDX-License-Identifier: GPL-2.0
/* bmd: times, the result meta (SPEC REQ-REP-1) and the default backends. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <linux/bmgen.h>

#include "bm_genl.h"
#include "bm_hosts.h"
#include "bm_pool.h"
#include "bm_portinfo.h"
#include "bm_procedure.h"
#include "bm_sim.h"
#include "bm_tcp_engine.h"
#include "daemon_int.h"

#ifndef BM_VERSION
#define BM_VERSION "unknown"
#endif

double bmd_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

void bmd_time_iso(double t, char *buf, size_t size)
{
	/* rounded, not cut: a time read back from a job file (x.100 is
	 * x.0999...) and written again must not lose a ms each restart */
	long long all = llround(t * 1000.0);
	time_t sec = (time_t)(all / 1000);
	int ms = (int)(all % 1000);
	struct tm tm;

	if (!t || !gmtime_r(&sec, &tm)) {
		snprintf(buf, size, "%s", "");
		return;
	}
	snprintf(buf, size, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ",
		 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
		 tm.tm_min, tm.tm_sec, ms);
}

double bmd_time_parse(const char *s)
{
	struct tm tm = { 0 };
	int ms = 0, n;

	if (!s || sscanf(s, "%d-%d-%dT%d:%d:%d.%dZ%n", &tm.tm_year,
			 &tm.tm_mon, &tm.tm_mday, &tm.tm_hour, &tm.tm_min,
			 &tm.tm_sec, &ms, &n) != 7)
		return 0;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	return (double)timegm(&tm) + ms / 1000.0;
}

json_object *bmd_port_json(const struct bm_port_info *pi, const char *role)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "name", json_object_new_string(pi->name));
	if (role)
		json_object_object_add(o, "role", json_object_new_string(role));
	json_object_object_add(o, "driver", json_object_new_string(pi->driver));
	json_object_object_add(o, "bus_info", pi->bus_info[0] ?
			       json_object_new_string(pi->bus_info) : NULL);
	json_object_object_add(o, "address", json_object_new_string(pi->address));
	json_object_object_add(o, "speed_mbps", pi->speed_mbps > 0 ?
			       json_object_new_int64(pi->speed_mbps) : NULL);
	json_object_object_add(o, "mtu", json_object_new_int64(pi->mtu));
	json_object_object_add(o, "operstate",
			       json_object_new_string(pi->operstate));
	json_object_object_add(o, "firmware", pi->firmware[0] ?
			       json_object_new_string(pi->firmware) : NULL);
	json_object_object_add(o, "phc_index", pi->phc_index >= 0 ?
			       json_object_new_int64(pi->phc_index) : NULL);
	json_object_object_add(o, "hw_timestamps",
			       json_object_new_boolean(pi->hw_timestamps));
	if (pi->tx_paths) {
		/* what bmgen.ko can send on it (Documentation/abi.md) */
		json_object *a = json_object_new_array();
		unsigned int i;

		for (i = BMGEN_TXP_ALLOC; i <= BMGEN_TXP_MAX; i++)
			if (pi->tx_paths & (1u << i))
				json_object_array_add(a, json_object_new_string(
					bm_genl_tx_path_name(i)));
		json_object_object_add(o, "tx_paths", a);
	} else {
		json_object_object_add(o, "tx_paths", NULL);
	}
	return o;
}

static json_object *port_json(const char *root, const char *name,
			      const char *role)
{
	json_object *o;
	struct bm_port_info pi;

	if (bm_port_info(root, name, &pi)) {
		o = json_object_new_object();
		json_object_object_add(o, "name", json_object_new_string(name));
		json_object_object_add(o, "role", json_object_new_string(role));
		json_object_object_add(o, "driver", NULL);
		return o;
	}
	return bmd_port_json(&pi, role);
}

/* RFC 2544 §7's DUT where bmd itself knows it: a backend other than the
 * module (a dry run's, a test's) simulates the device, and its version
 * and configuration are bmgen's own.  NULL for a real DUT not described:
 * bmctl report --check then says the MUST item is missing. */
static json_object *sim_dut(const struct bmd_job_desc *desc,
			    const char *backend)
{
	char v[160];
	json_object *o;

	if (!strcmp(backend, "genl"))
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "name", json_object_new_string(
		"the simulated device"));
	snprintf(v, sizeof(v), "bmgen %s, backend %s", BM_VERSION, backend);
	json_object_object_add(o, "software_version",
			       json_object_new_string(v));
	json_object_object_add(o, "configuration", json_object_new_string(
		desc->sim ? json_object_to_json_string_ext(desc->sim,
			JSON_C_TO_STRING_PLAIN) :
		"the backend's defaults (bmctl run --dry-run --sim)"));
	/* RFC 2544 §15 (REQ-2544-7) and §19: a model has no cards, and
	 * nothing but itself between the tester's ports */
	json_object_object_add(o, "pathway", json_object_new_string("n/a"));
	json_object_object_add(o, "path", json_object_new_string(
		"the tester's ports, each straight into the simulated device "
		"(no cables, no other device)"));
	return o;
}

json_object *bmd_result_meta(const struct bmd_job_desc *desc, double started,
			     double ended, const char *backend,
			     const char *ts_source, const char *sysfs_net)
{
	json_object *m = json_object_new_object(), *ports;
	char host[256] = "", t[40];
	struct utsname u;
	unsigned int i;

	json_object_object_add(m, "bmgen_version",
			       json_object_new_string(BM_VERSION));
	if (!uname(&u)) {
		char k[sizeof(u.sysname) + sizeof(u.release) +
		       sizeof(u.version) + sizeof(u.machine) + 4];

		snprintf(k, sizeof(k), "%s %s %s %s", u.sysname, u.release,
			 u.version, u.machine);
		json_object_object_add(m, "kernel", json_object_new_string(k));
	}
	gethostname(host, sizeof(host) - 1);
	json_object_object_add(m, "hostname", json_object_new_string(host));
	json_object_object_add(m, "job", json_object_new_int64(desc->id));
	json_object_object_add(m, "backend", json_object_new_string(backend));
	json_object_object_add(m, "dry_run",
			       json_object_new_boolean(desc->dry_run));
	if (desc->dry_run && desc->sim)
		json_object_object_add(m, "sim", json_object_get(desc->sim));
	json_object_object_add(m, "line_rate_bps",
			       json_object_new_double(desc->line_rate_bps));
	/* RFC 2544 §7 and App C: what was tested, and as bridge or router */
	json_object_object_add(m, "dut_mode", json_object_new_string(
		desc->router ? "router" : "bridge"));
	json_object_object_add(m, "dut", desc->dut ?
			       json_object_get(desc->dut) :
			       sim_dut(desc, backend));
	/* Every port in the order given: a pair procedure's tx and rx are
	 * the first two, an N-port procedure's port i is entry i. */
	ports = json_object_new_array();
	for (i = 0; i < desc->n_ports; i++)
		json_object_array_add(ports, port_json(sysfs_net,
			desc->ports[i], i == 0 ? "tx" : i == 1 ? "rx" : "port"));
	json_object_object_add(m, "ports", ports);
	/* a job that failed before its first trial claims no stamps: not
	 * its backend's name, nor software stamps' accuracy */
	json_object_object_add(m, "timestamp_source",
			       json_object_new_string(ts_source ? ts_source :
						      "none"));
	/* REQ-TS: the accuracy a result may claim.  Software timestamps
	 * are taken on the tx kthread and in the rx handler, so they carry
	 * scheduling and softirq delay that no calibration has measured
	 * yet (R8238-CAL): stated as not calibrated, not as a
	 * number we cannot back. */
	json_object_object_add(m, "timestamp_accuracy", json_object_new_string(
		!ts_source ? "none: no trial took a timestamp" :
		!strcmp(ts_source, "sim") ? "exact (simulated)" :
		!strcmp(ts_source, "hw") ? "hardware, not calibrated" :
		"software (kthread and rx handler), not calibrated"));
	bmd_time_iso(started, t, sizeof(t));
	json_object_object_add(m, "start", json_object_new_string(t));
	bmd_time_iso(ended, t, sizeof(t));
	json_object_object_add(m, "end", json_object_new_string(t));
	return m;
}

/*
 * The simulated device of a dry run, with the job's ports, or, when it
 * names none, "sim1".."simK" for the K ports the procedure needs (at least
 * a pair): an N-port procedure can be tried with no port at all.
 */
static struct bm_backend *sim_backend(const struct bmd_job_desc *d,
				      struct bm_error *err)
{
	char names[BM_BACKEND_MAX_PORTS][BM_BACKEND_PORT_NAME];
	const char *sim_ports[BM_BACKEND_MAX_PORTS];
	const struct bm_procedure_info *pi;
	struct bm_backend *be;
	struct bm_sim_params p;
	unsigned int k = 2, i;

	bm_sim_params_default(&p);
	if (d->sim && bm_sim_params_from_json(d->sim, &p, err))
		return NULL;
	/* bmd resolved the line rate at submit (ports, then sim). */
	if (d->line_rate_bps > 0)
		p.line_rate_bps = d->line_rate_bps;
	be = bm_sim_new(&p, err);
	if (!be)
		return NULL;
	if (!d->n_ports) {
		pi = bm_procedure_find(d->procedure, NULL);
		if (pi && pi->ports_needed > k)
			k = pi->ports_needed;
		if (k > BM_BACKEND_MAX_PORTS)
			k = BM_BACKEND_MAX_PORTS;
		for (i = 0; i < k; i++) {
			snprintf(names[i], sizeof(names[i]), "sim%u", i + 1);
			sim_ports[i] = names[i];
		}
	}
	if (bm_backend_set_ports(be, d->n_ports ? d->n_ports : k,
				 d->n_ports ? d->ports : sim_ports, err)) {
		be->ops->destroy(be);
		return NULL;
	}
	return be;
}

/*
 * A dry run over ports of several hosts ("host:ifname"): a pool of
 * simulators of the one DUT, one a host, each reporting its host's halves
 * (Documentation/multi-host.md), so that the job runs as it will over
 * the hosts' bmd.  NULL with err set, or *pooled false when every port
 * is this host's.
 */
static struct bm_backend *sim_pool(const struct bmd_job_desc *d,
				   bool *pooled, struct bm_error *err)
{
	struct bm_pool_host hosts[BM_BACKEND_MAX_PORTS + 1];
	char names[BM_BACKEND_MAX_PORTS + 1][BM_PART_HOST_LEN];
	unsigned int n, k;
	struct bm_backend *pool;

	memset(hosts, 0, sizeof(hosts));
	names[0][0] = 0;	/* this host's simulator, and one each other */
	n = 1 + bmd_job_hosts(d, names + 1);
	*pooled = n > 1;
	if (!*pooled)
		return NULL;
	for (k = 0; k < n; k++) {
		hosts[k].name = names[k];
		hosts[k].owned = true;
		hosts[k].be = sim_backend(d, err);
		if (!hosts[k].be)
			break;
	}
	if (k < n) {
		while (k--)
			hosts[k].be->ops->destroy(hosts[k].be);
		return NULL;
	}
	pool = bm_pool_new(hosts, n, d->ports, d->n_ports,
			   hosts[0].be->line_rate_bps, err);
	if (pool)
		bmd_pool_set_tolerance(pool, d);
	return pool;
}

/* The module's backend over ports[0..n) of d (tx the first, rx the second
 * or the first again). */
static struct bm_backend *genl_backend(const struct bmd_job_desc *d,
				       unsigned int n,
				       const char *const *ports,
				       struct bm_error *err)
{
	struct bm_genl_port_opts o = { 0 };
	struct bm_backend *be;
	char why[160];

	o.tx_port = ports[0];
	o.rx_port = ports[n > 1 ? 1 : 0];
	o.n_ports = n > 1 ? n : 0;
	o.ports = ports;
	o.line_rate_bps = d->line_rate_bps;
	o.router = d->router;
	o.no_hw_timestamps = d->no_hw_timestamps;
	o.tx_kthreads = d->tx_kthreads;
	o.tx_path = d->tx_path;
	o.capacity = d->capacity;
	o.n_capacity = d->n_capacity;
	be = bm_backend_genl_new(&o, err);
	/* the TCP engine beside the module (SPEC PLAT-TCP), where the host can
	 * give ports routing domains; without it stateful procedures
	 * refuse to run */
	if (be && !d->no_tcp_engine && bm_tcp_engine_available(why, sizeof(why))
	    && bm_tcp_engine_attach(be, d->router, err)) {
		be->ops->destroy(be);
		return NULL;
	}
	return be;
}

/* A real run over several hosts' ports: the module for this host's,
 * the other hosts' bmd for theirs. */
static struct bm_backend *real_pool(const struct bmd_job_desc *d,
				    bool *pooled, struct bm_error *err)
{
	const char *local[BM_BACKEND_MAX_PORTS];
	struct bm_backend *be = NULL;
	unsigned int i, n = 0;

	*pooled = false;
	for (i = 0; i < d->n_ports; i++)
		if (bm_port_label_remote(d->ports[i]))
			*pooled = true;
		else
			local[n++] = d->ports[i];
	if (!*pooled)
		return NULL;
	if (n) {
		be = genl_backend(d, n, local, err);
		if (!be)
			return NULL;
		/* a pool's stateful procedures would need every host's */
		bm_tcp_engine_detach(be);
	}
	return bmd_pool_backend(d, be, err);
}

struct bm_backend *bmd_backend_default(void *ctx, const struct bmd_job_desc *d,
				       struct bm_error *err)
{
	const char *pair[2] = { d->tx_port, d->rx_port };
	struct bm_backend *be;
	bool pooled;

	(void)ctx;
	if (d->dry_run) {
		be = sim_pool(d, &pooled, err);
		return pooled ? be : sim_backend(d, err);
	}
	be = real_pool(d, &pooled, err);
	if (pooled)
		return be;
	return genl_backend(d, d->n_ports ? d->n_ports : 2,
			    d->n_ports ? d->ports : pair, err);
}

void bmd_backend_free(struct bm_backend *be)
{
	bm_tcp_engine_detach(be);
	be->ops->destroy(be);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * A job over several hosts' ports (Documentation/multi-host.md): its
 * backend is a pool (bm_pool.h) whose parts on this host run on the
 * module, and whose parts on another host run there as bmgen.part jobs of
 * that host's bmd, reached over OpenSSH as bmctl -H reaches it ($BMGEN_SSH
 * -T HOST $BMGEN_REMOTE_BMCTL bridge): that bmd admits bmd's user by its
 * own rules and runs the part on its own ports.  Before the job, each
 * other host must run this bmd's version and protocol, and names the
 * MACs of its ports (the sending halves address them).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bm_genl.h"
#include "bm_hosts.h"
#include "bm_part.h"
#include "bm_pool.h"
#include "bm_portinfo.h"
#include "bm_proto.h"
#include "daemon_int.h"

#ifndef BM_VERSION
#define BM_VERSION "unknown"
#endif

/* Another host of the job's pool: its connection and its ports. */
struct bmd_remote {
	char host[BM_PART_HOST_LEN];
	char dest[BMD_HOST_DEST_LEN];	/* its ssh destination */
	struct bm_client c;
	bool open;
	unsigned int n_ports;
	char ports[BM_BACKEND_MAX_PORTS][BM_BACKEND_PORT_NAME];
	unsigned int job_port[BM_BACKEND_MAX_PORTS];	/* its index */
	double line_rate_bps;
	bool router;			/* the job's DUT a router (App C) */
	const struct bm_backend *pool;	/* its abort: the job's cancel */
};

static int remote_open(struct bmd_remote *r, struct bm_error *err)
{
	const char *ssh = getenv("BMGEN_SSH"), *rb = getenv("BMGEN_REMOTE_BMCTL");
	char *argv[] = {
		(char *)(ssh && *ssh ? ssh : "ssh"), "-T", r->dest,
		(char *)(rb && *rb ? rb : "bmctl"), "bridge", NULL,
	};
	int ret;

	if (r->open)
		return 0;
	ret = bm_client_open_cmd(&r->c, argv, err);
	r->open = !ret;
	return ret;
}

static void remote_release(void *ctx)
{
	struct bmd_remote *r = ctx;

	if (r->open)
		bm_client_close(&r->c);
	free(r);
}

static json_object *request(const char *cmd)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "cmd", json_object_new_string(cmd));
	return o;
}

/* o.key as a string, or "" */
static const char *str_of(json_object *o, const char *key)
{
	json_object *v;

	return json_object_object_get_ex(o, key, &v) && v ?
	       json_object_get_string(v) : "";
}

/* The host's bmd and module versions against this one's, and the MACs of
 * its ports into the pool. */
static int remote_check(struct bmd_remote *r, struct bm_backend *pool,
			struct bm_error *err)
{
	struct bm_module_status st;
	struct bm_error e = { "" };
	json_object *resp = NULL, *m, *a, *p;
	unsigned int i;
	size_t j;
	int ret;

	ret = remote_open(r, err);
	if (!ret)
		ret = bm_client_call(&r->c, request("status"), &resp, err);
	if (ret)
		goto out;
	if (strcmp(str_of(resp, "version"), BM_VERSION) ||
	    json_object_get_int(json_object_object_get(resp, "protocol")) !=
	    BM_PROTO_VERSION) {
		ret = bm_errorf(err, "bmd %s, protocol %d there, bmd %s, "
				"protocol %d here: a pool runs one version",
				str_of(resp, "version"), json_object_get_int(
				json_object_object_get(resp, "protocol")),
				BM_VERSION, BM_PROTO_VERSION);
		goto out;
	}
	m = json_object_object_get(resp, "module");
	if (m && !bm_genl_status(&st, &e) &&
	    strcmp(str_of(m, "version"), st.version)) {
		ret = bm_errorf(err, "module %s there, %s here: a pool runs "
				"one version", str_of(m, "version"),
				st.version);
		goto out;
	}
	json_object_put(resp);
	resp = NULL;
	ret = bm_client_call(&r->c, request("ports"), &resp, err);
	if (ret)
		goto out;
	a = json_object_object_get(resp, "ports");
	for (i = 0; i < r->n_ports; i++) {
		for (j = 0; j < json_object_array_length(a); j++) {
			uint8_t mac[6];

			p = json_object_array_get_idx(a, j);
			if (strcmp(str_of(p, "name"), r->ports[i]) ||
			    !bm_mac_parse(str_of(p, "address"), mac))
				continue;
			bm_pool_set_mac(pool, r->job_port[i], mac);
			break;
		}
		if (j == json_object_array_length(a)) {
			ret = bm_errorf(err, "no port %s there", r->ports[i]);
			goto out;
		}
	}
out:
	json_object_put(resp);
	return ret;
}

/* The job's ports as a submit names them: this host's interfaces. */
static json_object *remote_ports(const struct bmd_remote *r)
{
	json_object *o = json_object_new_object(), *a;
	unsigned int i;

	if (r->n_ports <= 2) {
		json_object_object_add(o, "tx",
				       json_object_new_string(r->ports[0]));
		json_object_object_add(o, "rx", json_object_new_string(
			r->ports[r->n_ports - 1]));
	} else {
		a = json_object_new_array();
		for (i = 0; i < r->n_ports; i++)
			json_object_array_add(a,
				json_object_new_string(r->ports[i]));
		json_object_object_add(o, "list", a);
	}
	if (r->line_rate_bps > 0)
		json_object_object_add(o, "line_rate_bps",
			json_object_new_double(r->line_rate_bps));
	return o;
}

/* The part job's end event ev: 0 when it is done, else -EIO with err
 * its own reason (a part that refused to start says why, not that it
 * has no result). */
static int remote_ended(json_object *ev, int64_t job, struct bm_error *err)
{
	json_object *j = json_object_object_get(ev, "job");
	const char *state = str_of(j, "state"), *why = str_of(j, "error");

	if (!strcmp(state, "done"))
		return 0;
	return bm_errorf(err, "%s (its part, job %lld, %s)", why[0] ? why :
			 "no reason given", (long long)job, state), -EIO;
}

/* Wait for job's end there; 0, or -errno with err set. */
static int remote_wait(struct bmd_remote *r, int64_t job, double limit_s,
		       struct bm_error *err)
{
	json_object *o = request("watch"), *resp = NULL, *msg;
	double waited = 0;
	int ret;

	json_object_object_add(o, "job", json_object_new_int64(job));
	ret = bm_client_call(&r->c, o, &resp, err);
	if (!ret && !strcmp(str_of(resp, "event"), "end")) {
		ret = remote_ended(resp, job, err);
		goto out;
	}
	while (!ret) {
		ret = bm_client_recv(&r->c, &msg, 1000, err);
		if (ret == -ETIMEDOUT) {
			waited += 1;
			ret = 0;
			if (r->pool && r->pool->abort && *r->pool->abort) {
				o = request("cancel");
				json_object_object_add(o, "job",
						       json_object_new_int64(job));
				bm_client_send(&r->c, o, err);
				json_object_put(o);
				return bm_errorf(err, "cancelled"), -ECANCELED;
			}
			if (waited > limit_s)
				return bm_errorf(err, "job %lld did not end in "
						 "%.0f s", (long long)job,
						 limit_s), -ETIMEDOUT;
			continue;
		}
		if (ret)
			break;
		if (!strcmp(str_of(msg, "event"), "end")) {
			ret = remote_ended(msg, job, err);
			json_object_put(msg);
			break;
		}
		json_object_put(msg);
	}
out:
	json_object_put(resp);
	return ret;
}

static int remote_run(void *ctx, const struct bm_trial_spec *spec,
		      struct bm_trial_result *res, struct bm_error *err)
{
	struct bmd_remote *r = ctx;
	json_object *o, *params, *resp = NULL, *doc, *results, *part, *v;
	int64_t job;
	int ret;

	if (bm_part_has_mgmt(spec->traffic, r->host))
		return bm_errorf(err, "management queries (RFC 2544 §11.2) "
				 "from port %s: over a pool they go from this "
				 "host's ports only (the SNMP community stays "
				 "here)", spec->traffic->ports[
					 spec->traffic->mgmt.port].name),
		       -EOPNOTSUPP;
	ret = remote_open(r, err);
	if (ret)
		return ret;
	part = bm_part_spec_to_json(spec);
	if (!part)
		return bm_errorf(err, "out of memory"), -ENOMEM;
	o = request("submit");
	json_object_object_add(o, "procedure",
			       json_object_new_string("bmgen.part"));
	params = json_object_new_object();
	json_object_object_add(params, "part", part);
	json_object_object_add(o, "params", params);
	json_object_object_add(o, "ports", remote_ports(r));
	/* a router DUT: that host's part gives its ports their addresses
	 * and resolves its own gateways (RFC 2544 App C) */
	if (r->router) {
		json_object *dut = json_object_new_object();

		json_object_object_add(dut, "mode",
				       json_object_new_string("router"));
		json_object_object_add(o, "dut", dut);
	}
	ret = bm_client_call(&r->c, o, &resp, err);
	if (ret)
		goto out;
	job = json_object_get_int64(json_object_object_get(resp, "job"));
	json_object_put(resp);
	resp = NULL;
	/* its learning, the lead and its drain, and a margin */
	ret = remote_wait(r, job, spec->duration_s + 60, err);
	if (ret)
		goto out;
	o = request("result");
	json_object_object_add(o, "job", json_object_new_int64(job));
	ret = bm_client_call(&r->c, o, &resp, err);
	if (ret)
		goto out;
	doc = json_object_object_get(resp, "result");
	if (json_object_object_get_ex(doc, "error", &v))
		ret = bm_errorf(err, "job %lld: %s", (long long)job,
				json_object_get_string(v));
	else if (!json_object_object_get_ex(doc, "results", &results) ||
		 !json_object_object_get_ex(results, "part", &part))
		ret = bm_errorf(err, "job %lld: no part in its result",
				(long long)job);
	else
		ret = bm_part_result_from_json(part, res, spec->traffic_res,
					       err);
out:
	json_object_put(resp);
	if (ret == -ECONNRESET || ret == -EPIPE) {
		/* the next trial opens a new connection */
		bm_client_close(&r->c);
		r->open = false;
	}
	return ret;
}

double bmd_sync_tolerance_us(double setting)
{
	if (setting < 0)
		return INFINITY;
	return setting > 0 ? setting : BM_POOL_SYNC_TOLERANCE_NS / 1e3;
}

void bmd_pool_set_tolerance(struct bm_backend *pool,
			    const struct bmd_job_desc *d)
{
	double us = bmd_sync_tolerance_us(d->sync_tolerance_us);

	bm_pool_set_sync_tolerance(pool, isfinite(us) ? us * 1e3 : 0);
}

unsigned int bmd_job_hosts(const struct bmd_job_desc *d,
			   char (*names)[BM_PART_HOST_LEN])
{
	char host[BM_PART_HOST_LEN], name[BM_BACKEND_PORT_NAME];
	unsigned int i, k, n = 0;
	struct bm_error e;

	for (i = 0; i < d->n_ports; i++) {
		if (bm_port_label_parse(d->ports[i], host, sizeof(host), name,
					sizeof(name), &e) || !host[0])
			continue;
		for (k = 0; k < n && strcmp(names[k], host); k++)
			;
		if (k == n)
			strcpy(names[n++], host);
	}
	return n;
}

/* Remote host r's ports among d's: their interface names, in the job's
 * order, and their places in it. */
static void remote_ports_of(struct bmd_remote *r,
			    const struct bmd_job_desc *d)
{
	char host[BM_PART_HOST_LEN], name[BM_BACKEND_PORT_NAME];
	struct bm_error e;
	unsigned int i;

	for (i = 0; i < d->n_ports; i++) {
		if (bm_port_label_parse(d->ports[i], host, sizeof(host), name,
					sizeof(name), &e) || strcmp(host, r->host))
			continue;
		strcpy(r->ports[r->n_ports], name);
		r->job_port[r->n_ports++] = i;
	}
}

struct bm_backend *bmd_pool_backend(const struct bmd_job_desc *d,
				    struct bm_backend *local,
				    struct bm_error *err)
{
	struct bm_pool_host hosts[BM_BACKEND_MAX_PORTS + 1];
	char names[BM_BACKEND_MAX_PORTS][BM_PART_HOST_LEN];
	struct bmd_remote *rem[BM_BACKEND_MAX_PORTS];
	unsigned int n = 0, nr, i;
	struct bm_backend *pool;
	const char *dest;

	memset(hosts, 0, sizeof(hosts));
	if (local) {
		hosts[n].name = "";
		hosts[n].be = local;
		hosts[n++].owned = true;
	}
	nr = bmd_job_hosts(d, names);
	for (i = 0; i < nr; i++) {
		struct bmd_remote *r = calloc(1, sizeof(*r));

		if (!r) {
			bm_errorf(err, "out of memory");
			goto fail;
		}
		strcpy(r->host, names[i]);
		dest = d->hosts ? bmd_host_dest(d->hosts, r->host) : NULL;
		if (!dest) {
			/* submit checked it; a job from before the list
			 * changed */
			bm_errorf(err, "host %s: not one of bmd's tester "
				  "hosts (bmd.conf hosts)", r->host);
			free(r);
			goto fail;
		}
		snprintf(r->dest, sizeof(r->dest), "%s", dest);
		r->line_rate_bps = d->line_rate_bps;
		r->router = d->router;
		remote_ports_of(r, d);
		rem[i] = r;
		hosts[n].name = r->host;
		hosts[n].run = remote_run;
		hosts[n].ctx = r;
		hosts[n++].release = remote_release;
	}
	pool = bm_pool_new(hosts, n, d->ports, d->n_ports, d->line_rate_bps,
			   err);
	if (!pool)
		return NULL;	/* it released every host */
	bmd_pool_set_tolerance(pool, d);
	/* this host's ports too: the other hosts' sending halves address
	 * them */
	for (i = 0; i < d->n_ports; i++) {
		struct bm_port_info pi;
		uint8_t mac[6];

		if (!bm_port_label_remote(d->ports[i]) &&
		    !bm_port_info(NULL, d->ports[i], &pi) &&
		    bm_mac_parse(pi.address, mac))
			bm_pool_set_mac(pool, i, mac);
	}
	for (i = 0; i < nr; i++) {
		struct bm_error e = { "" };

		rem[i]->pool = pool;
		if (remote_check(rem[i], pool, &e)) {
			bm_errorf(err, "host %s: %s", rem[i]->host, e.msg);
			pool->ops->destroy(pool);
			return NULL;
		}
	}
	/* with a part here the pool states this module's stamps
	 * (bm_pool_new); without one, the other hosts' modules' */
	if (!local) {
		bm_pool_set_ts_accuracy(pool, "software timestamps of the "
					"pool's hosts' modules, not "
					"calibrated");
		pool->ts_resolution_ns = 1.0;
		pool->ts_accuracy_ns = NAN;
	}
	return pool;
fail:
	bm_pool_hosts_release(hosts, n);
	return NULL;
}

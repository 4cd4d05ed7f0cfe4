// SPDX-License-Identifier: GPL-2.0
/*
 * A pool of tester hosts as one backend (bm_pool.h): each trial's traffic
 * given its ports' hosts, every host's part run at one CLOCK_TAI instant
 * in a thread of its own (a part blocks until its trial ends, and the
 * parts must run together), the parts' results merged (bm_hosts.h).
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bm_clock.h"
#include "bm_hosts.h"
#include "bm_pool.h"

struct pool_port {
	char host[64];
	char name[32];
	uint8_t mac[6];
	bool have_mac;
};

struct pool_priv {
	unsigned int n_hosts;
	struct bm_pool_host *hosts;
	char (*names)[sizeof(((struct bm_port_spec *)0)->host)];
	struct pool_port ports[BM_BACKEND_MAX_PORTS];
	double sync_tolerance_ns;
	char ts_accuracy[256];		/* be->ts_accuracy */
};

/* One host's part of one trial, run in its own thread. */
struct pool_part {
	const struct bm_pool_host *host;
	struct bm_trial_spec spec;
	struct bm_trial_result res;
	struct bm_error err;
	double elapsed_s;	/* what its backend's clock advanced */
	int ret;
	pthread_t thread;
	bool started;
};

static void *pool_part_run(void *arg)
{
	struct pool_part *p = arg;
	struct bm_backend *hb = p->host->be;

	if (hb) {
		double before = hb->elapsed_s;

		p->ret = bm_run_trial(hb, &p->spec, &p->res, &p->err);
		p->elapsed_s = hb->elapsed_s - before;
	} else {
		p->ret = p->host->run(p->host->ctx, &p->spec, &p->res,
				      &p->err);
	}
	return NULL;
}

/* t (a copy of the trial's traffic) with its ports' labels turned into
 * their hosts and interface names. */
static int pool_place_ports(const struct pool_priv *pp, struct bm_traffic *t,
			    const struct bm_backend *be, struct bm_error *err)
{
	unsigned int i, j;

	for (i = 0; i < t->n_ports; i++) {
		struct bm_port_spec *p = &t->ports[i];

		for (j = 0; j < be->n_ports; j++)
			if (!strcmp(be->port_names[j], p->name))
				break;
		if (p->host[0] || j == be->n_ports)
			return bm_errorf(err, "port %s%s%s is not one of the "
					 "pool's", p->host, p->host[0] ? ":" :
					 "", p->name), -EINVAL;
		memcpy(p->host, pp->ports[j].host, sizeof(p->host));
		memcpy(p->name, pp->ports[j].name, sizeof(p->name));
		if (pp->ports[j].have_mac) {
			memcpy(p->mac, pp->ports[j].mac, sizeof(p->mac));
			p->have_mac = true;
		}
	}
	return 0;
}

static int64_t pool_tai_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_TAI, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static const char *pool_host_shown(const char *name)
{
	return name[0] ? name : "this host";
}

/*
 * spec's event (a DUT reset command of bmd's) from this host, once,
 * event_at_s after the start instant while the parts run: the DUT's
 * reset is no host's part.  Its time from the start into *fired_s; the
 * event's return.  On simulated hosts (virtual_clock) the trial has no
 * real time: at once, said to be at event_at_s.
 */
static int pool_fire_event(const struct bm_trial_spec *spec, int64_t start,
			   bool virtual_clock, double *fired_s)
{
	int64_t at = start + (int64_t)llround(spec->event_at_s * 1e9);
	struct timespec ts = { at / 1000000000, at % 1000000000 };

	if (virtual_clock) {
		*fired_s = spec->event_at_s;
		return spec->event_fn(spec->event_ctx);
	}
	while (clock_nanosleep(CLOCK_TAI, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
	*fired_s = (double)(pool_tai_now_ns() - start) / 1e9;
	return spec->event_fn(spec->event_ctx);
}

/* Run the parts of t's trial on their hosts together, merge them into
 * r and res. */
static int pool_run_parts(struct bm_backend *be,
			  const struct bm_trial_spec *spec,
			  const struct bm_traffic *t,
			  struct bm_traffic_result *r,
			  struct bm_trial_result *res, struct bm_error *err)
{
	struct pool_priv *pp = be->priv;
	struct pool_part *parts = calloc(pp->n_hosts, sizeof(*parts));
	struct bm_pool_merge m;
	double t0 = bm_mono_s(), virt = 0;
	bool all_virtual = true;
	/* every host learns its receiving ports first (RFC 2544 §23b), after
	 * the routing updates and the DUT's settling (§23a) */
	double lead = BM_POOL_START_LEAD_S + bm_part_lead_s(t, spec);
	int64_t start = pool_tai_now_ns() + (int64_t)llround(lead * 1e9);
	int tai_utc_s = bm_tai_utc_s();	/* start's offset from UTC here */
	/* R2544-RESET's event: the models' own reset each host's model
	 * makes at event_at_s of its trial; any other this host fires */
	bool model_event = spec->event_fn == bm_backend_dut_reset &&
			   spec->event_ctx == be;
	double fired_s = -1.0;
	unsigned int i, k;
	int ret = 0, failed = -1, event_ret = 0;

	if (!parts)
		return bm_errorf(err, "out of memory"), -ENOMEM;
	for (i = 0; i < pp->n_hosts; i++) {
		struct pool_part *p = &parts[i];

		p->host = &pp->hosts[i];
		for (k = 0; k < t->n_streams; k++)
			if (bm_stream_half(t, &t->streams[k], p->host->name))
				break;
		if (k == t->n_streams)
			continue;	/* no stream of its ports in this one */
		p->spec = *spec;
		p->spec.traffic = t;
		p->spec.traffic_res = bm_traffic_result_new(t);
		p->spec.host = p->host->name;
		p->spec.start_tai_ns = start;
		p->spec.sync_tolerance_ns = pp->sync_tolerance_ns;
		p->spec.tai_utc_s = tai_utc_s;
		/* the pool decides on its links, with every host's counts */
		p->spec.link_down_ok = true;
		p->spec.event_fn = model_event ? bm_backend_dut_reset : NULL;
		p->spec.event_ctx = p->host->be;
		if (!p->spec.traffic_res) {
			ret = (bm_errorf(err, "out of memory"), -ENOMEM);
			break;
		}
		if (pthread_create(&p->thread, NULL, pool_part_run, p)) {
			ret = (bm_errorf(err, "%s: cannot start its part",
					 pool_host_shown(p->host->name)),
			       -EAGAIN);
			break;
		}
		p->started = true;
	}
	if (!ret && spec->event_fn && !model_event)
		event_ret = pool_fire_event(spec, start, be->virtual_clock,
					    &fired_s);
	for (i = 0; i < pp->n_hosts; i++)
		if (parts[i].started)
			pthread_join(parts[i].thread, NULL);
	/* the first host that failed ends the trial, with its name; what
	 * the others measured is merged all the same, and said to be a
	 * failed trial's (bm_pool_sync.failed) */
	for (i = 0; failed < 0 && i < pp->n_hosts; i++)
		if (parts[i].started && parts[i].ret)
			failed = (int)i;
	if (!ret && failed >= 0) {
		ret = parts[failed].ret;
		bm_errorf(err, "host %s: %s",
			  pool_host_shown(parts[failed].host->name),
			  parts[failed].err.msg);
	}
	if (!ret || failed >= 0) {
		bm_pool_merge_init(&m, t, r, res);
		for (i = 0; i < pp->n_hosts; i++) {
			struct pool_part *p = &parts[i];
			char why[sizeof(err->msg) + 80];

			if (!p->started)
				continue;
			if (p->ret) {
				snprintf(why, sizeof(why), "host %s: %s",
					 pool_host_shown(p->host->name),
					 p->err.msg);
				bm_pool_merge_failed(&m, p->host->name, why);
				continue;
			}
			bm_pool_merge_add(&m, p->host->name,
					  p->spec.traffic_res, &p->res);
			virt = fmax(virt, p->elapsed_s);
			all_virtual &= p->host->be && p->host->be->virtual_clock;
		}
		/* the sync error first: the hardware pairs across hosts
		 * state it in their accuracy */
		bm_pool_sync_judge(&res->sync, pp->sync_tolerance_ns);
		bm_pool_merge_end(&m, spec->frame_size);
		if (fired_s >= 0) {
			res->event_fired_s = fired_s;
			res->event_ret = event_ret;
		}
		be->elapsed_s += all_virtual ? virt : bm_mono_s() - t0;
	}
	for (i = 0; i < pp->n_hosts; i++)
		bm_traffic_result_free(parts[i].spec.traffic_res);
	free(parts);
	return ret;
}

static int pool_run_trial(struct bm_backend *be,
			  const struct bm_trial_spec *spec,
			  struct bm_trial_result *res, struct bm_error *err)
{
	const struct bm_traffic *st = spec->traffic;
	struct bm_traffic_result *r = NULL;
	struct bm_traffic t;
	int ret;

	if (!st)
		return bm_errorf(err, "pool: a trial without traffic");
	if (spec->host)
		return bm_errorf(err, "pool: a pool is no host of another");
	t = *st;
	t.streams = malloc((st->n_streams ? st->n_streams : 1) *
			   sizeof(*t.streams));
	if (!t.streams)
		return bm_errorf(err, "out of memory"), -ENOMEM;
	memcpy(t.streams, st->streams, st->n_streams * sizeof(*t.streams));
	t.cap_streams = st->n_streams;
	ret = pool_place_ports(be->priv, &t, be, err);
	if (!ret) {
		r = bm_traffic_result_new(&t);
		if (!r)
			ret = (bm_errorf(err, "out of memory"), -ENOMEM);
	}
	if (!ret)
		ret = pool_run_parts(be, spec, &t, r, res, err);
	if (!ret && spec->traffic_res &&
	    spec->traffic_res->n_streams == r->n_streams &&
	    spec->traffic_res->n_ports == r->n_ports) {
		struct bm_traffic_result swap = *spec->traffic_res;

		*spec->traffic_res = *r;
		*r = swap;
	}
	bm_traffic_result_free(r);
	bm_traffic_free(&t);
	return ret;
}

void bm_pool_hosts_release(const struct bm_pool_host *hosts, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (hosts[i].owned && hosts[i].be)
			hosts[i].be->ops->destroy(hosts[i].be);
		if (hosts[i].release)
			hosts[i].release(hosts[i].ctx);
	}
}

static void pool_destroy(struct bm_backend *be)
{
	struct pool_priv *pp = be->priv;

	if (pp)
		bm_pool_hosts_release(pp->hosts, pp->n_hosts);
	if (pp) {
		free(pp->hosts);
		free(pp->names);
	}
	free(pp);
	free(be);
}

/* Called directly it has nothing to reset: pool_run_parts gives each
 * host's model the event instead (its part's spec.event_fn). */
static int pool_dut_reset(struct bm_backend *be)
{
	(void)be;
	return -EOPNOTSUPP;
}

static const struct bm_backend_ops pool_ops = {
	.run_trial = pool_run_trial,
	.destroy = pool_destroy,
};

/* A pool whose every host is a model of the one DUT that can reset it
 * (the simulator): the DUT reset of R2544-RESET is the models'. */
static const struct bm_backend_ops pool_model_ops = {
	.run_trial = pool_run_trial,
	.destroy = pool_destroy,
	.dut_reset = pool_dut_reset,
};

void bm_pool_set_mac(struct bm_backend *be, unsigned int i,
		     const uint8_t mac[6])
{
	struct pool_priv *pp = be->priv;

	if (!bm_backend_is_pool(be) || i >= be->n_ports)
		return;
	memcpy(pp->ports[i].mac, mac, 6);
	pp->ports[i].have_mac = true;
}

void bm_pool_set_ts_accuracy(struct bm_backend *be, const char *hosts)
{
	struct pool_priv *pp = be->priv;

	if (!bm_backend_is_pool(be))
		return;
	snprintf(pp->ts_accuracy, sizeof(pp->ts_accuracy), "%s; between "
		 "hosts, plus their clocks' sync error (each trial's "
		 "sync.error_ns)", hosts ? hosts : "unstated");
	be->ts_accuracy = pp->ts_accuracy;
}

void bm_pool_set_sync_tolerance(struct bm_backend *be, double ns)
{
	if (bm_backend_is_pool(be))
		((struct pool_priv *)be->priv)->sync_tolerance_ns =
			ns > 0 ? ns : 0;
}

bool bm_backend_is_pool(const struct bm_backend *be)
{
	return be && (be->ops == &pool_ops || be->ops == &pool_model_ops);
}

/* Is host one of the n (ones before i for a repeat)? */
static int pool_host_index(const struct bm_pool_host *hosts, unsigned int n,
			   const char *host)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (!strcmp(hosts[i].name, host))
			return (int)i;
	return -1;
}

struct bm_backend *bm_pool_new(const struct bm_pool_host *hosts,
			       unsigned int n, const char *const *labels,
			       unsigned int n_ports, double line_rate_bps,
			       struct bm_error *err)
{
	struct bm_backend *be = calloc(1, sizeof(*be));
	struct pool_priv *pp = calloc(1, sizeof(*pp));
	unsigned int i;

	if (!be || !pp || !(pp->hosts = calloc(n ? n : 1, sizeof(*hosts))) ||
	    !(pp->names = calloc(n ? n : 1, sizeof(*pp->names)))) {
		bm_errorf(err, "out of memory");
		goto fail;
	}
	be->priv = pp;
	be->ops = &pool_ops;
	for (i = 0; i < n; i++) {
		if (!hosts[i].name || (!hosts[i].be && !hosts[i].run) ||
		    strlen(hosts[i].name) >= sizeof(pp->names[i]) ||
		    pool_host_index(hosts, i, hosts[i].name) >= 0) {
			bm_errorf(err, "pool: host %u is unnamed, repeated, "
				  "too long or cannot run", i + 1);
			goto fail;
		}
		pp->hosts[i] = hosts[i];
		strcpy(pp->names[i], hosts[i].name);
		pp->hosts[i].name = pp->names[i];
		if (hosts[i].be && !be->ts_accuracy) {
			be->deviation = hosts[i].be->deviation;
			bm_pool_set_ts_accuracy(be, hosts[i].be->ts_accuracy);
			be->ts_resolution_ns = hosts[i].be->ts_resolution_ns;
			be->ts_accuracy_ns = hosts[i].be->ts_accuracy_ns;
		}
	}
	/* its trials take no host time only when no host's part does */
	be->virtual_clock = n > 0;
	for (i = 0; i < n; i++)
		be->virtual_clock &= hosts[i].be && hosts[i].be->virtual_clock;
	if (be->virtual_clock) {
		be->ops = &pool_model_ops;
		for (i = 0; i < n; i++)
			if (!hosts[i].be->ops->dut_reset)
				be->ops = &pool_ops;
	}
	if (n > BM_POOL_MAX_HOSTS) {
		bm_errorf(err, "pool: %u hosts, at most %d", n,
			  BM_POOL_MAX_HOSTS);
		goto fail;
	}
	pp->n_hosts = n;
	pp->sync_tolerance_ns = BM_POOL_SYNC_TOLERANCE_NS;
	for (i = 0; i < n_ports && i < BM_BACKEND_MAX_PORTS; i++) {
		struct pool_port *p = &pp->ports[i];

		if (bm_port_label_parse(labels[i], p->host, sizeof(p->host),
					p->name, sizeof(p->name), err))
			goto fail;
		if (pool_host_index(hosts, n, p->host) < 0) {
			bm_errorf(err, "port %s: host %s is not in the pool",
				  labels[i], p->host[0] ? p->host : "(this)");
			goto fail;
		}
	}
	if (bm_backend_set_ports(be, n_ports, labels, err))
		goto fail;
	be->name = "pool";
	be->line_rate_bps = line_rate_bps;
	return be;
fail:
	bm_pool_hosts_release(hosts, n);
	if (pp) {
		free(pp->hosts);
		free(pp->names);
	}
	free(pp);
	free(be);
	return NULL;
}

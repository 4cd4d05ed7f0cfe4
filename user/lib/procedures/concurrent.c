// SPDX-License-Identifier: GPL-2.0
/*
 * rfc7640.concurrent: TM-CONC (RFC 7640 §6.4), REQ-TM-9.  The draft
 * leaves the profiles open ("policers on ingress plus queuing on egress",
 * "policers on ingress plus shapers on egress, on different flows") and
 * lets their procedures be those of §§6.1-6.3; so an instance here is any
 * other rfc7640 procedure with its own parameters on its own ports of the
 * job, the ports of two instances disjoint (no flow is policed and then
 * shaped).
 *
 * Each instance runs in a thread of its own on a backend of its own, a
 * view of the job's over its ports.  The module runs one trial at a time,
 * so the instances' trials cannot each start their own: a trial waits
 * until every instance still running has asked for one, and then all of
 * them run as one trial (bm_traffic_merge()), whose results go back to
 * each as if it had run alone.  The instances thus load the DUT at the
 * same moments, on one time base (the trial's clock; the report lays
 * each instance's trials on the host's monotonic clock, or the simulated
 * DUT's), in lock step: an instance between two trials (a drain, a
 * pause) holds the others' next trial back until it asks for its own.
 * An instance that fails stops the others at their next trial; every
 * instance's result, finished or partial, is kept.
 *
 * One instance may run TCP (a stateful one: queue-stateful,
 * shaper-stateful, queue-capacity with stateful_apps; the engine runs one
 * session): its backend's engine is the job's, its ports mapped, and
 * while its connections run (run_for) it takes no trial and holds none
 * back, so the others' trials run beside its TCP (TM-CONC with stateful
 * traffic).  Its window on the time base is its session's.  On a virtual
 * clock (the simulated DUT) its run_for waits for the others' trials to
 * carry the clock to its end, and only the rest passes on its own: one
 * clock, advanced by one thread at a time.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bm_json.h"
#include "bm_repeat.h"
#include "bm_result.h"
#include "bm_tcp.h"
#include "bm_traffic_merge.h"
#include "concurrent.h"

#define CONC_MAX	8
#define CONC_FAMILY	"rfc7640."

struct conc_inst_params {
	const struct bm_procedure_info *pi;
	json_object *params;	/* borrowed; NULL = the procedure's defaults */
	unsigned int idx[BM_BACKEND_MAX_PORTS];	/* the job's ports, 0-based */
	unsigned int n_idx;
};

struct conc_params {
	char profile[160];
	json_object *instances;	/* borrowed, the array parsed */
	unsigned int n;
	struct conc_inst_params inst[CONC_MAX];
	json_object *defaults;	/* owned: what borrowed pointers may point into */
};

static int parse_profile(json_object *v, void *base, const char *key,
			 struct bm_error *err)
{
	struct conc_params *p = base;

	if (!json_object_is_type(v, json_type_string))
		return bm_errorf(err, "%s: a string", key);
	if ((size_t)json_object_get_string_len(v) >= sizeof(p->profile))
		return bm_errorf(err, "%s: at most %zu characters", key,
				 sizeof(p->profile) - 1);
	snprintf(p->profile, sizeof(p->profile), "%s",
		 json_object_get_string(v));
	return 0;
}

/* instances[i].ports into ip: 1-based, distinct, as many as the procedure
 * needs (REQ-CAP-1). */
static int parse_ports(json_object *v, struct conc_inst_params *ip,
		       const char *key, unsigned int i, struct bm_error *err)
{
	unsigned int k, m;
	int64_t x;

	if (!v || !json_object_is_type(v, json_type_array) ||
	    !json_object_array_length(v))
		return bm_errorf(err, "%s[%u].ports: a list of the job's ports, "
				 "1 = its first", key, i + 1);
	if (json_object_array_length(v) > BM_BACKEND_MAX_PORTS)
		return bm_errorf(err, "%s[%u].ports: at most %d", key, i + 1,
				 BM_BACKEND_MAX_PORTS);
	ip->n_idx = 0;
	for (k = 0; k < json_object_array_length(v); k++) {
		json_object *e = json_object_array_get_idx(v, k);

		if (!json_object_is_type(e, json_type_int))
			return bm_errorf(err, "%s[%u].ports: integers", key,
					 i + 1);
		x = json_object_get_int64(e);
		if (x < 1 || x > BM_BACKEND_MAX_PORTS)
			return bm_errorf(err, "%s[%u].ports: %lld: 1 to %d",
					 key, i + 1, (long long)x,
					 BM_BACKEND_MAX_PORTS);
		for (m = 0; m < ip->n_idx; m++)
			if (ip->idx[m] == (unsigned int)x - 1)
				return bm_errorf(err, "%s[%u].ports: %lld "
						 "twice", key, i + 1,
						 (long long)x);
		ip->idx[ip->n_idx++] = (unsigned int)x - 1;
	}
	if (ip->n_idx < ip->pi->ports_needed)
		return bm_errorf(err, "%s[%u].ports: %s needs %u ports "
				 "(REQ-CAP-1), %u given", key, i + 1,
				 ip->pi->name, ip->pi->ports_needed,
				 ip->n_idx);
	return 0;
}

static int parse_instance(json_object *o, struct conc_inst_params *ip,
			  const char *key, unsigned int i,
			  struct bm_error *err)
{
	json_object *v;

	if (!json_object_is_type(o, json_type_object))
		return bm_errorf(err, "%s[%u]: an object {procedure, ports, "
				 "params}", key, i + 1);
	json_object_object_foreach(o, k, val) {
		(void)val;
		if (strcmp(k, "procedure") && strcmp(k, "ports") &&
		    strcmp(k, "params"))
			return bm_errorf(err, "%s[%u]: unknown key '%s'", key,
					 i + 1, k);
	}
	if (!json_object_object_get_ex(o, "procedure", &v) ||
	    !json_object_is_type(v, json_type_string))
		return bm_errorf(err, "%s[%u].procedure: the name of an "
				 "rfc7640 procedure", key, i + 1);
	ip->pi = bm_procedure_find(json_object_get_string(v), NULL);
	if (!ip->pi || strncmp(ip->pi->name, CONC_FAMILY,
			       strlen(CONC_FAMILY)) ||
	    ip->pi->run == conc_run)
		return bm_errorf(err, "%s[%u].procedure: '%.64s' is not an "
				 "rfc7640 procedure that can run beside "
				 "others", key, i + 1,
				 json_object_get_string(v));
	json_object_object_get_ex(o, "ports", &v);
	if (parse_ports(v, ip, key, i, err))
		return -EINVAL;
	ip->params = NULL;
	if (json_object_object_get_ex(o, "params", &v) && v) {
		if (!json_object_is_type(v, json_type_object))
			return bm_errorf(err, "%s[%u].params: an object", key,
					 i + 1);
		ip->params = v;
	}
	return 0;
}

/* The TCP paths (REQ-TM-2) of instance ip as the job's port indexes into
 * pairs[0..max) (NULL: only count them); their number. */
static unsigned int inst_tcp_paths(const struct conc_inst_params *ip,
				   unsigned int (*pairs)[2], unsigned int max)
{
	unsigned int local[64][2], n, k;

	if (!ip->pi->nde_pairs)
		return 0;
	n = ip->pi->nde_pairs(ip->pi, ip->params, ip->n_idx, local, 64);
	for (k = 0; pairs && k < n && k < max; k++) {
		pairs[k][0] = ip->idx[local[k][0]];
		pairs[k][1] = ip->idx[local[k][1]];
	}
	return pairs && n > max ? max : n;
}

static int parse_instances(json_object *v, void *base, const char *key,
			   struct bm_error *err)
{
	struct conc_params *p = base;
	unsigned int i, j, a, b, n;

	if (!json_object_is_type(v, json_type_array))
		return bm_errorf(err, "%s: a list of {procedure, ports, "
				 "params}", key);
	n = json_object_array_length(v);
	if (n < 2 || n > CONC_MAX)
		return bm_errorf(err, "%s: 2 to %d procedures, %u given", key,
				 CONC_MAX, n);
	for (i = 0; i < n; i++)
		if (parse_instance(json_object_array_get_idx(v, i),
				   &p->inst[i], key, i, err))
			return -EINVAL;
	/* REQ-TM-9: disjoint ports (and so disjoint streams) */
	for (i = 0; i < n; i++)
		for (j = 0; j < i; j++)
			for (a = 0; a < p->inst[i].n_idx; a++)
				for (b = 0; b < p->inst[j].n_idx; b++)
					if (p->inst[i].idx[a] ==
					    p->inst[j].idx[b])
						return bm_errorf(err,
							"%s[%u].ports: port %u "
							"is %s[%u]'s too (REQ-"
							"TM-9: disjoint ports)",
							key, i + 1,
							p->inst[i].idx[a] + 1,
							key, j + 1);
	/* the TCP engine runs one session: one stateful instance */
	for (i = 0, j = 0; i < n; i++)
		if (inst_tcp_paths(&p->inst[i], NULL, 0) && j++)
			return bm_errorf(err, "%s[%u]: a second instance with "
					 "TCP traffic (the engine runs one "
					 "session at a time)", key, i + 1);
	p->instances = v;
	p->n = n;
	return 0;
}

const struct bm_param conc_keys[] = {
	{ { "profile", BM_J_CUSTOM, 0, 0, 0, 0, 0, NULL, parse_profile }, "",
	  "the concurrency profile's name, reported (TM §6.4) [PROPOSED "
	  "\"policers on ingress + shapers on egress\": the SPEC's "
	  "acceptance]", "string" },
	{ { "instances", BM_J_CUSTOM, 0, 0, 0, 0, 0, NULL, parse_instances },
	  "", "2 to 8 rfc7640 procedures at once: {procedure, ports (the "
	  "job's, 1 = its first; disjoint), params} "
	  "[PROPOSED rfc7640.policer on 1, 2 and rfc7640.shaper on 3, 4]",
	  "object array" },
	{ { NULL, 0, 0, 0, 0, 0, 0, NULL, NULL }, NULL, NULL, NULL },
};

json_object *conc_defaults_json(const struct bm_procedure_info *pi)
{
	json_object *o = json_object_new_object();

	(void)pi;
	bm_json_add_str(o, "profile", "policers on ingress + shapers on "
			"egress");
	json_object_object_add(o, "instances", json_tokener_parse(
		"[{\"procedure\": \"rfc7640.policer\", \"ports\": [1, 2]},"
		" {\"procedure\": \"rfc7640.shaper\", \"ports\": [3, 4]}]"));
	return o;
}

static void conc_params_free(struct conc_params *p)
{
	json_object_put(p->defaults);
	p->defaults = NULL;
}

/* The defaults, then params over them; 0 or -EINVAL with err set.  Free
 * with conc_params_free() either way. */
static int conc_parse(const struct bm_procedure_info *pi, json_object *params,
		      double line_rate_bps, struct conc_params *p,
		      struct bm_error *err)
{
	struct bm_error e = { "" };
	unsigned int i;

	memset(p, 0, sizeof(*p));
	p->defaults = conc_defaults_json(pi);
	if (!p->defaults)
		return bm_errorf(err, "out of memory");
	if (bm_json_parse_params(p->defaults, pi->keys, pi->mask, p, pi->name,
				 err) ||
	    bm_json_parse_params(params, pi->keys, pi->mask, p, pi->name,
				 err))
		return -EINVAL;
	for (i = 0; i < p->n; i++)
		if (p->inst[i].pi->validate(p->inst[i].pi, p->inst[i].params,
					    line_rate_bps, &e))
			return bm_errorf(err, "%s: instances[%u].params: %s",
					 pi->name, i + 1,
					 e.msg);
	return 0;
}

int conc_validate(const struct bm_procedure_info *pi, json_object *params,
		  double line_rate_bps, struct bm_error *err)
{
	struct conc_params p;
	int ret = conc_parse(pi, params, line_rate_bps, &p, err);

	conc_params_free(&p);
	return ret;
}

unsigned int conc_nde_pairs(const struct bm_procedure_info *pi,
			    json_object *params, unsigned int n_ports,
			    unsigned int (*pairs)[2], unsigned int max)
{
	struct bm_error err = { "" };
	struct conc_params p;
	unsigned int i, n = 0;

	(void)n_ports;
	memset(&p, 0, sizeof(p));
	p.defaults = conc_defaults_json(pi);
	/* what submit took; a run refuses anything else itself */
	if (p.defaults &&
	    !bm_json_parse_params(p.defaults, pi->keys, pi->mask, &p, pi->name,
				  &err) &&
	    !bm_json_parse_params(params, pi->keys, pi->mask, &p, pi->name,
				  &err))
		for (i = 0; i < p.n && n < max; i++)
			n += inst_tcp_paths(&p.inst[i], pairs + n, max - n);
	conc_params_free(&p);
	return n;
}

int conc_max_trials(const struct bm_procedure_info *pi, json_object *params,
		    double line_rate_bps, unsigned int n_ports, double *n,
		    struct bm_error *err)
{
	struct conc_params p;
	unsigned int i;
	double x;
	int ret;

	(void)n_ports;
	*n = 0.0;
	ret = conc_parse(pi, params, line_rate_bps, &p, err);
	for (i = 0; !ret && i < p.n; i++) {
		ret = p.inst[i].pi->max_trials(p.inst[i].pi, p.inst[i].params,
					       line_rate_bps, p.inst[i].n_idx,
					       &x, err);
		*n += x;
	}
	conc_params_free(&p);
	return ret;
}

/* --- the run ------------------------------------------------------------- */

struct conc;
struct conc_inst;

/* What an instance's procedure sees: the job's backend over its ports
 * (first member), whose trials go through the barrier. */
struct conc_be {
	struct bm_backend be;
	struct conc_inst *in;
};

enum inst_state {
	INST_RUNNING,		/* in its procedure, between trials */
	INST_WAITING,		/* asked for a trial */
	INST_IN_TRIAL,		/* its trial is part of the one running */
	INST_BACKGROUND,	/* its TCP connections run (run_for) */
	INST_FINISHED,		/* its procedure returned */
};

struct conc_inst {
	unsigned int index;
	const struct conc_inst_params *ip;
	struct conc *c;
	struct conc_be w;
	enum inst_state state;
	/* while WAITING / IN_TRIAL: the trial it asked for, its outcome */
	const struct bm_trial_spec *spec;
	struct bm_trial_result *res;
	int trial_ret;
	char trial_err[sizeof(((struct bm_error *)0)->msg)];
	/* its frames' spans on the time base, a pair per trial; and how
	 * many trials it shared with every instance still running */
	double *win;
	size_t n_win, cap_win;
	unsigned int trials, together;
	double tcp_a;			/* its TCP session's start, time base */
	bool oom;
	pthread_t thread;
	bool started;
	int ret;
	struct bm_error err;
	json_object *result;
};

struct conc {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	/* a virtual clock's backend is one thread's at a time: a trial or
	 * a TCP operation (taken after lock, never with it held) */
	pthread_mutex_t vlock;
	double vnow;			/* the virtual clock after a trial */
	struct bm_backend *be;		/* the job's */
	bm_progress_fn progress;
	void *ctx;
	bool stop;
	double t0;
	unsigned int n, trials;
	struct conc_inst in[CONC_MAX];
};

static double mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Now on the run's time base. */
static double conc_now(const struct conc *c)
{
	return c->be->virtual_clock ? c->be->elapsed_s : mono_s() - c->t0;
}

/* Note window [a, b] of a trial of in. */
static void add_window(struct conc_inst *in, double a, double b)
{
	double *nw;

	if (in->n_win + 2 > in->cap_win) {
		size_t cap = in->cap_win ? 2 * in->cap_win : 64;

		nw = realloc(in->win, cap * sizeof(*nw));
		if (!nw) {
			in->oom = true;
			return;
		}
		in->win = nw;
		in->cap_win = cap;
	}
	in->win[in->n_win++] = a;
	in->win[in->n_win++] = b;
}

/* Note the span in's frames went out in its trial that started at a on
 * the time base: first to last transmitted frame of its streams, on the
 * module's clock for the trial (so the instances of one trial compare
 * exactly). */
static void tx_window(struct conc_inst *in, double a)
{
	const struct bm_traffic_result *tr = in->spec->traffic_res;
	double first = -1, last = -1;
	unsigned int k;

	for (k = 0; tr && k < tr->n_streams; k++) {
		const struct bm_stream_result *x = &tr->streams[k];

		if (x->first_tx_s < 0 || !x->sent)
			continue;
		if (first < 0 || x->first_tx_s < first)
			first = x->first_tx_s;
		last = fmax(last, x->last_tx_s);
	}
	if (first >= 0)
		add_window(in, a + first, a + last);
}

/*
 * With c->lock held: when no instance is between trials and some wait,
 * run their trials as one on the job's backend (the lock dropped while
 * it runs) and wake them.  Whoever makes the last instance wait or
 * finish runs it.
 */
static void run_merged(struct conc *c)
{
	struct bm_merge_part parts[CONC_MAX];
	struct conc_inst *who[CONC_MAX];
	struct bm_traffic_result *r = NULL;
	struct bm_trial_result res;
	struct bm_trial_spec spec;
	struct bm_error e = { "" };
	struct bm_traffic t;
	unsigned int i, n = 0, live = 0, bg = 0;
	double a, vnow = 0;
	int ret;

	for (i = 0; i < c->n; i++) {
		if (c->in[i].state == INST_RUNNING)
			return;
		if (c->in[i].state == INST_WAITING)
			who[n++] = &c->in[i];
		if (c->in[i].state == INST_BACKGROUND)
			bg++;
		if (c->in[i].state != INST_FINISHED)
			live++;
	}
	if (!n)
		return;
	if (c->stop) {
		/* no trial after a failure or a cancel: the waiting get
		 * what a cancelled trial gives */
		for (i = 0; i < n; i++) {
			who[i]->trial_ret = -ECANCELED;
			snprintf(who[i]->trial_err, sizeof(who[i]->trial_err),
				 "stopped: another instance failed, or the "
				 "job was cancelled");
			who[i]->state = INST_RUNNING;
		}
		pthread_cond_broadcast(&c->cond);
		return;
	}
	for (i = 0; i < n; i++) {
		who[i]->state = INST_IN_TRIAL;
		parts[i] = (struct bm_merge_part){ .spec = who[i]->spec,
						   .res = who[i]->res };
	}
	pthread_mutex_unlock(&c->lock);

	ret = bm_traffic_merge(parts, n, &t, &spec, &e);
	if (!ret) {
		r = bm_traffic_result_new(&t);
		if (!r)
			ret = bm_errorf(&e, "out of memory");
	}
	if (c->be->virtual_clock)
		pthread_mutex_lock(&c->vlock);
	a = conc_now(c);
	if (!ret) {
		spec.traffic_res = r;
		ret = bm_run_trial(c->be, &spec, &res, &e);
	}
	if (c->be->virtual_clock) {
		vnow = c->be->elapsed_s;
		pthread_mutex_unlock(&c->vlock);
	}
	if (!ret && bm_traffic_split(parts, n, r, &res))
		ret = bm_errorf(&e, "out of memory");
	bm_traffic_result_free(r);
	bm_traffic_free(&t);

	pthread_mutex_lock(&c->lock);
	if (c->be->virtual_clock)
		c->vnow = vnow;
	c->trials++;
	for (i = 0; i < n; i++) {
		struct conc_inst *in = who[i];

		if (!ret)
			tx_window(in, a);
		in->trials++;
		/* a TCP instance in the background shares the trial */
		if (n + bg == live && live > 1)
			in->together++;
		in->trial_ret = ret;
		snprintf(in->trial_err, sizeof(in->trial_err), "%s", e.msg);
		in->state = INST_RUNNING;
	}
	pthread_cond_broadcast(&c->cond);
}

static int conc_trial(struct bm_backend *be, const struct bm_trial_spec *spec,
		      struct bm_trial_result *res, struct bm_error *err)
{
	struct conc_inst *in = ((struct conc_be *)be)->in;
	struct conc *c = in->c;
	int ret;

	pthread_mutex_lock(&c->lock);
	in->spec = spec;
	in->res = res;
	in->state = INST_WAITING;
	run_merged(c);
	while (in->state != INST_RUNNING) {
		pthread_cond_wait(&c->cond, &c->lock);
		/* a TCP instance that went to the background makes no
		 * trial run: a waiter does */
		if (in->state == INST_WAITING)
			run_merged(c);
	}
	ret = in->trial_ret;
	if (ret)
		bm_errorf(err, "%s", in->trial_err);
	/* what a procedure reads of its backend after a trial */
	be->elapsed_s = c->be->elapsed_s;
	memcpy(be->frame_hex, c->be->frame_hex, sizeof(be->frame_hex));
	pthread_mutex_unlock(&c->lock);
	return ret;
}

static void conc_be_destroy(struct bm_backend *be)
{
	(void)be;	/* the run owns the views */
}

static const struct bm_backend_ops conc_be_ops = {
	.run_trial = conc_trial,
	.destroy = conc_be_destroy,
	.dut_reset = NULL,
};

/* --- an instance's TCP: the job's engine, its ports mapped ------------- */

static struct conc_inst *tcp_inst(struct bm_backend *be)
{
	return ((struct conc_be *)be)->in;
}

static void vlock(struct conc *c)
{
	if (c->be->virtual_clock)
		pthread_mutex_lock(&c->vlock);
}

static void vunlock(struct conc *c)
{
	if (c->be->virtual_clock)
		pthread_mutex_unlock(&c->vlock);
}

static int ctcp_start(struct bm_backend *be, const struct bm_tcp_spec *spec,
		      struct bm_error *err)
{
	struct conc_inst *in = tcp_inst(be);
	const struct conc_inst_params *ip = in->ip;
	struct conc *c = in->c;
	struct bm_tcp_spec *m = malloc(sizeof(*m));
	unsigned int i;
	int ret;

	if (!m)
		return bm_errorf(err, "out of memory"), -ENOMEM;
	*m = *spec;
	for (i = 0; i < m->n_conn; i++) {
		if (spec->conn[i].client >= ip->n_idx ||
		    spec->conn[i].server >= ip->n_idx) {
			free(m);
			return bm_errorf(err, "TCP connection %u: ports %u -> "
					 "%u of %u", i, spec->conn[i].client,
					 spec->conn[i].server, ip->n_idx),
			       -EINVAL;
		}
		m->conn[i].client = ip->idx[spec->conn[i].client];
		m->conn[i].server = ip->idx[spec->conn[i].server];
	}
	vlock(c);
	ret = c->be->tcp->start(c->be, m, err);
	pthread_mutex_lock(&c->lock);
	in->tcp_a = conc_now(c);
	pthread_mutex_unlock(&c->lock);
	vunlock(c);
	free(m);
	return ret;
}

static int ctcp_mark(struct bm_backend *be, struct bm_error *err)
{
	struct conc *c = tcp_inst(be)->c;
	int ret;

	vlock(c);
	ret = c->be->tcp->mark(c->be, err);
	vunlock(c);
	return ret;
}

/* Is an instance other than in still to take trials? */
static bool others_live(const struct conc *c, const struct conc_inst *in)
{
	unsigned int i;

	for (i = 0; i < c->n; i++)
		if (&c->in[i] != in && c->in[i].state != INST_FINISHED &&
		    c->in[i].state != INST_BACKGROUND)
			return true;
	return false;
}

static void ctcp_run_for(struct bm_backend *be, double s, bool done_early)
{
	struct conc_inst *in = tcp_inst(be);
	struct conc *c = in->c;
	double end = 0;

	if (c->be->virtual_clock) {
		/* now on the one clock: no trial runs while it is read */
		vlock(c);
		end = c->be->elapsed_s + s;
		pthread_mutex_lock(&c->lock);
		c->vnow = c->be->elapsed_s;
		vunlock(c);
	} else {
		pthread_mutex_lock(&c->lock);
	}
	in->state = INST_BACKGROUND;
	/* a waiter may run the trial it held back */
	pthread_cond_broadcast(&c->cond);
	if (c->be->virtual_clock) {
		/* the others' trials carry the clock; the rest of s, when
		 * they are done, passes here */
		while (c->vnow < end && others_live(c, in) && !c->stop)
			pthread_cond_wait(&c->cond, &c->lock);
		pthread_mutex_unlock(&c->lock);
		vlock(c);
		if (c->be->elapsed_s < end)
			c->be->tcp->run_for(c->be, end - c->be->elapsed_s,
					    done_early);
		pthread_mutex_lock(&c->lock);
		c->vnow = c->be->elapsed_s;
		pthread_mutex_unlock(&c->lock);
		vunlock(c);
	} else {
		pthread_mutex_unlock(&c->lock);
		c->be->tcp->run_for(c->be, s, done_early);
	}
	pthread_mutex_lock(&c->lock);
	in->state = INST_RUNNING;
	pthread_mutex_unlock(&c->lock);
}

static int ctcp_stop(struct bm_backend *be, struct bm_tcp_result *res,
		     struct bm_error *err)
{
	struct conc_inst *in = tcp_inst(be);
	const struct conc_inst_params *ip = in->ip;
	struct conc *c = in->c;
	unsigned int i, k;
	int ret;

	vlock(c);
	ret = c->be->tcp->stop(c->be, res, err);
	pthread_mutex_lock(&c->lock);
	add_window(in, in->tcp_a, conc_now(c));
	pthread_mutex_unlock(&c->lock);
	vunlock(c);
	/* back to the instance's own port numbers (from the job's: a
	 * number mapped once is not looked up again) */
	for (i = 0; i < res->n_conn; i++) {
		unsigned int cl = res->conn[i].client, sv = res->conn[i].server;

		for (k = 0; k < ip->n_idx; k++) {
			if (ip->idx[k] == cl)
				res->conn[i].client = k;
			if (ip->idx[k] == sv)
				res->conn[i].server = k;
		}
	}
	return ret;
}

static const struct bm_tcp_ops conc_tcp_ops = {
	.start = ctcp_start,
	.mark = ctcp_mark,
	.run_for = ctcp_run_for,
	.stop = ctcp_stop,
};

static int conc_progress(void *ctx, const struct bm_trial_record *rec,
			 const char *status_line)
{
	struct conc_inst *in = ctx;
	struct conc *c = in->c;
	char line[320];
	int stop;

	pthread_mutex_lock(&c->lock);
	if (status_line)
		snprintf(line, sizeof(line), "[%u %s] %s", in->index + 1,
			 in->ip->pi->name + strlen(CONC_FAMILY), status_line);
	if (c->progress &&
	    c->progress(c->ctx, rec, status_line ? line : NULL))
		c->stop = true;
	stop = c->stop;
	pthread_mutex_unlock(&c->lock);
	return stop;
}

static void *inst_thread(void *arg)
{
	struct conc_inst *in = arg;
	struct conc *c = in->c;

	in->ret = in->ip->pi->run(in->ip->pi, in->ip->params, &in->w.be,
				  conc_progress, in, &in->result, &in->err);
	pthread_mutex_lock(&c->lock);
	/* the profile no longer holds: stop the others */
	if (in->ret && in->ret != -ECANCELED)
		c->stop = true;
	in->state = INST_FINISHED;
	run_merged(c);
	/* a TCP instance waiting for the clock stops waiting for it */
	pthread_cond_broadcast(&c->cond);
	pthread_mutex_unlock(&c->lock);
	return NULL;
}

/* The time during which every instance was sending: a sweep over the
 * windows' starts (+1) and ends (-1). */
static double all_active_s(const struct conc *c)
{
	double (*ev)[2], t = 0.0;
	size_t n = 0, k;
	unsigned int i;
	int active = 0;

	for (i = 0; i < c->n; i++)
		n += c->in[i].n_win;
	ev = malloc((n ? n : 1) * sizeof(*ev));
	if (!ev)
		return NAN;
	n = 0;
	for (i = 0; i < c->n; i++)
		for (k = 0; k < c->in[i].n_win; k++) {
			ev[n][0] = c->in[i].win[k];
			ev[n++][1] = k % 2 ? -1.0 : 1.0;
		}
	qsort(ev, n, sizeof(*ev), bm_cmp_double);
	for (k = 0; k < n; k++) {
		if (k && active == (int)c->n)
			t += ev[k][0] - ev[k - 1][0];
		active += (int)ev[k][1];
	}
	free(ev);
	return t;
}

/* The sum of in's trial windows. */
static double busy_s(const struct conc_inst *in)
{
	double t = 0.0;
	size_t m;

	for (m = 0; m + 1 < in->n_win; m += 2)
		t += in->win[m + 1] - in->win[m];
	return t;
}

static json_object *inst_json(const struct conc_inst *in,
			      const struct bm_backend *be)
{
	json_object *o = json_object_new_object(), *a, *w;
	unsigned int k;
	size_t m;

	json_object_object_add(o, "instance",
			       json_object_new_int(in->index + 1));
	bm_json_add_str(o, "procedure", in->ip->pi->name);
	a = json_object_new_array();
	for (k = 0; k < in->ip->n_idx; k++)
		json_object_array_add(a, json_object_new_string(
			be->port_names[in->ip->idx[k]]));
	json_object_object_add(o, "ports", a);
	bm_json_add_str(o, "state", !in->started ? "not started" :
			!in->ret ? "done" : in->ret == -ECANCELED ?
			"stopped" : "failed");
	if (in->ret && in->err.msg[0])
		bm_json_add_str(o, "error", in->err.msg);
	bm_result_mark_partial(in->result, in->ret, in->err.msg);
	bm_json_add_u64(o, "trials", in->trials);
	bm_json_add_u64(o, "trials_together", in->together);
	w = json_object_new_array();
	for (m = 0; m + 1 < in->n_win; m += 2) {
		json_object *p = json_object_new_array();

		json_object_array_add(p, json_object_new_double(in->win[m]));
		json_object_array_add(p, json_object_new_double(in->win[m + 1]));
		json_object_array_add(w, p);
	}
	bm_json_add_double(o, "first_tx_s", in->n_win ? in->win[0] : NAN);
	bm_json_add_double(o, "last_tx_s",
			   in->n_win ? in->win[in->n_win - 1] : NAN);
	bm_json_add_double(o, "tx_time_s", busy_s(in));
	json_object_object_add(o, "tx_windows_s", w);
	json_object_object_add(o, "result", json_object_get(in->result));
	return o;
}

/* Add the strings of doc's deviations not yet in dev. */
static void merge_deviations(json_object *dev, json_object *doc)
{
	json_object *d;
	size_t i;

	if (!doc || !json_object_object_get_ex(doc, "deviations", &d))
		return;
	for (i = 0; i < json_object_array_length(d); i++)
		bm_json_add_str_once(dev, json_object_get_string(
			json_object_array_get_idx(d, i)));
}

static json_object *conc_document(const struct bm_procedure_info *pi,
				  const struct conc_params *p,
				  const struct conc *c, struct bm_backend *be)
{
	json_object *res = json_object_new_object(), *a, *o, *params, *dev;
	double busy_min = INFINITY, first = INFINITY, last = -INFINITY;
	double all;
	unsigned int i;

	bm_json_add_str(res, "profile", p->profile);
	bm_json_add_str(res, "time_base", be->virtual_clock ?
			"the simulated DUT's clock, s from the start; within "
			"a trial its own" :
			"the host's monotonic clock, s from the start; within "
			"a trial the module's");
	a = json_object_new_array();
	dev = json_object_new_array();
	for (i = 0; i < c->n; i++) {
		const struct conc_inst *in = &c->in[i];

		busy_min = fmin(busy_min, busy_s(in));
		if (in->n_win) {
			first = fmin(first, in->win[0]);
			last = fmax(last, in->win[in->n_win - 1]);
		}
		json_object_array_add(a, inst_json(in, be));
		merge_deviations(dev, in->result);
	}
	o = json_object_new_object();
	all = all_active_s(c);
	bm_json_add_u64(o, "trials", c->trials);
	bm_json_add_double(o, "span_s", last >= first ? last - first : NAN);
	bm_json_add_double(o, "all_active_s", all);
	/* of the instance that sent for the shortest time: 100 % = it
	 * never sent alone */
	bm_json_add_double(o, "overlap_pct", busy_min > 0.0 ?
			   100.0 * all / busy_min : NAN);
	json_object_object_add(res, "concurrency", o);
	json_object_object_add(res, "instances", a);
	params = json_object_new_object();
	bm_json_add_str(params, "profile", p->profile);
	json_object_object_add(params, "instances",
			       json_object_get(p->instances));
	return bm_result_envelope(pi->name, pi->refs, params, NULL, NULL, res,
				  dev, be);
}

int conc_run(const struct bm_procedure_info *pi, json_object *params,
	     struct bm_backend *be, bm_progress_fn progress, void *ctx,
	     json_object **result, struct bm_error *err)
{
	struct conc_params p;
	struct conc *c;
	unsigned int i, k;
	int ret;

	*result = NULL;
	ret = conc_parse(pi, params, be->line_rate_bps, &p, err);
	c = ret ? NULL : calloc(1, sizeof(*c));
	if (!ret && !c)
		ret = bm_errorf(err, "out of memory");
	for (i = 0; !ret && i < p.n; i++)
		for (k = 0; k < p.inst[i].n_idx; k++)
			if (p.inst[i].idx[k] >= be->n_ports) {
				ret = bm_errorf(err, "%s: instances[%u].ports: "
						"port %u: the job has %u",
						pi->name, i + 1,
						p.inst[i].idx[k] + 1,
						be->n_ports);
				break;
			}
	if (ret) {
		free(c);
		conc_params_free(&p);
		return ret;
	}
	pthread_mutex_init(&c->lock, NULL);
	pthread_mutex_init(&c->vlock, NULL);
	pthread_cond_init(&c->cond, NULL);
	c->be = be;
	c->vnow = be->elapsed_s;
	c->progress = progress;
	c->ctx = ctx;
	c->n = p.n;
	for (i = 0; i < c->n; i++) {
		struct conc_inst *in = &c->in[i];
		const char *names[BM_BACKEND_MAX_PORTS];

		in->index = i;
		in->ip = &p.inst[i];
		in->c = c;
		in->w.be = *be;
		in->w.be.ops = &conc_be_ops;
		in->w.be.priv = NULL;
		in->w.be.reset_command = NULL;
		in->w.be.trials = 0;
		/* the job's engine, through the port map (one TCP
		 * instance at most: conc_parse) */
		in->w.be.tcp = be->tcp ? &conc_tcp_ops : NULL;
		in->w.be.tcp_priv = NULL;
		in->w.in = in;
		for (k = 0; k < in->ip->n_idx; k++)
			names[k] = be->port_names[in->ip->idx[k]];
		/* checked above: cannot fail */
		bm_backend_set_ports(&in->w.be, in->ip->n_idx, names, NULL);
		/* not started: no trial waits for it */
		in->state = INST_FINISHED;
	}
	c->t0 = mono_s();
	pthread_mutex_lock(&c->lock);
	for (i = 0; i < c->n; i++) {
		int e;

		c->in[i].state = INST_RUNNING;
		e = pthread_create(&c->in[i].thread, NULL, inst_thread,
				   &c->in[i]);
		if (e) {
			c->in[i].state = INST_FINISHED;
			ret = bm_errorf(err, "instances[%u]: cannot start its "
					"thread: %s", i + 1, strerror(e));
			c->stop = true;
			break;
		}
		c->in[i].started = true;
	}
	/* instances that did not start hold no trial back */
	run_merged(c);
	pthread_mutex_unlock(&c->lock);
	for (i = 0; i < c->n; i++)
		if (c->in[i].started)
			pthread_join(c->in[i].thread, NULL);
	for (i = 0; i < c->n && !ret; i++) {
		if (c->in[i].oom) {
			ret = bm_errorf(err, "out of memory");
		} else if (c->in[i].ret && c->in[i].ret != -ECANCELED) {
			bm_errorf(err, "instances[%u] (%s): %s", i + 1,
				  c->in[i].ip->pi->name,
				  c->in[i].err.msg[0] ? c->in[i].err.msg :
				  "failed");
			ret = c->in[i].ret;
		}
	}
	for (i = 0; i < c->n && !ret; i++)
		if (c->in[i].ret == -ECANCELED)
			ret = -ECANCELED;
	if (c->in[0].started)
		*result = conc_document(pi, &p, c, be);
	if (!ret && !*result)
		ret = bm_errorf(err, "out of memory");
	for (i = 0; i < c->n; i++) {
		json_object_put(c->in[i].result);
		free(c->in[i].win);
	}
	pthread_cond_destroy(&c->cond);
	pthread_mutex_destroy(&c->vlock);
	pthread_mutex_destroy(&c->lock);
	free(c);
	conc_params_free(&p);
	return ret;
}

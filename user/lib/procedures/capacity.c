// SPDX-License-Identifier: GPL-2.0
/*
 * bmgen.capacity (capacity.h): the generator calibrating itself, SPEC
 * REQ-GEN-6 after RFC 7640 §5.1 ("The test device MUST be capable of
 * generating traffic at up to the link speed of the DUT.  The test device
 * must be calibrated to verify that it will not drop any packets").
 *
 * Per frame size and transmit path, on one kthread (no lanes):
 *  1. send: the stream asks for more than any port carries (the line
 *     rate at F, or 150 Mfps where the speed is unknown: above 100 GbE at
 *     64 B), first for probe_frames to learn the order of magnitude, then
 *     for duration_s worth of what that showed; send_fps is what the
 *     kthread sent, (attempted - 1) / (last - first departure).  A path
 *     the port does not allow falls back in the module: the record says
 *     which one it got, and the figure is kept for that one only.
 *  2. loop: from 0.95 x send_fps down by 15 % a step, at most steps
 *     trials of duration_s, the first rate the loop from the first port
 *     to the second carries with no loss, every frame sent on schedule
 *     (REQ-GEN-6's tester_max_fps(F)).  After a trial the generator
 *     could not pace, the next is at most 0.95 x the rate it did
 *     sustain.  With the ports cabled back to back (or a veth pair) this
 *     is the tester's own ceiling; through a DUT it is the DUT's and the
 *     tester's together, and the result says which it was not told.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bm_json.h"
#include "bm_result.h"
#include "bm_search.h"
#include "capacity.h"

#define CAP_MAX_SIZES	8
#define CAP_MAX_PATHS	4
/* A stream faster than any port: 100 GbE at 64 B is 148.8 Mfps. */
#define CAP_UNKNOWN_FPS	150e6

static const char *const cap_path_names[] = {
	"auto", "alloc", "recycle", "xdp", NULL
};

struct cap_params {
	uint32_t frame_sizes[CAP_MAX_SIZES];
	size_t n_sizes;
	unsigned int paths[CAP_MAX_PATHS];	/* cap_path_names indexes */
	unsigned int n_paths;
	double duration_s;
	uint64_t probe_frames;
	unsigned int steps;
	double drain_s;
};

static int parse_sizes(json_object *v, void *base, const char *key,
		       struct bm_error *err)
{
	struct cap_params *p = base;

	return bm_json_parse_sizes(v, key, 64, 9216, p->frame_sizes,
				   CAP_MAX_SIZES, &p->n_sizes, err);
}

static int parse_paths(json_object *v, void *base, const char *key,
		       struct bm_error *err)
{
	struct cap_params *p = base;
	unsigned int i, k, n;
	const char *s;

	if (!json_object_is_type(v, json_type_array))
		return bm_errorf(err, "%s: expected an array of auto, alloc, recycle, xdp",
				 key);
	n = (unsigned int)json_object_array_length(v);
	if (!n || n > CAP_MAX_PATHS)
		return bm_errorf(err, "%s: expected 1 to %d paths", key,
				 CAP_MAX_PATHS);
	for (i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(v, i);

		s = json_object_is_type(e, json_type_string) ?
		    json_object_get_string(e) : "";
		for (k = 0; cap_path_names[k] && strcmp(s, cap_path_names[k]);
		     k++)
			;
		if (!cap_path_names[k])
			return bm_errorf(err, "%s[%u]: expected auto, alloc, recycle or xdp",
					 key, i);
		p->paths[i] = k;
		for (k = 0; k < i; k++)
			if (p->paths[k] == p->paths[i])
				return bm_errorf(err, "%s[%u]: %s twice", key,
						 i, s);
	}
	p->n_paths = n;
	return 0;
}

static json_object *paths_json(const struct bm_jwriter *w,
			       const struct bm_jkey *k, const void *base)
{
	const struct cap_params *p = base;
	json_object *a = json_object_new_array();
	unsigned int i;

	(void)w;
	(void)k;
	for (i = 0; i < p->n_paths; i++)
		json_object_array_add(a, json_object_new_string(
			cap_path_names[p->paths[i]]));
	return a;
}

#define CO(f)	offsetof(struct cap_params, f)

const struct bm_param cap_keys[] = {
	{ { "frame_sizes", BM_J_CUSTOM, CO(frame_sizes), 64, 9216, 0, 0, NULL,
	    parse_sizes },
	  "B", "frame sizes with FCS, 1 to 8 (the smallest is where a port "
	  "needs the most frames)", "integer array" },
	{ { "tx_paths", BM_J_CUSTOM, 0, 0, 0, 0, 0, NULL, parse_paths }, "",
	  "transmit paths to measure: auto (what a job gets by default), "
	  "alloc, recycle, xdp; a path the port does not allow is reported "
	  "as such", "string array" },
	{ { "duration_s", BM_J_DOUBLE, CO(duration_s), 0.01, 60, 0, 0, NULL,
	    NULL }, "s", "length of each send and loop trial", NULL },
	{ { "probe_frames", BM_J_U64, CO(probe_frames), 100, 1e8, 0, 0, NULL,
	    NULL }, "frames", "frames of the first send trial, which finds the "
	  "order of magnitude", NULL },
	{ { "steps", BM_J_UINT, CO(steps), 0, 20, 0, 0, NULL, NULL }, "",
	  "loop trials per size and path, each 15 % below the last (0: "
	  "send only)", NULL },
	{ { "drain_s", BM_J_DOUBLE, CO(drain_s), 0, 60, 0, 0, NULL, NULL }, "s",
	  "loss wait after each trial (PLAT-TRIAL)", NULL },
	{ { NULL, 0, 0, 0, 0, 0, 0, NULL, NULL }, NULL, NULL, NULL },
};

const struct bm_jwriter cap_writers[] = {
	{ parse_sizes, bm_json_u32s_at, CO(n_sizes) },
	{ parse_paths, paths_json, 0 },
	{ NULL, NULL, 0 },
};

static void cap_defaults(struct cap_params *p)
{
	unsigned int i;

	memset(p, 0, sizeof(*p));
	p->frame_sizes[0] = 64;
	p->n_sizes = 1;
	for (i = 0; i < CAP_MAX_PATHS; i++)
		p->paths[i] = i;
	p->n_paths = CAP_MAX_PATHS;
	p->duration_s = 1.0;
	p->probe_frames = 20000;
	p->steps = 4;
	/* the loop is a cable or a veth pair: nothing stays queued */
	p->drain_s = 0.2;
}

static int cap_parse(const struct bm_procedure_info *pi, json_object *params,
		     struct cap_params *p, struct bm_error *err)
{
	cap_defaults(p);
	return bm_json_parse_params(params, pi->keys, pi->mask, p, pi->name,
				    err);
}

int cap_validate(const struct bm_procedure_info *pi, json_object *params,
		 double line_rate_bps, struct bm_error *err)
{
	struct cap_params p;

	(void)line_rate_bps;
	return cap_parse(pi, params, &p, err);
}

json_object *cap_defaults_json(const struct bm_procedure_info *pi)
{
	struct cap_params p;

	cap_defaults(&p);
	return bm_json_params_to_json(pi->keys, pi->mask, &p, pi->writers);
}

int cap_max_trials(const struct bm_procedure_info *pi, json_object *params,
		   double line_rate_bps, unsigned int n_ports, double *n,
		   struct bm_error *err)
{
	struct cap_params p;
	int ret = cap_parse(pi, params, &p, err);

	(void)line_rate_bps;
	(void)n_ports;
	if (!ret)
		*n = (double)p.n_sizes * p.n_paths * (2 + p.steps);
	return ret;
}

/* What is common to every trial of size f on path (one kthread). */
static void cap_spec(struct bm_trial_spec *s, const struct cap_params *p,
		     uint32_t f, const char *path, double fps, double dur)
{
	memset(s, 0, sizeof(*s));
	s->pair.pattern = BM_PAT_RATE;
	s->pair.topology = BM_TOPO_PAIR_UNI;
	s->frame_size = f;
	s->pair.rate_fps = fps;
	s->duration_s = dur;
	s->drain_s = p->drain_s;
	s->tx_path = path;
	s->tx_kthreads = 1;
}

/* What the trial's one kthread sent per second, 0 when it sent < 2. */
static double sent_fps(const struct bm_trial_result *r)
{
	return r->attempted > 1 && r->actual_duration_s > 0 ?
	       (double)(r->attempted - 1) / r->actual_duration_s : 0;
}

struct cap_run {
	struct bm_backend *be;
	const struct cap_params *p;
	struct bm_trial_log log;
	bm_progress_fn progress;
	void *ctx;
	bool any_loss_free;
};

/* Step 1 of size f on path: the kthread flat out.  0 and *fps, *got (the
 * path the record names, "" for a backend without), or an error. */
static int cap_send(struct cap_run *c, uint32_t f, const char *path,
		    double ask, double *fps, char *got, size_t len,
		    struct bm_error *err)
{
	struct bm_trial_spec s;
	struct bm_trial_result r;
	char reason[96];
	double est;
	int ret;

	snprintf(reason, sizeof(reason), "%u B %s: %llu frames flat out", f,
		 path, (unsigned long long)c->p->probe_frames);
	cap_spec(&s, c->p, f, path, ask, (double)c->p->probe_frames / ask);
	ret = bm_search_trial(c->be, &s, &r, &c->log, "send", reason,
			      c->progress, c->ctx, err);
	if (ret)
		return ret;
	est = sent_fps(&r);
	if (!(est > 0))
		return bm_errorf(err, "%u B %s: the generator sent %llu of %llu frames",
				 f, path, (unsigned long long)r.attempted,
				 (unsigned long long)r.intended);
	/* duration_s worth of what the probe showed, never past the ask */
	snprintf(reason, sizeof(reason), "%u B %s: %.3g s flat out", f, path,
		 c->p->duration_s);
	cap_spec(&s, c->p, f, path, ask,
		 c->p->duration_s * fmin(est, ask) / ask);
	ret = bm_search_trial(c->be, &s, &r, &c->log, "send", reason,
			      c->progress, c->ctx, err);
	if (ret)
		return ret;
	*fps = sent_fps(&r);
	snprintf(got, len, "%s", r.tx_path);
	if (!(*fps > 0))
		return bm_errorf(err, "%u B %s: the generator sent %llu of %llu frames",
				 f, path, (unsigned long long)r.attempted,
				 (unsigned long long)r.intended);
	return 0;
}

/* Step 2: the first of steps rates from 0.95 x fps down that the loop
 * carries clean; 0 in *loop when none did. */
static int cap_loop(struct cap_run *c, uint32_t f, const char *path,
		    double fps, double *loop, unsigned int *trials,
		    struct bm_error *err)
{
	struct bm_trial_spec s;
	struct bm_trial_result r;
	char reason[96];
	double rate = 0.95 * fps;
	unsigned int k;
	int ret;

	*loop = 0;
	*trials = 0;
	for (k = 0; k < c->p->steps; k++) {
		snprintf(reason, sizeof(reason), "%u B %s: loop at %.4g fps",
			 f, path, rate);
		cap_spec(&s, c->p, f, path, rate, c->p->duration_s);
		ret = bm_search_trial(c->be, &s, &r, &c->log, "loop", reason,
				      c->progress, c->ctx, err);
		if (ret)
			return ret;
		(*trials)++;
		if (!r.lost && r.attempted == r.intended &&
		    !r.generator_limited && r.received) {
			*loop = rate;
			c->any_loss_free = true;
			break;
		}
		/* a generator that could not keep the pace for duration_s
		 * (a flat-out burst overstates what it sustains: a receive
		 * softirq or NAPI catches up with it) showed what it does
		 * sustain; loss alone steps down */
		rate *= 0.85;
		if (r.generator_limited && sent_fps(&r) > 0)
			rate = fmin(rate, 0.95 * sent_fps(&r));
	}
	return 0;
}

/* Did the port give path asked what it asked for?  got is the path the
 * record names ("" for a backend without paths); auto takes whatever. */
static bool cap_available(const char *asked, const char *got)
{
	return !got[0] || !strcmp(asked, "auto") || !strcmp(asked, got);
}

static json_object *cap_entry(uint32_t f, const char *asked, const char *got,
			      double ask, double fps, double loop,
			      unsigned int loop_trials, unsigned int steps)
{
	json_object *e = json_object_new_object();
	bool available = cap_available(asked, got);

	bm_json_add_u64(e, "frame_size", f);
	bm_json_add_str(e, "tx_path", asked);
	bm_json_add_str(e, "tx_path_used", got[0] ? got : "none");
	bm_json_add_bool(e, "available", available);
	/* send_fps first: a report's derived %line columns are of it */
	bm_json_add_double(e, "send_fps", fps);
	bm_json_add_double(e, "offered_fps", ask);
	/* the generator kept up with what it was asked: the port's line
	 * rate (or the backend) is the limit, not the kthread */
	bm_json_add_bool(e, "line_limited", fps >= 0.999 * ask);
	bm_json_add_u64(e, "loop_trials", loop_trials);
	if (steps)
		bm_json_add_double(e, "loop_fps", loop > 0 ? loop : NAN);
	return e;
}

int cap_run(const struct bm_procedure_info *pi, json_object *params,
	    struct bm_backend *be, bm_progress_fn progress, void *ctx,
	    json_object **result, struct bm_error *err)
{
	struct cap_params p;
	struct cap_run c = { .be = be, .p = &p, .progress = progress,
			     .ctx = ctx };
	json_object *out, *v, *dev;
	unsigned int i, k, trials;
	double ask, fps, loop;
	char got[16];
	int ret;

	*result = NULL;
	ret = cap_parse(pi, params, &p, err);
	if (ret)
		return ret;
	out = json_object_new_object();
	bm_json_add_str(out, "tx_port", be->n_ports ? be->port_names[0] : "");
	bm_json_add_str(out, "rx_port", be->n_ports > 1 ? be->port_names[1] :
			be->n_ports ? be->port_names[0] : "");
	bm_json_add_u64(out, "tx_kthreads", 1);
	v = json_object_new_array();
	json_object_object_add(out, "capacity", v);
	for (i = 0; i < p.n_sizes && !ret; i++) {
		uint32_t f = p.frame_sizes[i];

		ask = be->line_rate_bps > 0 ?
		      be->line_rate_bps / ((f + 20) * 8.0) : CAP_UNKNOWN_FPS;
		for (k = 0; k < p.n_paths && !ret; k++) {
			const char *path = cap_path_names[p.paths[k]];

			ret = cap_send(&c, f, path, ask, &fps, got,
				       sizeof(got), err);
			trials = 0;
			loop = 0;
			/* a path that fell back measures the one it fell to,
			 * which has its own entry */
			if (!ret && cap_available(path, got))
				ret = cap_loop(&c, f, path, fps, &loop, &trials,
					       err);
			if (!ret)
				json_object_array_add(v, cap_entry(f, path, got,
					ask, fps, loop, trials, p.steps));
		}
	}
	dev = json_object_new_array();
	if (p.steps && !c.any_loss_free)
		bm_json_add_str_once(dev, "no loop rate carried every frame: "
				     "are the two ports cabled to each other "
				     "(or a veth pair)? send_fps stands");
	*result = bm_result_envelope(pi->name, pi->refs,
				     bm_json_params_to_json(pi->keys, pi->mask,
							    &p, pi->writers),
				     &c.log, NULL, out, dev, be);
	bm_trial_log_free(&c.log);
	if (!*result && !ret) {
		bm_errorf(err, "out of memory");
		ret = -ENOMEM;
	}
	return ret;
}

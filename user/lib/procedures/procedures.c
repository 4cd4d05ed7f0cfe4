// SPDX-License-Identifier: GPL-2.0
/*
 * The procedure registry of bm_procedure.h: the six RFC 2544 benchmarks
 * and a standalone MLRsearch, each run by name with strictly validated
 * JSON parameters (Documentation/procedures-rfc2544.md).
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include "bm_json.h"
#include "bm_result.h"
#include "bm_mlrsearch.h"
#include "bm_procedure.h"
#include "bm_search.h"
#include "rfc2544.h"

extern char **environ;

#define MLR_NAME	"mlrsearch"
#define MLR_MAX_TARGETS	16

static const struct bm_procedure_info infos[] = {
	{ "rfc2544.throughput", "RFC 2544 §26.1 throughput: binary search "
	  "(or MLRsearch) for the highest zero-loss rate", "R2544-THRPT" },
	{ "rfc2544.latency", "RFC 2544 §26.2 latency at the throughput rate, "
	  ">= 20 tagged-frame repetitions", "R2544-LAT" },
	{ "rfc2544.frame-loss", "RFC 2544 §26.3 frame loss rate from 100 % "
	  "down until two zero-loss trials", "R2544-FLR" },
	{ "rfc2544.back-to-back", "RFC 2544 §26.4 longest loss-free burst at "
	  "minimum gap, repeated", "R2544-B2B" },
	{ "rfc2544.recovery", "RFC 2544 §26.5 recovery time after 110 % "
	  "overload", "R2544-RECOV" },
	{ "rfc2544.reset", "RFC 2544 §26.6 outage caused by a DUT reset",
	  "R2544-RESET" },
	{ MLR_NAME, "MLRsearch: NDR/PDR bounds for several loss ratios in one "
	  "search", "MLR-*" },
	{ NULL, NULL, NULL },
};

const struct bm_procedure_info *bm_procedures(void)
{
	return infos;
}

/* --- mlrsearch parameters ------------------------------------------------ */

struct mlr_in {
	struct bm_mlr_params mp;
	double targets[MLR_MAX_TARGETS];
};

static const char *const topo_names[] = { "pair-uni", "pair-bidir", NULL };

static int parse_targets(json_object *v, void *base, const char *key,
			 struct bm_error *err)
{
	struct mlr_in *in = base;
	size_t n, i;
	double x;

	if (json_object_get_type(v) != json_type_array)
		return bm_errorf(err, "%s: expected an array", key);
	n = json_object_array_length(v);
	if (!n || n > MLR_MAX_TARGETS)
		return bm_errorf(err, "%s: expected 1 to %d ratios", key,
				 MLR_MAX_TARGETS);
	for (i = 0; i < n; i++) {
		if (!bm_json_number(json_object_array_get_idx(v, i), &x) ||
		    x < 0.0 || x >= 1.0)
			return bm_errorf(err, "%s[%zu]: expected a number in "
					 "[0, 1)", key, i);
		/* MLR-IN: strictly increasing, as the reference requires */
		if (i && x <= in->targets[i - 1])
			return bm_errorf(err, "%s[%zu]: must be larger than "
					 "the previous ratio", key, i);
		in->targets[i] = x;
	}
	in->mp.n_targets = n;
	return 0;
}

#define MO(f)	offsetof(struct mlr_in, mp.f)
#define MD(k, lo, hi, fl) \
	{ #k, BM_J_DOUBLE, MO(k), lo, hi, fl, 0, NULL, NULL }

static const struct bm_jkey mlr_keys[] = {
	{ "frame_size", BM_J_U32, MO(frame_size), 64, 9216, 0, 0, NULL, NULL },
	{ "topology", BM_J_ENUM, MO(topology), 0, 0, 0, 0, topo_names, NULL },
	MD(min_rate_fps, 0, 1e10, BM_JK_MIN_EXCL),
	MD(max_rate_fps, 0, 1e10, BM_JK_MIN_EXCL),
	MD(final_trial_duration_s, 0, 86400, BM_JK_MIN_EXCL),
	MD(initial_trial_duration_s, 0, 86400, BM_JK_MIN_EXCL),
	MD(final_relative_width, 0, 1, BM_JK_MIN_EXCL | BM_JK_MAX_EXCL),
	MD(expansion_coefficient, 1, 1000, BM_JK_MIN_EXCL),
	MD(timeout_s, 0, 1e7, BM_JK_MIN_EXCL),
	{ "number_of_intermediate_phases", BM_J_UINT,
	  MO(number_of_intermediate_phases), 0, 20, 0, 0, NULL, NULL },
	{ "target_loss_ratios", BM_J_CUSTOM, 0, 0, 0, 0, 0, NULL,
	  parse_targets },
	MD(packet_loss_ratio_tolerance, 0, 1, BM_JK_MAX_EXCL),
	MD(attempt_tolerance_s, 0, 1, 0),
	{ "learning", BM_J_BOOL, MO(learning), 0, 0, 0, 0, NULL, NULL },
	{ "fail_fast", BM_J_BOOL, MO(fail_fast), 0, 0, 0, 0, NULL, NULL },
	MD(learning_pause_s, 0, 60, 0),
	MD(drain_s, 0, 60, 0),
	{ NULL, 0, 0, 0, 0, 0, 0, NULL, NULL },
};

/* Defaults: the draft's CSIT values, targets [0, 0.005] (NDR, PDR), with
 * the rates scaled to the line: max = fps_max(F), min = 0.1 % of max. */
static int mlr_parse(json_object *params, double line, struct mlr_in *in,
		     struct bm_error *err)
{
	int ret;

	memset(in, 0, sizeof(*in));
	bm_mlr_params_default(&in->mp);
	in->mp.frame_size = 64;
	in->mp.min_rate_fps = 0.0;
	in->mp.max_rate_fps = 0.0;
	in->targets[0] = 0.0;
	in->targets[1] = 0.005;
	in->mp.n_targets = 2;
	ret = bm_json_parse_keys(params, mlr_keys, 0, in, MLR_NAME, err);
	if (ret)
		return ret;
	if (in->mp.max_rate_fps == 0.0)
		in->mp.max_rate_fps = bm_fps_max(line, in->mp.frame_size);
	if (in->mp.min_rate_fps == 0.0)
		in->mp.min_rate_fps = 0.001 * in->mp.max_rate_fps;
	if (in->mp.max_rate_fps > bm_fps_max(line, in->mp.frame_size) * 1.000001)
		return bm_errorf(err, "%s: max_rate_fps: above the line rate "
				 "(%.2f fps at %u B)", MLR_NAME,
				 bm_fps_max(line, in->mp.frame_size),
				 in->mp.frame_size);
	in->mp.target_loss_ratios = in->targets;
	return bm_mlr_params_validate(&in->mp, err);
}

static json_object *mlr_params_json(const struct mlr_in *in)
{
	const struct bm_mlr_params *p = &in->mp;
	json_object *o = json_object_new_object(), *a;
	size_t i;

	bm_json_add_u64(o, "frame_size", p->frame_size);
	bm_json_add_str(o, "topology", topo_names[p->topology]);
	bm_json_add_double(o, "min_rate_fps", p->min_rate_fps);
	bm_json_add_double(o, "max_rate_fps", p->max_rate_fps);
	bm_json_add_double(o, "final_trial_duration_s",
			   p->final_trial_duration_s);
	bm_json_add_double(o, "initial_trial_duration_s",
			   p->initial_trial_duration_s);
	bm_json_add_double(o, "final_relative_width", p->final_relative_width);
	bm_json_add_double(o, "expansion_coefficient",
			   p->expansion_coefficient);
	bm_json_add_double(o, "timeout_s", p->timeout_s);
	bm_json_add_u64(o, "number_of_intermediate_phases",
			p->number_of_intermediate_phases);
	a = json_object_new_array();
	for (i = 0; i < p->n_targets; i++)
		json_object_array_add(a, json_object_new_double(in->targets[i]));
	json_object_object_add(o, "target_loss_ratios", a);
	bm_json_add_double(o, "packet_loss_ratio_tolerance",
			   p->packet_loss_ratio_tolerance);
	bm_json_add_double(o, "attempt_tolerance_s", p->attempt_tolerance_s);
	bm_json_add_bool(o, "learning", p->learning);
	bm_json_add_double(o, "learning_pause_s", p->learning_pause_s >= 0.0 ?
			   p->learning_pause_s : NAN);
	/* < 0 = the backend's default, shown as null */
	bm_json_add_double(o, "drain_s", p->drain_s >= 0.0 ? p->drain_s : NAN);
	return o;
}

static int mlr_run(json_object *params, struct bm_backend *be,
		   bm_progress_fn progress, void *ctx, json_object **result,
		   struct bm_error *err)
{
	struct mlr_in in;
	struct bm_mlr_result res;
	json_object *d, *o, *a, *b;
	uint32_t f;
	size_t i;
	int ret;

	ret = mlr_parse(params, be->line_rate_bps, &in, err);
	if (ret)
		return ret;
	f = in.mp.frame_size;
	memset(&res, 0, sizeof(res));
	ret = bm_mlrsearch_run(be, &in.mp, &res, progress, ctx, err);

	d = json_object_new_object();
	o = json_object_new_object();
	bm_json_add_str(o, "id", MLR_NAME);
	bm_json_add_str(o, "ref", "draft-ietf-bmwg-mlrsearch-01; MLR-*");
	json_object_object_add(d, "procedure", o);
	json_object_object_add(d, "params", mlr_params_json(&in));
	a = json_object_new_array();
	for (i = 0; i < res.log.n; i++)
		json_object_array_add(a, bm_trial_record_to_json(
			&res.log.v[i], be->line_rate_bps,
			res.loss_ratios ? res.loss_ratios[i] : -1));
	json_object_object_add(d, "trials", a);
	o = bm_mlr_result_to_json(&res);
	if (!o)
		o = json_object_new_object();
	/* Every rate also in L1/L2 bit/s and % of line (SPEC 2.3, F-4). */
	a = json_object_new_array();
	for (i = 0; i < res.n; i++) {
		b = json_object_new_object();
		bm_json_add_double(b, "target_loss_ratio",
				   res.bounds[i].target_ratio);
		bm_json_add_double(b, "lower_fps", res.bounds[i].lower_fps);
		bm_json_add_double(b, "lower_l1_bps",
				   bm_l1_bps(res.bounds[i].lower_fps, f));
		bm_json_add_double(b, "lower_l2_bps",
				   bm_l2_bps(res.bounds[i].lower_fps, f));
		bm_json_add_double(b, "lower_pct_line",
				   bm_load_pct(res.bounds[i].lower_fps, f,
					       be->line_rate_bps));
		bm_json_add_double(b, "upper_fps", res.bounds[i].upper_fps);
		bm_json_add_bool(b, "lower_valid", res.bounds[i].lower_valid);
		json_object_array_add(a, b);
	}
	json_object_object_add(o, "rates", a);
	bm_json_add_double(o, "theoretical_max_fps",
			   bm_fps_max(be->line_rate_bps, f));
	json_object_object_add(d, "results", o);
	a = json_object_new_array();
	if (be->deviation)
		json_object_array_add(a, json_object_new_string(be->deviation));
	if (in.mp.packet_loss_ratio_tolerance > 0.0)
		json_object_array_add(a, json_object_new_string(
			"packet_loss_ratio_tolerance > 0: not in the draft"));
	json_object_object_add(d, "deviations", a);
	bm_mlr_result_free(&res);
	*result = d;
	return ret;
}

/* --- RFC 2544 ------------------------------------------------------------ */

/*
 * The DUT reset hook of reset_command: run it with /bin/sh -c and wait;
 * 0 when it exits 0.  Waiting here does not hold up the test stream: the
 * module's kthreads send it while the trial's thread sits in the hook.
 * The command gets default signal handling: bmd ignores SIGPIPE and
 * SIGHUP and ignored signals survive exec, so a pipeline in the command
 * (the lab's "... | ip -batch -") would otherwise never see SIGPIPE.
 * A command that hangs must not hold the job (and the ports) forever: after
 * reset_timeout_s its whole process group is killed and the hook fails
 * with -ETIMEDOUT.
 */
static int run_reset_command(void *ctx)
{
	const struct rfc2544_params *p = ctx;
	char *argv[] = { "/bin/sh", "-c", (char *)p->reset_command, NULL };
	posix_spawnattr_t attr;
	sigset_t def, none;
	int status, ret;
	pid_t pid;

	sigemptyset(&def);
	sigaddset(&def, SIGPIPE);
	sigaddset(&def, SIGHUP);
	sigemptyset(&none);
	ret = posix_spawnattr_init(&attr);
	if (ret)
		return -ret;
	ret = posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF |
				       POSIX_SPAWN_SETSIGMASK |
				       POSIX_SPAWN_SETPGROUP);
	if (!ret)
		ret = posix_spawnattr_setpgroup(&attr, 0);
	if (!ret)
		ret = posix_spawnattr_setsigdefault(&attr, &def);
	if (!ret)
		ret = posix_spawnattr_setsigmask(&attr, &none);
	if (!ret)
		ret = posix_spawn(&pid, "/bin/sh", NULL, &attr, argv, environ);
	posix_spawnattr_destroy(&attr);
	if (ret)
		return -ret;
	for (int ms = 0;; ms += 10) {
		pid_t w = waitpid(pid, &status, WNOHANG);

		if (w < 0 && errno != EINTR)
			return -errno;
		if (w == pid)
			break;
		if (ms >= p->reset_timeout_s * 1000) {
			kill(-pid, SIGKILL);
			waitpid(pid, &status, 0);
			return -ETIMEDOUT;
		}
		nanosleep(&(struct timespec){ 0, 10000000 }, NULL);
	}
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -EIO;
}

static int r2544_parse(int t, json_object *params, double line,
		       struct rfc2544_params *p, struct bm_error *err)
{
	size_t i;
	int ret;

	rfc2544_params_default(p, t);
	ret = rfc2544_params_from_json(params, t, p, err);
	if (ret)
		return ret;
	for (i = 0; i < p->n_sizes; i++)
		if (p->throughput_fps[i] >
		    bm_fps_max(line, p->frame_sizes[i]) * 1.000001)
			return bm_errorf(err, "%s: throughput_fps: %.2f fps is "
					 "above the line rate at %u B",
					 rfc2544_name(t), p->throughput_fps[i],
					 p->frame_sizes[i]);
	return 0;
}

int bm_procedure_validate(const char *name, json_object *params,
			  double line_rate_bps, struct bm_error *err)
{
	struct rfc2544_params p;
	struct mlr_in in;
	int t;

	if (!(line_rate_bps > 0.0))
		return bm_errorf(err, "line rate must be > 0");
	if (name && !strcmp(name, MLR_NAME))
		return mlr_parse(params, line_rate_bps, &in, err);
	t = rfc2544_lookup(name);
	if (t < 0)
		return bm_errorf(err, "unknown procedure \"%s\"",
				 name ? name : "");
	return r2544_parse(t, params, line_rate_bps, &p, err);
}

int bm_procedure_run(const char *name, json_object *params,
		     struct bm_backend *be, bm_progress_fn progress,
		     void *progress_ctx, json_object **result,
		     struct bm_error *err)
{
	struct rfc2544_params p;
	int t, ret;

	*result = NULL;
	if (name && !strcmp(name, MLR_NAME))
		return mlr_run(params, be, progress, progress_ctx, result, err);
	t = rfc2544_lookup(name);
	if (t < 0)
		return bm_errorf(err, "unknown procedure \"%s\"",
				 name ? name : "");
	ret = r2544_parse(t, params, be->line_rate_bps, &p, err);
	if (ret)
		return ret;
	if (p.reset_command[0]) {
		p.reset_hook = run_reset_command;
		p.reset_ctx = &p;
	} else if (be->ops->dut_reset) {
		/* A backend that can reset its DUT (the simulator). */
		p.reset_hook = bm_backend_dut_reset;
		p.reset_ctx = be;
	}
	return rfc2544_run(t, be, &p, progress, progress_ctx, result, err);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The RFC 8239 §3 buffering tests' parameters (SPEC §8.2, R8239-BUF-1 ..
 * -4): the key table, the defaults, the bound on trials and the check,
 * and each test's name and SPEC reference.  Apart from the measurement
 * (buffer.c, buffer_search.c) because these only read the params: the
 * registry parses, checks and bounds them without a backend.
 */
#include <math.h>

#include "bm_json.h"
#include "rfc8239_int.h"

#define BO(f)	offsetof(struct r8239_buf_params, f)
#define M_EFF	R8239_BUF_MASK(R8239_BUF_EFFICIENCY)
#define M_PORT	R8239_BUF_MASK(R8239_BUF_PORT)
#define M_ONE	(R8239_BUF_MASK(R8239_BUF_PORT) | \
		 R8239_BUF_MASK(R8239_BUF_PAIRS) | \
		 R8239_BUF_MASK(R8239_BUF_DUT))

static const char *const sweep_names[] = { "coarse-fine", "exhaustive",
					   NULL };
static const char *const method_names[] = { "log", "search", NULL };

const struct bm_param r8239_buf_keys[] = {
	{ { "frame_size", BM_J_U32, BO(frame_size), 64, 9216, 0, M_ONE, NULL,
	    NULL }, "B", "frame size with FCS, one per run (the B* of "
	  "BUF-1) [PROPOSED 1518]", NULL },
	{ { "sweep", BM_J_ENUM, BO(sweep), 0, 0, 0, M_EFF, sweep_names, NULL },
	  "", "coarse-fine: step 64, then 1 around the best (AMB-28); "
	  "exhaustive: every size", NULL },
	{ { "b_min", BM_J_U32, BO(b_min), 64, 9216, 0, M_EFF, NULL, NULL }, "B",
	  "smallest size of the sweep", NULL },
	{ { "b_max", BM_J_U32, BO(b_max), 64, 9216, 0, M_EFF, NULL, NULL }, "B",
	  "largest size of the sweep (the port's maximum)", NULL },
	{ { "iteration", BM_J_UINT, BO(iteration), 0, 256, 0, M_ONE, NULL,
	    NULL }, "", "iteration to run (1-based); 0 runs them all", NULL },
	{ { "os_pct", BM_J_DOUBLE, BO(os_pct), 0, 100, BM_JK_MIN_EXCL, 0,
	    NULL, NULL }, "%", "oversubscription above the line rate (RFC "
	  "8239 §3.2 recommends 1; another value is reported)", NULL },
	{ { "line_pct", BM_J_DOUBLE, BO(line_pct), 0, 99.98, BM_JK_MIN_EXCL,
	    0, NULL, NULL }, "%", "what \"line rate\" is (AMB-27: 99.98, "
	  "RFC 8239 §2.2's MUST)", NULL },
	{ { "wrap", BM_J_BOOL, BO(wrap), 0, 0, 0, M_PORT, NULL, NULL }, "",
	  "port-buffer: also egress ports N and 1 [EXTENSION]", NULL },
	{ { "max_trial_s", BM_J_DOUBLE, BO(max_trial_s), 0, 3600,
	    BM_JK_MIN_EXCL, 0, NULL, NULL }, "s",
	  "longest congestion trial; no loss by then is a lower bound", NULL },
	{ { "start_s", BM_J_DOUBLE, BO(start_s), 0, 10, 0, 0, NULL, NULL }, "s",
	  "lead time before all senders start together", NULL },
	{ { "retries", BM_J_UINT, BO(retries), 0, 10, 0, 0, NULL, NULL }, "",
	  "re-sends of a trial the generator could not send whole", NULL },
	{ { "confirm", BM_J_UINT, BO(confirm), 0, 10, 0, 0, NULL, NULL }, "",
	  "runs of a lossy trial again: it is lossy only if every run loses "
	  "[EXTENSION]", NULL },
	{ { "method", BM_J_ENUM, BO(method), 0, 0, 0, 0, method_names, NULL },
	  "", "log: the inflection from per-frame logs (REQ-BUF-1); search: "
	  "counters only, the largest loss-free trial", NULL },
	R8239_COMMON_KEYS(BO, "iteration"),
	{ { NULL, 0, 0, 0, 0, 0, 0, NULL, NULL }, NULL, NULL, NULL },
};

void r8239_buf_defaults(struct r8239_buf_params *p, enum r8239_buf_test t)
{
	*p = (struct r8239_buf_params){
		.test = t,
		.frame_size = 1518,		/* [PROPOSED] */
		.sweep = R8239_SWEEP_COARSE_FINE,	/* AMB-28 */
		.b_min = 64,
		.b_max = 9216,			/* the port maximum */
		.os_pct = 1.0,			/* [8239 §3.2] recommended */
		.line_pct = 99.98,		/* AMB-27 */
		.max_trial_s = 60.0,		/* REQ-BUF-1 */
		.start_s = 0.01,
		.retries = 3,
		.confirm = 1,
		.method = R8239_BUF_LOG,	/* REQ-BUF-1 */
	};
	r8239_common_defaults(&p->c);
}

const char *const r8239_buf_params_ids[] = {
	[R8239_BUF_PORT] = "rfc8239.port-buffer",
	[R8239_BUF_DUT] = "rfc8239.dut-buffer",
	[R8239_BUF_EFFICIENCY] = "rfc8239.buffer-efficiency",
	[R8239_BUF_PAIRS] = "rfc8239.port-pair-buffer",
};
const char *const r8239_buf_params_refs[] = {
	[R8239_BUF_PORT] = "R8239-BUF-2",
	[R8239_BUF_DUT] = "R8239-BUF-4",
	[R8239_BUF_EFFICIENCY] = "R8239-BUF-1",
	[R8239_BUF_PAIRS] = "R8239-BUF-3",
};

double r8239_buf_max_trials(const struct r8239_buf_params *p,
			    unsigned int n_ports, double line_rate_bps)
{
	/* the smallest frame searched has the most frames in max_trial_s */
	uint32_t f = p->test == R8239_BUF_EFFICIENCY ? p->b_min : p->frame_size;
	double kmax = fmax(1.0, floor(bm_fps_max(line_rate_bps, f) *
				      p->max_trial_s));
	double points = (p->method == R8239_BUF_LOG ? 1.0 : 2.0) *
			ceil(log2(kmax)) + 1.0, iters = 1.0;

	if (n_ports < 3)
		n_ports = 3;
	switch (p->test) {
	case R8239_BUF_PORT:
		iters = p->iteration ? 1.0 : n_ports - 2.0 + (p->wrap ? 2 : 0);
		break;
	case R8239_BUF_DUT:
		iters = p->iteration ? 1.0 : n_ports;
		break;
	case R8239_BUF_PAIRS:
		/* both directions of every pair iteration */
		iters = 2.0 * (p->iteration ? 1.0 :
			       (n_ports - 3) / 2 + ((n_ports - 3) % 2));
		break;
	case R8239_BUF_EFFICIENCY:
		/* coarse pass then 1-byte steps within 63 B of the best */
		iters = p->b_max < p->b_min ? 0.0 :
			p->sweep == R8239_SWEEP_EXHAUSTIVE ?
			p->b_max - p->b_min + 1.0 :
			floor((p->b_max - p->b_min) / 64.0) + 1.0 + 126.0;
		break;
	}
	return iters * p->c.repeat * points * (1.0 + p->confirm) *
	       (1.0 + p->retries);
}

int r8239_buf_check(const struct r8239_buf_params *p, struct bm_error *err)
{
	if (p->test != R8239_BUF_PORT && p->wrap)
		return bm_errorf(err, "%s: wrap: only for rfc8239.port-buffer",
				 r8239_buf_params_ids[p->test]);
	if (p->b_min > p->b_max)
		return bm_errorf(err, "%s: b_min: %u above b_max %u",
				 r8239_buf_params_ids[p->test], p->b_min,
				 p->b_max);
	return 0;
}

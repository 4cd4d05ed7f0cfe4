// SPDX-License-Identifier: GPL-2.0
/*
 * The RFC 8239 and RFC 8238 procedures as procedures of the registry
 * (bm_proc_info.h): their parameters' parse, bound and run, and their
 * rows.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bm_json.h"
#include "bm_result.h"
#include "bm_proc_info.h"
#include "rfc8239.h"

/*
 * Each procedure's hooks are BM_PROC_HOOKS' (bm_proc_info.h); where a
 * family's function takes more than p, it gets it where the macro expands
 * the call: the test from pi, the ports and line rate in the bound.
 */
#define mb_defaults r8239_mb_defaults
#define mb_check r8239_mb_check
#define mb_max_trials(p) r8239_mb_max_trials(p, n_ports)
#define mb_run r8239_microburst_run
BM_PROC_HOOKS(mb, struct r8239_mb_params)

#define buf_defaults(p) r8239_buf_defaults(p, pi->test)
#define buf_check r8239_buf_check
#define buf_max_trials(p) r8239_buf_max_trials(p, n_ports, line)
#define buf_run r8239_buffer_run
BM_PROC_HOOKS(buf, struct r8239_buf_params)

/* HOLB's and the calibration's keys need no check beyond their ranges */
#define holb_defaults r8239_holb_defaults
#define holb_check(p, err) ((void)(p), (void)(err), 0)
#define holb_max_trials(p) r8239_holb_max_trials(p, n_ports)
#define holb_run r8239_holb_run
BM_PROC_HOOKS(holb, struct r8239_holb_params)

#define lr_defaults(p) r8239_lr_defaults(p, pi->test)
#define lr_check r8239_lr_check
#define lr_max_trials r8239_lr_max_trials
#define lr_run r8239_line_rate_run
BM_PROC_HOOKS(lr, struct r8239_lr_params)

#define cal_defaults r8238_cal_defaults
#define cal_check(p, err) ((void)(p), (void)(err), 0)
#define cal_max_trials r8238_cal_max_trials
#define cal_run r8238_calibrate_run
BM_PROC_HOOKS(cal, struct r8238_cal_params)

/* RFC 8239 §6 incast and RFC 8238 §7 goodput: one parameter table (mask
 * 1 incast's keys, 2 goodput's), two sets of defaults. */
#define inc_keys r8239_inc_keys
#define gp_keys r8239_inc_keys
#define inc_check r8239_inc_check
#define gp_check r8239_inc_check
#define inc_max_trials r8239_inc_max_trials
#define gp_max_trials r8239_inc_max_trials
#define inc_run r8239_inc_run
#define gp_run r8239_inc_run
#define inc_defaults r8239_inc_defaults

static void gp_defaults(struct r8239_inc_params *p)
{
	r8239_inc_defaults(p);
	p->goodput = true;
}

BM_PROC_HOOKS(inc, struct r8239_inc_params)

BM_PROC_HOOKS(gp, struct r8239_inc_params)

const struct bm_procedure_info rfc8239_procedures[] = {
	{ .name = "rfc8239.microburst",
	  .summary = "RFC 8239 §4 microburst: largest loss-free burst of N-j "
		     "ingress ports bursting together to j egress ports",
	  .refs = "R8239-MB, R8238-MB, R8238-INCAST, REQ-8239-1",
	  /* SPEC 12: 2 ingress + 1 egress at least */
	  .ports_needed = 3, .keys = r8239_mb_keys,
	  .duration_key = NULL, .sizes_key = "frame_size",
	  .validate = mb_validate, .defaults = mb_defaults_json,
	  .max_trials = mb_bound, .run = mb_run_proc },
	{ .name = "rfc8239.port-buffer",
	  .summary = "RFC 8239 §3.2 (2) maximum port buffer size of each "
		     "egress: line rate + oversubscription to it",
	  .refs = "R8239-BUF-2, R8238-BUF, REQ-BUF-1, REQ-8239-1",
	  .ports_needed = 3, .keys = r8239_buf_keys,
	  .mask = R8239_BUF_MASK(R8239_BUF_PORT), .test = R8239_BUF_PORT,
	  .duration_key = "max_trial_s", .sizes_key = "frame_size",
	  .validate = buf_validate, .defaults = buf_defaults_json,
	  .max_trials = buf_bound, .run = buf_run_proc },
	{ .name = "rfc8239.buffer-efficiency",
	  .summary = "RFC 8239 §3.2 (1) the frame size that allows the highest "
		     "buffer efficiency (a sweep of port-buffer's first "
		     "iteration)",
	  .refs = "R8239-BUF-1, AMB-28, R8238-BUF, REQ-8239-1",
	  .ports_needed = 3, .keys = r8239_buf_keys,
	  .mask = R8239_BUF_MASK(R8239_BUF_EFFICIENCY),
	  .test = R8239_BUF_EFFICIENCY,
	  .duration_key = "max_trial_s", .sizes_key = NULL,
	  .validate = buf_validate, .defaults = buf_defaults_json,
	  .max_trials = buf_bound, .run = buf_run_proc },
	{ .name = "rfc8239.port-pair-buffer",
	  .summary = "RFC 8239 §3.2 (3) port buffers with every port pair "
		     "loaded both ways and two oversubscribers",
	  .refs = "R8239-BUF-3, AMB-30, R8238-BUF, REQ-8239-1",
	  .ports_needed = 6, .keys = r8239_buf_keys,
	  .mask = R8239_BUF_MASK(R8239_BUF_PAIRS), .test = R8239_BUF_PAIRS,
	  .duration_key = "max_trial_s", .sizes_key = "frame_size",
	  .validate = buf_validate, .defaults = buf_defaults_json,
	  .max_trials = buf_bound, .run = buf_run_proc },
	{ .name = "rfc8239.dut-buffer",
	  .summary = "RFC 8239 §3.2 (4) maximum DUT buffer size: all other "
		     "ports to each egress in turn (many-to-one)",
	  .refs = "R8239-BUF-4, R8238-BUF, F-8, REQ-BUF-1, REQ-8239-1",
	  .ports_needed = 3, .keys = r8239_buf_keys,
	  .mask = R8239_BUF_MASK(R8239_BUF_DUT), .test = R8239_BUF_DUT,
	  .duration_key = "max_trial_s", .sizes_key = "frame_size",
	  .validate = buf_validate, .defaults = buf_defaults_json,
	  .max_trials = buf_bound, .run = buf_run_proc },
	{ .name = "rfc8239.holb",
	  .summary = "RFC 8239 §5 head-of-line blocking: does a congested "
		     "egress cost a flow to an idle one (groups of four)",
	  .refs = "R8239-HOLB-1, R8239-HOLB-2, REQ-8239-1, REQ-8239-2",
	  .ports_needed = 8, .keys = r8239_holb_keys,
	  .duration_key = "trial_duration_s", .sizes_key = "frame_size",
	  .validate = holb_validate, .defaults = holb_defaults_json,
	  .max_trials = holb_bound, .run = holb_run_proc },
	/* RFC 8239 §2.2 MUST run both the pair and the mesh test */
#define R8239_LR(t, nm, need, sum, ids) { \
	.name = nm, .summary = sum, .refs = ids, .ports_needed = need, \
	.keys = r8239_lr_keys, .mask = R8239_LR_MASK(t), .test = t, \
	.writers = r8239_lr_writers, \
	.duration_key = "trial_duration_s", .sizes_key = "frame_sizes", \
	.validate = lr_validate, .defaults = lr_defaults_json, \
	.max_trials = lr_bound, .run = lr_run_proc }
	R8239_LR(R8239_LR_PAIR, "rfc8239.line-rate-pair", 2,
		 "RFC 8239 §2.2 (1) port pairs at 99.98 % of line rate: "
		 "throughput, drops, latency and jitter per size",
		 "R8239-LR-PP, R8238-LINE, R8238-LAT, R8238-JIT, REQ-8239-1"),
	R8239_LR(R8239_LR_MESH, "rfc8239.line-rate-mesh", 3,
		 "RFC 8239 §2.2 (2) full mesh at 99.98 % of line rate",
		 "R8239-LR-MESH, R8238-LINE, R8238-LAT, R8238-JIT, "
		 "REQ-8239-1"),
	R8239_LR(R8239_LR_SNAKE, "rfc8239.snake", 2,
		 "RFC 8239 §2.2 snake: 2 tester ports through every DUT "
		 "port (prints the DUT's VLAN and cabling plan)",
		 "R8239-LR-SNAKE, REQ-8239-3, REQ-8239-1"),
	{ .name = "rfc8239.incast",
	  .summary = "RFC 8239 §6 incast: TCP goodput and UDP microburst "
		     "latency into one egress, stateful or stateless ports "
		     "varied",
	  .refs = "R8239-INC-1, R8239-INC-2, R8238-INCAST, R8238-GOODPUT, "
		  "PLAT-TCP, REQ-8239-1",
	  /* 1 TCP + 1 UDP ingress, 1 egress */
	  .ports_needed = 3, .keys = inc_keys, .mask = R8239_INC_MASK(false),
	  .writers = r8239_inc_writers,
	  .duration_key = "duration_s", .sizes_key = "frame_size",
	  .validate = inc_validate, .defaults = inc_defaults_json,
	  .max_trials = inc_bound, .run = inc_run_proc },
	{ .name = "rfc8238.goodput",
	  .summary = "RFC 8238 §7 goodput: bulk TCP from every port but the "
		     "last into it, beside the F-9 ceiling",
	  .refs = "R8238-GOODPUT, F-9, PLAT-TCP, REQ-TCP-4",
	  .ports_needed = 2, .keys = gp_keys, .mask = R8239_INC_MASK(true),
	  .writers = r8239_inc_writers,
	  .duration_key = "duration_s", .sizes_key = NULL,
	  .validate = gp_validate, .defaults = gp_defaults_json,
	  .max_trials = gp_bound, .run = gp_run_proc },
	{ .name = "rfc8238.calibrate",
	  .summary = "RFC 8238 §4 calibration: the tester's latency constant "
		     "C per frame size, its two ports cabled back to back",
	  .refs = "R8238-CAL, REQ-TS-4, REQ-TS-5",
	  .ports_needed = 2, .keys = r8238_cal_keys,
	  .writers = r8238_cal_writers,
	  .duration_key = NULL, .sizes_key = "frame_sizes",
	  .validate = cal_validate, .defaults = cal_defaults_json,
	  .max_trials = cal_bound, .run = cal_run_proc },
	{ .name = NULL },
};

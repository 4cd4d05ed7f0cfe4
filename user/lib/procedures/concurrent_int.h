/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internals of rfc7640.concurrent (concurrent.h) shared by its files:
 * the parameters (concurrent_params.c), the run's state, its trial
 * barrier (concurrent_trial.c), the TCP instance's engine
 * (concurrent_tcp.c) and the result (concurrent_result.c), all run by
 * concurrent.c; not a public interface.
 */
#ifndef BM_CONCURRENT_INT_H
#define BM_CONCURRENT_INT_H

#include <pthread.h>
#include <stdbool.h>

#include "bm_clock.h"
#include "bm_tcp.h"
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

/* concurrent_params.c: the defaults, then params over them; 0 or
 * -EINVAL with err set.  Free with conc_params_free() either way. */
int conc_parse(const struct bm_procedure_info *pi, json_object *params,
	       double line_rate_bps, struct conc_params *p,
	       struct bm_error *err);
/* Release what conc_parse kept in p. */
void conc_params_free(struct conc_params *p);

/* Now on the run's time base. */
double conc_now(const struct conc *c);
/* Note window [a, b] of a trial of in (in->oom when out of memory). */
void conc_add_window(struct conc_inst *in, double a, double b);
/* With c->lock held: when no instance is between trials and some wait,
 * run their trials as one and wake them. */
void conc_run_merged(struct conc *c);
/* The operations of an instance's backend: its trials go through the
 * barrier. */
extern const struct bm_backend_ops conc_be_ops;

/* concurrent_tcp.c: the operations of the TCP instance's engine: the
 * job's, its ports mapped. */
extern const struct bm_tcp_ops conc_tcp_ops;

/* concurrent_result.c: the run's result document, every instance's
 * result inside; NULL when out of memory. */
json_object *conc_document(const struct bm_procedure_info *pi,
			   const struct conc_params *p,
			   const struct conc *c, struct bm_backend *be);

#endif /* BM_CONCURRENT_INT_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * What every part of the module shares, defined once: the configuration
 * lock and its generation, the port list, the stream table and the one
 * trial, with the end of a trial that a kthread may call.  It calls
 * nothing else of the module, so each file that reads the shared state
 * depends on this one only, never on the file that changes it.
 */
#include <linux/workqueue.h>

#include "bmgen.h"

DEFINE_MUTEX(bm_cfg_lock);
unsigned int bm_cfg_gen = 1;
LIST_HEAD(bm_ports);
struct bm_stream __rcu *bm_streams[BMGEN_MAX_STREAMS];
struct bm_trial bm_trial;

static void (*bm_event_fn)(void);
static struct work_struct bm_event_work;

static void bm_event_workfn(struct work_struct *work)
{
	bm_event_fn();
}

void bm_trial_event(void)
{
	schedule_work(&bm_event_work);
}

/* The last kthread finished its streams (not stopped): the trial is done. */
void bm_trial_done(void)
{
	/* a kthread that could not go on (bm_trial_fail) ended it */
	if (READ_ONCE(bm_trial.error)) {
		WRITE_ONCE(bm_trial.state, BMGEN_TRIAL_FAILED);
		bm_trial_event();
	} else if (!READ_ONCE(bm_trial.stop)) {
		WRITE_ONCE(bm_trial.state, BMGEN_TRIAL_DONE);
		bm_trial_event();
	}
}

void bm_trial_fail(int error)
{
	cmpxchg(&bm_trial.error, 0, error);
	smp_wmb();	/* the error is there before anyone sees stop */
	WRITE_ONCE(bm_trial.stop, true);
}

void bm_state_init(void (*event)(void))
{
	bm_event_fn = event;
	INIT_WORK(&bm_event_work, bm_event_workfn);
}

void bm_state_exit(void)
{
	flush_work(&bm_event_work);
	bm_trial.net = NULL;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Waiting for the module's trial to end: on its events group (and
 * nlctrl's, for an unload) rather than by polling, with a status request
 * to bound a lost notification, and a caller's abort flag looked at
 * meanwhile.  Apart from the channel (genl.c) because it is the one part
 * that sleeps and owns a second socket.
 */
#include <errno.h>
#include <poll.h>
#include <time.h>
#include <unistd.h>

#include <linux/netlink.h>
#include <linux/bmgen.h>

#include "genl_int.h"

/*
 * A socket on the module's events group, on which the module announces
 * every end of a trial (done, stopped, failed), and on nlctrl's notify
 * group, which announces the family's removal (rmmod); NULL if the
 * module's group is unknown or cannot be joined (the caller then polls).
 */
static struct mnl_socket *bm_genl_events_open(const struct bm_genl *g)
{
	struct mnl_socket *ev;
	unsigned int grp = g->events_grp, ctrl = g->ctrl_grp;

	if (!grp)
		return NULL;
	ev = mnl_socket_open2(NETLINK_GENERIC, SOCK_CLOEXEC | SOCK_NONBLOCK);
	if (!ev)
		return NULL;
	if (mnl_socket_bind(ev, 0, MNL_SOCKET_AUTOPID) < 0 ||
	    mnl_socket_setsockopt(ev, NETLINK_ADD_MEMBERSHIP, &grp,
				  sizeof(grp)) < 0) {
		mnl_socket_close(ev);
		return NULL;
	}
	/* not fatal: without it an unload is seen at the next request */
	if (ctrl)
		mnl_socket_setsockopt(ev, NETLINK_ADD_MEMBERSHIP, &ctrl,
				      sizeof(ctrl));
	return ev;
}

/* Wait up to s seconds for an event on ev (or sleep, without one), in
 * slices of 0.1 s while g has an abort flag; true when the flag is set. */
static bool bm_genl_wait_event(struct bm_genl *g, struct mnl_socket *ev,
			       double s)
{
	struct pollfd pfd;
	double slice;

	for (;;) {
		if (g->abort && *g->abort)
			return true;
		if (s <= 0)
			return false;
		slice = g->abort && s > 0.1 ? 0.1 : s;
		s -= slice;
		if (!ev) {
			usleep(slice > 0.02 ? 20000 : (useconds_t)(slice * 1e6) + 1);
			return false;
		}
		pfd = (struct pollfd){ .fd = mnl_socket_get_fd(ev),
				       .events = POLLIN };
		if (poll(&pfd, 1, (int)(slice * 1000) + 1) > 0) {
			while (mnl_socket_recvfrom(ev, g->buf, BM_GENL_BUFSZ) > 0)
				;	/* any event: look at the state again */
			return g->abort && *g->abort;
		}
	}
}

/*
 * Sleeps until the trial ends rather than asking every few ms: on the
 * generator's own host each status request is a wake-up, two system calls
 * and a netlink round trip taken from the CPUs that send (800 of them
 * in a 16 s trial of the icount bench, and each one a gap of
 * about 1 ms in a paced stream there).  The events socket is joined
 * before the first look at the state, so no end is missed; a status
 * request every every_s still bounds a lost notification (the module
 * could not allocate it) and the timeout.  Another namespace's trial
 * ends on its own namespace's events group, so that wait asks often.
 */
int bm_genl_trial_wait_every(struct bm_genl *g, double timeout_s,
			     double every_s, int *trial_error,
			     struct bm_error *err)
{
	struct mnl_socket *ev = bm_genl_events_open(g);
	struct timespec t0, t;
	struct bm_module_status st;
	double left;
	int ret;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		ret = bm_genl_status_get(g, &st, err);
		if (ret)
			break;
		if (st.trial_state != BMGEN_TRIAL_ARMED &&
		    st.trial_state != BMGEN_TRIAL_RUNNING) {
			if (trial_error)
				*trial_error = st.trial_error;
			ret = (int)st.trial_state;
			break;
		}
		clock_gettime(CLOCK_MONOTONIC, &t);
		left = timeout_s - ((double)(t.tv_sec - t0.tv_sec) +
				    (t.tv_nsec - t0.tv_nsec) / 1e9);
		if (left < 0) {
			bm_errorf(err, "trial did not end within %.1f s",
				  timeout_s);
			ret = -ETIMEDOUT;
			break;
		}
		if (left > every_s)
			left = every_s;
		/* the status again at an event or after every_s; meanwhile
		 * a cancel is looked at every 0.1 s, with no request to the
		 * module (a guest's trial is not to pay for it) */
		if (bm_genl_wait_event(g, ev, left)) {
			bm_errorf(err, "cancelled");
			ret = -ECANCELED;
			break;
		}
	}
	if (ev)
		mnl_socket_close(ev);
	return ret;
}

void bm_genl_set_abort(struct bm_genl *g, const volatile int *abort)
{
	g->abort = abort;
}

int bm_genl_trial_wait(struct bm_genl *g, double timeout_s, int *trial_error,
		       struct bm_error *err)
{
	return bm_genl_trial_wait_every(g, timeout_s, 10.0, trial_error, err);
}

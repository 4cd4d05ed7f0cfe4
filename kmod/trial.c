// SPDX-License-Identifier: GPL-2.0
/*
 * The trial: armed by TRIAL_START with every configured stream, one epoch
 * for all of them (REQ-GEN-5), run by the tx kthreads, ended when the
 * last kthread finishes or by TRIAL_STOP; each change of state is one
 * event to netlink listeners.
 */
#include <linux/etherdevice.h>
#include <linux/if_vlan.h>
#include <linux/module.h>
#include <linux/timekeeping.h>
#include <net/net_namespace.h>

#include "bmgen.h"

static unsigned int start_delay_ns = 20000000;
module_param(start_delay_ns, uint, 0644);
MODULE_PARM_DESC(start_delay_ns, "default delay from TRIAL_START to the epoch (ns)");

/* Can every stream of net go out on its tx port?  0 or -errno with extack. */
static int bm_trial_check_streams(const struct net *net,
				  struct netlink_ext_ack *extack)
{
	struct bm_stream *s;
	unsigned int i;

	for (i = 1; i < BMGEN_MAX_STREAMS; i++) {
		s = rcu_dereference_protected(bm_streams[i],
					      lockdep_is_held(&bm_cfg_lock));
		if (!s || !net_eq(s->net, net))
			continue;
		if (s->rx_only) {
			if (!s->rx_port) {
				NL_SET_ERR_MSG(extack, "an rx-only stream's rx port is gone");
				return -ENODEV;
			}
			continue;
		}
		if (!s->tx_port) {
			NL_SET_ERR_MSG(extack, "a stream's tx port is gone");
			return -ENODEV;
		}
		if (!netif_running(s->tx_port->dev) ||
		    !netif_carrier_ok(s->tx_port->dev)) {
			NL_SET_ERR_MSG(extack, "a stream's tx port is down");
			return -ENETDOWN;
		}
		/* REQ-FRM-4: the port MTU must carry the largest frame */
		if (s->tx_port->dev->mtu + ETH_HLEN + ETH_FCS_LEN <
		    s->max_frame - (s->vlan ? VLAN_HLEN : 0)) {
			NL_SET_ERR_MSG(extack,
				       "a stream's frames exceed its tx port MTU");
			return -EMSGSIZE;
		}
	}
	return 0;
}

/*
 * CLOCK_TAI - CLOCK_MONOTONIC now: the realtime offset (a step of the
 * clock moves it) plus the TAI-UTC offset.
 */
static u64 bm_tai_offset_ns(void)
{
	return ktime_to_ns(ktime_mono_to_any(0, TK_OFFS_TAI));
}

/*
 * Arm a trial with every stream of net; the kthreads start them all at one
 * epoch (REQ-GEN-5): now + delay_ns, or at_tai_ns on CLOCK_TAI when not 0,
 * the instant every host of a trial across hosts starts at.  Streams of
 * other namespaces keep their statistics.  One trial at a time, of
 * whichever namespace.  Needs bm_cfg_lock.
 */
int bm_trial_start(struct net *net, u32 portid, u64 delay_ns, u64 at_tai_ns,
		   struct netlink_ext_ack *extack)
{
	unsigned int next_cpu = 0, users = 0, i;
	struct bm_stream *s;
	u64 epoch = 0;
	int ret;

	if (bm_trial_busy()) {
		NL_SET_ERR_MSG(extack, "a trial is already running");
		return -EBUSY;
	}
	if (!bm_stream_count(net)) {
		NL_SET_ERR_MSG(extack, "no streams configured in this network namespace");
		return -EINVAL;
	}
	ret = bm_trial_check_streams(net, extack);
	if (ret)
		return ret;
	/* refused before the last trial's counts are reset: a start that
	 * has passed would send the first frames late, all at once
	 */
	if (at_tai_ns) {
		u64 offs = bm_tai_offset_ns();

		if (at_tai_ns <= ktime_get_ns() + offs) {
			NL_SET_ERR_MSG(extack, "the start time has passed (are the hosts' clocks in sync?)");
			return -ERANGE;
		}
		epoch = at_tai_ns - offs;
	}
	bm_tx_prepare();
	for (i = 1; i < BMGEN_MAX_STREAMS; i++) {
		s = rcu_dereference_protected(bm_streams[i],
					      lockdep_is_held(&bm_cfg_lock));
		if (!s)
			continue;
		s->in_trial = net_eq(s->net, net);
		if (!s->in_trial)
			continue;
		bm_stream_rx_reset(s);
		/* sent by another host: nothing for a kthread */
		if (!s->rx_only && bm_tx_assign(s, &next_cpu))
			users++;
	}
	/* a delay counts from the last moment before the kthreads are told */
	if (!at_tai_ns)
		epoch = ktime_get_ns() + (delay_ns ?: start_delay_ns);
	bm_trial.id++;
	bm_trial.error = 0;
	bm_trial.link_downs = 0;
	bm_trial.link_down_ifindex = 0;
	bm_ports_link_at_start();
	bm_trial.stop = false;
	bm_trial.net = net;
	bm_trial.portid = portid;
	bm_trial.epoch_ns = epoch;
	/* the instant given exactly, not read back through the offset */
	bm_trial.epoch_tai_ns = at_tai_ns ?: epoch + bm_tai_offset_ns();
	atomic_set(&bm_trial.active, users);
	bm_trial.state = BMGEN_TRIAL_ARMED;
	bm_cfg_changed();
	bm_tx_go();
	return 0;
}

/*
 * Stop a running trial and wait until no kthread touches a stream or a
 * device any more; error 0 means stopped by request.  Needs bm_cfg_lock.
 */
void bm_trial_stop(int error)
{
	if (bm_trial.state != BMGEN_TRIAL_ARMED &&
	    bm_trial.state != BMGEN_TRIAL_RUNNING &&
	    bm_trial.state != BMGEN_TRIAL_DONE)
		return;
	WRITE_ONCE(bm_trial.stop, true);
	bm_tx_wait_idle();
	if (error) {
		bm_trial.error = error;
		bm_trial.state = BMGEN_TRIAL_FAILED;
	} else if (bm_trial.state != BMGEN_TRIAL_DONE &&
		   bm_trial.state != BMGEN_TRIAL_FAILED) {
		bm_trial.state = BMGEN_TRIAL_STOPPED;
	}
	bm_trial_event();
}

/*
 * The loss wait threshold of SPEC REQ-RX-3 is over: from now on a test
 * frame of the trial's streams counts only as late, so a frame a DUT held
 * past the threshold stays lost and says so, and the counts read after
 * this are those at the threshold however long the read takes.
 */
int bm_trial_rx_close(struct net *net, struct netlink_ext_ack *extack)
{
	struct bm_stream *s;
	unsigned int i;

	if (bm_trial_busy() && net_eq(bm_trial.net, net)) {
		NL_SET_ERR_MSG(extack, "the trial still sends: its loss wait has not begun");
		return -EBUSY;
	}
	for (i = 1; i < BMGEN_MAX_STREAMS; i++) {
		s = rcu_dereference_protected(bm_streams[i],
					      lockdep_is_held(&bm_cfg_lock));
		if (!s || !s->in_trial || !net_eq(s->net, net))
			continue;
		spin_lock_bh(&s->rx.lock);
		s->rx.closed = true;
		spin_unlock_bh(&s->rx.lock);
	}
	return 0;
}

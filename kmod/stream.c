// SPDX-License-Identifier: GPL-2.0
/*
 * Streams: the frame template of each stream (SPEC PLAT-FRAME) and the
 * stream table.  A stream is one tx port, one intended rx port, one 24-bit
 * id and one 48-bit sequence space.
 */
#include <linux/etherdevice.h>
#include <linux/if_vlan.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/slab.h>
#include <linux/udp.h>
#include <linux/vmalloc.h>
#include <net/ip.h>

#include "bmgen.h"

static unsigned int bm_nstreams;	/* of all namespaces */

/*
 * A stream holds its struct, the duplicate window, the latency histogram
 * and its frame template: about 38 KiB at 1518 B (Documentation/abi.md).
 * 8191 streams would be 310 MiB, so the sum over all streams is bounded.
 */
static unsigned int max_stream_mem_kb = 262144;
module_param(max_stream_mem_kb, uint, 0644);
MODULE_PARM_DESC(max_stream_mem_kb, "most memory all streams together may hold, KiB (default 256 MiB)");
static u64 bm_stream_mem;	/* bytes, under bm_cfg_lock */

/*
 * The ids and the memory are the host's: a container with CAP_NET_ADMIN
 * (its own network namespace) must not take them all.  The streams of
 * every namespace but the initial one together get at most
 * netns_max_streams ids and half of max_stream_mem_kb.
 */
static unsigned int netns_max_streams = BMGEN_MAX_STREAMS / 2;
module_param(netns_max_streams, uint, 0644);
MODULE_PARM_DESC(netns_max_streams, "most streams all network namespaces but the initial one may hold together (default 4096)");
static unsigned int bm_nstreams_ns;	/* of other namespaces */
static u64 bm_stream_mem_ns;

static bool bm_stream_foreign(const struct bm_stream *s)
{
	return !net_eq(s->net, &init_net);
}

static size_t bm_stream_mem_of(const struct bm_stream *s)
{
	return sizeof(*s) + BITS_TO_LONGS(BM_DUP_WINDOW) * sizeof(long) +
	       BMGEN_HIST_BUCKETS * sizeof(u64) + s->max_frame +
	       (size_t)s->log_frames * (sizeof(u64) + sizeof(struct bmgen_log_rx)) +
	       (size_t)s->hw_log_max * sizeof(struct bmgen_log_hw);
}

/* Zero the receive analysis of s for a new trial. */
void bm_stream_rx_reset(struct bm_stream *s)
{
	struct bm_rx_state *rx = &s->rx;
	unsigned long flags;

	spin_lock_irqsave(&rx->lock, flags);
	memset(&rx->stats, 0, sizeof(rx->stats));
	rx->cpu = -1;
	rx->lat_min = S64_MAX;
	rx->lat_max = S64_MIN;
	rx->ipdv_min = S64_MAX;
	rx->ipdv_max = S64_MIN;
	bitmap_zero(rx->seen, BM_DUP_WINDOW);
	memset(rx->hist, 0, BMGEN_HIST_BUCKETS * sizeof(*rx->hist));
	memset(rx->dscp, 0, sizeof(rx->dscp));
	memset(rx->pcp, 0, sizeof(rx->pcp));
	bm_hwts_stream_reset(s);
	spin_unlock_irqrestore(&rx->lock, flags);
	s->tx_frames = 0;
	s->tx_bytes = 0;
	s->tx_retries = 0;
	s->tx_errors = 0;
	s->tx_first_ns = 0;
	s->tx_last_ns = 0;
	s->tx_late_frames = 0;
	s->tx_late_max_ns = 0;
	s->tx_burst_late_max_ns = 0;
	memset(s->tx_stalls_ns, 0, sizeof(s->tx_stalls_ns));
	s->tx_max_batch = 0;
	s->tx_ring_misses = 0;
	s->tx_path = BMGEN_TXP_ALLOC;
	s->tx_done = false;
}

/* Free a stream that no reader can see any more. */
void bm_stream_free(struct bm_stream *s)
{
	if (!s)
		return;
	kvfree(s->tmpl);
	bitmap_free(s->rx.seen);
	kvfree(s->rx.hist);
	kvfree(s->tx_log);
	kvfree(s->rx_log);
	kvfree(s->hw_log);
	kfree(s);
}

static void bm_stream_free_rcu(struct rcu_head *head)
{
	bm_stream_free(container_of(head, struct bm_stream, rcu));
}

unsigned int bm_stream_count(const struct net *net)
{
	unsigned int i, n = 0;

	for (i = 1; i < BMGEN_MAX_STREAMS && n < bm_nstreams; i++) {
		struct bm_stream *s = rcu_dereference_protected(bm_streams[i],
					lockdep_is_held(&bm_cfg_lock));

		if (s && net_eq(s->net, net))
			n++;
	}
	return n;
}

/* A changed stream set invalidates the results of the last trial, if that
 * trial was of the stream's namespace.
 */
static void bm_stream_set_changed(const struct net *net)
{
	if (bm_trial.net && net_eq(bm_trial.net, net))
		bm_trial.state = BMGEN_TRIAL_IDLE;
	bm_cfg_changed();
}

/* Publish s (configured by netlink) in the table.  Needs bm_cfg_lock;
 * takes ownership of s on success.
 */
int bm_stream_add(struct bm_stream *s, struct netlink_ext_ack *extack)
{
	int ret;

	if (bm_trial_busy()) {
		NL_SET_ERR_MSG(extack, "streams cannot change while a trial runs");
		return -EBUSY;
	}
	/* one id space for all namespaces: the receiver finds a stream by
	 * the id in its frames alone
	 */
	if (rcu_access_pointer(bm_streams[s->id])) {
		NL_SET_ERR_MSG(extack, "stream id already exists (ids are shared by all network namespaces)");
		return -EEXIST;
	}
	ret = bm_stream_build_template(s, extack);
	if (ret)
		return ret;
	s->mem = bm_stream_mem_of(s);
	if (bm_stream_mem + s->mem > (u64)max_stream_mem_kb << 10) {
		NL_SET_ERR_MSG(extack, "streams would exceed the module's memory limit (parameter max_stream_mem_kb)");
		return -ENOMEM;	/* caller frees s */
	}
	if (bm_stream_foreign(s) &&
	    (bm_nstreams_ns >= READ_ONCE(netns_max_streams) ||
	     bm_stream_mem_ns + s->mem > (u64)max_stream_mem_kb << 9)) {
		NL_SET_ERR_MSG(extack, "the streams of network namespaces other than the host's are limited (parameters netns_max_streams and max_stream_mem_kb / 2)");
		return -ENOSPC;	/* caller frees s */
	}
	spin_lock_init(&s->rx.lock);
	/* not zeroed here: bm_stream_rx_reset() below does, and zeroing
	 * 38 KB twice was a third of a stream's set-up
	 */
	s->rx.seen = bitmap_alloc(BM_DUP_WINDOW, GFP_KERNEL);
	s->rx.hist = kvmalloc_array(BMGEN_HIST_BUCKETS, sizeof(u64), GFP_KERNEL);
	if (!s->rx.seen || !s->rx.hist)
		return -ENOMEM;	/* caller frees s */
	if (s->log_frames) {
		s->tx_log = kvcalloc(s->log_frames, sizeof(*s->tx_log),
				     GFP_KERNEL);
		s->rx_log = kvcalloc(s->log_frames, sizeof(*s->rx_log),
				     GFP_KERNEL);
		if (!s->tx_log || !s->rx_log)
			return -ENOMEM;	/* caller frees s */
	}
	if (s->hw_log_max) {
		s->hw_log = kvcalloc(s->hw_log_max, sizeof(*s->hw_log),
				     GFP_KERNEL);
		if (!s->hw_log)
			return -ENOMEM;	/* caller frees s */
	}
	bm_stream_rx_reset(s);
	rcu_assign_pointer(bm_streams[s->id], s);
	bm_nstreams++;
	bm_stream_mem += s->mem;
	if (bm_stream_foreign(s)) {
		bm_nstreams_ns++;
		bm_stream_mem_ns += s->mem;
	}
	bm_stream_set_changed(s->net);
	return 0;
}

static void bm_stream_unpublish(u32 id)
{
	struct bm_stream *s = rcu_dereference_protected(bm_streams[id],
					lockdep_is_held(&bm_cfg_lock));

	RCU_INIT_POINTER(bm_streams[id], NULL);
	bm_nstreams--;
	bm_stream_mem -= s->mem;
	if (bm_stream_foreign(s)) {
		bm_nstreams_ns--;
		bm_stream_mem_ns -= s->mem;
	}
	bm_stream_set_changed(s->net);
	call_rcu(&s->rcu, bm_stream_free_rcu);
}

/* Delete net's stream id, or all of net's streams for id 0.  Needs
 * bm_cfg_lock.  Another namespace's stream is "no such stream".
 */
int bm_stream_del(struct net *net, u32 id, struct netlink_ext_ack *extack)
{
	struct bm_stream *s;

	if (bm_trial_busy()) {
		NL_SET_ERR_MSG(extack, "streams cannot change while a trial runs");
		return -EBUSY;
	}
	if (!id) {
		bm_streams_del_net(net);
		return 0;
	}
	s = rcu_dereference_protected(bm_streams[id],
				      lockdep_is_held(&bm_cfg_lock));
	if (!s || !net_eq(s->net, net)) {
		NL_SET_ERR_MSG(extack, "no such stream in this network namespace");
		return -ENOENT;
	}
	bm_stream_unpublish(id);
	return 0;
}

/* Delete every stream of net, or of all namespaces for NULL.  Needs
 * bm_cfg_lock and no trial that sends them.
 */
void bm_streams_del_net(const struct net *net)
{
	u32 i;

	for (i = 1; i < BMGEN_MAX_STREAMS; i++) {
		struct bm_stream *s = rcu_dereference_protected(bm_streams[i],
					lockdep_is_held(&bm_cfg_lock));

		if (s && (!net || net_eq(s->net, net)))
			bm_stream_unpublish(i);
	}
}

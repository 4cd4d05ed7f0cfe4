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

struct bm_stream __rcu *bm_streams[BMGEN_MAX_STREAMS];
unsigned int bm_nstreams;

/*
 * A stream holds its struct, the duplicate window, the latency histogram
 * and its frame template: about 38 KiB at 1518 B (Documentation/abi.md).
 * 8191 streams would be 310 MiB, so the sum over all streams is bounded.
 */
static unsigned int max_stream_mem_kb = 262144;
module_param(max_stream_mem_kb, uint, 0644);
MODULE_PARM_DESC(max_stream_mem_kb, "most memory all streams together may hold, KiB (default 256 MiB)");
static u64 bm_stream_mem;	/* bytes, under bm_cfg_lock */

static size_t bm_stream_mem_of(const struct bm_stream *s)
{
	return sizeof(*s) + BITS_TO_LONGS(BM_DUP_WINDOW) * sizeof(long) +
	       BMGEN_HIST_BUCKETS * sizeof(u64) + s->max_frame;
}

/* Zero the receive analysis of s for a new trial. */
void bm_stream_rx_reset(struct bm_stream *s)
{
	struct bm_rx_state *rx = &s->rx;
	unsigned long flags;

	spin_lock_irqsave(&rx->lock, flags);
	memset(&rx->stats, 0, sizeof(rx->stats));
	rx->cpu = -1;
	rx->lat_min = U64_MAX;
	rx->ipdv_min = S64_MAX;
	rx->ipdv_max = S64_MIN;
	bitmap_zero(rx->seen, BM_DUP_WINDOW);
	memset(rx->hist, 0, BMGEN_HIST_BUCKETS * sizeof(*rx->hist));
	spin_unlock_irqrestore(&rx->lock, flags);
	s->tx_frames = 0;
	s->tx_bytes = 0;
	s->tx_retries = 0;
	s->tx_errors = 0;
	s->tx_first_ns = 0;
	s->tx_last_ns = 0;
	s->tx_late_frames = 0;
	s->tx_late_max_ns = 0;
	s->tx_max_batch = 0;
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
	kfree(s);
}

static void bm_stream_free_rcu(struct rcu_head *head)
{
	bm_stream_free(container_of(head, struct bm_stream, rcu));
}

static bool bm_trial_busy(void)
{
	return bm_trial.state == BMGEN_TRIAL_ARMED ||
	       bm_trial.state == BMGEN_TRIAL_RUNNING;
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
	if (rcu_access_pointer(bm_streams[s->id])) {
		NL_SET_ERR_MSG(extack, "stream id already exists");
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
	spin_lock_init(&s->rx.lock);
	s->rx.seen = bitmap_zalloc(BM_DUP_WINDOW, GFP_KERNEL);
	s->rx.hist = kvcalloc(BMGEN_HIST_BUCKETS, sizeof(u64), GFP_KERNEL);
	if (!s->rx.seen || !s->rx.hist)
		return -ENOMEM;	/* caller frees s */
	bm_stream_rx_reset(s);
	rcu_assign_pointer(bm_streams[s->id], s);
	bm_nstreams++;
	bm_stream_mem += s->mem;
	/* a changed stream set invalidates the last trial's results */
	bm_trial.state = BMGEN_TRIAL_IDLE;
	return 0;
}

static void bm_stream_unpublish(u32 id)
{
	struct bm_stream *s = rcu_dereference_protected(bm_streams[id],
					lockdep_is_held(&bm_cfg_lock));

	RCU_INIT_POINTER(bm_streams[id], NULL);
	bm_nstreams--;
	bm_stream_mem -= s->mem;
	call_rcu(&s->rcu, bm_stream_free_rcu);
}

/* Delete stream id, or all streams for id 0.  Needs bm_cfg_lock. */
int bm_stream_del(u32 id, struct netlink_ext_ack *extack)
{
	if (bm_trial_busy()) {
		NL_SET_ERR_MSG(extack, "streams cannot change while a trial runs");
		return -EBUSY;
	}
	if (!id) {
		bm_streams_del_all();
		return 0;
	}
	if (!rcu_access_pointer(bm_streams[id])) {
		NL_SET_ERR_MSG(extack, "no such stream");
		return -ENOENT;
	}
	bm_stream_unpublish(id);
	bm_trial.state = BMGEN_TRIAL_IDLE;
	return 0;
}

/* Delete every stream.  Needs bm_cfg_lock and no running trial. */
void bm_streams_del_all(void)
{
	u32 i;

	for (i = 1; i < BMGEN_MAX_STREAMS; i++)
		if (rcu_access_pointer(bm_streams[i]))
			bm_stream_unpublish(i);
	bm_trial.state = BMGEN_TRIAL_IDLE;
}

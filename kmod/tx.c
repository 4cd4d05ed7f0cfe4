// SPDX-License-Identifier: GPL-2.0
/*
 * Transmit: one kthread per online CPU (SPEC PLAT-GEN) paces and sends the
 * frames frame.c builds, for the trial that trial.c arms.  Every frame has
 * its own sequence number and timestamp (pktgen's clone_skb trick, one skb
 * sent again unchanged, would make loss and reordering unmeasurable).  Its
 * skb is new (BMGEN_TXP_ALLOC, any driver) or, where the driver allows
 * shared skbs, one of a ring that is refilled once the driver has released
 * it (BMGEN_TXP_RECYCLE): no allocation, no template copy, no free per
 * frame, only the fields that differ are written.  Where the driver takes
 * XDP frames, a page of a ring goes to its ndo_xdp_xmit (BMGEN_TXP_XDP,
 * tx_xdp.c): no skb at all.  Departure times are
 * computed from the frame index, start + k * 10^15 / rate_ufps, in 128-bit
 * arithmetic, so no rounding error accumulates over a trial (REQ-GEN-3).
 * Short waits busy-poll, long ones sleep on an hrtimer.
 */
#include <linux/cpu.h>
#include <linux/kthread.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <net/xdp.h>

#include "bmgen.h"

static unsigned int busywait_ns = 50000;
module_param(busywait_ns, uint, 0644);
MODULE_PARM_DESC(busywait_ns, "gaps shorter than this are busy-waited (ns)");

/*
 * REQ-GEN-3: the pacing granularity cap; frames that are due together go
 * to the driver as one xmit_more batch of at most this many.
 */
static unsigned int tx_batch = 32;
module_param(tx_batch, uint, 0444);
MODULE_PARM_DESC(tx_batch, "most due frames handed to the driver in one batch (1-256)");

/*
 * The recycling path's ring: deep enough that a driver's completions
 * (a NIC's tx ring, 256 to 4096 descriptors) free the skbs before the
 * kthread comes round to them again; a stream uses at most what it sends.
 */
static unsigned int tx_ring = 1024;
module_param(tx_ring, uint, 0444);
MODULE_PARM_DESC(tx_ring, "skbs a recycling stream keeps (1-65536)");

struct bm_kthread {
	struct task_struct *task;
	int cpu;
	struct list_head streams;
	u32 gen;		/* the trial its streams are for */
	u32 seen_gen;
	s64 overshoot_ns;	/* how late its hrtimer wakeups come */
};

static struct bm_kthread *bm_kthreads;	/* indexed by CPU */
static unsigned int bm_nkthreads;
static u32 bm_trial_gen;
static DECLARE_WAIT_QUEUE_HEAD(bm_tx_wq);	/* kthreads wait here */
static DECLARE_WAIT_QUEUE_HEAD(bm_done_wq);	/* trial_stop waits here */

/*
 * A recycling stream's skbs.  The ring holds one reference to each; a
 * frame in a batch or with the driver holds a second, so an skb whose
 * count is back at one is free to be filled again.
 */
struct bm_tx_ring {
	struct sk_buff **skb;
	unsigned int size;	/* 0: the allocating path */
	unsigned int pos;	/* the next slot to try */
	unsigned int first;	/* the current batch's first slot */
};

/* Per-stream transmit progress, private to the kthread. */
struct bm_tx_cursor {
	struct bm_stream *s;
	struct bm_tx_ring ring;
	struct bm_xdp_ring xring;
	u64 k;			/* frames sent = next sequence number */
	u64 next_ns;		/* next departure, rel. to epoch */
	u64 prev_ns;		/* the departure before it */
	u64 burst_start_ns;	/* the current burst's first departure */
	u64 late_ns;		/* how late the last paced frame left */
};

unsigned int bm_tx_kthreads(void)
{
	return bm_nkthreads;
}

/*
 * The paths p allows now.  Recycling needs a driver that takes shared
 * skbs (pktgen's condition for clone_skb) and no hardware tx stamps: a
 * stamped skb carries the stamp request and its socket back to the ring.
 */
u32 bm_tx_paths_dev(struct net_device *dev)
{
	u32 m = BIT(BMGEN_TXP_ALLOC);

	if (dev->priv_flags & IFF_TX_SKB_SHARING)
		m |= BIT(BMGEN_TXP_RECYCLE);
	if (bm_xdp_ready(dev))
		m |= BIT(BMGEN_TXP_XDP);
	return m;
}

u32 bm_tx_paths(const struct bm_port *p)
{
	u32 m = bm_tx_paths_dev(p->dev);

	if (READ_ONCE(p->ts_sock))
		m &= ~(BIT(BMGEN_TXP_RECYCLE) | BIT(BMGEN_TXP_XDP));
	return m;
}

/*
 * The path s's trial uses: what it asked for, if its port allows it, else
 * the next cheaper one that it does.  AUTO never takes XDP: where the
 * receiver is in this kernel (veth), XDP frames are received in its NAPI,
 * which a busy sender leaves to ksoftirqd: 13 ms of mean latency at
 * 20 kfps in the lab guest against 2 us for the same frames as skbs.
 */
static u32 bm_tx_path_of(const struct bm_stream *s)
{
	u32 m;

	if (s->tx_path_req == BMGEN_TXP_ALLOC ||
	    s->tx_mode != BMGEN_TX_DIRECT)
		return BMGEN_TXP_ALLOC;
	m = bm_tx_paths(s->tx_port);
	if (s->tx_path_req == BMGEN_TXP_XDP &&
	    (m & BIT(BMGEN_TXP_XDP)) && bm_xdp_fits(s))
		return BMGEN_TXP_XDP;
	if (m & BIT(BMGEN_TXP_RECYCLE))
		return BMGEN_TXP_RECYCLE;
	return BMGEN_TXP_ALLOC;
}

/* Now relative to the epoch: negative before the trial starts. */
static s64 bm_now_rel(void)
{
	return (s64)(ktime_get_ns() - bm_trial.epoch_ns);
}

/* Departure time of frame k of a paced stream, rel. to the epoch. */
static u64 bm_departure(const struct bm_stream *s, u64 k)
{
	if (!s->rate_ufps)
		return 0;
	return s->start_ns + mul_u64_u64_div_u64(k, 1000000000000000ULL,
						 s->rate_ufps);
}

/*
 * Keep a stall among the stream's largest, in order: at most one stall a
 * frame, and only for a frame already behind, so moving eight words now
 * and then costs the pacer nothing it has.
 */
static void bm_note_stall(struct bm_stream *s, u64 rise)
{
	u64 *top = s->tx_stalls_ns;
	int i = BMGEN_TX_STALLS - 1;

	if (rise <= top[i])
		return;
	for (; i > 0 && top[i - 1] < rise; i--)
		top[i] = top[i - 1];
	top[i] = rise;
}

/*
 * How far behind back to back at the line a burst's frame left (RFC 2544
 * §26.4 "minimum inter-frame gap").  The stamp is the hand-over to the
 * driver: a NIC idle at the burst's start puts a wider gap on the wire
 * exactly when a frame is handed over later than its due time, whatever
 * the frames after it catch up in its queue.
 */
static void bm_note_burst_gap(struct bm_stream *s, struct bm_tx_cursor *c,
			      u64 ts)
{
	u64 j = c->k % s->burst_len, due;

	if (!j) {
		c->burst_start_ns = ts;
		return;
	}
	due = c->burst_start_ns +
	      mul_u64_u64_div_u64(j, 1000000000000000ULL, s->burst_due_ufps);
	if (ts > due && ts - due > s->tx_burst_late_max_ns)
		s->tx_burst_late_max_ns = ts - due;
}

/*
 * How far behind its schedule a paced frame left.  A frame later than one
 * inter-frame interval went out back to back with its predecessor: the
 * generator fell behind, and rates and gaps measured over such a trial
 * are the machine's, not the configured ones (REQ-GEN-3).  Bursts have no
 * per-frame schedule.
 */
static void bm_note_lateness(struct bm_stream *s,
			     struct bm_tx_cursor *c, u64 ts)
{
	u64 late;

	if (s->pattern == BMGEN_PAT_BURST) {
		if (s->burst_due_ufps)
			bm_note_burst_gap(s, c, ts);
		/* a burst has a schedule only for its start, and only when
		 * bursts are spaced start to start (RFC 7640 Ti)
		 */
		if (!s->burst_period_ns || c->k % s->burst_len ||
		    ts <= c->next_ns)
			return;
		late = ts - c->next_ns;
		if (late > s->tx_late_max_ns)
			s->tx_late_max_ns = late;
		if (late > s->burst_period_ns)
			s->tx_late_frames++;
		return;
	}
	if (!s->rate_ufps)
		return;
	late = ts > c->next_ns ? ts - c->next_ns : 0;
	/*
	 * A stall: the lateness a frame gained over its predecessor, where
	 * it left more than an interval late (jitter below an interval is
	 * none).  The largest lateness bounds one catch-up burst; a DUT held
	 * up with the generator (one guest) loses the service of each stall
	 * beyond what its bucket keeps, and a queue that drains only at
	 * C - r adds those losses up, so a remeasure trigger needs the
	 * stalls one by one (lab rfc2544/traffic).
	 */
	if (late > c->late_ns && (!c->k || late > c->next_ns - c->prev_ns))
		bm_note_stall(s, late - c->late_ns);
	c->late_ns = late;
	if (!late)
		return;
	if (late > s->tx_late_max_ns)
		s->tx_late_max_ns = late;
	if (c->k && late > c->next_ns - c->prev_ns)
		s->tx_late_frames++;
}

/*
 * The kthread's streams in a binary min-heap on (next departure, stream
 * order), so picking the next frame costs O(log n), not a scan of every
 * stream: a 64-port mesh puts 4032 streams on the CPUs (cost per frame
 * at 4032 streams against one).  Ties keep stream order, as the scan
 * did: the cursors sit in one array in the kthread's list order, so
 * their addresses are that order.
 */
struct bm_tx_heap {
	struct bm_tx_cursor **h;
	unsigned int n;
};

static bool bm_cursor_before(const struct bm_tx_cursor *a,
			     const struct bm_tx_cursor *b)
{
	return a->next_ns < b->next_ns ||
	       (a->next_ns == b->next_ns && a < b);
}

/*
 * Move the cursor at i down to where its departure belongs: first the
 * hole down to a leaf along the earlier children (one comparison a
 * level), then the cursor up from there.  The cursor just sent is
 * usually the latest of all (streams taking turns), so it stays near
 * the leaves: about half the comparisons of the textbook sift-down.
 */
static void bm_heap_down(struct bm_tx_heap *hp, unsigned int i)
{
	struct bm_tx_cursor *c = hp->h[i];
	unsigned int j = i, l;

	while ((l = 2 * j + 1) < hp->n) {
		if (l + 1 < hp->n && bm_cursor_before(hp->h[l + 1], hp->h[l]))
			l++;
		hp->h[j] = hp->h[l];
		j = l;
	}
	while (j > i) {
		unsigned int p = (j - 1) / 2;

		if (!bm_cursor_before(c, hp->h[p]))
			break;
		hp->h[j] = hp->h[p];
		j = p;
	}
	hp->h[j] = c;
}

/* How many frames s's pattern sends in all; U64_MAX for no end. */
static u64 bm_stream_frames(const struct bm_stream *s)
{
	switch (s->pattern) {
	case BMGEN_PAT_COUNT:
		return s->count;
	case BMGEN_PAT_BURST:
		return s->burst_count ?
		       (u64)s->burst_len * s->burst_count : U64_MAX;
	default:
		return U64_MAX;
	}
}

/* Has cursor c sent everything its pattern asks for? */
static bool bm_cursor_finished(const struct bm_tx_cursor *c)
{
	return c->k >= bm_stream_frames(c->s);
}

/* Departure of the frame after the one just sent at now (rel. ns). */
static void bm_cursor_advance(struct bm_tx_cursor *c, u64 now)
{
	const struct bm_stream *s = c->s;

	c->k++;
	if (s->pattern == BMGEN_PAT_BURST) {
		/* back to back inside a burst; the next burst starts a
		 * period after this one's start, or a gap after its end
		 */
		if (c->k % s->burst_len)
			c->next_ns = 0;
		else if (s->burst_period_ns)
			c->next_ns = s->start_ns + div64_u64(c->k, s->burst_len) *
				     s->burst_period_ns;
		else
			c->next_ns = now + s->burst_gap_ns;
		return;
	}
	c->prev_ns = c->next_ns;
	c->next_ns = bm_departure(s, c->k);
}

/*
 * Wait until rel. time t; false if the trial was stopped meanwhile.  Gaps
 * longer than busywait_ns sleep on an hrtimer and busy-wait the rest.  A
 * timer fires late by the platform's slack (microseconds on bare metal,
 * milliseconds on an emulated CPU), so the kthread learns its own
 * overshoot (a moving average) and wakes up to BM_MAX_EARLY_NS earlier.
 * No more: a kthread that spins through whole gaps is a CPU hog, which the
 * scheduler then preempts for a full time slice (tens of ms late).
 */
#define BM_MAX_EARLY_NS (100 * NSEC_PER_USEC)

static bool bm_wait_until(struct bm_kthread *kt, u64 t)
{
	for (;;) {
		s64 now = bm_now_rel(), early;

		if (READ_ONCE(bm_trial.stop) || kthread_should_stop())
			return false;
		if (now >= (s64)t)
			return true;
		early = min_t(s64, 2 * kt->overshoot_ns, BM_MAX_EARLY_NS);
		if ((s64)t - now > busywait_ns + early) {
			s64 wake = (s64)t - early - busywait_ns / 2, ov;

			wait_event_interruptible_hrtimeout(bm_tx_wq,
				READ_ONCE(bm_trial.stop) || kthread_should_stop(),
				ns_to_ktime(wake - now));
			ov = bm_now_rel() - wake;
			ov = clamp_t(s64, ov, 0, 2 * NSEC_PER_MSEC);
			kt->overshoot_ns += (ov - kt->overshoot_ns) / 8;
		} else if (need_resched()) {
			cond_resched();
		} else {
			cpu_relax();
		}
	}
}

/*
 * How many of c's next frames may leave now, back to back: the next one,
 * and after it those already due (a paced stream behind its schedule, an
 * unpaced one, or the rest of a burst), at most max.  Frames not yet due
 * are never pulled forward, so batching never changes a paced schedule.
 */
static unsigned int bm_cursor_due(const struct bm_tx_cursor *c, s64 now,
				  unsigned int max)
{
	const struct bm_stream *s = c->s;
	u64 k = c->k + 1, end = bm_stream_frames(s);
	unsigned int n = 1;

	/* unpaced: everything left is due, no schedule to look up */
	if (s->pattern != BMGEN_PAT_BURST && !s->rate_ufps)
		return min_t(u64, max, end - c->k);
	for (; n < max && k < end; n++, k++) {
		if (s->pattern == BMGEN_PAT_BURST) {
			if (!(k % s->burst_len))
				break;	/* the next burst waits for its gap */
		} else if (s->rate_ufps && (s64)bm_departure(s, k) > now) {
			break;
		}
	}
	return n;
}

/* The buffers a ring of s keeps: at most what s sends. */
static unsigned int bm_ring_size(const struct bm_stream *s)
{
	return min_t(u64, tx_ring, max_t(u64, bm_stream_frames(s), 1));
}

/* Set up c's ring for a recycling stream s; false if out of memory. */
static bool bm_ring_init(struct bm_tx_cursor *c, const struct bm_stream *s)
{
	struct bm_tx_ring *r = &c->ring;

	r->size = bm_ring_size(s);
	r->skb = kvcalloc(r->size, sizeof(*r->skb), GFP_KERNEL);
	if (!r->skb)
		r->size = 0;
	return r->skb;
}

static void bm_ring_free(struct bm_tx_ring *r)
{
	unsigned int i;

	for (i = 0; i < r->size; i++)
		consume_skb(r->skb[i]);	/* the driver may still hold it */
	kvfree(r->skb);
	r->skb = NULL;
	r->size = 0;
}

/* Is the ring's skb released by the driver and in no batch? */
static bool bm_ring_idle(const struct sk_buff *skb)
{
	if (refcount_read(&skb->users) != 1)
		return false;
	smp_rmb();	/* the driver was done with it before it let go */
	return true;
}

/*
 * The next free skb of c's ring as frame seq (all but seq and tx_ts), with
 * a reference for the frame.  Slots are tried in order; when the driver
 * still holds every one tried, a new skb takes the last one's slot (the
 * old one goes when the driver lets go) and the stream counts a miss.
 */
static struct sk_buff *bm_ring_get(struct bm_tx_cursor *c, u64 seq, u32 *size)
{
	struct bm_tx_ring *r = &c->ring;
	struct bm_stream *s = c->s;
	struct sk_buff *skb = NULL;
	unsigned int i, slot = 0;

	for (i = 0; i < BM_RING_PROBE; i++) {
		slot = r->pos;
		if (++r->pos == r->size)
			r->pos = 0;
		skb = r->skb[slot];
		if (!skb || bm_ring_idle(skb))
			break;
	}
	if (!skb || i == BM_RING_PROBE) {
		struct sk_buff *nskb = bm_frame_new(s, s->tx_port->dev,
						    GFP_KERNEL);

		if (!nskb)
			return NULL;
		if (skb)
			s->tx_ring_misses++;
		consume_skb(skb);
		r->skb[slot] = nskb;
		skb = nskb;
	} else if (s->fill_once) {
		/* as it was: only the stamp changes (bm_frame_stamp) */
		*size = s->frame_size;
		return skb_get(skb);
	}
	bm_frame_fill(s, skb, seq, size);
	return skb_get(skb);
}

/*
 * A driver that released the batch as it sent it (a dummy sink, a virtual
 * device) gets the same skbs again: the ring's working set stays one batch
 * and in the cache.
 */
static void bm_ring_rewind(struct bm_tx_ring *r)
{
	if (r->size && r->skb[r->first] && bm_ring_idle(r->skb[r->first]))
		r->pos = r->first;
	r->first = r->pos;
}

/* Frame seq of c, headers and TPLD filled in but seq and tx_ts. */
static struct sk_buff *bm_frame_get(struct bm_tx_cursor *c, u64 seq, u32 *size)
{
	if (c->ring.size)
		return bm_ring_get(c, seq, size);
	return bm_frame_build(c->s, c->s->tx_port->dev, seq, size);
}

/* Account one frame of c that left at ts and move c to the next. */
static void bm_sent(struct bm_tx_cursor *c, u32 size, u64 ts)
{
	struct bm_stream *s = c->s;

	if (c->k < s->log_frames)
		s->tx_log[c->k] = ts;
	if (!s->tx_frames)
		s->tx_first_ns = ts;
	s->tx_last_ns = ts;
	s->tx_frames++;
	s->tx_bytes += size;
	bm_cursor_advance(c, ts);
}

/*
 * Account n frames of an unpaced stream c that went in one batch, the
 * first at first, the last at ts, their sizes added up in *bytes (zeroed).
 */
static void bm_sent_n(struct bm_tx_cursor *c, unsigned int n, u64 *bytes,
		      u64 first, u64 ts)
{
	struct bm_stream *s = c->s;

	if (!s->tx_frames)
		s->tx_first_ns = first;
	s->tx_last_ns = ts;
	s->tx_frames += n;
	s->tx_bytes += *bytes;
	*bytes = 0;
	c->k += n;
}

/*
 * Hand c's n built frames to the driver under one tx lock, with xmit_more
 * on all but the last (one doorbell per batch), or one by one to the
 * qdisc.  Each frame is stamped just before it goes, so batching does not
 * age the timestamps.  Busy returns are retried and counted (DESIGN.md:
 * never silently dropped).  Returns false if the trial was stopped while
 * retrying; the unsent frames are then freed.
 */
static bool bm_xmit_batch(struct bm_tx_cursor *c, struct sk_buff **skbs,
			  const u32 *sizes, unsigned int n)
{
	struct bm_stream *s = c->s;
	struct net_device *dev = skbs[0]->dev;
	struct netdev_queue *txq;
	unsigned int i = 0;
	unsigned int done = 0;
	struct socket *hw;
	u64 seq, ts, ts0 = 0, ts1 = 0, bytes = 0;
	netdev_tx_t ret;
	bool quick;
	u16 q;

	if (s->tx_mode == BMGEN_TX_QDISC) {
		for (; i < n; i++) {
			ts = bm_now_rel();
			bm_note_lateness(s, c, ts);
			bm_frame_stamp(s, skbs[i], c->k, ts);
			bm_hwts_mark(s->tx_port, s, skbs[i], c->k);
			if (dev_queue_xmit(skbs[i]) != NET_XMIT_SUCCESS)
				s->tx_errors++;
			bm_sent(c, sizes[i], ts);
		}
		return true;
	}
	/* no hardware stamps: no call per frame to find that out */
	hw = READ_ONCE(s->tx_port->ts_sock);
	/*
	 * An unpaced stream has no schedule to be late for and, without a
	 * frame log, no per-frame record: its frames are counted once a
	 * batch (the sequence number still advances frame by frame).
	 */
	quick = !s->rate_ufps && s->pattern != BMGEN_PAT_BURST &&
		c->k >= s->log_frames;
	q = smp_processor_id() % dev->real_num_tx_queues;
	txq = netdev_get_tx_queue(dev, q);
	while (i < n) {
		ret = NETDEV_TX_OK;
		local_bh_disable();
		HARD_TX_LOCK(dev, txq, smp_processor_id());
		for (; i < n; i++) {
			if (netif_xmit_frozen_or_drv_stopped(txq)) {
				ret = NETDEV_TX_BUSY;
				break;
			}
			skb_set_queue_mapping(skbs[i], q);
			/* quick: c->k moves once the batch is counted */
			seq = c->k + (quick ? i - done : 0);
			ts = bm_now_rel();
			bm_frame_stamp(s, skbs[i], seq, ts);
			if (hw)
				bm_hwts_mark(s->tx_port, s, skbs[i], seq);
			ret = netdev_start_xmit(skbs[i], dev, txq, i + 1 < n);
			if (ret == NETDEV_TX_BUSY)
				break;
			if (!dev_xmit_complete(ret))
				s->tx_errors++;
			if (quick) {
				if (i == done)
					ts0 = ts;
				ts1 = ts;
				bytes += sizes[i];
				continue;
			}
			bm_note_lateness(s, c, ts);
			bm_sent(c, sizes[i], ts);
		}
		HARD_TX_UNLOCK(dev, txq);
		local_bh_enable();
		if (quick && i > done)
			bm_sent_n(c, i - done, &bytes, ts0, ts1);
		done = i;
		if (i == n)
			break;
		s->tx_retries++;
		if (READ_ONCE(bm_trial.stop)) {
			for (; i < n; i++)
				kfree_skb(skbs[i]);
			return false;
		}
		cond_resched();
	}
	if (n > s->tx_max_batch)
		s->tx_max_batch = n;
	return true;
}

/*
 * Hand c's n built XDP frames to the driver in one call, each stamped just
 * before it.  A frame counts as sent once the driver took it; those it did
 * not take (its ring full) are stamped again and retried, counted as
 * busy returns are.  A driver that refuses XDP frames outright while the
 * port has its link (its XDP program detached mid-trial) ends the trial
 * with its error: the frames cannot go another way without a gap in the
 * sequence.  Without a link (veth whose peer went down refuses with
 * -ENXIO) the frames are dropped at the port, as the skb paths' are: sent,
 * counted as errors, lost on the way, and the trial's link loss says why.
 * Returns false if the trial ends.
 */
static bool bm_xmit_xdp(struct bm_tx_cursor *c, struct xdp_frame **xf,
			const u32 *sizes, u64 *stamps, unsigned int n)
{
	struct bm_stream *s = c->s;
	struct net_device *dev = s->tx_port->dev;
	unsigned int done = 0, i;
	u64 bytes = 0;
	bool quick;
	int ret;

	quick = !s->rate_ufps && s->pattern != BMGEN_PAT_BURST &&
		c->k >= s->log_frames;
	for (;;) {
		/* c->k is frame done's seq until the driver took it */
		for (i = done; i < n; i++) {
			stamps[i] = bm_now_rel();
			bm_frame_stamp_buf(s, xf[i]->data, c->k + i - done,
					   stamps[i]);
		}
		ret = bm_xdp_xmit(dev, xf + done, n - done);
		if (ret < 0) {
			for (i = done; i < n; i++)
				bm_xdp_put(xf[i]);
			s->tx_errors += n - done;
			if (netif_carrier_ok(dev)) {
				bm_trial_fail(ret);
				return false;
			}
			ret = n - done;	/* dropped at a port without link */
		}
		for (i = done; i < done + ret; i++) {
			if (quick) {
				bytes += sizes[i];
				continue;
			}
			bm_note_lateness(s, c, stamps[i]);
			bm_sent(c, sizes[i], stamps[i]);
		}
		if (quick && ret)
			bm_sent_n(c, ret, &bytes, stamps[done],
				  stamps[done + ret - 1]);
		done += ret;
		if (done == n)
			break;
		s->tx_retries++;
		if (READ_ONCE(bm_trial.stop)) {
			for (i = done; i < n; i++)
				bm_xdp_put(xf[i]);
			return false;
		}
		cond_resched();
	}
	if (n > s->tx_max_batch)
		s->tx_max_batch = n;
	return true;
}

/*
 * Send c's next frames: the first built before its departure, then as
 * many as are due with it, as one batch.  False if the trial ends.
 */
static bool bm_cursor_send_skb(struct bm_kthread *kt, struct bm_tx_cursor *c,
			       struct sk_buff **skbs, u32 *sizes)
{
	struct bm_stream *s = c->s;
	unsigned int nb, i;

	/* free the port for the next hardware-stamped frame */
	if (s->tx_port->ts_sock)
		bm_hwts_drain(s->tx_port);
	skbs[0] = bm_frame_get(c, c->k, &sizes[0]);
	if (!skbs[0]) {
		/* no memory: try again, unless the trial was stopped */
		s->tx_errors++;
		cond_resched();
		return !READ_ONCE(bm_trial.stop);
	}
	if (!bm_wait_until(kt, c->next_ns)) {
		kfree_skb(skbs[0]);
		return false;
	}
	nb = bm_cursor_due(c, bm_now_rel(), tx_batch);
	for (i = 1; i < nb; i++) {
		skbs[i] = bm_frame_get(c, c->k + i, &sizes[i]);
		if (!skbs[i])
			break;
	}
	if (!bm_xmit_batch(c, skbs, sizes, i))
		return false;
	bm_ring_rewind(&c->ring);
	return true;
}

/* bm_cursor_send_skb() for a stream on the XDP path. */
static bool bm_cursor_send_xdp(struct bm_kthread *kt, struct bm_tx_cursor *c,
			       struct xdp_frame **xf, u32 *sizes, u64 *stamps)
{
	struct bm_stream *s = c->s;
	unsigned int nb, i;

	xf[0] = bm_xdp_get(&c->xring, s, c->k, &sizes[0], &s->tx_ring_misses);
	if (!xf[0]) {
		s->tx_errors++;
		cond_resched();
		return !READ_ONCE(bm_trial.stop);
	}
	if (!bm_wait_until(kt, c->next_ns)) {
		bm_xdp_put(xf[0]);
		return false;
	}
	nb = bm_cursor_due(c, bm_now_rel(), tx_batch);
	for (i = 1; i < nb; i++) {
		xf[i] = bm_xdp_get(&c->xring, s, c->k + i, &sizes[i],
				   &s->tx_ring_misses);
		if (!xf[i])
			break;
	}
	if (!bm_xmit_xdp(c, xf, sizes, stamps, i))
		return false;
	bm_xdp_rewind(&c->xring);
	return true;
}

static void bm_kthread_run_trial(struct bm_kthread *kt)
{
	struct bm_tx_heap hp = { 0 };
	struct bm_tx_cursor *cur;
	struct sk_buff **skbs;
	struct xdp_frame **xf;
	struct bm_stream *s;
	unsigned int n = 0, i;
	u32 *sizes, path;
	u64 *stamps;

	list_for_each_entry(s, &kt->streams, tx_node)
		n++;
	cur = kcalloc(n, sizeof(*cur), GFP_KERNEL);
	hp.h = kcalloc(n, sizeof(*hp.h), GFP_KERNEL);
	skbs = kcalloc(tx_batch, sizeof(*skbs), GFP_KERNEL);
	sizes = kcalloc(tx_batch, sizeof(*sizes), GFP_KERNEL);
	xf = kcalloc(tx_batch, sizeof(*xf), GFP_KERNEL);
	stamps = kcalloc(tx_batch, sizeof(*stamps), GFP_KERNEL);
	if (!cur || !hp.h || !skbs || !sizes || !xf || !stamps) {
		kfree(cur);
		kfree(hp.h);
		kfree(skbs);
		kfree(sizes);
		kfree(xf);
		kfree(stamps);
		bm_trial_fail(-ENOMEM);
		return;
	}
	i = 0;
	list_for_each_entry(s, &kt->streams, tx_node) {
		cur[i].s = s;
		cur[i].next_ns = s->start_ns;
		/* no ring, no recycling: the allocating path still works */
		path = bm_tx_path_of(s);
		if (path == BMGEN_TXP_XDP &&
		    !bm_xdp_ring_init(&cur[i].xring, bm_ring_size(s)))
			path = BMGEN_TXP_ALLOC;
		if (path == BMGEN_TXP_RECYCLE && !bm_ring_init(&cur[i], s))
			path = BMGEN_TXP_ALLOC;
		WRITE_ONCE(s->tx_path, path);
		if (bm_cursor_finished(&cur[i]))
			s->tx_done = true;
		else
			hp.h[hp.n++] = &cur[i];
		i++;
	}
	for (i = hp.n / 2; i-- > 0;)
		bm_heap_down(&hp, i);
	while (hp.n) {
		/* earliest departure first (ties: stream order) */
		struct bm_tx_cursor *c = hp.h[0];
		u64 k = c->k;

		s = c->s;
		if (c->xring.size ?
		    !bm_cursor_send_xdp(kt, c, xf, sizes, stamps) :
		    !bm_cursor_send_skb(kt, c, skbs, sizes))
			break;
		if (c->k == k)
			continue;	/* no frame built: try again */
		if (bm_cursor_finished(c)) {
			s->tx_done = true;
			hp.h[0] = hp.h[--hp.n];
		}
		if (hp.n)
			bm_heap_down(&hp, 0);
		/* unpaced streams must still let others run */
		if (!s->rate_ufps && need_resched())
			cond_resched();
	}
	i = 0;
	list_for_each_entry(s, &kt->streams, tx_node) {
		bm_ring_free(&cur[i].ring);
		bm_xdp_ring_free(&cur[i++].xring);
	}
	kfree(stamps);
	kfree(xf);
	kfree(sizes);
	kfree(skbs);
	kfree(hp.h);
	kfree(cur);
}

static int bm_kthread_fn(void *data)
{
	struct bm_kthread *kt = data;
	u32 gen;

	while (!kthread_should_stop()) {
		wait_event_interruptible(bm_tx_wq,
					 READ_ONCE(bm_trial_gen) != kt->seen_gen ||
					 kthread_should_stop());
		if (kthread_should_stop())
			break;
		gen = READ_ONCE(bm_trial_gen);
		kt->seen_gen = gen;
		/* departures are exact: no hrtimer slack (default 50 us) */
		current->timer_slack_ns = 1;
		smp_rmb();	/* the trial set-up is visible after gen */
		/*
		 * Only streams given for this very trial: a kthread woken
		 * late for the last one, while the next is being set up,
		 * must neither send the next one early (and then again) nor
		 * count itself done for it.
		 */
		if (READ_ONCE(kt->gen) != gen || list_empty(&kt->streams))
			continue;
		/* set up now; the first departure waits for the epoch */
		bm_kthread_run_trial(kt);
		if (atomic_dec_and_test(&bm_trial.active)) {
			bm_trial_done();
			wake_up_all(&bm_done_wq);
		}
	}
	return 0;
}

/* Empty every kthread's stream list, for a new trial.  Needs bm_cfg_lock. */
void bm_tx_prepare(void)
{
	unsigned int cpu;

	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		INIT_LIST_HEAD(&bm_kthreads[cpu].streams);
}

/*
 * Give s to its kthread: the CPU it asks for, else round robin (from
 * *next_cpu) over CPUs that have one.  True when s is that kthread's
 * first stream of the trial.  Needs bm_cfg_lock.
 */
bool bm_tx_assign(struct bm_stream *s, unsigned int *next_cpu)
{
	unsigned int cpu = s->cpu;
	bool first;

	if (s->cpu < 0 || !bm_kthreads[cpu].task) {
		do {
			cpu = (*next_cpu)++ % nr_cpu_ids;
		} while (!bm_kthreads[cpu].task);
	}
	first = list_empty(&bm_kthreads[cpu].streams);
	list_add_tail(&s->tx_node, &bm_kthreads[cpu].streams);
	/* the generation bm_tx_go() publishes next */
	WRITE_ONCE(bm_kthreads[cpu].gen, bm_trial_gen + 1);
	return first;
}

/* Start the kthreads on the trial set up in bm_trial. */
void bm_tx_go(void)
{
	smp_wmb();	/* pairs with the kthreads' smp_rmb() after gen */
	WRITE_ONCE(bm_trial_gen, bm_trial_gen + 1);
	wake_up_all(&bm_tx_wq);
}

/* Wake the kthreads (bm_trial.stop set) and wait until none runs. */
void bm_tx_wait_idle(void)
{
	wake_up_all(&bm_tx_wq);
	wait_event(bm_done_wq, atomic_read(&bm_trial.active) == 0);
}

int bm_tx_init(void)
{
	unsigned int cpu;

	if (!tx_batch || tx_batch > 256) {
		pr_err("bmgen: tx_batch=%u is outside 1-256\n", tx_batch);
		return -EINVAL;
	}
	if (!tx_ring || tx_ring > 65536) {
		pr_err("bmgen: tx_ring=%u is outside 1-65536\n", tx_ring);
		return -EINVAL;
	}
	bm_kthreads = kcalloc(nr_cpu_ids, sizeof(*bm_kthreads), GFP_KERNEL);
	if (!bm_kthreads)
		return -ENOMEM;
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		struct bm_kthread *kt = &bm_kthreads[cpu];
		struct task_struct *t;

		kt->cpu = cpu;
		/* until it has learned its own: the first departure after
		 * load was 31 us late in the icount bench (13.7 PPM over a
		 * 2 s trial at 15.6 fps)
		 */
		kt->overshoot_ns = BM_MAX_EARLY_NS / 2;
		INIT_LIST_HEAD(&kt->streams);
		t = kthread_create_on_cpu(bm_kthread_fn, kt, cpu, "bmgen/%u");
		if (IS_ERR(t)) {
			cpus_read_unlock();
			bm_tx_exit();
			return PTR_ERR(t);
		}
		kt->task = t;
		bm_nkthreads++;
		wake_up_process(t);
	}
	cpus_read_unlock();
	return 0;
}

void bm_tx_exit(void)
{
	unsigned int cpu;

	if (!bm_kthreads)
		return;
	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		if (bm_kthreads[cpu].task)
			kthread_stop(bm_kthreads[cpu].task);
		bm_kthreads[cpu].task = NULL;
	}
	bm_nkthreads = 0;
	kfree(bm_kthreads);
	bm_kthreads = NULL;
}

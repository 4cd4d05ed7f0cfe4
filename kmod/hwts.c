// SPDX-License-Identifier: GPL-2.0
/*
 * Hardware timestamps (SPEC PLAT-TS).  Userspace switches stamping on at
 * the driver (SIOCSHWTSTAMP: on 6.1 there is no in-kernel way) and tells
 * the module with PORT_SET, with the PHC's offset from CLOCK_MONOTONIC.
 *
 * Tx: a driver hands a tx stamp to skb->sk's error queue and drops it if
 * the skb has no socket (__skb_tstamp_tx), so a port with BMGEN_HWTS_TX
 * owns a kernel UDP socket with OPT_TSONLY | OPT_ID, and the kthread
 * attaches it to one frame at a time (NICs such as the 82576 and i210
 * stamp one in flight and skip the rest).  The stamps are taken from the
 * error queue in process context, by the kthreads as they send and by the
 * stats dump, so nothing runs in the driver's completion context.
 *
 * Rx: the driver puts the stamp in skb_hwtstamps().  Each half is
 * converted to CLOCK_MONOTONIC with its port's offset and waits in the
 * stream's slots (by seq) for the other; a pair gives one hardware
 * latency, kept beside the software latency of the same frame.
 *
 * A stream whose other half is another host's (a pool's trial) never
 * pairs here: its stamps go to its hardware log (STREAM_HW_LOG), read
 * with LOG_GET, and the pool pairs the sender's with the receiver's.
 */
#include <linux/errqueue.h>
#include <linux/net.h>
#include <linux/net_tstamp.h>
#include <linux/skbuff.h>
#include <net/sock.h>

#include "bmgen.h"

/* A stamp not back after this is given up (the driver skipped it). */
#define BM_HWTS_TIMEOUT_NS	(NSEC_PER_SEC)

static int bm_hwts_sock_open(struct bm_port *p)
{
	struct socket *sock;
	int ret;

	ret = sock_create_kern(p->net, PF_INET, SOCK_DGRAM, IPPROTO_UDP, &sock);
	if (ret)
		return ret;
	WRITE_ONCE(sock->sk->sk_tsflags, SOF_TIMESTAMPING_TX_HARDWARE |
		   SOF_TIMESTAMPING_RAW_HARDWARE | SOF_TIMESTAMPING_OPT_ID |
		   SOF_TIMESTAMPING_OPT_TSONLY);
	p->ts_sock = sock;
	return 0;
}

static void bm_hwts_sock_close(struct bm_port *p)
{
	/* frames still in flight hold the sock (sk_wmem_alloc) */
	if (p->ts_sock)
		sock_release(p->ts_sock);
	p->ts_sock = NULL;
}

void bm_hwts_port_release(struct bm_port *p)
{
	bm_hwts_sock_close(p);
	p->hwts = 0;
}

void bm_hwts_port_reset(struct bm_port *p)
{
	spin_lock_bh(&p->ts_lock);
	WRITE_ONCE(p->ts_pending, false);
	spin_unlock_bh(&p->ts_lock);
}

int bm_hwts_port_set(struct bm_port *p, u32 hwts, const s64 *phc_offset_ns,
		     struct netlink_ext_ack *extack)
{
	int ret;

	if ((hwts & BMGEN_HWTS_TX) && !(p->ts_caps & BMGEN_PORT_F_HW_TS_TX)) {
		NL_SET_ERR_MSG(extack, "port cannot hardware-stamp tx");
		return -EOPNOTSUPP;
	}
	if ((hwts & BMGEN_HWTS_RX) && !(p->ts_caps & BMGEN_PORT_F_HW_TS_RX)) {
		NL_SET_ERR_MSG(extack, "port cannot hardware-stamp rx");
		return -EOPNOTSUPP;
	}
	if ((hwts & BMGEN_HWTS_TX) && !p->ts_sock) {
		ret = bm_hwts_sock_open(p);
		if (ret) {
			NL_SET_ERR_MSG(extack, "cannot open the port's timestamp socket");
			return ret;
		}
	} else if (!(hwts & BMGEN_HWTS_TX)) {
		bm_hwts_sock_close(p);
	}
	p->hwts = hwts;
	if (phc_offset_ns)
		p->phc_offset_ns = *phc_offset_ns;
	bm_hwts_port_reset(p);
	return 0;
}

/*
 * A frame whose stamps a stream's log keeps: every frame, or with
 * STREAM_HW_LOG_EVERY only every k-th, on both hosts alike.
 */
static bool bm_hwts_sampled(const struct bm_stream *s, u64 seq)
{
	u32 rem;

	if (!s->hw_log || s->hw_log_every <= 1)
		return true;
	div_u64_rem(seq, s->hw_log_every, &rem);
	return !rem;
}

/*
 * Keep a stamp of a stream's half for the host of its other half (the
 * pool pairs them): monotonic ns, here rel. to the epoch.  Under
 * s->rx.lock.
 */
static void bm_hwts_log(struct bm_stream *s, u64 seq, s64 ns, s64 sw_lat,
			u32 flags)
{
	struct bmgen_log_hw *r;

	if (!s->hw_log || s->rx.hw_log_n >= s->hw_log_max ||
	    !bm_hwts_sampled(s, seq))
		return;
	r = &s->hw_log[s->rx.hw_log_n++];
	r->seq = seq;
	r->ns = ns - (s64)READ_ONCE(bm_trial.epoch_ns);
	r->sw_lat_ns = sw_lat;
	r->flags = flags;
	r->reserved = 0;
}

void bm_hwts_mark(struct bm_port *p, struct bm_stream *s, struct sk_buff *skb,
		  u64 seq)
{
	struct sock *sk;

	if (!(READ_ONCE(p->hwts) & BMGEN_HWTS_TX) || !p->ts_sock ||
	    !bm_hwts_sampled(s, seq))
		return;
	sk = p->ts_sock->sk;
	spin_lock_bh(&p->ts_lock);
	if (!p->ts_pending) {
		WRITE_ONCE(p->ts_pending, true);
		p->ts_key++;
		p->ts_stream = s->id;
		p->ts_seq = seq;
		p->ts_sent_ns = ktime_get_ns();
		skb_shinfo(skb)->tx_flags |= SKBTX_HW_TSTAMP;
		skb_shinfo(skb)->tskey = p->ts_key;
		skb_set_owner_w(skb, sk);
		s->hw_tx_requests++;
	}
	spin_unlock_bh(&p->ts_lock);
}

/* One latency from a frame's two stamps.  Under s->rx.lock. */
static void bm_hwts_pair(struct bm_rx_state *rx, struct bm_hw_slot *h)
{
	s64 lat = h->rx_ns - h->tx_ns;

	if (!rx->hw_lat_count || lat < rx->hw_lat_min)
		rx->hw_lat_min = lat;
	if (!rx->hw_lat_count || lat > rx->hw_lat_max)
		rx->hw_lat_max = lat;
	rx->hw_lat_count++;
	rx->hw_lat_sum += lat;
	rx->hw_lat_sw_sum += h->sw_lat;
	h->have = 0;
}

static struct bm_hw_slot *bm_hwts_slot(struct bm_stream *s, u64 seq)
{
	struct bm_hw_slot *h = &s->rx.hw[seq % BM_HW_SLOTS];

	if (h->have && h->seq != seq)
		h->have = 0;	/* an older frame whose half never came */
	h->seq = seq;
	return h;
}

void bm_hwts_rx(struct bm_stream *s, const struct bm_port *p,
		struct sk_buff *skb, u64 seq, s64 sw_lat)
{
	s64 hw_ns = ktime_to_ns(skb_hwtstamps(skb)->hwtstamp);
	struct bm_hw_slot *h;

	if (!hw_ns)
		return;		/* the driver stamped another frame */
	h = bm_hwts_slot(s, seq);
	s->rx.hw_rx_stamps++;
	h->rx_ns = hw_ns - READ_ONCE(p->phc_offset_ns);
	h->sw_lat = sw_lat;
	if (s->rx_only)
		bm_hwts_log(s, seq, h->rx_ns, sw_lat, BMGEN_LOG_HW_F_RX);
	h->have |= BM_HW_HAVE_RX;
	if (h->have & BM_HW_HAVE_TX)
		bm_hwts_pair(&s->rx, h);
}

/* Frame (id, seq) left p at PHC time hw_ns.  Bottom halves off. */
static void bm_hwts_tx(struct bm_port *p, u32 id, u64 seq, u64 hw_ns)
{
	struct bm_stream *s;
	struct bm_hw_slot *h;

	rcu_read_lock();
	s = id < BMGEN_MAX_STREAMS ? rcu_dereference(bm_streams[id]) : NULL;
	if (s && net_eq(s->net, p->net)) {
		spin_lock(&s->rx.lock);
		s->rx.hw_tx_stamps++;
		h = bm_hwts_slot(s, seq);
		h->tx_ns = (s64)hw_ns - READ_ONCE(p->phc_offset_ns);
		h->have |= BM_HW_HAVE_TX;
		if (!s->rx_port)
			bm_hwts_log(s, seq, h->tx_ns, 0, 0);
		if (h->have & BM_HW_HAVE_RX)
			bm_hwts_pair(&s->rx, h);
		spin_unlock(&s->rx.lock);
	}
	rcu_read_unlock();
}

void bm_hwts_drain(struct bm_port *p)
{
	struct sock_exterr_skb *serr;
	struct sk_buff *skb;
	struct sock *sk;
	u64 hw;

	if (!p->ts_sock)
		return;
	sk = p->ts_sock->sk;
	/* the kthread asks before every frame: mostly there is nothing */
	if (!READ_ONCE(p->ts_pending) &&
	    skb_queue_empty_lockless(&sk->sk_error_queue))
		return;
	spin_lock_bh(&p->ts_lock);
	while ((skb = sock_dequeue_err_skb(sk)) != NULL) {
		serr = SKB_EXT_ERR(skb);
		hw = ktime_to_ns(skb_hwtstamps(skb)->hwtstamp);
		/* a stamp that comes after its request was given up is
		 * not the pending frame's: the key tells
		 */
		if (serr->ee.ee_origin == SO_EE_ORIGIN_TIMESTAMPING &&
		    serr->ee.ee_info == SCM_TSTAMP_SND && hw &&
		    p->ts_pending && serr->ee.ee_data == p->ts_key) {
			WRITE_ONCE(p->ts_pending, false);
			bm_hwts_tx(p, p->ts_stream, p->ts_seq, hw);
		}
		kfree_skb(skb);
	}
	if (p->ts_pending && ktime_get_ns() - p->ts_sent_ns > BM_HWTS_TIMEOUT_NS)
		WRITE_ONCE(p->ts_pending, false);
	spin_unlock_bh(&p->ts_lock);
}

void bm_hwts_stream_reset(struct bm_stream *s)
{
	memset(s->rx.hw, 0, sizeof(s->rx.hw));
	s->hw_tx_requests = 0;
}

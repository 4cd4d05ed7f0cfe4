// SPDX-License-Identifier: GPL-2.0
/*
 * The counting requests: STATS_GET (each stream's counters and latency
 * histogram) and LOG_GET (a stream's frame log), both dumps.
 */
#include <linux/etherdevice.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <net/genetlink.h>
#include <net/netlink.h>
#include <net/sock.h>

#include "bmgen.h"
#include "netlink_int.h"

const struct nla_policy bm_log_policy[BMGEN_A_MAX + 1] = {
	BM_POLICY_VERSION,
	[BMGEN_A_STREAM_ID] = NLA_POLICY_RANGE(NLA_U32, 1, BMGEN_MAX_STREAMS - 1),
};

#define BM_PUT64(skb, type, v) \
	nla_put_u64_64bit(skb, type, v, BMGEN_STATS_PAD)

/* Frames by DSCP (64) and by PCP (8), copied together under the rx lock. */
struct bm_rx_classes {
	u64 dscp[64];
	u64 pcp[8];
};

/* Stats of s into a BMGEN_A_STATS nest; rx copied under the rx lock. */
static int bm_stats_fill(struct sk_buff *skb, struct bm_stream *s)
{
	typeof(s->rx.stats) rx;
	struct bm_rx_classes *cls;
	struct nlattr *nest;
	u64 log_tx;
	int ret = -EMSGSIZE;

	cls = kmalloc(sizeof(*cls), GFP_KERNEL);
	if (!cls)
		return -ENOMEM;
	spin_lock_bh(&s->rx.lock);
	rx = s->rx.stats;
	memcpy(cls->dscp, s->rx.dscp, sizeof(cls->dscp));
	memcpy(cls->pcp, s->rx.pcp, sizeof(cls->pcp));
	spin_unlock_bh(&s->rx.lock);
	log_tx = min_t(u64, READ_ONCE(s->tx_frames), s->log_frames);
	nest = nla_nest_start(skb, BMGEN_A_STATS);
	if (!nest)
		goto out;
	if (nla_put_u32(skb, BMGEN_STATS_STREAM_ID, s->id) ||
	    nla_put_u32(skb, BMGEN_STATS_TS_SOURCE, BMGEN_TS_SW) ||
	    nla_put_u32(skb, BMGEN_STATS_TS_CLOCK, CLOCK_MONOTONIC) ||
	    BM_PUT64(skb, BMGEN_STATS_TX_FRAMES, READ_ONCE(s->tx_frames)) ||
	    BM_PUT64(skb, BMGEN_STATS_TX_BYTES, READ_ONCE(s->tx_bytes)) ||
	    BM_PUT64(skb, BMGEN_STATS_TX_RETRIES, READ_ONCE(s->tx_retries)) ||
	    BM_PUT64(skb, BMGEN_STATS_TX_ERRORS, READ_ONCE(s->tx_errors)) ||
	    BM_PUT64(skb, BMGEN_STATS_TX_FIRST_NS, READ_ONCE(s->tx_first_ns)) ||
	    BM_PUT64(skb, BMGEN_STATS_TX_LAST_NS, READ_ONCE(s->tx_last_ns)) ||
	    nla_put_u8(skb, BMGEN_STATS_TX_DONE, READ_ONCE(s->tx_done)) ||
	    BM_PUT64(skb, BMGEN_STATS_TX_LATE_FRAMES,
		     READ_ONCE(s->tx_late_frames)) ||
	    BM_PUT64(skb, BMGEN_STATS_TX_LATE_MAX_NS,
		     READ_ONCE(s->tx_late_max_ns)) ||
	    nla_put(skb, BMGEN_STATS_TX_STALLS_NS, sizeof(s->tx_stalls_ns),
		    s->tx_stalls_ns) ||
	    nla_put_u32(skb, BMGEN_STATS_TX_MAX_BATCH,
			READ_ONCE(s->tx_max_batch)) ||
	    nla_put_u32(skb, BMGEN_STATS_TX_PATH, READ_ONCE(s->tx_path)) ||
	    BM_PUT64(skb, BMGEN_STATS_TX_RING_MISSES,
		     READ_ONCE(s->tx_ring_misses)) ||
	    BM_PUT64(skb, BMGEN_STATS_TX_BURST_LATE_MAX_NS,
		     READ_ONCE(s->tx_burst_late_max_ns)) ||
	    BM_PUT64(skb, BMGEN_STATS_RX_FRAMES, rx.frames) ||
	    BM_PUT64(skb, BMGEN_STATS_RX_BYTES, rx.bytes) ||
	    BM_PUT64(skb, BMGEN_STATS_RX_UNIQUE, rx.unique) ||
	    BM_PUT64(skb, BMGEN_STATS_RX_LATE, rx.late) ||
	    BM_PUT64(skb, BMGEN_STATS_RX_IN_ORDER, rx.in_order) ||
	    BM_PUT64(skb, BMGEN_STATS_RX_REORDERED, rx.reordered) ||
	    BM_PUT64(skb, BMGEN_STATS_RX_DUP, rx.dup) ||
	    BM_PUT64(skb, BMGEN_STATS_RX_GAP_EVENTS, rx.gap_events) ||
	    BM_PUT64(skb, BMGEN_STATS_RX_GAP_FRAMES, rx.gap_frames) ||
	    BM_PUT64(skb, BMGEN_STATS_RX_BAD_LEN, rx.bad_len) ||
	    BM_PUT64(skb, BMGEN_STATS_RX_LEARN, rx.learn) ||
	    BM_PUT64(skb, BMGEN_STATS_RX_FIRST_NS, rx.first_ns) ||
	    BM_PUT64(skb, BMGEN_STATS_RX_LAST_NS, rx.last_ns) ||
	    BM_PUT64(skb, BMGEN_STATS_RX_MAX_SEQ, rx.max_seq) ||
	    BM_PUT64(skb, BMGEN_STATS_RX_LAST_LOST_SEQ, rx.last_lost_seq) ||
	    BM_PUT64(skb, BMGEN_STATS_RX_MAX_IAT_NS, rx.max_iat_ns) ||
	    BM_PUT64(skb, BMGEN_STATS_RX_MAX_IAT_START_NS, rx.max_iat_start_ns) ||
	    BM_PUT64(skb, BMGEN_STATS_LAT_COUNT, rx.lat_count) ||
	    BM_PUT64(skb, BMGEN_STATS_LAT_MIN_NS, rx.lat_count ? rx.lat_min : 0) ||
	    BM_PUT64(skb, BMGEN_STATS_LAT_MAX_NS, rx.lat_count ? rx.lat_max : 0) ||
	    BM_PUT64(skb, BMGEN_STATS_LAT_SUM_NS, rx.lat_sum) ||
	    BM_PUT64(skb, BMGEN_STATS_LAT_SUMSQ_HI, (u64)(rx.lat_sumsq >> 64)) ||
	    BM_PUT64(skb, BMGEN_STATS_LAT_SUMSQ_LO, (u64)rx.lat_sumsq) ||
	    BM_PUT64(skb, BMGEN_STATS_IPDV_COUNT, rx.ipdv_count) ||
	    BM_PUT64(skb, BMGEN_STATS_IPDV_MIN_NS, rx.ipdv_count ? rx.ipdv_min : 0) ||
	    BM_PUT64(skb, BMGEN_STATS_IPDV_MAX_NS, rx.ipdv_count ? rx.ipdv_max : 0) ||
	    BM_PUT64(skb, BMGEN_STATS_IPDV_SUM_NS, rx.ipdv_sum) ||
	    BM_PUT64(skb, BMGEN_STATS_TAG_LAT_NS, rx.tag_lat_ns) ||
	    BM_PUT64(skb, BMGEN_STATS_RX_CPU_SPLIT, rx.cpu_split) ||
	    nla_put(skb, BMGEN_STATS_RX_DSCP, sizeof(cls->dscp), cls->dscp) ||
	    nla_put(skb, BMGEN_STATS_RX_PCP, sizeof(cls->pcp), cls->pcp) ||
	    BM_PUT64(skb, BMGEN_STATS_RX_UNTAGGED, rx.untagged) ||
	    BM_PUT64(skb, BMGEN_STATS_LOG_TX, log_tx) ||
	    BM_PUT64(skb, BMGEN_STATS_LOG_RX, rx.log_n) ||
	    BM_PUT64(skb, BMGEN_STATS_HW_TX_REQUESTS,
		     READ_ONCE(s->hw_tx_requests)) ||
	    BM_PUT64(skb, BMGEN_STATS_HW_TX_STAMPS, rx.hw_tx_stamps) ||
	    BM_PUT64(skb, BMGEN_STATS_HW_RX_STAMPS, rx.hw_rx_stamps) ||
	    BM_PUT64(skb, BMGEN_STATS_HW_LAT_COUNT, rx.hw_lat_count) ||
	    BM_PUT64(skb, BMGEN_STATS_HW_LAT_MIN_NS, rx.hw_lat_min) ||
	    BM_PUT64(skb, BMGEN_STATS_HW_LAT_MAX_NS, rx.hw_lat_max) ||
	    BM_PUT64(skb, BMGEN_STATS_HW_LAT_SUM_NS, rx.hw_lat_sum) ||
	    BM_PUT64(skb, BMGEN_STATS_HW_LAT_SW_SUM_NS, rx.hw_lat_sw_sum) ||
	    BM_PUT64(skb, BMGEN_STATS_LAT_BELOW_ZERO, rx.lat_below_zero) ||
	    nla_put_u8(skb, BMGEN_STATS_TAG_SEEN, rx.tag_seen)) {
		nla_nest_cancel(skb, nest);
		goto out;
	}
	nla_nest_end(skb, nest);
	ret = 0;
out:
	kfree(cls);
	return ret;
}

#define BM_HIST_CHUNK 256

/*
 * Stats dump: per stream one STATS message, then its non-empty histogram
 * buckets in chunks.  args[0] = stream id, args[1] = 0 before the STATS
 * message, else 1 + the next bucket to send.
 */
int bm_nl_stats_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct nlattr **attrs = bm_dump_attrs(cb);
	struct net *net = sock_net(skb->sk);
	struct bmgen_hist_bucket *buf;
	u32 only = 0;
	long i;
	void *hdr;
	int ret;

	if (attrs[BMGEN_A_STREAM_ID])
		only = nla_get_u32(attrs[BMGEN_A_STREAM_ID]);
	buf = kmalloc_array(BM_HIST_CHUNK, sizeof(*buf), GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	mutex_lock(&bm_cfg_lock);
	ret = bm_dump_begin(cb);
	if (ret) {
		mutex_unlock(&bm_cfg_lock);
		kfree(buf);
		return ret;
	}
	for (i = max_t(long, cb->args[0], 1); i < BMGEN_MAX_STREAMS; i++) {
		struct bm_stream *s = rcu_dereference_protected(bm_streams[i],
					lockdep_is_held(&bm_cfg_lock));
		u32 b, n;

		if (!s || !net_eq(s->net, net) || (only && s->id != only))
			continue;
		if (!cb->args[1]) {
			/* tx stamps that came after the kthread's last look */
			if (s->tx_port && s->tx_port->ts_sock)
				bm_hwts_drain(s->tx_port);
			hdr = bm_dump_put(skb, cb, BMGEN_CMD_STATS_GET);
			if (!hdr)
				goto out;
			if (bm_stats_fill(skb, s)) {
				genlmsg_cancel(skb, hdr);
				goto out;
			}
			genlmsg_end(skb, hdr);
			cb->args[1] = 1;
		}
		for (b = cb->args[1] - 1; b < BMGEN_HIST_BUCKETS; ) {
			spin_lock_bh(&s->rx.lock);
			for (n = 0; b < BMGEN_HIST_BUCKETS && n < BM_HIST_CHUNK; b++) {
				if (!s->rx.hist[b])
					continue;
				buf[n].index = b;
				buf[n].reserved = 0;
				buf[n].count = s->rx.hist[b];
				n++;
			}
			spin_unlock_bh(&s->rx.lock);
			if (!n)
				break;
			hdr = bm_dump_put(skb, cb, BMGEN_CMD_STATS_GET);
			if (!hdr)
				goto out;
			if (nla_put_u32(skb, BMGEN_A_STREAM_ID, s->id) ||
			    nla_put(skb, BMGEN_A_HIST, n * sizeof(*buf), buf)) {
				genlmsg_cancel(skb, hdr);
				goto out;
			}
			genlmsg_end(skb, hdr);
			/* resume after the last bucket that went out */
			cb->args[1] = 1 + b;
		}
		cb->args[1] = 0;
	}
out:
	mutex_unlock(&bm_cfg_lock);
	cb->args[0] = i;
	kfree(buf);
	return skb->len;
}

/* Records per LOG_GET message: 32 B each, well inside a dump skb. */
#define BM_LOG_CHUNK 64

/*
 * The stream a log dump reads, or an error with its extack: no id, no
 * such stream in the caller's namespace, no log, or a trial running (the
 * kthread and the rx handler are writing the log).  Needs bm_cfg_lock.
 */
static struct bm_stream *bm_log_stream(struct netlink_callback *cb,
				       const struct net *net)
{
	struct nlattr **attrs = bm_dump_attrs(cb);
	struct bm_stream *s;

	if (!attrs[BMGEN_A_STREAM_ID]) {
		NL_SET_ERR_MSG_MOD(cb->extack, "a log dump needs a stream id");
		return ERR_PTR(-EINVAL);
	}
	if (bm_trial_busy()) {
		NL_SET_ERR_MSG_MOD(cb->extack, "the log cannot be read while a trial runs");
		return ERR_PTR(-EBUSY);
	}
	s = rcu_dereference_protected(
		bm_streams[nla_get_u32(attrs[BMGEN_A_STREAM_ID])],
		lockdep_is_held(&bm_cfg_lock));
	if (!s || !net_eq(s->net, net)) {
		NL_SET_ERR_MSG_MOD(cb->extack, "no such stream");
		return ERR_PTR(-ENOENT);
	}
	if (!s->log_frames && !s->hw_log) {
		NL_SET_ERR_MSG_MOD(cb->extack, "the stream keeps no log (STREAM_LOG_FRAMES, STREAM_HW_LOG)");
		return ERR_PTR(-ENODATA);
	}
	return s;
}

/*
 * The logs of one stream of the caller's namespace: its frame log's tx
 * records (seq order), its rx records (arrival order), then its hardware
 * stamps (arrival order), in chunks.  args[0] =
 * direction, args[1] = next record.  The log is read as the last trial
 * left it.  Errors, with their extack, come in the NLMSG_DONE of the
 * first part; a change between two parts ends the dump with that error
 * (and NLM_F_DUMP_INTR).
 */
int bm_nl_log_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	const void *base[BMGEN_LOG_HW + 1];
	u32 size[BMGEN_LOG_HW + 1];
	u64 n[BMGEN_LOG_HW + 1], i;
	struct bm_stream *s;
	void *hdr;
	int ret;

	mutex_lock(&bm_cfg_lock);
	ret = bm_dump_begin(cb);
	if (ret)
		goto unlock;
	s = bm_log_stream(cb, sock_net(skb->sk));
	if (IS_ERR(s)) {
		ret = PTR_ERR(s);
		goto unlock;
	}
	n[BMGEN_LOG_TX] = min_t(u64, s->tx_frames, s->log_frames);
	n[BMGEN_LOG_RX] = min_t(u64, s->rx.log_n, s->log_frames);
	n[BMGEN_LOG_HW] = min_t(u64, s->rx.hw_log_n, s->hw_log_max);
	size[BMGEN_LOG_TX] = sizeof(*s->tx_log);
	size[BMGEN_LOG_RX] = sizeof(*s->rx_log);
	size[BMGEN_LOG_HW] = sizeof(*s->hw_log);
	base[BMGEN_LOG_TX] = s->tx_log;
	base[BMGEN_LOG_RX] = s->rx_log;
	base[BMGEN_LOG_HW] = s->hw_log;
	for (; cb->args[0] <= BMGEN_LOG_HW; cb->args[0]++, cb->args[1] = 0) {
		u32 dir = cb->args[0];

		for (i = cb->args[1]; i < n[dir]; i += BM_LOG_CHUNK) {
			u64 k = min_t(u64, BM_LOG_CHUNK, n[dir] - i);

			hdr = bm_dump_put(skb, cb, BMGEN_CMD_LOG_GET);
			if (!hdr)
				goto full;
			if (nla_put_u32(skb, BMGEN_A_STREAM_ID, s->id) ||
			    nla_put_u32(skb, BMGEN_A_LOG_DIR, dir) ||
			    nla_put_u64_64bit(skb, BMGEN_A_LOG_OFFSET, i,
					      BMGEN_A_PAD) ||
			    nla_put(skb, BMGEN_A_LOG_RECORDS, k * size[dir],
				    base[dir] + i * size[dir])) {
				genlmsg_cancel(skb, hdr);
				goto full;
			}
			genlmsg_end(skb, hdr);
			cb->args[1] = i + k;
		}
	}
full:
	ret = skb->len;
unlock:
	mutex_unlock(&bm_cfg_lock);
	return ret;
}

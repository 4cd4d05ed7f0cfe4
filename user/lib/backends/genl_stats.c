// SPDX-License-Identifier: GPL-2.0
/*
 * The dumps read back from the module after a trial: a stream's
 * statistics with its latency histogram, its frame logs, its frame's
 * head.  Apart from the channel (genl.c) because each parses the
 * attributes of one dump; what is computed from the statistics is
 * genl_stats_math.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/genetlink.h>
#include <linux/bmgen.h>

#include "genl_int.h"

/* Copy a binary counter array attribute into dst[n] (short: the rest 0). */
static void bm_genl_counters(uint64_t *dst, size_t n, const struct nlattr *a)
{
	size_t len = mnl_attr_get_payload_len(a);

	memset(dst, 0, n * sizeof(*dst));
	memcpy(dst, mnl_attr_get_payload(a),
	       len < n * sizeof(*dst) ? len - len % sizeof(*dst) :
					n * sizeof(*dst));
}

static void bm_genl_stats_attr(struct bm_genl_stats *st, const struct nlattr *a)
{
	uint64_t v;

	switch (mnl_attr_get_type(a)) {
	case BMGEN_STATS_RX_DSCP:
		bm_genl_counters(st->rx_dscp, 64, a);
		return;
	case BMGEN_STATS_RX_PCP:
		bm_genl_counters(st->rx_pcp, 8, a);
		return;
	case BMGEN_STATS_TX_STALLS_NS:
		bm_genl_counters(st->tx_stalls_ns, BMGEN_TX_STALLS, a);
		return;
	}
	v = mnl_attr_get_payload_len(a) == 8 ? mnl_attr_get_u64(a) :
	    mnl_attr_get_payload_len(a) == 4 ? mnl_attr_get_u32(a) :
	    mnl_attr_get_u8(a);
	switch (mnl_attr_get_type(a)) {
	case BMGEN_STATS_STREAM_ID: st->stream_id = v; break;
	case BMGEN_STATS_TS_SOURCE: st->ts_source = v; break;
	case BMGEN_STATS_TS_CLOCK: st->ts_clock = v; break;
	case BMGEN_STATS_TX_FRAMES: st->tx_frames = v; break;
	case BMGEN_STATS_TX_BYTES: st->tx_bytes = v; break;
	case BMGEN_STATS_TX_RETRIES: st->tx_retries = v; break;
	case BMGEN_STATS_TX_ERRORS: st->tx_errors = v; break;
	case BMGEN_STATS_TX_FIRST_NS: st->tx_first_ns = v; break;
	case BMGEN_STATS_TX_LAST_NS: st->tx_last_ns = v; break;
	case BMGEN_STATS_TX_LATE_FRAMES: st->tx_late_frames = v; break;
	case BMGEN_STATS_TX_LATE_MAX_NS: st->tx_late_max_ns = v; break;
	case BMGEN_STATS_TX_MAX_BATCH: st->tx_max_batch = v; break;
	case BMGEN_STATS_TX_PATH: st->tx_path = v; break;
	case BMGEN_STATS_TX_RING_MISSES: st->tx_ring_misses = v; break;
	case BMGEN_STATS_TX_BURST_LATE_MAX_NS:
		st->tx_burst_late_max_ns = v;
		break;
	case BMGEN_STATS_TX_DONE: st->tx_done = v; break;
	case BMGEN_STATS_RX_FRAMES: st->rx_frames = v; break;
	case BMGEN_STATS_RX_BYTES: st->rx_bytes = v; break;
	case BMGEN_STATS_RX_UNIQUE: st->rx_unique = v; break;
	case BMGEN_STATS_RX_LATE: st->rx_late = v; break;
	case BMGEN_STATS_RX_IN_ORDER: st->rx_in_order = v; break;
	case BMGEN_STATS_RX_REORDERED: st->rx_reordered = v; break;
	case BMGEN_STATS_RX_DUP: st->rx_dup = v; break;
	case BMGEN_STATS_RX_GAP_EVENTS: st->rx_gap_events = v; break;
	case BMGEN_STATS_RX_GAP_FRAMES: st->rx_gap_frames = v; break;
	case BMGEN_STATS_RX_BAD_LEN: st->rx_bad_len = v; break;
	case BMGEN_STATS_RX_LEARN: st->rx_learn = v; break;
	case BMGEN_STATS_RX_FIRST_NS: st->rx_first_ns = v; break;
	case BMGEN_STATS_RX_LAST_NS: st->rx_last_ns = v; break;
	case BMGEN_STATS_RX_MAX_SEQ: st->rx_max_seq = v; break;
	case BMGEN_STATS_RX_LAST_LOST_SEQ: st->rx_last_lost_seq = v; break;
	case BMGEN_STATS_RX_MAX_IAT_NS: st->rx_max_iat_ns = v; break;
	case BMGEN_STATS_RX_MAX_IAT_START_NS: st->rx_max_iat_start_ns = v; break;
	case BMGEN_STATS_LAT_COUNT: st->lat_count = v; break;
	case BMGEN_STATS_LAT_MIN_NS: st->lat_min_ns = (int64_t)v; break;
	case BMGEN_STATS_LAT_MAX_NS: st->lat_max_ns = (int64_t)v; break;
	case BMGEN_STATS_LAT_SUM_NS: st->lat_sum_ns = (int64_t)v; break;
	case BMGEN_STATS_LAT_BELOW_ZERO: st->lat_below_zero = v; break;
	case BMGEN_STATS_LAT_SUMSQ_HI: st->lat_sumsq_hi = v; break;
	case BMGEN_STATS_LAT_SUMSQ_LO: st->lat_sumsq_lo = v; break;
	case BMGEN_STATS_IPDV_COUNT: st->ipdv_count = v; break;
	case BMGEN_STATS_IPDV_MIN_NS: st->ipdv_min_ns = (int64_t)v; break;
	case BMGEN_STATS_IPDV_MAX_NS: st->ipdv_max_ns = (int64_t)v; break;
	case BMGEN_STATS_IPDV_SUM_NS: st->ipdv_sum_ns = (int64_t)v; break;
	case BMGEN_STATS_TAG_LAT_NS: st->tag_lat_ns = (int64_t)v; break;
	case BMGEN_STATS_TAG_SEEN: st->tag_seen = v; break;
	case BMGEN_STATS_RX_CPU_SPLIT: st->rx_cpu_split = v; break;
	case BMGEN_STATS_RX_UNTAGGED: st->rx_untagged = v; break;
	case BMGEN_STATS_LOG_TX: st->log_tx = v; break;
	case BMGEN_STATS_LOG_RX: st->log_rx = v; break;
	case BMGEN_STATS_HW_TX_REQUESTS: st->hw_tx_requests = v; break;
	case BMGEN_STATS_HW_TX_STAMPS: st->hw_tx_stamps = v; break;
	case BMGEN_STATS_HW_RX_STAMPS: st->hw_rx_stamps = v; break;
	case BMGEN_STATS_HW_LAT_COUNT: st->hw_lat_count = v; break;
	case BMGEN_STATS_HW_LAT_MIN_NS: st->hw_lat_min_ns = (int64_t)v; break;
	case BMGEN_STATS_HW_LAT_MAX_NS: st->hw_lat_max_ns = (int64_t)v; break;
	case BMGEN_STATS_HW_LAT_SUM_NS: st->hw_lat_sum_ns = (int64_t)v; break;
	case BMGEN_STATS_HW_LAT_SW_SUM_NS: st->hw_lat_sw_sum_ns = (int64_t)v; break;
	}
}

struct bm_genl_stats_ctx {
	uint32_t id;
	struct bm_genl_stats *st;
	int found;
	bool tag_seen_sent;		/* STATS_TAG_SEEN was there */
};

static int bm_genl_stats_cb(const struct nlmsghdr *nlh, void *data)
{
	struct bm_genl_req *req = data;
	struct bm_genl_stats_ctx *c = req->data;
	const struct nlattr *a, *n;
	uint32_t id = 0;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		switch (mnl_attr_get_type(a)) {
		case BMGEN_A_STREAM_ID:
			id = mnl_attr_get_u32(a);
			break;
		case BMGEN_A_STATS:
			mnl_attr_for_each_nested(n, a) {
				bm_genl_stats_attr(c->st, n);
				if (mnl_attr_get_type(n) == BMGEN_STATS_TAG_SEEN)
					c->tag_seen_sent = true;
			}
			if (c->st->stream_id == c->id)
				c->found = 1;
			break;
		case BMGEN_A_HIST:
			if (id == c->id) {
				const struct bmgen_hist_bucket *b =
					mnl_attr_get_payload(a);
				size_t i, nb = mnl_attr_get_payload_len(a) /
					       sizeof(*b);

				for (i = 0; i < nb; i++)
					if (b[i].index < BMGEN_HIST_BUCKETS)
						c->st->hist[b[i].index] = b[i].count;
			}
			break;
		}
	}
	return MNL_CB_OK;
}

int bm_genl_stats_get(struct bm_genl *g, uint32_t id, struct bm_genl_stats *st,
		      struct bm_error *err)
{
	struct bm_genl_stats_ctx c = { .id = id, .st = st };
	struct bm_genl_req req = { bm_genl_stats_cb, &c, err };
	struct nlmsghdr *nlh;
	int ret;

	memset(st, 0, sizeof(*st));
	st->hist = calloc(BMGEN_HIST_BUCKETS, sizeof(*st->hist));
	if (!st->hist)
		return bm_errorf(err, "out of memory"), -ENOMEM;
	nlh = bm_genl_msg(g, g->family, NLM_F_DUMP, BMGEN_CMD_STATS_GET);
	mnl_attr_put_u32(nlh, BMGEN_A_STREAM_ID, id);
	ret = bm_genl_talk(g, nlh, &req);
	if (!ret && !c.found) {
		bm_errorf(err, "no statistics for stream %u", id);
		ret = -ENOENT;
	}
	if (ret)
		bm_genl_stats_free(st);
	else if (!c.tag_seen_sent)
		st->tag_seen = st->tag_lat_ns > 0;	/* a module before it */
	return ret;
}

/* What a LOG_GET dump fills: the frame log (tx and rx), or the
 * hardware stamp log (hw); the directions a caller did not ask are
 * skipped. */
struct bm_genl_log_ctx {
	uint32_t id;
	size_t cap;
	uint64_t *tx;
	struct bmgen_log_rx *rx;
	struct bmgen_log_hw *hw;
	size_t ntx, nrx, nhw;
};

static int bm_genl_log_cb(const struct nlmsghdr *nlh, void *data)
{
	struct bm_genl_req *req = data;
	struct bm_genl_log_ctx *c = req->data;
	const struct nlattr *a, *rec = NULL;
	uint32_t id = 0, dir = UINT32_MAX;
	uint64_t off = 0;
	size_t size, n;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		switch (mnl_attr_get_type(a)) {
		case BMGEN_A_STREAM_ID: id = mnl_attr_get_u32(a); break;
		case BMGEN_A_LOG_DIR: dir = mnl_attr_get_u32(a); break;
		case BMGEN_A_LOG_OFFSET: off = mnl_attr_get_u64(a); break;
		case BMGEN_A_LOG_RECORDS: rec = a; break;
		}
	}
	if (id != c->id || !rec || dir > BMGEN_LOG_HW ||
	    (dir == BMGEN_LOG_HW) != !!c->hw)
		return MNL_CB_OK;
	size = dir == BMGEN_LOG_TX ? sizeof(*c->tx) :
	       dir == BMGEN_LOG_RX ? sizeof(*c->rx) : sizeof(*c->hw);
	n = mnl_attr_get_payload_len(rec) / size;
	/* the module sends chunks in order; anything else is refused */
	if (off != (dir == BMGEN_LOG_TX ? c->ntx :
		    dir == BMGEN_LOG_RX ? c->nrx : c->nhw) ||
	    off + n > c->cap) {
		bm_errorf(req->err, "frame log of stream %u: chunk at %llu "
			  "out of order or beyond %zu records", id,
			  (unsigned long long)off, c->cap);
		errno = EPROTO;
		return MNL_CB_ERROR;
	}
	if (dir == BMGEN_LOG_HW) {
		memcpy(c->hw + off, mnl_attr_get_payload(rec), n * size);
		c->nhw += n;
	} else if (dir == BMGEN_LOG_TX) {
		memcpy(c->tx + off, mnl_attr_get_payload(rec), n * size);
		c->ntx += n;
	} else {
		memcpy(c->rx + off, mnl_attr_get_payload(rec), n * size);
		c->nrx += n;
	}
	return MNL_CB_OK;
}

/* Dump stream c->id's logs into what c points at. */
static int bm_genl_log_dump(struct bm_genl *g, struct bm_genl_log_ctx *c,
			    struct bm_error *err)
{
	struct bm_genl_req req = { bm_genl_log_cb, c, err };
	struct nlmsghdr *nlh;

	nlh = bm_genl_msg(g, g->family, NLM_F_DUMP, BMGEN_CMD_LOG_GET);
	mnl_attr_put_u32(nlh, BMGEN_A_STREAM_ID, c->id);
	return bm_genl_talk(g, nlh, &req);
}

int bm_genl_log_get(struct bm_genl *g, uint32_t id, size_t cap, uint64_t *tx,
		    size_t *ntx, struct bmgen_log_rx *rx, size_t *nrx,
		    struct bm_error *err)
{
	struct bm_genl_log_ctx c = { .id = id, .cap = cap, .tx = tx, .rx = rx };
	int ret = bm_genl_log_dump(g, &c, err);

	*ntx = c.ntx;
	*nrx = c.nrx;
	return ret;
}

int bm_genl_hw_log_get(struct bm_genl *g, uint32_t id, size_t cap,
		       struct bmgen_log_hw *rec, size_t *n,
		       struct bm_error *err)
{
	struct bm_genl_log_ctx c = { .id = id, .cap = cap, .hw = rec };
	int ret = bm_genl_log_dump(g, &c, err);

	*n = c.nhw;
	return ret;
}

struct bm_genl_head_ctx {
	uint32_t id;
	uint8_t *buf;
	size_t len;
	int found;
};

static int bm_genl_head_cb(const struct nlmsghdr *nlh, void *data)
{
	struct bm_genl_req *req = data;
	struct bm_genl_head_ctx *c = req->data;
	const struct nlattr *a, *head = NULL;
	uint32_t id = 0;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		if (mnl_attr_get_type(a) == BMGEN_A_STREAM_ID)
			id = mnl_attr_get_u32(a);
		else if (mnl_attr_get_type(a) == BMGEN_A_STREAM_FRAME_HEAD)
			head = a;
	}
	if (id == c->id && head) {
		c->len = mnl_attr_get_payload_len(head);
		if (c->len > BMGEN_FRAME_HEAD_MAX)
			c->len = BMGEN_FRAME_HEAD_MAX;
		memcpy(c->buf, mnl_attr_get_payload(head), c->len);
		c->found = 1;
	}
	return MNL_CB_OK;
}

int bm_genl_stream_frame_head(struct bm_genl *g, uint32_t id, uint8_t *buf,
			      size_t *len, struct bm_error *err)
{
	struct bm_genl_head_ctx c = { .id = id, .buf = buf };
	struct bm_genl_req req = { bm_genl_head_cb, &c, err };
	int ret;

	ret = bm_genl_talk(g, bm_genl_msg(g, g->family, NLM_F_DUMP,
					  BMGEN_CMD_STREAM_GET), &req);
	if (!ret && !c.found) {
		bm_errorf(err, "no frame head for stream %u (module before 0.2?)",
			  id);
		ret = -ENOENT;
	}
	*len = c.len;
	return ret;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The XDP transmit path (BMGEN_TXP_XDP): frames in pages of a per-stream
 * ring, handed to the driver's ndo_xdp_xmit in bulk, as a devmap redirect
 * hands them, with one flush a batch.  No skb is built: the driver maps
 * the page and, once the frame is on the wire (a NIC) or consumed (veth's
 * peer), returns it with xdp_return_frame(), which for MEM_TYPE_PAGE_ORDER0
 * is one put_page().  The ring keeps a reference of its own, so a page
 * whose count is back at one is free to carry the next frame.
 *
 * A page is laid out as XDP's own frames are: the struct xdp_frame at its
 * start, the frame at XDP_PACKET_HEADROOM, and room at the end for the
 * skb_shared_info a receiver that turns it into an skb writes there (veth
 * without an XDP program builds its skb around the page).
 */
#include <linux/bpf.h>
#include <linux/mm.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <net/xdp.h>

#include "bmgen.h"

/* The longest frame (without FCS) a page carries. */
#define BM_XDP_MAX_LEN	(PAGE_SIZE - XDP_PACKET_HEADROOM - \
			 SKB_DATA_ALIGN(sizeof(struct skb_shared_info)))

/*
 * Does dev's driver take XDP frames now?  Drivers answer a call with no
 * frame as they would a batch: veth -ENXIO while its peer has neither an
 * XDP program nor GRO (no NAPI to receive them), igb and the other Intel
 * drivers -ENXIO without an XDP program of their own (no XDP tx ring).
 */
bool bm_xdp_ready(struct net_device *dev)
{
	const struct net_device_ops *ops = dev->netdev_ops;
	int ret;

	if (!ops->ndo_xdp_xmit || !netif_running(dev))
		return false;
	local_bh_disable();
	rcu_read_lock();
	ret = ops->ndo_xdp_xmit(dev, 0, NULL, 0);
	rcu_read_unlock();
	local_bh_enable();
	return ret >= 0;
}

/* Does every frame of s fit one page? */
bool bm_xdp_fits(const struct bm_stream *s)
{
	return s->max_frame - ETH_FCS_LEN <= BM_XDP_MAX_LEN;
}

/* Set up r with size pages (allocated as needed); false without memory. */
bool bm_xdp_ring_init(struct bm_xdp_ring *r, unsigned int size)
{
	r->pg = kvcalloc(size, sizeof(*r->pg), GFP_KERNEL);
	r->size = r->pg ? size : 0;
	r->pos = 0;
	r->first = 0;
	return r->pg;
}

/* Drop the ring's references; the driver frees what it still holds. */
void bm_xdp_ring_free(struct bm_xdp_ring *r)
{
	unsigned int i;

	for (i = 0; i < r->size; i++)
		if (r->pg[i])
			put_page(r->pg[i]);
	kvfree(r->pg);
	r->pg = NULL;
	r->size = 0;
}

static bool bm_xdp_page_idle(struct page *pg)
{
	if (page_ref_count(pg) != 1)
		return false;
	smp_rmb();	/* the driver was done with it before it let go */
	return true;
}

/*
 * The next free page of r as frame seq of s (all but seq and tx_ts), with
 * a reference for the frame; *misses counts pages replaced because the
 * driver still held every one tried.  The headers are copied from the
 * template for every frame: a receiver in this kernel (veth's peer) may
 * have rewritten them in place, forwarding (TTL, checksum) or NATing.
 */
struct xdp_frame *bm_xdp_get(struct bm_xdp_ring *r, const struct bm_stream *s,
			     u64 seq, u32 *size, u64 *misses)
{
	struct xdp_frame *xf;
	struct page *pg = NULL;
	unsigned int i, slot = 0;
	u8 *d;

	for (i = 0; i < BM_RING_PROBE; i++) {
		slot = r->pos;
		if (++r->pos == r->size)
			r->pos = 0;
		pg = r->pg[slot];
		if (!pg || bm_xdp_page_idle(pg))
			break;
	}
	if (!pg || i == BM_RING_PROBE) {
		struct page *npg = alloc_page(GFP_KERNEL);

		if (!npg)
			return NULL;
		if (pg) {
			(*misses)++;
			put_page(pg);
		}
		r->pg[slot] = npg;
		pg = npg;
		d = page_address(pg) + XDP_PACKET_HEADROOM;
		memcpy(d, s->tmpl, s->max_frame - ETH_FCS_LEN);
	} else {
		d = page_address(pg) + XDP_PACKET_HEADROOM;
		memcpy(d, s->tmpl, s->hdr_len);
	}
	*size = bm_frame_fill_buf(s, d, seq);
	/* every field, each time: a receiver's XDP_TX rewrites them */
	xf = page_address(pg);
	xf->data = d;
	xf->len = *size - ETH_FCS_LEN;
	xf->headroom = XDP_PACKET_HEADROOM - sizeof(*xf);
	xf->metasize = 0;
	xf->frame_sz = PAGE_SIZE;
	xf->flags = 0;
	xf->mem.type = MEM_TYPE_PAGE_ORDER0;
	xf->mem.id = 0;
	xf->dev_rx = NULL;
	get_page(pg);
	return xf;
}

/* Give back the reference of a frame the driver did not take. */
void bm_xdp_put(struct xdp_frame *xf)
{
	put_page(virt_to_page(xf));
}

/* Keep the working set one batch where the driver freed it already. */
void bm_xdp_rewind(struct bm_xdp_ring *r)
{
	if (r->size && r->pg[r->first] && bm_xdp_page_idle(r->pg[r->first]))
		r->pos = r->first;
	r->first = r->pos;
}

/*
 * Hand n frames to dev's driver, flushed: how many it took (the first
 * ones, which are now its own), or a negative errno if it takes none.
 */
int bm_xdp_xmit(struct net_device *dev, struct xdp_frame **xf, unsigned int n)
{
	int ret;

	/* drivers pick their XDP queue by CPU and kick NAPI: as in NAPI */
	local_bh_disable();
	rcu_read_lock();
	ret = dev->netdev_ops->ndo_xdp_xmit(dev, n, xf, XDP_XMIT_FLUSH);
	rcu_read_unlock();
	local_bh_enable();
	return ret;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Traffic management on a DUT egress of the N-port simulated DUT (RFC
 * 7640, SPEC 5.2): the stages a frame meets in Linux, in that order.
 *
 * Policer (DUT-POL, DUT-POL2): tc clsact egress, before the queue, at the
 * instant the frame reaches the egress.  A = F - 4 + overhead bytes;
 * MODEL-TB (bm_tb): one bucket, exceed = drop; with eir_bps, bucket C
 * then E, colour-blind: green passes as sent, yellow passes re-marked to
 * yellow_dscp, red is dropped.  An exceeding frame leaves a bucket as it
 * was (act_police).  color_aware: a frame that arrives with yellow_dscp
 * only meets E (RFC 4115; Linux's act_police has no such mode).  A frame
 * meets the policer of its outer VLAN id (flower vlan_id V, TM-POL-CAP-1)
 * or, when none has it (untagged, or no filter for its VLAN), the
 * port's catch-all policer (matchall at a lower priority).
 *
 * Shaper (DUT-TBF, DUT-TBFB): tbf at the root.  The head of the egress
 * queue leaves when the line is free and the bucket holds A = F - 4 +
 * overhead bytes; a frame whose A exceeds the bucket is dropped, as tbf
 * drops what its burst cannot carry.  The bucket is a bm_tb in seconds,
 * so that it charges what MODEL-TBF charges; its times are rounded up to
 * whole ticks.
 *
 * Scheduler (DUT-SP, DUT-ETS): prio or ets below the tbf.  A frame goes to
 * the band that lists its DSCP (as re-marked), else to the last band; each
 * band is a tail-drop pfifo (queue_frames) and/or bfifo (queue_bytes of
 * skb->len = F - 4).  Strict bands go first, in band order; the others
 * share what is left by deficit round robin with quanta in bytes of F - 4
 * (sch_ets: a band that becomes busy joins the round's tail with one
 * quantum; the front band sends while its head fits its deficit, else it
 * gains a quantum and goes to the tail).  The frame chosen is committed:
 * tbf peeks its child, so a frame of a higher band that arrives while the
 * head waits for tokens waits behind it.  The committed head has left its
 * band and no longer counts against the band's limits, as in Linux.
 *
 * Band shapers (an HTB tree, TM-SHP-CAP-2): a strict band may have its
 * own bucket (rate_bps, bucket_bytes, A = F - 4 + its overhead), an HTB
 * class whose rate is its ceil, so it never borrows; the tbf above, if
 * any, is the root class.  When the line frees, the head is taken from
 * the first strict band in order whose head frame its bucket holds
 * (ticks rounded up as the tbf's); a band without the tokens is passed
 * over, and the next band in priority order sends (the DRR bands after
 * the strict ones); when none can, the egress wakes at the first instant
 * a waiting band's bucket holds its head.  The band's tokens go when its
 * frame leaves for the line, as the root's do.  A frame whose A exceeds
 * its band's bucket could never leave and is tail-dropped on arrival.
 * In such a tree the root is a class, not a tbf peeking its child: a
 * head from a strict band that has to wait for the root's tokens goes
 * back to its band (sim_tm_unpop) and the choice is made again when the
 * root can send, so that a higher band whose tokens came meanwhile goes
 * first.  (A committed head would give the lower band every slot at
 * whose start the higher band was a little short: EF shaped to 70 and BE
 * to 50 under a root of 100 would get 66.7 / 33.3, not 70 / 30.)
 * Closed form for backlogged bands over a long run: band k sends
 * min(offered_k, rate_k, root - what the bands above it send).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bm_tm_model.h"
#include "sim_int.h"

/* Frames of one band, in order. */
struct band {
	struct sim_frame *v;
	size_t head, n, cap;		/* cap a power of two */
	uint64_t bytes;			/* F - 4 of each */
	int64_t deficit;
	bool strict, active;
	uint32_t quantum, limit_frames;
	uint64_t limit_bytes;
	bool shaped;			/* an HTB class: its own bucket */
	struct bm_tb tb;
	int over;
};

/* One policer and its buckets. */
struct sim_pol {
	bool two_rate, aware;
	struct bm_tb2 tb;
	int over;
	uint8_t yellow;
};

#define NO_POL	0xff		/* by_vlan[]: no policer of its own */

struct sim_tm {
	/* policers: the VLAN ones, then the catch-all (catch_all NO_POL:
	 * none); n_pol 0: no policing */
	unsigned int n_pol;
	struct sim_pol pol[BM_SIM_MAX_POLICERS + 1];
	uint8_t catch_all;
	uint8_t by_vlan[4096];
	/* shaper */
	bool shape;
	struct bm_tb shaper;
	int shp_over;
	/* scheduler */
	unsigned int n_bands;
	uint8_t band_of[64];
	struct band band[BM_SIM_MAX_BANDS];
	unsigned int drr[BM_SIM_MAX_BANDS], drr_head, drr_n;
	bool have_head;
	struct sim_frame head;
	bool htb;			/* a band is shaped: an HTB tree */
	int head_band;			/* the committed head's; -1: DRR */
	int sent_band;			/* of the head popped last, whose
					 * band's tokens sim_tm_take takes;
					 * -1 none */
};

/* Bytes a bucket charges for F with overhead o (at least one). */
static double charged(uint32_t size, int o)
{
	double a = (double)size - 4.0 + o;

	return a < 1.0 ? 1.0 : a;
}

/* Policer x of tm from po, both buckets full. */
static void pol_init(struct sim_pol *x, const struct bm_sim_policer *po)
{
	x->two_rate = po->eir_bps > 0;
	x->aware = x->two_rate && po->color_aware;
	bm_tb2_init(&x->tb, po->cir_bps, po->cbs_bytes, po->eir_bps,
		    po->ebs_bytes);
	x->over = po->overhead;
	x->yellow = (uint8_t)po->yellow_dscp;
}

/* The VLAN policers of port into tm; how many. */
static unsigned int vlan_policers(const struct bm_sim_params *p,
				  unsigned int port, struct sim_tm *tm)
{
	const struct bm_sim_vlan_policer *v;
	unsigned int i;

	for (i = 0; i < p->n_vlan_policers; i++) {
		v = &p->vlan_policers[i];
		if (v->port != port || tm->n_pol >= BM_SIM_MAX_POLICERS)
			continue;
		if (tm->by_vlan[v->vlan & 4095] != NO_POL)
			continue;	/* tc: the first filter that matches */
		tm->by_vlan[v->vlan & 4095] = (uint8_t)tm->n_pol;
		pol_init(&tm->pol[tm->n_pol++], &v->pol);
	}
	return tm->n_pol;
}

static bool port_has_vlan_policer(const struct bm_sim_params *p,
				  unsigned int port)
{
	unsigned int i;

	for (i = 0; i < p->n_vlan_policers; i++)
		if (p->vlan_policers[i].port == port)
			return true;
	return false;
}

int sim_tm_new(const struct bm_sim_params *p, unsigned int port,
	       struct sim_tm **out)
{
	const struct bm_sim_port *o = &p->ports[port];
	const struct bm_sim_policer *po = &o->policer;
	const struct bm_sim_sched *sc = &o->sched;
	struct sim_tm *tm;
	unsigned int b, d;

	*out = NULL;
	if (!(po->cir_bps > 0) && !(o->shaper.rate_bps > 0) &&
	    sc->kind == BM_SIM_SCHED_NONE && !port_has_vlan_policer(p, port))
		return 0;
	tm = calloc(1, sizeof(*tm));
	if (!tm)
		return -ENOMEM;
	memset(tm->by_vlan, NO_POL, sizeof(tm->by_vlan));
	tm->catch_all = NO_POL;
	vlan_policers(p, port, tm);
	if (po->cir_bps > 0) {
		tm->catch_all = (uint8_t)tm->n_pol;
		pol_init(&tm->pol[tm->n_pol++], po);
	}
	if (o->shaper.rate_bps > 0) {
		tm->shape = true;
		bm_tb_init(&tm->shaper, o->shaper.rate_bps,
			   o->shaper.bucket_bytes);
		tm->shp_over = o->shaper.overhead;
	}
	if (sc->kind != BM_SIM_SCHED_NONE) {
		tm->n_bands = sc->n_bands;
		for (d = 0; d < 64; d++)
			tm->band_of[d] = sc->band_of[d] < sc->n_bands ?
					 sc->band_of[d] :
					 (uint8_t)(sc->n_bands - 1);
		for (b = 0; b < sc->n_bands; b++) {
			const struct bm_sim_band *x = &sc->bands[b];
			struct band *y = &tm->band[b];

			y->strict = sc->kind == BM_SIM_SCHED_PRIO || x->strict;
			y->quantum = x->quantum;
			y->limit_frames = x->queue_frames;
			y->limit_bytes = x->queue_bytes;
			if (x->rate_bps > 0) {
				y->shaped = tm->htb = true;
				bm_tb_init(&y->tb, x->rate_bps,
					   x->bucket_bytes);
				y->over = x->overhead;
			}
		}
	}
	tm->sent_band = -1;
	*out = tm;
	return 0;
}

void sim_tm_free(struct sim_tm *tm)
{
	unsigned int b;

	if (!tm)
		return;
	for (b = 0; b < tm->n_bands; b++)
		free(tm->band[b].v);
	free(tm);
}

bool sim_tm_police(struct sim_tm *tm, int64_t t, struct sim_frame *f,
		   int vlan)
{
	struct sim_pol *x;
	unsigned int i;
	double a, ts;

	if (!tm || !tm->n_pol)
		return true;
	i = vlan >= 0 && vlan < 4096 ? tm->by_vlan[vlan] : NO_POL;
	if (i == NO_POL)
		i = tm->catch_all;
	if (i == NO_POL)
		return true;
	x = &tm->pol[i];
	a = charged(f->size, x->over);
	ts = (double)t / SIM_TPS;
	if (!x->two_rate)
		return bm_tb_offer(&x->tb.c, ts, a);
	switch (x->aware ? bm_tb2_offer_aware(&x->tb, ts, a,
					      f->dscp == x->yellow) :
	       bm_tb2_offer(&x->tb, ts, a)) {
	case BM_GREEN:
		return true;
	case BM_YELLOW:
		f->dscp = x->yellow;
		return true;
	case BM_RED:
		break;
	}
	return false;
}

bool sim_tm_shaped(const struct sim_tm *tm)
{
	return tm && tm->shape;
}

/* The first tick >= t at which bucket tb holds A bytes (INT64_MAX:
 * never). */
static int64_t tb_ready_tick(const struct bm_tb *tb, int64_t t, double A)
{
	double r = bm_tb_ready(tb, (double)t / SIM_TPS, A), x;

	if (!isfinite(r))
		return INT64_MAX;
	/* a hair past a tick from rounding seconds is that tick */
	x = ceil(r * SIM_TPS - 0.05);
	if (!(x < 9e18))
		return INT64_MAX;
	return (int64_t)x > t ? (int64_t)x : t;
}

int64_t sim_tm_ready(struct sim_tm *tm, int64_t t, uint32_t size)
{
	if (!sim_tm_shaped(tm))
		return t;
	return tb_ready_tick(&tm->shaper, t, charged(size, tm->shp_over));
}

void sim_tm_take(struct sim_tm *tm, int64_t t, uint32_t size)
{
	struct band *b;

	if (!tm)
		return;
	if (tm->shape)
		bm_tb_take(&tm->shaper, (double)t / SIM_TPS,
			   charged(size, tm->shp_over));
	if (tm->sent_band >= 0) {
		b = &tm->band[tm->sent_band];
		if (b->shaped)
			bm_tb_take(&b->tb, (double)t / SIM_TPS,
				   charged(size, b->over));
		tm->sent_band = -1;
	}
}

double sim_tm_bytes_per_tick(const struct sim_tm *tm)
{
	double r = sim_tm_shaped(tm) ? tm->shaper.rho : INFINITY;
	unsigned int b;

	/* a shaped band drains its backlog at its own, slower, pace */
	for (b = 0; tm && b < tm->n_bands; b++)
		if (tm->band[b].shaped)
			r = fmin(r, tm->band[b].tb.rho);
	return isfinite(r) ? r / SIM_TPS : 0;
}

bool sim_tm_scheduled(const struct sim_tm *tm)
{
	return tm && tm->n_bands;
}

/* skb->len: what a qdisc counts of F. */
static uint32_t skb_len(uint32_t size)
{
	return size > 4 ? size - 4 : 0;
}

int sim_tm_enqueue(struct sim_tm *tm, const struct sim_frame *f)
{
	struct band *b = &tm->band[tm->band_of[f->dscp & 63]];
	uint32_t len = skb_len(f->size);
	struct sim_frame *v;
	size_t i, cap;

	if (b->n >= b->limit_frames ||
	    (b->limit_bytes && b->bytes + len > b->limit_bytes))
		return 0;
	/* beyond its band's bucket: it could never leave */
	if (b->shaped && charged(f->size, b->over) > b->tb.b)
		return 0;
	if (b->n == b->cap) {
		cap = b->cap ? 2 * b->cap : 16;
		v = malloc(cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		for (i = 0; i < b->n; i++)
			v[i] = b->v[(b->head + i) & (b->cap - 1)];
		free(b->v);
		b->v = v;
		b->cap = cap;
		b->head = 0;
	}
	b->v[(b->head + b->n) & (b->cap - 1)] = *f;
	b->n++;
	b->bytes += len;
	if (!b->strict && !b->active) {
		b->active = true;
		b->deficit = b->quantum;
		tm->drr[(tm->drr_head + tm->drr_n) % BM_SIM_MAX_BANDS] =
			(unsigned int)(b - tm->band);
		tm->drr_n++;
	}
	return 1;
}

static struct sim_frame *band_front(struct band *b)
{
	return &b->v[b->head];
}

static void band_pop(struct band *b, struct sim_frame *f)
{
	*f = *band_front(b);
	b->head = (b->head + 1) & (b->cap - 1);
	b->n--;
	b->bytes -= skb_len(f->size);
}

/* Deficit round robin over the busy non-strict bands. */
static bool drr_next(struct sim_tm *tm, struct sim_frame *f)
{
	struct band *b;
	uint32_t len;

	while (tm->drr_n) {
		b = &tm->band[tm->drr[tm->drr_head]];
		len = skb_len(band_front(b)->size);
		if (len <= b->deficit) {
			b->deficit -= len;
			band_pop(b, f);
			if (!b->n) {
				b->active = false;
				tm->drr_head = (tm->drr_head + 1) %
					       BM_SIM_MAX_BANDS;
				tm->drr_n--;
			}
			return true;
		}
		b->deficit += b->quantum;
		tm->drr[(tm->drr_head + tm->drr_n) % BM_SIM_MAX_BANDS] =
			tm->drr[tm->drr_head];
		tm->drr_head = (tm->drr_head + 1) % BM_SIM_MAX_BANDS;
	}
	return false;
}

/* The tick from which band b's bucket holds its head (t: unshaped). */
static int64_t band_ready(struct band *b, int64_t t)
{
	if (!b->shaped)
		return t;
	return tb_ready_tick(&b->tb, t, charged(band_front(b)->size, b->over));
}

bool sim_tm_head(struct sim_tm *tm, int64_t t, struct sim_frame *f)
{
	unsigned int b;

	if (!tm->have_head) {
		for (b = 0; b < tm->n_bands; b++) {
			struct band *x = &tm->band[b];

			/* an HTB class without tokens is passed over */
			if (x->strict && x->n && band_ready(x, t) <= t) {
				band_pop(x, &tm->head);
				break;
			}
		}
		tm->head_band = (int)b;
		if (b == tm->n_bands) {
			if (!drr_next(tm, &tm->head))
				return false;
			tm->head_band = -1;	/* unshaped */
		}
		tm->have_head = true;
	}
	*f = tm->head;
	return true;
}

int64_t sim_tm_wake(struct sim_tm *tm, int64_t t)
{
	int64_t w = INT64_MAX, r;
	unsigned int b;

	for (b = 0; b < tm->n_bands; b++) {
		struct band *x = &tm->band[b];

		if (!x->shaped || !x->n)
			continue;
		r = band_ready(x, t);
		if (r < w)
			w = r;
	}
	return w;
}

void sim_tm_pop(struct sim_tm *tm)
{
	tm->have_head = false;
	tm->sent_band = tm->head_band;
}

bool sim_tm_unpop(struct sim_tm *tm)
{
	struct band *b;

	if (!tm->htb || !tm->have_head || tm->head_band < 0)
		return false;
	/* back to the front of its band; a pop freed the slot before it
	 * (a growth since put the front at 0 and left cap - 1 free) */
	b = &tm->band[tm->head_band];
	b->head = (b->head + b->cap - 1) & (b->cap - 1);
	b->v[b->head] = tm->head;
	b->n++;
	b->bytes += skb_len(tm->head.size);
	tm->have_head = false;
	return true;
}

uint64_t sim_tm_capacity(const struct sim_tm *tm)
{
	uint64_t n = 1, x;
	unsigned int b;

	for (b = 0; b < tm->n_bands; b++) {
		x = tm->band[b].limit_frames;
		if (tm->band[b].limit_bytes && tm->band[b].limit_bytes / 60 < x)
			x = tm->band[b].limit_bytes / 60;
		n += x;
	}
	return n;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * MODEL-TB (SPEC 5.3) of a policer fed with the actual tx times of a
 * step's bursts, as the SPEC's acceptance computes what a policer lets
 * through: a generator's spacing (refill during a burst, a late first
 * frame) is in the times, so the prediction is the DUT's for the traffic
 * that was sent, not for the traffic that was asked for.  The same walk
 * gives each burst's achieved intensity (REQ-TM-8: bursts of several
 * customers on one port may share the line).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "bm_tm_model.h"
#include "rfc7640_int.h"

/* One logged frame of the flow. */
struct mframe {
	double t;
	uint64_t burst;
	uint32_t size;			/* F */
	bool yellow;			/* sent pre-marked */
};

static int by_time(const void *a, const void *b)
{
	const struct mframe *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	/* a piece that follows another in a burst starts after it */
	return x->burst < y->burst ? -1 : x->burst > y->burst;
}

/* The bursts every piece's tx log holds whole. */
static uint64_t whole_bursts(const struct bm_traffic_result *r,
			     const struct tm_flow *f)
{
	uint64_t nb = f->bursts, n;
	unsigned int i;

	for (i = 0; i < f->n; i++) {
		if (!f->per_burst[i])
			return 0;
		n = r->streams[f->first + i].n_tx_log / f->per_burst[i];
		if (n < nb)
			nb = n;
	}
	return nb;
}

/* The frames of the first nb bursts into v (their number in *n). */
static void gather(const struct bm_traffic *t, const struct bm_traffic_result *r,
		   const struct tm_flow *f, unsigned int yellow_from,
		   uint64_t nb, struct mframe *v, size_t *n)
{
	unsigned int i;
	uint64_t j, per;

	*n = 0;
	for (i = 0; i < f->n; i++) {
		const struct bm_stream_spec *ss = &t->streams[f->first + i];
		const struct bm_stream_result *s = &r->streams[f->first + i];

		per = f->per_burst[i];
		for (j = 0; j < nb * per; j++) {
			bool last = j % per == per - 1 && ss->burst_last_size;

			v[(*n)++] = (struct mframe){
				.t = s->tx_log_s[j], .burst = j / per,
				.size = last ? ss->burst_last_size :
					ss->frame_size,
				.yellow = i >= yellow_from };
		}
	}
}

int tm_pol_model(const struct bm_traffic *t, const struct bm_traffic_result *r,
		 const struct tm_flow *f, unsigned int yellow_from,
		 enum tm_acct acct, const struct tm_pol_pair *pp,
		 double line_bps, struct tm_model *o)
{
	double *pass = NULL, *yel = NULL, *first = NULL, *end = NULL;
	double *wire = NULL, a, sum = 0, isum = 0, x;
	uint64_t nb = whole_bursts(r, f), total = 0, b;
	bool two = pp->eir_bps > 0 && pp->ebs > 0;
	struct mframe *v = NULL;
	enum bm_colour c;
	struct bm_tb2 tb;
	unsigned int i;
	size_t n, k;
	int ret = 0;

	*o = (struct tm_model){ .pass_min = NAN, .pass_mean = NAN,
				.yellow_mean = NAN, .intensity_min_pct = NAN,
				.intensity_mean_pct = NAN };
	if (!nb)
		return 0;
	for (i = 0; i < f->n; i++)
		total += nb * f->per_burst[i];
	v = malloc(total * sizeof(*v));
	pass = calloc(nb, sizeof(*pass));
	yel = calloc(nb, sizeof(*yel));
	first = calloc(nb, sizeof(*first));
	end = calloc(nb, sizeof(*end));
	wire = calloc(nb, sizeof(*wire));
	if (!v || !pass || !yel || !first || !end || !wire) {
		ret = -ENOMEM;
		goto out;
	}
	gather(t, r, f, yellow_from, nb, v, &n);
	qsort(v, n, sizeof(*v), by_time);
	bm_tb2_init(&tb, pp->cir_bps, (double)pp->cbs, two ? pp->eir_bps : 0,
		    two ? (double)pp->ebs : 0);
	for (b = 0; b < nb; b++)
		first[b] = INFINITY;
	for (k = 0; k < n; k++) {
		b = v[k].burst;
		a = tm_acct_bytes(v[k].size, acct);
		if (!two)
			c = bm_tb_offer(&tb.c, v[k].t, a) ? BM_GREEN : BM_RED;
		else if (pp->aware)
			c = bm_tb2_offer_aware(&tb, v[k].t, a, v[k].yellow);
		else
			c = bm_tb2_offer(&tb, v[k].t, a);
		if (c != BM_RED)
			pass[b] += a;
		if (c == BM_YELLOW)
			yel[b] += a;
		if (c == BM_RED)
			o->red_frames++;
		x = (v[k].size + 20.0) * 8.0 / line_bps;
		first[b] = fmin(first[b], v[k].t);
		end[b] = fmax(end[b], v[k].t + x);
		wire[b] += x;
	}
	o->bursts = nb;
	o->yellow_mean = 0;
	for (b = 0; b < nb; b++) {
		o->pass_min = b ? fmin(o->pass_min, pass[b]) : pass[b];
		sum += pass[b];
		o->yellow_mean += yel[b] / (double)nb;
		/* back to back at the line: the wire time is the span */
		x = fmin(100.0, 100.0 * wire[b] / (end[b] - first[b]));
		o->intensity_min_pct = b ? fmin(o->intensity_min_pct, x) : x;
		isum += x;
	}
	o->pass_mean = sum / (double)nb;
	o->intensity_mean_pct = isum / (double)nb;
out:
	free(v);
	free(pass);
	free(yel);
	free(first);
	free(end);
	free(wire);
	return ret;
}

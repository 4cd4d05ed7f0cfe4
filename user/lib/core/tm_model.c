// SPDX-License-Identifier: GPL-2.0
/* MODEL-TB and MODEL-TBF of SPEC 5.3 (see bm_tm_model.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "bm_tm_model.h"

/* A quotient that is an integer up to rounding counts as that integer:
 * 64,000 B of bucket is exactly so many frames, not one fewer. */
#define FLOOR_EPS	1e-9

void bm_tb_init(struct bm_tb *tb, double rate_bps, double bucket_bytes)
{
	tb->rho = rate_bps / 8.0;
	tb->b = bucket_bytes;
	tb->tokens = bucket_bytes;
	tb->t_c = 0;
}

double bm_tb_tokens(const struct bm_tb *tb, double t_s)
{
	double dt = t_s > tb->t_c ? t_s - tb->t_c : 0;

	return fmin(tb->b, tb->tokens + tb->rho * dt);
}

bool bm_tb_offer(struct bm_tb *tb, double t_s, double A_bytes)
{
	double t = bm_tb_tokens(tb, t_s);

	if (t < A_bytes)
		return false;
	tb->tokens = t - A_bytes;
	if (t_s > tb->t_c)
		tb->t_c = t_s;
	return true;
}

double bm_tb_ready(const struct bm_tb *tb, double t_s, double A_bytes)
{
	double t = bm_tb_tokens(tb, t_s), from = fmax(t_s, tb->t_c);

	if (t >= A_bytes)
		return t_s;
	if (A_bytes > tb->b || !(tb->rho > 0))
		return INFINITY;
	/* tokens grow from their value at t_c, or at t_s if that is later */
	return from + (A_bytes - t) / tb->rho;
}

void bm_tb_take(struct bm_tb *tb, double t_s, double A_bytes)
{
	tb->tokens = bm_tb_tokens(tb, t_s) - A_bytes;
	if (t_s > tb->t_c)
		tb->t_c = t_s;
}

void bm_tb2_init(struct bm_tb2 *m, double cir_bps, double cbs_bytes,
		 double eir_bps, double ebs_bytes)
{
	bm_tb_init(&m->c, cir_bps, cbs_bytes);
	bm_tb_init(&m->e, eir_bps, ebs_bytes);
}

enum bm_colour bm_tb2_offer(struct bm_tb2 *m, double t_s, double A_bytes)
{
	if (bm_tb_offer(&m->c, t_s, A_bytes))
		return BM_GREEN;
	if (bm_tb_offer(&m->e, t_s, A_bytes))
		return BM_YELLOW;
	return BM_RED;
}

enum bm_colour bm_tb2_offer_aware(struct bm_tb2 *m, double t_s,
				  double A_bytes, bool pre_yellow)
{
	/* RFC 4115 colour-aware: a yellow frame never borrows C's tokens */
	if (pre_yellow)
		return bm_tb_offer(&m->e, t_s, A_bytes) ? BM_YELLOW : BM_RED;
	return bm_tb2_offer(m, t_s, A_bytes);
}

uint64_t bm_tb_burst_max(double b, double A, double rho, double tau)
{
	double gain = rho * tau, n;

	if (!(A > 0) || A > b)
		return 0;
	if (gain >= A)
		return UINT64_MAX;
	n = floor((b - A) / (A - gain) + FLOOR_EPS) + 1;
	return n >= 1.8e19 ? UINT64_MAX : (uint64_t)n;
}

/* Does a burst of n frames pass MODEL-TBF's closed form? */
static bool tbf_fits(double b, double A, double gain, uint64_t Q, uint64_t n)
{
	double room = floor((b + gain * (double)(n - 1)) / A + FLOOR_EPS);

	return (double)n <= (double)Q + room;
}

uint64_t bm_tbf_burst_max(double b, double A, double rho, double tau,
			  uint64_t Q)
{
	double gain = rho * tau, up;
	uint64_t lo, hi, mid;

	if (!(A > 0) || A > b)
		return 0;
	if (gain >= A)
		return UINT64_MAX;
	/* Above the real-valued bound nothing fits; bisect below it, where
	 * fitting is monotone (one frame more adds at most one of room). */
	up = floor(((double)Q + (b - gain) / A) / (1.0 - gain / A)) + 2;
	if (!(up < 9e18))
		return UINT64_MAX;
	lo = 1;				/* fits: A <= b */
	hi = (uint64_t)up;		/* does not */
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (tbf_fits(b, A, gain, Q, mid))
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

static bool cfg_ok(const struct bm_tbf_cfg *c)
{
	return c->rate_bps > 0 && isfinite(c->rate_bps) &&
	       c->bucket_bytes > 0 && isfinite(c->bucket_bytes) &&
	       c->line_bps >= 0 && isfinite(c->line_bps);
}

long bm_tbf_run(const struct bm_tbf_cfg *cfg, struct bm_tbf_frame *f,
		size_t n)
{
	size_t *wait, head = 0, tail = 0, i;
	double line_free = 0, start, prev_t = -INFINITY;
	uint64_t qbytes = 0;
	struct bm_tb tb;
	long dropped = 0;

	if (!cfg_ok(cfg))
		return -EINVAL;
	for (i = 0; i < n; i++) {
		if (!(f[i].t_s >= prev_t) || !isfinite(f[i].t_s) ||
		    !(f[i].a_bytes > 0))
			return -EINVAL;
		prev_t = f[i].t_s;
	}
	/* the accepted frames in order; those from head on may still wait */
	wait = malloc((n ? n : 1) * sizeof(*wait));
	if (!wait)
		return -ENOMEM;
	bm_tb_init(&tb, cfg->rate_bps, cfg->bucket_bytes);
	for (i = 0; i < n; i++) {
		struct bm_tbf_frame *x = &f[i];

		/* departures at or before this instant have gone */
		while (head < tail && f[wait[head]].dep_s <= x->t_s)
			qbytes -= f[wait[head++]].q_bytes;
		x->dep_s = -1;
		if (x->a_bytes > cfg->bucket_bytes) {
			dropped++;
			continue;
		}
		start = fmax(x->t_s, line_free);
		start = fmax(start, bm_tb_ready(&tb, start, x->a_bytes));
		if (start > x->t_s &&
		    ((uint64_t)(tail - head) >= cfg->limit_frames ||
		     (cfg->limit_bytes &&
		      qbytes + x->q_bytes > cfg->limit_bytes))) {
			dropped++;
			continue;
		}
		bm_tb_take(&tb, start, x->a_bytes);
		x->dep_s = start;
		if (cfg->line_bps > 0)
			line_free = start + x->wire_bytes * 8.0 /
					    cfg->line_bps;
		if (start > x->t_s) {
			wait[tail++] = i;
			qbytes += x->q_bytes;
		}
	}
	free(wait);
	return dropped;
}

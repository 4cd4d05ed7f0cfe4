// SPDX-License-Identifier: GPL-2.0
/*
 * The N-port model's containers (sim_traffic.c): the rings that hold the
 * frames of egress queues and ingress FIFOs, the one event heap over the
 * ports, and each tester port's heap of streams.  Apart from the model
 * because both its sides (sim_tester.c, sim_dut.c) and its run loop use
 * them, and they know nothing of frames' meaning: order and bounds only.
 */
#include <errno.h>
#include <stdlib.h>

#include "sim_int.h"

void sim_fail(struct tsim *S, int e)
{
	if (!S->err)
		S->err = e;
}

void sim_ring_push(struct tsim *S, struct ring *r, struct slot x)
{
	struct slot *v;
	size_t i, cap;

	if (S->queued >= MAX_QUEUED) {
		sim_fail(S, -E2BIG);
		return;
	}
	if (r->n == r->cap) {
		cap = r->cap ? 2 * r->cap : 16;
		v = malloc(cap * sizeof(*v));
		if (!v) {
			sim_fail(S, -ENOMEM);
			return;
		}
		for (i = 0; i < r->n; i++)
			v[i] = r->v[(r->head + i) & (r->cap - 1)];
		free(r->v);
		r->v = v;
		r->cap = cap;
		r->head = 0;
	}
	r->v[(r->head + r->n) & (r->cap - 1)] = x;
	r->n++;
	S->queued++;
}

struct slot *sim_ring_front(struct ring *r)
{
	return &r->v[r->head];
}

void sim_ring_pop(struct tsim *S, struct ring *r)
{
	r->head = (r->head + 1) & (r->cap - 1);
	r->n--;
	S->queued--;
}

static bool ev_before(const struct ev *a, const struct ev *b)
{
	if (a->t != b->t)
		return a->t < b->t;
	if (a->type != b->type)
		return a->type < b->type;
	if (a->tie != b->tie)
		return a->tie < b->tie;
	return a->idx < b->idx;
}

void sim_ev_push(struct tsim *S, int64_t t, unsigned int type,
		 int64_t tie, unsigned int idx)
{
	struct ev x = { t, tie, type, idx }, *v;
	size_t i, up;

	if (S->nev == S->cap_ev) {
		v = realloc(S->ev, 2 * S->cap_ev * sizeof(*v));
		if (!v) {
			sim_fail(S, -ENOMEM);
			return;
		}
		S->ev = v;
		S->cap_ev *= 2;
	}
	for (i = S->nev++; i; i = up) {
		up = (i - 1) / 2;
		if (!ev_before(&x, &S->ev[up]))
			break;
		S->ev[i] = S->ev[up];
	}
	S->ev[i] = x;
}

struct ev sim_ev_pop(struct tsim *S)
{
	struct ev top = S->ev[0], x = S->ev[--S->nev];
	size_t i = 0, c;

	while ((c = 2 * i + 1) < S->nev) {
		if (c + 1 < S->nev && ev_before(&S->ev[c + 1], &S->ev[c]))
			c++;
		if (!ev_before(&S->ev[c], &x))
			break;
		S->ev[i] = S->ev[c];
		i = c;
	}
	if (S->nev)
		S->ev[i] = x;
	return top;
}

bool sim_sh_before(const struct tsim *S, unsigned int a, unsigned int b)
{
	if (S->s[a].next != S->s[b].next)
		return S->s[a].next < S->s[b].next;
	return a < b;
}

/* Restore the stream heap of P after its root's key grew. */
void sim_sh_down(const struct tsim *S, struct tport *P)
{
	unsigned int i = 0, c, x = P->sh[0];

	while ((c = 2 * i + 1) < P->nsh) {
		if (c + 1 < P->nsh && sim_sh_before(S, P->sh[c + 1], P->sh[c]))
			c++;
		if (!sim_sh_before(S, P->sh[c], x))
			break;
		P->sh[i] = P->sh[c];
		i = c;
	}
	P->sh[i] = x;
}

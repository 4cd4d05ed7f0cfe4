// SPDX-License-Identifier: GPL-2.0
/*
 * The strategies of the CSIT-identical selection
 * (mlr9971_csit_strategy.h) and the targeted expander whose width their
 * extensions step by, as FD.io CSIT's MLRsearch (commit 78e52b9c8a) has
 * them; RFC 9971 leaves the choice of loads to the implementation
 * (§4.9.2).  Every comparison of loads is of their values, of widths
 * their relative ones (csit_wcmp), as CSIT compares them.
 */
#include <errno.h>

#include "mlr9971_csit_strategy.h"

/* Widths saturate here: any width above max_int acts the same */
#define W_CAP	((int64_t)1 << 60)

static int64_t wmul(int64_t w, unsigned int k)
{
	return w > W_CAP / (int64_t)k ? W_CAP : w * (int64_t)k;
}

/* Is a trial at load of no use to t: not inside the bounds, or the
 * bounds already within t's width. */
static bool not_worth(const struct csit_target *t, const struct csit_bounds *b,
		      struct csit_load load)
{
	if (csit_has(b->clo) && b->clo.f >= load.f)
		return true;
	if (csit_has(b->chi) && b->chi.f <= load.f)
		return true;
	return csit_has(b->clo) && csit_has(b->chi) &&
	       (double)(b->chi.i - b->clo.i) / (double)t->width <= 1.0;
}

/* The targeted expander: its next width after the first interval. */
void csit_expander_init(struct csit_search *cs, struct csit_selector *sel)
{
	const struct csit_target *t = csit_target_of(cs, sel);
	int64_t w = t->width;

	if (csit_has(sel->ilo) && csit_has(sel->ihi) &&
	    csit_wcmp(&cs->s, sel->ihi.i - sel->ilo.i, w) > 0)
		w = sel->ihi.i - sel->ilo.i;
	sel->next_width = wmul(w, cs->coef);
	sel->grow_lo = sel->grow_hi = false;
}

void csit_expander_grow(struct csit_search *cs, struct csit_selector *sel)
{
	sel->next_width = wmul(sel->next_width, cs->coef);
	cs->global_width = sel->next_width;
}

/* After a halving or bisection of width last: the next extension starts
 * from it (at least the target's width), times the coefficient. */
static void expander_limit(struct csit_search *cs, struct csit_selector *sel,
			   int64_t last)
{
	const struct csit_target *t = csit_target_of(cs, sel);

	if (csit_wcmp(&cs->s, t->width, last) > 0)
		last = t->width;
	sel->next_width = wmul(last, cs->coef);
}

static int64_t expander_width(const struct csit_search *cs,
			      const struct csit_selector *sel)
{
	return csit_wcmp(&cs->s, sel->next_width, cs->global_width) > 0 ?
	       sel->next_width : cs->global_width;
}

/* The first interval halved when it is one to two widths wide. */
static int nominate_halve(struct csit_search *cs, struct csit_selector *sel,
			  struct csit_load *load, int64_t *width)
{
	const struct csit_target *t = csit_target_of(cs, sel);
	double wig;
	int ret;

	if (!csit_has(sel->ilo) || !csit_has(sel->ihi))
		return 0;
	wig = (double)(sel->ihi.f < sel->ilo.f ? sel->ilo.i - sel->ihi.i :
			sel->ihi.i - sel->ilo.i) / (double)t->width;
	if (wig > 2.0 || wig <= 1.0)
		return 0;
	ret = csit_middle(&cs->s, sel->ilo, sel->ihi, t->width, load);
	if (ret || not_worth(t, &sel->b, *load)) {
		*load = CSIT_NONE;
		return ret;
	}
	expander_limit(cs, sel, t->width);
	*width = t->width;
	return 0;
}

/* An end of the first interval measured again with this target. */
static void nominate_refine(struct csit_search *cs, struct csit_selector *sel,
			    struct csit_load end, struct csit_load *load,
			    int64_t *width)
{
	const struct csit_target *t = csit_target_of(cs, sel);

	if (!csit_has(end) || not_worth(t, &sel->b, end))
		return;
	expander_limit(cs, sel, t->width);
	*load = end;
	*width = t->width;
}

/* Below an upper bound with no lower one, or above a lower bound with
 * no upper one (dir -1, +1), by the expander's width. */
static int nominate_extend(struct csit_search *cs, struct csit_selector *sel,
			   int dir, struct csit_load *load, int64_t *width)
{
	const struct csit_target *t = csit_target_of(cs, sel);
	const struct csit_bounds *b = &sel->b;
	int64_t w;
	int ret;

	if (dir < 0 && (csit_has(b->clo) || !csit_has(b->chi) ||
			b->chi.f <= cs->s.min))
		return 0;
	if (dir > 0 && (csit_has(b->chi) || !csit_has(b->clo) ||
			b->clo.f >= cs->s.max))
		return 0;
	w = expander_width(cs, sel);
	ret = csit_handle(&cs->s, csit_at(&cs->s, dir < 0 ? b->chi.i - w :
						       b->clo.i + w),
			  t->width, b->clo, b->chi, load);
	if (ret)
		return ret;
	/* CSIT cannot compare a load that is none: its internal error */
	if (!csit_has(*load))
		return -EPROTO;
	if (not_worth(t, b, *load)) {
		*load = CSIT_NONE;
		return 0;
	}
	*width = w;
	return 0;
}

/* Inside a bracket, the extension from the upper (dir -1) or lower end
 * when it lands between the bisection point and that end of the first
 * interval. */
static int bisect_extend(struct csit_search *cs, struct csit_selector *sel,
			 int dir, struct csit_load mid, struct csit_load *load,
			 int64_t *width)
{
	const struct csit_target *t = csit_target_of(cs, sel);
	const struct csit_bounds *b = &sel->b;
	struct csit_load end = dir < 0 ? sel->ihi : sel->ilo;
	int64_t w;
	int ret;

	*load = CSIT_NONE;
	if (!csit_has(end) || (dir < 0 ? mid.f >= end.f : mid.f <= end.f))
		return 0;
	w = expander_width(cs, sel);
	ret = csit_handle(&cs->s, csit_at(&cs->s, dir < 0 ? b->chi.i - w :
						       b->clo.i + w),
			  t->width, b->clo, b->chi, load);
	if (ret || !csit_has(*load))
		return ret;
	if (dir < 0 ? load->f <= mid.f || load->f >= end.f :
		      load->f >= mid.f || load->f <= end.f) {
		*load = CSIT_NONE;
		return 0;
	}
	if (not_worth(t, b, *load))
		return -EPROTO;
	*width = w;
	return 0;
}

static int nominate_bisect(struct csit_search *cs, struct csit_selector *sel,
			   struct csit_load *load, int64_t *width)
{
	const struct csit_target *t = csit_target_of(cs, sel);
	const struct csit_bounds *b = &sel->b;
	struct csit_load mid;
	int64_t wl, wh;
	int ret, dir;

	if (!csit_has(b->clo) || b->clo.f >= cs->s.max ||
	    !csit_has(b->chi) || b->chi.f <= cs->s.min ||
	    (double)(b->chi.i - b->clo.i) / (double)t->width <= 1.0)
		return 0;
	ret = csit_middle(&cs->s, b->clo, b->chi, t->width, &mid);
	if (ret)
		return ret;
	for (dir = -1; dir <= 1; dir += 2) {
		ret = bisect_extend(cs, sel, dir, mid, load, width);
		if (ret || csit_has(*load)) {
			sel->grow_lo = dir > 0;
			sel->grow_hi = dir < 0;
			return ret;
		}
	}
	if (not_worth(t, b, mid))
		return 0;
	sel->grow_lo = sel->grow_hi = false;
	wl = mid.i - b->clo.i;
	wh = b->chi.i - mid.i;
	*width = csit_wcmp(&cs->s, wh, wl) < 0 ? wh : wl;
	expander_limit(cs, sel, *width);
	*load = mid;
	return 0;
}

int csit_nominate_by(struct csit_search *cs, struct csit_selector *sel,
		     enum csit_strategy k, struct csit_load *load,
		     int64_t *width)
{
	*load = CSIT_NONE;
	switch (k) {
	case CSIT_HALVE:
		return nominate_halve(cs, sel, load, width);
	case CSIT_REFINE_LO:
		nominate_refine(cs, sel, sel->ilo, load, width);
		return 0;
	case CSIT_REFINE_HI:
		nominate_refine(cs, sel, sel->ihi, load, width);
		return 0;
	case CSIT_EXTEND_LO:
		return nominate_extend(cs, sel, -1, load, width);
	case CSIT_EXTEND_HI:
		return nominate_extend(cs, sel, 1, load, width);
	default:
		return nominate_bisect(cs, sel, load, width);
	}
}


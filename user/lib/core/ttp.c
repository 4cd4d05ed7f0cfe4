// SPDX-License-Identifier: GPL-2.0
/*
 * The TCP test patterns of TM-TTP (see bm_tcp.h): App B's parameter
 * tables and the execution models that turn them into scripts.
 *
 * KB and MB are 1000 and 10^6 bytes, as everywhere in the draft but its
 * SMB example (AMB-02): a 10 MB file in 64 KB blocks is 156 blocks and
 * one of 16,000 B, not the draft's 160.
 *
 * Random mode (AMB-40) draws, in this order, for one execution:
 *  - web: Nd, Tcp, Tsp, then Sm and one Se per embedded object in step
 *    order; the request size is no App B parameter and is not drawn;
 *  - interactive and SMB: Nc, Ns, Tcp, Tsp, then in step order Su, one
 *    Scm per client message, one Srs per server message, Sd; SMB's block
 *    phase draws a read's Scm requests or a write's Srs acks the same way
 *    and keeps Sb (App B gives it no Ave) at block_bytes.
 * Tcp and Tsp are drawn once as totals and split equally, as the fixed
 * mode splits its Ave, so that "processing time distributed across all
 * messages" means the same in both modes.  The order is part of what a
 * recorded seed means: changing it changes every random script.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "bm_tcp.h"

const char *const bm_ttp_names[] = {
	[BM_TTP_BULK] = "bulk",
	[BM_TTP_MICRO] = "micro",
	[BM_TTP_WEB_S] = "web-s",
	[BM_TTP_WEB_C] = "web-c",
	[BM_TTP_BIZ_S] = "biz-s",
	[BM_TTP_BIZ_C] = "biz-c",
	[BM_TTP_ECOM] = "ecom",
	[BM_TTP_EMAIL] = "email",
	[BM_TTP_SMB_READ] = "smb-read",
	[BM_TTP_SMB_WRITE] = "smb-write",
	[BM_TTP_N] = NULL,
};

_Static_assert(sizeof(bm_ttp_names) / sizeof(bm_ttp_names[0]) ==
	       BM_TTP_N + 1, "a name for every pattern");

const char *bm_ttp_name(enum bm_ttp t)
{
	return (unsigned int)t < BM_TTP_N ? bm_ttp_names[t] : "?";
}

bool bm_ttp_is_script(enum bm_ttp t)
{
	return (unsigned int)t >= BM_TTP_WEB_S && (unsigned int)t < BM_TTP_N;
}

/* --- App B ------------------------------------------------------------ */

struct prange {
	double ave, min, max;
};

struct web_tab {
	struct prange sm, se, nd, tcp, tsp;
};

struct ia_tab {
	struct prange scm, nc, tcp, srs, ns, tsp, su, sd;
	bool updown;		/* has Su and Sd (eCommerce and SMB: N/A) */
};

static const struct web_tab web_simple = {
	.sm = { 10000, 100, 500000 },
	.se = { 7000, 50, 350000 },
	.nd = { 5, 2, 10 },
	.tcp = { 3, 1, 10 },
	.tsp = { 5, 1, 15 },
};

static const struct web_tab web_complex = {
	.sm = { 300000, 50000, 2000000 },
	.se = { 10000, 100, 1000000 },
	.nd = { 25, 10, 50 },
	.tcp = { 10, 3, 30 },
	.tsp = { 8, 2, 30 },
};

static const struct ia_tab biz_simple = {
	.scm = { 450, 100, 1500 },
	.nc = { 10, 5, 25 },
	.tcp = { 10, 3, 30 },
	.srs = { 2000, 500, 100000 },
	.ns = { 50, 10, 200 },
	.tsp = { 0.5, 0.1, 5 },
	.su = { 50000, 2000, 200000 },
	.sd = { 50000, 2000, 200000 },
	.updown = true,
};

static const struct ia_tab biz_complex = {
	.scm = { 2000, 500, 100000 },
	.nc = { 100, 50, 250 },
	.tcp = { 30, 3, 60 },
	.srs = { 5000, 1000, 1000000 },
	.ns = { 200, 25, 1000 },
	.tsp = { 1, 0.5, 20 },
	.su = { 100000, 10000, 2000000 },
	.sd = { 100000, 10000, 2000000 },
	.updown = true,
};

static const struct ia_tab ecommerce = {
	.scm = { 1000, 100, 50000 },
	.nc = { 20, 10, 100 },
	.tcp = { 15, 5, 120 },
	.srs = { 8000, 100, 50000 },
	.ns = { 100, 15, 500 },
	.tsp = { 2, 1, 10 },
};

static const struct ia_tab email = {
	.scm = { 200, 100, 1000 },
	.nc = { 10, 5, 25 },
	.tcp = { 5, 3, 45 },
	.srs = { 200, 150, 750 },
	.ns = { 15, 5, 40 },
	.tsp = { 4, 0.5, 15 },
	.su = { 100000, 20000, 10000000 },
	.sd = { 100000, 20000, 10000000 },
	.updown = true,
};

/* SMB's Tcp maximum "2" has no unit in the draft: 2 ms (AMB-50). */
static const struct ia_tab smb = {
	.scm = { 450, 100, 1500 },
	.nc = { 10, 5, 25 },
	.tcp = { 0.001, 0.0005, 0.002 },
	.srs = { 2000, 500, 100000 },
	.ns = { 10, 10, 200 },
	.tsp = { 0.001, 0.0005, 0.002 },
};

#define WEB_REQUEST_BYTES	300		/* [PROPOSED] */
#define SMB_FILE_BYTES		10000000ULL	/* 10 MB */
#define SMB_BLOCK_BYTES		64000		/* 64 KB */
/* A script is held whole in memory, two steps a block: a million blocks
 * (64 GB in 64 KB blocks) is 48 MB of steps, and more is a mistake. */
#define SMB_MAX_BLOCKS		1000000ULL

/* AMB-40 [PROPOSED] */
#define SIGMA_LOG		1.0

/* --- the PRNG ---------------------------------------------------------- */

/*
 * xoshiro256** seeded by splitmix64 (Blackman and Vigna), normals by
 * Marsaglia's polar method: the same integers on every machine, and no
 * state outside the build that uses it.
 */
struct rng {
	uint64_t s[4];
	double spare;
	bool has_spare;
};

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static void rng_seed(struct rng *r, uint64_t seed)
{
	unsigned int i;

	/* splitmix64 is a bijection of its counter, so the four words
	 * are never all zero, the one state xoshiro cannot leave */
	for (i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
	r->has_spare = false;
	r->spare = 0;
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static uint64_t rng_next(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t res = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return res;
}

/* Uniform in [-1, 1), on the 2^-52 grid: exact in any double. */
static double rng_sym(struct rng *r)
{
	return (double)(rng_next(r) >> 11) * 0x1p-52 - 1.0;
}

static double rng_gauss(struct rng *r)
{
	double u, v, q, f;

	if (r->has_spare) {
		r->has_spare = false;
		return r->spare;
	}
	do {
		u = rng_sym(r);
		v = rng_sym(r);
		q = u * u + v * v;
	} while (q >= 1.0 || q == 0.0);
	f = sqrt(-2.0 * log(q) / q);
	r->spare = v * f;
	r->has_spare = true;
	return u * f;
}

/* --- drawing ----------------------------------------------------------- */

struct drawer {
	bool random;
	struct rng rng;
};

/* App B's Ave, or a log-normal draw whose mean is Ave (mu = ln Ave -
 * sigma^2 / 2), clipped to [Min, Max]. */
static double pick(struct drawer *d, const struct prange *p)
{
	double x;

	if (!d->random)
		return p->ave;
	x = exp(log(p->ave) - 0.5 * SIGMA_LOG * SIGMA_LOG +
		SIGMA_LOG * rng_gauss(&d->rng));
	return fmin(fmax(x, p->min), p->max);
}

/* Counts and sizes are whole; Min and Max are, so rounding keeps the
 * clip.  A libm that differs from another in the last bit of exp or log,
 * or a compiler that fuses u * u + v * v, changes a size only at a tie of
 * the rounding, a chance of about 2^-40 a draw. */
static uint64_t pick_n(struct drawer *d, const struct prange *p)
{
	return (uint64_t)llround(pick(d, p));
}

/* Times in whole microseconds: what a wait is then divided by is an
 * integer, and IEEE division rounds alike everywhere, so every wait_s
 * of a seed is the same double on every machine (ties aside). */
static double pick_s(struct drawer *d, const struct prange *p)
{
	return round(pick(d, p) * 1e6) / 1e6;
}

static void add(struct bm_ttp_script *s, bool from_server, double wait_s,
		uint64_t bytes)
{
	s->v[s->n++] = (struct bm_ttp_step){
		.from_server = from_server,
		.wait_s = wait_s,
		.bytes = bytes,
	};
}

static int alloc_steps(struct bm_ttp_script *s, size_t n,
		       struct bm_error *err)
{
	s->v = calloc(n, sizeof(*s->v));
	s->n = 0;
	if (!s->v)
		return bm_errorf(err, "no memory for a script of %zu steps",
				 n), -ENOMEM;
	return 0;
}

/* For each of the Nd + 1 objects, main first: the client's request, then
 * the server's object. */
static int build_web(struct drawer *d, const struct web_tab *t,
		     uint32_t request_bytes, struct bm_ttp_script *s,
		     struct bm_error *err)
{
	uint64_t nd = pick_n(d, &t->nd), i;
	double tcp = pick_s(d, &t->tcp), tsp = pick_s(d, &t->tsp);
	double objs = (double)(nd + 1);
	int ret;

	ret = alloc_steps(s, 2 * (size_t)(nd + 1), err);
	if (ret)
		return ret;
	for (i = 0; i <= nd; i++) {
		add(s, false, tcp / objs, request_bytes);
		add(s, true, tsp / objs, pick_n(d, i ? &t->se : &t->sm));
	}
	return 0;
}

/*
 * The interactive model, and SMB's control phase and blocks after it
 * (blocks 0 for the interactive patterns): Su, Nc rounds of one client
 * message and the server's share of Ns, Sd.
 */
static int build_ia(struct drawer *d, const struct ia_tab *t,
		    enum bm_ttp kind, uint64_t file_bytes, uint64_t sb,
		    struct bm_ttp_script *s, struct bm_error *err)
{
	uint64_t nc = pick_n(d, &t->nc), ns = pick_n(d, &t->ns);
	double tcp = pick_s(d, &t->tcp), tsp = pick_s(d, &t->tsp);
	uint64_t blocks = sb ? file_bytes / sb + (file_bytes % sb != 0) : 0;
	uint64_t r, k, share, b, last;
	int ret;

	if (blocks > SMB_MAX_BLOCKS)
		return bm_errorf(err, "%s: %llu B in blocks of %llu B is "
				 "%llu blocks, at most %llu",
				 bm_ttp_name(kind),
				 (unsigned long long)file_bytes,
				 (unsigned long long)sb,
				 (unsigned long long)blocks,
				 (unsigned long long)SMB_MAX_BLOCKS);
	ret = alloc_steps(s, (size_t)(nc + ns + 2 * blocks +
				      (t->updown ? 2 : 0)), err);
	if (ret)
		return ret;
	if (t->updown)
		add(s, false, 0, pick_n(d, &t->su));
	for (r = 0; r < nc; r++) {
		add(s, false, tcp / (double)nc, pick_n(d, &t->scm));
		share = ns / nc + (r < ns % nc);
		for (k = 0; k < share; k++)
			add(s, true, tsp / (double)ns, pick_n(d, &t->srs));
	}
	if (t->updown)
		add(s, true, 0, pick_n(d, &t->sd));
	/* the last block is what the whole ones leave of the file */
	last = file_bytes - (blocks ? blocks - 1 : 0) * sb;
	for (b = 0; b < blocks; b++) {
		uint64_t blk = b + 1 < blocks ? sb : last;

		if (kind == BM_TTP_SMB_READ) {
			add(s, false, 0, pick_n(d, &t->scm));
			add(s, true, 0, blk);
		} else {
			add(s, false, 0, blk);
			add(s, true, 0, pick_n(d, &t->srs));
		}
	}
	return 0;
}

int bm_ttp_script_build(const struct bm_ttp_params *p,
			struct bm_ttp_script *s, struct bm_error *err)
{
	struct drawer d = { .random = p->random };
	uint32_t req = p->request_bytes ? p->request_bytes : WEB_REQUEST_BYTES;
	uint64_t file = p->file_bytes ? p->file_bytes : SMB_FILE_BYTES;
	uint64_t sb = p->block_bytes ? p->block_bytes : SMB_BLOCK_BYTES;

	s->v = NULL;
	s->n = 0;
	if (!bm_ttp_is_script(p->kind)) {
		if ((unsigned int)p->kind >= BM_TTP_N)
			return bm_errorf(err, "TCP pattern %u unknown",
					 (unsigned int)p->kind);
		return bm_errorf(err, "TCP pattern %s is not a "
				 "request/response script",
				 bm_ttp_name(p->kind));
	}
	if (p->random)
		rng_seed(&d.rng, p->seed);
	switch (p->kind) {
	case BM_TTP_WEB_S:
		return build_web(&d, &web_simple, req, s, err);
	case BM_TTP_WEB_C:
		return build_web(&d, &web_complex, req, s, err);
	case BM_TTP_BIZ_S:
		return build_ia(&d, &biz_simple, p->kind, 0, 0, s, err);
	case BM_TTP_BIZ_C:
		return build_ia(&d, &biz_complex, p->kind, 0, 0, s, err);
	case BM_TTP_ECOM:
		return build_ia(&d, &ecommerce, p->kind, 0, 0, s, err);
	case BM_TTP_EMAIL:
		return build_ia(&d, &email, p->kind, 0, 0, s, err);
	case BM_TTP_SMB_READ:
	case BM_TTP_SMB_WRITE:
	default:
		return build_ia(&d, &smb, p->kind, file, sb, s, err);
	}
}

void bm_ttp_script_free(struct bm_ttp_script *s)
{
	if (!s)
		return;
	free(s->v);
	s->v = NULL;
	s->n = 0;
}

void bm_ttp_script_bytes(const struct bm_ttp_script *s, uint64_t *client,
			 uint64_t *server)
{
	uint64_t c = 0, v = 0;
	size_t i;

	for (i = 0; i < s->n; i++) {
		if (s->v[i].from_server)
			v += s->v[i].bytes;
		else
			c += s->v[i].bytes;
	}
	if (client)
		*client = c;
	if (server)
		*server = v;
}

double bm_ttp_script_ideal_s(const struct bm_ttp_script *s, double rate_bps,
			     double rtt_s)
{
	double t = 0;
	size_t i;

	if (!(rate_bps > 0))
		return NAN;
	/*
	 * Half an RTT per step: a web object is a request and its answer,
	 * two steps, one RTT, so a page of Nd + 1 objects pays Nd + 1 RTTs
	 * as TM-TTP's acceptance counts them.  Steps in a row from one side
	 * (the server's messages of a round) would overlap their flights on
	 * a real path; this counts each, an upper bound there.
	 */
	for (i = 0; i < s->n; i++)
		t += s->v[i].wait_s + (double)s->v[i].bytes * 8.0 / rate_bps +
		     0.5 * rtt_s;
	return t;
}

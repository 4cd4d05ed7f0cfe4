// SPDX-License-Identifier: GPL-2.0
/*
 * The TCP metrics and test patterns of bm_tcp.h against SPEC's numbers:
 * F-9's RFC 8238 example and every cell of its ceiling table, R8239-INC
 * (a)'s 94.148 Mbit/s, F-12, F-13 with TM-QS-2's 51.2 %, and TM-TTP: every
 * script pattern in fixed mode with the step counts and byte totals its
 * execution model gives, the WEB-S ideal time of the acceptance (8.0 s ±
 * 20 ms), random mode's repeatability and its draws inside App B's [Min,
 * Max] over 200 seeds.
 *
 * App B's tables are written out here again from SPEC, not taken from
 * libbm, so that the library is not checked against itself.  KB and MB
 * are 1000 and 10^6 B (AMB-02).
 */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bm_tcp.h"
#include "check_util.h"

/* --- F-9 ---------------------------------------------------------------- */

/* [8238] §7: 1460 B of payload in 1526 B frames at 10 Gbit/s is 9.567
 * Gbit/s, 1.196 GB/s. */
START_TEST(goodput_rfc8238)
{
	double g = bm_goodput_ceiling_bps(1460, 1526, 10e9);

	ck_assert_double_eq_tol(g / 1e9, 9.567, 1e-3);
	ck_assert_double_eq_tol(g / 8 / 1e9, 1.196, 1e-3);
	ck_assert(isnan(bm_goodput_ceiling_bps(1460, 0, 10e9)));
	ck_assert(isnan(bm_goodput_ceiling_bps(0, 0, 10e9)));
	ck_assert_double_eq(bm_goodput_ceiling_bps(0, 1526, 10e9), 0);
}
END_TEST

/* F-9's ceiling table, every cell to its 4 decimals (half a unit of the
 * last one, plus rounding); its Linux column is bm_goodput_linux_bps at
 * MTU 1500. */
START_TEST(goodput_table)
{
	static const struct {
		double gbe, rfc, lnx, l1538;
	} row[] = {
		{ 1, 0.9567, 0.9415, 0.9493 },
		{ 10, 9.5675, 9.4148, 9.4928 },
		{ 25, 23.9187, 23.5371, 23.7321 },
		{ 40, 38.2700, 37.6593, 37.9714 },
		{ 100, 95.6750, 94.1482, 94.9285 },
	};
	const double tol = 0.5e-4 + 1e-9;
	unsigned int i;

	for (i = 0; i < sizeof(row) / sizeof(row[0]); i++) {
		double v = row[i].gbe * 1e9;

		ck_assert_double_eq_tol(bm_goodput_ceiling_bps(1460, 1526, v) /
					1e9, row[i].rfc, tol);
		ck_assert_double_eq_tol(bm_goodput_linux_bps(1500, v) / 1e9,
					row[i].lnx, tol);
		ck_assert_double_eq_tol(bm_goodput_ceiling_bps(1448, 1538, v) /
					1e9, row[i].lnx, tol);
		ck_assert_double_eq_tol(bm_goodput_ceiling_bps(1460, 1538, v) /
					1e9, row[i].l1538, tol);
	}
}
END_TEST

/* R8239-INC acceptance (a): TCP over 100 Mbit/s at MTU 1500 cannot pass
 * 100 x 1448/1538 = 94.148 Mbit/s; jumbo frames raise the ceiling. */
START_TEST(goodput_linux)
{
	ck_assert_double_eq_tol(bm_goodput_linux_bps(1500, 100e6) / 1e6,
				94.148, 1e-3);
	ck_assert_double_eq_tol(bm_goodput_linux_bps(9000, 10e9),
				8948.0 / 9038 * 10e9, 1e-3);
	ck_assert(isnan(bm_goodput_linux_bps(40, 10e9)));
}
END_TEST

/* --- F-12, F-13 ---------------------------------------------------------- */

START_TEST(efficiency)
{
	ck_assert_double_eq_tol(bm_tcp_efficiency_pct(1000000, 25000), 97.5,
				1e-12);
	ck_assert_double_eq(bm_tcp_efficiency_pct(1000000, 0), 100);
	ck_assert_double_eq(bm_tcp_efficiency_pct(1, 1), 0);
	ck_assert(isnan(bm_tcp_efficiency_pct(0, 0)));
	/* beyond 2^53: the counters are 64 bits */
	ck_assert_double_eq_tol(bm_tcp_efficiency_pct(UINT64_MAX,
						      UINT64_MAX / 2), 50,
				1e-9);
}
END_TEST

/* TM-QS-2: 32 KB of queue at 100 Mbit/s is 2.56 ms, over a 5 ms baseline
 * 51.2 %. */
START_TEST(buffer_delay)
{
	double q = 32000 * 8 / 100e6;

	ck_assert_double_eq_tol(q, 2.56e-3, 1e-15);
	ck_assert_double_eq_tol(bm_tcp_buffer_delay_pct(5e-3 + q, 5e-3), 51.2,
				1e-9);
	ck_assert_double_eq(bm_tcp_buffer_delay_pct(5e-3, 5e-3), 0);
	ck_assert_double_eq_tol(bm_tcp_buffer_delay_pct(4e-3, 5e-3), -20,
				1e-9);
	ck_assert(isnan(bm_tcp_buffer_delay_pct(5e-3, 0)));
	ck_assert(isnan(bm_tcp_buffer_delay_pct(5e-3, -1)));
	ck_assert(isnan(bm_tcp_buffer_delay_pct(5e-3, NAN)));
}
END_TEST

/* --- TM-TTP: names ------------------------------------------------------ */

START_TEST(ttp_names)
{
	static const char *const want[] = {
		"bulk", "micro", "web-s", "web-c", "biz-s", "biz-c", "ecom",
		"email", "smb-read", "smb-write",
	};
	unsigned int i;

	for (i = 0; i < BM_TTP_N; i++) {
		ck_assert_str_eq(bm_ttp_names[i], want[i]);
		ck_assert_str_eq(bm_ttp_name((enum bm_ttp)i), want[i]);
		ck_assert(bm_ttp_is_script((enum bm_ttp)i) ==
			  (i >= BM_TTP_WEB_S));
	}
	ck_assert_ptr_null(bm_ttp_names[BM_TTP_N]);
	ck_assert_str_eq(bm_ttp_name(BM_TTP_N), "?");
	ck_assert_str_eq(bm_ttp_name((enum bm_ttp)-1), "?");
	ck_assert(!bm_ttp_is_script(BM_TTP_N));
	ck_assert(!bm_ttp_is_script((enum bm_ttp)-1));
}
END_TEST

/* --- TM-TTP: App B, from SPEC -------------------------------------------- */

struct pr {
	double ave, min, max;
};

struct model {
	enum bm_ttp kind;
	bool web;
	struct pr sm, se, nd;			/* web */
	struct pr scm, nc, srs, ns, su, sd;	/* the others */
	bool updown;
	bool smb;
	struct pr tcp, tsp;
};

static const struct model models[] = {
	{ .kind = BM_TTP_WEB_S, .web = true,
	  .sm = { 10e3, 100, 500e3 }, .se = { 7e3, 50, 350e3 },
	  .nd = { 5, 2, 10 }, .tcp = { 3, 1, 10 }, .tsp = { 5, 1, 15 } },
	{ .kind = BM_TTP_WEB_C, .web = true,
	  .sm = { 300e3, 50e3, 2e6 }, .se = { 10e3, 100, 1e6 },
	  .nd = { 25, 10, 50 }, .tcp = { 10, 3, 30 }, .tsp = { 8, 2, 30 } },
	{ .kind = BM_TTP_BIZ_S,
	  .scm = { 450, 100, 1.5e3 }, .nc = { 10, 5, 25 },
	  .tcp = { 10, 3, 30 }, .srs = { 2e3, 500, 100e3 },
	  .ns = { 50, 10, 200 }, .tsp = { 0.5, 0.1, 5 },
	  .su = { 50e3, 2e3, 200e3 }, .sd = { 50e3, 2e3, 200e3 },
	  .updown = true },
	{ .kind = BM_TTP_BIZ_C,
	  .scm = { 2e3, 500, 100e3 }, .nc = { 100, 50, 250 },
	  .tcp = { 30, 3, 60 }, .srs = { 5e3, 1e3, 1e6 },
	  .ns = { 200, 25, 1000 }, .tsp = { 1, 0.5, 20 },
	  .su = { 100e3, 10e3, 2e6 }, .sd = { 100e3, 10e3, 2e6 },
	  .updown = true },
	{ .kind = BM_TTP_ECOM,
	  .scm = { 1e3, 100, 50e3 }, .nc = { 20, 10, 100 },
	  .tcp = { 15, 5, 120 }, .srs = { 8e3, 100, 50e3 },
	  .ns = { 100, 15, 500 }, .tsp = { 2, 1, 10 } },
	{ .kind = BM_TTP_EMAIL,
	  .scm = { 200, 100, 1e3 }, .nc = { 10, 5, 25 },
	  .tcp = { 5, 3, 45 }, .srs = { 200, 150, 750 },
	  .ns = { 15, 5, 40 }, .tsp = { 4, 0.5, 15 },
	  .su = { 100e3, 20e3, 10e6 }, .sd = { 100e3, 20e3, 10e6 },
	  .updown = true },
	{ .kind = BM_TTP_SMB_READ, .smb = true,
	  .scm = { 450, 100, 1.5e3 }, .nc = { 10, 5, 25 },
	  .tcp = { 1e-3, 0.5e-3, 2e-3 }, .srs = { 2e3, 500, 100e3 },
	  .ns = { 10, 10, 200 }, .tsp = { 1e-3, 0.5e-3, 2e-3 } },
	{ .kind = BM_TTP_SMB_WRITE, .smb = true,
	  .scm = { 450, 100, 1.5e3 }, .nc = { 10, 5, 25 },
	  .tcp = { 1e-3, 0.5e-3, 2e-3 }, .srs = { 2e3, 500, 100e3 },
	  .ns = { 10, 10, 200 }, .tsp = { 1e-3, 0.5e-3, 2e-3 } },
};

#define N_MODELS	(sizeof(models) / sizeof(models[0]))

static void build(const struct bm_ttp_params *p, struct bm_ttp_script *s)
{
	struct bm_error err = { "" };
	int ret = bm_ttp_script_build(p, s, &err);

	ck_assert_msg(ret == 0, "%s: %d %s", bm_ttp_name(p->kind), ret,
		      err.msg);
	ck_assert_ptr_nonnull(s->v);
}

/* A size: whole, in [Min, Max], and Ave in fixed mode. */
static void size_ok(const struct pr *r, uint64_t b, bool fixed,
		    const char *what, size_t step)
{
	ck_assert_msg(b >= r->min && b <= r->max,
		      "%s step %zu: %llu B outside [%g, %g]", what, step,
		      (unsigned long long)b, r->min, r->max);
	if (fixed)
		ck_assert_msg(b == r->ave, "%s step %zu: %llu B, Ave %g",
			      what, step, (unsigned long long)b, r->ave);
}

/* A count, likewise. */
static void count_ok(const struct pr *r, size_t n, bool fixed,
		     const char *what)
{
	ck_assert_msg(n >= r->min && n <= r->max, "%s: %zu outside [%g, %g]",
		      what, n, r->min, r->max);
	if (fixed)
		ck_assert_msg(n == r->ave, "%s: %zu, Ave %g", what, n, r->ave);
}

/* A total time, split equally over n sends of wait_s each: in [Min, Max]
 * up to the division's rounding, Ave in fixed mode. */
static void time_ok(const struct pr *r, double wait_s, size_t n, bool fixed,
		    const char *what)
{
	double t = wait_s * (double)n;

	ck_assert_msg(t >= r->min * (1 - 1e-12) && t <= r->max * (1 + 1e-12),
		      "%s: %.9g s outside [%g, %g]", what, t, r->min, r->max);
	if (fixed)
		ck_assert_msg(fabs(t - r->ave) < 1e-12 * r->ave,
			      "%s: %.17g s, Ave %g", what, t, r->ave);
}

/*
 * s against the web model: Nd + 1 pairs of request (req B, Tcp/(Nd+1)
 * wait) and object (Sm first, then Se; Tsp/(Nd+1) wait).  Returns Nd.
 */
static size_t check_web(const struct model *m, const struct bm_ttp_script *s,
			bool fixed, uint64_t req)
{
	const char *what = bm_ttp_name(m->kind);
	size_t objs = s->n / 2, i;

	ck_assert_msg(s->n % 2 == 0 && objs >= 1, "%s: %zu steps", what, s->n);
	count_ok(&m->nd, objs - 1, fixed, "Nd");
	for (i = 0; i < objs; i++) {
		const struct bm_ttp_step *c = &s->v[2 * i], *v = c + 1;

		ck_assert_msg(!c->from_server && v->from_server,
			      "%s: object %zu out of order", what, i);
		ck_assert_uint_eq(c->bytes, req);
		ck_assert(c->wait_s == s->v[0].wait_s);
		ck_assert(v->wait_s == s->v[1].wait_s);
		size_ok(i ? &m->se : &m->sm, v->bytes, fixed, what, 2 * i + 1);
	}
	time_ok(&m->tcp, s->v[0].wait_s, objs, fixed, "Tcp");
	time_ok(&m->tsp, s->v[1].wait_s, objs, fixed, "Tsp");
	return objs - 1;
}

/*
 * s against the interactive model (Su, Nc rounds of Scm and the server's
 * share of Ns messages of Srs, Sd) and for SMB the blocks after it: of
 * file_bytes in block_bytes, the last the remainder, a read's requests of
 * Scm or a write's acks of Srs.  Returns Nc, *ns_out Ns.
 */
static size_t check_ia(const struct model *m, const struct bm_ttp_script *s,
		       bool fixed, uint64_t file_bytes, uint64_t block_bytes,
		       size_t *ns_out)
{
	const char *what = bm_ttp_name(m->kind);
	size_t i, start = 0, end = s->n, nc = 0, ns = 0, r, share, blocks;
	double cw = -1, sw = -1;
	uint64_t sum = 0;

	ck_assert_uint_ge(s->n, 2);
	if (m->updown) {
		ck_assert(!s->v[0].from_server && s->v[0].wait_s == 0);
		size_ok(&m->su, s->v[0].bytes, fixed, "Su", 0);
		ck_assert(s->v[s->n - 1].from_server &&
			  s->v[s->n - 1].wait_s == 0);
		size_ok(&m->sd, s->v[s->n - 1].bytes, fixed, "Sd", s->n - 1);
		start = 1;
		end = s->n - 1;
	}
	/* every control step waits its share of a positive Tcp or Tsp; the
	 * blocks do not wait */
	if (m->smb)
		for (end = start; end < s->n && s->v[end].wait_s > 0; end++)
			;
	for (i = start; i < end; i++) {
		const struct bm_ttp_step *st = &s->v[i];

		ck_assert_msg(st->wait_s > 0, "%s step %zu: no wait", what, i);
		if (st->from_server) {
			ck_assert(sw < 0 || st->wait_s == sw);
			sw = st->wait_s;
			size_ok(&m->srs, st->bytes, fixed, "Srs", i);
			ns++;
		} else {
			ck_assert(cw < 0 || st->wait_s == cw);
			cw = st->wait_s;
			size_ok(&m->scm, st->bytes, fixed, "Scm", i);
			nc++;
		}
	}
	count_ok(&m->nc, nc, fixed, "Nc");
	count_ok(&m->ns, ns, fixed, "Ns");
	time_ok(&m->tcp, cw, nc, fixed, "Tcp");
	time_ok(&m->tsp, sw, ns, fixed, "Tsp");
	/* rounds: a client message, then Ns/Nc server messages, one more in
	 * each of the first Ns mod Nc rounds */
	ck_assert(!s->v[start].from_server);
	for (i = start, r = 0; i < end; r++) {
		ck_assert(!s->v[i].from_server);
		for (i++, share = 0; i < end && s->v[i].from_server; i++)
			share++;
		ck_assert_msg(share == ns / nc + (r < ns % nc),
			      "%s round %zu: %zu server messages of %zu/%zu",
			      what, r, share, ns, nc);
	}
	ck_assert_uint_eq(r, nc);
	*ns_out = ns;
	if (!m->smb)
		return nc;
	blocks = (file_bytes + block_bytes - 1) / block_bytes;
	ck_assert_uint_eq(s->n - end, 2 * blocks);
	for (i = 0; i < blocks; i++) {
		const struct bm_ttp_step *c = &s->v[end + 2 * i], *v = c + 1;
		const struct bm_ttp_step *blk;
		uint64_t want = i + 1 < blocks ? block_bytes :
				file_bytes - (blocks - 1) * block_bytes;

		ck_assert(!c->from_server && v->from_server);
		ck_assert(c->wait_s == 0 && v->wait_s == 0);
		if (m->kind == BM_TTP_SMB_READ) {
			blk = v;
			size_ok(&m->scm, c->bytes, fixed, "read request",
				end + 2 * i);
		} else {
			blk = c;
			size_ok(&m->srs, v->bytes, fixed, "write ack",
				end + 2 * i + 1);
		}
		ck_assert_uint_eq(blk->bytes, want);
		sum += blk->bytes;
	}
	ck_assert_uint_eq(sum, file_bytes);
	return nc;
}

static void check_model(const struct model *m, const struct bm_ttp_script *s,
			bool fixed)
{
	size_t ns;

	if (m->web)
		check_web(m, s, fixed, 300);
	else
		check_ia(m, s, fixed, 10000000, 64000, &ns);
}

/* --- TM-TTP: fixed mode --------------------------------------------------- */

/*
 * Every script pattern at App B's Ave values, its totals written out:
 * WEB-S: 6 objects, 12 steps, 6 x 300 B of requests, 10,000 + 5 x 7,000;
 * WEB-C: 26 objects, 52 steps, 26 x 300, 300,000 + 25 x 10,000;
 * BIZ-S: Su + 10 rounds x (1 + 5) + Sd = 62 steps, 50,000 + 10 x 450 up,
 *        50 x 2,000 + 50,000 down;
 * BIZ-C: 1 + 100 + 200 + 1 = 302, 100,000 + 100 x 2,000, 200 x 5,000 +
 *        100,000;
 * ECOM: no Su/Sd, 20 + 100 = 120, 20 x 1,000, 100 x 8,000;
 * EMAIL: 1 + 10 + 15 + 1 = 27, 100,000 + 10 x 200, 15 x 200 + 100,000;
 * SMB: 10 + 10 control steps, then 10 MB / 64 KB = 156 blocks and one of
 *      16,000 B, 2 steps each: 334; read 10 x 450 + 157 x 450 up, 10 x
 *      2,000 + 10^7 down; write 10 x 450 + 10^7 up, 10 x 2,000 + 157 x
 *      2,000 down.
 * Waits add up to Tcp + Tsp.
 */
START_TEST(ttp_fixed)
{
	static const struct {
		enum bm_ttp kind;
		size_t steps;
		uint64_t client, server;
		double wait_s;
	} want[] = {
		{ BM_TTP_WEB_S, 12, 1800, 45000, 8 },
		{ BM_TTP_WEB_C, 52, 7800, 550000, 18 },
		{ BM_TTP_BIZ_S, 62, 54500, 150000, 10.5 },
		{ BM_TTP_BIZ_C, 302, 300000, 1100000, 31 },
		{ BM_TTP_ECOM, 120, 20000, 800000, 17 },
		{ BM_TTP_EMAIL, 27, 102000, 103000, 9 },
		{ BM_TTP_SMB_READ, 334, 75150, 10020000, 0.002 },
		{ BM_TTP_SMB_WRITE, 334, 10004500, 334000, 0.002 },
	};
	unsigned int i, k;

	ck_assert_uint_eq(sizeof(want) / sizeof(want[0]), N_MODELS);
	for (i = 0; i < N_MODELS; i++) {
		struct bm_ttp_params p = { .kind = want[i].kind };
		struct bm_ttp_script s;
		uint64_t c, v;
		double w = 0;

		ck_assert_int_eq(models[i].kind, want[i].kind);
		build(&p, &s);
		ck_assert_msg(s.n == want[i].steps, "%s: %zu steps",
			      bm_ttp_name(p.kind), s.n);
		bm_ttp_script_bytes(&s, &c, &v);
		ck_assert_uint_eq(c, want[i].client);
		ck_assert_uint_eq(v, want[i].server);
		for (k = 0; k < s.n; k++)
			w += s.v[k].wait_s;
		ck_assert_double_eq_tol(w, want[i].wait_s, 1e-9);
		check_model(&models[i], &s, true);
		bm_ttp_script_free(&s);
		ck_assert_ptr_null(s.v);
		ck_assert_uint_eq(s.n, 0);
		bm_ttp_script_free(&s);
	}
}
END_TEST

/* EMAIL's 15 server messages over 10 rounds: 2 in each of the first 5. */
START_TEST(ttp_fixed_rounds)
{
	struct bm_ttp_params p = { .kind = BM_TTP_EMAIL };
	struct bm_ttp_script s;
	static const bool server[] = {
		0, 0, 1, 1, 0, 1, 1, 0, 1, 1, 0, 1, 1, 0, 1, 1,
		0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 1,
	};
	unsigned int i;

	build(&p, &s);
	ck_assert_uint_eq(s.n, sizeof(server) / sizeof(server[0]));
	for (i = 0; i < s.n; i++)
		ck_assert_msg(s.v[i].from_server == server[i], "step %u", i);
	ck_assert_double_eq_tol(s.v[1].wait_s, 0.5, 1e-15);
	ck_assert_double_eq_tol(s.v[2].wait_s, 4.0 / 15, 1e-15);
	bm_ttp_script_free(&s);
}
END_TEST

/* The web request size, and SMB's file and block sizes, as given: 300 B
 * requests become 500; 640,000 B in 64,000 B blocks is 10 whole ones, 100
 * B is one short block, 1 MB in 16 KB (App B's Min) 62 and one of 8,000,
 * 10 MB in 128 KB (its Max) 78 and one of 16,000. */
START_TEST(ttp_sizes)
{
	static const struct {
		uint64_t file;
		uint32_t block;
		size_t blocks;
	} smb[] = {
		{ 640000, 64000, 10 },
		{ 100, 0, 1 },
		{ 1000000, 16000, 63 },
		{ 0, 128000, 79 },
	};
	struct bm_ttp_params p = { .kind = BM_TTP_WEB_S, .request_bytes = 500 };
	struct bm_ttp_script s;
	unsigned int i, rw;
	uint64_t c, v;
	size_t ns;

	build(&p, &s);
	check_web(&models[0], &s, true, 500);
	bm_ttp_script_bytes(&s, &c, &v);
	ck_assert_uint_eq(c, 3000);
	bm_ttp_script_bytes(&s, NULL, NULL);
	bm_ttp_script_free(&s);
	for (rw = 0; rw < 2; rw++) {
		for (i = 0; i < sizeof(smb) / sizeof(smb[0]); i++) {
			uint64_t file = smb[i].file ? smb[i].file : 10000000;
			uint64_t blk = smb[i].block ? smb[i].block : 64000;

			p = (struct bm_ttp_params){
				.kind = rw ? BM_TTP_SMB_WRITE : BM_TTP_SMB_READ,
				.file_bytes = smb[i].file,
				.block_bytes = smb[i].block,
			};
			build(&p, &s);
			ck_assert_uint_eq(s.n, 20 + 2 * smb[i].blocks);
			check_ia(&models[6 + rw], &s, true, file, blk, &ns);
			bm_ttp_script_free(&s);
		}
	}
}
END_TEST

/* TM-TTP acceptance: fixed-mode Simple Web on 1 Gbit/s with an RTT of 0.1
 * ms takes Tcp + Tsp + (10 KB + 5 x 7 KB + 6 x 300 B) x 8 / 1 Gbit/s + 6
 * RTTs = 8.0 s within 20 ms; exactly 8.000974 s by the model. */
START_TEST(ttp_ideal_web)
{
	struct bm_ttp_params p = { .kind = BM_TTP_WEB_S };
	struct bm_ttp_script s;
	double t;

	build(&p, &s);
	t = bm_ttp_script_ideal_s(&s, 1e9, 0.1e-3);
	ck_assert_double_eq_tol(t, 8.0, 20e-3);
	ck_assert_double_eq_tol(t, 3 + 5 + (10000 + 5 * 7000 + 6 * 300) * 8 /
				1e9 + 6 * 0.1e-3, 1e-12);
	/* a 100 ms path: the 6 RTTs are what is left over the waits */
	ck_assert_double_eq_tol(bm_ttp_script_ideal_s(&s, 1e12, 0.1) - 8,
				0.6, 1e-6);
	ck_assert(isnan(bm_ttp_script_ideal_s(&s, 0, 0.1e-3)));
	bm_ttp_script_free(&s);
}
END_TEST

/* --- TM-TTP: random mode -------------------------------------------------- */

static bool same(const struct bm_ttp_script *a, const struct bm_ttp_script *b)
{
	size_t i;

	if (a->n != b->n)
		return false;
	for (i = 0; i < a->n; i++)
		if (a->v[i].from_server != b->v[i].from_server ||
		    a->v[i].bytes != b->v[i].bytes ||
		    memcmp(&a->v[i].wait_s, &b->v[i].wait_s,
			   sizeof(a->v[i].wait_s)))
			return false;
	return true;
}

/* TM-TTP acceptance: the same seed gives the same script, step for step,
 * bit for bit; another seed another one. */
START_TEST(ttp_random_repeat)
{
	unsigned int i;

	for (i = 0; i < N_MODELS; i++) {
		struct bm_ttp_params p = {
			.kind = models[i].kind, .random = true,
			.seed = 0x5eed0000 + i,
		};
		struct bm_ttp_script a, b, c;

		build(&p, &a);
		build(&p, &b);
		p.seed++;
		build(&p, &c);
		ck_assert_msg(same(&a, &b), "%s: seed not repeatable",
			      bm_ttp_name(p.kind));
		ck_assert_msg(!same(&a, &c), "%s: seeds %llu and %llu agree",
			      bm_ttp_name(p.kind),
			      (unsigned long long)p.seed - 1,
			      (unsigned long long)p.seed);
		bm_ttp_script_free(&a);
		bm_ttp_script_free(&b);
		bm_ttp_script_free(&c);
	}
}
END_TEST

/* Every draw of every pattern over 200 seeds inside [Min, Max], and the
 * model's structure kept; the clip is reached at both ends (WEB-S's Nd
 * of mean 5 and sigma_log 1 is above 10 about 12 % of the time and
 * below 2 about a third). */
START_TEST(ttp_random_ranges)
{
	unsigned int i, seed, nd_min = 0, nd_max = 0;

	for (i = 0; i < N_MODELS; i++) {
		for (seed = 0; seed < 200; seed++) {
			struct bm_ttp_params p = {
				.kind = models[i].kind, .random = true,
				.seed = seed,
			};
			struct bm_ttp_script s;
			size_t nd;

			build(&p, &s);
			if (models[i].web) {
				nd = check_web(&models[i], &s, false, 300);
				if (p.kind == BM_TTP_WEB_S) {
					nd_min += nd == 2;
					nd_max += nd == 10;
				}
			} else {
				check_model(&models[i], &s, false);
			}
			bm_ttp_script_free(&s);
		}
	}
	ck_assert_uint_gt(nd_min, 20);
	ck_assert_uint_gt(nd_max, 5);
}
END_TEST

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * The draws are log-normal of mean Ave and sigma_log 1 (AMB-40): the
 * median is Ave x e^-0.5, inside [Min, Max] so that the clip leaves it
 * alone.  WEB-S's main object over 2001 seeds: 6,065 B; the sample median
 * of log-normals is within 3 % of it at one standard error (1.25 / sqrt
 * 2001 in the log), so 10 % is over 3 of them, and the seeds are fixed.
 */
START_TEST(ttp_random_lognormal)
{
	enum { N = 2001 };
	uint64_t *sm = calloc(N, sizeof(*sm));
	unsigned int seed;
	double med = 10000 * exp(-0.5);

	ck_assert_ptr_nonnull(sm);
	for (seed = 0; seed < N; seed++) {
		struct bm_ttp_params p = {
			.kind = BM_TTP_WEB_S, .random = true, .seed = seed,
		};
		struct bm_ttp_script s;

		build(&p, &s);
		sm[seed] = s.v[1].bytes;
		bm_ttp_script_free(&s);
	}
	qsort(sm, N, sizeof(*sm), cmp_u64);
	ck_assert_msg(fabs((double)sm[N / 2] / med - 1) < 0.1,
		      "median Sm %llu B, want %.0f",
		      (unsigned long long)sm[N / 2], med);
	free(sm);
}
END_TEST

/*
 * A recorded seed names one script for good: seed 42 of WEB-S, pinned.
 * Sizes and counts are whole and times whole microseconds, so this holds
 * bit for bit on any IEEE machine; a change to the PRNG or to the order
 * of the draws fails here, and results that record a seed would no longer
 * say which scripts ran.
 */
START_TEST(ttp_random_pinned)
{
	struct bm_ttp_params p = {
		.kind = BM_TTP_WEB_S, .random = true, .seed = 42,
	};
	static const uint64_t obj[] = { 10230, 6754, 8907 };
	struct bm_ttp_script s;
	unsigned int i;

	build(&p, &s);
	ck_assert_uint_eq(s.n, 6);
	for (i = 0; i < 3; i++) {
		ck_assert(!s.v[2 * i].from_server);
		ck_assert(s.v[2 * i].wait_s == 1.473168 / 3);
		ck_assert_uint_eq(s.v[2 * i].bytes, 300);
		ck_assert(s.v[2 * i + 1].from_server);
		ck_assert(s.v[2 * i + 1].wait_s == 3.785056 / 3);
		ck_assert_uint_eq(s.v[2 * i + 1].bytes, obj[i]);
	}
	bm_ttp_script_free(&s);
}
END_TEST

/* --- refusals ------------------------------------------------------------- */

static void refused(const struct bm_ttp_params *p, const char *needle)
{
	struct bm_error err = { "" };
	struct bm_ttp_script s = { (struct bm_ttp_step *)&s, 99 };

	ck_assert_int_eq(bm_ttp_script_build(p, &s, &err), -EINVAL);
	ck_assert_msg(strstr(err.msg, needle), "'%s' lacks '%s'", err.msg,
		      needle);
	ck_assert_ptr_null(strchr(err.msg, '\n'));
	ck_assert_ptr_null(s.v);
	ck_assert_uint_eq(s.n, 0);
	bm_ttp_script_free(&s);
}

/* BULK and MICRO are not scripts; nor is a pattern out of range; an SMB
 * file of more blocks than a script holds is refused, not allocated. */
START_TEST(ttp_refused)
{
	struct bm_ttp_params p = { .kind = BM_TTP_BULK };

	refused(&p, "bulk");
	p.kind = BM_TTP_MICRO;
	p.random = true;
	refused(&p, "micro");
	p.kind = BM_TTP_N;
	refused(&p, "unknown");
	p = (struct bm_ttp_params){
		.kind = BM_TTP_SMB_WRITE, .file_bytes = 1000000000000ULL,
		.block_bytes = 1,
	};
	refused(&p, "blocks");
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("tcp");
	TCase *tc = tcase_create("tcp");

	tcase_add_test(tc, goodput_rfc8238);
	tcase_add_test(tc, goodput_table);
	tcase_add_test(tc, goodput_linux);
	tcase_add_test(tc, efficiency);
	tcase_add_test(tc, buffer_delay);
	tcase_add_test(tc, ttp_names);
	tcase_add_test(tc, ttp_fixed);
	tcase_add_test(tc, ttp_fixed_rounds);
	tcase_add_test(tc, ttp_sizes);
	tcase_add_test(tc, ttp_ideal_web);
	tcase_add_test(tc, ttp_random_repeat);
	tcase_add_test(tc, ttp_random_ranges);
	tcase_add_test(tc, ttp_random_lognormal);
	tcase_add_test(tc, ttp_random_pinned);
	tcase_add_test(tc, ttp_refused);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tj_run_suite(suite());
}

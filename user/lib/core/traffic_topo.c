// SPDX-License-Identifier: GPL-2.0
/*
 * The topology builders of REQ-TOPO-1 (pair, mesh, multiport,
 * many-to-one, one-to-many, N-j, HOLB, snake) and the snake's cabling
 * plan: streams added to a traffic by rule.  Apart from the traffic's
 * making (traffic.c) because each is a procedure's shape, built on the
 * one call that adds streams.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>

#include "bm_traffic.h"
#include "traffic_int.h"

/* After traffic_reserve(): cannot fail. */
static void push(struct bm_traffic *t, unsigned int tx, unsigned int rx,
		 double load_pct)
{
	bm_stream_init(&t->streams[t->n_streams++], tx, rx, load_pct);
}

/* push, as the k-th of a port's n round-robin streams (phase k/n) */
static void push_rr(struct bm_traffic *t, unsigned int tx, unsigned int rx,
		    double load_pct, unsigned int k, unsigned int n)
{
	push(t, tx, rx, load_pct);
	t->streams[t->n_streams - 1].phase = (double)k / n;
}

static bool pct_ok(double pct)
{
	return isfinite(pct) && pct > 0 && pct <= 100;
}

static int bad_load(const char *what, double pct, struct bm_error *err)
{
	return bm_errorf(err, "%s: load %g %% outside (0, 100]", what, pct);
}

/* Room for n more streams, or -E2BIG / -ENOMEM naming the topology. */
static int reserve_more(struct bm_traffic *t, unsigned long long n,
			const char *what, struct bm_error *err)
{
	if (t->n_streams + n > BM_TRAFFIC_MAX_STREAMS) {
		bm_errorf(err, "%s: %u + %llu streams, at most %d", what,
			  t->n_streams, n, BM_TRAFFIC_MAX_STREAMS);
		return -E2BIG;
	}
	return traffic_reserve(t, t->n_streams + (unsigned int)n, err);
}

static int check_port(const struct bm_traffic *t, const char *what,
		      unsigned int i, struct bm_error *err)
{
	if (i >= t->n_ports)
		return bm_errorf(err, "%s: port %u does not exist (%u ports)",
				 what, i, t->n_ports);
	return 0;
}

int bm_topo_pair(struct bm_traffic *t, unsigned int a, unsigned int b,
		 bool bidir, double load_pct, struct bm_error *err)
{
	int ret;

	if (!pct_ok(load_pct))
		return bad_load("pair", load_pct, err);
	ret = check_port(t, "pair", a, err);
	if (!ret)
		ret = check_port(t, "pair", b, err);
	if (ret)
		return ret;
	if (a == b)
		return bm_errorf(err, "pair: port %u to itself", a);
	ret = reserve_more(t, bidir ? 2 : 1, "pair", err);
	if (ret)
		return ret;
	push(t, a, b, load_pct);
	if (bidir)
		push(t, b, a, load_pct);
	return bidir ? 2 : 1;
}

int bm_topo_mesh(struct bm_traffic *t, double load_pct, struct bm_error *err)
{
	unsigned int n = t->n_ports, i, k;
	int ret;

	if (!pct_ok(load_pct))
		return bad_load("mesh", load_pct, err);
	if (n < 2)
		return bm_errorf(err, "mesh: %u ports, at least 2", n);
	ret = reserve_more(t, (unsigned long long)n * (n - 1), "mesh", err);
	if (ret)
		return ret;
	for (i = 0; i < n; i++)
		for (k = 1; k < n; k++)
			push_rr(t, i, (i + k) % n, load_pct / (n - 1), k - 1,
				n - 1);
	return (int)(n * (n - 1));
}

int bm_topo_multiport(struct bm_traffic *t, double load_pct,
		      struct bm_error *err)
{
	unsigned int n = t->n_ports, h = n / 2, i, o;
	int ret;

	if (!pct_ok(load_pct))
		return bad_load("multiport", load_pct, err);
	if (n < 2 || n % 2)
		return bm_errorf(err, "multiport: %u ports, an even number "
				 ">= 2", n);
	ret = reserve_more(t, (unsigned long long)h * h, "multiport", err);
	if (ret)
		return ret;
	for (i = 0; i < h; i++)
		for (o = h; o < n; o++)
			push_rr(t, i, o, load_pct / h, o - h, h);
	return (int)(h * h);
}

/* Every index of v below n_ports, all distinct and none equal to other. */
static int check_set(const struct bm_traffic *t, const char *what,
		     const unsigned int *v, unsigned int nv,
		     unsigned int other, struct bm_error *err)
{
	unsigned int i, j;
	int ret;

	if (!v || !nv)
		return bm_errorf(err, "%s: no ports", what);
	ret = check_port(t, what, other, err);
	if (ret)
		return ret;
	for (i = 0; i < nv; i++) {
		ret = check_port(t, what, v[i], err);
		if (ret)
			return ret;
		if (v[i] == other)
			return bm_errorf(err, "%s: port %u both sends and "
					 "receives", what, v[i]);
		for (j = 0; j < i; j++)
			if (v[j] == v[i])
				return bm_errorf(err, "%s: port %u twice",
						 what, v[i]);
	}
	return 0;
}

int bm_topo_many_to_one(struct bm_traffic *t, const unsigned int *in,
			unsigned int n_in, unsigned int out, double load_pct,
			struct bm_error *err)
{
	unsigned int i;
	int ret;

	if (!pct_ok(load_pct))
		return bad_load("many-to-one", load_pct, err);
	ret = check_set(t, "many-to-one", in, n_in, out, err);
	if (!ret)
		ret = reserve_more(t, n_in, "many-to-one", err);
	if (ret)
		return ret;
	for (i = 0; i < n_in; i++)
		push(t, in[i], out, load_pct);
	return (int)n_in;
}

int bm_topo_one_to_many(struct bm_traffic *t, unsigned int in,
			const unsigned int *out, unsigned int n_out,
			double load_pct, struct bm_error *err)
{
	unsigned int i;
	int ret;

	if (!pct_ok(load_pct))
		return bad_load("one-to-many", load_pct, err);
	ret = check_set(t, "one-to-many", out, n_out, in, err);
	if (!ret)
		ret = reserve_more(t, n_out, "one-to-many", err);
	if (ret)
		return ret;
	for (i = 0; i < n_out; i++)
		push_rr(t, in, out[i], load_pct / n_out, i, n_out);
	return (int)n_out;
}

int bm_topo_n_minus_j(struct bm_traffic *t, unsigned int j, double load_pct,
		      struct bm_error *err)
{
	unsigned int n = t->n_ports, i, e;
	int ret;

	if (!pct_ok(load_pct))
		return bad_load("n-j", load_pct, err);
	if (n < 3 || j < 1 || j > n - 2)
		return bm_errorf(err, "n-j: j = %u outside 1..N-2 for N = %u "
				 "ports", j, n);
	ret = reserve_more(t, (unsigned long long)(n - j) * j, "n-j", err);
	if (ret)
		return ret;
	for (i = 0; i < n - j; i++)
		for (e = n - j; e < n; e++)
			push_rr(t, i, e, load_pct / j, e - (n - j), j);
	return (int)((n - j) * j);
}

int bm_topo_holb(struct bm_traffic *t, unsigned int n_groups, unsigned int s,
		 double a_pct, double b_pct, struct bm_error *err)
{
	unsigned int n = t->n_ports, g, a;
	int ret;

	if (!pct_ok(a_pct) || 2 * a_pct > 100.0 + BM_LOAD_SLACK)
		return bm_errorf(err, "holb: A's load %g %% outside (0, 50] "
				 "(A sends two streams)", a_pct);
	if (!pct_ok(b_pct))
		return bad_load("holb B", b_pct, err);
	if (n < 4)
		return bm_errorf(err, "holb: %u ports, at least 4", n);
	if (!n_groups)
		n_groups = n / 4;
	if (n_groups > n / 4)
		return bm_errorf(err, "holb: %u groups of 4 need %u ports, "
				 "there are %u", n_groups, 4 * n_groups, n);
	if (s >= n)
		return bm_errorf(err, "holb: shift %u outside 0..%u", s, n - 1);
	ret = reserve_more(t, 3ULL * n_groups, "holb", err);
	if (ret)
		return ret;
	for (g = 0; g < n_groups; g++) {
		a = 4 * g + s;
		push(t, a % n, (a + 2) % n, a_pct);
		push(t, a % n, (a + 3) % n, a_pct);
		push(t, (a + 1) % n, (a + 3) % n, b_pct);
	}
	return (int)(3 * n_groups);
}

int bm_topo_snake(struct bm_traffic *t, unsigned int n_dut_ports, bool bidir,
		  double load_pct, struct bm_error *err)
{
	int ret;

	if (!pct_ok(load_pct))
		return bad_load("snake", load_pct, err);
	if (n_dut_ports < 4 || n_dut_ports % 2)
		return bm_errorf(err, "snake: %u DUT ports, an even number "
				 ">= 4", n_dut_ports);
	if (t->n_ports != 2)
		return bm_errorf(err, "snake: %u tester ports, exactly 2",
				 t->n_ports);
	ret = reserve_more(t, bidir ? 2 : 1, "snake", err);
	if (ret)
		return ret;
	push(t, 0, 1, load_pct);
	if (bidir)
		push(t, 1, 0, load_pct);
	return bidir ? 2 : 1;
}

/* snprintf that appends, counting what it needed past the end. */
struct plan_buf {
	char *buf;
	size_t len, need;
};

static void __attribute__((format(printf, 2, 3)))
plan_printf(struct plan_buf *b, const char *fmt, ...)
{
	size_t at = b->need < b->len ? b->need : b->len;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(b->buf ? b->buf + at : NULL, b->buf ? b->len - at : 0,
		      fmt, ap);
	va_end(ap);
	if (n > 0)
		b->need += (size_t)n;
}

int bm_snake_plan(unsigned int n_dut_ports, unsigned int vlan_base,
		  char *buf, size_t len)
{
	struct plan_buf b = { buf, buf ? len : 0, 0 };
	unsigned int k, p;

	if (n_dut_ports < 4 || n_dut_ports % 2)
		return -EINVAL;
	/* VLAN 0 only carries a priority and 4095 is reserved; the bound
	 * also keeps the text short enough for an int. */
	if (vlan_base < 1 || vlan_base > 4094 ||
	    n_dut_ports / 2 - 1 > 4094 - vlan_base)
		return -EINVAL;
	if (b.len)
		b.buf[0] = '\0';
	plan_printf(&b, "DUT ports 1 and %u to the tester; cable DUT ports",
		    n_dut_ports);
	for (p = 2; p < n_dut_ports; p += 2)
		plan_printf(&b, "%s %u<->%u", p > 2 ? "," : "", p, p + 1);
	plan_printf(&b, "\n");
	for (k = 0; k < n_dut_ports / 2; k++)
		plan_printf(&b, "VLAN %u: DUT ports %u, %u\n", vlan_base + k,
			    2 * k + 1, 2 * k + 2);
	return (int)b.need;
}

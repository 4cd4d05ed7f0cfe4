// SPDX-License-Identifier: GPL-2.0
/*
 * The N-port simulated DUT (sim_traffic.c) against closed
 * forms: full mesh (RFC 2544 §16, RFC 2889), many-to-one buffering
 * (R8239-BUF), synchronised microbursts (R8239-MB), a shared buffer pool
 * (RFC 8239 §3), head-of-line blocking (R8239-HOLB, DUT-HOLB-EMU), an egress
 * shaper, IMIX, outages, the generator's lateness (REQ-GEN-6), random loss,
 * and the strict JSON parameters and limits.
 *
 * Unless a test says otherwise: 1 Gbit/s ports, F = 1518 B, so one frame
 * on a line takes T = (1518 + 20) * 8 ns = 12.304 us, base latency 10 us.
 */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_util.h"
#include "bm_sim.h"
#include "bm_traffic.h"
#include "sim_assert.h"

#define RATE	1e9
#define F	1518
#define T_S	((F + 20) * 8 / RATE)		/* 12.304 us */
#define T_NS	(T_S * 1e9)
#define BASE_NS	10000.0
#define FPS	(RATE / ((F + 20) * 8.0))	/* 81,274.37 fps */

static void mk_ports(struct bm_traffic *t, unsigned int n)
{
	sim_check_ports(t, n, RATE);
}

static void params(struct bm_sim_params *p, uint64_t q)
{
	bm_sim_params_default(p);
	p->base_latency_ns = BASE_NS;
	p->buffer_frames = q;
}

static struct bm_backend *mk(const struct bm_sim_params *p)
{
	struct bm_error err = { "" };
	struct bm_backend *be = bm_sim_new(p, &err);

	ck_assert_msg(be, "bm_sim_new: %s", err.msg);
	return be;
}

/* Run t for d s on be; the per-stream results (caller frees). */
static struct bm_traffic_result *run(struct bm_backend *be,
				     const struct bm_traffic *t, double d,
				     struct bm_trial_result *r)
{
	return sim_check_traffic(be, t, F, d, r);
}

/* One burst of n frames at line rate from port tx to rx from start_s. */
static void add_burst(struct bm_traffic *t, unsigned int tx, unsigned int rx,
		      uint32_t n, double start_s)
{
	struct bm_error err = { "" };
	struct bm_stream_spec s;

	bm_stream_init(&s, tx, rx, 100);
	s.pattern = BM_STREAM_BURSTS;
	s.burst_len = n;
	s.burst_count = 1;
	s.start_s = start_s;
	ck_assert_msg(bm_traffic_add_stream(t, &s, &err) >= 0, "%s", err.msg);
}

static uint64_t total_lost(const struct bm_traffic_result *tr)
{
	uint64_t n = 0;
	unsigned int i;

	for (i = 0; i < tr->n_streams; i++)
		n += tr->streams[i].lost;
	return n;
}

/*
 * One trial model: a pair trial is traffic (bm_traffic_of_pair), and the
 * simulator's two models of it agree.  The fluid model (a pair trial
 * through bm_run_trial) and the frame-level one (the same traffic with
 * per-stream results asked) on a cliff DUT of capacity C = 60,000 fps
 * and a FIFO of Q = 100 frames: offered r for d s, both lose (r - C) d
 * - Q - bucket frames above C, none below; and a pair trial of 10^9
 * frames, beyond the frame model, costs the fluid one nothing.
 */
START_TEST(test_pair_models_agree)
{
	static const double rates[] = { 50000, 70000, 81274 };
	struct bm_error err = { "" };
	struct bm_sim_params p;
	struct bm_trial_result fl, fr;
	struct bm_trial_spec sp;
	struct bm_traffic t;
	struct bm_traffic_result *tr;
	struct bm_backend *be;
	unsigned int i;

	params(&p, 100);
	p.line_rate_bps = RATE;
	p.capacity_fps = 60000;
	be = mk(&p);
	for (i = 0; i < 3; i++) {
		double want = fmax(0.0, (rates[i] - 60000) * 0.2 - 100 - 1);

		bm_trial_spec_rate(&sp, F, rates[i], 0.2);
		ck_assert_int_eq(bm_run_trial(be, &sp, &fl, &err), 0);
		ck_assert_int_eq(bm_traffic_of_pair(&sp, be, &t, &err), 0);
		tr = sim_check_traffic(be, &t, F, 0.2, &fr);
		ck_assert_uint_eq(fl.intended, fr.intended);
		ck_assert_uint_eq(fl.attempted, fr.attempted);
		ck_assert_msg(fabs((double)fl.lost - want) <= 2 &&
			      fabs((double)fr.lost - want) <= 2,
			      "%.0f fps: fluid lost %llu, frames %llu, want %.0f",
			      rates[i], (unsigned long long)fl.lost,
			      (unsigned long long)fr.lost, want);
		ck_assert_uint_eq(tr->streams[0].lost, fr.lost);
		bm_traffic_result_free(tr);
		bm_traffic_free(&t);
	}
	/* 1.3 x 10^9 frames: the fluid model's, in no time */
	bm_trial_spec_rate(&sp, 64, 1.3e6, 1000);
	ck_assert_int_eq(bm_run_trial(be, &sp, &fl, &err), 0);
	ck_assert_uint_eq(fl.intended, 1300000000ULL);
	bm_sim_free(be);
}
END_TEST

/*
 * (1) 4-port full mesh at 50 %: each port sends 3 streams of 50/3 %, i.e.
 * one frame every 6T per stream, all scheduled at 6kT; the port sends them
 * in stream order at 6kT, 6kT+T, 6kT+2T.  Stream i -> (i+k) % 4 leaves at
 * offset (k-1)T, so egress e receives from the three other ports at three
 * different offsets: no frame ever waits, even with no queue at all.
 * Truth: received == sent == intended = round(FPS/6 * 0.2) = 2709 for every
 * stream, and every latency is base + T (one frame on the egress line):
 * min == max == 22,304 ns.  Tolerance: exact (1e-6 ns for doubles).
 */
START_TEST(test_mesh4_lossless)
{
	struct bm_sim_params p;
	struct bm_backend *be;
	struct bm_traffic t;
	struct bm_traffic_result *tr;
	struct bm_trial_result r;
	struct bm_error err = { "" };
	uint64_t n = (uint64_t)llround(FPS * 0.5 / 3 * 0.2);
	unsigned int i;

	params(&p, 0);
	be = mk(&p);
	mk_ports(&t, 4);
	ck_assert_int_eq(bm_topo_mesh(&t, 50, &err), 12);
	tr = run(be, &t, 0.2, &r);
	ck_assert_uint_eq(n, 2709);
	for (i = 0; i < 12; i++) {
		const struct bm_stream_result *s = &tr->streams[i];

		ck_assert_uint_eq(s->intended, n);
		ck_assert_uint_eq(s->sent, n);
		ck_assert_uint_eq(s->received, n);
		ck_assert_uint_eq(s->lost, 0);
		ck_assert_uint_eq(s->latency.count, n);
		ck_assert_double_eq_tol(s->latency.min_ns, BASE_NS + T_NS, 1e-6);
		ck_assert_double_eq_tol(s->latency.max_ns, BASE_NS + T_NS, 1e-6);
		ck_assert_double_eq_tol(s->latency.p99_ns, BASE_NS + T_NS, 1e-6);
		ck_assert_double_eq_tol(s->pdv_ns, 0, 1e-6);
		/* IPDV signed, each frame after its predecessor: 0 */
		ck_assert_uint_eq(s->ipdv_count, n - 1);
		ck_assert_double_eq_tol(s->ipdv_min_ns, 0, 1e-6);
		ck_assert_double_eq_tol(s->ipdv_mean_ns, 0, 1e-6);
		ck_assert_double_eq_tol(s->ipdv_max_ns, 0, 1e-6);
		ck_assert_uint_eq(s->reordered, 0);
	}
	/* round robin (RFC 2544 §16): the port's k-th stream has phase
	 * k/3, so its streams take turns in the port's frame slots, 2T
	 * apart at 50 %: the third leaves 4T after the first, not with it */
	ck_assert_double_eq_tol(tr->streams[0].first_tx_s, 0, 1e-12);
	ck_assert_double_eq_tol(tr->streams[1].first_tx_s, 2 * T_S, 1e-12);
	ck_assert_double_eq_tol(tr->streams[2].first_tx_s, 4 * T_S, 1e-12);
	ck_assert_double_eq_tol(tr->streams[2].first_rx_s,
				5 * T_S + BASE_NS * 1e-9, 1e-12);
	for (i = 0; i < 4; i++) {
		ck_assert_uint_eq(tr->ports[i].tx_frames, 3 * n);
		ck_assert_uint_eq(tr->ports[i].rx_frames, 3 * n);
	}
	ck_assert_uint_eq(r.intended, 12 * n);
	ck_assert_uint_eq(r.attempted, 12 * n);
	ck_assert_uint_eq(r.received, 12 * n);
	ck_assert_uint_eq(r.lost, 0);
	ck_assert(!r.generator_limited);
	ck_assert_uint_eq(r.tx_late_frames, 0);
	ck_assert_str_eq(r.ts_source, "sim");
	ck_assert_double_eq_tol(r.latency.min_ns, BASE_NS + T_NS, 1e-6);
	ck_assert_double_eq_tol(r.latency.p50_ns, BASE_NS + T_NS, 1e-6);
	ck_assert_double_eq_tol(be->elapsed_s, 0.2, 1e-9);
	bm_traffic_result_free(tr);
	bm_sim_free(be);

	/* an ingress FIFO on every port changes nothing where no egress is
	 * ever busy when a frame comes */
	p.holb_fifo_frames = 8;
	p.holb_port = -1;
	be = mk(&p);
	tr = run(be, &t, 0.2, &r);
	ck_assert_uint_eq(r.received, 12 * n);
	ck_assert_double_eq_tol(r.latency.max_ns, BASE_NS + T_NS, 1e-6);
	bm_traffic_result_free(tr);
	bm_traffic_free(&t);
	bm_sim_free(be);
}
END_TEST

/*
 * (2) Many-to-one, 3 -> 1 at 50 % each for d = 0.5 s into a queue of Q =
 * 100: n = round(FPS/2 * d) = 20319 frames a stream, three arriving
 * together every 2T; the egress line is busy from t = 0 and starts one
 * frame every T, so up to the last arrival (n-1)2T it has taken 2n - 1
 * frames and Q wait when the arrivals stop.  Truth: received = 2n - 1 + Q
 * = 40737 (+-2 allowed, the model gives it exactly), lost = n + 1 - Q;
 * round robin among the simultaneous arrivals makes the three losses equal
 * (within 2 %, in fact +-1 frame).  The last frame admitted waits for Q
 * frames and the one on the line: max latency = base + (Q + 1) T exactly.
 */
START_TEST(test_many_to_one)
{
	static const unsigned int in[] = { 0, 1, 2 };
	const uint64_t q = 100;
	struct bm_sim_params p;
	struct bm_backend *be;
	struct bm_traffic t;
	struct bm_traffic_result *tr;
	struct bm_trial_result r;
	struct bm_error err = { "" };
	uint64_t n = (uint64_t)llround(FPS / 2 * 0.5), rcvd = 0, mn, mx;
	unsigned int i;

	params(&p, q);
	be = mk(&p);
	mk_ports(&t, 4);
	ck_assert_int_eq(bm_topo_many_to_one(&t, in, 3, 3, 50, &err), 3);
	tr = run(be, &t, 0.5, &r);
	ck_assert_uint_eq(n, 20319);
	mn = mx = tr->streams[0].lost;
	for (i = 0; i < 3; i++) {
		ck_assert_uint_eq(tr->streams[i].sent, n);
		rcvd += tr->streams[i].received;
		mn = tr->streams[i].lost < mn ? tr->streams[i].lost : mn;
		mx = tr->streams[i].lost > mx ? tr->streams[i].lost : mx;
		ck_assert_double_eq_tol(tr->streams[i].latency.max_ns,
					BASE_NS + (q + 1) * T_NS, 1e-3);
	}
	ck_assert_msg(llabs((long long)rcvd - (long long)(2 * n - 1 + q)) <= 2,
		      "received %llu, closed form %llu", (unsigned long long)rcvd,
		      (unsigned long long)(2 * n - 1 + q));
	ck_assert_uint_eq(r.received, rcvd);
	ck_assert_uint_eq(r.lost, 3 * n - rcvd);
	ck_assert_msg((double)(mx - mn) <= 0.02 * (r.lost / 3.0),
		      "losses %llu .. %llu", (unsigned long long)mn,
		      (unsigned long long)mx);
	ck_assert_uint_eq(tr->ports[3].rx_frames, rcvd);
	ck_assert_uint_eq(tr->ports[3].lost, r.lost);
	bm_traffic_result_free(tr);
	bm_traffic_free(&t);
	bm_sim_free(be);
}
END_TEST

/* Frames lost when ports 0 and 1 each burst n frames at line rate to port
 * 2 (queue q frames and qb bytes, egress at egress_bps), the second burst
 * starting at start1. */
static uint64_t burst2b(uint64_t q, uint64_t qb, double egress_bps,
			uint32_t n, double start1)
{
	struct bm_sim_params p;
	struct bm_backend *be;
	struct bm_traffic t;
	struct bm_traffic_result *tr;
	struct bm_trial_result r;
	uint64_t lost;

	params(&p, 1000000);
	p.ports[2].queue_frames = q;
	p.ports[2].queue_bytes = qb;
	p.ports[2].egress_bps = egress_bps;
	be = mk(&p);
	mk_ports(&t, 3);
	add_burst(&t, 0, 2, n, 0);
	add_burst(&t, 1, 2, n, start1);
	tr = run(be, &t, 0.01, &r);
	ck_assert_uint_eq(r.attempted, 2ULL * n);
	lost = r.lost;
	ck_assert_uint_eq(lost, total_lost(tr));
	bm_traffic_result_free(tr);
	bm_traffic_free(&t);
	bm_sim_free(be);
	return lost;
}

static uint64_t burst2(uint64_t q, double egress_bps, uint32_t n,
		       double start1)
{
	return burst2b(q, 0, egress_bps, n, start1);
}

/*
 * (3) Microburst (R8239-MB, 2 -> 1, intensity 100 %).  Synchronised: at
 * each kT two frames arrive and the line starts one, so after the
 * arrivals of instant k (the first frame of all goes straight to the line)
 * k + 1 frames wait.  The largest loss-free burst per port is n = Q, and
 * a burst n > Q loses exactly n - Q (the line takes n frames during the
 * burst, Q wait at its end).  Egress shaped to 50 %: a frame every 2T
 * against 2 arrivals per T; after instant k, 2k + 1 - floor(k/2) frames
 * wait, so n is loss-free iff 2n - 1 - floor((n-1)/2) <= Q, and a larger
 * burst loses 2n - (floor((n-1)/2) + 1) - Q.  With 0 % synchronisation
 * (the second burst starts as the first ends, at nT) the line never has
 * two frames at once: loss-free far beyond Q.  A byte limit of 10 frames
 * and 1000 B (queue_frames unlimited) is a queue of Q = 10.  Tolerance:
 * exact.
 */
START_TEST(test_microburst)
{
	const uint64_t q = 50;
	uint32_t n, nmax = 0;

	ck_assert_uint_eq(burst2(q, 0, q, 0), 0);
	ck_assert_uint_eq(burst2(q, 0, q + 1, 0), 1);
	ck_assert_uint_eq(burst2(q, 0, q + 30, 0), 30);
	for (n = 1; 2 * n - 1 - (n - 1) / 2 <= q; n++)
		nmax = n;
	ck_assert_uint_eq(nmax, 33);
	ck_assert_uint_eq(burst2(q, RATE / 2, nmax, 0), 0);
	ck_assert_uint_eq(burst2(q, RATE / 2, nmax + 1, 0),
			  2 * (nmax + 1) - (nmax / 2 + 1) - q);
	ck_assert_uint_eq(burst2(q, RATE / 2, 100, 0),
			  200 - (99 / 2 + 1) - q);
	ck_assert_uint_eq(burst2(q, 0, 10 * q, 10 * q * T_S), 0);
	ck_assert_uint_eq(burst2(0, 0, 10 * q, 10 * q * T_S), 0);
	ck_assert_uint_eq(burst2b(1000000, 10 * F + 1000, 0, 10, 0), 0);
	ck_assert_uint_eq(burst2b(1000000, 10 * F + 1000, 0, 11, 0), 1);
}
END_TEST

/* Ports 0, 1 burst n frames each to port 4 at 0; ports 2, 3 to port 5 at
 * start2, start3; egresses 4 and 5 have q frames each, the pool pool B. */
static uint64_t pool_trial(uint64_t q, uint64_t pool, uint32_t n,
			   double start2, double start3)
{
	struct bm_sim_params p;
	struct bm_backend *be;
	struct bm_traffic t;
	struct bm_traffic_result *tr;
	struct bm_trial_result r;
	uint64_t lost;

	params(&p, q);
	p.shared_buffer_bytes = pool;
	be = mk(&p);
	mk_ports(&t, 6);
	add_burst(&t, 0, 4, n, 0);
	add_burst(&t, 1, 4, n, 0);
	add_burst(&t, 2, 5, n, start2);
	add_burst(&t, 3, 5, n, start3);
	tr = run(be, &t, 0.01, &r);
	lost = r.lost;
	bm_traffic_result_free(tr);
	bm_traffic_free(&t);
	bm_sim_free(be);
	return lost;
}

/*
 * (4) Shared buffer (RFC 8239 §3): two egresses, each fed by two
 * synchronised bursts of n = 100 at line rate, each with Q = 10 frames of
 * its own, and a pool of 30,000 B = floor(30000/1518) = 19 frames.  Each
 * line starts n frames during its bursts; when they end, both dedicated
 * queues and the pool are full (29 + 10 frames wait).  Truth: lost = 4n -
 * 2n - (2Q + 19) = 2n - 2Q - 19 = 161.  Without the pool 2n - 2Q = 180.
 * With egress 5's two bursts one after the other (0 % sync) only egress 4
 * congests and takes the whole pool: n - Q - 19 = 71.  With egress 5's
 * synchronised pair starting at 200T, after egress 4's 29 frames have
 * left (by 129T) and returned the pool, each egress in turn has the whole
 * pool: 2 (n - Q - 19) = 142.  Tolerance +-2 frames (the model is exact).
 */
START_TEST(test_shared_pool)
{
	uint64_t lost;

	lost = pool_trial(10, 30000, 100, 0, 0);
	ck_assert_msg(llabs((long long)lost - 161) <= 2, "lost %llu",
		      (unsigned long long)lost);
	ck_assert_uint_eq(pool_trial(10, 0, 100, 0, 0), 180);
	lost = pool_trial(10, 30000, 100, 0, 100 * T_S);
	ck_assert_msg(llabs((long long)lost - 71) <= 2, "lost %llu",
		      (unsigned long long)lost);
	lost = pool_trial(10, 30000, 100, 200 * T_S, 200 * T_S);
	ck_assert_msg(llabs((long long)lost - 142) <= 2, "lost %llu",
		      (unsigned long long)lost);
}
END_TEST

/* HOLB groups on 8 ports at A 50/50 %, B b_pct; FIFO per p (0: none). */
static struct bm_traffic_result *holb_trial(struct bm_traffic *t,
					    uint64_t fifo, int mode,
					    double a_pct, double b_pct,
					    struct bm_trial_result *r)
{
	struct bm_sim_params p;
	struct bm_backend *be;
	struct bm_traffic_result *tr;
	struct bm_error err = { "" };

	params(&p, 100);
	p.holb_fifo_frames = fifo;
	p.holb_port = 0;
	p.holb_mode = mode;
	be = mk(&p);
	mk_ports(t, 8);
	ck_assert_int_eq(bm_topo_holb(t, 0, 0, a_pct, b_pct, &err), 6);
	tr = run(be, t, 0.1, r);
	bm_sim_free(be);
	return tr;
}

static double loss_pct(const struct bm_stream_result *s)
{
	return 100.0 * (double)s->lost / (double)s->sent;
}

/*
 * (5) R8239-HOLB-1 groups (A, B, E1, E2) = (0..3), (4..7); streams A->E1,
 * A->E2 at 50 %, B->E2 at 100 %, d = 0.1 s: nA = round(FPS/2 d) = 4064,
 * nB = 8127.  A sends E1 at 2kT, E2 at (2k+1)T; B at kT.
 *
 * No FIFO: E1 is never congested: loss(A->E1) = 0.  E2's line is busy from
 * 0 and starts a frame every T up to the last arrival (2nA - 1)T = 8127T,
 * 8128 frames, and Q = 100 wait then: lost(E2) = nA + nB - 8128 - Q = 3963,
 * 32.5 % of E2's offered frames (33.3 % +-1 pp; Q makes it a little less).
 * Each flow does NOT lose 33.3 %: B's frames arrive just as the line frees
 * a place, only A's instants are contested, and round robin splits those
 * drops equally: |lost(A->E2) - lost(B->E2)| <= 1, i.e. A->E2 ~ 48.8 %,
 * B->E2 ~ 24.4 % (see sim_traffic.c).
 *
 * FIFO of D = 64 on port 0 (DUT-HOLB-EMU, holb_mode idle): E2 is never idle
 * again after B3 queues at 3T, so A's E2 frame of 3T blocks the FIFO; it
 * fills with A's frames of 3T..66T (32 to E2, 32 to E1) and every later A
 * frame is dropped; the FIFO drains after B stops.  Truth: A->E1 receives
 * its frames of 0 and 2T and 32 from the FIFO: lost nA - 34 = 4030; A->E2
 * nA - 33; B->E2 nothing; group 2 (no FIFO) unchanged.  Tolerance: exact.
 */
START_TEST(test_holb)
{
	struct bm_traffic t;
	struct bm_traffic_result *tr;
	struct bm_trial_result r;
	const uint64_t na = 4064, nb = 8127, q = 100;
	uint64_t e2;
	unsigned int g;

	tr = holb_trial(&t, 0, BM_SIM_HOLB_IDLE, 50, 100, &r);
	for (g = 0; g < 2; g++) {
		const struct bm_stream_result *a1 = &tr->streams[3 * g];
		const struct bm_stream_result *a2 = &tr->streams[3 * g + 1];
		const struct bm_stream_result *b = &tr->streams[3 * g + 2];

		ck_assert_uint_eq(a1->sent, na);
		ck_assert_uint_eq(a2->sent, na);
		ck_assert_uint_eq(b->sent, nb);
		ck_assert_uint_eq(a1->lost, 0);
		e2 = a2->lost + b->lost;
		ck_assert_uint_eq(e2, na + nb - 8128 - q);
		ck_assert_double_eq_tol(100.0 * e2 / (na + nb), 33.3, 1.0);
		ck_assert_msg(llabs((long long)a2->lost - (long long)b->lost) <= 1,
			      "A->E2 %llu, B->E2 %llu",
			      (unsigned long long)a2->lost,
			      (unsigned long long)b->lost);
		ck_assert_double_eq_tol(loss_pct(a2), 48.8, 0.5);
		ck_assert_double_eq_tol(loss_pct(b), 24.4, 0.5);
	}
	bm_traffic_result_free(tr);
	bm_traffic_free(&t);

	tr = holb_trial(&t, 64, BM_SIM_HOLB_IDLE, 50, 100, &r);
	ck_assert_uint_eq(tr->streams[0].lost, na - 34);
	ck_assert_uint_eq(tr->streams[1].lost, na - 33);
	ck_assert_uint_eq(tr->streams[2].lost, 0);
	ck_assert_uint_eq(tr->streams[3].lost, 0);
	ck_assert_uint_eq(tr->streams[4].lost + tr->streams[5].lost,
			  na + nb - 8128 - q);
	bm_traffic_result_free(tr);
	bm_traffic_free(&t);

	/* holb_mode room: A's head enters E2's queue while it has room and
	 * is blocked for good once B wins a contested instant of the full
	 * queue (B arrives at every departure, ahead of waiting heads) */
	tr = holb_trial(&t, 64, BM_SIM_HOLB_ROOM, 50, 100, &r);
	ck_assert_msg(tr->streams[0].lost > 0, "room: no HOLB");
	ck_assert_uint_eq(tr->streams[3].lost, 0);
	bm_traffic_result_free(tr);
	bm_traffic_free(&t);
}
END_TEST

/*
 * (5b) The loads of AMB-27 (49.99/49.99/99.98 %): B no longer arrives at
 * E2's departures.  holb_mode idle (DUT-HOLB-EMU): B alone keeps E2 busy
 * but for 0.02 %, so A's E2 head waits thousands of frame times and A->E1
 * loses (HOLB observed).  holb_mode room: a waiting head takes the place a
 * departure frees before B's next frame arrives, A is never blocked for
 * long and its FIFO of 64 never overflows: loss(A->E1) = 0.  The room
 * mode shows HOLB only with exactly synchronised traffic (test_holb).
 */
START_TEST(test_holb_line_rate)
{
	struct bm_traffic t;
	struct bm_traffic_result *tr;
	struct bm_trial_result r;

	tr = holb_trial(&t, 64, BM_SIM_HOLB_IDLE, 49.99, 99.98, &r);
	ck_assert_msg(loss_pct(&tr->streams[0]) > 50, "idle: A->E1 lost %.2f %%",
		      loss_pct(&tr->streams[0]));
	ck_assert_uint_eq(tr->streams[3].lost, 0);
	bm_traffic_result_free(tr);
	bm_traffic_free(&t);

	tr = holb_trial(&t, 64, BM_SIM_HOLB_ROOM, 49.99, 99.98, &r);
	ck_assert_uint_eq(tr->streams[0].lost, 0);
	ck_assert_uint_gt(tr->streams[2].lost, 0);
	bm_traffic_result_free(tr);
	bm_traffic_free(&t);
}
END_TEST

/*
 * (6) Egress shaper at 50 % of line (egress_bps = 500 Mbit/s), one stream
 * at 100 % for 1 s, Q = 100: n = 81274 frames, the line starts one every
 * 2T from 0, floor((n-1)/2) + 1 until the last arrival, then Q more.
 * Truth: received = 40637 + 100 exactly; the receive rate (received - 1)
 * over first to last rx = 500e6 / 12304 fps, rx load 50 % +-0.5 % (the Q
 * frames over the 1 s span add 0.12 %).
 */
START_TEST(test_egress_shaper)
{
	struct bm_sim_params p;
	struct bm_backend *be;
	struct bm_traffic t;
	struct bm_traffic_result *tr;
	struct bm_trial_result r;
	struct bm_error err = { "" };
	const struct bm_stream_result *s;
	uint64_t n = (uint64_t)llround(FPS);
	double rx_fps;

	params(&p, 100);
	p.ports[1].egress_bps = RATE / 2;
	be = mk(&p);
	mk_ports(&t, 2);
	ck_assert_int_eq(bm_topo_pair(&t, 0, 1, false, 100, &err), 1);
	tr = run(be, &t, 1.0, &r);
	s = &tr->streams[0];
	ck_assert_uint_eq(s->sent, n);
	ck_assert_uint_eq(s->received, (n - 1) / 2 + 1 + 100);
	rx_fps = (s->received - 1) / (s->last_rx_s - s->first_rx_s);
	ck_assert_double_eq_tol(rx_fps / (FPS / 2), 1.0, 1e-9);
	ck_assert_double_eq_tol(tr->ports[1].rx_load_pct, 50.0, 0.5);
	ck_assert_double_eq_tol(tr->ports[0].tx_load_pct, 100.0, 0.01);
	bm_traffic_result_free(tr);
	bm_traffic_free(&t);
	bm_sim_free(be);
}
END_TEST

/*
 * IPDV (RFC 5481 §4.1, REQ-STAT-3): one stream at the line rate into an
 * egress shaped to half of it, a queue that never fills (10 ms, 813
 * frames).  Frame i arrives at i T and leaves at 2 i T: D_i = D_0 + i T,
 * so every pair of consecutive frames has IPDV +T = 12,304 ns, min = mean
 * = max, over n - 1 pairs; PDV is (n - 1) T and its 99th percentile
 * (ceil(0.99 n) - 1) T within one histogram bucket (4 a power of two).
 * The sign is kept: the mean of absolute values would be the same here,
 * but the minimum of a signed IPDV is +T, not 0.
 */
START_TEST(test_ipdv_signed)
{
	struct bm_sim_params p;
	struct bm_backend *be;
	struct bm_traffic t;
	struct bm_traffic_result *tr;
	struct bm_trial_result r;
	struct bm_error err = { "" };
	const struct bm_stream_result *s;
	uint64_t n = (uint64_t)llround(FPS * 0.01), pairs;
	double mn, mean, mx;

	params(&p, 100000);
	p.ports[1].egress_bps = RATE / 2;
	be = mk(&p);
	mk_ports(&t, 2);
	ck_assert_int_eq(bm_topo_pair(&t, 0, 1, false, 100, &err), 1);
	tr = run(be, &t, 0.01, &r);
	s = &tr->streams[0];
	ck_assert_uint_eq(s->received, n);
	ck_assert_uint_eq(s->ipdv_count, n - 1);
	ck_assert_double_eq_tol(s->ipdv_min_ns, T_NS, 1e-3);
	ck_assert_double_eq_tol(s->ipdv_mean_ns, T_NS, 1e-3);
	ck_assert_double_eq_tol(s->ipdv_max_ns, T_NS, 1e-3);
	ck_assert_double_eq_tol(s->pdv_ns, (double)(n - 1) * T_NS, 1e-3);
	ck_assert_double_eq_tol((s->latency.p99_ns - s->latency.min_ns) /
				(ceil(0.99 * (double)n - 1e-9) - 1) / T_NS,
				1.0, 0.19);
	bm_ipdv_fold(tr, &pairs, &mn, &mean, &mx);
	ck_assert_uint_eq(pairs, n - 1);
	ck_assert_double_eq_tol(mean, T_NS, 1e-3);
	bm_traffic_result_free(tr);
	bm_traffic_free(&t);
	bm_sim_free(be);
}
END_TEST

/*
 * (7) The 64-port full mesh (4032 streams) at 10 %, 0.05 s: each stream
 * sends every 630T, port i's k-th stream (to i+k) at offset (k-1)T, so an
 * egress sees its 63 senders at 63 different offsets: no frame waits, no
 * queue needed.  Truth: 0 loss, round(FPS * 0.1/63 * 0.05) = 6 frames a
 * stream (24,192 in all), every latency base + T.
 */
START_TEST(test_mesh64)
{
	struct bm_sim_params p;
	struct bm_backend *be;
	struct bm_traffic t;
	struct bm_traffic_result *tr;
	struct bm_trial_result r;
	struct bm_error err = { "" };
	uint64_t n = (uint64_t)llround(FPS * 0.1 / 63 * 0.05);
	unsigned int i;

	params(&p, 0);
	be = mk(&p);
	mk_ports(&t, 64);
	ck_assert_int_eq(bm_topo_mesh(&t, 10, &err), 4032);
	tr = run(be, &t, 0.05, &r);
	ck_assert_uint_eq(n, 6);
	for (i = 0; i < 4032; i++)
		ck_assert_uint_eq(tr->streams[i].received, n);
	ck_assert_uint_eq(r.received, 4032 * n);
	ck_assert_uint_eq(r.lost, 0);
	ck_assert_double_eq_tol(r.latency.max_ns, BASE_NS + T_NS, 1e-6);
	bm_traffic_result_free(tr);
	bm_traffic_free(&t);
	bm_sim_free(be);
}
END_TEST

/*
 * IMIX {64, 1518} at 100 % of line, 1000 frames (COUNT): the interval is
 * the mean L1 time (84 + 1538) * 4 ns = 6488 ns and a pair of frames takes
 * 672 + 12304 = 2 * 6488 ns, so the port keeps up and the egress, at the
 * same rate, never queues.  Truth: lossless, latency min base + 672 ns,
 * max base + 12,304 ns, mean between; 500 frames of each size arrive.
 */
START_TEST(test_imix)
{
	struct bm_sim_params p;
	struct bm_backend *be;
	struct bm_traffic t;
	struct bm_traffic_result *tr;
	struct bm_trial_result r;
	struct bm_error err = { "" };
	struct bm_stream_spec s;

	params(&p, 0);
	be = mk(&p);
	mk_ports(&t, 2);
	t.n_imix = 2;
	t.imix[0] = 64;
	t.imix[1] = 1518;
	bm_stream_init(&s, 0, 1, 100);
	s.imix = true;
	s.pattern = BM_STREAM_COUNT;
	s.count = 1000;
	ck_assert_int_ge(bm_traffic_add_stream(&t, &s, &err), 0);
	tr = run(be, &t, 0.1, &r);
	ck_assert_uint_eq(tr->streams[0].received, 1000);
	ck_assert_double_eq_tol(tr->streams[0].latency.min_ns, BASE_NS + 672,
				1e-6);
	ck_assert_double_eq_tol(tr->streams[0].latency.max_ns,
				BASE_NS + 12304, 1e-6);
	ck_assert_double_eq_tol(tr->streams[0].latency.mean_ns,
				BASE_NS + (672 + 12304) / 2.0, 1e-6);
	ck_assert_uint_eq(tr->ports[1].rx_bytes, 500ULL * (64 + 1518));
	ck_assert_uint_eq(r.tx_late_frames, 0);
	ck_assert(!r.generator_limited);
	bm_traffic_result_free(tr);
	bm_traffic_free(&t);
	bm_sim_free(be);
}
END_TEST

/*
 * Two bursts of n = 100 on one tester port, both at 0, to two egresses:
 * the port interleaves them (same schedule, lower stream first), so frame
 * k of stream 0 leaves at 2kT (kT late) and of stream 1 at (2k+1)T ((k+1)T
 * late).  Late = more than one frame time behind (REQ-GEN-6): n - 2 + n - 1
 * = 197 frames, the latest nT.  Truth exact; no loss (one frame a line
 * every 2T).  Bursts have no per-frame schedule: no stall (tx_stalls_s).
 */
START_TEST(test_generator_late)
{
	struct bm_sim_params p;
	struct bm_backend *be;
	struct bm_traffic t;
	struct bm_traffic_result *tr;
	struct bm_trial_result r;

	params(&p, 0);
	be = mk(&p);
	mk_ports(&t, 3);
	add_burst(&t, 0, 1, 100, 0);
	add_burst(&t, 0, 2, 100, 0);
	tr = run(be, &t, 0.01, &r);
	ck_assert_uint_eq(r.lost, 0);
	ck_assert(r.generator_limited);
	ck_assert_uint_eq(r.tx_late_frames, 197);
	ck_assert_double_eq_tol(r.tx_late_max_s, 100 * T_S, 1e-12);
	ck_assert_double_eq(r.tx_stalls_s[0], 0);
	ck_assert_double_eq_tol(tr->streams[1].last_tx_s, 199 * T_S, 1e-12);
	bm_traffic_result_free(tr);
	bm_traffic_free(&t);
	bm_sim_free(be);
}
END_TEST

/*
 * The stalls a trial keeps (bm_trial_stall_add): the BM_TX_STALLS largest,
 * largest first, ties kept; nothing at or below the smallest kept, no
 * zero, negative or NaN.
 */
START_TEST(test_stall_top)
{
	static const double in[] = { 3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 0, -1 };
	static const double want[BM_TX_STALLS] = { 9, 6, 5, 5, 5, 4, 3, 3 };
	double top[BM_TX_STALLS] = { 0 };
	unsigned int i;

	for (i = 0; i < sizeof(in) / sizeof(in[0]); i++)
		bm_trial_stall_add(top, in[i]);
	bm_trial_stall_add(top, NAN);
	for (i = 0; i < BM_TX_STALLS; i++)
		ck_assert_double_eq(top[i], want[i]);
	bm_trial_stall_add(top, 3);
	ck_assert_double_eq(top[BM_TX_STALLS - 1], 3);
	bm_trial_stall_add(top, 10);
	ck_assert_double_eq(top[0], 10);
	ck_assert_double_eq(top[1], 9);
	ck_assert_double_eq(top[BM_TX_STALLS - 1], 3);
}
END_TEST

/*
 * A trial's transmit path (bm_trial_tx_path_add): the first stream's
 * name, kept while every stream agrees, "mixed" from the first that does
 * not.
 */
START_TEST(test_tx_path_merge)
{
	struct bm_trial_result r;

	memset(&r, 0, sizeof(r));
	bm_trial_tx_path_add(&r, "recycle");
	ck_assert_str_eq(r.tx_path, "recycle");
	bm_trial_tx_path_add(&r, "recycle");
	ck_assert_str_eq(r.tx_path, "recycle");
	bm_trial_tx_path_add(&r, "alloc");
	ck_assert_str_eq(r.tx_path, "mixed");
	bm_trial_tx_path_add(&r, "recycle");
	ck_assert_str_eq(r.tx_path, "mixed");
	memset(&r, 0, sizeof(r));
	bm_trial_tx_path_add(&r, "alloc");
	ck_assert_str_eq(r.tx_path, "alloc");
}
END_TEST

/*
 * generator_max_fps = FPS/2 on a 100 % stream of n = round(FPS * 0.01) =
 * 813 frames: frame k leaves at 2kT, kT late, late (> T) for k >= 2:
 * n - 2 frames; the last leaves (n-1)T after its schedule: n - 1 whole
 * intervals of shortfall.  The DUT still forwards all.  Exact.  Each
 * frame k >= 2 gains T of lateness over its predecessor and leaves more
 * than T late: a stall of T, so the 8 largest (tx_stalls_s) are T each;
 * frame 1, exactly T late, is none (an interval's jitter never is).
 */
START_TEST(test_generator_max_fps)
{
	struct bm_sim_params p;
	struct bm_backend *be;
	struct bm_traffic t;
	struct bm_traffic_result *tr;
	struct bm_trial_result r;
	struct bm_error err = { "" };
	uint64_t n = (uint64_t)llround(FPS * 0.01);
	unsigned int i;

	params(&p, 0);
	p.generator_max_fps = FPS / 2;
	be = mk(&p);
	mk_ports(&t, 2);
	ck_assert_int_eq(bm_topo_pair(&t, 0, 1, false, 100, &err), 1);
	tr = run(be, &t, 0.01, &r);
	ck_assert_uint_eq(n, 813);
	ck_assert_uint_eq(r.received, n);
	ck_assert(r.generator_limited);
	ck_assert_uint_eq(r.tx_late_frames, n - 2);
	ck_assert_uint_eq(r.shortfall, n - 1);
	ck_assert_double_eq_tol(r.tx_late_max_s, (n - 1) * T_S, 1e-12);
	for (i = 0; i < BM_TX_STALLS; i++) {
		ck_assert_double_eq_tol(r.tx_stalls_s[i], T_S, 1e-12);
		ck_assert_double_eq_tol(tr->streams[0].tx_stalls_s[i], T_S, 1e-12);
	}
	ck_assert_double_eq_tol(r.actual_duration_s, 2 * (n - 1) * T_S, 1e-12);
	bm_traffic_result_free(tr);
	bm_traffic_free(&t);
	bm_sim_free(be);
}
END_TEST

/*
 * Late frames (REQ-TRIAL-1 step 4): 100 % for 0.1 s (8127 frames) into a
 * 50 % egress with room for all, drain 10 ms: frame j leaves the line at
 * (j+1) 2T, so it counts iff (j+1) 2T + base <= 0.1 s + 0.01 s: 4469
 * frames; the other 3658 are late, hence lost.  Exact.
 */
START_TEST(test_late_after_drain)
{
	struct bm_sim_params p;
	struct bm_backend *be;
	struct bm_traffic t;
	struct bm_trial_result r;
	struct bm_error err = { "" };
	struct bm_trial_spec s;

	params(&p, 1000000);
	p.ports[1].egress_bps = RATE / 2;
	be = mk(&p);
	mk_ports(&t, 2);
	ck_assert_int_eq(bm_topo_pair(&t, 0, 1, false, 100, &err), 1);
	memset(&s, 0, sizeof(s));
	s.frame_size = F;
	s.duration_s = 0.1;
	s.drain_s = 0.01;
	s.traffic = &t;
	ck_assert_int_eq(bm_run_trial(be, &s, &r, &err), 0);
	ck_assert_uint_eq(r.attempted, 8127);
	ck_assert_uint_eq(r.received, 4469);
	ck_assert_uint_eq(r.late, 8127 - 4469);
	ck_assert_uint_eq(r.lost, 8127 - 4469);
	ck_assert(r.late_watch_s < 0);
	ck_assert_uint_eq(r.latency.count, 0);	/* not asked for */
	bm_traffic_free(&t);
	bm_sim_free(be);
}
END_TEST

/*
 * A scheduled outage (DUT-OUTAGE) of 10 ms at 50 ms on a 100 % stream:
 * the frames that reach the DUT in [50, 60) ms are lost, kT in that window:
 * k = 4064 .. 4876, 813 frames; the longest receive gap is 814T.  Random
 * loss 1 % on 81,274 frames loses 813 +- 4 sigma (sigma 28.4) and repeats
 * exactly with the same seed.
 */
START_TEST(test_outage_random_loss)
{
	struct bm_sim_params p;
	struct bm_backend *be;
	struct bm_traffic t;
	struct bm_traffic_result *tr;
	struct bm_trial_result r, r2;
	struct bm_error err = { "" };
	uint64_t lost;

	params(&p, 0);
	p.outage_s = 0.01;
	p.outage_at_s = 0.05;
	be = mk(&p);
	mk_ports(&t, 2);
	ck_assert_int_eq(bm_topo_pair(&t, 0, 1, false, 100, &err), 1);
	tr = run(be, &t, 0.1, &r);
	ck_assert_uint_eq(r.lost, 813);
	ck_assert_double_eq_tol(r.max_gap_s, 814 * T_S, 1e-12);
	bm_traffic_result_free(tr);
	bm_sim_free(be);

	params(&p, 0);
	p.random_loss = 0.01;
	p.seed = 42;
	be = mk(&p);
	tr = run(be, &t, 1.0, &r);
	lost = r.lost;
	ck_assert_msg(fabs((double)lost - 812.74) < 4 * 28.4, "lost %llu",
		      (unsigned long long)lost);
	bm_traffic_result_free(tr);
	bm_sim_free(be);
	be = mk(&p);
	tr = run(be, &t, 1.0, &r2);
	ck_assert_uint_eq(r2.lost, lost);
	bm_traffic_result_free(tr);
	bm_traffic_free(&t);
	bm_sim_free(be);
}
END_TEST

/* (8) The parameters from JSON, strictly; the trial's own refusals. */
START_TEST(test_params)
{
	struct bm_error err = { "" };
	json_object *o = json_tokener_parse(
		"{\"ports\": [{\"port\": 2, \"egress_bps\": 5e8,"
		" \"queue_frames\": 100}, {\"port\": 0, \"queue_bytes\": 9000}],"
		" \"shared_buffer_bytes\": 30000, \"holb_fifo_frames\": 64,"
		" \"holb_port\": 0, \"holb_mode\": \"room\"}");
	struct bm_backend *be = bm_sim_new_json(o, &err);
	const struct bm_sim_params *p;
	struct bm_sim_params q;
	struct bm_traffic t;
	struct bm_trial_spec s;
	struct bm_trial_result r;

	ck_assert_msg(be, "%s", err.msg);
	p = bm_sim_params_of(be);
	ck_assert_double_eq(p->ports[2].egress_bps, 5e8);
	ck_assert_uint_eq(p->ports[2].queue_frames, 100);
	ck_assert_uint_eq(p->ports[2].queue_bytes, 0);
	ck_assert_uint_eq(p->ports[0].queue_bytes, 9000);
	ck_assert_uint_eq(p->ports[0].queue_frames, BM_SIM_QUEUE_DEFAULT);
	ck_assert_double_eq(p->ports[1].egress_bps, 0);
	ck_assert_uint_eq(p->shared_buffer_bytes, 30000);
	ck_assert_uint_eq(p->holb_fifo_frames, 64);
	ck_assert_int_eq(p->holb_port, 0);
	ck_assert_int_eq(p->holb_mode, BM_SIM_HOLB_ROOM);
	bm_sim_free(be);
	json_object_put(o);

	sim_json_rejects("{\"ports\": [{\"port\": 1, \"egress\": 1}]}",
		     "sim: ports[0]: egress: unknown parameter");
	sim_json_rejects("{\"ports\": [{\"port\": 256}]}",
		     "sim: ports[0]: port: must be in [0, 255]");
	sim_json_rejects("{\"ports\": [{\"port\": -1}]}", "ports[0]: port: must be in");
	sim_json_rejects("{\"ports\": [{\"port\": 1}, {\"port\": 3,"
		     " \"egress_bps\": -1}]}",
		     "ports[1]: egress_bps: must be in");
	sim_json_rejects("{\"ports\": [{\"egress_bps\": 1e9}]}",
		     "ports[0]: port: missing");
	sim_json_rejects("{\"ports\": [{\"port\": 1}, {\"port\": 1}]}",
		     "ports[1]: port 1 given twice");
	sim_json_rejects("{\"ports\": {\"port\": 1}}", "ports: expected an array");
	sim_json_rejects("{\"ports\": [3]}", "ports[0]: expected an object");
	sim_json_rejects("{\"ports\": [{\"port\": 1, \"queue_frames\": 1.5}]}",
		     "ports[0]: queue_frames: expected an integer");
	sim_json_rejects("{\"holb_port\": 256}", "holb_port: must be in");
	sim_json_rejects("{\"holb_mode\": \"full\"}", "holb_mode: expected one of");
	sim_json_rejects("{\"holb_fifo_frames\": -1}", "holb_fifo_frames: must be in");
	sim_json_rejects("{\"shared_buffer_bytes\": \"lots\"}",
		     "shared_buffer_bytes: expected an integer");

	bm_sim_params_default(&q);
	q.ports[3].egress_bps = -5;
	ck_assert_int_eq(bm_sim_params_check(&q, &err), -EINVAL);
	ck_assert_msg(strstr(err.msg, "port 3: egress_bps"), "%s", err.msg);

	/* 2 x 148,809,524 frames of 64 B at line rate for 100 s */
	params(&q, 0);
	be = mk(&q);
	mk_ports(&t, 2);
	ck_assert_int_eq(bm_topo_pair(&t, 0, 1, true, 100, &err), 2);
	memset(&s, 0, sizeof(s));
	s.frame_size = 64;
	s.duration_s = 100;
	s.drain_s = -1;
	s.traffic = &t;
	ck_assert_int_eq(bm_run_trial(be, &s, &r, &err), -EINVAL);
	ck_assert_msg(strstr(err.msg, "297619048 frames") &&
		      strstr(err.msg, "100000000"), "%s", err.msg);
	ck_assert_double_eq(be->elapsed_s, 0);
	/* the traffic's own check */
	t.streams[1].rx_port = 1;
	s.duration_s = 1;
	ck_assert_int_eq(bm_run_trial(be, &s, &r, &err), -EINVAL);
	ck_assert_msg(strstr(err.msg, "tx and rx port are the same"), "%s",
		      err.msg);
	bm_traffic_free(&t);
	bm_sim_free(be);
}
END_TEST

/* Without traffic_res the totals are the same; a pair trial (traffic
 * NULL) is still the fluid model (the old suite checks it in full). */
START_TEST(test_totals_without_res)
{
	static const unsigned int in[] = { 0, 1, 2 };
	struct bm_sim_params p;
	struct bm_backend *be;
	struct bm_traffic t;
	struct bm_traffic_result *tr;
	struct bm_trial_result r, r2;
	struct bm_error err = { "" };
	struct bm_trial_spec s;

	params(&p, 100);
	be = mk(&p);
	mk_ports(&t, 4);
	ck_assert_int_eq(bm_topo_many_to_one(&t, in, 3, 3, 50, &err), 3);
	tr = run(be, &t, 0.1, &r);
	memset(&s, 0, sizeof(s));
	s.frame_size = F;
	s.duration_s = 0.1;
	s.latency = true;
	s.drain_s = -1;
	s.traffic = &t;
	ck_assert_int_eq(bm_run_trial(be, &s, &r2, &err), 0);
	ck_assert_uint_eq(r2.received, r.received);
	ck_assert_uint_eq(r2.lost, r.lost);
	ck_assert_double_eq(r2.latency.p99_ns, r.latency.p99_ns);
	ck_assert_double_eq_tol(be->elapsed_s, 0.2, 1e-9);
	bm_traffic_result_free(tr);
	bm_traffic_free(&t);

	bm_trial_spec_rate(&s, 512, 50000, 1);
	ck_assert_int_eq(bm_run_trial(be, &s, &r, &err), 0);
	ck_assert_uint_eq(r.received, 50000);
	bm_sim_free(be);
}
END_TEST

static Suite *sim_traffic_suite(void)
{
	Suite *s = suite_create("sim_traffic");
	TCase *tc = tcase_create("model");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_mesh4_lossless);
	tcase_add_test(tc, test_pair_models_agree);
	tcase_add_test(tc, test_many_to_one);
	tcase_add_test(tc, test_microburst);
	tcase_add_test(tc, test_shared_pool);
	tcase_add_test(tc, test_holb);
	tcase_add_test(tc, test_holb_line_rate);
	tcase_add_test(tc, test_egress_shaper);
	tcase_add_test(tc, test_ipdv_signed);
	tcase_add_test(tc, test_mesh64);
	tcase_add_test(tc, test_imix);
	tcase_add_test(tc, test_generator_late);
	tcase_add_test(tc, test_generator_max_fps);
	tcase_add_test(tc, test_stall_top);
	tcase_add_test(tc, test_tx_path_merge);
	tcase_add_test(tc, test_late_after_drain);
	tcase_add_test(tc, test_outage_random_loss);
	tcase_add_test(tc, test_totals_without_res);
	suite_add_tcase(s, tc);
	tc = tcase_create("params");
	tcase_add_test(tc, test_params);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tj_run_suite(sim_traffic_suite());
}

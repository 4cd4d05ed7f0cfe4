/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The reference models of SPEC 5.3 that RFC 7640's expected results come
 * from, fed with the actual per-frame times of a trial (the tx log), so
 * that a generator's jitter cannot make a test pass or fail:
 *
 *   MODEL-TB   one token bucket with Linux act_police semantics (DUT-POL),
 *              the colour-blind two-bucket marker of DUT-POL2, and its
 *              colour-aware form (RFC 4115; no Linux action has it);
 *   MODEL-TBF  tbf + FIFO (DUT-TBF, DUT-TBFB): per-frame drop or departure;
 *
 * and their closed forms for one burst of equal frames.  Times are in s,
 * sizes in accounted bytes A (the caller picks the accounting: F - 4 +
 * overhead for what Linux charges at egress, SPEC 5.1).
 */
#ifndef BM_TM_MODEL_H
#define BM_TM_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A deterministic token bucket (MODEL-TB). */
struct bm_tb {
	double rho;		/* refill, bytes/s (rate / 8) */
	double b;		/* depth, bytes */
	double tokens;		/* at t_c */
	double t_c;		/* s, the last update */
};

/* Colours of the two-rate colour-blind marker (DUT-POL2). */
enum bm_colour {
	BM_GREEN = 0,		/* conforms to bucket C: passes as sent */
	BM_YELLOW,		/* exceeds C, conforms to E: re-marked */
	BM_RED,			/* exceeds both: dropped */
};

/* Two independent buckets, C (CIR, CBS) then E (EIR, EBS). */
struct bm_tb2 {
	struct bm_tb c, e;
};

/* A full bucket of bucket_bytes refilled at rate_bps, at t = 0. */
void bm_tb_init(struct bm_tb *tb, double rate_bps, double bucket_bytes);

/* The tokens at t (s): min(b, T + rho * (t - t_c)), no earlier than t_c. */
double bm_tb_tokens(const struct bm_tb *tb, double t_s);

/* MODEL-TB: does a frame of A bytes at t conform?  Yes: its tokens are
 * taken (t_c = t); no: the state is unchanged (act_police). */
bool bm_tb_offer(struct bm_tb *tb, double t_s, double A_bytes);

/* The first time >= t at which the bucket holds A bytes; INFINITY when
 * it never can (A > b, or no refill). */
double bm_tb_ready(const struct bm_tb *tb, double t_s, double A_bytes);

/* Take A bytes at t whether or not they are there (a shaper that waited
 * for bm_tb_ready; rounding may leave a hair below zero). */
void bm_tb_take(struct bm_tb *tb, double t_s, double A_bytes);

/* Both buckets full at t = 0. */
void bm_tb2_init(struct bm_tb2 *m, double cir_bps, double cbs_bytes,
		 double eir_bps, double ebs_bytes);

/* DUT-POL2: green if C takes the frame, else yellow if E does, else red;
 * a bucket that does not take it is left as it was. */
enum bm_colour bm_tb2_offer(struct bm_tb2 *m, double t_s, double A_bytes);

/* The colour-aware marker of RFC 4115 §2: a frame that arrives green is
 * bm_tb2_offer()'s; one that arrives yellow (pre_yellow) may only take
 * bucket E: yellow if E holds A bytes, else red. */
enum bm_colour bm_tb2_offer_aware(struct bm_tb2 *m, double t_s,
				  double A_bytes, bool pre_yellow);

/*
 * MODEL-TB's closed form: the longest back-to-back burst of frames of A
 * bytes at spacing tau (s) that a full bucket (b bytes, rho bytes/s)
 * passes, floor((b - A) / (A - rho * tau)) + 1; 0 when A > b, UINT64_MAX
 * when the refill keeps up (rho * tau >= A).
 */
uint64_t bm_tb_burst_max(double b, double A, double rho, double tau);

/* MODEL-TBF: the shaper, its queue and (optionally) its line. */
struct bm_tbf_cfg {
	double rate_bps;	/* > 0 */
	double bucket_bytes;	/* > 0; frames with A above it are dropped,
				 * as tbf drops what its burst cannot hold */
	uint64_t limit_frames;	/* waiting frames (pfifo); UINT64_MAX: none */
	uint64_t limit_bytes;	/* their q_bytes (bfifo); 0: none */
	double line_bps;	/* the head also waits for the line to carry
				 * the previous frame's wire_bytes; 0: none */
};

/* One frame: the caller fills t_s .. wire_bytes, the model dep_s. */
struct bm_tbf_frame {
	double t_s;		/* arrival, non-decreasing */
	double a_bytes;		/* what the bucket charges */
	uint32_t q_bytes;	/* what a byte limit counts (skb->len, F - 4) */
	uint32_t wire_bytes;	/* what the line carries (F + 20) */
	double dep_s;		/* out: the head leaves; < 0: dropped */
};

/*
 * Run MODEL-TBF over f[0..n): a frame waits in the FIFO while the frames
 * ahead of it, the line and the bucket are not ready; it is dropped when
 * it would have to wait and limit_frames frames already wait, or their
 * q_bytes plus its own exceed limit_bytes.  A frame that can leave at its
 * arrival never waits (so limit 0 still passes an idle shaper's frames,
 * where Linux's pfifo limit 0 would drop them).  Departures at an instant
 * go before arrivals.  Returns the number dropped, -EINVAL (bad cfg,
 * arrivals out of order) or -ENOMEM.
 */
long bm_tbf_run(const struct bm_tbf_cfg *cfg, struct bm_tbf_frame *f,
		size_t n);

/*
 * MODEL-TBF's closed form (SPEC 5.3): the longest burst of frames of A
 * bytes at spacing tau into an idle shaper (b, rho bytes/s) with a queue
 * of Q frames that loses nothing, the largest n with
 * n <= Q + floor((b + rho * (n - 1) * tau) / A); UINT64_MAX when the
 * refill keeps up (rho * tau >= A).  For a byte limit L (bfifo) pass
 * Q = floor(L / (F - 4)).
 */
uint64_t bm_tbf_burst_max(double b, double A, double rho, double tau,
			  uint64_t Q);

#endif /* BM_TM_MODEL_H */

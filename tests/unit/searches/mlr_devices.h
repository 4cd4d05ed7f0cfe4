/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tiny simulated devices for the MLRsearch tests and benchmark.  Each is
 * a struct bm_backend that computes a trial's counts from the offered
 * load and duration, and advances be->elapsed_s virtually by the trial
 * duration plus MLR_DEV_OVERHEAD_S (CSIT-like per-trial overhead); no
 * device ever sleeps.  Self-contained: independent of user/lib/sim.c.
 */
#ifndef MLR_DEVICES_H
#define MLR_DEVICES_H

#include <stdint.h>

#include "bm_trial.h"

/* Per-trial overhead added to the virtual clock, s. */
#define MLR_DEV_OVERHEAD_S 0.5

/* Forwards at most capacity_fps: loss above it is the excess. */
struct bm_backend *mlr_dev_cliff(double capacity_fps);

/* Lossless up to knee_fps, then loss ratio slope * (load - knee) / knee. */
struct bm_backend *mlr_dev_gradual(double knee_fps, double slope);

/* capacity_fps plus a buffer of buffer_frames: short trials above the
 * capacity are absorbed, so the zero-loss rate is cap + buffer / d. */
struct bm_backend *mlr_dev_buffer(double capacity_fps, double buffer_frames);

/* A cliff whose capacity varies per trial by up to +-noise_rel
 * (xorshift64, seeded, reproducible). */
struct bm_backend *mlr_dev_noisy(double capacity_fps, double noise_rel,
				 uint64_t seed);

/* A cliff at capacity_fps that also loses band_loss_ratio of the frames
 * for loads in [band_lo_fps, band_hi_fps]: loss decreasing with load. */
struct bm_backend *mlr_dev_nonmono(double capacity_fps, double band_lo_fps,
				   double band_hi_fps, double band_loss_ratio);

/* Lossless device behind a generator that sends at most tester_max_fps:
 * attempted falls short of intended above it (REQ-GEN-6). */
struct bm_backend *mlr_dev_genlimit(double tester_max_fps);

/*
 * SPEC MLR-ACC V2 "livelock": loss(L) = 0 if L <= 5e6, else
 * min(1, (L - 5e6) / L + 0.01).  Counts are scaled (2^62 frames per
 * trial) so the loss ratio survives in full double precision.
 */
struct bm_backend *mlr_dev_livelock(void);

/* Constant loss ratio at every load (MLR-ACC V3, V4 when 0), exact. */
struct bm_backend *mlr_dev_constant(double loss_ratio);

/*
 * Replays the draft's §5.2 example: answers the 16 (duration, load)
 * pairs of [MLR §5.2] with the printed loss ratios, exactly (scaled
 * counts); any other trial fails with -EINVAL naming the load.
 */
struct bm_backend *mlr_dev_replay52(void);

/*
 * The four devices on which bmgen's MLRsearch is
 * compared with FD.io CSIT's MLRsearch 1.2.1 (Documentation/benchmarks.md).
 * Capacity C in fps; a trial of load L fps and duration d s sends
 * sent = floor(d L) frames and loses ceil(sent lr) of them, lr being:
 *   CLIFF     max(0, 1 - C / L);
 *   GRADUAL   0 up to 0.98 C, linear to 1 % at 1.02 C, then
 *             max(1 %, 1 - C / L);
 *   BUFFER    max(0, 1 - (C d + 0.02 C) / (d L)): a buffer of 0.02 C
 *             frames absorbs the excess of a trial, so it forwards
 *             min(sent, C d + 0.02 C) frames, give or take the rounding;
 *   BGLOSS    0 up to C / 2, 1e-6 up to C, then max(1e-6, 1 - C / L).
 */
enum mlr_cmp_dev {
	MLR_CMP_CLIFF, MLR_CMP_GRADUAL, MLR_CMP_BUFFER, MLR_CMP_BGLOSS,
	MLR_CMP_N
};

/* One of the comparison devices above with capacity capacity_fps. */
struct bm_backend *mlr_dev_cmp(enum mlr_cmp_dev kind, double capacity_fps);

/* Its short name: "cliff", "gradual", "duration-dependent", "low
 * background loss". */
const char *mlr_dev_cmp_name(enum mlr_cmp_dev kind);

/*
 * The analytic truth: the largest load whose loss ratio in a trial of
 * duration_s is at most ratio, without the one-frame roundings (floor of
 * sent, ceil of lost), which move it down by less than one frame per
 * trial.
 */
double mlr_dev_cmp_truth(enum mlr_cmp_dev kind, double capacity_fps,
			 double duration_s, double ratio);

/* Make trial number fail_at (0-based) fail with -EIO; -1 = never. */
void mlr_dev_fail_at(struct bm_backend *be, int fail_at);

/* Free a device made by any constructor above. */
void mlr_dev_destroy(struct bm_backend *be);

#endif /* MLR_DEVICES_H */

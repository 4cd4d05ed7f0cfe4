/* SPDX-License-Identifier: GPL-2.0 */
/* Assertions on the simulated device shared by its unit tests. */
#ifndef SIM_ASSERT_H
#define SIM_ASSERT_H

#include <stdint.h>

/* The simulator refuses the JSON parameters js with a message that
 * contains needle (a Check assertion: fails the test otherwise). */
void sim_json_rejects(const char *js, const char *needle);

struct bm_backend;
struct bm_traffic;
struct bm_trial_result;

/* Make *t empty with n ports p0..p(n-1) of line rate bit/s (a test
 * failure if one is refused). */
void sim_check_ports(struct bm_traffic *t, unsigned int n, double rate);

/* Run N-port traffic t on be for d s at trial frame size F, with latency
 * and the default waits; its per-stream results (the caller frees them;
 * a failed trial fails the test). */
struct bm_traffic_result *sim_check_traffic(struct bm_backend *be,
					  const struct bm_traffic *t,
					  uint32_t frame_size, double d,
					  struct bm_trial_result *r);

#endif /* SIM_ASSERT_H */

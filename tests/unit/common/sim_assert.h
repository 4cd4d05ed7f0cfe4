/* SPDX-License-Identifier: GPL-2.0 */
/* Assertions on the simulated device shared by its unit tests. */
#ifndef SIM_ASSERT_H
#define SIM_ASSERT_H

/* The simulator refuses the JSON parameters js with a message that
 * contains needle (a Check assertion: fails the test otherwise). */
void sim_json_rejects(const char *js, const char *needle);

#endif /* SIM_ASSERT_H */

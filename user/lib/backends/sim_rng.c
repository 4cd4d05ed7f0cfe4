// SPDX-License-Identifier: GPL-2.0
/*
 * The simulated DUT's PRNG (splitmix64): deterministic, seeded from the
 * params, so that a dry run gives the same result every time; uniform
 * and binomial draws for its losses, noise and jitter.
 */
#include <math.h>
#include <stdint.h>

#include "sim_int.h"

static uint64_t rng_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static double rng_uniform(uint64_t *s)
{
	return (rng_next(s) >> 11) * (1.0 / 9007199254740992.0);
}

double sim_rng_uniform(uint64_t *s)
{
	return rng_uniform(s);
}

uint64_t sim_rng_binomial(uint64_t *s, uint64_t n, double p)
{
	double mean = n * p, u, pk, cdf, z;
	uint64_t k;

	if (n == 0 || p <= 0.0)
		return 0;
	if (p >= 1.0)
		return n;
	if (mean < 40.0) {
		u = rng_uniform(s);
		pk = exp(n * log1p(-p));
		cdf = pk;
		for (k = 0; cdf < u && k < n; k++) {
			pk *= (double)(n - k) / (k + 1) * p / (1.0 - p);
			cdf += pk;
			if (pk < 1e-300)
				break;
		}
		return k;
	}
	u = rng_uniform(s);
	if (u < 1e-300)
		u = 1e-300;
	z = sqrt(-2.0 * log(u)) * cos(2.0 * M_PI * rng_uniform(s));
	z = llround(mean + z * sqrt(mean * (1.0 - p)));
	if (z < 0)
		z = 0;
	if (z > (double)n)
		z = (double)n;
	return (uint64_t)z;
}

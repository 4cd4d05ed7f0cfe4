// SPDX-License-Identifier: GPL-2.0
/*
 * b2b_bench: what RFC 2544 back-to-back (R2544-B2B) costs at its
 * defaults, 50 repetitions of the whole burst-length search (AMB-19), on
 * simulated devices: trials, and the time they take at RFC 2544's
 * defaults per trial (the §23b learning pause, the §26.4 trial, the §23e
 * pause after it), since a burst trial's own length says little of a
 * run's.  Prints a Markdown table to stdout.
 */
#include <stdio.h>
#include <stdlib.h>

#include "bm_sim.h"
#include "rfc2544.h"

struct b2b_dev {
	const char *name;
	double line_bps, rate_bps, bucket_bytes, noise;
	uint64_t queue_frames;
	uint32_t frame;
};

static const struct b2b_dev devs[] = {
	/* SPEC R2544-B2B acceptance, DUT-TBF on LAB-P 1 GbE: 104 */
	{ "DUT-TBF 10 Mbit/s, b 1600, Q 100, 1 GbE", 1e9, 10e6, 1600, 0, 100,
	  512 },
	{ "the same at 64 B", 1e9, 10e6, 1600, 0, 100, 64 },
	{ "the same at 1518 B", 1e9, 10e6, 1600, 0, 100, 1518 },
	/* the rate drawn per trial: answers that move between repetitions */
	{ "tbf at 0.4-0.6 of the line, drawn per trial", 1e9, 500e6, 1600,
	  0.2, 100, 512 },
};

int main(void)
{
	struct rfc2544_params p;
	size_t i;

	rfc2544_params_default(&p, RFC2544_BACK_TO_BACK);
	printf("RFC 2544 back-to-back at its defaults: %u repetitions of the "
	       "whole search, burst_max 1 s of the line; time = trials x "
	       "(%.0f s learning pause + %.0f s trial + %.0f s pause after "
	       "it).\n\n", p.b2b_repetitions, p.learning_pause_s,
	       p.b2b_trial_s, p.restabilise_s);
	printf("| device | frame B | mean frames | min, max | trials | time min |\n");
	printf("|---|---:|---:|---|---:|---:|\n");
	for (i = 0; i < sizeof(devs) / sizeof(devs[0]); i++) {
		const struct b2b_dev *d = &devs[i];
		struct bm_error err = { "" };
		struct bm_sim_params sp;
		struct bm_backend *be;
		json_object *doc = NULL, *e, *v;
		size_t n;

		bm_sim_params_default(&sp);
		sp.line_rate_bps = d->line_bps;
		sp.capacity_bps = d->rate_bps;
		sp.bucket_bytes = d->bucket_bytes;
		sp.buffer_frames = d->queue_frames;
		sp.capacity_noise = d->noise;
		be = bm_sim_new(&sp, &err);
		if (!be) {
			fprintf(stderr, "%s: %s\n", d->name, err.msg);
			return EXIT_FAILURE;
		}
		p.frame_sizes[0] = d->frame;
		p.n_sizes = 1;
		if (rfc2544_run(RFC2544_BACK_TO_BACK, be, &p, NULL, NULL, &doc,
				&err)) {
			fprintf(stderr, "%s: %s\n", d->name, err.msg);
			return EXIT_FAILURE;
		}
		json_object_object_get_ex(doc, "trials", &v);
		n = json_object_array_length(v);
		json_object_object_get_ex(doc, "results", &v);
		json_object_object_get_ex(v, "per_size", &v);
		e = json_object_array_get_idx(v, 0);
		printf("| %s | %u | %.1f |", d->name, d->frame,
		       json_object_object_get_ex(e, "mean_frames", &v) ?
		       json_object_get_double(v) : 0.0);
		printf(" %.0f, %.0f |",
		       json_object_object_get_ex(e, "min_frames", &v) ?
		       json_object_get_double(v) : 0.0,
		       json_object_object_get_ex(e, "max_frames", &v) ?
		       json_object_get_double(v) : 0.0);
		printf(" %zu | %.1f |\n", n, n * (p.learning_pause_s +
			p.b2b_trial_s + p.restabilise_s) / 60.0);
		json_object_put(doc);
		bm_sim_free(be);
	}
	return EXIT_SUCCESS;
}

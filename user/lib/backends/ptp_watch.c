// SPDX-License-Identifier: GPL-2.0
/*
 * This host's clock while a pool's part runs (bm_ptp.h): ptp4l read in a
 * thread of its own, so that a sending part's generator and a receiving
 * part's wait are not held by a slow answer.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bm_clock.h"
#include "bm_ptp.h"

struct bm_ptp_watch {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	bool stop;
	char path[108];		/* "" = bm_ptp_read's default */
	char gm[24];
	struct bm_clock_span span;
};

void bm_clock_span_add(struct bm_clock_span *s,
		       const struct bm_clock_reading *c, const char *gm)
{
	if (!c->valid) {
		s->missed++;
		return;
	}
	if (gm && gm[0] && strcmp(c->gm, gm) && !s->other_gm[0])
		memcpy(s->other_gm, c->gm, sizeof(s->other_gm));
	if (!s->samples || c->offset_ns < s->min_ns)
		s->min_ns = c->offset_ns;
	if (!s->samples || c->offset_ns > s->max_ns)
		s->max_ns = c->offset_ns;
	s->samples++;
}

/* *ts = CLOCK_MONOTONIC d s (0 <= d < a few s) from now. */
static void mono_after(struct timespec *ts, double d)
{
	long ns;

	clock_gettime(CLOCK_MONOTONIC, ts);
	ns = ts->tv_nsec + (long)(d * 1e9);
	ts->tv_sec += ns / 1000000000L;
	ts->tv_nsec = ns % 1000000000L;
}

static void *watch_run(void *arg)
{
	struct bm_ptp_watch *w = arg;
	struct bm_clock_reading c;
	struct timespec until;
	double next = bm_mono_s();

	pthread_mutex_lock(&w->lock);
	while (!w->stop) {
		pthread_mutex_unlock(&w->lock);
		bm_ptp_read(w->path[0] ? w->path : NULL,
			    BM_PTP_SAMPLE_TIMEOUT_MS, &c);
		pthread_mutex_lock(&w->lock);
		/* an answer to a read asked during the part counts, also
		 * when the end came while it was on its way; a read that
		 * failed once the end had come is no miss of the part's */
		if (c.valid || !w->stop)
			bm_clock_span_add(&w->span, &c, w->gm);
		if (w->stop)
			break;
		/* one period from the last start: a slow answer does not
		 * push the following ones back */
		next += BM_PTP_SAMPLE_S;
		if (next < bm_mono_s())
			next = bm_mono_s();
		mono_after(&until, next - bm_mono_s());
		while (!w->stop &&
		       pthread_cond_timedwait(&w->wake, &w->lock, &until) !=
		       ETIMEDOUT)
			;
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

struct bm_ptp_watch *bm_ptp_watch_start(const char *path, const char *gm)
{
	struct bm_ptp_watch *w = calloc(1, sizeof(*w));
	pthread_condattr_t ca;

	if (!w)
		return NULL;
	if (path && strlen(path) < sizeof(w->path))
		strcpy(w->path, path);
	if (gm)
		snprintf(w->gm, sizeof(w->gm), "%s", gm);
	pthread_mutex_init(&w->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&w->wake, &ca);
	pthread_condattr_destroy(&ca);
	if (pthread_create(&w->thread, NULL, watch_run, w)) {
		pthread_cond_destroy(&w->wake);
		pthread_mutex_destroy(&w->lock);
		free(w);
		return NULL;
	}
	return w;
}

void bm_ptp_watch_end(struct bm_ptp_watch *w, struct bm_clock_span *out)
{
	memset(out, 0, sizeof(*out));
	if (!w)
		return;
	pthread_mutex_lock(&w->lock);
	w->stop = true;
	pthread_cond_signal(&w->wake);
	pthread_mutex_unlock(&w->lock);
	pthread_join(w->thread, NULL);
	*out = w->span;
	pthread_cond_destroy(&w->wake);
	pthread_mutex_destroy(&w->lock);
	free(w);
}

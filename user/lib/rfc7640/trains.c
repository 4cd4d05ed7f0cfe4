// SPDX-License-Identifier: GPL-2.0
/*
 * The shaper's trains (TM-MET-SBB, -SBI, SR_busy; tm_metrics.h).  The
 * draft's "back-to-back" frames "respect the mandatory inter-frame gap":
 * at the egress they arrive one wire time apart: of the frame before when
 * the receive timestamp is taken at the first bit (REQ-TS-1), of the frame
 * itself when it is taken at the last (a software receive stamp, the
 * simulated DUT).  The rule of AMB-39 (t_wire of the previous frame) is
 * applied with the larger of the two frames' wire times, which is the
 * previous one's for first-bit stamps of equal frames and never cuts a
 * back-to-back pair under either convention; 10 % and the timestamps'
 * accuracy on top keep jitter from cutting a train, while a shaper's CBR
 * frames, one A x 8 / SR apart, are trains of one frame each.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bm_repeat.h"
#include "tm_metrics.h"

static int by_time(const void *x, const void *y)
{
	const struct tm_arrival *a = x, *b = y;

	if (a->rx_s != b->rx_s)
		return a->rx_s < b->rx_s ? -1 : 1;
	return 0;
}

/* SR_busy: per burst of >= 2 frames, its bytes after the first over the
 * time from its first to its last frame; the mean over such bursts. */
static int busy_rate(const struct tm_arrival *a, size_t n, int d,
		     struct tm_trains *tr)
{
	uint64_t nb = 0, b, *cnt;
	double *t0, *t1, *bytes, *first, sum = 0;
	size_t i;

	for (i = 0; i < n; i++)
		if (a[i].burst + 1 > nb)
			nb = a[i].burst + 1;
	t0 = calloc(nb, sizeof(*t0));
	t1 = calloc(nb, sizeof(*t1));
	bytes = calloc(nb, sizeof(*bytes));
	first = calloc(nb, sizeof(*first));
	cnt = calloc(nb, sizeof(*cnt));
	if (!t0 || !t1 || !bytes || !first || !cnt) {
		free(t0);
		free(t1);
		free(bytes);
		free(first);
		free(cnt);
		return -ENOMEM;
	}
	/* a is in arrival order: a burst's first frame comes first */
	for (i = 0; i < n; i++) {
		b = a[i].burst;
		if (!cnt[b]++) {
			t0[b] = a[i].rx_s;
			first[b] = (double)a[i].size + d;
		}
		t1[b] = a[i].rx_s;
		bytes[b] += (double)a[i].size + d;
	}
	for (b = 0; b < nb; b++) {
		if (cnt[b] < 2 || !(t1[b] > t0[b]))
			continue;
		sum += (bytes[b] - first[b]) * 8.0 / (t1[b] - t0[b]);
		tr->busy_bursts++;
	}
	tr->sr_busy_bps = tr->busy_bursts ? sum / (double)tr->busy_bursts :
			  NAN;
	free(t0);
	free(t1);
	free(bytes);
	free(first);
	free(cnt);
	return 0;
}

int tm_trains_of(struct tm_arrival *a, size_t n, enum tm_acct acct,
		 double line_rate_bps, double ts_acc_s, struct tm_trains *tr)
{
	int d = tm_acct_delta(acct);
	double *bytes, *start, *sbi, gap, wire;
	size_t i, k = 0;
	int ret;

	memset(tr, 0, sizeof(*tr));
	tr->first_bytes = tr->median_bytes = tr->p99_bytes = NAN;
	tr->max_bytes = tr->sbi_median_s = tr->sbi_p1_s = NAN;
	tr->sbi_p99_s = tr->sr_busy_bps = NAN;
	tr->frames = n;
	if (!n)
		return 0;
	qsort(a, n, sizeof(*a), by_time);
	bytes = calloc(n, sizeof(*bytes));
	start = calloc(n, sizeof(*start));
	sbi = calloc(n, sizeof(*sbi));
	if (!bytes || !start || !sbi) {
		ret = -ENOMEM;
		goto out;
	}
	start[0] = a[0].rx_s;
	bytes[0] = (double)a[0].size + d;
	for (i = 1; i < n; i++) {
		gap = a[i].rx_s - a[i - 1].rx_s;
		wire = ((double)(a[i - 1].size > a[i].size ? a[i - 1].size :
				 a[i].size) + 20.0) * 8.0 / line_rate_bps;
		if (gap > 1.1 * wire + ts_acc_s) {
			k++;
			start[k] = a[i].rx_s;
		}
		bytes[k] += (double)a[i].size + d;
	}
	tr->trains = k + 1;
	tr->first_bytes = bytes[0];
	for (i = 0; i < k; i++)
		sbi[i] = start[i + 1] - start[i];
	qsort(bytes, k + 1, sizeof(*bytes), bm_cmp_double);
	tr->median_bytes = tm_percentile(bytes, k + 1, 50);
	tr->p99_bytes = tm_percentile(bytes, k + 1, 99);
	tr->max_bytes = bytes[k];
	if (k) {
		qsort(sbi, k, sizeof(*sbi), bm_cmp_double);
		tr->sbi_median_s = tm_percentile(sbi, k, 50);
		tr->sbi_p1_s = tm_percentile(sbi, k, 1);
		tr->sbi_p99_s = tm_percentile(sbi, k, 99);
	}
	ret = busy_rate(a, n, d, tr);
out:
	free(bytes);
	free(start);
	free(sbi);
	return ret;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * What both of the module backend's trial paths use (the pair trial of
 * backend_genl.c, the N-port traffic of backend_genl_traffic.c), and the
 * RFC 2544 management and routing senders beside them: the clocks, the
 * wait for a trial this process did not start, a failed trial's reason,
 * the frame kept for the result, the ports' hardware stamps, and the
 * module's ports attached.
 */
#include <errno.h>
#include <math.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/bmgen.h>

#include "backend_genl_int.h"
#include "bm_traffic.h"

/*
 * How long a trial waits for one it did not start (a killed bmd's, whose
 * kthreads run on to the end of their count) before it gives up: a default
 * R2544-RECOV trial (60 s overload, 10 s observation) fits with room.
 */
#define BM_FOREIGN_TRIAL_WAIT_S 180.0

void bm_sleep_s(double s)
{
	struct timespec ts;

	if (s <= 0)
		return;
	ts.tv_sec = (time_t)s;
	ts.tv_nsec = (long)((s - (double)ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

int bm_genl_trial_failed(int terr, struct bm_error *err)
{
	/* the two the module fails a trial for by itself */
	if (terr == -ENODEV)
		bm_errorf(err, "trial failed in the module: a port's device "
			  "was removed during the trial");
	else if (terr == -ECONNRESET)
		bm_errorf(err, "trial failed in the module: the process that "
			  "started it closed its socket");
	else
		bm_errorf(err, "trial failed in the module: %s",
			  strerror(terr ? -terr : EIO));
	return terr ? terr : -EIO;
}

/*
 * A trial still running in the module that this process did not start (we
 * hold the lock and always wait for our own): a bmd killed mid-trial leaves
 * its trial running to the end.  Wait for it rather than fail the job with
 * "streams cannot change while a trial runs"; never stop it, it may be a
 * user's bmgen-trial.
 */
int bm_genl_wait_foreign(struct bm_genl_backend *b, struct bm_error *err)
{
	struct bm_module_status st;
	int ret;

	ret = bm_genl_status_get(b->g, &st, err);
	if (ret)
		return ret;
	if (st.trial_state != BMGEN_TRIAL_ARMED &&
	    st.trial_state != BMGEN_TRIAL_RUNNING)
		return 0;
	/* its end is announced in its own namespace: ask */
	ret = bm_genl_trial_wait_every(b->g, BM_FOREIGN_TRIAL_WAIT_S, 0.02,
				       NULL, err);
	if (ret == -ETIMEDOUT)
		return bm_errorf(err, "another trial has been running in the "
				 "module for over %.0f s (not this job's)",
				 BM_FOREIGN_TRIAL_WAIT_S), -EBUSY;
	return ret < 0 ? ret : 0;
}

static void bm_hex(const uint8_t *p, size_t n, char *out)
{
	size_t i;

	for (i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", p[i]);
	out[2 * n] = 0;
}

void bm_genl_note_frame(struct bm_genl_backend *b, uint32_t id,
			unsigned int slot)
{
	uint8_t head[BMGEN_FRAME_HEAD_MAX];
	struct bm_error err;
	size_t n = 0;

	b->be.frame_hex[slot][0] = 0;
	if (!bm_genl_stream_frame_head(b->g, id, head, &n, &err))
		bm_hex(head, n, b->be.frame_hex[slot]);
}

/* Each PHC's offset now, into off[] and unc[]; 0 or -errno. */
static int bm_genl_hw_offsets(struct bm_genl_backend *b, int64_t *off,
			      int64_t *unc, struct bm_error *err)
{
	int i, ret;

	for (i = 0; i < 2; i++) {
		ret = bm_phc_offset(b->phc[i], &off[i], &unc[i], err);
		if (ret)
			return ret;
	}
	return 0;
}

int bm_genl_hw_arm(struct bm_genl_backend *b, struct bm_error *err)
{
	const char *name[2] = { b->tx, b->rx };
	int i, ret = 0;

	if (!b->hw_on)
		return 0;
	for (i = 0; !ret && i < 2; i++)
		ret = bm_genl_port_hw_arm(b->g, name[i], &b->hw[i], b->phc[i],
					  &b->hw_off[i], &b->hw_unc[i], err);
	return ret;
}

bool bm_genl_hw_ptp_shape(const struct bm_genl_backend *b,
			  const struct bm_trial_spec *spec, const char *tx,
			  const char *rx, uint32_t f)
{
	/* the module's minimum for a Sync message and the TPLD */
	if (!b->hw_on || !spec->ptp_shape_ok || f < 80)
		return false;
	if (!rx)
		return true;
	if (strcmp(tx, b->tx) || strcmp(rx, b->rx))
		return false;
	return b->hw[1].rx_filter != HWTSTAMP_FILTER_ALL &&
	       b->hw[1].rx_filter != HWTSTAMP_FILTER_NONE;
}

/*
 * After a trial: the hardware block of res from the streams' sum.  The
 * accuracy is the two offsets' uncertainty plus how far the difference of
 * the offsets drifted during the trial, measured again now.
 */
void bm_genl_hw_result(struct bm_genl_backend *b,
			      const struct bm_genl_stats *sum,
			      struct bm_trial_result *res)
{
	struct bm_hw_latency *h = &res->hw;
	int64_t off[2], unc[2], drift;
	struct bm_error ignore;

	if (!b->hw_on)
		return;
	h->on = true;
	snprintf(h->tx_filter, sizeof(h->tx_filter), "%s",
		 bm_hwts_filter_name(b->hw[0].rx_filter));
	snprintf(h->rx_filter, sizeof(h->rx_filter), "%s",
		 bm_hwts_filter_name(b->hw[1].rx_filter));
	h->tx_requests = sum->hw_tx_requests;
	h->tx_stamps = sum->hw_tx_stamps;
	h->rx_stamps = sum->hw_rx_stamps;
	h->count = sum->hw_lat_count;
	if (h->count) {
		h->min_ns = (double)sum->hw_lat_min_ns;
		h->max_ns = (double)sum->hw_lat_max_ns;
		h->mean_ns = (double)sum->hw_lat_sum_ns / (double)h->count;
		h->sw_mean_ns = (double)sum->hw_lat_sw_sum_ns / (double)h->count;
	}
	h->accuracy_ns = (double)(b->hw_unc[0] + b->hw_unc[1]);
	if (!bm_genl_hw_offsets(b, off, unc, &ignore)) {
		drift = (off[1] - off[0]) - (b->hw_off[1] - b->hw_off[0]);
		h->accuracy_ns += (double)llabs(drift);
	}
}

int bm_genl_attach(struct bm_genl *g, const char *name,
		   unsigned int *ifindex, struct bm_error *err)
{
	int ret;

	*ifindex = if_nametoindex(name);
	if (!*ifindex)
		return bm_errorf(err, "no such port '%s'", name), -ENODEV;
	ret = bm_genl_port_attach(g, name, err);
	if (ret == -EEXIST) {
		memset(err, 0, sizeof(*err));
		ret = 0;
	}
	return ret;
}

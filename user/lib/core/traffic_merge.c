// SPDX-License-Identifier: GPL-2.0
/*
 * Several N-port trials as one: see bm_traffic_merge.h.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bm_traffic_merge.h"

/* The index of port p in t, added when t has none of that name. */
static int merged_port(struct bm_traffic *t, const struct bm_port_spec *p,
		       struct bm_error *err)
{
	unsigned int i;
	int k;

	for (i = 0; i < t->n_ports; i++)
		if (!strcmp(t->ports[i].host, p->host) &&
		    !strcmp(t->ports[i].name, p->name))
			return (int)i;
	k = bm_traffic_add_port(t, p->name, p->line_rate_bps, err);
	if (k >= 0)
		t->ports[k] = *p;	/* its addresses as its trial had them */
	return k;
}

static int same_imix(const struct bm_traffic *a, const struct bm_traffic *b)
{
	return a->n_imix == b->n_imix &&
	       !memcmp(a->imix, b->imix, a->n_imix * sizeof(a->imix[0]));
}

static bool uses_imix(const struct bm_traffic *t)
{
	unsigned int k;

	for (k = 0; k < t->n_streams; k++)
		if (t->streams[k].imix)
			return true;
	return false;
}

int bm_traffic_merge(struct bm_merge_part *parts, unsigned int n,
		     struct bm_traffic *t, struct bm_trial_spec *spec,
		     struct bm_error *err)
{
	const struct bm_traffic *imix_of = NULL;
	unsigned int i, k;

	bm_traffic_init(t);
	memset(spec, 0, sizeof(*spec));
	spec->drain_s = -1.0;
	spec->learning_pause_s = -1.0;
	for (i = 0; i < n; i++) {
		const struct bm_trial_spec *s = parts[i].spec;

		if (!s->traffic)
			return bm_errorf(err, "part %u: a trial without N-port "
					 "traffic cannot run beside others",
					 i + 1);
		if (s->pair.tag || s->event_fn)
			return bm_errorf(err, "part %u: a tagged frame or an "
					 "event cannot run beside others",
					 i + 1);
		spec->duration_s = fmax(spec->duration_s, s->duration_s);
	}
	for (i = 0; i < n; i++) {
		const struct bm_trial_spec *s = parts[i].spec;
		const struct bm_traffic *pt = s->traffic;

		if (uses_imix(pt)) {
			if (imix_of && !same_imix(imix_of, pt))
				return bm_errorf(err, "part %u: its IMIX is not "
						 "the other parts'", i + 1);
			imix_of = pt;
		}
		if (!i)
			spec->frame_size = s->frame_size;
		spec->latency |= s->latency;
		if (s->learning) {
			spec->learning = true;
			spec->learning_pause_s = fmax(spec->learning_pause_s,
						      s->learning_pause_s);
		}
		/* < 0 asks for the backend's default, of which nothing is
		 * known here: the default once a part asks for it, else
		 * the longest */
		if (!i || spec->drain_s >= 0)
			spec->drain_s = s->drain_s < 0 ? s->drain_s :
					fmax(spec->drain_s, s->drain_s);
		parts[i].first_stream = t->n_streams;
		for (k = 0; k < pt->n_streams; k++) {
			struct bm_stream_spec ss = pt->streams[k];
			int tx = merged_port(t, &pt->ports[ss.tx_port], err);
			int rx = tx < 0 ? tx :
				 merged_port(t, &pt->ports[ss.rx_port], err);

			if (rx < 0)
				return -EINVAL;
			ss.tx_port = (uint16_t)tx;
			ss.rx_port = (uint16_t)rx;
			if (!ss.frame_size && !ss.imix)
				ss.frame_size = s->frame_size;
			/* a constant stream runs to its trial's end: in a
			 * longer one, the frames it would have sent */
			if (ss.pattern == BM_STREAM_CBR &&
			    s->duration_s < spec->duration_s) {
				double fps = bm_stream_fps(pt, &pt->streams[k],
							   s->frame_size);

				ss.pattern = BM_STREAM_COUNT;
				ss.count = s->duration_s > ss.start_s ?
					   (uint64_t)llround(fps * (s->duration_s -
								    ss.start_s)) :
					   0;
			}
			if (bm_traffic_add_stream(t, &ss, err) < 0)
				return -EINVAL;
		}
	}
	if (imix_of) {
		t->n_imix = imix_of->n_imix;
		memcpy(t->imix, imix_of->imix, sizeof(t->imix));
	}
	spec->traffic = t;
	return 0;
}

int bm_traffic_split(struct bm_merge_part *parts, unsigned int n,
		     struct bm_traffic_result *r,
		     const struct bm_trial_result *res)
{
	unsigned int i, j, k;

	for (i = 0; i < n; i++) {
		const struct bm_trial_spec *s = parts[i].spec;
		const struct bm_traffic *pt = s->traffic;
		struct bm_traffic_result *own = NULL, *tr = s->traffic_res;
		struct bm_trial_result *pr = parts[i].res;
		double first = -1, last = -1;

		if (!tr || tr->n_streams != pt->n_streams ||
		    tr->n_ports != pt->n_ports)
			tr = own = bm_traffic_result_new(pt);
		if (!tr)
			return -ENOMEM;
		for (k = 0; k < pt->n_streams; k++) {
			struct bm_stream_result *x =
				&r->streams[parts[i].first_stream + k];

			bm_stream_result_free_logs(&tr->streams[k]);
			tr->streams[k] = *x;
			/* the logs are the part's now */
			x->tx_log_s = NULL;
			x->rx_log = NULL;
			x->hw_log = NULL;
			x->n_tx_log = x->n_rx_log = x->n_hw_log = 0;
			if (x->sent < x->intended) {
				pr->shortfall += x->intended - x->sent;
				pr->generator_limited = true;
			}
			pr->tx_late_max_s = fmax(pr->tx_late_max_s,
						 x->tx_late_max_s);
			for (j = 0; j < BM_TX_STALLS; j++)
				bm_trial_stall_add(pr->tx_stalls_s,
						   x->tx_stalls_s[j]);
			if (x->first_tx_s >= 0 &&
			    (first < 0 || x->first_tx_s < first))
				first = x->first_tx_s;
			last = fmax(last, x->last_tx_s);
		}
		bm_traffic_result_sum(pt, s->frame_size, tr,
				      first >= 0 ? last - first : 0, pr);
		/* per stream the module keeps no count of late frames, sent
		 * or received: the merged trial's */
		pr->tx_late_frames = res->tx_late_frames;
		pr->late = res->late;
		pr->late_watch_s = res->late_watch_s;
		memcpy(pr->ts_source, res->ts_source, sizeof(pr->ts_source));
		bm_traffic_result_free(own);
	}
	return 0;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RFC 8238 §2 latency events (SPEC R8238-LAT, REQ-TS-2): from the measured
 * first-bit-in to first-bit-out latency FF and the serialisation times of
 * the frame on the DUT's input and output links, the other three.
 */
#ifndef BM_EVENTS_H
#define BM_EVENTS_H

#include <stdint.h>

enum bm_lat_event {
	BM_EV_FL = 0,		/* FILO: first bit in, last bit out (the
				 * mandatory DC latency, [8238 §2.1]) */
	BM_EV_FF,		/* FIFO: RFC 1242 bit forwarding */
	BM_EV_LL,		/* LILO */
	BM_EV_LF,		/* LIFO: RFC 1242 store and forward; MUST NOT
				 * compare two DUTs ([8238 §2.2]) */
};

/* The names of the events as the keys take them: "FL", "FF", "LL", "LF",
 * NULL-terminated. */
extern const char *const bm_lat_event_names[];

/* "FL (FILO)", ... for reports. */
const char *bm_lat_event_label(enum bm_lat_event ev);

/* Serialisation time in ns of F bytes (no preamble) at rate_bps. */
double bm_serialisation_ns(uint32_t frame_size, double rate_bps);

/*
 * Event ev of a frame whose FF is ff_ns, with s_in_ns / s_out_ns its
 * serialisation on the DUT's input / output link: FL = FF + S_out,
 * LL = FF + S_out - S_in, LF = FF - S_in (REQ-TS-2).
 */
double bm_lat_event_ns(enum bm_lat_event ev, double ff_ns, double s_in_ns,
		       double s_out_ns);

#endif /* BM_EVENTS_H */

// SPDX-License-Identifier: GPL-2.0
/* The TCP metrics of SPEC F-9, F-12 and F-13 (see bm_tcp.h). */
#include <math.h>

#include "bm_tcp.h"

/* Linux's segment: 20 B of IPv4, 20 of TCP and 12 of the timestamp
 * option come out of the MTU (RFC 8238 §7.3, AMB-13). */
#define LINUX_HDR_BYTES		52
/* 14 B of Ethernet header, 4 of FCS, 8 of preamble and 12 of IFG ride
 * on the wire beside the MTU: 1500 B packets take 1538 B. */
#define WIRE_EXTRA_BYTES	38

double bm_goodput_ceiling_bps(double payload_bytes, double frame_bytes,
			      double media_bps)
{
	/* a negative or NaN size is no frame either: no ceiling rather
	 * than a negative one */
	if (!(frame_bytes > 0))
		return NAN;
	return payload_bytes / frame_bytes * media_bps;
}

double bm_goodput_linux_bps(uint32_t mtu, double media_bps)
{
	/* an MTU below the headers carries nothing a ceiling could say */
	if (mtu < LINUX_HDR_BYTES)
		return NAN;
	return bm_goodput_ceiling_bps((double)mtu - LINUX_HDR_BYTES,
				      (double)mtu + WIRE_EXTRA_BYTES,
				      media_bps);
}

double bm_tcp_efficiency_pct(uint64_t bytes_sent, uint64_t bytes_retrans)
{
	if (!bytes_sent)
		return NAN;
	/* in doubles: counters sampled apart may have retrans > sent, and
	 * the result then says so rather than wrapping around */
	return ((double)bytes_sent - (double)bytes_retrans) /
	       (double)bytes_sent * 100.0;
}

double bm_tcp_buffer_delay_pct(double avg_rtt_s, double baseline_rtt_s)
{
	if (!(baseline_rtt_s > 0))
		return NAN;
	return (avg_rtt_s - baseline_rtt_s) / baseline_rtt_s * 100.0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * RIP v1 responses of RFC 2544 C.2.6.2: bm_rip.h.
 *
 * The UDP checksum is 0 (none, as C.2.6.2 prints it: RFC 768 allows it
 * over IPv4, and a RIP v1 listener takes it); the IP header checksum is
 * computed.
 */
#include <string.h>

#include "bm_rip.h"
#include "bm_wire.h"

#define ETH_LEN		14
#define IP_LEN		20
#define UDP_LEN		8
#define RIP_HDR		4
#define RIP_ENTRY	20


static unsigned int ip_csum(const uint8_t *h)
{
	uint32_t s = 0;
	unsigned int i;

	for (i = 0; i < IP_LEN; i += 2)
		s += bm_get16(h + i);
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return ~s & 0xffff;
}

size_t bm_rip_response(uint8_t *buf, size_t len, const struct bm_rip_route *r,
		       unsigned int n)
{
	size_t need = RIP_HDR + (size_t)n * RIP_ENTRY;
	unsigned int k;
	uint8_t *e;

	if (!n || n > BM_RIP_MAX_ENTRIES || len < need)
		return 0;
	memset(buf, 0, need);
	buf[0] = 2;			/* response */
	buf[1] = 1;			/* version 1 */
	for (k = 0; k < n; k++) {
		if (!r[k].metric || r[k].metric > BM_RIP_INFINITY)
			return 0;
		e = buf + RIP_HDR + k * RIP_ENTRY;
		bm_put16(e, 2);		/* AF_INET */
		memcpy(e + 4, r[k].net, 4);
		e[19] = r[k].metric;
	}
	return need;
}

size_t bm_rip_frame(uint8_t *buf, size_t len, const uint8_t src_mac[6],
		    const uint8_t src_ip[4], const struct bm_rip_route *r,
		    unsigned int n)
{
	size_t hdr = ETH_LEN + IP_LEN + UDP_LEN, rip;
	uint8_t *ip = buf + ETH_LEN, *udp = ip + IP_LEN;

	if (len < hdr)
		return 0;
	rip = bm_rip_response(udp + UDP_LEN, len - hdr, r, n);
	if (!rip)
		return 0;
	memset(buf, 0xff, 6);
	memcpy(buf + 6, src_mac, 6);
	bm_put16(buf + 12, 0x0800);
	memset(ip, 0, IP_LEN);
	ip[0] = 0x45;
	bm_put16(ip + 2, (unsigned int)(IP_LEN + UDP_LEN + rip));
	bm_put16(ip + 6, 0x4000);		/* DF */
	ip[8] = BM_RIP_TTL;
	ip[9] = 17;			/* UDP */
	memcpy(ip + 12, src_ip, 4);
	memcpy(ip + 16, src_ip, 3);
	ip[19] = 0xff;			/* the /24's directed broadcast */
	bm_put16(ip + 10, ip_csum(ip));
	bm_put16(udp, BM_RIP_PORT);
	bm_put16(udp + 2, BM_RIP_PORT);
	bm_put16(udp + 4, (unsigned int)(UDP_LEN + rip));
	bm_put16(udp + 6, 0);
	return hdr + rip;
}

int bm_rip_parse(const uint8_t *frame, size_t len, uint8_t src_ip[4],
		 struct bm_rip_route *r, unsigned int max)
{
	static const uint8_t bc[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	const uint8_t *ip = frame + ETH_LEN, *udp = ip + IP_LEN, *rip, *e;
	size_t body;
	unsigned int k, n;

	if (len < ETH_LEN + IP_LEN + UDP_LEN + RIP_HDR ||
	    memcmp(frame, bc, 6) || bm_get16(frame + 12) != 0x0800 ||
	    ip[0] != 0x45 || ip[9] != 17 || ip_csum(ip) != 0 ||
	    bm_get16(ip + 2) != len - ETH_LEN || ip[19] != 0xff ||
	    bm_get16(udp) != BM_RIP_PORT || bm_get16(udp + 2) != BM_RIP_PORT ||
	    bm_get16(udp + 4) != len - ETH_LEN - IP_LEN)
		return -1;
	rip = udp + UDP_LEN;
	body = len - ETH_LEN - IP_LEN - UDP_LEN - RIP_HDR;
	if (rip[0] != 2 || rip[1] != 1 || rip[2] || rip[3] ||
	    body % RIP_ENTRY)
		return -1;
	n = (unsigned int)(body / RIP_ENTRY);
	if (n > max)
		return -1;
	for (k = 0; k < n; k++) {
		e = rip + RIP_HDR + k * RIP_ENTRY;
		if (bm_get16(e) != 2 || bm_get16(e + 2) || bm_get16(e + 8) ||
		    bm_get16(e + 10) || bm_get16(e + 12) || bm_get16(e + 14) ||
		    bm_get16(e + 16) || e[18] || !e[19] ||
		    e[19] > BM_RIP_INFINITY)
			return -1;
		memcpy(r[k].net, e + 4, 4);
		r[k].metric = e[19];
	}
	memcpy(src_ip, ip + 12, 4);
	return (int)n;
}

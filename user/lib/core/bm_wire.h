/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Integers in network byte order inside a byte buffer: what the wire
 * formats libbm writes and reads itself use (RIP v1, linuxptp's
 * management messages).  Byte by byte, so alignment never matters.
 */
#ifndef BM_WIRE_H
#define BM_WIRE_H

#include <stdint.h>

/* Write v's low 16 bits at p, most significant byte first. */
static inline void bm_put16(uint8_t *p, unsigned int v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

/* The 16-bit integer at p, most significant byte first. */
static inline unsigned int bm_get16(const uint8_t *p)
{
	return (unsigned int)p[0] << 8 | p[1];
}

/* The 32-bit integer at p, most significant byte first. */
static inline uint32_t bm_get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

/* The 64-bit integer at p, most significant byte first. */
static inline uint64_t bm_get64(const uint8_t *p)
{
	return (uint64_t)bm_get32(p) << 32 | bm_get32(p + 4);
}

#endif

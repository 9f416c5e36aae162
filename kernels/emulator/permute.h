/*
** permute.h — the byte permute both engines run: PTX's prmt and SASS's
** PRMT pick each byte of their result from the eight of two registers.
*/
#ifndef WARPLAB_PERMUTE_H
#define WARPLAB_PERMUTE_H

#include <stdint.h>

/* prmt's modes (PTX .f4e ..., SASS .F4E ...); GENERIC: a selector nibble a byte. */
enum permute_mode { PERMUTE_GENERIC, PERMUTE_F4E, PERMUTE_B4E, PERMUTE_RC8, PERMUTE_ECL, PERMUTE_ECR, PERMUTE_RC16 };

/* Byte k of the result: of the eight of hi:lo (lo's bytes 0-3, hi's 4-7),
   the one selector's nibble k names (its top bit: that byte's sign
   replicated), or in a mode the one its low two bits name. */
static inline uint32_t permuted_byte(enum permute_mode mode, uint64_t hi_lo, uint32_t selector, int k)
{
    unsigned s = selector & 3, at = (unsigned)k, from;
    switch (mode) {
    case PERMUTE_F4E: from = (s + at) & 7; break;
    case PERMUTE_B4E: from = (s - at) & 7; break;
    case PERMUTE_RC8: from = s; break;
    case PERMUTE_ECL: from = at > s ? at : s; break;
    case PERMUTE_ECR: from = at < s ? at : s; break;
    case PERMUTE_RC16: from = 2 * (s & 1) + (at & 1); break;
    default: {
        unsigned nibble = selector >> (4 * k) & 0xf;
        uint32_t byte = (uint32_t)(hi_lo >> (8 * (nibble & 7))) & 0xff;
        return nibble & 8 ? (byte & 0x80 ? 0xff : 0) : byte;
    }
    }
    return (uint32_t)(hi_lo >> (8 * from)) & 0xff;
}

/* The four bytes of lo and hi permuted by selector. */
static inline uint32_t permute(enum permute_mode mode, uint32_t lo, uint32_t hi, uint32_t selector)
{
    uint64_t hi_lo = (uint64_t)hi << 32 | lo;
    uint32_t d = 0;
    for (int k = 0; k < 4; k++)
        d |= permuted_byte(mode, hi_lo, selector, k) << (8 * k);
    return d;
}

#endif

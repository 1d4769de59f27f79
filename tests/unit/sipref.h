/* sipref.h — SipHash-2-4 written from the paper's description (Aumasson
 * and Bernstein 2012), byte by byte: the reference strhash_siphash's word
 * loads are checked against, at every tail length and alignment
 * (tests/unit/test_strhash.c, tests/fuzz/fuzz_keyset.c). */
#ifndef SLOKIT_TEST_SIPREF_H
#define SLOKIT_TEST_SIPREF_H

#include <stddef.h>
#include <stdint.h>

static uint64_t rol(uint64_t x, int b) { return (x << b) | (x >> (64 - b)); }
/* sip_round: one SipRound of the state v */
static void sip_round(uint64_t v[4])
{
    v[0] += v[1], v[1] = rol(v[1], 13), v[1] ^= v[0], v[0] = rol(v[0], 32);
    v[2] += v[3], v[3] = rol(v[3], 16), v[3] ^= v[2];
    v[0] += v[3], v[3] = rol(v[3], 21), v[3] ^= v[0];
    v[2] += v[1], v[1] = rol(v[1], 17), v[1] ^= v[2], v[2] = rol(v[2], 32);
}
/* sip_ref: SipHash-2-4 of m[0..n) under the key k (k[0]: key bytes 0-7,
 * little-endian), one byte at a time */
static uint64_t sip_ref(const uint64_t k[2], const unsigned char *m, size_t n)
{
    uint64_t v[4] = {k[0] ^ 0x736f6d6570736575ULL, k[1] ^ 0x646f72616e646f6dULL, k[0] ^ 0x6c7967656e657261ULL,
                     k[1] ^ 0x7465646279746573ULL};
    for (size_t b = 0; b <= n / 8; b++) { /* the last word: the tail and n mod 256 */
        uint64_t w = b == n / 8 ? (uint64_t)(n % 256) << 56 : 0;
        for (size_t i = 0; i < 8 && 8 * b + i < n; i++)
            w |= (uint64_t)m[8 * b + i] << (8 * i);
        v[3] ^= w;
        sip_round(v), sip_round(v);
        v[0] ^= w;
    }
    v[2] ^= 0xff;
    for (int r = 0; r < 4; r++)
        sip_round(v);
    return v[0] ^ v[1] ^ v[2] ^ v[3];
}

#endif

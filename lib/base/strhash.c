/* strhash — SipHash-2-4 under a per-process random key (see strhash.h).
 * SipHash: Aumasson and Bernstein, "SipHash: a fast short-input PRF" (2012). */
#include "base/strhash.h"

#include <pthread.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

static inline uint64_t rotl(uint64_t x, int b) { return (x << b) | (x >> (64 - b)); }

/* load_le64: n (<= 8) bytes at p as a little-endian number, the rest zero;
 * one load on a little-endian machine (GCC does not merge the byte loop) */
static inline uint64_t load_le64(const unsigned char *p, size_t n)
{
    uint64_t v = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(&v, p, n);
#else
    for (size_t i = n; i-- > 0;)
        v = (v << 8) | p[i];
#endif
    return v;
}

#define SIPROUND                                                                                             \
    do {                                                                                                     \
        v0 += v1;                                                                                            \
        v1 = rotl(v1, 13);                                                                                   \
        v1 ^= v0;                                                                                            \
        v0 = rotl(v0, 32);                                                                                   \
        v2 += v3;                                                                                            \
        v3 = rotl(v3, 16);                                                                                   \
        v3 ^= v2;                                                                                            \
        v0 += v3;                                                                                            \
        v3 = rotl(v3, 21);                                                                                   \
        v3 ^= v0;                                                                                            \
        v2 += v1;                                                                                            \
        v1 = rotl(v1, 17);                                                                                   \
        v1 ^= v2;                                                                                            \
        v2 = rotl(v2, 32);                                                                                   \
    } while (0)

uint64_t strhash_siphash(const uint64_t k[2], const void *buf, size_t n)
{
    const unsigned char *p = buf;
    uint64_t v0 = 0x736f6d6570736575ULL ^ k[0], v1 = 0x646f72616e646f6dULL ^ k[1];
    uint64_t v2 = 0x6c7967656e657261ULL ^ k[0], v3 = 0x7465646279746573ULL ^ k[1];
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t m = load_le64(p + i, 8);
        v3 ^= m;
        SIPROUND;
        SIPROUND;
        v0 ^= m;
    }
    uint64_t m = (uint64_t)(n & 0xff) << 56 | load_le64(p + i, n - i);
    v3 ^= m;
    SIPROUND;
    SIPROUND;
    v0 ^= m;
    v2 ^= 0xff;
    SIPROUND;
    SIPROUND;
    SIPROUND;
    SIPROUND;
    return v0 ^ v1 ^ v2 ^ v3;
}

static pthread_once_t key_once = PTHREAD_ONCE_INIT;
static uint64_t key[2];

/* draw_key: 16 random bytes from the kernel; should getrandom fail (a very
 * old kernel, a seccomp filter), a mix of the clock, the pid and an address
 * (ASLR), so that the key is still not known in advance. */
static void draw_key(void)
{
    if (getrandom(key, sizeof key, GRND_NONBLOCK) == (ssize_t)sizeof key)
        return;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t seed[2] = {(uint64_t)ts.tv_sec * 1000000007ULL ^ (uint64_t)ts.tv_nsec,
                        (uint64_t)getpid() ^ (uint64_t)(uintptr_t)&ts};
    key[0] = strhash_siphash(seed, "slokit", 6);
    key[1] = strhash_siphash(seed, "strhash", 7);
}

uint64_t strhash_str(const char *s)
{
    pthread_once(&key_once, draw_key);
    return strhash_siphash(key, s, strlen(s));
}

/* rng — xoshiro256** seeded through splitmix64 (see rng.h). */
#include "base/rng.h"

#include <math.h>
#include <string.h>

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void rng_seed(rng *r, uint64_t seed)
{
    uint64_t x = seed;
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&x);
}

void rng_seed_key(rng *r, uint64_t seed, const char *key)
{
    uint64_t x = seed ^ 0x5851f42d4c957f2dULL;
    uint64_t k = rng_hash_str(key);
    x = splitmix64(&x) ^ k;
    rng_seed(r, x);
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t rng_u64(rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

double rng_uniform(rng *r) { return (double)(rng_u64(r) >> 11) * 0x1.0p-53; }

uint64_t rng_below(rng *r, uint64_t n)
{
    /* Lemire's nearly divisionless method */
    uint64_t x = rng_u64(r);
    __uint128_t m = (__uint128_t)x * n;
    uint64_t l = (uint64_t)m;
    if (l < n) {
        uint64_t t = -n % n;
        while (l < t) {
            x = rng_u64(r);
            m = (__uint128_t)x * n;
            l = (uint64_t)m;
        }
    }
    return (uint64_t)(m >> 64);
}

double rng_normal(rng *r)
{
    double u, v, s;
    do {
        u = 2 * rng_uniform(r) - 1;
        v = 2 * rng_uniform(r) - 1;
        s = u * u + v * v;
    } while (s >= 1 || s == 0);
    return u * sqrt(-2 * log(s) / s);
}

double rng_exp(rng *r, double mean) { return -mean * log1p(-rng_uniform(r)); }

uint64_t rng_poisson(rng *r, double lambda)
{
    if (lambda <= 0)
        return 0;
    if (lambda > 50) {
        double v = floor(lambda + sqrt(lambda) * rng_normal(r) + 0.5);
        return v < 0 ? 0 : (uint64_t)v;
    }
    double l = exp(-lambda), p = 1;
    uint64_t k = 0;
    do {
        k++;
        p *= rng_uniform(r);
    } while (p > l);
    return k - 1;
}

void rng_shuffle(rng *r, void *base, size_t n, size_t size)
{
    unsigned char *a = base, tmp[256];
    if (size > sizeof tmp)
        return;
    for (size_t i = n; i > 1; i--) {
        size_t j = (size_t)rng_below(r, i);
        if (j != i - 1) {
            memcpy(tmp, a + j * size, size);
            memcpy(a + j * size, a + (i - 1) * size, size);
            memcpy(a + (i - 1) * size, tmp, size);
        }
    }
}

/* rng — a seeded, reproducible random number generator (xoshiro256**,
 * seeded through splitmix64).  Same seed, same sequence, on every machine.
 *
 * For shard-safe tools, rng_seed_key derives an independent stream from
 * (seed, key), so a job's random choices do not depend on which other jobs
 * share its input split.
 *
 * Threads: no shared state; one rng is used by one thread at a time
 * (derive one per thread or per key with rng_seed_key).
 */
#ifndef SLOKIT_RNG_H
#define SLOKIT_RNG_H

#include <stddef.h>
#include <stdint.h>

typedef struct { uint64_t s[4]; } rng;

void rng_seed(rng *r, uint64_t seed);
/* rng_seed_key: stream for (seed, key); key is any NUL-terminated string. */
void rng_seed_key(rng *r, uint64_t seed, const char *key);
uint64_t rng_u64(rng *r);
/* uniform in [0, 1) with 53 random bits */
double rng_uniform(rng *r);
/* uniform integer in [0, n), unbiased; n > 0 */
uint64_t rng_below(rng *r, uint64_t n);
/* standard normal (Marsaglia polar method) */
double rng_normal(rng *r);
/* exponential with the given mean (> 0) */
double rng_exp(rng *r, double mean);
/* Poisson with mean lambda >= 0 (Knuth for small lambda, normal approximation above 50) */
uint64_t rng_poisson(rng *r, double lambda);
/* Fisher-Yates shuffle of n elements of `size` bytes */
void rng_shuffle(rng *r, void *base, size_t n, size_t size);
/* rng_hash_str: the 64-bit FNV-1a hash of a string, the same on every
 * machine and in every run: rng_seed_key's keys and other values drawn from
 * names.  Not for placing keys in a table (strhash.h: names can be chosen
 * to collide under a fixed hash). */
static inline uint64_t rng_hash_str(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 0x100000001b3ULL;
    }
    return h;
}

#endif

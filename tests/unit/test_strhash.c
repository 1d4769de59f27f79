/* Unit tests of lib/base/strhash: SipHash-2-4 against the published vectors
 * (Aumasson and Bernstein 2012: key 00 01 .. 0f, message 00 01 .. n-1), and
 * the string tables' defence: job names crafted so that their FNV-1a hashes
 * (the tables' hash before 2026-11-30) share their low 17 bits, i.e. one
 * home slot in a table of 2^17, are spread by strhash_str as random keys
 * are; a keyset still finds every one of them. */
#include "base/diag.h"
#include "base/keyset.h"
#include "base/rng.h"
#include "base/strhash.h"
#include "unit.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define K 17
#define NKEYS 20000

static const char LETTERS[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

/* fnv_low: FNV-1a's state after s, low K bits (they depend on nothing else) */
static uint64_t fnv_step(uint64_t h, unsigned char c)
{
    return ((h ^ c) * 0x100000001b3ULL) & ((1u << K) - 1);
}

int main(void)
{
    slk_init("test_strhash");
    const uint64_t key[2] = {0x0706050403020100ULL, 0x0f0e0d0c0b0a0908ULL};
    unsigned char msg[16];
    for (int i = 0; i < 16; i++)
        msg[i] = (unsigned char)i;
    /* the paper's Appendix A example (15 bytes), the empty message, 8 bytes */
    CHECK(strhash_siphash(key, msg, 15) == 0xa129ca6149be45e5ULL);
    CHECK(strhash_siphash(key, msg, 0) == 0x726fdb47dd0e0e31ULL);
    CHECK(strhash_siphash(key, msg, 8) == 0x93f5f5799a932462ULL);
    /* the process key: the same string, the same hash; another, another */
    CHECK(strhash_str("job00001") == strhash_str("job00001"));
    CHECK(strhash_str("job00001") != strhash_str("job00002"));

    /* Crafted names, meet in the middle: for every two-letter suffix, the
     * FNV-1a state before it that ends at the target; then for each prefix
     * "jobNNNNNN" and middle letter, a name whenever the state matches. */
    const uint64_t mask = (1u << K) - 1, target = 0x1234;
    uint64_t pinv = 0x100000001b3ULL; /* the inverse of the FNV prime mod 2^64 (Newton) */
    for (int i = 0; i < 6; i++)
        pinv *= 2 - 0x100000001b3ULL * pinv;
    char(*suffix)[3] = calloc((size_t)mask + 1, sizeof *suffix);
    for (const char *a = LETTERS; *a; a++)
        for (const char *b = LETTERS; *b; b++) {
            uint64_t s = (((((target * pinv) & mask) ^ (unsigned char)*b) * pinv) & mask) ^ (unsigned char)*a;
            if (!suffix[s][0])
                suffix[s][0] = *a, suffix[s][1] = *b;
        }
    char(*names)[32] = malloc(NKEYS * sizeof *names);
    long n = 0;
    for (long p = 0; n < NKEYS; p++) {
        char pre[24];
        snprintf(pre, sizeof pre, "job%06ld", p);
        uint64_t h = 0xcbf29ce484222325ULL & mask;
        for (const char *c = pre; *c; c++)
            h = fnv_step(h, (unsigned char)*c);
        for (const char *m = LETTERS; *m && n < NKEYS; m++) {
            uint64_t s = fnv_step(h, (unsigned char)*m);
            if (suffix[s][0])
                snprintf(names[n++], sizeof names[0], "%s%c%s", pre, *m, suffix[s]);
        }
    }
    /* the attack is real: every name has FNV-1a's home slot target */
    long on_target = 0;
    for (long i = 0; i < n; i++)
        on_target += (rng_hash_str(names[i]) & mask) == target;
    CHECK(on_target == NKEYS);
    /* strhash_str spreads them: the most names on one home slot of 2^17 is
     * what random keys give (20,000 balls in 131,072 bins: at most 6 or 7
     * with near certainty; 12 would be a 1e-9 event) */
    unsigned char *load = calloc((size_t)mask + 1, 1);
    int worst = 0;
    for (long i = 0; i < n; i++) {
        size_t s = strhash_str(names[i]) & mask;
        if (++load[s] > worst)
            worst = load[s];
    }
    CHECK(worst <= 12);
    /* and a keyset holds them all, numbered in insertion order */
    keyset *ks = keyset_new();
    long fresh = 0;
    for (long i = 0; i < n; i++)
        fresh += keyset_put(ks, names[i], i + 2, NULL) == i;
    CHECK(fresh == NKEYS);
    long first = 0;
    CHECK(keyset_put(ks, names[NKEYS / 2], 99, &first) == -1 && first == NKEYS / 2 + 2);
    CHECK(keyset_row(ks, names[NKEYS - 1]) == NKEYS - 1);
    CHECK_STR(keyset_key(ks, 7), names[7]);
    keyset_free(ks);
    free(load);
    free(names);
    free(suffix);
    return unit_done("strhash");
}

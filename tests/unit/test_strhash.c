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
#include "sipref.h"
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
    unsigned char msg[72];
    for (int i = 0; i < 72; i++)
        msg[i] = (unsigned char)i;
    /* the paper's Appendix A example (15 bytes), the empty message, 8 bytes */
    CHECK(strhash_siphash(key, msg, 15) == 0xa129ca6149be45e5ULL);
    CHECK(strhash_siphash(key, msg, 0) == 0x726fdb47dd0e0e31ULL);
    CHECK(strhash_siphash(key, msg, 8) == 0x93f5f5799a932462ULL);
    /* every length 0..71 (each tail, several words) and an unaligned start,
     * against the byte-wise reference, which gives the three vectors too */
    CHECK(sip_ref(key, msg, 15) == 0xa129ca6149be45e5ULL && sip_ref(key, msg, 0) == 0x726fdb47dd0e0e31ULL);
    int agree = 0;
    for (size_t n = 0; n <= 71; n++)
        agree += strhash_siphash(key, msg, n) == sip_ref(key, msg, n) &&
                 (n == 0 || strhash_siphash(key, msg + 1, n - 1) == sip_ref(key, msg + 1, n - 1));
    CHECK(agree == 72);
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
    /* keyset_intern through the table's growth: each name numbered once, in
     * order, found again after every doubling; keyset_find_grouped answers
     * the previous row without a lookup and a new one with one */
    ks = keyset_new();
    long ok = 0, again = 0;
    for (long i = 0; i < n; i++) {
        int added = -1;
        ok += keyset_intern(ks, names[i], &added) == i && added == 1;
        again += keyset_intern(ks, names[i / 2], &added) == i / 2 && added == 0;
    }
    CHECK(ok == NKEYS && again == NKEYS && keyset_size(ks) == (size_t)NKEYS);
    long last = -1;
    CHECK(keyset_find_grouped(ks, names[5], &last, 0) == 5 && last == 5);
    CHECK(keyset_find_grouped(ks, names[5], &last, 0) == 5);
    CHECK(keyset_find_grouped(ks, "not there", &last, 0) == -1 && last == -1);
    CHECK(keyset_find_grouped(ks, "not there", &last, 1) == NKEYS && last == NKEYS);
    keyset_free(ks);
    /* the grouped tracker over NKEYS groups of two records: new, same; a
     * group that comes back after others is -1 and leaves the current one */
    group_tracker g;
    group_init(&g);
    CHECK_STR(group_current(&g), "");
    long news = 0, sames = 0;
    for (long i = 0; i < n; i++) {
        news += group_check(&g, names[i]) == 1;
        sames += group_check(&g, names[i]) == 0;
    }
    CHECK(news == NKEYS && sames == NKEYS);
    CHECK_STR(group_current(&g), names[NKEYS - 1]);
    CHECK(group_check(&g, names[3]) == -1);
    CHECK_STR(group_current(&g), names[NKEYS - 1]);
    CHECK(group_check(&g, "fresh") == 1);
    CHECK_STR(group_current(&g), "fresh");
    group_free(&g);
    free(load);
    free(names);
    free(suffix);
    return unit_done("strhash");
}

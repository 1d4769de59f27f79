/* Unit test: the checks of tests/fuzz/fuzz_keyset.c (keyset, the grouped
 * tracker and SipHash, answer by answer against a sorted-list reference and
 * a byte-wise SipHash) on inputs drawn from a fixed seed, so that make check
 * runs them in both builds without libFuzzer.  The inputs are shaped as
 * the fuzzer's seeds are: mostly four-letter names (groups that continue,
 * end and come back), raw names of every tail length, and bulk additions
 * of 64 names that grow the table through several doublings.  A wrong answer aborts with
 * "fuzz_keyset: operation N: what", which run.sh reports as a crash. */
#include "../fuzz/fuzz_keyset.c"
#include "base/rng.h"
#include "unit.h"

#define NINPUT 300

int main(void)
{
    rng r;
    rng_seed(&r, 2026120201);
    static uint8_t buf[8192];
    for (int t = 0; t < NINPUT; t++) {
        size_t n = 16;
        uint64_t bulk = t % 2 ? 128 : 16; /* one bulk addition in so many operations */
        for (int i = 0; i < 16; i++)
            buf[i] = (uint8_t)rng_below(&r, 256);
        size_t want = 64 + rng_below(&r, sizeof buf - 64 - 600);
        while (n + 2 + 520 < want) { /* room for one more operation: 2 + NAME_MAX_LEN bytes at most */
            uint8_t op = (uint8_t)rng_below(&r, OP_MASK + 1), len;
            int alpha = rng_below(&r, 4) != 0; /* 3 in 4: four letters */
            if (rng_below(&r, bulk) == 0)
                op = OP_BULK;
            else if (op == OP_BULK)
                op = OP_GROUP;
            if (alpha)
                len = (uint8_t)(1 + rng_below(&r, 4));
            else
                len = (uint8_t)(rng_below(&r, 64) | (rng_below(&r, 8) == 0 ? 64 : 0));
            buf[n++] = (uint8_t)(op | (alpha ? NAME_ALPHA : 0));
            buf[n++] = len;
            if (!alpha) {
                size_t l = name_len(len);
                for (size_t j = 0; j < l; j++)
                    buf[n++] = (uint8_t)rng_below(&r, 256);
            }
        }
        CHECK(LLVMFuzzerTestOneInput(buf, n) == 0);
    }
    return unit_done("keyset_fuzz");
}

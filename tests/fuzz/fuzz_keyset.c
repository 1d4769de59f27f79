/* fuzz_keyset — libFuzzer target for the string tables: keyset, the grouped
 * tracker and SipHash, each against a plain reference.
 *
 * Every per-key tool finds its keys through keyset (its row numbers index
 * the tools' own arrays) and tells a grouped input from one that is not
 * through group_check; a wrong answer there is a wrong table or a false
 * "input not grouped", not a crash.  So this target checks answers: a
 * sorted list searched by bisection stands for the set (no hashing), and
 * each operation's result must match it.
 *
 * Bytes 0-15 are a SipHash key: strhash_siphash of the whole input, and of
 * its every suffix up to 80 bytes long (every tail length, from any start),
 * must match the byte-wise reference of tests/unit/sipref.h.  The rest is
 * operations, 2 bytes each plus a key: the first byte picks the operation
 * (its low 4 bits) and the key's alphabet (bit 4: four letters, so names
 * repeat and groups come back; else raw bytes, NUL read as 'a'), the second
 * the key's length (0-63, or 8x with bit 6: tails and long names); one
 * operation adds 64 new names at once, so the table grows several times
 * within one input.  Operations: keyset_add, _has, _put (line = the
 * operation's number), _row, _intern, _key (row from the key's length, -1
 * and past the end too), _find_grouped (add or not), group_check with
 * group_current, and keyset_size after each. */
#include "../unit/sipref.h"
#include "base/keyset.h"
#include "base/strhash.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAXKEYS 4096

/* The input's encoding (tests/unit/test_keyset_fuzz.c writes it too): an
 * operation byte (OP_MASK: which; NAME_ALPHA: a four-letter name) and a
 * length byte, then a raw name's bytes. */
enum { OP_MASK = 15, OP_GROUP = 9, OP_BULK = 12, NAME_ALPHA = 16 };
#define NAME_MAX_LEN (63 * 8)

/* name_len: the name length a length byte gives: 0-63, times 8 with bit 6 */
static size_t name_len(uint8_t l) { return (size_t)(l & 63) * (l & 64 ? 8 : 1); }

/* the reference set: keys in insertion order, each with its line, and
 * their rows sorted by key for a binary search */
struct ref {
    char *key[MAXKEYS];
    long line[MAXKEYS];
    long by_key[MAXKEYS];
    long n;
};

/* ref_find: where key is or would go in by_key; *found says which */
static long ref_find(const struct ref *r, const char *key, int *found)
{
    long lo = 0, hi = r->n;
    while (lo < hi) {
        long mid = (lo + hi) / 2;
        int c = strcmp(r->key[r->by_key[mid]], key);
        if (c == 0) {
            *found = 1;
            return mid;
        }
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    *found = 0;
    return lo;
}

static long ref_row(const struct ref *r, const char *key)
{
    int found;
    long at = ref_find(r, key, &found);
    return found ? r->by_key[at] : -1;
}

static long ref_add(struct ref *r, const char *key, long line)
{
    int found;
    long at = ref_find(r, key, &found);
    memmove(r->by_key + at + 1, r->by_key + at, (size_t)(r->n - at) * sizeof *r->by_key);
    r->by_key[at] = r->n;
    r->key[r->n] = strdup(key);
    r->line[r->n] = line;
    return r->n++;
}

static void ref_free(struct ref *r)
{
    for (long i = 0; i < r->n; i++)
        free(r->key[i]);
    r->n = 0;
}

static void fail(const char *what, long op)
{
    fprintf(stderr, "fuzz_keyset: operation %ld: %s\n", op, what);
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 16 || size > 8192)
        return 0;
    uint64_t k[2] = {0, 0};
    for (int i = 0; i < 16; i++)
        k[i / 8] |= (uint64_t)data[i] << (8 * (i % 8));
    if (strhash_siphash(k, data, size) != sip_ref(k, data, size))
        fail("SipHash of the whole input", -1);
    for (size_t s = size > 80 ? size - 80 : 0; s < size; s++)
        if (strhash_siphash(k, data + s, size - s) != sip_ref(k, data + s, size - s))
            fail("SipHash of a suffix", -1);

    static struct ref set, seen;
    keyset *ks = keyset_new();
    group_tracker g;
    group_init(&g);
    long cur = -1;  /* the reference tracker's current group: a row of seen */
    long last = -1; /* keyset_find_grouped's cache */
    unsigned bulk = 0;
    char key[NAME_MAX_LEN + 1];
    long op = 0;
    for (size_t i = 16; i + 2 <= size; op++) {
        uint8_t o = data[i], l = data[i + 1];
        i += 2;
        int alpha = o & NAME_ALPHA;
        size_t len = name_len(l);
        if (len > size - i && !alpha)
            len = size - i;
        for (size_t j = 0; j < len; j++) {
            uint8_t b = alpha ? data[(i + j) % size] : data[i + j];
            key[j] = alpha ? (char)('a' + b % 4) : b ? (char)b : 'a';
        }
        key[len] = 0;
        if (!alpha)
            i += len;
        long want = ref_row(&set, key), got, line;
        int added;
        switch (o & OP_MASK) {
        case 0:
            if (set.n == MAXKEYS)
                break;
            if (keyset_add(ks, key) != (want < 0))
                fail("keyset_add", op);
            if (want < 0)
                ref_add(&set, key, 0);
            break;
        case 1:
        case 13:
        case 14:
        case 15:
            if (keyset_has(ks, key) != (want >= 0))
                fail("keyset_has", op);
            break;
        case 2:
            if (set.n == MAXKEYS)
                break;
            line = -1;
            got = keyset_put(ks, key, op, &line);
            if (want >= 0 ? got != -1 || line != set.line[want] : got != set.n)
                fail("keyset_put", op);
            if (want < 0)
                ref_add(&set, key, op);
            break;
        case 3:
            if (keyset_row(ks, key) != want)
                fail("keyset_row", op);
            break;
        case 4:
        case 5:
            if (set.n == MAXKEYS)
                break;
            got = keyset_intern(ks, key, &added);
            if (got != (want >= 0 ? want : set.n) || added != (want < 0))
                fail("keyset_intern", op);
            if (want < 0)
                ref_add(&set, key, 0);
            break;
        case 6: {
            long row = (long)(len % 7) * (set.n / 4 + 1) - 1; /* -1, 0, ..., past the end */
            const char *s = keyset_key(ks, row);
            if (row >= 0 && row < set.n ? !s || strcmp(s, set.key[row]) != 0 : s != NULL)
                fail("keyset_key", op);
            break;
        }
        case 7:
        case 8: {
            if (set.n == MAXKEYS)
                break;
            int add = (o & OP_MASK) == 7;
            long l0 = last;
            got = keyset_find_grouped(ks, key, &last, add);
            long exp = want >= 0 ? want : add ? set.n : -1;
            if (got != exp || last != exp)
                fail("keyset_find_grouped", op);
            if (l0 >= 0 && l0 < set.n && strcmp(set.key[l0], key) == 0 && got != l0)
                fail("keyset_find_grouped: the previous row", op);
            if (want < 0 && add)
                ref_add(&set, key, 0);
            break;
        }
        case OP_GROUP:
        case 10:
        case 11: {
            if (seen.n == MAXKEYS)
                break;
            long row = ref_row(&seen, key);
            int exp = row < 0 ? 1 : row == cur ? 0 : -1;
            if (group_check(&g, key) != exp)
                fail("group_check", op);
            if (exp == 1)
                cur = ref_add(&seen, key, 0);
            if (strcmp(group_current(&g), cur < 0 ? "" : seen.key[cur]) != 0)
                fail("group_current", op);
            break;
        }
        case OP_BULK:
            for (int j = 0; j < 64 && set.n < MAXKEYS; j++) {
                snprintf(key, sizeof key, "#%u", bulk++);
                want = ref_row(&set, key);
                if (keyset_intern(ks, key, NULL) != (want >= 0 ? want : set.n))
                    fail("keyset_intern, bulk", op);
                if (want < 0)
                    ref_add(&set, key, 0);
            }
            break;
        }
        if (keyset_size(ks) != (size_t)set.n)
            fail("keyset_size", op);
    }
    for (long r = 0; r < set.n; r++)
        if (keyset_row(ks, set.key[r]) != r || strcmp(keyset_key(ks, r), set.key[r]) != 0)
            fail("a key's row at the end", op);
    keyset_free(ks);
    group_free(&g);
    ref_free(&set);
    ref_free(&seen);
    return 0;
}

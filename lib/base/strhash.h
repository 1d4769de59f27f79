/* strhash — where the string tables (keyset, skyjob's runs, vcio's job ids)
 * put a key: SipHash-2-4 of the string under a key drawn at random once per
 * process.
 *
 * The tables probe linearly from a home slot, the hash's low bits.  With a
 * fixed hash (FNV-1a until 2026-11-30) anyone who names jobs or runs can
 * pick names that share a home slot: 50,000 such job names (1.6 MB of CSV)
 * took skyfit 9.6 s instead of 0.03 s, and the time grows with the square
 * of the count.  Under a secret random key no name can be chosen to
 * collide.  The key changes from run to run, so nothing may depend on a
 * table's slot order: the tables are looked up by key and list their keys
 * in insertion order, and no output is drawn from the hash.  For
 * reproducible values derived from strings (seeds, shard numbers) use
 * rng_hash_str or shard_hash, never this.
 *
 * Threads: the key is drawn once, under pthread_once; then read-only.
 */
#ifndef SLOKIT_STRHASH_H
#define SLOKIT_STRHASH_H

#include <stddef.h>
#include <stdint.h>

/* strhash_str: SipHash-2-4 of the NUL-terminated s under the process's key. */
uint64_t strhash_str(const char *s);

/* strhash_siphash: SipHash-2-4 of buf[0..n) under the 128-bit key k (k[0]
 * the first 8 key bytes, little-endian): the function itself, for tests
 * against the published vectors. */
uint64_t strhash_siphash(const uint64_t k[2], const void *buf, size_t n);

#endif

/* gen — synthetic telemetry generators behind tracegen(1), one per data kind.
 *
 * Each kind lives in lib/gen_<kind>.c and exports one `const struct gen_kind`.
 * The registry (gen.c) lists them.  A generator writes its rows to `out`
 * (header first) and, when the kind has ground truth, to `truth`.  Same
 * parameters and seed give byte-identical output.  Generators must stream:
 * memory proportional to one entity (job, tenant, ...), never to the output,
 * so --count and --days can reach gigabyte-scale inputs for benchmarks.
 *
 * Parameters that only some kinds use come as --set key=value; a kind lists
 * the keys it accepts and tracegen rejects any other.
 *
 * Threads: the registry is constant; a generator run keeps its state in its
 * own arguments, so different runs may go on in different threads.
 */
#ifndef SLOKIT_GEN_H
#define SLOKIT_GEN_H

#include "base/csvio.h"
#include <stdint.h>

#define GEN_MAX_SET 64

struct gen_params {
    uint64_t seed;      /* --seed */
    double start;       /* --start: epoch seconds of the first day (default 2026-01-05T00:00:00Z) */
    double days;        /* --days (default: the kind's) ; 0 = kind default */
    long count;         /* --count: jobs / tenants / VCs / tasks; 0 = kind default */
    int nset;
    const char *set_key[GEN_MAX_SET];
    const char *set_val[GEN_MAX_SET];
};

struct gen_kind {
    const char *name;            /* "runs" */
    const char *summary;         /* one line: what it writes */
    const char *columns;         /* the output header, comma-separated */
    const char *truth_columns;   /* ground-truth header, or NULL when none */
    const char *const *keys;     /* accepted --set keys (NULL-terminated), or NULL */
    /* generate: write the data; truth may be NULL (not requested).
     * Returns SLK_OK or an exit status after printing why. */
    int (*generate)(const struct gen_params *p, csvw *out, csvw *truth);
    /* reach: where the epoch times the kind writes for p can lie: every one
     * in [start - *before, start + *after] (seconds, both >= 0; bounds, not
     * the exact extent).  NULL: the kind writes no epoch times. */
    void (*reach)(const struct gen_params *p, double *before, double *after);
};

/* gen_kinds: the registry, NULL-terminated, in the order tracegen lists them. */
extern const struct gen_kind *const gen_kinds[];

/* gen_find: the kind named `name`, or NULL. */
const struct gen_kind *gen_find(const char *name);

/* gen_get: the --set value of key as a number, or def when not set.  A value
 * that is not a number ends tracegen with exit 64 and a message naming the
 * key: call it for every parameter before writing any output. */
double gen_get(const struct gen_params *p, const char *key, double def);
/* gen_get_str: the --set value of key, or def. */
const char *gen_get_str(const struct gen_params *p, const char *key, const char *def);

/* gen_check: verify every --set key is one the kind accepts; prints
 * "tracegen: unknown --set key 'x' for kind 'runs' (accepted: ...)" and returns -1. */
int gen_check(const struct gen_kind *k, const struct gen_params *p);

/* gen_check_times: whether every epoch time kind k can write for p (its
 * reach from p->start) is one the other tools read, |t| <= CSVR_MAX_TIME;
 * else prints "tracegen: --start 99999990000: the usage trace would reach
 * 100001804400, beyond 1e+11 (the year 5138): give an earlier --start or a
 * shorter trace" and returns -1.  Called before anything is written. */
int gen_check_times(const struct gen_kind *k, const struct gen_params *p);

#endif

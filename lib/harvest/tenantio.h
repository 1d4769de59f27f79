/* tenantio — reading primary tenants' utilization series (tenant,t,util
 * [,servers], grouped by tenant) into one feature row per tenant, and the
 * feature table that carries those rows between the two phases of
 * tenantclass (seed 003 §4.1).
 *
 * The per-tenant phase.  Rows are read with csvio; each tenant's samples are
 * kept (memory for one tenant), resampled and classified with
 * lib/harvest/pattern when its group ends.  A tenant with no util value,
 * fewer than min_samples steps or more than max_missing of its steps filled
 * is skipped with a warning and counted.  Input must be grouped by tenant:
 * a tenant that comes back after another one is an error ("input not grouped
 * by tenant"), unless sort is set, which holds every row (about 80 bytes a
 * row plus the tenant name) and groups them by tenant first, in tenant-name
 * order (rows of a tenant keep their input order).
 *
 * Parallel reading.  A plain regular file of more than 32 MiB is cut between
 * tenants into `threads` byte ranges, each parsed by its own csvio range
 * reader and classified by its own thread; rows, warnings and errors are
 * merged in input order, so output, messages and line numbers are those of
 * one reader.  Compressed input (zin_sniff), stdin, --on-error skip (its
 * rejects name lines as they are read) and sort are read by one reader.
 *
 * --on-error skip (a dialect with rejects): a row with a bad time, util or
 * servers value or no tenant is written to the rejects with its reason and
 * left out; the tenant's other rows count.  Errors about the input as a
 * whole (ungrouped input, --max-tenants, a span too long) always stop.
 *
 * Messages: "tool: FILE:LINE: message" through diag, in input order.
 * Ownership: a tenant_set owns its rows and their tenant names
 * (tenant_set_free).  Threads: the functions start and join their own
 * threads; a tenant_set and a servers table belong to the caller's thread
 * (the table is only read while reading).
 */
#ifndef SLOKIT_TENANTIO_H
#define SLOKIT_TENANTIO_H

#include "base/csvio.h"
#include "base/diag.h"
#include "harvest/pattern.h"

#include <stddef.h>

/* One tenant: its features (util in 0-1) and, after clustering, its class. */
struct tenant_feat {
    char *tenant;
    double servers;
    long steps, missing;
    struct pattern_features pf;
    int cls; /* class index within its pattern */
};

/* The tenants read so far, in input order, and what was skipped.
 * classified[p]: the tenants of pattern p classified by the per-tenant phase
 * (counted with or without rows kept, so --features-only can tell them);
 * skipped_sparse: of skipped_gaps, the tenants whose samples are further
 * apart than the step (median interval > step: the step is the cause).
 * unlisted: the tenants o->servers (when it lists any) does not list;
 * unlisted_one: of them, those counted as 1 server (no servers value in
 * the input to take instead). */
struct tenant_set {
    struct tenant_feat *rows;
    size_t n, cap;
    long skipped_gaps, skipped_short, skipped_sparse, unlisted, unlisted_one, missing_util;
    struct slk_many warned; /* the skipped tenants' warnings (the first few printed) */
    long classified[PATTERN_N];
    size_t samples;
    struct keyset *seen;       /* tenantio_read_features: the tenants read (duplicates) */
    struct tenant_table *tables; /* ... and the tables they came from */
    size_t ntables, cap_tables;
};

/* tenant_set_free: free the rows, names and tables (the struct is the caller's). */
void tenant_set_free(struct tenant_set *ts);

/* tenant_set_sort: sort the rows by tenant name; returns a tenant that has
 * two rows (in two groups or feature tables), or NULL. */
const char *tenant_set_sort(struct tenant_set *ts);

/* servers per tenant (the --servers table: columns tenant,servers) */
typedef struct tenant_servers tenant_servers;

/* the most servers one tenant may have (replplace's bound too) */
#define TENANT_MAX_SERVERS 100000000

/* The columns each reader looks up by name, NULL-terminated: what a tool gives cli_keys as its --col KEYs
 * for that input.  tenantio_server_keys: a servers table (tenant_servers_load); tenantio_series_keys: the
 * tenant series. */
extern const char *const tenantio_server_keys[];
extern const char *const tenantio_series_keys[];

/* tenant_servers_load: read path with dialect d.  A missing tenant, a
 * negative, bad or too large (> TENANT_MAX_SERVERS) servers value, or a
 * tenant listed again (keytab's rule:
 * "duplicate tenant 'x' (first at line N)") is an error at its row, or a
 * rejected row under --on-error skip.  Returns SLK_OK with *out set, or the
 * exit status.  Lookups only read the table: threads may share it. */
int tenant_servers_load(const char *path, const struct csv_dialect *d, tenant_servers **out);
/* tenant_servers_lookup: the servers of tenant, or -1 when not listed (or t NULL). */
double tenant_servers_lookup(const tenant_servers *t, const char *tenant);
/* tenant_servers_free: NULL is fine. */
void tenant_servers_free(tenant_servers *t);

/* How to read and classify.  A tenant skipped for gaps whose median sample
 * interval is longer than the step gets the interval and the --step to give
 * in its warning ("its samples are 300 s apart: give --step 5m?"). */
struct tenantio_opts {
    struct pattern_rules rules;
    int percent;                   /* util (and output) in 0-100 instead of 0-1 */
    double max_missing;            /* largest share of filled steps */
    long min_samples;              /* fewest steps after resampling */
    long long max_tenants;         /* most rows kept in the tenant_set */
    int threads;                   /* readers for a big plain file; 0: the processors, at most 8 */
    int sort;                      /* -s: any row order (rows held, grouped by tenant first) */
    long long range_min;           /* smallest file read by several readers; 0: 32 MiB */
    const tenant_servers *servers; /* NULL: servers from the input's column, else 1 */
    const struct csv_dialect *dialect;
};

/* tenantio_readers: how many readers tenantio_read_series uses for path:
 * 1 for stdin, a compressed or non-regular file, a file under range_min
 * bytes, with sort or with rejects; else o->threads (0: the processors, at
 * most 8).  The readers actually used can be fewer (cuts between tenants). */
int tenantio_readers(const char *path, const struct tenantio_opts *o);

/* tenantio_read_series: read the series at path ("-": stdin) and classify
 * every tenant: with fw, write each feature row to fw as soon as it is known
 * (the rows are not kept); without, put them in ts (which must be empty: one
 * reader takes the rows over whole), their util features
 * passed through the feature table's scale and back (tenantio_feature_scaled):
 * the very doubles tenantio_read_features gives, so one process and
 * --features-only + --from-features cluster the same bits.  Counters of ts
 * are updated either way.  Returns SLK_OK or the exit status (message printed);
 * rows written before an error are the caller's to discard. */
int tenantio_read_series(const char *path, const struct tenantio_opts *o, struct tenant_set *ts, csvw *fw);

/* tenantio_read_features: append the rows of a feature table (written by
 * tenantio_write_feature, possibly several concatenated) to ts; servers
 * listed in o->servers replace the table's.  A file of no bytes is refused
 * ("empty input (no header row)", SLK_EDATA): --features-only writes the
 * header even for no tenants, so such a file is a shard whose run failed.
 * A tenant already read, from this table or one read before into
 * ts, is an error at its row, naming the first ("duplicate tenant 'x'
 * (first at line 2)", "... (first at a.csv:2)"): keytab's rule, a rejected
 * row under --on-error skip (the first row kept).  Returns SLK_OK or the
 * exit status. */
int tenantio_read_features(const char *path, const struct tenantio_opts *o, struct tenant_set *ts);

/* tenantio_feature_scaled: the util features of f (avg, peak, sd, sd_low) as
 * a feature table carries them: with percent, x * 100 written exactly and
 * read back as (x * 100) / 100, which is not always x (2.4066136448948954
 * came back as 2.406613644894896).  No change without percent. */
void tenantio_feature_scaled(struct tenant_feat *f, int percent);

/* The feature table's columns (NULL-terminated). */
extern const char *const tenantio_feature_header[];

/* tenantio_write_feature: one row of the feature table; util columns in
 * 0-100 when percent.  Numbers are written shortest-exact whatever the
 * precision, so a table read back gives the same doubles. */
void tenantio_write_feature(csvw *w, const struct tenant_feat *f, int percent);

#endif

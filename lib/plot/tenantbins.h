/* tenantbins — skyplot tenants' per-tenant bin means, computed while the
 * utilization file (tenant,t,util) is read, so that memory follows tenants
 * and bins, not rows (2000 tenants over 30 days are 43 million rows).
 *
 * The rule is the tenants chart's (charts.h): the bin width w is the median
 * gap between a tenant's consecutive samples (all tenants pooled; 60 s when
 * no tenant has two), or the time span / max_bins when that is longer;
 * bins start at t0, the first sample; a tenant's value in a bin is the mean
 * of its samples there.  The width must be known before a row is binned, so
 * the file is read twice: a first pass finds t0, the span and the median gap
 * (only the gaps longer than the span / max_bins seen so far are kept: at
 * most max_bins per tenant), the second accumulates each tenant's current
 * bin (a sum and a count) and emits its mean when the tenant's next bin
 * starts.  This needs each tenant's rows in time order (tenants may be
 * interleaved: grouped by tenant, or sorted by time); an input that cannot
 * be read twice (standard input, a pipe) or whose times go back for a
 * tenant is left to the caller, which then holds the rows and sorts them
 * (TENANTBINS_HELD).
 *
 * Errors: a bad row stops the first pass with the reader's message (exactly
 * as one pass would); under --on-error skip (the dialect's rejects) the
 * first pass skips it silently and the second one reports it, so each
 * rejected row is listed once.  Bad rows are the chart's: a time that does
 * not parse, a utilization negative, beyond 1e15 or not a number; a row
 * whose kind column says "end" (a slokit trailer) is not data.
 *
 * Ownership: tenantbins_read fills a struct tenantbins whose arrays the
 * caller frees with tenantbins_free.  No state is shared between calls:
 * threads may bin different files at once (each call has its own readers).
 */
#ifndef SLOKIT_TENANTBINS_H
#define SLOKIT_TENANTBINS_H

#include "base/csvio.h"

#include <stddef.h>

/* tenantbins_read's answer for an input it cannot bin while reading. */
#define TENANTBINS_HELD (-1)

/* One tenant's mean utilization in one bin, tagged with its class. */
struct tenantbins_pt {
    int cls;     /* the tenant's class (0 .. nclasses-1) */
    double bin;  /* the bin's start: t0 + k w */
    double mean; /* the tenant's mean over its samples in the bin */
};

struct tenantbins {
    size_t rows;               /* utilization rows read (0: the file has none) */
    double t0, w;              /* the first sample and the bin width */
    struct tenantbins_pt *pts; /* one per tenant with a class and bin with samples, */
    size_t n;                  /*   sorted by class, then bin */
    size_t *ntenants;          /* per class: its tenants that have samples */
    size_t tenants;            /* tenants with samples, with a class or not */
    size_t unclassed;          /* of them, those class_of gives no class */
    char *first_unclassed;     /* the first of those (by first row), or NULL */
};

/* tenantbins_read: bin the utilization file `path` (dialect d; its columns
 * tenant, t, util) per the rule above.  class_of(tenant, ctx) gives a
 * tenant's class, 0 .. nclasses-1, or -1 for a tenant not in the class
 * table (its samples count for t0, the span and the gaps, as the chart's
 * rule says, but are not drawn).  max_bins > 0.  Returns SLK_OK (out
 * filled; out->rows 0 for a file with no rows), TENANTBINS_HELD (nothing
 * printed, out empty) when path is standard input, not a regular file, or
 * a tenant's times go back, or an exit status with its message printed
 * (a bad row, a missing column, a file that changed between the passes). */
int tenantbins_read(const char *path, const struct csv_dialect *d,
                    int (*class_of)(const char *tenant, void *ctx), void *ctx, size_t nclasses, int max_bins,
                    struct tenantbins *out);

/* tenantbins_count: count a tenant with samples into b (its ntenants
 * already allocated): of class cls, or none (cls < 0; the first such
 * tenant's name is copied).  For a caller that bins the rows itself. */
void tenantbins_count(struct tenantbins *b, int cls, const char *tenant);

/* tenantbins_free: free what tenantbins_read filled in (b itself is the
 * caller's); a zeroed struct is fine. */
void tenantbins_free(struct tenantbins *b);

#endif

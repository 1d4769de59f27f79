/* outlier — which runs of a job are too long or too large to model as its
 * normal behaviour (Morpheus §2 Fig. 2b, §5, §7): skyfit keeps them out of the
 * skyline LP and leaves them to the dynamic reprovisioning (DRA), as the
 * paper does.
 *
 * The rule (one rule, documented in skyfit(1)): run i is an outlier when
 *     len_i  > median(len)  + k * spread(len)    or
 *     area_i > median(area) + k * spread(area)
 * where spread(x) = max(1.4826 * MAD(x), floor * median(x)).  1.4826 MAD is
 * the robust standard deviation (a straggler cannot inflate it the way it
 * inflates a standard deviation); the floor (a fraction of the median) keeps
 * a job whose runs are nearly identical from losing runs to a few percent of
 * noise.  Only long or large runs are outliers: short runs (early finishes,
 * light days) are normal behaviour the skyline must not over-cover anyway.
 * Fewer than min_runs runs: nothing is an outlier (a median of 3 is not a
 * norm).  Strictly fewer than half the runs can be outliers, since an
 * outlier lies above the median.
 *
 * Pure functions over caller-owned arrays; nothing is kept between calls;
 * safe to call from several threads at once.
 */
#ifndef SLOKIT_OUTLIER_H
#define SLOKIT_OUTLIER_H

#include <stddef.h>

struct outlier_opts {
    double k;       /* spreads above the median; <= 0 turns the rule off */
    double floor;   /* minimum spread as a fraction of the median (0.1) */
    size_t min_runs;/* fewer runs: nothing is an outlier (5) */
};

/* outlier_defaults: k 3, floor 0.1, min_runs 5 (see skyfit(1)). */
void outlier_defaults(struct outlier_opts *o);

/* outlier_mark: out[i] = 1 when run i (length len[i], area area[i], both
 * finite and >= 0) is an outlier by the rule above, else 0.  Returns the
 * number marked.  len and area are not modified. */
size_t outlier_mark(const double *len, const double *area, size_t n, const struct outlier_opts *o,
                    unsigned char *out);

/* outlier_threshold: median(x) + k * spread(x) of x[0..n-1] (not modified),
 * the bound of the rule; NaN when n == 0. */
double outlier_threshold(const double *x, size_t n, const struct outlier_opts *o);

#endif

/* draio — the DRA's sample stream (see draio.h). */
#include "morpheus/draio.h"
#include "base/diag.h"

#include <math.h>

const char *const draio_keys[] = {"job", "t", "used", "pending", NULL};

/* one sample's values, checked against the previous sample's time; -1 after
 * the message (csvr_fail or a getter's) */
static int sample_read(csvr *r, int cj, int ct, int cu, int cp, double last_t, const char **job, double *t,
                       double *used, double *pending)
{
    *job = csvr_field_required(r, cj, "job");
    *pending = 0;
    if (!*job)
        return -1;
    if (csvr_get_time(r, ct, t, CSVR_REQUIRED) < 0 || csvr_get_double(r, cu, used, CSVR_REQUIRED | CSVR_NONNEG) < 0 ||
        (cp >= 0 && csvr_get_double(r, cp, pending, CSVR_NONNEG) < 0))
        return -1;
    if (*t < last_t)
        return csvr_fail(r, "t %.17g is before the previous sample's %.17g: samples must come in time order", *t,
                         last_t);
    if (fabs(*t) > 1e11)
        return csvr_fail(r, "column 't': %.17g is out of range (epoch seconds within +-1e11)", *t);
    if (*used > 1e12 || *pending > 1e12)
        return csvr_fail_large(r, *used > 1e12 ? cu : cp, 1e12);
    return 0;
}

int draio_run(csvr *r, dra *d, draio_decide_fn decide, void *ctx)
{
    int cj, ct, cu, cp = csvr_col(r, "pending");
    if (csvr_require_cols(r, "job", &cj, "t", &ct, "used", &cu, (char *)NULL) < 0)
        return SLK_EDATA;
    double last_t = -INFINITY;
    struct dra_decision dec;
    while (csvr_next(r) > 0) {
        const char *job;
        double t, used, pending;
        if (sample_read(r, cj, ct, cu, cp, last_t, &job, &t, &used, &pending) < 0) {
            if (csvr_skip(r))
                continue; /* --on-error skip */
            break;
        }
        /* NOLINTNEXTLINE(clang-analyzer-core.uninitialized.Assign): sample_read sets t when it returns 0; failures continue or break above */
        last_t = t;
        if (dra_sample(d, job, t, used, pending, &dec)) {
            char why[320];
            dra_reason(&dec, why, sizeof why);
            decide(ctx, t, job, &dec, why);
        }
    }
    return csvr_status(r);
}

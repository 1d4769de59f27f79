/* jockeyio — the Jockey controller's sample stream (see jockeyio.h). */
#include "jockey/jockeyio.h"

#include "base/diag.h"

#include <math.h>
#include <stddef.h>

const char *const jockeyio_keys[] = {"job", "run", "t", "alloc", "progress", "completed", "total", NULL};

/* read_progress: the sample's progress from column cp, or from completed
 * and total (done, nst filled); 0 or -1 (reported). */
static int read_progress(csvr *r, int cp, int cc, int cn, double *prog, double *done, size_t *nst)
{
    if (cp >= 0)
        return csvr_get_double(r, cp, prog, CSVR_REQUIRED | CSVR_NONNEG) < 0 ? -1 : 0;
    char why[160];
    if (jockey_progress(csvr_field(r, cc), csvr_field(r, cn), prog, done, JOCKEY_MAX_STAGES, nst, why,
                        sizeof why) < 0) {
        csvr_fail(r, "%s", why);
        return -1;
    }
    if (*nst > JOCKEY_MAX_STAGES) {
        csvr_fail(r, "more than %d stages", JOCKEY_MAX_STAGES);
        return -1;
    }
    return 0;
}

int jockeyio_run(csvr *r, jockey *jk, jockeyio_decide_fn decide, void *ctx)
{
    int cj, ct, ca;
    int cp = csvr_col(r, "progress"), cc = csvr_col(r, "completed"), cn = csvr_col(r, "total"),
        cr = csvr_col(r, "run");
    if (csvr_require_cols(r, "job", &cj, "t", &ct, "alloc", &ca, (char *)NULL) < 0)
        return SLK_EDATA;
    if (cp < 0 && (cc < 0 || cn < 0)) {
        slk_error_at(csvr_path(r), 1, "missing column 'progress' (or the columns 'completed' and 'total')");
        return SLK_EDATA;
    }
    double last_t = -INFINITY, done[JOCKEY_MAX_STAGES];
    size_t nst = 0;
    struct jockey_decision dec;
    while (csvr_next(r) > 0) {
        const char *job = csvr_field_required(r, cj, "job");
        double t, alloc, prog;
        if (!job) {
            if (csvr_skip(r))
                continue;
            break;
        }
        if (csvr_get_time(r, ct, &t, CSVR_REQUIRED) < 0 ||
            csvr_get_double(r, ca, &alloc, CSVR_REQUIRED | CSVR_NONNEG) < 0 ||
            read_progress(r, cp, cc, cn, &prog, done, &nst) < 0) {
            if (csvr_skip(r))
                continue;
            break;
        }
        if (fabs(t) > 1e11) {
            csvr_fail(r, "column 't': %.17g is out of range (epoch seconds within +-1e11)", t);
            if (csvr_skip(r))
                continue;
            break;
        }
        if (alloc > 1e9) {
            csvr_fail_large(r, ca, 1e9);
            if (csvr_skip(r))
                continue;
            break;
        }
        if (prog > 1) {
            csvr_fail(r, "column 'progress': %g is above 1 (a fraction of the work)", prog);
            if (csvr_skip(r))
                continue;
            break;
        }
        if (t < last_t) {
            csvr_fail(r, "t %.17g is before the previous sample's %.17g: samples must come in time order", t, last_t);
            if (csvr_skip(r))
                continue;
            break;
        }
        last_t = t;
        if (jockey_sample(jk, job, cr >= 0 ? csvr_field(r, cr) : NULL, t, prog, cp >= 0 ? NULL : done,
                          cp >= 0 ? 0 : nst, alloc, &dec))
            decide(ctx, t, job, &dec);
    }
    return csvr_status(r);
}

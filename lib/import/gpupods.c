/* gpupods — Alibaba GPU 2023 pods into stretch jobs (see gpupods.h). */
#include "import/gpupods.h"

#include "base/diag.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define MAX_FIELD 1e12 /* a count, milli-unit or time in seconds beyond any real trace */

/* A field of the current row: a number in [0, MAX_FIELD] into *v.  Returns 1,
 * 0 when it is empty and not required, -1 after csvr_fail. */
static int get_field(csvr *r, int col, unsigned flags, double *v)
{
    int rc = csvr_get_double(r, col, v, flags | CSVR_NONNEG);
    if (rc == 1 && *v > MAX_FIELD)
        return csvr_fail_large(r, col, MAX_FIELD);
    return rc;
}

/* the status a reader ended with, the reader closed */
static int finish(csvr *r)
{
    int st = csvr_status(r);
    csvr_close(r);
    return st;
}

int gpupods_read_nodes(const char *path, const struct csv_dialect *d, enum gpupods_unit unit, double *total)
{
    int st, ccpu, cgpu;
    csvr *r = csvr_open_with(path, d, 0, &st);
    if (!r)
        return st;
    *total = 0;
    if (csvr_require_cols(r, "cpu_milli", &ccpu, "gpu", &cgpu, (char *)NULL) == 0)
        while (csvr_next(r) > 0) {
            double cpu_milli, gpu;
            if (get_field(r, ccpu, CSVR_REQUIRED, &cpu_milli) < 0 ||
                get_field(r, cgpu, CSVR_REQUIRED, &gpu) < 0) {
                if (csvr_skip(r)) /* --on-error skip */
                    continue;
                break;
            }
            *total += unit == GPUPODS_GPU ? gpu : cpu_milli / 1000;
        }
    return finish(r);
}

enum { P_NAME, P_CPU, P_NGPU, P_GPUMILLI, P_SPEC, P_QOS, P_CREATE, P_DELETE, P_SCHED, P_N };

/* one pod row (its columns col[]): 0 (added or counted as skipped) or -1
 * after csvr_fail */
static int pod(csvr *r, const int *col, enum gpupods_unit unit, enum gpupods_vc_by by, double epoch,
               struct vcjobs *t, struct gpupods_stats *st)
{
    double v[P_N] = {0};
    st->pods++;
    for (int k = P_CPU; k < P_N; k++) {
        if (k == P_SPEC || k == P_QOS)
            continue;
        int rc = get_field(r, col[k], k == P_SCHED ? 0 : CSVR_REQUIRED, &v[k]);
        if (rc < 0)
            return -1;
        if (rc == 0) { /* no scheduled_time: a pod never scheduled (Pending) */
            st->unscheduled++;
            return 0;
        }
    }
    /* a scheduled pod's name and times are checked whatever the unit keeps
     * of it: a row's validity does not depend on --unit */
    const char *name = csvr_field_required(r, col[P_NAME], NULL);
    if (!name)
        return -1;
    if (!(fabs(epoch + v[P_CREATE]) <= CSVR_MAX_TIME))
        return csvr_fail(r,
                         "column '%s': '%s' is at %.17g s, beyond 1e11 s of 1970 (the epoch added; the next "
                         "tool refuses it)",
                         csvr_colname(r, col[P_CREATE]), csvr_field(r, col[P_CREATE]), epoch + v[P_CREATE]);
    if (v[P_SCHED] < v[P_CREATE])
        return csvr_fail(r, "pod '%s' scheduled at %s, before it was created at %s", name,
                         csvr_field(r, col[P_SCHED]), csvr_field(r, col[P_CREATE]));
    if (v[P_DELETE] < v[P_SCHED])
        return csvr_fail(r, "pod '%s' deleted at %s, before it was scheduled at %s", name,
                         csvr_field(r, col[P_DELETE]), csvr_field(r, col[P_SCHED]));
    double demand = unit == GPUPODS_GPU ? v[P_NGPU] * v[P_GPUMILLI] / 1000 : v[P_CPU] / 1000;
    if (demand <= 0) {
        st->no_demand++;
        return 0;
    }
    if (v[P_DELETE] == v[P_SCHED]) {
        st->no_duration++;
        return 0;
    }
    const char *vc = csvr_field(r, col[by == GPUPODS_VC_QOS ? P_QOS : P_SPEC]);
    if (!vc)
        vc = by == GPUPODS_VC_QOS ? "none" : "any";
    long first = vcjobs_add(t, name, vc, epoch + v[P_CREATE], demand * (v[P_DELETE] - v[P_SCHED]) / 3600,
                            demand, csvr_line(r));
    if (first)
        return csvr_fail(r, "duplicate pod '%s' (first at line %ld)", name, first);
    st->jobs++;
    return 0;
}

int gpupods_read(const char *path, const struct csv_dialect *d, enum gpupods_unit unit, enum gpupods_vc_by by,
                 double epoch, struct vcjobs *t, struct gpupods_stats *st)
{
    int status, col[P_N];
    *st = (struct gpupods_stats){0};
    csvr *r = csvr_open_with(path, d, 0, &status);
    if (!r)
        return status;
    if (csvr_require_cols(r, "name", &col[P_NAME], "cpu_milli", &col[P_CPU], "num_gpu", &col[P_NGPU],
                          "gpu_milli", &col[P_GPUMILLI], "gpu_spec", &col[P_SPEC], "qos", &col[P_QOS],
                          "creation_time", &col[P_CREATE], "deletion_time", &col[P_DELETE], "scheduled_time",
                          &col[P_SCHED], (char *)NULL) == 0)
        while (csvr_next(r) > 0) {
            csvr_progress(r, csvr_path(r));
            if (pod(r, col, unit, by, epoch, t, st) < 0 && !csvr_skip(r))
                break;
        }
    slk_progress_done(); /* before the caller's summary */
    return finish(r);
}

/* gpupods — Alibaba GPU 2023 pods into stretch jobs (see gpupods.h). */
#include "import/gpupods.h"

#include "base/diag.h"

#include <stdio.h>
#include <string.h>

#define MAXF 32

/* Read the header and find each wanted column.  Returns the header's field
 * count, or -1 after a message. */
static int header(rawin *in, const char *const *want, int *idx, char **f)
{
    int n = rawin_next(in, f, MAXF);
    if (n <= 0) {
        if (n == 0)
            rawin_fail(in, "empty input (want a header with '%s')", want[0]);
        return -1;
    }
    if (n > MAXF)
        return rawin_fail(in, "more than %d columns in the header", MAXF), -1;
    for (int k = 0; want[k]; k++) {
        idx[k] = -1;
        for (int i = 0; i < n; i++)
            if (strcmp(f[i], want[k]) == 0)
                idx[k] = i;
        if (idx[k] < 0)
            return rawin_fail(in, "missing column '%s'", want[k]), -1;
    }
    return n;
}

/* The next row with exactly ncols fields: its count, 0 at the end, -1 on error. */
static int row(rawin *in, char **f, int ncols, int *status)
{
    for (;;) {
        int n = rawin_next(in, f, MAXF);
        if (n < 0)
            *status = rawin_status(in);
        else if (n > 0 && n != ncols) {
            *status = rawin_fail(in, "expected %d fields, found %d", ncols, n);
            if (rawin_skip(in)) { /* --on-error skip */
                *status = 0;
                continue;
            }
        }
        return *status ? -1 : n;
    }
}

int gpupods_read_nodes(rawin *in, enum gpupods_unit unit, double *total)
{
    static const char *const want[] = {"cpu_milli", "gpu", NULL};
    char *f[MAXF + 1];
    int idx[2], st = 0;
    int ncols = header(in, want, idx, f);
    if (ncols < 0)
        return SLK_EDATA;
    *total = 0;
    while (row(in, f, ncols, &st) > 0) {
        double cpu_milli, gpu;
        if (rawin_double(in, f[idx[0]], idx[0] + 1, "cpu_milli", &cpu_milli) != 0 ||
            rawin_double(in, f[idx[1]], idx[1] + 1, "gpu", &gpu) != 0 ||
            ((cpu_milli < 0 || gpu < 0 || cpu_milli > 1e12 || gpu > 1e9) &&
             rawin_fail(in, "capacity out of range (cpu_milli '%s', gpu '%s')", f[idx[0]], f[idx[1]]))) {
            if (rawin_skip(in))
                continue; /* --on-error skip */
            return SLK_EDATA;
        }
        *total += unit == GPUPODS_GPU ? gpu : cpu_milli / 1000;
    }
    return st;
}

enum { P_NAME, P_CPU, P_NGPU, P_GPUMILLI, P_SPEC, P_QOS, P_CREATE, P_DELETE, P_SCHED, P_N };

/* one pod row: 0 (added or counted as skipped) or SLK_EDATA */
static int pod(rawin *in, char **f, const int *idx, enum gpupods_unit unit,
               enum gpupods_vc_by by, double epoch, struct vcjobs *t, struct gpupods_stats *st)
{
    static const char *const what[P_N] = {"name", "cpu_milli", "num_gpu", "gpu_milli", "gpu_spec",
                                          "qos", "creation_time", "deletion_time", "scheduled_time"};
    double v[P_N] = {0};
    st->pods++;
    for (int k = P_CPU; k < P_N; k++) {
        if (k == P_SPEC || k == P_QOS)
            continue;
        if (k == P_SCHED && f[idx[k]][0] == 0) {
            st->unscheduled++;
            return 0;
        }
        if (rawin_double(in, f[idx[k]], idx[k] + 1, what[k], &v[k]) != 0)
            return SLK_EDATA;
        if (v[k] < 0 || v[k] > 1e12)
            return rawin_fail(in, "field %d (%s): out of range '%s'", idx[k] + 1, what[k], f[idx[k]]);
    }
    double demand = unit == GPUPODS_GPU ? v[P_NGPU] * v[P_GPUMILLI] / 1000 : v[P_CPU] / 1000;
    if (demand <= 0) {
        st->no_demand++;
        return 0;
    }
    if (rawin_time(in, epoch + v[P_CREATE], f[idx[P_CREATE]], idx[P_CREATE] + 1, "creation_time") != 0)
        return SLK_EDATA;
    if (v[P_SCHED] < v[P_CREATE])
        return rawin_fail(in, "pod '%s' scheduled at %s, before it was created at %s", f[idx[P_NAME]],
                          f[idx[P_SCHED]], f[idx[P_CREATE]]);
    if (v[P_DELETE] <= v[P_SCHED]) {
        st->no_duration++;
        return 0;
    }
    const char *vc = by == GPUPODS_VC_QOS ? f[idx[P_QOS]] : f[idx[P_SPEC]];
    if (!vc[0])
        vc = by == GPUPODS_VC_QOS ? "none" : "any";
    long first = vcjobs_add(t, f[idx[P_NAME]], vc, epoch + v[P_CREATE],
                            demand * (v[P_DELETE] - v[P_SCHED]) / 3600, demand, rawin_line(in));
    if (first)
        return rawin_fail(in, "duplicate pod '%s' (first at line %ld)", f[idx[P_NAME]], first);
    st->jobs++;
    return 0;
}

int gpupods_read(rawin *in, enum gpupods_unit unit, enum gpupods_vc_by by, double epoch,
                 struct vcjobs *t, struct gpupods_stats *st)
{
    static const char *const want[] = {"name", "cpu_milli", "num_gpu", "gpu_milli", "gpu_spec", "qos",
                                       "creation_time", "deletion_time", "scheduled_time", NULL};
    char *f[MAXF + 1];
    int idx[P_N], status = 0;
    *st = (struct gpupods_stats){0};
    int ncols = header(in, want, idx, f);
    if (ncols < 0)
        return SLK_EDATA;
    while (row(in, f, ncols, &status) > 0)
        if (pod(in, f, idx, unit, by, epoch, t, st) != 0 && !rawin_skip(in))
            return SLK_EDATA;
    return status;
}

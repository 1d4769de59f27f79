/* swf — Standard Workload Format logs into stretch jobs (see swf.h). */
#include "import/swf.h"

#include "base/diag.h"
#include "base/parse.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#define SWF_FIELDS 18

/* "; MaxProcs: 1024" and the like; other header lines are kept as comments */
static int header_line(rawin *in, int keep_start, struct swf_stats *st)
{
    const char *p = rawin_text(in);
    p += strspn(p, " \t");
    p++; /* ';' */
    p += strspn(p, " \t");
    static const char *const labels[] = {"MaxProcs:", "MaxNodes:", "UnixStartTime:"};
    for (int k = 0; k < 3; k++) {
        size_t n = strlen(labels[k]);
        if (strncasecmp(p, labels[k], n) != 0)
            continue;
        char val[64];
        const char *v = p + n + strspn(p + n, " \t");
        size_t len = strcspn(v, " \t");
        if (len == 0 || len >= sizeof val)
            return rawin_fail(in, "header %.*s has no value", (int)n - 1, labels[k]);
        memcpy(val, v, len);
        val[len] = 0;
        int64_t x;
        if (parse_int64(val, &x) != 0 || x < 0 || x > 1000000000000LL)
            return rawin_fail(in, "header %.*s: invalid value '%s'", (int)n - 1, labels[k], val);
        if (k == 0)
            st->max_procs = x;
        else if (k == 1)
            st->max_nodes = x;
        else if (!keep_start)
            st->unix_start = (double)x;
    }
    return 0;
}

static const char *const vc_field_name[] = {"user", "group", "queue", "partition"};
static const int vc_field_index[] = {11, 12, 14, 15}; /* 0-based */

static const char *const field_name[SWF_FIELDS] = {
    "job number", "submit time", "wait time", "run time", "allocated processors",
    "average cpu time", "used memory", "requested processors", "requested time",
    "requested memory", "status", "user", "group", "executable", "queue", "partition",
    "preceding job", "think time"};

static int job_line(rawin *in, char **f, enum swf_vc_by by, struct vcjobs *t,
                    struct swf_stats *st)
{
    double v[SWF_FIELDS];
    for (int i = 0; i < SWF_FIELDS; i++)
        if (rawin_double(in, f[i], i + 1, field_name[i], &v[i]) != 0)
            return SLK_EDATA;
    for (int i = 0; i < SWF_FIELDS; i++) /* -1 is "missing"; beyond 1e11 is no real log */
        if (v[i] < -1 || v[i] > 1e11)
            return rawin_fail(in, "field %d (%s): out of range '%s'", i + 1, field_name[i], f[i]);
    if (v[1] < 0)
        return rawin_fail(in, "field 2 (submit time): negative '%s'", f[1]);
    if (rawin_time(in, st->unix_start + v[1], f[1], 2, "submit time") != 0)
        return SLK_EDATA;
    double procs = v[4] > 0 ? v[4] : v[7];
    if (v[3] <= 0 || procs <= 0) {
        st->skipped++;
        return 0;
    }
    /* more than the whole machine: stretch would see a job wider than the
     * capacities written from the header, so the row is refused (skipped
     * and listed under --on-error skip, like any bad row) */
    long size = st->max_procs > 0 ? st->max_procs : st->max_nodes;
    if (size > 0 && procs > (double)size)
        return rawin_fail(in, "job '%s' uses %s processors, more than the log's %s %ld", f[0], f[v[4] > 0 ? 4 : 7],
                          st->max_procs > 0 ? "MaxProcs" : "MaxNodes", size);
    char vc[64];
    const char *id = f[vc_field_index[by]];
    if (strcmp(id, "-1") == 0)
        snprintf(vc, sizeof vc, "none");
    else
        snprintf(vc, sizeof vc, "%s%.40s", vc_field_name[by], id);
    long first = vcjobs_add(t, f[0], vc, st->unix_start + v[1], procs * v[3] / 3600, procs, rawin_line(in));
    if (first)
        return rawin_fail(in, "duplicate job '%s' (first at line %ld)", f[0], first);
    st->jobs++;
    return 0;
}

int swf_read(rawin *in, enum swf_vc_by by, double epoch, struct vcjobs *t, struct swf_stats *st)
{
    int keep_start = epoch == epoch; /* an explicit epoch wins over the header */
    *st = (struct swf_stats){.max_procs = -1, .max_nodes = -1, .unix_start = keep_start ? epoch : 0};
    char *f[SWF_FIELDS + 1];
    int n, in_header = 1;
    while ((n = rawin_next(in, f, SWF_FIELDS)) > 0) {
        if (f[0][0] == ';') {
            if (!in_header)
                continue; /* comments after the jobs carry no header fields */
            if (header_line(in, keep_start, st) != 0)
                return SLK_EDATA;
            continue;
        }
        in_header = 0;
        if ((n > SWF_FIELDS && rawin_fail(in, "expected 18 fields, found more")) ||
            (n < SWF_FIELDS && rawin_fail(in, "expected 18 fields, found %d", n)) ||
            job_line(in, f, by, t, st) != 0) {
            if (rawin_skip(in))
                continue; /* --on-error skip */
            return SLK_EDATA;
        }
    }
    return n < 0 ? rawin_status(in) : 0;
}

/* swim — SWIM workloads into stretch jobs (see swim.h). */
#include "import/swim.h"

#include "base/diag.h"
#include "base/parse.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define SWIM_FIELDS 6
#define MAP_SPLIT_BYTES 134217728.0 /* 128 MiB, one map task's input */

int swim_read(rawin *in, const struct swim_params *p, struct vcjobs *t)
{
    static const char *const what[SWIM_FIELDS] = {"job", "submit", "gap", "input bytes",
                                                  "shuffle bytes", "output bytes"};
    char *f[SWIM_FIELDS + 1], nb[24];
    int n;
    while ((n = rawin_next(in, f, SWIM_FIELDS)) > 0) {
        int64_t num;
        double v[SWIM_FIELDS];
        int bad = 0;
        if (n != SWIM_FIELDS)
            bad = rawin_fail(in, "expected 6 tab-separated fields, found %s",
                             rawin_count(n, SWIM_FIELDS, nb, sizeof nb));
        else if (strncmp(f[0], "job", 3) != 0 || parse_int64(f[0] + 3, &num) != 0 || num < 0)
            bad = rawin_fail(in, "field 1 (job): not jobN: '%.40s'", f[0]);
        for (int i = 1; !bad && i < SWIM_FIELDS; i++) {
            if (rawin_double(in, f[i], i + 1, what[i], &v[i]) != 0)
                bad = SLK_EDATA;
            else if (v[i] < 0 || v[i] > 1e18)
                bad = rawin_fail(in, "field %d (%s): out of range '%s'", i + 1, what[i], f[i]);
        }
        if (!bad)
            bad = rawin_time(in, p->epoch + v[1], f[1], 2, what[1]);
        if (bad) {
            if (rawin_skip(in))
                continue; /* --on-error skip */
            return bad;
        }
        char vc[32];
        snprintf(vc, sizeof vc, "fb%d", (int)(num % p->vcs));
        double size = (1 + (v[3] + v[4] + v[5]) / p->rate) / 3600;
        double par = 0;
        if (p->parallelism) {
            par = ceil(v[3] / MAP_SPLIT_BYTES);
            if (par < 1)
                par = 1;
        }
        long first = vcjobs_add(t, f[0], vc, p->epoch + v[1], size, par, rawin_line(in));
        if (first) {
            rawin_fail(in, "duplicate job '%s' (first at line %ld)", f[0], first);
            if (!rawin_skip(in))
                return SLK_EDATA;
        }
    }
    return n < 0 ? rawin_status(in) : 0;
}

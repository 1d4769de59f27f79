/* refusal — the text of lcmpack's rejected rows (see refusal.h). */
#include "morpheus/refusal.h"
#include "base/diag.h"

#include <stdio.h>
#include <string.h>

long refusal_steps(const struct lowcost_req *q)
{
    return lowcost_need(q);
}

char *refusal_text(const plan *p, const struct lowcost_req *q, const char *why)
{
    long need = refusal_steps(q), lo, hi;
    if (lowcost_window(p, q, &lo, &hi) < 0 || lo + need <= hi)
        return xstrdup(why);
    /* each step added to d adds one whole step to the window */
    double dmin = q->d + (double)(need - (hi - lo)) * (double)p->step;
    char buf[640];
    snprintf(buf, sizeof buf,
             "window [%g, %g] s holds %ld whole steps of %ld s, fewer than the %ld the skyline needs at its "
             "maximum parallelism; fixes: a deadline d of at least %g s (sloinfer --override), a skyline "
             "of fewer or more recent runs (skyfit --last N, a lower --outlier-k: it is as long as the "
             "longest run kept, see longest_run in skyfit --stats), or more containers at once",
             q->a, q->d, hi - lo, p->step, need, dmin);
    return xstrdup(buf);
}

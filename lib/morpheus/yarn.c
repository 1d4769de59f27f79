/* yarn — YARN ReservationSystem REST bodies of a plan (see yarn.h). */
#include "morpheus/yarn.h"
#include "base/diag.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void yarn_json_str(FILE *fp, const char *s)
{
    fputc('"', fp);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(fp, "\\%c", c);
        else if (c < 0x20)
            fprintf(fp, "\\u%04x", c);
        else
            fputc(c, fp);
    }
    fputc('"', fp);
}

/* write_requests: the reservation-requests object of r: runs of equal
 * containers as consecutive items. */
static void write_requests(const plan *p, const struct plan_res *r, FILE *fp)
{
    fprintf(fp, ",\"reservation-requests\":{\"reservation-request-interpreter\":3,\"reservation-request\":[");
    long long vc = (long long)ceil(r->cores - 1e-9), mem = (long long)ceil(r->mem_mb - 1e-9);
    for (long j = 0; j < r->len;) {
        long e = j + 1;
        while (e < r->len && r->containers[e] == r->containers[j])
            e++;
        fprintf(fp, "%s{\"duration\":%lld,\"num-containers\":%d,\"min-concurrency\":%d,"
                    "\"capability\":{\"memory\":%lld,\"vCores\":%lld}}",
                j ? "," : "", (long long)(e - j) * p->step * 1000, (int)r->containers[j], (int)r->containers[j],
                mem, vc);
        j = e;
    }
    fprintf(fp, "]}");
}

/* write_name: the reservation-name: the job, "job#instance" for a once one. */
static void write_name(const struct plan_res *r, FILE *fp)
{
    if (r->kind != PLAN_ONCE) {
        yarn_json_str(fp, r->job);
        return;
    }
    size_t nlen = strlen(r->job) + 32;
    char *nm = xmalloc(nlen);
    snprintf(nm, nlen, "%s#%lld", r->job, (long long)r->instance);
    yarn_json_str(fp, nm);
    free(nm);
}

int yarn_write_plan(const plan *p, FILE *fp, const struct yarn_opts *o)
{
    for (size_t k = 0; k < p->nres; k++) {
        const struct plan_res *r = &p->res[k];
        if (r->removed)
            continue;
        double base = r->kind == PLAN_PERIODIC ? o->at : (double)r->cycle * (double)p->lcm;
        long long arr = llround((base + (double)r->start * p->step) * 1000);
        long long dl = arr + (long long)r->len * p->step * 1000;
        fprintf(fp, "{\"queue\":");
        yarn_json_str(fp, o->queue);
        fprintf(fp, ",\"reservation-definition\":{\"arrival\":%lld,\"deadline\":%lld,\"reservation-name\":", arr, dl);
        write_name(r, fp);
        if (r->kind == PLAN_PERIODIC)
            fprintf(fp, ",\"recurrence-expression\":\"%lld\"", llround(r->period * 1000));
        write_requests(p, r, fp);
        fprintf(fp, "}}\n");
    }
    return ferror(fp) ? -1 : 0;
}

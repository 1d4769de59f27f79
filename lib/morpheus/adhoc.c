/* adhoc — non-periodic reservation requests (see adhoc.h). */
#include "morpheus/adhoc.h"
#include "base/csvio.h"
#include "base/diag.h"
#include "base/keyset.h"
#include "morpheus/stages.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const adhoc_keys[] = {"job", "arrival", "deadline", "containers", "duration", "cores", "mem_mb", NULL};

/* read_row: the current row into *a.  0 or -1 (printed). */
static int read_row(csvr *r, const int *c, double lcm, struct adhoc *a)
{
    const char *job = csvr_field_required(r, c[0], "job");
    if (!job)
        return -1;
    double cont = 0;
    int hc, hd;
    if (csvr_get_time(r, c[1], &a->arrival, CSVR_REQUIRED) < 0 ||
        csvr_get_time(r, c[2], &a->deadline, CSVR_REQUIRED) < 0 ||
        (hc = c[3] < 0 ? 0 : csvr_get_double(r, c[3], &cont, CSVR_POSITIVE | CSVR_BOUNDED)) < 0 ||
        (hd = c[4] < 0 ? 0 : csvr_get_duration(r, c[4], &a->duration, CSVR_POSITIVE)) < 0)
        return -1;
    if (hc != hd)
        return csvr_fail(r, "job '%s': column '%s' without column '%s' (both: the area form; neither: the "
                            "skyline form, --adhoc-skyline)", job, hc ? "containers" : "duration",
                         hc ? "duration" : "containers");
    if (c[5] >= 0) { /* both columns; both cells empty: the default container */
        double cores = 0, mem = 0;
        int hco, hme;
        if ((hco = csvr_get_double(r, c[5], &cores, CSVR_NONNEG | CSVR_BOUNDED)) < 0 ||
            (hme = csvr_get_double(r, c[6], &mem, CSVR_NONNEG | CSVR_BOUNDED)) < 0)
            return -1;
        if (hco != hme)
            return csvr_fail(r,
                             "job '%s': column '%s' empty but not column '%s' (both: the container; neither: "
                             "the default, --container)",
                             job, hco ? "mem_mb" : "cores", hco ? "cores" : "mem_mb");
        if (hco) {
            a->cores = cores;
            a->mem_mb = mem;
        }
    }
    if (cont != floor(cont) || cont > 1e8)
        return csvr_fail(r, "column 'containers': '%g' is not a whole number of containers (at most 1e8)", cont);
    if (a->cores == 0 && a->mem_mb == 0)
        return csvr_fail(r, "container of 0 cores and 0 MB");
    if (!(a->deadline > a->arrival))
        return csvr_fail(r, "job '%s': deadline %.17g is not after the arrival %.17g", job, a->deadline, a->arrival);
    if (a->deadline - a->arrival > lcm)
        return csvr_fail(r, "job '%s': window of %g s is longer than the plan's cycle (%g s)", job,
                         a->deadline - a->arrival, lcm);
    a->containers = (int64_t)cont;
    a->job = xstrdup(job);
    a->line = csvr_line(r);
    return 0;
}

int adhoc_read(const char *path, const struct csv_dialect *d, double cores, double mem_mb, double lcm,
               struct adhoc **out, size_t *n)
{
    *out = NULL;
    *n = 0;
    int st;
    csvr *r = csvr_open_with(path, d, 0, &st);
    if (!r)
        return st;
    int c[7] = {-1, -1, -1, csvr_col(r, "containers"), csvr_col(r, "duration"), csvr_col(r, "cores"),
                csvr_col(r, "mem_mb")};
    if (csvr_require_cols(r, "job", &c[0], "arrival", &c[1], "deadline", &c[2], (char *)NULL) < 0) {
        st = csvr_status(r);
        csvr_close(r);
        return st ? st : SLK_EDATA;
    }
    if ((c[5] >= 0) != (c[6] >= 0)) {
        slk_error_at(csvr_path(r), 1, "column '%s' without column '%s' (give both or neither)",
                     c[5] >= 0 ? "cores" : "mem_mb", c[5] >= 0 ? "mem_mb" : "cores");
        csvr_close(r);
        return SLK_EDATA;
    }
    size_t cap = 0;
    keyset *ids = keyset_new(); /* job and cycle: one request each */
    while (csvr_next(r) > 0) {
        struct adhoc a = {.cores = cores, .mem_mb = mem_mb};
        if (read_row(r, c, lcm, &a) < 0) {
            if (csvr_skip(r)) /* --on-error skip: the row to the rejects */
                continue;
            break;
        }
        long first;
        char *k = plan_res_key(a.job, PLAN_ONCE, adhoc_instance(&a, lcm));
        long row = keyset_put(ids, k, a.line, &first);
        free(k);
        if (row < 0) { /* the first request kept, as keytab's rule */
            csvr_fail(
                r,
                "job '%s': a second request in the cycle of line %ld (one ad-hoc request per job and "
                "cycle of %g s: it is the reservation job#cycle; give the requests their own job names)",
                a.job, first, lcm);
            free(a.job);
            if (csvr_skip(r))
                continue;
            break;
        }
        *out = xgrow(*out, &cap, *n + 1, sizeof **out);
        (*out)[(*n)++] = a;
    }
    keyset_free(ids);
    st = csvr_status(r);
    csvr_close(r);
    return st;
}

int adhoc_attach(struct adhoc *a, size_t n, const struct stages_job *jobs, size_t nj, const char *path)
{
    keyset *names = keyset_new(); /* row = index in jobs (stages_read: each job once) */
    for (size_t k = 0; k < nj; k++)
        keyset_put(names, jobs[k].job, 0, NULL);
    for (size_t i = 0; i < n; i++) {
        if (a[i].containers > 0)
            continue;
        long k = keyset_row(names, a[i].job);
        const struct stages_job *j = k >= 0 ? &jobs[k] : NULL;
        if (!j || j->nst == 0) {
            slk_error_at(path, a[i].line, "job '%s': no containers and duration, and %s in --adhoc-skyline",
                         a[i].job, j ? "its skyline has no demand" : "no skyline");
            keyset_free(names);
            return SLK_EDATA;
        }
        a[i].st = j->st;
        a[i].nst = j->nst;
        a[i].cores = j->cores;
        a[i].mem_mb = j->mem_mb;
    }
    keyset_free(names);
    return SLK_OK;
}

int64_t adhoc_instance(const struct adhoc *a, double lcm) { return (int64_t)floor(a->arrival / lcm); }

void adhoc_request(const plan *p, struct adhoc *a, double at, struct lowcost_req *q)
{
    double lcm = (double)p->lcm;
    int64_t n = adhoc_instance(a, lcm);
    double from = a->arrival < at ? at : a->arrival;
    *q = (struct lowcost_req){.job = a->job,
                              .kind = PLAN_ONCE,
                              .instance = n,
                              .cycle = (int64_t)floor(from / lcm),
                              .period = lcm,
                              .a = from - (double)n * lcm,
                              .d = a->deadline - (double)n * lcm,
                              .cores = a->cores,
                              .mem_mb = a->mem_mb,
                              .nstages = a->nst,
                              .stage = a->st};
    if (a->containers > 0) {
        double steps = ceil(a->duration / (double)p->step - 1e-9);
        if (steps < 1)
            steps = 1; /* a positive duration under 1e-9 steps still needs a step */
        if (steps > (double)p->nsteps + 1)
            steps = (double)p->nsteps + 1; /* longer than the cycle: rejected (refusal.h) */
        a->stage = (struct lowcost_stage){.demand = a->containers * (int64_t)steps,
                                          .maxpar = (int32_t)a->containers, .gang = 1};
        q->nstages = 1;
        q->stage = &a->stage;
    }
}

void adhoc_free(struct adhoc *a, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(a[i].job);
    free(a);
}

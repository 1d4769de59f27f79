/* vcio — stretch's file formats (see vcio.h). */
#include "vc/vcio.h"

#include "base/diag.h"
#include "base/keyset.h"
#include "base/keytab.h"
#include "base/rng.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DAY 86400.0

/* ---- VCs ---- */

long vcio_vcs_find(const struct vcio_vcs *v, const char *name)
{
    size_t mask = v->nslot - 1;
    for (size_t h = rng_hash_str(name) & mask;; h = (h + 1) & mask) {
        uint32_t s = v->slot[h];
        if (!s)
            return -1;
        if (strcmp(v->name[s - 1], name) == 0)
            return (long)s - 1;
    }
}

static void vcs_index(struct vcio_vcs *v)
{
    v->nslot = 16;
    while (v->nslot < 2 * v->n)
        v->nslot *= 2;
    v->slot = xcalloc(v->nslot, sizeof *v->slot);
    size_t mask = v->nslot - 1;
    for (size_t i = 0; i < v->n; i++) {
        size_t h = rng_hash_str(v->name[i]) & mask;
        while (v->slot[h])
            h = (h + 1) & mask;
        v->slot[h] = (uint32_t)(i + 1);
    }
}

int vcio_vcs_read(const char *path, const struct csv_dialect *d, struct vcio_vcs *v)
{
    int st;
    csvr *r = csvr_open_with(path, d, 0, &st);
    if (!r)
        return st;
    int cvc = csvr_require(r, "vc"), ccap = csvr_require(r, "capacity");
    if (cvc < 0 || ccap < 0) {
        csvr_close(r);
        return SLK_EDATA;
    }
    keyset *seen = keyset_new();
    int rc;
    while ((rc = csvr_next(r)) == 1) {
        double cap;
        if (csvr_get_double(r, ccap, &cap, CSVR_REQUIRED | CSVR_POSITIVE | CSVR_BOUNDED) < 0)
            break;
        const char *name = keytab_row(seen, r, cvc);
        if (!name)
            break;
        v->name = xgrow(v->name, &v->capn, v->n + 1, sizeof *v->name);
        v->cap = xreallocarray(v->cap, v->capn, sizeof *v->cap);
        v->name[v->n] = xstrdup(name);
        v->cap[v->n++] = cap;
    }
    keyset_free(seen);
    st = csvr_status(r);
    if (st == SLK_OK && v->n == 0) {
        slk_error_at(csvr_path(r), 0, "no VCs");
        st = SLK_EDATA;
    }
    if (st == SLK_OK && v->n > 1000000) {
        slk_error_at(csvr_path(r), 0, "too many VCs (%zu; at most 1000000)", v->n);
        st = SLK_EDATA;
    }
    csvr_close(r);
    if (st == SLK_OK)
        vcs_index(v);
    return st;
}

/* ---- jobs ---- */

int vcio_jobs_read(const char *path, const struct csv_dialect *d, const struct vcio_vcs *V, const char *cap_name,
                   long long max_jobs, struct vcio_jobs *J)
{
    int st;
    csvr *r = csvr_open_with(path, d, 0, &st);
    if (!r)
        return st;
    int cjob = csvr_require(r, "job"), cvc = csvr_require(r, "vc"), csub = csvr_require(r, "submit"),
        csize = csvr_require(r, "size_server_hours"), cpar = csvr_col(r, "max_parallelism");
    if (cjob < 0 || cvc < 0 || csub < 0 || csize < 0) {
        csvr_close(r);
        return SLK_EDATA;
    }
    keyset *seen = keyset_new();
    size_t idcap = 0;
    int rc;
    while ((rc = csvr_next(r)) == 1) {
        const char *job = csvr_field(r, cjob), *vc = csvr_field(r, cvc);
        double submit, size, par = INFINITY;
        if (!job) {
            csvr_fail(r, "column 'job': missing value");
            break;
        }
        if (!vc) {
            csvr_fail(r, "column 'vc': missing value");
            break;
        }
        long k = vcio_vcs_find(V, vc);
        if (k < 0) {
            csvr_fail(r, "unknown vc '%s' (not in %s)", vc, cap_name);
            break;
        }
        if (csvr_get_time(r, csub, &submit, CSVR_REQUIRED) < 0 ||
            csvr_get_double(r, csize, &size, CSVR_REQUIRED | CSVR_POSITIVE) < 0 ||
            (cpar >= 0 && csvr_get_double(r, cpar, &par, CSVR_POSITIVE) < 0))
            break;
        if (size > 1e15) {
            csvr_fail(r, "column 'size_server_hours': '%s' is too large", csvr_field(r, csize));
            break;
        }
        if (fabs(submit) > 1e12) {
            csvr_fail(r, "column 'submit': '%s' is out of range", csvr_field(r, csub));
            break;
        }
        if (!keytab_row(seen, r, cjob))
            break;
        if ((long long)J->n >= max_jobs) {
            csvr_fail(r, "more than %lld jobs (--max-jobs)", max_jobs);
            break;
        }
        J->j = xgrow(J->j, &J->capn, J->n + 1, sizeof *J->j);
        J->id = xgrow(J->id, &idcap, J->n + 1, sizeof *J->id);
        size_t len = strlen(job) + 1;
        J->ids = xgrow(J->ids, &J->ids_cap, J->ids_len + len, 1);
        memcpy(J->ids + J->ids_len, job, len);
        J->id[J->n] = J->ids_len;
        J->ids_len += len;
        J->j[J->n++] = (struct vcsim_job){.vc = (uint32_t)k, .submit = submit, .work = size * 3600, .maxpar = par};
    }
    keyset_free(seen);
    st = csvr_status(r);
    csvr_close(r);
    return st;
}

void vcio_vcs_free(struct vcio_vcs *V)
{
    for (size_t k = 0; k < V->n; k++)
        free(V->name[k]);
    free(V->name);
    free(V->cap);
    free(V->slot);
}

void vcio_jobs_free(struct vcio_jobs *J)
{
    free(J->j);
    free(J->id);
    free(J->ids);
}

/* ---- reports ---- */

int vcio_write_jobs(csvw *w, const struct vcio_jobs *J, const struct vcio_vcs *V)
{
    static const char *const hdr[] = {"job", "vc", "submit", "finish", "stretch", NULL};
    csvw_header(w, hdr);
    for (size_t i = 0; i < J->n; i++) {
        const struct vcsim_job *j = &J->j[i];
        csvw_str(w, J->ids + J->id[i]);
        csvw_str(w, V->name[j->vc]);
        csvw_num(w, j->submit);
        csvw_num(w, j->finish);
        csvw_num(w, vcrep_stretch(j, V->cap[j->vc]));
        csvw_end(w);
    }
    return csvw_error(w) ? SLK_EIO : SLK_OK;
}

int vcio_write_vcs(csvw *w, const void *p)
{
    const struct vcio_report *c = p;
    static const char *const hdr[] = {"vc", "capacity", "jobs", "work_server_hours", "load_factor",
                                      "mean_stretch", "median_stretch", "p95_stretch", "overdemand_share",
                                      "used_server_hours", "borrowed_server_hours", "credit_end_server_hours",
                                      NULL};
    csvw_header(w, hdr);
    for (size_t k = 0; k < c->V->n; k++) {
        csvw_str(w, c->V->name[k]);
        csvw_num(w, c->V->cap[k]);
        csvw_int(w, (int64_t)c->rep[k].jobs);
        csvw_num(w, c->rep[k].work / 3600);
        csvw_num(w, c->rep[k].load);
        csvw_num(w, c->rep[k].mean);
        csvw_num(w, c->rep[k].median);
        csvw_num(w, c->rep[k].p95);
        csvw_num(w, c->vst[k].overdemand / c->h);
        csvw_num(w, c->vst[k].used / 3600);
        csvw_num(w, c->vst[k].borrowed / 3600);
        csvw_num(w, c->vst[k].credit_end / 3600);
        csvw_end(w);
    }
    return csvw_error(w) ? SLK_EIO : SLK_OK;
}

/* Per (vc, UTC day) of submission: jobs, load (their work / capacity-day)
 * and mean stretch.  Sorted by VC (input order), then day. */
static int cmp_vc_day(const void *x, const void *y, void *ctx)
{
    const struct vcsim_job *J = ctx;
    const struct vcsim_job *a = &J[*(const uint32_t *)x], *b = &J[*(const uint32_t *)y];
    if (a->vc != b->vc)
        return a->vc < b->vc ? -1 : 1;
    double da = floor(a->submit / DAY), db = floor(b->submit / DAY);
    return (da > db) - (da < db);
}

int vcio_write_daily(csvw *w, const void *p)
{
    const struct vcio_report *c = p;
    static const char *const hdr[] = {"vc", "day", "jobs", "load", "mean_stretch", NULL};
    csvw_header(w, hdr);
    size_t n = 0;
    uint32_t *idx = xmalloc((c->J->n ? c->J->n : 1) * sizeof *idx);
    for (size_t i = 0; i < c->J->n; i++)
        if (vcrep_in_window(c->J->j[i].submit, c->w0, c->h))
            idx[n++] = (uint32_t)i;
    qsort_r(idx, n, sizeof *idx, cmp_vc_day, (void *)c->J->j);
    for (size_t i = 0; i < n;) {
        const struct vcsim_job *first = &c->J->j[idx[i]];
        double day = floor(first->submit / DAY), cap = c->V->cap[first->vc], work = 0, ssum = 0;
        size_t e = i;
        while (e < n && c->J->j[idx[e]].vc == first->vc && floor(c->J->j[idx[e]].submit / DAY) == day) {
            work += c->J->j[idx[e]].work;
            ssum += vcrep_stretch(&c->J->j[idx[e]], cap);
            e++;
        }
        csvw_str(w, c->V->name[first->vc]);
        csvw_num(w, day * DAY);
        csvw_int(w, (int64_t)(e - i));
        csvw_num(w, work / (cap * DAY));
        csvw_num(w, ssum / (double)(e - i));
        csvw_end(w);
        i = e;
    }
    free(idx);
    return csvw_error(w) ? SLK_EIO : SLK_OK;
}

int vcio_write_summary(csvw *w, const void *p)
{
    const struct vcio_summary *s = p;
    static const char *const hdr[] = {"metric", "value", NULL};
    csvw_header(w, hdr);
#define ROWS(name, str) do { csvw_str(w, name); csvw_str(w, str); csvw_end(w); } while (0)
#define ROWN(name, v) do { csvw_str(w, name); csvw_num(w, v); csvw_end(w); } while (0)
    ROWS("scheduler", s->scheduler);
    ROWN("vcs", (double)s->vcs);
    ROWN("jobs", (double)s->jobs);
    ROWN("owned_servers", s->owned);
    ROWN("servers", s->servers);
    ROWN("start", s->start);
    ROWN("horizon_s", s->horizon);
    ROWN("utilization", s->utilization);
    ROWN("contended_share", s->contended);
    ROWN("makespan_s", s->makespan);
    ROWN("mean_stretch", s->mean_stretch);
    ROWN("parallelism_floor_stretch", s->floor_stretch);
    ROWN("consistency", s->spread);
    ROWN("work_server_hours", s->work_h);
    ROWN("used_server_hours", s->used_h);
    ROWN("events_per_job", s->events_per_job);
    for (int b = 0; b < s->nbins; b++) {
        char name[96];
        snprintf(name, sizeof name, "spread_load_%g_%g", s->bins[b].lo, s->bins[b].hi);
        ROWN(name, s->bins[b].n >= 2 ? s->bins[b].max / s->bins[b].min : NAN);
    }
#undef ROWS
#undef ROWN
    return csvw_error(w) ? SLK_EIO : SLK_OK;
}

void vcio_summarize(const struct vcio_vcs *V, const struct vcio_jobs *J, const struct vcrep_vc *rep,
                    const struct vcsim_vc_stats *vst, const struct vcsim_totals *tot, double w0, double h,
                    const struct vcio_summary_opts *o, struct vcio_summary *sum)
{
    double work = 0, used = 0, owned = 0, used_w = 0, ssum = 0, fsum = 0;
    for (size_t k = 0; k < V->n; k++) {
        used += vst[k].used;
        used_w += vst[k].used_window;
        owned += V->cap[k];
    }
    for (size_t i = 0; i < J->n; i++) {
        work += J->j[i].work;
        ssum += vcrep_stretch(&J->j[i], V->cap[J->j[i].vc]);
        fsum += vcrep_floor(&J->j[i], V->cap[J->j[i].vc], owned + o->system_servers);
    }
    *sum = (struct vcio_summary){.scheduler = vcsim_policy_name(o->policy), .vcs = V->n, .jobs = J->n,
                            .owned = owned, .servers = owned + o->system_servers, .horizon = h, .start = w0,
                            .work_h = work / 3600, .used_h = used / 3600};
    sum->utilization = used_w / (sum->servers * h);
    sum->contended = tot->contended / h;
    sum->makespan = J->n ? tot->end - tot->start : 0;
    sum->mean_stretch = J->n ? ssum / (double)J->n : NAN;
    sum->floor_stretch = J->n ? fsum / (double)J->n : NAN;
    sum->spread = vcrep_consistency(rep, V->n, o->bins, o->nbins, sum->bins, &sum->nbins);
    sum->events_per_job = J->n ? (double)tot->events / (double)J->n : 0;
}


/* packout — lcmpack's outputs and the summary's bound (see packrun.h). */
#include "morpheus/packrun.h"
#include "base/diag.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* save_plan: write the whole plan to path (atomically) and, unless
 * --no-index, its index next to it (regular files only). */
static int save_plan(const plan *p, const char *path, int no_index)
{
    struct plan_mark m;
    int st = plan_save(p, path, &m);
    if (st == SLK_OK && !no_index)
        st = planidx_save(NULL, p, path, &m);
    return st;
}

static int write_load(const plan *p, const char *path, const struct csv_dialect *csv)
{
    int st;
    outf *ol = outf_open(path, &st);
    if (!ol)
        return st;
    csvw *w = csvw_new_with(outf_fp(ol), csv);
    plan_write_load(p, w);
    csvw_free(w);
    return outf_finish(ol, st);
}

/* write_query: --query: what the plan allocates at that time, per job. */
static int write_query(const plan *p, double T, const char *path, const struct csv_dialect *csv)
{
    int st;
    outf *o = outf_open(path, &st);
    if (!o)
        return st;
    csvw *w = csvw_new_with(outf_fp(o), csv);
    static const char *const qcols[] = {"job", "containers", "cores", "mem_mb", NULL};
    csvw_header(w, qcols);
    keyset *seen = keyset_new();
    for (size_t k = 0; k < p->nres; k++) {
        const struct plan_res *r = &p->res[k];
        int64_t nc;
        double qc, qm;
        if (r->removed || !keyset_add(seen, r->job))
            continue;
        if (plan_alloc_at(p, r->job, T, &nc, &qc, &qm) > 0 && nc > 0) {
            csvw_str(w, r->job);
            csvw_int(w, nc);
            csvw_num(w, qc);
            csvw_num(w, qm);
            csvw_end(w);
        }
    }
    keyset_free(seen);
    int werr = csvw_error(w);
    csvw_free(w);
    return outf_finish(o, werr ? SLK_EIO : SLK_OK);
}

static int write_yarn(const struct packrun *R)
{
    int st;
    outf *o = outf_open(R->o->output, &st);
    if (!o)
        return st;
    /* the same ids as the delta's (--cluster-timestamp), or the bodies and
     * the delta name two different reservations */
    struct yarn_opts yo = {
        .queue = R->o->queue, .at = R->o->at, .now = R->o->now, .cluster_ts = R->o->cluster_ts};
    return outf_finish(o, yarn_write_plan(R->p, outf_fp(o), &yo) < 0 ? SLK_EIO : SLK_OK);
}

/* write_in_place: the new reservations as one more segment of the file. */
static int write_in_place(struct packrun *R)
{
    if (!R->p->nres) {
        R->how = " (from the index: plan file unchanged)";
        return SLK_OK;
    }
    struct plan_mark m;
    int st = plan_append(R->p, R->o->output, &R->idx->mark, &m);
    if (st == SLK_OK) {
        R->how = " (appended in place)";
        st = planidx_save(R->idx, R->p, R->o->output, &m);
    }
    return st;
}

/* write_delta: --yarn-delta DIR: submit, update and delete bodies, each
 * file replaced atomically. */
static int write_delta(struct packrun *R)
{
    const struct packrun_opts *o = R->o;
    if (mkdir(o->yarn_delta, 0777) != 0 && errno != EEXIST) {
        slk_error("%s: cannot create: %s", o->yarn_delta, strerror(errno));
        return SLK_ECANTCREAT;
    }
    static const char *const names[3] = {"submit.jsonl", "update.jsonl", "delete.jsonl"};
    outf *f[3] = {NULL, NULL, NULL};
    int st = SLK_OK;
    for (int i = 0; i < 3 && st == SLK_OK; i++) {
        size_t n = strlen(o->yarn_delta) + 32;
        char *path = xmalloc(n);
        snprintf(path, n, "%s/%s", o->yarn_delta, names[i]);
        f[i] = outf_open(path, &st);
        free(path);
    }
    if (st == SLK_OK) {
        struct yarn_opts yo = {.queue = o->queue, .at = o->at, .now = o->now, .cluster_ts = o->cluster_ts};
        if (yarn_write_delta(R->p, &R->snap, &yo, outf_fp(f[0]), outf_fp(f[1]), outf_fp(f[2]), &R->delta) < 0)
            st = SLK_EIO;
    }
    for (int i = 0; i < 3; i++)
        if (f[i])
            st = outf_finish(f[i], st);
    return st;
}

int packout_write(struct packrun *R)
{
    const struct packrun_opts *o = R->o;
    int st = SLK_OK;
    /* every report row is written by now: flush them before any output is
     * committed, so that a report that cannot be written (a full disk)
     * leaves the old plan in place, as a failed --load does (the report is
     * committed last, by packrun_close_report) */
    if (R->orep && fflush(outf_fp(R->orep)) != 0)
        return SLK_EIO;
    if (o->load_out)
        st = write_load(R->p, o->load_out, o->csv);
    if (st == SLK_OK && o->plan_out)
        st = save_plan(R->p, o->plan_out, o->no_index);
    if (st == SLK_OK && o->yarn_delta)
        st = write_delta(R);
    if (st != SLK_OK)
        return st;
    if (o->have_query)
        return write_query(R->p, o->query, o->output, o->csv);
    if (o->yarn)
        return write_yarn(R);
    if (R->idx)
        return write_in_place(R);
    return save_plan(R->p, o->output, o->no_index);
}

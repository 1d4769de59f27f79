/* packout — lcmpack's outputs and the summary's bound (see packrun.h). */
#include "morpheus/packrun.h"
#include "base/diag.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* index_warn: write the index of the plan just written at path (unless
 * --no-index).  The index is a cache (a missing or stale one is ignored and
 * the plan read whole), so a failure is a warning once the plan is in place:
 * the run's outputs are all written and it still exits 0. */
static void index_warn(const planidx *old, const plan *p, const char *path, const struct plan_mark *m,
                       int no_index)
{
    if (!no_index && planidx_save(old, p, path, m) != SLK_OK)
        slk_warn_at(path, 0, "the plan is written, its index is not (the next run reads the plan whole)");
}

/* open_load: --load written into *out, left for the caller to commit. */
static int open_load(const plan *p, const char *path, const struct csv_dialect *csv, outf **out)
{
    int st;
    if (!(*out = outf_open(path, &st)))
        return st;
    csvw *w = csvw_new_with(outf_fp(*out), csv);
    plan_write_load(p, w);
    csvw_free(w);
    return SLK_OK;
}

/* open_query: --query: what the plan allocates at that time, per job, into
 * *out (committed by the caller). */
static int open_query(const plan *p, double T, const char *path, const struct csv_dialect *csv, outf **out)
{
    int st;
    if (!(*out = outf_open(path, &st)))
        return st;
    csvw *w = csvw_new_with(outf_fp(*out), csv);
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
    csvw_free(w);
    return SLK_OK;
}

/* open_yarn: --format yarn bodies into *out (committed by the caller). */
static int open_yarn(const struct packrun *R, outf **out)
{
    int st;
    if (!(*out = outf_open(R->o->output, &st)))
        return st;
    /* the same ids as the delta's (--cluster-timestamp), or the bodies and
     * the delta name two different reservations */
    struct yarn_opts yo = {
        .queue = R->o->queue, .at = R->o->at, .now = R->o->now, .cluster_ts = R->o->cluster_ts};
    return yarn_write_plan(R->p, outf_fp(*out), &yo) < 0 ? SLK_EIO : SLK_OK;
}

char *packout_delta_path(const char *dir, int i)
{
    static const char *const names[3] = {"submit.jsonl", "update.jsonl", "delete.jsonl"};
    size_t n = strlen(dir) + 32;
    char *path = xmalloc(n);
    snprintf(path, n, "%s/%s", dir, names[i]);
    return path;
}

/* open_delta: --yarn-delta DIR: the submit, update and delete bodies into
 * f[0..2] (committed by the caller). */
static int open_delta(struct packrun *R, outf **f)
{
    const struct packrun_opts *o = R->o;
    if (mkdir(o->yarn_delta, 0777) != 0 && errno != EEXIST) {
        slk_error("%s: cannot create: %s", o->yarn_delta, strerror(errno));
        return SLK_ECANTCREAT;
    }
    int st = SLK_OK;
    for (int i = 0; i < 3 && st == SLK_OK; i++) {
        char *path = packout_delta_path(o->yarn_delta, i);
        f[i] = outf_open(path, &st);
        free(path);
    }
    if (st != SLK_OK)
        return st;
    struct yarn_opts yo = {.queue = o->queue, .at = o->at, .now = o->now, .cluster_ts = o->cluster_ts};
    return yarn_write_delta(R->p, &R->snap, &yo, outf_fp(f[0]), outf_fp(f[1]), outf_fp(f[2]), &R->delta) < 0
               ? SLK_EIO
               : SLK_OK;
}

/* append_in_place: the new reservations as one more segment of the plan
 * file; *m where it now ends (appended is set when it was). */
static int append_in_place(struct packrun *R, struct plan_mark *m, int *appended)
{
    *appended = 0;
    /* written in place, not opened as an output: another output naming the
     * plan (--load ./p.csv) was refused before the run (cli_outputs) */
    if (!R->p->nres) {
        R->how = " (from the index: plan file unchanged)";
        return SLK_OK;
    }
    int st = plan_append(R->p, R->o->output, &R->idx->mark, m);
    if (st == SLK_OK) {
        R->how = " (appended in place)";
        *appended = 1;
    }
    return st;
}

int packout_write(struct packrun *R)
{
    const struct packrun_opts *o = R->o;
    /* Every output of the run is replaced, or none: --load, --plan-out, the
     * YARN delta, -o and --report are written aside, made ready, and renamed
     * together (outf_finish_all); an in-place append, which cannot be taken
     * back, goes last before the renames.  (The delta was committed before
     * a plan that then failed: a delta for a plan never written.)  The
     * report's rows are all written by now. */
    /* in rename order: should a rename fail after others succeeded (it
     * cannot be undone), the plan is in place and the YARN delta is not */
    outf *v[8] = {NULL};
    int n = 0, st = SLK_OK, main_plan = !o->have_query && !o->yarn && !R->idx, appended = 0;
    struct plan_mark mo, mm, ma;
    if (o->have_query)
        st = open_query(R->p, o->query, o->output, o->csv, &v[n++]);
    else if (o->yarn)
        st = open_yarn(R, &v[n++]);
    else if (main_plan)
        st = plan_save_open(R->p, o->output, &mm, &v[n++]);
    if (st == SLK_OK && o->plan_out)
        st = plan_save_open(R->p, o->plan_out, &mo, &v[n++]);
    if (st == SLK_OK && o->load_out)
        st = open_load(R->p, o->load_out, o->csv, &v[n++]);
    if (R->orep) {
        csvw_free(R->rep);
        R->rep = NULL;
        v[n++] = R->orep;
        R->orep = NULL;
    }
    if (st == SLK_OK && o->yarn_delta) {
        st = open_delta(R, &v[n]);
        n += 3;
    }
    for (int i = 0; i < n && st == SLK_OK; i++)
        if (v[i])
            st = outf_ready(v[i]);
    if (st == SLK_OK && R->idx)
        st = append_in_place(R, &ma, &appended);
    if ((st = outf_finish_all(v, n, st)) != SLK_OK)
        return st;
    if (o->plan_out)
        index_warn(NULL, R->p, o->plan_out, &mo, o->no_index);
    if (main_plan)
        index_warn(NULL, R->p, o->output, &mm, o->no_index);
    if (appended)
        index_warn(R->idx, R->p, o->output, &ma, 0);
    return SLK_OK;
}

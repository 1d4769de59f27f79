/* memio — peakgate's file formats (see memio.h). */
#include "memory/memio.h"

#include "base/diag.h"
#include "base/group.h"
#include "base/keyset.h"
#include "base/keytab.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const memio_alloc_keys[] = {"task", "alloc_mb", NULL};
const char *const memio_sample_keys[] = {"task", "t", "mem_mb", "alloc_mb", NULL};
const char *const memio_profile_keys[] = {"task", "normal_mb", "peak_mb", NULL};

/* ---- allocation table ---- */

static int cmp_alloc(const void *a, const void *b)
{
    return strcmp(((const struct memio_alloc *)a)->task, ((const struct memio_alloc *)b)->task);
}

int memio_allocs_load(const char *path, const struct csv_dialect *d, struct memio_allocs *A)
{
    int st;
    csvr *r = csvr_open_with(path, d, 0, &st);
    if (!r)
        return st;
    int ct, ca;
    if (csvr_require_cols(r, "task", &ct, "alloc_mb", &ca, (char *)NULL) < 0) {
        csvr_close(r);
        return SLK_EDATA;
    }
    size_t cap = 0;
    keyset *seen = keyset_new();
    while (csvr_next(r) > 0) {
        const char *task = csvr_field_required(r, ct, "task");
        double mb;
        if (!task) {
            if (csvr_skip(r))
                continue;
            break;
        }
        if (csvr_get_double(r, ca, &mb, CSVR_REQUIRED | CSVR_POSITIVE | CSVR_BOUNDED) < 0) {
            if (csvr_skip(r))
                continue;
            break;
        }
        if (!keytab_row(seen, r, ct)) {
            if (csvr_skip(r))
                continue;
            break;
        }
        A->e = xgrow(A->e, &cap, A->n + 1, sizeof *A->e);
        A->e[A->n].task = xstrdup(task);
        A->e[A->n++].mb = mb;
    }
    keyset_free(seen);
    st = csvr_status(r);
    csvr_close(r);
    if (A->n)
        qsort(A->e, A->n, sizeof *A->e, cmp_alloc);
    return st;
}

double memio_alloc_find(const struct memio_allocs *A, const char *task)
{
    if (!A->n)
        return NAN;
    struct memio_alloc key = {.task = (char *)task};
    struct memio_alloc *e = bsearch(&key, A->e, A->n, sizeof *A->e, cmp_alloc);
    return e ? e->mb : NAN;
}

void memio_allocs_free(struct memio_allocs *A)
{
    for (size_t i = 0; i < A->n; i++)
        free(A->e[i].task);
    free(A->e);
}

/* ---- grouped sample reader ---- */

void memio_profile_header(csvw *w, int details)
{
    static const char *const hdr[] = {"task", "alloc_mb", "normal_mb", "p90_mb", "peak_mb", "waste_mb", "class",
                                      "samples", "mean_mb", "spread", "use", "growth_mb_s", NULL};
    const char *h[13];
    memcpy(h, hdr, sizeof h);
    if (!details)
        h[7] = NULL;
    csvw_header(w, h);
}

static void write_profile(csvw *w, const char *task, const struct memprof *p, int details)
{
    csvw_str(w, task);
    csvw_num(w, p->alloc);
    csvw_num(w, p->normal);
    csvw_num(w, p->p90);
    csvw_num(w, p->peak);
    csvw_num(w, p->waste);
    csvw_str(w, memprof_class_name(p->cls));
    if (details) {
        csvw_int(w, (int64_t)p->n);
        csvw_num(w, p->mean);
        csvw_num(w, p->spread);
        csvw_num(w, p->use);
        csvw_num(w, p->growth);
    }
    csvw_end(w);
}

static void add_totals(struct memio_totals *t, const char *task, const struct memprof *p, double alloc)
{
    t->tasks++;
    t->samples += p->n;
    if (p->cls == MEMPROF_WELL)
        t->well++;
    else
        t->poor++;
    if (!isnan(alloc)) {
        t->alloc += alloc;
        t->unused += p->waste > 0 ? p->waste : 0;
        t->alloc_tasks++;
        t->alloc_normal += p->normal;
        if (p->waste < 0) {
            t->under_tasks++;
            t->under -= p->waste;
        }
        if (p->peak > alloc && t->over_alloc++ == 0)
            t->first_over = xstrdup(task);
    }
    t->normal += p->normal;
}

/* finish_task: the current task's samples (from line on) are complete. */
static void finish_task(struct memio_reader *rd, const char *task, double alloc, long line)
{
    const struct memio_read_opts *o = rd->o;
    struct memprof p;
    double *copy = NULL;
    if (o->series) {
        copy = xmalloc(rd->acc.n * sizeof *copy);
        memcpy(copy, rd->acc.mem, rd->acc.n * sizeof *copy);
    }
    memprof_finish(&rd->acc, alloc, &o->prof, &p);
    add_totals(&rd->tot, task, &p, alloc);
    if (o->profiles) {
        write_profile(o->profiles, task, &p, o->details);
        return;
    }
    struct memio_task kept = {xstrdup(task), p, copy, p.n, p.normal, p.peak, 0};
    if (o->series && o->train > 0) {
        size_t m = (size_t)floor(o->train * (double)p.n);
        if (m < 1 || m >= p.n) {
            if (!rd->short_task) {
                rd->short_task = xstrdup(task);
                rd->short_n = p.n;
                rd->short_line = line;
            }
        } else {
            struct memprof learned;
            memprof_of_series(copy, m, alloc, &o->prof, &learned);
            kept.normal = learned.normal;
            kept.peak = learned.peak;
            kept.off = m;
        }
    }
    rd->tasks = xgrow(rd->tasks, &rd->tcap, rd->ntasks + 1, sizeof *rd->tasks);
    rd->tasks[rd->ntasks++] = kept;
}

/* note_interval: track the smallest interval and the first uneven one. */
static void note_interval(struct memio_reader *rd, const char *task, double dt)
{
    if (dt < rd->min_dt) {
        if (rd->min_dt < INFINITY && !rd->gap_task) {
            rd->gap_task = xstrdup(task);
            rd->gap_dt = rd->min_dt;
        }
        rd->min_dt = dt;
    } else if (dt > rd->min_dt * (1 + 1e-9) && !rd->gap_task) {
        rd->gap_task = xstrdup(task);
        rd->gap_dt = dt;
    }
}

/* The task being read. */
struct cur_task {
    char *name;
    size_t cap;
    double alloc;
    int have, dropped;       /* dropped: its rows are rejected (no allocation, --on-error skip) */
    long line;               /* its first row's line */
};

/* One parsed sample row. */
struct sample_row {
    double t, mem, alloc;
};

/* The input's columns, and the last alloc_mb text parsed with its value:
 * the allocation repeats on every row of a task, so a row whose alloc_mb
 * has the same bytes takes the value without parsing it again. */
struct sample_cols {
    int task, t, mem, alloc, need_alloc;
    char alloc_text[32];     /* "" when nothing is cached */
    double alloc_value;
};

/* reject: a data error about the row at line: 1 when it was skipped
 * (--on-error skip), else 0 (reported; the reader stops). */
#define reject csvr_reject_at

/* check_sample: a sample after the first of its task: 0, 1 (the row is
 * rejected and skipped) or -1 (a data error, reported). */
static int check_sample(csvr *r, long line, struct memio_reader *rd, const char *task, const struct sample_row *x,
                        int has_alloc, const struct cur_task *cur)
{
    double last = memprof_acc_last_t(&rd->acc);
    /* NOLINTNEXTLINE(clang-analyzer-core.UndefinedBinaryOperatorResult): x->t is set by sample_row, which succeeded before any check_sample */
    if (!(x->t > last))
        return reject(r, line, "task '%s': time %.17g is not after the previous sample's %.17g", task, x->t, last)
                   ? 1 : -1;
    if (has_alloc && !(x->alloc == cur->alloc || (isnan(x->alloc) && isnan(cur->alloc)))) {
        char a0[40] = "missing", a1[40] = "missing";
        if (!isnan(cur->alloc))
            snprintf(a0, sizeof a0, "%g", cur->alloc);
        if (!isnan(x->alloc))
            snprintf(a1, sizeof a1, "%g", x->alloc);
        return reject(r, line, "task '%s': alloc_mb changes within the task (%s, then %s)", task, a0, a1) ? 1 : -1;
    }
    note_interval(rd, task, x->t - last);
    return 0;
}

/* start_task: the first row of task: the previous task is complete.  0, 1
 * (no allocation, skipped: the task's rows are rejected) or -1. */
static int start_task(csvr *r, long line, struct memio_reader *rd, const char *task, double alloc,
                      struct cur_task *cur)
{
    const struct memio_read_opts *o = rd->o;
    if (cur->have && !cur->dropped)
        finish_task(rd, cur->name, cur->alloc, cur->line);
    cur->line = line;
    size_t n = strlen(task) + 1;
    cur->name = xgrow(cur->name, &cur->cap, n, 1);
    memcpy(cur->name, task, n);
    cur->have = 1;
    cur->dropped = 0;
    memprof_acc_reset(&rd->acc);
    if (o->allocs) {
        alloc = memio_alloc_find(o->allocs, task);
        if (isnan(alloc) && o->need_alloc) {
            cur->dropped = 1;
            return reject(r, line, "task '%s' has no allocation in '%s'", task, o->alloc_path) ? 1 : -1;
        }
    }
    cur->alloc = alloc;
    return 0;
}

/* add_row: one row of task (grouped by g): 0 added, 1 rejected (skipped),
 * -1 a data error (reported). */
static int add_row(csvr *r, long line, struct memio_reader *rd, group_iter *g, struct cur_task *cur,
                   const struct sample_cols *c, const char *task, const struct sample_row *x)
{
    int gs = group_next(g, csvr_path(r), line, task), rc;
    if (gs == GROUP_ERROR)
        return -1;
    if (gs == GROUP_NEW)
        /* NOLINTNEXTLINE(clang-analyzer-core.CallAndMessage): x is filled by sample_row, which succeeded before task_row */
        rc = start_task(r, line, rd, task, x->alloc, cur);
    else if (cur->dropped)
        rc = reject(r, line, "task '%s' has no allocation in '%s'", task, rd->o->alloc_path) ? 1 : -1;
    else
        rc = check_sample(r, line, rd, task, x, c->alloc >= 0, cur);
    if (rc)
        return rc;
    memprof_acc_add(&rd->acc, x->t, x->mem);
    if (slk_progress_due(rd->tot.samples + rd->acc.n))
        slk_progress_read("samples", rd->tot.samples + rd->acc.n, csvr_fraction(r));
    return 0;
}

/* sample_cols: find the input's columns; 0, or an exit status (reported). */
static int sample_cols(csvr *r, const struct memio_read_opts *o, struct sample_cols *c)
{
    if (csvr_require_cols(r, "task", &c->task, "t", &c->t, "mem_mb", &c->mem, (char *)NULL) < 0)
        return SLK_EDATA;
    c->alloc = -1;
    c->need_alloc = o->need_alloc;
    c->alloc_text[0] = '\0';
    if (!o->allocs) {
        c->alloc = csvr_col(r, "alloc_mb");
        if (c->alloc < 0 && c->need_alloc) {
            csvr_require_for(r, "alloc_mb", "the allocation: give an alloc_mb column or --alloc FILE");
            return SLK_EDATA;
        }
    }
    return SLK_OK;
}

/* sample_alloc: the row's alloc_mb into x->alloc (NaN when empty and not
 * needed): 0, or -1 (csvr_fail).  Only a value that passed the checks is
 * cached, so a cached text is always valid. */
static int sample_alloc(csvr *r, struct sample_cols *c, struct sample_row *x)
{
    const char *s = csvr_field(r, c->alloc);
    if (s && c->alloc_text[0] && strcmp(s, c->alloc_text) == 0) {
        x->alloc = c->alloc_value;
        return 0;
    }
    if (csvr_get_double(r, c->alloc, &x->alloc, CSVR_POSITIVE | CSVR_BOUNDED | (c->need_alloc ? CSVR_REQUIRED : 0)) < 0)
        return -1;
    size_t n = s ? strlen(s) : 0;
    if (n > 0 && n < sizeof c->alloc_text) {
        memcpy(c->alloc_text, s, n + 1);
        c->alloc_value = x->alloc;
    }
    return 0;
}

/* sample_row: the current row's task and values: 0, or -1 (csvr_fail). */
static int sample_row(csvr *r, struct sample_cols *c, const char **task, struct sample_row *x)
{
    *task = csvr_field_required(r, c->task, "task");
    if (!*task)
        return -1;
    x->alloc = NAN;
    /* the lib getters parse plain decimals by the exact fast path
     * (lib/base/parse); times beyond +-1e11 s and sizes beyond 1e15 MB are
     * data errors at the line */
    if (csvr_get_time(r, c->t, &x->t, CSVR_REQUIRED) < 0 ||
        csvr_get_double(r, c->mem, &x->mem, CSVR_REQUIRED | CSVR_NONNEG | CSVR_BOUNDED) < 0)
        return -1;
    if (c->alloc >= 0 && sample_alloc(r, c, x) < 0)
        return -1;
    return 0;
}

/* add_held: -s: the held rows, sorted by task and time, into rd. */
static int add_held(csvr *r, group_held *h, struct memio_reader *rd, group_iter *g, struct cur_task *cur,
                    const struct sample_cols *c)
{
    size_t n = group_held_sort(h);
    for (size_t i = 0; i < n; i++) {
        const char *task;
        long line;
        const struct sample_row *x = group_held_row(h, i, &task, &line);
        if (add_row(r, line, rd, g, cur, c, task, x) < 0)
            return -1;
    }
    return 0;
}

int memio_read_tasks(csvr *r, const struct memio_read_opts *o, struct memio_reader *rd)
{
    rd->o = o;
    rd->min_dt = INFINITY;
    struct sample_cols c;
    int st = sample_cols(r, o, &c);
    if (st)
        return st;
    group_iter g;
    group_begin(&g, "task", GROUP_SORTABLE);
    group_where(&g, csvr_path(r), c.task + 1, csvr_delimiter(r), csvr_has_header(r));
    group_held *h = o->sort ? group_held_new(sizeof(struct sample_row)) : NULL;
    struct cur_task cur = {.alloc = NAN};
    int failed = 0;
    memprof_acc_init(&rd->acc);
    while (!failed && csvr_next(r) > 0) {
        const char *task;
        struct sample_row x;
        if (sample_row(r, &c, &task, &x) < 0) {
            if (csvr_skip(r))
                continue;
            break;
        }
        if (h)
            /* NOLINTNEXTLINE(clang-analyzer-core.CallAndMessage): x is filled by sample_row when it returns 0 */
            group_held_add(h, task, x.t, csvr_line(r), &x);
        else
            failed = add_row(r, csvr_line(r), rd, &g, &cur, &c, task, &x) < 0;
    }
    if (!failed && !csvr_status(r) && h)
        failed = add_held(r, h, rd, &g, &cur, &c) < 0;
    st = csvr_status(r);
    if (!st && failed)
        st = SLK_EDATA; /* not grouped: reported by group_next */
    if (!st && cur.have && !cur.dropped)
        finish_task(rd, cur.name, cur.alloc, cur.line);
    slk_progress_done();
    free(cur.name);
    group_held_free(h);
    group_end(&g);
    memprof_acc_free(&rd->acc);
    return st;
}

/* describe_rule: the profile rule in words; without an allocation only the
 * spread decides (peakgate(1)), and the words say so. */
static void describe_rule(const struct memprof_opts *p, int alloc, char *buf, size_t n)
{
    char normal[32];
    if (p->normal_pct < 0)
        snprintf(normal, sizeof normal, "mean");
    else
        snprintf(normal, sizeof normal, "p%g", p->normal_pct);
    if (alloc)
        snprintf(buf, n, "normal = %s; well-behaved: normal >= %g%% of alloc and peak <= %g%% of normal",
                 normal, 100 * p->well_use, 100 * (1 + p->well_spread));
    else
        snprintf(buf, n,
                 "normal = %s; well-behaved: peak <= %g%% of normal, the spread alone with no allocation",
                 normal, 100 * (1 + p->well_spread));
}

void memio_totals_summary(const struct memio_totals *t, const struct memprof_opts *p)
{
    char rule[200];
    describe_rule(p, t->alloc > 0, rule, sizeof rule);
    fprintf(slk_summary(), "%s: %zu tasks from %zu samples: %zu well-behaved, %zu poorly-behaved (%s)\n",
            slk_progname, t->tasks, t->samples, t->well, t->poor, rule);
    if (t->alloc > 0) {
        /* the waste is what allocated tasks leave unused; a task normally
         * above its allocation is counted apart, not netted against it, so
         * that allocated - normal use = waste - the excess */
        char some[64] = "";
        if (t->alloc_tasks < t->tasks)
            snprintf(some, sizeof some, " to %zu of %zu tasks", t->alloc_tasks, t->tasks);
        fprintf(slk_summary(),
                "%s: allocated %.0f MB%s, normal use %.0f MB, waste %.0f MB (%.1f%% of the allocation)",
                slk_progname, t->alloc, some, t->alloc_normal, t->unused, 100 * t->unused / t->alloc);
        if (t->under_tasks)
            fprintf(slk_summary(), "; %zu task(s) normally use %.0f MB more than their allocation",
                    t->under_tasks, t->under);
        fputc('\n', slk_summary());
    }
    if (t->over_alloc)
        slk_warn_at(NULL, 0, "%zu task(s) went above their allocation (first: '%s')", t->over_alloc,
                    t->first_over);
}

void memio_reader_free(struct memio_reader *rd)
{
    for (size_t i = 0; i < rd->ntasks; i++) {
        free(rd->tasks[i].name);
        free(rd->tasks[i].series);
    }
    free(rd->tasks);
    free(rd->tot.first_over);
    free(rd->gap_task);
    free(rd->short_task);
}

struct memgate_task *memio_gate_tasks(const struct memio_reader *rd)
{
    struct memgate_task *t = xcalloc(rd->ntasks ? rd->ntasks : 1, sizeof *t);
    for (size_t i = 0; i < rd->ntasks; i++) {
        const struct memio_task *k = &rd->tasks[i];
        t[i] = (struct memgate_task){.name = k->name, .normal = k->normal, .peak = k->peak,
                                     .series = k->series + k->off, .len = k->len - k->off};
    }
    return t;
}

double memio_well_growth(const struct memio_reader *rd, size_t *nwell)
{
    double growth = 0;
    *nwell = 0;
    for (size_t i = 0; i < rd->ntasks; i++)
        if (rd->tasks[i].prof.cls == MEMPROF_WELL) {
            ++*nwell;
            if (rd->tasks[i].prof.growth > growth)
                growth = rd->tasks[i].prof.growth;
        }
    return growth;
}

struct memgate_task *memio_model_tasks(const struct memmodel_params *mp, size_t n, uint64_t seed)
{
    struct memgate_task *t = xcalloc(n ? n : 1, sizeof *t);
    double top = mp->normal_mb * (1 + mp->noise);
    for (size_t i = 0; i < n; i++) {
        char nm[32];
        snprintf(nm, sizeof nm, "task%04zu", i + 1);
        t[i] = (struct memgate_task){.name = xstrdup(nm), .normal = mp->normal_mb,
                                     .peak = mp->peak_mb > top ? mp->peak_mb : top, .model = mp, .seed = seed};
    }
    return t;
}

void memio_model_tasks_free(struct memgate_task *t, size_t n)
{
    for (size_t i = 0; t && i < n; i++)
        free((char *)t[i].name);
    free(t);
}

int memio_apply_profiles(const char *path, const struct csv_dialect *d, struct memio_reader *rd,
                         const char *series_path)
{
    int st;
    csvr *r = csvr_open_with(path, d, 0, &st);
    if (!r)
        return st;
    int ct, cn, cp;
    if (csvr_require_cols(r, "task", &ct, "normal_mb", &cn, "peak_mb", &cp, (char *)NULL) < 0) {
        csvr_close(r);
        return SLK_EDATA;
    }
    keyset *seen = keyset_new(), *names = keyset_new(); /* names: row = index in rd->tasks (unique: grouped) */
    for (size_t i = 0; i < rd->ntasks; i++)
        keyset_put(names, rd->tasks[i].name, 0, NULL);
    unsigned char *got = xcalloc(rd->ntasks ? rd->ntasks : 1, 1);
    while (csvr_next(r) > 0) {
        const char *task = csvr_field_required(r, ct, "task");
        double normal, peak;
        if (!task) {
            if (csvr_skip(r))
                continue;
            break;
        }
        if (csvr_get_double(r, cn, &normal, CSVR_REQUIRED | CSVR_NONNEG | CSVR_BOUNDED) < 0 ||
            csvr_get_double(r, cp, &peak, CSVR_REQUIRED | CSVR_NONNEG | CSVR_BOUNDED) < 0) {
            if (csvr_skip(r))
                continue;
            break;
        }
        if (peak < normal) {
            csvr_fail(r, "task '%s': peak_mb %g is below normal_mb %g", task, peak, normal);
            if (csvr_skip(r))
                continue;
            break;
        }
        if (!keytab_row(seen, r, ct)) {
            if (csvr_skip(r))
                continue;
            break;
        }
        long i = keyset_row(names, task);
        if (i >= 0) {
            rd->tasks[i].normal = normal;
            rd->tasks[i].peak = peak;
            got[i] = 1;
        }
    }
    st = csvr_status(r);
    for (size_t i = 0; st == SLK_OK && i < rd->ntasks; i++)
        if (!got[i]) {
            slk_error_at(csvr_path(r), 0, "no profile for task '%s' of %s", rd->tasks[i].name, series_path);
            st = SLK_EDATA;
        }
    free(got);
    keyset_free(seen);
    keyset_free(names);
    csvr_close(r);
    return st;
}

/* ---- report rows ---- */

void memio_fillers_write(csvw *w, double node_mb, const struct memio_reader *rd, size_t nwell,
                         const struct memfill *f, double growth, double migrate_ms_per_mb)
{
    static const char *const hdr[] = {
        "node_mb", "tasks", "well_behaved", "alloc_mb", "unallocated_mb", "normal_mb", "unused_mb",
        "headroom_mb", "growth_mb_s", "migrate_ms_per_mb", "migrate_s", "threshold_mb",
        "filler_normal_mb", "filler_peak_mb", NULL};
    csvw_header(w, hdr);
    csvw_num(w, node_mb);
    csvw_int(w, (int64_t)rd->ntasks);
    csvw_int(w, (int64_t)nwell);
    csvw_num(w, rd->tot.alloc);
    csvw_num(w, f->unallocated);
    csvw_num(w, rd->tot.normal);
    csvw_num(w, f->unused);
    csvw_num(w, f->headroom);
    csvw_num(w, growth);
    csvw_num(w, migrate_ms_per_mb);
    csvw_num(w, f->migrate_s);
    csvw_num(w, f->threshold_mb);
    csvw_num(w, f->filler_normal);
    csvw_num(w, f->filler_peak);
    csvw_end(w);
}

const char *const memio_task_hdr[] = {
    "policy", "k", "task", "normal_mb", "peak_mb", "threshold_mb", "progress_s", "elapsed_s",
    "slowdown", "paused_s", "longest_pause_s", "peaks", "grants", NULL};
const char *const memio_series_hdr[] = {"policy", "k", "t", "task", "mem_mb", "state", NULL};
const char *const memio_node_hdr[] = {"policy", "k", "t", "used_mb", "bound_mb", "node_mb", "paused", NULL};
const char *const memio_summary_hdr[] = {
    "policy", "k", "tasks", "node_mb", "steps", "step_s", "max_mem_mb", "mean_mem_mb", "bound_mb",
    "bound_held", "bound_simple_mb", "simple_held", "over_node_s", "mean_slowdown", "max_slowdown",
    "longest_pause_s", NULL};

int memio_on_step(void *ctx, const struct memgate_step *st)
{
    struct memio_sim_out *so = ctx;
    double tt = (double)st->step * so->step_s;
    if (so->series)
        for (size_t i = 0; i < st->n; i++) {
            csvw_str(so->series, so->policy);
            csvw_int(so->series, so->k);
            csvw_num(so->series, tt);
            csvw_str(so->series, so->t[i].name);
            csvw_num(so->series, st->mem[i]);
            csvw_str(so->series, memgate_state_name(st->state[i]));
            csvw_end(so->series);
        }
    if (so->node) {
        csvw_str(so->node, so->policy);
        csvw_int(so->node, so->k);
        csvw_num(so->node, tt);
        csvw_num(so->node, st->total);
        csvw_num(so->node, so->bound);
        csvw_num(so->node, so->node_mb);
        csvw_int(so->node, (long long)st->paused);
        csvw_end(so->node);
    }
    if ((so->series && csvw_error(so->series)) || (so->node && csvw_error(so->node)))
        return SLK_EIO;
    return 0;
}

struct memio_run_stats memio_task_rows(csvw *w, const struct memio_sim_out *so,
                                       const struct memgate_task_result *tr, size_t n)
{
    struct memio_run_stats s = {0, 0, 0};
    const struct memgate_task *t = so->t;
    double step_s = so->step_s;
    for (size_t i = 0; i < n; i++) {
        double sd = tr[i].progress > 0 ? (double)tr[i].elapsed / (double)tr[i].progress : NAN;
        csvw_str(w, so->policy);
        csvw_int(w, so->k);
        csvw_str(w, t[i].name);
        csvw_num(w, t[i].normal);
        csvw_num(w, t[i].peak);
        csvw_num(w, so->approach * t[i].normal);
        csvw_num(w, (double)tr[i].progress * step_s);
        csvw_num(w, (double)tr[i].elapsed * step_s);
        csvw_num(w, sd);
        csvw_num(w, (double)tr[i].paused * step_s);
        csvw_num(w, (double)tr[i].longest_pause * step_s);
        csvw_int(w, tr[i].peaks);
        csvw_int(w, tr[i].grants);
        csvw_end(w);
        double sdv = isnan(sd) ? INFINITY : sd;
        s.sd_sum += sdv;
        if (sdv > s.sd_max)
            s.sd_max = sdv;
        if (tr[i].longest_pause > s.longest)
            s.longest = tr[i].longest_pause;
    }
    return s;
}

void memio_summary_row(csvw *w, const struct memio_sim_out *so, size_t n, const struct memgate_result *res,
                       double simple, int held, int sheld, const struct memio_run_stats *s)
{
    csvw_str(w, so->policy);
    csvw_int(w, so->k);
    csvw_int(w, (int64_t)n);
    csvw_num(w, so->node_mb);
    csvw_int(w, res->steps);
    csvw_num(w, so->step_s);
    csvw_num(w, res->max_mem);
    csvw_num(w, res->mean_mem);
    csvw_num(w, so->bound);
    csvw_str(w, held ? "yes" : "no");
    csvw_num(w, simple);
    csvw_str(w, sheld ? "yes" : "no");
    csvw_num(w, (double)res->over_node * so->step_s);
    csvw_num(w, s->sd_sum / (double)n);
    csvw_num(w, s->sd_max);
    csvw_num(w, (double)s->longest * so->step_s);
    csvw_end(w);
}

int memio_gate_runs(const struct memgate_task *t, size_t n, const struct memio_gate_cfg *c,
                    void (*done)(void *ctx, const struct memio_run *run), void *ctx)
{
    struct memgate_task_result *tr = xcalloc(n ? n : 1, sizeof *tr);
    int st = SLK_OK;
    for (int i = 0; i <= c->nk && !st; i++) {
        struct memio_run run = {.k = i == 0 ? 0 : c->k[i - 1]};
        run.kb = i == 0 ? c->k[0] : run.k;
        struct memgate_opts mo = {.k = run.k, .approach = c->approach, .steps = c->steps};
        run.bound = memgate_bound(t, n, run.kb, c->approach);
        run.simple = memgate_bound_simple(t, n, run.kb);
        struct memio_sim_out so = {c->series, c->node, t, run.k, c->step_s, run.bound, c->node_mb, c->approach,
                                   i == 0 ? "unpaced" : "gated"};
        st = memgate_run(t, n, &mo, c->node_mb, (c->series || c->node) ? memio_on_step : NULL, &so, tr, &run.res);
        if (st)
            break;
        run.s = memio_task_rows(c->rows, &so, tr, n);
        run.held = run.res.max_mem <= run.bound * (1 + 1e-12);
        run.sheld = run.res.max_mem <= run.simple * (1 + 1e-12);
        if (run.k > 0 && !run.held && c->in_sample) {
            /* the gate guarantees the bound: a violation is a bug here, not in the data */
            slk_error("internal error: gated run k=%d used %.17g MB, above its bound %.17g MB", run.k,
                      run.res.max_mem, run.bound);
            st = SLK_ESOFTWARE;
        }
        if (c->summary)
            memio_summary_row(c->summary, &so, n, &run.res, run.simple, run.held, run.sheld, &run.s);
        done(ctx, &run);
    }
    free(tr);
    return st;
}

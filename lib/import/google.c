/* google — Google 2011 job and task events into runs and usage (see google.h). */
#include "import/google.h"

#include "base/diag.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define JOB_FIELDS 8
#define TASK_FIELDS 13
#define T_AFTER INT64_MAX            /* "after the window" */
#define MAX_TIME_US INT64_C(100000000000000000) /* 1e11 s: beyond any real trace */
#define MAX_JOB_ID (INT64_C(1) << 40)
#define MAX_TASK_INDEX (INT64_C(1) << 23)
#define MAX_RUN_STEPS 10000000.0     /* a run's usage rows (24 bytes each while written) */

enum { EV_SUBMIT, EV_SCHEDULE, EV_EVICT, EV_FAIL, EV_FINISH, EV_KILL, EV_LOST,
       EV_UPDATE_PENDING, EV_UPDATE_RUNNING };
static const char *const end_status[] = {[EV_EVICT] = "evicted", [EV_FAIL] = "failed",
                                         [EV_FINISH] = "finished", [EV_KILL] = "killed",
                                         [EV_LOST] = "lost"};

/* ---- a map from 64-bit keys to array indices (open addressing) ---- */
struct u64map { uint64_t *key; long *val; size_t cap, n; };
enum { SLOT_EMPTY = -1, VAL_ABSENT = -2 };

static size_t u64_hash(uint64_t k, size_t cap)
{
    k ^= k >> 33; k *= UINT64_C(0xff51afd7ed558ccd); k ^= k >> 33;
    return (size_t)k & (cap - 1);
}

/* the slot of key (found, or empty where it would go) */
static size_t u64map_slot(const struct u64map *m, uint64_t key)
{
    size_t i = u64_hash(key, m->cap);
    while (m->val[i] != SLOT_EMPTY && m->key[i] != key)
        i = (i + 1) & (m->cap - 1);
    return i;
}

static void u64map_grow(struct u64map *m)
{
    struct u64map old = *m;
    m->cap = old.cap ? old.cap * 2 : 1024;
    m->key = xcalloc(m->cap, sizeof *m->key);
    m->val = xmalloc(m->cap * sizeof *m->val);
    for (size_t i = 0; i < m->cap; i++)
        m->val[i] = SLOT_EMPTY;
    for (size_t i = 0; i < old.cap; i++)
        if (old.val[i] != SLOT_EMPTY) {
            size_t s = u64map_slot(m, old.key[i]);
            m->key[s] = old.key[i];
            m->val[s] = old.val[i];
        }
    free(old.key);
    free(old.val);
}

/* pointer to the value of key, created as VAL_ABSENT when new; callers may
 * store any value but SLOT_EMPTY (negative values read as "absent") */
static long *u64map_at(struct u64map *m, uint64_t key)
{
    if (2 * (m->n + 1) > m->cap)
        u64map_grow(m);
    size_t s = u64map_slot(m, key);
    if (m->val[s] == SLOT_EMPTY) {
        m->key[s] = key;
        m->val[s] = VAL_ABSENT;
        m->n++;
    }
    return &m->val[s];
}

static void u64map_free(struct u64map *m) { free(m->key); free(m->val); }

/* ---- the trace ---- */
struct job {
    int64_t id;
    char *name;                  /* logical job name */
    int64_t submit, start, end;  /* microseconds; -1 unknown */
    int end_type;                /* -1 while running or pending */
    int before;                  /* submitted before the window */
    int incomplete;              /* usage: a task not seen from SCHEDULE to its end */
    int64_t ustart, uend;        /* usage: first task start, last task end */
    int64_t last;                /* time of its latest job event; -1 none */
};

struct task { long jix; int64_t start, end; double cpu, mem; }; /* jix: index in jobs[] */

struct google_trace {
    struct google_opts o;
    struct google_stats st;
    struct job *jobs; size_t njobs, jcap;
    struct u64map jobmap;        /* job ID -> jobs[] */
    struct task *tasks; size_t ntasks, tcap;
    struct u64map open;          /* (job, task index) -> tasks[] while running */
};

google_trace *google_new(const struct google_opts *o)
{
    google_trace *g = xcalloc(1, sizeof *g);
    g->o = *o;
    return g;
}

void google_free(google_trace *g)
{
    if (!g)
        return;
    for (size_t i = 0; i < g->njobs; i++)
        free(g->jobs[i].name);
    free(g->jobs);
    free(g->tasks);
    u64map_free(&g->jobmap);
    u64map_free(&g->open);
    free(g);
}

const struct google_stats *google_stats(const google_trace *g) { return &g->st; }

/* the common leading fields: time and job ID, and the event type at field ev */
static int event_head(const google_trace *g, rawin *in, char **f, int ev, int64_t *t, int64_t *id,
                      int64_t *type)
{
    if (rawin_int64(in, f[0], 1, "time", t) != 0 || rawin_int64(in, f[2], 3, "job ID", id) != 0 ||
        rawin_int64(in, f[ev], ev + 1, "event type", type) != 0)
        return SLK_EDATA;
    if (*t < 0 || (*t > MAX_TIME_US && *t != T_AFTER))
        return rawin_fail(in, "field 1 (time): out of range '%s'", f[0]);
    if (*t != T_AFTER && rawin_time(in, (double)g->o.epoch + (double)*t / 1e6, f[0], 1, "time") != 0)
        return SLK_EDATA;
    if (*id < 0 || *id >= MAX_JOB_ID)
        return rawin_fail(in, "field 3 (job ID): out of range '%s'", f[2]);
    if (*type < EV_SUBMIT || *type > EV_UPDATE_RUNNING)
        return rawin_fail(in, "field %d (event type): not 0-8 '%s'", ev + 1, f[ev]);
    return 0;
}

static struct job *job_of(google_trace *g, int64_t id)
{
    long *v = u64map_at(&g->jobmap, (uint64_t)id);
    if (*v < 0) {
        g->jobs = xgrow(g->jobs, &g->jcap, g->njobs + 1, sizeof *g->jobs);
        g->jobs[g->njobs] = (struct job){id, NULL, -1, -1, -1, -1, 0, 0, -1, -1, -1};
        *v = (long)g->njobs++;
    }
    return &g->jobs[*v];
}

static void job_event(struct job *j, int64_t t, int type)
{
    if (type == EV_SUBMIT) {
        if (j->submit < 0 && j->start < 0 && j->end_type < 0)
            j->submit = t;
        if (t == 0)
            j->before = 1;
        j->end_type = -1; /* resubmitted: not ended */
    } else if (type == EV_SCHEDULE) {
        if (j->start < 0)
            j->start = t;
        j->end_type = -1;
    } else if (type <= EV_LOST) {
        j->end = t;
        j->end_type = type;
    }
}

static int read_jobs(google_trace *g, rawin *in, char **f, int n)
{
    for (; n > 0; n = rawin_next(in, f, TASK_FIELDS)) {
        int64_t t, id, type;
        char nb[24];
        if ((n != JOB_FIELDS && rawin_fail(in, "expected 8 job_events fields, found %s",
                                           rawin_count(n, TASK_FIELDS, nb, sizeof nb))) ||
            event_head(g, in, f, 3, &t, &id, &type) != 0 ||
            (!f[7][0] && rawin_fail(in, "field 8 (logical job name): empty"))) {
            if (rawin_skip(in))
                continue; /* --on-error skip */
            return SLK_EDATA;
        }
        struct job *j = job_of(g, id);
        /* out of time order, a run would end before it starts (sloinfer
         * refuses such a row) */
        if (t != T_AFTER && t < j->last) {
            rawin_fail(in, "field 1 (time): '%s' before job %s's previous event at %" PRId64 " us",
                       f[0], f[2], j->last);
            if (rawin_skip(in))
                continue;
            return SLK_EDATA;
        }
        if (j->submit < 0 && j->start < 0 && j->end_type < 0 && type != EV_SUBMIT)
            j->before = 1; /* its SUBMIT is not in the files read */
        if (!j->name)
            j->name = xstrdup(f[7]);
        if (t != T_AFTER) {
            job_event(j, t, (int)type);
            j->last = t;
        }
        g->st.events++;
    }
    return n < 0 ? rawin_status(in) : 0;
}

/* the run's first task start and last task end become ustart, uend: at most
 * MAX_RUN_STEPS usage steps apart (a huge time would make the run's rows fill
 * the memory); 0, or SLK_EDATA after a message */
static int run_span(google_trace *g, rawin *in, struct job *j, int64_t ustart, int64_t uend)
{
    double step_us = g->o.step * 1e6;
    if (ustart >= 0 && uend >= 0 && (double)(uend - ustart) / step_us > MAX_RUN_STEPS)
        return rawin_fail(in, "field 1 (time): job %" PRId64 "'s tasks span %" PRId64 " to %" PRId64
                          " us, more than %.0f steps of %g s", j->id, ustart, uend, MAX_RUN_STEPS,
                          g->o.step);
    j->ustart = ustart;
    j->uend = uend;
    return 0;
}

static int task_event(google_trace *g, rawin *in, char **f, int64_t t, int64_t id, int type)
{
    int64_t idx;
    if (rawin_int64(in, f[3], 4, "task index", &idx) != 0)
        return SLK_EDATA;
    if (idx < 0 || idx >= MAX_TASK_INDEX)
        return rawin_fail(in, "field 4 (task index): out of range '%s'", f[3]);
    long *slot = u64map_at(&g->open, (uint64_t)id << 23 | (uint64_t)idx);
    if (type == EV_SCHEDULE) {
        double cpu = 0, mem = 0;
        if ((f[9][0] && rawin_double(in, f[9], 10, "CPU request", &cpu) != 0) ||
            (f[10][0] && rawin_double(in, f[10], 11, "memory request", &mem) != 0))
            return SLK_EDATA;
        if (cpu < 0 || cpu > 1 || mem < 0 || mem > 1)
            return rawin_fail(in, "requests not within 0-1 (CPU '%s', memory '%s')", f[9], f[10]);
        struct job *j = job_of(g, id);
        if (run_span(g, in, j, j->ustart < 0 || t < j->ustart ? t : j->ustart, j->uend) != 0)
            return SLK_EDATA;
        if (t == 0 || *slot >= 0)
            j->incomplete = 1; /* running before the window, or scheduled twice */
        g->tasks = xgrow(g->tasks, &g->tcap, g->ntasks + 1, sizeof *g->tasks);
        g->tasks[g->ntasks] = (struct task){j - g->jobs, t, -1, cpu, mem};
        *slot = (long)g->ntasks++;
        g->st.tasks++;
    } else if (type >= EV_EVICT && type <= EV_LOST) {
        if (*slot >= 0) {
            struct task *k = &g->tasks[*slot];
            struct job *j = &g->jobs[k->jix];
            if (t < k->start)
                return rawin_fail(in, "field 1 (time): task %s of job %s ends at '%s', before its "
                                  "SCHEDULE at %" PRId64 " us", f[3], f[2], f[0], k->start);
            if (run_span(g, in, j, j->ustart, t > j->uend ? t : j->uend) != 0)
                return SLK_EDATA;
            k->end = t;
        } else
            job_of(g, id)->incomplete = 1; /* scheduled before these files */
        *slot = VAL_ABSENT; /* closed */
    }
    return 0;
}

static int read_tasks(google_trace *g, rawin *in, char **f, int n)
{
    for (; n > 0; n = rawin_next(in, f, TASK_FIELDS)) {
        int64_t t, id, type;
        char nb[24];
        if ((n != TASK_FIELDS && rawin_fail(in, "expected 13 task_events fields, found %s",
                                            rawin_count(n, TASK_FIELDS, nb, sizeof nb))) ||
            event_head(g, in, f, 5, &t, &id, &type) != 0 ||
            (t != T_AFTER && task_event(g, in, f, t, id, (int)type) != 0)) {
            if (rawin_skip(in))
                continue; /* --on-error skip */
            return SLK_EDATA;
        }
        g->st.task_events++;
    }
    return n < 0 ? rawin_status(in) : 0;
}

int google_read(google_trace *g, rawin *in, int tasks)
{
    char *f[TASK_FIELDS + 1];
    int n = rawin_next(in, f, TASK_FIELDS);
    if (n < 0)
        return rawin_status(in);
    if (n == 0)
        return rawin_fail(in, "empty input");
    if (n == JOB_FIELDS) {
        if (g->ntasks > 0)
            return rawin_fail(in, "a job_events file after task_events: give the job files first");
        return read_jobs(g, in, f, n);
    }
    char nb[24];
    if (n != TASK_FIELDS)
        return rawin_fail(
            in, "not a Google 2011 job_events (8 fields) or task_events (13 fields) line: %s fields",
            rawin_count(n, TASK_FIELDS, nb, sizeof nb));
    if (!tasks)
        return rawin_fail(in, "a task_events file: google-runs reads job_events only");
    return read_tasks(g, in, f, n);
}

/* ---- output ---- */

/* exact decimal text of epoch + us / 10^6.  The sum is taken in
 * microseconds (|epoch| <= 1e11 s and us <= 1e17 + a run's span: it fits an
 * int64) and the sign written once for the whole number: a second count and
 * a fraction of opposite signs (-1200 and .5 for -1199.5) would be another
 * time. */
static void put_time(csvw *w, int64_t epoch, int64_t us)
{
    char buf[48];
    int64_t t = epoch * 1000000 + us;
    uint64_t mag = t < 0 ? -(uint64_t)t : (uint64_t)t, frac = mag % 1000000;
    int len = snprintf(buf, sizeof buf, "%s%" PRIu64, t < 0 ? "-" : "", mag / 1000000);
    if (frac) {
        len += snprintf(buf + len, sizeof buf - (size_t)len, ".%06" PRIu64, frac);
        while (buf[len - 1] == '0')
            buf[--len] = 0;
    }
    csvw_str(w, buf);
}

static int by_run(const void *a, const void *b, void *ctx)
{
    const struct job *jobs = ctx, *x = &jobs[*(const size_t *)a], *y = &jobs[*(const size_t *)b];
    int c = strcmp(x->name, y->name);
    if (c)
        return c;
    if (x->submit != y->submit)
        return x->submit < y->submit ? -1 : 1;
    return (x->id > y->id) - (x->id < y->id);
}

void google_write_runs(google_trace *g, csvw *w)
{
    static const char *const head[] = {"job", "instance", "submit", "start", "end", "status", NULL};
    size_t *order = xcalloc(g->njobs + 1, sizeof *order), n = 0;
    g->st.jobs = (long)g->njobs;
    for (size_t i = 0; i < g->njobs; i++) {
        const struct job *j = &g->jobs[i];
        if (j->before || j->submit < 0)
            g->st.before_window++;
        else if (j->start < 0)
            g->st.never_started++;
        else if (j->end_type < 0)
            g->st.not_ended++;
        else
            order[n++] = i;
    }
    qsort_r(order, n, sizeof *order, by_run, g->jobs);
    csvw_header(w, head);
    char id[24];
    for (size_t k = 0; k < n; k++) {
        const struct job *j = &g->jobs[order[k]];
        csvw_str(w, j->name);
        snprintf(id, sizeof id, "%" PRId64, j->id);
        csvw_str(w, id);
        put_time(w, g->o.epoch, j->submit);
        put_time(w, g->o.epoch, j->start);
        put_time(w, g->o.epoch, j->end);
        csvw_str(w, end_status[j->end_type]);
        csvw_end(w);
    }
    g->st.runs = (long)n;
    free(order);
}

static int by_task(const void *a, const void *b, void *ctx)
{
    const google_trace *g = ctx;
    const struct task *x = &g->tasks[*(const size_t *)a], *y = &g->tasks[*(const size_t *)b];
    const struct job *jx = &g->jobs[x->jix], *jy = &g->jobs[y->jix];
    if (jx != jy) {
        int s = strcmp(jx->name, jy->name);
        if (s)
            return s;
        if (jx->ustart != jy->ustart)
            return jx->ustart < jy->ustart ? -1 : 1;
        return (jx->id > jy->id) - (jx->id < jy->id);
    }
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return (*(const size_t *)a > *(const size_t *)b) - (*(const size_t *)a < *(const size_t *)b);
}

/* the tasks of complete, named runs, sorted by job name, run start, run, start */
static size_t usage_tasks(google_trace *g, size_t *order)
{
    for (size_t i = 0; i < g->ntasks; i++) /* ustart, uend: kept by task_event */
        if (g->tasks[i].end < 0)
            g->jobs[g->tasks[i].jix].incomplete = 1;
    for (size_t i = 0; i < g->njobs; i++)
        if (g->jobs[i].ustart >= 0 || g->jobs[i].incomplete) {
            g->st.usage_incomplete += g->jobs[i].incomplete;
            g->st.usage_unnamed += !g->jobs[i].incomplete && !g->jobs[i].name;
        }
    size_t n = 0;
    for (size_t i = 0; i < g->ntasks; i++) {
        const struct job *j = &g->jobs[g->tasks[i].jix];
        if (!j->incomplete && j->name)
            order[n++] = i;
    }
    qsort_r(order, n, sizeof *order, by_task, g);
    return n;
}

struct steps {
    double *area;
    size_t cap;
};

/* one run: tasks order[0..n) of job j, sampled every step_us */
static void usage_run(google_trace *g, const struct job *j, const size_t *order, size_t n,
                      struct steps *s, csvw *w)
{
    int64_t step = (int64_t)llround(g->o.step * 1e6);
    size_t ns = (size_t)((j->uend - j->ustart + step - 1) / step);
    if (ns == 0)
        ns = 1;
    if (ns > s->cap) {
        s->cap = ns;
        s->area = xreallocarray(s->area, ns, sizeof *s->area);
    }
    memset(s->area, 0, ns * sizeof *s->area);
    double tot = 0, tcpu = 0, tmem = 0;
    int same_cpu = 1, same_mem = 1; /* every task requests what the first does */
    for (size_t k = 0; k < n; k++) {
        const struct task *t = &g->tasks[order[k]];
        same_cpu &= t->cpu == g->tasks[order[0]].cpu;
        same_mem &= t->mem == g->tasks[order[0]].mem;
        for (int64_t a = t->start; a < t->end;) {
            size_t i = (size_t)((a - j->ustart) / step);
            int64_t b = j->ustart + (int64_t)(i + 1) * step;
            double d = (double)((b < t->end ? b : t->end) - a);
            s->area[i] += d;
            a = b;
        }
        tot += (double)(t->end - t->start);
        tcpu += (double)(t->end - t->start) * t->cpu;
        tmem += (double)(t->end - t->start) * t->mem;
    }
    int sizes = g->o.cores > 0;
    /* a run that requests CPU but no memory, or memory but no CPU (many
     * 2011 tasks ask for 0 CPU), still ran: its container is 0 cores or
     * 0 MB; only one that requests neither has no shape for lcmpack */
    if (sizes && tcpu <= 0 && tmem <= 0) {
        g->st.usage_norequest++;
        return;
    }
    /* the run's container: its tasks' task-seconds-weighted mean request,
     * or their one request exactly when they all ask the same (the mean of
     * equal values may differ from them in its last bits) */
    const struct task *t0 = &g->tasks[order[0]];
    double cores = g->o.cores * (same_cpu ? t0->cpu : tcpu / tot);
    double mem = g->o.mem_mb * (same_mem ? t0->mem : tmem / tot);
    char id[24];
    snprintf(id, sizeof id, "%" PRId64, j->id);
    for (size_t i = 0; i < ns; i++) {
        csvw_str(w, j->name);
        csvw_str(w, id);
        put_time(w, g->o.epoch, j->ustart + (int64_t)i * step);
        csvw_num(w, s->area[i] / (double)step);
        if (sizes) { /* per container: the run's task-seconds-weighted
                      * mean request, one size on every row, as skyfit,
                      * lcmpack and replay model a run (a per-step mean
                      * differed in its last bits from step to step, and
                      * replay refused the run) */
            csvw_num(w, cores);
            csvw_num(w, mem);
        }
        csvw_end(w);
        g->st.usage_rows++;
    }
    g->st.usage_runs++;
}

void google_write_usage(google_trace *g, csvw *w)
{
    static const char *const head[] = {"job", "run", "t", "containers", "cores", "mem_mb", NULL};
    static const char *const head3[] = {"job", "run", "t", "containers", NULL};
    size_t *order = xcalloc(g->ntasks + 1, sizeof *order);
    size_t n = usage_tasks(g, order);
    csvw_header(w, g->o.cores > 0 ? head : head3);
    struct steps s = {0};
    for (size_t k = 0; k < n;) {
        size_t e = k + 1;
        while (e < n && g->tasks[order[e]].jix == g->tasks[order[k]].jix)
            e++;
        usage_run(g, &g->jobs[g->tasks[order[k]].jix], order + k, e - k, &s, w);
        k = e;
    }
    free(s.area);
    free(order);
}

/* replayio — replay(1)'s inputs read into a replay set (see replayio.h). */
#include "morpheus/replayio.h"
#include "base/diag.h"
#include "base/group.h"
#include "base/keyset.h"
#include "morpheus/slo.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const replayio_provisioned_keys[] = {"job", "provisioned", NULL};
const char *const replayio_runs_keys[] = {"instance", "input_avail", "submit", NULL};
const char *const replayio_usage_keys[] = {"job", "run", "t", "containers", "cores", "mem_mb", NULL};

static int job_cmp(const void *a, const void *b)
{
    /* NOLINTNEXTLINE(clang-analyzer-core.NonNullParamChecker): job names are never NULL: the SLO reader refuses a row without its job */
    return strcmp(((const struct replay_job *)a)->name, ((const struct replay_job *)b)->name);
}

static struct replay_job *job_find(const struct replay_set *set, const char *name)
{
    struct replay_job key = {.name = (char *)name};
    return set->njobs ? bsearch(&key, set->jobs, set->njobs, sizeof *set->jobs, job_cmp) : NULL;
}

int replayio_read_slo(struct replayio *io, const char *path, const struct csv_dialect *d)
{
    struct replay_set *set = &io->set;
    struct slo_reqs reqs = {0};
    int st = slo_read_requests(path, d, &reqs);
    for (size_t i = 0; st == SLK_OK && i < reqs.n; i++) {
        const struct slo_req *s = &reqs.v[i];
        if (!s->usable) {
            io->n.unusable++;
            continue;
        }
        struct replay_job j = {.provisioned = NAN, .period = s->period, .a = s->a, .d = s->d};
        j.name = xstrdup(s->job);
        set->jobs = xgrow(set->jobs, &io->jobcap, set->njobs + 1, sizeof *set->jobs);
        set->jobs[set->njobs++] = j;
    }
    slo_reqs_free(&reqs);
    return st;
}

int replayio_read_provisioned(struct replayio *io, const char *path, const struct csv_dialect *d)
{
    int st;
    csvr *r = csvr_open_with(path, d, 0, &st);
    if (!r)
        return st;
    int cj, cp;
    if (csvr_require_cols(r, "job", &cj, "provisioned", &cp, (char *)NULL) < 0) {
        csvr_close(r);
        return SLK_EDATA;
    }
    while (csvr_next(r) > 0) {
        const char *job = csvr_field_required(r, cj, "job");
        double v;
        if (!job) {
            if (csvr_skip(r))
                continue;
            break;
        }
        int bad = csvr_get_double(r, cp, &v, CSVR_REQUIRED | CSVR_NONNEG | CSVR_BOUNDED) < 0;
        if (!bad &&
            v > REPLAYIO_MAX_PROVISIONED) /* beyond any cluster: its container-seconds would overflow */
            bad = csvr_fail_large(r, cp, REPLAYIO_MAX_PROVISIONED) < 0;
        if (bad) {
            if (csvr_skip(r))
                continue;
            break;
        }
        struct replay_job *j = job_find(&io->set, job);
        if (j && !isnan(j->provisioned)) { /* a second row is refused, not taken */
            csvr_fail(r, "job '%s' has a second provisioned row", job);
            if (csvr_skip(r))
                continue;
            break;
        }
        if (j)
            j->provisioned = v;
    }
    st = csvr_status(r);
    csvr_close(r);
    return st;
}

struct replayio_avail {
    char *run;
    double t;
};

static int avail_cmp(const void *a, const void *b)
{
    return strcmp(((const struct replayio_avail *)a)->run, ((const struct replayio_avail *)b)->run);
}

/* By run, then time: an instance listed twice (a retry) keeps its earliest
 * input_avail, whatever the row order (bsearch picked either one). */
static int avail_time_cmp(const void *a, const void *b)
{
    const struct replayio_avail *x = a, *y = b;
    int c = strcmp(x->run, y->run);
    return c ? c : (x->t > y->t) - (x->t < y->t);
}

int replayio_read_runs(struct replayio *io, const char *path, const struct csv_dialect *d)
{
    int st;
    csvr *r = csvr_open_with(path, d, 0, &st);
    if (!r)
        return st;
    /* when the input was available: input_avail, else (a run table without
     * provenance, such as traceconv google-runs') the submit time, as
     * sloinfer takes it */
    int ci, ca = csvr_col(r, "input_avail"), cs = csvr_col(r, "submit");
    if ((cs >= 0 ? csvr_require_cols(r, "instance", &ci, (char *)NULL)
                 : csvr_require_cols(r, "instance", &ci, "input_avail", &ca, (char *)NULL)) < 0) {
        csvr_close(r);
        return SLK_EDATA;
    }
    size_t cap = 0;
    while (csvr_next(r) > 0) {
        const char *id = csvr_field_required(r, ci, "instance");
        double t;
        int got;
        if (!id) {
            if (csvr_skip(r))
                continue;
            break;
        }
        if ((got = ca >= 0 ? csvr_get_time(r, ca, &t, 0) : 0) == 0 && cs >= 0)
            got = csvr_get_time(r, cs, &t, 0);
        if (got < 0) {
            if (csvr_skip(r))
                continue;
            break;
        }
        if (got == 0)
            continue;
        io->avails = xgrow(io->avails, &cap, io->navail + 1, sizeof *io->avails);
        io->avails[io->navail].run = xstrdup(id);
        io->avails[io->navail++].t = t;
    }
    st = csvr_status(r);
    csvr_close(r);
    if (io->navail) {
        qsort(io->avails, io->navail, sizeof *io->avails, avail_time_cmp);
        size_t n = 1;
        for (size_t i = 1; i < io->navail; i++) {
            if (strcmp(io->avails[i].run, io->avails[n - 1].run) == 0)
                free(io->avails[i].run);
            else
                io->avails[n++] = io->avails[i];
        }
        io->navail = n;
    }
    return st;
}

/* when run's input was available (--runs), or NaN */
static double avail_of(const struct replayio *io, const char *run)
{
    struct replayio_avail key = {.run = (char *)run};
    struct replayio_avail *a = io->navail ? bsearch(&key, io->avails, io->navail, sizeof *io->avails, avail_cmp)
                                          : NULL;
    return a ? a->t : NAN;
}

int64_t *replayio_aligned_starts(const struct replayio *io, const plan *p, long *moved)
{
    const struct replay_set *set = &io->set;
    int64_t *st = xcalloc(set->nruns ? set->nruns : 1, sizeof *st);
    double step = set->step;
    *moved = 0;
    for (size_t i = 0; i < set->nruns; i++) {
        const struct replay_run *r = &set->runs[i];
        const struct replay_job *j = &set->jobs[r->job];
        double ps = replay_instance_start(j, r->first);
        int64_t lo = (int64_t)floor((ps + j->a) / step), hi = (int64_t)ceil((ps + j->d) / step);
        int64_t g = replay_reservation_start(p, j->name, lo, hi, step);
        st[i] = r->g0;
        if (g < 0)
            continue;
        double av = avail_of(io, r->run);
        if (isfinite(av) && (int64_t)ceil(av / step - 1e-9) > g)
            g = (int64_t)ceil(av / step - 1e-9);
        st[i] = g;
        if (g != r->g0)
            (*moved)++;
    }
    return st;
}

struct sample {
    double t, c;
    long line; /* the usage row it came from */
};

/* finish_run: the samples sm[0..n) of one run, resampled onto the grid,
 * become a replay_run (runs outside --from/--until only counted).  -1 after
 * a message when the run or the span of all runs is too long. */
static int finish_run(struct replayio *io, csvr *r, const char *run, size_t job, struct sample *sm, size_t n,
                      double cores, double mem, long line)
{
    struct replay_set *set = &io->set;
    io->n.runs_in++;
    double step = set->step;
    double dt = n >= 2 ? sm[n - 1].t - sm[n - 2].t : step;
    double first = sm[0].t, end = sm[n - 1].t + dt;
    if (first < io->o.from || first >= io->o.until) {
        io->n.runs_outside++;
        return 0;
    }
    int64_t g0 = (int64_t)floor(first / step);
    long len = (long)(ceil(end / step - 1e-9) - (double)g0);
    if (len < 1)
        len = 1;
    if (len > REPLAYIO_MAX_RUN_STEPS) {
        /* name the row that crossed the limit: the first whose t lies past
         * it, else the last (its end: its t plus the interval before it) */
        double lim = (double)REPLAYIO_MAX_RUN_STEPS;
        size_t i = 0;
        while (i < n && ceil(sm[i].t / step - 1e-9) - (double)g0 <= lim)
            i++;
        char what[128];
        if (i < n) {
            snprintf(what, sizeof what, "t %.17g lies %.0f steps", sm[i].t,
                     ceil(sm[i].t / step - 1e-9) - (double)g0);
        } else {
            i = n - 1;
            snprintf(what, sizeof what, "t %.17g, held %.17g s as the interval before it, ends %ld steps",
                     sm[i].t, dt, len);
        }
        slk_error_at(
            csvr_path(r), sm[i].line,
            "run '%s': %s of %g s after its first t %.17g (line %ld), more than the %ld steps a run may "
            "span, whatever --max-steps (a bad timestamp, most likely)",
            run, what, step, first, sm[0].line, REPLAYIO_MAX_RUN_STEPS);
        return -1;
    }
    /* The replay visits every step between the first run and the last, so
     * the span, not the number of rows, sets its running time. */
    if (g0 < io->span_lo)
        io->span_lo = g0;
    if (g0 + len > io->span_hi)
        io->span_hi = g0 + len;
    if (io->span_hi - io->span_lo > io->o.max_steps) {
        slk_error_at(csvr_path(r), line,
                     "run '%s': the runs span %lld steps of %g s, more than --max-steps %ld "
                     "(narrow the input with --from/--until, or use a larger --step)",
                     run, (long long)(io->span_hi - io->span_lo), step, io->o.max_steps);
        return -1;
    }
    /* container-seconds first, one division at the end: samples on whole
     * seconds of whole containers give sums that are exact, so a step they
     * fill gives exactly c containers (c * 60/300 added five times is
     * 2.9999999999999996 for c = 3, which replay then counts as over- or
     * under-allocation) */
    double *use = xcalloc((size_t)len, sizeof *use);
    for (size_t i = 0; i < n; i++) {
        double s0 = sm[i].t, s1 = i + 1 < n ? sm[i + 1].t : sm[i].t + dt;
        for (int64_t k = (int64_t)floor(s0 / step); (double)k * step < s1; k++) {
            double lo = fmax(s0, (double)k * step), hi = fmin(s1, (double)(k + 1) * step);
            long kk = (long)(k - g0);
            if (hi > lo && kk >= 0 && kk < len)
                use[kk] += sm[i].c * (hi - lo);
        }
    }
    for (long kk = 0; kk < len; kk++)
        use[kk] /= step;
    set->runs = xgrow(set->runs, &io->runcap, set->nruns + 1, sizeof *set->runs);
    struct replay_run *x = &set->runs[set->nruns++];
    x->run = xstrdup(run);
    x->job = job;
    x->first = first;
    x->end = end;
    x->g0 = g0;
    x->len = len;
    x->use = use;
    x->cores = cores;
    x->mem_mb = mem;
    return 0;
}

/* the usage file's columns */
struct usage_cols {
    int job, run, t, cont, cores, mem; /* cores, mem: -1 without them */
};

/* one usage row */
struct usage_row {
    const char *job, *run;
    double t, c, cores, mem;
};

/* the run being read: its samples so far */
struct cur_run {
    char *run;
    char *jobname;      /* the job its first row names (with or without an SLO) */
    long line;          /* where it starts */
    size_t job;
    int noslo;          /* its job has no usable SLO: counted, not kept */
    double cores, mem;
    struct sample *sm;
    size_t n, cap;
};

/* usage_row_read: the current row's values, checked.  0, or -1 after the
 * message (csvr_fail or a getter's). */
static int usage_row_read(csvr *r, const struct usage_cols *k, const struct replayio_opts *o, struct usage_row *u)
{
    u->job = csvr_field(r, k->job);
    u->run = csvr_field(r, k->run);
    u->cores = o->cont_cores;
    u->mem = o->cont_mem;
    if (!u->job || !u->run)
        return csvr_fail(r, "column '%s': missing value", u->job ? "run" : "job");
    if (csvr_get_time(r, k->t, &u->t, CSVR_REQUIRED) < 0 ||
        csvr_get_double(r, k->cont, &u->c, CSVR_REQUIRED | CSVR_NONNEG) < 0)
        return -1;
    if (k->cores >= 0 && (csvr_get_double(r, k->cores, &u->cores, CSVR_REQUIRED | CSVR_NONNEG) < 0 ||
                          csvr_get_double(r, k->mem, &u->mem, CSVR_REQUIRED | CSVR_NONNEG) < 0))
        return -1;
    if (u->cores == 0 && u->mem == 0)
        return csvr_fail(r, "container of 0 cores and 0 MB");
    if (u->c > 1e8)
        return csvr_fail_large(r, k->cont, 1e8);
    if (fabs(u->t) > 1e11)
        return csvr_fail(r, "column 't': %.17g is out of range (epoch seconds within +-1e11)", u->t);
    return 0;
}

/* usage_row_add: row u continues the current run or starts the next one
 * (finishing the one before).  0; -1 after csvr_fail (the row is bad: it
 * may be skipped); -2 when the finished run was refused (message printed). */
static int usage_row_add(struct replayio *io, csvr *r, group_iter *gt, struct cur_run *cr,
                         const struct usage_row *u)
{
    const struct replay_set *set = &io->set;
    int gc = group_row(gt, r, u->run);
    if (gc == GROUP_ERROR)
        return -1;
    if (gc == 1) {
        if (cr->run && !cr->noslo &&
            finish_run(io, r, cr->run, cr->job, cr->sm, cr->n, cr->cores, cr->mem, cr->line) < 0)
            return -2;
        free(cr->run);
        free(cr->jobname);
        cr->run = xstrdup(u->run);
        cr->jobname = xstrdup(u->job);
        cr->line = csvr_line(r);
        cr->n = 0;
        struct replay_job *j = job_find(set, u->job);
        cr->noslo = !j;
        if (cr->noslo)
            io->n.runs_noslo++;
        cr->job = j ? (size_t)(j - set->jobs) : SIZE_MAX;
        cr->cores = u->cores;
        cr->mem = u->mem;
    } else {
        const struct sample *last = &cr->sm[cr->n - 1];
        /* NOLINTNEXTLINE(clang-analyzer-core.NullDereference,clang-analyzer-core.UndefinedBinaryOperatorResult): a run that continues has at least one sample: cr->n > 0 after its first row */
        if (u->t <= last->t)
            return csvr_fail(r, "run '%s': t %.17g not after the previous %.17g (rows sorted by t)", u->run, u->t,
                             last->t);
        if (u->cores != cr->cores || u->mem != cr->mem)
            return csvr_fail(r, "run '%s': container size changes within the run", u->run);
        /* also when the first job has no SLO: the next job's rows were
         * dropped with the run, silently (audit, session 20) */
        if (strcmp(u->job, cr->jobname) != 0)
            return csvr_fail(r, "run '%s' changes job ('%s', then '%s')", u->run, cr->jobname, u->job);
    }
    cr->sm = xgrow(cr->sm, &cr->cap, cr->n + 1, sizeof *cr->sm);
    cr->sm[cr->n++] = (struct sample){u->t, u->c, csvr_line(r)};
    return 0;
}

int replayio_read_usage(struct replayio *io, const char *path, const struct csv_dialect *d)
{
    int st;
    csvr *r = csvr_open_with(path, d, 0, &st);
    if (!r)
        return st;
    struct usage_cols k = {.cores = csvr_col(r, "cores"), .mem = csvr_col(r, "mem_mb")};
    if (csvr_require_cols(r, "job", &k.job, "run", &k.run, "t", &k.t, "containers", &k.cont, (char *)NULL) <
        0) {
        csvr_close(r);
        return SLK_EDATA;
    }
    if ((k.cores >= 0) != (k.mem >= 0)) {
        slk_error_at(csvr_path(r), 1, "column '%s' without column '%s' (give both or neither)",
                     k.cores >= 0 ? "cores" : "mem_mb", k.cores >= 0 ? "mem_mb" : "cores");
        csvr_close(r);
        return SLK_EDATA;
    }
    group_iter gt;
    group_begin(&gt, "run", GROUP_STRICT);
    struct cur_run cr = {.job = SIZE_MAX};
    st = SLK_OK;
    while (csvr_next(r) > 0) {
        io->n.rows++;
        struct usage_row u;
        int rc = usage_row_read(r, &k, &io->o, &u);
        if (rc == 0)
            rc = usage_row_add(io, r, &gt, &cr, &u);
        if (rc == -1 && csvr_skip(r))
            continue; /* --on-error skip */
        if (rc == -2)
            st = SLK_EDATA;
        if (rc < 0)
            break;
    }
    if (st == SLK_OK)
        st = csvr_status(r);
    if (st == SLK_OK && cr.run && !cr.noslo &&
        finish_run(io, r, cr.run, cr.job, cr.sm, cr.n, cr.cores, cr.mem, cr.line) < 0)
        st = SLK_EDATA;
    free(cr.run);
    free(cr.jobname);
    free(cr.sm);
    group_end(&gt);
    csvr_close(r);
    return st;
}

void replayio_init(struct replayio *io, const struct replayio_opts *o)
{
    memset(io, 0, sizeof *io);
    io->o = *o;
    io->span_lo = INT64_MAX;
    io->span_hi = INT64_MIN;
}

void replayio_free(struct replayio *io)
{
    replay_set_free(&io->set);
    for (size_t i = 0; i < io->navail; i++)
        free(io->avails[i].run);
    free(io->avails);
    io->avails = NULL;
    io->navail = 0;
}

/* ---- output ---- */

void replayio_write_header(csvw *w)
{
    static const char *const cols[] = {"regime", "job", "run", "start", "deadline", "finish", "met",
                                       "over_container_s", "under_container_s", NULL};
    csvw_header(w, cols);
}

void replayio_write_results(csvw *w, const struct replay_set *s, enum replay_regime regime,
                            const struct replay_result *res)
{
    for (size_t k = 0; k < s->nruns; k++) {
        const struct replay_run *r = &s->runs[k];
        csvw_str(w, replay_regime_name(regime));
        csvw_str(w, s->jobs[r->job].name);
        csvw_str(w, r->run);
        csvw_num(w, res[k].start);
        csvw_num(w, res[k].deadline);
        csvw_num(w, res[k].finish);
        csvw_int(w, res[k].met);
        csvw_num(w, res[k].over);
        csvw_num(w, res[k].under);
        csvw_end(w);
    }
}

void replayio_write_summary(csvw *w, const enum replay_regime *regime, const int *idle,
                            const struct replay_totals *tot, int n)
{
    static const char *const sc[] = {"regime", "idle", "runs", "met", "missed", "unfinished", "violation_rate",
                                     "footprint_cores", "footprint_mem_mb", "utilization", "over_container_s",
                                     "under_container_s", "dra_extended", "dra_renewed", "dra_refused", NULL};
    csvw_header(w, sc);
    for (int i = 0; i < n; i++) {
        const struct replay_totals *x = &tot[i];
        csvw_str(w, replay_regime_name(regime[i]));
        csvw_str(w, idle[i] ? "fair" : "none");
        csvw_int(w, x->runs);
        csvw_int(w, x->met);
        csvw_int(w, x->missed);
        csvw_int(w, x->unfinished);
        csvw_num(w, x->runs ? (double)x->missed / (double)x->runs : NAN);
        csvw_num(w, x->peak_cores);
        csvw_num(w, x->peak_mem);
        csvw_num(w, x->reserved_core_s > 0 ? x->used_core_s / x->reserved_core_s : NAN);
        csvw_num(w, x->over);
        csvw_num(w, x->under);
        csvw_int(w, (int64_t)x->dra.extended);
        csvw_int(w, (int64_t)x->dra.renewed);
        csvw_int(w, (int64_t)(x->dra.refused_full + x->dra.refused_nocap + x->dra.refused_rho));
        csvw_end(w);
    }
}

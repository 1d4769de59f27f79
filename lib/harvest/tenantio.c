/* tenantio — tenant series in, feature rows out (see tenantio.h).
 *
 * The layers, bottom up: a message sink (threads keep their messages for the
 * main thread to print in input order), one tenant's samples (tenant_acc)
 * and what happens when its group ends (tenant_done), the checks of one row
 * (row_accept), the grouped scan of one reader (scan_rows), the held scan of
 * -s (scan_held), and the parallel read of one big file (read_ranges). */
#include "harvest/tenantio.h"
#include "base/diag.h"
#include "base/group.h"
#include "base/keyset.h"
#include "base/keytab.h"
#include "base/parse.h"
#include "base/stats.h"
#include "base/zin.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *const tenantio_server_keys[] = {"tenant", "servers", NULL};
const char *const tenantio_series_keys[] = {"tenant", "t", "util", "servers", NULL};

#define THREAD_MIN_BYTES ((long long)32 << 20)

/* a feature table read into a tenant_set: its name in messages, and the
 * keyset row of its first tenant */
struct tenant_table { char *path; size_t first; };

void tenant_set_free(struct tenant_set *ts)
{
    for (size_t i = 0; i < ts->n; i++)
        free(ts->rows[i].tenant);
    free(ts->rows);
    for (size_t i = 0; i < ts->ntables; i++)
        free(ts->tables[i].path);
    free(ts->tables);
    keyset_free(ts->seen);
    memset(ts, 0, sizeof *ts);
}

static void set_add(struct tenant_set *ts, const struct tenant_feat *f)
{
    ts->rows = xgrow(ts->rows, &ts->cap, ts->n + 1, sizeof *ts->rows);
    ts->rows[ts->n++] = *f;
}

static const char *shown(const char *s, char *buf, size_t cap)
{
    if (strlen(s) <= 60)
        return s;
    snprintf(buf, cap, "%.57s...", s);
    return buf;
}

/* A tenant's servers are machines (classpick(1) gives each server the
 * reserve's cores; replplace reads whole servers too): a value that is not a
 * whole number, 2.5, is an error at its row, not a pool of 2.5 machines.
 * 0 on a whole value, else -1 (reported). */
static int servers_whole(csvr *r, int col, double v)
{
    char b[80];
    if (v == floor(v))
        return 0;
    return csvr_fail(r, "column '%s': '%s' is not a whole number of servers", csvr_colname(r, col),
                     shown(csvr_field(r, col), b, sizeof b));
}

/* ---- servers per tenant ------------------------------------------------------ */

/* the rows' servers, indexed by their keyset row (the keytab rule: first row
 * of a tenant kept, a later one is a duplicate) */
struct tenant_servers { keyset *k; double *v; size_t n, cap; };

int tenant_servers_load(const char *path, const struct csv_dialect *d, tenant_servers **out)
{
    int st;
    csvr *r = csvr_open_with(path, d, 0, &st);
    if (!r)
        return st;
    int ct, cs;
    if (csvr_require_cols(r, "tenant", &ct, "servers", &cs, (char *)NULL) < 0) {
        csvr_close(r);
        return SLK_EDATA;
    }
    tenant_servers *t = xcalloc(1, sizeof *t);
    t->k = keyset_new();
    while (csvr_next(r) > 0) {
        double s;
        int bad = csvr_get_double(r, cs, &s, CSVR_REQUIRED | CSVR_NONNEG) < 0;
        if (!bad && s > TENANT_MAX_SERVERS)
            bad = csvr_fail_large(r, cs, TENANT_MAX_SERVERS) < 0;
        if (!bad)
            bad = servers_whole(r, cs, s) < 0;
        if (bad || !keytab_row(t->k, r, ct)) {
            if (csvr_skip(r))
                continue;
            break;
        }
        t->v = xgrow(t->v, &t->cap, t->n + 1, sizeof *t->v);
        t->v[t->n++] = s;
    }
    st = csvr_status(r);
    csvr_close(r);
    if (st) {
        tenant_servers_free(t);
        return st;
    }
    *out = t;
    return SLK_OK;
}

double tenant_servers_lookup(const tenant_servers *t, const char *tenant)
{
    long row = t && t->n && tenant ? keyset_row(t->k, tenant) : -1;
    return row >= 0 ? t->v[row] : -1;
}

void tenant_servers_free(tenant_servers *t)
{
    if (!t)
        return;
    keyset_free(t->k);
    free(t->v);
    free(t);
}

/* ---- the feature table ------------------------------------------------------- */

const char *const tenantio_feature_header[] = {"tenant", "servers", "steps", "missing", "avg", "peak", "sd",
                                               "sd_low", "strength", "period", "repeat", "pattern", NULL};

/* numbers in the feature table are always shortest-exact, so the clustering
 * phase sees the same doubles as a single process would */
static void put_exact(csvw *w, double v)
{
    char b[48];
    int n = csv_format_double(b, v, -1);
    csvw_strn(w, b, (size_t)n);
}

void tenantio_write_feature(csvw *w, const struct tenant_feat *f, int percent)
{
    double s = percent ? 100 : 1;
    csvw_str(w, f->tenant);
    put_exact(w, f->servers);
    csvw_int(w, f->steps);
    csvw_int(w, f->missing);
    put_exact(w, f->pf.avg * s);
    put_exact(w, f->pf.peak * s);
    put_exact(w, f->pf.sd * s);
    put_exact(w, f->pf.sd_low * s);
    put_exact(w, f->pf.strength);
    put_exact(w, f->pf.period);
    csvw_num_prec(w, f->pf.repeat, -1); /* may be negative */
    csvw_str(w, pattern_name(f->pf.pattern));
    csvw_end(w);
}

void tenantio_feature_scaled(struct tenant_feat *f, int percent)
{
    if (!percent)
        return;
    /* the operations of tenantio_write_feature and feature_row: written as
     * x * 100 (exactly), read back and divided by 100 */
    double *v[] = {&f->pf.avg, &f->pf.peak, &f->pf.sd, &f->pf.sd_low};
    for (size_t i = 0; i < sizeof v / sizeof *v; i++)
        *v[i] = *v[i] * 100 / 100;
}

/* one feature row into f (tenant not yet copied); -1 on a bad row */
static int feature_row(csvr *r, const int *c, const struct tenantio_opts *o, struct tenant_feat *f)
{
    const char *pn = csvr_field(r, c[11]);
    if (!csvr_field_required(r, c[0], "tenant"))
        return -1;
    if ((f->pf.pattern = pattern_from_name(pn)) < 0)
        return csvr_fail(r, "column 'pattern': '%s' is not periodic, constant or unpredictable", pn ? pn : "");
    int64_t steps, miss;
    double v[7];
    if (csvr_get_double(r, c[1], &f->servers, CSVR_REQUIRED | CSVR_NONNEG) < 0 ||
        csvr_get_int64(r, c[2], &steps, CSVR_REQUIRED | CSVR_NONNEG) < 0 ||
        csvr_get_int64(r, c[3], &miss, CSVR_REQUIRED | CSVR_NONNEG) < 0)
        return -1;
    if (f->servers > TENANT_MAX_SERVERS)
        return csvr_fail_large(r, c[1], TENANT_MAX_SERVERS);
    if (servers_whole(r, c[1], f->servers) < 0)
        return -1;
    for (int i = 0; i < 7; i++)
        if (csvr_get_double(r, c[4 + i], &v[i], CSVR_REQUIRED | (i < 6 ? CSVR_NONNEG : 0)) < 0)
            return -1;
    double div = o->percent ? 100 : 1;
    if (v[0] > div || v[1] > div)
        return csvr_fail(r, "avg or peak above %s (was the table written with another --scale?)",
                         o->percent ? "100" : "1");
    /* the rest of a feature row is bounded too (a standard deviation of
     * values in [0, div], a share, a correlation), with room for rounding:
     * a strength of 1e308 was written back as the tenant's */
    if (v[2] > div || v[3] > div)
        return csvr_fail(r, "sd or sd_low above %s (was the table written with another --scale?)",
                         o->percent ? "100" : "1");
    if (v[4] > 1 + 1e-9)
        return csvr_fail(r, "column 'strength': %g is not a share of the variance (0 to 1)", v[4]);
    if (v[6] < -1 - 1e-9 || v[6] > 1 + 1e-9)
        return csvr_fail(r, "column 'repeat': %g is not a correlation (-1 to 1)", v[6]);
    f->steps = (long)steps;
    f->missing = (long)miss;
    f->pf.avg = v[0] / div;
    f->pf.peak = v[1] / div;
    f->pf.sd = v[2] / div;
    f->pf.sd_low = v[3] / div;
    f->pf.strength = v[4];
    f->pf.period = v[5];
    f->pf.repeat = v[6];
    return 0;
}

/* The tenant in column col of a feature row, added to ts->seen; -1 after
 * csvr_fail when it was read before (in this table or an earlier one). */
static int feature_key(struct tenant_set *ts, csvr *r, int col)
{
    const char *t = csvr_field(r, col);
    long first;
    if (keyset_put(ts->seen, t, csvr_line(r), &first) >= 0)
        return 0;
    long row = keyset_row(ts->seen, t);
    size_t k = ts->ntables - 1;
    while (k > 0 && (long)ts->tables[k].first > row)
        k--;
    if (k == ts->ntables - 1)
        return csvr_fail(r, "duplicate tenant '%s' (first at line %ld)", t, first);
    return csvr_fail(r, "duplicate tenant '%s' (first at %s:%ld)", t, ts->tables[k].path, first);
}

/* feature_cols: the columns of a feature table (tenantio_feature_header)
 * into c.  The table is tenantclass's own output, with its own names, so a
 * --col rename meant for the series (tenant=vm, given again with the
 * options of the --features-only run) falls back to the written name when
 * the table has no renamed column; the columns that have neither are
 * reported together, as csvr_require_list does.  0, or -1 (reported). */
static int feature_cols(csvr *r, int *c)
{
    const char *missing[12];
    int nm = 0, mc[12];
    for (int i = 0; tenantio_feature_header[i]; i++) {
        const char *name = tenantio_feature_header[i];
        c[i] = csvr_col(r, name);
        for (int k = 0; c[i] < 0 && k < csvr_ncols(r); k++)
            if (strcmp(csvr_colname(r, k), name) == 0)
                c[i] = k;
        if (c[i] < 0)
            missing[nm++] = name;
    }
    return nm ? csvr_require_list(r, missing, mc, nm) : 0;
}

int tenantio_read_features(const char *path, const struct tenantio_opts *o, struct tenant_set *ts)
{
    int st;
    /* --features-only writes the header even for a shard of no tenants, so
     * a table of no bytes is a shard whose run died: refused, not read as
     * no tenants */
    csvr *r = csvr_open_with(path, o->dialect, 0, &st);
    if (!r)
        return st;
    int c[12];
    if (feature_cols(r, c) < 0) {
        csvr_close(r);
        return SLK_EDATA;
    }
    if (!ts->seen)
        ts->seen = keyset_new();
    ts->tables = xgrow(ts->tables, &ts->cap_tables, ts->ntables + 1, sizeof *ts->tables);
    ts->tables[ts->ntables++] = (struct tenant_table){xstrdup(csvr_path(r)), keyset_size(ts->seen)};
    while (csvr_next(r) > 0) {
        struct tenant_feat f = {0};
        if (feature_row(r, c, o, &f) < 0 || feature_key(ts, r, c[0]) < 0) {
            if (csvr_skip(r))
                continue;
            break;
        }
        if ((long long)ts->n >= o->max_tenants) {
            csvr_fail(r, "more than %lld tenants (--max-tenants)", o->max_tenants);
            break;
        }
        const char *t = csvr_field(r, c[0]);
        double sv = tenant_servers_lookup(o->servers, t);
        if (sv >= 0)
            f.servers = sv;
        else if (o->servers && o->servers->n) /* it keeps the table's servers */
            ts->unlisted++;
        f.tenant = xstrdup(t);
        set_add(ts, &f);
    }
    st = csvr_status(r);
    csvr_close(r);
    return st;
}

/* ---- messages ------------------------------------------------------------------
 * Worker threads cannot print as they go (a later range's warning would come
 * before an earlier one's, and lines are only known relative to the range),
 * so a sink either prints at once (one reader) or keeps the messages for the
 * main thread to print in input order. */

struct msg { long line; int warn; char *text; };

struct msgsink {
    int buffer;
    long line_base;   /* lines before the first line of the range */
    const char *name;
    struct slk_many *many; /* the warnings (skipped tenants): the first few printed */
    struct msg *m;
    size_t n, cap;
};

static void sink_say(const struct msgsink *k, int warn, long line, const char *text)
{
    long abs_line = line > 0 ? k->line_base + line : line;
    if (warn && k->many)
        slk_warn_many(k->many, k->name, abs_line, "%s", text);
    else if (warn)
        slk_warn_at(k->name, abs_line, "%s", text);
    else
        slk_error_at(k->name, abs_line, "%s", text);
}

static void sink_put(struct msgsink *k, int warn, long line, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void sink_put(struct msgsink *k, int warn, long line, const char *fmt, ...)
{
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    if (!k->buffer) {
        sink_say(k, warn, line, text);
        return;
    }
    k->m = xgrow(k->m, &k->cap, k->n + 1, sizeof *k->m);
    k->m[k->n++] = (struct msg){line, warn, xstrdup(text)};
}

/* csvio's errors of a range reader */
static void sink_csv(void *ctx, long line, const char *message) { sink_put(ctx, 0, line, "%s", message); }

/* print the kept messages before line `upto` (0: all) if print, free them all */
static void sink_flush(struct msgsink *k, int print, long upto)
{
    for (size_t i = 0; i < k->n; i++) {
        if (print && (upto == 0 || k->m[i].line < upto))
            sink_say(k, k->m[i].warn, k->m[i].line, k->m[i].text);
        free(k->m[i].text);
    }
    free(k->m);
    k->m = NULL;
    k->n = k->cap = 0;
}

/* ---- one tenant ----------------------------------------------------------------- */

/* the samples of the tenant being read, and the scratch of its classification */
struct tenant_acc {
    fft_cache *fc;
    pattern_ws ws;
    double *t, *u;
    size_t n, cap_t, cap_u;
    char *name;
    double servers;
    int have_servers; /* servers taken from the tenant's first good row */
    long line;        /* where the tenant starts */
    double tmin, tmax; /* its time span so far */
};

/* acc_span_steps: the steps of `step` the tenant's samples span so far
 * (from the step holding its first time to its last). */
static double acc_span_steps(const struct tenant_acc *a, double step)
{
    return floor((a->tmax - floor(a->tmin / step) * step) / step) + 1;
}

/* acc_add: keep sample (t, u) of the tenant.  Returns 0, or -1 when its span
 * now passes PATTERN_MAX_STEPS steps of `step` (the grid pattern_resample
 * would refuse): the caller reports it at this sample's row (span_error),
 * not at the tenant's first line, and stops before holding more. */
static int acc_add(struct tenant_acc *a, double t, double u, double step)
{
    if (a->n == a->cap_t) {
        a->t = xgrow(a->t, &a->cap_t, a->n + 1, sizeof *a->t);
        a->u = xgrow(a->u, &a->cap_u, a->n + 1, sizeof *a->u);
    }
    if (a->n == 0 || t < a->tmin)
        a->tmin = t;
    if (a->n == 0 || t > a->tmax)
        a->tmax = t;
    a->t[a->n] = t;
    a->u[a->n++] = u;
    return acc_span_steps(a, step) > PATTERN_MAX_STEPS ? -1 : 0;
}

static void acc_free(struct tenant_acc *a)
{
    fft_cache_free(a->fc);
    pattern_ws_free(&a->ws);
    free(a->t);
    free(a->u);
    free(a->name);
}

/* What a reader needs and makes, one per range. */
struct scan {
    const struct tenantio_opts *o;
    csvr *r;
    int ct, ctime, cu, cs;     /* columns */
    struct tenant_set rs;
    struct msgsink sink;
    csvw *fw;                  /* features written at once (one reader only) */
    int progress;
    int keep_keys;             /* record each group's key and line (several readers) */
    char **key;
    long *key_line;
    size_t nkey, cap_key, cap_key_line;
    struct tenant_acc a;
};

/* scan_sort: where the tenant column is, for the "not grouped" message */
static struct group_sort scan_sort(const struct scan *s, const char *file)
{
    const struct csv_dialect *d = s->o->dialect;
    return (struct group_sort){file, s->ct + 1, d && d->delim ? d->delim : ',', !(d && d->no_header)};
}

/* The median interval between a tenant's distinct sample times t[0..n) (in
 * any order) when they are regular: at least half of the intervals within
 * 10% of the median.  0 when they are not, or there are fewer than two.
 * Only for a tenant skipped for gaps: the scratch is the classification's
 * (ws->cnt), unused then. */
static double median_interval(pattern_ws *ws, const double *t, size_t n)
{
    if (n < 2)
        return 0;
    ws->cnt = xgrow(ws->cnt, &ws->cap_cnt, n, sizeof *ws->cnt);
    double *d = ws->cnt;
    memcpy(d, t, n * sizeof *t);
    stats_sort(d, n);
    size_t m = 0;
    for (size_t i = 1; i < n; i++)
        if (d[i] > d[i - 1])
            d[m++] = d[i] - d[i - 1]; /* m < i: the times not read yet are intact */
    if (m == 0)
        return 0;
    double med = stats_median(d, m);
    size_t near = 0;
    for (size_t i = 0; i < m; i++)
        near += fabs(d[i] - med) <= 0.1 * med;
    return 2 * near >= m ? med : 0;
}

/* sec (rounded to whole seconds) as a --step value: 5m, 1h, 1d, 90s */
static void duration_text(char *b, size_t cap, double sec)
{
    long long s = llround(sec);
    if (s % 86400 == 0)
        snprintf(b, cap, "%lldd", s / 86400);
    else if (s % 3600 == 0)
        snprintf(b, cap, "%lldh", s / 3600);
    else if (s % 60 == 0)
        snprintf(b, cap, "%lldm", s / 60);
    else
        snprintf(b, cap, "%llds", s);
}

/* The tenant in s->a is complete: classify it, and either write its feature
 * row (features-only) or keep it.  Skipped tenants are warned about. */
static int tenant_done(struct scan *s)
{
    const struct tenantio_opts *o = s->o;
    struct tenant_acc *a = &s->a;
    struct tenant_set *rs = &s->rs;
    if (!s->fw && (long long)rs->n >= o->max_tenants) { /* before the work: the limit is on memory */
        sink_put(&s->sink, 0, a->line, "more than %lld tenants (--max-tenants)", o->max_tenants);
        return SLK_EDATA;
    }
    if (a->n == 0) {
        sink_put(&s->sink, 1, a->line, "tenant '%s' has no util values; skipped", a->name);
        rs->skipped_gaps++;
        return 0;
    }
    size_t nb;
    long missing;
    /* the steps and gaps first: a tenant too sparse to classify is turned
     * down without a grid the size of its span */
    if (pattern_gaps(&a->ws, a->t, a->n, o->rules.step, &nb, &missing) < 0) {
        sink_put(&s->sink, 0, a->line, "tenant '%s' spans %zu steps of %g s (more than 50 million); use a larger --step",
                 a->name, nb, o->rules.step);
        return SLK_EDATA;
    }
    if ((long)nb < o->min_samples) {
        sink_put(&s->sink, 1, a->line, "tenant '%s': %zu steps after resampling, fewer than --min-samples %ld; skipped",
                 a->name, nb, o->min_samples);
        rs->skipped_short++;
        return 0;
    }
    if ((double)missing > o->max_missing * (double)nb) {
        char hint[128] = "";
        double dt = median_interval(&a->ws, a->t, a->n);
        if (dt > o->rules.step) { /* regular samples further apart than the step: the step is the cause */
            char d[32];
            duration_text(d, sizeof d, dt);
            snprintf(hint, sizeof hint, " (its samples are %g s apart: give --step %s?)", dt, d);
            rs->skipped_sparse++;
        }
        sink_put(&s->sink, 1, a->line,
                 "tenant '%s': %ld of %zu steps are gaps (more than --max-missing %g); skipped%s", a->name,
                 missing, nb, o->max_missing, hint);
        rs->skipped_gaps++;
        return 0;
    }
    double *x = pattern_resample(&a->ws, a->t, a->u, a->n, o->rules.step, &nb, &missing);
    struct tenant_feat f = {.servers = a->servers, .steps = (long)nb, .missing = missing};
    if (pattern_classify(a->fc, &a->ws, x, nb, &o->rules, &f.pf) < 0) {
        sink_put(&s->sink, 0, 0, "fftw could not plan a transform of length %zu", nb);
        return SLK_ESOFTWARE;
    }
    rs->classified[f.pf.pattern]++;
    if (s->fw) {
        f.tenant = a->name;
        tenantio_write_feature(s->fw, &f, o->percent);
    } else {
        f.tenant = xstrdup(a->name);
        set_add(rs, &f);
    }
    return 0;
}

/* The tenant's sample at line (time t) made its span too long (acc_add). */
static int span_error(struct scan *s, long line, double t)
{
    const struct tenant_acc *a = &s->a;
    double step = s->o->rules.step;
    double nd = acc_span_steps(a, step);
    sink_put(&s->sink, 0, line,
             "tenant '%s': t %.15g makes it span %.0f steps of %g s (more than 50 million, from t %.15g to %.15g); "
             "use a larger --step", a->name, t, nd, step, a->tmin, a->tmax);
    return SLK_EDATA;
}

/* Start tenant `name` at line (the previous one, if any, is complete). */
static int tenant_begin(struct scan *s, const char *name, long line)
{
    struct tenant_acc *a = &s->a;
    if (a->name) {
        int st = tenant_done(s);
        free(a->name);
        a->name = NULL;
        if (st)
            return st;
    }
    a->name = xstrdup(name);
    a->line = line;
    a->n = 0;
    a->servers = 1;
    a->have_servers = 0;
    if (s->keep_keys) {
        s->key = xgrow(s->key, &s->cap_key, s->nkey + 1, sizeof *s->key);
        s->key_line = xgrow(s->key_line, &s->cap_key_line, s->nkey + 1, sizeof *s->key_line);
        s->key[s->nkey] = xstrdup(name);
        s->key_line[s->nkey++] = line;
    }
    if (s->progress)
        slk_progress("tenants", s->rs.n + 1, 0);
    return SLK_OK;
}

/* ---- one row ---------------------------------------------------------------------- */

/* The servers of a tenant, from its first good row: --servers, else the
 * row's servers column, else 1. */
static int row_servers(struct scan *s, const char *tenant, double *servers)
{
    char b[80];
    double sv = tenant_servers_lookup(s->o->servers, tenant);
    const char *f = s->cs >= 0 ? csvr_field(s->r, s->cs) : NULL;
    const char *name = csvr_colname(s->r, s->cs);
    *servers = 1;
    if (sv >= 0) {
        *servers = sv;
    } else if (f) {
        if (parse_double(f, servers, 0) < 0)
            return csvr_fail(s->r, "column '%s': invalid number '%s'", name, shown(f, b, sizeof b));
        if (*servers < 0)
            return csvr_fail(s->r, "column '%s': must not be negative, got '%s'", name, shown(f, b, sizeof b));
        if (*servers > TENANT_MAX_SERVERS)
            return csvr_fail(s->r, "column '%s': '%s' is too large (at most %g)", name, shown(f, b, sizeof b),
                             (double)TENANT_MAX_SERVERS);
        if (servers_whole(s->r, s->cs, *servers) < 0)
            return -1;
    }
    return 0;
}

/* a tenant --servers does not list, at its first row: counted in unlisted,
 * and in unlisted_one when its servers default to 1 (the row has no
 * servers value to take instead) */
static void count_unlisted(struct scan *s, const char *tenant)
{
    if (!s->o->servers || !s->o->servers->n || tenant_servers_lookup(s->o->servers, tenant) >= 0)
        return;
    s->rs.unlisted++;
    s->rs.unlisted_one += !(s->cs >= 0 && csvr_field(s->r, s->cs));
}

/* The checks of one row (fields f): 1 a sample (*t, *u in 0-1), 0 a gap
 * (no util), -1 a bad row (csvr_fail called: the caller skips it or stops).
 * With first, the tenant's servers are read too (*servers). */
static int row_accept(struct scan *s, const char *const *f, int first, double *servers, double *t, double *u)
{
    csvr *r = s->r;
    char b[80];
    if (first && row_servers(s, f[s->ct], servers) < 0)
        return -1;
    const char *fu = f[s->cu];
    /* csvio's time getter: --time-unit, and |t| <= 1e11 refused at this row
     * (2^63 was taken and reported later as a span of 7.7e16 steps) */
    if (csvr_get_time(r, s->ctime, t, CSVR_REQUIRED) < 0)
        return -1;
    if (!fu) /* an empty util is a gap */
        return 0;
    double umax = s->o->percent ? 100 : 1;
    const char *nu = csvr_colname(r, s->cu);
    if (parse_double(fu, u, 0) < 0)
        return csvr_fail(r, "column '%s': invalid number '%s'", nu, shown(fu, b, sizeof b));
    if (*u < 0)
        return csvr_fail(r, "column '%s': must not be negative, got '%s'", nu, shown(fu, b, sizeof b));
    if (*u > umax)
        return csvr_fail(r, "column '%s': %s is above %g%s", nu, shown(fu, b, sizeof b), umax,
                         s->o->percent ? "" : " (for 0-100 data use --scale percent)");
    if (s->o->percent)
        *u /= 100;
    return 1;
}

/* a plain byte loop: glibc's vector strcmp costs more per call than these
 * short tenant names take to compare, and this runs once per row */
static int same_str(const char *a, const char *b)
{
    while (*a && *a == *b)
        a++, b++;
    return *a == *b;
}

/* ---- the grouped scan ------------------------------------------------------------- */

/* Classify every tenant of the reader's rows (grouped by tenant). */
static int scan_rows(struct scan *s)
{
    csvr *r = s->r;
    group_tracker g;
    group_init(&g);
    int st = SLK_OK;
    while (csvr_next(r) > 0) {
        const char *const *f = csvr_row(r);
        const char *tenant = csvr_field_required(r, s->ct, "tenant");
        if (!tenant) {
            if (csvr_skip(r))
                continue;
            break;
        }
        if (!s->a.name || !same_str(s->a.name, tenant)) {
            if (group_check(&g, tenant) < 0) {
                char msg[GROUP_MSG_MAX];
                struct group_sort how = scan_sort(s, csvr_path(r));
                group_message(msg, sizeof msg, "tenant", tenant, s->a.name ? s->a.name : "", GROUP_SORTABLE,
                              &how);
                sink_put(&s->sink, 0, csvr_line(r), "%s", msg);
                st = SLK_EDATA;
                break;
            }
            if ((st = tenant_begin(s, tenant, csvr_line(r))) != SLK_OK)
                break;
        }
        double servers, t, u;
        int k = row_accept(s, f, !s->a.have_servers, &servers, &t, &u);
        if (k < 0) {
            if (csvr_skip(r))
                continue;
            break;
        }
        if (!s->a.have_servers) {
            s->a.servers = servers;
            s->a.have_servers = 1;
            count_unlisted(s, tenant);
        }
        if (k == 0) {
            s->rs.missing_util++;
            continue;
        }
        s->rs.samples++;
        /* NOLINTNEXTLINE(clang-analyzer-core.CallAndMessage): row_accept sets t and u whenever it returns 1 (k == 0 continues above) */
        if (acc_add(&s->a, t, u, s->o->rules.step) < 0) {
            st = span_error(s, csvr_line(r), t);
            break;
        }
    }
    if (!st)
        st = csvr_status(r);
    if (!st && s->a.name)
        st = tenant_done(s);
    group_free(&g);
    return st;
}

/* ---- the held scan (-s) ----------------------------------------------------------- */

/* One held row of -s (lib/base/group's group_held keeps its tenant, line
 * and input order). */
struct held_row {
    double t, u;      /* u NaN: a gap */
    double servers;   /* the tenant's first good row only; else NaN */
};

/* Hold every good row, group them by tenant (group_held: a stable sort by
 * name), then classify the tenants as a grouped scan would. */
static int scan_held(struct scan *s)
{
    csvr *r = s->r;
    keyset *seen = keyset_new();
    group_held *h = group_held_new(sizeof(struct held_row));
    while (csvr_next(r) > 0) {
        const char *const *f = csvr_row(r);
        const char *tenant = csvr_field_required(r, s->ct, "tenant");
        if (!tenant) {
            if (csvr_skip(r))
                continue;
            break;
        }
        int first = !keyset_has(seen, tenant);
        double servers = NAN, t, u = NAN;
        int k = row_accept(s, f, first, &servers, &t, &u);
        if (k < 0) {
            if (csvr_skip(r))
                continue;
            break;
        }
        if (first) {
            keyset_add(seen, tenant);
            count_unlisted(s, tenant);
        }
        group_held_add(h, tenant, 0, csvr_line(r), &(struct held_row){t, k ? u : NAN, servers});
    }
    keyset_free(seen);
    int st = csvr_status(r);
    size_t n = group_held_sort(h);
    const char *prev = NULL;
    for (size_t i = 0; i < n && !st; i++) {
        const char *tenant;
        long line;
        const struct held_row *v = group_held_row(h, i, &tenant, &line);
        if (!prev || strcmp(tenant, prev) != 0) {
            if ((st = tenant_begin(s, tenant, line)) != SLK_OK)
                break;
            s->a.servers = v->servers;
            prev = tenant;
        }
        if (isnan(v->u)) {
            s->rs.missing_util++;
            continue;
        }
        s->rs.samples++;
        if (acc_add(&s->a, v->t, v->u, s->o->rules.step) < 0) {
            st = span_error(s, line, v->t);
            break;
        }
    }
    if (!st && s->a.name)
        st = tenant_done(s);
    group_held_free(h);
    return st;
}

/* ---- several readers over one big file --------------------------------------------- */

/* One reader over the byte range [start, end) of the input. */
struct worker {
    struct scan s;
    const char *path;
    long long start, end;
    const csvr *like; /* NULL for the first range, which holds the header */
    int st;
};

static void *worker_main(void *arg)
{
    struct worker *w = arg;
    struct csvr_range rg = {w->start, w->end, w->like, sink_csv, &w->s.sink};
    w->s.r = csvr_open_range(w->path, w->s.o->dialect, &rg, &w->st);
    if (w->s.r)
        w->st = scan_rows(&w->s);
    return NULL;
}

/* The start of the first line after the one at `from` whose tenant differs
 * from the line before it: a place to cut the input between two tenants.
 * Returns -1 when there is none before `end` (or the lines do not parse:
 * then the readers will report them). */
static long long tenant_boundary(const char *path, const struct scan *h, long long from, long long end)
{
    long long first = csvr_line_start(path, from, 2); /* skip the line `from` falls in */
    if (first < 0 || from + first >= end)
        return -1;
    from += first;
    struct msgsink quiet = {.buffer = 1, .name = path};
    struct csvr_range rg = {from, end, h->r, sink_csv, &quiet};
    int st;
    csvr *r = csvr_open_range(path, h->o->dialect, &rg, &st);
    long long cut = -1;
    char *prev = NULL;
    while (r && csvr_next(r) > 0) {
        const char *t = csvr_field(r, h->ct);
        if (!t)
            break;
        if (prev && strcmp(prev, t) != 0) {
            long long at = csvr_line_start(path, from, csvr_line(r));
            cut = at < 0 ? -1 : from + at;
            break;
        }
        if (!prev)
            prev = xstrdup(t);
    }
    free(prev);
    csvr_close(r);
    sink_flush(&quiet, 0, 0);
    return cut;
}

/* Cut [0, size) into at most nth ranges between tenants: cut[0..nr]. */
static int cut_ranges(const char *path, const struct scan *h, long long size, int nth, long long *cut)
{
    int nr = 1;
    cut[0] = 0;
    for (int i = 1; i < nth; i++) {
        long long from = size / nth * i;
        if (from <= cut[nr - 1])
            continue;
        long long c = tenant_boundary(path, h, from, size);
        if (c > cut[nr - 1])
            cut[nr++] = c;
    }
    cut[nr] = size;
    return nr;
}

/* Merge worker w's rows into rs (or write them to fw) after the ranges
 * before it; st is the status so far; *last is the last key of the ranges
 * before (updated).  A key already seen in an earlier range means ungrouped
 * input: the error a single reader would give. */
static int merge_range(struct worker *w, keyset *seen, char **last, long *base, struct tenant_set *rs, csvw *fw,
                       int st)
{
    struct scan *s = &w->s;
    struct tenant_set *r = &s->rs;
    s->sink.line_base = *base;
    long dup_line = 0;
    const char *dup = NULL, *prev = *last ? *last : "";
    for (size_t j = 0; j < s->nkey && st == SLK_OK && !dup; j++)
        if (keyset_has(seen, s->key[j])) {
            dup = s->key[j];
            dup_line = s->key_line[j];
            prev = j ? s->key[j - 1] : prev;
        }
    /* the group a single reader refuses for --max-tenants (each reader kept
     * at most the limit; together they may pass it): the first that comes
     * with the limit reached, kept or not (r's rows are the kept groups, in
     * group order), as tenant_done refuses it */
    size_t lim = SIZE_MAX;
    long long kept = (long long)rs->n;
    for (size_t q = 0, j = 0; q < s->nkey && st == SLK_OK && !dup && !fw; q++) {
        if (kept >= s->o->max_tenants) {
            lim = q;
            break;
        }
        /* NOLINTNEXTLINE(clang-analyzer-core.NonNullParamChecker): key[q] is set for every one of the nkey groups scanned */
        if (j < r->n && r->rows[j].tenant && strcmp(s->key[q], r->rows[j].tenant) == 0)
            j++, kept++;
    }
    if (dup) { /* a single reader would have stopped there */
        char msg[GROUP_MSG_MAX];
        sink_flush(&s->sink, 1, dup_line);
        struct group_sort how = scan_sort(s, s->sink.name);
        group_message(msg, sizeof msg, "tenant", dup, prev, GROUP_SORTABLE, &how);
        slk_error_at(s->sink.name, *base + dup_line, "%s", msg);
        st = SLK_EDATA;
    } else if (lim != SIZE_MAX) {
        sink_flush(&s->sink, 1, s->key_line[lim]);
        slk_error_at(s->sink.name, *base + s->key_line[lim], "more than %lld tenants (--max-tenants)",
                     s->o->max_tenants);
        st = SLK_EDATA;
    } else {
        sink_flush(&s->sink, st == SLK_OK, 0);
    }
    for (size_t j = 0; j < s->nkey; j++)
        if (st == SLK_OK)
            keyset_add(seen, s->key[j]);
    *base += s->r ? csvr_lines(s->r) : 0;
    if (st == SLK_OK)
        st = w->st;
    if (st == SLK_OK) {
        rs->skipped_gaps += r->skipped_gaps;
        rs->skipped_short += r->skipped_short;
        rs->skipped_sparse += r->skipped_sparse;
        for (int p = 0; p < PATTERN_N; p++)
            rs->classified[p] += r->classified[p];
        rs->unlisted += r->unlisted;
        rs->unlisted_one += r->unlisted_one;
        rs->missing_util += r->missing_util;
        rs->samples += r->samples;
    }
    for (size_t j = 0; j < r->n && st == SLK_OK; j++) {
        if (fw) {
            tenantio_write_feature(fw, &r->rows[j], s->o->percent);
        } else {
            set_add(rs, &r->rows[j]);
            r->rows[j].tenant = NULL;
        }
    }
    return st;
}

static void scan_free(struct scan *s)
{
    for (size_t j = 0; j < s->nkey; j++)
        free(s->key[j]);
    free(s->key);
    free(s->key_line);
    sink_flush(&s->sink, 0, 0);
    tenant_set_free(&s->rs);
    acc_free(&s->a);
    csvr_close(s->r);
}

/* Read ranges cut[0..nr] of path with one thread each and merge them in
 * input order. */
static int read_ranges(const char *path, const struct scan *h, const long long *cut, int nr,
                       struct tenant_set *rs, csvw *fw)
{
    struct worker *w = xcalloc((size_t)nr, sizeof *w);
    pthread_t *tid = xcalloc((size_t)nr, sizeof *tid);
    char *started = xcalloc((size_t)nr, 1);
    for (int i = 0; i < nr; i++) {
        w[i] = (struct worker){.path = path, .start = cut[i], .end = cut[i + 1], .like = i ? h->r : NULL};
        w[i].s = (struct scan){.o = h->o, .ct = h->ct, .ctime = h->ctime, .cu = h->cu, .cs = h->cs, .keep_keys = 1};
        w[i].s.sink = (struct msgsink){.buffer = 1, .name = path, .many = &rs->warned};
        w[i].s.a.fc = fft_cache_new();
        if (pthread_create(&tid[i], NULL, worker_main, &w[i]) == 0)
            started[i] = 1;
        else
            worker_main(&w[i]); /* no thread to be had: read the range here */
    }
    for (int i = 0; i < nr; i++)
        if (started[i])
            pthread_join(tid[i], NULL);
    /* ranges are cut between groups, so a key in two ranges is ungrouped input */
    keyset *seen = keyset_new();
    char *last = NULL;
    long base = 0;
    int st = SLK_OK;
    for (int i = 0; i < nr; i++) {
        st = merge_range(&w[i], seen, &last, &base, rs, fw, st);
        if (w[i].s.nkey) {
            free(last);
            last = xstrdup(w[i].s.key[w[i].s.nkey - 1]);
        }
        scan_free(&w[i].s);
    }
    free(last);
    keyset_free(seen);
    free(w);
    free(tid);
    free(started);
    return st;
}

/* ---- the series reader ------------------------------------------------------------ */

int tenantio_readers(const char *path, const struct tenantio_opts *o)
{
    int nth = o->threads;
    if (nth == 0) {
        long c = sysconf(_SC_NPROCESSORS_ONLN);
        nth = c < 1 ? 1 : c > 8 ? 8 : (int)c;
    }
    struct stat fst;
    if (nth <= 1 || o->sort || (o->dialect && o->dialect->rejects) || !path || strcmp(path, "-") == 0 ||
        stat(path, &fst) != 0 || !S_ISREG(fst.st_mode) || zin_sniff(path) != ZIN_PLAIN)
        return 1;
    return (long long)fst.st_size < (o->range_min > 0 ? o->range_min : THREAD_MIN_BYTES) ? 1 : nth;
}

int tenantio_read_series(const char *path, const struct tenantio_opts *o, struct tenant_set *ts, csvw *fw)
{
    int st;
    struct scan h = {.o = o, .fw = fw, .progress = 1};
    h.r = csvr_open_with(path, o->dialect, 0, &st);
    if (!h.r)
        return st;
    int bad = csvr_require_cols(h.r, "tenant", &h.ct, "t", &h.ctime, "util", &h.cu, (char *)NULL);
    h.cs = csvr_col(h.r, "servers");
    h.sink.name = csvr_path(h.r);
    h.sink.many = &h.rs.warned; /* ts gets h.rs at the end */
    if (bad < 0) {
        csvr_close(h.r);
        return SLK_EDATA;
    }
    struct stat fst;
    int nth = tenantio_readers(path, o), nr = 1;
    long long *cut = xmalloc(((size_t)nth + 1) * sizeof *cut);
    if (nth > 1 && stat(path, &fst) == 0)
        nr = cut_ranges(path, &h, (long long)fst.st_size, nth, cut);
    if (nr > 1) {
        st = read_ranges(path, &h, cut, nr, ts, fw);
    } else {
        h.a.fc = fft_cache_new();
        st = o->sort ? scan_held(&h) : scan_rows(&h);
        slk_progress_done();
        *ts = h.rs;
        h.rs = (struct tenant_set){0};
    }
    free(cut);
    scan_free(&h);
    for (size_t i = 0; !fw && i < ts->n; i++)
        tenantio_feature_scaled(&ts->rows[i], o->percent);
    return st;
}

static int cmp_feat(const void *a, const void *b)
{
    return strcmp(((const struct tenant_feat *)a)->tenant, ((const struct tenant_feat *)b)->tenant);
}

const char *tenant_set_sort(struct tenant_set *ts)
{
    if (ts->n > 1)
        qsort(ts->rows, ts->n, sizeof *ts->rows, cmp_feat);
    for (size_t i = 1; i < ts->n; i++)
        if (strcmp(ts->rows[i - 1].tenant, ts->rows[i].tenant) == 0)
            return ts->rows[i].tenant;
    return NULL;
}

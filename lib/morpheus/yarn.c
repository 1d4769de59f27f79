/* yarn — YARN ReservationSystem REST bodies of a plan (see yarn.h). */
#include "morpheus/yarn.h"
#include "base/diag.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* utf8_len: the length of the well-formed UTF-8 sequence at s (RFC 3629:
 * no overlong forms, no surrogates, at most U+10FFFF), 0 when there is none. */
static int utf8_len(const unsigned char *s)
{
    unsigned char c = s[0];
    int n = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
    unsigned char lo = c == 0xE0 ? 0xA0 : c == 0xF0 ? 0x90 : 0x80;
    unsigned char hi = c == 0xED ? 0x9F : c == 0xF4 ? 0x8F : 0xBF;
    if (n == 0 || s[1] < lo || s[1] > hi)
        return 0;
    for (int i = 2; i < n; i++)
        if (s[i] < 0x80 || s[i] > 0xBF)
            return 0;
    return n;
}

void yarn_json_str(FILE *fp, const char *s)
{
    fputc('"', fp);
    for (const unsigned char *u = (const unsigned char *)s; *u;) {
        unsigned char c = *u;
        int n = c < 0x80 ? 1 : utf8_len(u);
        if (c == '"' || c == '\\')
            fprintf(fp, "\\%c", c);
        else if (c < 0x20)
            fprintf(fp, "\\u%04x", c);
        else if (n == 0)
            fputs("\\ufffd", fp); /* JSON is UTF-8: a stray byte becomes U+FFFD */
        else
            fwrite(u, 1, (size_t)n, fp);
        u += n ? n : 1;
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

/* res_name: the reservation-name (malloc'd): the job, "job#instance" for a
 * once one. */
static char *res_name(const struct plan_res *r)
{
    if (r->kind != PLAN_ONCE)
        return xstrdup(r->job);
    size_t nlen = strlen(r->job) + 32;
    char *nm = xmalloc(nlen);
    snprintf(nm, nlen, "%s#%lld", r->job, (long long)r->instance);
    return nm;
}

static void write_name(const struct plan_res *r, FILE *fp)
{
    char *nm = res_name(r);
    yarn_json_str(fp, nm);
    free(nm);
}

/* post_time: when the bodies are POSTed: NOW, or `at` when NOW is not after it. */
static double post_time(const struct yarn_opts *o) { return o->now > o->at ? o->now : o->at; }

/* The allocations of the off-kilter instances under way at NOW (started
 * before it, ending after it), sorted by job: the RM holds them until they
 * end.  An ad-hoc reservation (its period is the plan's cycle, adhoc.h) is a
 * request of its own, not an instance of the job it names. */
struct live_once {
    const char *job;
    double start, end; /* epoch seconds */
};
struct live {
    struct live_once *v;
    size_t n;
};

static int live_cmp(const void *a, const void *b)
{
    return strcmp(((const struct live_once *)a)->job, ((const struct live_once *)b)->job);
}

static struct live live_take(const plan *p, const struct yarn_opts *o)
{
    struct live L = {xcalloc(p->nres ? p->nres : 1, sizeof *L.v), 0};
    double now = post_time(o);
    for (size_t k = 0; k < p->nres; k++) {
        const struct plan_res *r = &p->res[k];
        if (r->removed || r->spent || r->kind != PLAN_ONCE || r->period == (double)p->lcm)
            continue;
        double s, e;
        plan_once_span(p, r, &s, &e);
        if (s < now && e > now)
            L.v[L.n++] = (struct live_once){r->job, s, e};
    }
    qsort(L.v, L.n, sizeof *L.v, live_cmp);
    return L;
}

/* live_overlap: 1 when job holds an allocation of L that overlaps [s, e). */
static int live_overlap(const struct live *L, const char *job, double s, double e)
{
    size_t lo = 0, hi = L->n;
    while (lo < hi) { /* the first entry of job */
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(L->v[mid].job, job) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (; lo < L->n && strcmp(L->v[lo].job, job) == 0; lo++)
        if (L->v[lo].start < e && s < L->v[lo].end)
            return 1;
    return 0;
}

/* periodic_base: the start of the instance a periodic reservation's body
 * is dated from: at + n*period for the least n >= 0 whose deadline
 * (+ r->d) is after o->now (NOW in yarn.h) and whose allocation overlaps
 * no once reservation of the job under way at NOW (UNDER WAY in yarn.h). */
static double periodic_base(const plan *p, const struct plan_res *r, const struct yarn_opts *o,
                            const struct live *L)
{
    double base = o->at;
    if (!(r->period > 0))
        return base;
    if (o->now >= o->at + r->d) { /* a deadline at NOW is not after it */
        double n = floor((o->now - o->at - r->d) / r->period);
        base = o->at + (n > 0 ? n : 0) * r->period;
        while (base + r->d <= o->now) /* floor's rounding: at most a step or two */
            base += r->period;
    }
    double s = (double)r->start * p->step, e = s + (double)r->len * p->step;
    while (live_overlap(L, r->job, base + s, base + e)) /* ends: L's allocations are finite */
        base += r->period;
    return base;
}

/* abs_window: r's allocation start and the SLO deadline of its instance,
 * epoch seconds; for a periodic r at most start + period, since the RM
 * refuses a recurring body whose deadline - arrival exceeds its recurrence
 * (only a window of a whole period whose start is off the grid gets there:
 * the plan starts it at the grid step below a, "Windows off the grid"). */
static void abs_window(const plan *p, const struct plan_res *r, const struct yarn_opts *o,
                       const struct live *L, double *start, double *deadline)
{
    double base = r->kind == PLAN_PERIODIC ? periodic_base(p, r, o, L) : (double)r->cycle * (double)p->lcm;
    *start = base + (double)r->start * p->step;
    double end = *start + (double)r->len * p->step;
    double dl = r->kind == PLAN_PERIODIC ? base + r->d : (double)r->instance * r->period + r->d;
    if (r->kind == PLAN_PERIODIC && dl > *start + r->period)
        dl = *start + r->period; /* >= end: the plan's allocation lies within one period */
    *deadline = dl > end ? dl : end;
}

/* write_definition: the reservation-definition object of r. */
static void write_definition(const plan *p, const struct plan_res *r, const struct yarn_opts *o,
                             const struct live *L, FILE *fp)
{
    double t0, dl;
    abs_window(p, r, o, L, &t0, &dl);
    fprintf(fp, "{\"arrival\":%lld,\"deadline\":%lld,\"reservation-name\":", llround(t0 * 1000), llround(dl * 1000));
    write_name(r, fp);
    if (r->kind == PLAN_PERIODIC)
        fprintf(fp, ",\"recurrence-expression\":\"%lld\"", llround(r->period * 1000));
    write_requests(p, r, fp);
    fputc('}', fp);
}

static uint64_t fnv(uint64_t h, const void *buf, size_t n)
{
    const unsigned char *b = buf;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 1099511628211ULL;
    }
    return h;
}

#define FNV0 14695981039346656037ULL

/* id_hash: H of r (RESERVATION ID): FNV-1a 64 of its name, a NUL after a
 * periodic name holding '#', then for salt k > 0 a NUL and k in decimal;
 * the low 62 bits. */
static uint64_t id_hash(const struct plan_res *r, long salt)
{
    uint64_t h = fnv(FNV0, r->job, strlen(r->job));
    if (r->kind == PLAN_ONCE) {
        char inst[32];
        int k = snprintf(inst, sizeof inst, "#%lld", (long long)r->instance);
        h = fnv(h, inst, (size_t)k);
    } else if (strchr(r->job, '#')) {
        h = fnv(h, "", 1); /* "x#5\0": never once instance 5 of job x's "x#5" */
    }
    if (salt > 0) {
        char sb[32];
        int k = snprintf(sb, sizeof sb, "%ld", salt);
        h = fnv(fnv(h, "", 1), sb, (size_t)k);
    }
    return h & 0x3fffffffffffffffULL;
}

struct idrow {
    uint64_t h;
    const struct plan_res *r;
};

/* ids in the order of RESERVATION ID's rule: by H, then job name in byte
 * order, periodic before once, instance */
static int idrow_cmp(const void *a, const void *b)
{
    const struct idrow *x = a, *y = b;
    if (x->h != y->h)
        return x->h < y->h ? -1 : 1;
    int c = strcmp(x->r->job, y->r->job);
    if (c)
        return c;
    if (x->r->kind != y->r->kind)
        return x->r->kind < y->r->kind ? -1 : 1;
    return (x->r->instance > y->r->instance) - (x->r->instance < y->r->instance);
}

static int idrow_h_cmp(const void *key, const void *row)
{
    uint64_t x = *(const uint64_t *)key, y = ((const struct idrow *)row)->h;
    return (x > y) - (x < y);
}

/* h_in: whether some row of row[0..n) (sorted by idrow_cmp, so by H) derives H h */
static int h_in(const struct idrow *row, size_t n, uint64_t h)
{
    return n && bsearch(&h, row, n, sizeof *row, idrow_h_cmp);
}

char **yarn_ids(const plan *p, long long cluster_ts, int warn)
{
    char **id = xcalloc(p->nres ? p->nres : 1, sizeof *id);
    struct idrow *row = xmalloc((p->nres ? p->nres : 1) * sizeof *row);
    size_t n = 0;
    for (size_t k = 0; k < p->nres; k++)
        if (!p->res[k].removed)
            row[n++] = (struct idrow){id_hash(&p->res[k], 0), &p->res[k]};
    qsort(row, n, sizeof *row, idrow_cmp);
    uint64_t *moved = NULL; /* the H given to the second and later of a shared one */
    size_t nmoved = 0, capmoved = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t h = row[i].h;
        if (i > 0 && row[i - 1].h == row[i].h) {
            long salt = 1;
            size_t j;
            for (;; salt++) {
                h = id_hash(row[i].r, salt);
                for (j = 0; j < nmoved && moved[j] != h; j++)
                    ;
                if (j == nmoved && !h_in(row, n, h))
                    break;
            }
            moved = xgrow(moved, &capmoved, nmoved + 1, sizeof *moved);
            moved[nmoved++] = h;
        }
        char buf[96];
        snprintf(buf, sizeof buf, "reservation_%lld_%04llu", cluster_ts, (unsigned long long)h);
        id[row[i].r - p->res] = xstrdup(buf);
        if (h != row[i].h && warn) {
            size_t first = i;
            while (first > 0 && row[first - 1].h == row[i].h)
                first--;
            char *a = res_name(row[first].r), *b = res_name(row[i].r);
            slk_warn_at(
                NULL, 0,
                "reservations '%s' and '%s' derive one YARN reservation id, %s (their names collide under "
                "FNV-1a); '%s' takes %s instead",
                a, b, id[row[first].r - p->res], b, buf);
            free(a);
            free(b);
        }
    }
    free(moved);
    free(row);
    return id;
}

void yarn_ids_free(const plan *p, char **id)
{
    if (!id)
        return;
    for (size_t k = 0; k < p->nres; k++)
        free(id[k]);
    free(id);
}

/* digest: what r's body says apart from the date of the cycle.  A once
 * reservation by where it starts in epoch seconds (plan_once_span):
 * lowcost counts start from the cycle its window opens in, plan_read from
 * the cycle of its first row, and the two name the same allocation. */
static uint64_t digest(const plan *p, const struct plan_res *r)
{
    double first = (double)r->start, end;
    if (r->kind == PLAN_ONCE)
        plan_once_span(p, r, &first, &end);
    double v[7] = {(double)r->kind, (double)r->instance, first, r->period, r->a, r->d, r->cores};
    uint64_t h = fnv(FNV0, v, sizeof v);
    h = fnv(h, &r->mem_mb, sizeof r->mem_mb);
    h = fnv(h, &r->len, sizeof r->len);
    return fnv(h, r->containers, (size_t)r->len * sizeof *r->containers);
}

static int item_cmp(const void *a, const void *b)
{
    return strcmp(((const struct yarn_snap_item *)a)->id, ((const struct yarn_snap_item *)b)->id);
}

void yarn_snapshot_take(const plan *p, const struct yarn_opts *o, struct yarn_snapshot *s)
{
    s->v = xcalloc(p->nres ? p->nres : 1, sizeof *s->v);
    s->n = 0;
    char **id = yarn_ids(p, o->cluster_ts, 0);
    for (size_t k = 0; k < p->nres; k++) {
        const struct plan_res *r = &p->res[k];
        if (r->removed)
            continue;
        struct yarn_snap_item *it = &s->v[s->n++];
        it->id = id[k];
        id[k] = NULL;
        it->digest = digest(p, r);
        it->once = r->kind == PLAN_ONCE;
        double start;
        plan_once_span(p, r, &start, &it->end);
    }
    yarn_ids_free(p, id);
    qsort(s->v, s->n, sizeof *s->v, item_cmp);
}

void yarn_snapshot_free(struct yarn_snapshot *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->v[i].id);
    free(s->v);
    s->v = NULL;
    s->n = 0;
}

int yarn_write_delta(const plan *p, const struct yarn_snapshot *old, const struct yarn_opts *o, FILE *submit,
                     FILE *update, FILE *del, struct yarn_delta_counts *c)
{
    *c = (struct yarn_delta_counts){0};
    double now = post_time(o);
    char *seen = xcalloc(old->n ? old->n : 1, 1);
    struct live L = live_take(p, o);
    char **ids = yarn_ids(p, o->cluster_ts, 1);
    for (size_t k = 0; k < p->nres; k++) {
        const struct plan_res *r = &p->res[k];
        if (r->removed)
            continue;
        const char *id = ids[k];
        struct yarn_snap_item key = {.id = ids[k]};
        const struct yarn_snap_item *was = old->n ? bsearch(&key, old->v, old->n, sizeof *old->v, item_cmp) : NULL;
        if (was)
            seen[was - old->v] = 1;
        else if (r->spent) /* it ran before the RM held it: nothing to submit (as yarn_write_plan) */
            continue;
        if (was && was->digest == digest(p, r)) {
            c->same++;
            continue;
        }
        if (was && was->once && was->end <= now) {
            /* the RM has archived the old one (its allocation ended): the
             * same id placed again, as when a period changed by a fraction
             * of a second renumbers a job's instances, is a new submit */
            c->expired++;
            was = NULL;
        }
        FILE *fp = was ? update : submit;
        if (was) {
            c->update++;
            fprintf(fp, "{\"reservation-id\":\"%s\",\"reservation-definition\":", id);
        } else {
            c->submit++;
            fprintf(fp, "{\"queue\":");
            yarn_json_str(fp, o->queue);
            fprintf(fp, ",\"reservation-id\":\"%s\",\"reservation-definition\":", id);
        }
        write_definition(p, r, o, &L, fp);
        fprintf(fp, "}\n");
    }
    free(L.v);
    yarn_ids_free(p, ids);
    for (size_t i = 0; i < old->n; i++) {
        if (seen[i])
            continue;
        if (old->v[i].once && old->v[i].end <= now) { /* the RM dropped it */
            c->expired++;
            continue;
        }
        c->del++;
        fprintf(del, "{\"reservation-id\":\"%s\"}\n", old->v[i].id);
    }
    free(seen);
    return ferror(submit) || ferror(update) || ferror(del) ? -1 : 0;
}

int yarn_write_plan(const plan *p, FILE *fp, const struct yarn_opts *o)
{
    struct live L = live_take(p, o);
    char **id = yarn_ids(p, o->cluster_ts, 1);
    for (size_t k = 0; k < p->nres; k++) {
        const struct plan_res *r = &p->res[k];
        if (r->removed || r->spent) /* spent: ran already, nothing to submit */
            continue;
        fprintf(fp, "{\"queue\":");
        yarn_json_str(fp, o->queue);
        fprintf(fp, ",\"reservation-id\":\"%s\",\"reservation-definition\":", id[k]);
        write_definition(p, r, o, &L, fp);
        fprintf(fp, "}\n");
    }
    free(L.v);
    yarn_ids_free(p, id);
    return ferror(fp) ? -1 : 0;
}

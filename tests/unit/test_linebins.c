/* Unit tests for lib/plot/linebins: random files read twice (a regular
 * file) and held (the same bytes on standard input) against a brute force
 * written here from the rule in linebins.h: every point held, each series
 * sorted by x with ties in input order, stats_median of its positive steps,
 * the M4 reduction per column and stretch; plus the folds, a series whose x
 * goes back, a file that changes between the passes and a file with no
 * point. */
#include "base/diag.h"
#include "base/rng.h"
#include "base/stats.h"
#include "plot/linebins.h"
#include "unit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- the brute force -------------------------------------------------------- */

struct row {
    int g; /* group (its name "gN") */
    double x, y[2];
    int has[2]; /* y column not empty */
};

struct bpt {
    int s;
    size_t seq;
    double x, y;
};

static int by_s_x_seq(const void *a, const void *b)
{
    const struct bpt *p = a, *q = b;
    if (p->s != q->s)
        return p->s - q->s;
    if (p->x != q->x)
        return p->x < q->x ? -1 : 1;
    return p->seq < q->seq ? -1 : 1;
}

static long col_of(double lo, double hi, int ncols, double x)
{
    if (!(hi > lo))
        return 0;
    double k = floor((x - lo) / (hi - lo) * ncols);
    return k < 0 ? 0 : k >= ncols ? ncols - 1 : (long)k;
}

/* One expected series: its group, column and points (NaN x: a break). */
struct want {
    int g, k;
    double *x, *y;
    size_t n;
};

static void put(struct want *w, size_t *cap, double x, double y)
{
    if (w->n == *cap) {
        *cap = *cap ? 2 * *cap : 16;
        w->x = realloc(w->x, *cap * sizeof *w->x);
        w->y = realloc(w->y, *cap * sizeof *w->y);
    }
    w->x[w->n] = x;
    w->y[w->n++] = y;
}

/* brute: the series linebins should give for rows (groups numbered in
 * order of first appearance, as the file names them), ny y columns */
static size_t brute(const struct row *rows, size_t nrows, int ny, int nb, int ncols, int panels,
                    struct want *out)
{
    struct bpt *p = malloc((2 * nrows + 1) * sizeof *p);
    size_t n = 0;
    for (size_t i = 0; i < nrows; i++)
        for (int k = 0; k < ny; k++)
            if (rows[i].has[k])
                p[n] = (struct bpt){rows[i].g * ny + k, n, rows[i].x, rows[i].y[k]}, n++;
    qsort(p, n, sizeof *p, by_s_x_seq);
    double lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
    for (size_t i = 0; i < n; i++) {
        int k = p[i].s % ny;
        lo[k] = fmin(lo[k], p[i].x);
        hi[k] = fmax(hi[k], p[i].x);
    }
    if (!panels)
        for (int k = 0; k < ny; k++) {
            lo[k] = fmin(lo[0], lo[ny - 1]);
            hi[k] = fmax(hi[0], hi[ny - 1]);
        }
    /* folds: column k, more than one series, all equal */
    int fold[2] = {0, 0};
    for (int k = 0; k < ny && nb && !panels && ny > 1; k++) {
        size_t fi = 0, fj = 0;
        int count = 0, same = 1;
        for (size_t i = 0, j; i < n; i = j) {
            for (j = i; j < n && p[j].s == p[i].s; j++)
                ;
            if (p[i].s % ny != k)
                continue;
            if (count++ == 0) {
                fi = i;
                fj = j;
                continue;
            }
            if (j - i != fj - fi)
                same = 0;
            for (size_t q = 0; same && q < j - i; q++)
                same = p[i + q].x == p[fi + q].x && p[i + q].y == p[fi + q].y;
        }
        fold[k] = same && count > 1;
    }
    size_t nw = 0;
    int drawn[2] = {0, 0};
    for (size_t i = 0, j; i < n; i = j) {
        for (j = i; j < n && p[j].s == p[i].s; j++)
            ;
        int k = p[i].s % ny;
        if (fold[k] && drawn[k]++)
            continue;
        struct want *w = &out[nw++];
        *w = (struct want){p[i].s / ny, k, NULL, NULL, 0};
        size_t cap = 0;
        double *d = malloc((j - i + 1) * sizeof *d);
        size_t m = 0;
        for (size_t q = i + 1; q < j; q++)
            if (p[q].x > p[q - 1].x)
                d[m++] = p[q].x - p[q - 1].x;
        double gap = m ? 3 * stats_median(d, m) : INFINITY;
        free(d);
        int thin = ncols > 0 && j - i > (size_t)ncols;
        for (size_t a = i, b; a < j; a = b) {
            for (b = a + 1; b < j && !(p[b].x - p[b - 1].x > gap); b++)
                ;
            if (a > i)
                put(w, &cap, NAN, NAN);
            if (!thin) {
                for (size_t q = a; q < b; q++)
                    put(w, &cap, p[q].x, p[q].y);
                continue;
            }
            for (size_t q = a, r; q < b; q = r) {
                long c = col_of(lo[k], hi[k], ncols, p[q].x);
                size_t mn = q, mx = q;
                for (r = q + 1; r < b && col_of(lo[k], hi[k], ncols, p[r].x) == c; r++) {
                    if (p[r].y < p[mn].y)
                        mn = r;
                    if (p[r].y > p[mx].y)
                        mx = r;
                }
                size_t keep[4] = {q, mn < mx ? mn : mx, mn < mx ? mx : mn, r - 1};
                for (int e = 0; e < 4; e++)
                    if (e == 0 || keep[e] != keep[e - 1])
                        put(w, &cap, p[keep[e]].x, p[keep[e]].y);
            }
        }
    }
    free(p);
    return nw;
}

/* ---- files ------------------------------------------------------------------ */

static void write_rows(const char *path, const struct row *rows, size_t n, int ny, int nb)
{
    FILE *f = fopen(path, "w");
    fprintf(f, "t%s,y0%s\n", nb ? ",g" : "", ny > 1 ? ",y1" : "");
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "%.17g", rows[i].x);
        if (nb)
            fprintf(f, ",g%d", rows[i].g);
        for (int k = 0; k < ny; k++) {
            fputc(',', f);
            if (rows[i].has[k])
                fprintf(f, "%.17g", rows[i].y[k]);
        }
        fputc('\n', f);
    }
    fclose(f);
}

struct cols_ctx {
    int calls;
    const char *append; /* on the first call (the first pass open), append this row to `path` */
    const char *path;
};

static int cols(csvr *r, void *ctx, struct linebins_cols *c)
{
    struct cols_ctx *cc = ctx;
    if (cc->calls++ == 0 && cc->append) {
        FILE *f = fopen(cc->path, "a");
        fputs(cc->append, f);
        fclose(f);
    }
    c->cx = csvr_col(r, "t");
    c->nb = 0;
    if (csvr_col(r, "g") >= 0)
        c->cb[c->nb++] = csvr_col(r, "g");
    c->ny = 0;
    c->cy[c->ny++] = csvr_col(r, "y0");
    if (csvr_col(r, "y1") >= 0)
        c->cy[c->ny++] = csvr_col(r, "y1");
    c->hint = "";
    return 0;
}

/* same: b holds exactly the series w (x and y to the bit, breaks alike) */
static int same(const struct linebins *b, const struct want *w, size_t nw)
{
    if (b->ns != nw)
        return 0;
    for (size_t i = 0; i < nw; i++) {
        const struct linebins_series *s = &b->s[i];
        char name[32];
        snprintf(name, sizeof name, "g%d", w[i].g);
        if (s->k != w[i].k || s->n != w[i].n || (b->nb && strcmp(b->groups[s->group], name) != 0))
            return 0;
        for (size_t q = 0; q < s->n; q++)
            if (isnan(w[i].x[q]) ? !isnan(s->pts[q].x) : s->pts[q].x != w[i].x[q] || s->pts[q].y != w[i].y[q])
                return 0;
    }
    return 1;
}

/* read path as a file, then as standard input (held) */
static int read_both(const char *path, int ncols, int panels, struct linebins *file, struct linebins *held)
{
    struct cols_ctx c1 = {0}, c2 = {0};
    int st = linebins_read(path, NULL, cols, &c1, ncols, panels, file);
    if (!freopen(path, "r", stdin))
        return -1;
    int st2 = linebins_read(NULL, NULL, cols, &c2, ncols, panels, held);
    return st ? st : st2;
}

static void free_want(struct want *w, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(w[i].x);
        free(w[i].y);
    }
}

int main(void)
{
    char path[] = "linebinsXXXXXX";
    int fd = mkstemp(path);
    close(fd);
    rng r;
    rng_seed(&r, 17);
    int agree = 1, agree_held = 1, thinned = 0, gaps = 0, folded = 0, unordered = 0;
    for (int trial = 0; trial < 300; trial++) {
        int ngroups = 1 + (int)(rng_u64(&r) % 5), ny = 1 + (int)(rng_u64(&r) % 2),
            nb = ngroups > 1 || trial % 2;
        int ncols = (int)(rng_u64(&r) % 4) == 0 ? 0 : 5 + (int)(rng_u64(&r) % 60);
        int panels = (int)(rng_u64(&r) % 3) == 0, irregular = trial % 3 == 0, back = trial % 10 == 7;
        int twin = trial % 5 == 1; /* every group the same y1 line: a fold */
        size_t per = (size_t)(rng_u64(&r) % 400), n = 0;
        struct row *rows = calloc((size_t)ngroups * per + 1, sizeof *rows);
        uint64_t xseed = rng_u64(&r);
        for (int g = 0; g < ngroups; g++) {
            rng rx; /* the x steps: the same for every group of a twin trial */
            rng_seed(&rx, twin ? xseed : xseed + (uint64_t)g);
            double x = (double)(rng_u64(&rx) % 5);
            for (size_t i = 0; i < per; i++) {
                double u = rng_uniform(&rx);
                x += irregular ? floor(u * 1000) / 100 : u < 0.02 ? 50 : u < 0.1 ? 0 : 2;
                struct row *w = &rows[n++];
                w->g = g;
                w->x = x;
                w->y[0] = floor(rng_uniform(&r) * 20) - 5;
                w->y[1] = twin ? fmod(x, 7) : rng_uniform(&r);
                w->has[0] = rng_uniform(&r) > 0.05;
                w->has[1] = ny > 1;
            }
        }
        /* interleave: sorted by x (groups mixed), or shuffled within x ties,
         * or (back) a few rows swapped so a series' x goes back */
        for (size_t i = 1; i < n; i++)
            for (size_t j = i; j > 0 && rows[j - 1].x > rows[j].x; j--) {
                struct row t = rows[j];
                rows[j] = rows[j - 1];
                rows[j - 1] = t;
            }
        if (back && n > 10) {
            struct row t = rows[3];
            rows[3] = rows[n - 2];
            rows[n - 2] = t;
        }
        if (!nb)
            for (size_t i = 0; i < n; i++)
                rows[i].g = 0;
        /* groups are named in order of first appearance */
        int name[8], next = 0;
        for (int g = 0; g < 8; g++)
            name[g] = -1;
        for (size_t i = 0; i < n; i++) {
            if (name[rows[i].g] < 0)
                name[rows[i].g] = next++;
            rows[i].g = name[rows[i].g];
        }
        write_rows(path, rows, n, ny, nb);
        struct want w[16];
        size_t nw = brute(rows, n, ny, nb, ncols, panels, w);
        struct linebins f, h;
        int st = read_both(path, ncols, panels, &f, &h);
        size_t points = 0;
        for (size_t i = 0; i < n; i++)
            points += (size_t)rows[i].has[0] + (size_t)(ny > 1 && rows[i].has[1]);
        if (points == 0) {
            CHECK(st == SLK_EDATA);
        } else {
            CHECK(st == SLK_OK);
            agree &= same(&f, w, nw);
            agree_held &= same(&h, w, nw);
            CHECK(h.held == 1);
            unordered += back && f.held;
            for (size_t i = 0; i < nw; i++) {
                int full = 0;
                for (size_t q = 0; q < w[i].n; q++)
                    gaps += isnan(w[i].x[q]);
                for (size_t q = 0; q < n; q++)
                    full += rows[q].g == w[i].g;
                thinned += ncols > 0 && (size_t)full > (size_t)ncols && w[i].n < (size_t)full;
            }
            for (int k = 0; k < ny; k++)
                folded += f.folds[k];
        }
        linebins_free(&f);
        linebins_free(&h);
        free_want(w, nw);
        free(rows);
    }
    CHECK(agree);      /* read twice = the brute force */
    CHECK(agree_held); /* held = the brute force */
    /* the cases that matter came up */
    CHECK(thinned > 50);
    CHECK(gaps > 50);
    CHECK(folded > 5);
    CHECK(unordered > 5);

    /* a hand-worked series: steps 1,1,1,10 (median 1: the 10 is a gap),
     * 6 points on 2 columns of [0, 13]: x 0..3 in column 0, 13 in column 1;
     * column 0 keeps first (0,5), lowest (1,1), highest (2,9), last (3,4) */
    FILE *fp = fopen(path, "w");
    fputs("t,y0\n0,5\n1,1\n2,9\n3,4\n13,2\n13,3\n", fp);
    fclose(fp);
    struct linebins b;
    struct cols_ctx cc = {0};
    CHECK(linebins_read(path, NULL, cols, &cc, 2, 0, &b) == SLK_OK);
    double ex[] = {0, 1, 2, 3, NAN, 13, 13}, ey[] = {5, 1, 9, 4, NAN, 2, 3};
    CHECK(b.ns == 1 && b.s[0].n == 7);
    for (size_t q = 0; b.ns == 1 && q < b.s[0].n && q < 7; q++)
        CHECK(isnan(ex[q]) ? isnan(b.s[0].pts[q].x) : b.s[0].pts[q].x == ex[q] && b.s[0].pts[q].y == ey[q]);
    CHECK(b.x0 == 0 && b.xlo[0] == 0 && b.xhi[0] == 13 && !b.held && cc.calls == 2);
    linebins_free(&b);

    /* a folded column at negative x (offsets before time 0): its later
     * groups' points were checked against x 0 and the file called changed */
    fp = fopen(path, "w");
    fputs("t,g,y0,y1\n-5,a,1,7\n-5,b,2,7\n-4,a,3,8\n-4,b,4,8\n", fp);
    fclose(fp);
    cc.calls = 0;
    CHECK(linebins_read(path, NULL, cols, &cc, 10, 0, &b) == SLK_OK);
    CHECK(b.folds[1] == 1 && b.folds[0] == 0 && b.ns == 3 && b.x0 == -5);
    linebins_free(&b);

    /* a file that grows between the passes is refused, not drawn half from
     * each (the row is added once the first pass has opened the file: a
     * reader reads what the file held when it opened it) */
    struct cols_ctx grow = {0, "14,1\n", path};
    CHECK(linebins_read(path, NULL, cols, &grow, 2, 0, &b) == SLK_EDATA);
    CHECK(b.ns == 0 && b.s == NULL);
    /* no point: refused */
    fp = fopen(path, "w");
    fputs("t,y0\n1,\n", fp);
    fclose(fp);
    cc.calls = 0;
    CHECK(linebins_read(path, NULL, cols, &cc, 2, 0, &b) == SLK_EDATA);
    linebins_free(&b);
    unlink(path);
    return unit_done("linebins");
}

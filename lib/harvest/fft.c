/* fft — real FFTs over FFTW3 with a small plan cache (see fft.h).
 *
 * Tuned for many series of one length (a month of 2-minute samples per
 * tenant): the plan for a length is made once and executed on the cache's
 * own buffers, into which the caller's data is copied.  Copying 21,600
 * doubles costs far less than the transform, and it keeps the plan valid for
 * any caller array (FFTW's new-array execute needs matching alignment).
 *
 * Out of memory is "out of memory", exit 70, as everywhere (diag.h): the
 * buffers are slokit's own, and FFTW's planner, which aborts when its own
 * allocation fails, runs only once a block larger than it needs (measured:
 * at most 2.7 doubles per point from 1e5 points on, 220 KB below) has been
 * allocated and freed. */
#include "harvest/fft.h"
#include "base/diag.h"

#include <fftw3.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct slot {
    size_t n;           /* 0: empty */
    fftw_plan plan;
    double *in;
    fftw_complex *out;
    unsigned long used; /* last-use tick, for eviction */
};

/* FFTW's planner (and plan destruction) is not thread-safe; executing plans is. */
static pthread_mutex_t planner_lock = PTHREAD_MUTEX_INITIALIZER;

struct fft_cache {
    struct slot s[FFT_CACHE_SLOTS];
    unsigned long tick;
    size_t nplans;
};

fft_cache *fft_cache_new(void)
{
    return xcalloc(1, sizeof(fft_cache));
}

static void slot_clear(struct slot *s)
{
    if (s->n) {
        pthread_mutex_lock(&planner_lock);
        fftw_destroy_plan(s->plan);
        pthread_mutex_unlock(&planner_lock);
        free(s->in);
        free(s->out);
    }
    memset(s, 0, sizeof *s);
}

void fft_cache_free(fft_cache *c)
{
    if (!c)
        return;
    for (int i = 0; i < FFT_CACHE_SLOTS; i++)
        slot_clear(&c->s[i]);
    free(c);
}

size_t fft_cache_plans(const fft_cache *c) { return c->nplans; }

/* The slot holding a plan for length n, making it (evicting the least
 * recently used slot) when needed.  NULL when FFTW cannot plan. */
static struct slot *slot_for(fft_cache *c, size_t n)
{
    struct slot *victim = &c->s[0];
    c->tick++;
    for (int i = 0; i < FFT_CACHE_SLOTS; i++) {
        struct slot *s = &c->s[i];
        if (s->n == n) {
            s->used = c->tick;
            return s;
        }
        if (s->n == 0 || (victim->n != 0 && s->used < victim->used))
            victim = s;
    }
    slot_clear(victim);
    if (n > (size_t)1 << 30)
        return NULL;
    victim->in = xaligned(64, n * sizeof *victim->in);
    victim->out = xaligned(64, (n / 2 + 1) * sizeof *victim->out);
    /* the planner's room (see the top): exits 70 here rather than FFTW's abort */
    void *volatile probe = xmalloc(6 * n * sizeof(double) + ((size_t)1 << 20));
    free(probe);
    /* ESTIMATE never measures, so plans (and results) are deterministic and
     * the input buffer is not overwritten while planning. */
    pthread_mutex_lock(&planner_lock);
    victim->plan = fftw_plan_dft_r2c_1d((int)n, victim->in, victim->out, FFTW_ESTIMATE);
    pthread_mutex_unlock(&planner_lock);
    if (!victim->plan) {
        free(victim->in);
        free(victim->out);
        victim->in = NULL;
        victim->out = NULL;
        return NULL;
    }
    victim->n = n;
    victim->used = c->tick;
    c->nplans++;
    return victim;
}

int fft_r2c(fft_cache *c, const double *x, size_t n, double *re, double *im)
{
    if (n == 0)
        return -1;
    struct slot *s = slot_for(c, n);
    if (!s)
        return -1;
    memcpy(s->in, x, n * sizeof *x);
    fftw_execute(s->plan);
    for (size_t k = 0; k <= n / 2; k++) {
        re[k] = s->out[k][0];
        im[k] = s->out[k][1];
    }
    return 0;
}

int fft_power(fft_cache *c, const double *x, size_t n, double *p)
{
    if (n == 0)
        return -1;
    struct slot *s = slot_for(c, n);
    if (!s)
        return -1;
    double mean = 0;
    for (size_t i = 0; i < n; i++)
        mean += x[i];
    mean /= (double)n;
    for (size_t i = 0; i < n; i++)
        s->in[i] = x[i] - mean;
    fftw_execute(s->plan);
    double norm = 1.0 / ((double)n * (double)n);
    p[0] = 0;
    for (size_t k = 1; k <= n / 2; k++) {
        double w = (n % 2 == 0 && k == n / 2) ? 1.0 : 2.0;
        p[k] = w * (s->out[k][0] * s->out[k][0] + s->out[k][1] * s->out[k][1]) * norm;
    }
    return 0;
}

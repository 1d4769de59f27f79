/* fft — real-input discrete Fourier transforms over FFTW3, with plans made
 * once per length and reused.
 *
 * A fft_cache owns FFTW plans and their (aligned) buffers for the last few
 * lengths it was asked for (FFT_CACHE_SLOTS, least recently used evicted), so
 * a per-tenant loop over series of one length plans once.  Plans are made
 * with FFTW_ESTIMATE, which does not time anything: the same input gives
 * bit-identical output on every run.  A cache is not thread-safe: use one
 * cache per thread (planning is serialised inside, as FFTW's planner needs).
 *
 * Convention (FFTW's, unnormalised): X[k] = sum_n x[n] exp(-2 pi i k n / N)
 * for k = 0..N/2.  Ownership: callers own every array they pass; results are
 * written into caller arrays.  Errors: functions return 0 or -1 (n == 0, or
 * FFTW could not make a plan); they print nothing.
 */
#ifndef SLOKIT_FFT_H
#define SLOKIT_FFT_H

#include <stddef.h>

#define FFT_CACHE_SLOTS 8

typedef struct fft_cache fft_cache;

/* fft_cache_new: an empty plan cache (never NULL; aborts on out of memory). */
fft_cache *fft_cache_new(void);
/* fft_cache_free: destroy the plans and buffers.  NULL is fine. */
void fft_cache_free(fft_cache *c);
/* fft_cache_plans: how many plans the cache has made so far (for summaries). */
size_t fft_cache_plans(const fft_cache *c);

/* fft_r2c: the transform of real x[0..n-1]: re[k], im[k] for k = 0..n/2. */
int fft_r2c(fft_cache *c, const double *x, size_t n, double *re, double *im);

/* fft_power: the one-sided power spectrum of x[0..n-1] after removing its
 * mean: p[k] = w_k |X[k]|^2 / n^2 for k = 0..n/2, with w_k = 2 except w_0 = 1
 * and w_{n/2} = 1 when n is even.  p[0] is 0 (the mean is removed), and by
 * Parseval sum_k p[k] is the population variance of x.  Returns 0 or -1. */
int fft_power(fft_cache *c, const double *x, size_t n, double *p);

#endif

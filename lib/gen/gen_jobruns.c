/* gen_jobruns — tracegen kind `jobruns`: task records of past runs of
 * recurring data-parallel jobs (the Jockey slides' setting), the input of
 * `reprov --compare-models`.
 *
 *   job,run,alloc,stage,start,end,failed      one row per task attempt
 *   truth: job,stage,tasks,median_s,sigma,fail
 *
 * Each job is a chain of `stages` stages (default 4); stage s has
 * round(tasks x 2^-s x uniform(0.5, 1.5)) tasks (at least 1; tasks default
 * 200) whose attempts take median_s x F x exp(sigma Z) seconds, median_s
 * uniform in [10, 120] per stage, sigma (default 0.5) the spread of task
 * times, Z standard normal, and F = exp(noise Z') one factor per run
 * (default noise 0.15: the noisy shared cluster, which no model sees).  An
 * attempt fails with probability `fail` (default 0.02) and its task is
 * re-run.  Runs are daily; run r of a job runs on allocs[r mod n] tokens
 * (default 25,50,100), scheduled by lib/jockey/jobsim's engine (list
 * scheduling, a barrier between stages).  --count: runs per job (default
 * 40); keys: jobs (3), stages, tasks, sigma, noise, fail, allocs.
 * Streams run by run; each job's numbers come from rng_seed_key(seed, job).
 */
#include "gen/gen.h"
#include "base/diag.h"
#include "base/rng.h"
#include "jockey/jobsim.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const keys[] = {"jobs", "stages", "tasks", "sigma", "noise", "fail", "allocs", NULL};

#define MAX_STAGES 64
#define MAX_ALLOCS 16
#define DEF_RUNS 40 /* --count: runs per job */

struct truth_job {
    double ntasks[MAX_STAGES], median[MAX_STAGES], sigma, fail, factor;
};

static double truth_draw(void *ctx, size_t s, rng *r)
{
    const struct truth_job *t = ctx;
    return t->median[s] * t->factor * exp(t->sigma * rng_normal(r));
}

static double truth_fail(void *ctx, size_t s)
{
    (void)s;
    return ((const struct truth_job *)ctx)->fail;
}

struct emit_ctx {
    csvw *out;
    const char *job, *run;
    double alloc, t0;
    double beyond; /* the first time beyond CSVR_MAX_TIME (nothing written from its row on), or 0 */
};

static void emit(void *ctx, size_t stage, double start, double end, int failed)
{
    struct emit_ctx *c = ctx;
    double ts = floor((c->t0 + start) * 1000 + 0.5) / 1000, te = floor((c->t0 + end) * 1000 + 0.5) / 1000;
    if (c->beyond != 0 || !(te <= CSVR_MAX_TIME)) { /* start <= end, and t0 >= --start */
        if (c->beyond == 0)
            c->beyond = te;
        return;
    }
    csvw_str(c->out, c->job);
    csvw_str(c->out, c->run);
    csvw_num(c->out, c->alloc);
    csvw_int(c->out, (int64_t)stage);
    csvw_num(c->out, ts);
    csvw_num(c->out, te);
    csvw_int(c->out, failed);
    csvw_end(c->out);
}

static int parse_allocs(const char *s, double *a, int *n)
{
    char *copy = xstrdup(s), *save = NULL;
    *n = 0;
    int ok = 1;
    for (char *tok = strtok_r(copy, ",;", &save); tok && ok; tok = strtok_r(NULL, ",;", &save)) {
        char *end;
        double v = strtod(tok, &end);
        if (*end || !(v >= 1 && v <= 1e6) || *n >= MAX_ALLOCS)
            ok = 0;
        else
            a[(*n)++] = floor(v);
    }
    free(copy);
    return ok && *n > 0 ? 0 : -1;
}

static int generate(const struct gen_params *p, csvw *out, csvw *truth)
{
    double jobs = gen_get(p, "jobs", 3), stages = gen_get(p, "stages", 4), tasks = gen_get(p, "tasks", 200);
    double sigma = gen_get(p, "sigma", 0.5), noise = gen_get(p, "noise", 0.15), fail = gen_get(p, "fail", 0.02);
    double allocs[MAX_ALLOCS];
    int nallocs;
    long runs = p->count > 0 ? p->count : DEF_RUNS;
    if (!(jobs >= 1 && jobs <= 1000) || !(stages >= 1 && stages <= MAX_STAGES) || !(tasks >= 1 && tasks <= 1e5) ||
        !(sigma >= 0 && sigma <= 3) || !(noise >= 0 && noise <= 3) || !(fail >= 0 && fail <= 0.5) ||
        parse_allocs(gen_get_str(p, "allocs", "25,50,100"), allocs, &nallocs) < 0 || runs > 100000) {
        slk_error("jobruns: out of range: need jobs 1..1000, stages 1..%d, tasks 1..100000, sigma and noise "
                  "in [0, 3], fail in [0, 0.5], allocs a list of up to %d numbers >= 1, --count <= 100000",
                  MAX_STAGES, MAX_ALLOCS);
        return SLK_EUSAGE;
    }
    static const char *const cols[] = {"job", "run", "alloc", "stage", "start", "end", "failed", NULL};
    static const char *const tcols[] = {"job", "stage", "tasks", "median_s", "sigma", "fail", NULL};
    csvw_header(out, cols);
    if (truth)
        csvw_header(truth, tcols);
    for (long j = 0; j < (long)jobs; j++) {
        char name[32];
        snprintf(name, sizeof name, "job%03ld", j + 1);
        rng r;
        rng_seed_key(&r, p->seed, name);
        struct truth_job t = {.sigma = sigma, .fail = fail};
        size_t nst = (size_t)stages;
        for (size_t s = 0; s < nst; s++) {
            double n = floor(tasks * pow(2, -(double)s) * (0.5 + rng_uniform(&r)) + 0.5);
            t.ntasks[s] = n < 1 ? 1 : n;
            t.median[s] = 10 + 110 * rng_uniform(&r);
            if (truth) {
                csvw_str(truth, name);
                csvw_int(truth, (int64_t)s);
                csvw_num(truth, t.ntasks[s]);
                csvw_num(truth, t.median[s]);
                csvw_num(truth, sigma);
                csvw_num(truth, fail);
                csvw_end(truth);
            }
        }
        struct jobsim_src src = {nst, t.ntasks, truth_draw, truth_fail, &t};
        for (long k = 0; k < runs; k++) {
            char run[80];
            snprintf(run, sizeof run, "%s-r%04ld", name, k + 1);
            t.factor = exp(noise * rng_normal(&r));
            struct emit_ctx c = {out, name, run, allocs[k % nallocs], p->start + 86400.0 * (double)k, 0};
            jobsim_engine(&src, NULL, c.alloc, &r, emit, &c);
            if (c.beyond != 0) { /* a run drawn so long that reach cannot bound it */
                slk_error(
                    "jobruns: run %s would reach %.0f, beyond %g (the year 5138): give an earlier --start "
                    "or shorter runs (--set tasks, sigma, noise, allocs)",
                    run, c.beyond, CSVR_MAX_TIME);
                return SLK_EUSAGE;
            }
            if (csvw_error(out) || (truth && csvw_error(truth)))
                return SLK_EIO;
        }
    }
    if (!slk_quiet())
        fprintf(slk_summary(),
                "tracegen: jobruns: %ld jobs x %ld runs, %g stages from %g tasks, sigma %g, noise %g, "
                "fail %g\n",
                (long)jobs, runs, stages, tasks, sigma, noise, fail);
    return SLK_OK;
}

/* The runs start one a day from --start; each lasts as long as its draws
 * make it (minutes with the defaults): a day is allowed for the last one,
 * and generate refuses a run that ends beyond CSVR_MAX_TIME all the same. */
static void reach(const struct gen_params *p, double *before, double *after)
{
    *before = 0;
    *after = 86400.0 * (double)(p->count > 0 ? p->count : DEF_RUNS);
}

const struct gen_kind gen_kind_jobruns = {
    .name = "jobruns",
    .summary = "task records of past runs of recurring jobs (reprov --compare-models)",
    .columns = "job,run,alloc,stage,start,end,failed",
    .truth_columns = "job,stage,tasks,median_s,sigma,fail",
    .keys = keys,
    .generate = generate,
    .reach = reach,
};

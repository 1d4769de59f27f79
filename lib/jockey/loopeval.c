/* loopeval — Jockey's control loop on held-back runs (see loopeval.h). */
#include "jockey/loopeval.h"
#include "base/cli.h"
#include "base/csvio.h"
#include "base/diag.h"
#include "base/heap.h"
#include "base/stats.h"
#include "jockey/jobsim.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { POL_STATIC, POL_WHOLE, POL_STAGE, POL_SIM, NPOL };
static const char *const pol_name[NPOL] = {"static", "amdahl-whole", "stage-amdahl", "simulator"};

/* A run's recorded attempts, per stage in the order they started: the
 * count attempts from first[s] on (jobsim_read_runs sorts a run's attempts
 * by stage, then start, so each stage's are together). */
struct replay {
    const struct jobsim_run *r;
    size_t nst;
    size_t *first, *count, *next;
};

static void replay_init(struct replay *rp, const struct jobsim_run *r, size_t nst)
{
    rp->r = r;
    rp->nst = nst;
    rp->first = xcalloc(nst, sizeof *rp->first);
    rp->count = xcalloc(nst, sizeof *rp->count);
    rp->next = xcalloc(nst, sizeof *rp->next);
    for (size_t i = 0; i < r->n; i++) {
        size_t s = r->a[i].stage;
        if (s < nst && rp->count[s]++ == 0)
            rp->first[s] = i;
    }
}

static void replay_free(struct replay *rp)
{
    free(rp->first);
    free(rp->count);
    free(rp->next);
}

/* Replay under a controller (jk NULL: static), deciding every `interval`,
 * twice as far apart after every LOOPEVAL_TICKS decisions.  Returns the
 * finish time from the run's start; *token_s the integral of the
 * allocation. */
static double replay_run(struct replay *rp, jockey *jk, const char *key, double interval, double *token_s)
{
    const struct jobsim_run *r = rp->r;
    double t = 0, A = r->alloc >= 1 ? floor(r->alloc) : 1, next_tick = 0, busy = 0;
    double *done = xcalloc(rp->nst, sizeof *done), ndone = 0;
    memset(rp->next, 0, rp->nst * sizeof *rp->next);
    heap h;
    heap_init(&h);
    size_t s = 0;
    long ticks = 0;
    *token_s = 0;
    while (s < rp->nst) {
        /* at one instant: attempts end, then the controller decides, then
         * what the allocation allows starts */
        if (jk && next_tick <= t) {
            if (++ticks % LOOPEVAL_TICKS == 0)
                interval *= 2;
            next_tick += interval;
            struct jockey_decision dec;
            double p = r->ndone ? ndone / (double)r->ndone : 0;
            if (jockey_sample(jk, r->job, key, t, p > 1 ? 1 : p, done, rp->nst, A, &dec))
                A = dec.new_alloc >= 1 ? dec.new_alloc : 1;
        }
        while (busy < A && rp->next[s] < rp->count[s]) {
            size_t k = rp->first[s] + rp->next[s]++;
            heap_push(&h, t + (r->a[k].end - r->a[k].start), k);
            busy++;
        }
        if (busy == 0 && rp->next[s] == rp->count[s]) {
            s++;
            continue;
        }
        const struct heap_item *top = heap_peek(&h);
        if (jk && top && next_tick < top->key) {
            *token_s += A * (next_tick - t);
            t = next_tick;
            continue;
        }
        struct heap_item it;
        heap_pop(&h, &it);
        *token_s += A * (it.key - t);
        t = it.key;
        busy--;
        if (!r->a[it.val].failed) {
            done[r->a[it.val].stage]++;
            ndone++;
        }
    }
    heap_free(&h);
    free(done);
    return t;
}

struct tally {
    double met[NPOL], runs[NPOL], tokens[NPOL], late[NPOL];
};

/* Replay one held-back run under every policy and write its rows. */
static void eval_run(const struct jobsim_run *r, size_t nst, jockey *const *jk, double deadline,
                     const struct loopeval_opts *o, csvw *w, struct tally *ty)
{
    struct replay rp;
    replay_init(&rp, r, nst);
    for (int k = 0; k < NPOL; k++) {
        double tokens;
        double fin = replay_run(&rp, k == POL_STATIC ? NULL : jk[k], r->name, o->interval, &tokens);
        int met = fin <= deadline + 1e-9;
        csvw_str(w, r->job);
        csvw_str(w, r->name);
        csvw_str(w, pol_name[k]);
        csvw_num(w, fin);
        csvw_num(w, deadline);
        csvw_int(w, met);
        csvw_num(w, tokens);
        csvw_end(w);
        ty->runs[k]++;
        ty->met[k] += met;
        ty->tokens[k] += tokens;
        ty->late[k] += met ? 0 : fin - deadline;
    }
    replay_free(&rp);
}

/* The controllers of one job: Jockey with each model (jk[POL_STATIC] NULL). */
static int make_controllers(const struct jockey_opts *jo, const struct jobsim_model *learned, struct jobsim_run *const *train,
                            size_t ntrain, size_t nst, jockey **jk)
{
    struct jockey_opts w = *jo;
    jobsim_whole_sp(learned, &w.serial, &w.parallel);
    int st = jockey_new(&w, NULL, NULL, NULL, &jk[POL_WHOLE]);
    for (int k = POL_STAGE; st == SLK_OK && k <= POL_SIM; k++) {
        struct jockey_opts m = *jo;
        m.job_model = k == POL_SIM ? JOCKEY_SIM : JOCKEY_STAGE_AMDAHL;
        st = jockey_new(&m, NULL, NULL, NULL, &jk[k]);
        if (st != SLK_OK)
            break;
        struct jobsim_set set = {xcalloc(1, sizeof(char *)), xcalloc(1, sizeof(struct jobsim_model)), 1, NULL};
        set.job[0] = xstrdup(train[0]->job);
        jobsim_learn(train, ntrain, nst, &set.m[0]);
        jockey_adopt_models(jk[k], &set);
    }
    return st;
}

static void print_tally(const struct tally *ty)
{
    for (int k = 0; k < NPOL; k++)
        fprintf(slk_summary(),
                "%s: loop: %-13s deadlines met %5.1f%% of %.0f runs; tokens %.3gx static's; mean "
                "lateness of the missed %.0f s\n",
                slk_progname, pol_name[k], ty->runs[k] ? 100 * ty->met[k] / ty->runs[k] : 0.0, ty->runs[k],
                ty->tokens[POL_STATIC] > 0 ? ty->tokens[k] / ty->tokens[POL_STATIC] : NAN,
                ty->runs[k] - ty->met[k] > 0 ? ty->late[k] / (ty->runs[k] - ty->met[k]) : 0.0);
}

int loopeval_run(const char *path, const struct csv_dialect *d, const struct jockey_opts *jo, const struct loopeval_opts *o,
                 FILE *fp)
{
    struct jobsim_run *runs = NULL;
    size_t n = 0;
    int st = jobsim_read_runs(path, d, &runs, &n);
    csvw *w = csvw_new_with(fp, d);
    static const char *const cols[] = {"job", "run", "policy", "finish_s", "deadline_s", "met", "token_s", NULL};
    if (st == SLK_OK)
        st = jobsim_check_splits(path, runs, n, o->train);
    if (st == SLK_OK)
        csvw_header(w, cols);
    struct jobsim_run **job = xcalloc(n ? n : 1, sizeof *job);
    struct tally ty;
    memset(&ty, 0, sizeof ty);
    for (size_t i = 0; st == SLK_OK && i < n; i++) {
        if (runs[i].nst == (size_t)-1)
            continue;
        size_t nst, k = jobsim_job_runs(runs, n, i, job, &nst);
        size_t nt = jobsim_ntrain(o->train, k);
        double *dur = xcalloc(nt, sizeof *dur);
        for (size_t j = 0; j < nt; j++)
            dur[j] = job[j]->end - job[j]->t0;
        struct jockey_opts c = *jo;
        c.deadline = o->deadline_factor * stats_median(dur, nt);
        free(dur);
        struct jobsim_model learned;
        jobsim_learn(job, nt, nst, &learned);
        jockey *jk[NPOL] = {NULL};
        st = make_controllers(&c, &learned, job, nt, nst, jk);
        for (size_t j = nt; st == SLK_OK && j < k; j++)
            eval_run(job[j], nst, jk, c.deadline, o, w, &ty);
        for (int p = 0; p < NPOL; p++)
            jockey_free(jk[p]);
        jobsim_model_free(&learned);
        for (size_t j = 0; j < k; j++)
            job[j]->nst = (size_t)-1;
    }
    if (st == SLK_OK && csvw_error(w))
        st = SLK_EIO;
    if (st == SLK_OK && !slk_opt.quiet)
        print_tally(&ty);
    csvw_free(w);
    free(job);
    jobsim_free_runs(runs, n);
    return st;
}

/* memnode — one node's tasks under --simulate and --fillers (see memnode.h). */
#include "memory/memnode.h"

#include "base/diag.h"
#include "base/outfile.h"
#include "memory/memgate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* ---- --fillers -------------------------------------------------------------------- */

int memnode_fillers(const struct memnode_opts *o, struct memio_reader *rd, csvw *w)
{
    size_t nwell;
    double growth = memio_well_growth(rd, &nwell);
    int measured = o->growth_mb_s < 0;
    if (!measured)
        growth = o->growth_mb_s;
    struct memfill_in in = {
        .node_mb = o->node_mb, .sum_alloc = rd->tot.alloc, .sum_normal = rd->tot.normal,
        .sum_unused = rd->tot.unused, .growth_mb_s = growth,
        .cost_s_per_mb = o->migrate_ms_per_mb / 1000, .state_mb = o->state_mb,
    };
    struct memfill f;
    memfill_size(&in, &f);
    memio_fillers_write(w, o->node_mb, rd, nwell, &f, growth, o->migrate_ms_per_mb);
    if (!o->quiet) {
        fprintf(slk_summary(),
                "%s: node %.0f MB: %zu tasks allocate %.0f MB (unallocated %.0f MB), use %.0f MB "
                "normally (allocated but unused %.0f MB)\n",
                slk_progname, o->node_mb, rd->ntasks, rd->tot.alloc, f.unallocated, rd->tot.normal, f.unused);
        if (f.unallocated < 0)
            fprintf(slk_summary(),
                    "%s: warning: the node is overcommitted by %.0f MB; no filler fits in "
                    "unallocated memory\n",
                    slk_progname, -f.unallocated);
        fprintf(slk_summary(),
                "%s: growth of the well-behaved tasks %g MB/s (%s); moving %.0f MB at %g ms/MB "
                "takes %.3g s, so kill or migrate the filler when free memory falls below %.1f MB\n",
                slk_progname, growth,
                measured ? (nwell ? "largest measured rise" : "no well-behaved task: 0") : "--growth-mb-s",
                o->state_mb > 0 ? o->state_mb : f.filler_peak, o->migrate_ms_per_mb, f.migrate_s,
                f.threshold_mb);
        fprintf(slk_summary(),
                "%s: largest safe filler: normal %.0f MB (fits in unallocated memory even when every "
                "task uses its allocation), peak %.0f MB (fits while the tasks are at their normal)\n",
                slk_progname, f.filler_normal, f.filler_peak);
    }
    return SLK_OK;
}

/* ---- --simulate ------------------------------------------------------------------- */

/* open_side: an extra output file (-o rules: atomic). */
static int open_side(const char *path, const struct csv_dialect *d, outf **o, csvw **w, const char *const *hdr)
{
    int st = SLK_OK;
    if (!path)
        return SLK_OK;
    if (!(*o = outf_open(path, &st)))
        return st;
    *w = csvw_new_with(outf_fp(*o), d);
    csvw_header(*w, hdr);
    return SLK_OK;
}

static int close_side(outf *o, csvw *w, int st)
{
    if (!o)
        return st;
    csvw_free(w);
    return outf_finish(o, st);
}

/* What print_run needs beyond the run. */
struct run_ctx {
    const struct memnode_opts *o;
    size_t n;
    double step_s;
    int in_sample, fail_node;  /* fail_node: a gated run went above the node */
};

/* print_run: one run's summary on stderr (ctx: struct run_ctx). */
static void print_run(void *ctx, const struct memio_run *r)
{
    struct run_ctx *c = ctx;
    const struct memgate_result *res = &r->res;
    if (r->k > 0 && res->over_node)
        c->fail_node = 1;
    if (c->o->quiet)
        return;
    if (r->k > 0 && !r->held && !c->in_sample)
        fprintf(slk_summary(),
                "%s: gated k=%d: the bound %.0f MB from the learned profiles was exceeded "
                "(max %.0f MB): the replayed series went above what the profiles saw\n",
                slk_progname, r->k, r->bound, res->max_mem);
    if (r->k == 0)
        fprintf(slk_summary(),
                "%s: unpaced: max %.0f MB, mean %.0f MB; above the %.0f MB node for %g s; "
                "the k=%d gate's bound %.0f MB %s\n",
                slk_progname, res->max_mem, res->mean_mem, c->o->node_mb, (double)res->over_node * c->step_s,
                r->kb, r->bound, r->held ? "held anyway" : "was exceeded");
    else
        fprintf(slk_summary(),
                "%s: gated k=%d: max %.0f MB, mean %.0f MB, bound %.0f MB "
                "(sum min(%g normal, peak) + %d largest rest) %s; sum(normal) + %s(peak - normal) "
                "= %.0f MB %s; %s the node; slowdown mean %.3g, max %.3g; longest pause %g s\n",
                slk_progname, r->k, res->max_mem, res->mean_mem, r->bound, c->o->approach, r->k,
                r->held ? "held" : "EXCEEDED", r->k == 1 ? "max" : "top-k", r->simple,
                r->sheld ? "held" : "was exceeded", res->over_node ? "over" : "within",
                r->s.sd_sum / (double)c->n, r->s.sd_max, (double)r->s.longest * c->step_s);
}

/* Run the unpaced node and each gated one.  in_sample: the profiles come
 * from the replayed series, so the gate's bound must hold (a violation is a
 * bug); out of sample a violation is the learned profile's miss and is
 * reported (bound_held "no"). */
static int run_simulate(const struct memnode_opts *o, struct memgate_task *t, size_t n, double step_s,
                        long long steps, csvw *w, const char *source, int in_sample)
{
    outf *os = NULL, *on = NULL, *osum = NULL;
    struct memio_gate_cfg cfg = {o->k, o->nk, o->approach, o->node_mb, step_s, steps, in_sample, w, NULL, NULL, NULL};
    int st = open_side(o->series_path, o->out_dialect, &os, &cfg.series, memio_series_hdr);
    if (!st)
        st = open_side(o->node_series_path, o->out_dialect, &on, &cfg.node, memio_node_hdr);
    if (!st)
        st = open_side(o->summary_path, o->out_dialect, &osum, &cfg.summary, memio_summary_hdr);
    if (!st)
        csvw_header(w, memio_task_hdr);
    if (!o->quiet) {
        char len[64];
        if (steps > 0)
            snprintf(len, sizeof len, "%lld steps", steps);
        else
            snprintf(len, sizeof len, "until every series ends, in steps");
        fprintf(slk_summary(),
                "%s: %zu tasks (%s) on a %.0f MB node, %s of %g s; a task approaches "
                "its peak above %g x normal\n",
                slk_progname, n, source, o->node_mb, len, step_s, o->approach);
    }
    struct run_ctx rc = {o, n, step_s, in_sample, 0};
    if (!st)
        st = memio_gate_runs(t, n, &cfg, print_run, &rc);
    st = close_side(os, cfg.series, st);
    st = close_side(on, cfg.node, st);
    st = close_side(osum, cfg.summary, st);
    if (!st && o->strict && rc.fail_node) {
        if (!o->quiet)
            fprintf(slk_summary(), "%s: --strict: a gated run needed more than the %.0f MB node\n",
                    slk_progname, o->node_mb);
        st = SLK_FAIL;
    }
    return st;
}

/* The steps of --duration dur at step: SLK_EUSAGE (reported) when under
 * one step or when ntasks x steps x runs exceeds MEMNODE_MAX_TASK_STEPS. */
static int duration_steps(const struct memnode_opts *o, double dur, double step, double ntasks,
                          long long *steps)
{
    double n = floor(dur / step + 1e-9);
    if (n < 1) {
        slk_error("--duration %g s is shorter than one %g s step", dur, step);
        return SLK_EUSAGE;
    }
    if (n * ntasks * (o->nk + 1) > MEMNODE_MAX_TASK_STEPS) {
        slk_error("simulation too large: %.0f tasks x %.0f steps x %d runs (at most %g task-steps; "
                  "use a longer --step or a shorter --duration)", ntasks, n, o->nk + 1, MEMNODE_MAX_TASK_STEPS);
        return SLK_EUSAGE;
    }
    *steps = (long long)n;
    return SLK_OK;
}

int memnode_model_steps(const struct memnode_opts *o, long long *steps)
{
    return duration_steps(o, o->duration_s > 0 ? o->duration_s : 3600, o->step_s > 0 ? o->step_s : 1,
                          (double)o->tasks, steps);
}

int memnode_simulate_model(const struct memnode_opts *o, long long steps, csvw *w)
{
    struct memmodel_params mp = o->mp;
    mp.step_s = o->step_s > 0 ? o->step_s : 1;
    struct memgate_task *t = memio_model_tasks(&mp, (size_t)o->tasks, o->seed);
    char src[160];
    snprintf(src, sizeof src, "model: normal %g MB, peak %g MB, a peak every %g s for %g s",
             mp.normal_mb, mp.peak_mb, mp.gap_s, mp.peak_s);
    int st = run_simulate(o, t, (size_t)o->tasks, mp.step_s, steps, w, src, 1);
    memio_model_tasks_free(t, (size_t)o->tasks);
    return st;
}

/* --simulate on recorded series: the tasks read, replayed one sample a step. */
int memnode_simulate_series(const struct memnode_opts *o, struct memio_reader *rd, const char *path, csvw *w)
{
    int st = SLK_OK;
    double step = o->step_s > 0 ? o->step_s : (isfinite(rd->min_dt) ? rd->min_dt : 1);
    if (rd->gap_task && !o->step_s)
        slk_warn_at(path, 0, "uneven sample intervals (task '%s': %g s vs %g s); "
                    "samples are replayed one per %g s step", rd->gap_task, rd->gap_dt, rd->min_dt, step);
    /* bounded like --model (--duration 1e15 never ended) */
    long long steps = 0;
    if (o->duration_s > 0 && (st = duration_steps(o, o->duration_s, step, (double)rd->ntasks, &steps)) != SLK_OK)
        return st;
    if (rd->short_task) {
        slk_error_at(path, rd->short_line, "task '%s': %zu samples cannot be split by --train %g (both parts "
                     "need a sample)", rd->short_task, rd->short_n, o->train);
        return SLK_EDATA;
    }
    if (o->profiles_path &&
        (st = memio_apply_profiles(o->profiles_path, o->profiles_dialect, rd, path)) != SLK_OK)
        return st;
    struct memgate_task *t = memio_gate_tasks(rd);
    char src[200];
    if (o->train > 0)
        snprintf(src, sizeof src, "out of sample: profiles from the first %g of each series, the rest "
                 "replayed, from %s", o->train, path);
    else if (o->profiles_path)
        snprintf(src, sizeof src, "out of sample: profiles from %s, series from %s", o->profiles_path,
                 path);
    else
        snprintf(src, sizeof src, "series from %s", path);
    st = run_simulate(o, t, rd->ntasks, step, steps, w, src, !(o->train > 0 || o->profiles_path));
    free(t);
    return st;
}

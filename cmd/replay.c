/* replay — what would have happened: replay recorded run skylines against
 * their SLOs under an allocation regime (Morpheus §9).
 *
 *   replay --slo SLO --capacity cores=N,mem=M [--plan PLAN] [--provisioned FILE]
 *          [--regime static,plan,plan+dra] [OPTION...] [USAGE]
 *
 * Reads usage rows job,run,t,containers[,cores,mem_mb] (tracegen usage,
 * grouped by run), keeps the runs of jobs with a usable SLO, and replays them
 * with lib/morpheus/replay under each regime asked for (plan+dra runs the DRA of
 * lib/morpheus/dra in-process, the code reprov runs).  Writes one row per run and
 * regime; totals go to stderr and --summary.  The model is in replay(1).
 */
#include "base/cli.h"
#include "base/csvio.h"
#include "base/diag.h"
#include "base/outfile.h"
#include "base/parse.h"
#include "morpheus/plan.h"
#include "morpheus/slo.h"
#include "morpheus/replay.h"
#include "morpheus/replayio.h"

#include <argp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_REGIMES 3

static struct {
    const char *input, *slo, *plan, *prov, *summary, *runs;
    int align;              /* 1: plan regimes start runs at their reservation */
    double cap_cores, cap_mem;
    int have_cap;
    double cont_cores, cont_mem;
    double step;
    int have_step;
    int idle;               /* -1 auto, 0 none, 1 fair */
    double from, until;
    long max_steps;           /* --max-steps: the replayed span, in steps */
    int nreg;
    enum replay_regime reg[MAX_REGIMES];
    struct dra_opts dra;
} opt = {.cont_cores = 1, .cont_mem = 1024, .step = 60, .idle = -1, .from = -INFINITY, .until = INFINITY,
       .max_steps = 10000000};

enum { OPT_SLO = 1, OPT_PLAN, OPT_PROV, OPT_SUMMARY, OPT_CAP, OPT_CONT, OPT_STEP, OPT_IDLE, OPT_FROM, OPT_UNTIL,
       OPT_REGIME, OPT_ALIGN, OPT_RUNS, OPT_MAX_STEPS };

static const struct argp_option options[] = {
    {0, 0, 0, 0, "Inputs:", 1},
    {"slo", OPT_SLO, "FILE", 0, "SLOs job,period,a,d[,status] (sloinfer); rows whose status is not actionable "
                                "or overridden are not replayed (required)", 1},
    {"plan", OPT_PLAN, "FILE", 0, "Reservation plan (lcmpack) for the plan and plan+dra regimes", 1},
    {"provisioned", OPT_PROV, "FILE", 0, "User provisioning job,provisioned (containers per run) for the static "
                                         "regime, and in the plan regimes for the jobs the plan holds nothing "
                                         "for (tracegen usage --truth writes it)", 1},
    {"from", OPT_FROM, "TIME", 0, "Replay only runs whose first sample is at or after TIME (the test split)", 1},
    {"until", OPT_UNTIL, "TIME", 0, "... and before TIME", 1},
    {"container", OPT_CONT, "cores=C,mem=M", 0, "Container size when USAGE has no cores/mem_mb columns "
                                                "(default cores=1,mem=1024)", 1},
    {0, 0, 0, 0, "Regimes:", 2},
    {"regime", OPT_REGIME, "LIST", 0, "Comma-separated: static, plan, plan+dra (default: all three with --plan, "
                                      "else static)", 2},
    {"capacity", OPT_CAP, "cores=N,mem=M", 0, "Cluster capacity (mem in MB): what idle sharing shares and what "
                                              "the DRA checks extensions against (required)", 2},
    {"idle", OPT_IDLE, "MODE", 0, "fair: capacity no run uses is shared max-min fairly among runs with unmet "
                                  "demand; none: guarantees only (the paper's worst case); auto (default): fair "
                                  "for static, none for the plan regimes", 2},
    {"align", OPT_ALIGN, "MODE", 0, "recorded (default): runs start when they started in the trace; reservation: "
                                    "in the plan regimes a run starts at its instance's reservation (the job is "
                                    "submitted into it, as in Morpheus), or when its input arrived if later "
                                    "(--runs); refused without a plan regime", 2},
    {"max-steps", OPT_MAX_STEPS, "N", 0, "Refuse runs that span more than N steps from the first to the last "
                                         "(default 10000000, 19 years at 60 s): the replay visits every step", 1},
    {"runs", OPT_RUNS, "FILE", 0, "Run table job,instance,input_avail (tracegen runs): with --align reservation a "
                                  "run never starts before its input is available", 1},
    {"step", OPT_STEP, "DUR", 0, "Replay step, at most 1d (default: the plan's step, else 60s)", 2},
    {0, 0, 0, 0, "Output:", 3},
    {"summary", OPT_SUMMARY, "FILE", 0, "Write the totals per regime (runs, missed, footprint, utilization, ...) "
                                        "as CSV to FILE", 3},
    {0}};


static void parse_regimes(struct argp_state *st, const char *arg)
{
    char *s = xstrdup(arg), *save = NULL;
    opt.nreg = 0;
    for (char *tok = strtok_r(s, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        enum replay_regime r = REPLAY_STATIC;
        if (!strcmp(tok, "static"))
            r = REPLAY_STATIC;
        else if (!strcmp(tok, "plan"))
            r = REPLAY_PLAN;
        else if (!strcmp(tok, "plan+dra") || !strcmp(tok, "dra"))
            r = REPLAY_PLAN_DRA;
        else
            argp_error(st, "invalid value for --regime: '%s' (static, plan or plan+dra)", tok);
        for (int i = 0; i < opt.nreg; i++)
            if (opt.reg[i] == r)
                argp_error(st, "--regime lists '%s' twice", tok);
        opt.reg[opt.nreg++] = r;
    }
    free(s);
    if (opt.nreg == 0)
        argp_error(st, "invalid value for --regime: '%s' (empty)", arg);
}

static error_t parse_opt(int key, char *arg, struct argp_state *st)
{
    switch (key) {
    case OPT_SLO: opt.slo = arg; break;
    case OPT_PLAN: opt.plan = arg; break;
    case OPT_PROV: opt.prov = arg; break;
    case OPT_SUMMARY: opt.summary = arg; break;
    case OPT_CAP: cli_resources(st, "capacity", arg, &opt.cap_cores, &opt.cap_mem); opt.have_cap = 1; break;
    case OPT_CONT: cli_resources(st, "container", arg, &opt.cont_cores, &opt.cont_mem); break;
    case OPT_STEP: opt.step = cli_duration_max(st, "step", arg, 1, 86400); opt.have_step = 1; break;
    case OPT_FROM: opt.from = cli_time(st, "from", arg); break;
    case OPT_UNTIL: opt.until = cli_time(st, "until", arg); break;
    case OPT_REGIME: parse_regimes(st, arg); break;
    case OPT_RUNS: opt.runs = arg; break;
    case OPT_MAX_STEPS: opt.max_steps = (long)cli_int(st, "max-steps", arg, 1, 1000000000); break;
    case OPT_ALIGN:
        if (!strcmp(arg, "recorded"))
            opt.align = 0;
        else if (!strcmp(arg, "reservation"))
            opt.align = 1;
        else
            argp_error(st, "invalid value for --align: '%s' (recorded or reservation)", arg);
        break;
    case ARGP_KEY_INIT:
        st->child_inputs[0] = &opt.dra;
        break;
    case OPT_IDLE:
        if (!strcmp(arg, "fair"))
            opt.idle = 1;
        else if (!strcmp(arg, "none"))
            opt.idle = 0;
        else if (!strcmp(arg, "auto"))
            opt.idle = -1;
        else
            argp_error(st, "invalid value for --idle: '%s' (fair, none or auto)", arg);
        break;
    case ARGP_KEY_ARG:
        if (opt.input)
            argp_error(st, "one USAGE file only (got '%s' and '%s')", opt.input, arg);
        opt.input = arg;
        break;
    case ARGP_KEY_END:
        if (!opt.slo)
            argp_error(st, "--slo FILE is required (the deadlines to judge runs against)");
        if (!opt.have_cap)
            argp_error(st, "--capacity cores=N,mem=M is required");
        if (opt.nreg == 0) {
            opt.reg[opt.nreg++] = REPLAY_STATIC;
            if (opt.plan) {
                opt.reg[opt.nreg++] = REPLAY_PLAN;
                opt.reg[opt.nreg++] = REPLAY_PLAN_DRA;
            }
        }
        int with_dra = 0, with_plan = 0;
        for (int i = 0; i < opt.nreg; i++) {
            with_dra |= opt.reg[i] == REPLAY_PLAN_DRA;
            with_plan |= opt.reg[i] != REPLAY_STATIC;
            if (opt.reg[i] == REPLAY_STATIC && !opt.prov)
                argp_error(st, "the static regime needs --provisioned FILE");
            if (opt.reg[i] != REPLAY_STATIC && !opt.plan)
                argp_error(st, "the %s regime needs --plan FILE", replay_regime_name(opt.reg[i]));
        }
        if (!with_dra && opt.dra.given) /* it would be ignored */
            argp_error(st, "--%s goes with the plan+dra regime", opt.dra.given);
        if (opt.step != floor(opt.step))
            argp_error(st, "--step must be whole seconds");
        if (opt.align && !with_plan) /* static keeps recorded starts: it would be ignored */
            argp_error(st,
                       "--align reservation goes with a plan regime (plan or plan+dra): the static regime "
                       "has no reservation to start a run at");
        if (opt.runs && !opt.align)
            argp_error(st, "--runs goes with --align reservation");
        if (!(opt.from < opt.until))
            argp_error(st, "--from must be before --until");
        break;
    default: return ARGP_ERR_UNKNOWN;
    }
    return 0;
}

static struct replayio io; /* the inputs read (lib/morpheus/replayio) */

/* ---- main -------------------------------------------------------------------------- */

static void fmt_time(double t, char *buf)
{
    if (isfinite(t))
        parse_time_format(t, buf);
    else
        strcpy(buf, "-");
}

#define DOC \
        "Replay recorded job runs against their SLOs under an allocation regime: static (the user's provisioned " \
        "containers plus a fair share of idle capacity), plan (lcmpack reservations) or plan+dra (reservations " \
        "corrected by the Morpheus DRA, the code reprov runs).  Jobs are elastic: work that does not fit in a " \
        "step carries over (the skyline LP's debt).\n" \
        "Input USAGE (or stdin): job,run,t,containers[,cores,mem_mb], grouped by run (tracegen usage).  Output: " \
        "regime,job,run,start,deadline,finish,met,over_container_s,under_container_s.  Exit status: 0 done, " \
        "64 usage, 65 bad input or plan, 66 missing file, 73/74 output errors." \
        "\vExamples:\n" \
        "  replay --slo slo.csv --plan plan.csv --provisioned truth.csv \\\n" \
        "         --capacity cores=2000,mem=8192000 \\\n" \
        "         --from 2026-01-26 usage.csv --summary totals.csv > per-run.csv\n" \
        "  replay --regime static --idle none --slo slo.csv --provisioned truth.csv \\\n" \
        "         --capacity cores=2000,mem=8192000 usage.csv  # the paper's worst case"

/* plan_regime: 1 when a regime asked for uses the plan. */
static int plan_regime(void)
{
    for (int i = 0; i < opt.nreg; i++)
        if (opt.reg[i] != REPLAY_STATIC)
            return 1;
    return 0;
}

/* Runs whose mean container differs from the plan's by more than this
 * share (in cores or in MB) are warned of. */
#define SHAPE_TOL 0.1

/* apart: x and y differ by more than SHAPE_TOL of the larger */
static int apart(double x, double y)
{
    double m = fmax(fabs(x), fabs(y));
    return fabs(x - y) > SHAPE_TOL * m;
}

/* shape_warn: a planned job whose runs use containers of another shape
 * than its plan's (the container-weighted mean over its runs, more than
 * SHAPE_TOL apart in cores or MB): the plan regimes guarantee the plan's
 * containers and count the runs' cores as used, so their utilization can
 * pass 1 (usage of 2-core containers on a plan of 1-core ones reads 2.0).
 * Warned per job (capped), at the plan file. */
static void shape_warn(const plan *p)
{
    size_t nj = io.set.njobs ? io.set.njobs : 1;
    double *w = xcalloc(3 * nj, sizeof *w), *c = w + nj, *mb = w + 2 * nj;
    for (size_t k = 0; k < io.set.nruns; k++) {
        const struct replay_run *r = &io.set.runs[k];
        double u = 0;
        for (long b = 0; b < r->len; b++)
            u += r->use[b];
        w[r->job] += u;
        c[r->job] += u * r->cores;
        mb[r->job] += u * r->mem_mb;
    }
    struct slk_many m = {0};
    for (size_t j = 0; j < io.set.njobs; j++) {
        const struct plan_res *pr = w[j] > 0 ? plan_job_res(p, io.set.jobs[j].name) : NULL;
        if (pr && (apart(c[j] / w[j], pr->cores) || apart(mb[j] / w[j], pr->mem_mb)))
            slk_warn_many(
                &m, opt.plan, 0,
                "job '%s': its runs use containers of %.4g cores, %.4g MB (mean) and its plan reserves "
                "%.4g cores, %.4g MB: the plan regimes guarantee the plan's containers, so utilization "
                "may pass 1 (is its skyline from the same usage?)",
                io.set.jobs[j].name, c[j] / w[j], mb[j] / w[j], pr->cores, pr->mem_mb);
    }
    if (slk_many_hidden(&m))
        slk_warn_at(opt.plan, 0, "%ld more jobs whose runs' containers differ from their plan's",
                    slk_many_hidden(&m));
    free(w);
}

/* load: the SLOs, provisioning, run table, plan and usage, in that order;
 * the runs sorted by start.  *p receives the plan (--plan). */
static int load(plan **p)
{
    struct replayio_opts ro = {opt.cont_cores, opt.cont_mem, opt.from, opt.until, opt.max_steps};
    replayio_init(&io, &ro);
    int st = replayio_read_slo(&io, opt.slo, cli_dialect("slo"));
    if (st == SLK_OK && opt.prov)
        st = replayio_read_provisioned(&io, opt.prov, cli_dialect("provisioned"));
    if (st == SLK_OK && opt.runs)
        st = replayio_read_runs(&io, opt.runs, cli_dialect("runs"));
    if (st == SLK_OK && opt.plan) {
        st = plan_read(opt.plan, p);
        if (st == SLK_OK) {
            if (opt.have_step && (long)opt.step != (*p)->step) {
                slk_error("--step %g s differs from the plan's step %ld s", opt.step, (*p)->step);
                st = SLK_EUSAGE;
            }
            opt.step = (double)(*p)->step;
            if (st == SLK_OK && plan_set_capacity(*p, opt.cap_cores, opt.cap_mem) < 0)
                st = SLK_EUSAGE;
            /* warned, not refused, as in reprov (lcmpack writes such plans
             * when the capacity shrinks); only where a regime uses the plan */
            if (st == SLK_OK && plan_regime())
                plan_warn_over(*p, opt.plan,
                               "the runs' allocations there are cut to --capacity and the DRA "
                               "extends nothing over those steps (is --capacity right? mem is in MB)");
        }
    }
    io.set.step = opt.step;
    if (st == SLK_OK)
        st = replayio_read_usage(&io, opt.input, cli_dialect(NULL));
    if (st != SLK_OK)
        return st;
    replay_set_sort(&io.set);
    if (*p && plan_regime())
        shape_warn(*p);
    for (int i = 0; i < opt.nreg; i++)
        for (size_t k = 0; opt.reg[i] == REPLAY_STATIC && k < io.set.nruns; k++) {
            const struct replay_job *j = &io.set.jobs[io.set.runs[k].job];
            if (!(j->provisioned >= 0)) {
                slk_error("%s: job '%s' has no provisioned row (the static regime needs one per job)", opt.prov,
                          j->name);
                return SLK_EDATA;
            }
        }
    return SLK_OK;
}

static int idle_of(int i)
{
    return opt.idle >= 0 ? opt.idle : opt.reg[i] == REPLAY_STATIC;
}

/* replay_all: every regime asked for, one row per run and regime to w.
 * SLK_OK, or SLK_ESOFTWARE when a regime lacks what main checked it has
 * (no row is written for it or after it). */
static int replay_all(plan *p, const int64_t *starts, csvw *w, struct replay_totals *tot, double *elapsed)
{
    replayio_write_header(w);
    struct replay_result *res = xcalloc(io.set.nruns ? io.set.nruns : 1, sizeof *res);
    for (int i = 0; i < opt.nreg; i++) {
        struct replay_opts ro = {.regime = opt.reg[i], .cap_cores = opt.cap_cores, .cap_mem = opt.cap_mem,
                                 .plan = p, .dra = opt.dra, .idle = idle_of(i)};
        if (opt.reg[i] != REPLAY_STATIC)
            ro.start = starts;
        double t0 = slk_now();
        if (replay_run(&io.set, &ro, res, &tot[i]) < 0) {
            slk_error("internal error: regime %s lacks its plan or provisioned values",
                      replay_regime_name(opt.reg[i]));
            free(res);
            return SLK_ESOFTWARE;
        }
        elapsed[i] = slk_now() - t0;
        replayio_write_results(w, &io.set, opt.reg[i], res);
    }
    free(res);
    return SLK_OK;
}

/* write_summary: the totals per regime as CSV to path (--summary). */
static int write_summary(const char *path, const struct replay_totals *tot)
{
    int st;
    outf *so = outf_open(path, &st);
    if (!so)
        return st;
    csvw *sw = csvw_new_with(outf_fp(so), cli_dialect(NULL));
    int idle[MAX_REGIMES];
    for (int i = 0; i < opt.nreg; i++)
        idle[i] = idle_of(i);
    replayio_write_summary(sw, opt.reg, idle, tot, opt.nreg);
    st = csvw_error(sw) ? SLK_EIO : SLK_OK;
    csvw_free(sw);
    return outf_finish(so, st);
}

/* unplanned_note: in the plan regimes, the runs of jobs the plan holds
 * nothing for, which fall back on --provisioned (0 containers without a
 * row): without this line their misses read as the plan's. */
static void unplanned_note(const struct replay_totals *tot)
{
    int first = 1;
    for (int i = 0; i < opt.nreg; i++) {
        const struct replay_totals *x = &tot[i];
        if (opt.reg[i] == REPLAY_STATIC || x->unplanned_runs == 0)
            continue;
        if (first)
            fprintf(slk_summary(),
                    "%s: the plan holds nothing for %ld jobs (%ld runs): %ld runs on their --provisioned "
                    "containers, %ld on none (no --provisioned row); met:",
                    slk_progname, x->unplanned_jobs, x->unplanned_runs,
                    x->unplanned_runs - x->unprovisioned_runs, x->unprovisioned_runs);
        fprintf(slk_summary(), "%s %s %ld of %ld", first ? "" : ",", replay_regime_name(opt.reg[i]),
                x->unplanned_met, x->unplanned_runs);
        first = 0;
    }
    if (!first)
        fputc('\n', slk_summary());
}

/* report: what was read and the totals per regime, to stderr. */
static void report(const struct replay_totals *tot, const double *elapsed, int aligned, long moved)
{
    char b0[32], b1[32];
    fmt_time(io.set.nruns ? io.set.runs[0].first : NAN, b0);
    fmt_time(io.set.nruns ? io.set.runs[io.set.nruns - 1].first : NAN, b1);
    size_t jobs = replay_set_jobs_run(&io.set);
    fprintf(slk_summary(),
            "%s: %ld runs read (%ld rows); replaying %zu runs of %zu jobs starting %s .. %s "
            "(%zu jobs with a usable SLO have no run to replay; %ld runs of jobs without a usable SLO, "
            "%ld outside --from/--until; %ld SLO rows not actionable)\n",
            slk_progname, io.n.runs_in + io.n.runs_noslo, io.n.rows, io.set.nruns, jobs, b0, b1,
            io.set.njobs - jobs, io.n.runs_noslo, io.n.runs_outside, io.n.unusable);
    if (aligned)
        fprintf(slk_summary(),
                "%s: --align reservation: %ld runs start at their reservation (or input) instead of "
                "their recorded start in the plan regimes\n",
                slk_progname, moved);
    fprintf(slk_summary(), "%s: %-9s %-5s %8s %8s %9s %15s %10s %8s\n", slk_progname, "regime", "idle",
            "runs", "missed", "miss_rate", "footprint_cores", "util", "time_s");
    for (int i = 0; i < opt.nreg; i++) {
        const struct replay_totals *x = &tot[i];
        fprintf(slk_summary(), "%s: %-9s %-5s %8ld %8ld %8.2f%% %15.1f %10.3f %8.2f", slk_progname,
                replay_regime_name(opt.reg[i]), idle_of(i) ? "fair" : "none", x->runs, x->missed,
                x->runs ? 100.0 * (double)x->missed / (double)x->runs : 0.0, x->peak_cores,
                x->reserved_core_s > 0 ? x->used_core_s / x->reserved_core_s : 0.0, elapsed[i]);
        if (opt.reg[i] == REPLAY_PLAN_DRA)
            fprintf(slk_summary(),
                    "  (dra: %llu extended, %llu renewed, %llu refused: %llu plan full, %llu nothing "
                    "allocated in the recent window, %llu rho*max recent < 1)",
                    (unsigned long long)x->dra.extended, (unsigned long long)x->dra.renewed,
                    (unsigned long long)x->dra.refused_full + (unsigned long long)x->dra.refused_nocap +
                        (unsigned long long)x->dra.refused_rho,
                    (unsigned long long)x->dra.refused_full, (unsigned long long)x->dra.refused_nocap,
                    (unsigned long long)x->dra.refused_rho);
        fputc('\n', slk_summary());
    }
    unplanned_note(tot);
}

int main(int argc, char **argv)
{
    slk_init("replay");
    dra_opts_default(&opt.dra);
    static const struct argp_child kids[] = {{&dra_argp, 0, "DRA (--regime plan+dra):", 2}, CLI_ARGP_CHILD, {0}};
    static const struct argp argp = {options, parse_opt, "[USAGE]", DOC, kids, NULL, NULL};
    cli_roles("usage", "slo", "provisioned", "runs", (const char *)NULL);
    cli_keys("usage", replayio_usage_keys);
    cli_keys("slo", slo_request_keys);
    cli_keys("provisioned", replayio_provisioned_keys);
    cli_keys("runs", replayio_runs_keys);
    static const char short_streams[] = "it shows no progress (it reads live or short streams)";
    cli_refuse("progress", short_streams);
    cli_refuse("no-progress", short_streams);
    cli_parse(&argp, argc, argv, NULL);
    cli_outputs((const char *const[]){opt.summary}, 1);

    plan *p = NULL;
    int64_t *starts = NULL;
    int st = load(&p);
    outf *o = st == SLK_OK ? outf_open(slk_opt.output, &st) : NULL;
    if (o) {
        struct replay_totals tot[MAX_REGIMES];
        double elapsed[MAX_REGIMES];
        long moved = 0;
        starts = opt.align && p ? replayio_aligned_starts(&io, p, &moved) : NULL;
        csvw *w = csvw_new_with(outf_fp(o), cli_dialect(NULL));
        st = replay_all(p, starts, w, tot, elapsed);
        if (st == SLK_OK && csvw_error(w))
            st = SLK_EIO;
        csvw_free(w);
        if (st == SLK_OK && opt.summary)
            st = write_summary(opt.summary, tot);
        st = outf_finish(o, st);
        if (st == SLK_OK && !slk_opt.quiet)
            report(tot, elapsed, starts != NULL, moved);
    }
    free(starts);
    plan_free(p);
    replayio_free(&io);
    return slk_finish(st);
}

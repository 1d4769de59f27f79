/* traceconv — public cluster traces into slokit's inputs.
 *
 *   traceconv google-runs  JOB_EVENTS...                 > runs.csv    (sloinfer)
 *   traceconv google-usage JOB_EVENTS... TASK_EVENTS...  > usage.csv   (skyfit)
 *   traceconv swf LOG.swf            --capacities vcs.csv > jobs.csv   (stretch)
 *   traceconv alibaba-gpu PODS.csv --nodes NODES.csv --capacities vcs.csv > jobs.csv
 *   traceconv swim WORKLOAD.tsv      --capacities vcs.csv > jobs.csv
 *
 * The formats and mappings live in lib/import/ (google, swf, gpupods, swim);
 * this file holds the options and the plumbing. */
#include "base/cli.h"
#include "base/csvio.h"
#include "base/diag.h"
#include "base/outfile.h"
#include "import/google.h"
#include "import/gpupods.h"
#include "import/rawin.h"
#include "import/swf.h"
#include "import/swim.h"
#include "import/vcjobs.h"

#include <argp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum fmt { F_GOOGLE_RUNS, F_GOOGLE_USAGE, F_SWF, F_ALIBABA_GPU, F_SWIM };
static const char *const fmt_names[] = {"google-runs", "google-usage", "swf", "alibaba-gpu",
                                        "swim", NULL};
static const char *const par_names[] = {"none", "trace", NULL};
static const char *const unit_names[] = {"gpu", "cpu", NULL};
static const char *const swf_vc_names[] = {"user", "group", "queue", "partition", NULL};
static const char *const pod_vc_names[] = {"qos", "gpu_spec", NULL};

static struct {
    int fmt;                  /* -1 until the first argument */
    char **files;
    int nfiles;
    const char *capacities, *nodes, *vc_by;
    double epoch, step, cores, mem_mb, load, rate;
    int unit, vcs, parallelism;  /* parallelism: -1 default, 0 none, 1 trace */
    int have_epoch;              /* swf: --epoch replaces the header's UnixStartTime */
    long servers;
    unsigned given; /* bit O_x: the option was given */
} opt = {.fmt = -1, .step = 60, .load = 0.8, .rate = 5e6, .vcs = 4, .parallelism = -1};

enum { O_CAPS = 1, O_NODES, O_EPOCH, O_STEP, O_MACHINE, O_VCBY, O_UNIT, O_VCS, O_LOAD,
       O_RATE, O_SERVERS, O_PAR };

/* Which formats take each format-specific option (--epoch: every format).
 * The one place that says it: validate refuses an option given to any
 * other format (exit 64), where it would do nothing. */
#define FMT(f) (1u << (f))
#define VC_FMTS (FMT(F_SWF) | FMT(F_ALIBABA_GPU) | FMT(F_SWIM))
static const struct fmt_option {
    const char *name;
    int key;
    unsigned fmts;
} fmt_options[] = {
    {"capacities", O_CAPS, VC_FMTS},
    {"step", O_STEP, FMT(F_GOOGLE_USAGE)},
    {"machine", O_MACHINE, FMT(F_GOOGLE_USAGE)},
    {"vc-by", O_VCBY, FMT(F_SWF) | FMT(F_ALIBABA_GPU)},
    {"nodes", O_NODES, FMT(F_ALIBABA_GPU)},
    {"unit", O_UNIT, FMT(F_ALIBABA_GPU)},
    {"max-parallelism", O_PAR, VC_FMTS},
    {"servers", O_SERVERS, FMT(F_SWIM)},
    {"vcs", O_VCS, FMT(F_SWIM)},
    {"load", O_LOAD, FMT(F_SWIM)},
    {"rate", O_RATE, FMT(F_SWIM)},
};

static const struct argp_option options[] = {
    {"capacities", O_CAPS, "FILE", 0,
     "swf, alibaba-gpu, swim: write the VCs' capacities (vc,capacity) to FILE", 0},
    {"epoch", O_EPOCH, "TIME", 0,
     "Every format: epoch seconds (or ISO 8601) of the trace's time 0 (default 0)", 0},
    {"step", O_STEP, "DUR", 0,
     "google-usage: sample step (default 60s, 1s to 1e9s); give skyfit the same --step", 0},
    {"machine", O_MACHINE, "cores=N,mem=M", 0,
     "google-usage: size of the trace's largest machine; adds cores and mem_mb per container", 0},
    {"vc-by", O_VCBY, "FIELD", 0,
     "swf: user, group (default), queue or partition; alibaba-gpu: qos (default) or gpu_spec", 0},
    {"nodes", O_NODES, "FILE", 0, "alibaba-gpu: the node list (capacity)", 0},
    {"unit", O_UNIT, "gpu|cpu", 0, "alibaba-gpu: the resource a server stands for (default gpu)", 0},
    {"servers", O_SERVERS, "N", 0, "swim: cluster size split among the VCs by work (default: from --load)",
     0},
    {"vcs", O_VCS, "N", 0, "swim: number of VCs, job N goes to fb(N mod VCS) (default 4)", 0},
    {"load", O_LOAD, "X", 0, "swim: each VC's load factor when --servers is not given (default 0.8)", 0},
    {"rate", O_RATE, "BYTES", 0, "swim: bytes one server moves a second (default 5e6)", 0},
    {"max-parallelism", O_PAR, "trace|none", 0,
     "swf, alibaba-gpu, swim: trace, each job's own size (swf: processors, alibaba-gpu: the pod's demand, "
     "swim: map tasks = input / 128 MiB), or none, empty: fully malleable (default: trace, none for swim)",
     0},
    {0}};

static error_t parse_opt(int key, char *arg, struct argp_state *st)
{
    if (key >= O_CAPS && key <= O_PAR)
        opt.given |= 1u << key;
    switch (key) {
    case O_CAPS: opt.capacities = arg; break;
    case O_NODES: opt.nodes = arg; break;
    case O_EPOCH: opt.epoch = cli_time(st, "epoch", arg); opt.have_epoch = 1; break;
    case O_STEP: opt.step = cli_duration_max(st, "step", arg, 1, 1e9); break; /* in us, an int64 */
    case O_MACHINE: cli_resources(st, "machine", arg, &opt.cores, &opt.mem_mb); break;
    case O_VCBY: opt.vc_by = arg; break;
    case O_UNIT: opt.unit = cli_choice(st, "unit", arg, unit_names); break;
    case O_VCS: opt.vcs = (int)cli_int(st, "vcs", arg, 1, 1000000); break;
    case O_LOAD: opt.load = cli_double(st, "load", arg, 1e-6, 1e6); break;
    case O_RATE: opt.rate = cli_double(st, "rate", arg, 1, 1e15); break;
    case O_SERVERS: opt.servers = (long)cli_int(st, "servers", arg, 1, 1000000000); break;
    case O_PAR: opt.parallelism = cli_choice(st, "max-parallelism", arg, par_names); break;
    case ARGP_KEY_ARG:
        if (opt.fmt < 0) {
            opt.fmt = cli_choice(st, "FORMAT", arg, fmt_names);
            break;
        }
        return ARGP_ERR_UNKNOWN;
    case ARGP_KEY_ARGS:
        opt.files = st->argv + st->next;
        opt.nfiles = st->argc - st->next;
        break;
    case ARGP_KEY_END:
        if (opt.fmt < 0)
            argp_error(st, "which FORMAT? (google-runs, google-usage, swf, alibaba-gpu, swim)");
        break;
    default: return ARGP_ERR_UNKNOWN;
    }
    return 0;
}

/* the formats of mask fmts as "swf, alibaba-gpu and swim" into buf */
static const char *fmt_list(unsigned fmts, char *buf, size_t size)
{
    size_t len = 0;
    int n = 0, total = 0;
    for (int f = 0; fmt_names[f]; f++)
        total += (fmts & FMT(f)) != 0;
    buf[0] = 0;
    for (int f = 0; fmt_names[f]; f++) {
        if (!(fmts & FMT(f)))
            continue;
        const char *sep = ++n == 1 ? "" : n == total ? " and " : ", ";
        len += (size_t)snprintf(buf + len, size - len, "%s%s", sep, fmt_names[f]);
    }
    return buf;
}

/* option combinations, before any input is read; exits 64 */
static void validate(void)
{
    int vc_fmt = opt.fmt >= F_SWF;
    char why[160] = "";
    for (size_t i = 0; !why[0] && i < sizeof fmt_options / sizeof *fmt_options; i++) {
        const struct fmt_option *fo = &fmt_options[i];
        char fmts[64];
        if ((opt.given & 1u << fo->key) && !(fo->fmts & FMT(opt.fmt)))
            snprintf(why, sizeof why, "--%s is an option of %s, not of %s", fo->name,
                     fmt_list(fo->fmts, fmts, sizeof fmts), fmt_names[opt.fmt]);
    }
    const char *w = NULL;
    if (why[0])
        w = why;
    else if (opt.nfiles == 0)
        w = "no input files";
    else if (vc_fmt && !opt.capacities)
        w = "--capacities FILE is required: stretch needs the VCs' capacities";
    else if (vc_fmt && opt.nfiles > 1)
        w = "one input file";
    else if (opt.fmt == F_ALIBABA_GPU && !opt.nodes)
        w = "--nodes FILE is required with alibaba-gpu";
    else if (opt.epoch != floor(opt.epoch))
        w = "--epoch must be whole seconds";
    if (w) {
        slk_error("%s (traceconv --help)", w);
        slk_finish(SLK_EUSAGE);
        exit(SLK_EUSAGE);
    }
}

static int vc_by(const char *const *names, int dflt)
{
    if (!opt.vc_by)
        return dflt;
    for (int i = 0; names[i]; i++)
        if (strcmp(names[i], opt.vc_by) == 0)
            return i;
    slk_error("invalid value for --vc-by: '%s' (want %s%s%s...)", opt.vc_by, names[0],
              names[1] ? ", " : "", names[1] ? names[1] : "");
    return -1;
}

/* rawin_open with --on-error skip's rejects (bad rows skipped, listed) */
static rawin *open_raw(const char *path, char delim, int *st)
{
    rawin *in = rawin_open(path, delim, st);
    if (in && slk_opt.on_error_skip)
        rawin_set_rejects(in, cli_dialect(NULL)->rejects);
    return in;
}

static int google(csvw *w)
{
    struct google_opts go = {(int64_t)opt.epoch, opt.step, opt.cores, opt.mem_mb};
    google_trace *g = google_new(&go);
    int st = SLK_OK;
    for (int i = 0; st == SLK_OK && i < opt.nfiles; i++) {
        rawin *in = open_raw(opt.files[i], ',', &st);
        if (in)
            st = google_read(g, in, opt.fmt == F_GOOGLE_USAGE);
        rawin_close(in);
    }
    const struct google_stats *s = google_stats(g);
    if (st == SLK_OK && opt.fmt == F_GOOGLE_USAGE && (!s->events || !s->task_events)) {
        /* a glob that matched nothing: no table, not an empty one */
        slk_error("google-usage read no %s: give the job_events files, then the task_events files",
                  s->events ? "task_events (13 fields)" : "job_events (8 fields)");
        st = SLK_EDATA;
    }
    if (st == SLK_OK && opt.fmt == F_GOOGLE_RUNS) {
        google_write_runs(g, w);
        if (!slk_opt.quiet)
            fprintf(slk_summary(),
                    "traceconv: %ld job events, %ld jobs: %ld runs written; skipped %ld "
                    "submitted before the window, %ld never scheduled, %ld not ended\n",
                    s->events, s->jobs, s->runs, s->before_window, s->never_started, s->not_ended);
    } else if (st == SLK_OK) {
        google_write_usage(g, w);
        char norequest[96] = ""; /* only --machine drops a run: one with no shape */
        if (opt.cores > 0)
            snprintf(norequest, sizeof norequest, ", %ld requesting neither CPU nor memory",
                     s->usage_norequest);
        if (!slk_opt.quiet)
            fprintf(slk_summary(),
                    "traceconv: %ld task events, %ld task runs: %ld job runs written "
                    "(%ld rows); skipped %ld with a task outside the files, %ld not in the "
                    "job events%s\n",
                    s->task_events, s->tasks, s->usage_runs, s->usage_rows, s->usage_incomplete,
                    s->usage_unnamed, norequest);
    }
    google_free(g);
    return st;
}

/* alibaba-gpu: the pod and node lists are CSV (quoted fields and all), read
 * by csvio's reader in the trace's own layout: traceconv refuses --col, -H
 * and --names, so the dialect is plain but for --on-error skip's rejects. */
static int alibaba_jobs(struct vcjobs *t)
{
    struct csv_dialect d = csv_dialect_plain;
    d.rejects = cli_dialect(NULL)->rejects;
    struct gpupods_stats ps = {0};
    double total = 0;
    int by = vc_by(pod_vc_names, GPUPODS_VC_QOS);
    if (by < 0)
        return SLK_EUSAGE;
    int st = gpupods_read_nodes(opt.nodes, &d, (enum gpupods_unit)opt.unit, &total);
    if (st == SLK_OK)
        st = gpupods_read(opt.files[0], &d, (enum gpupods_unit)opt.unit, (enum gpupods_vc_by)by, opt.epoch, t,
                          &ps);
    const char *name = strcmp(opt.files[0], "-") == 0 ? "<stdin>" : opt.files[0];
    if (st == SLK_OK && vcjobs_capacity_share(t, (long)floor(total)) != 0) {
        slk_error_at(name, 0, "%zu VCs but the node list has %.0f %ss", t->nvc, total, unit_names[opt.unit]);
        st = SLK_EDATA;
    }
    if (st == SLK_OK && t->njobs == 0) {
        slk_error_at(name, 0, "no jobs to write");
        st = SLK_EDATA;
    }
    if (st == SLK_OK && !slk_opt.quiet)
        fprintf(slk_summary(),
                "traceconv: %ld pods: %ld jobs; skipped %ld never scheduled, %ld with "
                "no %s, %ld deleted when scheduled; %.0f %ss in %zu VCs\n",
                ps.pods, ps.jobs, ps.unscheduled, ps.no_demand, unit_names[opt.unit], ps.no_duration, total,
                unit_names[opt.unit], t->nvc);
    return st;
}

/* swf, swim: read the jobs and set the capacities */
static int raw_jobs(struct vcjobs *t)
{
    int st = SLK_OK;
    rawin *in = open_raw(opt.files[0], opt.fmt == F_SWF ? RAWIN_BLANKS : '\t', &st);
    if (!in)
        return st;
    if (opt.fmt == F_SWF) {
        struct swf_stats ss = {0};
        int by = vc_by(swf_vc_names, SWF_VC_GROUP);
        st = by < 0 ? SLK_EUSAGE : swf_read(in, (enum swf_vc_by)by, opt.have_epoch ? opt.epoch : NAN, t, &ss);
        long size = ss.max_procs > 0 ? ss.max_procs : ss.max_nodes;
        if (st == SLK_OK && size <= 0)
            st = rawin_fail_file(in, "no MaxProcs or MaxNodes in the header: the cluster size is unknown");
        else if (st == SLK_OK && vcjobs_capacity_share(t, size) != 0)
            st = rawin_fail_file(in, "%zu VCs but only %ld processors", t->nvc, size);
        if (st == SLK_OK && !slk_opt.quiet)
            fprintf(slk_summary(),
                    "traceconv: %ld jobs, %ld skipped (no run time or processors); "
                    "%ld processors in %zu VCs\n",
                    ss.jobs, ss.skipped, size, t->nvc);
    } else {
        struct swim_params sp = {opt.vcs, opt.rate, opt.parallelism == 1, opt.epoch};
        st = swim_read(in, &sp, t);
        if (st == SLK_OK && t->njobs == 0)
            st = rawin_fail_file(in, "no jobs");
        if (st == SLK_OK && opt.servers > 0 && vcjobs_capacity_share(t, opt.servers) != 0)
            st = rawin_fail_file(in, "%zu VCs but only %ld servers", t->nvc, opt.servers);
        else if (st == SLK_OK && opt.servers == 0)
            vcjobs_capacity_load(t, opt.load, vcjobs_horizon(t));
        if (st == SLK_OK && !slk_opt.quiet)
            fprintf(slk_summary(), "traceconv: %zu jobs in %zu VCs\n", t->njobs, t->nvc);
    }
    if (st == SLK_OK && t->njobs == 0)
        st = rawin_fail_file(in, "no jobs to write");
    rawin_close(in);
    return st;
}

/* swf, alibaba-gpu, swim: read the jobs and set the capacities */
static int vc_jobs(struct vcjobs *t)
{
    int st = opt.fmt == F_ALIBABA_GPU ? alibaba_jobs(t) : raw_jobs(t);
    for (size_t i = 0; opt.parallelism == 0 && i < t->njobs; i++)
        t->jobs[i].maxpar = 0;
    return st;
}

static int stretch_inputs(csvw *w, outf **oc)
{
    struct vcjobs t = {0};
    int st = vc_jobs(&t);
    if (st == SLK_OK && (*oc = outf_open(opt.capacities, &st))) {
        csvw *wc = csvw_new_with(outf_fp(*oc), cli_dialect(NULL));
        vcjobs_write_capacities(&t, wc);
        csvw_free(wc);
        vcjobs_write_jobs(&t, w);
        if (!slk_opt.quiet)
            fprintf(slk_summary(), "traceconv: next: stretch --horizon %.0fs %s %s\n", vcjobs_horizon(&t),
                    opt.capacities, slk_opt.output ? slk_opt.output : "JOBS.csv");
    }
    vcjobs_free(&t);
    return st;
}

int main(int argc, char **argv)
{
    slk_init("traceconv");
    static const struct argp_child kids[] = {CLI_ARGP_CHILD, {0}};
    static const struct argp argp = {
        options,
        parse_opt,
        "FORMAT FILE...",
        "Convert a public cluster trace into slokit's inputs: runs for sloinfer, usage for "
        "skyfit, jobs and VC capacities for stretch.  FORMAT: google-runs, google-usage, "
        "swf, alibaba-gpu, swim.  Files may be gzip.  An option of another format is a "
        "usage error.  Mappings: traceconv(1)."
        "\vExamples:\n"
        "  # with the files of ../shared/data (gzip is read as is)\n"
        "  traceconv google-runs job_events-*.csv.gz > runs.csv\n"
        "  sloinfer runs.csv > slo.csv\n"
        "  traceconv google-usage job_events-*.csv.gz \\\n"
        "      task_events-part-00001-of-00500.csv.gz > usage.csv\n"
        "  skyfit usage.csv > skylines.csv\n"
        "  traceconv swf log.swf --capacities vcs.csv > jobs.csv\n"
        "  traceconv alibaba-gpu openb_pod_list_gpushare40.csv \\\n"
        "      --nodes openb_node_list_all_node.csv --capacities vcs.csv > jobs.csv\n"
        "  traceconv swim FB-2009_samples_24_times_1hr_0.tsv \\\n"
        "      --capacities vcs.csv > jobs.csv\n"
        "  stretch --horizon 86400s vcs.csv jobs.csv > stretch.csv",
        kids,
        NULL,
        NULL};
    /* each format has its published layout: no option of the CSV reader applies */
    static const char fixed[] = "each trace format has its published layout";
    cli_refuse("no-header", fixed);
    cli_refuse("names", fixed);
    cli_refuse("col", fixed);
    cli_refuse("time-unit", "the formats fix their time units (Google 2011: microseconds, the "
                            "others: seconds)");
    cli_parse(&argp, argc, argv, NULL);
    validate();
    cli_outputs((const char *const[]){opt.capacities}, 1);

    int st = SLK_OK;
    outf *o = outf_open(slk_opt.output, &st), *oc = NULL;
    if (o) {
        csvw *w = csvw_new_with(outf_fp(o), cli_dialect(NULL));
        st = opt.fmt <= F_GOOGLE_USAGE ? google(w) : stretch_inputs(w, &oc);
        csvw_free(w);
        outf *both[2] = {oc, o}; /* neither replaced unless both are complete */
        st = outf_finish_all(both, 2, st);
    }
    return slk_finish(st);
}

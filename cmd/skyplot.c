/* skyplot — pictures of the toolkit's time series, drawn by gnuplot.
 *
 *   skyplot skyline [USAGE] --fit SKYLINE [--job J]   run skylines + the fitted skyline
 *   skyplot plan [PLAN] [--load LOAD] [--top N] [--by COL]   stacked reservations (+ cost vs capacity)
 *   skyplot tenants [UTIL] --classes TENANTS           utilization band per tenant class
 *   skyplot vcs [DAILY]                                VC load and stretch per day
 *   skyplot memory [SERIES]                            a peakgate node's memory over time
 *   skyplot lines [CSV] --x COL --y COL[,COL] [--by COL] [--panels]   anything else
 *
 * lib/plot/charts builds the charts from the CSV files; lib/plot/plot draws
 * them with gnuplot (and keeps user text out of its script).  This file
 * holds the options and the plumbing. */
#include "base/cli.h"
#include "base/csvio.h"
#include "base/diag.h"
#include "base/outfile.h"
#include "plot/charts.h"
#include "plot/plot.h"

#include <argp.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static struct {
    const char *chart, *input, *fit, *job, *load, *classes, *term, *x, *y, *by, *title;
    int top, top_set, width, height, panels, runs, runs_set;
} opt = {.top = 8, .runs = 5};

enum { OPT_FIT = 1, OPT_JOB, OPT_LOAD, OPT_CLASSES, OPT_TERM, OPT_X, OPT_Y, OPT_BY, OPT_TOP,
       OPT_WIDTH, OPT_HEIGHT, OPT_PANELS, OPT_TITLE, OPT_RUNS };

static const struct argp_option options[] = {
    {"fit", OPT_FIT, "FILE", 0, "skyline: skyfit output (job,step,offset,alloc) to draw over the runs", 0},
    {"job", OPT_JOB, "NAME", 0, "skyline: the job to draw (default: the first in the input)", 0},
    {"runs", OPT_RUNS, "N", 0,
     "skyline: name at most N runs, the latest (default 5); with more runs, also draw their 10-90% band and "
     "median",
     0},
    {"load", OPT_LOAD, "FILE", 0, "plan: lcmpack --load output (t,cost) for a cost-vs-capacity panel", 0},
    {"top", OPT_TOP, "N", 0,
     "plan: stack the N largest jobs (or --by groups), the rest as 'other' (default 8; 6 with --term dumb)",
     0},
    {"classes", OPT_CLASSES, "FILE", 0,
     "tenants: tenantclass output (tenant,class) mapping tenants to classes", 0},
    {"x", OPT_X, "COL", 0, "lines, memory, vcs: the x column (default t; vcs: day)", 0},
    {"y", OPT_Y, "COLS", 0,
     "lines, memory, vcs: comma-separated y columns (default: every other column; memory: its *_mb columns; "
     "vcs: load,mean_stretch)",
     0},
    {"by", OPT_BY, "COL[,COL]", 0,
     "lines, memory, vcs, plan: one series (plan: one band) per value of COL (per combination of up to 4 "
     "columns; default: memory policy,k,task, those in the input; vcs vc; plan job)",
     0},
    {"panels", OPT_PANELS, NULL, 0, "lines, memory: one panel per y column (vcs: always)", 0},
    {"title", OPT_TITLE, "TEXT", 0, "Chart title", 0},
    {"term", OPT_TERM, "T", 0,
     "svg, png or dumb (text for a terminal); default from -o's extension, else svg", 0},
    {"width", OPT_WIDTH, "N", 0, "Width in pixels (svg, png) or characters (dumb)", 0},
    {"height", OPT_HEIGHT, "N", 0, "Height in pixels or characters", 0},
    {0}};

/* stdin_inputs: how many inputs read standard input (FILE when absent or
 * "-", the side files when "-"): a second one would find it already read. */
static int stdin_inputs(void)
{
    const char *in[] = {opt.input ? opt.input : "-", opt.fit, opt.load, opt.classes};
    return cli_dash_count(in, sizeof in / sizeof in[0]);
}

/* cols_keys: the columns of a --x, --y or --by list (NULL: none given),
 * keys of the chart's data (a --col rename of them is the user's to give);
 * returns how many the list names */
static int cols_keys(const char *list)
{
    if (!list)
        return 0;
    int n = 0;
    char *copy = xstrdup(list), *save = NULL;
    for (char *c = strtok_r(copy, ",", &save); c; c = strtok_r(NULL, ",", &save), n++)
        cli_keys("input", (const char *const[]){c, NULL});
    free(copy);
    return n;
}

/* chart_options: a chart's own option given to another chart is a usage
 * error (it would be ignored): each option and the charts it is for */
static void chart_options(struct argp_state *st)
{
    static const char charts[] = ", skyline, plan, tenants, vcs, memory, lines, ";
    const struct {
        const char *name, *charts;
        int given;
    } only[] = {{"fit", "skyline", opt.fit != NULL},
                {"job", "skyline", opt.job != NULL},
                {"runs", "skyline", opt.runs_set},
                {"load", "plan", opt.load != NULL},
                {"top", "plan", opt.top_set},
                {"classes", "tenants", opt.classes != NULL},
                {"x", "lines, memory, vcs", opt.x != NULL},
                {"y", "lines, memory, vcs", opt.y != NULL},
                {"by", "lines, memory, vcs, plan", opt.by != NULL},
                {"panels", "lines, memory, vcs", opt.panels}};
    char word[32];
    snprintf(word, sizeof word, ", %s, ", opt.chart);
    if (strlen(opt.chart) > 16 || !strstr(charts, word))
        return; /* an unknown chart: chart_draw names the charts */
    for (size_t i = 0; i < sizeof only / sizeof only[0]; i++) {
        char list[40];
        snprintf(list, sizeof list, ", %s, ", only[i].charts);
        if (only[i].given && !strstr(list, word))
            argp_error(st, "--%s does not apply to the %s chart (it is for %s)", only[i].name, opt.chart,
                       only[i].charts);
    }
}

static error_t parse_opt(int key, char *arg, struct argp_state *st)
{
    switch (key) {
    case OPT_FIT: opt.fit = arg; break;
    case OPT_JOB: opt.job = arg; break;
    case OPT_LOAD: opt.load = arg; break;
    case OPT_CLASSES: opt.classes = arg; break;
    case OPT_X: opt.x = arg; break;
    case OPT_Y: opt.y = arg; break;
    case OPT_BY: opt.by = arg; break;
    case OPT_PANELS: opt.panels = 1; break;
    case OPT_TITLE: opt.title = arg; break;
    case OPT_RUNS:
        opt.runs = (int)cli_int(st, "runs", arg, 0, 50);
        opt.runs_set = 1;
        break;
    case OPT_TOP:
        opt.top = (int)cli_int(st, "top", arg, 1, 50);
        opt.top_set = 1;
        break;
    case OPT_WIDTH: opt.width = (int)cli_int(st, "width", arg, 20, 10000); break;
    case OPT_HEIGHT: opt.height = (int)cli_int(st, "height", arg, 10, 10000); break;
    case OPT_TERM:
        if (strcmp(arg, "svg") && strcmp(arg, "png") && strcmp(arg, "dumb"))
            argp_error(st, "invalid value for --term: '%s' (want svg, png or dumb)", arg);
        opt.term = arg;
        break;
    case ARGP_KEY_ARG:
        if (!opt.chart)
            opt.chart = arg;
        else if (!opt.input)
            opt.input = arg;
        else
            argp_error(st, "too many arguments ('%s')", arg);
        break;
    case ARGP_KEY_END:
        if (!opt.chart)
            argp_error(st, "which chart? (skyline, plan, tenants, vcs, memory, lines)");
        chart_options(st);
        if (stdin_inputs() > 1)
            argp_error(st, "only one input can be standard input (FILE is, unless given; "
                           "give --fit, --load and --classes as files)");
        cols_keys(opt.x);
        cols_keys(opt.y);
        if (cols_keys(opt.by) > CHART_MAX_BY)
            argp_error(st, "--by: at most %d columns ('%s')", CHART_MAX_BY, opt.by);
        if (strcmp(opt.chart, "memory") == 0)
            cli_keys("input", chart_memory_keys);
        break;
    default: return ARGP_ERR_UNKNOWN;
    }
    return 0;
}

static const char *pick_term(void)
{
    if (opt.term)
        return opt.term;
    const char *o = slk_opt.output;
    size_t n = o ? strlen(o) : 0;
    if (n > 4 && strcasecmp(o + n - 4, ".png") == 0) /* a.PNG too */
        return "png";
    return "svg";
}

/* thin_columns: the columns lines, vcs and memory thin each series to (at
 * most 4 points a column): an image's pixels; on a text terminal, 8 per
 * character, so that a line leaving a column's peak falls in the same
 * character as the whole series' does (one per character drew the line
 * down from a spike a character late) */
static int thin_columns(const char *term)
{
    if (strcmp(term, "dumb") == 0)
        return 8 * (opt.width ? opt.width : PLOT_WIDTH_DUMB);
    return opt.width ? opt.width : PLOT_WIDTH;
}

/* draw p with gnuplot into -o (atomically) or stdout, and say so.  A write
 * error on the output stream is reported once, by outf_finish (it sees the
 * stream's error flag); one that left no flag (the image pipe failed) is
 * named here, where the name is known (plot_render leaves the cause in
 * errno), in outf_commit's words. */
static int render(plot *p, const char *term)
{
    int st = SLK_OK;
    const char *out = slk_opt.output;
    outf *o = outf_open(out, &st);
    if (o) {
        st = plot_render(p, term, opt.width, opt.height, outf_fp(o));
        if (st == SLK_EIO && out && strcmp(out, "-") != 0 && errno != EPIPE && !ferror(outf_fp(o)))
            slk_error("%s: write error: %s%s", out, strerror(errno),
                      outf_is_special(out) ? "" : " (old file left unchanged)");
        st = outf_finish(o, st);
    }
    if (st == SLK_OK && !slk_opt.quiet && slk_opt.output)
        fprintf(slk_summary(), "skyplot: %s chart, %d series, %s -> %s\n", opt.chart, plot_nseries(p), term,
                slk_opt.output);
    return st;
}

int main(int argc, char **argv)
{
    slk_init("skyplot");
    static const struct argp_child kids[] = {CLI_ARGP_CHILD, {0}};
    static const struct argp argp = {
        options,
        parse_opt,
        "CHART [FILE]",
        "Draw the toolkit's CSV time series as SVG, PNG or a text chart, with gnuplot.\n"
        "CHART is skyline, plan, tenants, vcs, memory or lines; FILE defaults to standard input."
        "\vExamples:\n"
        "  # the runs' 10-90% band, median, 5 latest runs and the fitted skyline\n"
        "  skyplot skyline usage.csv --fit skyline.csv --job job00001 -o job1.png\n"
        "  skyplot plan plan.csv --load load.csv -o plan.png\n"
        "  skyplot plan plan.csv --term dumb          # one character per job\n"
        "  # per tenant class: 10-90% of its tenants and their median\n"
        "  skyplot tenants util.csv --classes tenants.csv -o tenants.png\n"
        "  skyplot vcs daily.csv -o vcs.svg           # dates on the x axis\n"
        "  skyplot memory mem.csv -o mem.svg   # peakgate --node-series, per policy, k",
        kids,
        NULL,
        NULL};
    cli_roles("input", "fit", "load", "classes", (const char *)NULL);
    cli_keys("input", chart_input_keys);
    cli_keys("fit", chart_fit_keys);
    cli_keys("load", chart_load_keys);
    cli_keys("classes", chart_classes_keys);
    static const char charts[] = "skyplot writes charts, not CSV";
    cli_refuse("no-output-header", charts);
    cli_refuse("precision", charts);
    cli_parse(&argp, argc, argv, NULL);
    cli_outputs(NULL, 0);

    const char *term = pick_term();
    /* a text terminal has 7 line characters: 6 jobs + "other" stay apart */
    struct chart_opts co = {.input = opt.input,
                            .d_input = cli_dialect(NULL),
                            .fit = opt.fit,
                            .d_fit = cli_dialect("fit"),
                            .load = opt.load,
                            .d_load = cli_dialect("load"),
                            .classes = opt.classes,
                            .d_classes = cli_dialect("classes"),
                            .job = opt.job,
                            .x = opt.x,
                            .y = opt.y,
                            .by = opt.by,
                            .runs = opt.runs,
                            .top = strcmp(term, "dumb") == 0 && !opt.top_set ? 6 : opt.top,
                            .panels = opt.panels,
                            .quiet = slk_opt.quiet,
                            .columns = thin_columns(term)};
    plot *p = plot_new(opt.title ? opt.title : opt.chart);
    int st = chart_draw(p, opt.chart, &co);
    if (st == SLK_OK)
        st = render(p, term);
    plot_free(p);
    return slk_finish(st);
}

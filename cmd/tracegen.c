/* tracegen — realistic synthetic telemetry for every input slokit reads.
 *
 *   tracegen KIND [--seed N] [--count N] [--days D] [--start T] [--set k=v]... [--truth FILE] [-o FILE]
 *
 * The kinds and their schemas are in lib/gen_<kind>.c and tracegen(1). */
#include "base/cli.h"
#include "base/csvio.h"
#include "base/diag.h"
#include "gen/gen.h"
#include "base/outfile.h"

#include <argp.h>
#include <stdio.h>
#include <string.h>

static struct gen_params params = {.start = 1767571200.0 /* 2026-01-05T00:00:00Z, a Monday */};
static const char *kind_name;
static const char *truth_path;
static int list_kinds;

enum { OPT_COUNT = 1, OPT_DAYS, OPT_START, OPT_SET, OPT_TRUTH, OPT_LIST };

static const struct argp_option options[] = {
    {"count", OPT_COUNT, "N", 0, "Number of entities: jobs, tenants, VCs or tasks (default: the kind's)", 0},
    {"days", OPT_DAYS, "D", 0, "Length of the trace in days (default: the kind's)", 0},
    {"start", OPT_START, "TIME", 0, "Start of the trace, epoch seconds or ISO 8601 (default 2026-01-05T00:00:00Z)", 0},
    {"set", OPT_SET, "KEY=VALUE", 0, "A parameter of the kind (repeatable; see --list and tracegen(1))", 0},
    {"truth", OPT_TRUTH, "FILE", 0, "Also write the ground truth (true periods, patterns, classes) to FILE", 0},
    {"list", OPT_LIST, NULL, 0, "List the kinds, their columns and --set keys, and exit", 0},
    {0}
};

static error_t parse_opt(int key, char *arg, struct argp_state *st)
{
    switch (key) {
    case OPT_COUNT: params.count = (long)cli_int(st, "count", arg, 1, 1000000000); break;
    case OPT_DAYS: params.days = cli_double(st, "days", arg, 1.0 / 24, 3660); break;
    case OPT_START: params.start = cli_time(st, "start", arg); break;
    case OPT_SET: {
        char *eq = strchr(arg, '=');
        if (!eq || eq == arg)
            argp_error(st, "invalid value for --set: '%s' (want KEY=VALUE)", arg);
        if (params.nset >= GEN_MAX_SET)
            argp_error(st, "too many --set options");
        *eq = 0;
        params.set_key[params.nset] = arg;
        params.set_val[params.nset++] = eq + 1;
        break;
    }
    case OPT_TRUTH: truth_path = arg; break;
    case OPT_LIST: list_kinds = 1; break;
    case ARGP_KEY_ARG:
        if (kind_name)
            argp_error(st, "one KIND only (got '%s' and '%s')", kind_name, arg);
        kind_name = arg;
        break;
    case ARGP_KEY_END:
        if (!kind_name && !list_kinds)
            argp_error(st, "which KIND? (tracegen --list shows them)");
        break;
    default: return ARGP_ERR_UNKNOWN;
    }
    return 0;
}

static void print_kinds(void)
{
    for (const struct gen_kind *const *k = gen_kinds; *k; k++) {
        printf("%s\t%s\n\tcolumns: %s\n", (*k)->name, (*k)->summary, (*k)->columns);
        if ((*k)->truth_columns)
            printf("\ttruth:   %s\n", (*k)->truth_columns);
        printf("\t--set:  ");
        for (const char *const *a = (*k)->keys; a && *a; a++)
            printf(" %s", *a);
        printf("\n");
    }
}

/* Option combinations that cannot work, refused before anything is written.
 * Returns SLK_OK or SLK_EUSAGE (the message is printed); *kind is the kind. */
static int check_options(const struct gen_kind **kind)
{
    const struct gen_kind *k = gen_find(kind_name);
    if (!k) {
        slk_error("unknown kind '%s' (tracegen --list shows the kinds)", kind_name);
        return SLK_EUSAGE;
    }
    if (gen_check(k, &params) < 0 || gen_check_times(k, &params) < 0)
        return SLK_EUSAGE;
    if (truth_path && !k->truth_columns) {
        slk_error("kind '%s' has no ground truth to write (--truth)", k->name);
        return SLK_EUSAGE;
    }
    *kind = k;
    return SLK_OK;
}

/* Generate kind k into -o (and its ground truth into --truth); both files
 * are replaced only when both are complete. */
static int generate(const struct gen_kind *k)
{
    int st;
    outf *o = outf_open(slk_opt.output, &st);
    if (!o)
        return st;
    outf *ot = NULL;
    if (truth_path && !(ot = outf_open(truth_path, &st))) {
        outf_abort(o);
        return st;
    }
    csvw *w = csvw_new_with(outf_fp(o), cli_dialect(NULL));
    csvw *wt = ot ? csvw_new_with(outf_fp(ot), cli_dialect(NULL)) : NULL;
    st = k->generate(&params, w, wt);
    csvw_free(w);
    csvw_free(wt);
    outf *both[2] = {ot, o};
    return outf_finish_all(both, 2, st);
}

int main(int argc, char **argv)
{
    slk_init("tracegen");
    static const struct argp_child kids[] = {CLI_ARGP_CHILD, {0}};
    static const struct argp argp = {
        options, parse_opt, "KIND",
        "Write synthetic cluster telemetry of one KIND as CSV, deterministically for a --seed."
        "\vKinds, their columns and --set keys: tracegen --list; the models: tracegen(1).\n"
        "Examples:\n"
        "  tracegen runs --count 50 --days 30 --truth truth.csv > runs.csv\n"
        "  tracegen usage --count 50 --days 30 | skyfit > skylines.csv\n"
        "  # the same jobs' provenance:\n"
        "  tracegen events --count 50 --days 30 -o events.csv\n"
        "  tracegen runs --set hourly_frac=1 --set fail_prob=0.1 --seed 7 > hourly.csv\n"
        "  tracegen tenants --count 1000 --truth patterns.csv | tenantclass",
        kids, NULL, NULL};
    /* a generator: the options of the CSV reader have no input to apply to */
    static const char no_input[] = "tracegen reads no input, it writes it";
    cli_refuse("no-header", no_input);
    cli_refuse("names", no_input);
    cli_refuse("col", no_input);
    cli_refuse("time-unit", no_input);
    cli_refuse("on-error", no_input);
    cli_refuse("rejects", no_input);
    cli_parse(&argp, argc, argv, NULL);
    cli_outputs((const char *const[]){truth_path}, 1);
    params.seed = slk_opt.seed;

    const struct gen_kind *k = NULL;
    int st = SLK_OK;
    if (list_kinds)
        print_kinds();
    else if ((st = check_options(&k)) == SLK_OK)
        st = generate(k);
    return slk_finish(st);
}

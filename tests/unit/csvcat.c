/* csvcat — a test driver for the CSV layer (not an installed tool).
 * Reads CSV with the common options and writes it back; with --sum COL also
 * checks numbers in COL and prints their sum on stderr.  Used by
 * tests/cli/csv.sh and bench/csv.sh. */
#include "base/cli.h"
#include "base/csvio.h"
#include "base/diag.h"
#include "base/outfile.h"

#include <argp.h>
#include <stdlib.h>

static const char *sum_col, *time_col, *bounded_col;
static int sum_only;
static const char *input = "-";

static error_t parse_opt(int key, char *arg, struct argp_state *st)
{
    switch (key) {
    case 's': sum_col = arg; break;
    case 't': time_col = arg; break;
    case 'b': bounded_col = arg; break;
    case 'S': sum_col = arg; sum_only = 1; break;
    case ARGP_KEY_END: { /* the columns it reads by name: its --col KEYs */
        const char *cols[] = {sum_col, time_col, bounded_col};
        for (size_t i = 0; i < 3; i++)
            if (cols[i])
                cli_keys(NULL, (const char *const[]){cols[i], NULL});
        break;
    }
    case ARGP_KEY_ARG: input = arg; break;
    default: return ARGP_ERR_UNKNOWN;
    }
    return 0;
}

int main(int argc, char **argv)
{
    slk_init("csvcat");
    static const struct argp_option opts[] = {{"sum", 's', "COL", 0, "Sum a numeric column", 0},
                                                    {"time", 't', "COL", 0, "Check a time column", 0},
                                                    {"bounded", 'b', "COL", 0, "Check a CSVR_BOUNDED column", 0},
                                                    {"sum-only", 'S', "COL", 0, "Sum a column and print only the sum on stdout (bench/csv.sh)", 0},
                                                    {0}};
    static const struct argp_child kids[] = {CLI_ARGP_CHILD, {0}};
    static const struct argp argp = {opts, parse_opt, "[FILE]", "Copy CSV through the slokit CSV layer.", kids, 0, 0};
    argp_parse(&argp, argc, argv, 0, 0, 0);

    int st;
    csvr *r = csvr_open_with(input, cli_dialect(NULL), 0, &st);
    if (!r)
        return slk_finish(st);
    int sc = -1, tc = time_col ? csvr_require(r, time_col) : -1, bc = bounded_col ? csvr_require(r, bounded_col) : -1;
    if ((time_col && tc < 0) || (bounded_col && bc < 0)) {
        csvr_close(r);
        return slk_finish(SLK_EDATA);
    }
    if (sum_col && (sc = csvr_require(r, sum_col)) < 0) {
        csvr_close(r);
        return slk_finish(SLK_EDATA);
    }
    outf *o = outf_open(slk_opt.output, &st);
    if (!o) {
        csvr_close(r);
        return slk_finish(st);
    }
    csvw *w = csvw_new_with(outf_fp(o), cli_dialect(NULL));
    int n = csvr_ncols(r);
    const char **names = calloc((size_t)n + 1, sizeof *names);
    for (int i = 0; i < n; i++)
        names[i] = csvr_colname(r, i);
    if (!sum_only)
        csvw_header(w, names);
    double sum = 0;
    int rc;
    while ((rc = csvr_next(r)) > 0) {
        double tv;
        if ((tc >= 0 && csvr_get_time(r, tc, &tv, CSVR_REQUIRED) < 0) ||
            (bc >= 0 && csvr_get_double(r, bc, &tv, CSVR_REQUIRED | CSVR_BOUNDED) < 0))
            break;
        if (sc >= 0) {
            double v;
            if (csvr_get_double(r, sc, &v, CSVR_REQUIRED) < 0)
                break;
            sum += v;
        }
        if (sum_only)
            continue;
        for (int i = 0; i < n; i++)
            csvw_str(w, csvr_field(r, i));
        csvw_end(w);
    }
    st = csvr_status(r);
    if (sc >= 0 && !st)
        fprintf(sum_only ? stdout : stderr, "%s%.17g\n", sum_only ? "" : "sum=", sum);
    free(names);
    csvw_free(w);
    csvr_close(r);
    return slk_finish(outf_finish(o, st));
}

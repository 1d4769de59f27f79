/* keyshard — split a CSV input into N shards of whole keys (by a hash of the
 * key), and merge the per-shard outputs of a per-key tool back into the
 * order one process would have written.
 *
 *   keyshard -k KEY -n N [-p PREFIX] [-z[LEVEL]] [--order FILE] [FILE]
 *   keyshard --merge [--order FILE] [--sorted] [-k KEY] [-o OUT] OUTPUT...
 *   keyshard --check -k KEY [-o OUT] [FILE]
 *
 * The data plane is lib/base/shard (the record scanner, the hash, the merge). */
#include "base/cli.h"
#include "base/diag.h"
#include "base/outfile.h"
#include "base/shard.h"

#include <argp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct {
    int merge, sorted, check, nshards, gzip_level;
    const char *key, *prefix, *order;
    const char **files;
    int nfiles;
} opt = {.prefix = "shard-"};

enum { OPT_MERGE = 1, OPT_ORDER, OPT_SORTED, OPT_CHECK };

static const struct argp_option options[] = {
    {"key", 'k', "COL", 0, "The key column: its rows stay in one shard (required to split)", 0},
    {"shards", 'n', "N", 0, "Number of shards, 1 to 4000 (required to split)", 0},
    {"prefix", 'p', "PREFIX", 0, "Shard i is PREFIX%04d.csv (default 'shard-'; .tsv with --tsv)", 0},
    {"gzip", 'z', "LEVEL", OPTION_ARG_OPTIONAL, "Write gzip shards (.csv.gz) at LEVEL 1-9 (default 1)", 0},
    {"order", OPT_ORDER, "FILE", 0, "Split: write the key groups' order here; merge: restore it", 0},
    {"merge", OPT_MERGE, NULL, 0, "Merge per-shard outputs (given in shard order) into one", 0},
    {"check", OPT_CHECK, NULL, 0,
     "Copy the input to standard output (or -o) and stop with exit 65 where a key comes back after its "
     "group ended: the grouping check of the per-key tools, for a stream cut into blocks",
     0},
    {"sorted", OPT_SORTED, NULL, 0,
     "Merge outputs each sorted by key (a tool run with -s): keys in bytewise order, as -s writes them", 0},
    {0}};

static error_t parse_opt(int key, char *arg, struct argp_state *st)
{
    switch (key) {
    case 'k':
        opt.key = arg;
        break;
    case 'n':
        opt.nshards = (int)cli_int(st, "shards", arg, 1, SHARD_MAX);
        break;
    case 'p':
        opt.prefix = arg;
        break;
    case 'z':
        opt.gzip_level = arg ? (int)cli_int(st, "gzip", arg, 1, 9) : 1;
        break;
    case OPT_ORDER:
        opt.order = arg;
        break;
    case OPT_MERGE:
        opt.merge = 1;
        break;
    case OPT_SORTED:
        opt.sorted = 1;
        break;
    case OPT_CHECK:
        opt.check = 1;
        break;
    case ARGP_KEY_ARG:
        opt.files = xreallocarray(opt.files, (size_t)opt.nfiles + 1, sizeof *opt.files);
        opt.files[opt.nfiles++] = arg;
        break;
    case ARGP_KEY_END:
        if (opt.key) /* the one column keyshard reads by name: its --col KEY */
            cli_keys(NULL, (const char *const[]){opt.key, NULL});
        if (opt.check) {
            if (opt.merge || opt.sorted || opt.nshards || opt.gzip_level || opt.order ||
                strcmp(opt.prefix, "shard-") != 0)
                argp_error(
                    st,
                    "--check copies one input: no --merge, --sorted, --shards, --prefix, --gzip or --order");
            if (!opt.key)
                argp_error(st, "--check needs --key");
            if (opt.nfiles > 1)
                argp_error(st, "one input to check (got '%s' and '%s')", opt.files[0], opt.files[1]);
        } else if (opt.merge) {
            if (!opt.nfiles)
                argp_error(st, "--merge needs the per-shard outputs, shard 0 first");
            if (opt.nshards || opt.gzip_level || strcmp(opt.prefix, "shard-") != 0)
                argp_error(st, "--shards, --prefix and --gzip are for splitting, not --merge");
        } else {
            if (opt.sorted)
                argp_error(st, "--sorted is for --merge");
            if (!opt.key || !opt.nshards)
                argp_error(st, "splitting needs --key and --shards");
            if (opt.nfiles > 1)
                argp_error(st, "one input to split (got '%s' and '%s')", opt.files[0], opt.files[1]);
            if (slk_opt.output)
                argp_error(st, "-o is for --merge; shards are named by --prefix");
        }
        break;
    default:
        return ARGP_ERR_UNKNOWN;
    }
    return 0;
}

static int split(void)
{
    struct shard_opts o = {.input = opt.nfiles ? opt.files[0] : NULL,
                           .key = cli_colmap_lookup(opt.key),
                           .nshards = opt.nshards,
                           .prefix = opt.prefix,
                           .gzip_level = opt.gzip_level,
                           .order = opt.order,
                           .delim = slk_opt.delim,
                           .no_header = slk_opt.no_header,
                           .names = slk_opt.names};
    struct shard_stats s;
    double t0 = slk_now();
    int st = shard_split(&o, &s);
    if (st == SLK_OK && !slk_opt.quiet)
        fprintf(slk_summary(),
                "keyshard: %llu rows, %llu key groups into %d shards "
                "(%llu to %llu rows a shard), %.1f MB in %.2f s\n",
                (unsigned long long)s.records, (unsigned long long)s.groups, opt.nshards,
                (unsigned long long)s.min_records, (unsigned long long)s.max_records, (double)s.bytes / 1e6,
                slk_now() - t0);
    return st;
}

/* check: the input copied to -o or stdout, stopped where a key comes back */
static int check(void)
{
    struct shard_opts o = {.input = opt.nfiles ? opt.files[0] : NULL,
                           .key = cli_colmap_lookup(opt.key),
                           .delim = slk_opt.delim,
                           .no_header = slk_opt.no_header,
                           .names = slk_opt.names};
    int st;
    outf *out = outf_open(slk_opt.output, &st); /* streamed: what was copied is already on its way */
    if (!out)
        return st;
    struct shard_stats s;
    st = outf_finish(out, shard_check(&o, outf_fp(out), &s));
    if (st == SLK_OK && !slk_opt.quiet)
        fprintf(slk_summary(), "keyshard: %llu rows in %llu key groups, grouped by %s\n",
                (unsigned long long)s.records, (unsigned long long)s.groups, opt.key);
    return st;
}

static int merge(void)
{
    struct shard_merge_opts m = {.inputs = opt.files,
                                 .ninputs = opt.nfiles,
                                 .order = opt.order,
                                 .sorted = opt.sorted,
                                 .key = opt.key ? cli_colmap_lookup(opt.key) : NULL,
                                 .delim = slk_opt.delim,
                                 .no_header = slk_opt.no_header,
                                 .names = slk_opt.names};
    int st;
    outf *o = outf_open_held(slk_opt.output, &st);
    if (!o)
        return st;
    uint64_t rows = 0;
    st = shard_merge(&m, outf_fp(o), &rows);
    st = outf_finish(o, st);
    if (st == SLK_OK && !slk_opt.quiet)
        fprintf(slk_summary(), "keyshard: merged %llu rows from %d outputs%s\n", (unsigned long long)rows,
                opt.nfiles,
                opt.sorted  ? " in key order"
                : opt.order ? " in the order file's key order"
                            : "");
    return st;
}

int main(int argc, char **argv)
{
    slk_init("keyshard");
    static const struct argp_child kids[] = {CLI_ARGP_CHILD, {0}};
    static const struct argp argp = {
        options,
        parse_opt,
        "[FILE]\n--merge [--order FILE] [--sorted] OUTPUT...\n--check -k KEY [FILE]",
        "Split a CSV input into N shards of whole keys, by a hash of the key, so a"
        " per-key tool can run on each shard on another core, node or host; then"
        " merge the outputs back into the order one process writes."
        "\vEvery shard has the header; a key's rows stay together whatever their"
        " order; the same key goes to the same shard on every machine.  Input"
        " may be gzip or zstd.  --merge: " OUTF_HELD_HELP "  keyshard(1) gives"
        " the hash and the Slurm and ssh recipes.\n"
        "Examples:\n"
        "  mkdir -p work\n"
        "  keyshard -k job -n 4 -p work/u- --order work/order.csv usage.csv\n"
        "  for i in 0 1 2 3; do skyfit -q work/u-000$i.csv > work/s-$i.csv; done\n"
        "  keyshard --merge --order work/order.csv -k job work/s-?.csv > sky.csv\n"
        "  # skyfit -s (rows in any order) writes the jobs sorted: --sorted\n"
        "  for i in 0 1 2 3; do skyfit -qs work/u-000$i.csv > work/t-$i.csv; done\n"
        "  keyshard --merge --sorted --order work/order.csv -k job \\\n"
        "    work/t-?.csv > sky.csv\n"
        "  keyshard --merge work/s-?.csv > all.csv   # concatenate, one header\n"
        "  tracegen taskmem --count 200 | keyshard -k task -n 8 -z -p mem-",
        kids,
        NULL,
        NULL};
    /* records are copied byte for byte: no value is read, none written */
    static const char verbatim[] = "keyshard copies records byte for byte and reads no values";
    cli_refuse("time-unit", verbatim);
    cli_refuse("precision", verbatim);
    cli_refuse("no-output-header", "every shard and the merged output keep the input's header");
    static const char stops[] = "it drops no record: one without the key column stops a split "
                                "(the tool on each shard skips bad rows with --on-error skip)";
    cli_refuse("on-error", stops);
    cli_refuse("rejects", stops);
    cli_parse(&argp, argc, argv, NULL);
    /* the shards open before the input is read, and outf_open compares them */
    cli_outputs((const char *const[]){opt.merge ? NULL : opt.order}, 1);
    int st = opt.check ? check() : opt.merge ? merge() : split();
    free(opt.files);
    return slk_finish(st);
}

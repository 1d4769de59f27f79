/* cli — the options every tool shares, as one argp child.
 *
 *   -o, --output=FILE      write here (atomically) instead of stdout
 *   -d, --delimiter=C      field delimiter (default ',')
 *       --tsv              tab-separated input and output
 *   -H, --no-header        input has no header row (names from --names, else c1,c2,...)
 *       --names=LIST       column names for header-less input
 *       --no-output-header do not write a header row (Hadoop Streaming reducers)
 *       --col=[ROLE:]KEY=NAME  read column KEY from the input column NAME
 *                          (repeatable); with ROLE only in that input
 *                          (cli_roles names a tool's inputs)
 *       --precision=N      write numbers with N decimals (default: shortest exact)
 *       --time-unit=U      epoch numbers of the primary input are in s, ms or us
 *       --on-error=MODE    strict (default): a bad row stops the run; skip: it
 *                          is skipped, counted and reported (see csvr_skip)
 *       --rejects=FILE     with skip: write file,line,reason rows to FILE
 *                          (default: a warning on stderr for each of the
 *                          first SLK_MANY_SHOWN, the rest counted)
 *   -q, --quiet            no summaries or warnings on stderr
 *       --seed=N           random seed (default 1)
 *       --progress / --no-progress
 *
 * Tools put `cli_argp_child` in their argp children and read `slk_opt`; the
 * CSV options reach the library only as a struct csv_dialect value built by
 * cli_dialect.  Nothing in lib/ except cli and diag (the process-wide -q and
 * --progress message policy) reads slk_opt.
 *
 * Threads: options are parsed and dialects built on the main thread; the
 * returned dialects may then be read from any thread.
 */
#ifndef SLOKIT_CLI_H
#define SLOKIT_CLI_H

#include "base/csvio.h"

#include <argp.h>

/* No tool parses with ARGP_NO_EXIT, so argp_error prints the usage error and
 * exits (status 64, set by slk_init): said here so that the compiler and the
 * static analyzers know the code after it is not reached. */
extern void argp_error(const struct argp_state *state, const char *fmt, ...)
    __attribute__((noreturn, format(printf, 2, 3)));
#include <stdint.h>

#define CLI_MAX_COLMAP 64

struct slk_common {
    const char *output;     /* -o FILE, NULL for stdout */
    char delim;             /* ',' or '\t' or -d */
    int no_header;          /* -H */
    const char *names;      /* --names */
    int no_output_header;   /* --no-output-header */
    int precision;          /* -1: shortest round-trip */
    int quiet;              /* -q */
    uint64_t seed;          /* --seed, default 1 */
    int progress;           /* -1 auto (stderr is a tty and not quiet), 0 off, 1 on */
    double time_scale;      /* --time-unit: 1, 1e3 or 1e6 */
    int on_error_skip;      /* --on-error skip */
    const char *rejects;    /* --rejects FILE */
    int ncolmap;            /* --col renames, in the order given */
    struct csv_rename colmap[CLI_MAX_COLMAP];
};

extern struct slk_common slk_opt;
extern const struct argp cli_argp;

/* The argp child every tool includes: {&cli_argp, 0, "Common options:", 50}. */
#define CLI_ARGP_CHILD { &cli_argp, 0, "Common options:", 50 }

/* cli_colmap_add: record that column `key` of the primary input is read from
 * input column `name` (what --col key=name does; tools call it for their
 * --job-col style options).  Returns 0, or -1 when the table is full. */
int cli_colmap_add(const char *key, const char *name);
/* cli_colmap_add_role: the same for the input with role `role` only (what
 * --col role:key=name does).  role NULL is cli_colmap_add. */
int cli_colmap_add_role(const char *role, const char *key, const char *name);
/* cli_colmap_lookup: the primary input's name for key (key itself when not
 * renamed). */
const char *cli_colmap_lookup(const char *key);

/* cli_roles: name the tool's CSV inputs, primary first, then NULL (e.g.
 * cli_roles("runs", "events", "override", (const char *)NULL)); call before cli_parse.
 * Then --col ROLE:KEY=NAME with any other ROLE is a usage error (exit 64),
 * and the primary's role name addresses the primary input like a plain
 * --col.  At most 16 roles; tools that do not call it accept any role. */
void cli_roles(const char *primary, ...) __attribute__((sentinel));

/* cli_keys: the columns the tool reads from the input with role `role`
 * (NULL or the primary's role name: the primary input), by the names it
 * looks them up with (its KEYs for --col): a NULL-terminated list, kept
 * next to the reader that uses it (e.g. slofile_run_keys).  Repeatable,
 * adding to the role's list (the names are copied).  Call after cli_roles,
 * before cli_parse or from the tool's option parser up to its ARGP_KEY_END
 * (for the columns an option or the chosen mode reads).  Once parsing has
 * succeeded, a --col [ROLE:]KEY=NAME (or a --job-col style rename) whose
 * KEY the tool does not read from that input is a usage error (exit 64)
 * naming the keys it reads there, or the input that has KEY.  Each dialect
 * of cli_dialect carries its input's keys, and a reader that looks up a
 * column not listed stops the tool (csvr_col: the tool's bug). */
void cli_keys(const char *role, const char *const *keys);

/* cli_refuse: common option --name (long name, e.g. "time-unit") does not
 * apply to this tool: left out of --help, and given, a usage error (exit 64):
 * "--time-unit does not apply to traceconv: WHY" (with its short name, "-H/
 * --no-header").  why is kept, not copied.  Call before cli_parse; an
 * unknown name is the tool's bug (message, abort). */
void cli_refuse(const char *name, const char *why);

/* cli_time_unit_also: --time-unit applies to the input of role too, not
 * only to the primary (skyfit's --runs: the start and end of the usage's
 * own runs); its dialect then carries the scale.  Call before cli_dialect. */
void cli_time_unit_also(const char *role);

/* cli_parse: argp_parse(argp, argc, argv, 0, NULL, input), which exits on
 * a usage error itself (64); any other failure (ENOMEM before a single
 * option was parsed: the options would be left unread) is "tool: cannot
 * read the command line: why" and exit 70. */
void cli_parse(const struct argp *argp, int argc, char **argv, void *input);

/* cli_dialect: the dialect the user's options describe, for the input with
 * this role (NULL: the primary input; plain --col renames, --time-unit, -H
 * and --names apply only there), and for outputs.  With --on-error skip every role
 * shares one csv_rejects, created at the first call (--rejects FILE that
 * cannot be created: message and exit 73, or 64 when an open output names
 * its file); at slk_finish its count is
 * summarized ("tool: 3 bad rows skipped ...") and FILE is committed.  The pointer stays valid, and its value
 * unchanged, until the next cli_dialect call with the same role. */
const struct csv_dialect *cli_dialect(const char *role);

/* Checked option converters for argp parsers: on a bad value they call
 * argp_error (exit 64) with "invalid value for --NAME: 'TEXT' (what is wrong)". */
double cli_double(struct argp_state *st, const char *opt, const char *arg, double min, double max);
/* cli_int: a whole number in [min, max], also in exponent form ("1e8"). */
long long cli_int(struct argp_state *st, const char *opt, const char *arg, long long min, long long max);
/* cli_duration: seconds or 90s, 15m, 1h, 1d; at least min, at most CSVR_MAX_VALUE (1e15). */
double cli_duration(struct argp_state *st, const char *opt, const char *arg, double min);
/* cli_duration_max: the same with an upper bound of the option's own (a
 * duration the tool counts in smaller units that must fit an integer). */
double cli_duration_max(struct argp_state *st, const char *opt, const char *arg, double min, double max);
/* cli_duration_or_zero: 0 (the feature off) or a duration of at least min: a
 * period that ticks a loop, where 1e-9 s would never end. */
double cli_duration_or_zero(struct argp_state *st, const char *opt, const char *arg, double min);
/* cli_time: epoch seconds or ISO 8601, at most CSVR_MAX_TIME (1e11) either side of 1970. */
double cli_time(struct argp_state *st, const char *opt, const char *arg);

/* cli_resources: parse a resource shape "cores=N,mem=M" (mem_mb= is accepted
 * for mem) given to option --opt: both keys required, positive, finite, at
 * most 1e15, each given once.  On a bad value calls argp_error (exit 64):
 * "invalid value for --capacity: 'cores=0,mem=5' (want cores=N,mem=M with
 * positive numbers)", naming an unknown key or a key given twice
 * ("(key 'cores' given twice)"; mem and mem_mb are one key). */
void cli_resources(struct argp_state *st, const char *opt, const char *arg, double *cores, double *mem_mb);

/* cli_dash_count: how many of paths[0..n) are "-" (NULL: not given); a
 * main input or output given by default is passed as "-".  A tool refuses
 * more than one: two inputs on standard input (the second finds it read)
 * or two outputs on standard output (their rows interleave). */
int cli_dash_count(const char *const *paths, size_t n);

/* cli_outputs: once the options are read, before any input is: exits 73
 * or 64 (outf_check_outputs's one line) when -o, --rejects or one of the
 * tool's other output files side[0..n) (NULL: not given) cannot be created
 * (its directory missing or not writable) or two of them name one file
 * (./x.csv, its absolute path and a link to it are one file).  outf_open
 * refuses them too, but a tool opening an output after reading its input
 * (a summary, lcmpack's --load) refused it only then.  Every tool calls
 * it, with its side outputs or none. */
void cli_outputs(const char *const *side, int n);

/* cli_choice: the index of arg in the NULL-terminated list of choices; any
 * other value calls argp_error (exit 64): "invalid value for --scale: 'x'
 * (want fraction or percent)".  An opt in capitals names an argument, not
 * an option: "invalid FORMAT: 'x' (want ...)". */
int cli_choice(struct argp_state *st, const char *opt, const char *arg, const char *const *choices);

/* cli_option_name: the long name of option `key` in opts, else NULL: a
 * refusal names the option from its table ("--native-interval needs
 * --format native"), so the message cannot drift from the option. */
const char *cli_option_name(const struct argp_option *opts, int key);

/* cli_group_option: the name of option `key` when opts lists it in argp
 * group `group` (its last field), else NULL.  A tool with a mode's options
 * in a group of their own keeps the first one given (called with every
 * key) and refuses it without the mode, where it would be ignored:
 * "--rate needs --simulate" (exit 64). */
const char *cli_group_option(const struct argp_option *opts, int key, int group);

/* cli_progress_on: whether progress lines should be printed. */
int cli_progress_on(void);

#endif

/* cli — the options every tool shares, as one argp child (see cli.h). */
#include "base/cli.h"
#include "base/csvio.h"
#include "base/diag.h"
#include "base/keyset.h"
#include "base/outfile.h"
#include "base/parse.h"
#include "base/timeunit.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct slk_common slk_opt = {
    .delim = ',',
    .precision = -1,
    .seed = 1,
    .progress = -1,
    .time_scale = 1,
};

enum {
    OPT_TSV = 1000, OPT_NAMES, OPT_NO_OUT_HEADER, OPT_COL, OPT_PRECISION,
    OPT_SEED, OPT_PROGRESS, OPT_NO_PROGRESS, OPT_TIME_UNIT, OPT_ON_ERROR, OPT_REJECTS
};

/* not const: cli_refuse hides an option from --help */
static struct argp_option options[] = {
    {"output", 'o', "FILE", 0, "Write to FILE (replaced only when complete) instead of standard output", 0},
    {"delimiter", 'd', "C", 0, "Field delimiter of input and output (default ',')", 0},
    {"tsv", OPT_TSV, NULL, 0, "Tab-separated input and output (same as -d '\\t')", 0},
    {"no-header", 'H', NULL, 0, "Input has no header row; names from --names, else c1,c2,...", 0},
    {"names", OPT_NAMES, "LIST", 0, "Comma-separated column names for input without a header", 0},
    {"no-output-header", OPT_NO_OUT_HEADER, NULL, 0, "Do not write a header row", 0},
    {"col", OPT_COL, "[ROLE:]KEY=NAME", 0,
     "Read the column the tool calls KEY from input column NAME (repeatable); plain: in the primary input, "
     "with ROLE: only in that input",
     0},
    {"precision", OPT_PRECISION, "N", 0, "Write numbers with N decimals (default: shortest exact form)", 0},
    {"time-unit", OPT_TIME_UNIT, "UNIT", 0, "Epoch times of the primary input are in s (default), ms or us",
     0},
    {"on-error", OPT_ON_ERROR, "MODE", 0,
     "strict (default): a bad input row stops the run; skip: it is skipped, counted and reported", 0},
    {"rejects", OPT_REJECTS, "FILE", 0,
     "With --on-error skip: write the skipped rows' file,line,reason to FILE (default: the first 10 as "
     "warnings on stderr)",
     0},
    {"quiet", 'q', NULL, 0, "No summary or warnings on standard error", 0},
    {"seed", OPT_SEED, "N", 0,
     "Seed for every random choice (default 1; a tool that makes none accepts it without effect)", 0},
    {"progress", OPT_PROGRESS, NULL, 0, "Show progress on standard error (default: when it is a terminal)",
     0},
    {"no-progress", OPT_NO_PROGRESS, NULL, 0, "Never show progress", 0},
    {0}};

#define CLI_MAX_ROLES 16
#define CLI_NOPTIONS (sizeof options / sizeof *options)

/* cli_refuse's reasons, by index in options[] (NULL: the option applies) */
static const char *refused[CLI_NOPTIONS];

void cli_refuse(const char *name, const char *why)
{
    for (size_t i = 0; options[i].name; i++)
        if (strcmp(options[i].name, name) == 0) {
            options[i].flags |= OPTION_HIDDEN;
            refused[i] = why;
            return;
        }
    slk_error("cli_refuse: no common option --%s", name); /* a tool's mistake */
    abort();
}

/* the usage error of an option the tool refused (exits 64); key not refused: returns */
static void check_refused(struct argp_state *st, int key)
{
    for (size_t i = 0; options[i].name; i++)
        if (options[i].key == key && refused[i]) {
            if (key < 128)
                argp_error(st, "-%c/--%s does not apply to %s: %s", key, options[i].name, slk_progname,
                           refused[i]);
            argp_error(st, "--%s does not apply to %s: %s", options[i].name, slk_progname, refused[i]);
        }
}

/* --on-error skip: one csv_rejects for the run, its file committed and its
 * count summarized when the tool finishes. */
static csv_rejects *rejects;
static outf *rejects_out;

static int rejects_finish(int status)
{
    long n = csv_rejects_count(rejects);
    long hidden = csv_rejects_hidden(rejects);
    const char *group;
    long dropped = csv_rejects_dropped(rejects, &group);
    if (n > 0 && !slk_opt.quiet) {
        char more[128] = "", what[160]; /* the line printed whole: concurrent tools do not split it */
        if (hidden > 0)
            snprintf(more, sizeof more,
                     "; the first %d are above, %ld more not shown (--rejects FILE lists every one)",
                     SLK_MANY_SHOWN, hidden);
        if (dropped > 0) /* rows dropped with their group's bad row: counted, and said to be */
            snprintf(what, sizeof what,
                     "%ld rows skipped (--on-error skip): %ld bad, %ld dropped with their %s's bad row", n,
                     n - dropped, dropped, group);
        else
            snprintf(what, sizeof what, "%ld bad row%s skipped (--on-error skip)", n, n == 1 ? "" : "s");
        fprintf(stderr, "%s: %s%s%s%s\n", slk_progname, what,
                slk_opt.rejects ? "; file, line and reason in " : "", slk_opt.rejects ? slk_opt.rejects : "",
                more);
    }
    csv_rejects_free(rejects);
    rejects = NULL;
    if (rejects_out) {
        /* kept even when the run failed: the rejects explain what was read */
        int st = outf_commit(rejects_out);
        rejects_out = NULL;
        if (st != SLK_OK && status == SLK_OK)
            status = st;
    }
    return status;
}

static csv_rejects *cli_rejects(void)
{
    if (rejects)
        return rejects;
    FILE *fp = NULL;
    if (slk_opt.rejects) {
        int st;
        rejects_out = outf_open(slk_opt.rejects, &st);
        if (!rejects_out)
            exit(st);
        fp = outf_fp(rejects_out);
    }
    rejects = csv_rejects_new(fp);
    slk_at_finish(rejects_finish);
    return rejects;
}

static const char *role_names[CLI_MAX_ROLES + 1];
static const char *const *tool_roles; /* cli_roles: primary first; NULL: any role */

void cli_roles(const char *primary, ...)
{
    va_list ap;
    va_start(ap, primary);
    int n = 0;
    for (const char *r = primary; r && n < CLI_MAX_ROLES; r = va_arg(ap, const char *))
        role_names[n++] = r;
    va_end(ap);
    role_names[n] = NULL;
    tool_roles = role_names;
}

static int role_eq(const char *a, const char *b) { return a == b || (a && b && strcmp(a, b) == 0); }

/* The role a rename is stored under: NULL for the primary input, whether
 * given as "key=name" or "PRIMARY:key=name". */
static const char *stored_role(const char *role)
{
    return role && tool_roles && tool_roles[0] && strcmp(role, tool_roles[0]) == 0 ? NULL : role;
}

/* cli_keys: the keys of each input, by stored role (NULL: the primary);
 * each list NULL-terminated, as a dialect's keys. */
static struct input_keys {
    const char *role;
    const char **keys;
    size_t n, cap;
} input_keys[CLI_MAX_ROLES];
static int ninput_keys;

static struct input_keys *keys_of(const char *role, int add)
{
    for (int i = 0; i < ninput_keys; i++)
        if (role_eq(input_keys[i].role, role))
            return &input_keys[i];
    if (!add)
        return NULL;
    if (ninput_keys == CLI_MAX_ROLES) {
        slk_error("cli_keys: more than %d inputs", CLI_MAX_ROLES); /* a tool's mistake */
        abort();
    }
    input_keys[ninput_keys].role = role;
    return &input_keys[ninput_keys++];
}

static int key_listed(const struct input_keys *k, const char *key)
{
    for (size_t i = 0; k && i < k->n; i++)
        if (strcmp(k->keys[i], key) == 0)
            return 1;
    return 0;
}

void cli_keys(const char *role, const char *const *keys)
{
    struct input_keys *k = keys_of(stored_role(role), 1);
    for (; *keys; keys++)
        if (!key_listed(k, *keys)) {
            k->keys = xgrow(k->keys, &k->cap, k->n + 2, sizeof *k->keys);
            k->keys[k->n++] = xstrdup(*keys);
            k->keys[k->n] = NULL;
        }
}

/* The input a role names in messages: "runs input", or "input" for the
 * primary of a tool that names no roles (or calls it that). */
static const char *input_shown(const char *role, char *buf, size_t cap)
{
    const char *r = role ? role : tool_roles && tool_roles[0] ? tool_roles[0] : "input";
    snprintf(buf, cap, "%s%s", strcmp(r, "input") == 0 ? "" : r,
             strcmp(r, "input") == 0 ? "input" : " input");
    return buf;
}

/* check_col_keys: every rename is for a key its input is read with; else a
 * usage error naming the keys that input has (or the input that has it). */
static void check_col_keys(struct argp_state *st)
{
    for (int i = 0; i < slk_opt.ncolmap; i++) {
        const struct csv_rename *e = &slk_opt.colmap[i];
        const struct input_keys *k = keys_of(e->role, 0);
        if (key_listed(k, e->key))
            continue;
        char arg[256], in[80], other[80];
        snprintf(arg, sizeof arg, "%s%s%s=%s", e->role ? e->role : "", e->role ? ":" : "", e->key, e->name);
        input_shown(e->role, in, sizeof in);
        for (int j = 0; j < ninput_keys; j++)
            if (&input_keys[j] != k && key_listed(&input_keys[j], e->key))
                argp_error(st,
                           "invalid value for --col: '%s' (%s reads column '%s' from its %s, not its %s: "
                           "--col %s%s%s=%s)",
                           arg, slk_progname, e->key, input_shown(input_keys[j].role, other, sizeof other),
                           in, input_keys[j].role ? input_keys[j].role : "", input_keys[j].role ? ":" : "",
                           e->key, e->name);
        char want[512] = "";
        for (size_t j = 0; k && j < k->n; j++) {
            size_t len = strlen(want);
            snprintf(want + len, sizeof want - len, "%s%s", j ? ", " : "", k->keys[j]);
        }
        if (!want[0])
            argp_error(st,
                       "invalid value for --col: '%s' (unknown column key '%s'; %s reads no column by name "
                       "from its %s)",
                       arg, e->key, slk_progname, in);
        argp_error(st,
                   "invalid value for --col: '%s' (unknown column key '%s'; %s reads these from its %s: %s)",
                   arg, e->key, slk_progname, in, want);
    }
}

int cli_colmap_add_role(const char *role, const char *key, const char *name)
{
    role = stored_role(role);
    for (int i = 0; i < slk_opt.ncolmap; i++) {
        struct csv_rename *e = &slk_opt.colmap[i];
        if (strcmp(e->key, key) == 0 && role_eq(e->role, role)) {
            e->name = name;
            return 0;
        }
    }
    if (slk_opt.ncolmap >= CLI_MAX_COLMAP)
        return -1;
    slk_opt.colmap[slk_opt.ncolmap++] = (struct csv_rename){.role = role, .key = key, .name = name};
    return 0;
}

int cli_colmap_add(const char *key, const char *name) { return cli_colmap_add_role(NULL, key, name); }

const char *cli_colmap_lookup(const char *key)
{
    struct csv_dialect d = {.primary = 1, .nrename = slk_opt.ncolmap, .rename = slk_opt.colmap};
    return csv_dialect_lookup(&d, key);
}

/* the one input besides the primary that --time-unit reaches (cli_time_unit_also) */
static const char *time_unit_role;

void cli_time_unit_also(const char *role) { time_unit_role = role; }

/* time_unit_reach: whether --time-unit sets the unit of the input of
 * (stored) role, enum timeunit_reach: the primary input's and
 * cli_time_unit_also's, unless the tool refused the option */
static int time_unit_reach(const char *role)
{
    for (size_t i = 0; options[i].name; i++)
        if (strcmp(options[i].name, "time-unit") == 0 && refused[i])
            return TIMEUNIT_FIXED;
    return role == NULL || role_eq(role, time_unit_role) ? TIMEUNIT_OPTION : TIMEUNIT_OTHER;
}

const struct csv_dialect *cli_dialect(const char *role)
{
    static struct csv_dialect slot[CLI_MAX_ROLES];
    static const char *slot_role[CLI_MAX_ROLES];
    static int nslot;
    role = stored_role(role);
    int i = 0;
    while (i < nslot && !role_eq(slot_role[i], role))
        i++;
    if (i == nslot) {
        if (nslot == CLI_MAX_ROLES)
            i = CLI_MAX_ROLES - 1; /* more roles than any tool has: reuse the last slot */
        else
            nslot++;
        slot_role[i] = role;
    }
    slot[i] = (struct csv_dialect){
        .time_scale = time_unit_reach(role) == TIMEUNIT_OPTION ? slk_opt.time_scale : 1,
        .time_unit = time_unit_reach(role),
        .rejects = slk_opt.on_error_skip ? cli_rejects() : NULL,
        .delim = slk_opt.delim ? slk_opt.delim : ',',
        /* -H and --names describe the primary input, as --col without a
         * ROLE does: a side input (--prior, --runs, --events, ...) keeps its
         * header, and the primary's names never fit it */
        .no_header = role == NULL && slk_opt.no_header,
        .names = role == NULL ? slk_opt.names : NULL,
        .no_output_header = slk_opt.no_output_header,
        .precision = slk_opt.precision,
        .role = role,
        .primary = role == NULL,
        .nrename = slk_opt.ncolmap,
        .rename = slk_opt.colmap,
    };
    static const char *const no_keys[] = {NULL};
    const struct input_keys *k = keys_of(role, 0);
    slot[i].keys = k ? k->keys : no_keys;
    return &slot[i];
}

/* --col [ROLE:]KEY=NAME.  A ROLE is told from a key by the ':' before '='. */
static void parse_col(struct argp_state *st, char *arg)
{
    char *eq = strchr(arg, '=');
    char *colon = eq ? memchr(arg, ':', (size_t)(eq - arg)) : NULL;
    char *key = colon ? colon + 1 : arg;
    if (!eq || eq == key || !eq[1] || colon == arg)
        argp_error(st, "invalid value for --col: '%s' (want KEY=NAME or ROLE:KEY=NAME)", arg);
    if (colon && tool_roles) {
        int known = 0;
        for (int i = 0; tool_roles[i]; i++)
            known |= strlen(tool_roles[i]) == (size_t)(colon - arg) && memcmp(tool_roles[i], arg, (size_t)(colon - arg)) == 0;
        if (!known) {
            char want[256] = "";
            for (int i = 0; tool_roles[i]; i++) {
                size_t len = strlen(want);
                snprintf(want + len, sizeof want - len, "%s%s", i ? ", " : "", tool_roles[i]);
            }
            argp_error(st, "invalid value for --col: '%s' (unknown input role '%.*s'; this tool reads: %s)", arg,
                       (int)(colon - arg), arg, want);
        }
    }
    *eq = 0;
    if (colon)
        *colon = 0;
    if (cli_colmap_add_role(colon ? arg : NULL, key, eq + 1) < 0)
        argp_error(st, "too many --col options");
}

double cli_double(struct argp_state *st, const char *opt, const char *arg, double min, double max)
{
    double v;
    if (parse_double(arg, &v, 0) < 0)
        argp_error(st, "invalid value for --%s: '%s' (not a number)", opt, arg);
    if (v < min || v > max)
        argp_error(st, "invalid value for --%s: '%s' (must be between %g and %g)", opt, arg, min, max);
    return v;
}

long long cli_int(struct argp_state *st, const char *opt, const char *arg, long long min, long long max)
{
    int64_t v;
    double x;
    /* a whole number also in exponent form ("1e8", as the pages write
     * limits), exactly representable */
    if (parse_int64(arg, &v) < 0) {
        if (parse_double(arg, &x, 0) < 0 || x != floor(x) || fabs(x) > 9007199254740992.0)
            argp_error(st, "invalid value for --%s: '%s' (not an integer)", opt, arg);
        v = (int64_t)x;
    }
    if (v < min || v > max)
        argp_error(st, "invalid value for --%s: '%s' (must be between %lld and %lld)", opt, arg, min, max);
    return v;
}

double cli_duration_max(struct argp_state *st, const char *opt, const char *arg, double min, double max)
{
    double v;
    if (parse_duration(arg, &v) < 0)
        argp_error(st, "invalid value for --%s: '%s' (want seconds, or e.g. 90s, 15m, 1h, 1d)", opt, arg);
    if (v < min)
        argp_error(st, "invalid value for --%s: '%s' (must be at least %g s)", opt, arg, min);
    if (v > max)
        argp_error(st, "invalid value for --%s: '%s' (out of range: at most %g s)", opt, arg, max);
    return v;
}

double cli_duration(struct argp_state *st, const char *opt, const char *arg, double min)
{
    /* the bound of a CSV duration (CSVR_BOUNDED): beyond it the value is
     * written out as garbage ("step 1e+308") the next tool refuses */
    return cli_duration_max(st, opt, arg, min, CSVR_MAX_VALUE);
}

double cli_duration_or_zero(struct argp_state *st, const char *opt, const char *arg, double min)
{
    double v = cli_duration(st, opt, arg, 0);
    if (v > 0 && v < min)
        argp_error(st, "invalid value for --%s: '%s' (must be 0 or at least %g s)", opt, arg, min);
    return v;
}

double cli_time(struct argp_state *st, const char *opt, const char *arg)
{
    double v;
    if (parse_time(arg, &v) < 0)
        argp_error(st, "invalid value for --%s: '%s' (want epoch seconds or ISO 8601 UTC)", opt, arg);
    if (!(fabs(v) <= CSVR_MAX_TIME)) /* as for times in the data: beyond it, int64 arithmetic overflows */
        argp_error(st, "invalid value for --%s: '%s' (epoch seconds beyond %g, the year 5138)", opt, arg,
                   CSVR_MAX_TIME);
    return v;
}

struct shape {
    double cores, mem;
    const char *c_key, *m_key;  /* the name each was given as (points into the parsed copy) */
    char why[128];              /* a bad key, for the message ("": a bad number or a key missing) */
};

static int shape_key(const char *k, const char *v, void *ctx)
{
    struct shape *c = ctx;
    double x;
    int is_c = strcmp(k, "cores") == 0, is_m = strcmp(k, "mem") == 0 || strcmp(k, "mem_mb") == 0;
    if (!is_c && !is_m) {
        snprintf(c->why, sizeof c->why, "want cores=N,mem=M with positive numbers; unknown key %.40s", k);
        return -1;
    }
    /* a key given twice is a mistake (cores=200,...,cores=3), not a last-wins override */
    const char **seen = is_c ? &c->c_key : &c->m_key;
    if (*seen) {
        if (strcmp(*seen, k) == 0)
            snprintf(c->why, sizeof c->why, "key '%.40s' given twice", k);
        else
            snprintf(c->why, sizeof c->why, "key '%.40s' given twice: '%s' is the same key", k, *seen);
        return -1;
    }
    if (parse_double(v, &x, 0) < 0 || !(x > 0))
        return -1;
    if (x > 1e15) {
        snprintf(c->why, sizeof c->why, "%.40s=%.40s is more than 1e15", k, v);
        return -1;
    }
    *seen = k;
    *(is_c ? &c->cores : &c->mem) = x;
    return 0;
}

void cli_resources(struct argp_state *st, const char *opt, const char *arg, double *cores, double *mem_mb)
{
    struct shape c = {0};
    char *s = xstrdup(arg);
    int rc = parse_kv_list(s, shape_key, &c);
    if (rc < 0 || !c.c_key || !c.m_key) {
        free(s);
        argp_error(st, "invalid value for --%s: '%s' (%s)", opt, arg,
                   c.why[0] ? c.why : "want cores=N,mem=M with positive numbers of at most 1e15");
    }
    free(s);
    *cores = c.cores;
    *mem_mb = c.mem;
}

int cli_dash_count(const char *const *paths, size_t n)
{
    int k = 0;
    for (size_t i = 0; i < n; i++)
        k += paths[i] && strcmp(paths[i], "-") == 0;
    return k;
}

void cli_outputs(const char *const *side, int n)
{
    const char **all = xcalloc((size_t)n + 2, sizeof *all);
    all[0] = slk_opt.output;
    all[1] = slk_opt.rejects;
    for (int i = 0; i < n; i++)
        all[i + 2] = side[i];
    int st = outf_check_outputs(all, n + 2);
    free(all);
    if (st != SLK_OK)
        exit(slk_finish(st));
}

int cli_choice(struct argp_state *st, const char *opt, const char *arg, const char *const *choices)
{
    char want[256] = "";
    int n = 0;
    for (; choices[n]; n++)
        if (strcmp(arg, choices[n]) == 0)
            return n;
    for (int i = 0; i < n; i++) {
        size_t len = strlen(want);
        snprintf(want + len, sizeof want - len, "%s%s", i == 0 ? "" : i == n - 1 ? " or " : ", ", choices[i]);
    }
    if (isupper((unsigned char)opt[0]))
        argp_error(st, "invalid %s: '%s' (want %s)", opt, arg, want);
    else
        argp_error(st, "invalid value for --%s: '%s' (want %s)", opt, arg, want);
    return -1;
}

/* the long option of key in opts (NULL: none) */
static const struct argp_option *find_option(const struct argp_option *opts, int key)
{
    for (const struct argp_option *o = opts; o->name || o->key || o->doc; o++)
        if (o->name && o->key == key)
            return o;
    return NULL;
}

const char *cli_option_name(const struct argp_option *opts, int key)
{
    const struct argp_option *o = find_option(opts, key);
    return o ? o->name : NULL;
}

const char *cli_group_option(const struct argp_option *opts, int key, int group)
{
    const struct argp_option *o = find_option(opts, key);
    return o && o->group == group ? o->name : NULL;
}

/* --names: what a header row must be too (csvr refuses an empty or
 * duplicate name there): no empty name, none twice */
static void check_names(struct argp_state *st, const char *names)
{
    keyset *seen = keyset_new();
    char *copy = xstrdup(names), *p = copy, *t;
    while ((t = strsep(&p, ",")) != NULL) {
        if (!*t)
            argp_error(st, "invalid value for --names: '%s' (an empty column name)", names);
        if (!keyset_add(seen, t))
            argp_error(st, "invalid value for --names: '%s' (column '%s' named twice)", names, t);
    }
    free(copy);
    keyset_free(seen);
}

static error_t parse_opt(int key, char *arg, struct argp_state *st)
{
    check_refused(st, key);
    switch (key) {
    case 'o':
        /* An empty name would only fail at the final rename, after all the work. */
        if (!*arg)
            argp_error(st, "invalid value for --output: '' (want a file name)");
        slk_opt.output = arg;
        break;
    case 'd':
        if (strcmp(arg, "\\t") == 0 || strcmp(arg, "tab") == 0)
            slk_opt.delim = '\t';
        else if (strlen(arg) != 1 || arg[0] == '"' || arg[0] == '\n' || arg[0] == '\r')
            argp_error(st, "invalid value for --delimiter: '%s' (want one character, not a quote or newline)", arg);
        else
            slk_opt.delim = arg[0];
        break;
    case OPT_TSV:
        slk_opt.delim = '\t';
        break;
    case 'H':
        slk_opt.no_header = 1;
        break;
    case OPT_NAMES:
        slk_opt.names = arg;
        break;
    case OPT_NO_OUT_HEADER:
        slk_opt.no_output_header = 1;
        break;
    case OPT_COL:
        parse_col(st, arg);
        break;
    case OPT_PRECISION:
        slk_opt.precision = (int)cli_int(st, "precision", arg, 0, 17);
        break;
    case 'q':
        slk_opt.quiet = 1;
        break;
    case OPT_SEED: {
        int64_t v;
        if (parse_int64(arg, &v) < 0 || v < 0)
            argp_error(st, "invalid value for --seed: '%s' (want a non-negative integer)", arg);
        slk_opt.seed = (uint64_t)v;
        break;
    }
    case OPT_PROGRESS:
        slk_opt.progress = 1;
        break;
    case OPT_TIME_UNIT: {
        static const char *const units[] = {"s", "ms", "us", NULL};
        slk_opt.time_scale = timeunit_scale(units[cli_choice(st, "time-unit", arg, units)]);
        break;
    }
    case OPT_ON_ERROR: {
        static const char *const modes[] = {"strict", "skip", NULL};
        slk_opt.on_error_skip = cli_choice(st, "on-error", arg, modes) == 1;
        break;
    }
    case OPT_REJECTS:
        if (!*arg)
            argp_error(st, "invalid value for --rejects: '' (want a file name)");
        slk_opt.rejects = arg;
        break;
    case ARGP_KEY_END:
        if (slk_opt.rejects && !slk_opt.on_error_skip)
            argp_error(st, "--rejects needs --on-error skip");
        /* names are read only for an input without a header: alone, --names
         * would be ignored while the header row names the columns */
        if (slk_opt.names && !slk_opt.no_header)
            argp_error(st, "--names needs -H/--no-header (the input's header row names its columns)");
        if (slk_opt.names)
            check_names(st, slk_opt.names);
        break;
    case ARGP_KEY_SUCCESS:
        /* after every parser's ARGP_KEY_END (argp ends the children, this
         * one among them, before the tool's parser): a tool may name its
         * keys up to its own end */
        check_col_keys(st);
        break;
    case OPT_NO_PROGRESS:
        slk_opt.progress = 0;
        break;
    default:
        return ARGP_ERR_UNKNOWN;
    }
    return 0;
}

const struct argp cli_argp = {options, parse_opt, NULL, NULL, NULL, NULL, NULL};

int cli_progress_on(void)
{
    static int cached = -2;
    if (cached == -2) {
        if (slk_opt.progress >= 0)
            cached = slk_opt.progress;
        else
            cached = !slk_opt.quiet && isatty(STDERR_FILENO);
    }
    return cached;
}

void cli_parse(const struct argp *argp, int argc, char **argv, void *input)
{
    error_t rc = argp_parse(argp, argc, argv, 0, NULL, input);
    if (rc != 0) {
        slk_error("cannot read the command line: %s", strerror(rc));
        exit(SLK_ESOFTWARE);
    }
}

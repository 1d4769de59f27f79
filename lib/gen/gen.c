/* gen — the registry of tracegen's data kinds and --set helpers (see gen.h).
 * To add a kind: write lib/gen_<kind>.c exporting `const struct gen_kind
 * gen_kind_<kind>`, declare it below and add it to gen_kinds. */
#include "gen/gen.h"
#include "base/diag.h"
#include "base/parse.h"

#include <stdlib.h>
#include <string.h>

/* ---- registry (one line per kind) ---- */
extern const struct gen_kind gen_kind_tenants;
extern const struct gen_kind gen_kind_taskmem;
extern const struct gen_kind gen_kind_jobruns;
extern const struct gen_kind gen_kind_storage;
extern const struct gen_kind gen_kind_runs, gen_kind_usage, gen_kind_events;
extern const struct gen_kind gen_kind_vcs, gen_kind_vcjobs;
extern const struct gen_kind gen_kind_requests;
const struct gen_kind *const gen_kinds[] = {
    &gen_kind_runs,
    &gen_kind_usage,
    &gen_kind_events,
    &gen_kind_tenants,
    &gen_kind_taskmem,
    &gen_kind_jobruns,
    &gen_kind_storage,
    &gen_kind_vcs,
    &gen_kind_vcjobs,
    &gen_kind_requests,
    NULL
};

const struct gen_kind *gen_find(const char *name)
{
    for (const struct gen_kind *const *k = gen_kinds; *k; k++)
        if (strcmp((*k)->name, name) == 0)
            return *k;
    return NULL;
}

const char *gen_get_str(const struct gen_params *p, const char *key, const char *def)
{
    for (int i = p->nset - 1; i >= 0; i--)
        if (strcmp(p->set_key[i], key) == 0)
            return p->set_val[i];
    return def;
}

double gen_get(const struct gen_params *p, const char *key, double def)
{
    const char *s = gen_get_str(p, key, NULL);
    double v;
    if (!s)
        return def;
    if (parse_double(s, &v, 0) < 0) {
        /* kinds read their parameters before writing anything, so nothing
         * partial is left: stdout is empty and -o files are never renamed */
        slk_error("invalid value for --set %s: '%s' (not a number)", key, s);
        exit(SLK_EUSAGE);
    }
    return v;
}

int gen_check(const struct gen_kind *k, const struct gen_params *p)
{
    for (int i = 0; i < p->nset; i++) {
        int ok = 0;
        for (const char *const *a = k->keys; a && *a; a++)
            if (strcmp(*a, p->set_key[i]) == 0)
                ok = 1;
        if (!ok) {
            char list[512] = "";
            for (const char *const *a = k->keys; a && *a; a++) {
                if (list[0])
                    strncat(list, ", ", sizeof list - strlen(list) - 1);
                strncat(list, *a, sizeof list - strlen(list) - 1);
            }
            slk_error("unknown --set key '%s' for kind '%s' (accepted: %s)", p->set_key[i], k->name,
                      list[0] ? list : "none");
            return -1;
        }
        if (p->set_val[i][0] == 0) {
            slk_error("empty value for --set key '%s'", p->set_key[i]);
            return -1;
        }
    }
    return 0;
}

int gen_check_times(const struct gen_kind *k, const struct gen_params *p)
{
    if (!k->reach)
        return 0;
    double before, after;
    k->reach(p, &before, &after);
    if (p->start + after > CSVR_MAX_TIME) {
        slk_error("--start %.15g: the %s trace would reach %.0f, beyond %g (the year 5138): give an earlier "
                  "--start or a shorter trace",
                  p->start, k->name, p->start + after, CSVR_MAX_TIME);
        return -1;
    }
    if (p->start - before < -CSVR_MAX_TIME) {
        slk_error("--start %.15g: the %s trace would reach back to %.0f, beyond -%g: give a later --start",
                  p->start, k->name, p->start - before, CSVR_MAX_TIME);
        return -1;
    }
    return 0;
}

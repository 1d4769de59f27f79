/* group — the grouped-input iterator (see group.h). */
#include "base/group.h"
#include "base/diag.h"

#include <stdlib.h>
#include <string.h>

void group_begin(group_iter *g, const char *what)
{
    group_init(&g->t);
    g->what = what;
}

int group_next(group_iter *g, const char *file, long line, const char *key)
{
    /* the current key, before group_check may replace it */
    const char *prev = g->t.have ? g->t.cur : NULL;
    if (prev && strcmp(prev, key) == 0)
        return GROUP_SAME;
    if (!keyset_has(g->t.done, key))
        return group_check(&g->t, key) == 1 ? GROUP_NEW : GROUP_SAME;
    slk_error_at(file, line, "input not grouped by %s: %s '%s' appears again after %s '%s' (sort by %s first, "
                 "e.g. sort -s -t, -k1,1, or use -s)", g->what, g->what, key, g->what, prev ? prev : "", g->what);
    return GROUP_ERROR;
}

void group_end(group_iter *g) { group_free(&g->t); }

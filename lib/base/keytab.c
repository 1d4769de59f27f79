/* keytab — keyed side tables, one row per key (see keytab.h). */
#include "base/keytab.h"

const char *keytab_row(keyset *seen, csvr *r, int col)
{
    const char *key = csvr_field_required(r, col, NULL);
    if (!key)
        return NULL;
    long first;
    if (keyset_put(seen, key, csvr_line(r), &first) < 0) {
        csvr_fail(r, "duplicate %s '%s' (first at line %ld)", csvr_colname(r, col), key, first);
        return NULL;
    }
    return key;
}

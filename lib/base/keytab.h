/* keytab — the one loader rule for keyed side tables (a VC's capacity, a
 * task's allocation, a tenant's servers, a job's override): one row per key.
 *
 * The rule, the same in every tool: a row without its key is an error
 * ("column 'vc': missing value"); a key seen before is an error at the later
 * row ("duplicate vc 'a' (first at line 2)", the column's canonical name
 * after renames); the first row of a key is the one kept.  Under
 * `--on-error skip` both are rejected rows (csvr_skip), so the loader goes on
 * with the first row of each key.  The keys go into a keyset, which also
 * answers which row a key was (keyset_row), so a loader needs no index of
 * its own.
 *
 * Threads: no state of its own; a keyset is used by one thread at a time.
 */
#ifndef SLOKIT_KEYTAB_H
#define SLOKIT_KEYTAB_H

#include "base/csvio.h"
#include "base/keyset.h"

/* keytab_row: the key in column col of r's current row, added to seen (with
 * the row's line) as row number keyset_size(seen) - 1.  Returns the key
 * (owned by r, valid until the next csvr_next), or NULL after csvr_fail when
 * the key is missing or already in seen; the caller then does
 *     if (csvr_skip(r)) continue;  break;
 * A rejected row does not enter the set: call keytab_row after the row's
 * other checks. */
const char *keytab_row(keyset *seen, csvr *r, int col);

#endif

/* cptable — classpick's input tables: the class table (tenantclass
 * --classes), the classes' current utilization, and job DAGs reduced to
 * their maximum concurrent containers (seed 003 §4.1).
 *
 * Errors: the readers report "tool: FILE:LINE: what" through csvio /
 * slk_error_at and return an exit status (lib/base/diag.h).  Under
 * --on-error skip (a dialect with rejects) a bad class or current row is
 * skipped; DAG rows are never skipped (a job's DAG is whole or wrong).
 * Ownership: a cp_table and a cp_dagtab own their names (cp_table_free,
 * cp_dagtab_free).
 *
 * Threads: no module state; a table is read by any number of threads once
 * loaded.
 */
#ifndef SLOKIT_CPTABLE_H
#define SLOKIT_CPTABLE_H

#include "base/csvio.h"
#include "harvest/classpick.h"

#include <stddef.h>
#include <stdint.h>

struct cp_table {
    struct cp_class *c;
    size_t n;
    int have_current; /* every class has a current utilization */
};

/* cp_table_find: the index of class `name`, or -1. */
long cp_table_find(const struct cp_table *t, const char *name);

/* The columns each reader looks up by name, NULL-terminated: what a tool gives cli_keys as its --col KEYs
 * for that input.  cp_class_keys: the class table (cp_read_classes); cp_current_keys: the current table
 * (cp_read_current); cp_dag_keys: the DAG table (cp_read_dags). */
extern const char *const cp_class_keys[];
extern const char *const cp_current_keys[];
extern const char *const cp_dag_keys[];

/* cp_read_classes: class,pattern,avg_util,peak_util,servers[,current_util]
 * rows; utilizations are divided by uscale (1 or 100) and must not exceed
 * it; peak_util below avg_util is a bad row; a class missing current_util
 * gets NaN.  At least one class. */
int cp_read_classes(const char *path, const struct csv_dialect *d, double uscale, struct cp_table *t);

/* cp_read_current: class,current_util rows for classes of t (classes_path
 * names the table in the message when one is unknown; a class given twice is
 * a bad row). */
int cp_read_current(const char *path, const struct csv_dialect *d, double uscale, const char *classes_path,
                    struct cp_table *t);

void cp_table_free(struct cp_table *t);

/* cp_pick: Algorithm 1 (cp_select) for one job of a jobs file, its draws
 * from rng_seed_key(seed, job): writes the chosen classes joined by '+' to
 * names and the reason in words to reason (both truncated to their sizes),
 * and when book is set gives the containers to the chosen classes
 * (cp_book).  chosen must hold t->n entries.  A demand of 0 needs no class
 * (CP_NO_DEMAND, no names, nothing booked).  Returns the outcome (enum
 * cp_outcome). */
int cp_pick(const struct cp_params *p, struct cp_table *t, uint64_t seed, const char *job, int type, double demand,
            int book, size_t *chosen, char *names, size_t nsize, char *reason, size_t rsize);

struct cp_dagdemand { char *job; double demand; int levels; };
struct cp_dagtab { struct cp_dagdemand *d; size_t n, cap; };

/* cp_read_dags: job,vertex,tasks,parent edges grouped by job (an empty
 * parent marks a source; a parent may be declared after its child within
 * the job) -> each job's maximum concurrency by cp_dag_max_concurrency,
 * sorted by job. */
int cp_read_dags(const char *path, const struct csv_dialect *d, struct cp_dagtab *t);

/* cp_dag_lookup: the job's entry, or NULL. */
const struct cp_dagdemand *cp_dag_lookup(const struct cp_dagtab *t, const char *job);

void cp_dagtab_free(struct cp_dagtab *t);

#endif

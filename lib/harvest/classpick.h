/* classpick — Algorithm 1 of seed 003 (§4.1): choose utilization classes of
 * primary tenants for a batch job, and the DAG breadth-first traversal that
 * estimates a job's maximum concurrent containers.
 *
 * Model.  A job's type comes from its last run's duration d: short when
 * d < short_max (173 s), long when d > long_min (433 s), medium otherwise and
 * when the job never ran.  A class's headroom for a type (a fraction of its
 * cores) is short: 1 - current; medium: 1 - max(avg, current); long:
 * 1 - max(peak, avg, current) (a peak below the mean counts as the mean).
 * The reserve kept for the primary tenants to burst into is not
 * harvestable, so a class's room, in containers of one core, is
 *     room = floor(max(0, headroom - reserve) x servers x cores) - used
 * where used counts containers already given out in this run.  Weighted room
 * = room x W[type][pattern].  The classes where the job fits (room >= demand)
 * form F; if F is not empty one class of F is drawn with probability
 * proportional to its weighted room; otherwise, when all rooms together hold
 * the demand, classes are drawn one after another the same way (without
 * replacement) until their rooms hold it; otherwise no class is chosen.
 * Classes with weight 0 are never drawn.
 *
 * Ownership: callers own every array; nothing here allocates except the DAG,
 * which owns its copies of vertex names.  Errors: -1 returns, no printing.
 *
 * Threads: no module state; a cp_dag or a class array may be used by one
 * thread at a time, different ones in parallel.
 */
#ifndef SLOKIT_CLASSPICK_H
#define SLOKIT_CLASSPICK_H

#include "base/rng.h"

#include <stddef.h>

enum cp_type { CP_SHORT, CP_MEDIUM, CP_LONG, CP_NTYPES };
enum cp_pattern { CP_PERIODIC, CP_CONSTANT, CP_UNPREDICTABLE, CP_NPATTERNS };

struct cp_params {
    double short_max;                        /* below: short (default 173 s) */
    double long_min;                         /* above: long (default 433 s) */
    double weight[CP_NTYPES][CP_NPATTERNS];  /* ranking weights */
    double reserve;                          /* fraction of cores kept for the primary (0.33) */
    double cores;                            /* cores per server (12) */
};

/* cp_params_default: the paper's thresholds and rankings as weights 3, 2, 1:
 * long: constant, periodic, unpredictable; medium: periodic, constant,
 * unpredictable; short: unpredictable, periodic, constant; reserve 0.33 of
 * 12 cores. */
void cp_params_default(struct cp_params *p);

/* names: "short"/"medium"/"long", "periodic"/"constant"/"unpredictable" */
const char *cp_type_name(int type);
const char *cp_pattern_name(int pattern);
/* the index for a name, or -1 */
int cp_type_parse(const char *s);
int cp_pattern_parse(const char *s);

/* cp_job_type: the type for a last duration in seconds; a negative or NaN
 * duration means "never ran" (medium). */
int cp_job_type(const struct cp_params *p, double last_duration);

struct cp_class {
    const char *name;
    int pattern;
    double avg, peak, current;  /* utilization, 0-1 */
    double servers;
    double used;                /* containers already given out */
};

/* cp_headroom: the headroom fraction of class c for a job type (may be < 0
 * when utilization is above 1, which callers treat as no room): short jobs
 * 1 - current, medium 1 - max(avg, current), long 1 - max(peak, avg,
 * current) (a peak below the mean, the p99 of a tenant whose spikes are
 * rarer than 1%, counts as the mean, as tenantclass writes a class's). */
double cp_headroom(int type, const struct cp_class *c);
/* cp_room: containers class c can still take for the type (>= 0). */
double cp_room(const struct cp_params *p, int type, const struct cp_class *c);

/* CP_NO_DEMAND: a job of no containers, which needs no class (cp_pick;
 * cp_select never returns it) */
enum cp_outcome { CP_ONE, CP_SEVERAL, CP_NONE, CP_NO_DEMAND };

/* cp_select: Algorithm 1 for a job of `type` needing `demand` containers.
 * Writes the chosen class indices (in draw order) to chosen[0..*nchosen) —
 * chosen must hold ncls entries — and, when nfit/total are not NULL, the size
 * of F and the sum of rooms.  Returns CP_ONE, CP_SEVERAL or CP_NONE; does not
 * change `used` (the caller books the containers, see cp_book). */
int cp_select(const struct cp_params *p, int type, double demand, const struct cp_class *cls, size_t ncls,
              rng *r, size_t *chosen, size_t *nchosen, size_t *nfit, double *total);

/* cp_rooms: the first half of cp_select, for callers that ask Algorithm 1
 * many times while the classes do not change: each class's room for `type`
 * (cp_room; 0 when its weight for the type is 0) to room[0..ncls), the
 * weighted room (room x weight) to wr[0..ncls); returns the sum of the
 * rooms.  Valid until a class's utilization, `used` or the params change. */
double cp_rooms(const struct cp_params *p, int type, const struct cp_class *cls, size_t ncls, double *room,
                double *wr);

/* cp_choose: the second half of cp_select: the choice for `demand`
 * containers from cp_rooms' room, wr and sum over ncls classes, with the
 * same outcome, chosen classes and draws from r as cp_select.  cand is
 * scratch of ncls entries; chosen, *nchosen and *nfit (when not NULL) as in
 * cp_select.  Allocates nothing. */
int cp_choose(double demand, const double *room, const double *wr, double sum, size_t ncls, rng *r,
              size_t *cand, size_t *chosen, size_t *nchosen, size_t *nfit);

/* cp_book: give `demand` containers to the chosen classes, filling them in
 * order (the last one takes what is left). */
void cp_book(const struct cp_params *p, int type, double demand, struct cp_class *cls, const size_t *chosen,
             size_t nchosen);

/* ---- DAG: maximum concurrent containers ---------------------------------- */

typedef struct cp_dag cp_dag;

cp_dag *cp_dag_new(void);
void cp_dag_free(cp_dag *d);
/* cp_dag_vertex: declare vertex `name` with `tasks` containers; a vertex
 * declared twice must have the same tasks (returns -1 otherwise). */
int cp_dag_vertex(cp_dag *d, const char *name, double tasks);
/* cp_dag_edge: parent -> child (both declared first); returns -1 if unknown. */
int cp_dag_edge(cp_dag *d, const char *parent, const char *child);
/* cp_dag_max_concurrency: breadth-first traversal from the sources by
 * frontiers (a vertex joins the frontier after all its parents, i.e. at level
 * 1 + the largest level of its parents); the tasks of one level can run
 * together, so the result is the largest sum of tasks over the levels.
 * Sets *levels when not NULL.  Returns -1 when the graph has a cycle or no
 * vertex. */
double cp_dag_max_concurrency(cp_dag *d, int *levels);
size_t cp_dag_size(const cp_dag *d);

#endif

/* yarn — a plan's reservations as request bodies of the Hadoop 3
 * ResourceManager REST API (the YARN ReservationSystem, Cluster Reservation
 * API: POST /ws/v1/cluster/reservation/submit, .../update, .../delete).
 *
 * A reservation becomes one reservation-definition: its exact allocation as
 * consecutive reservation-request items (reservation-request-interpreter 3,
 * R_ORDER_NO_GAP), each {capability {memory, vCores}, num-containers,
 * min-concurrency, duration}; arrival its own first instant (ms); a periodic
 * one carries recurrence-expression = its period in ms.  Times come from the
 * plan: a periodic reservation is dated from the cycle starting at `at`, a
 * once reservation from its own cycle.
 *
 * Threads: no shared state; distinct calls may run at once.
 */
#ifndef SLOKIT_YARN_H
#define SLOKIT_YARN_H

#include "morpheus/plan.h"
#include <stdio.h>

/* What goes into every body. */
struct yarn_opts {
    const char *queue;      /* the reservation queue (YARN's "dedicated" by default) */
    double at;              /* epoch seconds: the cycle periodic reservations are dated from */
};

/* yarn_json_str: s as a JSON string (quoted, escaped) to fp. */
void yarn_json_str(FILE *fp, const char *s);

/* yarn_write_plan: one submit body per live reservation of p, one per line,
 * in plan order.  Returns 0, or -1 when fp reports a write error. */
int yarn_write_plan(const plan *p, FILE *fp, const struct yarn_opts *o);

#endif

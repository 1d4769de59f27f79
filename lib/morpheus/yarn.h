/* yarn — a plan's reservations as request bodies of the Hadoop 3
 * ResourceManager REST API (the YARN ReservationSystem, Cluster Reservation
 * API: POST /ws/v1/cluster/reservation/submit, .../update, .../delete).
 *
 * A reservation becomes one reservation-definition: its exact allocation as
 * consecutive reservation-request items (reservation-request-interpreter 3,
 * R_ORDER_NO_GAP), each {capability {memory, vCores}, num-containers,
 * min-concurrency, duration}; arrival its own first instant (ms); deadline
 * the SLO deadline of the instance (the end of its window [a, d]: at + d for
 * a periodic reservation, n*period + d for once instance n; never before the
 * allocation ends); a periodic one carries recurrence-expression = its period
 * in ms.  Times come from the plan: a periodic reservation is dated from the
 * cycle starting at `at`, a once reservation from its own cycle.
 *
 * NOW.  The RM refuses a body whose deadline is not after the time it is
 * POSTed (Hadoop 3's ReservationInputValidator: "The specified deadline ...
 * is the past").  yarn_opts.now is that time: a periodic reservation is
 * dated from its first instance (at + n*period, n >= 0) whose deadline is
 * after it.  (A once reservation over by then is dropped by lcmpack --now
 * before any body is written, and none is placed with its deadline before
 * it.)  The nightly job plans from the midnight ending its dump and POSTs
 * later (at 01:30): dated from `at`, every hourly job's body had its
 * deadline in the past.  now <= at changes nothing.
 *
 * UNDER WAY.  A job that turns from off-kilter to periodic while one of its
 * once reservations is under way at NOW keeps that one (it is never deleted
 * while it runs); its recurring body is then dated from the first instance
 * whose allocation overlaps none of the job's once reservations under way,
 * so the RM never holds the job twice at the same time.  (Ad-hoc
 * reservations, requests of their own, are not counted.)  The date is not
 * in the digest (DELTA): the next night, with the once one over, sends
 * nothing for it.
 *
 * RESERVATION ID.  Derivable, the same every night for the same job (and
 * instance): "reservation_<T>_<H>" with T = yarn_opts.cluster_ts (the RM's
 * cluster timestamp; default 0) and H = FNV-1a 64 of the job name (periodic)
 * or "job#instance" (once), its low 62 bits in decimal (at least 4 digits,
 * as YARN's ReservationId prints them).  A periodic job whose name holds a
 * '#' hashes its name and a NUL byte: "x#5" periodic would otherwise share
 * the id of once instance 5 of a job "x" (a once name, split at its last
 * '#', names one job and instance; no job name holds a NUL).  Ids are
 * distinct within a plan: should two live reservations derive one H (names
 * that collide under FNV-1a are found with about 2^31 tries, so a tenant
 * can name a job after another's id), the first of them by job name in
 * byte order, periodic before once, then instance, keeps H, and each other,
 * in that order, takes the H of its bytes followed by a NUL and the
 * smallest k = 1, 2, ... in decimal that no live reservation's own H is and
 * none taken before (with a warning).  Without it the bodies of both went
 * out under one id and every re-run sent an update and a delete.  The RM's own ids come from
 * POST .../reservation/new-reservation; an RM that insists on those needs a
 * job -> id map kept beside the plan (not done here).
 *
 * DELTA.  yarn_snapshot_take records, before a night's changes, each live
 * reservation's id and a digest of what its body says apart from the date
 * of the cycle (kind, instance, cycle, start, len, containers, size, period,
 * a, d).  yarn_write_delta then writes, for the plan after the changes:
 *   submit  {"queue", "reservation-id", "reservation-definition"}  for an id
 *           not in the snapshot (not for a spent one: it ran already);
 *   update  {"reservation-id", "reservation-definition"}  for an id whose
 *           digest changed;
 *   delete  {"reservation-id"}  for an id of the snapshot no longer in the
 *           plan, unless it was a once reservation that ended before `at`
 *           (or `now`, when later: the RM drops those itself);
 * nothing for an unchanged reservation, so a re-run on unchanged input
 * writes an empty delta.  Field names and types are those of the Hadoop 3
 * ResourceManager REST API (Cluster Reservation API: submit, update,
 * delete); tests/check/yarn_api.py checks them.
 *
 * Threads: no shared state; distinct calls may run at once.
 */
#ifndef SLOKIT_YARN_H
#define SLOKIT_YARN_H

#include "morpheus/plan.h"
#include <stdint.h>
#include <stdio.h>

/* What goes into every body. */
struct yarn_opts {
    const char *queue;      /* the reservation queue (YARN's "dedicated" by default) */
    double at;              /* epoch seconds: the cycle periodic reservations are dated from */
    double now;             /* epoch seconds the bodies are POSTed at (NOW); <= at: at */
    long long cluster_ts;   /* T of the reservation ids */
};

/* The ids and digests of a plan's live reservations, sorted by id. */
struct yarn_snap_item {
    char *id;               /* owned */
    uint64_t digest;
    int once;               /* a once reservation ... */
    double end;             /* ... and its absolute end, epoch seconds */
};
struct yarn_snapshot {
    struct yarn_snap_item *v;
    size_t n;
};

/* What a delta holds. */
struct yarn_delta_counts {
    long submit, update, del, same, expired;
};

/* yarn_json_str: s as a JSON string (quoted, escaped) to fp; a byte that
 * does not start a well-formed UTF-8 sequence is written as \ufffd (JSON
 * text is UTF-8: YARN's parser refuses the body otherwise). */
void yarn_json_str(FILE *fp, const char *s);

/* yarn_ids: the id (RESERVATION ID) of each live reservation of p, by
 * index into p->res (NULL for a removed one); the ids are distinct.  With
 * warn, a reservation that does not get its own H (a collision) is warned
 * of on stderr, naming both.  Free with yarn_ids_free. */
char **yarn_ids(const plan *p, long long cluster_ts, int warn);
void yarn_ids_free(const plan *p, char **id);

/* yarn_snapshot_take: the ids and digests of p's live reservations into *s
 * (allocated; free with yarn_snapshot_free). */
void yarn_snapshot_take(const plan *p, const struct yarn_opts *o, struct yarn_snapshot *s);
void yarn_snapshot_free(struct yarn_snapshot *s);

/* yarn_write_delta: the bodies that take the RM from the snapshot `old` to
 * plan p (DELTA), one per line, to submit, update and del (any may be the
 * same stream); counts in *c.  Returns 0, or -1 when a stream reports a
 * write error. */
int yarn_write_delta(const plan *p, const struct yarn_snapshot *old, const struct yarn_opts *o, FILE *submit,
                     FILE *update, FILE *del, struct yarn_delta_counts *c);

/* yarn_write_plan: one submit body per live reservation of p (not removed,
 * not spent), one per line, in plan order.  Returns 0, or -1 when fp
 * reports a write error. */
int yarn_write_plan(const plan *p, FILE *fp, const struct yarn_opts *o);

#endif

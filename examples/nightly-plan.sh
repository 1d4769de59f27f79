#!/bin/bash
# nightly-plan.sh — the nightly reservation plan, end to end.
#
#   examples/nightly-plan.sh [TELEMETRY_DIR [STATE_DIR]]
#
# TELEMETRY_DIR (default examples/telemetry) holds last month's dump:
#   runs.csv      one row per job run   (job,instance,submit,start,end,input_avail,output_read,status)
#   usage.csv     per-run usage skylines (job,run,t,containers[,cores,mem_mb])
#   capacity.csv  optional: cluster capacity over the day (t,cores,mem_mb);
#                 otherwise $CAPACITY (default cores=1000,mem_mb=4096000)
#   (PRIOR_WEIGHT=W, off by default: skyfit --prior, last night's skylines
#   held unless a step gains more than W x alpha per container by moving)
#   adhoc.csv     optional: ad-hoc (non-periodic) requests
#                 job,arrival,deadline,containers,duration[,cores,mem_mb],
#                 placed on the capacity periodic reservations leave;
#                 rows with empty containers,duration take their job's
#                 skyline from adhoc-skyline.csv (skyfit's format)
#   Each may be compressed, NAME.csv.gz or NAME.csv.zst instead of NAME.csv
#   (one of the three: two are refused, exit 64); a zstd runs.csv.zst
#   needs the zstd command, as the job reads its submit times itself.
# STATE_DIR (default ./nightly-state, or $SLOKIT_STATE) keeps each night's
# results in a generation directory gen.N; STATE_DIR/current points at the
# last complete one, and STATE_DIR/<file> at current/<file> when tonight
# has that file (no dangling link: cp -rL STATE_DIR backs it up):
#   plan.csv      the reservation plan (lcmpack's format, checksummed)
#   slo.csv, skyline.csv, skyfit-stats.csv   what tonight's plan was built from
#   decisions.csv one row per job: kept, moved, placed (new), removed, rejected,
#                 skipped, expired, and why (lcmpack --report)
#   load.csv      the load profile t,cores,mem_mb,cost
#   yarn.jsonl    every reservation as a YARN reservation/submit body, to be
#                 POSTed now (NOW, epoch seconds or ISO 8601, default the
#                 clock; --now in lcmpack(1))
#   yarn/submit.jsonl, yarn/update.jsonl, yarn/delete.jsonl
#                 tonight's YARN delta: the bodies to POST to the RM's
#                 /ws/v1/cluster/reservation/{submit,update,delete}
#   rm-plan.csv   with POST_ACK=1: the plan the RM holds once that delta
#                 is POSTed is plan.csv; until then, this one (see below)
#   plan.svg      the plan drawn by skyplot (none on a night whose plan has
#                 no reservations: the report says so)
#   rejects.csv   rows of the dump and of adhoc.csv that were skipped, with
#                 file, line and why (ON_ERROR=skip, the default;
#                 ON_ERROR=strict fails the night on the first bad row
#                 instead)
#   report.txt    tonight's report (also printed): the changes: line counts
#                 decisions.csv's rows (reservations) by status, the
#                 plan: lines are lcmpack's own summary (its --stable line
#                 counts jobs); with lcmpack's warnings
#                 ("warning:   the plan exceeds the capacity ..." when CAPACITY
#                 shrank below the reservations kept from last night)
#                 and a warning when the dump's day has passed (NOW, or the
#                 clock, a day or more after the dump ends: a replay, or an
#                 export that stopped; the plan is then for the dump's day),
#                 a warning when runs were submitted after now (a clock
#                 running ahead: they are left out of the plan's date, so
#                 one such row cannot move the plan days ahead),
#                 and lists (off-kilter jobs, moved, refused) of at most
#                 $REPORT_LIST jobs each (default 20), then "... and N more":
#                 decisions.csv has them all
#
# What it does: infer SLOs (sloinfer), fit skylines (skyfit), place them into
# last night's plan with lcmpack --stable: a job whose request is
# substantially the same keeps its reservation byte for byte, a changed one
# moves, a gone one is freed, a new one is placed; jobs whose period does not
# divide the day (off-kilter, or longer than a day) get one-off reservations
# for every instance opening in the next $HORIZON (default 48h) from the end
# of the dump (the midnight after its last submit, read from the rows
# sloinfer used, epoch seconds or ISO 8601: a skipped row never moves it);
# then the YARN delta, the picture and the report.  A bad setting (ON_ERROR,
# REPORT_LIST, PRIOR_WEIGHT, LOCK_WAIT, NOW, METRICS, QUEUE,
# CLUSTER_TIMESTAMP) exits 64 before anything runs.
#
# Safe to re-run: on the same input nothing changes, the plan is
# byte-identical and the YARN delta is empty, also when the capacity refuses
# some requests (lcmpack tries them again after its --improve polish, so the
# plan is a fixed point: docs/lcmpack.md).  Re-run later the same day, the
# one-off reservations that ended in between expire from the plan (the RM
# drops them itself: no delete), and a request refused earlier may fit in
# the room they leave (a submit).  Survives its night:
#   - one run at a time: a second run on the same STATE_DIR waits up to
#     $LOCK_WAIT whole seconds (default 0) for the lock STATE_DIR/.lock, then exits
#     75 with "nightly-plan: STATE_DIR is locked by another run";
#   - a STATE_DIR another user made (a night run by hand as root, then the
#     service user's cron): exits 1 at once with "DIR: not writable by USER
#     (owner OWNER)" and the chown that fixes it; another user's lock file
#     alone is no obstacle (flock needs it only open for reading); a
#     STATE_DIR its owner may not write says "no write permission for USER"
#     and the chmod, one on a read-only mount "read-only file system";
#   - everything is built in a scratch directory and published by one
#     rename(2) of the `current` link, so kill -9 at any point, a full disk
#     or a failing step leaves last night's plan, YARN delta and report as
#     they were; the next run removes the debris and starts over by itself;
#   - a job added by hand meanwhile (lcmpack --plan STATE_DIR/plan.csv ...
#     -o STATE_DIR/plan.csv) is not lost: the run holds the plan's lock
#     (lcmpack's own, beside the file the link leads to) from before it
#     reads last night's plan until it has published tonight's, so the add
#     waits ("waiting for ... plan.csv.lock") and then lands in tonight's
#     plan; one under way when the run reaches its plan step finishes
#     first (the run waits up to 10 minutes for it, then exits 75).
#     It lasts while its job has a request in the dump: a job with no
#     actionable SLO (sloinfer needs five runs) is removed the next night ("no
#     request tonight"), with a YARN delete;
#
# POST_ACK=1: the POST step says when the delta is in.  The delta takes the
# RM from last night's plan to tonight's, so a run between a night and its
# POST (a re-run, or the recovery after a kill -9 that stopped a cron chain
# before its POST) would find nothing to send.  With POST_ACK=1 the POST
# step touches STATE_DIR/yarn/posted once every body is in; a night whose
# delta is not empty and not marked is taken as never POSTed, and tonight's
# delta is computed against the plan the RM last had (rm-plan.csv;
# lcmpack --yarn-base), so it carries the unsent changes too (the report
# says so).  Without POST_ACK the delta is always against last night's plan.
#
# METRICS=FILE (off by default): after every run that gets past its
# arguments, FILE in the Prometheus text format, replaced in one rename
# (node_exporter's textfile collector reads DIR/*.prom: METRICS=DIR/slokit.prom),
# one FILE per STATE_DIR.  Every run sets slokit_nightly_last_run_timestamp_seconds
# (the clock) and slokit_nightly_last_exit_status; a published night also
# slokit_nightly_last_success_timestamp_seconds, _generation (current is
# gen.N), _plan_from_timestamp_seconds (the plan's day: the dump's end),
# _decisions{status=...} (decisions.csv's rows by status, every status, 0
# too), _bad_rows (rejects.csv), _yarn_delta_bodies{kind=submit|update|delete}
# and _plan_peak_cost (load.csv's highest cost: above 1 the plan exceeds the
# capacity; +Inf on a step of zero capacity).  A failed run keeps the last
# published night's values as they were.  A run killed (kill -9, SIGTERM,
# power loss) writes nothing: alert on the age of the last success, e.g.
#   time() - slokit_nightly_last_success_timestamp_seconds > 26 * 3600
# A METRICS file that cannot be written is a warning, never the night's
# status.
#
# QUEUE (default dedicated): the reservable YARN queue of every body
# (lcmpack --queue); CLUSTER_TIMESTAMP (default 0): the RM's cluster
# timestamp in the reservation ids (lcmpack --cluster-timestamp: the
# clusterTimestamp of /ws/v1/cluster/info; the ids are
# reservation_<it>_<a hash of the job's name>).  A new QUEUE or CLUSTER_TIMESTAMP
# names every reservation anew: set them before the first night.
#
# A dump that ends before last night's plan began (an export cut short, a
# time-ordered runs.csv truncated) would plan a day already planned: it
# deletes the coming one-off reservations and submits instances whose
# deadlines have passed.  The night fails instead (exit 65, "tonight's dump
# ends D, before last night's plan from D2: a dump cut short? last night's
# plan is kept"); ALLOW_EARLIER=1 plans it all the same (a deliberate
# replay of an older dump), and the report warns.  Last night's plan date
# is the "plan from" of its report.txt.
#
# The tools: those of the directory $SLOKIT_BIN when set, else those on
# PATH, else this checkout's build/bin (examples/common.sh, as every script
# here).  --help prints this header.
#
# Exit status: 0 the night is published; 1 this run cannot start (a tool
# not found, a STATE_DIR it cannot write) or a test hook failed it; 64 a
# bad setting or argument; 65 bad data (a bad row with ON_ERROR=strict, a dump with no
# usable submit time or ending before last night's plan); 66 a telemetry
# file is missing; 75 STATE_DIR is locked by another run; otherwise the
# failing tool's own status, passed through (slokit(7): 70 internal error,
# 73 an output cannot be created, 74 a write error such as a full disk: a
# failure of the job's own writes into the state is 74 too).  Any failure
# leaves last night's state as it was.
#
# Cron (every night at 01:30, after the telemetry export):
#   30 1 * * *  cd /srv/slokit && examples/nightly-plan.sh /data/telemetry/latest /srv/slokit/state >> /var/log/slokit-nightly.log 2>&1
set -euo pipefail
export LC_ALL=C

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
. "$here/common.sh"
ex_args nightly-plan "$0" 2 "$@"
tel=${1:-$here/telemetry}
state=${2:-${SLOKIT_STATE:-./nightly-state}}
# METRICS=FILE: its directory must exist (checked before the other
# settings, so that every later exit, a bad setting's too, is recorded)
metrics_f=${METRICS:-}
case $metrics_f in */) echo "nightly-plan: METRICS is a file, not the directory '$metrics_f'" >&2; exit 64 ;; esac
if [ -n "$metrics_f" ] && [ ! -d "$(dirname -- "$metrics_f")" ]; then
    echo "nightly-plan: METRICS=$metrics_f: no directory $(dirname -- "$metrics_f")" >&2; exit 64
fi
# metric NAME HELP VALUE | metric NAME HELP - SAMPLES: one gauge in the
# Prometheus text format (SAMPLES: lines 'LABELS VALUE')
metric() {
    printf '# HELP %s %s\n# TYPE %s gauge\n' "$1" "$2" "$1"
    if [ "$3" != - ]; then printf '%s %s\n' "$1" "$3"; return; fi
    printf '%s\n' "$4" | while read -r l v; do printf '%s{%s} %s\n' "$1" "$l" "$v"; done
}
# published_metrics NOW: the values of the night just published
published_metrics() {
    local g=$state/current
    metric slokit_nightly_last_success_timestamp_seconds "When a night was last published (epoch seconds)" "$1"
    metric slokit_nightly_generation "The published generation: STATE_DIR/current is gen.N" "$(readlink "$g" | sed 's/^gen\.//')"
    metric slokit_nightly_plan_from_timestamp_seconds "The published plan's day: the midnight after the dump's last submit (epoch seconds)" "$at"
    metric slokit_nightly_decisions "The published night's decisions.csv rows (reservations) by status" - \
        "$(awk "$csv_awk"'BEGIN { n = split("placed kept moved rejected skipped removed expired", S, " ") }
            { csv() } REC > 1 { c[status(F[4])]++ }
            END { for (i = 1; i <= n; i++) printf "status=\"%s\" %d\n", S[i], c[S[i]] }' "$g/decisions.csv")"
    metric slokit_nightly_bad_rows "Rows of the dump and of adhoc.csv skipped, each in rejects.csv" \
        "$(awk "$csv_awk"'{ csv() } REC > 1 { n++ } END { print n + 0 }' "$g/rejects.csv")"
    metric slokit_nightly_yarn_delta_bodies "The published night's YARN delta: bodies to POST" - \
        "$(for k in submit update delete; do echo "kind=\"$k\" $(cat "$g/yarn/$k.jsonl" 2>/dev/null | wc -l)"; done)"
    metric slokit_nightly_plan_peak_cost "The plan's highest cost (load.csv): above 1 it exceeds the capacity" \
        "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "cost") c = i; next }
            c { if ($c == "") inf = 1; else if ($c + 0 > m) m = $c + 0 }
            END { if (inf) print "+Inf"; else printf "%.6g\n", m }' "$g/load.csv")"
}
# write_metrics RC: METRICS after a run that exits RC (the header's
# METRICS), built in memory, then written and renamed into place
write_metrics() {
    local rc=$1 now m err tmp="$metrics_f.tmp.$$"
    now=$(date +%s)
    m=$(metric slokit_nightly_last_run_timestamp_seconds "When nightly-plan.sh last ended, published or not (epoch seconds)" "$now"
        metric slokit_nightly_last_exit_status "Its exit status: 0 the night is published (nightly-plan.sh --help, Exit status)" "$rc"
        if [ "$rc" = 0 ]; then
            published_metrics "$now"
        elif [ -r "$metrics_f" ]; then # the last published night's, as they were
            grep -Ev '^(# (HELP|TYPE) )?slokit_nightly_last_(run_timestamp_seconds|exit_status) ' "$metrics_f"
        fi)
    if ! err=$({ printf '%s\n' "$m" > "$tmp" && mv -f "$tmp" "$metrics_f"; } 2>&1); then
        rm -f "$tmp"
        echo "nightly-plan: warning: METRICS=$metrics_f: not written: ${err##*: }" >&2
    fi
}
# on_exit: at every exit tonight's scratch directory goes (none once the
# night is published), then METRICS is written; the status stays
work=""
on_exit() {
    local rc=$?
    trap - ERR
    set +e
    [ -z "$work" ] || rm -rf "$work"
    [ -z "$metrics_f" ] || write_metrics "$rc"
    exit "$rc"
}
trap on_exit EXIT
capacity=${CAPACITY:-cores=1000,mem=4096000}
horizon=${HORIZON:-48h}
prior_weight=${PRIOR_WEIGHT:-}
stable=${STABLE:-10%}
on_error=${ON_ERROR:-skip}
case $on_error in skip|strict) ;; *) echo "nightly-plan: ON_ERROR is skip or strict, not '$on_error'" >&2; exit 64 ;; esac
# whole NAME VALUE UNIT: VALUE as a whole number (0 or more; at most
# 999999999), or exit 64 saying what NAME must be
whole() {
    case $2 in ''|*[!0-9]*) echo "nightly-plan: $1 is a whole number of $3 (0 or more), not '$2'" >&2; exit 64 ;; esac
    if [ ${#2} -le 9 ]; then echo $((10#$2)); else echo 999999999; fi
}
lock_wait=$(whole LOCK_WAIT "${LOCK_WAIT:-0}" seconds) || exit 64
# NOW: epoch seconds, or an ISO 8601 time as date(1) reads it (as --now)
now_arg=${NOW:-}
if [ -n "$now_arg" ] && ! [[ $now_arg =~ ^[0-9]{1,11}$ ]]; then
    [[ $now_arg =~ ^[0-9]{4}-[0-9]{2}-[0-9]{2} ]] && now_arg=$(date -u -d "$now_arg" +%s 2>/dev/null) || now_arg=
    [ -n "$now_arg" ] || { echo "nightly-plan: NOW is epoch seconds or an ISO 8601 time (2026-02-08T01:30:00Z), not '$NOW'" >&2; exit 64; }
fi
[ -z "$now_arg" ] || now_arg=$((10#$now_arg))
report_list=$(whole REPORT_LIST "${REPORT_LIST:-20}" lines) || exit 64
post_ack=${POST_ACK:-0}
case $post_ack in 0|1) ;; *) echo "nightly-plan: POST_ACK is 0 or 1, not '$post_ack'" >&2; exit 64 ;; esac
queue=${QUEUE:-dedicated}
[[ $queue =~ ^[A-Za-z0-9_.-]+$ ]] || { echo "nightly-plan: QUEUE is a YARN queue name (letters, digits, '_', '.', '-'), not '$queue'" >&2; exit 64; }
cluster_ts=${CLUSTER_TIMESTAMP:-0}
[[ $cluster_ts =~ ^[0-9]{1,16}$ ]] && [ $((10#$cluster_ts)) -le 4000000000000000 ] ||
    { echo "nightly-plan: CLUSTER_TIMESTAMP is the RM's cluster timestamp in milliseconds (0 to 4000000000000000), not '$cluster_ts'" >&2; exit 64; }
yarn_opt=(--queue "$queue" --cluster-timestamp "$((10#$cluster_ts))")
allow_earlier=${ALLOW_EARLIER:-0}
case $allow_earlier in 0|1) ;; *) echo "nightly-plan: ALLOW_EARLIER is 0 or 1, not '$allow_earlier'" >&2; exit 64 ;; esac
# csv_awk: the awk prelude of every program below that reads a CSV file: the
# tools quote a field that holds a comma, a quote or a line end (a Hive job
# is named by its query), so -F, would split such a name and count a line of
# it as a row.  Each rule block starts with csv(): it joins the lines of a
# record whose quote is still open, sets F[1..n] to its fields, unquoted,
# and returns n; REC counts records (NR counts lines), LINE0 is the line the
# record starts on, RAW the record as read (all its lines: print RAW, not
# $0, to copy it).  mawk and gawk alike; a line without a quote is split
# by split(), fast.  show(s) is s for the report: a line end in it a
# space, any other control byte \xHH (as the tools write names on stderr).
csv_awk='
function show(s,   i, c, o) {
    if (s !~ /[\001-\037\177]/) return s
    if (!("\001" in CTRL)) for (i = 1; i < 32; i++) CTRL[sprintf("%c", i)] = sprintf("\\x%02x", i)
    CTRL["\177"] = "\\x7f"; CTRL["\n"] = " "; CTRL["\r"] = " "; CTRL["\t"] = "\t"
    o = ""
    for (i = 1; i <= length(s); i++) { c = substr(s, i, 1); o = o ((c in CTRL) ? CTRL[c] : c) }
    return o
}
function status(s) {   # a decisions.csv status as counted: its leading word ("kept" of "kept-...")
    sub(/[^a-z].*$/, "", s); return s
}
function sorted(a, k,   n, i, j, t) {   # the keys of a into k[1..n], in byte order
    n = 0
    for (t in a) { for (j = ++n; j > 1 && k[j - 1] > t; j--) k[j] = k[j - 1]; k[j] = t }
    return n
}
function csv(   line, nxt, n, i, c, f, len, q) {
    line = $0; LINE0 = FNR; REC++
    if (FNR == 1) sub(/^\357\273\277/, "", line)
    if (index(line, "\"") == 0) { RAW = $0; n = split(line, F, ","); sub(/\r$/, "", F[n]); return n }
    while (gsub(/"/, "\"", line) % 2 == 1 && (getline nxt) > 0) line = line "\n" nxt
    RAW = line
    sub(/\r$/, "", line)
    n = 0; f = ""; q = 0; len = length(line)
    for (i = 1; i <= len; i++) {
        c = substr(line, i, 1)
        if (q) { if (c != "\"") f = f c; else if (substr(line, i + 1, 1) == "\"") { f = f c; i++ } else q = 0 }
        else if (c == "\"") q = 1
        else if (c == ",") { F[++n] = f; f = "" }
        else f = f c
    }
    F[++n] = f
    return n
}'
if [ -n "$prior_weight" ] && ! awk -v w="$prior_weight" 'BEGIN { exit !(w ~ /^([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/ && w + 0 > 0) }'; then
    echo "nightly-plan: PRIOR_WEIGHT is a number above 0 (skyfit --prior-weight), not '$prior_weight'" >&2; exit 64
fi

# die STATUS MESSAGE: the night fails with STATUS (see "Exit status" above)
die() { local rc=$1; shift; echo "nightly-plan: $*" >&2; exit "$rc"; }
# test hooks: fail or kill -9 this run at a named step
step() {
    [ "${SLOKIT_NIGHTLY_FAIL_AT:-}" = "$1" ] && die 1 "step $1 failed (SLOKIT_NIGHTLY_FAIL_AT); last night's state is unchanged"
    [ "${SLOKIT_NIGHTLY_KILL_AT:-}" = "$1" ] && kill -9 $$
    return 0
}
# tel_file NAME [required]: sets REPLY to the telemetry file NAME.csv,
# NAME.csv.gz or NAME.csv.zst (exports are often compressed; the tools read
# gzip and zstd themselves), or to "" when there is none (exit 66 when it is
# required); two of them are one too many
tel_file() {
    local f
    REPLY=""
    for f in "$tel/$1.csv" "$tel/$1.csv.gz" "$tel/$1.csv.zst"; do
        [ -e "$f" ] || continue
        [ -z "$REPLY" ] || die 64 "$REPLY and $f: two exports of $1.csv in one dump; keep one"
        REPLY=$f
    done
    [ -z "${2:-}" ] && return 0
    [ -n "$REPLY" ] || die 66 "$tel/$1.csv: missing (nor $1.csv.gz or $1.csv.zst; see the header of this script)"
    [ -r "$REPLY" ] || die 66 "$REPLY: not readable"
}
# magic FILE: its first 4 bytes in hex, which tell gzip (1f8b...) and zstd
# (28b52ffd) as the tools tell a compressed input
magic() { head -c 4 -- "$1" | od -An -tx1 | tr -d ' \n'; }
# unz FILE: its bytes, decompressed when it is gzip or zstd
unz() {
    case $(magic "$1") in
    1f8b*) gzip -dc -- "$1" ;;
    28b52ffd) zstd -dcq -- "$1" ;;
    *) cat -- "$1" ;;
    esac
}
tel_file runs required; runs_f=$REPLY
tel_file usage required; usage_f=$REPLY
tel_file capacity; capacity_f=$REPLY
tel_file adhoc; adhoc_f=$REPLY
tel_file adhoc-skyline; adhoc_sky_f=$REPLY
[ "$(magic "$runs_f")" != 28b52ffd ] || command -v zstd >/dev/null ||
    die 1 "$runs_f: zstd-compressed, and this job reads its submit times itself: it needs the zstd command (apt-get install zstd)"
ex_tools nightly-plan "$root" sloinfer skyfit lcmpack skyplot

mkdir -p "$state"
# a state this user cannot change: name the first directory and the fix, not
# a bare shell error.  A read-only mount (touch fails with EROFS: no chown or
# chmod helps), a directory of this user without write permission (chmod),
# or another user's (a night run by hand as root, then cron as the service
# user: run as the owner, or chown).
me=$(id -un)
while IFS= read -r -d '' d; do
    why=$(touch "$d/.nightly-probe" 2>&1) && { rm -f "$d/.nightly-probe"; continue; }
    owner=$(stat -c %U "$d")
    case $why in
    *"Read-only file system"*)
        die 1 "$d: read-only file system: the nightly job writes its state there (remount it read-write, or give another STATE_DIR)" ;;
    *"Permission denied"*)
        [ "$owner" = "$me" ] && die 1 "$d: no write permission for $me (its owner): chmod -R u+w $state"
        die 1 "$d: not writable by $me (owner $owner): run the nightly job as the state's owner, or chown -R $me $state" ;;
    *)  die 1 "$d: cannot create a file in it: ${why##*: }" ;;
    esac
done < <(find "$state" -maxdepth 2 -type d ! -writable -print0 2>/dev/null || true)
# another user's lock file (0644) is opened for reading: flock needs no more
{ exec 9>>"$state/.lock"; } 2>/dev/null || exec 9<"$state/.lock"
if ! flock -w "$lock_wait" 9; then
    echo "nightly-plan: $state is locked by another run (waited ${lock_wait}s; LOCK_WAIT=N to wait longer)" >&2
    exit 75
fi

# Recover from a run that died (kill -9, power loss): its scratch directory
# and any generation `current` does not point at are debris.
cur=$(readlink "$state/current" 2>/dev/null || true)
for d in "$state"/.tonight.* "$state"/gen.*; do
    [ -e "$d" ] || continue
    [ "$(basename "$d")" = "$cur" ] && continue
    rm -rf "$d"
done
rm -f "$state/current.new"
last=""
[ -n "$cur" ] && [ -r "$state/$cur/plan.csv" ] && last="$state/$cur"
# POST_ACK=1: the plan the RM holds.  Last night's plan when its delta was
# POSTed (yarn/posted) or empty; otherwise the plan that delta started from.
# has_delta DIR: DIR/yarn holds a YARN delta with a body in it
has_delta() { [ -s "$1/yarn/submit.jsonl" ] || [ -s "$1/yarn/update.jsonl" ] || [ -s "$1/yarn/delete.jsonl" ]; }
rm_plan="" rm_note=""
if [ "$post_ack" = 1 ] && [ -n "$last" ]; then
    rm_plan="$last/plan.csv"
    if [ ! -e "$last/yarn/posted" ] && [ -r "$last/rm-plan.csv" ] && has_delta "$last"; then
        rm_plan="$last/rm-plan.csv"
        rm_note="last night's delta is not marked POSTed ($state/yarn/posted): tonight's delta also carries it"
    fi
fi

# From here on every failure passes its status through: a slokit tool's own
# (65 bad data, 74 a write error, ...: slokit(7)), and a failing command of
# the job itself (mktemp, cp, ln, the awk or echo that writes rejects.csv or
# the report: status 1 or 2) is one of its writes into the state, 74 as the
# tools say a full disk (the command has named the file and the cause).
trap 'rc=$?; case $rc in 1|2) echo "nightly-plan: a write failed (exit $rc: a full disk?): exit 74" >&2; rc=74 ;; esac; exit "$rc"' ERR
set -E
work=$(mktemp -d "$state/.tonight.XXXXXX")

cap_opt=(--capacity "$capacity")
[ -z "$capacity_f" ] || cap_opt=(--capacity-file "$capacity_f")

# 1. SLOs and skylines from the dump.
step slo
# A bad row of a month's dump (a duplicate, a garbled number) is skipped and
# listed in rejects.csv rather than costing the whole night (ON_ERROR=skip).
err_opt() { [ "$on_error" = skip ] && printf '%s\n' --on-error skip --rejects "$work/rejects-$1.csv" || true; }
mapfile -t e_slo < <(err_opt sloinfer)
mapfile -t e_sky < <(err_opt skyfit)
sloinfer -q "${e_slo[@]}" "$runs_f" -o "$work/slo.csv"
step skyfit
# With PRIOR_WEIGHT=W (off by default), last night's skylines are the fit's
# prior: a step keeps last night's value unless moving it gains more than
# W x alpha per container (skyfit(1) --prior): steadier skylines for a
# somewhat worse fit (docs/skyfit.md, "A prior"; W=0.5: objective +1.3-2.9%,
# final debt +15-77%).  A prior skyfit cannot read (a damaged state) is dropped with
# a warning, not the night.
prior_opt=()
[ -n "$prior_weight" ] && [ -n "$last" ] && [ -r "$last/skyline.csv" ] && prior_opt=(--prior "$last/skyline.csv" --prior-weight "$prior_weight")
fit() { skyfit -q "${e_sky[@]}" "$@" --runs "$runs_f" "$usage_f" --window 30d --stats "$work/skyfit-stats.csv" -o "$work/skyline.csv"; }
prior_note="" fit_rc=0
[ ${#prior_opt[@]} -eq 0 ] || fit "${prior_opt[@]}" 2>"$work/skyfit.err" || fit_rc=$?
if [ "$fit_rc" != 0 ]; then
    # only an error in the prior itself is forgiven; any other stops the night
    grep -qF "skyfit: $last/skyline.csv" "$work/skyfit.err" || { cat "$work/skyfit.err" >&2; die "$fit_rc" "skyfit failed (exit $fit_rc); last night's plan is unchanged"; }
    prior_note="last night's skylines are not a usable prior ($(head -n 1 "$work/skyfit.err")): fitted without them"
    echo "nightly-plan: warning: $prior_note" >&2
    prior_opt=()
fi
[ ${#prior_opt[@]} -gt 0 ] || fit
rm -f "$work/skyfit.err"

# 2. The plan for the coming day, from the end of the dump (the midnight
#    after its last submit): last night's reservations stay unless their job
#    changed substantially or left.  The end is read from the rows sloinfer
#    used (not the lines of rejects-sloinfer.csv), as sloinfer reads times:
#    epoch seconds or ISO 8601, quoted or not; a garbled or millisecond
#    submit (sloinfer skips it) must not move the plan to 1970 or 2500.
#    Nor may a submit after now (a host whose clock runs ahead): it would
#    date the plan days ahead, place today's ad-hoc requests after their
#    deadlines, and every later night's dump would end "before last
#    night's plan".  Such rows are left out of the date and counted in
#    the report (sloinfer still reads them).
ynow=${now_arg:-$(date +%s)}
rj="$work/rejects-sloinfer.csv"; [ -r "$rj" ] || rj=/dev/null
at_out=$(runs="$runs_f" rejects="$rj" now="$ynow" awk "$csv_awk"'
    BEGIN { runs = ENVIRON["runs"]; rj = ENVIRON["rejects"]; now = ENVIRON["now"] + 0 }   # (not -v, which reads backslashes as escapes)
    function civil(y, m, d) { y -= m <= 2; era = int(y / 400); yoe = y - era * 400   # days since 1970-01-01
        doy = int((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1
        return era * 146097 + yoe * 365 + int(yoe / 4) - int(yoe / 100) + doy - 719468 }
    function field(v) { gsub(/^[ \t]+|[ \t]+$/, "", v); return v }
    { n = csv() }
    FILENAME == rj { if (LINE0 > 1 && F[1] == runs) bad[F[2] + 0] = 1
                       next }
    LINE0 == 1 { for (i = 1; i <= n; i++) if (field(F[i]) == "submit") c = i; next }
    !c || (LINE0 in bad) { next }
    { v = field(F[c]); t = -1
      if (v ~ /^[0-9]+(\.[0-9]*)?$/) t = v + 0
      else if (v ~ /^[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]([T ][0-9][0-9]:[0-9][0-9].*)?$/) {
          t = civil(substr(v, 1, 4) + 0, substr(v, 6, 2) + 0, substr(v, 9, 2) + 0) * 86400
          if (length(v) >= 16) t += substr(v, 12, 2) * 3600 + substr(v, 15, 2) * 60
          if (substr(v, 17, 1) == ":") t += substr(v, 18, 2)
          if (match(v, /[+-][0-9][0-9]:?[0-9][0-9]$/) && RSTART > 16) {
              o = substr(v, RSTART + 1); sub(/:/, "", o)
              t -= (substr(v, RSTART, 1) == "-" ? -1 : 1) * (substr(o, 1, 2) * 3600 + substr(o, 3, 2) * 60) } }
      if (t > now && t < 1e11) { late++; if (t > lmax) lmax = t; next }
      if (t >= 0 && t < 1e11 && t > m) m = t }
    END { a = "-"; if (m > 0) a = sprintf("%d", (int(m / 86400) + 1) * 86400); printf "%s %d %d\n", a, late, lmax }' \
    "$rj" <(unz "$runs_f") || true)
read -r at late late_max <<<"$at_out"
late_note=""
[ "${late:-0}" -eq 0 ] ||
    late_note="$late run(s) in $(basename "$runs_f") submitted after now ($(date -u -d "@$ynow" +%Y-%m-%dT%H:%M:%SZ)), the latest at $(date -u -d "@${late_max%.*}" +%Y-%m-%dT%H:%M:%SZ): left out of the plan's date (a clock running ahead?)"
[ "${at:--}" != - ] || die 65 "$runs_f: no usable submit time (epoch seconds or ISO 8601)${late_note:+ before now; $late_note}: cannot tell where the dump ends"
# A dump that ends before last night's plan began (an export cut short: a
# time-ordered runs.csv truncated) plans a day already planned: it would
# delete the coming one-off reservations and submit instances whose
# deadlines have passed.  Last night's plan date is the "plan from" of its
# report; ALLOW_EARLIER=1 plans such a dump all the same (a replay).
last_at=""
if [ -n "$last" ] && [ -r "$last/report.txt" ]; then
    last_at=$(sed -n '/, plan from [0-9]\{4\}-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z$/ { s/.*, plan from //p; q }' "$last/report.txt")
    [ -z "$last_at" ] || last_at=$(date -u -d "$last_at" +%s 2>/dev/null || true)
fi
earlier_note=""
if [ -n "$last_at" ] && [ "$at" -lt "$last_at" ]; then
    earlier_note="tonight's dump ends $(date -u -d "@$((at - 1))" +%F), before last night's plan from $(date -u -d "@$last_at" +%F)"
    [ "$allow_earlier" = 1 ] ||
        die 65 "$earlier_note: a dump cut short? last night's plan is kept (ALLOW_EARLIER=1 plans from $(date -u -d "@$at" +%F) all the same)"
    earlier_note="$earlier_note: planned from $(date -u -d "@$at" +%F) all the same (ALLOW_EARLIER=1)"
fi
# (skyfit --runs reads runs.csv too: a bad row both skip is listed once)
{ echo "file,line,reason"; for f in "$work"/rejects-*.csv; do [ ! -r "$f" ] || tail -n +2 "$f"; done |
    awk "$csv_awk"'{ csv() } !seen[F[1] "\n" F[2]]++ { print RAW }'; } > "$work/rejects.csv"
rm -f "$work"/rejects-*.csv
# The time of the run (lcmpack --now): cron at 01:30 plans the day from
# 00:00, and what lies before now has passed: ad-hoc requests and one-off
# instances under way are placed from now on, closed windows are not
# planned, and the YARN bodies are written to be POSTed now (the RM refuses
# a deadline in the past).  NOW (epoch seconds) overrides the clock; a run
# outside the planned day [at, at + 1 d) (a replay of an old dump, or
# planning ahead) takes --at.
# A dump whose day has passed (an export that stopped, or a replay) plans
# a day that is over, and its YARN bodies are dated then: the report says so.
stale_note=""
[ "$ynow" -lt $((at + 86400)) ] ||
    stale_note="the dump ends $(date -u -d "@$((at - 1))" +%F) but now is $(date -u -d "@$ynow" +%F): tonight's plan is for $(date -u -d "@$at" +%F), a day that has passed (a replay of an old dump, or has the telemetry export stopped?)"
{ [ "$ynow" -ge "$at" ] && [ "$ynow" -lt $((at + 86400)) ]; } || ynow=$at
plan_opt=()
if [ -n "$last" ]; then
    # last night's plan stays as this run reads it until tonight's is
    # published: its lock (lcmpack's, beside the file) is held from here,
    # so a hand-made add waits and lands in tonight's plan instead of in
    # a generation about to be replaced; lcmpack reads the plan through a
    # second name (a hard link here, its own lock; the index too)
    { exec 8>>"$last/plan.csv.lock"; } 2>/dev/null || exec 8<"$last/plan.csv.lock"
    flock -w 600 8 || die 75 "$last/plan.csv.lock: held by another lcmpack for 10 minutes (a hand-made add that hangs?); last night's plan is unchanged"
    ln "$last/plan.csv" "$work/last-plan.csv" 2>/dev/null || cp "$last/plan.csv" "$work/last-plan.csv"
    [ ! -r "$last/plan.csv.idx" ] || ln "$last/plan.csv.idx" "$work/last-plan.csv.idx" 2>/dev/null || true
    plan_opt=(--plan "$work/last-plan.csv")
fi
[ -n "$rm_plan" ] && plan_opt+=(--yarn-base "$rm_plan")
[ -z "$adhoc_f" ] || plan_opt+=(--adhoc "$adhoc_f")
[ -z "$adhoc_f" ] || [ -z "$adhoc_sky_f" ] || plan_opt+=(--adhoc-skyline "$adhoc_sky_f")
step lcmpack
# The whole night's batch is known here, so --improve polishes tonight's new
# and moved placements (kept reservations never move).
# Its summary is kept in memory, not in a file: on a full disk its error
# message must still reach the log.
# A bad row of adhoc.csv (a garbled number, a job's second request in a
# day) is skipped and listed in rejects.csv too, not the whole night's plan.
mapfile -t e_lcm < <(err_opt lcmpack)
lcmlog=$(lcmpack "${plan_opt[@]}" "${e_lcm[@]}" --stable "$stable" --improve 5 --slo "$work/slo.csv" "${cap_opt[@]}" \
    "$work/skyline.csv" --at "$at" --horizon "$horizon" --load "$work/load.csv" --report "$work/decisions.csv" \
    --yarn-delta "$work/yarn" "${yarn_opt[@]}" --now "$ynow" -o "$work/plan.csv" 2>&1 >/dev/null) || {
    rc=$?; printf '%s\n' "$lcmlog" >&2; die "$rc" "lcmpack failed (exit $rc); last night's plan is unchanged"; }
if [ -r "$work/rejects-lcmpack.csv" ]; then
    tail -n +2 "$work/rejects-lcmpack.csv" >> "$work/rejects.csv"
    rm -f "$work/rejects-lcmpack.csv"
fi
rm -f "$work/last-plan.csv" "$work/last-plan.csv.idx" "$work/last-plan.csv.lock"

# POST_ACK=1: the plan the RM holds once tonight's delta is in is tonight's
# (yarn/posted); until then, the one it was computed against (a link: no copy).
if [ "$post_ack" = 1 ]; then
    if [ -n "$rm_plan" ]; then
        ln "$rm_plan" "$work/rm-plan.csv" 2>/dev/null || cp "$rm_plan" "$work/rm-plan.csv"
    else  # the first night: the RM holds nothing of ours, an empty plan
        lcmpack -q --slo <(echo job,period,a,d) "${cap_opt[@]}" <(echo job,step,offset,alloc) --at "$at" \
            -o "$work/rm-plan.csv"
    fi
fi

# 3. Every reservation as a YARN body (the delta is in yarn/).
step yarn
lcmpack -q --plan "$work/plan.csv" "${cap_opt[@]}" --format yarn "${yarn_opt[@]}" --at "$at" --now "$ynow" -o "$work/yarn.jsonl"

# 4. The picture (none for a plan with no reservations: nothing to draw, and
#    the night must still publish its plan and the deletes of its delta).
step plot
picture="$state/plan.svg"
if awk "$csv_awk"'{ csv() } REC > 1 && F[3] != "end" { found = 1; exit } END { exit !found }' "$work/plan.csv"; then
    skyplot -q plan "$work/plan.csv" --load "$work/load.csv" --title "reservation plan" -o "$work/plan.svg"
else
    picture="none (the plan has no reservations)"
fi

# 5. The report.
step report
# (a status is counted by its leading word: a kept row with a reason, or a
# kept status with a qualifier, is kept)
count() { awk -v s="$1" "$csv_awk"'{ csv() } REC > 1 && status(F[4]) == s { n++ } END { print n + 0 }' "$work/decisions.csv"; }
# list STATUS HEAD MID TAIL LABEL: the first $report_list decisions with STATUS,
# each as HEAD job[ instance N]MID reason TAIL, then "... and N more LABEL"
list() {
    awk -v s="$1" -v h="$2" -v m="$3" -v t="$4" -v l="$5" -v k="$report_list" "$csv_awk"'
        { csv() }
        REC > 1 && status(F[4]) == s && ++n <= k { print h show(F[1]) (F[3] != "" ? " instance " F[3] : "") m show(F[9]) t }
        END { if (n > k) printf "  ... and %d more %s (decisions.csv)\n", n - k, l }' "$work/decisions.csv"
}
{
    echo "slokit nightly plan — $(date -u +%Y-%m-%dT%H:%M:%SZ), telemetry $tel, plan from $(date -u -d "@$at" +%Y-%m-%dT%H:%M:%SZ)"
    awk "$csv_awk"'{ csv() } REC > 1 { n++; s[F[8]]++ } END { printf "SLOs:      %d jobs, %d actionable", n, s["actionable"];
             m = sorted(s, K); for (i = 1; i <= m; i++) if (K[i] != "actionable") printf ", %d %s", s[K[i]], show(K[i]); print "" }' "$work/slo.csv"
    awk "$csv_awk"'{ nf = csv() } REC == 1 { for (i = 1; i <= nf; i++) c[F[i]] = i; next } { n++; s[F[c["status"]]]++ }
             END { printf "skylines:  %d jobs", n; m = sorted(s, K); for (i = 1; i <= m; i++) printf ", %d %s", s[K[i]], show(K[i]); print "" }' "$work/skyfit-stats.csv"
    awk "$csv_awk"'{ nf = csv() } REC == 1 { for (i = 1; i <= nf; i++) c[F[i]] = i; next } F[c["prior_cost"]] != "" { n++ }
             END { if (n) printf "           %d fitted with last night'"'"'s skyline as the prior (--prior-weight '"$prior_weight"')\n", n }' "$work/skyfit-stats.csv"
    [ -z "$stale_note" ] || echo "warning:   $stale_note"
    [ -z "$earlier_note" ] || echo "warning:   $earlier_note"
    [ -z "$late_note" ] || echo "warning:   $late_note"
    [ -z "$prior_note" ] || echo "warning:   $prior_note"
    # expired: reservations that ended since last night ("ended before ...");
    # an ad-hoc request whose deadline passed before it was ever placed
    # ("deadline before ...") left no plan: the ad-hoc line counts it
    past=$(awk "$csv_awk"'{ csv() } REC > 1 && status(F[4]) == "expired" && F[9] ~ /^deadline before/ { n++ } END { print n + 0 }' "$work/decisions.csv")
    echo "changes:   $(count kept) kept, $(count moved) moved, $(count placed) new, $(count removed) removed, $(( $(count expired) - past )) expired since last night (--stable $stable)"
    # lcmpack's own summary lines: its requests, the peak, its --stable count
    # (jobs, where changes: counts reservations), the refused placed after
    # the polish
    printf '%s\n' "$lcmlog" | awk '/^lcmpack: ([0-9]+ requests:|peak cost|--stable |--improve: .* placed after the polish)/ {
        sub(/^lcmpack: /, "plan:      "); print }'
    # lcmpack's warnings (a capacity that shrank below the reservations
    # kept from last night, ...) are the night's news: the log of this run is
    # the report, so they go there, whole
    printf '%s\n' "$lcmlog" | awk '/^lcmpack: warning: / { sub(/^lcmpack: warning: /, ""); print "warning:   " $0 }'
    # (lists are cut in awk, not by head: with pipefail a closed pipe fails the night)
    awk "$csv_awk"'{ csv() } REC > 1 && F[2] == "once" && (status(F[4]) == "placed" || status(F[4]) == "kept" || status(F[4]) == "moved") { n++; if (!(F[1] in j)) o[++m] = F[1]; j[F[1]]++ }
             END { printf "one-off:   %d instances of %d off-kilter jobs reserved over the next '"$horizon"'\n", n, m;
                   for (i = 1; i <= m && i <= k; i++) printf "  %s: %d instances\n", show(o[i]), j[o[i]];
                   if (m > k) printf "  ... and %d more off-kilter jobs (decisions.csv)\n", m - k }' k="$report_list" "$work/decisions.csv"
    awk "$csv_awk"'{ csv() } REC > 1 && F[2] == "adhoc" { s[status(F[4]) == "expired" && F[9] ~ /^deadline before/ ? "past their deadline" : status(F[4])]++; n++ }
             END { if (n) { printf "ad-hoc:    %d requests:", n;
             m = sorted(s, K); for (i = 1; i <= m; i++) printf " %d %s", s[K[i]], K[i]; print "" } }' "$work/decisions.csv"
    list moved "  moved: " " (" ")" moved
    # a job with its SLO but no skyline keeps last night's reservations (a
    # usage export cut short must not free them): said, since it is news
    awk "$csv_awk"'{ csv() } REC > 1 && status(F[4]) == "kept" && F[9] ~ /no skyline tonight, its SLO is still a request/ && !(F[1] in j) { j[F[1]]; n++ }
             END { if (n) printf "warning:   %d jobs have their SLO but no skyline tonight: last night'"'"'s reservations kept (is usage.csv complete?)\n", n }' \
        "$work/decisions.csv"
    awk "$csv_awk"'{ csv() } REC > 1 { n++; if (!(F[1] in f)) o[++m] = F[1]; f[F[1]]++ }
             END { if (n) { printf "bad rows:  %d skipped (", n; for (i = 1; i <= m; i++) printf "%s%s: %d", (i > 1 ? ", " : ""), show(o[i]), f[o[i]];
                   print "); each with its reason in rejects.csv" } }' "$work/rejects.csv"
    n=$(count rejected)
    [ "$n" -gt 0 ] && echo "refused:   $n requests (reasons in decisions.csv)"
    list rejected "  " ": " "" refused
    # (the state path is printed by printf, never put into a sed program)
    printf '%s\n' "$lcmlog" | awk '/^lcmpack: YARN delta in / { sub(/^lcmpack: YARN delta in [^:]*:/, "yarn:      delta"); print }' |
        while IFS= read -r l; do printf '%s in %s/yarn/\n' "$l" "$state"; done
    [ -z "$rm_note" ] || echo "yarn:      $rm_note"
    [ "$post_ack" = 0 ] || ! has_delta "$work" || echo "yarn:      POST it, then touch $state/yarn/posted (POST_ACK=1)"
    echo "yarn:      $(wc -l < "$work/yarn.jsonl") reservation bodies in $state/yarn.jsonl"
    echo "picture:   $picture"
} > "$work/report.txt"

# 6. Publish: the scratch directory becomes generation gen.N and one rename
#    of the `current` link switches every file at once.
step publish
n=1
[ -n "$cur" ] && n=$(( ${cur#gen.} + 1 ))
chmod 755 "$work"
mv "$work" "$state/gen.$n"
step switch
ln -s "gen.$n" "$state/current.new"
mv -T "$state/current.new" "$state/current"
work=""
# a link only to a file tonight has (rm-plan.csv is there only with
# POST_ACK=1, plan.svg not on a night with an empty plan): a dangling link
# breaks a backup (cp -rL) and tells nothing
for f in plan.csv slo.csv skyline.csv skyfit-stats.csv decisions.csv load.csv yarn.jsonl yarn plan.svg rejects.csv report.txt \
    rm-plan.csv; do
    if [ -e "$state/current/$f" ]; then
        [ -L "$state/$f" ] || { rm -rf "$state/$f"; ln -s "current/$f" "$state/$f"; }
    elif [ -L "$state/$f" ] || [ -e "$state/$f" ]; then
        rm -rf "$state/$f"
    fi
done
step cleanup
[ -n "$cur" ] && rm -rf "$state/$cur"
sync -f "$state/current" 2>/dev/null || true
cat "$state/report.txt"

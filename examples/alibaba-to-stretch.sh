#!/bin/sh
# alibaba-to-stretch.sh — turn Alibaba cluster-trace-v2017 batch_task.csv
# (task_create_time, task_end_time, job_id, task_id, number_of_instances,
# status, cpus, memory; CRLF; with or without the header row) into stretch(1)'s
# inputs OUTDIR/vcs.csv and OUTDIR/jobs.csv.
#
#   examples/alibaba-to-stretch.sh [-n VCS] [-l LOAD] [-p] [batch_task.csv [OUTDIR]]
#
# Defaults: ../shared/data/alibaba-v2017/batch_task.csv beside the repository,
# OUTDIR = out/alibaba (created).  (The Alibaba GPU 2023 pods are read by
# traceconv alibaba-gpu; see traceconv(1).)
#
# Mapping (the trace has no users; a "job" of stretch is one Alibaba task):
#   rows kept           = status Terminated with task_end_time > task_create_time
#                         and number_of_instances > 0 (Waiting/Running/Failed
#                         tasks have no complete duration)
#   job                 = job_id "." task_id
#   submit              = task_create_time, seconds from the trace start (may be
#                         negative: the trace starts mid-flight)
#   size_server_hours   = number_of_instances x (end - create) / 3600: each
#                         instance holds one server slot for the task's
#                         duration (an upper bound: instances may start late)
#   vc                  = "ali" (job_id mod VCS) (default 6): all tasks of an
#                         Alibaba job land in the same VC
#   capacity            = the VC's work / (LOAD x horizon), rounded, at least 1
#                         (LOAD default 0.8; horizon = submit span rounded up to
#                         whole hours; pass it to stretch
#                         as --horizon (the script prints the command))
#   max_parallelism     = empty (fully malleable); with -p, number_of_instances
#   row order           = by submit (stable), as stretch reads its jobs
set -eu
repo=$(cd "$(dirname "$0")/.." && pwd)
. "$repo/examples/common.sh"
ex_help "$0" "${1-}"
vcs=6 load=0.8 par=0
while getopts :hn:l:p o; do
    case $o in
    n) vcs=$OPTARG ;; l) load=$OPTARG ;; p) par=1 ;;
    h) ex_usage "$0"; exit 0 ;;
    *) ex_badopt alibaba-to-stretch "$o" "$OPTARG" "$OPTIND" "$@" ;;
    esac
done
shift $((OPTIND - 1))
ex_args alibaba-to-stretch "$0" 2 "$@"
ex_whole alibaba-to-stretch "VCS (-n)" "$vcs"
ex_number alibaba-to-stretch "LOAD (-l)" "$load"
in=${1:-$repo/../shared/data/alibaba-v2017/batch_task.csv}
out=${2:-out/alibaba}
mkdir -p "$out"
ALI_JOBS=$out/jobs.csv awk -F, -v tool=alibaba-to-stretch -v vcs="$vcs" -v lf="$load" -v par="$par" -v out="$out" '
function fail(m) { printf "alibaba-to-stretch: %s:%d: %s\n", FILENAME, FNR, m > "/dev/stderr"; bad = 1; exit 65 }
{ sub(/\r$/, "") }
FNR == 1 && $1 ~ /task_create_time/ { next }
NF != 8 { fail("expected 8 comma-separated fields, found " NF) }
$6 != "Terminated" { next }
$1 !~ /^-?[0-9]+$/ || $2 !~ /^-?[0-9]+$/ || $3 !~ /^[0-9]+$/ || $5 !~ /^[0-9]+$/ { fail("not a batch_task row") }
$2 + 0 <= $1 + 0 || $5 + 0 <= 0 { next }
{
    n++
    vc = "ali" ($3 % vcs)
    size = $5 * ($2 - $1) / 3600
    job[n] = $3 "." $4; jvc[n] = vc; sub_t[n] = $1 + 0; jsize[n] = size; jpar[n] = par ? $5 : ""
    work[vc] += size * 3600
    if (n == 1 || $1 + 0 < t0) t0 = $1 + 0
    if (n == 1 || $1 + 0 > t1) t1 = $1 + 0
}
END {
    if (bad) exit 65
    if (n == 0) { print "alibaba-to-stretch: " FILENAME ": no terminated tasks" > "/dev/stderr"; exit 65 }
    hours = int((t1 - t0) / 3600); if (hours * 3600 < t1 - t0) hours++; if (hours < 1) hours = 1
    h = hours * 3600
    printf "%s: %d jobs; run: stretch --horizon %ds %s/vcs.csv %s/jobs.csv\n", tool, (tool ~ /swim/ ? NR : n), h, out, out > "/dev/stderr"
    print "vc,capacity" > (out "/vcs.csv")
    for (i = 0; i < vcs; i++) {
        vc = "ali" i
        if (!(vc in work)) continue
        c = int(work[vc] / (lf * h) + 0.5); if (c < 1) c = 1
        print vc "," c > (out "/vcs.csv")
    }
    print "job,vc,submit,size_server_hours,max_parallelism" > (out "/jobs.csv")
    close(out "/jobs.csv")
    # sorted by submit (stable): stretch reads its jobs as it simulates
    sorter = "LC_ALL=C sort -s -t, -k3,3n >> \"$ALI_JOBS\""
    for (i = 1; i <= n; i++)
        printf "%s,%s,%s,%.9g,%s\n", job[i], jvc[i], sub_t[i], jsize[i], jpar[i] | sorter
    close(sorter)
}' "$in"

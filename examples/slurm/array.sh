#!/bin/bash
# examples/slurm/array.sh — run a per-key slokit tool as a Slurm job array:
# shard the input by key, one array task per shard, merge the outputs in the
# order one process writes them (sorted keys for sloinfer and for a tool
# given -s); fail if any task failed.
#
#   examples/slurm/array.sh [OPTIONS] TOOL [TOOL-ARGS...]
#     -i FILE     input (default: standard input)
#     -o FILE     output (default: standard output); replaced only on success
#     -n N        shards = array tasks (default 4; at most MaxArraySize)
#     -k KEY      key column (default: job for sloinfer and skyfit, task for
#                 peakgate, tenant for tenantclass --features-only)
#     -w DIR      work directory on a file system every node mounts at the
#                 same path (default: a new ./slokit-array.XXXXXX, removed on
#                 success and when the split fails; kept when a task fails,
#                 for the logs)
#     -p PART     Slurm partition (default: the cluster's default)
#     -m M        at most M tasks running at once (--array=0-N%M)
#     -s OPTS     more sbatch options, e.g. -s '--time=30 --mem=4G' (not
#                 --clusters/-M: the array runs on this cluster)
#     -t SECS     give up (scancel) after SECS (default 0: wait as long as it takes)
#     -P SECS     poll squeue every SECS (default 2; sbatch --wait polls at
#                 2, 8, 32 s and loses most of a short job)
#
#   examples/slurm/array.sh -i usage.csv -o skylines.csv -n 16 -p batch skyfit
#   examples/slurm/array.sh -i runs.csv -n 8 sloinfer > slo.csv
#   examples/slurm/array.sh -i mem.csv -n 8 peakgate > profiles.csv
#   examples/slurm/array.sh -i util.csv -n 8 tenantclass --features-only > f.csv
#
# The tools must be installed at the same path on every node (resolved here
# with command -v); sbatch exports this environment (PATH included) to the
# tasks.  Exit status: 0, or the first failed task's status (1 when a task
# left no status: killed, node lost, timeout), with the failed tasks and
# the ends of their logs on standard error.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
shards_name=array.sh
source "$here/../common.sh"
source "$here/../shardlib.sh"
ex_help "$0" "${1-}"
in="" out="" n=4 key="" work="" part="" maxrun="" sbopts="" timeout=0 poll=2
while getopts :hi:o:n:k:w:p:m:s:t:P: o; do
    case $o in
        i) in=$OPTARG ;; o) out=$OPTARG ;; n) n=$OPTARG ;; k) key=$OPTARG ;;
        w) work=$OPTARG ;; p) part=$OPTARG ;; m) maxrun=$OPTARG ;; s) sbopts=$OPTARG ;;
        t) timeout=$OPTARG ;; P) poll=$OPTARG ;;
        h) ex_usage "$0"; exit 0 ;;
        *) ex_badopt "$shards_name" "$o" "$OPTARG" "$OPTIND" "$@" ;;
    esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || ex_fail "$shards_name" "a TOOL to run is needed"
ex_tools "$shards_name" "$here/../.." keyshard
[ -n "$key" ] || key=$(shards_key "$1") || exit
tool=$(shards_tool "$1") || exit
sorted=$(shards_sorted "$@")
shift
command -v sbatch >/dev/null || { echo "$shards_name: sbatch not found (a Slurm client is needed)" >&2; exit 69; }
# squeue and scancel ask the local cluster: an array sent to another one
# would look gone at once ("Invalid job id specified", below)
if [[ " $sbopts" =~ [[:space:]](-M|--clusters?[=[:space:]]) ]]; then
    echo "$shards_name: -s: --clusters/-M is not supported (squeue would ask this cluster); run it on the other cluster" >&2
    exit 64
fi
keep=1
[ -n "$work" ] || { work=$(mktemp -d "$PWD/slokit-array.XXXXXX") || exit 73; keep=0; }
mkdir -p "$work" && work=$(cd "$work" && pwd) || exit 73
rm -f "$work"/status-* "$work"/out-*.csv "$work"/log-*.txt

# a split that fails (no such input, a bad row) leaves nothing to keep: a
# work directory made here goes (a cron job with a wrong path piled up
# empty ones); one given with -w stays
shards_split "$in" "$key" "$n" "$work" || { rc=$?; [ $keep = 1 ] || rm -rf "$work"; exit $rc; }
# shellcheck disable=SC2086
job=$(sbatch --parsable --array="0-$((n - 1))${maxrun:+%$maxrun}" ${part:+--partition="$part"} \
    --job-name="slokit-$(basename "$tool")" --output="$work/log-%a.txt" --chdir="$work" $sbopts \
    "$here/task.sh" "$work" "$tool" "$@") || { echo "$shards_name: sbatch failed; work directory $work" >&2; exit 69; }
job=${job%%;*}

# Wait for the array to leave the queue (bounded by -t); a failing squeue
# (slurmctld busy) is retried, never taken for "done", except for "Invalid job
# id specified": squeue -j of one job id exits 1 so once slurmctld has purged
# the finished job (MinJobAge, 300 s by default), which a poll can miss after
# a suspended or slow client; the status files below still decide success.
t0=$SECONDS
while :; do
    if q=$(squeue -h -j "$job" -o %i 2>"$work/squeue.err"); then
        [ -n "$q" ] || break
    elif grep -q "Invalid job id specified" "$work/squeue.err"; then
        break
    fi
    if [ "$timeout" != 0 ] && [ $((SECONDS - t0)) -ge "$timeout" ]; then
        scancel "$job"; echo "$shards_name: job $job timed out after ${timeout}s; cancelled" >&2; exit 75
    fi
    sleep "$poll"
done
rm -f "$work/squeue.err"

rc=0
for ((i = 0; i < n; i++)); do
    s=$(cat "$work/status-$i" 2>/dev/null) || s=""
    [ "$s" = 0 ] && continue
    why="failed with exit $s"
    [ -n "$s" ] || why="left no status (killed, timed out, node lost?)"
    echo "$shards_name: task $i of job $job $why; log $work/log-$i.txt:" >&2
    tail -5 "$work/log-$i.txt" 2>/dev/null | sed 's/^/    /' >&2
    [ $rc != 0 ] || rc=${s:-1}
done
[ $rc = 0 ] || { echo "$shards_name: work directory kept: $work" >&2; exit "$rc"; }
shards_merge "$key" "$n" "$work" "$out" ${sorted:+"$sorted"} || { echo "$shards_name: merge failed; work directory $work" >&2; exit 65; }
[ $keep = 1 ] || rm -rf "$work"

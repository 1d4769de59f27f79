#!/bin/sh
# swim-to-stretch.sh — turn a SWIM Facebook-2009 workload into stretch(1)'s
# two inputs, OUTDIR/vcs.csv and OUTDIR/jobs.csv, with traceconv(1), and
# print the stretch command to run next.
#
#   examples/swim-to-stretch.sh [-n VCS] [-l LOAD] [-r BYTES_PER_S] [-p] [IN.tsv [OUTDIR]]
#
# Defaults: IN.tsv = ../shared/data/swim/FB-2009_samples_24_times_1hr_0.tsv
# beside the repository, OUTDIR = out/swim (created).  The mapping is
# traceconv's swim format (traceconv(1)): VCS teams (default 4) with
# statistically identical workloads, job N in fb(N mod VCS); size = (1 +
# bytes / RATE) / 3600 server-hours (RATE default 5e6); every VC's capacity
# gives it load LOAD (default 0.8) over the submit span rounded up to whole
# hours; -p sets max_parallelism to the map-task count (input / 128 MiB).
set -eu
repo=$(cd "$(dirname "$0")/.." && pwd)
. "$repo/examples/common.sh"
ex_help "$0" "${1-}"
vcs=4 load=0.8 rate=5e6 par=none
while getopts :hn:l:r:p o; do
    case $o in
    n) vcs=$OPTARG ;; l) load=$OPTARG ;; r) rate=$OPTARG ;; p) par=trace ;;
    h) ex_usage "$0"; exit 0 ;;
    *) ex_badopt swim-to-stretch "$o" "$OPTARG" "$OPTIND" "$@" ;;
    esac
done
shift $((OPTIND - 1))
ex_args swim-to-stretch "$0" 2 "$@"
ex_tools swim-to-stretch "$repo" traceconv
in=${1:-$repo/../shared/data/swim/FB-2009_samples_24_times_1hr_0.tsv}
out=${2:-out/swim}
mkdir -p "$out"
traceconv swim --vcs "$vcs" --load "$load" --rate "$rate" --max-parallelism "$par" \
    --capacities "$out/vcs.csv" -o "$out/jobs.csv" "$in" || {
    rc=$?; echo "swim-to-stretch: $in: not converted" >&2; exit $rc; }

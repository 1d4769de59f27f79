#!/bin/sh
# vc-fairness.sh — the VC-fairness paper's experiment (seed 002, §3-4) as it
# sets it up: six VCs (two under-, three fully, one over-utilized), 2,750
# owned + 1,250 system servers = 4,000, a month of malleable jobs, replayed
# under the instantaneous MaxMin scheduler (max-min fairness of total
# allocation, capacities as guaranteed shares) and the two history-based
# ones; then the two real traces.  Prints mean stretch per VC and the
# consistency figure per scheduler.
#
#   examples/vc-fairness.sh [DAYS [OUTDIR [SEEDS]]]   (default 30 days, a temp dir, 3 seeds)
#
# The per-VC table is seed 1's; then the consistency of every seed.
#
# The trace is synthetic (tracegen vcjobs, built like the paper's Figure 2;
# the Cosmos trace is not public).  Runs in about 10 s on 2 cores.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"
ex_args vc-fairness "$0" 3 "$@"
days=${1:-30}
seeds=${3:-3}
ex_number vc-fairness DAYS "$days"
ex_whole vc-fairness SEEDS "$seeds"
ex_tools vc-fairness "$here/.." tracegen stretch
out=${2:-$(mktemp -d)}
data=${SLOKIT_DATA:-$here/../../shared/data}
mkdir -p "$out"
tracegen vcs -o "$out/vcs.csv"
tracegen vcjobs --days "$days" -o "$out/jobs.csv"
table() { # DIR LABEL: one row per VC, a column per scheduler, then consistency
    awk -F, -v label="$2" '
        FNR == 1 { f++; next }
        FILENAME ~ /per-vc-/ { vc[$1] = 1; load[$1] = $5; m[$1, f] = $6; order[$1] = order[$1] ? order[$1] : ++nv; name[nv] = $1 }
        END {
            printf "%s\n%-8s %6s %9s %9s %9s\n", label, "vc", "load", "maxmin", "drr", "balanced"
            for (i = 1; i <= nv; i++) { v = name[i]; printf "%-8s %6.2f %9.2f %9.2f %9.2f\n", v, load[v], m[v, 1], m[v, 2], m[v, 3] }
        }' "$1/per-vc-maxmin.csv" "$1/per-vc-drr.csv" "$1/per-vc-balanced.csv"
    for s in maxmin drr balanced; do
        awk -F, -v s=$s '$1 == "consistency" { c = $2 } $1 == "utilization" { u = $2 }
            END { printf "%-8s consistency %.2fx  utilization %.1f%%\n", s, c, 100 * u }' "$1/sum-$s.csv"
    done
}
for s in maxmin drr balanced; do
    stretch -q -s $s --system-servers 1250 "$out/vcs.csv" "$out/jobs.csv" --vcs "$out/per-vc-$s.csv" \
        --summary "$out/sum-$s.csv" -o /dev/null
done
table "$out" "paper-like scenario, $days days (tracegen vcjobs, seed 1)"
seed=2
while [ $seed -le "$seeds" ]; do
    mkdir -p "$out/seed$seed"
    tracegen -q vcjobs --days "$days" --seed $seed -o "$out/seed$seed/jobs.csv"
    for p in maxmin drr balanced; do
        stretch -q -s $p --system-servers 1250 "$out/vcs.csv" "$out/seed$seed/jobs.csv" \
            --vcs "$out/seed$seed/per-vc-$p.csv" --summary "$out/seed$seed/sum-$p.csv" -o /dev/null
    done
    table "$out/seed$seed" "paper-like scenario, $days days, seed $seed"
    seed=$((seed + 1))
done
real() { # ADAPTER TRACE DIR HORIZON LABEL: one real trace through every scheduler
    [ -r "$2" ] || return 0
    "$here/$1" "$2" "$out/$3" > /dev/null 2>&1
    for s in maxmin drr balanced; do
        stretch -q -s $s --horizon "$4" "$out/$3/vcs.csv" "$out/$3/jobs.csv" --vcs "$out/$3/per-vc-$s.csv" \
            --summary "$out/$3/sum-$s.csv" -o /dev/null
    done
    table "$out/$3" "$5"
}
real swim-to-stretch.sh "$data/swim/FB-2009_samples_24_times_1hr_0.tsv" sw 86400s "SWIM Facebook 2009"
real alibaba-to-stretch.sh "$data/alibaba-v2017/batch_task.csv" al 64800s "Alibaba v2017 batch tasks"
echo "outputs in $out"

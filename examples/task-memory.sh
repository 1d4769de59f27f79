#!/bin/sh
# task-memory.sh — the wasted-resources paper's node experiment (seed 004) as
# it sets it up: normal and peak memory "measured through previous runs of
# that task", then one peak at a time on a 4,500 MB node.  Out of sample:
# each task's profile is learned from the first half of its series
# (peakgate --simulate --train 0.5) and the gate replays the second half.
# Compares normal = mean and normal = median (p50) on the paper's six tasks
# and on mixed nodes, SEEDS seeds each.
#
#   examples/task-memory.sh [DAYS [SEEDS [OUTDIR]]]   (default 1 day, 3 seeds)
#
# Traces are synthetic (tracegen taskmem; the paper's Google traces are not
# public).  About 20 s on 2 cores with the defaults.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"
ex_args task-memory "$0" 3 "$@"
days=${1:-1}
seeds=${2:-3}
ex_number task-memory DAYS "$days"
ex_whole task-memory SEEDS "$seeds"
ex_tools task-memory "$here/.." tracegen peakgate
out=${3:-$(mktemp -d)}
mkdir -p "$out"
row() { # LABEL SUMMARY: the gated k=1 row
    awk -F, -v l="$1" '$1 == "gated" && $2 == 1 {
        printf "%-34s %9.0f %9.0f %5s %9.0f %8.3f\n", l, $7, $9, $10, $13 / 60, $14 }' "$2"
}
printf '%-34s %9s %9s %5s %9s %8s\n' "node, seed, normal (k=1, out of sample)" max_mb bound_mb held over_min slowdown
s=1
while [ $s -le "$seeds" ]; do
    tracegen -q taskmem --count 6 --set paper=1 --days "$days" --seed $s -o "$out/paper$s.csv"
    tracegen -q taskmem --count 6 --days "$days" --seed $s -o "$out/mix$s.csv"
    for n in mean median; do
        peakgate -q --simulate --normal $n --train 0.5 "$out/paper$s.csv" --summary "$out/p$s-$n.csv" > /dev/null
        row "paper's 6 tasks, 4500 MB, $s, $n" "$out/p$s-$n.csv"
    done
    for n in mean median; do
        peakgate -q --simulate --normal $n --train 0.5 --node-mb 9000 "$out/mix$s.csv" --summary "$out/m$s-$n.csv" > /dev/null
        row "6 mixed tasks, 9000 MB, $s, $n" "$out/m$s-$n.csv"
    done
    s=$((s + 1))
done
echo "outputs in $out"

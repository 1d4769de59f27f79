#!/bin/sh
# jockey-models.sh — the Jockey slides' remaining-time models C(p, a)
# compared on held-back runs: the table of past runs (reprov --build-table's
# rule), Amdahl with the slides' terms (S = remaining critical path, P =
# remaining work), Amdahl with whole-run S and P (the old reading), and the
# event-based job simulator (stages, task-time distributions and failure
# rates learned from past runs, the allocation).  Recurring jobs of 4 stages
# (tracegen jobruns), 40 daily runs each at 25/50/100 tokens; the first 30
# runs learn, the last 10 are predicted at progress 0, 0.1, ..., 0.9.
#
#   examples/jockey-models.sh [SEEDS [OUTDIR [RUNS]]]  (default 3 seeds, 40 runs per job)
#
# Prints the mean relative error of each predictor per setting and seed,
# then the control loop end to end with each model (reprov --evaluate-loop).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common.sh"
ex_args jockey-models "$0" 3 "$@"
seeds=${1:-3}
runs=${3:-40}
ex_whole jockey-models SEEDS "$seeds"
ex_whole jockey-models RUNS "$runs"
ex_tools jockey-models "$here/.." tracegen reprov
out=${2:-$(mktemp -d)}
mkdir -p "$out"
printf '%-34s %4s %8s %8s %8s %8s\n' setting seed table amdahl whole sim
for setting in "default:" "no cluster noise:--set noise=0" "heavy task tails:--set sigma=1" \
               "10% failures:--set fail=0.1" "one allocation:--set allocs=50"; do
    label=${setting%%:*}
    args=${setting#*:}
    s=1
    while [ $s -le "$seeds" ]; do
        # shellcheck disable=SC2086
        tracegen -q jobruns --count "$runs" --seed $s $args -o "$out/runs.csv"
        reprov --compare-models --seed $s "$out/runs.csv" -o "$out/pred-$s.csv" 2> "$out/err.txt"
        awk -v l="$label" -v s=$s '/  table/ { t = $4 } /remaining S/ { a = $7 } /whole-run/ { w = $7 }
            /simulator/ { m = $4 } END { printf "%-34s %4d %8.3f %8.3f %8.3f %8.3f\n", l, s, t, a, w, m }' "$out/err.txt"
        s=$((s + 1))
    done
done
# The control loop end to end (the slides' "SLO met? cluster impact?"):
# each held-back run replayed with its own recorded task times under each
# model, deadline = the median training run, decisions every 60 s.
printf '\n%-13s %4s %10s %14s\n' policy seed "met %" "tokens/static"
s=1
while [ $s -le "$seeds" ]; do
    tracegen -q jobruns --count "$runs" --seed $s -o "$out/runs.csv"
    reprov --evaluate-loop --max-alloc 200 --seed $s "$out/runs.csv" -o "$out/loop-$s.csv" 2> "$out/loop-$s.txt"
    awk -v s=$s '/loop:/ { sub(/%/, "", $6); printf "%-13s %4d %10s %14s\n", $3, s, $6, $11 }' "$out/loop-$s.txt"
    s=$((s + 1))
done
echo "outputs in $out"

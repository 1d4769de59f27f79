#!/bin/bash
# bench/peakgate.sh — peakgate's two speed goals (issue 8):
#   1. profiles at the foundation's CSV speed: `peakgate` over a `tracegen
#      taskmem` file within 20% of a plain pass over the same file by the
#      foundation's csvcat test driver (read + write every field) and of
#      `csvcat --sum mem_mb` (read + parse one column);
#   2. the node simulation of 100 tasks over a simulated week at one-second
#      steps (604,800 steps, run twice: unpaced and gated) in under 5 s;
#      the reference is the same simulation with one task per step loop
#      cost measured as ns per task-step.
#
#   SLOKIT_BUILD=build-peakgate bash bench/run.sh peakgate
#   PEAKGATE_BENCH_TASKS=500   tasks in the profile input (one day at 10 s: 8,640 rows each)
#   PEAKGATE_BENCH_RUNS=3      best of N runs
set -u
. "$ROOT/bench/lib.sh"
build=${SLOKIT_BUILD:-build}
csvcat=$ROOT/$build/tests/csvcat
tasks=${PEAKGATE_BENCH_TASKS:-$(size 200 500)}
runs=${PEAKGATE_BENCH_RUNS:-3}
[ -x "$csvcat" ] || { echo "bench peakgate: no $csvcat (run make B=$build)"; exit 1; }

f=$BENCH_TMP/taskmem-seed1-count$tasks.csv
if [ ! -s "$f" ]; then
    echo "bench peakgate: generating $f"
    tracegen taskmem --seed 1 --count "$tasks" -q -o "$f" || exit 1
fi
mb=$(stat -c %s "$f" | awk '{ printf "%.1f", $1 / 1e6 }')
rows=$(($(wc -l <"$f") - 1))
echo "bench peakgate: input: $f, $mb MB, $rows rows, $tasks tasks"

t_cat=$(best "$runs" "$csvcat" "$f") || exit 1
t_sum=$(best "$runs" bash -c '"$0" --sum mem_mb "$1" 2>/dev/null' "$csvcat" "$f") || exit 1
mark
t_prof=$(best "$runs" peakgate -q "$f") || exit 1
row "profiles of $tasks tasks ($mb MB)" "$t_prof" "csvcat, a plain CSV pass" "$t_cat" "$(peak)"
t_mean=$(best "$runs" peakgate -q --normal mean "$f") || exit 1
rate=$(awk -v r="$rows" -v t="$t_prof" 'BEGIN { printf "%.1f", r / t / 1e6 }')
atmost "peakgate profiles vs a plain csvcat pass" "$(ratio "$t_prof" "$t_cat")" 1.20 "x"
echo "bench peakgate: profiles (median, the default): $t_prof s, $rate M rows/s ($(ratio "$t_prof" "$t_cat")x the time of a csvcat plain pass, $t_cat s; goal <= 1.20)"
echo "bench peakgate: profiles (median, the default): $t_prof s ($(ratio "$t_prof" "$t_sum")x the time of csvcat --sum mem_mb, $t_sum s)"
echo "bench peakgate: profiles (--normal mean): $t_mean s ($(ratio "$t_mean" "$t_cat")x the time of a csvcat plain pass, $t_cat s)"

# node simulation: 100 model tasks, one week, 1 s steps (unpaced + gated k=1)
t_week=$(best "$runs" peakgate -q --simulate --model --tasks 100 --duration 7d --node-mb 60000) || exit 1
t_week2=$(best "$runs" peakgate -q --simulate --model --tasks 100 --duration 7d --node-mb 60000 --k 1,10) || exit 1
t_one=$(best "$runs" peakgate -q --simulate --model --tasks 1 --duration 7d) || exit 1
ns=$(awk -v t="$t_week" 'BEGIN { printf "%.1f", t / (2 * 100 * 604800) * 1e9 }')
atmost "peakgate: simulate 100 tasks x 1 week (unpaced + k=1)" "$t_week" 5 " s"
echo "bench peakgate: simulate 100 tasks x 604800 s steps (unpaced + k=1): $t_week s, $ns ns per task-step ($(ratio "$t_week" 5)x of the 5 s goal)"
echo "bench peakgate: simulate 100 tasks x 604800 s steps (unpaced + k=1 + k=10): $t_week2 s ($(ratio "$t_week2" "$t_week")x the time of unpaced + k=1)"
echo "bench peakgate: simulate 1 task x 604800 s steps (unpaced + k=1): $t_one s ($(ratio "$t_week" "$t_one")x for 100x the tasks)"

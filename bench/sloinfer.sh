#!/bin/bash
# bench/sloinfer.sh — sloinfer throughput on a large `tracegen runs` file
# against plain passes over the same file: `wc -l` (reading the bytes) and
# csvcat (the lib's CSV read+write, tests/unit/csvcat.c), so the ratio says
# what the inference costs on top of parsing.  Also the provenance form
# (--events) on the matching `tracegen events` file, against the run-table form.
#
#   SLOKIT_BUILD=build bash bench/run.sh sloinfer
#   SLO_BENCH_COUNT=2000    jobs of 30 days (2000 -> ~1.1 M runs, ~90 MB)
#   SLO_BENCH_EVCOUNT=300   jobs for the events form (300 -> ~2 M events)
#   SLO_BENCH_RUNS=3        best of N
set -u
. "$ROOT/bench/lib.sh"
build=${SLOKIT_BUILD:-build}
csvcat=$ROOT/$build/tests/csvcat
count=${SLO_BENCH_COUNT:-$(size 1000 2000)}
evcount=${SLO_BENCH_EVCOUNT:-300}
runs=${SLO_BENCH_RUNS:-3}
[ -x "$csvcat" ] || { echo "bench sloinfer: no $csvcat (run make B=$build)"; exit 1; }

f=$BENCH_TMP/runs-seed1-count$count-days30.csv
if [ ! -s "$f" ]; then
    echo "bench sloinfer: generating $f"
    tracegen runs --seed 1 --count "$count" --days 30 -q -o "$f" || exit 1
fi
mb=$(stat -c %s "$f" | awk '{ printf "%.1f", $1 / 1e6 }')
rows=$(($(wc -l <"$f") - 1))
echo "bench sloinfer: input: $f, $mb MB, $rows runs of $count jobs"

mark
t_slo=$(best "$runs" sloinfer -q "$f") || exit 1
p_slo=$(peak)
t_wc=$(best "$runs" wc -l "$f") || exit 1
t_cat=$(best "$runs" "$csvcat" "$f") || exit 1
rate=$(awk -v n="$rows" -v t="$t_slo" 'BEGIN { printf "%.0f", (t > 0 ? n / t : 0) }')
row "infer SLOs from $rows runs" "$t_slo" "csvcat of the runs" "$t_cat" "$p_slo"
echo "bench sloinfer: run table: $t_slo s, $rate runs/s ($(ratio "$t_slo" "$t_wc")x the time of wc -l, $t_wc s; $(ratio "$t_slo" "$t_cat")x the time of csvcat, $t_cat s)"

# CPU time is steadier than wall time on a shared machine; memory: one job
# at a time, so the peak should not grow with the file
read -r _ cpu < <(wallcpu sloinfer -q "$f"); kb=$(tail -1 "$BENCH_TMP/.rss")
read -r _ cpu_cat < <(wallcpu "$csvcat" "$f")
echo "bench sloinfer: run table: CPU $cpu s ($(ratio "$cpu" "$cpu_cat")x the CPU of csvcat, $cpu_cat s), peak RSS $kb KB for $mb MB of input"

# the provenance form
ev=$BENCH_TMP/events-seed1-count$evcount-days30.csv
rf=$BENCH_TMP/runs-seed1-count$evcount-days30.csv
if [ ! -s "$ev" ] || [ ! -s "$rf" ]; then
    echo "bench sloinfer: generating $ev"
    tracegen runs --seed 1 --count "$evcount" --days 30 -q -o "$rf" || exit 1
    tracegen events --seed 1 --count "$evcount" --days 30 -q -o "$ev" || exit 1
fi
nev=$(($(wc -l <"$ev") - 1))
mark
t_ev=$(best "$runs" sloinfer -q --events "$ev" "$rf") || exit 1
p_ev=$(peak)
t_rf=$(best "$runs" sloinfer -q "$rf") || exit 1
t_evcat=$(best "$runs" "$csvcat" "$ev") || exit 1
evrate=$(awk -v n="$nev" -v t="$t_ev" 'BEGIN { printf "%.0f", (t > 0 ? n / t : 0) }')
row "infer SLOs from $nev events" "$t_ev" "csvcat of the events" "$t_evcat" "$p_ev"
echo "bench sloinfer: events: $nev events, $t_ev s, $evrate events/s ($(ratio "$t_ev" "$t_evcat")x the time of csvcat of the events, $t_evcat s; $(ratio "$t_ev" "$t_rf")x the time of the run-table form, $t_rf s)"
read -r _ cpu < <(wallcpu sloinfer -q --events "$ev" "$rf"); kb=$(tail -1 "$BENCH_TMP/.rss")
read -r _ cpu_cat < <(wallcpu "$csvcat" "$ev")
echo "bench sloinfer: events: CPU $cpu s ($(ratio "$cpu" "$cpu_cat")x the CPU of csvcat, $cpu_cat s), peak RSS $kb KB (files + runs, not events)"
same=$(cmp -s <(sloinfer -q --events "$ev" "$rf") <(sloinfer -q "$rf") && echo yes || echo NO)
echo "bench sloinfer: events form equals run-table form: $same"

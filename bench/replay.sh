# bench/replay.sh — replay of 30 days of 1,000 periodic jobs at one-minute
# steps (target: under 10 s), static regime with fair sharing of idle
# capacity, against reading the same usage CSV with the csvcat test driver
# and against generating it (tracegen), measured in the same run.  The
# replay's own simulation time (without reading) is taken from its summary.
. "$ROOT/bench/lib.sh"
d=$BENCH_TMP/replay
mkdir -p "$d"
build=${SLOKIT_BUILD:-build}
csvcat=$ROOT/$build/tests/csvcat
J=$(size 300 1000)
tracegen -q runs --count $J --days 30 -o "$d/runs.csv"
tgen=$(secs tracegen -q usage --count $J --days 30 --truth "$d/truth.csv" -o "$d/usage.csv")
sloinfer -q "$d/runs.csv" -o "$d/slo.csv"
rows=$(($(wc -l < "$d/usage.csv") - 1))
tcat=$(best 1 "$csvcat" "$d/usage.csv")
mark
t=$(secs replay --regime static --slo "$d/slo.csv" --provisioned "$d/truth.csv" --capacity cores=50000,mem=1e12 \
    "$d/usage.csv" -o "$d/out.csv" 2> "$d/err")
runs=$(sed -n 's/.*replaying \([0-9]*\) runs.*/\1/p' "$d/err")
sim=$(awk '/static/ && NF > 8 { print $NF }' "$d/err")
row "replay $runs runs of $J jobs, static" "$t" "csvcat of the usage" "$tcat" "$(peak)"
echo "bench replay: input: $rows usage rows, $runs runs of $J jobs over 30 days (43,200 one-minute steps)"
echo "bench replay: static: total $t s ($(ratio "$t" 10)x of the 10 s budget; $(ratio "$t" "$tcat")x the time of csvcat, $tcat s; $(ratio "$t" "$tgen")x the time of tracegen, $tgen s); simulation alone $sim s"
# all three regimes, with a plan from the pipeline (skyfit on 10 runs per job)
skyfit -q --last 10 --round "$d/usage.csv" -o "$d/sky.csv"
lcmpack -q --slo "$d/slo.csv" --capacity cores=1e9,mem=1e15 --at 1767571200 "$d/sky.csv" -o "$d/plan.csv"
t3=$(secs replay --slo "$d/slo.csv" --plan "$d/plan.csv" --provisioned "$d/truth.csv" --capacity cores=50000,mem=1e12 \
    "$d/usage.csv" -o "$d/out3.csv" 2> "$d/err3")
atmost "replay, 30 days: static, plan and plan+dra in one run" "$t3" 10 " s"
for r in static plan plan+dra; do
    s=$(awk -v r="$r" '$2 == r && NF > 8 { print $9 }' "$d/err3")
    echo "bench replay: $r: simulation $s s (in one run of all three regimes: total $t3 s, $(ratio "$t3" 10)x of the 10 s budget)"
done
[ "$BENCH_SIZE" = full ] || { echo "bench replay: headline pipeline with BENCH_SIZE=full"; exit 0; }
# the paper's headline (examples/headline.sh): 1,000 jobs, 30 days, 70/30 split
th=$(secs sh -c "cd '$d' && sh '$ROOT/examples/headline.sh' 1000 30 headline > table.txt 2> headline.err")
echo "bench replay: headline pipeline (tracegen, sloinfer, skyfit, lcmpack, 8 replays): $th s"
sed 's/^/bench replay: headline: /' "$d/table.txt"

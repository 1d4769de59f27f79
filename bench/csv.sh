#!/bin/bash
# bench/csv.sh — CSV read+write throughput of the slokit lib (csvio, through
# the csvcat test driver) against plain libcsv (bench/csvraw.c: the same
# parsing and minimal-quoting output with none of the lib's bookkeeping) and
# against Miller (`mlr --icsv --ocsv cat`), on a ~500 MB `tracegen usage` file.
#
#   SLOKIT_BUILD=build bash bench/run.sh csv
#   CSV_BENCH_COUNT=300 ...   a smaller file (jobs of 30 days; 1700 -> ~500 MB)
#   CSV_BENCH_RUNS=3          best of N runs for the lib and libcsv
#
# Goals (issue 2): the lib within 10% of raw libcsv, at least 4x Miller.
# The outputs of the lib and of csvraw are checked to be identical to the input.
set -u
. "$ROOT/bench/lib.sh"
build=${SLOKIT_BUILD:-build}
csvcat=$ROOT/$build/tests/csvcat
count=${CSV_BENCH_COUNT:-$(size 400 1700)}
runs=${CSV_BENCH_RUNS:-3}
[ -x "$csvcat" ] || { echo "bench csv: no $csvcat (run make B=$build)"; exit 1; }

f=$BENCH_TMP/usage-seed1-count$count-days30.csv
if [ ! -s "$f" ]; then
    echo "bench csv: generating $f"
    tracegen usage --seed 1 --count "$count" --days 30 -q -o "$f" || exit 1
fi
raw=$BENCH_TMP/csvraw
if [ ! -x "$raw" ] || [ "$ROOT/bench/csvraw.c" -nt "$raw" ]; then
    cc -O2 -o "$raw" "$ROOT/bench/csvraw.c" -lcsv || exit 1
fi
mb=$(stat -c %s "$f" | awk '{ printf "%.1f", $1 / 1e6 }')
rows=$(wc -l <"$f")
echo "bench csv: input: $f, $mb MB, $rows lines"

# same bytes out as in (usage has nothing to quote), for both programs
want=$(md5sum <"$f" | cut -d' ' -f1)
got_lib=$("$csvcat" "$f" | md5sum | cut -d' ' -f1)
got_raw=$("$raw" <"$f" | md5sum | cut -d' ' -f1)
[ "$got_lib" = "$want" ] || echo "bench csv: WARNING: csvcat output differs from its input"
[ "$got_raw" = "$want" ] || echo "bench csv: WARNING: csvraw output differs from its input"

mark
t_lib=$(best "$runs" "$csvcat" "$f") || exit 1
p_lib=$(peak)
t_raw=$(best "$runs" sh -c '"$1" <"$2"' _ "$raw" "$f") || exit 1
mbs() { awk -v m="$mb" -v t="$1" 'BEGIN { printf "%.1f", m / t }'; }
echo "bench csv: raw libcsv (csvraw): $(mbs "$t_raw") MB/s ($t_raw s)"
row "copy $mb MB CSV (csvcat)" "$t_lib" "raw libcsv (csvraw)" "$t_raw" "$p_lib"
echo "bench csv: lib (csvcat): $(mbs "$t_lib") MB/s ($t_lib s) ($(ratio "$t_raw" "$t_lib")x vs raw libcsv; goal >= 0.90)"
if command -v mlr >/dev/null; then
    t_mlr=$(best 1 mlr --icsv --ocsv cat "$f") || exit 1
    echo "bench csv: miller (mlr --icsv --ocsv cat): $(mbs "$t_mlr") MB/s ($t_mlr s)"
    row "copy $mb MB CSV (csvcat)" "$t_lib" "mlr --icsv --ocsv cat" "$t_mlr" "$p_lib"
    echo "bench csv: lib vs miller: $(ratio "$t_mlr" "$t_lib")x faster (goal >= 4)"
else
    echo "bench csv: miller not installed (apt-get install miller): no Miller ratio"
fi

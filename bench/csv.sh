#!/bin/bash
# bench/csv.sh — CSV throughput of the slokit lib (csvio, through the csvcat
# test driver) against references run in the same script on the same file:
#   copy       csvcat FILE           vs raw libcsv (bench/csvraw.c: the same
#                                    parsing and minimal-quoting output with
#                                    none of the lib's bookkeeping) and Miller
#                                    (mlr --icsv --ocsv cat)
#   parse+sum  csvcat --sum-only COL vs GNU datamash (datamash -t, --header-in sum N)
# on a ~500 MB `tracegen usage` file (the size issue 20's goals name; about
# 40 s in all on an idle machine).
#
#   SLOKIT_BUILD=build bash bench/run.sh csv
#   CSV_BENCH_COUNT=400 ...   a smaller file (jobs of 30 days; 1700 -> ~500 MB)
#   CSV_BENCH_RUNS=3          best of N runs (Miller: 1)
#
# Each line gives wall-clock seconds (best of N) and CPU seconds (user+sys of
# that run): on a loaded machine the wall clock measures the load, the CPU
# time the program, so ratios are given for both.  The machine's load average
# is printed first.
# Goals (issue 20): copy >= 400 MB/s; parse+sum at least as fast as datamash.
# Outputs are checked: the copies byte-identical to the input, the sums equal.
set -u
. "$ROOT/bench/lib.sh"
build=${SLOKIT_BUILD:-build}
csvcat=$ROOT/$build/tests/csvcat
count=${CSV_BENCH_COUNT:-1700}
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
echo "bench csv: input: $f, $mb MB, $rows lines; load average: $(cut -d' ' -f1-3 /proc/loadavg)"

# run N CMD...: best of N runs of CMD (stdin from $f when the command is
# given as `sh -c`), printed as "WALL CPU PEAK" (seconds; CPU = user + sys
# of the best run; PEAK its maximum RSS in MB).
run() {
    local n=$1 bw="" bc="" bm="" w m u s
    shift
    for _ in $(seq "$n"); do
        timeit_run "$@" || return 1
        read -r w m _ u s <"$BENCH_TMP/.time"
        if [ -z "$bw" ] || awk -v a="$w" -v b="$bw" 'BEGIN { exit !(a < b) }'; then
            bw=$w
            bc=$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.2f", u + s }')
            bm=$(awk -v m="$m" 'BEGIN { printf "%.0f", m / 1024 }')
        fi
    done
    echo "$bw $bc $bm"
}
mbs() { awk -v m="$mb" -v t="$1" 'BEGIN { if (t > 0) printf "%.0f", m / t; else print "inf" }'; }
line() { # NAME WALL CPU: one result line
    echo "bench csv: $1: $(mbs "$2") MB/s wall ($2 s), $(mbs "$3") MB/s cpu ($3 s)"
}

# copy: same bytes out as in (usage has nothing to quote)
want=$(md5sum <"$f" | cut -d' ' -f1)
[ "$("$csvcat" "$f" | md5sum | cut -d' ' -f1)" = "$want" ] || echo "bench csv: WARNING: csvcat output differs from its input"
[ "$("$raw" <"$f" | md5sum | cut -d' ' -f1)" = "$want" ] || echo "bench csv: WARNING: csvraw output differs from its input"
read -r lw lc lm < <(run "$runs" "$csvcat" "$f") || exit 1
read -r rw rc _ < <(run "$runs" sh -c '"$1" <"$2"' _ "$raw" "$f") || exit 1
line "copy, lib (csvcat)" "$lw" "$lc"
line "copy, raw libcsv (csvraw)" "$rw" "$rc"
row "copy $mb MB CSV (csvcat, cpu)" "$lc" "raw libcsv (csvraw)" "$rc" "$lm"
echo "bench csv: copy: lib vs raw libcsv: $(ratio "$rw" "$lw")x wall, $(ratio "$rc" "$lc")x cpu (goal: lib >= 400 MB/s)"
met() { awk -v a="$1" -v b="$2" 'BEGIN { sub(/^>/, "", a); a += 0; if (a >= b) print "yes"; else printf "no (%.2fx of it)\n", a / b }'; }
goal "CSV copy of $mb MB, cpu (issue 20)" ">= 400 MB/s" "$(mbs "$lc") MB/s" "$(met "$(mbs "$lc")" 400)"
goal "CSV copy of $mb MB, wall clock (issue 20)" ">= 400 MB/s" "$(mbs "$lw") MB/s" "$(met "$(mbs "$lw")" 400)"
if command -v mlr >/dev/null; then
    read -r mw mc _ < <(run 1 mlr --icsv --ocsv cat "$f") || exit 1
    line "copy, miller (mlr --icsv --ocsv cat)" "$mw" "$mc"
    row "copy $mb MB CSV (csvcat, cpu)" "$lc" "mlr --icsv --ocsv cat" "$mc" "$lm"
    echo "bench csv: copy: lib vs miller: $(ratio "$mw" "$lw")x wall, $(ratio "$mc" "$lc")x cpu"
else
    echo "bench csv: miller not installed (apt-get install miller): no Miller ratio"
fi

# parse+sum of the containers column (4th)
s_lib=$("$csvcat" --sum-only containers "$f")
read -r sw sc sm < <(run "$runs" "$csvcat" --sum-only containers "$f") || exit 1
line "parse+sum, lib (csvcat --sum-only)" "$sw" "$sc"
if command -v datamash >/dev/null; then
    s_dm=$(datamash -t, --header-in sum 4 <"$f")
    [ "$s_lib" = "$s_dm" ] || echo "bench csv: WARNING: sums differ: lib $s_lib, datamash $s_dm"
    read -r dw dc _ < <(run "$runs" sh -c 'datamash -t, --header-in sum 4 <"$1"' _ "$f") || exit 1
    line "parse+sum, datamash (datamash -t, --header-in sum 4)" "$dw" "$dc"
    row "parse+sum $mb MB CSV (csvcat --sum-only, cpu)" "$sc" "datamash sum" "$dc" "$sm"
    echo "bench csv: parse+sum: lib vs datamash: $(ratio "$dw" "$sw")x wall, $(ratio "$dc" "$sc")x cpu (goal >= 1)"
    goal "parse+sum vs datamash, cpu (issue 20)" ">= 1x" "$(ratio "$dc" "$sc")x" "$(met "$(ratio "$dc" "$sc")" 1)"
    goal "parse+sum vs datamash, wall clock (issue 20)" ">= 1x" "$(ratio "$dw" "$sw")x" "$(met "$(ratio "$dw" "$sw")" 1)"
else
    echo "bench csv: datamash not installed (apt-get install datamash): no datamash ratio"
fi

#!/bin/bash
# bench/run.sh — run the benchmarks (make bench [BENCH="csv skyfit"]
# [BENCH_SIZE=full]).
#
# Each bench/<name>.sh times a tool on inputs made by the project's own
# tools (tracegen) or fixed generators (bench/skyfit_gen.py; integer-only
# awk programs whose bytes are the same under gawk and mawk, checked with
# md5sum), prints result lines
#   bench <name>: <what>: <value> [<unit>] (<ratio>x the time of <reference>,
#   or <ratio>x faster than <reference>: each line says which way)
# and adds rows to one table, printed at the end: the work, slokit's time,
# a reference measured in the same run and its time, their ratio, slokit's
# peak memory (its maximum RSS, from wait4: bench/timeit.c); then the issues' speed goals, met or
# by how much missed.  Benchmarks assert nothing: they report.  The tables
# are also written as Markdown to $BENCH_TMP/table.md with the machine, its
# load and the commit; bench/readme.sh puts that file into README.md.  The default sizes finish in about 15 minutes on 2 cores;
# BENCH_SIZE=full runs the big sizes.  Scratch data goes to $BENCH_TMP
# (default /tmp/slokit-bench).  Exits 0; 1 when a bench command or script
# failed (its row says failed; the commands are listed under the tables);
# 64 for a bench name that does not exist.  tests/cli/bench.sh tests this
# harness (never a time).
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
export ROOT BIN=${BIN:-$ROOT/${SLOKIT_BUILD:-build}/bin} LC_ALL=C
export PATH=$BIN:$PATH
export BENCH_TMP=${BENCH_TMP:-/tmp/slokit-bench} BENCH_SIZE=${BENCH_SIZE:-small}
mkdir -p "$BENCH_TMP"
command -v cc >/dev/null || { echo "bench: needs a C compiler for bench/timeit.c: make deps" >&2; exit 69; }
: >"$BENCH_TMP/table.tsv"
: >"$BENCH_TMP/goals.tsv"
: >"$BENCH_TMP/failed"   # the commands that failed (bench/lib.sh): the run exits 1
all=$(cd "$ROOT/bench" && ls *.sh | grep -v -e '^run.sh$' -e '^lib.sh$' -e '^readme.sh$' | sed 's/\.sh$//')
names=${*:-$all}
for n in $names; do
    printf '%s\n' "$all" | grep -qxF -- "$n" ||
        { echo "bench: no bench '$n' (there are: $(echo $all))" >&2; exit 64; }
done
load0=$(cut -d' ' -f1-3 /proc/loadavg)
t0=$(date +%s)
for n in $names; do
    echo "== bench $n ($(date -u +%H:%M:%S), load $(cut -d' ' -f1 /proc/loadavg))"
    BENCH_NAME=$n bash "$ROOT/bench/$n.sh" ||
        { st=$?; echo "bench $n: FAILED (exit $st)"; echo "$n: bench/$n.sh exited $st" >>"$BENCH_TMP/failed"; }
done
t1=$(date +%s)
el=$((t1 - t0))
if [ "$BENCH_SIZE" != full ] && [ -z "${*:-}" ]; then
    BENCH_NAME=all bash -c '. "$ROOT/bench/lib.sh"; goal "make bench, default sizes, 2 cores" "<= 900 s" "$1 s" "$2"' _ \
        "$el" "$([ "$el" -le 900 ] && echo yes || echo "no ($(awk -v e="$el" 'BEGIN { printf "%.2fx", e / 900 }'))")"
fi
head="$BENCH_SIZE sizes; $(nproc) cores; load average $load0 at start, $(cut -d' ' -f1-3 /proc/loadavg) at end; $el s in all"
commit=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo "?")
echo
echo "== bench table ($head)"
echo "ratio = reference time / slokit time (above 1: slokit is faster);"
echo "peak = slokit's maximum RSS in MB; times in seconds (wall clock unless the work says cpu)"
table() { # the table with its header, tab-separated
    printf 'bench\twork\tslokit_s\treference\treference_s\tratio\tpeak_mb\n'
    awk -F'\t' -v OFS='\t' '{ r = ($3 > 0 && $5 != "") ? sprintf("%.2f", $5 / $3) : "-"
        print $1, $2, ($3 == "" ? "failed" : $3), ($4 == "" ? "-" : $4), ($5 == "" ? "-" : $5), r, ($6 == "" || $3 == "" ? "-" : $6) }' \
        "$BENCH_TMP/table.tsv"
}
goals() {
    printf 'bench\tgoal\ttarget\tmeasured\tmet\n'
    cat "$BENCH_TMP/goals.tsv"
}
md() { awk -F'\t' 'NR == 1 { s = "|"; for (i = 1; i <= NF; i++) s = s " --- |" }
    { l = "|"; for (i = 1; i <= NF; i++) { c = $i; gsub(/\|/, "\\|", c); l = l " " c " |" }; print l; if (NR == 1) print s }'; }
table | column -t -s "$(printf '\t')"
echo
echo "== goals"
goals | column -t -s "$(printf '\t')"
{
    echo "<!-- made by bench/run.sh: make bench; bench/readme.sh puts it into README.md -->"
    echo "\`make bench\` on $(date -u +%Y-%m-%d), commit $commit: $head."
    echo
    table | md
    echo
    goals | md
    if [ -s "$BENCH_TMP/failed" ]; then
        echo; echo "Commands that failed in this run (their rows say failed):"; echo
        sed 's/^/    /' "$BENCH_TMP/failed"
    fi
} >"$BENCH_TMP/table.md"
echo
echo "bench: Markdown tables in $BENCH_TMP/table.md (bench/readme.sh puts them into README.md)"
if [ -s "$BENCH_TMP/failed" ]; then
    echo "bench: $(wc -l <"$BENCH_TMP/failed") command(s) failed:"; cat "$BENCH_TMP/failed"
    exit 1
fi

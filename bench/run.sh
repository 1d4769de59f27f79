#!/bin/bash
# bench/run.sh — run the benchmarks (make bench [BENCH="csv skyfit"]
# [BENCH_SIZE=full]).
#
# Each bench/<name>.sh times a tool on inputs made by the project's own
# tools (tracegen) or fixed generators, prints result lines
#   bench <name>: <what>: <value> [<unit>] (<ratio>x vs <reference>)
# and adds rows to one table, printed at the end: the work, slokit's time,
# a reference measured in the same run and its time, their ratio, slokit's
# peak memory (GNU time's maximum RSS).  Benchmarks assert nothing: they
# report.  The default sizes finish in about 15 minutes on 2 cores;
# BENCH_SIZE=full runs the big sizes.  Scratch data goes to $BENCH_TMP
# (default /tmp/slokit-bench).
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
export ROOT BIN=${BIN:-$ROOT/${SLOKIT_BUILD:-build}/bin} LC_ALL=C
export PATH=$BIN:$PATH
export BENCH_TMP=${BENCH_TMP:-/tmp/slokit-bench} BENCH_SIZE=${BENCH_SIZE:-small}
mkdir -p "$BENCH_TMP"
[ -x /usr/bin/time ] || { echo "bench: needs GNU time (/usr/bin/time): make deps" >&2; exit 69; }
: >"$BENCH_TMP/table.tsv"
names=${*:-$(cd "$ROOT/bench" && ls *.sh | grep -v -e '^run.sh$' -e '^lib.sh$' | sed 's/\.sh$//')}
load0=$(cut -d' ' -f1-3 /proc/loadavg)
t0=$(date +%s)
for n in $names; do
    echo "== bench $n ($(date -u +%H:%M:%S), load $(cut -d' ' -f1 /proc/loadavg))"
    BENCH_NAME=$n bash "$ROOT/bench/$n.sh" || echo "bench $n: FAILED (exit $?)"
done
t1=$(date +%s)
echo
echo "== bench table ($BENCH_SIZE sizes; $(nproc) cores; load average $load0 at start," \
     "$(cut -d' ' -f1-3 /proc/loadavg) at end; $((t1 - t0)) s in all)"
echo "ratio = reference time / slokit time (above 1: slokit is faster);"
echo "peak = slokit's maximum RSS in MB; times in seconds (wall clock unless the work says cpu)"
{
    printf 'bench\twork\tslokit_s\treference\treference_s\tratio\tpeak_mb\n'
    awk -F'\t' -v OFS='\t' '{ r = ($3 > 0 && $5 != "") ? sprintf("%.2f", $5 / $3) : "-"
        print $1, $2, $3, ($4 == "" ? "-" : $4), ($5 == "" ? "-" : $5), r, ($6 == "" ? "-" : $6) }' \
        "$BENCH_TMP/table.tsv"
} | column -t -s "$(printf '\t')"

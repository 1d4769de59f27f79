#!/bin/bash
# bench/run.sh — run the benchmarks (make bench [BENCH="csv skyfit"]).
#
# Each bench/<name>.sh times a tool on generated data and prints result lines
#   bench <name>: <what>: <value> [<unit>] (<ratio>x vs <reference>)
# with references measured in the same run.  Benchmarks assert nothing:
# they report.  Scratch data goes to $BENCH_TMP (default /tmp/slokit-bench).
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
export ROOT BIN=${BIN:-$ROOT/${SLOKIT_BUILD:-build}/bin} LC_ALL=C
export PATH=$BIN:$PATH
export BENCH_TMP=${BENCH_TMP:-/tmp/slokit-bench}
mkdir -p "$BENCH_TMP"
names=${*:-$(cd "$ROOT/bench" && ls *.sh | grep -v -e '^run.sh$' -e '^lib.sh$' | sed 's/\.sh$//')}
for n in $names; do
    echo "== bench $n"
    bash "$ROOT/bench/$n.sh" || echo "bench $n: FAILED (exit $?)"
done

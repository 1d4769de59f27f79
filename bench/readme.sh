#!/bin/bash
# bench/readme.sh — put the tables of the last `make bench` into README.md.
#
#   bench/readme.sh [TABLE.md]    (default $BENCH_TMP/table.md, i.e.
#                                  /tmp/slokit-bench/table.md)
#
# Replaces what stands between the lines <!-- bench-table:begin --> and
# <!-- bench-table:end --> in README.md with TABLE.md (bench/run.sh writes
# it: the date, commit, sizes, cores, load average at start and end, the
# bench table and the goals table).  The prose around it (what the load
# means, which goals are missed and why) is written by hand.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
t=${1:-${BENCH_TMP:-/tmp/slokit-bench}/table.md}
[ -s "$t" ] || { echo "bench/readme.sh: $t: no tables (run make bench first)" >&2; exit 66; }
grep -q '^<!-- bench-table:begin -->$' "$ROOT/README.md" && grep -q '^<!-- bench-table:end -->$' "$ROOT/README.md" ||
    { echo "bench/readme.sh: README.md: no bench-table markers" >&2; exit 65; }
tmp=$(mktemp "$ROOT/README.md.XXXXXX")
awk -v t="$t" '/^<!-- bench-table:begin -->$/ { print; while ((getline l < t) > 0) print l; skip = 1; next }
    /^<!-- bench-table:end -->$/ { skip = 0 } !skip' "$ROOT/README.md" >"$tmp"
mv "$tmp" "$ROOT/README.md"
echo "bench/readme.sh: README.md: tables from $t"

# bench/tracegen.sh — how fast tracegen writes telemetry (issue 2: gigabyte-
# scale inputs for the other benches), against copying the same file through
# the lib's CSV layer (csvcat) in this run: generation should not be the
# bottleneck of any pipeline it feeds.
source "$ROOT/bench/lib.sh"
C="$(dirname "$BIN")/tests/csvcat"
for spec in "runs --count 2000 --days 30" "usage --count $(size 100 400) --days 30" "tenants --count $(size 200 500) --days 30" "taskmem --count $(size 100 400)"; do
    set -- $spec
    f="$BENCH_TMP/tracegen-$1.csv"
    mark
    gen=$(best 2 tracegen -q "$@" -o "$f")
    p=$(peak)
    mb=$(awk -v b="$(stat -c %s "$f")" 'BEGIN { printf "%.0f", b / 1e6 }')
    copy=$(best 2 "$C" "$f")
    row "generate $1, $mb MB" "$gen" "csvcat copy of it" "$copy" "$p"
    echo "bench tracegen: $1: $mb MB in ${gen} s ($(awk -v m="$mb" -v s="$gen" 'BEGIN { printf "%.0f", m / s }') MB/s; $(ratio "$gen" "$copy")x the time of a csvcat copy, ${copy} s)"
    rm -f "$f"
done

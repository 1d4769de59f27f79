# bench/scaleout.sh — speed-up of GNU parallel -j2 over one process for the
# per-key tools on a large tracegen input (issue 9).  Both runs in this
# invocation; the outputs are compared so a fast wrong answer cannot pass.
source "$ROOT/bench/lib.sh"
P="$ROOT/examples/parallel-by-key.sh"
u="$BENCH_TMP/scaleout-usage.csv"; m="$BENCH_TMP/scaleout-mem.csv"
[ -s "$u" ] || tracegen -q usage --count 400 --days 30 -o "$u"
[ -s "$m" ] || tracegen -q taskmem --count 2000 -o "$m"
run() {  # NAME KEY INPUT TOOL...
    local name=$1 key=$2 in=$3; shift 3
    one=$(best 1 bash -c '"${@:2}" -q < "$1" > "$BENCH_TMP/one.out"' _ "$in" "$@")
    two=$(best 1 bash -c '"$2" "$3" -j2 --block 20M -- "${@:4}" -q < "$1" > "$BENCH_TMP/two.out" 2>/dev/null' _ "$in" "$P" "$key" "$@")
    same=$(cmp -s "$BENCH_TMP/one.out" "$BENCH_TMP/two.out" && echo "identical output" || echo "OUTPUT DIFFERS")
    echo "bench scaleout: $name on $(du -h "$in" | cut -f1): 1 process ${one} s, parallel -j2 ${two} s ($(ratio "$one" "$two")x speed-up; $same)"
}
run skyfit job "$u" skyfit
run peakgate task "$m" peakgate

# bench/keyshard.sh — how fast keyshard splits a CSV into shards of whole
# keys, and merges the shards' outputs back, against the awk split the
# recipes used before (timed in this run on the same input).  The Slurm and
# ssh speed-ups that use these shards are in bench/scaleout.sh.
source "$ROOT/bench/lib.sh"
n=$(size 400 2000)
in="$BENCH_TMP/keyshard-usage-$n.csv"
[ -s "$in" ] || tracegen -q usage --count "$n" --days 30 -o "$in"
W="$BENCH_TMP/keyshard-work"; rm -rf "$W"; mkdir -p "$W"
mb=$(awk -v b="$(stat -c %s "$in")" 'BEGIN { printf "%.0f", b / 1e6 }')
mark
ks=$(best 2 keyshard -q -k job -n 4 -p "$W/ks-" "$in")
p=$(peak)
aw=$(best 2 awk -F, -v d="$W" 'NR == 1 { h = $0; next }
    { s = $1; sub(/^job/, "", s); f = d "/awk-" (s % 4) ".csv"; if (!(f in seen)) { seen[f]; print h > f } print > f }' "$in")
row "split $mb MB into 4 key shards" "$ks" "awk split" "$aw" "$p"
echo "bench keyshard: split $mb MB into 4 shards: ${ks} s, awk ${aw} s ($(ratio "$aw" "$ks")x)"
# merge: the shards themselves stand in for per-shard outputs (rows keep
# their input order within each key, as the tools' outputs do)
keyshard -q -k job --order "$W/order.csv" -n 4 -p "$W/m-" "$in"
mark
mg=$(best 2 keyshard -q --merge --order "$W/order.csv" -k job "$W"/m-*)
p=$(peak)
C="$(dirname "$BIN")/tests/csvcat"
cp_s=$(best 2 "$C" "$in")
row "merge 4 shards ($mb MB) into input order" "$mg" "csvcat copy of the input" "$cp_s" "$p"
echo "bench keyshard: merge 4 shards back into input order: ${mg} s, a csvcat copy of the input ${cp_s} s ($(ratio "$cp_s" "$mg")x)"
rm -rf "$W"

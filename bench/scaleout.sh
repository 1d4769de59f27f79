# bench/scaleout.sh — speed-up of the scale-out recipes over one process.
#
# Part 1 (issue 9): GNU parallel -j2 on this machine, skyfit and peakgate.
# Part 2 (issue 19): on tracegen usage --count 2000 --days 30 (590 MB):
# keyshard against an awk split; skyfit in one process against a Slurm
# array on a two-node cluster and GNU parallel over two ssh hosts (shards on
# the shared file system, shards copied with --trc, and every byte streamed
# through ssh with --pipe), all started here by tests/engines/lab.sh.  Each
# output is compared with one process's, so a fast wrong answer cannot pass.
# The nodes and hosts are namespaces of this 2-core machine: the ceiling is
# 2x, and other engineers' builds share the cores (load average printed).
source "$ROOT/bench/lib.sh"
P="$ROOT/examples/parallel-by-key.sh"
u="$BENCH_TMP/scaleout-usage.csv"; m="$BENCH_TMP/scaleout-mem.csv"
[ -s "$u" ] || tracegen -q usage --count 400 --days 30 -o "$u"
[ -s "$m" ] || tracegen -q taskmem --count 2000 -o "$m"
same() { cmp -s "$1" "$2" && echo "identical output" || echo "OUTPUT DIFFERS"; }
load() { cut -d' ' -f1-3 /proc/loadavg; }
run() {  # NAME KEY INPUT TOOL...
    local name=$1 key=$2 in=$3; shift 3
    one=$(best 1 bash -c '"${@:2}" -q < "$1" > "$BENCH_TMP/one.out"' _ "$in" "$@")
    mark
    two=$(best 1 bash -c '"$2" "$3" -j2 --block 20M -- "${@:4}" -q < "$1" > "$BENCH_TMP/two.out" 2>/dev/null' _ "$in" "$P" "$key" "$@")
    row "$name on $(du -h "$in" | cut -f1), parallel -j2" "$two" "1 process" "$one" "$(peak)"
    echo "bench scaleout: $name on $(du -h "$in" | cut -f1): 1 process ${one} s, parallel -j2 ${two} s ($(ratio "$one" "$two")x speed-up; $(same "$BENCH_TMP/one.out" "$BENCH_TMP/two.out"))"
}
run skyfit job "$u" skyfit
run peakgate task "$m" peakgate

# ---- part 2: real engines ---------------------------------------------------
bc=$(size 500 2000)
big="$BENCH_TMP/scaleout-usage-$bc.csv"
[ -s "$big" ] || tracegen -q usage --count $bc --days 30 -o "$big"
W="$BENCH_TMP/scaleout-work"; rm -rf "$W"; mkdir -p "$W"
size=$(du -h "$big" | cut -f1)
echo "bench scaleout: load average before: $(load)"
awk_s=$(secs awk -F, -v d="$W" 'NR == 1 { h = $0; next }
    { s = $1; sub(/^job/, "", s); f = d "/awk-" (s % 4) ".csv"; if (!(f in seen)) { seen[f]; print h > f } print > f }' "$big")
mark
ks_s=$(secs keyshard -q -k job -n 4 -p "$W/ks-" "$big")
row "split $size into 4 key shards (keyshard)" "$ks_s" "awk" "$awk_s" "$(peak)"
echo "bench scaleout: split $size into 4 key shards: keyshard ${ks_s} s (fsync included), awk ${awk_s} s ($(ratio "$awk_s" "$ks_s")x)"
one=$(secs bash -c 'skyfit -q "$1" > "$2/one.csv"' _ "$big" "$W")
echo "bench scaleout: skyfit on $size, one process: ${one} s (load $(load))"

LAB="$ROOT/tests/engines/lab.sh"; D="$BENCH_TMP/scaleout-lab"
if [ "$BENCH_SIZE" != full ]; then
    echo "bench scaleout: Slurm and ssh with BENCH_SIZE=full"
elif ! why=$("$LAB" why-not); then
    echo "bench scaleout: Slurm and ssh skipped: $why"
elif ! "$LAB" up "$D" >"$W/lab.log" 2>&1; then
    echo "bench scaleout: Slurm and ssh skipped: the lab did not start ($(tail -1 "$W/lab.log"))"
else
    trap '"$LAB" down "$D"' EXIT
    sky=$(readlink -f "$(command -v skyfit)")
    ssh=(-e "ssh -F $D/ssh/config"); hosts=1/10.251.0.4,1/10.251.0.5
    t=$(secs "$LAB" run "$D" bash -c '"$1" -P 0.2 -n 4 -w "$2/slurm" -i "$3" -o "$2/slurm.csv" skyfit' _ "$ROOT/examples/slurm/array.sh" "$W" "$big")
    echo "bench scaleout: skyfit, Slurm array of 4 tasks on 2 nodes (shard + tasks + merge): ${t} s ($(ratio "$one" "$t")x faster than one process; $(same "$W/one.csv" "$W/slurm.csv"); load $(load))"
    t=$(secs "$LAB" run "$D" "$ROOT/examples/parallel-shards.sh" -S "$hosts" "${ssh[@]}" -n 4 -w "$W/ssh" -i "$big" -o "$W/ssh.csv" skyfit)
    echo "bench scaleout: skyfit, parallel over 2 ssh hosts, shards on the shared fs: ${t} s ($(ratio "$one" "$t")x; $(same "$W/one.csv" "$W/ssh.csv"); load $(load))"
    t=$(secs "$LAB" run "$D" "$ROOT/examples/parallel-shards.sh" -S "$hosts" "${ssh[@]}" -T -R "$D/remote/w" -n 2 -w "$W/trc" -i "$big" -o "$W/trc.csv" skyfit)
    echo "bench scaleout: skyfit, parallel over 2 ssh hosts, shards copied (--trc): ${t} s ($(ratio "$one" "$t")x; $(same "$W/one.csv" "$W/trc.csv"); load $(load))"
    t=$(secs "$LAB" run "$D" bash -c '"$1" job -S "$2" --ssh "$3" --block 50M -- "$4" < "$5" > "$6/pipe.csv"' _ "$P" "$hosts" "ssh -F $D/ssh/config" "$sky" "$big" "$W")
    echo "bench scaleout: skyfit, every byte streamed through ssh (parallel --pipe -S): ${t} s ($(ratio "$one" "$t")x; $(same "$W/one.csv" "$W/pipe.csv"); load $(load))"
    "$LAB" down "$D"; trap - EXIT
fi
rm -rf "$W"

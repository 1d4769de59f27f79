# bench/tenantclass.sh — tenantclass on a month of 2-minute samples for
# 10,000 tenants (216 million rows), one process and two shards (the
# per-tenant phase in two processes, then one clustering), and against a
# numpy.fft + scikit-learn KMeans reference doing the same steps
# (bench/tenantclass_ref.py) on 1,000 tenants of the same kind, measured in
# the same run.  CPU seconds are printed too: on a shared machine the wall
# time depends on the other load.
#   TENANTS (default 10000), REF_TENANTS (default 1000)
source "$ROOT/bench/lib.sh"
n=${TENANTS:-$(size 3000 10000)}
nref=${REF_TENANTS:-1000}
big=$BENCH_TMP/tenants-$n.csv
small=$BENCH_TMP/tenants-$nref.csv
# generate once (two tracegen shards in parallel; tenants are keyed by name,
# so the halves concatenate to the same trace as one run)
if [ ! -s "$big" ]; then
    h=$((n / 2))
    tracegen tenants --seed 1 --count $h --days 30 -o "$big.a" &
    tracegen tenants --seed 1 --count $((n - h)) --days 30 --set first=$((h + 1)) --no-output-header -o "$big.b"
    wait
    cat "$big.a" "$big.b" > "$big" && rm -f "$big.a" "$big.b"
fi
[ -s "$small" ] || tracegen tenants --seed 1 --count $nref --days 30 -o "$small"
rows=$(( $(wc -l < "$big") - 1 ))
cat "$big" > /dev/null   # warm the page cache
echo "bench tenantclass: load average at start: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) processors"
cpu() { local r; r=$(wallcpu "$@") || return 1; echo "$r" | awk '{ printf "%.1f", $2 }'; }

t0=$(date +%s.%N)
c_big=$(cpu tenantclass -q -o "$BENCH_TMP/tc-one.csv" "$big") || exit 1
t_big=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')
echo "bench tenantclass: $n tenants x $((rows / n)) samples ($rows rows, $(du -m "$big" | cut -f1) MB), one process: $t_big s wall, $c_big s CPU ($(awk -v r=$rows -v s=$t_big 'BEGIN{printf "%.1f", r/s/1e6}') M rows/s; target < 20 s)"

atmost "tenantclass $n tenants x 30 days, one process (the goal is for 10,000: BENCH_SIZE=full)" "$t_big" 20 " s"
# two shards split at a tenant boundary, as GNU parallel or Hadoop Streaming would run them
h=$((n / 2 + 1))
off=$(grep -b -m1 "^tenant$(printf %05d $h)," "$big" | cut -d: -f1)
t0=$(date +%s.%N)
head -c "$off" "$big" | tenantclass -q --features-only -o "$BENCH_TMP/f1.csv" &
{ echo tenant,t,util; tail -c +$((off + 1)) "$big"; } | tenantclass -q --features-only -o "$BENCH_TMP/f2.csv"
wait
tenantclass -q --from-features -o "$BENCH_TMP/tc-two.csv" "$BENCH_TMP/f1.csv" "$BENCH_TMP/f2.csv" || exit 1
t_two=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')
same=$(cmp -s "$BENCH_TMP/tc-one.csv" "$BENCH_TMP/tc-two.csv" && echo "same output" || echo "OUTPUT DIFFERS")
echo "bench tenantclass: same, two shards in parallel + clustering: $t_two s wall ($(ratio "$t_big" "$t_two")x faster than one process; $same)"

mark
t_c=$(best 3 tenantclass -q -o "$BENCH_TMP/tc-c.csv" "$small") || exit 1
p=$(peak)
t_py=$(secs /usr/bin/python3 "$ROOT/bench/tenantclass_ref.py" "$small" "$BENCH_TMP/tc-py.csv") || exit 1
agree=$(awk -F, 'NR==FNR{p[$1]=$2;next} FNR>1{n++; s+=(p[$1]==$2)} END{printf "%.4f", s/n}' "$BENCH_TMP/tc-py.csv" "$BENCH_TMP/tc-c.csv")
row "classify $nref tenants" "$t_c" "numpy.fft + sklearn" "$t_py" "$p"
echo "bench tenantclass: $nref tenants x $((rows / n)) samples: $t_c s ($(ratio "$t_py" "$t_c")x faster than the numpy.fft+sklearn reference, $t_py s; same pattern for $agree of tenants)"

# bench/reprov.sh — reprov's throughput, samples per second, for both
# policies (target: at least 1,000,000 samples/s each), against reading the
# same CSV with the csvcat test driver (the CSV layer alone), measured in the
# same run.  DRA: 1,000 jobs with hourly reservations, one sample per job and
# minute for 20 hours (1.2M samples), using at most its plan inside its
# reservation and nothing outside, with a burst of pending containers in 1 of
# 200 samples (decisions are flushed one by one); also with --recent plan.  Jockey: the same jobs reporting progress, Amdahl model.
. "$ROOT/bench/lib.sh"
d=$BENCH_TMP/reprov
mkdir -p "$d"
build=${SLOKIT_BUILD:-build}
csvcat=$ROOT/$build/tests/csvcat
J=1000 M=$(size 300 1200)
# integer arithmetic only (no rand()): the same files under every awk
awk -v J=$J 'BEGIN { print "job,kind,instance,cycle,t,step,lcm,stage,gang,containers,cores,mem_mb,period,a,d,problematic"
    for (j = 0; j < J; j++) for (s = 0; s < 20; s++)
        printf "j%04d,periodic,0,,%d,60,3600,1,1,%d,1,1024,3600,0,3000,0\n", j, (j % 30) * 60 + s * 60, 10 + j % 7 }' \
    | /usr/bin/python3 "$ROOT/tests/check/replay_plan.py" > "$d/plan.csv"
awk -v J=$J -v M=$M 'BEGIN { print "job,t,used,pending"
    for (m = 0; m < M; m++) for (j = 0; j < J; j++) {
        h = (m * 7919 + j * 104729) % 1000003
        o = (m % 60) - (j % 30); u = (o >= 0 && o < 20) ? h % (10 + j % 7) : 0
        p = (u > 0 && h % 200 == 7) ? h % 30 : 0
        printf "j%04d,%d,%d,%d\n", j, 1767571200 + m * 60, u, p } }' > "$d/dra.csv"
awk -v J=$J -v M=$M 'BEGIN { print "job,t,progress,alloc"
    for (m = 0; m < M; m++) for (j = 0; j < J; j++)
        printf "j%04d,%d,%.4f,%d\n", j, 1767571200 + m * 60, (m % 60) / 60, 10 }' > "$d/jk.csv"
n=$(($(wc -l < "$d/dra.csv") - 1))
tcat=$(best 3 "$csvcat" "$d/dra.csv")
mark
tdra=$(best 3 reprov -q --plan "$d/plan.csv" --capacity cores=20000,mem=1e12 "$d/dra.csv" -o "$d/out.csv")
row "dra, $n samples" "$tdra" "csvcat of the samples" "$tcat" "$(peak)"
tdrap=$(best 3 reprov -q --recent plan --plan "$d/plan.csv" --capacity cores=20000,mem=1e12 "$d/dra.csv" -o "$d/out3.csv")
mark
tjk=$(best 3 reprov -q --policy jockey --amdahl 300,36000 --deadline 1h "$d/jk.csv" -o "$d/out2.csv")
row "jockey, $n samples" "$tjk" "csvcat of the dra samples" "$tcat" "$(peak)"
rate() { awk -v n="$1" -v t="$2" 'BEGIN { printf "%.0f", (t > 0) ? n / t : 0 }'; }
echo "bench reprov: dra: $n samples in $tdra s: $(rate $n $tdra) samples/s ($(ratio "$tdra" "$tcat")x the time of csvcat, $tcat s; $(ratio "$(rate $n $tdra)" 1000000)x the 1M/s target)"
echo "bench reprov: dra --recent plan: $n samples in $tdrap s: $(rate $n $tdrap) samples/s ($(ratio "$tdrap" "$tdra")x the time of the default --recent instance)"
atleast "reprov dra, samples per second" "$(rate $n $tdra)" 1000000 ""
atleast "reprov jockey, samples per second" "$(rate $n $tjk)" 1000000 ""
echo "bench reprov: jockey: $n samples in $tjk s: $(rate $n $tjk) samples/s ($(ratio "$tjk" "$tcat")x the time of csvcat of the dra samples (another file, as many rows), $tcat s; $(ratio "$(rate $n $tjk)" 1000000)x the 1M/s target)"
echo "bench reprov: dra decisions: $(($(wc -l < "$d/out.csv") - 1)); jockey decisions: $(($(wc -l < "$d/out2.csv") - 1))"

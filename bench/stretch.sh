# bench/stretch.sh — stretch on a month of a large cluster: 1M jobs, 115 VCs,
# 50,000 servers (tracegen vcjobs --set scenario=mixed).  Reports the wall
# time of each scheduler, the simulator's own time and event handling cost per
# job, against two references measured in the same run: reading and writing the
# same CSV (mlr cat), and generating it (tracegen).  Target: under 30 s.
# stretch streams its jobs: its peak memory (the table's peak_mb) follows
# the jobs in flight, not the trace (1M jobs: 108 MB before, 8 MB after).
. "$ROOT/bench/lib.sh"
d=$BENCH_TMP/stretch
mkdir -p "$d"
tracegen vcs --set scenario=mixed -o "$d/vcs.csv"
tgen=$(secs tracegen vcjobs --set scenario=mixed --count "$(size 200000 1000000)" -o "$d/jobs.csv")
jobs=$(($(wc -l < "$d/jobs.csv") - 1))
echo "bench stretch: input: $jobs jobs, $(($(wc -l < "$d/vcs.csv") - 1)) VCs, $(awk -F, 'NR > 1 { c += $2 } END { print c }' "$d/vcs.csv") servers, 30 days"
tmlr=$(best 1 mlr --icsv --ocsv cat "$d/jobs.csv")
for s in maxmin drr balanced; do
    mark
    t=$(secs stretch -s $s "$d/vcs.csv" "$d/jobs.csv" -o "$d/out.csv" --vcs "$d/v.csv" 2> "$d/err")
    sim=$(sed -n 's/.* in \([0-9.]*\) s (\([0-9.e+]*\) us per job.*/\1 \2/p' "$d/err")
    ev=$(sed -n 's/.*events (\([0-9.]*\) per job).*/\1/p' "$d/err")
    row "stretch -s $s, $jobs jobs" "$t" "mlr cat of the jobs" "$tmlr" "$(peak)"
    echo "bench stretch: $s: total $t s ($(ratio "$t" "$tmlr")x the time of mlr cat, $tmlr s; $(ratio "$t" 30)x of the 30 s budget)"
    echo "bench stretch: $s: simulation (streamed: with reading and writing) ${sim% *} s, ${sim#* } us per job, $ev events per job ($(ratio "${sim% *}" "$tgen")x the time of tracegen, $tgen s); at most $(sed -n 's/.*at most \([0-9]*\) jobs held.*/\1/p' "$d/err") jobs held"
    goal "stretch -s $s, $jobs jobs" "< 30 s" "$t s" "$(awk -v t="$t" 'BEGIN { print (t < 30) ? "yes" : "no" }')"
done

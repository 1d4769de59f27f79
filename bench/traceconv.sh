# bench/traceconv.sh — how fast traceconv turns the real Google 2011
# job_events (four gzip parts in ../shared/data) into sloinfer's runs, against
# the same conversion written in gawk over zcat (the 8-line adapter users
# wrote before traceconv; exact %d/%.6f formats, not awk's %.6g), timed in
# this run.  The parts are real and small, so they are concatenated 40 times
# (400 with BENCH_SIZE=full), copy K with its own job ids (id + K x 1e8; the
# parts' ids span 4e7), so its events are new jobs: traceconv refuses a job's
# event that goes back in time, which a plain repeat would be.
source "$ROOT/bench/lib.sh"
G=${SLOKIT_DATA:-$ROOT/../shared/data}/google-2011
ls "$G"/job_events-part-*.gz >/dev/null 2>&1 || { echo "bench traceconv: no $G/job_events-part-*.gz (skipped)"; exit 0; }
in="$BENCH_TMP/traceconv-job_events.csv.gz"
rm -f "$in"
zcat "$G"/job_events-part-*.gz > "$BENCH_TMP/traceconv-parts.csv"
for k in $(seq 0 $(($(size 40 400) - 1))); do
    awk -F, -v OFS=, -v k="$k" '{ $3 = sprintf("%.0f", $3 + k * 1e8); print }' "$BENCH_TMP/traceconv-parts.csv" | gzip -1 >> "$in"
done
rm -f "$BENCH_TMP/traceconv-parts.csv"
mb=$(awk -v b="$(stat -c %s "$in")" 'BEGIN { printf "%.1f", b / 1e6 }')
mark
tc=$(best 3 traceconv -q google-runs "$in")
p=$(peak)
aw=$(best 3 bash -c 'zcat "$1" | gawk -F, -v OFS=, '\''
    $4 == 0 { sb[$3] = $1 } $4 == 1 { st[$3] = $1 }
    $4 >= 2 && $4 <= 6 { printf "%s,%s,%.6f,%.6f,%.6f,%d\n", $8, $3, sb[$3] / 1e6, st[$3] / 1e6, $1 / 1e6, $4 }'\''' _ "$in")
row "google job_events ($mb MB gzip) to runs" "$tc" "zcat | gawk" "$aw" "$p"
echo "bench traceconv: google-runs on $mb MB of gzip: ${tc} s, zcat | gawk ${aw} s ($(ratio "$aw" "$tc")x faster than zcat | gawk)"
rm -f "$in"

#!/bin/sh
# headline.sh — the Morpheus headline (§9) on a synthetic enterprise-like
# workload: train on the first 70% of the trace, replay the last 30% under
# static provisioning, the lcmpack plan, and the plan with the DRA.
#
#   sh examples/headline.sh [JOBS] [DAYS] [WORKDIR]     (default 1000 30 ./headline)
#
# Pipeline: tracegen runs/usage -> sloinfer (train) -> skyfit (train) ->
# lcmpack (one pass per test day, so the one-off reservations of off-kilter
# jobs cover every test day) -> replay (test).  The cluster is sized to the users' own static
# provisioning (the peak of provisioned containers over the test part), the
# capacity every regime is given.  Prints the totals side by side
# (footprint in cores: the peak of reserved capacity).
set -eu
export LC_ALL=C    # sort(1) must put the header "job,provisioned" first in any locale
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/examples/common.sh"
ex_args headline "$0" 3 "$@"
N=${1:-1000}
DAYS=${2:-30}
W=${3:-headline}
ex_whole headline JOBS "$N"
ex_whole headline DAYS "$DAYS"
ex_tools headline "$root" tracegen sloinfer skyfit lcmpack replay
mkdir -p "$W"
START=1767571200                       # 2026-01-05T00:00:00Z, tracegen's default
SPLIT=$((START + DAYS * 86400 * 7 / 10)) # 70% / 30% in time, on a day boundary when DAYS is a multiple of 10
SPLIT=$((SPLIT - SPLIT % 86400))
echo "headline: $N jobs over $DAYS days; train before $(date -u -d @$SPLIT +%FT%TZ), replay after" >&2

tracegen -q runs --count "$N" --days "$DAYS" > "$W/runs.csv"
tracegen -q usage --count "$N" --days "$DAYS" --truth "$W/truth.csv" > "$W/usage.csv"
awk -F, -v s=$SPLIT 'NR == 1 || $3 < s' "$W/runs.csv" > "$W/train_runs.csv"
awk -F, -v s=$SPLIT 'NR == 1 || $3 < s' "$W/usage.csv" > "$W/train_usage.csv"
# the test part: whole runs that start after the split
awk -F, -v s=$SPLIT 'NR == 1 { print; next } $2 != run { run = $2; keep = $3 >= s } keep' "$W/usage.csv" > "$W/test_usage.csv"

sloinfer -q "$W/train_runs.csv" > "$W/slo.csv"
skyfit -q --last 10 --round --runs "$W/train_runs.csv" "$W/train_usage.csv" > "$W/sky.csv"
BIG=cores=1e9,mem=1e15
# The plan cycle is one day (lcmpack's default --lcm).  Periodic jobs (period
# divides the day) get one placement that repeats every day; off-kilter jobs
# (58 min, 25 h, ...) get one-off reservations only for the instances whose
# window opens in the --at cycle.  So lcmpack runs once per replayed day with
# --plan (the plan so far) and --at that day: the periodic reservations are
# placed by the first pass and kept byte for byte by the others, and each pass
# adds that day's one-off instances (report: "kept" / "placed").  The passes go
# from the last test day back to the first: lcmpack drops one-off reservations
# that ended before --at ("expired"), which a nightly cron wants but a replay
# of all the test days through one plan file does not.  The periodic
# reservations are the same as a single pass at --at SPLIT would place.
END=$((START + DAYS * 86400))
rm -f "$W/plan.csv" "$W/report.csv"
at=$(( (END - 1) - (END - 1) % 86400 ))
while [ $at -ge $SPLIT ]; do
    if [ -f "$W/plan.csv" ]; then old="--plan $W/plan.csv"; else old=; fi
    lcmpack -q $old --slo "$W/slo.csv" --capacity $BIG --at $at "$W/sky.csv" -o "$W/plan.csv" --report "$W/report.day"
    awk -F, -v at=$at 'NR == 1 { if (!h) print "at," $0; next } { print at "," $0 }' h=$([ -f "$W/report.csv" ] && echo 1 || echo 0) \
        "$W/report.day" >> "$W/report.csv"
    at=$((at - 86400))
done
rm -f "$W/report.day"

# the users' cluster: the peak of their own provisioning over the test part
replay -q --regime static --idle none --slo "$W/slo.csv" --provisioned "$W/truth.csv" --capacity $BIG \
    --from $SPLIT "$W/test_usage.csv" --summary "$W/size.csv" > /dev/null
CORES=$(awk -F, 'NR == 2 { print $8 }' "$W/size.csv")
CAP=cores=$CORES,mem=1e15
echo "headline: cluster sized to the static footprint: $CORES cores" >&2

# plan regimes twice: runs submitted into their reservation (Morpheus: the
# periodic job runs in its reservation, not before its input is there), and
# runs kept at their recorded start (the legacy schedule)
replay -q --regime static --slo "$W/slo.csv" --provisioned "$W/truth.csv" --capacity $CAP \
    --from $SPLIT "$W/test_usage.csv" --summary "$W/static.csv" > "$W/replay_static.csv"
replay -q --regime static --idle none --slo "$W/slo.csv" --provisioned "$W/truth.csv" --capacity $CAP \
    --from $SPLIT "$W/test_usage.csv" --summary "$W/worst.csv" > /dev/null
replay -q --regime plan,plan+dra --align reservation --runs "$W/runs.csv" --slo "$W/slo.csv" \
    --plan "$W/plan.csv" --capacity $CAP --from $SPLIT "$W/test_usage.csv" --summary "$W/aligned.csv" > "$W/replay_aligned.csv"
replay -q --regime plan,plan+dra --slo "$W/slo.csv" --plan "$W/plan.csv" --capacity $CAP \
    --from $SPLIT "$W/test_usage.csv" --summary "$W/recorded.csv" > "$W/replay_recorded.csv"

# a stricter baseline: every job provisioned at the peak it used in training
{ echo job,provisioned; awk -F, 'NR > 1 && (!($1 in p) || $4 > p[$1]) { p[$1] = $4 } END { for (j in p) print j "," p[j] }' \
    "$W/train_usage.csv" | LC_ALL=C sort; } > "$W/peak.csv"
replay -q --regime static --slo "$W/slo.csv" --provisioned "$W/peak.csv" --capacity $CAP \
    --from $SPLIT "$W/test_usage.csv" --summary "$W/peak_fair.csv" > /dev/null 2>&1 || :
replay -q --regime static --idle none --slo "$W/slo.csv" --provisioned "$W/peak.csv" --capacity $CAP \
    --from $SPLIT "$W/test_usage.csv" --summary "$W/peak_none.csv" > /dev/null 2>&1 || :

awk -F, '
    BEGIN { printf "%-9s %-26s %-5s %7s %7s %8s %10s %6s\n", "regime", "variant", "idle", "runs", "missed", "miss%", "footprint", "util" }
    FNR == 1 { next }
    { v = "users provisioning"
      if (FILENAME ~ /peak_/) v = "training-peak provisioning"
      if (FILENAME ~ /aligned/) v = "submitted into reservation"
      if (FILENAME ~ /recorded/) v = "recorded start"
      printf "%-9s %-26s %-5s %7d %7d %7.2f%% %10.0f %6.3f\n", $1, v, $2, $3, $5, 100 * $7, $8, $10 }
' "$W/static.csv" "$W/worst.csv" $(ls "$W"/peak_fair.csv "$W"/peak_none.csv 2>/dev/null) "$W/aligned.csv" "$W/recorded.csv"
# runs of jobs the plan holds nothing for (lcmpack skipped or rejected them)
awk -F, 'FNR == 1 { next } FILENAME ~ /plan.csv$/ { if ($3 != "end") in_plan[$2] = 1; next }
    $1 == "plan" { n++; if (!($2 in in_plan)) { u++; if ($7 == 0) um++ } }
    END { printf "headline: %d of %d test runs belong to jobs without a reservation (%d of them missed in plan)\n", u, n, um }' \
    "$W/plan.csv" "$W/replay_aligned.csv" >&2
# why: lcmpack's report (one row per decision and pass; the reason of a
# rejection with its numbers blanked), counted in test runs of those jobs
awk -F, 'FNR == 1 { next }
    FILENAME ~ /plan.csv$/ { if ($3 != "end") in_plan[$2] = 1; next }
    FILENAME ~ /report.csv$/ { if ($5 == "rejected") { r = $10; gsub(/[0-9]+/, "N", r); why[$2] = $3 ": " r; if ($3 == "once") oi[$2]++ } next }
    $1 == "plan" && ($2 in why) { k = (($2 in in_plan) ? "one-off instances rejected (lcmpack: " : "no reservation (lcmpack: ") why[$2] ")"; n[k]++; j[k, $2] = 1; if ($7 == 0) m[k]++ }
    END { for (k in n) { c = 0; for (x in j) { split(x, y, SUBSEP); if (y[1] == k) c++ }
            printf "headline: %d test runs (%d missed in plan) belong to %d jobs with %s\n", n[k], m[k], c, k } }' \
    "$W/plan.csv" "$W/report.csv" "$W/replay_aligned.csv" >&2
# An independent check of replay's footprint: the plan's load on absolute time
# over the replayed span, recomputed from the plan file (periodic rows every
# day, one-off rows only at cycle * lcm + t), against the load folded over the
# one-day cycle (lib/morpheus/plan.h's conservative placement profile, which would
# count all nine days' one-offs on every day).
awk -F, 'FNR == 1 { next }
    FILENAME ~ /plan.csv$/ { if ($3 == "end") next
        step = $7; lcm = $8; L = $11 * $12; o = $6 / step; fold[o] += L
        if ($3 == "periodic") per[o] += L; else once[($5 * lcm + $6) / step] += L
        next }
    FILENAME ~ /\/aligned.csv$/ { if ($1 == "plan") fp = $8; next }
    $1 == "plan" { f = ($6 != "" ? $6 : $5); if (t0 == "" || $4 < t0) t0 = $4; if (f > t1) t1 = f }
    END { n = lcm / step
        for (g = int(t0 / step); g * step < t1; g++) { o = g % n; a = per[o] + once[g]; b = fold[o]
            if (a > pa) pa = a; if (b > pb) pb = b; if (b - a > pd) pd = b - a; A += a; B += b }
        printf "headline: plan footprint recomputed from the plan file on absolute time: %.0f cores (replay: %s; folded over one cycle it would be %.0f, with up to %.0f cores of other days one-offs at a step)\n", pa, fp, pb, pd }' \
    "$W/plan.csv" "$W/aligned.csv" "$W/replay_aligned.csv" >&2

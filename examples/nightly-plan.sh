#!/bin/bash
# nightly-plan.sh — the nightly reservation plan, end to end.
#
#   examples/nightly-plan.sh [TELEMETRY_DIR [STATE_DIR]]
#
# TELEMETRY_DIR (default examples/telemetry) holds last month's dump:
#   runs.csv      one row per job run   (job,instance,submit,start,end,input_avail,output_read,status)
#   usage.csv     per-run usage skylines (job,run,t,containers[,cores,mem_mb])
#   capacity.csv  optional: cluster capacity over the day (t,cores,mem_mb);
#                 otherwise $CAPACITY (default cores=1000,mem_mb=4096000)
# STATE_DIR (default ./nightly-state, or $SLOKIT_STATE) keeps the plan and
# last night's SLOs and skylines between runs:
#   plan.csv      the reservation plan (lcmpack's format, checksummed)
#   slo.csv, skyline.csv, skyfit-stats.csv   what tonight's plan was built from
#   load.csv      the load profile t,cores,mem_mb,cost
#   yarn.jsonl    one YARN reservation/submit body per reservation
#   plan.svg      the plan drawn by skyplot
#   report.txt    tonight's report (also printed)
#
# What it does: infer SLOs (sloinfer), fit skylines (skyfit), compare them
# with last night's, remove the reservations of jobs that changed or
# disappeared, place new and changed jobs into the existing plan
# incrementally (lcmpack --plan: old reservations stay where they are),
# emit YARN JSON, draw the plan and print what was decided.
#
# Safe to re-run: on the same input nothing changes and the plan is
# byte-identical.  Never leaves a half-written plan: everything is built in
# a scratch directory inside STATE_DIR and moved into place (rename(2)) only
# when every step has succeeded; a failure leaves last night's state as it was.
#
# Cron (every night at 01:30, after the telemetry export):
#   30 1 * * *  cd /srv/slokit && examples/nightly-plan.sh /data/telemetry/latest /srv/slokit/state >> /var/log/slokit-nightly.log 2>&1
set -euo pipefail
export LC_ALL=C

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
tel=${1:-$here/telemetry}
state=${2:-${SLOKIT_STATE:-./nightly-state}}
bin=${SLOKIT_BIN:-$root/build/bin}
export PATH="$bin:$PATH"
capacity=${CAPACITY:-cores=1000,mem=4096000}

die() { echo "nightly-plan: $*" >&2; exit 1; }
for f in runs.csv usage.csv; do [ -r "$tel/$f" ] || die "$tel/$f: missing (see the header of this script)"; done
for t in sloinfer skyfit lcmpack skyplot; do command -v "$t" >/dev/null || die "$t not found (run make first)"; done

mkdir -p "$state"
work=$(mktemp -d "$state/.tonight.XXXXXX")
trap 'rm -rf "$work"' EXIT

cap_opt=(--capacity "$capacity")
[ -r "$tel/capacity.csv" ] && cap_opt=(--capacity-file "$tel/capacity.csv")

# 1. SLOs and skylines from the dump.
sloinfer -q "$tel/runs.csv" -o "$work/slo.csv"
skyfit -q "$tel/usage.csv" --window 30d --stats "$work/skyfit-stats.csv" -o "$work/skyline.csv"

# 2. What changed since last night: a job's request is its SLO row (period,
#    a, d, status) and its skyline rows.  New, changed and gone jobs.
fingerprints() {  # FILE... -> "job<TAB>all of its rows" per job, sorted by job
    awk -F, 'FNR == 1 { next } { s[$1] = s[$1] "|" $0 } END { for (j in s) print j "\t" s[j] }' "$@" | sort
}
slo_key() { awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print "job,period,a,d,status"; next }
                     { print $c["job"] "," $c["period"] "," $c["a"] "," $c["d"] "," $c["status"] }' "$1"; }
slo_key "$work/slo.csv" > "$work/slo.key"
fingerprints "$work/slo.key" "$work/skyline.csv" > "$work/tonight.fp"
if [ -r "$state/plan.csv" ] && [ -r "$state/slo.csv" ] && [ -r "$state/skyline.csv" ]; then
    slo_key "$state/slo.csv" > "$work/last.key"
    fingerprints "$work/last.key" "$state/skyline.csv" > "$work/last.fp"
else
    : > "$work/last.fp"
fi
join -t "$(printf '\t')" -a1 -a2 -e NONE -o 0,1.2,2.2 "$work/last.fp" "$work/tonight.fp" |
    awk -F'\t' '$2 == "NONE" { print "new\t" $1; next }
                $3 == "NONE" { print "gone\t" $1; next }
                $2 != $3     { print "changed\t" $1 }' > "$work/changes"
new=$(awk '$1 == "new"' "$work/changes" | wc -l)
changed=$(awk '$1 == "changed"' "$work/changes" | wc -l)
gone=$(awk '$1 == "gone"' "$work/changes" | wc -l)

# 3. The plan: keep what did not change, free what changed or left, place the rest.
remove=()
if [ -r "$state/plan.csv" ]; then
    while IFS=$'\t' read -r what job; do
        [ "$what" = new ] && continue
        if awk -F, -v j="$job" 'NR > 1 && $2 == j { found = 1; exit } END { exit !found }' "$state/plan.csv"; then
            remove+=(--remove "$job")
        fi
    done < "$work/changes"
    plan_opt=(--plan "$state/plan.csv" "${remove[@]}")
else
    plan_opt=()
fi
# The whole night's batch is known here, so --improve polishes tonight's new
# placements (last night's reservations never move).
lcmpack "${plan_opt[@]}" --improve 5 --slo "$work/slo.csv" "${cap_opt[@]}" "$work/skyline.csv" \
    --load "$work/load.csv" -o "$work/plan.csv" 2> "$work/lcmpack.log" || {
    cat "$work/lcmpack.log" >&2; die "lcmpack failed; last night's plan is unchanged"; }

# 4. YARN reservations for the coming day, dated from the end of the dump.
at=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "submit") c = i; next }
              $c > m { m = $c } END { printf "%d\n", (int(m / 86400) + 1) * 86400 }' "$tel/runs.csv")
lcmpack -q --plan "$work/plan.csv" "${cap_opt[@]}" --format yarn --at "$at" -o "$work/yarn.jsonl"

# 5. The picture.
skyplot -q plan "$work/plan.csv" --load "$work/load.csv" --title "reservation plan" -o "$work/plan.svg"

# 6. The report.
{
    echo "slokit nightly plan — $(date -u +%Y-%m-%dT%H:%M:%SZ), telemetry $tel"
    awk -F, 'NR > 1 { n++; s[$8]++ } END { printf "SLOs:      %d jobs, %d actionable", n, s["actionable"];
             for (k in s) if (k != "actionable") printf ", %d %s", s[k], k; print "" }' "$work/slo.csv"
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { n++; s[$c["status"]]++ }
             END { printf "skylines:  %d jobs", n; for (k in s) printf ", %d %s", s[k], k; print "" }' "$work/skyfit-stats.csv"
    echo "changes:   $new new, $changed changed, $gone gone since last night"
    grep -E '^lcmpack: [0-9]+ requests:|^lcmpack: peak cost' "$work/lcmpack.log" | sed 's/^lcmpack: /plan:      /'
    grep -c "not placed" "$work/lcmpack.log" | awk '{ if ($1) print "refused:   " $1 " jobs (reasons below)" }'
    grep "not placed" "$work/lcmpack.log" | sed 's/^lcmpack: /  /' | head -20
    echo "yarn:      $(wc -l < "$work/yarn.jsonl") reservation bodies in $state/yarn.jsonl"
    echo "picture:   $state/plan.svg"
} > "$work/report.txt"

# 7. Commit tonight's state: each rename is atomic; the plan goes last so a
#    crash before it leaves last night's plan with last night's inputs.
for f in slo.csv skyline.csv skyfit-stats.csv load.csv yarn.jsonl plan.svg report.txt; do
    mv -f "$work/$f" "$state/$f"
done
mv -f "$work/plan.csv" "$state/plan.csv"
cat "$state/report.txt"

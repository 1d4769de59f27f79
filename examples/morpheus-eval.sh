#!/bin/bash
# morpheus-eval.sh — the Morpheus §9 evaluation, set up as the paper sets it
# up, on tracegen's Fig. 2a workload (--set preset=morpheus), over several
# seeds.  See docs/replay.md "The evaluation" for the setup table.
#
#   examples/morpheus-eval.sh [JOBS] [DAYS] [SEEDS] [WORKDIR]
#                             (default 200 20 "1 2 3" ./morpheus-eval)
#
# Per seed: the first 70% of the days train, the last 30% are replayed one
# day at a time.  Before each test day the nightly job itself
# (examples/nightly-plan.sh, its state kept from night to night) is run on
# the sliding window of the TRAIN days before that day, and the day's runs
# are replayed against that night's SLOs and plan:
#   static      the users' own provisioning (tracegen's truth), no idle
#               sharing: the paper's "worst case" baseline;
#   static+fair the same plus a max-min fair share of idle capacity;
#   plan+dra    the night's plan corrected by the DRA; jobs the plan holds
#               nothing for keep their manual provisioning (replay(1));
#   floor       every run alone with unlimited containers: the misses no
#               regime can avoid (late input, a deadline shorter than the run).
# Both regimes run on the same cluster: the peak of the users' provisioning
# over the test days.  They serve the same runs and the same work, so the
# cluster's utilization (work / capacity) is the same for both by
# construction; the footprint column is the peak each regime reserves.
# Prints one row per seed and the min / median / max over seeds.
set -euo pipefail
export LC_ALL=C
N=${1:-200}
DAYS=${2:-20}
SEEDS=${3:-1 2 3}
W=${4:-morpheus-eval}
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
# the tools: $SLOKIT_BIN, else those on PATH, else this checkout's build
if [ -z "${SLOKIT_BIN:-}" ]; then
    if command -v replay > /dev/null; then SLOKIT_BIN=$(dirname "$(command -v replay)"); else SLOKIT_BIN=$root/build/bin; fi
fi
export SLOKIT_BIN PATH="$SLOKIT_BIN:$PATH"
START=1767571200                               # 2026-01-05T00:00:00Z, tracegen's default
TRAIN=$((DAYS * 7 / 10))                       # training window, days
SPLIT=$((START + TRAIN * 86400))
END=$((START + DAYS * 86400))
BIG=cores=1e9,mem=1e15
mkdir -p "$W"
echo "morpheus-eval: $N jobs x $DAYS days, seeds $SEEDS: train $TRAIN days (sliding), replay $((DAYS - TRAIN)) days" >&2

# window FROM TO IN OUT: rows of IN whose run starts in [FROM, TO) (runs:
# column submit; usage: the run's first sample)
window() {
    awk -F, -v a="$1" -v b="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
        ("submit" in c) { if ($c["submit"] >= a && $c["submit"] < b) print; next }
        $c["run"] != run { run = $c["run"]; keep = $c["t"] >= a && $c["t"] < b } keep' "$3" > "$4"
}

for s in $SEEDS; do
    D="$W/seed$s"
    rm -rf "$D/state" "$D"/day-*.csv
    mkdir -p "$D/tel" "$D/state"
    tracegen -q runs --seed "$s" --count "$N" --days "$DAYS" --set preset=morpheus > "$D/runs.csv"
    tracegen -q usage --seed "$s" --count "$N" --days "$DAYS" --set preset=morpheus --truth "$D/truth.csv" > "$D/usage.csv"
    for ((day = SPLIT; day < END; day += 86400)); do
        window $((day - TRAIN * 86400)) $day "$D/runs.csv" "$D/tel/runs.csv"
        window $((day - TRAIN * 86400)) $day "$D/usage.csv" "$D/tel/usage.csv"
        CAPACITY=$BIG bash "$here/nightly-plan.sh" "$D/tel" "$D/state" > "$D/nightly.log" 2>&1 ||
            { cat "$D/nightly.log" >&2; exit 1; }
        window $day $((day + 86400)) "$D/usage.csv" "$D/test.csv"
        cp "$D/state/slo.csv" "$D/slo-$day.csv"
        cp "$D/state/plan.csv" "$D/plan-$day.csv"
        cp "$D/test.csv" "$D/test-$day.csv"
        # the users' cluster: the peak of their own provisioning on this day
        replay -q --regime static --idle none --slo "$D/slo-$day.csv" --provisioned "$D/truth.csv" \
            --capacity $BIG "$D/test-$day.csv" --summary "$D/size-$day.csv" > /dev/null
    done
    CORES=$(awk -F, 'FNR == 2 && $8 > m { m = $8 } END { printf "%d\n", m + 0.5 }' "$D"/size-*.csv)
    CAP=cores=$CORES,mem=1e15
    for ((day = SPLIT; day < END; day += 86400)); do
        common=(--slo "$D/slo-$day.csv" --provisioned "$D/truth.csv" "$D/test-$day.csv")
        replay -q --regime static --idle none --capacity "$CAP" "${common[@]}" --summary "$D/day-static-$day.csv" > /dev/null
        replay -q --regime static --idle fair --capacity "$CAP" "${common[@]}" --summary "$D/day-fair-$day.csv" > /dev/null
        replay -q --regime static --idle fair --capacity $BIG "${common[@]}" --summary "$D/day-floor-$day.csv" > /dev/null
        replay -q --regime plan+dra --plan "$D/plan-$day.csv" --capacity "$CAP" "${common[@]}" \
            --summary "$D/day-dra-$day.csv" > /dev/null
        replay -q --regime plan --plan "$D/plan-$day.csv" --capacity "$CAP" "${common[@]}" \
            --summary "$D/day-plan-$day.csv" > /dev/null
    done
    # per seed: runs, missed per regime, footprints (peak over the days)
    awk -F, -v seed="$s" -v cores="$CORES" 'FNR == 1 { next }
        { r = FILENAME; sub(/.*day-/, "", r); sub(/-[0-9]+\.csv$/, "", r)
          runs[r] += $3; miss[r] += $5; if ($8 > fp[r]) fp[r] = $8 }
        END { printf "%s,%d,%d,%d,%d,%d,%d,%d,%.0f,%.0f,%.0f\n", seed, cores, runs["static"], miss["static"],
              miss["fair"], miss["plan"], miss["dra"], miss["floor"], fp["static"], fp["plan"], fp["dra"] }' \
        "$D"/day-*.csv > "$D/result.csv"
done

echo "seed,cluster_cores,runs,missed_static,missed_static_fair,missed_plan,missed_plan_dra,missed_floor,footprint_static,footprint_plan,footprint_plan_dra" > "$W/results.csv"
cat "$W"/seed*/result.csv >> "$W/results.csv"
python3 - "$W/results.csv" <<'EOF'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
def ratio(a, b):
    return a / b if b else float("inf")
print("%-5s %6s %6s %7s %7s %6s %8s %6s %8s %8s %10s %10s" % ("seed", "cores", "runs", "static", "st+fair",
      "plan", "plan+dra", "floor", "fewer(x)", "above_fl", "fp_plan", "fp_plan+dra"))
fewer, above, foot = [], [], []
for r in rows:
    n, st, dr, fl = int(r["runs"]), int(r["missed_static"]), int(r["missed_plan_dra"]), int(r["missed_floor"])
    f = ratio(st, dr)
    a = ratio(st - fl, dr - fl) if dr > fl else float("inf")
    fs = float(r["footprint_static"])
    fp = float(r["footprint_plan"]) / fs - 1
    fd = float(r["footprint_plan_dra"]) / fs - 1
    fewer.append(f); above.append(a); foot.append(fp)
    print("%-5s %6s %6d %7d %7s %6s %8d %6d %8.2f %8.2f %+9.1f%% %+9.1f%%" % (r["seed"], r["cluster_cores"], n,
          st, r["missed_static_fair"], r["missed_plan"], dr, fl, f, a, 100 * fp, 100 * fd))
for name, v in (("fewer violations (static / plan+dra)", fewer),
                ("fewer violations above the floor", above),
                ("footprint change (plan vs static)", foot)):
    fmt = "%+.1f%%" if "footprint" in name else "%.2fx"
    conv = (lambda x: 100 * x) if "footprint" in name else (lambda x: x)
    print("%s: min %s median %s max %s" % (name, fmt % conv(min(v)), fmt % conv(statistics.median(v)),
          fmt % conv(max(v))))
EOF

#!/bin/bash
# morpheus-eval.sh — the Morpheus §9 evaluation, set up as the paper sets it
# up, on tracegen's Fig. 2a workload (--set preset=morpheus), over several
# seeds.  See docs/replay.md "The evaluation" for the setup table.
#
#   examples/morpheus-eval.sh [JOBS] [DAYS] [SEEDS] [WORKDIR]
#                             (default 1000 30 "1 2 3" ./morpheus-eval: the paper's size)
#
# Per seed: the first 70% of the days train, the last 30% are replayed one
# day at a time.  Before each test day the nightly job itself
# (examples/nightly-plan.sh, its state kept from night to night) is run on
# the sliding window of the TRAIN days before that day, and the day's runs
# are replayed against that night's SLOs and plan:
#   static      the users' own provisioning (tracegen's truth), no idle
#               sharing: the paper's "worst case" baseline;
#   static+fair the same plus a max-min fair share of idle capacity;
#   plan        the night's reservations alone; jobs the plan holds nothing
#               for keep their manual provisioning (replay(1));
#   plan+dra    the night's plan corrected by the DRA, the same fallback;
#   floor       every run alone with unlimited containers: the misses no
#               regime can avoid (late input, a deadline shorter than the run).
# Every run of the test day is replayed in every regime.  Runs of jobs
# without a usable SLO (sloinfer's status not actionable, or no row) run on
# their manual provisioning in every regime, as the paper keeps them, so they
# take their share of the cluster; they are judged against no deadline and
# counted apart (runs_no_slo), never as met or missed (replay_slo below).
# Both regimes run on the same cluster: the peak of the users' provisioning
# over the test days.  They serve the same runs and the same work, so the
# cluster's utilization (work / capacity) is the same for both by
# construction; the footprint column is the peak each regime reserves.
# Prints one row per seed and the min / median / max over seeds, and the
# wall time.
#
# Speed: the seeds run at once; in each, the nights run in order (each
# night's plan starts from the last), the replays $MORPHEUS_EVAL_JOBS at once
# (default 2).  The usage is split by day once and each night's window is a
# merge of day files (sort -m) rather than a pass over the whole trace.
set -euo pipefail
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
. "$here/common.sh"
ex_args morpheus-eval "$0" 4 "$@"
N=${1:-1000}
DAYS=${2:-30}
SEEDS=${3:-1 2 3}
W=${4:-morpheus-eval}
JOBS=${MORPHEUS_EVAL_JOBS:-2}                  # replays at once per seed
ex_whole morpheus-eval JOBS "$N"
ex_whole morpheus-eval DAYS "$DAYS"
for s in $SEEDS; do ex_whole morpheus-eval "a seed of SEEDS" "$s" 0; done
[ -n "${SEEDS// /}" ] || ex_fail morpheus-eval "SEEDS is a list of seeds, not '$SEEDS'"
ex_whole morpheus-eval MORPHEUS_EVAL_JOBS "$JOBS"
ex_tools morpheus-eval "$root" tracegen sloinfer skyfit lcmpack replay
AWK=$(command -v mawk || command -v awk)       # mawk: the day split and the counts in a third of gawk's time
START=1767571200                               # 2026-01-05T00:00:00Z, tracegen's default
TRAIN=$((DAYS * 7 / 10))                       # training window, days
BIG=cores=1e9,mem=1e15
NOSLO_P=31622400                               # 366 days: the longest period an SLO row may have
mkdir -p "$W"
t0=$(date +%s)
echo "morpheus-eval: $N jobs x $DAYS days, seeds $SEEDS: train $TRAIN days (sliding), replay $((DAYS - TRAIN)) days" >&2

# split_days IN COL PREFIX: one pass over IN; each row goes to PREFIX-K.csv,
# K the day (from START) its run starts: the run table by COL (submit), the
# usage by the run's first sample (rows of one run stay together).  Each
# day file keeps IN's order (by job), so a window of days is a merge.
split_days() {
    head -n 1 "$1" > "$3-header.csv"
    for ((k = 0; k < DAYS; k++)); do : > "$3-$k.csv"; done
    "$AWK" -F, -v s=$START -v col="$2" -v out="$3" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        col == "submit" || $c["run"] != run {
            run = $c["run"]; x = col == "submit" ? $c["submit"] : $c["t"]
            f = out "-" (x < s ? "early" : int((x - s) / 86400)) ".csv" }
        { print > f }' "$1"
}

# window PREFIX FROM TO OUT: the rows of days [FROM, TO) in IN's order
window() {
    local files=() k
    for ((k = $2; k < $3; k++)); do files+=("$1-$k.csv"); done
    { cat "$1-header.csv"; sort -m -s -t, -k1,1 "${files[@]}"; } > "$4"
}

# replay_slo SLO USAGE OUT NOSLO: the SLO file replay is given.  A job with
# a usable SLO keeps its row; a job of USAGE without one (a status other
# than actionable/overridden, or no row) is still replayed, on its manual
# provisioning, under a row that never judges it (period 366 days, window
# the whole period, status overridden); its name goes to NOSLO, and its
# runs are counted apart as "no SLO", never as met or missed.  lcmpack never
# sees these rows: the plan holds nothing for these jobs, so the plan regimes
# give them their manual provisioning as well (replay --provisioned).
replay_slo() {
    "$AWK" -F, -v OFS=, -v P=$NOSLO_P -v nl="$4" '
        NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; nf = NF; print; next }
        NR == FNR { seen[$c["job"]] = 1
            st = ("status" in c) ? $c["status"] : "actionable"; src = ("source" in c) ? $c["source"] : ""
            if (st == "actionable" || st == "overridden" || src == "overridden") { print; next }
            $c["period"] = P; $c["a"] = 0; $c["d"] = P; $c["status"] = "overridden"
            print; print $c["job"] > nl; next }
        FNR == 1 { next }
        !($1 in seen) { seen[$1] = 1; $0 = ""
            for (i = 1; i <= nf; i++) $i = ""
            $c["job"] = $1; $c["period"] = P; $c["a"] = 0; $c["d"] = P; $c["status"] = "overridden"
            print; print $c["job"] > nl }' "$1" "$2" > "$3"
    touch "$4"
}

# count TAG NOSLO: replay's per-run rows (stdin) -> TAG,regime,runs,missed,
# no_slo_runs (runs of the jobs in NOSLO, which are never counted missed)
count() {
    "$AWK" -F, -v OFS=, -v tag="$1" 'NR == FNR { ns[$1] = 1; next }
        FNR == 1 { next }
        { r = $1; if ($2 in ns) nsr[r]++; else { runs[r]++; if ($7 != 1) miss[r]++ }; seen[r] = 1 }
        END { for (r in seen) print tag, r, runs[r] + 0, miss[r] + 0, nsr[r] + 0 }' "$2" -
}

# throttle: wait until fewer than JOBS background jobs run
throttle() { while (( $(jobs -rp | wc -l) >= JOBS )); do wait -n || true; done; }

run_seed() {
    local s=$1 D="$W/seed$1" k day
    rm -rf "$D"
    mkdir -p "$D/tel" "$D/state" "$D/days"
    tracegen -q runs --seed "$s" --count "$N" --days "$DAYS" --set preset=morpheus > "$D/runs.csv" &
    tracegen -q usage --seed "$s" --count "$N" --days "$DAYS" --set preset=morpheus --truth "$D/truth.csv" > "$D/usage.csv"
    wait $!
    split_days "$D/runs.csv" submit "$D/days/runs" &
    split_days "$D/usage.csv" t "$D/days/usage"
    wait $!
    for ((k = TRAIN; k < DAYS; k++)); do
        day=$((START + k * 86400))
        window "$D/days/runs" $((k - TRAIN)) $k "$D/tel/runs.csv"
        window "$D/days/usage" $((k - TRAIN)) $k "$D/tel/usage.csv"
        CAPACITY=$BIG bash "$here/nightly-plan.sh" "$D/tel" "$D/state" > "$D/nightly.log" 2>&1 ||
            { cat "$D/nightly.log" >&2; return 1; }
        cp "$D/state/plan.csv" "$D/plan-$day.csv"
        cp "$D/state/slo.csv" "$D/nightly-slo-$day.csv"
        cat "$D/days/usage-header.csv" "$D/days/usage-$k.csv" > "$D/test-$day.csv"
        replay_slo "$D/nightly-slo-$day.csv" "$D/test-$day.csv" "$D/slo-$day.csv" "$D/noslo-$day.txt"
        # the users' cluster: the peak of their own provisioning on this day
        throttle
        { replay -q --regime static --idle none --slo "$D/slo-$day.csv" --provisioned "$D/truth.csv" \
            --capacity $BIG "$D/test-$day.csv" --summary "$D/size-$day.csv" > /dev/null || touch "$D/failed"; } &
    done
    wait
    [ ! -e "$D/failed" ] || return 1
    local cores cap
    cores=$("$AWK" -F, 'FNR == 2 && $8 > m { m = $8 } END { printf "%d\n", m + 0.5 }' "$D"/size-*.csv)
    cap=cores=$cores,mem=1e15
    for ((k = TRAIN; k < DAYS; k++)); do
        day=$((START + k * 86400))
        local common=(--slo "$D/slo-$day.csv" --provisioned "$D/truth.csv" "$D/test-$day.csv")
        local ns="$D/noslo-$day.txt"
        throttle
        { replay -q --regime static --idle none --capacity "$cap" "${common[@]}" --summary "$D/sum-static-$day.csv" |
            count static "$ns" > "$D/cnt-static-$day.csv" || touch "$D/failed"; } &
        throttle
        { replay -q --regime static --idle fair --capacity "$cap" "${common[@]}" --summary "$D/sum-fair-$day.csv" |
            count fair "$ns" > "$D/cnt-fair-$day.csv" || touch "$D/failed"; } &
        throttle
        { replay -q --regime static --idle fair --capacity $BIG "${common[@]}" --summary "$D/sum-floor-$day.csv" |
            count floor "$ns" > "$D/cnt-floor-$day.csv" || touch "$D/failed"; } &
        throttle
        { replay -q --regime plan,plan+dra --plan "$D/plan-$day.csv" --capacity "$cap" "${common[@]}" \
            --summary "$D/sum-plans-$day.csv" | count plans "$ns" > "$D/cnt-plans-$day.csv" || touch "$D/failed"; } &
    done
    wait
    [ ! -e "$D/failed" ] || return 1
    # per seed: runs, missed per regime, footprints (peak over the days), no-SLO runs
    "$AWK" -F, -v seed="$s" -v cores="$cores" '
        FILENAME ~ /cnt-/ { k = $1 == "plans" ? $2 : $1; runs[k] += $3; miss[k] += $4; ns[k] += $5; next }
        FNR == 1 { next }
        { k = FILENAME ~ /sum-plans-/ ? $1 : FILENAME; sub(/.*sum-/, "", k); sub(/-[0-9]+\.csv$/, "", k)
          if ($8 > fp[k]) fp[k] = $8 }
        END { printf "%s,%d,%d,%d,%d,%d,%d,%d,%.0f,%.0f,%.0f,%d\n", seed, cores, runs["static"], miss["static"],
              miss["fair"], miss["plan"], miss["plan+dra"], miss["floor"], fp["static"], fp["plan"], fp["plan+dra"],
              ns["static"] }' "$D"/cnt-*.csv "$D"/sum-*.csv > "$D/result.csv"
}

pids=()
for s in $SEEDS; do
    run_seed "$s" > "$W/seed$s.log" 2>&1 &
    pids+=($!)
done
fail=0
set -- $SEEDS
for p in "${pids[@]}"; do
    wait "$p" || { echo "morpheus-eval: seed $1 failed:" >&2; cat "$W/seed$1.log" >&2; fail=1; }
    shift
done
[ $fail = 0 ] || exit 1

echo "seed,cluster_cores,runs,missed_static,missed_static_fair,missed_plan,missed_plan_dra,missed_floor,footprint_static,footprint_plan,footprint_plan_dra,runs_no_slo" > "$W/results.csv"
for s in $SEEDS; do cat "$W/seed$s/result.csv"; done >> "$W/results.csv"
python3 - "$W/results.csv" <<'EOF'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
def ratio(a, b):
    """a / b, or None when b is not positive (no finite ratio: never print inf)."""
    return a / b if b > 0 else None
def x(v):
    return "-" if v is None else "%.2f" % v
print("%-5s %7s %6s %6s %7s %7s %6s %8s %6s %8s %8s %10s %10s" % ("seed", "cores", "runs", "no_slo", "static",
      "st+fair", "plan", "plan+dra", "floor", "fewer(x)", "above_fl", "fp_plan", "fp_plan+dra"))
fewer, above, foot = [], [], []
for r in rows:
    n, st, dr, fl = int(r["runs"]), int(r["missed_static"]), int(r["missed_plan_dra"]), int(r["missed_floor"])
    f = ratio(st, dr)
    a = ratio(st - fl, dr - fl)
    fs = float(r["footprint_static"])
    fp = float(r["footprint_plan"]) / fs - 1
    fd = float(r["footprint_plan_dra"]) / fs - 1
    fewer.append(f); above.append(a); foot.append(fp)
    print("%-5s %7s %6d %6s %7d %7s %6s %8d %6d %8s %8s %+9.1f%% %+9.1f%%" % (r["seed"], r["cluster_cores"], n,
          r["runs_no_slo"], st, r["missed_static_fair"], r["missed_plan"], dr, fl, x(f), x(a), 100 * fp, 100 * fd))
print("(-: no finite ratio; plan+dra missed no run, or none above the floor)")
for name, v in (("fewer violations (static / plan+dra)", fewer),
                ("fewer violations above the floor", above),
                ("footprint change (plan vs static)", foot)):
    fmt = "%+.1f%%" if "footprint" in name else "%.2fx"
    conv = (lambda x: 100 * x) if "footprint" in name else (lambda x: x)
    d = [e for e in v if e is not None]
    if not d:
        print("%s: - in every seed" % name)
        continue
    left = "" if len(d) == len(v) else " (%d of %d seeds; - in the others)" % (len(d), len(v))
    print("%s: min %s median %s max %s%s" % (name, fmt % conv(min(d)), fmt % conv(statistics.median(d)),
          fmt % conv(max(d)), left))
EOF
echo "morpheus-eval: $(( $(date +%s) - t0 )) s wall" >&2

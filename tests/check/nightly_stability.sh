#!/bin/bash
# nightly_stability.sh — two nights on a sliding 30-day dump with no real
# change in the jobs: how many of night 1's reservations are byte-identical
# on night 2 (issue: "keep >= 95%").
#
#   tests/check/nightly_stability.sh BIN DIR [JOBS [CAPACITY [TOL [MIN_PERCENT]]]]
#
# tracegen runs/usage over 31 days (seed 1) into DIR; night 1 = the runs
# submitted in days 0-29, night 2 = days 1-30 (usage rows of those runs);
# each night: sloinfer, skyfit --window 30d, lcmpack --at (the day after the
# dump) --horizon 48h, night 2 with --plan (night 1) --stable TOL.  The
# share counts night 1's reservations still wanted on night 2 (periodic,
# and one-off ones that have not ended by night 2's --at), compared row by
# row here (not by lcmpack).  Prints "stable: K of N ... (P%)"; exits 1 when
# MIN_PERCENT is given and P is below it.
set -euo pipefail
B=$(cd "$1" && pwd) dir=$2 jobs=${3:-60} cap=${4:-cores=600,mem=2400000} tol=${5:-10%} min=${6:-}
export PATH=$B:$PATH LC_ALL=C
mkdir -p "$dir" && cd "$dir"
[ -s runs31.csv ] || tracegen -q runs --count "$jobs" --days 31 -o runs31.csv
[ -s usage31.csv ] || tracegen -q usage --count "$jobs" --days 31 -o usage31.csv
t0=$(awk -F, 'NR > 1 && (m == "" || $3 < m) { m = $3 } END { print int(m / 86400) * 86400 }' runs31.csv)
cut_days() { # FROM TO OUTDIR
    mkdir -p "$3"
    awk -F, -v a="$1" -v b="$2" 'NR == 1 || ($3 >= a && $3 < b)' runs31.csv > "$3/runs.csv"
    awk -F, 'NR == FNR { if (FNR > 1) keep[$2] = 1; next } FNR == 1 || ($2 in keep)' "$3/runs.csv" usage31.csv > "$3/usage.csv"
}
cut_days "$t0" $((t0 + 30 * 86400)) n1
cut_days $((t0 + 86400)) $((t0 + 31 * 86400)) n2
for n in 1 2; do
    sloinfer -q n$n/runs.csv -o n$n/slo.csv
    skyfit -q --window 30d n$n/usage.csv -o n$n/sky.csv
done
at1=$((t0 + 30 * 86400)); at2=$((at1 + 86400))
lcmpack -q --slo n1/slo.csv --capacity "$cap" n1/sky.csv --at $at1 --horizon 48h -o n1/plan.csv
lcmpack --plan n1/plan.csv --stable "$tol" --slo n2/slo.csv --capacity "$cap" n2/sky.csv --at $at2 \
    --horizon 48h -o n2/plan.csv --report n2/decisions.csv --yarn-delta n2/yarn 2> n2/log
grep -E -- '--stable|YARN delta' n2/log
python3 - n1/plan.csv n2/plan.csv $at2 "$min" <<'PY'
import collections, sys
def reservations(path):
    d = collections.OrderedDict()
    for line in open(path).read().splitlines()[1:]:
        f = line.split(',')
        if f[2] != 'end':
            d.setdefault((f[1], f[2], f[3] if f[2] == 'once' else ''), []).append(line)
    return d
a, b = reservations(sys.argv[1]), reservations(sys.argv[2])
at = float(sys.argv[3])
def wanted(k, rows):
    if k[1] != 'once':
        return True
    f = rows[-1].split(',')          # the last step: cycle*lcm + t + step
    return float(f[4]) * float(f[7]) + float(f[5]) + float(f[6]) > at
keys = [k for k, r in a.items() if wanted(k, r)]
same = sum(1 for k in keys if b.get(k) == a[k])
p = 100.0 * same / max(1, len(keys))
print(f"stable: {same} of {len(keys)} reservations of night 1 byte-identical on night 2 ({p:.1f}%)")
sys.exit(1 if sys.argv[4] and p < float(sys.argv[4]) else 0)
PY

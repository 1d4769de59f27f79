#!/bin/sh
# skyfit_refusals.sh SEED DIR: the headline's training pipeline (tracegen
# --seed SEED runs and usage of 1000 jobs over 30 days, train on the first
# 21: sloinfer, skyfit --last 10 --round, one lcmpack pass at the split)
# with and without skyfit --runs; prints the jobs lcmpack rejects and, of
# them, those whose skyline length is set by a run (longest_run in --stats)
# longer than 1.4x the median end - start of the job's last 10 training
# runs.  A measurement for docs/skyfit.md, not a test (a few minutes);
# the tools come from PATH (e.g. PATH=$PWD/build/bin:$PATH).
set -eu
SEED=$1; W=$2; N=1000; DAYS=30
mkdir -p "$W"
START=1767571200
SPLIT=$((START + DAYS * 86400 * 7 / 10)); SPLIT=$((SPLIT - SPLIT % 86400))
if [ ! -s "$W/train_usage.csv" ]; then
  tracegen -q runs --seed $SEED --count $N --days $DAYS > "$W/runs.csv"
  tracegen -q usage --seed $SEED --count $N --days $DAYS > "$W/usage.csv"
  awk -F, -v s=$SPLIT 'NR == 1 || $3 < s' "$W/runs.csv" > "$W/train_runs.csv"
  awk -F, -v s=$SPLIT 'NR == 1 || $3 < s' "$W/usage.csv" > "$W/train_usage.csv"
  sloinfer -q "$W/train_runs.csv" > "$W/slo.csv"
fi
for v in before after; do
  extra=; [ $v = after ] && extra="--runs $W/train_runs.csv"
  skyfit -q --last 10 --round $extra --stats "$W/st_$v.csv" "$W/train_usage.csv" > "$W/sky_$v.csv"
  lcmpack -q --slo "$W/slo.csv" --capacity cores=1e9,mem=1e15 --at $SPLIT "$W/sky_$v.csv" -o "$W/plan_$v.csv" --report "$W/rep_$v.csv"
  # refused jobs; of them, those whose longest kept run is > 1.4x the median
  # length (end - start) of the job's last 10 training runs
  python3 - "$W" $v <<'PY'
import csv, sys, statistics
w, v = sys.argv[1], sys.argv[2]
runs = {}
for r in csv.DictReader(open(w + "/train_runs.csv")):
    runs.setdefault(r["job"], []).append((float(r["start"]), r["instance"], float(r["end"]) - float(r["start"])))
rej = sorted({r["job"] for r in csv.DictReader(open(w + "/rep_%s.csv" % v)) if r["status"] == "rejected"})
st = {r["job"]: r for r in csv.DictReader(open(w + "/st_%s.csv" % v))}
strag = []
for j in rej:
    last = sorted(runs.get(j, []))[-10:]
    med = statistics.median([x[2] for x in last]) if last else 0
    L = {x[1]: x[2] for x in last}
    lr = st[j]["longest_run"] if j in st else ""
    if lr in L and L[lr] > 1.4 * med:
        strag.append("%s(%s %.0fs, median %.0fs)" % (j, lr, L[lr], med))
print("%s: %d rejected: %s; set by a straggler > 1.4x median: %d %s" % (v, len(rej), " ".join(rej), len(strag), " ".join(strag)))
PY
done

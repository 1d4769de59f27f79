#!/bin/bash
# harvest-scheduling.sh — the harvesting paper's task-scheduling headline
# (seed 003 §6, Figs. 13-14): average batch job time and killed tasks of
# class-aware scheduling (YARN-H/Tez-H: tenantclass + classpick's Algorithm
# 1) against YARN-PT across the spectrum of primary-tenant utilization, under
# both of the paper's scalings (linear with saturation, and n-th root), five
# runs per point with min/avg/max, as the paper sets it up:
#   - servers of 12 cores with 33% (4 cores) kept for the primary tenants;
#   - one month replayed, out of sample: the classes and each tenant's
#     average and peak are learned by tenantclass on the month before it
#     (classpick --simulate --sample out, the default);
#   - the same job stream at every utilization (the paper scales the
#     primary tenants' utilization, not the jobs): the job count is fixed
#     from the unscaled trace at --load 0.5.
#
#   examples/harvest-scheduling.sh [OUTDIR]
#
# Environment (defaults in brackets):
#   TENANTS [200]  (12,782 servers; 60: 3,341) SEEDS ["1 2 3 4 5"]
#   LINEAR ["0.5 0.75 1 1.25 1.5"]  scale factors (tracegen --set scale=K)
#   ROOT   ["0.5 0.7 1 1.4 2"]      n of the n-th root (tracegen --set root=N;
#                                   below 1 a power, to reach low utilizations)
#   JOBS [2] runs in parallel
# Writes OUTDIR/runs.csv (scaling,param,seed + classpick's two rows) and
# prints the summary table (markdown) on stdout.
# At the defaults: about 510 s CPU, some 4-5 minutes on 2 idle cores (docs/classpick.md).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
. "$here/common.sh"
ex_args harvest-scheduling "$0" 1 "$@"
out=${1:-harvest-scheduling.out}
TENANTS=${TENANTS:-200} SEEDS=${SEEDS:-1 2 3 4 5} JOBS=${JOBS:-2}
LINEAR=${LINEAR:-0.5 0.75 1 1.25 1.5} ROOT=${ROOT:-0.5 0.7 1 1.4 2}
ex_whole harvest-scheduling TENANTS "$TENANTS"
ex_whole harvest-scheduling JOBS "$JOBS"
for s in $SEEDS; do ex_whole harvest-scheduling "a seed of SEEDS" "$s" 0; done
for v in $LINEAR $ROOT; do ex_number harvest-scheduling "a factor of LINEAR or ROOT" "$v"; done
ex_tools harvest-scheduling "$root" tracegen tenantclass classpick
mkdir -p "$out"
export LC_ALL=C
t0=$(date +%s)

# one 60-day trace per scaling point (the unscaled one shared by both
# scalings); tenantclass learns classes on days 1-30 only
prepare() { # NAME SETTING
    local d="$out/$1"
    mkdir -p "$d"
    [ -s "$d/series.csv" ] && return 0
    tracegen tenants --seed 1 --count "$TENANTS" --days 60 --set "$2" --truth "$d/truth.csv" -q -o "$d/series.csv"
    awk -F, 'NR == 2 { s = $2 + 30 * 86400 } NR == 1 || $2 < s' "$d/series.csv" >"$d/history.csv"
    tenantclass -q --servers "$d/truth.csv" --classes "$d/classes.csv" -o "$d/tenants.csv" "$d/history.csv"
    rm -f "$d/history.csv"
}
simulate() { # NAME SEED [options]
    local d="$out/$1" s=$2
    shift 2
    classpick -q --simulate --seed "$s" --classes "$d/classes.csv" --tenants "$d/tenants.csv" \
        --series "$d/series.csv" --servers "$d/truth.csv" "$@" -o "$d/sim.$s.csv"
}
export -f prepare simulate
export out TENANTS

points=()
for k in $LINEAR; do points+=("linear $k scale=$k"); done
for n in $ROOT; do points+=("root $n root=$n"); done
# traces (the unscaled point once), in parallel
for p in "${points[@]}"; do
    set -- $p
    [ "$3" = "root=1" ] && continue
    echo "$1-$2 $3"
done | xargs -P "$JOBS" -L 1 bash -c 'prepare "$0" "$1"'
[ -d "$out/root-1" ] || ln -sfn linear-1 "$out/root-1"

# the job count: the unscaled trace at --load 0.5, first seed
first=${SEEDS%% *}
simulate linear-1 "$first"
njobs=$(awk -F, 'NR == 2 { print $2 }' "$out/linear-1/sim.$first.csv")
for p in "${points[@]}"; do
    set -- $p
    for s in $SEEDS; do
        [ "$1-$2" = linear-1 ] && [ "$s" = "$first" ] && continue
        [ "$1-$2" = root-1 ] && continue
        echo "$1-$2 $s"
    done
done | xargs -P "$JOBS" -L 1 bash -c 'simulate "$0" "$1" --jobs '"$njobs"

{
    echo "scaling,param,seed,policy,jobs,finished,tasks_started,tasks_killed,mean_exec_s,p50_exec_s,p95_exec_s,primary_util"
    for p in "${points[@]}"; do
        set -- $p
        for s in $SEEDS; do
            awk -F, -v OFS=, -v a="$1" -v b="$2" -v s="$s" 'NR > 1 { print a, b, s, $0 }' "$out/$1-$2/sim.$s.csv"
        done
    done
} >"$out/runs.csv"

echo "## Harvesting §6 task scheduling: $TENANTS tenants, $njobs jobs a month, seeds $SEEDS"
echo
echo "| scaling | primary util | YARN-PT job time s (min / avg / max) | class-aware job time s | reduction % (min / avg / max) | killed: YARN-PT | class-aware | fewer kills % |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
awk -F, '
    NR == 1 { next }
    { k = $1 " " $2; if (!(k in seen)) { seen[k] = 1; order[++n] = k; util[k] = $12 }
      id = k SUBSEP $3
      if ($4 == "yarn-pt") { pt[id] = $9; kp[id] = $8 } else { h[id] = $9; kh[id] = $8 }
      seeds[k, $3] = 1; ns[k] += ($4 == "yarn-pt") }
    END {
      for (i = 1; i <= n; i++) {
        k = order[i]; split(k, kk, " ")
        mn = 1e300; mx = -1e300; sp = sh = 0; rmin = 1e300; rmax = -1e300; rs = 0; kps = khs = 0; pmin = hmin = 1e300; pmax = hmax = -1e300
        for (x in seeds) { split(x, q, SUBSEP); if (q[1] != k) continue; id = k SUBSEP q[2]
          sp += pt[id]; sh += h[id]; kps += kp[id]; khs += kh[id]
          if (pt[id] < pmin) pmin = pt[id]; if (pt[id] > pmax) pmax = pt[id]
          if (h[id] < hmin) hmin = h[id]; if (h[id] > hmax) hmax = h[id]
          r = 100 * (pt[id] - h[id]) / pt[id]; rs += r; if (r < rmin) rmin = r; if (r > rmax) rmax = r }
        m = ns[k]; fk = kps > 0 ? 100 * (kps - khs) / kps : 0
        printf "| %s %s | %.1f%% | %.0f / %.0f / %.0f | %.0f / %.0f / %.0f | %.1f / %.1f / %.1f | %.0f | %.0f | %.0f |\n",
               kk[1], kk[2], 100 * util[k], pmin, sp / m, pmax, hmin, sh / m, hmax, rmin, rs / m, rmax,
               kps / m, khs / m, fk
      }
    }' "$out/runs.csv"
echo
echo "($(($(date +%s) - t0)) s; every run in $out/runs.csv)"

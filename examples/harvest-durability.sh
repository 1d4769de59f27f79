#!/bin/bash
# harvest-durability.sh — the harvesting paper's durability headline (seed 003
# §6, Fig. 15: lost blocks over a year, 3 and 4 replicas, HDFS-H's Algorithm 2
# against HDFS-Stock, five runs with min/avg/max) and the read availability of
# the same runs (Fig. 16 at the trace's own utilization), as the paper sets
# it up:
#   - re-creation from every server holding a surviving copy, each throttled
#     (replplace --rebuild sources, the default), 30 blocks/h per sender;
#   - racks independent of tenants (--racks mixed, the default) for the stock
#     policy's rack rule;
#   - Algorithm 2 puts no new replica on a busy server (--busy-dest avoid);
#   - a datacenter-scale cluster (SERVERS) and the Google 2011 machine
#     events as real failures where the data is present.
#
#   examples/harvest-durability.sh [OUTDIR]
#
# Environment (defaults in brackets):
#   SERVERS [10000]  TENANTS [400]  BLOCKS [2000000]  DAYS [365]
#   SEEDS ["1 2 3 4 5"] (one simulation per seed: events and placement)
#   JOBS [2] simulations in parallel
#   GOOGLE [../shared/data/google-2011/machine_events-part-00000.csv.gz
#           next to the checkout; none: the Google part is left out]; GBLOCKS [2000000]
#   The paper's size is BLOCKS=4000000 (its datacenters' server counts are
#   not given; "thousands of servers").
# Writes OUTDIR/synthetic.csv and OUTDIR/google.csv (one row per seed, policy
# and replica count) and prints the summary tables (markdown) on stdout.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
. "$here/common.sh"
ex_args harvest-durability "$0" 1 "$@"
out=${1:-harvest-durability.out}
SERVERS=${SERVERS:-10000} TENANTS=${TENANTS:-400} BLOCKS=${BLOCKS:-2000000} DAYS=${DAYS:-365}
SEEDS=${SEEDS:-1 2 3 4 5} JOBS=${JOBS:-2} GBLOCKS=${GBLOCKS:-2000000}
for v in SERVERS TENANTS BLOCKS JOBS GBLOCKS; do eval "ex_whole harvest-durability $v \"\$$v\""; done
ex_number harvest-durability DAYS "$DAYS"
for s in $SEEDS; do ex_whole harvest-durability "a seed of SEEDS" "$s" 0; done
ex_tools harvest-durability "$root" replplace tracegen
if [ -z "${GOOGLE:-}" ]; then
    g="$root/../shared/data/google-2011/machine_events-part-00000.csv.gz"
    if [ -r "$g" ]; then GOOGLE=$g; fi
fi
mkdir -p "$out"
export LC_ALL=C

# one simulation per seed; rows get the seed in front
run_seeds() { # NAME TENANTS BLOCKS [replplace options...]
    local name=$1 ten=$2 blocks=$3
    shift 3
    printf '%s\n' $SEEDS | xargs -P "$JOBS" -I{} sh -c '
        s=$1; o=$2; ten=$3; blocks=$4; shift 4
        replplace -q --simulate --seed "$s" --blocks "$blocks" "$@" -o "$o.$s.csv" "$ten"' \
        _ {} "$out/$name" "$ten" "$blocks" "$@"
    local first=1
    for s in $SEEDS; do
        awk -F, -v OFS=, -v s="$s" -v h="$first" 'NR == 1 { if (h) print "seed," $0; next } { print s, $0 }' \
            "$out/$name.$s.csv"
        first=0
        rm -f "$out/$name.$s.csv"
    done >"$out/$name.csv"
}

# min/avg/max of lost blocks and failed reads per policy and replica count,
# and how many times more blocks stock loses than alg2
summarize() { # CSV TITLE
    echo
    echo "### $2"
    echo
    echo "| policy | replicas | lost blocks min / avg / max | lost % avg | failed reads % min / avg / max |"
    echo "| --- | ---: | ---: | ---: | ---: |"
    awk -F, '
        NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { k = $c["policy"] SUBSEP $c["replicas"]; n[k]++
          l = $c["lost_blocks"]; f = $c["failed_pct"]; p = $c["lost_pct"]
          if (!(k in lmin) || l < lmin[k]) lmin[k] = l; if (!(k in lmax) || l > lmax[k]) lmax[k] = l
          if (!(k in fmin) || f < fmin[k]) fmin[k] = f; if (!(k in fmax) || f > fmax[k]) fmax[k] = f
          ls[k] += l; fs[k] += f; ps[k] += p }
        END {
          for (r = 1; r <= 16; r++) for (q = 1; q <= 2; q++) {
            pol = q == 1 ? "stock" : "alg2"; k = pol SUBSEP r
            if (!(k in n)) continue
            printf "| %s | %d | %d / %.1f / %d | %.5f | %.4f / %.4f / %.4f |\n", pol == "alg2" ? "Algorithm 2 (HDFS-H)" : "stock (HDFS-Stock)", r,
                   lmin[k], ls[k] / n[k], lmax[k], ps[k] / n[k], fmin[k], fs[k] / n[k], fmax[k]
          }
          for (r = 1; r <= 16; r++) {
            a = "alg2" SUBSEP r; s = "stock" SUBSEP r
            if (!(a in n) || !(s in n)) continue
            if (ls[a] > 0) printf "\n%d replicas: stock loses %.1fx the blocks Algorithm 2 loses (averages over %d runs)", r, ls[s] / ls[a], n[a]
            else printf "\n%d replicas: Algorithm 2 loses no block in %d runs, stock %.1f on average", r, n[a], ls[s] / n[s]
          }
          print ""
        }' "$1"
}

t0=$(date +%s)
echo "## Harvesting §6 durability: $SERVERS servers, $TENANTS tenants, $BLOCKS blocks, $DAYS days, seeds $SEEDS"
tracegen storage --seed 1 --count "$TENANTS" --set servers="$SERVERS" -q -o "$out/tenants.csv"
run_seeds synthetic "$out/tenants.csv" "$BLOCKS" --days "$DAYS"
summarize "$out/synthetic.csv" "tracegen storage, reimages drawn from the tenants' rates with correlated bursts"

if [ -n "${GOOGLE:-}" ] && [ -r "$GOOGLE" ]; then
    bash "$here/google-to-replplace.sh" "$GOOGLE" "$out/google" "$TENANTS" 1 2>/dev/null
    run_seeds google "$out/google/tenants.csv" "$GBLOCKS" --events "$out/google/events.csv"
    gd=$(awk -F, 'NR > 1 { m = $1 } END { printf "%.1f", m / 86400 }' "$out/google/events.csv")
    summarize "$out/google.csv" "Google 2011 machine events (REMOVE as failure, second half replayed: $gd days), $GBLOCKS blocks"
else
    echo
    echo "(Google 2011 machine events not found: set GOOGLE=machine_events-part-00000.csv.gz)"
fi
echo
echo "($(($(date +%s) - t0)) s; rows per seed in $out/)"

#!/bin/bash
# bench/replplace.sh — replplace placement throughput and simulation time.
#
#   SLOKIT_BUILD=build bash bench/run.sh replplace
#   RP_BENCH_BLOCKS=4000000   blocks to place and to simulate (default 4M, as the paper)
#   RP_BENCH_RUNS=3           best of N runs for the placement timings
#
# Goals (issue 6): at least 1 million placements per second; 4 million blocks
# over one simulated year in under 60 s.  References measured in the same run:
# a plain CSV pass over the same input through the lib (csvcat: read + write,
# no placement) and the stock HDFS-like policy in the same binary.
set -u
. "$ROOT/bench/lib.sh"
build=${SLOKIT_BUILD:-build}
csvcat=$ROOT/$build/tests/csvcat
n=${RP_BENCH_BLOCKS:-4000000}
runs=${RP_BENCH_RUNS:-3}

ten=$BENCH_TMP/replplace-tenants.csv
blk=$BENCH_TMP/replplace-blocks-$n.csv
tracegen storage --seed 1 --count 300 -q -o "$ten" || exit 1
nsrv=$(awk -F, 'NR > 1 { s += $3 } END { print s }' "$ten")
if [ ! -s "$blk" ]; then
    awk -v n="$n" -v s="$nsrv" 'BEGIN { srand(1); print "block,server"; for (i = 0; i < n; i++) printf "blk%d,%d\n", i, int(rand() * s) }' >"$blk"
fi
echo "bench replplace: $n blocks on $nsrv servers of 300 tenants ($(stat -c %s "$blk" | awk '{ printf "%.0f", $1 / 1e6 }') MB)"

rate() { awk -v n="$1" -v t="$2" 'BEGIN { printf "%.2f", n / t / 1e6 }'; }
t_alg2=$(best "$runs" replplace -q "$ten" "$blk") || exit 1
t_space=$(best "$runs" replplace -q --pick space "$ten" "$blk") || exit 1
t_stock=$(best "$runs" replplace -q --policy stock "$ten" "$blk") || exit 1
t_r4=$(best "$runs" replplace -q -r 4 "$ten" "$blk") || exit 1
echo "bench replplace: stock x3 placement: $(rate "$n" "$t_stock") M blocks/s ($t_stock s)"
echo "bench replplace: alg2 x3 placement: $(rate "$n" "$t_alg2") M blocks/s, $(rate $((3 * n)) "$t_alg2") M replica rows/s ($t_alg2 s) ($(ratio "$t_stock" "$t_alg2")x vs stock; goal >= 1 M/s)"
echo "bench replplace: alg2 x3 --pick space: $(rate "$n" "$t_space") M blocks/s ($t_space s) ($(ratio "$t_stock" "$t_space")x vs stock)"
echo "bench replplace: alg2 x4 placement: $(rate "$n" "$t_r4") M blocks/s ($t_r4 s) ($(ratio "$t_stock" "$t_r4")x vs stock)"
if [ -x "$csvcat" ]; then
    t_cat=$(best "$runs" "$csvcat" "$blk") || exit 1
    echo "bench replplace: plain CSV pass (csvcat): $(rate "$n" "$t_cat") M rows/s ($t_cat s); alg2 x3 costs $(ratio "$t_alg2" "$t_cat")x a plain pass"
fi

# one simulated year, 4M blocks, one policy at a time, then the full table.
# The machine may be shared: print CPU seconds (user + sys) beside wall time.
wallcpu() { # CMD...: prints "wall cpu" seconds
    local f=$BENCH_TMP/replplace-time.txt
    /usr/bin/time -f '%e %U %S' -o "$f" "$@" >/dev/null || { echo "bench: command failed: $*" >&2; return 1; }
    awk '{ printf "%.1f %.1f\n", $1, $2 + $3 }' "$f"
}
read -r w_ss c_ss < <(wallcpu replplace -q --simulate -r 3 --policy stock --blocks "$n" "$ten") || exit 1
read -r w_sa c_sa < <(wallcpu replplace -q --simulate -r 3 --policy alg2 --blocks "$n" "$ten") || exit 1
echo "bench replplace: load average before the simulations: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "bench replplace: simulate 1 year, $n blocks, stock x3: $w_ss s wall, $c_ss s CPU"
echo "bench replplace: simulate 1 year, $n blocks, alg2 x3: $w_sa s wall, $c_sa s CPU ($(ratio "$c_ss" "$c_sa")x vs stock in CPU; goal < 60 s)"
read -r w_all c_all < <(wallcpu replplace -q --simulate --blocks "$n" -o "$BENCH_TMP/replplace-sim.csv" "$ten") || exit 1
echo "bench replplace: simulate 1 year, $n blocks, alg2+stock x 3+4 replicas: $w_all s wall, $c_all s CPU ($(ratio "$c_all" "$c_sa")x the alg2 x3 run)"
column -s, -t <"$BENCH_TMP/replplace-sim.csv" | sed 's/^/bench replplace:   /'

#!/bin/sh
# planetlab-to-tenantclass.sh — classify the PlanetLab VMs of 2011-03-03 with
# tenantclass.  Each VM is taken as one primary tenant with one server.
#
#   examples/planetlab-to-tenantclass.sh [DATA.csv [OUTDIR]]
#
# Defaults: ../shared/data/planetlab/20110303.csv beside the repository,
# OUTDIR = out/planetlab (created).
#
# The source (../shared/data/planetlab/20110303.csv) is vm,t,cpu: CPU percent
# at 300 s steps, one day, sorted by vm.  The adapter renames the columns
# (--col tenant=vm --col util=cpu), keeps the 300 s step (--step 5m, no
# upsampling) and reads percent (--scale percent).  One day holds no two
# cycles of a day or a week, so periodicity is tested on the sub-daily
# periods a day can show: 1 h to 8 h.
# Writes OUTDIR/planetlab-tenants.csv and OUTDIR/planetlab-classes.csv and
# prints the class mix (tenants per pattern) on stdout.
set -eu
export LC_ALL=C
repo=$(cd "$(dirname "$0")/.." && pwd)
. "$repo/examples/common.sh"
ex_args planetlab-to-tenantclass "$0" 2 "$@"
ex_tools planetlab-to-tenantclass "$repo" tenantclass
data=${1:-$repo/../shared/data/planetlab/20110303.csv}
out=${2:-out/planetlab}
mkdir -p "$out"
tenantclass --col tenant=vm --col util=cpu --step 5m --scale percent \
    --periods 1h,2h,3h,4h,6h,8h --classes "$out/planetlab-classes.csv" \
    -o "$out/planetlab-tenants.csv" "$data"
awk -F, 'NR > 1 { n[$2]++; t++ } END { for (p in n) printf "%s,%d,%.1f%%\n", p, n[p], 100 * n[p] / t }' \
    "$out/planetlab-tenants.csv" | sort

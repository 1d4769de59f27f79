#!/bin/bash
# google-to-replplace.sh — turn Google clusterdata-2011 machine events into
# replplace(1) inputs: a tenants table whose reimage rates are measured on the
# first half of the trace (history), and the events of the second half to
# replay with `replplace --simulate --events`.
#
#   examples/google-to-replplace.sh [MACHINE_EVENTS.csv[.gz] [OUTDIR [TENANTS [SEED]]]]
#
# Defaults: ../shared/data/google-2011/machine_events-part-00000.csv.gz beside
# the repository, OUTDIR = out/google-replplace (created), 300 tenants, seed 1.
#
# Input: the machine_events table (no header): time (microseconds, 0 = before
# the trace), machine ID, event type (0 ADD, 1 REMOVE, 2 UPDATE), platform,
# CPUs, memory.
#
# What it writes to OUTDIR:
#   machines.csv     server,machine      servers 0..N-1 = machine IDs in ascending order
#   events-all.csv   t,server,event      the whole trace, t in seconds
#   events.csv       t,server,event      the second half, t shifted to start at 0
#   tenants.csv      tracegen storage table for exactly N servers (TENANTS tenants,
#                    default 300), with reimages_per_server_month replaced by the
#                    REMOVE rate of each tenant's servers in the first half
#
# Event mapping (a small state machine per machine, which is up at the start):
#   REMOVE of an up machine -> fail   (the simulator destroys its replicas and takes
#                                      no new ones until it comes back: pessimistic,
#                                      as a removed machine's disk may be wiped)
#   ADD of a removed machine -> add    (back in service, empty)
#   ADD at time 0, ADD of an up machine, REMOVE of a removed machine, UPDATE -> dropped
# The trace has no tenants, so the N servers are split into tracegen's tenant
# sizes in machine-ID order; the environments, space and peak utilizations are
# synthetic.  Only the reimage rates and the events are real.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
. "$repo/examples/common.sh"
ex_args google-to-replplace "$0" 4 "$@"
ex_tools google-to-replplace "$repo" tracegen
in=${1:-$repo/../shared/data/google-2011/machine_events-part-00000.csv.gz}
out=${2:-out/google-replplace}
ntenants=${3:-300}
seed=${4:-1}
ex_whole google-to-replplace TENANTS "$ntenants"
ex_whole google-to-replplace SEED "$seed" 0
mkdir -p "$out"
export LC_ALL=C

zcat -f "$in" | awk -F, '{ print $2 }' | sort -n -u | awk 'BEGIN { print "server,machine" } { print NR - 1 "," $1 }' >"$out/machines.csv"
n=$(($(wc -l <"$out/machines.csv") - 1))
[ "$n" -gt 0 ] || { echo "google-to-replplace: no machines in $in" >&2; exit 65; }

# time-sorted (stable) events through the per-machine state machine
zcat -f "$in" | sort -t, -s -k1,1n | awk -F, -v OFS=, '
    FNR == NR { if (FNR > 1) srv[$2] = $1; next }
    {
        s = srv[$2]; t = sprintf("%.6f", $1 / 1e6)
        if ($3 == 1 && !(s in down)) { down[s] = 1; print t, s, "fail" }
        else if ($3 == 0 && $1 > 0 && (s in down)) { delete down[s]; print t, s, "add" }
    }' "$out/machines.csv" - | sed '1i t,server,event' >"$out/events-all.csv"

# split at half the trace window
split=$(awk -F, 'NR > 1 && $1 > m { m = $1 } END { printf "%.0f", m / 2 }' "$out/events-all.csv")
awk -F, -v OFS=, -v s="$split" 'NR == 1 { print; next } $1 >= s { $1 = sprintf("%.6f", $1 - s); print }' \
    "$out/events-all.csv" >"$out/events.csv"

# tenants: tracegen sizes for exactly n servers, rates from the first half
tracegen storage --seed "$seed" --count "$ntenants" --set servers="$n" -q >"$out/tenants.base.csv"
awk -F, -v OFS=, -v s="$split" '
    BEGIN { first = 0 }
    FNR == NR { if (FNR > 1 && $3 == "fail" && $1 < s) fails[$2]++; next }
    FNR == 1 { print; next }
    {
        cnt = 0
        for (i = first; i < first + $3; i++) cnt += fails[i]
        first += $3
        $5 = sprintf("%.4f", cnt / $3 / (s / 86400 / 30.4375))
        print
    }' "$out/events-all.csv" "$out/tenants.base.csv" >"$out/tenants.csv"
rm -f "$out/tenants.base.csv"
echo "google-to-replplace: $n servers, $(($(wc -l <"$out/events-all.csv") - 1)) events," \
    "history $(awk -v s="$split" 'BEGIN { printf "%.2f", s / 86400 }') days, replay" \
    "$(($(wc -l <"$out/events.csv") - 1)) events -> $out" >&2

#!/bin/sh
# stretch_invariants.sh JOBS VCS_OUT JOB_OUT [DAILY]
# Independent checks (awk) of one stretch run against its input:
#  - one output row per input job, same ids, finish >= submit, stretch > 0;
#  - conservation: per VC, used_server_hours (the integral of the VC's
#    allocation) equals the sum of its jobs' size_server_hours (1e-6 rel.);
#  - load_factor = work / (capacity x horizon) is >= 0 and jobs counts add up;
#  - DAILY (if given): per VC, jobs add up and sum(load x capacity x 24) = work.
set -eu
jobs=$1 vcs=$2 out=$3 daily=${4:-}
awk -F, 'NR == FNR { if (FNR > 1) { n++; ids[$1] = $3 } ; next }
         FNR > 1 { m++; if (!($1 in ids)) { print "unknown job " $1; exit 1 }
                   if ($4 + 0 < $3 + 0 || $5 + 0 <= 0 || $4 == "" || $5 == "") { print "bad row: " $0; exit 1 } }
         END { if (n != m) { print m " output rows for " n " jobs"; exit 1 } }' "$jobs" "$out"
awk -F, 'NR == FNR { if (FNR > 1) { w[$2] += $4; c[$2]++ } ; next }
         FNR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
         { vc = $1; used = $col["used_server_hours"]; want = w[vc] + 0
           d = used - want; if (d < 0) d = -d
           if (d > 1e-6 * (want > 1 ? want : 1)) { printf "vc %s: used %.12g server-hours, jobs need %.12g\n", vc, used, want; exit 1 }
           if ($col["jobs"] != c[vc] + 0) { print "vc " vc ": jobs " $col["jobs"] " want " c[vc] + 0; exit 1 }
           if ($col["load_factor"] + 0 < 0 || $col["overdemand_share"] + 0 < 0 || $col["overdemand_share"] + 0 > 1 + 1e-9) { print "bad vc row " $0; exit 1 } }' "$jobs" "$vcs"
if [ -n "$daily" ]; then
    awk -F, 'FILENAME == ARGV[1] { if (FNR > 1) { w[$2] += $4; c[$2]++ } ; next }
             FILENAME == ARGV[2] { if (FNR > 1) cap[$1] = $2; next }
             FNR > 1 { dj[$1] += $3; dw[$1] += $4 * cap[$1] * 24 }
             END { for (v in c) { if (dj[v] != c[v]) { print "daily jobs " v; exit 1 }
                                  d = dw[v] - w[v]; if (d < 0) d = -d
                                  if (d > 1e-6 * w[v]) { print "daily work " v " " dw[v] " " w[v]; exit 1 } } }' "$jobs" "$vcs" "$daily"
fi

#!/usr/bin/awk -f
# tenantclass_accuracy.awk — share of tenants whose pattern matches the
# ground truth.  Usage:
#   awk -F, -v min=0.95 -f tenantclass_accuracy.awk truth.csv tenants.csv
# truth.csv: tenant,pattern,... (tracegen tenants --truth); tenants.csv:
# tenantclass output (tenant,pattern,...).  Columns are found by name.
# Prints "accuracy A (right of n), confusion truth->got: count ..." and exits
# 1 when A < min, when a truth tenant has no output row, or on an unknown one.
FNR == 1 { for (i = 1; i <= NF; i++) col[FILENAME, $i] = i; next }
FILENAME == ARGV[1] { truth[$col[FILENAME, "tenant"]] = $col[FILENAME, "pattern"]; nt++; next }
{
    t = $col[FILENAME, "tenant"]; p = $col[FILENAME, "pattern"]
    if (!(t in truth)) { print "unknown tenant " t; bad = 1; next }
    seen[t] = 1; n++
    if (truth[t] == p) right++
    conf[truth[t] "->" p]++
}
END {
    for (t in truth) if (!(t in seen)) { print "no output for " t; bad = 1 }
    a = n ? right / n : 0
    printf "accuracy %.4f (%d of %d), confusion:", a, right, n
    for (k in conf) printf " %s=%d", k, conf[k]
    printf "\n"
    if (bad || a < min) exit 1
}

# reprov_jockey_cases.awk — independent check of the Jockey slide example.
# Input 1: the slides' table progress,alloc,remaining (e.g. "60m").
# Input 2: reprov's decisions for jobs "p<progress>_d<minutes>" (each at 0 s elapsed,
# utility 1 up to the deadline).  For each, the expected allocation is the
# smallest one whose remaining time at that progress is within the deadline
# (the smallest allocation of all when none is).  Exits 1 on any mismatch.
BEGIN { FS = "," }
FNR == 1 { next }
NR == FNR { m = $3; sub(/m$/, "", m); rem[$1 "," $2] = m + 0; al[$2 + 0] = 1; next }
{
    job = $2; split(job, q, "_d"); p = substr(q[1], 2); d = q[2] + 0
    n = 0; for (a in al) as[++n] = a + 0
    for (i = 1; i <= n; i++) for (k = i + 1; k <= n; k++) if (as[k] < as[i]) { x = as[i]; as[i] = as[k]; as[k] = x }
    want = as[1]
    for (i = n; i >= 1; i--) if (rem[p "," as[i]] <= d) want = as[i]
    seen++
    if ($5 + 0 != want) { printf "%s: reprov chose %s, the table implies %s\n", job, $5, want; bad++ }
}
END { if (seen != 15) { printf "expected 15 decisions, got %d\n", seen; exit 1 } exit bad ? 1 : 0 }

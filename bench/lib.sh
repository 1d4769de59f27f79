# bench/lib.sh — helpers for bench/<name>.sh (source it).
#   secs CMD...        run CMD under bench/timeit (timeit_run: fork, wait on the
#                      monotonic clock; GNU time's %e rounds to 10 ms, too
#                      coarse for the sub-0.1 s runs of the default sizes),
#                      print its wall-clock seconds to the millisecond
#                      (stdout of CMD discarded); its peak RSS is noted
#   wallcpu CMD...     the same run, printing "WALL CPU" seconds (CPU = user
#                      + sys, to the microsecond from wait4's rusage; the
#                      steadier measure on a shared machine)
#   best N CMD...      the best of N runs
#   ratio A B          A/B with 2 decimals; a B of 0 (below half a
#                      millisecond) gives a lower bound, ">" A/0.001, and
#                      "n/a" when A is 0 too
#   mark; ...; peak    the largest peak RSS (MB) of the secs runs since mark
#   size SMALL FULL    SMALL, or FULL when BENCH_SIZE=full
#   row WORK SECS REFERENCE REF_SECS PEAK_MB
#                      one row of the table bench/run.sh prints at the end:
#                      the work, slokit's time, the reference (measured in
#                      the same run) and its time, slokit's peak memory
#   goal WHAT TARGET MEASURED MET
#                      one row of the goals table printed after it: a goal
#                      of an issue, the measured value, yes / no (and by
#                      how much, in MEASURED)
#   atmost WHAT MEASURED LIMIT UNIT, atleast WHAT MEASURED GOAL UNIT
#                      a goal row with MET worked out
timeit=$BENCH_TMP/timeit
if [ ! -x "$timeit" ] || [ "$ROOT/bench/timeit.c" -nt "$timeit" ]; then
    cc -O2 -o "$timeit" "$ROOT/bench/timeit.c" || { echo "bench: cannot build bench/timeit.c" >&2; exit 1; }
fi
# timeit_run CMD...: CMD under bench/timeit, its line in $BENCH_TMP/.time and its
# peak RSS noted; 1 (the command listed as failed) when it fails
timeit_run() {
    "$timeit" "$BENCH_TMP/.time" "$@" >/dev/null ||
        { echo "bench: command failed: $*" >&2; echo "$BENCH_NAME: $*" >>"$BENCH_TMP/failed"; return 1; }
    awk '{ print $2 }' "$BENCH_TMP/.time" >>"$BENCH_TMP/.rss"
}
secs() { timeit_run "$@" && awk '{ printf "%.3f\n", $1 }' "$BENCH_TMP/.time"; }
wallcpu() { timeit_run "$@" && awk '{ printf "%.3f %.3f\n", $1, $4 + $5 }' "$BENCH_TMP/.time"; }
best() {
    local n=$1 b="" s
    shift
    for _ in $(seq "$n"); do
        s=$(secs "$@") || return 1
        if [ -z "$b" ] || awk -v s="$s" -v b="$b" 'BEGIN { exit !(s < b) }'; then b=$s; fi
    done
    echo "$b"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f\n", a / b; else if (a > 0) printf ">%.2f\n", a / 0.001; else print "n/a" }'; }
mark() { : >"$BENCH_TMP/.rss"; }
peak() { awk '$1 > m { m = $1 } END { printf "%.0f\n", m / 1024 }' "$BENCH_TMP/.rss"; }
size() { if [ "${BENCH_SIZE:-}" = full ]; then echo "$2"; else echo "$1"; fi; }
row() {
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "${BENCH_NAME:-?}" "$1" "$2" "$3" "$4" "$5" >>"$BENCH_TMP/table.tsv"
}
atmost() { # WHAT MEASURED LIMIT UNIT: a goal row for MEASURED <= LIMIT
    goal "$1" "<= $3$4" "$2$4" "$(awk -v a="$2" -v b="$3" 'BEGIN { sub(/^>/, "", a); a += 0; if (a <= b) print "yes"; else printf "no (%.2fx the limit)\n", a / b }')"
}
atleast() { # WHAT MEASURED GOAL UNIT: a goal row for MEASURED >= GOAL
    goal "$1" ">= $3$4" "$2$4" "$(awk -v a="$2" -v b="$3" 'BEGIN { sub(/^>/, "", a); a += 0; if (a >= b) print "yes"; else printf "no (%.2fx the goal)\n", a / b }')"
}
goal() {
    printf '%s\t%s\t%s\t%s\t%s\n' "${BENCH_NAME:-?}" "$1" "$2" "$3" "$4" >>"$BENCH_TMP/goals.tsv"
}

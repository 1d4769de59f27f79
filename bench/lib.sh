# bench/lib.sh — helpers for bench/<name>.sh (source it).
#   secs CMD...        run CMD, print its wall-clock seconds (stdout of CMD discarded)
#   best N CMD...      the best of N runs
#   ratio A B          A/B with 2 decimals
secs() {
    local t0 t1
    t0=$(date +%s.%N)
    "$@" >/dev/null || { echo "bench: command failed: $*" >&2; return 1; }
    t1=$(date +%s.%N)
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", b - a }'
}
best() {
    local n=$1 b="" s
    shift
    for _ in $(seq "$n"); do
        s=$(secs "$@") || return 1
        if [ -z "$b" ] || awk -v s="$s" -v b="$b" 'BEGIN { exit !(s < b) }'; then b=$s; fi
    done
    echo "$b"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f\n", a / b; else print "inf" }'; }

# Real engines: the per-key tools run as a Slurm job array on a two-node
# cluster (slurmctld + two slurmd, nodes in their own network namespaces) and
# through GNU parallel over two sshd hosts (with a shared file system, and
# with --trc where each host sees only its own private directory), and must
# give byte for byte what one process gives.  tests/engines/lab.sh starts
# and stops the lab; everything it started is stopped by pid and checked gone.
#
# Runs on the -O2 build only: the tools' code is the same as in their own
# tables, which run under ASan too, and keyshard's is checked under ASan by
# keyshard.sh; a second lab would double the file's minute for no new check.
# SLOKIT_ENGINES_ASAN=1 runs it on the ASan build as well.  Where root, the
# packages or network namespaces are missing, every case is counted skipped.
LAB="$ROOT/tests/engines/lab.sh"
ARRAY="$ROOT/examples/slurm/array.sh"
SHARDS="$ROOT/examples/parallel-shards.sh"
TOOLS="skyfit sloinfer peakgate tenantclass"
CASES=()
for tool in $TOOLS; do
    CASES+=("$tool: slurm array == one process" "$tool: parallel -S over ssh == one process"
            "$tool: parallel -S --trc (no shared fs) == one process")
done
for tool in skyfit peakgate; do  # -s on shuffled rows: keys merged sorted, as one process writes them
    CASES+=("$tool -s: slurm array == one process" "$tool -s: parallel -S over ssh == one process"
            "$tool -s: parallel -S --trc (no shared fs) == one process")
done
CASES+=("lab: start is idempotent" "slurm: tasks ran on both nodes" "ssh: jobs ran on both hosts"
        "trc: the hosts' directories are private" "slurm: a failing task fails the run"
        "parallel: a failing job fails the run" "parallel --trc: a failing job fails the run"
        "lab: stop leaves no process, namespace, mount or veth" "lab: stop is idempotent")

engines_skip() { local c; for c in "${CASES[@]}"; do tskip "$c" "$1"; done; }

engines_run() {
    local D="$TMP/lab" in tool out why
    why=$("$LAB" why-not) || { echo "skipped: engines: $why"; engines_skip "$why"; return; }
    # unix sockets (munge's, slurmstepd's in the spool) hold at most 107 bytes
    [ ${#D} -le 60 ] || D=$(mktemp -d /tmp/slklab.XXXXXX)
    trap '"$LAB" down "$D" >/dev/null 2>&1' EXIT
    if ! LAB_TIMEOUT=30 "$LAB" up "$D" >"$TMP/lab.up" 2>&1; then
        _fail "the lab does not start"; CASE=lab; tail -20 "$TMP/lab.up"
        engines_skip "the lab did not start"; return
    fi
    local run=(timeout 300 "$LAB" run "$D") ssh=(-e "ssh -F $D/ssh/config") hosts=1/10.251.0.4,1/10.251.0.5
    local pids0; pids0=$(cat "$D/pids")
    "$LAB" up "$D"
    tcheck "lab: start is idempotent" test "$(cat "$D/pids")" = "$pids0"

    tracegen -q usage --count 12 --days 3 -o "$TMP/skyfit.in"
    tracegen -q runs --count 12 --days 10 -o "$TMP/sloinfer.in"
    tracegen -q taskmem --count 30 -o "$TMP/peakgate.in"
    tracegen -q tenants --count 20 --days 2 -o "$TMP/tenantclass.in"
    for tool in $TOOLS; do
        local args=(); [ $tool = tenantclass ] && args=(--features-only)
        in="$TMP/$tool.in" out="$TMP/$tool"
        "$tool" -q "${args[@]}" "$in" >"$out.one"
        t "$tool: slurm array == one process" 0 '' "@$out.one" '' \
            "${run[@]}" "$ARRAY" -P 0.2 -t 120 -n 4 -i "$in" "$tool" "${args[@]}"
        t "$tool: parallel -S over ssh == one process" 0 '' "@$out.one" '' \
            "${run[@]}" "$SHARDS" -S "$hosts" "${ssh[@]}" -n 3 -i "$in" "$tool" "${args[@]}"
        t "$tool: parallel -S --trc (no shared fs) == one process" 0 '' "@$out.one" '' \
            "${run[@]}" "$SHARDS" -S "$hosts" "${ssh[@]}" -T -R "$D/remote/w" -n 2 -i "$in" "$tool" "${args[@]}"
    done
    for tool in skyfit peakgate; do
        in="$TMP/$tool.shuf" out="$TMP/$tool-s"
        { head -1 "$TMP/$tool.in"; tail -n +2 "$TMP/$tool.in" | shuf --random-source=<(yes); } >"$in"
        "$tool" -q -s "$in" >"$out.one"
        t "$tool -s: slurm array == one process" 0 '' "@$out.one" '' \
            "${run[@]}" "$ARRAY" -P 0.2 -t 120 -n 4 -i "$in" "$tool" -s
        t "$tool -s: parallel -S over ssh == one process" 0 '' "@$out.one" '' \
            "${run[@]}" "$SHARDS" -S "$hosts" "${ssh[@]}" -n 3 -i "$in" "$tool" -s
        t "$tool -s: parallel -S --trc (no shared fs) == one process" 0 '' "@$out.one" '' \
            "${run[@]}" "$SHARDS" -S "$hosts" "${ssh[@]}" -T -R "$D/remote/w" -n 2 -i "$in" "$tool" -s
    done
    tcheck "slurm: tasks ran on both nodes" bash -c '
        grep -q "Launching batch job" "$1/slurm/slurmd-n1.log" && grep -q "Launching batch job" "$1/slurm/slurmd-n2.log"' _ "$D"
    tcheck "ssh: jobs ran on both hosts" bash -c '
        grep -q "Accepted publickey for root from 10.251.0.1" "$1/ssh/sshd-h1.log" &&
        grep -q "Accepted publickey for root from 10.251.0.1" "$1/ssh/sshd-h2.log"' _ "$D"
    tcheck "trc: the hosts' directories are private" test -z "$(ls -A "$D/remote")"

    # one bad value in one job: its shard's task fails, so the run must fail
    awk -F, -v OFS=, 'NR == 40 { $4 = "x" } 1' "$TMP/skyfit.in" >"$TMP/bad.in"
    t "slurm: a failing task fails the run" 65 '' '' "failed with exit 65" \
        "${run[@]}" "$ARRAY" -P 0.2 -t 120 -n 4 -i "$TMP/bad.in" -w "$TMP/bad.w" -o "$TMP/bad.out" skyfit
    t "parallel: a failing job fails the run" 65 '' '' "a job failed (exit 65" \
        "${run[@]}" "$SHARDS" -S "$hosts" "${ssh[@]}" -n 3 -i "$TMP/bad.in" -o "$TMP/bad.out" skyfit
    t "parallel --trc: a failing job fails the run" 65 '' '' "a job failed (exit 65" \
        "${run[@]}" "$SHARDS" -S "$hosts" "${ssh[@]}" -T -R "$D/remote/w" -n 2 -i "$TMP/bad.in" -o "$TMP/bad.out" skyfit
    [ ! -e "$TMP/bad.out" ] || _fail "a failed run wrote its -o output"

    "$LAB" down "$D"
    tcheck "lab: stop leaves no process, namespace, mount or veth" "$LAB" leftovers "$D"
    tcheck "lab: stop is idempotent" "$LAB" down "$D"
    trap - EXIT
    [ "$D" = "$TMP/lab" ] || rm -rf "$D"
}

if [ "$BUILD" != build ] && [ -z "${SLOKIT_ENGINES_ASAN:-}" ]; then
    echo "   engines: on the -O2 build only (SLOKIT_ENGINES_ASAN=1 runs them here too)"
else
    engines_run
fi

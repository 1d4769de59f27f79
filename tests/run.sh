#!/bin/bash
# tests/run.sh — run every unit test and CLI test table, once per build.
#
#   SLOKIT_BUILDS  builds to test (default: "build build-asan")
#   SLOKIT_WRAP    a command to run every tool under (e.g. valgrind ...)
#   SLOKIT_ONLY    run only CLI files whose name contains this
#   SLOKIT_FILE_TIMEOUT  seconds a CLI file may run before it is killed and
#                  counted as failed (default 1200; 0: no limit, the default
#                  under SLOKIT_WRAP)
#   SLOKIT_KEEP    set: keep every CLI file's scratch directory
#                  tests/out/BUILD/FILE (by default only a failed file's stays,
#                  so the whole suite fits in 1 GB of free disk, not 4)
#   SLOKIT_JOBS    builds tested at once (default 2 with two or more builds
#                  and two or more CPUs, else 1).  Each build's pass has its
#                  own scratch tree tests/out/BUILD, its own HOME and PATH;
#                  its report is written to tests/out/BUILD.log and printed
#                  whole, in the order of SLOKIT_BUILDS, once it has ended.
#
# Ends with the line "N passed, N failed, N skipped"; exits 1 when anything
# failed.  Skipped cases (a package or capability missing) never count as passed.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
export ROOT
export DATA=${SLOKIT_DATA:-$ROOT/../shared/data}
export LC_ALL=C
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:exitcode=86}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
builds=${SLOKIT_BUILDS:-"build build-asan"}
# seconds one CLI file may run (0: no limit; none under SLOKIT_WRAP, e.g. valgrind)
limit=${SLOKIT_FILE_TIMEOUT:-1200}
[ -z "${SLOKIT_WRAP:-}" ] || limit=${SLOKIT_FILE_TIMEOUT:-0}
utimeout=()
[ "$limit" = 0 ] || utimeout=(timeout -k 30 600)
# the suite's files peak near 450 MB (documented examples write what they
# say; a passing file's are removed): warn when that may not fit
mkdir -p "$ROOT/tests/out"
free_mb=$(df -Pm "$ROOT/tests/out" | awk 'NR == 2 { print $4 }')
[ "${free_mb:-0}" -ge 600 ] || echo "run.sh: only ${free_mb:-?} MB free under tests/out; the suite's files peak near 450 MB"
total_pass=0
total_fail=0
total_skip=0

# Several builds at once: each pass is this script on one build, in the
# background; the summary line adds up theirs.  A pass that ends without its
# summary line (killed, or run.sh itself broken) counts as one failure.
set -- $builds
jobs=${SLOKIT_JOBS:-}
if [ -z "$jobs" ]; then
    jobs=1
    [ $# -lt 2 ] || [ "$(nproc 2>/dev/null || echo 1)" -lt 2 ] || jobs=2
fi
if [ "$jobs" -gt 1 ] && [ $# -gt 1 ]; then
    echo "run.sh: $# builds, $jobs at a time (SLOKIT_JOBS); each build's report follows when it has ended"
    pids=() logs=() n=0
    trap 'kill "${pids[@]}" 2>/dev/null; exit 130' INT TERM
    for b in $builds; do
        if [ $n -ge "$jobs" ]; then wait "${pids[$((n - jobs))]}"; fi
        logs+=("$ROOT/tests/out/$b${SLOKIT_WRAP:+-wrapped}.log")
        SLOKIT_BUILDS=$b SLOKIT_JOBS=1 bash "$0" >"${logs[$n]}" 2>&1 </dev/null &
        pids+=($!); n=$((n + 1))
    done
    i=0
    for b in $builds; do
        wait "${pids[$i]}"
        sed '$d' "${logs[$i]}"
        last=$(tail -n 1 "${logs[$i]}")
        if [[ $last =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed,\ ([0-9]+)\ skipped$ ]]; then
            total_pass=$((total_pass + BASH_REMATCH[1])); total_fail=$((total_fail + BASH_REMATCH[2]))
            total_skip=$((total_skip + BASH_REMATCH[3]))
            echo "   ($b: $last)"
        else
            echo "$last"
            echo "FAIL run.sh: the pass on $b ended without its summary line (${logs[$i]})"
            total_fail=$((total_fail + 1))
        fi
        i=$((i + 1))
    done
    echo "$total_pass passed, $total_fail failed, $total_skip skipped"
    [ "$total_fail" = 0 ]
    exit
fi

for b in $builds; do
    bin=$ROOT/$b/bin
    [ -d "$ROOT/$b/tests" ] || { echo "run.sh: no build at $b (run make)"; total_fail=$((total_fail + 1)); continue; }
    out=$ROOT/tests/out/$b${SLOKIT_WRAP:+-wrapped}
    rm -rf "$out"; mkdir -p "$out"
    mkdir -p "$bin"; path=$bin
    # python3 in a test is Debian's /usr/bin/python3 (the one whose numpy and
    # scipy make deps installs), never a pyenv or venv python3 earlier on PATH.
    mkdir -p "$out/py"; ln -sfn /usr/bin/python3 "$out/py/python3"
    # a HOME of the run's own: no test reads the caller's ~/ files or leaves
    # files there (GNU parallel writes ~/.parallel)
    export HOME=$out/home; mkdir -p "$HOME"
    if [ -n "${SLOKIT_WRAP:-}" ]; then
        mkdir -p "$out/wrap"
        for tool in "$bin"/*; do
            printf '#!/bin/sh\nexec %s %s "$@"\n' "$SLOKIT_WRAP" "$tool" >"$out/wrap/$(basename "$tool")"
            chmod +x "$out/wrap/$(basename "$tool")"
        done
        path=$out/wrap
    fi
    path=$path:$out/py
    echo "== $b"
    # unit tests: each prints "#unit NAME PASS FAIL"
    for u in "$ROOT/$b/tests"/test_*; do
        [ -x "$u" ] || continue
        # a unit that hangs is killed after 600 s (with the CLI files' limit
        # on) and counted as failed, so the suite still ends
        res=$(cd "$out" && ${utimeout[@]+"${utimeout[@]}"} ${SLOKIT_WRAP:-} "$u" 2>"$out/$(basename "$u").err")
        line=$(printf '%s\n' "$res" | grep '^#unit' | tail -1)
        if [ -z "$line" ]; then
            echo "FAIL unit $(basename "$u"): crashed, hung (killed after 600 s) or printed no result"; cat "$out/$(basename "$u").err" | head -20
            total_fail=$((total_fail + 1)); continue
        fi
        set -- $line
        total_pass=$((total_pass + $3)); total_fail=$((total_fail + $4))
        [ "$4" = 0 ] || head -20 "$out/$(basename "$u").err"
        printf '   unit %-28s %4d passed, %d failed\n' "$2" "$3" "$4"
    done
    # CLI tables
    for f in "$ROOT"/tests/cli/*.sh; do
        name=$(basename "$f" .sh)
        [ -n "${SLOKIT_ONLY:-}" ] && [ "${name#*$SLOKIT_ONLY}" = "$name" ] && continue
        tmp=$out/$name; mkdir -p "$tmp"
        # a syntax error ends a sourced file where it stands, and the cases
        # before it still add up to "N passed, 0 failed": count it a failure
        if ! err=$(bash -n "$f" 2>&1); then
            echo "FAIL cli $name: the test file does not parse: $(printf '%s\n' "$err" | head -1)"
            total_fail=$((total_fail + 1)); continue
        fi
        # a file that hangs is killed (its whole process group) after $limit s and
        # counted as failed, so the rest of the suite still runs within CI's time
        t0=$SECONDS
        res=$(cd "$tmp" && PATH="$path:$PATH" TMP="$tmp" BUILD="$b" timeout -k 30 "$limit" bash -c '
            source "$ROOT/tests/lib.sh"; source "$1"; echo "#cli $PASS $FAIL $SKIP"' _ "$f" 2>&1 </dev/null)
        rc=$?
        line=$(printf '%s\n' "$res" | grep '^#cli' | tail -1)
        printf '%s\n' "$res" | grep -v '^#cli' | head -60
        if [ -z "$line" ]; then
            why="the test file did not finish"
            if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then why="$why: killed after $limit s (SLOKIT_FILE_TIMEOUT)"; fi
            echo "FAIL cli $name: $why"; total_fail=$((total_fail + 1)); continue
        fi
        set -- $line
        total_pass=$((total_pass + $2)); total_fail=$((total_fail + $3)); total_skip=$((total_skip + $4))
        skipped=""; [ "$4" = 0 ] || skipped=", $4 skipped"
        # with its time, to see a file near the limit before a slower machine kills it
        printf '   cli  %-28s %4d passed, %d failed%s  (%d s)\n' "$name" "$2" "$3" "$skipped" $((SECONDS - t0))
        [ "$3" != 0 ] || [ -n "${SLOKIT_KEEP:-}" ] || rm -rf "$tmp"
    done
done
echo "$total_pass passed, $total_fail failed, $total_skip skipped"
[ "$total_fail" = 0 ]

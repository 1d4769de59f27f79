# The suite's harness (tests/run.sh) itself, on a root of its own: a CLI
# file with a syntax error is a failure.  Bash stops a sourced file at the
# error, and the cases before it still added up to "N passed, 0 failed":
# a broken file passed CI with its later cases never run (found when a
# case's quoting broke tests/cli/atomic.sh, 2026-11-30).
H="$TMP/harness"
rm -rf "$H" && mkdir -p "$H/tests/cli" "$H/build/tests" "$H/build/bin"
cp "$ROOT/tests/run.sh" "$ROOT/tests/lib.sh" "$H/tests/"
printf 'tcheck "fine" true\n' > "$H/tests/cli/fine.sh"
printf 'tcheck "before the error" true\nx=(\ntcheck "after the error" false\n' > "$H/tests/cli/broken.sh"
tcheck "run.sh: a test file that does not parse fails the suite" bash -c '
    env -u SLOKIT_ONLY -u SLOKIT_WRAP SLOKIT_BUILDS=build SLOKIT_FILE_TIMEOUT=60 bash "$1/tests/run.sh" > out 2>&1; rc=$?
    [ $rc = 1 ] && grep -q "^FAIL cli broken: the test file does not parse: .*line [0-9]*: " out &&
        grep -q "^   cli  fine  *1 passed, 0 failed  ([0-9]* s)$" out && [ "$(tail -1 out)" = "1 passed, 1 failed, 0 skipped" ] ||
        { echo "exit $rc"; cat out; exit 1; }' _ "$H"
# Two builds at once (SLOKIT_JOBS): each pass's report whole, in the order of
# SLOKIT_BUILDS, and the totals add up; a pass killed before its summary line
# is a failure, never a pass with fewer cases.
mkdir -p "$H/build2/tests" "$H/build2/bin" && rm -f "$H/tests/cli/broken.sh"
cat > "$H/tests/cli/killed.sh" <<'EOF'
if [ "$BUILD" = build2 ]; then  # kill this pass's run.sh (and its subshells), not the parent's
    p=$$; k=(); while p=$(sed 's/.*) //' "/proc/$p/stat" | cut -d' ' -f2) && [ "${p:-1}" -gt 1 ]; do
        tr '\0' '\n' <"/proc/$p/environ" | grep -qx SLOKIT_BUILDS=build2 && k+=("$p"); done
    kill -9 "${k[@]}"; sleep 5
fi
tcheck "alive" true
EOF
tcheck "run.sh: two builds at once: reports in order, totals added, a killed pass fails" bash -c '
    cd "$1" && env -u SLOKIT_ONLY -u SLOKIT_WRAP SLOKIT_BUILDS="build build2" SLOKIT_JOBS=2 SLOKIT_FILE_TIMEOUT=60 \
        bash "$1/tests/run.sh" > out 2>&1; rc=$?
    [ $rc = 1 ] && [ "$(grep -c "^== build" out)" = 2 ] && [ "$(grep "^== build" out | head -1)" = "== build" ] &&
        grep -q "^   (build: 2 passed, 0 failed, 0 skipped)$" out &&
        grep -q "^FAIL run.sh: the pass on build2 ended without its summary line" out &&
        [ "$(tail -1 out)" = "2 passed, 1 failed, 0 skipped" ] || { echo "exit $rc"; cat out; exit 1; }
    rm "$1/tests/cli/killed.sh"
    env -u SLOKIT_ONLY -u SLOKIT_WRAP SLOKIT_BUILDS="build build2" SLOKIT_JOBS=2 bash "$1/tests/run.sh" > out 2>&1; rc=$?
    [ $rc = 0 ] && grep -q "^   (build2: 1 passed, 0 failed, 0 skipped)$" out &&
        [ "$(tail -1 out)" = "2 passed, 0 failed, 0 skipped" ] || { echo "exit $rc"; cat out; exit 1; }' _ "$H"
# The sanitizer check reads a one-line stderr itself and greps a longer one
# (tests/lib.sh, _sanitizer_clean): a report is found either way, a tool's
# own error line is not one.
tcheck "_sanitizer_clean: empty, one error line, two lines: clean" bash -c '
    source "$ROOT/tests/lib.sh"; f=$1/.sc
    for c in "" "skyfit: x.csv:2: bad\n" "a\nb" "a\nb\n" "x\0y\n"; do
        printf "$c" >"$f"; _sanitizer_clean "$f" || { echo "flagged: $c"; exit 1; }; done' _ "$TMP"
tcheck "_sanitizer_clean: a report on the only line, the first or a later one" bash -c '
    source "$ROOT/tests/lib.sh"; f=$1/.sc
    for c in "x.c:3:5: runtime error: signed integer overflow" "==1==ERROR: AddressSanitizer: heap-buffer-overflow\n" \
             "a\n==7==ERROR: LeakSanitizer: detected memory leaks\n" "\nx.c:1: runtime error: y" "==12== Invalid read of size 8\n" \
             "x\0 runtime error: y\n"; do
        printf "$c" >"$f"; ! _sanitizer_clean "$f" || { echo "missed: $c"; exit 1; }; done' _ "$TMP"
# probe_judge with PROBE_TEXT='?' asks probe_text only when an output holds
# nan or inf, and then judges by its answer
tcheck "probe_judge: probe_text asked only for nan or inf, and heeded" bash -c '
    source "$ROOT/tests/lib.sh"; TMP=$1; : >"$TMP/.pe"; asked=0
    probe_text() { asked=$((asked + 1)); PROBE_TEXT=$answer; }
    j() { printf "$1" >"$TMP/.po"; bad=; PROBE_TEXT="?"; answer=$2; probe_judge v 0 "0 65" "$TMP/.po"; echo "${bad:+bad} $asked"; }
    [ "$(j "a,b\n1,2\n" 1)" = " 0" ] && [ "$(j "a,b\nx,nan\n" 0)" = "bad 1" ] &&
    [ "$(j "a,b\nx,nan\n" 1)" = " 1" ] && [ "$(j "a,b\nx,1e+300\n" 1)" = "bad 1" ] &&
    [ "$(j "" 0)" = " 0" ]' _ "$TMP"

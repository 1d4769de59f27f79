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

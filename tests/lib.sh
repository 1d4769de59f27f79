# tests/lib.sh — the table-driven CLI test language, sourced by tests/run.sh.
#
# One case per call:
#   t NAME EXIT STDIN STDOUT STDERR CMD [ARGS...]
#     STDIN   literal text, or @FILE, or '' for no input
#     STDOUT  literal expected output, @FILE for a golden file, or '*' (not checked)
#     STDERR  a substring that must appear, '' (must be empty), or '*' (not checked)
#   A case also fails when a sanitizer reports anything, whatever the exit.
#
#   tcheck NAME CMD [ARGS...]   passes when CMD exits 0 (checkers that compare
#                               results against an independent computation);
#                               its output is shown when it fails.
#
#   tskip NAME WHY              a case that cannot run here (missing package or
#                               capability): counted as skipped, never passed.
#
# Tools are found on PATH ($BIN first); $TMP is a scratch directory of this file;
# $DATA is ../shared/data; $ROOT is the project.

PASS=0
FAIL=0
SKIP=0

_fail() {
    FAIL=$((FAIL + 1))
    printf 'FAIL %s: %s\n' "$CASE" "$1"
}

_sanitizer_clean() {
    ! grep -qE 'ERROR: (Address|Leak)Sanitizer|runtime error:|==[0-9]+== (Invalid|Conditional|.*definitely lost)' "$1"
}

t() {
    CASE="$1"; local want_exit="$2" in="$3" want_out="$4" want_err="$5"
    shift 5
    local out="$TMP/.out" err="$TMP/.err" rc
    if [ -z "$in" ]; then
        "$@" </dev/null >"$out" 2>"$err"; rc=$?
    elif [ "${in#@}" != "$in" ]; then
        "$@" <"${in#@}" >"$out" 2>"$err"; rc=$?
    else
        printf '%s' "$in" | "$@" >"$out" 2>"$err"; rc=$?
    fi
    if ! _sanitizer_clean "$err"; then _fail "sanitizer report:"; head -20 "$err"; return; fi
    if [ "$rc" != "$want_exit" ]; then
        _fail "exit $rc, want $want_exit"; head -5 "$err"; return
    fi
    if [ "$want_out" != '*' ]; then
        if [ "${want_out#@}" != "$want_out" ]; then
            if ! cmp -s "$out" "${want_out#@}"; then
                _fail "stdout differs from ${want_out#@}"; diff "$out" "${want_out#@}" | head -10; return
            fi
        elif [ "$(cat "$out")" != "$want_out" ]; then
            _fail "stdout differs"; printf -- '--- got\n%s\n--- want\n%s\n' "$(head -c 2000 "$out")" "$want_out"; return
        fi
    fi
    if [ "$want_err" = '' ]; then
        if [ -s "$err" ]; then _fail "unexpected stderr"; head -5 "$err"; return; fi
    elif [ "$want_err" != '*' ]; then
        if ! grep -qF -- "$want_err" "$err"; then
            _fail "stderr lacks '$want_err'"; head -5 "$err"; return
        fi
    fi
    PASS=$((PASS + 1))
}

tcheck() {
    CASE="$1"; shift
    local log="$TMP/.check"
    if "$@" >"$log" 2>&1 && _sanitizer_clean "$log"; then
        PASS=$((PASS + 1))
    else
        _fail "check failed"; tail -20 "$log"
    fi
}

tskip() {
    SKIP=$((SKIP + 1))
    printf 'skipped %s: %s\n' "$1" "$2"
}

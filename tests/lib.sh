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
#
# $LONG: the hang limit (seconds, for timeout) of a big case that takes a
# few seconds at -O2 and up to 20 under ASan on a fast machine: 60, and
# 120 under ASan, where a slower CI machine takes twice that.

PASS=0
FAIL=0
SKIP=0
LONG=60
[ "${BUILD:-build}" = build ] || LONG=120

# nightly_dump DIR: the nightly job's test dump (tests/cli/nightly*.sh) in
# DIR, made afresh: runs.csv and usage.csv of 16 jobs over 10 days, 30% of
# them off-kilter.  Prints where it ends (--at: the midnight after its last
# submit).
nightly_dump() {
    rm -rf "$1"; mkdir -p "$1"
    tracegen -q runs --count 16 --days 10 --set offkilter_frac=0.3 -o "$1/runs.csv" &&
        tracegen -q usage --count 16 --days 10 --set offkilter_frac=0.3 -o "$1/usage.csv" &&
        dump_end "$1/runs.csv"
}
# dump_end RUNS: the midnight after the last submit of RUNS (epoch seconds)
dump_end() { awk -F, 'NR > 1 && $3 > m { m = $3 } END { printf "%d\n", (int(m / 86400) + 1) * 86400 }' "$1"; }

# zline FILE: the line a truncated or corrupt gzip / zstd FILE breaks on,
# worked out apart from slokit's reader: the newlines that python's zlib
# (fed 256 bytes at a time) or the zstd command decode before the damage,
# plus one.
zline() {
    local n
    if [ "$(head -c 4 "$1" | od -An -tx1 | tr -d ' \n')" = 28b52ffd ]; then
        n=$(zstd -dc <"$1" 2>/dev/null | wc -l)
    else
        n=$(/usr/bin/python3 -c '
import sys, zlib
d, b, n = zlib.decompressobj(31), open(sys.argv[1], "rb").read(), 0
try:
    for i in range(0, len(b), 256):
        n += d.decompress(b[i:i + 256]).count(b"\n")
except zlib.error:
    pass
print(n)' "$1")
    fi
    echo $((n + 1))
}

_fail() {
    FAIL=$((FAIL + 1))
    printf 'FAIL %s: %s\n' "$CASE" "$1"
}

# _sanitizer_clean FILE: no sanitizer (or valgrind) report in FILE.  An
# empty FILE, or one of a single line (a tool's one-line error: most cases),
# is matched by bash itself; only a longer one costs a grep, a process
# (about 5 ms on the slower VMs, and the suite has 20,000 cases).
_sanitizer_re='ERROR: (Address|Leak)Sanitizer|runtime error:|==[0-9]+== (Invalid|Conditional|.*definitely lost)'
_sanitizer_clean() {
    [ -s "$1" ] || return 0
    local l1= l2=
    { IFS= read -r l1; IFS= read -r l2 || [ -n "$l2" ]; } <"$1" 2>/dev/null ||
        { [[ ! $l1 =~ $_sanitizer_re ]]; return; }
    ! grep -qE "$_sanitizer_re" "$1"
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
        elif [ "$(<"$out")" != "$want_out" ]; then
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

# The probes at the edges (tests/cli/optprobe.sh, cellprobe.sh): one case is
# several runs, each judged by
#   probe_judge VALUE EXIT OK-EXITS OUTPUT...
# which appends what is wrong with the run (its stderr in $TMP/.pe) to $bad:
# a sanitizer report, an exit not in OK-EXITS (124: timed out), or, when it
# exited 0, nan, inf or a number beyond 1e15 in OUTPUT (what the next tool
# would refuse); with PROBE_TEXT=1 the words nan and inf pass (a name echoed
# from a text column), with PROBE_TEXT='?' the caller's probe_text sets
# PROBE_TEXT to 0 or 1, run only when the answer matters (an output with the
# word nan or inf: a run saved on every other cell).  probe_verdict: the
# case passes when $bad is empty.
probe_judge() {
    local v=$1 rc=$2 ok=" $3 "; shift 3
    local num='e\+(1[6-9]|[2-9][0-9]|[0-9]{3})' pat f any=
    if ! _sanitizer_clean "$TMP/.pe"; then bad="$bad $v: sanitizer report;"; return; fi
    if [ "${ok#* $rc }" = "$ok" ]; then
        if [ "$rc" = 124 ]; then bad="$bad $v: timed out;"; else bad="$bad $v: exit $rc ($(head -c 100 "$TMP/.pe"));"; fi
        return
    fi
    [ "$rc" = 0 ] || return 0
    for f; do [ -s "$f" ] && any=1; done   # empty outputs: no grep to run
    [ -n "$any" ] || return 0
    pat="(^|,)-?(nan|inf)(,|\$)|$num"
    [ "${PROBE_TEXT:-0}" = '?' ] && grep -aqiE "$pat" "$@" && probe_text
    [ "${PROBE_TEXT:-0}" = 1 ] && pat=$num
    if grep -aqiE "$pat" "$@"; then
        bad="$bad $v: wrote $(grep -ahoiE '[^,]*(nan|inf|e\+[0-9]+)[^,]*' "$@" | head -1);"
    fi
}
probe_verdict() { if [ -n "$bad" ]; then _fail "$bad"; else PASS=$((PASS + 1)); fi; }
# probe_targets ACCEPT FN: for each fuzz target of tests/fuzz/afl.targets,
# its first seed (tests/fuzz/corpus/NAME/, copied to $TMP/.seeds/NAME/) that ACCEPT SEED takes and the
# target's command runs with exit 0; calls FN NAME SEED COMMAND..., the
# command with @@ where the input goes ($F expanded to a copy of
# tests/fuzz/fixed in $TMP/.fixed, as lcmpack --plan leaves PLAN.lock
# beside its plan; keyshard's shards and lcmpack's --yarn-delta in $TMP).
# A target with a seed ACCEPT takes but the command never runs fails; one
# whose seeds ACCEPT all refuses is not probed.
probe_targets() {
    local accept=$1 fn=$2 name cmd seed c any
    local -a argv
    [ -d "$TMP/.fixed" ] || cp -R "$ROOT/tests/fuzz/fixed" "$TMP/.fixed"
    while IFS='|' read -r name cmd; do
        case $name in ''|'#'*) continue ;; esac
        cmd=${cmd//\$F/$TMP/.fixed}
        cmd=${cmd//\/tmp\/slokit-fuzz-/$TMP\/}
        seed= any=
        for c in "$ROOT/tests/fuzz/corpus/$name"/*; do
            "$accept" "$c" || continue
            any=1
            # a copy: lcmpack --plan leaves PLAN.lock beside its plan, and
            # nothing a test runs may write into the tree
            mkdir -p "$TMP/.seeds/$name" && cp "$c" "$TMP/.seeds/$name/" && c=$TMP/.seeds/$name/${c##*/}
            timeout 20 ${cmd//@@/$c} </dev/null >/dev/null 2>&1 && { seed=$c; break; }
        done
        [ -z "$any" ] && continue
        if [ -z "$seed" ]; then CASE="probe $name"; _fail "no seed of tests/fuzz/corpus/$name is accepted"; continue; fi
        read -r -a argv <<<"$cmd"
        "$fn" "$name" "$seed" "${argv[@]}"
    done <"$ROOT/tests/fuzz/afl.targets"
}

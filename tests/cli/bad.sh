# The bad-input corpus (issue 10): every case of tests/bad/MANIFEST, through
# the tool on PATH.  A case passes when the tool exits with the documented
# status, names the problem as "tool: FILE:LINE: ..." (or "tool: ..." for usage
# errors; a header's missing columns in one line, the last), no sanitizer
# reports anything, and -- for a failing run -- an
# existing -o FILE is left byte-identical with no temporary left behind.
# SLOKIT_BAD_PENDING=1 also runs tests/bad/PENDING (known bugs, expected to fail).
# The cases run on a copy of the corpus: lcmpack --plan leaves PLAN.lock
# beside its plan, and nine such locks had been committed into tests/bad.
cp -r "$ROOT/tests/bad" "$TMP/bad"
BAD=$TMP/bad

# bad_case LINE: one manifest line tool|args|input|exit|stderr
bad_case() {
    local tool args input want_exit want_err
    IFS='|' read -r tool args input want_exit want_err <<<"$1"
    local path=""
    if [ "$input" = - ]; then path=$TMP/no-such-input.csv; else path=$BAD/$input; fi
    args=${args//\{D\}/$BAD}
    CASE="bad $tool $args < $input"
    local use_stdin=0
    case " $args " in *" @ "*) ;; *) [ "$input" != - ] && use_stdin=1 ;; esac
    local -a argv=()
    local a
    for a in $args; do [ "$a" = @ ] && a=$path; argv+=("$a"); done
    local name=$path
    [ $use_stdin = 1 ] && name='<stdin>'
    local want="$tool: ${want_err//@/$name}"
    local err=$TMP/.bad.err rc
    if [ $use_stdin = 1 ]; then timeout 60 "$tool" "${argv[@]}" <"$path" >/dev/null 2>"$err"; rc=$?
    else timeout 60 "$tool" "${argv[@]}" </dev/null >/dev/null 2>"$err"; rc=$?; fi
    if ! _sanitizer_clean "$err"; then _fail "sanitizer report:"; head -20 "$err"; return; fi
    if [ "$rc" != "$want_exit" ]; then _fail "exit $rc, want $want_exit"; head -3 "$err"; return; fi
    if ! W="$want" awk 'index($0, ENVIRON["W"]) == 1 { f = 1 } END { exit !f }' "$err"; then
        _fail "no stderr line starting '$want'"; head -3 "$err"; return
    fi
    # A header's missing columns: all in one line, the last one on stderr
    # (not a line per column, nor a "no rows" after it).
    case $want_err in *"missing required column"*)
        if [ "$(grep -c 'missing required column' "$err")" != 1 ] ||
            ! W="$want" awk '{ l = $0 } END { exit index(l, ENVIRON["W"]) != 1 }' "$err"; then
            _fail "the missing columns are not one line, the last on stderr:"; head -8 "$err"; return
        fi ;;
    esac
    # No terminal controls from the data on stderr (diag writes them \xHH).
    if LC_ALL=C tr -d '\n\t' <"$err" | LC_ALL=C grep -q '[[:cntrl:]]'; then
        _fail "a control byte on stderr:"; head -3 "$err" | cat -v; return
    fi
    # A failing run must not touch -o FILE (tracegen's usage errors included).
    if [ "$want_exit" -ge 64 ] && [ "${args#*-o }" = "$args" ]; then
        local od=$TMP/.bad.o; rm -rf "$od"; mkdir -p "$od"
        printf 'old,content\n1,2\n' >"$od/out.csv"
        if [ $use_stdin = 1 ]; then timeout 60 "$tool" "${argv[@]}" -o "$od/out.csv" <"$path" >/dev/null 2>"$err"; rc=$?
        else timeout 60 "$tool" "${argv[@]}" -o "$od/out.csv" </dev/null >/dev/null 2>"$err"; rc=$?; fi
        if ! _sanitizer_clean "$err"; then _fail "with -o: sanitizer report:"; head -20 "$err"; return; fi
        [ "$rc" = "$want_exit" ] || { _fail "with -o: exit $rc, want $want_exit"; head -3 "$err"; return; }
        [ "$(cat "$od/out.csv")" = $'old,content\n1,2' ] || { _fail "with -o: old output file changed"; return; }
        [ "$(ls -A "$od")" = out.csv ] || { _fail "with -o: left behind: $(ls -A "$od" | tr '\n' ' ')"; return; }
    fi
    PASS=$((PASS + 1))
}

while IFS= read -r line; do
    case $line in ''|'#'*) continue ;; esac
    bad_case "$line"
done <"$BAD/MANIFEST"

if [ "${SLOKIT_BAD_PENDING:-0}" = 1 ] && [ -f "$BAD/PENDING" ]; then
    while IFS= read -r line; do
        case $line in ''|'#'*) continue ;; esac
        bad_case "$line"
    done <"$BAD/PENDING"
fi

# The incremental plan survives a failed run in place (lcmpack --plan P -o P).
cp "$BAD/lcmpack/plan_good.csv" "$TMP/plan.csv"
t "failed replan keeps the plan" 65 '' '' "$BAD/lcmpack/sky_nan.csv:2:" \
    lcmpack -q --plan "$TMP/plan.csv" --slo "$BAD/lcmpack/slo.csv" --capacity cores=8,mem=100000 \
    "$BAD/lcmpack/sky_nan.csv" -o "$TMP/plan.csv"
tcheck "plan file byte-identical after the failed run" cmp "$TMP/plan.csv" "$BAD/lcmpack/plan_good.csv"
t "the kept plan still reads" 0 '' '*' '' lcmpack -q --plan "$TMP/plan.csv" --capacity cores=8,mem=100000

# A job name with terminal controls reaches stderr escaped in the notes that
# name jobs too (lcmpack's "not placed" without --report, skyfit's "not
# fitted"), not only in errors: they were written raw with fprintf.
t "lcmpack: a job not placed is named with its control bytes escaped" 0 '' '' \
    "lcmpack: job 'big\\x1b[2Jjob': not placed: " bash -c '
    printf "job,period,a,d,status\nbig\033[2Jjob,86400,0,3600,actionable\n" > "$1/ctl.slo"
    printf "job,step,offset,alloc\nbig\033[2Jjob,60,0,500\n" > "$1/ctl.sky"
    lcmpack --slo "$1/ctl.slo" --capacity cores=8,mem=100000 "$1/ctl.sky" -o /dev/null 2> "$1/ctl.err"
    ! LC_ALL=C tr -d "\n" < "$1/ctl.err" | LC_ALL=C grep -q "[[:cntrl:]]" && cat "$1/ctl.err" >&2' _ "$TMP"

# Replays every input the fuzzers ever flagged (tests/fuzz/regress/<target>/)
# through the tools, under whatever build runs the suite (ASan+UBSan in make
# check): each must end with a clean, documented status (0 ok, 1 a check
# failed, 65 bad data; not 70, not a signal, not a timeout) and no sanitizer
# report.  Targets are those of tests/fuzz/afl.targets; 'csv' (the libFuzzer
# target) replays through the csvcat driver.
R=$ROOT/tests/fuzz/regress
F=$ROOT/tests/fuzz/fixed
PATH=$F:$PATH   # skyplot: the stand-in gnuplot the campaign used
regress_one() {  # TARGET FILE COMMAND...
    local target=$1 file=$2; shift 2
    CASE="fuzz regress $target/$(basename "$file")"
    local err=$TMP/.fr.err rc
    timeout 120 "$@" </dev/null >/dev/null 2>"$err"; rc=$?
    if ! _sanitizer_clean "$err"; then _fail "sanitizer report:"; head -20 "$err"; return; fi
    case $rc in
        0|1|65) PASS=$((PASS + 1)) ;;
        124) _fail "timed out (120 s)" ;;
        *) _fail "exit $rc"; head -3 "$err" ;;
    esac
}
for dir in "$R"/*/; do
    target=$(basename "$dir")
    for f in "$dir"*; do
        [ -f "$f" ] || continue
        case $(basename "$f") in README*|*.md) continue ;; esac
        if [ "$target" = csv ]; then
            regress_one csv "$f" "$ROOT/$BUILD/tests/csvcat" "$f"
            continue
        fi
        line=$(grep "^$target|" "$ROOT/tests/fuzz/afl.targets") || { CASE="fuzz regress $target"; _fail "no such target in tests/fuzz/afl.targets"; continue; }
        cmd=${line#*|}
        cmd=${cmd//\$F/$F}
        read -r -a argv <<<"$cmd"
        for i in "${!argv[@]}"; do [ "${argv[$i]}" = @@ ] && argv[$i]=$f; done
        regress_one "$target" "$f" "${argv[@]}"
    done
done
# Every target of tests/fuzz/afl.targets is documented where a reader looks
# for it: a row in tests/fuzz/README.md's target table and at least one row
# in its campaign table (a target nobody ran is not fuzzed).
while IFS='|' read -r target _; do
    case $target in ''|'#'*) continue ;; esac
    CASE="fuzz docs $target"
    if ! grep -q "^| \`$target\` | AFL++ |" "$ROOT/tests/fuzz/README.md"; then
        _fail "no row in tests/fuzz/README.md's target table"
    elif ! grep -q "^| 20[0-9-]* | $target | [0-9]* |" "$ROOT/tests/fuzz/README.md"; then
        _fail "no campaign row in tests/fuzz/README.md"
    else
        PASS=$((PASS + 1))
    fi
done <"$ROOT/tests/fuzz/afl.targets"
# The 10-minute rule: a target whose campaign rows add up to under 600 s
# is listed under "Owed" with exactly those seconds; none listed is past it.
while IFS='|' read -r target _; do
    case $target in ''|'#'*) continue ;; esac
    CASE="fuzz 10 minutes $target"
    secs=$(awk -F' \\| ' -v t="$target" '$2 == t && $1 ~ /^\| 20/ { s += $3 } END { print s + 0 }' "$ROOT/tests/fuzz/README.md")
    owed=$(sed -n "s/^- \`$target\`: \([0-9]*\) s$/\1/p" "$ROOT/tests/fuzz/README.md")
    if [ "$secs" -lt 600 ] && [ "$owed" != "$secs" ]; then
        _fail "$secs s of campaigns, not listed as owed with $secs s"
    elif [ "$secs" -ge 600 ] && [ -n "$owed" ]; then
        _fail "listed as owed ($owed s) but has run $secs s"
    else
        PASS=$((PASS + 1))
    fi
done <"$ROOT/tests/fuzz/afl.targets"

# tests/exlib.sh — running documented examples as tests, sourced by
# tests/cli/helpex.sh (--help and man pages) and tests/cli/docex.sh (README and
# docs/*.md) after tests/lib.sh.
#
#   ex_run NAME DIR CMD            one example, checked (see below)
#   run_blocks LABEL KEY DIR FILE WHY
#                                  the blocks of FILE (each ended by a line
#                                  "#--block") run in order in DIR; WHY, when
#                                  set, skips them all
#   ex_prune DIR REST              remove DIR's big files (over 16 MB) whose
#                                  names REST (the examples still to run)
#                                  does not mention
#   ex_tenant_shards               shard0.csv, shard1.csv: tenants by tenant
#   ex_done DIR FAILS              remove DIR when no case failed since FAIL
#                                  was FAILS (a failure's files stay to look at)
#
# The examples write what their documentation says, some of it hundreds of MB
# (a month of 500 tenants at 2 min is 324 MB): the suite keeps its disk use to
# about one page's live files, so a CI machine with little free disk passes.
#
# Skips are the caller's associative arrays EX_SKIP_BLOCK and EX_SKIP_LINE
# (text in a block or line -> reason) and EX_SKIP_ASAN ("KEY|text in the
# block" -> reason; only in builds other than -O2's "build"); a skipped block
# or line is counted as skipped, never as passed.  EX_SKIP_BLOCK starts with
# what no test can run on any page (a caller adds its own with +=).

declare -A EX_SKIP_BLOCK=(
    ["curl "]="POSTs to a YARN ResourceManager (\$RM)"
    ["tail -f "]="tail -f follows the file forever (a live stream)"
    ["-S 2/node1"]="GNU parallel over ssh hosts node1, node2 (tests/cli/engines.sh runs it on lab hosts)"
)

# ex_tenant_shards: a tenants series split by tenant into shard0.csv and
# shard1.csv in the current directory (the input the sharded tenantclass
# examples read)
ex_tenant_shards() {
    tracegen -q tenants --count 20 --days 3 --seed 3 |
        awk -F, 'NR == 1 { h = $0; print h > "shard0.csv"; print h > "shard1.csv"; next }
            { print > ("shard" (substr($1, 7) % 2) ".csv") }'
}

# snap DIR: every entry with its inode, size and mtime (what an example
# created or rewrote is what differs after it; mtimes alone are too coarse)
snap() { find "$1" -mindepth 1 ! -name '.ex-*' -printf '%p\t%i\t%s\t%T@\n' | sort; }

# ex_run NAME DIR CMD: one example (a command, or a block of
# them) run in DIR under bash -e -o pipefail, checked
ex_run() {
    local d=$2 cmd=$3 rc f bad="" wrote=0
    CASE=$1
    snap "$d" > "$d/.ex-before"
    (cd "$d" && timeout 300 bash -e -o pipefail -c "$cmd") >"$d/.ex-out" 2>"$d/.ex-err" </dev/null; rc=$?
    if ! _sanitizer_clean "$d/.ex-err"; then _fail "sanitizer report:"; head -20 "$d/.ex-err"; return; fi
    # '... | head' ends its writer by SIGPIPE, which pipefail reports as 141
    [ "$rc" = 141 ] && [[ $cmd == *"| head"* ]] && rc=0
    if [ "$rc" != 0 ]; then _fail "exit $rc, want 0"; head -5 "$d/.ex-err"; return; fi
    while IFS= read -r f; do
        # a JSON-lines file of no records is empty (lcmpack's YARN delta with nothing to update)
        wrote=1; [ -d "$f" ] || [ -s "$f" ] || [[ $f == *.jsonl ]] || bad="$bad ${f#$d/}"
    done < <(snap "$d" | comm -13 "$d/.ex-before" - | cut -f1)
    if [ -n "$bad" ]; then _fail "empty output file(s):$bad"; return; fi
    # the files it names as output (-o FILE, > FILE) exist and are non-empty
    for f in $(printf '%s\n' "$cmd" | grep -oE '(^| )(-o|>>?) *[^ ;|&>]+' | sed -E 's/^ *(-o|>>?) *//'); do
        case $f in /dev/null|-*|*[!A-Za-z0-9_./-]*) continue ;; esac   # literal names only ($i, {.}: the file check covers them)
        wrote=1; [ -s "$d/$f" ] || bad="$bad $f"
    done
    if [ -n "$bad" ]; then _fail "named output missing or empty:$bad"; return; fi
    if [ "$wrote" = 0 ] && [ ! -s "$d/.ex-out" ]; then _fail "no output: nothing on stdout, no file written"; head -5 "$d/.ex-err"; return; fi
    PASS=$((PASS + 1))
}

# ex_prune DIR REST: DIR's files over 16 MB that REST does not name, removed
ex_prune() {
    local f
    while IFS= read -r f; do
        [[ $2 == *"$(basename "$f")"* ]] || rm -f "$f"
    done < <(find "$1" -type f -size +16M)
}

# ex_done DIR FAILS: DIR removed when FAIL is still FAILS
ex_done() { [ "$FAIL" != "$2" ] || [ -n "${SLOKIT_KEEP:-}" ] || rm -rf "$1"; }

# run_blocks LABEL KEY DIR FILE WHY: FILE's blocks in order in DIR
run_blocks() {
    local label=$1 key=$2 d=$3 file=$4 why=$5 n=0 nl=0 block="" line l p skip run cmd name
    while IFS= read -r line; do
        nl=$((nl + 1))
        if [ "$line" != '#--block' ]; then block+="$line"$'\n'; continue; fi
        n=$((n + 1)); name="$label example $n: $(printf '%s' "$block" | grep -v '^ *#' | head -1 | sed 's/^ *//')"
        skip=$why
        [ -z "$skip" ] && [ ! -d "$DATA" ] && [[ $block == *../shared/data* ]] && skip="no $DATA (the public traces beside the repository)"
        for p in "${!EX_SKIP_BLOCK[@]}"; do
            [ -z "$skip" ] && [[ $block == *"$p"* ]] && skip=${EX_SKIP_BLOCK[$p]}
        done
        for p in "${!EX_SKIP_ASAN[@]}"; do
            [ -z "$skip" ] && [ "$BUILD" != build ] && [ "${p%%|*}" = "$key" ] && [[ $block == *"${p#*|}"* ]] && skip=${EX_SKIP_ASAN[$p]}
        done
        if [ -n "$skip" ]; then tskip "$name" "$skip"; block=""; continue; fi
        run=""; cmd=""
        while IFS= read -r l; do
            cmd+="$l"
            if [[ $cmd == *\\ ]]; then cmd="${cmd%\\} "; continue; fi   # a continued line: one command
            for p in "${!EX_SKIP_LINE[@]}"; do
                if [[ $cmd == *"$p"* ]]; then tskip "$label example $n: $cmd" "${EX_SKIP_LINE[$p]}"; cmd=":"; break; fi
            done
            run+="$cmd"$'\n'; cmd=""
        done <<< "$block"
        # a block whose every line was left out has nothing left to run
        if printf '%s' "$run" | grep -qvxE ' *:?'; then ex_run "$name" "$d" "$run"; fi
        [ -n "${SLOKIT_KEEP:-}" ] || ex_prune "$d" "$(tail -n +$((nl + 1)) "$file")"
        block=""
    done < "$file"
}

# ex_skips_current FILES...: every EX_SKIP_* entry still names text of an
# example in FILES (a renamed example must not leave a stale skip behind)
ex_skips_current() {
    tcheck "every skip names text of a documented example" bash -c '
        st=0; files=(); while [ "$1" != -- ]; do files+=("$1"); shift; done; shift
        for k in "$@"; do
            cat "${files[@]}" | grep -qF -- "${k#*|}" || { echo "stale skip: $k"; st=1; }
        done
        exit $st' _ "$@" -- "${!EX_SKIP_BLOCK[@]}" "${!EX_SKIP_LINE[@]}" "${!EX_SKIP_ASAN[@]}"
}

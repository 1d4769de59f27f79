# Every column of every input, given values at the edges: each fuzz
# target's input (tests/fuzz/afl.targets, on the first seed of its corpus
# that the command accepts, a plain CSV or TSV file) and the inputs of the
# modes no target drives, in its first and its last data row.  A run must
# end in 0, 1 or 65 (bad data: slokit(7)) within 20 s, with no sanitizer
# report, and when it exits 0 it must not write nan, inf or a number beyond
# 1e15 that the next tool would refuse (in a text column, where any value
# is a name, the words nan and inf pass: a run with "x_probe" in that cell,
# made only when an output holds nan or inf, tells the cell is text).
# Found this way (2026-11-25): a DAG vertex of 1e308 tasks gave classpick a
# demand of 1e+308 in its output; one task attempt recorded from 1970
# (start 0) made reprov --evaluate-loop replay for 5 minutes, an end of
# 1e15 for ever.  The ASan pass tries four
# of the values: a run under ASan costs 75-95 ms on the slower VMs, most of
# it LeakSanitizer's check at exit, and the pass takes 5 min there
# (docs/HACKING.md, "Keep each CLI file").
values="1e308 -1e308 1e15 1e-300 0 -1 nan inf EMPTY 1e19 9999-12-31T23:59:59Z"
[ "$BUILD" = build ] || values="1e308 nan -1 EMPTY"
F=$ROOT/tests/fuzz/fixed
PATH=$F:$PATH   # skyplot: the stand-in gnuplot the fuzz campaigns use
# cells FILE ROW COL PREFIX SUFFIX VALUE...: PREFIX<k>SUFFIX is FILE with
# the cell (ROW counts the header as 1) set to the k-th VALUE (k from 1;
# EMPTY: an empty cell), in FILE's delimiter: one awk for all the values
cells() {
    local f=$1 r=$2 c=$3 pre=$4 suf=$5; shift 5
    awk -v r="$r" -v c="$c" -v pre="$pre" -v suf="$suf" -v vs="$*" '
        BEGIN { n = split(vs, v, " "); for (k = 1; k <= n; k++) if (v[k] == "EMPTY") v[k] = "" }
        NR == 1 { FS = OFS = index($0, "\t") ? "\t" : ","; $0 = $0 }
        NR != r { for (k = 1; k <= n; k++) print > (pre k suf); next }
        { for (k = 1; k <= n; k++) { $c = v[k]; print > (pre k suf) } }' "$f"
}
# cellprobe NAME SEED COMMAND...: COMMAND has @@ where the probed file goes
cellprobe() {
    local name=$1 seed=$2; shift 2
    local ext=${seed##*/}; ext=${ext#*.}
    local c v r k rows=2 PROBE_TEXT
    local -a cols argv=("$@")
    IFS=$',\t' read -r -a cols <"$seed"
    [ "$(wc -l <"$seed")" -gt 2 ] && rows="2 $(wc -l <"$seed")"
    for c in "${!cols[@]}"; do
        CASE="cell probe $name ${cols[c]}"
        bad=
        for r in $rows; do
            # .cell.1: the cell holds x_probe; .cell.2...: the values
            cells "$seed" "$r" $((c + 1)) "$TMP/.cell." ".$ext" x_probe $values
            PROBE_TEXT='?'   # probe_text, when a run writes nan or inf
            k=1
            for v in $values; do
                k=$((k + 1))
                [ "$v" = EMPTY ] && v=
                timeout 20 "${argv[@]//@@/$TMP/.cell.$k.$ext}" </dev/null >"$TMP/.po" 2>"$TMP/.pe"
                probe_judge "row $r '$v'" $? "0 1 65" "$TMP/.po"
            done
        done
        probe_verdict
    done
}
# probe_text: PROBE_TEXT=1 when the command takes x_probe in the cell (the
# column is text: a name, which may be the word nan), else 0; called by
# probe_judge inside cellprobe, whose argv, ext and TMP files it reads
probe_text() { PROBE_TEXT=0; timeout 20 "${argv[@]//@@/$TMP/.cell.1.$ext}" </dev/null >/dev/null 2>&1 && PROBE_TEXT=1; }
# a seed to probe: a plain text file (not compressed) without quotes, so
# that a cell is a field between delimiters
plain() { [ "$(head -c 2 "$1" | od -An -tx1 | tr -d ' ')" != 1f8b ] && ! grep -q '"' "$1" && head -1 "$1" | grep -q '[,	]'; }
probe_targets plain cellprobe
# the modes no fuzz target drives: NAME|SEED|COMMAND
D=$ROOT/tests/data
tenantclass -q --servers "$D/classpick/simservers.csv" --classes "$TMP/simc.csv" -o "$TMP/simo.csv" "$D/classpick/simseries.csv"
tracegen -q jobruns --count 3 -o "$TMP/jobruns.csv"
tracegen -q storage --count 20 -o "$TMP/storage.csv"
CS="classpick -q --simulate --sample in --tasks 20"
while IFS='|' read -r name seed cmd; do
    read -r -a argv <<<"$cmd"
    cellprobe "$name" "$seed" "${argv[@]}"
done <<EOF
classpick-simulate-series|$D/classpick/simseries.csv|$CS --classes $TMP/simc.csv --tenants $TMP/simo.csv --series @@ --servers $D/classpick/simservers.csv
classpick-simulate-classes|$TMP/simc.csv|$CS --classes @@ --tenants $TMP/simo.csv --series $D/classpick/simseries.csv --servers $D/classpick/simservers.csv
reprov-compare-jobruns|$TMP/jobruns.csv|reprov -q --compare-models --train 0.5 @@
reprov-loop-jobruns|$TMP/jobruns.csv|reprov -q --evaluate-loop @@
replplace-simulate|$TMP/storage.csv|replplace -q --simulate --blocks 2000 --accesses 1000 --days 3 @@
peakgate-profiles|$D/peakgate/oos_prof.csv|peakgate -q --simulate --profiles @@ $D/peakgate/oos.csv
peakgate-oos|$D/peakgate/oos.csv|peakgate -q --simulate --profiles $D/peakgate/oos_prof.csv @@
EOF

# Every option that takes a value, of every tool, given values at the edges:
# 1e308, -1e308, 1e15, 1e-300, 0 and -1.  Each tool runs as a fuzz target
# runs it (tests/fuzz/afl.targets, on the first seed of its corpus that the
# command accepts), plus the modes no target drives; the option is appended,
# so it overrides the target's own.  A value must end in a documented way
# (0, 1, 64 a usage error, 65 bad data, 66 a missing input, 73 an output
# that cannot be created, 74 an I/O error: slokit(7)) within 20 s, with
# no sanitizer report, and an accepted value must not write nan, inf or a
# number beyond 1e15 that the next tool would refuse.  Found this way
# (2026-11-24): traceconv --step 1e13 and reprov --interval 1e-300 hung,
# classpick --simulate --step 1e12 ran out of memory.  The ASan pass tries
# three of the values (1e308, 1e-300, -1): a run under ASan costs 75-95 ms
# on the slower VMs, most of it LeakSanitizer's check at exit, and the
# pass's 4,600 runs take 7.5 min there (docs/HACKING.md, "Keep each CLI file").
values="1e308 -1e308 1e15 1e-300 0 -1"
[ "$BUILD" = build ] || values="1e308 1e-300 -1"
F=$ROOT/tests/fuzz/fixed
PATH=$F:$PATH   # skyplot: the stand-in gnuplot the fuzz campaigns use
probe() {  # NAME COMMAND...: every option of the command's tool
    local name=$1; shift
    local tool=$1 o v
    for o in $("$tool" --help | grep -oE -- '--[a-z][a-z0-9-]*\[?=[A-Z]' | sed 's/\[\{0,1\}=.*//' | sort -u); do
        case $o in --col|--output) continue ;; esac
        CASE="option probe $name $o"
        bad=
        for v in $values; do
            timeout 20 "$@" "$o=$v" </dev/null >"$TMP/.po" 2>"$TMP/.pe"
            probe_judge "$v" $? "0 1 64 65 66 73 74" "$TMP/.po"
        done
        probe_verdict
    done
}
# a target on its seed: the seed in place of @@
probe_seed() { local name=$1 seed=$2; shift 2; probe "$name" "${@//@@/$seed}"; }
probe_targets true probe_seed
# the modes no fuzz target drives
D=$ROOT/tests/data/classpick
tenantclass -q --servers "$D/simservers.csv" --classes "$TMP/simc.csv" -o "$TMP/simo.csv" "$D/simseries.csv"
probe classpick-simulate classpick -q --simulate --sample in --classes "$TMP/simc.csv" --tenants "$TMP/simo.csv" \
    --series "$D/simseries.csv" --servers "$D/simservers.csv" --tasks 20
probe peakgate-model peakgate -q --simulate --model --tasks 3 --duration 1h
tracegen -q jobruns --count 5 -o "$TMP/jobruns.csv"
probe reprov-compare-jobruns reprov -q --compare-models --train 0.5 "$TMP/jobruns.csv"
probe reprov-loop-jobruns reprov -q --evaluate-loop "$TMP/jobruns.csv"
tracegen -q storage --count 20 -o "$TMP/storage.csv"
probe replplace-simulate replplace -q --simulate --blocks 2000 --accesses 1000 --days 3 "$TMP/storage.csv"
# tracegen's --set keys, every kind (found this way: taskmem gap_s=1e308
# hung, requests step=1e308 and maxc=1e308 and taskmem normal_max=1e308
# wrote values the next tool refuses)
while read -r kind truth keys; do
    tr=(); [ "$truth" = 1 ] && tr=(--truth "$TMP/.pt")
    : >"$TMP/.pt"
    for key in $keys; do
        CASE="option probe tracegen $kind --set $key"
        bad=
        for v in $values; do
            timeout 20 tracegen -q "$kind" --count 2 --days 1 --set "$key=$v" ${tr[@]+"${tr[@]}"} </dev/null >"$TMP/.po" 2>"$TMP/.pe"
            probe_judge "$v" $? "0 64" "$TMP/.po" "$TMP/.pt"
        done
        probe_verdict
    done
done < <(tracegen --list | awk -F'\t' '/^[a-z]/ { k = $1; t = 0 } /truth:/ { t = 1 } /--set:/ { sub(/.*--set: */, ""); print k, t, $0 }')

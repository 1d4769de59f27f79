# lcmpack_append: adding jobs to a plan file in place (plan segments, the
# PLAN.idx index, torn tails; lib/morpheus/plan.h SEGMENTS, lib/morpheus/planidx.h).
# Every run on F (-o the --plan file itself, with its index) is repeated on S
# with --no-index (the plan read, validated and rewritten whole, as before the
# index existed): plans, reports, load profiles and summaries must be the same
# bytes.  The summary says which path ran: "(appended in place)" or "(from the
# index: plan file unchanged)" only when the index was used.  Plans are also
# checked by the independent validator tests/check/plan_validate.py, which
# knows segments from lib/morpheus/plan.h, and tests/check/plan_segment.py cuts plans
# into segments independently of lcmpack.
D="$ROOT/tests/data/lcmpack"
PY=/usr/bin/python3
V="$ROOT/tests/check/plan_validate.py"
SEG="$PY $ROOT/tests/check/plan_segment.py"
CAP="--capacity cores=400,mem=4000000"
F="$TMP/F.csv" S="$TMP/S.csv"
tracegen requests --seed 5 --count 50 --set offkilter=0 --truth "$TMP/all.slo" >"$TMP/all.sky"
# jobs LO HI: the skylines of jobs LO <= job < HI (with the header)
jobs() { awk -F, -v lo="$1" -v hi="$2" 'NR == 1 || ($1 >= lo && $1 < hi)' "$TMP/all.sky"; }
jobs job00000 job00030 >"$TMP/base.sky"
: >"$TMP/order.sky.list"   # the skylines added, in order (for the one-run plan below)
# add NAME SKY [OPTION...]: the same run on F (index) and on S (--no-index)
add() {
    local n=$1 sky=$2
    shift 2
    lcmpack --plan "$F" --slo "$TMP/all.slo" $CAP "$sky" -o "$F" --report "$TMP/F$n.rep" --load "$TMP/F$n.load" \
        "$@" 2>"$TMP/F$n.err"
    echo $? >"$TMP/F$n.rc"
    lcmpack --no-index --plan "$S" --slo "$TMP/all.slo" $CAP "$sky" -o "$S" --report "$TMP/S$n.rep" \
        --load "$TMP/S$n.load" "$@" 2>"$TMP/S$n.err"
    echo $? >"$TMP/S$n.rc"
    echo "$sky" >>"$TMP/order.sky.list"
}
# same NAME: both runs agree byte for byte (the path note, a torn-tail warning
# and the placement's wall-clock time aside)
same() {
    cmp "$F" "$S" && cmp "$TMP/F$1.rep" "$TMP/S$1.rep" && cmp "$TMP/F$1.load" "$TMP/S$1.load" &&
        cmp "$TMP/F$1.rc" "$TMP/S$1.rc" &&
        sed '/warning: ignoring an incomplete append/d; s/ (appended in place)$//; s/ (from the index: plan file unchanged)$//; s/placement [0-9.]* s/placement s/' \
            "$TMP/F$1.err" | cmp - <(sed 's/placement [0-9.]* s/placement s/' "$TMP/S$1.err")
}
inplace() { grep -q ' (appended in place)$' "$TMP/F$1.err"; }
slow() { ! grep -q ' (appended in place)$\| (from the index: plan file unchanged)$' "$TMP/F$1.err"; }
nseg() { test "$(grep -c '^slokit-plan/1,,end,' "$1")" = "$2"; }

# ---- a fresh plan and its index ----------------------------------------------------
lcmpack -q --slo "$TMP/all.slo" $CAP "$TMP/base.sky" -o "$F"
lcmpack -q --no-index --slo "$TMP/all.slo" $CAP "$TMP/base.sky" -o "$S"
echo "$TMP/base.sky" >"$TMP/order.sky.list"
tcheck "fresh plan: index written"       test -s "$F.idx"
tcheck "--no-index: no index written"    test ! -e "$S.idx"
tcheck "fresh plan: one segment, same bytes" sh -c 'cmp "$1" "$2" && test "$(grep -c ",end," "$1")" = 1' _ "$F" "$S"
lcmpack -q --slo "$TMP/all.slo" $CAP "$TMP/base.sky" -o - >"$TMP/stdout.csv"
tcheck "stdout: no index"                test ! -e "$TMP/-.idx"

# ---- adding in place = reading and rewriting -------------------------------------
jobs job00030 job00031 >"$TMP/one.sky"
add 1 "$TMP/one.sky"
tcheck "add one: appended in place"      inplace 1
tcheck "add one: same plan, report, load, summary as --no-index" same 1
tcheck "add one: a second segment"       nseg "$F" 2
tcheck "add one: validator"              $PY "$V" "$F" --sky "$TMP/all.sky" --slo "$TMP/all.slo" --cap 400,4000000
tcheck "add one: the old plan is a prefix" sh -c 'n=$(wc -c <"$1"); cmp -n "$n" "$1" "$2"' _ "$TMP/stdout.csv" "$F"

jobs job00031 job00036 >"$TMP/five.sky"
add 5 "$TMP/five.sky"
tcheck "add five: appended in place"     inplace 5
tcheck "add five: same as --no-index"    same 5
tcheck "add five: third segment"         nseg "$F" 3
tcheck "add five: five placed"           sh -c 'test "$(grep -c ",placed," "$1")" = 5' _ "$TMP/F5.rep"

# --improve moves only this run's jobs: still appended in place, the same
# bytes as --no-index (on copies: the plans above stay one run's plan)
cp "$F" "$TMP/Fi.csv"; cp "$S" "$TMP/Si.csv"
lcmpack -q --plan "$TMP/Fi.csv" --slo "$TMP/all.slo" $CAP "$TMP/base.sky" -o "$TMP/Fi.csv"   # all kept: writes the index
jobs job00045 job00050 >"$TMP/imp.sky"
lcmpack --plan "$TMP/Fi.csv" --slo "$TMP/all.slo" $CAP "$TMP/imp.sky" -o "$TMP/Fi.csv" --improve 3 2>"$TMP/Fi.err"
lcmpack --no-index --plan "$TMP/Si.csv" --slo "$TMP/all.slo" $CAP "$TMP/imp.sky" -o "$TMP/Si.csv" --improve 3 2>"$TMP/Si.err"
tcheck "--improve: appended in place"    grep -q ' (appended in place)$' "$TMP/Fi.err"
tcheck "--improve: jobs moved"           grep -q -- '--improve: [1-9][0-9]* moves' "$TMP/Fi.err"
tcheck "--improve: same plan as --no-index" cmp "$TMP/Fi.csv" "$TMP/Si.csv"
tcheck "--improve: validator"            $PY "$V" "$TMP/Fi.csv" --sky "$TMP/all.sky" --slo "$TMP/all.slo" --cap 400,4000000

# a request for a job already in the plan: kept, the file is not touched
jobs job00003 job00004 >"$TMP/kept.sky"
cp "$F" "$TMP/before.csv"
add k "$TMP/kept.sky"
tcheck "kept: from the index, plan untouched" grep -q ' (from the index: plan file unchanged)$' "$TMP/Fk.err"
tcheck "kept: reported kept"             grep -q '^job00003,periodic,,kept,' "$TMP/Fk.rep"
tcheck "kept: plan byte-identical to before" cmp "$F" "$TMP/before.csv"
tcheck "kept: same as --no-index"        same k

# a request that fits nowhere (a gang of 1,000 cores on 400): rejected, the file not touched
printf 'job,step,offset,alloc,gang\nhuge,60,0,1000,1000\n' >"$TMP/huge.sky"
printf 'job,period,a,d\nhuge,86400,0,3600\n' >"$TMP/huge.slo"
lcmpack --plan "$F" --slo "$TMP/huge.slo" $CAP "$TMP/huge.sky" -o "$F" --report "$TMP/Fh.rep" --load "$TMP/Fh.load" 2>"$TMP/Fh.err"; echo $? >"$TMP/Fh.rc"
lcmpack --no-index --plan "$S" --slo "$TMP/huge.slo" $CAP "$TMP/huge.sky" -o "$S" --report "$TMP/Sh.rep" --load "$TMP/Sh.load" 2>"$TMP/Sh.err"; echo $? >"$TMP/Sh.rc"
tcheck "rejected: reported with the reason" grep -q '^huge,periodic,,rejected,,,,,"one gang of 1000 containers of cores=1, mem_mb=1024 (cores=1000, mem_mb=1024000) is larger than the capacity at every step (at most cores=400, mem_mb=4000000)' "$TMP/Fh.rep"
tcheck "rejected: plan untouched, from the index" sh -c 'cmp "$1" "$2" && grep -q "(from the index: plan file unchanged)" "$3"' _ "$F" "$TMP/before.csv" "$TMP/Fh.err"
tcheck "rejected: same as --no-index"    same h

# --remove, --replan, --format yarn, --query, another -o, --no-index: the slow path
lcmpack --plan "$F" --slo "$TMP/all.slo" $CAP "$TMP/kept.sky" -o "$TMP/other.csv" 2>"$TMP/o.err"
tcheck "-o another file: plan read, no in-place note" sh -c '! grep -q "in place\|from the index" "$1" && cmp "$2" "$3"' _ "$TMP/o.err" "$F" "$TMP/other.csv"
tcheck "-o another file: gets its own index" test -s "$TMP/other.csv.idx"

# ---- the index is only used when it describes the plan as it is ---------------------
jobs job00036 job00037 >"$TMP/j36.sky"
touch -d '2001-01-01' "$F"
add t "$TMP/j36.sky"
tcheck "touched plan: index stale, slow path" slow t
tcheck "touched plan: same as --no-index" same t
jobs job00037 job00038 >"$TMP/j37.sky"
add t2 "$TMP/j37.sky"
tcheck "after the slow path: index fresh again, in place" inplace t2
tcheck "after the slow path: same as --no-index" same t2

# rewritten by other means in place (same inode, same bytes, another mtime)
cp "$S" "$F"
jobs job00038 job00039 >"$TMP/j38.sky"
add c "$TMP/j38.sky"
tcheck "copied over: slow path"          slow c
tcheck "copied over: same as --no-index" same c

# another size, same mtime (a blank line appended, mtime put back)
touch -r "$F" "$TMP/ref"
printf '\n' >>"$F"
touch -r "$TMP/ref" "$F"
jobs job00039 job00040 >"$TMP/j39.sky"
add z "$TMP/j39.sky"
tcheck "other size, same mtime: slow path" slow z
tcheck "other size, same mtime: same as --no-index" same z

# corrupt indexes are ignored: garbage, cut short, another version, a flipped byte
jobs job00040 job00041 >"$TMP/j40.sky"
printf 'garbage\n' >"$F.idx"
add g "$TMP/j40.sky"
tcheck "garbage index: slow path"        slow g
tcheck "garbage index: same as --no-index" same g
jobs job00041 job00042 >"$TMP/j41.sky"
head -c 1000 "$F.idx" >"$TMP/cut.idx"; cat "$TMP/cut.idx" >"$F.idx"
add s "$TMP/j41.sky"
tcheck "truncated index: slow path"      slow s
tcheck "truncated index: same as --no-index" same s
jobs job00042 job00043 >"$TMP/j42.sky"
printf '\001' | dd of="$F.idx" bs=1 seek=8 conv=notrunc 2>/dev/null
add v "$TMP/j42.sky"
tcheck "other index version: slow path"  slow v
tcheck "other index version: same as --no-index" same v
jobs job00043 job00044 >"$TMP/j43.sky"
printf '\377' | dd of="$F.idx" bs=1 seek=3000 conv=notrunc 2>/dev/null
add x "$TMP/j43.sky"
tcheck "flipped index byte: slow path"   slow x
tcheck "flipped index byte: same as --no-index" same x
tcheck "many segments: validator"        $PY "$V" "$F" --sky "$TMP/all.sky" --slo "$TMP/all.slo" --cap 400,4000000

# --at with nothing expiring keeps the fast path; a once-reservation expiring
# at --at needs a rewrite (slow path), exactly as without the index
lcmpack -q --slo "$D/once.slo.csv" --capacity cores=10,mem=100000 --at 2026-01-05 "$D/once.sky.csv" -o "$TMP/O.csv"
cp "$TMP/O.csv" "$TMP/OS.csv"
printf 'job,step,offset,alloc\nP,60,0,1\n' >"$TMP/p.sky"
printf 'job,period,a,d\nP,86400,0,600\n' >"$TMP/p.slo"
lcmpack --plan "$TMP/O.csv" --slo "$TMP/p.slo" --capacity cores=10,mem=100000 --at 2026-01-05 "$TMP/p.sky" -o "$TMP/O.csv" 2>"$TMP/O1.err"
lcmpack --no-index --plan "$TMP/OS.csv" --slo "$TMP/p.slo" --capacity cores=10,mem=100000 --at 2026-01-05 "$TMP/p.sky" -o "$TMP/OS.csv" 2>/dev/null
tcheck "--at, nothing expires: in place" sh -c 'grep -q "(appended in place)" "$1" && cmp "$2" "$3"' _ "$TMP/O1.err" "$TMP/O.csv" "$TMP/OS.csv"
printf 'job,step,offset,alloc\nQ,60,0,1\n' >"$TMP/q.sky"
printf 'job,period,a,d\nQ,86400,0,600\n' >"$TMP/q.slo"
lcmpack --plan "$TMP/O.csv" --slo "$TMP/q.slo" --capacity cores=10,mem=100000 --at 2026-01-07 "$TMP/q.sky" -o "$TMP/O.csv" 2>"$TMP/O2.err"
lcmpack --no-index --plan "$TMP/OS.csv" --slo "$TMP/q.slo" --capacity cores=10,mem=100000 --at 2026-01-07 "$TMP/q.sky" -o "$TMP/OS.csv" 2>/dev/null
tcheck "--at, once rows expire: slow path, compacted" sh -c '! grep -q "in place\|from the index" "$1" && grep -q " 25 expired" "$1" && cmp "$2" "$3" && test "$(grep -c ",end," "$2")" = 1' _ "$TMP/O2.err" "$TMP/O.csv" "$TMP/OS.csv"

# ---- torn tails: an append that did not finish --------------------------------------
cp "$F" "$TMP/before.csv"
L=$(wc -l <"$F")
printf 'slokit-plan/1,zz,periodic,0,,0,60,86' >>"$F"
t "torn tail: warning, plan as of the last trailer" 0 '' '' \
    "lcmpack: $F:$((L + 1)): warning: ignoring an incomplete append after the trailer at line $L" \
    lcmpack --plan "$F" $CAP -o "$TMP/T.csv"
tcheck "torn tail: the plan read is the plan before the append" cmp "$TMP/T.csv" "$TMP/before.csv"
t "torn tail: -q silences the warning" 0 '' '' '' lcmpack -q --plan "$F" $CAP -o "$TMP/T.csv"
jobs job00044 job00045 >"$TMP/j44.sky"
add r "$TMP/j44.sky"
tcheck "torn tail: the next append drops it" same r
tcheck "torn tail: gone from the plan" sh -c '! grep -q "^slokit-plan/1,zz," "$1" && $2 "$3" "$1" --sky "$4" --slo "$5" --cap 400,4000000' \
    _ "$F" "$PY" "$V" "$TMP/all.sky" "$TMP/all.slo"
# a tail of complete rows and zeros (a crash after the size grew)
cp "$F" "$TMP/before.csv"
{ sed -n 2,3p "$F"; head -c 300 /dev/zero; } >>"$F"
t "torn tail of rows and zeros: warning" 0 '' '' "ignoring an incomplete append after the trailer at line $(wc -l <"$TMP/before.csv")" \
    lcmpack --plan "$F" $CAP -o "$TMP/T.csv"
tcheck "torn tail of rows and zeros: plan before the append" cmp "$TMP/T.csv" "$TMP/before.csv"
# a tail that holds a complete trailer is no torn append: checked, refused
cp "$TMP/before.csv" "$F"
{ sed -n 2p "$F"; echo 'slokit-plan/1,,end,99,,,60,86400,,,,,,,,,,00000000'; } >>"$F"
t "tail with a wrong trailer refused" 65 '' '' 'trailer does not match the rows (99 rows' lcmpack --plan "$F" $CAP
# a torn tail without any valid trailer before it: truncated
head -n 5 "$TMP/before.csv" >"$TMP/cut.csv"
t "no complete trailer at all: truncated" 65 '' '' 'no trailer row' lcmpack --plan "$TMP/cut.csv" $CAP
# from a pipe a torn tail cannot be told from truncation
t "torn tail on stdin refused" 65 '' '' "no trailer row (kind 'end') after the rows that follow the trailer at line" \
    sh -c '{ cat "$1"; sed -n 2p "$1"; } | lcmpack --plan - '"$CAP" _ "$TMP/before.csv"
cp "$TMP/before.csv" "$F"; cp "$F" "$S"; rm -f "$F.idx"

# ---- trailers in the middle must match the rows before them -------------------------
sed '0,/^slokit-plan\/1,,end,/s/^\(slokit-plan\/1,,end,\)\([0-9]*\),/\1\2000,/' "$F" >"$TMP/m1.csv"
t "mid-file trailer: wrong count refused" 65 '' '' "trailer does not match the rows" lcmpack --plan "$TMP/m1.csv" $CAP
sed '0,/^slokit-plan\/1,,end,/s/^\(slokit-plan\/1,,end,.*\),[0-9a-f]\{8\}$/\1,00000000/' "$F" >"$TMP/m2.csv"
t "mid-file trailer: wrong crc refused" 65 '' '' "trailer does not match the rows" lcmpack --plan "$TMP/m2.csv" $CAP
tcheck "mid-file trailer edits: one line each, not the last" bash -c 'for m in "$2" "$3"; do test "$(diff "$1" "$m" | grep -c "^>")" = 1 && tail -1 "$1" | cmp -s - <(tail -1 "$m") || exit 1; done' _ "$F" "$TMP/m1.csv" "$TMP/m2.csv"
# ---- the incremental plan = one run; --remove compacts --------------------------------
# (the jobs added, in order; kept.sky asked again for a job already there)
grep -v kept.sky "$TMP/order.sky.list" | xargs cat | awk -F, 'NR == 1 || $1 != "job"' >"$TMP/allin.sky"
lcmpack -q --slo "$TMP/all.slo" $CAP "$TMP/allin.sky" -o "$TMP/G.csv"
tcheck "incremental rows = one run's rows" sh -c 'grep -v ",end," "$1" >"$3.a"; grep -v ",end," "$2" >"$3.b"; cmp "$3.a" "$3.b"' \
    _ "$F" "$TMP/G.csv" "$TMP/rows"
tcheck "incremental plan has many segments" sh -c 'test "$(grep -c ",end," "$1")" -ge 10' _ "$F"
lcmpack -q --plan "$F" --remove job00031 $CAP -o "$TMP/R.csv"
lcmpack -q --plan "$TMP/G.csv" --remove job00031 $CAP -o "$TMP/RG.csv"
tcheck "--remove compacts: one segment" nseg "$TMP/R.csv" 1
tcheck "--remove compacts: = the one-run plan minus the job" cmp "$TMP/R.csv" "$TMP/RG.csv"
tcheck "--remove: job gone"              sh -c '! grep -q "^slokit-plan/1,job00031," "$1"' _ "$TMP/R.csv"
# in place: --remove on -o the same file rewrites it (index rewritten too)
cp "$F" "$TMP/Frm.csv"
lcmpack --plan "$TMP/Frm.csv" --remove job00031 $CAP -o "$TMP/Frm.csv" 2>"$TMP/Frm.err"
tcheck "--remove in place: slow path, compacted" sh -c '! grep -q "in place\|from the index" "$1" && cmp "$2" "$3" && test -s "$2.idx"' _ "$TMP/Frm.err" "$TMP/Frm.csv" "$TMP/R.csv"

# ---- a write error while appending: the plan stays as it was ----------------------
lcmpack -q --slo "$TMP/all.slo" $CAP "$TMP/base.sky" -o "$TMP/W.csv"
cp "$TMP/W.csv" "$TMP/Wbefore.csv"
size=$(wc -c <"$TMP/W.csv")
bash -c 'trap "" XFSZ; ulimit -f $(( ($2 + 1023) / 1024 )); exec lcmpack --plan "$1" --slo "$3" '"$CAP"' "$4" -o "$1"' \
    _ "$TMP/W.csv" "$size" "$TMP/all.slo" "$TMP/five.sky" 2>"$TMP/W.err"
echo $? >"$TMP/W.rc"
t "append past the file size limit: exit 74" 0 '' '74' '' cat "$TMP/W.rc"
tcheck "append failed: one-line error" grep -q "^lcmpack: $TMP/W.csv: write error: File too large (plan left as it was)$" "$TMP/W.err"
tcheck "append failed: the error alone, no summary of a plan not written" sh -c '[ "$(wc -l < "$1")" = 1 ]' _ "$TMP/W.err"
tcheck "append failed: plan byte-identical to before" cmp "$TMP/W.csv" "$TMP/Wbefore.csv"
lcmpack -q --plan "$TMP/W.csv" --slo "$TMP/all.slo" $CAP "$TMP/five.sky" -o "$TMP/W.csv"
lcmpack -q --no-index --plan "$TMP/Wbefore.csv" --slo "$TMP/all.slo" $CAP "$TMP/five.sky" -o "$TMP/Wbefore.csv"
tcheck "after the failed append: the next run adds correctly" cmp "$TMP/W.csv" "$TMP/Wbefore.csv"

# ---- other readers of multi-segment plans: reprov, replay, skyplot -------------------
RD="$ROOT/tests/data/reprov"
$SEG "$RD/plan.csv" "$TMP/rp0.csv" 0
$SEG "$RD/plan.csv" "$TMP/rp4.csv" 4
reprov -q --capacity cores=3000,mem=1e9 --plan "$RD/plan.csv" "$RD/straggler.csv" >"$TMP/rp.out"
t "reprov: empty first segment"  0 '' @"$TMP/rp.out" '' reprov -q --capacity cores=3000,mem=1e9 --plan "$TMP/rp0.csv" "$RD/straggler.csv"
t "reprov: empty last segment"   0 '' @"$TMP/rp.out" '' reprov -q --capacity cores=3000,mem=1e9 --plan "$TMP/rp4.csv" "$RD/straggler.csv"
tcheck "reprov: the decisions are there" grep -q ',dra,' "$TMP/rp.out"
PD="$ROOT/tests/data/replay"
$SEG "$PD/plan.csv" "$TMP/pl0.csv" 0
$SEG "$PD/plan.csv" "$TMP/pl3.csv" 0 3
RP="replay -q --slo $PD/slo.csv --provisioned $PD/prov.csv --capacity cores=4,mem=100000"
$RP --plan "$PD/plan.csv" "$PD/fair.csv" >"$TMP/pl.out"
t "replay: two segments"         0 '' @"$TMP/pl.out" '' $RP --plan "$TMP/pl0.csv" "$PD/fair.csv"
t "replay: three segments"       0 '' @"$TMP/pl.out" '' $RP --plan "$TMP/pl3.csv" "$PD/fair.csv"
skyplot -q plan "$TMP/G.csv" -o "$TMP/g.svg"
t "skyplot: many segments = one segment" 0 '' @"$TMP/g.svg" '' skyplot -q plan "$F" -o -

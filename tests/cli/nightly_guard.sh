# The nightly job (examples/nightly-plan.sh) against what an audit found in
# a week of nights: a dump cut short that ends before last night's plan, a
# state it may not write (read-only mount, no permission for its owner),
# the exit status of a failing step, the state's links, and lcmpack's own
# --stable count in the report.
N="$ROOT/examples/nightly-plan.sh"
tel="$TMP/tel"; st="$TMP/state"
rm -rf "$st"; at=$(nightly_dump "$tel")
export CAPACITY=cores=2000,mem=8000000 SLOKIT_BIN="$ROOT/$BUILD/bin"
unset ALLOW_EARLIER POST_ACK
day() { date -u -d "@$1" +%F; }
# the state files a night publishes, as one fingerprint
snapshot() { (cd "$1" && readlink current && cat plan.csv report.txt yarn.jsonl yarn/submit.jsonl yarn/update.jsonl yarn/delete.jsonl decisions.csv | md5sum); }
export -f snapshot

t "first night" 0 '' '*' '' env NOW=$((at + 5400)) bash "$N" "$tel" "$st"

# lcmpack --stable says how many jobs it kept, moved and placed; the report
# showed only its own count of decisions.csv's rows (the changes: line)
tcheck "report: lcmpack's --stable line" bash -c '
    n=$(grep -c "^job" "$1/slo.csv"); l=$(grep "^plan: *--stable 10%: " "$1/report.txt") &&
    [[ $l =~ ^plan:\ +--stable\ 10%:\ 0\ kept,\ 0\ moved\ \(0\ placed\ again\),\ [1-9][0-9]*\ new,\ 0\ removed$ ]] ||
        { echo "got: $l"; exit 1; }' _ "$st"

# STATE/rm-plan.csv was a link to current/rm-plan.csv on every night, which
# exists only with POST_ACK=1: a dangling link (cp -rL STATE backup failed)
tcheck "no POST_ACK: no rm-plan.csv link, and cp -rL of the state works" bash -c '
    [ ! -L "$1/rm-plan.csv" ] && [ ! -e "$1/rm-plan.csv" ] && cp -rL "$1" "$2"' _ "$st" "$TMP/backup1"
tcheck "no link of the state dangles" bash -c 'for f in "$1"/*; do [ -e "$f" ] || { echo "dangling: $f"; exit 1; }; done' _ "$st"
stp="$TMP/state-pa"; cp -a "$st" "$stp"
t "POST_ACK=1 night" 0 '' '*' '' env POST_ACK=1 NOW=$((at + 5400)) bash "$N" "$tel" "$stp"
tcheck "POST_ACK=1: rm-plan.csv linked, and read through the link" bash -c '
    [ "$(readlink "$1/rm-plan.csv")" = current/rm-plan.csv ] && head -1 "$1/rm-plan.csv" | grep -q "^plan,"' _ "$stp"
t "the night after, without POST_ACK" 0 '' '*' '' env NOW=$((at + 5400)) bash "$N" "$tel" "$stp"
tcheck "without POST_ACK again: the rm-plan.csv link is gone, cp -rL works" bash -c '
    [ ! -L "$1/rm-plan.csv" ] && cp -rL "$1" "$2"' _ "$stp" "$TMP/backup2"
# a night whose plan is empty has no plan.svg: no link to it either
ne="$TMP/tel-none"; sne="$TMP/state-none"; mkdir -p "$ne"; cp -a "$st" "$sne"
tracegen -q runs --count 6 --days 10 --set actionable_frac=0 -o "$ne/runs.csv"
tracegen -q usage --count 6 --days 10 --set actionable_frac=0 -o "$ne/usage.csv"
ALLOW_EARLIER=1 bash "$N" "$ne" "$sne" > /dev/null 2>&1
tcheck "an empty plan: no plan.svg link, none dangling" bash -c '
    grep -qx "picture:   none (the plan has no reservations)" "$1/report.txt" && [ ! -L "$1/plan.svg" ] &&
    for f in "$1"/*; do [ -e "$f" ] || { echo "dangling: $f"; exit 1; }; done' _ "$sne"

# A time-ordered runs.csv cut short ends days before last night's plan: the
# night planned from then (exit 0), deleted the coming one-off reservations
# and submitted instances whose deadlines had passed.  It fails now, with
# one line, and last night's state stays; ALLOW_EARLIER=1 forces it.
cut="$TMP/tel-cut"; mkdir -p "$cut"; cp "$tel/usage.csv" "$cut/"
awk -F, -v e=$((at - 3 * 86400)) 'NR == 1 || $3 < e' "$tel/runs.csv" > "$cut/runs.csv"
cat_=$(dump_end "$cut/runs.csv")
before=$(snapshot "$st")
t "a dump ending before last night's plan: the night fails (65), in one line" 65 '' '' \
    "nightly-plan: tonight's dump ends $(day $((cat_ - 1))), before last night's plan from $(day "$at"): a dump cut short? last night's plan is kept (ALLOW_EARLIER=1 plans from $(day "$cat_") all the same)" \
    env NOW=$((at + 5400)) bash "$N" "$cut" "$st"
tcheck "... its stderr is that one line" bash -c '[ "$(wc -l < "$1/.err")" = 1 ]' _ "$TMP"
tcheck "... last night's state intact, no debris" bash -c '[ "$(snapshot "$1")" = "$2" ] && ! ls -A "$1" | grep -q tonight' _ "$st" "$before"
t "the same dump on the same day: planned as before" 0 '' '*' '' env NOW=$((at + 5400)) bash "$N" "$tel" "$st"
sf="$TMP/state-forced"; cp -a "$st" "$sf"
t "ALLOW_EARLIER=1: planned from the dump's end all the same" 0 '' '*' '' env ALLOW_EARLIER=1 NOW=$((at + 5400)) bash "$N" "$cut" "$sf"
tcheck "ALLOW_EARLIER=1: the report warns, with both days" bash -c '
    head -1 "$1/report.txt" | grep -q "plan from $(date -u -d "@$2" +%FT%TZ)\$" &&
    grep -qx "warning:   tonight.s dump ends $3, before last night.s plan from $4: planned from $5 all the same (ALLOW_EARLIER=1)" "$1/report.txt"' \
    _ "$sf" "$cat_" "$(day $((cat_ - 1)))" "$(day "$at")" "$(day "$cat_")"
t "ALLOW_EARLIER=yes: exit 64, said" 64 '' '' "nightly-plan: ALLOW_EARLIER is 0 or 1, not 'yes'" \
    env ALLOW_EARLIER=yes bash "$N" "$cut" "$st"

# One run submitted days after now (a host whose clock runs ahead) dated
# the plan from the midnight after it, without a word: today's ad-hoc
# requests expired, the YARN bodies were dated days ahead, and every later
# night failed "before last night's plan".  It is left out of the date now.
fut="$TMP/tel-fut"; mkdir -p "$fut"; cp "$tel/usage.csv" "$fut/"
{ cat "$tel/runs.csv"; j=$(awk -F, 'NR == 2 { print $1 }' "$tel/runs.csv")
  f=$((at + 3 * 86400)); echo "$j,$j-999999,$f,$((f + 10)),$((f + 100)),$((f - 100)),$((f + 200)),ok"; } > "$fut/runs.csv"
sfu="$TMP/state-fut"; cp -a "$st" "$sfu"
t "a run submitted after now: the night runs" 0 '' '*' '' env NOW=$((at + 5400)) bash "$N" "$fut" "$sfu"
tcheck "... planned from the dump's own day, the row named in a warning" bash -c '
    head -1 "$1/report.txt" | grep -q "plan from $(date -u -d "@$2" +%FT%TZ)\$" &&
    grep -qx "warning:   1 run(s) in runs.csv submitted after now ($(date -u -d "@$(($2 + 5400))" +%FT%TZ)), the latest at $(date -u -d "@$(($2 + 3 * 86400))" +%FT%TZ): left out of the plan.s date (a clock running ahead?)" "$1/report.txt"' _ "$sfu" "$at"
t "... and the night after, on a dump without it, runs" 0 '' '*' '' env NOW=$((at + 5400)) bash "$N" "$tel" "$sfu"
tcheck "... with no warning of it" bash -c '! grep -q "submitted after now" "$1/report.txt"' _ "$sfu"
# The YARN queue and cluster timestamp were fixed ("dedicated", 0): on a
# cluster whose reservable queue has another name the RM refuses every body.
sq2="$TMP/state-queue"
t "QUEUE and CLUSTER_TIMESTAMP: the night runs" 0 '' '*' '' \
    env QUEUE=prod.batch CLUSTER_TIMESTAMP=1767225600000 NOW=$((at + 5400)) bash "$N" "$tel" "$sq2"
tcheck "... every body of yarn.jsonl and the delta in that queue, ids of that timestamp" python3 -c '
import json, sys
n = 0
for f in ("yarn.jsonl", "yarn/submit.jsonl"):
    for l in open(sys.argv[1] + "/" + f):
        b = json.loads(l); n += 1
        assert b["queue"] == "prod.batch", b["queue"]
        assert b["reservation-id"].startswith("reservation_1767225600000_"), b["reservation-id"]
assert n > 0' "$sq2"
for v in "a b" "q,1"; do
    t "QUEUE='$v': exit 64, said" 64 '' '' "nightly-plan: QUEUE is a YARN queue name" env QUEUE="$v" bash "$N" "$tel" "$TMP/state-q64"
done
for v in -1 abc 4000000000000001; do
    t "CLUSTER_TIMESTAMP=$v: exit 64, said" 64 '' '' "nightly-plan: CLUSTER_TIMESTAMP is the RM's cluster timestamp" \
        env CLUSTER_TIMESTAMP="$v" bash "$N" "$tel" "$TMP/state-q64"
done
onlyf="$TMP/tel-onlyfut"; mkdir -p "$onlyf"
awk -F, -v d=$((11 * 86400)) 'NR == 1 { print; next } { OFS = ","; $3 += d; print }' "$tel/usage.csv" > "$onlyf/usage.csv"
awk -F, -v d=$((11 * 86400)) 'NR == 1 { print; next } { OFS = ","; for (i = 3; i <= 7; i++) $i += d; print }' "$tel/runs.csv" > "$onlyf/runs.csv"
t "every run submitted after now: exit 65, said" 65 '' '' \
    "no usable submit time (epoch seconds or ISO 8601) before now; " env NOW=$((at + 5400)) bash "$N" "$onlyf" "$TMP/state-onlyfut"

# Statuses are counted by their leading word: a kept row with a qualifier
# (lcmpack keeping a changed job's old reservation when its new request is
# refused) is kept.  lcmpack here marks every kept row "kept-refused".
q="$TMP/bin-kq"; rm -rf "$q"; mkdir -p "$q"
for f in "$ROOT/$BUILD/bin"/*; do ln -s "$f" "$q/"; done; rm "$q/lcmpack"
printf '#!/bin/bash\nrep=\nfor a; do [ "$p" = --report ] && rep=$a; p=$a; done\n"%s" "$@" || exit\n[ -z "$rep" ] || sed -i "s/^\\([^,]*,[^,]*,[^,]*,\\)kept,/\\1kept-refused,/" "$rep"\n' \
    "$ROOT/$BUILD/bin/lcmpack" > "$q/lcmpack"; chmod +x "$q/lcmpack"
sq="$TMP/state-kq"; cp -a "$st" "$sq"
t "a qualified kept status: the night runs" 0 '' '*' '' env SLOKIT_BIN="$q" NOW=$((at + 5400)) bash "$N" "$tel" "$sq"
tcheck "a qualified kept status: counted as kept, as the plain one" bash -c '
    grep -q ",kept-refused," "$1/decisions.csv" &&
    a=$(grep "^changes:\|^one-off:" "$1/report.txt") && b=$(grep "^changes:\|^one-off:" "$2/report.txt") &&
    [ "$a" = "$b" ] && grep -qE "^changes:   [1-9][0-9]* kept" "$1/report.txt" || { echo "$a"; echo "$b"; exit 1; }' _ "$sq" "$st"

# A failing step passes its tool's status through: lcmpack's data error is
# 65 (the night said 1), as sloinfer's and skyfit's are
adt="$TMP/tel-adbad"; mkdir -p "$adt"; cp "$tel/runs.csv" "$tel/usage.csv" "$adt/"
printf 'job,arrival,deadline,containers,duration\nadbad,%s,%s,x5,10m\n' "$at" "$((at + 14400))" > "$adt/adhoc.csv"
before=$(snapshot "$st")
t "lcmpack's bad data (ON_ERROR=strict): exit 65, as lcmpack" 65 '' '*' "nightly-plan: lcmpack failed (exit 65); last night's plan is unchanged" \
    env ON_ERROR=strict NOW=$((at + 5400)) bash "$N" "$adt" "$st"
t "lcmpack's bad setting (CAPACITY): exit 64, as lcmpack" 64 '' '*' "nightly-plan: lcmpack failed (exit 64)" \
    env CAPACITY=cores=0,mem=0 NOW=$((at + 5400)) bash "$N" "$tel" "$st"
t "a missing telemetry file: exit 66 (no input)" 66 '' '' "nightly-plan: $TMP/nonexistent/runs.csv: missing" \
    bash "$N" "$TMP/nonexistent" "$st"
tcheck "failed steps: last night's state intact" bash -c '[ "$(snapshot "$1")" = "$2" ]' _ "$st" "$before"

# a full disk at lcmpack, and at the job's own writes (the report: awk's
# "write failure" was exit 2): 74 both, as the tools say a full disk
fs="$TMP/fs"; mkdir -p "$fs"
# fillbin TOOL WHEN: a bin directory like ours where TOOL fills $fs before
# (WHEN=before) or after (after) it runs
fillbin() {
    local d="$TMP/fill-$1-$2" f fill="dd if=/dev/zero of=\"$fs/filler\" bs=64k 2>/dev/null"
    rm -rf "$d"; mkdir -p "$d"
    for f in "$ROOT/$BUILD/bin"/*; do ln -s "$f" "$d/"; done
    rm "$d/$1"
    if [ "$2" = before ]; then
        printf '#!/bin/bash\n%s\nexec "%s" "$@"\n' "$fill" "$ROOT/$BUILD/bin/$1" > "$d/$1"
    else
        printf '#!/bin/bash\n"%s" "$@" || exit\n%s\nexit 0\n' "$ROOT/$BUILD/bin/$1" "$fill" > "$d/$1"
    fi
    chmod +x "$d/$1"
    echo "$d"
}
if mount -t tmpfs -o size=8m tmpfs "$fs" 2>/dev/null; then
    cp -a "$st" "$fs/state"
    fbefore=$(snapshot "$fs/state")
    t "disk full at lcmpack: exit 74, as lcmpack" 74 '' '*' "nightly-plan: lcmpack failed (exit 74); last night's plan is unchanged" \
        env SLOKIT_BIN="$(fillbin lcmpack before)" NOW=$((at + 5400)) bash "$N" "$tel" "$fs/state"
    tcheck "disk full at lcmpack: state intact" bash -c '[ "$(snapshot "$1")" = "$2" ]' _ "$fs/state" "$fbefore"
    rm -f "$fs/filler"
    t "disk full at the report: exit 74" 74 '' '*' "nightly-plan: a write failed (exit " \
        env SLOKIT_BIN="$(fillbin skyplot after)" NOW=$((at + 5400)) bash "$N" "$tel" "$fs/state"
    tcheck "disk full at the report: state intact" bash -c '[ "$(snapshot "$1")" = "$2" ]' _ "$fs/state" "$fbefore"
    rm -f "$fs/filler"
    t "space again: the night runs" 0 '' '*' '' env NOW=$((at + 5400)) bash "$N" "$tel" "$fs/state"
    umount "$fs"
else
    tskip "nightly full disk: the exit status" "cannot mount a tmpfs here (not root, or no mount permission)"
fi

# A state it cannot write: on a read-only mount the night said "not
# writable by root (owner root): ... chown -R root STATE", a fix that
# cannot work; a state of its own user without write permission said the
# same.  Each now names the cause and the fix that works.
if [ "$(id -u)" = 0 ] && command -v setpriv > /dev/null && id nobody > /dev/null 2>&1 &&
   mkdir -p "$TMP/ro" && mount --bind "$st" "$TMP/ro" 2>/dev/null; then
    if mount -o remount,bind,ro "$TMP/ro" 2>/dev/null; then
        before=$(snapshot "$st")
        t "a read-only mount: 'read-only file system', in one line" 1 '' '' \
            "nightly-plan: $TMP/ro: read-only file system: the nightly job writes its state there (remount it read-write, or give another STATE_DIR)" \
            env NOW=$((at + 5400)) bash "$N" "$tel" "$TMP/ro"
        tcheck "... one line, no chown" bash -c '[ "$(wc -l < "$1/.err")" = 1 ] && ! grep -q chown "$1/.err"' _ "$TMP"
        tcheck "... the state intact" bash -c '[ "$(snapshot "$1")" = "$2" ]' _ "$st" "$before"
    else
        tskip "a read-only mount: 'read-only file system'" "cannot remount a bind mount read-only here"
    fi
    umount "$TMP/ro"
    tcheck "a state of its own user without write permission: chmod, not chown" bash -c '
        N=$1; tel=$2; st=$3; now=$4
        d=$(mktemp -d /tmp/slokit-ro.XXXXXX) && trap "rm -rf \"$d\"" EXIT && chmod 755 "$d" || exit 1
        cp -r "$tel" "$d/tel" && chmod -R a+rX "$d/tel" && cp -a "$st" "$d/st" && chown -R nobody "$d/st" && chmod a-w "$d/st" || exit 1
        setpriv --reuid=nobody --regid=nogroup --clear-groups env HOME=/tmp PATH="$PATH" NOW="$now" bash "$N" "$d/tel" "$d/st" > out 2> err; rc=$?
        [ $rc = 1 ] && [ "$(wc -l < err)" = 1 ] &&
            grep -qx "nightly-plan: $d/st: no write permission for nobody (its owner): chmod -R u+w $d/st" err ||
            { echo "exit $rc"; cat err; exit 1; }
        chmod -R u+w "$d/st" && setpriv --reuid=nobody --regid=nogroup --clear-groups env HOME=/tmp PATH="$PATH" NOW="$now" \
            bash "$N" "$d/tel" "$d/st" > out 2> err || { echo "after the chmod: exit $?"; cat err; exit 1; }' \
        _ "$N" "$tel" "$st" $((at + 5400))
else
    tskip "a state it cannot write: read-only mount, no permission" "needs root, setpriv, the user nobody and bind mounts"
fi

# (session 33) A job added by hand to the state's plan while the night ran
# (lcmpack --plan STATE/plan.csv ... -o STATE/plan.csv, in place) went into
# last night's generation, which the night then replaced: the add was lost,
# both runs exiting 0.  The night now holds the plan's lock (lcmpack's,
# beside the file the link leads to) from its plan step until it has
# published, so the add waits and lands in tonight's plan.  Here the add
# starts at the night's plot step (a skyplot that starts it in the
# background, as another terminal would, and waits until it waits).
hs="$TMP/hand-state" hd="$TMP/hand"; rm -rf "$hs" "$hd"; mkdir -p "$hd"
printf 'job,period,a,d\nhand1,86400,3600,7200\n' > "$hd/slo.csv"
printf 'job,step,offset,alloc\nhand1,60,0,5\nhand1,60,60,5\n' > "$hd/sky.csv"
hb="$TMP/hand-bin"; rm -rf "$hb"; mkdir -p "$hb"
for f in "$ROOT/$BUILD/bin"/*; do ln -s "$f" "$hb/"; done
rm "$hb/skyplot"
cat > "$hb/skyplot" <<EOS
#!/bin/bash
if [ ! -e "$hd/started" ]; then
    touch "$hd/started"
    ( exec 8>&- 9>&-; lcmpack --plan "$hs/plan.csv" --slo "$hd/slo.csv" --capacity cores=2000,mem=8000000 \\
        "$hd/sky.csv" --at $at -o "$hs/plan.csv" 2> "$hd/add.err"; echo \$? > "$hd/add.rc" ) &
    for _ in \$(seq 100); do grep -q "waiting for" "$hd/add.err" 2>/dev/null && break; [ -e "$hd/add.rc" ] && break; sleep 0.1; done
fi
exec "$ROOT/$BUILD/bin/skyplot" "\$@"
EOS
chmod +x "$hb/skyplot"
t "a hand-made add during the night: first night" 0 '' '*' '' env NOW=$((at + 5400)) bash "$N" "$tel" "$hs"
t "a hand-made add during the night: the night" 0 '' '*' '' env SLOKIT_BIN="$hb" NOW=$((at + 5400)) bash "$N" "$tel" "$hs"
tcheck "a hand-made add during the night: it waited for the night, then landed in tonight's plan" bash -c '
    for _ in $(seq 300); do [ -e "$2/add.rc" ] && break; sleep 0.1; done
    cat "$2/add.err"; [ "$(cat "$2/add.rc")" = 0 ] &&
    grep -q "^lcmpack: waiting for $1/gen.1/plan.csv.lock: " "$2/add.err" &&
    [ "$(readlink "$1/current")" = gen.2 ] && grep -q "^slokit-plan/1,hand1," "$1/current/plan.csv" &&
    [ ! -e "$1/plan.csv.lock" ] && [ ! -e "$1/plan.csv.idx" ] && [ ! -e "$1/current/last-plan.csv" ] &&
    lcmpack -q --plan "$1/plan.csv" --capacity cores=2000,mem=8000000 > /dev/null' _ "$hs" "$hd"

# METRICS=FILE: the Prometheus text file a monitoring system reads (the
# textfile collector of node_exporter).  Every run that gets past its
# arguments records its end and exit status; a published night its values,
# each checked against the state's own files by tests/check/nightly_metrics.py;
# a failed, refused or locked-out run keeps the last published night's lines
# as they were; a kill -9 leaves the file as it was; a file that cannot be
# written is a warning, never the night's status.
M="$ROOT/tests/check/nightly_metrics.py"
ms="$TMP/metrics-state" md="$TMP/metrics"; rm -rf "$ms" "$md"; mkdir -p "$md"
mf="$md/slokit.prom"
# published FILE: its lines but the last run's two metrics (the published night's)
published() { grep -Ev '^(# (HELP|TYPE) )?slokit_nightly_last_(run_timestamp_seconds|exit_status) ' "$1"; }
export -f published
t "METRICS: first night" 0 '' '*' '' env METRICS="$mf" NOW=$((at + 5400)) bash "$N" "$tel" "$ms"
tcheck "METRICS: the format, and every value as the state's files say" python3 "$M" "$mf" 0 "$ms"
tcheck "METRICS: the checker refuses a count the state does not have" bash -c '
    sed "s/^\(slokit_nightly_decisions{status=\"placed\"}\) \([0-9]*\)/\1 1\2/" "$2" > "$3/bad.prom" &&
    ! cmp -s "$2" "$3/bad.prom" && ! python3 "$1" "$3/bad.prom" 0 "$4"' _ "$M" "$mf" "$TMP" "$ms"
tcheck "METRICS: the checker refuses a sample before its TYPE" bash -c '
    grep -v "^# TYPE slokit_nightly_bad_rows " "$2" > "$3/bad.prom" && ! python3 "$1" "$3/bad.prom" 0 "$4"' _ "$M" "$mf" "$TMP" "$ms"
tcheck "METRICS: no scratch file left beside it" bash -c '[ "$(ls -A "$1")" = slokit.prom ]' _ "$md"
published "$mf" > "$TMP/m.night1"
t "METRICS: a failing step" 1 '' '*' "step plot failed" env METRICS="$mf" SLOKIT_NIGHTLY_FAIL_AT=plot NOW=$((at + 5400)) bash "$N" "$tel" "$ms"
tcheck "METRICS: a failing step records exit 1, keeps the published night's lines" bash -c '
    python3 "$1" "$2" 1 && published "$2" | cmp - "$3"' _ "$M" "$mf" "$TMP/m.night1"
t "METRICS: a bad setting" 64 '' '' "REPORT_LIST is a whole number" env METRICS="$mf" REPORT_LIST=x bash "$N" "$tel" "$ms"
tcheck "METRICS: a bad setting records exit 64" bash -c 'python3 "$1" "$2" 64 && published "$2" | cmp - "$3"' _ "$M" "$mf" "$TMP/m.night1"
t "METRICS: a run locked out" 75 '' '' "is locked by another run" \
    bash -c 'exec 8>>"$2/.lock"; flock 8; METRICS="$4" bash "$1" "$3" "$2"' _ "$N" "$ms" "$tel" "$mf"
tcheck "METRICS: a locked-out run records exit 75" bash -c 'python3 "$1" "$2" 75 && published "$2" | cmp - "$3"' _ "$M" "$mf" "$TMP/m.night1"
cp "$mf" "$TMP/m.before-kill"
t "METRICS: kill -9" 137 '' '*' '*' env METRICS="$mf" SLOKIT_NIGHTLY_KILL_AT=lcmpack bash -c 'bash "$@"; exit $?' _ "$N" "$tel" "$ms"
tcheck "METRICS: kill -9 leaves the file as it was" cmp "$mf" "$TMP/m.before-kill"
t "METRICS: the next night" 0 '' '*' '' env METRICS="$mf" NOW=$((at + 5400)) bash "$N" "$tel" "$ms"
tcheck "METRICS: the next night's values, as its state says" bash -c '
    python3 "$1" "$2" 0 "$3" && grep -qx "slokit_nightly_generation 2" "$2"' _ "$M" "$mf" "$ms"
t "METRICS: a file that cannot be written: the night is published, a warning" 0 '' '*' \
    "nightly-plan: warning: METRICS=/proc/slokit.prom: not written: " env METRICS=/proc/slokit.prom NOW=$((at + 5400)) bash "$N" "$tel" "$ms"
t "METRICS: no such directory, refused before anything runs" 64 '' '' \
    "nightly-plan: METRICS=$TMP/none/slokit.prom: no directory $TMP/none" env METRICS="$TMP/none/slokit.prom" bash "$N" "$tel" "$ms"
t "METRICS: a directory, refused" 64 '' '' "nightly-plan: METRICS is a file, not the directory '$md/'" \
    env METRICS="$md/" bash "$N" "$tel" "$ms"
tcheck "METRICS: off by default: no .prom file anywhere in the state" bash -c '! find "$1" -name "*.prom" | grep -q .' _ "$st"

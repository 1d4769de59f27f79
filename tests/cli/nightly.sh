# The nightly job (examples/nightly-plan.sh): a first night, an identical
# re-run (byte-identical plan, empty YARN delta), a night where one job
# changed (only its reservation moves), off-kilter jobs reserved over the
# horizon, the lock, kill -9 at every step, a failing step and a full disk
# (each leaves last night's plan, YARN delta and report intact, and the next
# run recovers by itself).
N="$ROOT/examples/nightly-plan.sh"
Y="$ROOT/tests/check/yarn_api.py"
tel="$TMP/tel"; st="$TMP/state"
rm -rf "$st"; at=$(nightly_dump "$tel")
export CAPACITY=cores=2000,mem=8000000 SLOKIT_BIN="$ROOT/$BUILD/bin"

# the state files a night publishes, as one fingerprint
snapshot() { (cd "$1" && cat plan.csv report.txt yarn.jsonl yarn/submit.jsonl yarn/update.jsonl yarn/delete.jsonl decisions.csv | md5sum); }
export -f snapshot

t "first night" 0 '' '*' '' bash "$N" "$tel" "$st"
tcheck "report: all jobs new" grep -qE "^changes:   0 kept, 0 moved, [1-9][0-9]* new, 0 removed" "$st/report.txt"
tcheck "report: placement summary" grep -qE "^plan: +[0-9]+ requests: [0-9]+ placed" "$st/report.txt"
tcheck "plan is valid (lcmpack reads it back)" lcmpack -q --plan "$st/plan.csv" --capacity cores=2000,mem=8000000 -o "$TMP/reread.csv"
tcheck "one YARN body per reservation" bash -c '
    n=$(awk -F, "NR > 1 && \$3 != \"end\" { r[\$2 \$3 (\$3 == \"once\" ? \$4 : \"\")] } END { print length(r) }" "$1/plan.csv")
    [ "$(wc -l < "$1/yarn.jsonl")" = "$n" ] && [ "$n" -gt 0 ]' _ "$st"
tcheck "YARN bodies: API fields and types, times from the plan" python3 "$Y" plain "$st/yarn.jsonl" "$st/plan.csv" "$at"
tcheck "first delta: every reservation submitted" bash -c '[ "$(wc -l < "$1/yarn/submit.jsonl")" = "$(wc -l < "$1/yarn.jsonl")" ] && [ ! -s "$1/yarn/update.jsonl" ] && [ ! -s "$1/yarn/delete.jsonl" ]' _ "$st"
tcheck "submit bodies: API fields and types" python3 "$Y" submit "$st/yarn/submit.jsonl" "$st/plan.csv" "$at"
tcheck "YARN checker refuses a body without reservation-id" bash -c '
    sed "s/\"reservation-id\":\"[^\"]*\",//" "$2/yarn.jsonl" > "$3/bad.jsonl"; ! python3 "$1" plain "$3/bad.jsonl"' _ "$Y" "$st" "$TMP"
tcheck "YARN checker refuses a string duration" bash -c '
    sed "s/\"duration\":\([0-9]*\)/\"duration\":\"\1\"/" "$2/yarn.jsonl" > "$3/bad.jsonl"; ! python3 "$1" plain "$3/bad.jsonl"' _ "$Y" "$st" "$TMP"
tcheck "deadline is the SLO deadline (at + d), not the allocation's end" bash -c '
    python3 - "$1/yarn.jsonl" "$1/slo.csv" "$2" <<EOF
import json, sys, csv
slo = {r["job"]: r for r in csv.DictReader(open(sys.argv[2]))}
at = int(sys.argv[3]); n = 0
for l in open(sys.argv[1]):
    d = json.loads(l)["reservation-definition"]
    if "recurrence-expression" not in d: continue
    s = slo[d["reservation-name"]]
    assert d["deadline"] == round((at + float(s["d"])) * 1000), (d["deadline"], at, s["d"])
    n += 1
assert n > 0
EOF' _ "$st" "$at"
tcheck "off-kilter jobs reserved over the horizon, listed" bash -c '
    n=$(awk -F, "NR > 1 && \$2 == \"once\" && \$4 == \"placed\"" "$1/decisions.csv" | wc -l)
    [ "$n" -gt 0 ] && grep -q "^one-off:   $n instances" "$1/report.txt"' _ "$st"
tcheck "one-off instances cover the 48h horizon from the end of the dump" bash -c '
    awk -F, -v at="$2" "NR > 1 && \$3 == \"once\" { s = \$5 * \$8 + \$6; if (s >= at + 86400) late = 1; if (s < at) early = 1 }
                        END { exit !(late && !early) }" "$1/plan.csv"' _ "$st" "$at"
tcheck "every actionable off-kilter job is a request (none skipped for want of --at)" bash -c '
    ! grep -q "no --at cycle" "$1/decisions.csv"' _ "$st"
cp "$st/plan.csv" "$TMP/plan.night1"

t "same input again" 0 '' '*' '' bash "$N" "$tel" "$st"
tcheck "nothing moved" grep -qE "^changes:   [1-9][0-9]* kept, 0 moved, 0 new, 0 removed" "$st/report.txt"
tcheck "plan byte-identical" cmp "$st/plan.csv" "$TMP/plan.night1"
tcheck "re-run: empty YARN delta" bash -c '! [ -s "$1/yarn/submit.jsonl" ] && ! [ -s "$1/yarn/update.jsonl" ] && ! [ -s "$1/yarn/delete.jsonl" ]' _ "$st"
tcheck "one generation kept, no debris" bash -c '[ "$(ls -d "$1"/gen.* | wc -l)" = 1 ] && ! ls -A "$1" | grep -q tonight' _ "$st"

# Job names as tenants write them (a Hive job is named by its query): the
# same dump with five jobs renamed to names holding a comma and a quote, a
# line end, an ESC sequence, a '#' and a leading '='.  The tools quote such
# names; the report read its CSV files with awk -F,, so it split them and
# counted a line of a name as a row ("SLOs: 17 jobs, ... 1 0.92..." and one
# job fewer new).  Its counts are those of the plain names now, under mawk
# and gawk alike, and a name is shown on one line with its control bytes
# escaped, as the tools write names on stderr.
tw="$TMP/telw"; rm -rf "$tw"; mkdir -p "$tw"
python3 - "$tel" "$tw" <<'PY'
import csv, sys
ren = {"job00000": 'we"ird, name', "job00001": "multi\nline", "job00002": "esc\x1b[2Jjob",
       "job00003": "x#7", "job00004": "=cmd|' /C calc'!A0"}
for f in ("runs.csv", "usage.csv"):
    rows = list(csv.reader(open(sys.argv[1] + "/" + f, newline="")))
    for r in rows[1:]:
        for i in (0, 1):  # job, and instance / run (the job's name and a number)
            for k, v in ren.items():
                if r[i].startswith(k):
                    r[i] = v + r[i][len(k):]
    csv.writer(open(sys.argv[2] + "/" + f, "w", newline=""), lineterminator="\n").writerows(rows)
PY
for awkname in gawk mawk; do
    if ! command -v $awkname > /dev/null; then tskip "awkward job names ($awkname)" "$awkname is not installed"; continue; fi
    mkdir -p "$TMP/$awkname" && ln -sf "$(command -v $awkname)" "$TMP/$awkname/awk"
    t "awkward job names ($awkname): the report counts as with plain names" 0 '' '' '' bash -c '
        PATH="$1:$PATH" bash "$2" "$3" "$4/plain-$5" > /dev/null 2>&1 || exit 1
        PATH="$1:$PATH" bash "$2" "$6" "$4/odd-$5" > /dev/null 2>&1 || exit 1
        for k in "SLOs:" "skylines:" "changes:" "plan: +[0-9]+ requests:" "one-off:"; do
            a=$(grep -E "^$k" "$4/plain-$5/report.txt"); b=$(grep -E "^$k" "$4/odd-$5/report.txt")
            [ -n "$a" ] && [ "$a" = "$b" ] || { echo "plain: $a"; echo "odd:   $b"; exit 1; }
        done
        ! LC_ALL=C tr -d "\n" < "$4/odd-$5/report.txt" | LC_ALL=C grep -q "[[:cntrl:]]" || { echo "a control byte in the report"; exit 1; }
        [ "$(wc -l < "$4/plain-$5/report.txt")" = "$(wc -l < "$4/odd-$5/report.txt")" ] || { echo "line counts differ"; exit 1; }' \
        _ "$TMP/$awkname" "$N" "$tel" "$TMP" "$awkname" "$tw"
done

# PRIOR_WEIGHT: last night's skylines are skyfit's prior (off by default)
stp="$TMP/stateprior"; rm -rf "$stp"
t "prior: first night (nothing to read yet)" 0 '' '*' '' env PRIOR_WEIGHT=0.5 bash "$N" "$tel" "$stp"
tcheck "prior: no prior line on the first night" bash -c '! grep -q "as the prior" "$1/report.txt"' _ "$stp"
cp "$stp/skyline.csv" "$TMP/sky.prior1"; cp "$stp/plan.csv" "$TMP/plan.prior1"
t "prior: same input again" 0 '' '*' '' env PRIOR_WEIGHT=0.5 bash "$N" "$tel" "$stp"
tcheck "prior: every fitted job had last night's skyline" bash -c '
    n=$(awk -F, "NR > 1 && \$10 == \"optimal\"" "$1/skyfit-stats.csv" | wc -l)
    grep -qx "           $n fitted with last night.s skyline as the prior (--prior-weight 0.5)" "$1/report.txt"' _ "$stp"
tcheck "prior: skylines and plan byte-identical" bash -c 'cmp "$1/skyline.csv" "$2" && cmp "$1/plan.csv" "$3"' _ "$stp" "$TMP/sky.prior1" "$TMP/plan.prior1"
tcheck "prior: off by default" bash -c '! grep -q "as the prior" "$1/report.txt"' _ "$st"
t "prior: a bad PRIOR_WEIGHT is refused before anything runs" 64 '' '' \
    "nightly-plan: PRIOR_WEIGHT is a number above 0 (skyfit --prior-weight), not 'half'" env PRIOR_WEIGHT=half bash "$N" "$tel" "$stp"
t "prior: PRIOR_WEIGHT=0 refused too" 64 '' '' "not '0'" env PRIOR_WEIGHT=0 bash "$N" "$tel" "$stp"
# a damaged prior costs the prior, not the night: a bad row (ON_ERROR=skip)
# drops its job's prior and is listed; an unreadable file (no header) drops
# the prior with a warning
t "prior: a bad row in last night's skyline: the night runs" 0 '' '*' '' \
    env PRIOR_WEIGHT=0.5 bash -c 'f=$(readlink -f "$3/skyline.csv"); chmod u+w "$f"; sed -i "3s/,[^,]*\$/,x/" "$f"; bash "$1" "$2" "$3"' _ "$N" "$tel" "$stp"
tcheck "prior: bad row listed in rejects.csv, skylines unchanged" bash -c '
    grep -q "/skyline.csv,3," "$1/rejects.csv" && cmp "$1/skyline.csv" "$2"' _ "$stp" "$TMP/sky.prior1"
t "prior: unreadable last skyline: the night runs" 0 '' '*' "last night's skylines are not a usable prior" \
    env PRIOR_WEIGHT=0.5 bash -c 'f=$(readlink -f "$3/skyline.csv"); chmod u+w "$f"; printf "garbage\n" > "$f"; bash "$1" "$2" "$3"' _ "$N" "$tel" "$stp"
tcheck "prior: unreadable: the report warns, skylines as without a prior" bash -c '
    grep -q "^warning:   last night.s skylines are not a usable prior" "$1/report.txt" && cmp "$1/skyline.csv" "$2"' _ "$stp" "$TMP/sky.prior1"

# a capacity that refuses requests: --improve moves tonight's placements after
# the refusals, so a refused request can fit the polished plan; lcmpack tries
# the refused ones again after the polish, and the re-run is still a fixed
# point (before, the second run placed some: "N new", a YARN submit delta on
# unchanged input; this dump at cores=80: 2 submits)
st80="$TMP/state80"; rm -rf "$st80"
t "tight capacity: first night" 0 '' '*' '' env CAPACITY=cores=80,mem=320000 bash "$N" "$tel" "$st80"
tcheck "tight capacity: requests refused, some placed after the polish" bash -c '
    grep -qE "^refused:   [1-9][0-9]* requests" "$1" && grep -qE "^plan: +--improve: [1-9][0-9]* refused request\(s\) placed after the polish" "$1"' _ "$st80/report.txt"
cp "$st80/plan.csv" "$TMP/plan80.night1"
t "tight capacity: same input again" 0 '' '*' '' env CAPACITY=cores=80,mem=320000 bash "$N" "$tel" "$st80"
tcheck "tight capacity: nothing new, nothing moved" grep -qE "^changes:   [1-9][0-9]* kept, 0 moved, 0 new, 0 removed" "$st80/report.txt"
tcheck "tight capacity: plan byte-identical" cmp "$st80/plan.csv" "$TMP/plan80.night1"
tcheck "tight capacity: empty YARN delta" bash -c '! [ -s "$1/yarn/submit.jsonl" ] && ! [ -s "$1/yarn/update.jsonl" ] && ! [ -s "$1/yarn/delete.jsonl" ]' _ "$st80"

# a capacity that shrank below last night's reservations: they stay where
# they are (lcmpack(1), "Incremental planning"), and lcmpack warns; the
# night's report says so, with the remedy (before, the warning was dropped
# with the rest of lcmpack's log: the report showed only "peak cost 1.5...")
sts="$TMP/state-shrunk"; rm -rf "$sts"; cp -a "$st" "$sts"
t "capacity shrunk below the plan: the night runs" 0 '' '*' '' env CAPACITY=cores=200,mem=800000 bash "$N" "$tel" "$sts"
tcheck "capacity shrunk: the report warns, with the remedy" grep -qE \
    "^warning:   the plan exceeds the capacity \(cost [0-9.]+ at t=[0-9]+ s: cores [0-9.]+ of 200, .*free some with --remove" \
    "$sts/report.txt"
# (these nights run on the clock, after the dump's day: that warning aside)
tcheck "capacity unchanged: no warning in the report" bash -c '! grep "^warning:" "$1/report.txt" | grep -qv "a day that has passed"' _ "$st"

# the periodic jobs of the plan: one will change, one will leave, one change is killed
set -- $(awk -F, 'NR > 1 && $3 == "periodic" && !s[$2]++ { print $2 }' "$st/plan.csv")
J1=$1 J2=$2 J3=$3 J4=$4
# J1's runs now use twice the containers: only its reservation moves
awk -F, -v OFS=, -v j=$J1 'NR > 1 && $1 == j { $4 = $4 * 2 } 1' "$tel/usage.csv" > "$tel/u2" && mv "$tel/u2" "$tel/usage.csv"
stl="$TMP/state-list"; rm -rf "$stl"; cp -a "$st" "$stl"
t "one job changed" 0 '' '*' '' bash "$N" "$tel" "$st"
tcheck "report: 1 moved, with why" bash -c 'grep -qE "^changes:   [1-9][0-9]* kept, 1 moved, 0 new" "$1" && grep -q "moved: $2 (area +" "$1"' _ "$st/report.txt" "$J1"
tcheck "other reservations byte-identical" bash -c '
    rows() { awk -F, -v j="$3" "NR > 1 && \$3 != \"end\" && \$2 != j" "$1"; }
    diff <(rows "$1" "" "$3") <(rows "$2" "" "$3")' _ "$TMP/plan.night1" "$st/plan.csv" "$J1"
tcheck "delta: one update, for the changed job, nothing else" bash -c '
    [ "$(wc -l < "$1/yarn/update.jsonl")" = 1 ] && grep -q "\"reservation-name\":\"$2\"" "$1/yarn/update.jsonl" &&
    ! [ -s "$1/yarn/submit.jsonl" ] && ! [ -s "$1/yarn/delete.jsonl" ]' _ "$st" "$J1"
tcheck "update body: API fields and types" python3 "$Y" update "$st/yarn/update.jsonl" "$st/plan.csv" "$at"
# REPORT_LIST: the report's lists stop at N jobs and say how many more;
# the same night with REPORT_LIST=0 lists none, counts them all, plans the same
t "REPORT_LIST=0: the same night" 0 '' '*' '' env REPORT_LIST=0 bash "$N" "$tel" "$stl"
tcheck "REPORT_LIST=0: no job listed, each list counted" bash -c '
    m=$(awk -F, "NR > 1 && \$2 == \"once\" && (\$4 == \"placed\" || \$4 == \"kept\" || \$4 == \"moved\") { j[\$1] } END { print length(j) }" "$1/decisions.csv")
    [ "$m" -gt 0 ] && grep -qx "  \.\.\. and $m more off-kilter jobs (decisions.csv)" "$1/report.txt" &&
    grep -qx "  \.\.\. and 1 more moved (decisions.csv)" "$1/report.txt" &&
    ! grep -qE "^  (moved: |job[0-9]+: [0-9]+ instances)" "$1/report.txt"' _ "$stl"
tcheck "REPORT_LIST=0: the same plan and delta" bash -c '
    cmp "$1/plan.csv" "$2/plan.csv" && cmp "$1/yarn/update.jsonl" "$2/yarn/update.jsonl"' _ "$stl" "$st"
tcheck "default list: every off-kilter job named, no \"more\" line" bash -c '
    m=$(awk -F, "NR > 1 && \$2 == \"once\" && (\$4 == \"placed\" || \$4 == \"kept\" || \$4 == \"moved\") { j[\$1] } END { print length(j) }" "$1/decisions.csv")
    [ "$m" -le 20 ] && [ "$(grep -cE "^  job[0-9]+: [0-9]+ instances\$" "$1/report.txt")" = "$m" ] && ! grep -q "more off-kilter" "$1/report.txt"' _ "$st"
t "REPORT_LIST: not a whole number is refused before anything runs" 64 '' '' \
    "nightly-plan: REPORT_LIST is a whole number of lines (0 or more), not '-1'" env REPORT_LIST=-1 bash "$N" "$tel" "$stl"

# a job leaves: its reservation is deleted
awk -F, -v j=$J2 'NR == 1 || $1 != j' "$tel/runs.csv" > "$tel/r2" && mv "$tel/r2" "$tel/runs.csv"
awk -F, -v j=$J2 'NR == 1 || $1 != j' "$tel/usage.csv" > "$tel/u2" && mv "$tel/u2" "$tel/usage.csv"
t "one job left" 0 '' '*' '' bash "$N" "$tel" "$st"
tcheck "gone job: removed, and deleted in YARN" bash -c '
    grep -q "^$2,periodic,,removed" "$1/decisions.csv" && [ "$(wc -l < "$1/yarn/delete.jsonl")" = 1 ] &&
    python3 "$3" delete "$1/yarn/delete.jsonl"' _ "$st" "$J2" "$Y"
before=$(snapshot "$st")

# the lock: a second run while one holds STATE/.lock exits 75, touching nothing
t "second overlapping run exits" 75 '' '' "is locked by another run" \
    bash -c 'exec 8>>"$2/.lock"; flock 8; LOCK_WAIT=0 bash "$1" "$3" "$2"' _ "$N" "$st" "$tel"
tcheck "state intact after the locked-out run" bash -c '[ "$(snapshot "$1")" = "$2" ]' _ "$st" "$before"

# a real change tonight, then kill -9 at every step: last night's state stays
awk -F, -v OFS=, -v j=$J3 'NR > 1 && $1 == j { $4 = $4 * 3 } 1' "$tel/usage.csv" > "$tel/u2" && mv "$tel/u2" "$tel/usage.csv"
for s in slo skyfit lcmpack yarn plot report publish switch; do
    t "kill -9 at $s" 137 '' '*' '*' env SLOKIT_NIGHTLY_KILL_AT=$s bash -c 'bash "$@"; exit $?' _ "$N" "$tel" "$st"
    tcheck "kill -9 at $s: last night's plan, delta and report intact" bash -c '[ "$(snapshot "$1")" = "$2" ]' _ "$st" "$before"
done
t "a failing step" 1 '' '*' "step plot failed" env SLOKIT_NIGHTLY_FAIL_AT=plot bash "$N" "$tel" "$st"
tcheck "failing step: state intact, scratch removed" bash -c '[ "$(snapshot "$1")" = "$2" ] && ! ls -A "$1" | grep -q tonight' _ "$st" "$before"
# a failing step passes its tool's status through (lcmpack's usage error:
# 64; the night said 1 whatever lcmpack said)
t "failing lcmpack (no capacity)" 64 '' '*' "lcmpack failed (exit 64); last night's plan is unchanged" env CAPACITY=cores=0,mem=0 bash "$N" "$tel" "$st"
tcheck "failing lcmpack: state intact" bash -c '[ "$(snapshot "$1")" = "$2" ]' _ "$st" "$before"
t "the next run recovers by itself" 0 '' '*' '' bash "$N" "$tel" "$st"
tcheck "recovered: job00007 moved, debris gone" bash -c 'grep -q "moved: $2" "$1/report.txt" && [ "$(ls -d "$1"/gen.* | wc -l)" = 1 ] && ! ls -A "$1" | grep -q tonight' _ "$st" "$J3"
t "kill -9 after the switch" 137 '' '*' '*' env SLOKIT_NIGHTLY_KILL_AT=cleanup bash -c 'bash "$@"; exit $?' _ "$N" "$tel" "$st"
tcheck "kill -9 after the switch: the new night is complete" lcmpack -q --plan "$st/plan.csv" --capacity cores=2000,mem=8000000 -o /dev/null
t "and the run after cleans up" 0 '' '*' '' bash "$N" "$tel" "$st"
tcheck "one generation left" bash -c '[ "$(ls -d "$1"/gen.* | wc -l)" = 1 ]' _ "$st"

# a full disk: STATE on a small tmpfs, filled up before the night (the first
# step, sloinfer, fails), then filled by a later step itself (a wrapper fills
# the disk and runs the real tool): lcmpack, then skyplot.  Each time the
# failing tool names the file and the cause, and last night's state stays.
fs="$TMP/fs"; mkdir -p "$fs"
# fillbin TOOL: a bin directory like ours where TOOL first fills $fs
fillbin() {
    local d="$TMP/fill-$1" f
    rm -rf "$d"; mkdir -p "$d"
    for f in "$ROOT/$BUILD/bin"/*; do ln -s "$f" "$d/"; done
    rm "$d/$1"
    printf '#!/bin/bash\ndd if=/dev/zero of="%s/filler" bs=64k 2>/dev/null\nexec "%s" "$@"\n' \
        "$fs" "$ROOT/$BUILD/bin/$1" > "$d/$1"
    chmod +x "$d/$1"
    echo "$d"
}
if mount -t tmpfs -o size=8m tmpfs "$fs" 2>/dev/null; then
    cp -a "$st" "$fs/state"
    fbefore=$(snapshot "$fs/state")
    awk -F, -v OFS=, -v j=$J4 'NR > 1 && $1 == j { $4 = $4 * 3 } 1' "$tel/usage.csv" > "$tel/u2" && mv "$tel/u2" "$tel/usage.csv"
    dd if=/dev/zero of="$fs/filler" bs=64k 2>/dev/null || true   # fills the disk
    t "full disk: the night fails (74: I/O error)" 74 '' '*' '*' bash "$N" "$tel" "$fs/state"
    tcheck "full disk: last night's plan, delta and report intact" bash -c '[ "$(snapshot "$1")" = "$2" ]' _ "$fs/state" "$fbefore"
    rm -f "$fs/filler"
    # night TOOL: tonight with TOOL filling the disk, stderr kept in $TMP/full-TOOL.err
    night() { env SLOKIT_BIN="$(fillbin "$1")" bash -c 'bash "$1" "$2" "$3" 2>"$4"; rc=$?; cat "$4" >&2; exit $rc' \
                  _ "$N" "$tel" "$fs/state" "$TMP/full-$1.err"; }
    t "disk full at lcmpack: the night fails (74, as lcmpack)" 74 '' '' "lcmpack failed (exit 74); last night's plan is unchanged" night lcmpack
    tcheck "disk full at lcmpack: lcmpack names the file and the cause" \
        grep -qE "^lcmpack: $fs/state/\.tonight\.[^:]*: write error: No space left on device" "$TMP/full-lcmpack.err"
    tcheck "disk full at lcmpack: last night's state intact" bash -c '[ "$(snapshot "$1")" = "$2" ]' _ "$fs/state" "$fbefore"
    rm -f "$fs/filler"
    t "disk full at skyplot: the night fails (74)" 74 '' '' "skyplot: $fs/state/.tonight." night skyplot
    tcheck "disk full at skyplot: skyplot names plan.svg and the cause" \
        grep -qE "^skyplot: $fs/state/\.tonight\.[^/]*/plan\.svg: write error: No space left on device" "$TMP/full-skyplot.err"
    tcheck "disk full at skyplot: last night's state intact" bash -c '[ "$(snapshot "$1")" = "$2" ]' _ "$fs/state" "$fbefore"
    rm -f "$fs/filler"
    t "space again: the next run recovers" 0 '' '*' '' bash "$N" "$tel" "$fs/state"
    tcheck "recovered on the tmpfs: job00008 moved, no debris" bash -c 'grep -q "moved: $2" "$1/report.txt" && ! ls -A "$1" | grep -q tonight' _ "$fs/state" "$J4"
    umount "$fs"
else
    tskip "nightly full disk" "cannot mount a tmpfs here (not root, or no mount permission)"
fi

# the issue's goal: two nights on a sliding 30-day dump of 60 jobs with no
# real change keep >= 95% of the reservations byte-identical (compared by
# tests/check/nightly_stability.sh itself, row by row)
tcheck "sliding 30-day dump: >= 95% of reservations byte-identical" \
    bash "$ROOT/tests/check/nightly_stability.sh" "$ROOT/$BUILD/bin" "$TMP/slide" 60 cores=600,mem=2400000 10% 95

t "missing telemetry (66: no input)" 66 '' '' 'nightly-plan: /nonexistent/runs.csv: missing' bash "$N" /nonexistent "$st"
# paths as they come: a telemetry directory with a backslash and a space,
# planned as from its usual name
wtel="$TMP/tel\\new dump"; rm -rf "$wtel" "$TMP/wst" "$TMP/wst0"; mkdir -p "$wtel"; cp "$tel"/runs.csv "$tel"/usage.csv "$wtel"/
t "telemetry path with a backslash and a space" 0 '' '*' '' env NOW=$at bash "$N" "$wtel" "$TMP/wst"
tcheck "... the same plan as from a plain path" bash -c '
    NOW=$4 bash "$1" "$2" "$3/wst0" >/dev/null && cmp "$3/wst/plan.csv" "$3/wst0/plan.csv"' _ "$N" "$tel" "$TMP" "$at"
# A compressed export (runs.csv.gz, usage.csv.zst: the tools read both)
# was "runs.csv: missing", and the job's own read of the submit times (the
# dump's end) could not read one: the same plan as from the plain files.
ztel="$TMP/ztel"; rm -rf "$ztel" "$TMP/zst"; mkdir -p "$ztel"
gzip -c "$tel/runs.csv" >"$ztel/runs.csv.gz" && zstd -q -c "$tel/usage.csv" >"$ztel/usage.csv.zst"
t "compressed telemetry: runs.csv.gz and usage.csv.zst" 0 '' '*' '' env NOW=$at bash "$N" "$ztel" "$TMP/zst"
tcheck "... the same plan as from the plain files" cmp "$TMP/wst0/plan.csv" "$TMP/zst/plan.csv"
# the dump's end skips the rows sloinfer skipped, by their line in the
# decompressed file: a submit in the year 2500 in the middle of runs.csv.gz
# (after its start: rejected) must not move the plan there
zms="$TMP/ztel-ms"; rm -rf "$zms"; mkdir -p "$zms"; cp "$ztel/usage.csv.zst" "$zms/"
awk -F, -v OFS=, -v n="$(($(wc -l <"$tel/runs.csv") / 2))" 'NR == n { $3 = 16725225600 } 1' "$tel/runs.csv" | gzip -c >"$zms/runs.csv.gz"
t "compressed telemetry: a skipped row does not move the dump's end" 0 '' '*' '' bash -c '
    NOW=$4 bash "$1" "$2" "$3" | grep -qF "plan from $(date -u -d "@$4" +%Y-%m-%dT%H:%M:%SZ)" &&
        grep -q "^bad rows:  1 skipped" "$3/report.txt"' _ "$N" "$zms" "$TMP/zst-ms" "$at"
cp "$tel/runs.csv" "$zms/"
t "two exports of runs.csv in one dump (64: usage)" 64 '' '' \
    "nightly-plan: $zms/runs.csv and $zms/runs.csv.gz: two exports of runs.csv in one dump; keep one" bash "$N" "$zms" "$TMP/zst-two"
# A dump whose day has passed (the export stopped, or an old dump replayed)
# plans that day, and its YARN bodies are dated then: the report says so,
# naming the days; a run on the planned day says nothing of it.
tcheck "report: a dump whose day has passed is a warning" bash -c '
    NOW=$(($4 + 86400 + 5400)) bash "$1" "$2" "$3/wst-stale" > /dev/null || exit 1
    grep -qx "warning:   the dump ends $(date -u -d "@$(($4 - 1))" +%F) but now is $(date -u -d "@$(($4 + 86400))" +%F): tonight'"'"'s plan is for $(date -u -d "@$4" +%F), a day that has passed (a replay of an old dump, or has the telemetry export stopped?)" "$3/wst-stale/report.txt" ||
        { cat "$3/wst-stale/report.txt"; exit 1; }
    ! grep -q "a day that has passed" "$3/wst/report.txt" || { echo "on the planned day:"; cat "$3/wst/report.txt"; exit 1; }' _ "$N" "$tel" "$TMP" "$at"
tcheck "crontab example in README" grep -qE "^[0-9]+ [0-9]+ \* \* \* .*nightly-plan.sh" "$ROOT/README.md"

# ---- bad rows in the dump: skipped and listed (ON_ERROR=skip, the default),
# or the night fails and last night's plan stays (ON_ERROR=strict)
btel="$TMP/badtel"; bst="$TMP/badstate"; rm -rf "$btel" "$bst"; mkdir -p "$btel"
cp "$tel/usage.csv" "$btel/usage.csv"
# one run row twice (a duplicate (job, instance)) and a garbled containers value
awk 'NR == 3 { print; print; next } { print }' "$tel/runs.csv" > "$btel/runs.csv"
awk -F, -v OFS=, 'NR == 5 { $4 = "12x" } { print }' "$tel/usage.csv" > "$btel/usage.csv"
t "bad rows: the night goes on" 0 '' '*' '' bash "$N" "$btel" "$bst"
tcheck "bad rows: both listed with file and line" bash -c '
    [ "$(tail -n +2 "$1/rejects.csv" | wc -l)" = 2 ] &&
    grep -q "^$2/runs.csv,4," "$1/rejects.csv" && grep -q "^$2/usage.csv,5," "$1/rejects.csv"' _ "$bst" "$btel"
tcheck "bad rows: the report counts them" grep -qE "^bad rows:  2 skipped \(" "$bst/report.txt"
tcheck "bad rows: a plan was made" test -s "$bst/plan.csv"
# a bad value with a line end in it (quoted): its reason quotes the value
# and spans lines; rejects.csv keeps the whole record (the report's CSV
# reader copied only its first line for a while, leaving a quote open)
mtel="$TMP/mltel"; rm -rf "$mtel" "$TMP/mlst"; mkdir -p "$mtel"; cp "$tel/usage.csv" "$mtel/"
awk -F, -v OFS=, 'NR == 4 { $3 = "\"12\n34\"" } { print }' "$tel/runs.csv" > "$mtel/runs.csv"
t "bad rows: a bad value with a line end" 0 '' '*' '' bash "$N" "$mtel" "$TMP/mlst"
tcheck "... rejects.csv is CSV, the reason whole" python3 -c '
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
assert rows[0] == ["file", "line", "reason"] and all(len(r) == 3 for r in rows), rows
assert any(r[1] == "4" and "12\n34" in r[2] for r in rows[1:]), rows' "$TMP/mlst/rejects.csv"
tcheck "no bad rows: rejects.csv is a bare header" bash -c '[ "$(cat "$1/rejects.csv")" = "file,line,reason" ]' _ "$st"
cp "$bst/plan.csv" "$TMP/bad-plan-before.csv"
t "ON_ERROR=strict: the night fails on the first bad row" 65 '' '*' 'runs.csv:4:' env ON_ERROR=strict bash "$N" "$btel" "$bst"
tcheck "ON_ERROR=strict: last night's plan unchanged" cmp "$TMP/bad-plan-before.csv" "$bst/plan.csv"
t "ON_ERROR=bogus" 64 '' '' "ON_ERROR is skip or strict, not 'bogus'" env ON_ERROR=bogus bash "$N" "$btel" "$bst"

# ad-hoc requests in the skyline form: TELEMETRY_DIR/adhoc.csv rows with empty
# containers,duration take their job's skyline from adhoc-skyline.csv
atel="$TMP/adtel"; ast="$TMP/adstate"; rm -rf "$atel" "$ast"; mkdir -p "$atel"
cp "$tel/runs.csv" "$tel/usage.csv" "$atel/"
printf 'job,arrival,deadline,containers,duration\nadsky,%s,%s,,\nadbox,%s,%s,2,10m\n' \
    "$at" "$((at + 14400))" "$at" "$((at + 14400))" > "$atel/adhoc.csv"
printf 'job,step,offset,alloc\nadsky,60,0,3\nadsky,60,60,5\n' > "$atel/adhoc-skyline.csv"
t "ad-hoc skyline: the night runs" 0 '' '*' '' bash "$N" "$atel" "$ast"
t "ad-hoc skyline: both forms placed" 0 '' $'adbox,adhoc,placed\nadsky,adhoc,placed' '' \
    sh -c 'awk -F, -v OFS=, "\$2 == \"adhoc\" { print \$1, \$2, \$4 }" "$1" | sort' _ "$ast/decisions.csv"
# a bad ad-hoc row (ON_ERROR=skip, the default) is skipped to rejects.csv;
# it failed the whole night ("lcmpack failed"), the periodic plan not
# refreshed and nothing in rejects.csv
btl="$TMP/adbadtel"; bs="$TMP/adbadstate"; rm -rf "$btl" "$bs"; mkdir -p "$btl"
cp "$atel"/* "$btl/"
printf 'adbad,%s,%s,x5,10m\n' "$at" "$((at + 14400))" >> "$btl/adhoc.csv"
# and a request whose deadline passed before the night: dropped, and on a
# first night the report said "1 expired since last night" of it
printf 'adpast,%s,%s,2,10m\n' "$((at - 14400))" "$((at - 3600))" >> "$btl/adhoc.csv"
t "a bad ad-hoc row: the night runs" 0 '' '*' '' bash "$N" "$btl" "$bs"
t "a bad ad-hoc row: in rejects.csv with its line and reason" 0 '' \
    "$btl/adhoc.csv,4,column 'containers': invalid number 'x5'" '' sh -c 'tail -n +2 "$1"' _ "$bs/rejects.csv"
t "a bad ad-hoc row: the other requests placed as without it" 0 '' '*' '' \
    cmp "$bs/plan.csv" "$ast/plan.csv"
t "a bad ad-hoc row: the report counts it" 0 '' '*' '' grep -q "^bad rows:  1 skipped" "$bs/report.txt"
t "a request past its deadline: not an expiry since last night" 0 '' \
    $'0 removed, 0 expired since last night (--stable 10%)\nad-hoc:    3 requests: 1 past their deadline 2 placed' '' \
    sh -c 'grep -E "^(changes|ad-hoc): " "$1" | sed "s/^changes: .* new, //"' _ "$bs/report.txt"
t "a bad ad-hoc row, ON_ERROR=strict: the night fails at it (65, as lcmpack)" 65 '' '*' "adhoc.csv:4: column 'containers'" \
    env ON_ERROR=strict bash "$N" "$btl" "$TMP/adbadstrict"
# the skyline's area (3 + 5 container-steps), all inside [at, at + 4 h]
t "ad-hoc skyline: its 8 container-steps in its window" 0 '' '8 0' '' \
    sh -c 'awk -F, -v at="$2" "\$2 == \"adsky\" { n += \$11; T = \$5 * 86400 + \$6; if (T < at || T + 60 > at + 14400) bad++ }
        END { print n, bad + 0 }" "$1"' _ "$ast/plan.csv" "$at"

# `make run`: examples/nightly-plan.sh on the committed examples/telemetry
# dump at the default capacity places every actionable job and rejects
# nothing (audit #16.g).  The actionable jobs are counted from the SLO file,
# the placed ones from the report, each by its own column names.
mst="$TMP/make-run-state"; rm -rf "$mst"
t "make run: the example night" 0 '' '*' '' env -u CAPACITY bash "$N" "$ROOT/examples/telemetry" "$mst"
tcheck "make run: every actionable job placed, none rejected" bash -c '
    col() { awk -F, -v c="$2" -v v="$3" "NR == 1 { for (i = 1; i <= NF; i++) if (\$i == c) k = i; next }
                                          \$k == v { print \$1 }" "$1" | sort -u; }
    want=$(col "$1/slo.csv" status actionable); got=$(col "$1/decisions.csv" status placed)
    n=$(printf "%s\n" "$want" | grep -c .)
    [ "$n" -gt 0 ] && [ "$want" = "$got" ] && [ -z "$(col "$1/decisions.csv" status rejected)" ] &&
        grep -qE "^plan: +[0-9]+ requests: [0-9]+ placed, 0 rejected" "$1/report.txt" &&
        echo "$n actionable, $n placed"' _ "$mst"

# ---- the nightly loop, night after night, against a mock YARN RM
# (tests/check/nights_sim.py): a sliding 30-day dump over 12 nights with a
# job added, one retired, one grown x3, one whose period doubles, the
# capacity grown, a missed night, and ad-hoc requests that come, are
# withdrawn, run and expire.  Each night the YARN delta is POSTed to the
# mock RM one body at a time, at 01:30 (the crontab's time; NOW) and in the
# order lcmpack(1)'s example loop gives, and checked: the RM holds exactly
# the plan's reservations and accepts every body (before --now, 28 bodies
# had their deadline before 01:30, refused, and 3 ad-hoc requests were
# placed before the run, never served: docs/lcmpack.md); no POST takes
# it over the capacity (the example used to POST submits first: with this
# dump a submit into a retired job's room, night 3, and into a replaced
# job's, night 6, found the RM still holding them); every actionable job
# has a reservation or a reason; nights without change keep >= 95%, a
# re-run gives the same plan and an empty delta; an ad-hoc request is
# served once and gone after its deadline; windows and deadlines.
order=$(sed -n 's/^for op in \(.*\); do$/\1/p' "$ROOT/man/lcmpack.1" | tr ' ' ,)
tcheck "POST order: lcmpack(1) and docs/lcmpack.md give one order" bash -c '
    [ -n "$1" ] && [ "$1" = "$(sed -n "s/^for op in \(.*\); do$/\1/p" "$2" | tr " " ,)" ]' _ "$order" "$ROOT/docs/lcmpack.md"
tcheck "12 nights against a mock YARN RM, POSTed in lcmpack(1)'s order" python3 "$ROOT/tests/check/nights_sim.py" \
    "$ROOT/$BUILD/bin" "$TMP/nights" --nights 12 --jobs 20 --seed 5 --capacity cores=400,mem=1600000 --post-order "$order"

# ---- audit (session 20): what one bad row or one odd setting did to a night
# The end of the dump (--at) was the largest raw `submit` field, compared by
# awk: one garbled row planned 1970-01-02 (exit 0, a delta deleting every
# live reservation), ISO or quoted times (which sloinfer reads) the same,
# and one millisecond submit failed the night.  Now it is read from the rows
# sloinfer used, as sloinfer reads times.
A="$TMP/audit20"; rm -rf "$A"; mkdir -p "$A"
python3 - "$tel/runs.csv" "$A" <<'PY'
import csv, os, sys, datetime
rows = list(csv.reader(open(sys.argv[1]))); h = rows[0]; c = h.index("submit")
def put(name, rs, **kw):
    os.makedirs(f"{sys.argv[2]}/{name}", exist_ok=True)
    with open(f"{sys.argv[2]}/{name}/runs.csv", "w", newline="") as f:
        csv.writer(f, lineterminator="\n", **kw).writerows(rs)
iso = lambda v: datetime.datetime.fromtimestamp(int(v), datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
put("iso", [h] + [r[:c] + [iso(r[c])] + r[c + 1:] for r in rows[1:]])
put("quoted", rows, quoting=csv.QUOTE_ALL)
for name, val in (("garbled", "n/a"), ("ms", str(int(rows[-1][c]) * 1000))):
    rs = [list(r) for r in rows]; rs[len(rs) // 2][c] = val; put(name, rs)
PY
for v in iso quoted garbled ms; do ln -sf "$tel/usage.csv" "$A/$v/usage.csv"; done
want_from="plan from $(date -u -d "@$at" +%Y-%m-%dT%H:%M:%SZ)"
bash "$N" "$tel" "$A/st-clean" >/dev/null 2>&1
for v in iso quoted garbled ms; do
    t "the dump's end, $v submit times: planned from the same midnight" 0 '' '*' '' bash -c '
        bash "$1" "$2" "$3" | grep -qF "$4"' _ "$N" "$A/$v" "$A/st-$v" "$want_from"
done
for v in iso quoted; do
    tcheck "the dump's end, $v submit times: the same plan as epoch seconds" cmp "$A/st-clean/plan.csv" "$A/st-$v/plan.csv"
done
tcheck "the dump's end, one garbled row: skipped and listed, nothing deleted" bash -c '
    grep -q "^bad rows:  1 skipped" "$1/report.txt" && [ ! -s "$1/yarn/delete.jsonl" ]' _ "$A/st-garbled"
printf 'job,instance,submit,start,end,input_avail,output_read,status\nj,1,n/a,1,2,0,3,ok\n' > "$A/nosub.csv"
mkdir -p "$A/nosub"; mv "$A/nosub.csv" "$A/nosub/runs.csv"; ln -sf "$tel/usage.csv" "$A/nosub/usage.csv"
t "the dump's end: no usable submit time fails the night, clearly (65: data)" 65 '' '' \
    'no usable submit time (epoch seconds or ISO 8601): cannot tell where the dump ends' bash "$N" "$A/nosub" "$A/st-nosub"

# A night whose plan is legitimately empty (no job actionable) failed in
# skyplot ("the plan has no reservations", exit 65) after everything else,
# so it never published: the deletes of the gone jobs never reached the RM.
mkdir -p "$A/none"
tracegen -q runs --count 6 --days 10 --set actionable_frac=0 -o "$A/none/runs.csv"
tracegen -q usage --count 6 --days 10 --set actionable_frac=0 -o "$A/none/usage.csv"
cp -a "$A/st-clean" "$A/st-none"
t "an empty plan publishes: the report says there is no picture" 0 '' '*' '' bash -c '
    bash "$1" "$2" "$3" | grep -qx "picture:   none (the plan has no reservations)"' _ "$N" "$A/none" "$A/st-none"
tcheck "an empty plan publishes: every reservation of last night deleted" bash -c '
    n=$(awk -F, "NR > 1 && \$3 != \"end\" { r[\$2 \$3 (\$3 == \"once\" ? \$4 : \"\")] } END { print length(r) }" "$1/plan.csv")
    [ "$(wc -l < "$2/yarn/delete.jsonl")" = "$n" ] && [ "$n" -gt 0 ] && [ "$(readlink "$2/current")" = gen.2 ]' _ "$A/st-clean" "$A/st-none"

# LOCK_WAIT=10s reached flock as "10s", which refused it, and the run said
# "locked by another run", exit 75, every night; NOW=abc was ignored with a
# shell error ("integer expression expected").  Both exit 64 now, with a
# message; NOW in ISO 8601 (as lcmpack --now takes it) is read.
for v in 10s abc -1; do
    t "LOCK_WAIT=$v: exit 64, said" 64 '' '' "LOCK_WAIT is a whole number of seconds (0 or more), not '$v'" \
        env LOCK_WAIT="$v" bash "$N" "$tel" "$A/st-lock"
done
for v in abc 1.5; do
    t "NOW=$v: exit 64, said" 64 '' '' "NOW is epoch seconds or an ISO 8601 time" env NOW="$v" bash "$N" "$tel" "$A/st-now"
done
tcheck "NOW in ISO 8601 = the same instant in epoch seconds" bash -c '
    NOW=$(($4 + 5400)) bash "$1" "$2" "$3-e" >/dev/null 2>&1 &&
    NOW=$(date -u -d "@$(($4 + 5400))" +%Y-%m-%dT%H:%M:%SZ) bash "$1" "$2" "$3-i" >/dev/null 2>&1 &&
    cmp "$3-e/yarn.jsonl" "$3-i/yarn.jsonl" && cmp "$3-e/plan.csv" "$3-i/plan.csv"' _ "$N" "$tel" "$A/st-niso" "$at"
# a state path with | or & broke the report's sed (after all the work: exit 1)
for p in 'st|bar' 'st&amp'; do
    t "a state path with ${p:2:1}: the report names it as it is" 0 '' '*' '' bash -c '
        bash "$1" "$2" "$3" | grep -qF "in $3/yarn/"' _ "$N" "$tel" "$A/$p"
done
# A usage.csv cut short (mid-line, as a failed export leaves it) was one
# skipped row, yet every job whose runs lay past the cut lost its
# reservations ("no request tonight"), exit 0.  A job with its SLO but no
# skyline keeps them now, and the report says so.
mkdir -p "$A/cut"; ln -sf "$tel/runs.csv" "$A/cut/runs.csv"
head -c $(( $(wc -c < "$tel/usage.csv") / 2 + 7 )) "$tel/usage.csv" > "$A/cut/usage.csv"
cp -a "$A/st-clean" "$A/st-cut"
t "usage.csv cut short: nothing freed, the report warns" 0 '' '*' '' bash -c '
    bash "$1" "$2" "$3" > "$3.out" && grep -qE "^changes: .* 0 removed" "$3.out" &&
    grep -qE "^warning:   [1-9][0-9]* jobs have their SLO but no skyline tonight" "$3.out" && [ ! -s "$3/yarn/delete.jsonl" ]' \
    _ "$N" "$A/cut" "$A/st-cut"

# POST_ACK=1 (audit, session 20): a run between a night and its POST found
# nothing to send.  Killed after publishing (a cron chain stopped before
# its POST), the recovery run on the same dump wrote an empty delta, and the
# night's changes never reached the RM.  With POST_ACK=1 an unmarked delta
# is carried into the next one (lcmpack --yarn-base rm-plan.csv).
pa="$A/pa"; mkdir -p "$A/tel2"
grep -v '^job00002,' "$tel/runs.csv" > "$A/tel2/runs.csv"; grep -v '^job00002,' "$tel/usage.csv" > "$A/tel2/usage.csv"
dcount() { echo $(cat "$1/yarn/submit.jsonl" | wc -l) $(cat "$1/yarn/update.jsonl" | wc -l) $(cat "$1/yarn/delete.jsonl" | wc -l); }
export -f dcount
t "POST_ACK: a first night not marked POSTed is carried by the re-run" 0 '' 'same' '' bash -c '
    POST_ACK=1 bash "$1" "$2" "$3" >/dev/null && a=$(dcount "$3") && [ "${a%% *}" -gt 0 ] &&
    POST_ACK=1 bash "$1" "$2" "$3" > "$3.out" && [ "$(dcount "$3")" = "$a" ] &&
    grep -q "^yarn:      last night.s delta is not marked POSTed" "$3.out" && echo same' _ "$N" "$tel" "$pa"
t "POST_ACK: once marked, the re-run sends nothing" 0 '' '0 0 0' '' bash -c '
    touch "$2/yarn/posted" && POST_ACK=1 bash "$1" "$3" "$2" >/dev/null && dcount "$2"' _ "$N" "$pa" "$tel"
touch "$pa/yarn/posted"
t "POST_ACK: kill -9 after publishing a night that retires job00002" 137 '' '*' '*' \
    env SLOKIT_NIGHTLY_KILL_AT=cleanup POST_ACK=1 bash -c 'bash "$@"; exit $?' _ "$N" "$A/tel2" "$pa"
killed=$(dcount "$pa")
t "POST_ACK: the recovery run still carries the night's deletes" 0 '' "$killed" '' bash -c '
    [ "${2##* }" -gt 0 ] && POST_ACK=1 bash "$1" "$3" "$4" >/dev/null && dcount "$4"' _ "$N" "$killed" "$A/tel2" "$pa"
cp -a "$A/st-clean" "$A/st-plain"
t "without POST_ACK: kill -9 after publishing" 137 '' '*' '*' \
    env SLOKIT_NIGHTLY_KILL_AT=cleanup bash -c 'bash "$@"; exit $?' _ "$N" "$A/tel2" "$A/st-plain"
t "without POST_ACK: the same recovery run sends nothing (documented)" 0 '' '0 0 0' '' bash -c '
    bash "$1" "$2" "$3" >/dev/null && dcount "$3"' _ "$N" "$A/tel2" "$A/st-plain"
t "POST_ACK=2: exit 64, said" 64 '' '' "POST_ACK is 0 or 1, not '2'" env POST_ACK=2 bash "$N" "$tel" "$A/st-pa2"

# A state made by another user (a night run by hand as root, then cron as
# the service user): the run said only "line 173: STATE/.lock: Permission
# denied".  It now names the directory it cannot change and how to fix it,
# and a lock file that is another user's (0644) but in a state it may
# change is opened for reading (flock needs no more) instead of failing.
if [ "$(id -u)" = 0 ] && command -v setpriv > /dev/null && id nobody > /dev/null 2>&1; then
tcheck "a state another user made: one line naming it and the fix; its lock file alone is no obstacle" bash -c '
    N=$1; tel=$2
    d=$(mktemp -d /tmp/slokit-own.XXXXXX) && trap "rm -rf \"$d\"" EXIT && chmod 755 "$d" || exit 1
    cp -r "$tel" "$d/tel" && chmod -R a+rX "$d/tel"
    bash "$N" "$d/tel" "$d/st" > /dev/null 2>&1 || { echo "the night as root failed"; exit 1; }
    as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups env HOME=/tmp PATH="$PATH" bash "$N" "$d/tel" "$d/st"; }
    as_nobody > out 2> err; rc=$?
    [ $rc = 1 ] && [ "$(wc -l < err)" = 1 ] &&
        grep -qx "nightly-plan: $d/st: not writable by nobody (owner root): run the nightly job as the state'"'"'s owner, or chown -R nobody $d/st" err ||
        { echo "root-owned state: exit $rc"; cat err; exit 1; }
    chown -R nobody "$d/st" && chown root:root "$d/st/.lock" && chmod 644 "$d/st/.lock"
    as_nobody > out 2> err || { echo "nobody, root-owned lock: exit $?"; cat err; exit 1; }
    grep -q "^changes: .* kept" "$d/st/report.txt" || { cat "$d/st/report.txt"; exit 1; }' _ "$N" "$tel"
else
    tskip "a state another user made: one line naming it and the fix; its lock file alone is no obstacle" "needs root, setpriv and the user nobody"
fi

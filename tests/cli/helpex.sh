# tests/cli/helpex.sh — every tool's --help examples and man page EXAMPLES,
# run as written.
#
# The examples at the end of each tool's --help are parsed from the help text
# itself (the lines after "Examples:" up to a blank line; two-space indent;
# a trailing backslash continues a line; "#" lines are comments), so a new
# example is covered without editing this file.  Each tool gets a scratch
# directory holding the inputs its examples name, made the way the docs make
# them (tracegen, the repository's test data, ../shared/data); the examples
# then run in order in that directory, as a reader pastes them, under
# bash -e -o pipefail.  The man pages' EXAMPLES (second part) run the same
# way, one .nf block at a time.  An example passes when it exits 0, stderr
# holds no sanitizer report, every file it creates or rewrites is non-empty,
# every file it names as output (-o FILE, > FILE) exists and is non-empty,
# and it wrote something: a file (or directory), or its standard output.
# Each help's example lines also fit in 79 columns.
#
# Examples that cannot run here (a YARN RM, ssh hosts, tail -f, minutes of
# simulation) are listed below with the reason and counted as skipped, never
# as passed; so are the few too slow under ASan (they run in the -O2 build).

source "$ROOT/tests/exlib.sh"
HX=$TMP/hx
rm -rf "$HX"; mkdir -p "$HX"
TD=$ROOT/tests/data

# help_examples TOOL: one example command a line, continuations joined
help_examples() {
    "$1" --help | awk '
        /^Examples:/ { on = 1; next }
        on && (/^$/ || /^[^ ]/) { on = 0 }
        !on { next }
        {
            line = $0; sub(/^  /, "", line)
            if (cur != "") { sub(/^ +/, "", line); cur = cur " " line } else cur = line
            if (cur ~ /\\$/) { sub(/ *\\$/, "", cur); next }
            if (cur !~ /^#/) print cur
            cur = ""
        }'
}

# Examples that cannot run in the suite: "TOOL|exact example" -> reason.
declare -A HX_SKIP=(
    ["reprov|tail -f telemetry.csv | reprov --policy dra --plan plan.csv --capacity cores=2000,mem=8192000"]="tail -f follows the file forever (a live stream); the same DRA run on a file is the --recent plan example"
    ["replplace|replplace --simulate --blocks 4000000 tenants.csv"]="4M blocks x 2 policies x 2 replica counts: minutes (replplace(1): about a minute per row)"
    ["replplace|replplace --simulate --events events.csv --days 29 tenants.csv"]="4M blocks by default (11 s at -O2), and events.csv is the reader's own event log (docs/replplace.md makes one from Google 2011)"
)
# Too slow under ASan+UBSan (they run in the -O2 build), keeping the file
# under a minute there: "TOOL|exact example" -> reason.
declare -A HX_SKIP_ASAN=(
    ["tracegen|tracegen tenants --count 1000 --truth patterns.csv | tenantclass"]="1000 tenants over 30 days through tenantclass: 10 s under ASan"
    ["tenantclass|tracegen tenants --count 500 --truth truth.csv -o util.csv"]="500 tenants over 30 days: 5 s under ASan (the next example reads the smaller util.csv the test prepared)"
)
# Tools whose examples need a program or data the machine may lack.
needs() {   # TOOL: prints what is missing, nothing when all is there
    case $1 in
    skyplot) command -v gnuplot >/dev/null || echo "gnuplot not installed" ;;
    tenantclass) command -v parallel >/dev/null || echo "GNU parallel not installed" ;;
    skyfit|stretch|traceconv) [ -d "$DATA" ] || echo "no $DATA (the public traces beside the repository)" ;;
    esac
}

# prep_TOOL: the inputs TOOL's examples name, in the current directory.
prep_sloinfer() {
    tracegen -q runs --count 20 --days 14 > runs.csv
    tracegen -q events --count 20 --days 14 > events.csv
    printf 'job,period,a,d\njob00003,,,14h\njob00012,15m,,\n' > signoff.csv
}
prep_skyfit() {
    tracegen -q runs --count 20 --days 14 > runs.csv
    tracegen -q usage --count 20 --days 14 > usage.csv
    cp "$DATA/hadoop-resourceestimator/lp/tinySample.txt" .
    awk -F, 'BEGIN { OFS = "," } NR == 1 { print "pipeline,run,t,used"; next } { print $1, $2, $3, $4 }' usage.csv > pipelines.csv
    { head -1 usage.csv; tail -n +2 usage.csv | sort -t, -k3,3n; } > time-ordered-usage.csv
    mkdir -p last && skyfit -q usage.csv > last/skyline.csv        # last night's skylines (--prior)
}
prep_lcmpack() {
    tracegen -q runs --count 20 --days 14 > runs.csv
    tracegen -q usage --count 20 --days 14 > usage.csv
    # ad-hoc requests: a box, and a job whose skyline skyfit fits from a test run
    printf 'job,arrival,deadline,containers,duration\nbox,2026-01-06T01:00:00Z,2026-01-06T05:00:00Z,10,1h\nbackfill,2026-01-06T01:00:00Z,2026-01-06T05:00:00Z,,\n' > adhoc.csv
    tracegen -q usage --count 1 --days 3 | sed 's/^job00000,/backfill,/' | skyfit -q > adhoc-sky.csv
}
prep_peakgate() {
    tracegen -q taskmem --count 10 > usage.csv
    awk -F, 'NR == 1 { print "task,alloc_mb"; next } !s[$1]++ { print $1 "," $4 }' usage.csv > allocs.csv
    tracegen -q taskmem --count 2 --seed 7 > node7.csv
    # an export in any order with one bad row
    { tracegen -q taskmem --count 4 --seed 3; echo 'task00001,bad,12,'; } |
        { read -r h; echo "$h"; sort -t, -k2,2 -k1,1; } > export.csv
}
prep_replay() {
    tracegen -q runs --count 20 --days 30 > runs.csv
    tracegen -q usage --count 20 --days 30 --truth truth.csv > usage.csv
    sloinfer -q runs.csv > slo.csv
    skyfit -q usage.csv > sky.csv
    lcmpack -q --slo slo.csv --capacity cores=2000,mem=8192000 --at 2026-01-26 sky.csv -o plan.csv
}
prep_replplace() {
    awk 'BEGIN { srand(1); print "block,server"; for (i = 0; i < 1000; i++) print "b" i "," int(rand() * 7497) }' > blocks.csv
}
prep_reprov() {
    cp "$TD/reprov/plan.csv" "$TD/reprov/history.csv" .
    cp "$TD/reprov/full_stream.csv" samples.csv
    cp "$TD/reprov/slides_stream.csv" progress.csv
}
prep_skyplot() {
    tracegen -q usage --count 6 --days 14 > usage.csv
    skyfit -q usage.csv > skyline.csv
    tracegen -q runs --count 6 --days 14 | sloinfer -q > slo.csv   # 2 of them actionable
    lcmpack -q --slo slo.csv --capacity cores=2000,mem=8192000 --load load.csv skyline.csv > plan.csv
    tracegen -q tenants --count 20 --days 7 > util.csv
    tenantclass -q util.csv > tenants.csv
    tracegen -q vcs > vcs.csv
    tracegen -q vcjobs | stretch -q vcs.csv - --daily daily.csv > /dev/null
    peakgate -q --simulate --model --k 1,2 --node-series mem.csv > /dev/null
}
prep_stretch() {
    ln -s "$DATA/swim/FB-2009_samples_24_times_1hr_0.tsv" .
}
prep_tenantclass() {
    tracegen -q tenants --count 40 --truth truth.csv > util.csv   # what example 1 makes, smaller
    tracegen -q tenants --count 12 --days 2 --set percent=1 --set step=300 > usage.csv
    { tracegen -q tenants --count 12 --days 3 --seed 2; echo 'tenant0001,bad,0.5'; } |
        { read -r h; echo "$h"; sort -t, -k2,2n -k1,1; } > shuffled.csv
    ex_tenant_shards
}
prep_classpick() {
    tracegen -q tenants --count 30 --truth truth.csv > util.csv
    tenantclass -q --classes cl0.csv util.csv > /dev/null
    awk -F, 'NR == 1 { print "class,current_util"; next } { print $1 "," $3 }' cl0.csv > now.csv
    printf 'job,last_duration,containers\nq19,600,469\nnew,,40\n' > jobs.csv
    cp "$TD/classpick/dagjobs.csv" "$TD/classpick/dags.csv" .
}
prep_traceconv() {
    ln -s "$DATA"/google-2011/job_events-*.csv.gz "$DATA"/google-2011/task_events-part-00001-of-00500.csv.gz .
    ln -s "$DATA"/alibaba-gpu-2023/openb_pod_list_gpushare40.csv "$DATA"/alibaba-gpu-2023/openb_node_list_all_node.csv .
    ln -s "$DATA/swim/FB-2009_samples_24_times_1hr_0.tsv" .
    cp "$TD/traceconv/tiny.swf" log.swf
}
prep_keyshard() {
    tracegen -q usage --count 8 --days 3 > usage.csv
}

for tool in $(ls "$ROOT/$BUILD/bin"); do
    d=$HX/$tool; mkdir -p "$d"
    help_examples "$tool" > "$HX/$tool.examples"
    t "$tool --help has examples" 0 '' '*' '' test -s "$HX/$tool.examples"
    t "$tool --help examples fit in 79 columns" 0 '' '' '' \
        awk 'length > 79 { print FILENAME ": " length ": " $0; bad = 1 } END { exit bad }' \
        <("$tool" --help | awk '/^Examples:/ { on = 1 } on && /^$/ { on = 0 } on')
    why=$(needs "$tool")
    if [ -z "$why" ] && declare -F "prep_$tool" >/dev/null; then
        (cd "$d" && "prep_$tool") >"$HX/$tool.prep" 2>&1 || why="preparing the inputs failed: $(head -3 "$HX/$tool.prep")"
    fi
    n=0; f0=$FAIL
    while IFS= read -r cmd; do
        n=$((n + 1))
        key="$tool|$cmd"
        if [ -n "$why" ]; then tskip "$tool --help example $n" "$why"; continue; fi
        if [ -n "${HX_SKIP[$key]+x}" ]; then tskip "$tool --help example $n: $cmd" "${HX_SKIP[$key]}"; continue; fi
        if [ "$BUILD" != build ] && [ -n "${HX_SKIP_ASAN[$key]+x}" ]; then
            tskip "$tool --help example $n: $cmd" "${HX_SKIP_ASAN[$key]}"; continue
        fi
        ex_run "$tool --help example $n: $cmd" "$d" "$cmd"
        ex_prune "$d" "$(tail -n +$((n + 1)) "$HX/$tool.examples")"
    done < "$HX/$tool.examples"
    ex_done "$d" "$f0"
done


# ---------------------------------------------------------------------------
# The man pages' EXAMPLES: each .nf block, roff escapes undone, run as one
# script in order in the page's scratch directory (examples/ and tests/ of the
# repository beside it, ../shared/data the public traces), checked as above.

# man_blocks PAGE: the EXAMPLES blocks, each followed by a line "#--block"
man_blocks() {
    awk '/^\.SH/ { ex = ($0 ~ /^\.SH EXAMPLES/); next }
        !ex { next }
        /^\.nf/ { inb = 1; next }
        /^\.fi/ { if (inb) print "#--block"; inb = 0; next }
        !inb || /^\.(RS|RE)/ { next }
        { l = $0; gsub(/\\-/, "-", l); gsub(/\\e/, "\\", l); gsub(/\\\\/, "\\", l); gsub(/\\&/, "", l); print l }' "$1"
}

# A block holding one of exlib's EX_SKIP_BLOCK patterns cannot run here.
# A line holding one of these is left out of its block (the rest runs).
declare -A EX_SKIP_LINE=(
    ["replplace --simulate --blocks 4000000"]="4M blocks x 2 policies x 2 replica counts: minutes"
    ["examples/harvest-"]="the paper's sweep: tens of minutes"
    ["examples/headline.sh"]="the paper's headline: minutes"
    ["tracegen usage --count 1700"]="writes 500 MB to /tmp"
)
# Blocks too slow under ASan+UBSan (they run in the -O2 build): "PAGE|text
# in the block" -> reason.
declare -A EX_SKIP_ASAN=(
    ["classpick|--count 200 --days 60"]="200 tenants over 60 days through tenantclass and the month simulator: 9 s at -O2"
    ["replplace|--blocks 1000000 g/tenants.csv"]="a million blocks over the Google 2011 failures: 6 s at -O2"
    ["tenantclass|tracegen tenants --count 500"]="500 tenants over 30 days through tenantclass: 7 s under ASan"
)

mprep_sloinfer() {
    tracegen -q runs --count 20 --days 14 > r.csv
    awk -F, 'BEGIN { OFS = "," } { print $1, $2, $3, $4, $5, $8 }' r.csv |
        { read -r h; echo "$h"; sort -t, -k3,3n; } > export.csv      # no provenance, any order
    awk -F, 'NR == 1 { for (w = 0; w < 4; w++) print > ("w" w ".csv"); next }
        { print > ("w" (substr($1, 4) % 4) ".csv") }' r.csv          # four workers' shares
    tracegen -q usage --count 20 --days 14 | skyfit -q > skyline.csv
}
mprep_skyfit() {
    prep_skyfit
    mkdir -p state && cp last/skyline.csv state/skyline.csv
    { head -1 usage.csv; tail -n +2 usage.csv | sort -t, -k3,3n; } > u.csv   # ungrouped
}
mprep_lcmpack() {
    tracegen -q runs --count 20 --days 14 > runs.csv
    tracegen -q usage --count 20 --days 14 > usage.csv
    # a job added during the day
    tracegen -q requests --count 1 --seed 9 --truth n.slo | sed 's/^job00000,/newjob,/' > new.sky
    sed 's/^job00000,/newjob,/' n.slo > new.slo
}
mprep_peakgate() { prep_peakgate; }
mprep_replay() { prep_replay; }
mprep_replplace() { prep_replplace; }
mprep_stretch() {
    tracegen -q vcs | sed '1s/.*/queue,capacity/' > queues.csv
    tracegen -q vcjobs | sed '1s/.*/app,queue,submit,core_hours,max_parallelism/' > apps.csv
}
mprep_tenantclass() { prep_tenantclass; }
mprep_classpick() { cp "$TD/classpick/dagjobs.csv" "$TD/classpick/dags.csv" .; }
mprep_traceconv() { gzip -c "$TD/traceconv/tiny.swf" > LOG.swf.gz; }
mprep_keyshard() { prep_keyshard; }
mprep_reprov() { prep_reprov; }

MX=$HX/man
mkdir -p "$MX/shared"; ln -s "$DATA" "$MX/shared/data"
for page in "$ROOT"/man/*.1; do
    tool=$(basename "$page" .1)
    d=$MX/$tool; mkdir -p "$d"
    ln -s "$ROOT/examples" "$ROOT/tests" "$d/"
    man_blocks "$page" > "$MX/$tool.blocks"
    t "$tool(1) has examples" 0 '' '*' '' grep -q '^#--block$' "$MX/$tool.blocks"
    why=$(needs "$tool"); f0=$FAIL
    [ -n "$why" ] || { [ "$tool" != tracegen ] || command -v mlr >/dev/null; } || why="mlr (miller) not installed"
    if [ -z "$why" ] && declare -F "mprep_$tool" >/dev/null; then
        (cd "$d" && "mprep_$tool") >"$MX/$tool.prep" 2>&1 || why="preparing the inputs failed: $(head -3 "$MX/$tool.prep")"
    fi
    run_blocks "$tool(1)" "$tool" "$d" "$MX/$tool.blocks" "$why"
    ex_done "$d" "$f0"
done

# every skip entry still names an example (a renamed example must not leave a
# stale skip behind while the new text runs unnoticed or never runs)
tcheck "every skipped --help example exists in its tool's --help" bash -c '
    hx=$1; shift; st=0
    for k in "$@"; do grep -qxF -- "${k#*|}" "$hx/${k%%|*}.examples" || { echo "stale skip: $k"; st=1; }; done
    exit $st' _ "$HX" "${!HX_SKIP[@]}" "${!HX_SKIP_ASAN[@]}"
ex_skips_current "$MX"/*.blocks

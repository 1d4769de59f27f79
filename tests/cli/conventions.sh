# Conventions every tool keeps (README "CSV conventions", docs/HACKING.md):
# GNU --version, --help ending with worked examples, a man page with EXIT
# STATUS and EXAMPLES, exit 64 on a bad option, 66 on a missing input file,
# bash completion that knows the tool.
for bin in $(ls "$ROOT/$BUILD/bin"); do
    t "$bin --version" 0 '' '*' '' "$bin" --version
    tcheck "$bin --version is GNU format" bash -c '"$1" --version | head -1 | grep -qE "^$1 \(slokit\) [0-9]+\.[0-9]+\.[0-9]+$"' _ "$bin"
    tcheck "$bin --help ends with examples" bash -c '"$1" --help | grep -qi "^ *examples\?:"' _ "$bin"
    # argp wraps at 79 columns, so a longer example line would break mid-command
    tcheck "$bin --help examples fit in 79 columns" bash -c 'ARGP_HELP_FMT=rmargin=1000 "$1" --help |
        awk "f && length(\$0) > 79 { print; bad = 1 } /^ *[Ee]xamples?:/ { f = 1 } END { exit bad }"' _ "$bin"
    # argp's right margin is column 79: a 79-column example line is already
    # broken ("... >" and "skylines.csv" on two lines); compare with no margin
    tcheck "$bin --help examples are not wrapped" bash -c 'ex() { sed -n "/^ *[Ee]xamples\?:/,\$p"; }
        diff <(ARGP_HELP_FMT=rmargin=1000 "$1" --help | ex; echo) <("$1" --help | ex; echo) | grep -q "^[<>] *[^ ]" && exit 1; exit 0' _ "$bin"
    t "$bin bad option" 64 '' '' 'unrecognized option' "$bin" --no-such-option
    tcheck "$bin man page" bash -c 'm="$ROOT/man/$1.1"; [ -f "$m" ] && grep -q "^\.SH EXIT STATUS" "$m" && grep -q "^\.SH EXAMPLES" "$m" && grep -q "^\.SH OPTIONS" "$m" && man -l "$m" >/dev/null 2>&1' _ "$bin"
    tcheck "$bin in bash completion" grep -qw "$bin" "$ROOT/contrib/slokit.bash-completion"
done
# Two outputs naming one file are refused before any input is read only
# when the tool names its side outputs to cli_outputs (lib/base/cli.h) once
# its options are read; outf_open would refuse them only when the second
# opens, for many tools after reading the whole input.
for exe in "$ROOT/$BUILD/bin"/*; do
    bin=${exe##*/}
    tcheck "$bin checks its outputs before reading (cli_outputs)" grep -q "^ *cli_outputs(" "$ROOT/cmd/$bin.c"
done
# An option and its value in an alternating font macro (.RB, .BR, ...) are
# two arguments, printed with no space: `.RB ( \-\-policy stock )` reads
# "(--policystock)".  Quote them into one argument: `.RB ( "\-\-policy stock" )`.
tcheck "man pages: no option and value split in an alternating font macro" bash -c '
    ! grep -nE "^\.(BR|RB|BI|IB|RI|IR) " "$1"/man/*.1 | sed "s/\"[^\"]*\"/Q/g" |
        grep -E "\\\\-\\\\-[a-z][a-z\\\\-]* [a-z0-9]"' _ "$ROOT"
tcheck "completion script parses" bash -n "$ROOT/contrib/slokit.bash-completion"
tcheck "completion offers skyplot options" bash -c '
    source "$ROOT/contrib/slokit.bash-completion"
    COMP_WORDS=(skyplot --te); COMP_CWORD=1; _slokit_complete skyplot --te skyplot
    [ "${COMPREPLY[*]}" = "--term" ]'
# The CSV options every tool has (slokit(7) OPTIONS EVERY TOOL HAS): bad
# values are usage errors, and each reading tool's input roles are the ones
# slokit(7) lists under INPUT ROLES.
# A common option a tool has no use for is refused (cli_refuse: exit 64,
# "OPTION does not apply to TOOL: why", and left out of --help), never
# accepted and ignored.  The table is slokit(7)'s: TOOL OPTION WHY.
refused='
traceconv	-H	-H/--no-header does not apply to traceconv: each trace format has its published layout
traceconv	--names=a	--names does not apply to traceconv: each trace format has its published layout
traceconv	--col=a=b	--col does not apply to traceconv: each trace format has its published layout
traceconv	--time-unit=ms	--time-unit does not apply to traceconv: the formats fix their time units
tracegen	-H	-H/--no-header does not apply to tracegen: tracegen reads no input
tracegen	--names=a	--names does not apply to tracegen: tracegen reads no input
tracegen	--col=a=b	--col does not apply to tracegen: tracegen reads no input
tracegen	--time-unit=ms	--time-unit does not apply to tracegen: tracegen reads no input
tracegen	--on-error=skip	--on-error does not apply to tracegen: tracegen reads no input
tracegen	--rejects=r.csv	--rejects does not apply to tracegen: tracegen reads no input
keyshard	--time-unit=ms	--time-unit does not apply to keyshard: keyshard copies records byte for byte
keyshard	--precision=2	--precision does not apply to keyshard: keyshard copies records byte for byte
keyshard	--no-output-header	--no-output-header does not apply to keyshard: every shard and the merged output keep
keyshard	--on-error=skip	--on-error does not apply to keyshard: it drops no record
keyshard	--rejects=r.csv	--rejects does not apply to keyshard: it drops no record
skyplot	--no-output-header	--no-output-header does not apply to skyplot: skyplot writes charts, not CSV
skyplot	--precision=2	--precision does not apply to skyplot: skyplot writes charts, not CSV
lcmpack	--time-unit=ms	--time-unit does not apply to lcmpack: skylines hold offsets and durations, not epoch times
replplace	--time-unit=ms	--time-unit does not apply to replplace: its inputs hold no epoch times
classpick	--time-unit=ms	--time-unit does not apply to classpick: its jobs hold no times
replay	--progress	--progress does not apply to replay: it shows no progress (it reads live or short streams)
replay	--no-progress	--no-progress does not apply to replay: it shows no progress (it reads live or short streams)
reprov	--progress	--progress does not apply to reprov: it shows no progress (it reads live or short streams)
reprov	--no-progress	--no-progress does not apply to reprov: it shows no progress (it reads live or short streams)
'
while IFS=$'\t' read -r bin o why; do
    [ -n "$bin" ] || continue
    t "$bin $o refused" 64 '' '' "$why" "$bin" "$o"
    long=${o%%=*}; [ "$long" = -H ] && long=--no-header
    tcheck "$bin --help leaves out $long" bash -c '! "$1" --help | grep -qe "$2\b"' _ "$bin" "$long"
    tcheck "$bin: slokit(7) says $long does not apply" bash -c '
        sed -n "/^\.SS Which tools take which/,/^\.TE/p" "$3" | sed -n "/^$1	T{/,/^T}/p" | sed "s/\\\\-/-/g" | grep -qe "$2\b"' \
        _ "$bin" "$long" "$ROOT/man/slokit.7"
done <<< "$refused"
takes() { ! printf '%s' "$refused" | grep -q "^$1	$2"; }
# --names names the columns of an input without a header: alone it would be ignored
t "--names without -H" 64 '' '' "--names needs -H/--no-header" sloinfer --names a,b
# -H and --names describe the primary input only, as --col without a ROLE:
# a side input keeps its header (its header row was read as data under the
# primary's names: "sky.csv:1: missing required columns 'step', 'offset'
# and 'alloc'", so a Hadoop Streaming reducer could not take --prior or
# --runs).  The same outputs as with the header on the primary input.
HS="$TMP/hside"
mkdir -p "$HS"
tracegen -q runs --count 6 --days 5 -o "$HS/runs.csv"
tracegen -q usage --count 6 --days 5 -o "$HS/usage.csv"
tracegen -q events --count 6 --days 5 -o "$HS/events.csv"
skyfit -q -o "$HS/sky.csv" "$HS/usage.csv"
tail -n +2 "$HS/usage.csv" > "$HS/usage.body"
tail -n +2 "$HS/runs.csv" > "$HS/runs.body"
UN=$(head -1 "$HS/usage.csv")
RN=$(head -1 "$HS/runs.csv")
for side in "--prior $HS/sky.csv" "--runs $HS/runs.csv"; do
    # shellcheck disable=SC2086 # $side is an option and its file
    tcheck "skyfit -H $side: the side input keeps its header" bash -c 'cmp <(skyfit -q "${@:4}" "$1") <(skyfit -q -H --names "$3" "${@:4}" "$2")' \
        _ "$HS/usage.csv" "$HS/usage.body" "$UN" $side
done
tcheck "sloinfer -H --events: the side input keeps its header" bash -c 'cmp <(sloinfer -q --events "$4" "$1") <(sloinfer -q -H --names "$3" --events "$4" "$2")' \
    _ "$HS/runs.csv" "$HS/runs.body" "$RN" "$HS/events.csv"
for bin in $(ls "$ROOT/$BUILD/bin"); do
    if takes "$bin" --time-unit; then
        t "$bin --time-unit bad" 64 '' '' "invalid value for --time-unit: 'ns' (want s, ms or us)" "$bin" --time-unit ns
    fi
    if takes "$bin" --on-error; then
        t "$bin --on-error bad" 64 '' '' "invalid value for --on-error: 'x' (want strict or skip)" "$bin" --on-error x
    fi
    # (a tool that names no roles, e.g. one that reads raw traces, has no row)
    tcheck "$bin input roles as in slokit(7)" bash -c '
        got=$("$1" --col nosuchrole:a=b 2>&1 </dev/null | sed -n "s/.*this tool reads: \(.*\))\$/\1/p")
        want=$(sed -n "/^\.SH INPUT ROLES/,/^\.TE/p" "$2" | awk -F "\t" -v t="$1" "\$1 == t { print \$2 }" |
               sed -e "s/ (.*//" -e "s/\\\\-/-/g")
        [ "$got" = "$want" ] || { echo "tool: [$got] slokit(7): [$want]"; exit 1; }' _ "$bin" "$ROOT/man/slokit.7"
    # and in its own page's "Input roles" line (skyfit(1) named usage only,
    # lcmpack(1) left out adhoc): the bold words of that line but \-\-col
    page_roles=$(/usr/bin/python3 -c '
import re, sys
for line in open(sys.argv[1]):
    if line.startswith("Input roles for "):
        line = line.split("NAME\\fR: ", 1)[1]
        w = [m.replace("\\-", "-") for m in re.findall(r"\\fB(.*?)\\fR", line)]
        print(", ".join(x for x in w if not x.startswith("--")))' "$ROOT/man/$bin.1")
    [ -n "$page_roles" ] &&
    tcheck "$bin input roles as in $bin(1)" bash -c '
        got=$("$1" --col nosuchrole:a=b 2>&1 </dev/null | sed -n "s/.*this tool reads: \(.*\))\$/\1/p")
        [ "$got" = "$2" ] || { echo "tool: [$got] $1(1): [$2]"; exit 1; }' _ "$bin" "$page_roles"
done
# Case and character classes are ASCII whatever the locale: under tr_TR,
# where tolower('I') is not 'i', sloinfer counted every FINISHED run as
# failed (an --ok-status word), refused the event op WRITE, and traceconv
# ignored an SWF header UNIXSTARTTIME: (the session-35 environment audit).
# The locale is compiled into $TMP (LOCPATH), so no system locale is needed.
TRL="$TMP/locales"
if mkdir -p "$TRL" && localedef -i tr_TR -f UTF-8 "$TRL/tr_TR.UTF-8" >/dev/null 2>&1; then
    tracegen -q runs --count 30 --days 20 | sed 's/,ok$/,FINISHED/' > "$TMP/tr_runs.csv"
    tracegen -q events --count 30 --days 20 | awk -F, 'BEGIN { OFS = "," } NR > 1 { $5 = toupper($5) } 1' > "$TMP/tr_ev.csv"
    sed 's/UnixStartTime:/UNIXSTARTTIME:/' "$ROOT/tests/data/traceconv/tiny.swf" > "$TMP/tr.swf"
    tcheck "tr_TR locale: the same as C (sloinfer, FINISHED)" bash -c '
        grep -q ",FINISHED$" "$1" && cmp <(sloinfer -q "$1") <(LOCPATH="$2" LC_ALL=tr_TR.UTF-8 sloinfer -q "$1")' _ "$TMP/tr_runs.csv" "$TRL"
    tcheck "tr_TR locale: the same as C (sloinfer --events, WRITE)" bash -c '
        grep -q ",WRITE" "$3" && cmp <(sloinfer -q --events "$3" "$1") <(LOCPATH="$2" LC_ALL=tr_TR.UTF-8 sloinfer -q --events "$3" "$1")' \
        _ "$TMP/tr_runs.csv" "$TRL" "$TMP/tr_ev.csv"
    tcheck "tr_TR locale: the same as C (traceconv swf, UNIXSTARTTIME:)" bash -c '
        cd "$3" && cmp <(traceconv -q swf "$1" --capacities c1.csv) <(LOCPATH="$2" LC_ALL=tr_TR.UTF-8 traceconv -q swf "$1" --capacities c2.csv)' \
        _ "$TMP/tr.swf" "$TRL" "$TMP"
else
    for w in "sloinfer, FINISHED" "sloinfer --events, WRITE" "traceconv swf, UNIXSTARTTIME:"; do
        tskip "tr_TR locale: the same as C ($w)" "localedef cannot compile tr_TR (Debian package locales)"
    done
fi
# A full disk on standard output is one message, not two (outf_commit reports
# it; slk_finish does not say it again), and exit 74.
# Every tool that writes to stdout, each one way (a chart, a plan, a
# simulation and the held outputs among them).
tracegen -q usage --count 2 --days 3 > "$TMP/full_usage.csv"
tracegen -q taskmem --count 2 > "$TMP/full_mem.csv"
tracegen -q tenants --count 3 > "$TMP/full_ten.csv"
printf 'job,period,a,d\nr,3600,0,600\n' > "$TMP/full.slo"
printf 'job,step,offset,alloc\nr,60,0,1\nr,60,60,2\n' > "$TMP/full.sky"
lcmpack -q --lcm 1h --capacity cores=4,mem=100000 --slo "$TMP/full.slo" "$TMP/full.sky" -o "$TMP/full_plan.csv" \
    --load "$TMP/full_load.csv"
for c in "sloinfer -q $ROOT/tests/data/sloinfer/basic.csv" "skyfit -q $ROOT/tests/data/skyfit/straggler_usage.csv" \
         "tracegen -q runs --count 2 --days 2" "skyplot -q skyline $TMP/full_usage.csv" "skyplot -q skyline $TMP/full_usage.csv -o -" \
         "skyplot -q plan $TMP/full_plan.csv --load $TMP/full_load.csv" "skyplot -q lines $TMP/full_ten.csv --x t --y util --by tenant" \
         "lcmpack -q --lcm 1h --capacity cores=4,mem=100000 --slo $TMP/full.slo $TMP/full.sky" \
         "peakgate -q $TMP/full_mem.csv" "tenantclass -q $TMP/full_ten.csv"; do
    tcheck "full stdout, one message: $c" bash -c '
        $1 > /dev/full 2> "$2"; rc=$?
        n=$(grep -c "write error on standard output: No space left on device" "$2")
        [ "$rc" = 74 ] && [ "$n" = 1 ] || { echo "exit $rc, $n messages:"; cat "$2"; exit 1; }' _ "$c" "$TMP/full.err"
done
# Every tool whose output is held (outf_open_held) says so in --help.
for src in $(grep -l "outf_open_held" "$ROOT"/cmd/*.c); do
    bin=$(basename "$src" .c)
    tcheck "$bin --help says stdout is held" bash -c '"$1" --help | tr "\n" " " | grep -q "held in a temporary file in \$TMPDIR"' _ "$bin"
done
# --progress (slokit(7)): on a long read, a progress line on stderr
# ("\rTOOL: WHAT: N\033[K"), cleared before any message, so that stderr
# without the progress segments is byte for byte stderr without --progress,
# and stdout is the same; --no-progress and a stderr that is not a terminal
# show none.  Inputs of 1,760-8,640 rows (progress draws from row 1,024 on).
tracegen -q runs --count 30 --days 10 > "$TMP/pr_runs.csv"
tracegen -q usage --count 3 --days 3 > "$TMP/pr_usage.csv"
tracegen -q taskmem --count 1 > "$TMP/pr_mem.csv"
keyshard -q -k job -n 2 -p "$TMP/pr_ks-" "$TMP/pr_usage.csv"
printf 'job,period,a,d\njob00001,86400,0,86400\n' > "$TMP/pr.slo"
printf 'job,step,offset,alloc\njob00001,60,0,2\n' > "$TMP/pr.sky"
for c in "sloinfer $TMP/pr_runs.csv" "skyfit $TMP/pr_usage.csv" "peakgate $TMP/pr_mem.csv" \
         "keyshard -k job -n 2 -p $TMP/pr_ks2- $TMP/pr_usage.csv" "keyshard --merge $TMP/pr_ks-0000.csv $TMP/pr_ks-0001.csv" \
         "traceconv swim $DATA/swim/FB-2009_samples_24_times_1hr_0.tsv --capacities $TMP/pr_vcs.csv" \
         "traceconv google-runs $DATA/google-2011/job_events-part-00001-of-00500.csv.gz" \
         "tracegen runs --count 2000 --days 1" \
         "lcmpack --lcm 1d --capacity cores=4,mem=100000 --slo $TMP/pr.slo $TMP/pr.sky" \
         "skyplot memory $TMP/pr_mem.csv" "skyplot lines --term dumb $TMP/pr_mem.csv --y mem_mb"; do
    tcheck "--progress draws and clears: ${c%% $TMP*}" bash -c '
        $1 --progress > "$2.out1" 2> "$2.err1" || exit 1
        $1 > "$2.out0" 2> "$2.err0" || exit 1
        $1 --no-progress > /dev/null 2> "$2.errn" || exit 1
        grep -q "$(printf "\r")${1%% *}: .*[0-9)]$(printf "\033")\[K" "$2.err1" || { echo "no progress line:"; cat -v "$2.err1"; exit 1; }
        t() { sed -E "s/[0-9]+\.[0-9]+ s\b/T s/g" "$@"; } # the summaries time themselves
        sed "s/\r[^\r\x1b]*\x1b\[K//g" "$2.err1" | t | cmp -s - <(t "$2.err0") || { echo "messages differ:"; cat -v "$2.err1"; exit 1; }
        cmp -s "$2.out1" "$2.out0" || { echo "stdout differs with --progress"; exit 1; }
        ! grep -q "$(printf "\r")" "$2.err0" "$2.errn" || { echo "progress without a terminal or with --no-progress"; exit 1; }' _ "$c" "$TMP/pr"
done
# A reader of a regular file says how much of it is read ("rows: 1024 (37%
# of the input)", bytes read of the file's size; of the compressed bytes for
# a .gz), never above 100% and never going back; from a pipe, whose end is
# unknown, the count alone.
for c in "sloinfer $TMP/pr_runs.csv" "skyfit $TMP/pr_usage.csv" "peakgate $TMP/pr_mem.csv" \
         "traceconv google-runs $DATA/google-2011/job_events-part-00001-of-00500.csv.gz" \
         "keyshard -k job -n 2 -p $TMP/pr_ks3- $TMP/pr_usage.csv" "skyplot memory $TMP/pr_mem.csv"; do
    tcheck "--progress of a file in percent, of a pipe without: ${c%% $TMP*}" bash -c '
        set -- $1; tool=$1; in=${!#}; args=("${@:2:$#-2}")
        "$tool" --progress "${args[@]}" "$in" > /dev/null 2> err1 || exit 1
        tr "\r" "\n" < err1 | grep -o "([0-9]*% of the input)" | tr -dc "0-9\n" > pct
        [ -s pct ] || { echo "no percent:"; cat -v err1; exit 1; }
        sort -n -c pct && [ "$(tail -1 pct)" -le 100 ] || { echo "percents:"; cat pct; exit 1; }
        cat "$in" | "$tool" --progress "${args[@]}" - > /dev/null 2> err2 || exit 1
        grep -q "$(printf "\r")$tool: .*[0-9]$(printf "\033")\[K" err2 && ! grep -q "% of the input" err2 ||
            { echo "from a pipe:"; cat -v err2; exit 1; }' _ "$c"
done
# No unit test's scratch output is tracked at the root (test_plan_segments
# writes seg*.csv in its working directory; eight were committed once).
tcheck "no unit-test scratch files tracked at the root" bash -c '[ ! -d "$1/.git" ] || [ -z "$(git -C "$1" ls-files -- "seg*.csv" "seg*.csv.idx")" ]' _ "$ROOT"
# No plan locks are tracked (lcmpack --plan leaves PLAN.lock beside its plan;
# twelve were committed into tests/bad and tests/fuzz/corpus once).
tcheck "no PLAN.lock files tracked" bash -c '[ ! -d "$1/.git" ] || [ -z "$(git -C "$1" ls-files -- "*.lock")" ]' _ "$ROOT"
# No patch leftovers are tracked (a tests/cli/skyfit.sh.orig was committed once).
tcheck "no patch leftovers (*.orig, *.rej) tracked" bash -c '[ ! -d "$1/.git" ] || [ -z "$(git -C "$1" ls-files -- "*.orig" "*.rej")" ]' _ "$ROOT"

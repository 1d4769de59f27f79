# tests/cli/tracegen.sh — tracegen's periodic job kinds (runs, usage, events),
# its options and errors.  Numbers are checked by the independent checker
# tests/check/tracegen_check.py, never against tracegen's own output.
# (Kinds of other tools — tenants, vcs, taskmem, ... — have their own files.)

CHK="/usr/bin/python3 $ROOT/tests/check/tracegen_check.py"
START=1767571200   # the default --start, 2026-01-05T00:00:00Z

# ---- the kinds are listed with their schemas ------------------------------------
t list-runs 0 '' '*' '' sh -c 'tracegen --list | grep -A1 "^runs" | grep -qx "	columns: job,instance,submit,start,end,input_avail,output_read,status" && echo ok'
t list-usage 0 '' '*' '' sh -c 'tracegen --list | grep -A1 "^usage" | grep -qx "	columns: job,run,t,containers,cores,mem_mb"'
t list-events 0 '' '*' '' sh -c 'tracegen --list | grep -A1 "^events" | grep -qx "	columns: time,job,instance,file,op"'
t header-runs 0 '' 'job,instance,submit,start,end,input_avail,output_read,status' '' sh -c 'tracegen runs --count 1 --days 1 -q | head -1'
t header-usage 0 '' 'job,run,t,containers,cores,mem_mb' '' sh -c 'tracegen usage --count 1 --days 1 -q | head -1'
t header-events 0 '' 'time,job,instance,file,op' '' sh -c 'tracegen events --count 1 --days 1 -q | head -1'
t header-truth 0 '' 'job,period,a,d,consumer_period,actionable,reason' '' sh -c 'tracegen runs --count 3 --days 1 -q --truth "$TMP/t.csv" >/dev/null && head -1 "$TMP/t.csv"'
t header-usage-truth 0 '' 'job,period,stages,peak_containers,provisioned,cores,mem_mb,runtime' '' sh -c 'tracegen usage --count 3 --days 1 -q --truth "$TMP/t.csv" >/dev/null && head -1 "$TMP/t.csv"'
t tsv 0 '' 'job	instance	submit	start	end	input_avail	output_read	status' '' sh -c 'tracegen runs --tsv --count 1 --days 1 -q | head -1'
t summary 0 '' '*' 'tracegen: runs: 4 jobs over 2 days from 2026-01-05T00:00:00Z:' tracegen runs --count 4 --days 2

# ---- determinism ----------------------------------------------------------------
same_seed() {
    for k in runs usage events; do
        tracegen "$k" --seed 11 --count 20 --days 3 -q --truth "$TMP/a.t" >"$TMP/a.csv" || return 1
        tracegen "$k" --seed 11 --count 20 --days 3 -q --truth "$TMP/b.t" >"$TMP/b.csv" || return 1
        cmp "$TMP/a.csv" "$TMP/b.csv" && cmp "$TMP/a.t" "$TMP/b.t" || { echo "$k differs"; return 1; }
    done
}
other_seed() {
    for k in runs usage events; do
        tracegen "$k" --seed 11 --count 20 --days 3 -q >"$TMP/a.csv" || return 1
        tracegen "$k" --seed 12 --count 20 --days 3 -q >"$TMP/b.csv" || return 1
        ! cmp -s "$TMP/a.csv" "$TMP/b.csv" || { echo "$k: seeds 11 and 12 give the same output"; return 1; }
    done
}
# a job's data does not depend on --count: job00000..job00009 of a trace of 30
# jobs are the trace of 10 jobs
count_independent() {
    for k in runs usage events; do
        tracegen "$k" --count 10 --days 4 -q >"$TMP/a.csv" || return 1
        tracegen "$k" --count 30 --days 4 -q >"$TMP/b.csv" || return 1
        n=$(wc -l <"$TMP/a.csv")
        head -n "$n" "$TMP/b.csv" | cmp - "$TMP/a.csv" || { echo "$k: first 10 jobs differ"; return 1; }
        [ "$(sed -n "$((n + 1))p" "$TMP/b.csv" | cut -d, -f1-2 | grep -c 00010)" = 1 ] || { echo "$k: job00010 does not follow"; return 1; }
    done
}
tcheck same-seed-identical same_seed
tcheck other-seed-differs other_seed
tcheck count-independent count_independent

# ---- scale: --count jobs, rows proportional to --days -----------------------------
scale() {
    tracegen runs --count 37 --days 4 -q --truth "$TMP/t.csv" >"$TMP/a.csv" || return 1
    [ "$(tail -n +2 "$TMP/t.csv" | wc -l)" = 37 ] || { echo "truth rows != 37"; return 1; }
    [ "$(tail -n +2 "$TMP/a.csv" | cut -d, -f1 | sort -u | wc -l)" -ge 34 ] || { echo "too few jobs with runs"; return 1; }
    tracegen runs --count 37 --days 8 -q >"$TMP/b.csv" || return 1
    a=$(tail -n +2 "$TMP/a.csv" | wc -l) b=$(tail -n +2 "$TMP/b.csv" | wc -l)
    awk -v a="$a" -v b="$b" 'BEGIN { r = b / a; printf "rows %d -> %d (%.3fx)\n", a, b, r; exit !(r > 1.9 && r < 2.1) }'
}
tcheck scale-count-days scale

# ---- the independent checker: schema, ranges, truth, consistency ------------------
gen3() {  # gen3 DIR ARGS...: runs, usage, events and truth of one trace
    d=$1; shift
    mkdir -p "$d"
    tracegen runs -q --truth "$d/truth.csv" "$@" >"$d/runs.csv" &&
    tracegen usage -q "$@" >"$d/usage.csv" &&
    tracegen events -q --truth "$d/truth2.csv" "$@" >"$d/events.csv" &&
    cmp "$d/truth.csv" "$d/truth2.csv"
}
tcheck gen-default gen3 "$TMP/d1" --count 60 --days 14
tcheck check-runs $CHK runs "$TMP/d1/runs.csv" "$TMP/d1/truth.csv" 14 $START
tcheck check-usage $CHK usage "$TMP/d1/runs.csv" "$TMP/d1/usage.csv"
tcheck check-events $CHK events "$TMP/d1/runs.csv" "$TMP/d1/events.csv"
tcheck gen-seed5 gen3 "$TMP/d2" --seed 5 --count 60 --days 14 --start 2026-03-02T00:00:00Z
tcheck check-runs-seed5 $CHK runs "$TMP/d2/runs.csv" "$TMP/d2/truth.csv" 14 1772409600
tcheck check-events-seed5 $CHK events "$TMP/d2/runs.csv" "$TMP/d2/events.csv"
# a rough trace: many failures, retries, manual runs, stragglers and skipped periods
ROUGH="--seed 3 --count 40 --days 7 --set fail_prob=0.15 --set extra_prob=0.1 --set straggler_prob=0.2 --set miss_prob=0.05 --set jitter=2"
tcheck gen-rough gen3 "$TMP/d3" $ROUGH
tcheck check-events-rough $CHK events "$TMP/d3/runs.csv" "$TMP/d3/events.csv"
tcheck check-usage-rough $CHK usage "$TMP/d3/runs.csv" "$TMP/d3/usage.csv"
tcheck usage-failed-runs sh -c "tracegen usage -q $ROUGH --set failed_usage=1 >'$TMP/d3/usage-f.csv' && $CHK usage '$TMP/d3/runs.csv' '$TMP/d3/usage-f.csv' failed"
t rough-has-failures 0 '' '*' '' sh -c "awk -F, '\$8==\"failed\"{f++} END{exit !(f > 50)}' '$TMP/d3/runs.csv'"

# ---- the --set keys do what they say -------------------------------------------
periods() { tracegen runs -q --count 80 --days 1 --truth "$TMP/p.csv" "$@" >/dev/null && tail -n +2 "$TMP/p.csv" | cut -d, -f2 | sort -un | tr '\n' ' '; }
t set-hourly 0 '' '3600 ' '' periods --set hourly_frac=1
t set-daily 0 '' '86400 ' '' periods --set daily_frac=1
t set-offkilter 0 '' '2100 3000 18000 25200 39600 ' '' periods --set offkilter_frac=1 --set hourly_frac=0 --set daily_frac=0
t set-default-mix 0 '' '900 2100 3000 3600 7200 14400 18000 21600 25200 39600 43200 86400 604800 ' '' periods --count 400
reasons() { tracegen runs -q --count 200 --days 1 --truth "$TMP/p.csv" "$@" >/dev/null && tail -n +2 "$TMP/p.csv" | cut -d, -f7 | sort | uniq -c | awk '{printf "%s ", $2}'; }
t set-all-actionable 0 '' 'actionable ' '' reasons --set actionable_frac=1
t set-none-actionable 0 '' 'high_cv no_consumer no_slack ' '' reasons --set actionable_frac=0
t default-every-reason 0 '' 'actionable high_cv no_consumer no_slack ' '' reasons
t set-long-consumer 0 '' '604800 ' '' sh -c "tracegen runs -q --count 30 --days 1 --set daily_frac=1 --set actionable_frac=1 --set long_consumer_frac=1 --truth '$TMP/p.csv' >/dev/null && tail -n +2 '$TMP/p.csv' | cut -d, -f5 | sort -u | tr '\n' ' '"
t set-no-failures 0 '' '0' '' sh -c "tracegen runs -q --count 30 --days 3 --set fail_prob=0 | grep -c ',failed$' || true"
t set-all-fail-no-usage 0 '' 'job,run,t,containers,cores,mem_mb' '' tracegen usage -q --count 5 --days 1 --set fail_prob=1 --set retry_prob=0
# drift: with --set drift=0 and no code changes the runtime of a job does not trend;
# with drift=0.5 some job's mean runtime grows or shrinks by more than 50% in 4 weeks
trend() {  # the largest |log(mean runtime of week 4 / week 1)| over jobs
    tracegen runs -q --count 40 --days 28 --set hourly_frac=1 --set straggler_prob=0 --set code_change_prob=0 "$@" |
    awk -F, -v s=$START 'NR > 1 && $8 == "ok" { w = int(($3 - s) / 604800); if (w == 0 || w == 3) { n[$1, w]++; r[$1, w] += $5 - $4; jobs[$1] } }
        END { m = 0; for (j in jobs) { x = log((r[j, 3] / n[j, 3]) / (r[j, 0] / n[j, 0])); if (x < 0) x = -x; if (x > m) m = x }; printf "%.2f\n", m }'
}
no_drift() { x=$(trend --set drift=0); echo "$x"; awk -v x="$x" 'BEGIN { exit !(x < 0.1) }'; }
big_drift() { x=$(trend --set drift=0.5); echo "$x"; awk -v x="$x" 'BEGIN { exit !(x > 0.5) }'; }
tcheck no-drift no_drift
tcheck drift big_drift

# ---- bad options: exit 64 with a clear message, nothing written -------------------
t unknown-kind 64 '' '' "unknown kind 'nosuch'" tracegen nosuch
t no-kind 64 '' '' 'which KIND?' tracegen
t unknown-set-key 64 '' '' "unknown --set key 'bogus' for kind 'runs'" tracegen runs --set bogus=1
t same-keys-all-kinds 0 '' '*' '' sh -c 'for k in runs usage events; do tracegen $k -q --count 2 --days 1 --set failed_usage=1 >/dev/null || exit 1; done'
t count-zero 64 '' '' "invalid value for --count: '0'" tracegen runs --count 0
t count-junk 64 '' '' "invalid value for --count: '5x'" tracegen runs --count 5x
t days-zero 64 '' '' "invalid value for --days: '0'" tracegen runs --days 0
t start-huge 64 '' '' "invalid value for --start: '9223372036854775807' (epoch seconds beyond 1e+11" tracegen runs --start 9223372036854775807
t start-junk 64 '' '' "invalid value for --start: 'yesterday'" tracegen runs --start yesterday
# a --start the tools take (|t| <= 1e11) but a trace that goes past it: usage
# wrote times such as 100000073174, which replay and every other tool refuse
t start-trace-beyond 64 '' '' "tracegen: --start 99999990000: the usage trace would reach 100001890800, beyond 1e+11 (the year 5138): give an earlier --start or a shorter trace" \
    sh -c 'tracegen usage -q --seed 3 --count 1 --days 1 --start 99999990000 -o "$1/ff.csv" --truth "$1/fft.csv"; rc=$?; ls "$1/ff.csv" "$1/fft.csv" 2>/dev/null; exit $rc' _ "$TMP"
t start-trace-before 64 '' '' "tracegen: --start -99999990000: the events trace would reach back to -100000681200, beyond -1e+11: give a later --start" tracegen events -q --count 1 --days 1 --start -99999990000
# every kind that writes times: the latest --start it takes writes no time
# beyond 1e11 (the usage one is read by skyfit), a second later is refused;
# runs, usage and events reach 3 weeks past their last day, jobruns a day
# past its last run's
near_limit() {  # KIND LATEST ARGS...: the largest time written at LATEST, and the refusal at LATEST + 1
    k=$1 s=$2; shift 2
    tracegen "$k" -q --start "$s" "$@" > "$TMP/near_$k.csv" || return 1
    awk -F, 'NR > 1 { for (i = 1; i <= NF; i++) if ($i ~ /^-?[0-9.]+$/ && ($i > 1e11 || $i < -1e11)) { print "beyond: " $0; exit 1 } }' "$TMP/near_$k.csv" || return 1
    [ "$(wc -l < "$TMP/near_$k.csv")" -gt 1 ] || { echo "no rows"; return 1; }
    tracegen "$k" -q --start $((s + 1)) "$@" > /dev/null 2> "$TMP/near_$k.err"
    [ $? = 64 ] && grep -q "the $k trace would reach" "$TMP/near_$k.err" || { cat "$TMP/near_$k.err"; return 1; }
}
tcheck start-latest-runs near_limit runs 99998099200 --count 30 --days 1
tcheck start-latest-usage near_limit usage 99998099200 --count 30 --days 1
tcheck start-latest-usage-read sh -c 'skyfit -q "$1/near_usage.csv" > /dev/null' _ "$TMP"
tcheck start-latest-events near_limit events 99998099200 --count 30 --days 1
tcheck start-latest-tenants near_limit tenants 99999913600 --count 3 --days 1
tcheck start-latest-taskmem near_limit taskmem 99999913600 --count 2 --days 1 --set step=60
tcheck start-latest-jobruns near_limit jobruns 99999827200 --count 2
tcheck start-latest-vcjobs near_limit vcjobs 99999913600 --count 3 --days 1
t start-no-times 0 '' '*' '' sh -c 'for k in storage vcs requests; do tracegen $k -q --count 3 --start 99999999999 > /dev/null || exit 1; done'
# a jobruns run drawn longer than the day allowed for it (5000 tasks on one
# token: 35 hours) is refused when drawn, before any of its rows
t jobruns-run-beyond 64 '' '' "tracegen: jobruns: run job001-r0001 would reach 100000000006, beyond 1e+11 (the year 5138)" \
    sh -c 'tracegen jobruns -q --count 1 --set jobs=1 --set stages=1 --set tasks=5000 --set allocs=1 --start 99999913600 -o "$1/jr.csv"; rc=$?; ls "$1/jr.csv" 2>/dev/null; exit $rc' _ "$TMP"
t set-no-eq 64 '' '' "invalid value for --set: 'fail_prob'" tracegen runs --set fail_prob
t set-range 64 '' '' "invalid value for --set fail_prob: '1.5' (want a number in [0, 1])" tracegen runs --set fail_prob=1.5
t set-nan 64 '' '' "invalid value for --set drift: 'nan'" tracegen runs --set drift=nan
t set-word 64 '' '' "invalid value for --set jitter: 'lots'" tracegen events --set jitter=lots
t set-failed-usage 64 '' '' "invalid value for --set failed_usage: 'yes' (want 0 or 1)" tracegen usage --set failed_usage=yes
t set-mix-sum 64 '' '' 'hourly_frac + daily_frac + offkilter_frac = 1.3 is more than 1' tracegen runs --set hourly_frac=0.8 --set daily_frac=0.5
t set-mix-scaled 0 '' '3600 86400 ' '' periods --set hourly_frac=0.5 --set daily_frac=0.5
t truth-same-as-o 64 '' '' "x.csv: named by two outputs of this run, and each would replace the other" tracegen runs --count 1 -o "$TMP/x.csv" --truth "$TMP/x.csv"
t help-examples 0 '' '*' '' sh -c 'tracegen --help | grep -q "tracegen events --count 50"'
t cannot-create 73 '' '' 'cannot create' tracegen runs --count 1 -o /nonexistent/dir/runs.csv
t truth-cannot-create 73 '' '' 'cannot create' tracegen runs --count 1 --truth /nonexistent/dir/t.csv

# ---- -o is atomic ------------------------------------------------------------------
atomic() {
    d=$TMP/atomic; rm -rf "$d"; mkdir -p "$d"
    echo old >"$d/runs.csv"; echo oldtruth >"$d/truth.csv"
    tracegen runs --count 3 --set fail_prob=7 -o "$d/runs.csv" --truth "$d/truth.csv" 2>/dev/null && { echo "bad --set accepted"; return 1; }
    [ "$(cat "$d/runs.csv")" = old ] && [ "$(cat "$d/truth.csv")" = oldtruth ] || { echo "old files changed on error"; return 1; }
    tracegen runs --count 3 --days 1 -q -o "$d/runs.csv" --truth "$d/truth.csv" || return 1
    tracegen runs --count 3 --days 1 -q >"$d/want.csv" || return 1
    cmp "$d/runs.csv" "$d/want.csv" || return 1
    [ "$(ls -A "$d" | tr '\n' ' ')" = "runs.csv truth.csv want.csv " ] || { echo "left behind: $(ls -A "$d")"; return 1; }
}
tcheck o-atomic atomic

# ---- the committed example dump is what its README's commands make -----------------
E=$ROOT/examples/telemetry
t example-runs 0 '' "@$E/runs.csv" '' tracegen runs --seed 54 --days 14 --count 30 -q --truth "$TMP/ex-truth.csv"
tcheck example-truth cmp "$TMP/ex-truth.csv" "$E/truth.csv"
t example-usage 0 '' "@$E/usage.csv" '' tracegen usage --seed 54 --days 14 --count 30 -q
t example-events 0 '' "@$E/events.csv" '' tracegen events --seed 54 --days 14 --count 6 -q

# ---- the man page documents every kind, its --set keys and its columns -------------
# For every kind of `tracegen --list`: man/tracegen.1 has a `.SH KIND <name>`
# section, every --set key of the kind is the tag of an entry (.TP then .B/.BR
# naming it) in that section, and so is every column of the header the kind
# really writes.
man_tags() {  # man_tags KIND: the bold words of the .TP tags of .SH KIND <kind>
    sed -n "/^\.SH KIND $1\$/,/^\.SH /p" "$ROOT/man/tracegen.1" | sed '1d;$d' |
    awk 'prev == ".TP" && /^\.BR? / { l = $0; sub(/^\.BR? /, "", l); gsub(/"[^"]*"/, " ", l); gsub(/\\%/, "", l)
                                      n = split(l, w, /[ ,]+/); for (i = 1; i <= n; i++) if (w[i] != "") print w[i] }
         { prev = $0 }'
}
man_kinds() {
    tracegen --list >"$TMP/kinds" || return 1
    n=0
    for k in $(grep -v '^	' "$TMP/kinds" | cut -f1); do
        grep -qx "\.SH KIND $k" "$ROOT/man/tracegen.1" || { echo "no .SH KIND $k in man/tracegen.1"; return 1; }
        man_tags "$k" >"$TMP/tags"
        keys=$(awk -F'\t' -v k="$k" '!/^\t/ { cur = $1 } cur == k && /^\t--set:/ { sub(/^\t--set: */, ""); print }' "$TMP/kinds")
        [ -n "$keys" ] || { echo "$k: no --set keys listed"; return 1; }
        for key in $keys; do
            grep -qx "$key" "$TMP/tags" || { echo "$k: --set key '$key' has no entry in .SH KIND $k"; return 1; }
        done
        tracegen "$k" -q --count 2 --days 0.05 >"$TMP/hdr.csv" || return 1
        for col in $(head -1 "$TMP/hdr.csv" | tr ',' ' '); do
            grep -qx "$col" "$TMP/tags" || { echo "$k: column '$col' has no entry in .SH KIND $k"; return 1; }
        done
        n=$((n + 1))
    done
    echo "$n kinds documented"
    [ "$n" -ge 9 ]
}
tcheck man-every-kind man_kinds

# a --set value that is not a number is refused for every numeric key, before any output
for kv in "tenants step=abc" "taskmem step=1x" "storage envs=many" "requests night=x" "runs jitter=abc"; do
    set -- $kv
    t "--set $2 for $1 refused" 64 '' '' "invalid value for --set ${2%%=*}: '${2#*=}'" tracegen "$1" --count 2 --set "$2"
done
t "--set util=high for vcjobs (mixed) refused" 64 '' '' "invalid value for --set util: 'high'" tracegen vcjobs --count 2 --set scenario=mixed --set util=high
t "requests: negative night refused" 64 '' '' 'night >= 0' tracegen requests --count 2 --set night=-1
# values that made rows the next tool refuses (step 1e+308, 4.3e+307
# containers, a normal level of 9.4e+307 MB with an empty peak): refused
for kv in "requests step=1e308" "requests step=86401" "requests maxc=1e308" "requests maxc=1000001" "taskmem normal_max=1e308"; do
    set -- $kv
    t "--set $2 for $1 refused as out of range" 64 '' '' "$1: " tracegen "$1" --count 2 --set "$2"
done
tcheck "requests at the bounds (step 86400, maxc 1e6) plan in lcmpack" bash -c '
    tracegen -q requests --count 3 --set step=86400 --truth "$1/b.slo" > "$1/b1.sky" && lcmpack -q --slo "$1/b.slo" --capacity cores=1e5,mem=1e9 --at 2026-01-05 "$1/b1.sky" > /dev/null &&
    tracegen -q requests --count 3 --set maxc=1e6 --truth "$1/c.slo" > "$1/c1.sky" && lcmpack -q --slo "$1/c.slo" --capacity cores=1e9,mem=1e13 --at 2026-01-05 "$1/c1.sky" | grep -q ",periodic,"' _ "$TMP"
t "vcjobs size_h=0 refused without a leak" 64 '' '' "invalid --set size_h" tracegen vcjobs --count 1 --set size_h=0

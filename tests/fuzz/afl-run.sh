#!/bin/bash
# tests/fuzz/afl-run.sh NAME SECONDS [BUILD] — one AFL++ campaign on target NAME
# of tests/fuzz/afl.targets against BUILD/bin (default build-afl); resumes
# BUILD/out/NAME when it exists.  Prints and logs executions, edges, bitmap
# coverage, crashes and hangs; exits 1 when the campaign saved a crash or hang.
# AFL_LEAKS=0 runs the campaign without LeakSanitizer (its scan at exit cost
# about 0.13 s per execution on this 2-core machine, 8 executions a second
# against some 40 without) and then replays the whole queue once with it:
# a leak found that way counts as a crash (leaks=N in the summary).
set -u
name=$1 secs=$2 build=${3:-build-afl}
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 2
line=$(grep "^$name|" tests/fuzz/afl.targets) || { echo "afl-run: no target $name" >&2; exit 2; }
cmd=${line#*|}
F=$root/tests/fuzz/fixed
cmd=${cmd//\$F/$F}
read -r tool args <<<"$cmd"
out=$build/out/$name
mkdir -p "$out"
st=$out/default/fuzzer_stats
g() { sed -n "s/^$1 *: *//p" "$st"; }
prev=0
[ -f "$st" ] && prev=$(g execs_done)   # AFL++ carries execs_done over a resume
echo "== fuzz $name (AFL++) for $secs s: $tool $args"
# abort_on_error/symbolize=0 as AFL wants; leaks count as crashes.
leaks=${AFL_LEAKS:-1}
[ "$leaks" = 0 ] || leaks=1
env PATH="$F:$PATH" AFL_NO_UI=1 AFL_AUTORESUME=1 AFL_SKIP_CPUFREQ=1 \
    AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_AFFINITY=1 \
    ASAN_OPTIONS=abort_on_error=1:symbolize=0:detect_leaks="$leaks":allocator_may_return_null=1 \
    UBSAN_OPTIONS=halt_on_error=1:abort_on_error=1 \
    afl-fuzz -V "$secs" -m none -t 3000 -i "tests/fuzz/corpus/$name" -o "$out" \
    -- "$build/bin/$tool" $args >"$build/$name.log" 2>&1
rc=$?
if [ ! -f "$st" ]; then echo "afl-run: $name did not start (exit $rc), see $build/$name.log" >&2; tail -5 "$build/$name.log" >&2; exit 2; fi
# leak_replay: every queue entry once under LeakSanitizer; copies those that
# leak to crashes/leak-ID and prints how many did
leak_replay() {
    local n=0 f a
    for f in "$out"/default/queue/id*; do
        [ -f "$f" ] || continue
        a=${args//@@/$f}
        # shellcheck disable=SC2086 # the target's arguments are words
        env PATH="$F:$PATH" ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 \
            timeout 30 "$build/bin/$tool" $a </dev/null >/dev/null 2>"$out/leak.err"
        if grep -q "LeakSanitizer" "$out/leak.err"; then
            n=$((n + 1))
            mkdir -p "$out/default/crashes" && cp "$f" "$out/default/crashes/leak-$(basename "$f")"
        fi
    done
    echo "$n"
}
nleak=0
[ "$leaks" = 1 ] || nleak=$(leak_replay)
summary="$(date -u +%FT%TZ) $name seconds=$secs execs=$(( $(g execs_done) - prev )) total_execs=$(g execs_done) edges=$(g edges_found)/$(g total_edges) bitmap=$(g bitmap_cvg) corpus=$(g corpus_count) crashes=$(g saved_crashes) hangs=$(g saved_hangs)$([ "$leaks" = 1 ] || echo " leaks=$nleak (queue replayed with LeakSanitizer)")"
echo "$summary" | tee -a "$build/fuzz.log"
n=$(( $(g saved_crashes) + $(g saved_hangs) + nleak ))
if [ "$n" -gt 0 ]; then
    echo "afl-run: $name: findings in $out/default/crashes and hangs; reproduce with:"
    for f in "$out"/default/crashes/id* "$out"/default/crashes/leak-* "$out"/default/hangs/id*; do
        [ -e "$f" ] && echo "  build-asan/bin/$tool ${args//@@/$f}"
    done
    exit 1
fi

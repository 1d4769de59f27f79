# tests/cli/bench.sh — the benchmark harness itself (bench/run.sh and
# bench/lib.sh).  Benchmarks assert nothing and no time is checked here; but
# a bench whose command fails must say so, not print an empty cell (the
# traceconv row went empty unnoticed once: its input had become invalid).

B=$TMP/b
mkdir -p "$B"
for f in "$ROOT"/bench/*.sh; do
    t "bench/$(basename "$f") parses" 0 '' '' '' bash -n "$f"
done

t "an unknown bench name is refused" 64 '' '' "bench: no bench 'nosuch' (there are: " \
    env BENCH_TMP="$B/u" bash "$ROOT/bench/run.sh" nosuch

# secs: a failing command returns 1 and is noted for bench/run.sh
tcheck "lib.sh: a failing command is noted with its bench's name" bash -c '
    export BENCH_TMP=$1 BENCH_NAME=demo; mkdir -p "$1"; : >"$1/failed"
    . "$ROOT/bench/lib.sh"
    if s=$(secs false 2>/dev/null); then echo "secs false succeeded: $s"; exit 1; fi
    s=$(secs true) || { echo "secs true failed"; exit 1; }
    [ "$(cat "$1/failed")" = "demo: false" ] || { echo "failed holds:"; cat "$1/failed"; exit 1; }
    awk -v s="$s" "BEGIN { exit !(s ~ /^[0-9]+\\.[0-9][0-9][0-9]\$/) }" || { echo "secs printed $s"; exit 1; }' _ "$B/lib"

if [ -d "$DATA/google-2011" ]; then
    # the real traceconv bench, the build under test (a few seconds)
    t "traceconv bench runs" 0 '' '*' '' env BIN="$ROOT/$BUILD/bin" BENCH_TMP="$B/ok" bash "$ROOT/bench/run.sh" traceconv
    tcheck "its row has both times and their ratio, and nothing failed" bash -c '
        grep -E "^\| traceconv \| google job_events \([0-9.]+ MB gzip\) to runs \| [0-9]+\.[0-9]+ \| zcat \\\\\| gawk \| [0-9]+\.[0-9]+ \| >?[0-9]+\.[0-9]+ \| [0-9]+ \|$" "$1/table.md" &&
        [ ! -s "$1/failed" ] && ! grep -q "failed" "$1/table.md"' _ "$B/ok"
    # a traceconv that fails: the row says so, the command is listed, exit 1
    mkdir -p "$B/fake"; printf '#!/bin/sh\nexit 2\n' >"$B/fake/traceconv"; chmod +x "$B/fake/traceconv"
    t "a failing bench command: exit 1, listed" 1 '' '*' "bench: command failed: traceconv -q google-runs" env BIN="$B/fake" BENCH_TMP="$B/bad" bash "$ROOT/bench/run.sh" traceconv
    tcheck "its row says failed and the tables list the command" bash -c '
        grep -qE "^\| traceconv \| google job_events .* \| failed \| zcat \\\\\| gawk \| [0-9.]+ \| - \| - \|$" "$1/table.md" &&
        grep -qF "    traceconv: traceconv -q google-runs" "$1/table.md" &&
        grep -qF "traceconv: traceconv -q google-runs" "$1/failed"' _ "$B/bad"
else
    tskip "the traceconv bench" "no $DATA/google-2011 (the public traces beside the repository)"
fi

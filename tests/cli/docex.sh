# tests/cli/docex.sh — the ```sh blocks of README.md and docs/*.md, run as
# written.
#
# Each file's blocks run in order, one block as one bash -e -o pipefail
# script, in a scratch directory laid out like the root of a clone beside
# ../shared: examples/ and tests/ of the repository, ../shared/data the
# public traces.  The inputs a block names without making them (a reader's
# own files: a run history, a node's task series) are made first, from
# tracegen or the repository's test data.  The checks are tests/exlib.sh's
# ex_run: exit 0, no sanitizer report, every file written non-empty, output
# written.  Blocks that cannot run here (the suite itself, Slurm, ssh hosts,
# a YARN RM, tail -f) and lines of minutes-long simulations are skipped with
# the reason.

source "$ROOT/tests/exlib.sh"
DX=$TMP/dx
rm -rf "$DX"; mkdir -p "$DX/shared"; ln -s "$DATA" "$DX/shared/data"
TD=$ROOT/tests/data

EX_SKIP_BLOCK+=(   # beside exlib's YARN, tail -f and ssh examples
    ["make run"]="builds and runs the project itself (make)"
    ["make check "]="runs this test suite"
    ["make deps "]="installs packages and builds (make)"
    ["examples/slurm/array.sh"]="needs a Slurm cluster (tests/cli/engines.sh runs it on a two-node lab)"
)
declare -A EX_SKIP_LINE=(
    ["--blocks 4000000"]="4M blocks x 2 policies x 2 replica counts: minutes"
)
declare -A EX_SKIP_ASAN=()   # none: the whole file runs in about 35 s under ASan

# dprep_NAME: the inputs NAME's blocks read without making them
dprep_lcmpack() {
    tracegen -q runs --count 20 --days 14 > runs.csv
    tracegen -q usage --count 20 --days 14 > usage.csv
    tracegen -q requests --count 1 --seed 9 --truth n.slo | sed 's/^job00000,/newjob,/' > new.sky
    sed 's/^job00000,/newjob,/' n.slo > new.slo
    printf 'job,arrival,deadline,containers,duration\nbox,2026-01-06T01:00:00Z,2026-01-06T05:00:00Z,10,1h\n' > adhoc.csv
    tracegen -q usage --count 1 --days 3 | sed 's/^job00000,/backfill,/' > backfill-usage.csv
}
dprep_README() { gzip -c "$TD/traceconv/tiny.swf" > LOG.swf.gz; }   # an SWF log as downloaded
dprep_peakgate() { tracegen -q taskmem --count 2 --seed 7 > node7.csv; }
dprep_reprov() {
    cp "$TD/reprov/history.csv" "$TD/reprov/plan.csv" .
    cp "$TD/reprov/slides_stream.csv" progress.csv
}
dprep_tenantclass() { ex_tenant_shards; }

for f in "$ROOT/README.md" "$ROOT"/docs/*.md; do
    rel=${f#$ROOT/}; name=$(basename "$f" .md)
    d=$DX/$name; mkdir -p "$d"
    ln -s "$ROOT/examples" "$ROOT/tests" "$d/"
    awk '/^```sh$/ { on = 1; next } /^```/ { if (on) print "#--block"; on = 0; next } on' "$f" > "$DX/$name.blocks"
    [ -s "$DX/$name.blocks" ] || continue
    why=""; f0=$FAIL
    case $name in
    tenantclass) command -v parallel >/dev/null || why="GNU parallel not installed" ;;
    README|peakgate|stretch) command -v gnuplot >/dev/null || why="gnuplot not installed (skyplot)" ;;
    tracegen|skyfit) command -v mlr >/dev/null || why="mlr (miller) not installed" ;;
    esac
    if [ -z "$why" ] && declare -F "dprep_$name" >/dev/null; then
        (cd "$d" && "dprep_$name") >"$DX/$name.prep" 2>&1 || why="preparing the inputs failed: $(head -3 "$DX/$name.prep")"
    fi
    run_blocks "$rel" "$rel" "$d" "$DX/$name.blocks" "$why"
    ex_done "$d" "$f0"
done
ex_skips_current "$DX"/*.blocks

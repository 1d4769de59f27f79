# bench/skyplot.sh — drawing a large plan (issue 9): skyplot on a 1,000-job
# lcmpack plan (reading, stacking, writing the data, gnuplot) against gnuplot
# alone drawing the same data files skyplot wrote, timed in this run, so the
# ratio is skyplot's own overhead over the plotting engine.
source "$ROOT/bench/lib.sh"
d="$BENCH_TMP/skyplot"; mkdir -p "$d"
if [ ! -s "$d/plan.csv" ]; then
    tracegen -q requests --count 1000 --truth "$d/slo.csv" -o "$d/sky.csv"
    lcmpack -q --slo "$d/slo.csv" --capacity cores=20000,mem=80000000 --at 2026-01-05 "$d/sky.csv" \
        --load "$d/load.csv" -o "$d/plan.csv"
fi
rows=$(($(wc -l < "$d/plan.csv") - 2))
for term in svg png dumb; do
    mark
    t=$(best 3 skyplot -q plan "$d/plan.csv" --load "$d/load.csv" --term "$term")
    # the reference: keep skyplot's gnuplot script and data, run gnuplot alone on them
    rm -rf "$d/keep"; mkdir -p "$d/keep"
    g=""
    if command -v gnuplot >/dev/null; then
        TMPDIR="$d/keep" SKYPLOT_KEEP=1 skyplot -q plan "$d/plan.csv" --load "$d/load.csv" --term "$term" >/dev/null 2>&1
        s=$(ls "$d"/keep/skyplot.*/plot.gp 2>/dev/null | head -1)
        # the script names its data relative to its directory (skyplot(1), SKYPLOT_KEEP)
        [ -n "$s" ] && g=$(best 3 env -C "${s%/*}" gnuplot plot.gp)
    fi
    row "plot a plan of $rows rows, $term" "$t" "$([ -n "$g" ] && echo "gnuplot alone, same data")" "$g" "$(peak)"
    echo "bench skyplot: plan of $rows rows, $term: ${t} s$([ -n "$g" ] && echo " ($(ratio "$t" "$g")x gnuplot alone on the same data, ${g} s)")"
done

# tenants at scale (session 32): the tenants chart bins while it reads (two
# passes over the file) against tenantclass, which reads the same file once
# to class the tenants, timed in this run; the peak RSS is the chart's.
n=$(size 200 2000)
if [ ! -s "$d/util$n.csv" ]; then
    tracegen -q tenants --count "$n" > "$d/util$n.csv"
    tenantclass -q "$d/util$n.csv" > "$d/ten$n.csv"
fi
rows=$(($(wc -l < "$d/util$n.csv") - 1))
mark
t=$(secs skyplot -q tenants "$d/util$n.csv" --classes "$d/ten$n.csv" -o "$d/ten.png")
p=$(peak)
r=$(secs tenantclass -q "$d/util$n.csv" -o "$d/ten-again.csv")
row "tenants chart of $rows rows ($n tenants)" "$t" "tenantclass on the same file" "$r" "$p"
echo "bench skyplot: tenants of $rows rows: ${t} s, ${p} MB peak ($(ratio "$t" "$r")x tenantclass, ${r} s)"

# a node's tasks at scale: peakgate --series of 40 tasks, every series
# thinned to the image's columns, against gnuplot alone on the data skyplot
# wrote (the thinned points): what is left is reading and thinning.
dur=$(size 4h 24h)
[ -s "$d/tasks$dur.csv" ] || peakgate -q --simulate --model --tasks 40 --duration "$dur" --k 1,2,4 --series "$d/tasks$dur.csv" > /dev/null
rows=$(($(wc -l < "$d/tasks$dur.csv") - 1))
mark
t=$(secs skyplot -q memory "$d/tasks$dur.csv" -o "$d/tasks.svg")
p=$(peak)
rm -rf "$d/keep"; mkdir -p "$d/keep"
g=""
if command -v gnuplot >/dev/null; then
    TMPDIR="$d/keep" SKYPLOT_KEEP=1 skyplot -q memory "$d/tasks$dur.csv" -o /dev/null 2>/dev/null
    s=$(ls "$d"/keep/skyplot.*/plot.gp 2>/dev/null | head -1)
    [ -n "$s" ] && g=$(secs env -C "${s%/*}" gnuplot plot.gp)
fi
kb=$(($(wc -c < "$d/tasks.svg") / 1024))
row "memory chart of $rows rows, svg" "$t" "$([ -n "$g" ] && echo "gnuplot alone, same data")" "$g" "$p"
echo "bench skyplot: memory of $rows rows: ${t} s, ${p} MB peak, ${kb} KB svg$([ -n "$g" ] && echo " ($(ratio "$t" "$g")x gnuplot alone on the same data, ${g} s)")"

# the same file through standard input, as a pipe is read: every point held
# and sorted (plot/linebins), timed in this run against the file read twice
# above: what the second pass costs in time and saves in memory
mark
h=$(secs sh -c 'exec skyplot -q memory -o "$2" < "$1"' _ "$d/tasks$dur.csv" "$d/tasks-in.svg")
hp=$(peak)
row "memory chart of $rows rows, from standard input (every point held)" "$h" "the file, read twice" "$t" "$hp"
echo "bench skyplot: memory of $rows rows from standard input: ${h} s, ${hp} MB peak ($(ratio "$h" "$t")x the file read twice: ${t} s, ${p} MB peak)"

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
        TMPDIR="$d/keep" SKYPLOT_KEEP=1 skyplot -q plan "$d/plan.csv" --load "$d/load.csv" --term "$term" >/dev/null
        s=$(ls "$d"/keep/skyplot.*/plot.gp 2>/dev/null | head -1)
        [ -n "$s" ] && g=$(best 3 gnuplot "$s")
    fi
    row "plot a plan of $rows rows, $term" "$t" "$([ -n "$g" ] && echo "gnuplot alone, same data")" "$g" "$(peak)"
    echo "bench skyplot: plan of $rows rows, $term: ${t} s$([ -n "$g" ] && echo " ($(ratio "$t" "$g")x gnuplot alone on the same data, ${g} s)")"
done

# skyplot: every chart kind renders a valid SVG/PNG with the expected number of
# series (checked by tests/check/svg_series.py with Python's XML parser), text
# charts work, user text cannot reach gnuplot as commands, errors are clean.
D="$ROOT/tests/data/skyplot"
SVG="/usr/bin/python3 $ROOT/tests/check/svg_series.py"

# skyline: 2 runs + the fitted skyline = 3 series
t "skyline svg" 0 '' '' '' skyplot -q skyline "$D/usage.csv" --fit "$D/fit.csv" -o "$TMP/sky.svg"
tcheck "skyline has 3 series" $SVG "$TMP/sky.svg" 3 "fitted skyline"
t "skyline png" 0 '' '' '' skyplot -q skyline "$D/usage.csv" --fit "$D/fit.csv" -o "$TMP/sky.png"
tcheck "skyline png valid" /usr/bin/python3 "$ROOT/tests/check/png_ok.py" "$TMP/sky.png"
# plan: 3 jobs stacked + cost + capacity = 5; --top 1 folds b and c into "other": 2 + 2
t "plan svg" 0 '' '' '' skyplot -q plan "$D/plan.csv" --load "$D/load.csv" -o "$TMP/plan.svg"
tcheck "plan has 5 series" $SVG "$TMP/plan.svg" 5 capacity
t "plan top 1" 0 '' '' '' skyplot -q plan "$D/plan.csv" --top 1 -o "$TMP/plan1.svg"
tcheck "plan top 1 has job b and other" $SVG "$TMP/plan1.svg" 2 other
# tenants: two classes
t "tenants svg" 0 '' '' '' skyplot -q tenants "$D/util.csv" --classes "$D/classes.csv" -o "$TMP/ten.svg"
tcheck "tenants has 2 class series" $SVG "$TMP/ten.svg" 2 "class 1"
# vcs: two panels (load, stretch) x two VCs
t "vcs svg" 0 '' '' '' skyplot -q vcs "$D/daily.csv" -o "$TMP/vcs.svg"
tcheck "vcs has 4 series" $SVG "$TMP/vcs.svg" 4 vc2
# memory: used and bound
t "memory svg" 0 "@$D/memory.csv" '' '' skyplot -q memory -o "$TMP/mem.svg"
tcheck "memory has 2 series" $SVG "$TMP/mem.svg" 2 bound_mb
t "lines by group" 0 '' '' '' skyplot -q lines "$D/daily.csv" --x day --y load --by vc -o "$TMP/l.svg"
tcheck "lines has 2 series" $SVG "$TMP/l.svg" 2
t "dumb text chart" 0 '' '*' '' skyplot skyline "$D/usage.csv" --fit "$D/fit.csv" --term dumb
tcheck "dumb chart shows the legend" bash -c 'skyplot skyline "$1" --term dumb | grep -q "run r2"' _ "$D/usage.csv"
t "summary names the output" 0 '' '' 'skyplot: skyline chart, 3 series, svg ->' skyplot skyline "$D/usage.csv" --fit "$D/fit.csv" -o "$TMP/s2.svg"

# a job named like a gnuplot command is only a name
( cd "$TMP" && rm -f PWNED PWNED2 )
t "evil name renders" 0 '' '' '' skyplot -q plan "$D/evil.csv" -o "$TMP/evil.svg"
tcheck "no command ran" bash -c '[ ! -e "$1/PWNED" ] && [ ! -e "$1/PWNED2" ] && [ ! -e PWNED ] && [ ! -e PWNED2 ]' _ "$TMP"
tcheck "evil name shown as text" $SVG "$TMP/evil.svg" 1 "system"
t "evil title sanitized" 0 '' '' '' skyplot -q skyline "$D/usage.csv" --title "x'; system('touch PWNED3') #" -o "$TMP/t.svg"
tcheck "no command from title" bash -c '[ ! -e "$1/PWNED3" ] && [ ! -e PWNED3 ]' _ "$TMP"

# errors
t "unknown chart" 64 '' '' "skyplot: unknown chart 'pie'" skyplot pie
t "no chart" 64 '' '' 'which chart?' skyplot
t "bad term" 64 '' '' "invalid value for --term: 'gif'" skyplot skyline --term gif
t "missing column" 65 $'job,run,t\nj,r,0\n' '' "missing required column 'containers'" skyplot skyline
t "empty plan" 65 $'job,instance,t,containers\n' '' 'the plan has no reservations' skyplot plan
t "tenants needs classes" 64 "@$D/util.csv" '' 'tenants: --classes FILE' skyplot tenants
t "bad number" 65 $'job,run,t,containers\nj,r,0,x\n' '' "<stdin>:2: column 'containers': invalid number 'x'" skyplot skyline
printf 'old\n' > "$TMP/keep.svg"
t "failed render keeps old file" 65 $'job,run,t,containers\n' '' 'no usage rows' skyplot skyline -o "$TMP/keep.svg"
tcheck "old svg intact" grep -qx old "$TMP/keep.svg"
t "absurd value refused" 65 $'job,run,t,containers\nj,r,0,1e300\n' '' "<stdin>:2: column 'containers': number '1e300' out of range" skyplot skyline
t "absurd time refused" 65 $'job,run,t,containers\nj,r,1e300,1\n' '' "<stdin>:2: column 't': time '1e300' out of range" skyplot skyline
t "SKYPLOT_KEEP keeps the script" 0 '' '' "kept the gnuplot script and data in" env SKYPLOT_KEEP=1 TMPDIR="$TMP" skyplot -q skyline "$D/usage.csv" --fit "$D/fit.csv" -o "$TMP/keep.svg"
tcheck "kept script runs in gnuplot alone" bash -c 's=$(ls "$1"/skyplot.*/plot.gp | head -1); gnuplot "$s" | /usr/bin/python3 -c "import sys, xml.etree.ElementTree as E; E.parse(sys.stdin)"' _ "$TMP"

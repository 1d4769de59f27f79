# skyplot: every chart kind renders a valid SVG/PNG with the expected number of
# series (checked by tests/check/svg_series.py with Python's XML parser), text
# charts work, user text cannot reach gnuplot as commands, errors are clean.
D="$ROOT/tests/data/skyplot"
SVG="/usr/bin/python3 $ROOT/tests/check/svg_series.py"

# skyline: 2 runs + the fitted skyline = 3 series
t "skyline svg" 0 '' '' '' skyplot -q skyline "$D/usage.csv" --fit "$D/fit.csv" -o "$TMP/sky.svg"
tcheck "skyline has 3 series" $SVG "$TMP/sky.svg" 3 "fitted skyline"
t "skyline png" 0 '' '' '' skyplot -q skyline "$D/usage.csv" --fit "$D/fit.csv" -o "$TMP/sky.png"
# a fit's offsets are read as lcmpack and skyfit read them (fuzz round 14:
# skyplot read them as times, took -60 and 2026-01-05, said "time ... out of range")
printf 'job,step,offset,alloc\nj1,60,0,2\nj1,60,-60,1\n' > "$TMP/fitneg.csv"
printf 'job,step,offset,alloc\nj1,60,2026-01-05,1\n' > "$TMP/fitiso.csv"
t "skyline --fit: a negative offset" 65 '' '' "skyplot: $TMP/fitneg.csv:3: column 'offset': must not be negative, got '-60'" \
    skyplot -q skyline "$D/usage.csv" --fit "$TMP/fitneg.csv" -o "$TMP/fitneg.svg"
t "skyline --fit: an offset is seconds, not a date" 65 '' '' "skyplot: $TMP/fitiso.csv:2: column 'offset': invalid number '2026-01-05'" \
    skyplot -q skyline "$D/usage.csv" --fit "$TMP/fitiso.csv" -o "$TMP/fitiso.svg"
tcheck "skyline png valid" /usr/bin/python3 "$ROOT/tests/check/png_ok.py" "$TMP/sky.png"
# the extension in capitals is a PNG too (the audit of 2026-12-04: a.PNG held an SVG)
tcheck "skyline -o X.PNG writes a PNG" bash -c 'skyplot -q skyline "$1/usage.csv" --fit "$1/fit.csv" -o "$2" &&
    /usr/bin/python3 "$3/tests/check/png_ok.py" "$2"' _ "$D" "$TMP/sky2.PNG" "$ROOT"
# plan: 3 jobs stacked + cost + capacity = 5; --top 1 folds b and c into "other": 2 + 2
t "plan svg" 0 '' '' '' skyplot -q plan "$D/plan.csv" --load "$D/load.csv" -o "$TMP/plan.svg"
tcheck "plan has 5 series" $SVG "$TMP/plan.svg" 5 capacity
t "plan top 1" 0 '' '' '' skyplot -q plan "$D/plan.csv" --top 1 -o "$TMP/plan1.svg"
tcheck "plan top 1 has job b and other" $SVG "$TMP/plan1.svg" 2 "other (2 more)"
# --by: a band per value of plan columns (kind: periodic, once, adhoc), each
# band's height at each step the sum of its rows there (awk, independently)
tcheck "plan --by kind: a band per kind, its height the kind's containers per step" bash -c '
    printf "job,kind,t,containers\na,periodic,0,3\na,periodic,60,2\nb,once,0,5\nc,periodic,60,4\nd,once,120,1\ne,adhoc,60,7\n" > "$1/pk.csv" &&
    rm -rf "$1"/skyplot.* && SKYPLOT_KEEP=1 TMPDIR="$1" skyplot -q plan "$1/pk.csv" --by kind -o "$1/pk.svg" 2>/dev/null &&
    for f in "$1"/skyplot.*/s*.dat; do
        awk "NR == 1 { gsub(/\"/, \"\", \$1); k = \$1; next } NR % 2 == 0 && \$3 - \$2 > 0 { printf \"%s %d %g\\n\", k, \$1 * 3600 + 0.5, \$3 - \$2 }" "$f"
    done | sort > "$1/pk.got" &&
    awk -F, "NR > 1 { s[\$2 \" \" \$3] += \$4 } END { for (k in s) print k, s[k] }" "$1/pk.csv" | sort > "$1/pk.want" &&
    diff "$1/pk.want" "$1/pk.got" && [ "$(ls "$1"/skyplot.*/s*.dat | wc -l)" = 3 ]' _ "$TMP"
t "plan --by kind,job --top 2" 0 '' '' '' skyplot -q plan "$TMP/pk.csv" --by kind,job --top 2 -o "$TMP/pkj.svg"
tcheck "plan --by kind,job --top 2: the rest named with its count" $SVG "$TMP/pkj.svg" 3 "other (3 more)"
tcheck "plan --by kind,job names a band by both values" $SVG "$TMP/pkj.svg" 3 "kind=adhoc job=e"
t "plan --by: a column the plan lacks: 65" 65 '' '' "missing required column 'team'" skyplot -q plan "$TMP/pk.csv" --by team
t "plan --by: five columns: 64" 64 '' '' "skyplot: --by: at most 4 columns ('job,kind,t,containers,job')" \
    skyplot -q plan "$TMP/pk.csv" --by job,kind,t,containers,job
# a name gnuplot's data cannot hold (skyplot(1), BAD ROWS): a double quote
# drawn as an apostrophe, a control character as a space; a comma stays
printf 'job,t,containers\n"x""y",0,2\n"a,b",60,3\n"c\td",120,1\n' > "$TMP/qname.csv"
t "plan: a double quote in a name drawn as an apostrophe, a tab as a space" 0 '' '' '' \
    skyplot -q plan "$TMP/qname.csv" -o "$TMP/qname.svg"
tcheck "plan: the three names as drawn" bash -c '$1 "$2" 3 "x'"'"'y" && $1 "$2" 3 "a,b" && $1 "$2" 3 "c d"' _ "$SVG" "$TMP/qname.svg"
# (audit, session 31) --top 50 filled 51 bands with the palette's 16
# colours: three or four jobs alike, "other" in job 3's green.  Past 16
# the bands are hatched, "other" is a grey no job has.
tcheck "plan --top 50: no two bands filled alike, other grey" bash -c '
    awk "BEGIN { print \"job,t,containers\"; for (j = 0; j < 60; j++) for (t = 0; t < 3; t++) printf \"job%02d,%d,%d\\n\", j, t * 60, 60 - j }" > "$1/p60.csv" &&
    skyplot -q plan "$1/p60.csv" --top 50 -o "$1/p60.svg" && /usr/bin/python3 "$2" "$1/p60.svg" 51 "other (10 more)" 153,153,153 &&
    skyplot -q plan "$1/p60.csv" --top 3 -o "$1/p3.svg" && /usr/bin/python3 "$2" "$1/p3.svg" 4 "other (57 more)" 153,153,153' _ "$TMP" "$ROOT/tests/check/svg_fills.py"
# Production scale (names were looked up by a scan, groups ranked by an insertion sort, the named runs
# counted against every run, tenants matched to classes by a scan: each quadratic, over a minute here):
# 150,000 jobs in a plan, the five largest by area (from awk) in the legend; 250,000 runs of one job;
# 150,000 tenants in four classes, each class's tenant count in its legend.
tcheck "production scale: plan of 150,000 jobs, top 5 by area in the legend" bash -c '
    awk "BEGIN { print \"job,t,containers\"; for (i = 0; i < 150000; i++) printf \"job%d,%d,%d\\n\", i, (i % 100) * 60, 1 + (i * 7919) % 150001 }" > "$1/big.csv" &&
    timeout 60 skyplot -q plan --top 5 "$1/big.csv" -o "$1/big.svg" &&
    for j in $(awk -F, "NR > 1 { print \$3, \$1 }" "$1/big.csv" | sort -k1,1nr | head -5 | cut -d" " -f2); do grep -q ">$j<" "$1/big.svg" || exit 1; done' _ "$TMP"
tcheck "production scale: 250,000 runs of one job" bash -c '
    awk "BEGIN { print \"job,run,t,containers\"; for (i = 0; i < 250000; i++) printf \"J,r%d,%d,5\\nJ,r%d,%d,6\\n\", i, i * 600, i, i * 600 + 60 }" > "$1/runs.csv" &&
    timeout 60 skyplot -q skyline "$1/runs.csv" -o "$1/runs.svg" && grep -q "of 250000 runs" "$1/runs.svg" && grep -q ">run r249999<" "$1/runs.svg"' _ "$TMP"
tcheck "production scale: 150,000 tenants in 4 classes" bash -c '
    awk "BEGIN { print \"tenant,class\"; for (i = 0; i < 150000; i++) printf \"t%d,c%d\\n\", i, i % 4 }" > "$1/bigc.csv" &&
    awk "BEGIN { print \"tenant,t,util\"; for (i = 0; i < 150000; i++) printf \"t%d,1700000000,0.5\\nt%d,1700000120,0.6\\n\", i, i }" > "$1/bigu.csv" &&
    timeout 60 skyplot -q tenants --classes "$1/bigc.csv" "$1/bigu.csv" -o "$1/bigt.svg" &&
    for c in 0 1 2 3; do grep -q "class c$c (37500 tenants)" "$1/bigt.svg" || exit 1; done' _ "$TMP"
# tenants: two classes, each a band and its median line (2 gnuplot plots)
t "tenants svg" 0 '' '' '' skyplot -q tenants "$D/util.csv" --classes "$D/classes.csv" -o "$TMP/ten.svg"
tcheck "tenants has 2 classes, band + median each" $SVG "$TMP/ten.svg" 4 "class 1 (2 tenants)"
# --classes is a keyed side table (base/keytab): a tenant twice is an error, not a silent re-class
t "tenants: a tenant twice in --classes: 65" 65 '' '' "skyplot: $TMP/dupc.csv:4: duplicate tenant 't1' (first at line 2)" \
    bash -c 'printf "tenant,class\nt1,1\nt2,1\nt1,2\n" > "$1/dupc.csv"; skyplot -q tenants "$2" --classes "$1/dupc.csv" -o "$1/dupc.svg"' _ "$TMP" "$D/util.csv"
# a skyline of one 300 s step is drawn 5 minutes wide (its step column), not 1
tcheck "fitted skyline: last step as wide as its step" bash -c '
    printf "job,run,t,containers\nj,r1,0,2\nj,r1,60,2\nj,r1,120,2\nj,r1,180,2\nj,r1,240,2\n" > "$1/u5.csv"
    printf "job,step,offset,alloc\nj,300,0,2\n" > "$1/f5.csv"
    k=$(SKYPLOT_KEEP=1 skyplot -q skyline "$1/u5.csv" --fit "$1/f5.csv" -o "$1/f5.svg" 2>&1 | sed -n "s/.*data in //p")
    last=$(tail -1 "$k"/s1.dat); rm -rf "$k"; [ "${last%% *}" = 5 ]' _ "$TMP"
# runs of one sample each (a daily job sampled once a run): their band and
# median were drawn 1 minute wide (no gap between samples to measure) under
# a skyline of 5-minute steps; now as wide as the fit's step, and 1 minute
# (skyfit's default step) only without --fit
tcheck "skyline: runs of one sample each: band and median as wide as the fit's step" bash -c '
    printf "job,run,t,containers\nj,r1,0,10\nj,r2,86400,12\nj,r3,172800,11\n" > "$1/osr.csv"
    printf "job,step,offset,alloc\nj,300,0,12\n" > "$1/osr-fit.csv"
    k=$(SKYPLOT_KEEP=1 skyplot -q skyline "$1/osr.csv" --fit "$1/osr-fit.csv" --runs 1 -o "$1/osr.svg" 2>&1 | sed -n "s/.*data in //p")
    got=$(tail -n +2 "$k"/s0.dat | tr "\n" "|")-$(tail -n +2 "$k"/s1.dat | tr "\n" "|"); rm -rf "$k"
    [ "$got" = "0 10.2 11.8|5 10.2 11.8|-0 0 11|5 0 11|" ] || { echo "$got"; exit 1; }
    k=$(SKYPLOT_KEEP=1 skyplot -q skyline "$1/osr.csv" --runs 1 -o "$1/osr.svg" 2>&1 | sed -n "s/.*data in //p")
    got=$(tail -1 "$k"/s0.dat); rm -rf "$k"; [ "$got" = "1 10.2 11.8" ] || { echo "no fit: $got"; exit 1; }' _ "$TMP"
# TMPDIR as an operator's may be (the session-35 environment audit): a
# quote in it ended the gnuplot script's quoted data file names (exit 70,
# "Cannot find or open file"), one over 1,000 bytes was cut short in a fixed
# buffer (exit 73, "Invalid argument"), and a missing one was not named.
# gnuplot runs in the work directory now, the script naming its files there.
tcheck "TMPDIR with a quote: the same chart" bash -c '
    mkdir -p "$1/q'"'"'d" && skyplot -q vcs "$2" --term dumb > "$1/plain.txt" &&
    TMPDIR="$1/q'"'"'d" skyplot -q vcs "$2" --term dumb > "$1/quoted.txt" && cmp "$1/plain.txt" "$1/quoted.txt" &&
    [ -z "$(ls -A "$1/q'"'"'d")" ]' _ "$TMP" "$D/daily.csv"
tcheck "TMPDIR of 3,000 bytes: the same chart" bash -c '
    long=$1$(printf "/%0250d" $(seq 12)) && mkdir -p "$long" &&
    TMPDIR="$long" skyplot -q vcs "$2" --term dumb > "$1/long.txt" && cmp "$1/plain.txt" "$1/long.txt"' _ "$TMP" "$D/daily.csv"
t "TMPDIR missing: named" 73 '' '' "skyplot: $TMP/no/such/dir: cannot make a temporary directory in it (TMPDIR): No such file or directory" \
    env TMPDIR="$TMP/no/such/dir" skyplot -q vcs "$D/daily.csv" --term dumb
t "TMPDIR longer than a work directory's path may be" 73 '' '' "skyplot: TMPDIR is 4100 bytes long, too long for a work directory in it (at most 4008)" \
    env TMPDIR="/$(printf '%04099d' 0)" skyplot -q vcs "$D/daily.csv" --term dumb
# vcs: two panels (load, stretch) x two VCs
t "vcs svg" 0 '' '' '' skyplot -q vcs "$D/daily.csv" -o "$TMP/vcs.svg"
tcheck "vcs has 4 series" $SVG "$TMP/vcs.svg" 4 vc2
# memory: used and bound
t "memory svg" 0 "@$D/memory.csv" '' '' skyplot -q memory -o "$TMP/mem.svg"
tcheck "memory has 2 series" $SVG "$TMP/mem.svg" 2 bound_mb
# peakgate's own files, drawn with no options (both stopped at their policy
# column: "invalid number 'unpaced'", exit 65): a series per peakgate key
# the file has (policy, k; task) and *_mb column; paused and state are no y
peakgate -q --simulate --model --k 1,2 --duration 10m --series "$TMP/pg-ser.csv" --node-series "$TMP/pg-ns.csv" > /dev/null
mkdir -p "$TMP/pgk"
t "memory: peakgate --node-series, no options" 0 '' '' '*' env SKYPLOT_KEEP=1 TMPDIR="$TMP/pgk" skyplot -q memory "$TMP/pg-ns.csv" -o "$TMP/pg-ns.svg"
# (audit, session 31) node_mb, the node's size, is the same line in every
# run: it was keyed once per policy and k, 3 identical lines; now once
tcheck "memory --node-series: 3 runs x used_mb, bound_mb, and one node_mb" $SVG "$TMP/pg-ns.svg" 7 ">node_mb<"
tcheck "memory --node-series: node_mb not keyed per run" bash -c '! grep -q "k=[0-9] node_mb" "$1"' _ "$TMP/pg-ns.svg"
# ... but a column that differs between runs keeps a line per run
t "memory: a column differing by run is not folded" 0 $'t,k,used_mb,node_mb\n0,1,5,9\n1,1,6,9\n0,2,7,8\n1,2,8,8\n' '' '' \
    skyplot -q memory -o "$TMP/nofold.svg"
tcheck "memory: a column differing by run: 4 series" $SVG "$TMP/nofold.svg" 4 ">2 node_mb<"
# (audit, session 31) the memory chart's y axis ran from 2500 to 7000 MB
# untitled (unpaced 6400 MB looked 4 times gated 3800 MB), its x title was
# a bare "t": now from 0, "memory (MB)", "t (s)"
tcheck "memory: y from 0, titled memory (MB); x t (s)" bash -c '
    g=$(ls -d "$1"/skyplot.* | head -1)/plot.gp && grep -qx "set yrange \[0:\*\]" "$g" &&
    grep -qx "set ylabel '"'memory (MB)'"'" "$g" && grep -qx "set xlabel '"'t (s)'"'" "$g" &&
    grep -q ">memory (MB)<" "$2" && grep -q ">t (s)<" "$2"' _ "$TMP/pgk" "$TMP/pg-ns.svg"
# a y axis from 0 goes lower for a negative value, and the next panel of
# the chart is autoscaled again
tcheck "memory: y from 0 or the lowest value" bash -c '
    printf "t,a_mb\n0,-5\n1,3\n" | SKYPLOT_KEEP=1 TMPDIR="$1" skyplot -q memory -o "$1/neg.svg" 2>&1 | sed -n "s/.*data in //p" > "$1/negdir" &&
    grep -qx "set yrange \[-5:\*\]" "$(cat "$1/negdir")/plot.gp" && rm -rf "$(cat "$1/negdir")"' _ "$TMP"
tcheck "memory --node-series: a run's used_mb line is its rows" bash -c '
    f=$(grep -l "^\"policy=gated k=2 used_mb\"" "$(ls -d "$1"/skyplot.* | head -1)"/s*.dat) &&
    diff <(tail -n +2 "$f" | awk "{ print \$1 \",\" \$3 }") \
         <(awk -F, "\$1 == \"gated\" && \$2 == 2 { printf \"%.10g,%.10g\\n\", \$3, \$4 }" "$2")' _ "$TMP/pgk" "$TMP/pg-ns.csv"
tcheck "memory: peakgate --series, a line per run and task" bash -c '
    n=$(awk -F, "NR > 1 { t[\$4] = 1 } END { print length(t) }" "$1") && [ "$n" -ge 2 ] &&
    skyplot -q memory "$1" -o "$2" && /usr/bin/python3 "$3" "$2" $((3 * n)) "policy=gated k=1 task=task0001"' \
    _ "$TMP/pg-ser.csv" "$TMP/pg-ser.svg" "$ROOT/tests/check/svg_series.py"
# a word in a y column names the way out
t "lines: a word in a y column hints at --y and --by" 65 '' '' \
    "skyplot: $TMP/pg-ns.csv:2: column 'policy': invalid number 'unpaced' (a y column must hold numbers: choose the y columns with --y, or draw a series per value of this one with --by)" \
    skyplot -q lines "$TMP/pg-ns.csv" -o "$TMP/pg-l.svg"
t "lines by group" 0 '' '' '' skyplot -q lines "$D/daily.csv" --x day --y load --by vc -o "$TMP/l.svg"
tcheck "lines has 2 series" $SVG "$TMP/l.svg" 2
# (audit, session 31) one y column: the y axis is titled by it (was '')
tcheck "lines: one y column titles the y axis" grep -q ">load<" "$TMP/l.svg"
tcheck "vcs: y titles as words" bash -c 'grep -q ">load<" "$1" && grep -q ">mean stretch<" "$1"' _ "$TMP/vcs.svg"
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
# a chart's own option given to another chart would be ignored: refused
t "--top on the skyline chart: 64" 64 '' '' "skyplot: --top does not apply to the skyline chart (it is for plan)" \
    skyplot skyline "$D/usage.csv" --top 3
t "--fit on the plan chart: 64" 64 '' '' "skyplot: --fit does not apply to the plan chart (it is for skyline)" \
    skyplot plan "$D/plan.csv" --fit "$D/fit.csv"
t "--classes on the lines chart: 64" 64 '' '' "skyplot: --classes does not apply to the lines chart (it is for tenants)" \
    skyplot lines "$D/daily.csv" --classes "$D/classes.csv"
t "--by on the tenants chart: 64" 64 '' '' "skyplot: --by does not apply to the tenants chart (it is for lines, memory, vcs, plan)" \
    skyplot tenants "$D/util.csv" --classes "$D/classes.csv" --by tenant
t "--runs 0 on the plan chart: 64 (given, even at a default-like value)" 64 '' '' "skyplot: --runs does not apply to the plan chart" \
    skyplot plan "$D/plan.csv" --runs 0
t "--panels on the vcs chart (always panels): accepted" 0 '' '' '' skyplot -q vcs "$D/daily.csv" --panels -o "$TMP/vcsp.svg"
t "missing column" 65 $'job,run,t\nj,r,0\n' '' "missing required column 'containers'" skyplot skyline
t "empty plan" 65 $'job,instance,t,containers\n' '' 'the plan has no reservations' skyplot plan
# a chart with no point says why (fuzz round 14: it said only "nothing to plot")
printf 't,used_mb\n' > "$TMP/mem0.csv"
printf 't,used_mb\n1,\n2,\n' > "$TMP/mem2.csv"
t "memory: a header alone" 65 '' '' "skyplot: $TMP/mem0.csv: nothing to plot (no data row read)" skyplot -q memory "$TMP/mem0.csv" -o "$TMP/mem0.svg"
t "memory: rows with no value" 65 '' '' "skyplot: $TMP/mem2.csv: nothing to plot (2 rows, none with a value to draw)" skyplot -q memory "$TMP/mem2.csv" -o "$TMP/mem2.svg"
# (audit, session 20) past the palette's 16 colours the classes' lines
# repeated them: 21 classes drew five pairs alike.  18 classes, one tenant
# each: 18 legend entries, no two with the same colour and dash pattern in
# a panel (session 33: 3 panels of 6; 65 classes in one panel below)
tcheck "tenants: 18 classes, no two legend entries of a panel alike" bash -c '
    awk "BEGIN { print \"tenant,t,util\"; for (i = 0; i < 18; i++) for (t = 0; t < 20; t++) print \"t\" i \",\" 60 * t \",\" (i + 1) / 40 }" > "$1/u18.csv" &&
    awk "BEGIN { print \"tenant,class\"; for (i = 0; i < 18; i++) print \"t\" i \",c\" i }" > "$1/c18.csv" &&
    skyplot -q tenants "$1/u18.csv" --classes "$1/c18.csv" -o "$1/t18.svg" && python3 "$2" "$1/t18.svg" 18 --per-panel' _ "$TMP" \
    "$ROOT/tests/check/svg_legend.py"
# (audit) the real PlanetLab trace in tenantclass's 25 classes: their key
# beside the plot left it a third of the chart, and the 8 date labels of
# "set xtics 10800" ran into each other.  A key that wide goes below the
# plot, and the tics follow the plot area gnuplot lays out (checked on
# gnuplot's own layout: tests/check/xaxis_check.py), in PNG and SVG, wide
# and narrow; the classes are keyed in their names' natural order
# (constant-1 .. constant-5, periodic-1, .. unpredictable-18), not in the
# order the tenants first name them (unpredictable-12 first).
mkdir -p "$TMP/plk"
sh "$ROOT/examples/planetlab-to-tenantclass.sh" "$DATA/planetlab/20110303.csv" "$TMP/plc" > /dev/null 2>&1
awk -F, -v OFS=, 'NR > 1 { $2 += 1299110400 } 1' "$DATA/planetlab/20110303.csv" > "$TMP/pl-epoch.csv"
for c in "png 1100" "svg 1100" "png 700" "svg 1600"; do
    read -r term w <<< "$c"
    tcheck "tenants, PlanetLab's 25 classes, $term $w px: date labels fit the plot" bash -c '
        rm -rf "$1"/skyplot.* && SKYPLOT_KEEP=1 TMPDIR="$1" skyplot -q tenants "$2" --col tenant=vm --col util=cpu \
            --classes "$3" --width "$5" -o "$1/pl.$4" 2>/dev/null && /usr/bin/python3 "$6" "$1"/skyplot.*' \
        _ "$TMP/plk" "$TMP/pl-epoch.csv" "$TMP/plc/planetlab-tenants.csv" "$term" "$w" "$ROOT/tests/check/xaxis_check.py"
done
# (audit, session 31) the real PlanetLab day has t = 0 .. 86100 s, offsets:
# its axis read 1970-01-01 00:00 ... (every tenants axis was a date axis).
# Offsets are hours since time 0, as the plan chart's; epoch times stay dates.
tcheck "tenants, PlanetLab's offsets: hours since time 0, no 1970 dates" bash -c '
    skyplot -q tenants "$1" --col tenant=vm --col util=cpu --classes "$2" -o "$3/plo.svg" &&
    ! grep -q "1970-01" "$3/plo.svg" && grep -q ">hours since time 0<" "$3/plo.svg" &&
    skyplot -q tenants "$1" --col tenant=vm --col util=cpu --classes "$2" --term dumb > "$3/plo.txt" &&
    ! grep -q "01 00:00" "$3/plo.txt" && grep -Eq "^ +0 +5 +10 +15 +20 *$" "$3/plo.txt"' \
    _ "$DATA/planetlab/20110303.csv" "$TMP/plc/planetlab-tenants.csv" "$TMP"
tcheck "tenants: offsets drawn in hours" bash -c '
    printf "tenant,t,util\na,0,1\na,3600,2\na,7200,3\n" > "$1/off-u.csv" && printf "tenant,class\na,c\n" > "$1/off-c.csv" &&
    k=$(SKYPLOT_KEEP=1 TMPDIR="$1" skyplot -q tenants "$1/off-u.csv" --classes "$1/off-c.csv" -o "$1/off.svg" 2>&1 | sed -n "s/.*data in //p") &&
    got=$(tail -n +2 "$k/s0.dat" | cut -d" " -f1 | tr "\n" " "); grep -q "^set xdata$" "$k/plot.gp"; nodates=$?; rm -rf "$k"
    [ "$got" = "0 1 2 " ] && [ $nodates = 0 ] || { echo "x: $got"; exit 1; }' _ "$TMP"
tcheck "tenants, PlanetLab: classes keyed in natural order" bash -c '
    [ "$(cut -d, -f3 "$2" | tail -n +2 | sort -u | wc -l)" = 25 ] &&
    for f in $(ls "$1"/skyplot.*/s*.dat | sort -V); do head -1 "$f" | sed "s/^\"class \([^ ]*\) .*/\1/"; done > "$1/order.txt" &&
    sort -V "$1/order.txt" | cmp - "$1/order.txt" && [ "$(head -1 "$1/order.txt")" = constant-1 ] && [ "$(wc -l < "$1/order.txt")" = 25 ]' \
    _ "$TMP/plk" "$TMP/plc/planetlab-tenants.csv"
tcheck "tenants: the key's order does not follow the --classes file's" bash -c '
    printf "tenant,t,util\na,0,1\na,60,1\nb,0,2\nb,60,2\nc,0,3\nc,60,3\n" > "$1/o-u.csv" &&
    printf "tenant,class\na,c10\nb,c2\nc,c1\n" > "$1/o-c1.csv" && printf "tenant,class\nc,c1\nb,c2\na,c10\n" > "$1/o-c2.csv" &&
    skyplot -q tenants "$1/o-u.csv" --classes "$1/o-c1.csv" -o "$1/o1.svg" && skyplot -q tenants "$1/o-u.csv" --classes "$1/o-c2.csv" -o "$1/o2.svg" &&
    cmp "$1/o1.svg" "$1/o2.svg" && [ "$(grep -o "<title>class c[0-9]*" "$1/o1.svg" | tr "\n" " ")" = "<title>class c1 <title>class c2 <title>class c10 " ]' _ "$TMP"
# (audit) gnuplot widened the x range to the tics around the data: a year
# from 2023-01-01 was drawn from 2022-10-27, peakgate's 600 steps to 700.
# The x range is the data's, on a date axis and a number axis.
awk 'BEGIN { print "t,y,k"; for (s = 0; s < 3; s++) for (d = 0; d < 365; d++) printf "%d,%d,s%d\n", 1672531200 + d * 86400, (d * 7) % 13 + s, s }' > "$TMP/year.csv"
tcheck "a year of days: the x axis is the data's range" bash -c '
    rm -rf "$1"/skyplot.* && SKYPLOT_KEEP=1 TMPDIR="$1" skyplot -q lines "$2" --y y --by k -o "$1/year.png" 2>/dev/null &&
    /usr/bin/python3 "$3" "$1"/skyplot.* 1672531200 1703980800' _ "$TMP/plk" "$TMP/year.csv" "$ROOT/tests/check/xaxis_check.py"
# (and its number tics, spaced for the plot's width, checked on gnuplot's layout)
tcheck "peakgate's steps 0..599: the x axis is the data's range" bash -c '
    rm -rf "$1"/skyplot.* && SKYPLOT_KEEP=1 TMPDIR="$1" skyplot -q memory "$2" -o "$1/ns.svg" 2>/dev/null &&
    /usr/bin/python3 "$3" "$1"/skyplot.* 0 599' _ "$TMP/plk" "$TMP/pg-ns.csv" "$ROOT/tests/check/xaxis_check.py"
# (session 32) 26 classes of tenantclass in one panel were a blob of 26
# overlapping bands.  Past 8 classes of 2 to 6 patterns (the class name up
# to a final -N), one panel per pattern, in the classes' order; the panels'
# plot areas line up (the same x for each "time (UTC)" label, the same
# right frame column on a text terminal), whatever the width of their keys.
# (session 33) PlanetLab's 18 unpredictable classes were still 18
# overlapping bands in one panel: a panel holds at most 8 classes, a
# pattern of more is cut in order into panels of sizes differing by at most
# one (18: 6, 6, 6), titled "... classes 1-6 (median, 10-90%)", unless that
# makes more than 8 panels in all.
tcheck "tenants, PlanetLab's 25 classes: one panel per pattern, 18 cut in 3, lined up" bash -c '
    skyplot -q tenants "$1" --col tenant=vm --col util=cpu --classes "$2" -o "$3/pat.svg" &&
    got=$(grep -o "gnuplot_plot_[0-9]*[a-z]\" ><title>class [a-z]*" "$3/pat.svg" | sed "s/gnuplot_plot_[0-9]*\([a-z]\).*class /\1 /" | uniq | tr "\n" ,) &&
    [ "$got" = "a constant,b periodic,c unpredictable,d unpredictable,e unpredictable," ] || { echo "panels: $got"; exit 1; }
    [ "$(grep -c ">utilization, [a-z]* classes (median, 10-90% of tenants)<" "$3/pat.svg")" = 2 ] &&
    [ "$(grep -o ">utilization, unpredictable classes [0-9-]* (median, 10-90%)<" "$3/pat.svg" | tr "\n" "|")" = \
      ">utilization, unpredictable classes 1-6 (median, 10-90%)<|>utilization, unpredictable classes 7-12 (median, 10-90%)<|>utilization, unpredictable classes 13-18 (median, 10-90%)<|" ] &&
    [ "$(grep -o "gnuplot_plot_[0-9]*e\" ><title>class unpredictable-[0-9]*" "$3/pat.svg" | sed "s/.*-//" | tr "\n" " ")" = "13 14 15 16 17 18 " ] &&
    [ "$(grep -B1 ">time (UTC)<" "$3/pat.svg" | grep -o "translate([0-9.]*," | sort -u | wc -l)" = 1 ] &&
    skyplot -q tenants "$1" --col tenant=vm --col util=cpu --classes "$2" --term dumb > "$3/pat.txt" &&
    [ "$(grep -c "^ *[0-9.]* *+-\{20,\}+ *$" "$3/pat.txt")" = 10 ] &&
    [ "$(grep "^ *[0-9.]* *+-\{20,\}+ *$" "$3/pat.txt" | sed "s/ *$//" | awk "{ print length(\$0) }" | sort -u | wc -l)" = 1 ]' \
    _ "$TMP/pl-epoch.csv" "$TMP/plc/planetlab-tenants.csv" "$TMP"
tcheck "tenants: 8 classes of 3 patterns: one panel" bash -c '
    awk "BEGIN { print \"tenant,class\"; for (i = 0; i < 8; i++) print \"t\" i \",\" substr(\"abc\", i % 3 + 1, 1) \"-\" i }" > "$1/c8.csv" &&
    skyplot -q tenants "$1/u18.csv" --classes "$1/c8.csv" -o "$1/t8.svg" &&
    [ "$(grep -c "<title>class [a-c]-[0-7] " "$1/t8.svg")" = 8 ] && ! grep -q "gnuplot_plot_[0-9]*b\"" "$1/t8.svg" &&
    grep -q ">utilization (per class: median, 10-90% of its tenants)<" "$1/t8.svg"' _ "$TMP"
# (session 33) 18 classes of 18 names (no pattern) were one panel of 18
# bands: now 3 panels of 6 in order, titled "classes 1-6", ...
tcheck "tenants: 18 classes of 18 names: 3 panels of 6" bash -c '
    [ "$(grep -c "<title>class c[0-9]* " "$1/t18.svg")" = 18 ] &&
    [ "$(grep -o "gnuplot_plot_[0-9]*[a-z]\" ><title>class c[0-9]*" "$1/t18.svg" | sed "s/gnuplot_plot_[0-9]*\([a-z]\)\" ><title>class /\1/" | tr "\n" " ")" = \
      "ac0 ac1 ac2 ac3 ac4 ac5 bc6 bc7 bc8 bc9 bc10 bc11 cc12 cc13 cc14 cc15 cc16 cc17 " ] &&
    [ "$(grep -o ">utilization, classes [0-9-]* (median, 10-90%)<" "$1/t18.svg" | tr "\n" "|")" = \
      ">utilization, classes 1-6 (median, 10-90%)<|>utilization, classes 7-12 (median, 10-90%)<|>utilization, classes 13-18 (median, 10-90%)<|" ]' _ "$TMP"
tcheck "tenants: one pattern of 9 classes: panels of 5 and 4; 65 classes: one panel (9 would be too many), none alike" bash -c '
    awk "BEGIN { print \"tenant,class\"; for (i = 0; i < 18; i++) print \"t\" i \",u-\" (i % 9 + 1) }" > "$1/c9u.csv" &&
    skyplot -q tenants "$1/u18.csv" --classes "$1/c9u.csv" -o "$1/t9u.svg" &&
    [ "$(grep -o "gnuplot_plot_[0-9]*[a-z]\" ><title>class u-[0-9]" "$1/t9u.svg" | sed "s/gnuplot_plot_[0-9]*\([a-z]\)\" ><title>class u-/\1/" | tr "\n" " ")" = \
      "a1 a2 a3 a4 a5 b6 b7 b8 b9 " ] &&
    grep -q ">utilization, u classes 6-9 (median, 10-90%)<" "$1/t9u.svg" &&
    awk "BEGIN { print \"tenant,t,util\"; for (i = 0; i < 65; i++) for (t = 0; t < 3; t++) print \"t\" i \",\" 60 * t \",\" i / 100 }" > "$1/u65.csv" &&
    awk "BEGIN { print \"tenant,class\"; for (i = 0; i < 65; i++) print \"t\" i \",c\" i }" > "$1/c65.csv" &&
    skyplot -q tenants "$1/u65.csv" --classes "$1/c65.csv" -o "$1/t65.svg" &&
    [ "$(grep -c "<title>class c[0-9]* " "$1/t65.svg")" = 65 ] && ! grep -q "gnuplot_plot_[0-9]*b\"" "$1/t65.svg" &&
    grep -q ">utilization (per class: median, 10-90% of its tenants)<" "$1/t65.svg" && python3 "$2" "$1/t65.svg" 65' _ "$TMP" \
    "$ROOT/tests/check/svg_legend.py"
tcheck "tenants: 9 classes of 3 patterns: 3 panels" bash -c '
    awk "BEGIN { print \"tenant,class\"; for (i = 0; i < 9; i++) print \"t\" i \",\" substr(\"abc\", i % 3 + 1, 1) \"-\" i }" > "$1/c9.csv" &&
    skyplot -q tenants "$1/u18.csv" --classes "$1/c9.csv" -o "$1/t9.svg" &&
    [ "$(grep -o "gnuplot_plot_[0-9]*[a-z]\" ><title>class [a-c]" "$1/t9.svg" | sed "s/.*\([a-z]\)\" ><title>class \(.\)/\1\2/" | sort -u | tr "\n" " ")" = "aa bb cc " ]' _ "$TMP"
# (session 32) a --classes file that names none of the tenants drew an
# empty chart, exit 0; one that misses some dropped them without a word.
printf "tenant,t,util\na,0,1\na,60,2\nb,0,1\nb,60,1\nc,0,1\n" > "$TMP/nu.csv"
printf "tenant,t,util\na,0,1\na,60,2\n" > "$TMP/nu1.csv"
printf "tenant,class\n" > "$TMP/nc0.csv"; printf "tenant,class\nz,c1\n" > "$TMP/nc1.csv"; printf "tenant,class\nb,c1\n" > "$TMP/nc2.csv"
t "tenants: no tenant in --classes: 65, nothing written" 65 '' '' "skyplot: $TMP/nu.csv: none of its 3 tenants is in $TMP/nc1.csv (the first: 'a'): nothing to draw" \
    skyplot tenants "$TMP/nu.csv" --classes "$TMP/nc1.csv" -o "$TMP/nc1.svg"
tcheck "tenants: no tenant in --classes: no image" test ! -e "$TMP/nc1.svg"
t "tenants: an empty --classes, one tenant, standard input: 65" 65 "@$TMP/nu1.csv" '' "skyplot: <stdin>: its one tenant, 'a', is not in $TMP/nc0.csv: nothing to draw" \
    skyplot tenants --classes "$TMP/nc0.csv" -o "$TMP/nc0.svg"
t "tenants: 2 of 3 tenants not in --classes: a warning naming the first" 0 '' \
    "skyplot: $TMP/nu.csv: warning: 2 of its 3 tenants are not in $TMP/nc2.csv and are not drawn (the first: 'a')" '' \
    bash -c 'skyplot tenants "$1" --classes "$2" -o "$3" 2>&1 >/dev/null | grep -v "tenants chart"' _ "$TMP/nu.csv" "$TMP/nc2.csv" "$TMP/nc2.svg"
tcheck "tenants: 2 of 3 tenants not in --classes: the third drawn, -q quiet" bash -c '
    grep -q "<title>class c1 (1 tenant)" "$1" && [ -z "$(skyplot -q tenants "$2" --classes "$3" -o "$1" 2>&1)" ]' _ "$TMP/nc2.svg" "$TMP/nu.csv" "$TMP/nc2.csv"
t "tenants needs classes" 64 "@$D/util.csv" '' 'tenants: --classes FILE' skyplot tenants
t "bad number" 65 $'job,run,t,containers\nj,r,0,x\n' '' "<stdin>:2: column 'containers': invalid number 'x'" skyplot skyline
printf 'old\n' > "$TMP/keep.svg"
t "failed render keeps old file" 65 $'job,run,t,containers\n' '' 'no usage rows' skyplot skyline -o "$TMP/keep.svg"
tcheck "old svg intact" grep -qx old "$TMP/keep.svg"
t "absurd value refused" 65 $'job,run,t,containers\nj,r,0,1e300\n' '' "<stdin>:2: column 'containers': number '1e300' out of range" skyplot skyline
t "negative containers refused, as skyfit does" 65 $'job,run,t,containers\nj,r,0,2\nj,r,60,-5\n' '' "<stdin>:3: column 'containers': must not be negative, got '-5'" skyplot skyline
t "negative utilization refused" 65 $'tenant,t,util\na,0,0.5\na,60,-0.1\n' '' "<stdin>:3: column 'util': must not be negative, got '-0.1'" skyplot tenants --classes "$D/classes.csv"
t "absurd time refused" 65 $'job,run,t,containers\nj,r,1e300,1\n' '' "<stdin>:2: column 't': time '1e300' out of range" skyplot skyline
t "SKYPLOT_KEEP keeps the script" 0 '' '' "kept the gnuplot script and data in" env SKYPLOT_KEEP=1 TMPDIR="$TMP" skyplot -q skyline "$D/usage.csv" --fit "$D/fit.csv" -o "$TMP/keep.svg"
# A work directory a SIGKILL left in TMPDIR (.skyplot.slokit.XXXXXX, plain
# files) goes with the next run; one a live run holds (its flock), a young
# one and a kept one (SKYPLOT_KEEP) stay.
sk="$TMP/sweep"; mkdir -p "$sk/.skyplot.slokit.Old001" "$sk/.skyplot.slokit.Locked" "$sk/.skyplot.slokit.Young1"
for d in Old001 Locked Young1; do printf 'x\n' > "$sk/.skyplot.slokit.$d/plot.gp"; done
touch -d '-2 min' "$sk/.skyplot.slokit.Old001" "$sk/.skyplot.slokit.Locked"
flock "$sk/.skyplot.slokit.Locked" sleep 30 & skpid=$!
for _ in $(seq 50); do flock -n "$sk/.skyplot.slokit.Locked" true || break; sleep 0.1; done
t "a killed run's work directory is removed" 0 '' '' "skyplot: removed $sk/.skyplot.slokit.Old001, the temporary of a run that was killed before it finished" \
    env TMPDIR="$sk" skyplot skyline "$D/usage.csv" -o "$sk/c.svg"
tcheck "live, young and kept directories stay" bash -c '[ "$(cd "$1" && ls -A | LC_ALL=C sort | tr "\n" " ")" = ".skyplot.slokit.Locked .skyplot.slokit.Young1 c.svg " ] &&
    [ "$(ls -d "$2"/skyplot.kept.* | wc -l)" -ge 1 ]' _ "$sk" "$TMP"
kill "$skpid" 2>/dev/null; wait "$skpid" 2>/dev/null
tcheck "kept script runs in gnuplot alone, in its directory" bash -c 's=$(ls "$1"/skyplot.*/plot.gp | head -1); cd "${s%/plot.gp}" && gnuplot plot.gp | /usr/bin/python3 -c "import sys, xml.etree.ElementTree as E; E.parse(sys.stdin)"' _ "$TMP"

# ---- production scale ----
# 9 runs (tests/data/skyplot/manyruns.csv) with --runs 3: the 10-90% band and
# the median of all runs plus the 3 latest runs by name = 5 series; the band
# and median values against numpy (tests/check/runband_check.py).
mkdir -p "$TMP/rb"
t "skyline many runs: band, median, 3 named" 0 '' '' '*' env SKYPLOT_KEEP=1 TMPDIR="$TMP/rb" \
    skyplot -q skyline "$D/manyruns.csv" --runs 3 -o "$TMP/many.svg"
tcheck "skyline many runs has 5 series" $SVG "$TMP/many.svg" 5 "10-90% of 9 runs"
tcheck "skyline many runs names the latest" $SVG "$TMP/many.svg" 5 "run r8"
tcheck "skyline band and median match numpy" bash -c '/usr/bin/python3 "$1" "$2" "$(ls -d "$3"/skyplot.* | head -1)"' \
    _ "$ROOT/tests/check/runband_check.py" "$D/manyruns.csv" "$TMP/rb"
t "skyline few runs: each by name, no band" 0 '' '' '' skyplot -q skyline "$D/manyruns.csv" --runs 20 -o "$TMP/few.svg"
tcheck "skyline few runs has 9 series" $SVG "$TMP/few.svg" 9 "run r0"
# legends capped: 20 lines -> 12 named, "(8 more lines not listed)"
tcheck "legend capped at 12 lines" bash -c '
    awk "BEGIN { print \"t,g,y\"; for (g = 0; g < 20; g++) for (t = 0; t < 3; t++) print t \",g\" g \",\" g + t }" |
        skyplot -q lines --by g -o "$1/cap.svg" && grep -q "(8 more lines not listed)" "$1/cap.svg" &&
        [ "$(grep -c "<title>g[0-9]*</title>" "$1/cap.svg")" -le 12 ]' _ "$TMP"
# (audit, session 31) the key named the first 12 lines and drew them first,
# under every other: among 200 VCs the one of the highest load could not
# be found, and the text chart showed no named character.  Now the 12 of
# the largest peak, largest first, drawn last; the rest grey, drawn first.
tcheck "legend capped: the largest peaks named, largest first, drawn over the rest" bash -c '
    awk "BEGIN { print \"t,g,y\"; for (g = 0; g < 20; g++) for (t = 0; t < 3; t++) print t \",g\" g \",\" g + t }" > "$1/cap.csv" &&
    k=$(SKYPLOT_KEEP=1 TMPDIR="$1" skyplot -q lines "$1/cap.csv" --by g -o "$1/cap2.svg" 2>&1 | sed -n "s/.*data in //p") &&
    got=$(sed -n "s/.*<title>\(g[0-9]*\)<\/title>.*/\1/p" "$1/cap2.svg" | tr "\n" " ") &&
    order=$(awk "/notitle/ { u = NR; if (!f) nu++ } /columnheader/ && !f { f = NR } END { print (u < f) \" \" nu }" "$k/plot.gp") &&
    grey=$(grep -c "#c8c8c8.* notitle" "$k/plot.gp"); rm -rf "$k"
    [ "$got" = "g19 g18 g17 g16 g15 g14 g13 g12 g11 g10 g9 g8 " ] && [ "$order" = "1 8" ] && [ "$grey" = 8 ] ||
        { echo "named: $got; untitled before titled, count: $order; grey: $grey"; exit 1; }' _ "$TMP"
tcheck "legend capped, text chart: the 6 largest peaks, each drawn" bash -c '
    skyplot -q lines "$1/cap.csv" --by g --term dumb > "$1/cap.txt" &&
    [ "$(grep -o "g[0-9]* [*#\$%@&]\{7\}" "$1/cap.txt" | cut -d" " -f1 | tr "\n" " ")" = "g19 g18 g17 g16 g15 g14 " ] &&
    grep "^ *[0-9]* |" "$1/cap.txt" | grep -q "[*]"' _ "$TMP"
tcheck "legend capped: equal peaks named in the natural order of their names" bash -c '
    awk "BEGIN { print \"t,g,y\"; for (g = 13; g >= 0; g--) for (t = 0; t < 3; t++) print t \",g\" g \",1\" }" |
        skyplot -q lines --by g -o "$1/tie.svg" &&
    [ "$(sed -n "s/.*<title>\(g[0-9]*\)<\/title>.*/\1/p" "$1/tie.svg" | tr "\n" " ")" = "g0 g1 g2 g3 g4 g5 g6 g7 g8 g9 g10 g11 " ]' _ "$TMP"
# (audit, session 31) --runs 20 named the oldest 12 of the 20 (the key's
# cap took the first): the latest runs by name, as skyline's --runs says.
# The peaks fall run by run here, so a key by peak would name the oldest.
tcheck "skyline --runs 20: the key names the 12 latest runs" bash -c '
    awk "BEGIN { print \"job,run,t,containers\"; for (r = 0; r < 20; r++) for (t = 0; t < 3; t++) printf \"J,r%d,%d,%d\\n\", r, r * 1000 + t * 60, 100 - r }" > "$1/r20.csv" &&
    skyplot -q skyline "$1/r20.csv" --runs 20 -o "$1/r20.svg" &&
    [ "$(sed -n "s/.*<title>run \(r[0-9]*\)<\/title>.*/\1/p" "$1/r20.svg" | tr "\n" " ")" = "r19 r18 r17 r16 r15 r14 r13 r12 r11 r10 r9 r8 " ] &&
    skyplot -q skyline "$1/r20.csv" --runs 20 --term dumb | grep -q "run r19 [*]\{7\}"' _ "$TMP"
# tenants at production scale: 40 tenants of tracegen over 2 days, classed
# by tenantclass, with 4 hours of no data: per class one band (10-90% of its
# tenants) and its median, one colour and one key entry per class, dates on
# the axis, the pen lifted over the hole; every value against numpy
# (tests/check/tenants_band.py).
mkdir -p "$TMP/tb"
tracegen tenants --count 40 --days 2 --seed 7 | awk -F, 'NR == 1 || $2 < 1767600000 || $2 > 1767614400' >"$TMP/tutil.csv"
tenantclass -q "$TMP/tutil.csv" >"$TMP/tclasses.csv"
t "tenants: 40 tenants" 0 '' '' '*' env SKYPLOT_KEEP=1 TMPDIR="$TMP/tb" skyplot -q tenants "$TMP/tutil.csv" --classes "$TMP/tclasses.csv" -o "$TMP/tb.svg"
tcheck "tenants: bands and medians match numpy, one key entry per class" bash -c \
    '/usr/bin/python3 "$1" "$2" "$3" "$(ls -d "$4"/skyplot.* | head -1)"' _ "$ROOT/tests/check/tenants_band.py" "$TMP/tutil.csv" "$TMP/tclasses.csv" "$TMP/tb"
tcheck "tenants: fewer key entries than tenants" bash -c '[ "$(grep -c "title columnheader" "$(ls -d "$1"/skyplot.* | head -1)/plot.gp")" -lt 20 ]' _ "$TMP/tb"
tcheck "tenants: dates on the axis" grep -q "2026-01-05" "$TMP/tb.svg"
# a text terminal puts a long key below the plot: the frame keeps most of
# the 120 columns (beside it, 9+ classes left the plot 26 columns wide)
tcheck "dumb tenants: key below, plot wide" bash -c 'skyplot -q tenants "$1" --classes "$2" --term dumb |
    awk "/^ *[0-9.]* *\+--/ { if (length(\$0) > w) w = length(\$0) } END { exit w < 100 }"' _ "$TMP/tutil.csv" "$TMP/tclasses.csv"
# (audit, session 32) tenants kept every row: 2000 tenants over 30 days
# (43 million rows) took 1.5 GB.  A file is now read twice and binned as
# read (lib/plot/tenantbins); standard input, a pipe, or a tenant whose
# times go back are held as before.  Each way gives the same data files.
tcheck "tenants: a file, standard input, rows by time, shuffled rows and gzip: the same chart data" bash -c '
    cd "$1" && (head -1 "$2"; tail -n +2 "$2" | sort -t, -k2,2n -k1,1) > bytime.csv &&
    (head -1 "$2"; tail -n +2 "$2" | awk "{ print (NR * 7919) % 104729 \"\t\" \$0 }" | sort -n | cut -f2-) > shuf.csv &&
    gzip -c "$2" > tutil.csv.gz &&
    for v in file bytime shuf gz stdin; do
        mkdir -p "k-$v" && case $v in
        file) in=$2 ;; bytime) in=bytime.csv ;; shuf) in=shuf.csv ;; gz) in=tutil.csv.gz ;; stdin) in=- ;; esac &&
        SKYPLOT_KEEP=1 TMPDIR="$1/k-$v" skyplot -q tenants "$in" --classes "$3" -o "$v.svg" < "$2" 2>/dev/null || exit 1
        (cd "k-$v"/skyplot.* && cat s*.dat) > "$v.dat"
    done && [ "$(wc -l < file.dat)" -gt 100 ] && for v in bytime shuf gz stdin; do cmp file.dat "$v.dat" || exit 1; done' \
    _ "$TMP/tb" "$TMP/tutil.csv" "$TMP/tclasses.csv"
# the bin width, from the gaps kept of the first pass (epoch times, as
# tenants_band.py reads them): the two middle gaps
# on each side of span/500 (10, 10 | 1000, 1000: median 505 s), and 24
# tenants of 400 samples 100-500 s apart (over 4096 gaps above span/500,
# pruned as the span grows), against numpy
tcheck "tenants: the median gap when the middle gaps straddle span/500, and many long gaps" bash -c '
    cd "$1" && printf "tenant,t,util\na,1700000000,1\na,1700000010,2\na,1700000020,3\nb,1700000000,4\nb,1700001000,5\nb,1700002000,6\nc,1700050000,7\n" > mid-u.csv &&
    printf "tenant,class\na,x\nb,x\nc,y\n" > mid-c.csv &&
    awk "BEGIN { print \"tenant,t,util\"; for (k = 0; k < 24; k++) { t = 1700000000 + k * 37; for (i = 0; i < 400; i++) { printf \"t%d,%d,%g\n\", k, t, (i * 31 + k) % 17 / 4; t += 100 + (i * 7919 + k * 13) % 401 } } }" > long-u.csv &&
    awk "BEGIN { print \"tenant,class\"; for (k = 0; k < 24; k++) print \"t\" k \",c\" k % 3 }" > long-c.csv &&
    for c in mid long; do
        rm -rf "k-$c" && mkdir "k-$c" && SKYPLOT_KEEP=1 TMPDIR="$1/k-$c" skyplot -q tenants "$c-u.csv" --classes "$c-c.csv" -o "$c.svg" 2>/dev/null &&
        /usr/bin/python3 "$2" "$c-u.csv" "$c-c.csv" "$1/k-$c"/skyplot.* || { echo "$c"; exit 1; }
    done' _ "$TMP/tb" "$ROOT/tests/check/tenants_band.py"
tcheck "tenants --on-error skip: each bad row listed once (the file is read twice)" bash -c '
    awk "NR == 50 { print \"tenant00003,soon,0.5\" } NR == 90 { print \"tenant00004,1767600000,-1\" } 1" "$2" > "$1/bad.csv" &&
    skyplot -q tenants "$1/bad.csv" --classes "$3" --on-error skip --rejects "$1/rej.csv" -o "$1/bad.svg" &&
    [ "$(cut -d, -f2 "$1/rej.csv" | tr "\n" " ")" = "line 50 91 " ]' _ "$TMP/tb" "$TMP/tutil.csv" "$TMP/tclasses.csv"
t "tenants: no rows" 65 'tenant,t,util
' '' 'no utilization rows' skyplot tenants --classes "$D/classes.csv"
# no line across a gap: samples every 1 s, then a 7 s hole -> the data file
# has a blank line between x=3 and x=10 (gnuplot lifts the pen there)
mkdir -p "$TMP/gap"
t "lines: a gap is not drawn" 0 $'t,y\n1,5\n2,6\n3,7\n10,7\n11,8\n' '' '*' env SKYPLOT_KEEP=1 TMPDIR="$TMP/gap" skyplot -q lines -o "$TMP/gap.svg"
tcheck "gap is a blank line in the data" bash -c '[ "$(sed -n 2,7p "$(ls -d "$1"/skyplot.* | head -1)/s0.dat" | tr "\n" "|")" = "1 0 5|2 0 6|3 0 7||10 0 7|11 0 8|" ]' _ "$TMP/gap"
# (audit, session 32) every point went to gnuplot: peakgate's 40 tasks over
# a day (13.8 million rows) made a 184 MB SVG in a minute.  A series of more
# points than the image has columns keeps per column its first, lowest,
# highest and last point (tests/check/lines_thin.py recomputes them, and
# checks each column's extremes against the raw rows); fewer: every point.
awk 'BEGIN { print "t,g,y"; for (g = 0; g < 3; g++) for (i = 0; i < 20000; i++) if (g != 1 || i < 9000 || i >= 9500)
    printf "%d,s%d,%g\n", i, g, (i * 7919 % 1000) / 10 + g * 50 + (i % 5000 == 17 ? 400 : 0) }' > "$TMP/thin.csv"
mkdir -p "$TMP/thin"
t "lines: 3 series of 20,000 points, 200 columns" 0 '' '' '*' env SKYPLOT_KEEP=1 TMPDIR="$TMP/thin" \
    skyplot -q lines "$TMP/thin.csv" --y y --by g --width 200 -o "$TMP/thin.svg"
tcheck "lines: at most 4 rows per column in each data file" bash -c '
    for f in "$1"/skyplot.*/s*.dat; do [ "$(grep -c . "$f")" -le $((4 * 200 + 1)) ] || { echo "$f: $(wc -l < "$f") rows"; exit 1; }; done' _ "$TMP/thin"
tcheck "lines: thinned rows are each column's first, lowest, highest and last (against Python)" \
    /usr/bin/python3 "$ROOT/tests/check/lines_thin.py" "$TMP/thin.csv" "$(ls -d "$TMP/thin"/skyplot.* | head -1)" t y g 200
mkdir -p "$TMP/thinm"
tcheck "memory: peakgate's 600 s on 100 columns, thinned per run (against Python)" bash -c '
    SKYPLOT_KEEP=1 TMPDIR="$1" skyplot -q memory "$2" --y used_mb --width 100 -o "$1/m.svg" 2>/dev/null &&
    /usr/bin/python3 "$3" "$2" "$(ls -d "$1"/skyplot.* | head -1)" t used_mb policy,k 100' _ "$TMP/thinm" "$TMP/pg-ns.csv" "$ROOT/tests/check/lines_thin.py"
# (session 33) a file is read twice and each series thinned as its points
# come (plot/linebins), where every point was held (24 bytes each) and
# sorted: 3 series interleaved by time, steps of 0 (points of one x), 1, 2
# and 3 s and a 500 s gap every 1000 rows; standard input and a file whose
# x goes back within a series are held and thinned by the same code.
awk 'BEGIN { print "t,g,y"; x = 0; for (i = 0; i < 30000; i++) { x += (i % 1000 == 999 ? 500 : (i * 7) % 4)
    for (g = 0; g < 3; g++) printf "%d,s%d,%d\n", x + g, g, (i * 7919 + g * 31) % 100 } }' > "$TMP/inter.csv"
mkdir -p "$TMP/inter" "$TMP/inter-in" "$TMP/inter-back"
tcheck "lines: a file read twice, thinned as read (against Python)" bash -c '
    SKYPLOT_KEEP=1 TMPDIR="$1" skyplot -q lines "$2" --y y --by g --width 300 -o "$1/i.svg" 2>/dev/null &&
    /usr/bin/python3 "$3" "$2" "$(ls -d "$1"/skyplot.* | head -1)" t y g 300' _ "$TMP/inter" "$TMP/inter.csv" "$ROOT/tests/check/lines_thin.py"
tcheck "lines: standard input (held) draws the same points as the file" bash -c '
    SKYPLOT_KEEP=1 TMPDIR="$1" skyplot -q lines --y y --by g --width 300 -o "$1/i.svg" < "$2" 2>/dev/null &&
    a=$(ls -d "$1"/skyplot.* | head -1) && b=$(ls -d "$3"/skyplot.* | head -1) &&
    for f in "$b"/s*.dat; do cmp "$f" "$a/$(basename "$f")" || exit 1; done && [ -f "$b/s2.dat" ]' _ "$TMP/inter-in" "$TMP/inter.csv" "$TMP/inter"
tcheck "lines: a file whose x goes back within a series (held, against Python)" bash -c '
    { head -1 "$2"; tail -n +2 "$2" | sort -t, -k3,3n -k1,1n; } > "$1/back.csv" &&
    SKYPLOT_KEEP=1 TMPDIR="$1" skyplot -q lines "$1/back.csv" --y y --by g --width 300 -o "$1/b.svg" 2>/dev/null &&
    /usr/bin/python3 "$3" "$1/back.csv" "$(ls -d "$1"/skyplot.* | head -1)" t y g 300' _ "$TMP/inter-back" "$TMP/inter.csv" "$ROOT/tests/check/lines_thin.py"
tcheck "lines --on-error skip: each bad row listed once (the first pass is quiet)" bash -c '
    printf "t,g,y\n1,a,5\n2,a,x\n3,b,7\n4,a,8\n5,b,nan\n6,b,9\n" > "$1" &&
    skyplot lines "$1" --by g --y y --on-error skip -o "$1.svg" 2> "$1.err" && cat "$1.err" &&
    [ "$(grep -c "skipped: column" "$1.err")" = 2 ] &&
    grep -qx "skyplot: $1:3: warning: skipped: column '"'y'"': invalid number '"'x'"'" "$1.err" &&
    grep -qx "skyplot: $1:6: warning: skipped: column '"'y'"': invalid number '"'nan'"'" "$1.err"' _ "$TMP/skip.csv"
tcheck "text chart: thinned to its 80 characters, a series drawn the same" bash -c '
    skyplot -q lines "$1" --y y --by g --term dumb --width 80 > "$2/thin80.txt" && [ "$(grep -c "s[0-9]" "$2/thin80.txt")" -ge 3 ]' _ "$TMP/thin.csv" "$TMP"
# --by on two columns: one series per (k, task), named k=1 task=a
t "lines --by two columns" 0 $'t,k,task,used\n1,1,a,5\n2,1,a,6\n1,2,a,3\n2,2,a,4\n1,2,b,1\n2,2,b,1\n' '' '' \
    skyplot -q lines --by k,task --y used -o "$TMP/by2.svg"
tcheck "lines --by two columns: 3 series" $SVG "$TMP/by2.svg" 3 "k=2 task=b"
t "lines --by five columns refused: 64, a usage error as for plan" 64 $'t,a,b,c,d,e,y\n1,1,1,1,1,1,1\n' '' '--by: at most 4 columns' skyplot lines --by a,b,c,d,e
# a text terminal gives every job of a plan its own character
tcheck "dumb plan: each job its own character" bash -c '
    skyplot -q plan "$1/plan.csv" --term dumb --width 90 --height 20 |
        awk "NR > 3 && /\\|/ { line = substr(\$0, index(\$0, \"|\") + 1, 55); for (i = 1; i <= length(line); i++) { c = substr(line, i, 1); if (c ~ /[*#\$%@&=]/) seen[c] = 1 } }
             END { n = 0; for (c in seen) n++; exit n < 3 }"' _ "$D"
# A text terminal: every series of a panel its own character in the key, for
# every chart kind, on skyplot(1)'s EXAMPLES.  gnuplot's dumb terminal has
# seven line characters ("*#$%@&=", lt 8 is '*' again): the skyline's 8th
# series (the fitted skyline after the band, the median and 5 runs) and
# tenants' 16 classes were drawn with repeated ones.  Checked by
# tests/check/dumb_key.py (the key rows parsed, one count per panel).
KEY="/usr/bin/python3 $ROOT/tests/check/dumb_key.py"
mkdir -p "$TMP/dk"
tracegen usage --count 2 --days 14 > "$TMP/dk/u.csv" 2>/dev/null
skyfit -q "$TMP/dk/u.csv" > "$TMP/dk/s.csv"
tracegen runs --count 40 --days 14 2>/dev/null | sloinfer -q > "$TMP/dk/slo.csv"
tracegen usage --count 40 --days 14 2>/dev/null | skyfit -q > "$TMP/dk/sky40.csv"
lcmpack -q --slo "$TMP/dk/slo.csv" --capacity cores=2000,mem=8192000 --load "$TMP/dk/load.csv" \
    "$TMP/dk/sky40.csv" > "$TMP/dk/plan.csv"
tracegen vcs > "$TMP/dk/vcs.csv" 2>/dev/null
tracegen vcjobs > "$TMP/dk/jobs.csv" 2>/dev/null
stretch -q --system-servers 1250 "$TMP/dk/vcs.csv" "$TMP/dk/jobs.csv" --daily "$TMP/dk/daily.csv" > /dev/null
tracegen tenants --count 60 --days 7 > "$TMP/dk/util.csv" 2>/dev/null
tenantclass -q "$TMP/dk/util.csv" > "$TMP/dk/tenants.csv"
peakgate -q --simulate --model --k 1,2 --node-series "$TMP/dk/mem.csv" > /dev/null
while read -r kind counts args; do
    tcheck "dumb $kind: each key entry its own character ($counts)" bash -c '
        cd "$1" && skyplot -q $3 --term dumb > "$2.txt" && $4 "$5" < "$2.txt"' _ "$TMP/dk" "$kind" "$args" "$KEY" "$counts"
done <<'KINDS'
skyline 8 skyline u.csv --fit s.csv --job job00001
plan 7,2 plan plan.csv --load load.csv
vcs 6,6 vcs daily.csv
tenants 6,4,6 tenants util.csv --classes tenants.csv
memory 6 memory mem.csv --y used_mb,bound_mb --by policy,k
KINDS
# (review, 2026-12-04) gnuplot's dumb terminal writes a y title across,
# left of the tic labels, and drops one that does not fit there: vcs's
# "mean stretch" (12 characters beside "3.5" in the 12-column margin),
# memory's "memory (MB)", tenants' "utilization, constant classes (...)".
# Each now stands alone in the row above its panel's frame, from column 1:
# vcs 2 panels (load, mean stretch), tenants 3 (one per pattern: constant,
# periodic, unpredictable), memory 1.
tcheck "dumb: every panel's y title is shown, above its frame" bash -c '
    cd "$1" && skyplot -q vcs daily.csv --term dumb > yt-v.txt && skyplot -q tenants util.csv --classes tenants.csv --term dumb > yt-t.txt &&
    skyplot -q memory mem.csv --y used_mb,bound_mb --by policy,k --term dumb > yt-m.txt &&
    [ "$(grep -A1 -E "^(load|mean stretch) *$" yt-v.txt | grep -c "^ *[0-9.]* *+-\{20,\}+")" = 2 ] &&
    [ "$(grep -c -E "^utilization, (constant|periodic|unpredictable) classes \(median, 10-90% of tenants\) *$" yt-t.txt)" = 3 ] &&
    [ "$(grep -A1 "^memory (MB) *$" yt-m.txt | grep -c "^ *[0-9.]* *+-\{20,\}+")" = 1 ]' _ "$TMP/dk"
# (session 32) stacked panels ended where their own keys began: the plan's
# cost panel (a key of 2) was wider than its reservations above (a key of
# 8 jobs), so the same hour stood in two places.  Every panel's plot area
# now starts and ends in the same column (the x title at its middle).
tcheck "plan: its two panels line up (svg and text)" bash -c '
    cd "$1" && sed "s/job000/a-longer-job-name-/" sky40.csv > al-sky.csv && sed "s/job000/a-longer-job-name-/" slo.csv > al-slo.csv &&
    lcmpack -q --slo al-slo.csv --capacity cores=2000,mem=8192000 --load al-load.csv al-sky.csv > al-plan.csv &&
    skyplot -q plan al-plan.csv --load al-load.csv -o al.svg &&
    [ "$(grep -B1 ">hours into the plan<" al.svg | grep -o "translate([0-9.]*," | sort -u | wc -l)" = 1 ] &&
    [ "$(grep -c ">hours into the plan<" al.svg)" = 2 ] &&
    skyplot -q plan al-plan.csv --load al-load.csv --term dumb > al.txt &&
    [ "$(grep -c "^ *[0-9.]* *+-\{20,\}+ *$" al.txt)" = 4 ] &&
    [ "$(grep "^ *[0-9.]* *+-\{20,\}+ *$" al.txt | awk "{ print index(\$0, \"+\") \" \" length(\$0) }" | sort -u | wc -l)" = 1 ]' _ "$TMP/dk"
# (audit, session 31) text charts: a key below the plot ran its entries
# together ("job00168 *******job00009"), and gnuplot's own number tics ran
# into each other on a narrow chart ("0 5010150200250303500"): a space
# after each sample; tics 1, 2 or 5 times a power of ten, spaced for the
# plot's width (each label a number of the axis, a constant step apart).
tcheck "text chart: a space between key entries" bash -c '
    awk "BEGIN { print \"t,g,y\"; for (g = 0; g < 6; g++) for (t = 0; t < 5; t++) print t \",series-\" g \",\" g + t }" |
        skyplot -q lines --by g --term dumb > "$1/k6.txt" && [ "$(grep -c "series-[0-9] " "$1/k6.txt")" -ge 1 ] &&
    ! grep "series-" "$1/k6.txt" | grep -Eq "([*#\$%@&=])\1{6}[^ ]"' _ "$TMP"
tcheck "text chart: number tics spaced for the plot's width" bash -c '
    for w in 50 60 80 120; do
        skyplot -q lines "$1" --y used_mb --by policy,k --term dumb --width $w |
        awk "/^ *[0-9.-]* *\\+-+\\+ *\$/ { f++ } f == 2 && !done { getline; done = 1; n = split(\$0, v, \" \");
                 bad = n < 2; for (i = 2; i <= n; i++) if (v[i] > 650 || (i > 2 && v[i] - v[i - 1] != v[2] - v[1])) bad = 1 }
             END { exit bad || !done }" || { echo "width $w"; exit 1; }
    done' _ "$TMP/pg-ns.csv"
# vcs of a trace whose time 0 is its start (day 0, 86400, ...): drawn in days
mkdir -p "$TMP/days"
t "vcs day column before 2001 in days" 0 $'vc,day,load,mean_stretch\na,0,1,1\na,86400,2,1\n' '' '*' \
    env SKYPLOT_KEEP=1 TMPDIR="$TMP/days" skyplot -q vcs -o "$TMP/days.svg"
tcheck "vcs days: x is 0 and 1" bash -c '[ "$(sed -n 2,3p "$(ls -d "$1"/skyplot.* | head -1)/s0.dat" | tr "\n" "|")" = "0 0 1|1 0 2|" ]' _ "$TMP/days"
tcheck "vcs days: axis says days" grep -q "days since time 0" "$TMP/days.svg"

# ---- --on-error skip: bad rows are listed (file,line,reason) and left out;
# the chart equals the strict one on the file without them (same SVG bytes);
# one input is a corrupted copy of the real PlanetLab trace ----
head -400 "$DATA/planetlab/20110303.csv" >"$TMP/pl.csv"
sed -i '7s/,[0-9]*$/,12%/; 300s/,[0-9]*,/,soon,/' "$TMP/pl.csv"   # a bad cpu, a bad t
sed '7d;300d' "$TMP/pl.csv" >"$TMP/pl-good.csv"
t "skip: strict stops" 65 '' '' "pl.csv:7: column 'cpu': invalid number '12%'" skyplot -q lines "$TMP/pl.csv" --y cpu --by vm -o "$TMP/pl.svg"
t "skip: lines on a corrupted real trace" 0 '' '' '' skyplot -q lines "$TMP/pl.csv" --y cpu --by vm --on-error skip --rejects "$TMP/pl-rej.csv" -o "$TMP/pl.svg"
t "skip: lines rejects" 0 "@$TMP/pl-rej.csv" "file,line,reason
$TMP/pl.csv,7,column 'cpu': invalid number '12%'
$TMP/pl.csv,300,column 't': invalid time 'soon' (want epoch seconds or ISO 8601 UTC)" '' cat
t "skip: lines = strict without the rows" 0 '' "@$TMP/pl.svg" '' skyplot -q lines "$TMP/pl-good.csv" --y cpu --by vm
awk 'NR == 3 { print "j1,r1,x,1" } NR == 5 { print "j1,r2,1060,-" } 1' "$D/usage.csv" >"$TMP/usage-bad.csv"
skyplot -q skyline "$D/usage.csv" --fit "$D/fit.csv" >"$TMP/sky-good.svg"
t "skip: skyline = strict without the rows" 0 '' "@$TMP/sky-good.svg" '*' skyplot -q skyline "$TMP/usage-bad.csv" --fit "$D/fit.csv" --on-error skip --rejects "$TMP/sky-rej.csv"
tcheck "skip: skyline rejects at lines 3 and 6" bash -c '[ "$(cut -d, -f2 "$1" | tr "\n" " ")" = "line 3 6 " ]' _ "$TMP/sky-rej.csv"

# ---- write errors: every chart names the file and the cause (it used to exit
# 74 with no message when the image did not fit the disk).  /dev/full is
# written in place (outfile), so the first write of the image fails.
for c in "skyline $D/usage.csv --fit $D/fit.csv" "plan $D/plan.csv --load $D/load.csv" \
         "tenants $D/util.csv --classes $D/classes.csv" "vcs $D/daily.csv" "memory $D/memory.csv" \
         "lines $D/daily.csv --x day --y load --by vc"; do
    # shellcheck disable=SC2086 # the chart and its arguments, split on purpose
    t "full device: ${c%% *}" 74 '' '' "skyplot: /dev/full: write error: No space left on device" skyplot -q $c -o /dev/full
    # one line: the message came twice once outf_finish reported the
    # stream's own write error as well as render()
    # shellcheck disable=SC2086
    tcheck "full device: ${c%% *}: one message" bash -c '[ "$(skyplot -q "$@" -o /dev/full 2>&1 >/dev/null | wc -l)" = 1 ]' _ $c
done
t "full device on stdout" 74 '' '' 'skyplot: write error on standard output: No space left on device' \
    bash -c 'skyplot -q plan "$1/plan.csv" --load "$1/load.csv" > /dev/full' _ "$D"
# a full file system (a small tmpfs, as root): the old chart stays, the
# message names it, and a full TMPDIR (the gnuplot script) is named too
fs="$TMP/fullfs"; mkdir -p "$fs"
if mount -t tmpfs -o size=1m tmpfs "$fs" 2>/dev/null; then
    echo old > "$fs/plan.svg"
    dd if=/dev/zero of="$fs/filler" bs=64k 2>/dev/null || true
    for q in "" -q; do
        t "full disk${q:+ $q}: message" 74 '' '' "skyplot: $fs/plan.svg: write error: No space left on device (old file left unchanged)" \
            skyplot $q plan "$D/plan.csv" --load "$D/load.csv" -o "$fs/plan.svg"
    done
    tcheck "full disk: one message" bash -c '[ "$(skyplot -q plan "$1/plan.csv" --load "$1/load.csv" -o "$2/plan.svg" 2>&1 | wc -l)" = 1 ]' _ "$D" "$fs"
    tcheck "full disk: old chart intact, no temporary left" bash -c '[ "$(cat "$1/plan.svg")" = old ] && [ "$(ls -A "$1")" = "$(printf "filler\nplan.svg")" ]' _ "$fs"
    t "full TMPDIR: the script cannot be written" 73 '' '' "cannot write" env TMPDIR="$fs" skyplot -q plan "$D/plan.csv" -o "$TMP/tmpfull.svg"
    tcheck "full TMPDIR: no debris" bash -c '! ls -A "$1" | grep -q skyplot' _ "$fs"
    umount "$fs"
else
    tskip "skyplot full disk" "cannot mount a tmpfs here (not root, or no mount permission)"
fi

# ---- an input without its columns: one line, naming every missing one
# (each chart printed one line per missing column, then only the first)
printf 'job\nx\n' > "$TMP/nocols.csv"
for c in "plan $TMP/nocols.csv|columns 't' and 'containers'" \
         "skyline $TMP/nocols.csv|columns 'run', 't' and 'containers'" \
         "skyline $D/usage.csv --fit $TMP/nocols.csv|columns 'offset' and 'alloc'" \
         "plan $D/plan.csv --load $TMP/nocols.csv|columns 't' and 'cost'" \
         "vcs $TMP/nocols.csv|columns 'day', 'vc', 'load' and 'mean_stretch'" "memory $TMP/nocols.csv|column 't'" \
         "lines $TMP/nocols.csv --by a,b|columns 't', 'a' and 'b'" \
         "tenants $D/util.csv --classes $TMP/nocols.csv|columns 'tenant' and 'class'"; do
    # shellcheck disable=SC2086 # the chart and its arguments, split on purpose
    t "no columns: ${c%% *} ${c##*|}" 65 '' '' "nocols.csv:1: missing required ${c##*|}" skyplot -q ${c%|*}
    # shellcheck disable=SC2086
    tcheck "no columns: ${c%% *} ${c##*|}: one line" bash -c '[ "$(skyplot -q "$@" 2>&1 >/dev/null | wc -l)" = 1 ]' _ ${c%|*}
done
# two inputs on stdin: --fit - found it already read ("empty input")
t "stdin twice: FILE and --fit -" 64 "@$D/usage.csv" '' "skyplot: only one input can be standard input" \
    skyplot -q skyline --fit - --term dumb
t "stdin once: --fit -" 0 "@$D/fit.csv" '*' '' skyplot -q skyline "$D/usage.csv" --fit - --term dumb
# a reader that goes away (skyplot ... | head) killed skyplot by SIGPIPE with
# its temporary directory (the chart's data, 15 MB for 300 runs) left in
# $TMPDIR: every such run leaked it.  Still ends by SIGPIPE (141), silently.
mkdir -p "$TMP/pipetmp"
awk 'BEGIN { print "t,run,containers"; for (r = 0; r < 300; r++) for (t = 0; t < 200; t++) print t "," r "," (r * t) % 17 }' > "$TMP/u300.csv"
tcheck "closed pipe: SIGPIPE, no temporary directory left" bash -c '
    TMPDIR="$1" skyplot -q lines "$2" --x t --y containers --by run --term svg 2>"$1.err" | head -1 >/dev/null
    s=${PIPESTATUS[0]}; [ "$s" = 141 ] && [ ! -s "$1.err" ] && [ -z "$(ls -A "$1")" ] || { echo "status $s"; ls "$1"; cat "$1.err"; exit 1; }' _ "$TMP/pipetmp" "$TMP/u300.csv"
# killed while drawing (SIGTERM, SIGINT or SIGHUP by pid) skyplot left its
# temporary directory (the chart's data) in $TMPDIR; now a handler removes
# it, and the exit is still the signal's (128 + N).  skyplot is caught in
# plot_render: its stdout is a fifo whose only reader (fd 7 here) never
# reads, so it blocks on the image; the kill is sent once its directory
# exists (that it was seen is part of the check).  SIGINT needs its default
# action back: a background job of a script starts with it ignored (and an
# ignored signal stays ignored).  gnuplot must not be left running either.
for s in TERM:143 INT:130 HUP:129; do
    sig=${s%%:*}; mkdir -p "$TMP/sig$sig"; mkfifo "$TMP/sig$sig.fifo"
    tcheck "killed by SIG$sig while drawing: exit ${s#*:}, no temporary directory left" timeout 60 bash -c '
        T=$1 sig=$2 want=$3
        exec 7<>"$T.fifo"
        TMPDIR=$T env --default-signal=INT skyplot -q lines "$4" --x t --y containers --by run --term svg >"$T.fifo" 2>"$T.err" &
        pid=$! seen=0
        for _ in $(seq 400); do ls -A "$T" 2>/dev/null | grep -q "^\.skyplot\.slokit\." && { seen=1; break; }; sleep 0.025; done
        kill -s "$sig" "$pid"; wait "$pid"; st=$?
        exec 7>&-
        for _ in $(seq 80); do grep -qs "$T/.skyplo[t]" /proc/[0-9]*/cmdline || break; sleep 0.025; done
        left=$(grep -ls "$T/.skyplo[t]" /proc/[0-9]*/cmdline)
        [ "$seen" = 1 ] && [ "$st" = "$want" ] && [ -z "$(ls -A "$T")" ] && [ ! -s "$T.err" ] && [ -z "$left" ] ||
            { echo "seen $seen, status $st, gnuplot left: ${left:-none}"; ls -A "$T"; cat "$T.err"; exit 1; }' \
        _ "$TMP/sig$sig" "$sig" "${s#*:}" "$TMP/u300.csv"
done
# with -o FILE, outfile's own handler (it removes the .FILE.slokit.XXXXXX
# temporary) must still run after the directory is gone: the old chart stays,
# neither temporary is left.  A stand-in gnuplot that waits on a fifo (held
# open here, never written) keeps skyplot drawing; the handler passes
# SIGTERM on to it.
mkdir -p "$TMP/sigo/out" "$TMP/sigo/tmp" "$TMP/waitgp"; mkfifo "$TMP/sigo.hold"
printf '#!/bin/sh\nexec cat "$SKYPLOT_TEST_HOLD" >/dev/null\n' > "$TMP/waitgp/gnuplot"; chmod +x "$TMP/waitgp/gnuplot"
tcheck "killed by SIGTERM with -o FILE: old chart intact, no temporary left" timeout 60 bash -c '
    T=$1; echo old > "$T/out/plan.svg"
    exec 7<>"$T.hold"
    SKYPLOT_TEST_HOLD=$T.hold PATH=$2:$PATH TMPDIR=$T/tmp skyplot -q plan "$3" -o "$T/out/plan.svg" 2>"$T.err" &
    pid=$! seen=0
    for _ in $(seq 400); do ls -A "$T/tmp" 2>/dev/null | grep -q "^\.skyplot\.slokit\." && { seen=1; break; }; sleep 0.025; done
    kill -s TERM "$pid"; wait "$pid"; st=$?
    for _ in $(seq 80); do grep -qs "$T.hol[d]" /proc/[0-9]*/cmdline || break; sleep 0.025; done
    left=$(grep -ls "$T.hol[d]" /proc/[0-9]*/cmdline)
    exec 7>&-
    [ "$seen" = 1 ] && [ "$st" = 143 ] && [ -z "$(ls -A "$T/tmp")" ] && [ "$(ls -A "$T/out")" = plan.svg ] &&
        [ "$(cat "$T/out/plan.svg")" = old ] && [ ! -s "$T.err" ] && [ -z "$left" ] ||
        { echo "seen $seen, status $st, gnuplot left: ${left:-none}"; ls -A "$T/tmp" "$T/out"; cat "$T.err"; exit 1; }' _ "$TMP/sigo" "$TMP/waitgp" "$D/plan.csv"
# a column with no values at all (vcs: mean_stretch empty on every row) made
# an empty panel gnuplot refused ("all points y value undefined!"), reported
# as "gnuplot failed: no message", exit 70: now an empty panel, exit 0
t "vcs: a column without values is an empty panel" 0 $'day,vc,load,mean_stretch\n0,vc1,0.5,\n86400,vc1,0.7,\n' '*' '' \
    skyplot -q vcs --term dumb
# gnuplot ends its message with a blank line: the message was lost
mkdir -p "$TMP/fakegp"
printf '#!/bin/sh\nprintf "\\nplot NaN\\n     ^\\n\\"plot.gp\\" line 3: all points y value undefined!\\n\\n" >&2\nexit 1\n' > "$TMP/fakegp/gnuplot"
chmod +x "$TMP/fakegp/gnuplot"
t "gnuplot's message is shown" 70 '' '' 'skyplot: gnuplot failed: "plot.gp" line 3: all points y value undefined!' \
    env PATH="$TMP/fakegp:$PATH" skyplot -q lines "$D/memory.csv" --term dumb

# Each write of skyplot's own (its data files, the script, the chart) fails
# in turn (strace -e inject): the run either fails with the old chart kept,
# or succeeds with the chart of a clean run.  A data file's write error was
# seen by fclose only, so one failed write (EIO) drew a chart from the data
# before it, exit 0 (session-21 fault-injection audit).
if strace -qq -o /dev/null true 2>/dev/null; then
tcheck "plan: a write failing anywhere never gives exit 0 with another chart" bash -c '
    export ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0" # LeakSanitizer cannot run under ptrace
    cd "$1" && skyplot -q plan "$2/plan.csv" --load "$2/load.csv" -o ref.svg || exit 1
    strace -qq -o w.log -e trace=write skyplot -q plan "$2/plan.csv" --load "$2/load.csv" -o x.svg || exit 1
    k=$(grep -c "write(" w.log); [ "$k" -ge 5 ] || { echo "only $k writes"; exit 1; }
    for n in $(seq 1 "$k"); do
        echo OLD > x.svg
        strace -qq -o /dev/null -e trace=write -e inject=write:error=EIO:when=$n \
            skyplot -q plan "$2/plan.csv" --load "$2/load.csv" -o x.svg 2>err; rc=$?
        if [ $rc = 0 ]; then cmp -s x.svg ref.svg || { echo "write $n of $k: exit 0, another chart"; exit 1; }
        else [ "$(cat x.svg)" = OLD ] && [ "$(wc -l < err)" = 1 ] || { echo "write $n of $k: exit $rc"; cat err; exit 1; }; fi
    done; echo "$k writes"' _ "$TMP" "$D"
else
    tskip "plan: a write failing anywhere never gives exit 0 with another chart" "strace cannot trace here (not installed, or ptrace not allowed)"
fi

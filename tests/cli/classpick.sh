# classpick: Algorithm 1 on a hand-worked class table, DAG concurrency worked
# by hand, draw frequencies against the weighted-headroom probabilities, and
# --simulate invariants.
D="$ROOT/tests/data/classpick"
C="$D/classes.csv"

# Hand-worked rooms (12 cores, reserve 0.33, 10 servers = 120 cores per class):
#   class            avg  peak current | short: 1-cur  medium: 1-max(avg,cur)  long: 1-max(peak,cur)
#   periodic-1       0.2  0.6  0.3     | 0.7 -> 44     0.7 -> 44              0.4 -> 8
#   constant-1       0.4  0.45 0.4     | 0.6 -> 32     0.6 -> 32              0.55 -> 26
#   unpredictable-1  0.1  0.9  0.05    | 0.95 -> 74    0.9 -> 68              0.1 -> 0
# room = floor((headroom - 0.33) x 120).
# s1 short 50: only unpredictable-1 (74) fits.  l1 long 40: 8+26+0 = 34 < 40, none.
# l2 long 30: none alone, constant-1 (26) + periodic-1 (8) hold it.  z: no demand.
t "hand-worked picks" 0 '' \
$'job,type,demand,classes,reason
s1,short,50,unpredictable-1,fits in 1 of 3 classes; drawn by weighted headroom
l1,long,40,,no combination fits: demand 40 > free room 34 containers' '*' \
    sh -c 'classpick -q --no-book --classes "$1" "$2" | head -3' _ "$C" "$D/jobs.csv"
t "two classes together" 0 '' '*' '' sh -c 'classpick -q --no-book --classes "$1" "$2" | grep "^l2," | grep -Eqx "l2,long,30,(constant-1\+periodic-1|periodic-1\+constant-1),no class fits alone; 2 classes hold it together"' _ "$C" "$D/jobs.csv"
t "no demand, no class" 0 '' '*' '' sh -c 'classpick -q --no-book --classes "$1" "$2" | grep -qx "z,medium,0,,no containers needed"' _ "$C" "$D/jobs.csv"
# (review, 2026-12-04) a job of no containers was counted "in one class":
# the summary counts it apart.  jobs.csv by the rooms above: s1 (short 50)
# and m1 (medium, never ran, 20 <= 68) in one class, l2 across two, l1 not
# placed, z (medium, 0 containers) none of them; types: s1 short, m1 and z
# medium, l1 and l2 long (600 s > 433 s).
t "no demand: counted apart in the summary" 0 '' '*' \
    'classpick: 5 jobs (1 short, 2 medium, 2 long by 173s/433s): 2 in one class, 1 across classes, 1 not placed, 1 needed no containers (--no-book: rooms not reduced between jobs)' \
    classpick --no-book --classes "$C" "$D/jobs.csv"
# a DAG of one vertex of 0 tasks: demand 0, the same row and count
printf 'job,vertex,tasks,parent\nd0,A,0,\n' > "$TMP/dag0.csv"
t "no demand from a DAG of 0 tasks: counted apart" 0 $'job,last_duration\nd0,500\n' \
    $'job,type,demand,classes,reason\nd0,long,0,,no containers needed' \
    'classpick: 1 jobs (0 short, 0 medium, 1 long by 173s/433s): 0 in one class, 0 across classes, 0 not placed, 1 needed no containers' \
    classpick --classes "$C" --dag "$TMP/dag0.csv"
# --weight 0 on every pattern of the table for long jobs: the reason names
# --weight, not a free room of 0 (it said "demand 50 > free room 0 containers")
printf 'class,pattern,avg_util,peak_util,servers\nconstant-1,constant,0.1,0.2,100\nperiodic-1,periodic,0.2,0.4,100\n' > "$TMP/wcl.csv"
t "--weight excludes every pattern: the reason says so" 0 $'job,last_duration,containers\nbig,600,50\n' \
    $'job,type,demand,classes,reason\nbig,long,50,,no class allowed: --weight gives long jobs weight 0 on every pattern of the classes (periodic and constant)' '' \
    classpick -q --weight long.constant=0 --weight long.periodic=0 --classes "$TMP/wcl.csv"
t "--weight excludes every pattern of long jobs only: medium ones still placed" 0 $'job,last_duration,containers\nm,300,50\n' \
    $'job,type,demand,classes,reason\nm,medium,50,periodic-1,fits in 1 of 2 classes; drawn by weighted headroom' '' \
    classpick -q --weight long.constant=0 --weight long.periodic=0 --weight medium.constant=0 --classes "$TMP/wcl.csv"
# l1 long 40 with unpredictable excluded: periodic 8 + constant 26 = 34 < 40, and one class of three excluded
t "--weight excludes some classes: the reason counts them" 0 '' \
    'l1,long,40,,no combination fits: demand 40 > free room 34 containers (1 of 3 classes excluded: --weight 0 for long jobs on unpredictable)' '' \
    sh -c 'classpick -q --no-book --weight long.unpredictable=0 --classes "$1" "$2" | grep "^l1,"' _ "$C" "$D/jobs.csv"
# booking: a then b, short 60 each: a takes 60 of unpredictable-1's 74; b fits nowhere alone (14, 44, 32) but in several
t "booked containers shrink later rooms" 0 $'job,last_duration,containers\na,60,60\nb,60,60\n' \
    $'job,type,demand,classes,reason\na,short,60,unpredictable-1,fits in 1 of 3 classes; drawn by weighted headroom' '' \
    sh -c 'classpick -q --classes "$1" | head -2' _ "$C"
t "booked: second job spans classes" 0 $'job,last_duration,containers\na,60,60\nb,60,60\n' '*' '' \
    sh -c 'classpick -q --classes "$1" | tail -1 | grep -q "^b,short,60,.*+.*,no class fits alone"' _ "$C"
# types: < 173 short, 173 and 433 medium, > 433 long, never ran medium
t "job types by thresholds" 0 "@$D/types.csv" $'a,short\nb,medium\nc,medium\nd,long\ne,short\nf,medium' '' \
    sh -c 'classpick -q --no-book --classes "$1" | tail -n +2 | cut -d, -f1,2' _ "$C"
t "custom thresholds" 0 "@$D/types.csv" $'a,medium\nb,medium\nc,long\nd,long\ne,short\nf,medium' '' \
    sh -c 'classpick -q --no-book --short-max 150 --long-min 300 --classes "$1" | tail -n +2 | cut -d, -f1,2' _ "$C"
# Draw frequencies: medium jobs of 20 fit everywhere; weighted rooms 44x3 = 132, 32x2 = 64, 68x1 = 68
# (sum 264): P = 0.5, 0.2424, 0.2576.  3000 draws: sd <= 0.0092; allow 0.035.
tcheck "draws follow weighted headroom" bash -c '
    classpick -q --no-book --classes "$1" "$2" | awk -F, "NR>1{n[\$4]++; t++}
      END{d1=n[\"periodic-1\"]/t-0.5; d2=n[\"constant-1\"]/t-64/264; d3=n[\"unpredictable-1\"]/t-68/264;
          if (d1<0) d1=-d1; if (d2<0) d2=-d2; if (d3<0) d3=-d3; exit !(t==3000 && d1<0.035 && d2<0.035 && d3<0.035)}"' _ "$C" "$D/many.csv"
tcheck "a zero weight is never drawn" bash -c 'classpick -q --no-book --weight medium.periodic=0 --classes "$1" "$2" |
    awk -F, "NR > 1 { n++; if (\$4 == \"periodic-1\") bad = 1; c[\$4]++ } END { exit bad || n != 3000 || !c[\"constant-1\"] || !c[\"unpredictable-1\"] }"' _ "$C" "$D/many.csv"
tcheck "same seed, same picks; other seed, other picks" bash -c '
    a=$(classpick -q --no-book --classes "$1" "$2" | md5sum); b=$(classpick -q --no-book --classes "$1" "$2" | md5sum)
    c=$(classpick -q --no-book --seed 2 --classes "$1" "$2" | md5sum); [ "$a" = "$b" ] && [ "$a" != "$c" ]' _ "$C" "$D/many.csv"
# --current: unpredictable-1 at 0.9 now has short room floor((0.1-0.33) x 120) = 0: s1 (short 50) goes nowhere alone
t "current utilization from --current" 0 '' '*' '' sh -c 'classpick -q --no-book --classes "$1" --current "$2" "$3" | grep -q "^s1,short,50,.*+"' _ "$C" "$D/current.csv" "$D/jobs.csv"
t "no current column: warn, use avg" 0 $'job,containers\nx,1\n' '*' 'no current utilization for 3 of 3 classes' \
    sh -c 'cut -d, -f1-6 "$1" > "$2/nocur.csv" && classpick --classes "$2/nocur.csv"' _ "$C" "$TMP"
t "percent tables" 0 '' '*' '' bash -c 'awk -F, -v OFS=, "NR>1{\$3*=100; \$4*=100; \$7*=100} {print}" "$1" > "$3/pct.csv" &&
    classpick -q --no-book --scale percent --classes "$3/pct.csv" "$2" | head -3 | cmp - <(classpick -q --no-book --classes "$1" "$2" | head -3)' _ "$C" "$D/jobs.csv" "$TMP"

# DAG, worked by hand.  q19: sources m1(10) m2(20) m3(5) -> level 0 = 35; r1(8) <- m1,m2, r2(4) <- m3,
# r4(30) <- m3 -> level 1 = 42; r3(6) <- r1,r2 -> level 2 = 6.  Max 42.
# late: a(5) -> b(7), d(50); c(9) <- b,d; e(40) <- a,b.  A vertex waits for all its parents, so e is at
# level 2 (after b), not 1: levels 5 | 7+50 = 57 | 9+40 = 49.  Max 57 (a shortest-path BFS would say 97).
t "DAG max concurrency" 0 "@$D/dagjobs.csv" $'q19,medium,42\nlate,medium,57' '' \
    sh -c 'classpick -q --no-book --classes "$1" --dag "$2" | tail -n +2 | cut -d, -f1-3' _ "$C" "$D/dags.csv"
# Large DAGs (the vertex lookup and the traversal were quadratic: a 300,000-vertex chain took 404 s).
# Expected demand from an independent Python computation of the level sums (longest path from a source).
tcheck "DAG of 200,000 vertices: chain, star and layers, demand from a Python level count" bash -c '
    /usr/bin/python3 - "$1" <<"PY" || exit 1
import random, sys
d = sys.argv[1]; random.seed(5); n = 200000
rows, exp = [], {}
rows += [("chain", "v0", 3, "")] + [("chain", "v%d" % i, i % 7 + 1, "v%d" % (i - 1)) for i in range(1, n)]
exp["chain"] = 7
rows += [("star", "v0", 5, "")] + [("star", "v%d" % i, 1, "v0") for i in range(1, n)]
exp["star"] = n - 1
# layers: 400 layers of 500 vertices, each vertex with 1-3 random parents in the layer above
lv, par, tasks = {}, {}, {}
for L in range(400):
    for k in range(500):
        v = "L%dv%d" % (L, k); tasks[v] = random.randint(1, 9); lv[v] = L
        par[v] = random.sample(["L%dv%d" % (L - 1, q) for q in range(500)], random.randint(1, 3)) if L else []
        if not par[v]: rows.append(("layers", v, tasks[v], ""))
        for p in par[v]: rows.append(("layers", v, tasks[v], p))
level = {}
for v in tasks:  # declared layer by layer, so parents come first
    level[v] = 1 + max(level[p] for p in par[v]) if par[v] else 0
s = {}
for v, l in level.items(): s[l] = s.get(l, 0) + tasks[v]
exp["layers"] = max(s.values())
with open(d + "/bigdag.csv", "w") as f:
    f.write("job,vertex,tasks,parent\n")
    for r in sorted(rows, key=lambda r: r[0]): f.write("%s,%s,%d,%s\n" % r)
with open(d + "/bigdag.jobs", "w") as f: f.write("job,last_duration\n" + "".join("%s,300\n" % j for j in sorted(exp)))
with open(d + "/bigdag.exp", "w") as f: f.write("".join("%s,%d\n" % (j, exp[j]) for j in sorted(exp)))
PY
    timeout 60 classpick -q --no-book --classes "$2" --dag "$1/bigdag.csv" "$1/bigdag.jobs" | tail -n +2 | cut -d, -f1,3 | cmp - "$1/bigdag.exp"' _ "$TMP" "$C"
t "containers column wins over the DAG" 0 $'job,containers\nq19,3\n' '*' '' sh -c 'classpick -q --classes "$1" --dag "$2" | tail -1 | grep -q "^q19,medium,3,"' _ "$C" "$D/dags.csv"
t "DAG cycle" 65 $'job\nx\n' '' "classpick: $TMP/cyc.csv:2: job 'x': the DAG has a cycle" sh -c 'printf "job,vertex,tasks,parent\nx,a,1,b\nx,b,1,a\n" > "$1" && classpick --classes "$2" --dag "$1"' _ "$TMP/cyc.csv" "$C"
t "DAG unknown parent" 65 $'job\nx\n' '' "job 'x': parent 'zz' is not a vertex of the job" sh -c 'printf "job,vertex,tasks,parent\nx,a,1,zz\n" > "$1/u.csv" && classpick --classes "$2" --dag "$1/u.csv"' _ "$TMP" "$C"
t "DAG two task counts" 65 $'job\nx\n' '' "vertex 'a' is given two different task counts" sh -c 'printf "job,vertex,tasks,parent\nx,a,1,\nx,a,2,\n" > "$1/tc.csv" && classpick --classes "$2" --dag "$1/tc.csv"' _ "$TMP" "$C"
t "DAG not grouped: the one message" 65 $'job\nx\n' '' "classpick: $TMP/ug.csv:4: input not grouped by job: job 'x' appears again after job 'y' (sort by job first, the header kept on top, e.g. (head -1 $TMP/ug.csv; tail -n +2 $TMP/ug.csv | sort -s -t, -k1,1))" sh -c 'printf "job,vertex,tasks,parent\nx,a,1,\ny,a,1,\nx,b,1,a\n" > "$1/ug.csv" && classpick --classes "$2" --dag "$1/ug.csv"' _ "$TMP" "$C"
# tasks are counts (found by the cell probe, 2026-11-25: 1e308 tasks gave
# demand 1e+308 in the output): a whole number up to 1e15, and so is the
# widest level's sum
t "DAG tasks beyond 1e15" 65 $'job\nx\n' '' "classpick: $TMP/tb.csv:2: column 'tasks'" sh -c 'printf "job,vertex,tasks,parent\nx,a,1e308,\n" > "$1/tb.csv" && classpick --classes "$2" --dag "$1/tb.csv"' _ "$TMP" "$C"
t "DAG tasks fractional" 65 $'job\nx\n' '' "classpick: $TMP/tf.csv:2: column 'tasks': a whole number of tasks, got 2.5" sh -c 'printf "job,vertex,tasks,parent\nx,a,2.5,\n" > "$1/tf.csv" && classpick --classes "$2" --dag "$1/tf.csv"' _ "$TMP" "$C"
t "DAG level beyond 1e15" 65 $'job\nx\n' '' "classpick: $TMP/tl.csv:2: job 'x': the DAG's demand, 2e+15 containers, is beyond 1e+15" sh -c 'printf "job,vertex,tasks,parent\nx,a,1e15,\nx,b,1e15,\n" > "$1/tl.csv" && classpick --classes "$2" --dag "$1/tl.csv"' _ "$TMP" "$C"
t "DAG level at 1e15" 0 $'job\nx\n' '*' '' sh -c 'printf "job,vertex,tasks,parent\nx,a,5e14,\nx,b,5e14,\n" > "$1/te.csv" && classpick -q --no-book --classes "$2" --dag "$1/te.csv" | tail -1 | grep -q "^x,[a-z]*,1000000000000000,"' _ "$TMP" "$C"
t "job without demand" 65 $'job,containers\nx,\n' '*' "classpick: <stdin>:2: job 'x': no containers value and no DAG in --dag" classpick --classes "$C"
t "no containers column, no dag" 65 $'job\nx\n' '' "no 'containers' column and no --dag" classpick --classes "$C"

# ---- errors ----
t "classes required" 64 '' '' "--classes FILE is required" classpick
t "bad weight" 64 '' '' "invalid value for --weight: unknown job type 'huge'" classpick --classes "$C" --weight huge.constant=1
t "bad weight pattern" 64 '' '' "unknown pattern 'spiky'" classpick --classes "$C" --weight long.spiky=1
t "bad weight form" 64 '' '' "want TYPE.PATTERN=W" classpick --classes "$C" --weight long
t "thresholds crossed" 64 '' '' "--short-max (500 s) must not exceed --long-min (433 s)" classpick --classes "$C" --short-max 500
t "duplicate job" 65 $'job,containers\nx,1\nx,2\n' '*' "classpick: <stdin>:3: duplicate job 'x' (first at line 2)" classpick --classes "$C"
t "containers beyond 1e15 (2^63 - 1)" 65 $'job,containers\nx,9223372036854775807\n' '*' "classpick: <stdin>:2: column 'containers': number '9223372036854775807' out of range (|value| <= 1e+15)" classpick --classes "$C"
t "last_duration beyond 1e15" 65 $'job,last_duration,containers\nx,1e16,3\n' '*' "classpick: <stdin>:2: column 'last_duration': duration '1e16' out of range (|value| <= 1e+15)" classpick --classes "$C"
t "containers at 1e15: read, not placed" 0 $'job,containers\nx,1000000000000000\n' '*' '' sh -c 'classpick -q --classes "$1" | tail -1 | grep -q "^x,[a-z]*,1000000000000000,,no combination fits"' _ "$C"
t "fractional containers" 65 $'job,containers\nx,1.5\n' '*' "containers must be a whole number" classpick --classes "$C"
t "negative duration" 65 $'job,last_duration,containers\nx,-5,1\n' '*' "column 'last_duration'" classpick --classes "$C"
t "bad class pattern" 65 $'job,containers\nx,1\n' '' "column 'pattern': 'wavy' is not periodic" sh -c 'printf "class,pattern,avg_util,peak_util,servers\nc,wavy,0.1,0.2,1\n" > "$1/bp.csv" && classpick --classes "$1/bp.csv"' _ "$TMP"
t "util above 1" 65 $'job,containers\nx,1\n' '' "utilization above 1 (for 0-100 tables use --scale percent)" sh -c 'printf "class,pattern,avg_util,peak_util,servers\nc,constant,10,20,1\n" > "$1/hi.csv" && classpick --classes "$1/hi.csv"' _ "$TMP"
t "missing classes file" 66 '' '' "classpick: /nonexistent.csv: cannot open" classpick --classes /nonexistent.csv
t "simulate needs series" 64 '' '' "--simulate needs --series FILE and --tenants FILE" classpick --simulate --classes "$C"
t "--jobs with --load: 64" 64 '' '' "classpick: --jobs and --load exclude each other" classpick --simulate --classes "$C" --series s.csv --tenants t.csv --jobs 5 --load 0.5
# an option of --simulate without it would be ignored: refused, each of them
for o in "--series s.csv" "--tenants t.csv" "--servers v.csv" "--step 60" "--jobs 5" "--load 0.5" "--tasks 3" \
         "--never-seen 0.2" "--sample in" "--split 2026-01-05"; do
    t "$o without --simulate: 64" 64 '' '' "classpick: ${o%% *} needs --simulate" classpick --classes "$C" $o
done

# ---- --simulate ----
# Two tenants of 20 servers for 7 days: A flat at 0.1 (constant), B at 0.1 and 0.9 in turns of 6 h.
tenantclass -q --servers "$D/simservers.csv" --classes "$TMP/simc.csv" -o "$TMP/simo.csv" "$D/simseries.csv"
# (--sample in: the classes are learned from the replayed week itself)
t "simulate runs" 0 '' '*' 'classpick: killed tasks: yarn-pt' classpick --simulate --sample in --classes "$TMP/simc.csv" --tenants "$TMP/simo.csv" \
    --series "$D/simseries.csv" --servers "$D/simservers.csv" --tasks 20 -o "$TMP/sim.csv"
# each of the replay's tables without its columns: one line names them all
# (stderr through stdout, so the whole of it is compared: exactly that line)
for c in "tenants|'tenant', 'class', 'avg' and 'peak'" "series|'tenant', 't' and 'util'" \
    "servers|'tenant' and 'servers'"; do
    sim=(--tenants "$TMP/simo.csv" --series "$D/simseries.csv" --servers "$D/simservers.csv" "--${c%%|*}" -)
    t "simulate: --${c%%|*} without its columns, one line" 65 "x
1
" "classpick: <stdin>:1: missing required columns ${c#*|}" '' sh -c 'exec "$@" 2>&1' _ \
        classpick -q --simulate --sample in --classes "$TMP/simc.csv" "${sim[@]}" --tasks 20
done
# a first t of -0 started the replay at "-0" in the message
sed '2s/^A,[0-9]*,/A,-0,/' "$D/simseries.csv" > "$TMP/simseries-0.csv"
t "simulate: a replay starting at t = -0 says 0" 65 '' '' "after the start of the replay (0)" \
    classpick -q --simulate --sample in --classes "$TMP/simc.csv" --tenants "$TMP/simo.csv" \
    --series "$TMP/simseries-0.csv" --servers "$D/simservers.csv" --tasks 20
# a tenant row without its tenant or class names the column, as every reader does
for c in "tenant|2s/^[^,]*,/,/" "class|2s/^\([^,]*,[^,]*\),[^,]*,/\1,,/"; do
    sed "${c#*|}" "$TMP/simo.csv" > "$TMP/simo-blank.csv"
    t "simulate: --tenants row without its ${c%%|*}: column named" 65 '' '' \
        "classpick: $TMP/simo-blank.csv:2: column '${c%%|*}': missing value" \
        classpick -q --simulate --sample in --classes "$TMP/simc.csv" --tenants "$TMP/simo-blank.csv" \
        --series "$D/simseries.csv" --servers "$D/simservers.csv" --tasks 20
done
# found by probing the options with extreme values: --step 1e12 sized the job
# stream by ticks x step (2^31 jobs) and ran out of memory (exit 70)
t "simulate: --step beyond a day refused" 64 '' '' "invalid value for --step: '1e12' (out of range: at most 86400 s)" \
    classpick --simulate --step 1e12 --classes "$TMP/simc.csv"
tcheck "simulate: two policies, same jobs, all finish" awk -F, 'NR>1{n++; j[$2]=1; if ($3!=$2) bad=1} END{exit bad || !(n==2 && length(j)==1)}' "$TMP/sim.csv"
tcheck "simulate: B's 6-hour steps kill; class-aware kills fewer" awk -F, 'NR==2{pt=$5} NR==3{h=$5} END{exit !(pt>0 && h<pt)}' "$TMP/sim.csv"
tcheck "simulate: deterministic" bash -c 'classpick -q --simulate --sample in --classes "$1/simc.csv" --tenants "$1/simo.csv" --series "$2/simseries.csv" --servers "$2/simservers.csv" --tasks 20 | cmp - "$1/sim.csv"' _ "$TMP" "$D"
# a cluster whose primaries never change never kills, whatever the policy
tcheck "simulate: flat primaries, no kills" bash -c '
    awk -F, -v OFS=, "NR>1{\$3=0.1} {print}" "$2/simseries.csv" > "$1/flat.csv" &&
    tenantclass -q --classes "$1/flatc.csv" -o "$1/flato.csv" "$1/flat.csv" &&
    classpick -q --simulate --sample in --classes "$1/flatc.csv" --tenants "$1/flato.csv" --series "$1/flat.csv" --servers "$2/simservers.csv" --tasks 20 |
    awk -F, "NR>1{if (\$5!=0 || \$3!=\$2) exit 1; n++} END{exit n!=2}"' _ "$TMP" "$D"
# One tenant "A" of one class; its series every 60 s, the ticks every 120 s.
printf 'class,pattern,avg_util,peak_util,tenants,servers\nconstant-1,constant,0.5,0.5,1,1\n' > "$TMP/t1c.csv"
printf 'tenant,pattern,class,avg,peak,strength\nA,constant,constant-1,0.5,0.5,0\n' > "$TMP/t1t.csv"
# Each tick takes the last sample at or before it (classpick(1)).  util 0 at
# even minutes, 1 at odd ones: every tick on an even minute sees 0, and one
# more tick at 12000 s holds the last sample (11940 s, util 1): 1/101.
# (Before, a tick took the last sample before the next tick, up to a step in
# its future: primary_util 1.)
awk 'BEGIN { print "tenant,t,util"; for (i = 0; i < 200; i++) print "A," 60 * i "," (i % 2) }' > "$TMP/t1s.csv"
t "simulate: a tick takes the last sample at or before it" 0 '' '*' "over 101 ticks of 120 s" \
    classpick --simulate --sample in --classes "$TMP/t1c.csv" --tenants "$TMP/t1t.csv" --series "$TMP/t1s.csv" --jobs 5 -o "$TMP/t1.out"
tcheck "simulate: ... so the primary's utilization is 1/101" awk -F, 'NR > 1 && $9 != 1 / 101 { bad = 1 } NR > 1 { n++ } END { exit bad || n != 2 }' "$TMP/t1.out"
# The mean harvestable cores, which --load scales, are the simulator's own:
# 100 servers x (12 - 4 reserve) - ceil(100 x 0.01 x 12) = 800 - 12 = 788
# (before: per server, 100 x (8 - ceil(0.12)) = 700, so --load 1 offered 0.89
# of the capacity).
awk 'BEGIN { print "tenant,t,util"; for (i = 0; i < 200; i++) print "A," 120 * i ",0.01" }' > "$TMP/t2s.csv"
printf 'tenant,servers\nA,100\n' > "$TMP/t2srv.csv"
t "simulate: mean harvestable cores rounded as the simulator rounds them" 0 '' '*' "offered at 1 of the mean harvestable 788 cores" \
    classpick --simulate --sample in --classes "$TMP/t1c.csv" --tenants "$TMP/t1t.csv" --series "$TMP/t2s.csv" --servers "$TMP/t2srv.csv" --load 1 -o /dev/null
# (review, 2026-12-04) utilization was held as a float: 0.6 became
# 0.6000000238, so 5 servers x 0.6 x 12 cores = 36 came out 36.0000014 and
# ceil gave 37.  Held as read (a double): 5 x (12 - 4 reserve) - 36 = 4
# harvestable cores (the float said 3); at 0.4, 40 - 24 = 16 (it said 15),
# and primary_util, the mean of 101 ticks of 0.4, is 0.4 (it printed
# 0.4000000059604645; a plain sum over 101 would give 0.3999999999999992).
printf 'tenant,servers\nA,5\n' > "$TMP/t5srv.csv"
for u in "0.6 4" "0.4 16"; do
    read -r uu want <<< "$u"
    awk -v u="$uu" 'BEGIN { print "tenant,t,util"; for (i = 0; i < 101; i++) print "A," 120 * i "," u }' > "$TMP/tu$uu.csv"
    t "simulate: $uu x 5 servers x 12 cores is exact: $want harvestable cores" 0 '' '*' "of the mean harvestable $want cores" \
        classpick --simulate --sample in --classes "$TMP/t1c.csv" --tenants "$TMP/t1t.csv" --series "$TMP/tu$uu.csv" --servers "$TMP/t5srv.csv" --jobs 1 -o /dev/null
done
t "simulate: primary_util of a tenant at 0.4 throughout is 0.4" 0 '' $'yarn-pt,0.4\nclass-aware,0.4' '' \
    sh -c 'classpick -q --simulate --sample in --classes "$1" --tenants "$2" --series "$3" --servers "$4" --jobs 1 | cut -d, -f1,9 | tail -n +2' \
    _ "$TMP/t1c.csv" "$TMP/t1t.csv" "$TMP/tu0.4.csv" "$TMP/t5srv.csv"
# --tenants reads tenant, class, avg and peak (cs_read_tenants); --help once
# said "(tenant,pattern,class)": a file of those three was refused
tcheck "--help: --tenants names the columns it reads" bash -c 'ARGP_HELP_FMT=rmargin=1000 classpick --help | grep -qF -- "--tenants=FILE         tenantclass'"'"'s per-tenant output (columns tenant,class,avg,peak)"'
printf 'tenant,class,avg,peak\nA,constant-1,0.5,0.5\n' > "$TMP/t1t-nopat.csv"
t "simulate: --tenants without pattern (not read)" 0 '' '*' "over 101 ticks of 120 s" \
    classpick --simulate --sample in --classes "$TMP/t1c.csv" --tenants "$TMP/t1t-nopat.csv" --series "$TMP/t1s.csv" --jobs 5 -o /dev/null
t "simulate: --tenants of (tenant,pattern,class) is refused" 65 '' '' "missing required columns 'avg' and 'peak'" \
    sh -c 'printf "tenant,pattern,class\nA,constant,constant-1\n" > "$1/t3.csv" && classpick --simulate --sample in --classes "$2" --tenants "$1/t3.csv" --series "$3" --jobs 5' _ "$TMP" "$TMP/t1c.csv" "$TMP/t1s.csv"
# --servers as tenantclass reads it: a tenant it misses is simulated with 1
# server and counted in one warning naming the first (it was silent, as was
# the row of a tenant --tenants does not have: a typo went unseen); whole
# servers only (2.5 was a pool of 30 cores)
printf 'tenant,servers\nAX,3\nB,2\n' > "$TMP/srv-typo.csv"
t "simulate: a tenant --servers does not list is counted in a warning" 0 '' '*' \
    "classpick: warning: 1 of 1 tenants are not in --servers $TMP/srv-typo.csv (first: 'A'); counted as 1 server" \
    classpick --simulate --sample in --classes "$TMP/t1c.csv" --tenants "$TMP/t1t.csv" --series "$TMP/t1s.csv" --servers "$TMP/srv-typo.csv" --jobs 5 -o /dev/null
t "simulate: ... -q: no warning" 0 '' '' '' \
    classpick -q --simulate --sample in --classes "$TMP/t1c.csv" --tenants "$TMP/t1t.csv" --series "$TMP/t1s.csv" --servers "$TMP/srv-typo.csv" --jobs 5 -o /dev/null
printf 'tenant,servers\nA,2.5\n' > "$TMP/srv-frac.csv"
t "simulate: --servers 2.5 is not whole servers" 65 '' '' "classpick: $TMP/srv-frac.csv:2: column 'servers': '2.5' is not a whole number of servers" \
    classpick --simulate --sample in --classes "$TMP/t1c.csv" --tenants "$TMP/t1t.csv" --series "$TMP/t1s.csv" --servers "$TMP/srv-frac.csv" --jobs 5 -o /dev/null
t "simulate: tenant with an unknown class" 65 '' '' "class 'nope-1' is not in --classes" sh -c 'printf "tenant,pattern,class,avg,peak,strength\nA,constant,nope-1,0.1,0.1,0\n" > "$1/bad.csv" && classpick --simulate --classes "$2" --tenants "$1/bad.csv" --series "$3"' _ "$TMP" "$TMP/simc.csv" "$D/simseries.csv"

# ---- --sample out (default) / in ----------------------------------------------
# one 1-server tenant over 2 days of 2-minute ticks: idle (util 0) on day 1,
# at 0.9 on day 2.  12 cores, 4 reserved: idle leaves 8 cores to harvest;
# at 0.9 the primary takes ceil(10.8) = 11, so nothing is left.  Out of
# sample (the default) replays day 2 only: no task can ever start.  In
# sample replays both days: the jobs that arrive on day 1 run.
awk 'BEGIN { print "tenant,t,util"; for (k = 0; k < 1440; k++) print "A," 1767571200 + 120 * k "," (k < 720 ? 0 : 0.9) }' >"$TMP/split.csv"
printf 'tenant,pattern,class,avg,peak,strength\nA,constant,constant-1,0,0,0\n' >"$TMP/split-t.csv"
printf 'class,pattern,avg_util,peak_util,servers\nconstant-1,constant,0,0,1\n' >"$TMP/split-c.csv"
SPLIT="classpick --simulate --classes $TMP/split-c.csv --tenants $TMP/split-t.csv --series $TMP/split.csv --jobs 20 --tasks 2"
t "--sample out: says what it replays" 0 '' '*' 'classpick: out of sample: replaying from 1767657600 (720 ticks of history before it)' \
    $SPLIT -o "$TMP/split-out.csv"
tcheck "--sample out: day 2 has no room, no task starts" awk -F, 'NR > 1 { n++; if ($4 != 0 || $3 != 0) bad = 1 } END { exit bad || n != 2 }' "$TMP/split-out.csv"
tcheck "--sample in: day 1 is replayed too, tasks start" bash -c "$SPLIT -q --sample in | awk -F, 'NR > 1 { n++; if (\$4 == 0) bad = 1 } END { exit bad || n != 2 }'"
t "--split: first replayed time" 0 '' '*' 'replaying from 1767574800 (30 ticks of history before it)' \
    $SPLIT --split 2026-01-05T01:00:00Z -o /dev/null
t "--split outside the series" 65 '' '' 'leaves nothing to replay or no history' $SPLIT --split 2027-01-01
t "--split with --sample in" 64 '' '' '--split needs --sample out' $SPLIT --sample in --split 2026-01-05T01:00:00Z
tcheck "primary_util: day 2 only out of sample (0.9), both days in sample (0.45)" bash -c "
    awk -F, 'NR > 1 { d = \$9 - 0.9; if (d > 1e-6 || d < -1e-6) exit 1 }' '$TMP/split-out.csv' &&
    $SPLIT -q --sample in | awk -F, 'NR > 1 { d = \$9 - 0.45; if (d > 1e-6 || d < -1e-6) exit 1; n++ } END { exit n != 2 }'"

# ---- examples/harvest-scheduling.sh at a small size ----------------------------------
t "harvest-scheduling.sh runs (small)" 0 '' '*' '' env TENANTS=6 SEEDS="1 2" LINEAR="1" ROOT="2" \
    bash "$ROOT/examples/harvest-scheduling.sh" "$TMP/hs"
tcheck "harvest-scheduling: 2 points x 2 seeds x 2 policies, one job stream" awk -F, '
    NR > 1 { n++; j[$5] = 1 } END { exit !(n == 8 && length(j) == 1) }' "$TMP/hs/runs.csv"
# sqrt(u) >= u on [0, 1]: root scaling with n = 2 raises the mean utilization
tcheck "harvest-scheduling: root 2 raises the primary utilization" awk -F, '
    NR > 1 && $1 == "linear" { a = $12 } NR > 1 && $1 == "root" { b = $12 } END { exit !(a > 0 && b > a) }' "$TMP/hs/runs.csv"

# ---- --on-error skip (issue 18): a bad row is skipped, counted and reported;
# the picks equal those of the file without it (the default stays strict)
printf 'job,last_duration,containers\na,60,60\nbad,1x,5\nb,60,60\n' >"$TMP/skip-bad.csv"
printf 'job,last_duration,containers\na,60,60\nb,60,60\n' >"$TMP/skip-good.csv"
t "skip: strict by default" 65 '' '*' "skip-bad.csv:3: column 'last_duration'" classpick -q --classes "$C" "$TMP/skip-bad.csv"
tcheck "skip: same picks as without the row" bash -c 'cmp <(classpick -q --classes "$1" "$2") <(classpick -q --on-error skip --rejects "$4" --classes "$1" "$3")' _ "$C" "$TMP/skip-good.csv" "$TMP/skip-bad.csv" "$TMP/skip-rej.csv"
tcheck "skip: the row is in the rejects" grep -q 'skip-bad.csv,3,' "$TMP/skip-rej.csv"

# a bad row late in the jobs: nothing on standard output (the decisions before it were printed)
t "late duplicate job: stdout empty" 65 $'job,last_duration,containers\nj1,100,5\nj1,100,5\n' '' "classpick: <stdin>:3: duplicate job 'j1' (first at line 2)" \
    classpick -q --classes "$C"
t "late bad containers: stdout empty" 65 $'job,last_duration,containers\nj1,100,5\nj2,100,x\n' '' "<stdin>:3: column 'containers'" \
    classpick -q --classes "$C"
# --current: a class given twice is an error (it was "the last row wins", silently)
t "--current: duplicate class" 65 '' '' "classpick: $TMP/curdup.csv:3: duplicate class 'periodic-1' (first at line 2)" \
    sh -c 'printf "class,current_util\nperiodic-1,0.1\nperiodic-1,0.9\n" > "$1/curdup.csv" && classpick -q --classes "$2" --current "$1/curdup.csv" "$3"' _ "$TMP" "$C" "$D/jobs.csv"
# --current: a row without its class names the column, as every reader does
# (it said "class '' is not in --classes": fuzz round 13)
t "--current: blank class" 65 '' '' "classpick: $TMP/curblank.csv:3: column 'class': missing value" \
    sh -c 'printf "class,current_util\nperiodic-1,0.1\n,0.9\n" > "$1/curblank.csv" && classpick -q --classes "$2" --current "$1/curblank.csv" "$3"' _ "$TMP" "$C" "$D/jobs.csv"
t "--split beyond 1e11 s: 64 (was a 300-digit time in the message)" 64 '' '' "invalid value for --split: '1e300'" \
    classpick --simulate --split 1e300 --classes "$C"
# --servers in --simulate: the one reader tenantclass uses (a tenant listed twice was "last wins", 1e308
# servers made primary_util empty (NaN) and the job stream one job)
t "simulate --servers: duplicate tenant" 65 '' '' "classpick: $TMP/srvdup.csv:4: duplicate tenant 'A' (first at line 2)" \
    sh -c '{ cat "$1"; sed -n 2p "$1"; } > "$2/srvdup.csv" && classpick -q --simulate --sample in --classes "$2/simc.csv" --tenants "$2/simo.csv" --series "$3" --servers "$2/srvdup.csv"' \
    _ "$D/simservers.csv" "$TMP" "$D/simseries.csv"
t "simulate --servers: 1e308 servers" 65 '' '' "classpick: $TMP/srvbig.csv:2: column 'servers': '1e308' is too large (at most 1e+08)" \
    sh -c 'sed "2s/,[0-9]*\$/,1e308/" "$1" > "$2/srvbig.csv" && classpick -q --simulate --sample in --classes "$2/simc.csv" --tenants "$2/simo.csv" --series "$3" --servers "$2/srvbig.csv"' \
    _ "$D/simservers.csv" "$TMP" "$D/simseries.csv"
# fuzz round 9 (2026-11-29), by hand beside classpick-sim.  A tenant's rows
# out of time order: a tick took the last sample by file order, not by time
# (t1s with the rows of 120 s, util 0, and 60 s, util 1, swapped: tick 120
# took util 1, primary_util 2/101 instead of 1/101).  Now a bad row.
awk 'NR == 3 { l = $0; next } NR == 4 { print; print l; next } { print }' "$TMP/t1s.csv" >"$TMP/t1swap.csv"
t "simulate: a tenant's rows out of time order" 65 '' '' \
    "classpick: $TMP/t1swap.csv:4: tenant 'A': time 60 is before its previous sample (120); sort each tenant's rows by time" \
    classpick -q --simulate --sample in --classes "$TMP/t1c.csv" --tenants "$TMP/t1t.csv" --series "$TMP/t1swap.csv" --jobs 5
tcheck "simulate: ... skipped with --on-error skip: primary_util 1/101 as without the row" bash -c '
    classpick -q --on-error skip --simulate --sample in --classes "$1/t1c.csv" --tenants "$1/t1t.csv" --series "$1/t1swap.csv" --jobs 5 |
    awk -F, "NR > 1 && \$9 != 1 / 101 { bad = 1 } NR > 1 { n++ } END { exit bad || n != 2 }"' _ "$TMP"
# The killed-tasks change in percent needs kills to compare with: yarn-pt
# killed none and class-aware 2, and the summary said "(+0.0%)".
printf 'class,pattern,avg_util,peak_util,tenants,servers\nconstant-1,constant,0.2,0.3,1,4\nperiodic-1,periodic,0.3,0.8,1,4\nunpredictable-1,unpredictable,0.2,0.9,1,2\n' >"$TMP/k0c.csv"
printf 'tenant,pattern,class,avg,peak,strength\nA,constant,constant-1,0.2,0.3,0\nB,periodic,periodic-1,0.3,0.8,0.5\nC,unpredictable,unpredictable-1,0.2,0.9,0\n' >"$TMP/k0t.csv"
printf 'tenant,servers\nA,4\nB,4\nC,2\n' >"$TMP/k0srv.csv"
printf 'tenant,t,util\nA,0,0.2\nA,600,0.1\nA,3000,0.9\nB,0,0\nC,0,0\nC,3600,0\n' >"$TMP/k0s.csv"
t "simulate: no percent change of kills when yarn-pt killed none" 0 '' '*' \
    "classpick: killed tasks: yarn-pt 0, class-aware 2; mean job time" \
    classpick --simulate --sample in --classes "$TMP/k0c.csv" --tenants "$TMP/k0t.csv" --servers "$TMP/k0srv.csv" \
    --series "$TMP/k0s.csv" --step 10m --jobs 20 --tasks 4 -o /dev/null
t "class table: 1e308 servers (room was inf: any demand fit)" 65 $'job,containers\nj,1e300\n' '' "classpick: $TMP/bigcls.csv:2: column 'servers': '1e308' is too large (at most 1e+12)" \
    sh -c 'printf "class,pattern,avg_util,peak_util,tenants,servers\nc1,constant,0.2,0.5,1,1e308\n" > "$1/bigcls.csv" && classpick -q --classes "$1/bigcls.csv"' _ "$TMP"
# peak_util below avg_util (swapped columns?) gave long jobs more room than
# medium ones: a bad row (tenantclass writes peak_util >= avg_util, see
# tenantclass.sh "spiky tenant"); skippable like any bad class row.
printf 'class,pattern,avg_util,peak_util,servers\nc1,constant,0.2,0.5,10\nc2,periodic,0.5,0.4,10\n' > "$TMP/lowpeak.csv"
t "class table: peak_util below avg_util refused" 65 $'job,containers\nj,1\n' '' \
    "classpick: $TMP/lowpeak.csv:3: peak_util '0.4' is below avg_util '0.5' (a class's peak is at least its average)" \
    classpick -q --classes "$TMP/lowpeak.csv"
t "class table: peak_util below avg_util skipped" 0 $'job,last_duration,containers\nj,1h,1\n' \
    $'job,type,demand,classes,reason\nj,long,1,c1,fits in 1 of 1 classes; drawn by weighted headroom' '' \
    classpick -q --on-error skip --rejects "$TMP/lowpeak-rej.csv" --classes "$TMP/lowpeak.csv"
t "class table: peak_util equal to avg_util accepted" 0 $'job,containers\nj,1\n' '*' '' \
    sh -c 'printf "class,pattern,avg_util,peak_util,servers\nc1,constant,0.3,0.3,10\n" > "$1/eqpeak.csv" && classpick -q --classes "$1/eqpeak.csv"' _ "$TMP"

# skyfit: the skyline LP.  Hand-worked cases (derivations in docs/skyfit.md),
# random instances checked against glpsol on the plain MathProg model
# (tests/check/skyline.mod via tests/check/skyline_check.py), the Hadoop
# ResourceEstimator fixtures, and bad input.
D="$ROOT/tests/data/skyfit"
H="$DATA/hadoop-resourceestimator"
PY=/usr/bin/python3
CHECK="$ROOT/tests/check/skyline_check.py"
MOD="$ROOT/tests/check/skyline.mod"
HDR='job,step,offset,alloc'

# ---- hand-checked tiny cases -------------------------------------------------
# one run, alpha small: the fit is the run itself (objective 0, so beta = 0)
t "one run: fit equals the run" 0 "@$D/one_run.csv" "$HDR
a,60,0,3
a,60,60,5
a,60,120,0
a,60,180,2" '' skyfit -q --min-runs 1
t "one run, plain LP" 0 "@$D/one_run.csv" "$HDR
a,60,0,3
a,60,60,5
a,60,120,0
a,60,180,2" '' skyfit -q --min-runs 1 --solver glpk-plain
# three identical runs (ISO times, one started 30 s into its minute)
t "identical runs: fit equals them" 0 "@$D/identical.csv" "$HDR
q,60,0,2
q,60,60,7
q,60,120,7
q,60,180,1" '' skyfit -q
# busy 4,4,4 and an all-zero run: each container below 4 saves 0.99/2 of debt
# and costs 0.01/2 of over-allocation, so s = 4,4,4; V = 0.01/2 * 12 = 0.06,
# eps = 0 there, so phase 2 keeps it.  The idle run has no eps term (0/0).
t "run with zeros" 0 "@$D/zero_run.csv" "$HDR
z,60,0,4
z,60,60,4
z,60,120,4" '' skyfit -q --stats "$TMP/zero.csv"
tcheck "run with zeros: stats" grep -qx 'z,2,3,0.06,6,0,0,0.006,[0-9.]*,optimal,0,,busy,0,' "$TMP/zero.csv"
# late = 0,4 and early = 4,0, alpha 0.5, beta 0: on [0,4]^2 the objective is
# 2 - b/4 when a + b <= 4 and 1 + a/4 otherwise, so s = (0,4) with objective 1:
# early's debt of 4 after step 1 is caught up in step 2 (a_o 2, a_u 0, eps 0.5).
t "catch-up of debt" 0 "@$D/catchup.csv" "$HDR
c,60,0,0
c,60,60,4" '' skyfit -q --alpha 0.5 --beta 0 --stats "$TMP/catchup.csv"
tcheck "catch-up stats" grep -qx 'c,2,2,1,2,0,0.5,0,[0-9.]*,optimal,0,,late,0,' "$TMP/catchup.csv"
t "catch-up, plain LP" 0 "@$D/catchup.csv" "$HDR
c,60,0,0
c,60,60,4" '' skyfit -q --alpha 0.5 --beta 0 --solver glpk-plain
# alpha 1: only over-allocation counts; V = 0 so beta = 0, and the only
# allocations with A_o = 0 lie under every run: here (0,0).
t "alpha 1" 0 "@$D/catchup.csv" "$HDR
c,60,0,0
c,60,60,0" '' skyfit -q --alpha 1
# alpha 0: only the final debt counts; any optimum leaves no debt in any run.
tcheck "alpha 0: no final debt" bash -c '
    skyfit -q --alpha 0 --stats "$2/a0.csv" "$1/catchup.csv" > "$2/a0.out" &&
    grep -q "^c,2,2,0,[^,]*,0,[^,]*,0,[0-9.]*,optimal,0,,late,0,$" "$2/a0.csv" &&
    awk -F, "NR>1 { a[NR-1] = \$4 } END {
        d1 = 0; d1 = d1 + 0 - a[1]; if (d1 < 0) d1 = 0; d1 = d1 + 4 - a[2]; if (d1 < 0) d1 = 0;
        d2 = 0; d2 = d2 + 4 - a[1]; if (d2 < 0) d2 = 0; d2 = d2 + 0 - a[2]; if (d2 < 0) d2 = 0;
        exit !(d1 < 1e-9 && d2 < 1e-9) }" "$2/a0.out"' _ "$D" "$TMP"
# cores and mem_mb: container-weighted means (1 x <2,4096> and 3 x <4,8192>)
t "container shape" 0 "@$D/shape.csv" "job,step,offset,alloc,cores,mem_mb
m,60,0,1,3.5,7168
m,60,60,3,3.5,7168" '' skyfit -q
# ... over the runs fitted only (review, 2026-12-04: it averaged every row
# of the job, so a job resized from <2, 4096> to <8, 16384> two days ago
# kept the old size in the mean under --window, and a straggler left out
# by the outlier rule set the shape of the normal runs).  Worked by hand:
# r1, r2 at <2, 4096>, r3, r4 at <8, 16384>, a day apart, 4 containers for
# 2 steps each: --last 2 and --window 1d keep r3 and r4, <8, 16384>; all
# four: (8 x 2 + 8 x 8) / 16 = 5 cores, 10240 MB
{ echo job,run,t,containers,cores,mem_mb
  for r in 1 2 3 4; do c=2 m=4096; [ $r -ge 3 ] && c=8 m=16384
      for s in 0 60; do echo "z,r$r,$(( (r - 1) * 86400 + s )),4,$c,$m"; done; done; } > "$TMP/resized.csv"
t "shape of the runs fitted: --last 2" 0 "@$TMP/resized.csv" 'z,60,0,4,8,16384' '' \
    sh -c 'skyfit -q --last 2 | sed -n 2p'
t "shape of the runs fitted: --window 1d" 0 "@$TMP/resized.csv" 'z,60,0,4,8,16384' '' \
    sh -c 'skyfit -q --window 1d | sed -n 2p'
t "shape of the runs fitted: all four" 0 "@$TMP/resized.csv" 'z,60,0,4,5,10240' '' \
    sh -c 'skyfit -q | sed -n 2p'
# a straggler the outlier rule leaves out: nine runs of 1 container <1,
# 1024> for 2 steps, r9 16 containers <16, 65536> for 20 steps: r9 is
# excluded (its length), and the shape is the nine's, <1, 1024>
{ echo job,run,t,containers,cores,mem_mb
  for r in 0 1 2 3 4 5 6 7 8; do for s in 0 60; do echo "o,r$r,$(( r * 3600 + s )),1,1,1024"; done; done
  for s in $(seq 0 60 1140); do echo "o,r9,$(( 9 * 3600 + s )),16,16,65536"; done; } > "$TMP/strag1.csv"
t "shape of the runs fitted: a straggler left out" 0 "@$TMP/strag1.csv" $'o,60,0,1,1,1024\no,1,r9' '' \
    sh -c 'skyfit -q --stats "$1/strag1.st" | sed -n 2p && awk -F, "NR > 1 { print \$1 \",\" \$11 \",\" \$12 }" "$1/strag1.st"' _ "$TMP"
# --last and --window pick runs by start time; mean and max within a step
t "last run, mean" 0 "@$D/window.csv" "$HDR
w,60,0,3
w,60,60,3" '' skyfit -q --last 1 --min-runs 1
t "last run, max" 0 "@$D/window.csv" "$HDR
w,60,0,4
w,60,60,3" '' skyfit -q --last 1 --min-runs 1 --agg max
t "window drops the old run" 0 "@$D/window.csv" '*' '' skyfit -q --window 1d --stats "$TMP/win.csv"
tcheck "window: 2 runs used" grep -q '^w,2,2,' "$TMP/win.csv"
t "round up" 0 $'job,run,t,containers\nr,a,0,1.2\nr,a,60,2\nr,b,0,1.2\nr,b,60,2\n' "$HDR
r,60,0,2
r,60,60,2" '' skyfit -q --round
t "step 2m" 0 $'job,run,t,containers\nr,a,0,1\nr,a,60,3\nr,a,120,5\nr,b,0,1\nr,b,60,3\nr,b,120,5\n' "$HDR
r,120,0,2
r,120,120,5" '' skyfit -q --step 2m
# A sample a whole number of steps after the run's first, in decimal text,
# starts that step whatever the doubles round to: 8150.005 and 8210.005 are
# 59.99999999999909 s apart as doubles (either side of 8192), and the second
# sample fell into the first step (one step of 1.5); so did 8216842.736 ms
# after 8156842.736 ms (traceconv google-usage writes such times).
for c in '8150.005 8210.005' '8150 8210' '8156.842736 8216.842736' '8156842.736 8216842.736 --time-unit ms'; do
    set -- $c
    t "samples $1 and $2${3:+ $3 $4}: two steps" 0 "job,run,t,containers
r,a,$1,1
r,a,$2,2" "$HDR
r,60,0,1
r,60,60,2" '' skyfit -q --min-runs 1 $3 $4
done
t "renamed columns" 0 $'pipe,attempt,time,used\np,a,0,2\np,b,0,2\n' "$HDR
p,60,0,2" '' skyfit -q --job-col pipe --run-col attempt --t-col time --col containers=used
t "summary on stderr" 0 "@$D/identical.csv" '*' 'skyfit: 1 jobs: 1 fitted' skyfit

# ---- the LP optimum against glpsol on the plain model ------------------------
tcheck "random instances vs glpsol (network)" $PY "$CHECK" skyfit "$MOD" "$TMP/chk1" 14
# objectives to 1e-9 against glpsol --exact (rational) on moderate sizes: the
# network simplex's warm-started phase 2 included
tcheck "N=6 x K=40 vs glpsol --exact to 1e-9" $PY "$ROOT/tests/check/skyfit_exact.py" skyfit "$MOD" "$TMP/chk7" 3 6 40
# usage from 1e-4 to 1e11: every solver's certificate may fail on its own
# rounding; the fallback keeps the best answer (lowest exact objective) of
# the solvers tried, checked to 1e-6 against glpsol --exact (150 jobs, 5 of
# them past a failed network certificate)
tcheck "usage over 15 decades vs glpsol --exact to 1e-6" $PY "$ROOT/tests/check/skyfit_exact.py" skyfit "$MOD" "$TMP/chk8" 150 2 5 wide
# the audit's job (runs of one and two samples 480 s apart: a step with no
# sample keeps the value before): both certificates failed and GLPK's plain
# LP was kept, 762214987.6 against the optimum 600167933.9 of glpsol --exact;
# the network's answer, the exact optimum, is kept now
printf 'job,run,t,containers\nj,r0,480,29\nj,r1,100000,7.5021e+10\nj,r2,200180,21\nj,r2,200660,0.0382548\nj,r3,300060,74679.2\nj,r3,300540,0\nj,r4,400000,0.000226457\n' > "$TMP/wide.csv"
tcheck "the audit's 15-decade job: the optimum of glpsol --exact, not GLPK's plain answer" $PY -c '
import csv, subprocess, sys
sys.path.insert(0, sys.argv[1])
from skyfit_exact import evaluate, glpsol_exact
K = 9
use = [[29] + [0] * 8, [7.5021e10] + [0] * 8, [21] * 8 + [0.0382548], [74679.2] * 8 + [0], [0.000226457] + [0] * 8]
out = subprocess.run(["skyfit", "-q", "--keep-outliers", "--stats", sys.argv[3] + ".st", sys.argv[3]],
                     capture_output=True, text=True, check=True).stdout
alloc = [float(r["alloc"]) for r in csv.DictReader(out.splitlines())]
v = glpsol_exact(sys.argv[2], sys.argv[4], use, 0.01, 0.0)
opt = glpsol_exact(sys.argv[2], sys.argv[4], use, 0.01, 0.1 * v)
obj = evaluate(use, alloc, 0.01, 0.1 * v)
assert len(alloc) == K and abs(obj - opt) <= 1e-6 * opt, (alloc, obj, opt)' "$ROOT/tests/check" "$MOD" "$TMP/wide.csv" "$TMP"
# a constant usage: every step is that value exactly (the network's steps are
# differences of potentials: 3.3 came out 3.3000000000000007 and, below
# every run, 3.299999999999998)
t "constant 3.3: exactly 3.3 at every step" 0 \
    $'job,run,t,containers\nj,r1,0,3.3\nj,r1,60,3.3\nj,r1,120,3.3\nj,r1,180,3.3\nj,r2,1000,3.3\nj,r2,1060,3.3\nj,r2,1120,3.3\nj,r2,1180,3.3\n' \
    $'job,step,offset,alloc\nj,60,0,3.3\nj,60,60,3.3\nj,60,120,3.3\nj,60,180,3.3' '' skyfit -q
t "constant 0.3: exactly 0.3 at every step" 0 \
    $'job,run,t,containers\nj,r1,0,0.3\nj,r1,60,0.3\nj,r1,120,0.3\nj,r2,1000,0.3\nj,r2,1060,0.3\nj,r2,1120,0.3\nj,r3,2000,0.3\nj,r3,2060,0.3\nj,r3,2120,0.3\n' \
    $'job,step,offset,alloc\nj,60,0,0.3\nj,60,60,0.3\nj,60,120,0.3' '' skyfit -q
tcheck "random instances vs glpsol (glpk-flow)" $PY "$CHECK" "skyfit --solver glpk-flow" "$MOD" "$TMP/chk4" 4
tcheck "random instances vs glpsol (plain)" $PY "$CHECK" skyfit "$MOD" "$TMP/chk2" 6 --solver glpk-plain
tcheck "random instances vs glpsol, --keep-outliers" $PY "$CHECK" skyfit "$MOD" "$TMP/chk5" 4 --keep-outliers
tcheck "random instances vs glpsol, --outlier-k 1.5" $PY "$CHECK" skyfit "$MOD" "$TMP/chk6" 4 --outlier-k 1.5
# The warm start of phase 2 gave a hinge at its lower bound its beta part
# twice (the arc's capacity grown and a parallel arc added), and the
# certificate accepted a bound above the objective: on this job (tracegen
# usage --seed 1 --count 1000 --days 30, job00196: 684 runs of 5 steps) the
# network's fit was 6e-6 above the optimum (1.86347728 against 1.86346614),
# 8 fits of those 1,000 jobs were off by 5e-9 to 6e-6.  Now the optimum of
# GLPK on the flow form, to 1e-9, without falling back to it; with a prior
# too (its arcs join the warm start).
WP="$D/warm_parallel.csv.gz"
objs_agree() {   # objs_agree A.st B.st: every job's objective + prior_cost agree to 1e-9 relative
    paste -d, "$1" "$2" | awk -F, 'NR > 1 { a = $4 + $15; b = $19 + $30; d = a - b; if (d < 0) d = -d
        if (d > 1e-9 * (1 + a) || $10 != "optimal") bad++; n++ } END { exit !(n > 0 && !bad) }'
}
export -f objs_agree
tcheck "warm start: the optimum, to 1e-9, certified (no fallback)" bash -c '
    skyfit --stats "$2/wp1.st" "$1" 2>"$2/wp1.err" >/dev/null && ! grep -q "solved again" "$2/wp1.err" &&
    skyfit -q --solver glpk-flow --stats "$2/wp2.st" "$1" >/dev/null && objs_agree "$2/wp1.st" "$2/wp2.st"' _ "$WP" "$TMP"
tcheck "warm start with a prior: the optimum, to 1e-9, certified" bash -c '
    skyfit -q "$1" | awk -F, -v OFS=, "NR > 1 { \$4 = \$4 * (0.6 + 0.1 * (NR % 7)) } { print }" > "$2/wp.prior" &&
    skyfit --prior "$2/wp.prior" --prior-weight 0.5 --stats "$2/wp3.st" "$1" 2>"$2/wp3.err" >/dev/null &&
    ! grep -q "solved again" "$2/wp3.err" &&
    skyfit -q --solver glpk-flow --prior "$2/wp.prior" --prior-weight 0.5 --stats "$2/wp4.st" "$1" >/dev/null &&
    objs_agree "$2/wp3.st" "$2/wp4.st"' _ "$WP" "$TMP"
# Outlier runs (skyfit(1)): five runs of 2 steps at 3 containers and one
# straggler of 6 steps.  Lengths 2,2,2,2,2,6: median 2, MAD 0, spread
# max(0, 0.1*2, half a step) = 0.5, bound 2 + 3*0.5 = 3.5, so run s (6 steps)
# is out and the fit is the five identical runs: 3,3.
OUTL=$'job,run,t,containers\no,a,0,3\no,a,60,3\no,b,0,3\no,b,60,3\no,c,0,3\no,c,60,3\no,d,0,3\no,d,60,3\no,e,0,3\no,e,60,3\no,s,0,3\no,s,60,3\no,s,120,3\no,s,180,3\no,s,240,3\no,s,300,3\n'
t "outlier run kept out of the fit" 0 "$OUTL" "$HDR
o,60,0,3
o,60,60,3" 'skyfit: 1 outlier runs of 1 jobs kept out of the fit (median + 3 spreads; listed in --stats)' skyfit --stats "$TMP/outl.csv"
tcheck "outlier run listed in --stats" grep -q '^o,5,2,.*,optimal,1,s,a,0,$' "$TMP/outl.csv"
# Quantized lengths: runs of 1 and 2 steps in about equal numbers (3 of 1
# step, 2 of 2 at 1 container).  Median 1, MAD 0, spread max(0, 0.1, 0.5) =
# 0.5, bound 1 + 1.5 = 2.5: no run is out (without the half-step floor the
# bound would be 1.3 and both 2-step runs would leave the fit); areas 1,1,1,
# 2,2 likewise.  Over-allocation is cheap, so the fit covers them: 1,1.
t "quantized lengths: no outliers below half a step" 0 \
    $'job,run,t,containers\nq,a,0,1\nq,b,0,1\nq,c,0,1\nq,d,0,1\nq,d,60,1\nq,e,0,1\nq,e,60,1\n' "$HDR
q,60,0,1
q,60,60,1" '' skyfit -q --stats "$TMP/quant.csv"
tcheck "quantized lengths: nothing excluded" grep -q '^q,5,2,.*,optimal,0,,' "$TMP/quant.csv"
# Long and large are two bounds; each marks fewer than half the runs, their
# union may not.  Five runs: a, b 10 steps at 0.1 containers (area 1), c, d
# 1 step at 100, e 1 step at 1.  Lengths 10,10,1,1,1: median 1, MAD 0,
# spread 0.5, bound 2.5: a, b long.  Areas 1,1,100,100,1: bound 2.5: c, d
# large.  4 of 5 runs off the norm is no norm: none is left out (before, the
# job was fitted from run e alone, below --min-runs).
UNION=$'job,run,t,containers\n'$(for r in a b; do for i in $(seq 0 9); do printf 'u,%s,%d,0.1\\n' $r $((i * 60)); done; done)$'u,c,0,100\nu,d,0,100\nu,e,0,1\n'
t "outliers: long and large together half the runs or more: none left out" 0 "$(printf "$UNION")" '*' '' skyfit -q --stats "$TMP/union.csv"
tcheck "outliers: the union case fits all five runs" grep -q '^u,5,10,.*,optimal,0,,' "$TMP/union.csv"
# --stats counts excluded runs, not the ';' in their names (a run named
# 'r;5' counted as 2).  Six runs of 2 steps, r;5 of 6: r;5 is out.
SEMI=$'job,run,t,containers\n'$(for r in 0 1 2 3 4; do printf 'm,r;%d,%d,1\\nm,r;%d,%d,1\\n' $r $((r * 1000)) $r $((r * 1000 + 60)); done; for i in 0 1 2 3 4 5; do printf 'm,r;5,%d,1\\n' $((9000 + i * 60)); done)
t "outliers: a run name with ';'" 0 "$(printf "$SEMI")" '*' '' skyfit -q --stats "$TMP/semi.csv"
tcheck "outliers: --stats counts one excluded run named 'r;5'" grep -q '^m,5,2,.*,optimal,1,r;5,' "$TMP/semi.csv"
# --keep-outliers: six runs; over-allocation costs 0.01/6 per container-step,
# the straggler's debt 0.99/6, so the fit covers it: 3 for all 6 steps.
t "--keep-outliers fits the straggler" 0 "$OUTL" "$HDR
o,60,0,3
o,60,60,3
o,60,120,3
o,60,180,3
o,60,240,3
o,60,300,3" '' skyfit -q --keep-outliers
# a bound of 2 + 20*0.2 = 6 steps: the 6-step run is not above it
t "--outlier-k 20 keeps it" 0 "$OUTL" '*' '' skyfit -q --outlier-k 20 --stats "$TMP/outl20.csv"
tcheck "--outlier-k 20: nothing excluded" grep -q '^o,6,6,.*,optimal,0,,s,0,$' "$TMP/outl20.csv"
t "bad --outlier-k" 64 '' '' "invalid value for --outlier-k" skyfit --outlier-k 0

# ---- --runs: run lengths to the second for the outlier rule -----------------
# straggler_usage.csv: job s, ten runs a..j of 67,60,144,60,189,60,69,60,64,64
# s (straggler_runs.csv: start, end), sampled every 60 s from the start as
# tracegen does, so they span 2,1,3,1,4,1,2,1,2,2 steps of 1 container.
# In steps: sorted 1,1,1,1,2,2,2,2,3,4, median 2, MAD 1, spread max(1.4826,
# 0.2, 0.5) = 1.4826, bound 2 + 3 x 1.4826 = 6.45 steps: run e (4 steps, the
# 189 s straggler) stays in and the skyline is 4 steps long.  The areas
# (container-steps) are the same numbers, so nothing is out by area.
# In seconds (--runs): sorted 60,60,60,60,64,64,67,69,144,189, median 64,
# deviations 0,0,3,4,4,4,4,5,80,125, MAD 4, spread max(1.4826 x 4, 6.4, 30
# (half a step)) = 30, bound 64 + 3 x 30 = 154 s: e is out, c (144 s, 3
# steps) stays and sets the length, 3 steps.  Each step has a run using 1
# container and its debt (0.99) outweighs over-allocation (0.01): alloc 1.
SU="$D/straggler_usage.csv" SR="$D/straggler_runs.csv"
t "steps cannot separate the straggler" 0 "@$SU" "$HDR
s,60,0,1
s,60,60,1
s,60,120,1
s,60,180,1" '' skyfit -q --stats "$TMP/sr0.csv"
tcheck "steps: nothing excluded, e sets the length" grep -q '^s,10,4,.*,optimal,0,,e,0,$' "$TMP/sr0.csv"
t "--runs: seconds separate it" 0 "@$SU" "$HDR
s,60,0,1
s,60,60,1
s,60,120,1" "skyfit: outlier rule: 10 of 10 run lengths recorded in $SR (end - start), the rest from their samples (steps x step)" \
    skyfit --runs "$SR" --stats "$TMP/sr1.csv"
tcheck "--runs: e excluded, c sets the length, 10 recorded" grep -q '^s,9,3,.*,optimal,1,e,c,10,$' "$TMP/sr1.csv"
# fallback: e without an end (still running) is measured by its samples,
# 4 steps = 240 s > 154: still out; 9 lengths recorded
sed 's/^\(s,e,[0-9]*,[0-9]*\),[0-9]*,ok$/\1,,ok/' "$SR" > "$TMP/sr_noend.csv"
t "--runs: a run without an end falls back" 0 "@$SU" '*' '' skyfit -q --runs "$TMP/sr_noend.csv" --stats "$TMP/sr2.csv"
tcheck "--runs: no end: 9 recorded, e out" grep -q '^s,9,3,.*,optimal,1,e,c,9,$' "$TMP/sr2.csv"
# fallback: c missing from the table is 3 steps = 180 s (its samples round
# its 144 s up) > 154: out with e; median and MAD stay 64 and 4 (the sorted
# lengths 60,60,60,60,64,64,67,69,180,189), a (2 steps) sets the length
grep -v '^s,c,' "$SR" > "$TMP/sr_noc.csv"
t "--runs: a run missing from the table falls back" 0 "@$SU" "$HDR
s,60,0,1
s,60,60,1" '' skyfit -q --runs "$TMP/sr_noc.csv" --stats "$TMP/sr3.csv"
tcheck "--runs: missing c: 9 recorded, c and e out" grep -q '^s,8,2,.*,optimal,2,c;e,a,9,$' "$TMP/sr3.csv"
# a table without any of the job's runs: the same fit as without --runs
tcheck "--runs without the job's runs: as without --runs" bash -c '
    printf "job,instance,start,end\ns,zz,0,60\n" > "$2/other.csv" &&
    skyfit -q "$1" > "$2/o1.csv" && skyfit -q --runs "$2/other.csv" "$1" > "$2/o2.csv" && cmp "$2/o1.csv" "$2/o2.csv"' _ "$SU" "$TMP"
# renamed columns (--col runs:KEY=NAME), ISO 8601 times, extra columns ignored
t "--runs: renamed columns, ISO times" 0 "@$SU" '*' '' skyfit -q --col runs:instance=id --col runs:end=finish \
    --runs "$D/straggler_runs_iso.csv" --stats "$TMP/sr4.csv"
tcheck "--runs: renamed, ISO: e out" grep -q '^s,9,3,.*,optimal,1,e,c,10,$' "$TMP/sr4.csv"
# -s (rows in reverse order) and input split by job give the same output
tcheck "--runs: -s gives the same output" bash -c '
    { head -1 "$1"; tail -n +2 "$1" | tac; } > "$3/rev.csv" &&
    skyfit -q --runs "$2" "$1" > "$3/g.csv" && skyfit -q -s --runs "$2" "$3/rev.csv" > "$3/s.csv" &&
    cmp "$3/g.csv" "$3/s.csv"' _ "$SU" "$SR" "$TMP"
tcheck "--runs: split by job gives the same output" bash -c '
    cat "$1" > "$4/two.csv"; tail -n +2 "$3/identical.csv" >> "$4/two.csv"
    skyfit -q --runs "$2" "$4/two.csv" > "$4/two.out" &&
    { skyfit -q --runs "$2" "$1"; skyfit -q --no-output-header --runs "$2" "$3/identical.csv"; } > "$4/split2.out" &&
    cmp "$4/two.out" "$4/split2.out"' _ "$SU" "$SR" "$D" "$TMP"
# the table's errors, at FILE:LINE, before any output
# Two jobs with the same instance names (numbered per job, as sloinfer
# allows): job t is job s's samples, its table rows (listed first) the same
# but c and e swapped: c 189 s, e 144 s.  Same sorted lengths, bound 154 s:
# for t, c is out and e (144 s, 4 steps) stays and sets the length, 4 steps
# of 1 container (the argument above); s as before (e out, 3 steps).
t "--runs: instance names shared by two jobs" 0 '' "$HDR
s,60,0,1
s,60,60,1
s,60,120,1
t,60,0,1
t,60,60,1
t,60,120,1
t,60,180,1" '' sh -c '{ cat "$1"; sed -n "s/^s,/t,/p" "$1"; } > "$3/st_usage.csv"
    { echo job,instance,start,end; sed -n "s/^s,\([a-j]\),[0-9]*,\([0-9]*\),\([0-9]*\),ok$/t,\1,\2,\3/p" "$2" |
      sed -e "s/^t,c,.*/t,c,1767573000,1767573189/" -e "s/^t,e,.*/t,e,1767574800,1767574944/"
      sed -n "s/^s,\([a-j]\),[0-9]*,\([0-9]*\),\([0-9]*\),ok$/s,\1,\2,\3/p" "$2"; } > "$3/st_runs.csv"
    skyfit -q --runs "$3/st_runs.csv" --stats "$3/st.csv" "$3/st_usage.csv"' _ "$SU" "$SR" "$TMP"
tcheck "--runs: shared names: s loses e, 3 steps" grep -q '^s,9,3,.*,optimal,1,e,c,10,$' "$TMP/st.csv"
tcheck "--runs: shared names: t loses c, 4 steps" grep -q '^t,9,4,.*,optimal,1,c,e,10,$' "$TMP/st.csv"
tcheck "--runs: shared names: t's c is 189 s" grep -qx 't,c,1767573000,1767573189' "$TMP/st_runs.csv"
# --time-unit ms applies to the runs table as to the usage's t: the same
# straggler case in ms gives the same stats (e out, 3 steps); read in
# seconds, its times would be out of range (exit 65)
t "--runs --time-unit ms: the table in ms too" 0 '' '*' '' sh -c '
    awk -F, -v OFS=, "NR > 1 { \$3 = \$3 * 1000 } 1" "$1" > "$3/su_ms.csv"
    awk -F, -v OFS=, "NR > 1 { \$4 = \$4 * 1000; \$5 = \$5 * 1000 } 1" "$2" > "$3/sr_ms.csv"
    skyfit -q --time-unit ms --runs "$3/sr_ms.csv" --stats "$3/srms.csv" "$3/su_ms.csv"' _ "$SU" "$SR" "$TMP"
tcheck "--runs --time-unit ms: e out, 3 steps" grep -q '^s,9,3,.*,optimal,1,e,c,10,$' "$TMP/srms.csv"
tcheck "--runs --time-unit ms: the table is in ms" grep -q '^s,e,1767574795,1767574800000,1767574989000,ok$' "$TMP/sr_ms.csv"
# a runs table in seconds beside a usage in ms (--time-unit ms reaches both):
# read in ms it is 1970, each run's start 20438 days before its samples; it
# was taken without a word, its lengths a thousandth (audit, session 31)
t "--runs: a table in another unit is refused" 65 '' '' \
    "skyfit: $SR:2: run 'a' of job 's' starts at 1970-01-21T10:59:31Z, 20438 days before its first usage sample at 2026-01-05T00:00:00Z, and 9 more runs are over a day off theirs: the runs table's times are not the usage's (another unit or clock? --time-unit applies to both)" \
    skyfit -q --time-unit ms --runs "$SR" "$TMP/su_ms.csv"
# a start off its samples by more than a day plus the run's length is not the
# same run; a clock two hours apart is (the lengths are the same)
t "--runs: one run 25 hours off is refused" 65 "@$SU" '' \
    "skyfit: $TMP/sr_day.csv:4: run 'c' of job 's' starts at 2026-01-06T01:30:00Z, 25 hours after its first usage sample at 2026-01-05T00:30:00Z: the runs table's times are not the usage's" \
    sh -c 'awk -F, -v OFS=, "NR > 1 && \$2 == \"c\" { \$4 += 90000; \$5 += 90000 } 1" "$1" > "$2/sr_day.csv" &&
        skyfit -q --runs "$2/sr_day.csv"' _ "$SR" "$TMP"
tcheck "--runs: a table two hours off gives the same skylines" bash -c '
    awk -F, -v OFS=, "NR > 1 { \$4 += 7200; \$5 += 7200 } 1" "$2" > "$3/sr_late.csv" &&
    cmp <(skyfit -q --runs "$3/sr_late.csv" "$1") <(skyfit -q --runs "$2" "$1")' _ "$SU" "$SR" "$TMP"
# samples of a run at one t are summed in the order of their values: the
# same bytes whatever their order in the input (they differed in the last
# digits: 0.20000000000000004 against 0.19999999999999998)
tcheck "samples at one t: the same sum in any order" bash -c '
    printf "job,run,t,containers\nj,r1,0,0.1\nj,r1,0,0.2\nj,r1,0,0.3\nj,r2,3600,0.1\nj,r2,3600,0.2\nj,r2,3600,0.3\n" > "$1/m1.csv"
    printf "job,run,t,containers\nj,r1,0,0.3\nj,r1,0,0.2\nj,r1,0,0.1\nj,r2,3600,0.3\nj,r2,3600,0.2\nj,r2,3600,0.1\n" > "$1/m2.csv"
    cmp <(skyfit -q "$1/m1.csv") <(skyfit -q "$1/m2.csv")' _ "$TMP"
# --keep-outliers: the table is read, the summary says no rule ran
t "--runs --keep-outliers: the rule is off" 0 "@$SU" '*' \
    "skyfit: outlier rule off (--keep-outliers): the run lengths in $SR are not used" \
    skyfit --keep-outliers --runs "$SR"
tcheck "--runs --keep-outliers: no outlier-rule count line" bash -c '
    ! skyfit --keep-outliers --runs "$2" "$1" 2>&1 >/dev/null | grep -q "run lengths recorded"' _ "$SU" "$SR"
H3='job,instance,start,end'
t "--runs: duplicate instance" 65 "@$SU" '' "skyfit: $TMP/r.csv:3: duplicate instance 'a' of job 's' (first at line 2)" \
    sh -c 'printf "%s\ns,a,10,20\ns,a,10,30\n" "$1" > "$2/r.csv"; skyfit --runs "$2/r.csv"' _ "$H3" "$TMP"
t "--runs: missing job" 65 "@$SU" '' "skyfit: $TMP/r.csv:2: column 'job': missing value" \
    sh -c 'printf "%s\n,a,10,20\n" "$1" > "$2/r.csv"; skyfit --runs "$2/r.csv"' _ "$H3" "$TMP"
t "--runs: no job column" 65 "@$SU" '' "skyfit: $TMP/r.csv:1: missing required column 'job'" \
    sh -c 'printf "instance,start,end\na,3,5\n" > "$1/r.csv"; skyfit --runs "$1/r.csv"' _ "$TMP"
t "--runs: end before start" 65 "@$SU" '' "skyfit: $TMP/r.csv:2: end before start (start '10', end '5')" \
    sh -c 'printf "%s\ns,a,10,5\n" "$1" > "$2/r.csv"; skyfit --runs "$2/r.csv"' _ "$H3" "$TMP"
t "--runs: NaN" 65 "@$SU" '' "skyfit: $TMP/r.csv:2: column 'start': invalid time 'nan' (want epoch seconds or ISO 8601 UTC)" \
    sh -c 'printf "%s\ns,a,nan,5\n" "$1" > "$2/r.csv"; skyfit --runs "$2/r.csv"' _ "$H3" "$TMP"
t "--runs: infinite end" 65 "@$SU" '' "skyfit: $TMP/r.csv:2: column 'end': invalid time 'inf' (want epoch seconds or ISO 8601 UTC)" \
    sh -c 'printf "%s\ns,a,3,inf\n" "$1" > "$2/r.csv"; skyfit --runs "$2/r.csv"' _ "$H3" "$TMP"
t "--runs: negative" 65 "@$SU" '' "skyfit: $TMP/r.csv:2: column 'start': must not be negative, got '-3'" \
    sh -c 'printf "%s\ns,a,-3,5\n" "$1" > "$2/r.csv"; skyfit --runs "$2/r.csv"' _ "$H3" "$TMP"
t "--runs: huge" 65 "@$SU" '' "skyfit: $TMP/r.csv:2: column 'end': time '1e12' out of range (|value| <= 1e+11)" \
    sh -c 'printf "%s\ns,a,3,1e12\n" "$1" > "$2/r.csv"; skyfit --runs "$2/r.csv"' _ "$H3" "$TMP"
# the bound is 1e11 s inclusive (skyfit(1)): 1e11 is read, above it is not
t "--runs: end 1e11 accepted" 0 "@$SU" '*' '' \
    sh -c 'printf "%s\ns,a,3,100000000000\n" "$1" > "$2/r.csv"; skyfit -q --runs "$2/r.csv"' _ "$H3" "$TMP"
t "--runs: missing instance" 65 "@$SU" '' "skyfit: $TMP/r.csv:2: column 'instance': missing value" \
    sh -c 'printf "%s\ns,,3,5\n" "$1" > "$2/r.csv"; skyfit --runs "$2/r.csv"' _ "$H3" "$TMP"
t "--runs: missing start" 65 "@$SU" '' "skyfit: $TMP/r.csv:2: column 'start': missing value" \
    sh -c 'printf "%s\ns,a,,5\n" "$1" > "$2/r.csv"; skyfit --runs "$2/r.csv"' _ "$H3" "$TMP"
t "--runs: no end column" 65 "@$SU" '' "skyfit: $TMP/r.csv:1: missing required column 'end'" \
    sh -c 'printf "job,instance,start\ns,a,3\n" > "$1/r.csv"; skyfit --runs "$1/r.csv"' _ "$TMP"
t "--runs: no such file" 66 "@$SU" '' "skyfit: $TMP/nonexistent.csv: cannot open" skyfit --runs "$TMP/nonexistent.csv"
t "--runs - with the usage on stdin" 64 "@$SU" '' "skyfit: --runs -, --prior - and the usage: only one of them can read stdin" skyfit --runs -
tcheck "--runs: an error leaves -o intact" bash -c '
    echo old > "$2/keep2.csv"; printf "job,instance,start,end\ns,a,10,5\n" > "$2/r.csv"
    ! skyfit -q --runs "$2/r.csv" -o "$2/keep2.csv" "$1" 2>/dev/null && grep -qx old "$2/keep2.csv"' _ "$SU" "$TMP"
# --on-error skip, a job whose every row is rejected: no job, with or
# without -s (streaming wrote a too_few_runs row for b and counted 3 jobs,
# -s none and 2), so -s gives what the grouped input gives (skyfit(1)).
SKB=$'job,run,t,containers\na,r1,0,1\na,r1,60,1\na,r2,1000,1\na,r2,1060,1\nb,r1,0,x\nc,r1,0,1\nc,r1,60,2\nc,r2,500,1\n'
t "--on-error skip: a job with no good row is no job, as with -s" 0 "$SKB" '' '' bash -c '
    cat > "$1/skb.in" && skyfit --on-error skip --stats "$1/skb1.st" > "$1/skb1.out" 2> "$1/skb1.err" < "$1/skb.in" &&
    skyfit -s --on-error skip --stats "$1/skb2.st" > "$1/skb2.out" 2> "$1/skb2.err" < "$1/skb.in" &&
    cmp "$1/skb1.out" "$1/skb2.out" && ! grep -q "^b," "$1/skb1.st" &&
    diff <(cut -d, -f1-8,10- "$1/skb1.st") <(cut -d, -f1-8,10- "$1/skb2.st") &&
    grep -q "2 jobs" "$1/skb1.err" && grep -q "2 jobs" "$1/skb2.err"' _ "$TMP"
# --on-error skip: the later row of e (10 s) is rejected, the first (189 s)
# kept, so e is still out
t "--runs --on-error skip: duplicate rejected" 0 "@$SU" '*' \
    "$TMP/sr_dup.csv:12: warning: skipped: duplicate instance 'e' of job 's' (first at line 6)" \
    sh -c 'cp "$1" "$2/sr_dup.csv"; echo "s,e,1767574795,1767574800,1767574810,ok" >> "$2/sr_dup.csv"
           skyfit --on-error skip --runs "$2/sr_dup.csv" --stats "$2/sr5.csv"' _ "$SR" "$TMP"
tcheck "--runs --on-error skip: first row kept" grep -q '^s,9,3,.*,optimal,1,e,c,10,$' "$TMP/sr5.csv"
# random jobs, lengths to the second for some runs, against the checker's own
# outlier rule in seconds and glpsol (40 seeds: the first whose outlier
# decision tells the spread median and MAD from the plain ones is seed 18)
tcheck "random instances vs glpsol, --runs" $PY "$CHECK" skyfit "$MOD" "$TMP/chk8" 40 --runs-table

# per-job streaming: the same output when the input is split by job
tcheck "split by job gives the same output" bash -c '
    cat "$1"/identical.csv > "$2/all.csv"; tail -n +2 "$1/zero_run.csv" >> "$2/all.csv"
    tail -n +2 "$1/catchup.csv" >> "$2/all.csv"
    skyfit -q "$2/all.csv" > "$2/all.out" &&
    { skyfit -q "$1/identical.csv"; skyfit -q --no-output-header "$1/zero_run.csv";
      skyfit -q --no-output-header "$1/catchup.csv"; } > "$2/split.out" &&
    cmp "$2/all.out" "$2/split.out"' _ "$D" "$TMP"

# ---- too few runs, --strict ----------------------------------------------------
t "too few runs: status, exit 0" 0 "@$D/one_run.csv" "$HDR" "job 'a': not fitted: too few runs (1 < --min-runs 2)" \
    skyfit --stats "$TMP/few.csv"
tcheck "too few runs: stats row" grep -qx 'a,1,0,,,,,,,too_few_runs,0,,,0,' "$TMP/few.csv"
# 12 jobs of one run each: 10 named, the summary counts the other 2 (it
# said "(more jobs not fitted; see --stats)" without a number)
awk -F, 'NR == 1 { print; next } { row[NR] = $0 }
    END { for (i = 0; i < 12; i++) for (k = 2; k <= NR; k++) { $0 = row[k]; $1 = "j" i; print } }' OFS=, "$D/one_run.csv" > "$TMP/twelve.csv"
tcheck "too few runs: 12 jobs, the first 10 named, 2 more counted" bash -c '
    skyfit --stats stats12.csv "$1" 2>err >/dev/null &&
    [ "$(grep -c "^skyfit: job .j[0-9]*.: not fitted: too few runs" err)" = 10 ] &&
    [ "$(grep -c ",too_few_runs," stats12.csv)" = 12 ] &&
    grep -q "^skyfit: jobs not fitted: the first 10 are named above, 2 more are not (--stats FILE lists every job)$" err ||
        { cat err; exit 1; }' _ "$TMP/twelve.csv"
t "too few runs: --strict exits 1" 1 "@$D/one_run.csv" "$HDR" 'too few runs' skyfit --strict
t "absurd time span" 65 $'job,run,t,containers\nx,a,0,1\nx,a,1e300,1\nx,b,0,1\n' '*' "<stdin>:3: column 't': time '1e300' out of range" skyfit
t "too many steps" 0 $'job,run,t,containers\nx,a,0,1\nx,a,1e9,1\nx,b,0,1\n' "$HDR" 'more than --max-steps 100000; is t in seconds?' skyfit

# ---- Hadoop ResourceEstimator native format -------------------------------------
t "tinySample.txt" 0 "@$H/lp/tinySample.txt" '*' '' skyfit -q --format native --step 5 --stats "$TMP/tiny.csv"
tcheck "tinySample.txt vs glpsol" $PY "$CHECK" --native "$H/lp/tinySample.txt" skyfit "$MOD" "$TMP/chk3"
# one run: the fit is the run, 5 s x (1+1+1074+2538+2468) containers / 60 s
# a UTF-8 byte order mark before the first line is skipped, as in CSV
# (review, 2026-12-04: it became part of the first job's name)
tcheck "native: a byte order mark is skipped" sh -c '
    printf "\357\273\277" | cat - "$1" | skyfit -q --format native --step 5 --stats "$2/bom.st" > "$2/bom.out" &&
    skyfit -q --format native --step 5 --stats "$2/nobom.st" "$1" | cmp - "$2/bom.out" &&
    cut -d, -f1-8 "$2/bom.st" | cmp - /dev/stdin <<EOF
$(cut -d, -f1-8 "$2/nobom.st")
EOF' _ "$H/lp/tinySample.txt" "$TMP"
t "nativeLog.txt (one run)" 0 '' "job,step,offset,alloc,cores,mem_mb
tpch_q12,60,0,506.8333333333333,1,1024" '' skyfit -q --format native --min-runs 1 "$H/trace/nativeLog.txt"
for n in 1 2 3 4 5 6 7 8 9; do
    t "invalidLog$n.txt rejected" 65 '' '*' "invalidLog$n.txt:2: this is a YARN ResourceManager log line, not a native skyline log" \
        skyfit --format native "$H/trace/invalidLog$n.txt"
done
t "rmLog.txt rejected" 65 '' '*' 'rmLog.txt:1: this is a YARN ResourceManager log line' skyfit --format native "$H/trace/rmLog.txt"
t "native: bad unit" 65 $'j 1 0 0 1 r 8:0| 1:0|x:5|\n' '*' "<stdin>:1: field 8 (skyline): invalid unit 'x:5'" skyfit --format native
t "native: negative containers" 65 $'j 1 0 0 1 r 8:0| -1:0|\n' '*' "invalid unit '-1:0'" skyfit --format native
t "native: field count" 65 $'j 1 0 0 1 r 1:0|\n' '*' '<stdin>:1: expected 8 blank-separated fields' skyfit --format native
t "native: duplicate run" 65 $'j 1 0 0 1 r 8:0| 1:0|\nj 1 0 0 1 r 8:0| 1:0|\n' '*' "<stdin>:2: run 'r' of job 'j' appears twice" skyfit --format native
t "native: ungrouped" 65 $'j 1 0 0 1 r 8:0| 1:0|\nk 1 0 0 1 r 8:0| 1:0|\nj 1 0 0 1 s 8:0| 1:0|\n' '' "<stdin>:3: input not grouped by job: job 'j' appears again after job 'k'" skyfit -q --format native
# its fix for blank-separated lines, and not -s (CSV only) (the audit of 2026-12-04: it offered -t, and -s, both refused)
t "native: ungrouped, the sort command for blank-separated lines" 65 $'j 1 0 0 1 r 8:0| 1:0|\nk 1 0 0 1 r 8:0| 1:0|\nj 1 0 0 1 s 8:0| 1:0|\n' '' \
    "skyfit: <stdin>:3: input not grouped by job: job 'j' appears again after job 'k' (sort by job first, e.g. sort -s -k1,1 FILE)" skyfit -q --format native
: > "$TMP/empty"
t "native: empty" 65 "@$TMP/empty" '*' 'skyfit: <stdin>:1: empty input' skyfit --format native
t "native file fed as CSV" 65 '' '*' "missing required columns 'job', 'run', 't' and 'containers'" skyfit "$H/lp/tinySample.txt"
# The real tpch_q12 runs last 425 s and 245 s but their skylines stop at
# 20 s + one 5 s unit: a warning per run, naming file, line and both lengths.
t "native: skyline ends before the run" 0 '' '*' \
    "nativeLog.txt:1: warning: run 'tpch_q12_0' of job 'tpch_q12': the container skyline ends at 25 s of a 425 s run" \
    skyfit --format native --min-runs 1 "$H/trace/nativeLog.txt"
t "native: second tinySample run warned too" 0 '' '*' "tinySample.txt:2: warning: run 'tpch_q12_1' of job 'tpch_q12': the container skyline ends at 25 s of a 245 s run" \
    skyfit --format native "$H/lp/tinySample.txt"
# 14 such runs: the first 10 warned, the summary counts all 14 (a log of
# thousands of cut-short runs was thousands of lines)
awk '{ for (i = 0; i < 7; i++) { $6 = "tpch_q12_" NR "_" i; print } }' "$H/lp/tinySample.txt" > "$TMP/cut14.txt"
tcheck "native: 14 runs cut short, the first 10 named, all 14 counted" bash -c '
    skyfit --format native "$1" 2>err >/dev/null &&
    [ "$(grep -c ": warning: run .* the container skyline ends at 25 s of a" err)" = 10 ] &&
    grep -q "^skyfit: warning: 14 runs in all have a skyline that ends before the run does (the first 10 named above): fitted as runs that short$" err ||
        { cat err; exit 1; }' _ "$TMP/cut14.txt"
t "native: -q silences the warning" 0 '' '*' '' skyfit -q --format native --min-runs 1 "$H/trace/nativeLog.txt"
tcheck "native: no warning when the skyline covers the run" bash -c '
    printf "j 1 0 0 10000 r 8:0| 1:0|1:5|\n" | skyfit --format native --min-runs 1 2>&1 >/dev/null | { ! grep -q warning; }'
# Memory skyline: 8192 MB per container = 8 of the 1024 MB containers written;
# one 60 s step holds (1 + 1 + 1074 + 2538 + 2468) x 5 s = 30410
# container-seconds -> mean 506.8333 containers x 8 = 4054.6666666666665.
t "native: --native-resource memory" 0 '' "job,step,offset,alloc,cores,mem_mb
tpch_q12,60,0,4054.6666666666665,1,1024" '*' \
    skyfit -q --format native --min-runs 1 --native-resource memory "$H/trace/nativeLog.txt"
# ... which needs --min-runs 1 (docs/skyfit.md says so): the log holds one
# run, so the default --min-runs 2 writes the header only and says why
t "native: --native-resource memory, one run, default --min-runs" 0 '' "job,step,offset,alloc,cores,mem_mb" \
    "skyfit: job 'tpch_q12': not fitted: too few runs (1 < --min-runs 2)" \
    skyfit --format native --native-resource memory "$H/trace/nativeLog.txt"
# units out of offset order: the ResourceEstimator's own parser adds each
# unit to an RLESparseResourceAllocation (addInterval merges it into a
# sorted map), so order does not matter there, and skyfit sums them the same
# way.  By hand, 5 s units 1@5 and 1@3: [3,5) 1, [5,8) 2, [8,10) 1; 5 s
# steps: [0,5) holds 2 container-s = 0.4, [5,10) 6 + 2 = 8 = 1.6 (one run:
# the skyline is its usage).
for sky in '1:5|1:3|' '1:3|1:5|'; do
    t "native: units $sky in any order" 0 "j 1 0 0 10000 r 8:0| $sky
" "job,step,offset,alloc,cores,mem_mb
j,5,0,0.4,1,1024
j,5,5,1.6,1,1024" '' skyfit -q --format native --min-runs 1 --step 5
done
t "native: bad container spec" 65 $'j 1 0 0 1 r 8x:0| 1:0|\n' '*' "<stdin>:1: field 7 (container): invalid spec '8x:0'" skyfit --format native
t "native: end before start" 65 $'j 1 0 5 1 r 8:0| 1:0|\n' '*' "<stdin>:1: field 5 (end): invalid time '1'" skyfit --format native
t "native: bad --native-resource" 64 '' '' "invalid value for --native-resource: 'disk'" skyfit --format native --native-resource disk

# ---- --prior: last night's skyline (skyline.h, "A prior") ------------------------
tcheck "random instances vs glpsol, --prior 0.3 (network)" $PY "$CHECK" skyfit "$MOD" "$TMP/chkp1" 10 --prior 0.3
tcheck "random instances vs glpsol, --prior 3 (plain)" $PY "$CHECK" skyfit "$MOD" "$TMP/chkp2" 4 --solver glpk-plain --prior 3
tcheck "random instances vs glpsol, --prior 1 (glpk-flow)" $PY "$CHECK" "skyfit --solver glpk-flow" "$MOD" "$TMP/chkp3" 3 --prior 1
# One step, 100 runs: 99 at 2 containers, 1 at 10; alpha 0.01, beta 0.  On
# [2, 10] a container more costs 0.01 x 99/100 of over-allocation and saves
# 0.99 x 1/100 of debt: the objective is flat there, every s in [2, 10] is
# optimal (--keep-outliers: the rule would leave the high run out).  With the prior 6 the prior's term decides: s = 6, objective
# 0.01 x 99 x 4/100 + 0.99 x 4/100 = 0.0792, prior_cost 0.
flat() {   # flat N_HIGH: 100 runs of one step, N_HIGH at 10 containers, the rest at 2
    echo job,run,t,containers
    for i in $(seq 1 100); do echo "b,r$i,0,$([ "$i" -le "$1" ] && echo 10 || echo 2)"; done
}
flat 1 > "$TMP/flat1.csv"; flat 2 > "$TMP/flat2.csv"
printf 'job,step,offset,alloc\nb,60,0,6\n' > "$TMP/prior6.csv"
t "--prior: a flat optimum stays at the prior" 0 "@$TMP/flat1.csv" "$HDR
b,60,0,6" '' skyfit -q --keep-outliers --beta 0 --prior "$TMP/prior6.csv" --stats "$TMP/flat1.st"
tcheck "--prior: flat: objective 0.0792, prior_cost 0" awk -F, 'NR == 2 { ok = $4 > 0.0792 - 1e-12 && $4 < 0.0792 + 1e-12 && $15 == "0" } END { exit !(NR == 2 && ok) }' "$TMP/flat1.st"
t "--prior: the same, plain LP" 0 "@$TMP/flat1.csv" "$HDR
b,60,0,6" '' skyfit -q --keep-outliers --beta 0 --solver glpk-plain --prior "$TMP/prior6.csv"
# Two runs at 10: above 2 a container more saves 0.99 x 2/100 - 0.01 x
# 98/100 = 0.01 net, so the fit is 10.  With the prior 6 and weight W (mu =
# W x 0.01) the four containers up from 6 gain 0.01 - mu each: W = 0.5 moves
# to 10 (prior_cost 4 x 0.005 = 0.02), W = 2 stays at 6.
t "--prior: a gain above the weight moves" 0 "@$TMP/flat2.csv" "$HDR
b,60,0,10" '' skyfit -q --keep-outliers --beta 0 --prior "$TMP/prior6.csv" --prior-weight 0.5 --stats "$TMP/flat2.st"
tcheck "--prior: moved: prior_cost 0.02" awk -F, 'NR == 2 { ok = $15 > 0.02 - 1e-12 && $15 < 0.02 + 1e-12 } END { exit !(NR == 2 && ok) }' "$TMP/flat2.st"
t "--prior: a gain below the weight stays" 0 "@$TMP/flat2.csv" "$HDR
b,60,0,6" '' skyfit -q --keep-outliers --beta 0 --prior "$TMP/prior6.csv" --prior-weight 2
t "--prior: without it the fit is 10" 0 "@$TMP/flat2.csv" "$HDR
b,60,0,10" '' skyfit -q --keep-outliers --beta 0
# last night's own output as the prior: the same bytes, every job kept
tracegen usage --count 6 --days 10 --seed 3 > "$TMP/pu.csv" 2>/dev/null
skyfit -q "$TMP/pu.csv" -o "$TMP/pu-sky.csv"
t "--prior: own output: same bytes, all kept" 0 "@$TMP/pu.csv" "@$TMP/pu-sky.csv" \
    "skyfit: prior $TMP/pu-sky.csv (weight 0.1 x alpha): 6 of 6 fitted jobs had one, 6 of them kept it exactly, 0 moved" \
    skyfit --prior "$TMP/pu-sky.csv"
# a job absent from the prior, or written at another step, is fitted alone
awk -F, 'NR == 1 || $1 != "job00002"' "$TMP/pu-sky.csv" | sed 's/^job00004,60,/job00004,300,/' > "$TMP/pu-part.csv"
awk -F, 'NR == 1 || $1 != "job00004" || $3 % 300 == 0' "$TMP/pu-part.csv" > "$TMP/pu-part2.csv"
t "--prior: missing job and another step: fitted without" 0 "@$TMP/pu.csv" "@$TMP/pu-sky.csv" \
    "skyfit: warning: 1 jobs of $TMP/pu-part2.csv have another step than --step 60 s: fitted without their prior" \
    skyfit --prior "$TMP/pu-part2.csv" --stats "$TMP/pu-part.st"
tcheck "--prior: prior_cost empty for the two" awk -F, 'NR > 1 { e += ($15 == "") } END { exit !(e == 2) }' "$TMP/pu-part.st"
# bad priors: told where, nothing written
t "--prior: not skyfit's (offset)" 65 "@$TMP/pu.csv" '' \
    "skyfit: $TMP/p-off.csv:2: job 'a': skyline starts at offset 60, not 0 (a prior is skyfit's output)" \
    sh -c 'printf "job,step,offset,alloc\na,60,60,1\n" > "$1"; skyfit -q --prior "$1"' _ "$TMP/p-off.csv"
t "--prior: negative alloc" 65 "@$TMP/pu.csv" '' "skyfit: $TMP/p-neg.csv:2: column 'alloc': must not be negative" \
    sh -c 'printf "job,step,offset,alloc\na,60,0,-1\n" > "$1"; skyfit -q --prior "$1"' _ "$TMP/p-neg.csv"
t "--prior: nan alloc" 65 "@$TMP/pu.csv" '' "skyfit: $TMP/p-nan.csv:3: column 'alloc': invalid number 'nan'" \
    sh -c 'printf "job,step,offset,alloc\na,60,0,1\na,60,60,nan\n" > "$1"; skyfit -q --prior "$1"' _ "$TMP/p-nan.csv"
t "--prior: missing file" 66 "@$TMP/pu.csv" '' "skyfit: /nonexistent-prior.csv: cannot open" skyfit -q --prior /nonexistent-prior.csv
t "--prior - and the usage on stdin" 64 "@$TMP/pu.csv" '' \
    "skyfit: --runs -, --prior - and the usage: only one of them can read stdin" skyfit -q --prior -
t "--prior-weight 0" 64 '' '' "invalid value for --prior-weight" skyfit --prior-weight 0
printf 'old\n' > "$TMP/keep-prior.csv"
t "--prior: a bad prior keeps -o" 65 "@$TMP/pu.csv" '' '*' skyfit -q --prior "$TMP/p-off.csv" -o "$TMP/keep-prior.csv"
tcheck "--prior: -o intact" grep -qx old "$TMP/keep-prior.csv"

# ---- bad input -------------------------------------------------------------------
# a grouping error leaves nothing on stdout (held until the input is read):
# not even job a's skyline fitted from its first run (issue 16, Deliver 5)
t "ungrouped jobs" 65 $'job,run,t,containers\na,r1,0,1\nb,r1,0,1\na,r2,0,1\n' '' \
    "skyfit: <stdin>:4: input not grouped by job: job 'a' appears again after job 'b' (sort by job first, the header kept on top, e.g. (head -1 FILE; tail -n +2 FILE | sort -s -t, -k1,1), or use -s)" skyfit -q
t "ungrouped jobs: no early skyline" 65 $'job,run,t,containers\na,r1,0,1\nb,r1,0,1\na,r2,0,2\n' '' \
    "<stdin>:4: input not grouped by job" skyfit -q --min-runs 1
# ... and no note before it: job a was fitted when b began, from its one
# run so far, and named "not fitted: too few runs (1 < --min-runs 2)" though
# it has two.  The notes wait for the whole input (skyfit(1), STATS), so the
# error is the one line on stderr, in CSV and in the native log alike.
tcheck "ungrouped jobs: the error alone, no note about a job not whole" bash -c '
    printf "job,run,t,containers\na,r1,0,1\nb,r1,0,1\na,r2,0,1\n" | skyfit 2> "$1/ug.err"
    [ $? = 65 ] && [ "$(cat "$1/ug.err")" = "skyfit: <stdin>:4: input not grouped by job: job '"'a'"' appears again after job '"'b'"' (sort by job first, the header kept on top, e.g. (head -1 FILE; tail -n +2 FILE | sort -s -t, -k1,1), or use -s)" ]' _ "$TMP"
tcheck "native: ungrouped, the error alone" bash -c '
    printf "j 1 0 0 1 r 8:0| 1:0|\nk 1 0 0 1 r 8:0| 1:0|\nj 1 0 0 1 s 8:0| 1:0|\n" | skyfit --format native 2> "$1/ugn.err"
    [ $? = 65 ] && [ "$(cat "$1/ugn.err")" = "skyfit: <stdin>:3: input not grouped by job: job '"'j'"' appears again after job '"'k'"' (sort by job first, e.g. sort -s -k1,1 FILE)" ]' _ "$TMP"
# grouped, the note comes once the input is read, before the summary
tcheck "grouped: a job with too few runs is still named, before the summary" bash -c '
    printf "job,run,t,containers\na,r1,0,1\nb,r1,0,1\nb,r2,0,1\n" | skyfit 2> "$1/g.err" >/dev/null &&
    [ "$(sed -n 1p "$1/g.err")" = "skyfit: job '"'a'"': not fitted: too few runs (1 < --min-runs 2)" ] &&
    sed -n 2p "$1/g.err" | grep -q "^skyfit: 2 jobs: 1 fitted, 1 too few runs" && [ "$(wc -l < "$1/g.err")" = 2 ]' _ "$TMP"
t "negative containers" 65 $'job,run,t,containers\na,r1,0,-1\n' '*' "<stdin>:2: column 'containers': must not be negative, got '-1'" skyfit
t "nan containers" 65 $'job,run,t,containers\na,r1,0,nan\n' '*' "<stdin>:2: column 'containers': invalid number 'nan'" skyfit
t "inf containers" 65 $'job,run,t,containers\na,r1,0,inf\n' '*' "invalid number 'inf'" skyfit
t "huge containers" 65 $'job,run,t,containers\na,r1,0,1e300\n' '*' "column 'containers': '1e300' is too large (at most" skyfit
# --stats - beside the skylines on stdout: both held, the stats table came
# out first and the skylines under it, one stream no reader can split
t "stdout twice: --stats -" 64 $'job,run,t,containers\na,r1,0,1\n' '' \
    "skyfit: --stats and the skylines both write standard output (--stats - or /dev/stdout): give one of them as a file (-o FILE)" skyfit -q --stats -
# /dev/stdout is standard output too (the audit of 2026-12-04: with stdout
# redirected to a file it opened the file again, and the two tables
# overwrote each other, exit 0), through a file and through a pipe
tcheck "stdout twice: --stats /dev/stdout, stdout a file" bash -c '
    printf "job,run,t,containers\na,r1,0,1\n" | skyfit -q --stats /dev/stdout >"$1" 2>"$1.err"; rc=$?
    [ $rc = 64 ] && grep -q "both write standard output" "$1.err" && [ ! -s "$1" ]' _ "$TMP/dev-stdout.out"
tcheck "stdout twice: --stats /dev/fd/1, stdout a pipe" bash -c '
    printf "job,run,t,containers\na,r1,0,1\n" | { skyfit -q --stats /dev/fd/1 2>"$1.err"; echo "rc=$?" >"$1.rc"; } | cat >/dev/null
    grep -qx rc=64 "$1.rc" && grep -q "both write standard output" "$1.err"' _ "$TMP/dev-fd1"
t "stdout once: -o FILE and --stats /dev/stdout" 0 $'job,run,t,containers\na,r1,0,1\n' '*' '' \
    skyfit -q --min-runs 1 --stats /dev/stdout -o "$TMP/stats-once2.csv"
t "stdout once: -o FILE and --stats -" 0 $'job,run,t,containers\na,r1,0,1\n' '*' '' \
    skyfit -q --min-runs 1 --stats - -o "$TMP/stats-once.csv"
# cores and mem_mb had no bound: 1e308 MB per container came out as
# mem_mb 9.65e+304 (c x mem summed to inf over the job's rows)
t "huge mem_mb" 65 $'job,run,t,containers,cores,mem_mb\na,r1,0,1,1,1024\na,r1,60,5,1,1e308\n' '' \
    "skyfit: <stdin>:3: column 'mem_mb': '1e308' is too large (at most" skyfit -q --min-runs 1
t "huge cores" 65 $'job,run,t,containers,cores,mem_mb\na,r1,0,1,1e13,1024\n' '' \
    "skyfit: <stdin>:2: column 'cores': '1e13' is too large (at most" skyfit -q --min-runs 1
t "largest plausible mem_mb" 0 $'job,run,t,containers,cores,mem_mb\na,r1,0,2,1,1e12\n' \
    $'job,step,offset,alloc,cores,mem_mb\na,60,0,2,1,1000000000000' '' skyfit -q --min-runs 1
t "bad time" 65 $'job,run,t,containers\na,r1,yesterday,1\n' '*' "<stdin>:2: column 't': invalid time 'yesterday'" skyfit
t "missing run" 65 $'job,run,t,containers\na,,0,1\n' '*' "<stdin>:2: column 'run': missing value" skyfit
t "missing column" 65 $'job,run,time,containers\na,r,0,1\n' '*' "missing required column 't'" skyfit
t "cores without mem" 65 $'job,run,t,containers,cores\na,r,0,1,1\n' '*' "column 'cores' without 'mem_mb'" skyfit
# A container of 0 cores and some memory is a real shape (Google 2011 tasks
# that request memory and no CPU; lcmpack and replay take it): it was refused
# ("must be positive"), so traceconv --machine dropped 109 of 899 runs for
# it.  0 cores and 0 MB is no container, as in lcmpack and replay.
# Weighted shape: (1 x 0 + 3 x 2) / 4 = 1.5 cores, (1 x 1024 + 3 x 0) / 4 = 256 MB.
t "zero cores, some memory" 0 $'job,run,t,containers,cores,mem_mb\na,r,0,1,0,1024\na,r,60,3,2,0\n' \
    "job,step,offset,alloc,cores,mem_mb
a,60,0,1,1.5,256
a,60,60,3,1.5,256" '' skyfit -q --min-runs 1
t "zero cores and zero memory" 65 $'job,run,t,containers,cores,mem_mb\na,r,0,1,0,0\n' '*' "<stdin>:2: container of 0 cores and 0 MB" skyfit
t "negative cores" 65 $'job,run,t,containers,cores,mem_mb\na,r,0,1,-1,1024\n' '*' "<stdin>:2: column 'cores'" skyfit
# A run ends at its last sample, which counts for one --step: samples 300 s
# apart (traceconv google-usage --step 300s) fitted with --step 60 lost 240 s
# of every run's last sample (the Google shards' skylines: 19% less area).
# skyfit warns, once, with the count and the closest spacing.  Run r: 0, 300,
# 600 (k = 11 steps, area 11 x 60 s x 1 = 660 s of the 900 s recorded).
SP=$'job,run,t,containers\na,r,0,1\na,r,300,1\na,r,600,1\na,s,0,1\na,s,60,1\n'
t "samples further apart than --step: a warning" 0 "$SP" '*' \
    "skyfit: warning: 1 runs of 1 jobs have samples more than --step 60 s apart (the closest 300 s): a run ends at its last sample, so their areas shrink; give --step the input's sample step (traceconv's --step)" \
    skyfit --min-runs 1
t "samples --step apart: no warning" 0 "$SP" '*' '' sh -c '! skyfit --min-runs 1 --step 300 2>&1 >/dev/null | grep warning'
t "samples further apart than --step: quiet with -q" 0 "$SP" '*' '' skyfit -q --min-runs 1
t "zero step" 64 '' '' "invalid value for --step: '0' (must be positive)" skyfit --step 0
# --step 1e308 was taken: every skyline row said step 1e+308, which lcmpack
# refuses (a CSV duration stops at 1e15)
t "huge step" 64 '' '' "skyfit: invalid value for --step: '1e308' (out of range: at most 1e+15 s)" skyfit --step 1e308
t "bad alpha" 64 '' '' "invalid value for --alpha" skyfit --alpha 1.5
t "negative beta" 64 '' '' "invalid value for --beta" skyfit --beta -1
# an option that would be ignored is refused
t "--beta with --beta-frac: 64" 64 '' '' "skyfit: --beta and --beta-frac exclude each other" skyfit --beta 1 --beta-frac 0.2
t "--outlier-k with --keep-outliers: 64" 64 '' '' "skyfit: --outlier-k and --keep-outliers exclude each other" skyfit --outlier-k 2 --keep-outliers
t "--prior-weight without --prior: 64" 64 '' '' "skyfit: --prior-weight needs --prior FILE" skyfit --prior-weight 0.5
t "--native-interval without --format native: 64" 64 '' '' "skyfit: --native-interval needs --format native" skyfit --native-interval 10
t "--native-resource without --format native: 64" 64 '' '' "skyfit: --native-resource needs --format native" skyfit --native-resource memory
t "bad agg" 64 '' '' "invalid value for --agg: 'median'" skyfit --agg median
t "bad solver" 64 '' '' "invalid value for --solver: 'cplex'" skyfit --solver cplex
t "bad format" 64 '' '' "invalid value for --format: 'json'" skyfit --format json
t "missing file" 66 '' '' 'skyfit: /nonexistent.csv: cannot open' skyfit /nonexistent.csv
t "empty input" 65 "@$TMP/empty" '' 'empty input' skyfit
t "header only" 0 'job,run,t,containers' "$HDR" '' skyfit -q
printf 'old\n' > "$TMP/keep.csv"
t "failed run keeps -o file" 65 $'job,run,t,containers\na,r1,0,-1\n' '' '*' skyfit -o "$TMP/keep.csv"
tcheck "-o intact" grep -qx old "$TMP/keep.csv"
# (/dev/fd/1 is standard output, where the skylines go: refused above)
tcheck "stats to a device is written, not replaced" bash -c '
    skyfit -q --stats /dev/fd/3 <"$1" >/dev/null 3>"$2" && head -1 "$2" | grep -q "^job,runs,steps,objective"' _ "$D/identical.csv" "$TMP/fd3.csv"
t "help has examples" 0 '' '*' '' skyfit --help
tcheck "help ends with examples" bash -c 'skyfit --help | grep -q "tracegen usage"'

# Duplicate (job, run, t) rows are samples like any other (skyfit(1), "Runs
# and steps"): r1 has 1, 5 and 6 at t=0, mean 4; r2 has 4: both runs use
# exactly 4 in the one step, so the skyline is 4 (keeping only the first or
# last duplicate would give r1 1 or 6).  With --agg max r1 (1, 6) is 6, as r2.
t "duplicate t: samples averaged" 0 $'job,run,t,containers\nm,r1,0,1\nm,r1,0,5\nm,r1,0,6\nm,r2,0,4\n' \
    $'job,step,offset,alloc\nm,60,0,4' '' skyfit -q
t "duplicate t: --agg max" 0 $'job,run,t,containers\nm,r1,0,1\nm,r1,0,6\nm,r2,0,6\n' \
    $'job,step,offset,alloc\nm,60,0,6' '' skyfit -q --agg max

# ---- stragglers on tracegen ground truth (tests/check/skyfit_stragglers.py) ----
# 40 jobs over 21 days, 10% of runs stragglers, --last 10: with the outlier
# rule at most 5% of the skylines are more than 1.3x the length fitted on the
# same jobs without stragglers, and the normal runs' under-allocation grows by
# at most 1 point (measured: 2.5% and +0.45 points; --keep-outliers: 60% of
# the skylines too long, +0.9 points); the same bounds with --runs (lengths
# from tracegen's runs table of the same trace; measured the same, 2.5% and
# +0.45)
tcheck "stragglers: skyline keeps the normal shape" $PY "$ROOT/tests/check/skyfit_stragglers.py" "$TMP/strag" \
    --count 40 --prob 0.1 --runs --max-long 0.05 --max-under 0.01

# ---- refusals that say what to do (lib/morpheus/refusal via lcmpack) ----------
# window [0, 150] s on 60 s steps holds the whole steps [0,60) and [60,120):
# 2 steps; the skyline needs 3 (one container per step): refused, and d must
# be at least a + 3 steps, 180 s
printf 'job,period,a,d\nr,3600,0,150\n' > "$TMP/ref.slo"
printf 'job,step,offset,alloc\nr,60,0,1\nr,60,60,1\nr,60,120,1\n' > "$TMP/ref.sky"
t "refusal names the window, the need and the fixes" 0 '' '*' \
    "job 'r': not placed: window [0, 150] s holds 2 whole steps of 60 s, fewer than the 3 the skyline needs at its maximum parallelism; fixes: a deadline d of at least 180 s (sloinfer --override), a skyline of fewer or more recent runs (skyfit --last N, a lower --outlier-k" \
    lcmpack --lcm 1h --capacity cores=4,mem=100000 --slo "$TMP/ref.slo" "$TMP/ref.sky"
# the third fix, worked by hand: 3 container-steps over the window's 2 steps
# (150 s hold 2 steps in seconds too)
# need ceil(3 / 2) = 2 containers at once; the skyline peaks at 1
t "refusal names the parallelism that would fit" 0 '' '*' \
    "or a job that runs at least 2 containers at once (its 3 container-steps over the 2 steps its window can hold; its skyline peaks at 1)" \
    lcmpack --lcm 1h --capacity cores=4,mem=100000 --slo "$TMP/ref.slo" "$TMP/ref.sky"
printf 'job,period,a,d\nr,3600,0,180\n' > "$TMP/ref2.slo"
t "with that d it is placed" 0 '' '*' 'lcmpack: 1 requests: 1 placed' \
    lcmpack --lcm 1h --capacity cores=4,mem=100000 --slo "$TMP/ref2.slo" "$TMP/ref.sky"

# ---- -s/--sort: any row order ----------------------------------------------
# the rows of three jobs interleaved (by time): -s gives the bytes the grouped
# input gives without it (jobs c, q, z: -s writes them by name)
{ cat "$D/catchup.csv"; tail -n +2 "$D/identical.csv"; tail -n +2 "$D/zero_run.csv"; } > "$TMP/grouped.csv"
{ head -1 "$TMP/grouped.csv"; tail -n +2 "$TMP/grouped.csv" | sort -t, -k3,3n -k1,1; } > "$TMP/bytime.csv"
tcheck "-s: interleaved jobs fit as grouped" bash -c '
    skyfit -q --stats "$1/g.st" "$1/grouped.csv" > "$1/g.out" &&
    skyfit -q -s --stats "$1/s.st" "$1/bytime.csv" > "$1/s.out" &&
    cmp "$1/g.out" "$1/s.out" && cmp <(cut -d, -f1-8,10- "$1/g.st") <(cut -d, -f1-8,10- "$1/s.st")' _ "$TMP"
t "without -s: interleaved jobs refused" 65 "@$TMP/bytime.csv" '*' 'input not grouped by job: job ' skyfit -q
t "-s with the native format" 64 '' '' '--sort reads CSV input only' skyfit -s --format native

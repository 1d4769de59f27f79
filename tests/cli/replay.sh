# replay: what-if replay of recorded runs (tests/data/replay).  The plan is
# written from plan.spec by tests/check/replay_plan.py; every expected value
# below is worked by hand.
D="$ROOT/tests/data/replay"
T0=1767571200
R="replay -q --slo $D/slo.csv --plan $D/plan.csv --provisioned $D/prov.csv --capacity cores=4,mem=100000"

# One run of A (period 1h, deadline 600 s after the hour) using 2,1,2,2
# containers in its 4 minutes.  The plan reserves 2 containers at 0-180 s of
# every hour; A is provisioned 1 container; the cluster has 4 cores.
#  static (idle fair): alone on the cluster, the idle 3 cores cover its demand:
#    done at the end of its 4th step, 240 s: met; nothing over or under.
#  plan: steps 0-2 served (step 1 wastes 1 container: over 60 c*s); step 3
#    has no reservation: 2 containers of debt (under 120 c*s), served only by
#    the next hour's reservation at 3600 s: finish 3660 s > 600 s: missed.
#  plan+dra: at step 3 demand 2 > plan 0, R = max plan over [60, 180] = 2,
#    cap 4: extended by 2 -> done at 240 s: met (over 60, under 0).
t "hand: static, plan, plan+dra" 0 '' \
"regime,job,run,start,deadline,finish,met,over_container_s,under_container_s
static,A,A-1,$T0,$((T0+600)),$((T0+240)),1,0,0
plan,A,A-1,$T0,$((T0+600)),$((T0+3660)),0,60,120
plan+dra,A,A-1,$T0,$((T0+600)),$((T0+240)),1,60,0" '' $R "$D/one.csv"
# The summary counts the jobs replayed, not the SLO's usable jobs (it said
# "replaying 1 runs of 2 jobs" here, "0 runs of 2 jobs" for no run of A or B)
RV="replay --slo $D/slo.csv --plan $D/plan.csv --provisioned $D/prov.csv --capacity cores=4,mem=100000"
t "stderr: the jobs replayed" 0 '' '*' \
    "replay: 1 runs read (4 rows); replaying 1 runs of 1 jobs starting 2026-01-05T00:00:00Z .. 2026-01-05T00:00:00Z (1 jobs with a usable SLO have no run to replay; 0 runs of jobs without a usable SLO, 0 outside --from/--until; 1 SLO rows not actionable)" \
    $RV "$D/one.csv"
t "stderr: no job replayed" 0 "job,run,t,containers
X,x1,$T0,1
" '*' \
    "replay: 1 runs read (1 rows); replaying 0 runs of 0 jobs starting - .. - (2 jobs with a usable SLO have no run to replay; 1 runs of jobs without a usable SLO," \
    $RV
# Samples finer than the step (frac.csv: every 10 s, 6 to a 60 s step): A-1
# holds 1 container for 120 s, A-2 7 containers for 120 s an hour later.
# Each step's use is then exactly 1 (or 7) containers; summed as 1/6 six
# times it was 0.9999999999999999, and replay printed that residue as
# over-allocation (1.3322676295501878e-14) and as 720.0000000000001.
#  static (A provisioned 1, no idle sharing): A-1 served in full, finish at
#    its recorded end 120 s, nothing over or under.  A-2 gets 1 of 7, then 1
#    of 13: debt 12 when the skyline ends (under 720 c*s), drained in 12 more
#    steps: finish 3600 + 14 * 60 = 4440 s > 4200: missed.
#  plan (2 containers at 0-180 s of every hour): A-1 wastes 1 container in
#    each of its 2 steps (over 120 c*s).  A-2: debts 5, 10 (under 600 c*s),
#    8 after the third reserved step; the next hour's 3 steps leave 2, and
#    the hour after that is past the cut-off (4200 + 3600): unfinished.
t "hand: samples finer than the step: whole container-seconds, no residue" 0 '' \
"regime,job,run,start,deadline,finish,met,over_container_s,under_container_s
static,A,A-1,$T0,$((T0+600)),$((T0+120)),1,0,0
static,A,A-2,$((T0+3600)),$((T0+4200)),$((T0+4440)),0,0,720
plan,A,A-1,$T0,$((T0+600)),$((T0+120)),1,120,0
plan,A,A-2,$((T0+3600)),$((T0+4200)),,0,0,600" '' $R --regime static,plan --idle none "$D/frac.csv"
t "hand: samples finer than the step: summary totals" 0 '' \
"regime,over_container_s,under_container_s
static,0,720
plan,120,600" '' bash -c '$1 --regime static,plan --idle none --summary "$3" "$2" > /dev/null && cut -d, -f1,11,12 "$3"' \
    _ "$R" "$D/frac.csv" "$TMP/frac.sum"
# A straggler: 2 containers for 6 steps (0-360 s) against the same plan (2 at
# 0-180 s).  plan+dra: at 180 s R = max over steps 1-3 = 2, cap 4: extra 2
# until 240; at 240 s, steps 2-4: the plan's 2 at step 2, the 2 granted over
# [180, 240) at step 3: R = 2, renewed with 2 until 300.  At 300 s (steps 3-5)
# the two readings differ:
#  --recent instance (default, Morpheus §7): the extensions at steps 3 and 4
#    are the instance's allocation: R = 2, renewed again: done at 360 s, met.
#  --recent plan: the plan holds nothing in steps 3-5: refused (and every
#    later step until the next hour's reservation): the 2 left at the
#    skyline's end (under 120 c*s) are served at 3600 s: finish 3660 s, missed.
t "hand: plan+dra stretches a straggler (--recent instance)" 0 '' \
"regime,job,run,start,deadline,finish,met,over_container_s,under_container_s
plan+dra,A,A-1,$T0,$((T0+600)),$((T0+360)),1,0,0" '' $R --regime plan+dra "$D/stretch.csv"
t "hand: plan+dra --recent plan stops 2 minutes after the plan" 0 '' \
"regime,job,run,start,deadline,finish,met,over_container_s,under_container_s
plan+dra,A,A-1,$T0,$((T0+600)),$((T0+3660)),0,0,120" '' $R --regime plan+dra --recent plan "$D/stretch.csv"
#  --grant 2h on this 1h plan: at 180 s R = 2, cap 4, extra 2 for 2 h; the
#    grant covers every step of the cycle and counts once at each: room
#    4 - 2 (the plan's 2 at 0-180 s) = 2: granted; done at 360 s, as with 1m
#    grants.  (Folded onto the cycle it counted twice: 1 granted, 180 c*s
#    short, drained by 540 s.)
t "hand: plan+dra --grant longer than the plan's cycle" 0 '' \
"regime,job,run,start,deadline,finish,met,over_container_s,under_container_s
plan+dra,A,A-1,$T0,$((T0+600)),$((T0+360)),1,0,0" '' $R --regime plan+dra --grant 2h "$D/stretch.csv"
t "bad --recent" 64 '' '' "invalid value for --recent: 'x'" $R --recent x "$D/stretch.csv"
# A plan above --capacity is replayed with a warning (unless -q), the one of
# lcmpack and reprov: A's 2 one-core containers at 0-180 s on 1 core (old
# binary: no word, the runs cut to the capacity).  The static regime does not
# use the plan: no warning.
RW="replay --slo $D/slo.csv --plan $D/plan.csv --provisioned $D/prov.csv --capacity cores=1,mem=100000"
t "plan above --capacity: warned" 0 '' '*' \
    "replay: $D/plan.csv: warning: the plan exceeds the capacity (cost 2.0000 at t=0 s: cores 2 of 1, mem_mb 2048 of 100000; over at 3 of 60 steps): the runs' allocations there are cut to --capacity and the DRA extends nothing over those steps (is --capacity right? mem is in MB)" \
    $RW --regime plan,plan+dra "$D/one.csv"
t "plan above --capacity: -q says nothing" 0 '' '*' '' $RW -q --regime plan "$D/one.csv"
t "plan above --capacity: the static regime does not use it" 1 '' '0' '' \
    sh -c "$RW --regime static '$D/one.csv' 2>&1 >/dev/null | grep -c warning"
#  static without idle sharing (the paper's worst case): 1 container a step:
#    debts 1,1,2,3 -> under 180 c*s at the skyline's end; the 3 left drain in
#    3 more steps: finish 420 s, still met.
t "hand: static --idle none" 0 '' \
"regime,job,run,start,deadline,finish,met,over_container_s,under_container_s
static,A,A-1,$T0,$((T0+600)),$((T0+420)),1,0,180" '' $R --regime static --idle none "$D/one.csv"

# Fair sharing: at 2h, A (provisioned 1) wants 4 containers and B
# (provisioned 0) wants 2, one step each, on 4 cores.  A's guarantee leaves 3
# idle cores, shared max-min: 1.5 each -> A has 2.5 of 4 (debt 1.5), B 1.5 of
# 2 (debt 0.5); next step both debts fit: both finish at 2h + 120 s.
# Under the plan, A gets its 2 reserved containers twice (finish 2h + 120 s,
# under 120) and B, with no reservation, never runs: unfinished, missed.
# X's SLO is not actionable: not replayed.
t "hand: max-min fair share of idle; job without reservation" 0 '' \
"regime,job,run,start,deadline,finish,met,over_container_s,under_container_s
static,A,A-2,$((T0+7200)),$((T0+7800)),$((T0+7320)),1,0,90
static,B,B-1,$((T0+7200)),$((T0+7800)),$((T0+7320)),1,0,30
plan,A,A-2,$((T0+7200)),$((T0+7800)),$((T0+7320)),1,0,120
plan,B,B-1,$((T0+7200)),$((T0+7800)),,0,0,120" '' $R --regime static,plan "$D/fair.csv"

# Totals: plan footprint = the plan's peak (2 cores); static = 1 provisioned
# container; plan utilization = 7 used of 8 reserved container-steps.
$R --summary "$TMP/sum.csv" "$D/one.csv" > /dev/null
t "summary: totals per regime" 0 '' \
'regime,idle,runs,met,missed,unfinished,violation_rate,footprint_cores,footprint_mem_mb,utilization
static,fair,1,1,0,0,0,1,1024,1.75
plan,none,1,0,1,0,1,2,2048,0.875
plan+dra,none,1,1,0,0,0,2,2048,0.875' '' cut -d, -f1-10 "$TMP/sum.csv"
t "--from/--until select runs" 0 '' \
"regime,job,run,start,deadline,finish,met,over_container_s,under_container_s
static,A,A-2,$((T0+7200)),$((T0+7800)),$((T0+7320)),1,0,90
static,B,B-1,$((T0+7200)),$((T0+7800)),$((T0+7320)),1,0,30" '' $R --regime static --from $((T0+3600)) "$D/fair.csv" "--until=$((T0+9000))"
t "same result from stdin" 0 "@$D/one.csv" '*' '' $R

# errors
t "needs --slo" 64 '' '' "--slo FILE is required" replay --capacity cores=1,mem=1
t "needs --capacity" 64 '' '' "--capacity cores=N,mem=M is required" replay --slo "$D/slo.csv"
t "static needs --provisioned" 64 '' '' "the static regime needs --provisioned" replay --slo "$D/slo.csv" --capacity cores=1,mem=1
t "plan needs --plan" 64 '' '' "the plan regime needs --plan" replay --slo "$D/slo.csv" --capacity cores=1,mem=1 --regime plan
# the DRA's options without the plan+dra regime would be ignored: refused
for o in "--grant 5m" "--window 5m" "--rho 1" "--recent plan"; do
    t "$o without plan+dra: 64" 64 '' '' "replay: ${o%% *} goes with the plan+dra regime" \
        replay --slo "$D/slo.csv" --capacity cores=1,mem=1 --plan "$D/plan.csv" --regime static,plan --provisioned "$D/prov.csv" $o
done
t "--grant with plan+dra among the regimes: accepted" 0 '' '*' '' \
    replay -q --slo "$D/slo.csv" --capacity cores=1,mem=1 --plan "$D/plan.csv" --regime plan,plan+dra --grant 5m "$D/one.csv"
t "bad regime" 64 '' '' "invalid value for --regime: 'dynamic'" replay --slo "$D/slo.csv" --capacity cores=1,mem=1 --regime dynamic
t "bad --idle" 64 '' '' "invalid value for --idle" replay --slo "$D/slo.csv" --capacity cores=1,mem=1 --idle some
t "run not grouped" 65 $'job,run,t,containers\nA,a1,0,1\nA,a2,0,1\nA,a1,60,1\n' '*' "<stdin>:4: input not grouped by run: run 'a1' appears again after run 'a2' (sort by run first, the header kept on top, e.g. (head -1 FILE; tail -n +2 FILE | sort -s -t, -k2,2))" $R
t "t not increasing" 65 $'job,run,t,containers\nA,a1,60,1\nA,a1,0,1\n' '*' "<stdin>:3: run 'a1': t 0 not after" $R
t "negative containers" 65 $'job,run,t,containers\nA,a1,60,-1\n' '*' "<stdin>:2:" $R
t "huge containers" 65 $'job,run,t,containers\nA,a1,60,1e300\n' '*' "<stdin>:2: column 'containers'" $R
t "missing provisioned row" 65 $'job,run,t,containers\nB,b1,60,1\n' '*' "job 'B' has no provisioned row" \
    sh -c "printf 'job,provisioned\nA,1\n' > '$TMP/p.csv'; replay --slo '$D/slo.csv' --provisioned '$TMP/p.csv' --capacity cores=1,mem=1 --regime static"
# The static regime needs a provisioned row per job wherever it comes in
# --regime (after plan, the check was skipped and static printed plan's
# rows, exit 0).
t "missing provisioned row, static after plan" 65 "@$D/one.csv" '' "job 'A' has no provisioned row" \
    sh -c "printf 'job,provisioned\nB,0\n' > '$TMP/p.csv'; replay -q --slo '$D/slo.csv' --plan '$D/plan.csv' --provisioned '$TMP/p.csv' --capacity cores=4,mem=100000 --regime plan,static"
# A second provisioned row for a job is an error like a second SLO row (the
# last row silently won: A replayed with 2 containers, over 60 c*s).
t "duplicate provisioned row" 65 "@$D/one.csv" '' "dup.csv:3: job 'A' has a second provisioned row" \
    sh -c "printf 'job,provisioned\nA,1\nA,2\n' > '$TMP/dup.csv'; replay -q --regime static --slo '$D/slo.csv' --provisioned '$TMP/dup.csv' --capacity cores=4,mem=100000"
t "provisioned beyond 1e15" 65 "@$D/one.csv" '' "column 'provisioned': number '1e16' out of range" \
    sh -c "printf 'job,provisioned\nA,1e16\n' > '$TMP/big.csv'; replay -q --regime static --slo '$D/slo.csv' --provisioned '$TMP/big.csv' --capacity cores=4,mem=100000"
# beyond any cluster (1e8 containers): refused, as its over-allocation in
# container-seconds would pass 1e15 (cell probe, 2026-12-03: 1e15 gave
# over_container_s 2.4e17); 1e8 itself is taken, squeezed into the cluster
t "provisioned beyond 1e8 containers" 65 "@$D/one.csv" '' "big.csv:2: column 'provisioned': '1.5e8' is too large (at most 1e+08)" \
    sh -c "printf 'job,provisioned\nA,1.5e8\n' > '$TMP/big.csv'; replay -q --regime static --slo '$D/slo.csv' --provisioned '$TMP/big.csv' --capacity cores=4,mem=100000"
t "provisioned 1e8 containers: squeezed, the over-allocation under 1e15" 0 "@$D/one.csv" '*' '' \
    sh -c "printf 'job,provisioned\nA,1e8\n' > '$TMP/big.csv'; replay -q --regime static --slo '$D/slo.csv' --provisioned '$TMP/big.csv' --capacity cores=4,mem=100000 | awk -F, 'NR>1 && !(\$8 > 0 && \$8 < 1e15) {exit 1}'"
t "bad SLO window" 65 $'job,run,t,containers\n' '*' "job 'A': window d - a = 600 s is longer than the period 60 s" \
    sh -c "printf 'job,period,a,d\nA,60,0,600\n' > '$TMP/s.csv'; replay --slo '$TMP/s.csv' --provisioned '$D/prov.csv' --capacity cores=1,mem=1"
t "missing SLO file" 66 '' '*' "cannot open" replay --slo "$TMP/none.csv" --provisioned "$D/prov.csv" --capacity cores=1,mem=1

# --align reservation: A-3 starts at 3900 s (offset 300), after A's
# reservation (3600-3780 s): recorded, it waits for the next hour's
# reservation (2 + 2 containers at 7200, 7260 s: finish 7320 s > 4200 s,
# missed, under 240).  Submitted into its reservation it runs at 3600 s and
# finishes at 3720 s; not before its input (3660 s, --runs): finishes 3780 s.
t "align: recorded start misses the reservation" 0 '' \
"regime,job,run,start,deadline,finish,met,over_container_s,under_container_s
plan,A,A-3,$((T0+3900)),$((T0+4200)),$((T0+7320)),0,0,240" '' $R --regime plan "$D/late.csv"
t "align: submitted into the reservation" 0 '' \
"regime,job,run,start,deadline,finish,met,over_container_s,under_container_s
plan,A,A-3,$((T0+3600)),$((T0+4200)),$((T0+3720)),1,0,0" '' $R --regime plan --align reservation "$D/late.csv"
t "align: not before the input is available" 0 '' \
"regime,job,run,start,deadline,finish,met,over_container_s,under_container_s
plan,A,A-3,$((T0+3660)),$((T0+4200)),$((T0+3780)),1,0,0
plan+dra,A,A-3,$((T0+3660)),$((T0+4200)),$((T0+3780)),1,0,0" '' $R --regime plan,plan+dra --align reservation --runs "$D/late_runs.csv" "$D/late.csv"
# Static keeps recorded starts, so --align reservation without a plan
# regime would be ignored: refused (it ran with exit 0, output as recorded),
# with --plan and without it; alongside a plan regime static still keeps
# its recorded start.
t "align: reservation with static only, --plan given: 64" 64 '' '' \
    "replay: --align reservation goes with a plan regime (plan or plan+dra)" $R --regime static --align reservation "$D/late.csv"
t "align: reservation without --plan (static by default): 64" 64 '' '' \
    "replay: --align reservation goes with a plan regime (plan or plan+dra)" \
    replay --slo "$D/slo.csv" --provisioned "$D/prov.csv" --capacity cores=4,mem=100000 --align reservation "$D/late.csv"
t "align: static beside plan keeps recorded starts" 0 '' \
"regime,job,run,start,deadline,finish,met,over_container_s,under_container_s
static,A,A-3,$((T0+3900)),$((T0+4200)),$((T0+4020)),1,0,0
plan,A,A-3,$((T0+3600)),$((T0+4200)),$((T0+3720)),1,0,0" '' $R --regime static,plan --align reservation "$D/late.csv"
# A run table without input_avail (traceconv google-runs': job, instance,
# submit, start, end, status) or with it empty gives the submit time, as
# sloinfer takes it (it was "missing required column 'input_avail'"): A-3
# submitted at 3660 s starts there, as with input_avail 3660 s above.
for rt in "job,instance,submit,start,end,status
A,A-3,$((T0+3660)),$((T0+3900)),$((T0+4020)),finished" "job,instance,submit,input_avail
A,A-3,$((T0+3660)),"; do
t "align: the submit time where input_avail is $( [ "${rt#*input_avail}" = "$rt" ] && echo 'no column' || echo empty)" 0 "$rt" \
"regime,job,run,start,deadline,finish,met,over_container_s,under_container_s
plan,A,A-3,$((T0+3660)),$((T0+4200)),$((T0+3780)),1,0,0" '' sh -c "$R --regime plan --align reservation --runs - '$D/late.csv'"
done
t "--runs with neither input_avail nor submit" 65 'job,instance
A,A-3' '' "<stdin>:1: missing required column 'input_avail'" $R --regime plan --align reservation --runs - "$D/late.csv"
t "--runs needs --align reservation" 64 '' '' "--runs goes with --align reservation" $R --runs "$D/late_runs.csv"
# An instance listed twice in --runs (a retry) counts its earliest
# input_avail whatever the row order (bsearch picked either row: with the
# later 1767578000 first A-3 started at 1767578040 and missed).
LATE2="A,A-3,1767575090,1767575100,1767575220,1767578000,,ok"
for o in first last; do
t "--runs: a duplicated instance keeps its earliest input ($o)" 0 "@$D/late.csv" \
"plan,A,A-3,$((T0+3660)),$((T0+4200)),$((T0+3780)),1,0,0" '' \
    sh -c "{ head -1 '$D/late_runs.csv'; [ $o = first ] && echo '$LATE2'; tail -n +2 '$D/late_runs.csv'; [ $o = last ] && echo '$LATE2'; } > '$TMP/dr.csv'; $R --no-output-header --regime plan --align reservation --runs '$TMP/dr.csv'"
done

# A cluster smaller than the guarantees: A's 1 provisioned container on 0.5
# cores runs at 0.5 a step: debts 1.5, 2, 3.5, 5 (under 300 c*s), then 10
# more steps: finish at 840 s > 600 s: missed.  Its last step needs 0.5 of
# its 1 guaranteed container: over 30 c*s.
t "capacity below the guarantees squeezes them" 0 '' \
"regime,job,run,start,deadline,finish,met,over_container_s,under_container_s
static,A,A-1,$T0,$((T0+600)),$((T0+840)),0,30,300" '' \
    replay -q --slo "$D/slo.csv" --provisioned "$D/prov.csv" --capacity cores=0.5,mem=100000 --idle none "$D/one.csv"

# (audit, 2026-12-04) over counts the guarantee as given, also on steps the
# cut squeezes (replay(1) Results): A provisioned 10 containers on 1 core
# gets 1 a step.  use 2,1,2,2: demand (use + debt) 2,2,3,4 with debts
# 1,1,2,3 (under 3 x 60 = 180 c*s when the skyline ends), then 3,2,1: done
# at the end of step 7 (T0+420 <= T0+600, met).  over = (10-2) + (10-2) +
# (10-3) + (10-4) + (10-3) + (10-2) + (10-1) = 53 container-steps = 3180.
t "squeezed steps: over counts the nominal guarantee" 0 "@$D/one.csv" \
    "static,A,A-1,$T0,$((T0+600)),$((T0+420)),1,3180,180" '' \
    replay -q --no-output-header --regime static --slo "$D/slo.csv" --provisioned <(printf 'job,provisioned\nA,10\n') \
    --capacity cores=1,mem=100000 --idle none

# Usage in containers of another shape than the plan's (review,
# 2026-12-04: utilization 2 with no word): A's plan reserves 1-core
# containers (skyline without shape columns), its runs use 4 containers of
# 2 cores, 2048 MB: warned at the plan, and the plan regime's utilization
# is used / reserved cores, 4 x 2 / (4 x 1) = 2, as the warning says it
# may be; the same usage with 1 core, 1024 MB (the skyline's default
# container) is not warned of
S4="$TMP/shape"; mkdir -p "$S4"
printf 'job,period,a,d\nA,3600,0,1800\n' > "$S4/slo.csv"
printf 'job,step,offset,alloc\nA,60,0,4\nA,60,60,4\n' > "$S4/sky.csv"
lcmpack -q --slo "$S4/slo.csv" --capacity cores=100,mem=1000000 "$S4/sky.csv" -o "$S4/plan.csv"
t "plan shape differs from the runs': warned" 0 '' 'plan,none,2' \
    "replay: $S4/plan.csv: warning: job 'A': its runs use containers of 2 cores, 2048 MB (mean) and its plan reserves 1 cores, 1024 MB: the plan regimes guarantee the plan's containers, so utilization may pass 1 (is its skyline from the same usage?)" \
    sh -c 'printf "job,run,t,containers,cores,mem_mb\nA,r0,0,4,2,2048\nA,r0,60,4,2,2048\n" |
        replay --regime plan --idle none --slo "$1/slo.csv" --plan "$1/plan.csv" --capacity cores=100,mem=1000000 \
            --summary "$1/sum.csv" -o /dev/null && awk -F, "NR == 2 { print \$1 \",\" \$2 \",\" \$10 }" "$1/sum.csv"' _ "$S4"
t "plan shape as the runs': no warning" 0 '' 'warnings: 0' '' \
    sh -c 'printf "job,run,t,containers,cores,mem_mb\nA,r0,0,4,1,1024\nA,r0,60,4,1,1024\n" |
        replay --regime plan --idle none --slo "$1/slo.csv" --plan "$1/plan.csv" --capacity cores=100,mem=1000000 \
            -o /dev/null 2> "$1/err" && echo "warnings: $(grep -c warning "$1/err")"' _ "$S4"

# Cross-check against an independent simulator (tests/check/replay_check.py,
# written from replay(1)): a small tracegen workload through sloinfer, skyfit
# and lcmpack, replayed under all three regimes (the checker has its own DRA)
# on a cluster that is tight (guarantees squeezed) and
# one that is ample, with and without idle sharing, recorded and aligned.
W="$TMP/x"; mkdir -p "$W"
tracegen -q runs --count 12 --days 3 > "$W/runs.csv"
tracegen -q usage --count 12 --days 3 --truth "$W/truth.csv" > "$W/usage.csv"
sloinfer -q --min-runs 2 "$W/runs.csv" > "$W/slo.csv"
skyfit -q --last 5 --round "$W/usage.csv" > "$W/sky.csv"
lcmpack -q --slo "$W/slo.csv" --capacity cores=300,mem=1e9 "$W/sky.csv" -o "$W/plan.csv"
CK="/usr/bin/python3 $ROOT/tests/check/replay_check.py $W/usage.csv $W/slo.csv $W/truth.csv $W/plan.csv"
for cap in 150 5000; do
    for idle in fair none; do
        replay -q --regime static,plan,plan+dra --idle $idle --slo "$W/slo.csv" --plan "$W/plan.csv" --provisioned "$W/truth.csv" \
            --capacity cores=$cap,mem=1e9 "$W/usage.csv" > "$W/out.csv"
        tcheck "checker: tracegen workload, $cap cores, idle $idle" $CK $cap 1e9 $idle "$W/out.csv"
    done
done
replay -q --regime plan,plan+dra --align reservation --slo "$W/slo.csv" --plan "$W/plan.csv" --provisioned "$W/truth.csv" \
    --capacity cores=300,mem=1e9 \
    "$W/usage.csv" > "$W/out.csv"
tcheck "checker: aligned to reservations" $CK 300 1e9 none "$W/out.csv" reservation
t "checker: workload has met and missed runs" 0 '' '*' '' sh -c "cut -d, -f7 '$W/out.csv' | sort -u | tr '\n' ' ' | grep -q '0 1 met'"
t "period longer than a year" 65 $'job,run,t,containers\n' '*' "longer than a year" \
    sh -c "printf 'job,period,a,d\nA,1e300,0,600\n' > '$TMP/s.csv'; replay --slo '$TMP/s.csv' --provisioned '$D/prov.csv' --capacity cores=1,mem=1"
t "time out of range" 65 $'job,run,t,containers\nA,a1,1e300,1\n' '*' "<stdin>:2: column 't'" $R

# the replay visits every step of the span: a span beyond --max-steps is refused at once
t "span beyond --max-steps" 65 '' '' "run 'A-2': the runs span 3333333335 steps of 60 s, more than --max-steps 10000000" $R "$ROOT/tests/bad/replay/span_2e11.csv"
t "--max-steps small" 65 '' '' "more than --max-steps 2" $R --max-steps 2 "$D/one.csv"
# One run may span at most 10000000 steps whatever --max-steps (it holds a
# value per step).  The error names the row that crossed the limit, the
# run's first t and this one (it said "z.csv:2: run 'r1' spans 58919042
# steps: too long", at the run's first line, and --max-steps 1e9 did not
# lift it): a t that lies past it, or the last row's end (t plus the
# interval before it: 4e8 + 399999940 s is 13333333 steps).
t "one run beyond 1e7 steps: the row that crossed it" 65 $'job,run,t,containers\nA,r1,0,1\nA,r1,1767571260,2\n' '*' \
    "<stdin>:3: run 'r1': t 1767571260 lies 29459521 steps of 60 s after its first t 0 (line 2), more than the 10000000 steps a run may span, whatever --max-steps (a bad timestamp, most likely)" \
    $R --regime static --max-steps 1000000000
t "one run beyond 1e7 steps: the last row's end crossed it" 65 $'job,run,t,containers\nA,r1,0,1\nA,r1,60,1\nA,r1,400000000,2\n' '*' \
    "<stdin>:4: run 'r1': t 400000000, held 399999940 s as the interval before it, ends 13333333 steps of 60 s after its first t 0 (line 2), more than the 10000000 steps a run may span" \
    $R --regime static --max-steps 1000000000
t "--max-steps 0 refused" 64 '' '' "invalid value for --max-steps: '0'" $R --max-steps 0 "$D/one.csv"

# Runs end at their recorded end: A's last sample (2 containers at 170 s)
# lasts as long as the gap before it (50 s): the run ends at 220 s, not at
# the end of its grid step (240 s).  On the 60 s grid it uses 2, 1,
# 2 (50 s of 2 + 10 s of 2) and 4/3 (40 s of 2) containers.
#  static (idle fair): served in full: finish 220 s, met.
#  plan: 2 reserved at 0-180 s: step 1 wastes 1 (over 60); step 3 has no
#    reservation: 4/3 of debt (under 80), served at 3600 s by the next
#    hour's 2 (over 2/3 x 60 = 40): finish 3660 s, missed, over 100.
#  plan+dra: extended at step 3 with 2 containers (over 40 more): served in
#    full, so it ends at its recorded end, 220 s.
t "hand: runs end at their recorded end" 0 '' \
"regime,job,run,start,deadline,finish,met,over_container_s,under_container_s
static,A,A-1,$T0,$((T0+600)),$((T0+220)),1,0,0
plan,A,A-1,$T0,$((T0+600)),$((T0+3660)),0,100,80
plan+dra,A,A-1,$T0,$((T0+600)),$((T0+220)),1,100,0" '' $R "$D/shortend.csv"
# Jobs the plan holds nothing for keep their manual provisioning: B
# (provisioned 2 in prov2.csv, no reservation) gets its 2 containers in the
# plan regime too and finishes its one 60 s sample at 2h + 60 s, met.  A
# (provisioned 1): static gives 1 + the 1 idle core of 4 (B holds 2): debt 2
# (under 120), done the next step; plan gives its 2 reserved twice.
t "hand: a job without reservation keeps its manual provisioning" 0 '' \
"regime,job,run,start,deadline,finish,met,over_container_s,under_container_s
static,A,A-2,$((T0+7200)),$((T0+7800)),$((T0+7320)),1,0,120
static,B,B-1,$((T0+7200)),$((T0+7800)),$((T0+7260)),1,0,0
plan,A,A-2,$((T0+7200)),$((T0+7800)),$((T0+7320)),1,0,120
plan,B,B-1,$((T0+7200)),$((T0+7800)),$((T0+7260)),1,0,0" '' \
    replay -q --slo $D/slo.csv --plan $D/plan.csv --provisioned $D/prov2.csv --capacity cores=4,mem=100000 \
    --regime static,plan "$D/fair.csv"
# ... and that provisioning is reserved capacity of the plan regime too: at
# 2h A's reservation (2 containers of 1 core, 1 GB) and B's manual 2 make a
# footprint of 4 cores, 4096 MB; at 2h + 60 s only A's 2 (B is done): 6
# core-steps reserved, 6 used (A 2 + B 2, then A 2): utilization 1.  Static:
# A's 1 + B's 2 = 3 cores; A also uses 1 idle core: 4 + 2 used of 3 + 1.
t "hand: the plan regime's footprint counts the manual provisioning it falls back on" 0 '' \
"regime,runs,missed,footprint_cores,footprint_mem_mb,utilization
static,2,0,3,3072,1.5
plan,2,0,4,4096,1" '' sh -c "replay -q --slo $D/slo.csv --plan $D/plan.csv --provisioned $D/prov2.csv \
    --capacity cores=4,mem=100000 --regime static,plan --summary '$TMP/fb-sum.csv' '$D/fair.csv' > /dev/null &&
    cut -d, -f1,3,5,8,9,10 '$TMP/fb-sum.csv'"

# tracegen --set preset=morpheus: the workload statistics of Morpheus §2
# Fig. 2a, measured from the usage it writes by tests/check/tracegen_fig2a.py
# (75% of jobs over-provisioned, 20% over 10x, large under-provisioned jobs);
# the default mix has no large under-provisioned jobs, and the checker says so.
for s in 1 2 3; do
    tracegen -q usage --seed $s --count 400 --days 2 --set preset=morpheus --truth "$TMP/f2t$s.csv" > "$TMP/f2u$s.csv"
    tcheck "tracegen preset=morpheus: Fig. 2a statistics (seed $s)" \
        /usr/bin/python3 "$ROOT/tests/check/tracegen_fig2a.py" "$TMP/f2u$s.csv" "$TMP/f2t$s.csv"
done
tracegen -q usage --seed 1 --count 400 --days 2 --truth "$TMP/f2t0.csv" > "$TMP/f2u0.csv"
t "tracegen default mix: not Fig. 2a's large under-provisioned jobs" 1 '' '*' '' \
    /usr/bin/python3 "$ROOT/tests/check/tracegen_fig2a.py" "$TMP/f2u0.csv" "$TMP/f2t0.csv"
t "tracegen bad preset" 64 '' '' "invalid value for --set preset: 'x' (want default or morpheus)" \
    tracegen usage --count 2 --days 1 --set preset=x

# examples/morpheus-eval.sh at a small size (20 jobs, 10 days, one seed):
# the whole pipeline with daily retraining by the nightly job runs, and its
# counts obey what holds whatever the workload: every regime replays the same
# runs, and no regime misses fewer than the floor (each run alone with
# unlimited containers ends at its recorded end, the earliest it can); the
# runs of jobs without a usable SLO are replayed too (column 12, counted
# apart).
t "morpheus-eval.sh small: runs, and no regime below the floor" 0 '' '*' '*' sh -c "
    bash '$ROOT/examples/morpheus-eval.sh' 20 10 1 '$TMP/me' > /dev/null 2>&1 &&
    awk -F, 'NR == 2 { ok = \$3 > 0 && \$12 > 0 && \$4 >= \$8 && \$5 >= \$8 && \$6 >= \$8 && \$7 >= \$8 } END { exit !(NR == 2 && ok) }' '$TMP/me/results.csv'"

# ---- --on-error skip: bad rows of the usage, provisioned and runs files are
# listed (file,line,reason) and left out; the result equals the strict run on
# the files without those rows (cut by sed); the default stays strict ----
{ cat "$D/one.csv"; echo 'A,A-1,1767571440,x,1,1024'; echo 'A,A-1,1767571300,2,1,1024'; } >"$TMP/one-bad.csv"
t "skip: strict stops" 65 '' '' "one-bad.csv:6: column 'containers': invalid number 'x'" $R "$TMP/one-bad.csv"
t "skip: usage rows" 0 '' "@$TMP/one.out" '' sh -c "$R $D/one.csv >$TMP/one.out && $R --on-error skip --rejects $TMP/rej.csv $TMP/one-bad.csv"
t "skip: usage rejects" 0 "@$TMP/rej.csv" "file,line,reason
$TMP/one-bad.csv,6,column 'containers': invalid number 'x'
$TMP/one-bad.csv,7,run 'A-1': t 1767571300 not after the previous 1767571380 (rows sorted by t)" '' cat
printf 'job,provisioned\nA,1\nB,-3\n,2\n' >"$TMP/prov-bad.csv"
t "skip: provisioned rows" 0 '' "@$TMP/one.out" '*' $R --provisioned "$TMP/prov-bad.csv" --on-error skip --rejects "$TMP/rej2.csv" "$D/one.csv"
tcheck "skip: provisioned rejects at lines 3 and 4" bash -c '[ "$(cut -d, -f2 "$1" | tr "\n" " ")" = "line 3 4 " ]' _ "$TMP/rej2.csv"
{ cat "$D/late_runs.csv"; echo 'A,A-9,1,2,3,soon,,ok'; } >"$TMP/runs-bad.csv"
t "skip: runs rows" 0 '' "$($R --regime plan,plan+dra --align reservation --runs "$D/late_runs.csv" "$D/late.csv")" '*' \
    $R --regime plan,plan+dra --align reservation --runs "$TMP/runs-bad.csv" --on-error skip "$D/late.csv"
# --help ends with a newline: argp drops it when the last line is exactly
# 79 columns wide (it was: the shell prompt followed the example).
tcheck "help ends with a newline" sh -c 'replay --help | tail -c 1 | od -An -c | grep -q "\\n"'
# Runs starting in the same step are listed by their first sample, then run
# id, whatever the input order (it was input order: the same usage split by
# job and concatenated back printed in another order).  B-1 starts at 10 s,
# A-1 at 30 s, both in step 0; A is provisioned 1 container: its sample
# covers [30, 90), half a container in each of two steps: over 60 c*s.
SAME=$'static,B,B-1,'$((T0+10))','$((T0+600))','$((T0+70))$',1,0,0\nstatic,A,A-1,'$((T0+30))','$((T0+600))','$((T0+90))',1,60,0'
RS="replay -q --regime static --slo $D/slo.csv --provisioned $D/prov.csv --capacity cores=4,mem=100000 --no-output-header"
t "same step: A-1 given first" 0 "job,run,t,containers,cores,mem_mb
A,A-1,$((T0+30)),1,1,1024
B,B-1,$((T0+10)),1,1,1024
" "$SAME" '' $RS
t "same step: B-1 given first" 0 "job,run,t,containers,cores,mem_mb
B,B-1,$((T0+10)),1,1,1024
A,A-1,$((T0+30)),1,1,1024
" "$SAME" '' $RS

# (audit, session 20) a run id first seen under a job without an SLO (X)
# and continued under job A swallowed A's rows: exit 0, "replaying 0 runs".
# The other order was already an error; now both are.
t "a run that changes job is refused, whichever job comes first" 65 $'job,run,t,containers\nX,r1,0,4\nA,r1,60,4\nA,r1,120,4\n' '' \
    "<stdin>:3: run 'r1' changes job ('X', then 'A')" \
    replay --regime plan --slo <(printf 'job,period,a,d\nA,3600,0,1800\n') --plan "$D/audit-p1.csv" --capacity cores=100,mem=1e9
t "a run that changes job is refused (the other order)" 65 $'job,run,t,containers\nA,r1,0,4\nX,r1,60,4\n' '' \
    "<stdin>:3: run 'r1' changes job ('A', then 'X')" \
    replay --regime plan --slo <(printf 'job,period,a,d\nA,3600,0,1800\n') --plan "$D/audit-p1.csv" --capacity cores=100,mem=1e9
# (audit, session 20) d past the period's end (sloinfer's daily window
# [23:30, 02:00], a = 84600, d = 93600): the deadline was the start of the
# period holding the first sample + d, so d1, first seen Jan 7 01:00
# (1767747600), was due Jan 8 02:00 and "met" at 02:30.  It is the
# instance of Jan 6 (01:00 lies in that window's spill-over, before Jan 7's
# a): due Jan 7 02:00 = 1767657600 + 93600 = 1767751200, missed.  d0 (Jan 5
# 23:40, after a) is Jan 5's: 1767571200 + 93600 = 1767664800, met.
t "d past the period: a run after midnight is the day before's instance" 0 '' \
    $'static,D,d0,1767656400,1767664800,1767658800,1\nstatic,D,d1,1767747600,1767751200,1767753000,0' '' bash -c '
    replay -q --regime static --slo <(printf "job,period,a,d\nD,86400,84600,93600\n") --plan "$1/audit-dgtp-plan.csv" \
        --provisioned <(printf "job,provisioned\nD,5\n") --capacity cores=100,mem=1e9 "$1/audit-dgtp-usage.csv" | cut -d, -f1-7 | tail -n +2' _ "$D"
# (audit, 2026-12-04) --step is a slice of a run: at most a day (a 1e15 s
# step replayed each run as one block that "finished" 1e15 s after it began).
t "--step above a day refused" 64 '' '' "invalid value for --step: '2d' (out of range: at most 86400 s)" $R --step 2d
t "--step of a day accepted" 0 $'job,run,t,containers\nA,1,0,1\n' $'regime,job,run,start,deadline,finish,met,over_container_s,under_container_s\nstatic,A,1,0,600,86400,0,0,0' '' \
    replay -q --slo "$D/slo.csv" --provisioned "$D/prov.csv" --capacity cores=4,mem=100000 --step 1d
# Times before 1970 are negative epoch seconds (traceconv --epoch before
# 1970 writes them): the replay aligns periods and steps by floor, so the
# same runs shifted back by whole plan cycles (2 h, and 20833 days + 1 h to
# before 1913) give the same rows shifted back by as much.
for off in -7200 -1800000000; do
tcheck "times before 1970: the replay shifted by $off s" bash -c '
    rp() { replay -q --slo "$1/slo.csv" --plan "$1/plan.csv" --provisioned "$1/prov.csv" --capacity cores=4,mem=100000 \
        --regime plan,static,plan+dra; }
    want=$(rp "$1" < "$1/stretch.csv")
    got=$(awk -F, -v o="$2" "NR > 1 { \$3 += o } 1" OFS=, "$1/stretch.csv" | rp "$1" |
        awk -F, -v o="$2" "NR > 1 { \$4 -= o; \$5 -= o; \$6 -= o } 1" OFS=,)
    [ -n "$want" ] && [ "$(printf "%s\n" "$want" | wc -l)" -eq 4 ] && [ "$got" = "$want" ]' _ "$D" "$off"
done
